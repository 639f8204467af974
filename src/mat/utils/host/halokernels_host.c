/*
   Host reference implementation of the halo kernels (gpupc/matgpu.h).
*/
#include <gpupc/matgpu.h>

static PetscErrorCode Gather_Host(PetscInt n, const PetscInt *idx, const PetscScalar *x, PetscScalar *buf)
{
  for (PetscInt k = 0; k < n; k++) buf[k] = x[idx[k]];
  return 0;
}

static PetscErrorCode ScatterAdd_Host(PetscInt n, const PetscInt *idx, const PetscScalar *buf, PetscScalar *y)
{
  for (PetscInt k = 0; k < n; k++) y[idx[k]] += buf[k];
  return 0;
}

/* the table: every member's Stem_Host from GPUPC_HALO_KERNEL_LIST, by name (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_DEFINE(GPUPCHaloKernels, GPUPCHaloKernelsHost, GPUPC_HALO_KERNEL_LIST, "host", _Host);

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

const GPUPCHaloKernels GPUPCHaloKernelsHost = {"host", Gather_Host, ScatterAdd_Host};

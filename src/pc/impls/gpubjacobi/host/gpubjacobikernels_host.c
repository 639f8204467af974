/*
   Host reference implementation of the gpubjacobi kernels (gpupc/gpubjacobikernels.h): block by block, row by row,
   the products summed over j in increasing order.
*/
#include <gpupc/gpubjacobikernels.h>

static PetscErrorCode Apply_Host(const GPUPCPBJBlocks *D, const PetscScalar *x, PetscScalar *y)
{
  const PetscInt n = D->n, bs = D->bs, ld = D->ld;

  for (PetscInt k0 = 0; k0 < n; k0 += bs) {
    const PetscInt m = PetscMin(bs, n - k0);
    for (PetscInt i = 0; i < m; i++) {
      PetscScalar s = 0.0;
      for (PetscInt j = 0; j < m; j++) s += D->inv[(size_t)j * ld + k0 + i] * x[k0 + j];
      y[k0 + i] = s;
    }
  }
  return 0;
}

static PetscErrorCode ApplyTranspose_Host(const GPUPCPBJBlocks *D, const PetscScalar *x, PetscScalar *y)
{
  const PetscInt n = D->n, bs = D->bs, ld = D->ld;

  for (PetscInt k0 = 0; k0 < n; k0 += bs) {
    const PetscInt m = PetscMin(bs, n - k0);
    for (PetscInt i = 0; i < m; i++) {
      PetscScalar s = 0.0;
      for (PetscInt j = 0; j < m; j++) s += D->inv[(size_t)i * ld + k0 + j] * x[k0 + j]; /* B^-1(j, i) */
      y[k0 + i] = s;
    }
  }
  return 0;
}

/* the table: every member's Stem_Host from GPUPC_PBJ_KERNEL_LIST, by name (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_DEFINE(GPUPCPBJKernels, GPUPCPBJKernelsHost, GPUPC_PBJ_KERNEL_LIST, "host", _Host);

/*
   Host reference implementation of the segmented-CSR kernels (gpupc/segcsrkernels.h).
   Plain loops over rows and their segments: the semantics the CUDA version must match.
*/
#include <gpupc/segcsrkernels.h>

static PetscErrorCode Mult_Host(const GPUPCSegCSRDev *A, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  const PetscInt L = A->L;

  for (PetscInt i = 0; i < A->m; i++) {
    PetscScalar sum = 0.0;
    if (A->n > 0) { /* a block without columns (e.g. an empty off-diagonal block) reads no x */
      for (PetscInt g = A->segptr[i]; g < A->segptr[i + 1]; g++) {
        const PetscScalar *v = A->val + (size_t)g * L;
        const PetscInt    *c = A->col + (size_t)g * L;
        for (PetscInt s = 0; s < L; s++) sum += v[s] * x[c[s]];
      }
    }
    y[i] = z ? z[i] + sum : sum;
  }
  return 0;
}

static PetscErrorCode MultTransposeAdd_Host(const GPUPCSegCSRDev *A, const PetscScalar *x, PetscScalar *y)
{
  const PetscInt L = A->L;

  if (A->n == 0) return 0;
  for (PetscInt i = 0; i < A->m; i++) {
    const PetscScalar xi = x[i];
    for (PetscInt k = A->segptr[i] * L; k < A->segptr[i + 1] * L; k++) y[A->col[k]] += A->val[k] * xi;
  }
  return 0;
}

static PetscErrorCode GetDiagonal_Host(const GPUPCSegCSRDev *A, PetscInt coloffset, PetscScalar *d)
{
  const PetscInt L = A->L;

  for (PetscInt i = 0; i < A->m; i++) {
    PetscScalar s = 0.0; /* padding slots hold 0, so summing every match is exact */
    for (PetscInt k = A->segptr[i] * L; k < A->segptr[i + 1] * L; k++)
      if (A->col[k] == i + coloffset) s += A->val[k];
    d[i] = s;
  }
  return 0;
}

const GPUPCSegCSRKernels GPUPCSegCSRKernelsHost = {"host", Mult_Host, MultTransposeAdd_Host, GetDiagonal_Host};

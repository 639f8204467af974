/*
   Host reference implementation of the bcsr kernels (gpupc/bcsrkernels.h): plain loops over the
   slices, their rows and steps, in the order the CUDA threads accumulate (per matrix row: steps in
   order, block columns j in order), so the two agree up to fused multiply-adds.
*/
#include <gpupc/bcsrkernels.h>

static PetscErrorCode Mult_Host(const GPUPCBCSRDev *A, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  const PetscInt b = A->b, S = A->S;

  PetscFunctionBegin;
  if (!A->nblocks || !A->n) { /* no stored block or no columns: y = z (or 0) */
    for (PetscInt k = 0; k < A->m; k++) y[k] = z ? z[k] : 0.0;
    PetscFunctionReturn(0);
  }
  for (PetscInt s = 0; s < A->nslices; s++) {
    const PetscInt b0 = A->sliceptr[s], b1 = A->sliceptr[s + 1];

    for (PetscInt r = 0; r < S; r++) {
      const PetscInt br = A->blkrow[s * S + r];

      if (br < 0) continue; /* padding row of the last slice */
      for (PetscInt i = 0; i < b; i++) {
        PetscScalar sum = 0.0;

        for (PetscInt q = b0; q < b1; q += S) { /* q: first block of the step */
          const PetscInt c = A->bcol[q + r] * b;

          for (PetscInt j = 0; j < b; j++) sum += A->val[GPUPCBCSRSlot(q, S, b, r, i, j)] * x[c + j];
        }
        y[br * b + i] = z ? z[br * b + i] + sum : sum;
      }
    }
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode MultTransposeAdd_Host(const GPUPCBCSRDev *A, const PetscScalar *x, PetscScalar *y)
{
  const PetscInt b = A->b, S = A->S;

  PetscFunctionBegin;
  if (!A->nblocks || !A->n) PetscFunctionReturn(0);
  for (PetscInt s = 0; s < A->nslices; s++) {
    const PetscInt b0 = A->sliceptr[s], b1 = A->sliceptr[s + 1];

    for (PetscInt r = 0; r < S; r++) {
      const PetscInt br = A->blkrow[s * S + r];

      if (br < 0) continue;
      for (PetscInt q = b0; q < b1; q += S) {
        const PetscInt c = A->bcol[q + r] * b;

        for (PetscInt i = 0; i < b; i++)
          for (PetscInt j = 0; j < b; j++) y[c + j] += A->val[GPUPCBCSRSlot(q, S, b, r, i, j)] * x[br * b + i];
      }
    }
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode GetDiagonal_Host(const GPUPCBCSRDev *A, PetscScalar *d)
{
  const PetscInt b = A->b, S = A->S;

  PetscFunctionBegin;
  for (PetscInt br = 0; br < A->mb; br++) {
    const PetscInt p = A->rowpos[br], s = p / S, r = p % S, q1 = A->sliceptr[s + 1];
    PetscInt       q = q1;

    if (br < A->nb) /* the first block of column br (padding repeats a column, with zeros, after it) */
      for (q = A->sliceptr[s]; q < q1; q += S)
        if (A->bcol[q + r] == br) break;
    for (PetscInt i = 0; i < b; i++) d[br * b + i] = q < q1 ? A->val[GPUPCBCSRSlot(q, S, b, r, i, i)] : 0.0;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode LayValues_Host(const GPUPCBCSRDev *A, PetscInt k0, PetscInt count, const PetscScalar *a, PetscScalar *val)
{
  PetscFunctionBegin;
  for (PetscInt q = 0; q < count; q++) val[A->pos[k0 + q]] = a[q];
  PetscFunctionReturn(0);
}

/* the table: every member's Stem_Host from GPUPC_BCSR_KERNEL_LIST, by name (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_DEFINE(GPUPCBCSRKernels, GPUPCBCSRKernelsHost, GPUPC_BCSR_KERNEL_LIST, "host", _Host);

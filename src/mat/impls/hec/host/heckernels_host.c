/*
   Host reference implementation of the HEC kernels (gpupc/heckernels.h). Plain loops over rows: the ELL entries of a
   row, then its remainder; the semantics the CUDA version must match.
*/
#include <gpupc/heckernels.h>

/* entries of row i in the ELL part */
static inline PetscInt EllLength(const GPUPCHECDev *A, PetscInt i)
{
  return PetscMin(A->rowptr[i + 1] - A->rowptr[i], A->K);
}

/* y[i] = z[i] + (row i of A) x: the ELL entries in order, then the remainder in order */
static inline void RowProduct(const GPUPCHECDev *A, PetscInt i, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  const PetscInt e   = EllLength(A, i);
  PetscScalar    sum = 0.0;

  if (A->n > 0) { /* a block without columns (e.g. an empty off-diagonal block) reads no x */
    for (PetscInt p = 0; p < e; p++) sum += A->ellval[(size_t)p * A->stride + i] * x[A->ellcol[(size_t)p * A->stride + i]];
    for (PetscInt r = A->remptr[i]; r < A->remptr[i + 1]; r++) sum += A->remval[r] * x[A->remcol[r]];
  }
  y[i] = z ? z[i] + sum : sum;
}

/* the rows in the bin order of the CUDA kernel: block rows, warp rows (both from longrows), then the thread rows; a
   row the build left out of longrows keeps a stale y, which the tests see */
static PetscErrorCode Mult_Host(const GPUPCHECDev *A, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  for (PetscInt r = 0; r < A->nlong; r++) RowProduct(A, A->longrows[r], x, z, y);
  for (PetscInt i = 0; i < A->m; i++) {
    if (GPUPCHECRowBin(A->remptr[i + 1] - A->remptr[i]) == GPUPC_HEC_BIN_THREAD) RowProduct(A, i, x, z, y);
  }
  return 0;
}

static PetscErrorCode MultTransposeAdd_Host(const GPUPCHECDev *A, const PetscScalar *x, PetscScalar *y)
{
  if (A->n == 0) return 0;
  for (PetscInt i = 0; i < A->m; i++) {
    const PetscInt    e  = EllLength(A, i);
    const PetscScalar xi = x[i];

    for (PetscInt p = 0; p < e; p++) y[A->ellcol[(size_t)p * A->stride + i]] += A->ellval[(size_t)p * A->stride + i] * xi;
  }
  for (PetscInt r = 0; r < A->nrem; r++) y[A->remcol[r]] += A->remval[r] * x[A->remrow[r]];
  return 0;
}

static PetscErrorCode GetDiagonal_Host(const GPUPCHECDev *A, PetscInt coloffset, PetscScalar *d)
{
  for (PetscInt i = 0; i < A->m; i++) {
    const PetscInt e = EllLength(A, i);
    PetscScalar    s = 0.0;

    for (PetscInt p = 0; p < e; p++)
      if (A->ellcol[(size_t)p * A->stride + i] == i + coloffset) s += A->ellval[(size_t)p * A->stride + i];
    for (PetscInt r = A->remptr[i]; r < A->remptr[i + 1]; r++)
      if (A->remcol[r] == i + coloffset) s += A->remval[r];
    d[i] = s;
  }
  return 0;
}

/* row by row over rows i0 .. i1-1: their entries inside [k0, k1), entry p of the row to ELL slot p (p < K) or to
   remainder entry p - K */
static PetscErrorCode LayValues_Host(const GPUPCHECDev *A, PetscInt i0, PetscInt i1, PetscInt k0, PetscInt k1, const PetscScalar *a)
{
  for (PetscInt i = i0; i < i1; i++) {
    const PetscInt b = PetscMax(k0, A->rowptr[i]), e = PetscMin(k1, A->rowptr[i + 1]);

    for (PetscInt k = b; k < e; k++) {
      const PetscInt p = k - A->rowptr[i];

      if (p < A->K) A->ellval[(size_t)p * A->stride + i] = a[k - k0];
      else A->remval[A->remptr[i] + p - A->K] = a[k - k0];
    }
  }
  return 0;
}

/* the table: every member's Stem_Host from GPUPC_HEC_KERNEL_LIST, by name (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_DEFINE(GPUPCHECKernels, GPUPCHECKernelsHost, GPUPC_HEC_KERNEL_LIST, "host", _Host);

/*
   Host reference implementation of the HEC kernels (gpupc/heckernels.h). Plain loops over rows: an ELL row's ELL
   slots, or the entries of a row kept outside the ELL part (slab or CSR), in order; the semantics the CUDA version
   must match.
*/
#include <gpupc/heckernels.h>

/* slot of entry q of row i, a row kept outside the ELL part */
static inline size_t RemSlot(const GPUPCHECDev *A, PetscInt i, PetscInt q)
{
  return (size_t)A->rembase[i] + (size_t)q * A->remstep[i];
}

/* row i's product: sum_q a(i, q) x(col(i, q)), entries in row order */
static inline PetscScalar RowSum(const GPUPCHECDev *A, PetscInt i, const PetscScalar *x)
{
  const PetscInt e   = GPUPCHECEllLength(A, i);
  PetscScalar    sum = 0.0;

  if (A->n == 0) return 0.0; /* a block without columns (e.g. an empty off-diagonal block) reads no x */
  if (e >= 0)
    for (PetscInt p = 0; p < e; p++) sum += A->ellval[(size_t)p * A->stride + i] * x[A->ellcol[(size_t)p * A->stride + i]];
  else
    for (PetscInt q = 0; q < A->rowptr[i + 1] - A->rowptr[i]; q++) sum += A->remval[RemSlot(A, i, q)] * x[A->remcol[RemSlot(A, i, q)]];
  return sum;
}

static inline void RowProduct(const GPUPCHECDev *A, PetscInt i, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  const PetscScalar sum = RowSum(A, i, x);

  y[i] = z ? z[i] + sum : sum;
}

/* the rows in the bin order of the CUDA kernel: block rows, warp rows (both from longrows), the slab rows (from
   slabrows, group by group), then the ELL rows; a row the build left out of the lists keeps a stale y, which the tests
   see */
static PetscErrorCode Mult_Host(const GPUPCHECDev *A, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  for (PetscInt r = 0; r < A->nlong; r++) RowProduct(A, A->longrows[r], x, z, y);
  for (PetscInt t = 0; t < 32 * A->slabwarp[A->nslab]; t++)
    if (A->slabrows[t] >= 0) RowProduct(A, A->slabrows[t], x, z, y);
  for (PetscInt i = 0; i < A->m; i++)
    if (GPUPCHECEllLength(A, i) >= 0) RowProduct(A, i, x, z, y);
  return 0;
}

/* y += A^T x: the ELL entries row by row, then every slot outside the ELL part (slab padding skipped) */
static PetscErrorCode MultTransposeAdd_Host(const GPUPCHECDev *A, const PetscScalar *x, PetscScalar *y)
{
  if (A->n == 0) return 0;
  for (PetscInt i = 0; i < A->m; i++) {
    const PetscInt    e  = GPUPCHECEllLength(A, i);
    const PetscScalar xi = x[i];

    for (PetscInt p = 0; p < e; p++) y[A->ellcol[(size_t)p * A->stride + i]] += A->ellval[(size_t)p * A->stride + i] * xi;
  }
  for (PetscInt r = 0; r < A->nremslots; r++)
    if (A->remrow[r] >= 0) y[A->remcol[r]] += A->remval[r] * x[A->remrow[r]];
  return 0;
}

static PetscErrorCode GetDiagonal_Host(const GPUPCHECDev *A, PetscInt coloffset, PetscScalar *d)
{
  for (PetscInt i = 0; i < A->m; i++) {
    const PetscInt e = GPUPCHECEllLength(A, i);
    PetscScalar    s = 0.0;

    if (e >= 0) {
      for (PetscInt p = 0; p < e; p++)
        if (A->ellcol[(size_t)p * A->stride + i] == i + coloffset) s += A->ellval[(size_t)p * A->stride + i];
    } else {
      for (PetscInt q = 0; q < A->rowptr[i + 1] - A->rowptr[i]; q++)
        if (A->remcol[RemSlot(A, i, q)] == i + coloffset) s += A->remval[RemSlot(A, i, q)];
    }
    d[i] = s;
  }
  return 0;
}

/* row by row over rows i0 .. i1-1: their entries inside [k0, k1), entry p of an ELL row to ELL slot p, of another row
   to its slot outside the ELL part */
static PetscErrorCode LayValues_Host(const GPUPCHECDev *A, PetscInt i0, PetscInt i1, PetscInt k0, PetscInt k1, const PetscScalar *a)
{
  for (PetscInt i = i0; i < i1; i++) {
    const PetscInt b = PetscMax(k0, A->rowptr[i]), e = PetscMin(k1, A->rowptr[i + 1]);
    const PetscInt ell = GPUPCHECEllLength(A, i);

    for (PetscInt k = b; k < e; k++) {
      const PetscInt p = k - A->rowptr[i];

      if (ell >= 0) A->ellval[(size_t)p * A->stride + i] = a[k - k0];
      else A->remval[RemSlot(A, i, p)] = a[k - k0];
    }
  }
  return 0;
}

/* the table: every member's Stem_Host from GPUPC_HEC_KERNEL_LIST, by name (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_DEFINE(GPUPCHECKernels, GPUPCHECKernelsHost, GPUPC_HEC_KERNEL_LIST, "host", _Host);

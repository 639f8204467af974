/*
   Host reference implementation of the segmented-CSR kernels (gpupc/segcsrkernels.h).
   Plain loops over rows and their segments: the semantics the CUDA version must match.
*/
#include <gpupc/segcsrkernels.h>

/* y[i] = z[i] + (row i of A) x, the row's slots summed in order */
static inline void RowProduct(const GPUPCSegCSRDev *A, PetscInt i, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  PetscScalar sum = 0.0;

  if (A->n > 0) { /* a block without columns (e.g. an empty off-diagonal block) reads no x */
    for (size_t k = (size_t)A->segptr[i] * A->L; k < (size_t)A->segptr[i + 1] * A->L; k++) sum += A->val[k] * x[A->col[k]];
  }
  y[i] = z ? z[i] + sum : sum;
}

/* tile mode: tile t as the CUDA kernel does it: the sum of each of its segments (slots in
   order), then each row's segment sums in order */
static PetscErrorCode TileProduct(const GPUPCSegCSRDev *A, PetscInt t, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  const PetscInt r0 = A->tileptr[t], r1 = A->tileend[t], g0 = A->segptr[r0], g1 = A->segptr[r1], L = A->L;
  PetscScalar    segsum[GPUPC_SEGCSR_TILE_SLOTS];

  PetscFunctionBegin;
  PetscCheck(g1 - g0 <= GPUPC_SEGCSR_TILE_SLOTS / L, PETSC_COMM_SELF, PETSC_ERR_PLIB, "segcsr tile %" PetscInt_FMT " (rows %" PetscInt_FMT "..%" PetscInt_FMT ") has %" PetscInt_FMT " segments, more than %d / L = %" PetscInt_FMT, t, r0, r1 - 1, g1 - g0, GPUPC_SEGCSR_TILE_SLOTS, GPUPC_SEGCSR_TILE_SLOTS / L);
  for (PetscInt g = g0; g < g1; g++) {
    PetscScalar sum = 0.0;

    if (A->n > 0) { /* a block without columns reads no x */
      for (size_t k = (size_t)g * L; k < (size_t)(g + 1) * L; k++) sum += A->val[k] * x[A->col[k]];
    }
    segsum[g - g0] = sum;
  }
  for (PetscInt i = r0; i < r1; i++) {
    PetscScalar sum = 0.0;

    for (PetscInt g = A->segptr[i]; g < A->segptr[i + 1]; g++) sum += segsum[g - g0];
    y[i] = z ? z[i] + sum : sum;
  }
  PetscFunctionReturn(0);
}

/* the rows in the bin order of the CUDA kernel: long rows, medium rows, short rows (by tiles in
   tile mode); a row the build left out of its bin list or of the tiles keeps a stale y, which
   the tests see */
static PetscErrorCode Mult_Host(const GPUPCSegCSRDev *A, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  PetscFunctionBegin;
  for (PetscInt r = 0; r < A->nlong; r++) RowProduct(A, A->longrows[r], x, z, y);
  for (PetscInt r = 0; r < A->nmed; r++) RowProduct(A, A->medrows[r], x, z, y);
  if (A->shortmode == MAT_SEGCSR_SHORT_TILE) {
    for (PetscInt t = 0; t < A->ntiles; t++) PetscCall(TileProduct(A, t, x, z, y));
  } else {
    for (PetscInt i = 0; i < A->m; i++) {
      if (GPUPCSegCSRRowBin(A->segptr[i + 1] - A->segptr[i], A->L, A->shortmax) == GPUPC_SEGCSR_BIN_SHORT) RowProduct(A, i, x, z, y);
    }
  }
  PetscFunctionReturn(0);
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

/* the slots in order: slot s of segment s / L of row i holds entry rowptr[i] + s - segptr[i] L when that is below
   rowptr[i+1], else it is padding */
static PetscErrorCode LayValues_Host(const GPUPCSegCSRDev *A, PetscInt s0, PetscInt s1, PetscInt k0, const PetscScalar *a, PetscScalar *val)
{
  const PetscInt L = A->L;

  for (PetscInt s = s0; s < s1; s++) {
    const PetscInt i = A->segrow[s / L], k = A->rowptr[i] + s - A->segptr[i] * L;
    val[s] = k < A->rowptr[i + 1] ? a[k - k0] : 0.0;
  }
  return 0;
}

/* the table: every member's Stem_Host from GPUPC_SEGCSR_KERNEL_LIST, by name (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_DEFINE(GPUPCSegCSRKernels, GPUPCSegCSRKernelsHost, GPUPC_SEGCSR_KERNEL_LIST, "host", _Host);

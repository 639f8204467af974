static const char help[] = "Every member of the device sparse kernel table (gpupc/sparsekernels.h): the active backend's table on device\n"
                           "buffers against the host table on host buffers, and both against PETSc (MatTranspose, MatMatMult, MatPtAP,\n"
                           "MatSetValuesCOO, MatCreateSubMatrix, MatGetDiagonal) on random and structured matrices: 2D and 3D Laplacians,\n"
                           "gpuamg's classical and aggregation prolongators (and the A P, R (A P) of two levels), a 0/1 cluster prolongator\n"
                           "(cmg's Galerkin sums), rows of every product count up to a dense row, rectangles, 1 x 1, no rows, no columns,\n"
                           "no entries. The merge, unique and search members against results made in the test. The operations the setups call (GPUPCDevCSRMatMult, GPUPCDevCSRRAP, GPUPCDevCOOAssemble,\n"
                           "GPUPCDevCSRTranspose) with new values on the same patterns. A member without a case fails the test.\n"
                           "  -large <48>   grid points per side of the large 3D Laplacian (more than 10^5 rows: the coverage asks for it)\n";

/*
   Sides. Side 0 is the active backend's table on device-world buffers (GPUPCMalloc), side 1 the host table on
   host-world buffers (PetscMalloc); on the host backend both are the host table, in the two worlds. Inputs are drawn on
   the host, copied into both worlds, and the results copied back.

   Agreement. Both sides agree exactly on every member, except spgemm_values with deterministic false, where the CUDA
   table adds the products of an entry in any order. Against PETSc: patterns exactly (PETSc's SEQAIJ products keep
   the structural pattern, entries whose products cancel included), moved values exactly (transpose, extraction,
   diagonal), sums within

       |a - b| <= (k + 2) eps sum |t_j|

   where the entry sums k terms t_j (products of a product, products of products along the k paths of R A P,
   duplicates of a COO pair): both results lie within gamma_k sum |t_j| of the exact sum in any order of summation
   (gamma_k = k u / (1 - k u), u = eps / 2). k and sum |t_j| per entry come from the host table run on the
   all-ones and the absolute-value matrices.

   Peak memory. On the cuda backend every temporary of the CUDA table goes through GPUPCMalloc, so the device
   high-water mark over a call must equal the call's reported peak; on the host backend it must not exceed it.
*/
#include <petscmat.h>
#include <gpupc/sparsekernels.h>
#include <gpupc/amg.h>
#include "kerneltest.h"

typedef struct {
  const char               *what;
  PetscBool                 device; /* buffers: device world (GPUPCMalloc) or host world (PetscMalloc) */
  const GPUPCSparseKernels *k;
} Side;

typedef struct {
  Side                      S[2];
  PetscBool                 cuda; /* side 0 is the CUDA table */
  const GPUPCSparseKernels *host; /* the host table, for the bounds and the compositions on host arrays */
  PetscRandom               rnd;
  PetscInt                  runs[GPUPC_SPARSE_NKERNELS];
  PetscInt64                minsize[GPUPC_SPARSE_NKERNELS], maxsize[GPUPC_SPARSE_NKERNELS];
} Ctx;

#define FOR_SIDES(s) for (int s = 0; s < 2; s++)

static void Covered(Ctx *c, GPUPCSparseKernelIndex member, PetscInt64 size)
{
  if (!c->runs[member]++) c->minsize[member] = c->maxsize[member] = size;
  c->minsize[member] = PetscMin(c->minsize[member], size);
  c->maxsize[member] = PetscMax(c->maxsize[member], size);
}

/* ---------------------------------------------------------------- host CSR, the two worlds */

/* a host CSR (TestCSR) with its arrays from one PetscMalloc3 */
static PetscErrorCode HostAlloc(PetscInt m, PetscInt n, PetscInt nnz, TestCSR *h)
{
  PetscFunctionBegin;
  h->m = m;
  h->n = n;
  PetscCall(PetscMalloc3(m + 1, &h->i, nnz, &h->j, nnz, &h->a));
  h->i[0] = 0;
  h->i[m] = nnz;
  PetscFunctionReturn(0);
}

static PetscErrorCode HostFree(TestCSR *h)
{
  PetscFunctionBegin;
  PetscCall(PetscFree3(h->i, h->j, h->a));
  PetscFunctionReturn(0);
}

static inline PetscInt NNZ(const TestCSR *h)
{
  return h->i[h->m];
}

/* a copy of a SEQAIJ matrix's arrays */
static PetscErrorCode HostFromMat(Mat A, TestCSR *h)
{
  const PetscInt    *ai, *aj;
  const PetscScalar *aa;
  PetscInt           m, n, mm;
  PetscBool          done;

  PetscFunctionBegin;
  PetscCall(MatGetSize(A, &m, &n));
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &mm, &ai, &aj, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatGetRowIJ failed");
  PetscCall(HostAlloc(m, n, m ? ai[m] : 0, h));
  PetscCall(PetscArraycpy(h->i, ai, m + 1));
  PetscCall(PetscArraycpy(h->j, aj, NNZ(h)));
  PetscCall(MatSeqAIJGetArrayRead(A, &aa));
  PetscCall(PetscArraycpy(h->a, aa, NNZ(h)));
  PetscCall(MatSeqAIJRestoreArrayRead(A, &aa));
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &mm, &ai, &aj, &done));
  PetscFunctionReturn(0);
}

/* h into side S's world (values: with its values) */
static PetscErrorCode Put(const Side *S, const TestCSR *h, PetscBool values, GPUPCDevCSR *d)
{
  PetscFunctionBegin;
  d->m   = h->m;
  d->n   = h->n;
  d->nnz = NNZ(h);
  d->a   = NULL;
  PetscCall(TestDup(S->device, h->i, (h->m + 1) * sizeof(PetscInt), (void **)&d->i));
  PetscCall(TestDup(S->device, h->j, d->nnz * sizeof(PetscInt), (void **)&d->j));
  if (values) PetscCall(TestDup(S->device, h->a, d->nnz * sizeof(PetscScalar), (void **)&d->a));
  PetscFunctionReturn(0);
}

/* an uninitialised m x n CSR of nnz entries in side S's world */
static PetscErrorCode Make(const Side *S, PetscInt m, PetscInt n, PetscInt nnz, PetscBool values, GPUPCDevCSR *d)
{
  PetscFunctionBegin;
  d->m   = m;
  d->n   = n;
  d->nnz = nnz;
  d->a   = NULL;
  PetscCall(TestMalloc(S->device, (m + 1) * sizeof(PetscInt), (void **)&d->i));
  PetscCall(TestMalloc(S->device, nnz * sizeof(PetscInt), (void **)&d->j));
  if (values) PetscCall(TestMalloc(S->device, nnz * sizeof(PetscScalar), (void **)&d->a));
  PetscFunctionReturn(0);
}

/* a host copy of d (values 0 for a pattern) */
static PetscErrorCode Get(const Side *S, const GPUPCDevCSR *d, TestCSR *h)
{
  PetscFunctionBegin;
  PetscCall(HostAlloc(d->m, d->n, d->nnz, h));
  PetscCall(TestGet(S->device, h->i, d->i, (d->m + 1) * sizeof(PetscInt)));
  PetscCall(TestGet(S->device, h->j, d->j, d->nnz * sizeof(PetscInt)));
  if (d->a) PetscCall(TestGet(S->device, h->a, d->a, d->nnz * sizeof(PetscScalar)));
  else PetscCall(PetscArrayzero(h->a, d->nnz));
  PetscFunctionReturn(0);
}

static PetscErrorCode Drop(const Side *S, GPUPCDevCSR *d)
{
  PetscFunctionBegin;
  PetscCall(TestFree(S->device, d->i));
  PetscCall(TestFree(S->device, d->j));
  PetscCall(TestFree(S->device, d->a));
  PetscCall(PetscMemzero(d, sizeof(*d)));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- agreement */

static PetscErrorCode SameInts(const char *what, const char *field, PetscInt n, const PetscInt *a, const PetscInt *b)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < n; k++) PetscCheck(a[k] == b[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %s[%" PetscInt_FMT "] is %" PetscInt_FMT " against %" PetscInt_FMT, what, field, k, a[k], b[k]);
  PetscFunctionReturn(0);
}

/* a and b agree: exactly when mag is NULL, else within (terms + 2) eps mag entry by entry */
static PetscErrorCode SameValues(const char *what, PetscInt n, const PetscScalar *a, const PetscScalar *b, const PetscScalar *mag, const PetscScalar *terms)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < n; k++) {
    const PetscReal allowed = mag ? (PetscRealPart(terms[k]) + 2.0) * PETSC_MACHINE_EPSILON * PetscRealPart(mag[k]) : 0.0;
    const PetscReal d       = PetscAbsScalar(a[k] - b[k]);
    PetscCheck(!PetscIsNanScalar(a[k]) && !PetscIsNanScalar(b[k]) && d <= allowed, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: value %" PetscInt_FMT " is %.17g against %.17g (difference %g, allowed %g)", what, k, (double)PetscRealPart(a[k]), (double)PetscRealPart(b[k]), (double)d, (double)allowed);
  }
  PetscFunctionReturn(0);
}

/* same shape and pattern; values exactly (mag NULL) or within the bound of mag and terms (CSRs of the same pattern) */
static PetscErrorCode SameCSR(const char *what, const TestCSR *a, const TestCSR *b, const TestCSR *mag, const TestCSR *terms)
{
  PetscFunctionBegin;
  PetscCheck(a->m == b->m && a->n == b->n && NNZ(a) == NNZ(b), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " x %" PetscInt_FMT " with %" PetscInt_FMT " entries against %" PetscInt_FMT " x %" PetscInt_FMT " with %" PetscInt_FMT, what, a->m, a->n, NNZ(a), b->m, b->n, NNZ(b));
  PetscCall(SameInts(what, "row pointer", a->m + 1, a->i, b->i));
  PetscCall(SameInts(what, "column", NNZ(a), a->j, b->j));
  PetscCall(SameValues(what, NNZ(a), a->a, b->a, mag ? mag->a : NULL, terms ? terms->a : NULL));
  PetscFunctionReturn(0);
}

/* got against PETSc's matrix M (SameCSR) */
static PetscErrorCode AgainstMat(const char *what, const TestCSR *got, Mat M, const TestCSR *mag, const TestCSR *terms)
{
  TestCSR ref;

  PetscFunctionBegin;
  PetscCall(HostFromMat(M, &ref));
  PetscCall(SameCSR(what, got, &ref, mag, terms));
  PetscCall(HostFree(&ref));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- peak temporaries */

static PetscErrorCode PeakBegin(const Side *S, size_t *inuse)
{
  PetscFunctionBegin;
  PetscCall(PetscGPUPCDeviceMemoryInUse(inuse));
  PetscCall(PetscGPUPCDeviceMemoryResetPeak());
  PetscFunctionReturn(0);
}

/* the device memory a call took above what was in use before it, against the peak it reported */
static PetscErrorCode PeakEnd(const Ctx *c, int s, const char *member, size_t inuse, size_t reported)
{
  size_t hw;

  PetscFunctionBegin;
  PetscCall(PetscGPUPCDeviceMemoryPeak(&hw));
  PetscCheck(hw - inuse <= reported, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s (%s): %zu temporary device bytes, reported peak %zu", member, c->S[s].what, hw - inuse, reported);
  PetscCheck(!(c->cuda && s == 0) || hw - inuse == reported, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s (%s): the device high-water mark rose by %zu bytes, the call reported a peak of %zu", member, c->S[s].what, hw - inuse, reported);
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- matrices */

static PetscErrorCode Laplacian(PetscInt dim, PetscInt nx, Mat *A)
{
  const PetscInt n = dim == 2 ? nx * nx : nx * nx * nx, nz = dim == 2 ? 1 : nx;

  PetscFunctionBegin;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 2 * dim + 1, NULL, A));
  for (PetscInt z = 0; z < nz; z++)
    for (PetscInt y = 0; y < nx; y++)
      for (PetscInt x = 0; x < nx; x++) {
        const PetscInt r = (z * nx + y) * nx + x;
        PetscInt       cols[7], k = 0;
        PetscScalar    v[7];
        if (z > 0) cols[k] = r - nx * nx, v[k++] = -1.0;
        if (y > 0) cols[k] = r - nx, v[k++] = -1.0;
        if (x > 0) cols[k] = r - 1, v[k++] = -1.0;
        cols[k] = r, v[k++] = 2.0 * dim + 0.01 * (r % 7);
        if (x < nx - 1) cols[k] = r + 1, v[k++] = -1.0;
        if (y < nx - 1) cols[k] = r + nx, v[k++] = -1.0;
        if (dim == 3 && z < nx - 1) cols[k] = r + nx * nx, v[k++] = -1.0;
        PetscCall(MatSetValues(*A, 1, &r, k, cols, v, INSERT_VALUES));
      }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* the row lengths of a random matrix */
typedef enum {
  ROWS_SHORT,  /* 0 .. 8 entries (about one row in nine empty) */
  ROWS_GRADED, /* row r: about 2^(r % 12) entries (capped at n): every bin of the CUDA SpGEMM */
  ROWS_DENSE0, /* short rows, row 0 full */
  ROWS_SPARSE  /* four rows in five empty, the others 1 .. 4 entries (A's entries whose rows of B are empty) */
} RowShape;

/* an m x n SEQAIJ with random columns and values in [-1, 1) (never all zero) */
static PetscErrorCode RandomMat(Ctx *c, PetscInt m, PetscInt n, RowShape shape, Mat *A)
{
  PetscInt    *len, *cols, *mark;
  PetscScalar *v;

  PetscFunctionBegin;
  PetscCall(PetscMalloc4(m, &len, PetscMax(n, 1), &cols, PetscMax(n, 1), &v, PetscMax(n, 1), &mark));
  for (PetscInt r = 0; r < m; r++) {
    PetscReal u;
    PetscCall(PetscRandomGetValueReal(c->rnd, &u));
    u = 0.5 * (u + 1.0); /* [0, 1) */
    switch (shape) {
    case ROWS_GRADED:
      len[r] = (PetscInt)((1 << (r % 12)) * (0.75 + 0.5 * u));
      break;
    case ROWS_DENSE0:
      len[r] = r == 0 ? n : (PetscInt)(9 * u);
      break;
    case ROWS_SPARSE:
      len[r] = u < 0.8 ? 0 : 1 + (PetscInt)(20 * (u - 0.8));
      break;
    default:
      len[r] = (PetscInt)(9 * u);
    }
    len[r] = PetscMin(len[r], n);
  }
  for (PetscInt q = 0; q < n; q++) mark[q] = -1;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, m, n, 0, len, A));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  for (PetscInt r = 0; r < m; r++) {
    PetscInt k = 0;
    if (len[r] == n)
      for (PetscInt q = 0; q < n; q++) cols[k++] = q;
    else
      while (k < len[r]) {
        PetscReal u;
        PetscInt  col;
        PetscCall(PetscRandomGetValueReal(c->rnd, &u));
        col = PetscMin(n - 1, (PetscInt)(0.5 * (u + 1.0) * n));
        if (mark[col] == r) continue;
        mark[col] = r;
        cols[k++] = col;
      }
    for (PetscInt q = 0; q < k; q++) {
      PetscCall(PetscRandomGetValueReal(c->rnd, &v[q]));
      if (v[q] == 0.0) v[q] = 0.5;
    }
    PetscCall(MatSetValues(*A, 1, &r, k, cols, v, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree4(len, cols, v, mark));
  PetscFunctionReturn(0);
}

/* new random values on A's pattern */
static PetscErrorCode NewValues(Ctx *c, Mat A)
{
  PetscScalar *a;
  MatInfo      info;

  PetscFunctionBegin;
  PetscCall(MatGetInfo(A, MAT_LOCAL, &info));
  PetscCall(MatSeqAIJGetArray(A, &a));
  for (PetscInt e = 0; e < (PetscInt)info.nz_used; e++) {
    PetscCall(PetscRandomGetValueReal(c->rnd, &a[e]));
    if (a[e] == 0.0) a[e] = -0.25;
  }
  PetscCall(MatSeqAIJRestoreArray(A, &a));
  PetscFunctionReturn(0);
}

/* the n x nc 0/1 prolongator of clusters cl (cmg's R^T) */
static PetscErrorCode ClusterP(PetscInt n, PetscInt nc, const PetscInt *cl, Mat *P)
{
  PetscFunctionBegin;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, nc, 1, NULL, P));
  for (PetscInt r = 0; r < n; r++) PetscCall(MatSetValue(*P, r, cl[r], 1.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(*P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*P, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- the host table on host arrays */

/* C = A B by the host table (values: |A| |B| when absval, 1 * 1 when ones, else A B) */
typedef enum {
  VAL_PLAIN,
  VAL_ABS,
  VAL_ONES
} ValueMode;

static PetscErrorCode HostView(const TestCSR *h, ValueMode mode, GPUPCDevCSR *d, PetscScalar **tmp)
{
  PetscFunctionBegin;
  d->m   = h->m;
  d->n   = h->n;
  d->nnz = NNZ(h);
  d->i   = h->i;
  d->j   = h->j;
  d->a   = h->a;
  *tmp   = NULL;
  if (mode != VAL_PLAIN) {
    PetscCall(PetscMalloc1(d->nnz, tmp));
    for (PetscInt e = 0; e < d->nnz; e++) (*tmp)[e] = mode == VAL_ABS ? PetscAbsScalar(h->a[e]) : 1.0;
    d->a = *tmp;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode HostProduct(Ctx *c, const TestCSR *A, const TestCSR *B, ValueMode mode, TestCSR *C)
{
  GPUPCDevCSR  a, b, d;
  PetscScalar *ta, *tb;
  PetscInt     nnz;

  PetscFunctionBegin;
  PetscCall(HostView(A, mode, &a, &ta));
  PetscCall(HostView(B, mode, &b, &tb));
  PetscCall(PetscMalloc1(A->m + 1, &d.i));
  PetscCall(c->host->spgemm_count(&a, &b, d.i, &nnz, NULL));
  PetscCall(HostAlloc(A->m, B->n, nnz, C));
  PetscCall(PetscArraycpy(C->i, d.i, A->m + 1));
  PetscCall(PetscFree(d.i));
  d.m   = A->m;
  d.n   = B->n;
  d.nnz = nnz;
  d.i   = C->i;
  d.j   = C->j;
  d.a   = C->a;
  PetscCall(c->host->spgemm_pattern(&a, &b, &d, NULL));
  PetscCall(c->host->spgemm_values(&a, &b, &d, PETSC_TRUE, NULL));
  PetscCall(PetscFree(ta));
  PetscCall(PetscFree(tb));
  PetscFunctionReturn(0);
}

static PetscErrorCode HostTranspose(Ctx *c, const TestCSR *A, TestCSR *R)
{
  GPUPCDevCSR a, r;

  PetscFunctionBegin;
  PetscCall(HostAlloc(A->n, A->m, NNZ(A), R));
  a.m = A->m, a.n = A->n, a.nnz = NNZ(A), a.i = A->i, a.j = A->j, a.a = A->a;
  r.m = A->n, r.n = A->m, r.nnz = NNZ(A), r.i = R->i, r.j = R->j, r.a = R->a;
  PetscCall(c->host->transpose(&a, &r, NULL, NULL));
  PetscFunctionReturn(0);
}

/* per entry of A B: the sum of |a_ik b_kj| and the number of products (the agreement bound) */
static PetscErrorCode ProductBound(Ctx *c, const TestCSR *A, const TestCSR *B, TestCSR *mag, TestCSR *terms)
{
  PetscFunctionBegin;
  PetscCall(HostProduct(c, A, B, VAL_ABS, mag));
  PetscCall(HostProduct(c, A, B, VAL_ONES, terms));
  PetscFunctionReturn(0);
}

/* expect the error code want from a call (errors are returned, not printed) */
#define EXPECT_ERROR(c, want, call)                                                                                          \
  do {                                                                                                                       \
    PetscErrorCode e_;                                                                                                       \
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));                                                         \
    e_ = (call);                                                                                                             \
    PetscCall(PetscPopErrorHandler());                                                                                       \
    PetscCheck(e_ == (want), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s gave error %d, expected %d", #call, (int)e_, (int)(want)); \
  } while (0)

/* ---------------------------------------------------------------- SpGEMM */

/* C = A B through the three members on both sides (det and not), against each other and MatMatMult; then new values of
   A and B (the values pass only) against MatMatMult(MAT_REUSE_MATRIX); then a pattern missing an entry */
static PetscErrorCode SpGEMMCase(Ctx *c, const char *name, Mat A, Mat B)
{
  TestCSR     hA, hB, hC[2], mag, terms;
  GPUPCDevCSR dA[2], dB[2], dC[2];
  PetscInt    nnz[2];
  PetscBool   petsc;
  Mat         C = NULL;
  char        what[256];

  PetscFunctionBegin;
  PetscCall(HostFromMat(A, &hA));
  PetscCall(HostFromMat(B, &hB));
  petsc = (PetscBool)(hA.m > 0 && hA.n > 0 && hB.n > 0); /* PETSc's product of empty shapes is not what is tested here */
  FOR_SIDES(s)
  {
    size_t inuse, peak;
    PetscCall(Put(&c->S[s], &hA, PETSC_TRUE, &dA[s]));
    PetscCall(Put(&c->S[s], &hB, PETSC_TRUE, &dB[s]));
    PetscCall(TestMalloc(c->S[s].device, (hA.m + 1) * sizeof(PetscInt), (void **)&dC[s].i));
    PetscCall(PeakBegin(&c->S[s], &inuse));
    PetscCall(c->S[s].k->spgemm_count(&dA[s], &dB[s], dC[s].i, &nnz[s], &peak));
    PetscCall(PeakEnd(c, s, "spgemm_count", inuse, peak));
    dC[s].m   = hA.m;
    dC[s].n   = hB.n;
    dC[s].nnz = nnz[s];
    PetscCall(TestMalloc(c->S[s].device, nnz[s] * sizeof(PetscInt), (void **)&dC[s].j));
    PetscCall(TestMalloc(c->S[s].device, nnz[s] * sizeof(PetscScalar), (void **)&dC[s].a));
    PetscCall(PeakBegin(&c->S[s], &inuse));
    PetscCall(c->S[s].k->spgemm_pattern(&dA[s], &dB[s], &dC[s], &peak));
    PetscCall(PeakEnd(c, s, "spgemm_pattern", inuse, peak));
  }
  PetscCheck(nnz[0] == nnz[1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: spgemm_count gave %" PetscInt_FMT " entries on the %s, %" PetscInt_FMT " on the %s", name, nnz[0], c->S[0].what, nnz[1], c->S[1].what);
  PetscCall(ProductBound(c, &hA, &hB, &mag, &terms));
  for (int det = 1; det >= 0; det--) {
    FOR_SIDES(s)
    {
      size_t inuse, peak;
      PetscCall(PeakBegin(&c->S[s], &inuse));
      PetscCall(c->S[s].k->spgemm_values(&dA[s], &dB[s], &dC[s], (PetscBool)det, &peak));
      PetscCall(PeakEnd(c, s, "spgemm_values", inuse, peak));
      PetscCall(Get(&c->S[s], &dC[s], &hC[s]));
    }
    PetscCall(PetscSNPrintf(what, sizeof(what), "%s: C = A B (%s sums), %s against %s", name, det ? "deterministic" : "unordered", c->S[0].what, c->S[1].what));
    PetscCall(SameCSR(what, &hC[0], &hC[1], det ? NULL : &mag, det ? NULL : &terms));
    if (det && petsc) {
      PetscCall(MatMatMult(A, B, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &C));
      PetscCall(PetscSNPrintf(what, sizeof(what), "%s: C = A B, the %s against MatMatMult", name, c->S[1].what));
      PetscCall(AgainstMat(what, &hC[1], C, &mag, &terms));
    }
    FOR_SIDES(s)
    PetscCall(HostFree(&hC[s]));
  }
  PetscCall(HostFree(&mag));
  PetscCall(HostFree(&terms));
  {
    const PetscInt64 size = PetscMax(NNZ(&hA), nnz[0]);
    Covered(c, GPUPC_SPARSE_KERNEL_spgemm_count, size);
    Covered(c, GPUPC_SPARSE_KERNEL_spgemm_pattern, size);
    Covered(c, GPUPC_SPARSE_KERNEL_spgemm_values, size);
  }

  /* new values on the same patterns: the values pass alone */
  PetscCall(NewValues(c, A));
  PetscCall(NewValues(c, B));
  PetscCall(HostFree(&hA));
  PetscCall(HostFree(&hB));
  PetscCall(HostFromMat(A, &hA));
  PetscCall(HostFromMat(B, &hB));
  PetscCall(ProductBound(c, &hA, &hB, &mag, &terms));
  FOR_SIDES(s)
  {
    PetscCall(TestPut(c->S[s].device, dA[s].a, hA.a, NNZ(&hA) * sizeof(PetscScalar)));
    PetscCall(TestPut(c->S[s].device, dB[s].a, hB.a, NNZ(&hB) * sizeof(PetscScalar)));
    PetscCall(c->S[s].k->spgemm_values(&dA[s], &dB[s], &dC[s], PETSC_TRUE, NULL));
    PetscCall(Get(&c->S[s], &dC[s], &hC[s]));
  }
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s: C = A B with new values, %s against %s", name, c->S[0].what, c->S[1].what));
  PetscCall(SameCSR(what, &hC[0], &hC[1], NULL, NULL));
  if (petsc) {
    PetscCall(MatMatMult(A, B, MAT_REUSE_MATRIX, PETSC_DEFAULT, &C));
    PetscCall(PetscSNPrintf(what, sizeof(what), "%s: C = A B with new values, the %s against MatMatMult(MAT_REUSE_MATRIX)", name, c->S[0].what));
    PetscCall(AgainstMat(what, &hC[0], C, &mag, &terms));
  }
  FOR_SIDES(s)
  PetscCall(HostFree(&hC[s]));
  PetscCall(HostFree(&mag));
  PetscCall(HostFree(&terms));

  /* a pattern without the last entry of C: the values pass must refuse it, on both sides */
  if (nnz[0] > 0) {
    FOR_SIDES(s)
    {
      GPUPCDevCSR short_ = dC[s];
      PetscInt    last   = hA.m;
      TestCSR     h;
      PetscCall(Get(&c->S[s], &dC[s], &h));
      while (h.i[last - 1] == nnz[0]) last--; /* the row that holds the last entry */
      for (PetscInt r = last; r <= hA.m; r++) h.i[r]--;
      short_.nnz = nnz[0] - 1;
      PetscCall(TestDup(c->S[s].device, h.i, (hA.m + 1) * sizeof(PetscInt), (void **)&short_.i));
      EXPECT_ERROR(c, PETSC_ERR_ARG_WRONG, c->S[s].k->spgemm_values(&dA[s], &dB[s], &short_, PETSC_TRUE, NULL));
      PetscCall(TestFree(c->S[s].device, short_.i));
      PetscCall(HostFree(&h));
    }
  }
  FOR_SIDES(s)
  {
    PetscCall(Drop(&c->S[s], &dA[s]));
    PetscCall(Drop(&c->S[s], &dB[s]));
    PetscCall(Drop(&c->S[s], &dC[s]));
  }
  PetscCall(MatDestroy(&C));
  PetscCall(HostFree(&hA));
  PetscCall(HostFree(&hB));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  spgemm    %-28s %8" PetscInt_FMT " x %-8" PetscInt_FMT " %9" PetscInt_FMT " entries\n", name, hA.m, hB.n, nnz[0]));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- transpose */

static PetscErrorCode TransposeCase(Ctx *c, const char *name, Mat A)
{
  TestCSR     hA, hR[2];
  GPUPCDevCSR dA[2], dR[2];
  PetscInt   *perm[2], *hperm[2];
  char        what[256];

  PetscFunctionBegin;
  PetscCall(HostFromMat(A, &hA));
  FOR_SIDES(s)
  {
    size_t inuse, peak;
    PetscCall(Put(&c->S[s], &hA, PETSC_TRUE, &dA[s]));
    PetscCall(Make(&c->S[s], hA.n, hA.m, NNZ(&hA), PETSC_TRUE, &dR[s]));
    PetscCall(TestMalloc(c->S[s].device, NNZ(&hA) * sizeof(PetscInt), (void **)&perm[s]));
    PetscCall(PeakBegin(&c->S[s], &inuse));
    PetscCall(c->S[s].k->transpose(&dA[s], &dR[s], perm[s], &peak));
    PetscCall(PeakEnd(c, s, "transpose", inuse, peak));
    PetscCall(Get(&c->S[s], &dR[s], &hR[s]));
    PetscCall(PetscMalloc1(NNZ(&hA), &hperm[s]));
    PetscCall(TestGet(c->S[s].device, hperm[s], perm[s], NNZ(&hA) * sizeof(PetscInt)));
  }
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s: R = A^T, %s against %s", name, c->S[0].what, c->S[1].what));
  PetscCall(SameCSR(what, &hR[0], &hR[1], NULL, NULL));
  PetscCall(SameInts(what, "perm", NNZ(&hA), hperm[0], hperm[1]));
  for (PetscInt q = 0; q < NNZ(&hA); q++) PetscCheck(hR[0].a[q] == hA.a[hperm[0][q]], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: R's entry %" PetscInt_FMT " is not A's entry perm[q] = %" PetscInt_FMT, what, q, hperm[0][q]);
  if (hA.m > 0 && hA.n > 0) {
    Mat At;
    PetscCall(MatTranspose(A, MAT_INITIAL_MATRIX, &At));
    PetscCall(PetscSNPrintf(what, sizeof(what), "%s: R = A^T, the %s against MatTranspose", name, c->S[0].what));
    PetscCall(AgainstMat(what, &hR[0], At, NULL, NULL));
    PetscCall(MatDestroy(&At));
  }
  /* a pattern (no values, no perm) gives the same pattern */
  {
    GPUPCDevCSR pa = dA[0], pr = dR[0];
    TestCSR     h;
    pa.a = pr.a = NULL;
    PetscCall(c->S[0].k->transpose(&pa, &pr, NULL, NULL));
    PetscCall(Get(&c->S[0], &pr, &h));
    PetscCall(SameInts(what, "pattern-only column", NNZ(&hA), h.j, hR[1].j));
    PetscCall(SameInts(what, "pattern-only row pointer", hA.n + 1, h.i, hR[1].i));
    PetscCall(HostFree(&h));
  }
  Covered(c, GPUPC_SPARSE_KERNEL_transpose, NNZ(&hA));
  FOR_SIDES(s)
  {
    PetscCall(Drop(&c->S[s], &dA[s]));
    PetscCall(Drop(&c->S[s], &dR[s]));
    PetscCall(TestFree(c->S[s].device, perm[s]));
    PetscCall(PetscFree(hperm[s]));
    PetscCall(HostFree(&hR[s]));
  }
  PetscCall(HostFree(&hA));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- R A P through the operations of the setups */

/* GPUPCDevCSRRAP on the active backend against the host table's R (A P) (exactly) and MatPtAP (within the bound of
   R A P's paths), then new values of A and P (numeric only) against MatPtAP(MAT_REUSE_MATRIX) */
static PetscErrorCode RAPCase(Ctx *c, const char *name, Mat A, Mat P)
{
  TestCSR     hA, hP, hR, hAP, href, hC, mag, magAP, terms, termsAP, absR, onesR;
  GPUPCDevCSR dA, dP, dC;
  GPUPCDevRAP data;
  Mat         C;
  char        what[256];

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&data, sizeof(data)));
  for (int pass = 0; pass < 2; pass++) {
    PetscCall(HostFromMat(A, &hA));
    PetscCall(HostFromMat(P, &hP));
    PetscCall(GPUPCDevCSRFromMat(A, &dA));
    PetscCall(GPUPCDevCSRFromMat(P, &dP));
    PetscCall(GPUPCDevCSRRAP(&dA, &dP, pass ? MAT_REUSE_MATRIX : MAT_INITIAL_MATRIX, PETSC_TRUE, &data, &dC));
    {
      Side active = {"active", PETSC_TRUE, NULL};
      PetscCall(Get(&active, &dC, &hC));
    }
    /* the host table's R (A P), and the bound: |R| (|A| |P|) and the paths */
    PetscCall(HostTranspose(c, &hP, &hR));
    PetscCall(HostProduct(c, &hA, &hP, VAL_PLAIN, &hAP));
    PetscCall(HostProduct(c, &hR, &hAP, VAL_PLAIN, &href));
    PetscCall(PetscSNPrintf(what, sizeof(what), "%s: R A P (%s), GPUPCDevCSRRAP against the host table's R (A P)", name, pass ? "new values" : "first"));
    PetscCall(SameCSR(what, &hC, &href, NULL, NULL));
    PetscCall(HostProduct(c, &hA, &hP, VAL_ABS, &magAP));
    PetscCall(HostProduct(c, &hA, &hP, VAL_ONES, &termsAP));
    PetscCall(HostTranspose(c, &hP, &absR));
    PetscCall(HostTranspose(c, &hP, &onesR));
    for (PetscInt e = 0; e < NNZ(&absR); e++) absR.a[e] = PetscAbsScalar(absR.a[e]), onesR.a[e] = 1.0;
    PetscCall(HostProduct(c, &absR, &magAP, VAL_PLAIN, &mag));
    PetscCall(HostProduct(c, &onesR, &termsAP, VAL_PLAIN, &terms));
    PetscCall(MatPtAP(A, P, pass ? MAT_REUSE_MATRIX : MAT_INITIAL_MATRIX, PETSC_DEFAULT, &C));
    PetscCall(PetscSNPrintf(what, sizeof(what), "%s: R A P (%s), GPUPCDevCSRRAP against MatPtAP", name, pass ? "new values" : "first"));
    PetscCall(AgainstMat(what, &hC, C, &mag, &terms));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  rap       %-28s %8" PetscInt_FMT " -> %-8" PetscInt_FMT " %9" PetscInt_FMT " entries (%s), peak %zu temporary bytes, %zu held\n", name, hA.m, hC.m, NNZ(&hC), pass ? "new values" : "first", data.peak, data.bytes));
    PetscCall(HostFree(&hA));
    PetscCall(HostFree(&hP));
    PetscCall(HostFree(&hR));
    PetscCall(HostFree(&hAP));
    PetscCall(HostFree(&href));
    PetscCall(HostFree(&hC));
    PetscCall(HostFree(&mag));
    PetscCall(HostFree(&magAP));
    PetscCall(HostFree(&terms));
    PetscCall(HostFree(&termsAP));
    PetscCall(HostFree(&absR));
    PetscCall(HostFree(&onesR));
    PetscCall(GPUPCDevCSRDestroy(&dA));
    PetscCall(GPUPCDevCSRDestroy(&dP));
    if (!pass) { /* new values of A and P on their patterns */
      PetscCall(NewValues(c, A));
      PetscCall(NewValues(c, P));
    } else PetscCall(GPUPCDevCSRDestroy(&dC));
  }
  PetscCall(GPUPCDevRAPDestroy(&data));
  PetscCall(MatDestroy(&C));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- sort-and-reduce */

/* runs coo_sort, coo_pattern, coo_sum on both sides; returns side 0's CSR */
static PetscErrorCode COOSides(Ctx *c, const char *name, PetscInt m, PetscInt n, PetscInt nent, const PetscInt *ci, const PetscInt *cj, const PetscScalar *v, TestCSR *out)
{
  GPUPCDevCSR  dC[2];
  TestCSR      hC[2];
  PetscInt    *dci[2], *dcj[2], *perm[2], *dst[2], *seg[2], nkept[2], nnz[2], *hp[2], *hd[2], *hs[2];
  PetscScalar *dv[2];
  char         what[256];

  PetscFunctionBegin;
  FOR_SIDES(s)
  {
    const Side *S = &c->S[s];
    size_t      inuse, peak;
    PetscCall(TestDup(S->device, ci, nent * sizeof(PetscInt), (void **)&dci[s]));
    PetscCall(TestDup(S->device, cj, nent * sizeof(PetscInt), (void **)&dcj[s]));
    PetscCall(TestDup(S->device, v, nent * sizeof(PetscScalar), (void **)&dv[s]));
    PetscCall(TestMalloc(S->device, nent * sizeof(PetscInt), (void **)&perm[s]));
    PetscCall(TestMalloc(S->device, nent * sizeof(PetscInt), (void **)&dst[s]));
    PetscCall(TestMalloc(S->device, (m + 1) * sizeof(PetscInt), (void **)&dC[s].i));
    PetscCall(PeakBegin(S, &inuse));
    PetscCall(S->k->coo_sort(m, n, nent, dci[s], dcj[s], perm[s], dst[s], dC[s].i, &nkept[s], &nnz[s], &peak));
    PetscCall(PeakEnd(c, s, "coo_sort", inuse, peak));
    dC[s].m = m, dC[s].n = n, dC[s].nnz = nnz[s];
    PetscCall(TestMalloc(S->device, nnz[s] * sizeof(PetscInt), (void **)&dC[s].j));
    PetscCall(TestMalloc(S->device, nnz[s] * sizeof(PetscScalar), (void **)&dC[s].a));
    PetscCall(TestMalloc(S->device, (nnz[s] + 1) * sizeof(PetscInt), (void **)&seg[s]));
    PetscCall(S->k->coo_pattern(nkept[s], perm[s], dst[s], dcj[s], nnz[s], dC[s].j, seg[s]));
    PetscCall(S->k->coo_sum(nnz[s], seg[s], perm[s], dv[s], dC[s].a));
    PetscCall(Get(S, &dC[s], &hC[s]));
    PetscCall(PetscMalloc3(nent, &hp[s], nent, &hd[s], nnz[s] + 1, &hs[s]));
    PetscCall(TestGet(S->device, hp[s], perm[s], nkept[s] * sizeof(PetscInt)));
    PetscCall(TestGet(S->device, hd[s], dst[s], nkept[s] * sizeof(PetscInt)));
    PetscCall(TestGet(S->device, hs[s], seg[s], (nnz[s] + 1) * sizeof(PetscInt)));
  }
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s: COO sort-and-reduce, %s against %s", name, c->S[0].what, c->S[1].what));
  PetscCheck(nkept[0] == nkept[1] && nnz[0] == nnz[1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " kept, %" PetscInt_FMT " pairs against %" PetscInt_FMT ", %" PetscInt_FMT, what, nkept[0], nnz[0], nkept[1], nnz[1]);
  PetscCall(SameInts(what, "perm", nkept[0], hp[0], hp[1]));
  PetscCall(SameInts(what, "dst", nkept[0], hd[0], hd[1]));
  PetscCall(SameInts(what, "seg", nnz[0] + 1, hs[0], hs[1]));
  PetscCall(SameCSR(what, &hC[0], &hC[1], NULL, NULL));
  Covered(c, GPUPC_SPARSE_KERNEL_coo_sort, nent);
  Covered(c, GPUPC_SPARSE_KERNEL_coo_pattern, nent);
  Covered(c, GPUPC_SPARSE_KERNEL_coo_sum, nnz[0]);
  FOR_SIDES(s)
  {
    const Side *S = &c->S[s];
    PetscCall(TestFree(S->device, dci[s]));
    PetscCall(TestFree(S->device, dcj[s]));
    PetscCall(TestFree(S->device, dv[s]));
    PetscCall(TestFree(S->device, perm[s]));
    PetscCall(TestFree(S->device, dst[s]));
    PetscCall(TestFree(S->device, seg[s]));
    PetscCall(Drop(S, &dC[s]));
    PetscCall(PetscFree3(hp[s], hd[s], hs[s]));
  }
  *out = hC[0];
  PetscCall(HostFree(&hC[1]));
  PetscFunctionReturn(0);
}

/* the sum of |v| and the number of the triples of each pair of C (the bound against PETSc's sums) */
static PetscErrorCode COOBound(const TestCSR *C, PetscInt nent, const PetscInt *ci, const PetscInt *cj, const PetscScalar *v, TestCSR *mag, TestCSR *terms)
{
  PetscFunctionBegin;
  PetscCall(HostAlloc(C->m, C->n, NNZ(C), mag));
  PetscCall(HostAlloc(C->m, C->n, NNZ(C), terms));
  PetscCall(PetscArrayzero(mag->a, NNZ(C)));
  PetscCall(PetscArrayzero(terms->a, NNZ(C)));
  for (PetscInt e = 0; e < nent; e++) {
    PetscInt lo, hi;
    if (ci[e] < 0 || cj[e] < 0) continue;
    lo = C->i[ci[e]], hi = C->i[ci[e] + 1];
    while (lo < hi && C->j[lo] != cj[e]) lo++;
    PetscCheck(lo < hi, PETSC_COMM_SELF, PETSC_ERR_PLIB, "triple %" PetscInt_FMT " (%" PetscInt_FMT ", %" PetscInt_FMT ") has no entry in the assembled matrix", e, ci[e], cj[e]);
    mag->a[lo] += PetscAbsScalar(v[e]);
    terms->a[lo] += 1.0;
  }
  PetscFunctionReturn(0);
}

/* triples of A's entries, each split into 1..dup parts, in random order, with ndrop dropped ones (a negative index);
   against MatSetPreallocationCOO + MatSetValuesCOO, then through GPUPCDevCOOAssemble with new values */
static PetscErrorCode COOCase(Ctx *c, const char *name, Mat A, PetscInt dup, PetscInt ndrop)
{
  TestCSR      hA, hC, ref, mag, terms;
  PetscInt    *ci, *cj, nent = 0, cap;
  PetscScalar *v;
  Mat          B;
  char         what[256];

  PetscFunctionBegin;
  PetscCall(HostFromMat(A, &hA));
  cap = NNZ(&hA) * dup + ndrop;
  PetscCall(PetscMalloc3(cap, &ci, cap, &cj, cap, &v));
  for (PetscInt r = 0; r < hA.m; r++)
    for (PetscInt e = hA.i[r]; e < hA.i[r + 1]; e++) {
      PetscReal u;
      PetscInt  parts;
      PetscCall(PetscRandomGetValueReal(c->rnd, &u));
      parts = 1 + (PetscInt)(0.5 * (u + 1.0) * dup) % dup;
      for (PetscInt p = 0; p < parts; p++) ci[nent] = r, cj[nent] = hA.j[e], v[nent++] = hA.a[e] / parts + 0.125 * p;
    }
  for (PetscInt d = 0; d < ndrop; d++) {
    ci[nent]  = d % 2 ? -1 : d % PetscMax(hA.m, 1);
    cj[nent]  = d % 2 ? d % PetscMax(hA.n, 1) : -3;
    v[nent++] = 1.0e6; /* would show if kept */
  }
  for (PetscInt e = nent - 1; e > 0; e--) { /* shuffle */
    PetscReal   u;
    PetscInt    f, ti;
    PetscScalar tv;
    PetscCall(PetscRandomGetValueReal(c->rnd, &u));
    f  = PetscMin(e, (PetscInt)(0.5 * (u + 1.0) * (e + 1)));
    ti = ci[e], ci[e] = ci[f], ci[f] = ti;
    ti = cj[e], cj[e] = cj[f], cj[f] = ti;
    tv = v[e], v[e] = v[f], v[f] = tv;
  }
  PetscCall(COOSides(c, name, hA.m, hA.n, nent, ci, cj, v, &hC));
  PetscCall(COOBound(&hC, nent, ci, cj, v, &mag, &terms));
  if (hA.m > 0 && hA.n > 0) {
    PetscInt *pi, *pj;
    PetscCall(PetscMalloc2(nent, &pi, nent, &pj));
    PetscCall(PetscArraycpy(pi, ci, nent));
    PetscCall(PetscArraycpy(pj, cj, nent));
    PetscCall(MatCreate(PETSC_COMM_SELF, &B));
    PetscCall(MatSetSizes(B, hA.m, hA.n, hA.m, hA.n));
    PetscCall(MatSetType(B, MATSEQAIJ));
    PetscCall(MatSetPreallocationCOO(B, nent, pi, pj));
    PetscCall(MatSetValuesCOO(B, v, INSERT_VALUES));
    PetscCall(PetscSNPrintf(what, sizeof(what), "%s: COO sort-and-reduce, the %s against MatSetValuesCOO", name, c->S[0].what));
    PetscCall(AgainstMat(what, &hC, B, &mag, &terms));
    PetscCall(PetscFree2(pi, pj));
    /* the operation of the setups, then new values of the same triples */
    {
      GPUPCDevCSR  dC;
      GPUPCDevCOO  coo;
      PetscInt    *dci, *dcj;
      PetscScalar *dv;
      TestCSR      got;
      Side         active = {"active", PETSC_TRUE, NULL};
      PetscCall(TestDup(PETSC_TRUE, ci, nent * sizeof(PetscInt), (void **)&dci));
      PetscCall(TestDup(PETSC_TRUE, cj, nent * sizeof(PetscInt), (void **)&dcj));
      PetscCall(TestDup(PETSC_TRUE, v, nent * sizeof(PetscScalar), (void **)&dv));
      PetscCall(GPUPCDevCOOAssemble(hA.m, hA.n, nent, dci, dcj, dv, MAT_INITIAL_MATRIX, &coo, &dC));
      PetscCall(Get(&active, &dC, &got));
      PetscCall(PetscSNPrintf(what, sizeof(what), "%s: GPUPCDevCOOAssemble against the members", name));
      PetscCall(SameCSR(what, &got, &hC, NULL, NULL));
      PetscCall(HostFree(&got));
      for (PetscInt e = 0; e < nent; e++) v[e] = 2.0 * v[e] - 0.5;
      PetscCall(TestPut(PETSC_TRUE, dv, v, nent * sizeof(PetscScalar)));
      PetscCall(GPUPCDevCOOAssemble(hA.m, hA.n, nent, NULL, NULL, dv, MAT_REUSE_MATRIX, &coo, &dC));
      PetscCall(MatSetValuesCOO(B, v, INSERT_VALUES));
      PetscCall(HostFromMat(B, &ref));
      PetscCall(Get(&active, &dC, &got));
      PetscCall(HostFree(&mag));
      PetscCall(HostFree(&terms));
      PetscCall(COOBound(&ref, nent, ci, cj, v, &mag, &terms));
      PetscCall(PetscSNPrintf(what, sizeof(what), "%s: GPUPCDevCOOAssemble with new values against MatSetValuesCOO", name));
      PetscCall(SameCSR(what, &got, &ref, &mag, &terms));
      PetscCall(HostFree(&got));
      PetscCall(HostFree(&ref));
      PetscCall(GPUPCDevCOODestroy(&coo));
      PetscCall(GPUPCDevCSRDestroy(&dC));
      PetscCall(TestFree(PETSC_TRUE, dci));
      PetscCall(TestFree(PETSC_TRUE, dcj));
      PetscCall(TestFree(PETSC_TRUE, dv));
    }
    PetscCall(MatDestroy(&B));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  coo       %-28s %8" PetscInt_FMT " triples -> %9" PetscInt_FMT " entries\n", name, nent, NNZ(&hC)));
  PetscCall(HostFree(&mag));
  PetscCall(HostFree(&terms));
  PetscCall(HostFree(&hC));
  PetscCall(HostFree(&hA));
  PetscCall(PetscFree3(ci, cj, v));
  PetscFunctionReturn(0);
}

/* cmg's Galerkin sums: triples (cl[i], cl[j], a_ij) of A's entries give R A R^T with R the 0/1 cluster matrix, against
   MatPtAP(A, R^T) */
static PetscErrorCode ClusterCase(Ctx *c, const char *name, Mat A, PetscInt csize)
{
  TestCSR      hA, hC, mag, terms;
  PetscInt    *cl, *ci, *cj, nc;
  PetscScalar *v;
  Mat          P, C;
  char         what[256];

  PetscFunctionBegin;
  PetscCall(HostFromMat(A, &hA));
  nc = (hA.m + csize - 1) / csize;
  PetscCall(PetscMalloc4(hA.m, &cl, NNZ(&hA), &ci, NNZ(&hA), &cj, NNZ(&hA), &v));
  for (PetscInt r = 0; r < hA.m; r++) cl[r] = (r / csize + 7 * (r % 3)) % nc; /* clusters of scattered vertices */
  for (PetscInt r = 0; r < hA.m; r++)
    for (PetscInt e = hA.i[r]; e < hA.i[r + 1]; e++) ci[e] = r, v[e] = hA.a[e];
  /* the rows and columns mapped to their clusters by expand (covered in SmallCases): here the maps directly */
  for (PetscInt e = 0; e < NNZ(&hA); e++) cj[e] = cl[hA.j[e]], ci[e] = cl[ci[e]];
  PetscCall(COOSides(c, name, nc, nc, NNZ(&hA), ci, cj, v, &hC));
  PetscCall(COOBound(&hC, NNZ(&hA), ci, cj, v, &mag, &terms));
  PetscCall(ClusterP(hA.m, nc, cl, &P));
  PetscCall(MatPtAP(A, P, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &C));
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s: cluster sums, the %s against MatPtAP", name, c->S[0].what));
  PetscCall(AgainstMat(what, &hC, C, &mag, &terms));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  cluster   %-28s %8" PetscInt_FMT " -> %-8" PetscInt_FMT " %9" PetscInt_FMT " entries\n", name, hA.m, nc, NNZ(&hC)));
  PetscCall(HostFree(&mag));
  PetscCall(HostFree(&terms));
  PetscCall(HostFree(&hC));
  PetscCall(HostFree(&hA));
  PetscCall(MatDestroy(&P));
  PetscCall(MatDestroy(&C));
  PetscCall(PetscFree4(cl, ci, cj, v));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- the small members */

/* merge (A with a subset of its own entries, columns interleaved through maps; A with itself side by side through
   offsets; values and pattern only), unique (A's columns scrambled, some negative; every output alone and the map in
   place) and search (A's row pointers as the ranges, keys from below the first to above the last), each against
   results made here */
static PetscErrorCode ListCases(Ctx *c, const char *what, const TestCSR *pA)
{
  const TestCSR  hA = *pA;
  const PetscInt m = hA.m, n = hA.n, nnz = NNZ(&hA);

  PetscFunctionBegin;
  { /* merge */
    TestCSR   hB, want;
    PetscInt *acol, *bcol, nb = 0;
    PetscCall(HostAlloc(m, n, nnz, &hB));
    for (PetscInt r = 0; r < m; r++) {
      for (PetscInt e = hA.i[r]; e < hA.i[r + 1]; e++)
        if (e % 2 == 0) {
          hB.j[nb]   = hA.j[e];
          hB.a[nb++] = 2 * hA.a[e] + 1;
        }
      hB.i[r + 1] = nb;
    }
    PetscCall(PetscMalloc2(n, &acol, n, &bcol));
    for (PetscInt q = 0; q < n; q++) acol[q] = 2 * q, bcol[q] = 2 * q + 1;
    for (int variant = 0; variant < 3; variant++) { /* 0: interleaved by maps; 1: side by side by offsets; 2: 1 as a pattern */
      const PetscBool values = (PetscBool)(variant < 2);
      const PetscInt  cn = variant ? 2 * n + 3 : 2 * n, cnnz = nnz + nb;
      PetscCall(HostAlloc(m, cn, cnnz, &want));
      for (PetscInt r = 0, q = 0, kb = 0; r < m; r++) {
        if (variant == 0) {
          for (PetscInt e = hA.i[r]; e < hA.i[r + 1]; e++) {
            want.j[q]   = 2 * hA.j[e];
            want.a[q++] = hA.a[e];
            if (e % 2 == 0) {
              want.j[q]   = 2 * hA.j[e] + 1;
              want.a[q++] = hB.a[kb++];
            }
          }
        } else {
          for (PetscInt e = hA.i[r]; e < hA.i[r + 1]; e++) want.j[q] = hA.j[e] + 3, want.a[q++] = values ? hA.a[e] : 0.0;
          for (PetscInt e = hB.i[r]; e < hB.i[r + 1]; e++) want.j[q] = hB.j[e] + n + 3, want.a[q++] = values ? hB.a[e] : 0.0;
        }
        want.i[r + 1] = q;
      }
      FOR_SIDES(s)
      {
        GPUPCDevCSR dA, dB, dC;
        PetscInt   *da = NULL, *db = NULL;
        TestCSR     got;
        PetscCall(Put(&c->S[s], &hA, PETSC_TRUE, &dA));
        PetscCall(Put(&c->S[s], &hB, PETSC_TRUE, &dB));
        PetscCall(Make(&c->S[s], m, cn, cnnz, values, &dC));
        if (variant == 0) {
          PetscCall(TestDup(c->S[s].device, acol, n * sizeof(PetscInt), (void **)&da));
          PetscCall(TestDup(c->S[s].device, bcol, n * sizeof(PetscInt), (void **)&db));
          PetscCall(c->S[s].k->merge(&dA, da, 0, &dB, db, 0, &dC));
        } else PetscCall(c->S[s].k->merge(&dA, NULL, 3, &dB, NULL, n + 3, &dC));
        PetscCall(Get(&c->S[s], &dC, &got));
        PetscCall(SameCSR(what, &got, &want, NULL, NULL));
        PetscCall(HostFree(&got));
        PetscCall(Drop(&c->S[s], &dA));
        PetscCall(Drop(&c->S[s], &dB));
        PetscCall(Drop(&c->S[s], &dC));
        PetscCall(TestFree(c->S[s].device, da));
        PetscCall(TestFree(c->S[s].device, db));
      }
      PetscCall(HostFree(&want));
    }
    PetscCall(PetscFree2(acol, bcol));
    PetscCall(HostFree(&hB));
    Covered(c, GPUPC_SPARSE_KERNEL_merge, nnz);
  }
  { /* unique */
    PetscInt *keys, *sorted, *hl, *hm, nd = 0;
    PetscCall(PetscMalloc4(nnz, &keys, nnz, &sorted, nnz, &hl, nnz, &hm));
    for (PetscInt e = 0; e < nnz; e++) keys[e] = (7 * hA.j[e] + e % 3) % (n + 3) - 2;
    PetscCall(PetscArraycpy(sorted, keys, nnz));
    nd = nnz;
    PetscCall(PetscSortRemoveDupsInt(&nd, sorted));
    FOR_SIDES(s)
    {
      PetscInt *dk, *dl, *dm, count;
      size_t    inuse, peak;
      PetscCall(TestDup(c->S[s].device, keys, nnz * sizeof(PetscInt), (void **)&dk));
      PetscCall(TestMalloc(c->S[s].device, nnz * sizeof(PetscInt), (void **)&dl));
      PetscCall(TestMalloc(c->S[s].device, nnz * sizeof(PetscInt), (void **)&dm));
      PetscCall(PeakBegin(&c->S[s], &inuse));
      PetscCall(c->S[s].k->unique(nnz, dk, dl, dm, &count, &peak));
      PetscCall(PeakEnd(c, s, "unique", inuse, peak));
      PetscCheck(count == nd, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: unique (%s) counted %" PetscInt_FMT ", expected %" PetscInt_FMT, what, c->S[s].what, count, nd);
      PetscCall(TestGet(c->S[s].device, hl, dl, nd * sizeof(PetscInt)));
      PetscCall(TestGet(c->S[s].device, hm, dm, nnz * sizeof(PetscInt)));
      PetscCall(SameInts(what, "unique list", nd, hl, sorted));
      for (PetscInt e = 0; e < nnz; e++) PetscCheck(hm[e] >= 0 && hm[e] < nd && sorted[hm[e]] == keys[e], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: unique (%s) mapped key %" PetscInt_FMT " (%" PetscInt_FMT ") to %" PetscInt_FMT, what, c->S[s].what, e, keys[e], hm[e]);
      /* the count alone, the list alone, the map alone in place of the keys */
      PetscCall(c->S[s].k->unique(nnz, dk, NULL, NULL, &count, NULL));
      PetscCheck(count == nd, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: unique (%s) counted %" PetscInt_FMT " without outputs, expected %" PetscInt_FMT, what, c->S[s].what, count, nd);
      PetscCall(c->S[s].k->unique(nnz, dk, dl, NULL, &count, NULL));
      PetscCall(TestGet(c->S[s].device, hl, dl, nd * sizeof(PetscInt)));
      PetscCall(SameInts(what, "unique list alone", nd, hl, sorted));
      PetscCall(c->S[s].k->unique(nnz, dk, NULL, dk, &count, NULL));
      PetscCall(TestGet(c->S[s].device, hl, dk, nnz * sizeof(PetscInt)));
      PetscCall(SameInts(what, "unique map in place", nnz, hl, hm));
      PetscCall(TestFree(c->S[s].device, dk));
      PetscCall(TestFree(c->S[s].device, dl));
      PetscCall(TestFree(c->S[s].device, dm));
    }
    PetscCall(PetscFree4(keys, sorted, hl, hm));
    Covered(c, GPUPC_SPARSE_KERNEL_unique, nnz);
  }
  { /* search: keys -1 .. nnz + 1 in a scrambled order against the row pointers (equal bounds at empty rows) */
    const PetscInt nl = m + 1, nk = nnz + 3;
    PetscInt      *keys, *wpos, *wseg, *woff, *hp, *hs, *ho;
    PetscCall(PetscMalloc4(nk, &keys, nk, &wpos, nk, &wseg, nk, &woff));
    PetscCall(PetscMalloc3(nk, &hp, nk, &hs, nk, &ho));
    for (PetscInt x = -1, below = 0, atorbelow = 0; x <= nnz + 1; x++) { /* the counts for key x, by a sweep */
      while (below < nl && hA.i[below] < x) below++;
      while (atorbelow < nl && hA.i[atorbelow] <= x) atorbelow++;
      wpos[x + 1] = below;
      wseg[x + 1] = atorbelow - 1;
      woff[x + 1] = atorbelow - 1 >= 0 && atorbelow - 1 < nl - 1 ? x - hA.i[atorbelow - 1] : -1;
    }
    for (PetscInt k = 0; k < nk; k++) keys[k] = (PetscInt)(((PetscInt64)k * 7919) % nk) - 1;
    FOR_SIDES(s)
    {
      PetscInt *dl, *dk, *dp, *ds, *doff;
      PetscCall(TestDup(c->S[s].device, hA.i, nl * sizeof(PetscInt), (void **)&dl));
      PetscCall(TestDup(c->S[s].device, keys, nk * sizeof(PetscInt), (void **)&dk));
      PetscCall(TestMalloc(c->S[s].device, nk * sizeof(PetscInt), (void **)&dp));
      PetscCall(TestMalloc(c->S[s].device, nk * sizeof(PetscInt), (void **)&ds));
      PetscCall(TestMalloc(c->S[s].device, nk * sizeof(PetscInt), (void **)&doff));
      for (int variant = 0; variant < 2; variant++) { /* all outputs; then each alone */
        if (!variant) PetscCall(c->S[s].k->search(nl, dl, nk, dk, dp, ds, doff));
        else {
          PetscCall(c->S[s].k->search(nl, dl, nk, dk, dp, NULL, NULL));
          PetscCall(c->S[s].k->search(nl, dl, nk, dk, NULL, ds, NULL));
          PetscCall(c->S[s].k->search(nl, dl, nk, dk, NULL, NULL, doff));
        }
        PetscCall(TestGet(c->S[s].device, hp, dp, nk * sizeof(PetscInt)));
        PetscCall(TestGet(c->S[s].device, hs, ds, nk * sizeof(PetscInt)));
        PetscCall(TestGet(c->S[s].device, ho, doff, nk * sizeof(PetscInt)));
        for (PetscInt k = 0; k < nk; k++) {
          const PetscInt x = keys[k] + 1;
          PetscCheck(hp[k] == wpos[x] && hs[k] == wseg[x] && ho[k] == woff[x], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: search (%s) of key %" PetscInt_FMT " gave pos %" PetscInt_FMT " seg %" PetscInt_FMT " off %" PetscInt_FMT ", expected %" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT, what, c->S[s].what, keys[k], hp[k], hs[k], ho[k], wpos[x], wseg[x], woff[x]);
        }
      }
      PetscCall(TestFree(c->S[s].device, dl));
      PetscCall(TestFree(c->S[s].device, dk));
      PetscCall(TestFree(c->S[s].device, dp));
      PetscCall(TestFree(c->S[s].device, ds));
      PetscCall(TestFree(c->S[s].device, doff));
    }
    PetscCall(PetscFree4(keys, wpos, wseg, woff));
    PetscCall(PetscFree3(hp, hs, ho));
    Covered(c, GPUPC_SPARSE_KERNEL_search, nk - 2);
  }
  PetscFunctionReturn(0);
}

/* rowptr, compact, diagonal, expand, extraction and check on A (both sides, and against PETSc where it has them),
   then ListCases */
static PetscErrorCode SmallCases(Ctx *c, const char *name, Mat A)
{
  TestCSR     hA;
  GPUPCDevCSR dA[2];
  char        what[256];
  PetscInt    m, n, nnz;

  PetscFunctionBegin;
  PetscCall(HostFromMat(A, &hA));
  m   = hA.m;
  n   = hA.n;
  nnz = NNZ(&hA);
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s (%" PetscInt_FMT " x %" PetscInt_FMT ")", name, m, n));
  FOR_SIDES(s)
  PetscCall(Put(&c->S[s], &hA, PETSC_TRUE, &dA[s]));

  { /* rowptr: A's row lengths back into its row pointers */
    PetscInt *p[2], *h[2], total[2];
    FOR_SIDES(s)
    {
      size_t inuse, peak;
      PetscCall(PetscMalloc1(m + 1, &h[s]));
      h[s][0] = -7; /* not read */
      for (PetscInt r = 0; r < m; r++) h[s][r + 1] = hA.i[r + 1] - hA.i[r];
      PetscCall(TestDup(c->S[s].device, h[s], (m + 1) * sizeof(PetscInt), (void **)&p[s]));
      PetscCall(PeakBegin(&c->S[s], &inuse));
      PetscCall(c->S[s].k->rowptr(m, p[s], &total[s], &peak));
      PetscCall(PeakEnd(c, s, "rowptr", inuse, peak));
      PetscCall(TestGet(c->S[s].device, h[s], p[s], (m + 1) * sizeof(PetscInt)));
      PetscCall(SameInts(what, "rowptr", m + 1, h[s], hA.i));
      PetscCheck(total[s] == nnz, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: rowptr total %" PetscInt_FMT ", expected %" PetscInt_FMT, what, total[s], nnz);
      PetscCall(TestFree(c->S[s].device, p[s]));
      PetscCall(PetscFree(h[s]));
    }
    Covered(c, GPUPC_SPARSE_KERNEL_rowptr, m);
  }
  { /* compact: the rows with an odd length */
    PetscInt *marks, *dm[2], *list[2], *map[2], *hl, *hm, count[2], expect = 0;
    PetscCall(PetscMalloc3(m, &marks, m, &hl, m, &hm));
    for (PetscInt r = 0; r < m; r++) marks[r] = (hA.i[r + 1] - hA.i[r]) % 2 ? 5 : -1 - r % 3;
    FOR_SIDES(s)
    {
      size_t inuse, peak;
      PetscCall(TestDup(c->S[s].device, marks, m * sizeof(PetscInt), (void **)&dm[s]));
      PetscCall(TestMalloc(c->S[s].device, m * sizeof(PetscInt), (void **)&list[s]));
      PetscCall(TestMalloc(c->S[s].device, m * sizeof(PetscInt), (void **)&map[s]));
      PetscCall(PeakBegin(&c->S[s], &inuse));
      PetscCall(c->S[s].k->compact(m, dm[s], 5, list[s], map[s], &count[s], &peak));
      PetscCall(PeakEnd(c, s, "compact", inuse, peak));
      PetscCall(TestGet(c->S[s].device, hl, list[s], count[s] * sizeof(PetscInt)));
      PetscCall(TestGet(c->S[s].device, hm, map[s], m * sizeof(PetscInt)));
      expect = 0;
      for (PetscInt r = 0; r < m; r++) {
        if (marks[r] == 5) {
          PetscCheck(expect < count[s] && hl[expect] == r && hm[r] == expect, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: compact (%s) misplaced index %" PetscInt_FMT, what, c->S[s].what, r);
          expect++;
        } else PetscCheck(hm[r] == -1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: compact (%s) mapped unmarked index %" PetscInt_FMT " to %" PetscInt_FMT, what, c->S[s].what, r, hm[r]);
      }
      PetscCheck(count[s] == expect, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: compact (%s) counted %" PetscInt_FMT ", expected %" PetscInt_FMT, what, c->S[s].what, count[s], expect);
      /* the list alone, and the count alone */
      PetscCall(c->S[s].k->compact(m, dm[s], 5, NULL, map[s], &count[s], NULL));
      PetscCall(c->S[s].k->compact(m, dm[s], 5, list[s], NULL, &count[s], NULL));
      PetscCall(c->S[s].k->compact(m, dm[s], 5, NULL, NULL, &count[s], NULL));
      PetscCheck(count[s] == expect, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: compact (%s) counted %" PetscInt_FMT " without outputs, expected %" PetscInt_FMT, what, c->S[s].what, count[s], expect);
      PetscCall(TestFree(c->S[s].device, dm[s]));
      PetscCall(TestFree(c->S[s].device, list[s]));
      PetscCall(TestFree(c->S[s].device, map[s]));
    }
    PetscCall(PetscFree3(marks, hl, hm));
    Covered(c, GPUPC_SPARSE_KERNEL_compact, m);
  }
  { /* diagonal against MatGetDiagonal */
    PetscScalar       *d[2], *h[2];
    const PetscScalar *ref;
    Vec                x;
    PetscCall(MatCreateVecs(A, NULL, &x));
    PetscCall(MatGetDiagonal(A, x));
    PetscCall(VecGetArrayRead(x, &ref));
    FOR_SIDES(s)
    {
      PetscCall(TestMalloc(c->S[s].device, m * sizeof(PetscScalar), (void **)&d[s]));
      PetscCall(c->S[s].k->diagonal(&dA[s], d[s]));
      PetscCall(PetscMalloc1(m, &h[s]));
      PetscCall(TestGet(c->S[s].device, h[s], d[s], m * sizeof(PetscScalar)));
      PetscCall(SameValues(what, m, h[s], ref, NULL, NULL));
      PetscCall(TestFree(c->S[s].device, d[s]));
      PetscCall(PetscFree(h[s]));
    }
    PetscCall(VecRestoreArrayRead(x, &ref));
    PetscCall(VecDestroy(&x));
    Covered(c, GPUPC_SPARSE_KERNEL_diagonal, m);
  }
  { /* nonzero: A with every third value zeroed (some diagonals among them), the diagonal at offsets 0 and 2; then the
       diagonal of the same rows reversed (rows in another order than their columns') against a loop */
    TestCSR      hz;
    char        *want, *got;
    PetscScalar *wd, *gd;
    PetscCall(HostAlloc(m, n, nnz, &hz));
    PetscCall(PetscArraycpy(hz.i, hA.i, m + 1));
    PetscCall(PetscArraycpy(hz.j, hA.j, nnz));
    for (PetscInt e = 0; e < nnz; e++) hz.a[e] = e % 3 ? hA.a[e] : 0.0;
    PetscCall(PetscMalloc4(nnz, &want, nnz, &got, m, &wd, m, &gd));
    FOR_SIDES(s)
    {
      GPUPCDevCSR dz;
      char       *dk;
      PetscCall(Put(&c->S[s], &hz, PETSC_TRUE, &dz));
      PetscCall(TestMalloc(c->S[s].device, nnz * sizeof(char), (void **)&dk));
      for (PetscInt doff = 0; doff <= 2; doff += 2) {
        PetscCall(c->S[s].k->nonzero(&dz, doff, dk));
        PetscCall(TestGet(c->S[s].device, got, dk, nnz * sizeof(char)));
        for (PetscInt r = 0; r < m; r++)
          for (PetscInt e = hz.i[r]; e < hz.i[r + 1]; e++) {
            want[e] = (char)(hz.a[e] != 0.0 || hz.j[e] == r + doff);
            PetscCheck(got[e] == want[e], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: nonzero (%s, offset %" PetscInt_FMT ") entry %" PetscInt_FMT " of row %" PetscInt_FMT ": %d, expected %d", what, c->S[s].what, doff, e, r, (int)got[e], (int)want[e]);
          }
      }
      PetscCall(TestFree(c->S[s].device, dk));
      PetscCall(Drop(&c->S[s], &dz));
    }
    for (PetscInt r = 0; r < m; r++) { /* reversed rows */
      wd[r] = 0.0;
      for (PetscInt e = hA.i[r], f = hA.i[r + 1] - 1; e < hA.i[r + 1]; e++, f--) {
        hz.j[e] = hA.j[f];
        hz.a[e] = hA.a[f];
        if (hz.j[e] == r) wd[r] = hz.a[e];
      }
    }
    FOR_SIDES(s)
    {
      GPUPCDevCSR  dz;
      PetscScalar *dd;
      PetscCall(Put(&c->S[s], &hz, PETSC_TRUE, &dz));
      PetscCall(TestMalloc(c->S[s].device, m * sizeof(PetscScalar), (void **)&dd));
      PetscCall(c->S[s].k->diagonal(&dz, dd));
      PetscCall(TestGet(c->S[s].device, gd, dd, m * sizeof(PetscScalar)));
      PetscCall(SameValues(what, m, gd, wd, NULL, NULL));
      PetscCall(TestFree(c->S[s].device, dd));
      PetscCall(Drop(&c->S[s], &dz));
    }
    PetscCall(PetscFree4(want, got, wd, gd));
    PetscCall(HostFree(&hz));
    Covered(c, GPUPC_SPARSE_KERNEL_nonzero, nnz);
  }
  { /* locate: A's columns as keys, the range [n/4, n/2), the columns 3q (first pass) then the columns 3q + 1 outside
       the range (second pass, what the first left at -1) as lists; against a loop */
    PetscInt *l1, *l2, *want, *got, n1 = 0, n2 = 0;
    PetscCall(PetscMalloc4(n, &l1, n, &l2, nnz, &want, nnz, &got));
    for (PetscInt q = 0; q < n; q++) {
      if (q % 3 == 0) l1[n1++] = q;
      if (q % 3 == 1 && (q < n / 4 || q >= n / 2)) l2[n2++] = q; /* outside the range: a second list adds points */
    }
    for (PetscInt e = 0; e < nnz; e++) { /* by linear searches */
      const PetscInt g = hA.j[e];
      want[e]          = -1;
      if (g >= n / 4 && g < n / 2) want[e] = g - n / 4;
      for (PetscInt q = 0; q < n1 && want[e] < 0; q++)
        if (l1[q] == g) want[e] = q + 1000;
      for (PetscInt q = 0; q < n2 && want[e] < 0; q++)
        if (l2[q] == g) want[e] = q + 5000;
    }
    FOR_SIDES(s)
    {
      PetscInt *dkeys, *dl1, *dl2, *dout;
      PetscCall(TestDup(c->S[s].device, hA.j, nnz * sizeof(PetscInt), (void **)&dkeys));
      PetscCall(TestDup(c->S[s].device, l1, n1 * sizeof(PetscInt), (void **)&dl1));
      PetscCall(TestDup(c->S[s].device, l2, n2 * sizeof(PetscInt), (void **)&dl2));
      PetscCall(TestMalloc(c->S[s].device, nnz * sizeof(PetscInt), (void **)&dout));
      PetscCall(c->S[s].k->locate(nnz, dkeys, n / 4, n / 2, n1, dl1, 1000, PETSC_TRUE, dout));
      PetscCall(c->S[s].k->locate(nnz, dkeys, 0, 0, n2, dl2, 5000, PETSC_FALSE, dout));
      PetscCall(TestGet(c->S[s].device, got, dout, nnz * sizeof(PetscInt)));
      PetscCall(SameInts(what, "locate", nnz, got, want));
      PetscCall(TestFree(c->S[s].device, dkeys));
      PetscCall(TestFree(c->S[s].device, dl1));
      PetscCall(TestFree(c->S[s].device, dl2));
      PetscCall(TestFree(c->S[s].device, dout));
    }
    PetscCall(PetscFree4(l1, l2, want, got));
    Covered(c, GPUPC_SPARSE_KERNEL_locate, nnz);
  }
  { /* expand: A's COO indices, plain and through maps */
    PetscInt *rmap, *cmap, *dr[2], *dc[2], *ci[2], *cj[2], *hi, *hj;
    PetscCall(PetscMalloc4(m, &rmap, n, &cmap, nnz, &hi, nnz, &hj));
    for (PetscInt r = 0; r < m; r++) rmap[r] = (3 * r + 1) % PetscMax(m, 1);
    for (PetscInt q = 0; q < n; q++) cmap[q] = q % 4 == 3 ? -1 : n - 1 - q;
    FOR_SIDES(s)
    {
      PetscCall(TestDup(c->S[s].device, rmap, m * sizeof(PetscInt), (void **)&dr[s]));
      PetscCall(TestDup(c->S[s].device, cmap, n * sizeof(PetscInt), (void **)&dc[s]));
      PetscCall(TestMalloc(c->S[s].device, nnz * sizeof(PetscInt), (void **)&ci[s]));
      PetscCall(TestMalloc(c->S[s].device, nnz * sizeof(PetscInt), (void **)&cj[s]));
      for (int mapped = 0; mapped < 2; mapped++) {
        PetscCall(c->S[s].k->expand(&dA[s], mapped ? dr[s] : NULL, mapped ? dc[s] : NULL, ci[s], cj[s]));
        PetscCall(TestGet(c->S[s].device, hi, ci[s], nnz * sizeof(PetscInt)));
        PetscCall(TestGet(c->S[s].device, hj, cj[s], nnz * sizeof(PetscInt)));
        for (PetscInt r = 0; r < m; r++)
          for (PetscInt e = hA.i[r]; e < hA.i[r + 1]; e++)
            PetscCheck(hi[e] == (mapped ? rmap[r] : r) && hj[e] == (mapped ? cmap[hA.j[e]] : hA.j[e]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: expand (%s, %s) entry %" PetscInt_FMT " gave (%" PetscInt_FMT ", %" PetscInt_FMT ")", what, c->S[s].what, mapped ? "maps" : "plain", e, hi[e], hj[e]);
      }
      PetscCall(c->S[s].k->expand(&dA[s], NULL, NULL, NULL, cj[s])); /* one output alone */
      PetscCall(TestFree(c->S[s].device, dr[s]));
      PetscCall(TestFree(c->S[s].device, dc[s]));
      PetscCall(TestFree(c->S[s].device, ci[s]));
      PetscCall(TestFree(c->S[s].device, cj[s]));
    }
    PetscCall(PetscFree4(rmap, cmap, hi, hj));
    Covered(c, GPUPC_SPARSE_KERNEL_expand, nnz);
  }
  { /* extraction: every third row and the columns not divisible by 5 against MatCreateSubMatrix; all rows and entries
       kept by a flag against a matrix assembled by MatSetValues from the kept entries */
    PetscInt *rows, *cols, *cmap, nr = 0, nc = 0;
    char     *keep;
    PetscCall(PetscMalloc4(m, &rows, n, &cols, n, &cmap, nnz, &keep));
    for (PetscInt r = 0; r < m; r += 3) rows[nr++] = r;
    for (PetscInt q = 0; q < n; q++) cmap[q] = q % 5 ? nc : -1, nc += (q % 5 != 0);
    for (PetscInt q = 0, k = 0; q < n; q++)
      if (q % 5) cols[k++] = q;
    for (PetscInt e = 0; e < nnz; e++) keep[e] = (char)((e * 7) % 3 != 0);
    for (int variant = 0; variant < 2; variant++) {
      TestCSR        hB[2];
      Mat            S;
      const PetscInt bm = variant ? m : nr, bn = variant ? n : nc;
      FOR_SIDES(s)
      {
        PetscInt   *drows = NULL, *dcmap = NULL, nb;
        char       *dkeep = NULL;
        GPUPCDevCSR dB;
        if (!variant) PetscCall(TestDup(c->S[s].device, rows, nr * sizeof(PetscInt), (void **)&drows));
        if (!variant) PetscCall(TestDup(c->S[s].device, cmap, n * sizeof(PetscInt), (void **)&dcmap));
        if (variant) PetscCall(TestDup(c->S[s].device, keep, nnz * sizeof(char), (void **)&dkeep));
        PetscCall(TestMalloc(c->S[s].device, (bm + 1) * sizeof(PetscInt), (void **)&dB.i));
        PetscCall(c->S[s].k->extract_count(&dA[s], bm, drows, dkeep, dcmap, dB.i));
        PetscCall(c->S[s].k->rowptr(bm, dB.i, &nb, NULL));
        dB.m = bm, dB.n = bn, dB.nnz = nb;
        PetscCall(TestMalloc(c->S[s].device, nb * sizeof(PetscInt), (void **)&dB.j));
        PetscCall(TestMalloc(c->S[s].device, nb * sizeof(PetscScalar), (void **)&dB.a));
        PetscCall(c->S[s].k->extract_fill(&dA[s], bm, drows, dkeep, dcmap, &dB));
        PetscCall(Get(&c->S[s], &dB, &hB[s]));
        PetscCall(Drop(&c->S[s], &dB));
        PetscCall(TestFree(c->S[s].device, drows));
        PetscCall(TestFree(c->S[s].device, dcmap));
        PetscCall(TestFree(c->S[s].device, dkeep));
      }
      PetscCall(SameCSR(what, &hB[0], &hB[1], NULL, NULL));
      if (!variant) {
        IS isr, isc;
        PetscCall(ISCreateGeneral(PETSC_COMM_SELF, nr, rows, PETSC_USE_POINTER, &isr));
        PetscCall(ISCreateGeneral(PETSC_COMM_SELF, nc, cols, PETSC_USE_POINTER, &isc));
        PetscCall(MatCreateSubMatrix(A, isr, isc, MAT_INITIAL_MATRIX, &S));
        PetscCall(ISDestroy(&isr));
        PetscCall(ISDestroy(&isc));
      } else {
        PetscInt *len;
        PetscCall(PetscCalloc1(m, &len));
        for (PetscInt r = 0; r < m; r++)
          for (PetscInt e = hA.i[r]; e < hA.i[r + 1]; e++) len[r] += keep[e] != 0;
        PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, m, n, 0, len, &S));
        PetscCall(PetscFree(len));
        for (PetscInt r = 0; r < m; r++)
          for (PetscInt e = hA.i[r]; e < hA.i[r + 1]; e++)
            if (keep[e]) PetscCall(MatSetValue(S, r, hA.j[e], hA.a[e], INSERT_VALUES));
        PetscCall(MatAssemblyBegin(S, MAT_FINAL_ASSEMBLY));
        PetscCall(MatAssemblyEnd(S, MAT_FINAL_ASSEMBLY));
      }
      PetscCall(AgainstMat(what, &hB[0], S, NULL, NULL));
      PetscCall(MatDestroy(&S));
      FOR_SIDES(s)
      PetscCall(HostFree(&hB[s]));
    }
    PetscCall(PetscFree4(rows, cols, cmap, keep));
    Covered(c, GPUPC_SPARSE_KERNEL_extract_count, nnz);
    Covered(c, GPUPC_SPARSE_KERNEL_extract_fill, nnz);
  }
  { /* check: A is valid; a repeated column, a column out of range and a row pointer out of order are found in the
       first row that has one */
    FOR_SIDES(s)
    {
      PetscInt row, fault;
      PetscCall(c->S[s].k->check(&dA[s], &row, &fault));
      PetscCheck(row == -1 && fault == GPUPC_CSR_OK, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: check (%s) found row %" PetscInt_FMT " (fault %" PetscInt_FMT ") in a valid matrix", what, c->S[s].what, row, fault);
    }
    for (PetscInt r = 0; r < m; r++) {
      const PetscInt len = hA.i[r + 1] - hA.i[r];
      if (len < 2 || r < m / 2 || r == m - 1) continue; /* a row in the second half with 2 entries, not the last */
      for (int fault = GPUPC_CSR_ROWPTR; fault <= GPUPC_CSR_UNSORTED; fault++) {
        TestCSR bad;
        PetscCall(HostAlloc(m, n, nnz, &bad));
        PetscCall(PetscArraycpy(bad.i, hA.i, m + 1));
        PetscCall(PetscArraycpy(bad.j, hA.j, nnz));
        PetscCall(PetscArraycpy(bad.a, hA.a, nnz));
        if (fault == GPUPC_CSR_ROWPTR) bad.i[r + 1] = bad.i[r] - 1;
        if (fault == GPUPC_CSR_COLUMN) bad.j[bad.i[r] + 1] = n;
        if (fault == GPUPC_CSR_UNSORTED) bad.j[bad.i[r] + 1] = bad.j[bad.i[r]];
        FOR_SIDES(s)
        {
          GPUPCDevCSR d;
          PetscInt    row, got;
          PetscCall(Put(&c->S[s], &bad, PETSC_TRUE, &d));
          PetscCall(c->S[s].k->check(&d, &row, &got));
          PetscCheck(row == r && got == fault, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: check (%s) gave row %" PetscInt_FMT " fault %" PetscInt_FMT " for fault %d in row %" PetscInt_FMT, what, c->S[s].what, row, got, fault, r);
          PetscCall(Drop(&c->S[s], &d));
        }
        PetscCall(HostFree(&bad));
      }
      break;
    }
    Covered(c, GPUPC_SPARSE_KERNEL_check, m);
  }
  PetscCall(ListCases(c, what, &hA));
  FOR_SIDES(s)
  PetscCall(Drop(&c->S[s], &dA[s]));
  PetscCall(HostFree(&hA));
  PetscFunctionReturn(0);
}

/* sizes that a 32-bit PetscInt cannot hold are refused with an error, and rowptr leaves its input as it was */
static PetscErrorCode OverflowCases(Ctx *c)
{
  const PetscInt counts[4] = {0, 1 << 30, 1 << 30, 1 << 30};

  PetscFunctionBegin;
  FOR_SIDES(s)
  {
    PetscInt *p, h[4], total;
    PetscCall(TestDup(c->S[s].device, counts, sizeof(counts), (void **)&p));
    EXPECT_ERROR(c, PETSC_ERR_SUP, c->S[s].k->rowptr(3, p, &total, NULL));
    PetscCall(TestGet(c->S[s].device, h, p, sizeof(h)));
    PetscCall(SameInts("rowptr refused", "ptr", 4, h, counts));
    PetscCall(TestFree(c->S[s].device, p));
  }
  /* a COO entry outside the matrix */
  FOR_SIDES(s)
  {
    const PetscInt ci[3] = {0, 2, 1}, cj[3] = {1, 0, 3};
    PetscInt      *dci, *dcj, *perm, *dst, *Ci, nkept, nnz;
    PetscCall(TestDup(c->S[s].device, ci, sizeof(ci), (void **)&dci));
    PetscCall(TestDup(c->S[s].device, cj, sizeof(cj), (void **)&dcj));
    PetscCall(TestMalloc(c->S[s].device, sizeof(ci), (void **)&perm));
    PetscCall(TestMalloc(c->S[s].device, sizeof(ci), (void **)&dst));
    PetscCall(TestMalloc(c->S[s].device, 4 * sizeof(PetscInt), (void **)&Ci));
    EXPECT_ERROR(c, PETSC_ERR_ARG_OUTOFRANGE, c->S[s].k->coo_sort(3, 3, 3, dci, dcj, perm, dst, Ci, &nkept, &nnz, NULL));
    PetscCall(TestFree(c->S[s].device, dci));
    PetscCall(TestFree(c->S[s].device, dcj));
    PetscCall(TestFree(c->S[s].device, perm));
    PetscCall(TestFree(c->S[s].device, dst));
    PetscCall(TestFree(c->S[s].device, Ci));
  }
  PetscFunctionReturn(0);
}

/* gpuamg's host setup on A: its first prolongator */
static PetscErrorCode AMGProlongator(Mat A, PCGPUAMGType type, Mat *P)
{
  GPUPCAMGSetupOptions opts;
  GPUPCAMGHierarchy    H;

  PetscFunctionBegin;
  PetscCall(GPUPCAMGSetupOptionsDefault(&opts));
  opts.type       = type;
  opts.max_levels = 2;
  opts.threads    = 1;
  PetscCall(PetscMemzero(&H, sizeof(H)));
  PetscCall(GPUPCAMGHierarchyBuild(A, &opts, &H));
  PetscCheck(H.nlevels == 2, PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpuamg's setup made %" PetscInt_FMT " levels", H.nlevels);
  PetscCall(MatDuplicate(H.P[0], MAT_COPY_VALUES, P));
  PetscCall(GPUPCAMGHierarchyDestroy(&H));
  PetscFunctionReturn(0);
}

/* the two products of gpuamg's Galerkin step, A P and R (A P) with R = P^T, on the first two levels of a 3D Laplacian
   of nx^3 points with its ext+i prolongators (at most 4 entries a row): the shapes the setup and its value-only reuse
   run (level 0: short rows of A P, 8-16 lanes a row on the CUDA table; R (A P) and level 1: long rows, 32 lanes) */
static PetscErrorCode GalerkinCases(Ctx *c, PetscInt nx)
{
  Mat  A[2], P, R, AP;
  char name[64];

  PetscFunctionBegin;
  PetscCall(Laplacian(3, nx, &A[0]));
  for (PetscInt l = 0; l < 2; l++) {
    PetscCall(AMGProlongator(A[l], PC_GPUAMG_CLASSICAL, &P));
    PetscCall(MatTranspose(P, MAT_INITIAL_MATRIX, &R));
    PetscCall(MatMatMult(A[l], P, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &AP));
    if (!l) PetscCall(MatPtAP(A[l], P, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &A[1])); /* before SpGEMMCase's new values */
    PetscCall(PetscSNPrintf(name, sizeof(name), "Galerkin %" PetscInt_FMT "^3 level %" PetscInt_FMT ": A P", nx, l));
    PetscCall(SpGEMMCase(c, name, A[l], P));
    PetscCall(PetscSNPrintf(name, sizeof(name), "Galerkin %" PetscInt_FMT "^3 level %" PetscInt_FMT ": R (A P)", nx, l));
    PetscCall(SpGEMMCase(c, name, R, AP));
    PetscCall(MatDestroy(&P));
    PetscCall(MatDestroy(&R));
    PetscCall(MatDestroy(&AP));
  }
  PetscCall(MatDestroy(&A[0]));
  PetscCall(MatDestroy(&A[1]));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Ctx               c;
  PetscGPUPCBackend backend;
  PetscInt          large = 48;
  size_t            mem0, mem1;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-large", &large, NULL));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem0));
  PetscCall(PetscGPUPCGetBackend(&backend));
  PetscCall(PetscMemzero(&c, sizeof(c)));
  c.cuda        = (PetscBool)(backend == PETSC_GPUPC_BACKEND_CUDA);
  c.S[0].device = PETSC_TRUE;
  c.S[0].what   = c.cuda ? "cuda table" : "host table (device world)";
  c.S[1].device = PETSC_FALSE;
  c.S[1].what   = "host table";
  PetscCall(GPUPCGetSparseKernelsFor(backend, &c.S[0].k));
  PetscCall(GPUPCGetSparseKernelsFor(PETSC_GPUPC_BACKEND_HOST, &c.S[1].k));
  c.host = c.S[1].k;
#define CHECK_MEMBER(K, member, stem, params) PetscCheck((K)->member, PETSC_COMM_SELF, PETSC_ERR_PLIB, "table %s has no member " #member, (K)->name);
  FOR_SIDES(s){GPUPC_SPARSE_KERNEL_LIST(CHECK_MEMBER, c.S[s].k)}
#if !defined(GPUPC_HAVE_CUDA)
  {
    const GPUPCSparseKernels *k;
    EXPECT_ERROR(&c, PETSC_ERR_SUP, GPUPCGetSparseKernelsFor(PETSC_GPUPC_BACKEND_CUDA, &k));
  }
#endif
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &c.rnd));
  PetscCall(PetscRandomSetInterval(c.rnd, -1.0, 1.0));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "kernel_equiv_sparse: %s backend, the %s (device buffers) against the %s (host buffers) and PETSc\n", PetscGPUPCBackends[backend], c.S[0].what, c.S[1].what));

  {
    const struct {
      const char *name;
      PetscInt    m, k, n;
      RowShape    a, b;
    } rnd[] = {
      {"random 200 x 150 x 170", 200, 150, 170, ROWS_SHORT, ROWS_SHORT},
      {"graded 1500 x 5000 x 5000", 1500, 5000, 5000, ROWS_GRADED, ROWS_SHORT}, /* every bin, long rows of C */
      {"dense row 300 x 4000 x 2500", 300, 4000, 2500, ROWS_DENSE0, ROWS_SHORT},
      {"graded B 2000 x 3000 x 4000", 2000, 3000, 4000, ROWS_SHORT, ROWS_GRADED},
      {"graded x empty rows 800 x 3000 x 2000", 800, 3000, 2000, ROWS_GRADED, ROWS_SPARSE}, /* batches of products 0 */
      {"1 x 1 x 1", 1, 1, 1, ROWS_DENSE0, ROWS_DENSE0},
      {"1 x 40 x 1", 1, 40, 1, ROWS_DENSE0, ROWS_DENSE0},
      {"no rows 0 x 5 x 3", 0, 5, 3, ROWS_SHORT, ROWS_SHORT},
      {"no inner 4 x 0 x 3", 4, 0, 3, ROWS_SHORT, ROWS_SHORT},
      {"no columns 4 x 5 x 0", 4, 5, 0, ROWS_SHORT, ROWS_SHORT},
      {"tall 5000 x 3 x 7", 5000, 3, 7, ROWS_SHORT, ROWS_DENSE0},
    };
    for (size_t t = 0; t < sizeof(rnd) / sizeof(rnd[0]); t++) {
      Mat A, B;
      PetscCall(RandomMat(&c, rnd[t].m, rnd[t].k, rnd[t].a, &A));
      PetscCall(RandomMat(&c, rnd[t].k, rnd[t].n, rnd[t].b, &B));
      PetscCall(SpGEMMCase(&c, rnd[t].name, A, B));
      PetscCall(TransposeCase(&c, rnd[t].name, A));
      PetscCall(SmallCases(&c, rnd[t].name, A));
      PetscCall(COOCase(&c, rnd[t].name, A, 3, 5));
      PetscCall(MatDestroy(&A));
      PetscCall(MatDestroy(&B));
    }
  }
  { /* a matrix without entries, and a product without entries */
    Mat Z, B;
    PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 6, 4, 0, NULL, &Z));
    PetscCall(MatAssemblyBegin(Z, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(Z, MAT_FINAL_ASSEMBLY));
    PetscCall(RandomMat(&c, 4, 9, ROWS_SHORT, &B));
    PetscCall(SpGEMMCase(&c, "no entries 6 x 4 x 9", Z, B));
    PetscCall(TransposeCase(&c, "no entries 6 x 4", Z));
    PetscCall(SmallCases(&c, "no entries 6 x 4", Z));
    PetscCall(COOCase(&c, "no entries 6 x 4", Z, 2, 4));
    PetscCall(COOCase(&c, "no triples 6 x 4", Z, 2, 0));
    PetscCall(MatDestroy(&Z));
    PetscCall(MatDestroy(&B));
  }
  { /* Laplacians: products, transposes, gpuamg's prolongators in R A P, cmg's cluster sums */
    Mat A2, A3, AL, P;
    PetscCall(Laplacian(2, 40, &A2));
    PetscCall(Laplacian(3, 16, &A3));
    PetscCall(Laplacian(3, large, &AL));
    PetscCall(SpGEMMCase(&c, "2D Laplacian^2", A2, A2));
    PetscCall(SpGEMMCase(&c, "3D Laplacian^2 (large)", AL, AL));
    PetscCall(TransposeCase(&c, "3D Laplacian (large)", AL));
    PetscCall(SmallCases(&c, "3D Laplacian (large)", AL));
    PetscCall(COOCase(&c, "3D Laplacian (large)", AL, 2, 100));
    PetscCall(ClusterCase(&c, "2D Laplacian, clusters of 4", A2, 4));
    PetscCall(ClusterCase(&c, "3D Laplacian, clusters of 9", A3, 9));
    PetscCall(AMGProlongator(A3, PC_GPUAMG_CLASSICAL, &P));
    PetscCall(SpGEMMCase(&c, "3D Laplacian x classical P", A3, P));
    PetscCall(TransposeCase(&c, "classical P", P));
    PetscCall(RAPCase(&c, "3D Laplacian, classical P", A3, P));
    PetscCall(MatDestroy(&P));
    PetscCall(AMGProlongator(A3, PC_GPUAMG_AGG, &P));
    PetscCall(RAPCase(&c, "3D Laplacian, aggregation P", A3, P));
    PetscCall(MatDestroy(&P));
    PetscCall(GalerkinCases(&c, 24));
    PetscCall(MatDestroy(&A2));
    PetscCall(MatDestroy(&A3));
    PetscCall(MatDestroy(&AL));
  }
  PetscCall(OverflowCases(&c));

  /* every member ran, on a size of at most 1 and on one of at least 10^5 */
  for (PetscInt k = 0; k < GPUPC_SPARSE_NKERNELS; k++) {
    PetscCheck(c.runs[k] > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "member %s of GPUPC_SPARSE_KERNEL_LIST was never exercised: add a case for it to tests/kernel_equiv_sparse.c", GPUPCSparseKernelNames[k]);
    PetscCheck(c.minsize[k] <= 1 && c.maxsize[k] >= 100000, PETSC_COMM_SELF, PETSC_ERR_PLIB, "member %s ran on sizes %" PetscInt64_FMT " .. %" PetscInt64_FMT " only; the test asks for sizes down to 1 and up to 10^5", GPUPCSparseKernelNames[k], c.minsize[k], c.maxsize[k]);
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-16s %4" PetscInt_FMT " cases, sizes %" PetscInt64_FMT " .. %" PetscInt64_FMT "\n", GPUPCSparseKernelNames[k], c.runs[k], c.minsize[k], c.maxsize[k]));
  }
  PetscCall(PetscRandomDestroy(&c.rnd));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem1));
  PetscCheck(mem0 == mem1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "device memory in use went from %zu to %zu bytes", mem0, mem1);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "kernel_equiv_sparse: every member of the sparse table agrees (%d members)\n", (int)GPUPC_SPARSE_NKERNELS));
  PetscCall(PetscFinalize());
  return 0;
}

/*
   The Galerkin product C = P^T A P of PC gpuamg's setup on one rank (gpupc/amgsetup.h), from the CSR arrays, the
   coarse rows split over the host threads.

   C's row I is formed from R = P^T (built here by a counting transpose, so its rows list the fine rows in ascending
   order): for each fine row i of R's row I, the row i of A P (sum over A's row i, in its order, of a_ij times P's row
   j), then C_IJ += P_iI (A P)_iJ. Each entry is summed in the same order as PETSc's SEQAIJ MatPtAP (rows of A P
   formed one at a time, added into C in ascending i), so the result is the same; it does not depend on the thread
   count. A fine row is read by the coarse rows of its P row, which lie near each other: each thread keeps the rows of
   A P it formed in a small cache (emptied when full and at each chunk), so most are formed once rather than once per
   entry of P's row. The rows are formed in chunks of consecutive rows of about equal work (dynamic over the threads,
   each chunk into its own buffer), the chunks then laid end to end. Several ranks use MatPtAP (the setup's caller
   decides).
*/
#include <gpupc/amgsetup.h>
#include <gpupc/matgpu.h>
#if defined(_OPENMP)
#include <omp.h>
#endif

typedef struct {
  PetscInt   n, *i, *j; /* rows of R (the coarse points), fine columns */
  PetscReal *a;
} Transposed;

/* R = P^T with rows in ascending fine order */
static PetscErrorCode TransposeP(const GPUPCCSR *P, PetscInt threads, Transposed *R)
{
  PetscReal *pa;

  PetscFunctionBegin;
  R->n = P->n;
  PetscCall(PetscMalloc1(P->nnz, &pa));
#pragma omp parallel for num_threads(PetscMax(threads, 1)) schedule(static)
  for (PetscInt e = 0; e < P->nnz; e++) pa[e] = PetscRealPart(P->a[e]);
  PetscCall(GPUPCAMGTransposeCSR(P->m, P->n, P->i, P->j, pa, threads, &R->i, &R->j, &R->a));
  PetscCall(PetscFree(pa));
  PetscFunctionReturn(0);
}

/* per-thread work space: apmark[J] != 0 when J is in the current row of A P (apval[J] its value, aplist the columns),
   cpos[J] = 1 + position of J in the current row of C (0: not there). Allocated zeroed, reset after each row, so
   only the pages a thread touches are ever written. */
typedef struct {
  char      *apmark;
  PetscReal *apval;
  PetscInt  *aplist, *cpos;
  PetscInt   cap, len; /* the chunk's output buffer */
  PetscInt  *cols;
  PetscReal *vals;
  /* the cache of rows of A P: a fine row's row is formed once while it stays in the cache (a fine row is read by the
     coarse rows of its P row, which are near each other), so most are formed once instead of once per entry of P's
     row, and the cache stays small (emptied when it holds more than GPUPC_GALERKIN_CACHE entries) */
  PetscInt  *apat;                       /* per fine row: 1 + where its row is in the cache (its length there, then its entries); 0: not there */
  PetscInt  *cached, ncached, cachedcap; /* the fine rows in the cache */
  PetscInt  *ccols, clen, ccap;          /* the cache's entries */
  PetscReal *cvals;
} Work;

/* entries of the cache of rows of A P above which it is emptied before the next coarse row (12 MB) */
#define GPUPC_GALERKIN_CACHE (1 << 20)

static int WorkInit(Work *w, PetscInt nc, PetscInt nf)
{
  size_t m     = (size_t)PetscMax(nc, 1);
  w->apmark    = (char *)calloc(m, 1);
  w->apval     = (PetscReal *)calloc(m, sizeof(PetscReal));
  w->aplist    = (PetscInt *)malloc(m * sizeof(PetscInt));
  w->cpos      = (PetscInt *)calloc(m, sizeof(PetscInt));
  w->cap       = 0;
  w->len       = 0;
  w->cols      = NULL;
  w->vals      = NULL;
  w->apat      = (PetscInt *)calloc((size_t)PetscMax(nf, 1), sizeof(PetscInt));
  w->cached    = NULL;
  w->ncached   = 0;
  w->cachedcap = 0;
  w->ccols     = NULL;
  w->cvals     = NULL;
  w->clen      = 0;
  w->ccap      = 0;
  return !(w->apmark && w->apval && w->aplist && w->cpos && w->apat);
}

static void WorkFree(Work *w)
{
  free(w->apmark);
  free(w->apval);
  free(w->aplist);
  free(w->cpos);
  free(w->apat);
  free(w->cached);
  free(w->ccols);
  free(w->cvals);
}

static void CacheEmpty(Work *w)
{
  for (PetscInt q = 0; q < w->ncached; q++) w->apat[w->cached[q]] = 0;
  w->ncached = 0;
  w->clen    = 0;
}

/* column and value arrays of capacity *cap grown (realloc: called inside the threads) to hold at least need entries,
   with extra more so that a run of growths stays rare; returns nonzero when out of memory */
static int GrowPairs(PetscInt **cols, PetscReal **vals, PetscInt *cap, PetscInt need, PetscInt extra)
{
  PetscInt   newcap;
  PetscInt  *c;
  PetscReal *v;

  if (need <= *cap) return 0;
  newcap = PetscMax(2 * *cap, need + extra);
  c      = (PetscInt *)realloc(*cols, sizeof(PetscInt) * (size_t)newcap);
  if (!c) return 1;
  *cols = c;
  v     = (PetscReal *)realloc(*vals, sizeof(PetscReal) * (size_t)newcap);
  if (!v) return 1;
  *vals = v;
  *cap  = newcap;
  return 0;
}

/* row i of A P into the work space; returns its length */
static PetscInt RowAP(const GPUPCCSR *A, const GPUPCCSR *P, PetscInt i, Work *w)
{
  PetscInt len = 0;

  for (PetscInt e = A->i[i]; e < A->i[i + 1]; e++) {
    PetscInt  j = A->j[e];
    PetscReal a = PetscRealPart(A->a[e]);
    for (PetscInt f = P->i[j]; f < P->i[j + 1]; f++) {
      PetscInt J = P->j[f];
      if (!w->apmark[J]) {
        w->apmark[J]     = 1;
        w->aplist[len++] = J;
      }
      w->apval[J] += a * PetscRealPart(P->a[f]);
    }
  }
  return len;
}

/* the row i of A P from the cache, formed there first when it is not in it: *at is where its length is, its entries
   follow (valid until the next call); returns nonzero on failure */
static int CachedRowAP(const GPUPCCSR *A, const GPUPCCSR *P, PetscInt i, Work *w, PetscInt *at)
{
  PetscInt s = w->apat[i];

  if (!s) {
    PetscInt n = RowAP(A, P, i, w);
    if (GrowPairs(&w->ccols, &w->cvals, &w->ccap, w->clen + n + 1, 4096)) return 1;
    if (w->ncached == w->cachedcap) {
      PetscInt  cap = PetscMax(2 * w->cachedcap, 1024);
      PetscInt *r2  = (PetscInt *)realloc(w->cached, sizeof(PetscInt) * (size_t)cap);
      if (!r2) return 1;
      w->cached    = r2;
      w->cachedcap = cap;
    }
    s                 = w->clen + 1;
    w->ccols[w->clen] = n;
    for (PetscInt k = 0; k < n; k++) {
      PetscInt J      = w->aplist[k];
      w->ccols[s + k] = J;
      w->cvals[s + k] = w->apval[J];
      w->apmark[J]    = 0;
      w->apval[J]     = 0.0;
    }
    w->clen += n + 1;
    w->apat[i]              = s;
    w->cached[w->ncached++] = i;
  }
  *at = s - 1;
  return 0;
}

/* C's rows [r0, r1) appended to the work's buffer (cols sorted), their lengths in len[]; returns nonzero on failure */
static int Chunk(const GPUPCCSR *A, const GPUPCCSR *P, const Transposed *R, PetscInt r0, PetscInt r1, PetscInt *len, Work *w)
{
  CacheEmpty(w);
  for (PetscInt cr = r0; cr < r1; cr++) {
    PetscInt start = w->len;
    if (w->clen > GPUPC_GALERKIN_CACHE) CacheEmpty(w);
    for (PetscInt q = R->i[cr]; q < R->i[cr + 1]; q++) {
      PetscInt         at, n;
      const PetscInt  *apj;
      const PetscReal *apa;
      PetscReal        r = R->a[q];
      if (CachedRowAP(A, P, R->j[q], w, &at)) return 1;
      n   = w->ccols[at];
      apj = w->ccols + at + 1;
      apa = w->cvals + at + 1;
      if (GrowPairs(&w->cols, &w->vals, &w->cap, w->len + n, 1024)) return 1;
      for (PetscInt k = 0; k < n; k++) {
        PetscInt  J = apj[k];
        PetscReal v = r * apa[k];
        if (!w->cpos[J]) {
          w->cols[w->len] = J;
          w->vals[w->len] = 0.0;
          w->cpos[J]      = ++w->len - start;
        }
        w->vals[start + w->cpos[J] - 1] += v;
      }
    }
    for (PetscInt k = start; k < w->len; k++) w->cpos[w->cols[k]] = 0;
    GPUPCAMGSortPairs(w->len - start, w->cols + start, w->vals + start);
    len[cr - r0] = w->len - start;
  }
  return 0;
}

/* C's values on its existing pattern, rows [r0, r1) */
static void ChunkValues(const GPUPCCSR *A, const GPUPCCSR *P, const Transposed *R, const PetscInt *ci, const PetscInt *cj, PetscScalar *ca, PetscInt r0, PetscInt r1, Work *w, int *fail)
{
  CacheEmpty(w);
  for (PetscInt cr = r0; cr < r1 && !*fail; cr++) {
    if (w->clen > GPUPC_GALERKIN_CACHE) CacheEmpty(w);
    for (PetscInt k = ci[cr]; k < ci[cr + 1]; k++) {
      w->cpos[cj[k]] = k - ci[cr] + 1;
      ca[k]          = 0.0;
    }
    for (PetscInt q = R->i[cr]; q < R->i[cr + 1]; q++) {
      PetscInt         at, n;
      const PetscInt  *apj;
      const PetscReal *apa;
      PetscReal        r = R->a[q];
      if (CachedRowAP(A, P, R->j[q], w, &at)) {
        *fail = 1;
        break;
      }
      n   = w->ccols[at];
      apj = w->ccols + at + 1;
      apa = w->cvals + at + 1;
      for (PetscInt k = 0; k < n; k++) {
        PetscInt J = apj[k];
        if (w->cpos[J]) ca[ci[cr] + w->cpos[J] - 1] += r * apa[k];
        else *fail = 1; /* not in the pattern: the caller's P or A changed its structure */
      }
    }
    for (PetscInt k = ci[cr]; k < ci[cr + 1]; k++) w->cpos[cj[k]] = 0;
  }
}

/* chunk boundaries: about equal work (entries of A visited) per chunk */
static PetscErrorCode Chunks(const GPUPCCSR *A, const Transposed *R, PetscInt nchunks, PetscInt *bound)
{
  PetscLogDouble total = 0.0, acc = 0.0;
  PetscInt       c = 1;

  PetscFunctionBegin;
  for (PetscInt e = 0; e < R->i[R->n]; e++) total += (PetscLogDouble)(A->i[R->j[e] + 1] - A->i[R->j[e]]);
  bound[0] = 0;
  for (PetscInt cr = 0; cr < R->n && c < nchunks; cr++) {
    for (PetscInt q = R->i[cr]; q < R->i[cr + 1]; q++) acc += (PetscLogDouble)(A->i[R->j[q] + 1] - A->i[R->j[q]]);
    while (c < nchunks && acc >= total * (PetscLogDouble)c / (PetscLogDouble)nchunks) bound[c++] = cr + 1;
  }
  while (c <= nchunks) bound[c++] = R->n;
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGGalerkinSeq - the Galerkin product P^T A P on one rank, threaded over the coarse rows

   Collective on A (one rank)

   Input Parameters:
+  A       - the level matrix: SEQAIJ or a GPUPC type derived from it
.  P       - the prolongator: SEQAIJ, rows of A, columns the coarse points
.  reuse   - MAT_INITIAL_MATRIX, or MAT_REUSE_MATRIX for new values of A and P on the same structures (C must then
             come from an earlier call with this A and P)
-  threads - host threads

   Output Parameters:
+  C  - SEQAIJ, sorted columns; the same values as MatPtAP() and the same for any thread count
-  Rm - P^T as a SEQAIJ matrix (the product forms it anyway), or NULL when not wanted

   Level: developer

.seealso: GPUPCAMGHierarchyBuild()
@*/
PetscErrorCode GPUPCAMGGalerkinSeq(Mat A, Mat P, MatReuse reuse, PetscInt threads, Mat *C, Mat *Rm)
{
  GPUPCCSR   a, p;
  Transposed R;
  PetscInt   nt   = PetscMax(threads, 1), nchunks, *bound;
  int        fail = 0;

  PetscFunctionBegin;
  PetscCall(GPUPCMatGetCSR(A, &a));
  PetscCall(GPUPCMatGetCSR(P, &p));
  PetscCheck(a.m == a.n && a.n == p.m, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "P^T A P: A is %" PetscInt_FMT " x %" PetscInt_FMT ", P has %" PetscInt_FMT " rows", a.m, a.n, p.m);
  PetscCall(TransposeP(&p, nt, &R));
  nchunks = R.n > 0 ? PetscMin(R.n, 8 * nt) : 1;
  PetscCall(PetscMalloc1(nchunks + 1, &bound));
  PetscCall(Chunks(&a, &R, nchunks, bound));
  if (reuse == MAT_REUSE_MATRIX) {
    GPUPCCSR     c;
    PetscScalar *ca;

    PetscCall(GPUPCMatGetCSR(*C, &c));
    PetscCheck(c.m == R.n && c.n == R.n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "P^T A P reuse: C is %" PetscInt_FMT " x %" PetscInt_FMT ", P has %" PetscInt_FMT " columns", c.m, c.n, R.n);
    PetscCall(MatSeqAIJGetArray(*C, &ca));
#pragma omp parallel num_threads(nt)
    {
      Work w;
      int  bad = WorkInit(&w, R.n, a.m);
#pragma omp for schedule(dynamic, 1)
      for (PetscInt k = 0; k < nchunks; k++)
        if (!bad) ChunkValues(&a, &p, &R, c.i, c.j, ca, bound[k], bound[k + 1], &w, &bad);
      if (bad) {
#pragma omp atomic write
        fail = 1;
      }
      WorkFree(&w);
    }
    PetscCall(MatSeqAIJRestoreArray(*C, &ca));
    PetscCall(GPUPCMatRestoreCSR(&c));
    PetscCheck(!fail, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "P^T A P reuse: out of memory, or the new product has entries outside the old pattern (use a new setup when the structure of A or P changes)");
  } else {
    PetscInt   **ccols, *ci, *cj, *clen;
    PetscReal  **cvals;
    PetscInt    *cnt;
    PetscScalar *ca;

    PetscCall(PetscCalloc3(nchunks, &ccols, nchunks, &cvals, nchunks, &cnt));
    PetscCall(PetscMalloc1(R.n + 1, &ci));
    clen = ci + 1;
#pragma omp parallel num_threads(nt)
    {
      Work w;
      int  bad = WorkInit(&w, R.n, a.m);
#pragma omp for schedule(dynamic, 1)
      for (PetscInt k = 0; k < nchunks; k++) {
        if (bad) continue;
        w.len    = 0;
        w.cap    = 0;
        w.cols   = NULL;
        w.vals   = NULL;
        bad      = Chunk(&a, &p, &R, bound[k], bound[k + 1], clen + bound[k], &w);
        ccols[k] = w.cols;
        cvals[k] = w.vals;
        cnt[k]   = w.len;
      }
      if (bad) {
#pragma omp atomic write
        fail = 1;
      }
      WorkFree(&w);
    }
    if (!fail) {
      PetscInt *off;
      ci[0] = 0;
      for (PetscInt cr = 0; cr < R.n; cr++) ci[cr + 1] += ci[cr];
      PetscCall(PetscMalloc1(nchunks + 1, &off));
      off[0] = 0;
      for (PetscInt k = 0; k < nchunks; k++) off[k + 1] = off[k] + cnt[k];
      PetscCall(PetscMalloc1(off[nchunks], &cj));
      PetscCall(PetscMalloc1(off[nchunks], &ca));
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
      for (PetscInt k = 0; k < nchunks; k++)
        for (PetscInt q = 0; q < cnt[k]; q++) {
          cj[off[k] + q] = ccols[k][q];
          ca[off[k] + q] = cvals[k][q];
        }
      PetscCall(PetscFree(off));
    }
    for (PetscInt k = 0; k < nchunks; k++) {
      free(ccols[k]);
      free(cvals[k]);
    }
    PetscCall(PetscFree3(ccols, cvals, cnt));
    if (fail) PetscCall(PetscFree(ci));
    PetscCheck(!fail, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory in the Galerkin product of PC gpuamg (%" PetscInt_FMT " coarse rows)", R.n);
    PetscCall(GPUPCAMGMatOnArrays(R.n, R.n, ci, cj, ca, C));
  }
  PetscCall(PetscFree(bound));
  if (Rm) { /* R as a matrix: the restriction of the cycle */
    PetscScalar *ra;
    PetscCall(PetscMalloc1(R.i[R.n], &ra));
#pragma omp parallel for num_threads(nt) schedule(static)
    for (PetscInt e = 0; e < R.i[R.n]; e++) ra[e] = R.a[e];
    PetscCall(GPUPCAMGMatOnArrays(R.n, p.m, R.i, R.j, ra, Rm));
    PetscCall(PetscFree(R.a));
  } else {
    PetscCall(PetscFree(R.i));
    PetscCall(PetscFree(R.j));
    PetscCall(PetscFree(R.a));
  }
  PetscCall(GPUPCMatRestoreCSR(&p));
  PetscCall(GPUPCMatRestoreCSR(&a));
  PetscFunctionReturn(0);
}

/*
   The Galerkin product C = P^T A P of PC gpuamg's setup on one rank (gpupc/amgsetup.h), from the CSR arrays, the
   coarse rows split over the host threads.

   C's row I is formed from R = P^T (built here by a counting transpose, so its rows list the fine rows in ascending
   order) and the rows of A P, each formed once (sum over A's row i, in its order, of a_ij times P's row j; threaded
   over ranges of fine rows): for each fine row i of R's row I, C_IJ += P_iI (A P)_iJ. Each entry is summed in the
   same order as PETSc's SEQAIJ MatPtAP (rows of A P formed one at a time, added into C in ascending i), so the result
   is the same; it does not depend on the thread count. A P is kept whole (about as many entries as the fine rows
   times the coarse points their rows reach) rather than formed again for every entry of P's row i that reads it. The
   rows of C are formed in chunks of consecutive rows of about equal work (dynamic over the threads, each chunk into
   its own buffer), the chunks then laid end to end. Several ranks use MatPtAP (the setup's caller decides).
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
} Work;

static int WorkInit(Work *w, PetscInt nc)
{
  size_t m  = (size_t)PetscMax(nc, 1);
  w->apmark = (char *)calloc(m, 1);
  w->apval  = (PetscReal *)calloc(m, sizeof(PetscReal));
  w->aplist = (PetscInt *)malloc(m * sizeof(PetscInt));
  w->cpos   = (PetscInt *)calloc(m, sizeof(PetscInt));
  w->cap    = 0;
  w->len    = 0;
  w->cols   = NULL;
  w->vals   = NULL;
  return !(w->apmark && w->apval && w->aplist && w->cpos);
}

static void WorkFree(Work *w)
{
  free(w->apmark);
  free(w->apval);
  free(w->aplist);
  free(w->cpos);
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

/* the rows of A P, each formed once (RowAP) and kept in the order RowAP lists them: C's rows read the row of A P of
   each fine row of theirs, which is then the same value for every coarse row that reads it */
typedef struct {
  PetscInt64 *i; /* n+1 offsets */
  PetscInt   *j;
  PetscReal  *a;
} APRows;

static void APRowsFree(APRows *ap)
{
  free(ap->i);
  free(ap->j);
  free(ap->a);
  ap->i = NULL;
  ap->j = NULL;
  ap->a = NULL;
}

/* all rows of A P: contiguous fine row ranges over the threads, each into its own buffer, then laid end to end by the
   same threads; returns nonzero on failure (out of memory) */
static int FormAP(const GPUPCCSR *A, const GPUPCCSR *P, PetscInt nt, APRows *ap)
{
  const PetscInt n = A->m;
  PetscInt     **tcols;
  PetscReal    **tvals;
  PetscInt64    *tcnt, *toff;
  PetscInt      *tlo, *thi;
  int            fail = 0;

  ap->i = (PetscInt64 *)malloc(sizeof(PetscInt64) * ((size_t)n + 1));
  ap->j = NULL;
  ap->a = NULL;
  tcols = (PetscInt **)calloc((size_t)nt, sizeof(PetscInt *));
  tvals = (PetscReal **)calloc((size_t)nt, sizeof(PetscReal *));
  tcnt  = (PetscInt64 *)calloc((size_t)nt, sizeof(PetscInt64));
  toff  = (PetscInt64 *)calloc((size_t)nt + 1, sizeof(PetscInt64));
  tlo   = (PetscInt *)calloc((size_t)nt, sizeof(PetscInt));
  thi   = (PetscInt *)calloc((size_t)nt, sizeof(PetscInt));
  if (!ap->i || !tcols || !tvals || !tcnt || !toff || !tlo || !thi) fail = 1;
  if (!fail) {
#pragma omp parallel num_threads(nt)
    {
      int        tid = 0, nth = 1;
      Work       w;
      int        bad = WorkInit(&w, P->n);
      PetscInt64 cnt = 0, cap = 0;
      PetscInt   lo, hi, *cols = NULL;
      PetscReal *vals = NULL;
#if defined(_OPENMP)
      tid = omp_get_thread_num();
      nth = omp_get_num_threads();
#endif
      lo = (PetscInt)((PetscInt64)n * tid / nth);
      hi = (PetscInt)((PetscInt64)n * (tid + 1) / nth);
      for (PetscInt i = lo; i < hi && !bad; i++) {
        PetscInt len = RowAP(A, P, i, &w);
        if (cnt + len > cap) {
          PetscInt64 ncap = PetscMax(2 * cap, cnt + len + 4096);
          PetscInt  *c2   = (PetscInt *)realloc(cols, sizeof(PetscInt) * (size_t)ncap);
          PetscReal *v2;
          if (c2) cols = c2;
          v2 = c2 ? (PetscReal *)realloc(vals, sizeof(PetscReal) * (size_t)ncap) : NULL;
          if (v2) vals = v2;
          if (!c2 || !v2) {
            bad = 1;
            break;
          }
          cap = ncap;
        }
        for (PetscInt k = 0; k < len; k++) {
          PetscInt J  = w.aplist[k];
          cols[cnt]   = J;
          vals[cnt++] = w.apval[J];
          w.apmark[J] = 0;
          w.apval[J]  = 0.0;
        }
        ap->i[i + 1] = len;
      }
      tcols[tid] = cols;
      tvals[tid] = vals;
      tcnt[tid]  = cnt;
      tlo[tid]   = lo;
      thi[tid]   = hi;
      if (bad) {
#pragma omp atomic write
        fail = 1;
      }
      WorkFree(&w);
    }
  }
  if (!fail) {
    for (PetscInt t = 0; t < nt; t++) toff[t + 1] = toff[t] + tcnt[t];
    ap->i[0] = 0;
    ap->j    = (PetscInt *)malloc(sizeof(PetscInt) * (size_t)PetscMax(toff[nt], 1));
    ap->a    = (PetscReal *)malloc(sizeof(PetscReal) * (size_t)PetscMax(toff[nt], 1));
    if (!ap->j || !ap->a) fail = 1;
  }
  if (!fail) {
#pragma omp parallel for num_threads(nt) schedule(static)
    for (PetscInt t = 0; t < nt; t++) {
      PetscInt64 run = toff[t];
      for (PetscInt i = tlo[t]; i < thi[t]; i++) {
        run += ap->i[i + 1];
        ap->i[i + 1] = run;
      }
      for (PetscInt64 q = 0; q < tcnt[t]; q++) {
        ap->j[toff[t] + q] = tcols[t][q];
        ap->a[toff[t] + q] = tvals[t][q];
      }
    }
  }
  for (PetscInt t = 0; tcols && tvals && t < nt; t++) {
    free(tcols[t]);
    free(tvals[t]);
  }
  free(tcols);
  free(tvals);
  free(tcnt);
  free(toff);
  free(tlo);
  free(thi);
  if (fail) APRowsFree(ap);
  return fail;
}

/* sorts cols[0..n) ascending, vals along */
void GPUPCAMGSortPairs(PetscInt n, PetscInt *cols, PetscReal *vals)
{
  while (n > 16) { /* quicksort on the larger part's loop, recursion on the smaller */
    PetscInt p = cols[n / 2], lo = 0, hi = n - 1;
    while (lo <= hi) {
      while (cols[lo] < p) lo++;
      while (cols[hi] > p) hi--;
      if (lo <= hi) GPUPCAMGSwapPairs(cols, vals, lo++, hi--);
    }
    if (hi + 1 < n - lo) {
      GPUPCAMGSortPairs(hi + 1, cols, vals);
      cols += lo;
      vals += lo;
      n -= lo;
    } else {
      GPUPCAMGSortPairs(n - lo, cols + lo, vals + lo);
      n = hi + 1;
    }
  }
  for (PetscInt q = 1; q < n; q++) {
    PetscInt  c = cols[q], p = q;
    PetscReal v = vals[q];
    while (p > 0 && cols[p - 1] > c) {
      cols[p] = cols[p - 1];
      vals[p] = vals[p - 1];
      p--;
    }
    cols[p] = c;
    vals[p] = v;
  }
}

/* C's rows [r0, r1) appended to the work's buffer (cols sorted), their lengths in len[]; returns nonzero on failure */
static int Chunk(const APRows *ap, const Transposed *R, PetscInt r0, PetscInt r1, PetscInt *len, Work *w)
{
  for (PetscInt cr = r0; cr < r1; cr++) {
    PetscInt start = w->len;
    for (PetscInt q = R->i[cr]; q < R->i[cr + 1]; q++) {
      const PetscInt64 a0 = ap->i[R->j[q]], a1 = ap->i[R->j[q] + 1];
      PetscInt         n = (PetscInt)(a1 - a0);
      PetscReal        r = R->a[q];
      if (w->len + n > w->cap) {
        PetscInt   cap  = PetscMax(2 * w->cap, w->len + n + 1024);
        PetscInt  *cols = (PetscInt *)realloc(w->cols, sizeof(PetscInt) * (size_t)cap);
        PetscReal *vals;
        if (!cols) return 1;
        w->cols = cols;
        vals    = (PetscReal *)realloc(w->vals, sizeof(PetscReal) * (size_t)cap);
        if (!vals) return 1;
        w->vals = vals;
        w->cap  = cap;
      }
      for (PetscInt64 k = a0; k < a1; k++) {
        PetscInt  J = ap->j[k];
        PetscReal v = r * ap->a[k];
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
static void ChunkValues(const APRows *ap, const Transposed *R, const PetscInt *ci, const PetscInt *cj, PetscScalar *ca, PetscInt r0, PetscInt r1, Work *w, int *fail)
{
  for (PetscInt cr = r0; cr < r1; cr++) {
    for (PetscInt k = ci[cr]; k < ci[cr + 1]; k++) {
      w->cpos[cj[k]] = k - ci[cr] + 1;
      ca[k]          = 0.0;
    }
    for (PetscInt q = R->i[cr]; q < R->i[cr + 1]; q++) {
      PetscReal r = R->a[q];
      for (PetscInt64 k = ap->i[R->j[q]]; k < ap->i[R->j[q] + 1]; k++) {
        PetscInt J = ap->j[k];
        if (w->cpos[J]) ca[ci[cr] + w->cpos[J] - 1] += r * ap->a[k];
        else *fail = 1; /* not in the pattern: the caller's P or A changed its structure */
      }
    }
    for (PetscInt k = ci[cr]; k < ci[cr + 1]; k++) w->cpos[cj[k]] = 0;
  }
}

/* chunk boundaries: about equal work (entries of A P read) per chunk */
static PetscErrorCode Chunks(const APRows *ap, const Transposed *R, PetscInt nchunks, PetscInt *bound)
{
  PetscLogDouble total = 0.0, acc = 0.0;
  PetscInt       c = 1;

  PetscFunctionBegin;
  for (PetscInt e = 0; e < R->i[R->n]; e++) total += (PetscLogDouble)(ap->i[R->j[e] + 1] - ap->i[R->j[e]]);
  bound[0] = 0;
  for (PetscInt cr = 0; cr < R->n && c < nchunks; cr++) {
    for (PetscInt q = R->i[cr]; q < R->i[cr + 1]; q++) acc += (PetscLogDouble)(ap->i[R->j[q] + 1] - ap->i[R->j[q]]);
    while (c < nchunks && acc >= total * (PetscLogDouble)c / (PetscLogDouble)nchunks) bound[c++] = cr + 1;
  }
  while (c <= nchunks) bound[c++] = R->n;
  PetscFunctionReturn(0);
}

static PetscErrorCode FreeArrays(void *ctx)
{
  void **p = (void **)ctx;

  PetscFunctionBegin;
  PetscCall(PetscFree(p[0]));
  PetscCall(PetscFree(p[1]));
  PetscCall(PetscFree(p[2]));
  PetscCall(PetscFree(p));
  PetscFunctionReturn(0);
}

/* a SEQAIJ matrix on the arrays, which it frees when destroyed (a container composed with it holds them) */
PetscErrorCode GPUPCAMGMatOnArrays(PetscInt m, PetscInt n, PetscInt *i, PetscInt *j, PetscScalar *a, Mat *C)
{
  PetscContainer c;
  void         **p;

  PetscFunctionBegin;
  PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, m, n, i, j, a, C));
  PetscCall(PetscMalloc1(3, &p));
  p[0] = i;
  p[1] = j;
  p[2] = a;
  PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &c));
  PetscCall(PetscContainerSetPointer(c, p));
  PetscCall(PetscContainerSetUserDestroy(c, FreeArrays));
  PetscCall(PetscObjectCompose((PetscObject)*C, "GPUPCAMGArrays", (PetscObject)c));
  PetscCall(PetscContainerDestroy(&c));
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
  APRows     ap;
  PetscInt   nt   = PetscMax(threads, 1), nchunks, *bound;
  int        fail = 0;

  PetscFunctionBegin;
  PetscCall(GPUPCMatGetCSR(A, &a));
  PetscCall(GPUPCMatGetCSR(P, &p));
  PetscCheck(a.m == a.n && a.n == p.m, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "P^T A P: A is %" PetscInt_FMT " x %" PetscInt_FMT ", P has %" PetscInt_FMT " rows", a.m, a.n, p.m);
  PetscCall(TransposeP(&p, nt, &R));
  PetscCheck(!FormAP(&a, &p, nt, &ap), PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory forming A P in the Galerkin product of PC gpuamg (%" PetscInt_FMT " fine rows)", a.m);
  nchunks = R.n > 0 ? PetscMin(R.n, 8 * nt) : 1;
  PetscCall(PetscMalloc1(nchunks + 1, &bound));
  PetscCall(Chunks(&ap, &R, nchunks, bound));
  if (reuse == MAT_REUSE_MATRIX) {
    GPUPCCSR     c;
    PetscScalar *ca;

    PetscCall(GPUPCMatGetCSR(*C, &c));
    PetscCheck(c.m == R.n && c.n == R.n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "P^T A P reuse: C is %" PetscInt_FMT " x %" PetscInt_FMT ", P has %" PetscInt_FMT " columns", c.m, c.n, R.n);
    PetscCall(MatSeqAIJGetArray(*C, &ca));
#pragma omp parallel num_threads(nt)
    {
      Work w;
      int  bad = WorkInit(&w, R.n);
#pragma omp for schedule(dynamic, 1)
      for (PetscInt k = 0; k < nchunks; k++)
        if (!bad) ChunkValues(&ap, &R, c.i, c.j, ca, bound[k], bound[k + 1], &w, &bad);
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
      int  bad = WorkInit(&w, R.n);
#pragma omp for schedule(dynamic, 1)
      for (PetscInt k = 0; k < nchunks; k++) {
        if (bad) continue;
        w.len    = 0;
        w.cap    = 0;
        w.cols   = NULL;
        w.vals   = NULL;
        bad      = Chunk(&ap, &R, bound[k], bound[k + 1], clen + bound[k], &w);
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
  APRowsFree(&ap);
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

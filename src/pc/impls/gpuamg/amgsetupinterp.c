/*
   Interpolation of classical PC gpuamg (gpupc/amgsetup.h), row by row on the local rows; on the rank-local part,
   couplings to other ranks are lumped into the diagonal (their sums by sign), so a row with zero row sum interpolates
   constants exactly; on the local part with ghosts (GPUPCAMGInterpolateAcross()) the rows are whole and reach the
   C points of the ghosts' rows, with global coarse numbers.
   Signs are taken relative to the diagonal ("negative" below: opposite to a_ii).

   direct:     P_ij = -alpha_i a_ij / a_ii over the strong C neighbours, alpha (beta for positive couplings) the ratio
               of the sum over all neighbours to the sum over the interpolatory ones; positive couplings with no
               positive interpolatory point are lumped into the diagonal.
   standard:   the strong F neighbours k are eliminated with their own equations (row i - a_ik/a_kk row k), then
               direct interpolation of that row from the strong C points of i and of those k.
   ext+i:      De Sterck et al.'s extended+i: interpolatory set C^_i = strong C of i and of its strong F neighbours;
               a strong F neighbour k is distributed over C^_i and i in proportion to its negative couplings to
               them (lumped into the diagonal when it has none); weak couplings outside C^_i are lumped.
   multipass:  pass 1 interpolates F points with strong C neighbours directly; pass p the F points with a strong
               neighbour interpolated in an earlier pass, through those neighbours' rows.
   simple:     P_ij = 1/n_i over the n_i strong C neighbours.
   Truncation keeps the trunc_max largest |P_ij| of a row and drops those below trunc_factor * max |P_ij|, then
   scales the kept entries so the row sum is unchanged: one factor per row (sum, BoomerAMG's) or one for the positive
   and one for the negative entries (signs, Stueben's).
   All methods but multipass are threaded over contiguous row ranges; a row is computed the same way by any thread.
*/
#include <gpupc/threads.h>
#include <gpupc/amgsetup.h>
#include "amgdevrows.h"
#if defined(_OPENMP)
#include <omp.h>
#endif

/* the most threads of the coarse numbering */
#define GPUPC_INTERP_MAX_THREADS 256

typedef struct {
  PetscInt  *pos, *smark, *imark; /* per point: 1 + position in the row buffer, 1 + the row of the strong-neighbour and
                                     set stamps; 0: none. Allocated zeroed and reset after use, so a thread writes only
                                     the pages of the points its rows reach */
  PetscInt  *cols;                /* row buffer: local points */
  PetscReal *vals;
  PetscInt   cap, len;
  PetscInt  *match, mcap;    /* ext+i: the entries of a neighbour's row that take part in its distribution */
  PetscReal  offneg, offpos; /* standard: lumped sums of the modified row */
  int        fail;
} Scratch;

static int ScratchInit(Scratch *sc, PetscInt n)
{
  sc->pos   = (PetscInt *)calloc((size_t)PetscMax(n, 1), sizeof(PetscInt));
  sc->smark = (PetscInt *)calloc((size_t)PetscMax(n, 1), sizeof(PetscInt));
  sc->imark = (PetscInt *)calloc((size_t)PetscMax(n, 1), sizeof(PetscInt));
  sc->cap   = 64;
  sc->cols  = (PetscInt *)malloc(sizeof(PetscInt) * (size_t)sc->cap);
  sc->vals  = (PetscReal *)malloc(sizeof(PetscReal) * (size_t)sc->cap);
  sc->len   = 0;
  sc->mcap  = 64;
  sc->match = (PetscInt *)malloc(sizeof(PetscInt) * (size_t)sc->mcap);
  sc->fail  = !(sc->pos && sc->smark && sc->imark && sc->cols && sc->vals && sc->match);
  return sc->fail;
}

static void ScratchFree(Scratch *sc)
{
  free(sc->pos);
  free(sc->smark);
  free(sc->imark);
  free(sc->cols);
  free(sc->vals);
  free(sc->match);
}

/* adds point l to the row buffer (value v) or accumulates */
static void Add(Scratch *sc, PetscInt l, PetscReal v)
{
  if (sc->pos[l] > 0) {
    sc->vals[sc->pos[l] - 1] += v;
    return;
  }
  if (sc->len == sc->cap) {
    PetscInt   cap  = 2 * sc->cap;
    PetscInt  *cols = (PetscInt *)realloc(sc->cols, sizeof(PetscInt) * (size_t)cap);
    PetscReal *vals = (PetscReal *)realloc(sc->vals, sizeof(PetscReal) * (size_t)cap);
    if (!cols || !vals) {
      sc->fail = 1;
      if (cols) sc->cols = cols;
      if (vals) sc->vals = vals;
      return;
    }
    sc->cols = cols;
    sc->vals = vals;
    sc->cap  = cap;
  }
  sc->pos[l]          = sc->len + 1;
  sc->cols[sc->len]   = l;
  sc->vals[sc->len++] = v;
}

static void Clear(Scratch *sc)
{
  for (PetscInt q = 0; q < sc->len; q++) sc->pos[sc->cols[q]] = 0;
  sc->len = 0;
}

/* direct weights of a row given as (d, buffer of off-diagonal couplings, lumped sums) over the points marked
   imark[l] == stamp + 1; the result replaces the buffer (interpolatory points only) */
static void DirectFormula(Scratch *sc, PetscReal d, PetscReal offneg, PetscReal offpos, PetscInt stamp)
{
  PetscReal s = d < 0.0 ? -1.0 : 1.0, sum[4] = {s > 0 ? offneg : offpos, s > 0 ? offpos : offneg, 0.0, 0.0}, alpha, beta;
  PetscInt  k = 0;

  for (PetscInt q = 0; q < sc->len; q++) GPUPCAMGDirectAdd(sc->vals[q], s, sc->imark[sc->cols[q]] == stamp + 1, sum);
  GPUPCAMGDirectScales(sum, &d, &alpha, &beta);
  for (PetscInt q = 0; q < sc->len; q++) {
    PetscInt l = sc->cols[q];
    sc->pos[l] = 0;
    if (sc->imark[l] != stamp + 1 || sc->vals[q] == 0.0 || d == 0.0) continue;
    sc->cols[k]   = l;
    sc->vals[k++] = -(sc->vals[q] * s < 0.0 ? alpha : beta) * sc->vals[q] / d;
  }
  sc->len = k;
  for (PetscInt q = 0; q < k; q++) sc->pos[sc->cols[q]] = q + 1;
}

static void RowDirect(const GPUPCAMGLocal *L, const GPUPCAMGStrength *S, const PetscInt *cf, PetscInt i, Scratch *sc)
{
  for (PetscInt e = S->i[i]; e < S->i[i + 1]; e++)
    if (cf[S->j[e]] == GPUPC_AMG_C) sc->imark[S->j[e]] = i + 1;
  for (PetscInt e = L->i[i]; e < L->i[i + 1]; e++)
    if (L->j[e] != i && GPUPC_AMG_SAMEF(L, i, L->j[e])) Add(sc, L->j[e], L->a[e]);
  DirectFormula(sc, L->diag[i], L->offneg[i], L->offpos[i], i);
}

static void RowSimple(const GPUPCAMGStrength *S, const PetscInt *cf, PetscInt i, Scratch *sc)
{
  PetscInt nc = 0;

  for (PetscInt e = S->i[i]; e < S->i[i + 1]; e++)
    if (cf[S->j[e]] == GPUPC_AMG_C) nc++;
  for (PetscInt e = S->i[i]; e < S->i[i + 1]; e++)
    if (cf[S->j[e]] == GPUPC_AMG_C) Add(sc, S->j[e], 1.0 / nc);
}

static void RowStandard(const GPUPCAMGLocal *L, const GPUPCAMGStrength *S, const PetscInt *cf, PetscInt i, Scratch *sc)
{
  PetscReal d = L->diag[i], offneg = L->offneg[i], offpos = L->offpos[i];

  for (PetscInt e = S->i[i]; e < S->i[i + 1]; e++) {
    PetscInt k   = S->j[e];
    sc->smark[k] = i + 1;
    if (cf[k] == GPUPC_AMG_C) sc->imark[k] = i + 1;
    else
      for (PetscInt f = S->i[k]; f < S->i[k + 1]; f++)
        if (cf[S->j[f]] == GPUPC_AMG_C) sc->imark[S->j[f]] = i + 1;
  }
  sc->imark[i] = 0;
  for (PetscInt e = L->i[i]; e < L->i[i + 1]; e++) {
    PetscInt k = L->j[e];
    if (k == i || !GPUPC_AMG_SAMEF(L, i, k)) continue;
    if (sc->smark[k] == i + 1 && cf[k] == GPUPC_AMG_F && L->diag[k] != 0.0) { /* eliminate k with its own equation */
      PetscReal f = -L->a[e] / L->diag[k];
      for (PetscInt g = L->i[k]; g < L->i[k + 1]; g++) {
        PetscInt l = L->j[g];
        if (l == k || !GPUPC_AMG_SAMEF(L, k, l)) continue;
        if (l == i) d += f * L->a[g];
        else Add(sc, l, f * L->a[g]);
      }
      if (f >= 0.0) {
        offneg += f * L->offneg[k];
        offpos += f * L->offpos[k];
      } else {
        offneg += f * L->offpos[k];
        offpos += f * L->offneg[k];
      }
    } else Add(sc, k, L->a[e]);
  }
  DirectFormula(sc, d, offneg, offpos, i);
}

static void RowExtI(const GPUPCAMGLocal *L, const GPUPCAMGStrength *S, const PetscInt *cf, PetscInt i, Scratch *sc)
{
  PetscReal d = L->diag[i] + L->offneg[i] + L->offpos[i];

  /* the interpolatory set: strong C of i and of its strong F neighbours (values start at 0) */
  for (PetscInt e = S->i[i]; e < S->i[i + 1]; e++) {
    PetscInt k   = S->j[e];
    sc->smark[k] = i + 1;
    if (cf[k] == GPUPC_AMG_C) Add(sc, k, 0.0);
    else
      for (PetscInt f = S->i[k]; f < S->i[k + 1]; f++)
        if (cf[S->j[f]] == GPUPC_AMG_C) Add(sc, S->j[f], 0.0);
  }
  for (PetscInt e = L->i[i]; e < L->i[i + 1]; e++) {
    PetscInt n = L->j[e];
    if (n == i || !GPUPC_AMG_SAMEF(L, i, n)) continue;
    if (sc->pos[n] > 0) sc->vals[sc->pos[n] - 1] += L->a[e];
    else if (!(sc->smark[n] == i + 1 && cf[n] == GPUPC_AMG_F)) d += L->a[e]; /* weak, not interpolatory: lumped */
  }
  for (PetscInt e = L->i[i]; e < L->i[i + 1]; e++) {
    PetscInt  k = L->j[e], nm = 0;
    PetscReal sk, D = 0.0, aik = L->a[e];
    if (k == i || sc->smark[k] != i + 1 || cf[k] != GPUPC_AMG_F) continue;
    sk = L->diag[k] < 0.0 ? -1.0 : 1.0;
    if (L->i[k + 1] - L->i[k] > sc->mcap) {
      PetscInt  cap = 2 * (L->i[k + 1] - L->i[k]);
      PetscInt *m2  = (PetscInt *)realloc(sc->match, sizeof(PetscInt) * (size_t)cap);
      if (!m2) {
        sc->fail = 1;
        return;
      }
      sc->match = m2;
      sc->mcap  = cap;
    }
    /* D: k's negative couplings to i and to C^_i; the same entries, in the same order, are distributed below */
    for (PetscInt g = L->i[k]; g < L->i[k + 1]; g++) { /* without branches on the data: adding +0 leaves D as it is */
      const PetscInt  l    = L->j[g];
      const PetscReal v    = L->a[g];
      const int       take = ((l == i) | (sc->pos[l] > 0)) & (v * sk < 0.0) & (GPUPC_AMG_SAMEF(L, k, l) ? 1 : 0);
      D += take ? v : 0.0;
      sc->match[nm] = g;
      nm += take;
    }
    if (D == 0.0) {
      d += aik;
      continue;
    }
    for (PetscInt q = 0; q < nm; q++) {
      PetscInt g = sc->match[q], l = L->j[g];
      if (l == i) d += aik * L->a[g] / D;
      else sc->vals[sc->pos[l] - 1] += aik * L->a[g] / D;
    }
  }
  for (PetscInt q = 0; q < sc->len; q++) sc->vals[q] = d != 0.0 ? -sc->vals[q] / d : 0.0;
}

static PetscErrorCode InterpThreaded(const GPUPCAMGLocal *L, const GPUPCAMGStrength *S, const PetscInt *cf, const PetscInt *cidx, PCGPUAMGInterpType type, PetscInt tmax, PetscReal tfac, PCGPUAMGTruncRescale rescale, PetscInt threads, GPUPCAMGLocalP *P)
{
  PetscInt    n = L->n, nt = PetscMax(threads, 1);
  PetscInt  **tcols, *tcnt, *tlo, *thi, *toff;
  PetscReal **tvals;
  int         fail = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(n + 1, &P->i));
  PetscCall(PetscCalloc5(nt, &tcols, nt, &tvals, nt, &tcnt, nt, &tlo, nt, &thi)); /* threads the team lacks: no rows */
#pragma omp parallel num_threads(nt)
  {
    int        tid = 0, nth = 1;
    Scratch    sc;
    PetscInt   cap = 256, cnt = 0, lo, hi;
    PetscInt  *oc;
    PetscReal *ov;
#if defined(_OPENMP)
    tid = omp_get_thread_num();
    nth = omp_get_num_threads();
#endif
    lo = (PetscInt)(((long long)n * tid) / nth);
    hi = (PetscInt)(((long long)n * (tid + 1)) / nth);
    oc = (PetscInt *)malloc(sizeof(PetscInt) * (size_t)cap);
    ov = (PetscReal *)malloc(sizeof(PetscReal) * (size_t)cap);
    if (ScratchInit(&sc, PetscMax(L->nx, n)) || !oc || !ov) sc.fail = 1;
    for (PetscInt i = lo; i < hi && !sc.fail; i++) {
      PetscInt len;
      if (cf[i] == GPUPC_AMG_C) Add(&sc, i, 1.0);
      else {
        switch (type) {
        case PC_GPUAMG_INTERP_DIRECT:
          RowDirect(L, S, cf, i, &sc);
          break;
        case PC_GPUAMG_INTERP_STANDARD:
          RowStandard(L, S, cf, i, &sc);
          break;
        case PC_GPUAMG_INTERP_SIMPLE:
          RowSimple(S, cf, i, &sc);
          break;
        default:
          RowExtI(L, S, cf, i, &sc);
          break;
        }
      }
      /* the interpolatory points are C points: their coarse numbers from here on (increasing with the global number
         of the point, so truncation breaks ties alike on any number of ranks) */
      for (PetscInt q = 0; q < sc.len; q++) {
        sc.pos[sc.cols[q]] = 0;
        sc.cols[q]         = cidx[sc.cols[q]];
      }
      if (cf[i] != GPUPC_AMG_C) {
        len    = sc.len;
        len    = GPUPCAMGTruncRow(len, sc.cols, sc.vals, tmax, tfac, rescale);
        sc.len = len;
      }
      if (cnt + sc.len > cap) {
        while (cnt + sc.len > cap) cap *= 2;
        PetscInt  *c2 = (PetscInt *)realloc(oc, sizeof(PetscInt) * (size_t)cap);
        PetscReal *v2 = (PetscReal *)realloc(ov, sizeof(PetscReal) * (size_t)cap);
        if (c2) oc = c2;
        if (v2) ov = v2;
        if (!c2 || !v2) {
          sc.fail = 1;
          break;
        }
      }
      for (PetscInt q = 0; q < sc.len; q++) {
        oc[cnt]   = sc.cols[q];
        ov[cnt++] = sc.vals[q];
      }
      P->i[i + 1] = sc.len;
      sc.len      = 0;
    }
    tcols[tid] = oc;
    tvals[tid] = ov;
    tcnt[tid]  = cnt;
    tlo[tid]   = lo;
    thi[tid]   = hi;
    if (sc.fail) {
#pragma omp atomic write
      fail = 1;
    }
    ScratchFree(&sc);
  }
  if (fail) {
    for (PetscInt t = 0; t < nt; t++) {
      free(tcols[t]);
      free(tvals[t]);
    }
    PetscCall(PetscFree5(tcols, tvals, tcnt, tlo, thi));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory in the interpolation of PC gpuamg");
  }
  /* the threads' rows end to end: each range's offset is the sum of the counts before it, and the thread that made a
     range writes its row pointers and copies its entries (in parallel, onto pages it touches first) */
  PetscCall(PetscMalloc1(nt + 1, &toff));
  toff[0] = 0;
  for (PetscInt t = 0; t < nt; t++) toff[t + 1] = toff[t] + tcnt[t];
  P->i[0] = 0;
  PetscCall(PetscMalloc2(toff[nt], &P->j, toff[nt], &P->a));
#pragma omp parallel for num_threads(nt) schedule(static)
  for (PetscInt t = 0; t < nt; t++) {
    PetscInt run = toff[t];
    for (PetscInt i = tlo[t]; i < thi[t]; i++) {
      run += P->i[i + 1];
      P->i[i + 1] = run;
    }
    for (PetscInt q = 0; q < tcnt[t]; q++) {
      P->j[toff[t] + q] = tcols[t][q];
      P->a[toff[t] + q] = tvals[t][q];
    }
    free(tcols[t]);
    free(tvals[t]);
  }
  PetscCall(PetscFree(toff));
  PetscCall(PetscFree5(tcols, tvals, tcnt, tlo, thi));
  PetscFunctionReturn(0);
}

static PetscErrorCode InterpMultipass(const GPUPCAMGLocal *L, const GPUPCAMGStrength *S, const PetscInt *cf, const PetscInt *cidx, PetscInt tmax, PetscReal tfac, PCGPUAMGTruncRescale rescale, GPUPCAMGLocalP *P)
{
  PetscInt   n = L->n, *pass, *rs, *rl, *set, nset, cap = 4 * n + 16, cnt = 0, *pc, p;
  PetscReal *pv;
  Scratch    sc, acc;

  PetscFunctionBegin;
  PetscCheck(!ScratchInit(&sc, n) && !ScratchInit(&acc, L->n), PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory in the multipass interpolation of PC gpuamg");
  PetscCall(PetscMalloc4(n, &pass, n, &rs, n, &rl, n, &set));
  /* two allocations, not PetscMalloc2: both grow by PetscRealloc (one block of PetscMalloc2 cannot be reallocated in
     parts; it crashed near 10^5 rows with -pc_gpuamg_trunc_max 0) */
  PetscCall(PetscMalloc1(cap, &pc));
  PetscCall(PetscMalloc1(cap, &pv));
  for (PetscInt i = 0; i < n; i++) {
    pass[i] = cf[i] == GPUPC_AMG_C ? 0 : -1;
    rl[i]   = 0;
    rs[i]   = 0;
    if (cf[i] == GPUPC_AMG_C) {
      rs[i]     = cnt;
      rl[i]     = 1;
      pc[cnt]   = cidx[i];
      pv[cnt++] = 1.0;
    }
  }
  for (p = 1;; p++) {
    nset = 0;
    for (PetscInt i = 0; i < n; i++) {
      if (pass[i] >= 0) continue;
      for (PetscInt e = S->i[i]; e < S->i[i + 1]; e++)
        if (pass[S->j[e]] >= 0) {
          set[nset++] = i;
          break;
        }
    }
    if (!nset) break;
    for (PetscInt q = 0; q < nset; q++) {
      PetscInt i = set[q], len;
      for (PetscInt e = S->i[i]; e < S->i[i + 1]; e++)
        if (pass[S->j[e]] >= 0) sc.imark[S->j[e]] = i + 1;
      for (PetscInt e = L->i[i]; e < L->i[i + 1]; e++)
        if (L->j[e] != i && GPUPC_AMG_SAMEF(L, i, L->j[e])) Add(&sc, L->j[e], L->a[e]);
      DirectFormula(&sc, L->diag[i], L->offneg[i], L->offpos[i], i);
      /* row i = sum_j w_ij P_j over the earlier points j (coarse columns accumulated in acc) */
      for (PetscInt r = 0; r < sc.len; r++) {
        PetscInt j = sc.cols[r];
        for (PetscInt g = rs[j]; g < rs[j] + rl[j]; g++) Add(&acc, pc[g], sc.vals[r] * pv[g]);
      }
      Clear(&sc);
      PetscCheck(!sc.fail && !acc.fail, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory in the multipass interpolation of PC gpuamg");
      len = acc.len;
      for (PetscInt r = 0; r < acc.len; r++) acc.pos[acc.cols[r]] = 0;
      len = GPUPCAMGTruncRow(len, acc.cols, acc.vals, tmax, tfac, rescale);
      if (cnt + len > cap) {
        cap = 2 * (cnt + len);
        PetscCall(PetscRealloc(sizeof(PetscInt) * cap, &pc));
        PetscCall(PetscRealloc(sizeof(PetscReal) * cap, &pv));
      }
      rs[i] = cnt;
      rl[i] = len;
      for (PetscInt r = 0; r < len; r++) {
        pc[cnt]   = acc.cols[r];
        pv[cnt++] = acc.vals[r];
      }
      acc.len = 0;
    }
    for (PetscInt q = 0; q < nset; q++) pass[set[q]] = p;
  }
  PetscCall(PetscMalloc1(n + 1, &P->i));
  P->i[0] = 0;
  for (PetscInt i = 0; i < n; i++) P->i[i + 1] = P->i[i] + rl[i];
  PetscCall(PetscMalloc2(P->i[n], &P->j, P->i[n], &P->a));
  for (PetscInt i = 0; i < n; i++) {
    PetscCall(PetscArraycpy(P->j + P->i[i], pc + rs[i], rl[i]));
    PetscCall(PetscArraycpy(P->a + P->i[i], pv + rs[i], rl[i]));
  }
  PetscCall(PetscFree(pc));
  PetscCall(PetscFree(pv));
  PetscCall(PetscFree4(pass, rs, rl, set));
  ScratchFree(&sc);
  ScratchFree(&acc);
  PetscFunctionReturn(0);
}

/* the coarse numbering of n points: C points in order, cidx[i] = -1 for the others; each of nt ranges counts its C
   points, then numbers them from the count of the ranges before it */
static PetscErrorCode CoarseNumbers(PetscInt n, const PetscInt *cf, PetscInt threads, PetscInt *cidx, PetscInt *nc)
{
  PetscInt nt = GPUPCRangeThreads(PetscMin(threads, GPUPC_INTERP_MAX_THREADS), n, 65536), off[GPUPC_INTERP_MAX_THREADS + 1];

  PetscFunctionBegin;
  off[0] = 0;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (PetscInt t = 0; t < nt; t++) {
    PetscInt lo, hi;
    GPUPCThreadRange(n, t, nt, &lo, &hi);
    PetscInt c = 0;
    for (PetscInt i = lo; i < hi; i++) c += cf[i] == GPUPC_AMG_C;
    off[t + 1] = c;
  }
  for (PetscInt t = 0; t < nt; t++) off[t + 1] += off[t];
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (PetscInt t = 0; t < nt; t++) {
    PetscInt lo, hi;
    GPUPCThreadRange(n, t, nt, &lo, &hi);
    PetscInt c = off[t];
    for (PetscInt i = lo; i < hi; i++) cidx[i] = cf[i] == GPUPC_AMG_C ? c++ : -1;
  }
  *nc = off[nt];
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGInterpolate - the interpolation of the local rows from their C points

   Not Collective

   Input Parameters:
+  L       - local part of the level matrix
.  S       - strength graph
.  cf      - C/F splitting
.  type    - direct, standard, ext+i, multipass or simple
.  tmax    - at most this many entries per row (0: no limit)
.  tfac    - drop entries below tfac * max |P_ij| of the row (0: none)
.  rescale - how the kept entries are rescaled to keep the row sum (PCGPUAMGTruncRescale)
-  threads - host threads

   Output Parameter:
.  P - n x nc (local C points numbered in order), free with GPUPCAMGLocalPFree()

   Level: developer

.seealso: GPUPCAMGCoarsen(), GPUPCAMGLocalPToMat()
@*/
PetscErrorCode GPUPCAMGInterpolate(const GPUPCAMGLocal *L, const GPUPCAMGStrength *S, const PetscInt *cf, PCGPUAMGInterpType type, PetscInt tmax, PetscReal tfac, PCGPUAMGTruncRescale rescale, PetscInt threads, GPUPCAMGLocalP *P)
{
  PetscInt *cidx;

  PetscFunctionBegin;
  PetscCheck(tmax >= 0 && tfac >= 0.0 && tfac < 1.0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "truncation: max entries %" PetscInt_FMT " must be >= 0 and the factor %g in [0, 1) (-pc_gpuamg_trunc_max, -pc_gpuamg_trunc_factor)", tmax, (double)tfac);
  PetscCall(PetscMemzero(P, sizeof(*P)));
  P->n = L->n;
  PetscCall(PetscMalloc1(L->n, &cidx));
  PetscCall(CoarseNumbers(L->n, cf, threads, cidx, &P->nc));
  if (type == PC_GPUAMG_INTERP_MULTIPASS) PetscCall(InterpMultipass(L, S, cf, cidx, tmax, tfac, rescale, P));
  else PetscCall(InterpThreaded(L, S, cf, cidx, type, tmax, tfac, rescale, threads, P));
  PetscCall(PetscFree(cidx));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGInterpolateAcross - the interpolation of the owned rows from C points on any rank

   Collective on the local part's PetscSF

   Input Parameters:
+  L       - the local part with ghosts (GPUPCAMGLocalGetGhost())
.  S       - its strength graph (rows of the owned points and of the garray ghosts)
.  cf      - the states of all L->nx points (GPUPCAMGCoarsenAcross())
.  type    - direct, standard, ext+i or simple (multipass is rank-local)
.  tmax, tfac, rescale - truncation, as in GPUPCAMGInterpolate()
-  threads - host threads

   Output Parameter:
.  P - n x nc (nc: the owned C points) with global coarse column numbers (P->global): the owned C points in order,
       after the C points of the ranks before; the ghosts' numbers come from their owners

   Notes:
   The rows are those of GPUPCAMGInterpolate() on the whole row (nothing lumped): ext+i and standard reach the C points
   of the ghosts' rows. On one rank P equals GPUPCAMGInterpolate()'s.

   Level: developer

.seealso: GPUPCAMGCoarsenAcross(), GPUPCAMGLocalPToMat()
@*/
PetscErrorCode GPUPCAMGInterpolateAcross(const GPUPCAMGLocal *L, const GPUPCAMGStrength *S, const PetscInt *cf, PCGPUAMGInterpType type, PetscInt tmax, PetscReal tfac, PCGPUAMGTruncRescale rescale, PetscInt threads, GPUPCAMGLocalP *P)
{
  PetscInt *cidx, cstart = 0;

  PetscFunctionBegin;
  PetscCheck(L->sf && (L->gidx || L->nx == 0), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "the interpolation across ranks needs the local part with ghosts (GPUPCAMGLocalGetGhost())");
  PetscCheck(type != PC_GPUAMG_INTERP_MULTIPASS, PETSC_COMM_SELF, PETSC_ERR_SUP, "multipass interpolation is rank-local (it is built pass by pass on the local rows)");
  PetscCheck(tmax >= 0 && tfac >= 0.0 && tfac < 1.0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "truncation: max entries %" PetscInt_FMT " must be >= 0 and the factor %g in [0, 1) (-pc_gpuamg_trunc_max, -pc_gpuamg_trunc_factor)", tmax, (double)tfac);
  PetscCall(PetscMemzero(P, sizeof(*P)));
  P->n      = L->n;
  P->global = PETSC_TRUE;
  PetscCall(PetscMalloc1(L->nx, &cidx));
  PetscCall(CoarseNumbers(L->n, cf, threads, cidx, &P->nc));
  PetscCallMPI(MPI_Scan(&P->nc, &cstart, 1, MPIU_INT, MPI_SUM, PetscObjectComm((PetscObject)L->sf)));
  cstart -= P->nc;
  for (PetscInt i = 0; i < L->n; i++)
    if (cidx[i] >= 0) cidx[i] += cstart;
  PetscCall(PetscSFBcastBegin(L->sf, MPIU_INT, cidx, cidx + L->n, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(L->sf, MPIU_INT, cidx, cidx + L->n, MPI_REPLACE));
  PetscCall(InterpThreaded(L, S, cf, cidx, type, tmax, tfac, rescale, threads, P));
  PetscCall(PetscFree(cidx));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGLocalPTruncate - truncation of every row of a local P (keeps the row sums, rescaled as rescale says)

   Not Collective

   Level: developer

.seealso: GPUPCAMGInterpolate()
@*/
PetscErrorCode GPUPCAMGLocalPTruncate(GPUPCAMGLocalP *P, PetscInt tmax, PetscReal tfac, PCGPUAMGTruncRescale rescale)
{
  PetscInt k = 0, s = 0;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < P->n; i++) {
    PetscInt e = P->i[i + 1], len = e - s;
    len     = GPUPCAMGTruncRow(len, P->j + s, P->a + s, tmax, tfac, rescale);
    P->i[i] = k;
    for (PetscInt q = 0; q < len; q++) {
      P->j[k]   = P->j[s + q];
      P->a[k++] = P->a[s + q];
    }
    s = e;
  }
  P->i[P->n] = k;
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGLocalPFree - frees a local P

   Not Collective

   Level: developer

.seealso: GPUPCAMGInterpolate()
@*/
PetscErrorCode GPUPCAMGLocalPFree(GPUPCAMGLocalP *P)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(P->i));
  PetscCall(PetscFree2(P->j, P->a));
  P->n = P->nc = 0;
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGLocalPToMat - the AIJ matrix of a local P

   Collective

   Input Parameters:
+  comm - the level's communicator
.  P    - local rows; columns are local coarse points (global coarse numbers where P->global)
.  rbs  - row block size
.  cbs  - column block size
-  threads - host threads (one rank: rows sorted in parallel)

   Output Parameter:
.  Pm - SEQAIJ on one rank, MPIAIJ on several (local rows n, local columns nc; entries only in the diagonal block
         unless P->global)

   Level: developer

.seealso: GPUPCAMGInterpolate()
@*/
PetscErrorCode GPUPCAMGLocalPToMat(MPI_Comm comm, const GPUPCAMGLocalP *P, PetscInt rbs, PetscInt cbs, PetscInt threads, Mat *Pm)
{
  PetscInt   *nnz, *onz, *cols, rstart, cstart = 0, nc = P->nc, maxlen = 0;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCall(GPUPCAMGRegisterSetupEvents());
  PetscCall(PetscLogEventBegin(GPUPCAMG_PMat, 0, 0, 0, 0));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (size == 1) { /* the arrays themselves, each row sorted */
    PetscInt    *pi, *pj;
    PetscScalar *pa;

    PetscCall(PetscMalloc1(P->n + 1, &pi));
    PetscCall(PetscMalloc1(P->i[P->n], &pj));
    PetscCall(PetscMalloc1(P->i[P->n], &pa));
    pi[0] = P->i[0];
#if defined(PETSC_USE_COMPLEX)
    {
      PetscReal *rv;
      PetscCall(PetscMalloc1(P->i[P->n], &rv));
#pragma omp parallel for num_threads(PetscMax(threads, 1)) schedule(static)
      for (PetscInt i = 0; i < P->n; i++) {
        pi[i + 1] = P->i[i + 1];
        for (PetscInt e = P->i[i]; e < P->i[i + 1]; e++) {
          pj[e] = P->j[e];
          rv[e] = P->a[e];
        }
        GPUPCAMGSortPairs(P->i[i + 1] - P->i[i], pj + P->i[i], rv + P->i[i]);
        for (PetscInt e = P->i[i]; e < P->i[i + 1]; e++) pa[e] = rv[e];
      }
      PetscCall(PetscFree(rv));
    }
#else /* the values sorted in place: PetscScalar is PetscReal */
#pragma omp parallel for num_threads(PetscMax(threads, 1)) schedule(static)
    for (PetscInt i = 0; i < P->n; i++) {
      pi[i + 1] = P->i[i + 1];
      for (PetscInt e = P->i[i]; e < P->i[i + 1]; e++) {
        pj[e] = P->j[e];
        pa[e] = P->a[e];
      }
      GPUPCAMGSortPairs(P->i[i + 1] - P->i[i], pj + P->i[i], pa + P->i[i]);
    }
#endif
    PetscCall(GPUPCAMGMatOnArrays(P->n, nc, pi, pj, pa, Pm));
    PetscCall(MatSetBlockSizes(*Pm, rbs, cbs));
    PetscCall(PetscLogEventEnd(GPUPCAMG_PMat, 0, 0, 0, 0));
    PetscFunctionReturn(0);
  }
  PetscCallMPI(MPI_Scan(&nc, &cstart, 1, MPIU_INT, MPI_SUM, comm));
  cstart -= nc;
  PetscCall(PetscMalloc2(P->n, &nnz, P->n, &onz));
  for (PetscInt i = 0; i < P->n; i++) { /* global columns: those of other ranks' coarse points go to the off-diagonal block */
    nnz[i] = onz[i] = 0;
    for (PetscInt e = P->i[i]; e < P->i[i + 1]; e++) {
      if (!P->global || (P->j[e] >= cstart && P->j[e] < cstart + nc)) nnz[i]++;
      else onz[i]++;
    }
    maxlen = PetscMax(maxlen, nnz[i] + onz[i]);
  }
  PetscCall(PetscMalloc1(maxlen, &cols));
  PetscCall(MatCreate(comm, Pm));
  PetscCall(MatSetSizes(*Pm, P->n, nc, PETSC_DETERMINE, PETSC_DETERMINE));
  PetscCall(MatSetBlockSizes(*Pm, rbs, cbs));
  PetscCall(MatSetType(*Pm, MATAIJ));
  PetscCall(MatSeqAIJSetPreallocation(*Pm, 0, nnz));
  PetscCall(MatMPIAIJSetPreallocation(*Pm, 0, nnz, 0, onz));
  PetscCall(MatGetOwnershipRange(*Pm, &rstart, NULL));
  for (PetscInt i = 0; i < P->n; i++) {
    PetscInt row = rstart + i, len = P->i[i + 1] - P->i[i];
    for (PetscInt q = 0; q < len; q++) cols[q] = P->j[P->i[i] + q] + (P->global ? 0 : cstart);
    PetscCall(MatSetValues(*Pm, 1, &row, len, cols, P->a + P->i[i], INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*Pm, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*Pm, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree(cols));
  PetscCall(PetscFree2(nnz, onz));
  PetscCall(PetscLogEventEnd(GPUPCAMG_PMat, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

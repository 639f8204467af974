/*
   C/F splittings of classical PC gpuamg (gpupc/amgsetup.h), on the strength graph of the local rows.

   pmis: De Sterck, Yang and Heys' parallel modified independent set. Measure |S^T_i| + a random number in [0,1)
     (a hash of the global row); every sweep makes the undecided points whose measure is larger than that of every
     undecided neighbour (in S and S^T) C points, then the undecided points that depend on a C point F points. A
     point with no strong connection at all is an F point without interpolation (a row the smoother solves), unless
     it is strongly coupled to other ranks' points only: then it is a C point (every method). A point that
     depends on points but influences none (measure below 1) is an F point from the start, as in the PMIS paper and
     BoomerAMG: it would otherwise become a C point once its neighbours are decided, and no point would interpolate
     from it (randcoef3d 125k: grid complexity 1.606 -> 1.535, BoomerAMG 1.529, same CG iterations).
     Promise: every F point that depends on some point depends on a C point, or influences no point and depends
     only on F points that depend on C points (ext+i and standard interpolation reach those at distance two).
   hmis: the first pass of Ruge-Stueben on the local rows (the hybrid's PMIS stage only acts across ranks: see
     amgsetupcoarsenacross.c; here the ranks are coarsened on their own rows), same promise.
   rs: Ruge-Stueben's first pass (largest measure first; measures updated as points become C and F) and second
     pass (an F point i with a strong F neighbour j that shares no strong C point with i makes j a C point, or i when
     that happens twice). Promise: every strong F-F pair shares a strong C point.
   cljp: Cleary-Luby-Jones-Plassmann: independent sets of local maxima of |S^T_i| + random, with the weight updates
     that remove the edges a new C point satisfies; points whose weight falls below 1 become F.
   Aggressive coarsening coarsens the C points again on the distance-two graph (c -> d when d is strong for c or
   for a strong F neighbour of c).
   The sweeps of pmis are threaded over rows and depend only on the previous sweep, so the splitting does not depend
   on the thread count; the other methods are sequential.
*/
#include <gpupc/amgsetup.h>

static PetscBool Beats(const PetscReal *w, PetscInt j, PetscInt i)
{
  return (PetscBool)(w[j] > w[i] || (w[j] == w[i] && j > i));
}

/*@C
   GPUPCAMGPMISMarkF - the closing step of a PMIS sweep (on one rank and across ranks): every undecided point among
   the first n rows of S that depends strongly on a C point becomes an F point; counts the points left undecided

   Not Collective

   Input Parameters:
+  S       - strength graph (rows: at least the n points; columns: indices into cf)
.  n       - the points to mark (the owned ones; cf may hold ghost states after them)
.  threads - host threads (the marks are made for every point first, then applied, so the result does not depend
             on the thread count)
-  newc    - work array of n entries

   Input/Output Parameter:
.  cf - the states (GPUPC_AMG_U, GPUPC_AMG_C, GPUPC_AMG_F) of the points and of the columns of S

   Output Parameter:
.  left - the points among the n still GPUPC_AMG_U

   Level: developer

.seealso: GPUPCAMGCoarsen(), GPUPCAMGCoarsenAcross()
@*/
PetscErrorCode GPUPCAMGPMISMarkF(const GPUPCAMGStrength *S, PetscInt n, PetscInt threads, char *newc, PetscInt *cf, PetscInt *left)
{
  PetscInt undecided = 0;

  PetscFunctionBegin;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (PetscInt i = 0; i < n; i++) {
    newc[i] = 0;
    if (cf[i] != GPUPC_AMG_U) continue;
    for (PetscInt e = S->i[i]; e < S->i[i + 1]; e++)
      if (cf[S->j[e]] == GPUPC_AMG_C) newc[i] = 1;
  }
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ \
                                                                         : undecided)
  for (PetscInt i = 0; i < n; i++) {
    if (newc[i]) cf[i] = GPUPC_AMG_F;
    if (cf[i] == GPUPC_AMG_U) undecided++;
  }
  *left = undecided;
  PetscFunctionReturn(0);
}

static PetscErrorCode CoarsenPMIS(const GPUPCAMGStrength *S, PetscInt rstart, PetscInt threads, PetscInt *cf)
{
  PetscInt   n = S->n, left = 0;
  PetscReal *w;
  char      *newc;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(n, &w, n, &newc));
  if (n < 16384) threads = 1; /* a small level: the sweeps' forks and joins would cost more than they save */
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ \
                                                                         : left)
  for (PetscInt i = 0; i < n; i++) {
    PetscInt ns = S->i[i + 1] - S->i[i], nt = S->ti[i + 1] - S->ti[i];
    w[i]  = (PetscReal)nt + GPUPCAMGRandom(rstart + i);
    cf[i] = (ns == 0 && nt == 0) ? (S->ext && S->ext[i] ? GPUPC_AMG_C : GPUPC_AMG_F) : GPUPC_AMG_U;
    if (cf[i] == GPUPC_AMG_U && nt == 0) cf[i] = GPUPC_AMG_F; /* influences no point: F, as BoomerAMG's PMIS does */
    if (cf[i] == GPUPC_AMG_U) left++;
  }
  while (left > 0) {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (PetscInt i = 0; i < n; i++) {
      PetscBool max = PETSC_TRUE;
      newc[i]       = 0;
      if (cf[i] != GPUPC_AMG_U) continue;
      for (PetscInt e = S->i[i]; e < S->i[i + 1] && max; e++)
        if (cf[S->j[e]] == GPUPC_AMG_U && Beats(w, S->j[e], i)) max = PETSC_FALSE;
      for (PetscInt e = S->ti[i]; e < S->ti[i + 1] && max; e++)
        if (cf[S->tj[e]] == GPUPC_AMG_U && Beats(w, S->tj[e], i)) max = PETSC_FALSE;
      newc[i] = (char)max;
    }
#pragma omp parallel for num_threads(threads) schedule(static)
    for (PetscInt i = 0; i < n; i++)
      if (newc[i]) cf[i] = GPUPC_AMG_C;
    PetscCall(GPUPCAMGPMISMarkF(S, n, threads, newc, cf, &left));
  }
  PetscCall(PetscFree2(w, newc));
  PetscFunctionReturn(0);
}

/* a max-heap of (measure, point) with lazy deletion: stale entries are skipped when popped */
typedef struct {
  PetscInt  size, cap;
  PetscInt *key, *pt;
} Heap;

static PetscBool HeapAbove(const Heap *h, PetscInt a, PetscInt b)
{
  return (PetscBool)(h->key[a] > h->key[b] || (h->key[a] == h->key[b] && h->pt[a] < h->pt[b]));
}

static void HeapSwap(Heap *h, PetscInt a, PetscInt b)
{
  PetscInt k = h->key[a], p = h->pt[a];
  h->key[a] = h->key[b];
  h->pt[a]  = h->pt[b];
  h->key[b] = k;
  h->pt[b]  = p;
}

static PetscErrorCode HeapPush(Heap *h, PetscInt key, PetscInt pt)
{
  PetscInt c;

  PetscFunctionBegin;
  if (h->size == h->cap) {
    PetscInt cap = 2 * h->cap + 16;
    PetscCall(PetscRealloc(sizeof(PetscInt) * cap, &h->key));
    PetscCall(PetscRealloc(sizeof(PetscInt) * cap, &h->pt));
    h->cap = cap;
  }
  c         = h->size++;
  h->key[c] = key;
  h->pt[c]  = pt;
  while (c > 0 && HeapAbove(h, c, (c - 1) / 2)) {
    HeapSwap(h, c, (c - 1) / 2);
    c = (c - 1) / 2;
  }
  PetscFunctionReturn(0);
}

static void HeapPop(Heap *h, PetscInt *key, PetscInt *pt)
{
  PetscInt c = 0;

  *key = h->key[0];
  *pt  = h->pt[0];
  h->size--;
  h->key[0] = h->key[h->size];
  h->pt[0]  = h->pt[h->size];
  for (;;) {
    PetscInt l = 2 * c + 1, r = l + 1, b = c;
    if (l < h->size && HeapAbove(h, l, b)) b = l;
    if (r < h->size && HeapAbove(h, r, b)) b = r;
    if (b == c) break;
    HeapSwap(h, b, c);
    c = b;
  }
}

static PetscErrorCode CoarsenRSFirst(const GPUPCAMGStrength *S, PetscInt *cf)
{
  PetscInt n = S->n, *lambda;
  Heap     h = {0, 0, NULL, NULL};

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(n, &lambda));
  for (PetscInt i = 0; i < n; i++) {
    PetscInt ns = S->i[i + 1] - S->i[i], nt = S->ti[i + 1] - S->ti[i];
    lambda[i] = nt;
    cf[i]     = (ns == 0 && nt == 0) ? (S->ext && S->ext[i] ? GPUPC_AMG_C : GPUPC_AMG_F) : GPUPC_AMG_U;
    if (cf[i] == GPUPC_AMG_U) PetscCall(HeapPush(&h, lambda[i], i));
  }
  while (h.size > 0) {
    PetscInt key, i;
    HeapPop(&h, &key, &i);
    if (cf[i] != GPUPC_AMG_U || key != lambda[i]) continue;
    cf[i] = GPUPC_AMG_C;
    for (PetscInt e = S->ti[i]; e < S->ti[i + 1]; e++) { /* points that depend on i become F */
      PetscInt j = S->tj[e];
      if (cf[j] != GPUPC_AMG_U) continue;
      cf[j] = GPUPC_AMG_F;
      for (PetscInt f = S->i[j]; f < S->i[j + 1]; f++) { /* what j depends on is more valuable as a C point */
        PetscInt k = S->j[f];
        if (cf[k] != GPUPC_AMG_U) continue;
        lambda[k]++;
        PetscCall(HeapPush(&h, lambda[k], k));
      }
    }
    for (PetscInt e = S->i[i]; e < S->i[i + 1]; e++) { /* what i depends on is less valuable */
      PetscInt k = S->j[e];
      if (cf[k] != GPUPC_AMG_U) continue;
      lambda[k]--;
      PetscCall(HeapPush(&h, lambda[k], k));
    }
  }
  PetscCall(PetscFree(h.key));
  PetscCall(PetscFree(h.pt));
  PetscCall(PetscFree(lambda));
  PetscFunctionReturn(0);
}

static PetscErrorCode CoarsenRSSecond(const GPUPCAMGStrength *S, PetscInt *cf)
{
  PetscInt n = S->n, *mark;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(n, &mark));
  for (PetscInt i = 0; i < n; i++) mark[i] = -1;
  for (PetscInt i = 0; i < n; i++) {
    PetscInt tent = -1;
    if (cf[i] != GPUPC_AMG_F) continue;
    for (PetscInt e = S->i[i]; e < S->i[i + 1]; e++)
      if (cf[S->j[e]] == GPUPC_AMG_C) mark[S->j[e]] = i;
    for (PetscInt e = S->i[i]; e < S->i[i + 1]; e++) {
      PetscInt  j     = S->j[e];
      PetscBool found = PETSC_FALSE;
      if (cf[j] != GPUPC_AMG_F) continue;
      for (PetscInt f = S->i[j]; f < S->i[j + 1] && !found; f++)
        if (mark[S->j[f]] == i) found = PETSC_TRUE;
      if (found) continue;
      if (tent >= 0) { /* a second violation: i itself becomes C, the tentative point goes back to F */
        cf[i]      = GPUPC_AMG_C;
        cf[tent]   = GPUPC_AMG_F;
        mark[tent] = -1;
        break;
      }
      tent    = j;
      cf[j]   = GPUPC_AMG_C;
      mark[j] = i;
    }
  }
  PetscCall(PetscFree(mark));
  PetscFunctionReturn(0);
}

static PetscErrorCode CoarsenCLJP(const GPUPCAMGStrength *S, PetscInt rstart, PetscInt *cf)
{
  PetscInt   n = S->n, left = 0, *edge, *mark, *dset, nd;
  PetscReal *w;
  char      *alive; /* per edge of S: still to be satisfied */

  PetscFunctionBegin;
  PetscCall(PetscMalloc5(n, &w, S->i[n], &alive, S->ti[n], &edge, n, &mark, n, &dset));
  /* edge[t] for the t-th entry of S^T (j depends on i): its position in S */
  {
    PetscInt *fill;
    PetscCall(PetscMalloc1(n, &fill));
    for (PetscInt i = 0; i < n; i++) fill[i] = S->ti[i];
    for (PetscInt r = 0; r < n; r++)
      for (PetscInt e = S->i[r]; e < S->i[r + 1]; e++) edge[fill[S->j[e]]++] = e;
    PetscCall(PetscFree(fill));
  }
  for (PetscInt e = 0; e < S->i[n]; e++) alive[e] = 1;
  for (PetscInt i = 0; i < n; i++) {
    PetscInt ns = S->i[i + 1] - S->i[i], nt = S->ti[i + 1] - S->ti[i];
    w[i]    = (PetscReal)nt + GPUPCAMGRandom(rstart + i);
    cf[i]   = (ns == 0 && nt == 0) ? (S->ext && S->ext[i] ? GPUPC_AMG_C : GPUPC_AMG_F) : GPUPC_AMG_U;
    mark[i] = -1;
    if (cf[i] == GPUPC_AMG_U) left++;
  }
  while (left > 0) {
    nd = 0;
    for (PetscInt i = 0; i < n; i++) {
      PetscBool max = PETSC_TRUE;
      if (cf[i] != GPUPC_AMG_U) continue;
      for (PetscInt e = S->i[i]; e < S->i[i + 1] && max; e++)
        if (alive[e] && cf[S->j[e]] == GPUPC_AMG_U && Beats(w, S->j[e], i)) max = PETSC_FALSE;
      for (PetscInt t = S->ti[i]; t < S->ti[i + 1] && max; t++)
        if (alive[edge[t]] && cf[S->tj[t]] == GPUPC_AMG_U && Beats(w, S->tj[t], i)) max = PETSC_FALSE;
      if (max) dset[nd++] = i;
    }
    for (PetscInt q = 0; q < nd; q++) cf[dset[q]] = GPUPC_AMG_C;
    for (PetscInt q = 0; q < nd; q++) {
      PetscInt c = dset[q];
      /* what c depends on is less needed as a C point */
      for (PetscInt e = S->i[c]; e < S->i[c + 1]; e++)
        if (alive[e]) {
          alive[e] = 0;
          w[S->j[e]] -= 1.0;
        }
      /* k depends on c: mark */
      for (PetscInt t = S->ti[c]; t < S->ti[c + 1]; t++)
        if (alive[edge[t]]) mark[S->tj[t]] = c;
      /* j depends on c: that dependence is satisfied; if j also depends on k and k depends on c, k is less needed */
      for (PetscInt t = S->ti[c]; t < S->ti[c + 1]; t++) {
        PetscInt j = S->tj[t];
        if (!alive[edge[t]]) continue;
        alive[edge[t]] = 0;
        for (PetscInt e = S->i[j]; e < S->i[j + 1]; e++) {
          PetscInt k = S->j[e];
          if (alive[e] && mark[k] == c && cf[k] != GPUPC_AMG_C) {
            alive[e] = 0;
            w[k] -= 1.0;
          }
        }
      }
      for (PetscInt t = S->ti[c]; t < S->ti[c + 1]; t++) mark[S->tj[t]] = -1;
    }
    left = 0;
    for (PetscInt i = 0; i < n; i++) {
      if (cf[i] == GPUPC_AMG_U && w[i] < 1.0) cf[i] = GPUPC_AMG_F;
      if (cf[i] == GPUPC_AMG_U) left++;
    }
  }
  PetscCall(PetscFree5(w, alive, edge, mark, dset));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGCoarsen - C/F splitting of the local rows

   Not Collective

   Input Parameters:
+  S       - strength graph with its transpose
.  type    - pmis, hmis, rs or cljp
.  rstart  - global number of local point 0 (seeds the random part of the measures)
-  threads - host threads (pmis)

   Output Parameter:
.  cf - GPUPC_AMG_C or GPUPC_AMG_F per point

   Level: developer

.seealso: GPUPCAMGStrengthClassical(), GPUPCAMGInterpolate()
@*/
PetscErrorCode GPUPCAMGCoarsen(const GPUPCAMGStrength *S, PCGPUAMGCoarsenType type, PetscInt rstart, PetscInt threads, PetscInt *cf)
{
  PetscFunctionBegin;
  switch (type) {
  case PC_GPUAMG_COARSEN_PMIS:
    PetscCall(CoarsenPMIS(S, rstart, threads, cf));
    break;
  case PC_GPUAMG_COARSEN_HMIS:
    PetscCall(CoarsenRSFirst(S, cf));
    break;
  case PC_GPUAMG_COARSEN_RS:
    PetscCall(CoarsenRSFirst(S, cf));
    PetscCall(CoarsenRSSecond(S, cf));
    break;
  case PC_GPUAMG_COARSEN_CLJP:
    PetscCall(CoarsenCLJP(S, rstart, cf));
    break;
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "unknown coarsening %d", (int)type);
  }
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGCoarsenAggressive - second stage of aggressive coarsening: the C points of cf are coarsened again on the
   distance-two strength graph; those that become F are F points of the result

   Not Collective

   Input Parameters:
+  S       - strength graph with its transpose
.  type    - the coarsening of the second stage
.  rstart  - seed of the random measures
.  threads - host threads
-  cf      - the first stage's splitting; overwritten

   Level: developer

.seealso: GPUPCAMGCoarsen()
@*/
PetscErrorCode GPUPCAMGCoarsenAggressive(const GPUPCAMGStrength *S, PCGPUAMGCoarsenType type, PetscInt rstart, PetscInt threads, PetscInt *cf)
{
  PetscInt         n = S->n, nc = 0, *cidx, *cpts, *mark, *cf2, cnt = 0;
  GPUPCAMGStrength S2;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(n, &cidx, n, &cpts, n, &mark));
  for (PetscInt i = 0; i < n; i++) {
    mark[i] = -1;
    cidx[i] = -1;
    if (cf[i] == GPUPC_AMG_C) {
      cidx[i]    = nc;
      cpts[nc++] = i;
    }
  }
  PetscCall(PetscMemzero(&S2, sizeof(S2)));
  S2.n = nc;
  PetscCall(PetscMalloc1(nc + 1, &S2.i));
  S2.i[0] = 0;
  for (PetscInt pass = 0; pass < 2; pass++) {
    if (pass == 1) {
      PetscCall(PetscMalloc1(cnt, &S2.j));
      for (PetscInt i = 0; i < n; i++) mark[i] = -1;
    }
    cnt = 0;
    for (PetscInt q = 0; q < nc; q++) {
      PetscInt c = cpts[q];
      mark[c]    = q;
      for (PetscInt e = S->i[c]; e < S->i[c + 1]; e++) {
        PetscInt k = S->j[e];
        if (cf[k] == GPUPC_AMG_C) {
          if (mark[k] != q) {
            mark[k] = q;
            if (pass) S2.j[cnt] = cidx[k];
            cnt++;
          }
        } else {
          for (PetscInt f = S->i[k]; f < S->i[k + 1]; f++) {
            PetscInt d = S->j[f];
            if (cf[d] == GPUPC_AMG_C && mark[d] != q) {
              mark[d] = q;
              if (pass) S2.j[cnt] = cidx[d];
              cnt++;
            }
          }
        }
      }
      S2.i[q + 1] = cnt;
    }
  }
  PetscCall(GPUPCAMGStrengthTranspose(&S2, threads));
  PetscCall(PetscMalloc1(nc, &cf2));
  PetscCall(GPUPCAMGCoarsen(&S2, type, rstart, threads, cf2));
  for (PetscInt q = 0; q < nc; q++) /* a C point without C points within distance two stays */
    if (cf2[q] != GPUPC_AMG_C && (S2.i[q + 1] > S2.i[q] || S2.ti[q + 1] > S2.ti[q])) cf[cpts[q]] = GPUPC_AMG_F;
  PetscCall(PetscFree(cf2));
  PetscCall(GPUPCAMGStrengthFree(&S2));
  PetscCall(PetscFree3(cidx, cpts, mark));
  PetscFunctionReturn(0);
}

/*
   CMG clustering of one level (docs/algorithms.md 2.2, steps 1-4), written from the description:
     1. heaviest-neighbour forest p(v) (ties: smallest index; the 2-cycles become roots),
     2. weak vertices (forest weight touching v below vol(v)/8; a 2-cycle is one edge) become roots,
     3. the trees are cut bottom-up so that every cluster is a subtree of height at most
        CMG_MAX_HEIGHT below its top vertex (diameter <= 2 * CMG_MAX_HEIGHT = 6 hops);
        a tree top left with at most 2 vertices joins its heaviest cut-off child cluster
        (diameter stays <= 6), so no cluster is a lone edge left over at the top of a path,
     4. clusters = the connected components of the cut forest, numbered by first vertex.
   Every pass runs in the setup threads (tree heights by climbing from the leaves, atomics only on counters and
   maxima), and the clusters are the same for any thread count.
*/
#include <gpupc/cmg.h>

#define CMG_MAX_HEIGHT 3

/* diagonal and heaviest neighbour of every vertex (the one pass over the level's entries: split over the threads) */
static void HeaviestNeighbor(const GPUPCCMGLevel *L, PetscInt nt, PetscInt *p, PetscReal *wmax, PetscReal *vol)
{
#pragma omp parallel for num_threads(nt) schedule(static)
  for (PetscInt v = 0; v < L->n; v++) {
    PetscReal best = 0.0, d = 0.0;
    PetscInt  at = v;
    for (PetscInt k = L->rowptr[v]; k < L->rowptr[v + 1]; k++) {
      PetscInt  u = L->col[k];
      PetscReal w = -L->val[k];
      if (u == v) {
        d = L->val[k];
        continue;
      }
      if (w > best) { /* columns ascend, so a tie keeps the smallest index */
        best = w;
        at   = u;
      }
    }
    p[v]    = at;
    wmax[v] = best;
    vol[v]  = d;
  }
}

/* break every cycle of p at its smallest vertex, so that p is a forest with roots p(r) = r (one thread; general: the
   heaviest-neighbour graph of an exactly symmetric level has only 2-cycles, which CutTwoCycles breaks in the threads,
   but a level whose a_ij and a_ji differ in the last bits may point round a longer cycle) */
PetscErrorCode GPUPCCMGMakeForest(PetscInt n, PetscInt *p)
{
  PetscInt *state, *path;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(n, &state)); /* 0 new, 1 on the current walk, 2 done */
  PetscCall(PetscMalloc1(n, &path));
  for (PetscInt s = 0; s < n; s++) {
    PetscInt len = 0, v = s;
    if (state[s]) continue;
    while (!state[v]) {
      state[v]    = 1;
      path[len++] = v;
      v           = p[v];
    }
    if (state[v] == 1) { /* closed a cycle through v: cut it at its smallest vertex */
      PetscInt m = v, u = p[v];
      while (u != v) {
        m = PetscMin(m, u);
        u = p[u];
      }
      p[m] = m;
    }
    for (PetscInt k = 0; k < len; k++) state[path[k]] = 2;
  }
  PetscCall(PetscFree(state));
  PetscCall(PetscFree(path));
  PetscFunctionReturn(0);
}

/* weak vertices become roots: t(v), the weight of the forest edges touching v (its own edge, once for a 2-cycle, and
   those of the vertices pointing to it, found in v's row: the level's pattern is symmetric), below vol(v) / 8 */
static void WeakVertices(const GPUPCCMGLevel *L, PetscInt nt, const PetscReal *wmax, const PetscReal *vol, PetscInt *p, PetscReal *t, PetscInt *nweak)
{
  PetscInt cnt = 0;

#pragma omp parallel for num_threads(nt) schedule(static)
  for (PetscInt v = 0; v < L->n; v++) {
    PetscReal s = p[v] != v ? wmax[v] : 0.0;
    for (PetscInt k = L->rowptr[v]; k < L->rowptr[v + 1]; k++) {
      const PetscInt u = L->col[k];
      if (u != v && p[u] == v && p[v] != u) s += wmax[u];
    }
    t[v] = s;
  }
/* clang-format 14 breaks the reduction clauses of OpenMP pragmas over lines */
/* clang-format off */
#pragma omp parallel for num_threads(nt) schedule(static) reduction(+ : cnt)
  /* clang-format on */
  for (PetscInt v = 0; v < L->n; v++)
    if (p[v] != v && t[v] < vol[v] / 8) {
      p[v] = v;
      cnt++;
    }
  *nweak = cnt;
}

/* every 2-cycle u <-> v of p is cut at its smaller vertex (which becomes a root) */
static void CutTwoCycles(PetscInt n, PetscInt nt, PetscInt *p, PetscBool *cut)
{
#pragma omp parallel for num_threads(nt) schedule(static)
  for (PetscInt v = 0; v < n; v++) cut[v] = (PetscBool)(p[v] != v && p[p[v]] == v && v < p[v]);
#pragma omp parallel for num_threads(nt) schedule(static)
  for (PetscInt v = 0; v < n; v++)
    if (cut[v]) p[v] = v;
}

static void AtomicMax(PetscInt *a, PetscInt v)
{
  PetscInt o = __atomic_load_n(a, __ATOMIC_RELAXED);
  while (o < v && !__atomic_compare_exchange_n(a, &o, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
}

static void AtomicMin(PetscInt *a, PetscInt v)
{
  PetscInt o = __atomic_load_n(a, __ATOMIC_RELAXED);
  while (o > v && !__atomic_compare_exchange_n(a, &o, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
}

/* Heights of the cut forest, bottom-up: h(v) = max over the children d of v that do not top a cluster of h(d) + 1
   (0 for a leaf); a non-root v tops a cluster when h(v) reaches CMG_MAX_HEIGHT. The threads start at the leaves and
   climb: the child that finishes last (pending[u], the children of u not yet finished, reaches 0) goes on with its
   parent, so a vertex is finished after all its children, with no traversal order and no rounds. *done: vertices
   finished; fewer than n when p still has a cycle (no leaf below it). leaf and pending: scratch of n. */
static void Heights(PetscInt n, PetscInt nt, const PetscInt *p, PetscInt *h, PetscInt *pending, PetscBool *leaf, PetscInt *done)
{
  PetscInt cnt = 0;

#pragma omp parallel for num_threads(nt) schedule(static)
  for (PetscInt v = 0; v < n; v++) {
    h[v]       = 0;
    pending[v] = 0;
  }
#pragma omp parallel for num_threads(nt) schedule(static)
  for (PetscInt v = 0; v < n; v++)
    if (p[v] != v) __atomic_fetch_add(&pending[p[v]], 1, __ATOMIC_RELAXED);
#pragma omp parallel for num_threads(nt) schedule(static)
  for (PetscInt v = 0; v < n; v++) leaf[v] = (PetscBool)(pending[v] == 0);
/* clang-format 14 breaks the reduction clauses of OpenMP pragmas over lines */
/* clang-format off */
#pragma omp parallel for num_threads(nt) schedule(dynamic, 4096) reduction(+ : cnt)
  /* clang-format on */
  for (PetscInt s = 0; s < n; s++) {
    PetscInt v = s;
    if (!leaf[s]) continue;
    for (;;) {
      const PetscInt u = p[v], hv = __atomic_load_n(&h[v], __ATOMIC_RELAXED);
      cnt++;
      if (u == v) break;
      if (hv < CMG_MAX_HEIGHT) AtomicMax(&h[u], hv + 1);
      if (__atomic_sub_fetch(&pending[u], 1, __ATOMIC_ACQ_REL) != 0) break; /* acquire: the last child sees every h(d) + 1 */
      v = u;
    }
  }
  *done = cnt;
}

/*@C
   GPUPCCMGCluster - clusters one CMG level: fills L->nc, L->cluster, and the statistics nweak, nsingletons, maxsize

   Not Collective

   Input Parameters:
+  L       - the level (a Laplacian in CSR)
-  threads - setup threads (every pass is split over them; the clusters do not depend on their count)

   Notes:
   Every cluster is connected through edges of the level's graph and, measured in forest hops, has
   diameter at most 6.

   Level: developer

.seealso: GPUPCCMGGalerkin(), GPUPCCMGHierarchyBuild()
@*/
PetscErrorCode GPUPCCMGCluster(GPUPCCMGLevel *L, PetscInt threads)
{
  const PetscInt n = L->n, nt = PetscMax(threads, 1);
  PetscInt      *p, *h, *pending, *top, *first, *id, nweak = 0, done, nc, nsingle = 0, maxsize = 0;
  PetscReal     *wmax, *vol;
  PetscBool     *flag;
  int            anyweak = 0;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PC_CMG_Cluster, 0, 0, 0, 0));
  PetscCall(PetscMalloc3(n, &p, n, &wmax, n, &vol));
  PetscCall(PetscMalloc5(n, &h, n, &pending, n, &top, n, &first, n, &id));
  PetscCall(PetscMalloc1(n, &flag));
  HeaviestNeighbor(L, nt, p, wmax, vol);
/* clang-format 14 breaks the reduction clauses of OpenMP pragmas over lines */
/* clang-format off */
#pragma omp parallel for num_threads(nt) schedule(static) reduction(|| : anyweak)
  /* clang-format on */
  for (PetscInt v = 0; v < n; v++)
    if (wmax[v] < vol[v] / 8) anyweak = 1;
  if (anyweak) {
    PetscReal *t;
    PetscCall(PetscMalloc1(n, &t));
    WeakVertices(L, nt, wmax, vol, p, t, &nweak);
    PetscCall(PetscFree(t));
  }
  CutTwoCycles(n, nt, p, flag);
  Heights(n, nt, p, h, pending, flag, &done);
  if (done < n) { /* a longer cycle: cut it on one thread and climb again */
    PetscCall(GPUPCCMGMakeForest(n, p));
    Heights(n, nt, p, h, pending, flag, &done);
  }
  PetscCheck(done == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "CMG clustering: the forest's heights reached %" PetscInt_FMT " of %" PetscInt_FMT " vertices", done, n);

  /* top[v]: the vertex that tops v's cluster (at most CMG_MAX_HEIGHT steps up: heights grow by one per step) */
#pragma omp parallel for num_threads(nt) schedule(static)
  for (PetscInt v = 0; v < n; v++) flag[v] = (PetscBool)(p[v] == v || h[v] >= CMG_MAX_HEIGHT);
#pragma omp parallel for num_threads(nt) schedule(static)
  for (PetscInt v = 0; v < n; v++) {
    PetscInt u = v;
    while (!flag[u]) u = p[u];
    top[v]     = u;
    pending[v] = 0; /* now: the size of the cluster topped by v */
  }
#pragma omp parallel for num_threads(nt) schedule(static)
  for (PetscInt v = 0; v < n; v++) __atomic_fetch_add(&pending[top[v]], 1, __ATOMIC_RELAXED);
    /* a tree top whose cluster holds at most 2 vertices joins its heaviest cut-off child cluster (ties: the smallest
     index; the children are found in the top's row) */
#pragma omp parallel for num_threads(nt) schedule(static)
  for (PetscInt v = 0; v < n; v++) {
    PetscInt  best = -1;
    PetscReal bw   = 0.0;
    h[v]           = -1; /* now: the cluster v's cluster joins, -1 none */
    if (p[v] != v || pending[v] > 2) continue;
    for (PetscInt k = L->rowptr[v]; k < L->rowptr[v + 1]; k++) {
      const PetscInt d = L->col[k];
      if (d != v && p[d] == v && flag[d] && (best < 0 || wmax[d] > bw)) {
        best = d;
        bw   = wmax[d];
      }
    }
    h[v] = best;
  }
  /* number the clusters by their first vertex: first[c] = the smallest vertex of the cluster topped by c */
#pragma omp parallel for num_threads(nt) schedule(static)
  for (PetscInt v = 0; v < n; v++) {
    if (h[top[v]] >= 0) top[v] = h[top[v]];
    first[v] = n;
  }
#pragma omp parallel for num_threads(nt) schedule(static)
  for (PetscInt v = 0; v < n; v++) AtomicMin(&first[top[v]], v);
#pragma omp parallel for num_threads(nt) schedule(static)
  for (PetscInt v = 0; v < n; v++) id[v] = first[top[v]] == v;
  GPUPCCMGExclusiveScan(n, nt, id, &nc);
  PetscCall(PetscMalloc1(n, &L->cluster));
  L->nc = nc;
#pragma omp parallel for num_threads(nt) schedule(static)
  for (PetscInt v = 0; v < n; v++) {
    L->cluster[v] = id[first[top[v]]];
    pending[v]    = 0;
  }
  /* statistics */
#pragma omp parallel for num_threads(nt) schedule(static)
  for (PetscInt v = 0; v < n; v++) __atomic_fetch_add(&pending[L->cluster[v]], 1, __ATOMIC_RELAXED);
/* clang-format 14 breaks the reduction clauses of OpenMP pragmas over lines */
/* clang-format off */
#pragma omp parallel for num_threads(nt) schedule(static) reduction(+ : nsingle) reduction(max : maxsize)
  /* clang-format on */
  for (PetscInt c = 0; c < nc; c++) {
    if (pending[c] == 1) nsingle++;
    maxsize = PetscMax(maxsize, pending[c]);
  }
  L->nsingletons = nsingle;
  L->maxsize     = maxsize;
  L->nweak       = nweak;
  PetscCall(PetscFree(flag));
  PetscCall(PetscFree5(h, pending, top, first, id));
  PetscCall(PetscFree3(p, wmax, vol));
  PetscCall(PetscLogEventEnd(PC_CMG_Cluster, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

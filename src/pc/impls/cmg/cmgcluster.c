/*
   CMG clustering of one level (ALGORITHMS.md 2.2, steps 1-4), written from the description:
     1. heaviest-neighbour forest p(v) (ties: smallest index; the 2-cycles become roots),
     2. weak vertices (forest weight touching v below vol(v)/8; a 2-cycle is one edge) become roots,
     3. the trees are cut bottom-up so that every cluster is a subtree of height at most
        CMG_MAX_HEIGHT below its top vertex (diameter <= 2 * CMG_MAX_HEIGHT = 6 hops);
        a tree top left with at most 2 vertices joins its heaviest cut-off child cluster
        (diameter stays <= 6), so no cluster is a lone edge left over at the top of a path,
     4. clusters = the connected components of the cut forest, numbered by first vertex.
*/
#include <gpupc/cmg.h>

#define CMG_MAX_HEIGHT 3

/* diagonal and heaviest neighbour of every vertex (the one pass over the level's entries: split over the threads) */
static void HeaviestNeighbor(const GPUPCCMGLevel *L, PetscInt nt, PetscInt *p, PetscReal *wmax, PetscReal *vol)
{
#pragma omp parallel for num_threads(nt) schedule(static)
  for (PetscInt v = 0; v < L->n; v++) {
    PetscReal best = 0.0, d = 0.0;
    PetscInt  at   = v;
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

/* break every cycle of p at its smallest vertex, so that p is a forest with roots p(r) = r */
static PetscErrorCode MakeForest(PetscInt n, PetscInt *p)
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

/*@C
   GPUPCCMGCluster - clusters one CMG level: fills L->nc, L->cluster, and the statistics nweak, nsingletons, maxsize

   Not Collective

   Input Parameters:
+  L       - the level (a Laplacian in CSR)
-  threads - setup threads (the pass over the level's entries is split over them; the rest walks the forest in one)

   Notes:
   Every cluster is connected through edges of the level's graph and, measured in forest hops, has
   diameter at most 6.

   Level: developer

.seealso: GPUPCCMGGalerkin(), GPUPCCMGHierarchyBuild()
@*/
PetscErrorCode GPUPCCMGCluster(GPUPCCMGLevel *L, PetscInt threads)
{
  const PetscInt n = L->n;
  PetscInt      *p, *cptr, *child, *order, *h, *cid, *remap, *size, nroots = 0, nc = 0, nweak = 0, head, tail;
  PetscReal     *wmax, *vol;
  PetscBool     *top, anyweak = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PC_CMG_Cluster, 0, 0, 0, 0));
  PetscCall(PetscMalloc3(n, &p, n, &wmax, n, &vol));
  HeaviestNeighbor(L, PetscMax(threads, 1), p, wmax, vol);

  /* weak vertices */
  for (PetscInt v = 0; v < n; v++)
    if (wmax[v] < vol[v] / 8) anyweak = PETSC_TRUE;
  if (anyweak) {
    PetscReal *t;
    PetscCall(PetscCalloc1(n, &t));
    for (PetscInt v = 0; v < n; v++) {
      PetscInt u = p[v];
      if (u == v) continue;
      t[v] += wmax[v];
      if (p[u] != v) t[u] += wmax[v]; /* a 2-cycle edge counts once at each end: there each end adds its own */
    }
    for (PetscInt v = 0; v < n; v++)
      if (p[v] != v && t[v] < vol[v] / 8) {
        p[v] = v;
        nweak++;
      }
    PetscCall(PetscFree(t));
  }
  PetscCall(MakeForest(n, p));

  /* children lists and a top-down (breadth-first) order */
  PetscCall(PetscCalloc1(n + 1, &cptr));
  PetscCall(PetscMalloc4(n, &child, n, &order, n, &h, n, &cid));
  PetscCall(PetscCalloc1(n, &top));
  for (PetscInt v = 0; v < n; v++)
    if (p[v] != v) cptr[p[v] + 1]++;
  for (PetscInt v = 0; v < n; v++) cptr[v + 1] += cptr[v];
  for (PetscInt v = 0; v < n; v++) h[v] = cptr[v];
  for (PetscInt v = 0; v < n; v++)
    if (p[v] != v) child[h[p[v]]++] = v;
  head = tail = 0;
  for (PetscInt v = 0; v < n; v++)
    if (p[v] == v) {
      order[tail++] = v;
      top[v]        = PETSC_TRUE;
      nroots++;
    }
  while (head < tail) {
    PetscInt v = order[head++];
    for (PetscInt k = cptr[v]; k < cptr[v + 1]; k++) order[tail++] = child[k];
  }
  PetscCheck(tail == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "CMG clustering: forest traversal reached %" PetscInt_FMT " of %" PetscInt_FMT " vertices", tail, n);

  /* bottom-up: cut v from its parent when the subtree hanging at v reaches the height limit */
  for (PetscInt v = 0; v < n; v++) h[v] = 0;
  for (PetscInt k = n - 1; k >= 0; k--) {
    PetscInt v = order[k];
    if (top[v]) continue;
    if (h[v] >= CMG_MAX_HEIGHT) top[v] = PETSC_TRUE;
    else h[p[v]] = PetscMax(h[p[v]], h[v] + 1);
  }
  /* top-down: cluster of v = cluster of its parent unless v tops a cluster */
  for (PetscInt k = 0; k < n; k++) {
    PetscInt v = order[k];
    cid[v]     = top[v] ? nc++ : cid[p[v]];
  }
  /* a tree top with at most 2 vertices joins its heaviest cut-off child cluster */
  PetscCall(PetscCalloc1(nc, &size));
  PetscCall(PetscMalloc1(nc, &remap));
  for (PetscInt v = 0; v < n; v++) size[cid[v]]++;
  for (PetscInt c = 0; c < nc; c++) remap[c] = c;
  for (PetscInt v = 0; v < n; v++) {
    PetscInt  best = -1;
    PetscReal bw   = 0.0;
    if (p[v] != v || size[cid[v]] > 2) continue;
    for (PetscInt k = cptr[v]; k < cptr[v + 1]; k++) {
      PetscInt d = child[k];
      if (top[d] && (best < 0 || wmax[d] > bw)) {
        best = d;
        bw   = wmax[d];
      }
    }
    if (best >= 0) remap[cid[v]] = cid[best];
  }
  /* number the clusters by their first vertex */
  for (PetscInt c = 0; c < nc; c++) size[c] = -1;
  PetscCall(PetscMalloc1(n, &L->cluster));
  L->nc = 0;
  for (PetscInt v = 0; v < n; v++) {
    PetscInt c = remap[cid[v]];
    if (size[c] < 0) size[c] = L->nc++;
    L->cluster[v] = size[c];
  }
  /* statistics */
  PetscCall(PetscArrayzero(h, n));
  for (PetscInt v = 0; v < n; v++) h[L->cluster[v]]++;
  L->nsingletons = 0;
  L->maxsize     = 0;
  for (PetscInt c = 0; c < L->nc; c++) {
    if (h[c] == 1) L->nsingletons++;
    L->maxsize = PetscMax(L->maxsize, h[c]);
  }
  L->nweak = nweak;
  PetscCall(PetscFree(size));
  PetscCall(PetscFree(remap));
  PetscCall(PetscFree(top));
  PetscCall(PetscFree(cptr));
  PetscCall(PetscFree4(child, order, h, cid));
  PetscCall(PetscFree3(p, wmax, vol));
  PetscCall(PetscLogEventEnd(PC_CMG_Cluster, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

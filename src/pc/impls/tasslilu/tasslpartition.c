/*
   Partition of the large components of a triangular system into TASSL sub-graphs along level-set wavefronts
   (used by GPUPCTasslAnalyze(), tasslanalysis.c).

   A sub-graph's rows should be close together (most edges inside it, in shared memory) and the sub-graphs of a
   wavefront independent (one sub-graph level holds many). Cutting the rows into boxes of a few coordinates that
   never decrease along an edge gives both:
   1. edge classes: the edges j -> i are grouped by their distance |i - j| in the topological order, on a log2 scale;
      distances separated by an empty octave start a new class (at most GPUPC_TASSL_MAX_COORDS classes; the widest
      gaps separate them). On a grid in the natural ordering the classes are the grid directions (distances 1, nx,
      nx ny, with the stencil's and the fill's diagonals in the same octaves);
   2. coordinates: f_c(i) = the most edges of class c on a path into i (longest path counting only class c), so
      f_c(j) <= f_c(i) for every edge j -> i, and their sum is at least the level set. On a grid they are the grid
      indices;
   3. boxes: f_c is cut into intervals of s_c; a sub-graph is the rows of one box (cut in level order every nmax
      rows when more). An edge between boxes goes to a box that is no lower in any coordinate and higher in one, so
      the quotient is acyclic, and the sub-graph levels are about sum_c (f_c range / s_c): on a grid, cubes of side s
      give (level sets / s) sub-graph levels with up to (n / s^d)^((d-1)/d) cubes in a level.
   The sides make boxes of about GPUPC_TASSL_BOX_ROWS rows, or larger ones while a level still holds about
   GPUPC_TASSL_TARGET_WIDTH boxes (sides rounded down: on a grid a box has at most that many rows).
   Cost: O(rows + classes * edges), arrays and one hash table of the boxes in use.
*/
#include <petsc/private/hashmapij.h>
#include "tassliluimpl.h"

/* root of v in the union-find forest uf (path halving) */
PetscInt GPUPCTasslFind(PetscInt *uf, PetscInt v)
{
  while (uf[v] != v) {
    uf[v] = uf[uf[v]];
    v     = uf[v];
  }
  return v;
}

static inline int Octave(PetscInt d)
{
  int o = 0;
  while (d > 1) {
    d >>= 1;
    o++;
  }
  return o;
}

/* edge classes: cls[o] = class of octave o; *nc classes */
static PetscErrorCode EdgeClasses(const GPUPCTri *T, const PetscInt *rows, PetscInt m, int cls[64], PetscInt *nc)
{
  PetscInt64 hist[64];
  int        pop[64], npop = 0, cut[64], ncut = 0;

  PetscFunctionBegin;
  for (int o = 0; o < 64; o++) {
    hist[o] = 0;
    cls[o]  = 0;
  }
  for (PetscInt k = 0; k < m; k++) {
    const PetscInt v = rows[k];
    for (PetscInt q = T->ptr[v]; q < T->ptr[v + 1]; q++) hist[Octave(GPUPCTasslTopo(T, v) - GPUPCTasslTopo(T, T->col[q]))]++;
  }
  for (int o = 0; o < 64; o++)
    if (hist[o]) pop[npop++] = o;
  /* a gap (an empty octave) between populated ones separates classes; keep the widest gaps */
  for (int k = 1; k < npop; k++)
    if (pop[k] - pop[k - 1] > 1) cut[ncut++] = k;
  while (ncut > GPUPC_TASSL_MAX_COORDS - 1) {
    int w = 0;
    for (int k = 1; k < ncut; k++)
      if (pop[cut[k]] - pop[cut[k] - 1] < pop[cut[w]] - pop[cut[w] - 1]) w = k;
    for (int k = w; k < ncut - 1; k++) cut[k] = cut[k + 1];
    ncut--;
  }
  for (int k = 0, c = 0; k < npop; k++) {
    if (c < ncut && cut[c] == k) c++;
    cls[pop[k]] = c;
  }
  *nc = npop ? ncut + 1 : 1;
  PetscFunctionReturn(0);
}

/*
   GPUPCTasslPartition - places the rows of the large components into sub-graphs (see the top of this file)

   Input Parameters:
+  T - the system
.  lev - the level set of each row
.  nls - the number of level sets
.  rows - the m rows to place, in topological order
-  nmax - the most rows of a sub-graph

   Output Parameters:
+  sub - sub-graph of each placed row, counted from 0
.  nsub - sub-graphs made
.  ncoord - coordinates (edge classes)
.  side - the largest box side
-  ncut - boxes cut because they had more than nmax rows
*/
PetscErrorCode GPUPCTasslPartition(const GPUPCTri *T, const PetscInt *lev, PetscInt nls, const PetscInt *rows, PetscInt m, PetscInt nmax, PetscInt *sub, PetscInt *nsub, PetscInt *ncoord, PetscInt *side, PetscInt *ncut)
{
  const PetscInt n = T->n;
  PetscInt      *f, *byl, *lptr, *tsize, range[GPUPC_TASSL_MAX_COORDS], s[GPUPC_TASSL_MAX_COORDS], nc, nt = 0;
  int            cls[64];
  PetscReal      t;
  PetscHMapIJ    boxes;

  PetscFunctionBegin;
  *ncut = 0;
  PetscCall(EdgeClasses(T, rows, m, cls, &nc));
  /* coordinates, in topological order (rows is) */
  PetscCall(PetscMalloc1(nc * n, &f));
  for (PetscInt c = 0; c < nc; c++) range[c] = 1;
  for (PetscInt k = 0; k < m; k++) {
    const PetscInt v  = rows[k];
    PetscInt      *fv = f + nc * v;
    for (PetscInt c = 0; c < nc; c++) fv[c] = 0;
    for (PetscInt q = T->ptr[v]; q < T->ptr[v + 1]; q++) {
      const PetscInt  j = T->col[q], c = cls[Octave(GPUPCTasslTopo(T, v) - GPUPCTasslTopo(T, j))];
      const PetscInt *fj = f + nc * j;
      for (PetscInt d = 0; d < nc; d++) fv[d] = PetscMax(fv[d], fj[d] + (d == c));
    }
    for (PetscInt c = 0; c < nc; c++) range[c] = PetscMax(range[c], fv[c] + 1);
  }
  /* boxes per coordinate t: about m / t^nc rows a box and (t^(nc-1)) / nc boxes a level: the smaller t of
     GPUPC_TASSL_BOX_ROWS rows a box and GPUPC_TASSL_TARGET_WIDTH boxes a level */
  {
    const PetscReal tr = PetscPowReal((PetscReal)m / PetscMin(nmax, GPUPC_TASSL_BOX_ROWS), 1.0 / nc);
    const PetscReal tw = nc > 1 ? PetscPowReal((PetscReal)nc * GPUPC_TASSL_TARGET_WIDTH, 1.0 / (nc - 1)) : 1.0;
    t                  = PetscMax(1.0, PetscMin(tr, tw));
  }
  *side = 1;
  for (PetscInt c = 0; c < nc; c++) {
    s[c]  = PetscMax(1, (PetscInt)(range[c] / t));
    *side = PetscMax(*side, s[c]);
  }
  *ncoord = nc;
  /* the rows in level order, topological order inside a level; each box's rows cut every nmax */
  PetscCall(PetscMalloc3(PetscMax(m, 1), &byl, nls + 1, &lptr, PetscMax(m, 1), &tsize));
  PetscCall(PetscArrayzero(lptr, nls + 1));
  for (PetscInt k = 0; k < m; k++) lptr[lev[rows[k]] + 1]++;
  for (PetscInt l = 0; l < nls; l++) lptr[l + 1] += lptr[l];
  for (PetscInt k = 0; k < m; k++) byl[lptr[lev[rows[k]]]++] = rows[k];
  PetscCall(PetscHMapIJCreate(&boxes));
  for (PetscInt k = 0; k < m; k++) {
    const PetscInt  v   = byl[k];
    const PetscInt *fv  = f + nc * v;
    PetscInt64      key = 0;
    PetscHashIJKey  hk;
    PetscInt        g;
    for (PetscInt c = 0; c < nc; c++) key = key * ((range[c] + s[c] - 1) / s[c]) + fv[c] / s[c];
    hk.i = (PetscInt)(key >> 30);
    hk.j = (PetscInt)(key & ((1 << 30) - 1));
    PetscCall(PetscHMapIJGet(boxes, hk, &g));
    if (g < 0 || tsize[g] >= nmax) {
      if (g >= 0) (*ncut)++;
      g        = nt++;
      tsize[g] = 0;
      PetscCall(PetscHMapIJSet(boxes, hk, g));
    }
    sub[v] = g;
    tsize[g]++;
  }
  *nsub = nt;
  PetscCall(PetscHMapIJDestroy(&boxes));
  PetscCall(PetscFree3(byl, lptr, tsize));
  PetscCall(PetscFree(f));
  PetscFunctionReturn(0);
}

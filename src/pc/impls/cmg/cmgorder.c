/*
   Cluster order of the CMG hierarchy (-pc_cmg_cluster_order): levels 1 .. last-1 are renumbered so that the vertices
   of every cluster are consecutive, clusters in the order of their vertex on the next level. Done from the coarsest
   level up, it gives every level the order of the aggregation tree: vertices that are close in the graph are close
   in memory, so the cycle's gathers x[col] on the bandwidth-bound levels 1-3 hit the same cache sectors more often,
   and the cluster sums read the residual in order. Level 0 keeps the user's order and the last level its factor's;
   the operator is the same (a symmetric permutation of each level), only its storage changes.
*/
#include <gpupc/cmg.h>

/* level L renumbered by new -> old (perm) and old -> new (inv): rows gathered, columns relabelled and sorted */
static PetscErrorCode PermuteLevel(GPUPCCMGLevel *L, const PetscInt *perm, const PetscInt *inv, PetscInt nt)
{
  PetscInt  *rp, *cl, *cluster;
  PetscReal *w;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(L->n + 1, &rp));
  rp[0] = 0;
  for (PetscInt r = 0; r < L->n; r++) rp[r + 1] = rp[r] + L->rowptr[perm[r] + 1] - L->rowptr[perm[r]];
  PetscCall(PetscMalloc2(L->nnz, &cl, L->nnz, &w));
  PetscCall(PetscMalloc1(L->n, &cluster));
#pragma omp parallel for num_threads(nt) schedule(static)
  for (PetscInt r = 0; r < L->n; r++) {
    const PetscInt v = perm[r];
    for (PetscInt k = L->rowptr[v], q = rp[r]; k < L->rowptr[v + 1]; k++, q++) {
      cl[q] = inv[L->col[k]];
      w[q]  = L->val[k];
    }
    GPUPCCMGSortRow(rp[r + 1] - rp[r], cl + rp[r], w + rp[r]);
    cluster[r] = L->cluster[v];
  }
  PetscCall(PetscFree(L->rowptr));
  PetscCall(PetscFree2(L->col, L->val));
  PetscCall(PetscFree(L->cluster));
  L->rowptr  = rp;
  L->col     = cl;
  L->val     = w;
  L->cluster = cluster;
  PetscFunctionReturn(0);
}

/*@C
   GPUPCCMGHierarchyOrder - renumbers levels 1 .. last-1 of a CMG hierarchy in cluster order

   Not Collective

   Input Parameters:
+  H       - the hierarchy (built, with its clusterings)
-  threads - setup threads (the rows of a level are gathered by them)

   Notes:
   Level k's vertices are sorted by their cluster (stable: ascending old number inside a cluster), and level k-1's
   clustering is relabelled to the new numbers. The Galerkin recomputation of SAME_NONZERO_PATTERN then produces the
   levels in this order directly, since a coarse level is numbered by the cluster labels of the level above.

   Level: developer

.seealso: PCCMG, GPUPCCMGHierarchyBuild(), GPUPCCMGClusterSort()
@*/
PetscErrorCode GPUPCCMGHierarchyOrder(GPUPCCMGHierarchy *H, PetscInt threads)
{
  const PetscInt nt = PetscMax(threads, 1);

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PC_CMG_Cluster, 0, 0, 0, 0));
  for (PetscInt k = H->nlevels - 2; k >= 1; k--) {
    GPUPCCMGLevel *L = &H->levels[k], *F = &H->levels[k - 1];
    PetscInt      *cptr, *perm, *inv;

    PetscCall(PetscMalloc3(L->nc + 1, &cptr, L->n, &perm, L->n, &inv));
    PetscCall(GPUPCCMGClusterSort(L->n, L->nc, L->cluster, cptr, perm));
#pragma omp parallel for num_threads(nt) schedule(static)
    for (PetscInt r = 0; r < L->n; r++) inv[perm[r]] = r;
    PetscCall(PermuteLevel(L, perm, inv, nt));
#pragma omp parallel for num_threads(nt) schedule(static)
    for (PetscInt v = 0; v < F->n; v++) F->cluster[v] = inv[F->cluster[v]];
    PetscCall(PetscFree3(cptr, perm, inv));
  }
  PetscCall(PetscLogEventEnd(PC_CMG_Cluster, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

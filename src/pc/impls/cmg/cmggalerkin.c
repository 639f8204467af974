/*
   CMG coarse levels (ALGORITHMS.md 2.2, step 5): A_c = R A R^T with R[c(v), v] = 1, computed
   as cluster sums of the fine CSR: the weight between clusters C != D is the sum of the
   fine weights between them, internal edges vanish, and the diagonal is the sum of the
   row's weights, so every coarse level is an exact Laplacian (equal to R A R^T in exact
   arithmetic, without the cancellation of summing the fine diagonal).
*/
#include <gpupc/cmg.h>

/*@C
   GPUPCCMGClusterSort - vertices sorted by cluster: cluster C holds cperm[cptr[C] .. cptr[C+1])

   Not Collective

   Input Parameters:
+  n       - vertices
.  nc      - clusters
-  cluster - c(v), length n

   Output Parameters:
+  cptr  - length nc + 1
-  cperm - length n, ascending inside each cluster

   Level: developer
@*/
PetscErrorCode GPUPCCMGClusterSort(PetscInt n, PetscInt nc, const PetscInt *cluster, PetscInt *cptr, PetscInt *cperm)
{
  PetscFunctionBegin;
  PetscCall(PetscArrayzero(cptr, nc + 1));
  for (PetscInt v = 0; v < n; v++) {
    PetscCheck(cluster[v] >= 0 && cluster[v] < nc, PETSC_COMM_SELF, PETSC_ERR_PLIB, "CMG: vertex %" PetscInt_FMT " has cluster %" PetscInt_FMT " outside [0, %" PetscInt_FMT ")", v, cluster[v], nc);
    cptr[cluster[v] + 1]++;
  }
  for (PetscInt c = 0; c < nc; c++) cptr[c + 1] += cptr[c];
  for (PetscInt v = 0; v < n; v++) cperm[cptr[cluster[v]]++] = v;
  for (PetscInt c = nc; c > 0; c--) cptr[c] = cptr[c - 1];
  cptr[0] = 0;
  PetscFunctionReturn(0);
}

/*@C
   GPUPCCMGGalerkin - the coarse Laplacian R A R^T of a clustered level

   Not Collective

   Input Parameters:
+  fine    - the fine level
.  nc      - number of clusters
-  cluster - c(v) for every fine vertex

   Output Parameter:
.  coarse - the coarse level (CSR, sorted columns, diagonal stored); its clustering fields are zero

   Level: developer

.seealso: GPUPCCMGCluster()
@*/
PetscErrorCode GPUPCCMGGalerkin(const GPUPCCMGLevel *fine, PetscInt nc, const PetscInt *cluster, GPUPCCMGLevel *coarse)
{
  PetscInt  *cptr, *cperm, *mark, *pos, *rp, *cl;
  PetscReal *w;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PC_CMG_Galerkin, 0, 0, 0, 0));
  PetscCall(PetscMalloc4(nc + 1, &cptr, fine->n, &cperm, nc, &mark, nc, &pos));
  PetscCall(GPUPCCMGClusterSort(fine->n, nc, cluster, cptr, cperm));
  PetscCall(PetscMalloc1(nc + 1, &rp));
  for (PetscInt c = 0; c < nc; c++) mark[c] = -1;
  /* pass 1: count distinct neighbouring clusters (+1 for the diagonal) */
  rp[0] = 0;
  for (PetscInt C = 0; C < nc; C++) {
    PetscInt cnt = 1;
    mark[C]      = C;
    for (PetscInt q = cptr[C]; q < cptr[C + 1]; q++) {
      PetscInt v = cperm[q];
      for (PetscInt k = fine->rowptr[v]; k < fine->rowptr[v + 1]; k++) {
        PetscInt D = cluster[fine->col[k]];
        if (mark[D] != C) {
          mark[D] = C;
          cnt++;
        }
      }
    }
    rp[C + 1] = rp[C] + cnt;
  }
  PetscCall(PetscMalloc2(rp[nc], &cl, rp[nc], &w));
  for (PetscInt c = 0; c < nc; c++) mark[c] = -1;
  /* pass 2: sum the weights between clusters */
  for (PetscInt C = 0; C < nc; C++) {
    PetscInt  o = rp[C], cnt = 1;
    PetscReal diag = 0.0;
    mark[C]        = C;
    cl[o]          = C;
    w[o]           = 0.0;
    pos[C]         = o;
    for (PetscInt q = cptr[C]; q < cptr[C + 1]; q++) {
      PetscInt v = cperm[q];
      for (PetscInt k = fine->rowptr[v]; k < fine->rowptr[v + 1]; k++) {
        PetscInt j = fine->col[k], D = cluster[j];
        if (D == C) continue;
        if (mark[D] != C) {
          mark[D]     = C;
          pos[D]      = o + cnt;
          cl[o + cnt] = D;
          w[o + cnt]  = 0.0;
          cnt++;
        }
        w[pos[D]] += fine->val[k];
        diag -= fine->val[k];
      }
    }
    w[o] = diag;
    PetscCall(PetscSortIntWithScalarArray(rp[C + 1] - o, cl + o, w + o));
  }
  PetscCall(PetscFree4(cptr, cperm, mark, pos));
  PetscCall(PetscMemzero(coarse, sizeof(*coarse)));
  coarse->n      = nc;
  coarse->nnz    = rp[nc];
  coarse->rowptr = rp;
  coarse->col    = cl;
  coarse->val    = w;
  PetscCall(PetscLogEventEnd(PC_CMG_Galerkin, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

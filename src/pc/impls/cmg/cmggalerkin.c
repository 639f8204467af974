/*
   CMG coarse levels (docs/algorithms.md 2.2, step 5): A_c = R A R^T with R[c(v), v] = 1, computed
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

/* The values of the coarse rows: w[q] of coarse row C (columns cl, sorted, C among them) is the sum of the fine weights
   between C and cluster cl[q], visited in cluster-sorted vertex order and row order, and the diagonal is minus the sum
   of the row's off-diagonal values in column order (what the device setup's galerkin_diagonal computes). pos: one integer per cluster per thread. The build and the recomputation for new values
   (GPUPCCMGGalerkinValues) both sum here, so they give the same values. */
static void SumValues(const GPUPCCMGLevel *fine, const PetscInt *cluster, PetscInt nc, const PetscInt *cptr, const PetscInt *cperm, const PetscInt *rp, const PetscInt *cl, PetscInt nt, PetscInt *pos, PetscReal *w)
{
#pragma omp parallel num_threads(nt)
  {
    PetscInt *at = pos + (size_t)GPUPCCMGThreadIndex() * (size_t)nc;

#pragma omp for schedule(dynamic, 256)
    for (PetscInt C = 0; C < nc; C++) {
      PetscReal diag = 0.0;
      for (PetscInt q = rp[C]; q < rp[C + 1]; q++) {
        at[cl[q]] = q;
        w[q]      = 0.0;
      }
      for (PetscInt q = cptr[C]; q < cptr[C + 1]; q++) {
        PetscInt v = cperm[q];
        for (PetscInt k = fine->rowptr[v]; k < fine->rowptr[v + 1]; k++) {
          PetscInt D = cluster[fine->col[k]];
          if (D == C) continue;
          w[at[D]] += fine->val[k];
        }
      }
      for (PetscInt q = rp[C]; q < rp[C + 1]; q++) /* minus the row's weights, in column order (as the device setup) */
        if (cl[q] != C) diag -= w[q];
      w[at[C]] = diag;
    }
  }
}

/*@C
   GPUPCCMGGalerkin - the coarse Laplacian R A R^T of a clustered level

   Not Collective

   Input Parameters:
+  fine    - the fine level
.  nc      - number of clusters
.  cluster - c(v) for every fine vertex
-  threads - setup threads; the coarse rows are split over them

   Output Parameter:
.  coarse - the coarse level (CSR, sorted columns, diagonal stored); its clustering fields are zero

   Notes:
   Every thread keeps one integer per cluster (where a neighbouring cluster sits in the row it builds). A coarse row
   sums its fine entries in the same order whatever the thread count, so the result does not depend on it.

   Level: developer

.seealso: GPUPCCMGCluster()
@*/
PetscErrorCode GPUPCCMGGalerkin(const GPUPCCMGLevel *fine, PetscInt nc, const PetscInt *cluster, PetscInt threads, GPUPCCMGLevel *coarse)
{
  const PetscInt nt = PetscMax(threads, 1);
  PetscInt      *cptr, *cperm, *where, *rp, *cl;
  PetscReal     *w;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PC_CMG_Galerkin, 0, 0, 0, 0));
  PetscCall(PetscMalloc2(nc + 1, &cptr, fine->n, &cperm));
  PetscCall(GPUPCCMGClusterSort(fine->n, nc, cluster, cptr, cperm));
  PetscCall(PetscMalloc1((size_t)nt * (size_t)nc, &where));
  PetscCall(PetscMalloc1(nc + 1, &rp));
  rp[0] = 0;
  /* pass 1: count distinct neighbouring clusters (+1 for the diagonal); a thread's where[D] == C marks D as counted */
#pragma omp parallel num_threads(nt)
  {
    PetscInt *mark = where + (size_t)GPUPCCMGThreadIndex() * (size_t)nc;

    for (PetscInt c = 0; c < nc; c++) mark[c] = -1;
#pragma omp for schedule(dynamic, 256)
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
      rp[C + 1] = cnt;
    }
  }
  for (PetscInt C = 0; C < nc; C++) rp[C + 1] += rp[C];
  PetscCall(PetscMalloc2(rp[nc], &cl, rp[nc], &w));
  /* pass 2: the columns of every row, sorted (a thread's where[D] == nc + C marks D as listed in row C) */
#pragma omp parallel num_threads(nt)
  {
    PetscInt *mark = where + (size_t)GPUPCCMGThreadIndex() * (size_t)nc;

#pragma omp for schedule(dynamic, 256)
    for (PetscInt C = 0; C < nc; C++) {
      PetscInt o = rp[C], cnt = 1;
      cl[o]   = C;
      mark[C] = nc + C;
      for (PetscInt q = cptr[C]; q < cptr[C + 1]; q++) {
        PetscInt v = cperm[q];
        for (PetscInt k = fine->rowptr[v]; k < fine->rowptr[v + 1]; k++) {
          PetscInt D = cluster[fine->col[k]];
          if (mark[D] != nc + C) {
            mark[D]       = nc + C;
            cl[o + cnt++] = D;
          }
        }
      }
      GPUPCCMGSortRow(cnt, cl + o, NULL);
    }
  }
  /* pass 3: the values */
  SumValues(fine, cluster, nc, cptr, cperm, rp, cl, nt, where, w);
  PetscCall(PetscFree2(cptr, cperm));
  PetscCall(PetscFree(where));
  PetscCall(PetscMemzero(coarse, sizeof(*coarse)));
  coarse->n      = nc;
  coarse->nnz    = rp[nc];
  coarse->rowptr = rp;
  coarse->col    = cl;
  coarse->val    = w;
  PetscCall(PetscLogEventEnd(PC_CMG_Galerkin, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCCMGGalerkinValues - new values of the coarse Laplacian R A R^T of a clustered level whose values changed, on the
   coarse level's existing structure

   Not Collective

   Input Parameters:
+  fine    - the fine level (new values)
.  cluster - c(v) for every fine vertex, as when the coarse level was built
.  threads - setup threads
-  coarse  - the coarse level built by GPUPCCMGGalerkin() from the same fine structure and clusters

   Output Parameter:
.  coarse - its values replaced: the same, bit for bit, as GPUPCCMGGalerkin() computes for the new fine values

   Level: developer

.seealso: GPUPCCMGGalerkin()
@*/
PetscErrorCode GPUPCCMGGalerkinValues(const GPUPCCMGLevel *fine, const PetscInt *cluster, PetscInt threads, GPUPCCMGLevel *coarse)
{
  const PetscInt nt = PetscMax(threads, 1), nc = coarse->n;
  PetscInt      *cptr, *cperm, *pos;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PC_CMG_Galerkin, 0, 0, 0, 0));
  PetscCall(PetscMalloc2(nc + 1, &cptr, fine->n, &cperm));
  PetscCall(GPUPCCMGClusterSort(fine->n, nc, cluster, cptr, cperm));
  PetscCall(PetscMalloc1((size_t)nt * (size_t)nc, &pos));
  SumValues(fine, cluster, nc, cptr, cperm, coarse->rowptr, coarse->col, nt, pos, coarse->val);
  PetscCall(PetscFree(pos));
  PetscCall(PetscFree2(cptr, cperm));
  PetscCall(PetscLogEventEnd(PC_CMG_Galerkin, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

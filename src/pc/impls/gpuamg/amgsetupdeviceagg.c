/*
   Smoothed aggregation in the device setup of PC gpuamg (one rank; amgsetupdevice.c runs the levels): the steps of
   one level with the data on the device, through the aggregation kernels (gpupc/amgaggkernels.h) and the shared
   device sparse kernels (gpupc/sparsekernels.h):

     aggregation strength on the node graph of bs x bs blocks (node norms, count, row pointers, fill), its transpose
     and the union with it (the symmetrised graph G that aggregation reads);
     MIS(2) aggregation in rounds: two "max over neighbours" passes find the undecided nodes whose priority (the hash
     GPUPCAMGRandom of the node's chunk of GPUPC_AMG_AGG_CHUNK consecutive nodes, then the smaller index inside a
     chunk) beats every undecided node within distance two: they become roots; two more passes
     take the nodes within distance two of a new root out of the candidates; until none is left. Roots are numbered in
     index order (sparse compact); a root's neighbours join it, the other nodes the aggregate most of their neighbours
     are in;
     tentative prolongator: the aggregated nodes sorted by aggregate in index order (the sparse COO sort, a counting
     sort), a thin QR of the near-null space rows of each aggregate (one thread per aggregate) giving P_tent and the
     coarse near-null space Bc;
     smoothing: A P_tent (sparse SpGEMM), then P = P_tent - omega D^-1 A P_tent in place on its pattern, omega =
     4 / (3 rho(D^-1 A)), rho the largest Ritz value of the smoothers' Lanczos estimate (amgsmootherlambda.c) on a
     device-only Mat of the level.

   The aggregates are not the host setup's (its greedy pass is sequential over all nodes; here only inside a chunk):
   the quality targets are iterations within
   1.1x and operator complexity within 5% of the host setup's hierarchy (tests/amg_devsetup.sh --agg).
*/
#include <gpupc/amgsetup.h>
#include <gpupc/amgaggkernels.h>
#include <gpupc/amgcycle.h>
#include <gpupc/devmat.h>
#include <petsctime.h>

/*@C
   GPUPCAMGDevAggGraph - the symmetrised aggregation strength graph of the nodes (blocks of bs rows) of a device CSR
   level matrix (device setup)

   Not Collective

   Input Parameters:
+  ak, sk - the aggregation and sparse kernel tables
.  A      - the level matrix (A->m a multiple of bs)
.  bs     - rows per node
-  eps    - the threshold: ||A_IJ|| >= eps sqrt(||A_II|| ||A_JJ||) (Frobenius norms)

   Output Parameter:
.  G - S union S^T, S the graph of GPUPCAMGStrengthAgg() (a pattern; free with GPUPCDevCSRDestroy())

   Level: developer

.seealso: GPUPCAMGStrengthAgg(), GPUPCAMGDevAggregate()
@*/
PetscErrorCode GPUPCAMGDevAggGraph(const GPUPCAMGAggKernels *ak, const GPUPCSparseKernels *sk, const GPUPCDevCSR *A, PetscInt bs, PetscReal eps, GPUPCDevCSR *G)
{
  PetscInt    nn, nnz, *perm, *Si, *Gi;
  PetscReal  *dnorm;
  GPUPCDevCSR S, ST;

  PetscFunctionBegin;
  PetscCheck(bs >= 1 && A->m % bs == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "the rows (%" PetscInt_FMT ") are not a multiple of the block size %" PetscInt_FMT, A->m, bs);
  PetscCheck(eps >= 0.0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "the aggregation threshold must be >= 0, got %g (-pc_gpuamg_agg_threshold)", (double)eps);
  nn = A->m / bs;
  PetscCall(GPUPCAMGDevAlloc(nn, &dnorm));
  PetscCall(ak->node_norm(A, bs, dnorm));
  PetscCall(GPUPCAMGDevAlloc(nn + 1, &Si));
  PetscCall(ak->strength_count(A, bs, eps, dnorm, Si));
  PetscCall(sk->rowptr(nn, Si, &nnz, NULL));
  PetscCall(PetscMemzero(&S, sizeof(S)));
  S.m   = nn;
  S.n   = nn;
  S.nnz = nnz;
  S.i   = Si;
  PetscCall(GPUPCAMGDevAlloc(nnz, &S.j));
  PetscCall(ak->strength_fill(A, bs, eps, dnorm, &S));
  PetscCall(GPUPCFree(dnorm));
  PetscCall(GPUPCDevCSRTranspose(&S, MAT_INITIAL_MATRIX, &ST, &perm, NULL));
  PetscCall(GPUPCFree(perm));
  PetscCall(GPUPCAMGDevAlloc(nn + 1, &Gi));
  PetscCall(ak->union_count(&S, &ST, Gi));
  PetscCall(sk->rowptr(nn, Gi, &nnz, NULL));
  PetscCall(PetscMemzero(G, sizeof(*G)));
  G->m   = nn;
  G->n   = nn;
  G->nnz = nnz;
  G->i   = Gi;
  PetscCall(GPUPCAMGDevAlloc(nnz, &G->j));
  PetscCall(ak->union_fill(&S, &ST, G));
  PetscCall(GPUPCDevCSRDestroy(&S));
  PetscCall(GPUPCDevCSRDestroy(&ST));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDevAggregate - MIS(2) aggregates of a symmetric node graph on the device (device setup)

   Not Collective

   Input Parameters:
+  ak, sk - the aggregation and sparse kernel tables
.  G      - the symmetrised strength graph (GPUPCAMGDevAggGraph())
-  order  - priorities of the rounds: GPUPC_AMG_AGG_ORDER_HASH (hashed chunks, index order inside: the default of the
            setup) or GPUPC_AMG_AGG_ORDER_INDEX

   Output Parameters:
+  agg    - aggregate of each node (device, G->m entries), -1 for a node without neighbours
.  nagg   - number of aggregates (= roots, numbered in index order)
-  rounds - MIS(2) rounds it took (may be NULL)

   Notes:
   Roots are at distance three or more from each other; every aggregated node is within distance two of its root.
   The result does not depend on the kernel table or its launch shape.

   Level: developer

.seealso: GPUPCAMGAggregate(), GPUPCAMGDevTentative()
@*/
PetscErrorCode GPUPCAMGDevAggregate(const GPUPCAMGAggKernels *ak, const GPUPCSparseKernels *sk, const GPUPCDevCSR *G, PetscInt order, PetscInt *agg, PetscInt *nagg, PetscInt *rounds)
{
  PetscInt n = G->m, left, nr = 0, *state, *b1, *b2, orphan;

  PetscFunctionBegin;
  PetscCall(GPUPCAMGDevAlloc(n, &state));
  PetscCall(GPUPCAMGDevAlloc(n, &b1));
  PetscCall(GPUPCAMGDevAlloc(n, &b2));
  PetscCall(ak->mis2_init(G, state, &left));
  while (left > 0) {
    PetscInt nroots;
    PetscCall(ak->mis2_max(G, state, NULL, order, b1)); /* the best undecided node within distance one */
    PetscCall(ak->mis2_max(G, state, b1, order, b2));   /* ... within distance two */
    PetscCall(ak->mis2_roots(n, b2, state, b1, &nroots));
    /* the undecided node of largest priority always becomes a root: a round without one is a defect */
    PetscCheck(nroots > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PC gpuamg device aggregation: a MIS(2) round found no root (%" PetscInt_FMT " undecided nodes)", left);
    PetscCall(ak->mis2_max(G, state, b1, order, b2)); /* a new root within distance one */
    PetscCall(ak->mis2_max(G, state, b2, order, b1)); /* ... within distance two */
    PetscCall(ak->mis2_cover(n, b1, state, &left));
    nr++;
  }
  PetscCall(sk->compact(n, state, GPUPC_AMG_AGG_ROOT, NULL, b1, nagg, NULL));
  PetscCall(ak->agg_first(G, state, b1, b2));
  PetscCall(ak->agg_second(G, b2, agg, &orphan));
  PetscCheck(orphan < 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PC gpuamg device aggregation: node %" PetscInt_FMT " has neighbours but none aggregated after the first pass", orphan);
  if (rounds) *rounds = nr;
  PetscCall(GPUPCFree(state));
  PetscCall(GPUPCFree(b1));
  PetscCall(GPUPCFree(b2));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDevTentative - the tentative prolongator of aggregates and the coarse near-null space on the device (device
   setup)

   Not Collective

   Input Parameters:
+  ak, sk - the aggregation and sparse kernel tables
.  nn     - nodes
.  bs     - rows per node
.  agg    - aggregate of each node (device; -1: a zero row of P)
.  nagg   - aggregates
.  nv     - near-null vectors
-  B      - near-null space (device), nn bs rows x nv, row-major

   Output Parameters:
+  P  - nn bs x nagg nv (free with GPUPCDevCSRDestroy()), orthonormal columns per aggregate
-  Bc - nagg nv x nv row-major (device, allocated by the caller): P Bc = B on the aggregated rows

   Notes:
   The values are GPUPCAMGTentative()'s for the same aggregates (bit for bit on the host table).

   Level: developer

.seealso: GPUPCAMGTentative(), GPUPCAMGDevAggregate()
@*/
PetscErrorCode GPUPCAMGDevTentative(const GPUPCAMGAggKernels *ak, const GPUPCSparseKernels *sk, PetscInt nn, PetscInt bs, const PetscInt *agg, PetscInt nagg, PetscInt nv, const PetscReal *B, GPUPCDevCSR *P, PetscReal *Bc)
{
  PetscInt n = nn * bs, *perm, *dst, *Ci, *aptr, *Pi, nkept, nnz, bad;

  PetscFunctionBegin;
  PetscCheck(nv >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "the near-null space needs at least one vector, got %" PetscInt_FMT, nv);
  /* the aggregated nodes sorted by aggregate, in index order within one (the COO sort keeps input order) */
  PetscCall(GPUPCAMGDevAlloc(nn, &perm));
  PetscCall(GPUPCAMGDevAlloc(nn, &dst));
  PetscCall(GPUPCAMGDevAlloc(nagg + 1, &Ci));
  PetscCall(sk->coo_sort(nagg, nagg, nn, agg, agg, perm, dst, Ci, &nkept, &nnz, NULL));
  PetscCheck(nnz == nagg, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PC gpuamg device aggregation: %" PetscInt_FMT " of the %" PetscInt_FMT " aggregates have nodes", nnz, nagg);
  PetscCall(GPUPCFree(dst));
  PetscCall(GPUPCFree(Ci));
  PetscCall(GPUPCAMGDevAlloc(nagg + 1, &aptr));
  PetscCall(ak->agg_bounds(nkept, perm, agg, nagg, aptr));
  PetscCall(GPUPCAMGDevAlloc(n + 1, &Pi));
  PetscCall(ak->tent_count(nn, bs, nv, agg, Pi));
  PetscCall(sk->rowptr(n, Pi, &nnz, NULL));
  PetscCall(GPUPCDevCSRCreate(n, nagg * nv, nnz, PETSC_TRUE, P));
  PetscCall(GPUPCCopyOnDevice(P->i, Pi, n + 1));
  PetscCall(GPUPCFree(Pi));
  PetscCall(ak->tent_qr(nagg, bs, nv, aptr, perm, B, P, Bc, &bad));
  PetscCall(GPUPCFree(perm));
  PetscCall(GPUPCFree(aptr));
  PetscCheck(bad < 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "aggregate %" PetscInt_FMT " has too few rows to hold %" PetscInt_FMT " near-null vectors; give fewer near-null vectors or a larger block size", bad, nv);
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDevProlSmooth - P = P_tent - omega D^-1 (A P_tent) on the device (device setup)

   Not Collective

   Input Parameters:
+  ak    - the aggregation kernel table
.  A     - the level matrix (diagonal stored)
.  d     - its diagonal (device, nonzero)
.  Pt    - the tentative prolongator
-  omega - the damping

   Output Parameter:
.  P - the smoothed prolongator on the pattern of A P_tent (free with GPUPCDevCSRDestroy())

   Level: developer

.seealso: GPUPCAMGDevTentative()
@*/
PetscErrorCode GPUPCAMGDevProlSmooth(const GPUPCAMGAggKernels *ak, const GPUPCDevCSR *A, const PetscScalar *d, const GPUPCDevCSR *Pt, PetscReal omega, GPUPCDevCSR *P)
{
  PetscInt missing;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(P, sizeof(*P)));
  PetscCall(GPUPCDevCSRMatMult(A, Pt, MAT_INITIAL_MATRIX, PETSC_TRUE, P, NULL));
  PetscCall(ak->prol_smooth(P, d, omega, Pt, &missing));
  PetscCheck(missing == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "PC gpuamg: %" PetscInt_FMT " entries of the tentative prolongator fall outside the pattern of A P; the matrix must store its diagonal", missing);
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDevEstimateRho - an estimate of the largest eigenvalue of D^-1 A for a device CSR level matrix: the largest
   Ritz value of the smoothers' Lanczos (on S A S, S = |D|^-1/2) through a device-only Mat of the level

   Collective on PETSC_COMM_SELF

   Input Parameters:
+  A - the level matrix (nonzero diagonal)
-  l - the level (seeds the start vector)

   Output Parameter:
.  rho - the estimate (a lower bound that approaches rho(D^-1 A))

   Level: developer

.seealso: GPUPCAMGEstimateRho(), GPUPCAMGDevProlSmooth()
@*/
PetscErrorCode GPUPCAMGDevEstimateRho(const GPUPCDevCSR *A, PetscInt l, PetscReal *rho)
{
  GPUPCDevMat            dm;
  Mat                    M;
  Vec                    dinv;
  PetscReal              lambda;
  const GPUPCAMGKernels *k;

  PetscFunctionBegin;
  PetscCall(GPUPCDevMatCreateFromDeviceCSR(A->m, A->n, A->nnz, A->i, A->j, A->a, GPUPC_DEVMAT_SEGCSR, &dm));
  PetscCall(GPUPCDevMatCreateMat(dm, &M));
  PetscCall(MatCreateVecs(M, &dinv, NULL));
  PetscCall(MatGetDiagonal(M, dinv));
  PetscCall(VecReciprocal(dinv));
  PetscCall(GPUPCGetAMGKernels(&k));
  PetscCall(GPUPCAMGSmootherLambda(k, M, dinv, l, PETSC_MAX_REAL, rho, &lambda));
  PetscCall(VecDestroy(&dinv));
  PetscCall(MatDestroy(&M));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDevProlongatorAgg - the smoothed aggregation prolongator of one device CSR level (device setup)

   Not Collective

   Input Parameters:
+  k, ak, sk - the device-setup, aggregation and sparse kernel tables
.  A         - the level matrix
.  l         - the level
.  opts      - agg_threshold, agg_smooths, max_ratio
.  bs        - rows per node of this level
.  nv        - near-null vectors
-  B         - the level's near-null space (device, A->m x nv row-major)

   Output Parameters:
+  P     - the prolongator, or P->m == 0 when the level is the last (no aggregate, or too little coarsening)
.  Bc    - the coarse near-null space (device, P->n x nv; GPUPCFree()), NULL with P->m == 0
-  times - [0] += strength and aggregation, [1] += tentative prolongator and smoothing (seconds)

   Level: developer

.seealso: GPUPCAMGProlongatorAgg(), GPUPCAMGHierarchyBuildDevice()
@*/
PetscErrorCode GPUPCAMGDevProlongatorAgg(const GPUPCAMGSetupKernels *k, const GPUPCAMGAggKernels *ak, const GPUPCSparseKernels *sk, const GPUPCDevCSR *A, PetscInt l, const GPUPCAMGSetupOptions *opts, PetscInt bs, PetscInt nv, const PetscReal *B, GPUPCDevCSR *P, PetscReal **Bc, PetscLogDouble *times)
{
  PetscInt       n = A->m, nn, nagg, rounds;
  PetscScalar   *d;
  PetscInt      *agg;
  GPUPCDevCSR    G, Pt;
  PetscLogDouble t0, t1, t2;
  PetscInt       order = opts->agg_priority == PC_GPUAMG_AGG_PRIORITY_INDEX ? GPUPC_AMG_AGG_ORDER_INDEX : GPUPC_AMG_AGG_ORDER_HASH;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(P, sizeof(*P)));
  *Bc = NULL;
  PetscCheck(n % bs == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "level %" PetscInt_FMT ": %" PetscInt_FMT " rows are not a multiple of the block size %" PetscInt_FMT, l, n, bs);
  nn = n / bs;
  PetscCall(GPUPCSynchronize());
  PetscCall(PetscTime(&t0));
  PetscCall(GPUPCAMGDevDiagonal(k, sk, A, l, &d));
  PetscCall(PetscLogEventBegin(GPUPCAMG_Strength, 0, 0, 0, 0));
  PetscCall(GPUPCAMGDevAggGraph(ak, sk, A, bs, opts->agg_threshold, &G));
  PetscCall(PetscLogEventEnd(GPUPCAMG_Strength, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(GPUPCAMG_Aggregate, 0, 0, 0, 0));
  PetscCall(GPUPCAMGDevAlloc(nn, &agg));
  PetscCall(GPUPCAMGDevAggregate(ak, sk, &G, order, agg, &nagg, &rounds));
  PetscCall(GPUPCDevCSRDestroy(&G));
  PetscCall(PetscLogEventEnd(GPUPCAMG_Aggregate, 0, 0, 0, 0));
  PetscCall(GPUPCSynchronize());
  PetscCall(PetscTime(&t1));
  if (nagg > 0 && nagg * nv < n && (PetscReal)(nagg * nv) <= opts->max_ratio * (PetscReal)n) {
    PetscCall(PetscLogEventBegin(GPUPCAMG_Tentative, 0, 0, 0, 0));
    PetscCall(GPUPCAMGDevAlloc(nagg * nv * nv, Bc));
    PetscCall(GPUPCAMGDevTentative(ak, sk, nn, bs, agg, nagg, nv, B, &Pt, *Bc));
    PetscCall(PetscLogEventEnd(GPUPCAMG_Tentative, 0, 0, 0, 0));
    PetscCall(PetscLogEventBegin(GPUPCAMG_ProlSmooth, 0, 0, 0, 0));
    for (PetscInt s = 0; s < opts->agg_smooths; s++) {
      PetscReal   rho;
      GPUPCDevCSR Ps;
      PetscCall(GPUPCAMGDevEstimateRho(A, l, &rho));
      PetscCheck(rho > 0.0, PETSC_COMM_SELF, PETSC_ERR_CONV_FAILED, "level %" PetscInt_FMT ": the estimate of rho(D^-1 A) is %g; the matrix is not positive definite?", l, (double)rho);
      PetscCall(GPUPCAMGDevProlSmooth(ak, A, d, &Pt, 4.0 / (3.0 * rho), &Ps));
      PetscCall(GPUPCDevCSRDestroy(&Pt));
      Pt = Ps;
    }
    PetscCall(PetscLogEventEnd(GPUPCAMG_ProlSmooth, 0, 0, 0, 0));
    *P = Pt;
  }
  PetscCall(PetscInfo(NULL, "device aggregation, level %" PetscInt_FMT ": %" PetscInt_FMT " nodes of %" PetscInt_FMT " rows, %" PetscInt_FMT " aggregates in %" PetscInt_FMT " MIS(2) rounds\n", l, nn, bs, nagg, rounds));
  PetscCall(GPUPCFree(agg));
  PetscCall(GPUPCFree(d));
  PetscCall(GPUPCSynchronize());
  PetscCall(PetscTime(&t2));
  times[0] += t1 - t0;
  times[1] += t2 - t1;
  PetscFunctionReturn(0);
}

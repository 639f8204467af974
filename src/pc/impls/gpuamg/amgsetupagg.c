/*
   Smoothed aggregation of PC gpuamg (gpupc/amgsetup.h).

   Aggregates: on the node graph of the aggregation strength (blocks of bs rows), a greedy MIS(2)-type pass makes
   every node whose strong neighbours are all free a root and aggregates it with them (roots end up at distance
   three or more); a second pass adds every remaining node to the aggregate it has most strong neighbours in (every
   such node has one after the first pass). Nodes without strong neighbours (Dirichlet-like rows the smoother
   solves) are left out of the prolongator, unless they are coupled to other ranks' nodes (singleton aggregates,
   when a node has at least as many rows as near-null vectors). Each rank aggregates its own nodes.
   On the first -pc_gpuamg_aggressive_levels levels the graph is squared first (nodes within distance two of each
   other in the symmetrised graph are neighbours), as GAMG's square_graph: larger aggregates.
   Tentative prolongator: per aggregate, the near-null space rows B_a (m x nv) = Q_a R_a (thin QR by twice-iterated
   Gram-Schmidt); Q_a are the rows of P_tent (orthonormal columns per aggregate), R_a the coarse near-null space, so
   P_tent B_c = B. A dependent column is replaced by a unit vector orthogonal to the others (R keeps the zero).
   Near-null space: MatGetNearNullSpace(A), else rigid-body modes from the coordinates (block size 2 or 3 equal to
   the coordinates' dimension), else the constant of each of the bs components.
   Smoothing: P = (I - omega D^-1 A) P_tent, omega = 4 / (3 rho(D^-1 A)), rho from 10 steps of Jacobi-preconditioned
   CG (Lanczos) on a random right-hand side; agg_smooths such steps (0: unsmoothed aggregation).
*/
#include <gpupc/amgsetup.h>
#include <petscksp.h>
#include <petsctime.h>

/*@C
   GPUPCAMGAggregate - aggregates of the nodes of a (symmetric) strength graph

   Not Collective

   Input Parameter:
.  S - node strength graph with its transpose (GPUPCAMGStrengthAgg())

   Output Parameters:
+  agg  - aggregate of each node, -1 for a node without strong neighbours
-  nagg - number of aggregates

   Level: developer

.seealso: GPUPCAMGStrengthAgg(), GPUPCAMGTentative()
@*/
PetscErrorCode GPUPCAMGAggregate(const GPUPCAMGStrength *S, PetscInt *agg, PetscInt *nagg)
{
  PetscInt       n = S->n, na = 0, *first;
  const PetscInt FREE = -2;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) {
    agg[i] = (S->i[i + 1] > S->i[i] || S->ti[i + 1] > S->ti[i]) ? FREE : -1;
    if (agg[i] == -1 && S->ext && S->ext[i]) agg[i] = na++; /* coupled to other ranks only: a singleton */
  }
  for (PetscInt i = 0; i < n; i++) {
    PetscBool ok = (PetscBool)(agg[i] == FREE);
    for (PetscInt e = S->i[i]; e < S->i[i + 1] && ok; e++)
      if (agg[S->j[e]] != FREE) ok = PETSC_FALSE;
    for (PetscInt e = S->ti[i]; e < S->ti[i + 1] && ok; e++)
      if (agg[S->tj[e]] != FREE) ok = PETSC_FALSE;
    if (!ok) continue;
    agg[i] = na;
    for (PetscInt e = S->i[i]; e < S->i[i + 1]; e++) agg[S->j[e]] = na;
    for (PetscInt e = S->ti[i]; e < S->ti[i + 1]; e++) agg[S->tj[e]] = na;
    na++;
  }
  /* second pass on the first pass's aggregates only (first[]), so nodes do not chain */
  PetscCall(PetscMalloc1(n, &first));
  PetscCall(PetscArraycpy(first, agg, n));
  for (PetscInt i = 0; i < n; i++) {
    PetscInt best = -1, bestcnt = 0;
    if (first[i] != FREE) continue;
    for (PetscInt pass = 0; pass < 2; pass++) {
      const PetscInt *nb = pass ? S->tj + S->ti[i] : S->j + S->i[i];
      PetscInt        nn = pass ? S->ti[i + 1] - S->ti[i] : S->i[i + 1] - S->i[i];
      for (PetscInt q = 0; q < nn; q++) {
        PetscInt a = first[nb[q]], cnt = 0;
        if (a < 0) continue;
        for (PetscInt e = S->i[i]; e < S->i[i + 1]; e++) cnt += first[S->j[e]] == a;
        for (PetscInt e = S->ti[i]; e < S->ti[i + 1]; e++) cnt += first[S->tj[e]] == a;
        if (cnt > bestcnt || (cnt == bestcnt && a < best)) {
          best    = a;
          bestcnt = cnt;
        }
      }
    }
    PetscCheck(best >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "node %" PetscInt_FMT " has strong neighbours but none aggregated after the first pass", i);
    agg[i] = best;
  }
  PetscCall(PetscFree(first));
  *nagg = na;
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGTentative - the tentative prolongator of aggregates and the coarse near-null space

   Not Collective

   Input Parameters:
+  nn   - local nodes
.  bs   - rows per node
.  agg  - aggregate of each node (-1: not aggregated, zero row)
.  nagg - aggregates
.  nv   - near-null vectors
-  B    - near-null space, nn*bs rows x nv, row-major

   Output Parameters:
+  P  - nn*bs x nagg*nv, orthonormal columns per aggregate
-  Bc - nagg*nv x nv row-major coarse near-null space (P Bc = B on the aggregated rows); caller allocates

   Level: developer

.seealso: GPUPCAMGAggregate()
@*/
PetscErrorCode GPUPCAMGTentative(PetscInt nn, PetscInt bs, const PetscInt *agg, PetscInt nagg, PetscInt nv, const PetscReal *B, GPUPCAMGLocalP *P, PetscReal *Bc)
{
  PetscInt  *aptr, *anodes, *fill, maxm = 0, n = nn * bs;
  PetscReal *Q, *R;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(P, sizeof(*P)));
  P->n  = n;
  P->nc = nagg * nv;
  PetscCall(PetscCalloc3(nagg + 1, &aptr, nn, &anodes, nagg, &fill));
  for (PetscInt i = 0; i < nn; i++)
    if (agg[i] >= 0) aptr[agg[i] + 1]++;
  for (PetscInt a = 0; a < nagg; a++) {
    aptr[a + 1] += aptr[a];
    fill[a] = aptr[a];
    maxm    = PetscMax(maxm, (aptr[a + 1] - aptr[a]) * bs);
  }
  for (PetscInt i = 0; i < nn; i++)
    if (agg[i] >= 0) anodes[fill[agg[i]]++] = i;
  PetscCall(PetscMalloc1(n + 1, &P->i));
  P->i[0] = 0;
  for (PetscInt i = 0; i < nn; i++)
    for (PetscInt c = 0; c < bs; c++) P->i[i * bs + c + 1] = P->i[i * bs + c] + (agg[i] >= 0 ? nv : 0);
  PetscCall(PetscMalloc2(P->i[n], &P->j, P->i[n], &P->a));
  PetscCall(PetscMalloc2(maxm * nv, &Q, nv * nv, &R));
  for (PetscInt a = 0; a < nagg; a++) {
    PetscInt m = (aptr[a + 1] - aptr[a]) * bs;
    /* Q = B_a (column-major m x nv), then Gram-Schmidt twice per column */
    for (PetscInt q = 0; q < aptr[a + 1] - aptr[a]; q++)
      for (PetscInt c = 0; c < bs; c++)
        for (PetscInt k = 0; k < nv; k++) Q[k * m + q * bs + c] = B[(anodes[aptr[a] + q] * bs + c) * nv + k];
    for (PetscInt k = 0; k < nv * nv; k++) R[k] = 0.0;
    for (PetscInt k = 0; k < nv; k++) {
      PetscReal *qk = Q + k * m, nrm0 = 0.0, nrm = 0.0;
      for (PetscInt r = 0; r < m; r++) nrm0 += qk[r] * qk[r];
      nrm0 = PetscSqrtReal(nrm0);
      for (PetscInt it = 0; it < 2; it++)
        for (PetscInt p = 0; p < k; p++) {
          PetscReal d = 0.0;
          for (PetscInt r = 0; r < m; r++) d += Q[p * m + r] * qk[r];
          for (PetscInt r = 0; r < m; r++) qk[r] -= d * Q[p * m + r];
          R[p * nv + k] += d;
        }
      for (PetscInt r = 0; r < m; r++) nrm += qk[r] * qk[r];
      nrm = PetscSqrtReal(nrm);
      if (nrm > 1e-10 * nrm0 && nrm > 0.0) {
        R[k * nv + k] = nrm;
        for (PetscInt r = 0; r < m; r++) qk[r] /= nrm;
      } else { /* dependent column: a unit vector orthogonal to the others; R keeps the zero diagonal */
        PetscBool found = PETSC_FALSE;
        for (PetscInt u = 0; u < m && !found; u++) {
          for (PetscInt r = 0; r < m; r++) qk[r] = r == u ? 1.0 : 0.0;
          for (PetscInt it = 0; it < 2; it++)
            for (PetscInt p = 0; p < k; p++) {
              PetscReal d = 0.0;
              for (PetscInt r = 0; r < m; r++) d += Q[p * m + r] * qk[r];
              for (PetscInt r = 0; r < m; r++) qk[r] -= d * Q[p * m + r];
            }
          nrm = 0.0;
          for (PetscInt r = 0; r < m; r++) nrm += qk[r] * qk[r];
          nrm = PetscSqrtReal(nrm);
          if (nrm > 0.5) {
            for (PetscInt r = 0; r < m; r++) qk[r] /= nrm;
            found = PETSC_TRUE;
          }
        }
        PetscCheck(found, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "an aggregate of %" PetscInt_FMT " rows cannot hold %" PetscInt_FMT " near-null vectors; give fewer near-null vectors or a larger block size", m, nv);
      }
    }
    for (PetscInt q = 0; q < aptr[a + 1] - aptr[a]; q++)
      for (PetscInt c = 0; c < bs; c++) {
        PetscInt row = anodes[aptr[a] + q] * bs + c;
        for (PetscInt k = 0; k < nv; k++) {
          P->j[P->i[row] + k] = a * nv + k;
          P->a[P->i[row] + k] = Q[k * m + q * bs + c];
        }
      }
    for (PetscInt k = 0; k < nv; k++)
      for (PetscInt c = 0; c < nv; c++) Bc[(a * nv + k) * nv + c] = R[k * nv + c];
  }
  PetscCall(PetscFree2(Q, R));
  PetscCall(PetscFree3(aptr, anodes, fill));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGEstimateRho - the largest eigenvalue of D^-1 A, from 10 steps of Jacobi-preconditioned CG (Lanczos)

   Collective on A

   Level: developer

.seealso: GPUPCAMGTentative()
@*/
PetscErrorCode GPUPCAMGEstimateRho(Mat A, PetscInt its, PetscReal *rho)
{
  KSP         ksp;
  PC          pc;
  Vec         x, b;
  PetscRandom rnd;
  PetscReal   emin;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(PetscRandomCreate(PetscObjectComm((PetscObject)A), &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 0x5eed));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(b, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PetscCall(KSPSetOptionsPrefix(ksp, "pc_gpuamg_est_"));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetComputeSingularValues(ksp, PETSC_TRUE));
  PetscCall(KSPSetTolerances(ksp, 1e-30, 1e-300, PETSC_DEFAULT, its));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_PRECONDITIONED));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPComputeExtremeSingularValues(ksp, rho, &emin));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGNearNullSpace - the near-null space of the finest level as local row-major vectors

   Collective on A

   Input Parameters:
+  A    - the operator
-  opts - setup options (coordinates)

   Output Parameters:
+  nv - number of vectors
-  B  - local rows x nv, row-major (PetscFree())

   Level: developer

.seealso: GPUPCAMGTentative()
@*/
PetscErrorCode GPUPCAMGNearNullSpace(Mat A, const GPUPCAMGSetupOptions *opts, PetscInt *nv, PetscReal **B)
{
  MatNullSpace nsp = NULL, rbm = NULL;
  PetscInt     n, bs;

  PetscFunctionBegin;
  PetscCall(MatGetLocalSize(A, &n, NULL));
  PetscCall(MatGetBlockSize(A, &bs));
  PetscCall(MatGetNearNullSpace(A, &nsp));
  if (!nsp && opts->cdim > 1 && bs == opts->cdim) { /* on every rank (collective), one without rows too */
    Vec          c;
    PetscScalar *v;
    PetscCall(MatCreateVecs(A, &c, NULL));
    PetscCall(VecSetBlockSize(c, bs));
    PetscCall(VecGetArrayWrite(c, &v));
    for (PetscInt i = 0; i < n; i++) v[i] = opts->coords[i];
    PetscCall(VecRestoreArrayWrite(c, &v));
    PetscCall(MatNullSpaceCreateRigidBody(c, &rbm));
    PetscCall(VecDestroy(&c));
    nsp = rbm;
  }
  if (nsp) {
    PetscBool          has;
    PetscInt           nvec, off;
    const Vec         *vecs;
    const PetscScalar *v;
    PetscCall(MatNullSpaceGetVecs(nsp, &has, &nvec, &vecs));
    *nv = nvec + (has ? 1 : 0);
    PetscCheck(*nv > 0, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "the near-null space attached to the matrix is empty");
    PetscCall(PetscMalloc1(n * *nv, B));
    off = 0;
    if (has) {
      for (PetscInt i = 0; i < n; i++) (*B)[i * *nv] = 1.0;
      off = 1;
    }
    for (PetscInt k = 0; k < nvec; k++) {
      PetscCall(VecGetArrayRead(vecs[k], &v));
      for (PetscInt i = 0; i < n; i++) (*B)[i * *nv + off + k] = PetscRealPart(v[i]);
      PetscCall(VecRestoreArrayRead(vecs[k], &v));
    }
  } else {
    *nv = bs;
    PetscCall(PetscCalloc1(n * bs, B));
    for (PetscInt i = 0; i < n; i++) (*B)[i * bs + i % bs] = 1.0;
  }
  PetscCall(MatNullSpaceDestroy(&rbm));
  PetscFunctionReturn(0);
}

/* S2: the nodes within distance two of each node in the symmetrised graph of S (aggressive aggregation, the
   square of the graph as GAMG's first level), with its transpose; S->ext is moved to S2 */
static PetscErrorCode SquareGraph(GPUPCAMGStrength *S, PetscInt threads, GPUPCAMGStrength *S2)
{
  PetscInt n = S->n, *mark;
  PetscInt cap;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(S2, sizeof(*S2)));
  S2->n = n;
  PetscCall(PetscMalloc1(n + 1, &S2->i));
  PetscCall(PetscMalloc1(n, &mark));
  for (PetscInt i = 0; i < n; i++) mark[i] = -1;
  /* two passes: count, then fill */
  for (PetscInt pass = 0; pass < 2; pass++) {
    PetscInt c = 0;
    if (pass) {
      cap = S2->i[n];
      PetscCall(PetscMalloc1(cap, &S2->j));
      for (PetscInt i = 0; i < n; i++) mark[i] = -1;
    } else S2->i[0] = 0;
    for (PetscInt i = 0; i < n; i++) {
      mark[i] = i;
      for (PetscInt h = 0; h < 2; h++) {
        const PetscInt *nb = h ? S->tj + S->ti[i] : S->j + S->i[i];
        PetscInt        nn = h ? S->ti[i + 1] - S->ti[i] : S->i[i + 1] - S->i[i];
        for (PetscInt q = 0; q < nn; q++) {
          PetscInt k = nb[q];
          if (mark[k] != i) {
            mark[k] = i;
            if (pass) S2->j[c] = k;
            c++;
          }
          for (PetscInt g = 0; g < 2; g++) {
            const PetscInt *nb2 = g ? S->tj + S->ti[k] : S->j + S->i[k];
            PetscInt        nn2 = g ? S->ti[k + 1] - S->ti[k] : S->i[k + 1] - S->i[k];
            for (PetscInt r = 0; r < nn2; r++)
              if (mark[nb2[r]] != i) {
                mark[nb2[r]] = i;
                if (pass) S2->j[c] = nb2[r];
                c++;
              }
          }
        }
      }
      if (!pass) S2->i[i + 1] = c;
    }
  }
  PetscCall(PetscFree(mark));
  PetscCall(GPUPCAMGStrengthTranspose(S2, threads));
  S2->ext = S->ext;
  S->ext  = NULL;
  PetscFunctionReturn(0);
}

/* the rank-local part of an aggregation prolongator: strength, aggregates and the tentative prolongator of this rank's
   rows (Bc: the coarse near-null space); errors on PETSC_COMM_SELF (GPUPCAMGAgree() follows) */
static PetscErrorCode AggLocal(Mat A, const GPUPCAMGSetupOptions *opts, PetscInt level, PetscInt bs, PetscInt nv, const PetscReal *B, GPUPCAMGLocalP *Pl, PetscReal **Bc)
{
  GPUPCAMGLocal    L;
  GPUPCAMGStrength S;
  PetscInt         nagg, *agg;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(GPUPCAMG_Local, A, 0, 0, 0));
  PetscCall(GPUPCAMGLocalGet(A, 1, NULL, opts->threads, &L));
  PetscCall(PetscLogEventEnd(GPUPCAMG_Local, A, 0, 0, 0));
  PetscCall(PetscLogEventBegin(GPUPCAMG_Strength, A, 0, 0, 0));
  PetscCheck(L.n % bs == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "level %" PetscInt_FMT ": %" PetscInt_FMT " local rows are not a multiple of the block size %" PetscInt_FMT, level, L.n, bs);
  PetscCall(GPUPCAMGStrengthAgg(&L, bs, opts->agg_threshold, opts->threads, &S));
  if (bs < nv) PetscCall(PetscFree(S.ext)); /* a singleton of bs rows cannot hold nv vectors */
  if (level < opts->aggressive_levels) {    /* aggregate on the squared graph: larger aggregates */
    GPUPCAMGStrength S2;
    PetscCall(SquareGraph(&S, opts->threads, &S2));
    PetscCall(GPUPCAMGStrengthFree(&S));
    S = S2;
  }
  PetscCall(PetscLogEventEnd(GPUPCAMG_Strength, A, 0, 0, 0));
  PetscCall(PetscLogEventBegin(GPUPCAMG_Aggregate, A, 0, 0, 0));
  PetscCall(PetscMalloc1(S.n, &agg));
  PetscCall(GPUPCAMGAggregate(&S, agg, &nagg));
  PetscCall(PetscLogEventEnd(GPUPCAMG_Aggregate, A, 0, 0, 0));
  PetscCall(PetscLogEventBegin(GPUPCAMG_Tentative, A, 0, 0, 0));
  PetscCall(PetscMalloc1(nagg * nv * nv, Bc));
  PetscCall(GPUPCAMGTentative(S.n, bs, agg, nagg, nv, B, Pl, *Bc));
  PetscCall(PetscLogEventEnd(GPUPCAMG_Tentative, A, 0, 0, 0));
  PetscCall(PetscFree(agg));
  PetscCall(GPUPCAMGStrengthFree(&S));
  PetscCall(GPUPCAMGLocalFree(&L));
  PetscFunctionReturn(0);
}

/* the aggregation prolongator of one level (gpupc/amgsetup.h) */
PetscErrorCode GPUPCAMGProlongatorAgg(Mat A, const GPUPCAMGSetupOptions *opts, PetscInt level, PetscInt *nv, PetscReal **B, Mat *P, PetscLogDouble *t)
{
  GPUPCAMGLocalP Pl;
  PetscInt       bs;
  PetscReal     *Bc = NULL;
  Mat            Pt;
  PetscLogDouble t0, t1, t2;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  if (level == 0) {
    PetscCall(PetscFree(*B));
    PetscCall(GPUPCAMGNearNullSpace(A, opts, nv, B));
    PetscCall(MatGetBlockSize(A, &bs));
  } else bs = *nv;
  PetscCall(PetscMemzero(&Pl, sizeof(Pl)));
  ierr = AggLocal(A, opts, level, bs, *nv, *B, &Pl, &Bc);
  PetscCall(GPUPCAMGAgree(PetscObjectComm((PetscObject)A), ierr, "the aggregation and tentative prolongator", level));
  PetscCall(PetscTime(&t1));
  PetscCall(GPUPCAMGLocalPToMat(PetscObjectComm((PetscObject)A), &Pl, bs, *nv, opts->threads, &Pt));
  PetscCall(GPUPCAMGLocalPFree(&Pl));
  PetscCall(PetscFree(*B));
  *B = Bc;
  PetscCall(PetscLogEventBegin(GPUPCAMG_ProlSmooth, A, 0, 0, 0));
  for (PetscInt s = 0; s < opts->agg_smooths; s++) {
    PetscReal rho, omega;
    Mat       AP;
    Vec       d;
    PetscCall(GPUPCAMGEstimateRho(A, 10, &rho));
    PetscCheck(rho > 0.0, PetscObjectComm((PetscObject)A), PETSC_ERR_CONV_FAILED, "level %" PetscInt_FMT ": the estimate of rho(D^-1 A) is %g; the matrix is not positive definite?", level, (double)rho);
    omega = 4.0 / (3.0 * rho);
    PetscCall(MatMatMult(A, Pt, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &AP));
    PetscCall(MatCreateVecs(A, NULL, &d));
    PetscCall(MatGetDiagonal(A, d));
    PetscCall(VecReciprocal(d));
    PetscCall(MatDiagonalScale(AP, d, NULL));
    PetscCall(MatAYPX(AP, -omega, Pt, DIFFERENT_NONZERO_PATTERN));
    PetscCall(VecDestroy(&d));
    PetscCall(MatDestroy(&Pt));
    Pt = AP;
  }
  PetscCall(PetscLogEventEnd(GPUPCAMG_ProlSmooth, A, 0, 0, 0));
  PetscCall(PetscTime(&t2));
  *P = Pt;
  t[0] += t1 - t0;
  t[1] += t2 - t1;
  PetscFunctionReturn(0);
}

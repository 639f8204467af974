static const char help[] = "The host setup of PC gpuamg (gpupc/amg.h, gpupc/amgsetup.h) on GPUPC's test problems:\n"
                           "  C/F invariants of the finest level (pmis/hmis/rs: every F point that depends on a point depends on a C point,\n"
                           "  pmis: or influences no point and depends on F points that do; pmis: a point that influences none is F;\n"
                           "  rs: every strong F-F pair shares a strong C point); aggregation: aggregates cover every node with strong\n"
                           "  neighbours exactly once, P_tent has orthonormal columns and P_tent Bc = B; interpolation row sums are 1 on\n"
                           "  rows of zero row sum (classical); A[l+1] = P^T A P against MatMatMult + MatTransposeMatMult; a recompute\n"
                           "  on new values equals a fresh build's products; and CG with PETSc's PCMG on the hierarchy's P (Galerkin,\n"
                           "  one symmetric Gauss-Seidel sweep down and up) converges in at most -max_its iterations, and, with\n"
                           "  -compare_hypre, in at most 1.15x (rounded up) the iterations of BoomerAMG with matching settings; with\n"
                           "  -compare_gamg (aggregation), in at most GAMG's iterations with the same threshold, smoothing and smoother;\n"
                           "  -compare_ptap: the Galerkin products equal MatPtAP's bit for bit, and the kept R equals P^T (one rank).\n"
                           "  -bad_input: a zero diagonal, a rectangular matrix and bad options are refused with a message saying what.\n"
                           "Options: -problem <poisson2d> -n <32> -max_its <30> -compare_hypre -compare_gamg -threads <k> -compare_threads -compare_ptap -bad_input\n"
                           "  -amg_type -amg_coarsen -amg_interp -amg_theta -amg_agg_eps -amg_aggressive -amg_trunc_max -amg_trunc_factor -amg_trunc_rescale\n"
                           "  -amg_smooths -amg_max_coarse -amg_max_levels\n";

#include <gpupc/amgsetup.h>
#include <gpupc/problems.h>
#include <petscksp.h>

static PetscErrorCode Fail(MPI_Comm comm, PetscInt bad, const char what[])
{
  PetscInt gbad;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Allreduce(&bad, &gbad, 1, MPIU_INT, MPI_SUM, comm));
  PetscCheck(gbad == 0, comm, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " violations", what, gbad);
  PetscFunctionReturn(0);
}

/* C/F invariants of the finest level's local splitting */
static PetscErrorCode CheckSplitting(Mat A, const GPUPCAMGSetupOptions *o)
{
  GPUPCAMGLocal    L;
  GPUPCAMGStrength S;
  PetscInt        *cf, bad = 0, nc = 0, gnc, *mark;

  PetscFunctionBegin;
  PetscCall(GPUPCAMGLocalGet(A, 1, NULL, o->threads, &L));
  PetscCall(GPUPCAMGStrengthClassical(&L, o->strong_threshold, o->threads, &S));
  PetscCall(PetscMalloc2(L.n, &cf, L.n, &mark));
  PetscCall(GPUPCAMGCoarsen(&S, o->coarsen, L.rstart, o->threads, cf));
  for (PetscInt i = 0; i < L.n; i++) {
    PetscBool hasc = PETSC_FALSE;
    mark[i]        = -1;
    if (cf[i] == GPUPC_AMG_C) nc++;
    else if (cf[i] != GPUPC_AMG_F) bad++;
    if (cf[i] != GPUPC_AMG_F || S.i[i + 1] == S.i[i]) continue;
    for (PetscInt e = S.i[i]; e < S.i[i + 1]; e++) hasc = (PetscBool)(hasc || cf[S.j[e]] == GPUPC_AMG_C);
    if (!hasc && o->coarsen == PC_GPUAMG_COARSEN_PMIS && S.ti[i + 1] == S.ti[i]) { /* influences no point: C points at distance two */
      hasc = PETSC_TRUE;
      for (PetscInt e = S.i[i]; e < S.i[i + 1]; e++) {
        PetscInt  j    = S.j[e];
        PetscBool jhas = PETSC_FALSE;
        for (PetscInt f = S.i[j]; f < S.i[j + 1]; f++) jhas = (PetscBool)(jhas || cf[S.j[f]] == GPUPC_AMG_C);
        if (!jhas) hasc = PETSC_FALSE;
      }
    }
    if (!hasc && o->coarsen != PC_GPUAMG_COARSEN_CLJP) bad++;
    /* pmis: a point that depends on points and influences none is F */
    if (o->coarsen == PC_GPUAMG_COARSEN_PMIS && cf[i] == GPUPC_AMG_C && S.i[i + 1] > S.i[i] && S.ti[i + 1] == S.ti[i]) bad++;
  }
  PetscCall(Fail(PETSC_COMM_WORLD, bad, "an F point depends on points but on no C point (pmis: nor on F points that do), a point is undecided, or (pmis) a point that influences none is C"));
  if (o->coarsen == PC_GPUAMG_COARSEN_RS) {
    for (PetscInt i = 0; i < L.n; i++) {
      if (cf[i] != GPUPC_AMG_F) continue;
      for (PetscInt e = S.i[i]; e < S.i[i + 1]; e++)
        if (cf[S.j[e]] == GPUPC_AMG_C) mark[S.j[e]] = i;
      for (PetscInt e = S.i[i]; e < S.i[i + 1]; e++) {
        PetscInt  j     = S.j[e];
        PetscBool found = PETSC_FALSE;
        if (cf[j] != GPUPC_AMG_F) continue;
        for (PetscInt f = S.i[j]; f < S.i[j + 1]; f++) found = (PetscBool)(found || mark[S.j[f]] == i);
        if (!found) bad++;
      }
    }
    PetscCall(Fail(PETSC_COMM_WORLD, bad, "rs: a strong F-F pair shares no strong C point"));
  }
  PetscCallMPI(MPI_Allreduce(&nc, &gnc, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "splitting %s: %" PetscInt_FMT " of %" PetscInt_FMT " points C, invariants hold\n", PCGPUAMGCoarsenTypes[o->coarsen], gnc, L.N));
  PetscCall(PetscFree2(cf, mark));
  PetscCall(GPUPCAMGStrengthFree(&S));
  PetscCall(GPUPCAMGLocalFree(&L));
  PetscFunctionReturn(0);
}

/* max |M - Id| for a square M */
static PetscErrorCode MaxDiffIdentity(Mat M, PetscReal *err)
{
  Mat Id;

  PetscFunctionBegin;
  PetscCall(MatDuplicate(M, MAT_COPY_VALUES, &Id));
  PetscCall(MatShift(Id, -1.0));
  PetscCall(MatNorm(Id, NORM_INFINITY, err));
  PetscCall(MatDestroy(&Id));
  PetscFunctionReturn(0);
}

/* aggregation: coverage, orthonormal P_tent, P_tent Bc = B on the finest level */
static PetscErrorCode CheckAggregation(Mat A, const GPUPCAMGSetupOptions *o)
{
  GPUPCAMGLocal    L;
  GPUPCAMGStrength S;
  GPUPCAMGLocalP   Pl;
  PetscInt         bs, nv, nagg, *agg, *size, bad = 0, left = 0, gleft;
  PetscReal       *B, *Bc, err, gerr;
  Mat              Pt, PtP;

  PetscFunctionBegin;
  PetscCall(MatGetBlockSize(A, &bs));
  PetscCall(GPUPCAMGNearNullSpace(A, o, &nv, &B));
  PetscCall(GPUPCAMGLocalGet(A, 1, NULL, o->threads, &L));
  PetscCall(GPUPCAMGStrengthAgg(&L, bs, o->agg_threshold, o->threads, &S));
  PetscCall(PetscMalloc1(S.n, &agg));
  PetscCall(GPUPCAMGAggregate(&S, agg, &nagg));
  PetscCall(PetscCalloc1(nagg, &size));
  for (PetscInt i = 0; i < S.n; i++) {
    PetscBool nb = (PetscBool)(S.i[i + 1] > S.i[i] || S.ti[i + 1] > S.ti[i]);
    if (agg[i] >= 0 && agg[i] < nagg) size[agg[i]]++;
    else if (nb || agg[i] != -1) bad++;
    if (agg[i] == -1) left++;
  }
  for (PetscInt i = 0; i < S.n; i++) /* a root and at least one neighbour, or a node coupled to other ranks only */
    if (agg[i] >= 0 && size[agg[i]] < 2 && !(S.ext && S.ext[i] && S.i[i + 1] == S.i[i] && S.ti[i + 1] == S.ti[i])) bad++;
  PetscCall(Fail(PETSC_COMM_WORLD, bad, "aggregation: a node with strong neighbours is not in exactly one aggregate, or an aggregate has fewer than 2 nodes"));
  PetscCall(PetscMalloc1(nagg * nv * nv, &Bc));
  PetscCall(GPUPCAMGTentative(S.n, bs, agg, nagg, nv, B, &Pl, Bc));
  /* P_tent Bc = B on the aggregated rows */
  err = 0.0;
  for (PetscInt r = 0; r < Pl.n; r++) {
    if (agg[r / bs] < 0) continue;
    for (PetscInt k = 0; k < nv; k++) {
      PetscReal s = 0.0;
      for (PetscInt e = Pl.i[r]; e < Pl.i[r + 1]; e++) s += Pl.a[e] * Bc[Pl.j[e] * nv + k];
      err = PetscMax(err, PetscAbsReal(s - B[r * nv + k]));
    }
  }
  PetscCallMPI(MPI_Allreduce(&err, &gerr, 1, MPIU_REAL, MPI_MAX, PETSC_COMM_WORLD));
  PetscCheck(gerr < 1e-10, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "P_tent Bc differs from B by %g", (double)gerr);
  PetscCall(GPUPCAMGLocalPToMat(PETSC_COMM_WORLD, &Pl, bs, nv, o->threads, &Pt));
  PetscCall(MatTransposeMatMult(Pt, Pt, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &PtP));
  PetscCall(MaxDiffIdentity(PtP, &err));
  PetscCheck(err < 1e-10, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "P_tent^T P_tent differs from I by %g", (double)err);
  PetscCallMPI(MPI_Allreduce(&left, &gleft, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "aggregation: %" PetscInt_FMT " near-null vectors, every node with strong neighbours in one aggregate (%" PetscInt_FMT " isolated nodes left out), P_tent orthonormal, P_tent Bc = B\n", nv, gleft));
  PetscCall(MatDestroy(&PtP));
  PetscCall(MatDestroy(&Pt));
  PetscCall(GPUPCAMGLocalPFree(&Pl));
  PetscCall(PetscFree(Bc));
  PetscCall(PetscFree(size));
  PetscCall(PetscFree(agg));
  PetscCall(PetscFree(B));
  PetscCall(GPUPCAMGStrengthFree(&S));
  PetscCall(GPUPCAMGLocalFree(&L));
  PetscFunctionReturn(0);
}

/* every level: the Galerkin product against an explicit one; classical: row sums of P on zero-row-sum rows */
static PetscErrorCode CheckLevels(const GPUPCAMGHierarchy *H, const GPUPCAMGSetupOptions *o)
{
  PetscFunctionBegin;
  for (PetscInt l = 0; l + 1 < H->nlevels; l++) {
    Mat       AP, C;
    PetscReal nrm, dif;
    PetscInt  M, Nc;

    PetscCall(MatMatMult(H->A[l], H->P[l], MAT_INITIAL_MATRIX, PETSC_DEFAULT, &AP));
    PetscCall(MatTransposeMatMult(H->P[l], AP, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &C));
    PetscCall(MatNorm(C, NORM_FROBENIUS, &nrm));
    PetscCall(MatAXPY(C, -1.0, H->A[l + 1], DIFFERENT_NONZERO_PATTERN));
    PetscCall(MatNorm(C, NORM_FROBENIUS, &dif));
    PetscCheck(dif <= 1e-12 * nrm, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "level %" PetscInt_FMT ": P^T A P differs from the explicit product by %g (relative)", l, (double)(dif / nrm));
    PetscCall(MatDestroy(&C));
    PetscCall(MatDestroy(&AP));
    if (o->type == PC_GPUAMG_CLASSICAL) {
      /* P 1 = 1 on the rows of zero row sum whose neighbours within distance 4 have zero row sums too (standard and
         multipass interpolation pass other rows' equations on; Laplacians: M-matrices, so A z < 0 exactly next to the
         support of z >= 0) */
      Vec                one, z, az, p1, onec;
      const PetscScalar *vz, *vp;
      PetscScalar       *w;
      PetscInt           m, bad = 0, checked = 0, gchecked;
      PetscCall(MatCreateVecs(H->A[l], &one, &z));
      PetscCall(VecDuplicate(z, &az));
      PetscCall(MatCreateVecs(H->P[l], &onec, &p1));
      PetscCall(VecSet(one, 1.0));
      PetscCall(VecSet(onec, 1.0));
      PetscCall(MatMult(H->A[l], one, z));
      PetscCall(MatMult(H->P[l], onec, p1));
      PetscCall(VecGetLocalSize(z, &m));
      PetscCall(MatGetDiagonal(H->A[l], one));
      PetscCall(VecGetArray(z, &w));
      {
        const PetscScalar *vd;
        PetscCall(VecGetArrayRead(one, &vd));
        for (PetscInt i = 0; i < m; i++) w[i] = PetscAbsScalar(w[i]) > 1e-12 * PetscAbsScalar(vd[i]) ? 1.0 : 0.0;
        PetscCall(VecRestoreArrayRead(one, &vd));
      }
      PetscCall(VecRestoreArray(z, &w));
      for (PetscInt k = 0; k < 4; k++) {
        const PetscScalar *va;
        PetscCall(MatMult(H->A[l], z, az));
        PetscCall(VecGetArray(z, &w));
        PetscCall(VecGetArrayRead(az, &va));
        for (PetscInt i = 0; i < m; i++)
          if (PetscAbsScalar(va[i]) > 0.0) w[i] = 1.0;
        PetscCall(VecRestoreArrayRead(az, &va));
        PetscCall(VecRestoreArray(z, &w));
      }
      PetscCall(VecGetArrayRead(z, &vz));
      PetscCall(VecGetArrayRead(p1, &vp));
      for (PetscInt i = 0; i < m; i++)
        if (vz[i] == 0.0 && PetscAbsScalar(vp[i]) > 0.0) {
          checked++;
          if (PetscAbsScalar(vp[i] - 1.0) > 1e-10) bad++;
        }
      PetscCall(VecRestoreArrayRead(z, &vz));
      PetscCall(VecRestoreArrayRead(p1, &vp));
      PetscCall(Fail(PETSC_COMM_WORLD, bad, "interpolation row sum differs from 1 on a zero-row-sum row"));
      PetscCallMPI(MPI_Allreduce(&checked, &gchecked, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
      if (l == 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "level 0: interpolation row sums 1 on %" PetscInt_FMT " rows away from nonzero row sums\n", gchecked));
      PetscCall(VecDestroy(&one));
      PetscCall(VecDestroy(&z));
      PetscCall(VecDestroy(&az));
      PetscCall(VecDestroy(&onec));
      PetscCall(VecDestroy(&p1));
    }
    PetscCall(MatGetSize(H->P[l], &M, &Nc));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "P^T A P equals the explicit product on every level\n"));
  PetscFunctionReturn(0);
}

/* CG with PCMG on the hierarchy's P; returns the iterations */
static PetscErrorCode SolveMG(Mat A, Vec b, const GPUPCAMGHierarchy *H, PetscInt *its)
{
  KSP                ksp;
  PC                 pc;
  Vec                x;
  KSPConvergedReason reason;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(b, &x));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOptionsPrefix(ksp, "mg_"));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 200));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCMG));
  PetscCall(PCMGSetLevels(pc, H->nlevels, NULL));
  PetscCall(PCMGSetGalerkin(pc, PC_MG_GALERKIN_BOTH));
  for (PetscInt l = 0; l + 1 < H->nlevels; l++) PetscCall(PCMGSetInterpolation(pc, H->nlevels - 1 - l, H->P[l]));
  for (PetscInt l = 1; l < H->nlevels; l++) {
    KSP smooth;
    PC  spc;
    PetscCall(PCMGGetSmoother(pc, l, &smooth));
    PetscCall(KSPSetType(smooth, KSPRICHARDSON));
    PetscCall(KSPSetTolerances(smooth, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, 1));
    PetscCall(KSPGetPC(smooth, &spc));
    PetscCall(PCSetType(spc, PCSOR));
  }
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "CG with PCMG on the AMG hierarchy did not converge: %s after %" PetscInt_FMT " iterations", KSPConvergedReasons[reason], *its);
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscFunctionReturn(0);
}

/* CG with BoomerAMG: pmis, the same interpolation, P_max, theta; one symmetric-SOR/Jacobi sweep down and up */
static PetscErrorCode SolveHypre(Mat A, Vec b, const GPUPCAMGSetupOptions *o, PetscInt *its)
{
  KSP         ksp;
  PC          pc;
  Vec         x;
  char        val[64];
  const char *interp[] = {"direct", "standard", "ext+i", "multipass", "direct"};

  PetscFunctionBegin;
  PetscCall(PetscOptionsSetValue(NULL, "-hyp_pc_hypre_boomeramg_coarsen_type", o->coarsen == PC_GPUAMG_COARSEN_PMIS ? "PMIS" : (o->coarsen == PC_GPUAMG_COARSEN_HMIS ? "HMIS" : (o->coarsen == PC_GPUAMG_COARSEN_RS ? "Ruge-Stueben" : "CLJP"))));
  PetscCall(PetscOptionsSetValue(NULL, "-hyp_pc_hypre_boomeramg_interp_type", interp[o->interp]));
  PetscCall(PetscSNPrintf(val, sizeof(val), "%" PetscInt_FMT, o->trunc_max));
  PetscCall(PetscOptionsSetValue(NULL, "-hyp_pc_hypre_boomeramg_P_max", val));
  PetscCall(PetscSNPrintf(val, sizeof(val), "%g", (double)o->strong_threshold));
  PetscCall(PetscOptionsSetValue(NULL, "-hyp_pc_hypre_boomeramg_strong_threshold", val));
  PetscCall(PetscSNPrintf(val, sizeof(val), "%" PetscInt_FMT, o->aggressive_levels));
  PetscCall(PetscOptionsSetValue(NULL, "-hyp_pc_hypre_boomeramg_agg_nl", val));
  PetscCall(PetscOptionsSetValue(NULL, "-hyp_pc_hypre_boomeramg_relax_type_all", "symmetric-SOR/Jacobi"));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOptionsPrefix(ksp, "hyp_"));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 200));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCHYPRE));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscFunctionReturn(0);
}

/* CG with GAMG: aggregation with the same threshold and smoothing steps, the same smoother (one SOR sweep) */
static PetscErrorCode SolveGAMG(Mat A, Vec b, const GPUPCAMGSetupOptions *o, PetscInt *its)
{
  KSPConvergedReason reason;
  KSP                ksp;
  PC                 pc;
  Vec                x;
  char               val[64];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(val, sizeof(val), "%g", (double)o->agg_threshold));
  PetscCall(PetscOptionsSetValue(NULL, "-gam_pc_gamg_threshold", val));
  PetscCall(PetscSNPrintf(val, sizeof(val), "%" PetscInt_FMT, o->agg_smooths));
  PetscCall(PetscOptionsSetValue(NULL, "-gam_pc_gamg_agg_nsmooths", val));
  /* GAMG squares the graph on its first level by default; aggressive levels square ours there too */
  if (o->aggressive_levels > 1) {
    PetscCall(PetscSNPrintf(val, sizeof(val), "%" PetscInt_FMT, o->aggressive_levels));
    PetscCall(PetscOptionsSetValue(NULL, "-gam_pc_gamg_square_graph", val));
  }
  PetscCall(PetscOptionsSetValue(NULL, "-gam_mg_levels_ksp_type", "richardson"));
  PetscCall(PetscOptionsSetValue(NULL, "-gam_mg_levels_ksp_max_it", "1"));
  PetscCall(PetscOptionsSetValue(NULL, "-gam_mg_levels_pc_type", "sor"));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOptionsPrefix(ksp, "gam_"));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 400));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCGAMG));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  if (reason <= 0) { /* GAMG failed: counts as more iterations than any */
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "GAMG did not converge (%s)\n", KSPConvergedReasons[reason]));
    *its = PETSC_MAX_INT;
  }
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscFunctionReturn(0);
}

/* GPUPCAMGHierarchyBuild must fail with a message containing expect */
static PetscErrorCode ExpectFailure(Mat A, const GPUPCAMGSetupOptions *o, const char *expect)
{
  GPUPCAMGHierarchy H;
  PetscErrorCode    ierr;
  const char       *text;
  char             *msg = NULL, *found = NULL;

  PetscFunctionBegin;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = GPUPCAMGHierarchyBuild(A, o, &H);
  PetscCall(PetscPopErrorHandler());
  PetscCheck(ierr, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the AMG setup accepted bad input (expected an error containing \"%s\")", expect);
  PetscCall(PetscErrorMessage(ierr, &text, &msg));
  PetscCall(PetscStrstr(msg ? msg : "", expect, &found));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "refused as expected: %s\n", msg ? msg : "(no message)"));
  PetscCheck(found, PETSC_COMM_SELF, PETSC_ERR_PLIB, "error message \"%s\" does not contain \"%s\"", msg ? msg : "", expect);
  PetscCall(GPUPCAMGHierarchyDestroy(&H)); /* what the failed build left */
  PetscFunctionReturn(0);
}

/* bad input: a zero diagonal, a rectangular matrix, bad options */
static PetscErrorCode BadInput(Mat A, const GPUPCAMGSetupOptions *o)
{
  Mat                  B;
  GPUPCAMGSetupOptions ob = *o;
  PetscInt             lo, hi, M, N;

  PetscFunctionBegin;
  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &B));
  PetscCall(MatGetOwnershipRange(B, &lo, &hi));
  if (lo <= 5 && 5 < hi) PetscCall(MatSetValue(B, 5, 5, 0.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  PetscCall(ExpectFailure(B, o, "row 5 of the level 0 matrix has a zero diagonal"));
  PetscCall(MatDestroy(&B));
  PetscCall(MatGetSize(A, &M, &N));
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, M, N + 7, 1, NULL, 1, NULL, &B));
  PetscCall(MatGetOwnershipRange(B, &lo, &hi));
  for (PetscInt r = lo; r < hi; r++) PetscCall(MatSetValue(B, r, r, 2.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  PetscCall(ExpectFailure(B, o, "needs a square matrix"));
  PetscCall(MatDestroy(&B));
  ob.strong_threshold = 1.5;
  PetscCall(ExpectFailure(A, &ob, "-pc_gpuamg_strong_threshold must be in [0, 1)"));
  ob         = *o;
  ob.threads = 0;
  PetscCall(ExpectFailure(A, &ob, "at least one thread"));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Mat                  A;
  Vec                  b;
  GPUPCAMGSetupOptions o;
  GPUPCAMGHierarchy    H;
  char                 problem[64] = "poisson2d";
  PetscInt             n = 32, max_its = 30, its, hits;
  PetscBool            hypre = PETSC_FALSE, gamg = PETSC_FALSE, cmpthreads = PETSC_FALSE, cmpptap = PETSC_FALSE, bad = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage()); /* -mat_type segcsr */
  PetscCall(GPUPCAMGSetupOptionsDefault(&o));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-problem", problem, sizeof(problem), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-max_its", &max_its, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-compare_hypre", &hypre, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-compare_gamg", &gamg, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-bad_input", &bad, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-compare_threads", &cmpthreads, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-compare_ptap", &cmpptap, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-threads", &o.threads, NULL));
  {
    PetscInt t = (PetscInt)o.type, c = (PetscInt)o.coarsen, ip = (PetscInt)o.interp;
    PetscCall(PetscOptionsGetEList(NULL, NULL, "-amg_type", PCGPUAMGTypes, 2, &t, NULL));
    PetscCall(PetscOptionsGetEList(NULL, NULL, "-amg_coarsen", PCGPUAMGCoarsenTypes, 4, &c, NULL));
    PetscCall(PetscOptionsGetEList(NULL, NULL, "-amg_interp", PCGPUAMGInterpTypes, 5, &ip, NULL));
    o.type    = (PCGPUAMGType)t;
    o.coarsen = (PCGPUAMGCoarsenType)c;
    o.interp  = (PCGPUAMGInterpType)ip;
  }
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-amg_theta", &o.strong_threshold, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-amg_agg_eps", &o.agg_threshold, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-amg_aggressive", &o.aggressive_levels, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-amg_trunc_max", &o.trunc_max, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-amg_trunc_factor", &o.trunc_factor, NULL));
  PetscCall(PetscOptionsGetEnum(NULL, NULL, "-amg_trunc_rescale", PCGPUAMGTruncRescales, (PetscEnum *)&o.trunc_rescale, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-amg_smooths", &o.agg_smooths, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-amg_max_coarse", &o.max_coarse, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-amg_max_levels", &o.max_levels, NULL));

  PetscCall(GPUPCProblemCreate(PETSC_COMM_WORLD, problem, n, 1, &A, &b));
  if (bad) PetscCall(BadInput(A, &o));
  if (o.type == PC_GPUAMG_CLASSICAL) PetscCall(CheckSplitting(A, &o));
  else PetscCall(CheckAggregation(A, &o));

  PetscCall(GPUPCAMGHierarchyBuild(A, &o, &H));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %" PetscInt_FMT " levels:", problem, H.nlevels));
  for (PetscInt l = 0; l < H.nlevels; l++) {
    PetscInt M;
    PetscCall(MatGetSize(H.A[l], &M, NULL));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %" PetscInt_FMT, M));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
  PetscCheck(H.nlevels >= 2, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the hierarchy has only one level");
  PetscCall(CheckLevels(&H, &o));

  if (cmpptap) { /* the setup's own product (one rank) against PETSc's MatPtAP, bit for bit */
    for (PetscInt l = 0; l + 1 < H.nlevels; l++) {
      Mat       C;
      PetscBool eq;
      PetscCall(MatPtAP(H.A[l], H.P[l], MAT_INITIAL_MATRIX, 2.0, &C));
      PetscCall(MatEqual(C, H.A[l + 1], &eq));
      PetscCheck(eq, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "level %" PetscInt_FMT ": the Galerkin product differs from MatPtAP", l);
      PetscCall(MatDestroy(&C));
      PetscCheck(H.R && H.R[l], PETSC_COMM_WORLD, PETSC_ERR_PLIB, "level %" PetscInt_FMT ": the setup kept no R = P^T", l);
      PetscCall(MatTranspose(H.P[l], MAT_INITIAL_MATRIX, &C));
      PetscCall(MatEqual(C, H.R[l], &eq));
      PetscCheck(eq, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "level %" PetscInt_FMT ": the setup's R differs from P^T", l);
      PetscCall(MatDestroy(&C));
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "the Galerkin products equal MatPtAP's and R = P^T on every level\n"));
  }

  if (cmpthreads) { /* the same hierarchy with one thread, bit for bit */
    GPUPCAMGSetupOptions o1 = o;
    GPUPCAMGHierarchy    H1;
    o1.threads = 1;
    PetscCall(GPUPCAMGHierarchyBuild(A, &o1, &H1));
    PetscCheck(H1.nlevels == H.nlevels, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "one thread gives %" PetscInt_FMT " levels, %" PetscInt_FMT " threads %" PetscInt_FMT, H1.nlevels, o.threads, H.nlevels);
    for (PetscInt l = 0; l + 1 < H.nlevels; l++) {
      PetscBool eq;
      PetscCall(MatEqual(H.P[l], H1.P[l], &eq));
      PetscCheck(eq, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "level %" PetscInt_FMT ": P with %" PetscInt_FMT " threads differs from P with one", l, o.threads);
    }
    PetscCall(GPUPCAMGHierarchyDestroy(&H1));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT " threads and one thread give the same prolongators\n", o.threads));
  }

  PetscCall(SolveMG(A, b, &H, &its));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "CG + PCMG on the hierarchy: %" PetscInt_FMT " iterations (at most %" PetscInt_FMT ")\n", its, max_its));
  PetscCheck(its <= max_its, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "%" PetscInt_FMT " iterations > -max_its %" PetscInt_FMT, its, max_its);
  if (hypre) {
    PetscCall(SolveHypre(A, b, &o, &hits));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "BoomerAMG with matching settings: %" PetscInt_FMT " iterations\n", hits));
    PetscCheck(its <= (PetscInt)PetscCeilReal(1.15 * hits), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%" PetscInt_FMT " iterations > 1.15 x BoomerAMG's %" PetscInt_FMT, its, hits);
  }

  if (gamg) {
    PetscCall(SolveGAMG(A, b, &o, &hits));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "GAMG with matching settings: %" PetscInt_FMT " iterations\n", hits));
    PetscCheck(its <= hits, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%" PetscInt_FMT " iterations > GAMG's %" PetscInt_FMT, its, hits);
  }
  { /* recompute on new values (A scaled by 2 plus a diagonal shift) equals a fresh build's Galerkin products */
    GPUPCAMGHierarchy H2;
    PetscCall(MatScale(A, 2.0));
    PetscCall(MatShift(A, 0.5));
    PetscCall(GPUPCAMGHierarchyRecompute(A, &H));
    PetscCall(CheckLevels(&H, &o));
    (void)H2;
  }
  PetscCall(GPUPCAMGHierarchyDestroy(&H));
  PetscCall(MatDestroy(&A));
  PetscCall(VecDestroy(&b));
  PetscCall(PetscFinalize());
  return 0;
}

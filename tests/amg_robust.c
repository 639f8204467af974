static const char help[] = "PC gpuamg robustness (issue 34): every coarsening x interpolation x truncation of classical AMG and\n"
                           "aggregation with each smoother, on a built-in problem. For each setting: CG (rtol 1e-8) converges\n"
                           "within -cg_maxits; KSPRICHARDSON with the V-cycle (rtol 1e-6) converges within -rich_maxits (the\n"
                           "settings tested are convergent ones); on scalar problems with classical AMG every level's P has row\n"
                           "sums 1 on the rows at least -rowsum_steps graph steps away from rows of A_l with a nonzero row sum.\n"
                           "Options: -problem <poisson3d> -n <100000> -type <classical,agg> -coarsens <rs,...> -interps <standard,...>\n"
                           "-truncs <4,0> (trunc_max values) -smoothers <l1jacobi,...> -cg_maxits <20> -rich_maxits <30>\n"
                           "-richardson <1> -rowsum_steps <2> (0: no row-sum check); other -pc_gpuamg_ options apply to every setting.\n";

#include <petscksp.h>
#include <gpupc/amgcycle.h>
#include <gpupc/problems.h>

#define MAXLIST 8

/* a copy of A with every stored entry 1 (the graph of A, for distances) */
static PetscErrorCode PatternOnes(Mat A, Mat *B)
{
  Mat       blocks[2] = {NULL, NULL};
  PetscBool mpi;

  PetscFunctionBegin;
  PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, B)); /* the setup's levels may be a GPU type by now */
  PetscCall(PetscObjectTypeCompare((PetscObject)*B, MATMPIAIJ, &mpi));
  if (mpi) PetscCall(MatMPIAIJGetSeqAIJ(*B, &blocks[0], &blocks[1], NULL));
  else blocks[0] = *B;
  for (PetscInt k = 0; k < 2; k++) {
    PetscScalar *a;
    PetscInt     nz;
    MatInfo      info;

    if (!blocks[k]) continue;
    PetscCall(MatGetInfo(blocks[k], MAT_LOCAL, &info));
    nz = (PetscInt)info.nz_used;
    PetscCall(MatSeqAIJGetArray(blocks[k], &a));
    for (PetscInt i = 0; i < nz; i++) a[i] = 1.0;
    PetscCall(MatSeqAIJRestoreArray(blocks[k], &a));
  }
  PetscFunctionReturn(0);
}

/* the largest |row sum of P_l - 1| over the rows of every level that are at least steps graph steps of A_l away from
   a row of A_l with a nonzero row sum or (several ranks) with couplings to another rank: the interpolation is
   rank-local, so a row whose strong C neighbours all lie on another rank has an empty row; *checked: how many rows */
static PetscErrorCode RowSumError(const GPUPCAMGHierarchy *H, PetscInt steps, PetscReal *err, PetscInt *checked)
{
  PetscFunctionBegin;
  *err     = 0;
  *checked = 0;
  for (PetscInt l = 0; l + 1 < H->nlevels; l++) {
    Mat                B;
    Vec                rs, near, next, ps;
    const PetscScalar *r, *m, *p;
    PetscScalar       *q;
    PetscInt           n, cnt = 0, gcnt;
    PetscReal          e = 0, ge, anorm;

    PetscCall(MatCreateVecs(H->A[l], &near, &rs));
    PetscCall(VecDuplicate(near, &next));
    PetscCall(MatCreateVecs(H->P[l], NULL, &ps));
    PetscCall(MatGetRowSum(H->A[l], rs));
    PetscCall(MatNorm(H->A[l], NORM_INFINITY, &anorm));
    PetscCall(VecGetLocalSize(rs, &n));
    PetscCall(VecGetArrayRead(rs, &r));
    PetscCall(VecGetArrayWrite(near, &q));
    for (PetscInt i = 0; i < n; i++) q[i] = PetscAbsScalar(r[i]) > 1e-10 * anorm ? 1.0 : 0.0;
    PetscCall(VecRestoreArrayRead(rs, &r));
    PetscCall(PatternOnes(H->A[l], &B));
    {
      PetscBool mpi;
      Mat       Ao;

      PetscCall(PetscObjectTypeCompare((PetscObject)B, MATMPIAIJ, &mpi));
      if (mpi) {
        PetscCall(MatMPIAIJGetSeqAIJ(B, NULL, &Ao, NULL));
        for (PetscInt i = 0; i < n; i++) {
          PetscInt nc;
          PetscCall(MatGetRow(Ao, i, &nc, NULL, NULL));
          if (nc > 0) q[i] = 1.0;
          PetscCall(MatRestoreRow(Ao, i, &nc, NULL, NULL));
        }
      }
    }
    PetscCall(VecRestoreArrayWrite(near, &q));
    for (PetscInt s = 0; s < steps; s++) { /* near = rows within s+1 steps */
      PetscCall(MatMult(B, near, next));
      PetscCall(VecCopy(next, near));
    }
    PetscCall(MatGetRowSum(H->P[l], ps));
    PetscCall(VecGetArrayRead(near, &m));
    PetscCall(VecGetArrayRead(ps, &p));
    for (PetscInt i = 0; i < n; i++)
      if (PetscRealPart(m[i]) == 0.0) {
        e = PetscMax(e, PetscAbsScalar(p[i] - 1.0));
        cnt++;
      }
    PetscCall(VecRestoreArrayRead(ps, &p));
    PetscCall(VecRestoreArrayRead(near, &m));
    PetscCall(MPIU_Allreduce(&e, &ge, 1, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)B)));
    PetscCall(MPIU_Allreduce(&cnt, &gcnt, 1, MPIU_INT, MPI_SUM, PetscObjectComm((PetscObject)B)));
    *err = PetscMax(*err, ge);
    *checked += gcnt;
    PetscCall(MatDestroy(&B));
    PetscCall(VecDestroy(&rs));
    PetscCall(VecDestroy(&near));
    PetscCall(VecDestroy(&next));
    PetscCall(VecDestroy(&ps));
  }
  PetscFunctionReturn(0);
}

/* *v = the value of name in the enum names (opt: the option that listed it), appended to what */
static PetscErrorCode Pick(const char *const *names, const char *name, const char *opt, char *what, size_t len, PetscEnum *v)
{
  PetscBool found;

  PetscFunctionBegin;
  PetscCall(PetscEnumFind(names, name, v, &found));
  PetscCheck(found, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "%s: unknown value %s", opt, name);
  PetscCall(PetscStrlcat(what, " ", len));
  PetscCall(PetscStrlcat(what, name, len));
  PetscFunctionReturn(0);
}

/* one solve with the setting on pc's KSP; returns the iterations, fails when it does not converge within maxits */
static PetscErrorCode Solve(KSP ksp, KSPType type, PetscReal rtol, PetscInt maxits, Vec b, const char *what, PetscInt *its)
{
  Vec                x;
  KSPConvergedReason reason;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(b, &x));
  PetscCall(KSPSetType(ksp, type));
  PetscCall(KSPSetTolerances(ksp, rtol, PETSC_DEFAULT, PETSC_DEFAULT, maxits));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "%s: %s did not converge to rtol %g in %" PetscInt_FMT " iterations: %s after %" PetscInt_FMT, what, type, (double)rtol, maxits, KSPConvergedReasons[reason], *its);
  PetscCall(VecDestroy(&x));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char         problem[64] = "poisson3d", *coarsens[MAXLIST], *interps[MAXLIST], *smoothers[MAXLIST];
  PetscInt     n = 100000, truncs[MAXLIST] = {4, 0}, nc = MAXLIST, ni = MAXLIST, nt = 2, ns = MAXLIST, cgmax = 20, richmax = 30, steps = 2, bs, settings = 0;
  PCGPUAMGType type       = PC_GPUAMG_CLASSICAL;
  PetscBool    richardson = PETSC_TRUE, set;
  Mat          A;
  Vec          b;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-problem", problem, sizeof(problem), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetEnum(NULL, NULL, "-type", PCGPUAMGTypes, (PetscEnum *)&type, NULL));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-coarsens", coarsens, &nc, &set));
  if (!set) nc = 0;
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-interps", interps, &ni, &set));
  if (!set) ni = 0;
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-smoothers", smoothers, &ns, &set));
  if (!set) ns = 0;
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-truncs", truncs, &nt, &set));
  if (!set) nt = 2;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-cg_maxits", &cgmax, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-rich_maxits", &richmax, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-rowsum_steps", &steps, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-richardson", &richardson, NULL));
  PetscCheck(type == PC_GPUAMG_AGG || nc > 0, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "classical AMG needs -coarsens (a list of rs, cljp, pmis, hmis)");

  PetscCall(GPUPCProblemCreate(PETSC_COMM_WORLD, problem, n, 1, &A, &b));
  PetscCall(MatGetBlockSize(A, &bs));
  {
    PetscInt N;
    PetscCall(MatGetSize(A, &N, NULL));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %" PetscInt_FMT " rows, block size %" PetscInt_FMT ", %s AMG\n", problem, N, bs, PCGPUAMGTypes[type]));
  }
  /* the settings: classical: coarsening x interpolation x truncation (default smoother, or each of -smoothers);
     agg: each smoother */
  for (PetscInt c = 0; c < PetscMax(nc, 1); c++)
    for (PetscInt i = 0; i < PetscMax(ni, 1); i++)
      for (PetscInt t = 0; t < (type == PC_GPUAMG_CLASSICAL ? nt : 1); t++)
        for (PetscInt s = 0; s < PetscMax(ns, 1); s++) {
          KSP            ksp;
          PC             pc;
          PC_GPUAMG     *g;
          char           what[256];
          PetscInt       cgits, richits = -1, checked = 0;
          PetscReal      err = 0;
          PetscLogDouble t0, t1;

          PetscCall(PetscTime(&t0));
          PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
          PetscCall(KSPSetOperators(ksp, A, A));
          PetscCall(KSPGetPC(ksp, &pc));
          PetscCall(PCSetType(pc, PCGPUAMG));
          PetscCall(KSPSetFromOptions(ksp));
          PetscCall(PCGPUAMGSetType(pc, type));
          PetscCall(PCGPUAMGSetKeepHostLevels(pc, PETSC_TRUE)); /* RowSumError reads the host prolongators */
          PetscCall(PetscSNPrintf(what, sizeof(what), "%s", PCGPUAMGTypes[type]));
          if (nc) {
            PetscEnum v;
            PetscCall(Pick(PCGPUAMGCoarsenTypes, coarsens[c], "-coarsens", what, sizeof(what), &v));
            PetscCall(PCGPUAMGSetCoarsenType(pc, (PCGPUAMGCoarsenType)v));
          }
          if (ni) {
            PetscEnum v;
            PetscCall(Pick(PCGPUAMGInterpTypes, interps[i], "-interps", what, sizeof(what), &v));
            PetscCall(PCGPUAMGSetInterpType(pc, (PCGPUAMGInterpType)v));
          }
          if (type == PC_GPUAMG_CLASSICAL) {
            char tr[32];
            PetscCall(PCGPUAMGSetTruncMax(pc, truncs[t]));
            PetscCall(PetscSNPrintf(tr, sizeof(tr), " trunc_max %" PetscInt_FMT, truncs[t]));
            PetscCall(PetscStrlcat(what, tr, sizeof(what)));
          }
          if (ns) {
            PetscCall(PCGPUAMGSetSmoother(pc, smoothers[s]));
            PetscCall(PetscStrlcat(what, " ", sizeof(what)));
            PetscCall(PetscStrlcat(what, smoothers[s], sizeof(what)));
          }
          PetscCall(KSPSetUp(ksp));
          PetscCall(Solve(ksp, KSPCG, 1e-8, cgmax, b, what, &cgits));
          if (richardson) PetscCall(Solve(ksp, KSPRICHARDSON, 1e-6, richmax, b, what, &richits));
          g = (PC_GPUAMG *)pc->data;
          if (type == PC_GPUAMG_CLASSICAL && bs == 1 && steps > 0) {
            PetscCall(RowSumError(&g->hier, steps, &err, &checked));
            PetscCheck(err <= 1e-10, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: a row of P more than %" PetscInt_FMT " steps from rows with nonzero row sum sums to 1 +- %g", what, steps, (double)err);
            PetscCheck(checked > 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: no row of P was far enough from the boundary to check its row sum", what);
          }
          PetscCall(PetscTime(&t1));
          PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-40s levels %2" PetscInt_FMT " op.compl. %5.2f  CG %3" PetscInt_FMT "  Richardson %3" PetscInt_FMT "  P row sums checked on %" PetscInt_FMT " rows%s  (%.1f s)\n", what, g->hier.nlevels, (double)g->dev.opcomplexity, cgits, richits, checked, checked ? " (1 within 1e-10)" : "", t1 - t0));
          PetscCall(KSPDestroy(&ksp));
          settings++;
        }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT " settings converged\n", settings));
  for (PetscInt c = 0; c < nc; c++) PetscCall(PetscFree(coarsens[c]));
  for (PetscInt i = 0; i < ni; i++) PetscCall(PetscFree(interps[i]));
  for (PetscInt s = 0; s < ns; s++) PetscCall(PetscFree(smoothers[s]));
  PetscCall(MatDestroy(&A));
  PetscCall(VecDestroy(&b));
  PetscCall(PetscFinalize());
  return 0;
}

static const char help[] = "Two KSPs on the same 2D/3D convection-diffusion operator, one with options prefix ref_ (PETSc's own\n"
                           "preconditioner, e.g. -ref_pc_type ilu) and one with prefix tassl_ (e.g. -tassl_pc_type tasslilu):\n"
                           "their preconditioners applied to random vectors (and, with -transpose, transposed) must agree to\n"
                           "rounding, and the solves must take the same iterations (within -its_diff) to the same solution.\n"
                           "With -refactor the matrix values change (same pattern) and both are compared again; the TASSL\n"
                           "schedule must be kept (PCTASSLILUGetInfo before and after).\n"
                           "  -dim 2|3 -n <grid points per side> -convection <c> -mat_type <type of the operator>\n";

#include "gpupctest.h"
#include <petscksp.h>

/* the PC, or the first sub-PC under bjacobi/asm, that is a tasslilu (NULL if none) */
static PetscErrorCode FindTassl(KSP ksp, PC *tpc)
{
  PC        pc;
  PetscBool is;

  PetscFunctionBegin;
  *tpc = NULL;
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCTASSLILU, &is));
  if (is) *tpc = pc;
  else {
    PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCBJACOBI, &is));
    if (is) {
      KSP     *sub;
      PetscInt nl;
      PetscCall(PCBJacobiGetSubKSP(pc, &nl, NULL, &sub));
      if (nl == 1) {
        PC sp;
        PetscCall(KSPGetPC(sub[0], &sp));
        PetscCall(PetscObjectTypeCompare((PetscObject)sp, PCTASSLILU, &is));
        if (is) *tpc = sp;
      }
    }
  }
  PetscFunctionReturn(0);
}

/* how often the events TASSLSymbolic, TASSLAnalysis and TASSLNumeric ran (main stage) */
static PetscErrorCode EventCounts(PetscInt cnt[3])
{
  const char *names[] = {"TASSLSymbolic", "TASSLAnalysis", "TASSLNumeric"};

  PetscFunctionBegin;
  for (int k = 0; k < 3; k++) {
    PetscLogEvent      e;
    PetscEventPerfInfo info;
    PetscCall(PetscLogEventGetId(names[k], &e));
    PetscCall(PetscLogEventGetPerfInfo(0, e, &info));
    cnt[k] = info.count;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode ComparePC(KSP ref, KSP tas, Vec x, PetscBool transpose, PetscReal tol, const char *when)
{
  PC        pr, pt;
  Vec       yr, yt;
  PetscReal nr, nd;

  PetscFunctionBegin;
  PetscCall(KSPGetPC(ref, &pr));
  PetscCall(KSPGetPC(tas, &pt));
  PetscCall(VecDuplicate(x, &yr));
  PetscCall(VecDuplicate(x, &yt));
  for (int t = 0; t < (transpose ? 2 : 1); t++) {
    if (t) {
      PetscCall(PCApplyTranspose(pr, x, yr));
      PetscCall(PCApplyTranspose(pt, x, yt));
    } else {
      PetscCall(PCApply(pr, x, yr));
      PetscCall(PCApply(pt, x, yt));
    }
    PetscCall(VecNorm(yr, NORM_INFINITY, &nr));
    PetscCall(VecAXPY(yt, -1.0, yr));
    PetscCall(VecNorm(yt, NORM_INFINITY, &nd));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: PCApply%s differs from the reference by %.2e relative\n", when, t ? "Transpose" : "", (double)(nd / nr)));
    PetscCheck(nd <= tol * nr, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: PCApply%s of the tassl_ PC differs from the ref_ PC by %g (relative %g, tolerance %g)", when, t ? "Transpose" : "", (double)nd, (double)(nd / nr), (double)tol);
  }
  PetscCall(VecDestroy(&yr));
  PetscCall(VecDestroy(&yt));
  PetscFunctionReturn(0);
}

static PetscErrorCode CompareSolve(KSP ref, KSP tas, Vec b, PetscInt itsdiff, const char *when)
{
  Vec                xr, xt;
  PetscInt           ir, it;
  KSPConvergedReason cr, ct;
  PetscReal          nr, nd;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(b, &xr));
  PetscCall(VecDuplicate(b, &xt));
  PetscCall(KSPSolve(ref, b, xr));
  PetscCall(KSPSolve(tas, b, xt));
  PetscCall(KSPGetIterationNumber(ref, &ir));
  PetscCall(KSPGetIterationNumber(tas, &it));
  PetscCall(KSPGetConvergedReason(ref, &cr));
  PetscCall(KSPGetConvergedReason(tas, &ct));
  PetscCall(VecNorm(xr, NORM_2, &nr));
  PetscCall(VecAXPY(xt, -1.0, xr));
  PetscCall(VecNorm(xt, NORM_2, &nd));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: ref_ %" PetscInt_FMT " iterations (%s), tassl_ %" PetscInt_FMT " iterations (%s), solutions differ by %.2e relative\n", when, ir, KSPConvergedReasons[cr], it, KSPConvergedReasons[ct], (double)(nd / nr)));
  PetscCheck(cr > 0 && ct > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "%s: a solve did not converge (ref_ %s, tassl_ %s)", when, KSPConvergedReasons[cr], KSPConvergedReasons[ct]);
  PetscCheck(PetscAbs(ir - it) <= itsdiff, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: ref_ took %" PetscInt_FMT " iterations, tassl_ %" PetscInt_FMT " (allowed difference %" PetscInt_FMT ")", when, ir, it, itsdiff);
  PetscCheck(nd <= 1e-5 * nr, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: solutions differ by %g relative", when, (double)(nd / nr));
  PetscCall(VecDestroy(&xr));
  PetscCall(VecDestroy(&xt));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt    dim = 2, n = 32, itsdiff = 0;
  PetscReal   conv = 0.3, tol = 1e-10;
  PetscBool   transpose = PETSC_FALSE, refactor = PETSC_FALSE;
  char        mtype[64] = MATAIJ;
  Mat         A;
  KSP         ref, tas;
  Vec         x, b;
  PetscRandom rnd;
  PC          tpc;
  size_t      mem0, mem1;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscLogDefaultBegin()); /* event counts: a refactorization must not redo the symbolic factor or the analysis */
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dim", &dim, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-its_diff", &itsdiff, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-convection", &conv, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-transpose", &transpose, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-refactor", &refactor, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_type", mtype, sizeof(mtype), NULL));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem0));
  PetscCall(TestGridOperator(dim, n, conv, mtype, &A));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(VecSetRandom(b, rnd));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ref));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &tas));
  PetscCall(KSPSetOptionsPrefix(ref, "ref_"));
  PetscCall(KSPSetOptionsPrefix(tas, "tassl_"));
  PetscCall(KSPSetOperators(ref, A, A));
  PetscCall(KSPSetOperators(tas, A, A));
  PetscCall(KSPSetTolerances(ref, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 500));
  PetscCall(KSPSetTolerances(tas, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 500));
  PetscCall(KSPSetFromOptions(ref));
  PetscCall(KSPSetFromOptions(tas));
  PetscCall(KSPSetUp(ref));
  PetscCall(KSPSetUp(tas));
  PetscCall(ComparePC(ref, tas, x, transpose, tol, "setup"));
  PetscCall(CompareSolve(ref, tas, b, itsdiff, "solve"));
  if (refactor) {
    PetscInt  info0[4], info1[4], ev0[3], ev1[3];
    PetscReal C0, C1;
    PetscCall(FindTassl(tas, &tpc));
    PetscCheck(tpc, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-refactor needs a tasslilu PC under tassl_ (directly or under bjacobi)");
    PetscCall(PCTASSLILUGetInfo(tpc, &info0[0], &info0[1], &info0[2], &info0[3], &C0));
    PetscCall(EventCounts(ev0));
    /* new values, same pattern: more convection and a shifted diagonal */
    PetscCall(MatScale(A, 0.5));
    PetscCall(MatShift(A, 0.7));
    PetscCall(KSPSetOperators(ref, A, A));
    PetscCall(KSPSetOperators(tas, A, A));
    PetscCall(KSPSetUp(ref));
    PetscCall(KSPSetUp(tas));
    PetscCall(ComparePC(ref, tas, x, transpose, tol, "refactored"));
    /* after an application: under bjacobi the sub-PC is set up at its first use */
    PetscCall(PCTASSLILUGetInfo(tpc, &info1[0], &info1[1], &info1[2], &info1[3], &C1));
    PetscCall(EventCounts(ev1));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "refactorization: symbolic %" PetscInt_FMT " -> %" PetscInt_FMT ", analysis %" PetscInt_FMT " -> %" PetscInt_FMT ", numeric %" PetscInt_FMT " -> %" PetscInt_FMT "\n", ev0[0], ev1[0], ev0[1], ev1[1], ev0[2], ev1[2]));
    PetscCheck(ev1[0] == ev0[0] && ev1[1] == ev0[1] && ev1[2] == ev0[2] + 1, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "a refactorization with the same pattern ran the symbolic factorization %" PetscInt_FMT " times, the analysis %" PetscInt_FMT " times and the numeric one %" PetscInt_FMT " times (expected 0, 0, 1)", ev1[0] - ev0[0], ev1[1] - ev0[1], ev1[2] - ev0[2]);
    for (int k = 0; k < 4; k++) PetscCheck(info0[k] == info1[k], PETSC_COMM_WORLD, PETSC_ERR_PLIB, "refactorization changed the TASSL schedule (item %d: %" PetscInt_FMT " -> %" PetscInt_FMT ")", k, info0[k], info1[k]);
    PetscCall(CompareSolve(ref, tas, b, itsdiff, "refactored"));
  }
  PetscCall(KSPDestroy(&ref));
  PetscCall(KSPDestroy(&tas));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem1));
  PetscCheck(mem0 == mem1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "device memory in use went from %zu to %zu bytes", mem0, mem1);
  PetscCall(PetscFinalize());
  return 0;
}

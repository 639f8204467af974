static const char help[] = "PCG with PC cmg on SDD test matrices (see cmgtest.h for -problem, -ground, -dim, -n, -spread, -positive).\n"
                           "  -max_its <k> : fail if CG needs more iterations to reach -ksp_rtol (1e-8)\n"
                           "  -reuse       : solve again after changing values (SAME_NONZERO_PATTERN: clustering kept)\n"
                           "  -convert <type> : convert the AIJ test matrix to this type first (cmg reads other types row by row)\n"
                           "Checks: convergence, iteration bound, true residual, device memory returned.\n";

#include <petsc/private/pcimpl.h>
#include <gpupc/cmg.h>
#include "cmgtest.h"
#include "testcases.h"
#include "gpupctest.h"

static PetscErrorCode SolveOnce(KSP ksp, Mat A, PetscBool floating, PetscInt max_its, const char *what)
{
  Vec                x, b, xtrue, r;
  PetscInt           its;
  KSPConvergedReason reason;
  PetscReal          rn, bn;
  PetscRandom        rnd;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(x, &xtrue));
  PetscCall(VecDuplicate(x, &r));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 17));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(xtrue, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(MatMult(A, xtrue, b)); /* consistent also for a floating Laplacian */
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAXPY(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rn));
  PetscCall(VecNorm(b, NORM_2, &bn));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %" PetscInt_FMT " iterations (%s), true relative residual %.3e\n", what, its, KSPConvergedReasons[reason], (double)(rn / bn)));
  PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "%s: CG with cmg did not converge: %s after %" PetscInt_FMT " iterations", what, KSPConvergedReasons[reason], its);
  PetscCheck(its <= max_its, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "%s: CG with cmg needed %" PetscInt_FMT " iterations, more than the bound %" PetscInt_FMT, what, its, max_its);
  PetscCheck(rn <= 1e-6 * bn, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: true relative residual %g too large", what, (double)(rn / bn));
  (void)floating;
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&xtrue));
  PetscCall(VecDestroy(&r));
  PetscFunctionReturn(0);
}

/* one test case on the options of the current database (tests/testcases.h) */
static PetscErrorCode RunCase(void)
{
  CMGTestProblem p;
  Mat            A;
  KSP            ksp;
  PC             pc;
  PetscInt       max_its = 60;
  PetscBool      reuse   = PETSC_FALSE, floating, iscmg, convert;
  char           type[256];
  size_t         mem0, mem1;
  MatNullSpace   nsp = NULL;

  PetscFunctionBegin;
  PetscCall(CMGTestGetProblem(&p));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-max_its", &max_its, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-reuse", &reuse, NULL));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem0));
  PetscCall(CMGTestMatrix(&p, &A));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-convert", type, sizeof(type), &convert));
  if (convert) PetscCall(MatConvert(A, type, MAT_INPLACE_MATRIX, &A));
  PetscCall(PetscStrcmp(p.ground, "none", &floating));
  if (floating) {
    PetscCall(MatNullSpaceCreate(PETSC_COMM_WORLD, PETSC_TRUE, 0, NULL, &nsp));
    PetscCall(MatSetNullSpace(A, nsp));
  }
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCCMG));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(SolveOnce(ksp, A, floating, max_its, "first solve"));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCCMG, &iscmg));
  if (reuse) {
    PetscInt nl0, nl1;
    if (iscmg) PetscCall(PCCMGGetNumberOfLevels(pc, &nl0));
    PetscCall(MatScale(A, 3.0)); /* values change, pattern and signs kept: the clustering is reused */
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(SolveOnce(ksp, A, floating, max_its, "after new values (same pattern)"));
    if (iscmg) {
      PetscCall(PCCMGGetNumberOfLevels(pc, &nl1));
      PetscCheck(nl0 == nl1, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "value-only setup changed the number of levels from %" PetscInt_FMT " to %" PetscInt_FMT, nl0, nl1);
      PetscCheck(((PC_CMG *)pc->data)->nreuses == 1, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "SAME_NONZERO_PATTERN did not reuse the clustering (%" PetscInt_FMT " reuses)", ((PC_CMG *)pc->data)->nreuses);
    }
    /* a shift makes every row strictly dominant: same pattern, but the reduced Laplacian changes (new ground edges), so cmg rebuilds */
    PetscCall(MatShift(A, 0.25));
    if (floating) PetscCall(MatSetNullSpace(A, NULL)); /* no longer singular */
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(SolveOnce(ksp, A, floating, max_its, "after a shift (same pattern, new ground edges)"));
    if (iscmg) {
      PC_CMG *cmg = (PC_CMG *)pc->data;
      PetscCheck(cmg->nreuses == 1 && cmg->nsetups == 3, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "expected a full rebuild after the shift: %" PetscInt_FMT " setups, %" PetscInt_FMT " reuses", cmg->nsetups, cmg->nreuses);
    }
  }
  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatNullSpaceDestroy(&nsp));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem1));
  PetscCheck(mem0 == mem1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "device memory in use went from %zu to %zu bytes", mem0, mem1);
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  return TestCasesMain(argc, argv, help, RunCase);
}

static const char help[] = "KSP on a 2D/3D Laplacian with gpu vectors against the same solve with standard vectors.\n"
                           "  -dim <2,3> -n <points per direction>; KSP and PC from the options.\n"
                           "  -its_tolerance <k>, -its_rtol <r>: iteration counts may differ by max(k, r * its) (for\n"
                           "   rounding-sensitive methods such as bcgs, whose iterates drift apart when the GPU's\n"
                           "   reductions sum in another order; default 0: counts must match)\n"
                           "Checks: same iteration count, same converged reason, solutions agree, true residual small.\n";

#include <petscksp.h>
#include <petscgpupc.h>
#include <gpupc/device.h>
#include "gpupctest.h"
#include "testcases.h"

static PetscErrorCode Solve(Mat A, VecType vtype, Vec bref, Vec *x, PetscInt *its, KSPConvergedReason *reason)
{
  KSP ksp;
  Vec b;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, x, NULL));
  PetscCall(VecSetType(*x, vtype));
  PetscCall(VecDuplicate(*x, &b));
  PetscCall(VecCopy(bref, b));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 2000));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, *x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, reason));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&b));
  PetscFunctionReturn(0);
}

/* one test case on the options of the current database (tests/testcases.h) */
static PetscErrorCode RunCase(void)
{
  PetscInt           dim = 2, n = 32, its_g, its_s, its_tol = 0;
  PetscReal          its_rtol = 0.0;
  KSPConvergedReason rg, rs;
  Mat                A;
  Vec                b, xg, xs, r;
  PetscReal          rn, bn;
  PetscRandom        rnd;
  size_t             mem0, mem1;
  KSPType            ktype;
  KSP                probe;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dim", &dim, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-its_tolerance", &its_tol, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-its_rtol", &its_rtol, NULL));
  PetscCheck(dim == 2 || dim == 3, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-dim must be 2 or 3");
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem0));
  PetscCall(TestGridOperator(dim, n, 0.0, MATAIJ, &A));
  PetscCall(MatCreateVecs(A, NULL, &b));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(VecSetRandom(b, rnd));
  PetscCall(PetscRandomDestroy(&rnd));

  PetscCall(Solve(A, VECGPU, b, &xg, &its_g, &rg));
  PetscCall(Solve(A, VECSTANDARD, b, &xs, &its_s, &rs));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &probe));
  PetscCall(KSPSetFromOptions(probe));
  PetscCall(KSPGetType(probe, &ktype));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "ksp %s dim %" PetscInt_FMT " n %" PetscInt_FMT ": gpu vectors %" PetscInt_FMT " its (%s), standard vectors %" PetscInt_FMT " its (%s)\n", ktype, dim, n, its_g, KSPConvergedReasons[rg], its_s, KSPConvergedReasons[rs]));
  PetscCall(KSPDestroy(&probe));
  PetscCheck(rg > 0 && rs > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "a solve did not converge: gpu %s, standard %s", KSPConvergedReasons[rg], KSPConvergedReasons[rs]);
  its_tol = PetscMax(its_tol, (PetscInt)PetscCeilReal(its_rtol * its_s));
  PetscCheck(PetscAbs(its_g - its_s) <= its_tol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "iteration counts differ: gpu %" PetscInt_FMT ", standard %" PetscInt_FMT " (allowed difference %" PetscInt_FMT ")", its_g, its_s, its_tol);
  /* the same iterates agree to rounding; a solve that stopped one iteration apart agrees to the tolerance */
  TestCheckVec(xg, xs, its_g == its_s ? 1e-8 : 1e-5, "solution with gpu vectors vs standard vectors");
  /* true residual of the gpu solution */
  PetscCall(VecDuplicate(b, &r));
  PetscCall(MatMult(A, xg, r));
  PetscCall(VecAXPY(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rn));
  PetscCall(VecNorm(b, NORM_2, &bn));
  /* KSP stops on its default norm (preconditioned for CG) at 1e-8; the true residual is a
     sanity check that the solve means something, within the preconditioner's scaling */
  PetscCheck(rn <= 1e-5 * bn, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "true relative residual %g too large", (double)(rn / bn));
  {
    PetscBool sym;
    PetscCall(MatIsSymmetric(A, 0.0, &sym));
    PetscCheck(sym, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the test matrix is not symmetric");
  }
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&xg));
  PetscCall(VecDestroy(&xs));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem1));
  PetscCheck(mem0 == mem1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "device memory in use went from %zu to %zu bytes", mem0, mem1);
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  return TestCasesMain(argc, argv, help, RunCase);
}

static const char help[] = "PC gpuamg as a PC: SAME_NONZERO_PATTERN reuse (new values 3 A: the kept coarsening with recomputed\n"
                           "Galerkin products must give the cycle of a fresh setup on 3 A), the option setters and getters, and\n"
                           "bad input (a non-square matrix, a zero diagonal entry) refused with a message that says so.\n";

#include <petscksp.h>
#include <gpupc/amgcycle.h>
#include "gpupctest.h"

static PetscBool verbose = PETSC_FALSE; /* -verbose: the refused setups print their error messages */

/* PCSetUp on A must fail with a message containing what */
static PetscErrorCode ExpectFailure(Mat A, PetscErrorCode expect, const char *what)
{
  PC             pc;
  PetscErrorCode ierr;
  const char    *text;

  PetscFunctionBegin;
  PetscCall(PCCreate(PetscObjectComm((PetscObject)A), &pc));
  PetscCall(PCSetType(pc, PCGPUAMG));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PetscPushErrorHandler(verbose ? PetscTraceBackErrorHandler : PetscReturnErrorHandler, NULL));
  ierr = PCSetUp(pc);
  PetscCall(PetscPopErrorHandler());
  PetscCheck(ierr, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "PC gpuamg accepted a matrix that it must refuse (%s)", what);
  PetscCheck(ierr == expect, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "PC gpuamg refused a matrix (%s) with error %d, not %d", what, (int)ierr, (int)expect);
  PetscCall(PetscErrorMessage(ierr, NULL, (char **)&text));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "refused as expected (%s): error %d\n", what, (int)ierr));
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Mat         A, A3, R, Z;
  PC          pc, fresh;
  Vec         b, x1, x2;
  PetscRandom rnd;
  PetscReal   nrm, dif;
  PetscInt    n = 24, lo, hi, nlev, pre, post;
  PetscBool   same;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-verbose", &verbose, NULL));
  PetscCall(TestGridOperator(3, n, 0.0, MATAIJ, &A));
  PetscCall(MatCreateVecs(A, &x1, &b));
  PetscCall(VecDuplicate(x1, &x2));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(VecSetRandom(b, rnd));
  PetscCall(PetscRandomDestroy(&rnd));

  /* setters and getters */
  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetType(pc, PCGPUAMG));
  PetscCall(PCGPUAMGSetSweeps(pc, 2, 2));
  PetscCall(PCGPUAMGSetSmoother(pc, PCGPUAMGSMOOTHERCHEBYSHEV));
  PetscCall(PCSetFromOptions(pc));
  PetscCall(PCGPUAMGGetSweeps(pc, &pre, &post));
  PetscCheck(pre == 2 && post == 2, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "PCGPUAMGGetSweeps gave %" PetscInt_FMT ", %" PetscInt_FMT, pre, post);
  {
    PCGPUAMGSmootherType st;
    PetscCall(PCGPUAMGGetSmoother(pc, &st));
    PetscCheck(!strcmp(st, PCGPUAMGSMOOTHERCHEBYSHEV), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "PCGPUAMGGetSmoother gave %s", st);
  }

  /* the smoother follows the type (l1jacobi for classical, chebyshev for agg) until it is set */
  {
    PC                   pt;
    PCGPUAMGSmootherType st;
    PetscCall(PCCreate(PETSC_COMM_WORLD, &pt));
    PetscCall(PCSetType(pt, PCGPUAMG));
    PetscCall(PCGPUAMGGetSmoother(pt, &st));
    PetscCheck(!strcmp(st, PCGPUAMGSMOOTHERL1JACOBI), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "classical's default smoother is %s", st);
    PetscCall(PCGPUAMGSetType(pt, PC_GPUAMG_AGG));
    PetscCall(PCGPUAMGGetSmoother(pt, &st));
    PetscCheck(!strcmp(st, PCGPUAMGSMOOTHERCHEBYSHEV), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "agg's default smoother is %s", st);
    PetscCall(PCGPUAMGSetType(pt, PC_GPUAMG_CLASSICAL));
    PetscCall(PCGPUAMGGetSmoother(pt, &st));
    PetscCheck(!strcmp(st, PCGPUAMGSMOOTHERL1JACOBI), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "classical after agg: smoother %s", st);
    PetscCall(PCGPUAMGSetSmoother(pt, PCGPUAMGSMOOTHERJACOBI));
    PetscCall(PCGPUAMGSetType(pt, PC_GPUAMG_AGG));
    PetscCall(PCGPUAMGGetSmoother(pt, &st));
    PetscCheck(!strcmp(st, PCGPUAMGSMOOTHERJACOBI), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "a set smoother changed with the type to %s", st);
    PetscCall(PCDestroy(&pt));
  }

  /* reuse: set up on A, then new values 3 A on the same pattern */
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetUp(pc));
  PetscCall(PCGPUAMGGetNumberOfLevels(pc, &nlev));
  PetscCheck(nlev > 1, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "only %" PetscInt_FMT " level", nlev);
  PetscCall(PCApply(pc, b, x1));
  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &A3));
  PetscCall(MatScale(A3, 3.0));
  PetscCall(MatCopy(A3, A, SAME_NONZERO_PATTERN));
  PetscCall(PCSetReusePreconditioner(pc, PETSC_FALSE));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetUp(pc));
  PetscCall(PCApply(pc, b, x1));
  PetscCall(PCCreate(PETSC_COMM_WORLD, &fresh));
  PetscCall(PCSetType(fresh, PCGPUAMG));
  PetscCall(PCGPUAMGSetSweeps(fresh, 2, 2));
  PetscCall(PCGPUAMGSetSmoother(fresh, PCGPUAMGSMOOTHERCHEBYSHEV));
  PetscCall(PCSetOperators(fresh, A3, A3));
  PetscCall(PCSetUp(fresh));
  PetscCall(PCApply(fresh, b, x2));
  PetscCall(VecNorm(x2, NORM_2, &nrm));
  PetscCall(VecAXPY(x2, -1.0, x1));
  PetscCall(VecNorm(x2, NORM_2, &dif));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "reused hierarchy with new values against a fresh setup: relative difference %s\n", dif <= 1e-10 * nrm ? "below 1e-10" : "ABOVE 1e-10"));
  PetscCheck(dif <= 1e-10 * nrm, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "SAME_NONZERO_PATTERN reuse differs from a fresh setup: |x - x_fresh| = %g, |x_fresh| = %g", (double)dif, (double)nrm);
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCGPUAMG, &same));
  PetscCheck(same, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "type changed");
  PetscCall(PCDestroy(&pc));
  PetscCall(PCDestroy(&fresh));

  /* bad input: non-square; a zero diagonal entry */
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, 40, 50, 2, NULL, 2, NULL, &R));
  PetscCall(MatGetOwnershipRange(R, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) {
    PetscCall(MatSetValue(R, i, i, 2.0, INSERT_VALUES));
    PetscCall(MatSetValue(R, i, i + 10, -1.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(R, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(R, MAT_FINAL_ASSEMBLY));
  PetscCall(ExpectFailure(R, PETSC_ERR_ARG_SIZ, "40 x 50"));
  PetscCall(MatDuplicate(A3, MAT_COPY_VALUES, &Z));
  PetscCall(MatGetOwnershipRange(Z, &lo, &hi));
  if (lo <= 5 && 5 < hi) PetscCall(MatSetValue(Z, 5, 5, 0.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(Z, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Z, MAT_FINAL_ASSEMBLY));
  PetscCall(ExpectFailure(Z, PETSC_ERR_ARG_WRONG, "zero diagonal in row 5"));

  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&A3));
  PetscCall(MatDestroy(&R));
  PetscCall(MatDestroy(&Z));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x1));
  PetscCall(VecDestroy(&x2));
  PetscCall(PetscFinalize());
  return 0;
}

static const char help[] = "Distributed PC cmg (more than one rank) against the one-rank cmg on the same matrix (see cmgtest.h for -problem, -ground, -dim, -n, -spread, -dirichlet).\n"
                           "  -its_ratio <r> : fail if the parallel iteration count exceeds r times the one-rank count (default 1.3)\n"
                           "  -zero_rank     : the last rank owns no rows\n"
                           "Checks: PCG converges to 1e-8 true relative residual, the iteration ratio, the solution equals the one-rank\n"
                           "solution, <P u, v> = <u, P v> on random vectors (relative 1e-10), device memory returned.\n";

#include <petscksp.h>
#include <petscgpupc.h>
#include "cmgtest.h"

/* the matrix again with the last rank owning no rows (rows moved to the previous rank) */
static PetscErrorCode ZeroLastRank(Mat A, Mat *B)
{
  PetscMPIInt size, rank;
  PetscInt    lo, hi, N, n, *idx;
  IS          is;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(MatGetOwnershipRange(A, &lo, &hi));
  PetscCall(MatGetSize(A, &N, NULL));
  n = hi - lo;
  { /* rank size-2 takes the rows of rank size-1 */
    PetscInt lastn = 0;
    if (rank == size - 1) lastn = n;
    PetscCallMPI(MPI_Bcast(&lastn, 1, MPIU_INT, size - 1, PETSC_COMM_WORLD));
    if (rank == size - 1) n = 0;
    else if (rank == size - 2) n += lastn;
  }
  {
    PetscInt scan;
    PetscCallMPI(MPI_Scan(&n, &scan, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
    PetscCall(PetscMalloc1(n, &idx));
    for (PetscInt i = 0; i < n; i++) idx[i] = scan - n + i;
  }
  PetscCall(ISCreateGeneral(PETSC_COMM_WORLD, n, idx, PETSC_OWN_POINTER, &is));
  PetscCall(MatCreateSubMatrix(A, is, is, MAT_INITIAL_MATRIX, B));
  PetscCall(ISDestroy(&is));
  PetscFunctionReturn(0);
}

static PetscErrorCode Solve(Mat A, PetscBool floating, Vec b, Vec x, PetscInt *its, PetscReal *relres)
{
  KSP                ksp;
  PC                 pc;
  Vec                r;
  KSPConvergedReason reason;
  PetscReal          rn, bn;
  MatNullSpace       nsp = NULL;

  PetscFunctionBegin;
  if (floating) {
    PetscCall(MatNullSpaceCreate(PetscObjectComm((PetscObject)A), PETSC_TRUE, 0, NULL, &nsp));
    PetscCall(MatSetNullSpace(A, nsp));
  }
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCCMG));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCheck(reason > 0, PetscObjectComm((PetscObject)A), PETSC_ERR_NOT_CONVERGED, "CG with cmg did not converge: %s after %" PetscInt_FMT " iterations", KSPConvergedReasons[reason], *its);
  PetscCall(VecDuplicate(b, &r));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAXPY(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rn));
  PetscCall(VecNorm(b, NORM_2, &bn));
  *relres = rn / bn;
  PetscCheck(rn <= 1e-7 * bn, PetscObjectComm((PetscObject)A), PETSC_ERR_PLIB, "true relative residual %g too large", (double)(rn / bn));
  if (floating) { /* compare solutions without their constant part */
    PetscScalar s;
    PetscInt    N;
    PetscCall(VecSum(x, &s));
    PetscCall(VecGetSize(x, &N));
    PetscCall(VecShift(x, -s / N));
  }
  PetscCall(VecDestroy(&r));
  PetscCall(KSPDestroy(&ksp));
  if (floating) PetscCall(MatSetNullSpace(A, NULL));
  PetscCall(MatNullSpaceDestroy(&nsp));
  PetscFunctionReturn(0);
}

/* <P u, v> = <u, P v> for the parallel PC */
static PetscErrorCode CheckSymmetric(Mat A)
{
  PC          pc;
  Vec         u, v, pu, pv;
  PetscRandom rnd;
  PetscScalar a, b;

  PetscFunctionBegin;
  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetType(pc, PCCMG));
  PetscCall(PCSetFromOptions(pc));
  PetscCall(PCSetUp(pc));
  PetscCall(MatCreateVecs(A, &u, &v));
  PetscCall(VecDuplicate(u, &pu));
  PetscCall(VecDuplicate(u, &pv));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(VecSetRandom(u, rnd));
  PetscCall(VecSetRandom(v, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PCApply(pc, u, pu));
  PetscCall(PCApply(pc, v, pv));
  PetscCall(VecDot(pu, v, &a));
  PetscCall(VecDot(u, pv, &b));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "symmetry: <P u, v> = %.15e, <u, P v> = %.15e\n", (double)PetscRealPart(a), (double)PetscRealPart(b)));
  PetscCheck(PetscAbsScalar(a - b) <= 1e-10 * PetscMax(PetscAbsScalar(a), PetscAbsScalar(b)), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the parallel cmg operator is not symmetric: %g vs %g", (double)PetscRealPart(a), (double)PetscRealPart(b));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&v));
  PetscCall(VecDestroy(&pu));
  PetscCall(VecDestroy(&pv));
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  CMGTestProblem p;
  Mat            A, A0, *seq = NULL;
  Vec            x, b, xtrue, xall = NULL, x1 = NULL, b1 = NULL;
  VecScatter     toall;
  PetscRandom    rnd;
  PetscMPIInt    size, rank;
  PetscInt       its, its1 = 0, N;
  PetscReal      ratio = 1.3, res, res1 = 0.0, diff[2] = {0, 0};
  PetscBool      floating, zero = PETSC_FALSE;
  size_t         mem0, mem1;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(CMGTestGetProblem(&p));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-its_ratio", &ratio, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-zero_rank", &zero, NULL));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem0));
  PetscCall(CMGTestMatrix(&p, &A0));
  if (zero && size > 1) PetscCall(ZeroLastRank(A0, &A));
  else {
    PetscCall(PetscObjectReference((PetscObject)A0));
    A = A0;
  }
  PetscCall(MatDestroy(&A0));
  PetscCall(PetscStrcmp(p.ground, "none", &floating));
  PetscCall(MatGetSize(A, &N, NULL));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(x, &xtrue));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 17));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(xtrue, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(MatMult(A, xtrue, b)); /* consistent also for a floating Laplacian */
  PetscCall(Solve(A, floating, b, x, &its, &res));

  /* the one-rank reference: rank 0 solves the gathered matrix with the same right-hand side */
  {
    IS is;
    PetscCall(ISCreateStride(PETSC_COMM_SELF, rank == 0 ? N : 0, 0, 1, &is));
    PetscCall(MatCreateSubMatrices(A, 1, &is, &is, MAT_INITIAL_MATRIX, &seq));
    PetscCall(ISDestroy(&is));
  }
  PetscCall(VecScatterCreateToZero(b, &toall, &xall));
  if (rank == 0) {
    PetscCall(VecDuplicate(xall, &b1));
    PetscCall(VecDuplicate(xall, &x1));
  }
  PetscCall(VecScatterBegin(toall, b, xall, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(toall, b, xall, INSERT_VALUES, SCATTER_FORWARD));
  if (rank == 0) {
    PetscCall(VecCopy(xall, b1));
    PetscCall(Solve(seq[0], floating, b1, x1, &its1, &res1));
  }
  PetscCall(VecScatterBegin(toall, x, xall, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(toall, x, xall, INSERT_VALUES, SCATTER_FORWARD));
  if (rank == 0) {
    PetscCall(VecNorm(x1, NORM_2, &diff[1]));
    PetscCall(VecAXPY(xall, -1.0, x1));
    PetscCall(VecNorm(xall, NORM_2, &diff[0]));
  }
  PetscCallMPI(MPI_Bcast(&its1, 1, MPIU_INT, 0, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Bcast(diff, 2, MPIU_REAL, 0, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%d ranks: %" PetscInt_FMT " iterations (true relative residual %.2e); one rank: %" PetscInt_FMT " iterations; ratio %.2f (bound %.2f); solutions differ by %.2e (relative)\n", (int)size, its, (double)res, its1, (double)its / (double)PetscMax(its1, 1),
                        (double)ratio, (double)(diff[0] / diff[1])));
  PetscCheck(its <= ratio * its1, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "%" PetscInt_FMT " iterations on %d ranks, more than %.2f x the %" PetscInt_FMT " on one rank", its, (int)size, (double)ratio, its1);
  PetscCheck(diff[0] <= 1e-5 * diff[1], PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the parallel solution differs from the one-rank solution by %g (relative)", (double)(diff[0] / diff[1]));
  PetscCall(VecDestroy(&b1));
  PetscCall(VecDestroy(&x1));
  PetscCall(VecDestroy(&xall));
  PetscCall(VecScatterDestroy(&toall));
  PetscCall(MatDestroySubMatrices(1, &seq));
  if (!p.dirichlet) PetscCall(CheckSymmetric(A));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&xtrue));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem1));
  PetscCheck(mem0 == mem1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "device memory in use went from %zu to %zu bytes", mem0, mem1);
  PetscCall(PetscFinalize());
  return 0;
}

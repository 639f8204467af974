static const char help[] = "PC cmg refuses bad input with an error that names the row: non-symmetric (also through a coupling into a row that\n"
                           "holds only its diagonal), not diagonally dominant,\n"
                           "positive off-diagonal with -pc_cmg_positive_offdiag error, non-positive diagonal, NaN, a level-matrix type\n"
                           "that this version lacks; on more than one rank the same errors on a distributed matrix, and the one-rank-only\n"
                           "features (double cover, single precision) refused. Each case must fail with the expected text in the message.\n";

#include <petscksp.h>
#include <petscgpupc.h>

/* the entries, set by the first rank */
static PetscErrorCode Fill(PetscInt n, const char *bad, Mat A)
{
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)A), &rank));
  for (PetscInt i = 0; i < n && rank == 0; i++) {
    if (i > 0) PetscCall(MatSetValue(A, i, i - 1, -1.0, INSERT_VALUES));
    if (i < n - 1) PetscCall(MatSetValue(A, i, i + 1, -1.0, INSERT_VALUES));
    PetscCall(MatSetValue(A, i, i, (i == 0 || i == n - 1) ? 2.0 : 2.0, INSERT_VALUES));
  }
  if (rank > 0) bad = "none";
  if (!strcmp(bad, "nonsymmetric")) PetscCall(MatSetValue(A, 7, 8, -0.5, INSERT_VALUES));
  else if (!strcmp(bad, "nondominant")) PetscCall(MatSetValue(A, 11, 11, 1.5, INSERT_VALUES));
  else if (!strcmp(bad, "dirichletasym")) { /* row 3 holds only its diagonal; row 2 couples into it more than it can dominate */
    PetscCall(MatSetValue(A, 3, 2, 0.0, INSERT_VALUES));
    PetscCall(MatSetValue(A, 3, 4, 0.0, INSERT_VALUES));
    PetscCall(MatSetValue(A, 2, 3, -1.5, INSERT_VALUES));
  } else if (!strcmp(bad, "positive")) {
    PetscCall(MatSetValue(A, 5, 6, 1.0, INSERT_VALUES));
    PetscCall(MatSetValue(A, 6, 5, 1.0, INSERT_VALUES));
  } else if (!strcmp(bad, "zerodiag")) {
    PetscCall(MatSetValue(A, 9, 9, 0.0, INSERT_VALUES));
  } else if (!strcmp(bad, "nan")) PetscCall(MatSetValue(A, 4, 4, PETSC_MAX_REAL * 10.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* a 1D Laplacian of n rows with a strictly dominant first row, then one modification */
static PetscErrorCode Matrix(PetscInt n, const char *bad, Mat *A)
{
  PetscFunctionBegin;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 3, NULL, A));
  PetscCall(Fill(n, bad, *A));
  PetscFunctionReturn(0);
}

/* the same matrix distributed over PETSC_COMM_WORLD */
static PetscErrorCode MatrixMPI(PetscInt n, const char *bad, Mat *A)
{
  PetscFunctionBegin;
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 3, NULL, 2, NULL, A));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(Fill(n, bad, *A));
  PetscFunctionReturn(0);
}

/* PCSetUp must fail and its message contain expect */
static PetscErrorCode ExpectFailure(Mat A, const char *opt, const char *expect)
{
  PC             pc;
  PetscErrorCode ierr;
  const char    *text;
  char          *msg = NULL, *found = NULL;

  PetscFunctionBegin;
  PetscCall(PCCreate(PetscObjectComm((PetscObject)A), &pc));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetType(pc, PCCMG));
  if (opt) PetscCall(PetscOptionsSetValue(NULL, opt, strstr(opt, "mat_type") ? "hec" : (strstr(opt, "precision") ? "single" : "error")));
  PetscCall(PCSetFromOptions(pc));
  if (opt) PetscCall(PetscOptionsClearValue(NULL, opt));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = PCSetUp(pc);
  PetscCall(PetscPopErrorHandler());
  PetscCheck(ierr, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PC cmg accepted bad input (expected an error containing \"%s\")", expect);
  PetscCall(PetscErrorMessage(ierr, &text, &msg));
  PetscCall(PetscStrstr(msg ? msg : "", expect, &found));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "refused as expected: %s\n", msg ? msg : "(no message)"));
  PetscCheck(found, PETSC_COMM_SELF, PETSC_ERR_PLIB, "error message \"%s\" does not contain \"%s\"", msg ? msg : "", expect);
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Mat         A;
  PetscMPIInt size;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (size > 1) { /* distributed cmg: the same errors, naming the global row; what only one rank can do is refused */
    PetscCall(MatrixMPI(30, "nonsymmetric", &A));
    PetscCall(ExpectFailure(A, NULL, "row 7 has A(7,8)"));
    PetscCall(MatDestroy(&A));
    PetscCall(MatrixMPI(30, "nondominant", &A));
    PetscCall(ExpectFailure(A, NULL, "row 11 has diagonal"));
    PetscCall(MatDestroy(&A));
    PetscCall(MatrixMPI(30, "dirichletasym", &A));
    PetscCall(ExpectFailure(A, NULL, "needs a symmetric matrix: row 2 has A(2,3) = -1.5 but A(3,2) = 0"));
    PetscCall(MatDestroy(&A));
    PetscCall(MatrixMPI(30, "zerodiag", &A));
    PetscCall(ExpectFailure(A, NULL, "row 9 has diagonal 0"));
    PetscCall(MatDestroy(&A));
    PetscCall(MatrixMPI(30, "nan", &A));
    PetscCall(ExpectFailure(A, NULL, "entry (4, 4)"));
    PetscCall(MatDestroy(&A));
    PetscCall(MatrixMPI(30, "positive", &A));
    PetscCall(ExpectFailure(A, "-pc_cmg_positive_offdiag", "row 5 has a positive off-diagonal"));
    PetscCall(ExpectFailure(A, NULL, "-pc_type bjacobi -sub_pc_type cmg"));
    PetscCall(MatDestroy(&A));
    PetscCall(MatrixMPI(30, "none", &A));
    PetscCall(ExpectFailure(A, "-pc_cmg_precision", "-pc_cmg_precision single works on one rank"));
    PetscCall(MatDestroy(&A));
  }
  PetscCall(Matrix(30, "nonsymmetric", &A));
  PetscCall(ExpectFailure(A, NULL, "row 7 has A(7,8)"));
  PetscCall(MatDestroy(&A));
  PetscCall(Matrix(30, "nondominant", &A));
  PetscCall(ExpectFailure(A, NULL, "row 11 has diagonal"));
  PetscCall(MatDestroy(&A));
  /* a coupling into a row that holds only its diagonal has no mirror: refused as not symmetric, naming the pair */
  PetscCall(Matrix(30, "dirichletasym", &A));
  PetscCall(ExpectFailure(A, NULL, "needs a symmetric matrix: row 2 has A(2,3) = -1.5 but A(3,2) = 0"));
  PetscCall(MatDestroy(&A));
  PetscCall(Matrix(30, "positive", &A));
  PetscCall(ExpectFailure(A, "-pc_cmg_positive_offdiag", "row 5 has a positive off-diagonal"));
  PetscCall(MatDestroy(&A));
  PetscCall(Matrix(30, "zerodiag", &A));
  PetscCall(ExpectFailure(A, NULL, "row 9 has diagonal 0"));
  PetscCall(MatDestroy(&A));
  PetscCall(Matrix(30, "none", &A));
  PetscCall(PetscOptionsSetValue(NULL, "-pc_cmg_precision", "single")); /* the device-Mat formats hold double only */
  PetscCall(ExpectFailure(A, "-pc_cmg_mat_type", "precision"));
  PetscCall(PetscOptionsClearValue(NULL, "-pc_cmg_precision"));
  PetscCall(MatDestroy(&A));
  PetscCall(Matrix(30, "nan", &A));
  PetscCall(ExpectFailure(A, NULL, "entry (4, 4)"));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

static const char help[] = "Matrix Market and PETSc binary reading: write then read equals (general and symmetric,\n"
                           "vectors, pattern files), parallel load, and malformed files give errors naming the line.\n";

#include <gpupc/problems.h>
#include <petscviewer.h>
#include "gpupctest.h"

/* loading text must fail with a message that contains `expect` */
static PetscErrorCode ExpectFailure(const char text[], const char expect[])
{
  Mat            A = NULL;
  PetscErrorCode ierr;
  char          *msg = NULL;

  PetscFunctionBegin;
  PetscCall(TestWriteText(PETSC_COMM_WORLD, "mmio_bad.mtx", text));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = GPUPCMatLoadMatrixMarket(PETSC_COMM_WORLD, "mmio_bad.mtx", &A); /* expected to fail */
  PetscCall(PetscPopErrorHandler());
  PetscCheck(ierr, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "malformed file was accepted:\n%s", text);
  PetscCall(PetscErrorMessage(ierr, NULL, &msg));
  PetscCheck(msg && strstr(msg, expect), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "error message \"%s\" does not contain \"%s\"", msg ? msg : "(none)", expect);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "refused as expected: %s\n", msg));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(0);
}

static PetscErrorCode RoundTrip(const char problem[], PetscBool symmetric)
{
  Mat       A, B;
  Vec       b, c;
  PetscBool eq, sym;

  PetscFunctionBegin;
  PetscCall(GPUPCProblemCreate(PETSC_COMM_WORLD, problem, 500, 3, &A, &b));
  PetscCall(GPUPCMatWriteMatrixMarket(A, "mmio_rt.mtx", symmetric));
  PetscCall(GPUPCMatLoadMatrixMarketSymmetric(PETSC_COMM_WORLD, "mmio_rt.mtx", &B, &sym));
  PetscCheck(sym == symmetric, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: symmetric flag lost in the round trip", problem);
  PetscCall(MatEqual(A, B, &eq));
  PetscCheck(eq, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: matrix read back (%s file) differs from the one written", problem, symmetric ? "symmetric" : "general");
  PetscCall(MatDestroy(&B));
  PetscCall(GPUPCVecWriteMatrixMarket(b, "mmio_rt_b.mtx"));
  PetscCall(GPUPCVecLoadFile(PETSC_COMM_WORLD, "mmio_rt_b.mtx", -1, &c));
  PetscCall(VecEqual(b, c, &eq));
  PetscCheck(eq, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: vector read back differs", problem);
  PetscCall(VecDestroy(&c));
  PetscCall(MatDestroy(&A));
  PetscCall(VecDestroy(&b));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Mat         A, B;
  Vec         b, c;
  PetscBool   eq, sym;
  PetscViewer v;
  PetscInt    M, N;
  PetscScalar val;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(RoundTrip("graphlap", PETSC_TRUE));
  PetscCall(RoundTrip("graphlap", PETSC_FALSE));
  PetscCall(RoundTrip("convdiff2d", PETSC_FALSE));
  PetscCall(RoundTrip("elasticity3d", PETSC_TRUE));

  /* PETSc binary with a right-hand side after the matrix, recognised from the contents */
  PetscCall(GPUPCProblemCreate(PETSC_COMM_WORLD, "jump3d", 400, 5, &A, &b));
  PetscCall(PetscViewerBinaryOpen(PETSC_COMM_WORLD, "mmio_rt.bin", FILE_MODE_WRITE, &v));
  PetscCall(MatView(A, v));
  PetscCall(VecView(b, v));
  PetscCall(PetscViewerDestroy(&v));
  PetscCall(GPUPCMatLoadFile(PETSC_COMM_WORLD, "mmio_rt.bin", &B, &c, NULL));
  PetscCall(MatEqual(A, B, &eq));
  PetscCheck(eq, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "PETSc binary matrix read back differs");
  PetscCheck(c, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the right-hand side stored after the binary matrix was not found");
  PetscCall(VecEqual(b, c, &eq));
  PetscCheck(eq, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "PETSc binary right-hand side read back differs");
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&B));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&c));

  /* pattern, integer, skew-symmetric, duplicates summed, comments and blank lines */
  PetscCall(TestWriteText(PETSC_COMM_WORLD, "mmio_pat.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n% comment\n\n3 3 3\n1 1\n2 1\n3 3\n"));
  PetscCall(GPUPCMatLoadMatrixMarketSymmetric(PETSC_COMM_WORLD, "mmio_pat.mtx", &A, &sym));
  PetscCall(MatGetSize(A, &M, &N));
  PetscCheck(M == 3 && N == 3 && sym, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "pattern file: wrong size or symmetry flag");
  PetscCall(MatCreateVecs(A, &b, &c));
  PetscCall(VecSet(b, 1.0));
  PetscCall(MatMult(A, b, c));
  PetscCall(VecSum(c, &val));
  TestCheckScalar(val, 4.0, 0.0, "pattern file: sum of the entries (lower triangle mirrored, values 1)");
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&c));
  PetscCall(MatDestroy(&A));
  PetscCall(TestWriteText(PETSC_COMM_WORLD, "mmio_skew.mtx", "%%MatrixMarket matrix coordinate integer skew-symmetric\n3 3 2\n2 1 4\n3 1 -2\n"));
  PetscCall(GPUPCMatLoadMatrixMarket(PETSC_COMM_WORLD, "mmio_skew.mtx", &A));
  PetscCall(MatTranspose(A, MAT_INITIAL_MATRIX, &B));
  PetscCall(MatScale(B, -1.0));
  PetscCall(MatEqual(A, B, &eq));
  PetscCheck(eq, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "skew-symmetric file: A != -A'");
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&B));
  PetscCall(TestWriteText(PETSC_COMM_WORLD, "mmio_dup.mtx", "%%MatrixMarket matrix coordinate real general\n2 3 3\n1 3 1.5\n1 3 2.25\n2 1 -1e-3\n"));
  PetscCall(GPUPCMatLoadMatrixMarket(PETSC_COMM_WORLD, "mmio_dup.mtx", &A));
  PetscCall(MatGetSize(A, &M, &N));
  PetscCheck(M == 2 && N == 3, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "rectangular file: wrong size");
  PetscCall(MatCreateVecs(A, &b, &c));
  PetscCall(VecSet(b, 1.0));
  PetscCall(MatMult(A, b, c));
  PetscCall(VecSum(c, &val));
  TestCheckScalar(val, 3.75 - 1e-3, 1e-15, "sum of the entries of the file with a duplicate");
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&c));
  PetscCall(MatDestroy(&A));

  /* malformed files: the message names the line */
  PetscCall(ExpectFailure("%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 1 1 0\n", "complex"));
  PetscCall(ExpectFailure("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", "coordinate format"));
  PetscCall(ExpectFailure("%%MatrixMarket matrix coordinate real hermitian\n2 2 1\n1 1 1\n", "Hermitian"));
  PetscCall(ExpectFailure("this is not a matrix\n", ":1:"));
  PetscCall(ExpectFailure("%%MatrixMarket matrix coordinate real general\n% c\n2 2\n1 1 1\n", ":3:"));
  PetscCall(ExpectFailure("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n3 1 1\n", ":4: row index 3 is out of range"));
  PetscCall(ExpectFailure("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 x 1\n", ":4: expected column index"));
  PetscCall(ExpectFailure("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 abc\n", ":3: expected a value"));
  PetscCall(ExpectFailure("%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1\n2 2 1\n", "file ends after 2 of the 3 entries"));
  PetscCall(ExpectFailure("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n2 2 1\n", ":4: more entries"));
  PetscCall(ExpectFailure("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 nan\n", ":3: a value after the indices is not a finite number"));
  PetscCall(ExpectFailure("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1 7\n", ":3: unexpected text"));
  PetscCall(ExpectFailure("%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n1 1 1\n", "must be square"));
  PetscCall(PetscFinalize());
  return 0;
}

static const char help[] = "Built-in problems: size, symmetry, diagonal dominance / sign pattern where claimed,\n"
                           "positive definiteness where claimed, and independence from the number of ranks\n"
                           "(every row of the parallel matrix equals the row generated on one rank).\n"
                           "  -n <rows> target size of each problem\n";

#include <gpupc/problems.h>
#include "gpupctest.h"

/* max over local rows of relative violation; strict: whether some row is strictly dominant */
static PetscErrorCode CheckDominance(Mat A, PetscBool require_nonpos_off, const char *name)
{
  PetscInt           lo, hi, ncols;
  const PetscInt    *cols;
  const PetscScalar *vals;
  int                strict = 0, any;

  PetscFunctionBegin;
  PetscCall(MatGetOwnershipRange(A, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) {
    PetscReal d = 0.0, off = 0.0;
    PetscCall(MatGetRow(A, i, &ncols, &cols, &vals));
    for (PetscInt k = 0; k < ncols; k++) {
      if (cols[k] == i) d = PetscRealPart(vals[k]);
      else {
        off += PetscAbsScalar(vals[k]);
        PetscCheck(!require_nonpos_off || PetscRealPart(vals[k]) <= 0.0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: off-diagonal A(%" PetscInt_FMT ",%" PetscInt_FMT ") = %g is positive", name, i, cols[k], (double)PetscRealPart(vals[k]));
      }
    }
    PetscCall(MatRestoreRow(A, i, &ncols, &cols, &vals));
    PetscCheck(d >= off * (1.0 - 1e-14), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: row %" PetscInt_FMT " is not diagonally dominant: diagonal %g, off-diagonal sum %g", name, i, (double)d, (double)off);
    if (d > off * (1.0 + 1e-12)) strict = 1;
  }
  PetscCallMPI(MPIU_Allreduce(&strict, &any, 1, MPI_INT, MPI_MAX, PetscObjectComm((PetscObject)A)));
  PetscCheck(any, PetscObjectComm((PetscObject)A), PETSC_ERR_PLIB, "%s: no row is strictly diagonally dominant (the matrix would be singular)", name);
  PetscFunctionReturn(0);
}

/* rows of the parallel matrix equal, exactly, those of the same problem generated on one rank */
static PetscErrorCode CheckRankIndependence(Mat A, Vec b, const char *name, PetscInt n, PetscInt seed)
{
  Mat                As;
  Vec                bs;
  PetscInt           lo, hi, nc1, nc2;
  const PetscInt    *c1, *c2;
  const PetscScalar *v1, *v2, *x1, *x2;

  PetscFunctionBegin;
  PetscCall(GPUPCProblemCreate(PETSC_COMM_SELF, name, n, seed, &As, &bs));
  PetscCall(MatGetOwnershipRange(A, &lo, &hi));
  PetscCall(VecGetArrayRead(b, &x1));
  PetscCall(VecGetArrayRead(bs, &x2));
  for (PetscInt i = lo; i < hi; i++) {
    PetscCall(MatGetRow(A, i, &nc1, &c1, &v1));
    PetscCall(MatGetRow(As, i, &nc2, &c2, &v2));
    PetscCheck(nc1 == nc2, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: row %" PetscInt_FMT " has %" PetscInt_FMT " entries in parallel, %" PetscInt_FMT " on one rank", name, i, nc1, nc2);
    for (PetscInt k = 0; k < nc1; k++) PetscCheck(c1[k] == c2[k] && v1[k] == v2[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: row %" PetscInt_FMT " entry %" PetscInt_FMT " differs between the parallel and the one-rank generation", name, i, k);
    PetscCall(MatRestoreRow(As, i, &nc2, &c2, &v2));
    PetscCall(MatRestoreRow(A, i, &nc1, &c1, &v1));
    PetscCheck(x1[i - lo] == x2[i], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: b[%" PetscInt_FMT "] differs between the parallel and the one-rank generation", name, i);
  }
  PetscCall(VecRestoreArrayRead(b, &x1));
  PetscCall(VecRestoreArrayRead(bs, &x2));
  PetscCall(MatDestroy(&As));
  PetscCall(VecDestroy(&bs));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  const char *const *names;
  PetscInt           np, n = 300;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(GPUPCProblemList(&names, &np));
  PetscCheck(np == 11, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "expected 11 built-in problems, found %" PetscInt_FMT, np);
  for (PetscInt p = 0; p < np; p++) {
    Mat          A, At;
    Vec          b, x, y, b2;
    PetscBool    sym, sdd, spd, issym, eq;
    PetscInt     M, N;
    PetscReal    xAx, nb;
    PetscRandom  rnd;
    MatNullSpace nsp;

    PetscCall(GPUPCProblemGetInfo(names[p], &sym, &sdd, &spd));
    PetscCall(GPUPCProblemCreate(PETSC_COMM_WORLD, names[p], n, 7, &A, &b));
    PetscCall(MatGetSize(A, &M, &N));
    PetscCheck(M == N && M >= n / 2 && M <= 2 * n, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: size %" PetscInt_FMT " x %" PetscInt_FMT " is far from the requested %" PetscInt_FMT, names[p], M, N, n);
    PetscCall(MatTranspose(A, MAT_INITIAL_MATRIX, &At));
    PetscCall(MatEqual(A, At, &issym));
    PetscCall(MatDestroy(&At));
    PetscCheck(issym == sym, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: claimed symmetric %d, found %d", names[p], (int)sym, (int)issym);
    if (sdd) PetscCall(CheckDominance(A, PETSC_TRUE, names[p]));
    if (!sym) PetscCall(CheckDominance(A, PETSC_TRUE, names[p])); /* upwinded convection-diffusion is an M-matrix */
    PetscCall(VecNorm(b, NORM_2, &nb));
    PetscCheck(nb > 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: right-hand side is zero", names[p]);
    if (spd) { /* x'Ax > 0 for a few random x */
      PetscCall(MatCreateVecs(A, &x, &y));
      PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
      PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
      for (int t = 0; t < 3; t++) {
        PetscCall(VecSetRandom(x, rnd));
        PetscCall(MatMult(A, x, y));
        PetscCall(VecDot(x, y, &xAx));
        PetscCheck(xAx > 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: x'Ax = %g is not positive", names[p], (double)xAx);
      }
      PetscCall(PetscRandomDestroy(&rnd));
      PetscCall(VecDestroy(&x));
      PetscCall(VecDestroy(&y));
    }
    PetscCall(MatGetNearNullSpace(A, &nsp));
    if (!strcmp(names[p], "elasticity3d")) PetscCheck(nsp, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "elasticity3d: no near null space (rigid-body modes) attached");
    PetscCall(CheckRankIndependence(A, b, names[p], n, 7));
    /* the seed matters, and the same seed gives the same problem */
    PetscCall(GPUPCProblemCreate(PETSC_COMM_WORLD, names[p], n, 7, &At, &b2));
    PetscCall(MatEqual(A, At, &eq));
    PetscCheck(eq, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: two generations with the same seed differ", names[p]);
    PetscCall(MatDestroy(&At));
    PetscCall(VecDestroy(&b2));
    PetscCall(GPUPCProblemCreate(PETSC_COMM_WORLD, names[p], n, 8, &At, &b2));
    PetscCall(VecEqual(b, b2, &eq));
    if (eq) PetscCall(MatEqual(A, At, &eq));
    PetscCheck(!eq, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: seeds 7 and 8 give the same system", names[p]);
    PetscCall(MatDestroy(&At));
    PetscCall(VecDestroy(&b2));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-13s n %6" PetscInt_FMT "  symmetric %d  sdd %d  spd %d: ok\n", names[p], M, (int)sym, (int)sdd, (int)spd));
    PetscCall(MatDestroy(&A));
    PetscCall(VecDestroy(&b));
  }
  PetscCall(PetscFinalize());
  return 0;
}

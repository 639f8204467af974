static const char help[] = "bcsr on 3D elasticity assembled with block size 3 (the problem calls MatSetBlockSize(A, 3) and MatSetFromOptions):\n"
                           "-mat_type bcsr must give b = 3 and a blocked layout; products, MatSetValuesBlocked, both slice shapes, MatConvert from AIJ\n"
                           "and BAIJ with the near-null space, and CG with Jacobi are compared against AIJ.\n"
                           "  -n <rows>  target number of rows (default 3000)\n";

#include <petscksp.h>
#include <petscgpupc.h>
#include <gpupc/problems.h>

/* ||A x - B x||_inf <= tol ||A x||_inf for a random x, and the same for the transpose */
static PetscErrorCode CompareProducts(Mat A, Mat B, const char *what)
{
  Vec       x, ya, yb;
  PetscReal na, nd;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, &x, &ya));
  PetscCall(VecDuplicate(ya, &yb));
  PetscCall(VecSetRandom(x, NULL));
  for (int t = 0; t < 2; t++) {
    if (t == 0) {
      PetscCall(MatMult(A, x, ya));
      PetscCall(MatMult(B, x, yb));
    } else {
      PetscCall(MatMultTranspose(A, x, ya));
      PetscCall(MatMultTranspose(B, x, yb));
    }
    PetscCall(VecNorm(ya, NORM_INFINITY, &na));
    PetscCall(VecAXPY(yb, -1.0, ya));
    PetscCall(VecNorm(yb, NORM_INFINITY, &nd));
    PetscCheck(na > 0.0 && nd <= 1e-12 * na, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: %s differs from AIJ by %g (norm %g)", what, t ? "MatMultTranspose" : "MatMult", (double)nd, (double)na);
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "products agree with AIJ: %s\n", what));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&ya));
  PetscCall(VecDestroy(&yb));
  PetscFunctionReturn(0);
}

/* the layout's block size and density; a bcsr type */
static PetscErrorCode CheckLayout(Mat B, PetscInt bexp, PetscBool dense, const char *what)
{
  PetscInt  b;
  PetscReal density, padding;
  PetscBool isseq, ismpi;
  MatType   type;

  PetscFunctionBegin;
  PetscCall(MatGetType(B, &type));
  PetscCall(PetscObjectTypeCompare((PetscObject)B, MATSEQBCSR, &isseq));
  PetscCall(PetscObjectTypeCompare((PetscObject)B, MATMPIBCSR, &ismpi));
  PetscCheck(isseq || ismpi, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: type %s, expected seqbcsr or mpibcsr", what, type);
  PetscCall(MatBCSRGetInfo(B, &b, &density, &padding, NULL, NULL));
  PetscCheck(b == bexp, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: block size %" PetscInt_FMT ", expected %" PetscInt_FMT, what, b, bexp);
  /* the elasticity3d generator is a finite-difference grad-div discretization: a node couples its face neighbours
     through the diagonal of a block only, and its edge neighbours through two entries of a block; through BAIJ (which
     stores whole blocks) every block is dense */
  PetscCheck((dense ? density == 1.0 : density > 0.2 && density < 0.5) && padding >= 0.0 && padding < 0.5, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: block density %g, padding %g; expected %s", what, (double)density, (double)padding, dense ? "1 (whole blocks)" : "a density in (0.2, 0.5) for the finite-difference elasticity pattern");
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %s, block size %" PetscInt_FMT ", block density %g\n", what, type, b, (double)density));
  PetscFunctionReturn(0);
}

/* the three translations, as a near-null space */
static PetscErrorCode Translations(Mat A, MatNullSpace *sp)
{
  Vec      v[3];
  PetscInt lo, hi;

  PetscFunctionBegin;
  for (int k = 0; k < 3; k++) {
    PetscCall(MatCreateVecs(A, &v[k], NULL));
    PetscCall(VecGetOwnershipRange(v[k], &lo, &hi));
    for (PetscInt i = lo; i < hi; i++) PetscCall(VecSetValue(v[k], i, i % 3 == k ? 1.0 : 0.0, INSERT_VALUES));
    PetscCall(VecAssemblyBegin(v[k]));
    PetscCall(VecAssemblyEnd(v[k]));
    PetscCall(VecNormalize(v[k], NULL));
  }
  PetscCall(MatNullSpaceCreate(PetscObjectComm((PetscObject)A), PETSC_FALSE, 3, v, sp));
  for (int k = 0; k < 3; k++) PetscCall(VecDestroy(&v[k]));
  PetscFunctionReturn(0);
}

static PetscErrorCode Solve(Mat A, Vec b, Vec x, PetscInt *its)
{
  KSP ksp;
  PC  pc;

  PetscFunctionBegin;
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 2000));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Mat          A, B, C, Ab, D;
  Vec          b, bb, xa, xb;
  PetscInt     n = 3000, itsa, itsb, builds, uploads, builds2, uploads2, lo, hi;
  MatNullSpace sp, got;
  PetscReal    nx, nd;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  /* the AIJ reference, then the same problem with -mat_type bcsr: the generator sets the block size 3 and calls MatSetFromOptions */
  PetscCall(PetscOptionsClearValue(NULL, "-mat_type"));
  PetscCall(GPUPCProblemCreate(PETSC_COMM_WORLD, "elasticity3d", n, 1, &A, &b));
  PetscCall(PetscOptionsSetValue(NULL, "-mat_type", "bcsr"));
  PetscCall(GPUPCProblemCreate(PETSC_COMM_WORLD, "elasticity3d", n, 1, &B, &bb));
  PetscCall(PetscOptionsClearValue(NULL, "-mat_type"));
  PetscCall(CheckLayout(B, 3, PETSC_FALSE, "-mat_type bcsr with MatSetBlockSize(A, 3)"));
  PetscCall(CompareProducts(A, B, "elasticity, -mat_type bcsr"));

  /* MatSetValuesBlocked of a dense 3x3 block into the diagonal block of the first block row (whose off-diagonal entries
     the pattern lacks): a new pattern (rebuild); then the same again: a value-only update on the device */
  PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(MatSetOption(B, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(MatGetOwnershipRange(A, &lo, &hi));
  for (int pass = 0; pass < 2; pass++) {
    PetscCall(MatBCSRGetInfo(B, NULL, NULL, NULL, &builds, &uploads));
    if (hi > lo) {
      const PetscInt    row  = lo / 3;
      const PetscScalar v[9] = {0.5, 0.1, 0.2, 0.1, 0.7, 0.3, 0.2, 0.3, 0.9};
      PetscCall(MatSetValuesBlocked(A, 1, &row, 1, &row, v, ADD_VALUES));
      PetscCall(MatSetValuesBlocked(B, 1, &row, 1, &row, v, ADD_VALUES));
    }
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
    PetscCall(CompareProducts(A, B, pass ? "MatSetValuesBlocked, same pattern" : "MatSetValuesBlocked, new entries"));
    PetscCall(MatBCSRGetInfo(B, NULL, NULL, NULL, &builds2, &uploads2));
    PetscCheck(pass ? (builds2 == builds && uploads2 == uploads + 1) : builds2 == builds + 1, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatSetValuesBlocked (%s): %" PetscInt_FMT " builds and %" PetscInt_FMT " value uploads after, %" PetscInt_FMT " and %" PetscInt_FMT " before", pass ? "same pattern: expected one upload" : "new entries: expected one build", builds2, uploads2, builds, uploads);
  }

  /* the other slice shape and no sorting: the same products */
  PetscCall(MatBCSRSetMapping(B, MAT_BCSR_MAPPING_WARP));
  PetscCall(CompareProducts(A, B, "warp mapping"));
  PetscCall(MatBCSRSetSort(B, PETSC_FALSE));
  PetscCall(CompareProducts(A, B, "warp mapping, block rows unsorted"));
  PetscCall(MatBCSRSetMapping(B, MAT_BCSR_MAPPING_FULL));
  PetscCall(MatBCSRSetSort(B, PETSC_TRUE));

  /* MatConvert from AIJ and from BAIJ: the near-null space survives */
  PetscCall(Translations(A, &sp));
  PetscCall(MatSetNearNullSpace(A, sp));
  PetscCall(MatConvert(A, MATBCSR, MAT_INITIAL_MATRIX, &C));
  PetscCall(CheckLayout(C, 3, PETSC_FALSE, "MatConvert(AIJ, bcsr)"));
  PetscCall(MatGetNearNullSpace(C, &got));
  PetscCheck(got == sp, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatConvert(AIJ, bcsr) lost the near-null space");
  PetscCall(CompareProducts(A, C, "MatConvert(AIJ, bcsr)"));
  PetscCall(MatConvert(A, MATBAIJ, MAT_INITIAL_MATRIX, &Ab));
  PetscCall(MatSetNearNullSpace(Ab, sp));
  PetscCall(MatConvert(Ab, MATBCSR, MAT_INITIAL_MATRIX, &D));
  PetscCall(CheckLayout(D, 3, PETSC_TRUE, "MatConvert(BAIJ, bcsr)"));
  PetscCall(MatGetNearNullSpace(D, &got));
  PetscCheck(got == sp, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatConvert(BAIJ, bcsr) lost the near-null space");
  PetscCall(CompareProducts(A, D, "MatConvert(BAIJ, bcsr)"));
  PetscCall(MatConvert(Ab, MATBCSR, MAT_INPLACE_MATRIX, &Ab));
  PetscCall(CheckLayout(Ab, 3, PETSC_TRUE, "MatConvert(BAIJ, bcsr, in place)"));
  PetscCall(CompareProducts(A, Ab, "MatConvert(BAIJ, bcsr, in place)"));
  PetscCall(MatNullSpaceDestroy(&sp));

  /* CG with Jacobi: the same iterations and solution as AIJ */
  PetscCall(VecDuplicate(b, &xa));
  PetscCall(VecDuplicate(bb, &xb));
  PetscCall(Solve(A, b, xa, &itsa));
  PetscCall(Solve(B, bb, xb, &itsb));
  PetscCall(VecNorm(xa, NORM_INFINITY, &nx));
  PetscCall(VecAXPY(xb, -1.0, xa));
  PetscCall(VecNorm(xb, NORM_INFINITY, &nd));
  PetscCheck(PetscAbsInt(itsa - itsb) <= 1 && nd <= 1e-6 * nx, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "CG on bcsr: %" PetscInt_FMT " iterations, AIJ %" PetscInt_FMT "; solutions differ by %g (norm %g)", itsb, itsa, (double)nd, (double)nx);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "CG + Jacobi on elasticity: %" PetscInt_FMT " iterations on bcsr, %" PetscInt_FMT " on AIJ, solutions agree\n", itsb, itsa));

  PetscCall(VecDestroy(&xa));
  PetscCall(VecDestroy(&xb));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&bb));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&C));
  PetscCall(MatDestroy(&D));
  PetscCall(MatDestroy(&Ab));
  PetscCall(PetscFinalize());
  return 0;
}

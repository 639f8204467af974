static const char help[] = "KSP on a 2D/3D Laplacian with gpu vectors against the same solve with standard vectors.\n"
                           "  -dim <2,3> -n <points per direction>; KSP and PC from the options.\n"
                           "  -its_tolerance <k>: iteration counts may differ by k (rounding-sensitive methods such as bcgs,\n"
                           "   whose stopping iteration can move when the GPU's reductions round differently; default 0)\n"
                           "Checks: same iteration count, same converged reason, solutions agree, true residual small.\n";

#include <petscksp.h>
#include <petscgpupc.h>
#include <gpupc/device.h>
#include "gpupctest.h"

/* 5-point (2D) or 7-point (3D) Laplacian with a variable coefficient, assembled in parallel */
static PetscErrorCode Laplacian(PetscInt dim, PetscInt n, Mat *A)
{
  PetscInt N = dim == 2 ? n * n : n * n * n, lo, hi;

  PetscFunctionBegin;
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, N, N));
  PetscCall(MatSetType(*A, MATAIJ));
  PetscCall(MatSeqAIJSetPreallocation(*A, 2 * dim + 1, NULL));
  PetscCall(MatMPIAIJSetPreallocation(*A, 2 * dim + 1, NULL, 2 * dim, NULL));
  PetscCall(MatGetOwnershipRange(*A, &lo, &hi));
  for (PetscInt row = lo; row < hi; row++) {
    PetscInt    c[3] = {row % n, (row / n) % n, dim == 3 ? row / (n * n) : 0}, cols[7], k = 0, stride = 1;
    PetscScalar vals[7], diag = 0.0;

    for (PetscInt d = 0; d < dim; d++, stride *= n) {
      for (PetscInt s = -1; s <= 1; s += 2) {
        PetscInt    cc = c[d] + s, nbr = row + s * stride;
        PetscScalar w  = 1.0 + 0.5 * ((PetscMin(row, nbr) + d) % 3); /* a variable coefficient of the edge keeps A symmetric and non-trivial */
        diag += w;
        if (cc >= 0 && cc < n) {
          cols[k] = nbr;
          vals[k] = -w;
          k++;
        }
      }
    }
    cols[k] = row;
    vals[k] = diag;
    k++;
    PetscCall(MatSetValues(*A, 1, &row, k, cols, vals, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

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

int main(int argc, char **argv)
{
  PetscInt           dim = 2, n = 32, its_g, its_s, its_tol = 0;
  KSPConvergedReason rg, rs;
  Mat                A;
  Vec                b, xg, xs, r;
  PetscReal          rn, bn;
  PetscRandom        rnd;
  size_t             mem0, mem1;
  KSPType            ktype;
  KSP                probe;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dim", &dim, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-its_tolerance", &its_tol, NULL));
  PetscCheck(dim == 2 || dim == 3, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-dim must be 2 or 3");
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem0));
  PetscCall(Laplacian(dim, n, &A));
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
  PetscCheck(PetscAbs(its_g - its_s) <= its_tol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "iteration counts differ: gpu %" PetscInt_FMT ", standard %" PetscInt_FMT " (allowed difference %" PetscInt_FMT ")", its_g, its_s, its_tol);
  /* the same iterates agree to rounding; a solve that stopped one iteration apart agrees to the tolerance */
  TestCheckVec(xg, xs, its_g == its_s ? 1e-8 : 1e-5, "solution with gpu vectors vs standard vectors");
  /* true residual of the gpu solution */
  PetscCall(VecDuplicate(b, &r));
  PetscCall(MatMult(A, xg, r));
  PetscCall(VecAXPY(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rn));
  PetscCall(VecNorm(b, NORM_2, &bn));
  PetscCheck(rn <= 1e-6 * bn, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "true relative residual %g too large", (double)(rn / bn));
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
  PetscCall(PetscFinalize());
  return 0;
}

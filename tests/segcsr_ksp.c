static const char help[] = "KSP with a segcsr (or -type hec) matrix against the same solve with AIJ.\n"
                           "  -dim <2,3> -n <points per direction>; KSP and PC from the options; the type's options (-mat_segcsr_short ...,\n"
                           "  -mat_hec_ratio ...) apply. -type <segcsr,hec>: the GPUPC type solved with (default segcsr).\n"
                           "Checks: segcsr type, gpu work vectors, same iteration count and reason, solutions agree.\n";

#include <petscksp.h>
#include <petscgpupc.h>
#include "gpupctest.h"

static PetscErrorCode Solve(Mat A, Vec bref, Vec *x, PetscInt *its, KSPConvergedReason *reason)
{
  KSP ksp;
  Vec b;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, x, &b));
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
  PetscInt           dim = 2, n = 32, its_s, its_a;
  PetscReal          conv = 0.0;
  KSPConvergedReason rs, ra;
  Mat                A, S;
  Vec                b, xs, xa, probe;
  size_t             mem0, mem1;
  PetscBool          ok;
  PetscRandom        rnd;
  VecType            vt;
  MatType            mt;
  char               type[64] = MATSEGCSR;
  PetscBool          isseg;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dim", &dim, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-convection", &conv, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-type", type, sizeof(type), NULL));
  PetscCall(PetscStrcmp(type, MATSEGCSR, &isseg));
  PetscCheck(dim == 2 || dim == 3, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-dim must be 2 or 3");
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem0));
  PetscCall(TestGridOperator(dim, n, conv, MATAIJ, &A));
  PetscCall(TestGridOperator(dim, n, conv, type, &S));
  PetscCall(MatSetFromOptions(S)); /* assembled: a segcsr (hec) option re-lays it out */
  if (isseg) PetscCall(TestCheckSegCSRShortMode(S));
  PetscCall(MatGetType(S, &mt));
  if (isseg) PetscCall(PetscObjectTypeCompareAny((PetscObject)S, &ok, MATSEQSEGCSR, MATMPISEGCSR, ""));
  else PetscCall(PetscObjectTypeCompareAny((PetscObject)S, &ok, MATSEQHEC, MATMPIHEC, ""));
  PetscCheck(ok, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatSetType(%s) gave %s", type, mt);
  PetscCall(MatCreateVecs(S, &probe, NULL));
  PetscCall(VecGetType(probe, &vt));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)probe, &ok, VECSEQGPU, VECMPIGPU, ""));
  PetscCheck(ok, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatCreateVecs of a %s matrix gave vector type %s, expected gpu", type, vt);
  PetscCall(VecDestroy(&probe));
  PetscCall(MatCreateVecs(A, NULL, &b));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(VecSetRandom(b, rnd));
  PetscCall(PetscRandomDestroy(&rnd));

  PetscCall(Solve(S, b, &xs, &its_s, &rs));
  PetscCall(Solve(A, b, &xa, &its_a, &ra));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s %" PetscInt_FMT " its (%s), aij %" PetscInt_FMT " its (%s)\n", type, its_s, KSPConvergedReasons[rs], its_a, KSPConvergedReasons[ra]));
  PetscCheck(rs > 0 && ra > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "a solve did not converge: %s %s, aij %s", type, KSPConvergedReasons[rs], KSPConvergedReasons[ra]);
  PetscCheck(its_s == its_a, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "iteration counts differ: %s %" PetscInt_FMT ", aij %" PetscInt_FMT, type, its_s, its_a);
  TestCheckVec(xs, xa, 1e-7, "GPUPC-type solution vs aij solution");
  PetscCall(VecDestroy(&xs));
  PetscCall(VecDestroy(&xa));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&S));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem1));
  PetscCheck(mem0 == mem1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "device memory in use went from %zu to %zu bytes", mem0, mem1);
  PetscCall(PetscFinalize());
  return 0;
}

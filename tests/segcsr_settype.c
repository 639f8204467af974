static const char help[] = "MatSetType(segcsr) on a matrix that already is seqsegcsr/mpisegcsr gives a working matrix\n"
                           "(the generic type must not be emptied by the set-type call). -type hec: the same for hec.\n";

#include <petscmat.h>
#include <petscgpupc.h>

int main(int argc, char **argv)
{
  Mat         A;
  Vec         x, y;
  PetscMPIInt size;
  PetscInt    lo, hi;
  PetscReal   err;
  char        type[32] = "segcsr", seq[40], mpi[40];

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-type", type, sizeof(type), NULL));
  PetscCall(PetscSNPrintf(seq, sizeof(seq), "seq%s", type));
  PetscCall(PetscSNPrintf(mpi, sizeof(mpi), "mpi%s", type));
  PetscCall(MatCreate(PETSC_COMM_WORLD, &A));
  PetscCall(MatSetSizes(A, PETSC_DECIDE, PETSC_DECIDE, 40, 40));
  PetscCall(MatSetType(A, size == 1 ? seq : mpi));
  PetscCall(MatSetType(A, type));
  PetscCall(MatSetUp(A));
  PetscCall(MatGetOwnershipRange(A, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) {
    PetscScalar v = 1.0 + i;
    PetscCall(MatSetValue(A, i, i, v, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecSet(x, 2.0));
  PetscCall(MatMult(A, x, y));
  PetscCall(VecShift(y, -2.0)); /* y_i = 2 (1 + i) - 2 = 2 i */
  {
    PetscScalar s;
    PetscCall(VecSum(y, &s));
    err = PetscAbsScalar(s - 2.0 * (39.0 * 40.0 / 2.0));
  }
  PetscCheck(err < 1e-10, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatMult after MatSetType(%s) on a %s matrix is wrong (sum off by %g)", type, type, (double)err);
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

static const char help[] = "bench/amgsetup: PC gpuamg's setup (PCSetUp) on Q1 elasticity (tests/elasticq1.h) with the operator in each\n"
                           "Mat type, over the time with AIJ (issue 34 item 4: a bcsr or hec operator made the setup superlinear)\n"
                           "  -ne <n>      elements across the beam (2n x n x n elements, 3 (2n+1)(n+1)^2 unknowns; default 10)\n"
                           "  -reps <r>    setups per type, the fastest counts (default 3)\n"
                           "  -types <list> operator types (default aij,segcsr,hec,bcsr)\n"
                           "  and the PC's options (-pc_gpuamg_type agg|classical, ...)\n";

#include <petscksp.h>
#include <petscgpupc.h>
#include <petsctime.h>
#include "../tests/elasticq1.h"

int main(int argc, char **argv)
{
  PetscInt  ne = 10, reps = 3, ntypes = 8;
  char     *types[8];
  PetscReal taij = 0.0;
  PetscBool set;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-ne", &ne, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, NULL));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-types", types, &ntypes, &set));
  if (!set) {
    const char *def[] = {"aij", "segcsr", "hec", "bcsr"};
    ntypes            = 4;
    for (PetscInt t = 0; t < ntypes; t++) PetscCall(PetscStrallocpy(def[t], &types[t]));
  }
  PetscCheck(ne >= 1 && reps >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-ne and -reps must be at least 1");
  for (PetscInt t = 0; t < ntypes; t++) {
    ElasticQ1  P;
    Mat        A;
    PetscReal *coords, best = PETSC_MAX_REAL;
    PetscInt   N;
    PetscCall(PetscOptionsSetValue(NULL, "-mat_type", types[t]));
    PetscCall(ElasticQ1Assemble(PETSC_COMM_WORLD, ne, -1, 0, &P, &A, &coords));
    PetscCall(MatGetSize(A, &N, NULL));
    for (PetscInt r = 0; r < reps; r++) {
      KSP            ksp;
      PC             pc;
      PetscLogDouble t0, t1;
      PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
      PetscCall(KSPSetOperators(ksp, A, A));
      PetscCall(KSPGetPC(ksp, &pc));
      PetscCall(PCSetType(pc, PCGPUAMG));
      PetscCall(KSPSetFromOptions(ksp));
      PetscCall(PCSetCoordinates(pc, 3, P.nend - P.nstart, coords));
      PetscCall(PetscBarrier((PetscObject)A));
      PetscCall(PetscTime(&t0));
      PetscCall(PCSetUp(pc));
      PetscCall(PetscBarrier((PetscObject)A));
      PetscCall(PetscTime(&t1));
      best = PetscMin(best, (PetscReal)(t1 - t0));
      PetscCall(KSPDestroy(&ksp));
    }
    if (t == 0) taij = best;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "amgsetup: type=%s n=%" PetscInt_FMT " setup_s=%.4f ratio_to_first=%.2f\n", types[t], N, (double)best, (double)(best / taij)));
    PetscCall(MatDestroy(&A));
    PetscCall(PetscFree(coords));
    PetscCall(PetscFree(types[t]));
  }
  PetscCall(PetscOptionsClearValue(NULL, "-mat_type"));
  PetscCall(PetscFinalize());
  return 0;
}

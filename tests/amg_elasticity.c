static const char help[] = "PC gpuamg on 3D Q1 elasticity (tests/elasticq1.h: block size 3, clamped beam) as a user's program sets it up:\n"
                           "a rigid-body near-null space (MatNullSpaceCreateRigidBody) and/or PCSetCoordinates, any Mat type\n"
                           "(-mat_type aij, baij, sbaij, bcsr), a rank without rows (-empty_rank), solved twice (new values on the same\n"
                           "pattern the second time); CG must converge within -max_its with the error of the solution below 1e-5.\n"
                           "  -ne <n>            elements across the beam (2n x n x n elements; default 4)\n"
                           "  -empty_rank <r>    this rank owns no rows (default -1: none)\n"
                           "  -nearnull <both,rbm,coords,none>  rigid-body near-null space on the matrix, coordinates to the PC, both, none\n"
                           "  -max_its <n>       iteration bound (default 40)\n"
                           "  -bad_input <coords,coords_setup,agree>  a wrong point count on one rank (given with the operator set, or\n"
                           "                     before it so the setup finds it), or one rank failing a setup phase (GPUPCAMGAgree):\n"
                           "                     every rank must stop with the same named error\n";

#include <petscksp.h>
#include <petscgpupc.h>
#include <gpupc/amg.h>
#include "elasticq1.h"

/* every rank got an error with code `code` whose message contains `what` */
static PetscErrorCode ExpectEveryRank(MPI_Comm comm, PetscErrorCode ierr, PetscErrorCode code, const char *what)
{
  const char *text     = NULL;
  char       *specific = NULL, *found = NULL;
  PetscMPIInt ok, allok, rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (ierr) (void)PetscErrorMessage(ierr, &text, &specific);
  if (specific) PetscCall(PetscStrstr(specific, what, &found));
  ok = ierr == code && found;
  PetscCallMPI(MPI_Allreduce(&ok, &allok, 1, MPI_INT, MPI_MIN, comm));
  PetscCall(PetscSynchronizedPrintf(comm, "[%d] error %d: %s\n", rank, (int)ierr, specific ? specific : "(none)"));
  PetscCall(PetscSynchronizedFlush(comm, PETSC_STDOUT));
  PetscCheck(allok, comm, PETSC_ERR_PLIB, "not every rank stopped with error %d naming \"%s\"", (int)code, what);
  PetscCall(PetscPrintf(comm, "every rank stopped with error %d naming \"%s\"\n", (int)code, what));
  PetscFunctionReturn(0);
}

/* a rank-local phase that fails on one rank only */
static PetscErrorCode FailOn(PetscMPIInt rank, PetscMPIInt bad)
{
  PetscFunctionBegin;
  PetscCheck(rank != bad, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "a local failure on rank %d", bad);
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  MPI_Comm    comm;
  PetscMPIInt size, rank, empty_rank = -1, last;
  PetscInt    ne = 4, max_its = 40, nloc;
  char        nearnull[16] = "both", bad[16] = "";
  PetscBool   rbm, crd;
  ElasticQ1   P;
  Mat         A;
  PetscReal  *coords;
  KSP         ksp;
  PC          pc;
  Vec         x, xe, b;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  comm = PETSC_COMM_WORLD;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  {
    PetscInt er = -1;
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-ne", &ne, NULL));
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-empty_rank", &er, NULL));
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-max_its", &max_its, NULL));
    PetscCall(PetscOptionsGetString(NULL, NULL, "-nearnull", nearnull, sizeof(nearnull), NULL));
    PetscCall(PetscOptionsGetString(NULL, NULL, "-bad_input", bad, sizeof(bad), NULL));
    empty_rank = (PetscMPIInt)er;
  }
  PetscCheck(ne >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-ne must be at least 1");
  PetscCall(PetscStrcmp(nearnull, "both", &rbm));
  crd = rbm;
  if (!rbm) PetscCall(PetscStrcmp(nearnull, "rbm", &rbm));
  if (!crd) PetscCall(PetscStrcmp(nearnull, "coords", &crd));
  last = (empty_rank == size - 1 && size > 1) ? size - 2 : size - 1; /* the last rank with rows */

  if (!strcmp(bad, "agree")) { /* the mechanism itself: one rank fails, every rank returns an error naming it */
    PetscErrorCode ierr;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = GPUPCAMGAgree(comm, FailOn(rank, last), "a test phase", 0);
    PetscCall(PetscPopErrorHandler());
    PetscCall(ExpectEveryRank(comm, ierr, PETSC_ERR_ARG_WRONG, "a local failure on rank"));
    PetscCall(PetscFinalize());
    return 0;
  }

  PetscCall(ElasticQ1Assemble(comm, ne, empty_rank, 0, &P, &A, &coords));
  nloc = P.nend - P.nstart;
  {
    MatType  type;
    PetscInt N, bs;
    PetscCall(MatGetType(A, &type));
    PetscCall(MatGetSize(A, &N, NULL));
    PetscCall(MatGetBlockSize(A, &bs));
    PetscCall(PetscPrintf(comm, "Q1 elasticity: %" PetscInt_FMT " unknowns, %s, block size %" PetscInt_FMT ", near-null space %s\n", N, type, bs, nearnull));
    PetscCheck(bs == 3, comm, PETSC_ERR_PLIB, "the matrix lost its block size 3");
  }
  if (rbm) {
    Vec          c;
    PetscScalar *v;
    MatNullSpace nsp;
    PetscCall(VecCreateMPI(comm, 3 * nloc, PETSC_DECIDE, &c));
    PetscCall(VecSetBlockSize(c, 3));
    PetscCall(VecGetArrayWrite(c, &v));
    for (PetscInt i = 0; i < 3 * nloc; i++) v[i] = coords[i];
    PetscCall(VecRestoreArrayWrite(c, &v));
    PetscCall(MatNullSpaceCreateRigidBody(c, &nsp));
    PetscCall(MatSetNearNullSpace(A, nsp));
    PetscCall(MatNullSpaceDestroy(&nsp));
    PetscCall(VecDestroy(&c));
  }
  PetscCall(KSPCreate(comm, &ksp));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCGPUAMG));
  PetscCall(KSPSetTolerances(ksp, 1e-10, 0.0, PETSC_DEFAULT, 500));
  PetscCall(KSPSetFromOptions(ksp));
  if (!strcmp(bad, "coords") || !strcmp(bad, "coords_setup")) {
    PetscErrorCode ierr;
    PetscInt       n    = rank == last ? nloc - 1 : nloc;
    PetscBool      late = (PetscBool)!strcmp(bad, "coords_setup");
    if (!late) PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = PCSetCoordinates(pc, 3, n, coords);
    if (!ierr && late) {
      ierr = KSPSetOperators(ksp, A, A);
      if (!ierr) ierr = KSPSetUp(ksp);
    }
    PetscCall(PetscPopErrorHandler());
    PetscCall(ExpectEveryRank(comm, ierr, PETSC_ERR_ARG_SIZ, "PCSetCoordinates on PC gpuamg: rank"));
  } else {
    PetscCall(KSPSetOperators(ksp, A, A));
    if (crd) PetscCall(PCSetCoordinates(pc, 3, nloc, coords));
    PetscCall(MatCreateVecs(A, &x, &b));
    PetscCall(VecDuplicate(x, &xe));
    for (PetscInt pass = 0; pass < 2; pass++) {
      KSPConvergedReason reason;
      PetscInt           its;
      PetscReal          err, nrm;
      if (pass) PetscCall(ElasticQ1Assemble(comm, ne, empty_rank, 1, &P, &A, &coords));
      PetscCall(VecSetRandom(xe, NULL));
      PetscCall(MatMult(A, xe, b));
      PetscCall(VecZeroEntries(x));
      PetscCall(KSPSolve(ksp, b, x));
      PetscCall(KSPGetConvergedReason(ksp, &reason));
      PetscCall(KSPGetIterationNumber(ksp, &its));
      PetscCall(VecNorm(xe, NORM_2, &nrm));
      PetscCall(VecAXPY(x, -1.0, xe));
      PetscCall(VecNorm(x, NORM_2, &err));
      PetscCall(PetscPrintf(comm, "solve %" PetscInt_FMT " (%s): %s in %" PetscInt_FMT " iterations, relative error %.1e\n", pass + 1, pass ? "new values, same pattern" : "first", KSPConvergedReasons[reason], its, (double)(err / nrm)));
      PetscCheck(reason > 0 && its <= max_its, comm, PETSC_ERR_NOT_CONVERGED, "solve %" PetscInt_FMT ": %s after %" PetscInt_FMT " iterations (bound %" PetscInt_FMT ")", pass + 1, KSPConvergedReasons[reason], its, max_its);
      PetscCheck(err <= 1e-5 * nrm, comm, PETSC_ERR_NOT_CONVERGED, "solve %" PetscInt_FMT ": relative error %g of the solution", pass + 1, (double)(err / nrm));
    }
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&xe));
    PetscCall(VecDestroy(&b));
  }
  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFree(coords));
  PetscCall(PetscFinalize());
  return 0;
}

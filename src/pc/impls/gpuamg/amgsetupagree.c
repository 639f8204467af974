/*
   Agreement between the ranks of PC gpuamg's setup (gpupc/amg.h).

   Most of the setup is rank-local (each rank coarsens its own rows), and between the local phases come collective
   calls (MatCreateAIJ, MatPtAP, MatNullSpaceCreateRigidBody). An error that one rank raises in a local phase must not
   leave the others waiting in the next collective call, and an error raised on the PC's communicator by a rank other
   than its first is not printed at all (PETSc prints such errors on rank 0 only): the rank then leaves without a word.
   So a local phase raises its errors on PETSC_COMM_SELF, and GPUPCAMGAgree() after it tells every rank whether some
   rank failed; all ranks then stop with an error that names the phase, the failing rank and its message.
*/
#include <gpupc/amg.h>

/*@C
   GPUPCAMGAgree - after a rank-local phase of the setup: all ranks learn whether some rank failed and then all stop

   Collective

   Input Parameters:
+  comm  - the communicator of the level matrix
.  ierr  - this rank's result of the phase (0: it succeeded)
.  phase - what the phase does (for the message)
-  level - the level it worked on

   Notes:
   The failing rank returns its own error (printed where it was raised, on PETSC_COMM_SELF); every other rank raises
   one with the same code whose message names the phase, the lowest failing rank and that rank's message.

   Level: developer

.seealso: GPUPCAMGHierarchyBuild(), GPUPCAMGCheckCoordinates()
@*/
PetscErrorCode GPUPCAMGAgree(MPI_Comm comm, PetscErrorCode ierr, const char *phase, PetscInt level)
{
  PetscMPIInt size, rank, mine, first, code = (PetscMPIInt)ierr;
  char        msg[512] = "";

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  mine = ierr ? rank : size;
  if (size > 1) PetscCallMPI(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm));
  else first = mine;
  if (first == size) PetscFunctionReturn(0);
  if (size > 1) {
    if (rank == first) {
      const char *text     = NULL;
      char       *specific = NULL;
      (void)PetscErrorMessage(ierr, &text, &specific);
      PetscCall(PetscStrncpy(msg, specific && specific[0] ? specific : (text ? text : "unknown error"), sizeof(msg)));
    }
    PetscCallMPI(MPI_Bcast(&code, 1, MPI_INT, first, comm));
    PetscCallMPI(MPI_Bcast(msg, (PetscMPIInt)sizeof(msg), MPI_CHAR, first, comm));
  }
  PetscCall(ierr);
  SETERRQ(PETSC_COMM_SELF, (PetscErrorCode)code, "PC gpuamg setup, %s of level %" PetscInt_FMT ", failed on rank %d: %s (this rank stops too)", phase, level, first, msg);
}

/*@C
   GPUPCAMGCheckCoordinates - checks that every rank gave one coordinate point per local block row

   Collective on A

   Input Parameters:
+  A     - the operator
.  dim   - the dimension of the points (1, 2 or 3)
-  nloc  - this rank's number of points

   Notes:
   A rank without rows gives 0 points (and may pass NULL coordinates). The error is raised on every rank and names
   the first rank whose count is wrong, so it is printed whichever rank that is.

   Level: developer

.seealso: PCSetCoordinates(), GPUPCAMGAgree()
@*/
PetscErrorCode GPUPCAMGCheckCoordinates(Mat A, PetscInt dim, PetscInt nloc)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)A);
  PetscMPIInt size, rank, mine, first;
  PetscInt    bs, n, have[3];

  PetscFunctionBegin;
  PetscCheck(dim >= 1 && dim <= 3, comm, PETSC_ERR_ARG_OUTOFRANGE, "PCSetCoordinates: dimension %" PetscInt_FMT " is not 1, 2 or 3", dim);
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(MatGetBlockSize(A, &bs));
  PetscCall(MatGetLocalSize(A, &n, NULL));
  mine = (nloc != n / bs || nloc < 0) ? rank : size;
  PetscCallMPI(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm));
  if (first == size) PetscFunctionReturn(0);
  have[0] = nloc;
  have[1] = n / bs;
  have[2] = bs;
  PetscCallMPI(MPI_Bcast(have, 3, MPIU_INT, first, comm));
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "PCSetCoordinates on PC gpuamg: rank %d gave %" PetscInt_FMT " points for its %" PetscInt_FMT " local block rows (block size %" PetscInt_FMT "); every rank must give one point per block row it owns (0 on a rank without rows)", first, have[0], have[1], have[2]);
}

/*
   -ksp_view of PC gpuamg on several ranks: the halo of every level's products (gpupc/matgpu.h GPUPCMatHaloStats), so
   the messages and values a cycle exchanges are read from the view (issue: the cycle's message count per level).
*/
#include <gpupc/amgcycle.h>
#include <gpupc/matgpu.h>

static PetscErrorCode Cell(PetscViewer viewer, Mat M)
{
  GPUPCHaloStats st;

  PetscFunctionBegin;
  if (!M) {
    PetscCall(PetscViewerASCIIPrintf(viewer, " %27s", "-"));
    PetscFunctionReturn(0);
  }
  PetscCall(GPUPCMatHaloStats(M, &st));
  if (!st.known) PetscCall(PetscViewerASCIIPrintf(viewer, " %27s", "(not MPIAIJ-based)"));
  else PetscCall(PetscViewerASCIIPrintf(viewer, " %6" PetscInt64_FMT " %3" PetscInt64_FMT " %9" PetscInt64_FMT " %7" PetscInt64_FMT, st.messages, st.nbr_max, st.ghosts, st.ghosts_max));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDeviceViewHalo - on several ranks, per level and per product with A, P and R: the messages (owner, reader
   pairs summed over the ranks), the most neighbours of a rank, the ghost values summed over the ranks and the most of
   a rank; then what the last level's gather moves

   Collective

   Level: developer

.seealso: GPUPCAMGDeviceView(), GPUPCMatHaloStats()
@*/
PetscErrorCode GPUPCAMGDeviceViewHalo(const GPUPCAMGDevice *D, PetscViewer viewer)
{
  PetscMPIInt size;
  MPI_Comm    comm;

  PetscFunctionBegin;
  if (D->nlevels < 1) PetscFunctionReturn(0);
  comm = PetscObjectComm((PetscObject)D->levels[0].A);
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (size == 1) PetscFunctionReturn(0);
  PetscCall(PetscViewerASCIIPrintf(viewer, "halo of one product on %d ranks (msgs: owner-reader pairs over all ranks; nbr: most neighbours of a rank; ghosts: values received, all ranks / most of a rank):\n", (int)size));
  PetscCall(PetscViewerASCIIPrintf(viewer, "level |       A: msgs nbr    ghosts     max |       P: msgs nbr    ghosts     max |       R: msgs nbr    ghosts     max\n"));
  for (PetscInt l = 0; l < D->nlevels; l++) {
    const GPUPCAMGDeviceLevel *L = &D->levels[l];

    PetscCall(PetscViewerASCIIPrintf(viewer, "%5" PetscInt_FMT " |", l));
    PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
    if (l == D->nlevels - 1) {
      PetscCall(PetscViewerASCIIPrintf(viewer, " last level: %s\n", D->redundant ? "its right-hand side gathered to every rank (one allgather of its rows), solved redundantly" : "on one rank"));
    } else {
      PetscCall(Cell(viewer, L->A));
      PetscCall(PetscViewerASCIIPrintf(viewer, " |"));
      PetscCall(Cell(viewer, L->P));
      PetscCall(PetscViewerASCIIPrintf(viewer, " |"));
      PetscCall(Cell(viewer, L->R));
      PetscCall(PetscViewerASCIIPrintf(viewer, "\n"));
    }
    PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
  }
  PetscFunctionReturn(0);
}

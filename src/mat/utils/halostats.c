/*
   The halo of a parallel matrix as the cycles' views report it (-ksp_view of PC gpuamg and PC cmg on several ranks):
   how many ranks each rank receives ghost values from in one product, and how many values. One product y = A x
   receives, on every rank, the x entries of its off-diagonal block's columns (the ghosts) from their owners: one
   message per (owner, reader) pair. The counts come from the off-diagonal block's column map and the column
   ownership ranges; they are those of PETSc's MPIAIJ scatter and of GPUPC's halo plan (src/mat/utils/halo.c), which
   both move each ghost once per product.
*/
#include <gpupc/matgpu.h>
#include <gpupc/devmpiblocks.h> /* the distributed device-only shells: their ghosts */

/*@C
   GPUPCMatHaloStats - neighbours and ghost values of one product with a parallel matrix

   Collective on A

   Input Parameter:
.  A - an MPIAIJ-based matrix (MPIAIJ, a type derived from it, or a GPUPC type on several ranks), a distributed
       device-only matrix (GPUPCDevMPIBlocksCreateMat()), or any matrix on one rank

   Output Parameter:
.  st - the counts: st->known is false when A is neither (then the rest is zero)

   Notes:
   messages = the (owner, reader) pairs of one product summed over the ranks; ghosts = the values received, summed over
   the ranks; the maxima are over the ranks. The transpose product moves the same values the other way.

   Level: developer

.seealso: GPUPCHaloCreate()
@*/
PetscErrorCode GPUPCMatHaloStats(Mat A, GPUPCHaloStats *st)
{
  PetscMPIInt     size;
  PetscBool       mpiaij, shell = PETSC_FALSE;
  Mat             Ad, Ao;
  const PetscInt *garray, *ranges;
  PetscInt        nghost, nbr = 0;
  PetscInt64      loc[2], sum[2], mx[2];
  MPI_Comm        comm = PetscObjectComm((PetscObject)A);

  PetscFunctionBegin;
  PetscCall(PetscMemzero(st, sizeof(*st)));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (size == 1) {
    st->known = PETSC_TRUE;
    PetscFunctionReturn(0);
  }
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATMPIAIJ, &mpiaij));
  if (!mpiaij) PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &mpiaij, MATMPISEGCSR, MATMPIHEC, MATMPIBCSR, ""));
  if (!mpiaij) PetscCall(GPUPCDevMPIBlocksMatGetInfo(A, &shell, &nghost, &garray, NULL, NULL));
  if (!mpiaij && !shell) PetscFunctionReturn(0); /* the same answer on every rank: the type is collective */
  if (mpiaij) {
    PetscCall(GPUPCMatMPIAIJGetSeqAIJ(A, &Ad, &Ao, &garray));
    PetscCall(MatGetSize(Ao, NULL, &nghost));
  }
  PetscCall(MatGetOwnershipRangesColumn(A, &ranges));
  /* garray is sorted: one pass, the owner advancing */
  for (PetscInt g = 0, owner = 0, last = -1; g < nghost; g++) {
    while (garray[g] >= ranges[owner + 1]) owner++;
    if (owner != last) {
      nbr++;
      last = owner;
    }
  }
  loc[0] = nbr;
  loc[1] = nghost;
  PetscCallMPI(MPIU_Allreduce(loc, sum, 2, MPIU_INT64, MPI_SUM, comm));
  PetscCallMPI(MPIU_Allreduce(loc, mx, 2, MPIU_INT64, MPI_MAX, comm));
  st->known      = PETSC_TRUE;
  st->messages   = sum[0];
  st->ghosts     = sum[1];
  st->nbr_max    = mx[0];
  st->ghosts_max = mx[1];
  st->ranks      = size;
  PetscFunctionReturn(0);
}

/*
   A distributed matrix as each rank's diagonal and off-diagonal blocks on the device (gpupc/devmpiblocks.h): made from
   an MPIAIJ (or a type derived from it) by copying its host blocks up as they are, and made into a host MPIAIJ by
   copying them down (for the host readers of a level: the last level's gather, -pc_gpuamg_keep_host_levels, tests).
*/
#include <gpupc/devmpiblocks.h>
#include <gpupc/matgpu.h>

/* a device copy of a host block, values included */
static PetscErrorCode BlockUp(const GPUPCCSR *h, GPUPCDevCSR *d)
{
  PetscFunctionBegin;
  PetscCall(GPUPCDevCSRCreate(h->m, h->n, h->nnz, PETSC_TRUE, d));
  if (h->m) PetscCall(GPUPCCopyToDevice(d->i, h->i, h->m + 1));
  else PetscCall(GPUPCMemzero(d->i, sizeof(PetscInt)));
  PetscCall(GPUPCCopyToDevice(d->j, h->j, h->nnz));
  PetscCall(GPUPCCopyToDevice(d->a, h->a, h->nnz));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevMPIBlocksFromMat - the device blocks of a distributed matrix

   Collective on A

   Input Parameter:
.  A - an MPIAIJ matrix or a type derived from it (mpisegcsr, mpihec, mpibcsr), assembled, its blocks on the host

   Output Parameter:
.  B - the blocks (GPUPCDevMPIBlocksDestroy() frees them); the arrays are copied up as they are

   Level: developer

.seealso: GPUPCDevMPIBlocksToMat(), GPUPCDevMPIBlocksDestroy()
@*/
PetscErrorCode GPUPCDevMPIBlocksFromMat(Mat A, GPUPCDevMPIBlocks *B)
{
  Mat             Ad, Ao;
  const PetscInt *garray;
  GPUPCCSR        d, o;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(B, sizeof(*B)));
  PetscCall(GPUPCMatMPIAIJGetSeqAIJ(A, &Ad, &Ao, &garray));
  PetscCall(GPUPCMatGetCSR(Ad, &d));
  PetscCall(GPUPCMatGetCSR(Ao, &o));
  PetscCheck(!d.device && !o.device, PETSC_COMM_SELF, PETSC_ERR_SUP, "GPUPCDevMPIBlocksFromMat: the matrix's blocks are held on the device only; give a matrix with host blocks (MPIAIJ or a GPUPC type made from one)");
  B->comm = PetscObjectComm((PetscObject)A);
  PetscCall(MatGetSize(A, &B->M, &B->N));
  PetscCall(MatGetOwnershipRange(A, &B->rstart, NULL));
  PetscCall(MatGetOwnershipRangeColumn(A, &B->cstart, NULL));
  PetscCall(BlockUp(&d, &B->d));
  PetscCall(BlockUp(&o, &B->o));
  B->nghost = o.n;
  PetscCall(PetscMalloc1(PetscMax(o.n, 1), &B->garray));
  PetscCall(PetscArraycpy(B->garray, garray, o.n));
  PetscCall(GPUPCMatRestoreCSR(&o));
  PetscCall(GPUPCMatRestoreCSR(&d));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevMPIBlocksToMat - a host MPIAIJ matrix holding the blocks (values 0 where the blocks have none)

   Collective on B's communicator

   Input Parameter:
.  B - the blocks

   Output Parameter:
.  A - a new MPIAIJ matrix (rows and columns laid out as B's)

   Level: developer

.seealso: GPUPCDevMPIBlocksFromMat()
@*/
PetscErrorCode GPUPCDevMPIBlocksToMat(const GPUPCDevMPIBlocks *B, Mat *A)
{
  const PetscInt m = B->d.m;
  PetscInt      *di, *dj, *oi, *oj, *nd, *no;
  PetscScalar   *da, *oa;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(m + 1, &di, B->d.nnz, &dj, B->d.nnz, &da));
  PetscCall(PetscMalloc3(m + 1, &oi, B->o.nnz, &oj, B->o.nnz, &oa));
  PetscCall(GPUPCCopyToHost(di, B->d.i, m + 1));
  PetscCall(GPUPCCopyToHost(dj, B->d.j, B->d.nnz));
  PetscCall(GPUPCCopyToHost(oi, B->o.i, m + 1));
  PetscCall(GPUPCCopyToHost(oj, B->o.j, B->o.nnz));
  if (B->d.a) PetscCall(GPUPCCopyToHost(da, B->d.a, B->d.nnz));
  else PetscCall(PetscArrayzero(da, B->d.nnz));
  if (B->o.a) PetscCall(GPUPCCopyToHost(oa, B->o.a, B->o.nnz));
  else PetscCall(PetscArrayzero(oa, B->o.nnz));
  PetscCall(PetscMalloc2(m, &nd, m, &no));
  for (PetscInt r = 0; r < m; r++) {
    nd[r] = di[r + 1] - di[r];
    no[r] = oi[r + 1] - oi[r];
  }
  PetscCall(MatCreate(B->comm, A));
  PetscCall(MatSetSizes(*A, m, B->d.n, B->M, B->N));
  PetscCall(MatSetType(*A, MATMPIAIJ));
  PetscCall(MatMPIAIJSetPreallocation(*A, 0, nd, 0, no));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  for (PetscInt r = 0; r < m; r++) {
    const PetscInt row = B->rstart + r;

    for (PetscInt e = di[r]; e < di[r + 1]; e++) dj[e] += B->cstart;
    for (PetscInt e = oi[r]; e < oi[r + 1]; e++) oj[e] = B->garray[oj[e]];
    PetscCall(MatSetValues(*A, 1, &row, nd[r], dj + di[r], da + di[r], INSERT_VALUES));
    PetscCall(MatSetValues(*A, 1, &row, no[r], oj + oi[r], oa + oi[r], INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree2(nd, no));
  PetscCall(PetscFree3(oi, oj, oa));
  PetscCall(PetscFree3(di, dj, da));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevMPIBlocksDestroy - frees the blocks' device arrays and garray

   Not Collective

   Input Parameter:
.  B - the blocks (zeroed on return; a zeroed record is accepted)

   Level: developer

.seealso: GPUPCDevMPIBlocksFromMat()
@*/
PetscErrorCode GPUPCDevMPIBlocksDestroy(GPUPCDevMPIBlocks *B)
{
  PetscFunctionBegin;
  PetscCall(GPUPCDevCSRDestroy(&B->d));
  PetscCall(GPUPCDevCSRDestroy(&B->o));
  PetscCall(PetscFree(B->garray));
  PetscCall(PetscMemzero(B, sizeof(*B)));
  PetscFunctionReturn(0);
}

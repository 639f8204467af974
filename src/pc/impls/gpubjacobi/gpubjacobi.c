/*
   PC gpubjacobi: block Jacobi with dense inverses of the diagonal blocks of bs consecutive rows. The inverses are
   computed on the host at every setup (gpubjacobiinvert.c), uploaded once per setup, and each application is one
   kernel of batched small dense products on the device (gpupc/gpubjacobikernels.h; host/ and cuda/). The setup and
   the application of the blocks are gpubjacobiblocks.c's, shared with PC gpuamg's bjacobi smoother.
*/
#include <gpupc/gpubjacobi.h>

PetscLogEvent PC_GPUBJacobi_Invert, PC_GPUBJacobi_Upload, PC_GPUBJacobi_Apply;

PetscErrorCode PCGPUBJacobiRegisterEvents(void)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventRegister("GPUBJacInvert", PC_CLASSID, &PC_GPUBJacobi_Invert));
  PetscCall(PetscLogEventRegister("GPUBJacUpload", PC_CLASSID, &PC_GPUBJacobi_Upload));
  PetscCall(PetscLogEventRegister("GPUBJacApply", PC_CLASSID, &PC_GPUBJacobi_Apply));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCReset_GPUBJacobi(PC pc)
{
  PC_GPUBJacobi *pbj = (PC_GPUBJacobi *)pc->data;

  PetscFunctionBegin;
  PetscCall(GPUPCPBJBlocksDestroy(&pbj->dev));
  pbj->built = PETSC_FALSE;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUBJacobiSetBlockSize_GPUBJacobi(PC pc, PetscInt bs)
{
  PC_GPUBJacobi *pbj = (PC_GPUBJacobi *)pc->data;

  PetscFunctionBegin;
  if (pbj->bs_set != bs && pc->setupcalled) { /* other blocks: the next setup builds afresh */
    PetscCall(PetscInfo(pc, "gpubjacobi: block size changed after setup; the next setup inverts the new blocks\n"));
    PetscCall(PCReset_GPUBJacobi(pc));
    pc->setupcalled = 0;
  }
  pbj->bs_set = bs;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUBJacobiGetBlockSize_GPUBJacobi(PC pc, PetscInt *bs)
{
  PC_GPUBJacobi *pbj = (PC_GPUBJacobi *)pc->data;

  PetscFunctionBegin;
  *bs = pbj->built ? pbj->bs : pbj->bs_set;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCDestroy_GPUBJacobi(PC pc)
{
  PetscFunctionBegin;
  PetscCall(PCReset_GPUBJacobi(pc));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUBJacobiSetBlockSize_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUBJacobiGetBlockSize_C", NULL));
  PetscCall(PetscFree(pc->data));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCSetUp_GPUBJacobi(PC pc)
{
  PC_GPUBJacobi *pbj = (PC_GPUBJacobi *)pc->data;
  Mat            A   = pc->pmat;
  PetscInt       m, n, M, N, bs;

  PetscFunctionBegin;
  PetscCall(MatGetSize(A, &M, &N));
  PetscCall(MatGetLocalSize(A, &m, &n));
  PetscCheck(M == N && m == n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "PC gpubjacobi needs a square matrix whose local diagonal block is square; this one is %" PetscInt_FMT " x %" PetscInt_FMT " with local block %" PetscInt_FMT " x %" PetscInt_FMT, M, N, m, n);
  if (pbj->bs_set > 0) bs = pbj->bs_set;
  else {
    PetscCall(MatGetBlockSize(A, &bs));
    PetscCheck(bs <= GPUPC_PBJ_MAX_BS, PETSC_COMM_SELF, PETSC_ERR_SUP, "PC gpubjacobi inverts blocks of at most %d rows; the matrix has block size %" PetscInt_FMT ". Set -pc_gpubjacobi_block_size (1..%d) or use -pc_type pbjacobi", GPUPC_PBJ_MAX_BS, bs, GPUPC_PBJ_MAX_BS);
  }
  pbj->built = PETSC_FALSE;
  PetscCall(GPUPCPBJBlocksSetUp(A, bs, (PetscObject)pc, &pbj->dev, &pbj->threads));
  pbj->bs      = bs;
  pbj->nblocks = (m + bs - 1) / bs;
  PetscCall(MatGetOwnershipRange(A, &pbj->rstart, NULL));
  pbj->built = PETSC_TRUE;
  pbj->nsetups++;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCApply_GPUBJacobi(PC pc, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(GPUPCPBJBlocksApply(&((PC_GPUBJacobi *)pc->data)->dev, PETSC_FALSE, (PetscObject)pc, x, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCApplyTranspose_GPUBJacobi(PC pc, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(GPUPCPBJBlocksApply(&((PC_GPUBJacobi *)pc->data)->dev, PETSC_TRUE, (PetscObject)pc, x, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCView_GPUBJacobi(PC pc, PetscViewer viewer)
{
  PC_GPUBJacobi         *pbj = (PC_GPUBJacobi *)pc->data;
  const GPUPCPBJKernels *K;
  PetscBool              iascii;
  PetscMPIInt            size;
  PetscInt               in[3], out[3];
  PetscLogDouble         bytes;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(0);
  if (!pbj->built) {
    if (pbj->bs_set > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  block size %" PetscInt_FMT " (set), not set up\n", pbj->bs_set));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "  block size: the matrix's block size, not set up\n"));
    PetscFunctionReturn(0);
  }
  PetscCall(GPUPCGetPBJKernels(&K));
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &size));
  in[0] = pbj->nblocks;                                    /* blocks */
  in[1] = pbj->dev.n % pbj->bs ? 1 : 0;                    /* ranks that end with a partial block */
  in[2] = pbj->dev.n % pbj->bs ? pbj->dev.n % pbj->bs : 0; /* (for one rank) its size */
  PetscCall(MPIU_Allreduce(in, out, 2, MPIU_INT, MPI_SUM, PetscObjectComm((PetscObject)pc)));
  bytes = (PetscLogDouble)pbj->dev.ld * pbj->dev.bs * sizeof(PetscScalar);
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &bytes, 1, MPIU_PETSCLOGDOUBLE, MPI_SUM, PetscObjectComm((PetscObject)pc)));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  block size %" PetscInt_FMT " (%s), %" PetscInt_FMT " diagonal blocks on %d rank%s (blocks never cross ranks)\n", pbj->bs, pbj->bs_set > 0 ? "set with PCGPUBJacobiSetBlockSize or -pc_gpubjacobi_block_size" : "the matrix's block size", out[0], (int)size, size > 1 ? "s" : ""));
  if (out[1] == 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  every block has %" PetscInt_FMT " rows\n", pbj->bs));
  else if (size == 1) PetscCall(PetscViewerASCIIPrintf(viewer, "  the last block has %" PetscInt_FMT " row%s (the block size does not divide the local rows)\n", in[2], in[2] > 1 ? "s" : ""));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "  on %" PetscInt_FMT " rank%s the last block is partial (the block size does not divide its local rows)\n", out[1], out[1] > 1 ? "s" : ""));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  inverses: LU with partial pivoting on the host (%" PetscInt_FMT " thread%s on rank 0), recomputed at each of %" PetscInt_FMT " setup%s\n", pbj->threads, pbj->threads > 1 ? "s" : "", pbj->nsetups, pbj->nsetups > 1 ? "s" : ""));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  applied by the %s kernels as one batched block product per application; device memory of the inverses %.4g MB (all ranks)\n", K->name, (double)bytes / 1048576.0));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCSetFromOptions_GPUBJacobi(PC pc, PetscOptionItems *PetscOptionsObject)
{
  PC_GPUBJacobi *pbj = (PC_GPUBJacobi *)pc->data;
  PetscInt       bs  = pbj->bs_set;
  PetscBool      flg;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "GPU block Jacobi (gpubjacobi) options");
  PetscCall(PetscOptionsInt("-pc_gpubjacobi_block_size", "Rows of each diagonal block, 1..32 (default: the matrix's block size); the last block of a rank is partial when the block size does not divide its rows", "PCGPUBJacobiSetBlockSize", bs, &bs, &flg));
  if (flg) PetscCall(PCGPUBJacobiSetBlockSize(pc, bs));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(0);
}

/*@
   PCGPUBJacobiSetBlockSize - sets the rows of each diagonal block of PC gpubjacobi

   Logically Collective

   Input Parameters:
+  pc - the preconditioner
-  bs - block size, 1 .. 32, or PETSC_DECIDE: the matrix's block size (MatSetBlockSize())

   Options Database Key:
.  -pc_gpubjacobi_block_size <bs> - the block size

   Notes:
   The local rows of each rank are cut into blocks of bs consecutive rows; when bs does not divide a rank's local rows,
   that rank's last block has the remaining rows. A new block size on a set-up PC discards its inverses: the next
   PCSetUp() computes the new ones. Does nothing on a PC of another type.

   Level: intermediate

.seealso: PCGPUBJACOBI, PCGPUBJacobiGetBlockSize(), PCPBJACOBI, PCBJACOBI
@*/
PetscErrorCode PCGPUBJacobiSetBlockSize(PC pc, PetscInt bs)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, bs, 2);
  PetscCheck(bs == PETSC_DECIDE || (bs >= 1 && bs <= GPUPC_PBJ_MAX_BS), PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpubjacobi_block_size must be between 1 and %d (or PETSC_DECIDE for the matrix's block size), got %" PetscInt_FMT, GPUPC_PBJ_MAX_BS, bs);
  PetscTryMethod(pc, "PCGPUBJacobiSetBlockSize_C", (PC, PetscInt), (pc, bs));
  PetscFunctionReturn(0);
}

/*@
   PCGPUBJacobiGetBlockSize - the rows of each diagonal block of PC gpubjacobi

   Not Collective

   Input Parameter:
.  pc - the preconditioner

   Output Parameter:
.  bs - the block size in use once the PC is set up; before that, the one set (PETSC_DECIDE: the matrix's)

   Level: intermediate

.seealso: PCGPUBJACOBI, PCGPUBJacobiSetBlockSize()
@*/
PetscErrorCode PCGPUBJacobiGetBlockSize(PC pc, PetscInt *bs)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidIntPointer(bs, 2);
  PetscUseMethod(pc, "PCGPUBJacobiGetBlockSize_C", (PC, PetscInt *), (pc, bs));
  PetscFunctionReturn(0);
}

/*MC
   PCGPUBJACOBI - block Jacobi with dense inverses of small diagonal blocks, applied on the device: the local rows of
   each rank are cut into blocks of bs consecutive rows, each diagonal block is inverted on the host at setup (LU with
   partial pivoting, OpenMP threads over the blocks), and every application is one kernel of batched bs x bs
   matrix-vector products (cuda backend), or the host reference kernel (host backend).

   Options Database Key:
.  -pc_gpubjacobi_block_size <bs> - PCGPUBJacobiSetBlockSize(): 1..32; default the matrix's block size

   Notes:
   With the matrix's block size (1..7 and beyond) it is PETSc's PCPBJACOBI on the device; with a block size the matrix
   does not have, it is PCBJACOBI with blocks of bs rows (PCBJacobiSetLocalBlocks()) and an exact solve per block.
   Blocks never cross ranks; when bs does not divide a rank's local rows, that rank's last block is partial (fewer
   rows). Works with the AIJ family (aij, segcsr: the blocks are read with MatGetDiagonalBlock() and MatGetRow()), with
   gpu vectors (zero copy) and with any other vectors (staged through a device buffer).

   New values on the same nonzero pattern (or a new matrix) recompute the inverses at the next setup. A singular (or
   numerically singular, or non-finite) diagonal block is an error that names its global rows, its rank and the fixes.
   PCApplyTranspose() applies the transposed inverses.

   Level: intermediate

.seealso: PCGPUBJacobiSetBlockSize(), PCGPUBJacobiGetBlockSize(), PCPBJACOBI, PCBJACOBI, PCJACOBI
M*/
PetscErrorCode PCCreate_GPUBJacobi(PC pc)
{
  PC_GPUBJacobi *pbj;

  PetscFunctionBegin;
  PetscCall(PetscNew(&pbj));
  pbj->bs_set             = PETSC_DECIDE;
  pc->data                = (void *)pbj;
  pc->ops->setup          = PCSetUp_GPUBJacobi;
  pc->ops->apply          = PCApply_GPUBJacobi;
  pc->ops->applytranspose = PCApplyTranspose_GPUBJacobi;
  pc->ops->reset          = PCReset_GPUBJacobi;
  pc->ops->destroy        = PCDestroy_GPUBJacobi;
  pc->ops->setfromoptions = PCSetFromOptions_GPUBJacobi;
  pc->ops->view           = PCView_GPUBJacobi;
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUBJacobiSetBlockSize_C", PCGPUBJacobiSetBlockSize_GPUBJacobi));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUBJacobiGetBlockSize_C", PCGPUBJacobiGetBlockSize_GPUBJacobi));
  PetscFunctionReturn(0);
}

/*
   MATSEQSEGCSR and MATMPISEGCSR: a SEQAIJ or MPIAIJ matrix whose device copy is in segmented CSR (see segcsrimpl.h).
   The operations are the shared ones of gpupc/matgpu.h (GPUPCMatBlocks); this file supplies the segcsr blocks.
*/
#include "segcsrimpl.h"

GPUPC_MAT_BLOCK_OPS_DEFINE(SegCSR, (dv, 0, d))

/* a new pattern: lays out the block (diagonal or off-diagonal) with the matrix's segment length and short-row mode */
static PetscErrorCode SegCSRBlockBuild(Mat A, const GPUPCCSR *csr, void *b)
{
  Mat_SegCSR *s = (Mat_SegCSR *)A->spptr;

  PetscFunctionBegin;
  PetscCall(GPUPCSegCSRBlockBuildWithMode(csr, s->Lopt, s->shortopt, (GPUPCSegCSRBlock *)b));
  PetscFunctionReturn(0);
}

static PetscErrorCode SegCSRInit(GPUPCMatBlocks *g)
{
  Mat_SegCSR *s = (Mat_SegCSR *)g;

  PetscFunctionBegin;
  g->diag     = &s->diag;
  g->offd     = &s->offd;
  s->Lopt     = 0;
  s->shortopt = MAT_SEGCSR_SHORT_AUTO;
  PetscFunctionReturn(0);
}

static PetscErrorCode SegCSRInfo(Mat A, const GPUPCCSR *cd, const GPUPCCSR *co)
{
  Mat_SegCSR *s = (Mat_SegCSR *)A->spptr;

  PetscFunctionBegin;
  if (!co) PetscCall(PetscInfo(A, "built segcsr: %" PetscInt_FMT " rows, %" PetscInt_FMT " nonzeros, segment length %" PetscInt_FMT ", short rows in %s mode (%" PetscInt_FMT " tiles)\n", s->diag.d.m, s->diag.d.nnz, s->diag.d.L, MatSegCSRShortModes[s->diag.d.shortmode], s->diag.d.ntiles));
  else
    PetscCall(PetscInfo(A, "built mpisegcsr: local %" PetscInt_FMT " rows, diagonal block %" PetscInt_FMT " nonzeros (L %" PetscInt_FMT "), off-diagonal %" PetscInt_FMT " nonzeros (L %" PetscInt_FMT "), %" PetscInt_FMT " ghosts from %" PetscInt_FMT " ranks\n", cd->m, cd->nnz, s->diag.d.L, co->nnz, s->offd.d.L, co->n, s->g.halo->nneighbors));
  PetscFunctionReturn(0);
}

/* MatDuplicate: A's layout options on B */
static PetscErrorCode SegCSRCopyOptions(Mat A, Mat B, PetscBool *changed)
{
  Mat_SegCSR *a = (Mat_SegCSR *)A->spptr, *b = (Mat_SegCSR *)B->spptr;

  PetscFunctionBegin;
  *changed    = (PetscBool)(b->Lopt != a->Lopt || b->shortopt != a->shortopt);
  b->Lopt     = a->Lopt;
  b->shortopt = a->shortopt;
  PetscFunctionReturn(0);
}

static PetscErrorCode SegCSRFromBase(Mat);

/* MatConvert from SEQAIJ/MPIAIJ (and from a segcsr, as a copy) to segcsr, all three reuse modes */
static PetscErrorCode MatConvert_AIJ_SegCSR(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMatConvertReuse(A, reuse, newmat, SegCSRFromBase));
  PetscFunctionReturn(0);
}

/* a block of a multigrid level (GPUPCDevMat): the type's default options */
static PetscErrorCode SegCSRBlockBuildCSR(const GPUPCCSR *csr, PetscInt bs, void *b)
{
  PetscFunctionBegin;
  PetscCall(GPUPCSegCSRBlockBuild(csr, 0, (GPUPCSegCSRBlock *)b));
  PetscFunctionReturn(0);
}

const GPUPCMatBlockOps GPUPCSegCSRBlockOps = {
  .name               = "segcsr",
  .layout             = "segmented CSR on the device",
  .seqtype            = MATSEQSEGCSR,
  .mpitype            = MATMPISEGCSR,
  .size               = sizeof(Mat_SegCSR),
  .multevent          = &MATSEGCSR_Mult,
  .multtransposeevent = &MATSEGCSR_MultTranspose,
  .init               = SegCSRInit,
  .build              = SegCSRBlockBuild,
  .upload             = SegCSRBlockUpload,
  .destroy            = SegCSRBlockDestroy,
  .counts             = SegCSRBlockCounts,
  .mult               = SegCSRBlockMult,
  .multtransposeadd   = SegCSRBlockMultTransposeAdd,
  .getdiagonal        = SegCSRBlockGetDiagonal,
  .kernelsname        = SegCSRBlockKernelsName,
  .view               = SegCSRBlockView,
  .blocksize          = sizeof(GPUPCSegCSRBlock),
  .buildcsr           = SegCSRBlockBuildCSR,
  .info               = SegCSRInfo,
  .setfromoptions     = MatSetFromOptions_SegCSR_Private,
  .copyoptions        = SegCSRCopyOptions,
  .composed           = MatSegCSRComposed,
  .frombase           = SegCSRFromBase,
  .convert            = MatConvert_AIJ_SegCSR,
};

/* turns an (assembled or not) SEQAIJ or MPIAIJ B into a seqsegcsr or mpisegcsr in place */
static PetscErrorCode SegCSRFromBase(Mat B)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMatBlocksFromBase(B, &GPUPCSegCSRBlockOps));
  PetscFunctionReturn(0);
}

/*MC
   MATSEQSEGCSR - MATSEQSEGCSR = "seqsegcsr" - a sequential sparse matrix kept on the device in
   segmented CSR (docs/algorithms.md 1.1): each row owns ceil(len/L) segments of L slots (at least
   one), stored segment-major, padding slots with value 0 and a column of the same row.

   Assembled on the host exactly as MATSEQAIJ (preallocation, MatSetValues, MatGetRow use the
   AIJ host copy); MatAssemblyEnd builds the device layout, or re-uploads only the values when
   the nonzero pattern did not change. MatMult, MatMultAdd, MatMultTranspose(Add) and
   MatGetDiagonal run on the device (GPU kernels on the cuda backend, the host reference on
   the host backend) for any vector type (gpu vectors without copies). Value-changing
   operations (MatScale, MatShift, MatDiagonalScale, MatZeroEntries, MatCopy, MatAXPY, ...)
   run on the host AIJ and the values are re-uploaded at the next device operation.
   MatMultTranspose uses an atomic scatter (no transposed copy; summation order varies).
   The product gives short rows a group of L lanes each or thread blocks over tiles of
   consecutive rows (-mat_segcsr_short), medium rows a warp and long rows a thread block, in
   one launch (see MATSEGCSR).

   Options Database Keys:
+  -mat_type segcsr - sets the type (seqsegcsr on one rank) with MatSetFromOptions()
.  -mat_segcsr_segment_length <L> - 1, 2, 4, 8, 16 or 32; default the largest power of two <= mean row length / 3, clamped to 1..8 (see MATSEGCSR; deviates from the segSpMV rule, docs/algorithms.md 1.1)
-  -mat_segcsr_short <auto,group,tile> - short rows by groups or by tiles (MatSegCSRSetShortMode())

   Level: beginner

.seealso: MATSEGCSR, MATMPISEGCSR, MatSegCSRSetSegmentLength(), MatSegCSRSetShortMode(), MATSEQAIJ
M*/
PetscErrorCode MatCreate_SeqSegCSR(Mat A)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMatBlocksCreate(A, MATSEQAIJ, &GPUPCSegCSRBlockOps));
  PetscFunctionReturn(0);
}

/*MC
   MATMPISEGCSR - MATMPISEGCSR = "mpisegcsr" - a parallel sparse matrix kept on the device in
   segmented CSR: the diagonal and off-diagonal (compressed columns) blocks of MPIAIJ, each in
   segmented CSR, and a halo plan that packs the needed owned entries on the device, copies
   them once each way and exchanges them with PetscSF over host buffers (MPI never sees a
   device pointer), overlapped with the diagonal-block product.

   Assembly exactly as MATMPIAIJ (MatSetValues from any rank). See MATSEQSEGCSR for the
   operations and how values changed on the host reach the device.

   Options Database Keys:
+  -mat_type segcsr - sets the type (mpisegcsr on more than one rank) with MatSetFromOptions()
.  -mat_segcsr_segment_length <L> - segment length of both blocks (default: each block's own mean row length)
-  -mat_segcsr_short <auto,group,tile> - short-row mode of both blocks (auto: each block decides; MatSegCSRSetShortMode())

   Level: beginner

.seealso: MATSEGCSR, MATSEQSEGCSR, MATMPIAIJ
M*/
PetscErrorCode MatCreate_MPISegCSR(Mat A)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMatBlocksCreate(A, MATMPIAIJ, &GPUPCSegCSRBlockOps));
  PetscFunctionReturn(0);
}

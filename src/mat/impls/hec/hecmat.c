/*
   MATSEQHEC and MATMPIHEC: a SEQAIJ or MPIAIJ matrix whose device copy is in hybrid ELL + CSR (see hecimpl.h). The
   operations are the shared ones of gpupc/matgpu.h (GPUPCMatBlocks); this file supplies the HEC blocks.
*/
#include "hecimpl.h"

GPUPC_MAT_BLOCK_OPS_DEFINE(HEC, (dv, 0, d))

/* a new pattern: lays out the block (diagonal or off-diagonal) with the matrix's p_r and forced width */
static PetscErrorCode HECBlockBuild(Mat A, const GPUPCCSR *csr, void *b)
{
  Mat_HEC *s = (Mat_HEC *)A->spptr;

  PetscFunctionBegin;
  PetscCall(GPUPCHECBlockBuild(csr, s->ratio, s->Kopt, (GPUPCHECBlock *)b));
  PetscFunctionReturn(0);
}

static PetscErrorCode HECInit(GPUPCMatBlocks *g)
{
  Mat_HEC *s = (Mat_HEC *)g;

  PetscFunctionBegin;
  g->diag  = &s->diag;
  g->offd  = &s->offd;
  s->ratio = GPUPC_HEC_DEFAULT_RATIO;
  s->Kopt  = PETSC_DECIDE;
  PetscFunctionReturn(0);
}

static PetscErrorCode HECInfo(Mat A, const GPUPCCSR *cd, const GPUPCCSR *co)
{
  Mat_HEC *s = (Mat_HEC *)A->spptr;

  PetscFunctionBegin;
  if (!co) PetscCall(PetscInfo(A, "built hec: %" PetscInt_FMT " rows, %" PetscInt_FMT " nonzeros, ELL width %" PetscInt_FMT ", %" PetscInt_FMT " nonzeros in the CSR remainder\n", s->diag.d.m, s->diag.d.nnz, s->diag.d.K, s->diag.d.nrem));
  else
    PetscCall(PetscInfo(A, "built mpihec: local %" PetscInt_FMT " rows, diagonal block %" PetscInt_FMT " nonzeros (K %" PetscInt_FMT "), off-diagonal %" PetscInt_FMT " nonzeros (K %" PetscInt_FMT "), %" PetscInt_FMT " ghosts from %" PetscInt_FMT " ranks\n", cd->m, cd->nnz, s->diag.d.K, co->nnz, s->offd.d.K, co->n, s->g.halo->nneighbors));
  PetscFunctionReturn(0);
}

/* MatDuplicate: A's width-model options on B */
static PetscErrorCode HECCopyOptions(Mat A, Mat B, PetscBool *changed)
{
  Mat_HEC *a = (Mat_HEC *)A->spptr, *b = (Mat_HEC *)B->spptr;

  PetscFunctionBegin;
  *changed = (PetscBool)(b->ratio != a->ratio || b->Kopt != a->Kopt);
  b->ratio = a->ratio;
  b->Kopt  = a->Kopt;
  PetscFunctionReturn(0);
}

static PetscErrorCode HECFromBase(Mat);

/* MatConvert from SEQAIJ/MPIAIJ (and from a hec, as a copy) to hec, all three reuse modes */
static PetscErrorCode MatConvert_AIJ_HEC(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMatConvertReuse(A, reuse, newmat, HECFromBase));
  PetscFunctionReturn(0);
}

/* a block of a multigrid level (GPUPCDevMat): the type's default options */
static PetscErrorCode HECBlockBuildCSR(const GPUPCCSR *csr, PetscInt bs, void *b)
{
  PetscFunctionBegin;
  PetscCall(GPUPCHECBlockBuild(csr, GPUPC_HEC_DEFAULT_RATIO, PETSC_DECIDE, (GPUPCHECBlock *)b));
  PetscFunctionReturn(0);
}

const GPUPCMatBlockOps GPUPCHECBlockOps = {
  .name               = "hec",
  .layout             = "hybrid ELL + CSR on the device",
  .seqtype            = MATSEQHEC,
  .mpitype            = MATMPIHEC,
  .size               = sizeof(Mat_HEC),
  .multevent          = &MATHEC_Mult,
  .multtransposeevent = &MATHEC_MultTranspose,
  .init               = HECInit,
  .build              = HECBlockBuild,
  .upload             = HECBlockUpload,
  .destroy            = HECBlockDestroy,
  .counts             = HECBlockCounts,
  .mult               = HECBlockMult,
  .multtransposeadd   = HECBlockMultTransposeAdd,
  .getdiagonal        = HECBlockGetDiagonal,
  .kernelsname        = HECBlockKernelsName,
  .view               = HECBlockView,
  .blocksize          = sizeof(GPUPCHECBlock),
  .buildcsr           = HECBlockBuildCSR,
  .info               = HECInfo,
  .setfromoptions     = MatSetFromOptions_HEC_Private,
  .copyoptions        = HECCopyOptions,
  .composed           = MatHECComposed,
  .frombase           = HECFromBase,
  .convert            = MatConvert_AIJ_HEC,
};

/* turns an (assembled or not) SEQAIJ or MPIAIJ B into a seqhec or mpihec in place */
static PetscErrorCode HECFromBase(Mat B)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMatBlocksFromBase(B, &GPUPCHECBlockOps));
  PetscFunctionReturn(0);
}

/*MC
   MATSEQHEC - MATSEQHEC = "seqhec" - a sequential sparse matrix kept on the device in hybrid ELL + CSR
   (docs/algorithms.md 1.2): the first K entries of every row in a column-major ELL part (stride = rows rounded up to
   a multiple of 32, padding value 0 with the row itself as column), the rest in a CSR remainder; K from the cost
   model w(K) = K m + p_r (entries beyond K), or forced.

   Assembled on the host exactly as MATSEQAIJ (preallocation, MatSetValues, MatGetRow use the AIJ host copy);
   MatAssemblyEnd builds the device layout, or updates only the values when the nonzero pattern did not change (staged
   to the device and laid into the ELL and remainder slots there). MatMult, MatMultAdd, MatMultTranspose(Add) and
   MatGetDiagonal run on the device (GPU kernels on the cuda backend, the host reference on the host backend) for any
   vector type (gpu vectors without copies). Value-changing operations (MatScale, MatShift, MatDiagonalScale,
   MatZeroEntries, MatCopy, MatAXPY, ...) run on the host AIJ and the values are uploaded at the next device operation.
   MatMultTranspose uses an atomic scatter (no transposed copy; summation order varies). The product gives a row one
   thread (ELL part and a remainder of at most 16 entries), a warp (remainder up to 1024) or a thread block, in one
   launch (see MATHEC).

   Options Database Keys:
+  -mat_type hec - sets the type (seqhec on one rank) with MatSetFromOptions()
.  -mat_hec_ratio <p_r> - cost of a remainder entry relative to an ELL slot (> 0, default 12; MatHECSetRatio())
-  -mat_hec_ell_width <K> - force the ELL width (>= 0; -1: the cost model; MatHECSetEllWidth())

   Level: beginner

.seealso: MATHEC, MATMPIHEC, MatHECSetRatio(), MatHECSetEllWidth(), MatHECGetInfo(), MATSEQAIJ
M*/
PetscErrorCode MatCreate_SeqHEC(Mat A)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMatBlocksCreate(A, MATSEQAIJ, &GPUPCHECBlockOps));
  PetscFunctionReturn(0);
}

/*MC
   MATMPIHEC - MATMPIHEC = "mpihec" - a parallel sparse matrix kept on the device in hybrid ELL + CSR: the diagonal
   and off-diagonal (compressed columns) blocks of MPIAIJ, each in HEC with its own ELL width, and the halo plan shared
   with mpisegcsr (gpupc/matgpu.h), which packs the needed owned entries on the device, copies them once each way and
   exchanges them with PetscSF over host buffers (MPI never sees a device pointer), overlapped with the
   diagonal-block product.

   Assembly exactly as MATMPIAIJ (MatSetValues from any rank). See MATSEQHEC for the operations and how values changed
   on the host reach the device.

   Options Database Keys:
+  -mat_type hec - sets the type (mpihec on more than one rank) with MatSetFromOptions()
.  -mat_hec_ratio <p_r> - p_r of the width model of both blocks (each block picks its own K)
-  -mat_hec_ell_width <K> - force the ELL width of both blocks (cut to each block's longest row)

   Level: beginner

.seealso: MATHEC, MATSEQHEC, MATMPIAIJ, MatHECSetRatio(), MatHECSetEllWidth()
M*/
PetscErrorCode MatCreate_MPIHEC(Mat A)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMatBlocksCreate(A, MATMPIAIJ, &GPUPCHECBlockOps));
  PetscFunctionReturn(0);
}

/*
   MATSEQSEGCSR: a SEQAIJ matrix with a device copy in segmented CSR (see segcsrimpl.h).
*/
#include "segcsrimpl.h"
#include <gpupc/veckernels.h>

static PetscErrorCode MatConvert_SeqSegCSR_SeqAIJ(Mat, MatType, MatReuse, Mat *);

/* new pattern: lays out the device copy */
static PetscErrorCode SeqSegCSRBuild(Mat A)
{
  Mat_SegCSR *s = (Mat_SegCSR *)A->spptr;
  GPUPCCSR    csr;

  PetscFunctionBegin;
  PetscCall(GPUPCMatGetCSR(A, &csr));
  PetscCall(GPUPCSegCSRBlockBuildWithMode(&csr, s->Lopt, s->shortopt, &s->diag));
  PetscCall(GPUPCMatRestoreCSR(&csr));
  PetscCall(PetscInfo(A, "built segcsr: %" PetscInt_FMT " rows, %" PetscInt_FMT " nonzeros, segment length %" PetscInt_FMT ", short rows in %s mode (%" PetscInt_FMT " tiles)\n", s->diag.d.m, s->diag.d.nnz, s->diag.d.L, MatSegCSRShortModes[s->diag.d.shortmode], s->diag.d.ntiles));
  PetscFunctionReturn(0);
}

/* same pattern: new values */
static PetscErrorCode SeqSegCSRUpload(Mat A)
{
  Mat_SegCSR *s = (Mat_SegCSR *)A->spptr;
  GPUPCCSR    csr;

  PetscFunctionBegin;
  PetscCall(GPUPCMatGetCSR(A, &csr));
  PetscCall(GPUPCSegCSRBlockUploadValues(&csr, &s->diag));
  PetscCall(GPUPCMatRestoreCSR(&csr));
  PetscFunctionReturn(0);
}

/* y = A x + z on the device; z may be NULL (y = A x) or equal to y */
static PetscErrorCode MatMultAdd_SeqSegCSR(Mat A, Vec x, Vec z, Vec y)
{
  Mat_SegCSR               *s;
  const GPUPCSegCSRKernels *k;
  const PetscScalar        *dx, *dz;
  PetscScalar              *dy;

  PetscFunctionBegin;
  PetscCall(GPUPCMatSubclassEnsure(A));
  s = (Mat_SegCSR *)A->spptr;
  PetscCall(GPUPCGetSegCSRKernels(&k));
  PetscCall(PetscLogEventBegin(MATSEGCSR_Mult, A, x, y, 0));
  PetscCall(VecGPUGetDeviceArrayRead(x, &dx));
  if (z == y) {
    PetscCall(VecGPUGetDeviceArray(y, &dy));
    PetscCall(k->mult(&s->diag.d, dx, dy, dy));
    PetscCall(VecGPURestoreDeviceArray(y, &dy));
  } else {
    dz = NULL;
    if (z) PetscCall(VecGPUGetDeviceArrayRead(z, &dz));
    PetscCall(VecGPUGetDeviceArrayWrite(y, &dy));
    PetscCall(k->mult(&s->diag.d, dx, dz, dy));
    PetscCall(VecGPURestoreDeviceArrayWrite(y, &dy));
    if (z) PetscCall(VecGPURestoreDeviceArrayRead(z, &dz));
  }
  PetscCall(VecGPURestoreDeviceArrayRead(x, &dx));
  PetscCall(PetscLogFlops(z ? 2.0 * s->diag.d.nnz : PetscMax(2.0 * s->diag.d.nnz - s->diag.d.m, 0)));
  PetscCall(PetscLogEventEnd(MATSEGCSR_Mult, A, x, y, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMult_SeqSegCSR(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatMultAdd_SeqSegCSR(A, x, NULL, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMultTransposeAdd_SeqSegCSR(Mat A, Vec x, Vec z, Vec y)
{
  Mat_SegCSR               *s;
  const GPUPCSegCSRKernels *k;
  const PetscScalar        *dx;
  PetscScalar              *dy;

  PetscFunctionBegin;
  PetscCall(GPUPCMatSubclassEnsure(A));
  s = (Mat_SegCSR *)A->spptr;
  PetscCall(GPUPCGetSegCSRKernels(&k));
  PetscCall(PetscLogEventBegin(MATSEGCSR_MultTranspose, A, x, y, 0));
  if (z && z != y) PetscCall(VecCopy(z, y));
  PetscCall(VecGPUGetDeviceArrayRead(x, &dx));
  if (z) PetscCall(VecGPUGetDeviceArray(y, &dy));
  else {
    PetscCall(VecGPUGetDeviceArrayWrite(y, &dy));
    PetscCall(GPUPCMemzero(dy, (size_t)A->cmap->n * sizeof(PetscScalar)));
  }
  PetscCall(k->multtransposeadd(&s->diag.d, dx, dy));
  if (z) PetscCall(VecGPURestoreDeviceArray(y, &dy));
  else PetscCall(VecGPURestoreDeviceArrayWrite(y, &dy));
  PetscCall(VecGPURestoreDeviceArrayRead(x, &dx));
  PetscCall(PetscLogFlops(2.0 * s->diag.d.nnz));
  PetscCall(PetscLogEventEnd(MATSEGCSR_MultTranspose, A, x, y, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMultTranspose_SeqSegCSR(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatMultTransposeAdd_SeqSegCSR(A, x, NULL, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatGetDiagonal_SeqSegCSR(Mat A, Vec d)
{
  Mat_SegCSR               *s;
  const GPUPCSegCSRKernels *k;
  PetscScalar              *dd;

  PetscFunctionBegin;
  PetscCall(GPUPCMatSubclassEnsure(A));
  s = (Mat_SegCSR *)A->spptr;
  PetscCall(GPUPCGetSegCSRKernels(&k));
  PetscCall(VecGPUGetDeviceArrayWrite(d, &dd));
  PetscCall(k->getdiagonal(&s->diag.d, 0, dd));
  PetscCall(VecGPURestoreDeviceArrayWrite(d, &dd));
  PetscFunctionReturn(0);
}

/* MatDuplicate: the base duplicate creates a matrix of A's type name; make sure it is a
   segcsr with its device copy */
static PetscErrorCode MatDuplicate_SeqSegCSR(Mat A, MatDuplicateOption op, Mat *B)
{
  Mat_SegCSR *s = (Mat_SegCSR *)A->spptr;
  PetscBool   ours;

  PetscFunctionBegin;
  PetscCall(s->sc.base.duplicate(A, op, B));
  ours = (PetscBool)((*B)->ops->mult == MatMult_SeqSegCSR && (*B)->spptr);
  if (!ours) {
    PetscCall(PetscObjectChangeTypeName((PetscObject)*B, MATSEQAIJ));
    PetscCall(MatConvert_SeqAIJ_SeqSegCSR(*B, MATSEQSEGCSR, MAT_INPLACE_MATRIX, B));
  } else {
    Mat_SegCSR *sb = (Mat_SegCSR *)(*B)->spptr;
    sb->Lopt       = s->Lopt;
    sb->shortopt   = s->shortopt;
    if ((*B)->assembled) PetscCall(GPUPCMatSubclassSync(*B, 1)); /* inside MatDuplicate */
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode MatView_SeqSegCSR(Mat A, PetscViewer viewer)
{
  Mat_SegCSR       *s = (Mat_SegCSR *)A->spptr;
  PetscBool         isascii;
  PetscViewerFormat format;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (isascii) {
    PetscCall(PetscViewerGetFormat(viewer, &format));
    if (format == PETSC_VIEWER_ASCII_INFO || format == PETSC_VIEWER_ASCII_INFO_DETAIL) {
      const GPUPCSegCSRKernels *k;
      if (A->assembled) PetscCall(GPUPCMatSubclassEnsure(A));
      PetscCall(GPUPCGetSegCSRKernels(&k));
      PetscCall(PetscViewerASCIIPrintf(viewer, "segcsr (segmented CSR on the device), %s kernels, %" PetscInt_FMT " builds, %" PetscInt_FMT " value uploads\n", k->name, s->sc.builds, s->sc.uploads));
      if (s->sc.built) PetscCall(GPUPCSegCSRBlockView(&s->diag, "  segcsr", PETSC_FALSE, viewer));
    }
  }
  PetscCall(s->sc.base.view(A, viewer));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatSetFromOptions_SeqSegCSR(Mat A, PetscOptionItems *PetscOptionsObject)
{
  Mat_SegCSR *s = (Mat_SegCSR *)A->spptr;

  PetscFunctionBegin;
  if (s->sc.base.setfromoptions) PetscCall(s->sc.base.setfromoptions(A, PetscOptionsObject));
  PetscCall(MatSetFromOptions_SegCSR_Private(A, PetscOptionsObject, s));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatDestroy_SeqSegCSR(Mat A)
{
  Mat_SegCSR *s                  = (Mat_SegCSR *)A->spptr;
  PetscErrorCode (*destroy)(Mat) = s->sc.base.destroy;

  PetscFunctionBegin;
  PetscCall(GPUPCSegCSRBlockDestroy(&s->diag));
  PetscCall(PetscFree(A->spptr));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatConvert_seqsegcsr_seqaij_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatConvert_seqaij_seqsegcsr_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatSegCSRSetSegmentLength_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatSegCSRSetShortMode_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatSegCSRGetShortMode_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatSegCSRGetInfo_C", NULL));
  PetscCall(destroy(A));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatSegCSRSetSegmentLength_SeqSegCSR(Mat A, PetscInt L)
{
  Mat_SegCSR *s = (Mat_SegCSR *)A->spptr;

  PetscFunctionBegin;
  if (L) PetscCall(GPUPCSegCSRCheckLength(L, "MatSegCSRSetSegmentLength"));
  if (L == s->Lopt) PetscFunctionReturn(0);
  s->Lopt = L;
  PetscCall(GPUPCMatSubclassRelayout(A));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatSegCSRSetShortMode_SeqSegCSR(Mat A, MatSegCSRShortMode mode)
{
  Mat_SegCSR *s = (Mat_SegCSR *)A->spptr;

  PetscFunctionBegin;
  if (mode == s->shortopt) PetscFunctionReturn(0);
  s->shortopt = mode;
  PetscCall(GPUPCMatSubclassRelayout(A));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatSegCSRGetShortMode_SeqSegCSR(Mat A, MatSegCSRShortMode *mode, PetscInt *ntiles)
{
  Mat_SegCSR *s = (Mat_SegCSR *)A->spptr;

  PetscFunctionBegin;
  if (A->assembled) PetscCall(GPUPCMatSubclassEnsure(A));
  if (mode) *mode = s->diag.d.shortmode;
  if (ntiles) *ntiles = s->diag.d.ntiles;
  PetscFunctionReturn(0);
}

static PetscErrorCode MatSegCSRGetInfo_SeqSegCSR(Mat A, PetscInt *L, PetscInt *builds, PetscInt *uploads)
{
  Mat_SegCSR *s = (Mat_SegCSR *)A->spptr;

  PetscFunctionBegin;
  if (A->assembled) PetscCall(GPUPCMatSubclassEnsure(A));
  if (L) *L = s->diag.d.L;
  if (builds) *builds = s->sc.builds;
  if (uploads) *uploads = s->sc.uploads;
  PetscFunctionReturn(0);
}

/* turns an (assembled or not) SEQAIJ B into a seqsegcsr in place */
static PetscErrorCode SeqAIJToSegCSR_InPlace(Mat B)
{
  Mat_SegCSR *s;

  PetscFunctionBegin;
  PetscCall(PetscNew(&s));
  PetscCall(MatSetOption(B, MAT_USE_INODES, PETSC_FALSE)); /* inode routines would replace our ops */
  PetscCall(GPUPCMatSubclassSave(B, &s->sc, PETSC_FALSE, SeqSegCSRBuild, SeqSegCSRUpload, SeqAIJToSegCSR_InPlace));
  B->spptr                 = s;
  B->ops->mult             = MatMult_SeqSegCSR;
  B->ops->multadd          = MatMultAdd_SeqSegCSR;
  B->ops->multtranspose    = MatMultTranspose_SeqSegCSR;
  B->ops->multtransposeadd = MatMultTransposeAdd_SeqSegCSR;
  B->ops->getdiagonal      = MatGetDiagonal_SeqSegCSR;
  B->ops->duplicate        = MatDuplicate_SeqSegCSR;
  B->ops->view             = MatView_SeqSegCSR;
  B->ops->setfromoptions   = MatSetFromOptions_SeqSegCSR;
  B->ops->destroy          = MatDestroy_SeqSegCSR;
  /* value-changing ops (scale, shift, diagonalscale, zeroentries, copy, axpy, zerorows, ...)
     stay the base ones: they change the host values and the object state, and the next
     device operation re-uploads the values (GPUPCMatSubclassEnsure) */
  PetscCall(GPUPCMatSubclassSetTypeName(B, MATSEQSEGCSR, VECGPU));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatConvert_seqsegcsr_seqaij_C", MatConvert_SeqSegCSR_SeqAIJ));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatConvert_seqaij_seqsegcsr_C", MatConvert_SeqAIJ_SeqSegCSR));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatSegCSRSetSegmentLength_C", MatSegCSRSetSegmentLength_SeqSegCSR));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatSegCSRSetShortMode_C", MatSegCSRSetShortMode_SeqSegCSR));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatSegCSRGetShortMode_C", MatSegCSRGetShortMode_SeqSegCSR));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatSegCSRGetInfo_C", MatSegCSRGetInfo_SeqSegCSR));
  if (B->assembled) PetscCall(GPUPCMatSubclassSync(B, 1)); /* reached only inside MatConvert or MatDuplicate */
  PetscFunctionReturn(0);
}

/* MatConvert from SEQAIJ (and from a seqsegcsr, as a copy) to seqsegcsr, all three reuse modes */
PetscErrorCode MatConvert_SeqAIJ_SeqSegCSR(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMatConvertReuse(A, reuse, newmat, SeqAIJToSegCSR_InPlace));
  PetscFunctionReturn(0);
}

/* MatConvert from seqsegcsr back to SEQAIJ, all three reuse modes */
static PetscErrorCode SeqSegCSRToSeqAIJ_InPlace(Mat B)
{
  Mat_SegCSR *s;

  PetscFunctionBegin;
  s = (Mat_SegCSR *)B->spptr;
  PetscCall(GPUPCSegCSRBlockDestroy(&s->diag));
  PetscCall(GPUPCMatSubclassRestore(B, &s->sc));
  PetscCall(PetscFree(B->spptr));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatConvert_seqsegcsr_seqaij_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatConvert_seqaij_seqsegcsr_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatSegCSRSetSegmentLength_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatSegCSRSetShortMode_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatSegCSRGetShortMode_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatSegCSRGetInfo_C", NULL));
  PetscCall(GPUPCMatSubclassSetTypeName(B, MATSEQAIJ, VECSTANDARD));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatConvert_SeqSegCSR_SeqAIJ(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMatConvertReuse(A, reuse, newmat, SeqSegCSRToSeqAIJ_InPlace));
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
  PetscCall(MatSetType(A, MATSEQAIJ));
  PetscCall(SeqAIJToSegCSR_InPlace(A));
  PetscFunctionReturn(0);
}

/*
   MATSEQHEC: a SEQAIJ matrix with a device copy in hybrid ELL + CSR (see hecimpl.h).
*/
#include "hecimpl.h"
#include <gpupc/veckernels.h>

static PetscErrorCode MatConvert_SeqHEC_SeqAIJ(Mat, MatType, MatReuse, Mat *);

/* new pattern: lays out the device copy */
static PetscErrorCode SeqHECBuild(Mat A)
{
  Mat_HEC *s = (Mat_HEC *)A->spptr;
  GPUPCCSR csr;

  PetscFunctionBegin;
  PetscCall(GPUPCMatGetCSR(A, &csr));
  PetscCall(GPUPCHECBlockBuild(&csr, s->ratio, s->Kopt, &s->diag));
  PetscCall(GPUPCMatRestoreCSR(&csr));
  PetscCall(PetscInfo(A, "built hec: %" PetscInt_FMT " rows, %" PetscInt_FMT " nonzeros, ELL width %" PetscInt_FMT ", %" PetscInt_FMT " nonzeros in the CSR remainder\n", s->diag.d.m, s->diag.d.nnz, s->diag.d.K, s->diag.d.nrem));
  PetscFunctionReturn(0);
}

/* same pattern: new values */
static PetscErrorCode SeqHECUpload(Mat A)
{
  Mat_HEC *s = (Mat_HEC *)A->spptr;
  GPUPCCSR csr;

  PetscFunctionBegin;
  PetscCall(GPUPCMatGetCSR(A, &csr));
  PetscCall(GPUPCHECBlockUploadValues(&csr, &s->diag));
  PetscCall(GPUPCMatRestoreCSR(&csr));
  PetscFunctionReturn(0);
}

/* y = A x + z on the device; z may be NULL (y = A x) or equal to y */
static PetscErrorCode MatMultAdd_SeqHEC(Mat A, Vec x, Vec z, Vec y)
{
  Mat_HEC               *s;
  const GPUPCHECKernels *k;
  const PetscScalar     *dx, *dz;
  PetscScalar           *dy;

  PetscFunctionBegin;
  PetscCall(GPUPCMatSubclassEnsure(A));
  s = (Mat_HEC *)A->spptr;
  PetscCall(GPUPCGetHECKernels(&k));
  PetscCall(PetscLogEventBegin(MATHEC_Mult, A, x, y, 0));
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
  PetscCall(PetscLogEventEnd(MATHEC_Mult, A, x, y, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMult_SeqHEC(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatMultAdd_SeqHEC(A, x, NULL, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMultTransposeAdd_SeqHEC(Mat A, Vec x, Vec z, Vec y)
{
  Mat_HEC               *s;
  const GPUPCHECKernels *k;
  const PetscScalar     *dx;
  PetscScalar           *dy;

  PetscFunctionBegin;
  PetscCall(GPUPCMatSubclassEnsure(A));
  s = (Mat_HEC *)A->spptr;
  PetscCall(GPUPCGetHECKernels(&k));
  PetscCall(PetscLogEventBegin(MATHEC_MultTranspose, A, x, y, 0));
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
  PetscCall(PetscLogEventEnd(MATHEC_MultTranspose, A, x, y, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMultTranspose_SeqHEC(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatMultTransposeAdd_SeqHEC(A, x, NULL, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatGetDiagonal_SeqHEC(Mat A, Vec d)
{
  Mat_HEC               *s;
  const GPUPCHECKernels *k;
  PetscScalar           *dd;

  PetscFunctionBegin;
  PetscCall(GPUPCMatSubclassEnsure(A));
  s = (Mat_HEC *)A->spptr;
  PetscCall(GPUPCGetHECKernels(&k));
  PetscCall(VecGPUGetDeviceArrayWrite(d, &dd));
  PetscCall(k->getdiagonal(&s->diag.d, 0, dd));
  PetscCall(VecGPURestoreDeviceArrayWrite(d, &dd));
  PetscFunctionReturn(0);
}

/* MatDuplicate: the base duplicate creates a matrix of A's type name; make sure it is a
   hec with its device copy */
static PetscErrorCode MatDuplicate_SeqHEC(Mat A, MatDuplicateOption op, Mat *B)
{
  Mat_HEC  *s = (Mat_HEC *)A->spptr;
  PetscBool ours;

  PetscFunctionBegin;
  PetscCall(s->sc.base.duplicate(A, op, B));
  ours = (PetscBool)((*B)->ops->mult == MatMult_SeqHEC && (*B)->spptr);
  if (!ours) {
    PetscCall(PetscObjectChangeTypeName((PetscObject)*B, MATSEQAIJ));
    PetscCall(MatConvert_SeqAIJ_SeqHEC(*B, MATSEQHEC, MAT_INPLACE_MATRIX, B));
  } else {
    Mat_HEC *sb = (Mat_HEC *)(*B)->spptr;
    sb->ratio   = s->ratio;
    sb->Kopt    = s->Kopt;
    if ((*B)->assembled) PetscCall(GPUPCMatSubclassSync(*B, 1)); /* inside MatDuplicate */
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode MatView_SeqHEC(Mat A, PetscViewer viewer)
{
  Mat_HEC          *s = (Mat_HEC *)A->spptr;
  PetscBool         isascii;
  PetscViewerFormat format;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (isascii) {
    PetscCall(PetscViewerGetFormat(viewer, &format));
    if (format == PETSC_VIEWER_ASCII_INFO || format == PETSC_VIEWER_ASCII_INFO_DETAIL) {
      const GPUPCHECKernels *k;
      if (A->assembled) PetscCall(GPUPCMatSubclassEnsure(A));
      PetscCall(GPUPCGetHECKernels(&k));
      PetscCall(PetscViewerASCIIPrintf(viewer, "hec (hybrid ELL + CSR on the device), %s kernels, %" PetscInt_FMT " builds, %" PetscInt_FMT " value uploads\n", k->name, s->sc.builds, s->sc.uploads));
      if (s->sc.built) PetscCall(GPUPCHECBlockView(&s->diag, "  hec", PETSC_FALSE, viewer));
    }
  }
  PetscCall(s->sc.base.view(A, viewer));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatSetFromOptions_SeqHEC(Mat A, PetscOptionItems *PetscOptionsObject)
{
  Mat_HEC *s = (Mat_HEC *)A->spptr;

  PetscFunctionBegin;
  if (s->sc.base.setfromoptions) PetscCall(s->sc.base.setfromoptions(A, PetscOptionsObject));
  PetscCall(MatSetFromOptions_HEC_Private(A, PetscOptionsObject, s));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatDestroy_SeqHEC(Mat A)
{
  Mat_HEC *s                     = (Mat_HEC *)A->spptr;
  PetscErrorCode (*destroy)(Mat) = s->sc.base.destroy;

  PetscFunctionBegin;
  PetscCall(GPUPCHECBlockDestroy(&s->diag));
  PetscCall(PetscFree(A->spptr));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatConvert_seqhec_seqaij_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatConvert_seqaij_seqhec_C", NULL));
  PetscCall(MatHECComposeFunctions_Private(A, PETSC_FALSE));
  PetscCall(destroy(A));
  PetscFunctionReturn(0);
}

/* turns an (assembled or not) SEQAIJ B into a seqhec in place */
static PetscErrorCode SeqAIJToHEC_InPlace(Mat B)
{
  Mat_HEC *s;

  PetscFunctionBegin;
  PetscCall(PetscNew(&s));
  s->ratio = GPUPC_HEC_DEFAULT_RATIO;
  s->Kopt  = PETSC_DECIDE;
  PetscCall(MatSetOption(B, MAT_USE_INODES, PETSC_FALSE)); /* inode routines would replace our ops */
  PetscCall(GPUPCMatSubclassSave(B, &s->sc, PETSC_FALSE, SeqHECBuild, SeqHECUpload, SeqAIJToHEC_InPlace));
  B->spptr                 = s;
  B->ops->mult             = MatMult_SeqHEC;
  B->ops->multadd          = MatMultAdd_SeqHEC;
  B->ops->multtranspose    = MatMultTranspose_SeqHEC;
  B->ops->multtransposeadd = MatMultTransposeAdd_SeqHEC;
  B->ops->getdiagonal      = MatGetDiagonal_SeqHEC;
  B->ops->duplicate        = MatDuplicate_SeqHEC;
  B->ops->view             = MatView_SeqHEC;
  B->ops->setfromoptions   = MatSetFromOptions_SeqHEC;
  B->ops->destroy          = MatDestroy_SeqHEC;
  /* value-changing ops (scale, shift, diagonalscale, zeroentries, copy, axpy, zerorows, ...)
     stay the base ones: they change the host values and the object state, and the next
     device operation re-uploads the values (GPUPCMatSubclassEnsure) */
  PetscCall(GPUPCMatSubclassSetTypeName(B, MATSEQHEC, VECGPU));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatConvert_seqhec_seqaij_C", MatConvert_SeqHEC_SeqAIJ));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatConvert_seqaij_seqhec_C", MatConvert_SeqAIJ_SeqHEC));
  PetscCall(MatHECComposeFunctions_Private(B, PETSC_TRUE));
  if (B->assembled) PetscCall(GPUPCMatSubclassSync(B, 1)); /* reached only inside MatConvert or MatDuplicate */
  PetscFunctionReturn(0);
}

/* MatConvert from SEQAIJ (and from a seqhec, as a copy) to seqhec, all three reuse modes */
PetscErrorCode MatConvert_SeqAIJ_SeqHEC(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMatConvertReuse(A, reuse, newmat, SeqAIJToHEC_InPlace));
  PetscFunctionReturn(0);
}

/* MatConvert from seqhec back to SEQAIJ, all three reuse modes */
static PetscErrorCode SeqHECToSeqAIJ_InPlace(Mat B)
{
  Mat_HEC *s;

  PetscFunctionBegin;
  s = (Mat_HEC *)B->spptr;
  PetscCall(GPUPCHECBlockDestroy(&s->diag));
  PetscCall(GPUPCMatSubclassRestore(B, &s->sc));
  PetscCall(PetscFree(B->spptr));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatConvert_seqhec_seqaij_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatConvert_seqaij_seqhec_C", NULL));
  PetscCall(MatHECComposeFunctions_Private(B, PETSC_FALSE));
  PetscCall(GPUPCMatSubclassSetTypeName(B, MATSEQAIJ, VECSTANDARD));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatConvert_SeqHEC_SeqAIJ(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMatConvertReuse(A, reuse, newmat, SeqHECToSeqAIJ_InPlace));
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
.  -mat_hec_ratio <p_r> - cost of a remainder entry relative to an ELL slot (> 0, default 20; MatHECSetRatio())
-  -mat_hec_ell_width <K> - force the ELL width (>= 0; -1: the cost model; MatHECSetEllWidth())

   Level: beginner

.seealso: MATHEC, MATMPIHEC, MatHECSetRatio(), MatHECSetEllWidth(), MatHECGetInfo(), MATSEQAIJ
M*/
PetscErrorCode MatCreate_SeqHEC(Mat A)
{
  PetscFunctionBegin;
  PetscCall(MatSetType(A, MATSEQAIJ));
  PetscCall(SeqAIJToHEC_InPlace(A));
  PetscFunctionReturn(0);
}

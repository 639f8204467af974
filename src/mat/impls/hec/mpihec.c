/*
   MATMPIHEC: an MPIAIJ matrix whose diagonal and off-diagonal blocks are kept on the
   device in hybrid ELL + CSR, with a device halo exchange (see hecimpl.h, gpupc/matgpu.h).

   y = A x: pack the owned entries other ranks need (device), copy them down once, start
   the PetscSF exchange, launch the diagonal-block product (which runs while the exchange
   is in flight), finish the exchange, copy the ghosts up once, add the off-diagonal
   block's product.
*/
#include "hecimpl.h"

static PetscErrorCode MatConvert_MPIHEC_MPIAIJ(Mat, MatType, MatReuse, Mat *);

/* new pattern (collective): lays out both blocks and makes the halo plan */
static PetscErrorCode MPIHECBuild(Mat A)
{
  Mat_HEC        *s = (Mat_HEC *)A->spptr;
  Mat             Ad, Ao;
  const PetscInt *garray;
  GPUPCCSR        cd, co;

  PetscFunctionBegin;
  PetscCall(GPUPCMatMPIAIJGetSeqAIJ(A, &Ad, &Ao, &garray));
  PetscCall(GPUPCMatGetCSR(Ad, &cd));
  PetscCall(GPUPCMatGetCSR(Ao, &co));
  PetscCall(GPUPCHECBlockBuild(&cd, s->ratio, s->Kopt, &s->diag));
  PetscCall(GPUPCHECBlockBuild(&co, s->ratio, s->Kopt, &s->offd));
  PetscCall(GPUPCHaloDestroy(&s->halo));
  PetscCall(GPUPCHaloCreate(A, co.n, garray, &s->halo));
  s->blocknz[0] = Ad->nonzerostate;
  s->blocknz[1] = Ao->nonzerostate;
  PetscCall(PetscInfo(A, "built mpihec: local %" PetscInt_FMT " rows, diagonal block %" PetscInt_FMT " nonzeros (K %" PetscInt_FMT "), off-diagonal %" PetscInt_FMT " nonzeros (K %" PetscInt_FMT "), %" PetscInt_FMT " ghosts from %" PetscInt_FMT " ranks\n", cd.m, cd.nnz, s->diag.d.K, co.nnz, s->offd.d.K, co.n, s->halo->nneighbors));
  PetscCall(GPUPCMatRestoreCSR(&co));
  PetscCall(GPUPCMatRestoreCSR(&cd));
  PetscFunctionReturn(0);
}

/* the matrix's nonzero pattern is unchanged (A->nonzerostate): new values of both blocks. A block's own pattern can
   still have changed without a parallel assembly (MPIAIJ's MatShift and MatZeroRows insert missing diagonal entries
   into the diagonal block by the block's own assembly): such a block is laid out again, locally; the ghost columns
   (the halo plan) change only in a parallel assembly */
static PetscErrorCode MPIHECUpload(Mat A)
{
  Mat_HEC *s = (Mat_HEC *)A->spptr;
  Mat      Ad, Ao;
  GPUPCCSR cd, co;

  PetscFunctionBegin;
  PetscCall(GPUPCMatMPIAIJGetSeqAIJ(A, &Ad, &Ao, NULL));
  PetscCall(GPUPCMatGetCSR(Ad, &cd));
  PetscCall(GPUPCMatGetCSR(Ao, &co));
  PetscCheck(co.n == s->halo->nghost, PETSC_COMM_SELF, PETSC_ERR_PLIB, "mpihec: the off-diagonal block has %" PetscInt_FMT " ghost columns, the halo plan %" PetscInt_FMT ", but the matrix's nonzero state did not change", co.n, s->halo->nghost);
  if (Ad->nonzerostate != s->blocknz[0]) {
    PetscCall(GPUPCHECBlockBuild(&cd, s->ratio, s->Kopt, &s->diag));
    s->blocknz[0] = Ad->nonzerostate;
  } else PetscCall(GPUPCHECBlockUploadValues(&cd, &s->diag));
  if (Ao->nonzerostate != s->blocknz[1]) {
    PetscCall(GPUPCHECBlockBuild(&co, s->ratio, s->Kopt, &s->offd));
    s->blocknz[1] = Ao->nonzerostate;
  } else PetscCall(GPUPCHECBlockUploadValues(&co, &s->offd));
  PetscCall(GPUPCMatRestoreCSR(&co));
  PetscCall(GPUPCMatRestoreCSR(&cd));
  PetscFunctionReturn(0);
}

/* y = A x + z (z NULL: y = A x; z may be y's device array) */
static PetscErrorCode MPIHECMultDevice(Mat A, const PetscScalar *dx, const PetscScalar *dz, PetscScalar *dy)
{
  Mat_HEC               *s = (Mat_HEC *)A->spptr;
  const GPUPCHECKernels *k;
  const PetscScalar     *dg;

  PetscFunctionBegin;
  PetscCall(GPUPCGetHECKernels(&k));
  PetscCall(GPUPCHaloForwardBegin(s->halo, dx));
  PetscCall(k->mult(&s->diag.d, dx, dz, dy)); /* overlaps the exchange */
  PetscCall(GPUPCHaloForwardEnd(s->halo, &dg));
  if (s->offd.d.nnz) PetscCall(k->mult(&s->offd.d, dg, dy, dy));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMult_MPIHEC(Mat A, Vec x, Vec y)
{
  Mat_HEC           *s;
  const PetscScalar *dx;
  PetscScalar       *dy;

  PetscFunctionBegin;
  PetscCall(GPUPCMatSubclassEnsure(A));
  s = (Mat_HEC *)A->spptr;
  PetscCall(PetscLogEventBegin(MATHEC_Mult, A, x, y, 0));
  PetscCall(VecGPUGetDeviceArrayRead(x, &dx));
  PetscCall(VecGPUGetDeviceArrayWrite(y, &dy));
  PetscCall(MPIHECMultDevice(A, dx, NULL, dy));
  PetscCall(VecGPURestoreDeviceArrayWrite(y, &dy));
  PetscCall(VecGPURestoreDeviceArrayRead(x, &dx));
  PetscCall(PetscLogFlops(PetscMax(2.0 * (s->diag.d.nnz + s->offd.d.nnz) - s->diag.d.m, 0)));
  PetscCall(PetscLogEventEnd(MATHEC_Mult, A, x, y, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMultAdd_MPIHEC(Mat A, Vec x, Vec z, Vec y)
{
  Mat_HEC           *s;
  const PetscScalar *dx, *dz;
  PetscScalar       *dy;

  PetscFunctionBegin;
  PetscCall(GPUPCMatSubclassEnsure(A));
  s = (Mat_HEC *)A->spptr;
  PetscCall(PetscLogEventBegin(MATHEC_Mult, A, x, y, 0));
  PetscCall(VecGPUGetDeviceArrayRead(x, &dx));
  if (z == y) {
    PetscCall(VecGPUGetDeviceArray(y, &dy));
    PetscCall(MPIHECMultDevice(A, dx, dy, dy));
    PetscCall(VecGPURestoreDeviceArray(y, &dy));
  } else {
    PetscCall(VecGPUGetDeviceArrayRead(z, &dz));
    PetscCall(VecGPUGetDeviceArrayWrite(y, &dy));
    PetscCall(MPIHECMultDevice(A, dx, dz, dy));
    PetscCall(VecGPURestoreDeviceArrayWrite(y, &dy));
    PetscCall(VecGPURestoreDeviceArrayRead(z, &dz));
  }
  PetscCall(VecGPURestoreDeviceArrayRead(x, &dx));
  PetscCall(PetscLogFlops(2.0 * (s->diag.d.nnz + s->offd.d.nnz)));
  PetscCall(PetscLogEventEnd(MATHEC_Mult, A, x, y, 0));
  PetscFunctionReturn(0);
}

/* y = A^T x + z: off-diagonal contributions go to their owners through the reverse halo
   (sum), overlapped with the diagonal block's transpose product */
static PetscErrorCode MatMultTransposeAdd_MPIHEC(Mat A, Vec x, Vec z, Vec y)
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
  PetscCall(GPUPCMemzero(s->halo->d_ghost, (size_t)s->halo->nghost * sizeof(PetscScalar)));
  PetscCall(k->multtransposeadd(&s->offd.d, dx, s->halo->d_ghost));
  PetscCall(GPUPCHaloReverseBegin(s->halo));
  PetscCall(k->multtransposeadd(&s->diag.d, dx, dy));
  PetscCall(GPUPCHaloReverseEnd(s->halo, dy));
  if (z) PetscCall(VecGPURestoreDeviceArray(y, &dy));
  else PetscCall(VecGPURestoreDeviceArrayWrite(y, &dy));
  PetscCall(VecGPURestoreDeviceArrayRead(x, &dx));
  PetscCall(PetscLogFlops(2.0 * (s->diag.d.nnz + s->offd.d.nnz)));
  PetscCall(PetscLogEventEnd(MATHEC_MultTranspose, A, x, y, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMultTranspose_MPIHEC(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatMultTransposeAdd_MPIHEC(A, x, NULL, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatGetDiagonal_MPIHEC(Mat A, Vec d)
{
  Mat_HEC               *s;
  const GPUPCHECKernels *k;
  PetscScalar           *dd;

  PetscFunctionBegin;
  PetscCheck(A->rmap->rstart == A->cmap->rstart && A->rmap->rend == A->cmap->rend, PETSC_COMM_SELF, PETSC_ERR_SUP, "MatGetDiagonal on mpihec needs the same row and column layout (rows %" PetscInt_FMT "..%" PetscInt_FMT ", columns %" PetscInt_FMT "..%" PetscInt_FMT " on this rank)",
             A->rmap->rstart, A->rmap->rend, A->cmap->rstart, A->cmap->rend);
  PetscCall(GPUPCMatSubclassEnsure(A));
  s = (Mat_HEC *)A->spptr;
  PetscCall(GPUPCGetHECKernels(&k));
  PetscCall(VecGPUGetDeviceArrayWrite(d, &dd));
  PetscCall(k->getdiagonal(&s->diag.d, 0, dd));
  PetscCall(VecGPURestoreDeviceArrayWrite(d, &dd));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatDuplicate_MPIHEC(Mat A, MatDuplicateOption op, Mat *B)
{
  Mat_HEC *s = (Mat_HEC *)A->spptr;

  PetscFunctionBegin;
  PetscCall(s->sc.base.duplicate(A, op, B));
  if (!((*B)->ops->mult == MatMult_MPIHEC && (*B)->spptr)) {
    PetscCall(PetscObjectChangeTypeName((PetscObject)*B, MATMPIAIJ));
    PetscCall(MatConvert_MPIAIJ_MPIHEC(*B, MATMPIHEC, MAT_INPLACE_MATRIX, B));
  } else {
    Mat_HEC *sb = (Mat_HEC *)(*B)->spptr;
    sb->ratio   = s->ratio;
    sb->Kopt    = s->Kopt;
    if ((*B)->assembled) PetscCall(GPUPCMatSubclassSync(*B, 1)); /* inside MatDuplicate */
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode MatView_MPIHEC(Mat A, PetscViewer viewer)
{
  Mat_HEC          *s = (Mat_HEC *)A->spptr;
  PetscBool         isascii;
  PetscViewerFormat format;
  PetscMPIInt       rank;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (isascii) {
    PetscCall(PetscViewerGetFormat(viewer, &format));
    if (format == PETSC_VIEWER_ASCII_INFO || format == PETSC_VIEWER_ASCII_INFO_DETAIL) {
      PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)A), &rank));
      if (A->assembled) PetscCall(GPUPCMatSubclassEnsure(A));
      PetscCall(PetscViewerASCIIPrintf(viewer, "mpihec (hybrid ELL + CSR on the device): diagonal and off-diagonal blocks per rank, device halo exchange; %" PetscInt_FMT " builds, %" PetscInt_FMT " value uploads\n", s->sc.builds, s->sc.uploads));
      if (s->sc.built) {
        char dn[64], on[64];
        PetscCall(PetscSNPrintf(dn, sizeof(dn), "  [%d] diagonal block", rank));
        PetscCall(PetscSNPrintf(on, sizeof(on), "  [%d] off-diagonal block", rank));
        PetscCall(PetscViewerASCIIPushSynchronized(viewer));
        PetscCall(GPUPCHECBlockView(&s->diag, dn, PETSC_TRUE, viewer));
        PetscCall(GPUPCHECBlockView(&s->offd, on, PETSC_TRUE, viewer));
        PetscCall(PetscViewerASCIISynchronizedPrintf(viewer, "  [%d] halo: %" PetscInt_FMT " ghosts from %" PetscInt_FMT " ranks, %" PetscInt_FMT " owned entries packed for others\n", rank, s->halo->nghost, s->halo->nneighbors, s->halo->nsend));
        PetscCall(PetscViewerFlush(viewer));
        PetscCall(PetscViewerASCIIPopSynchronized(viewer));
      }
    }
  }
  PetscCall(s->sc.base.view(A, viewer));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatSetFromOptions_MPIHEC(Mat A, PetscOptionItems *PetscOptionsObject)
{
  Mat_HEC *s = (Mat_HEC *)A->spptr;

  PetscFunctionBegin;
  if (s->sc.base.setfromoptions) PetscCall(s->sc.base.setfromoptions(A, PetscOptionsObject));
  PetscCall(MatSetFromOptions_HEC_Private(A, PetscOptionsObject, s));
  PetscFunctionReturn(0);
}

static PetscErrorCode FreeHEC(Mat A)
{
  Mat_HEC *s = (Mat_HEC *)A->spptr;

  PetscFunctionBegin;
  PetscCall(GPUPCHECBlockDestroy(&s->diag));
  PetscCall(GPUPCHECBlockDestroy(&s->offd));
  PetscCall(GPUPCHaloDestroy(&s->halo));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatConvert_mpihec_mpiaij_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatConvert_mpiaij_mpihec_C", NULL));
  PetscCall(MatHECComposeFunctions_Private(A, PETSC_FALSE));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatDestroy_MPIHEC(Mat A)
{
  Mat_HEC *s                     = (Mat_HEC *)A->spptr;
  PetscErrorCode (*destroy)(Mat) = s->sc.base.destroy;

  PetscFunctionBegin;
  PetscCall(FreeHEC(A));
  PetscCall(PetscFree(A->spptr));
  PetscCall(destroy(A));
  PetscFunctionReturn(0);
}

static PetscErrorCode MPIAIJToHEC_InPlace(Mat B)
{
  Mat_HEC *s;

  PetscFunctionBegin;
  PetscCall(PetscNew(&s));
  s->ratio = GPUPC_HEC_DEFAULT_RATIO;
  s->Kopt  = PETSC_DECIDE;
  PetscCall(GPUPCMatSubclassSave(B, &s->sc, PETSC_TRUE, MPIHECBuild, MPIHECUpload, MPIAIJToHEC_InPlace));
  B->spptr                 = s;
  B->ops->mult             = MatMult_MPIHEC;
  B->ops->multadd          = MatMultAdd_MPIHEC;
  B->ops->multtranspose    = MatMultTranspose_MPIHEC;
  B->ops->multtransposeadd = MatMultTransposeAdd_MPIHEC;
  B->ops->getdiagonal      = MatGetDiagonal_MPIHEC;
  B->ops->duplicate        = MatDuplicate_MPIHEC;
  B->ops->view             = MatView_MPIHEC;
  B->ops->setfromoptions   = MatSetFromOptions_MPIHEC;
  B->ops->destroy          = MatDestroy_MPIHEC;
  /* value-changing ops stay MPIAIJ's (host); values are re-uploaded at the next device use */
  PetscCall(GPUPCMatSubclassSetTypeName(B, MATMPIHEC, VECGPU));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatConvert_mpihec_mpiaij_C", MatConvert_MPIHEC_MPIAIJ));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatConvert_mpiaij_mpihec_C", MatConvert_MPIAIJ_MPIHEC));
  PetscCall(MatHECComposeFunctions_Private(B, PETSC_TRUE));
  if (B->assembled) PetscCall(GPUPCMatSubclassSync(B, 1)); /* reached only inside MatConvert or MatDuplicate */
  PetscFunctionReturn(0);
}

PetscErrorCode MatConvert_MPIAIJ_MPIHEC(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMatConvertReuse(A, reuse, newmat, MPIAIJToHEC_InPlace));
  PetscFunctionReturn(0);
}

static PetscErrorCode MPIHECToMPIAIJ_InPlace(Mat B)
{
  Mat_HEC *s;

  PetscFunctionBegin;
  s = (Mat_HEC *)B->spptr;
  PetscCall(FreeHEC(B));
  PetscCall(GPUPCMatSubclassRestore(B, &s->sc));
  PetscCall(PetscFree(B->spptr));
  PetscCall(GPUPCMatSubclassSetTypeName(B, MATMPIAIJ, VECSTANDARD));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatConvert_MPIHEC_MPIAIJ(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMatConvertReuse(A, reuse, newmat, MPIHECToMPIAIJ_InPlace));
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
  PetscCall(MatSetType(A, MATMPIAIJ));
  PetscCall(MPIAIJToHEC_InPlace(A));
  PetscFunctionReturn(0);
}

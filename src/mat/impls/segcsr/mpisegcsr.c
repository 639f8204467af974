/*
   MATMPISEGCSR: an MPIAIJ matrix whose diagonal and off-diagonal blocks are kept on the
   device in segmented CSR, with a device halo exchange (see segcsrimpl.h, gpupc/matgpu.h).

   y = A x: pack the owned entries other ranks need (device), copy them down once, start
   the PetscSF exchange, launch the diagonal-block product (which runs while the exchange
   is in flight), finish the exchange, copy the ghosts up once, add the off-diagonal
   block's product.
*/
#include "segcsrimpl.h"

static PetscErrorCode MatConvert_MPISegCSR_MPIAIJ(Mat, MatType, MatReuse, Mat *);

/* new pattern (collective): lays out both blocks and makes the halo plan */
static PetscErrorCode MPISegCSRBuild(Mat A)
{
  Mat_SegCSR     *s = (Mat_SegCSR *)A->spptr;
  Mat             Ad, Ao;
  const PetscInt *garray;
  GPUPCCSR        cd, co;

  PetscFunctionBegin;
  PetscCall(GPUPCMatMPIAIJGetSeqAIJ(A, &Ad, &Ao, &garray));
  PetscCall(GPUPCMatGetCSR(Ad, &cd));
  PetscCall(GPUPCMatGetCSR(Ao, &co));
  PetscCall(GPUPCSegCSRBlockBuildWithMode(&cd, s->Lopt, s->shortopt, &s->diag));
  PetscCall(GPUPCSegCSRBlockBuildWithMode(&co, s->Lopt, s->shortopt, &s->offd));
  PetscCall(GPUPCHaloDestroy(&s->halo));
  PetscCall(GPUPCHaloCreate(A, co.n, garray, &s->halo));
  s->blocknz[0] = Ad->nonzerostate;
  s->blocknz[1] = Ao->nonzerostate;
  PetscCall(PetscInfo(A, "built mpisegcsr: local %" PetscInt_FMT " rows, diagonal block %" PetscInt_FMT " nonzeros (L %" PetscInt_FMT "), off-diagonal %" PetscInt_FMT " nonzeros (L %" PetscInt_FMT "), %" PetscInt_FMT " ghosts from %" PetscInt_FMT " ranks\n", cd.m, cd.nnz, s->diag.d.L, co.nnz, s->offd.d.L, co.n, s->halo->nneighbors));
  PetscCall(GPUPCMatRestoreCSR(&co));
  PetscCall(GPUPCMatRestoreCSR(&cd));
  PetscFunctionReturn(0);
}

/* the matrix's nonzero pattern is unchanged (A->nonzerostate): new values of both blocks. A block's own pattern can
   still have changed without a parallel assembly (MPIAIJ's MatShift and MatZeroRows insert missing diagonal entries
   into the diagonal block by the block's own assembly): such a block is laid out again, locally; the ghost columns
   (the halo plan) change only in a parallel assembly */
static PetscErrorCode MPISegCSRUpload(Mat A)
{
  Mat_SegCSR *s = (Mat_SegCSR *)A->spptr;
  Mat         Ad, Ao;
  GPUPCCSR    cd, co;

  PetscFunctionBegin;
  PetscCall(GPUPCMatMPIAIJGetSeqAIJ(A, &Ad, &Ao, NULL));
  PetscCall(GPUPCMatGetCSR(Ad, &cd));
  PetscCall(GPUPCMatGetCSR(Ao, &co));
  PetscCheck(co.n == s->halo->nghost, PETSC_COMM_SELF, PETSC_ERR_PLIB, "mpisegcsr: the off-diagonal block has %" PetscInt_FMT " ghost columns, the halo plan %" PetscInt_FMT ", but the matrix's nonzero state did not change", co.n, s->halo->nghost);
  if (Ad->nonzerostate != s->blocknz[0]) {
    PetscCall(GPUPCSegCSRBlockBuildWithMode(&cd, s->Lopt, s->shortopt, &s->diag));
    s->blocknz[0] = Ad->nonzerostate;
  } else PetscCall(GPUPCSegCSRBlockUploadValues(&cd, &s->diag));
  if (Ao->nonzerostate != s->blocknz[1]) {
    PetscCall(GPUPCSegCSRBlockBuildWithMode(&co, s->Lopt, s->shortopt, &s->offd));
    s->blocknz[1] = Ao->nonzerostate;
  } else PetscCall(GPUPCSegCSRBlockUploadValues(&co, &s->offd));
  PetscCall(GPUPCMatRestoreCSR(&co));
  PetscCall(GPUPCMatRestoreCSR(&cd));
  PetscFunctionReturn(0);
}

/* y = A x + z (z NULL: y = A x; z may be y's device array) */
static PetscErrorCode MPISegCSRMultDevice(Mat A, const PetscScalar *dx, const PetscScalar *dz, PetscScalar *dy)
{
  Mat_SegCSR               *s = (Mat_SegCSR *)A->spptr;
  const GPUPCSegCSRKernels *k;
  const PetscScalar        *dg;

  PetscFunctionBegin;
  PetscCall(GPUPCGetSegCSRKernels(&k));
  PetscCall(GPUPCHaloForwardBegin(s->halo, dx));
  PetscCall(k->mult(&s->diag.d, dx, dz, dy)); /* overlaps the exchange */
  PetscCall(GPUPCHaloForwardEnd(s->halo, &dg));
  if (s->offd.d.nnz) PetscCall(k->mult(&s->offd.d, dg, dy, dy));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMult_MPISegCSR(Mat A, Vec x, Vec y)
{
  Mat_SegCSR        *s;
  const PetscScalar *dx;
  PetscScalar       *dy;

  PetscFunctionBegin;
  PetscCall(GPUPCMatSubclassEnsure(A));
  s = (Mat_SegCSR *)A->spptr;
  PetscCall(PetscLogEventBegin(MATSEGCSR_Mult, A, x, y, 0));
  PetscCall(VecGPUGetDeviceArrayRead(x, &dx));
  PetscCall(VecGPUGetDeviceArrayWrite(y, &dy));
  PetscCall(MPISegCSRMultDevice(A, dx, NULL, dy));
  PetscCall(VecGPURestoreDeviceArrayWrite(y, &dy));
  PetscCall(VecGPURestoreDeviceArrayRead(x, &dx));
  PetscCall(PetscLogFlops(PetscMax(2.0 * (s->diag.d.nnz + s->offd.d.nnz) - s->diag.d.m, 0)));
  PetscCall(PetscLogEventEnd(MATSEGCSR_Mult, A, x, y, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMultAdd_MPISegCSR(Mat A, Vec x, Vec z, Vec y)
{
  Mat_SegCSR        *s;
  const PetscScalar *dx, *dz;
  PetscScalar       *dy;

  PetscFunctionBegin;
  PetscCall(GPUPCMatSubclassEnsure(A));
  s = (Mat_SegCSR *)A->spptr;
  PetscCall(PetscLogEventBegin(MATSEGCSR_Mult, A, x, y, 0));
  PetscCall(VecGPUGetDeviceArrayRead(x, &dx));
  if (z == y) {
    PetscCall(VecGPUGetDeviceArray(y, &dy));
    PetscCall(MPISegCSRMultDevice(A, dx, dy, dy));
    PetscCall(VecGPURestoreDeviceArray(y, &dy));
  } else {
    PetscCall(VecGPUGetDeviceArrayRead(z, &dz));
    PetscCall(VecGPUGetDeviceArrayWrite(y, &dy));
    PetscCall(MPISegCSRMultDevice(A, dx, dz, dy));
    PetscCall(VecGPURestoreDeviceArrayWrite(y, &dy));
    PetscCall(VecGPURestoreDeviceArrayRead(z, &dz));
  }
  PetscCall(VecGPURestoreDeviceArrayRead(x, &dx));
  PetscCall(PetscLogFlops(2.0 * (s->diag.d.nnz + s->offd.d.nnz)));
  PetscCall(PetscLogEventEnd(MATSEGCSR_Mult, A, x, y, 0));
  PetscFunctionReturn(0);
}

/* y = A^T x + z: off-diagonal contributions go to their owners through the reverse halo
   (sum), overlapped with the diagonal block's transpose product */
static PetscErrorCode MatMultTransposeAdd_MPISegCSR(Mat A, Vec x, Vec z, Vec y)
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
  PetscCall(GPUPCMemzero(s->halo->d_ghost, (size_t)s->halo->nghost * sizeof(PetscScalar)));
  PetscCall(k->multtransposeadd(&s->offd.d, dx, s->halo->d_ghost));
  PetscCall(GPUPCHaloReverseBegin(s->halo));
  PetscCall(k->multtransposeadd(&s->diag.d, dx, dy));
  PetscCall(GPUPCHaloReverseEnd(s->halo, dy));
  if (z) PetscCall(VecGPURestoreDeviceArray(y, &dy));
  else PetscCall(VecGPURestoreDeviceArrayWrite(y, &dy));
  PetscCall(VecGPURestoreDeviceArrayRead(x, &dx));
  PetscCall(PetscLogFlops(2.0 * (s->diag.d.nnz + s->offd.d.nnz)));
  PetscCall(PetscLogEventEnd(MATSEGCSR_MultTranspose, A, x, y, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMultTranspose_MPISegCSR(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatMultTransposeAdd_MPISegCSR(A, x, NULL, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatGetDiagonal_MPISegCSR(Mat A, Vec d)
{
  Mat_SegCSR               *s;
  const GPUPCSegCSRKernels *k;
  PetscScalar              *dd;

  PetscFunctionBegin;
  PetscCheck(A->rmap->rstart == A->cmap->rstart && A->rmap->rend == A->cmap->rend, PETSC_COMM_SELF, PETSC_ERR_SUP, "MatGetDiagonal on mpisegcsr needs the same row and column layout (rows %" PetscInt_FMT "..%" PetscInt_FMT ", columns %" PetscInt_FMT "..%" PetscInt_FMT " on this rank)",
             A->rmap->rstart, A->rmap->rend, A->cmap->rstart, A->cmap->rend);
  PetscCall(GPUPCMatSubclassEnsure(A));
  s = (Mat_SegCSR *)A->spptr;
  PetscCall(GPUPCGetSegCSRKernels(&k));
  PetscCall(VecGPUGetDeviceArrayWrite(d, &dd));
  PetscCall(k->getdiagonal(&s->diag.d, 0, dd));
  PetscCall(VecGPURestoreDeviceArrayWrite(d, &dd));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatDuplicate_MPISegCSR(Mat A, MatDuplicateOption op, Mat *B)
{
  Mat_SegCSR *s = (Mat_SegCSR *)A->spptr;

  PetscFunctionBegin;
  PetscCall(s->sc.base.duplicate(A, op, B));
  if (!((*B)->ops->mult == MatMult_MPISegCSR && (*B)->spptr)) {
    PetscCall(PetscObjectChangeTypeName((PetscObject)*B, MATMPIAIJ));
    PetscCall(MatConvert_MPIAIJ_MPISegCSR(*B, MATMPISEGCSR, MAT_INPLACE_MATRIX, B));
  } else {
    Mat_SegCSR *sb = (Mat_SegCSR *)(*B)->spptr;
    sb->Lopt       = s->Lopt;
    sb->shortopt   = s->shortopt;
    if ((*B)->assembled) PetscCall(GPUPCMatSubclassSync(*B, 1)); /* inside MatDuplicate */
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode MatView_MPISegCSR(Mat A, PetscViewer viewer)
{
  Mat_SegCSR       *s = (Mat_SegCSR *)A->spptr;
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
      PetscCall(PetscViewerASCIIPrintf(viewer, "mpisegcsr (segmented CSR on the device): diagonal and off-diagonal blocks per rank, device halo exchange; %" PetscInt_FMT " builds, %" PetscInt_FMT " value uploads\n", s->sc.builds, s->sc.uploads));
      if (s->sc.built) {
        char dn[64], on[64];
        PetscCall(PetscSNPrintf(dn, sizeof(dn), "  [%d] diagonal block", rank));
        PetscCall(PetscSNPrintf(on, sizeof(on), "  [%d] off-diagonal block", rank));
        PetscCall(PetscViewerASCIIPushSynchronized(viewer));
        PetscCall(GPUPCSegCSRBlockView(&s->diag, dn, PETSC_TRUE, viewer));
        PetscCall(GPUPCSegCSRBlockView(&s->offd, on, PETSC_TRUE, viewer));
        PetscCall(PetscViewerASCIISynchronizedPrintf(viewer, "  [%d] halo: %" PetscInt_FMT " ghosts from %" PetscInt_FMT " ranks, %" PetscInt_FMT " owned entries packed for others\n", rank, s->halo->nghost, s->halo->nneighbors, s->halo->nsend));
        PetscCall(PetscViewerFlush(viewer));
        PetscCall(PetscViewerASCIIPopSynchronized(viewer));
      }
    }
  }
  PetscCall(s->sc.base.view(A, viewer));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatSetFromOptions_MPISegCSR(Mat A, PetscOptionItems *PetscOptionsObject)
{
  Mat_SegCSR *s = (Mat_SegCSR *)A->spptr;

  PetscFunctionBegin;
  if (s->sc.base.setfromoptions) PetscCall(s->sc.base.setfromoptions(A, PetscOptionsObject));
  PetscCall(MatSetFromOptions_SegCSR_Private(A, PetscOptionsObject, s));
  PetscFunctionReturn(0);
}

static PetscErrorCode FreeSegCSR(Mat A)
{
  Mat_SegCSR *s = (Mat_SegCSR *)A->spptr;

  PetscFunctionBegin;
  PetscCall(GPUPCSegCSRBlockDestroy(&s->diag));
  PetscCall(GPUPCSegCSRBlockDestroy(&s->offd));
  PetscCall(GPUPCHaloDestroy(&s->halo));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatConvert_mpisegcsr_mpiaij_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatConvert_mpiaij_mpisegcsr_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatSegCSRSetSegmentLength_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatSegCSRSetShortMode_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatSegCSRGetShortMode_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatSegCSRGetInfo_C", NULL));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatDestroy_MPISegCSR(Mat A)
{
  Mat_SegCSR *s                  = (Mat_SegCSR *)A->spptr;
  PetscErrorCode (*destroy)(Mat) = s->sc.base.destroy;

  PetscFunctionBegin;
  PetscCall(FreeSegCSR(A));
  PetscCall(PetscFree(A->spptr));
  PetscCall(destroy(A));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatSegCSRSetSegmentLength_MPISegCSR(Mat A, PetscInt L)
{
  Mat_SegCSR *s = (Mat_SegCSR *)A->spptr;

  PetscFunctionBegin;
  if (L) PetscCall(GPUPCSegCSRCheckLength(L, "MatSegCSRSetSegmentLength"));
  if (L == s->Lopt) PetscFunctionReturn(0);
  s->Lopt = L;
  PetscCall(GPUPCMatSubclassRelayout(A)); /* collective: L is logically collective */
  PetscFunctionReturn(0);
}

static PetscErrorCode MatSegCSRSetShortMode_MPISegCSR(Mat A, MatSegCSRShortMode mode)
{
  Mat_SegCSR *s = (Mat_SegCSR *)A->spptr;

  PetscFunctionBegin;
  if (mode == s->shortopt) PetscFunctionReturn(0);
  s->shortopt = mode;
  PetscCall(GPUPCMatSubclassRelayout(A)); /* collective: the mode is logically collective */
  PetscFunctionReturn(0);
}

static PetscErrorCode MatSegCSRGetShortMode_MPISegCSR(Mat A, MatSegCSRShortMode *mode, PetscInt *ntiles)
{
  Mat_SegCSR *s = (Mat_SegCSR *)A->spptr;

  PetscFunctionBegin;
  if (A->assembled) PetscCall(GPUPCMatSubclassEnsure(A));
  if (mode) *mode = s->diag.d.shortmode;
  if (ntiles) *ntiles = s->diag.d.ntiles;
  PetscFunctionReturn(0);
}

static PetscErrorCode MatSegCSRGetInfo_MPISegCSR(Mat A, PetscInt *L, PetscInt *builds, PetscInt *uploads)
{
  Mat_SegCSR *s = (Mat_SegCSR *)A->spptr;

  PetscFunctionBegin;
  if (A->assembled) PetscCall(GPUPCMatSubclassEnsure(A));
  if (L) *L = s->diag.d.L;
  if (builds) *builds = s->sc.builds;
  if (uploads) *uploads = s->sc.uploads;
  PetscFunctionReturn(0);
}

static PetscErrorCode MPIAIJToSegCSR_InPlace(Mat B)
{
  Mat_SegCSR *s;

  PetscFunctionBegin;
  PetscCall(PetscNew(&s));
  PetscCall(GPUPCMatSubclassSave(B, &s->sc, PETSC_TRUE, MPISegCSRBuild, MPISegCSRUpload, MPIAIJToSegCSR_InPlace));
  B->spptr                 = s;
  B->ops->mult             = MatMult_MPISegCSR;
  B->ops->multadd          = MatMultAdd_MPISegCSR;
  B->ops->multtranspose    = MatMultTranspose_MPISegCSR;
  B->ops->multtransposeadd = MatMultTransposeAdd_MPISegCSR;
  B->ops->getdiagonal      = MatGetDiagonal_MPISegCSR;
  B->ops->duplicate        = MatDuplicate_MPISegCSR;
  B->ops->view             = MatView_MPISegCSR;
  B->ops->setfromoptions   = MatSetFromOptions_MPISegCSR;
  B->ops->destroy          = MatDestroy_MPISegCSR;
  /* value-changing ops stay MPIAIJ's (host); values are re-uploaded at the next device use */
  PetscCall(GPUPCMatSubclassSetTypeName(B, MATMPISEGCSR, VECGPU));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatConvert_mpisegcsr_mpiaij_C", MatConvert_MPISegCSR_MPIAIJ));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatConvert_mpiaij_mpisegcsr_C", MatConvert_MPIAIJ_MPISegCSR));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatSegCSRSetSegmentLength_C", MatSegCSRSetSegmentLength_MPISegCSR));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatSegCSRSetShortMode_C", MatSegCSRSetShortMode_MPISegCSR));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatSegCSRGetShortMode_C", MatSegCSRGetShortMode_MPISegCSR));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatSegCSRGetInfo_C", MatSegCSRGetInfo_MPISegCSR));
  if (B->assembled) PetscCall(GPUPCMatSubclassSync(B, 1)); /* reached only inside MatConvert or MatDuplicate */
  PetscFunctionReturn(0);
}

PetscErrorCode MatConvert_MPIAIJ_MPISegCSR(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMatConvertReuse(A, reuse, newmat, MPIAIJToSegCSR_InPlace));
  PetscFunctionReturn(0);
}

static PetscErrorCode MPISegCSRToMPIAIJ_InPlace(Mat B)
{
  Mat_SegCSR *s;

  PetscFunctionBegin;
  s = (Mat_SegCSR *)B->spptr;
  PetscCall(FreeSegCSR(B));
  PetscCall(GPUPCMatSubclassRestore(B, &s->sc));
  PetscCall(PetscFree(B->spptr));
  PetscCall(GPUPCMatSubclassSetTypeName(B, MATMPIAIJ, VECSTANDARD));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatConvert_MPISegCSR_MPIAIJ(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMatConvertReuse(A, reuse, newmat, MPISegCSRToMPIAIJ_InPlace));
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
  PetscCall(MatSetType(A, MATMPIAIJ));
  PetscCall(MPIAIJToSegCSR_InPlace(A));
  PetscFunctionReturn(0);
}

/*
   MATSEQBCSR and MATMPIBCSR: the device operations of a SEQAIJ or MPIAIJ matrix whose device copy is in bcsr (see
   bcsrimpl.h). One set of operations serves both: a sequential matrix has only the diagonal block; a parallel one adds
   the off-diagonal block and the halo exchange (shared with segcsr: gpupc/matgpu.h), overlapped with the diagonal
   block's product.
*/
#include "bcsrimpl.h"

/* the block size the layout uses: -mat_bcsr_block_size, else the Mat's block size when its row and column block sizes
   agree (square blocks), else 1 (e.g. a product of a blocked and an unblocked matrix) */
static PetscInt BlockSize(Mat A)
{
  Mat_BCSR *s = (Mat_BCSR *)A->spptr;

  if (s->bopt) return s->bopt;
  return A->rmap->bs == A->cmap->bs ? PetscMax(1, A->rmap->bs) : 1;
}

/* new pattern (sequential) */
static PetscErrorCode SeqBCSRBuild(Mat A)
{
  Mat_BCSR *s = (Mat_BCSR *)A->spptr;
  GPUPCCSR  csr;

  PetscFunctionBegin;
  PetscCall(GPUPCMatGetCSR(A, &csr));
  PetscCall(GPUPCBCSRBlockBuild(&csr, BlockSize(A), NULL, csr.n, s->mapping, s->sort, &s->diag));
  PetscCall(GPUPCMatRestoreCSR(&csr));
  PetscCall(PetscInfo(A, "built bcsr: %" PetscInt_FMT " rows, block size %" PetscInt_FMT ", %" PetscInt_FMT " blocks (%" PetscInt_FMT " padding), %" PetscInt_FMT " slices\n", s->diag.d.m, s->diag.d.b, s->diag.nreal, s->diag.d.nblocks - s->diag.nreal, s->diag.d.nslices));
  PetscFunctionReturn(0);
}

/* same pattern (sequential): new values */
static PetscErrorCode SeqBCSRUpload(Mat A)
{
  Mat_BCSR *s = (Mat_BCSR *)A->spptr;
  GPUPCCSR  csr;

  PetscFunctionBegin;
  PetscCall(GPUPCMatGetCSR(A, &csr));
  PetscCall(GPUPCBCSRBlockUploadValues(&csr, &s->diag));
  PetscCall(GPUPCMatRestoreCSR(&csr));
  PetscFunctionReturn(0);
}

/* the off-diagonal block's ghost columns grouped into whole ghost blocks: colmap (expanded place of each compressed
   column) and the expanded global columns the halo fetches (all b columns of each ghost block) */
static PetscErrorCode GhostBlocks(Mat A, PetscInt b, PetscInt nghost, const PetscInt *garray, PetscInt *nexp, PetscInt **expanded)
{
  Mat_BCSR *s   = (Mat_BCSR *)A->spptr;
  PetscInt  ngb = 0, last = -1;

  PetscFunctionBegin;
  PetscCall(PetscFree(s->colmap));
  PetscCall(PetscMalloc1(nghost, &s->colmap));
  s->ncolmap = nghost;
  for (PetscInt c = 0; c < nghost; c++) {
    const PetscInt gb = garray[c] / b;

    PetscCheck(c == 0 || garray[c] > garray[c - 1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "mpibcsr: the ghost columns are not increasing");
    if (gb != last) {
      ngb++;
      last = gb;
    }
    s->colmap[c] = (ngb - 1) * b + garray[c] % b;
  }
  *nexp = ngb * b;
  PetscCall(PetscMalloc1(*nexp, expanded));
  last = -1;
  ngb  = 0;
  for (PetscInt c = 0; c < nghost; c++) {
    const PetscInt gb = garray[c] / b;

    if (gb == last) continue;
    last = gb;
    for (PetscInt j = 0; j < b; j++) (*expanded)[ngb * b + j] = gb * b + j;
    ngb++;
  }
  PetscFunctionReturn(0);
}

/* new pattern (parallel, collective): both blocks and the halo plan */
static PetscErrorCode MPIBCSRBuild(Mat A)
{
  Mat_BCSR       *s = (Mat_BCSR *)A->spptr;
  const PetscInt  b = BlockSize(A);
  Mat             Ad, Ao;
  const PetscInt *garray;
  PetscInt        nexp = 0, *expanded, ok, allok;
  GPUPCCSR        cd, co;

  PetscFunctionBegin;
  PetscCall(GPUPCBCSRCheckBlockSize(b, "MatAssemblyEnd"));
  /* every rank's rows and columns must start and end on block boundaries, so that a block never spans two ranks */
  ok = (A->rmap->n % b == 0 && A->cmap->n % b == 0 && A->rmap->rstart % b == 0 && A->cmap->rstart % b == 0) ? 1 : 0;
  PetscCall(MPIU_Allreduce(&ok, &allok, 1, MPIU_INT, MPI_MIN, PetscObjectComm((PetscObject)A)));
  PetscCheck(allok, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_SIZ, "mpibcsr: with block size %" PetscInt_FMT " every rank's local row and column sizes must be multiples of it (this rank: %" PetscInt_FMT " rows from %" PetscInt_FMT ", %" PetscInt_FMT " columns from %" PetscInt_FMT "); set the sizes accordingly (MatSetBlockSize() before MatSetSizes(PETSC_DECIDE) does), or choose another -mat_bcsr_block_size", b, A->rmap->n, A->rmap->rstart, A->cmap->n, A->cmap->rstart);
  PetscCall(GPUPCMatMPIAIJGetSeqAIJ(A, &Ad, &Ao, &garray));
  PetscCall(GPUPCMatGetCSR(Ad, &cd));
  PetscCall(GPUPCMatGetCSR(Ao, &co));
  PetscCall(GhostBlocks(A, b, co.n, garray, &nexp, &expanded));
  PetscCall(GPUPCBCSRBlockBuild(&cd, b, NULL, cd.n, s->mapping, s->sort, &s->diag));
  PetscCall(GPUPCBCSRBlockBuild(&co, b, s->colmap, nexp, s->mapping, s->sort, &s->offd));
  PetscCall(GPUPCHaloDestroy(&s->halo));
  PetscCall(GPUPCHaloCreate(A, nexp, expanded, &s->halo));
  PetscCall(PetscFree(expanded));
  s->blocknz[0] = Ad->nonzerostate;
  s->blocknz[1] = Ao->nonzerostate;
  PetscCall(PetscInfo(A, "built mpibcsr: local %" PetscInt_FMT " rows, block size %" PetscInt_FMT ", diagonal block %" PetscInt_FMT " blocks, off-diagonal %" PetscInt_FMT " blocks, %" PetscInt_FMT " ghost columns in %" PetscInt_FMT " ghost blocks from %" PetscInt_FMT " ranks\n", cd.m, b, s->diag.nreal, s->offd.nreal, co.n, nexp / b,
                      s->halo->nneighbors));
  PetscCall(GPUPCMatRestoreCSR(&co));
  PetscCall(GPUPCMatRestoreCSR(&cd));
  PetscFunctionReturn(0);
}

/* same nonzero pattern of the matrix (parallel): new values of both blocks; a block whose own pattern changed without a
   parallel assembly (MPIAIJ's MatShift, MatZeroRows insert diagonal entries) is laid out again, locally, with the same
   ghost columns */
static PetscErrorCode MPIBCSRUpload(Mat A)
{
  Mat_BCSR *s = (Mat_BCSR *)A->spptr;
  Mat       Ad, Ao;
  GPUPCCSR  cd, co;

  PetscFunctionBegin;
  PetscCall(GPUPCMatMPIAIJGetSeqAIJ(A, &Ad, &Ao, NULL));
  PetscCall(GPUPCMatGetCSR(Ad, &cd));
  PetscCall(GPUPCMatGetCSR(Ao, &co));
  PetscCheck(co.n == s->ncolmap, PETSC_COMM_SELF, PETSC_ERR_PLIB, "mpibcsr: the off-diagonal block has %" PetscInt_FMT " ghost columns, the layout %" PetscInt_FMT ", but the matrix's nonzero state did not change", co.n, s->ncolmap);
  if (Ad->nonzerostate != s->blocknz[0]) {
    PetscCall(GPUPCBCSRBlockBuild(&cd, s->diag.d.b, NULL, cd.n, s->mapping, s->sort, &s->diag));
    s->blocknz[0] = Ad->nonzerostate;
  } else PetscCall(GPUPCBCSRBlockUploadValues(&cd, &s->diag));
  if (Ao->nonzerostate != s->blocknz[1]) {
    PetscCall(GPUPCBCSRBlockBuild(&co, s->offd.d.b, s->colmap, s->halo->nghost, s->mapping, s->sort, &s->offd));
    s->blocknz[1] = Ao->nonzerostate;
  } else PetscCall(GPUPCBCSRBlockUploadValues(&co, &s->offd));
  PetscCall(GPUPCMatRestoreCSR(&co));
  PetscCall(GPUPCMatRestoreCSR(&cd));
  PetscFunctionReturn(0);
}

/* y = A x + z on device arrays (z NULL: y = A x; z may be y) */
static PetscErrorCode MultDevice(Mat A, const PetscScalar *dx, const PetscScalar *dz, PetscScalar *dy)
{
  Mat_BCSR               *s = (Mat_BCSR *)A->spptr;
  const GPUPCBCSRKernels *k;
  const PetscScalar      *dg;

  PetscFunctionBegin;
  PetscCall(GPUPCGetBCSRKernels(&k));
  if (!s->sc.mpi) {
    PetscCall(k->mult(&s->diag.d, dx, dz, dy));
    PetscFunctionReturn(0);
  }
  PetscCall(GPUPCHaloForwardBegin(s->halo, dx));
  PetscCall(k->mult(&s->diag.d, dx, dz, dy)); /* overlaps the exchange */
  PetscCall(GPUPCHaloForwardEnd(s->halo, &dg));
  if (s->offd.d.nnz) PetscCall(k->mult(&s->offd.d, dg, dy, dy));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMultAdd_BCSR(Mat A, Vec x, Vec z, Vec y)
{
  Mat_BCSR          *s;
  const PetscScalar *dx, *dz = NULL;
  PetscScalar       *dy;

  PetscFunctionBegin;
  PetscCall(GPUPCMatSubclassEnsure(A));
  s = (Mat_BCSR *)A->spptr;
  PetscCall(PetscLogEventBegin(MATBCSR_Mult, A, x, y, 0));
  PetscCall(VecGPUGetDeviceArrayRead(x, &dx));
  if (z == y) {
    PetscCall(VecGPUGetDeviceArray(y, &dy));
    PetscCall(MultDevice(A, dx, dy, dy));
    PetscCall(VecGPURestoreDeviceArray(y, &dy));
  } else {
    if (z) PetscCall(VecGPUGetDeviceArrayRead(z, &dz));
    PetscCall(VecGPUGetDeviceArrayWrite(y, &dy));
    PetscCall(MultDevice(A, dx, dz, dy));
    PetscCall(VecGPURestoreDeviceArrayWrite(y, &dy));
    if (z) PetscCall(VecGPURestoreDeviceArrayRead(z, &dz));
  }
  PetscCall(VecGPURestoreDeviceArrayRead(x, &dx));
  PetscCall(PetscLogFlops(z ? 2.0 * (s->diag.d.nnz + s->offd.d.nnz) : PetscMax(2.0 * (s->diag.d.nnz + s->offd.d.nnz) - s->diag.d.m, 0)));
  PetscCall(PetscLogEventEnd(MATBCSR_Mult, A, x, y, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMult_BCSR(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatMultAdd_BCSR(A, x, NULL, y));
  PetscFunctionReturn(0);
}

/* y = A^T x + z: atomic scatter; in parallel the off-diagonal contributions go to their owners through the reverse
   halo (sum), overlapped with the diagonal block's transpose product */
static PetscErrorCode MatMultTransposeAdd_BCSR(Mat A, Vec x, Vec z, Vec y)
{
  Mat_BCSR               *s;
  const GPUPCBCSRKernels *k;
  const PetscScalar      *dx;
  PetscScalar            *dy;

  PetscFunctionBegin;
  PetscCall(GPUPCMatSubclassEnsure(A));
  s = (Mat_BCSR *)A->spptr;
  PetscCall(GPUPCGetBCSRKernels(&k));
  PetscCall(PetscLogEventBegin(MATBCSR_MultTranspose, A, x, y, 0));
  if (z && z != y) PetscCall(VecCopy(z, y));
  PetscCall(VecGPUGetDeviceArrayRead(x, &dx));
  if (z) PetscCall(VecGPUGetDeviceArray(y, &dy));
  else {
    PetscCall(VecGPUGetDeviceArrayWrite(y, &dy));
    PetscCall(GPUPCMemzero(dy, (size_t)A->cmap->n * sizeof(PetscScalar)));
  }
  if (s->sc.mpi) {
    PetscCall(GPUPCMemzero(s->halo->d_ghost, (size_t)s->halo->nghost * sizeof(PetscScalar)));
    PetscCall(k->multtransposeadd(&s->offd.d, dx, s->halo->d_ghost));
    PetscCall(GPUPCHaloReverseBegin(s->halo));
    PetscCall(k->multtransposeadd(&s->diag.d, dx, dy));
    PetscCall(GPUPCHaloReverseEnd(s->halo, dy));
  } else PetscCall(k->multtransposeadd(&s->diag.d, dx, dy));
  if (z) PetscCall(VecGPURestoreDeviceArray(y, &dy));
  else PetscCall(VecGPURestoreDeviceArrayWrite(y, &dy));
  PetscCall(VecGPURestoreDeviceArrayRead(x, &dx));
  PetscCall(PetscLogFlops(2.0 * (s->diag.d.nnz + s->offd.d.nnz)));
  PetscCall(PetscLogEventEnd(MATBCSR_MultTranspose, A, x, y, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMultTranspose_BCSR(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatMultTransposeAdd_BCSR(A, x, NULL, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatGetDiagonal_BCSR(Mat A, Vec d)
{
  Mat_BCSR               *s;
  const GPUPCBCSRKernels *k;
  PetscScalar            *dd;

  PetscFunctionBegin;
  PetscCheck(!((Mat_BCSR *)A->spptr)->sc.mpi || (A->rmap->rstart == A->cmap->rstart && A->rmap->rend == A->cmap->rend), PETSC_COMM_SELF, PETSC_ERR_SUP, "MatGetDiagonal on mpibcsr needs the same row and column layout (rows %" PetscInt_FMT "..%" PetscInt_FMT ", columns %" PetscInt_FMT "..%" PetscInt_FMT " on this rank)", A->rmap->rstart, A->rmap->rend, A->cmap->rstart, A->cmap->rend);
  PetscCall(GPUPCMatSubclassEnsure(A));
  s = (Mat_BCSR *)A->spptr;
  PetscCall(GPUPCGetBCSRKernels(&k));
  PetscCall(VecGPUGetDeviceArrayWrite(d, &dd));
  PetscCall(k->getdiagonal(&s->diag.d, dd));
  PetscCall(VecGPURestoreDeviceArrayWrite(d, &dd));
  PetscFunctionReturn(0);
}

static PetscErrorCode BaseToBCSR_InPlace(Mat);

/* MatDuplicate: the base duplicate creates a matrix of A's type name; make sure it is a bcsr with A's options and its
   device copy */
static PetscErrorCode MatDuplicate_BCSR(Mat A, MatDuplicateOption op, Mat *B)
{
  Mat_BCSR *s = (Mat_BCSR *)A->spptr, *sb;
  PetscBool ours, relayout;

  PetscFunctionBegin;
  PetscCall(s->sc.base.duplicate(A, op, B));
  ours = (PetscBool)((*B)->ops->mult == MatMult_BCSR && (*B)->spptr);
  if (!ours) {
    PetscCall(PetscObjectChangeTypeName((PetscObject)*B, GPUPCMatBaseType(A)));
    PetscCall(BaseToBCSR_InPlace(*B)); /* builds with the default options when assembled */
  }
  sb          = (Mat_BCSR *)(*B)->spptr;
  relayout    = (PetscBool)(ours || sb->bopt != s->bopt || sb->mapping != s->mapping || sb->sort != s->sort);
  sb->bopt    = s->bopt;
  sb->mapping = s->mapping;
  sb->sort    = s->sort;
  if ((*B)->assembled && relayout) { /* inside MatDuplicate: one state bump follows */
    sb->sc.built = PETSC_FALSE;
    PetscCall(GPUPCMatSubclassSync(*B, 1));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode MatView_BCSR(Mat A, PetscViewer viewer)
{
  Mat_BCSR         *s = (Mat_BCSR *)A->spptr;
  PetscBool         isascii;
  PetscViewerFormat format;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (isascii) {
    PetscCall(PetscViewerGetFormat(viewer, &format));
    if (format == PETSC_VIEWER_ASCII_INFO || format == PETSC_VIEWER_ASCII_INFO_DETAIL) {
      const GPUPCBCSRKernels *k;

      if (A->assembled) PetscCall(GPUPCMatSubclassEnsure(A));
      PetscCall(GPUPCGetBCSRKernels(&k));
      PetscCall(PetscViewerASCIIPrintf(viewer, "%s (block CSR on the device, block rows sorted and sliced), %s kernels, %" PetscInt_FMT " builds, %" PetscInt_FMT " value uploads\n", ((PetscObject)A)->type_name, k->name, s->sc.builds, s->sc.uploads));
      if (s->sc.built && !s->sc.mpi) PetscCall(GPUPCBCSRBlockView(&s->diag, "  bcsr", PETSC_FALSE, viewer));
      if (s->sc.built && s->sc.mpi) {
        PetscMPIInt rank;
        char        dn[64], on[64];

        PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)A), &rank));
        PetscCall(PetscSNPrintf(dn, sizeof(dn), "  [%d] diagonal block", rank));
        PetscCall(PetscSNPrintf(on, sizeof(on), "  [%d] off-diagonal block", rank));
        PetscCall(PetscViewerASCIIPushSynchronized(viewer));
        PetscCall(GPUPCBCSRBlockView(&s->diag, dn, PETSC_TRUE, viewer));
        PetscCall(GPUPCBCSRBlockView(&s->offd, on, PETSC_TRUE, viewer));
        PetscCall(PetscViewerASCIISynchronizedPrintf(viewer, "  [%d] halo: %" PetscInt_FMT " ghost columns (%" PetscInt_FMT " needed, the rest complete their blocks) from %" PetscInt_FMT " ranks, %" PetscInt_FMT " owned entries packed for others\n", rank, s->halo->nghost, s->ncolmap, s->halo->nneighbors, s->halo->nsend));
        PetscCall(PetscViewerFlush(viewer));
        PetscCall(PetscViewerASCIIPopSynchronized(viewer));
      }
    }
  }
  PetscCall(s->sc.base.view(A, viewer));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatSetFromOptions_BCSR(Mat A, PetscOptionItems *PetscOptionsObject)
{
  Mat_BCSR *s = (Mat_BCSR *)A->spptr;

  PetscFunctionBegin;
  if (s->sc.base.setfromoptions) PetscCall(s->sc.base.setfromoptions(A, PetscOptionsObject));
  PetscCall(MatSetFromOptions_BCSR_Private(A, PetscOptionsObject, s));
  PetscFunctionReturn(0);
}

static const char *const composed[] = {"MatConvert_seqbcsr_seqaij_C", "MatConvert_seqaij_seqbcsr_C", "MatConvert_seqbaij_seqbcsr_C", "MatConvert_mpibcsr_mpiaij_C", "MatConvert_mpiaij_mpibcsr_C", "MatConvert_mpibaij_mpibcsr_C", "MatBCSRSetBlockSize_C", "MatBCSRSetMapping_C", "MatBCSRSetSort_C", "MatBCSRGetInfo_C"};

/* frees the device copy and removes the composed functions */
static PetscErrorCode FreeBCSR(Mat A)
{
  Mat_BCSR *s = (Mat_BCSR *)A->spptr;

  PetscFunctionBegin;
  PetscCall(GPUPCBCSRBlockDestroy(&s->diag));
  PetscCall(GPUPCBCSRBlockDestroy(&s->offd));
  PetscCall(GPUPCHaloDestroy(&s->halo));
  PetscCall(PetscFree(s->colmap));
  for (size_t k = 0; k < sizeof(composed) / sizeof(composed[0]); k++) PetscCall(PetscObjectComposeFunction((PetscObject)A, composed[k], NULL));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatDestroy_BCSR(Mat A)
{
  Mat_BCSR *s                    = (Mat_BCSR *)A->spptr;
  PetscErrorCode (*destroy)(Mat) = s->sc.base.destroy;

  PetscFunctionBegin;
  PetscCall(FreeBCSR(A));
  PetscCall(PetscFree(A->spptr));
  PetscCall(destroy(A));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatBCSRSetBlockSize_BCSR(Mat A, PetscInt b)
{
  Mat_BCSR *s = (Mat_BCSR *)A->spptr;

  PetscFunctionBegin;
  if (b) PetscCall(GPUPCBCSRCheckBlockSize(b, "MatBCSRSetBlockSize"));
  if (b == s->bopt) PetscFunctionReturn(0);
  s->bopt = b;
  PetscCall(GPUPCMatSubclassRelayout(A)); /* collective for mpibcsr: b is logically collective */
  PetscFunctionReturn(0);
}

static PetscErrorCode MatBCSRSetMapping_BCSR(Mat A, MatBCSRMapping mapping)
{
  Mat_BCSR *s = (Mat_BCSR *)A->spptr;

  PetscFunctionBegin;
  if (mapping == s->mapping) PetscFunctionReturn(0);
  s->mapping = mapping;
  PetscCall(GPUPCMatSubclassRelayout(A));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatBCSRSetSort_BCSR(Mat A, PetscBool sort)
{
  Mat_BCSR *s = (Mat_BCSR *)A->spptr;

  PetscFunctionBegin;
  if (sort == s->sort) PetscFunctionReturn(0);
  s->sort = sort;
  PetscCall(GPUPCMatSubclassRelayout(A));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatBCSRGetInfo_BCSR(Mat A, PetscInt *b, PetscReal *density, PetscReal *padding, PetscInt *builds, PetscInt *uploads)
{
  Mat_BCSR *s = (Mat_BCSR *)A->spptr;

  PetscFunctionBegin;
  if (A->assembled) PetscCall(GPUPCMatSubclassEnsure(A));
  if (b) *b = s->sc.built ? s->diag.d.b : BlockSize(A);
  if (density) *density = s->diag.nreal ? (PetscReal)s->diag.d.nnz / ((PetscReal)s->diag.nreal * s->diag.d.b * s->diag.d.b) : 1.0;
  if (padding) *padding = s->diag.d.nblocks ? (PetscReal)(s->diag.d.nblocks - s->diag.nreal) / (PetscReal)s->diag.d.nblocks : 0.0;
  if (builds) *builds = s->sc.builds;
  if (uploads) *uploads = s->sc.uploads;
  PetscFunctionReturn(0);
}

static PetscErrorCode BCSRToBase_InPlace(Mat);
static PetscErrorCode MatConvert_BCSR_AIJ(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMatConvertReuse(A, reuse, newmat, BCSRToBase_InPlace));
  PetscFunctionReturn(0);
}

/* turns an (assembled or not) SEQAIJ or MPIAIJ B into a seqbcsr or mpibcsr in place */
static PetscErrorCode BaseToBCSR_InPlace(Mat B)
{
  Mat_BCSR *s;
  PetscBool mpi;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)B, MATMPIAIJ, &mpi));
  PetscCall(PetscNew(&s));
  s->sort = PETSC_TRUE;
  if (!mpi) PetscCall(MatSetOption(B, MAT_USE_INODES, PETSC_FALSE)); /* inode routines would replace our ops */
  PetscCall(GPUPCMatSubclassSave(B, &s->sc, mpi, mpi ? MPIBCSRBuild : SeqBCSRBuild, mpi ? MPIBCSRUpload : SeqBCSRUpload, BaseToBCSR_InPlace));
  B->spptr                 = s;
  B->ops->mult             = MatMult_BCSR;
  B->ops->multadd          = MatMultAdd_BCSR;
  B->ops->multtranspose    = MatMultTranspose_BCSR;
  B->ops->multtransposeadd = MatMultTransposeAdd_BCSR;
  B->ops->getdiagonal      = MatGetDiagonal_BCSR;
  B->ops->duplicate        = MatDuplicate_BCSR;
  B->ops->view             = MatView_BCSR;
  B->ops->setfromoptions   = MatSetFromOptions_BCSR;
  B->ops->destroy          = MatDestroy_BCSR;
  /* value-changing ops stay the base ones (host); values are re-uploaded at the next device use */
  PetscCall(GPUPCMatSubclassSetTypeName(B, mpi ? MATMPIBCSR : MATSEQBCSR, VECGPU));
  if (mpi) {
    PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatConvert_mpibcsr_mpiaij_C", MatConvert_BCSR_AIJ));
    PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatConvert_mpiaij_mpibcsr_C", MatConvert_AIJ_BCSR));
    PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatConvert_mpibaij_mpibcsr_C", MatConvert_BAIJ_BCSR));
  } else {
    PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatConvert_seqbcsr_seqaij_C", MatConvert_BCSR_AIJ));
    PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatConvert_seqaij_seqbcsr_C", MatConvert_AIJ_BCSR));
    PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatConvert_seqbaij_seqbcsr_C", MatConvert_BAIJ_BCSR));
  }
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatBCSRSetBlockSize_C", MatBCSRSetBlockSize_BCSR));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatBCSRSetMapping_C", MatBCSRSetMapping_BCSR));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatBCSRSetSort_C", MatBCSRSetSort_BCSR));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatBCSRGetInfo_C", MatBCSRGetInfo_BCSR));
  if (B->assembled) PetscCall(GPUPCMatSubclassSync(B, 1)); /* reached only inside MatConvert or MatDuplicate */
  PetscFunctionReturn(0);
}

/* back to SEQAIJ or MPIAIJ in place */
static PetscErrorCode BCSRToBase_InPlace(Mat B)
{
  Mat_BCSR *s    = (Mat_BCSR *)B->spptr;
  MatType   base = GPUPCMatBaseType(B);

  PetscFunctionBegin;
  PetscCall(FreeBCSR(B));
  PetscCall(GPUPCMatSubclassRestore(B, &s->sc));
  PetscCall(PetscFree(B->spptr));
  PetscCall(GPUPCMatSubclassSetTypeName(B, base, VECSTANDARD));
  PetscFunctionReturn(0);
}

/* the near-null space (and null spaces) of A on B, where the conversion did not carry them */
static PetscErrorCode KeepSpaces(Mat A, Mat B)
{
  PetscFunctionBegin;
  if (A == B) PetscFunctionReturn(0);
  if (A->nearnullsp && !B->nearnullsp) PetscCall(MatSetNearNullSpace(B, A->nearnullsp));
  if (A->nullsp && !B->nullsp) PetscCall(MatSetNullSpace(B, A->nullsp));
  if (A->transnullsp && !B->transnullsp) PetscCall(MatSetTransposeNullSpace(B, A->transnullsp));
  PetscFunctionReturn(0);
}

/* MatConvert from SEQAIJ/MPIAIJ (and from a bcsr, as a copy) to bcsr, all three reuse modes */
PetscErrorCode MatConvert_AIJ_BCSR(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMatConvertReuse(A, reuse, newmat, BaseToBCSR_InPlace));
  if (reuse == MAT_INITIAL_MATRIX) PetscCall(KeepSpaces(A, *newmat));
  PetscFunctionReturn(0);
}

/* MatConvert from SEQBAIJ/MPIBAIJ to bcsr: through the AIJ of the same block size (MatConvert keeps it), then in place */
PetscErrorCode MatConvert_BAIJ_BCSR(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  Mat         B;
  PetscMPIInt size;

  PetscFunctionBegin;
  if (reuse == MAT_REUSE_MATRIX) {
    PetscCall(MatCopy(A, *newmat, SAME_NONZERO_PATTERN));
    PetscFunctionReturn(0);
  }
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  PetscCall(MatConvert(A, size > 1 ? MATMPIAIJ : MATSEQAIJ, MAT_INITIAL_MATRIX, &B));
  PetscCall(BaseToBCSR_InPlace(B));
  PetscCall(KeepSpaces(A, B));
  if (reuse == MAT_INPLACE_MATRIX) PetscCall(MatHeaderReplace(A, &B));
  else *newmat = B;
  PetscFunctionReturn(0);
}

/*MC
   MATSEQBCSR - MATSEQBCSR = "seqbcsr" - a sequential sparse matrix kept on the device in block CSR with block rows sorted
   by length and stored in slices (docs/algorithms.md 1.3): b x b blocks stored whole, one block column index per
   block, each slice padded with empty blocks to its longest block row.

   Assembled on the host exactly as MATSEQAIJ (preallocation, MatSetValues, MatSetValuesBlocked with the Mat's block
   size, MatGetRow use the AIJ host copy); MatAssemblyEnd builds the device layout, or re-uploads only the values when
   the nonzero pattern did not change. MatMult, MatMultAdd, MatMultTranspose(Add) and MatGetDiagonal run on the device;
   value-changing operations run on the host AIJ and reach the device at the next device operation. MatMultTranspose
   uses an atomic scatter (no transposed copy; summation order varies). See MATBCSR for the options.

   Level: beginner

.seealso: MATBCSR, MATMPIBCSR, MatBCSRSetBlockSize(), MATSEQAIJ
M*/
PetscErrorCode MatCreate_SeqBCSR(Mat A)
{
  PetscFunctionBegin;
  PetscCall(MatSetType(A, MATSEQAIJ));
  PetscCall(BaseToBCSR_InPlace(A));
  PetscFunctionReturn(0);
}

/*MC
   MATMPIBCSR - MATMPIBCSR = "mpibcsr" - a parallel sparse matrix kept on the device in block CSR: the diagonal and
   off-diagonal blocks of MPIAIJ, each in bcsr (the off-diagonal block's ghost columns completed to whole blocks), and
   the device halo exchange shared with segcsr, overlapped with the diagonal block's product. Every rank's local sizes
   must be multiples of the block size.

   Assembly exactly as MATMPIAIJ. See MATSEQBCSR for the operations, MATBCSR for the options.

   Level: beginner

.seealso: MATBCSR, MATSEQBCSR, MATMPIAIJ
M*/
PetscErrorCode MatCreate_MPIBCSR(Mat A)
{
  PetscFunctionBegin;
  PetscCall(MatSetType(A, MATMPIAIJ));
  PetscCall(BaseToBCSR_InPlace(A));
  PetscFunctionReturn(0);
}

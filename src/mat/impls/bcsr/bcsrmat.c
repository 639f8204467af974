/*
   MATSEQBCSR and MATMPIBCSR: a SEQAIJ or MPIAIJ matrix whose device copy is in bcsr (see bcsrimpl.h). The operations
   are the shared ones of gpupc/matgpu.h (GPUPCMatBlocks: for MPI the off-diagonal block and the halo exchange,
   overlapped with the diagonal block's product); this file supplies the bcsr blocks and the ghost columns completed
   to whole blocks.
*/
#include "bcsrimpl.h"

GPUPC_MAT_BLOCK_OPS_DEFINE(BCSR, (dv, d))

/* the block size the layout uses: -mat_bcsr_block_size, else the Mat's block size when its row and column block sizes
   agree (square blocks), else 1 (e.g. a product of a blocked and an unblocked matrix) */
static PetscInt BlockSize(Mat A)
{
  Mat_BCSR *s = (Mat_BCSR *)A->spptr;

  if (s->bopt) return s->bopt;
  return A->rmap->bs == A->cmap->bs ? PetscMax(1, A->rmap->bs) : 1;
}

/* a new pattern: lays out the block with the matrix's block size, slice shape and sorting; the off-diagonal block's
   columns go to their places among the whole ghost blocks the halo fetches (colmap) */
static PetscErrorCode BCSRBlockBuild(Mat A, const GPUPCCSR *csr, void *b)
{
  Mat_BCSR *s    = (Mat_BCSR *)A->spptr;
  PetscBool offd = (PetscBool)(b == (void *)&s->offd);

  PetscFunctionBegin;
  PetscCall(GPUPCBCSRBlockBuild(csr, BlockSize(A), offd ? s->colmap : NULL, offd ? s->g.halo->nghost : csr->n, s->mapping, s->sort, (GPUPCBCSRBlock *)b));
  PetscFunctionReturn(0);
}

/* mpi (collective): every rank's rows and columns must start and end on block boundaries, so that a block never spans
   two ranks; the off-diagonal block's ghost columns are grouped into whole ghost blocks: colmap (expanded place of each
   compressed column) and the expanded global columns the halo fetches (all b columns of each ghost block) */
static PetscErrorCode BCSRGhosts(Mat A, PetscInt nghost, const PetscInt *garray, PetscInt *nexp, PetscInt **expanded)
{
  Mat_BCSR      *s   = (Mat_BCSR *)A->spptr;
  const PetscInt b   = BlockSize(A);
  PetscInt       ngb = 0, last = -1, ok, allok;

  PetscFunctionBegin;
  PetscCall(GPUPCBCSRCheckBlockSize(b, "MatAssemblyEnd"));
  ok = (A->rmap->n % b == 0 && A->cmap->n % b == 0 && A->rmap->rstart % b == 0 && A->cmap->rstart % b == 0) ? 1 : 0;
  PetscCall(MPIU_Allreduce(&ok, &allok, 1, MPIU_INT, MPI_MIN, PetscObjectComm((PetscObject)A)));
  PetscCheck(allok, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_SIZ, "mpibcsr: with block size %" PetscInt_FMT " every rank's local row and column sizes must be multiples of it (this rank: %" PetscInt_FMT " rows from %" PetscInt_FMT ", %" PetscInt_FMT " columns from %" PetscInt_FMT "); set the sizes accordingly (MatSetBlockSize() before MatSetSizes(PETSC_DECIDE) does), or choose another -mat_bcsr_block_size", b, A->rmap->n, A->rmap->rstart, A->cmap->n, A->cmap->rstart);
  PetscCall(PetscFree(s->colmap));
  PetscCall(PetscMalloc1(nghost, &s->colmap));
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

static PetscErrorCode BCSRInit(GPUPCMatBlocks *g)
{
  Mat_BCSR *s = (Mat_BCSR *)g;

  PetscFunctionBegin;
  g->diag = &s->diag;
  g->offd = &s->offd;
  s->sort = PETSC_TRUE;
  PetscFunctionReturn(0);
}

static PetscErrorCode BCSRFreeData(Mat A)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(((Mat_BCSR *)A->spptr)->colmap));
  PetscFunctionReturn(0);
}

static PetscErrorCode BCSRInfo(Mat A, const GPUPCCSR *cd, const GPUPCCSR *co)
{
  Mat_BCSR *s = (Mat_BCSR *)A->spptr;

  PetscFunctionBegin;
  if (!co) PetscCall(PetscInfo(A, "built bcsr: %" PetscInt_FMT " rows, block size %" PetscInt_FMT ", %" PetscInt_FMT " blocks (%" PetscInt_FMT " padding), %" PetscInt_FMT " slices\n", s->diag.d.m, s->diag.d.b, s->diag.nreal, s->diag.d.nblocks - s->diag.nreal, s->diag.d.nslices));
  else
    PetscCall(PetscInfo(A, "built mpibcsr: local %" PetscInt_FMT " rows, block size %" PetscInt_FMT ", diagonal block %" PetscInt_FMT " blocks, off-diagonal %" PetscInt_FMT " blocks, %" PetscInt_FMT " ghost columns in %" PetscInt_FMT " ghost blocks from %" PetscInt_FMT " ranks\n", cd->m, s->diag.d.b, s->diag.nreal, s->offd.nreal, co->n, s->g.halo->nghost / s->diag.d.b, s->g.halo->nneighbors));
  PetscFunctionReturn(0);
}

/* MatDuplicate: A's layout options on B */
static PetscErrorCode BCSRCopyOptions(Mat A, Mat B, PetscBool *changed)
{
  Mat_BCSR *a = (Mat_BCSR *)A->spptr, *b = (Mat_BCSR *)B->spptr;

  PetscFunctionBegin;
  *changed   = (PetscBool)(b->bopt != a->bopt || b->mapping != a->mapping || b->sort != a->sort);
  b->bopt    = a->bopt;
  b->mapping = a->mapping;
  b->sort    = a->sort;
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
  if (b) *b = s->g.sc.built ? s->diag.d.b : BlockSize(A);
  if (density) *density = s->diag.nreal ? (PetscReal)s->diag.d.nnz / ((PetscReal)s->diag.nreal * s->diag.d.b * s->diag.d.b) : 1.0;
  if (padding) *padding = s->diag.d.nblocks ? (PetscReal)(s->diag.d.nblocks - s->diag.nreal) / (PetscReal)s->diag.d.nblocks : 0.0;
  if (builds) *builds = s->g.sc.builds;
  if (uploads) *uploads = s->g.sc.uploads;
  PetscFunctionReturn(0);
}

/* the type's public functions, composed on every seqbcsr and mpibcsr */
static const GPUPCMatComposed BCSRComposed[] = {
  {"MatBCSRSetBlockSize_C", (PetscVoidFunction)MatBCSRSetBlockSize_BCSR},
  {"MatBCSRSetMapping_C", (PetscVoidFunction)MatBCSRSetMapping_BCSR},
  {"MatBCSRSetSort_C", (PetscVoidFunction)MatBCSRSetSort_BCSR},
  {"MatBCSRGetInfo_C", (PetscVoidFunction)MatBCSRGetInfo_BCSR},
  {NULL, NULL}};

static PetscErrorCode BCSRFromBase(Mat);

/* a block of a multigrid level (GPUPCDevMat): the type's default options */
static PetscErrorCode BCSRBlockBuildCSR(const GPUPCCSR *csr, PetscInt bs, void *b)
{
  PetscFunctionBegin;
  PetscCall(GPUPCBCSRBlockBuild(csr, bs, NULL, csr->n, MAT_BCSR_MAPPING_FULL, PETSC_TRUE, (GPUPCBCSRBlock *)b));
  PetscFunctionReturn(0);
}

const GPUPCMatBlockOps GPUPCBCSRBlockOps = {
  .name               = "bcsr",
  .layout             = "block CSR on the device, block rows sorted and sliced",
  .seqtype            = MATSEQBCSR,
  .mpitype            = MATMPIBCSR,
  .size               = sizeof(Mat_BCSR),
  .multevent          = &MATBCSR_Mult,
  .multtransposeevent = &MATBCSR_MultTranspose,
  .init               = BCSRInit,
  .build              = BCSRBlockBuild,
  .upload             = BCSRBlockUpload,
  .destroy            = BCSRBlockDestroy,
  .counts             = BCSRBlockCounts,
  .mult               = BCSRBlockMult,
  .multtransposeadd   = BCSRBlockMultTransposeAdd,
  .getdiagonal        = BCSRBlockGetDiagonal,
  .kernelsname        = BCSRBlockKernelsName,
  .view               = BCSRBlockView,
  .blocksize          = sizeof(GPUPCBCSRBlock),
  .buildcsr           = BCSRBlockBuildCSR,
  .ghosts             = BCSRGhosts,
  .info               = BCSRInfo,
  .setfromoptions     = MatSetFromOptions_BCSR_Private,
  .copyoptions        = BCSRCopyOptions,
  .composed           = BCSRComposed,
  .freedata           = BCSRFreeData,
  .frombase           = BCSRFromBase,
  .convert            = MatConvert_AIJ_BCSR,
  .convertbaij        = MatConvert_BAIJ_BCSR,
};

/* turns an (assembled or not) SEQAIJ or MPIAIJ B into a seqbcsr or mpibcsr in place */
static PetscErrorCode BCSRFromBase(Mat B)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMatBlocksFromBase(B, &GPUPCBCSRBlockOps));
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
  PetscCall(GPUPCMatConvertReuse(A, reuse, newmat, BCSRFromBase));
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
  PetscCall(BCSRFromBase(B));
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
  PetscCall(GPUPCMatBlocksCreate(A, MATSEQAIJ, &GPUPCBCSRBlockOps));
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
  PetscCall(GPUPCMatBlocksCreate(A, MATMPIAIJ, &GPUPCBCSRBlockOps));
  PetscFunctionReturn(0);
}

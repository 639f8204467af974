/*
   The host side of the Mat types over device blocks (gpupc/matgpu.h): turning a SEQAIJ/MPIAIJ into such a type and
   back, MatDuplicate, MatView, MatSetFromOptions and MatDestroy, the same for every type and for the sequential and
   the parallel variant; the type's GPUPCMatBlockOps supplies its blocks, options and functions.
*/
#include <gpupc/matgpu.h>
#include <petscgpupc.h>

static inline GPUPCMatBlocks *Blocks(Mat A)
{
  return (GPUPCMatBlocks *)A->spptr;
}

/* composes on B (set) or removes MatConvert between the type and its base type (and from BAIJ, where the type has it)
   and the type's public functions */
static PetscErrorCode ComposeFunctions(Mat B, const GPUPCMatBlockOps *ops, PetscBool mpi, PetscBool set)
{
  MatType type = mpi ? ops->mpitype : ops->seqtype, base = mpi ? MATMPIAIJ : MATSEQAIJ;
  char    name[256];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(name, sizeof(name), "MatConvert_%s_%s_C", type, base));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, name, set ? GPUPCMatConvert_Blocks_Base : NULL));
  PetscCall(PetscSNPrintf(name, sizeof(name), "MatConvert_%s_%s_C", base, type));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, name, set ? ops->convert : NULL));
  if (ops->convertbaij) {
    PetscCall(PetscSNPrintf(name, sizeof(name), "MatConvert_%s_%s_C", mpi ? MATMPIBAIJ : MATSEQBAIJ, type));
    PetscCall(PetscObjectComposeFunction((PetscObject)B, name, set ? ops->convertbaij : NULL));
  }
  for (const GPUPCMatComposed *c = ops->composed; c->name; c++) PetscCall(PetscObjectComposeFunction((PetscObject)B, c->name, set ? c->fn : NULL));
  PetscFunctionReturn(0);
}

/* frees the device copy and what the type's record holds, and removes the composed functions */
static PetscErrorCode FreeBlocks(Mat A)
{
  GPUPCMatBlocks         *g   = Blocks(A);
  const GPUPCMatBlockOps *ops = g->ops;

  PetscFunctionBegin;
  PetscCall(ops->destroy(g->diag));
  if (g->sc.mpi) {
    PetscCall(ops->destroy(g->offd));
    PetscCall(GPUPCHaloDestroy(&g->halo));
    PetscCall(GPUPCRowCompressDestroy(&g->orows));
  }
  if (ops->freedata) PetscCall(ops->freedata(A));
  PetscCall(ComposeFunctions(A, ops, g->sc.mpi, PETSC_FALSE));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatDestroy_Blocks(Mat A)
{
  PetscErrorCode (*destroy)(Mat) = Blocks(A)->sc.base.destroy;

  PetscFunctionBegin;
  PetscCall(FreeBlocks(A));
  PetscCall(PetscFree(A->spptr));
  PetscCall(destroy(A));
  PetscFunctionReturn(0);
}

/* back to SEQAIJ or MPIAIJ in place */
static PetscErrorCode BlocksToBase_InPlace(Mat B)
{
  GPUPCMatBlocks *g    = Blocks(B);
  MatType         base = GPUPCMatBaseType(B);

  PetscFunctionBegin;
  PetscCall(FreeBlocks(B));
  PetscCall(GPUPCMatSubclassRestore(B, &g->sc));
  PetscCall(PetscFree(B->spptr));
  PetscCall(GPUPCMatSubclassSetTypeName(B, base, VECSTANDARD));
  PetscFunctionReturn(0);
}

/* a SEQAIJ/MPIAIJ copy of A: the base type's MatDuplicate under the base type's name makes a plain AIJ matrix, where
   MatDuplicate of A would build A's device layout only for the conversion to discard it */
static PetscErrorCode DuplicateAsBase(Mat A, Mat *B)
{
  GPUPCMatBlocks *g   = Blocks(A);
  char           *old = GPUPCMatNameAs(A, GPUPCMatBaseType(A));
  PetscErrorCode  ierr;

  PetscFunctionBegin;
  ierr = g->sc.base.duplicate(A, MAT_COPY_VALUES, B);
  GPUPCMatNameRestore(A, old);
  PetscCall(ierr);
  PetscCheck((*B)->ops->destroy != MatDestroy_Blocks, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the base type's duplicate of a %s matrix kept the type's operations", old);
  PetscFunctionReturn(0);
}

/* GPUPCMatConvert_Blocks_Base - MatConvert from any of the types back to SEQAIJ/MPIAIJ, all three reuse modes */
PetscErrorCode GPUPCMatConvert_Blocks_Base(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  PetscFunctionBegin;
  if (reuse == MAT_INITIAL_MATRIX) PetscCall(DuplicateAsBase(A, newmat));
  else PetscCall(GPUPCMatConvertReuse(A, reuse, newmat, BlocksToBase_InPlace));
  PetscFunctionReturn(0);
}

/* MatConvert to one of the types from a matrix for which no direct conversion is composed (another of the types, or any
   other type): through an AIJ copy converted in place. Without it PETSc's MatConvert_Basic inserts row by row into a
   matrix without preallocation, quadratic in the rows (gpuamg's setup on a bcsr operator: 8 s instead of 0.2 s at 10^4
   rows). MAT_REUSE_MATRIX copies the values (same pattern). */
static PetscErrorCode MatConvertFrom_Blocks(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  Mat T;

  PetscFunctionBegin;
  if (reuse == MAT_REUSE_MATRIX) {
    PetscCall(MatCopy(A, *newmat, SAME_NONZERO_PATTERN));
    PetscFunctionReturn(0);
  }
  PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &T));
  PetscCall(MatConvert(T, type, MAT_INPLACE_MATRIX, &T));
  if (reuse == MAT_INPLACE_MATRIX) PetscCall(MatHeaderReplace(A, &T));
  else *newmat = T;
  PetscFunctionReturn(0);
}

/* MatDuplicate: the base duplicate creates a matrix of A's type name; make sure it is of A's type, with A's options and
   its device copy */
static PetscErrorCode MatDuplicate_Blocks(Mat A, MatDuplicateOption op, Mat *B)
{
  GPUPCMatBlocks *g = Blocks(A), *gb;
  PetscBool       ours, changed;

  PetscFunctionBegin;
  PetscCall(g->sc.base.duplicate(A, op, B));
  ours = (PetscBool)((*B)->ops->destroy == MatDestroy_Blocks && (*B)->spptr && Blocks(*B)->ops == g->ops);
  if (!ours) {
    PetscCall(PetscObjectChangeTypeName((PetscObject)*B, GPUPCMatBaseType(A)));
    PetscCall(GPUPCMatBlocksFromBase(*B, g->ops)); /* builds with the default options when assembled */
  }
  gb = Blocks(*B);
  PetscCall(g->ops->copyoptions(A, *B, &changed));
  if ((*B)->assembled && (ours || changed)) { /* inside MatDuplicate: one state bump follows */
    gb->sc.built = PETSC_FALSE;
    PetscCall(GPUPCMatSubclassSync(*B, 1));
  }
  PetscFunctionReturn(0);
}

/* -mat_view ::ascii_info: the device copy (each rank's blocks and halo for MPI), then the base type's view */
static PetscErrorCode MatView_Blocks(Mat A, PetscViewer viewer)
{
  GPUPCMatBlocks         *g   = Blocks(A);
  const GPUPCMatBlockOps *ops = g->ops;
  PetscBool               isascii;
  PetscViewerFormat       format;
  const char             *kernels;
  char                    dn[64], on[64];
  PetscMPIInt             rank;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (isascii) PetscCall(PetscViewerGetFormat(viewer, &format));
  if (isascii && (format == PETSC_VIEWER_ASCII_INFO || format == PETSC_VIEWER_ASCII_INFO_DETAIL)) {
    if (A->assembled) PetscCall(GPUPCMatSubclassEnsure(A));
    PetscCall(ops->kernelsname(&kernels));
    if (!g->sc.mpi) {
      PetscCall(PetscViewerASCIIPrintf(viewer, "%s (%s), %s kernels, %" PetscInt_FMT " builds, %" PetscInt_FMT " value uploads\n", ((PetscObject)A)->type_name, ops->layout, kernels, g->sc.builds, g->sc.uploads));
      PetscCall(PetscSNPrintf(dn, sizeof(dn), "  %s", ops->name));
      if (g->sc.built) PetscCall(ops->view(g->diag, dn, PETSC_FALSE, viewer));
    } else {
      PetscCall(PetscViewerASCIIPrintf(viewer, "%s (%s): diagonal and off-diagonal blocks per rank, device halo exchange; %s kernels, %" PetscInt_FMT " builds, %" PetscInt_FMT " value uploads\n", ((PetscObject)A)->type_name, ops->layout, kernels, g->sc.builds, g->sc.uploads));
      if (g->sc.built) {
        PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)A), &rank));
        PetscCall(PetscSNPrintf(dn, sizeof(dn), "  [%d] diagonal block", rank));
        PetscCall(PetscSNPrintf(on, sizeof(on), "  [%d] off-diagonal block", rank));
        PetscCall(PetscViewerASCIIPushSynchronized(viewer));
        PetscCall(ops->view(g->diag, dn, PETSC_TRUE, viewer));
        PetscCall(ops->view(g->offd, on, PETSC_TRUE, viewer));
        PetscCall(PetscViewerASCIISynchronizedPrintf(viewer, "  [%d] halo: %" PetscInt_FMT " ghost columns (%" PetscInt_FMT " in the off-diagonal block) from %" PetscInt_FMT " ranks, %" PetscInt_FMT " owned entries packed for others\n", rank, g->halo->nghost, g->ncol, g->halo->nneighbors, g->halo->nsend));
        PetscCall(PetscViewerFlush(viewer));
        PetscCall(PetscViewerASCIIPopSynchronized(viewer));
      }
    }
  }
  PetscCall(g->sc.base.view(A, viewer));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatSetFromOptions_Blocks(Mat A, PetscOptionItems *PetscOptionsObject)
{
  GPUPCMatBlocks *g = Blocks(A);

  PetscFunctionBegin;
  if (g->sc.base.setfromoptions) PetscCall(g->sc.base.setfromoptions(A, PetscOptionsObject));
  PetscCall(g->ops->setfromoptions(A, PetscOptionsObject));
  PetscFunctionReturn(0);
}

/*
   GPUPCMatBlocksFromBase - turns an (assembled or not) SEQAIJ or MPIAIJ B into the sequential or parallel type of ops,
   in place: the device operations, the shared host ones, the composed functions; builds the device copy when B is
   assembled (which happens only inside MatConvert, MatDuplicate or MatTranspose). FromBase does it, building only
   when sync is true (GPUPCMatBlocksFromBaseDeviceCSR lays the device copy out itself).
*/
static PetscErrorCode FromBase(Mat B, const GPUPCMatBlockOps *ops, PetscBool sync)
{
  GPUPCMatBlocks *g;
  PetscBool       mpi;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)B, MATMPIAIJ, &mpi));
  PetscCall(PetscCalloc(ops->size, &g));
  g->ops = ops;
  PetscCall(ops->init(g));
  if (!mpi) PetscCall(MatSetOption(B, MAT_USE_INODES, PETSC_FALSE)); /* inode routines would replace our ops */
  PetscCall(GPUPCMatSubclassSave(B, &g->sc, mpi, GPUPCMatBlocksBuild, GPUPCMatBlocksUpload, ops->frombase));
  B->spptr = g;
  PetscCall(GPUPCMatBlocksSetDeviceOps(B));
  B->ops->duplicate      = MatDuplicate_Blocks;
  B->ops->view           = MatView_Blocks;
  B->ops->setfromoptions = MatSetFromOptions_Blocks;
  B->ops->destroy        = MatDestroy_Blocks;
  B->ops->convertfrom    = MatConvertFrom_Blocks;
  /* value-changing ops (scale, shift, diagonalscale, zeroentries, copy, axpy, zerorows, ...) stay the base ones: they
     change the host values and the object state, and the next device operation re-uploads the values
     (GPUPCMatSubclassEnsure) */
  PetscCall(GPUPCMatSubclassSetTypeName(B, mpi ? ops->mpitype : ops->seqtype, VECGPU));
  PetscCall(ComposeFunctions(B, ops, mpi, PETSC_TRUE));
  if (sync && B->assembled) PetscCall(GPUPCMatSubclassSync(B, 1)); /* reached only inside MatConvert, MatDuplicate or MatTranspose */
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCMatBlocksFromBase(Mat B, const GPUPCMatBlockOps *ops)
{
  PetscFunctionBegin;
  PetscCall(FromBase(B, ops, PETSC_TRUE));
  PetscFunctionReturn(0);
}

/*
   GPUPCMatBlocksFromBaseDeviceCSR - turns an assembled SEQAIJ B into the sequential type of ops in place, its device
   block laid out from dev, the same matrix as B's host arrays with the columns and values on the device (dev->device,
   dev->i on the host): a level of a device setup becomes a Mat without its layout being made on the host and uploaded.
   B's host arrays must hold dev's values (the caller copied them down); the device copy is then current.
*/
PetscErrorCode GPUPCMatBlocksFromBaseDeviceCSR(Mat B, const GPUPCMatBlockOps *ops, const GPUPCCSR *dev)
{
  PetscBool seq;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)B, MATSEQAIJ, &seq));
  PetscCheck(seq && B->assembled, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "a %s matrix from device CSR: an assembled SEQAIJ is needed, %s given", ops->name, ((PetscObject)B)->type_name);
  PetscCheck(dev->device && dev->m == B->rmap->n && dev->n == B->cmap->n, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "a %s matrix from device CSR: the CSR (%" PetscInt_FMT " x %" PetscInt_FMT ", on the %s) does not match the %" PetscInt_FMT " x %" PetscInt_FMT " matrix", ops->name, dev->m, dev->n, dev->device ? "device" : "host", B->rmap->n, B->cmap->n);
  PetscCall(FromBase(B, ops, PETSC_FALSE));
  PetscCall(ops->build(B, dev, Blocks(B)->diag));
  PetscCall(ops->info(B, dev, NULL));
  PetscCall(GPUPCMatSubclassMarkBuilt(B));
  PetscFunctionReturn(0);
}

/* GPUPCMatBlocksCreate - MatCreate of the sequential (base MATSEQAIJ) or parallel (MATMPIAIJ) type of ops */
PetscErrorCode GPUPCMatBlocksCreate(Mat A, MatType base, const GPUPCMatBlockOps *ops)
{
  PetscFunctionBegin;
  PetscCall(MatSetType(A, base));
  PetscCall(GPUPCMatBlocksFromBase(A, ops));
  PetscFunctionReturn(0);
}

/* GPUPCMatBlocksCreateRoot - MatCreate of a type's root name: the sequential type on one process, else the parallel */
PetscErrorCode GPUPCMatBlocksCreateRoot(Mat A, PetscErrorCode (*seq)(Mat), PetscErrorCode (*mpi)(Mat))
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  /* not MatSetType(): when A already was of the sequential or parallel type, MatSetType(A, root) has just emptied it,
     and MatSetType(A, that type) would see the old type name and do nothing */
  if (size == 1) PetscCall(seq(A));
  else PetscCall(mpi(A));
  PetscFunctionReturn(0);
}

/*
   GPUPCMatBlocksUploadDeviceCSR - new values on the same pattern for a sequential matrix of a type over device blocks
   whose format takes device CSR (segcsr, hec, bcsr): the block's values from dev (columns and values on the device, row
   pointers on the host), B's host arrays already holding the same values (the caller wrote them). *done is false and
   nothing happens for any other matrix or when B's layout is not current; the caller then syncs from the host.
*/
PetscErrorCode GPUPCMatBlocksUploadDeviceCSR(Mat B, const GPUPCCSR *dev, PetscBool *done)
{
  GPUPCMatBlocks *g;

  PetscFunctionBegin;
  *done = PETSC_FALSE;
  if (B->ops->destroy != MatDestroy_Blocks || !B->spptr) PetscFunctionReturn(0);
  g = Blocks(B);
  if (g->sc.mpi || !g->sc.built || B->nonzerostate != g->sc.nzstate || !dev->device || (g->ops != &GPUPCSegCSRBlockOps && g->ops != &GPUPCHECBlockOps && g->ops != &GPUPCBCSRBlockOps)) PetscFunctionReturn(0);
  PetscCheck(dev->m == B->rmap->n && dev->n == B->cmap->n, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "%s: device CSR of %" PetscInt_FMT " x %" PetscInt_FMT " for a %" PetscInt_FMT " x %" PetscInt_FMT " matrix", ((PetscObject)B)->type_name, dev->m, dev->n, B->rmap->n, B->cmap->n);
  PetscCall(g->ops->upload(dev, g->diag));
  PetscCall(GPUPCMatSubclassMarkUploaded(B));
  *done = PETSC_TRUE;
  PetscFunctionReturn(0);
}

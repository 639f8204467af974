/*
   The device side of the Mat types over device blocks (gpupc/matgpu.h): laying out and refreshing the diagonal block
   and, for an MPIAIJ, the off-diagonal block and the halo plan; the products and the diagonal. The type's
   GPUPCMatBlockOps does what depends on the block layout.

   y = A x in parallel: the halo packs the owned entries other ranks need (device), copies them down once and starts
   the PetscSF exchange; the diagonal block's product runs while the exchange is in flight; then the ghosts are copied
   up once and the off-diagonal block's product is added. y = A^T x: the off-diagonal block's transpose product goes
   to the ghost buffer, the reverse exchange (a sum at the owners) runs while the diagonal block's transpose product
   does. The off-diagonal block is laid out on its rows with entries when at most half of its rows have any
   (GPUPCRowCompress, gpupc/matgpu.h; not for blocked layouts, whose rows go in blocks): its product then adds at those
   rows only.
*/
#include <gpupc/matgpu.h>
#include <petscgpupc.h>
#include <gpupc/device.h>

static inline GPUPCMatBlocks *Blocks(Mat A)
{
  return (GPUPCMatBlocks *)A->spptr;
}

/*
   GPUPCRowCompressSetUp - decides whether a block (host row pointers) is laid out on its rows with entries: when at
   most half of its rows have any, rc gets the compressed row pointers, the rows (device) and the product buffer;
   else rc->hi stays NULL
*/
PetscErrorCode GPUPCRowCompressSetUp(const GPUPCCSR *c, GPUPCRowCompress *rc)
{
  PetscInt mc = 0, *rows;

  PetscFunctionBegin;
  PetscCall(GPUPCRowCompressDestroy(rc));
  rc->m = c->m;
  if (c->rowsdevice || c->m == 0) PetscFunctionReturn(0); /* device row pointers: laid out as they are */
  for (PetscInt r = 0; r < c->m; r++) mc += c->i[r + 1] > c->i[r] ? 1 : 0;
  if (2 * mc > c->m) PetscFunctionReturn(0);
  rc->mc = mc;
  PetscCall(PetscMalloc1(mc + 1, &rc->hi));
  PetscCall(PetscMalloc1(PetscMax(mc, 1), &rows));
  rc->hi[0] = c->i[0];
  mc        = 0;
  for (PetscInt r = 0; r < c->m; r++)
    if (c->i[r + 1] > c->i[r]) {
      rows[mc++] = r;
      rc->hi[mc] = c->i[r + 1];
    }
  PetscCall(GPUPCMallocArray(PetscMax(mc, 1), &rc->drows));
  PetscCall(GPUPCMallocArray(PetscMax(mc, 1), &rc->dt));
  PetscCall(GPUPCCopyToDevice(rc->drows, rows, mc));
  PetscCall(PetscFree(rows));
  PetscFunctionReturn(0);
}

/* GPUPCRowCompressApply - the block's CSR as it is laid out: c itself, or its rows with entries (the same column and
   value arrays: the entries do not move) */
PetscErrorCode GPUPCRowCompressApply(const GPUPCRowCompress *rc, const GPUPCCSR *c, GPUPCCSR *cc)
{
  PetscFunctionBegin;
  *cc = *c;
  if (!rc->hi) PetscFunctionReturn(0);
  PetscCheck(c->m == rc->m && !c->rowsdevice && c->i[c->m] == rc->hi[rc->mc], PETSC_COMM_SELF, PETSC_ERR_PLIB, "the off-diagonal block's rows changed without a new layout");
  cc->m = rc->mc;
  cc->i = rc->hi;
  PetscFunctionReturn(0);
}

/* GPUPCRowCompressDestroy - frees what GPUPCRowCompressSetUp() made (a zeroed record is accepted) */
PetscErrorCode GPUPCRowCompressDestroy(GPUPCRowCompress *rc)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(rc->hi));
  PetscCall(GPUPCFree(rc->drows));
  PetscCall(GPUPCFree(rc->dt));
  PetscCall(PetscMemzero(rc, sizeof(*rc)));
  PetscFunctionReturn(0);
}

/*
   GPUPCMatBlocksBuild - the build of GPUPCMatSubclass (a new nonzero pattern): lays out the diagonal block and, for
   an MPIAIJ, the halo plan of the ghost columns and the off-diagonal block (collective).
*/
PetscErrorCode GPUPCMatBlocksBuild(Mat A)
{
  GPUPCMatBlocks         *g   = Blocks(A);
  const GPUPCMatBlockOps *ops = g->ops;
  Mat                     Ad, Ao;
  const PetscInt         *garray;
  PetscInt                nghost, *ghosts = NULL;
  GPUPCCSR                cd, co, cc;

  PetscFunctionBegin;
  if (!g->sc.mpi) {
    PetscCall(GPUPCMatGetCSR(A, &cd));
    PetscCall(ops->build(A, &cd, g->diag));
    PetscCall(ops->info(A, &cd, NULL));
    PetscCall(GPUPCMatRestoreCSR(&cd));
    PetscFunctionReturn(0);
  }
  PetscCall(GPUPCMatMPIAIJGetSeqAIJ(A, &Ad, &Ao, &garray));
  g->ncol = Ao->cmap->n; /* the ghost columns, compressed */
  nghost  = g->ncol;
  if (ops->ghosts) PetscCall(ops->ghosts(A, g->ncol, garray, &nghost, &ghosts));
  PetscCall(GPUPCHaloDestroy(&g->halo));
  PetscCall(GPUPCHaloCreate(A, nghost, ghosts ? ghosts : garray, &g->halo));
  PetscCall(PetscFree(ghosts));
  PetscCall(GPUPCMatGetCSR(Ad, &cd));
  PetscCall(GPUPCMatGetCSR(Ao, &co));
  PetscCall(ops->build(A, &cd, g->diag));
  if (!ops->ghosts) PetscCall(GPUPCRowCompressSetUp(&co, &g->orows)); /* blocked layouts (ghosts in blocks) keep every row */
  PetscCall(GPUPCRowCompressApply(&g->orows, &co, &cc));
  PetscCall(ops->build(A, &cc, g->offd));
  g->blocknz[0] = Ad->nonzerostate;
  g->blocknz[1] = Ao->nonzerostate;
  PetscCall(ops->info(A, &cd, &co));
  PetscCall(GPUPCMatRestoreCSR(&co));
  PetscCall(GPUPCMatRestoreCSR(&cd));
  PetscFunctionReturn(0);
}

/*
   GPUPCMatBlocksUpload - the upload of GPUPCMatSubclass: the matrix's nonzero pattern is unchanged (A->nonzerostate),
   so new values of the blocks. A block of an MPIAIJ can still have changed its own pattern without a parallel
   assembly (MPIAIJ's MatShift and MatZeroRows insert missing diagonal entries by the block's own assembly): such a
   block is laid out again, locally; the ghost columns (the halo plan) change only in a parallel assembly.
*/
PetscErrorCode GPUPCMatBlocksUpload(Mat A)
{
  GPUPCMatBlocks         *g   = Blocks(A);
  const GPUPCMatBlockOps *ops = g->ops;
  Mat                     B[2];
  void                   *blk[2] = {g->diag, g->offd};
  GPUPCCSR                c[2];

  PetscFunctionBegin;
  if (!g->sc.mpi) {
    PetscCall(GPUPCMatGetCSR(A, &c[0]));
    PetscCall(ops->upload(&c[0], g->diag));
    PetscCall(GPUPCMatRestoreCSR(&c[0]));
    PetscFunctionReturn(0);
  }
  PetscCall(GPUPCMatMPIAIJGetSeqAIJ(A, &B[0], &B[1], NULL));
  PetscCall(GPUPCMatGetCSR(B[0], &c[0]));
  PetscCall(GPUPCMatGetCSR(B[1], &c[1]));
  PetscCheck(c[1].n == g->ncol, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: the off-diagonal block has %" PetscInt_FMT " ghost columns, the layout %" PetscInt_FMT ", but the matrix's nonzero state did not change", ((PetscObject)A)->type_name, c[1].n, g->ncol);
  for (PetscInt k = 0; k < 2; k++) {
    GPUPCCSR cc;

    if (B[k]->nonzerostate != g->blocknz[k]) {
      if (k == 1 && !ops->ghosts) PetscCall(GPUPCRowCompressSetUp(&c[k], &g->orows));
      PetscCall(GPUPCRowCompressApply(k == 1 ? &g->orows : &(GPUPCRowCompress){0}, &c[k], &cc));
      PetscCall(ops->build(A, &cc, blk[k]));
      g->blocknz[k] = B[k]->nonzerostate;
    } else {
      PetscCall(GPUPCRowCompressApply(k == 1 ? &g->orows : &(GPUPCRowCompress){0}, &c[k], &cc));
      PetscCall(ops->upload(&cc, blk[k]));
    }
  }
  PetscCall(GPUPCMatRestoreCSR(&c[1]));
  PetscCall(GPUPCMatRestoreCSR(&c[0]));
  PetscFunctionReturn(0);
}

/* nonzeros of the device copy (both blocks) and rows of the diagonal block, for the flop counts */
static PetscLogDouble NonzerosAndRows(GPUPCMatBlocks *g, PetscInt *m)
{
  PetscInt nd, no = 0, mo;

  g->ops->counts(g->diag, m, &nd);
  if (g->sc.mpi) g->ops->counts(g->offd, &mo, &no);
  return (PetscLogDouble)nd + (PetscLogDouble)no;
}

/* y = A x + z on device arrays (z NULL: y = A x; z may be y) */
static PetscErrorCode MultDevice(Mat A, const PetscScalar *dx, const PetscScalar *dz, PetscScalar *dy)
{
  GPUPCMatBlocks         *g   = Blocks(A);
  const GPUPCMatBlockOps *ops = g->ops;
  const PetscScalar      *dg;
  PetscInt                mo, no;

  PetscFunctionBegin;
  if (!g->sc.mpi) {
    PetscCall(ops->mult(g->diag, dx, dz, dy));
    PetscFunctionReturn(0);
  }
  PetscCall(GPUPCHaloForwardBegin(g->halo, dx));
  PetscCall(ops->mult(g->diag, dx, dz, dy)); /* overlaps the exchange */
  PetscCall(GPUPCHaloForwardEnd(g->halo, &dg));
  ops->counts(g->offd, &mo, &no);
  if (no && g->orows.hi) { /* the rows with entries: their products, added at those rows */
    const GPUPCHaloKernels *hk;

    PetscCall(GPUPCGetHaloKernels(&hk));
    PetscCall(ops->mult(g->offd, dg, NULL, g->orows.dt));
    PetscCall(hk->scatteradd(g->orows.mc, g->orows.drows, g->orows.dt, dy));
  } else if (no) PetscCall(ops->mult(g->offd, dg, dy, dy));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMultAdd_Blocks(Mat A, Vec x, Vec z, Vec y)
{
  GPUPCMatBlocks    *g;
  const PetscScalar *dx, *dz = NULL;
  PetscScalar       *dy;
  PetscLogDouble     nnz;
  PetscInt           m;

  PetscFunctionBegin;
  PetscCall(GPUPCMatSubclassEnsure(A));
  g = Blocks(A);
  PetscCall(PetscLogEventBegin(*g->ops->multevent, A, x, y, 0));
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
  nnz = NonzerosAndRows(g, &m);
  PetscCall(PetscLogFlops(z ? 2.0 * nnz : PetscMax(2.0 * nnz - m, 0)));
  PetscCall(PetscLogEventEnd(*g->ops->multevent, A, x, y, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMult_Blocks(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatMultAdd_Blocks(A, x, NULL, y));
  PetscFunctionReturn(0);
}

/* y = A^T x + z: atomic scatters; in parallel the off-diagonal contributions go to their owners through the reverse
   halo (sum), overlapped with the diagonal block's transpose product */
static PetscErrorCode MatMultTransposeAdd_Blocks(Mat A, Vec x, Vec z, Vec y)
{
  GPUPCMatBlocks         *g;
  const GPUPCMatBlockOps *ops;
  const PetscScalar      *dx;
  PetscScalar            *dy;
  PetscInt                m;

  PetscFunctionBegin;
  PetscCall(GPUPCMatSubclassEnsure(A));
  g   = Blocks(A);
  ops = g->ops;
  PetscCall(PetscLogEventBegin(*ops->multtransposeevent, A, x, y, 0));
  if (z && z != y) PetscCall(VecCopy(z, y));
  PetscCall(VecGPUGetDeviceArrayRead(x, &dx));
  if (z) PetscCall(VecGPUGetDeviceArray(y, &dy));
  else {
    PetscCall(VecGPUGetDeviceArrayWrite(y, &dy));
    PetscCall(GPUPCMemzero(dy, (size_t)A->cmap->n * sizeof(PetscScalar)));
  }
  if (g->sc.mpi) {
    PetscCall(GPUPCMemzero(g->halo->d_ghost, (size_t)g->halo->nghost * sizeof(PetscScalar)));
    if (g->orows.hi) { /* x at the rows with entries */
      const GPUPCHaloKernels *hk;

      PetscCall(GPUPCGetHaloKernels(&hk));
      PetscCall(hk->gather(g->orows.mc, g->orows.drows, dx, g->orows.dt));
      PetscCall(ops->multtransposeadd(g->offd, g->orows.dt, g->halo->d_ghost));
    } else PetscCall(ops->multtransposeadd(g->offd, dx, g->halo->d_ghost));
    PetscCall(GPUPCHaloReverseBegin(g->halo));
    PetscCall(ops->multtransposeadd(g->diag, dx, dy));
    PetscCall(GPUPCHaloReverseEnd(g->halo, dy));
  } else PetscCall(ops->multtransposeadd(g->diag, dx, dy));
  if (z) PetscCall(VecGPURestoreDeviceArray(y, &dy));
  else PetscCall(VecGPURestoreDeviceArrayWrite(y, &dy));
  PetscCall(VecGPURestoreDeviceArrayRead(x, &dx));
  PetscCall(PetscLogFlops(2.0 * NonzerosAndRows(g, &m)));
  PetscCall(PetscLogEventEnd(*ops->multtransposeevent, A, x, y, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMultTranspose_Blocks(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatMultTransposeAdd_Blocks(A, x, NULL, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatGetDiagonal_Blocks(Mat A, Vec d)
{
  GPUPCMatBlocks *g;
  PetscScalar    *dd;

  PetscFunctionBegin;
  PetscCheck(!Blocks(A)->sc.mpi || (A->rmap->rstart == A->cmap->rstart && A->rmap->rend == A->cmap->rend), PETSC_COMM_SELF, PETSC_ERR_SUP, "MatGetDiagonal on %s needs the same row and column layout (rows %" PetscInt_FMT "..%" PetscInt_FMT ", columns %" PetscInt_FMT "..%" PetscInt_FMT " on this rank)", ((PetscObject)A)->type_name, A->rmap->rstart,
             A->rmap->rend, A->cmap->rstart, A->cmap->rend);
  PetscCall(GPUPCMatSubclassEnsure(A));
  g = Blocks(A);
  PetscCall(VecGPUGetDeviceArrayWrite(d, &dd));
  PetscCall(g->ops->getdiagonal(g->diag, dd));
  PetscCall(VecGPURestoreDeviceArrayWrite(d, &dd));
  PetscFunctionReturn(0);
}

/* GPUPCMatBlocksSetDeviceOps - installs the device operations on A (a matrix whose A->spptr is set) */
PetscErrorCode GPUPCMatBlocksSetDeviceOps(Mat A)
{
  PetscFunctionBegin;
  A->ops->mult             = MatMult_Blocks;
  A->ops->multadd          = MatMultAdd_Blocks;
  A->ops->multtranspose    = MatMultTranspose_Blocks;
  A->ops->multtransposeadd = MatMultTransposeAdd_Blocks;
  A->ops->getdiagonal      = MatGetDiagonal_Blocks;
  PetscFunctionReturn(0);
}

/*
   A distributed Mat over device blocks (gpupc/devmpiblocks.h) without a host copy of its entries: a MATSHELL on the
   blocks' communicator whose diagonal and off-diagonal blocks are GPUPCDevMats (gpupc/devmat.h) and whose ghost values
   move through the halo plan of the MPIAIJ-based types (src/mat/utils/halo.c, made from the column layout and garray;
   the direct GPU-to-GPU path where that plan takes it). It is the several-rank counterpart of devmatshell.c: the
   distributed device setups' levels, prolongators and restrictions are held so, and a multigrid cycle written with
   MatMult()/MatMultAdd()/MatMultTranspose() applies them.

   Products: y = A x + z begins the forward exchange, multiplies the diagonal block (overlapping it), ends the exchange
   and adds the off-diagonal block's product of the ghosts; y = A^T x + z multiplies the off-diagonal block's
   transpose into the ghost buffer, begins the reverse exchange (a sum into the owners), adds the diagonal block's
   transpose product and ends the exchange.
*/
#include <gpupc/devmpiblocks.h>
#include <gpupc/devmat.h>
#include <petscgpupc.h>

typedef struct {
  GPUPCDevMat d, o;          /* the blocks in their formats; NULL for a block without entries */
  GPUPCHalo   halo;          /* the ghost values of the off-diagonal block's columns */
  PetscInt    nghost;        /* o's columns */
  PetscInt   *garray;        /* their global numbers (a copy: the halo statistics read it) */
  PetscInt    nnz;           /* stored entries on this rank: d's and o's */
  size_t      bytes;         /* device memory of the two blocks */
  char        reason[192];   /* why the diagonal block's format */
  const char *dname, *oname; /* the formats of the blocks */
} ShellMPI;

static PetscErrorCode GetShell(Mat M, ShellMPI **s)
{
  void *ctx;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(M, &ctx));
  *s = (ShellMPI *)ctx;
  PetscFunctionReturn(0);
}

/* y = A x + z on device arrays (z NULL: y = A x; z may be y) */
static PetscErrorCode MultDevice(ShellMPI *s, PetscInt m, const PetscScalar *dx, const PetscScalar *dz, PetscScalar *dy)
{
  const PetscScalar *dg;

  PetscFunctionBegin;
  PetscCall(GPUPCHaloForwardBegin(s->halo, dx));
  if (s->d) PetscCall(GPUPCDevMatMult(s->d, dx, dz, dy)); /* overlaps the exchange */
  else if (dz && dz != dy) PetscCall(GPUPCCopyOnDevice(dy, dz, m));
  else if (!dz) PetscCall(GPUPCMemzero(dy, (size_t)m * sizeof(PetscScalar)));
  PetscCall(GPUPCHaloForwardEnd(s->halo, &dg));
  if (s->o) PetscCall(GPUPCDevMatMult(s->o, dg, dy, dy));
  PetscFunctionReturn(0);
}

static PetscErrorCode MultAdd_ShellMPI(Mat M, Vec x, Vec z, Vec y)
{
  ShellMPI          *s = NULL;
  const PetscScalar *dx, *dz = NULL;
  PetscScalar       *dy;

  PetscFunctionBegin;
  PetscCall(GetShell(M, &s));
  PetscCall(VecGPUGetDeviceArrayRead(x, &dx));
  if (z == y) {
    PetscCall(VecGPUGetDeviceArray(y, &dy));
    PetscCall(MultDevice(s, M->rmap->n, dx, dy, dy));
    PetscCall(VecGPURestoreDeviceArray(y, &dy));
  } else {
    if (z) PetscCall(VecGPUGetDeviceArrayRead(z, &dz));
    PetscCall(VecGPUGetDeviceArrayWrite(y, &dy));
    PetscCall(MultDevice(s, M->rmap->n, dx, dz, dy));
    PetscCall(VecGPURestoreDeviceArrayWrite(y, &dy));
    if (z) PetscCall(VecGPURestoreDeviceArrayRead(z, &dz));
  }
  PetscCall(VecGPURestoreDeviceArrayRead(x, &dx));
  PetscCall(PetscLogFlops(2.0 * (PetscLogDouble)s->nnz));
  PetscFunctionReturn(0);
}

static PetscErrorCode Mult_ShellMPI(Mat M, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MultAdd_ShellMPI(M, x, NULL, y));
  PetscFunctionReturn(0);
}

/* y = A^T x + z (z NULL: y = A^T x). The blocks' transpose products only add (their kernels scatter with atomics), so
   y and the ghost buffer are set first; the off-diagonal block's contributions are summed into their owners' entries
   by the reverse exchange, overlapped with the diagonal block's product */
static PetscErrorCode MultTransposeAdd_ShellMPI(Mat M, Vec x, Vec z, Vec y)
{
  ShellMPI          *s = NULL;
  const PetscScalar *dx;
  PetscScalar       *dy;

  PetscFunctionBegin;
  PetscCall(GetShell(M, &s));
  if (z && z != y) PetscCall(VecCopy(z, y));
  PetscCall(VecGPUGetDeviceArrayRead(x, &dx));
  if (z) PetscCall(VecGPUGetDeviceArray(y, &dy));
  else {
    PetscCall(VecGPUGetDeviceArrayWrite(y, &dy));
    PetscCall(GPUPCMemzero(dy, (size_t)M->cmap->n * sizeof(PetscScalar)));
  }
  if (s->halo->nghost) PetscCall(GPUPCMemzero(s->halo->d_ghost, (size_t)s->halo->nghost * sizeof(PetscScalar)));
  if (s->o) PetscCall(GPUPCDevMatMultTransposeAdd(s->o, dx, s->halo->d_ghost));
  PetscCall(GPUPCHaloReverseBegin(s->halo));
  if (s->d) PetscCall(GPUPCDevMatMultTransposeAdd(s->d, dx, dy));
  PetscCall(GPUPCHaloReverseEnd(s->halo, dy));
  if (z) PetscCall(VecGPURestoreDeviceArray(y, &dy));
  else PetscCall(VecGPURestoreDeviceArrayWrite(y, &dy));
  PetscCall(VecGPURestoreDeviceArrayRead(x, &dx));
  PetscCall(PetscLogFlops(2.0 * (PetscLogDouble)s->nnz));
  PetscFunctionReturn(0);
}

static PetscErrorCode MultTranspose_ShellMPI(Mat M, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MultTransposeAdd_ShellMPI(M, x, NULL, y));
  PetscFunctionReturn(0);
}

/* the diagonal entries lie in the diagonal block when rows and columns are laid out alike */
static PetscErrorCode GetDiagonal_ShellMPI(Mat M, Vec v)
{
  ShellMPI    *s = NULL;
  PetscScalar *dv;

  PetscFunctionBegin;
  PetscCheck(M->rmap->rstart == M->cmap->rstart && M->rmap->rend == M->cmap->rend, PETSC_COMM_SELF, PETSC_ERR_SUP, "MatGetDiagonal of a distributed device matrix needs the same row and column layout (rows %" PetscInt_FMT "..%" PetscInt_FMT ", columns %" PetscInt_FMT "..%" PetscInt_FMT " on this rank)", M->rmap->rstart, M->rmap->rend, M->cmap->rstart, M->cmap->rend);
  PetscCall(GetShell(M, &s));
  PetscCall(VecGPUGetDeviceArrayWrite(v, &dv));
  if (s->d) PetscCall(GPUPCDevMatGetDiagonal(s->d, dv));
  else PetscCall(GPUPCMemzero(dv, (size_t)M->rmap->n * sizeof(PetscScalar)));
  PetscCall(VecGPURestoreDeviceArrayWrite(v, &dv));
  PetscFunctionReturn(0);
}

/* the stored entries of both blocks and their device memory: this rank's, or summed/maximised over the ranks */
static PetscErrorCode GetInfo_ShellMPI(Mat M, MatInfoType flag, MatInfo *info)
{
  ShellMPI      *s = NULL;
  PetscLogDouble loc[2], glob[2];

  PetscFunctionBegin;
  PetscCall(GetShell(M, &s));
  PetscCall(PetscMemzero(info, sizeof(*info)));
  loc[0] = (PetscLogDouble)s->nnz;
  loc[1] = (PetscLogDouble)s->bytes;
  if (flag == MAT_LOCAL) {
    glob[0] = loc[0];
    glob[1] = loc[1];
  } else PetscCall(MPIU_Allreduce(loc, glob, 2, MPIU_PETSCLOGDOUBLE, flag == MAT_GLOBAL_MAX ? MPI_MAX : MPI_SUM, PetscObjectComm((PetscObject)M)));
  info->block_size   = (PetscLogDouble)PetscMax(1, M->rmap->bs);
  info->nz_allocated = glob[0];
  info->nz_used      = glob[0];
  info->memory       = glob[1];
  PetscFunctionReturn(0);
}

static PetscErrorCode View_ShellMPI(Mat M, PetscViewer viewer)
{
  ShellMPI         *s = NULL;
  PetscBool         ascii;
  PetscMPIInt       size;
  MatInfo           info;
  PetscMPIInt       rank;
  PetscInt64        loc[2], mx[2];
  PetscViewerFormat format;

  PetscFunctionBegin;
  PetscCall(GetShell(M, &s));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(0);
  PetscCall(PetscViewerGetFormat(viewer, &format));
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)M), &size));
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)M), &rank));
  PetscCall(MatGetInfo(M, MAT_GLOBAL_SUM, &info));
  loc[0] = s->nnz;
  loc[1] = s->nghost;
  PetscCall(MPIU_Allreduce(loc, mx, 2, MPIU_INT64, MPI_MAX, PetscObjectComm((PetscObject)M)));
  PetscCall(PetscViewerASCIIPrintf(viewer, "distributed device matrix on %d ranks: %" PetscInt_FMT " x %" PetscInt_FMT ", %.0f stored entries (most on a rank %" PetscInt64_FMT "), most ghosts on a rank %" PetscInt64_FMT ", %.4g MB on the devices\n", (int)size, M->rmap->N, M->cmap->N, (double)info.nz_used, mx[0], mx[1], (double)info.memory / 1e6));
  PetscCall(PetscViewerASCIIPrintf(viewer, "diagonal blocks %s (%s), off-diagonal blocks %s\n", s->dname, s->reason, s->oname));
  if (format == PETSC_VIEWER_ASCII_INFO_DETAIL) {
    PetscCall(PetscViewerASCIIPushSynchronized(viewer));
    PetscCall(PetscViewerASCIISynchronizedPrintf(viewer, "  [%d] rows %" PetscInt_FMT ", entries %" PetscInt_FMT ", ghosts %" PetscInt_FMT "\n", (int)rank, M->rmap->n, s->nnz, s->nghost));
    PetscCall(PetscViewerFlush(viewer));
    PetscCall(PetscViewerASCIIPopSynchronized(viewer));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Destroy_ShellMPI(void *ctx)
{
  ShellMPI *s = (ShellMPI *)ctx;

  PetscFunctionBegin;
  PetscCall(GPUPCDevMatDestroy(&s->d));
  PetscCall(GPUPCDevMatDestroy(&s->o));
  PetscCall(GPUPCHaloDestroy(&s->halo));
  PetscCall(PetscFree(s->garray));
  PetscCall(PetscFree(s));
  PetscFunctionReturn(0);
}

/* the format of the diagonal blocks, the same on every rank: the asked one, or auto's choice on each rank's diagonal
   block (GPUPCDevMatChoose, as for a level on one rank: the rows a device multiplies decide) made common by taking
   the lowest of the ranks' choices in the order segcsr, hec, bcsr (segcsr takes any matrix, hec and bcsr only those
   they suit) */
static PetscErrorCode ChooseDiagonal(const GPUPCDevMPIBlocks *B, GPUPCDevMatFormat f, PetscInt bs, GPUPCDevMatFormat *df, char *why, size_t len)
{
  const GPUPCMatBlockOps *ops;
  GPUPCCSR                csr;
  PetscInt                mine, all;

  PetscFunctionBegin;
  if (f != GPUPC_DEVMAT_AUTO) {
    *df = f;
    PetscCall(PetscSNPrintf(why, len, "asked for"));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscMemzero(&csr, sizeof(csr)));
  csr.m          = B->d.m;
  csr.n          = B->d.n;
  csr.nnz        = B->d.nnz;
  csr.i          = B->d.i;
  csr.j          = B->d.j;
  csr.a          = B->d.a;
  csr.device     = PETSC_TRUE;
  csr.rowsdevice = PETSC_TRUE;
  PetscCall(GPUPCDevMatChoose(GPUPC_DEVMAT_AUTO, &csr, bs, &ops, why, len));
  mine = ops == &GPUPCBCSRBlockOps ? GPUPC_DEVMAT_BCSR : (ops == &GPUPCHECBlockOps ? GPUPC_DEVMAT_HEC : GPUPC_DEVMAT_SEGCSR);
  PetscCall(MPIU_Allreduce(&mine, &all, 1, MPIU_INT, MPI_MIN, B->comm));
  *df = (GPUPCDevMatFormat)all;
  if (all != mine) PetscCall(PetscSNPrintf(why, len, "auto: %s, the lowest choice of the ranks' diagonal blocks", GPUPCDevMatFormats[all]));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevMPIBlocksCreateMat - a distributed Mat (MATSHELL) applying device blocks, with no host copy of the entries

   Collective on B->comm

   Input Parameters:
+  B - the blocks (each rank's diagonal and off-diagonal block and garray); the Mat copies what it needs (the blocks'
       formats are laid out from them) and B stays the caller's
.  f - the format of the diagonal blocks: GPUPC_DEVMAT_SEGCSR, _HEC, _BCSR or _AUTO (auto: GPUPCDevMatChoose() on each
       rank's diagonal block, made the same on every rank)
-  bs - the block size (bcsr's blocks, auto's block fill; 1: none)

   Output Parameter:
.  M - the Mat, local sizes B->d.m x B->d.n on B->comm: MatMult(), MatMultAdd(), MatMultTranspose(),
       MatMultTransposeAdd() and MatGetDiagonal() on gpu Vecs run the formats' kernels and the halo exchange;
       MatGetInfo() gives the stored entries; MatView() the formats and sizes; MatCreateVecs() gives gpu Vecs

   Notes:
   The off-diagonal blocks are held in segcsr for bcsr and auto (their columns are the ghosts, numbered in garray's
   order, so bs x bs blocks do not line up with them; their rows are short and many are empty, which segcsr's row
   bins take), in hec when hec is asked for. New values on the same pattern: GPUPCDevMPIBlocksMatUpdateValues().
   GPUPCMatHaloStats() reports the Mat's halo.

   Level: developer

.seealso: GPUPCDevMPIBlocksFromMat(), GPUPCDevMatCreateMat(), GPUPCDevMPIBlocksMatUpdateValues()
@*/
PetscErrorCode GPUPCDevMPIBlocksCreateMat(const GPUPCDevMPIBlocks *B, GPUPCDevMatFormat f, PetscInt bs, Mat *M)
{
  ShellMPI         *s = NULL;
  PetscLayout       cmap;
  GPUPCDevMatFormat df, of;

  PetscFunctionBegin;
  PetscCheck(f >= GPUPC_DEVMAT_SEGCSR && f <= GPUPC_DEVMAT_AUTO, B->comm, PETSC_ERR_ARG_OUTOFRANGE, "distributed device matrix: format %d is invalid; use segcsr, hec, bcsr or auto", (int)f);
  PetscCheck(B->o.m == B->d.m && B->o.n == B->nghost, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "distributed device matrix: the off-diagonal block is %" PetscInt_FMT " x %" PetscInt_FMT ", expected %" PetscInt_FMT " rows x %" PetscInt_FMT " ghosts", B->o.m, B->o.n, B->d.m, B->nghost);
  PetscCall(PetscNew(&s));
  PetscCall(ChooseDiagonal(B, f, bs, &df, s->reason, sizeof(s->reason)));
  of = f == GPUPC_DEVMAT_HEC ? GPUPC_DEVMAT_HEC : GPUPC_DEVMAT_SEGCSR;
  if (B->d.nnz) {
    PetscCall(GPUPCDevMatCreateFromDeviceCSRBlocked(B->d.m, B->d.n, B->d.nnz, B->d.i, B->d.j, B->d.a, bs, df, &s->d));
    s->bytes += s->d->bytes;
  }
  if (B->o.nnz) {
    PetscCall(GPUPCDevMatCreateFromDeviceCSR(B->o.m, B->o.n, B->o.nnz, B->o.i, B->o.j, B->o.a, of, &s->o));
    s->bytes += s->o->bytes;
  }
  s->dname  = GPUPCDevMatFormats[df];
  s->oname  = GPUPCDevMatFormats[of];
  s->nnz    = B->d.nnz + B->o.nnz;
  s->nghost = B->nghost;
  PetscCall(PetscMalloc1(PetscMax(1, B->nghost), &s->garray));
  PetscCall(PetscArraycpy(s->garray, B->garray, B->nghost));
  /* the halo plan on the column layout */
  PetscCall(PetscLayoutCreateFromSizes(B->comm, B->d.n, B->N, 1, &cmap));
  PetscCall(GPUPCHaloCreateFromLayout(B->comm, cmap, B->nghost, s->garray, &s->halo));
  PetscCall(PetscLayoutDestroy(&cmap));

  PetscCall(MatCreateShell(B->comm, B->d.m, B->d.n, B->M, B->N, s, M));
  PetscCall(MatShellSetContextDestroy(*M, Destroy_ShellMPI));
  PetscCall(MatShellSetVecType(*M, VECGPU));
  PetscCall(MatShellSetOperation(*M, MATOP_MULT, (void (*)(void))Mult_ShellMPI));
  PetscCall(MatShellSetOperation(*M, MATOP_MULT_ADD, (void (*)(void))MultAdd_ShellMPI));
  PetscCall(MatShellSetOperation(*M, MATOP_MULT_TRANSPOSE, (void (*)(void))MultTranspose_ShellMPI));
  PetscCall(MatShellSetOperation(*M, MATOP_MULT_TRANSPOSE_ADD, (void (*)(void))MultTransposeAdd_ShellMPI));
  PetscCall(MatShellSetOperation(*M, MATOP_GET_DIAGONAL, (void (*)(void))GetDiagonal_ShellMPI));
  PetscCall(MatShellSetOperation(*M, MATOP_GETINFO, (void (*)(void))GetInfo_ShellMPI));
  PetscCall(MatShellSetOperation(*M, MATOP_VIEW, (void (*)(void))View_ShellMPI));
  if (bs > 1) PetscCall(MatSetBlockSize(*M, bs));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevMPIBlocksMatGetInfo - what a Mat made by GPUPCDevMPIBlocksCreateMat() holds: its ghosts and the formats of
   its blocks; *isblocks is false for any other Mat (then the rest is not set)

   Not Collective

   Output Parameters:
+  isblocks - whether M is such a Mat
.  nghost, garray - the ghost columns and their global numbers (NULL: not wanted; the Mat's array)
-  format, why - the diagonal blocks' format name and what decided it (NULL: not wanted)

   Level: developer
@*/
PetscErrorCode GPUPCDevMPIBlocksMatGetInfo(Mat M, PetscBool *isblocks, PetscInt *nghost, const PetscInt **garray, const char **format, const char **why)
{
  PetscBool shell;
  void (*fn)(void) = NULL;
  ShellMPI *s      = NULL;

  PetscFunctionBegin;
  *isblocks = PETSC_FALSE;
  PetscCall(PetscObjectTypeCompare((PetscObject)M, MATSHELL, &shell));
  if (!shell) PetscFunctionReturn(0);
  PetscCall(MatShellGetOperation(M, MATOP_MULT, &fn));
  if (fn != (void (*)(void))Mult_ShellMPI) PetscFunctionReturn(0);
  PetscCall(GetShell(M, &s));
  *isblocks = PETSC_TRUE;
  if (nghost) *nghost = s->nghost;
  if (garray) *garray = s->garray;
  if (format) *format = s->dname;
  if (why) *why = s->reason;
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevMPIBlocksMatUpdateValues - new values of a Mat made by GPUPCDevMPIBlocksCreateMat(), from blocks of the same
   pattern (B->d.a and B->o.a on the device)

   Not Collective

   Level: developer

.seealso: GPUPCDevMPIBlocksCreateMat()
@*/
PetscErrorCode GPUPCDevMPIBlocksMatUpdateValues(Mat M, const GPUPCDevMPIBlocks *B)
{
  PetscBool isblocks;
  ShellMPI *s = NULL;

  PetscFunctionBegin;
  PetscCall(GPUPCDevMPIBlocksMatGetInfo(M, &isblocks, NULL, NULL, NULL, NULL));
  PetscCheck(isblocks, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "GPUPCDevMPIBlocksMatUpdateValues: the Mat was not made by GPUPCDevMPIBlocksCreateMat()");
  PetscCall(GetShell(M, &s));
  PetscCheck(B->d.nnz + B->o.nnz == s->nnz && B->nghost == s->nghost, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "GPUPCDevMPIBlocksMatUpdateValues: the blocks have %" PetscInt_FMT " entries and %" PetscInt_FMT " ghosts, the Mat %" PetscInt_FMT " and %" PetscInt_FMT "; the pattern must be the same", B->d.nnz + B->o.nnz, B->nghost, s->nnz, s->nghost);
  PetscCheck((B->d.a || !B->d.nnz) && (B->o.a || !B->o.nnz), PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "GPUPCDevMPIBlocksMatUpdateValues: the blocks have no values");
  if (s->d) PetscCall(GPUPCDevMatUpdateValues(s->d, B->d.a, PETSC_TRUE));
  if (s->o) PetscCall(GPUPCDevMatUpdateValues(s->o, B->o.a, PETSC_TRUE));
  PetscFunctionReturn(0);
}

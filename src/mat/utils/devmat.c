/*
   GPUPCDevMat (gpupc/devmat.h): a matrix on the device in any GPUPC format, the level matrices of cmg and gpuamg. The
   format's GPUPCMatBlockOps does the work; this file chooses the format, builds the one block from host or device
   CSR and forwards the operations.
*/
#include <gpupc/devmat.h>
#include <gpupc/device.h>
#include <gpupc/formatkernels.h>
#include <gpupc/sparsekernels.h>

const char *const GPUPCDevMatFormats[] = {"segcsr", "hec", "bcsr", "auto", "GPUPCDevMatFormat", "GPUPC_DEVMAT_", NULL};

/* the share of the stored entries in the bs x bs blocks they touch (1: every touched block is full); host CSR */
static PetscErrorCode BlockFill(const GPUPCCSR *csr, PetscInt bs, PetscReal *fill)
{
  const PetscInt nb = (csr->n + bs - 1) / bs;
  PetscInt      *mark;
  PetscInt64     blocks = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(nb, &mark));
  for (PetscInt c = 0; c < nb; c++) mark[c] = -1;
  for (PetscInt ib = 0; ib * bs < csr->m; ib++) {
    for (PetscInt i = ib * bs; i < PetscMin(csr->m, (ib + 1) * bs); i++) {
      for (PetscInt k = csr->i[i]; k < csr->i[i + 1]; k++) {
        const PetscInt c = csr->j[k] / bs;

        if (mark[c] != ib) {
          mark[c] = ib;
          blocks++;
        }
      }
    }
  }
  PetscCall(PetscFree(mark));
  *fill = blocks ? (PetscReal)csr->nnz / ((PetscReal)blocks * bs * bs) : 0.0;
  PetscFunctionReturn(0);
}

/* the same share from CSR with the columns on the device (row pointers on the device with csr->rowsdevice, else
   copied there): the filled bs x bs blocks counted there (bcsrcount, gpupc/formatkernels.h); -1 when a row's columns
   are not strictly increasing (bcsr's device build needs them so) */
static PetscErrorCode DeviceBlockFill(const GPUPCCSR *csr, PetscInt bs, PetscReal *fill)
{
  const GPUPCFormatKernels *fk;
  const PetscInt            mb     = csr->m / bs;
  PetscInt                 *rowptr = (PetscInt *)csr->i, *cnt;
  PetscInt64                stats[2];

  PetscFunctionBegin;
  PetscCall(GPUPCGetFormatKernels(&fk));
  if (!csr->rowsdevice) {
    PetscCall(GPUPCMallocArray(csr->m + 1, &rowptr));
    PetscCall(GPUPCCopyToDevice(rowptr, csr->i, csr->m + 1));
  }
  PetscCall(GPUPCMallocArray(mb, &cnt));
  PetscCall(fk->bcsrcount(mb, bs, csr->n, rowptr, csr->j, cnt, stats));
  PetscCall(GPUPCFree(cnt));
  if (!csr->rowsdevice) PetscCall(GPUPCFree(rowptr));
  *fill = stats[1] >= 0 ? -1.0 : (stats[0] ? (PetscReal)csr->nnz / ((PetscReal)stats[0] * bs * bs) : 0.0);
  PetscFunctionReturn(0);
}

/* auto's rule on a matrix's statistics (blocked: 1 < bs <= bcsr's largest and the sizes are multiples of it; fill < 0:
   not known) */
static PetscErrorCode AutoRule(PetscInt bs, PetscBool blocked, PetscReal fill, PetscInt rows, PetscInt maxrow, PetscReal mean, const GPUPCMatBlockOps **ops, char *why, size_t len)
{
  const char *note = blocked && fill < 0 ? " (block size not used: columns not sorted in their rows)" : "";

  PetscFunctionBegin;
  if (blocked && fill >= GPUPC_DEVMAT_AUTO_BLOCKFILL && mean <= GPUPC_DEVMAT_AUTO_BCSRMEAN) {
    *ops = &GPUPCBCSRBlockOps;
    PetscCall(PetscSNPrintf(why, len, "auto: block size %" PetscInt_FMT ", blocks %.0f%% full (>= %.0f%%), mean row %.3g <= %g", bs, 100.0 * (double)fill, 100.0 * GPUPC_DEVMAT_AUTO_BLOCKFILL, (double)mean, (double)GPUPC_DEVMAT_AUTO_BCSRMEAN));
  } else if (blocked && fill >= GPUPC_DEVMAT_AUTO_BLOCKFILL) {
    *ops = &GPUPCSegCSRBlockOps;
    PetscCall(PetscSNPrintf(why, len, "auto: blocks %.0f%% full, but mean row %.3g > %g (bcsr walks long block rows in one thread)", 100.0 * (double)fill, (double)mean, (double)GPUPC_DEVMAT_AUTO_BCSRMEAN));
  } else if ((PetscReal)maxrow <= GPUPC_DEVMAT_AUTO_ROWRATIO * mean && mean <= GPUPC_DEVMAT_AUTO_HECMEAN && rows >= GPUPC_DEVMAT_AUTO_HECROWS) {
    *ops = &GPUPCHECBlockOps;
    PetscCall(PetscSNPrintf(why, len, "auto: longest row %" PetscInt_FMT " <= %.1f x mean %.3g, mean <= %g, %" PetscInt_FMT " rows >= %d%s", maxrow, (double)GPUPC_DEVMAT_AUTO_ROWRATIO, (double)mean, (double)GPUPC_DEVMAT_AUTO_HECMEAN, rows, GPUPC_DEVMAT_AUTO_HECROWS, note));
  } else {
    *ops = &GPUPCSegCSRBlockOps;
    if ((PetscReal)maxrow > GPUPC_DEVMAT_AUTO_ROWRATIO * mean) PetscCall(PetscSNPrintf(why, len, "auto: longest row %" PetscInt_FMT " > %.1f x mean %.3g%s", maxrow, (double)GPUPC_DEVMAT_AUTO_ROWRATIO, (double)mean, note));
    else if (mean > GPUPC_DEVMAT_AUTO_HECMEAN) PetscCall(PetscSNPrintf(why, len, "auto: mean row %.3g > %g%s", (double)mean, (double)GPUPC_DEVMAT_AUTO_HECMEAN, note));
    else PetscCall(PetscSNPrintf(why, len, "auto: %" PetscInt_FMT " rows < %d%s", rows, GPUPC_DEVMAT_AUTO_HECROWS, note));
  }
  PetscFunctionReturn(0);
}

static const GPUPCMatBlockOps *const Named[] = {&GPUPCSegCSRBlockOps, &GPUPCHECBlockOps, &GPUPCBCSRBlockOps};

/*@C
   GPUPCDevMatChoose - the format of a level matrix: the one asked for, or auto's choice from the row lengths and the
   block structure

   Not Collective

   Input Parameters:
+  format - GPUPC_DEVMAT_SEGCSR, _HEC, _BCSR or _AUTO
.  csr - the matrix (row pointers on the host unless csr->rowsdevice; columns on the host unless csr->device)
-  bs - its block size (1: none)

   Output Parameters:
+  ops - the format's table
-  why - what decided it (for -ksp_view), a buffer of len bytes

   Notes:
   auto: bcsr when 1 < bs <= GPUPC_BCSR_MAXB, the sizes are multiples of bs and the touched bs x bs blocks are at least
   GPUPC_DEVMAT_AUTO_BLOCKFILL full (counted on the device for device columns, where each row's columns must also be
   strictly increasing) and the mean row at most GPUPC_DEVMAT_AUTO_BCSRMEAN entries; else hec when the longest row is at most GPUPC_DEVMAT_AUTO_ROWRATIO times
   the mean (hec's ELL part then holds the whole matrix), the mean at most GPUPC_DEVMAT_AUTO_HECMEAN and the rows at
   least GPUPC_DEVMAT_AUTO_HECROWS (hec gives a row to a thread: longer rows make long chains of loads, fewer rows
   leave the GPU idle); else segcsr, whose segments split long rows and whose row bins take irregular rows.

   Level: developer

.seealso: GPUPCDevMatCreate(), GPUPCDevMatChooseForMat()
@*/
PetscErrorCode GPUPCDevMatChoose(GPUPCDevMatFormat format, const GPUPCCSR *csr, PetscInt bs, const GPUPCMatBlockOps **ops, char *why, size_t len)
{
  PetscInt  maxrow = 0;
  PetscReal mean = csr->m ? (PetscReal)csr->nnz / (PetscReal)csr->m : 0.0, fill = -1.0;
  PetscBool blocked = (PetscBool)(bs > 1 && bs <= GPUPC_BCSR_MAXB && csr->m % bs == 0 && csr->n % bs == 0);

  PetscFunctionBegin;
  PetscCheck(format >= GPUPC_DEVMAT_SEGCSR && format <= GPUPC_DEVMAT_AUTO, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "level matrix format %d is invalid; use segcsr, hec, bcsr or auto", (int)format);
  if (format != GPUPC_DEVMAT_AUTO) {
    *ops = Named[format];
    PetscCall(PetscSNPrintf(why, len, "asked for"));
    PetscFunctionReturn(0);
  }
  if (csr->rowsdevice) { /* the row pointers on the device: the longest row is a reduction there */
    const GPUPCFormatKernels *fk;

    PetscCall(GPUPCGetFormatKernels(&fk));
    PetscCall(fk->rowmax(csr->m, csr->i, &maxrow));
  } else
    for (PetscInt i = 0; i < csr->m; i++) maxrow = PetscMax(maxrow, csr->i[i + 1] - csr->i[i]);
  if (blocked && csr->device) PetscCall(DeviceBlockFill(csr, bs, &fill));
  else if (blocked) PetscCall(BlockFill(csr, bs, &fill));
  PetscCall(AutoRule(bs, blocked, fill, csr->m, maxrow, mean, ops, why, len));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevMatChooseForMat - the format of a GPUPC Mat (SEQAIJ or MPIAIJ based): as GPUPCDevMatChoose(), with auto's
   statistics over the whole matrix, so that every rank chooses the same

   Collective on M

   Input Parameters:
+  M - the matrix (its block size is bcsr's)
-  format - GPUPC_DEVMAT_SEGCSR, _HEC, _BCSR or _AUTO

   Output Parameters:
+  ops - the format's table (ops->name is the Mat type to convert to)
-  why - what decided it, a buffer of len bytes

   Notes:
   In parallel the longest row counts both blocks of a row, the block fill is the smallest over the ranks' diagonal
   blocks.

   Level: developer

.seealso: GPUPCDevMatChoose()
@*/
PetscErrorCode GPUPCDevMatChooseForMat(Mat M, GPUPCDevMatFormat format, const GPUPCMatBlockOps **ops, char *why, size_t len)
{
  PetscBool mpi;
  Mat       Ad = M, Ao = NULL;
  GPUPCCSR  cd, co;
  PetscInt  bs, rbs, cbs, mloc[2], mglob[2], rows, cols;
  PetscReal fill = -1.0, minfill;
  PetscBool blocked;

  PetscFunctionBegin;
  PetscCheck(format >= GPUPC_DEVMAT_SEGCSR && format <= GPUPC_DEVMAT_AUTO, PetscObjectComm((PetscObject)M), PETSC_ERR_ARG_OUTOFRANGE, "level matrix format %d is invalid; use segcsr, hec, bcsr or auto", (int)format);
  if (format != GPUPC_DEVMAT_AUTO) {
    *ops = Named[format];
    PetscCall(PetscSNPrintf(why, len, "asked for"));
    PetscFunctionReturn(0);
  }
  PetscCall(MatGetBlockSizes(M, &rbs, &cbs));
  bs = rbs == cbs ? PetscMax(1, rbs) : 1;
  PetscCall(MatGetSize(M, &rows, &cols));
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)M, MATMPIAIJ, &mpi));
  if (!mpi) PetscCall(PetscObjectTypeCompareAny((PetscObject)M, &mpi, MATMPISEGCSR, MATMPIHEC, MATMPIBCSR, ""));
  if (mpi) PetscCall(GPUPCMatMPIAIJGetSeqAIJ(M, &Ad, &Ao, NULL));
  PetscCall(GPUPCMatGetCSR(Ad, &cd));
  if (Ao) PetscCall(GPUPCMatGetCSR(Ao, &co));
  mloc[0] = 0;
  for (PetscInt i = 0; i < cd.m; i++) mloc[0] = PetscMax(mloc[0], cd.i[i + 1] - cd.i[i] + (Ao ? co.i[i + 1] - co.i[i] : 0));
  mloc[1] = cd.nnz + (Ao ? co.nnz : 0);
  blocked = (PetscBool)(bs > 1 && bs <= GPUPC_BCSR_MAXB && rows % bs == 0 && cols % bs == 0 && cd.m % bs == 0 && cd.n % bs == 0);
  if (blocked) PetscCall(BlockFill(&cd, bs, &fill));
  if (Ao) PetscCall(GPUPCMatRestoreCSR(&co));
  PetscCall(GPUPCMatRestoreCSR(&cd));
  PetscCall(MPIU_Allreduce(&mloc[0], &mglob[0], 1, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)M)));
  PetscCall(MPIU_Allreduce(&mloc[1], &mglob[1], 1, MPIU_INT, MPI_SUM, PetscObjectComm((PetscObject)M)));
  PetscCall(MPIU_Allreduce(&fill, &minfill, 1, MPIU_REAL, MPI_MIN, PetscObjectComm((PetscObject)M)));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &blocked, 1, MPIU_BOOL, MPI_LAND, PetscObjectComm((PetscObject)M)));
  PetscCall(AutoRule(bs, blocked, minfill, rows, mglob[0], rows ? (PetscReal)mglob[1] / (PetscReal)rows : 0.0, ops, why, len));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevMatCreate - a matrix on the device in a GPUPC format from CSR on the host or on the device

   Not Collective

   Input Parameters:
+  csr - the matrix: row pointers on the host, or on the device when csr->rowsdevice; columns and values on the host, or
          on the device when csr->device
.  bs - its block size (bcsr's blocks; 1: none)
-  format - segcsr, hec, bcsr or auto (GPUPCDevMatChoose())

   Output Parameter:
.  dm - the matrix

   Notes:
   From device CSR the columns and values are laid into the format on the device (gpupc/formatkernels.h); with the row
   pointers on the device too (csr->rowsdevice) the formats compute their structure there as well, and the matrix
   keeps no host row pointers (value updates from the host go through a device copy). bcsr computes its blocks on the
   device from any device CSR; it needs each row's columns strictly increasing there (as a GPUPCDevCSR has them).

   Level: developer

.seealso: GPUPCDevMatCreateFromSeqAIJ(), GPUPCDevMatCreateFromDeviceCSR(), GPUPCDevMatDestroy()
@*/
PetscErrorCode GPUPCDevMatCreate(const GPUPCCSR *csr, PetscInt bs, GPUPCDevMatFormat format, GPUPCDevMat *dm)
{
  GPUPCDevMat d;
  size_t      before, after;

  PetscFunctionBegin;
  *dm = NULL;
  PetscCheck(bs >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "level matrix: block size %" PetscInt_FMT " is invalid; use 1 or more", bs);
  PetscCall(PetscNew(&d));
  PetscCall(GPUPCDevMatChoose(format, csr, bs, &d->ops, d->reason, sizeof(d->reason)));
  PetscCheck(d->ops->buildcsr && d->ops->blocksize, PETSC_COMM_SELF, PETSC_ERR_PLIB, "format %s cannot hold a level matrix (no buildcsr)", d->ops->name);
  d->m   = csr->m;
  d->n   = csr->n;
  d->nnz = csr->nnz;
  d->bs  = bs;
  if (!csr->rowsdevice) { /* host value updates of a host-built block stage the values by rows */
    PetscCall(PetscMalloc1(csr->m + 1, &d->h_i));
    PetscCall(PetscArraycpy(d->h_i, csr->i, csr->m + 1));
  }
  PetscCall(PetscCalloc(d->ops->blocksize, &d->block));
  *dm = d; /* from here a failed build is cleaned up by the caller's destroy */
  PetscCall(PetscGPUPCDeviceMemoryInUse(&before));
  PetscCall(d->ops->buildcsr(csr, bs, d->block));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&after));
  d->bytes = after > before ? after - before : 0;
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevMatCreateFromSeqAIJ - a matrix on the device in a GPUPC format from a SEQAIJ (its block size is bcsr's)

   Not Collective

   Input Parameters:
+  A - the SEQAIJ matrix (assembled)
-  format - segcsr, hec, bcsr or auto

   Output Parameter:
.  dm - the matrix

   Level: developer

.seealso: GPUPCDevMatCreate()
@*/
PetscErrorCode GPUPCDevMatCreateFromSeqAIJ(Mat A, GPUPCDevMatFormat format, GPUPCDevMat *dm)
{
  GPUPCCSR  csr;
  PetscInt  bs = A->rmap->bs == A->cmap->bs ? PetscMax(1, A->rmap->bs) : 1;
  PetscBool ok;

  PetscFunctionBegin;
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATSEQAIJ, &ok));
  PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "level matrix from a Mat: type %s given, SEQAIJ needed", ((PetscObject)A)->type_name);
  PetscCall(GPUPCMatGetCSR(A, &csr));
  PetscCall(GPUPCDevMatCreate(&csr, bs, format, dm));
  PetscCall(GPUPCMatRestoreCSR(&csr));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevMatCreateFromDeviceCSR - a matrix on the device in a GPUPC format from CSR arrays already on the device,
   without a block size (bcsr then has 1 x 1 blocks: GPUPCDevMatCreateFromDeviceCSRBlocked() gives one)

   Not Collective

   Input Parameters:
+  m, n, nnz - rows, columns, entries
.  d_i, d_j, d_a - the row pointers (m+1), columns and values (nnz) on the device; d_j and d_a may be freed after
-  format - segcsr, hec, bcsr or auto

   Output Parameter:
.  dm - the matrix

   Level: developer

.seealso: GPUPCDevMatCreateFromDeviceCSRBlocked(), GPUPCDevMatCreate(), GPUPCDevMatUpdateValues()
@*/
PetscErrorCode GPUPCDevMatCreateFromDeviceCSR(PetscInt m, PetscInt n, PetscInt nnz, const PetscInt *d_i, const PetscInt *d_j, const PetscScalar *d_a, GPUPCDevMatFormat format, GPUPCDevMat *dm)
{
  PetscFunctionBegin;
  PetscCall(GPUPCDevMatCreateFromDeviceCSRBlocked(m, n, nnz, d_i, d_j, d_a, 1, format, dm));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevMatCreateFromDeviceCSRBlocked - a matrix on the device in a GPUPC format from CSR arrays already on the
   device, with a block size (bcsr's blocks, auto's block fill)

   Not Collective

   Input Parameters:
+  m, n, nnz - rows, columns, entries
.  d_i, d_j, d_a - the row pointers (m+1), columns and values (nnz) on the device; d_j and d_a may be freed after
.  bs - the block size (1: none; bcsr needs m and n multiples of it, at most GPUPC_BCSR_MAXB)
-  format - segcsr, hec, bcsr or auto

   Output Parameter:
.  dm - the matrix

   Notes:
   Everything stays on the device: every format computes its structure from the arrays there
   (gpupc/formatkernels.h); only i[0] and i[m] are read on the host, to check them. bcsr (and auto's block fill, with
   bs > 1) needs each row's columns strictly increasing, as a GPUPCDevCSR has them.

   Level: developer

.seealso: GPUPCDevMatCreateFromDeviceCSR(), GPUPCDevMatCreate(), GPUPCDevMatUpdateValues()
@*/
PetscErrorCode GPUPCDevMatCreateFromDeviceCSRBlocked(PetscInt m, PetscInt n, PetscInt nnz, const PetscInt *d_i, const PetscInt *d_j, const PetscScalar *d_a, PetscInt bs, GPUPCDevMatFormat format, GPUPCDevMat *dm)
{
  GPUPCCSR csr;
  PetscInt ends[2] = {0, 0};

  PetscFunctionBegin;
  PetscCheck(m >= 0 && n >= 0 && nnz >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "level matrix from device CSR: sizes %" PetscInt_FMT " x %" PetscInt_FMT " with %" PetscInt_FMT " entries are invalid", m, n, nnz);
  PetscCall(GPUPCCopyToHost(&ends[0], d_i, 1));
  PetscCall(GPUPCCopyToHost(&ends[1], d_i + m, 1));
  PetscCheck(ends[0] == 0 && ends[1] == nnz, PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "level matrix from device CSR: row pointers run from %" PetscInt_FMT " to %" PetscInt_FMT ", expected 0 to nnz = %" PetscInt_FMT, ends[0], ends[1], nnz);
  PetscCall(PetscMemzero(&csr, sizeof(csr)));
  csr.m          = m;
  csr.n          = n;
  csr.nnz        = nnz;
  csr.i          = d_i;
  csr.j          = d_j;
  csr.a          = d_a;
  csr.device     = PETSC_TRUE;
  csr.rowsdevice = PETSC_TRUE;
  PetscCall(GPUPCDevMatCreate(&csr, bs, format, dm));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevMatMult - y = A x + z on device arrays (z NULL: y = A x; z may be y)

   Level: developer
@*/
PetscErrorCode GPUPCDevMatMult(GPUPCDevMat A, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  PetscFunctionBegin;
  PetscCall(A->ops->mult(A->block, x, z, y));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevMatMultTransposeAdd - y += A^T x on device arrays (y has n entries)

   Level: developer
@*/
PetscErrorCode GPUPCDevMatMultTransposeAdd(GPUPCDevMat A, const PetscScalar *x, PetscScalar *y)
{
  PetscFunctionBegin;
  PetscCall(A->ops->multtransposeadd(A->block, x, y));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevMatGetDiagonal - d = diag(A) on a device array of m entries (0 where not stored)

   Level: developer
@*/
PetscErrorCode GPUPCDevMatGetDiagonal(GPUPCDevMat A, PetscScalar *d)
{
  PetscFunctionBegin;
  PetscCall(A->ops->getdiagonal(A->block, d));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevMatUpdateValues - new values on the same nonzero pattern

   Not Collective

   Input Parameters:
+  A - the matrix
.  a - the nnz values in CSR order
-  device - a is a device array

   Notes:
   A matrix built from device CSR keeps no host row pointers: host values go to a device copy first, then the device
   path lays them.

   Level: developer
@*/
PetscErrorCode GPUPCDevMatUpdateValues(GPUPCDevMat A, const PetscScalar *a, PetscBool device)
{
  GPUPCCSR csr;

  PetscFunctionBegin;
  if (!device && !A->h_i) {
    PetscScalar *da;

    PetscCall(GPUPCMallocArray(A->nnz, &da));
    PetscCall(GPUPCCopyToDevice(da, a, A->nnz));
    PetscCall(GPUPCDevMatUpdateValues(A, da, PETSC_TRUE));
    PetscCall(GPUPCFree(da)); /* stream-ordered: after the kernels that read it */
    PetscFunctionReturn(0);
  }
  PetscCall(PetscMemzero(&csr, sizeof(csr)));
  csr.m      = A->m;
  csr.n      = A->n;
  csr.nnz    = A->nnz;
  csr.i      = A->h_i;
  csr.a      = a;
  csr.device = device;
  PetscCall(A->ops->upload(&csr, A->block));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevMatGetBlock - the format's table and the block (for a format's own fused kernels)

   Level: developer
@*/
PetscErrorCode GPUPCDevMatGetBlock(GPUPCDevMat A, const GPUPCMatBlockOps **ops, void **block)
{
  PetscFunctionBegin;
  if (ops) *ops = A->ops;
  if (block) *block = A->block;
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevMatViewFormat - one line: the format, why it was chosen, its kernels and device memory (-ksp_view of cmg and
   gpuamg, a line per level)

   Level: developer
@*/
PetscErrorCode GPUPCDevMatViewFormat(GPUPCDevMat A, const char *label, PetscViewer viewer)
{
  const char *kname;

  PetscFunctionBegin;
  PetscCall(A->ops->kernelsname(&kname));
  PetscCall(PetscViewerASCIIPrintf(viewer, "%s: %s (%s), %s kernels, %.3g MB\n", label, A->ops->name, A->reason, kname, (double)A->bytes / 1048576.0));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevMatView - GPUPCDevMatViewFormat(), then the format's statistics of the block

   Level: developer
@*/
PetscErrorCode GPUPCDevMatView(GPUPCDevMat A, const char *label, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscCall(GPUPCDevMatViewFormat(A, label, viewer));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(A->ops->view(A->block, label, PETSC_FALSE, viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevMatDestroy - frees the matrix (NULL allowed)

   Level: developer
@*/
PetscErrorCode GPUPCDevMatDestroy(GPUPCDevMat *A)
{
  PetscFunctionBegin;
  if (!*A) PetscFunctionReturn(0);
  if ((*A)->block) PetscCall((*A)->ops->destroy((*A)->block));
  PetscCall(PetscFree((*A)->block));
  PetscCall(PetscFree((*A)->h_i));
  PetscCall(PetscFree(*A));
  PetscFunctionReturn(0);
}

/*
   A Mat view of a GPUPCDevMat (gpupc/devmat.h): a sequential MATSHELL whose products, transpose products and diagonal
   run the format's device kernels on gpu Vecs. The device setups' level matrices, prolongators and restrictions are
   held so on the cuda backend: a multigrid cycle written with MatMult()/MatMultAdd() applies them, and no host copy of
   their entries exists (the host AIJ levels are made only where a reader needs them, e.g. PC gpuamg's
   -pc_gpuamg_keep_host_levels).
*/
#include <gpupc/devmat.h>
#include <petscgpupc.h>

static PetscErrorCode ShellDevMat(Mat M, GPUPCDevMat *dm)
{
  void *ctx;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(M, &ctx));
  *dm = (GPUPCDevMat)ctx;
  PetscFunctionReturn(0);
}

/* y = A x + z (z NULL: y = A x) */
static PetscErrorCode MultAdd_DevMatShell(Mat M, Vec x, Vec z, Vec y)
{
  GPUPCDevMat        dm = NULL;
  const PetscScalar *dx, *dz = NULL;
  PetscScalar       *dy;

  PetscFunctionBegin;
  PetscCall(ShellDevMat(M, &dm));
  PetscCall(VecGPUGetDeviceArrayRead(x, &dx));
  if (z == y) {
    PetscCall(VecGPUGetDeviceArray(y, &dy));
    dz = dy;
  } else {
    if (z) PetscCall(VecGPUGetDeviceArrayRead(z, &dz));
    PetscCall(VecGPUGetDeviceArrayWrite(y, &dy));
  }
  PetscCall(GPUPCDevMatMult(dm, dx, dz, dy));
  if (z == y) PetscCall(VecGPURestoreDeviceArray(y, &dy));
  else {
    PetscCall(VecGPURestoreDeviceArrayWrite(y, &dy));
    if (z) PetscCall(VecGPURestoreDeviceArrayRead(z, &dz));
  }
  PetscCall(VecGPURestoreDeviceArrayRead(x, &dx));
  PetscFunctionReturn(0);
}

static PetscErrorCode Mult_DevMatShell(Mat M, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MultAdd_DevMatShell(M, x, NULL, y));
  PetscFunctionReturn(0);
}

/* y = z + A^T x (z NULL: y = A^T x). The format tables have only y += B^T x (GPUPCMatBlockOps.multtransposeadd), and
   it cannot overwrite: segcsr, hec and bcsr scatter each stored entry's product into y[column] with atomicAdd, so
   an entry of y receives contributions from threads of every row, and zeroing inside that launch would race with
   them. Hence the zeroing pass (a device VecSet, no host copy) before the kernel when there is no z. */
static PetscErrorCode MultTransposeAdd_DevMatShell(Mat M, Vec x, Vec z, Vec y)
{
  GPUPCDevMat        dm = NULL;
  const PetscScalar *dx;
  PetscScalar       *dy;

  PetscFunctionBegin;
  PetscCall(ShellDevMat(M, &dm));
  if (!z) PetscCall(VecZeroEntries(y));
  else if (z != y) PetscCall(VecCopy(z, y));
  PetscCall(VecGPUGetDeviceArrayRead(x, &dx));
  PetscCall(VecGPUGetDeviceArray(y, &dy));
  PetscCall(GPUPCDevMatMultTransposeAdd(dm, dx, dy));
  PetscCall(VecGPURestoreDeviceArray(y, &dy));
  PetscCall(VecGPURestoreDeviceArrayRead(x, &dx));
  PetscFunctionReturn(0);
}

static PetscErrorCode MultTranspose_DevMatShell(Mat M, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MultTransposeAdd_DevMatShell(M, x, NULL, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode GetDiagonal_DevMatShell(Mat M, Vec d)
{
  GPUPCDevMat  dm = NULL;
  PetscScalar *dd;

  PetscFunctionBegin;
  PetscCall(ShellDevMat(M, &dm));
  PetscCheck(dm->m == dm->n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "the diagonal of a %" PetscInt_FMT " x %" PetscInt_FMT " device matrix: it must be square", dm->m, dm->n);
  PetscCall(VecGPUGetDeviceArrayWrite(d, &dd));
  PetscCall(GPUPCDevMatGetDiagonal(dm, dd));
  PetscCall(VecGPURestoreDeviceArrayWrite(d, &dd));
  PetscFunctionReturn(0);
}

/* the stored entries (what a product reads) and the device memory of the block */
static PetscErrorCode GetInfo_DevMatShell(Mat M, MatInfoType flag, MatInfo *info)
{
  GPUPCDevMat dm = NULL;

  PetscFunctionBegin;
  PetscCall(ShellDevMat(M, &dm));
  PetscCall(PetscMemzero(info, sizeof(*info)));
  info->block_size   = (PetscLogDouble)dm->bs;
  info->nz_allocated = (PetscLogDouble)dm->nnz;
  info->nz_used      = (PetscLogDouble)dm->nnz;
  info->memory       = (PetscLogDouble)dm->bytes;
  PetscFunctionReturn(0);
}

static PetscErrorCode View_DevMatShell(Mat M, PetscViewer viewer)
{
  GPUPCDevMat dm = NULL;
  PetscBool   ascii;

  PetscFunctionBegin;
  PetscCall(ShellDevMat(M, &dm));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (ascii) PetscCall(GPUPCDevMatView(dm, "device matrix", viewer));
  PetscFunctionReturn(0);
}

static PetscErrorCode Destroy_DevMatShell(void *ctx)
{
  GPUPCDevMat dm = (GPUPCDevMat)ctx;

  PetscFunctionBegin;
  PetscCall(GPUPCDevMatDestroy(&dm));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevMatCreateMat - a sequential Mat (MATSHELL) that applies a GPUPCDevMat and owns it

   Collective on PETSC_COMM_SELF

   Input Parameter:
.  dm - the device matrix; the Mat takes it over (it is destroyed with the Mat)

   Output Parameter:
.  M - the Mat: MatMult(), MatMultAdd(), MatMultTranspose(), MatMultTransposeAdd() and MatGetDiagonal() on gpu Vecs
       run the format's kernels; MatGetInfo() gives the stored entries; MatCreateVecs() gives gpu Vecs

   Notes:
   The entries exist on the device only: MatGetRow(), conversions and host products are not available (the shell
   raises PETSC_ERR_SUP for them). Values change with GPUPCDevMatUpdateValues() on GPUPCDevMatFromMat()'s matrix.

   Level: developer

.seealso: GPUPCDevMatCreateFromDeviceCSR(), GPUPCDevMatFromMat()
@*/
PetscErrorCode GPUPCDevMatCreateMat(GPUPCDevMat dm, Mat *M)
{
  PetscFunctionBegin;
  PetscCall(MatCreateShell(PETSC_COMM_SELF, dm->m, dm->n, dm->m, dm->n, dm, M));
  PetscCall(MatShellSetContextDestroy(*M, Destroy_DevMatShell));
  PetscCall(MatShellSetVecType(*M, VECGPU));
  PetscCall(MatShellSetOperation(*M, MATOP_MULT, (void (*)(void))Mult_DevMatShell));
  PetscCall(MatShellSetOperation(*M, MATOP_MULT_ADD, (void (*)(void))MultAdd_DevMatShell));
  PetscCall(MatShellSetOperation(*M, MATOP_MULT_TRANSPOSE, (void (*)(void))MultTranspose_DevMatShell));
  PetscCall(MatShellSetOperation(*M, MATOP_MULT_TRANSPOSE_ADD, (void (*)(void))MultTransposeAdd_DevMatShell));
  PetscCall(MatShellSetOperation(*M, MATOP_GET_DIAGONAL, (void (*)(void))GetDiagonal_DevMatShell));
  PetscCall(MatShellSetOperation(*M, MATOP_GETINFO, (void (*)(void))GetInfo_DevMatShell));
  PetscCall(MatShellSetOperation(*M, MATOP_VIEW, (void (*)(void))View_DevMatShell));
  if (dm->bs > 1) PetscCall(MatSetBlockSize(*M, dm->bs));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevMatFromMat - the GPUPCDevMat of a Mat made by GPUPCDevMatCreateMat(), or NULL for any other Mat

   Not Collective

   Level: developer
@*/
PetscErrorCode GPUPCDevMatFromMat(Mat M, GPUPCDevMat *dm)
{
  PetscBool shell;
  void     *ctx   = NULL;
  void (*f)(void) = NULL;

  PetscFunctionBegin;
  *dm = NULL;
  PetscCall(PetscObjectTypeCompare((PetscObject)M, MATSHELL, &shell));
  if (!shell) PetscFunctionReturn(0);
  PetscCall(MatShellGetOperation(M, MATOP_MULT, &f));
  if (f != (void (*)(void))Mult_DevMatShell) PetscFunctionReturn(0);
  PetscCall(MatShellGetContext(M, &ctx));
  *dm = (GPUPCDevMat)ctx;
  PetscFunctionReturn(0);
}

/*
   The inverses of the diagonal blocks of a rank's local rows on the device (GPUPCPBJBlocks, gpupc/gpubjacobikernels.h):
   their setup (the blocks read and inverted on the host by gpubjacobiinvert.c, then uploaded once), their application
   y = D_B^-1 x (or D_B^-T x) by the kernel table, and their release. Shared by PC gpubjacobi and PC gpuamg's bjacobi
   smoother, so both build and apply the blocks in one way.
*/
#include <gpupc/gpubjacobi.h>
#include <gpupc/stage.h>
#include <gpupc/vecgpu.h>
#include <gpupc/threads.h>

/*@C
   GPUPCPBJBlocksSetUp - (re)computes the inverses of the diagonal blocks of bs rows of A's local rows on the device

   Collective on A

   Input Parameters:
+  A      - the matrix (square, with a square local diagonal block; blocks never cross ranks)
.  bs     - block size, 1 .. GPUPC_PBJ_MAX_BS (the last block of a rank has fewer rows when bs does not divide its rows)
-  logobj - the object the setup's events (GPUBJacInvert, GPUBJacUpload) are logged on, or NULL

   Input/Output Parameter:
.  D - the blocks: zeroed before the first setup; storage of the same size is reused

   Output Parameter:
.  threads - the host threads the inversion used (may be NULL)

   Notes:
   A singular block is an error on every rank naming its rows (GPUPCPBJInvertBlocks()); D then holds nothing.

   Level: developer

.seealso: GPUPCPBJBlocksApply(), GPUPCPBJBlocksDestroy(), PCGPUBJACOBI
@*/
PetscErrorCode GPUPCPBJBlocksSetUp(Mat A, PetscInt bs, PetscObject logobj, GPUPCPBJBlocks *D, PetscInt *threads)
{
  PetscInt       m, ld, nt, nblocks;
  PetscScalar   *h;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCheck(bs >= 1 && bs <= GPUPC_PBJ_MAX_BS, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_OUTOFRANGE, "the diagonal blocks inverted on the device have 1 to %d rows; block size %" PetscInt_FMT " asked for", GPUPC_PBJ_MAX_BS, bs);
  PetscCall(MatGetLocalSize(A, &m, NULL));
  ld = ((m + 31) / 32) * 32;
  if (D->inv && (D->ld != ld || D->bs != bs)) PetscCall(GPUPCPBJBlocksDestroy(D));
  if (!D->inv && ld > 0) PetscCall(GPUPCMallocArray((size_t)ld * bs, &D->inv));
  D->n    = m;
  D->bs   = bs;
  D->ld   = ld;
  nblocks = (m + bs - 1) / bs;
  /* threads only when the inversion is worth a parallel region: ~3 bs^3 flops per block; below ~4 Mflop (a few ms on
     one core) one thread (starting and joining the threads would cost more than it saves) */
  PetscCall(GPUPCDefaultHostThreads(&nt));
  if ((double)nblocks * bs * bs * bs < 4.0e6 / 3.0) nt = 1;
  if (threads) *threads = nt;
  /* the inverses on the host, in the device layout (zeros where a partial last block has no entries) */
  PetscCall(PetscCalloc1((size_t)ld * bs, &h));
  PetscCall(PetscLogEventBegin(PC_GPUBJacobi_Invert, logobj, 0, 0, 0));
  ierr = GPUPCPBJInvertBlocks(A, bs, ld, nt, h);
  PetscCall(PetscLogEventEnd(PC_GPUBJacobi_Invert, logobj, 0, 0, 0));
  if (ierr) { /* a singular block: nothing usable is left */
    PetscCall(PetscFree(h));
    PetscCall(GPUPCPBJBlocksDestroy(D));
    PetscCall(ierr);
  }
  PetscCall(PetscLogFlops(2.0 * (PetscLogDouble)m * bs * bs));
  PetscCall(PetscLogEventBegin(PC_GPUBJacobi_Upload, logobj, 0, 0, 0));
  if (ld > 0) PetscCall(GPUPCStageCopyToDevice(0, (size_t)ld * bs, h, sizeof(PetscScalar), D->inv, sizeof(PetscScalar)));
  PetscCall(PetscLogEventEnd(PC_GPUBJacobi_Upload, logobj, 0, 0, 0));
  PetscCall(PetscFree(h));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCPBJBlocksApply - y_k = B_k^-1 x_k (transpose: B_k^-T x_k) on every diagonal block k, by the device kernels

   Not Collective

   Input Parameters:
+  D         - blocks set up by GPUPCPBJBlocksSetUp()
.  transpose - apply the transposed inverses
.  logobj    - the object the event GPUBJacApply is logged on, or NULL
-  x         - the vector (local length D->n; any Vec type: gpu Vecs are read in place, others staged)

   Output Parameter:
.  y - the result (must not be x)

   Level: developer

.seealso: GPUPCPBJBlocksSetUp(), GPUPCPBJBlocksDestroy()
@*/
PetscErrorCode GPUPCPBJBlocksApply(const GPUPCPBJBlocks *D, PetscBool transpose, PetscObject logobj, Vec x, Vec y)
{
  const GPUPCPBJKernels *K;
  const PetscScalar     *dx;
  PetscScalar           *dy;
  PetscInt               n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCheck(n == D->n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "block Jacobi on the device: vector of local length %" PetscInt_FMT ", the blocks were set up for %" PetscInt_FMT " local rows", n, D->n);
  PetscCheck(x != y, PETSC_COMM_SELF, PETSC_ERR_ARG_IDN, "block Jacobi on the device: x and y must be different vectors");
  PetscCall(GPUPCGetPBJKernels(&K));
  PetscCall(PetscLogEventBegin(PC_GPUBJacobi_Apply, logobj, x, y, 0));
  PetscCall(VecGPUGetDeviceArrayRead(x, &dx));
  PetscCall(VecGPUGetDeviceArrayWrite(y, &dy));
  if (transpose) PetscCall(K->apply_transpose(D, dx, dy));
  else PetscCall(K->apply(D, dx, dy));
  PetscCall(VecGPURestoreDeviceArrayWrite(y, &dy));
  PetscCall(VecGPURestoreDeviceArrayRead(x, &dx));
  PetscCall(PetscLogEventEnd(PC_GPUBJacobi_Apply, logobj, x, y, 0));
  PetscCall(PetscLogFlops(2.0 * (PetscLogDouble)n * D->bs));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCPBJBlocksDestroy - frees the device inverses of GPUPCPBJBlocksSetUp() and zeroes D

   Not Collective

   Level: developer

.seealso: GPUPCPBJBlocksSetUp()
@*/
PetscErrorCode GPUPCPBJBlocksDestroy(GPUPCPBJBlocks *D)
{
  PetscFunctionBegin;
  PetscCall(GPUPCFree(D->inv));
  D->inv = NULL;
  D->n = D->bs = D->ld = 0;
  PetscFunctionReturn(0);
}

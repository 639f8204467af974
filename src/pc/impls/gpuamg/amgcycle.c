/*
   PC gpuamg's cycles on the device (docs/algorithms.md 4.2). Visit(l, kind, zero) improves level l's iterate x_l for
   its right-hand side b_l (from x_l = 0 when zero):

     l last:   x_l = inv(A_l) b_l                              (dense inverse, amgcoarse.c)
     else:     pre sweeps of the smoother                       (from zero: the first skips its product)
               b_{l+1} = R_l (b_l - A_l x_l)                    (residual kernel, then the product with R = P^T)
               V: Visit(l+1, V, zero)
               W: Visit(l+1, W, zero), Visit(l+1, W, from x_{l+1})
               F: Visit(l+1, F, zero), Visit(l+1, V, from x_{l+1})
               x_l += P_l x_{l+1}                               (MatMultAdd in place)
               post sweeps of the smoother

   The second coarse visit of W and F is left out when level l+1 is the last (the dense solve would repeat itself).
   The transposed cycle (PCApplyTranspose) is the cycle of A^T with the same R and P (R = P^T), the pre and post sweep
   counts exchanged, and for F the two coarse visits in the other order (V, then F): every operator of the cycle is
   transposed and their order reversed, so it applies exactly the transpose of the cycle's linear operator.

   On one rank and the cuda backend every operation of the cycle only launches kernels (the segcsr products, the
   kernels of gpupc/amgkernels.h, device-to-device copies), so the cycle is recorded once as a CUDA graph (at the
   second application; the first one runs directly and leaves every level matrix and vector on the device) and
   replayed by one launch; b and x of the user are copied into and out of level 0's vectors around it.
*/
#include <gpupc/amgcycle.h>

/* GPUPCAMGCountProduct - while counting, add what a product with M must move at least: its stored entries (value and
   column index), the input vector and the output (read and written again when add) */
PetscErrorCode GPUPCAMGCountProduct(GPUPCAMGDevice *D, Mat M, PetscBool add)
{
  MatInfo  info;
  PetscInt m, n;

  PetscFunctionBegin;
  if (!D->counting) PetscFunctionReturn(0);
  PetscCall(MatGetInfo(M, MAT_GLOBAL_SUM, &info));
  PetscCall(MatGetSize(M, &m, &n));
  D->cyclebytes += info.nz_used * (sizeof(PetscScalar) + sizeof(PetscInt)) + (PetscReal)sizeof(PetscScalar) * (n + (add ? 2 : 1) * m);
  PetscFunctionReturn(0);
}

static PetscErrorCode Visit(GPUPCAMGDevice *D, PetscInt l, PCGPUAMGCycleType kind, PetscBool transpose, PetscBool zero)
{
  GPUPCAMGDeviceLevel *L   = &D->levels[l], *C;
  const PetscInt       pre = transpose ? D->opts.post : D->opts.pre, post = transpose ? D->opts.pre : D->opts.post;
  const PetscBool      nextlast = (PetscBool)(l + 1 == D->nlevels - 1);

  PetscFunctionBegin;
  if (l == D->nlevels - 1) {
    PetscCall(GPUPCAMGCoarseSolve(D, transpose));
    PetscFunctionReturn(0);
  }
  C = &D->levels[l + 1];
  PetscCall(GPUPCAMGSmooth(D, l, transpose, pre, zero));
  /* r = b - A x, b_{l+1} = R r */
  PetscCall(PetscLogEventBegin(PC_GPUAMG_Restrict, 0, 0, 0, 0));
  if (transpose) PetscCall(MatMultTranspose(L->A, L->x, L->r));
  else PetscCall(MatMult(L->A, L->x, L->r));
  PetscCall(GPUPCAMGCountProduct(D, L->A, PETSC_FALSE));
  GPUPCAMGCountBytes(D, 3.0 * sizeof(PetscScalar) * L->N);
  {
    const PetscScalar *b;
    PetscScalar       *r;
    PetscCall(VecGPUGetDeviceArrayRead(L->b, &b));
    PetscCall(VecGPUGetDeviceArray(L->r, &r));
    PetscCall(D->k->residual(L->n, b, r));
    PetscCall(VecGPURestoreDeviceArray(L->r, &r));
    PetscCall(VecGPURestoreDeviceArrayRead(L->b, &b));
  }
  PetscCall(MatMult(L->R, L->r, C->b));
  PetscCall(GPUPCAMGCountProduct(D, L->R, PETSC_FALSE));
  PetscCall(PetscLogEventEnd(PC_GPUAMG_Restrict, 0, 0, 0, 0));
  switch (kind) {
  case PC_GPUAMG_CYCLE_V: PetscCall(Visit(D, l + 1, PC_GPUAMG_CYCLE_V, transpose, PETSC_TRUE)); break;
  case PC_GPUAMG_CYCLE_W:
    PetscCall(Visit(D, l + 1, PC_GPUAMG_CYCLE_W, transpose, PETSC_TRUE));
    if (!nextlast) PetscCall(Visit(D, l + 1, PC_GPUAMG_CYCLE_W, transpose, PETSC_FALSE));
    break;
  case PC_GPUAMG_CYCLE_F:
    PetscCall(Visit(D, l + 1, transpose ? PC_GPUAMG_CYCLE_V : PC_GPUAMG_CYCLE_F, transpose, PETSC_TRUE));
    if (!nextlast) PetscCall(Visit(D, l + 1, transpose ? PC_GPUAMG_CYCLE_F : PC_GPUAMG_CYCLE_V, transpose, PETSC_FALSE));
    break;
  }
  PetscCall(PetscLogEventBegin(PC_GPUAMG_Prolong, 0, 0, 0, 0));
  PetscCall(MatMultAdd(L->P, C->x, L->x, L->x));
  PetscCall(GPUPCAMGCountProduct(D, L->P, PETSC_TRUE));
  PetscCall(PetscLogEventEnd(PC_GPUAMG_Prolong, 0, 0, 0, 0));
  PetscCall(GPUPCAMGSmooth(D, l, transpose, post, PETSC_FALSE));
  PetscFunctionReturn(0);
}

/* dst = src (local values, any vector types) */
static PetscErrorCode CopyLocal(Vec src, Vec dst)
{
  const PetscScalar *s;
  PetscScalar       *d;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(src, &n));
  PetscCall(VecGPUGetDeviceArrayRead(src, &s));
  PetscCall(VecGPUGetDeviceArrayWrite(dst, &d));
  if (n) PetscCall(GPUPCCopyOnDevice(d, s, n));
  PetscCall(VecGPURestoreDeviceArrayWrite(dst, &d));
  PetscCall(VecGPURestoreDeviceArrayRead(src, &s));
  PetscFunctionReturn(0);
}

/* the cycle recorded once (second application), then replayed */
static PetscErrorCode RunRecorded(GPUPCAMGDevice *D)
{
  PetscErrorCode ierr;

  PetscFunctionBegin;
  if (!D->graph) {
    PetscCall(GPUPCGraphBeginCapture());
    ierr = Visit(D, 0, D->opts.cycle, PETSC_FALSE, PETSC_TRUE);
    if (ierr) {
      GPUPCGraph none;
      (void)GPUPCGraphEndCapture(PETSC_FALSE, &none);
      PetscCall(ierr);
    }
    PetscCall(GPUPCGraphEndCapture(PETSC_TRUE, &D->graph));
  }
  PetscCall(GPUPCGraphLaunch(D->graph));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDeviceApply - one cycle from a zero initial guess: x = M b (transpose: x = M^T b)

   Collective

   Input Parameters:
+  D - the device hierarchy
.  transpose - apply the transpose of the cycle
-  b - right-hand side (any vector type; gpu vectors without a copy to the host)

   Output Parameter:
.  x - the result

   Level: developer
@*/
PetscErrorCode GPUPCAMGDeviceApply(GPUPCAMGDevice *D, PetscBool transpose, Vec b, Vec x)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PC_GPUAMG_Cycle, b, x, 0, 0));
  PetscCall(CopyLocal(b, D->levels[0].b));
  if (!transpose && D->usegraph && D->applies > 0) PetscCall(RunRecorded(D));
  else {
    D->counting = (PetscBool)(!transpose && D->applies == 0);
    if (D->counting) D->cyclebytes = 0;
    PetscCall(Visit(D, 0, D->opts.cycle, transpose, PETSC_TRUE));
    D->counting = PETSC_FALSE;
  }
  PetscCall(CopyLocal(D->levels[0].x, x));
  if (!transpose) D->applies++;
  PetscCall(PetscLogEventEnd(PC_GPUAMG_Cycle, b, x, 0, 0));
  PetscFunctionReturn(0);
}

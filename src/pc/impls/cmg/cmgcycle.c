/*
   The CMG cycle (ALGORITHMS.md 2.3) on the device, through the kernel table only:

     P(b, k, m):
       k last: x = dense * b (or x = invD .* b when the hierarchy stagnated)
       for j = 1 .. m:
         x = (j == 1) ? invD .* b : x + invD .* (b - A x)
         b_{k+1} = R (b - A x)            fused residual + cluster-sorted restriction
         x_{k+1} = P(b_{k+1}, k+1, t_k)
         x += x_{k+1}[c(.)]               prolongation gather
         x = x + invD .* (b - A x)

   With -pc_cmg_mat_type segcsr the residual comes from the segcsr SpMV (of -A_k, with b as the
   added vector) and is then restricted or applied (two passes instead of one fused pass).
   The finest level runs once per application. No host round trip inside a cycle: the
   host only launches kernels and swaps the two iterate buffers of a level. On the cuda
   backend the cycle is recorded once as a CUDA graph (GPUPCCMGDeviceRecord) and replayed.
*/
#include <gpupc/cmg.h>
#include "../../../mat/impls/segcsr/segcsrimpl.h"

/* L->r = b - A x through the segcsr SpMV of -A (y = (-A) x + b) */
static PetscErrorCode SegResidual(GPUPCCMGDeviceLevel *L, const void *x)
{
  const GPUPCSegCSRKernels *S;

  PetscFunctionBegin;
  PetscCall(GPUPCGetSegCSRKernels(&S));
  PetscCall(S->mult(&((GPUPCSegCSRBlock *)L->seg)->d, (const PetscScalar *)x, (const PetscScalar *)L->b, (PetscScalar *)L->r));
  PetscFunctionReturn(0);
}

static PetscErrorCode ResidualRestrict(const GPUPCCMGKernels *K, GPUPCCMGDeviceLevel *L, void *bc)
{
  PetscFunctionBegin;
  if (L->seg) {
    PetscCall(SegResidual(L, L->x));
    PetscCall(K->cluster_sum(L, L->r, bc));
  } else PetscCall(K->residual_restrict(L, bc));
  PetscFunctionReturn(0);
}

static PetscErrorCode Smooth(const GPUPCCMGKernels *K, GPUPCCMGDeviceLevel *L)
{
  void *t;

  PetscFunctionBegin;
  if (L->seg) {
    PetscCall(SegResidual(L, L->x));
    PetscCall(K->update(L, L->r, L->x, L->w));
  } else PetscCall(K->smooth(L, L->x, L->w));
  t    = L->x;
  L->x = L->w;
  L->w = t;
  PetscFunctionReturn(0);
}

static PetscErrorCode Cycle(const GPUPCCMGKernels *K, GPUPCCMGDevice *D, PetscInt k, PetscInt m)
{
  GPUPCCMGDeviceLevel *L = &D->levels[k];

  PetscFunctionBegin;
  if (k == D->nlevels - 1) {
    if (L->direct) PetscCall(K->dense_solve(L));
    else PetscCall(K->jacobi(L));
    PetscFunctionReturn(0);
  }
  for (PetscInt j = 0; j < m; j++) {
    if (j == 0) PetscCall(K->jacobi(L));
    else PetscCall(Smooth(K, L));
    PetscCall(ResidualRestrict(K, L, D->levels[k + 1].b));
    PetscCall(Cycle(K, D, k + 1, L->t));
    PetscCall(K->prolong(L, D->levels[k + 1].x));
    PetscCall(Smooth(K, L));
  }
  PetscFunctionReturn(0);
}

/* floating-point operations of one visit of level k that iterates m times (for PetscLogFlops) */
static PetscLogDouble CycleFlops(const GPUPCCMGDevice *D, PetscInt k, PetscInt m)
{
  const GPUPCCMGDeviceLevel *L = &D->levels[k];
  PetscLogDouble             f = 0.0;

  if (k == D->nlevels - 1) return L->direct ? 2.0 * (PetscLogDouble)L->n * L->n : (PetscLogDouble)L->n;
  for (PetscInt j = 0; j < m; j++) {
    f += j == 0 ? L->n : 2.0 * L->nnz + 3.0 * L->n; /* first Jacobi step or a smoothing step */
    f += 2.0 * L->nnz + L->n;                       /* residual + restriction */
    f += CycleFlops(D, k + 1, L->t);
    f += L->n + 2.0 * L->nnz + 3.0 * L->n;          /* prolongation + smoothing */
  }
  return f;
}

/*
   GPUPCCMGDeviceRecord - records the cycle P(b0, 0, 1) once as a CUDA graph, so that an application replays it with
   one launch instead of one launch per kernel (thousands on deep W-cycles). The cycle only reads and writes the
   level buffers, whose addresses never change, so the recording stays valid until GPUPCCMGDeviceFree; the user's
   vectors are touched only by expand and fold, outside the recording. The host swaps the two iterate buffers of a
   level while it records; the replay leaves level 0's iterate where the recording ended (xcycle).
*/
PetscErrorCode GPUPCCMGDeviceRecord(GPUPCCMGDevice *D)
{
  const GPUPCCMGKernels *K;
  PetscErrorCode         ierr;

  PetscFunctionBegin;
  PetscCall(GPUPCGraphDestroy(&D->graph));
  PetscCall(GPUPCGetCMGKernels(&K));
  PetscCall(GPUPCGraphBeginCapture());
  ierr = Cycle(K, D, 0, 1);
  PetscCall(GPUPCGraphEndCapture(ierr ? PETSC_FALSE : PETSC_TRUE, &D->graph));
  PetscCall(ierr);
  D->xcycle = D->levels[0].x;
  PetscFunctionReturn(0);
}

/* x = P b (or P^T b) for the user's vectors (device pointers of length red.n) */
PetscErrorCode GPUPCCMGDeviceApply(GPUPCCMGDevice *D, PetscBool transpose, const PetscScalar *b, PetscScalar *x)
{
  const GPUPCCMGKernels *K;

  PetscFunctionBegin;
  PetscCall(GPUPCGetCMGKernels(&K));
  PetscCall(PetscLogEventBegin(PC_CMG_Cycle, 0, 0, 0, 0));
  PetscCall(K->expand(&D->fold, transpose, b, D->levels[0].b));
  if (D->graph) PetscCall(GPUPCGraphLaunch(D->graph));
  else PetscCall(Cycle(K, D, 0, 1));
  PetscCall(K->fold(&D->fold, transpose, b, D->graph ? D->xcycle : D->levels[0].x, x));
  PetscCall(PetscLogFlops(CycleFlops(D, 0, 1)));
  PetscCall(PetscLogEventEnd(PC_CMG_Cycle, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*
   The distributed CMG cycle (ALGORITHMS.md 2.3 and 2.4), on the device:

     P(b, k, m):
       k last: gather b to every rank, x = dense * b (redundant), or x = invD .* b (stagnation)
       for j = 1 .. m:
         x = (j == 1) ? invD .* b : x + invD .* (b - A x)
         b_{k+1} = R (b - A x)          rank-local cluster sums (R is block diagonal by rank)
         x_{k+1} = P(b_{k+1}, k+1, t_k)
         x += x_{k+1}[c(.)]             rank-local prolongation gather
         x = x + invD .* (b - A x)

   b - A x: the segcsr SpMV of the diagonal block of -A_k with b as the added vector, overlapped
   with the device halo exchange of x, then the off-diagonal block's product on the ghosts.
   The host only launches kernels, runs the halo exchange (PetscSF over host staging buffers,
   gpupc/matgpu.h) and the coarse gather (MPI_Allgatherv of the small last level's right-hand
   side, staged through the host).
*/
#include <gpupc/cmgmpi.h>
#include "../../../../mat/impls/segcsr/segcsrimpl.h"

/* D->r = D->b - A x */
static PetscErrorCode Residual(GPUPCCMGMPIDeviceLevel *DL, const void *x)
{
  const GPUPCSegCSRKernels *S;
  GPUPCSegCSRBlock         *bd = (GPUPCSegCSRBlock *)DL->diag, *bo = (GPUPCSegCSRBlock *)DL->offd;
  const PetscScalar        *dg;

  PetscFunctionBegin;
  PetscCall(GPUPCGetSegCSRKernels(&S));
  PetscCall(GPUPCHaloForwardBegin(DL->halo, (const PetscScalar *)x));
  if (DL->k.n > 0) PetscCall(S->mult(&bd->d, (const PetscScalar *)x, (const PetscScalar *)DL->k.b, (PetscScalar *)DL->k.r));
  PetscCall(GPUPCHaloForwardEnd(DL->halo, &dg));
  if (bo->d.nnz > 0) PetscCall(S->mult(&bo->d, dg, (const PetscScalar *)DL->k.r, (PetscScalar *)DL->k.r));
  PetscFunctionReturn(0);
}

static PetscErrorCode Smooth(const GPUPCCMGKernels *K, GPUPCCMGMPIDeviceLevel *DL)
{
  void *t;

  PetscFunctionBegin;
  PetscCall(Residual(DL, DL->k.x));
  PetscCall(K->update(&DL->k, DL->k.r, DL->k.x, DL->k.w));
  t       = DL->k.x;
  DL->k.x = DL->k.w;
  DL->k.w = t;
  PetscFunctionReturn(0);
}

/* this rank's part of level k's right-hand side and iterate */
static inline PetscScalar *LocalB(GPUPCCMGMPIDeviceLevel *DL)
{
  return (PetscScalar *)DL->k.b + DL->offset;
}
static inline PetscScalar *LocalX(GPUPCCMGMPIDeviceLevel *DL)
{
  return (PetscScalar *)DL->k.x + DL->offset;
}

/* the gathered last level: every rank gets the whole right-hand side */
static PetscErrorCode Gather(GPUPCCMGMPI M, GPUPCCMGMPIDeviceLevel *DL)
{
  const GPUPCCMGMPILevel *L = &M->levels[M->nlevels - 1];

  PetscFunctionBegin;
  if (L->n > 0) PetscCall(GPUPCCopyToHost(M->h_part, LocalB(DL), L->n));
  PetscCallMPI(MPI_Allgatherv(M->h_part, M->counts[M->rank], MPIU_SCALAR, M->h_full, M->counts, M->displs, MPIU_SCALAR, M->comm));
  if (L->N > 0) PetscCall(GPUPCCopyToDevice((PetscScalar *)DL->k.b, M->h_full, L->N));
  PetscFunctionReturn(0);
}

static PetscErrorCode Cycle(const GPUPCCMGKernels *K, GPUPCCMGMPI M, PetscInt k, PetscInt m)
{
  GPUPCCMGMPIDeviceLevel *DL = &M->dlev[k];

  PetscFunctionBegin;
  if (k == M->nlevels - 1) {
    if (DL->k.direct) {
      PetscCall(Gather(M, DL));
      PetscCall(K->dense_solve(&DL->k));
    } else PetscCall(K->jacobi(&DL->k));
    PetscFunctionReturn(0);
  }
  for (PetscInt j = 0; j < m; j++) {
    GPUPCCMGMPIDeviceLevel *C = &M->dlev[k + 1];
    if (j == 0) PetscCall(K->jacobi(&DL->k));
    else PetscCall(Smooth(K, DL));
    PetscCall(Residual(DL, DL->k.x));
    PetscCall(K->cluster_sum(&DL->k, DL->k.r, LocalB(C)));
    PetscCall(Cycle(K, M, k + 1, DL->k.t));
    PetscCall(K->prolong(&DL->k, LocalX(C)));
    PetscCall(Smooth(K, DL));
  }
  PetscFunctionReturn(0);
}

/* floating-point operations of this rank in one visit of level k that iterates m times */
static PetscLogDouble CycleFlops(const GPUPCCMGMPI M, PetscInt k, PetscInt m)
{
  const GPUPCCMGDeviceLevel *L = &M->dlev[k].k;
  PetscLogDouble             f = 0.0;

  if (k == M->nlevels - 1) return L->direct ? 2.0 * (PetscLogDouble)L->n * L->n : (PetscLogDouble)L->n;
  for (PetscInt j = 0; j < m; j++) {
    f += j == 0 ? L->n : 2.0 * L->nnz + 2.0 * L->n;
    f += 2.0 * L->nnz + L->n;
    f += CycleFlops(M, k + 1, L->t);
    f += L->n + 2.0 * L->nnz + 2.0 * L->n;
  }
  return f;
}

/*
   GPUPCCMGMPIDeviceApply - x = P b (or P^T b) for this rank's part of the user's vectors (device pointers)

   Collective
*/
PetscErrorCode GPUPCCMGMPIDeviceApply(GPUPCCMGMPI M, PetscBool transpose, const PetscScalar *b, PetscScalar *x)
{
  const GPUPCCMGKernels *K;
  const PetscScalar     *bin = b;

  PetscFunctionBegin;
  PetscCheck(!transpose || !M->offrank_coupling, M->comm, PETSC_ERR_SUP, "PC cmg in parallel: PCApplyTranspose() with Dirichlet rows coupled to rows of other ranks is not available; use PCApply() (KSPCG, KSPGMRES), one rank, or -pc_cmg_dirichlet_rows 0 with a symmetric matrix");
  PetscCall(GPUPCGetCMGKernels(&K));
  PetscCall(PetscLogEventBegin(PC_CMG_Cycle, 0, 0, 0, 0));
  if (M->dirhalo) { /* b at the off-rank Dirichlet columns that E needs */
    const PetscScalar *dg;
    PetscCall(GPUPCHaloForwardBegin(M->dirhalo, b));
    PetscCall(GPUPCHaloForwardEnd(M->dirhalo, &dg));
    if (M->red.n > 0) PetscCall(GPUPCCopyOnDevice(M->bext, b, M->red.n));
    if (M->nghostdir > 0) PetscCall(GPUPCCopyOnDevice(M->bext + M->red.n, dg, M->nghostdir));
    bin = M->bext;
  }
  PetscCall(K->expand(&M->fold, transpose, bin, LocalB(&M->dlev[0])));
  PetscCall(Cycle(K, M, 0, 1));
  PetscCall(K->fold(&M->fold, transpose, b, LocalX(&M->dlev[0]), x));
  PetscCall(PetscLogFlops(CycleFlops(M, 0, 1)));
  PetscCall(PetscLogEventEnd(PC_CMG_Cycle, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*
   The distributed CMG cycle (docs/algorithms.md 2.3 and 2.4), on the device:

     P(b, k, m):
       k last: gather b to every rank, x = P_s b with the one-rank CMG cycle of the gathered level
               (redundant on every rank; m times as x += P_s (b - A x)), or x = invD .* b (stagnation)
       for j = 1 .. m:
         x = (j == 1) ? invD .* b : x + invD .* (b - A x)
         b_{k+1} = R (b - A x)          rank-local cluster sums (R is block diagonal by rank)
         x_{k+1} = P(b_{k+1}, k+1, t_k)
         x += x_{k+1}[c(.)]             rank-local prolongation gather
         x = x + invD .* (b - A x)

   b - A x: the level format's SpMV (GPUPCDevMat) of the diagonal block of -A_k with b as the added vector, overlapped
   with the device halo exchange of x, then the off-diagonal block's product on the ghosts.
   The host only launches kernels, runs the halo exchange (PetscSF over host staging buffers,
   gpupc/matgpu.h) and the gather of the last level's right-hand side (MPI_Allgatherv, staged
   through the host; the last level is small).

   Where every exchange of the cycle goes directly between the GPUs (one rank per GPU on one node:
   the halos' direct plan, and the gather as a halo whose ghosts are the other ranks' rows), the
   host takes no part in the cycle at all: it is recorded once as a CUDA graph, as on one rank,
   and each application replays it (-pc_cmg_graph).
*/
#include <gpupc/cmgmpi.h>
#include <gpupc/veckernels.h>

/* D->r = D->b - A x */
static PetscErrorCode Residual(GPUPCCMGMPIDeviceLevel *DL, const void *x)
{
  const PetscScalar *dg;

  PetscFunctionBegin;
  PetscCall(GPUPCHaloForwardBegin(DL->halo, (const PetscScalar *)x));
  if (DL->k.n > 0) PetscCall(GPUPCDevMatMult(DL->diag, (const PetscScalar *)x, (const PetscScalar *)DL->k.b, (PetscScalar *)DL->k.r));
  PetscCall(GPUPCHaloForwardEnd(DL->halo, &dg));
  if (DL->offd->nnz > 0) PetscCall(GPUPCDevMatMult(DL->offd, dg, (const PetscScalar *)DL->k.r, (PetscScalar *)DL->k.r));
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

/* the gathered last level: every rank gets the whole vector src (this rank's part of length n) in M->bfull */
static PetscErrorCode Gather(GPUPCCMGMPI M, const PetscScalar *src)
{
  const GPUPCCMGMPILevel *L = &M->levels[M->nlevels - 1];

  PetscFunctionBegin;
  if (M->gatherhalo) { /* device to device: [ghosts before this rank's rows | src | ghosts after] */
    const PetscScalar *dg;
    const PetscInt     rstart = M->displs[M->rank];
    PetscCall(GPUPCHaloForwardBegin(M->gatherhalo, src));
    PetscCall(GPUPCHaloForwardEnd(M->gatherhalo, &dg));
    if (rstart > 0) PetscCall(GPUPCCopyOnDevice(M->bfull, dg, rstart));
    if (L->n > 0) PetscCall(GPUPCCopyOnDevice(M->bfull + rstart, src, L->n));
    if (L->N - rstart - L->n > 0) PetscCall(GPUPCCopyOnDevice(M->bfull + rstart + L->n, dg + rstart, L->N - rstart - L->n));
    PetscFunctionReturn(0);
  }
  if (L->n > 0) PetscCall(GPUPCCopyToHost(M->h_part, src, L->n));
  PetscCallMPI(MPI_Allgatherv(M->h_part, M->counts[M->rank], MPIU_SCALAR, M->h_full, M->counts, M->displs, MPIU_SCALAR, M->comm));
  if (L->N > 0) PetscCall(GPUPCCopyToDevice(M->bfull, M->h_full, L->N));
  PetscFunctionReturn(0);
}

/* the gathered last level iterates m times with the one-rank cycle P_s of its hierarchy, run redundantly on every rank:
   x = P_s b, then x += P_s (b - A x); once when P_s is an exact (dense) solve */
static PetscErrorCode GatheredSolve(GPUPCCMGMPI M, GPUPCCMGMPIDeviceLevel *DL, PetscInt m)
{
  const GPUPCCMGMPILevel *L = &M->levels[M->nlevels - 1];
  const GPUPCVecKernels  *V;

  PetscFunctionBegin;
  PetscCall(GPUPCGetVecKernels(&V));
  if (M->seq.nlevels == 1 && M->seq.coarse_direct) m = 1;
  for (PetscInt j = 0; j < m; j++) {
    if (j > 0) PetscCall(Residual(DL, DL->k.x));
    PetscCall(Gather(M, j == 0 ? (const PetscScalar *)DL->k.b : (const PetscScalar *)DL->k.r));
    PetscCall(GPUPCCMGDeviceApply(&M->seqdev, PETSC_FALSE, M->bfull, M->xfull));
    if (L->n > 0) PetscCall(V->axpby(L->n, 1.0, M->xfull + L->rstart, j == 0 ? 0.0 : 1.0, (PetscScalar *)DL->k.x));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Cycle(const GPUPCCMGKernels *K, GPUPCCMGMPI M, PetscInt k, PetscInt m)
{
  GPUPCCMGMPIDeviceLevel *DL = &M->dlev[k];

  PetscFunctionBegin;
  if (k == M->nlevels - 1) {
    if (M->gathered) PetscCall(GatheredSolve(M, DL, m));
    else PetscCall(K->jacobi(&DL->k));
    PetscFunctionReturn(0);
  }
  for (PetscInt j = 0; j < m; j++) {
    GPUPCCMGMPIDeviceLevel *C = &M->dlev[k + 1];
    if (j == 0) PetscCall(K->jacobi(&DL->k));
    else PetscCall(Smooth(K, DL));
    PetscCall(Residual(DL, DL->k.x));
    PetscCall(K->cluster_sum(&DL->k, DL->k.r, C->k.b, NULL));
    PetscCall(Cycle(K, M, k + 1, DL->k.t));
    PetscCall(K->prolong(&DL->k, C->k.x));
    PetscCall(Smooth(K, DL));
  }
  PetscFunctionReturn(0);
}

/* no exchange of the cycle needs the host: every level's halo and the gather go directly between the GPUs */
static PetscBool CycleOnDevice(GPUPCCMGMPI M)
{
  for (PetscInt k = 0; k < M->nlevels; k++)
    if (M->dlev[k].halo && !M->dlev[k].halo->peer) return PETSC_FALSE;
  return (PetscBool)(!M->gathered || M->gatherhalo);
}

/* floating-point operations of this rank in one visit of level k that iterates m times */
static PetscLogDouble CycleFlops(const GPUPCCMGMPI M, PetscInt k, PetscInt m)
{
  const GPUPCCMGDeviceLevel *L = &M->dlev[k].k;
  PetscLogDouble             f = 0.0;

  if (k == M->nlevels - 1) return (PetscLogDouble)L->n; /* the one-rank cycle of a gathered level logs its own flops */
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
  PetscCall(K->expand(&M->fold, transpose, bin, (PetscScalar *)M->dlev[0].k.b));
  if (M->usegraph && !M->graph && CycleOnDevice(M)) { /* record once; the cycle only touches the level buffers */
    PetscErrorCode ierr;
    PetscCall(GPUPCGraphBeginCapture());
    ierr = Cycle(K, M, 0, 1);
    PetscCall(GPUPCGraphEndCapture(ierr ? PETSC_FALSE : PETSC_TRUE, &M->graph));
    PetscCall(ierr);
  }
  if (M->graph) PetscCall(GPUPCGraphLaunch(M->graph));
  else PetscCall(Cycle(K, M, 0, 1));
  PetscCall(K->fold(&M->fold, transpose, b, (const PetscScalar *)M->dlev[0].k.x, x));
  PetscCall(PetscLogFlops(CycleFlops(M, 0, 1)));
  PetscCall(PetscLogEventEnd(PC_CMG_Cycle, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

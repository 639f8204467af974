/*
   KSP gpucg: the iteration. Both forms are written once against four steps (update, start of the reduction, local
   wait, global end), which run either as the fused kernels of the vec table on gpu vectors (one host wait per
   reduction) or, for other vectors, as ordinary Vec operations with a split-phase reduction.

   Notation (preconditioner B, operator A): r residual, u = B r, w = A u, p direction, s = A p; pipelined adds
   m = B w, n = A m, q = B s, z = A q. The reduction gives gamma = (r,u), delta = (w,u) and the norms (u,u), (r,r).
   With beta = gamma / gamma_old, (p, A p) = delta - beta gamma / alpha_old and alpha = gamma / (p, A p): the same
   step lengths as KSPCG's in exact arithmetic.
*/
#include <gpupc/gpucg.h>
#include <gpupc/vecgpu.h>

#define NVECS 10

typedef struct {
  KSP                    ksp;
  KSP_GPUCG             *cg;
  PetscBool              fused;
  const GPUPCVecKernels *k;
  MPI_Comm               comm;
  PetscMPIInt            size;
  PetscInt               n;    /* local length */
  Vec                    X, B; /* solution, right-hand side */
  Vec                    v[NVECS];
  PetscScalar            d[GPUPC_CG_NDOTS]; /* the reduction's results (global after DotsEnd) */
  MPI_Request            req;
} Iter;

/* the order of it->v */
enum {
  V_X,
  V_R,
  V_U,
  V_W,
  V_P,
  V_S,
  V_M,
  V_N,
  V_Q,
  V_Z
};

static PetscErrorCode GetArrays(Iter *it, GPUPCCGVectors *a)
{
  PetscScalar **p[NVECS] = {&a->x, &a->r, &a->u, &a->w, &a->p, &a->s, &a->m, &a->n, &a->q, &a->z};

  PetscFunctionBegin;
  for (PetscInt j = 0; j < NVECS; j++) {
    *p[j] = NULL;
    if (it->v[j]) PetscCall(VecGPUGetDeviceArray(it->v[j], p[j]));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode RestoreArrays(Iter *it, GPUPCCGVectors *a)
{
  PetscScalar **p[NVECS] = {&a->x, &a->r, &a->u, &a->w, &a->p, &a->s, &a->m, &a->n, &a->q, &a->z};

  PetscFunctionBegin;
  for (PetscInt j = 0; j < NVECS; j++)
    if (it->v[j]) PetscCall(VecGPURestoreDeviceArray(it->v[j], p[j]));
  PetscFunctionReturn(0);
}

/* starts the reduction of the current r, u, w */
static PetscErrorCode DotsBegin(Iter *it)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(KSP_GPUCGReduce, it->ksp, 0, 0, 0));
  if (it->fused) {
    GPUPCCGVectors a;

    PetscCall(GetArrays(it, &a));
    PetscCall(it->k->cgdots(it->n, a, it->cg->work, it->cg->val));
    PetscCall(RestoreArrays(it, &a));
    it->cg->launches++;
  } else {
    PetscCall(VecDotBegin(it->v[V_R], it->v[V_U], &it->d[0]));
    PetscCall(VecDotBegin(it->v[V_W], it->v[V_U], &it->d[1]));
    PetscCall(VecDotBegin(it->v[V_U], it->v[V_U], &it->d[2]));
    PetscCall(VecDotBegin(it->v[V_R], it->v[V_R], &it->d[3]));
    PetscCall(PetscCommSplitReductionBegin(it->comm));
  }
  PetscCall(PetscLogFlops(8.0 * it->n));
  PetscCall(PetscLogEventEnd(KSP_GPUCGReduce, it->ksp, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* fused: the one host wait of the iteration; the local sums then go to a nonblocking MPI_Iallreduce */
static PetscErrorCode DotsWait(Iter *it)
{
  PetscFunctionBegin;
  if (!it->fused) PetscFunctionReturn(0);
  PetscCall(PetscLogEventBegin(KSP_GPUCGReduce, it->ksp, 0, 0, 0));
  PetscCall(GPUPCSynchronize());
  it->cg->waits++;
  for (PetscInt j = 0; j < GPUPC_CG_NDOTS; j++) it->d[j] = it->cg->val[j];
  if (it->size > 1) PetscCallMPI(MPI_Iallreduce(MPI_IN_PLACE, it->d, GPUPC_CG_NDOTS, MPIU_SCALAR, MPIU_SUM, it->comm, &it->req));
  PetscCall(PetscLogEventEnd(KSP_GPUCGReduce, it->ksp, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* the global sums in it->d */
static PetscErrorCode DotsEnd(Iter *it)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(KSP_GPUCGReduce, it->ksp, 0, 0, 0));
  if (it->fused) {
    if (it->size > 1) PetscCallMPI(MPI_Wait(&it->req, MPI_STATUS_IGNORE));
  } else {
    PetscCall(VecDotEnd(it->v[V_R], it->v[V_U], &it->d[0]));
    PetscCall(VecDotEnd(it->v[V_W], it->v[V_U], &it->d[1]));
    PetscCall(VecDotEnd(it->v[V_U], it->v[V_U], &it->d[2]));
    PetscCall(VecDotEnd(it->v[V_R], it->v[V_R], &it->d[3]));
  }
  PetscCall(PetscLogEventEnd(KSP_GPUCGReduce, it->ksp, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* classic: p = u + beta p, s = w + beta s, x += alpha p, r -= alpha s */
static PetscErrorCode UpdateClassic(Iter *it, PetscScalar alpha, PetscScalar beta)
{
  Vec *v = it->v;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(KSP_GPUCGUpdate, it->ksp, 0, 0, 0));
  if (it->fused) {
    GPUPCCGVectors a;

    PetscCall(GetArrays(it, &a));
    PetscCall(it->k->cgupdate(it->n, alpha, beta, a));
    PetscCall(RestoreArrays(it, &a));
    it->cg->launches++;
  } else {
    if (beta == 0.0) {
      PetscCall(VecCopy(v[V_U], v[V_P]));
      PetscCall(VecCopy(v[V_W], v[V_S]));
    } else {
      PetscCall(VecAYPX(v[V_P], beta, v[V_U]));
      PetscCall(VecAYPX(v[V_S], beta, v[V_W]));
    }
    PetscCall(VecAXPY(v[V_X], alpha, v[V_P]));
    PetscCall(VecAXPY(v[V_R], -alpha, v[V_S]));
  }
  PetscCall(PetscLogFlops(8.0 * it->n));
  PetscCall(PetscLogEventEnd(KSP_GPUCGUpdate, it->ksp, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* pipelined: z = n + beta z, q = m + beta q, s = w + beta s, p = u + beta p, x += alpha p, r -= alpha s,
   u -= alpha q, w -= alpha z, and the start of the next reduction */
static PetscErrorCode UpdatePipelined(Iter *it, PetscScalar alpha, PetscScalar beta)
{
  Vec *v = it->v;

  PetscFunctionBegin;
  if (it->fused) {
    GPUPCCGVectors a;

    PetscCall(PetscLogEventBegin(KSP_GPUCGUpdate, it->ksp, 0, 0, 0));
    PetscCall(GetArrays(it, &a));
    PetscCall(it->k->pipecgupdate(it->n, alpha, beta, a, it->cg->work, it->cg->val));
    PetscCall(RestoreArrays(it, &a));
    it->cg->launches++;
    PetscCall(PetscLogFlops(24.0 * it->n));
    PetscCall(PetscLogEventEnd(KSP_GPUCGUpdate, it->ksp, 0, 0, 0));
  } else {
    const PetscInt from[4] = {V_N, V_M, V_W, V_U}, to[4] = {V_Z, V_Q, V_S, V_P};

    PetscCall(PetscLogEventBegin(KSP_GPUCGUpdate, it->ksp, 0, 0, 0));
    for (PetscInt j = 0; j < 4; j++) {
      if (beta == 0.0) PetscCall(VecCopy(v[from[j]], v[to[j]]));
      else PetscCall(VecAYPX(v[to[j]], beta, v[from[j]]));
    }
    PetscCall(VecAXPY(v[V_X], alpha, v[V_P]));
    PetscCall(VecAXPY(v[V_R], -alpha, v[V_S]));
    PetscCall(VecAXPY(v[V_U], -alpha, v[V_Q]));
    PetscCall(VecAXPY(v[V_W], -alpha, v[V_Z]));
    PetscCall(PetscLogFlops(16.0 * it->n));
    PetscCall(PetscLogEventEnd(KSP_GPUCGUpdate, it->ksp, 0, 0, 0));
    PetscCall(DotsBegin(it));
  }
  PetscFunctionReturn(0);
}

/* the norm KSPCG reports for its norm type, from the reduction */
static PetscReal NormOf(KSP ksp, const PetscScalar *d)
{
  switch (ksp->normtype) {
  case KSP_NORM_PRECONDITIONED: return PetscSqrtReal(PetscAbsScalar(d[2]));
  case KSP_NORM_UNPRECONDITIONED: return PetscSqrtReal(PetscAbsScalar(d[3]));
  case KSP_NORM_NATURAL: return PetscSqrtReal(PetscAbsScalar(d[0]));
  default: return 0.0;
  }
}

/* logs, monitors and tests the norm of iteration i; *stop when the solve ends here */
static PetscErrorCode Test(KSP ksp, PetscInt i, PetscReal dp)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectSAWsTakeAccess((PetscObject)ksp));
  ksp->rnorm = dp;
  PetscCall(PetscObjectSAWsGrantAccess((PetscObject)ksp));
  PetscCall(KSPLogResidualHistory(ksp, dp));
  PetscCall(KSPMonitor(ksp, i, dp));
  PetscCall((*ksp->converged)(ksp, i, dp, &ksp->reason, ksp->cnvP));
  PetscFunctionReturn(0);
}

/* KSPCG's breakdown tests before a step: gamma = (r,u) zero (converged) or changing sign (indefinite PC), (p,Ap) zero
   or changing sign (indefinite operator); sets ksp->reason */
static PetscErrorCode Breakdown(KSP ksp, PetscInt i, PetscScalar gamma, PetscScalar gammaold, PetscScalar dpi, PetscScalar dpiold)
{
  PetscFunctionBegin;
  if (gamma == 0.0) {
    ksp->reason = KSP_CONVERGED_ATOL;
    PetscCall(PetscInfo(ksp, "converged due to (r, B r) = 0\n"));
  } else if (i > 0 && PetscRealPart(gamma) * PetscRealPart(gammaold) < 0.0) {
    PetscCheck(!ksp->errorifnotconverged, PetscObjectComm((PetscObject)ksp), PETSC_ERR_NOT_CONVERGED, "Diverged due to indefinite preconditioner, (r, B r) %g, previous %g", (double)PetscRealPart(gamma), (double)PetscRealPart(gammaold));
    ksp->reason = KSP_DIVERGED_INDEFINITE_PC;
    PetscCall(PetscInfo(ksp, "diverging due to indefinite preconditioner\n"));
  } else if (dpi == 0.0 || (i > 0 && PetscSign(PetscRealPart(dpi)) * PetscSign(PetscRealPart(dpiold)) < 0.0)) {
    PetscCheck(!ksp->errorifnotconverged, PetscObjectComm((PetscObject)ksp), PETSC_ERR_NOT_CONVERGED, "Diverged due to indefinite matrix, (p, A p) %g, previous %g", (double)PetscRealPart(dpi), (double)PetscRealPart(dpiold));
    ksp->reason = KSP_DIVERGED_INDEFINITE_MAT;
    PetscCall(PetscInfo(ksp, "diverging due to indefinite or negative definite matrix\n"));
  }
  PetscFunctionReturn(0);
}

/* r = b - A x (or b), u = B r, w = A u */
static PetscErrorCode Start(Iter *it, Mat A)
{
  KSP ksp = it->ksp;

  PetscFunctionBegin;
  if (!ksp->guess_zero) {
    PetscCall(KSP_MatMult(ksp, A, it->X, it->v[V_R]));
    PetscCall(VecAYPX(it->v[V_R], -1.0, it->B));
  } else PetscCall(VecCopy(it->B, it->v[V_R]));
  PetscCall(KSP_PCApply(ksp, it->v[V_R], it->v[V_U]));
  PetscCall(KSP_MatMult(ksp, A, it->v[V_U], it->v[V_W]));
  PetscFunctionReturn(0);
}

static PetscErrorCode SolveClassic(Iter *it, Mat A)
{
  KSP         ksp = it->ksp;
  PetscScalar gamma, gammaold = 0.0, delta, alpha = 0.0, beta, dpi = 0.0, dpiold = 0.0;
  PetscReal   dp;
  PetscInt    i;

  PetscFunctionBegin;
  PetscCall(Start(it, A));
  PetscCall(DotsBegin(it));
  PetscCall(DotsWait(it));
  PetscCall(DotsEnd(it));
  gamma = it->d[0];
  delta = it->d[1];
  dp    = NormOf(ksp, it->d);
  KSPCheckNorm(ksp, dp);
  PetscCall(Test(ksp, 0, dp));
  if (ksp->reason) PetscFunctionReturn(0);
  i = 0;
  do {
    ksp->its = i + 1;
    KSPCheckDot(ksp, gamma);
    beta = i > 0 ? gamma / gammaold : 0.0;
    dpi  = i > 0 ? delta - beta * gamma / alpha : delta;
    KSPCheckDot(ksp, dpi);
    PetscCall(Breakdown(ksp, i, gamma, gammaold, dpi, dpiold));
    if (ksp->reason) break;
    alpha = gamma / dpi;
    PetscCall(UpdateClassic(it, alpha, beta));
    PetscCall(KSP_PCApply(ksp, it->v[V_R], it->v[V_U]));
    PetscCall(KSP_MatMult(ksp, A, it->v[V_U], it->v[V_W]));
    PetscCall(DotsBegin(it));
    PetscCall(DotsWait(it));
    PetscCall(DotsEnd(it));
    gammaold = gamma;
    dpiold   = dpi;
    gamma    = it->d[0];
    delta    = it->d[1];
    dp       = NormOf(ksp, it->d);
    KSPCheckNorm(ksp, dp);
    PetscCall(Test(ksp, i + 1, dp));
    if (ksp->reason) break;
    i++;
  } while (i < ksp->max_it);
  if (i >= ksp->max_it) ksp->reason = KSP_DIVERGED_ITS;
  PetscFunctionReturn(0);
}

/* Each pass: m = B w and n = A m are issued while the reduction of r, u, w runs; then the wait, the test, the step.
   On several ranks the host waits once the PC is issued and the MPI_Iallreduce runs during the product. */
static PetscErrorCode SolvePipelined(Iter *it, Mat A)
{
  KSP         ksp = it->ksp;
  PetscScalar gamma, gammaold = 0.0, delta, alpha = 0.0, beta, dpi = 0.0, dpiold = 0.0;
  PetscReal   dp;
  PetscBool   early = (PetscBool)(it->fused && it->size > 1); /* wait before the product */

  PetscFunctionBegin;
  PetscCall(Start(it, A));
  PetscCall(DotsBegin(it));
  for (PetscInt i = 0;; i++) {
    const PetscBool step = (PetscBool)(i < ksp->max_it); /* another step may follow this test */

    if (step) {
      PetscCall(KSP_PCApply(ksp, it->v[V_W], it->v[V_M]));
      if (early) PetscCall(DotsWait(it));
      PetscCall(KSP_MatMult(ksp, A, it->v[V_M], it->v[V_N]));
    }
    if (!step || !early) PetscCall(DotsWait(it));
    PetscCall(DotsEnd(it));
    gamma = it->d[0];
    delta = it->d[1];
    dp    = NormOf(ksp, it->d);
    KSPCheckNorm(ksp, dp);
    PetscCall(Test(ksp, i, dp));
    if (ksp->reason) break;
    if (!step) {
      ksp->reason = KSP_DIVERGED_ITS;
      break;
    }
    ksp->its = i + 1;
    KSPCheckDot(ksp, gamma);
    beta = i > 0 ? gamma / gammaold : 0.0;
    dpi  = i > 0 ? delta - beta * gamma / alpha : delta;
    KSPCheckDot(ksp, dpi);
    PetscCall(Breakdown(ksp, i, gamma, gammaold, dpi, dpiold));
    if (ksp->reason) break;
    alpha = gamma / dpi;
    PetscCall(UpdatePipelined(it, alpha, beta));
    gammaold = gamma;
    dpiold   = dpi;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode KSPSolve_GPUCG(KSP ksp)
{
  KSP_GPUCG     *cg     = (KSP_GPUCG *)ksp->data;
  const PetscInt nwork  = cg->type == KSP_GPUCG_PIPELINED ? 9 : 5;
  Iter           it     = {0};
  PetscBool      allgpu = PETSC_TRUE;
  Mat            A, P;

  PetscFunctionBegin;
  PetscCall(PCGetOperators(ksp->pc, &A, &P));
  if (ksp->nwork < nwork) PetscCall(KSPSetWorkVecs(ksp, nwork));
  it.ksp  = ksp;
  it.cg   = cg;
  it.comm = PetscObjectComm((PetscObject)ksp->vec_sol); /* the vectors' reductions and split reductions live there */
  PetscCallMPI(MPI_Comm_size(it.comm, &it.size));
  it.X      = ksp->vec_sol;
  it.B      = ksp->vec_rhs;
  it.v[V_X] = it.X;
  for (PetscInt j = 0; j < nwork; j++) it.v[V_R + j] = ksp->work[j];
  PetscCall(VecGetLocalSize(it.X, &it.n));
  allgpu = (PetscBool)(VecIsGPU(it.X) && VecIsGPU(it.B));
  for (PetscInt j = 0; j < nwork; j++) allgpu = (PetscBool)(allgpu && VecIsGPU(ksp->work[j]));
  it.fused = allgpu;
  if (it.fused) {
    PetscCall(GPUPCGetVecKernels(&it.k));
    if (!cg->work) {
      PetscCall(GPUPCMalloc(GPUPC_CG_WORK_BYTES, &cg->work));
      PetscCall(GPUPCMemzero(cg->work, GPUPC_CG_WORK_BYTES)); /* the completion counter starts at 0 */
      PetscCall(GPUPCHostMalloc(GPUPC_CG_NDOTS * sizeof(PetscScalar), (void **)&cg->val, &cg->valpinned));
    }
  } else {
    PetscCall(PetscInfo(ksp, "gpucg: the solution (%s), right-hand side (%s) or work vectors are not GPUPC gpu vectors (-vec_type gpu): running the same iteration with ordinary Vec operations and one split-phase reduction per iteration, without the fused kernels\n", ((PetscObject)it.X)->type_name, ((PetscObject)it.B)->type_name));
  }
  cg->solved   = PETSC_TRUE;
  cg->fused    = it.fused;
  cg->waits    = 0;
  cg->launches = 0;
  ksp->its     = 0;
  if (cg->type == KSP_GPUCG_PIPELINED) PetscCall(SolvePipelined(&it, A));
  else PetscCall(SolveClassic(&it, A));
  cg->its = ksp->its;
  PetscFunctionReturn(0);
}

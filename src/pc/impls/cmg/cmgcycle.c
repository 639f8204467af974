/*
   The CMG cycle (docs/algorithms.md 2.3) on the device, through the kernel table only:

     P(b, k, m):
       k last: x = dense * b (or x = invD .* b when the hierarchy stagnated)
       for j = 1 .. m:
         x = (j == 1) ? invD .* b : x + invD .* (b - A x)
         b_{k+1} = R (b - A x)            fused residual + cluster-sorted restriction (for j = 1
                                          on a small level with the Jacobi step: one launch)
         x_{k+1} = P(b_{k+1}, k+1, t_k)
         x += x_{k+1}[c(.)]               prolongation gather (on a small level fused into the
         x = x + invD .* (b - A x)        smoothing: one launch, x + x_{k+1}[c(.)] read on the fly)

   At setup the cycle P(b0, 0, 1) is written out once as a plan: its steps in launch order, each
   with its buffers named (Jacobi smoothing is out of place, so a level's two iterate buffers take
   turns; the plan settles which one holds the iterate at every step, so an application changes
   no state). An application walks the plan, a kernel per step; with -pc_cmg_mat_type segcsr, hec, bcsr
   or auto the residual comes from the level format's SpMV (GPUPCDevMat) and is then restricted or
   applied (two passes instead of one). The first Jacobi step x = invD .* b of a level visit never has a launch of its own: on a
   small level the residual-restriction computes it on the fly, on the others the kernel that writes
   the level's b writes it too (the expansion for level 0, the restriction from the level above for
   the others). No host round trip inside a cycle. On the cuda backend the walk is recorded once as a
   CUDA graph (GPUPCCMGDeviceRecord) and replayed by one launch. The finest level runs once per
   application.
*/
#include <gpupc/cmg.h>

/* the plan while it is written: the steps, and each level's iterate buffer and spare buffer */
typedef struct {
  GPUPCCMGStep *steps;
  PetscInt      nsteps, cap;
  void        **x, **w;
} PlanWriter;

static PetscErrorCode Emit(PlanWriter *P, GPUPCCMGStepKind kind, PetscInt level, void *x, void *y, void *xc)
{
  PetscFunctionBegin;
  if (P->nsteps == P->cap) {
    GPUPCCMGStep *more;
    P->cap = PetscMax(64, 2 * P->cap);
    PetscCall(PetscMalloc1(P->cap, &more));
    if (P->nsteps) PetscCall(PetscArraycpy(more, P->steps, P->nsteps));
    PetscCall(PetscFree(P->steps));
    P->steps = more;
  }
  P->steps[P->nsteps].kind  = kind;
  P->steps[P->nsteps].level = level;
  P->steps[P->nsteps].x     = x;
  P->steps[P->nsteps].y     = y;
  P->steps[P->nsteps].xc    = xc;
  P->nsteps++;
  PetscFunctionReturn(0);
}

/* x_k = x_k + invD (b_k - A_k x_k) into the spare buffer, which becomes the iterate; with xc (the next level's
   iterate) the prolongation x_k += xc[c(.)] is fused in front (PROLONG_SMOOTH) */
static PetscErrorCode EmitSmooth(PlanWriter *P, PetscInt k, void *xc)
{
  void *t;

  PetscFunctionBegin;
  PetscCall(Emit(P, xc ? GPUPC_CMG_STEP_PROLONG_SMOOTH : GPUPC_CMG_STEP_SMOOTH, k, P->x[k], P->w[k], xc));
  t       = P->x[k];
  P->x[k] = P->w[k];
  P->w[k] = t;
  PetscFunctionReturn(0);
}

/* level k's first Jacobi step is not fused into its residual-restriction: whatever writes the level's b (the expansion,
   or the restriction from level k-1) writes that step's iterate too */
static PetscBool JacobiStep(const GPUPCCMGDevice *D, PetscInt k)
{
  const GPUPCCMGDeviceLevel *L = &D->levels[k];

  return (PetscBool)(k < D->nlevels - 1 && (L->mat || L->nnz >= D->fusennz));
}

/* the steps of P(b_k, k, m). On a level of fewer than D->fusennz entries (-pc_cmg_fuse_nnz, default
   GPUPC_CMG_FUSE_NNZ: bound by launch latency, not bandwidth)
   the first Jacobi step is computed on the fly by the residual-restriction and the prolongation is fused into the
   smoothing after it, for an extra gather of invd and b, or of the cluster and xc, at every entry: one launch fewer
   per iteration (and no store of the first iterate from the level above); on the large levels those gathers cost more
   than the launch (bench/NOTES.md). */
static PetscErrorCode EmitCycle(const GPUPCCMGDevice *D, PlanWriter *P, PetscInt k, PetscInt m)
{
  const GPUPCCMGDeviceLevel *L = &D->levels[k];
  PetscBool                  fuse;

  PetscFunctionBegin;
  if (k == D->nlevels - 1) {
    PetscCall(Emit(P, L->direct ? GPUPC_CMG_STEP_COARSE : GPUPC_CMG_STEP_JACOBI, k, P->x[k], NULL, NULL));
    PetscFunctionReturn(0);
  }
  fuse = (PetscBool)!JacobiStep(D, k);
  for (PetscInt j = 0; j < m; j++) {
    /* where the restriction writes level k+1's first iterate: the buffer its next visit starts from */
    void *xnext = JacobiStep(D, k + 1) ? P->x[k + 1] : NULL;

    /* j = 0 without fuse: the writer of b_k wrote the first iterate already */
    if (j == 0 && fuse) PetscCall(Emit(P, GPUPC_CMG_STEP_FIRST_RESTRICT, k, P->x[k], D->levels[k + 1].b, xnext));
    else {
      if (j > 0) PetscCall(EmitSmooth(P, k, NULL));
      PetscCall(Emit(P, GPUPC_CMG_STEP_RESTRICT, k, P->x[k], D->levels[k + 1].b, xnext));
    }
    PetscCall(EmitCycle(D, P, k + 1, L->t));
    if (fuse) PetscCall(EmitSmooth(P, k, P->x[k + 1]));
    else {
      PetscCall(Emit(P, GPUPC_CMG_STEP_PROLONG, k, P->x[k], NULL, P->x[k + 1]));
      PetscCall(EmitSmooth(P, k, NULL));
    }
  }
  PetscFunctionReturn(0);
}

/*
   GPUPCCMGDevicePlan - writes the cycle P(b0, 0, 1) of the uploaded hierarchy as a plan of steps. Called by
   GPUPCCMGDeviceUpload. When level 0 starts with a Jacobi step of its own, the expansion writes that step's iterate
   (D->fold.first); on the other levels the restriction step writes it (the step's xc).
*/
PetscErrorCode GPUPCCMGDevicePlan(GPUPCCMGDevice *D)
{
  PlanWriter P;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&P, sizeof(P)));
  PetscCall(PetscMalloc2(D->nlevels, &P.x, D->nlevels, &P.w));
  for (PetscInt k = 0; k < D->nlevels; k++) {
    P.x[k] = D->levels[k].x;
    P.w[k] = D->levels[k].w;
  }
  {
    const GPUPCCMGNextJacobi none = {NULL, NULL}, first = {D->levels[0].invd, P.x[0]};
    D->fold.first = JacobiStep(D, 0) ? first : none;
  }
  PetscCall(EmitCycle(D, &P, 0, 1));
  D->xcycle = P.x[0];
  D->steps  = P.steps;
  D->nsteps = P.nsteps;
  PetscCall(PetscFree2(P.x, P.w));
  PetscFunctionReturn(0);
}

/* L->r = b - A x through the level format's SpMV of -A (y = (-A) x + b) */
static PetscErrorCode LevelResidual(const GPUPCCMGDeviceLevel *L, const void *x)
{
  PetscFunctionBegin;
  PetscCall(GPUPCDevMatMult(L->mat, (const PetscScalar *)x, (const PetscScalar *)L->b, (PetscScalar *)L->r));
  PetscFunctionReturn(0);
}

/* the step s through the kernel table, on a copy of its level whose iterate is the step's x */
static PetscErrorCode StepRun(const GPUPCCMGKernels *K, const GPUPCCMGDevice *D, const GPUPCCMGStep *s)
{
  GPUPCCMGDeviceLevel L = D->levels[s->level];

  PetscFunctionBegin;
  L.x = s->x;
  switch (s->kind) {
  case GPUPC_CMG_STEP_JACOBI:
    PetscCall(K->jacobi(&L));
    break;
  case GPUPC_CMG_STEP_SMOOTH:
  case GPUPC_CMG_STEP_PROLONG_SMOOTH:
    if (L.mat) {
      if (s->kind == GPUPC_CMG_STEP_PROLONG_SMOOTH) PetscCall(K->prolong(&L, s->xc));
      PetscCall(LevelResidual(&L, s->x));
      PetscCall(K->update(&L, L.r, s->x, s->y));
    } else PetscCall(K->smooth(&L, s->x, s->kind == GPUPC_CMG_STEP_PROLONG_SMOOTH ? s->xc : NULL, s->y));
    break;
  case GPUPC_CMG_STEP_RESTRICT:
  case GPUPC_CMG_STEP_FIRST_RESTRICT: {
    const GPUPCCMGNextJacobi next = {s->xc ? D->levels[s->level + 1].invd : NULL, s->xc};

    if (L.mat) {
      PetscCheck(s->kind == GPUPC_CMG_STEP_RESTRICT, PETSC_COMM_SELF, PETSC_ERR_PLIB, "CMG plan: level %" PetscInt_FMT " in a device-Mat format has a fused first Jacobi step, but such levels never fuse (JacobiStep)", s->level);
      PetscCall(LevelResidual(&L, s->x));
      PetscCall(K->cluster_sum(&L, L.r, s->y, s->xc ? &next : NULL));
    } else PetscCall(K->residual_restrict(&L, (PetscBool)(s->kind == GPUPC_CMG_STEP_FIRST_RESTRICT), s->y, s->xc ? &next : NULL));
  } break;
  case GPUPC_CMG_STEP_PROLONG:
    PetscCall(K->prolong(&L, s->xc));
    break;
  case GPUPC_CMG_STEP_COARSE:
    PetscCall(K->dense_solve(&L));
    break;
  }
  PetscFunctionReturn(0);
}

/* the cycle: the plan's steps in order */
static PetscErrorCode Cycle(const GPUPCCMGKernels *K, GPUPCCMGDevice *D)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < D->nsteps; i++) PetscCall(StepRun(K, D, &D->steps[i]));
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
    f += L->n + 2.0 * L->nnz + 3.0 * L->n; /* prolongation + smoothing */
  }
  return f;
}

/*
   GPUPCCMGDeviceRecord - records the cycle P(b0, 0, 1) once as a CUDA graph, so that an application replays it with
   one launch instead of one launch per kernel (hundreds on W-cycles). The cycle only reads and writes the level
   buffers and the plan, whose addresses never change, so the recording stays valid until GPUPCCMGDeviceFree; the
   user's vectors are touched only by expand and fold, outside the recording.
*/
PetscErrorCode GPUPCCMGDeviceRecord(GPUPCCMGDevice *D)
{
  const GPUPCCMGKernels *K;
  PetscErrorCode         ierr;

  PetscFunctionBegin;
  PetscCall(GPUPCGraphDestroy(&D->graph));
  PetscCall(GPUPCGetCMGKernels(&K));
  PetscCall(GPUPCGraphBeginCapture());
  ierr = Cycle(K, D);
  PetscCall(GPUPCGraphEndCapture(ierr ? PETSC_FALSE : PETSC_TRUE, &D->graph));
  PetscCall(ierr);
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
  else PetscCall(Cycle(K, D));
  PetscCall(K->fold(&D->fold, transpose, b, D->xcycle, x));
  PetscCall(PetscLogFlops(CycleFlops(D, 0, 1)));
  PetscCall(PetscLogEventEnd(PC_CMG_Cycle, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

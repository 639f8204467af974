/*
   A scheduled triangular solve on the device (gpupc/tassl.h): the schedule's arrays laid out as a GPUPCTasslDev,
   the values scaled by the rows' diagonals, and the choice between the kernels of gpupc/tasslkernels.h.
*/
#include <gpupc/tassl.h>

/* a device copy of n host integers */
static PetscErrorCode DupInt(const PetscInt *h, PetscInt n, PetscInt **d)
{
  PetscFunctionBegin;
  *d = NULL;
  if (n <= 0) PetscFunctionReturn(0);
  PetscCall(GPUPCMallocArray(n, d));
  PetscCall(GPUPCCopyToDevice(*d, h, n));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCTasslDevSetValues - (re)computes the scaled values of a scheduled solve from factor values and uploads them

   Not Collective

   Input Parameters:
+  T - the triangular system
.  S - its schedule
-  aa - the factor values (T->fidx and T->didx index them)

   Output Parameter:
.  D - the device solve, whose dinv, eval, lsdinv and lsval are replaced

   Level: developer

.seealso: GPUPCTasslDevCreate()
@*/
PetscErrorCode GPUPCTasslDevSetValues(const GPUPCTri *T, const GPUPCTasslSchedule *S, const PetscScalar *aa, GPUPCTasslDev *D)
{
  const PetscInt n = T->n, ne = S->nedges, nnz = T->ptr[n];
  PetscScalar   *dinv, *rowinv, *eval, *lsdinv, *lsval;

  PetscFunctionBegin;
  PetscCall(PetscMalloc5(n, &dinv, n, &rowinv, ne, &eval, n, &lsdinv, nnz, &lsval));
  for (PetscInt i = 0; i < n; i++) {
    const PetscScalar d = T->didx ? aa[T->didx[i]] : 1.0;
    PetscCheck(d != 0.0, PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT, "%s system row %" PetscInt_FMT " has a zero diagonal", GPUPCTriKinds[T->kind], i);
    rowinv[i] = 1.0 / d;
  }
  for (PetscInt k = 0; k < n; k++) dinv[k] = rowinv[S->order[k]];
  for (PetscInt g = 0; g < S->nsub; g++)
    for (PetscInt s = S->slotptr[g]; s < S->slotptr[g + 1]; s++)
      for (PetscInt e = S->edgeptr[s]; e < S->edgeptr[s + 1]; e++) eval[e] = rowinv[S->order[S->subptr[g] + S->etgt[e]]] * aa[T->fidx[S->eent[e]]];
  for (PetscInt k = 0, c = 0; k < n; k++) {
    const PetscInt i = S->lsorder[k];
    lsdinv[k]        = rowinv[i];
    for (PetscInt q = T->ptr[i]; q < T->ptr[i + 1]; q++) lsval[c++] = rowinv[i] * aa[T->fidx[q]];
  }
  if (n) PetscCall(GPUPCCopyToDevice(D->dinv, dinv, n));
  if (ne) PetscCall(GPUPCCopyToDevice(D->eval, eval, ne));
  if (n) PetscCall(GPUPCCopyToDevice(D->lsdinv, lsdinv, n));
  if (nnz) PetscCall(GPUPCCopyToDevice(D->lsval, lsval, nnz));
  PetscCall(PetscFree5(dinv, rowinv, eval, lsdinv, lsval));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCTasslDevCreate - lays a scheduled triangular solve out on the device

   Not Collective

   Input Parameters:
+  T - the triangular system
.  S - its schedule (GPUPCTasslAnalyze())
.  aa - the factor values
-  bidx, xidx - row i reads b[bidx[i]] and writes x[xidx[i]] (NULL: i)

   Output Parameters:
+  D - the device solve
.  hlevptr - host copy of the sub-graph level ranges (D->hlevptr points at it; free with GPUPCTasslDevDestroy())
-  hlsptr - host copy of the level-set ranges

   Level: developer

.seealso: GPUPCTasslDevSetValues(), GPUPCTasslDevDestroy()
@*/
PetscErrorCode GPUPCTasslDevCreate(const GPUPCTri *T, const GPUPCTasslSchedule *S, const PetscScalar *aa, const PetscInt *bidx, const PetscInt *xidx, GPUPCTasslDev *D, PetscInt **hlevptr, PetscInt **hlsptr)
{
  const PetscInt n = T->n, ne = S->nedges, nnz = T->ptr[n];
  PetscInt      *hb, *hx, *hs, *lb, *lx, *lrp, *lcol;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(D, sizeof(*D)));
  D->n      = n;
  D->nsub   = S->nsub;
  D->nlev   = S->nlev;
  D->nslots = S->nslots;
  D->nedges = ne;
  D->nls    = S->nls;
  for (PetscInt g = 0; g < S->nsub; g++) D->nmax = PetscMax(D->nmax, S->subptr[g + 1] - S->subptr[g]);
  PetscCall(PetscMalloc1(S->nlev + 1, hlevptr));
  PetscCall(PetscArraycpy(*hlevptr, S->levptr, S->nlev + 1));
  PetscCall(PetscMalloc1(S->nls + 1, hlsptr));
  PetscCall(PetscArraycpy(*hlsptr, S->lsptr, S->nls + 1));
  D->hlevptr = *hlevptr;
  D->hlsptr  = *hlsptr;
  /* sub-graphs */
  PetscCall(PetscMalloc3(n, &hb, n, &hx, ne, &hs));
  for (PetscInt k = 0; k < n; k++) {
    hb[k] = bidx ? bidx[S->order[k]] : S->order[k];
    hx[k] = xidx ? xidx[S->order[k]] : S->order[k];
  }
  for (PetscInt g = 0; g < S->nsub; g++)
    for (PetscInt s = S->slotptr[g]; s < S->slotptr[g + 1]; s++)
      for (PetscInt e = S->edgeptr[s]; e < S->edgeptr[s + 1]; e++) hs[e] = s - S->slotptr[g] < S->next[g] ? (xidx ? xidx[S->esrc[e]] : S->esrc[e]) : S->esrc[e];
  PetscCall(DupInt(S->subptr, S->nsub + 1, &D->subptr));
  PetscCall(DupInt(hb, n, &D->bidx));
  PetscCall(DupInt(hx, n, &D->xidx));
  PetscCall(DupInt(S->slotptr, S->nsub + 1, &D->slotptr));
  PetscCall(DupInt(S->next, S->nsub, &D->next));
  PetscCall(DupInt(S->edgeptr, S->nslots + 1, &D->edgeptr));
  PetscCall(DupInt(S->etgt, ne, &D->etgt));
  PetscCall(DupInt(hs, ne, &D->esrc));
  PetscCall(DupInt(S->depptr, S->nsub + 1, &D->depptr));
  PetscCall(DupInt(S->dep, S->depptr[S->nsub], &D->dep));
  PetscCall(PetscFree3(hb, hx, hs));
  if (n) PetscCall(GPUPCMallocArray(n, &D->dinv));
  if (ne) PetscCall(GPUPCMallocArray(ne, &D->eval));
  if (S->nsub) {
    PetscCall(GPUPCMallocArray(S->nsub, &D->ready));
    PetscCall(GPUPCMemzero(D->ready, S->nsub * sizeof(int)));
  }
  PetscCall(GPUPCMallocArray(1, &D->ticket));
  PetscCall(GPUPCMemzero(D->ticket, sizeof(int)));
  /* level sets */
  PetscCall(PetscMalloc4(n, &lb, n, &lx, n + 1, &lrp, nnz, &lcol));
  lrp[0] = 0;
  for (PetscInt k = 0; k < n; k++) {
    const PetscInt i = S->lsorder[k];
    lb[k]            = bidx ? bidx[i] : i;
    lx[k]            = xidx ? xidx[i] : i;
    lrp[k + 1]       = lrp[k] + T->ptr[i + 1] - T->ptr[i];
    for (PetscInt q = T->ptr[i]; q < T->ptr[i + 1]; q++) lcol[lrp[k] + q - T->ptr[i]] = xidx ? xidx[T->col[q]] : T->col[q];
  }
  PetscCall(DupInt(lb, n, &D->lsbidx));
  PetscCall(DupInt(lx, n, &D->lsxidx));
  PetscCall(DupInt(lrp, n + 1, &D->lsrp));
  PetscCall(DupInt(lcol, nnz, &D->lscol));
  PetscCall(PetscFree4(lb, lx, lrp, lcol));
  if (n) PetscCall(GPUPCMallocArray(n, &D->lsdinv));
  if (nnz) PetscCall(GPUPCMallocArray(nnz, &D->lsval));
  PetscCall(GPUPCTasslDevSetValues(T, S, aa, D));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCTasslDevDestroy - frees a device solve and the host level ranges

   Level: developer
@*/
PetscErrorCode GPUPCTasslDevDestroy(GPUPCTasslDev *D, PetscInt **hlevptr, PetscInt **hlsptr)
{
  void *p[] = {D->subptr, D->bidx, D->xidx, D->dinv, D->slotptr, D->next, D->edgeptr, D->etgt, D->esrc, D->eval, D->depptr, D->dep, D->ready, D->ticket, D->lsbidx, D->lsxidx, D->lsdinv, D->lsrp, D->lscol, D->lsval};

  PetscFunctionBegin;
  for (size_t k = 0; k < sizeof(p) / sizeof(p[0]); k++)
    if (p[k]) PetscCall(GPUPCFree(p[k]));
  PetscCall(PetscFree(*hlevptr));
  PetscCall(PetscFree(*hlsptr));
  PetscCall(PetscMemzero(D, sizeof(*D)));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCTasslOpCreate - a triangular system of an ILU factor, analysed and laid out on the device

   Not Collective

   Input Parameters:
+  F - the factor (with values)
.  kind - which system
.  nmax - the most rows of a sub-graph
-  bidx, xidx - row i reads b[bidx[i]] and writes x[xidx[i]] (NULL: i)

   Output Parameter:
.  op - the solve

   Level: developer

.seealso: GPUPCTasslOpSolve(), GPUPCTasslOpRefresh()
@*/
PetscErrorCode GPUPCTasslOpCreate(const GPUPCILU *F, GPUPCTriKind kind, PetscInt nmax, const PetscInt *bidx, const PetscInt *xidx, GPUPCTasslOp *op)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(op, sizeof(*op)));
  PetscCall(GPUPCTriFromILU(F, kind, &op->tri));
  PetscCall(GPUPCTasslAnalyze(&op->tri, nmax, &op->sched));
  PetscCall(GPUPCTasslDevCreate(&op->tri, &op->sched, F->aa, bidx, xidx, &op->dev, &op->hlevptr, &op->hlsptr));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCTasslOpRefresh - new factor values (same pattern) into a scheduled solve; the schedule is kept

   Level: developer
@*/
PetscErrorCode GPUPCTasslOpRefresh(GPUPCTasslOp *op, const GPUPCILU *F)
{
  PetscFunctionBegin;
  PetscCall(GPUPCTasslDevSetValues(&op->tri, &op->sched, F->aa, &op->dev));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCTasslOpSolve - x = T^{-1} b on the device

   Not Collective

   Input Parameters:
+  op - the solve
.  type - GPUPC_TASSL_SOLVE_TASSL or GPUPC_TASSL_SOLVE_LEVELSET (cuSPARSE solves both factors at once: GPUPCTasslSpSVApply())
.  launch - for tassl: one launch per sub-graph level, one launch with ready flags, or auto (one launch from
            GPUPC_TASSL_ONELAUNCH_LEVELS sub-graph levels on)
-  b - right-hand side (device)

   Output Parameter:
.  x - solution (device; must not overlap b)

   Level: developer
@*/
PetscErrorCode GPUPCTasslOpSolve(GPUPCTasslOp *op, GPUPCTasslSolveType type, GPUPCTasslLaunch launch, const PetscScalar *b, PetscScalar *x)
{
  const GPUPCTasslKernels *K;

  PetscFunctionBegin;
  if (!op->dev.n) PetscFunctionReturn(0);
  PetscCall(GPUPCGetTasslKernels(&K));
  switch (type) {
  case GPUPC_TASSL_SOLVE_TASSL:
    if (launch == GPUPC_TASSL_LAUNCH_ONE || (launch == GPUPC_TASSL_LAUNCH_AUTO && op->dev.nlev >= GPUPC_TASSL_ONELAUNCH_LEVELS)) {
      if (op->epoch == PETSC_MAX_INT - 1) { /* flags of old epochs could look ready again: clear them */
        PetscCall(GPUPCMemzero(op->dev.ready, op->dev.nsub * sizeof(int)));
        op->epoch = 0;
      }
      op->epoch++;
      PetscCall(K->onelaunch(&op->dev, op->epoch, b, x));
    } else PetscCall(K->subgraphs(&op->dev, b, x));
    break;
  case GPUPC_TASSL_SOLVE_LEVELSET:
    PetscCall(K->levelset(&op->dev, b, x));
    break;
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "GPUPCTasslOpSolve() runs tassl or levelset; cuSPARSE solves through GPUPCTasslSpSVApply()");
  }
  PetscFunctionReturn(0);
}

/*@C
   GPUPCTasslOpDestroy - frees a scheduled solve

   Level: developer
@*/
PetscErrorCode GPUPCTasslOpDestroy(GPUPCTasslOp *op)
{
  PetscFunctionBegin;
  PetscCall(GPUPCTasslDevDestroy(&op->dev, &op->hlevptr, &op->hlsptr));
  PetscCall(GPUPCTasslScheduleDestroy(&op->sched));
  PetscCall(GPUPCTriDestroy(&op->tri));
  PetscFunctionReturn(0);
}

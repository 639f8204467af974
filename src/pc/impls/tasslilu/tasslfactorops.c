/*
   One ILU(k) factor of a sequential matrix with its device solves (tassliluimpl.h), used by PC tasslilu and by
   the "tassl" MatSolverType: symbolic factorization and TASSL analysis once per pattern, numeric factorization
   and a refresh of the solves' values when only the values change, the solves, and the view.
*/
#include <petsctime.h>
#include "tassliluimpl.h"

PetscLogEvent PC_TASSLILU_Symbolic, PC_TASSLILU_Numeric, PC_TASSLILU_Analysis, PC_TASSLILU_Solve;

/* the CSR arrays of a sequential matrix: borrowed from a SEQAIJ (or a type keeping its data), else from a copy */
typedef struct {
  Mat                copy;
  PetscBool          done;
  PetscInt           n;
  const PetscInt    *i, *j;
  const PetscScalar *a;
  Mat                src;
} CSRView;

static PetscErrorCode CSRGet(Mat A, CSRView *c)
{
  PetscBool aij;
  PetscInt  m, n;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(c, sizeof(*c)));
  PetscCall(MatGetSize(A, &m, &n));
  PetscCheck(m == n, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "ILU with TASSL solves needs a square matrix; this one (or this rank's diagonal block) is %" PetscInt_FMT " x %" PetscInt_FMT, m, n);
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATSEQAIJ, &aij));
  if (!aij) PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQSEGCSR, &aij));
  c->src = A;
  if (!aij) {
    PetscCall(MatConvert(A, MATSEQAIJ, MAT_INITIAL_MATRIX, &c->copy));
    c->src = c->copy;
  }
  PetscCall(MatGetRowIJ(c->src, 0, PETSC_FALSE, PETSC_FALSE, &c->n, &c->i, &c->j, &c->done));
  PetscCheck(c->done, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatGetRowIJ() failed");
  PetscCall(MatSeqAIJGetArrayRead(c->src, &c->a));
  PetscFunctionReturn(0);
}

static PetscErrorCode CSRRestore(CSRView *c)
{
  PetscFunctionBegin;
  PetscCall(MatSeqAIJRestoreArrayRead(c->src, &c->a));
  PetscCall(MatRestoreRowIJ(c->src, 0, PETSC_FALSE, PETSC_FALSE, &c->n, &c->i, &c->j, &c->done));
  PetscCall(MatDestroy(&c->copy));
  PetscFunctionReturn(0);
}

static PetscErrorCode DestroySolves(GPUPCTasslFactor *f)
{
  PetscFunctionBegin;
  PetscCall(GPUPCTasslOpDestroy(&f->L));
  PetscCall(GPUPCTasslOpDestroy(&f->U));
  PetscCall(GPUPCTasslOpDestroy(&f->UT));
  PetscCall(GPUPCTasslOpDestroy(&f->LT));
  f->haveT = PETSC_FALSE;
#if defined(GPUPC_HAVE_CUDA)
  PetscCall(GPUPCTasslSpSVDestroy(&f->spsv));
  PetscCall(GPUPCTasslSpSVDestroy(&f->spsvT));
#endif
  if (f->work) PetscCall(GPUPCFree(f->work));
  f->work = NULL;
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckCUSPARSE(void)
{
  PetscGPUPCBackend backend;

  PetscFunctionBegin;
  PetscCall(PetscGPUPCGetBackend(&backend));
  PetscCheck(backend == PETSC_GPUPC_BACKEND_CUDA, PETSC_COMM_SELF, PETSC_ERR_SUP, "-pc_tasslilu_solve cusparse runs cuSPARSE SpSV on the GPU, but GPUPC runs on the %s backend%s; use -pc_tasslilu_solve tassl or levelset, or -gpupc_backend cuda on a machine with a GPU", PetscGPUPCBackends[backend],
#if defined(GPUPC_HAVE_CUDA)
             ""
#else
             " (built without CUDA)"
#endif
  );
  PetscFunctionReturn(0);
}

/* the symbolic factor of A (sequential) in the ordering row, col (NULL: natural) */
PetscErrorCode GPUPCTasslFactorSymbolic(GPUPCTasslFactor *f, Mat A, IS row, IS col, PetscInt levels, GPUPCILUShift shift, PetscReal shiftamount, PetscReal zeropivot)
{
  CSRView         c;
  const PetscInt *r = NULL, *q = NULL;
  PetscBool       rid = PETSC_TRUE, cid = PETSC_TRUE;
  PetscLogDouble  t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PC_TASSLILU_Symbolic, A, 0, 0, 0));
  PetscCall(PetscTime(&t0));
  if (f->solve == GPUPC_TASSL_SOLVE_CUSPARSE) PetscCall(CheckCUSPARSE());
  PetscCall(DestroySolves(f));
  PetscCall(GPUPCILUDestroy(&f->F));
  PetscCall(CSRGet(A, &c));
  if (row) PetscCall(ISIdentity(row, &rid));
  if (col) PetscCall(ISIdentity(col, &cid));
  if (!rid) PetscCall(ISGetIndices(row, &r));
  if (!cid) PetscCall(ISGetIndices(col, &q));
  PetscCall(GPUPCILUSymbolic(c.n, c.i, c.j, r, q, levels, &f->F));
  if (!rid) PetscCall(ISRestoreIndices(row, &r));
  if (!cid) PetscCall(ISRestoreIndices(col, &q));
  PetscCall(CSRRestore(&c));
  f->F.shift       = shift;
  f->F.shiftamount = shiftamount;
  if (zeropivot >= 0.0) f->F.zeropivot = zeropivot;
  f->nnumeric = 0;
  PetscCall(PetscTime(&t1));
  f->tsymbolic = t1 - t0;
  PetscCall(PetscLogEventEnd(PC_TASSLILU_Symbolic, A, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* the numeric factor of A (pattern as given to the symbolic one); solves that exist get the new values */
PetscErrorCode GPUPCTasslFactorNumeric(GPUPCTasslFactor *f, Mat A)
{
  CSRView        c;
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PC_TASSLILU_Numeric, A, 0, 0, 0));
  PetscCall(PetscTime(&t0));
  PetscCall(CSRGet(A, &c));
  PetscCheck(c.n == f->F.n && (c.n ? c.i[c.n] : 0) == f->F.nnzA, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "the matrix (%" PetscInt_FMT " rows, %" PetscInt_FMT " entries) does not have the pattern that was factored symbolically (%" PetscInt_FMT " rows, %" PetscInt_FMT " entries); use DIFFERENT_NONZERO_PATTERN", c.n, c.n ? c.i[c.n] : 0, f->F.n, f->F.nnzA);
  PetscCall(GPUPCILUNumeric(&f->F, c.i, c.j, c.a));
  PetscCall(CSRRestore(&c));
  PetscCall(PetscTime(&t1));
  f->tnumeric = t1 - t0;
  f->nnumeric++;
  PetscCall(PetscLogEventEnd(PC_TASSLILU_Numeric, A, 0, 0, 0));
  if (f->work) { /* solves exist: refresh their values, keep their schedules */
    PetscCall(GPUPCTasslOpRefresh(&f->L, &f->F));
    PetscCall(GPUPCTasslOpRefresh(&f->U, &f->F));
    if (f->haveT) {
      PetscCall(GPUPCTasslOpRefresh(&f->UT, &f->F));
      PetscCall(GPUPCTasslOpRefresh(&f->LT, &f->F));
    }
#if defined(GPUPC_HAVE_CUDA)
    if (f->spsv) PetscCall(GPUPCTasslSpSVRefresh(f->spsv, &f->F));
    if (f->spsvT) PetscCall(GPUPCTasslSpSVRefresh(f->spsvT, &f->F));
#endif
  }
  PetscFunctionReturn(0);
}

/* after the first numeric factorization: the TASSL analysis of L and U and their device solves (and cuSPARSE's) */
PetscErrorCode GPUPCTasslFactorSetUpSolves(GPUPCTasslFactor *f)
{
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  if (f->work) PetscFunctionReturn(0);
  if (f->solve == GPUPC_TASSL_SOLVE_CUSPARSE) PetscCall(CheckCUSPARSE());
  PetscCall(PetscLogEventBegin(PC_TASSLILU_Analysis, 0, 0, 0, 0));
  PetscCall(PetscTime(&t0));
  PetscCall(GPUPCTasslOpCreate(&f->F, GPUPC_TRI_L, f->nmax, f->F.rperm, NULL, &f->L));
  PetscCall(GPUPCTasslOpCreate(&f->F, GPUPC_TRI_U, f->nmax, NULL, f->F.cperm, &f->U));
  PetscCall(GPUPCMallocArray(PetscMax(f->F.n, 1), &f->work));
  PetscCall(PetscTime(&t1));
  f->tanalysis = t1 - t0;
#if defined(GPUPC_HAVE_CUDA)
  if (f->solve == GPUPC_TASSL_SOLVE_CUSPARSE) {
    PetscCall(PetscTime(&t0));
    PetscCall(GPUPCTasslSpSVCreate(&f->F, PETSC_FALSE, &f->spsv));
    PetscCall(PetscTime(&t1));
    f->tspsv = t1 - t0;
  }
#endif
  PetscCall(PetscLogEventEnd(PC_TASSLILU_Analysis, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* the transpose solves, at their first use */
static PetscErrorCode SetUpTransposeSolves(GPUPCTasslFactor *f)
{
  PetscFunctionBegin;
  if (f->haveT) PetscFunctionReturn(0);
  PetscCall(PetscLogEventBegin(PC_TASSLILU_Analysis, 0, 0, 0, 0));
  PetscCall(GPUPCTasslOpCreate(&f->F, GPUPC_TRI_UT, f->nmax, f->F.cperm, NULL, &f->UT));
  PetscCall(GPUPCTasslOpCreate(&f->F, GPUPC_TRI_LT, f->nmax, NULL, f->F.rperm, &f->LT));
#if defined(GPUPC_HAVE_CUDA)
  if (f->solve == GPUPC_TASSL_SOLVE_CUSPARSE) PetscCall(GPUPCTasslSpSVCreate(&f->F, PETSC_TRUE, &f->spsvT));
#endif
  f->haveT = PETSC_TRUE;
  PetscCall(PetscLogEventEnd(PC_TASSLILU_Analysis, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* y = (LU)^{-1} x, or (LU)^{-T} x, in the user's numbering (x, y: local parts, any Vec type) */
PetscErrorCode GPUPCTasslFactorApply(GPUPCTasslFactor *f, PetscBool transpose, Vec x, Vec y)
{
  const PetscScalar *b;
  PetscScalar       *s;

  PetscFunctionBegin;
  PetscCheck(f->work, PETSC_COMM_SELF, PETSC_ERR_ORDER, "the TASSL solves are not set up");
  if (transpose) PetscCall(SetUpTransposeSolves(f));
  PetscCall(PetscLogEventBegin(PC_TASSLILU_Solve, x, y, 0, 0));
  PetscCall(VecGPUGetDeviceArrayRead(x, &b));
  PetscCall(VecGPUGetDeviceArrayWrite(y, &s));
  if (f->solve == GPUPC_TASSL_SOLVE_CUSPARSE) {
#if defined(GPUPC_HAVE_CUDA)
    PetscCall(GPUPCTasslSpSVApply(transpose ? f->spsvT : f->spsv, b, s));
#else
    PetscCall(CheckCUSPARSE());
#endif
  } else if (!transpose) {
    PetscCall(GPUPCTasslOpSolve(&f->L, f->solve, f->launch, b, f->work));
    PetscCall(GPUPCTasslOpSolve(&f->U, f->solve, f->launch, f->work, s));
  } else {
    PetscCall(GPUPCTasslOpSolve(&f->UT, f->solve, f->launch, b, f->work));
    PetscCall(GPUPCTasslOpSolve(&f->LT, f->solve, f->launch, f->work, s));
  }
  PetscCall(VecGPURestoreDeviceArrayWrite(y, &s));
  PetscCall(VecGPURestoreDeviceArrayRead(x, &b));
  PetscCall(PetscLogFlops(2.0 * (f->L.sched.nedges + f->U.sched.nedges) + f->F.n));
  PetscCall(PetscLogEventEnd(PC_TASSLILU_Solve, x, y, 0, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode ViewOp(GPUPCTasslOp *op, const char *name, GPUPCTasslLaunch launch, PetscViewer v)
{
  const GPUPCTasslSchedule *S   = &op->sched;
  const PetscBool           one = (PetscBool)(launch == GPUPC_TASSL_LAUNCH_ONE || (launch == GPUPC_TASSL_LAUNCH_AUTO && S->nlev >= GPUPC_TASSL_ONELAUNCH_LEVELS));

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(v, "%s: %" PetscInt_FMT " sub-graphs (largest %" PetscInt_FMT " rows) in %" PetscInt_FMT " sub-graph levels, %" PetscInt_FMT " edges in %" PetscInt_FMT " time slots (%" PetscInt_FMT " on the critical path), concurrency C = %.4f; %" PetscInt_FMT " level sets; analysis %.3g s\n", name, S->nsub, op->dev.nmax, S->nlev, S->nedges, S->nslots, S->critslots, (double)S->C, S->nls, S->time));
  PetscCall(PetscViewerASCIIPrintf(v, "    components %" PetscInt_FMT " (%" PetscInt_FMT " rows without edges, %" PetscInt_FMT " split into boxes of %" PetscInt_FMT " coordinates, side at most %" PetscInt_FMT ", %" PetscInt_FMT " boxes cut at the sub-graph size); launch: %s\n", S->ncomp, S->nisolated, S->nsplit, S->ncoord, S->side, S->ncut, one ? "one, with ready flags" : "one per sub-graph level"));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCTasslFactorView(GPUPCTasslFactor *f, PetscViewer v)
{
  PetscInt nl = 0, nu = 0;

  PetscFunctionBegin;
  if (!f->F.ai) PetscFunctionReturn(0);
  for (PetscInt i = 0; i < f->F.n; i++) {
    nl += f->F.adiag[i] - f->F.ai[i];
    nu += f->F.ai[i + 1] - f->F.adiag[i];
  }
  PetscCall(PetscViewerASCIIPrintf(v, "ILU(%" PetscInt_FMT ") factor: %" PetscInt_FMT " rows, %" PetscInt_FMT " entries of A, %" PetscInt_FMT " of L (unit diagonal not stored) and %" PetscInt_FMT " of U (fill ratio %.3g); symbolic %.3g s, numeric %.3g s (%" PetscInt_FMT " numeric factorizations)\n", f->F.levels, f->F.n, f->F.nnzA, nl, nu, f->F.nnzA ? (double)(nl + nu) / (double)f->F.nnzA : 0.0, f->tsymbolic, f->tnumeric, f->nnumeric));
  if (f->F.shift == GPUPC_ILU_SHIFT_POSITIVE_DEFINITE && f->F.shiftused > 0.0) PetscCall(PetscViewerASCIIPrintf(v, "diagonal shifted by %g (positive_definite)\n", (double)f->F.shiftused));
  if (f->F.shift == GPUPC_ILU_SHIFT_NONZERO && f->F.nshifted) PetscCall(PetscViewerASCIIPrintf(v, "%" PetscInt_FMT " pivots shifted (nonzero)\n", f->F.nshifted));
  PetscCall(PetscViewerASCIIPrintf(v, "triangular solves: %s; sub-graph size at most %" PetscInt_FMT " rows\n", PCTASSLILUSolveTypes[f->solve], f->nmax));
  if (f->work) {
    PetscCall(ViewOp(&f->L, "L", f->launch, v));
    PetscCall(ViewOp(&f->U, "U", f->launch, v));
    if (f->haveT) {
      PetscCall(ViewOp(&f->UT, "U^T", f->launch, v));
      PetscCall(ViewOp(&f->LT, "L^T", f->launch, v));
    }
    PetscCall(PetscViewerASCIIPrintf(v, "TASSL analysis of L and U: %.3g s (%.3g x the numeric factorization)\n", f->tanalysis, f->tnumeric > 0 ? f->tanalysis / f->tnumeric : 0.0));
    if (f->solve == GPUPC_TASSL_SOLVE_CUSPARSE) PetscCall(PetscViewerASCIIPrintf(v, "cuSPARSE SpSV analysis of L and U: %.3g s\n", f->tspsv));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCTasslFactorDestroy(GPUPCTasslFactor *f)
{
  PetscFunctionBegin;
  PetscCall(DestroySolves(f));
  PetscCall(GPUPCILUDestroy(&f->F));
  PetscFunctionReturn(0);
}

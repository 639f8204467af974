/*
   Host reference implementation of the TASSL triangular-solve kernels (gpupc/tasslkernels.h): plain loops, the
   semantics the CUDA kernels must match. A sub-graph is run as its thread block would run it: its rows' b into a
   local buffer, the external then the internal time slots in order, x written back. The one-launch version takes
   the sub-graphs in ticket order (level order; the host needs no ticket counter) and checks that every sub-graph it depends on has raised its
   ready flag, so a schedule that would deadlock or race on the device fails here.
*/
#include <gpupc/tasslkernels.h>

/* one sub-graph; xs holds at least its rows */
static void Subgraph(const GPUPCTasslDev *T, PetscInt g, const PetscScalar *b, PetscScalar *x, PetscScalar *xs)
{
  const PetscInt r0 = T->subptr[g], nr = T->subptr[g + 1] - r0, s0 = T->slotptr[g], s1 = T->slotptr[g + 1], se = s0 + T->next[g];

  for (PetscInt k = 0; k < nr; k++) xs[k] = T->dinv[r0 + k] * b[T->bidx[r0 + k]];
  for (PetscInt s = s0; s < s1; s++) {
    if (s < se)
      for (PetscInt e = T->edgeptr[s]; e < T->edgeptr[s + 1]; e++) xs[T->etgt[e]] -= T->eval[e] * x[T->esrc[e]];
    else
      for (PetscInt e = T->edgeptr[s]; e < T->edgeptr[s + 1]; e++) xs[T->etgt[e]] -= T->eval[e] * xs[T->esrc[e]];
  }
  for (PetscInt k = 0; k < nr; k++) x[T->xidx[r0 + k]] = xs[k];
}

static PetscErrorCode Subgraphs_Host(const GPUPCTasslDev *T, const PetscScalar *b, PetscScalar *x)
{
  PetscScalar *xs;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(T->nmax + 1, &xs));
  for (PetscInt p = 0; p < T->nlev; p++)
    for (PetscInt g = T->hlevptr[p]; g < T->hlevptr[p + 1]; g++) Subgraph(T, g, b, x, xs);
  PetscCall(PetscFree(xs));
  PetscFunctionReturn(0);
}

static PetscErrorCode OneLaunch_Host(const GPUPCTasslDev *T, int epoch, const PetscScalar *b, PetscScalar *x)
{
  PetscScalar *xs;

  PetscFunctionBegin;
  PetscCheck(epoch > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "one-launch TASSL solve needs an epoch > 0, not %d", epoch);
  PetscCall(PetscMalloc1(T->nmax + 1, &xs));
  for (PetscInt g = 0; g < T->nsub; g++) {
    for (PetscInt d = T->depptr[g]; d < T->depptr[g + 1]; d++)
      PetscCheck(T->ready[T->dep[d]] == epoch, PETSC_COMM_SELF, PETSC_ERR_PLIB, "one-launch TASSL solve: sub-graph %" PetscInt_FMT " would wait on sub-graph %" PetscInt_FMT ", which comes later in ticket order", g, T->dep[d]);
    Subgraph(T, g, b, x, xs);
    T->ready[g] = epoch;
  }
  PetscCall(PetscFree(xs));
  PetscFunctionReturn(0);
}

static PetscErrorCode LevelSet_Host(const GPUPCTasslDev *T, const PetscScalar *b, PetscScalar *x)
{
  for (PetscInt l = 0; l < T->nls; l++)
    for (PetscInt k = T->hlsptr[l]; k < T->hlsptr[l + 1]; k++) {
      PetscScalar s = T->lsdinv[k] * b[T->lsbidx[k]];
      for (PetscInt q = T->lsrp[k]; q < T->lsrp[k + 1]; q++) s -= T->lsval[q] * x[T->lscol[q]];
      x[T->lsxidx[k]] = s;
    }
  return 0;
}

/* the table: every member's Stem_Host from GPUPC_TASSL_KERNEL_LIST, by name (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_DEFINE(GPUPCTasslKernels, GPUPCTasslKernelsHost, GPUPC_TASSL_KERNEL_LIST, "host", _Host);

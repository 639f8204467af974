/*
   Host reference of the gpuamg smoothed-aggregation kernels (gpupc/amgaggkernels.h): a loop over the nodes (or
   aggregates) around the code the CUDA table shares (../amgaggrows.h). On the host backend this table is the device
   setup's aggregation.
*/
#include "../amgaggrows.h"

static PetscErrorCode AMGAggNodeNorm_Host(const GPUPCDevCSR *A, PetscInt bs, PetscReal *dnorm)
{
  for (PetscInt x = 0; x < A->m / bs; x++) dnorm[x] = GPUPCAMGAggNodeNormOf(A->i, A->j, A->a, bs, x);
  return 0;
}

static PetscErrorCode AMGAggStrengthCount_Host(const GPUPCDevCSR *A, PetscInt bs, PetscReal eps, const PetscReal *dnorm, PetscInt *Si)
{
  for (PetscInt x = 0; x < A->m / bs; x++) Si[x + 1] = GPUPCAMGAggStrongNode(A->i, A->j, A->a, bs, eps, dnorm, x, NULL);
  return 0;
}

static PetscErrorCode AMGAggStrengthFill_Host(const GPUPCDevCSR *A, PetscInt bs, PetscReal eps, const PetscReal *dnorm, GPUPCDevCSR *S)
{
  for (PetscInt x = 0; x < A->m / bs; x++) (void)GPUPCAMGAggStrongNode(A->i, A->j, A->a, bs, eps, dnorm, x, S->j + S->i[x]);
  return 0;
}

static PetscErrorCode AMGAggUnionCount_Host(const GPUPCDevCSR *S, const GPUPCDevCSR *ST, PetscInt *Gi)
{
  for (PetscInt x = 0; x < S->m; x++) Gi[x + 1] = GPUPCAMGAggMerge(S->j + S->i[x], S->i[x + 1] - S->i[x], ST->j + ST->i[x], ST->i[x + 1] - ST->i[x], NULL);
  return 0;
}

static PetscErrorCode AMGAggUnionFill_Host(const GPUPCDevCSR *S, const GPUPCDevCSR *ST, GPUPCDevCSR *G)
{
  for (PetscInt x = 0; x < S->m; x++) (void)GPUPCAMGAggMerge(S->j + S->i[x], S->i[x + 1] - S->i[x], ST->j + ST->i[x], ST->i[x + 1] - ST->i[x], G->j + G->i[x]);
  return 0;
}

static PetscErrorCode AMGAggMIS2Init_Host(const GPUPCDevCSR *G, PetscInt *state, PetscInt *left)
{
  *left = 0;
  for (PetscInt x = 0; x < G->m; x++) {
    state[x] = G->i[x + 1] > G->i[x] ? GPUPC_AMG_AGG_UNDEC : GPUPC_AMG_AGG_NONE;
    *left += state[x] == GPUPC_AMG_AGG_UNDEC;
  }
  return 0;
}

static PetscErrorCode AMGAggMIS2Max_Host(const GPUPCDevCSR *G, const PetscInt *state, const PetscInt *src, PetscInt order, PetscInt *dst)
{
  for (PetscInt x = 0; x < G->m; x++) dst[x] = GPUPCAMGAggMaxNode(G->i, G->j, state, src, order, x);
  return 0;
}

static PetscErrorCode AMGAggMIS2Roots_Host(PetscInt n, const PetscInt *best, PetscInt *state, PetscInt *roots, PetscInt *nroots)
{
  *nroots = 0;
  for (PetscInt x = 0; x < n; x++) {
    roots[x] = -1;
    if (state[x] == GPUPC_AMG_AGG_UNDEC && best[x] == x) {
      state[x] = GPUPC_AMG_AGG_ROOT;
      roots[x] = x;
      (*nroots)++;
    }
  }
  return 0;
}

static PetscErrorCode AMGAggMIS2Cover_Host(PetscInt n, const PetscInt *near, PetscInt *state, PetscInt *left)
{
  *left = 0;
  for (PetscInt x = 0; x < n; x++) {
    if (state[x] == GPUPC_AMG_AGG_UNDEC && near[x] >= 0) state[x] = GPUPC_AMG_AGG_COVERED;
    *left += state[x] == GPUPC_AMG_AGG_UNDEC;
  }
  return 0;
}

static PetscErrorCode AMGAggFirst_Host(const GPUPCDevCSR *G, const PetscInt *state, const PetscInt *rootnum, PetscInt *first)
{
  for (PetscInt x = 0; x < G->m; x++) first[x] = GPUPCAMGAggFirstOf(G->i, G->j, state, rootnum, x);
  return 0;
}

static PetscErrorCode AMGAggSecond_Host(const GPUPCDevCSR *G, const PetscInt *first, PetscInt *agg, PetscInt *orphan)
{
  *orphan = -1;
  for (PetscInt x = 0; x < G->m; x++) {
    agg[x] = GPUPCAMGAggSecondOf(G->i, G->j, first, x);
    if (agg[x] == -3 && *orphan < 0) *orphan = x;
  }
  return 0;
}

static PetscErrorCode AMGAggBounds_Host(PetscInt nkept, const PetscInt *anodes, const PetscInt *agg, PetscInt nagg, PetscInt *aptr)
{
  for (PetscInt q = 0; q < nkept; q++)
    if (q == 0 || agg[anodes[q - 1]] != agg[anodes[q]]) aptr[agg[anodes[q]]] = q;
  aptr[nagg] = nkept;
  return 0;
}

static PetscErrorCode AMGAggTentCount_Host(PetscInt nn, PetscInt bs, PetscInt nv, const PetscInt *agg, PetscInt *Pi)
{
  for (PetscInt r = 0; r < nn * bs; r++) Pi[r + 1] = agg[r / bs] >= 0 ? nv : 0;
  return 0;
}

static PetscErrorCode AMGAggTentQR_Host(PetscInt nagg, PetscInt bs, PetscInt nv, const PetscInt *aptr, const PetscInt *anodes, const PetscReal *B, GPUPCDevCSR *P, PetscReal *Bc, PetscInt *bad)
{
  *bad = -1;
  for (PetscInt a = 0; a < nagg; a++)
    if (GPUPCAMGAggQR(a, bs, nv, aptr[a + 1] - aptr[a], anodes + aptr[a], B, P->i, P->j, P->a, Bc) && *bad < 0) *bad = a;
  return 0;
}

static PetscErrorCode AMGAggProlSmooth_Host(GPUPCDevCSR *AP, const PetscScalar *d, PetscReal omega, const GPUPCDevCSR *Pt, PetscInt *missing)
{
  *missing = 0;
  for (PetscInt x = 0; x < AP->m; x++) *missing += GPUPCAMGAggSmoothRow(AP->i, AP->j, AP->a, d[x], omega, Pt->i, Pt->j, Pt->a, x);
  return 0;
}

GPUPC_KERNEL_TABLE_DEFINE(GPUPCAMGAggKernels, GPUPCAMGAggKernelsHost, GPUPC_AMG_AGG_KERNEL_LIST, "host", _Host);

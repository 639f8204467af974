/*
   CUDA implementation of the gpuamg smoothed-aggregation kernels (gpupc/amgaggkernels.h): one thread per node (or per
   aggregate for the QR, or per row for the smoothing; grid-stride) around the code shared with the host reference
   (../amgaggrows.h), so both tables compute every node alike. Counts and first indices come back through one device
   integer (atomics), copied to the host.
*/
#include <gpupc/cuda.h>
#include "../amgaggrows.h"
#include "amgcudahelp.h"
#include <climits>

__global__ void NodeNormKernel(GPUPCDevCSR A, PetscInt bs, PetscReal *dnorm)
{
  ROWS(x, A.m / bs)
  dnorm[x] = GPUPCAMGAggNodeNormOf(A.i, A.j, A.a, bs, (PetscInt)x);
}

static PetscErrorCode AMGAggNodeNorm_CUDA(const GPUPCDevCSR *A, PetscInt bs, PetscReal *dnorm)
{
  PetscFunctionBegin;
  if (A->m / bs == 0) PetscFunctionReturn(0);
  NodeNormKernel<<<Grid(A->m / bs), BLOCK, 0, GPUPCCUDAStream()>>>(*A, bs, dnorm);
  GPUPCCheckLaunch("NodeNormKernel");
  PetscFunctionReturn(0);
}

/* Si set: counts; else the columns into S */
__global__ void AggStrengthKernel(GPUPCDevCSR A, PetscInt bs, PetscReal eps, const PetscReal *dnorm, PetscInt *Si, GPUPCDevCSR S)
{
  ROWS(x, A.m / bs)
  {
    if (Si) Si[x + 1] = GPUPCAMGAggStrongNode(A.i, A.j, A.a, bs, eps, dnorm, (PetscInt)x, NULL);
    else (void)GPUPCAMGAggStrongNode(A.i, A.j, A.a, bs, eps, dnorm, (PetscInt)x, S.j + S.i[x]);
  }
}

static PetscErrorCode AMGAggStrengthCount_CUDA(const GPUPCDevCSR *A, PetscInt bs, PetscReal eps, const PetscReal *dnorm, PetscInt *Si)
{
  GPUPCDevCSR none = {0, 0, 0, NULL, NULL, NULL};

  PetscFunctionBegin;
  if (A->m / bs == 0) PetscFunctionReturn(0);
  AggStrengthKernel<<<Grid(A->m / bs), BLOCK, 0, GPUPCCUDAStream()>>>(*A, bs, eps, dnorm, Si, none);
  GPUPCCheckLaunch("AggStrengthKernel");
  PetscFunctionReturn(0);
}

static PetscErrorCode AMGAggStrengthFill_CUDA(const GPUPCDevCSR *A, PetscInt bs, PetscReal eps, const PetscReal *dnorm, GPUPCDevCSR *S)
{
  PetscFunctionBegin;
  if (A->m / bs == 0) PetscFunctionReturn(0);
  AggStrengthKernel<<<Grid(A->m / bs), BLOCK, 0, GPUPCCUDAStream()>>>(*A, bs, eps, dnorm, NULL, *S);
  GPUPCCheckLaunch("AggStrengthKernel");
  PetscFunctionReturn(0);
}

/* Gi set: counts; else the merged rows into G */
__global__ void UnionKernel(GPUPCDevCSR S, GPUPCDevCSR ST, PetscInt *Gi, GPUPCDevCSR G)
{
  ROWS(x, S.m)
  {
    const PetscInt na = S.i[x + 1] - S.i[x], nb = ST.i[x + 1] - ST.i[x];
    if (Gi) Gi[x + 1] = GPUPCAMGAggMerge(S.j + S.i[x], na, ST.j + ST.i[x], nb, NULL);
    else (void)GPUPCAMGAggMerge(S.j + S.i[x], na, ST.j + ST.i[x], nb, G.j + G.i[x]);
  }
}

static PetscErrorCode AMGAggUnionCount_CUDA(const GPUPCDevCSR *S, const GPUPCDevCSR *ST, PetscInt *Gi)
{
  GPUPCDevCSR none = {0, 0, 0, NULL, NULL, NULL};

  PetscFunctionBegin;
  if (S->m == 0) PetscFunctionReturn(0);
  UnionKernel<<<Grid(S->m), BLOCK, 0, GPUPCCUDAStream()>>>(*S, *ST, Gi, none);
  GPUPCCheckLaunch("UnionKernel");
  PetscFunctionReturn(0);
}

static PetscErrorCode AMGAggUnionFill_CUDA(const GPUPCDevCSR *S, const GPUPCDevCSR *ST, GPUPCDevCSR *G)
{
  PetscFunctionBegin;
  if (S->m == 0) PetscFunctionReturn(0);
  UnionKernel<<<Grid(S->m), BLOCK, 0, GPUPCCUDAStream()>>>(*S, *ST, NULL, *G);
  GPUPCCheckLaunch("UnionKernel");
  PetscFunctionReturn(0);
}

__global__ void MIS2InitKernel(GPUPCDevCSR G, PetscInt *state, int *left)
{
  int mine = 0;
  ROWS(x, G.m)
  {
    state[x] = G.i[x + 1] > G.i[x] ? GPUPC_AMG_AGG_UNDEC : GPUPC_AMG_AGG_NONE;
    mine += state[x] == GPUPC_AMG_AGG_UNDEC;
  }
  if (mine) atomicAdd(left, mine);
}

static PetscErrorCode AMGAggMIS2Init_CUDA(const GPUPCDevCSR *G, PetscInt *state, PetscInt *left)
{
  GPUPCDevScalar c;

  PetscFunctionBegin;
  PetscCall(CounterGet(0, &c));
  if (G->m > 0) {
    MIS2InitKernel<<<Grid(G->m), BLOCK, 0, GPUPCCUDAStream()>>>(*G, state, (int *)c.d);
    GPUPCCheckLaunch("MIS2InitKernel");
  }
  PetscCall(CounterPut(&c, left));
  PetscFunctionReturn(0);
}

__global__ void MIS2MaxKernel(GPUPCDevCSR G, const PetscInt *state, const PetscInt *src, PetscInt order, PetscInt *dst)
{
  ROWS(x, G.m)
  dst[x] = GPUPCAMGAggMaxNode(G.i, G.j, state, src, order, (PetscInt)x);
}

static PetscErrorCode AMGAggMIS2Max_CUDA(const GPUPCDevCSR *G, const PetscInt *state, const PetscInt *src, PetscInt order, PetscInt *dst)
{
  PetscFunctionBegin;
  if (G->m == 0) PetscFunctionReturn(0);
  MIS2MaxKernel<<<Grid(G->m), BLOCK, 0, GPUPCCUDAStream()>>>(*G, state, src, order, dst);
  GPUPCCheckLaunch("MIS2MaxKernel");
  PetscFunctionReturn(0);
}

__global__ void MIS2RootsKernel(PetscInt n, const PetscInt *best, PetscInt *state, PetscInt *roots, int *cnt)
{
  int mine = 0;
  ROWS(x, n)
  {
    roots[x] = -1;
    if (state[x] == GPUPC_AMG_AGG_UNDEC && best[x] == (PetscInt)x) {
      state[x] = GPUPC_AMG_AGG_ROOT;
      roots[x] = (PetscInt)x;
      mine++;
    }
  }
  if (mine) atomicAdd(cnt, mine);
}

static PetscErrorCode AMGAggMIS2Roots_CUDA(PetscInt n, const PetscInt *best, PetscInt *state, PetscInt *roots, PetscInt *nroots)
{
  GPUPCDevScalar c;

  PetscFunctionBegin;
  PetscCall(CounterGet(0, &c));
  if (n > 0) {
    MIS2RootsKernel<<<Grid(n), BLOCK, 0, GPUPCCUDAStream()>>>(n, best, state, roots, (int *)c.d);
    GPUPCCheckLaunch("MIS2RootsKernel");
  }
  PetscCall(CounterPut(&c, nroots));
  PetscFunctionReturn(0);
}

__global__ void MIS2CoverKernel(PetscInt n, const PetscInt *near, PetscInt *state, int *left)
{
  int mine = 0;
  ROWS(x, n)
  {
    if (state[x] == GPUPC_AMG_AGG_UNDEC && near[x] >= 0) state[x] = GPUPC_AMG_AGG_COVERED;
    mine += state[x] == GPUPC_AMG_AGG_UNDEC;
  }
  if (mine) atomicAdd(left, mine);
}

static PetscErrorCode AMGAggMIS2Cover_CUDA(PetscInt n, const PetscInt *near, PetscInt *state, PetscInt *left)
{
  GPUPCDevScalar c;

  PetscFunctionBegin;
  PetscCall(CounterGet(0, &c));
  if (n > 0) {
    MIS2CoverKernel<<<Grid(n), BLOCK, 0, GPUPCCUDAStream()>>>(n, near, state, (int *)c.d);
    GPUPCCheckLaunch("MIS2CoverKernel");
  }
  PetscCall(CounterPut(&c, left));
  PetscFunctionReturn(0);
}

__global__ void AggFirstKernel(GPUPCDevCSR G, const PetscInt *state, const PetscInt *rootnum, PetscInt *first)
{
  ROWS(x, G.m)
  first[x] = GPUPCAMGAggFirstOf(G.i, G.j, state, rootnum, (PetscInt)x);
}

static PetscErrorCode AMGAggFirst_CUDA(const GPUPCDevCSR *G, const PetscInt *state, const PetscInt *rootnum, PetscInt *first)
{
  PetscFunctionBegin;
  if (G->m == 0) PetscFunctionReturn(0);
  AggFirstKernel<<<Grid(G->m), BLOCK, 0, GPUPCCUDAStream()>>>(*G, state, rootnum, first);
  GPUPCCheckLaunch("AggFirstKernel");
  PetscFunctionReturn(0);
}

__global__ void AggSecondKernel(GPUPCDevCSR G, const PetscInt *first, PetscInt *agg, int *orphan)
{
  ROWS(x, G.m)
  {
    agg[x] = GPUPCAMGAggSecondOf(G.i, G.j, first, (PetscInt)x);
    if (agg[x] == -3) atomicMin(orphan, (int)x);
  }
}

static PetscErrorCode AMGAggSecond_CUDA(const GPUPCDevCSR *G, const PetscInt *first, PetscInt *agg, PetscInt *orphan)
{
  GPUPCDevScalar c;

  PetscFunctionBegin;
  PetscCall(CounterGet(INT_MAX, &c));
  if (G->m > 0) {
    AggSecondKernel<<<Grid(G->m), BLOCK, 0, GPUPCCUDAStream()>>>(*G, first, agg, (int *)c.d);
    GPUPCCheckLaunch("AggSecondKernel");
  }
  PetscCall(CounterPut(&c, orphan));
  if (*orphan == INT_MAX) *orphan = -1;
  PetscFunctionReturn(0);
}

__global__ void AggBoundsKernel(PetscInt nkept, const PetscInt *anodes, const PetscInt *agg, PetscInt nagg, PetscInt *aptr)
{
  ROWS(q, nkept)
  if (q == 0 || agg[anodes[q - 1]] != agg[anodes[q]]) aptr[agg[anodes[q]]] = (PetscInt)q;
  if (blockIdx.x == 0 && threadIdx.x == 0) aptr[nagg] = nkept;
}

static PetscErrorCode AMGAggBounds_CUDA(PetscInt nkept, const PetscInt *anodes, const PetscInt *agg, PetscInt nagg, PetscInt *aptr)
{
  PetscFunctionBegin;
  AggBoundsKernel<<<Grid(nkept), BLOCK, 0, GPUPCCUDAStream()>>>(nkept, anodes, agg, nagg, aptr);
  GPUPCCheckLaunch("AggBoundsKernel");
  PetscFunctionReturn(0);
}

__global__ void TentCountKernel(PetscInt nn, PetscInt bs, PetscInt nv, const PetscInt *agg, PetscInt *Pi)
{
  ROWS(r, nn * bs)
  Pi[r + 1] = agg[r / bs] >= 0 ? nv : 0;
}

static PetscErrorCode AMGAggTentCount_CUDA(PetscInt nn, PetscInt bs, PetscInt nv, const PetscInt *agg, PetscInt *Pi)
{
  PetscFunctionBegin;
  if (nn * bs == 0) PetscFunctionReturn(0);
  TentCountKernel<<<Grid(nn * bs), BLOCK, 0, GPUPCCUDAStream()>>>(nn, bs, nv, agg, Pi);
  GPUPCCheckLaunch("TentCountKernel");
  PetscFunctionReturn(0);
}

/* one thread per aggregate: its rows of P are its own, so threads do not share entries */
__global__ void TentQRKernel(PetscInt nagg, PetscInt bs, PetscInt nv, const PetscInt *aptr, const PetscInt *anodes, const PetscReal *B, GPUPCDevCSR P, PetscReal *Bc, int *bad)
{
  ROWS(a, nagg)
  if (GPUPCAMGAggQR((PetscInt)a, bs, nv, aptr[a + 1] - aptr[a], anodes + aptr[a], B, P.i, P.j, P.a, Bc)) atomicMin(bad, (int)a);
}

static PetscErrorCode AMGAggTentQR_CUDA(PetscInt nagg, PetscInt bs, PetscInt nv, const PetscInt *aptr, const PetscInt *anodes, const PetscReal *B, GPUPCDevCSR *P, PetscReal *Bc, PetscInt *bad)
{
  GPUPCDevScalar c;

  PetscFunctionBegin;
  PetscCall(CounterGet(INT_MAX, &c));
  if (nagg > 0) {
    /* blocks of 64: a few tens of thousands of aggregates still spread over every multiprocessor */
    const long long need = ((long long)nagg + 63) / 64, fill = GPUPCCUDAGridSize(1 << 28, 64);
    const int       grid = (int)(need < fill ? need : fill);
    TentQRKernel<<<grid, 64, 0, GPUPCCUDAStream()>>>(nagg, bs, nv, aptr, anodes, B, *P, Bc, (int *)c.d);
    GPUPCCheckLaunch("TentQRKernel");
  }
  PetscCall(CounterPut(&c, bad));
  if (*bad == INT_MAX) *bad = -1;
  PetscFunctionReturn(0);
}

__global__ void ProlSmoothKernel(GPUPCDevCSR AP, const PetscScalar *d, PetscReal omega, GPUPCDevCSR Pt, int *missing)
{
  int mine = 0;
  ROWS(x, AP.m)
  mine += (int)GPUPCAMGAggSmoothRow(AP.i, AP.j, AP.a, d[x], omega, Pt.i, Pt.j, Pt.a, (PetscInt)x);
  if (mine) atomicAdd(missing, mine);
}

static PetscErrorCode AMGAggProlSmooth_CUDA(GPUPCDevCSR *AP, const PetscScalar *d, PetscReal omega, const GPUPCDevCSR *Pt, PetscInt *missing)
{
  GPUPCDevScalar c;

  PetscFunctionBegin;
  PetscCall(CounterGet(0, &c));
  if (AP->m > 0) {
    ProlSmoothKernel<<<Grid(AP->m), BLOCK, 0, GPUPCCUDAStream()>>>(*AP, d, omega, *Pt, (int *)c.d);
    GPUPCCheckLaunch("ProlSmoothKernel");
  }
  PetscCall(CounterPut(&c, missing));
  PetscFunctionReturn(0);
}

GPUPC_KERNEL_TABLE_DEFINE(GPUPCAMGAggKernels, GPUPCAMGAggKernelsCUDA, GPUPC_AMG_AGG_KERNEL_LIST, "cuda", _CUDA);

/*
   CUDA implementation of the gpuamg across-ranks kernels (gpupc/amgacrosskernels.h): one thread per point (grid-stride)
   around the code shared with the host reference (../amgacrossrows.h), so both tables decide every point alike. The
   undecided count comes back through one device integer (atomics), copied to the host.
*/
#include <gpupc/cuda.h>
#include "../amgacrossrows.h"
#include "amgcudahelp.h"

__global__ void AcrossCountOwnedKernel(GPUPCDevCSR ST, PetscInt n, PetscInt *cnt)
{
  ROWS(p, ST.m)
  cnt[p] = GPUPCAMGAcrossOwnedEnd(ST.j, ST.i[p], ST.i[p + 1], n) - ST.i[p];
}

static PetscErrorCode AMGAcrossCountOwned_CUDA(const GPUPCDevCSR *ST, PetscInt n, PetscInt *cnt)
{
  PetscFunctionBegin;
  if (ST->m == 0) PetscFunctionReturn(0);
  AcrossCountOwnedKernel<<<Grid(ST->m), BLOCK, 0, GPUPCCUDAStream()>>>(*ST, n, cnt);
  GPUPCCheckLaunch("AcrossCountOwnedKernel");
  PetscFunctionReturn(0);
}

__global__ void AcrossMeasureKernel(PetscInt nx, PetscInt n, const PetscInt *cnt, const PetscInt *gidx, PetscInt reset, PetscReal *w, PetscInt *cf, int *left)
{
  int mine = 0;
  ROWS(p, nx)
  mine += GPUPCAMGAcrossMeasure(n, cnt, gidx, reset, (PetscInt)p, w, cf);
  if (mine) atomicAdd(left, mine);
}

static PetscErrorCode AMGAcrossMeasure_CUDA(PetscInt nx, PetscInt n, const PetscInt *cnt, const PetscInt *gidx, PetscInt reset, PetscReal *w, PetscInt *cf, PetscInt *left)
{
  GPUPCDevScalar c;

  PetscFunctionBegin;
  PetscCall(CounterGet(0, &c));
  if (nx > 0) {
    AcrossMeasureKernel<<<Grid(nx), BLOCK, 0, GPUPCCUDAStream()>>>(nx, n, cnt, gidx, reset, w, cf, (int *)c.d);
    GPUPCCheckLaunch("AcrossMeasureKernel");
  }
  PetscCall(CounterPut(&c, left));
  PetscFunctionReturn(0);
}

__global__ void AcrossBeatenKernel(GPUPCDevCSR ST, PetscInt n, const PetscReal *w, const PetscInt *gidx, const PetscInt *cf, PetscInt *beaten)
{
  ROWS(p, ST.m)
  beaten[p] = GPUPCAMGAcrossBeaten(ST.i, ST.j, n, w, gidx, cf, (PetscInt)p);
}

static PetscErrorCode AMGAcrossBeaten_CUDA(const GPUPCDevCSR *ST, PetscInt n, const PetscReal *w, const PetscInt *gidx, const PetscInt *cf, PetscInt *beaten)
{
  PetscFunctionBegin;
  if (ST->m == 0) PetscFunctionReturn(0);
  AcrossBeatenKernel<<<Grid(ST->m), BLOCK, 0, GPUPCCUDAStream()>>>(*ST, n, w, gidx, cf, beaten);
  GPUPCCheckLaunch("AcrossBeatenKernel");
  PetscFunctionReturn(0);
}

__global__ void AcrossSelectKernel(GPUPCDevCSR S, const PetscReal *w, const PetscInt *gidx, const PetscInt *cf, const PetscInt *beaten, char *mark)
{
  ROWS(i, S.m)
  mark[i] = GPUPCAMGAcrossSelect(S.i, S.j, w, gidx, cf, beaten, (PetscInt)i);
}

static PetscErrorCode AMGAcrossSelect_CUDA(const GPUPCDevCSR *S, const PetscReal *w, const PetscInt *gidx, const PetscInt *cf, const PetscInt *beaten, char *mark)
{
  PetscFunctionBegin;
  if (S->m == 0) PetscFunctionReturn(0);
  AcrossSelectKernel<<<Grid(S->m), BLOCK, 0, GPUPCCUDAStream()>>>(*S, w, gidx, cf, beaten, mark);
  GPUPCCheckLaunch("AcrossSelectKernel");
  PetscFunctionReturn(0);
}

__global__ void AcrossGatherKernel(PetscInt n, const PetscInt *idx, const PetscInt *src, PetscInt *dst)
{
  ROWS(k, n)
  dst[k] = src[idx[k]];
}

static PetscErrorCode AMGAcrossGather_CUDA(PetscInt n, const PetscInt *idx, const PetscInt *src, PetscInt *dst)
{
  PetscFunctionBegin;
  if (n == 0) PetscFunctionReturn(0);
  AcrossGatherKernel<<<Grid(n), BLOCK, 0, GPUPCCUDAStream()>>>(n, idx, src, dst);
  GPUPCCheckLaunch("AcrossGatherKernel");
  PetscFunctionReturn(0);
}

__global__ void AcrossScatterKernel(PetscInt n, const PetscInt *idx, const PetscInt *src, PetscInt *dst)
{
  ROWS(k, n)
  dst[idx[k]] = src ? src[k] : (PetscInt)k;
}

static PetscErrorCode AMGAcrossScatter_CUDA(PetscInt n, const PetscInt *idx, const PetscInt *src, PetscInt *dst)
{
  PetscFunctionBegin;
  if (n == 0) PetscFunctionReturn(0);
  AcrossScatterKernel<<<Grid(n), BLOCK, 0, GPUPCCUDAStream()>>>(n, idx, src, dst);
  GPUPCCheckLaunch("AcrossScatterKernel");
  PetscFunctionReturn(0);
}

__global__ void AcrossFillKernel(PetscInt n, PetscInt value, PetscInt step, PetscInt *dst)
{
  ROWS(k, n)
  dst[k] = value + step * (PetscInt)k;
}

static PetscErrorCode AMGAcrossFill_CUDA(PetscInt n, PetscInt value, PetscInt step, PetscInt *dst)
{
  PetscFunctionBegin;
  if (n == 0) PetscFunctionReturn(0);
  AcrossFillKernel<<<Grid(n), BLOCK, 0, GPUPCCUDAStream()>>>(n, value, step, dst);
  GPUPCCheckLaunch("AcrossFillKernel");
  PetscFunctionReturn(0);
}

__global__ void AcrossPadRowPtrKernel(const PetscInt *Xi, PetscInt xm, PetscInt m, PetscInt *Pi)
{
  ROWS(r, m + 1)
  Pi[r] = Xi[r < xm ? r : xm];
}

static PetscErrorCode AMGAcrossPadRowPtr_CUDA(const GPUPCDevCSR *X, PetscInt m, PetscInt *Pi)
{
  PetscFunctionBegin;
  AcrossPadRowPtrKernel<<<Grid(m + 1), BLOCK, 0, GPUPCCUDAStream()>>>(X->i, X->m, m, Pi);
  GPUPCCheckLaunch("AcrossPadRowPtrKernel");
  PetscFunctionReturn(0);
}

/* every thread writes the same value: the order does not matter */
__global__ void AcrossMarkColsKernel(PetscInt nnz, const PetscInt *j, PetscInt *flag)
{
  ROWS(e, nnz)
  flag[j[e]] = 1;
}

static PetscErrorCode AMGAcrossMarkCols_CUDA(const GPUPCDevCSR *P, PetscInt *flag)
{
  PetscFunctionBegin;
  if (P->nnz == 0) PetscFunctionReturn(0);
  AcrossMarkColsKernel<<<Grid(P->nnz), BLOCK, 0, GPUPCCUDAStream()>>>(P->nnz, P->j, flag);
  GPUPCCheckLaunch("AcrossMarkColsKernel");
  PetscFunctionReturn(0);
}

GPUPC_KERNEL_TABLE_DEFINE(GPUPCAMGAcrossKernels, GPUPCAMGAcrossKernelsCUDA, GPUPC_AMG_ACROSS_KERNEL_LIST, "cuda", _CUDA);

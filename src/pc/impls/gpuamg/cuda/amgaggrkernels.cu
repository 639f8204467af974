/*
   CUDA implementation of the gpuamg aggressive-coarsening and multipass kernels (gpupc/amgaggrkernels.h): one thread
   per row (a C point of S2, a point of the level; grid-stride) around the code shared with the host reference
   (../amgaggressiverows.h), so both tables compute every row alike. The pass count of a round comes back through one
   device integer (atomics), copied to the host.
*/
#include <gpupc/cuda.h>
#include "../amgaggressiverows.h"
#include "amgcudahelp.h"

__global__ void S2BoundKernel(GPUPCDevCSR S, const PetscInt *cf, PetscInt nc, const PetscInt *cpts, PetscInt *Bi)
{
  ROWS(q, nc)
  Bi[q + 1] = GPUPCAMGAggrS2Capacity(S.i, S.j, cf, cpts[q]);
}

static PetscErrorCode AMGAggrS2Bound_CUDA(const GPUPCDevCSR *S, const PetscInt *cf, PetscInt nc, const PetscInt *cpts, PetscInt *Bi)
{
  PetscFunctionBegin;
  if (nc == 0) PetscFunctionReturn(0);
  S2BoundKernel<<<Grid(nc), BLOCK, 0, GPUPCCUDAStream()>>>(*S, cf, nc, cpts, Bi);
  GPUPCCheckLaunch("S2BoundKernel");
  PetscFunctionReturn(0);
}

__global__ void S2CountKernel(GPUPCDevCSR S, const PetscInt *cf, PetscInt nc, const PetscInt *cpts, const PetscInt *Bi, PetscInt *bcand, PetscInt *bidx, PetscInt *S2i)
{
  ROWS(q, nc)
  S2i[q + 1] = GPUPCAMGAggrS2Count(S.i, S.j, cf, cpts[q], bcand + Bi[q], bidx + Bi[q]);
}

static PetscErrorCode AMGAggrS2Count_CUDA(const GPUPCDevCSR *S, const PetscInt *cf, PetscInt nc, const PetscInt *cpts, const PetscInt *Bi, PetscInt *bcand, PetscInt *bidx, PetscInt *S2i)
{
  PetscFunctionBegin;
  if (nc == 0) PetscFunctionReturn(0);
  S2CountKernel<<<Grid(nc), BLOCK, 0, GPUPCCUDAStream()>>>(*S, cf, nc, cpts, Bi, bcand, bidx, S2i);
  GPUPCCheckLaunch("S2CountKernel");
  PetscFunctionReturn(0);
}

__global__ void S2FillKernel(GPUPCDevCSR S, const PetscInt *cf, PetscInt nc, const PetscInt *cpts, const PetscInt *Bi, const PetscInt *bidx, const PetscInt *cidx, GPUPCDevCSR S2)
{
  ROWS(q, nc)
  GPUPCAMGAggrS2Fill(S.i, S.j, cf, cpts[q], bidx + Bi[q], cidx, S2.i[q + 1] - S2.i[q], S2.j + S2.i[q]);
}

static PetscErrorCode AMGAggrS2Fill_CUDA(const GPUPCDevCSR *S, const PetscInt *cf, PetscInt nc, const PetscInt *cpts, const PetscInt *Bi, const PetscInt *bidx, const PetscInt *cidx, GPUPCDevCSR *S2)
{
  PetscFunctionBegin;
  if (nc == 0) PetscFunctionReturn(0);
  S2FillKernel<<<Grid(nc), BLOCK, 0, GPUPCCUDAStream()>>>(*S, cf, nc, cpts, Bi, bidx, cidx, *S2);
  GPUPCCheckLaunch("S2FillKernel");
  PetscFunctionReturn(0);
}

__global__ void S2ApplyKernel(GPUPCDevCSR S2, GPUPCDevCSR S2T, const PetscInt *cf2, const PetscInt *cpts, PetscInt *cf)
{
  ROWS(q, S2.m)
  if (GPUPCAMGAggrS2Drops(S2.i, S2T.i, cf2[q], (PetscInt)q)) cf[cpts[q]] = GPUPC_AMG_F;
}

static PetscErrorCode AMGAggrS2Apply_CUDA(const GPUPCDevCSR *S2, const GPUPCDevCSR *S2T, const PetscInt *cf2, const PetscInt *cpts, PetscInt *cf)
{
  PetscFunctionBegin;
  if (S2->m == 0) PetscFunctionReturn(0);
  S2ApplyKernel<<<Grid(S2->m), BLOCK, 0, GPUPCCUDAStream()>>>(*S2, *S2T, cf2, cpts, cf);
  GPUPCCheckLaunch("S2ApplyKernel");
  PetscFunctionReturn(0);
}

__global__ void MPInitKernel(PetscInt n, const PetscInt *cf, const PetscInt *cidx, PetscInt *pass, PetscInt *rs, PetscInt *rl, PetscInt *sc, PetscReal *sv)
{
  ROWS(i, n)
  {
    const int c = cf[i] == GPUPC_AMG_C;
    pass[i]     = c ? 0 : -1;
    rs[i]       = c ? cidx[i] : 0;
    rl[i]       = c;
    if (c) {
      sc[cidx[i]] = (PetscInt)i;
      sv[cidx[i]] = 1.0;
    }
  }
}

static PetscErrorCode AMGAggrMPInit_CUDA(PetscInt n, const PetscInt *cf, const PetscInt *cidx, PetscInt *pass, PetscInt *rs, PetscInt *rl, PetscInt *sc, PetscReal *sv)
{
  PetscFunctionBegin;
  if (n == 0) PetscFunctionReturn(0);
  MPInitKernel<<<Grid(n), BLOCK, 0, GPUPCCUDAStream()>>>(n, cf, cidx, pass, rs, rl, sc, sv);
  GPUPCCheckLaunch("MPInitKernel");
  PetscFunctionReturn(0);
}

/* a point given pass p here is read by other threads as -1 or p, neither below p: the round does not depend on the
   order of the threads */
__global__ void MPRoundKernel(GPUPCDevCSR S, PetscInt p, PetscInt *pass, int *count)
{
  int mine = 0;
  ROWS(i, S.m)
  if (GPUPCAMGAggrGetsPass(S.i, S.j, pass, p, (PetscInt)i)) {
    pass[i] = p;
    mine++;
  }
  if (mine) atomicAdd(count, mine);
}

static PetscErrorCode AMGAggrMPRound_CUDA(const GPUPCDevCSR *S, PetscInt p, PetscInt *pass, PetscInt *count)
{
  GPUPCDevScalar c;

  PetscFunctionBegin;
  PetscCall(CounterGet(0, &c));
  if (S->m > 0) {
    MPRoundKernel<<<Grid(S->m), BLOCK, 0, GPUPCCUDAStream()>>>(*S, p, pass, (int *)c.d);
    GPUPCCheckLaunch("MPRoundKernel");
  }
  PetscCall(CounterPut(&c, count));
  PetscFunctionReturn(0);
}

__global__ void MPEarlierKernel(PetscInt n, const PetscInt *pass, PetscInt p, PetscInt *earlier)
{
  ROWS(i, n)
  earlier[i] = pass[i] >= 0 && pass[i] < p ? GPUPC_AMG_C : GPUPC_AMG_F;
}

static PetscErrorCode AMGAggrMPEarlier_CUDA(PetscInt n, const PetscInt *pass, PetscInt p, PetscInt *earlier)
{
  PetscFunctionBegin;
  if (n == 0) PetscFunctionReturn(0);
  MPEarlierKernel<<<Grid(n), BLOCK, 0, GPUPCCUDAStream()>>>(n, pass, p, earlier);
  GPUPCCheckLaunch("MPEarlierKernel");
  PetscFunctionReturn(0);
}

__global__ void MPBoundKernel(GPUPCDevCSR A, GPUPCDevCSR S, const PetscInt *pass, PetscInt p, const PetscInt *earlier, const PetscInt *rl, PetscInt tmax, PetscInt *Bi)
{
  ROWS(i, A.m)
  Bi[i + 1] = GPUPCAMGDevInterpCapacity(GPUPCAMGAggrMPBoundOf(A.i, S.i, S.j, pass, p, earlier, rl, (PetscInt)i), tmax);
}

static PetscErrorCode AMGAggrMPBound_CUDA(const GPUPCDevCSR *A, const GPUPCDevCSR *S, const PetscInt *pass, PetscInt p, const PetscInt *earlier, const PetscInt *rl, PetscInt tmax, PetscInt *Bi)
{
  PetscFunctionBegin;
  if (A->m == 0) PetscFunctionReturn(0);
  MPBoundKernel<<<Grid(A->m), BLOCK, 0, GPUPCCUDAStream()>>>(*A, *S, pass, p, earlier, rl, tmax, Bi);
  GPUPCCheckLaunch("MPBoundKernel");
  PetscFunctionReturn(0);
}

__global__ void MPRowsKernel(GPUPCDevCSR A, const PetscScalar *d, GPUPCDevCSR S, const PetscInt *pass, PetscInt p, const PetscInt *earlier, const PetscInt *rs, const PetscInt *rl, const PetscInt *sc, const PetscReal *sv, PetscInt tmax, PetscReal tfac, const PetscInt *Bi, PetscInt *bcols, PetscReal *bvals, PetscInt *bidx, PetscInt *Ci)
{
  ROWS(i, A.m)
  Ci[i + 1] = pass[i] == p ? GPUPCAMGAggrMPRowStored(A.i, A.j, A.a, d[i], S.i, S.j, pass, p, earlier, rs, rl, sc, sv, tmax, tfac, (PetscInt)i, bcols + Bi[i], bvals + Bi[i], bidx + Bi[i]) : 0;
}

static PetscErrorCode AMGAggrMPRows_CUDA(const GPUPCDevCSR *A, const PetscScalar *d, const GPUPCDevCSR *S, const PetscInt *pass, PetscInt p, const PetscInt *earlier, const PetscInt *rs, const PetscInt *rl, const PetscInt *sc, const PetscReal *sv, PetscInt tmax, PetscReal tfac, const PetscInt *Bi, PetscInt *bcols, PetscReal *bvals, PetscInt *bidx, PetscInt *Ci)
{
  PetscFunctionBegin;
  if (A->m == 0) PetscFunctionReturn(0);
  MPRowsKernel<<<Grid(A->m), BLOCK, 0, GPUPCCUDAStream()>>>(*A, d, *S, pass, p, earlier, rs, rl, sc, sv, tmax, tfac, Bi, bcols, bvals, bidx, Ci);
  GPUPCCheckLaunch("MPRowsKernel");
  PetscFunctionReturn(0);
}

__global__ void MPAppendKernel(PetscInt n, const PetscInt *pass, PetscInt p, const PetscInt *Bi, const PetscInt *bcols, const PetscReal *bvals, const PetscInt *Ci, PetscInt base, PetscInt *rs, PetscInt *rl, PetscInt *sc, PetscReal *sv)
{
  ROWS(i, n)
  if (pass[i] == p) GPUPCAMGAggrMPAppendRow(bcols + Bi[i], bvals + Bi[i], Ci[i + 1] - Ci[i], base + Ci[i], (PetscInt)i, rs, rl, sc, sv);
}

static PetscErrorCode AMGAggrMPAppend_CUDA(PetscInt n, const PetscInt *pass, PetscInt p, const PetscInt *Bi, const PetscInt *bcols, const PetscReal *bvals, const PetscInt *Ci, PetscInt base, PetscInt *rs, PetscInt *rl, PetscInt *sc, PetscReal *sv)
{
  PetscFunctionBegin;
  if (n == 0) PetscFunctionReturn(0);
  MPAppendKernel<<<Grid(n), BLOCK, 0, GPUPCCUDAStream()>>>(n, pass, p, Bi, bcols, bvals, Ci, base, rs, rl, sc, sv);
  GPUPCCheckLaunch("MPAppendKernel");
  PetscFunctionReturn(0);
}

GPUPC_KERNEL_TABLE_DEFINE(GPUPCAMGAggrKernels, GPUPCAMGAggrKernelsCUDA, GPUPC_AMG_AGGR_KERNEL_LIST, "cuda", _CUDA);

/*
   CUDA implementation of the gpuamg device-setup kernels (gpupc/amgsetupkernels.h): one thread per row (grid-stride)
   around the per-row code shared with the host reference (../amgdevrows.h), so both tables compute every row alike.
   Counts and the first zero diagonal come back through one device integer (atomics), copied to the host.
*/
#include <gpupc/cuda.h>
#include "../amgdevrows.h"
#include <climits>

#define BLOCK      256
#define ROWS(i, n) for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < (long long)(n); i += (long long)gridDim.x * blockDim.x)

/* blocks of a grid-stride kernel over n rows */
static int Grid(PetscInt n)
{
  const long long need = ((long long)n + BLOCK - 1) / BLOCK, fill = GPUPCCUDAGridSize(1 << 28, BLOCK);
  return (int)(need < 1 ? 1 : (need < fill ? need : fill));
}

/* a device integer set to v; the kernels count into it */
static PetscErrorCode CounterGet(int v, int **c)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMalloc(sizeof(int), (void **)c));
  PetscCall(GPUPCMemcpy(*c, &v, sizeof(int), GPUPC_COPY_HOST_TO_DEVICE));
  PetscFunctionReturn(0);
}

/* its value on the host; frees it */
static PetscErrorCode CounterPut(int **c, PetscInt *v)
{
  int h;

  PetscFunctionBegin;
  PetscCall(GPUPCMemcpy(&h, *c, sizeof(int), GPUPC_COPY_DEVICE_TO_HOST));
  PetscCall(GPUPCFree(*c));
  *c = NULL;
  *v = h;
  PetscFunctionReturn(0);
}

__global__ void DiagZeroKernel(PetscInt n, const PetscScalar *d, int *first)
{
  ROWS(r, n)
  if (d[r] == 0.0) atomicMin(first, (int)r);
}

static PetscErrorCode AMGDiagZero_CUDA(PetscInt n, const PetscScalar *d, PetscInt *row)
{
  int *c;

  PetscFunctionBegin;
  PetscCall(CounterGet(INT_MAX, &c));
  if (n > 0) {
    DiagZeroKernel<<<Grid(n), BLOCK, 0, GPUPCCUDAStream()>>>(n, d, c);
    GPUPCCheckLaunch("DiagZeroKernel");
  }
  PetscCall(CounterPut(&c, row));
  if (*row == INT_MAX) *row = -1;
  PetscFunctionReturn(0);
}

__global__ void StrengthKernel(GPUPCDevCSR A, const PetscScalar *d, PetscReal theta, PetscInt *Si, GPUPCDevCSR S)
{
  ROWS(r, A.m)
  {
    if (Si) Si[r + 1] = GPUPCAMGDevStrongRow(A.i, A.j, A.a, d[r], theta, (PetscInt)r, NULL);
    else (void)GPUPCAMGDevStrongRow(A.i, A.j, A.a, d[r], theta, (PetscInt)r, S.j + S.i[r]);
  }
}

static PetscErrorCode AMGStrengthCount_CUDA(const GPUPCDevCSR *A, const PetscScalar *d, PetscReal theta, PetscInt *Si)
{
  GPUPCDevCSR none = {0, 0, 0, NULL, NULL, NULL};

  PetscFunctionBegin;
  if (A->m == 0) PetscFunctionReturn(0);
  StrengthKernel<<<Grid(A->m), BLOCK, 0, GPUPCCUDAStream()>>>(*A, d, theta, Si, none);
  GPUPCCheckLaunch("StrengthKernel");
  PetscFunctionReturn(0);
}

static PetscErrorCode AMGStrengthFill_CUDA(const GPUPCDevCSR *A, const PetscScalar *d, PetscReal theta, GPUPCDevCSR *S)
{
  PetscFunctionBegin;
  if (A->m == 0) PetscFunctionReturn(0);
  StrengthKernel<<<Grid(A->m), BLOCK, 0, GPUPCCUDAStream()>>>(*A, d, theta, NULL, *S);
  GPUPCCheckLaunch("StrengthKernel");
  PetscFunctionReturn(0);
}

__global__ void PMISInitKernel(PetscInt n, const PetscInt *STi, PetscInt rstart, PetscReal *w, PetscInt *cf, int *left)
{
  int mine = 0;
  ROWS(i, n)
  mine += GPUPCAMGDevPMISInit(STi, rstart, (PetscInt)i, w, cf);
  if (mine) atomicAdd(left, mine);
}

static PetscErrorCode AMGPMISInit_CUDA(const GPUPCDevCSR *S, const GPUPCDevCSR *ST, PetscInt rstart, PetscReal *w, PetscInt *cf, PetscInt *left)
{
  int *c;

  PetscFunctionBegin;
  PetscCall(CounterGet(0, &c));
  if (S->m > 0) {
    PMISInitKernel<<<Grid(S->m), BLOCK, 0, GPUPCCUDAStream()>>>(S->m, ST->i, rstart, w, cf, c);
    GPUPCCheckLaunch("PMISInitKernel");
  }
  PetscCall(CounterPut(&c, left));
  PetscFunctionReturn(0);
}

__global__ void PMISSelectKernel(GPUPCDevCSR S, GPUPCDevCSR ST, const PetscReal *w, const PetscInt *cf, char *mark)
{
  ROWS(i, S.m)
  mark[i] = GPUPCAMGDevPMISMax(S.i, S.j, ST.i, ST.j, w, cf, (PetscInt)i);
}

static PetscErrorCode AMGPMISSelect_CUDA(const GPUPCDevCSR *S, const GPUPCDevCSR *ST, const PetscReal *w, const PetscInt *cf, char *mark)
{
  PetscFunctionBegin;
  if (S->m == 0) PetscFunctionReturn(0);
  PMISSelectKernel<<<Grid(S->m), BLOCK, 0, GPUPCCUDAStream()>>>(*S, *ST, w, cf, mark);
  GPUPCCheckLaunch("PMISSelectKernel");
  PetscFunctionReturn(0);
}

__global__ void PMISDependKernel(GPUPCDevCSR S, const PetscInt *cf, char *mark)
{
  ROWS(i, S.m)
  mark[i] = GPUPCAMGDevPMISDepends(S.i, S.j, cf, (PetscInt)i);
}

static PetscErrorCode AMGPMISDepend_CUDA(const GPUPCDevCSR *S, const PetscInt *cf, char *mark)
{
  PetscFunctionBegin;
  if (S->m == 0) PetscFunctionReturn(0);
  PMISDependKernel<<<Grid(S->m), BLOCK, 0, GPUPCCUDAStream()>>>(*S, cf, mark);
  GPUPCCheckLaunch("PMISDependKernel");
  PetscFunctionReturn(0);
}

__global__ void PMISSetKernel(PetscInt n, const char *mark, PetscInt value, PetscInt *cf, int *left)
{
  int mine = 0;
  ROWS(i, n)
  {
    if (mark[i]) cf[i] = value;
    mine += cf[i] == GPUPC_AMG_U;
  }
  if (mine) atomicAdd(left, mine);
}

static PetscErrorCode AMGPMISSet_CUDA(PetscInt n, const char *mark, PetscInt value, PetscInt *cf, PetscInt *left)
{
  int *c;

  PetscFunctionBegin;
  PetscCall(CounterGet(0, &c));
  if (n > 0) {
    PMISSetKernel<<<Grid(n), BLOCK, 0, GPUPCCUDAStream()>>>(n, mark, value, cf, c);
    GPUPCCheckLaunch("PMISSetKernel");
  }
  PetscCall(CounterPut(&c, left));
  PetscFunctionReturn(0);
}

__global__ void InterpBoundKernel(GPUPCDevCSR A, GPUPCDevCSR S, const PetscInt *cf, PetscInt type, PetscInt tmax, PetscInt *Bi)
{
  ROWS(i, A.m)
  Bi[i + 1] = GPUPCAMGDevInterpCapacity(GPUPCAMGDevInterpBound(A.i, S.i, S.j, cf, type, (PetscInt)i), tmax);
}

static PetscErrorCode AMGInterpBound_CUDA(const GPUPCDevCSR *A, const GPUPCDevCSR *S, const PetscInt *cf, PetscInt type, PetscInt tmax, PetscInt *Bi)
{
  PetscFunctionBegin;
  if (A->m == 0) PetscFunctionReturn(0);
  InterpBoundKernel<<<Grid(A->m), BLOCK, 0, GPUPCCUDAStream()>>>(*A, *S, cf, type, tmax, Bi);
  GPUPCCheckLaunch("InterpBoundKernel");
  PetscFunctionReturn(0);
}

__global__ void InterpRowsKernel(GPUPCDevCSR A, const PetscScalar *d, GPUPCDevCSR S, const PetscInt *cf, PetscInt type, PetscInt tmax, PetscReal tfac, const PetscInt *Bi, PetscInt *bcols, PetscReal *bvals, PetscInt *bidx, PetscInt *Pi)
{
  ROWS(i, A.m)
  Pi[i + 1] = GPUPCAMGDevInterpRowStored(A.i, A.j, A.a, d, S.i, S.j, cf, type, tmax, tfac, (PetscInt)i, bcols + Bi[i], bvals + Bi[i], bidx + Bi[i]);
}

static PetscErrorCode AMGInterpRows_CUDA(const GPUPCDevCSR *A, const PetscScalar *d, const GPUPCDevCSR *S, const PetscInt *cf, PetscInt type, PetscInt tmax, PetscReal tfac, const PetscInt *Bi, PetscInt *bcols, PetscReal *bvals, PetscInt *bidx, PetscInt *Pi)
{
  PetscFunctionBegin;
  if (A->m == 0) PetscFunctionReturn(0);
  InterpRowsKernel<<<Grid(A->m), BLOCK, 0, GPUPCCUDAStream()>>>(*A, d, *S, cf, type, tmax, tfac, Bi, bcols, bvals, bidx, Pi);
  GPUPCCheckLaunch("InterpRowsKernel");
  PetscFunctionReturn(0);
}

__global__ void InterpGatherKernel(PetscInt n, const PetscInt *Bi, const PetscInt *bcols, const PetscReal *bvals, const PetscInt *cmap, GPUPCDevCSR P)
{
  ROWS(i, n)
  GPUPCAMGDevGatherRow(P.i[i + 1] - P.i[i], bcols + Bi[i], bvals + Bi[i], cmap, P.j + P.i[i], P.a + P.i[i]);
}

static PetscErrorCode AMGInterpGather_CUDA(PetscInt n, const PetscInt *Bi, const PetscInt *bcols, const PetscReal *bvals, const PetscInt *cmap, GPUPCDevCSR *P)
{
  PetscFunctionBegin;
  if (n == 0) PetscFunctionReturn(0);
  InterpGatherKernel<<<Grid(n), BLOCK, 0, GPUPCCUDAStream()>>>(n, Bi, bcols, bvals, cmap, *P);
  GPUPCCheckLaunch("InterpGatherKernel");
  PetscFunctionReturn(0);
}

GPUPC_KERNEL_TABLE_DEFINE(GPUPCAMGSetupKernels, GPUPCAMGSetupKernelsCUDA, GPUPC_AMG_SETUP_KERNEL_LIST, "cuda", _CUDA);

/*
   amgcudahelp.h - the launch helpers of PC gpuamg's setup kernel files (amgsetupkernels.cu, amgaggkernels.cu):
   grid-stride loops of BLOCK threads, and a device integer that kernels count into (atomicAdd) or take a minimum in
   (atomicMin), read back on the host.
*/
#ifndef GPUPC_AMGCUDAHELP_H
#define GPUPC_AMGCUDAHELP_H

#include <gpupc/cuda.h>

#define BLOCK      256
#define ROWS(i, n) for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < (long long)(n); i += (long long)gridDim.x * blockDim.x)

/* blocks of a grid-stride kernel over n rows */
static inline int Grid(PetscInt n)
{
  const long long need = ((long long)n + BLOCK - 1) / BLOCK, fill = GPUPCCUDAGridSize(1 << 28, BLOCK);
  return (int)(need < 1 ? 1 : (need < fill ? need : fill));
}

/* a device integer set to v; the kernels count into it */
static inline PetscErrorCode CounterGet(int v, int **c)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMalloc(sizeof(int), (void **)c));
  PetscCall(GPUPCMemcpy(*c, &v, sizeof(int), GPUPC_COPY_HOST_TO_DEVICE));
  PetscFunctionReturn(0);
}

/* its value on the host; frees it */
static inline PetscErrorCode CounterPut(int **c, PetscInt *v)
{
  int h;

  PetscFunctionBegin;
  PetscCall(GPUPCMemcpy(&h, *c, sizeof(int), GPUPC_COPY_DEVICE_TO_HOST));
  PetscCall(GPUPCFree(*c));
  *c = NULL;
  *v = h;
  PetscFunctionReturn(0);
}

#endif

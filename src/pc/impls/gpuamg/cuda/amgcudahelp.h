/*
   amgcudahelp.h - the launch helpers of PC gpuamg's setup kernel files (amgsetupkernels.cu, amgaggkernels.cu):
   grid-stride loops of BLOCK threads, and a device integer that kernels count into (atomicAdd) or take a minimum in
   (atomicMin), read back on the host through the device scalar pool.
*/
#ifndef GPUPC_AMGCUDAHELP_H
#define GPUPC_AMGCUDAHELP_H

#include <gpupc/cuda.h>
#include <gpupc/devscalar.h>

#define BLOCK      256
#define ROWS(i, n) for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < (long long)(n); i += (long long)gridDim.x * blockDim.x)

/* blocks of a grid-stride kernel over n rows */
static inline int Grid(PetscInt n)
{
  const long long need = ((long long)n + BLOCK - 1) / BLOCK, fill = GPUPCCUDAGridSize(1 << 28, BLOCK);
  return (int)(need < 1 ? 1 : (need < fill ? need : fill));
}

/* a device integer set to v (a slot of the device scalar pool, gpupc/devscalar.h: no allocation); the kernels count
   into it through (int *)c->d */
static inline PetscErrorCode CounterGet(int v, GPUPCDevScalar *c)
{
  PetscFunctionBegin;
  PetscCall(GPUPCDevScalarGet(&v, sizeof(int), c));
  PetscFunctionReturn(0);
}

/* its value on the host (one copy, one wait); gives the slot back */
static inline PetscErrorCode CounterPut(GPUPCDevScalar *c, PetscInt *v)
{
  int h;

  PetscFunctionBegin;
  PetscCall(GPUPCDevScalarRead(c, &h, sizeof(int)));
  *v = h;
  PetscFunctionReturn(0);
}

#endif

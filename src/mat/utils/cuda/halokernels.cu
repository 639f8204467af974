/*
   CUDA implementation of the halo kernels (gpupc/matgpu.h): one thread per packed entry.
*/
#include <gpupc/cuda.h>
#include <gpupc/matgpu.h>

#define BLOCK 256

__global__ void HaloGatherKernel(int n, const PetscInt *__restrict__ idx, const PetscScalar *__restrict__ x, PetscScalar *__restrict__ buf)
{
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x) buf[k] = x[idx[k]];
}

__global__ void HaloScatterAddKernel(int n, const PetscInt *__restrict__ idx, const PetscScalar *__restrict__ buf, PetscScalar *y)
{
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x) y[idx[k]] += buf[k];
}

static PetscErrorCode Gather_CUDA(PetscInt n, const PetscInt *idx, const PetscScalar *x, PetscScalar *buf)
{
  PetscFunctionBegin;
  if (n <= 0) PetscFunctionReturn(0);
  HaloGatherKernel<<<GPUPCCUDAGridSize(n, BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>((int)n, idx, x, buf);
  GPUPCCheckLaunch("HaloGatherKernel");
  PetscFunctionReturn(0);
}

static PetscErrorCode ScatterAdd_CUDA(PetscInt n, const PetscInt *idx, const PetscScalar *buf, PetscScalar *y)
{
  PetscFunctionBegin;
  if (n <= 0) PetscFunctionReturn(0);
  HaloScatterAddKernel<<<GPUPCCUDAGridSize(n, BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>((int)n, idx, buf, y);
  GPUPCCheckLaunch("HaloScatterAddKernel");
  PetscFunctionReturn(0);
}

/* the table: every member's Stem_CUDA from GPUPC_HALO_KERNEL_LIST, by name (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_DEFINE(GPUPCHaloKernels, GPUPCHaloKernelsCUDA, GPUPC_HALO_KERNEL_LIST, "cuda", _CUDA);

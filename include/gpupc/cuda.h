/*
   gpupc/cuda.h - helpers for GPUPC's CUDA sources (.cu files only).

   Every CUDA, cuBLAS and cuSPARSE failure becomes a PETSc error that names the call and
   the status; launches are checked with GPUPCCheckLaunch().
*/
#ifndef GPUPC_CUDA_H
#define GPUPC_CUDA_H

#include <gpupc/device.h>
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cusparse.h>

#define GPUPCCallCUDA(...)                                                                                                                                                                \
  do {                                                                                                                                                                                    \
    cudaError_t gpupc_cerr_ = (__VA_ARGS__);                                                                                                                                              \
    PetscCheck(gpupc_cerr_ == cudaSuccess, PETSC_COMM_SELF, PETSC_ERR_GPU, "CUDA call %s failed: %s (%s)", #__VA_ARGS__, cudaGetErrorName(gpupc_cerr_), cudaGetErrorString(gpupc_cerr_)); \
  } while (0)

#define GPUPCCallCUBLAS(...)                                                                                                                                                                                \
  do {                                                                                                                                                                                                      \
    cublasStatus_t gpupc_berr_ = (__VA_ARGS__);                                                                                                                                                             \
    PetscCheck(gpupc_berr_ == CUBLAS_STATUS_SUCCESS, PETSC_COMM_SELF, PETSC_ERR_GPU, "cuBLAS call %s failed: %s (%s)", #__VA_ARGS__, cublasGetStatusName(gpupc_berr_), cublasGetStatusString(gpupc_berr_)); \
  } while (0)

#define GPUPCCallCUSPARSE(...)                                                                                                                                                                                    \
  do {                                                                                                                                                                                                            \
    cusparseStatus_t gpupc_serr_ = (__VA_ARGS__);                                                                                                                                                                 \
    PetscCheck(gpupc_serr_ == CUSPARSE_STATUS_SUCCESS, PETSC_COMM_SELF, PETSC_ERR_GPU, "cuSPARSE call %s failed: %s (%s)", #__VA_ARGS__, cusparseGetErrorName(gpupc_serr_), cusparseGetErrorString(gpupc_serr_)); \
  } while (0)

/* after every kernel launch */
#define GPUPCCheckLaunch(name)                                                                                                                                                                \
  do {                                                                                                                                                                                        \
    cudaError_t gpupc_lerr_ = cudaGetLastError();                                                                                                                                             \
    PetscCheck(gpupc_lerr_ == cudaSuccess, PETSC_COMM_SELF, PETSC_ERR_GPU, "CUDA kernel %s failed to launch: %s (%s)", name, cudaGetErrorName(gpupc_lerr_), cudaGetErrorString(gpupc_lerr_)); \
  } while (0)

/* The rank's stream and library handles, created once per device (lazily for the handles) */
PETSC_EXTERN cudaStream_t   GPUPCCUDAStream(void);
PETSC_EXTERN PetscErrorCode GPUPCCUDAGetCUBLAS(cublasHandle_t *);
PETSC_EXTERN PetscErrorCode GPUPCCUDAGetCUSPARSE(cusparseHandle_t *);
/* Reusable device scratch buffers, one per slot, of at least the given size (grow; freed at finalize).
   fresh (optional) says that the buffer was just (re)allocated and its contents are undefined. */
typedef enum {
  GPUPC_SCRATCH_REDUCTION, /* vector reductions: completion counter, results, per-block partials */
  GPUPC_SCRATCH_GENERAL,
  GPUPC_SCRATCH_SLOTS
} GPUPCScratchSlot;
PETSC_EXTERN PetscErrorCode GPUPCCUDAGetScratch(GPUPCScratchSlot, size_t, void **, PetscBool *);
/* Page-locked host buffer for small reduction results, mapped into the device's address space (unified addressing:
   the returned pointer is valid in kernels too, which write the results there directly) */
PETSC_EXTERN PetscErrorCode GPUPCCUDAGetPinnedResult(size_t, void **);
/* Grid size for grid-stride kernels: enough blocks to fill every SM */
PETSC_EXTERN int GPUPCCUDAGridSize(PetscInt n, int block);

/* Programmatic dependent launch (compute capability >= 9.0, -gpupc_cuda_dependent_launch): a kernel launched with
   GPUPCLaunchDependent may start while the kernel before it in the stream is still running. Before the wait it may
   only read data that no kernel of the stream writes (matrix structure and values); GPUPCWaitPrevious() returns once
   the kernel before it has finished and its writes are visible; after it the kernel may read anything and write.
   GPUPCLetNextLaunch() (called after the wait) allows the next such kernel to start its own part before the wait. */
PETSC_EXTERN int GPUPCCUDADependentLaunch(void);

__device__ __forceinline__ void GPUPCWaitPrevious(void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::
                 : "memory");
#endif
}

__device__ __forceinline__ void GPUPCLetNextLaunch(void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::
                 : "memory");
#endif
}

/* kernel<<<grid, block, 0, GPUPCCUDAStream()>>>(args...), with programmatic stream serialization when it is on:
   the kernel must call GPUPCWaitPrevious() before it reads what earlier work wrote or writes anything */
template <typename... KArgs, typename... Args>
static inline cudaError_t GPUPCLaunchDependent(unsigned grid, unsigned block, void (*kernel)(KArgs...), Args &&...args)
{
  cudaLaunchConfig_t  cfg = {};
  cudaLaunchAttribute attr;

  attr.id                                         = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  cfg.gridDim                                     = dim3(grid);
  cfg.blockDim                                    = dim3(block);
  cfg.dynamicSmemBytes                            = 0;
  cfg.stream                                      = GPUPCCUDAStream();
  cfg.attrs                                       = &attr;
  cfg.numAttrs                                    = GPUPCCUDADependentLaunch() ? 1 : 0;
  return cudaLaunchKernelEx(&cfg, kernel, static_cast<Args &&>(args)...);
}

/* The sum of v over the aligned group of W lanes (W a power of two, 1..32) that holds the calling lane; the group's
   first lane gets it. mask names the lanes that take part (at least the whole group). The warp-level reduction of
   every sparse kernel (segcsr rows and segments, CMG rows, clusters and blocks). */
template <typename T, int W>
__device__ __forceinline__ T GPUPCGroupSum(T v, unsigned mask = 0xffffffffu)
{
#pragma unroll
  for (int off = W / 2; off > 0; off >>= 1) v += __shfl_down_sync(mask, v, off, W);
  return v;
}

#endif

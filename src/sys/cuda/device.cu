/*
   The CUDA side of the device layer: device count and choice, one stream per rank,
   cuBLAS/cuSPARSE handles created once, device memory with errors that say what was
   asked and what was free, copies ordered on the rank's stream.
*/
#include <gpupc/cuda.h>
#include <gpupc/stage.h>

static cudaStream_t     stream          = NULL;
static cublasHandle_t   cublas_handle   = NULL;
static cusparseHandle_t cusparse_handle = NULL;
static void            *scratch[GPUPC_SCRATCH_SLOTS];
static size_t           scratch_bytes[GPUPC_SCRATCH_SLOTS];
static void            *pinned       = NULL;
static size_t           pinned_bytes = 0;
static int              sm_count     = 1;
/* GPUPCMalloc's memory: CUDA's stream-ordered pool of the device on the rank's stream (-gpupc_cuda_pool, default), whose
   frees do not wait for the device and whose allocations reuse what was freed; or cudaMalloc/cudaFree (pool NULL). Every
   use of that memory is ordered on the rank's stream, so a block freed and handed out again is never still in use. */
static cudaMemPool_t pool = NULL;

PetscErrorCode GPUPCCUDADeviceCount(int *count, const char **why)
{
  cudaError_t err;

  PetscFunctionBegin;
  *count = 0;
  *why   = "no device";
  err    = cudaGetDeviceCount(count);
  if (err != cudaSuccess) {
    *count = 0;
    *why   = cudaGetErrorString(err);
    (void)cudaGetLastError(); /* clear the sticky-free error so later calls are not confused */
  } else if (*count == 0) *why = "cudaGetDeviceCount() reports 0 devices";
  PetscFunctionReturn(0);
}

static int cc_major = 0, dependent_launch = 0; /* compute capability; programmatic dependent launch on */

PetscErrorCode GPUPCCUDASetUp(int dev, GPUPCDeviceInfo *info)
{
  cudaDeviceProp prop;

  PetscFunctionBegin;
  GPUPCCallCUDA(cudaSetDevice(dev));
  GPUPCCallCUDA(cudaGetDeviceProperties(&prop, dev));
  GPUPCCallCUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  info->device           = dev;
  info->sm_count         = prop.multiProcessorCount;
  info->l2_bytes         = (size_t)prop.l2CacheSize;
  info->shared_per_block = prop.sharedMemPerBlock;
  sm_count               = prop.multiProcessorCount;
  cc_major               = prop.major;
  PetscCall(PetscSNPrintf(info->name, sizeof(info->name), "%s (sm_%d%d, %d SMs, %.1f GiB)", prop.name, prop.major, prop.minor, prop.multiProcessorCount, prop.totalGlobalMem / 1073741824.0));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCCUDAFinalize(void)
{
  PetscFunctionBegin;
  if (cublas_handle) GPUPCCallCUBLAS(cublasDestroy(cublas_handle));
  if (cusparse_handle) GPUPCCallCUSPARSE(cusparseDestroy(cusparse_handle));
  for (int s = 0; s < GPUPC_SCRATCH_SLOTS; s++) {
    if (scratch[s]) PetscCall(GPUPCCUDAFree(scratch[s]));
    scratch[s]       = NULL;
    scratch_bytes[s] = 0;
  }
  if (pinned) GPUPCCallCUDA(cudaFreeHost(pinned));
  if (stream) GPUPCCallCUDA(cudaStreamSynchronize(stream));
  if (pool) GPUPCCallCUDA(cudaMemPoolTrimTo(pool, 0)); /* the device memory the pool kept goes back to the driver */
  pool = NULL;
  if (stream) GPUPCCallCUDA(cudaStreamDestroy(stream));
  cublas_handle   = NULL;
  cusparse_handle = NULL;
  pinned          = NULL;
  pinned_bytes    = 0;
  stream          = NULL;
  PetscFunctionReturn(0);
}

cudaStream_t GPUPCCUDAStream(void)
{
  return stream;
}

/* programmatic dependent launch: -gpupc_cuda_dependent_launch, on devices of compute capability 9.0 and newer */
PetscErrorCode GPUPCCUDASetDependentLaunch(PetscBool on)
{
  PetscFunctionBegin;
  dependent_launch = on && cc_major >= 9;
  PetscFunctionReturn(0);
}

int GPUPCCUDADependentLaunch(void)
{
  return dependent_launch;
}

/* blocks per SM of persistent (grid-stride) kernels; -gpupc_cuda_blocks_per_sm */
static int blocks_per_sm = 0;

PetscErrorCode GPUPCCUDASetBlocksPerSM(int b)
{
  PetscFunctionBegin;
  blocks_per_sm = b;
  PetscFunctionReturn(0);
}

int GPUPCCUDAGridSize(PetscInt n, int block)
{
  /* in 64 bits: n + block - 1 passes 2^31 for n near PETSC_MAX_INT */
  PetscInt64 need = ((PetscInt64)n + block - 1) / block, fill = (PetscInt64)sm_count * (blocks_per_sm > 0 ? blocks_per_sm : 2048 / block);

  if (need < 1) need = 1;
  return (int)(need < fill ? need : fill);
}

PetscErrorCode GPUPCCUDAGetCUBLAS(cublasHandle_t *h)
{
  PetscFunctionBegin;
  if (!cublas_handle) {
    GPUPCCallCUBLAS(cublasCreate(&cublas_handle));
    GPUPCCallCUBLAS(cublasSetStream(cublas_handle, stream));
  }
  *h = cublas_handle;
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCCUDAGetCUSPARSE(cusparseHandle_t *h)
{
  PetscFunctionBegin;
  if (!cusparse_handle) {
    GPUPCCallCUSPARSE(cusparseCreate(&cusparse_handle));
    GPUPCCallCUSPARSE(cusparseSetStream(cusparse_handle, stream));
  }
  *h = cusparse_handle;
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCCUDASetPool(PetscBool on)
{
  int dev;

  PetscFunctionBegin;
  pool = NULL;
  if (on) {
    uint64_t keep      = ~(uint64_t)0; /* keep what is freed until PetscFinalize (or an allocation fails) */
    int      supported = 0;

    GPUPCCallCUDA(cudaGetDevice(&dev));
    GPUPCCallCUDA(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, dev));
    if (supported) {
      GPUPCCallCUDA(cudaDeviceGetDefaultMemPool(&pool, dev));
      GPUPCCallCUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
    }
  }
  PetscFunctionReturn(0);
}

static bool Capturing(void)
{
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;

  return stream && cudaStreamIsCapturing(stream, &st) == cudaSuccess && st != cudaStreamCaptureStatusNone;
}

static cudaError_t Allocate(void **ptr, size_t bytes)
{
  cudaError_t err;

  if (!pool) return cudaMalloc(ptr, bytes);
  if (Capturing()) return cudaErrorStreamCaptureUnsupported; /* would become a node of the graph, as cudaMalloc may not */
  err = cudaMallocAsync(ptr, bytes, stream);
  if (err == cudaErrorMemoryAllocation) { /* what the pool keeps may be what is missing: give it back, try once more */
    (void)cudaGetLastError();
    if (cudaStreamSynchronize(stream) == cudaSuccess && cudaMemPoolTrimTo(pool, 0) == cudaSuccess) err = cudaMallocAsync(ptr, bytes, stream);
  }
  return err;
}

PetscErrorCode GPUPCCUDAMalloc(size_t bytes, void **ptr)
{
  cudaError_t err;

  PetscFunctionBegin;
  err = Allocate(ptr, bytes);
  if (err == cudaErrorMemoryAllocation) {
    size_t freeb = 0, total = 0;

    (void)cudaGetLastError();
    (void)cudaMemGetInfo(&freeb, &total);
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_MEM, "Device out of memory: asked for %zu bytes (%.3f GiB), %zu bytes (%.3f GiB) free of %.3f GiB; use more ranks/GPUs, a smaller problem, or -pc_*_precision single where offered", bytes, bytes / 1073741824.0, freeb, freeb / 1073741824.0, total / 1073741824.0);
  }
  GPUPCCallCUDA(err);
  PetscFunctionReturn(0);
}

/* outside the pool: memory that CUDA IPC can share and any stream may use at once (GPUPCMallocShareable) */
PetscErrorCode GPUPCCUDAMallocPlain(size_t bytes, void **ptr)
{
  cudaError_t err;

  PetscFunctionBegin;
  err = cudaMalloc(ptr, bytes);
  if (err == cudaErrorMemoryAllocation && pool) { /* what the pool keeps may be what is missing */
    (void)cudaGetLastError();
    GPUPCCallCUDA(cudaStreamSynchronize(stream));
    GPUPCCallCUDA(cudaMemPoolTrimTo(pool, 0));
    err = cudaMalloc(ptr, bytes);
  }
  PetscCheck(err != cudaErrorMemoryAllocation, PETSC_COMM_SELF, PETSC_ERR_MEM, "Device out of memory: asked for %zu bytes (%.3f GiB) of shareable device memory; use more ranks/GPUs or a smaller problem", bytes, bytes / 1073741824.0);
  GPUPCCallCUDA(err);
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCCUDAFreePlain(void *ptr)
{
  PetscFunctionBegin;
  GPUPCCallCUDA(cudaFree(ptr));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCCUDAFree(void *ptr)
{
  PetscFunctionBegin;
  PetscCheck(!(pool && Capturing()), PETSC_COMM_SELF, PETSC_ERR_PLIB, "GPUPCFree() while the stream is captured into a CUDA graph");
  if (pool) GPUPCCallCUDA(cudaFreeAsync(ptr, stream));
  else GPUPCCallCUDA(cudaFree(ptr));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCCUDAHostMalloc(size_t bytes, void **ptr)
{
  cudaError_t err;

  PetscFunctionBegin;
  err = cudaMallocHost(ptr, bytes);
  if (err == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_MEM, "Cannot page-lock %zu bytes (%.3f GiB) of host memory; raise the locked-memory limit (ulimit -l), or for a gpu vector's host copy use -vec_pinned_memory_min with a larger size (-1: never pin), for the upload staging buffers a smaller -gpupc_stage_bytes", bytes, bytes / 1073741824.0);
  }
  GPUPCCallCUDA(err);
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCCUDAHostFree(void *ptr)
{
  PetscFunctionBegin;
  GPUPCCallCUDA(cudaFreeHost(ptr));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCCUDAMemcpy(void *dst, const void *src, size_t bytes, GPUPCCopyKind kind)
{
  cudaMemcpyKind k = kind == GPUPC_COPY_HOST_TO_DEVICE ? cudaMemcpyHostToDevice : (kind == GPUPC_COPY_DEVICE_TO_HOST ? cudaMemcpyDeviceToHost : cudaMemcpyDeviceToDevice);

  PetscFunctionBegin;
  GPUPCCallCUDA(cudaMemcpyAsync(dst, src, bytes, k, stream));
  /* the host may reuse or read its buffer as soon as we return */
  if (kind != GPUPC_COPY_DEVICE_TO_DEVICE) GPUPCCallCUDA(cudaStreamSynchronize(stream));
  PetscFunctionReturn(0);
}

/* from page-locked memory: the copy runs in stream order while the host goes on */
PetscErrorCode GPUPCCUDACopyToDeviceNoWait(void *dst, const void *src, size_t bytes)
{
  PetscFunctionBegin;
  GPUPCCallCUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCCUDAMemzero(void *dst, size_t bytes)
{
  PetscFunctionBegin;
  GPUPCCallCUDA(cudaMemsetAsync(dst, 0, bytes, stream));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCCUDASynchronize(void)
{
  PetscFunctionBegin;
  GPUPCCallCUDA(cudaStreamSynchronize(stream));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCCUDAGetScratch(GPUPCScratchSlot slot, size_t bytes, void **ptr, PetscBool *fresh)
{
  PetscFunctionBegin;
  if (fresh) *fresh = PETSC_FALSE;
  if (bytes > scratch_bytes[slot]) {
    if (scratch[slot]) {
      GPUPCCallCUDA(cudaStreamSynchronize(stream));
      PetscCall(GPUPCCUDAFree(scratch[slot]));
      scratch[slot] = NULL;
    }
    PetscCall(GPUPCCUDAMalloc(bytes, &scratch[slot]));
    scratch_bytes[slot] = bytes;
    if (fresh) *fresh = PETSC_TRUE;
  }
  *ptr = scratch[slot];
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCCUDAGetPinnedResult(size_t bytes, void **ptr)
{
  PetscFunctionBegin;
  if (bytes > pinned_bytes) {
    if (pinned) GPUPCCallCUDA(cudaFreeHost(pinned));
    GPUPCCallCUDA(cudaHostAlloc(&pinned, bytes, cudaHostAllocMapped));
    pinned_bytes = bytes;
  }
  *ptr = pinned;
  PetscFunctionReturn(0);
}

/* the staging buffers' events (gpupc/stage.h): without timing, the cheapest kind to record and wait for */
PetscErrorCode GPUPCCUDAEventCreate(void **event)
{
  cudaEvent_t e;

  PetscFunctionBegin;
  GPUPCCallCUDA(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  *event = (void *)e;
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCCUDAEventDestroy(void *event)
{
  PetscFunctionBegin;
  if (event) GPUPCCallCUDA(cudaEventDestroy((cudaEvent_t)event));
  PetscFunctionReturn(0);
}

/* the host waits until the work recorded before the event has finished */
PetscErrorCode GPUPCCUDAEventWait(void *event)
{
  PetscFunctionBegin;
  GPUPCCallCUDA(cudaEventSynchronize((cudaEvent_t)event));
  PetscFunctionReturn(0);
}

/* enqueues the copy of bytes from page-locked host memory h to the device address d on the rank's stream and records
   event after it; returns at once (h must stay untouched until the event has passed) */
PetscErrorCode GPUPCCUDACopyToDeviceAsync(void *d, const void *h, size_t bytes, void *event)
{
  PetscFunctionBegin;
  GPUPCCallCUDA(cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, stream));
  GPUPCCallCUDA(cudaEventRecord((cudaEvent_t)event, stream));
  PetscFunctionReturn(0);
}

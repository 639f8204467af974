/*
   The device layer: backend choice, device choice, device memory and copies.

   The CUDA calls live in src/sys/cuda/device.cu; this file decides and dispatches.
   On the host backend "device" buffers are separate host allocations (PetscMalloc), so
   the host backend exercises the same placement and synchronisation logic as the GPU.
*/
#include <gpupc/devscalar.h>
#include <gpupc/device.h>
#include <gpupc/stage.h>
#include <gpupc/sparsekernels.h> /* GPUPCSparseSetSpGEMMLanes: -gpupc_spgemm_lanes */
#include <string.h>
#include <stdlib.h>

const char *const PetscGPUPCBackends[] = {"host", "cuda", "PetscGPUPCBackend", "PETSC_GPUPC_BACKEND_", NULL};

/* what the options asked for; read by GPUPCDeviceReadOptions() at package initialization */
typedef enum {
  GPUPC_WANT_AUTO,
  GPUPC_WANT_CUDA,
  GPUPC_WANT_HOST
} GPUPCBackendRequest;
static const char *const GPUPCBackendRequests[] = {"auto", "cuda", "host", "GPUPCBackendRequest", "GPUPC_WANT_", NULL};

static GPUPCBackendRequest requested        = GPUPC_WANT_AUTO;
static PetscBool           require_device   = PETSC_FALSE;
static PetscInt            forced_device    = -1;
static PetscInt            blocks_per_sm    = 0;
static PetscBool           device_pool      = PETSC_TRUE;
static PetscBool           dependent_launch = PETSC_TRUE;
static PetscInt            stage_bytes      = 8 << 20;     /* -gpupc_stage_bytes (gpupc/stage.h) */
static PetscInt            upload_threads   = 0;           /* -gpupc_upload_threads (gpupc/stage.h) */
static PetscBool           halo_peer        = PETSC_TRUE;  /* -gpupc_halo_peer (gpupc/matgpu.h) */
static PetscBool           halo_peer_set    = PETSC_FALSE; /* given explicitly */
static PetscMPIInt         node_rank        = 0;
static PetscBool           device_ready     = PETSC_FALSE;
static GPUPCDeviceInfo     device_info;

/* ---- allocation bookkeeping: bytes in use, so tests can check that destroy returns them ---- */
typedef struct {
  void  *ptr;
  size_t bytes;
} GPUPCAllocation;
static GPUPCAllocation *alloc_table    = NULL; /* open addressing, size a power of two */
static size_t           alloc_capacity = 0, alloc_count = 0, alloc_bytes = 0;
static size_t           alloc_peak = 0; /* the most alloc_bytes reached since the last PetscGPUPCDeviceMemoryResetPeak() */

static size_t AllocSlot(const void *p, size_t capacity)
{
  uintptr_t h = (uintptr_t)p;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return (size_t)h & (capacity - 1);
}

static PetscErrorCode AllocTableInsert(void *p, size_t bytes)
{
  PetscFunctionBegin;
  if (2 * (alloc_count + 1) > alloc_capacity) {
    size_t           newcap = alloc_capacity ? 2 * alloc_capacity : 256;
    GPUPCAllocation *old    = alloc_table, *t;

    t = (GPUPCAllocation *)calloc(newcap, sizeof(*t)); /* not PetscMalloc: bookkeeping must outlive PetscFinalize's malloc checks */
    PetscCheck(t, PETSC_COMM_SELF, PETSC_ERR_MEM, "Cannot grow the device allocation table to %zu entries", newcap);
    for (size_t i = 0; i < alloc_capacity; i++) {
      if (!old[i].ptr) continue;
      size_t s = AllocSlot(old[i].ptr, newcap);
      while (t[s].ptr) s = (s + 1) & (newcap - 1);
      t[s] = old[i];
    }
    free(old);
    alloc_table    = t;
    alloc_capacity = newcap;
  }
  size_t s = AllocSlot(p, alloc_capacity);
  while (alloc_table[s].ptr) s = (s + 1) & (alloc_capacity - 1);
  alloc_table[s].ptr   = p;
  alloc_table[s].bytes = bytes;
  alloc_count++;
  alloc_bytes += bytes;
  if (alloc_bytes > alloc_peak) alloc_peak = alloc_bytes;
  PetscFunctionReturn(0);
}

static PetscErrorCode AllocTableRemove(void *p)
{
  size_t s;

  PetscFunctionBegin;
  PetscCheck(alloc_capacity, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "GPUPCFree(%p): no device allocation is live", p);
  s = AllocSlot(p, alloc_capacity);
  while (alloc_table[s].ptr && alloc_table[s].ptr != p) s = (s + 1) & (alloc_capacity - 1);
  PetscCheck(alloc_table[s].ptr == p, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "GPUPCFree(%p): not a pointer from GPUPCMalloc, or freed twice", p);
  alloc_bytes -= alloc_table[s].bytes;
  alloc_count--;
  /* backward-shift deletion keeps the probe chains intact */
  for (size_t j = (s + 1) & (alloc_capacity - 1); alloc_table[j].ptr; j = (j + 1) & (alloc_capacity - 1)) {
    size_t home = AllocSlot(alloc_table[j].ptr, alloc_capacity);
    if ((j > s && (home <= s || home > j)) || (j < s && home <= s && home > j)) {
      alloc_table[s] = alloc_table[j];
      s              = j;
    }
  }
  alloc_table[s].ptr   = NULL;
  alloc_table[s].bytes = 0;
  PetscFunctionReturn(0);
}

/*@C
   PetscGPUPCDeviceMemoryInUse - bytes of device memory that GPUPC objects hold on this rank

   Not Collective

   Output Parameter:
.  bytes - the total size of live GPUPCMalloc() allocations

   Level: developer

   Note:
   Every GPUPC object returns its device memory when destroyed; tests check that this
   number returns to its starting value.
@*/
PetscErrorCode PetscGPUPCDeviceMemoryInUse(size_t *bytes)
{
  PetscFunctionBegin;
  *bytes = alloc_bytes;
  PetscFunctionReturn(0);
}

/*@C
   PetscGPUPCDeviceMemoryPeak - the most device memory that GPUPC objects held on this rank since the last
   PetscGPUPCDeviceMemoryResetPeak() (or since the start)

   Not Collective

   Output Parameter:
.  bytes - the high-water mark of the live GPUPCMalloc() allocations

   Level: developer

   Note:
   A setup measures its peak device memory (temporaries included) by resetting the mark before it and reading it after.

.seealso: PetscGPUPCDeviceMemoryInUse(), PetscGPUPCDeviceMemoryResetPeak()
@*/
PetscErrorCode PetscGPUPCDeviceMemoryPeak(size_t *bytes)
{
  PetscFunctionBegin;
  *bytes = alloc_peak;
  PetscFunctionReturn(0);
}

/*@C
   PetscGPUPCDeviceMemoryResetPeak - starts a new high-water mark of device memory at the memory in use now

   Not Collective

   Level: developer

.seealso: PetscGPUPCDeviceMemoryPeak()
@*/
PetscErrorCode PetscGPUPCDeviceMemoryResetPeak(void)
{
  PetscFunctionBegin;
  alloc_peak = alloc_bytes;
  PetscFunctionReturn(0);
}

/*@
   PetscGPUPCSetHaloPeer - choose how the halos of parallel GPU matrices created after this call are exchanged

   Not Collective; call it with the same value on every rank

   Input Parameter:
.  flg - PETSC_TRUE: directly between the GPUs of one node (CUDA IPC: NVLink or PCIe peer reads, no host staging,
         no host waits) wherever every neighbour of a rank is on its node, also where ranks share a GPU (useful under
         MPS); PETSC_FALSE: always staged through the host (PetscSF)

   Options Database Key:
.  -gpupc_halo_peer <bool> - the same; not given, the direct exchange is taken only where every neighbour is on the
   node and on another GPU (ranks sharing a GPU without MPS would spin against each other's time slices)

   Level: advanced

   Notes:
   The choice is made collectively when a halo is built (a Mat's first device product, PC cmg's setup): the direct
   path is taken only when every rank may take it. Halos that exist keep the path they were built with. The host
   backend always exchanges through PetscSF.

.seealso: PetscGPUPCGetHaloPeer(), MATSEGCSR, MATHEC, MATBCSR, PCCMG
@*/
PetscErrorCode PetscGPUPCSetHaloPeer(PetscBool flg)
{
  PetscFunctionBegin;
  PetscCall(PetscGPUPCInitializePackage()); /* the options are read there: a later first read must not undo this call */
  halo_peer     = flg;
  halo_peer_set = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/*@
   PetscGPUPCGetHaloPeer - how the halos of parallel GPU matrices are exchanged (PetscGPUPCSetHaloPeer())

   Not Collective

   Output Parameters:
+  allow - whether the direct exchange between GPUs may be taken at all
-  force - whether it is also taken where ranks share a GPU (set to true explicitly)

   Level: advanced

.seealso: PetscGPUPCSetHaloPeer()
@*/
PetscErrorCode PetscGPUPCGetHaloPeer(PetscBool *allow, PetscBool *force)
{
  PetscFunctionBegin;
  if (allow) *allow = halo_peer;
  if (force) *force = (PetscBool)(halo_peer && halo_peer_set);
  PetscFunctionReturn(0);
}

/* node-local rank: from the launcher's environment, else a shared-memory split of PETSC_COMM_WORLD */
static PetscErrorCode GPUPCNodeRank(PetscMPIInt *rank)
{
  const char *vars[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "MV2_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", "PMI_LOCAL_RANK"};

  PetscFunctionBegin;
  for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
    const char *v = getenv(vars[i]);
    if (v && *v) {
      *rank = (PetscMPIInt)atoi(v);
      PetscFunctionReturn(0);
    }
  }
  {
    MPI_Comm node;
    PetscCallMPI(MPI_Comm_split_type(PETSC_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    PetscCallMPI(MPI_Comm_rank(node, rank));
    PetscCallMPI(MPI_Comm_free(&node));
  }
  PetscFunctionReturn(0);
}

/* Collective on PETSC_COMM_WORLD: called from PetscGPUPCInitializePackage() */
PETSC_INTERN PetscErrorCode GPUPCDeviceReadOptions(void)
{
  PetscFunctionBegin;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "GPUPC device options", "Sys");
  PetscCall(PetscOptionsEnum("-gpupc_backend", "Where GPUPC kernels run: auto (CUDA when a usable device exists), cuda or host", "PetscGPUPCGetBackend", GPUPCBackendRequests, (PetscEnum)requested, (PetscEnum *)&requested, NULL));
  PetscCall(PetscOptionsBool("-gpupc_require_device", "Make a missing or unusable GPU an error instead of falling back to the host backend", "PetscGPUPCGetBackend", require_device, &require_device, NULL));
  PetscCall(PetscOptionsInt("-gpupc_device", "CUDA device ordinal to use (default: node-local rank modulo the device count)", "PetscGPUPCGetBackend", forced_device, &forced_device, NULL));
  PetscCall(PetscOptionsBool("-gpupc_cuda_dependent_launch", "Let a kernel of the CMG cycle start while the kernel before it finishes (programmatic dependent launch, compute capability 9.0 and newer)", "PetscGPUPCGetBackend", dependent_launch, &dependent_launch, NULL));
  PetscCall(PetscOptionsBool("-gpupc_cuda_pool", "Allocate GPUPC's device memory from CUDA's stream-ordered pool (cudaMallocAsync; freed memory is kept for the next allocation and returned at PetscFinalize) instead of cudaMalloc/cudaFree, whose frees wait for the device", "PetscGPUPCGetBackend", device_pool, &device_pool, NULL));
  PetscCall(PetscOptionsInt("-gpupc_cuda_blocks_per_sm", "Thread blocks per SM of persistent kernels such as reductions (0: fill the SM)", "PetscGPUPCGetBackend", blocks_per_sm, &blocks_per_sm, NULL));
  PetscCall(PetscOptionsInt("-gpupc_stage_bytes", "Bytes of each of the page-locked staging buffers of host-to-device uploads (segcsr value updates, PC cmg's upload)", "PetscGPUPCGetBackend", stage_bytes, &stage_bytes, NULL));
  PetscCall(PetscOptionsInt("-gpupc_upload_threads", "Host threads that fill the staging buffers of a segcsr value update (0: OMP_NUM_THREADS or the cores on one MPI process, 1 on several)", "PetscGPUPCGetBackend", upload_threads, &upload_threads, NULL));
  PetscCall(PetscOptionsBool("-gpupc_halo_peer", "Exchange the halos of parallel GPU matrices directly between the GPUs of one node (CUDA IPC: NVLink or PCIe peer reads, no host staging, no host waits) where every neighbour is on the node and on another GPU; true given explicitly also uses it for ranks that share a GPU (with MPS), false always stages through the host", "PetscGPUPCSetHaloPeer", halo_peer, &halo_peer, &halo_peer_set));
  {
    PetscInt  lanes;
    PetscBool set;

    PetscCall(GPUPCSparseGetSpGEMMLanes(&lanes));
    PetscCall(PetscOptionsInt("-gpupc_spgemm_lanes", "Developers: lanes a row of C in the CUDA SpGEMM's values pass, 8, 16 or 32 (0: by the products a row)", "GPUPCSparseSetSpGEMMLanes", lanes, &lanes, &set));
    if (set) PetscCall(GPUPCSparseSetSpGEMMLanes(lanes));
  }
  PetscOptionsEnd();
  PetscCall(GPUPCStageSetOptions(stage_bytes, upload_threads));
  PetscCall(GPUPCNodeRank(&node_rank));
  PetscFunctionReturn(0);
}

/* Not collective: chooses the backend and the device at first use */
PetscErrorCode GPUPCDeviceSetUp(void)
{
  PetscFunctionBegin;
  if (device_ready) PetscFunctionReturn(0);
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscLogEventBegin(GPUPC_DeviceSetUp, 0, 0, 0, 0));
  PetscCall(PetscMemzero(&device_info, sizeof(device_info)));
  device_info.backend          = PETSC_GPUPC_BACKEND_HOST;
  device_info.device           = -1;
  device_info.sm_count         = 1;
  device_info.l2_bytes         = 0;
  device_info.shared_per_block = 48 * 1024;
  PetscCall(PetscStrncpy(device_info.name, "host", sizeof(device_info.name)));
  PetscCheck(!(requested == GPUPC_WANT_HOST && require_device), PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "-gpupc_backend host contradicts -gpupc_require_device; drop one of the two options");
  if (requested != GPUPC_WANT_HOST) {
#if defined(GPUPC_HAVE_CUDA)
    int         count = 0;
    const char *why   = NULL;

    PetscCall(GPUPCCUDADeviceCount(&count, &why));
    if (count > 0) {
      int dev = forced_device >= 0 ? (int)forced_device : node_rank % count;

      PetscCheck(dev < count, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-gpupc_device %d but this node has %d CUDA devices (ordinals 0..%d)", dev, count, count - 1);
      PetscCall(GPUPCCUDASetUp(dev, &device_info));
      PetscCall(GPUPCCUDASetBlocksPerSM((int)blocks_per_sm));
      PetscCall(GPUPCCUDASetPool(device_pool));
      PetscCall(GPUPCCUDASetDependentLaunch(dependent_launch));
      device_info.backend = PETSC_GPUPC_BACKEND_CUDA;
    } else {
      PetscCheck(requested != GPUPC_WANT_CUDA && !require_device, PETSC_COMM_SELF, PETSC_ERR_GPU, "-gpupc_backend cuda or -gpupc_require_device given, but no usable CUDA device: %s", why);
      PetscCall(PetscInfo(NULL, "GPUPC: no usable CUDA device (%s); using the host backend\n", why));
    }
#else
    PetscCheck(requested != GPUPC_WANT_CUDA && !require_device, PETSC_COMM_SELF, PETSC_ERR_SUP, "-gpupc_backend cuda or -gpupc_require_device given, but this GPUPC was built without CUDA (make CUDA=0); rebuild with the CUDA toolkit");
    PetscCall(PetscInfo(NULL, "GPUPC: built without CUDA; using the host backend\n"));
#endif
  }
  PetscCall(PetscInfo(NULL, "GPUPC: backend %s, device %d (%s), node-local rank %d\n", PetscGPUPCBackends[device_info.backend], device_info.device, device_info.name, node_rank));
  device_ready = PETSC_TRUE;
  PetscCall(PetscLogEventEnd(GPUPC_DeviceSetUp, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCDeviceFinalize(void)
{
  PetscFunctionBegin;
  PetscCall(GPUPCStageFinalize()); /* before the stream goes */
  PetscCall(GPUPCDevScalarFinalize());
#if defined(GPUPC_HAVE_CUDA)
  if (device_ready && device_info.backend == PETSC_GPUPC_BACKEND_CUDA) PetscCall(GPUPCCUDAFinalize());
#endif
  if (alloc_count) PetscCall(PetscInfo(NULL, "GPUPC: %zu device allocations (%zu bytes) still live at finalize\n", alloc_count, alloc_bytes));
  device_ready   = PETSC_FALSE;
  requested      = GPUPC_WANT_AUTO;
  require_device = PETSC_FALSE;
  forced_device  = -1;
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCDeviceGetInfo(const GPUPCDeviceInfo **info)
{
  PetscFunctionBegin;
  PetscCall(GPUPCDeviceSetUp());
  *info = &device_info;
  PetscFunctionReturn(0);
}

/*@C
   PetscGPUPCGetBackend - the backend GPUPC kernels run on in this process

   Not Collective

   Output Parameter:
.  backend - PETSC_GPUPC_BACKEND_CUDA or PETSC_GPUPC_BACKEND_HOST

   Options Database Keys:
+  -gpupc_backend <auto,cuda,host> - auto uses CUDA when a usable device exists
.  -gpupc_require_device - error out instead of falling back to the host
-  -gpupc_device <n> - CUDA device ordinal (default: node-local rank modulo device count)

   Level: beginner
@*/
PetscErrorCode PetscGPUPCGetBackend(PetscGPUPCBackend *backend)
{
  PetscFunctionBegin;
  PetscCall(GPUPCDeviceSetUp());
  *backend = device_info.backend;
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------------- memory */

/* device memory of bytes (host memory on the host backend); counted: an object's (the allocation table of
   PetscGPUPCDeviceMemoryInUse, and CUDA's stream-ordered pool where on), else the library's own (plain cudaMalloc) */
static PetscErrorCode DeviceAlloc(size_t bytes, PetscBool counted, void **ptr)
{
  PetscFunctionBegin;
  *ptr = NULL;
  if (!bytes) PetscFunctionReturn(0);
  PetscCall(GPUPCDeviceSetUp());
#if defined(GPUPC_HAVE_CUDA)
  if (device_info.backend == PETSC_GPUPC_BACKEND_CUDA) PetscCall(counted ? GPUPCCUDAMalloc(bytes, ptr) : GPUPCCUDAMallocPlain(bytes, ptr));
  else
#endif
    PetscCall(PetscMallocA(1, PETSC_FALSE, __LINE__, PETSC_FUNCTION_NAME, __FILE__, bytes, ptr));
  if (counted) PetscCall(AllocTableInsert(*ptr, bytes));
  PetscFunctionReturn(0);
}

static PetscErrorCode DeviceFree(void *ptr, PetscBool counted)
{
  PetscFunctionBegin;
  if (!ptr) PetscFunctionReturn(0);
  if (counted) PetscCall(AllocTableRemove(ptr));
#if defined(GPUPC_HAVE_CUDA)
  if (device_info.backend == PETSC_GPUPC_BACKEND_CUDA) PetscCall(counted ? GPUPCCUDAFree(ptr) : GPUPCCUDAFreePlain(ptr));
  else
#endif
    PetscCall(PetscFreeA(1, __LINE__, PETSC_FUNCTION_NAME, __FILE__, &ptr));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCMalloc - allocate device memory (on the host backend: a separate host buffer)

   Not Collective

   Input Parameter:
.  bytes - size; 0 gives NULL

   Output Parameter:
.  ptr - the allocation

   Level: developer

   Note:
   A failure is a PETSc error naming the bytes asked and the bytes free on the device.
@*/
PetscErrorCode GPUPCMalloc(size_t bytes, void **ptr)
{
  PetscFunctionBegin;
  PetscCall(DeviceAlloc(bytes, PETSC_TRUE, ptr));
  PetscFunctionReturn(0);
}

/* device memory that the library itself holds until PetscFinalize (the device scalar pool): not an object's, so not in
   PetscGPUPCDeviceMemoryInUse() (tests compare it before and after objects live) */
PetscErrorCode GPUPCMallocLibrary(size_t bytes, void **ptr)
{
  PetscFunctionBegin;
  PetscCall(DeviceAlloc(bytes, PETSC_FALSE, ptr));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCFreeLibrary(void *ptr)
{
  PetscFunctionBegin;
  PetscCall(DeviceFree(ptr, PETSC_FALSE));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCFree(void *ptr)
{
  PetscFunctionBegin;
  PetscCall(DeviceFree(ptr, PETSC_TRUE));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCMallocShareable - device memory that other processes may map (CUDA IPC), counted like GPUPCMalloc()'s

   Not Collective

   Input Parameter:
.  bytes - the size

   Output Parameter:
.  ptr - the allocation; free it with GPUPCFreeShareable()

   Level: developer

   Note:
   GPUPCMalloc() takes memory from CUDA's stream-ordered pool (-gpupc_cuda_pool), which cudaIpcGetMemHandle() cannot
   share and which other streams may use only in the rank's stream order; this one is a plain cudaMalloc().

.seealso: GPUPCMalloc(), GPUPCFreeShareable(), PetscGPUPCDeviceMemoryInUse()
@*/
PetscErrorCode GPUPCMallocShareable(size_t bytes, void **ptr)
{
  PetscFunctionBegin;
  *ptr = NULL;
  if (!bytes) PetscFunctionReturn(0);
  PetscCall(GPUPCDeviceSetUp());
#if defined(GPUPC_HAVE_CUDA)
  if (device_info.backend == PETSC_GPUPC_BACKEND_CUDA) PetscCall(GPUPCCUDAMallocPlain(bytes, ptr));
  else
#endif
    PetscCall(PetscMallocA(1, PETSC_FALSE, __LINE__, PETSC_FUNCTION_NAME, __FILE__, bytes, ptr));
  PetscCall(AllocTableInsert(*ptr, bytes));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCFreeShareable - frees what GPUPCMallocShareable() gave

   Not Collective

   Input Parameter:
.  ptr - the allocation (NULL: nothing)

   Level: developer

.seealso: GPUPCMallocShareable()
@*/
PetscErrorCode GPUPCFreeShareable(void *ptr)
{
  PetscFunctionBegin;
  if (!ptr) PetscFunctionReturn(0);
  PetscCall(AllocTableRemove(ptr));
#if defined(GPUPC_HAVE_CUDA)
  if (device_info.backend == PETSC_GPUPC_BACKEND_CUDA) PetscCall(GPUPCCUDAFreePlain(ptr));
  else
#endif
    PetscCall(PetscFreeA(1, __LINE__, PETSC_FUNCTION_NAME, __FILE__, &ptr));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCHostMalloc(size_t bytes, void **ptr, PetscBool *pinned)
{
  PetscFunctionBegin;
  *ptr    = NULL;
  *pinned = PETSC_FALSE;
  if (!bytes) PetscFunctionReturn(0);
  PetscCall(GPUPCDeviceSetUp());
#if defined(GPUPC_HAVE_CUDA)
  if (device_info.backend == PETSC_GPUPC_BACKEND_CUDA) {
    PetscCall(GPUPCCUDAHostMalloc(bytes, ptr));
    *pinned = PETSC_TRUE;
    PetscFunctionReturn(0);
  }
#endif
  PetscCall(PetscMallocA(1, PETSC_FALSE, __LINE__, PETSC_FUNCTION_NAME, __FILE__, bytes, ptr));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCHostFree(void *ptr, PetscBool pinned)
{
  PetscFunctionBegin;
  if (!ptr) PetscFunctionReturn(0);
#if defined(GPUPC_HAVE_CUDA)
  if (pinned) {
    PetscCall(GPUPCCUDAHostFree(ptr));
    PetscFunctionReturn(0);
  }
#endif
  PetscCheck(!pinned, PETSC_COMM_SELF, PETSC_ERR_PLIB, "pinned host memory in a build without CUDA");
  PetscCall(PetscFreeA(1, __LINE__, PETSC_FUNCTION_NAME, __FILE__, &ptr));
  PetscFunctionReturn(0);
}

/* GPUPCCopyToDeviceNoWait - gpupc/device.h: enqueued only when the source is page-locked on the cuda backend */
PetscErrorCode GPUPCCopyToDeviceNoWait(void *dst, const void *src, size_t bytes, PetscBool pinned)
{
  PetscFunctionBegin;
  if (!bytes) PetscFunctionReturn(0);
#if defined(GPUPC_HAVE_CUDA)
  if (pinned && device_info.backend == PETSC_GPUPC_BACKEND_CUDA) {
    PetscCall(PetscLogEventBegin(GPUPC_CopyToDevice, 0, 0, 0, 0));
    PetscCall(GPUPCCUDACopyToDeviceNoWait(dst, src, bytes));
    PetscCall(PetscLogEventEnd(GPUPC_CopyToDevice, 0, 0, 0, 0));
    PetscFunctionReturn(0);
  }
#endif
  PetscCall(GPUPCMemcpy(dst, src, bytes, GPUPC_COPY_HOST_TO_DEVICE));
  PetscFunctionReturn(0);
}

/* Copies in stream order; a copy to the host returns when the data is there. */
PetscErrorCode GPUPCMemcpy(void *dst, const void *src, size_t bytes, GPUPCCopyKind kind)
{
  PetscLogEvent ev = kind == GPUPC_COPY_HOST_TO_DEVICE ? GPUPC_CopyToDevice : (kind == GPUPC_COPY_DEVICE_TO_HOST ? GPUPC_CopyFromDevice : 0);

  PetscFunctionBegin;
  if (!bytes || dst == src) PetscFunctionReturn(0);
  PetscCall(GPUPCDeviceSetUp());
  if (ev) PetscCall(PetscLogEventBegin(ev, 0, 0, 0, 0));
#if defined(GPUPC_HAVE_CUDA)
  if (device_info.backend == PETSC_GPUPC_BACKEND_CUDA) PetscCall(GPUPCCUDAMemcpy(dst, src, bytes, kind));
  else
#endif
    PetscCall(PetscMemcpy(dst, src, bytes));
  if (ev) PetscCall(PetscLogEventEnd(ev, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCMemzero(void *dst, size_t bytes)
{
  PetscFunctionBegin;
  if (!bytes) PetscFunctionReturn(0);
  PetscCall(GPUPCDeviceSetUp());
#if defined(GPUPC_HAVE_CUDA)
  if (device_info.backend == PETSC_GPUPC_BACKEND_CUDA) PetscCall(GPUPCCUDAMemzero(dst, bytes));
  else
#endif
    PetscCall(PetscMemzero(dst, bytes));
  PetscFunctionReturn(0);
}

/* Waits until all GPUPC device work of this rank is done (used by benchmarks and timers) */
PetscErrorCode GPUPCSynchronize(void)
{
  PetscFunctionBegin;
  PetscCall(GPUPCDeviceSetUp());
#if defined(GPUPC_HAVE_CUDA)
  if (device_info.backend == PETSC_GPUPC_BACKEND_CUDA) PetscCall(GPUPCCUDASynchronize());
#endif
  PetscFunctionReturn(0);
}

/*
   gpupc/device.h - the device layer (private to GPUPC).

   All Mat, Vec and PC code allocates, copies and synchronises device memory through
   these calls; it never calls CUDA directly. On the host backend "device memory" is a
   separate host allocation, so the host backend exercises the same placement and
   synchronisation logic as the CUDA backend (what CI tests).
*/
#ifndef GPUPC_DEVICE_H
#define GPUPC_DEVICE_H

#include <petscgpupc.h>
#include <petsc/private/petscimpl.h>

typedef enum {
  GPUPC_COPY_HOST_TO_DEVICE,
  GPUPC_COPY_DEVICE_TO_HOST,
  GPUPC_COPY_DEVICE_TO_DEVICE
} GPUPCCopyKind;

/* Description of the device the rank uses, filled once by GPUPCDeviceSetUp() */
typedef struct {
  PetscGPUPCBackend backend;
  int               device;   /* CUDA ordinal, -1 on the host backend */
  int               sm_count; /* multiprocessors (1 on the host) */
  size_t            l2_bytes; /* L2 cache size */
  size_t            shared_per_block;
  char              name[256];
} GPUPCDeviceInfo;

PETSC_INTERN PetscErrorCode GPUPCDeviceSetUp(void);
PETSC_EXTERN PetscErrorCode GPUPCDeviceGetInfo(const GPUPCDeviceInfo **);
PETSC_INTERN PetscErrorCode GPUPCDeviceFinalize(void);

PETSC_EXTERN PetscErrorCode GPUPCMalloc(size_t, void **);
PETSC_EXTERN PetscErrorCode GPUPCFree(void *);
PETSC_INTERN PetscErrorCode GPUPCMallocLibrary(size_t, void **);
PETSC_INTERN PetscErrorCode GPUPCFreeLibrary(void *);
PETSC_EXTERN PetscErrorCode GPUPCMallocShareable(size_t, void **);
PETSC_EXTERN PetscErrorCode GPUPCFreeShareable(void *);
PETSC_EXTERN PetscErrorCode GPUPCMemcpy(void *, const void *, size_t, GPUPCCopyKind);
/* host memory that the device copies to and from at full speed (page-locked on the cuda backend, where a copy from
   pageable memory goes through a staging buffer at a fraction of the link's speed); *pinned says whether it is, and
   must be passed to GPUPCHostFree. On the host backend this is PetscMalloc (*pinned false). */
PETSC_EXTERN PetscErrorCode GPUPCHostMalloc(size_t, void **, PetscBool *);
PETSC_EXTERN PetscErrorCode GPUPCHostFree(void *, PetscBool);
/* a copy to the device from page-locked memory (GPUPCHostMalloc with *pinned true) that returns as soon as it is
   enqueued on the rank's stream: the host buffer must stay untouched until later stream work has been waited for (a
   copy to the host, GPUPCSynchronize). From pageable memory, or on the host backend, it is GPUPCMemcpy. */
PETSC_EXTERN PetscErrorCode GPUPCCopyToDeviceNoWait(void *, const void *, size_t, PetscBool);
PETSC_EXTERN PetscErrorCode GPUPCMemzero(void *, size_t);
PETSC_EXTERN PetscErrorCode GPUPCSynchronize(void);

/* Recorded device work (src/sys/graph.c): the kernel launches that a piece of code issues on the rank's stream between
   GPUPCGraphBeginCapture() and GPUPCGraphEndCapture() are recorded, not run, and GPUPCGraphLaunch() replays them with
   the same arguments (one CUDA graph launch instead of one launch per kernel). Only the cuda backend records
   (GPUPCGraphAvailable()); code between begin and end may only launch kernels and asynchronous memsets. */
typedef struct _n_GPUPCGraph *GPUPCGraph;
PETSC_EXTERN PetscErrorCode   GPUPCGraphAvailable(PetscBool *);
PETSC_EXTERN PetscErrorCode   GPUPCGraphBeginCapture(void);
PETSC_EXTERN PetscErrorCode   GPUPCGraphEndCapture(PetscBool, GPUPCGraph *);
PETSC_EXTERN PetscErrorCode   GPUPCGraphLaunch(GPUPCGraph);
PETSC_EXTERN PetscErrorCode   GPUPCGraphGetSize(GPUPCGraph, size_t *);
PETSC_EXTERN PetscErrorCode   GPUPCGraphDestroy(GPUPCGraph *);

/* Typed helpers */
#define GPUPCMallocArray(n, p)     GPUPCMalloc((size_t)(n) * sizeof(**(p)), (void **)(p))
#define GPUPCCopyToDevice(d, h, n) GPUPCMemcpy((d), (h), (size_t)(n) * sizeof(*(h)), GPUPC_COPY_HOST_TO_DEVICE)
#define GPUPCCopyToHost(h, d, n)   GPUPCMemcpy((h), (d), (size_t)(n) * sizeof(*(d)), GPUPC_COPY_DEVICE_TO_HOST)
#define GPUPCCopyOnDevice(d, s, n) GPUPCMemcpy((d), (s), (size_t)(n) * sizeof(*(s)), GPUPC_COPY_DEVICE_TO_DEVICE)

/* Log events of the device layer */
PETSC_INTERN PetscLogEvent GPUPC_DeviceSetUp, GPUPC_CopyToDevice, GPUPC_CopyFromDevice;
PETSC_INTERN PetscClassId  GPUPC_CLASSID;

#if defined(GPUPC_HAVE_CUDA)
/* The CUDA side of the device layer (src/sys/cuda), called only by device.c */
PETSC_INTERN PetscErrorCode GPUPCCUDADeviceCount(int *, const char **);
PETSC_INTERN PetscErrorCode GPUPCCUDASetUp(int, GPUPCDeviceInfo *);
PETSC_INTERN PetscErrorCode GPUPCCUDAFinalize(void);
PETSC_INTERN PetscErrorCode GPUPCCUDAMalloc(size_t, void **);
PETSC_INTERN PetscErrorCode GPUPCCUDAFree(void *);
PETSC_INTERN PetscErrorCode GPUPCCUDAMallocPlain(size_t, void **);
PETSC_INTERN PetscErrorCode GPUPCCUDAFreePlain(void *);
PETSC_INTERN PetscErrorCode GPUPCCUDAHostMalloc(size_t, void **);
PETSC_INTERN PetscErrorCode GPUPCCUDAHostFree(void *);
PETSC_INTERN PetscErrorCode GPUPCCUDAMemcpy(void *, const void *, size_t, GPUPCCopyKind);
PETSC_INTERN PetscErrorCode GPUPCCUDACopyToDeviceNoWait(void *, const void *, size_t);
PETSC_INTERN PetscErrorCode GPUPCCUDAMemzero(void *, size_t);
PETSC_INTERN PetscErrorCode GPUPCCUDASynchronize(void);
PETSC_INTERN PetscErrorCode GPUPCCUDASetBlocksPerSM(int);
PETSC_INTERN PetscErrorCode GPUPCCUDASetPool(PetscBool);
PETSC_INTERN PetscErrorCode GPUPCCUDASetDependentLaunch(PetscBool);
PETSC_INTERN PetscErrorCode GPUPCCUDAGraphBeginCapture(void);
PETSC_INTERN PetscErrorCode GPUPCCUDAGraphEndCapture(PetscBool, GPUPCGraph *);
PETSC_INTERN PetscErrorCode GPUPCCUDAGraphLaunch(GPUPCGraph);
PETSC_INTERN PetscErrorCode GPUPCCUDAGraphGetSize(GPUPCGraph, size_t *);
PETSC_INTERN PetscErrorCode GPUPCCUDAGraphDestroy(GPUPCGraph);
#endif

#endif

/*
   gpupc/stage.h - host-to-device uploads through the rank's page-locked staging buffers (private to GPUPC).

   A copy from pageable host memory runs at a fraction of the link's speed (~6 GB/s on the H200 host, bench/NOTES.md),
   and page-locking a buffer costs more than the copy of a few hundred MB (32 MB took 12-22 ms to allocate there). So
   the rank keeps GPUPC_STAGE_BUFFERS page-locked buffers of -gpupc_stage_bytes bytes each (default 8 MiB), allocated
   at the first staged upload and kept until PetscFinalize. An upload cuts its source into chunks of one buffer: host
   threads copy (or convert to float) the next chunk into a free buffer while the copies of the chunks before it are in
   flight on the rank's stream (an event per buffer tells when its copy has left), so filling and transfer overlap.

     GPUPCStageCopyToDevice  n items into a device array (PetscReal to float on the way when asked): PC cmg's upload
     GPUPCStageStream        n items pass through device landing buffers (one per staging buffer); after each chunk has
                             been enqueued to land, a callback enqueues the device work that reads it, on the rank's
                             stream: segcsr's value update lays each chunk of CSR values into its layout there

   Both return once the host source has been read: the source may change at once, and device work enqueued later on
   the rank's stream (kernels, GPUPCMemcpy) sees the data; the host waits only for a staging buffer to be free again.
   On the host backend the same chunks pass through ordinary buffers with synchronous copies, so the chunking is what
   CI tests (tests set a small -gpupc_stage_bytes to cut rows and long arrays into many chunks).
*/
#ifndef GPUPC_STAGE_H
#define GPUPC_STAGE_H

#include <gpupc/device.h>
#include <gpupc/threads.h> /* GPUPCDefaultHostThreads */

/* staging buffers of the rank (the pipeline depth: fills run up to this many chunks ahead of the copies) */
#define GPUPC_STAGE_BUFFERS 4

/* consumes the chunk of items first .. first+count-1 of a GPUPCStageStream, which is (or, on the cuda backend, will be
   in stream order) at dchunk on the device: enqueues on the rank's stream the work that reads it. The landing buffer
   is written again only by copies enqueued after this returns, so that work may read it until it is done. */
typedef PetscErrorCode (*GPUPCStageConsumer)(void *ctx, size_t first, size_t count, const void *dchunk);

PETSC_INTERN PetscErrorCode GPUPCStageSetOptions(PetscInt, PetscInt);
PETSC_INTERN PetscErrorCode GPUPCStageDefaultThreads(PetscInt *);
PETSC_INTERN PetscErrorCode GPUPCStageCopyToDevice(PetscInt, size_t, const void *, size_t, void *, size_t);
PETSC_INTERN PetscErrorCode GPUPCStageStream(PetscInt, size_t, const void *, size_t, GPUPCStageConsumer, void *);
PETSC_INTERN PetscErrorCode GPUPCStageFinalize(void);

#if defined(GPUPC_HAVE_CUDA)
/* The CUDA side of the staging (src/sys/cuda/device.cu), called only by stage.c: an event per staging buffer, an
   asynchronous copy from page-locked memory that records it, and a host wait for it */
PETSC_INTERN PetscErrorCode GPUPCCUDAEventCreate(void **);
PETSC_INTERN PetscErrorCode GPUPCCUDAEventDestroy(void *);
PETSC_INTERN PetscErrorCode GPUPCCUDAEventWait(void *);
PETSC_INTERN PetscErrorCode GPUPCCUDACopyToDeviceAsync(void *, const void *, size_t, void *);
#endif

#endif

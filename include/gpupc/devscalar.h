/*
   gpupc/devscalar.h - device scalars that the host reads back: the counters and reductions of the setup kernels
   (gpuamg's device setup, the format builders, cmg's device setup).

   A slot is GPUPC_DEVSCALAR_BYTES bytes on the device with a host mirror (page-locked on the cuda backend), taken
   from one pool that is allocated at the first use and kept until PetscFinalize, so a kernel's counter costs no
   allocation: GPUPCDevScalarGet() sets the slot from its mirror by an asynchronous copy (no wait), the kernels write
   the slot, GPUPCDevScalarRead() copies it back by one asynchronous copy and one wait and returns the slot.
*/
#ifndef GPUPC_DEVSCALAR_H
#define GPUPC_DEVSCALAR_H

#include <gpupc/device.h>

#define GPUPC_DEVSCALAR_BYTES 64 /* bytes of a slot */
#define GPUPC_DEVSCALAR_SLOTS 32 /* slots of the pool: at most this many in use at once */

typedef struct {
  void    *d;    /* the slot on the device (the kernels' pointer) */
  void    *h;    /* its host mirror */
  PetscInt slot; /* its place in the pool; -1: none */
} GPUPCDevScalar;

PETSC_EXTERN PetscErrorCode GPUPCDevScalarGet(const void *, size_t, GPUPCDevScalar *);
PETSC_EXTERN PetscErrorCode GPUPCDevScalarRead(GPUPCDevScalar *, void *, size_t);
PETSC_EXTERN PetscErrorCode GPUPCDevScalarRelease(GPUPCDevScalar *);
PETSC_INTERN PetscErrorCode GPUPCDevScalarFinalize(void);

#endif

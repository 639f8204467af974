/*
   gpupc/vecgpu.h - private layout of the gpu Vec types (seqgpu, mpigpu).

   Device storage is authoritative for vector arithmetic; the host mirror (VECHEADER's
   array) is allocated at first host access. Vec->offloadmask says where valid data is:
   GPU, CPU or BOTH. The companion is a plain VECSEQ/VECMPI without storage of its own;
   it gets the host mirror placed in it around the calls that need PETSc's host logic
   (VecSetValues and the off-process stash, assembly, VecGetValues, VecSetRandom).
*/
#ifndef GPUPC_VECGPU_H
#define GPUPC_VECGPU_H

#include <petsc/private/vecimpl.h>
#include <gpupc/veckernels.h>

typedef struct {
  VECHEADER                         /* host mirror: array, array_allocated, unplacedarray */
    PetscScalar         *d_array;   /* device storage */
  Vec                    companion; /* host-logic companion sharing the host mirror */
  const GPUPCVecKernels *k;         /* kernels of the active backend */
  PetscInt               pinnedmin; /* -vec_pinned_memory_min: a host mirror of at least this many bytes is page-locked (< 0: never) */
  PetscBool              pinned;    /* array_allocated is page-locked (GPUPCHostFree) */
} Vec_GPU;

PETSC_INTERN PetscErrorCode VecCreate_SeqGPU(Vec);
PETSC_INTERN PetscErrorCode VecCreate_MPIGPU(Vec);
PETSC_INTERN PetscErrorCode VecCreate_GPU(Vec);
PETSC_INTERN PetscBool      VecIsGPU(Vec);

/* internal device access for gpu vectors (no state change; the PETSc interface handles state) */
PETSC_INTERN PetscErrorCode VecGPUDeviceRead_Private(Vec, const PetscScalar **);
PETSC_INTERN PetscErrorCode VecGPUDeviceWrite_Private(Vec, PetscScalar **);
PETSC_INTERN PetscErrorCode VecGPUDeviceReadWrite_Private(Vec, PetscScalar **);
PETSC_INTERN PetscErrorCode VecGPUSyncToHost_Private(Vec);

#endif

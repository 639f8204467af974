/*
   gpupc/gpubjacobi.h - PC gpubjacobi (private to GPUPC): block Jacobi with dense inverses of the diagonal blocks of bs
   consecutive rows, inverted on the host at setup (src/pc/impls/gpubjacobi/gpubjacobiinvert.c) and applied on the
   device as one batched small dense product per application (gpupc/gpubjacobikernels.h).
*/
#ifndef GPUPC_GPUBJACOBI_H
#define GPUPC_GPUBJACOBI_H

#include <petsc/private/pcimpl.h>
#include <gpupc/gpubjacobikernels.h>

typedef struct {
  PetscInt       bs_set;  /* block size asked for (PCGPUBJacobiSetBlockSize), PETSC_DECIDE: the matrix's block size */
  PetscInt       bs;      /* block size in use (after setup) */
  PetscInt       nblocks; /* local blocks (the last one partial when bs does not divide the local rows) */
  PetscInt       rstart;  /* first global row of this rank (for messages) */
  PetscInt       threads; /* host threads of the inversion */
  GPUPCPBJBlocks dev;     /* the inverses on the device */
  PetscInt       nsetups; /* setups that (re)computed the inverses */
  PetscBool      built;
} PC_GPUBJacobi;

PETSC_INTERN PetscErrorCode PCCreate_GPUBJacobi(PC);
PETSC_INTERN PetscErrorCode PCGPUBJacobiRegisterEvents(void);
PETSC_INTERN PetscLogEvent  PC_GPUBJacobi_Invert, PC_GPUBJacobi_Upload, PC_GPUBJacobi_Apply;

/* inverses of the diagonal blocks of a rank's local rows (host memory, the device layout of gpupc/gpubjacobikernels.h) */
PETSC_INTERN PetscErrorCode GPUPCPBJInvertBlocks(Mat, PetscInt, PetscInt, PetscInt, PetscScalar *);

/* the inverses on the device: setup, y = D_B^-1 x (or D_B^-T x), release (gpubjacobiblocks.c; used by PC gpubjacobi
   and PC gpuamg's bjacobi smoother) */
PETSC_INTERN PetscErrorCode GPUPCPBJBlocksSetUp(Mat, PetscInt, PetscObject, GPUPCPBJBlocks *, PetscInt *);
PETSC_INTERN PetscErrorCode GPUPCPBJBlocksApply(const GPUPCPBJBlocks *, PetscBool, PetscObject, Vec, Vec);
PETSC_INTERN PetscErrorCode GPUPCPBJBlocksDestroy(GPUPCPBJBlocks *);

#endif

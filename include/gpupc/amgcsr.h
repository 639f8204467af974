/*
   gpupc/amgcsr.h - the CSR helpers of PC gpuamg's setup (src/pc/impls/gpuamg/amgsetuptranspose.c), used by the setup's
   Galerkin product, interpolation and strength graph, and by the device half (amgcycledevice.c) for its host copies.
   They depend on nothing else of the setup, so the files that use them need not include each other's headers.
*/
#ifndef GPUPC_AMGCSR_H
#define GPUPC_AMGCSR_H

#include <petscmat.h>

/* a SEQAIJ matrix on CSR arrays (PetscMalloc'd, sorted columns) that it frees when destroyed */
PETSC_INTERN PetscErrorCode GPUPCAMGMatOnArrays(PetscInt, PetscInt, PetscInt *, PetscInt *, PetscScalar *, Mat *);
/* sorts n (column, value) pairs by column */
PETSC_INTERN void GPUPCAMGSortPairs(PetscInt, PetscInt *, PetscReal *);
/* the transpose of a CSR matrix or pattern (rows of the transpose sorted), threaded */
PETSC_EXTERN PetscErrorCode GPUPCAMGTransposeCSR(PetscInt, PetscInt, const PetscInt *, const PetscInt *, const PetscReal *, PetscInt, PetscInt **, PetscInt **, PetscReal **);

#endif

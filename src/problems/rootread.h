/*
   rootread.h - helpers for readers that parse a file on rank 0 and hand the result to all
   ranks: the triplet buffer, CSR building and the rank-0 error relay.
*/
#ifndef GPUPC_ROOTREAD_H
#define GPUPC_ROOTREAD_H

#include "problemimpl.h"
#include <stdio.h>

/* growing triplet list (rank 0 only) */
typedef struct {
  PetscInt    *i, *j;
  PetscScalar *v;
  size_t       n, cap;
} GPUPCTriplets;

PETSC_INTERN PetscErrorCode GPUPCTripletsAdd(GPUPCTriplets *, PetscInt, PetscInt, PetscScalar);
PETSC_INTERN PetscErrorCode GPUPCTripletsFree(GPUPCTriplets *);
PETSC_INTERN PetscErrorCode GPUPCTripletsToCSR(GPUPCTriplets *, PetscInt, PetscInt **, PetscInt **, PetscScalar **);

/* reads one line into buf; *eof at end of file; errors on a line longer than the buffer */
PETSC_INTERN PetscErrorCode GPUPCReadLine(FILE *, const char[], char[], size_t, PetscInt *, PetscBool *);

/* after a rank-0 step that returned ierr (0 elsewhere): the same error, with rank 0's message, on every rank */
PETSC_INTERN PetscErrorCode GPUPCRootErrorRelay(MPI_Comm, PetscErrorCode);

#endif

/*
   gpupc/devmpiblocks.h - a distributed matrix as each rank's two blocks on the device (private to GPUPC and its tests):
   the diagonal block (owned rows x owned columns, local column numbers) and the off-diagonal block (owned rows x the
   ghost columns, numbered by their position in garray, which lists their global numbers in increasing order), both
   GPUPCDevCSR in the active kernel table's world (device arrays on the cuda backend, host arrays on the host backend),
   as MPIAIJ holds them on the host. The distributed setups of PC gpuamg and PC cmg keep their levels so, and make host
   MPIAIJ matrices from them only where a host reader needs one.
*/
#ifndef GPUPC_DEVMPIBLOCKS_H
#define GPUPC_DEVMPIBLOCKS_H

#include <gpupc/sparsekernels.h>
#include <petscsf.h>

typedef struct {
  MPI_Comm    comm;           /* the matrix's communicator (not duplicated) */
  PetscInt    M, N;           /* global rows, columns */
  PetscInt    rstart, cstart; /* the first owned row, the first owned column (global numbers) */
  GPUPCDevCSR d;              /* diagonal block: d.m owned rows x d.n owned columns, local column numbers */
  GPUPCDevCSR o;              /* off-diagonal block: d.m rows x nghost columns, column g is global column garray[g] */
  PetscInt    nghost;         /* o.n */
  PetscInt   *garray;         /* host array (PetscMalloc'd), nghost global columns, increasing */
} GPUPCDevMPIBlocks;

PETSC_EXTERN PetscErrorCode GPUPCDevMPIBlocksFromMat(Mat, GPUPCDevMPIBlocks *);
PETSC_EXTERN PetscErrorCode GPUPCDevMPIBlocksToMat(const GPUPCDevMPIBlocks *, Mat *);
PETSC_EXTERN PetscErrorCode GPUPCDevMPIBlocksDestroy(GPUPCDevMPIBlocks *);

/* R = P^T as device blocks (src/mat/utils/devmpitranspose.c) */
PETSC_EXTERN PetscErrorCode GPUPCDevMPIBlocksTranspose(const GPUPCDevMPIBlocks *, GPUPCDevMPIBlocks *);

/* a distributed device-only Mat (MATSHELL) over the blocks, in a level format (gpupc/devmat.h), its ghosts moved by
   the halo plan (src/mat/utils/devmatshellmpi.c); its values from blocks of the same pattern; what it holds (for the
   halo statistics and the views) */
#include <gpupc/devmat.h>
PETSC_EXTERN PetscErrorCode GPUPCDevMPIBlocksCreateMat(const GPUPCDevMPIBlocks *, GPUPCDevMatFormat, PetscInt, Mat *);
PETSC_EXTERN PetscErrorCode GPUPCDevMPIBlocksMatUpdateValues(Mat, const GPUPCDevMPIBlocks *);
PETSC_EXTERN PetscErrorCode GPUPCDevMPIBlocksMatGetInfo(Mat, PetscBool *, PetscInt *, const PetscInt **, const char **, const char **);

/* The rows of a distributed matrix that a rank's ghosts reference, fetched from their owners (the distributed
   Galerkin product's P_oth, the local part with ghosts of gpuamg's device setup across ranks). Each owner extracts
   the rows of its local rows (a device CSR, any column numbering) that other ranks reference and brings only those
   down; a PetscSF over the rows gives their offsets and lengths, then a PetscSF over the entries (kept: new values on
   the same pattern travel on it again) their columns and values, into host arrays the caller uploads where it wants. */
typedef struct {
  PetscInt     nghost; /* rows fetched: the ghosts, in the given order */
  PetscInt     nnz;    /* their entries */
  PetscInt    *hi;     /* host: their row pointers (nghost + 1) */
  PetscInt    *hj;     /* host: their columns, as the owners' rows number them */
  PetscScalar *ha;     /* host: their values (NULL for a pattern) */
  PetscInt    *qrows;  /* device: the local rows other ranks fetch (a row once a fetching rank) */
  GPUPCDevCSR  Q;      /* those rows, extracted */
  PetscScalar *hq;     /* host: Q's values (the entry PetscSF's roots) */
  PetscSF      esf;    /* roots: Q's entries; leaves: the fetched entries */
} GPUPCDevRowFetch;

PETSC_EXTERN PetscErrorCode GPUPCDevRowFetchCreate(PetscLayout, const GPUPCDevCSR *, PetscInt, const PetscInt *, GPUPCDevRowFetch *);
PETSC_EXTERN PetscErrorCode GPUPCDevRowFetchValues(const GPUPCDevCSR *, GPUPCDevRowFetch *);
PETSC_EXTERN PetscErrorCode GPUPCDevRowFetchDestroy(GPUPCDevRowFetch *);

#endif

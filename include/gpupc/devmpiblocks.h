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

#endif

/*
   gpupc/amgdevacross.h - PC gpuamg's device setup on several ranks (private to GPUPC and its tests): classical
   coarsening across ranks with the level's data on each rank's device.

   A level is a GPUPCDevMPIBlocks (gpupc/devmpiblocks.h). Its local part with ghosts (GPUPCAMGDevLocal) is the device
   twin of the host setup's GPUPCAMGLocalGetGhost() (gpupc/amgsetup.h, amgsetupghost.c), entry for entry: the points
   0..nx-1 are the n owned rows, the ghosts of the off-diagonal block (garray order), then the points that only the
   ghosts' rows reach (increasing global number); X holds the rows of the owned points and of the garray ghosts
   (ne = n + nghost rows), each row's entries in the order of their GLOBAL columns (so X.j is not increasing in the
   local numbering: the owned range sits between the ghosts below and above it), explicit zeros dropped except the
   diagonal. The strength graph S (ne rows, nx columns) and its transpose ST (nx rows, ne columns) are the host's
   GPUPCAMGStrengthClassical() of that part. The C/F splitting (nx states, the ghosts' from their owners) and the
   prolongator P (a GPUPCDevMPIBlocks: owned fine rows x global coarse columns, owned C points numbered after the C
   points of the ranks before) are the host's GPUPCAMGCoarsenAcross() and GPUPCAMGInterpolateAcross() bit for bit.
   What crosses ranks goes through the part's PetscSF on host buffers (small: the ghosts' states per round).
*/
#ifndef GPUPC_AMGDEVACROSS_H
#define GPUPC_AMGDEVACROSS_H

#include <gpupc/amgsetup.h>
#include <gpupc/devmpiblocks.h>

typedef struct {
  PetscInt    n;         /* owned points (rows 0..n-1 of X) */
  PetscInt    ne;        /* rows of X: n + the ghosts of the off-diagonal block */
  PetscInt    nx;        /* points (columns of X) */
  PetscInt    rstart, N; /* the first owned point (global), global points */
  GPUPCDevCSR X;         /* ne x nx, device (table's world) */
  PetscInt   *gidx;      /* device: the global number of each of the nx points */
  PetscInt   *hgidx;     /* host copy of gidx */
  PetscSF     sf;        /* roots: the n owned points; leaves: the points n..nx-1 (contiguous), host buffers */
} GPUPCAMGDevLocal;

typedef struct {
  GPUPCDevCSR S;  /* ne x nx: row i lists the points that strongly influence i (X's order) */
  GPUPCDevCSR ST; /* nx x ne: row j lists the rows that depend on j, increasing */
} GPUPCAMGDevGraph;

/* the local part with ghosts of a level on the device, from its blocks (collective) */
PETSC_EXTERN PetscErrorCode GPUPCAMGDevLocalGetGhost(const GPUPCDevMPIBlocks *, GPUPCAMGDevLocal *);
/* a device copy of the host setup's local part with ghosts (tests, references) */
PETSC_EXTERN PetscErrorCode GPUPCAMGDevLocalFromHost(const GPUPCAMGLocal *, GPUPCAMGDevLocal *);
PETSC_EXTERN PetscErrorCode GPUPCAMGDevLocalFree(GPUPCAMGDevLocal *);
/* classical strength (threshold theta) of the local part, and its transpose */
PETSC_EXTERN PetscErrorCode GPUPCAMGDevStrengthAcross(const GPUPCAMGDevLocal *, PetscReal, GPUPCAMGDevGraph *);
/* a device copy of a host strength graph (S and S^T) */
PETSC_EXTERN PetscErrorCode GPUPCAMGDevStrengthFromHost(const GPUPCAMGStrength *, GPUPCAMGDevGraph *);
PETSC_EXTERN PetscErrorCode GPUPCAMGDevStrengthFree(GPUPCAMGDevGraph *);
/* C/F splitting across ranks (pmis or hmis): cf, a device array of nx states, the ghosts' their owners' (collective) */
PETSC_EXTERN PetscErrorCode GPUPCAMGDevCoarsenAcross(const GPUPCAMGDevLocal *, const GPUPCAMGDevGraph *, PCGPUAMGCoarsenType, PetscInt *);
/* interpolation across ranks (direct, standard, ext+i; truncation max, factor): P's blocks (collective) */
PETSC_EXTERN PetscErrorCode GPUPCAMGDevInterpolateAcross(const GPUPCAMGDevLocal *, const GPUPCAMGDevGraph *, const PetscInt *, PCGPUAMGInterpType, PetscInt, PetscReal, GPUPCDevMPIBlocks *);

/* GPUPCAMGDevCoarsenAcross() with hmis's first pass on subdomains of B owned rows (the host's hmis when B >= every
   rank's rows) */
PETSC_EXTERN PetscErrorCode GPUPCAMGDevCoarsenAcrossSubdomain(const GPUPCAMGDevLocal *, const GPUPCAMGDevGraph *, PCGPUAMGCoarsenType, PetscInt, PetscInt *);
/* GPUPCAMGDevInterpolateAcross() with the CUDA table's ext+i tuning (NULL: the defaults) */
PETSC_EXTERN PetscErrorCode GPUPCAMGDevInterpolateAcrossTuned(const GPUPCAMGDevLocal *, const GPUPCAMGDevGraph *, const PetscInt *, PCGPUAMGInterpType, PetscInt, PetscReal, const GPUPCAMGInterpTuning *, GPUPCDevMPIBlocks *);
/* the distributed Galerkin product C = P^T A P from device blocks to device blocks (amgsetupgalerkinmpi.c); G keeps
   what a numeric re-run (MAT_REUSE_MATRIX: new values of A and P on the same patterns) needs (collective) */
typedef struct _n_GPUPCAMGGalMPI *GPUPCAMGGalMPI;
PETSC_EXTERN PetscErrorCode       GPUPCAMGGalerkinMPIBlocks(const GPUPCDevMPIBlocks *, const GPUPCDevMPIBlocks *, MatReuse, GPUPCAMGGalMPI *, GPUPCDevMPIBlocks *);
PETSC_EXTERN PetscErrorCode       GPUPCAMGGalMPIDestroy(GPUPCAMGGalMPI *);

/* the device setup on several ranks (amgsetupdevicempi.c): the hierarchy with each level's A and P as device blocks */
typedef struct _n_GPUPCAMGDevMPI *GPUPCAMGDevMPI;
PETSC_EXTERN PetscErrorCode       GPUPCAMGHierarchyBuildDeviceMPI(Mat, const GPUPCAMGSetupOptions *, GPUPCAMGHierarchy *);
PETSC_EXTERN PetscErrorCode       GPUPCAMGHierarchyRecomputeDeviceMPI(Mat, GPUPCAMGHierarchy *);
/* level l's blocks: A, and P (NULL on the last level); both NULL when H was not built by the device setup across ranks */
PETSC_EXTERN PetscErrorCode GPUPCAMGDevHierarchyGetLevelMPI(const GPUPCAMGHierarchy *, PetscInt, const GPUPCDevMPIBlocks **, const GPUPCDevMPIBlocks **);
PETSC_INTERN PetscErrorCode GPUPCAMGDevMPIFree(GPUPCAMGDevMPI *);
/* a time stamp of the device setups, after the device's queued work (amgsetupdevice.c) */
PETSC_INTERN PetscErrorCode GPUPCAMGDevNow(PetscLogDouble *);
PETSC_INTERN PetscErrorCode GPUPCAMGDevHierarchySetMPI(GPUPCAMGHierarchy *, GPUPCAMGDevMPI);
PETSC_INTERN PetscErrorCode GPUPCAMGDevHierarchyGetMPI(const GPUPCAMGHierarchy *, GPUPCAMGDevMPI *);
/* new values of device blocks into the host MPIAIJ made of them (GPUPCDevMPIBlocksToMat or from the blocks directly) */
PETSC_INTERN PetscErrorCode GPUPCAMGDevMPIBlocksValuesToMat(const GPUPCDevMPIBlocks *, Mat);
/* new values of an MPIAIJ (or derived) matrix into the device blocks made of it (the name of the matrix for errors) */
PETSC_INTERN PetscErrorCode GPUPCAMGDevMPIBlocksValuesFromMat(Mat, const char *, GPUPCDevMPIBlocks *);

#endif

/*
   gpupc/cmgmpi.h - private interface of the distributed PC cmg (docs/algorithms.md 2.4), used when
   the PC's communicator has more than one rank. Sources: src/pc/impls/cmg/mpi/.

   Setup (host):
     GPUPCCMGMPIReduce     level 0 = the user's matrix with the Dirichlet rows eliminated, as an
                           MPIAIJ SDDM matrix L + diag(e) (no ground vertex: the excess e_i >= 0
                           stays a diagonal term), errors naming the global row; on the device
                           setup kernels with -pc_cmg_setup device (GPUPCCMGMPIReduceDevice;
                           faults go to the host reduction, which names them);
     GPUPCCMGMPIHierarchyBuild
                           per level: rank-local clustering of the off-diagonal graph
                           (GPUPCCMGCluster on the rank's diagonal block, volume = all the row's
                           off-diagonal weight and e), R block diagonal by rank,
                           A_{k+1} = R A_k R^T by per-rank sort-and-reduce sums
                           (GPUPCCMGMPIGalerkin; MatPtAP with -pc_cmg_mpi_galerkin_ptap) with
                           its diagonal reset to the off-diagonal row sum plus the cluster sums
                           of e; value-only setups on the kept sorts
                           (GPUPCCMGMPIHierarchyRecompute); global stopping rules; the last
                           level gathered to every rank and factored densely
                           (GPUPCCMGCoarseFactor, with a ground vertex for e).
   Cycle (device, GPUPCCMGMPIDeviceApply): the shape of docs/algorithms.md 2.3 with the level
   matrices as rank-local blocks (in -pc_cmg_mat_type's format, segcsr for csr) of -A_k (diagonal block, off-diagonal block) and the
   device halo exchange of gpupc/matgpu.h; restriction, prolongation, smoothing through the
   CMG kernel table (gpupc/cmgkernels.h); the last level's right-hand side is gathered to every rank
   (MPI_Allgatherv through host staging) and the one-rank cycle (GPUPCCMGDeviceApply) applied
   redundantly.
*/
#ifndef GPUPC_CMGMPI_H
#define GPUPC_CMGMPI_H

#include <gpupc/cmg.h>
#include <gpupc/matgpu.h>

/* what a level keeps of its Galerkin product by sort-and-reduce (cmgmpigalerkin.c) for new values on the same pattern;
   device arrays (the active backend's) */
typedef struct {
  GPUPCDevCSR Ad;           /* the level's diagonal block (a reuse uploads new values) */
  PetscInt   *cluster;      /* c(v) of the local rows */
  PetscInt    nghost, onnz; /* the level's ghost columns, entries of its off-diagonal block */
  GPUPCDevCOO dcoo, ocoo;   /* the sorts of the diagonal block's and the off-diagonal block's triples */
  GPUPCDevCSR Cd, Co;       /* their sums: the next level's blocks (Co's columns: positions in the next level's garray) */
  size_t      bytes;        /* device bytes held here */
} GPUPCCMGMPISort;

/* one level of the distributed hierarchy */
typedef struct {
  Mat        A;          /* MPIAIJ: L_k + diag(e_k) */
  PetscInt   N, n;       /* global and local rows */
  PetscInt   rstart;     /* first global row of this rank */
  PetscInt   nnz;        /* global stored nonzeros */
  PetscInt   nmin, nmax; /* local rows, smallest and largest over the ranks */
  PetscReal *e;          /* local excess diagonal (length n) */
  /* towards the next level (unused on the last level) */
  PetscInt         nc, NC;  /* local and global clusters */
  PetscInt        *cluster; /* local c(v) in [0, nc) */
  PetscInt         t;
  PetscInt         nweak, nsingletons, maxsize; /* global: sums and largest cluster */
  GPUPCCMGMPISort *sort;                        /* how the next level was summed (NULL: by MatPtAP, -pc_cmg_mpi_galerkin_ptap) */
} GPUPCCMGMPILevel;

/* device side of one level */
typedef struct {
  GPUPCCMGDeviceLevel k;          /* what the CMG kernels see (local rows, double) */
  GPUPCDevMat         diag, offd; /* -A_k in the level format: diagonal and off-diagonal blocks (not on a direct last level) */
  GPUPCHalo           halo;
} GPUPCCMGMPIDeviceLevel;

struct _n_GPUPCCMGMPI {
  MPI_Comm    comm;
  PetscMPIInt size, rank;
  /* reduction (local): map, dinv (length n + nghostdir), E with columns in [0, n + nghostdir) */
  GPUPCCMGReduction red;
  PetscInt          Nuser, Nkept;                   /* global */
  PetscBool         reduced_on_device;              /* level 0 by GPUPCCMGMPIReduceDevice (else the host reduction) */
  PetscInt          gstrict, gdirichlet, gcoupling; /* global counts */
  PetscBool         offrank_coupling;               /* some E couplings cross ranks (PCApplyTranspose refused) */
  PetscInt          nghostdir;                      /* off-rank Dirichlet columns of E on this rank */
  PetscInt         *ghostdir;                       /* their global (user) indices, ascending */
  /* hierarchy */
  PetscInt           nlevels;
  GPUPCCMGMPILevel  *levels;
  PetscBool          ptap;    /* the coarse levels were formed by MatPtAP (the reference, -pc_cmg_mpi_galerkin_ptap) */
  PetscInt           nreuses; /* value-only setups (SAME_NONZERO_PATTERN) since the last full build */
  GPUPCCMGStopReason stop;
  PetscBool          gathered; /* the last level is gathered to every rank and solved by the one-rank CMG there */
  GPUPCCMGHierarchy  seq;      /* that one-rank hierarchy (of the gathered last level) */
  /* device */
  GPUPCCMGMPIDeviceLevel *dlev;
  PetscBool               l0dev;    /* l0d, l0o hold level 0's blocks (the device reduction's, equal to levels[0].A's) */
  GPUPCDevCSR             l0d, l0o; /* until the upload makes the level format from them (then freed) */
  GPUPCDevMatFormat       format;   /* of the level blocks: -pc_cmg_mat_type's (segcsr for csr, whose fused kernels are one-rank) */
  GPUPCCMGDeviceFold      fold;
  GPUPCHalo               dirhalo;         /* user-vector ghosts at the off-rank Dirichlet columns */
  PetscScalar            *bext;            /* device: [b; ghosts] when nghostdir > 0 */
  GPUPCCMGDevice          seqdev;          /* the one-rank hierarchy on the device */
  PetscScalar            *bfull, *xfull;   /* device: the gathered last level's right-hand side and solution */
  PetscScalar            *h_part, *h_full; /* host staging of the coarse right-hand side */
  GPUPCHalo               gatherhalo;      /* the gather as a device halo (every other rank's part) when it goes directly
                                              between the GPUs (gpupc/matgpu.h), else NULL: staged with MPI_Allgatherv */
  PetscBool               usegraph;        /* -pc_cmg_graph: record the cycle when no exchange of it needs the host */
  GPUPCGraph              graph;           /* the recorded cycle (GPUPCCMGMPIDeviceApply), NULL: launched kernel by kernel */
  PetscMPIInt            *counts, *displs;
  size_t                  bytes;
};

/* -log_view sub-events of the distributed setup, nested in CMGReduce, CMGCluster, CMGGalerkin and CMGUpload
   (registered by PCCMGRegisterEvents through GPUPCCMGMPIRegisterEvents) */
PETSC_INTERN PetscLogEvent  PC_CMGM_Wait, PC_CMGM_RowsUp, PC_CMGM_RedKernels, PC_CMGM_RedHost, PC_CMGM_Symmetry, PC_CMGM_FromBlocks, PC_CMGM_Graph, PC_CMGM_GalSums, PC_CMGM_UpBlocks, PC_CMGM_UpHalo, PC_CMGM_UpClusters, PC_CMGM_UpSeq;
PETSC_INTERN PetscErrorCode GPUPCCMGMPIRegisterEvents(void);
PETSC_INTERN PetscErrorCode GPUPCCMGMPIReduce(Mat, const GPUPCCMGOptions *, GPUPCCMGMPI, GPUPCCMGMPILevel *);
PETSC_INTERN PetscErrorCode GPUPCCMGMPIHierarchyBuild(Mat, const GPUPCCMGOptions *, GPUPCCMGMPI);
PETSC_INTERN PetscErrorCode GPUPCCMGMPILevelFree(GPUPCCMGMPILevel *);
PETSC_INTERN PetscErrorCode GPUPCCMGMPIGalerkin(MPI_Comm, GPUPCCMGMPILevel *, const GPUPCDevCSR *, const GPUPCDevCSR *, GPUPCCMGMPILevel *);
PETSC_INTERN PetscErrorCode GPUPCCMGMPIGalerkinValues(GPUPCCMGMPILevel *, const GPUPCDevCSR *, const GPUPCDevCSR *, GPUPCCMGMPILevel *);
PETSC_INTERN PetscErrorCode GPUPCCMGMPISortFree(GPUPCCMGMPISort **);
PETSC_INTERN PetscErrorCode GPUPCCMGMPIMatFromBlocks(MPI_Comm, PetscInt, const GPUPCDevCSR *, const GPUPCDevCSR *, const PetscInt *, const PetscReal *, Mat *);
PETSC_INTERN PetscErrorCode GPUPCCMGMPIReduceDevice(Mat, const GPUPCCMGOptions *, GPUPCCMGMPI, GPUPCCMGMPILevel *, PetscBool *);
PETSC_INTERN PetscErrorCode GPUPCCMGMPIReductionCounts(MPI_Comm, PetscInt, PetscInt, PetscInt, PetscInt, PetscInt, GPUPCCMGMPI);
PETSC_INTERN PetscErrorCode GPUPCCMGMPICouplingCounts(MPI_Comm, GPUPCCMGMPI);
PETSC_INTERN PetscErrorCode GPUPCCMGMPICouplingsFromBlocks(Mat, const PetscInt *, const PetscInt *, const PetscScalar *, const PetscReal *, GPUPCCMGMPI);
PETSC_INTERN PetscErrorCode GPUPCCMGMPIFirstAsymmetric(const GPUPCCMGOptions *, Mat, PetscInt *, PetscInt *, PetscReal *, PetscReal *);
PETSC_INTERN PetscErrorCode GPUPCCMGMPIHierarchyRecompute(Mat, const GPUPCCMGOptions *, GPUPCCMGMPI, PetscBool *);
/* for tests: the distributed hierarchy a set-up PC cmg holds on more than one rank (NULL on one rank) */
PETSC_EXTERN PetscErrorCode PCCMGGetMPIHierarchy_Private(PC, GPUPCCMGMPI *);
PETSC_INTERN PetscErrorCode GPUPCCMGMPIDeviceUpload(Mat, const GPUPCCMGOptions *, GPUPCCMGMPI);
PETSC_INTERN PetscErrorCode GPUPCCMGMPIDeviceFree(GPUPCCMGMPI);
PETSC_INTERN PetscErrorCode GPUPCCMGMPIDeviceApply(GPUPCCMGMPI, PetscBool, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode GPUPCCMGMPIDestroy(GPUPCCMGMPI *);
/* a collective error: every rank raises the message of the rank that found the smallest bad row (badrow < 0: none here) */
PETSC_INTERN PetscErrorCode GPUPCCMGMPIAgreeOnError(MPI_Comm, PetscInt, const char *, PetscInt *, char *, size_t);

#endif

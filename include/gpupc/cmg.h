/*
   gpupc/cmg.h - private interface of PC cmg (combinatorial multigrid), shared by its
   source files in src/pc/impls/cmg and by the tests that check the hierarchy.

   Setup (host): the operator is reduced to a Laplacian (GPUPCCMGReduce), then level by
   level clustered (GPUPCCMGCluster) and coarsened by the Galerkin cluster sum
   (GPUPCCMGGalerkin); the last level is factored (GPUPCCMGCoarseFactor).
   Apply (device): GPUPCCMGDeviceUpload copies the hierarchy to the device once and
   GPUPCCMGDeviceApply runs the cycle through the kernel table of gpupc/cmgkernels.h.
*/
#ifndef GPUPC_CMG_H
#define GPUPC_CMG_H

#include <petscpc.h>
#include <gpupc/cmgkernels.h>
#include <gpupc/sparsekernels.h>
#include <gpupc/devmat.h>

/* the device-Mat format (gpupc/devmat.h) of a level matrix type other than csr */
static inline GPUPCDevMatFormat GPUPCCMGDevMatFormat(GPUPCCMGMatType t)
{
  switch (t) {
  case GPUPC_CMG_MAT_HEC:
    return GPUPC_DEVMAT_HEC;
  case GPUPC_CMG_MAT_BCSR:
    return GPUPC_DEVMAT_BCSR;
  case GPUPC_CMG_MAT_AUTO:
    return GPUPC_DEVMAT_AUTO;
  default:
    return GPUPC_DEVMAT_SEGCSR;
  }
}

/* default -pc_cmg_direct_size: the reference 700 (docs/algorithms.md 2.2 item 6) on the host backend; on the cuda backend measured on an
   H200 (bench/NOTES.md, "CMG last level"): a dense last level of up to 2500 vertices is one GEMV of at most 50 MB per
   visit, cheaper than the launches of the levels it replaces */
#define GPUPC_CMG_DIRECT_SIZE_HOST 700
#define GPUPC_CMG_DIRECT_SIZE_CUDA 2500

/* default -pc_cmg_mpi_gather_size on the cuda backend (0 on the host backend): on several ranks the first coarse level
   of at most this many vertices is gathered to every rank and coarsened and cycled there by the one-rank hierarchy, redundantly, with no more halo exchanges (bench/NOTES.md
   2026-11-29f lead: the coarse levels' exchanges bound the distributed cycle) */
#define GPUPC_CMG_MPI_GATHER_SIZE 1000000

/* the public PCCMGPositiveMode (petscgpupc.h) under the names the CMG sources use: an alias, not a separate type */
typedef PCCMGPositiveMode GPUPCCMGPositiveMode;
#define GPUPC_CMG_POSITIVE_DOUBLE_COVER PC_CMG_POSITIVE_DOUBLECOVER
#define GPUPC_CMG_POSITIVE_ERROR        PC_CMG_POSITIVE_ERROR
#define GPUPCCMGPositiveModes           PCCMGPositiveModes

/* what -pc_cmg_... selected (set through the PCCMGSet... functions, cmgoptions.c) */
typedef struct {
  PetscBool            check_symmetry;
  PetscBool            dirichlet_rows; /* couplings into diagonal-only rows go to the ground */
  PetscReal            symmetry_tol;   /* relative to max(|a_ij|,|a_ji|) */
  PetscReal            dominance_tol;  /* e_i < -tol * a_ii is an error */
  GPUPCCMGPositiveMode positive;
  PetscInt             direct_size; /* stop when a level has at most this many vertices */
  PetscInt             max_levels;
  PetscInt             repeat;     /* > 0 overrides every t_k */
  PetscInt             repeat_max; /* > 0: t_k from the nonzero ratios is at most this */
  PetscInt             fuse_nnz;   /* cycle plan: levels with fewer stored entries fuse the first Jacobi step and the prolongation into the neighbouring kernels */
  PetscInt             pack_nnz;   /* levels with fewer stored entries are latency-bound (CUDA lanes per row, packed residual-restriction) */
  PetscBool            monitor;
  PetscInt             threads;         /* OpenMP threads of the host setup loops (>= 1) */
  PetscBool            cluster_order;   /* levels 1 .. last-1 numbered in cluster order (GPUPCCMGHierarchyOrder) */
  PCCMGSetupLocation   setup;           /* where the hierarchy is built (-pc_cmg_setup; the distributed one: its rank-local clustering) */
  PetscBool            mpi_ptap;        /* developer: the distributed levels by MatPtAP (the reference of the sorted sums) */
  PetscInt             mpi_gather_size; /* several ranks: a level of at most this many vertices is gathered to every rank and coarsened further there by the one-rank hierarchy */
} GPUPCCMGOptions;

/* How the user's system maps to the level-0 Laplacian:
   Rows holding only a diagonal (Dirichlet rows B, with dirichlet_rows) are eliminated exactly: x_B = dinv b_B and
   the kept rows I get b_I - E x_B with E = A(I, B); then P A = blockdiag(P_I A_II, I). P is symmetric when E is empty.
   The nk kept rows get numbers map[i] (map == NULL: all rows kept, map[i] = i).
   copies = 1: L0 acts on [x_k; x_g]          (x_g only when ground)
   copies = 2: L0 acts on [x_k; -x_k; x_g]    (double cover of the positive off-diagonals)
   Expand: b0 = [s_c b_k ...; -(copies == 1 ? sum b_k : 0)], fold: x_i = (1/copies) sum_c s_c (x0[c nk + map[i]] - x0[g]) */
typedef struct {
  PetscInt   n;           /* rows of the user's matrix */
  PetscInt   copies;      /* 1 or 2 */
  PetscBool  ground;      /* a ground vertex was added (index copies*n) */
  PetscInt   n0;          /* copies*nk + ground */
  PetscInt   nkept;       /* nk: rows in the Laplacian */
  PetscInt  *map;         /* length n: row -> kept index, -1 for Dirichlet rows; NULL when none */
  PetscReal *dinv;        /* length n: 1/a_ii on Dirichlet rows, 0 elsewhere; NULL when none */
  PetscInt   ncoupling;   /* entries of E = A(kept rows, Dirichlet columns); the operator is nonsymmetric when > 0 */
  PetscInt  *erow, *ecol; /* E by user row (length n + 1; empty rows for Dirichlet rows) */
  PetscReal *eval;
  PetscInt  *trow, *tcol; /* E^T by user row (Dirichlet rows hold entries) */
  PetscReal *tval;
  PetscInt   npositive;  /* stored positive off-diagonal entries of the user's matrix */
  PetscInt   nstrict;    /* strictly dominant rows (tied to the ground) */
  PetscInt   ndirichlet; /* rows with only a diagonal (with dirichlet_rows: couplings into them go to the ground) */
} GPUPCCMGReduction;

/* one level of the hierarchy, on the host: a Laplacian in CSR (sorted columns, diagonal stored) */
typedef struct {
  PetscInt   n, nnz;
  PetscInt  *rowptr, *col;
  PetscReal *val;
  /* towards the next level (unused on the last level) */
  PetscInt  nc;      /* clusters = rows of the next level */
  PetscInt *cluster; /* c(v) in [0, nc), length n */
  PetscInt  t;       /* the next level runs t times per visit of this one */
  /* clustering statistics */
  PetscInt nweak, nsingletons, maxsize;
  /* the same CSR on the device when the device setup built it (its arrays, owned by GPUPCCMGDevSetup), else NULL: the
     cycle's upload forms the level from these (GPUPCCMGLevelFromDevice) instead of copying the host arrays up */
  const PetscInt  *drowptr, *dcol;
  const PetscReal *dval;
} GPUPCCMGLevel;

typedef enum {
  GPUPC_CMG_STOP_DIRECT_SIZE,
  GPUPC_CMG_STOP_ONE_CLUSTER,
  GPUPC_CMG_STOP_STAGNATION_SIZE,
  GPUPC_CMG_STOP_STAGNATION_NNZ,
  GPUPC_CMG_STOP_MAX_LEVELS,
  GPUPC_CMG_STOP_GATHER_SIZE
} GPUPCCMGStopReason;
PETSC_EXTERN const char *const GPUPCCMGStopReasons[];

typedef struct {
  GPUPCCMGReduction  red;
  PetscInt           nlevels;
  GPUPCCMGLevel     *levels; /* levels[0] is the reduced Laplacian */
  GPUPCCMGStopReason stop;
  PetscBool          coarse_direct; /* last level: dense grounded inverse, else one Jacobi step */
  PetscInt           coarse_ncomp;  /* connected components (= grounded vertices) of the last level */
  PetscReal         *coarse_inv;    /* n_last x n_last, zero in grounded rows/columns; on the cuda backend NULL (factored on
                                       the device at the upload) until GPUPCCMGHierarchyGetCoarseInverse() */
} GPUPCCMGHierarchy;

PETSC_EXTERN PetscErrorCode GPUPCCMGOptionsDefault(GPUPCCMGOptions *);
PETSC_EXTERN PetscInt       GPUPCCMGRecursionCount(const GPUPCCMGOptions *, PetscReal, PetscReal);
PETSC_EXTERN PetscErrorCode GPUPCCMGReduce(Mat, const GPUPCCMGOptions *, GPUPCCMGReduction *, GPUPCCMGLevel *);
PETSC_EXTERN PetscErrorCode GPUPCCMGCluster(GPUPCCMGLevel *, PetscInt);
PETSC_EXTERN PetscErrorCode GPUPCCMGClusterSort(PetscInt, PetscInt, const PetscInt *, PetscInt *, PetscInt *);
PETSC_EXTERN PetscErrorCode GPUPCCMGGalerkin(const GPUPCCMGLevel *, PetscInt, const PetscInt *, PetscInt, GPUPCCMGLevel *);
PETSC_EXTERN PetscErrorCode GPUPCCMGGalerkinValues(const GPUPCCMGLevel *, const PetscInt *, PetscInt, GPUPCCMGLevel *);
PETSC_EXTERN PetscErrorCode GPUPCCMGCoarseFactor(const GPUPCCMGLevel *, PetscInt *, PetscReal **);
PETSC_EXTERN PetscErrorCode GPUPCCMGCoarseComponents(const GPUPCCMGLevel *, PetscInt *);
PETSC_EXTERN PetscErrorCode GPUPCCMGCoarseFactorDevice(const GPUPCCMGLevel *, GPUPCCMGPrecision, void *);
PETSC_EXTERN PetscErrorCode GPUPCCMGLevelFree(GPUPCCMGLevel *);
PETSC_EXTERN PetscErrorCode GPUPCCMGReductionFree(GPUPCCMGReduction *);

/* the setup on the device (-pc_cmg_setup device, cmgsetupdevice.c): what a value-only reuse needs there */
typedef struct {
  GPUPCDevCSR  A;       /* the user's matrix (values go up once per setup) */
  PetscInt    *map;     /* user row -> kept index, -1 for a Dirichlet row */
  PetscInt    *strict;  /* the strictly dominant kept rows, increasing (the ground row's columns); NULL without a ground vertex */
  PetscInt     nlevels; /* 0: nothing built on the device */
  GPUPCDevCSR *L;       /* the levels (Laplacians) */
  PetscInt   **cluster; /* c(v) of every level but the last */
  GPUPCDevCOO *coo;     /* the Galerkin sum of level k + 1 from level k's triples */
  size_t       bytes;   /* device bytes held here */
  PetscBool    stale;   /* the host levels but the last lack their current columns and values (GPUPCCMGHierarchySyncDevice) */
} GPUPCCMGDevSetup;

PETSC_INTERN PetscErrorCode GPUPCCMGHierarchyBuildDevice(Mat, const GPUPCCMGOptions *, GPUPCCMGHierarchy *, GPUPCCMGDevSetup *, PetscBool *);
PETSC_INTERN PetscErrorCode GPUPCCMGHierarchyRecomputeDevice(Mat, const GPUPCCMGOptions *, GPUPCCMGHierarchy *, GPUPCCMGDevSetup *, PetscBool *);
PETSC_INTERN PetscErrorCode GPUPCCMGHierarchySyncDevice(GPUPCCMGHierarchy *, GPUPCCMGDevSetup *);
PETSC_INTERN PetscErrorCode GPUPCCMGDevSetupFree(GPUPCCMGDevSetup *);
PETSC_INTERN PetscErrorCode GPUPCCMGClusterDevice(GPUPCCMGLevel *);
PETSC_INTERN PetscErrorCode GPUPCCMGHierarchyAttachDevice(GPUPCCMGHierarchy *, const GPUPCCMGDevSetup *);
/* shared by the host and the device setup */
PETSC_INTERN PetscBool      GPUPCCMGStopBeforeClustering(const GPUPCCMGOptions *, PetscInt, PetscInt, GPUPCCMGStopReason *);
PETSC_INTERN PetscErrorCode GPUPCCMGHierarchyFinish(const GPUPCCMGOptions *, GPUPCCMGHierarchy *);
PETSC_INTERN PetscErrorCode GPUPCCMGLevelMonitor(const GPUPCCMGOptions *, const GPUPCCMGLevel *, PetscInt);
PETSC_EXTERN PetscErrorCode GPUPCCMGMakeForest(PetscInt, PetscInt *);

/* Threads of the host setup (OpenMP, cmgthreads.c). A loop body that runs in the threads calls no PETSc function:
   PETSc's function stack and error handling are not thread-safe in every PETSc build. */
#if defined(_OPENMP)
#include <omp.h>
#define GPUPCCMGThreadIndex() omp_get_thread_num()
#else
#define GPUPCCMGThreadIndex() 0
#endif
PETSC_EXTERN PetscErrorCode GPUPCCMGDefaultThreads(PetscInt *);
PETSC_EXTERN void           GPUPCCMGSortRow(PetscInt, PetscInt *, PetscReal *);
PETSC_EXTERN PetscReal      GPUPCCMGGroundDiagonal(PetscInt, const PetscReal *);
#define GPUPC_CMG_MAX_SCAN_BLOCKS 256 /* GPUPCCMGExclusiveScan splits its array over at most this many threads */
PETSC_EXTERN void           GPUPCCMGExclusiveScan(PetscInt, PetscInt, PetscInt *, PetscInt *);
PETSC_EXTERN PetscErrorCode GPUPCCMGHierarchyBuild(Mat, const GPUPCCMGOptions *, GPUPCCMGHierarchy *);
PETSC_EXTERN PetscErrorCode GPUPCCMGHierarchyOrder(GPUPCCMGHierarchy *, PetscInt);
PETSC_EXTERN PetscErrorCode GPUPCCMGHierarchyRecompute(Mat, const GPUPCCMGOptions *, GPUPCCMGHierarchy *, PetscBool *);
PETSC_EXTERN PetscErrorCode GPUPCCMGHierarchyDestroy(GPUPCCMGHierarchy *);
PETSC_EXTERN PetscErrorCode GPUPCCMGHierarchyGetCoarseInverse(const GPUPCCMGHierarchy *, const PetscReal **);

/* One step of the cycle with its buffers named (the plan of GPUPCCMGDevice lists the steps of P(b0, 0, 1) in launch
   order; the level's b and its matrix come from the level): */
typedef enum {
  GPUPC_CMG_STEP_JACOBI,         /* x = invd .* b (the last level without a dense inverse)                                           */
  GPUPC_CMG_STEP_SMOOTH,         /* y = x + invd .* (b - A x), y != x                                                               */
  GPUPC_CMG_STEP_RESTRICT,       /* y[C] = sum_{v in C} (b - A x)_v, y = the next level's b; with xc also xc = invd' .* y (invd',  */
                                 /* xc: the next level's, whose first Jacobi step this is)                                          */
  GPUPC_CMG_STEP_FIRST_RESTRICT, /* x = invd .* b, then RESTRICT (first step of a visit of a small level: one launch)              */
  GPUPC_CMG_STEP_PROLONG,        /* x[v] += xc[c(v)], xc = the next level's iterate                                                  */
  GPUPC_CMG_STEP_PROLONG_SMOOTH, /* y = x' + invd .* (b - A x'), x' = x + xc[c(.)] (PROLONG then SMOOTH on a small level: one launch) */
  GPUPC_CMG_STEP_COARSE          /* x = dense * b (last level)                                                                      */
} GPUPCCMGStepKind;

typedef struct {
  GPUPCCMGStepKind kind;
  PetscInt         level;
  void            *x, *y, *xc; /* device pointers: the iterate, the output (SMOOTH, RESTRICT), the next level's iterate (PROLONG*, RESTRICT) */
} GPUPCCMGStep;

/* the hierarchy on the device */
typedef struct {
  GPUPCCMGPrecision    prec;
  GPUPCCMGMatType      mattype;
  PetscInt             nlevels;
  GPUPCCMGDeviceLevel *levels;
  GPUPCCMGDeviceFold   fold;
  size_t               bytes; /* device memory held */
  /* the plan: the steps of the cycle P(b0, 0, 1) in launch order with their buffers (GPUPCCMGDevicePlan) */
  PetscInt      nsteps;
  GPUPCCMGStep *steps;
  void         *xcycle;  /* where the cycle leaves level 0's iterate */
  PetscInt      fusennz; /* the plan fuses steps on levels with fewer stored entries */
  PetscInt      packnnz; /* levels with fewer stored entries are latency-bound: their clusters are packed into units (nunits) */
  GPUPCGraph    graph;   /* the plan recorded once (GPUPCCMGDeviceRecord), NULL: launched step by step */
} GPUPCCMGDevice;

PETSC_INTERN PetscErrorCode GPUPCCMGDeviceUpload(const GPUPCCMGHierarchy *, GPUPCCMGPrecision, GPUPCCMGMatType, const GPUPCCMGOptions *, GPUPCCMGDevice *);
PETSC_INTERN PetscErrorCode GPUPCCMGDeviceRefresh(const GPUPCCMGHierarchy *, GPUPCCMGPrecision, GPUPCCMGMatType, const GPUPCCMGOptions *, GPUPCCMGDevice *, PetscBool *);
PETSC_INTERN PetscErrorCode GPUPCCMGLevelFromDevice(const GPUPCCMGLevel *, GPUPCCMGPrecision, PetscBool, PetscBool, GPUPCCMGDeviceLevel *, PetscBool *, size_t *);
PETSC_INTERN PetscErrorCode GPUPCCMGDeviceUploadLargeClusters(PetscInt, const PetscInt *, GPUPCCMGDeviceLevel *, size_t *);
PETSC_INTERN PetscErrorCode GPUPCCMGDevicePlan(GPUPCCMGDevice *);
PETSC_INTERN PetscErrorCode GPUPCCMGDeviceFree(GPUPCCMGDevice *);
PETSC_INTERN PetscErrorCode GPUPCCMGDeviceRecord(GPUPCCMGDevice *);
PETSC_INTERN PetscErrorCode GPUPCCMGDeviceApply(GPUPCCMGDevice *, PetscBool, const PetscScalar *, PetscScalar *);

/* distributed CMG (PC on more than one MPI rank): gpupc/cmgmpi.h, src/pc/impls/cmg/mpi */
typedef struct _n_GPUPCCMGMPI *GPUPCCMGMPI;
PETSC_INTERN PetscErrorCode    PCSetUp_CMG_MPI(PC);
PETSC_INTERN PetscErrorCode    PCApply_CMG_MPI(PC, PetscBool, Vec, Vec);
PETSC_INTERN PetscErrorCode    PCView_CMG_MPI(PC, PetscViewer);
PETSC_INTERN PetscErrorCode    PCReset_CMG_MPI(PC);
PETSC_INTERN PetscErrorCode    PCCMGGetLevel_CMG_MPI(PC, PetscInt, PetscInt *, PetscInt *, PetscInt *);
PETSC_INTERN PetscErrorCode    GPUPCCMGMPIGetNumberOfLevels(GPUPCCMGMPI, PetscInt *);

/* the PC's data */
typedef struct {
  GPUPCCMGOptions    opts;
  GPUPCCMGPrecision  prec;
  GPUPCCMGMatType    mattype;
  PetscBool          graph; /* record the cycle as a CUDA graph (cuda backend) */
  GPUPCCMGHierarchy  hier;
  PetscBool          built;
  GPUPCCMGDevice     dev;
  PetscInt           nsetups, nreuses, nrefreshes; /* setups; of them, clustering kept; device values refreshed in place */
  GPUPCCMGMPI        mpi;                          /* the distributed hierarchy (more than one rank); NULL on one rank */
  PCCMGSetupLocation setup;                        /* where the hierarchy is built (-pc_cmg_setup) */
  GPUPCCMGDevSetup   dsetup;                       /* what the device setup keeps for a reuse */
  PetscBool          ondevice;                     /* the last build ran on the device (else the host: -pc_cmg_setup host, or a matrix the device cannot read) */
} PC_CMG;

/* options, their setters and getters (cmgoptions.c) */
PETSC_INTERN PetscErrorCode PCSetFromOptions_CMG(PC, PetscOptionItems *);
PETSC_INTERN PetscErrorCode PCCMGComposeOptionFunctions_Private(PC, PetscBool);

/* for tests: the hierarchy a set-up PC cmg holds */
PETSC_EXTERN PetscErrorCode PCCMGGetHierarchy_Private(PC, const GPUPCCMGHierarchy **);

PETSC_INTERN PetscLogEvent  PC_CMG_Reduce, PC_CMG_Cluster, PC_CMG_Galerkin, PC_CMG_CoarseFactor, PC_CMG_Upload, PC_CMG_Cycle;
PETSC_INTERN PetscErrorCode PCCMGRegisterEvents(void);
PETSC_INTERN PetscErrorCode PCCreate_CMG(PC);

#endif

/*
   gpupc/amg.h - the AMG hierarchy of PC gpuamg (private to GPUPC).

   The host setup (src/pc/impls/gpuamg/setup*.c: strength, coarsening, interpolation, aggregation, Galerkin products)
   builds a GPUPCAMGHierarchy of host AIJ matrices; the PC (src/pc/impls/gpuamg/gpuamg.c and the cycle files) puts
   the levels on the device and runs the cycles. The two halves meet only here.
*/
#ifndef GPUPC_AMG_H
#define GPUPC_AMG_H

#include <petscgpupc.h>
#include <petsc/private/pcimpl.h>
#include <gpupc/amgsetupkernels.h> /* GPUPCAMGInterpTuning */

/* what the host setup needs to know (filled from the PC's options; defaults from GPUPCAMGSetupOptionsDefault) */
typedef struct {
  PCGPUAMGType          type;              /* classical or smoothed aggregation */
  PCGPUAMGCoarsenType   coarsen;           /* classical: rs, cljp, pmis, hmis */
  PCGPUAMGInterpType    interp;            /* classical: direct, standard, extended+i, multipass, simple */
  PetscReal             strong_threshold;  /* classical strength theta (default 0.25) */
  PetscReal             agg_threshold;     /* aggregation strength eps: |a_ij| >= eps sqrt(|a_ii a_jj|) (default 0.05) */
  PCGPUAMGAggPriority   agg_priority;      /* the device aggregation's MIS(2) priorities (-pc_gpuamg_dev_agg_priority) */
  PetscInt              aggressive_levels; /* aggressive coarsening on the first k levels (default 0) */
  PetscInt              trunc_max;         /* interpolation truncation: at most this many entries per row (0: none) */
  PetscReal             trunc_factor;      /* and drop entries below trunc_factor * max |P_ij| of the row (0: none) */
  PCGPUAMGTruncRescale  trunc_rescale;     /* how a truncated row is rescaled to keep its sum (default sum) */
  PetscInt              agg_smooths;       /* prolongator smoothing steps (1 smoothed aggregation, 0 unsmoothed) */
  PetscInt              max_levels;        /* at most this many levels (default 25) */
  PetscInt              max_coarse;        /* stop when the global size is at most this (rows) */
  PetscReal             max_ratio;         /* stop when n_coarse / n_fine exceeds this (default 0.9) */
  PetscInt              threads;           /* host threads of the setup */
  PetscInt              across;            /* classical pmis/hmis: coarsen across ranks (1), each rank its own rows
                                            (0), or across on several ranks only (-1, the default) */
  PetscInt              coarse_eq_limit;   /* several ranks, classical scalar coarsening: a coarse level that would have fewer
                                            rows a rank than this goes to fewer ranks (about this many rows each; 0: never;
                                            -1, the default: GPUPC_AMG_COARSE_EQ_LIMIT with pmis, never with the others) */
  PCGPUAMGSetupLocation location;          /* where the hierarchy is built (location_set false: device on the cuda backend) */
  PetscBool             location_set;      /* location was chosen (-pc_gpuamg_setup, PCGPUAMGSetSetupLocation()) */
  PetscBool             host_levels;       /* the device setup also makes host AIJ copies of the coarse levels, P and R
                                              (GPUPCAMGSetupOptionsDefault: true; the PC: -pc_gpuamg_keep_host_levels) */
  PetscBool             mpi_ptap;          /* developer: on several ranks the Galerkin products by MatPtAP (the reference of
                                              the per-rank products, GPUPCAMGGalerkinMPI) */
  PetscInt              cdim;              /* coordinates given by PCSetCoordinates: dimension (0: none) */
  PetscInt              ncoords;           /* local points (one per local block row; 0 on a rank without rows) */
  const PetscReal      *coords;            /* interleaved, one point per local block row (the PC owns them); NULL
                                            where ncoords is 0 */
  GPUPCAMGInterpTuning  interp_tuning;     /* the device setup's CUDA ext+i rows (-pc_gpuamg_dev_interp_*) */
} GPUPCAMGSetupOptions;

/* the default rows a rank below which pmis levels go to fewer ranks: levels below it are latency-bound on the GPU
   (bench/NOTES.md 2026-11-29d). Only pmis by default: its splitting does not depend on the ranks, so agglomeration
   keeps the hierarchy; hmis's rank-local first pass does depend on them (poisson3d 20^3, 4 ranks, direct: 12 -> 13
   iterations against 11 on one rank) */
#define GPUPC_AMG_COARSE_EQ_LIMIT 10000
static inline PetscInt GPUPCAMGCoarseEqLimit(const GPUPCAMGSetupOptions *o)
{
  return o->coarse_eq_limit >= 0 ? o->coarse_eq_limit : (o->coarsen == PC_GPUAMG_COARSEN_PMIS ? GPUPC_AMG_COARSE_EQ_LIMIT : 0);
}

/* the last level is inverted densely: at most this many rows (the setup refuses more, naming why coarsening stopped) */
#define GPUPC_AMG_DENSE_MAX 16384

/* the hierarchy: host AIJ matrices (SEQAIJ on one rank, MPIAIJ on several, on the operator's communicator) */
typedef struct {
  PetscInt                        nlevels;
  Mat                            *A;          /* A[0]: the operator (a reference); A[l+1] = P[l]^T A[l] P[l] */
  Mat                            *P;          /* P[l], l < nlevels-1: rows of level l, columns of level l+1 */
  Mat                            *R;          /* R[l] = P[l]^T where the setup formed it (one rank), else NULL (or R itself NULL): the
                              device transposes P */
  PetscInt                        threads;    /* host threads of the setup (and of a recomputation) */
  PetscLogDouble                  times[4];   /* seconds: strength+coarsening (or aggregation), interpolation (or P), Galerkin, total */
  PetscBool                       ondevice;   /* built by the device setup (amgsetupdevice.c); else by the host setup */
  PetscBool                       hostlevels; /* the device setup made host copies of the coarse levels, P and R (else
                                                 only the last level has one; the cycle holds the others on the device) */
  const char                     *hostwhy;    /* the device setup was asked for but this hierarchy needs the host one: why (else NULL) */
  PetscInt                        nacross;    /* host setup: levels coarsened across ranks (the others: each rank its own rows) */
  const char                     *localwhy;   /* host setup on several ranks: why a level was coarsened rank by rank (else NULL) */
  PetscMPIInt                    *ranks;      /* host setup: ranks holding rows of each level (several ranks; NULL on one) */
  const char                     *aggwhy;     /* several ranks, agglomeration asked for but not done: why (else NULL) */
  size_t                          devpeak;    /* device setup: the most device bytes it held at once above what was held before */
  struct _n_GPUPCAMGDevHierarchy *dev;        /* device setup: the level matrices and P as device CSR, for a numeric re-run */
} GPUPCAMGHierarchy;

PETSC_EXTERN PetscErrorCode GPUPCAMGSetupOptionsDefault(GPUPCAMGSetupOptions *);
/* builds the hierarchy of A; collective on A */
PETSC_EXTERN PetscErrorCode GPUPCAMGHierarchyBuild(Mat, const GPUPCAMGSetupOptions *, GPUPCAMGHierarchy *);
/* new values on the same nonzero pattern of A: keeps the coarsening and every P, recomputes the Galerkin products */
PETSC_EXTERN PetscErrorCode GPUPCAMGHierarchyRecompute(Mat, GPUPCAMGHierarchy *);
PETSC_EXTERN PetscErrorCode GPUPCAMGHierarchyDestroy(GPUPCAMGHierarchy *);
/* the device setup (one rank; amgsetupdevice.c): where opts sends the setup of A (PC_GPUAMG_SETUP_HOST with *why set
   when the device setup was asked for but does not cover A or opts), the build, the numeric re-run, the free */
PETSC_EXTERN PetscErrorCode GPUPCAMGSetupWhere(Mat, const GPUPCAMGSetupOptions *, PCGPUAMGSetupLocation *, const char **);
PETSC_EXTERN PetscErrorCode GPUPCAMGHierarchyBuildDevice(Mat, const GPUPCAMGSetupOptions *, GPUPCAMGHierarchy *);
PETSC_EXTERN PetscErrorCode GPUPCAMGHierarchyRecomputeDevice(Mat, GPUPCAMGHierarchy *);
PETSC_INTERN PetscErrorCode GPUPCAMGDevHierarchyFree(GPUPCAMGHierarchy *);
/* collective checks (amgsetupagree.c): every rank reaches the same verdict, so no rank leaves while the others wait */
PETSC_EXTERN PetscErrorCode GPUPCAMGCheckCoordinates(Mat, PetscInt, PetscInt);
PETSC_EXTERN PetscErrorCode GPUPCAMGAgree(MPI_Comm, PetscErrorCode, const char *, PetscInt);

#endif

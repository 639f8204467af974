/*
   gpupc/amgcycle.h - the device half of PC gpuamg (private to GPUPC and its tests).

   The host setup (gpupc/amg.h) builds a GPUPCAMGHierarchy of host AIJ levels A[l] and prolongators P[l].
   GPUPCAMGDeviceCreate puts it on the device: every A[l], P[l] and R[l] = P[l]^T as a GPU Mat (segcsr; mpisegcsr on
   several ranks, whose product does the device halo exchange), gpu Vecs for each level's b, x and work vectors, the
   smoother's data (scaled inverse diagonal, eigenvalue estimate) and the dense inverse of the last level (redundant
   on every rank). GPUPCAMGDeviceApply runs a V, W or F cycle on it (src/pc/impls/gpuamg/amgcycle.c), on one rank and the
   cuda backend recorded once as a CUDA graph and replayed. Tests call these directly with a hierarchy they build
   themselves, so the cycle is tested apart from the setup.
*/
#ifndef GPUPC_AMGCYCLE_H
#define GPUPC_AMGCYCLE_H

#include <gpupc/amg.h>
#include <gpupc/amgkernels.h>
#include <gpupc/sparsekernels.h> /* GPUPCDevCSR */
#include <gpupc/devmpiblocks.h>  /* GPUPCDevMPIBlocks: the levels on several ranks */
#include <gpupc/gpubjacobikernels.h>
#include <gpupc/amgevents.h> /* the device half's -log_view events */

/* defaults (the man page of PCGPUAMG says that they are to be confirmed by measurement on the GPU) */
#define GPUPC_AMG_CHEBYSHEV_LOWER 10.0 /* Chebyshev interval [lambda / 10, 1.1 lambda], GAMG's; lambda / 30 took 1.5-2x the
                                          CG iterations (bench/NOTES.md, branch amgconv) */
#define GPUPC_AMG_LANCZOS_STEPS   20   /* Lanczos steps of the estimate of lambda_max(D^-1 A) (amgsmootherlambda.c) */

/* what the cycle does (-pc_gpuamg_cycle, -pc_gpuamg_smoother, ...) */
/* mcgs: the colours after the last one of more estimated entries than this run in one thread block (default) */
#define GPUPC_MCGS_BLOCK_NNZ 8192

typedef struct {
  PCGPUAMGCycleType cycle;
  char              smoother[64];               /* a name in the smoother registry (PCGPUAMGSmootherRegister()) */
  PetscInt          pre, post;                  /* sweeps before and after the coarse correction; PETSC_DEFAULT: the smoother's */
  PetscReal         weight;                     /* factor w on the damping of jacobi (omega_l = w 4/(3 lambda_l)) and l1jacobi; PETSC_DEFAULT: 1 */
  PetscInt          cheby_degree;               /* products with A per Chebyshev sweep */
  PetscInt          poly_degree;                /* m of the Neumann series I + G + ... + G^m */
  PetscBool         graph;                      /* record the cycle as a CUDA graph where it can be (one rank, cuda backend) */
  char              mattype[64];                /* device format of A, P and R */
  PetscInt          mcgs_block_nnz, mcgs_lanes; /* mcgs's launch shapes (PCGPUAMGSetMCGSTuning()) */
} GPUPCAMGCycleOptions;

PETSC_EXTERN PetscErrorCode GPUPCAMGCycleOptionsDefault(GPUPCAMGCycleOptions *);
PETSC_EXTERN PetscReal      GPUPCAMGCycleWeight(const GPUPCAMGCycleOptions *);

/* one level on the device */
typedef struct {
  PetscInt              n, N;             /* local and global rows */
  PetscInt              nnz;              /* global stored entries of A */
  Mat                   A;                /* the level operator (GPU Mat type); level 0 may be the user's matrix (a reference) */
  Mat                   P, R;             /* towards the next level (NULL on the last): P n x n_{l+1}, R = P^T */
  Vec                   b, x, r;          /* right-hand side, iterate, residual / product */
  MatType               afmt, pfmt, rfmt; /* the device formats of A, P and R (-pc_gpuamg_mat_type; auto's choice) */
  char                  awhy[160];        /* why A's format (-ksp_view) */
  const GPUPCDevCSR    *dcsr;             /* A as device CSR where the device setup holds it (its scalings are computed there), else NULL */
  GPUPCDevMPIBlocks    *dblocks;          /* several ranks: A as device blocks, A a device-only shell over them (the scalings are computed
                                             from them), else NULL */
  PetscBool             ownblocks;        /* dblocks were made for the level (from the host level) and go with it */
  PCGPUAMGSmootherLevel sm;               /* the smoother's view of the level (b, x, r, A are the level's, not owned) */
} GPUPCAMGDeviceLevel;

typedef struct {
  PetscInt             nlevels;
  GPUPCAMGDeviceLevel *levels;
  GPUPCAMGCycleOptions opts;     /* what it was built with (pre, post resolved) */
  PCGPUAMGSmootherOps  smoother; /* the registered smoother's operations */
  /* the last level: the dense inverse of the whole last level on every rank (row-major; from a Cholesky factorization
     when it is symmetric positive definite, else from an LU factorization) */
  PetscInt     nc;        /* its global order */
  PetscScalar *d_inv;     /* device, nc x nc */
  PetscBool    spd;       /* Cholesky (else LU) */
  PetscBool    redundant; /* several ranks: the last level's b is gathered to every rank, x taken from its share */
  VecScatter   cscatter;  /* b_last -> cb (every rank holds all of it) */
  Vec          cb, cx;    /* sequential gpu vectors of order nc (redundant only) */
  PetscInt     cstart;    /* first row of this rank in the last level */
  /* the cycle */
  const GPUPCAMGKernels *k;
  PetscBool              usegraph; /* recording allowed here (one rank, cuda backend, option) */
  GPUPCGraph             graph;    /* recorded cycle (apply, not transpose), NULL until the first application after setup */
  PetscInt               applies;
  /* statistics for the view */
  PetscReal      opcomplexity, gridcomplexity;
  PetscLogDouble t_upload, t_smoother, t_coarse; /* seconds of the device setup */
  size_t         bytes;                          /* device bytes of the level matrices, vectors and the inverse */
  PetscBool      counting;                       /* the running application adds what each operation must move to cyclebytes */
  PetscReal      cyclebytes;                     /* bytes one application must read and write at least (counted at the first) */
} GPUPCAMGDevice;

PETSC_EXTERN PetscErrorCode GPUPCAMGDeviceCreate(const GPUPCAMGHierarchy *, const GPUPCAMGCycleOptions *, GPUPCAMGDevice *);
PETSC_EXTERN PetscErrorCode GPUPCAMGDeviceRefresh(const GPUPCAMGHierarchy *, GPUPCAMGDevice *);
PETSC_EXTERN PetscErrorCode GPUPCAMGDeviceApply(GPUPCAMGDevice *, PetscBool, Vec, Vec);
PETSC_EXTERN PetscErrorCode GPUPCAMGDeviceDestroy(GPUPCAMGDevice *);
PETSC_EXTERN PetscErrorCode GPUPCAMGDeviceView(const GPUPCAMGDevice *, PetscViewer);
PETSC_EXTERN PetscErrorCode GPUPCAMGDeviceViewHalo(const GPUPCAMGDevice *, PetscViewer);

/* the pieces (amgsmoother.c, amgcoarse.c) */
PETSC_INTERN PetscErrorCode GPUPCAMGSmootherSetUp(GPUPCAMGDevice *, PetscInt);
PETSC_INTERN PetscErrorCode GPUPCAMGSmootherDestroy(GPUPCAMGDevice *, PetscInt);
PETSC_INTERN PetscErrorCode GPUPCAMGSmootherLambda(const GPUPCAMGKernels *, Mat, Vec, PetscInt, PetscReal, PetscReal *, PetscReal *);
PETSC_INTERN PetscErrorCode GPUPCAMGSmootherLambdaBlock(const GPUPCAMGKernels *, Mat, const GPUPCPBJBlocks *, Vec, PetscInt, PetscReal *, PetscReal *);
/* the registry (amgsmootherregistry.c) and the built-in smoothers' pieces (amgsmootherjacobi.c, amgsmootherchebyshev.c) */
PETSC_INTERN PetscErrorCode            GPUPCAMGSmootherFind(const char[], PCGPUAMGSmootherOps *, PetscBool *);
PETSC_INTERN PetscErrorCode            GPUPCAMGSmootherNames(PetscInt *, const char *const **);
PETSC_INTERN PetscErrorCode            GPUPCAMGSmootherRegisterBuiltin(void);
PETSC_INTERN PetscErrorCode            GPUPCAMGSmootherSetUpScaled(PCGPUAMGSmootherLevel *, Vec, PetscReal);
PETSC_INTERN PetscErrorCode            GPUPCAMGSmootherDestroyScaled(PCGPUAMGSmootherLevel *);
PETSC_INTERN PetscErrorCode            GPUPCAMGSmootherJacobiStep(PCGPUAMGSmootherLevel *, Vec, PetscBool, PetscBool);
PETSC_INTERN PetscErrorCode            GPUPCAMGSmootherCountBytes(PCGPUAMGSmootherLevel *, PetscReal);
PETSC_INTERN const GPUPCAMGKernels    *GPUPCAMGSmootherKernels(PCGPUAMGSmootherLevel *);
PETSC_INTERN const PCGPUAMGSmootherOps GPUPCAMGSmootherOpsJacobi, GPUPCAMGSmootherOpsL1Jacobi, GPUPCAMGSmootherOpsChebyshev, GPUPCAMGSmootherOpsPolynomial, GPUPCAMGSmootherOpsMCGS, GPUPCAMGSmootherOpsBJacobi;
PETSC_EXTERN PetscErrorCode            GPUPCAMGSmooth(GPUPCAMGDevice *, PetscInt, PetscBool, PetscInt, PetscBool);
PETSC_INTERN PetscErrorCode            GPUPCAMGCoarseSetUp(GPUPCAMGDevice *, Mat);
PETSC_INTERN PetscErrorCode            GPUPCAMGCoarseSolve(GPUPCAMGDevice *, PetscBool);
PETSC_INTERN PetscErrorCode            GPUPCAMGCoarseDestroy(GPUPCAMGDevice *);
PETSC_INTERN PetscErrorCode            GPUPCAMGCountProduct(GPUPCAMGDevice *, Mat, PetscBool);
#define GPUPCAMGCountBytes(D, b)                          \
  do {                                                    \
    if ((D)->counting) (D)->cyclebytes += (PetscReal)(b); \
  } while (0)

/* the PC's data (gpuamg.c, gpuamgoptions.c) */
typedef struct {
  GPUPCAMGSetupOptions setup;
  GPUPCAMGCycleOptions cyc;
  PetscReal           *coords; /* PCSetCoordinates (setup.coords points here) */
  Mat                  aij;    /* an AIJ copy of an operator that is not AIJ-based (BAIJ, SBAIJ, ...), or NULL */
  GPUPCAMGHierarchy    hier;
  PetscBool            built;
  GPUPCAMGDevice       dev;
  PetscInt             nsetups, nreuses;
  PetscLogDouble       t_hierarchy;  /* seconds of the last host setup (build or recompute) */
  PetscBool            smoother_set; /* the smoother was chosen (PCGPUAMGSetSmoother()); else it follows the type */
} PC_GPUAMG;

PETSC_INTERN PetscErrorCode PCSetFromOptions_GPUAMG(PC, PetscOptionItems *);
PETSC_INTERN PetscErrorCode PCGPUAMGComposeOptionFunctions_Private(PC, PetscBool);
PETSC_INTERN PetscErrorCode GPUPCAMGComposeDevOptionFunctions(PC, PetscBool);
PETSC_INTERN PetscErrorCode GPUPCAMGDevOptionsFromOptions(PC, PetscOptionItems *);
PETSC_INTERN PetscErrorCode GPUPCAMGReset(PC, PetscBool);
PETSC_INTERN PetscErrorCode PCCreate_GPUAMG(PC);

#endif

/*
   gpupc/tassl.h - host side of PC tasslilu (private to GPUPC, its tests and benchmarks).

   1. GPUPCILU: ILU(k) of a square CSR matrix on the host (our own layout: one CSR of L and U
      together, rows sorted, L unit lower triangular stored without its diagonal).
   2. GPUPCTri: a triangular system taken from a factor (L, U, or their transposes), as the
      rows each row needs (its parents) and where its values sit in the factor.
   3. GPUPCTasslSchedule: the TASSL analysis of a GPUPCTri (sub-graphs, sub-graph levels,
      time slots) and the level sets of the baseline.
   4. GPUPCTasslOp: a GPUPCTri with its schedule on the device (GPUPCTasslDev), ready for the
      kernels of gpupc/tasslkernels.h; its values can be refreshed from a new numeric factor.
*/
#ifndef GPUPC_TASSL_H
#define GPUPC_TASSL_H

#include <petscgpupc.h>
#include <gpupc/tasslkernels.h>

/* ---------------------------------------------------------------- ILU(k) */
/* the public enums of petscgpupc.h under the names the sources use: aliases, not separate types */
typedef PCTASSLILUShiftType GPUPCILUShift;
#define GPUPC_ILU_SHIFT_NONE              PC_TASSLILU_SHIFT_NONE
#define GPUPC_ILU_SHIFT_NONZERO           PC_TASSLILU_SHIFT_NONZERO
#define GPUPC_ILU_SHIFT_POSITIVE_DEFINITE PC_TASSLILU_SHIFT_POSITIVE_DEFINITE

typedef struct {
  PetscInt     n, levels;
  PetscInt    *ai, *aj, *adiag; /* factor pattern: row i is aj[ai[i] .. ai[i+1]), sorted; its diagonal at adiag[i] */
  PetscScalar *aa;              /* L multipliers left of the diagonal, U (with its diagonal) from it */
  PetscInt    *rperm, *cperm;   /* row i of the factor is row rperm[i] of A; column j is column cperm[j] (NULL: identity) */
  PetscInt    *cinv;            /* inverse of cperm (NULL: identity) */
  PetscInt    *amap;            /* nnz(A): position in aa of A's entry k (row rperm[i], its k-th entry), for refactorization */
  PetscInt     nnzA;
  /* numeric options and what the last factorization did */
  GPUPCILUShift shift;
  PetscReal     shiftamount; /* PETSC_DEFAULT: chosen (see GPUPCILUNumeric) */
  PetscReal     zeropivot;
  PetscReal     shiftused; /* positive_definite: the diagonal shift that succeeded; nonzero: pivots shifted */
  PetscInt      nshifted;
  PetscInt      rowoffset; /* added to row numbers in messages (the first global row of a rank's diagonal block) */
} GPUPCILU;

PETSC_EXTERN PetscErrorCode GPUPCILUSymbolic(PetscInt, const PetscInt *, const PetscInt *, const PetscInt *, const PetscInt *, PetscInt, GPUPCILU *);
PETSC_EXTERN PetscErrorCode GPUPCILUNumeric(GPUPCILU *, const PetscInt *, const PetscInt *, const PetscScalar *);
PETSC_EXTERN PetscErrorCode GPUPCILUDestroy(GPUPCILU *);

/* ---------------------------------------------------------------- triangular systems */
typedef enum {
  GPUPC_TRI_L,  /* L x = b, unit diagonal */
  GPUPC_TRI_U,  /* U x = b */
  GPUPC_TRI_UT, /* U^T x = b */
  GPUPC_TRI_LT  /* L^T x = b, unit diagonal */
} GPUPCTriKind;
PETSC_EXTERN const char *const GPUPCTriKinds[];

typedef struct {
  GPUPCTriKind kind;
  PetscInt     n;
  PetscInt    *ptr, *col; /* parents of row i: col[ptr[i] .. ptr[i+1]) (x_i needs them) */
  PetscInt    *fidx;      /* entry k's value is aa[fidx[k]] of the factor */
  PetscInt    *didx;      /* row i's diagonal is aa[didx[i]], or NULL: unit diagonal */
  PetscBool    forward;   /* rows are in topological order by ascending index (else descending) */
} GPUPCTri;

PETSC_EXTERN PetscErrorCode GPUPCTriFromILU(const GPUPCILU *, GPUPCTriKind, GPUPCTri *);
PETSC_EXTERN PetscErrorCode GPUPCTriDestroy(GPUPCTri *);

/* ---------------------------------------------------------------- TASSL analysis */
typedef struct {
  PetscInt  n, nmax;
  PetscInt  ncomp, nisolated, nsplit; /* weakly connected components, rows without edges, components split */
  PetscInt  nsub, nlev;
  PetscInt *levptr;  /* nlev + 1 */
  PetscInt *subptr;  /* nsub + 1 */
  PetscInt *order;   /* n: row at position k (permutation Q; sub-graph g holds positions subptr[g] .. subptr[g+1)) */
  PetscInt *slotptr; /* nsub + 1 */
  PetscInt *next;    /* nsub: external slots */
  PetscInt  nslots, nedges;
  PetscInt *edgeptr; /* nslots + 1 */
  PetscInt *etgt;    /* local target */
  PetscInt *esrc;    /* internal: local source; external: row of the source */
  PetscInt *eent;    /* entry of the GPUPCTri the edge comes from */
  PetscInt *depptr, *dep;
  PetscInt  critslots;          /* sum over levels of the most slots of a sub-graph of the level */
  PetscReal C;                  /* concurrency factor 1 - critslots / nedges (1 without edges) */
  PetscInt  ncoord, side, ncut; /* boxes of the large components: coordinates, largest side, boxes cut at nmax rows */
  /* level sets */
  PetscInt       nls;
  PetscInt      *lsptr, *lsorder;
  PetscLogDouble time; /* seconds of the analysis */
} GPUPCTasslSchedule;

/* the partition of large components into boxes (tasslpartition.c): at most this many coordinates; boxes of about
   this many rows, or larger ones while a sub-graph level still holds about GPUPC_TASSL_TARGET_WIDTH boxes (the H100's
   132 multiprocessors) */
#define GPUPC_TASSL_MAX_COORDS   4
#define GPUPC_TASSL_BOX_ROWS     256
#define GPUPC_TASSL_TARGET_WIDTH 132

PETSC_EXTERN PetscErrorCode GPUPCTasslAnalyze(const GPUPCTri *, PetscInt, GPUPCTasslSchedule *);
PETSC_EXTERN PetscErrorCode GPUPCTasslScheduleDestroy(GPUPCTasslSchedule *);

/* ---------------------------------------------------------------- a scheduled solve on the device */
typedef struct {
  GPUPCTri           tri;
  GPUPCTasslSchedule sched;
  GPUPCTasslDev      dev;
  PetscInt           hlevptr_n, hlsptr_n;
  PetscInt          *hlevptr, *hlsptr;
  int                epoch;
} GPUPCTasslOp;

/* the ways to run a solve (-pc_tasslilu_solve), and for tassl the launch (-pc_tasslilu_launch) */
typedef PCTASSLILUSolveType GPUPCTasslSolveType;
#define GPUPC_TASSL_SOLVE_TASSL    PC_TASSLILU_SOLVE_TASSL
#define GPUPC_TASSL_SOLVE_LEVELSET PC_TASSLILU_SOLVE_LEVELSET
#define GPUPC_TASSL_SOLVE_CUSPARSE PC_TASSLILU_SOLVE_CUSPARSE
typedef PCTASSLILULaunch GPUPCTasslLaunch;
#define GPUPC_TASSL_LAUNCH_AUTO  PC_TASSLILU_LAUNCH_AUTO
#define GPUPC_TASSL_LAUNCH_LEVEL PC_TASSLILU_LAUNCH_LEVEL
#define GPUPC_TASSL_LAUNCH_ONE   PC_TASSLILU_LAUNCH_ONE
/* the documented default rule of launch auto: one launch from this many sub-graph levels on */
#define GPUPC_TASSL_ONELAUNCH_LEVELS 4

/* bidx, xidx: where row i of the system reads b and writes x (NULL: i) */
PETSC_EXTERN PetscErrorCode GPUPCTasslOpCreate(const GPUPCILU *, GPUPCTriKind, PetscInt, const PetscInt *, const PetscInt *, GPUPCTasslOp *);
PETSC_EXTERN PetscErrorCode GPUPCTasslOpRefresh(GPUPCTasslOp *, const GPUPCILU *);
PETSC_EXTERN PetscErrorCode GPUPCTasslOpSolve(GPUPCTasslOp *, GPUPCTasslSolveType, GPUPCTasslLaunch, const PetscScalar *, PetscScalar *);
PETSC_EXTERN PetscErrorCode GPUPCTasslOpDestroy(GPUPCTasslOp *);
/* the device part alone, from a triangular system with values (for tests that schedule random factors) */
PETSC_EXTERN PetscErrorCode GPUPCTasslDevCreate(const GPUPCTri *, const GPUPCTasslSchedule *, const PetscScalar *, const PetscInt *, const PetscInt *, GPUPCTasslDev *, PetscInt **, PetscInt **);
PETSC_EXTERN PetscErrorCode GPUPCTasslDevSetValues(const GPUPCTri *, const GPUPCTasslSchedule *, const PetscScalar *, GPUPCTasslDev *);
PETSC_EXTERN PetscErrorCode GPUPCTasslDevDestroy(GPUPCTasslDev *, PetscInt **, PetscInt **);

/* ---------------------------------------------------------------- cuSPARSE SpSV baseline (CUDA builds only) */
typedef struct _n_GPUPCTasslSpSV *GPUPCTasslSpSV;
PETSC_EXTERN PetscErrorCode       GPUPCTasslSpSVCreate(const GPUPCILU *, PetscBool, GPUPCTasslSpSV *);
PETSC_EXTERN PetscErrorCode       GPUPCTasslSpSVRefresh(GPUPCTasslSpSV, const GPUPCILU *);
PETSC_EXTERN PetscErrorCode       GPUPCTasslSpSVApply(GPUPCTasslSpSV, const PetscScalar *, PetscScalar *);
PETSC_EXTERN PetscErrorCode       GPUPCTasslSpSVDestroy(GPUPCTasslSpSV *);

#endif

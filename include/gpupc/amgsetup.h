/*
   gpupc/amgsetup.h - the pieces of PC gpuamg's host setup (src/pc/impls/gpuamg/setup*.c), exported for
   tests/amg_setup.c; the PC itself only uses gpupc/amg.h.

   Every piece works on the rank-local part of a level matrix (GPUPCAMGLocal): the rows this rank owns, their
   couplings to owned columns (the diagonal block, local indices), and per row the couplings to other ranks' columns
   summed by sign (they are lumped into the diagonal by the interpolations, so row sums are kept) and their largest
   negative (and absolute) value (for the strength threshold); with nf > 1 functions (systems), only the couplings
   within a function count. On one rank the local part is the whole matrix.

   Coarsening across ranks (amgsetupghost.c, amgsetupcoarsenacross.c): the local part with ghosts (GPUPCAMGLocalGetGhost)
   numbers its points 0..nx-1: the owned rows first, then the ghosts of the off-diagonal block (in garray order),
   then the points that only the ghosts' rows reach; it holds the rows of the owned points and of the first ghosts
   (ne rows) with every coupling (nothing lumped), the global number of each point and a PetscSF whose leaves are the
   points n..nx-1, so states and numbers of ghosts come from their owners.
*/
#ifndef GPUPC_AMGSETUP_H
#define GPUPC_AMGSETUP_H

#include <gpupc/amg.h>
#include <gpupc/amgsetupkernels.h>
#include <gpupc/amgaggkernels.h>
#include <gpupc/amgcsr.h>    /* the CSR helpers: pair sort, transpose, SEQAIJ on arrays */
#include <gpupc/amgevents.h> /* the setup's -log_view events */
#include <petscsf.h>

typedef struct {
  PetscInt        n;         /* owned rows */
  PetscInt        rstart, N; /* first owned row (global), global rows */
  PetscInt        bs;        /* block size of the matrix */
  PetscInt        nf;        /* functions (classical systems AMG, unknown approach): couplings between different functions
                           are ignored by strength and interpolation (1: scalar) */
  const PetscInt *func;      /* function of each local row (not owned), or NULL: row r is function r % nf */
  PetscInt       *i, *j;     /* diagonal block, local column indices, diagonal included */
  PetscReal      *a;         /* its values */
  PetscReal      *diag;      /* a_ii (0 where the row has none) */
  PetscReal      *offneg;    /* sum of the negative couplings to other ranks */
  PetscReal      *offpos;    /* sum of the positive couplings to other ranks */
  PetscReal      *offmaxneg; /* max over other ranks' columns of -a_ij * sign(a_ii) (0 if none) */
  PetscReal      *offmaxabs; /* max over other ranks' columns of |a_ij| */
  PetscInt       *offcnt;    /* couplings to other ranks (nonzero values) */
  PetscInt        ne;        /* rows held: n (rank-local part), or n + the ghosts of the off-diagonal block */
  PetscInt        nx;        /* points (columns) of the held rows: n (rank-local part), or n + every ghost */
  PetscInt       *gidx;      /* global number of each of the nx points (NULL: the rank-local part) */
  PetscSF         sf;        /* roots: the owned points; leaves: the points n..nx-1 (contiguous); NULL: rank-local */
} GPUPCAMGLocal;

/* rows i and j (local) belong to the same function */
#define GPUPC_AMG_SAMEF(L, r, c) ((L)->nf == 1 || ((L)->func ? (L)->func[r] == (L)->func[c] : (r) % (L)->nf == (c) % (L)->nf))

/* strength graph: row i lists the points j (local) that strongly influence i; the transpose lists who depends on j */
typedef struct {
  PetscInt  n;       /* rows (points with a strength list) */
  PetscInt  nx;      /* columns: the points the lists reach (0: n) */
  PetscInt *i, *j;   /* S */
  PetscInt *ti, *tj; /* S^T */
  char     *ext;     /* per point: strongly coupled to another rank's points (NULL: none); such a point without
                         strong couplings on its own rank is a C point (a singleton aggregate), not a point left to
                         the smoother */
} GPUPCAMGStrength;

/* C/F states: GPUPC_AMG_F, GPUPC_AMG_U, GPUPC_AMG_C (gpupc/amgsetupkernels.h) */

/* interpolation (or tentative prolongator) on the local rows: n x nc, local coarse columns */
typedef struct {
  PetscInt   n, nc;
  PetscInt  *i, *j;
  PetscReal *a;
  PetscBool  global; /* j holds global coarse numbers (coarsening across ranks), not local ones */
} GPUPCAMGLocalP;

PETSC_EXTERN PetscErrorCode GPUPCAMGLocalGet(Mat, PetscInt, const PetscInt *, PetscInt, GPUPCAMGLocal *);
PETSC_EXTERN PetscErrorCode GPUPCAMGLocalFree(GPUPCAMGLocal *);
/* coarsening across ranks: the local part with ghost points and the ghosts' rows (collective) */
PETSC_EXTERN PetscErrorCode GPUPCAMGLocalGetGhost(Mat, PetscInt, GPUPCAMGLocal *);
/* C/F splitting across ranks (pmis or hmis) of the owned points of a local part with ghosts; cf has nx entries, those
   of the ghosts are the owners' on return (collective) */
PETSC_EXTERN PetscErrorCode GPUPCAMGCoarsenAcross(const GPUPCAMGLocal *, const GPUPCAMGStrength *, PCGPUAMGCoarsenType, PetscInt, PetscInt *);
/* interpolation across ranks: P's columns are global coarse numbers (owned C points numbered after the C points of
   the ranks before); collective */
PETSC_EXTERN PetscErrorCode GPUPCAMGInterpolateAcross(const GPUPCAMGLocal *, const GPUPCAMGStrength *, const PetscInt *, PCGPUAMGInterpType, PetscInt, PetscReal, PCGPUAMGTruncRescale, PetscInt, GPUPCAMGLocalP *);
PETSC_EXTERN PetscErrorCode GPUPCAMGStrengthClassical(const GPUPCAMGLocal *, PetscReal, PetscInt, GPUPCAMGStrength *);
PETSC_EXTERN PetscErrorCode GPUPCAMGStrengthTranspose(GPUPCAMGStrength *, PetscInt);
PETSC_EXTERN PetscErrorCode GPUPCAMGStrengthFree(GPUPCAMGStrength *);
/* cf[i] = GPUPC_AMG_C or GPUPC_AMG_F; rstart seeds the random measures (global numbers, same for any thread count) */
PETSC_EXTERN PetscErrorCode GPUPCAMGCoarsen(const GPUPCAMGStrength *, PCGPUAMGCoarsenType, PetscInt, PetscInt, PetscInt *);
/* the F marks closing a PMIS sweep: undecided points of the first n rows that depend on a C point become F; left:
   the points still undecided (GPUPCAMGCoarsen's pmis and GPUPCAMGCoarsenAcross share it) */
PETSC_EXTERN PetscErrorCode GPUPCAMGPMISMarkF(const GPUPCAMGStrength *, PetscInt, PetscInt, char *, PetscInt *, PetscInt *);
/* second stage of aggressive coarsening: the C points of cf coarsened again on the distance-2 strength graph */
PETSC_EXTERN PetscErrorCode GPUPCAMGCoarsenAggressive(const GPUPCAMGStrength *, PCGPUAMGCoarsenType, PetscInt, PetscInt, PetscInt *);
PETSC_EXTERN PetscErrorCode GPUPCAMGInterpolate(const GPUPCAMGLocal *, const GPUPCAMGStrength *, const PetscInt *, PCGPUAMGInterpType, PetscInt, PetscReal, PCGPUAMGTruncRescale, PetscInt, GPUPCAMGLocalP *);
PETSC_EXTERN PetscErrorCode GPUPCAMGLocalPTruncate(GPUPCAMGLocalP *, PetscInt, PetscReal, PCGPUAMGTruncRescale);
PETSC_EXTERN PetscErrorCode GPUPCAMGLocalPFree(GPUPCAMGLocalP *);
/* assembles the local P into an AIJ matrix on comm (rows: the local rows, columns: the local coarse points) */
PETSC_EXTERN PetscErrorCode GPUPCAMGLocalPToMat(MPI_Comm, const GPUPCAMGLocalP *, PetscInt, PetscInt, PetscInt, Mat *);
/* several ranks: P's coarse points given to fewer ranks when they would have fewer than limit rows a rank (collective) */
PETSC_EXTERN PetscErrorCode GPUPCAMGAgglomerate(PetscInt, Mat *, PetscMPIInt *);
/* the decision of GPUPCAMGAgglomerate from the counts (limit, coarse points in all, this rank's): moves, ranks holding */
PETSC_EXTERN PetscErrorCode GPUPCAMGAgglomerateMoves(MPI_Comm, PetscInt, PetscInt, PetscInt, PetscBool *, PetscMPIInt *);
/* P^T A P on one rank (SEQAIJ or derived), threaded over the coarse rows; the same values as MatPtAP */
PETSC_EXTERN PetscErrorCode GPUPCAMGGalerkinSeq(Mat, Mat, MatReuse, PetscInt, Mat *, Mat *);
/* P^T A P on several ranks (A MPIAIJ or derived, P MPIAIJ) by each rank's share on the active sparse kernel table,
   not MatPtAP (amgsetupgalerkinmpi.c); MAT_REUSE_MATRIX reruns the numeric parts on what it composed on C under this key */
PETSC_EXTERN PetscErrorCode GPUPCAMGGalerkinMPI(Mat, Mat, MatReuse, Mat *);
/* a device buffer of n items of the device setups (at least one item: the CUDA allocator gives NULL for none) */
#define GPUPCAMGDevAlloc(n, p) GPUPCMallocArray(PetscMax((n), 1), (p))

#define GPUPC_AMG_GALERKIN_MPI_KEY "GPUPCAMGGalerkinMPI"

/* aggregation: node graph (blocks of bs rows) with |A_IJ| >= eps sqrt(|A_II| |A_JJ|) (Frobenius norms of blocks) */
PETSC_EXTERN PetscErrorCode GPUPCAMGStrengthAgg(const GPUPCAMGLocal *, PetscInt, PetscReal, PetscInt, GPUPCAMGStrength *);
/* agg[node] = aggregate (0 .. *nagg-1), or -1 for a node without strong neighbours (left out of P) */
PETSC_EXTERN PetscErrorCode GPUPCAMGAggregate(const GPUPCAMGStrength *, PetscInt *, PetscInt *);
/* tentative prolongator: B (n x nv, row-major, local rows) -> P (orthonormal columns per aggregate), Bc (nagg*nv x nv) */
PETSC_EXTERN PetscErrorCode GPUPCAMGTentative(PetscInt, PetscInt, const PetscInt *, PetscInt, PetscInt, const PetscReal *, GPUPCAMGLocalP *, PetscReal *);
/* largest eigenvalue of D^-1 A estimated by power steps (collective) */
PETSC_EXTERN PetscErrorCode GPUPCAMGEstimateRho(Mat, PetscInt, PetscReal *);
/* the near-null space of A as nv row-major local vectors (constant per component, the attached one, or rigid-body
   modes from coordinates) */
PETSC_EXTERN PetscErrorCode GPUPCAMGNearNullSpace(Mat, const GPUPCAMGSetupOptions *, PetscInt *, PetscReal **);

/* the device setup's steps (amgsetupdevice.c), for tests/kernel_equiv_amgsetup.c: strength, PMIS, interpolation */
/* the device CSR of a level of a device-built hierarchy (NULL otherwise): A, P, R = P^T */
PETSC_EXTERN PetscErrorCode GPUPCAMGDevHierarchyGetLevel(const GPUPCAMGHierarchy *, PetscInt, const GPUPCDevCSR **, const GPUPCDevCSR **, const GPUPCDevCSR **);
PETSC_EXTERN PetscErrorCode GPUPCAMGDevHierarchyGetBlockSize(const GPUPCAMGHierarchy *, PetscInt, PetscInt *);
PETSC_INTERN PetscErrorCode GPUPCAMGDevDiagonal(const GPUPCAMGSetupKernels *, const GPUPCSparseKernels *, const GPUPCDevCSR *, PetscInt, PetscScalar **);
PETSC_EXTERN PetscErrorCode GPUPCAMGDevStrength(const GPUPCAMGSetupKernels *, const GPUPCSparseKernels *, const GPUPCDevCSR *, const PetscScalar *, PetscReal, GPUPCDevCSR *, GPUPCDevCSR *);
PETSC_EXTERN PetscErrorCode GPUPCAMGDevPMIS(const GPUPCAMGSetupKernels *, const GPUPCDevCSR *, const GPUPCDevCSR *, PetscInt, PetscInt *);
PETSC_EXTERN PetscErrorCode GPUPCAMGDevHMIS(const GPUPCAMGSetupKernels *, const GPUPCDevCSR *, const GPUPCDevCSR *, PetscInt, PetscInt, PetscInt *, PetscInt *);
PETSC_EXTERN PetscErrorCode GPUPCAMGDevInterp(const GPUPCAMGSetupKernels *, const GPUPCSparseKernels *, const GPUPCDevCSR *, const PetscScalar *, const GPUPCDevCSR *, const PetscInt *, const PetscInt *, PetscInt, PCGPUAMGInterpType, PetscInt, PetscReal, const GPUPCAMGInterpTuning *, GPUPCDevCSR *);

/* smoothed aggregation in the device setup (amgsetupdeviceagg.c): the symmetrised node graph, MIS(2) aggregates, the
   tentative prolongator with the coarse near-null space, the smoothing, the estimate of rho(D^-1 A), one level */
PETSC_EXTERN PetscErrorCode GPUPCAMGDevAggGraph(const GPUPCAMGAggKernels *, const GPUPCSparseKernels *, const GPUPCDevCSR *, PetscInt, PetscReal, GPUPCDevCSR *);
PETSC_EXTERN PetscErrorCode GPUPCAMGDevAggregate(const GPUPCAMGAggKernels *, const GPUPCSparseKernels *, const GPUPCDevCSR *, PetscInt, PetscInt *, PetscInt *, PetscInt *);
PETSC_EXTERN PetscErrorCode GPUPCAMGDevTentative(const GPUPCAMGAggKernels *, const GPUPCSparseKernels *, PetscInt, PetscInt, const PetscInt *, PetscInt, PetscInt, const PetscReal *, GPUPCDevCSR *, PetscReal *);
PETSC_EXTERN PetscErrorCode GPUPCAMGDevProlSmooth(const GPUPCAMGAggKernels *, const GPUPCDevCSR *, const PetscScalar *, const GPUPCDevCSR *, PetscReal, GPUPCDevCSR *);
PETSC_EXTERN PetscErrorCode GPUPCAMGDevEstimateRho(const GPUPCDevCSR *, PetscInt, PetscReal *);
PETSC_INTERN PetscErrorCode GPUPCAMGDevProlongatorAgg(const GPUPCAMGSetupKernels *, const GPUPCAMGAggKernels *, const GPUPCSparseKernels *, const GPUPCDevCSR *, PetscInt, const GPUPCAMGSetupOptions *, PetscInt, PetscInt, const PetscReal *, GPUPCDevCSR *, PetscReal **, PetscLogDouble *);

/* the aggregation prolongator of one level (amgsetupagg.c); B: the level's near-null space (nv vectors) on entry
   (level > 0), the coarse one on exit */
PETSC_INTERN PetscErrorCode GPUPCAMGProlongatorAgg(Mat, const GPUPCAMGSetupOptions *, PetscInt, PetscInt *, PetscReal **, Mat *, PetscLogDouble *);

#endif

/*
   petscgpupc.h - public interface of GPUPC, GPU matrix types and preconditioners for PETSc.

   An unchanged PETSc program uses the library through the options database:

     ./app -dll_append /path/to/libpetscgpupc.so -vec_type gpu -ksp_type cg -pc_type jacobi

   A program that links the library calls PetscGPUPCInitializePackage() after PetscInitialize().
*/
#ifndef PETSCGPUPC_H
#define PETSCGPUPC_H

#include <petscvec.h>

/* Vec types: device-resident vectors with a host mirror */
#define VECGPU    "gpu"
#define VECSEQGPU "seqgpu"
#define VECMPIGPU "mpigpu"

/*E
   PetscGPUPCBackend - where GPUPC kernels run

$  PETSC_GPUPC_BACKEND_HOST - plain C reference kernels on the host (what CI runs)
$  PETSC_GPUPC_BACKEND_CUDA - CUDA kernels on the rank's GPU

   Options Database Key:
.  -gpupc_backend <auto,cuda,host> - auto picks cuda when a usable device exists

   Level: beginner

.seealso: PetscGPUPCGetBackend()
E*/
typedef enum {
  PETSC_GPUPC_BACKEND_HOST,
  PETSC_GPUPC_BACKEND_CUDA
} PetscGPUPCBackend;
PETSC_EXTERN const char *const PetscGPUPCBackends[];

PETSC_EXTERN PetscErrorCode PetscGPUPCInitializePackage(void);
PETSC_EXTERN PetscErrorCode PetscGPUPCFinalizePackage(void);
PETSC_EXTERN PetscErrorCode PetscGPUPCGetBackend(PetscGPUPCBackend *);
PETSC_EXTERN PetscErrorCode PetscGPUPCDeviceMemoryInUse(size_t *);
PETSC_EXTERN PetscErrorCode PetscGPUPCDeviceMemoryPeak(size_t *);
PETSC_EXTERN PetscErrorCode PetscGPUPCDeviceMemoryResetPeak(void);
PETSC_EXTERN PetscErrorCode PetscGPUPCSetHaloPeer(PetscBool);
PETSC_EXTERN PetscErrorCode PetscGPUPCGetHaloPeer(PetscBool *, PetscBool *);

/* Device-array access for any Vec: zero-copy for gpu vectors, staged through a device buffer otherwise */
PETSC_EXTERN PetscErrorCode VecGPUGetDeviceArrayRead(Vec, const PetscScalar **);
PETSC_EXTERN PetscErrorCode VecGPURestoreDeviceArrayRead(Vec, const PetscScalar **);
PETSC_EXTERN PetscErrorCode VecGPUGetDeviceArrayWrite(Vec, PetscScalar **);
PETSC_EXTERN PetscErrorCode VecGPURestoreDeviceArrayWrite(Vec, PetscScalar **);
PETSC_EXTERN PetscErrorCode VecGPUGetDeviceArray(Vec, PetscScalar **);
PETSC_EXTERN PetscErrorCode VecGPURestoreDeviceArray(Vec, PetscScalar **);

PETSC_EXTERN PetscErrorCode VecCreateSeqGPU(MPI_Comm, PetscInt, Vec *);
PETSC_EXTERN PetscErrorCode VecCreateMPIGPU(MPI_Comm, PetscInt, PetscInt, Vec *);
PETSC_EXTERN PetscErrorCode VecGPUGetOffloadMask(Vec, PetscOffloadMask *);

/* ---- Mat types: segcsr (segmented CSR on the device) ---- */
#include <petscmat.h>
#define MATSEGCSR    "segcsr"
#define MATSEQSEGCSR "seqsegcsr"
#define MATMPISEGCSR "mpisegcsr"
/* how the product computes the short rows (see MATSEGCSR): a group of L lanes per row, or tiles of
   consecutive rows whose segments are reduced one group per segment; auto picks per block */
typedef enum {
  MAT_SEGCSR_SHORT_AUTO,
  MAT_SEGCSR_SHORT_GROUP,
  MAT_SEGCSR_SHORT_TILE
} MatSegCSRShortMode;
PETSC_EXTERN const char *const MatSegCSRShortModes[];
PETSC_EXTERN PetscErrorCode    MatSegCSRSetSegmentLength(Mat, PetscInt);
PETSC_EXTERN PetscErrorCode    MatSegCSRSetShortMode(Mat, MatSegCSRShortMode);
PETSC_EXTERN PetscErrorCode    MatSegCSRGetShortMode(Mat, MatSegCSRShortMode *, PetscInt *);
PETSC_EXTERN PetscErrorCode    MatSegCSRGetInfo(Mat, PetscInt *, PetscInt *, PetscInt *);

/* ---- Mat types: bcsr (block CSR, sorted and sliced, on the device) ---- */
#define MATBCSR    "bcsr"
#define MATSEQBCSR "seqbcsr"
#define MATMPIBCSR "mpibcsr"
/* which threads compute a slice of block rows (see MATBCSR): full, slices of 32/gcd(32,b) block rows whose b lanes
   per block row fill whole warps; warp, slices of floor(32/b) block rows, one warp each (32 mod b lanes idle) */
typedef enum {
  MAT_BCSR_MAPPING_FULL,
  MAT_BCSR_MAPPING_WARP
} MatBCSRMapping;
PETSC_EXTERN const char *const MatBCSRMappings[];
PETSC_EXTERN PetscErrorCode    MatBCSRSetBlockSize(Mat, PetscInt);
PETSC_EXTERN PetscErrorCode    MatBCSRSetMapping(Mat, MatBCSRMapping);
PETSC_EXTERN PetscErrorCode    MatBCSRSetSort(Mat, PetscBool);
PETSC_EXTERN PetscErrorCode    MatBCSRGetInfo(Mat, PetscInt *, PetscReal *, PetscReal *, PetscInt *, PetscInt *);
/* ---- Mat types: hec (hybrid ELL + CSR on the device) ---- */
#define MATHEC    "hec"
#define MATSEQHEC "seqhec"
#define MATMPIHEC "mpihec"
PETSC_EXTERN PetscErrorCode MatHECSetRatio(Mat, PetscReal);
PETSC_EXTERN PetscErrorCode MatHECGetRatio(Mat, PetscReal *);
PETSC_EXTERN PetscErrorCode MatHECSetEllWidth(Mat, PetscInt);
PETSC_EXTERN PetscErrorCode MatHECGetEllWidth(Mat, PetscInt *);
PETSC_EXTERN PetscErrorCode MatHECGetInfo(Mat, PetscInt *, PetscInt *, PetscInt *);

/* PC gpuamg: classical and smoothed-aggregation algebraic multigrid, setup on the host, cycles on the device */
#define PCGPUAMG "gpuamg"

/*E
   PCGPUAMGType - the kind of AMG hierarchy PC gpuamg builds

$  PC_GPUAMG_CLASSICAL - classical (Ruge-Stueben type) C/F coarsening and interpolation
$  PC_GPUAMG_AGG       - (smoothed) aggregation with a near-null space

   Options Database Key:
.  -pc_gpuamg_type <classical,agg> - the kind

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetType(), PCGPUAMGGetType()
E*/
typedef enum {
  PC_GPUAMG_CLASSICAL,
  PC_GPUAMG_AGG
} PCGPUAMGType;
PETSC_EXTERN const char *const PCGPUAMGTypes[];

/*E
   PCGPUAMGCoarsenType - the C/F splitting of classical PC gpuamg

$  PC_GPUAMG_COARSEN_RS   - two-pass Ruge-Stueben
$  PC_GPUAMG_COARSEN_CLJP - Cleary-Luby-Jones-Plassmann
$  PC_GPUAMG_COARSEN_PMIS - parallel modified independent set
$  PC_GPUAMG_COARSEN_HMIS - hybrid: Ruge-Stueben first pass, then PMIS

   Options Database Key:
.  -pc_gpuamg_coarsen <rs,cljp,pmis,hmis> - the coarsening

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetCoarsenType(), PCGPUAMGGetCoarsenType()
E*/
typedef enum {
  PC_GPUAMG_COARSEN_RS,
  PC_GPUAMG_COARSEN_CLJP,
  PC_GPUAMG_COARSEN_PMIS,
  PC_GPUAMG_COARSEN_HMIS
} PCGPUAMGCoarsenType;
PETSC_EXTERN const char *const PCGPUAMGCoarsenTypes[];

/*E
   PCGPUAMGInterpType - the interpolation of classical PC gpuamg

$  PC_GPUAMG_INTERP_DIRECT     - direct
$  PC_GPUAMG_INTERP_STANDARD   - standard
$  PC_GPUAMG_INTERP_EXTENDED_I - extended+i
$  PC_GPUAMG_INTERP_MULTIPASS  - multipass
$  PC_GPUAMG_INTERP_SIMPLE     - the average over strong C-neighbours

   Options Database Key:
.  -pc_gpuamg_interp <direct,standard,ext+i,multipass,simple> - the interpolation

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetInterpType(), PCGPUAMGGetInterpType()
E*/
typedef enum {
  PC_GPUAMG_INTERP_DIRECT,
  PC_GPUAMG_INTERP_STANDARD,
  PC_GPUAMG_INTERP_EXTENDED_I,
  PC_GPUAMG_INTERP_MULTIPASS,
  PC_GPUAMG_INTERP_SIMPLE
} PCGPUAMGInterpType;
PETSC_EXTERN const char *const PCGPUAMGInterpTypes[];

/*E
   PCGPUAMGTruncRescale - how classical PC gpuamg rescales an interpolation row after truncation (both keep the row sum)

$  PC_GPUAMG_TRUNC_RESCALE_SUM   - one factor per row, sum of all entries / sum of the kept ones (BoomerAMG's)
$  PC_GPUAMG_TRUNC_RESCALE_SIGNS - the positive and the negative entries each by their own factor (Stueben's)

   Options Database Key:
.  -pc_gpuamg_trunc_rescale <sum,signs> - the rescaling

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetTruncRescale(), PCGPUAMGSetTruncMax()
E*/
typedef enum {
  PC_GPUAMG_TRUNC_RESCALE_SUM,
  PC_GPUAMG_TRUNC_RESCALE_SIGNS
} PCGPUAMGTruncRescale;
PETSC_EXTERN const char *const PCGPUAMGTruncRescales[];

/*E
   PCGPUAMGSetupLocation - where PC gpuamg builds its hierarchy

$  PC_GPUAMG_SETUP_HOST   - the host setup (threaded C, any number of ranks, every method)
$  PC_GPUAMG_SETUP_DEVICE - the device setup's kernels (one rank; classical AMG with pmis or hmis coarsening and direct,
$                           standard or ext+i interpolation; anything else takes the host setup and -ksp_view says why)

   Options Database Key:
.  -pc_gpuamg_setup <host,device> - the location (default: device on the cuda backend, host on the host backend)

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetSetupLocation(), PCGPUAMGGetSetupLocation()
E*/
typedef enum {
  PC_GPUAMG_SETUP_HOST,
  PC_GPUAMG_SETUP_DEVICE
} PCGPUAMGSetupLocation;
PETSC_EXTERN const char *const PCGPUAMGSetupLocations[];

/*E
   PCGPUAMGAggPriority - the priorities of the MIS(2) rounds of PC gpuamg's device aggregation (developers)

$  PC_GPUAMG_AGG_PRIORITY_HASH  - a hash of the node's chunk of consecutive nodes, the smaller node inside a chunk (default)
$  PC_GPUAMG_AGG_PRIORITY_INDEX - the smaller node wins (the host setup's greedy aggregates; many more rounds)

   Options Database Key:
.  -pc_gpuamg_dev_agg_priority <hash,index> - the priorities

   Level: developer

.seealso: PCGPUAMG, PCGPUAMGSetAggPriority()
E*/
typedef enum {
  PC_GPUAMG_AGG_PRIORITY_HASH,
  PC_GPUAMG_AGG_PRIORITY_INDEX
} PCGPUAMGAggPriority;
PETSC_EXTERN const char *const PCGPUAMGAggPriorities[];

/* PC cmg: combinatorial multigrid for symmetric diagonally dominant matrices */
#include <petscpc.h>
#define PCCMG "cmg"

/*E
   PCCMGPrecision - precision of the stored CMG hierarchy and of the cycle vectors

$  PC_CMG_PRECISION_DOUBLE - double (the default)
$  PC_CMG_PRECISION_SINGLE - float level matrices and cycle vectors; the Krylov method stays in double (one MPI rank only)

   Options Database Key:
.  -pc_cmg_precision <double,single> - the precision

   Level: intermediate

.seealso: PCCMG, PCCMGSetPrecision(), PCCMGGetPrecision()
E*/
typedef enum {
  PC_CMG_PRECISION_DOUBLE,
  PC_CMG_PRECISION_SINGLE
} PCCMGPrecision;
PETSC_EXTERN const char *const PCCMGPrecisions[];

/*E
   PCCMGPositiveMode - what PC cmg does with positive off-diagonal entries

$  PC_CMG_POSITIVE_DOUBLECOVER - reduce the matrix through the double cover (2n unknowns; one MPI rank only), the default
$  PC_CMG_POSITIVE_ERROR       - refuse the matrix with an error naming the row

   Options Database Key:
.  -pc_cmg_positive_offdiag <doublecover,error> - the mode

   Level: intermediate

.seealso: PCCMG, PCCMGSetPositiveOffDiagonal(), PCCMGGetPositiveOffDiagonal()
E*/
typedef enum {
  PC_CMG_POSITIVE_DOUBLECOVER,
  PC_CMG_POSITIVE_ERROR
} PCCMGPositiveMode;
PETSC_EXTERN const char *const PCCMGPositiveModes[];

/*E
   PCCMGMatType - storage of the CMG level matrices on the device

$  PC_CMG_MAT_CSR    - CSR with fused residual+smoothing and residual+restriction kernels (the default)
$  PC_CMG_MAT_SEGCSR - the segcsr SpMV, then a separate update or cluster sum; double precision only
$  PC_CMG_MAT_HEC    - the same with the hec SpMV (hybrid ELL + CSR); double precision only
$  PC_CMG_MAT_BCSR   - the same with the bcsr SpMV (block size 1: CMG's matrices have no blocks); double precision only
$  PC_CMG_MAT_AUTO   - per level, a format of the shared device-Mat layer (gpupc/devmat.h): hec for regular rows
                       (longest <= 2 x mean), else segcsr; -ksp_view says which and why; double precision only

   Options Database Key:
.  -pc_cmg_mat_type <csr,segcsr,hec,bcsr,auto> - the storage

   Level: intermediate

.seealso: PCCMG, PCCMGSetMatType(), PCCMGGetMatType()
E*/
typedef enum {
  PC_CMG_MAT_CSR,
  PC_CMG_MAT_SEGCSR,
  PC_CMG_MAT_HEC,
  PC_CMG_MAT_BCSR,
  PC_CMG_MAT_AUTO
} PCCMGMatType;
PETSC_EXTERN const char *const PCCMGMatTypes[];

/*E
   PCCMGSetupLocation - where PC cmg builds its hierarchy (reduction, clustering, Galerkin sums)

$  PC_CMG_SETUP_DEVICE - the device kernels of the setup (gpupc/cmgsetupkernels.h); on the host backend they run
$                        through the host kernel table (the same hierarchy, bit for bit, slower there)
$  PC_CMG_SETUP_HOST   - the host setup with its OpenMP threads (-pc_cmg_setup_threads)

   Options Database Key:
.  -pc_cmg_setup <device,host> - default device on the cuda backend, host on the host backend

   Level: intermediate

.seealso: PCCMG, PCCMGSetSetupLocation(), PCCMGGetSetupLocation()
E*/
typedef enum {
  PC_CMG_SETUP_DEVICE,
  PC_CMG_SETUP_HOST
} PCCMGSetupLocation;
PETSC_EXTERN const char *const PCCMGSetupLocations[];

PETSC_EXTERN PetscErrorCode PCCMGGetNumberOfLevels(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCCMGGetLevel(PC, PetscInt, PetscInt *, PetscInt *, PetscInt *);
/* one setter and one getter per -pc_cmg_ option (src/pc/impls/cmg/cmgoptions.c) */
PETSC_EXTERN PetscErrorCode PCCMGSetCheckSymmetry(PC, PetscBool);
PETSC_EXTERN PetscErrorCode PCCMGGetCheckSymmetry(PC, PetscBool *);
PETSC_EXTERN PetscErrorCode PCCMGSetSymmetryTolerance(PC, PetscReal);
PETSC_EXTERN PetscErrorCode PCCMGGetSymmetryTolerance(PC, PetscReal *);
PETSC_EXTERN PetscErrorCode PCCMGSetDirichletRows(PC, PetscBool);
PETSC_EXTERN PetscErrorCode PCCMGGetDirichletRows(PC, PetscBool *);
PETSC_EXTERN PetscErrorCode PCCMGSetDominanceTolerance(PC, PetscReal);
PETSC_EXTERN PetscErrorCode PCCMGGetDominanceTolerance(PC, PetscReal *);
PETSC_EXTERN PetscErrorCode PCCMGSetPositiveOffDiagonal(PC, PCCMGPositiveMode);
PETSC_EXTERN PetscErrorCode PCCMGGetPositiveOffDiagonal(PC, PCCMGPositiveMode *);
PETSC_EXTERN PetscErrorCode PCCMGSetDirectSize(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCCMGGetDirectSize(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCCMGSetMPIGatherSize(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCCMGGetMPIGatherSize(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCCMGSetMaxLevels(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCCMGGetMaxLevels(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCCMGSetRepeat(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCCMGGetRepeat(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCCMGSetRepeatMax(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCCMGGetRepeatMax(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCCMGSetFuseNnz(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCCMGGetFuseNnz(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCCMGSetPackNnz(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCCMGGetPackNnz(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCCMGSetPrecision(PC, PCCMGPrecision);
PETSC_EXTERN PetscErrorCode PCCMGGetPrecision(PC, PCCMGPrecision *);
PETSC_EXTERN PetscErrorCode PCCMGSetUseGraph(PC, PetscBool);
PETSC_EXTERN PetscErrorCode PCCMGGetUseGraph(PC, PetscBool *);
PETSC_EXTERN PetscErrorCode PCCMGSetMatType(PC, PCCMGMatType);
PETSC_EXTERN PetscErrorCode PCCMGGetMatType(PC, PCCMGMatType *);
PETSC_EXTERN PetscErrorCode PCCMGSetMonitor(PC, PetscBool);
PETSC_EXTERN PetscErrorCode PCCMGGetMonitor(PC, PetscBool *);
PETSC_EXTERN PetscErrorCode PCCMGSetClusterOrder(PC, PetscBool);
PETSC_EXTERN PetscErrorCode PCCMGGetClusterOrder(PC, PetscBool *);
PETSC_EXTERN PetscErrorCode PCCMGSetSetupThreads(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCCMGGetSetupThreads(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCCMGSetSetupLocation(PC, PCCMGSetupLocation);
PETSC_EXTERN PetscErrorCode PCCMGGetSetupLocation(PC, PCCMGSetupLocation *);

/* ---- KSP gpucg: preconditioned CG with fused vector kernels and one host wait per iteration (src/ksp/impls/gpucg) ---- */
#include <petscksp.h>
#define KSPGPUCG "gpucg"

/*E
   KSPGPUCGType - the form of CG that KSP gpucg runs

$  KSP_GPUCG_CLASSIC - single-reduction CG (Chronopoulos-Gear): the update, the preconditioner, the product, then one fused reduction
$  KSP_GPUCG_PIPELINED - pipelined CG (Ghysels-Vanroose): the reduction is started before the preconditioner and the product and waited for after them

   Options Database Key:
.  -ksp_gpucg_type <classic,pipelined> - the form

   Level: intermediate

.seealso: KSPGPUCG, KSPGPUCGSetType()
E*/
typedef enum {
  KSP_GPUCG_CLASSIC,
  KSP_GPUCG_PIPELINED
} KSPGPUCGType;
PETSC_EXTERN const char *const KSPGPUCGTypes[];
PETSC_EXTERN PetscErrorCode    KSPGPUCGSetType(KSP, KSPGPUCGType);
PETSC_EXTERN PetscErrorCode    KSPGPUCGGetType(KSP, KSPGPUCGType *);
PETSC_EXTERN PetscErrorCode    KSPGPUCGGetStatistics(KSP, PetscBool *, PetscInt *, PetscInt64 *, PetscInt64 *);
/* PC tasslilu: ILU(k) with TASSL-scheduled triangular solves on the device (src/pc/impls/tasslilu) */
#define PCTASSLILU     "tasslilu"
#define MATSOLVERTASSL "tassl"

/*E
   PCTASSLILUShiftType - what PC tasslilu does with a zero (or, for positive_definite, non-positive) pivot

$  PC_TASSLILU_SHIFT_NONE              - an error naming the row (the default)
$  PC_TASSLILU_SHIFT_NONZERO           - the pivot is moved away from zero by the shift amount
$  PC_TASSLILU_SHIFT_POSITIVE_DEFINITE - the whole diagonal is shifted, the shift doubled until every pivot is positive

   Options Database Keys:
+  -pc_tasslilu_shift <none,nonzero,positive_definite> - the type
-  -pc_tasslilu_shift_amount <a> - the shift (default: see PCTASSLILU)

   Level: intermediate

.seealso: PCTASSLILU, PCTASSLILUSetShift(), PCTASSLILUGetShift()
E*/
typedef enum {
  PC_TASSLILU_SHIFT_NONE,
  PC_TASSLILU_SHIFT_NONZERO,
  PC_TASSLILU_SHIFT_POSITIVE_DEFINITE
} PCTASSLILUShiftType;
PETSC_EXTERN const char *const PCTASSLILUShiftTypes[];

/*E
   PCTASSLILUSolveType - how PC tasslilu runs its triangular solves

$  PC_TASSLILU_SOLVE_TASSL    - TASSL sub-graph kernels (the default)
$  PC_TASSLILU_SOLVE_LEVELSET - level-set kernels, one thread per row (baseline)
$  PC_TASSLILU_SOLVE_CUSPARSE - cuSPARSE SpSV (baseline; cuda backend only)

   Options Database Key:
.  -pc_tasslilu_solve <tassl,levelset,cusparse> - the type

   Level: intermediate

.seealso: PCTASSLILU, PCTASSLILUSetSolveType(), PCTASSLILUGetSolveType()
E*/
typedef enum {
  PC_TASSLILU_SOLVE_TASSL,
  PC_TASSLILU_SOLVE_LEVELSET,
  PC_TASSLILU_SOLVE_CUSPARSE
} PCTASSLILUSolveType;
PETSC_EXTERN const char *const PCTASSLILUSolveTypes[];

/*E
   PCTASSLILULaunch - how the TASSL solve launches its sub-graph kernels

$  PC_TASSLILU_LAUNCH_AUTO  - one launch from 4 sub-graph levels on, else one launch per level (the default)
$  PC_TASSLILU_LAUNCH_LEVEL - one launch per sub-graph level
$  PC_TASSLILU_LAUNCH_ONE   - one launch; sub-graphs wait on ready flags of the sub-graphs they need

   Options Database Key:
.  -pc_tasslilu_launch <auto,level,one> - the launch

   Level: advanced

.seealso: PCTASSLILU, PCTASSLILUSetLaunch(), PCTASSLILUGetLaunch()
E*/
typedef enum {
  PC_TASSLILU_LAUNCH_AUTO,
  PC_TASSLILU_LAUNCH_LEVEL,
  PC_TASSLILU_LAUNCH_ONE
} PCTASSLILULaunch;
PETSC_EXTERN const char *const PCTASSLILULaunches[];

PETSC_EXTERN PetscErrorCode PCTASSLILUSetLevels(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCTASSLILUGetLevels(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCTASSLILUSetOrdering(PC, MatOrderingType);
PETSC_EXTERN PetscErrorCode PCTASSLILUGetOrdering(PC, MatOrderingType *);
PETSC_EXTERN PetscErrorCode PCTASSLILUSetShift(PC, PCTASSLILUShiftType, PetscReal);
PETSC_EXTERN PetscErrorCode PCTASSLILUGetShift(PC, PCTASSLILUShiftType *, PetscReal *);
PETSC_EXTERN PetscErrorCode PCTASSLILUSetSubgraphSize(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCTASSLILUGetSubgraphSize(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCTASSLILUSetSolveType(PC, PCTASSLILUSolveType);
PETSC_EXTERN PetscErrorCode PCTASSLILUGetSolveType(PC, PCTASSLILUSolveType *);
PETSC_EXTERN PetscErrorCode PCTASSLILUSetLaunch(PC, PCTASSLILULaunch);
PETSC_EXTERN PetscErrorCode PCTASSLILUGetLaunch(PC, PCTASSLILULaunch *);
PETSC_EXTERN PetscErrorCode PCTASSLILUGetInfo(PC, PetscInt *, PetscInt *, PetscInt *, PetscInt *, PetscReal *);
/* PC gpubjacobi: block Jacobi with dense inverses of the diagonal blocks (1..32 rows), applied on the device */
#define PCGPUBJACOBI "gpubjacobi"
PETSC_EXTERN PetscErrorCode PCGPUBJacobiSetBlockSize(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCGPUBJacobiGetBlockSize(PC, PetscInt *);
/* PC gpuamg: the cycle (src/pc/impls/gpuamg) and the setters and getters of every -pc_gpuamg_ option */
/*E
   PCGPUAMGCycleType - the multigrid cycle of PC gpuamg

$  PC_GPUAMG_CYCLE_V - one coarse visit per level
$  PC_GPUAMG_CYCLE_W - two coarse visits per level (gamma = 2)
$  PC_GPUAMG_CYCLE_F - an F-cycle then a V-cycle on the next level (not symmetric: use a flexible or
                       nonsymmetric Krylov method)

   Options Database Key:
.  -pc_gpuamg_cycle <v,w,f> - the cycle

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetCycleType()
E*/
typedef enum {
  PC_GPUAMG_CYCLE_V,
  PC_GPUAMG_CYCLE_W,
  PC_GPUAMG_CYCLE_F
} PCGPUAMGCycleType;
PETSC_EXTERN const char *const PCGPUAMGCycleTypes[];

/*J
   PCGPUAMGSmootherType - the name of a smoother of PC gpuamg, from its registry (PCGPUAMGSmootherRegister())

$  PCGPUAMGSMOOTHERJACOBI     - damped Jacobi, x += omega_l D^-1 (b - A x), omega_l = w 4 / (3 lambda_l)
$  PCGPUAMGSMOOTHERL1JACOBI   - l1-Jacobi, D replaced by the l1 norms of the rows
$  PCGPUAMGSMOOTHERCHEBYSHEV  - Chebyshev polynomial in D^-1 A on [lambda_l/10, lambda_l]
$  PCGPUAMGSMOOTHERPOLYNOMIAL - truncated Neumann series in I - omega D^-1 A
$  PCGPUAMGSMOOTHERMCGS       - symmetric multicolour Gauss-Seidel (one rank, no transpose)
$  PCGPUAMGSMOOTHERBJACOBI    - damped point-block Jacobi over each level's block size, omega_l = w 4 / (3 lambda_l(D_B^-1 A))

   Options Database Key:
.  -pc_gpuamg_smoother <name> - the smoother (-help lists the registry)

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetSmoother(), PCGPUAMGSmootherRegister()
J*/
typedef const char *PCGPUAMGSmootherType;
#define PCGPUAMGSMOOTHERJACOBI     "jacobi"
#define PCGPUAMGSMOOTHERL1JACOBI   "l1jacobi"
#define PCGPUAMGSMOOTHERCHEBYSHEV  "chebyshev"
#define PCGPUAMGSMOOTHERPOLYNOMIAL "polynomial"
#define PCGPUAMGSMOOTHERMCGS       "mcgs"
#define PCGPUAMGSMOOTHERBJACOBI    "bjacobi"

/*S
   PCGPUAMGSmootherLevel - what a smoother of PC gpuamg sees of one level (all vectors are gpu Vecs of the level)

   Level: advanced

.seealso: PCGPUAMGSmootherOps, PCGPUAMGSmootherRegister()
S*/
typedef struct {
  Mat         A;            /* the level operator (a GPU Mat: reach it through MatMult / PCGPUAMGSmootherMult()) */
  PetscInt    level;        /* 0: the finest */
  Vec         b, x, r;      /* right-hand side, iterate, work vector (products, residuals) */
  Vec         dinv;         /* 1 / a_ii */
  Vec         dl1;          /* 1 / (|a_ii| + sum_{j != i} |a_ij|) (l1 scaling) */
  PetscReal   gersh;        /* Gershgorin bound max_i sum_j |a_ij| / |a_ii| of D^-1 A */
  PetscReal   ritz, lambda; /* needs_lambda: largest Lanczos Ritz value, lambda = min(1.1 ritz, gersh) */
  PetscReal   weight;       /* the factor w of -pc_gpuamg_jacobi_weight (default 1) */
  PetscInt    cheby_degree; /* -pc_gpuamg_chebyshev_degree */
  PetscInt    poly_degree;  /* -pc_gpuamg_polynomial_degree */
  PetscReal   omega;        /* the damping the smoother reports (view, tests); 0 when it has none */
  const char *prefix;       /* the PC's options prefix (NULL: none) */
  size_t      bytes;        /* device bytes the smoother holds on this level (the smoother adds to it) */
  void       *data;         /* the smoother's own data */
  void       *cycle;        /* PC gpuamg's (private) */
} PCGPUAMGSmootherLevel;

/*S
   PCGPUAMGSmootherOps - a smoother of PC gpuamg: what PCGPUAMGSmootherRegister() takes

   Level: advanced

.seealso: PCGPUAMGSmootherLevel, PCGPUAMGSmootherRegister()
S*/
typedef struct {
  PetscErrorCode (*setup)(PCGPUAMGSmootherLevel *);                                                       /* at each setup (values may have changed) */
  PetscErrorCode (*apply)(PCGPUAMGSmootherLevel *, PetscBool transpose, PetscInt sweeps, PetscBool zero); /* sweeps on A (A^T); zero: x starts at 0 and is not read */
  PetscErrorCode (*view)(PCGPUAMGSmootherLevel *, PetscViewer);                                           /* one line: its parameters (level 0's) */
  PetscErrorCode (*destroy)(PCGPUAMGSmootherLevel *);                                                     /* frees data */
  PetscInt  default_sweeps;                                                                               /* pre- and post-sweeps unless -pc_gpuamg_pre_sweeps / _post_sweeps say otherwise */
  PetscBool needs_lambda;                                                                                 /* lambda, ritz are computed before setup */
  PetscBool needs_graph;                                                                                  /* reads the host graph of A at setup: one rank only */
  PetscBool transpose;                                                                                    /* apply supports transpose (PCApplyTranspose) */
  PetscBool needs_host;                                                                                   /* reads the host matrix of A at setup (the device setup then keeps host levels) */
  PetscBool needs_host_blocks;                                                                            /* reads it only on levels of block size > 1 (host levels unless every level has block size 1) */
} PCGPUAMGSmootherOps;

PETSC_EXTERN PetscErrorCode PCGPUAMGSmootherRegister(const char[], const PCGPUAMGSmootherOps *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSmootherMult(PCGPUAMGSmootherLevel *, PetscBool, Vec, Vec);

PETSC_EXTERN PetscErrorCode PCGPUAMGSetType(PC, PCGPUAMGType);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetType(PC, PCGPUAMGType *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetCoarsenType(PC, PCGPUAMGCoarsenType);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetCoarsenType(PC, PCGPUAMGCoarsenType *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetInterpType(PC, PCGPUAMGInterpType);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetInterpType(PC, PCGPUAMGInterpType *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetStrongThreshold(PC, PetscReal);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetStrongThreshold(PC, PetscReal *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetAggThreshold(PC, PetscReal);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetAggThreshold(PC, PetscReal *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetAggressiveLevels(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetAggressiveLevels(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetCoarsenAcross(PC, PetscBool);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetCoarsenAcross(PC, PetscBool *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetTruncMax(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetTruncMax(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetTruncFactor(PC, PetscReal);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetTruncFactor(PC, PetscReal *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetInterpTuning(PC, PetscInt, PetscInt, PetscInt, PetscInt);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetInterpTuning(PC, PetscInt *, PetscInt *, PetscInt *, PetscInt *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetAggPriority(PC, PCGPUAMGAggPriority);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetAggPriority(PC, PCGPUAMGAggPriority *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetMCGSTuning(PC, PetscInt, PetscInt);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetMCGSTuning(PC, PetscInt *, PetscInt *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetHMISSubdomain(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetHMISSubdomain(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetTruncRescale(PC, PCGPUAMGTruncRescale);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetTruncRescale(PC, PCGPUAMGTruncRescale *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetAggSmooths(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetAggSmooths(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetMaxLevels(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetMaxLevels(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetMaxCoarse(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetMaxCoarse(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetCoarseEqLimit(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetCoarseEqLimit(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetSetupThreads(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetSetupThreads(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetCycleType(PC, PCGPUAMGCycleType);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetCycleType(PC, PCGPUAMGCycleType *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetSmoother(PC, PCGPUAMGSmootherType);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetSmoother(PC, PCGPUAMGSmootherType *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetSweeps(PC, PetscInt, PetscInt);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetSweeps(PC, PetscInt *, PetscInt *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetJacobiWeight(PC, PetscReal);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetJacobiWeight(PC, PetscReal *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetChebyshevDegree(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetChebyshevDegree(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetPolynomialDegree(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetPolynomialDegree(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetMatType(PC, MatType);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetMatType(PC, MatType *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetUseGraph(PC, PetscBool);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetUseGraph(PC, PetscBool *);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetNumberOfLevels(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetSetupLocation(PC, PCGPUAMGSetupLocation);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetSetupLocation(PC, PCGPUAMGSetupLocation *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetKeepHostLevels(PC, PetscBool);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetKeepHostLevels(PC, PetscBool *);
PETSC_EXTERN PetscErrorCode PCGPUAMGSetMPIGalerkinPtAP(PC, PetscBool);
PETSC_EXTERN PetscErrorCode PCGPUAMGGetMPIGalerkinPtAP(PC, PetscBool *);

#endif

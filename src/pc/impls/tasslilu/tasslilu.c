/*
   PC tasslilu: ILU(k) factored on the host, triangular solves on the device scheduled by TASSL (time-slot
   sub-graph level scheduling). On more than one rank each rank factors its diagonal block (block Jacobi).
*/
#include "tassliluimpl.h"

const char *const PCTASSLILUShiftTypes[] = {"none", "nonzero", "positive_definite", "PCTASSLILUShiftType", "PC_TASSLILU_SHIFT_", NULL};
const char *const PCTASSLILUSolveTypes[] = {"tassl", "levelset", "cusparse", "PCTASSLILUSolveType", "PC_TASSLILU_SOLVE_", NULL};
const char *const PCTASSLILULaunches[]   = {"auto", "level", "one", "PCTASSLILULaunch", "PC_TASSLILU_LAUNCH_", NULL};

/* the default of -pc_tasslilu_subgraph_size: the rows whose x (8 bytes each) fill 48 KB, the shared memory every
   CUDA device gives a thread block without opting in */
#define TASSL_DEFAULT_SUBGRAPH (48 * 1024 / 8)

typedef struct {
  PetscInt         levels;
  char             ordering[64];
  GPUPCILUShift    shift;
  PetscReal        shiftamount;
  GPUPCTasslFactor f;
  PetscBool        rebuild;   /* an option changed: next setup starts from the symbolic factorization */
  PetscBool        blocks;    /* more than one rank: this rank's diagonal block */
  PetscInt         patternid; /* nonzero state of the factored matrix */
} PC_TASSLILU;

PetscErrorCode PCTASSLILURegisterEvents(void)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventRegister("TASSLSymbolic", PC_CLASSID, &PC_TASSLILU_Symbolic));
  PetscCall(PetscLogEventRegister("TASSLNumeric", PC_CLASSID, &PC_TASSLILU_Numeric));
  PetscCall(PetscLogEventRegister("TASSLAnalysis", PC_CLASSID, &PC_TASSLILU_Analysis));
  PetscCall(PetscLogEventRegister("TASSLSolve", PC_CLASSID, &PC_TASSLILU_Solve));
  PetscFunctionReturn(0);
}

/* the matrix this rank factors */
static PetscErrorCode LocalMatrix(PC pc, Mat *Ad)
{
  PC_TASSLILU *p = (PC_TASSLILU *)pc->data;
  PetscMPIInt  size;
  PetscInt     M, N;

  PetscFunctionBegin;
  PetscCall(MatGetSize(pc->pmat, &M, &N));
  PetscCheck(M == N, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONG, "PC tasslilu needs a square matrix; this one is %" PetscInt_FMT " x %" PetscInt_FMT, M, N);
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc->pmat), &size));
  p->blocks = (PetscBool)(size > 1);
  if (size > 1) {
    PetscInt m, n;
    PetscCall(MatGetLocalSize(pc->pmat, &m, &n));
    PetscCheck(m == n, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "PC tasslilu factors each rank's diagonal block, which must be square: here %" PetscInt_FMT " local rows and %" PetscInt_FMT " local columns; give the Vec and Mat the same layout", m, n);
    PetscCall(MatGetDiagonalBlock(pc->pmat, Ad));
  } else *Ad = pc->pmat;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCSetUp_TASSLILU(PC pc)
{
  PC_TASSLILU     *p = (PC_TASSLILU *)pc->data;
  Mat              Ad;
  PetscObjectState state;
  PetscInt         n;

  PetscFunctionBegin;
  PetscCheck(p->levels >= 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_tasslilu_levels must be >= 0, not %" PetscInt_FMT, p->levels);
  PetscCheck(p->f.nmax >= 1 && p->f.nmax <= TASSL_DEFAULT_SUBGRAPH, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_tasslilu_subgraph_size must be 1 .. %d (the rows whose x fit 48 KB of shared memory), not %" PetscInt_FMT, TASSL_DEFAULT_SUBGRAPH, p->f.nmax);
  PetscCheck(p->shiftamount == (PetscReal)PETSC_DEFAULT || p->shiftamount > 0.0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_tasslilu_shift_amount must be > 0, not %g", (double)p->shiftamount);
  PetscCall(LocalMatrix(pc, &Ad));
  PetscCall(MatGetLocalSize(Ad, &n, NULL));
  PetscCall(MatGetNonzeroState(Ad, &state));
  if (!pc->setupcalled || pc->flag != SAME_NONZERO_PATTERN || p->rebuild || !p->f.F.ai || p->f.F.n != n || (PetscInt)state != p->patternid) {
    IS        row = NULL, col = NULL;
    PetscBool natural;
    PetscCall(PetscStrcmp(p->ordering, MATORDERINGNATURAL, &natural));
    if (!natural) PetscCall(MatGetOrdering(Ad, p->ordering, &row, &col));
    PetscCall(GPUPCTasslFactorSymbolic(&p->f, Ad, row, col, p->levels, p->shift, p->shiftamount, -1.0));
    PetscCall(MatGetOwnershipRange(pc->pmat, &p->f.F.rowoffset, NULL)); /* messages name global rows */
    PetscCall(ISDestroy(&row));
    PetscCall(ISDestroy(&col));
    PetscCall(GPUPCTasslFactorNumeric(&p->f, Ad));
    PetscCall(GPUPCTasslFactorSetUpSolves(&p->f));
    p->rebuild   = PETSC_FALSE;
    p->patternid = (PetscInt)state;
  } else {
    p->f.F.shift       = p->shift;
    p->f.F.shiftamount = p->shiftamount;
    PetscCall(GPUPCTasslFactorNumeric(&p->f, Ad)); /* same pattern: symbolic factor and schedules kept */
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode PCApply_TASSLILU(PC pc, Vec x, Vec y)
{
  PC_TASSLILU *p = (PC_TASSLILU *)pc->data;

  PetscFunctionBegin;
  PetscCall(GPUPCTasslFactorApply(&p->f, PETSC_FALSE, x, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCApplyTranspose_TASSLILU(PC pc, Vec x, Vec y)
{
  PC_TASSLILU *p = (PC_TASSLILU *)pc->data;

  PetscFunctionBegin;
  PetscCall(GPUPCTasslFactorApply(&p->f, PETSC_TRUE, x, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCView_TASSLILU(PC pc, PetscViewer v)
{
  PC_TASSLILU *p = (PC_TASSLILU *)pc->data;
  PetscBool    ascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)v, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(0);
  PetscCall(PetscViewerASCIIPrintf(v, "ILU(%" PetscInt_FMT ") with TASSL-scheduled triangular solves; ordering %s, shift %s", p->levels, p->ordering, PCTASSLILUShiftTypes[p->shift]));
  if (p->shift != GPUPC_ILU_SHIFT_NONE && p->shiftamount != (PetscReal)PETSC_DEFAULT) PetscCall(PetscViewerASCIIPrintf(v, " (amount %g)", (double)p->shiftamount));
  PetscCall(PetscViewerASCIIPrintf(v, "; launch %s\n", PCTASSLILULaunches[p->f.launch]));
  if (p->blocks) PetscCall(PetscViewerASCIIPrintf(v, "block Jacobi: each rank factors its diagonal block; rank 0's block:\n"));
  PetscCall(PetscViewerASCIIPushTab(v));
  {
    PetscMPIInt rank;
    PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)pc), &rank));
    if (rank == 0) {
      PetscViewer sv;
      PetscCall(PetscViewerGetSubViewer(v, PETSC_COMM_SELF, &sv));
      PetscCall(GPUPCTasslFactorView(&p->f, sv));
      PetscCall(PetscViewerRestoreSubViewer(v, PETSC_COMM_SELF, &sv));
    } else {
      PetscViewer sv;
      PetscCall(PetscViewerGetSubViewer(v, PETSC_COMM_SELF, &sv));
      PetscCall(PetscViewerRestoreSubViewer(v, PETSC_COMM_SELF, &sv));
    }
  }
  PetscCall(PetscViewerASCIIPopTab(v));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCSetFromOptions_TASSLILU(PC pc, PetscOptionItems *PetscOptionsObject)
{
  PC_TASSLILU        *p      = (PC_TASSLILU *)pc->data;
  PetscInt            levels = p->levels, nmax = p->f.nmax;
  char                ordering[64];
  PCTASSLILUShiftType shift  = p->shift;
  PetscReal           amount = p->shiftamount;
  PCTASSLILUSolveType solve  = p->f.solve;
  PCTASSLILULaunch    launch = p->f.launch;
  PetscBool           flg[7];

  PetscFunctionBegin;
  /* read everything first, then call the setters (which check the values) once the options block is closed */
  PetscOptionsHeadBegin(PetscOptionsObject, "ILU with TASSL-scheduled triangular solves (tasslilu) options");
  PetscCall(PetscOptionsInt("-pc_tasslilu_levels", "Levels of fill of ILU(k)", "PCTASSLILUSetLevels", levels, &levels, &flg[0]));
  PetscCall(PetscOptionsFList("-pc_tasslilu_ordering", "Fill-reducing ordering of the factorization (a MatOrderingType)", "PCTASSLILUSetOrdering", MatOrderingList, p->ordering, ordering, sizeof(ordering), &flg[1]));
  PetscCall(PetscOptionsEnum("-pc_tasslilu_shift", "What to do with a zero pivot: none (error naming the row), nonzero, positive_definite", "PCTASSLILUSetShift", PCTASSLILUShiftTypes, (PetscEnum)shift, (PetscEnum *)&shift, &flg[2]));
  PetscCall(PetscOptionsReal("-pc_tasslilu_shift_amount", "Shift amount (default: 1e-8 x row sum for nonzero, 1e-6 x largest row sum, doubled, for positive_definite)", "PCTASSLILUSetShift", amount, &amount, &flg[3]));
  PetscCall(PetscOptionsInt("-pc_tasslilu_subgraph_size", "Most rows of a TASSL sub-graph (its x lives in one thread block's shared memory)", "PCTASSLILUSetSubgraphSize", nmax, &nmax, &flg[4]));
  PetscCall(PetscOptionsEnum("-pc_tasslilu_solve", "Triangular solve kernels: tassl, levelset (baseline), cusparse (SpSV baseline, cuda backend)", "PCTASSLILUSetSolveType", PCTASSLILUSolveTypes, (PetscEnum)solve, (PetscEnum *)&solve, &flg[5]));
  PetscCall(PetscOptionsEnum("-pc_tasslilu_launch", "TASSL launches: auto (one launch from 4 sub-graph levels on), level (one per sub-graph level), one (ready flags)", "PCTASSLILUSetLaunch", PCTASSLILULaunches, (PetscEnum)launch, (PetscEnum *)&launch, &flg[6]));
  PetscOptionsHeadEnd();
  /* values are checked at PCSetUp (an error inside PCSetFromOptions would leave PETSc's options block open) */
  if (flg[0]) {
    p->rebuild = (PetscBool)(p->rebuild || levels != p->levels);
    p->levels  = levels;
  }
  if (flg[1]) PetscCall(PCTASSLILUSetOrdering(pc, ordering));
  if (flg[2] || flg[3]) {
    p->shift       = shift;
    p->shiftamount = amount;
  }
  if (flg[4]) {
    p->rebuild = (PetscBool)(p->rebuild || nmax != p->f.nmax);
    p->f.nmax  = nmax;
  }
  if (flg[5]) PetscCall(PCTASSLILUSetSolveType(pc, solve));
  if (flg[6]) PetscCall(PCTASSLILUSetLaunch(pc, launch));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCReset_TASSLILU(PC pc)
{
  PC_TASSLILU *p = (PC_TASSLILU *)pc->data;

  PetscFunctionBegin;
  PetscCall(GPUPCTasslFactorDestroy(&p->f));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- setters and getters */
static PetscErrorCode SetLevels_TASSLILU(PC pc, PetscInt k)
{
  PC_TASSLILU *p = (PC_TASSLILU *)pc->data;

  PetscFunctionBegin;
  PetscCheck(k >= 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_tasslilu_levels must be >= 0, not %" PetscInt_FMT, k);
  p->rebuild = (PetscBool)(p->rebuild || k != p->levels);
  p->levels  = k;
  PetscFunctionReturn(0);
}
static PetscErrorCode GetLevels_TASSLILU(PC pc, PetscInt *k)
{
  PetscFunctionBegin;
  *k = ((PC_TASSLILU *)pc->data)->levels;
  PetscFunctionReturn(0);
}
static PetscErrorCode SetOrdering_TASSLILU(PC pc, MatOrderingType o)
{
  PC_TASSLILU *p = (PC_TASSLILU *)pc->data;
  PetscBool    same;

  PetscFunctionBegin;
  PetscCall(PetscStrcmp(o, p->ordering, &same));
  p->rebuild = (PetscBool)(p->rebuild || !same);
  PetscCall(PetscStrncpy(p->ordering, o, sizeof(p->ordering)));
  PetscFunctionReturn(0);
}
static PetscErrorCode GetOrdering_TASSLILU(PC pc, MatOrderingType *o)
{
  PetscFunctionBegin;
  *o = ((PC_TASSLILU *)pc->data)->ordering;
  PetscFunctionReturn(0);
}
static PetscErrorCode SetShift_TASSLILU(PC pc, PCTASSLILUShiftType t, PetscReal a)
{
  PC_TASSLILU *p = (PC_TASSLILU *)pc->data;

  PetscFunctionBegin;
  PetscCheck(a == (PetscReal)PETSC_DEFAULT || a > 0.0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_tasslilu_shift_amount must be > 0 (or PETSC_DEFAULT), not %g", (double)a);
  p->shift       = t;
  p->shiftamount = a;
  PetscFunctionReturn(0);
}
static PetscErrorCode GetShift_TASSLILU(PC pc, PCTASSLILUShiftType *t, PetscReal *a)
{
  PC_TASSLILU *p = (PC_TASSLILU *)pc->data;

  PetscFunctionBegin;
  if (t) *t = p->shift;
  if (a) *a = p->shiftamount;
  PetscFunctionReturn(0);
}
static PetscErrorCode SetSubgraphSize_TASSLILU(PC pc, PetscInt nmax)
{
  PC_TASSLILU *p = (PC_TASSLILU *)pc->data;

  PetscFunctionBegin;
  if (nmax == PETSC_DEFAULT || nmax == PETSC_DECIDE) nmax = TASSL_DEFAULT_SUBGRAPH;
  PetscCheck(nmax >= 1 && nmax <= TASSL_DEFAULT_SUBGRAPH, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_tasslilu_subgraph_size must be 1 .. %d (the rows whose x fit 48 KB of shared memory), not %" PetscInt_FMT, TASSL_DEFAULT_SUBGRAPH, nmax);
  p->rebuild = (PetscBool)(p->rebuild || nmax != p->f.nmax);
  p->f.nmax  = nmax;
  PetscFunctionReturn(0);
}
static PetscErrorCode GetSubgraphSize_TASSLILU(PC pc, PetscInt *nmax)
{
  PetscFunctionBegin;
  *nmax = ((PC_TASSLILU *)pc->data)->f.nmax;
  PetscFunctionReturn(0);
}
static PetscErrorCode SetSolveType_TASSLILU(PC pc, PCTASSLILUSolveType t)
{
  PC_TASSLILU *p = (PC_TASSLILU *)pc->data;

  PetscFunctionBegin;
  p->rebuild = (PetscBool)(p->rebuild || t != p->f.solve);
  p->f.solve = t;
  PetscFunctionReturn(0);
}
static PetscErrorCode GetSolveType_TASSLILU(PC pc, PCTASSLILUSolveType *t)
{
  PetscFunctionBegin;
  *t = ((PC_TASSLILU *)pc->data)->f.solve;
  PetscFunctionReturn(0);
}
static PetscErrorCode SetLaunch_TASSLILU(PC pc, PCTASSLILULaunch l)
{
  PetscFunctionBegin;
  ((PC_TASSLILU *)pc->data)->f.launch = l;
  PetscFunctionReturn(0);
}
static PetscErrorCode GetLaunch_TASSLILU(PC pc, PCTASSLILULaunch *l)
{
  PetscFunctionBegin;
  *l = ((PC_TASSLILU *)pc->data)->f.launch;
  PetscFunctionReturn(0);
}
static PetscErrorCode GetInfo_TASSLILU(PC pc, PetscInt *nsub, PetscInt *nlev, PetscInt *nslots, PetscInt *nedges, PetscReal *C)
{
  PC_TASSLILU *p = (PC_TASSLILU *)pc->data;

  PetscFunctionBegin;
  PetscCheck(p->f.work, PetscObjectComm((PetscObject)pc), PETSC_ERR_ORDER, "PCTASSLILUGetInfo() needs PCSetUp() first");
  if (nsub) *nsub = p->f.L.sched.nsub + p->f.U.sched.nsub;
  if (nlev) *nlev = p->f.L.sched.nlev + p->f.U.sched.nlev;
  if (nslots) *nslots = p->f.L.sched.nslots + p->f.U.sched.nslots;
  if (nedges) *nedges = p->f.L.sched.nedges + p->f.U.sched.nedges;
  if (C) {
    PetscInt e = p->f.L.sched.nedges + p->f.U.sched.nedges;
    *C         = e ? 1.0 - (PetscReal)(p->f.L.sched.critslots + p->f.U.sched.critslots) / (PetscReal)e : 1.0;
  }
  PetscFunctionReturn(0);
}

typedef struct {
  const char *name;
  void (*f)(void);
} ComposedFn;

static PetscErrorCode Compose(PC pc, PetscBool attach)
{
  const ComposedFn fns[] = {
    {"PCTASSLILUSetLevels_C", (void (*)(void))SetLevels_TASSLILU},
    {"PCTASSLILUGetLevels_C", (void (*)(void))GetLevels_TASSLILU},
    {"PCTASSLILUSetOrdering_C", (void (*)(void))SetOrdering_TASSLILU},
    {"PCTASSLILUGetOrdering_C", (void (*)(void))GetOrdering_TASSLILU},
    {"PCTASSLILUSetShift_C", (void (*)(void))SetShift_TASSLILU},
    {"PCTASSLILUGetShift_C", (void (*)(void))GetShift_TASSLILU},
    {"PCTASSLILUSetSubgraphSize_C", (void (*)(void))SetSubgraphSize_TASSLILU},
    {"PCTASSLILUGetSubgraphSize_C", (void (*)(void))GetSubgraphSize_TASSLILU},
    {"PCTASSLILUSetSolveType_C", (void (*)(void))SetSolveType_TASSLILU},
    {"PCTASSLILUGetSolveType_C", (void (*)(void))GetSolveType_TASSLILU},
    {"PCTASSLILUSetLaunch_C", (void (*)(void))SetLaunch_TASSLILU},
    {"PCTASSLILUGetLaunch_C", (void (*)(void))GetLaunch_TASSLILU},
    {"PCTASSLILUGetInfo_C", (void (*)(void))GetInfo_TASSLILU},
  };

  PetscFunctionBegin;
  for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) PetscCall(PetscObjectComposeFunction_Private((PetscObject)pc, fns[i].name, attach ? fns[i].f : NULL));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCDestroy_TASSLILU(PC pc)
{
  PetscFunctionBegin;
  PetscCall(PCReset_TASSLILU(pc));
  PetscCall(Compose(pc, PETSC_FALSE));
  PetscCall(PetscFree(pc->data));
  PetscFunctionReturn(0);
}

/*MC
   PCTASSLILU - ILU(k) with TASSL-scheduled triangular solves on the GPU ("tasslilu")

   The factorization runs on the host (our own CSR code); the triangular solves run on the device. The TASSL
   analysis (time-slot sub-graph level scheduling) cuts each triangular factor into sub-graphs of at most
   -pc_tasslilu_subgraph_size rows (whose x fits one thread block's shared memory), groups them in sub-graph
   levels (levels of the DAG of sub-graphs) and schedules each sub-graph's edges into time slots in which no two
   edges enter the same row. A thread block solves a sub-graph with one edge per thread per slot and a block
   barrier between slots. U is analysed on its reversed graph; PCApplyTranspose() solves with U^T then L^T (BiCG),
   analysed at its first use.

   Options Database Keys:
+  -pc_tasslilu_levels <0> - levels of fill k
.  -pc_tasslilu_ordering <natural> - ordering through MatGetOrdering() (natural, rcm, nd, 1wd, qmd, ...)
.  -pc_tasslilu_shift <none,nonzero,positive_definite> - zero pivots: error naming the row (none), move the pivot
      away from zero by the amount (nonzero), or shift the whole diagonal, doubling, until every pivot is positive
.  -pc_tasslilu_shift_amount <a> - the shift (default 1e-8 x the row's absolute sum for nonzero; 1e-6 x the largest
      absolute row sum, then doubled, for positive_definite)
.  -pc_tasslilu_subgraph_size <6144> - most rows of a sub-graph (1 .. 6144: 48 KB of doubles)
.  -pc_tasslilu_solve <tassl,levelset,cusparse> - TASSL kernels; a level-set kernel (one launch per level, one
      thread per row); cuSPARSE SpSV (cuda backend only; the host backend refuses it)
-  -pc_tasslilu_launch <auto,level,one> - TASSL with one launch per sub-graph level, or one launch in which a
      block takes the next sub-graph from a ticket counter and waits on ready flags of the sub-graphs it reads

   Notes:
   Choice of launch (auto): one launch when the factor has at least 4 sub-graph levels, else one launch per level.
   The rule: a launch per level costs a kernel boundary (a few microseconds) per level, the one-launch solve costs
   a flag wait per dependency and idles blocks that wait; with 1-3 levels the boundaries are cheap. The threshold
   is GPUPC_TASSL_ONELAUNCH_LEVELS (gpupc/tassl.h); measure with bench/trisolve (it times both launches per factor).

   A matrix with the same nonzero pattern (SAME_NONZERO_PATTERN, or the same nonzero state) is refactored
   numerically only: the symbolic factor and every TASSL schedule are kept and only their values are refreshed.

   On more than one MPI rank each rank factors its diagonal block (block Jacobi without overlap, said in the
   view); -pc_type bjacobi -sub_pc_type tasslilu is the same preconditioner through PCBJACOBI. The same
   factorization is offered as the MatSolverType "tassl": -pc_type ilu -pc_factor_mat_solver_type tassl.

   Level: intermediate

.seealso: PCILU, PCTASSLILUSetLevels(), PCTASSLILUSetOrdering(), PCTASSLILUSetShift(), PCTASSLILUSetSubgraphSize(),
          PCTASSLILUSetSolveType(), PCTASSLILUSetLaunch(), PCTASSLILUGetInfo()
M*/
PetscErrorCode PCCreate_TASSLILU(PC pc)
{
  PC_TASSLILU *p;

  PetscFunctionBegin;
  PetscCall(PetscNew(&p));
  pc->data       = p;
  p->levels      = 0;
  p->shift       = GPUPC_ILU_SHIFT_NONE;
  p->shiftamount = (PetscReal)PETSC_DEFAULT;
  p->f.nmax      = TASSL_DEFAULT_SUBGRAPH;
  p->f.solve     = GPUPC_TASSL_SOLVE_TASSL;
  p->f.launch    = GPUPC_TASSL_LAUNCH_AUTO;
  PetscCall(PetscStrncpy(p->ordering, MATORDERINGNATURAL, sizeof(p->ordering)));
  pc->ops->setup          = PCSetUp_TASSLILU;
  pc->ops->apply          = PCApply_TASSLILU;
  pc->ops->applytranspose = PCApplyTranspose_TASSLILU;
  pc->ops->setfromoptions = PCSetFromOptions_TASSLILU;
  pc->ops->view           = PCView_TASSLILU;
  pc->ops->reset          = PCReset_TASSLILU;
  pc->ops->destroy        = PCDestroy_TASSLILU;
  PetscCall(Compose(pc, PETSC_TRUE));
  PetscFunctionReturn(0);
}

/*
   PC cmg: its options. One setter and one getter per -pc_cmg_ option, the PETSc way: the public function checks its
   arguments, then calls the implementation composed on the PC (PetscTryMethod: a no-op on another PC type; the
   getters use PetscUseMethod: an error on another PC type). PCSetFromOptions_CMG reads each option and hands it to
   its setter, so the options database and the C interface set the same fields through the same checks.

   A new value of a setting that shapes the hierarchy or its device copy discards a set-up PC's data
   (PCCMGDiscardSetUp): the next PCSetUp() or KSPSolve() builds afresh. -pc_cmg_monitor and -pc_cmg_setup_threads do
   not change the hierarchy; they apply at the next setup.
*/
#include <petsc/private/pcimpl.h>
#include <gpupc/cmg.h>

/* a setting that shapes the hierarchy (or its device copy) changed: drop what a setup built and mark the PC for a fresh
   setup (PCSetUp() then sees DIFFERENT_NONZERO_PATTERN); the operators stay */
static PetscErrorCode PCCMGDiscardSetUp(PC pc)
{
  PetscFunctionBegin;
  if (pc->setupcalled) {
    PetscCall(PetscInfo(pc, "CMG: a setting of the hierarchy changed after setup; the next setup builds it afresh\n"));
    PetscTryTypeMethod(pc, reset);
    pc->setupcalled = 0;
  }
  PetscFunctionReturn(0);
}

/* the implementations composed on a PC cmg; the ones that change the hierarchy discard the setup only on a new value */
#define PCCMG_DATA(pc) ((PC_CMG *)(pc)->data)

static PetscErrorCode PCCMGSetCheckSymmetry_CMG(PC pc, PetscBool flg)
{
  PetscFunctionBegin;
  if (PCCMG_DATA(pc)->opts.check_symmetry != flg) PetscCall(PCCMGDiscardSetUp(pc));
  PCCMG_DATA(pc)->opts.check_symmetry = flg;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGGetCheckSymmetry_CMG(PC pc, PetscBool *flg)
{
  PetscFunctionBegin;
  *flg = PCCMG_DATA(pc)->opts.check_symmetry;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGSetSymmetryTolerance_CMG(PC pc, PetscReal tol)
{
  PetscFunctionBegin;
  if (PCCMG_DATA(pc)->opts.symmetry_tol != tol) PetscCall(PCCMGDiscardSetUp(pc));
  PCCMG_DATA(pc)->opts.symmetry_tol = tol;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGGetSymmetryTolerance_CMG(PC pc, PetscReal *tol)
{
  PetscFunctionBegin;
  *tol = PCCMG_DATA(pc)->opts.symmetry_tol;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGSetDirichletRows_CMG(PC pc, PetscBool flg)
{
  PetscFunctionBegin;
  if (PCCMG_DATA(pc)->opts.dirichlet_rows != flg) PetscCall(PCCMGDiscardSetUp(pc));
  PCCMG_DATA(pc)->opts.dirichlet_rows = flg;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGGetDirichletRows_CMG(PC pc, PetscBool *flg)
{
  PetscFunctionBegin;
  *flg = PCCMG_DATA(pc)->opts.dirichlet_rows;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGSetDominanceTolerance_CMG(PC pc, PetscReal tol)
{
  PetscFunctionBegin;
  if (PCCMG_DATA(pc)->opts.dominance_tol != tol) PetscCall(PCCMGDiscardSetUp(pc));
  PCCMG_DATA(pc)->opts.dominance_tol = tol;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGGetDominanceTolerance_CMG(PC pc, PetscReal *tol)
{
  PetscFunctionBegin;
  *tol = PCCMG_DATA(pc)->opts.dominance_tol;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGSetPositiveOffDiagonal_CMG(PC pc, PCCMGPositiveMode mode)
{
  PetscFunctionBegin;
  if (PCCMG_DATA(pc)->opts.positive != mode) PetscCall(PCCMGDiscardSetUp(pc));
  PCCMG_DATA(pc)->opts.positive = mode;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGGetPositiveOffDiagonal_CMG(PC pc, PCCMGPositiveMode *mode)
{
  PetscFunctionBegin;
  *mode = PCCMG_DATA(pc)->opts.positive;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGSetDirectSize_CMG(PC pc, PetscInt n)
{
  PetscFunctionBegin;
  if (PCCMG_DATA(pc)->opts.direct_size != n) PetscCall(PCCMGDiscardSetUp(pc));
  PCCMG_DATA(pc)->opts.direct_size = n;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGGetDirectSize_CMG(PC pc, PetscInt *n)
{
  PetscFunctionBegin;
  *n = PCCMG_DATA(pc)->opts.direct_size;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGSetMPIGatherSize_CMG(PC pc, PetscInt n)
{
  PetscFunctionBegin;
  if (PCCMG_DATA(pc)->opts.mpi_gather_size != n) PetscCall(PCCMGDiscardSetUp(pc));
  PCCMG_DATA(pc)->opts.mpi_gather_size = n;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGGetMPIGatherSize_CMG(PC pc, PetscInt *n)
{
  PetscFunctionBegin;
  *n = PCCMG_DATA(pc)->opts.mpi_gather_size;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGSetMaxLevels_CMG(PC pc, PetscInt n)
{
  PetscFunctionBegin;
  if (PCCMG_DATA(pc)->opts.max_levels != n) PetscCall(PCCMGDiscardSetUp(pc));
  PCCMG_DATA(pc)->opts.max_levels = n;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGGetMaxLevels_CMG(PC pc, PetscInt *n)
{
  PetscFunctionBegin;
  *n = PCCMG_DATA(pc)->opts.max_levels;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGSetRepeat_CMG(PC pc, PetscInt t)
{
  PetscFunctionBegin;
  if (PCCMG_DATA(pc)->opts.repeat != t) PetscCall(PCCMGDiscardSetUp(pc));
  PCCMG_DATA(pc)->opts.repeat = t;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGGetRepeat_CMG(PC pc, PetscInt *t)
{
  PetscFunctionBegin;
  *t = PCCMG_DATA(pc)->opts.repeat;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGSetRepeatMax_CMG(PC pc, PetscInt t)
{
  PetscFunctionBegin;
  if (PCCMG_DATA(pc)->opts.repeat_max != t) PetscCall(PCCMGDiscardSetUp(pc));
  PCCMG_DATA(pc)->opts.repeat_max = t;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGGetRepeatMax_CMG(PC pc, PetscInt *t)
{
  PetscFunctionBegin;
  *t = PCCMG_DATA(pc)->opts.repeat_max;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGSetFuseNnz_CMG(PC pc, PetscInt nnz)
{
  PetscFunctionBegin;
  if (PCCMG_DATA(pc)->opts.fuse_nnz != nnz) PetscCall(PCCMGDiscardSetUp(pc));
  PCCMG_DATA(pc)->opts.fuse_nnz = nnz;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGGetFuseNnz_CMG(PC pc, PetscInt *nnz)
{
  PetscFunctionBegin;
  *nnz = PCCMG_DATA(pc)->opts.fuse_nnz;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGSetPackNnz_CMG(PC pc, PetscInt nnz)
{
  PetscFunctionBegin;
  if (PCCMG_DATA(pc)->opts.pack_nnz != nnz) PetscCall(PCCMGDiscardSetUp(pc));
  PCCMG_DATA(pc)->opts.pack_nnz = nnz;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGGetPackNnz_CMG(PC pc, PetscInt *nnz)
{
  PetscFunctionBegin;
  *nnz = PCCMG_DATA(pc)->opts.pack_nnz;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGSetPrecision_CMG(PC pc, PCCMGPrecision prec)
{
  PetscFunctionBegin;
  if (PCCMG_DATA(pc)->prec != prec) PetscCall(PCCMGDiscardSetUp(pc));
  PCCMG_DATA(pc)->prec = prec;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGGetPrecision_CMG(PC pc, PCCMGPrecision *prec)
{
  PetscFunctionBegin;
  *prec = PCCMG_DATA(pc)->prec;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGSetUseGraph_CMG(PC pc, PetscBool flg)
{
  PetscFunctionBegin;
  if (PCCMG_DATA(pc)->graph != flg) PetscCall(PCCMGDiscardSetUp(pc));
  PCCMG_DATA(pc)->graph = flg;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGGetUseGraph_CMG(PC pc, PetscBool *flg)
{
  PetscFunctionBegin;
  *flg = PCCMG_DATA(pc)->graph;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGSetMatType_CMG(PC pc, PCCMGMatType type)
{
  PetscFunctionBegin;
  if (PCCMG_DATA(pc)->mattype != type) PetscCall(PCCMGDiscardSetUp(pc));
  PCCMG_DATA(pc)->mattype = type;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGGetMatType_CMG(PC pc, PCCMGMatType *type)
{
  PetscFunctionBegin;
  *type = PCCMG_DATA(pc)->mattype;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGSetMonitor_CMG(PC pc, PetscBool flg)
{
  PetscFunctionBegin;
  PCCMG_DATA(pc)->opts.monitor = flg; /* output only: the hierarchy is kept */
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGGetMonitor_CMG(PC pc, PetscBool *flg)
{
  PetscFunctionBegin;
  *flg = PCCMG_DATA(pc)->opts.monitor;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGSetClusterOrder_CMG(PC pc, PetscBool flg)
{
  PetscFunctionBegin;
  if (PCCMG_DATA(pc)->opts.cluster_order != flg) PetscCall(PCCMGDiscardSetUp(pc));
  PCCMG_DATA(pc)->opts.cluster_order = flg;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGGetClusterOrder_CMG(PC pc, PetscBool *flg)
{
  PetscFunctionBegin;
  *flg = PCCMG_DATA(pc)->opts.cluster_order;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGSetSetupLocation_CMG(PC pc, PCCMGSetupLocation where)
{
  PetscFunctionBegin;
  if (PCCMG_DATA(pc)->opts.setup != where) PetscCall(PCCMGDiscardSetUp(pc)); /* the same hierarchy, but reuse keeps the data of the place that built it */
  PCCMG_DATA(pc)->opts.setup = where;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGGetSetupLocation_CMG(PC pc, PCCMGSetupLocation *where)
{
  PetscFunctionBegin;
  *where = PCCMG_DATA(pc)->opts.setup;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGSetSetupThreads_CMG(PC pc, PetscInt n)
{
  PetscFunctionBegin;
  PCCMG_DATA(pc)->opts.threads = n; /* the hierarchy is the same for any count: it is kept */
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGGetSetupThreads_CMG(PC pc, PetscInt *n)
{
  PetscFunctionBegin;
  *n = PCCMG_DATA(pc)->opts.threads;
  PetscFunctionReturn(0);
}

/*@
   PCCMGComposeOptionFunctions_Private - attaches the implementations of the PCCMGSet/Get functions of the options to a
   PC cmg (PCCreate_CMG), or removes them (PCDestroy_CMG)

   Not Collective

   Input Parameters:
+  pc     - the PC cmg
-  attach - PETSC_TRUE attaches, PETSC_FALSE removes

   Level: developer
@*/
PetscErrorCode PCCMGComposeOptionFunctions_Private(PC pc, PetscBool attach)
{
  const struct {
    const char       *name;
    PetscVoidFunction f;
  } fns[] = {
    {"PCCMGSetCheckSymmetry_C", (PetscVoidFunction)PCCMGSetCheckSymmetry_CMG},
    {"PCCMGGetCheckSymmetry_C", (PetscVoidFunction)PCCMGGetCheckSymmetry_CMG},
    {"PCCMGSetSymmetryTolerance_C", (PetscVoidFunction)PCCMGSetSymmetryTolerance_CMG},
    {"PCCMGGetSymmetryTolerance_C", (PetscVoidFunction)PCCMGGetSymmetryTolerance_CMG},
    {"PCCMGSetDirichletRows_C", (PetscVoidFunction)PCCMGSetDirichletRows_CMG},
    {"PCCMGGetDirichletRows_C", (PetscVoidFunction)PCCMGGetDirichletRows_CMG},
    {"PCCMGSetDominanceTolerance_C", (PetscVoidFunction)PCCMGSetDominanceTolerance_CMG},
    {"PCCMGGetDominanceTolerance_C", (PetscVoidFunction)PCCMGGetDominanceTolerance_CMG},
    {"PCCMGSetPositiveOffDiagonal_C", (PetscVoidFunction)PCCMGSetPositiveOffDiagonal_CMG},
    {"PCCMGGetPositiveOffDiagonal_C", (PetscVoidFunction)PCCMGGetPositiveOffDiagonal_CMG},
    {"PCCMGSetDirectSize_C", (PetscVoidFunction)PCCMGSetDirectSize_CMG},
    {"PCCMGGetDirectSize_C", (PetscVoidFunction)PCCMGGetDirectSize_CMG},
    {"PCCMGSetMPIGatherSize_C", (PetscVoidFunction)PCCMGSetMPIGatherSize_CMG},
    {"PCCMGGetMPIGatherSize_C", (PetscVoidFunction)PCCMGGetMPIGatherSize_CMG},
    {"PCCMGSetMaxLevels_C", (PetscVoidFunction)PCCMGSetMaxLevels_CMG},
    {"PCCMGGetMaxLevels_C", (PetscVoidFunction)PCCMGGetMaxLevels_CMG},
    {"PCCMGSetRepeat_C", (PetscVoidFunction)PCCMGSetRepeat_CMG},
    {"PCCMGGetRepeat_C", (PetscVoidFunction)PCCMGGetRepeat_CMG},
    {"PCCMGSetRepeatMax_C", (PetscVoidFunction)PCCMGSetRepeatMax_CMG},
    {"PCCMGGetRepeatMax_C", (PetscVoidFunction)PCCMGGetRepeatMax_CMG},
    {"PCCMGSetFuseNnz_C", (PetscVoidFunction)PCCMGSetFuseNnz_CMG},
    {"PCCMGGetFuseNnz_C", (PetscVoidFunction)PCCMGGetFuseNnz_CMG},
    {"PCCMGSetPackNnz_C", (PetscVoidFunction)PCCMGSetPackNnz_CMG},
    {"PCCMGGetPackNnz_C", (PetscVoidFunction)PCCMGGetPackNnz_CMG},
    {"PCCMGSetPrecision_C", (PetscVoidFunction)PCCMGSetPrecision_CMG},
    {"PCCMGGetPrecision_C", (PetscVoidFunction)PCCMGGetPrecision_CMG},
    {"PCCMGSetUseGraph_C", (PetscVoidFunction)PCCMGSetUseGraph_CMG},
    {"PCCMGGetUseGraph_C", (PetscVoidFunction)PCCMGGetUseGraph_CMG},
    {"PCCMGSetMatType_C", (PetscVoidFunction)PCCMGSetMatType_CMG},
    {"PCCMGGetMatType_C", (PetscVoidFunction)PCCMGGetMatType_CMG},
    {"PCCMGSetMonitor_C", (PetscVoidFunction)PCCMGSetMonitor_CMG},
    {"PCCMGGetMonitor_C", (PetscVoidFunction)PCCMGGetMonitor_CMG},
    {"PCCMGSetClusterOrder_C", (PetscVoidFunction)PCCMGSetClusterOrder_CMG},
    {"PCCMGGetClusterOrder_C", (PetscVoidFunction)PCCMGGetClusterOrder_CMG},
    {"PCCMGSetSetupThreads_C", (PetscVoidFunction)PCCMGSetSetupThreads_CMG},
    {"PCCMGGetSetupThreads_C", (PetscVoidFunction)PCCMGGetSetupThreads_CMG},
    {"PCCMGSetSetupLocation_C", (PetscVoidFunction)PCCMGSetSetupLocation_CMG},
    {"PCCMGGetSetupLocation_C", (PetscVoidFunction)PCCMGGetSetupLocation_CMG},
  };

  PetscFunctionBegin;
  for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) PetscCall(PetscObjectComposeFunction((PetscObject)pc, fns[i].name, attach ? fns[i].f : NULL));
  PetscFunctionReturn(0);
}

PetscErrorCode PCSetFromOptions_CMG(PC pc, PetscOptionItems *PetscOptionsObject)
{
  PC_CMG         *cmg     = (PC_CMG *)pc->data;
  GPUPCCMGOptions o       = cmg->opts; /* the current values are the defaults shown; a given option goes through its setter */
  PCCMGPrecision  prec    = cmg->prec;
  PCCMGMatType    mattype = cmg->mattype;
  PetscBool       graph   = cmg->graph, flg;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "Combinatorial multigrid (cmg) options");
  PetscCall(PetscOptionsBool("-pc_cmg_check_symmetry", "Check that the matrix is symmetric", "PCCMGSetCheckSymmetry", o.check_symmetry, &o.check_symmetry, &flg));
  if (flg) PetscCall(PCCMGSetCheckSymmetry(pc, o.check_symmetry));
  PetscCall(PetscOptionsBool("-pc_cmg_dirichlet_rows", "Couplings into rows that hold only a diagonal (eliminated Dirichlet unknowns) go to the ground vertex", "PCCMGSetDirichletRows", o.dirichlet_rows, &o.dirichlet_rows, &flg));
  if (flg) PetscCall(PCCMGSetDirichletRows(pc, o.dirichlet_rows));
  PetscCall(PetscOptionsReal("-pc_cmg_symmetry_tol", "Relative tolerance of the symmetry check", "PCCMGSetSymmetryTolerance", o.symmetry_tol, &o.symmetry_tol, &flg));
  if (flg) PetscCall(PCCMGSetSymmetryTolerance(pc, o.symmetry_tol));
  PetscCall(PetscOptionsReal("-pc_cmg_dominance_tol", "Relative tolerance of diagonal dominance (excess below it counts as zero)", "PCCMGSetDominanceTolerance", o.dominance_tol, &o.dominance_tol, &flg));
  if (flg) PetscCall(PCCMGSetDominanceTolerance(pc, o.dominance_tol));
  PetscCall(PetscOptionsEnum("-pc_cmg_positive_offdiag", "Positive off-diagonal entries: reduce through the double cover, or error", "PCCMGSetPositiveOffDiagonal", PCCMGPositiveModes, (PetscEnum)o.positive, (PetscEnum *)&o.positive, &flg));
  if (flg) PetscCall(PCCMGSetPositiveOffDiagonal(pc, o.positive));
  PetscCall(PetscOptionsInt("-pc_cmg_direct_size", "Stop coarsening at this many vertices and factor the last level", "PCCMGSetDirectSize", o.direct_size, &o.direct_size, &flg));
  if (flg) PetscCall(PCCMGSetDirectSize(pc, o.direct_size));
  PetscCall(PetscOptionsInt("-pc_cmg_mpi_gather_size", "On several ranks: gather a level of at most this many vertices to every rank and coarsen it further there with the one-rank hierarchy (no halo exchanges below it; 0: only the last level)", "PCCMGSetMPIGatherSize", o.mpi_gather_size, &o.mpi_gather_size, &flg));
  if (flg) PetscCall(PCCMGSetMPIGatherSize(pc, o.mpi_gather_size));
  PetscCall(PetscOptionsInt("-pc_cmg_max_levels", "Most levels in the hierarchy", "PCCMGSetMaxLevels", o.max_levels, &o.max_levels, &flg));
  if (flg) PetscCall(PCCMGSetMaxLevels(pc, o.max_levels));
  PetscCall(PetscOptionsInt("-pc_cmg_repeat", "Fixed recursion count t_k for every level (0: t_k from the nonzero ratios; 1: V-cycle shape)", "PCCMGSetRepeat", o.repeat, &o.repeat, &flg));
  if (flg) PetscCall(PCCMGSetRepeat(pc, o.repeat));
  PetscCall(PetscOptionsInt("-pc_cmg_repeat_max", "Largest t_k taken from the nonzero ratios (0: no limit)", "PCCMGSetRepeatMax", o.repeat_max, &o.repeat_max, &flg));
  if (flg) PetscCall(PCCMGSetRepeatMax(pc, o.repeat_max));
  PetscCall(PetscOptionsInt("-pc_cmg_fuse_nnz", "Levels with fewer stored entries compute the first Jacobi step inside the residual-restriction and run the prolongation inside the smoothing (one launch fewer per iteration; 0: never)", "PCCMGSetFuseNnz", o.fuse_nnz, &o.fuse_nnz, &flg));
  if (flg) PetscCall(PCCMGSetFuseNnz(pc, o.fuse_nnz));
  PetscCall(PetscOptionsInt("-pc_cmg_pack_nnz", "Levels with fewer stored entries are latency-bound: wide lanes per row and a one-launch CUDA residual-restriction over packed clusters (larger levels: narrow lanes, the residual by rows, then the cluster sums; 0: no level packed)", "PCCMGSetPackNnz", o.pack_nnz, &o.pack_nnz, &flg));
  if (flg) PetscCall(PCCMGSetPackNnz(pc, o.pack_nnz));
  PetscCall(PetscOptionsBool("-pc_cmg_monitor", "Print the hierarchy as it is built", "PCCMGSetMonitor", o.monitor, &o.monitor, &flg));
  if (flg) PetscCall(PCCMGSetMonitor(pc, o.monitor));
  PetscCall(PetscOptionsBool("-pc_cmg_cluster_order", "Number levels 1 .. last-1 so that every cluster's vertices are consecutive, in the order of the next level (the aggregation tree's order)", "PCCMGSetClusterOrder", o.cluster_order, &o.cluster_order, &flg));
  if (flg) PetscCall(PCCMGSetClusterOrder(pc, o.cluster_order));
  PetscCall(PetscOptionsInt("-pc_cmg_setup_threads", "OpenMP threads of the host setup (reduction, clustering, Galerkin products; default: OMP_NUM_THREADS, else the cores of the rank's affinity mask, shared among the node's ranks when their masks overlap)", "PCCMGSetSetupThreads", o.threads, &o.threads, &flg));
  if (flg) PetscCall(PCCMGSetSetupThreads(pc, o.threads));
  {
    PCCMGSetupLocation where = cmg->opts.setup;
    PetscCall(PetscOptionsEnum("-pc_cmg_setup", "Where the hierarchy is built: device (the setup kernels; on the host backend through the host kernel table) or host (OpenMP threads); default device on the cuda backend, host on the host backend", "PCCMGSetSetupLocation", PCCMGSetupLocations, (PetscEnum)where, (PetscEnum *)&where, &flg));
    if (flg) PetscCall(PCCMGSetSetupLocation(pc, where));
  }
  { /* developer: no setter; the reference that tests/kernel_equiv_cmgmpi compares the sorted sums against */
    PetscBool ptap = cmg->opts.mpi_ptap;
    PetscCall(PetscOptionsBool("-pc_cmg_mpi_galerkin_ptap", "(developer) On more than one rank form the coarse levels by MatPtAP on MPIAIJ, the old host path kept as the reference of the per-rank sort-and-reduce sums (slow; no value-only reuse)", "None", ptap, &ptap, &flg));
    if (flg && ptap != cmg->opts.mpi_ptap) {
      PetscCall(PCCMGDiscardSetUp(pc));
      cmg->opts.mpi_ptap = ptap;
    }
  }
  PetscCall(PetscOptionsEnum("-pc_cmg_precision", "Precision of the hierarchy and the cycle vectors", "PCCMGSetPrecision", PCCMGPrecisions, (PetscEnum)prec, (PetscEnum *)&prec, &flg));
  if (flg) PetscCall(PCCMGSetPrecision(pc, prec));
  PetscCall(PetscOptionsBool("-pc_cmg_graph", "Record the cycle once as a CUDA graph and replay it (cuda backend)", "PCCMGSetUseGraph", graph, &graph, &flg));
  if (flg) PetscCall(PCCMGSetUseGraph(pc, graph));
  PetscCall(PetscOptionsEnum("-pc_cmg_mat_type", "Storage of the level matrices on the device: csr (fused residual kernels), or segcsr, hec, bcsr or auto (per level) through the shared device-Mat layer (double only)", "PCCMGSetMatType", PCCMGMatTypes, (PetscEnum)mattype, (PetscEnum *)&mattype, &flg));
  if (flg) PetscCall(PCCMGSetMatType(pc, mattype));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(0);
}

/*@
   PCCMGSetCheckSymmetry - whether PC cmg checks that the matrix is symmetric before it builds the hierarchy

   Logically Collective

   Input Parameters:
+  pc  - the preconditioner
-  flg - PETSC_TRUE (the default) to check: a matrix that is not symmetric is refused with an error naming the
         first asymmetric entry

   Options Database Key:
.  -pc_cmg_check_symmetry <true,false> - check symmetry

   Level: intermediate

   Notes:
   The tolerance of the check is set with PCCMGSetSymmetryTolerance(). A new value after PCSetUp() discards the
   hierarchy: the next PCSetUp() (or KSPSolve()) builds it afresh.

.seealso: PCCMG, PCCMGGetCheckSymmetry(), PCCMGSetSymmetryTolerance(), PCCMGSetDirichletRows()
@*/
PetscErrorCode PCCMGSetCheckSymmetry(PC pc, PetscBool flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveBool(pc, flg, 2);
  PetscTryMethod(pc, "PCCMGSetCheckSymmetry_C", (PC, PetscBool), (pc, flg));
  PetscFunctionReturn(0);
}

/*@
   PCCMGGetCheckSymmetry - whether PC cmg checks that the matrix is symmetric

   Not Collective

   Input Parameter:
.  pc - the preconditioner

   Output Parameter:
.  flg - whether the check runs

   Level: intermediate

.seealso: PCCMG, PCCMGSetCheckSymmetry()
@*/
PetscErrorCode PCCMGGetCheckSymmetry(PC pc, PetscBool *flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidBoolPointer(flg, 2);
  PetscUseMethod(pc, "PCCMGGetCheckSymmetry_C", (PC, PetscBool *), (pc, flg));
  PetscFunctionReturn(0);
}

/*@
   PCCMGSetSymmetryTolerance - the relative tolerance of the symmetry check of PC cmg

   Logically Collective

   Input Parameters:
+  pc  - the preconditioner
-  tol - a_ij and a_ji count as equal when |a_ij - a_ji| <= tol * max(|a_ij|, |a_ji|); non-negative (default 1e-10)

   Options Database Key:
.  -pc_cmg_symmetry_tol <tol> - the tolerance

   Level: intermediate

   Notes:
   A new value after PCSetUp() discards the hierarchy: the next PCSetUp() (or KSPSolve()) builds it afresh.

.seealso: PCCMG, PCCMGGetSymmetryTolerance(), PCCMGSetCheckSymmetry()
@*/
PetscErrorCode PCCMGSetSymmetryTolerance(PC pc, PetscReal tol)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveReal(pc, tol, 2);
  PetscCheck(tol >= 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCCMGSetSymmetryTolerance(): -pc_cmg_symmetry_tol must be non-negative, got %g", (double)tol);
  PetscTryMethod(pc, "PCCMGSetSymmetryTolerance_C", (PC, PetscReal), (pc, tol));
  PetscFunctionReturn(0);
}

/*@
   PCCMGGetSymmetryTolerance - the relative tolerance of the symmetry check of PC cmg

   Not Collective

   Input Parameter:
.  pc - the preconditioner

   Output Parameter:
.  tol - the tolerance

   Level: intermediate

.seealso: PCCMG, PCCMGSetSymmetryTolerance()
@*/
PetscErrorCode PCCMGGetSymmetryTolerance(PC pc, PetscReal *tol)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidRealPointer(tol, 2);
  PetscUseMethod(pc, "PCCMGGetSymmetryTolerance_C", (PC, PetscReal *), (pc, tol));
  PetscFunctionReturn(0);
}

/*@
   PCCMGSetDirichletRows - whether PC cmg eliminates rows that hold only a diagonal (Dirichlet unknowns)

   Logically Collective

   Input Parameters:
+  pc  - the preconditioner
-  flg - PETSC_TRUE (the default): rows holding only a diagonal are eliminated exactly and the couplings of other
         rows into them go to the ground vertex, so a matrix assembled as PETSc's DMDA examples assemble Dirichlet
         conditions (nonsymmetric) is preconditioned through its symmetric part; PETSC_FALSE: such couplings fail the
         symmetry check

   Options Database Key:
.  -pc_cmg_dirichlet_rows <true,false> - eliminate Dirichlet rows

   Level: intermediate

   Notes:
   A new value after PCSetUp() discards the hierarchy: the next PCSetUp() (or KSPSolve()) builds it afresh.

.seealso: PCCMG, PCCMGGetDirichletRows(), PCCMGSetCheckSymmetry()
@*/
PetscErrorCode PCCMGSetDirichletRows(PC pc, PetscBool flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveBool(pc, flg, 2);
  PetscTryMethod(pc, "PCCMGSetDirichletRows_C", (PC, PetscBool), (pc, flg));
  PetscFunctionReturn(0);
}

/*@
   PCCMGGetDirichletRows - whether PC cmg eliminates rows that hold only a diagonal

   Not Collective

   Input Parameter:
.  pc - the preconditioner

   Output Parameter:
.  flg - whether they are eliminated

   Level: intermediate

.seealso: PCCMG, PCCMGSetDirichletRows()
@*/
PetscErrorCode PCCMGGetDirichletRows(PC pc, PetscBool *flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidBoolPointer(flg, 2);
  PetscUseMethod(pc, "PCCMGGetDirichletRows_C", (PC, PetscBool *), (pc, flg));
  PetscFunctionReturn(0);
}

/*@
   PCCMGSetDominanceTolerance - the relative tolerance of the diagonal dominance PC cmg requires

   Logically Collective

   Input Parameters:
+  pc  - the preconditioner
-  tol - rows with a_ii < (1 - tol) sum_j |a_ij| are refused, and an excess below tol a_ii counts as zero;
         non-negative (default 1e-10)

   Options Database Key:
.  -pc_cmg_dominance_tol <tol> - the tolerance

   Level: intermediate

   Notes:
   A new value after PCSetUp() discards the hierarchy: the next PCSetUp() (or KSPSolve()) builds it afresh.

.seealso: PCCMG, PCCMGGetDominanceTolerance()
@*/
PetscErrorCode PCCMGSetDominanceTolerance(PC pc, PetscReal tol)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveReal(pc, tol, 2);
  PetscCheck(tol >= 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCCMGSetDominanceTolerance(): -pc_cmg_dominance_tol must be non-negative, got %g", (double)tol);
  PetscTryMethod(pc, "PCCMGSetDominanceTolerance_C", (PC, PetscReal), (pc, tol));
  PetscFunctionReturn(0);
}

/*@
   PCCMGGetDominanceTolerance - the relative tolerance of the diagonal dominance PC cmg requires

   Not Collective

   Input Parameter:
.  pc - the preconditioner

   Output Parameter:
.  tol - the tolerance

   Level: intermediate

.seealso: PCCMG, PCCMGSetDominanceTolerance()
@*/
PetscErrorCode PCCMGGetDominanceTolerance(PC pc, PetscReal *tol)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidRealPointer(tol, 2);
  PetscUseMethod(pc, "PCCMGGetDominanceTolerance_C", (PC, PetscReal *), (pc, tol));
  PetscFunctionReturn(0);
}

/*@
   PCCMGSetPositiveOffDiagonal - what PC cmg does with positive off-diagonal entries

   Logically Collective

   Input Parameters:
+  pc   - the preconditioner
-  mode - PC_CMG_POSITIVE_DOUBLECOVER (the default): reduce the matrix through the double cover (2n unknowns);
          PC_CMG_POSITIVE_ERROR: refuse it with an error naming the row

   Options Database Key:
.  -pc_cmg_positive_offdiag <doublecover,error> - the mode

   Level: intermediate

   Notes:
   On more than one MPI rank positive off-diagonals are refused in either mode (the double cover is one-rank only).
   A new value after PCSetUp() discards the hierarchy: the next PCSetUp() (or KSPSolve()) builds it afresh.

.seealso: PCCMG, PCCMGPositiveMode, PCCMGGetPositiveOffDiagonal()
@*/
PetscErrorCode PCCMGSetPositiveOffDiagonal(PC pc, PCCMGPositiveMode mode)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, mode, 2);
  PetscCheck(mode == PC_CMG_POSITIVE_DOUBLECOVER || mode == PC_CMG_POSITIVE_ERROR, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCCMGSetPositiveOffDiagonal(): mode %d is not a PCCMGPositiveMode; use PC_CMG_POSITIVE_DOUBLECOVER or PC_CMG_POSITIVE_ERROR (-pc_cmg_positive_offdiag doublecover or error)", (int)mode);
  PetscTryMethod(pc, "PCCMGSetPositiveOffDiagonal_C", (PC, PCCMGPositiveMode), (pc, mode));
  PetscFunctionReturn(0);
}

/*@
   PCCMGGetPositiveOffDiagonal - what PC cmg does with positive off-diagonal entries

   Not Collective

   Input Parameter:
.  pc - the preconditioner

   Output Parameter:
.  mode - the mode

   Level: intermediate

.seealso: PCCMG, PCCMGPositiveMode, PCCMGSetPositiveOffDiagonal()
@*/
PetscErrorCode PCCMGGetPositiveOffDiagonal(PC pc, PCCMGPositiveMode *mode)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidPointer(mode, 2);
  PetscUseMethod(pc, "PCCMGGetPositiveOffDiagonal_C", (PC, PCCMGPositiveMode *), (pc, mode));
  PetscFunctionReturn(0);
}

/*@
   PCCMGSetDirectSize - the size at which PC cmg stops coarsening and factors the last level

   Logically Collective

   Input Parameters:
+  pc - the preconditioner
-  n  - at least 1: a level of at most n vertices is the last, solved by a dense grounded inverse (default 2500 on
        the cuda backend, 700 on the host backend)

   Options Database Key:
.  -pc_cmg_direct_size <n> - the size

   Level: intermediate

   Notes:
   The factorization is LAPACK potrf/potri on the host, so use an optimized LAPACK (such as OpenBLAS) with large n.
   A new value after PCSetUp() discards the hierarchy: the next PCSetUp() (or KSPSolve()) builds it afresh.

.seealso: PCCMG, PCCMGGetDirectSize(), PCCMGSetMaxLevels(), PCCMGGetNumberOfLevels()
@*/
PetscErrorCode PCCMGSetDirectSize(PC pc, PetscInt n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, n, 2);
  PetscCheck(n >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCCMGSetDirectSize(): -pc_cmg_direct_size must be at least 1, got %" PetscInt_FMT, n);
  PetscTryMethod(pc, "PCCMGSetDirectSize_C", (PC, PetscInt), (pc, n));
  PetscFunctionReturn(0);
}

/*@
   PCCMGGetDirectSize - the size at which PC cmg stops coarsening

   Not Collective

   Input Parameter:
.  pc - the preconditioner

   Output Parameter:
.  n - the size

   Level: intermediate

.seealso: PCCMG, PCCMGSetDirectSize()
@*/
PetscErrorCode PCCMGGetDirectSize(PC pc, PetscInt *n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidIntPointer(n, 2);
  PetscUseMethod(pc, "PCCMGGetDirectSize_C", (PC, PetscInt *), (pc, n));
  PetscFunctionReturn(0);
}

/*@
   PCCMGSetMPIGatherSize - on several ranks, the size of the first distributed level that PC cmg gathers to every rank

   Logically Collective

   Input Parameters:
+  pc - the preconditioner
-  n  - at least 0: the distributed coarsening stops at a level of at most n vertices; that level is gathered to every
        rank, where the one-rank hierarchy coarsens it further and its cycle runs redundantly on every rank's GPU
        (default 1000000 on the cuda backend, 0 on the host backend; 0 gathers only the last level, at -pc_cmg_direct_size or
        stagnation); level 0 is never gathered

   Options Database Key:
.  -pc_cmg_mpi_gather_size <n> - the size

   Level: intermediate

   Notes:
   The coarse levels of a distributed hierarchy have few rows a rank but still a halo exchange per product; below some
   size one gather per visit and the one-rank cycle (fused kernels, one CUDA graph) cost less than their exchanges.
   On one rank the value is not used. A new value after PCSetUp() discards the hierarchy.

.seealso: PCCMG, PCCMGGetMPIGatherSize(), PCCMGSetDirectSize()
@*/
PetscErrorCode PCCMGSetMPIGatherSize(PC pc, PetscInt n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, n, 2);
  PetscCheck(n >= 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCCMGSetMPIGatherSize(): -pc_cmg_mpi_gather_size must be at least 0, got %" PetscInt_FMT, n);
  PetscTryMethod(pc, "PCCMGSetMPIGatherSize_C", (PC, PetscInt), (pc, n));
  PetscFunctionReturn(0);
}

/*@
   PCCMGGetMPIGatherSize - the size at which PC cmg gathers a distributed level to every rank

   Not Collective

   Input Parameter:
.  pc - the preconditioner

   Output Parameter:
.  n - the size (PCCMGSetMPIGatherSize())

   Level: intermediate

.seealso: PCCMG, PCCMGSetMPIGatherSize()
@*/
PetscErrorCode PCCMGGetMPIGatherSize(PC pc, PetscInt *n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidIntPointer(n, 2);
  PetscUseMethod(pc, "PCCMGGetMPIGatherSize_C", (PC, PetscInt *), (pc, n));
  PetscFunctionReturn(0);
}

/*@
   PCCMGSetMaxLevels - the most levels of the PC cmg hierarchy

   Logically Collective

   Input Parameters:
+  pc - the preconditioner
-  n  - at least 1 (default 25), the reduced input (level 0) included

   Options Database Key:
.  -pc_cmg_max_levels <n> - the most levels

   Level: intermediate

   Notes:
   A hierarchy stopped by this limit above PCCMGSetDirectSize() vertices ends in one Jacobi step instead of a
   factor, and convergence may suffer (PCView() warns). A new value after PCSetUp() discards the hierarchy: the
   next PCSetUp() (or KSPSolve()) builds it afresh.

.seealso: PCCMG, PCCMGGetMaxLevels(), PCCMGSetDirectSize(), PCCMGGetNumberOfLevels()
@*/
PetscErrorCode PCCMGSetMaxLevels(PC pc, PetscInt n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, n, 2);
  PetscCheck(n >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCCMGSetMaxLevels(): -pc_cmg_max_levels must be at least 1, got %" PetscInt_FMT, n);
  PetscTryMethod(pc, "PCCMGSetMaxLevels_C", (PC, PetscInt), (pc, n));
  PetscFunctionReturn(0);
}

/*@
   PCCMGGetMaxLevels - the most levels of the PC cmg hierarchy

   Not Collective

   Input Parameter:
.  pc - the preconditioner

   Output Parameter:
.  n - the limit (the levels a set-up hierarchy has: PCCMGGetNumberOfLevels())

   Level: intermediate

.seealso: PCCMG, PCCMGSetMaxLevels(), PCCMGGetNumberOfLevels()
@*/
PetscErrorCode PCCMGGetMaxLevels(PC pc, PetscInt *n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidIntPointer(n, 2);
  PetscUseMethod(pc, "PCCMGGetMaxLevels_C", (PC, PetscInt *), (pc, n));
  PetscFunctionReturn(0);
}

/*@
   PCCMGSetRepeat - a fixed recursion count t_k for every level of PC cmg

   Logically Collective

   Input Parameters:
+  pc - the preconditioner
-  t  - 0 (the default): t_k = max(floor(nnz_k / nnz_k+1 - 1/2), 1), capped by PCCMGSetRepeatMax(); t > 0: every
        level runs t times per visit of the level above (1 gives a V-cycle shape)

   Options Database Key:
.  -pc_cmg_repeat <t> - the count

   Level: intermediate

   Notes:
   A new value after PCSetUp() discards the hierarchy: the next PCSetUp() (or KSPSolve()) builds it afresh.

.seealso: PCCMG, PCCMGGetRepeat(), PCCMGSetRepeatMax(), PCCMGGetLevel()
@*/
PetscErrorCode PCCMGSetRepeat(PC pc, PetscInt t)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, t, 2);
  PetscCheck(t >= 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCCMGSetRepeat(): -pc_cmg_repeat must be 0 (automatic) or positive, got %" PetscInt_FMT, t);
  PetscTryMethod(pc, "PCCMGSetRepeat_C", (PC, PetscInt), (pc, t));
  PetscFunctionReturn(0);
}

/*@
   PCCMGGetRepeat - the fixed recursion count of PC cmg

   Not Collective

   Input Parameter:
.  pc - the preconditioner

   Output Parameter:
.  t - the count, 0 when t_k comes from the nonzero ratios

   Level: intermediate

.seealso: PCCMG, PCCMGSetRepeat()
@*/
PetscErrorCode PCCMGGetRepeat(PC pc, PetscInt *t)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidIntPointer(t, 2);
  PetscUseMethod(pc, "PCCMGGetRepeat_C", (PC, PetscInt *), (pc, t));
  PetscFunctionReturn(0);
}

/*@
   PCCMGSetRepeatMax - the largest recursion count t_k that PC cmg takes from the nonzero ratios

   Logically Collective

   Input Parameters:
+  pc - the preconditioner
-  t  - 0: no limit (the ratio rule of docs/algorithms.md 2.2 item 8); t > 0: at most t (default 2; the cap keeps deep W-cycles from
        multiplying small-level launches)

   Options Database Key:
.  -pc_cmg_repeat_max <t> - the cap

   Level: intermediate

   Notes:
   Has no effect when PCCMGSetRepeat() fixes the count. A new value after PCSetUp() discards the hierarchy: the
   next PCSetUp() (or KSPSolve()) builds it afresh.

.seealso: PCCMG, PCCMGGetRepeatMax(), PCCMGSetRepeat(), PCCMGGetLevel()
@*/
PetscErrorCode PCCMGSetRepeatMax(PC pc, PetscInt t)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, t, 2);
  PetscCheck(t >= 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCCMGSetRepeatMax(): -pc_cmg_repeat_max must be 0 (no limit) or positive, got %" PetscInt_FMT, t);
  PetscTryMethod(pc, "PCCMGSetRepeatMax_C", (PC, PetscInt), (pc, t));
  PetscFunctionReturn(0);
}

/*@
   PCCMGGetRepeatMax - the cap of the recursion counts PC cmg takes from the nonzero ratios

   Not Collective

   Input Parameter:
.  pc - the preconditioner

   Output Parameter:
.  t - the cap, 0 for none

   Level: intermediate

.seealso: PCCMG, PCCMGSetRepeatMax()
@*/
PetscErrorCode PCCMGGetRepeatMax(PC pc, PetscInt *t)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidIntPointer(t, 2);
  PetscUseMethod(pc, "PCCMGGetRepeatMax_C", (PC, PetscInt *), (pc, t));
  PetscFunctionReturn(0);
}

/*@
   PCCMGSetFuseNnz - below which size PC cmg fuses steps of its cycle

   Logically Collective

   Input Parameters:
+  pc  - the preconditioner
-  nnz - on levels with fewer stored entries the first Jacobi step is computed inside the residual-restriction and
         the prolongation runs inside the smoothing (one launch fewer per iteration, an extra gather per entry);
         0 never fuses (default 1000000)

   Options Database Key:
.  -pc_cmg_fuse_nnz <nnz> - the size

   Level: advanced

   Notes:
   The operator is the same up to rounding. A new value after PCSetUp() discards the hierarchy: the next
   PCSetUp() (or KSPSolve()) builds it afresh.

.seealso: PCCMG, PCCMGGetFuseNnz(), PCCMGSetPackNnz()
@*/
PetscErrorCode PCCMGSetFuseNnz(PC pc, PetscInt nnz)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, nnz, 2);
  PetscCheck(nnz >= 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCCMGSetFuseNnz(): -pc_cmg_fuse_nnz must be 0 (never fuse) or positive, got %" PetscInt_FMT, nnz);
  PetscTryMethod(pc, "PCCMGSetFuseNnz_C", (PC, PetscInt), (pc, nnz));
  PetscFunctionReturn(0);
}

/*@
   PCCMGGetFuseNnz - below which size PC cmg fuses steps of its cycle

   Not Collective

   Input Parameter:
.  pc - the preconditioner

   Output Parameter:
.  nnz - the size, 0 when nothing is fused

   Level: advanced

.seealso: PCCMG, PCCMGSetFuseNnz()
@*/
PetscErrorCode PCCMGGetFuseNnz(PC pc, PetscInt *nnz)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidIntPointer(nnz, 2);
  PetscUseMethod(pc, "PCCMGGetFuseNnz_C", (PC, PetscInt *), (pc, nnz));
  PetscFunctionReturn(0);
}

/*@
   PCCMGSetPackNnz - below which size PC cmg treats a level as latency-bound

   Logically Collective

   Input Parameters:
+  pc  - the preconditioner
-  nnz - on levels with fewer stored entries the CUDA kernels give a row about half its mean length in lanes and the
         residual-restriction is one launch over units of whole clusters; larger levels get about a third of the mean
         row length and two launches (the residual by rows, then the cluster sums); 0 treats every level as
         bandwidth-bound (default 1000000)

   Options Database Key:
.  -pc_cmg_pack_nnz <nnz> - the size

   Level: advanced

   Notes:
   The operator is the same up to rounding. A new value after PCSetUp() discards the hierarchy: the next
   PCSetUp() (or KSPSolve()) builds it afresh.

.seealso: PCCMG, PCCMGGetPackNnz(), PCCMGSetFuseNnz()
@*/
PetscErrorCode PCCMGSetPackNnz(PC pc, PetscInt nnz)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, nnz, 2);
  PetscCheck(nnz >= 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCCMGSetPackNnz(): -pc_cmg_pack_nnz must be 0 (never pack) or positive, got %" PetscInt_FMT, nnz);
  PetscTryMethod(pc, "PCCMGSetPackNnz_C", (PC, PetscInt), (pc, nnz));
  PetscFunctionReturn(0);
}

/*@
   PCCMGGetPackNnz - below which size PC cmg treats a level as latency-bound

   Not Collective

   Input Parameter:
.  pc - the preconditioner

   Output Parameter:
.  nnz - the size, 0 when no level is packed

   Level: advanced

.seealso: PCCMG, PCCMGSetPackNnz()
@*/
PetscErrorCode PCCMGGetPackNnz(PC pc, PetscInt *nnz)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidIntPointer(nnz, 2);
  PetscUseMethod(pc, "PCCMGGetPackNnz_C", (PC, PetscInt *), (pc, nnz));
  PetscFunctionReturn(0);
}

/*@
   PCCMGSetPrecision - the precision of the stored PC cmg hierarchy and of its cycle vectors

   Logically Collective

   Input Parameters:
+  pc   - the preconditioner
-  prec - PC_CMG_PRECISION_DOUBLE (the default) or PC_CMG_PRECISION_SINGLE (the Krylov method stays in double)

   Options Database Key:
.  -pc_cmg_precision <double,single> - the precision

   Level: intermediate

   Notes:
   PCSetUp() refuses single precision with level matrices other than PC_CMG_MAT_CSR (PCCMGSetMatType()) and on more
   than one MPI rank (use PCBJACOBI with cmg blocks there). A new value after PCSetUp() discards the hierarchy:
   the next PCSetUp() (or KSPSolve()) builds it afresh.

.seealso: PCCMG, PCCMGPrecision, PCCMGGetPrecision(), PCCMGSetMatType()
@*/
PetscErrorCode PCCMGSetPrecision(PC pc, PCCMGPrecision prec)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, prec, 2);
  PetscCheck(prec == PC_CMG_PRECISION_DOUBLE || prec == PC_CMG_PRECISION_SINGLE, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCCMGSetPrecision(): precision %d is not a PCCMGPrecision; use PC_CMG_PRECISION_DOUBLE or PC_CMG_PRECISION_SINGLE (-pc_cmg_precision double or single)", (int)prec);
  PetscTryMethod(pc, "PCCMGSetPrecision_C", (PC, PCCMGPrecision), (pc, prec));
  PetscFunctionReturn(0);
}

/*@
   PCCMGGetPrecision - the precision of the stored PC cmg hierarchy and of its cycle vectors

   Not Collective

   Input Parameter:
.  pc - the preconditioner

   Output Parameter:
.  prec - the precision

   Level: intermediate

.seealso: PCCMG, PCCMGPrecision, PCCMGSetPrecision()
@*/
PetscErrorCode PCCMGGetPrecision(PC pc, PCCMGPrecision *prec)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidPointer(prec, 2);
  PetscUseMethod(pc, "PCCMGGetPrecision_C", (PC, PCCMGPrecision *), (pc, prec));
  PetscFunctionReturn(0);
}

/*@
   PCCMGSetUseGraph - whether PC cmg records its cycle once as a CUDA graph and replays it

   Logically Collective

   Input Parameters:
+  pc  - the preconditioner
-  flg - PETSC_TRUE (the default): on the cuda backend the cycle is recorded at setup and each application replays
         it with one launch; PETSC_FALSE: launched kernel by kernel

   Options Database Key:
.  -pc_cmg_graph <true,false> - record the cycle

   Level: advanced

   Notes:
   The results are the same either way; the host backend has no graphs and ignores it. A new value after PCSetUp()
   discards the setup: the next PCSetUp() (or KSPSolve()) builds afresh.

.seealso: PCCMG, PCCMGGetUseGraph()
@*/
PetscErrorCode PCCMGSetUseGraph(PC pc, PetscBool flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveBool(pc, flg, 2);
  PetscTryMethod(pc, "PCCMGSetUseGraph_C", (PC, PetscBool), (pc, flg));
  PetscFunctionReturn(0);
}

/*@
   PCCMGGetUseGraph - whether PC cmg records its cycle as a CUDA graph

   Not Collective

   Input Parameter:
.  pc - the preconditioner

   Output Parameter:
.  flg - whether it does (on the cuda backend)

   Level: advanced

.seealso: PCCMG, PCCMGSetUseGraph()
@*/
PetscErrorCode PCCMGGetUseGraph(PC pc, PetscBool *flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidBoolPointer(flg, 2);
  PetscUseMethod(pc, "PCCMGGetUseGraph_C", (PC, PetscBool *), (pc, flg));
  PetscFunctionReturn(0);
}

/*@
   PCCMGSetMatType - the storage of the PC cmg level matrices on the device

   Logically Collective

   Input Parameters:
+  pc   - the preconditioner
-  type - PC_CMG_MAT_CSR (the default): CSR with fused residual+smoothing and residual+restriction kernels;
          PC_CMG_MAT_SEGCSR: the segcsr SpMV, then a separate update or cluster sum (double precision only);
          PC_CMG_MAT_HEC: not available in this version, PCSetUp() refuses it

   Options Database Key:
.  -pc_cmg_mat_type <csr,segcsr,hec> - the storage

   Level: advanced

   Notes:
   It does not apply on more than one MPI rank: the distributed levels are segcsr blocks and the last level gathered to
   every rank is CSR. A new value after PCSetUp() discards the hierarchy: the next PCSetUp() (or
   KSPSolve()) builds it afresh.

.seealso: PCCMG, PCCMGMatType, PCCMGGetMatType(), PCCMGSetPrecision()
@*/
PetscErrorCode PCCMGSetMatType(PC pc, PCCMGMatType type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, type, 2);
  PetscCheck(type >= PC_CMG_MAT_CSR && type <= PC_CMG_MAT_AUTO, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCCMGSetMatType(): type %d is not a PCCMGMatType; use PC_CMG_MAT_CSR, _SEGCSR, _HEC, _BCSR or _AUTO (-pc_cmg_mat_type csr, segcsr, hec, bcsr or auto)", (int)type);
  PetscTryMethod(pc, "PCCMGSetMatType_C", (PC, PCCMGMatType), (pc, type));
  PetscFunctionReturn(0);
}

/*@
   PCCMGGetMatType - the storage of the PC cmg level matrices on the device

   Not Collective

   Input Parameter:
.  pc - the preconditioner

   Output Parameter:
.  type - the storage

   Level: advanced

.seealso: PCCMG, PCCMGMatType, PCCMGSetMatType()
@*/
PetscErrorCode PCCMGGetMatType(PC pc, PCCMGMatType *type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidPointer(type, 2);
  PetscUseMethod(pc, "PCCMGGetMatType_C", (PC, PCCMGMatType *), (pc, type));
  PetscFunctionReturn(0);
}

/*@
   PCCMGSetMonitor - whether PC cmg prints the hierarchy while it builds it

   Logically Collective

   Input Parameters:
+  pc  - the preconditioner
-  flg - PETSC_TRUE to print (default PETSC_FALSE)

   Options Database Key:
.  -pc_cmg_monitor <true,false> - print the hierarchy

   Level: intermediate

   Notes:
   Output only: the hierarchy of a set-up PC is kept; the next setup prints.

.seealso: PCCMG, PCCMGGetMonitor(), PCView()
@*/
PetscErrorCode PCCMGSetMonitor(PC pc, PetscBool flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveBool(pc, flg, 2);
  PetscTryMethod(pc, "PCCMGSetMonitor_C", (PC, PetscBool), (pc, flg));
  PetscFunctionReturn(0);
}

/*@
   PCCMGGetMonitor - whether PC cmg prints the hierarchy while it builds it

   Not Collective

   Input Parameter:
.  pc - the preconditioner

   Output Parameter:
.  flg - whether it prints

   Level: intermediate

.seealso: PCCMG, PCCMGSetMonitor()
@*/
PetscErrorCode PCCMGGetMonitor(PC pc, PetscBool *flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidBoolPointer(flg, 2);
  PetscUseMethod(pc, "PCCMGGetMonitor_C", (PC, PetscBool *), (pc, flg));
  PetscFunctionReturn(0);
}

/*@
   PCCMGSetClusterOrder - whether PC cmg numbers its coarse levels in cluster order

   Logically Collective

   Input Parameters:
+  pc  - the preconditioner
-  flg - PETSC_TRUE: levels 1 .. last-1 are numbered so that every cluster's vertices are consecutive, clusters in
         the order of the next level (the aggregation tree's order), for better locality of the cycle's gathers on large
         coarse levels at a little more setup; default PETSC_FALSE

   Options Database Key:
.  -pc_cmg_cluster_order <true,false> - number levels in cluster order

   Level: advanced

   Notes:
   The operator is the same. A new value after PCSetUp() discards the hierarchy: the next PCSetUp() (or
   KSPSolve()) builds it afresh.

.seealso: PCCMG, PCCMGGetClusterOrder()
@*/
PetscErrorCode PCCMGSetClusterOrder(PC pc, PetscBool flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveBool(pc, flg, 2);
  PetscTryMethod(pc, "PCCMGSetClusterOrder_C", (PC, PetscBool), (pc, flg));
  PetscFunctionReturn(0);
}

/*@
   PCCMGGetClusterOrder - whether PC cmg numbers its coarse levels in cluster order

   Not Collective

   Input Parameter:
.  pc - the preconditioner

   Output Parameter:
.  flg - whether it does

   Level: advanced

.seealso: PCCMG, PCCMGSetClusterOrder()
@*/
PetscErrorCode PCCMGGetClusterOrder(PC pc, PetscBool *flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidBoolPointer(flg, 2);
  PetscUseMethod(pc, "PCCMGGetClusterOrder_C", (PC, PetscBool *), (pc, flg));
  PetscFunctionReturn(0);
}

/*@
   PCCMGSetSetupThreads - the OpenMP threads of the PC cmg host setup

   Logically Collective

   Input Parameters:
+  pc - the preconditioner
-  n  - at least 1: the reduction, the clustering and the Galerkin products split their work over n threads (default:
        OMP_NUM_THREADS, else the cores the process may run on, when the program runs on one MPI process; 1 on several)

   Options Database Key:
.  -pc_cmg_setup_threads <n> - the threads

   Level: advanced

   Notes:
   The hierarchy is the same for any count, so a set-up PC keeps it; the count applies at the next setup. Each
   thread holds one integer per cluster during a Galerkin product.

.seealso: PCCMG, PCCMGGetSetupThreads()
@*/
PetscErrorCode PCCMGSetSetupThreads(PC pc, PetscInt n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, n, 2);
  PetscCheck(n >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCCMGSetSetupThreads(): -pc_cmg_setup_threads must be at least 1, got %" PetscInt_FMT, n);
  PetscTryMethod(pc, "PCCMGSetSetupThreads_C", (PC, PetscInt), (pc, n));
  PetscFunctionReturn(0);
}

/*@
   PCCMGGetSetupThreads - the OpenMP threads of the PC cmg host setup

   Not Collective

   Input Parameter:
.  pc - the preconditioner

   Output Parameter:
.  n - the threads

   Level: advanced

.seealso: PCCMG, PCCMGSetSetupThreads()
@*/
PetscErrorCode PCCMGGetSetupThreads(PC pc, PetscInt *n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidIntPointer(n, 2);
  PetscUseMethod(pc, "PCCMGGetSetupThreads_C", (PC, PetscInt *), (pc, n));
  PetscFunctionReturn(0);
}

/*@
   PCCMGSetSetupLocation - where PC cmg builds its hierarchy: the device kernels of the setup or the host

   Logically Collective

   Input Parameters:
+  pc    - the PC cmg
-  where - PC_CMG_SETUP_DEVICE or PC_CMG_SETUP_HOST

   Options Database Key:
.  -pc_cmg_setup <device,host> - default device on the cuda backend, host on the host backend

   Notes:
   Both build the same hierarchy, bit for bit (docs/algorithms.md 2.5). On the host backend the device setup runs its
   kernels through the host kernel table, one core, slower than the threaded host setup: it is there so that CI runs
   the device path. -ksp_view says `setup on the device` or `setup on the host`. A change discards the setup.

   Level: intermediate

.seealso: PCCMG, PCCMGGetSetupLocation(), PCCMGSetupLocation
@*/
PetscErrorCode PCCMGSetSetupLocation(PC pc, PCCMGSetupLocation where)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, where, 2);
  PetscCheck(where == PC_CMG_SETUP_DEVICE || where == PC_CMG_SETUP_HOST, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCCMGSetSetupLocation(): location %d is not a PCCMGSetupLocation; use PC_CMG_SETUP_DEVICE or PC_CMG_SETUP_HOST (-pc_cmg_setup device or host)", (int)where);
  PetscTryMethod(pc, "PCCMGSetSetupLocation_C", (PC, PCCMGSetupLocation), (pc, where));
  PetscFunctionReturn(0);
}

/*@
   PCCMGGetSetupLocation - where PC cmg builds its hierarchy

   Not Collective

   Input Parameter:
.  pc - the PC cmg

   Output Parameter:
.  where - PC_CMG_SETUP_DEVICE or PC_CMG_SETUP_HOST

   Level: intermediate

.seealso: PCCMG, PCCMGSetSetupLocation()
@*/
PetscErrorCode PCCMGGetSetupLocation(PC pc, PCCMGSetupLocation *where)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidPointer(where, 2);
  PetscUseMethod(pc, "PCCMGGetSetupLocation_C", (PC, PCCMGSetupLocation *), (pc, where));
  PetscFunctionReturn(0);
}

/*
   PC gpuamg's options: every -pc_gpuamg_ option with its public setter and getter (composed as "..._C" functions),
   and PCSetFromOptions. Setting an option after PCSetUp makes the next PCSetUp build the hierarchy again.
*/
#include <gpupc/amgcycle.h>

/* the next PCSetUp builds the hierarchy (and the device levels) again */
static PetscErrorCode Invalidate(PC pc)
{
  PetscFunctionBegin;
  PetscCall(GPUPCAMGReset(pc, PETSC_TRUE));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetType_GPUAMG(PC pc, PCGPUAMGType v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  PetscCheck((int)v >= 0 && (int)v < 2, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_type: no value %d", (int)v);
  if (g->setup.type != v) PetscCall(Invalidate(pc));
  g->setup.type = v;
  if (!g->smoother_set) { /* the type's default smoother (bench/NOTES.md, branch amgconv) */
    PCGPUAMGSmootherType s = v == PC_GPUAMG_AGG ? PCGPUAMGSMOOTHERCHEBYSHEV : PCGPUAMGSMOOTHERL1JACOBI;
    if (strcmp(g->cyc.smoother, s)) PetscCall(Invalidate(pc));
    PetscCall(PetscStrncpy(g->cyc.smoother, s, sizeof(g->cyc.smoother)));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetType_GPUAMG(PC pc, PCGPUAMGType *v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  *v = g->setup.type;
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetType - classical (C/F splitting and interpolation) or agg (smoothed aggregation)

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
-  v - the value

   Options Database Key:
.  -pc_gpuamg_type - the value

   Notes:
   Unless PCGPUAMGSetSmoother() was called, the type also picks the smoother: l1jacobi for classical, chebyshev
   for agg (bench/NOTES.md, section "amgconv").

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGGetType(), PCGPUAMGSetSmoother()
@*/
PetscErrorCode PCGPUAMGSetType(PC pc, PCGPUAMGType v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, v, 2);
  PetscTryMethod(pc, "PCGPUAMGSetType_C", (PC, PCGPUAMGType), (pc, v));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetType - the value set by PCGPUAMGSetType() (-pc_gpuamg_type)

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameter:
.  v - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetType()
@*/
PetscErrorCode PCGPUAMGGetType(PC pc, PCGPUAMGType *v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCGPUAMGGetType_C", (PC, PCGPUAMGType *), (pc, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetCoarsenType_GPUAMG(PC pc, PCGPUAMGCoarsenType v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  PetscCheck((int)v >= 0 && (int)v < 4, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_coarsen: no value %d", (int)v);
  if (g->setup.coarsen != v) PetscCall(Invalidate(pc));
  g->setup.coarsen = v;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetCoarsenType_GPUAMG(PC pc, PCGPUAMGCoarsenType *v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  *v = g->setup.coarsen;
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetCoarsenType - C/F splitting of classical AMG

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
-  v - the value

   Options Database Key:
.  -pc_gpuamg_coarsen - the value

   Notes:
   hmis with the device setup (-pc_gpuamg_setup device): Ruge-Stueben's first pass inside subdomains of consecutive
   rows (PCGPUAMGSetHMISSubdomain(), -pc_gpuamg_dev_hmis_subdomain, default 4096), then PMIS rounds on the points
   without strong couplings inside their subdomain; the host setup's runs the first pass on each rank's rows.

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGGetCoarsenType(), PCGPUAMGSetHMISSubdomain()
@*/
PetscErrorCode PCGPUAMGSetCoarsenType(PC pc, PCGPUAMGCoarsenType v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, v, 2);
  PetscTryMethod(pc, "PCGPUAMGSetCoarsenType_C", (PC, PCGPUAMGCoarsenType), (pc, v));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetCoarsenType - the value set by PCGPUAMGSetCoarsenType() (-pc_gpuamg_coarsen)

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameter:
.  v - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetCoarsenType()
@*/
PetscErrorCode PCGPUAMGGetCoarsenType(PC pc, PCGPUAMGCoarsenType *v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCGPUAMGGetCoarsenType_C", (PC, PCGPUAMGCoarsenType *), (pc, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetInterpType_GPUAMG(PC pc, PCGPUAMGInterpType v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  PetscCheck((int)v >= 0 && (int)v < 5, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_interp: no value %d", (int)v);
  if (g->setup.interp != v) PetscCall(Invalidate(pc));
  g->setup.interp = v;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetInterpType_GPUAMG(PC pc, PCGPUAMGInterpType *v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  *v = g->setup.interp;
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetInterpType - interpolation of classical AMG

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
-  v - the value

   Options Database Key:
.  -pc_gpuamg_interp - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGGetInterpType()
@*/
PetscErrorCode PCGPUAMGSetInterpType(PC pc, PCGPUAMGInterpType v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, v, 2);
  PetscTryMethod(pc, "PCGPUAMGSetInterpType_C", (PC, PCGPUAMGInterpType), (pc, v));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetInterpType - the value set by PCGPUAMGSetInterpType() (-pc_gpuamg_interp)

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameter:
.  v - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetInterpType()
@*/
PetscErrorCode PCGPUAMGGetInterpType(PC pc, PCGPUAMGInterpType *v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCGPUAMGGetInterpType_C", (PC, PCGPUAMGInterpType *), (pc, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetStrongThreshold_GPUAMG(PC pc, PetscReal v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  PetscCheck(v >= 0 && v < 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_strong_threshold must be in [0, 1)");
  if (g->setup.strong_threshold != v) PetscCall(Invalidate(pc));
  g->setup.strong_threshold = v;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetStrongThreshold_GPUAMG(PC pc, PetscReal *v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  *v = g->setup.strong_threshold;
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetStrongThreshold - classical strength: -a_ij >= theta max_k(-a_ik)

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
-  v - the value

   Options Database Key:
.  -pc_gpuamg_strong_threshold - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGGetStrongThreshold()
@*/
PetscErrorCode PCGPUAMGSetStrongThreshold(PC pc, PetscReal v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveReal(pc, v, 2);
  PetscTryMethod(pc, "PCGPUAMGSetStrongThreshold_C", (PC, PetscReal), (pc, v));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetStrongThreshold - the value set by PCGPUAMGSetStrongThreshold() (-pc_gpuamg_strong_threshold)

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameter:
.  v - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetStrongThreshold()
@*/
PetscErrorCode PCGPUAMGGetStrongThreshold(PC pc, PetscReal *v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCGPUAMGGetStrongThreshold_C", (PC, PetscReal *), (pc, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetAggThreshold_GPUAMG(PC pc, PetscReal v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  PetscCheck(v >= 0 && v < 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_agg_threshold must be in [0, 1)");
  if (g->setup.agg_threshold != v) PetscCall(Invalidate(pc));
  g->setup.agg_threshold = v;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetAggThreshold_GPUAMG(PC pc, PetscReal *v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  *v = g->setup.agg_threshold;
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetAggThreshold - aggregation strength: |a_ij| >= eps sqrt(|a_ii a_jj|)

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
-  v - the value

   Options Database Key:
.  -pc_gpuamg_agg_threshold - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGGetAggThreshold()
@*/
PetscErrorCode PCGPUAMGSetAggThreshold(PC pc, PetscReal v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveReal(pc, v, 2);
  PetscTryMethod(pc, "PCGPUAMGSetAggThreshold_C", (PC, PetscReal), (pc, v));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetAggThreshold - the value set by PCGPUAMGSetAggThreshold() (-pc_gpuamg_agg_threshold)

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameter:
.  v - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetAggThreshold()
@*/
PetscErrorCode PCGPUAMGGetAggThreshold(PC pc, PetscReal *v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCGPUAMGGetAggThreshold_C", (PC, PetscReal *), (pc, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetCoarsenAcross_GPUAMG(PC pc, PetscBool v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;
  PetscInt   a = v ? -1 : 0;

  PetscFunctionBegin;
  if (g->setup.across != a) PetscCall(Invalidate(pc));
  g->setup.across = a;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetCoarsenAcross_GPUAMG(PC pc, PetscBool *v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  *v = (PetscBool)(g->setup.across != 0);
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetCoarsenAcross - whether classical PC gpuamg coarsens across ranks on several ranks

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
-  v - PETSC_TRUE (the default): pmis and hmis with direct, standard, ext+i or simple interpolation coarsen across
       ranks (the strength graph and the PMIS rounds include the couplings to other ranks, interpolation reaches other
       ranks' C points); PETSC_FALSE: each rank coarsens its own rows, couplings to other ranks lumped into the diagonal

   Options Database Key:
.  -pc_gpuamg_coarsen_across - the value

   Notes:
   Across ranks, pmis gives the same splitting on any number of ranks, so the iterations do not grow with the ranks
   (bench/NOTES.md, section "amgmpi"). rs, cljp, multipass interpolation, aggressive levels, systems AMG (block size
   > 1) and aggregation stay rank-local; -ksp_view says which levels were coarsened across ranks. The device setup
   across ranks (classical pmis or hmis with direct, standard or ext+i) always coarsens across ranks: PETSC_FALSE
   sends the setup to the host.

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGGetCoarsenAcross(), PCGPUAMGSetCoarsenType()
@*/
PetscErrorCode PCGPUAMGSetCoarsenAcross(PC pc, PetscBool v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveBool(pc, v, 2);
  PetscTryMethod(pc, "PCGPUAMGSetCoarsenAcross_C", (PC, PetscBool), (pc, v));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetCoarsenAcross - the value set by PCGPUAMGSetCoarsenAcross() (-pc_gpuamg_coarsen_across)

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameter:
.  v - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetCoarsenAcross()
@*/
PetscErrorCode PCGPUAMGGetCoarsenAcross(PC pc, PetscBool *v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidBoolPointer(v, 2);
  PetscUseMethod(pc, "PCGPUAMGGetCoarsenAcross_C", (PC, PetscBool *), (pc, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetAggressiveLevels_GPUAMG(PC pc, PetscInt v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  PetscCheck(v >= 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_aggressive_levels must be >= 0");
  if (g->setup.aggressive_levels != v) PetscCall(Invalidate(pc));
  g->setup.aggressive_levels = v;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetAggressiveLevels_GPUAMG(PC pc, PetscInt *v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  *v = g->setup.aggressive_levels;
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetAggressiveLevels - aggressive coarsening on the first k levels

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
-  v - the value

   Options Database Key:
.  -pc_gpuamg_aggressive_levels - the value

   Notes:
   Classical AMG coarsens the C points of those levels again on the distance-two strength graph; aggregation
   aggregates on the square of the strength graph (GAMG's -pc_gamg_square_graph), which makes the aggregates about
   five times larger in 3D: fewer levels and a lower operator complexity for a few more iterations (bench/NOTES.md,
   section "amgconv"). The default is 0.

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGGetAggressiveLevels()
@*/
PetscErrorCode PCGPUAMGSetAggressiveLevels(PC pc, PetscInt v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, v, 2);
  PetscTryMethod(pc, "PCGPUAMGSetAggressiveLevels_C", (PC, PetscInt), (pc, v));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetAggressiveLevels - the value set by PCGPUAMGSetAggressiveLevels() (-pc_gpuamg_aggressive_levels)

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameter:
.  v - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetAggressiveLevels()
@*/
PetscErrorCode PCGPUAMGGetAggressiveLevels(PC pc, PetscInt *v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCGPUAMGGetAggressiveLevels_C", (PC, PetscInt *), (pc, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetTruncMax_GPUAMG(PC pc, PetscInt v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  PetscCheck(v >= 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_trunc_max must be >= 0");
  if (g->setup.trunc_max != v) PetscCall(Invalidate(pc));
  g->setup.trunc_max = v;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetTruncMax_GPUAMG(PC pc, PetscInt *v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  *v = g->setup.trunc_max;
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetTruncMax - interpolation truncation: at most this many entries per row (0: no limit)

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
-  v - the value

   Options Database Key:
.  -pc_gpuamg_trunc_max - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGGetTruncMax()
@*/
PetscErrorCode PCGPUAMGSetTruncMax(PC pc, PetscInt v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, v, 2);
  PetscTryMethod(pc, "PCGPUAMGSetTruncMax_C", (PC, PetscInt), (pc, v));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetTruncMax - the value set by PCGPUAMGSetTruncMax() (-pc_gpuamg_trunc_max)

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameter:
.  v - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetTruncMax()
@*/
PetscErrorCode PCGPUAMGGetTruncMax(PC pc, PetscInt *v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCGPUAMGGetTruncMax_C", (PC, PetscInt *), (pc, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetTruncFactor_GPUAMG(PC pc, PetscReal v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  PetscCheck(v >= 0 && v < 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_trunc_factor must be in [0, 1)");
  if (g->setup.trunc_factor != v) PetscCall(Invalidate(pc));
  g->setup.trunc_factor = v;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetTruncFactor_GPUAMG(PC pc, PetscReal *v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  *v = g->setup.trunc_factor;
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetTruncFactor - interpolation truncation: drop entries below this times the largest of the row (0: none)

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
-  v - the value

   Options Database Key:
.  -pc_gpuamg_trunc_factor - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGGetTruncFactor()
@*/
PetscErrorCode PCGPUAMGSetTruncFactor(PC pc, PetscReal v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveReal(pc, v, 2);
  PetscTryMethod(pc, "PCGPUAMGSetTruncFactor_C", (PC, PetscReal), (pc, v));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetTruncFactor - the value set by PCGPUAMGSetTruncFactor() (-pc_gpuamg_trunc_factor)

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameter:
.  v - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetTruncFactor()
@*/
PetscErrorCode PCGPUAMGGetTruncFactor(PC pc, PetscReal *v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCGPUAMGGetTruncFactor_C", (PC, PetscReal *), (pc, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetTruncRescale_GPUAMG(PC pc, PCGPUAMGTruncRescale v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  PetscCheck(v == PC_GPUAMG_TRUNC_RESCALE_SUM || v == PC_GPUAMG_TRUNC_RESCALE_SIGNS, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_trunc_rescale: unknown value %d; use sum or signs", (int)v);
  if (g->setup.trunc_rescale != v) PetscCall(Invalidate(pc));
  g->setup.trunc_rescale = v;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetTruncRescale_GPUAMG(PC pc, PCGPUAMGTruncRescale *v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  *v = g->setup.trunc_rescale;
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetTruncRescale - how a truncated interpolation row is rescaled so its sum is unchanged: one factor for the
   row (PC_GPUAMG_TRUNC_RESCALE_SUM, BoomerAMG's, the default) or one factor for its positive and one for its negative
   entries (PC_GPUAMG_TRUNC_RESCALE_SIGNS, Stueben's)

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
-  v - the rescaling

   Options Database Key:
.  -pc_gpuamg_trunc_rescale <sum,signs> - the rescaling

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGGetTruncRescale(), PCGPUAMGSetTruncMax(), PCGPUAMGSetTruncFactor()
@*/
PetscErrorCode PCGPUAMGSetTruncRescale(PC pc, PCGPUAMGTruncRescale v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, v, 2);
  PetscTryMethod(pc, "PCGPUAMGSetTruncRescale_C", (PC, PCGPUAMGTruncRescale), (pc, v));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetTruncRescale - the rescaling set by PCGPUAMGSetTruncRescale() (-pc_gpuamg_trunc_rescale)

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameter:
.  v - the rescaling

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetTruncRescale()
@*/
PetscErrorCode PCGPUAMGGetTruncRescale(PC pc, PCGPUAMGTruncRescale *v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidPointer(v, 2);
  PetscUseMethod(pc, "PCGPUAMGGetTruncRescale_C", (PC, PCGPUAMGTruncRescale *), (pc, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetAggSmooths_GPUAMG(PC pc, PetscInt v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  PetscCheck(v >= 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_agg_smooths must be >= 0");
  if (g->setup.agg_smooths != v) PetscCall(Invalidate(pc));
  g->setup.agg_smooths = v;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetAggSmooths_GPUAMG(PC pc, PetscInt *v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  *v = g->setup.agg_smooths;
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetAggSmooths - prolongator smoothing steps of aggregation (0: unsmoothed)

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
-  v - the value

   Options Database Key:
.  -pc_gpuamg_agg_smooths - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGGetAggSmooths()
@*/
PetscErrorCode PCGPUAMGSetAggSmooths(PC pc, PetscInt v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, v, 2);
  PetscTryMethod(pc, "PCGPUAMGSetAggSmooths_C", (PC, PetscInt), (pc, v));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetAggSmooths - the value set by PCGPUAMGSetAggSmooths() (-pc_gpuamg_agg_smooths)

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameter:
.  v - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetAggSmooths()
@*/
PetscErrorCode PCGPUAMGGetAggSmooths(PC pc, PetscInt *v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCGPUAMGGetAggSmooths_C", (PC, PetscInt *), (pc, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetMaxLevels_GPUAMG(PC pc, PetscInt v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  PetscCheck(v >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_max_levels must be >= 1");
  if (g->setup.max_levels != v) PetscCall(Invalidate(pc));
  g->setup.max_levels = v;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetMaxLevels_GPUAMG(PC pc, PetscInt *v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  *v = g->setup.max_levels;
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetMaxLevels - at most this many levels

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
-  v - the value

   Options Database Key:
.  -pc_gpuamg_max_levels - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGGetMaxLevels()
@*/
PetscErrorCode PCGPUAMGSetMaxLevels(PC pc, PetscInt v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, v, 2);
  PetscTryMethod(pc, "PCGPUAMGSetMaxLevels_C", (PC, PetscInt), (pc, v));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetMaxLevels - the value set by PCGPUAMGSetMaxLevels() (-pc_gpuamg_max_levels)

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameter:
.  v - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetMaxLevels()
@*/
PetscErrorCode PCGPUAMGGetMaxLevels(PC pc, PetscInt *v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCGPUAMGGetMaxLevels_C", (PC, PetscInt *), (pc, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetMaxCoarse_GPUAMG(PC pc, PetscInt v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  PetscCheck(v >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_max_coarse must be >= 1");
  if (g->setup.max_coarse != v) PetscCall(Invalidate(pc));
  g->setup.max_coarse = v;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetMaxCoarse_GPUAMG(PC pc, PetscInt *v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  *v = g->setup.max_coarse;
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetMaxCoarse - stop coarsening at this many rows (the last level is inverted densely)

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
-  v - the value

   Options Database Key:
.  -pc_gpuamg_max_coarse - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGGetMaxCoarse()
@*/
PetscErrorCode PCGPUAMGSetMaxCoarse(PC pc, PetscInt v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, v, 2);
  PetscTryMethod(pc, "PCGPUAMGSetMaxCoarse_C", (PC, PetscInt), (pc, v));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetMaxCoarse - the value set by PCGPUAMGSetMaxCoarse() (-pc_gpuamg_max_coarse)

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameter:
.  v - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetMaxCoarse()
@*/
PetscErrorCode PCGPUAMGGetMaxCoarse(PC pc, PetscInt *v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCGPUAMGGetMaxCoarse_C", (PC, PetscInt *), (pc, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetCoarseEqLimit_GPUAMG(PC pc, PetscInt v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  PetscCheck(v >= 0 || v == PETSC_DEFAULT, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_coarse_eq_limit must be >= 0 (0: never agglomerate) or PETSC_DEFAULT");
  if (v == PETSC_DEFAULT) v = -1;
  if (g->setup.coarse_eq_limit != v) PetscCall(Invalidate(pc));
  g->setup.coarse_eq_limit = v;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetCoarseEqLimit_GPUAMG(PC pc, PetscInt *v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  *v = GPUPCAMGCoarseEqLimit(&g->setup); /* the value in effect (the default depends on the coarsening) */
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetCoarseEqLimit - on several ranks, a coarse level that would have fewer rows a rank than this goes to
   fewer ranks (about this many rows each: the first of each group of consecutive ranks takes the group's points; 0: never)

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
-  v - rows a rank (PETSC_DEFAULT: 10000 with pmis coarsening, 0 with the others)

   Options Database Key:
.  -pc_gpuamg_coarse_eq_limit - the value

   Notes:
   A coarse level with few rows a rank costs each product of the cycle a halo exchange whatever its size, with more
   neighbours as the Galerkin stencils widen; on fewer ranks its exchanges reach fewer ranks, and the ranks left
   without rows skip them. The coarse points keep their global numbers, so coarsening across ranks (pmis) gives the
   same hierarchy; with hmis, rs or cljp the coarse levels split differently on fewer ranks, hence not by default.
   Done for classical coarsening of scalar problems; -ksp_view shows the ranks of every level.

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGGetCoarseEqLimit(), PCGPUAMGSetMaxCoarse()
@*/
PetscErrorCode PCGPUAMGSetCoarseEqLimit(PC pc, PetscInt v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, v, 2);
  PetscTryMethod(pc, "PCGPUAMGSetCoarseEqLimit_C", (PC, PetscInt), (pc, v));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetCoarseEqLimit - the value set by PCGPUAMGSetCoarseEqLimit() (-pc_gpuamg_coarse_eq_limit)

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameter:
.  v - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetCoarseEqLimit()
@*/
PetscErrorCode PCGPUAMGGetCoarseEqLimit(PC pc, PetscInt *v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidIntPointer(v, 2);
  PetscUseMethod(pc, "PCGPUAMGGetCoarseEqLimit_C", (PC, PetscInt *), (pc, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetSetupThreads_GPUAMG(PC pc, PetscInt v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  PetscCheck(v >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_setup_threads must be >= 1");
  if (g->setup.threads != v) PetscCall(Invalidate(pc));
  g->setup.threads = v;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetSetupThreads_GPUAMG(PC pc, PetscInt *v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  *v = g->setup.threads;
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetSetupThreads - host threads of the setup

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
-  v - the value

   Options Database Key:
.  -pc_gpuamg_setup_threads - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGGetSetupThreads()
@*/
PetscErrorCode PCGPUAMGSetSetupThreads(PC pc, PetscInt v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, v, 2);
  PetscTryMethod(pc, "PCGPUAMGSetSetupThreads_C", (PC, PetscInt), (pc, v));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetSetupThreads - the value set by PCGPUAMGSetSetupThreads() (-pc_gpuamg_setup_threads)

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameter:
.  v - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetSetupThreads()
@*/
PetscErrorCode PCGPUAMGGetSetupThreads(PC pc, PetscInt *v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCGPUAMGGetSetupThreads_C", (PC, PetscInt *), (pc, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetCycleType_GPUAMG(PC pc, PCGPUAMGCycleType v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  PetscCheck((int)v >= 0 && (int)v < 3, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_cycle: no value %d", (int)v);
  if (g->cyc.cycle != v) PetscCall(Invalidate(pc));
  g->cyc.cycle = v;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetCycleType_GPUAMG(PC pc, PCGPUAMGCycleType *v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  *v = g->cyc.cycle;
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetCycleType - multigrid cycle

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
-  v - the value

   Options Database Key:
.  -pc_gpuamg_cycle - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGGetCycleType()
@*/
PetscErrorCode PCGPUAMGSetCycleType(PC pc, PCGPUAMGCycleType v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, v, 2);
  PetscTryMethod(pc, "PCGPUAMGSetCycleType_C", (PC, PCGPUAMGCycleType), (pc, v));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetCycleType - the value set by PCGPUAMGSetCycleType() (-pc_gpuamg_cycle)

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameter:
.  v - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetCycleType()
@*/
PetscErrorCode PCGPUAMGGetCycleType(PC pc, PCGPUAMGCycleType *v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCGPUAMGGetCycleType_C", (PC, PCGPUAMGCycleType *), (pc, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetSmoother_GPUAMG(PC pc, PCGPUAMGSmootherType v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;
  PetscBool  found;

  PetscFunctionBegin;
  PetscCall(GPUPCAMGSmootherFind(v, NULL, &found));
  PetscCheck(found, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_UNKNOWN_TYPE, "-pc_gpuamg_smoother %s: no smoother of that name is registered (-help lists them; PCGPUAMGSmootherRegister() adds one)", v);
  if (strcmp(g->cyc.smoother, v)) PetscCall(Invalidate(pc));
  PetscCall(PetscStrncpy(g->cyc.smoother, v, sizeof(g->cyc.smoother)));
  g->smoother_set = PETSC_TRUE;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetSmoother_GPUAMG(PC pc, PCGPUAMGSmootherType *v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  *v = g->cyc.smoother;
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetSmoother - the smoother of every level but the last, by its name in the registry

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
-  v - the name: jacobi, l1jacobi, chebyshev, polynomial, or one added with PCGPUAMGSmootherRegister()

   Options Database Key:
.  -pc_gpuamg_smoother <name> - the smoother (-help lists the registry)

   Notes:
   Without this call the smoother follows the type (PCGPUAMGSetType()): l1jacobi for classical, chebyshev for agg.
   Once called, the smoother stays as set when the type changes.

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGGetSmoother(), PCGPUAMGSetType(), PCGPUAMGSmootherRegister()
@*/
PetscErrorCode PCGPUAMGSetSmoother(PC pc, PCGPUAMGSmootherType v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidCharPointer(v, 2);
  PetscTryMethod(pc, "PCGPUAMGSetSmoother_C", (PC, PCGPUAMGSmootherType), (pc, v));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetSmoother - the name of the smoother in use (PCGPUAMGSetSmoother(), -pc_gpuamg_smoother, or the type's
   default)

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameter:
.  v - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetSmoother()
@*/
PetscErrorCode PCGPUAMGGetSmoother(PC pc, PCGPUAMGSmootherType *v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidPointer(v, 2);
  PetscUseMethod(pc, "PCGPUAMGGetSmoother_C", (PC, PCGPUAMGSmootherType *), (pc, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetJacobiWeight_GPUAMG(PC pc, PetscReal v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  PetscCheck(v > 0 && v < 2, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_jacobi_weight must be in (0, 2)");
  if (g->cyc.weight != v) PetscCall(Invalidate(pc));
  g->cyc.weight = v;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetJacobiWeight_GPUAMG(PC pc, PetscReal *v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  *v = GPUPCAMGCycleWeight(&g->cyc);
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetJacobiWeight - the factor w on the damping: jacobi damps level l by omega_l = w 4 / (3 lambda_l),
   lambda_l the level's bound of lambda_max(D^-1 A) (Lanczos and Gershgorin, shown by -ksp_view); l1jacobi by w.
   Default 1.

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
-  v - the value

   Options Database Key:
.  -pc_gpuamg_jacobi_weight - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGGetJacobiWeight()
@*/
PetscErrorCode PCGPUAMGSetJacobiWeight(PC pc, PetscReal v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveReal(pc, v, 2);
  PetscTryMethod(pc, "PCGPUAMGSetJacobiWeight_C", (PC, PetscReal), (pc, v));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetJacobiWeight - the factor w in use: the value set by PCGPUAMGSetJacobiWeight() (-pc_gpuamg_jacobi_weight),
   or the default 1

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameter:
.  v - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetJacobiWeight()
@*/
PetscErrorCode PCGPUAMGGetJacobiWeight(PC pc, PetscReal *v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCGPUAMGGetJacobiWeight_C", (PC, PetscReal *), (pc, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetChebyshevDegree_GPUAMG(PC pc, PetscInt v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  PetscCheck(v >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_chebyshev_degree must be >= 1");
  if (g->cyc.cheby_degree != v) PetscCall(Invalidate(pc));
  g->cyc.cheby_degree = v;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetChebyshevDegree_GPUAMG(PC pc, PetscInt *v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  *v = g->cyc.cheby_degree;
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetChebyshevDegree - products with A per Chebyshev sweep

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
-  v - the value

   Options Database Key:
.  -pc_gpuamg_chebyshev_degree - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGGetChebyshevDegree()
@*/
PetscErrorCode PCGPUAMGSetChebyshevDegree(PC pc, PetscInt v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, v, 2);
  PetscTryMethod(pc, "PCGPUAMGSetChebyshevDegree_C", (PC, PetscInt), (pc, v));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetChebyshevDegree - the value set by PCGPUAMGSetChebyshevDegree() (-pc_gpuamg_chebyshev_degree)

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameter:
.  v - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetChebyshevDegree()
@*/
PetscErrorCode PCGPUAMGGetChebyshevDegree(PC pc, PetscInt *v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCGPUAMGGetChebyshevDegree_C", (PC, PetscInt *), (pc, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetPolynomialDegree_GPUAMG(PC pc, PetscInt v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  PetscCheck(v >= 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_polynomial_degree must be >= 0");
  if (g->cyc.poly_degree != v) PetscCall(Invalidate(pc));
  g->cyc.poly_degree = v;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetPolynomialDegree_GPUAMG(PC pc, PetscInt *v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  *v = g->cyc.poly_degree;
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetPolynomialDegree - degree m of the Neumann series I + G + ... + G^m

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
-  v - the value

   Options Database Key:
.  -pc_gpuamg_polynomial_degree - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGGetPolynomialDegree()
@*/
PetscErrorCode PCGPUAMGSetPolynomialDegree(PC pc, PetscInt v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, v, 2);
  PetscTryMethod(pc, "PCGPUAMGSetPolynomialDegree_C", (PC, PetscInt), (pc, v));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetPolynomialDegree - the value set by PCGPUAMGSetPolynomialDegree() (-pc_gpuamg_polynomial_degree)

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameter:
.  v - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetPolynomialDegree()
@*/
PetscErrorCode PCGPUAMGGetPolynomialDegree(PC pc, PetscInt *v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCGPUAMGGetPolynomialDegree_C", (PC, PetscInt *), (pc, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetUseGraph_GPUAMG(PC pc, PetscBool v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  if (g->cyc.graph != v) PetscCall(Invalidate(pc));
  g->cyc.graph = v;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetUseGraph_GPUAMG(PC pc, PetscBool *v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  *v = g->cyc.graph;
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetUseGraph - record the cycle as a CUDA graph (one rank, cuda backend)

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
-  v - the value

   Options Database Key:
.  -pc_gpuamg_use_graph - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGGetUseGraph()
@*/
PetscErrorCode PCGPUAMGSetUseGraph(PC pc, PetscBool v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveBool(pc, v, 2);
  PetscTryMethod(pc, "PCGPUAMGSetUseGraph_C", (PC, PetscBool), (pc, v));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetUseGraph - the value set by PCGPUAMGSetUseGraph() (-pc_gpuamg_use_graph)

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameter:
.  v - the value

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetUseGraph()
@*/
PetscErrorCode PCGPUAMGGetUseGraph(PC pc, PetscBool *v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCGPUAMGGetUseGraph_C", (PC, PetscBool *), (pc, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetSweeps_GPUAMG(PC pc, PetscInt pre, PetscInt post)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  PetscCheck(pre >= 0 && post >= 0 && pre + post >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_pre_sweeps %" PetscInt_FMT " and -pc_gpuamg_post_sweeps %" PetscInt_FMT ": each must be >= 0 and together >= 1", pre, post);
  if (g->cyc.pre != pre || g->cyc.post != post) PetscCall(Invalidate(pc));
  g->cyc.pre  = pre;
  g->cyc.post = post;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetSweeps_GPUAMG(PC pc, PetscInt *pre, PetscInt *post)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PCGPUAMGSmootherOps ops;
  PetscBool           found;

  PetscFunctionBegin;
  PetscCall(GPUPCAMGSmootherFind(g->cyc.smoother, &ops, &found));
  if (pre) *pre = g->cyc.pre == PETSC_DEFAULT && found ? ops.default_sweeps : g->cyc.pre;
  if (post) *post = g->cyc.post == PETSC_DEFAULT && found ? ops.default_sweeps : g->cyc.post;
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetSweeps - smoothing sweeps before and after the coarse correction of PC gpuamg (a V(pre,post) cycle)

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
.  pre - sweeps before (>= 0)
-  post - sweeps after (>= 0; pre + post >= 1; pre == post keeps the cycle symmetric for CG)

   Options Database Keys:
+  -pc_gpuamg_pre_sweeps - pre
-  -pc_gpuamg_post_sweeps - post

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGGetSweeps()
@*/
PetscErrorCode PCGPUAMGSetSweeps(PC pc, PetscInt pre, PetscInt post)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, pre, 2);
  PetscValidLogicalCollectiveInt(pc, post, 3);
  PetscTryMethod(pc, "PCGPUAMGSetSweeps_C", (PC, PetscInt, PetscInt), (pc, pre, post));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetSweeps - the sweep counts set by PCGPUAMGSetSweeps()

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameters:
+  pre - sweeps before the coarse correction (may be NULL)
-  post - sweeps after (may be NULL)

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetSweeps()
@*/
PetscErrorCode PCGPUAMGGetSweeps(PC pc, PetscInt *pre, PetscInt *post)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCGPUAMGGetSweeps_C", (PC, PetscInt *, PetscInt *), (pc, pre, post));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetMatType_GPUAMG(PC pc, MatType t)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;
  PetscBool  same;

  PetscFunctionBegin;
  PetscCheck(!strcmp(t, MATSEGCSR) || !strcmp(t, MATHEC) || !strcmp(t, MATBCSR) || !strcmp(t, "auto"), PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_UNKNOWN_TYPE, "-pc_gpuamg_mat_type %s: the device format of PC gpuamg's levels is one of segcsr, hec, bcsr or auto (per matrix)", t);
  PetscCall(PetscStrcmp(g->cyc.mattype, t, &same));
  if (!same) PetscCall(Invalidate(pc));
  PetscCall(PetscStrncpy(g->cyc.mattype, t, sizeof(g->cyc.mattype)));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetMatType_GPUAMG(PC pc, MatType *t)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  *t = g->cyc.mattype;
  PetscFunctionReturn(0);
}

/*@C
   PCGPUAMGSetMatType - the device format of PC gpuamg's level matrices, prolongators and restrictions

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
-  t - MATSEGCSR (the default), MATHEC, MATBCSR, or "auto": per matrix (A, P and R of every level) the format the
       shared device-Mat layer picks from the row lengths and block structure (gpupc/devmat.h), the same on every rank

   Options Database Key:
.  -pc_gpuamg_mat_type <segcsr,hec,bcsr,auto> - the format

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGGetMatType(), MATSEGCSR
@*/
PetscErrorCode PCGPUAMGSetMatType(PC pc, MatType t)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscTryMethod(pc, "PCGPUAMGSetMatType_C", (PC, MatType), (pc, t));
  PetscFunctionReturn(0);
}

/*@C
   PCGPUAMGGetMatType - the device format set by PCGPUAMGSetMatType()

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameter:
.  t - the format

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetMatType()
@*/
PetscErrorCode PCGPUAMGGetMatType(PC pc, MatType *t)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCGPUAMGGetMatType_C", (PC, MatType *), (pc, t));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetNumberOfLevels_GPUAMG(PC pc, PetscInt *n)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  *n = g->built ? g->hier.nlevels : 0;
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetNumberOfLevels - the levels of the hierarchy PC gpuamg built (0 before PCSetUp)

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameter:
.  n - the number of levels

   Level: intermediate

.seealso: PCGPUAMG
@*/
PetscErrorCode PCGPUAMGGetNumberOfLevels(PC pc, PetscInt *n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCGPUAMGGetNumberOfLevels_C", (PC, PetscInt *), (pc, n));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetSetupLocation_GPUAMG(PC pc, PCGPUAMGSetupLocation v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  PetscCheck(v == PC_GPUAMG_SETUP_HOST || v == PC_GPUAMG_SETUP_DEVICE, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_setup must be host or device, got %d", (int)v);
  if (!g->setup.location_set || g->setup.location != v) PetscCall(Invalidate(pc));
  g->setup.location     = v;
  g->setup.location_set = PETSC_TRUE;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetSetupLocation_GPUAMG(PC pc, PCGPUAMGSetupLocation *v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  if (g->setup.location_set) *v = g->setup.location;
  else {
    PetscGPUPCBackend b;
    PetscCall(PetscGPUPCGetBackend(&b));
    *v = b == PETSC_GPUPC_BACKEND_CUDA ? PC_GPUAMG_SETUP_DEVICE : PC_GPUAMG_SETUP_HOST;
  }
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetSetupLocation - where PC gpuamg builds its hierarchy: on the host or with the device setup's kernels

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
-  v  - PC_GPUAMG_SETUP_HOST or PC_GPUAMG_SETUP_DEVICE

   Options Database Key:
.  -pc_gpuamg_setup <host,device> - the location

   Notes:
   The default is device on the cuda backend and host on the host backend; on the host backend, device runs the
   device setup through the host kernel table (what CI tests). The device setup covers one rank, classical AMG with
   pmis (aggressive levels included) or hmis coarsening and direct, standard, ext+i or multipass interpolation, scalar
   problems, and smoothed aggregation without aggressive levels; for anything else the host setup runs and -ksp_view
   says why. Both give the same strength graph, C/F splitting and prolongators (the Galerkin products agree up to
   rounding), except for hmis: the device's runs its Ruge-Stueben first pass on subdomains of consecutive rows
   (PCGPUAMGSetHMISSubdomain()), then PMIS rounds, where the host's runs the first pass on the whole rank.

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGGetSetupLocation(), PCGPUAMGSetupLocation
@*/
PetscErrorCode PCGPUAMGSetSetupLocation(PC pc, PCGPUAMGSetupLocation v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, v, 2);
  PetscTryMethod(pc, "PCGPUAMGSetSetupLocation_C", (PC, PCGPUAMGSetupLocation), (pc, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetKeepHostLevels_GPUAMG(PC pc, PetscBool v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  if (g->setup.host_levels != v) PetscCall(Invalidate(pc));
  g->setup.host_levels = v;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetKeepHostLevels_GPUAMG(PC pc, PetscBool *v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  *v = g->setup.host_levels;
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetKeepHostLevels - whether PC gpuamg's device setup also keeps host (AIJ) copies of the coarse levels, the
   prolongators and the restrictions

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
-  v  - PETSC_TRUE to keep them

   Options Database Key:
.  -pc_gpuamg_keep_host_levels <bool> - keep them (default false)

   Notes:
   Without them (the default) the device setup's levels exist on the device only: the cycle applies them as device
   matrices in the format of -pc_gpuamg_mat_type, and only the last level (a few hundred rows, inverted densely) comes
   to the host. Copying the levels down and assembling them as AIJ took most of the device setup's time (about 2.5 s of
   3.2 s on a 7.2M-row Poisson problem). Smoothers that read the host matrix of a level (bjacobi) make the copies
   whatever this says; every level format (bcsr too) is laid out from the device setup's CSR on the device. The host setup always has its levels on the host.

   Level: advanced

.seealso: PCGPUAMG, PCGPUAMGGetKeepHostLevels(), PCGPUAMGSetSetupLocation()
@*/
PetscErrorCode PCGPUAMGSetKeepHostLevels(PC pc, PetscBool v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveBool(pc, v, 2);
  PetscTryMethod(pc, "PCGPUAMGSetKeepHostLevels_C", (PC, PetscBool), (pc, v));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetKeepHostLevels - whether PC gpuamg's device setup keeps host copies of its levels

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameter:
.  v - the setting

   Level: advanced

.seealso: PCGPUAMG, PCGPUAMGSetKeepHostLevels()
@*/
PetscErrorCode PCGPUAMGGetKeepHostLevels(PC pc, PetscBool *v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidBoolPointer(v, 2);
  PetscUseMethod(pc, "PCGPUAMGGetKeepHostLevels_C", (PC, PetscBool *), (pc, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetMPIGalerkinPtAP_GPUAMG(PC pc, PetscBool v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  if (g->setup.mpi_ptap != v) PetscCall(Invalidate(pc));
  g->setup.mpi_ptap = v;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetMPIGalerkinPtAP_GPUAMG(PC pc, PetscBool *v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  *v = g->setup.mpi_ptap;
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetMPIGalerkinPtAP - (developer) whether PC gpuamg's host setup forms the coarse levels on several ranks by
   MatPtAP instead of its per-rank products

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
-  v  - PETSC_TRUE for MatPtAP

   Options Database Key:
.  -pc_gpuamg_mpi_galerkin_ptap <bool> - MatPtAP (default false)

   Notes:
   By default each rank forms its share of P^T A P on the sparse kernel table of the backend (the rows of P that its
   ghost columns need fetched once per level, the contributions to other ranks' coarse rows sent to them and summed in
   rank order; docs/algorithms.md 4.3), and a value-only setup reruns only the numeric parts. MatPtAP on MPIAIJ is the
   reference it is tested against (the same coarse levels up to rounding). One rank is not affected.

   Level: developer

.seealso: PCGPUAMG, PCGPUAMGGetMPIGalerkinPtAP()
@*/
PetscErrorCode PCGPUAMGSetMPIGalerkinPtAP(PC pc, PetscBool v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveBool(pc, v, 2);
  PetscTryMethod(pc, "PCGPUAMGSetMPIGalerkinPtAP_C", (PC, PetscBool), (pc, v));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetMPIGalerkinPtAP - (developer) whether PC gpuamg forms its coarse levels on several ranks by MatPtAP

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameter:
.  v - the setting

   Level: developer

.seealso: PCGPUAMG, PCGPUAMGSetMPIGalerkinPtAP()
@*/
PetscErrorCode PCGPUAMGGetMPIGalerkinPtAP(PC pc, PetscBool *v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidBoolPointer(v, 2);
  PetscUseMethod(pc, "PCGPUAMGGetMPIGalerkinPtAP_C", (PC, PetscBool *), (pc, v));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetSetupLocation - where PC gpuamg builds its hierarchy (the value set, or the backend's default)

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameter:
.  v - PC_GPUAMG_SETUP_HOST or PC_GPUAMG_SETUP_DEVICE (what was asked for: -ksp_view says where it ran)

   Level: intermediate

.seealso: PCGPUAMG, PCGPUAMGSetSetupLocation()
@*/
PetscErrorCode PCGPUAMGGetSetupLocation(PC pc, PCGPUAMGSetupLocation *v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCGPUAMGGetSetupLocation_C", (PC, PCGPUAMGSetupLocation *), (pc, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetInterpTuning_GPUAMG(PC pc, PetscInt small_level, PetscInt long_row, PetscInt long_slots, PetscInt long_slots_big)
{
  PC_GPUAMG           *g = (PC_GPUAMG *)pc->data;
  GPUPCAMGInterpTuning t = g->setup.interp_tuning, def;

  PetscFunctionBegin;
  PetscCall(GPUPCAMGInterpTuningDefault(&def));
  t.small_level    = small_level == PETSC_DEFAULT ? def.small_level : small_level;
  t.long_row       = long_row == PETSC_DEFAULT ? def.long_row : long_row;
  t.long_slots     = long_slots == PETSC_DEFAULT ? def.long_slots : long_slots;
  t.long_slots_big = long_slots_big == PETSC_DEFAULT ? def.long_slots_big : long_slots_big;
  PetscCheck(t.long_row >= -1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_dev_interp_long_row %" PetscInt_FMT " must be >= 0 (or -1: by the level's size)", t.long_row);
  PetscCall(GPUPCAMGInterpTuningCheck(PetscObjectComm((PetscObject)pc), &t));
  if (t.small_level != g->setup.interp_tuning.small_level || t.long_row != g->setup.interp_tuning.long_row || t.long_slots != g->setup.interp_tuning.long_slots || t.long_slots_big != g->setup.interp_tuning.long_slots_big) PetscCall(Invalidate(pc));
  g->setup.interp_tuning = t;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetInterpTuning_GPUAMG(PC pc, PetscInt *small_level, PetscInt *long_row, PetscInt *long_slots, PetscInt *long_slots_big)
{
  const GPUPCAMGInterpTuning *t = &((PC_GPUAMG *)pc->data)->setup.interp_tuning;

  PetscFunctionBegin;
  if (small_level) *small_level = t->small_level;
  if (long_row) *long_row = t->long_row;
  if (long_slots) *long_slots = t->long_slots;
  if (long_slots_big) *long_slots_big = t->long_slots_big;
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetInterpTuning - developers' tuning of the device setup's ext+i interpolation kernels on the cuda backend:
   which rows take a warp and the hash tables of the warp passes (the host backend ignores it)

   Logically Collective

   Input Parameters:
+  pc             - the PC gpuamg
.  small_level    - on levels of fewer rows every ext+i F row takes a warp (>= 0; PETSC_DEFAULT: 500000)
.  long_row       - >= 0: on every level, the rows of more candidates take a warp; -1 or PETSC_DEFAULT: by small_level
                    (0 below it, 64 above)
.  long_slots     - hash slots per row of the first warp pass, a power of 2 from 64 (PETSC_DEFAULT: 256)
-  long_slots_big - hash slots of the last pass, a power of 2 from 64 to 8192 (PETSC_DEFAULT: 8192); rows whose
                    distinct points overflow it are built by one lane

   Options Database Keys:
+  -pc_gpuamg_dev_interp_small_level - small_level
.  -pc_gpuamg_dev_interp_long_row - long_row
.  -pc_gpuamg_dev_interp_long_slots - long_slots
-  -pc_gpuamg_dev_interp_long_slots_big - long_slots_big

   Notes:
   The interpolation is the same for every value (the kernels sum in one order); only its time changes. The values
   that send rows through every pass and the one-lane fallback are for tests (tests/kernel_equiv_amgsetup.c); the
   defaults come from ksp ex45 193^3 on an H200 (src/pc/impls/gpuamg/cuda/amgsetupkernels.cu says why).

   Level: developer

.seealso: PCGPUAMG, PCGPUAMGGetInterpTuning(), PCGPUAMGSetSetupLocation()
@*/
PetscErrorCode PCGPUAMGSetInterpTuning(PC pc, PetscInt small_level, PetscInt long_row, PetscInt long_slots, PetscInt long_slots_big)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, small_level, 2);
  PetscValidLogicalCollectiveInt(pc, long_row, 3);
  PetscValidLogicalCollectiveInt(pc, long_slots, 4);
  PetscValidLogicalCollectiveInt(pc, long_slots_big, 5);
  PetscTryMethod(pc, "PCGPUAMGSetInterpTuning_C", (PC, PetscInt, PetscInt, PetscInt, PetscInt), (pc, small_level, long_row, long_slots, long_slots_big));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetInterpTuning - the values set by PCGPUAMGSetInterpTuning() (defaults resolved)

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameters:
+  small_level    - (may be NULL)
.  long_row       - -1: by small_level (may be NULL)
.  long_slots     - (may be NULL)
-  long_slots_big - (may be NULL)

   Level: developer

.seealso: PCGPUAMG, PCGPUAMGSetInterpTuning()
@*/
PetscErrorCode PCGPUAMGGetInterpTuning(PC pc, PetscInt *small_level, PetscInt *long_row, PetscInt *long_slots, PetscInt *long_slots_big)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCGPUAMGGetInterpTuning_C", (PC, PetscInt *, PetscInt *, PetscInt *, PetscInt *), (pc, small_level, long_row, long_slots, long_slots_big));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetHMISSubdomain_GPUAMG(PC pc, PetscInt B)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  if (B == PETSC_DEFAULT) B = GPUPC_AMG_HMIS_SUBDOMAIN;
  PetscCheck(B >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_dev_hmis_subdomain %" PetscInt_FMT " must be at least 1 (rows of a subdomain)", B);
  if (B != g->setup.hmis_subdomain) PetscCall(Invalidate(pc));
  g->setup.hmis_subdomain = B;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetHMISSubdomain_GPUAMG(PC pc, PetscInt *B)
{
  PetscFunctionBegin;
  *B = ((PC_GPUAMG *)pc->data)->setup.hmis_subdomain;
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetHMISSubdomain - the rows of a subdomain of the device setup's hmis coarsening: its Ruge-Stueben first pass
   runs inside each subdomain of B consecutive rows (on the strong couplings between them), then the points left
   undecided go through PMIS rounds (HMIS as De Sterck, Yang and Heys define it for several processors, a subdomain
   standing for a processor)

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
-  B  - rows per subdomain, at least 1 (PETSC_DEFAULT: 4096)

   Options Database Key:
.  -pc_gpuamg_dev_hmis_subdomain <B> - the rows per subdomain

   Notes:
   Only the device setup (-pc_gpuamg_setup device, one rank) reads it; the host setup's hmis runs the first pass on
   each rank's rows. A B at least the rows of the level gives the host setup's splitting on one rank; small B gives
   more points to the PMIS rounds, whose coarse grids are denser. On the cuda backend a subdomain of up to 16384 rows
   takes a block of threads, a larger one a single thread.

   Level: developer

.seealso: PCGPUAMG, PCGPUAMGGetHMISSubdomain(), PCGPUAMGSetCoarsenType(), PCGPUAMGSetSetupLocation()
@*/
PetscErrorCode PCGPUAMGSetHMISSubdomain(PC pc, PetscInt B)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, B, 2);
  PetscTryMethod(pc, "PCGPUAMGSetHMISSubdomain_C", (PC, PetscInt), (pc, B));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetHMISSubdomain - the rows of a subdomain of the device setup's hmis (PCGPUAMGSetHMISSubdomain())

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameter:
.  B - rows per subdomain

   Level: developer

.seealso: PCGPUAMG, PCGPUAMGSetHMISSubdomain()
@*/
PetscErrorCode PCGPUAMGGetHMISSubdomain(PC pc, PetscInt *B)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidIntPointer(B, 2);
  PetscUseMethod(pc, "PCGPUAMGGetHMISSubdomain_C", (PC, PetscInt *), (pc, B));
  PetscFunctionReturn(0);
}

/* composes (or removes, with set PETSC_FALSE) every option function on pc */
PetscErrorCode PCGPUAMGComposeOptionFunctions_Private(PC pc, PetscBool set)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetType_C", set ? PCGPUAMGSetType_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetType_C", set ? PCGPUAMGGetType_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetCoarsenType_C", set ? PCGPUAMGSetCoarsenType_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetCoarsenType_C", set ? PCGPUAMGGetCoarsenType_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetInterpType_C", set ? PCGPUAMGSetInterpType_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetInterpType_C", set ? PCGPUAMGGetInterpType_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetStrongThreshold_C", set ? PCGPUAMGSetStrongThreshold_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetStrongThreshold_C", set ? PCGPUAMGGetStrongThreshold_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetAggThreshold_C", set ? PCGPUAMGSetAggThreshold_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetAggThreshold_C", set ? PCGPUAMGGetAggThreshold_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetSetupLocation_C", set ? PCGPUAMGSetSetupLocation_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetSetupLocation_C", set ? PCGPUAMGGetSetupLocation_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetKeepHostLevels_C", set ? PCGPUAMGSetKeepHostLevels_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetKeepHostLevels_C", set ? PCGPUAMGGetKeepHostLevels_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetMPIGalerkinPtAP_C", set ? PCGPUAMGSetMPIGalerkinPtAP_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetMPIGalerkinPtAP_C", set ? PCGPUAMGGetMPIGalerkinPtAP_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetCoarsenAcross_C", set ? PCGPUAMGSetCoarsenAcross_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetCoarsenAcross_C", set ? PCGPUAMGGetCoarsenAcross_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetAggressiveLevels_C", set ? PCGPUAMGSetAggressiveLevels_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetAggressiveLevels_C", set ? PCGPUAMGGetAggressiveLevels_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetTruncMax_C", set ? PCGPUAMGSetTruncMax_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetTruncMax_C", set ? PCGPUAMGGetTruncMax_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetTruncFactor_C", set ? PCGPUAMGSetTruncFactor_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetTruncFactor_C", set ? PCGPUAMGGetTruncFactor_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetTruncRescale_C", set ? PCGPUAMGSetTruncRescale_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetTruncRescale_C", set ? PCGPUAMGGetTruncRescale_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetAggSmooths_C", set ? PCGPUAMGSetAggSmooths_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetAggSmooths_C", set ? PCGPUAMGGetAggSmooths_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetMaxLevels_C", set ? PCGPUAMGSetMaxLevels_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetMaxLevels_C", set ? PCGPUAMGGetMaxLevels_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetMaxCoarse_C", set ? PCGPUAMGSetMaxCoarse_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetMaxCoarse_C", set ? PCGPUAMGGetMaxCoarse_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetCoarseEqLimit_C", set ? PCGPUAMGSetCoarseEqLimit_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetCoarseEqLimit_C", set ? PCGPUAMGGetCoarseEqLimit_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetSetupThreads_C", set ? PCGPUAMGSetSetupThreads_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetSetupThreads_C", set ? PCGPUAMGGetSetupThreads_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetCycleType_C", set ? PCGPUAMGSetCycleType_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetCycleType_C", set ? PCGPUAMGGetCycleType_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetSmoother_C", set ? PCGPUAMGSetSmoother_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetSmoother_C", set ? PCGPUAMGGetSmoother_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetJacobiWeight_C", set ? PCGPUAMGSetJacobiWeight_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetJacobiWeight_C", set ? PCGPUAMGGetJacobiWeight_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetChebyshevDegree_C", set ? PCGPUAMGSetChebyshevDegree_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetChebyshevDegree_C", set ? PCGPUAMGGetChebyshevDegree_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetPolynomialDegree_C", set ? PCGPUAMGSetPolynomialDegree_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetPolynomialDegree_C", set ? PCGPUAMGGetPolynomialDegree_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetUseGraph_C", set ? PCGPUAMGSetUseGraph_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetUseGraph_C", set ? PCGPUAMGGetUseGraph_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetSweeps_C", set ? PCGPUAMGSetSweeps_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetSweeps_C", set ? PCGPUAMGGetSweeps_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetMatType_C", set ? PCGPUAMGSetMatType_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetMatType_C", set ? PCGPUAMGGetMatType_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetNumberOfLevels_C", set ? PCGPUAMGGetNumberOfLevels_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetInterpTuning_C", set ? PCGPUAMGSetInterpTuning_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetInterpTuning_C", set ? PCGPUAMGGetInterpTuning_GPUAMG : NULL));
  PetscCall(GPUPCAMGComposeDevOptionFunctions(pc, set));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetHMISSubdomain_C", set ? PCGPUAMGSetHMISSubdomain_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetHMISSubdomain_C", set ? PCGPUAMGGetHMISSubdomain_GPUAMG : NULL));
  PetscFunctionReturn(0);
}

PetscErrorCode PCSetFromOptions_GPUAMG(PC pc, PetscOptionItems *PetscOptionsObject)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;
  PetscBool  set;
  char       mtype[64];

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "GPUAMG options");
  {
    PCGPUAMGType v = g->setup.type;
    PetscCall(PetscOptionsEnum("-pc_gpuamg_type", "classical (C/F splitting and interpolation) or agg (smoothed aggregation)", "PCGPUAMGSetType", PCGPUAMGTypes, (PetscEnum)v, (PetscEnum *)&v, &set));
    if (set) PetscCall(PCGPUAMGSetType(pc, v));
  }
  {
    PCGPUAMGSetupLocation v;
    PetscCall(PCGPUAMGGetSetupLocation(pc, &v));
    PetscCall(PetscOptionsEnum("-pc_gpuamg_setup", "where the hierarchy is built (default: device on the cuda backend, host on the host backend)", "PCGPUAMGSetSetupLocation", PCGPUAMGSetupLocations, (PetscEnum)v, (PetscEnum *)&v, &set));
    if (set) PetscCall(PCGPUAMGSetSetupLocation(pc, v));
  }
  {
    PetscBool v = g->setup.host_levels;
    PetscCall(PetscOptionsBool("-pc_gpuamg_keep_host_levels", "the device setup also keeps host (AIJ) copies of the coarse levels, P and R (default: on the device only)", "PCGPUAMGSetKeepHostLevels", v, &v, &set));
    if (set) PetscCall(PCGPUAMGSetKeepHostLevels(pc, v));
  }
  {
    PetscBool v = g->setup.mpi_ptap;
    PetscCall(PetscOptionsBool("-pc_gpuamg_mpi_galerkin_ptap", "(developer) on several ranks form the coarse levels by MatPtAP on MPIAIJ, the reference of the per-rank products", "PCGPUAMGSetMPIGalerkinPtAP", v, &v, &set));
    if (set) PetscCall(PCGPUAMGSetMPIGalerkinPtAP(pc, v));
  }
  {
    PCGPUAMGCoarsenType v = g->setup.coarsen;
    PetscCall(PetscOptionsEnum("-pc_gpuamg_coarsen", "C/F splitting of classical AMG", "PCGPUAMGSetCoarsenType", PCGPUAMGCoarsenTypes, (PetscEnum)v, (PetscEnum *)&v, &set));
    if (set) PetscCall(PCGPUAMGSetCoarsenType(pc, v));
  }
  {
    PCGPUAMGInterpType v = g->setup.interp;
    PetscCall(PetscOptionsEnum("-pc_gpuamg_interp", "interpolation of classical AMG", "PCGPUAMGSetInterpType", PCGPUAMGInterpTypes, (PetscEnum)v, (PetscEnum *)&v, &set));
    if (set) PetscCall(PCGPUAMGSetInterpType(pc, v));
  }
  {
    PetscReal v = g->setup.strong_threshold;
    PetscCall(PetscOptionsReal("-pc_gpuamg_strong_threshold", "classical strength: -a_ij >= theta max_k(-a_ik)", "PCGPUAMGSetStrongThreshold", v, &v, &set));
    if (set) PetscCall(PCGPUAMGSetStrongThreshold(pc, v));
  }
  {
    PetscReal v = g->setup.agg_threshold;
    PetscCall(PetscOptionsReal("-pc_gpuamg_agg_threshold", "aggregation strength: |a_ij| >= eps sqrt(|a_ii a_jj|)", "PCGPUAMGSetAggThreshold", v, &v, &set));
    if (set) PetscCall(PCGPUAMGSetAggThreshold(pc, v));
  }
  {
    PetscBool v = (PetscBool)(g->setup.across != 0);
    PetscCall(PetscOptionsBool("-pc_gpuamg_coarsen_across", "classical pmis/hmis on several ranks: coarsen across ranks (false: each rank its own rows)", "PCGPUAMGSetCoarsenAcross", v, &v, &set));
    if (set) PetscCall(PCGPUAMGSetCoarsenAcross(pc, v));
  }
  {
    PetscInt v = g->setup.aggressive_levels;
    PetscCall(PetscOptionsInt("-pc_gpuamg_aggressive_levels", "aggressive coarsening on the first k levels (agg: aggregates on the squared strength graph)", "PCGPUAMGSetAggressiveLevels", v, &v, &set));
    if (set) PetscCall(PCGPUAMGSetAggressiveLevels(pc, v));
  }
  {
    PetscInt v = g->setup.trunc_max;
    PetscCall(PetscOptionsInt("-pc_gpuamg_trunc_max", "interpolation truncation: at most this many entries per row (0: no limit)", "PCGPUAMGSetTruncMax", v, &v, &set));
    if (set) PetscCall(PCGPUAMGSetTruncMax(pc, v));
  }
  {
    PetscReal v = g->setup.trunc_factor;
    PetscCall(PetscOptionsReal("-pc_gpuamg_trunc_factor", "interpolation truncation: drop entries below this times the largest of the row (0: none)", "PCGPUAMGSetTruncFactor", v, &v, &set));
    if (set) PetscCall(PCGPUAMGSetTruncFactor(pc, v));
  }
  {
    PCGPUAMGTruncRescale v = g->setup.trunc_rescale;
    PetscCall(PetscOptionsEnum("-pc_gpuamg_trunc_rescale", "interpolation truncation: rescale a row by one factor (sum) or one per sign (signs)", "PCGPUAMGSetTruncRescale", PCGPUAMGTruncRescales, (PetscEnum)v, (PetscEnum *)&v, &set));
    if (set) PetscCall(PCGPUAMGSetTruncRescale(pc, v));
  }
  {
    PetscInt v = g->setup.agg_smooths;
    PetscCall(PetscOptionsInt("-pc_gpuamg_agg_smooths", "prolongator smoothing steps of aggregation (0: unsmoothed)", "PCGPUAMGSetAggSmooths", v, &v, &set));
    if (set) PetscCall(PCGPUAMGSetAggSmooths(pc, v));
  }
  {
    PetscInt v = g->setup.max_levels;
    PetscCall(PetscOptionsInt("-pc_gpuamg_max_levels", "at most this many levels", "PCGPUAMGSetMaxLevels", v, &v, &set));
    if (set) PetscCall(PCGPUAMGSetMaxLevels(pc, v));
  }
  {
    PetscInt v = g->setup.max_coarse;
    PetscCall(PetscOptionsInt("-pc_gpuamg_max_coarse", "stop coarsening at this many rows (the last level is inverted densely)", "PCGPUAMGSetMaxCoarse", v, &v, &set));
    if (set) PetscCall(PCGPUAMGSetMaxCoarse(pc, v));
  }
  {
    PetscInt v = GPUPCAMGCoarseEqLimit(&g->setup);
    PetscCall(PetscOptionsInt("-pc_gpuamg_coarse_eq_limit", "several ranks: a coarse level with fewer rows a rank than this goes to fewer ranks (0: never; default 10000 with pmis, 0 otherwise)", "PCGPUAMGSetCoarseEqLimit", v, &v, &set));
    if (set) PetscCall(PCGPUAMGSetCoarseEqLimit(pc, v));
  }
  {
    PetscInt v = g->setup.threads;
    PetscCall(PetscOptionsInt("-pc_gpuamg_setup_threads", "host threads of the setup", "PCGPUAMGSetSetupThreads", v, &v, &set));
    if (set) PetscCall(PCGPUAMGSetSetupThreads(pc, v));
  }
  {
    PCGPUAMGCycleType v = g->cyc.cycle;
    PetscCall(PetscOptionsEnum("-pc_gpuamg_cycle", "multigrid cycle", "PCGPUAMGSetCycleType", PCGPUAMGCycleTypes, (PetscEnum)v, (PetscEnum *)&v, &set));
    if (set) PetscCall(PCGPUAMGSetCycleType(pc, v));
  }
  {
    PetscInt           nnames, pick = 0;
    const char *const *names;
    PetscCall(GPUPCAMGSmootherNames(&nnames, &names));
    for (PetscInt k = 0; k < nnames; k++)
      if (!strcmp(names[k], g->cyc.smoother)) pick = k;
    PetscCall(PetscOptionsEList("-pc_gpuamg_smoother", "smoother of every level but the last, from the registry (default l1jacobi; chebyshev for -pc_gpuamg_type agg)", "PCGPUAMGSetSmoother", names, nnames, names[pick], &pick, &set));
    if (set) PetscCall(PCGPUAMGSetSmoother(pc, names[pick]));
  }
  {
    PetscReal v = GPUPCAMGCycleWeight(&g->cyc); /* in use: the one set, or the smoother's default */
    PetscCall(PetscOptionsReal("-pc_gpuamg_jacobi_weight", "factor w on the damping: jacobi omega_l = w 4/(3 lambda_l) per level, l1jacobi w", "PCGPUAMGSetJacobiWeight", v, &v, &set));
    if (set) PetscCall(PCGPUAMGSetJacobiWeight(pc, v));
  }
  {
    PetscInt v = g->cyc.cheby_degree;
    PetscCall(PetscOptionsInt("-pc_gpuamg_chebyshev_degree", "products with A per Chebyshev sweep", "PCGPUAMGSetChebyshevDegree", v, &v, &set));
    if (set) PetscCall(PCGPUAMGSetChebyshevDegree(pc, v));
  }
  {
    PetscInt v = g->cyc.poly_degree;
    PetscCall(PetscOptionsInt("-pc_gpuamg_polynomial_degree", "degree m of the Neumann series I + G + ... + G^m", "PCGPUAMGSetPolynomialDegree", v, &v, &set));
    if (set) PetscCall(PCGPUAMGSetPolynomialDegree(pc, v));
  }
  {
    PetscBool v = g->cyc.graph;
    PetscCall(PetscOptionsBool("-pc_gpuamg_use_graph", "record the cycle as a CUDA graph (one rank, cuda backend)", "PCGPUAMGSetUseGraph", v, &v, &set));
    if (set) PetscCall(PCGPUAMGSetUseGraph(pc, v));
  }
  {
    PetscInt  pre, post;
    PetscBool s1, s2;
    PetscCall(PCGPUAMGGetSweeps(pc, &pre, &post)); /* the smoother's default sweeps unless set */
    PetscCall(PetscOptionsInt("-pc_gpuamg_pre_sweeps", "smoothing sweeps before the coarse correction", "PCGPUAMGSetSweeps", pre, &pre, &s1));
    PetscCall(PetscOptionsInt("-pc_gpuamg_post_sweeps", "smoothing sweeps after the coarse correction", "PCGPUAMGSetSweeps", post, &post, &s2));
    if (s1 || s2) PetscCall(PCGPUAMGSetSweeps(pc, pre, post));
  }
  { /* developers' tuning of the device setup's CUDA ext+i kernels */
    GPUPCAMGInterpTuning t = g->setup.interp_tuning;
    PetscBool            s[4];
    PetscCall(PetscOptionsInt("-pc_gpuamg_dev_interp_small_level", "developer: device setup, cuda: levels of fewer rows give every ext+i F row a warp", "PCGPUAMGSetInterpTuning", t.small_level, &t.small_level, &s[0]));
    PetscCall(PetscOptionsInt("-pc_gpuamg_dev_interp_long_row", "developer: device setup, cuda: rows of more ext+i candidates take a warp on every level (-1: by the level's size)", "PCGPUAMGSetInterpTuning", t.long_row, &t.long_row, &s[1]));
    PetscCall(PetscOptionsInt("-pc_gpuamg_dev_interp_long_slots", "developer: device setup, cuda: hash slots of the first ext+i warp pass (power of 2 from 64)", "PCGPUAMGSetInterpTuning", t.long_slots, &t.long_slots, &s[2]));
    PetscCall(PetscOptionsInt("-pc_gpuamg_dev_interp_long_slots_big", "developer: device setup, cuda: hash slots of the last ext+i warp pass (power of 2, 64 to 8192)", "PCGPUAMGSetInterpTuning", t.long_slots_big, &t.long_slots_big, &s[3]));
    if (s[0] || s[1] || s[2] || s[3]) PetscCall(PCGPUAMGSetInterpTuning(pc, t.small_level, t.long_row, t.long_slots, t.long_slots_big));
  }
  PetscCall(GPUPCAMGDevOptionsFromOptions(pc, PetscOptionsObject));
  {
    PetscInt v = g->setup.hmis_subdomain;
    PetscCall(PetscOptionsInt("-pc_gpuamg_dev_hmis_subdomain", "developer: device setup, hmis: rows of a subdomain of the Ruge-Stueben first pass (the rest: PMIS rounds)", "PCGPUAMGSetHMISSubdomain", v, &v, &set));
    if (set) PetscCall(PCGPUAMGSetHMISSubdomain(pc, v));
  }
  PetscCall(PetscOptionsString("-pc_gpuamg_mat_type", "device format of the level matrices, P and R: segcsr, hec, bcsr or auto (per matrix)", "PCGPUAMGSetMatType", g->cyc.mattype, mtype, sizeof(mtype), &set));
  if (set) PetscCall(PCGPUAMGSetMatType(pc, mtype));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(0);
}

/*
   PC gpuamg's developers' tuning options that change how the device kernels run, not what they compute (mcgs's launch
   shapes) or that reproduce the host setup for comparison (the MIS(2) priorities of the device aggregation): their
   setters and getters (composed as "..._C" functions) and their part of PCSetFromOptions.
*/
#include <gpupc/amgcycle.h>

const char *const PCGPUAMGAggPriorities[] = {"hash", "index", "PCGPUAMGAggPriority", "PC_GPUAMG_AGG_PRIORITY_", NULL};

static PetscErrorCode PCGPUAMGSetMCGSTuning_GPUAMG(PC pc, PetscInt block_nnz, PetscInt lanes)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  if (block_nnz == PETSC_DEFAULT) block_nnz = GPUPC_MCGS_BLOCK_NNZ;
  if (lanes == PETSC_DEFAULT) lanes = 0;
  PetscCheck(block_nnz >= 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PC gpuamg mcgs: -pc_gpuamg_mcgs_block_nnz %" PetscInt_FMT " must be >= 0 (0: every colour its own launch)", block_nnz);
  PetscCheck(lanes == 0 || GPUPCAMGLanesValid(lanes), PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PC gpuamg mcgs: -pc_gpuamg_mcgs_lanes %" PetscInt_FMT ": 0 (by the mean row length), 1, 2, 4, 8, 16 or 32", lanes);
  if (g->cyc.mcgs_block_nnz != block_nnz || g->cyc.mcgs_lanes != lanes) PetscCall(GPUPCAMGReset(pc, PETSC_TRUE));
  g->cyc.mcgs_block_nnz = block_nnz;
  g->cyc.mcgs_lanes     = lanes;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetMCGSTuning_GPUAMG(PC pc, PetscInt *block_nnz, PetscInt *lanes)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  if (block_nnz) *block_nnz = g->cyc.mcgs_block_nnz;
  if (lanes) *lanes = g->cyc.mcgs_lanes;
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetMCGSTuning - the launch shapes of the mcgs smoother's sweeps on the cuda backend

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
.  block_nnz - the colours after the last one of more estimated entries than this run inside one thread block, one
               launch for all of them (0: every colour its own launch; PETSC_DEFAULT: 8192)
-  lanes - threads that share a row: 1, 2, 4, 8, 16 or 32 (0 or PETSC_DEFAULT: by the level's mean row length)

   Options Database Keys:
+  -pc_gpuamg_mcgs_block_nnz <8192> - block_nnz
-  -pc_gpuamg_mcgs_lanes <0> - lanes

   Notes:
   Every shape does the same arithmetic (the same iterations); the shapes change the launches per sweep and how busy
   the threads are. The host backend ignores them.

   Level: developer

.seealso: PCGPUAMG, PCGPUAMGGetMCGSTuning(), PCGPUAMGSetSmoother(), PCGPUAMGSMOOTHERMCGS
@*/
PetscErrorCode PCGPUAMGSetMCGSTuning(PC pc, PetscInt block_nnz, PetscInt lanes)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, block_nnz, 2);
  PetscValidLogicalCollectiveInt(pc, lanes, 3);
  PetscTryMethod(pc, "PCGPUAMGSetMCGSTuning_C", (PC, PetscInt, PetscInt), (pc, block_nnz, lanes));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetMCGSTuning - the values set by PCGPUAMGSetMCGSTuning() (defaults resolved)

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameters:
+  block_nnz - the one-launch threshold of the colours (NULL: not wanted)
-  lanes - threads a row (0: by the mean row length; NULL: not wanted)

   Level: developer

.seealso: PCGPUAMG, PCGPUAMGSetMCGSTuning()
@*/
PetscErrorCode PCGPUAMGGetMCGSTuning(PC pc, PetscInt *block_nnz, PetscInt *lanes)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCGPUAMGGetMCGSTuning_C", (PC, PetscInt *, PetscInt *), (pc, block_nnz, lanes));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGSetAggPriority_GPUAMG(PC pc, PCGPUAMGAggPriority v)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  PetscCheck(v == PC_GPUAMG_AGG_PRIORITY_HASH || v == PC_GPUAMG_AGG_PRIORITY_INDEX, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_dev_agg_priority: no value %d; use hash or index", (int)v);
  if (g->setup.agg_priority != v) PetscCall(GPUPCAMGReset(pc, PETSC_TRUE));
  g->setup.agg_priority = v;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCGPUAMGGetAggPriority_GPUAMG(PC pc, PCGPUAMGAggPriority *v)
{
  PetscFunctionBegin;
  *v = ((PC_GPUAMG *)pc->data)->setup.agg_priority;
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGSetAggPriority - the priorities of the MIS(2) rounds of the device setup's aggregation

   Logically Collective

   Input Parameters:
+  pc - the PC gpuamg
-  v - PC_GPUAMG_AGG_PRIORITY_HASH (default: a hash of the node's chunk of consecutive nodes, the smaller node inside a
       chunk; rounds bounded by the chunks) or PC_GPUAMG_AGG_PRIORITY_INDEX (the smaller node wins: the host setup's
       greedy aggregates, rounds growing with the graph's diameter)

   Options Database Key:
.  -pc_gpuamg_dev_agg_priority <hash,index> - the priorities

   Notes:
   A developers' option: index reproduces the host setup's hierarchy on the device, to compare the two setups.

   Level: developer

.seealso: PCGPUAMG, PCGPUAMGGetAggPriority(), PCGPUAMGSetSetupLocation()
@*/
PetscErrorCode PCGPUAMGSetAggPriority(PC pc, PCGPUAMGAggPriority v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, v, 2);
  PetscTryMethod(pc, "PCGPUAMGSetAggPriority_C", (PC, PCGPUAMGAggPriority), (pc, v));
  PetscFunctionReturn(0);
}

/*@
   PCGPUAMGGetAggPriority - the value set by PCGPUAMGSetAggPriority() (-pc_gpuamg_dev_agg_priority)

   Not Collective

   Input Parameter:
.  pc - the PC gpuamg

   Output Parameter:
.  v - the priorities

   Level: developer

.seealso: PCGPUAMG, PCGPUAMGSetAggPriority()
@*/
PetscErrorCode PCGPUAMGGetAggPriority(PC pc, PCGPUAMGAggPriority *v)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCGPUAMGGetAggPriority_C", (PC, PCGPUAMGAggPriority *), (pc, v));
  PetscFunctionReturn(0);
}

/* compose (set) or remove the functions above */
PetscErrorCode GPUPCAMGComposeDevOptionFunctions(PC pc, PetscBool set)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetMCGSTuning_C", set ? PCGPUAMGSetMCGSTuning_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetMCGSTuning_C", set ? PCGPUAMGGetMCGSTuning_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGSetAggPriority_C", set ? PCGPUAMGSetAggPriority_GPUAMG : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGPUAMGGetAggPriority_C", set ? PCGPUAMGGetAggPriority_GPUAMG : NULL));
  PetscFunctionReturn(0);
}

/* the options of this file, inside PCSetFromOptions_GPUAMG's options block */
PetscErrorCode GPUPCAMGDevOptionsFromOptions(PC pc, PetscOptionItems *PetscOptionsObject)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;
  PetscBool  s1, s2;

  PetscFunctionBegin;
  {
    PetscInt b = g->cyc.mcgs_block_nnz, l = g->cyc.mcgs_lanes;
    PetscCall(PetscOptionsInt("-pc_gpuamg_mcgs_block_nnz", "mcgs, cuda: the colours after the last one of more estimated entries run in one thread block, one launch (0: a launch per colour)", "PCGPUAMGSetMCGSTuning", b, &b, &s1));
    PetscCall(PetscOptionsInt("-pc_gpuamg_mcgs_lanes", "mcgs, cuda: threads a row, 1, 2, 4, 8, 16 or 32 (0: by the mean row length)", "PCGPUAMGSetMCGSTuning", l, &l, &s2));
    if (s1 || s2) PetscCall(PCGPUAMGSetMCGSTuning(pc, b, l));
  }
  {
    PCGPUAMGAggPriority v = g->setup.agg_priority;
    PetscCall(PetscOptionsEnum("-pc_gpuamg_dev_agg_priority", "developer: device aggregation's MIS(2) priorities: hash, or index (the host setup's aggregates)", "PCGPUAMGSetAggPriority", PCGPUAMGAggPriorities, (PetscEnum)v, (PetscEnum *)&v, &s1));
    if (s1) PetscCall(PCGPUAMGSetAggPriority(pc, v));
  }
  PetscFunctionReturn(0);
}

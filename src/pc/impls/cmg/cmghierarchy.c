/*
   CMG hierarchy on the host (docs/algorithms.md 2.2): reduction, clustering and Galerkin levels
   until a stopping rule holds, recursion counts t_k, factor of the last level; and the
   value-only recomputation for SAME_NONZERO_PATTERN (same clustering, new values).
*/
#include <gpupc/cmg.h>

const char *const GPUPCCMGStopReasons[] = {"last level small enough (-pc_cmg_direct_size)", "one cluster left", "stagnation: clustering removed fewer than 2 vertices", "stagnation: total nonzeros over 5 nnz(A)", "-pc_cmg_max_levels reached", "small enough to gather to every rank (-pc_cmg_mpi_gather_size)", "GPUPCCMGStopReason", "GPUPC_CMG_STOP_", NULL};

/*@C
   GPUPCCMGOptionsDefault - the default CMG options (the last level's size depends on the active backend: a dense
   GEMV of a few thousand rows costs a GPU about what one more level's launches cost, a CPU core much more)

   Not Collective

   Output Parameter:
.  o - the options

   Level: developer
@*/
PetscErrorCode GPUPCCMGOptionsDefault(GPUPCCMGOptions *o)
{
  PetscGPUPCBackend backend;

  PetscFunctionBegin;
  PetscCall(PetscGPUPCGetBackend(&backend));
  PetscCall(PetscMemzero(o, sizeof(*o)));
  o->check_symmetry  = PETSC_TRUE;
  o->dirichlet_rows  = PETSC_TRUE;
  o->symmetry_tol    = 1e-10;
  o->dominance_tol   = 1e-10;
  o->positive        = GPUPC_CMG_POSITIVE_DOUBLE_COVER;
  o->fuse_nnz        = GPUPC_CMG_FUSE_NNZ;
  o->pack_nnz        = GPUPC_CMG_STREAM_NNZ;
  o->direct_size     = backend == PETSC_GPUPC_BACKEND_HOST ? GPUPC_CMG_DIRECT_SIZE_HOST : GPUPC_CMG_DIRECT_SIZE_CUDA;
  o->mpi_gather_size = backend == PETSC_GPUPC_BACKEND_HOST ? 0 : GPUPC_CMG_MPI_GATHER_SIZE; /* the host cycle has no launches to save */
  o->max_levels      = 25;
  o->repeat          = 0;
  o->repeat_max      = 2; /* t_k from the nonzero ratios capped at 2: see docs/cmg.md */
  o->monitor         = PETSC_FALSE;
  o->cluster_order   = PETSC_FALSE;
  o->setup           = backend == PETSC_GPUPC_BACKEND_CUDA ? PC_CMG_SETUP_DEVICE : PC_CMG_SETUP_HOST; /* the host table is one core, the host setup threaded */
  PetscCall(GPUPCCMGDefaultThreads(&o->threads));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCCMGRecursionCount - how many times a level runs per visit of the level above (docs/algorithms.md 2.2 item 8)

   Not Collective

   Input Parameters:
+  opts     - -pc_cmg_repeat (fixed count) and -pc_cmg_repeat_max (cap of the ratio rule)
.  nnz      - nonzeros of level k
-  nnz_next - nonzeros of level k+1 (for the level above a dense last level: the factor's)

   Output: t_k = max(floor(nnz / nnz_next - 1/2), 1), at most repeat_max; or repeat when set

   Notes:
   The reference rule (docs/algorithms.md 2.2 item 8) rounds the ratio minus one down (floor(nnz / nnz_next - 1)); this rounds it to the nearest integer.
   Work still falls geometrically down the levels (t_k nnz_next < nnz). The difference shows where coarsening is
   slow, as at the rank boundaries of the distributed hierarchy: randcoef3d 10^6 on 8 ranks, nonzero ratios 2.09,
   2.64, 2.34, gets t = 1, 2, 1 instead of 1, 1, 1, and 34 PCG iterations instead of 38 (27 on one rank; docs/cmg.md)

   Level: developer
@*/
PetscInt GPUPCCMGRecursionCount(const GPUPCCMGOptions *opts, PetscReal nnz, PetscReal nnz_next)
{
  PetscInt t;

  if (opts->repeat > 0) return opts->repeat;
  t = PetscMax((PetscInt)PetscFloorReal(nnz / PetscMax(nnz_next, 1.0) - 0.5), 1);
  return opts->repeat_max > 0 ? PetscMin(t, opts->repeat_max) : t;
}

/* t_k and the last level's factor (the host and the device setup) */
PetscErrorCode GPUPCCMGHierarchyFinish(const GPUPCCMGOptions *opts, GPUPCCMGHierarchy *H)
{
  GPUPCCMGLevel *last = &H->levels[H->nlevels - 1];

  PetscFunctionBegin;
  H->coarse_direct = (H->stop == GPUPC_CMG_STOP_DIRECT_SIZE || H->stop == GPUPC_CMG_STOP_ONE_CLUSTER) ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(PetscFree(H->coarse_inv));
  H->coarse_ncomp = 0;
  if (H->coarse_direct) {
    PetscGPUPCBackend backend;
    PetscCall(PetscGPUPCGetBackend(&backend));
    /* cuda: the upload factors the last level on the device (GPUPCCMGCoarseFactorDevice); here only its components */
    if (backend == PETSC_GPUPC_BACKEND_CUDA) PetscCall(GPUPCCMGCoarseComponents(last, &H->coarse_ncomp));
    else PetscCall(GPUPCCMGCoarseFactor(last, &H->coarse_ncomp, &H->coarse_inv));
  } else PetscCall(PetscInfo(NULL, "CMG: hierarchy stopped early (%s) at %" PetscInt_FMT " vertices; the last level is one Jacobi step\n", GPUPCCMGStopReasons[H->stop], last->n));
  for (PetscInt k = 0; k + 1 < H->nlevels; k++) {
    PetscReal nnz_next;
    if (k + 2 == H->nlevels && H->coarse_direct) {
      PetscReal m = (PetscReal)(last->n - H->coarse_ncomp);
      nnz_next    = PetscMax(1.0, 0.5 * m * (m + 1));
    } else nnz_next = (PetscReal)H->levels[k + 1].nnz;
    H->levels[k].t = GPUPCCMGRecursionCount(opts, (PetscReal)H->levels[k].nnz, nnz_next);
  }
  last->t = 0;
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCCMGLevelMonitor(const GPUPCCMGOptions *opts, const GPUPCCMGLevel *L, PetscInt k)
{
  PetscFunctionBegin;
  if (!opts->monitor) PetscFunctionReturn(0);
  if (L->nc > 0)
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  CMG level %" PetscInt_FMT ": %" PetscInt_FMT " rows, %" PetscInt_FMT " nonzeros -> %" PetscInt_FMT " clusters (ratio %.2f, largest %" PetscInt_FMT ", %" PetscInt_FMT " singletons, %" PetscInt_FMT " weak vertices)\n", k, L->n, L->nnz, L->nc,
                          (double)L->n / (double)PetscMax(L->nc, 1), L->maxsize, L->nsingletons, L->nweak));
  else PetscCall(PetscPrintf(PETSC_COMM_SELF, "  CMG level %" PetscInt_FMT ": %" PetscInt_FMT " rows, %" PetscInt_FMT " nonzeros (last level)\n", k, L->n, L->nnz));
  PetscFunctionReturn(0);
}

/* the rules that end the hierarchy at a level of n vertices before it is clustered (the host and the device setup):
   PETSC_TRUE with *stop set when one holds */
PetscBool GPUPCCMGStopBeforeClustering(const GPUPCCMGOptions *opts, PetscInt n, PetscInt nlevels, GPUPCCMGStopReason *stop)
{
  if (n <= 1) *stop = GPUPC_CMG_STOP_ONE_CLUSTER;
  else if (n <= opts->direct_size) *stop = GPUPC_CMG_STOP_DIRECT_SIZE;
  else if (nlevels >= PetscMax(opts->max_levels, 1)) *stop = GPUPC_CMG_STOP_MAX_LEVELS;
  else return PETSC_FALSE;
  return PETSC_TRUE;
}

/*@C
   GPUPCCMGHierarchyBuild - builds the CMG hierarchy of a symmetric diagonally dominant matrix

   Not Collective (sequential matrix)

   Input Parameters:
+  A    - the matrix
-  opts - the options

   Output Parameter:
.  H - the hierarchy; free with GPUPCCMGHierarchyDestroy()

   Level: developer

.seealso: PCCMG, GPUPCCMGReduce(), GPUPCCMGCluster(), GPUPCCMGGalerkin()
@*/
PetscErrorCode GPUPCCMGHierarchyBuild(Mat A, const GPUPCCMGOptions *opts, GPUPCCMGHierarchy *H)
{
  PetscInt maxl = PetscMax(opts->max_levels, 1);
  PetscInt nnztotal;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(H, sizeof(*H)));
  PetscCall(PetscCalloc1(maxl, &H->levels));
  PetscCall(GPUPCCMGReduce(A, opts, &H->red, &H->levels[0]));
  H->nlevels = 1;
  nnztotal   = H->levels[0].nnz;
  if (opts->monitor) PetscCall(PetscPrintf(PETSC_COMM_SELF, "CMG hierarchy of a %" PetscInt_FMT " x %" PetscInt_FMT " matrix (level 0: %" PetscInt_FMT " vertices%s%s)\n", H->red.n, H->red.n, H->red.n0, H->red.copies == 2 ? ", double cover" : "", H->red.ground ? ", ground vertex" : ""));
  while (1) {
    GPUPCCMGLevel *L = &H->levels[H->nlevels - 1];
    GPUPCCMGLevel  C;

    PetscCall(PetscMemzero(&C, sizeof(C)));
    if (GPUPCCMGStopBeforeClustering(opts, L->n, H->nlevels, &H->stop)) break;
    PetscCall(GPUPCCMGCluster(L, opts->threads));
    if (L->nc >= L->n - 1) {
      H->stop = GPUPC_CMG_STOP_STAGNATION_SIZE;
      PetscCall(PetscInfo(A, "CMG stagnation at level %" PetscInt_FMT ": %" PetscInt_FMT " vertices gave %" PetscInt_FMT " clusters\n", H->nlevels - 1, L->n, L->nc));
    } else {
      PetscCall(GPUPCCMGGalerkin(L, L->nc, L->cluster, opts->threads, &C));
      if (nnztotal + C.nnz > 5 * H->levels[0].nnz) {
        H->stop = GPUPC_CMG_STOP_STAGNATION_NNZ;
        PetscCall(PetscInfo(A, "CMG stagnation at level %" PetscInt_FMT ": the next level would bring the total nonzeros to %" PetscInt_FMT " > 5 x %" PetscInt_FMT "\n", H->nlevels - 1, nnztotal + C.nnz, H->levels[0].nnz));
        PetscCall(GPUPCCMGLevelFree(&C));
      }
    }
    if (H->stop == GPUPC_CMG_STOP_STAGNATION_SIZE || H->stop == GPUPC_CMG_STOP_STAGNATION_NNZ) {
      PetscCall(PetscFree(L->cluster));
      L->nc = 0;
      break;
    }
    PetscCall(GPUPCCMGLevelMonitor(opts, L, H->nlevels - 1));
    H->levels[H->nlevels++] = C;
    nnztotal += C.nnz;
  }
  PetscCall(GPUPCCMGLevelMonitor(opts, &H->levels[H->nlevels - 1], H->nlevels - 1));
  PetscCall(GPUPCCMGHierarchyFinish(opts, H));
  if (opts->cluster_order) PetscCall(GPUPCCMGHierarchyOrder(H, opts->threads));
  if (opts->monitor) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "CMG hierarchy: %" PetscInt_FMT " levels, stopped: %s; last level: %s\n", H->nlevels, GPUPCCMGStopReasons[H->stop], H->coarse_direct ? "dense grounded inverse" : "one Jacobi step (stagnation warning)"));
  }
  PetscFunctionReturn(0);
}

/*@C
   GPUPCCMGHierarchyRecompute - new values for a matrix with the same nonzero pattern: keeps the clustering, recomputes the Galerkin levels and the last factor

   Not Collective

   Input Parameters:
+  A    - the matrix with new values
.  opts - the options
-  H    - a hierarchy built for a matrix of the same pattern

   Output Parameter:
.  same - PETSC_FALSE if the reduced level-0 structure changed (sign pattern or dominance changed); then H is unchanged and must be rebuilt

   Level: developer
@*/
PetscErrorCode GPUPCCMGHierarchyRecompute(Mat A, const GPUPCCMGOptions *opts, GPUPCCMGHierarchy *H, PetscBool *same)
{
  GPUPCCMGReduction red;
  GPUPCCMGLevel     L0;
  PetscBool         eq;

  PetscFunctionBegin;
  PetscCall(GPUPCCMGReduce(A, opts, &red, &L0));
  *same = (PetscBool)(red.n0 == H->red.n0 && red.copies == H->red.copies && red.ground == H->red.ground && L0.nnz == H->levels[0].nnz && red.ndirichlet == H->red.ndirichlet && red.ncoupling == H->red.ncoupling);
  if (*same && red.map) {
    PetscCall(PetscArraycmp(red.map, H->red.map, red.n, &eq));
    *same = eq;
  }
  if (*same) {
    PetscCall(PetscArraycmp(L0.rowptr, H->levels[0].rowptr, L0.n + 1, &eq));
    if (eq) PetscCall(PetscArraycmp(L0.col, H->levels[0].col, L0.nnz, &eq));
    *same = eq;
  }
  if (!*same) {
    PetscCall(GPUPCCMGLevelFree(&L0));
    PetscCall(GPUPCCMGReductionFree(&red));
    PetscFunctionReturn(0);
  }
  PetscCall(GPUPCCMGReductionFree(&H->red));
  H->red = red;
  PetscCall(PetscArraycpy(H->levels[0].val, L0.val, L0.nnz));
  PetscCall(GPUPCCMGLevelFree(&L0));
  for (PetscInt k = 0; k + 1 < H->nlevels; k++) PetscCall(GPUPCCMGGalerkinValues(&H->levels[k], H->levels[k].cluster, opts->threads, &H->levels[k + 1]));
  PetscCall(GPUPCCMGHierarchyFinish(opts, H));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCCMGReductionFree - frees the arrays of a CMG reduction (Dirichlet row map)

   Not Collective

   Input Parameter:
.  red - the reduction

   Level: developer
@*/
PetscErrorCode GPUPCCMGReductionFree(GPUPCCMGReduction *red)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(red->map));
  PetscCall(PetscFree(red->dinv));
  PetscCall(PetscFree(red->erow));
  PetscCall(PetscFree(red->trow));
  PetscCall(PetscFree4(red->ecol, red->eval, red->tcol, red->tval));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCCMGHierarchyDestroy - frees a CMG hierarchy

   Not Collective

   Input Parameter:
.  H - the hierarchy

   Level: developer
@*/
PetscErrorCode GPUPCCMGHierarchyDestroy(GPUPCCMGHierarchy *H)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < H->nlevels; k++) PetscCall(GPUPCCMGLevelFree(&H->levels[k]));
  PetscCall(PetscFree(H->levels));
  PetscCall(GPUPCCMGReductionFree(&H->red));
  PetscCall(PetscFree(H->coarse_inv));
  PetscCall(PetscMemzero(H, sizeof(*H)));
  PetscFunctionReturn(0);
}

/*
   PC cmg: combinatorial multigrid for symmetric diagonally dominant matrices.
   Setup on the host (cmgreduce.c, cmgcluster.c, cmggalerkin.c, cmgcoarse.c, cmghierarchy.c),
   cycle on the device (cmgdevice.c, cmgcycle.c, kernels in host/ and cuda/).
*/
#include <petsc/private/pcimpl.h>
#include <gpupc/cmgmpi.h>
#include <gpupc/threads.h>
#include <gpupc/cmgsetupkernels.h>
#include <gpupc/denseinv.h>

const char *const PCCMGPrecisions[]     = {"double", "single", "PCCMGPrecision", "PC_CMG_PRECISION_", NULL};
const char *const PCCMGPositiveModes[]  = {"doublecover", "error", "PCCMGPositiveMode", "PC_CMG_POSITIVE_", NULL};
const char *const PCCMGMatTypes[]       = {"csr", "segcsr", "hec", "bcsr", "auto", "PCCMGMatType", "PC_CMG_MAT_", NULL};
const char *const PCCMGSetupLocations[] = {"device", "host", "PCCMGSetupLocation", "PC_CMG_SETUP_", NULL};

PetscLogEvent PC_CMG_Reduce, PC_CMG_Cluster, PC_CMG_Galerkin, PC_CMG_CoarseFactor, PC_CMG_Upload, PC_CMG_Cycle;

PetscErrorCode PCCMGRegisterEvents(void)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventRegister("CMGReduce", PC_CLASSID, &PC_CMG_Reduce));
  PetscCall(PetscLogEventRegister("CMGCluster", PC_CLASSID, &PC_CMG_Cluster));
  PetscCall(PetscLogEventRegister("CMGGalerkin", PC_CLASSID, &PC_CMG_Galerkin));
  PetscCall(PetscLogEventRegister("CMGCoarseFactor", PC_CLASSID, &PC_CMG_CoarseFactor));
  PetscCall(PetscLogEventRegister("CMGUpload", PC_CLASSID, &PC_CMG_Upload));
  PetscCall(PetscLogEventRegister("CMGCycle", PC_CLASSID, &PC_CMG_Cycle));
  PetscCall(GPUPCCMGMPIRegisterEvents());
  PetscFunctionReturn(0);
}

static PetscErrorCode PCReset_CMG(PC pc)
{
  PC_CMG *cmg = (PC_CMG *)pc->data;

  PetscFunctionBegin;
  PetscCall(GPUPCCMGDeviceFree(&cmg->dev));
  PetscCall(GPUPCCMGHierarchyDestroy(&cmg->hier));
  PetscCall(GPUPCCMGDevSetupFree(&cmg->dsetup));
  PetscCall(PCReset_CMG_MPI(pc));
  cmg->built = PETSC_FALSE;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCDestroy_CMG(PC pc)
{
  PetscFunctionBegin;
  PetscCall(PCReset_CMG(pc));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCCMGGetNumberOfLevels_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCCMGGetLevel_C", NULL));
  PetscCall(PCCMGComposeOptionFunctions_Private(pc, PETSC_FALSE));
  PetscCall(PetscFree(pc->data));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCSetUp_CMG(PC pc)
{
  PC_CMG     *cmg = (PC_CMG *)pc->data;
  PetscMPIInt size;
  PetscBool   same = PETSC_FALSE, built = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &size));
  PetscCheck(cmg->mattype == PC_CMG_MAT_CSR || cmg->prec == PC_CMG_PRECISION_DOUBLE, PETSC_COMM_SELF, PETSC_ERR_SUP, "-pc_cmg_mat_type %s stores double precision only; use -pc_cmg_precision double or -pc_cmg_mat_type csr", PCCMGMatTypes[cmg->mattype]);
  { /* -info: the threads of this setup and the cores they may use; launch advice when the rank is bound to fewer */
    GPUPCHostCores h;
    char           hint[512];
    PetscCall(GPUPCGetHostCores(&h));
    PetscCall(PetscInfo(pc, "CMG: host setup on %" PetscInt_FMT " thread(s); this rank may run on %" PetscInt_FMT " of the node's %" PetscInt_FMT " online cores (%d rank(s) on the node)\n", cmg->opts.threads, h.cores, h.online, (int)h.node_ranks));
    PetscCall(GPUPCHostCoresHint(hint, sizeof(hint)));
    if (hint[0]) PetscCall(PetscInfo(pc, "CMG: %s\n", hint));
  }
  if (size > 1) { /* distributed CMG (src/pc/impls/cmg/mpi) */
    PetscCall(PCSetUp_CMG_MPI(pc));
    PetscFunctionReturn(0);
  }
  if (cmg->built && pc->flag == SAME_NONZERO_PATTERN) {
    if (cmg->dsetup.nlevels > 0) PetscCall(GPUPCCMGHierarchyRecomputeDevice(pc->pmat, &cmg->opts, &cmg->hier, &cmg->dsetup, &same));
    else PetscCall(GPUPCCMGHierarchyRecompute(pc->pmat, &cmg->opts, &cmg->hier, &same));
    if (!same) PetscCall(PetscInfo(pc, "CMG: same nonzero pattern, but the reduced Laplacian changed structure (signs or dominance changed); rebuilding the hierarchy\n"));
    else cmg->nreuses++;
  }
  if (!same) {
    PetscCall(GPUPCCMGHierarchyDestroy(&cmg->hier));
    PetscCall(GPUPCCMGDevSetupFree(&cmg->dsetup));
    cmg->built = PETSC_FALSE;
    if (cmg->opts.setup == PC_CMG_SETUP_DEVICE) {
      PetscCall(GPUPCCMGHierarchyBuildDevice(pc->pmat, &cmg->opts, &cmg->hier, &cmg->dsetup, &built));
      if (built && cmg->opts.cluster_order) { /* the host levels are renumbered: a reuse recomputes them on the host */
        PetscCall(GPUPCCMGHierarchySyncDevice(&cmg->hier, &cmg->dsetup));
        PetscCall(GPUPCCMGHierarchyOrder(&cmg->hier, cmg->opts.threads));
        PetscCall(GPUPCCMGDevSetupFree(&cmg->dsetup));
      }
    }
    if (!built) PetscCall(GPUPCCMGHierarchyBuild(pc->pmat, &cmg->opts, &cmg->hier));
    PetscCall(GPUPCCMGHierarchyAttachDevice(&cmg->hier, cmg->dsetup.nlevels ? &cmg->dsetup : NULL));
    cmg->ondevice = built;
    cmg->built    = PETSC_TRUE;
  }
  { /* same structure: new values into the device buffers, the recorded cycle kept; else a fresh upload */
    PetscBool refreshed = PETSC_FALSE, avail;

    /* the upload and the refresh read the host levels of single precision or non-csr formats; double csr ones are
       formed from the device setup's CSR */
    if (cmg->prec != PC_CMG_PRECISION_DOUBLE || cmg->mattype != PC_CMG_MAT_CSR) PetscCall(GPUPCCMGHierarchySyncDevice(&cmg->hier, &cmg->dsetup));
    if (same) PetscCall(GPUPCCMGDeviceRefresh(&cmg->hier, cmg->prec, cmg->mattype, &cmg->opts, &cmg->dev, &refreshed));
    if (!refreshed) {
      PetscCall(GPUPCCMGDeviceFree(&cmg->dev));
      PetscCall(GPUPCCMGDeviceUpload(&cmg->hier, cmg->prec, cmg->mattype, &cmg->opts, &cmg->dev));
    }
    PetscCall(GPUPCGraphAvailable(&avail));
    if (!avail || !cmg->graph) PetscCall(GPUPCGraphDestroy(&cmg->dev.graph));
    else if (!cmg->dev.graph) {
      PetscCall(PetscLogEventBegin(PC_CMG_Upload, 0, 0, 0, 0));
      PetscCall(GPUPCCMGDeviceRecord(&cmg->dev));
      PetscCall(PetscLogEventEnd(PC_CMG_Upload, 0, 0, 0, 0));
    }
    if (refreshed) cmg->nrefreshes++;
  }
  cmg->nsetups++;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCApply_CMG_Private(PC pc, PetscBool transpose, Vec b, Vec x)
{
  PC_CMG            *cmg = (PC_CMG *)pc->data;
  const PetscScalar *db;
  PetscScalar       *dx;
  PetscInt           n;

  PetscFunctionBegin;
  if (cmg->mpi) {
    PetscCall(PCApply_CMG_MPI(pc, transpose, b, x));
    PetscFunctionReturn(0);
  }
  PetscCall(VecGetLocalSize(b, &n));
  PetscCheck(n == cmg->hier.red.n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "PC cmg: vector of local length %" PetscInt_FMT ", the preconditioner was set up for %" PetscInt_FMT, n, cmg->hier.red.n);
  PetscCall(VecGPUGetDeviceArrayRead(b, &db));
  PetscCall(VecGPUGetDeviceArrayWrite(x, &dx));
  PetscCall(GPUPCCMGDeviceApply(&cmg->dev, transpose, db, dx));
  PetscCall(VecGPURestoreDeviceArrayWrite(x, &dx));
  PetscCall(VecGPURestoreDeviceArrayRead(b, &db));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCApply_CMG(PC pc, Vec b, Vec x)
{
  PetscFunctionBegin;
  PetscCall(PCApply_CMG_Private(pc, PETSC_FALSE, b, x));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCApplyTranspose_CMG(PC pc, Vec b, Vec x)
{
  PetscFunctionBegin;
  PetscCall(PCApply_CMG_Private(pc, PETSC_TRUE, b, x));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCView_CMG(PC pc, PetscViewer viewer)
{
  PC_CMG                  *cmg = (PC_CMG *)pc->data;
  const GPUPCCMGHierarchy *H   = &cmg->hier;
  PetscBool                iascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(0);
  {
    const GPUPCCMGKernels *K;
    PetscCall(GPUPCGetCMGKernels(&K));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  CMG: precision %s, level matrices %s, cycle kernels: %s%s\n", PCCMGPrecisions[cmg->prec], PCCMGMatTypes[cmg->mattype], K->name, cmg->built ? "" : " (not set up)"));
  }
  {
    char recursion[64];
    if (cmg->opts.repeat > 0) PetscCall(PetscSNPrintf(recursion, sizeof(recursion), "fixed t_k = %" PetscInt_FMT, cmg->opts.repeat));
    else if (cmg->opts.repeat_max > 0) PetscCall(PetscSNPrintf(recursion, sizeof(recursion), "from nonzero ratios, at most %" PetscInt_FMT, cmg->opts.repeat_max));
    else PetscCall(PetscStrncpy(recursion, "from nonzero ratios", sizeof(recursion)));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  options: direct size %" PetscInt_FMT ", max levels %" PetscInt_FMT ", recursion %s, positive off-diagonals: %s, symmetry check %s, setup threads %" PetscInt_FMT ", levels in cluster order: %s\n", cmg->opts.direct_size, cmg->opts.max_levels, recursion,
                                     PCCMGPositiveModes[cmg->opts.positive], cmg->opts.check_symmetry ? "on" : "off", cmg->opts.threads, cmg->opts.cluster_order ? "yes" : "no"));
  }
  PetscCall(GPUPCHostCoresView(viewer, cmg->opts.threads)); /* the cores the setup threads may use, and launch advice */
  if (!cmg->built) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  setup (-pc_cmg_setup): %s\n", PCCMGSetupLocations[cmg->opts.setup]));
    PetscFunctionReturn(0);
  }
  if (!cmg->mpi) {
    const GPUPCCMGSetupKernels *S;
    PetscCall(GPUPCGetCMGSetupKernels(&S));
    if (cmg->ondevice) PetscCall(PetscViewerASCIIPrintf(viewer, "  setup on the device (setup kernels: %s; reuse %s, %.3g MB kept there for it)\n", S->name, cmg->dsetup.nlevels ? "on the device" : "on the host: levels in cluster order", (double)cmg->dsetup.bytes / 1048576.0));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "  setup on the host%s\n", cmg->opts.setup == PC_CMG_SETUP_DEVICE ? " (-pc_cmg_setup device, but the device cannot read this matrix: -info says why)" : ""));
  } else PetscCall(PetscViewerASCIIPrintf(viewer, "  distributed setup: level-0 reduction (where it applies), rank-local clustering and the gathered last levels on the %s, Galerkin products of the distributed levels by per-rank sort-and-reduce (MatPtAP with -pc_cmg_mpi_galerkin_ptap)\n", cmg->opts.setup == PC_CMG_SETUP_DEVICE ? "device" : "host"));
  if (cmg->mpi) {
    PetscCall(PCView_CMG_MPI(pc, viewer));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "  reduction: %" PetscInt_FMT " rows -> level 0 Laplacian of %" PetscInt_FMT " vertices (%s, %s; %" PetscInt_FMT " positive off-diagonals, %" PetscInt_FMT " strictly dominant rows, %" PetscInt_FMT " Dirichlet rows)\n", H->red.n, H->red.n0,
                                   H->red.copies == 2 ? "double cover" : "no double cover", H->red.ground ? "ground vertex" : "no ground vertex", H->red.npositive, H->red.nstrict, H->red.ndirichlet));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  %" PetscInt_FMT " levels (stopped: %s); setups %" PetscInt_FMT ", of which value-only reuses %" PetscInt_FMT " (device values refreshed in place %" PetscInt_FMT ")\n", H->nlevels, GPUPCCMGStopReasons[H->stop], cmg->nsetups, cmg->nreuses, cmg->nrefreshes));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  level       rows        nnz   clusters  ratio  largest  singletons   weak  t_k\n"));
  for (PetscInt k = 0; k < H->nlevels; k++) {
    const GPUPCCMGLevel *L = &H->levels[k];
    if (k + 1 < H->nlevels)
      PetscCall(PetscViewerASCIIPrintf(viewer, "  %5" PetscInt_FMT " %10" PetscInt_FMT " %10" PetscInt_FMT " %10" PetscInt_FMT " %6.2f %8" PetscInt_FMT " %11" PetscInt_FMT " %6" PetscInt_FMT " %4" PetscInt_FMT "\n", k, L->n, L->nnz, L->nc, (double)L->n / (double)PetscMax(L->nc, 1), L->maxsize, L->nsingletons, L->nweak, L->t));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "  %5" PetscInt_FMT " %10" PetscInt_FMT " %10" PetscInt_FMT "   (last level)\n", k, L->n, L->nnz));
  }
  if (cmg->dev.graph) {
    size_t nodes;
    PetscCall(GPUPCGraphGetSize(cmg->dev.graph, &nodes));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  cycle recorded as a CUDA graph of %zu kernel launches and memsets, replayed by one launch per application\n", nodes));
  } else PetscCall(PetscViewerASCIIPrintf(viewer, "  cycle launched kernel by kernel\n"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  cycle plan: %" PetscInt_FMT " steps (smoothing, residual-restriction, prolongation, last-level solve) per application; levels of fewer than %" PetscInt_FMT " entries fuse the first Jacobi step into the residual-restriction and the prolongation into the smoothing\n", cmg->dev.nsteps, cmg->dev.fusennz));
  if (cmg->mattype == PC_CMG_MAT_CSR) {
    PetscInt npacked = 0;
    for (PetscInt k = 0; k < cmg->dev.nlevels; k++)
      if (cmg->dev.levels[k].nunits > 0) npacked++;
    PetscCall(PetscViewerASCIIPrintf(viewer, "  residual-restriction (cuda kernels): on %" PetscInt_FMT " levels (fewer than %" PetscInt_FMT " entries) one launch, a group of lanes per vertex over units of whole clusters; on the others the residual by rows, then the cluster sums\n", npacked, cmg->dev.packnnz));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  lanes per row of the cuda row kernels, by level:"));
    PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
    for (PetscInt k = 0; k + 1 < cmg->dev.nlevels; k++) PetscCall(PetscViewerASCIIPrintf(viewer, " %" PetscInt_FMT, cmg->dev.levels[k].lanes));
    PetscCall(PetscViewerASCIIPrintf(viewer, "\n"));
    PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
  }
  if (cmg->mattype != PC_CMG_MAT_CSR) {
    for (PetscInt k = 0; k < cmg->dev.nlevels; k++)
      if (cmg->dev.levels[k].mat) {
        char label[64];

        PetscCall(PetscSNPrintf(label, sizeof(label), "  level %" PetscInt_FMT " matrix", k));
        PetscCall(GPUPCDevMatViewFormat(cmg->dev.levels[k].mat, label, viewer));
      }
  }
  if (H->coarse_direct) PetscCall(PetscViewerASCIIPrintf(viewer, "  last level: dense inverse of the Laplacian grounded at one vertex per component (%" PetscInt_FMT " components), applied as a GEMV\n", H->coarse_ncomp));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "  WARNING: the hierarchy stagnated (%s); the last level (%" PetscInt_FMT " vertices) is one Jacobi step, convergence may suffer\n", GPUPCCMGStopReasons[H->stop], H->levels[H->nlevels - 1].n));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  device memory of the hierarchy: %.3g MB\n", (double)cmg->dev.bytes / 1048576.0));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGGetNumberOfLevels_CMG(PC pc, PetscInt *nlevels)
{
  PC_CMG *cmg = (PC_CMG *)pc->data;

  PetscFunctionBegin;
  PetscCheck(cmg->built, PetscObjectComm((PetscObject)pc), PETSC_ERR_ORDER, "PC cmg is not set up; call PCSetUp() or KSPSetUp() first");
  if (cmg->mpi) PetscCall(GPUPCCMGMPIGetNumberOfLevels(cmg->mpi, nlevels));
  else *nlevels = cmg->hier.nlevels;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCCMGGetLevel_CMG(PC pc, PetscInt k, PetscInt *n, PetscInt *nnz, PetscInt *t)
{
  PC_CMG *cmg = (PC_CMG *)pc->data;

  PetscFunctionBegin;
  PetscCheck(cmg->built, PetscObjectComm((PetscObject)pc), PETSC_ERR_ORDER, "PC cmg is not set up; call PCSetUp() or KSPSetUp() first");
  if (cmg->mpi) {
    PetscCall(PCCMGGetLevel_CMG_MPI(pc, k, n, nnz, t));
    PetscFunctionReturn(0);
  }
  PetscCheck(k >= 0 && k < cmg->hier.nlevels, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "level %" PetscInt_FMT " does not exist; the hierarchy has levels 0..%" PetscInt_FMT, k, cmg->hier.nlevels - 1);
  if (n) *n = cmg->hier.levels[k].n;
  if (nnz) *nnz = cmg->hier.levels[k].nnz;
  if (t) *t = cmg->hier.levels[k].t;
  PetscFunctionReturn(0);
}

/*@
   PCCMGGetNumberOfLevels - number of levels of a set-up PC cmg

   Not Collective

   Input Parameter:
.  pc - the preconditioner

   Output Parameter:
.  nlevels - levels, the reduced input (level 0) included

   Level: intermediate

.seealso: PCCMG, PCCMGGetLevel()
@*/
PetscErrorCode PCCMGGetNumberOfLevels(PC pc, PetscInt *nlevels)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCCMGGetNumberOfLevels_C", (PC, PetscInt *), (pc, nlevels));
  PetscFunctionReturn(0);
}

/*@
   PCCMGGetLevel - size and recursion count of one level of a set-up PC cmg

   Not Collective

   Input Parameters:
+  pc - the preconditioner
-  k  - the level, 0 (finest) .. nlevels-1

   Output Parameters:
+  n   - vertices (rows) of the level Laplacian (or NULL)
.  nnz - its stored nonzeros (or NULL)
-  t   - how many times level k+1 runs per visit of level k (0 on the last level) (or NULL)

   Level: intermediate

.seealso: PCCMG, PCCMGGetNumberOfLevels()
@*/
PetscErrorCode PCCMGGetLevel(PC pc, PetscInt k, PetscInt *n, PetscInt *nnz, PetscInt *t)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCCMGGetLevel_C", (PC, PetscInt, PetscInt *, PetscInt *, PetscInt *), (pc, k, n, nnz, t));
  PetscFunctionReturn(0);
}

PetscErrorCode PCCMGGetHierarchy_Private(PC pc, const GPUPCCMGHierarchy **H)
{
  PetscBool is;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCCMG, &is));
  PetscCheck(is, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONG, "PC is not of type cmg");
  PetscCheck(((PC_CMG *)pc->data)->built, PetscObjectComm((PetscObject)pc), PETSC_ERR_ORDER, "PC cmg is not set up");
  { /* after a value-only reuse on the device the host levels' values come down now (the reuse skips that copy) */
    PC_CMG *cmg = (PC_CMG *)pc->data;
    PetscCall(GPUPCCMGHierarchySyncDevice(&cmg->hier, &cmg->dsetup));
    *H = &cmg->hier;
  }
  PetscFunctionReturn(0);
}

/*MC
   PCCMG - combinatorial multigrid (Koutis, Miller, Tolliver) for symmetric diagonally dominant
   matrices: graph Laplacians, resistor networks and power grids, diffusion problems. The
   hierarchy is built on the host; the cycle runs in device kernels (CUDA backend) or in the
   host reference kernels (host backend).

   Options Database Keys:
+  -pc_cmg_check_symmetry <true>               - PCCMGSetCheckSymmetry(): check symmetry (error naming the first asymmetric entry)
.  -pc_cmg_symmetry_tol <1e-10>                - PCCMGSetSymmetryTolerance(): relative tolerance of that check
.  -pc_cmg_dirichlet_rows <true>               - PCCMGSetDirichletRows(): couplings into rows holding only a diagonal (eliminated Dirichlet unknowns, e.g. PETSc's ksp ex45) go to the ground vertex instead of failing the symmetry check
.  -pc_cmg_dominance_tol <1e-10>               - PCCMGSetDominanceTolerance(): rows with a_ii < (1 - tol) sum |a_ij| are refused; excess below tol a_ii counts as zero
.  -pc_cmg_positive_offdiag <doublecover,error> - PCCMGSetPositiveOffDiagonal(): positive off-diagonal entries: double cover, or refuse the matrix
.  -pc_cmg_direct_size <n>                     - PCCMGSetDirectSize(): stop coarsening at this many vertices; the last level is a dense grounded inverse (default 2500 on the cuda backend, 700 on the host backend; the factorization is LAPACK potrf/potri on the host, so use an optimized LAPACK such as OpenBLAS)
.  -pc_cmg_mpi_gather_size <n>                - PCCMGSetMPIGatherSize(): on several ranks, gather a level of at most n vertices to every rank and coarsen it there with the one-rank hierarchy (default 10000000 on the cuda backend, 0 on the host backend: only the last level; level 0 stays distributed)
.  -pc_cmg_max_levels <25>                     - PCCMGSetMaxLevels(): most levels
.  -pc_cmg_repeat <0>                          - PCCMGSetRepeat(): fixed recursion count t_k (1 gives a V-cycle shape); 0 takes t_k = max(floor(nnz_k/nnz_{k+1} - 1/2), 1)
.  -pc_cmg_repeat_max <2>                      - PCCMGSetRepeatMax(): with t_k from the nonzero ratios, at most this (0: no limit, the ratio rule of docs/algorithms.md 2.2 item 8; the cap keeps deep W-cycles from multiplying small-level launches)
.  -pc_cmg_fuse_nnz <1000000>                  - PCCMGSetFuseNnz(): on levels with fewer stored entries the first Jacobi step is computed inside the residual-restriction and the prolongation runs inside the smoothing (one launch fewer per iteration, an extra gather per entry: worth it where launches, not bandwidth, bound the level; on the other levels the restriction above writes the first Jacobi iterate with the level's b); 0 never fuses
.  -pc_cmg_pack_nnz <1000000>                  - PCCMGSetPackNnz(): levels with fewer stored entries are latency-bound: the CUDA kernels give a row about half its mean length in lanes and the residual-restriction is one launch over units of whole clusters (a group of lanes per vertex, a segmented shuffle sum per unit); larger levels are bandwidth-bound: about a third of the mean row length in lanes, and the residual by rows, then the cluster sums (two launches, each at bandwidth); 0 treats every level as bandwidth-bound
.  -pc_cmg_precision <double,single>           - PCCMGSetPrecision(): precision of the stored hierarchy and of the cycle vectors (the Krylov method stays in double)
.  -pc_cmg_graph <true>                        - PCCMGSetUseGraph(): on the cuda backend, record the cycle once as a CUDA graph at setup and replay it in every application (false: launch kernel by kernel)
.  -pc_cmg_mat_type <csr,segcsr,hec,bcsr,auto> - PCCMGSetMatType(): storage of the level matrices on the device: csr with fused residual+smoothing and residual+restriction kernels, or a format of the shared device-Mat layer (segcsr, hec, bcsr, or auto per level: the format's SpMV then a separate update or cluster sum; double precision only)
.  -pc_cmg_monitor                             - PCCMGSetMonitor(): print the hierarchy while it is built
.  -pc_cmg_cluster_order <false>               - PCCMGSetClusterOrder(): number levels 1 .. last-1 so that every cluster's vertices are consecutive, clusters in the order of the next level (the aggregation tree's order): better locality of the cycle's gathers on the large coarse levels (H200, 7.2M rows: cycles 2.3-2.6% faster on randcoef3d and powergrid, unchanged on poisson3d) for ~0.1 s more setup at 16 threads, so worth it when one setup serves ~75 or more solves; the operator is the same
-  -pc_cmg_setup_threads <n>                   - PCCMGSetSetupThreads(): OpenMP threads of the host setup: the reduction, the clustering and the Galerkin products split their work over them, and the hierarchy is the same for any count (default: OMP_NUM_THREADS, else the cores in the rank's affinity mask, shared among the node's ranks when their masks overlap; -ksp_view and -info report them and say how to launch when the rank is bound to fewer cores than the node leaves it; each thread holds one integer per cluster during a Galerkin product)

   Notes:
   Each option has a setter, named beside it above, and a getter (PCCMGGetCheckSymmetry() and so on) for programs
   that configure the PC from C; PCSetFromOptions() hands each option to its setter. A new value of a setting that
   shapes the hierarchy or its device copy (all but -pc_cmg_monitor and -pc_cmg_setup_threads) discards the
   hierarchy of a set-up PC: the next PCSetUp() (or KSPSolve()) builds it afresh. The setters do nothing on a PC of
   another type; the getters raise an error there.

   With -pc_cmg_dirichlet_rows (default) a matrix whose boundary rows hold only a diagonal, while the interior
   rows keep their couplings to the boundary (nonsymmetric, as PETSc's DMDA examples assemble Dirichlet
   conditions), is preconditioned through its symmetric part with the boundary unknowns eliminated.

   The matrix is reduced to a Laplacian: strictly dominant rows are tied to one added ground
   vertex, positive off-diagonals are handled by the double cover (2n unknowns). Matrices that
   are not symmetric or not diagonally dominant are refused with an error naming the row.

   A pure Laplacian (no strictly dominant row) is singular, with the constant vector on every
   connected component as null space: solve it with a consistent right-hand side and attach the
   null space to the matrix (MatSetNullSpace()) so that the Krylov method removes it.

   The operator is symmetric (PCApplyTranspose() = PCApply()), so it can be used with KSPCG.
   Each level is visited t_k times per visit of the level above (docs/algorithms.md 2.3), t_k from the nonzero ratios
   capped at 2 by default (-pc_cmg_repeat_max).
   New values on the same nonzero pattern (SAME_NONZERO_PATTERN, or a changed matrix at the next KSPSolve()) keep
   the clustering: the Galerkin values are recomputed on the kept coarse structure, the last factor again, and the
   device buffers get the new values in place (the recorded cycle is kept). The result is the same, bit for bit, as
   a fresh setup with the same clusters.

   On more than one MPI rank the hierarchy is distributed (docs/algorithms.md 2.4, docs/cmg.md): clusters never
   cross ranks, coarse levels are per-rank sort-and-reduce sums of the rank's rows, strictly dominant rows keep
   their excess on the diagonal (no ground vertex), and the last level is gathered to every rank and solved there
   by the one-rank cmg. New values on the same pattern keep the clusters and the sorts (the reduction and the sums
   run again). In parallel the hierarchy is kept in double precision, and positive off-diagonals
   are refused (the double cover is one-rank only): run on one rank or use -pc_type bjacobi -sub_pc_type cmg.

   Level: intermediate

.seealso: PCCMGGetNumberOfLevels(), PCCMGGetLevel(), PCCMGSetCheckSymmetry(), PCCMGSetSymmetryTolerance(), PCCMGSetDirichletRows(),
          PCCMGSetDominanceTolerance(), PCCMGSetPositiveOffDiagonal(), PCCMGSetDirectSize(), PCCMGSetMPIGatherSize(), PCCMGSetMaxLevels(), PCCMGSetRepeat(),
          PCCMGSetRepeatMax(), PCCMGSetFuseNnz(), PCCMGSetPackNnz(), PCCMGSetPrecision(), PCCMGSetUseGraph(), PCCMGSetMatType(),
          PCCMGSetMonitor(), PCCMGSetClusterOrder(), PCCMGSetSetupThreads(), PCCMGPrecision, PCCMGPositiveMode, PCCMGMatType,
          PCGAMG, PCHYPRE
M*/
PetscErrorCode PCCreate_CMG(PC pc)
{
  PC_CMG *cmg;

  PetscFunctionBegin;
  PetscCall(PetscNew(&cmg));
  PetscCall(GPUPCCMGOptionsDefault(&cmg->opts));
  cmg->prec               = PC_CMG_PRECISION_DOUBLE;
  cmg->mattype            = PC_CMG_MAT_CSR;
  cmg->graph              = PETSC_TRUE;
  pc->data                = (void *)cmg;
  pc->ops->setup          = PCSetUp_CMG;
  pc->ops->apply          = PCApply_CMG;
  pc->ops->applytranspose = PCApplyTranspose_CMG;
  pc->ops->reset          = PCReset_CMG;
  pc->ops->destroy        = PCDestroy_CMG;
  pc->ops->setfromoptions = PCSetFromOptions_CMG;
  pc->ops->view           = PCView_CMG;
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCCMGGetNumberOfLevels_C", PCCMGGetNumberOfLevels_CMG));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCCMGGetLevel_C", PCCMGGetLevel_CMG));
  PetscCall(PCCMGComposeOptionFunctions_Private(pc, PETSC_TRUE));
  PetscCall(GPUPCDenseSetUp()); /* the last level's factor: the dense solver starts here, not in the first PCSetUp */
  PetscFunctionReturn(0);
}

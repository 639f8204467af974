/*
   PC gpuamg: classical and smoothed-aggregation algebraic multigrid, setup on the host (setup*.c, gpupc/amg.h), cycles
   on the device (cycle*.c, amgsmoother.c, amgcoarse.c, gpupc/amgcycle.h). This file is the PC: setup (build, or keep the
   coarsening and P and recompute the Galerkin products on SAME_NONZERO_PATTERN), apply, apply transpose, view,
   coordinates, reset and destroy.
*/
#include <gpupc/amgcycle.h>

/*
   GPUPCAMGReset - frees what a PCSetUp of gpuamg built: the device levels with their smoothers and coarse solver
   (GPUPCAMGDeviceDestroy) and the hierarchy, host or device built (GPUPCAMGHierarchyDestroy); the one place that
   does, for PCReset, PCDestroy, a new nonzero pattern, new coordinates and a changed option.

   Input Parameters:
+  pc      - the PC
-  rebuild - PETSC_TRUE: also mark the PC not set up, so that the next PCSetUp builds again even on
             SAME_NONZERO_PATTERN (an option or the coordinates changed what the hierarchy would be)

   The options, the coordinates and the operator's AIJ copy stay (PCReset_GPUAMG frees the copy).
*/
PetscErrorCode GPUPCAMGReset(PC pc, PetscBool rebuild)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  if (g->built) {
    PetscCall(GPUPCAMGDeviceDestroy(&g->dev));
    PetscCall(GPUPCAMGHierarchyDestroy(&g->hier));
    g->built = PETSC_FALSE;
  }
  if (rebuild) pc->setupcalled = 0;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCReset_GPUAMG(PC pc)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  PetscCall(GPUPCAMGReset(pc, PETSC_FALSE));
  PetscCall(MatDestroy(&g->aij));
  PetscFunctionReturn(0);
}

/* the operator the setup reads: the preconditioning matrix when it is AIJ or derived from it (GPUPC's types), else
   an AIJ copy with its block size and near-null space (BAIJ, SBAIJ: their arrays are not AIJ's, and SBAIJ stores one
   triangle); a new copy at every setup, as the values may have changed */
static PetscErrorCode OperatorAIJ(PC pc, Mat *A)
{
  PC_GPUAMG *g              = (PC_GPUAMG *)pc->data;
  Mat        P              = pc->pmat;
  PetscErrorCode (*f)(void) = NULL;
  PetscMPIInt  size;
  MatNullSpace nsp;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)P), &size));
  PetscCall(PetscObjectQueryFunction((PetscObject)P, size > 1 ? "MatMPIAIJSetPreallocation_C" : "MatSeqAIJSetPreallocation_C", &f));
  PetscCall(MatDestroy(&g->aij));
  if (f) {
    *A = P;
    PetscFunctionReturn(0);
  }
  PetscCall(MatConvert(P, MATAIJ, MAT_INITIAL_MATRIX, &g->aij));
  PetscCall(MatGetNearNullSpace(P, &nsp));
  if (nsp) PetscCall(MatSetNearNullSpace(g->aij, nsp));
  *A = g->aij;
  PetscFunctionReturn(0);
}

/* whether every level of the hierarchy of A has block size 1: A's is 1 and the coarse levels' (classical: 1;
   aggregation: the near-null-space vectors, the constant when none is attached) too */
static PetscErrorCode UnitBlocks(Mat A, const GPUPCAMGSetupOptions *so, PetscBool *unit)
{
  PetscInt     bs, nvec = 0;
  MatNullSpace nsp;

  PetscFunctionBegin;
  PetscCall(MatGetBlockSize(A, &bs));
  PetscCall(MatGetNearNullSpace(A, &nsp));
  if (nsp) {
    PetscBool  has;
    const Vec *vecs;
    PetscCall(MatNullSpaceGetVecs(nsp, &has, &nvec, &vecs));
    nvec += has ? 1 : 0;
  }
  *unit = (PetscBool)(bs == 1 && (so->type == PC_GPUAMG_CLASSICAL || nvec <= 1));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCSetUp_GPUAMG(PC pc)
{
  PC_GPUAMG     *g = (PC_GPUAMG *)pc->data;
  Mat            A;
  PetscInt       M, N;
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(MatGetSize(pc->pmat, &M, &N));
  PetscCheck(M == N, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_SIZ, "PC gpuamg needs a square matrix; the preconditioning matrix is %" PetscInt_FMT " x %" PetscInt_FMT, M, N);
  PetscCall(PetscTime(&t0));
  if (g->built && pc->flag == SAME_NONZERO_PATTERN) {
    PetscCall(OperatorAIJ(pc, &A));
    PetscCall(GPUPCAMGHierarchyRecompute(A, &g->hier));
    PetscCall(PetscTime(&t1));
    PetscCall(GPUPCAMGDeviceRefresh(&g->hier, &g->dev));
    g->nreuses++;
  } else {
    PetscErrorCode ierr;

    PetscCall(GPUPCAMGReset(pc, PETSC_FALSE)); /* OperatorAIJ replaces the AIJ copy */
    PetscCall(OperatorAIJ(pc, &A));
    { /* host copies of the device setup's levels only where the cycle reads them: a smoother that reads the host
         matrix (bjacobi: on levels of block size > 1 only); every level format, bcsr too, is laid out on the device */
      GPUPCAMGSetupOptions so = g->setup;
      PCGPUAMGSmootherOps  sm;
      PetscBool            found, unit = PETSC_FALSE;

      PetscCall(GPUPCAMGSmootherFind(g->cyc.smoother, &sm, &found));
      PetscCall(UnitBlocks(A, &so, &unit));
      if (found && (sm.needs_host || sm.needs_graph || (sm.needs_host_blocks && !unit))) so.host_levels = PETSC_TRUE;
      ierr = GPUPCAMGHierarchyBuild(A, &so, &g->hier);
    }
    if (ierr) { /* bad input: what the build had made goes, the error stays (not yet built, so not GPUPCAMGReset's) */
      (void)GPUPCAMGHierarchyDestroy(&g->hier);
      PetscCall(ierr);
    }
    PetscCall(PetscTime(&t1));
    g->built = PETSC_TRUE; /* from here on PCReset frees the hierarchy and whatever the device setup made */
    PetscCall(GPUPCAMGDeviceCreate(&g->hier, &g->cyc, &g->dev));
  }
  g->t_hierarchy = t1 - t0;
  g->nsetups++;
  PetscFunctionReturn(0);
}

static PetscErrorCode PCApply_GPUAMG(PC pc, Vec x, Vec y)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  PetscCall(GPUPCAMGDeviceApply(&g->dev, PETSC_FALSE, x, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCApplyTranspose_GPUAMG(PC pc, Vec x, Vec y)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  PetscCall(GPUPCAMGDeviceApply(&g->dev, PETSC_TRUE, x, y));
  PetscFunctionReturn(0);
}

/* several ranks: which levels were coarsened across ranks, and why the others were not */
static PetscErrorCode ViewAcross(PC pc, PetscViewer viewer)
{
  PC_GPUAMG  *g = (PC_GPUAMG *)pc->data;
  PetscMPIInt size;
  PetscInt    nc = g->hier.nlevels - 1, na = g->hier.nacross;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &size));
  if (size == 1 || nc < 1) PetscFunctionReturn(0);
  if (g->setup.type == PC_GPUAMG_AGG) PetscCall(PetscViewerASCIIPrintf(viewer, "coarsening rank by rank: each rank aggregates its own rows (aggregation across ranks is not implemented)\n"));
  else if (na == nc) PetscCall(PetscViewerASCIIPrintf(viewer, "coarsening across ranks on all %" PetscInt_FMT " coarsened levels (%s with the ghosts' states and measures, interpolation from other ranks' C points)\n", nc, PCGPUAMGCoarsenTypes[g->setup.coarsen]));
  else if (na == 0) PetscCall(PetscViewerASCIIPrintf(viewer, "coarsening rank by rank on all %" PetscInt_FMT " coarsened levels (%s; couplings to other ranks lumped into the diagonal)\n", nc, g->hier.localwhy ? g->hier.localwhy : "unknown"));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "coarsening across ranks on %" PetscInt_FMT " of %" PetscInt_FMT " coarsened levels; rank by rank on the others (%s; couplings to other ranks lumped into the diagonal)\n", na, nc, g->hier.localwhy ? g->hier.localwhy : "unknown"));
  if (g->hier.ranks) {
    PetscBool fewer = PETSC_FALSE;
    for (PetscInt l = 0; l < g->hier.nlevels; l++)
      if (g->hier.ranks[l] < size) fewer = PETSC_TRUE;
    if (fewer) {
      PetscCall(PetscViewerASCIIPrintf(viewer, "coarse levels agglomerated onto fewer ranks below %" PetscInt_FMT " rows a rank (-pc_gpuamg_coarse_eq_limit); ranks holding rows, level by level:", GPUPCAMGCoarseEqLimit(&g->setup)));
      PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
      for (PetscInt l = 0; l < g->hier.nlevels; l++) PetscCall(PetscViewerASCIIPrintf(viewer, " %d", (int)g->hier.ranks[l]));
      PetscCall(PetscViewerASCIIPrintf(viewer, "\n"));
      PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
    } else if (g->hier.aggwhy) PetscCall(PetscViewerASCIIPrintf(viewer, "no agglomeration onto fewer ranks: not done for %s\n", g->hier.aggwhy));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "every level on all %d ranks (none below -pc_gpuamg_coarse_eq_limit %" PetscInt_FMT " rows a rank)\n", (int)size, GPUPCAMGCoarseEqLimit(&g->setup)));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "Galerkin products: %s\n", g->setup.mpi_ptap ? "MatPtAP on MPIAIJ (-pc_gpuamg_mpi_galerkin_ptap)" : "each rank's share on the sparse kernel table, P's off-rank rows and the off-rank contributions exchanged"));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCView_GPUAMG(PC pc, PetscViewer viewer)
{
  PC_GPUAMG                  *g = (PC_GPUAMG *)pc->data;
  const GPUPCAMGSetupOptions *s = &g->setup;
  PetscBool                   ascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(0);
  if (s->type == PC_GPUAMG_CLASSICAL)
    PetscCall(PetscViewerASCIIPrintf(viewer, "classical AMG: coarsening %s, interpolation %s, strength threshold %g, aggressive levels %" PetscInt_FMT ", truncation to %" PetscInt_FMT " entries per row and factor %g, rescaled by %s\n", PCGPUAMGCoarsenTypes[s->coarsen], PCGPUAMGInterpTypes[s->interp], (double)s->strong_threshold, s->aggressive_levels, s->trunc_max, (double)s->trunc_factor, PCGPUAMGTruncRescales[s->trunc_rescale]));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "smoothed aggregation AMG: strength threshold %g, %" PetscInt_FMT " prolongator smoothing steps%s\n", (double)s->agg_threshold, s->agg_smooths, s->cdim ? ", rigid-body modes from coordinates" : ""));
  PetscCall(PetscViewerASCIIPrintf(viewer, "stopping: at most %" PetscInt_FMT " levels, last level at most %" PetscInt_FMT " rows, coarsening ratio at most %g; host setup threads %" PetscInt_FMT "\n", s->max_levels, s->max_coarse, (double)s->max_ratio, s->threads));
  if (!g->built) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "not set up yet\n"));
    PetscFunctionReturn(0);
  }
  if (g->hier.ondevice) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "setup on the device: %.3g s (strength and coarsening %.3g s, interpolation %.3g s, Galerkin products %.3g s), peak device memory of the setup %.1f MiB; setups %" PetscInt_FMT ", of them reusing the coarsening %" PetscInt_FMT "\n", g->t_hierarchy, g->hier.times[0], g->hier.times[1], g->hier.times[2], (double)g->hier.devpeak / 1048576.0, g->nsetups, g->nreuses));
    if (s->type == PC_GPUAMG_CLASSICAL && s->coarsen == PC_GPUAMG_COARSEN_HMIS) PetscCall(PetscViewerASCIIPrintf(viewer, "device coarsening: hmis, Ruge-Stueben's first pass inside subdomains of %" PetscInt_FMT " rows, then PMIS rounds on the points without strong couplings inside their subdomain\n", s->hmis_subdomain));
    else if (s->type == PC_GPUAMG_CLASSICAL) PetscCall(PetscViewerASCIIPrintf(viewer, "device coarsening: %s\n", PCGPUAMGCoarsenTypes[s->coarsen]));
    { /* several ranks: the device setup across ranks (amgsetupdevicempi.c) */
      PetscMPIInt size;
      PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &size));
      if (size > 1) {
        PetscCall(PetscViewerASCIIPrintf(viewer, "device setup on %d ranks: each level as each rank's device blocks%s\n", (int)size, g->hier.hostlevels ? ", host copies of the levels and P kept" : ""));
        PetscCall(ViewAcross(pc, viewer));
      }
    }
  } else {
    if (g->hier.hostwhy) PetscCall(PetscViewerASCIIPrintf(viewer, "setup on the host (the device setup does not cover %s)\n", g->hier.hostwhy));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "setup on the host\n"));
    PetscCall(PetscViewerASCIIPrintf(viewer, "host setup %.3g s (strength and coarsening %.3g s, interpolation %.3g s, Galerkin products %.3g s); setups %" PetscInt_FMT ", of them reusing the coarsening %" PetscInt_FMT "\n", g->t_hierarchy, g->hier.times[0], g->hier.times[1], g->hier.times[2], g->nsetups, g->nreuses));
    PetscCall(ViewAcross(pc, viewer));
  }
  PetscCall(GPUPCAMGDeviceView(&g->dev, viewer));
  PetscFunctionReturn(0);
}

/* collective: a rank without rows gives 0 points; a wrong count is an error on every rank (GPUPCAMGCheckCoordinates) */
static PetscErrorCode PCSetCoordinates_GPUAMG(PC pc, PetscInt dim, PetscInt nloc, PetscReal *coords)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  PetscCheck(dim >= 1 && dim <= 3, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCSetCoordinates: dimension %" PetscInt_FMT " is not 1, 2 or 3", dim);
  if (pc->pmat) PetscCall(GPUPCAMGCheckCoordinates(pc->pmat, dim, nloc));
  PetscCall(PetscFree(g->coords));
  PetscCall(PetscMalloc1(dim * nloc, &g->coords));
  PetscCall(PetscArraycpy(g->coords, coords, dim * nloc));
  g->setup.cdim    = dim;
  g->setup.ncoords = nloc;
  g->setup.coords  = g->coords;
  if (g->built) PetscCall(GPUPCAMGReset(pc, PETSC_TRUE));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCDestroy_GPUAMG(PC pc)
{
  PC_GPUAMG *g = (PC_GPUAMG *)pc->data;

  PetscFunctionBegin;
  PetscCall(PCReset_GPUAMG(pc));
  PetscCall(PCGPUAMGComposeOptionFunctions_Private(pc, PETSC_FALSE));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSetCoordinates_C", NULL));
  PetscCall(PetscFree(g->coords));
  PetscCall(PetscFree(pc->data));
  PetscFunctionReturn(0);
}

/*MC
   PCGPUAMG - algebraic multigrid with the setup on the host and the cycles on the GPU: classical AMG (C/F coarsening,
   interpolation) or smoothed aggregation, Galerkin coarse operators, level matrices, prolongators and restrictions
   (R = P^T, stored) in a GPU format, smoothing, residuals, restriction, prolongation and the dense last-level solve as
   device kernels, on one rank recorded once as a CUDA graph.

   Options Database Keys (host setup):
+  -pc_gpuamg_type <classical,agg> - classical (default) or smoothed aggregation
.  -pc_gpuamg_coarsen <rs,cljp,pmis,hmis> - C/F splitting (default pmis; hmis with the device setup: see
                                            -pc_gpuamg_dev_hmis_subdomain)
.  -pc_gpuamg_interp <direct,standard,ext+i,multipass,simple> - interpolation (default ext+i)
.  -pc_gpuamg_strong_threshold <0.25> - classical strength threshold
.  -pc_gpuamg_agg_threshold <0.05> - aggregation strength threshold
.  -pc_gpuamg_aggressive_levels <0> - aggressive coarsening on the first levels (agg: on the squared graph)
.  -pc_gpuamg_coarsen_across <true> - classical pmis/hmis on several ranks: coarsen across ranks (false: rank by rank)
.  -pc_gpuamg_trunc_max <4> - at most this many interpolation entries per row
.  -pc_gpuamg_trunc_factor <0> - drop interpolation entries below this times the row's largest
.  -pc_gpuamg_trunc_rescale <sum,signs> - a truncated row keeps its sum by one factor (sum, default) or one factor per
                                          sign (signs)
.  -pc_gpuamg_agg_smooths <1> - prolongator smoothing steps (0: unsmoothed aggregation)
.  -pc_gpuamg_max_levels <25> - at most this many levels
.  -pc_gpuamg_max_coarse <100> - stop at this many rows
-  -pc_gpuamg_setup_threads <n> - host threads of the setup (default: the cores this rank may use)

   Options Database Keys (cycle):
+  -pc_gpuamg_cycle <v,w,f> - the cycle (default v)
.  -pc_gpuamg_smoother <name> - the smoother from the registry: jacobi, l1jacobi, chebyshev, polynomial, mcgs,
                                 bjacobi or one added with PCGPUAMGSmootherRegister() (default l1jacobi for classical,
                                                               chebyshev for agg)
.  -pc_gpuamg_pre_sweeps <1> - sweeps before the coarse correction
.  -pc_gpuamg_post_sweeps <1> - sweeps after
.  -pc_gpuamg_jacobi_weight <1> - factor w: jacobi damps level l by w 4 / (3 lambda_l), l1jacobi by w
.  -pc_gpuamg_chebyshev_degree <2> - products with A per Chebyshev sweep
.  -pc_gpuamg_polynomial_degree <2> - degree of the Neumann series
.  -pc_gpuamg_mcgs_block_nnz <8192> - mcgs: the colours after the last one of more estimated entries run inside one
                                      block, one launch per sweep (0: every colour its own launch)
.  -pc_gpuamg_mcgs_lanes <0> - mcgs: threads per row, 1, 2, 4, 8, 16 or 32 (0: by the level's mean row length)
.  -pc_gpuamg_dev_agg_priority <hash,index> - developer: the device aggregation's MIS(2) priorities (index: the host
                                             setup's aggregates)
.  -pc_gpuamg_mat_type <segcsr,hec,bcsr,auto> - device format of A, P and R (auto: per matrix, -ksp_view says which and why;
                                               bcsr: a P and R whose rows and columns have different block sizes take segcsr)
-  -pc_gpuamg_use_graph <true> - record the cycle as a CUDA graph (one rank, cuda backend)

   Notes:
   The smoothers are polynomials in D^-1 A (jacobi, chebyshev, polynomial) or D_l1^-1 A (l1jacobi), so a cycle with as
   many pre- as post-sweeps is a symmetric preconditioner for KSPCG with the v and w cycles. The f cycle (an F-cycle,
   then a V-cycle, on each coarser level) is not symmetric: use it with KSPFGMRES or KSPGMRES. PCApplyTranspose applies
   the exact transpose of the cycle (for KSPBICG). The last level is inverted densely (Cholesky when it is symmetric
   positive definite, LU otherwise) and applied as a matrix-vector product on the device; on several ranks every rank
   holds it and solves redundantly. Each level's product does its device halo exchange (mpisegcsr). With
   SAME_NONZERO_PATTERN a new PCSetUp keeps the coarsening and the prolongators and recomputes the Galerkin products.
   The defaults (classical, pmis, ext+i, l1-Jacobi, V(1,1)) follow what BoomerAMG users on GPUs run; they are to be
   confirmed by measurement on the GPU (bench/amg.sh). Smoothed aggregation defaults to the Chebyshev smoother
   (degree 2 on [lambda/10, lambda], GAMG's): with l1-Jacobi it took 21, 16 and 58 CG iterations on elasticity3d,
   poisson3d and randcoef3d at ~100k rows against GAMG's 13, 10 and 194, with Chebyshev 9, 9 and 29 (bench/NOTES.md,
   "amgconv"). PCGPUAMGSetSmoother() (or -pc_gpuamg_smoother) overrides the type's default. jacobi, chebyshev and
   polynomial use per level lambda_l = min(1.1 * largest Ritz value of 20 Lanczos steps on |D|^-1/2 sgn(D) A |D|^-1/2,
   Gershgorin bound of D^-1 A) >= lambda_max(D^-1 A_l); -ksp_view prints it with the Ritz value, the Gershgorin bound
   and the damping of each level. A fixed Jacobi weight (2/3) is no smoother on coarse levels where lambda_max reaches
   3-4 (CG broke down, Richardson diverged: issue 34). bjacobi is point-block Jacobi over each level's block size
   (MatGetBlockSize of the level: 3 then 6 for 3D elasticity with aggregation; block size 1 is jacobi), with PC
   gpubjacobi's dense block inverses and lambda_l of D_B^-1 A from Lanczos in the D_B inner product; -ksp_view lists
   the block size per level.

   Level: intermediate

.seealso: PCGAMG, PCHYPRE, PCCMG, PCGPUAMGSetType(), PCGPUAMGSetCycleType(), PCGPUAMGSetSmoother(), PCSetCoordinates()
M*/
PetscErrorCode PCCreate_GPUAMG(PC pc)
{
  PC_GPUAMG *g;

  PetscFunctionBegin;
  PetscCall(PCGPUAMGRegisterEvents());
  PetscCall(PetscNew(&g));
  pc->data = g;
  PetscCall(GPUPCAMGSetupOptionsDefault(&g->setup));
  g->setup.host_levels = PETSC_FALSE; /* the device setup's levels stay on the device (-pc_gpuamg_keep_host_levels) */
  PetscCall(GPUPCAMGCycleOptionsDefault(&g->cyc));
  pc->ops->setup          = PCSetUp_GPUAMG;
  pc->ops->apply          = PCApply_GPUAMG;
  pc->ops->applytranspose = PCApplyTranspose_GPUAMG;
  pc->ops->view           = PCView_GPUAMG;
  pc->ops->reset          = PCReset_GPUAMG;
  pc->ops->destroy        = PCDestroy_GPUAMG;
  pc->ops->setfromoptions = PCSetFromOptions_GPUAMG;
  PetscCall(PCGPUAMGComposeOptionFunctions_Private(pc, PETSC_TRUE));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSetCoordinates_C", PCSetCoordinates_GPUAMG));
  PetscFunctionReturn(0);
}

/*
   PC cmg on more than one MPI rank: setup, apply, view and reset of the distributed hierarchy
   (gpupc/cmgmpi.h). PCSetUp_CMG and friends in ../cmg.c branch here when the PC's communicator
   has more than one rank; the one-rank path does not come here.
*/
#include <petsc/private/pcimpl.h>
#include <gpupc/cmgmpi.h>

PetscLogEvent PC_CMGM_Wait, PC_CMGM_RowsUp, PC_CMGM_RedKernels, PC_CMGM_RedHost, PC_CMGM_Symmetry, PC_CMGM_FromBlocks, PC_CMGM_Graph, PC_CMGM_GalSums, PC_CMGM_UpBlocks, PC_CMGM_UpHalo, PC_CMGM_UpClusters, PC_CMGM_UpSeq;

/* the phases of the distributed setup: inside CMGReduce (device reduction) RowsUp, RedKern, RedHost, Symmetry and
   level 0's FromBlocks; Graph before each CMGCluster; inside CMGGalerkin GalSums and the coarse levels' FromBlocks;
   inside CMGUpload the Up* events. Wait: a barrier at the start of a setup, so that a rank that reaches the setup
   before the others waits there instead of in the first collective of a phase */
PetscErrorCode GPUPCCMGMPIRegisterEvents(void)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventRegister("CMGMWait", PC_CLASSID, &PC_CMGM_Wait));             /* ranks arriving at the setup */
  PetscCall(PetscLogEventRegister("CMGMRowsUp", PC_CLASSID, &PC_CMGM_RowsUp));         /* the rank's rows as one device CSR */
  PetscCall(PetscLogEventRegister("CMGMRedKern", PC_CLASSID, &PC_CMGM_RedKernels));    /* the setup kernels of level 0 */
  PetscCall(PetscLogEventRegister("CMGMRedHost", PC_CLASSID, &PC_CMGM_RedHost));       /* ghosts' flags, numbers; couplings E */
  PetscCall(PetscLogEventRegister("CMGMSymmetry", PC_CLASSID, &PC_CMGM_Symmetry));     /* inside the rank and across ranks */
  PetscCall(PetscLogEventRegister("CMGMFromBlocks", PC_CLASSID, &PC_CMGM_FromBlocks)); /* host MPIAIJ from device blocks */
  PetscCall(PetscLogEventRegister("CMGMGraph", PC_CLASSID, &PC_CMGM_Graph));           /* the rank's clustering graph */
  PetscCall(PetscLogEventRegister("CMGMGalSums", PC_CLASSID, &PC_CMGM_GalSums));       /* ghost clusters, uploads, sums */
  PetscCall(PetscLogEventRegister("CMGMUpBlocks", PC_CLASSID, &PC_CMGM_UpBlocks));     /* the level formats of -A_k's blocks */
  PetscCall(PetscLogEventRegister("CMGMUpHalo", PC_CLASSID, &PC_CMGM_UpHalo));         /* the levels' halo plans */
  PetscCall(PetscLogEventRegister("CMGMUpClusters", PC_CLASSID, &PC_CMGM_UpClusters)); /* weights, cluster lists */
  PetscCall(PetscLogEventRegister("CMGMUpSeq", PC_CLASSID, &PC_CMGM_UpSeq));           /* the gathered level's hierarchy, fold */
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCCMGMPIDestroy(GPUPCCMGMPI *Mp)
{
  GPUPCCMGMPI M = *Mp;

  PetscFunctionBegin;
  if (!M) PetscFunctionReturn(0);
  PetscCall(GPUPCCMGMPIDeviceFree(M));
  for (PetscInt k = 0; k < M->nlevels; k++) PetscCall(GPUPCCMGMPILevelFree(&M->levels[k]));
  PetscCall(PetscFree(M->levels));
  PetscCall(GPUPCCMGReductionFree(&M->red));
  PetscCall(PetscFree(M->ghostdir));
  PetscCall(GPUPCCMGHierarchyDestroy(&M->seq));
  PetscCall(PetscFree(M));
  *Mp = NULL;
  PetscFunctionReturn(0);
}

PetscErrorCode PCReset_CMG_MPI(PC pc)
{
  PC_CMG *cmg = (PC_CMG *)pc->data;

  PetscFunctionBegin;
  PetscCall(GPUPCCMGMPIDestroy(&cmg->mpi));
  PetscFunctionReturn(0);
}

/* a value-only setup (SAME_NONZERO_PATTERN) keeps the clusters and the Galerkin sorts (GPUPCCMGMPIHierarchyRecompute);
   otherwise the hierarchy is rebuilt */
PetscErrorCode PCSetUp_CMG_MPI(PC pc)
{
  PC_CMG     *cmg  = (PC_CMG *)pc->data;
  MPI_Comm    comm = PetscObjectComm((PetscObject)pc);
  GPUPCCMGMPI M;
  PetscBool   same = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCheck(cmg->prec == GPUPC_CMG_PRECISION_DOUBLE, comm, PETSC_ERR_SUP, "PC cmg on more than one MPI rank keeps the hierarchy in double precision; -pc_cmg_precision single works on one rank (or with -pc_type bjacobi -sub_pc_type cmg)");
  PetscCall(PetscLogEventBegin(PC_CMGM_Wait, 0, 0, 0, 0));
  PetscCallMPI(MPI_Barrier(comm));
  PetscCall(PetscLogEventEnd(PC_CMGM_Wait, 0, 0, 0, 0));
  if (cmg->mpi && cmg->built && pc->flag == SAME_NONZERO_PATTERN) {
    cmg->built = PETSC_FALSE;
    PetscCall(GPUPCCMGMPIHierarchyRecompute(pc->pmat, &cmg->opts, cmg->mpi, &same));
    if (same) {
      PetscCall(GPUPCCMGMPIDeviceUpload(pc->pmat, &cmg->opts, cmg->mpi));
      cmg->built = PETSC_TRUE;
      cmg->nsetups++;
      cmg->nreuses++;
      PetscFunctionReturn(0);
    }
    PetscCall(PetscInfo(pc, "CMG (parallel): same nonzero pattern, but %s; the hierarchy is rebuilt\n", cmg->mpi->ptap ? "its levels were formed by MatPtAP (-pc_cmg_mpi_galerkin_ptap)" : "the reduced level 0 changed structure (signs or Dirichlet rows changed)"));
  }
  PetscCall(GPUPCCMGMPIDestroy(&cmg->mpi));
  cmg->built = PETSC_FALSE;
  PetscCall(PetscNew(&M));
  M->comm = comm;
  PetscCallMPI(MPI_Comm_size(comm, &M->size));
  PetscCallMPI(MPI_Comm_rank(comm, &M->rank));
  M->format = cmg->mattype == PC_CMG_MAT_CSR ? GPUPC_DEVMAT_SEGCSR : GPUPCCMGDevMatFormat(cmg->mattype);
  cmg->mpi  = M; /* PCReset frees what a failed build left */
  PetscCall(GPUPCCMGMPIHierarchyBuild(pc->pmat, &cmg->opts, M));
  PetscCall(GPUPCCMGMPIDeviceUpload(pc->pmat, &cmg->opts, M));
  {
    PetscBool avail;
    PetscCall(GPUPCGraphAvailable(&avail));
    M->usegraph = (PetscBool)(avail && cmg->graph);
  }
  cmg->built = PETSC_TRUE;
  cmg->nsetups++;
  PetscFunctionReturn(0);
}

PetscErrorCode PCApply_CMG_MPI(PC pc, PetscBool transpose, Vec b, Vec x)
{
  PC_CMG            *cmg = (PC_CMG *)pc->data;
  const PetscScalar *db;
  PetscScalar       *dx;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(b, &n));
  PetscCheck(n == cmg->mpi->red.n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "PC cmg: vector of local length %" PetscInt_FMT ", the preconditioner was set up for %" PetscInt_FMT, n, cmg->mpi->red.n);
  PetscCall(VecGPUGetDeviceArrayRead(b, &db));
  PetscCall(VecGPUGetDeviceArrayWrite(x, &dx));
  PetscCall(GPUPCCMGMPIDeviceApply(cmg->mpi, transpose, db, dx));
  PetscCall(VecGPURestoreDeviceArrayWrite(x, &dx));
  PetscCall(VecGPURestoreDeviceArrayRead(b, &db));
  PetscFunctionReturn(0);
}

PetscErrorCode PCView_CMG_MPI(PC pc, PetscViewer viewer)
{
  PC_CMG     *cmg = (PC_CMG *)pc->data;
  GPUPCCMGMPI M   = cmg->mpi;
  double      mb, lb = 0.0;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "  distributed CMG on %d MPI ranks: clusters never cross ranks, last level gathered and solved redundantly on every rank\n", (int)M->size));
  if (M->ptap) PetscCall(PetscViewerASCIIPrintf(viewer, "  coarse levels: MatPtAP on MPIAIJ (the reference, -pc_cmg_mpi_galerkin_ptap); a value-only setup rebuilds them\n"));
  else {
    double            sb = 0.0, gsb = 0.0;
    PetscGPUPCBackend backend;
    PetscCall(PetscGPUPCGetBackend(&backend));
    for (PetscInt k = 0; k + 1 < M->nlevels; k++)
      if (M->levels[k].sort) sb += (double)M->levels[k].sort->bytes / 1048576.0;
    PetscCall(MPIU_Allreduce(&sb, &gsb, 1, MPI_DOUBLE, MPI_MAX, M->comm));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  coarse levels: per rank, two sort-and-reduce sums of (cluster, cluster) triples (diagonal and off-diagonal block; ghost clusters from their owners) on the %s kernel table, blocks made into MPIAIJ directly; sorts kept for value-only setups (%.3g MB on the largest rank)\n", PetscGPUPCBackends[backend], gsb));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "  reduction (%s): %" PetscInt_FMT " rows -> level 0 of %" PetscInt_FMT " rows (%" PetscInt_FMT " Dirichlet rows eliminated%s, %" PetscInt_FMT " strictly dominant rows keep their excess on the diagonal: levels are L + diag(e))\n",
                                   M->reduced_on_device ? "per rank by the setup kernels" : "on the host", M->Nuser, M->Nkept, M->gdirichlet, M->offrank_coupling ? ", some couplings to them cross ranks" : "", M->gstrict));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  %" PetscInt_FMT " levels (stopped: %s); setups %" PetscInt_FMT ", of them value-only on the kept clusters and sorts %" PetscInt_FMT "\n", M->nlevels, GPUPCCMGStopReasons[M->stop], cmg->nsetups, cmg->nreuses));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  level       rows        nnz   clusters  ratio   rows/rank min..max  largest  singletons   weak  t_k\n"));
  for (PetscInt k = 0; k < M->nlevels; k++) {
    const GPUPCCMGMPILevel *L = &M->levels[k];
    if (k + 1 < M->nlevels)
      PetscCall(PetscViewerASCIIPrintf(viewer, "  %5" PetscInt_FMT " %10" PetscInt_FMT " %10" PetscInt_FMT " %10" PetscInt_FMT " %6.2f %9" PetscInt_FMT "..%-9" PetscInt_FMT " %8" PetscInt_FMT " %11" PetscInt_FMT " %6" PetscInt_FMT " %4" PetscInt_FMT "\n", k, L->N, L->nnz, L->NC, (double)L->N / (double)PetscMax(L->NC, 1), L->nmin, L->nmax, L->maxsize, L->nsingletons, L->nweak, L->t));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "  %5" PetscInt_FMT " %10" PetscInt_FMT " %10" PetscInt_FMT "            %16" PetscInt_FMT "..%-9" PetscInt_FMT " (last level)\n", k, L->N, L->nnz, L->nmin, L->nmax));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "  halo of one product with each level (clusters never cross ranks, so restriction and prolongation exchange nothing; msgs: owner-reader pairs over all ranks, nbr: most neighbours of a rank, ghosts: values received by all ranks / the most of a rank):\n"));
  for (PetscInt k = 0; k + 1 < M->nlevels; k++) {
    GPUPCHaloStats st;
    PetscCall(GPUPCMatHaloStats(M->levels[k].A, &st));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  %5" PetscInt_FMT " msgs %6" PetscInt64_FMT " nbr %3" PetscInt64_FMT " ghosts %10" PetscInt64_FMT " max %8" PetscInt64_FMT "\n", k, st.messages, st.nbr_max, st.ghosts, st.ghosts_max));
  }
  if (M->dlev) {
    const PetscBool direct = (PetscBool)(M->dlev[0].halo && M->dlev[0].halo->peer);
    PetscCall(PetscViewerASCIIPrintf(viewer, "  halo exchanges: %s; cycle %s\n", direct ? "directly between the GPUs (CUDA IPC, -gpupc_halo_peer)" : "staged through the host (PetscSF)", M->graph ? "recorded as a CUDA graph" : (M->usegraph ? "launched kernel by kernel (recorded after the first application when every exchange is direct)" : "launched kernel by kernel")));
    for (PetscInt k = 0; k < M->nlevels; k++) { /* the formats of the first rank's blocks (auto decides per block) */
      const GPUPCCMGMPIDeviceLevel *DL = &M->dlev[k];

      if (DL->diag && DL->offd) PetscCall(PetscViewerASCIIPrintf(viewer, "  level %" PetscInt_FMT " matrix (first rank): diagonal block %s (%s), off-diagonal block %s (%s)\n", k, DL->diag->ops->name, DL->diag->reason, DL->offd->ops->name, DL->offd->reason));
    }
  }
  if (M->gathered) {
    const GPUPCCMGHierarchy *S = &M->seq;
    PetscCall(PetscViewerASCIIPrintf(viewer, "  last level: gathered to every rank (%s) and solved redundantly by the one-rank CMG: %" PetscInt_FMT " level%s (", M->gatherhalo ? "device to device" : "MPI_Allgatherv of the right-hand side through the host", S->nlevels, S->nlevels > 1 ? "s" : ""));
    PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
    for (PetscInt k = 0; k < S->nlevels; k++) PetscCall(PetscViewerASCIIPrintf(viewer, "%s%" PetscInt_FMT, k ? ", " : "rows ", S->levels[k].n));
    PetscCall(PetscViewerASCIIPrintf(viewer, "), %s\n", S->coarse_direct ? "dense grounded inverse last" : "WARNING: stagnated, Jacobi last"));
    PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
  } else PetscCall(PetscViewerASCIIPrintf(viewer, "  WARNING: the hierarchy stagnated (%s); the last level (%" PetscInt_FMT " rows) is one Jacobi step, convergence may suffer\n", GPUPCCMGStopReasons[M->stop], M->levels[M->nlevels - 1].N));
  mb = (double)M->bytes / 1048576.0;
  PetscCall(MPIU_Allreduce(&mb, &lb, 1, MPI_DOUBLE, MPI_MAX, M->comm));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  device memory of the hierarchy: %.3g MB on the largest rank\n", lb));
  PetscFunctionReturn(0);
}

PetscErrorCode PCCMGGetLevel_CMG_MPI(PC pc, PetscInt k, PetscInt *n, PetscInt *nnz, PetscInt *t)
{
  GPUPCCMGMPI M = ((PC_CMG *)pc->data)->mpi;

  PetscFunctionBegin;
  PetscCheck(k >= 0 && k < M->nlevels, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "level %" PetscInt_FMT " does not exist; the hierarchy has levels 0..%" PetscInt_FMT, k, M->nlevels - 1);
  if (n) *n = M->levels[k].N;
  if (nnz) *nnz = M->levels[k].nnz;
  if (t) *t = M->levels[k].t;
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCCMGMPIGetNumberOfLevels(GPUPCCMGMPI M, PetscInt *nlevels)
{
  PetscFunctionBegin;
  *nlevels = M->nlevels;
  PetscFunctionReturn(0);
}

/*@C
   PCCMGGetMPIHierarchy_Private - for tests: the distributed hierarchy of a set-up PC cmg on more than one rank

   Not Collective

   Input Parameter:
.  pc - the PC (type cmg, set up)

   Output Parameter:
.  M - the hierarchy (gpupc/cmgmpi.h), NULL on one rank or before setup

   Level: developer
@*/
PetscErrorCode PCCMGGetMPIHierarchy_Private(PC pc, GPUPCCMGMPI *M)
{
  PetscBool iscmg;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCCMG, &iscmg));
  PetscCheck(iscmg, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONG, "PC is not of type cmg");
  *M = ((PC_CMG *)pc->data)->mpi;
  PetscFunctionReturn(0);
}

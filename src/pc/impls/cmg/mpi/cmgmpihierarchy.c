/*
   Distributed CMG hierarchy (docs/algorithms.md 2.4) on the host:
     - clustering: every rank clusters its own vertices with the sequential GPUPCCMGCluster on a
       GPUPCCMGLevel made of its diagonal block (heaviest neighbour among the rank's vertices), whose
       diagonal holds the volume = all the row's off-diagonal weight, on and off rank (a vertex
       mostly coupled to other ranks becomes weak, a singleton); clusters never cross ranks;
     - Galerkin: R is block diagonal by rank, A_{k+1} = R A_k R^T by per-rank sort-and-reduce sums (cmgmpigalerkin.c;
       the reference: P = R^T as MPIAIJ and MatPtAP(A_k, P), -pc_cmg_mpi_galerkin_ptap);
       the coarse excess is the cluster sum of e (R diag(e) R^T) and the coarse diagonal is reset to
       the off-diagonal weight plus that excess (no cancellation in the diagonal);
     - stopping rules of the one-rank hierarchy on global sizes;
     - last level (global size <= -pc_cmg_direct_size, or coarsening slowed by the rank boundaries):
       gathered to every rank (MatCreateSubMatrices) and given to the one-rank hierarchy
       (GPUPCCMGHierarchyBuild: ground vertex for the excess, GPUPCCMGCoarseFactor when small);
     - t_k from the global nonzero ratios (docs/algorithms.md 2.2 item 8).
*/
#include <gpupc/cmgmpi.h>

PetscErrorCode GPUPCCMGMPILevelFree(GPUPCCMGMPILevel *L)
{
  PetscFunctionBegin;
  PetscCall(MatDestroy(&L->A));
  PetscCall(GPUPCCMGMPISortFree(&L->sort));
  PetscCall(PetscFree(L->e));
  PetscCall(PetscFree(L->cluster));
  PetscCall(PetscMemzero(L, sizeof(*L)));
  PetscFunctionReturn(0);
}

/* global nonzeros and local rows over the ranks */
static PetscErrorCode LevelSizes(MPI_Comm comm, GPUPCCMGMPILevel *L)
{
  MatInfo  info;
  PetscInt mm[2], gm[2];

  PetscFunctionBegin;
  PetscCall(MatGetSize(L->A, &L->N, NULL));
  PetscCall(MatGetOwnershipRange(L->A, &L->rstart, NULL));
  PetscCall(MatGetLocalSize(L->A, &L->n, NULL));
  PetscCall(MatGetInfo(L->A, MAT_GLOBAL_SUM, &info));
  L->nnz = (PetscInt)info.nz_used;
  mm[0]  = -L->n;
  mm[1]  = L->n;
  PetscCall(MPIU_Allreduce(mm, gm, 2, MPIU_INT, MPI_MAX, comm));
  L->nmin = -gm[0];
  L->nmax = gm[1];
  PetscFunctionReturn(0);
}

/* a level whose global coarsening ratio falls below this is gathered to every rank (see ClusterLevel) */
#define GPUPC_CMG_MPI_MIN_RATIO 2.0

/* the rank's diagonal block as a GPUPCCMGLevel (off-diagonals -|a_ij|, columns ascending, diagonal slot at dpos[i]);
   volall: all the row's off-diagonal weight, vollocal: its weight to vertices of this rank */
static PetscErrorCode LocalGraph(const GPUPCCMGMPILevel *L, GPUPCCMGLevel *G, PetscInt *dpos, PetscReal *volall, PetscReal *vollocal)
{
  Mat      Ad, Ao;
  GPUPCCSR cd, co;

  PetscFunctionBegin;
  PetscCall(GPUPCMatMPIAIJGetSeqAIJ(L->A, &Ad, &Ao, NULL));
  PetscCall(GPUPCMatGetCSR(Ad, &cd));
  PetscCall(GPUPCMatGetCSR(Ao, &co));
  PetscCall(PetscMemzero(G, sizeof(*G)));
  G->n = L->n;
  PetscCall(PetscMalloc1(G->n + 1, &G->rowptr));
  G->rowptr[0] = 0;
  for (PetscInt i = 0; i < G->n; i++) {
    PetscInt cnt = 1;
    for (PetscInt k = cd.i[i]; k < cd.i[i + 1]; k++)
      if (cd.j[k] != i && cd.a[k] != 0.0) cnt++;
    G->rowptr[i + 1] = G->rowptr[i] + cnt;
  }
  G->nnz = G->rowptr[G->n];
  PetscCall(PetscMalloc2(PetscMax(G->nnz, 1), &G->col, PetscMax(G->nnz, 1), &G->val));
  for (PetscInt i = 0; i < G->n; i++) {
    PetscInt  o   = G->rowptr[i];
    PetscReal off = 0.0;
    dpos[i]       = -1;
    vollocal[i]   = 0.0;
    for (PetscInt k = co.i[i]; k < co.i[i + 1]; k++) off += PetscAbsScalar(co.a[k]);
    for (PetscInt k = cd.i[i]; k < cd.i[i + 1]; k++) {
      if (cd.j[k] == i || cd.a[k] == 0.0) continue;
      vollocal[i] += PetscAbsScalar(cd.a[k]);
      if (dpos[i] < 0 && cd.j[k] > i) { /* keep the columns ascending */
        dpos[i]         = o++;
        G->col[dpos[i]] = i;
      }
      G->col[o]   = cd.j[k];
      G->val[o++] = -PetscAbsScalar(cd.a[k]);
    }
    if (dpos[i] < 0) {
      dpos[i]         = o++;
      G->col[dpos[i]] = i;
    }
    volall[i] = vollocal[i] + off + L->e[i];
  }
  PetscCall(GPUPCMatRestoreCSR(&co));
  PetscCall(GPUPCMatRestoreCSR(&cd));
  PetscFunctionReturn(0);
}

/* Rank-local clustering of the off-diagonal graph with GPUPCCMGCluster (or its device kernels, -pc_cmg_setup device). The volume of the weak-vertex rule is all the
   row's off-diagonal weight, on and off rank, plus its excess e (the edge to the ground on one rank): a vertex whose
   heavy edges go to other ranks (or to the ground) becomes a singleton, so that its strong edge survives to the coarser
   level instead of being smeared over a weakly attached local cluster. (Clustering such vertices with their local
   neighbours instead, i.e. the on-rank volume, tripled the iteration count on 40^3 random-coefficient grids.) Such
   vertices never merge across ranks; when the global coarsening ratio falls below GPUPC_CMG_MPI_MIN_RATIO the level
   is gathered and coarsened further by the one-rank hierarchy (GPUPCCMGMPIHierarchyBuild). */
static PetscErrorCode ClusterLevel(MPI_Comm comm, const GPUPCCMGOptions *opts, GPUPCCMGMPILevel *L)
{
  GPUPCCMGLevel G;
  PetscInt      st[3], gst[3], mx, *dpos;
  PetscReal    *volall, *vollocal;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PC_CMGM_Graph, 0, 0, 0, 0));
  PetscCall(PetscMalloc3(L->n, &dpos, L->n, &volall, L->n, &vollocal));
  PetscCall(LocalGraph(L, &G, dpos, volall, vollocal));
  for (PetscInt i = 0; i < G.n; i++) G.val[dpos[i]] = volall[i];
  PetscCall(PetscLogEventEnd(PC_CMGM_Graph, 0, 0, 0, 0));
  if (G.n > 0) { /* the same clusters either way (bit for bit: docs/algorithms.md 2.5) */
    if (opts->setup == PC_CMG_SETUP_DEVICE) PetscCall(GPUPCCMGClusterDevice(&G));
    else PetscCall(GPUPCCMGCluster(&G, opts->threads));
  }
  L->nc      = G.nc;
  L->cluster = G.cluster;
  G.cluster  = NULL;
  st[0]      = L->nc;
  st[1]      = G.nsingletons;
  st[2]      = G.nweak;
  PetscCall(MPIU_Allreduce(st, gst, 3, MPIU_INT, MPI_SUM, comm));
  PetscCall(MPIU_Allreduce(&G.maxsize, &mx, 1, MPIU_INT, MPI_MAX, comm));
  L->NC          = gst[0];
  L->nsingletons = gst[1];
  L->nweak       = gst[2];
  L->maxsize     = mx;
  PetscCall(GPUPCCMGLevelFree(&G));
  PetscCall(PetscFree3(dpos, volall, vollocal));
  PetscFunctionReturn(0);
}

/* the reference (-pc_cmg_mpi_galerkin_ptap): A_c = R A R^T through MatPtAP with P = R^T; coarse e = R e; coarse
   diagonal = off-diagonal weight + coarse e */
static PetscErrorCode GalerkinPtAP(MPI_Comm comm, const GPUPCCMGMPILevel *F, GPUPCCMGMPILevel *C)
{
  Mat          P;
  PetscInt     cstart, scan, lo, hi;
  Vec          d;
  PetscScalar *da;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PC_CMG_Galerkin, 0, 0, 0, 0));
  PetscCallMPI(MPI_Scan(&F->nc, &scan, 1, MPIU_INT, MPI_SUM, comm));
  cstart = scan - F->nc;
  PetscCall(MatCreate(comm, &P));
  PetscCall(MatSetSizes(P, F->n, F->nc, F->N, F->NC));
  PetscCall(MatSetType(P, MATMPIAIJ));
  PetscCall(MatMPIAIJSetPreallocation(P, 1, NULL, 0, NULL));
  for (PetscInt v = 0; v < F->n; v++) PetscCall(MatSetValue(P, F->rstart + v, cstart + F->cluster[v], 1.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscMemzero(C, sizeof(*C)));
  PetscCall(MatPtAP(F->A, P, MAT_INITIAL_MATRIX, 2.0, &C->A));
  PetscCall(MatDestroy(&P));
  PetscCall(PetscCalloc1(F->nc, &C->e));
  for (PetscInt v = 0; v < F->n; v++) C->e[F->cluster[v]] += F->e[v];
  PetscCall(MatCreateVecs(C->A, &d, NULL));
  PetscCall(MatGetOwnershipRange(C->A, &lo, &hi));
  PetscCheck(hi - lo == F->nc, PETSC_COMM_SELF, PETSC_ERR_PLIB, "CMG: coarse level has %" PetscInt_FMT " local rows, expected %" PetscInt_FMT " clusters", hi - lo, F->nc);
  PetscCall(VecGetArray(d, &da));
  for (PetscInt r = lo; r < hi; r++) {
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscInt           nz;
    PetscReal          s = 0.0;
    PetscCall(MatGetRow(C->A, r, &nz, &cols, &vals));
    for (PetscInt k = 0; k < nz; k++)
      if (cols[k] != r) s += PetscAbsScalar(vals[k]);
    PetscCall(MatRestoreRow(C->A, r, &nz, &cols, &vals));
    da[r - lo] = s + C->e[r - lo];
  }
  PetscCall(VecRestoreArray(d, &da));
  PetscCall(MatDiagonalSet(C->A, d, INSERT_VALUES));
  PetscCall(VecDestroy(&d));
  PetscCall(LevelSizes(comm, C));
  PetscCall(PetscLogEventEnd(PC_CMG_Galerkin, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* The last level gathered to every rank (MatCreateSubMatrices) and handed to the one-rank hierarchy
   (GPUPCCMGHierarchyBuild: its reduction adds the ground vertex for the excess diagonal; a small level becomes one
   dense grounded inverse by GPUPCCMGCoarseFactor, a level whose coarsening stalled at the rank boundaries is
   coarsened further without them). An isolated vertex without excess (a whole floating component collapsed into
   one vertex) gets diagonal 1: its value is arbitrary, and its right-hand side is 0 for a consistent system. */
static PetscErrorCode GatherSequential(GPUPCCMGMPI M, const GPUPCCMGOptions *opts)
{
  GPUPCCMGMPILevel *L = &M->levels[M->nlevels - 1];
  IS                is;
  Mat              *sub;
  Vec               d;
  PetscScalar      *da;
  GPUPCCMGOptions   so = *opts;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PC_CMG_CoarseFactor, 0, 0, 0, 0));
  PetscCall(ISCreateStride(PETSC_COMM_SELF, L->N, 0, 1, &is));
  PetscCall(MatCreateSubMatrices(L->A, 1, &is, &is, MAT_INITIAL_MATRIX, &sub));
  PetscCall(ISDestroy(&is));
  PetscCall(MatCreateVecs(sub[0], &d, NULL));
  PetscCall(MatGetDiagonal(sub[0], d));
  PetscCall(VecGetArray(d, &da));
  for (PetscInt i = 0; i < L->N; i++)
    if (PetscRealPart(da[i]) <= 0.0) da[i] = 1.0;
  PetscCall(VecRestoreArray(d, &da));
  PetscCall(MatDiagonalSet(sub[0], d, INSERT_VALUES));
  PetscCall(VecDestroy(&d));
  so.check_symmetry = PETSC_FALSE; /* checked on level 0; the Galerkin products are symmetric */
  so.monitor        = (PetscBool)(opts->monitor && M->rank == 0);
  so.max_levels     = PetscMax(1, opts->max_levels - (M->nlevels - 1));
  if (so.monitor) PetscCall(PetscPrintf(PETSC_COMM_SELF, "CMG: level %" PetscInt_FMT " gathered to every rank; its one-rank hierarchy:\n", M->nlevels - 1));
  if (so.setup == PC_CMG_SETUP_DEVICE) { /* rebuilt at every setup: nothing is kept on the device for a reuse */
    GPUPCCMGDevSetup D;
    PetscBool        built;
    PetscCall(GPUPCCMGHierarchyBuildDevice(sub[0], &so, &M->seq, &D, &built));
    if (built) PetscCall(GPUPCCMGHierarchySyncDevice(&M->seq, &D)); /* the host levels whole before D goes */
    PetscCall(GPUPCCMGDevSetupFree(&D));
    if (built && so.cluster_order) PetscCall(GPUPCCMGHierarchyOrder(&M->seq, so.threads));
    if (!built) PetscCall(GPUPCCMGHierarchyBuild(sub[0], &so, &M->seq));
  } else PetscCall(GPUPCCMGHierarchyBuild(sub[0], &so, &M->seq));
  PetscCall(MatDestroySubMatrices(1, &sub));
  PetscCall(PetscLogEventEnd(PC_CMG_CoarseFactor, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode Monitor(const GPUPCCMGOptions *opts, MPI_Comm comm, const GPUPCCMGMPILevel *L, PetscInt k, PetscBool last)
{
  PetscFunctionBegin;
  if (!opts->monitor) PetscFunctionReturn(0);
  if (!last)
    PetscCall(PetscPrintf(comm, "  CMG level %" PetscInt_FMT ": %" PetscInt_FMT " rows (%" PetscInt_FMT "..%" PetscInt_FMT " per rank), %" PetscInt_FMT " nonzeros -> %" PetscInt_FMT " clusters (ratio %.2f, largest %" PetscInt_FMT ", %" PetscInt_FMT " singletons, %" PetscInt_FMT " weak vertices)\n", k, L->N, L->nmin, L->nmax, L->nnz, L->NC,
                          (double)L->N / (double)PetscMax(L->NC, 1), L->maxsize, L->nsingletons, L->nweak));
  else PetscCall(PetscPrintf(comm, "  CMG level %" PetscInt_FMT ": %" PetscInt_FMT " rows (%" PetscInt_FMT "..%" PetscInt_FMT " per rank), %" PetscInt_FMT " nonzeros (last level)\n", k, L->N, L->nmin, L->nmax, L->nnz));
  PetscFunctionReturn(0);
}

/*
   GPUPCCMGMPIHierarchyBuild - the distributed CMG hierarchy of a parallel SDD matrix

   Collective on A
*/
PetscErrorCode GPUPCCMGMPIHierarchyBuild(Mat A, const GPUPCCMGOptions *opts, GPUPCCMGMPI M)
{
  const PetscInt maxl = PetscMax(opts->max_levels, 1);
  PetscInt       nnztotal;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(maxl, &M->levels));
  M->ptap = opts->mpi_ptap;
  PetscCall(GPUPCCMGMPIReduce(A, opts, M, &M->levels[0]));
  M->nlevels = 1;
  PetscCall(LevelSizes(M->comm, &M->levels[0]));
  nnztotal = M->levels[0].nnz;
  if (opts->monitor) PetscCall(PetscPrintf(M->comm, "CMG hierarchy of a %" PetscInt_FMT " x %" PetscInt_FMT " matrix on %d ranks (level 0: %" PetscInt_FMT " rows, %" PetscInt_FMT " Dirichlet rows eliminated, %" PetscInt_FMT " strictly dominant rows keep their excess on the diagonal)\n", M->Nuser, M->Nuser, (int)M->size, M->levels[0].N, M->gdirichlet, M->gstrict));
  while (1) {
    GPUPCCMGMPILevel *L         = &M->levels[M->nlevels - 1], C;
    PetscBool         stagnated = PETSC_FALSE;

    PetscCall(PetscMemzero(&C, sizeof(C)));
    if (L->N <= 1) {
      M->stop = GPUPC_CMG_STOP_ONE_CLUSTER;
      break;
    }
    if (L->N <= opts->direct_size) {
      M->stop = GPUPC_CMG_STOP_DIRECT_SIZE;
      break;
    }
    if (M->nlevels > 1 && L->N <= opts->mpi_gather_size) { /* a coarse level small enough: the one-rank hierarchy coarsens it further on every rank */
      M->stop = GPUPC_CMG_STOP_GATHER_SIZE;
      break;
    }
    if (M->nlevels >= maxl) {
      M->stop = GPUPC_CMG_STOP_MAX_LEVELS;
      break;
    }
    PetscCall(ClusterLevel(M->comm, opts, L));
    if ((PetscReal)L->N < GPUPC_CMG_MPI_MIN_RATIO * (PetscReal)L->NC) {
      M->stop   = GPUPC_CMG_STOP_STAGNATION_SIZE;
      stagnated = PETSC_TRUE;
      PetscCall(PetscInfo(A, "CMG (parallel): coarsening slowed at the rank boundaries at level %" PetscInt_FMT ": %" PetscInt_FMT " vertices gave %" PetscInt_FMT " clusters; the level is gathered\n", M->nlevels - 1, L->N, L->NC));
    } else {
      if (opts->mpi_ptap) PetscCall(GalerkinPtAP(M->comm, L, &C));
      else {
        const PetscBool dev = (PetscBool)(M->nlevels == 1 && M->l0dev); /* level 0's blocks still on the device */
        PetscCall(GPUPCCMGMPIGalerkin(M->comm, L, dev ? &M->l0d : NULL, dev ? &M->l0o : NULL, &C));
        PetscCall(LevelSizes(M->comm, &C));
      }
      if (nnztotal + C.nnz > 5 * M->levels[0].nnz) {
        M->stop   = GPUPC_CMG_STOP_STAGNATION_NNZ;
        stagnated = PETSC_TRUE;
        PetscCall(PetscInfo(A, "CMG (parallel) stagnation at level %" PetscInt_FMT ": the next level would bring the total nonzeros to %" PetscInt_FMT " > 5 x %" PetscInt_FMT "\n", M->nlevels - 1, nnztotal + C.nnz, M->levels[0].nnz));
        PetscCall(GPUPCCMGMPILevelFree(&C));
      }
    }
    if (stagnated) {
      PetscCall(GPUPCCMGMPISortFree(&L->sort));
      PetscCall(PetscFree(L->cluster));
      L->nc = L->NC = 0;
      break;
    }
    PetscCall(Monitor(opts, M->comm, L, M->nlevels - 1, PETSC_FALSE));
    M->levels[M->nlevels++] = C;
    nnztotal += C.nnz;
  }
  PetscCall(Monitor(opts, M->comm, &M->levels[M->nlevels - 1], M->nlevels - 1, PETSC_TRUE));
  M->gathered = (M->stop == GPUPC_CMG_STOP_DIRECT_SIZE || M->stop == GPUPC_CMG_STOP_GATHER_SIZE || M->stop == GPUPC_CMG_STOP_ONE_CLUSTER || M->stop == GPUPC_CMG_STOP_STAGNATION_SIZE) ? PETSC_TRUE : PETSC_FALSE;
  if (M->gathered) PetscCall(GatherSequential(M, opts));
  else PetscCall(PetscInfo(A, "CMG (parallel): hierarchy stopped early (%s) at %" PetscInt_FMT " vertices; the last level is one Jacobi step\n", GPUPCCMGStopReasons[M->stop], M->levels[M->nlevels - 1].N));
  for (PetscInt k = 0; k + 1 < M->nlevels; k++) {
    PetscReal nnz_next = (PetscReal)M->levels[k + 1].nnz;
    if (k + 2 == M->nlevels && M->gathered && M->seq.nlevels == 1 && M->seq.coarse_direct) { /* as on one rank: the factor's nonzeros */
      PetscReal m = (PetscReal)(M->seq.levels[0].n - M->seq.coarse_ncomp);
      nnz_next    = PetscMax(1.0, 0.5 * m * (m + 1));
    }
    M->levels[k].t = GPUPCCMGRecursionCount(opts, (PetscReal)M->levels[k].nnz, nnz_next);
  }
  M->levels[M->nlevels - 1].t = 0;
  if (opts->monitor) PetscCall(PetscPrintf(M->comm, "CMG hierarchy: %" PetscInt_FMT " levels, stopped: %s; last level: %s\n", M->nlevels, GPUPCCMGStopReasons[M->stop], M->gathered ? "gathered to every rank, one-rank CMG hierarchy there" : "one Jacobi step (stagnation warning)"));
  PetscFunctionReturn(0);
}

/* whether two MPIAIJ matrices have the same rows, blocks and garray on this rank */
static PetscErrorCode SamePattern(Mat A, Mat B, PetscBool *same)
{
  Mat             Ad, Ao, Bd, Bo;
  const PetscInt *ga, *gb;
  PetscInt        na, nb;
  GPUPCCSR        a, b;

  PetscFunctionBegin;
  *same = PETSC_FALSE;
  PetscCall(GPUPCMatMPIAIJGetSeqAIJ(A, &Ad, &Ao, &ga));
  PetscCall(GPUPCMatMPIAIJGetSeqAIJ(B, &Bd, &Bo, &gb));
  PetscCall(MatGetLocalSize(Ao, NULL, &na));
  PetscCall(MatGetLocalSize(Bo, NULL, &nb));
  if (na != nb) PetscFunctionReturn(0);
  PetscCall(PetscArraycmp(ga, gb, na, same));
  for (PetscInt blk = 0; blk < 2 && *same; blk++) {
    PetscCall(GPUPCMatGetCSR(blk ? Ao : Ad, &a));
    PetscCall(GPUPCMatGetCSR(blk ? Bo : Bd, &b));
    *same = (PetscBool)(a.m == b.m && a.nnz == b.nnz);
    if (*same) PetscCall(PetscArraycmp(a.i, b.i, a.m + 1, same));
    if (*same) PetscCall(PetscArraycmp(a.j, b.j, a.nnz, same));
    PetscCall(GPUPCMatRestoreCSR(&b));
    PetscCall(GPUPCMatRestoreCSR(&a));
  }
  PetscFunctionReturn(0);
}

/*
   GPUPCCMGMPIHierarchyRecompute - new values of a matrix with the same nonzero pattern: the reduction again, the kept
   clusters, the Galerkin sums on the kept sorts written into the coarse MPIAIJ matrices in place (no new structure),
   the gathered last level's one-rank hierarchy afresh (it is small); the caller uploads the levels again

   Collective on A

   Output Parameter:
.  same - PETSC_FALSE when level 0's pattern changed (signs or Dirichlet rows moved) or the levels were formed by
          MatPtAP: then M keeps its old levels and must be rebuilt
*/
PetscErrorCode GPUPCCMGMPIHierarchyRecompute(Mat A, const GPUPCCMGOptions *opts, GPUPCCMGMPI M, PetscBool *same)
{
  GPUPCCMGMPILevel L0;
  PetscBool        mine;

  PetscFunctionBegin;
  *same = PETSC_FALSE;
  if (M->ptap || opts->mpi_ptap || M->nlevels < 1) PetscFunctionReturn(0);
  for (PetscInt k = 0; k + 1 < M->nlevels; k++)
    if (!M->levels[k].sort) PetscFunctionReturn(0); /* the same on every rank: the levels are global */
  PetscCall(GPUPCCMGMPIDeviceFree(M));
  PetscCall(GPUPCCMGReductionFree(&M->red));
  PetscCall(PetscFree(M->ghostdir));
  M->nghostdir        = 0;
  M->offrank_coupling = PETSC_FALSE;
  PetscCall(GPUPCCMGMPIReduce(A, opts, M, &L0));
  PetscCall(SamePattern(L0.A, M->levels[0].A, &mine));
  PetscCall(MPIU_Allreduce(&mine, same, 1, MPIU_BOOL, MPI_LAND, M->comm));
  if (*same) {
    PetscCall(MatCopy(L0.A, M->levels[0].A, SAME_NONZERO_PATTERN));
    PetscCall(PetscArraycpy(M->levels[0].e, L0.e, L0.n));
  }
  PetscCall(GPUPCCMGMPILevelFree(&L0));
  if (!*same) PetscFunctionReturn(0);
  for (PetscInt k = 0; k + 1 < M->nlevels; k++) { /* level 0's new values from the device reduction's blocks where kept */
    const PetscBool dev = (PetscBool)(k == 0 && M->l0dev);
    PetscCall(GPUPCCMGMPIGalerkinValues(&M->levels[k], dev ? &M->l0d : NULL, dev ? &M->l0o : NULL, &M->levels[k + 1]));
  }
  PetscCall(GPUPCCMGHierarchyDestroy(&M->seq));
  if (M->gathered) PetscCall(GatherSequential(M, opts));
  M->nreuses++;
  PetscFunctionReturn(0);
}

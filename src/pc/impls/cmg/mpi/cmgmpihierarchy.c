/*
   Distributed CMG hierarchy (ALGORITHMS.md 2.4) on the host:
     - clustering: every rank clusters its own vertices with the sequential GPUPCCMGCluster on a
       GPUPCCMGLevel made of its diagonal block (heaviest neighbour among the rank's vertices), whose
       diagonal holds the volume = all the row's off-diagonal weight, on and off rank (a vertex
       mostly coupled to other ranks becomes weak, a singleton); clusters never cross ranks;
     - Galerkin: P = R^T (MPIAIJ, one 1 per row, block diagonal by rank), A_{k+1} = MatPtAP(A_k, P);
       the coarse excess is the cluster sum of e (R diag(e) R^T) and the coarse diagonal is reset to
       the off-diagonal weight plus that excess (no cancellation in the diagonal);
     - stopping rules of the one-rank hierarchy on global sizes;
     - last level: gathered to every rank (MatCreateSubMatrices), a ground vertex added for the
       excess, GPUPCCMGCoarseFactor (dense grounded inverse), the ground eliminated again;
     - t_k from the global nonzero ratios (ALGORITHMS.md 2.2 item 8).
*/
#include <gpupc/cmgmpi.h>

PetscErrorCode GPUPCCMGMPILevelFree(GPUPCCMGMPILevel *L)
{
  PetscFunctionBegin;
  PetscCall(MatDestroy(&L->A));
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

/* rank-local clustering of the off-diagonal graph */
static PetscErrorCode ClusterLevel(MPI_Comm comm, GPUPCCMGMPILevel *L)
{
  Mat           Ad, Ao;
  GPUPCCSR      cd, co;
  GPUPCCMGLevel G;
  PetscInt      st[3], gst[3], mx;

  PetscFunctionBegin;
  PetscCall(GPUPCMatMPIAIJGetSeqAIJ(L->A, &Ad, &Ao, NULL));
  PetscCall(GPUPCMatGetCSR(Ad, &cd));
  PetscCall(GPUPCMatGetCSR(Ao, &co));
  PetscCall(PetscMemzero(&G, sizeof(G)));
  G.n = L->n;
  PetscCall(PetscMalloc1(G.n + 1, &G.rowptr));
  G.rowptr[0] = 0;
  for (PetscInt i = 0; i < G.n; i++) {
    PetscInt cnt = 1;
    for (PetscInt k = cd.i[i]; k < cd.i[i + 1]; k++)
      if (cd.j[k] != i && cd.a[k] != 0.0) cnt++;
    G.rowptr[i + 1] = G.rowptr[i] + cnt;
  }
  G.nnz = G.rowptr[G.n];
  PetscCall(PetscMalloc2(PetscMax(G.nnz, 1), &G.col, PetscMax(G.nnz, 1), &G.val));
  for (PetscInt i = 0; i < G.n; i++) {
    PetscInt  o = G.rowptr[i], dpos = -1;
    PetscReal vol = 0.0;
    for (PetscInt k = co.i[i]; k < co.i[i + 1]; k++) vol += PetscAbsScalar(co.a[k]);
    for (PetscInt k = cd.i[i]; k < cd.i[i + 1]; k++) {
      if (cd.j[k] == i || cd.a[k] == 0.0) continue;
      vol += PetscAbsScalar(cd.a[k]);
      if (dpos < 0 && cd.j[k] > i) { /* keep the columns ascending */
        dpos     = o++;
        G.col[dpos] = i;
      }
      G.col[o]   = cd.j[k];
      G.val[o++] = -PetscAbsScalar(cd.a[k]);
    }
    if (dpos < 0) {
      dpos        = o++;
      G.col[dpos] = i;
    }
    G.val[dpos] = vol;
  }
  PetscCall(GPUPCMatRestoreCSR(&co));
  PetscCall(GPUPCMatRestoreCSR(&cd));
  if (G.n > 0) PetscCall(GPUPCCMGCluster(&G));
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
  PetscFunctionReturn(0);
}

/* A_c = R A R^T through MatPtAP with P = R^T; coarse e = R e; coarse diagonal = off-diagonal weight + coarse e */
static PetscErrorCode Galerkin(MPI_Comm comm, const GPUPCCMGMPILevel *F, GPUPCCMGMPILevel *C)
{
  Mat          P;
  PetscInt     cstart, scan, lo, hi;
  Vec          d;
  PetscScalar *da;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PC_CMG_Galerkin, 0, 0, 0, 0));
  PetscCallMPI(MPI_Scan(&F->nc, &scan, 1, MPIU_INT, MPI_SUM, comm));
  cstart = scan - F->nc;
  PetscCall(MatCreateAIJ(comm, F->n, F->nc, F->N, F->NC, 1, NULL, 0, NULL, &P));
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

/* the last level gathered to every rank; dense grounded inverse */
static PetscErrorCode CoarseFactor(GPUPCCMGMPI M, PetscInt *mfactor)
{
  GPUPCCMGMPILevel *L = &M->levels[M->nlevels - 1];
  const PetscInt    N = L->N;
  IS                is;
  Mat              *sub;
  PetscReal        *eall, *inv;
  PetscMPIInt      *counts, *displs, nloc;
  GPUPCCMGLevel     G;
  PetscInt          sh, ncomp;
  PetscBool         ground = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PC_CMG_CoarseFactor, 0, 0, 0, 0));
  PetscCall(ISCreateStride(PETSC_COMM_SELF, N, 0, 1, &is));
  PetscCall(MatCreateSubMatrices(L->A, 1, &is, &is, MAT_INITIAL_MATRIX, &sub));
  PetscCall(ISDestroy(&is));
  PetscCall(PetscMalloc1(PetscMax(N, 1), &eall));
  PetscCall(PetscMalloc2(M->size, &counts, M->size, &displs));
  PetscCall(PetscMPIIntCast(L->n, &nloc));
  PetscCallMPI(MPI_Allgather(&nloc, 1, MPI_INT, counts, 1, MPI_INT, M->comm));
  displs[0] = 0;
  for (PetscMPIInt r = 1; r < M->size; r++) displs[r] = displs[r - 1] + counts[r - 1];
  PetscCallMPI(MPI_Allgatherv(L->e, nloc, MPIU_REAL, eall, counts, displs, MPIU_REAL, M->comm));
  PetscCall(PetscFree2(counts, displs));
  for (PetscInt v = 0; v < N; v++)
    if (eall[v] > 0.0) ground = PETSC_TRUE;
  /* the Laplacian [ground; vertices] (ground at index 0, grounded by GPUPCCMGCoarseFactor as the first vertex of its component) */
  sh = ground ? 1 : 0;
  PetscCall(PetscMemzero(&G, sizeof(G)));
  G.n = N + sh;
  PetscCall(PetscMalloc1(G.n + 1, &G.rowptr));
  G.rowptr[0] = 0;
  if (ground) {
    PetscInt cnt = 1;
    for (PetscInt v = 0; v < N; v++)
      if (eall[v] > 0.0) cnt++;
    G.rowptr[1] = cnt;
  }
  for (PetscInt v = 0; v < N; v++) {
    PetscInt nz;
    PetscCall(MatGetRow(sub[0], v, &nz, NULL, NULL));
    G.rowptr[v + sh + 1] = G.rowptr[v + sh] + nz + 1 + (eall[v] > 0.0 ? 1 : 0);
    PetscCall(MatRestoreRow(sub[0], v, &nz, NULL, NULL));
  }
  PetscCall(PetscMalloc2(PetscMax(G.rowptr[G.n], 1), &G.col, PetscMax(G.rowptr[G.n], 1), &G.val));
  if (ground) {
    PetscInt  o = 0;
    PetscReal s = 0.0;
    G.col[o++] = 0;
    for (PetscInt v = 0; v < N; v++)
      if (eall[v] > 0.0) {
        G.col[o]   = v + 1;
        G.val[o++] = -eall[v];
        s += eall[v];
      }
    G.val[0] = s;
  }
  for (PetscInt v = 0; v < N; v++) {
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscInt           nz, o = G.rowptr[v + sh], dpos = o++;
    PetscReal          s = 0.0;
    PetscCall(MatGetRow(sub[0], v, &nz, &cols, &vals));
    for (PetscInt k = 0; k < nz; k++) {
      if (cols[k] == v) continue;
      G.col[o]   = cols[k] + sh;
      G.val[o++] = -PetscAbsScalar(vals[k]);
      s += PetscAbsScalar(vals[k]);
    }
    PetscCall(MatRestoreRow(sub[0], v, &nz, &cols, &vals));
    if (eall[v] > 0.0) {
      G.col[o]   = 0;
      G.val[o++] = -eall[v];
      s += eall[v];
    }
    G.col[dpos] = v + sh;
    G.val[dpos] = s;
    for (; o < G.rowptr[v + sh + 1]; o++) { /* the diagonal was not stored (an isolated vertex): pad with zeros */
      G.col[o] = v + sh;
      G.val[o] = 0.0;
    }
  }
  G.nnz = G.rowptr[G.n];
  PetscCall(MatDestroySubMatrices(1, &sub));
  PetscCall(GPUPCCMGCoarseFactor(&G, &ncomp, &inv));
  PetscCall(PetscMalloc1(PetscMax((size_t)N * N, 1), &M->coarse_inv));
  for (PetscInt i = 0; i < N; i++)
    for (PetscInt j = 0; j < N; j++) M->coarse_inv[(size_t)i * N + j] = inv[(size_t)(i + sh) * G.n + j + sh];
  M->coarse_ground = ground;
  M->coarse_ncomp  = ncomp;
  *mfactor         = G.n - ncomp;
  PetscCall(PetscFree(inv));
  PetscCall(PetscFree(eall));
  PetscCall(GPUPCCMGLevelFree(&G));
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
  PetscInt       nnztotal, mfactor = 0;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(maxl, &M->levels));
  PetscCall(GPUPCCMGMPIReduce(A, opts, M, &M->levels[0]));
  M->nlevels = 1;
  PetscCall(LevelSizes(M->comm, &M->levels[0]));
  nnztotal = M->levels[0].nnz;
  if (opts->monitor) PetscCall(PetscPrintf(M->comm, "CMG hierarchy of a %" PetscInt_FMT " x %" PetscInt_FMT " matrix on %d ranks (level 0: %" PetscInt_FMT " rows, %" PetscInt_FMT " Dirichlet rows eliminated, %" PetscInt_FMT " strictly dominant rows keep their excess on the diagonal)\n", M->Nuser, M->Nuser, (int)M->size, M->levels[0].N, M->gdirichlet, M->gstrict));
  while (1) {
    GPUPCCMGMPILevel *L = &M->levels[M->nlevels - 1], C;
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
    if (M->nlevels >= maxl) {
      M->stop = GPUPC_CMG_STOP_MAX_LEVELS;
      break;
    }
    PetscCall(ClusterLevel(M->comm, L));
    if (L->NC >= L->N - 1) {
      M->stop   = GPUPC_CMG_STOP_STAGNATION_SIZE;
      stagnated = PETSC_TRUE;
      PetscCall(PetscInfo(A, "CMG (parallel) stagnation at level %" PetscInt_FMT ": %" PetscInt_FMT " vertices gave %" PetscInt_FMT " clusters\n", M->nlevels - 1, L->N, L->NC));
    } else {
      PetscCall(Galerkin(M->comm, L, &C));
      if (nnztotal + C.nnz > 5 * M->levels[0].nnz) {
        M->stop   = GPUPC_CMG_STOP_STAGNATION_NNZ;
        stagnated = PETSC_TRUE;
        PetscCall(PetscInfo(A, "CMG (parallel) stagnation at level %" PetscInt_FMT ": the next level would bring the total nonzeros to %" PetscInt_FMT " > 5 x %" PetscInt_FMT "\n", M->nlevels - 1, nnztotal + C.nnz, M->levels[0].nnz));
        PetscCall(GPUPCCMGMPILevelFree(&C));
      }
    }
    if (stagnated) {
      PetscCall(PetscFree(L->cluster));
      L->nc = L->NC = 0;
      break;
    }
    PetscCall(Monitor(opts, M->comm, L, M->nlevels - 1, PETSC_FALSE));
    M->levels[M->nlevels++] = C;
    nnztotal += C.nnz;
  }
  PetscCall(Monitor(opts, M->comm, &M->levels[M->nlevels - 1], M->nlevels - 1, PETSC_TRUE));
  M->coarse_direct = (M->stop == GPUPC_CMG_STOP_DIRECT_SIZE || M->stop == GPUPC_CMG_STOP_ONE_CLUSTER) ? PETSC_TRUE : PETSC_FALSE;
  if (M->coarse_direct) PetscCall(CoarseFactor(M, &mfactor));
  else PetscCall(PetscInfo(A, "CMG (parallel): hierarchy stopped early (%s) at %" PetscInt_FMT " vertices; the last level is one Jacobi step\n", GPUPCCMGStopReasons[M->stop], M->levels[M->nlevels - 1].N));
  for (PetscInt k = 0; k + 1 < M->nlevels; k++) {
    PetscReal nnz_next;
    if (k + 2 == M->nlevels && M->coarse_direct) nnz_next = PetscMax(1.0, 0.5 * (PetscReal)mfactor * (mfactor + 1));
    else nnz_next = (PetscReal)M->levels[k + 1].nnz;
    M->levels[k].t = opts->repeat > 0 ? opts->repeat : PetscMax((PetscInt)PetscFloorReal(M->levels[k].nnz / nnz_next - 1.0), 1);
  }
  M->levels[M->nlevels - 1].t = 0;
  if (opts->monitor) PetscCall(PetscPrintf(M->comm, "CMG hierarchy: %" PetscInt_FMT " levels, stopped: %s; last level: %s\n", M->nlevels, GPUPCCMGStopReasons[M->stop], M->coarse_direct ? "gathered to every rank, dense grounded inverse" : "one Jacobi step (stagnation warning)"));
  PetscFunctionReturn(0);
}

/*
   Distributed CMG, level 0 on the device (-pc_cmg_setup device; on the host backend through the host tables): the
   rank's MPIAIJ blocks go up as they are and are merged on the device into one CSR of n rows whose columns are the
   local ones (0 .. n-1) followed by the ghosts (n + position in the garray), so every row stays sorted; the one-rank setup kernels of gpupc/cmgsetupkernels.h run
   on it row by row (dirichlet_rows, check_rows without the symmetry test, which needs the ghosts' rows, level0_count
   and level0_fill with the kept map extended to the ghosts), the extract member of gpupc/sparsekernels.h splits the
   level-0 rows into the diagonal and off-diagonal blocks, and the blocks become the MPIAIJ level 0 directly
   (GPUPCCMGMPIMatFromBlocks; the blocks stay on the device for the first Galerkin sums and the upload). The symmetry
   test: the pairs inside the rank by check_rows' own test on the device (the ghost columns flagged so that it reads
   local rows only), the pairs across ranks by the owners of the ghost rows, which receive the boundary entries
   (SymmetricAcross), without transposing anything.
   Dirichlet rows: the ghosts' flags and diagonals come from their owners (PetscSF), the kept rows are numbered by
   rank with the shared compaction as the host numbers them, the ghosts' kept numbers come from their owners, and
   the couplings E are made on the host from the rank's blocks by the host reduction's code
   (GPUPCCMGMPICouplingsFromBlocks). It applies to a matrix read as MPIAIJ (mpiaij and derived types, mpisegcsr)
   with sorted rows; a fault (the host reduction then raises the error that names the row) or another type is
   reduced on the host (cmgmpireduce.c). The level is the host reduction's up to the order of the additions in each row's diagonal and
   excess (local columns first, then the ghosts, instead of the global column order).
*/
#include <gpupc/cmgmpi.h>
#include <gpupc/cmgsetupkernels.h>
#include <gpupc/devmpiblocks.h>

/* device arrays of the reduction */
typedef struct {
  GPUPCDevMPIBlocks U; /* the user's blocks as they are */
  GPUPCDevCSR       X, L0, Bd, Bo;
  PetscInt         *isdir, *bad, *strict, *len, *map, *cmap;
  PetscReal        *excess, *dinv;
} Arrays;

static PetscErrorCode ArraysFree(Arrays *D)
{
  PetscFunctionBegin;
  PetscCall(GPUPCDevMPIBlocksDestroy(&D->U));
  PetscCall(GPUPCDevCSRDestroy(&D->X));
  PetscCall(GPUPCDevCSRDestroy(&D->L0));
  PetscCall(GPUPCDevCSRDestroy(&D->Bd));
  PetscCall(GPUPCDevCSRDestroy(&D->Bo));
  PetscCall(GPUPCFree(D->isdir));
  PetscCall(GPUPCFree(D->bad));
  PetscCall(GPUPCFree(D->strict));
  PetscCall(GPUPCFree(D->len));
  PetscCall(GPUPCFree(D->map));
  PetscCall(GPUPCFree(D->cmap));
  PetscCall(GPUPCFree(D->excess));
  PetscCall(GPUPCFree(D->dinv));
  PetscCall(PetscMemzero(D, sizeof(*D)));
  PetscFunctionReturn(0);
}

/* the rank's rows as one CSR on the device: the MPIAIJ blocks go up as they are (GPUPCDevMPIBlocksFromMat) and the
   merge member of the sparse table joins each row's local columns and its ghosts (at n + g; every ghost column is above
   every local one, so a row is its diagonal block's row followed by its off-diagonal block's, as MPIAIJ stores them);
   *ok false when a row is not sorted */
static PetscErrorCode RowsUp(Mat A, GPUPCDevMPIBlocks *B, GPUPCDevCSR *X, PetscBool *ok)
{
  const GPUPCSparseKernels *sk;
  PetscInt                  row, fault;

  PetscFunctionBegin;
  PetscCall(GPUPCGetSparseKernels(&sk));
  PetscCall(GPUPCDevMPIBlocksFromMat(A, B));
  PetscCall(GPUPCDevCSRCreate(B->d.m, B->d.m + B->nghost, B->d.nnz + B->o.nnz, PETSC_TRUE, X));
  PetscCall(sk->merge(&B->d, NULL, 0, &B->o, NULL, B->d.m, X));
  PetscCall(sk->check(X, &row, &fault));
  *ok = (PetscBool)(row < 0);
  PetscFunctionReturn(0);
}

/* leaf[g] = root[garray[g] - owner's first row] of the owner of ghost column garray[g] */
static PetscErrorCode GhostBcast(Mat A, PetscInt nghost, const PetscInt *garray, MPI_Datatype type, const void *root, void *leaf)
{
  PetscLayout rmap;
  PetscSF     sf;

  PetscFunctionBegin;
  PetscCall(MatGetLayouts(A, &rmap, NULL));
  PetscCall(PetscSFCreate(PetscObjectComm((PetscObject)A), &sf));
  PetscCall(PetscSFSetGraphLayout(sf, rmap, nghost, NULL, PETSC_COPY_VALUES, garray));
  PetscCall(PetscSFBcastBegin(sf, type, root, leaf, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(sf, type, root, leaf, MPI_REPLACE));
  PetscCall(PetscSFDestroy(&sf));
  PetscFunctionReturn(0);
}

/* the pairs across ranks: each stored off-diagonal block entry a_iJ (nonzero, J not a Dirichlet row) goes to the owner
   of row J with i's global number (one PetscSF gather over the boundary entries, not the rank's rows), which compares
   it with its own a_Ji (0 when not stored); *sym on this rank (the owners' verdicts) */
static PetscErrorCode SymmetricAcross(Mat A, const GPUPCCMGOptions *opts, Mat Ao, const PetscInt *garray, const PetscInt *gisdir, PetscBool *sym)
{
  GPUPCCSR        co;
  PetscLayout     rmap;
  PetscSF         sf;
  const PetscInt *deg;
  PetscInt        rstart, nleaf = 0, nroot, nmulti = 0, *rows, *lcol, *mcol;
  PetscScalar    *lval, *mval;

  PetscFunctionBegin;
  *sym = PETSC_TRUE;
  PetscCall(MatGetOwnershipRange(A, &rstart, NULL));
  PetscCall(MatGetLayouts(A, &rmap, NULL));
  PetscCall(MatGetLocalSize(A, &nroot, NULL));
  PetscCall(GPUPCMatGetCSR(Ao, &co));
  for (PetscInt q = 0; q < co.nnz; q++)
    if (PetscRealPart(co.a[q]) != 0.0 && !gisdir[co.j[q]]) nleaf++; /* a coupling into a Dirichlet row is not in level 0 */
  PetscCall(PetscMalloc3(PetscMax(nleaf, 1), &rows, PetscMax(nleaf, 1), &lcol, PetscMax(nleaf, 1), &lval));
  nleaf = 0;
  for (PetscInt i = 0; i < co.m; i++)
    for (PetscInt q = co.i[i]; q < co.i[i + 1]; q++) {
      if (PetscRealPart(co.a[q]) == 0.0 || gisdir[co.j[q]]) continue;
      rows[nleaf] = garray[co.j[q]];
      lcol[nleaf] = rstart + i;
      lval[nleaf] = co.a[q];
      nleaf++;
    }
  PetscCall(PetscSFCreate(PetscObjectComm((PetscObject)A), &sf));
  PetscCall(PetscSFSetGraphLayout(sf, rmap, nleaf, NULL, PETSC_COPY_VALUES, rows));
  PetscCall(PetscSFComputeDegreeBegin(sf, &deg));
  PetscCall(PetscSFComputeDegreeEnd(sf, &deg));
  for (PetscInt r = 0; r < nroot; r++) nmulti += deg[r];
  PetscCall(PetscMalloc2(PetscMax(nmulti, 1), &mcol, PetscMax(nmulti, 1), &mval));
  PetscCall(PetscSFGatherBegin(sf, MPIU_INT, lcol, mcol));
  PetscCall(PetscSFGatherEnd(sf, MPIU_INT, lcol, mcol));
  PetscCall(PetscSFGatherBegin(sf, MPIU_SCALAR, lval, mval));
  PetscCall(PetscSFGatherEnd(sf, MPIU_SCALAR, lval, mval));
  for (PetscInt r = 0, m = 0; r < nroot; r++) /* the gathered entries of row r: deg[r] of them, in order */
    for (PetscInt d = 0; d < deg[r]; d++, m++) {
      const PetscReal a = PetscRealPart(mval[m]);
      PetscReal       x = 0.0;
      for (PetscInt q = co.i[r]; q < co.i[r + 1]; q++) /* a_rc: column c is another rank's, so in the off-diagonal block */
        if (garray[co.j[q]] == mcol[m]) x = PetscRealPart(co.a[q]);
      if (PetscAbsReal(a - x) > opts->symmetry_tol * PetscMax(PetscAbsReal(a), PetscAbsReal(x))) *sym = PETSC_FALSE;
    }
  PetscCall(PetscFree2(mcol, mval));
  PetscCall(PetscSFDestroy(&sf));
  PetscCall(PetscFree3(rows, lcol, lval));
  PetscCall(GPUPCMatRestoreCSR(&co));
  PetscFunctionReturn(0);
}

/*
   GPUPCCMGMPIReduceDevice - GPUPCCMGMPIReduce on the device kernels where it applies (the file's comment)

   Collective on A

   Output Parameter:
.  done - PETSC_FALSE: nothing built (M and L0 untouched), the caller reduces on the host
*/
PetscErrorCode GPUPCCMGMPIReduceDevice(Mat A, const GPUPCCMGOptions *opts, GPUPCCMGMPI M, GPUPCCMGMPILevel *L0, PetscBool *done)
{
  MPI_Comm                    comm = PetscObjectComm((PetscObject)A);
  const GPUPCCMGSetupKernels *k;
  const GPUPCSparseKernels   *sk;
  GPUPCCMGReduceRule          rule;
  Arrays                      D;
  Mat                         Ad, Ao, A0 = NULL;
  const PetscInt             *garray;
  PetscBool                   aij, ok = PETSC_FALSE, allok;
  PetscInt                    n, nghost, rstart, N, ndir, nbad, npos, nstrict, nnz0, nk, kstart, Nk, ngk, counts[3], gcounts[3];
  PetscInt                   *hisdir, *gisdir, *hkmap, *newidx, *gnew, *gpos, *garray0, *hmap, *hcmap;
  PetscScalar                *ldiag, *gdiag;
  PetscReal                  *e = NULL, *hex, *hdinv;

  PetscFunctionBegin;
  *done = PETSC_FALSE;
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATMPIAIJ, &aij));
  if (!aij) PetscCall(PetscObjectTypeCompare((PetscObject)A, MATMPISEGCSR, &aij));
  PetscCall(MPIU_Allreduce(&aij, &allok, 1, MPIU_BOOL, MPI_LAND, comm));
  if (!allok) {
    PetscCall(PetscInfo(A, "CMG (parallel): the device reduction reads MPIAIJ or mpisegcsr matrices; this one (%s) is reduced on the host\n", ((PetscObject)A)->type_name));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscLogEventBegin(PC_CMG_Reduce, A, 0, 0, 0));
  PetscCall(GPUPCGetCMGSetupKernels(&k));
  PetscCall(GPUPCGetSparseKernels(&sk));
  PetscCall(PetscMemzero(&D, sizeof(D)));
  PetscCall(MatGetSize(A, &N, NULL));
  PetscCall(MatGetOwnershipRange(A, &rstart, NULL));
  PetscCall(GPUPCMatMPIAIJGetSeqAIJ(A, &Ad, &Ao, &garray));
  PetscCall(MatGetLocalSize(A, &n, NULL));
  PetscCall(MatGetLocalSize(Ao, NULL, &nghost));
  PetscCall(PetscLogEventBegin(PC_CMGM_RowsUp, 0, 0, 0, 0));
  PetscCall(RowsUp(A, &D.U, &D.X, &ok));
  PetscCall(PetscLogEventEnd(PC_CMGM_RowsUp, 0, 0, 0, 0));
  rule.check_symmetry = PETSC_FALSE; /* tested on level 0 below: it needs the ghosts' rows */
  rule.doublecover    = PETSC_FALSE; /* refused in parallel: a positive off-diagonal is a fault here */
  rule.dirichlet_rows = opts->dirichlet_rows;
  rule.symmetry_tol   = opts->symmetry_tol;
  rule.dominance_tol  = opts->dominance_tol;
  PetscCall(GPUPCMallocArray(n + nghost, &D.isdir));
  PetscCall(GPUPCMallocArray(n, &D.bad));
  PetscCall(GPUPCMallocArray(n, &D.strict));
  PetscCall(GPUPCMallocArray(n, &D.len));
  PetscCall(GPUPCMallocArray(n, &D.excess));
  PetscCall(GPUPCMallocArray(n, &D.dinv));
  PetscCall(PetscMalloc5(PetscMax(n, 1), &hisdir, PetscMax(nghost, 1), &gisdir, PetscMax(n, 1), &ldiag, PetscMax(nghost, 1), &gdiag, PetscMax(n, 1), &newidx));
  PetscCall(PetscMalloc5(PetscMax(n, 1), &hkmap, PetscMax(nghost, 1), &gnew, PetscMax(nghost, 1), &gpos, PetscMax(nghost, 1), &garray0, PetscMax(n, 1), &hex));
  PetscCall(PetscMalloc1(PetscMax(n, 1), &hdinv));
  ndir = nbad = npos = nstrict = 0;
  PetscCall(PetscLogEventBegin(PC_CMGM_RedKernels, 0, 0, 0, 0));
  if (ok) PetscCall(k->dirichlet_rows(&D.X, &rule, D.isdir, &ndir));
  PetscCall(PetscLogEventEnd(PC_CMGM_RedKernels, 0, 0, 0, 0));
  counts[0] = ok ? 0 : 1;
  counts[1] = ndir;
  PetscCall(MPIU_Allreduce(counts, gcounts, 2, MPIU_INT, MPI_SUM, comm));
  if (!gcounts[0]) { /* the ghosts' Dirichlet flags and diagonals from their owners; then the row checks */
    PetscScalar *dd;
    PetscCall(PetscLogEventBegin(PC_CMGM_RedHost, 0, 0, 0, 0));
    PetscCall(GPUPCCopyToHost(hisdir, D.isdir, n));
    PetscCall(GPUPCMallocArray(n, &dd)); /* the rows are sorted here: one diagonal entry at most */
    PetscCall(sk->diagonal(&D.U.d, dd));
    PetscCall(GPUPCCopyToHost(ldiag, dd, n));
    PetscCall(GPUPCFree(dd));
    PetscCall(GhostBcast(A, nghost, garray, MPIU_INT, hisdir, gisdir));
    PetscCall(GhostBcast(A, nghost, garray, MPIU_SCALAR, ldiag, gdiag));
    PetscCall(GPUPCCopyToDevice(D.isdir + n, gisdir, nghost));
    PetscCall(PetscLogEventEnd(PC_CMGM_RedHost, 0, 0, 0, 0));
    PetscCall(PetscLogEventBegin(PC_CMGM_RedKernels, 0, 0, 0, 0));
    PetscCall(k->check_rows(&D.X, &rule, D.isdir, D.excess, D.dinv, D.bad, D.strict, D.len, &nbad, &npos, &nstrict));
    PetscCall(PetscLogEventEnd(PC_CMGM_RedKernels, 0, 0, 0, 0));
  }
  counts[2] = nbad;
  PetscCall(MPIU_Allreduce(&counts[2], &gcounts[2], 1, MPIU_INT, MPI_SUM, comm));
  if (gcounts[0] || gcounts[2]) {
    PetscCall(PetscInfo(A, "CMG (parallel): level 0 is reduced on the host (%s)\n", gcounts[0] ? "rows not sorted" : "a faulty row: the host reduction names it"));
    PetscCall(ArraysFree(&D));
    PetscCall(PetscFree5(hisdir, gisdir, ldiag, gdiag, newidx));
    PetscCall(PetscFree5(hkmap, gnew, gpos, garray0, hex));
    PetscCall(PetscFree(hdinv));
    PetscCall(PetscLogEventEnd(PC_CMG_Reduce, A, 0, 0, 0));
    PetscFunctionReturn(0);
  }
  /* the kept rows numbered by rank (as the host reduction numbers them), the ghosts' kept numbers from their owners */
  PetscCall(PetscLogEventBegin(PC_CMGM_RedHost, 0, 0, 0, 0));
  PetscCall(GPUPCMallocArray(n + nghost, &D.map));
  PetscCall(sk->compact(n, D.isdir, 0, NULL, D.map, &nk, NULL));
  PetscCallMPI(MPI_Scan(&nk, &kstart, 1, MPIU_INT, MPI_SUM, comm));
  kstart -= nk;
  PetscCall(MPIU_Allreduce(&nk, &Nk, 1, MPIU_INT, MPI_SUM, comm));
  PetscCall(GPUPCCopyToHost(hkmap, D.map, n));
  for (PetscInt i = 0; i < n; i++) newidx[i] = hkmap[i] >= 0 ? kstart + hkmap[i] : -1;
  PetscCall(GhostBcast(A, nghost, garray, MPIU_INT, newidx, gnew));
  ngk = 0;
  for (PetscInt g = 0; g < nghost; g++) {
    gpos[g] = gnew[g] >= 0 ? ngk : -1;
    if (gnew[g] >= 0) garray0[ngk++] = gnew[g]; /* ascending: the kept numbers increase with the user's */
  }
  PetscCall(PetscLogEventEnd(PC_CMGM_RedHost, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(PC_CMGM_RedKernels, 0, 0, 0, 0));
  { /* level-0 rows: columns are the kept local rows, the (unused) ground nk, then the kept ghosts */
    PetscCall(PetscMalloc2(n + nghost, &hmap, nk + 1 + ngk, &hcmap));
    for (PetscInt c = 0; c < n + nghost; c++) hmap[c] = c < n ? hkmap[c] : (gpos[c - n] >= 0 ? nk + 1 + gpos[c - n] : -1);
    PetscCall(GPUPCCopyToDevice(D.map, hmap, n + nghost));
    PetscCall(PetscMemzero(&D.L0, sizeof(D.L0)));
    D.L0.m = nk;
    D.L0.n = nk + 1 + ngk;
    PetscCall(GPUPCMallocArray(nk + 1, &D.L0.i));
    PetscCall(k->level0_count(n, D.map, D.len, nk, 1, nstrict, PETSC_FALSE, D.L0.i));
    PetscCall(sk->rowptr(nk, D.L0.i, &nnz0, NULL));
    D.L0.nnz = nnz0;
    PetscCall(GPUPCMallocArray(nnz0, &D.L0.j));
    PetscCall(GPUPCMallocArray(nnz0, &D.L0.a));
    PetscCall(k->level0_fill(&D.X, D.isdir, D.excess, D.map, nk, 1, D.L0.i, D.L0.j, D.L0.a));
    /* the blocks: local columns as they are; the ghosts renumbered from 0; the ground entries (column nk) dropped */
    PetscCall(GPUPCMallocArray(nk + 1 + ngk, &D.cmap));
    for (PetscInt c = 0; c < nk + 1 + ngk; c++) hcmap[c] = c < nk ? c : -1;
    PetscCall(GPUPCCopyToDevice(D.cmap, hcmap, nk + 1 + ngk));
    PetscCall(GPUPCDevCSRExtract(&D.L0, D.cmap, nk, MAT_INITIAL_MATRIX, &D.Bd)); /* L0's rows: kept local columns 0 .. nk-1, the ground nk, ghosts nk + 1 + g */
    for (PetscInt c = 0; c < nk + 1 + ngk; c++) hcmap[c] = c > nk ? c - nk - 1 : -1;
    PetscCall(GPUPCCopyToDevice(D.cmap, hcmap, nk + 1 + ngk));
    PetscCall(GPUPCDevCSRExtract(&D.L0, D.cmap, ngk, MAT_INITIAL_MATRIX, &D.Bo));
    PetscCall(PetscFree2(hmap, hcmap));
  }
  PetscCall(GPUPCSynchronize());
  PetscCall(PetscLogEventEnd(PC_CMGM_RedKernels, 0, 0, 0, 0));
  PetscCall(GPUPCCMGMPIMatFromBlocks(comm, Nk, &D.Bd, &D.Bo, garray0, NULL, &A0));
  PetscCall(PetscMalloc1(PetscMax(nk, 1), &e));
  PetscCall(GPUPCCopyToHost(hex, D.excess, n));
  PetscCall(GPUPCCopyToHost(hdinv, D.dinv, n));
  for (PetscInt i = 0, c = 0; i < n; i++)
    if (hkmap[i] >= 0) e[c++] = hex[i];
  if (opts->check_symmetry) { /* inside the rank: check_rows' test with the ghosts flagged (it reads local rows only) */
    PetscBool sym;
    PetscInt  nstrict2, *h;
    PetscCall(PetscLogEventBegin(PC_CMGM_Symmetry, 0, 0, 0, 0));
    PetscCall(PetscMalloc1(n + nghost, &h));
    for (PetscInt c = 0; c < n + nghost; c++) h[c] = c < n ? hisdir[c] : 1;
    PetscCall(GPUPCCopyToDevice(D.isdir, h, n + nghost));
    PetscCall(PetscFree(h));
    rule.check_symmetry = PETSC_TRUE;
    PetscCall(k->check_rows(&D.X, &rule, D.isdir, D.excess, D.dinv, D.bad, D.strict, D.len, &nbad, &npos, &nstrict2));
    PetscCall(SymmetricAcross(A, opts, Ao, garray, gisdir, &sym));
    sym = (PetscBool)(sym && nbad == 0);
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &sym, 1, MPIU_BOOL, MPI_LAND, comm));
    PetscCall(PetscLogEventEnd(PC_CMGM_Symmetry, 0, 0, 0, 0));
    if (!sym) { /* the host reduction names the first asymmetric pair */
      PetscCall(PetscInfo(A, "CMG (parallel): an asymmetric pair; level 0 is reduced on the host, which names it\n"));
      PetscCall(ArraysFree(&D));
      PetscCall(MatDestroy(&A0));
      PetscCall(PetscFree(e));
      PetscCall(PetscFree5(hisdir, gisdir, ldiag, gdiag, newidx));
      PetscCall(PetscFree5(hkmap, gnew, gpos, garray0, hex));
      PetscCall(PetscFree(hdinv));
      PetscCall(PetscLogEventEnd(PC_CMG_Reduce, A, 0, 0, 0));
      PetscFunctionReturn(0);
    }
  }
  { /* level 0's blocks stay on the device for the upload when A0's off-diagonal block has garray0's columns (MPIAIJ
       drops a ghost column without entries) */
    Mat             A0d, A0o;
    const PetscInt *ga0;
    PetscInt        ng0;
    PetscBool       same;
    PetscCall(GPUPCMatMPIAIJGetSeqAIJ(A0, &A0d, &A0o, &ga0));
    PetscCall(MatGetLocalSize(A0o, NULL, &ng0));
    same = (PetscBool)(ng0 == ngk);
    if (same) PetscCall(PetscArraycmp(ga0, garray0, ngk, &same));
    PetscCall(GPUPCDevCSRDestroy(&M->l0d));
    PetscCall(GPUPCDevCSRDestroy(&M->l0o));
    M->l0dev = same;
    PetscCall(PetscInfo(A, "CMG (parallel): level 0's device blocks %s\n", same ? "kept for the Galerkin sums and the upload" : "dropped (the MPIAIJ dropped a ghost column); the upload copies its host blocks"));
    if (same) {
      M->l0d = D.Bd;
      M->l0o = D.Bo;
      PetscCall(PetscMemzero(&D.Bd, sizeof(D.Bd)));
      PetscCall(PetscMemzero(&D.Bo, sizeof(D.Bo)));
    }
  }
  PetscCall(ArraysFree(&D));
  PetscCall(GPUPCCMGMPIReductionCounts(comm, n, nk, nstrict, ndir, N, M));
  M->Nkept = Nk;
  PetscCall(PetscLogEventBegin(PC_CMGM_RedHost, 0, 0, 0, 0));
  if (M->gdirichlet > 0) { /* the map and the couplings E, as the host reduction makes them */
    PetscCall(PetscMalloc1(n, &M->red.map));
    PetscCall(PetscArraycpy(M->red.map, hkmap, n));
    PetscCall(GPUPCCMGMPICouplingsFromBlocks(A, newidx, gnew, gdiag, hdinv, M));
  }
  PetscCall(GPUPCCMGMPICouplingCounts(comm, M));
  PetscCall(PetscLogEventEnd(PC_CMGM_RedHost, 0, 0, 0, 0));
  PetscCall(PetscMemzero(L0, sizeof(*L0)));
  L0->A                = A0;
  L0->n                = nk;
  L0->N                = Nk;
  L0->rstart           = kstart;
  L0->e                = e;
  *done                = PETSC_TRUE;
  M->reduced_on_device = PETSC_TRUE;
  PetscCall(PetscFree5(hisdir, gisdir, ldiag, gdiag, newidx));
  PetscCall(PetscFree5(hkmap, gnew, gpos, garray0, hex));
  PetscCall(PetscFree(hdinv));
  PetscCall(PetscInfo(A, "CMG (parallel) reduction on the device: %" PetscInt_FMT " rows, %" PetscInt_FMT " Dirichlet rows eliminated, %" PetscInt_FMT " strictly dominant rows (excess kept on the diagonal); level 0 has %" PetscInt_FMT " rows\n", N, M->gdirichlet, M->gstrict, Nk));
  PetscCall(PetscLogEventEnd(PC_CMG_Reduce, A, 0, 0, 0));
  PetscFunctionReturn(0);
}

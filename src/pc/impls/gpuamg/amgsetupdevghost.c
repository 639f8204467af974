/*
   The local part with ghosts of a level and its classical strength graph on the device, for PC gpuamg's device setup
   across ranks (gpupc/amgdevacross.h): the twins of GPUPCAMGLocalGetGhost() (amgsetupghost.c) and of
   GPUPCAMGStrengthClassical() with GPUPCAMGStrengthTranspose() (amgsetupstrength.c), entry for entry.

   The part, on the sparse kernel table (device arrays on the cuda backend):
     1. the owned rows with global columns in global order: the level's blocks merged (d's columns + rstart, o's through
        garray), explicit zeros dropped and the diagonal kept (nonzero, then extraction): what the host's OwnedRows()
        gives and what the owners send;
     2. the rows of the garray ghosts from their owners (GPUPCDevRowFetchCreate: each owner extracts the rows other
        ranks reference, only those come down, a PetscSF over the rows, then one over the entries), up again;
     3. local columns: one pass of locate over all entries gives the owned ones (the range) and the garray ghosts
        (n + place in garray); the entries it leaves at -1 (columns of ghost rows reached through no owned row) are
        compacted, gathered (expand) and made distinct (unique): the second ghosts, increasing; a second locate pass
        numbers them ne + place.
   The host does what crosses ranks (the fetched rows, the PetscSF) and the host copy of gidx the record carries.

   The strength graph: the table's diagonal of X (X's rows are in global column order, so not sorted in local numbers;
   the diagonal member scans such rows; the diagonal of ghost row n + k is the ghost's own point n + k, as on the
   host), the one-rank device setup's strength_count/strength_fill (a row at a time, in X's order, the maxima over the
   whole row: with ghosts nothing is lumped, so they equal the host's StrongRow with offmax* 0), and the table's
   transpose (rows of ST increasing, as GPUPCAMGTransposeCSR gives).
*/
#include <gpupc/amgdevacross.h>

/*@C
   GPUPCAMGDevLocalGetGhost - the local part with ghosts of a level held as device blocks (the device twin of
   GPUPCAMGLocalGetGhost())

   Collective on A's communicator

   Input Parameter:
.  A - the level: each rank's device blocks (square, rows and columns laid out alike)

   Output Parameter:
.  L - the part: X (ne x nx), gidx (device and host) and the PetscSF of the ghosts, equal to GPUPCAMGLocalGetGhost()'s
       of the same matrix (free with GPUPCAMGDevLocalFree())

   Level: developer

.seealso: GPUPCAMGLocalGetGhost(), GPUPCAMGDevStrengthAcross(), GPUPCAMGDevLocalFromHost()
@*/
PetscErrorCode GPUPCAMGDevLocalGetGhost(const GPUPCDevMPIBlocks *A, GPUPCAMGDevLocal *L)
{
  const GPUPCSparseKernels *sk;
  const PetscInt            m = A->d.m, ng = A->nghost;
  PetscInt                 *dgarray, *G, *lj, *idx, *cand, *g2, *hxi, nown, nall, nmiss, ng2, ne, nx;
  char                     *keep;
  GPUPCDevCSR               W, Own;
  GPUPCDevRowFetch          F;
  PetscLayout               rmap;

  PetscFunctionBegin;
  PetscCheck(sizeof(PetscScalar) == sizeof(PetscReal), PETSC_COMM_SELF, PETSC_ERR_SUP, "GPUPCAMGDevLocalGetGhost: real scalars only");
  PetscCheck(A->M == A->N && A->rstart == A->cstart && A->d.n == m, A->comm, PETSC_ERR_ARG_SIZ, "PC gpuamg needs a square matrix with the same row and column layout; got %" PetscInt_FMT " x %" PetscInt_FMT " (local %" PetscInt_FMT " x %" PetscInt_FMT ", first row %" PetscInt_FMT ", first column %" PetscInt_FMT ")", A->M, A->N, m, A->d.n, A->rstart, A->cstart);
  PetscCheck(A->o.m == m && A->o.n == ng, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "GPUPCAMGDevLocalGetGhost: the off-diagonal block is %" PetscInt_FMT " x %" PetscInt_FMT ", expected %" PetscInt_FMT " x %" PetscInt_FMT, A->o.m, A->o.n, m, ng);
  PetscCheck((A->d.a || !A->d.nnz) && (A->o.a || !A->o.nnz), PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "GPUPCAMGDevLocalGetGhost: the level's blocks have no values");
  PetscCall(GPUPCGetSparseKernels(&sk));
  PetscCall(PetscMemzero(L, sizeof(*L)));
  L->n      = m;
  L->rstart = A->rstart;
  L->N      = A->M;

  /* 1. the owned rows, global columns in global order, explicit zeros dropped (the diagonal kept) */
  PetscCall(GPUPCAMGDevAlloc(ng, &dgarray));
  PetscCall(GPUPCCopyToDevice(dgarray, A->garray, ng));
  PetscCall(GPUPCDevCSRCreate(m, A->M, A->d.nnz + A->o.nnz, PETSC_TRUE, &W));
  PetscCall(sk->merge(&A->d, NULL, A->rstart, &A->o, dgarray, 0, &W));
  PetscCall(GPUPCAMGDevAlloc(W.nnz, &keep));
  PetscCall(sk->nonzero(&W, A->rstart, keep));
  PetscCall(PetscMemzero(&Own, sizeof(Own)));
  Own.m = m;
  Own.n = A->M;
  PetscCall(GPUPCAMGDevAlloc(m + 1, &Own.i));
  PetscCall(sk->extract_count(&W, m, NULL, keep, NULL, Own.i));
  PetscCall(sk->rowptr(m, Own.i, &Own.nnz, NULL));
  PetscCall(GPUPCAMGDevAlloc(Own.nnz, &Own.j));
  PetscCall(GPUPCAMGDevAlloc(Own.nnz, &Own.a));
  PetscCall(sk->extract_fill(&W, m, NULL, keep, NULL, &Own));
  PetscCall(GPUPCFree(keep));
  PetscCall(GPUPCDevCSRDestroy(&W));

  /* 2. the garray ghosts' rows from their owners (global columns) */
  PetscCall(PetscLayoutCreate(A->comm, &rmap));
  PetscCall(PetscLayoutSetLocalSize(rmap, m));
  PetscCall(PetscLayoutSetSize(rmap, A->M));
  PetscCall(PetscLayoutSetUp(rmap));
  PetscCheck(rmap->rstart == A->rstart, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "GPUPCAMGDevLocalGetGhost: the first row %" PetscInt_FMT " is not the sum of the lower ranks' rows (%" PetscInt_FMT ")", A->rstart, rmap->rstart);
  PetscCall(GPUPCDevRowFetchCreate(rmap, &Own, ng, A->garray, &F));
  nown = Own.nnz;
  nall = nown + F.nnz;
  ne   = m + ng;

  /* X: the owned rows, then the ghost rows; G: every entry's global column */
  PetscCall(GPUPCDevCSRCreate(ne, 0, nall, PETSC_TRUE, &L->X));
  PetscCall(GPUPCAMGDevAlloc(nall, &G));
  PetscCall(GPUPCCopyOnDevice(G, Own.j, nown));
  PetscCall(GPUPCCopyToDevice(G + nown, F.hj, F.nnz));
  PetscCall(GPUPCCopyOnDevice(L->X.a, Own.a, nown));
  PetscCall(GPUPCCopyToDevice(L->X.a + nown, F.ha, F.nnz));
  PetscCall(GPUPCCopyOnDevice(L->X.i, Own.i, m + 1));
  PetscCall(PetscMalloc1(PetscMax(ng, 1), &hxi));
  for (PetscInt k = 0; k < ng; k++) hxi[k] = nown + F.hi[k + 1];
  PetscCall(GPUPCCopyToDevice(L->X.i + m + 1, hxi, ng));
  PetscCall(PetscFree(hxi));
  PetscCall(GPUPCDevCSRDestroy(&Own));

  /* 3. local columns: owned and garray ghosts, then the second ghosts (the columns left at -1, distinct, increasing) */
  lj = L->X.j;
  PetscCall(sk->locate(nall, G, A->rstart, A->rstart + m, ng, dgarray, m, PETSC_TRUE, lj));
  PetscCall(GPUPCAMGDevAlloc(nall, &idx));
  PetscCall(sk->compact(nall, lj, -1, idx, NULL, &nmiss, NULL));
  {
    GPUPCDevCSR pick; /* one row whose columns are the missed entries: expand gathers their global columns */
    PetscInt    hi2[2] = {0, nmiss};

    PetscCall(PetscMemzero(&pick, sizeof(pick)));
    pick.m   = 1;
    pick.n   = nall;
    pick.nnz = nmiss;
    pick.j   = idx;
    PetscCall(GPUPCAMGDevAlloc(2, &pick.i));
    PetscCall(GPUPCCopyToDevice(pick.i, hi2, 2));
    PetscCall(GPUPCAMGDevAlloc(nmiss, &cand));
    PetscCall(sk->expand(&pick, NULL, G, NULL, cand));
    PetscCall(GPUPCFree(pick.i));
  }
  PetscCall(GPUPCAMGDevAlloc(nmiss, &g2));
  PetscCall(sk->unique(nmiss, cand, g2, NULL, &ng2, NULL));
  PetscCall(sk->locate(nall, G, 0, 0, ng2, g2, ne, PETSC_FALSE, lj));
  nx     = ne + ng2;
  L->ne  = ne;
  L->nx  = nx;
  L->X.n = nx;
  PetscCall(GPUPCFree(cand));
  PetscCall(GPUPCFree(idx));
  PetscCall(GPUPCFree(G));

  /* the points' global numbers (host and device), and the PetscSF of the ghosts (leaves n..nx-1), as the host makes it */
  PetscCall(PetscMalloc1(PetscMax(nx, 1), &L->hgidx));
  for (PetscInt r = 0; r < m; r++) L->hgidx[r] = A->rstart + r;
  PetscCall(PetscArraycpy(L->hgidx + m, A->garray, ng));
  PetscCall(GPUPCCopyToHost(L->hgidx + ne, g2, ng2));
  PetscCall(GPUPCAMGDevAlloc(nx, &L->gidx));
  PetscCall(GPUPCCopyToDevice(L->gidx, L->hgidx, m));
  PetscCall(GPUPCCopyOnDevice(L->gidx + m, dgarray, ng));
  PetscCall(GPUPCCopyOnDevice(L->gidx + ne, g2, ng2));
  PetscCall(GPUPCFree(g2));
  PetscCall(GPUPCFree(dgarray));
  PetscCall(PetscSFCreate(A->comm, &L->sf));
  PetscCall(PetscSFSetGraphLayout(L->sf, rmap, nx - m, NULL, PETSC_COPY_VALUES, L->hgidx + m));
  PetscCall(PetscSFSetUp(L->sf));
  PetscCall(PetscLayoutDestroy(&rmap));
  PetscCall(GPUPCDevRowFetchDestroy(&F));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDevStrengthAcross - the classical strength graph of a device local part with ghosts, and its transpose (the
   device twin of GPUPCAMGStrengthClassical() and GPUPCAMGStrengthTranspose() on the host part)

   Not Collective

   Input Parameters:
+  L     - the part (GPUPCAMGDevLocalGetGhost() or GPUPCAMGDevLocalFromHost())
-  theta - the strength threshold, in [0, 1]

   Output Parameter:
.  G - S (ne x nx, X's order) and ST (nx x ne, increasing rows): free with GPUPCAMGDevStrengthFree()

   Level: developer

.seealso: GPUPCAMGDevLocalGetGhost(), GPUPCAMGStrengthClassical(), GPUPCAMGDevStrengthFromHost()
@*/
PetscErrorCode GPUPCAMGDevStrengthAcross(const GPUPCAMGDevLocal *L, PetscReal theta, GPUPCAMGDevGraph *G)
{
  const GPUPCAMGSetupKernels *k;
  const GPUPCSparseKernels   *sk;
  PetscScalar                *d;
  PetscInt                   *perm;

  PetscFunctionBegin;
  PetscCheck(theta >= 0.0 && theta <= 1.0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "the strength threshold must be in [0, 1], got %g (-pc_gpuamg_strong_threshold)", (double)theta);
  PetscCheck(L->X.m == L->ne && L->X.n == L->nx, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "GPUPCAMGDevStrengthAcross: X is %" PetscInt_FMT " x %" PetscInt_FMT ", the part has %" PetscInt_FMT " rows and %" PetscInt_FMT " points", L->X.m, L->X.n, L->ne, L->nx);
  PetscCall(GPUPCGetAMGSetupKernels(&k));
  PetscCall(GPUPCGetSparseKernels(&sk));
  PetscCall(PetscMemzero(G, sizeof(*G)));
  PetscCall(GPUPCAMGDevAlloc(L->ne, &d));
  PetscCall(sk->diagonal(&L->X, d));
  G->S.m = L->ne;
  G->S.n = L->nx;
  PetscCall(GPUPCAMGDevAlloc(L->ne + 1, &G->S.i));
  PetscCall(k->strength_count(&L->X, d, theta, G->S.i));
  PetscCall(sk->rowptr(L->ne, G->S.i, &G->S.nnz, NULL));
  PetscCall(GPUPCAMGDevAlloc(G->S.nnz, &G->S.j));
  PetscCall(k->strength_fill(&L->X, d, theta, &G->S));
  PetscCall(GPUPCFree(d));
  PetscCall(GPUPCDevCSRTranspose(&G->S, MAT_INITIAL_MATRIX, &G->ST, &perm, NULL));
  PetscCall(GPUPCFree(perm));
  PetscFunctionReturn(0);
}

/*
   The local part of a level matrix with ghost points, for PC gpuamg's coarsening across ranks (gpupc/amgsetup.h).

   Points: the n owned rows (local numbers 0..n-1), the ghosts of the off-diagonal block (n + position in garray),
   then the points that only the ghosts' rows reach (sorted by global number). Rows: the owned rows and the rows of
   the garray ghosts, fetched once from their owners by two PetscSF broadcasts (row lengths and offsets, then the
   entries); every row lists its entries in the order of their global columns, as the rows of the whole matrix on one
   rank, so the strength, splitting and interpolation rows are computed in the same order (the same rounding) on any
   number of ranks. Explicit zeros are dropped (the diagonal kept), as
   in the rank-local part, and nothing is lumped: offneg, offpos, offmaxneg, offmaxabs and offcnt are zero, so the
   strength and interpolation rows of amgsetupstrength.c and amgsetupinterp.c see every coupling.
   On one rank the part equals GPUPCAMGLocalGet()'s (same entries in the same order), with no ghosts.
*/
#include <gpupc/amgsetup.h>
#include <gpupc/matgpu.h>

/* entries of row r kept: the nonzero couplings and the diagonal */
#define GPUPC_GHOST_KEEP(a, c, r) (PetscRealPart(a) != 0.0 || (c) == (r))

/* position of g in the sorted array a[0..n-1], or -1 */
static PetscInt Find(PetscInt g, const PetscInt *a, PetscInt n)
{
  PetscInt lo = 0, hi = n;

  while (lo < hi) {
    PetscInt mid = (lo + hi) / 2;
    if (a[mid] < g) lo = mid + 1;
    else hi = mid;
  }
  return lo < n && a[lo] == g ? lo : -1;
}

/* local number of global point g: owned, garray ghost or second ghost (g2, sorted); -1 if none */
static PetscInt LocalPoint(PetscInt g, PetscInt rstart, PetscInt n, PetscInt ng, const PetscInt *garray, PetscInt ng2, const PetscInt *g2)
{
  PetscInt k;

  if (g >= rstart && g < rstart + n) return g - rstart;
  if ((k = Find(g, garray, ng)) >= 0) return n + k;
  return (k = Find(g, g2, ng2)) >= 0 ? n + ng + k : -1;
}

/* the owned rows with global columns, sorted, as the ghosts' owners send them */
static PetscErrorCode OwnedRows(const GPUPCCSR *d, const GPUPCCSR *o, const PetscInt *garray, PetscInt rstart, PetscInt threads, PetscInt **oi, PetscInt **gcol, PetscReal **val)
{
  PetscInt m = d->m, *ri;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(m + 1, &ri));
  ri[0] = 0;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (PetscInt r = 0; r < m; r++) {
    PetscInt c = 0;
    for (PetscInt e = d->i[r]; e < d->i[r + 1]; e++) c += GPUPC_GHOST_KEEP(d->a[e], d->j[e], r) ? 1 : 0;
    if (o)
      for (PetscInt e = o->i[r]; e < o->i[r + 1]; e++) c += PetscRealPart(o->a[e]) != 0.0 ? 1 : 0;
    ri[r + 1] = c;
  }
  for (PetscInt r = 0; r < m; r++) ri[r + 1] += ri[r];
  PetscCall(PetscMalloc2(ri[m], gcol, ri[m], val));
#pragma omp parallel for num_threads(threads) schedule(static)
  for (PetscInt r = 0; r < m; r++) {
    PetscInt k = ri[r];
    for (PetscInt e = d->i[r]; e < d->i[r + 1]; e++)
      if (GPUPC_GHOST_KEEP(d->a[e], d->j[e], r)) {
        (*gcol)[k]  = rstart + d->j[e];
        (*val)[k++] = PetscRealPart(d->a[e]);
      }
    if (o)
      for (PetscInt e = o->i[r]; e < o->i[r + 1]; e++)
        if (PetscRealPart(o->a[e]) != 0.0) {
          (*gcol)[k]  = garray[o->j[e]];
          (*val)[k++] = PetscRealPart(o->a[e]);
        }
    GPUPCAMGSortPairs(ri[r + 1] - ri[r], *gcol + ri[r], *val + ri[r]); /* in global order, as on one rank */
  }
  *oi = ri;
  PetscFunctionReturn(0);
}

/* the rows of the ng garray ghosts: lengths and offsets through sf1 (leaves: the ghosts), then the entries through a
   PetscSF whose leaves are the ghost rows' entries */
static PetscErrorCode GhostRows(PetscSF sf1, PetscInt m, PetscInt ng, const PetscInt *oi, const PetscInt *ogc, const PetscReal *oval, PetscInt **gi, PetscInt **ggc, PetscReal **gval)
{
  PetscInt          *len, *olen, *goff, nl = 0;
  const PetscSFNode *rem;
  PetscSFNode       *remote;
  PetscSF            sf2;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(m, &olen, ng, &len, ng, &goff));
  for (PetscInt r = 0; r < m; r++) olen[r] = oi[r + 1] - oi[r];
  PetscCall(PetscSFBcastBegin(sf1, MPIU_INT, olen, len, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(sf1, MPIU_INT, olen, len, MPI_REPLACE));
  PetscCall(PetscSFBcastBegin(sf1, MPIU_INT, oi, goff, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(sf1, MPIU_INT, oi, goff, MPI_REPLACE));
  PetscCall(PetscMalloc1(ng + 1, gi));
  (*gi)[0] = 0;
  for (PetscInt k = 0; k < ng; k++) (*gi)[k + 1] = (*gi)[k] + len[k];
  nl = (*gi)[ng];
  PetscCall(PetscSFGetGraph(sf1, NULL, NULL, NULL, &rem));
  PetscCall(PetscMalloc1(nl, &remote));
  for (PetscInt k = 0; k < ng; k++)
    for (PetscInt t = 0; t < len[k]; t++) {
      remote[(*gi)[k] + t].rank  = rem[k].rank;
      remote[(*gi)[k] + t].index = goff[k] + t;
    }
  PetscCall(PetscSFCreate(PetscObjectComm((PetscObject)sf1), &sf2));
  PetscCall(PetscSFSetGraph(sf2, oi[m], nl, NULL, PETSC_OWN_POINTER, remote, PETSC_OWN_POINTER));
  PetscCall(PetscSFSetUp(sf2));
  PetscCall(PetscMalloc2(nl, ggc, nl, gval));
  PetscCall(PetscSFBcastBegin(sf2, MPIU_INT, ogc, *ggc, MPI_REPLACE));
  PetscCall(PetscSFBcastBegin(sf2, MPIU_REAL, oval, *gval, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(sf2, MPIU_INT, ogc, *ggc, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(sf2, MPIU_REAL, oval, *gval, MPI_REPLACE));
  PetscCall(PetscSFDestroy(&sf2));
  PetscCall(PetscFree3(olen, len, goff));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGLocalGetGhost - the local part of a level matrix with its ghost points and the ghosts' rows, for the
   coarsening across ranks

   Collective on A

   Input Parameters:
+  A       - SEQAIJ, MPIAIJ or a GPUPC type derived from them; square, scalar (one function)
-  threads - host threads (rows are independent; the result does not depend on the count)

   Output Parameter:
.  L - the local part: ne = n + ghosts of the off-diagonal block rows, nx points, gidx and sf set (free with
       GPUPCAMGLocalFree())

   Level: developer

.seealso: GPUPCAMGLocalGet(), GPUPCAMGCoarsenAcross(), GPUPCAMGInterpolateAcross()
@*/
PetscErrorCode GPUPCAMGLocalGetGhost(Mat A, PetscInt threads, GPUPCAMGLocal *L)
{
  PetscErrorCode (*f)(void) = NULL;
  MPI_Comm        comm      = PetscObjectComm((PetscObject)A);
  PetscInt        M, N, m, mn, ng = 0, ng2 = 0, ne, nx, *oi, *ogc, *gi = NULL, *ggc = NULL, *g2 = NULL;
  PetscReal      *oval, *gval = NULL;
  Mat             Ad = A, Ao = NULL;
  const PetscInt *garray = NULL;
  GPUPCCSR        dcsr, ocsr;
  PetscLayout     rmap;
  PetscSF         sf1;

  PetscFunctionBegin;
  threads = PetscMax(threads, 1);
  PetscCall(PetscMemzero(L, sizeof(*L)));
  PetscCall(MatGetSize(A, &M, &N));
  PetscCall(MatGetLocalSize(A, &m, &mn));
  PetscCheck(M == N && m == mn, comm, PETSC_ERR_ARG_SIZ, "PC gpuamg needs a square matrix with the same row and column layout; got %" PetscInt_FMT " x %" PetscInt_FMT " (local %" PetscInt_FMT " x %" PetscInt_FMT ")", M, N, m, mn);
  PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatMPIAIJSetPreallocation_C", &f));
  if (f) PetscCall(GPUPCMatMPIAIJGetSeqAIJ(A, &Ad, &Ao, &garray));
  PetscCall(MatGetLayouts(A, &rmap, NULL));
  L->n  = m;
  L->N  = M;
  L->nf = 1;
  PetscCall(MatGetOwnershipRange(A, &L->rstart, NULL));
  PetscCall(MatGetBlockSize(A, &L->bs));
  PetscCall(GPUPCMatGetCSR(Ad, &dcsr));
  if (Ao) {
    PetscCall(GPUPCMatGetCSR(Ao, &ocsr));
    PetscCall(MatGetLocalSize(Ao, NULL, &ng));
  }
  PetscCall(OwnedRows(&dcsr, Ao ? &ocsr : NULL, garray, L->rstart, threads, &oi, &ogc, &oval));
  PetscCall(PetscSFCreate(comm, &sf1));
  PetscCall(PetscSFSetGraphLayout(sf1, rmap, ng, NULL, PETSC_COPY_VALUES, garray));
  PetscCall(PetscSFSetUp(sf1));
  PetscCall(GhostRows(sf1, m, ng, oi, ogc, oval, &gi, &ggc, &gval));
  PetscCall(PetscSFDestroy(&sf1));
  { /* the second ghosts: columns of the ghost rows that are neither owned nor garray ghosts, sorted */
    PetscInt cnt = 0;
    for (PetscInt q = 0; q < gi[ng]; q++)
      if (LocalPoint(ggc[q], L->rstart, m, ng, garray, 0, NULL) < 0) cnt++;
    PetscCall(PetscMalloc1(cnt, &g2));
    cnt = 0;
    for (PetscInt q = 0; q < gi[ng]; q++)
      if (LocalPoint(ggc[q], L->rstart, m, ng, garray, 0, NULL) < 0) g2[cnt++] = ggc[q];
    ng2 = cnt;
    PetscCall(PetscSortRemoveDupsInt(&ng2, g2));
  }
  ne    = m + ng;
  nx    = ne + ng2;
  L->ne = ne;
  L->nx = nx;
  PetscCall(PetscMalloc1(nx, &L->gidx));
  for (PetscInt r = 0; r < m; r++) L->gidx[r] = L->rstart + r;
  for (PetscInt k = 0; k < ng; k++) L->gidx[m + k] = garray[k];
  for (PetscInt k = 0; k < ng2; k++) L->gidx[ne + k] = g2[k];
  /* the held rows in local numbers: owned (local columns straight from the blocks), then the ghost rows */
  PetscCall(PetscMalloc1(ne + 1, &L->i));
  for (PetscInt r = 0; r <= m; r++) L->i[r] = oi[r];
  for (PetscInt k = 0; k < ng; k++) L->i[m + k + 1] = oi[m] + gi[k + 1];
  PetscCall(PetscMalloc2(L->i[ne], &L->j, L->i[ne], &L->a));
  PetscCall(PetscMalloc6(ne, &L->diag, ne, &L->offneg, ne, &L->offpos, ne, &L->offmaxneg, ne, &L->offmaxabs, ne, &L->offcnt));
#pragma omp parallel for num_threads(threads) schedule(static)
  for (PetscInt r = 0; r < m; r++)
    for (PetscInt e = L->i[r]; e < L->i[r + 1]; e++) {
      L->j[e] = LocalPoint(ogc[e], L->rstart, m, ng, garray, ng2, g2);
      L->a[e] = oval[e];
    }
#pragma omp parallel for num_threads(threads) schedule(static)
  for (PetscInt k = 0; k < ng; k++)
    for (PetscInt q = gi[k]; q < gi[k + 1]; q++) {
      L->j[oi[m] + q] = LocalPoint(ggc[q], L->rstart, m, ng, garray, ng2, g2);
      L->a[oi[m] + q] = gval[q];
    }
#pragma omp parallel for num_threads(threads) schedule(static)
  for (PetscInt r = 0; r < ne; r++) {
    L->diag[r] = 0.0;
    for (PetscInt e = L->i[r]; e < L->i[r + 1]; e++)
      if (L->j[e] == r) L->diag[r] += L->a[e];
    L->offneg[r] = L->offpos[r] = L->offmaxneg[r] = L->offmaxabs[r] = 0.0;
    L->offcnt[r]                                                    = 0;
  }
  PetscCall(GPUPCMatRestoreCSR(&dcsr));
  if (Ao) PetscCall(GPUPCMatRestoreCSR(&ocsr));
  PetscCall(PetscSFCreate(comm, &L->sf));
  PetscCall(PetscSFSetGraphLayout(L->sf, rmap, nx - m, NULL, PETSC_COPY_VALUES, L->gidx + m));
  PetscCall(PetscSFSetUp(L->sf));
  PetscCall(PetscFree(oi));
  PetscCall(PetscFree2(ogc, oval));
  PetscCall(PetscFree(gi));
  PetscCall(PetscFree2(ggc, gval));
  PetscCall(PetscFree(g2));
  PetscFunctionReturn(0);
}

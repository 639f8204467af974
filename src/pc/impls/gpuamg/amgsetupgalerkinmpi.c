/*
   The Galerkin product C = P^T A P of PC gpuamg's setup on several ranks without MatPtAP (docs/algorithms.md 4.3),
   for A and P MPIAIJ (P with an off-diagonal block where the coarsening went across ranks). Each rank's share runs on
   the active backend's sparse kernel table (gpupc/sparsekernels.h: device arrays on the cuda backend, host arrays on
   the host backend):
     1. P_oth, the rows of P that A's ghost columns reference, comes from their owners: a PetscSF over the rows gives
        their lengths and offsets, then a PetscSF over the entries (kept: new values travel on it) their columns and
        values;
     2. B = [P_loc; P_oth] (n + nghost rows, every row in global column order) with its columns compressed to the
        global coarse columns it reaches, in global order, so the rows stay sorted; X = [A_d | A_o] (A's rows with the
        ghosts as columns n + g); AP = X B = A_d P_loc + A_o P_oth by one SpGEMM;
     3. Cp = P_loc^T AP (the table's transpose of B's first n rows, a second SpGEMM): this rank's contributions to C,
        rows and columns compressed. The compressed numbering keeps the global order, so the rows of each rank are
        consecutive in Cp and so are their entries: what goes to a rank is one range of Cp's entries;
     4. the other ranks' ranges go to their owners by MPI_Alltoallv on host buffers (the global rows and columns once,
        then the values only); each rank sums its rows' triples by the table's sort-and-reduce (GPUPCDevCOOAssemble)
        in rank order (the triples of rank 0 first, this rank's own at its place), so every run gives the same values;
     5. the diagonal and off-diagonal blocks come out of the summed rows by the extract members and C is made an
        MPIAIJ from them directly (GPUPCCMGMPIMatFromBlocks, as the distributed cmg makes its levels).
   Everything the product needs again is kept on C (a composed container): MAT_REUSE_MATRIX (new values of A and P on
   the same patterns) reruns the numeric parts only (the value merges on the host, the broadcast of P_oth's values,
   the two numeric SpGEMMs, the value exchange, the sums, the block values), written into C in place.
   The products sum in A's row order (deterministic, both tables alike), so C equals MatPtAP's up to rounding.
*/
#include <gpupc/amgsetup.h>
#include <gpupc/cmgmpi.h> /* GPUPCCMGMPIMatFromBlocks: the MPIAIJ from device blocks */
#include <gpupc/matgpu.h>

PetscLogEvent GPUPCAMG_GalerkinMPI, GPUPCAMG_GalMPIPlan, GPUPCAMG_GalMPIVals, GPUPCAMG_GalMPIProd, GPUPCAMG_GalMPIXPlan, GPUPCAMG_GalMPIXchg, GPUPCAMG_GalMPIAsm, GPUPCAMG_GalMPIMat;

/* what a numeric re-run of one product needs (host arrays h*, the rest in the table's world) */
typedef struct {
  PetscInt     n, nghost, nda, noa, npd, npo; /* A's rows and ghost columns, entries of A's and P's blocks */
  PetscInt     mc;                            /* C's rows on this rank (P's local columns) */
  PetscInt    *xperm;                         /* X's entry q: A_d's entry xperm[q], or A_o's xperm[q] - nda */
  PetscInt    *pperm;                         /* P_loc's entry q: P_d's entry pperm[q], or P_o's pperm[q] - npd */
  PetscInt     nploc, npoth;                  /* entries of P_loc, P_oth */
  PetscSF      esf;                           /* roots: this rank's P_loc entries; leaves: P_oth's entries */
  PetscScalar *hx, *hb;                       /* host staging of X's and B's values */
  GPUPCDevCSR  X, B, R, AP, Cp;               /* R = P_loc^T, AP = X B, Cp = R AP */
  PetscInt    *rperm;                         /* R's entry q is P_loc's entry rperm[q] */
  PetscMPIInt *scount, *sdispl, *rcount, *rdispl;
  PetscInt     own0, own1;    /* Cp's entries of this rank's rows */
  PetscInt     nlo, nrecv;    /* entries received from lower ranks, from all */
  PetscScalar *hsend, *hrecv; /* Cp's values (own range unused), the received ones */
  PetscScalar *v;             /* the triples' values in rank order */
  GPUPCDevCOO  coo;
  GPUPCDevCSR  Cs;            /* this rank's rows of C, columns compressed */
  PetscInt    *cmapd, *cmapo; /* compressed column -> diagonal block column, off-diagonal block column (-1: other) */
  GPUPCDevCSR  Cd, Co;        /* C's blocks (Co: columns numbered by C's garray) */
} GalerkinMPI;

static PetscErrorCode GalerkinMPIDestroy(void *ctx)
{
  GalerkinMPI *G = (GalerkinMPI *)ctx;

  PetscFunctionBegin;
  PetscCall(PetscFree(G->xperm));
  PetscCall(PetscFree(G->hx));
  PetscCall(PetscFree(G->pperm));
  PetscCall(PetscFree(G->hb));
  PetscCall(PetscSFDestroy(&G->esf));
  PetscCall(GPUPCDevCSRDestroy(&G->X));
  PetscCall(GPUPCDevCSRDestroy(&G->B));
  PetscCall(GPUPCDevCSRDestroy(&G->R));
  PetscCall(GPUPCFree(G->rperm));
  PetscCall(GPUPCDevCSRDestroy(&G->AP));
  PetscCall(GPUPCDevCSRDestroy(&G->Cp));
  PetscCall(PetscFree4(G->scount, G->sdispl, G->rcount, G->rdispl));
  PetscCall(PetscFree2(G->hsend, G->hrecv));
  PetscCall(GPUPCFree(G->v));
  PetscCall(GPUPCDevCOODestroy(&G->coo));
  PetscCall(GPUPCDevCSRDestroy(&G->Cs));
  PetscCall(GPUPCFree(G->cmapd));
  PetscCall(GPUPCFree(G->cmapo));
  PetscCall(GPUPCDevCSRDestroy(&G->Cd));
  PetscCall(GPUPCDevCSRDestroy(&G->Co));
  PetscCall(PetscFree(G));
  PetscFunctionReturn(0);
}

/* the host CSR of the two blocks of an MPIAIJ (or derived) matrix; refuses a level held on the device */
static PetscErrorCode BlocksGet(Mat M, GPUPCCSR *d, GPUPCCSR *o, const PetscInt **garray)
{
  Mat Md, Mo;

  PetscFunctionBegin;
  PetscCall(GPUPCMatMPIAIJGetSeqAIJ(M, &Md, &Mo, garray));
  PetscCall(GPUPCMatGetCSR(Md, d));
  PetscCall(GPUPCMatGetCSR(Mo, o));
  PetscCheck(!d->device && !o->device, PETSC_COMM_SELF, PETSC_ERR_SUP, "PC gpuamg: the distributed Galerkin product reads host MPIAIJ blocks");
  PetscFunctionReturn(0);
}

static PetscErrorCode BlocksRestore(GPUPCCSR *d, GPUPCCSR *o)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMatRestoreCSR(o));
  PetscCall(GPUPCMatRestoreCSR(d));
  PetscFunctionReturn(0);
}

/* the merged rows of two blocks: row r lists d's entries (columns d->j + doff) and o's (columns ocol[o->j]) sorted by
   column; *pi (m + 1) and *pj (the columns: PetscFree2), *perm[q] = d's entry or nd + o's entry of merged entry q */
static PetscErrorCode MergeRows(const GPUPCCSR *d, const GPUPCCSR *o, PetscInt doff, const PetscInt *ocol, PetscInt **pi, PetscInt **pj, PetscInt **perm)
{
  const PetscInt m = d->m, nd = d->nnz, nnz = d->nnz + o->nnz;
  PetscInt      *i, *j, *p;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(m + 1, &i, nnz, &j));
  PetscCall(PetscMalloc1(nnz, &p));
  i[0] = 0;
  for (PetscInt r = 0; r < m; r++) {
    PetscInt q = i[r];
    for (PetscInt k = d->i[r]; k < d->i[r + 1]; k++, q++) {
      j[q] = d->j[k] + doff;
      p[q] = k;
    }
    for (PetscInt k = o->i[r]; k < o->i[r + 1]; k++, q++) {
      j[q] = ocol[o->j[k]];
      p[q] = nd + k;
    }
    i[r + 1] = q;
    PetscCall(PetscSortIntWithArray(q - i[r], j + i[r], p + i[r])); /* columns are distinct: the order is unique */
  }
  *pi   = i;
  *pj   = j;
  *perm = p;
  PetscFunctionReturn(0);
}

/* stage[q] = the value of merged entry q (MergeRows' perm) */
static void MergeValues(PetscInt nnz, const PetscInt *perm, PetscInt nd, const PetscScalar *da, const PetscScalar *oa, PetscScalar *stage)
{
  for (PetscInt q = 0; q < nnz; q++) stage[q] = perm[q] < nd ? da[perm[q]] : oa[perm[q] - nd];
}

/* X's values from A's blocks, B's from P's blocks and (P_oth) from their owners; both uploaded */
static PetscErrorCode FactorValues(GalerkinMPI *G, Mat A, Mat P)
{
  GPUPCCSR ad, ao, pd, po;

  PetscFunctionBegin;
  PetscCall(BlocksGet(A, &ad, &ao, NULL));
  PetscCheck(ad.m == G->n && ad.nnz == G->nda && ao.nnz == G->noa && ao.n == G->nghost, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "PC gpuamg: the level matrix of a value-only Galerkin product has another pattern (%" PetscInt_FMT " + %" PetscInt_FMT " entries, %" PetscInt_FMT " ghosts; the product was made for %" PetscInt_FMT " + %" PetscInt_FMT ", %" PetscInt_FMT ")", ad.nnz, ao.nnz, ao.n, G->nda, G->noa, G->nghost);
  MergeValues(G->nda + G->noa, G->xperm, G->nda, ad.a, ao.a, G->hx);
  PetscCall(BlocksRestore(&ad, &ao));
  PetscCall(GPUPCCopyToDevice(G->X.a, G->hx, G->X.nnz));
  PetscCall(BlocksGet(P, &pd, &po, NULL));
  PetscCheck(pd.m == G->n && pd.nnz == G->npd && po.nnz == G->npo, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "PC gpuamg: the prolongator of a value-only Galerkin product has another pattern (%" PetscInt_FMT " + %" PetscInt_FMT " entries; the product was made for %" PetscInt_FMT " + %" PetscInt_FMT ")", pd.nnz, po.nnz, G->npd, G->npo);
  MergeValues(G->nploc, G->pperm, G->npd, pd.a, po.a, G->hb);
  PetscCall(BlocksRestore(&pd, &po));
  PetscCall(PetscSFBcastBegin(G->esf, MPIU_SCALAR, G->hb, G->hb + G->nploc, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(G->esf, MPIU_SCALAR, G->hb, G->hb + G->nploc, MPI_REPLACE));
  PetscCall(GPUPCCopyToDevice(G->B.a, G->hb, G->B.nnz));
  PetscFunctionReturn(0);
}

/* the triples' values in rank order: other ranks' ranges of Cp sent, this rank's own range copied on the device */
static PetscErrorCode TripleValues(MPI_Comm comm, GalerkinMPI *G)
{
  const PetscInt nown = G->own1 - G->own0;

  PetscFunctionBegin;
  PetscCall(GPUPCCopyToHost(G->hsend, G->Cp.a, G->own0));
  PetscCall(GPUPCCopyToHost(G->hsend + G->own1, G->Cp.a + G->own1, G->Cp.nnz - G->own1));
  PetscCallMPI(MPI_Alltoallv(G->hsend, G->scount, G->sdispl, MPIU_SCALAR, G->hrecv, G->rcount, G->rdispl, MPIU_SCALAR, comm));
  PetscCall(GPUPCCopyToDevice(G->v, G->hrecv, G->nlo));
  PetscCall(GPUPCCopyOnDevice(G->v + G->nlo, G->Cp.a + G->own0, nown));
  PetscCall(GPUPCCopyToDevice(G->v + G->nlo + nown, G->hrecv + G->nlo, G->nrecv - G->nlo));
  PetscFunctionReturn(0);
}

/* the symbolic part of steps 1-2: X and P_loc merged, P_oth's pattern fetched (the entry SF kept), B's columns
   compressed (*colmap: the ncc global coarse columns, ascending; PetscFree) */
static PetscErrorCode Factors(MPI_Comm comm, Mat A, Mat P, GalerkinMPI *G, PetscInt *ncc, PetscInt **colmap)
{
  GPUPCCSR           ad, ao, pd, po;
  const PetscInt    *agarray, *pgarray;
  PetscInt          *xi, *xj, *pi, *pj, *pcol, cstart, *rs, *rl, *gs, *gl, *othj, *bj, *all, nall;
  PetscLayout        rmap;
  PetscSF            rsf;
  const PetscSFNode *rremote;
  PetscSFNode       *eremote;

  PetscFunctionBegin;
  /* X = [A_d | A_o]: the ghosts as columns n + g */
  PetscCall(BlocksGet(A, &ad, &ao, &agarray));
  G->n      = ad.m;
  G->nghost = ao.n;
  G->nda    = ad.nnz;
  G->noa    = ao.nnz;
  {
    PetscInt *gcol;
    PetscCall(PetscMalloc1(G->nghost, &gcol));
    for (PetscInt g = 0; g < G->nghost; g++) gcol[g] = G->n + g;
    PetscCall(MergeRows(&ad, &ao, 0, gcol, &xi, &xj, &G->xperm));
    PetscCall(PetscMalloc1(G->nda + G->noa, &G->hx));
    PetscCall(PetscFree(gcol));
  }
  PetscCall(GPUPCDevCSRCreate(G->n, G->n + G->nghost, G->nda + G->noa, PETSC_TRUE, &G->X));
  PetscCall(GPUPCCopyToDevice(G->X.i, xi, G->n + 1));
  PetscCall(GPUPCCopyToDevice(G->X.j, xj, G->X.nnz));
  PetscCall(PetscFree2(xi, xj));
  /* P_loc: P's rows with global coarse columns, in global column order */
  PetscCall(MatGetOwnershipRangeColumn(P, &cstart, NULL));
  PetscCall(BlocksGet(P, &pd, &po, &pgarray));
  PetscCheck(pd.m == G->n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "PC gpuamg: P has %" PetscInt_FMT " local rows, the level matrix %" PetscInt_FMT, pd.m, G->n);
  G->npd   = pd.nnz;
  G->npo   = po.nnz;
  G->nploc = pd.nnz + po.nnz;
  G->mc    = pd.n;
  PetscCall(MergeRows(&pd, &po, cstart, pgarray, &pi, &pj, &G->pperm));
  PetscCall(BlocksRestore(&pd, &po));
  /* P_oth: lengths and offsets of the ghosts' rows from their owners, then their columns over the entry SF */
  PetscCall(PetscMalloc4(G->n, &rs, G->n, &rl, G->nghost, &gs, G->nghost, &gl));
  for (PetscInt r = 0; r < G->n; r++) {
    rs[r] = pi[r];
    rl[r] = pi[r + 1] - pi[r];
  }
  PetscCall(MatGetLayouts(P, &rmap, NULL));
  PetscCall(PetscSFCreate(comm, &rsf));
  PetscCall(PetscSFSetGraphLayout(rsf, rmap, G->nghost, NULL, PETSC_COPY_VALUES, agarray));
  PetscCall(BlocksRestore(&ad, &ao));
  PetscCall(PetscSFBcastBegin(rsf, MPIU_INT, rs, gs, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(rsf, MPIU_INT, rs, gs, MPI_REPLACE));
  PetscCall(PetscSFBcastBegin(rsf, MPIU_INT, rl, gl, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(rsf, MPIU_INT, rl, gl, MPI_REPLACE));
  PetscCall(PetscSFGetGraph(rsf, NULL, NULL, NULL, &rremote));
  G->npoth = 0;
  for (PetscInt g = 0; g < G->nghost; g++) G->npoth += gl[g];
  PetscCall(PetscMalloc1(G->npoth, &eremote));
  for (PetscInt g = 0, k = 0; g < G->nghost; g++)
    for (PetscInt t = 0; t < gl[g]; t++, k++) {
      eremote[k].rank  = rremote[g].rank;
      eremote[k].index = gs[g] + t;
    }
  PetscCall(PetscSFDestroy(&rsf));
  PetscCall(PetscSFCreate(comm, &G->esf));
  PetscCall(PetscSFSetGraph(G->esf, G->nploc, G->npoth, NULL, PETSC_COPY_VALUES, eremote, PETSC_OWN_POINTER));
  PetscCall(PetscMalloc1(G->npoth, &othj));
  PetscCall(PetscSFBcastBegin(G->esf, MPIU_INT, pj, othj, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(G->esf, MPIU_INT, pj, othj, MPI_REPLACE));
  PetscCall(PetscMalloc1(G->nploc + G->npoth, &G->hb)); /* the staging of B's values: P_loc's, then P_oth's */
  /* the global coarse columns B reaches, in global order, and B with its columns compressed to them */
  nall = G->nploc + G->npoth;
  PetscCall(PetscMalloc1(nall, &all));
  PetscCall(PetscArraycpy(all, pj, G->nploc));
  PetscCall(PetscArraycpy(all + G->nploc, othj, G->npoth));
  PetscCall(PetscSortRemoveDupsInt(&nall, all));
  *ncc    = nall;
  *colmap = all;
  PetscCall(PetscMalloc2(G->n + G->nghost + 1, &pcol, G->nploc + G->npoth, &bj));
  PetscCall(PetscArraycpy(pcol, pi, G->n + 1));
  for (PetscInt g = 0; g < G->nghost; g++) pcol[G->n + g + 1] = pcol[G->n + g] + gl[g];
  for (PetscInt q = 0; q < G->nploc + G->npoth; q++) {
    PetscInt c = q < G->nploc ? pj[q] : othj[q - G->nploc], at;
    PetscCall(PetscFindInt(c, nall, all, &at));
    bj[q] = at;
  }
  PetscCall(GPUPCDevCSRCreate(G->n + G->nghost, nall, G->nploc + G->npoth, PETSC_TRUE, &G->B));
  PetscCall(GPUPCCopyToDevice(G->B.i, pcol, G->B.m + 1));
  PetscCall(GPUPCCopyToDevice(G->B.j, bj, G->B.nnz));
  PetscCall(PetscFree2(pcol, bj));
  PetscCall(PetscFree(othj));
  PetscCall(PetscFree2(pi, pj));
  PetscCall(PetscFree4(rs, rl, gs, gl));
  PetscFunctionReturn(0);
}

/* the exchange plan of step 4: the range of Cp's entries of each rank's rows, counts to and from every rank, and
   the global (row, column) of the received triples (*rrow, *rcol; PetscFree2) */
static PetscErrorCode ExchangePlan(MPI_Comm comm, Mat P, const PetscInt *colmap, PetscInt ncc, GalerkinMPI *G, PetscInt **rrow, PetscInt **rcol)
{
  PetscMPIInt     size, rank;
  const PetscInt *cranges;
  PetscInt       *ci, *cj, *srow, *scol, r = 0;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(MatGetOwnershipRangesColumn(P, &cranges));
  PetscCall(PetscMalloc4(size, &G->scount, size, &G->sdispl, size, &G->rcount, size + 1, &G->rdispl));
  PetscCall(PetscMalloc2(ncc + 1, &ci, G->Cp.nnz, &cj));
  PetscCall(GPUPCCopyToHost(ci, G->Cp.i, ncc + 1));
  PetscCall(GPUPCCopyToHost(cj, G->Cp.j, G->Cp.nnz));
  for (PetscMPIInt p = 0; p < size; p++) { /* rows r .. of Cp belong to rank p while their global row is below its end */
    PetscInt r0 = r;
    while (r < ncc && colmap[r] < cranges[p + 1]) r++;
    PetscCall(PetscMPIIntCast(ci[r0], &G->sdispl[p]));
    PetscCall(PetscMPIIntCast(p == rank ? 0 : ci[r] - ci[r0], &G->scount[p]));
    if (p == rank) {
      G->own0 = ci[r0];
      G->own1 = ci[r];
    }
  }
  PetscCallMPI(MPI_Alltoall(G->scount, 1, MPI_INT, G->rcount, 1, MPI_INT, comm));
  G->rdispl[0] = 0;
  for (PetscMPIInt p = 0; p < size; p++) {
    PetscInt next = (PetscInt)G->rdispl[p] + G->rcount[p];
    PetscCall(PetscMPIIntCast(next, &G->rdispl[p + 1]));
  }
  G->nrecv = G->rdispl[size];
  G->nlo   = G->rdispl[rank];
  /* the patterns: the global row and column of every sent entry (the own range is not sent) */
  PetscCall(PetscMalloc2(G->Cp.nnz, &srow, G->Cp.nnz, &scol));
  for (PetscInt q = 0; q < ncc; q++)
    for (PetscInt e = ci[q]; e < ci[q + 1]; e++) {
      srow[e] = colmap[q];
      scol[e] = colmap[cj[e]];
    }
  PetscCall(PetscMalloc2(G->nrecv, rrow, G->nrecv, rcol));
  PetscCallMPI(MPI_Alltoallv(srow, G->scount, G->sdispl, MPIU_INT, *rrow, G->rcount, G->rdispl, MPIU_INT, comm));
  PetscCallMPI(MPI_Alltoallv(scol, G->scount, G->sdispl, MPIU_INT, *rcol, G->rcount, G->rdispl, MPIU_INT, comm));
  /* the own range: its (row, column) in place of the received triples' between the lower and higher ranks' */
  {
    const PetscInt nown = G->own1 - G->own0;
    PetscInt      *tr, *tc;
    PetscCall(PetscMalloc2(G->nrecv + nown, &tr, G->nrecv + nown, &tc));
    PetscCall(PetscArraycpy(tr, *rrow, G->nlo));
    PetscCall(PetscArraycpy(tc, *rcol, G->nlo));
    PetscCall(PetscArraycpy(tr + G->nlo, srow + G->own0, nown));
    PetscCall(PetscArraycpy(tc + G->nlo, scol + G->own0, nown));
    PetscCall(PetscArraycpy(tr + G->nlo + nown, *rrow + G->nlo, G->nrecv - G->nlo));
    PetscCall(PetscArraycpy(tc + G->nlo + nown, *rcol + G->nlo, G->nrecv - G->nlo));
    PetscCall(PetscFree2(*rrow, *rcol));
    *rrow = tr;
    *rcol = tc;
  }
  PetscCall(PetscMalloc2(G->Cp.nnz, &G->hsend, G->nrecv, &G->hrecv));
  PetscCall(PetscFree2(srow, scol));
  PetscCall(PetscFree2(ci, cj));
  PetscFunctionReturn(0);
}

/* steps 4-5 the first time: the triples' indices, their sort, the blocks, C */
static PetscErrorCode Assemble(MPI_Comm comm, Mat P, const PetscInt *rrow, const PetscInt *rcol, GalerkinMPI *G, Mat *C)
{
  const PetscInt nent = G->nrecv + G->own1 - G->own0;
  PetscInt       cstart, Nc, ncol, *col, *hci, *hcj, *dci, *dcj, *hmap, *garray, ngarray = 0;

  PetscFunctionBegin;
  PetscCall(MatGetOwnershipRangeColumn(P, &cstart, NULL));
  PetscCall(MatGetSize(P, NULL, &Nc));
  /* the columns of this rank's rows, compressed in global order */
  PetscCall(PetscMalloc1(nent, &col));
  PetscCall(PetscArraycpy(col, rcol, nent));
  ncol = nent;
  PetscCall(PetscSortRemoveDupsInt(&ncol, col));
  PetscCall(PetscMalloc2(nent, &hci, nent, &hcj));
  for (PetscInt k = 0; k < nent; k++) {
    hci[k] = rrow[k] - cstart;
    PetscCheck(hci[k] >= 0 && hci[k] < G->mc, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PC gpuamg: a Galerkin triple of coarse row %" PetscInt_FMT " reached the rank of rows %" PetscInt_FMT " .. %" PetscInt_FMT, rrow[k], cstart, cstart + G->mc - 1);
    PetscCall(PetscFindInt(rcol[k], ncol, col, &hcj[k]));
  }
  PetscCall(GPUPCMallocArray(nent, &dci));
  PetscCall(GPUPCMallocArray(nent, &dcj));
  PetscCall(GPUPCCopyToDevice(dci, hci, nent));
  PetscCall(GPUPCCopyToDevice(dcj, hcj, nent));
  PetscCall(PetscFree2(hci, hcj));
  PetscCall(GPUPCDevCOOAssemble(G->mc, ncol, nent, dci, dcj, G->v, MAT_INITIAL_MATRIX, &G->coo, &G->Cs));
  PetscCall(GPUPCFree(dci));
  PetscCall(GPUPCFree(dcj));
  /* the blocks: own columns minus cstart; the others numbered in order (C's garray) */
  PetscCall(PetscMalloc2(ncol, &hmap, ncol, &garray));
  PetscCall(GPUPCMallocArray(ncol, &G->cmapd));
  PetscCall(GPUPCMallocArray(ncol, &G->cmapo));
  for (PetscInt c = 0; c < ncol; c++) hmap[c] = col[c] >= cstart && col[c] < cstart + G->mc ? col[c] - cstart : -1;
  PetscCall(GPUPCCopyToDevice(G->cmapd, hmap, ncol));
  for (PetscInt c = 0; c < ncol; c++) {
    hmap[c] = -1;
    if (col[c] < cstart || col[c] >= cstart + G->mc) {
      garray[ngarray] = col[c];
      hmap[c]         = ngarray++;
    }
  }
  PetscCall(GPUPCCopyToDevice(G->cmapo, hmap, ncol));
  PetscCall(GPUPCDevCSRExtract(&G->Cs, G->cmapd, G->mc, MAT_INITIAL_MATRIX, &G->Cd));
  PetscCall(GPUPCDevCSRExtract(&G->Cs, G->cmapo, ngarray, MAT_INITIAL_MATRIX, &G->Co));
  PetscCall(PetscLogEventBegin(GPUPCAMG_GalMPIMat, 0, 0, 0, 0));
  PetscCall(GPUPCCMGMPIMatFromBlocks(comm, Nc, &G->Cd, &G->Co, garray, NULL, C));
  PetscCall(PetscLogEventEnd(GPUPCAMG_GalMPIMat, 0, 0, 0, 0));
  {
    PetscInt cbs;
    PetscCall(MatGetBlockSizes(P, NULL, &cbs)); /* as MatPtAP: C's blocks are P's column blocks */
    PetscCall(MatSetBlockSizes(*C, cbs, cbs));
  }
  PetscCall(PetscFree2(hmap, garray));
  PetscCall(PetscFree(col));
  PetscFunctionReturn(0);
}

/* new values of C's blocks from the device blocks, into C in place */
static PetscErrorCode ValuesIntoC(const GalerkinMPI *G, Mat C)
{
  Mat          Cd, Co;
  PetscInt     nd, no;
  PetscScalar *da, *oa;
  MatInfo      id, io;

  PetscFunctionBegin;
  PetscCall(GPUPCMatMPIAIJGetSeqAIJ(C, &Cd, &Co, NULL));
  PetscCall(MatGetInfo(Cd, MAT_LOCAL, &id));
  PetscCall(MatGetInfo(Co, MAT_LOCAL, &io));
  nd = (PetscInt)id.nz_used;
  no = (PetscInt)io.nz_used;
  PetscCheck(nd == G->Cd.nnz && no == G->Co.nnz, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "PC gpuamg: the coarse matrix of a value-only Galerkin product has %" PetscInt_FMT " + %" PetscInt_FMT " entries, its kept product %" PetscInt_FMT " + %" PetscInt_FMT, nd, no, G->Cd.nnz, G->Co.nnz);
  PetscCall(MatSeqAIJGetArrayWrite(Cd, &da));
  PetscCall(GPUPCCopyToHost(da, G->Cd.a, G->Cd.nnz));
  PetscCall(MatSeqAIJRestoreArrayWrite(Cd, &da));
  PetscCall(MatSeqAIJGetArrayWrite(Co, &oa));
  PetscCall(GPUPCCopyToHost(oa, G->Co.a, G->Co.nnz));
  PetscCall(MatSeqAIJRestoreArrayWrite(Co, &oa));
  PetscCall(PetscObjectStateIncrease((PetscObject)C));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGGalerkinMPI - the Galerkin product C = P^T A P on several ranks by each rank's share on the active sparse
   kernel table (the file's comment; docs/algorithms.md 4.3), not MatPtAP

   Collective on A

   Input Parameters:
+  A     - the level matrix: MPIAIJ, or a type derived from it, square, the rows laid out as P's
.  P     - the prolongator: MPIAIJ
-  reuse - MAT_INITIAL_MATRIX (C created) or MAT_REUSE_MATRIX (new values of A and P on the patterns *C was made for:
           the numeric parts only, *C's values replaced in place)

   Output Parameter:
.  C - the coarse matrix: MPIAIJ with P's column layout (and column block size), every structural product kept
       (entries whose products cancel stay, as in MatPtAP)

   Notes:
   The sums run in A's row order and the triples of a coarse row in rank order, so C is the same on every run (equal to
   MatPtAP's up to rounding); both kernel tables give the same C bit for bit. What the re-run needs is composed on C
   under GPUPC_AMG_GALERKIN_MPI_KEY. The off-rank contributions travel through host buffers (MPI_Alltoallv).

   Level: developer

.seealso: GPUPCAMGHierarchyBuild(), GPUPCAMGGalerkinSeq()
@*/
PetscErrorCode GPUPCAMGGalerkinMPI(Mat A, Mat P, MatReuse reuse, Mat *C)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)A);
  GalerkinMPI   *G;
  PetscContainer container;
  PetscInt       N, Np, ncc = 0, *colmap = NULL, *rrow = NULL, *rcol = NULL;
  GPUPCDevCSR    Pl;

  PetscFunctionBegin;
  PetscCall(GPUPCAMGRegisterSetupEvents());
  PetscCall(MatGetSize(A, &N, NULL));
  PetscCall(MatGetSize(P, &Np, NULL));
  PetscCheck(N == Np, comm, PETSC_ERR_ARG_SIZ, "PC gpuamg: P^T A P with A of %" PetscInt_FMT " rows and P of %" PetscInt_FMT, N, Np);
  if (reuse == MAT_REUSE_MATRIX) {
    PetscCall(PetscObjectQuery((PetscObject)*C, GPUPC_AMG_GALERKIN_MPI_KEY, (PetscObject *)&container));
    PetscCheck(container, comm, PETSC_ERR_ARG_WRONG, "PC gpuamg: MAT_REUSE_MATRIX needs a coarse matrix made by GPUPCAMGGalerkinMPI()");
  } else PetscCheck(reuse == MAT_INITIAL_MATRIX, comm, PETSC_ERR_ARG_OUTOFRANGE, "PC gpuamg: GPUPCAMGGalerkinMPI() takes MAT_INITIAL_MATRIX or MAT_REUSE_MATRIX");
  PetscCall(PetscLogEventBegin(GPUPCAMG_GalerkinMPI, A, P, 0, 0));
  if (reuse == MAT_REUSE_MATRIX) PetscCall(PetscContainerGetPointer(container, (void **)&G));
  else {
    PetscCall(PetscNew(&G));
    PetscCall(PetscLogEventBegin(GPUPCAMG_GalMPIPlan, 0, 0, 0, 0));
    PetscCall(Factors(comm, A, P, G, &ncc, &colmap));
    PetscCall(PetscLogEventEnd(GPUPCAMG_GalMPIPlan, 0, 0, 0, 0));
  }
  PetscCall(PetscLogEventBegin(GPUPCAMG_GalMPIVals, 0, 0, 0, 0));
  PetscCall(FactorValues(G, A, P));
  PetscCall(PetscLogEventEnd(GPUPCAMG_GalMPIVals, 0, 0, 0, 0));
  /* AP = X B, Cp = P_loc^T AP: P_loc is B's first n rows */
  PetscCall(PetscLogEventBegin(GPUPCAMG_GalMPIProd, 0, 0, 0, 0));
  Pl.m   = G->n;
  Pl.n   = G->B.n;
  Pl.nnz = G->nploc;
  Pl.i   = G->B.i;
  Pl.j   = G->B.j;
  Pl.a   = G->B.a;
  PetscCall(GPUPCDevCSRTranspose(&Pl, reuse, &G->R, &G->rperm, NULL));
  PetscCall(GPUPCDevCSRMatMult(&G->X, &G->B, reuse, PETSC_TRUE, &G->AP, NULL));
  PetscCall(GPUPCDevCSRMatMult(&G->R, &G->AP, reuse, PETSC_TRUE, &G->Cp, NULL));
  PetscCall(PetscLogEventEnd(GPUPCAMG_GalMPIProd, 0, 0, 0, 0));
  if (reuse == MAT_INITIAL_MATRIX) {
    PetscCall(PetscLogEventBegin(GPUPCAMG_GalMPIXPlan, 0, 0, 0, 0));
    PetscCall(ExchangePlan(comm, P, colmap, ncc, G, &rrow, &rcol));
    PetscCall(GPUPCMallocArray(G->nrecv + G->own1 - G->own0, &G->v));
    PetscCall(PetscLogEventEnd(GPUPCAMG_GalMPIXPlan, 0, 0, 0, 0));
  }
  PetscCall(PetscLogEventBegin(GPUPCAMG_GalMPIXchg, 0, 0, 0, 0));
  PetscCall(TripleValues(comm, G));
  PetscCall(PetscLogEventEnd(GPUPCAMG_GalMPIXchg, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(GPUPCAMG_GalMPIAsm, 0, 0, 0, 0));
  if (reuse == MAT_INITIAL_MATRIX) {
    PetscCall(Assemble(comm, P, rrow, rcol, G, C));
    PetscCall(PetscFree2(rrow, rcol));
    PetscCall(PetscFree(colmap));
    PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &container));
    PetscCall(PetscContainerSetPointer(container, G));
    PetscCall(PetscContainerSetUserDestroy(container, GalerkinMPIDestroy));
    PetscCall(PetscObjectCompose((PetscObject)*C, GPUPC_AMG_GALERKIN_MPI_KEY, (PetscObject)container));
    PetscCall(PetscContainerDestroy(&container));
  } else {
    PetscCall(GPUPCDevCOOAssemble(G->Cs.m, G->Cs.n, G->coo.nent, NULL, NULL, G->v, MAT_REUSE_MATRIX, &G->coo, &G->Cs));
    PetscCall(GPUPCDevCSRExtract(&G->Cs, G->cmapd, G->Cd.n, MAT_REUSE_MATRIX, &G->Cd));
    PetscCall(GPUPCDevCSRExtract(&G->Cs, G->cmapo, G->Co.n, MAT_REUSE_MATRIX, &G->Co));
    PetscCall(PetscLogEventBegin(GPUPCAMG_GalMPIMat, 0, 0, 0, 0));
    PetscCall(ValuesIntoC(G, *C));
    PetscCall(PetscLogEventEnd(GPUPCAMG_GalMPIMat, 0, 0, 0, 0));
  }
  PetscCall(PetscLogEventEnd(GPUPCAMG_GalMPIAsm, 0, 0, 0, 0));
  PetscCall(PetscLogEventEnd(GPUPCAMG_GalerkinMPI, A, P, 0, 0));
  PetscFunctionReturn(0);
}

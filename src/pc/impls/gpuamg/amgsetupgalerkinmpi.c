/*
   The Galerkin product C = P^T A P of PC gpuamg's setup on several ranks without MatPtAP (docs/algorithms.md 4.3),
   for A and P MPIAIJ (P with an off-diagonal block where the coarsening went across ranks). Each rank's share runs on
   the active backend's sparse kernel table (gpupc/sparsekernels.h: device arrays on the cuda backend, host arrays on
   the host backend); A's and P's blocks go up as they are, and the host touches only what crosses ranks:
     1. X = [A_d | A_o] (A's rows with the ghosts as columns n + g) and P_loc (P's rows with global coarse columns, in
        global order) by the table's merge;
     2. P_oth, the rows of P that A's ghost columns reference, comes from their owners: each owner extracts the rows
        of P_loc that other ranks reference (the row PetscSF's leaf ranks) and brings only those down; a PetscSF over
        the rows gives their offsets and lengths, then a PetscSF over the entries (kept: new values travel on it)
        their columns and values;
     3. B = [P_loc; P_oth] (n + nghost rows) with its columns compressed by the table's unique to the global coarse
        columns it reaches, in global order, so the rows stay sorted; AP = X B = A_d P_loc + A_o P_oth by one
        SpGEMM; Cp = P_loc^T AP (the table's transpose of B's first n rows, a second SpGEMM): this rank's
        contributions to C, rows and columns compressed. The compressed numbering keeps the global order, so the rows
        of each rank are consecutive in Cp and so are their entries: what goes to a rank is one range of Cp's entries;
     4. the ranges come from a search of the owners' first columns (only the counts come down), the triples (local
        row at the owner, global column) from a search in the column layout and expand; the other ranks' ranges go
        to their owners by MPI_Alltoallv on host buffers (the indices once, then the values only); each rank sums its
        rows' triples by the table's sort-and-reduce (GPUPCDevCOOAssemble) in rank order (the triples of rank 0
        first, this rank's own at its place, never leaving the device), so every run gives the same values;
     5. the triples' columns compressed by unique, the block column maps by search and compact, the diagonal and
        off-diagonal blocks by the extract members, and C made an MPIAIJ from them directly
        (GPUPCCMGMPIMatFromBlocks, as the distributed cmg makes its levels).
   Everything the product needs again is kept on C (a composed container): MAT_REUSE_MATRIX (new values of A and P on
   the same patterns) uploads the blocks' values and reruns the numeric parts only (the merges, the extraction and
   broadcast of P_oth's values, the two numeric SpGEMMs, the value exchange, the sums, the block values), written
   into C in place. The products sum in A's row order (deterministic, both tables alike), so C equals MatPtAP's up
   to rounding.
*/
#include <gpupc/amgsetup.h>
#include <gpupc/cmgmpi.h> /* GPUPCCMGMPIMatFromBlocks: the MPIAIJ from device blocks */
#include <gpupc/matgpu.h>

PetscLogEvent GPUPCAMG_GalerkinMPI, GPUPCAMG_GalMPIPlan, GPUPCAMG_GalMPIVals, GPUPCAMG_GalMPIProd, GPUPCAMG_GalMPIXPlan, GPUPCAMG_GalMPIXchg, GPUPCAMG_GalMPIAsm, GPUPCAMG_GalMPIMat;

/* what a numeric re-run of one product needs (host arrays h*, the rest in the table's world) */
typedef struct {
  PetscInt     n, nghost, nda, noa, npd, npo; /* A's rows and ghost columns, entries of A's and P's blocks */
  PetscInt     mc, cstart;                    /* C's rows on this rank (P's local columns), the first of them */
  PetscInt     nploc, npoth;                  /* entries of P_loc, P_oth */
  GPUPCDevCSR  Ad, Ao, Pd, Po;                /* A's and P's blocks (patterns kept, values renewed on reuse) */
  PetscInt    *pgarray;                       /* P's off-diagonal block columns -> global coarse columns */
  GPUPCDevCSR  Pl;                            /* P_loc: P's rows merged, global coarse columns */
  PetscInt    *qrows;                         /* the rows of P_loc that other ranks fetch (a row once per rank) */
  GPUPCDevCSR  Q;                             /* those rows, extracted from P_loc */
  PetscScalar *hq, *hoth;                     /* Q's values, P_oth's values (host: the entry SF's roots, leaves) */
  PetscSF      esf;                           /* roots: Q's entries; leaves: P_oth's entries */
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
  PetscCall(GPUPCDevCSRDestroy(&G->Ad));
  PetscCall(GPUPCDevCSRDestroy(&G->Ao));
  PetscCall(GPUPCDevCSRDestroy(&G->Pd));
  PetscCall(GPUPCDevCSRDestroy(&G->Po));
  PetscCall(GPUPCFree(G->pgarray));
  PetscCall(GPUPCDevCSRDestroy(&G->Pl));
  PetscCall(GPUPCFree(G->qrows));
  PetscCall(GPUPCDevCSRDestroy(&G->Q));
  PetscCall(PetscFree2(G->hq, G->hoth));
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

/* a device copy of a host block, values included (the arrays as they are: no host pass over them) */
static PetscErrorCode Upload(const GPUPCCSR *h, GPUPCDevCSR *d)
{
  PetscFunctionBegin;
  PetscCall(GPUPCDevCSRCreate(h->m, h->n, h->nnz, PETSC_TRUE, d));
  if (h->m) PetscCall(GPUPCCopyToDevice(d->i, h->i, h->m + 1));
  else PetscCall(GPUPCMemzero(d->i, sizeof(PetscInt)));
  PetscCall(GPUPCCopyToDevice(d->j, h->j, h->nnz));
  PetscCall(GPUPCCopyToDevice(d->a, h->a, h->nnz));
  PetscFunctionReturn(0);
}

/* X's values from A's blocks, B's from P's blocks (P_loc's merged on the device, P_oth's from their owners) */
static PetscErrorCode FactorValues(GalerkinMPI *G, Mat A, Mat P)
{
  const GPUPCSparseKernels *sk;
  GPUPCCSR                  ad, ao, pd, po;

  PetscFunctionBegin;
  PetscCall(GPUPCGetSparseKernels(&sk));
  PetscCall(BlocksGet(A, &ad, &ao, NULL));
  PetscCheck(ad.m == G->n && ad.nnz == G->nda && ao.nnz == G->noa && ao.n == G->nghost, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "PC gpuamg: the level matrix of a value-only Galerkin product has another pattern (%" PetscInt_FMT " + %" PetscInt_FMT " entries, %" PetscInt_FMT " ghosts; the product was made for %" PetscInt_FMT " + %" PetscInt_FMT ", %" PetscInt_FMT ")", ad.nnz, ao.nnz, ao.n, G->nda, G->noa, G->nghost);
  PetscCall(GPUPCCopyToDevice(G->Ad.a, ad.a, G->nda));
  PetscCall(GPUPCCopyToDevice(G->Ao.a, ao.a, G->noa));
  PetscCall(BlocksRestore(&ad, &ao));
  PetscCall(sk->merge(&G->Ad, NULL, 0, &G->Ao, NULL, G->n, &G->X));
  PetscCall(BlocksGet(P, &pd, &po, NULL));
  PetscCheck(pd.m == G->n && pd.nnz == G->npd && po.nnz == G->npo, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "PC gpuamg: the prolongator of a value-only Galerkin product has another pattern (%" PetscInt_FMT " + %" PetscInt_FMT " entries; the product was made for %" PetscInt_FMT " + %" PetscInt_FMT ")", pd.nnz, po.nnz, G->npd, G->npo);
  PetscCall(GPUPCCopyToDevice(G->Pd.a, pd.a, G->npd));
  PetscCall(GPUPCCopyToDevice(G->Po.a, po.a, G->npo));
  PetscCall(BlocksRestore(&pd, &po));
  PetscCall(sk->merge(&G->Pd, NULL, G->cstart, &G->Po, G->pgarray, 0, &G->Pl));
  PetscCall(GPUPCCopyOnDevice(G->B.a, G->Pl.a, G->nploc));
  /* the rows other ranks fetch: extracted again, their values down, broadcast, P_oth's values up */
  PetscCall(sk->extract_fill(&G->Pl, G->Q.m, G->qrows, NULL, NULL, &G->Q));
  PetscCall(GPUPCCopyToHost(G->hq, G->Q.a, G->Q.nnz));
  PetscCall(PetscSFBcastBegin(G->esf, MPIU_SCALAR, G->hq, G->hoth, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(G->esf, MPIU_SCALAR, G->hq, G->hoth, MPI_REPLACE));
  PetscCall(GPUPCCopyToDevice(G->B.a + G->nploc, G->hoth, G->npoth));
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

/* steps 1-2 the first time, on the table (host work only on the rows other ranks fetch): X and P_loc merged from the
   uploaded blocks, P_oth fetched from its owners, B's columns compressed (*colmap: the ncc global coarse columns,
   ascending, in the table's world; GPUPCFree) */
static PetscErrorCode Factors(MPI_Comm comm, Mat A, Mat P, GalerkinMPI *G, PetscInt *ncc, PetscInt **colmap)
{
  const GPUPCSparseKernels *sk;
  GPUPCCSR                  ad, ao, pd, po;
  const PetscInt           *agarray, *pgarray, *ioffset, *irootloc;
  const PetscMPIInt        *iranks;
  PetscInt                  Nc, niranks, nq, *qi, *qj, *rs, *rl, *gs, *gl, *othj, *bi, *all;
  PetscLayout               rmap;
  PetscSF                   rsf;
  const PetscSFNode        *rremote;
  PetscSFNode              *eremote;

  PetscFunctionBegin;
  PetscCall(GPUPCGetSparseKernels(&sk));
  /* X = [A_d | A_o]: the ghosts as columns n + g, after every column of A_d, so a row of X is A_d's row, then A_o's */
  PetscCall(BlocksGet(A, &ad, &ao, &agarray));
  G->n      = ad.m;
  G->nghost = ao.n;
  G->nda    = ad.nnz;
  G->noa    = ao.nnz;
  PetscCall(Upload(&ad, &G->Ad));
  PetscCall(Upload(&ao, &G->Ao));
  PetscCall(GPUPCDevCSRCreate(G->n, G->n + G->nghost, G->nda + G->noa, PETSC_TRUE, &G->X));
  PetscCall(sk->merge(&G->Ad, NULL, 0, &G->Ao, NULL, G->n, &G->X));
  /* P_loc: P's rows with global coarse columns, in global column order */
  PetscCall(MatGetOwnershipRangeColumn(P, &G->cstart, NULL));
  PetscCall(MatGetSize(P, NULL, &Nc));
  PetscCall(BlocksGet(P, &pd, &po, &pgarray));
  PetscCheck(pd.m == G->n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "PC gpuamg: P has %" PetscInt_FMT " local rows, the level matrix %" PetscInt_FMT, pd.m, G->n);
  G->npd   = pd.nnz;
  G->npo   = po.nnz;
  G->nploc = pd.nnz + po.nnz;
  G->mc    = pd.n;
  PetscCall(Upload(&pd, &G->Pd));
  PetscCall(Upload(&po, &G->Po));
  PetscCall(GPUPCMallocArray(po.n, &G->pgarray));
  PetscCall(GPUPCCopyToDevice(G->pgarray, pgarray, po.n));
  PetscCall(BlocksRestore(&pd, &po));
  PetscCall(GPUPCDevCSRCreate(G->n, Nc, G->nploc, PETSC_TRUE, &G->Pl));
  PetscCall(sk->merge(&G->Pd, NULL, G->cstart, &G->Po, G->pgarray, 0, &G->Pl));
  /* P_oth: the rows of P_loc that other ranks' ghosts reference (the row SF's roots that have leaves) extracted, down;
     their offsets and lengths to the ghosts over the row SF, then columns and values over the entry SF */
  PetscCall(MatGetLayouts(P, &rmap, NULL));
  PetscCall(PetscSFCreate(comm, &rsf));
  PetscCall(PetscSFSetGraphLayout(rsf, rmap, G->nghost, NULL, PETSC_COPY_VALUES, agarray));
  PetscCall(BlocksRestore(&ad, &ao));
  PetscCall(PetscSFSetUp(rsf));
  PetscCall(PetscSFGetLeafRanks(rsf, &niranks, &iranks, &ioffset, &irootloc));
  nq = ioffset[niranks];
  PetscCall(GPUPCMallocArray(nq, &G->qrows));
  PetscCall(GPUPCCopyToDevice(G->qrows, irootloc, nq));
  G->Q.m = nq;
  G->Q.n = Nc;
  PetscCall(GPUPCMallocArray(nq + 1, &G->Q.i));
  PetscCall(sk->extract_count(&G->Pl, nq, G->qrows, NULL, NULL, G->Q.i));
  PetscCall(sk->rowptr(nq, G->Q.i, &G->Q.nnz, NULL));
  PetscCall(GPUPCMallocArray(G->Q.nnz, &G->Q.j));
  PetscCall(GPUPCMallocArray(G->Q.nnz, &G->Q.a));
  PetscCall(sk->extract_fill(&G->Pl, nq, G->qrows, NULL, NULL, &G->Q));
  PetscCall(PetscMalloc2(nq + 1, &qi, G->Q.nnz, &qj));
  PetscCall(GPUPCCopyToHost(qi, G->Q.i, nq + 1));
  PetscCall(GPUPCCopyToHost(qj, G->Q.j, G->Q.nnz));
  PetscCall(PetscMalloc4(G->n, &rs, G->n, &rl, G->nghost, &gs, G->nghost, &gl)); /* rs, rl: read at fetched rows only */
  for (PetscInt k = 0; k < nq; k++) {
    rs[irootloc[k]] = qi[k]; /* a row fetched by several ranks: any of its (equal) copies */
    rl[irootloc[k]] = qi[k + 1] - qi[k];
  }
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
  PetscCall(PetscSFSetGraph(G->esf, G->Q.nnz, G->npoth, NULL, PETSC_COPY_VALUES, eremote, PETSC_OWN_POINTER));
  PetscCall(PetscMalloc1(G->npoth, &othj));
  PetscCall(PetscMalloc2(G->Q.nnz, &G->hq, G->npoth, &G->hoth));
  PetscCall(GPUPCCopyToHost(G->hq, G->Q.a, G->Q.nnz));
  PetscCall(PetscSFBcastBegin(G->esf, MPIU_INT, qj, othj, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(G->esf, MPIU_INT, qj, othj, MPI_REPLACE));
  PetscCall(PetscSFBcastBegin(G->esf, MPIU_SCALAR, G->hq, G->hoth, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(G->esf, MPIU_SCALAR, G->hq, G->hoth, MPI_REPLACE));
  /* B = [P_loc; P_oth]: the global coarse columns it reaches, in global order (unique), its columns their places */
  PetscCall(GPUPCDevCSRCreate(G->n + G->nghost, 0, G->nploc + G->npoth, PETSC_TRUE, &G->B));
  PetscCall(GPUPCMallocArray(G->B.nnz, &all));
  PetscCall(GPUPCCopyOnDevice(all, G->Pl.j, G->nploc));
  PetscCall(GPUPCCopyToDevice(all + G->nploc, othj, G->npoth));
  PetscCall(GPUPCMallocArray(G->B.nnz, colmap));
  PetscCall(sk->unique(G->B.nnz, all, *colmap, G->B.j, ncc, NULL));
  G->B.n = *ncc;
  PetscCall(GPUPCFree(all));
  PetscCall(GPUPCCopyOnDevice(G->B.i, G->Pl.i, G->n + 1));
  PetscCall(PetscMalloc1(G->nghost, &bi));
  for (PetscInt g = 0, e = G->nploc; g < G->nghost; g++) bi[g] = (e += gl[g]);
  PetscCall(GPUPCCopyToDevice(G->B.i + G->n + 1, bi, G->nghost));
  PetscCall(GPUPCCopyOnDevice(G->B.a, G->Pl.a, G->nploc));
  PetscCall(GPUPCCopyToDevice(G->B.a + G->nploc, G->hoth, G->npoth));
  PetscCall(PetscFree(bi));
  PetscCall(PetscFree(othj));
  PetscCall(PetscFree2(qi, qj));
  PetscCall(PetscFree4(rs, rl, gs, gl));
  PetscFunctionReturn(0);
}

/* the exchange plan of step 4 on the table: the range of Cp's entries of each rank's rows (the ranks' first rows in
   colmap by search: only the counts come down), counts to and from every rank, and the triples in rank order as
   device arrays *tri, *tcj (local row at the owner, global column; GPUPCFree): the other ranks' ranges through host
   buffers by MPI, this rank's own range copied on the device */
static PetscErrorCode ExchangePlan(MPI_Comm comm, Mat P, const PetscInt *colmap, PetscInt ncc, GalerkinMPI *G, PetscInt **tri, PetscInt **tcj)
{
  const GPUPCSparseKernels *sk;
  PetscMPIInt               size, rank;
  const PetscInt           *cranges;
  PetscInt                 *dranges, *dpos, *hpos, *e, *rloc, *sci, *scj, *srow, *scol, *rrow, *rcol, nown, nent;

  PetscFunctionBegin;
  PetscCall(GPUPCGetSparseKernels(&sk));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(MatGetOwnershipRangesColumn(P, &cranges));
  PetscCall(PetscMalloc4(size, &G->scount, size, &G->sdispl, size, &G->rcount, size + 1, &G->rdispl));
  PetscCall(PetscMalloc2(size + 1, &hpos, size + 1, &e));
  PetscCall(GPUPCMallocArray(size + 1, &dranges));
  PetscCall(GPUPCMallocArray(size + 1, &dpos));
  PetscCall(GPUPCCopyToDevice(dranges, cranges, size + 1));
  PetscCall(sk->search(ncc, colmap, size + 1, dranges, dpos, NULL, NULL)); /* rank p's rows of Cp: hpos[p] .. hpos[p+1] */
  PetscCall(GPUPCCopyToHost(hpos, dpos, size + 1));
  for (PetscMPIInt p = 0; p <= size; p++) PetscCall(GPUPCCopyToHost(&e[p], G->Cp.i + hpos[p], 1));
  for (PetscMPIInt p = 0; p < size; p++) {
    PetscCall(PetscMPIIntCast(e[p], &G->sdispl[p]));
    PetscCall(PetscMPIIntCast(p == rank ? 0 : e[p + 1] - e[p], &G->scount[p]));
  }
  G->own0 = e[rank];
  G->own1 = e[rank + 1];
  nown    = G->own1 - G->own0;
  PetscCallMPI(MPI_Alltoall(G->scount, 1, MPI_INT, G->rcount, 1, MPI_INT, comm));
  G->rdispl[0] = 0;
  for (PetscMPIInt p = 0; p < size; p++) {
    PetscInt next = (PetscInt)G->rdispl[p] + G->rcount[p];
    PetscCall(PetscMPIIntCast(next, &G->rdispl[p + 1]));
  }
  G->nrecv = G->rdispl[size];
  G->nlo   = G->rdispl[rank];
  /* the triples' indices: Cp's rows as local rows of their owners (search in the column ranges), columns global */
  PetscCall(GPUPCMallocArray(ncc, &rloc));
  PetscCall(sk->search(size + 1, dranges, ncc, colmap, NULL, NULL, rloc));
  PetscCall(GPUPCMallocArray(G->Cp.nnz, &sci));
  PetscCall(GPUPCMallocArray(G->Cp.nnz, &scj));
  PetscCall(sk->expand(&G->Cp, rloc, colmap, sci, scj));
  PetscCall(PetscMalloc2(G->Cp.nnz, &srow, G->Cp.nnz, &scol)); /* the own range is not sent, not written */
  PetscCall(GPUPCCopyToHost(srow, sci, G->own0));
  PetscCall(GPUPCCopyToHost(scol, scj, G->own0));
  PetscCall(GPUPCCopyToHost(srow + G->own1, sci + G->own1, G->Cp.nnz - G->own1));
  PetscCall(GPUPCCopyToHost(scol + G->own1, scj + G->own1, G->Cp.nnz - G->own1));
  PetscCall(PetscMalloc2(G->nrecv, &rrow, G->nrecv, &rcol));
  PetscCallMPI(MPI_Alltoallv(srow, G->scount, G->sdispl, MPIU_INT, rrow, G->rcount, G->rdispl, MPIU_INT, comm));
  PetscCallMPI(MPI_Alltoallv(scol, G->scount, G->sdispl, MPIU_INT, rcol, G->rcount, G->rdispl, MPIU_INT, comm));
  /* the own range in place between the lower and the higher ranks' triples */
  nent = G->nrecv + nown;
  PetscCall(GPUPCMallocArray(nent, tri));
  PetscCall(GPUPCMallocArray(nent, tcj));
  PetscCall(GPUPCCopyToDevice(*tri, rrow, G->nlo));
  PetscCall(GPUPCCopyToDevice(*tcj, rcol, G->nlo));
  PetscCall(GPUPCCopyOnDevice(*tri + G->nlo, sci + G->own0, nown));
  PetscCall(GPUPCCopyOnDevice(*tcj + G->nlo, scj + G->own0, nown));
  PetscCall(GPUPCCopyToDevice(*tri + G->nlo + nown, rrow + G->nlo, G->nrecv - G->nlo));
  PetscCall(GPUPCCopyToDevice(*tcj + G->nlo + nown, rcol + G->nlo, G->nrecv - G->nlo));
  PetscCall(PetscMalloc2(G->Cp.nnz, &G->hsend, G->nrecv, &G->hrecv));
  PetscCall(PetscFree2(rrow, rcol));
  PetscCall(PetscFree2(srow, scol));
  PetscCall(GPUPCFree(sci));
  PetscCall(GPUPCFree(scj));
  PetscCall(GPUPCFree(rloc));
  PetscCall(GPUPCFree(dranges));
  PetscCall(GPUPCFree(dpos));
  PetscCall(PetscFree2(hpos, e));
  PetscFunctionReturn(0);
}

/* steps 4-5 the first time, on the table: the triples' columns compressed (unique), their sort, the blocks' column
   maps (search and compact), C; tcj is overwritten */
static PetscErrorCode Assemble(MPI_Comm comm, Mat P, const PetscInt *tri, PetscInt *tcj, GalerkinMPI *G, Mat *C)
{
  const GPUPCSparseKernels *sk;
  const PetscInt            nent = G->nrecv + G->own1 - G->own0;
  PetscInt                  Nc, ncol, nbelow, ngarray, bounds[2], *col, *dbounds, *seg, *garray;

  PetscFunctionBegin;
  PetscCall(GPUPCGetSparseKernels(&sk));
  PetscCall(MatGetSize(P, NULL, &Nc));
  /* the columns of this rank's rows, compressed in global order */
  PetscCall(GPUPCMallocArray(nent, &col));
  PetscCall(sk->unique(nent, tcj, col, tcj, &ncol, NULL));
  PetscCall(GPUPCDevCOOAssemble(G->mc, ncol, nent, tri, tcj, G->v, MAT_INITIAL_MATRIX, &G->coo, &G->Cs));
  /* the blocks: own columns minus cstart (col's middle range); the others numbered in order (C's garray) */
  bounds[0] = G->cstart;
  bounds[1] = G->cstart + G->mc;
  PetscCall(GPUPCMallocArray(2, &dbounds));
  PetscCall(GPUPCCopyToDevice(dbounds, bounds, 2));
  PetscCall(GPUPCMallocArray(ncol, &seg));
  PetscCall(GPUPCMallocArray(ncol, &G->cmapd));
  PetscCall(GPUPCMallocArray(ncol, &G->cmapo));
  PetscCall(sk->search(2, dbounds, ncol, col, NULL, seg, G->cmapd));
  PetscCall(sk->compact(ncol, G->cmapd, -1, NULL, G->cmapo, &ngarray, NULL));
  PetscCall(sk->compact(ncol, seg, -1, NULL, NULL, &nbelow, NULL));
  PetscCall(PetscMalloc1(ngarray, &garray));
  PetscCall(GPUPCCopyToHost(garray, col, nbelow));
  PetscCall(GPUPCCopyToHost(garray + nbelow, col + ncol - (ngarray - nbelow), ngarray - nbelow));
  PetscCall(GPUPCFree(seg));
  PetscCall(GPUPCFree(dbounds));
  PetscCall(GPUPCFree(col));
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
  PetscCall(PetscFree(garray));
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
  PetscInt       N, Np, ncc = 0, *colmap = NULL, *tri = NULL, *tcj = NULL;
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
  if (reuse == MAT_REUSE_MATRIX) {
    PetscCall(PetscContainerGetPointer(container, (void **)&G));
    PetscCall(PetscLogEventBegin(GPUPCAMG_GalMPIVals, 0, 0, 0, 0));
    PetscCall(FactorValues(G, A, P));
    PetscCall(PetscLogEventEnd(GPUPCAMG_GalMPIVals, 0, 0, 0, 0));
  } else { /* Factors makes the values too */
    PetscCall(PetscNew(&G));
    PetscCall(PetscLogEventBegin(GPUPCAMG_GalMPIPlan, 0, 0, 0, 0));
    PetscCall(Factors(comm, A, P, G, &ncc, &colmap));
    PetscCall(PetscLogEventEnd(GPUPCAMG_GalMPIPlan, 0, 0, 0, 0));
  }
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
    PetscCall(ExchangePlan(comm, P, colmap, ncc, G, &tri, &tcj));
    PetscCall(GPUPCMallocArray(G->nrecv + G->own1 - G->own0, &G->v));
    PetscCall(PetscLogEventEnd(GPUPCAMG_GalMPIXPlan, 0, 0, 0, 0));
  }
  PetscCall(PetscLogEventBegin(GPUPCAMG_GalMPIXchg, 0, 0, 0, 0));
  PetscCall(TripleValues(comm, G));
  PetscCall(PetscLogEventEnd(GPUPCAMG_GalMPIXchg, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(GPUPCAMG_GalMPIAsm, 0, 0, 0, 0));
  if (reuse == MAT_INITIAL_MATRIX) {
    PetscCall(Assemble(comm, P, tri, tcj, G, C));
    PetscCall(GPUPCFree(tri));
    PetscCall(GPUPCFree(tcj));
    PetscCall(GPUPCFree(colmap));
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

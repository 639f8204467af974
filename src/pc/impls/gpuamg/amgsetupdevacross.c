/*
   PC gpuamg's classical coarsening across ranks with the level on each rank's device (gpupc/amgdevacross.h): the C/F
   splitting (GPUPCAMGDevCoarsenAcross) and the interpolation (GPUPCAMGDevInterpolateAcross) of a local part with ghosts
   and its strength graph, equal to the host setup's GPUPCAMGCoarsenAcross() and GPUPCAMGInterpolateAcross().

   Splitting: the host's PMIS rounds (amgsetupcoarsenacross.c), each step a kernel over the points (the across table,
     gpupc/amgacrosskernels.h, and the one-rank table's pmis_set and pmis_depend on the owned rows): measures |the
     dependences of every rank| + GPUPCAMGRandom(global number), ties by the global number. What crosses ranks goes
     through the part's PetscSF on host buffers: the ghosts' entries (points n..nx-1) and, of the owned points, only
     those some other rank holds as ghosts (the boundary roots, PetscSFGetLeafRanks()), gathered on the device first.
     A round: the states to the ghosts, the beaten marks reduced onto the owners, the new C points to the ghosts, and an
     allreduce of the undecided count. HMIS: Ruge-Stueben's first pass inside subdomains of B consecutive owned rows
     (the one-rank table's hmis_first on the couplings between owned points), then the same rounds; with B at least
     the owned rows it is the host's hmis across ranks (first pass on the whole rank), with smaller B the host's with
     every subdomain in the role of a rank (the first pass of the host is sequential over the rank's rows).
   Interpolation: the nx points renumbered by their global numbers (the sparse table's unique), so that the rows of X
     and S, ordered by global column, are sorted in the new numbering, the tie of truncation (the smaller column) is the
     host's (the smaller global coarse number) and the one-rank table's interp_bound / interp_rows compute the host
     rows (amgdevrows.h) on them; the owned points are the consecutive new points nlow .. nlow + n - 1. Their rows go
     to P by interp_gather with the C points' places among the local C points (ordered by global number), and P is
     split into its diagonal block (the owned C points) and its off-diagonal block (the ghost C points P uses, their
     global coarse numbers, from their owners, in garray).
*/
#include <gpupc/amgdevacross.h>
#include <gpupc/amgacrosskernels.h>

/* the exchanges of PetscInt point arrays (device, nx entries) through the part's PetscSF on host buffers */
typedef struct {
  const GPUPCAMGAcrossKernels *ak;
  PetscSF                      sf;
  PetscInt                     n, nx, nb;   /* owned points, points, boundary roots */
  PetscInt                    *hb, *db;     /* the boundary roots (owned points other ranks hold as ghosts), host and device */
  PetscInt                    *hbuf, *dbuf; /* nb entries */
  PetscInt                    *hroot;       /* n entries: only the boundary ones are read or written */
  PetscInt                    *hleaf;       /* nx - n entries: the ghosts */
} Exchange;

static PetscErrorCode ExchangeCreate(const GPUPCAMGDevLocal *L, const GPUPCAMGAcrossKernels *ak, Exchange *x)
{
  PetscInt           niranks, nleaves, minleaf, maxleaf, nroots;
  const PetscInt    *ioffset, *irootloc;
  const PetscMPIInt *iranks;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(x, sizeof(*x)));
  x->ak = ak;
  x->sf = L->sf;
  x->n  = L->n;
  x->nx = L->nx;
  PetscCall(PetscSFSetUp(L->sf));
  PetscCall(PetscSFGetGraph(L->sf, &nroots, &nleaves, NULL, NULL));
  PetscCall(PetscSFGetLeafRange(L->sf, &minleaf, &maxleaf));
  PetscCheck(nroots == L->n && (nleaves == 0 || (minleaf >= 0 && maxleaf < L->nx - L->n)), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "the local part's PetscSF (%" PetscInt_FMT " roots, leaves %" PetscInt_FMT " .. %" PetscInt_FMT ") is not that of %" PetscInt_FMT " owned and %" PetscInt_FMT " ghost points", nroots, minleaf, maxleaf, L->n, L->nx - L->n);
  PetscCall(PetscSFGetLeafRanks(L->sf, &niranks, &iranks, &ioffset, &irootloc));
  x->nb = ioffset[niranks];
  PetscCall(PetscMalloc1(PetscMax(x->nb, 1), &x->hb));
  PetscCall(PetscArraycpy(x->hb, irootloc, x->nb));
  PetscCall(PetscSortRemoveDupsInt(&x->nb, x->hb));
  PetscCall(PetscMalloc3(PetscMax(x->nb, 1), &x->hbuf, PetscMax(x->n, 1), &x->hroot, PetscMax(x->nx - x->n, 1), &x->hleaf));
  PetscCall(GPUPCAMGDevAlloc(x->nb, &x->db));
  PetscCall(GPUPCAMGDevAlloc(x->nb, &x->dbuf));
  if (x->nb) PetscCall(GPUPCCopyToDevice(x->db, x->hb, x->nb));
  PetscFunctionReturn(0);
}

static PetscErrorCode ExchangeDestroy(Exchange *x)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(x->hb));
  PetscCall(PetscFree3(x->hbuf, x->hroot, x->hleaf));
  PetscCall(GPUPCFree(x->db));
  PetscCall(GPUPCFree(x->dbuf));
  PetscFunctionReturn(0);
}

/* the boundary roots of the device array v into x->hroot */
static PetscErrorCode RootsDown(Exchange *x, const PetscInt *v)
{
  PetscFunctionBegin;
  if (!x->nb) PetscFunctionReturn(0);
  PetscCall(x->ak->gather(x->nb, x->db, v, x->dbuf));
  PetscCall(GPUPCCopyToHost(x->hbuf, x->dbuf, x->nb));
  for (PetscInt k = 0; k < x->nb; k++) x->hroot[x->hb[k]] = x->hbuf[k];
  PetscFunctionReturn(0);
}

/* the owners' entries of v to the ghosts (v[n .. nx)); off is added to the nonnegative owners' entries on the way */
static PetscErrorCode ToGhosts(Exchange *x, PetscInt *v, PetscInt off)
{
  PetscFunctionBegin;
  PetscCall(RootsDown(x, v));
  if (off)
    for (PetscInt k = 0; k < x->nb; k++)
      if (x->hroot[x->hb[k]] >= 0) x->hroot[x->hb[k]] += off;
  PetscCall(PetscSFBcastBegin(x->sf, MPIU_INT, x->hroot, x->hleaf, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(x->sf, MPIU_INT, x->hroot, x->hleaf, MPI_REPLACE));
  if (x->nx > x->n) PetscCall(GPUPCCopyToDevice(v + x->n, x->hleaf, x->nx - x->n));
  PetscFunctionReturn(0);
}

/* the ghosts' entries of v reduced (op) onto their owners' */
static PetscErrorCode ToOwners(Exchange *x, PetscInt *v, MPI_Op op)
{
  PetscFunctionBegin;
  if (x->nx > x->n) PetscCall(GPUPCCopyToHost(x->hleaf, v + x->n, x->nx - x->n));
  PetscCall(RootsDown(x, v));
  PetscCall(PetscSFReduceBegin(x->sf, MPIU_INT, x->hleaf, x->hroot, op));
  PetscCall(PetscSFReduceEnd(x->sf, MPIU_INT, x->hleaf, x->hroot, op));
  if (!x->nb) PetscFunctionReturn(0);
  for (PetscInt k = 0; k < x->nb; k++) x->hbuf[k] = x->hroot[x->hb[k]];
  PetscCall(GPUPCCopyToDevice(x->dbuf, x->hbuf, x->nb));
  PetscCall(x->ak->scatter(x->nb, x->db, x->dbuf, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckPart(const GPUPCAMGDevLocal *L, const GPUPCAMGDevGraph *G)
{
  PetscFunctionBegin;
  PetscCheck(L->sf && (L->gidx || L->nx == 0), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "the device setup across ranks needs the device local part with ghosts (GPUPCAMGDevLocalGetGhost() or GPUPCAMGDevLocalFromHost())");
  PetscCheck(G->S.m == L->ne && G->S.n == L->nx && G->ST.m == L->nx && G->ST.n == L->ne, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "the strength graph (%" PetscInt_FMT " x %" PetscInt_FMT ", transpose %" PetscInt_FMT " x %" PetscInt_FMT ") is not that of the local part with ghosts (%" PetscInt_FMT " rows, %" PetscInt_FMT " points)", G->S.m, G->S.n, G->ST.m, G->ST.n, L->ne, L->nx);
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDevCoarsenAcrossSubdomain - C/F splitting across ranks on the device, hmis's first pass on subdomains of B
   owned rows

   Collective on the local part's PetscSF

   Input Parameters:
+  L    - the device local part with ghosts
.  G    - its strength graph with the transpose
.  type - PC_GPUAMG_COARSEN_PMIS or PC_GPUAMG_COARSEN_HMIS
-  B    - hmis: the rows of a subdomain of the first pass (>= 1; ignored by pmis)

   Output Parameter:
.  cf - L->nx states (device), GPUPC_AMG_C or GPUPC_AMG_F: the owned points' and, from their owners, the ghosts'

   Notes:
   pmis gives GPUPCAMGCoarsenAcross()'s splitting bit for bit on any number of ranks; so does hmis when B is at least
   the owned rows of every rank (then the first pass is on each rank's whole part, as the host's). A smaller B runs the
   first pass on subdomains of B rows (the CUDA table's first pass is sequential inside a subdomain), and the
   splitting is then the host's with every subdomain standing for a rank.

   Level: developer

.seealso: GPUPCAMGDevCoarsenAcross(), GPUPCAMGCoarsenAcross(), GPUPCAMGDevHMIS()
@*/
PetscErrorCode GPUPCAMGDevCoarsenAcrossSubdomain(const GPUPCAMGDevLocal *L, const GPUPCAMGDevGraph *G, PCGPUAMGCoarsenType type, PetscInt B, PetscInt *cf)
{
  MPI_Comm                     comm;
  const GPUPCAMGSetupKernels  *k;
  const GPUPCAMGAcrossKernels *ak;
  Exchange                     x;
  GPUPCDevCSR                  Sown, STown;
  PetscInt                     n = L->n, nx = L->nx, left, before, ignore, rounds = 0, *cnt, *beaten;
  PetscReal                   *w;
  char                        *mark;

  PetscFunctionBegin;
  PetscCall(CheckPart(L, G));
  comm = PetscObjectComm((PetscObject)L->sf);
  PetscCheck(type == PC_GPUAMG_COARSEN_PMIS || type == PC_GPUAMG_COARSEN_HMIS, comm, PETSC_ERR_SUP, "the device coarsening across ranks is pmis or hmis, not %s", PCGPUAMGCoarsenTypes[type]);
  PetscCheck(type != PC_GPUAMG_COARSEN_HMIS || B >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "HMIS subdomains of %" PetscInt_FMT " rows (-pc_gpuamg_dev_hmis_subdomain): must be at least 1", B);
  PetscCall(GPUPCGetAMGSetupKernels(&k));
  PetscCall(GPUPCGetAMGAcrossKernels(&ak));
  PetscCall(ExchangeCreate(L, ak, &x));
  Sown    = G->S; /* the owned rows of S and S^T */
  Sown.m  = n;
  STown   = G->ST;
  STown.m = n;
  PetscCall(GPUPCAMGDevAlloc(nx, &cnt));
  PetscCall(GPUPCAMGDevAlloc(nx, &beaten));
  PetscCall(GPUPCAMGDevAlloc(nx, &w));
  PetscCall(GPUPCAMGDevAlloc(n, &mark));
  if (type == PC_GPUAMG_COARSEN_HMIS && n > 0) { /* the first pass on the couplings between owned points */
    PetscInt *lambda;
    PetscCall(GPUPCAMGDevAlloc(n, &lambda));
    /* one subdomain of all owned rows at most (the tables compute the subdomain count as n + B - 1) */
    PetscCall(k->hmis_first(&Sown, &STown, PetscMin(B, n), lambda, cf));
    PetscCall(GPUPCFree(lambda));
  }
  /* measures: the dependences of every rank (the ghosts' counts summed onto their owners, then back to the ghosts) */
  PetscCall(ak->count_owned(&G->ST, n, cnt));
  PetscCall(ToOwners(&x, cnt, MPI_SUM));
  PetscCall(ToGhosts(&x, cnt, 0));
  PetscCall(ak->measure(nx, n, cnt, L->gidx, type == PC_GPUAMG_COARSEN_PMIS, w, cf, &left));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &left, 1, MPIU_INT, MPI_SUM, comm));
  if (type == PC_GPUAMG_COARSEN_HMIS && left > 0) { /* the points that depend on a C point of a first pass (any rank's) are F */
    PetscCall(ToGhosts(&x, cf, 0));
    PetscCall(k->pmis_depend(&Sown, cf, mark));
    PetscCall(k->pmis_set(n, mark, GPUPC_AMG_F, cf, &left));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &left, 1, MPIU_INT, MPI_SUM, comm));
  }
  while (left > 0) {
    before = left;
    PetscCall(ToGhosts(&x, cf, 0));
    PetscCall(ak->beaten(&G->ST, n, w, L->gidx, cf, beaten));
    PetscCall(ToOwners(&x, beaten, MPI_MAX));
    PetscCall(ak->select(&Sown, w, L->gidx, cf, beaten, mark));
    PetscCall(k->pmis_set(n, mark, GPUPC_AMG_C, cf, &ignore));
    PetscCall(ToGhosts(&x, cf, 0));
    PetscCall(k->pmis_depend(&Sown, cf, mark));
    PetscCall(k->pmis_set(n, mark, GPUPC_AMG_F, cf, &left));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &left, 1, MPIU_INT, MPI_SUM, comm));
    rounds++;
    /* the undecided point of largest measure (on any rank) always becomes C: a round without progress is a defect */
    PetscCheck(left < before, comm, PETSC_ERR_PLIB, "PC gpuamg device PMIS across ranks: a round decided no point (%" PetscInt_FMT " undecided)", left);
  }
  PetscCall(ToGhosts(&x, cf, 0));
  PetscCall(PetscInfo(NULL, "device %s across ranks: %" PetscInt_FMT " PMIS rounds on %" PetscInt_FMT " global rows\n", PCGPUAMGCoarsenTypes[type], rounds, L->N));
  PetscCall(GPUPCFree(cnt));
  PetscCall(GPUPCFree(beaten));
  PetscCall(GPUPCFree(w));
  PetscCall(GPUPCFree(mark));
  PetscCall(ExchangeDestroy(&x));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDevCoarsenAcross - C/F splitting across ranks on the device (pmis or hmis)

   Collective on the local part's PetscSF

   Input Parameters:
+  L    - the device local part with ghosts
.  G    - its strength graph with the transpose
-  type - PC_GPUAMG_COARSEN_PMIS or PC_GPUAMG_COARSEN_HMIS

   Output Parameter:
.  cf - L->nx states (device), the ghosts' from their owners

   Notes:
   GPUPCAMGDevCoarsenAcrossSubdomain() with hmis subdomains of GPUPC_AMG_HMIS_SUBDOMAIN rows: pmis is
   GPUPCAMGCoarsenAcross()'s splitting, hmis is when no rank owns more rows than that.

   Level: developer

.seealso: GPUPCAMGDevCoarsenAcrossSubdomain(), GPUPCAMGCoarsenAcross()
@*/
PetscErrorCode GPUPCAMGDevCoarsenAcross(const GPUPCAMGDevLocal *L, const GPUPCAMGDevGraph *G, PCGPUAMGCoarsenType type, PetscInt *cf)
{
  PetscFunctionBegin;
  PetscCall(GPUPCAMGDevCoarsenAcrossSubdomain(L, G, type, GPUPC_AMG_HMIS_SUBDOMAIN, cf));
  PetscFunctionReturn(0);
}

/* B = the rows of A (A->m rows, padded to m with empty rows) renumbered: row q of B is A's row inv[q], its columns
   map[column]; map increasing on each row's columns keeps them sorted (values when A has them) */
static PetscErrorCode Renumber(const GPUPCAMGAcrossKernels *ak, const GPUPCSparseKernels *sk, const GPUPCDevCSR *A, PetscInt m, const PetscInt *inv, const PetscInt *map, GPUPCDevCSR *B)
{
  GPUPCDevCSR Ap = *A;
  PetscInt   *Bi, nnz;

  PetscFunctionBegin;
  PetscCall(GPUPCAMGDevAlloc(m + 1, &Ap.i));
  PetscCall(ak->pad_rowptr(A, m, Ap.i));
  Ap.m = m;
  PetscCall(GPUPCAMGDevAlloc(m + 1, &Bi));
  PetscCall(sk->extract_count(&Ap, m, inv, NULL, map, Bi));
  PetscCall(sk->rowptr(m, Bi, &nnz, NULL));
  PetscCall(PetscMemzero(B, sizeof(*B)));
  B->m   = m;
  B->n   = m;
  B->nnz = nnz;
  B->i   = Bi;
  PetscCall(GPUPCAMGDevAlloc(nnz, &B->j));
  if (A->a) PetscCall(GPUPCAMGDevAlloc(nnz, &B->a));
  PetscCall(sk->extract_fill(&Ap, m, inv, NULL, map, B));
  PetscCall(GPUPCFree(Ap.i));
  PetscFunctionReturn(0);
}

/* one block of P: the entries of Pt (columns: places among the local C points) whose cmap is >= 0, columns cmap */
static PetscErrorCode Block(const GPUPCSparseKernels *sk, const GPUPCDevCSR *Pt, const PetscInt *cmap, PetscInt ncols, GPUPCDevCSR *B)
{
  PetscInt *Bi, nnz;

  PetscFunctionBegin;
  PetscCall(GPUPCAMGDevAlloc(Pt->m + 1, &Bi));
  PetscCall(sk->extract_count(Pt, Pt->m, NULL, NULL, cmap, Bi));
  PetscCall(sk->rowptr(Pt->m, Bi, &nnz, NULL));
  PetscCall(PetscMemzero(B, sizeof(*B)));
  B->m   = Pt->m;
  B->n   = ncols;
  B->nnz = nnz;
  B->i   = Bi;
  PetscCall(GPUPCAMGDevAlloc(nnz, &B->j));
  PetscCall(GPUPCAMGDevAlloc(nnz, &B->a));
  PetscCall(sk->extract_fill(Pt, Pt->m, NULL, NULL, cmap, B));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDevInterpolateAcross - the interpolation of the owned rows from C points on any rank, on the device

   Collective on the local part's PetscSF

   Input Parameters:
+  L      - the device local part with ghosts
.  G      - its strength graph
.  cf     - the states of all L->nx points (device; GPUPCAMGDevCoarsenAcross())
.  interp - PC_GPUAMG_INTERP_DIRECT, PC_GPUAMG_INTERP_STANDARD or PC_GPUAMG_INTERP_EXTENDED_I
.  tmax   - at most this many entries per row (0: no limit)
-  tfac   - drop entries below tfac * max |P_ij| of the row (0: none); the kept ones are rescaled by the row sum

   Output Parameter:
.  P - n x nc blocks (GPUPCDevMPIBlocksDestroy()): the owned C points numbered after the C points of the ranks before
       (P->cstart), the diagonal block's columns local coarse numbers, the off-diagonal block's the places in P->garray
       of the ghost C points P uses (increasing global coarse numbers); rows sorted

   Notes:
   The rows are GPUPCAMGInterpolateAcross()'s (truncation rescaled by the sum): the one-rank table's per-row code on
   the points renumbered by their global numbers, bit for bit on the host table (the CUDA table up to fused
   multiply-adds). The rows of the ghosts below the owned range are computed too and not kept.

   Level: developer

.seealso: GPUPCAMGDevCoarsenAcross(), GPUPCAMGInterpolateAcross(), GPUPCDevMPIBlocksToMat()
@*/
PetscErrorCode GPUPCAMGDevInterpolateAcross(const GPUPCAMGDevLocal *L, const GPUPCAMGDevGraph *G, const PetscInt *cf, PCGPUAMGInterpType interp, PetscInt tmax, PetscReal tfac, GPUPCDevMPIBlocks *P)
{
  PetscFunctionBegin;
  PetscCall(GPUPCAMGDevInterpolateAcrossTuned(L, G, cf, interp, tmax, tfac, NULL, P));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDevInterpolateAcrossTuned - GPUPCAMGDevInterpolateAcross() with the CUDA table's ext+i tuning

   Collective on the local part's PetscSF

   Input Parameters:
+  L, G, cf, interp, tmax, tfac - as GPUPCAMGDevInterpolateAcross()
-  tune - the CUDA table's ext+i tuning (PCGPUAMGSetInterpTuning(); NULL: GPUPCAMGInterpTuningDefault()); the rows
          are the same with any tuning

   Output Parameter:
.  P - the blocks, as GPUPCAMGDevInterpolateAcross()'s

   Level: developer

.seealso: GPUPCAMGDevInterpolateAcross(), GPUPCAMGInterpTuningDefault()
@*/
PetscErrorCode GPUPCAMGDevInterpolateAcrossTuned(const GPUPCAMGDevLocal *L, const GPUPCAMGDevGraph *G, const PetscInt *cf, PCGPUAMGInterpType interp, PetscInt tmax, PetscReal tfac, const GPUPCAMGInterpTuning *tune, GPUPCDevMPIBlocks *P)
{
  MPI_Comm                     comm;
  const GPUPCAMGSetupKernels  *k;
  const GPUPCAMGAcrossKernels *ak;
  const GPUPCSparseKernels    *sk;
  Exchange                     x;
  GPUPCAMGInterpTuning         deftune;
  GPUPCDevCSR                  X, S, Xv, Pt;
  PetscInt                     n = L->n, nx = L->nx, type, nuniq, nlow = 0, nc, ncl, clow = 0, cstart = 0, nrows, nb, np, nghost;
  PetscInt                    *ulist, *map, *inv, *cfq, *gco, *cpos, *clist, *Bi, *Pi, *bcols, *bidx, *cmapd, *flag, *olist, *t1, *t2;
  PetscScalar                 *d;
  PetscReal                   *bvals;

  PetscFunctionBegin;
  PetscCall(CheckPart(L, G));
  comm = PetscObjectComm((PetscObject)L->sf);
  PetscCheck(interp == PC_GPUAMG_INTERP_DIRECT || interp == PC_GPUAMG_INTERP_STANDARD || interp == PC_GPUAMG_INTERP_EXTENDED_I, comm, PETSC_ERR_SUP, "the device interpolation across ranks is direct, standard or ext+i, not %s", PCGPUAMGInterpTypes[interp]);
  PetscCheck(tmax >= 0 && tfac >= 0.0 && tfac < 1.0, comm, PETSC_ERR_ARG_OUTOFRANGE, "truncation: max entries %" PetscInt_FMT " must be >= 0 and the factor %g in [0, 1) (-pc_gpuamg_trunc_max, -pc_gpuamg_trunc_factor)", tmax, (double)tfac);
  /* standard rows mark their interpolatory points in the low bit of the fine columns (GPUPCAMGDevRowStandard) */
  PetscCheck(interp != PC_GPUAMG_INTERP_STANDARD || nx <= PETSC_MAX_INT / 2, PETSC_COMM_SELF, PETSC_ERR_SUP, "the device setup's standard interpolation needs 2 x %" PetscInt_FMT " points to fit a PetscInt; use ext+i or 64-bit indices", nx);
  type = interp == PC_GPUAMG_INTERP_DIRECT ? GPUPC_AMG_DEV_DIRECT : (interp == PC_GPUAMG_INTERP_STANDARD ? GPUPC_AMG_DEV_STANDARD : GPUPC_AMG_DEV_EXTI);
  if (!tune) {
    PetscCall(GPUPCAMGInterpTuningDefault(&deftune));
    tune = &deftune;
  } else PetscCall(GPUPCAMGInterpTuningCheck(comm, tune));
  PetscCall(GPUPCGetAMGSetupKernels(&k));
  PetscCall(GPUPCGetAMGAcrossKernels(&ak));
  PetscCall(GPUPCGetSparseKernels(&sk));
  PetscCall(ExchangeCreate(L, ak, &x));

  /* the coarse numbering: owned C points in order after those of the ranks before; the ghosts' from their owners */
  PetscCall(GPUPCAMGDevAlloc(nx, &gco));
  PetscCall(sk->compact(n, cf, GPUPC_AMG_C, NULL, gco, &nc, NULL));
  PetscCallMPI(MPI_Exscan(&nc, &cstart, 1, MPIU_INT, MPI_SUM, comm));
  {
    PetscMPIInt rank;
    PetscCallMPI(MPI_Comm_rank(comm, &rank));
    if (rank == 0) cstart = 0; /* MPI_Exscan leaves rank 0's undefined */
  }
  PetscCall(ToGhosts(&x, gco, cstart));

  /* the points renumbered by their global numbers: map[p] = the new number of point p, inv its inverse */
  PetscCall(GPUPCAMGDevAlloc(nx, &ulist));
  PetscCall(GPUPCAMGDevAlloc(nx, &map));
  PetscCall(GPUPCAMGDevAlloc(nx, &inv));
  PetscCall(sk->unique(nx, L->gidx, ulist, map, &nuniq, NULL));
  PetscCheck(nuniq == nx, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "the local part's %" PetscInt_FMT " points have %" PetscInt_FMT " distinct global numbers", nx, nuniq);
  PetscCall(GPUPCFree(ulist));
  PetscCall(ak->scatter(nx, map, NULL, inv));
  if (n > 0) PetscCall(GPUPCCopyToHost(&nlow, map, 1)); /* the owned points are the new nlow .. nlow + n - 1 */
  PetscCall(Renumber(ak, sk, &L->X, nx, inv, map, &X));
  PetscCall(Renumber(ak, sk, &G->S, nx, inv, map, &S));
  PetscCall(GPUPCAMGDevAlloc(nx, &cfq));
  PetscCall(ak->scatter(nx, map, cf, cfq));
  PetscCall(GPUPCAMGDevAlloc(nx, &d));
  PetscCall(sk->diagonal(&X, d));

  /* the rows up to the last owned one (the ghosts' below are computed and dropped; those above are not computed) */
  nrows = nlow + n;
  Xv    = X;
  Xv.m  = nrows;
  PetscCall(GPUPCAMGDevAlloc(nrows + 1, &Bi));
  PetscCall(k->interp_bound(&Xv, &S, cfq, type, tmax, tune, Bi));
  PetscCall(sk->rowptr(nrows, Bi, &nb, NULL));
  PetscCall(GPUPCAMGDevAlloc(nb, &bcols));
  PetscCall(GPUPCAMGDevAlloc(nb, &bvals));
  PetscCall(GPUPCAMGDevAlloc(nb, &bidx));
  PetscCall(GPUPCAMGDevAlloc(nrows + 1, &Pi));
  PetscCall(k->interp_rows(&Xv, d, &S, cfq, type, tmax, tfac, tune, Bi, bcols, bvals, bidx, Pi));
  PetscCall(sk->rowptr(n, Pi + nlow, &np, NULL)); /* the owned rows' pointers (Pi[nlow] becomes 0) */

  /* the owned rows with the places of their C points among the local C points (increasing global coarse numbers) */
  PetscCall(GPUPCAMGDevAlloc(nx, &clist));
  PetscCall(GPUPCAMGDevAlloc(nx, &cpos));
  PetscCall(sk->compact(nx, cfq, GPUPC_AMG_C, clist, cpos, &ncl, NULL));
  if (nlow > 0) PetscCall(sk->compact(nlow, cfq, GPUPC_AMG_C, NULL, NULL, &clow, NULL));
  PetscCall(GPUPCDevCSRCreate(n, ncl, np, PETSC_TRUE, &Pt));
  PetscCall(GPUPCCopyOnDevice(Pt.i, Pi + nlow, n + 1));
  PetscCall(k->interp_gather(n, Bi + nlow, bcols, bvals, cpos, &Pt));

  /* the blocks: the owned C points (places clow .. clow + nc - 1), and the other C points P uses, compressed */
  PetscCall(PetscMemzero(P, sizeof(*P)));
  P->comm   = comm;
  P->rstart = L->rstart;
  P->cstart = cstart;
  P->M      = L->N;
  PetscCall(MPIU_Allreduce(&nc, &P->N, 1, MPIU_INT, MPI_SUM, comm));
  PetscCall(GPUPCAMGDevAlloc(ncl, &cmapd));
  PetscCall(ak->fill(ncl, -1, 0, cmapd));
  PetscCall(ak->fill(nc, 0, 1, cmapd + clow));
  PetscCall(Block(sk, &Pt, cmapd, nc, &P->d));
  PetscCall(GPUPCAMGDevAlloc(ncl, &flag));
  PetscCall(GPUPCAMGDevAlloc(ncl, &olist));
  PetscCall(ak->fill(ncl, 0, 0, flag));
  PetscCall(ak->mark_cols(&Pt, flag));
  PetscCall(ak->fill(nc, 0, 0, flag + clow));
  PetscCall(sk->compact(ncl, flag, 1, olist, cmapd, &nghost, NULL));
  PetscCall(Block(sk, &Pt, cmapd, nghost, &P->o));
  P->nghost = nghost;
  PetscCall(PetscMalloc1(PetscMax(nghost, 1), &P->garray));
  PetscCall(GPUPCAMGDevAlloc(nghost, &t1));
  PetscCall(GPUPCAMGDevAlloc(nghost, &t2));
  PetscCall(ak->gather(nghost, olist, clist, t1)); /* place -> new point */
  PetscCall(ak->gather(nghost, t1, inv, t2));      /* -> point */
  PetscCall(ak->gather(nghost, t2, gco, t1));      /* -> global coarse number (from its owner) */
  if (nghost) PetscCall(GPUPCCopyToHost(P->garray, t1, nghost));

  PetscCall(GPUPCFree(t1));
  PetscCall(GPUPCFree(t2));
  PetscCall(GPUPCFree(flag));
  PetscCall(GPUPCFree(olist));
  PetscCall(GPUPCFree(cmapd));
  PetscCall(GPUPCDevCSRDestroy(&Pt));
  PetscCall(GPUPCFree(clist));
  PetscCall(GPUPCFree(cpos));
  PetscCall(GPUPCFree(Bi));
  PetscCall(GPUPCFree(Pi));
  PetscCall(GPUPCFree(bcols));
  PetscCall(GPUPCFree(bvals));
  PetscCall(GPUPCFree(bidx));
  PetscCall(GPUPCFree(d));
  PetscCall(GPUPCFree(cfq));
  PetscCall(GPUPCDevCSRDestroy(&X));
  PetscCall(GPUPCDevCSRDestroy(&S));
  PetscCall(GPUPCFree(map));
  PetscCall(GPUPCFree(inv));
  PetscCall(GPUPCFree(gco));
  PetscCall(ExchangeDestroy(&x));
  PetscFunctionReturn(0);
}

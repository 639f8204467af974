static const char help[] = "The gpuamg smoothed-aggregation kernel table (gpupc/amgaggkernels.h) of the active backend, through the device\n"
                           "setup's aggregation steps, against direct checks on the host: the symmetrised node strength graph equals\n"
                           "the host setup's GPUPCAMGStrengthAgg graph joined with its transpose; the MIS(2) aggregates (hash and index\n"
                           "priorities (hashed chunks of nodes, index order inside); index: also the host setup's greedy aggregates) equal a plain sequential replay of the rounds and have the MIS(2) properties (roots three apart, every aggregated node\n"
                           "within two of its root, a root's neighbours in its aggregate, roots numbered in index order); the\n"
                           "tentative prolongator and coarse near-null space equal GPUPCAMGTentative's for the same aggregates (exactly\n"
                           "on the host table, within 1e-12 on the CUDA table), P^T P = x per aggregate and P Bc = B; the smoothed\n"
                           "prolongator equals (x - omega D^-1 A) P_tent by PETSc's products; the rho(D^-1 A) estimate lies between\n"
                           "0.8x the host setup's and the Gershgorin bound. Laplacians (bs 1), random coefficients, elasticity (bs 3,\n"
                           "six rigid-body modes) and a coarse elasticity level (bs 6).\n";

#include <petscmat.h>
#include <gpupc/amgsetup.h>
#include <gpupc/problems.h>

/* device array of n items back to a new host array */
#define Back(h, d, n) (PetscMalloc1(PetscMax((n), 1), &(h)) || GPUPCCopyToHost((h), (d), (n)))

/* the test's case: the operator (SEQAIJ), rows per node and the near-null space (row-major, nv columns) */
typedef struct {
  Mat        A;
  PetscInt   bs, nv;
  PetscReal *B;
} AggCase;

/* the node graph S of the host setup and S union S^T (host CSR, sorted rows) */
static PetscErrorCode HostGraph(Mat A, PetscInt bs, PetscReal eps, PetscInt **gi, PetscInt **gj)
{
  GPUPCAMGLocal    L;
  GPUPCAMGStrength S;
  PetscInt         nn, *mark;

  PetscFunctionBegin;
  PetscCall(GPUPCAMGLocalGet(A, 1, NULL, 1, &L));
  PetscCall(GPUPCAMGStrengthAgg(&L, bs, eps, 1, &S));
  nn = S.n;
  PetscCall(PetscMalloc1(nn + 1, gi));
  PetscCall(PetscMalloc1(S.i[nn] + S.ti[nn], gj));
  PetscCall(PetscMalloc1(nn, &mark));
  for (PetscInt x = 0; x < nn; x++) mark[x] = -1;
  (*gi)[0] = 0;
  for (PetscInt x = 0; x < nn; x++) {
    PetscInt c = (*gi)[x];
    for (PetscInt e = S.i[x]; e < S.i[x + 1]; e++)
      if (mark[S.j[e]] != x) {
        mark[S.j[e]] = x;
        (*gj)[c++]   = S.j[e];
      }
    for (PetscInt e = S.ti[x]; e < S.ti[x + 1]; e++)
      if (mark[S.tj[e]] != x) {
        mark[S.tj[e]] = x;
        (*gj)[c++]    = S.tj[e];
      }
    PetscCall(PetscSortInt(c - (*gi)[x], *gj + (*gi)[x]));
    (*gi)[x + 1] = c;
  }
  PetscCall(PetscFree(mark));
  PetscCall(GPUPCAMGStrengthFree(&S));
  PetscCall(GPUPCAMGLocalFree(&L));
  PetscFunctionReturn(0);
}

/* the nodes within distance two of x (x included) marked with tag in dist2 */
static void MarkWithin2(const PetscInt *gi, const PetscInt *gj, PetscInt x, PetscInt tag, PetscInt *dist2)
{
  dist2[x] = tag;
  for (PetscInt e = gi[x]; e < gi[x + 1]; e++) {
    PetscInt y = gj[e];
    dist2[y]   = tag;
    for (PetscInt f = gi[y]; f < gi[y + 1]; f++) dist2[gj[f]] = tag;
  }
}

/* the MIS(2) aggregation replayed sequentially: each round, every candidate whose (priority, index) is the largest
   among the candidates within distance two becomes a root (decided on the round's start state), then every candidate
   within distance two of a new root stops being one; then first and second passes as documented */
static PetscErrorCode ReplayAggregates(PetscInt nn, const PetscInt *gi, const PetscInt *gj, PetscInt order, PetscInt *agg, PetscInt *nagg, PetscInt *root)
{
  PetscInt *cand, *num, *near, *first;
  PetscInt  left = 0, na = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc4(nn, &cand, nn, &num, nn, &near, nn, &first));
  for (PetscInt x = 0; x < nn; x++) {
    cand[x] = gi[x + 1] > gi[x];
    root[x] = 0;
    near[x] = -1;
    left += cand[x];
  }
  while (left > 0) {
    PetscInt *newroot, nnew = 0;
    PetscCall(PetscCalloc1(nn, &newroot));
    for (PetscInt x = 0; x < nn; x++) {
      PetscBool wins = PETSC_TRUE;
      if (!cand[x]) continue;
      MarkWithin2(gi, gj, x, x, near);
      for (PetscInt y = 0; y < nn && wins; y++) /* a quadratic scan: the cases are small */
        if (near[y] == x && y != x && cand[y]) {
          PetscInt  cx = x / GPUPC_AMG_AGG_CHUNK, cy = y / GPUPC_AMG_AGG_CHUNK;
          PetscReal wi = GPUPCAMGRandom(cx), wj = GPUPCAMGRandom(cy);
          if (order == GPUPC_AMG_AGG_ORDER_INDEX || cx == cy ? y < x : wj > wi || (wj == wi && cy > cx)) wins = PETSC_FALSE;
        }
      if (wins) newroot[x] = 1;
    }
    for (PetscInt x = 0; x < nn; x++)
      if (newroot[x]) {
        root[x] = 1;
        cand[x] = 0;
        nnew++;
      }
    PetscCheck(nnew > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "replay: a round without a root");
    for (PetscInt x = 0; x < nn; x++) near[x] = -1;
    for (PetscInt x = 0; x < nn; x++)
      if (newroot[x]) MarkWithin2(gi, gj, x, 1, near);
    left = 0;
    for (PetscInt x = 0; x < nn; x++) {
      if (cand[x] && near[x] == 1) cand[x] = 0;
      left += cand[x];
    }
    PetscCall(PetscFree(newroot));
  }
  for (PetscInt x = 0; x < nn; x++) num[x] = root[x] ? na++ : -1;
  for (PetscInt x = 0; x < nn; x++) {
    first[x] = gi[x + 1] > gi[x] ? -2 : -1;
    if (root[x]) first[x] = num[x];
    for (PetscInt e = gi[x]; e < gi[x + 1] && !root[x]; e++)
      if (root[gj[e]]) first[x] = num[gj[e]];
  }
  for (PetscInt x = 0; x < nn; x++) {
    PetscInt best = -1, bestcnt = 0;
    agg[x] = first[x];
    if (first[x] != -2) continue;
    for (PetscInt a = 0; a < na; a++) { /* every aggregate, the smallest first: ties go to it */
      PetscInt cnt = 0;
      for (PetscInt e = gi[x]; e < gi[x + 1]; e++) cnt += first[gj[e]] == a;
      if (cnt > bestcnt) {
        best    = a;
        bestcnt = cnt;
      }
    }
    PetscCheck(best >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "replay: node %" PetscInt_FMT " without an aggregated neighbour", x);
    agg[x] = best;
  }
  *nagg = na;
  PetscCall(PetscFree4(cand, num, near, first));
  PetscFunctionReturn(0);
}

/* the MIS(2) properties of the aggregates with the replay's roots: a root's neighbours are all in its aggregate, every
   member is within distance two of its root, the roots are three or more apart and numbered in index order, and a node
   is left out exactly when it has no neighbour */
static PetscErrorCode CheckMIS2(const char *what, PetscInt nn, const PetscInt *gi, const PetscInt *gj, const PetscInt *agg, PetscInt nagg, const PetscInt *root)
{
  PetscInt *rootof, *tag, na = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(nagg, &rootof, nn, &tag));
  for (PetscInt x = 0; x < nn; x++) {
    tag[x] = -1;
    PetscCheck((agg[x] == -1) == (gi[x + 1] == gi[x]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: node %" PetscInt_FMT " with %" PetscInt_FMT " neighbours has aggregate %" PetscInt_FMT, what, x, gi[x + 1] - gi[x], agg[x]);
    PetscCheck(agg[x] < nagg, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: node %" PetscInt_FMT " in aggregate %" PetscInt_FMT " of %" PetscInt_FMT, what, x, agg[x], nagg);
    if (!root[x]) continue;
    PetscCheck(na < nagg && agg[x] == na, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: root %" PetscInt_FMT " is in aggregate %" PetscInt_FMT ", not %" PetscInt_FMT " (roots in index order)", what, x, agg[x], na);
    for (PetscInt e = gi[x]; e < gi[x + 1]; e++) PetscCheck(agg[gj[e]] == agg[x], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: neighbour %" PetscInt_FMT " of root %" PetscInt_FMT " is not in its aggregate", what, gj[e], x);
    rootof[na++] = x;
  }
  PetscCheck(na == nagg, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " roots for %" PetscInt_FMT " aggregates", what, na, nagg);
  for (PetscInt a = 0; a < nagg; a++) { /* tag a: within distance two of root a */
    MarkWithin2(gi, gj, rootof[a], a, tag);
    for (PetscInt x = 0; x < nn; x++) PetscCheck(agg[x] != a || tag[x] == a, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: node %" PetscInt_FMT " of aggregate %" PetscInt_FMT " is not within distance two of its root", what, x, a);
    for (PetscInt b = 0; b < nagg; b++) PetscCheck(b == a || tag[rootof[b]] != a, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: the roots of aggregates %" PetscInt_FMT " and %" PetscInt_FMT " are within distance two", what, a, b);
  }
  PetscCall(PetscFree2(rootof, tag));
  PetscFunctionReturn(0);
}

/* |x - y| within tol of scale (exact: equal) */
#define Near(x, y, scale) (exact ? (x) == (y) : PetscAbsReal((x) - (y)) <= 1e-12 * PetscMax((scale), 1.0))

static PetscErrorCode Run(const GPUPCAMGAggKernels *ak, const GPUPCSparseKernels *sk, PetscBool exact, const char *what, AggCase *C, PetscReal eps, PetscInt order)
{
  Mat            A = C->A, Ptm, APm, Pref;
  PetscInt       n, nn, bs = C->bs, nv = C->nv, *gi, *gj, *hgi, *hgj, *agg, *hagg, *ragg, *rroot, nagg, rnagg = 0, rounds, nagged = 0;
  GPUPCDevCSR    Ad, G, Pt, P;
  GPUPCAMGLocalP Pl;
  PetscReal     *B, *Bc, *hBc, *rBc, *pa, omega = 0.55, rho, rhoh, gersh = 0.0;
  PetscInt      *pi, *pj;
  PetscScalar   *d;
  Vec            dv;

  PetscFunctionBegin;
  PetscCall(MatGetLocalSize(A, &n, NULL));
  nn = n / bs;
  PetscCall(GPUPCDevCSRFromMat(A, &Ad));
  /* graph */
  PetscCall(HostGraph(A, bs, eps, &gi, &gj));
  PetscCall(GPUPCAMGDevAggGraph(ak, sk, &Ad, bs, eps, &G));
  PetscCheck(G.m == nn && G.nnz == gi[nn], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: graph of %" PetscInt_FMT " nodes and %" PetscInt_FMT " entries, expected %" PetscInt_FMT " and %" PetscInt_FMT, what, G.m, G.nnz, nn, gi[nn]);
  PetscCall(Back(hgi, G.i, nn + 1));
  PetscCall(Back(hgj, G.j, G.nnz));
  for (PetscInt x = 0; x <= nn; x++) PetscCheck(hgi[x] == gi[x], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: graph row pointer %" PetscInt_FMT " is %" PetscInt_FMT ", expected %" PetscInt_FMT, what, x, hgi[x], gi[x]);
  for (PetscInt e = 0; e < G.nnz; e++) PetscCheck(hgj[e] == gj[e], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: graph entry %" PetscInt_FMT " is %" PetscInt_FMT ", expected %" PetscInt_FMT, what, e, hgj[e], gj[e]);
  /* aggregates */
  PetscCall(GPUPCMallocArray(PetscMax(nn, 1), &agg));
  PetscCall(GPUPCAMGDevAggregate(ak, sk, &G, order, agg, &nagg, &rounds));
  PetscCall(Back(hagg, agg, nn));
  PetscCall(PetscMalloc1(nn, &ragg));
  PetscCall(PetscMalloc1(nn, &rroot));
  PetscCall(ReplayAggregates(nn, gi, gj, order, ragg, &rnagg, rroot));
  PetscCheck(nagg == rnagg, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " aggregates, the replay %" PetscInt_FMT, what, nagg, rnagg);
  for (PetscInt x = 0; x < nn; x++) PetscCheck(hagg[x] == ragg[x], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: node %" PetscInt_FMT " in aggregate %" PetscInt_FMT ", the replay %" PetscInt_FMT, what, x, hagg[x], ragg[x]);
  PetscCall(CheckMIS2(what, nn, gi, gj, hagg, nagg, rroot));
  if (order == GPUPC_AMG_AGG_ORDER_INDEX) { /* on a symmetric graph: the host setup's greedy aggregates */
    GPUPCAMGLocal    L;
    GPUPCAMGStrength S;
    PetscInt        *hostagg, hostnagg;
    PetscCall(GPUPCAMGLocalGet(A, 1, NULL, 1, &L));
    PetscCall(GPUPCAMGStrengthAgg(&L, bs, eps, 1, &S));
    PetscCall(PetscMalloc1(nn, &hostagg));
    PetscCall(GPUPCAMGAggregate(&S, hostagg, &hostnagg));
    PetscCheck(hostnagg == nagg, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " aggregates, the host setup's %" PetscInt_FMT, what, nagg, hostnagg);
    for (PetscInt x = 0; x < nn; x++) PetscCheck(hagg[x] == hostagg[x], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: node %" PetscInt_FMT " in aggregate %" PetscInt_FMT ", the host setup's %" PetscInt_FMT, what, x, hagg[x], hostagg[x]);
    PetscCall(PetscFree(hostagg));
    PetscCall(GPUPCAMGStrengthFree(&S));
    PetscCall(GPUPCAMGLocalFree(&L));
  }
  for (PetscInt x = 0; x < nn; x++) nagged += hagg[x] >= 0;
  /* tentative prolongator */
  PetscCall(GPUPCMallocArray(n * nv, &B));
  PetscCall(GPUPCCopyToDevice(B, C->B, n * nv));
  PetscCall(GPUPCMallocArray(nagg * nv * nv, &Bc));
  PetscCall(GPUPCAMGDevTentative(ak, sk, nn, bs, agg, nagg, nv, B, &Pt, Bc));
  PetscCall(PetscMalloc1(nagg * nv * nv, &rBc));
  PetscCall(GPUPCAMGTentative(nn, bs, hagg, nagg, nv, C->B, &Pl, rBc));
  PetscCheck(Pt.m == n && Pt.n == nagg * nv && Pt.nnz == Pl.i[n], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: P_tent %" PetscInt_FMT " x %" PetscInt_FMT " with %" PetscInt_FMT " entries, the host setup's %" PetscInt_FMT " x %" PetscInt_FMT " with %" PetscInt_FMT, what, Pt.m, Pt.n, Pt.nnz, n, Pl.nc, Pl.i[n]);
  PetscCall(Back(pi, Pt.i, n + 1));
  PetscCall(Back(pj, Pt.j, Pt.nnz));
  PetscCall(Back(pa, Pt.a, Pt.nnz));
  PetscCall(Back(hBc, Bc, nagg * nv * nv));
  for (PetscInt r = 0; r <= n; r++) PetscCheck(pi[r] == Pl.i[r], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: P_tent row pointer %" PetscInt_FMT " differs", what, r);
  for (PetscInt e = 0; e < Pt.nnz; e++) {
    PetscCheck(pj[e] == Pl.j[e], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: P_tent column of entry %" PetscInt_FMT " is %" PetscInt_FMT ", the host setup's %" PetscInt_FMT, what, e, pj[e], Pl.j[e]);
    PetscCheck(Near(pa[e], Pl.a[e], 1.0), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: P_tent entry %" PetscInt_FMT " is %.17g, the host setup's %.17g", what, e, (double)pa[e], (double)Pl.a[e]);
  }
  for (PetscInt q = 0; q < nagg * nv * nv; q++) PetscCheck(Near(hBc[q], rBc[q], PetscAbsReal(rBc[q])), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: Bc[%" PetscInt_FMT "] is %.17g, the host setup's %.17g", what, q, (double)hBc[q], (double)rBc[q]);
  { /* P Bc = B on the aggregated rows; P^T P = x per aggregate (P's rows of one aggregate hold its nv columns) */
    PetscReal *ptp, bmax = 0.0;
    for (PetscInt q = 0; q < n * nv; q++) bmax = PetscMax(bmax, PetscAbsReal(C->B[q]));
    for (PetscInt r = 0; r < n; r++)
      for (PetscInt c = 0; c < nv && pi[r + 1] > pi[r]; c++) {
        PetscReal s = 0.0;
        for (PetscInt e = pi[r]; e < pi[r + 1]; e++) s += pa[e] * hBc[pj[e] * nv + c];
        PetscCheck(PetscAbsReal(s - C->B[r * nv + c]) <= 1e-9 * PetscMax(bmax, 1.0), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: (P Bc)(%" PetscInt_FMT ", %" PetscInt_FMT ") = %g, B = %g", what, r, c, (double)s, (double)C->B[r * nv + c]);
      }
    PetscCall(PetscCalloc1(nagg * nv * nv, &ptp));
    for (PetscInt r = 0; r < n; r++)
      for (PetscInt e = pi[r]; e < pi[r + 1]; e++)
        for (PetscInt f = pi[r]; f < pi[r + 1]; f++) ptp[pj[e] * nv + (pj[f] % nv)] += pa[e] * pa[f];
    for (PetscInt c = 0; c < nagg * nv; c++)
      for (PetscInt k = 0; k < nv; k++) PetscCheck(PetscAbsReal(ptp[c * nv + k] - (c % nv == k ? 1.0 : 0.0)) <= 1e-10, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: (P^T P) of column %" PetscInt_FMT " with column %" PetscInt_FMT " of its aggregate is %g", what, c, k, (double)ptp[c * nv + k]);
    PetscCall(PetscFree(ptp));
  }
  /* smoothing with a fixed omega against PETSc's products on P_tent */
  PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, n, nagg * nv, Pl.i, Pl.j, Pl.a, &Ptm));
  PetscCall(MatMatMult(A, Ptm, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &APm));
  PetscCall(MatCreateVecs(A, NULL, &dv));
  PetscCall(MatGetDiagonal(A, dv));
  PetscCall(VecReciprocal(dv));
  PetscCall(MatDiagonalScale(APm, dv, NULL));
  PetscCall(MatAYPX(APm, -omega, Ptm, DIFFERENT_NONZERO_PATTERN));
  Pref = APm;
  PetscCall(GPUPCMallocArray(PetscMax(n, 1), &d));
  PetscCall(sk->diagonal(&Ad, d));
  PetscCall(GPUPCAMGDevProlSmooth(ak, &Ad, d, &Pt, omega, &P));
  PetscCall(PetscFree(pi));
  PetscCall(PetscFree(pj));
  PetscCall(PetscFree(pa));
  PetscCall(Back(pi, P.i, n + 1));
  PetscCall(Back(pj, P.j, P.nnz));
  PetscCall(Back(pa, P.a, P.nnz));
  {
    PetscInt nz = 0;
    for (PetscInt r = 0; r < n; r++) {
      const PetscInt    *cols;
      const PetscScalar *vals;
      PetscInt           ncols, e = pi[r];
      PetscReal          mx = 0.0;
      PetscCall(MatGetRow(Pref, r, &ncols, &cols, &vals));
      for (PetscInt q = 0; q < ncols; q++) mx = PetscMax(mx, PetscAbsReal(vals[q]));
      for (PetscInt q = 0; q < ncols; q++) {
        for (; e < pi[r + 1] && pj[e] < cols[q]; e++) PetscCheck(PetscAbsReal(pa[e]) <= 1e-12 * mx, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: P(%" PetscInt_FMT ", %" PetscInt_FMT ") = %g outside the reference's pattern", what, r, pj[e], (double)pa[e]);
        PetscCheck(e < pi[r + 1] && pj[e] == cols[q], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: P(%" PetscInt_FMT ", %" PetscInt_FMT ") missing", what, r, cols[q]);
        PetscCheck(PetscAbsReal(pa[e] - vals[q]) <= 1e-12 * PetscMax(mx, 1e-300), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: P(%" PetscInt_FMT ", %" PetscInt_FMT ") = %.17g, reference %.17g", what, r, cols[q], (double)pa[e], (double)vals[q]);
        e++;
        nz++;
      }
      PetscCall(MatRestoreRow(Pref, r, &ncols, &cols, &vals));
      for (; e < pi[r + 1]; e++) PetscCheck(PetscAbsReal(pa[e]) <= 1e-12 * mx, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: P(%" PetscInt_FMT ", %" PetscInt_FMT ") = %g outside the reference's pattern", what, r, pj[e], (double)pa[e]);
    }
    PetscCheck(nz > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: the smoothed prolongator is empty", what);
  }
  /* rho(D^-1 A): the device estimate (a Ritz value, below rho) against the host setup's and the Gershgorin bound */
  PetscCall(GPUPCAMGDevEstimateRho(&Ad, 0, &rho));
  PetscCall(GPUPCAMGEstimateRho(A, 10, &rhoh));
  for (PetscInt r = 0; r < n; r++) {
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscInt           ncols;
    PetscReal          s = 0.0, dd = 0.0;
    PetscCall(MatGetRow(A, r, &ncols, &cols, &vals));
    for (PetscInt q = 0; q < ncols; q++) {
      s += PetscAbsReal(vals[q]);
      if (cols[q] == r) dd = PetscAbsReal(vals[q]);
    }
    PetscCall(MatRestoreRow(A, r, &ncols, &cols, &vals));
    gersh = PetscMax(gersh, s / dd);
  }
  PetscCheck(rho >= 0.8 * rhoh && rho <= gersh * (1.0 + 1e-12), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: rho estimate %g, the host setup's %g, Gershgorin bound %g", what, (double)rho, (double)rhoh, (double)gersh);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %" PetscInt_FMT " nodes of %" PetscInt_FMT " rows, graph %" PetscInt_FMT " entries, %" PetscInt_FMT " aggregates (%" PetscInt_FMT " nodes) in %" PetscInt_FMT " rounds, P_tent %" PetscInt_FMT " x %" PetscInt_FMT ", P %" PetscInt_FMT " entries, rho %.4f (host setup %.4f): as expected\n", what, nn, bs, G.nnz, nagg, nagged, rounds, n, nagg * nv, P.nnz, (double)rho, (double)rhoh));
  PetscCall(VecDestroy(&dv));
  PetscCall(MatDestroy(&APm));
  PetscCall(MatDestroy(&Ptm));
  PetscCall(PetscFree(pi));
  PetscCall(PetscFree(pj));
  PetscCall(PetscFree(pa));
  PetscCall(PetscFree(hBc));
  PetscCall(PetscFree(rBc));
  PetscCall(PetscFree(gi));
  PetscCall(PetscFree(gj));
  PetscCall(PetscFree(hgi));
  PetscCall(PetscFree(hgj));
  PetscCall(PetscFree(hagg));
  PetscCall(PetscFree(ragg));
  PetscCall(PetscFree(rroot));
  PetscCall(GPUPCAMGLocalPFree(&Pl));
  PetscCall(GPUPCFree(agg));
  PetscCall(GPUPCFree(B));
  PetscCall(GPUPCFree(Bc));
  PetscCall(GPUPCFree(d));
  PetscCall(GPUPCDevCSRDestroy(&Ad));
  PetscCall(GPUPCDevCSRDestroy(&G));
  PetscCall(GPUPCDevCSRDestroy(&Pt));
  PetscCall(GPUPCDevCSRDestroy(&P));
  PetscFunctionReturn(0);
}

/* a built-in problem as SEQAIJ with its near-null space (the attached one, else constants per component); coarse > 0:
   its unsmoothed aggregation Galerkin operator one level down (nodes of nv rows) with the coarse near-null space */
static PetscErrorCode MakeCase(const char *problem, PetscInt size, PetscInt bs, PetscBool coarse, AggCase *C)
{
  Mat                  A0;
  Vec                  b;
  GPUPCAMGSetupOptions opts;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&opts, sizeof(opts)));
  PetscCall(GPUPCProblemCreate(PETSC_COMM_SELF, problem, size, 1, &A0, &b));
  PetscCall(MatSetBlockSize(A0, bs));
  PetscCall(GPUPCAMGNearNullSpace(A0, &opts, &C->nv, &C->B));
  PetscCall(MatConvert(A0, MATSEQAIJ, MAT_INITIAL_MATRIX, &C->A));
  C->bs = bs;
  if (coarse) {
    GPUPCAMGLocal    L;
    GPUPCAMGStrength S;
    GPUPCAMGLocalP   Pl;
    PetscInt        *agg, nagg;
    PetscReal       *Bc;
    Mat              Pm, Ac;
    PetscCall(GPUPCAMGLocalGet(C->A, 1, NULL, 1, &L));
    PetscCall(GPUPCAMGStrengthAgg(&L, bs, 0.05, 1, &S));
    PetscCall(PetscMalloc1(S.n, &agg));
    PetscCall(GPUPCAMGAggregate(&S, agg, &nagg));
    PetscCall(PetscMalloc1(nagg * C->nv * C->nv, &Bc));
    PetscCall(GPUPCAMGTentative(S.n, bs, agg, nagg, C->nv, C->B, &Pl, Bc));
    PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, Pl.n, Pl.nc, Pl.i, Pl.j, Pl.a, &Pm));
    PetscCall(MatPtAP(C->A, Pm, MAT_INITIAL_MATRIX, 2.0, &Ac));
    PetscCall(MatDestroy(&Pm));
    PetscCall(MatDestroy(&C->A));
    C->A = Ac;
    PetscCall(PetscFree(C->B));
    C->B  = Bc;
    C->bs = C->nv;
    PetscCall(GPUPCAMGLocalPFree(&Pl));
    PetscCall(GPUPCAMGStrengthFree(&S));
    PetscCall(GPUPCAMGLocalFree(&L));
    PetscCall(PetscFree(agg));
  }
  PetscCall(MatDestroy(&A0));
  PetscCall(VecDestroy(&b));
  PetscFunctionReturn(0);
}

static PetscErrorCode Case(const GPUPCAMGAggKernels *ak, const GPUPCSparseKernels *sk, PetscBool exact, const char *problem, PetscInt size, PetscInt bs, PetscBool coarse, PetscReal eps, PetscInt order)
{
  AggCase C;
  char    what[128];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s %" PetscInt_FMT "%s, eps %g, %s priorities", problem, size, coarse ? " (coarse level)" : "", (double)eps, order == GPUPC_AMG_AGG_ORDER_INDEX ? "index" : "hash"));
  PetscCall(MakeCase(problem, size, bs, coarse, &C));
  PetscCall(Run(ak, sk, exact, what, &C, eps, order));
  PetscCall(MatDestroy(&C.A));
  PetscCall(PetscFree(C.B));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  const GPUPCAMGAggKernels *ak;
  const GPUPCSparseKernels *sk;
  PetscGPUPCBackend         backend;
  PetscBool                 exact;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(GPUPCGetAMGAggKernels(&ak));
  PetscCall(GPUPCGetSparseKernels(&sk));
  PetscCall(PetscGPUPCGetBackend(&backend));
  exact = (PetscBool)(backend != PETSC_GPUPC_BACKEND_CUDA);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "aggregation kernel table: %s\n", ak->name));
  PetscCall(Case(ak, sk, exact, "poisson2d", 900, 1, PETSC_FALSE, 0.05, GPUPC_AMG_AGG_ORDER_HASH));
  PetscCall(Case(ak, sk, exact, "poisson3d", 1000, 1, PETSC_FALSE, 0.0, GPUPC_AMG_AGG_ORDER_HASH));
  PetscCall(Case(ak, sk, exact, "randcoef3d", 1728, 1, PETSC_FALSE, 0.05, GPUPC_AMG_AGG_ORDER_HASH));
  /* two chunks of GPUPC_AMG_AGG_CHUNK nodes: the hashed order of chunks, index order inside */
  PetscCall(Case(ak, sk, exact, "poisson3d", 4096, 1, PETSC_FALSE, 0.0, GPUPC_AMG_AGG_ORDER_HASH));
  PetscCall(Case(ak, sk, exact, "aniso2d", 900, 1, PETSC_FALSE, 0.08, GPUPC_AMG_AGG_ORDER_HASH));
  PetscCall(Case(ak, sk, exact, "elasticity3d", 1536, 3, PETSC_FALSE, 0.05, GPUPC_AMG_AGG_ORDER_HASH));
  PetscCall(Case(ak, sk, exact, "elasticity3d", 3000, 3, PETSC_TRUE, 0.05, GPUPC_AMG_AGG_ORDER_HASH));
  /* the index priorities (-pc_gpuamg_dev_agg_priority index): the host setup's greedy order */
  PetscCall(Case(ak, sk, exact, "poisson2d", 900, 1, PETSC_FALSE, 0.05, GPUPC_AMG_AGG_ORDER_INDEX));
  PetscCall(Case(ak, sk, exact, "elasticity3d", 1536, 3, PETSC_FALSE, 0.05, GPUPC_AMG_AGG_ORDER_INDEX));
  PetscCall(PetscFinalize());
  return 0;
}

/*
   amgaggrows.h - the per-node and per-aggregate code of PC gpuamg's smoothed aggregation on the device, one code for
   the host reference (host/amgaggkernels_host.c) and the CUDA kernels (cuda/amgaggkernels.cu), so both tables give
   the same graph, aggregates and prolongator. The node strength and the QR of an aggregate do what the host setup's
   GPUPCAMGStrengthAgg (amgsetupstrength.c) and GPUPCAMGTentative (amgsetupagg.c) do, with the same operations in the
   same order; a device thread has no array of n entries, so a node's blocks are walked column by column (a binary
   search per row for the next block) and Q is kept in P's own entries.
*/
#ifndef GPUPC_AMGAGGROWS_H
#define GPUPC_AMGAGGROWS_H

#include <gpupc/amgaggkernels.h>

/* the first e in [lo, hi) with j[e] >= c (hi when none); j sorted */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGAggLowerBound(const PetscInt *j, PetscInt lo, PetscInt hi, PetscInt c)
{
  while (lo < hi) {
    PetscInt mid = lo + (hi - lo) / 2;
    if (j[mid] < c) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* ||A_II||_F: the squares of node x's diagonal block summed row by row, in row order (GPUPCAMGStrengthAgg's order) */
static inline GPUPC_AMG_HD PetscReal GPUPCAMGAggNodeNormOf(const PetscInt *Ai, const PetscInt *Aj, const PetscScalar *Aa, PetscInt bs, PetscInt x)
{
  PetscReal d = 0.0;

  for (PetscInt r = x * bs; r < (x + 1) * bs; r++)
    for (PetscInt e = Ai[r]; e < Ai[r + 1]; e++)
      if (Aj[e] / bs == x) d += Aa[e] * Aa[e];
  return PetscSqrtReal(d);
}

/* the strong neighbours of node x (written to out when not NULL, ascending), their number returned. The block
   columns y are visited in increasing order; ||A_IJ||^2 sums row by row, each row's entries in order, as the host
   setup's accumulation does */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGAggStrongNode(const PetscInt *Ai, const PetscInt *Aj, const PetscScalar *Aa, PetscInt bs, PetscReal eps, const PetscReal *dnorm, PetscInt x, PetscInt *out)
{
  PetscInt c = 0, y = -1;

  for (;;) {
    PetscInt  next = -1;
    PetscReal acc  = 0.0, nrm;
    for (PetscInt r = x * bs; r < (x + 1) * bs; r++) {
      PetscInt e = GPUPCAMGAggLowerBound(Aj, Ai[r], Ai[r + 1], (y + 1) * bs);
      if (e < Ai[r + 1] && (next < 0 || Aj[e] / bs < next)) next = Aj[e] / bs;
    }
    if (next < 0) break;
    y = next;
    for (PetscInt r = x * bs; r < (x + 1) * bs; r++)
      for (PetscInt e = GPUPCAMGAggLowerBound(Aj, Ai[r], Ai[r + 1], y * bs); e < Ai[r + 1] && Aj[e] < (y + 1) * bs; e++) acc += Aa[e] * Aa[e];
    nrm = PetscSqrtReal(acc);
    if (y != x && nrm > 0.0 && nrm >= eps * PetscSqrtReal(dnorm[x] * dnorm[y])) {
      if (out) out[c] = y;
      c++;
    }
  }
  return c;
}

/* the union of the sorted rows a[0 .. na) and b[0 .. nb) (written to out when not NULL), its length returned */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGAggMerge(const PetscInt *a, PetscInt na, const PetscInt *b, PetscInt nb, PetscInt *out)
{
  PetscInt p = 0, q = 0, c = 0;

  while (p < na || q < nb) {
    PetscInt v;
    if (q >= nb || (p < na && a[p] < b[q])) v = a[p++];
    else if (p >= na || b[q] < a[p]) v = b[q++];
    else {
      v = a[p++];
      q++;
    }
    if (out) out[c] = v;
    c++;
  }
  return c;
}

/* node a beats node b in the MIS(2) rounds (-1 is no node): GPUPC_AMG_AGG_ORDER_HASH, the nodes in chunks of
   GPUPC_AMG_AGG_CHUNK consecutive indices, the chunk of larger priority GPUPCAMGRandom (ties: the larger chunk) wins
   and inside a chunk the smaller index (the host setup's greedy order, which packs roots densely on a mesh numbered
   along its rows; the hashed chunks keep the rounds few); GPUPC_AMG_AGG_ORDER_INDEX, the smaller index */
static inline GPUPC_AMG_HD int GPUPCAMGAggBeats(PetscInt a, PetscInt b, PetscInt order)
{
  PetscInt  ca, cb;
  PetscReal wa, wb;

  if (a < 0) return 0;
  if (b < 0) return 1;
  if (order == GPUPC_AMG_AGG_ORDER_INDEX) return a < b;
  ca = a / GPUPC_AMG_AGG_CHUNK;
  cb = b / GPUPC_AMG_AGG_CHUNK;
  if (ca == cb) return a < b;
  wa = GPUPCAMGRandom(ca);
  wb = GPUPCAMGRandom(cb);
  return wa > wb || (wa == wb && ca > cb);
}

/* the best of src over x and its neighbours (src NULL: the undecided nodes themselves) */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGAggMaxNode(const PetscInt *Gi, const PetscInt *Gj, const PetscInt *state, const PetscInt *src, PetscInt order, PetscInt x)
{
  PetscInt best = src ? src[x] : (state[x] == GPUPC_AMG_AGG_UNDEC ? x : -1);

  for (PetscInt e = Gi[x]; e < Gi[x + 1]; e++) {
    PetscInt y = Gj[e], v = src ? src[y] : (state[y] == GPUPC_AMG_AGG_UNDEC ? y : -1);
    if (GPUPCAMGAggBeats(v, best, order)) best = v;
  }
  return best;
}

/* the first-pass aggregate of node x: its own as a root, its root neighbour's, -1 without neighbours, else -2 */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGAggFirstOf(const PetscInt *Gi, const PetscInt *Gj, const PetscInt *state, const PetscInt *rootnum, PetscInt x)
{
  if (state[x] == GPUPC_AMG_AGG_NONE) return -1;
  if (state[x] == GPUPC_AMG_AGG_ROOT) return rootnum[x];
  for (PetscInt e = Gi[x]; e < Gi[x + 1]; e++)
    if (state[Gj[e]] == GPUPC_AMG_AGG_ROOT) return rootnum[Gj[e]];
  return -2;
}

/* the second-pass aggregate of node x: first[x], or for a left node the aggregate holding most of its neighbours
   (ties: the smaller aggregate); -3 for a left node without an aggregated neighbour (a defect: the caller errors) */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGAggSecondOf(const PetscInt *Gi, const PetscInt *Gj, const PetscInt *first, PetscInt x)
{
  PetscInt best = -3, bestcnt = 0;

  if (first[x] != -2) return first[x];
  for (PetscInt e = Gi[x]; e < Gi[x + 1]; e++) {
    PetscInt a = first[Gj[e]], cnt = 0;
    if (a < 0) continue;
    for (PetscInt f = Gi[x]; f < Gi[x + 1]; f++) cnt += first[Gj[f]] == a;
    if (cnt > bestcnt || (cnt == bestcnt && a < best)) {
      best    = a;
      bestcnt = cnt;
    }
  }
  return best;
}

/* entry (r, k) of Q of an aggregate: row r (0 .. m-1) of the aggregate is component r % bs of its node r / bs, whose
   row of P holds the nv columns of the aggregate in order */
#define GPUPC_AMG_AGG_Q(r, k) Pa[Pi[nodes[(r) / bs] * bs + (r) % bs] + (k)]

/* the tentative prolongator's rows and R of aggregate a (nodes: its m / bs nodes in index order): Q = B_a, then per
   column k twice-iterated Gram-Schmidt against the columns before it, R above the diagonal; a column whose norm fell
   below 1e-10 of its norm before is dependent: a unit vector orthogonal to the others replaces it and R keeps the zero
   diagonal (GPUPCAMGTentative's rule). R is written to Bc's rows a nv .. a nv + nv - 1. Returns 1 when no unit vector
   fits (an aggregate of fewer rows than nv), else 0 */
static inline GPUPC_AMG_HD int GPUPCAMGAggQR(PetscInt a, PetscInt bs, PetscInt nv, PetscInt nn, const PetscInt *nodes, const PetscReal *B, const PetscInt *Pi, PetscInt *Pj, PetscReal *Pa, PetscReal *Bc)
{
  const PetscInt m  = nn * bs;
  PetscReal     *Ra = Bc + a * nv * nv; /* R[x * nv + y] */

  for (PetscInt r = 0; r < m; r++)
    for (PetscInt k = 0; k < nv; k++) {
      Pj[Pi[nodes[r / bs] * bs + r % bs] + k] = a * nv + k;
      GPUPC_AMG_AGG_Q(r, k)                   = B[(nodes[r / bs] * bs + r % bs) * nv + k];
    }
  for (PetscInt k = 0; k < nv * nv; k++) Ra[k] = 0.0;
  for (PetscInt k = 0; k < nv; k++) {
    PetscReal nrm0 = 0.0, nrm = 0.0;
    for (PetscInt r = 0; r < m; r++) nrm0 += GPUPC_AMG_AGG_Q(r, k) * GPUPC_AMG_AGG_Q(r, k);
    nrm0 = PetscSqrtReal(nrm0);
    for (PetscInt it = 0; it < 2; it++)
      for (PetscInt p = 0; p < k; p++) {
        PetscReal d = 0.0;
        for (PetscInt r = 0; r < m; r++) d += GPUPC_AMG_AGG_Q(r, p) * GPUPC_AMG_AGG_Q(r, k);
        for (PetscInt r = 0; r < m; r++) GPUPC_AMG_AGG_Q(r, k) -= d * GPUPC_AMG_AGG_Q(r, p);
        Ra[p * nv + k] += d;
      }
    for (PetscInt r = 0; r < m; r++) nrm += GPUPC_AMG_AGG_Q(r, k) * GPUPC_AMG_AGG_Q(r, k);
    nrm = PetscSqrtReal(nrm);
    if (nrm > 1e-10 * nrm0 && nrm > 0.0) {
      Ra[k * nv + k] = nrm;
      for (PetscInt r = 0; r < m; r++) GPUPC_AMG_AGG_Q(r, k) /= nrm;
    } else {
      int found = 0;
      for (PetscInt u = 0; u < m && !found; u++) {
        for (PetscInt r = 0; r < m; r++) GPUPC_AMG_AGG_Q(r, k) = r == u ? 1.0 : 0.0;
        for (PetscInt it = 0; it < 2; it++)
          for (PetscInt p = 0; p < k; p++) {
            PetscReal d = 0.0;
            for (PetscInt r = 0; r < m; r++) d += GPUPC_AMG_AGG_Q(r, p) * GPUPC_AMG_AGG_Q(r, k);
            for (PetscInt r = 0; r < m; r++) GPUPC_AMG_AGG_Q(r, k) -= d * GPUPC_AMG_AGG_Q(r, p);
          }
        nrm = 0.0;
        for (PetscInt r = 0; r < m; r++) nrm += GPUPC_AMG_AGG_Q(r, k) * GPUPC_AMG_AGG_Q(r, k);
        nrm = PetscSqrtReal(nrm);
        if (nrm > 0.5) {
          for (PetscInt r = 0; r < m; r++) GPUPC_AMG_AGG_Q(r, k) /= nrm;
          found = 1;
        }
      }
      if (!found) return 1;
    }
  }
  return 0;
}

/* row x of AP smoothed in place: ap -> -omega (ap (1/d)) + pt, pt the entry of P_tent in the same column (0 when
   none; MatDiagonalScale then MatAYPX of the host setup); returns the entries of P_tent's row outside AP's */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGAggSmoothRow(const PetscInt *APi, const PetscInt *APj, PetscScalar *APa, PetscScalar d, PetscReal omega, const PetscInt *Pi, const PetscInt *Pj, const PetscScalar *Pa, PetscInt x)
{
  const PetscScalar dinv = 1.0 / d;
  PetscInt          e = APi[x], missing = 0;

  for (PetscInt q = Pi[x]; q < Pi[x + 1]; q++) {
    for (; e < APi[x + 1] && APj[e] < Pj[q]; e++) APa[e] = -omega * (APa[e] * dinv);
    if (e < APi[x + 1] && APj[e] == Pj[q]) {
      APa[e] = -omega * (APa[e] * dinv) + Pa[q];
      e++;
    } else missing++;
  }
  for (; e < APi[x + 1]; e++) APa[e] = -omega * (APa[e] * dinv);
  return missing;
}

#endif

/*
   amgdevrows.h - the per-row arithmetic of PC gpuamg's device setup, one code for the host reference
   (host/amgsetupkernels_host.c) and the CUDA kernels (cuda/amgsetupkernels.cu), so both tables compute every row
   alike. Each function works on one row of plain CSR arrays (one rank: the level matrix is the whole matrix) and gives
   what the host setup's row gives (amgsetupstrength.c StrongRow, amgsetupcoarsen.c PMIS, amgsetupinterp.c RowDirect,
   RowStandard, RowExtI, TruncRow), with the same operations in the same order. HMIS's first stage works on a subdomain
   of consecutive rows, not on a row (GPUPCAMGDevHMISSubdomain). The host setup looks points up in per-thread arrays of n
   entries; a device thread has none, so membership is a binary search in a sorted row (S, A) or in an index of the
   row being built ordered by column (at most interp_bound entries).
*/
#ifndef GPUPC_AMGDEVROWS_H
#define GPUPC_AMGDEVROWS_H

#include <gpupc/amgsetupkernels.h>

/* c is in the sorted j[lo .. hi) */
static inline GPUPC_AMG_HD int GPUPCAMGDevHas(const PetscInt *j, PetscInt lo, PetscInt hi, PetscInt c)
{
  while (lo < hi) {
    PetscInt mid = lo + (hi - lo) / 2;
    if (j[mid] == c) return 1;
    if (j[mid] < c) lo = mid + 1;
    else hi = mid;
  }
  return 0;
}

/* the place of column c among cols[0 .. len), or -1; idx[0 .. len) holds the places ordered by column (a binary
   search: the interpolatory sets of coarse levels reach hundreds of points, and a linear search per lookup made the
   interpolation quadratic in them) */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGDevFind(const PetscInt *cols, const PetscInt *idx, PetscInt len, PetscInt c)
{
  PetscInt lo = 0, hi = len;

  while (lo < hi) {
    PetscInt mid = lo + (hi - lo) / 2, m = cols[idx[mid]];
    if (m == c) return idx[mid];
    if (m < c) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

/* a before b: by column, then by place (bycol), or by place only */
static inline GPUPC_AMG_HD int GPUPCAMGDevBefore(const PetscInt *cols, PetscInt a, PetscInt b, int bycol)
{
  if (bycol && cols[a] != cols[b]) return cols[a] < cols[b];
  return a < b;
}

/* heap sort of the places idx[0 .. n) (GPUPCAMGDevBefore's order): O(n log n) in place, no recursion, no scratch */
static inline GPUPC_AMG_HD void GPUPCAMGDevSortPlaces(const PetscInt *cols, PetscInt *idx, PetscInt n, int bycol)
{
  for (PetscInt end = n, start = n / 2; end > 1;) {
    PetscInt root, t;
    if (start > 0) start--;
    else {
      end--;
      t        = idx[0];
      idx[0]   = idx[end];
      idx[end] = t;
    }
    root = start;
    while (2 * root + 1 < end) { /* sift down: the larger child up */
      PetscInt child = 2 * root + 1;
      if (child + 1 < end && GPUPCAMGDevBefore(cols, idx[child], idx[child + 1], bycol)) child++;
      if (!GPUPCAMGDevBefore(cols, idx[root], idx[child], bycol)) break;
      t          = idx[root];
      idx[root]  = idx[child];
      idx[child] = t;
      root       = child;
    }
  }
}

/* the n candidate points cols[0 .. n) (repeats allowed) reduced to their first occurrences, in the order found; idx[0
   .. len) then holds the places ordered by column (GPUPCAMGDevFind) and vals[0 .. len) is 0; returns len. Sorting once
   (O(n log n)) replaced an insertion per candidate into the ordered index, whose shifts were quadratic in the set */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGDevUniquePoints(PetscInt *cols, PetscReal *vals, PetscInt *idx, PetscInt n)
{
  PetscInt len = 0;

  for (PetscInt q = 0; q < n; q++) idx[q] = q;
  GPUPCAMGDevSortPlaces(cols, idx, n, 1); /* by column, the first occurrence first */
  for (PetscInt q = 0; q < n; q++)
    if (q == 0 || cols[idx[q]] != cols[idx[q - 1]]) idx[len++] = idx[q];
  GPUPCAMGDevSortPlaces(cols, idx, len, 0); /* the first occurrences in the order found */
  for (PetscInt r = 0; r < len; r++) {      /* idx[r] >= r and increasing: no place is read after it is written */
    cols[r] = cols[idx[r]];
    vals[r] = 0.0;
  }
  for (PetscInt r = 0; r < len; r++) idx[r] = r;
  GPUPCAMGDevSortPlaces(cols, idx, len, 1);
  return len;
}

/* classical strength of row r (diagonal value dr): the strong points in out (NULL: counted only) */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGDevStrongRow(const PetscInt *Ai, const PetscInt *Aj, const PetscScalar *Aa, PetscReal dr, PetscReal theta, PetscInt r, PetscInt *out)
{
  PetscReal s = dr < 0.0 ? -1.0 : 1.0, mneg = 0.0, mabs = 0.0;
  PetscInt  c = 0;

  for (PetscInt e = Ai[r]; e < Ai[r + 1]; e++) {
    if (Aj[e] == r) continue;
    mneg = PetscMax(mneg, -s * Aa[e]);
    mabs = PetscMax(mabs, PetscAbsReal(Aa[e]));
  }
  for (PetscInt e = Ai[r]; e < Ai[r + 1]; e++) {
    const PetscReal v = Aa[e];
    int             strong;
    if (Aj[e] == r) continue;
    if (mneg > 0.0) strong = -s * v > 0.0 && -s * v >= theta * mneg;
    else strong = mabs > 0.0 && PetscAbsReal(v) >= theta * mabs;
    if (strong) {
      if (out) out[c] = Aj[e];
      c++;
    }
  }
  return c;
}

/* PMIS start of point i: its measure and state; returns 1 when it is undecided */
static inline GPUPC_AMG_HD int GPUPCAMGDevPMISInit(const PetscInt *STi, PetscInt rstart, PetscInt i, PetscReal *w, PetscInt *cf)
{
  PetscInt nt = STi[i + 1] - STi[i];

  w[i]  = (PetscReal)nt + GPUPCAMGRandom(rstart + i);
  cf[i] = nt == 0 ? GPUPC_AMG_F : GPUPC_AMG_U; /* influences no point (isolated points too): F */
  return cf[i] == GPUPC_AMG_U;
}

/* the undecided point i beats its undecided neighbours in S and ST */
static inline GPUPC_AMG_HD char GPUPCAMGDevPMISMax(const PetscInt *Si, const PetscInt *Sj, const PetscInt *STi, const PetscInt *STj, const PetscReal *w, const PetscInt *cf, PetscInt i)
{
  if (cf[i] != GPUPC_AMG_U) return 0;
  for (PetscInt e = Si[i]; e < Si[i + 1]; e++) {
    PetscInt j = Sj[e];
    if (cf[j] == GPUPC_AMG_U && (w[j] > w[i] || (w[j] == w[i] && j > i))) return 0;
  }
  for (PetscInt e = STi[i]; e < STi[i + 1]; e++) {
    PetscInt j = STj[e];
    if (cf[j] == GPUPC_AMG_U && (w[j] > w[i] || (w[j] == w[i] && j > i))) return 0;
  }
  return 1;
}

/* the undecided point i depends strongly on a C point */
static inline GPUPC_AMG_HD char GPUPCAMGDevPMISDepends(const PetscInt *Si, const PetscInt *Sj, const PetscInt *cf, PetscInt i)
{
  if (cf[i] != GPUPC_AMG_U) return 0;
  for (PetscInt e = Si[i]; e < Si[i + 1]; e++)
    if (cf[Sj[e]] == GPUPC_AMG_C) return 1;
  return 0;
}

/* a state of HMIS's first stage only: a point of the subdomain without strong couplings inside it (U once the stage
   is over; it is decided by the PMIS rounds) */
#define GPUPC_AMG_HMIS_OUT 2

/* the start of HMIS's first stage on point p of the subdomain [lo, hi): *lambda = the points of the subdomain that
   depend on p strongly; returns p's state: U, or GPUPC_AMG_HMIS_OUT when p has no strong coupling inside */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGDevHMISStart(const PetscInt *Si, const PetscInt *Sj, const PetscInt *STi, const PetscInt *STj, PetscInt lo, PetscInt hi, PetscInt p, PetscInt *lambda)
{
  PetscInt ns = 0, nt = 0;

  for (PetscInt e = Si[p]; e < Si[p + 1]; e++) ns += Sj[e] >= lo && Sj[e] < hi;
  for (PetscInt e = STi[p]; e < STi[p + 1]; e++) nt += STj[e] >= lo && STj[e] < hi;
  *lambda = nt;
  return ns == 0 && nt == 0 ? GPUPC_AMG_HMIS_OUT : GPUPC_AMG_U;
}

/* Ruge-Stueben's first pass on the subdomain [lo, hi) (the couplings between its points), one point at a time: the U
   point of largest lambda (ties: the smaller index, the host setup's heap order in amgsetupcoarsen.c CoarsenRSFirst)
   becomes C, the U points that depend on it F; the U points these F points depend on gain 1, those the new C point
   depends on lose 1. The host setup's lazy heap picks the same point (every U point has an entry with its current
   lambda); this scan is O(B) a pick, fine for subdomains of hundreds of points. The points without strong couplings
   inside end U. The host table runs it on every subdomain, the CUDA table on subdomains too large for its block
   kernel (both give the same splitting: the picks and the updates do not depend on the order of a point's work) */
static inline GPUPC_AMG_HD void GPUPCAMGDevHMISSubdomain(const PetscInt *Si, const PetscInt *Sj, const PetscInt *STi, const PetscInt *STj, PetscInt lo, PetscInt hi, PetscInt *lambda, PetscInt *cf)
{
  for (PetscInt p = lo; p < hi; p++) cf[p] = GPUPCAMGDevHMISStart(Si, Sj, STi, STj, lo, hi, p, &lambda[p]);
  for (;;) {
    PetscInt i = -1;
    for (PetscInt p = lo; p < hi; p++)
      if (cf[p] == GPUPC_AMG_U && (i < 0 || lambda[p] > lambda[i])) i = p;
    if (i < 0) break;
    cf[i] = GPUPC_AMG_C;
    for (PetscInt e = STi[i]; e < STi[i + 1]; e++) { /* the points that depend on i become F */
      PetscInt j = STj[e];
      if (j < lo || j >= hi || cf[j] != GPUPC_AMG_U) continue;
      cf[j] = GPUPC_AMG_F;
      for (PetscInt f = Si[j]; f < Si[j + 1]; f++) { /* what j depends on is more valuable as a C point */
        PetscInt k = Sj[f];
        if (k >= lo && k < hi && cf[k] == GPUPC_AMG_U) lambda[k]++;
      }
    }
    for (PetscInt e = Si[i]; e < Si[i + 1]; e++) { /* what i depends on is less valuable */
      PetscInt k = Sj[e];
      if (k >= lo && k < hi && cf[k] == GPUPC_AMG_U) lambda[k]--;
    }
  }
  for (PetscInt p = lo; p < hi; p++)
    if (cf[p] == GPUPC_AMG_HMIS_OUT) cf[p] = GPUPC_AMG_U;
}

/* HMIS's second stage, start of point i: its PMIS measure (GPUPCAMGDevPMISInit's); an undecided point that influences
   no point becomes F (the host setup's PMIS rounds after the first pass, amgsetupcoarsenacross.c); returns 1 when it
   is undecided */
static inline GPUPC_AMG_HD int GPUPCAMGDevHMISInit(const PetscInt *STi, PetscInt rstart, PetscInt i, PetscReal *w, PetscInt *cf)
{
  PetscInt nt = STi[i + 1] - STi[i];

  w[i] = (PetscReal)nt + GPUPCAMGRandom(rstart + i);
  if (cf[i] == GPUPC_AMG_U && nt == 0) cf[i] = GPUPC_AMG_F;
  return cf[i] == GPUPC_AMG_U;
}

/* the entries of row i of P before truncation are at most this many */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGDevInterpBound(const PetscInt *Ai, const PetscInt *Si, const PetscInt *Sj, const PetscInt *cf, PetscInt type, PetscInt i)
{
  PetscInt b = 0;

  if (cf[i] == GPUPC_AMG_C) return 1;
  if (type == GPUPC_AMG_DEV_DIRECT) return Ai[i + 1] - Ai[i];
  if (type == GPUPC_AMG_DEV_STANDARD) { /* the couplings of i, and those of each strong F neighbour but its diagonal */
    b = Ai[i + 1] - Ai[i];
    for (PetscInt e = Si[i]; e < Si[i + 1]; e++)
      if (cf[Sj[e]] != GPUPC_AMG_C) b += Ai[Sj[e] + 1] - Ai[Sj[e]] - 1;
    return b;
  }
  for (PetscInt e = Si[i]; e < Si[i + 1]; e++) b += cf[Sj[e]] == GPUPC_AMG_C ? 1 : Si[Sj[e] + 1] - Si[Sj[e]];
  return b;
}

/* direct interpolation's sums (sum[0], sum[1]: the couplings opposite to and with the sign s of the diagonal; sum[2],
   sum[3]: those of interpolatory points): adds the coupling v */
static inline GPUPC_AMG_HD void GPUPCAMGDirectAdd(PetscReal v, PetscReal s, int in, PetscReal *sum)
{
  if (v * s < 0.0) {
    sum[0] += v;
    if (in) sum[2] += v;
  } else {
    sum[1] += v;
    if (in) sum[3] += v;
  }
}

/* the scales of direct interpolation from the sums; positive couplings without interpolatory points go to *d */
static inline GPUPC_AMG_HD void GPUPCAMGDirectScales(const PetscReal *sum, PetscReal *d, PetscReal *alpha, PetscReal *beta)
{
  *alpha = sum[2] != 0.0 ? sum[0] / sum[2] : 0.0;
  if (sum[3] != 0.0) *beta = sum[1] / sum[3];
  else {
    *beta = 0.0;
    *d += sum[1];
  }
}

/* direct interpolation of the F point i (diagonal di) into cols, vals: the off-diagonal couplings, then the weights
   of the strong C points (the host's RowDirect and DirectFormula on one rank, where the lumped sums are 0) */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGDevRowDirect(const PetscInt *Ai, const PetscInt *Aj, const PetscScalar *Aa, PetscReal di, const PetscInt *Si, const PetscInt *Sj, const PetscInt *cf, PetscInt i, PetscInt *cols, PetscReal *vals)
{
  PetscReal s = di < 0.0 ? -1.0 : 1.0, sum[4] = {0.0, 0.0, 0.0, 0.0}, alpha, beta, d = di;
  PetscInt  len = 0, k = 0;

  for (PetscInt e = Ai[i]; e < Ai[i + 1]; e++)
    if (Aj[e] != i) {
      cols[len]   = Aj[e];
      vals[len++] = Aa[e];
    }
  for (PetscInt q = 0; q < len; q++) GPUPCAMGDirectAdd(vals[q], s, cf[cols[q]] == GPUPC_AMG_C && GPUPCAMGDevHas(Sj, Si[i], Si[i + 1], cols[q]), sum);
  GPUPCAMGDirectScales(sum, &d, &alpha, &beta);
  for (PetscInt q = 0; q < len; q++) {
    PetscInt  l = cols[q];
    PetscReal v = vals[q];
    if (!(cf[l] == GPUPC_AMG_C && GPUPCAMGDevHas(Sj, Si[i], Si[i + 1], l)) || v == 0.0 || d == 0.0) continue;
    cols[k]   = l;
    vals[k++] = -(v * s < 0.0 ? alpha : beta) * v / d;
  }
  return k;
}

/* extended+i interpolation of the F point i (the host's RowExtI on one rank) into cols, vals (in the order the host
   finds the points); diag: A's diagonal; idx: scratch of the capacity of cols (the places ordered by column) */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGDevRowExtI(const PetscInt *Ai, const PetscInt *Aj, const PetscScalar *Aa, const PetscScalar *diag, const PetscInt *Si, const PetscInt *Sj, const PetscInt *cf, PetscInt i, PetscInt *cols, PetscReal *vals, PetscInt *idx)
{
  PetscReal d   = diag[i];
  PetscInt  len = 0;

  /* the interpolatory set: strong C of i and of its strong F neighbours (values start at 0); the candidates fit in
     the row's capacity, GPUPCAMGDevInterpBound(), which counts them with repeats */
  for (PetscInt e = Si[i]; e < Si[i + 1]; e++) {
    PetscInt k = Sj[e];
    if (cf[k] == GPUPC_AMG_C) cols[len++] = k;
    else
      for (PetscInt f = Si[k]; f < Si[k + 1]; f++)
        if (cf[Sj[f]] == GPUPC_AMG_C) cols[len++] = Sj[f];
  }
  len = GPUPCAMGDevUniquePoints(cols, vals, idx, len);
  for (PetscInt e = Ai[i]; e < Ai[i + 1]; e++) {
    PetscInt n = Aj[e], p;
    if (n == i) continue;
    p = GPUPCAMGDevFind(cols, idx, len, n);
    if (p >= 0) vals[p] += Aa[e];
    else if (!(cf[n] == GPUPC_AMG_F && GPUPCAMGDevHas(Sj, Si[i], Si[i + 1], n))) d += Aa[e]; /* weak, not interpolatory: lumped */
  }
  for (PetscInt e = Ai[i]; e < Ai[i + 1]; e++) {
    PetscInt  k   = Aj[e];
    PetscReal aik = Aa[e], sk, D = 0.0;
    if (k == i || cf[k] != GPUPC_AMG_F || !GPUPCAMGDevHas(Sj, Si[i], Si[i + 1], k)) continue;
    sk = diag[k] < 0.0 ? -1.0 : 1.0;
    /* D: k's negative couplings to i and to the interpolatory set; the same entries are distributed below */
    for (PetscInt g = Ai[k]; g < Ai[k + 1]; g++) {
      PetscInt l = Aj[g];
      if ((l == i || GPUPCAMGDevFind(cols, idx, len, l) >= 0) && Aa[g] * sk < 0.0) D += Aa[g];
    }
    if (D == 0.0) {
      d += aik;
      continue;
    }
    for (PetscInt g = Ai[k]; g < Ai[k + 1]; g++) {
      PetscInt l = Aj[g], p;
      if (Aa[g] * sk >= 0.0) continue;
      if (l == i) d += aik * Aa[g] / D;
      else if ((p = GPUPCAMGDevFind(cols, idx, len, l)) >= 0) vals[p] += aik * Aa[g] / D;
    }
  }
  for (PetscInt q = 0; q < len; q++) vals[q] = d != 0.0 ? -vals[q] / d : 0.0;
  return len;
}

/* GPUPCAMGDevFind on columns stored shifted left by one bit (the low bit a mark): the place of column c, or -1 */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGDevFindShifted(const PetscInt *cols, const PetscInt *idx, PetscInt len, PetscInt c)
{
  PetscInt lo = 0, hi = len;

  while (lo < hi) {
    PetscInt mid = lo + (hi - lo) / 2, m = cols[idx[mid]] >> 1;
    if (m == c) return idx[mid];
    if (m < c) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

/* standard interpolation's elimination: the strong F neighbour k of i is replaced by its own equation */
static inline GPUPC_AMG_HD int GPUPCAMGDevEliminated(const PetscInt *Si, const PetscInt *Sj, const PetscInt *cf, const PetscScalar *diag, PetscInt i, PetscInt k)
{
  return cf[k] == GPUPC_AMG_F && diag[k] != 0.0 && GPUPCAMGDevHas(Sj, Si[i], Si[i + 1], k);
}

/* standard interpolation of the F point i (the host's RowStandard and DirectFormula on one rank, where the lumped sums
   are 0) into cols, vals: row i with each strong F neighbour k eliminated (row i - a_ik / a_kk row k), in the order
   the host adds the points, then direct interpolation of that row from the strong C points of i and of those k.
   Three walks over the same couplings: the candidate points (with repeats), their values, then the interpolatory
   marks, kept in the low bit of the columns (shifted left by one: the caller checks 2 n fits a PetscInt) so that
   the scratch is that of ext+i (idx: the places ordered by column) */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGDevRowStandard(const PetscInt *Ai, const PetscInt *Aj, const PetscScalar *Aa, const PetscScalar *diag, const PetscInt *Si, const PetscInt *Sj, const PetscInt *cf, PetscInt i, PetscInt *cols, PetscReal *vals, PetscInt *idx)
{
  PetscReal d = diag[i], s, sum[4] = {0.0, 0.0, 0.0, 0.0}, alpha, beta;
  PetscInt  len = 0, k = 0;

  for (PetscInt e = Ai[i]; e < Ai[i + 1]; e++) { /* the candidates, in the host's order of Add */
    PetscInt c = Aj[e];
    if (c == i) continue;
    if (GPUPCAMGDevEliminated(Si, Sj, cf, diag, i, c)) {
      for (PetscInt g = Ai[c]; g < Ai[c + 1]; g++)
        if (Aj[g] != c && Aj[g] != i) cols[len++] = Aj[g];
    } else cols[len++] = c;
  }
  len = GPUPCAMGDevUniquePoints(cols, vals, idx, len);
  for (PetscInt e = Ai[i]; e < Ai[i + 1]; e++) { /* the values of the modified row; its diagonal in d */
    PetscInt c = Aj[e];
    if (c == i) continue;
    if (GPUPCAMGDevEliminated(Si, Sj, cf, diag, i, c)) {
      PetscReal f = -Aa[e] / diag[c];
      for (PetscInt g = Ai[c]; g < Ai[c + 1]; g++) {
        PetscInt l = Aj[g];
        if (l == c) continue;
        if (l == i) d += f * Aa[g];
        else vals[GPUPCAMGDevFind(cols, idx, len, l)] += f * Aa[g];
      }
    } else vals[GPUPCAMGDevFind(cols, idx, len, c)] += Aa[e];
  }
  for (PetscInt q = 0; q < len; q++) cols[q] *= 2; /* the order by column is kept */
  for (PetscInt e = Si[i]; e < Si[i + 1]; e++) {   /* the interpolatory points: strong C of i and of its strong F neighbours */
    PetscInt c = Sj[e], p;
    if (cf[c] == GPUPC_AMG_C) {
      if ((p = GPUPCAMGDevFindShifted(cols, idx, len, c)) >= 0) cols[p] |= 1;
    } else
      for (PetscInt f = Si[c]; f < Si[c + 1]; f++)
        if (cf[Sj[f]] == GPUPC_AMG_C && (p = GPUPCAMGDevFindShifted(cols, idx, len, Sj[f])) >= 0) cols[p] |= 1;
  }
  s = d < 0.0 ? -1.0 : 1.0;
  for (PetscInt q = 0; q < len; q++) GPUPCAMGDirectAdd(vals[q], s, (int)(cols[q] & 1), sum);
  GPUPCAMGDirectScales(sum, &d, &alpha, &beta);
  for (PetscInt q = 0; q < len; q++) {
    PetscReal v = vals[q];
    if (!(cols[q] & 1) || v == 0.0 || d == 0.0) continue;
    cols[k]   = cols[q] >> 1;
    vals[k++] = -(v * s < 0.0 ? alpha : beta) * v / d;
  }
  return k;
}

/* truncation of one row (cols, vals of length len): drops entries below tfac * max |v| (tfac > 0), keeps the tmax
   largest |v| (tmax > 0; ties: the smaller column) first, then rescales the kept ones so that the row sum is unchanged:
   rescale PC_GPUAMG_TRUNC_RESCALE_SUM one factor for the row (sum of all / sum of the kept, BoomerAMG's), SIGNS the
   positive and the negative entries each by their own factor (Stueben; a part with nothing kept falls back to sum).
   Returns the kept length. The host setup's rows go through it too (amgsetupinterp.c). */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGTruncRow(PetscInt n, PetscInt *cols, PetscReal *vals, PetscInt tmax, PetscReal tfac, PetscInt rescale)
{
  PetscReal sum = 0.0, kept = 0.0, mx = 0.0, sp = 0.0, kp = 0.0;
  PetscInt  k = 0;

  if (n == 0 || (tmax <= 0 && tfac <= 0.0) || (tfac <= 0.0 && n <= tmax)) return n;
  for (PetscInt q = 0; q < n; q++) {
    sum += vals[q];
    if (vals[q] > 0.0) sp += vals[q];
    mx = PetscMax(mx, PetscAbsReal(vals[q]));
  }
  if (tfac > 0.0)
    for (PetscInt q = 0; q < n; q++)
      if (PetscAbsReal(vals[q]) >= tfac * mx) {
        cols[k]   = cols[q];
        vals[k++] = vals[q];
      }
  if (tfac <= 0.0) k = n;
  if (tmax > 0 && k > tmax) { /* the tmax largest first, in place */
    for (PetscInt q = 0; q < tmax; q++) {
      PetscInt b = q;
      for (PetscInt r = q + 1; r < k; r++)
        if (PetscAbsReal(vals[r]) > PetscAbsReal(vals[b]) || (PetscAbsReal(vals[r]) == PetscAbsReal(vals[b]) && cols[r] < cols[b])) b = r;
      if (b != q) GPUPCAMGSwapPairs(cols, vals, q, b);
    }
    k = tmax;
  }
  for (PetscInt q = 0; q < k; q++) {
    kept += vals[q];
    if (vals[q] > 0.0) kp += vals[q];
  }
  if (rescale == PC_GPUAMG_TRUNC_RESCALE_SIGNS) {
    const PetscReal sn = sum - sp, kn = kept - kp; /* the negative parts */

    if ((kp != 0.0 || sp == 0.0) && (kn != 0.0 || sn == 0.0)) {
      for (PetscInt q = 0; q < k; q++) vals[q] *= vals[q] > 0.0 ? sp / kp : sn / kn;
      return k;
    }
  }
  if (kept != 0.0 && sum != 0.0)
    for (PetscInt q = 0; q < k; q++) vals[q] *= sum / kept;
  return k;
}

/* row i of P into cols, vals (capacity: interp_bound's; idx scratch of the same), truncated; returns its length */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGDevInterpRow(const PetscInt *Ai, const PetscInt *Aj, const PetscScalar *Aa, const PetscScalar *diag, const PetscInt *Si, const PetscInt *Sj, const PetscInt *cf, PetscInt type, PetscInt tmax, PetscReal tfac, PetscInt i, PetscInt *cols, PetscReal *vals, PetscInt *idx)
{
  PetscInt len;

  if (cf[i] == GPUPC_AMG_C) {
    cols[0] = i;
    vals[0] = 1.0;
    return 1;
  }
  if (type == GPUPC_AMG_DEV_DIRECT) len = GPUPCAMGDevRowDirect(Ai, Aj, Aa, diag[i], Si, Sj, cf, i, cols, vals);
  else if (type == GPUPC_AMG_DEV_STANDARD) len = GPUPCAMGDevRowStandard(Ai, Aj, Aa, diag, Si, Sj, cf, i, cols, vals, idx);
  else len = GPUPCAMGDevRowExtI(Ai, Aj, Aa, diag, Si, Sj, cf, i, cols, vals, idx);
  return GPUPCAMGTruncRow(len, cols, vals, tmax, tfac, PC_GPUAMG_TRUNC_RESCALE_SUM); /* signs: the host setup */
}

/* rows of P whose bound (GPUPCAMGDevInterpBound) is at most this are formed in the thread's own scratch (local memory
   on the device: interleaved across a warp's threads, so the searches of GPUPCAMGDevRowExtI read it coalesced and from
   L1) and only their truncated entries go to the interpolation buffer; longer rows are formed in the buffer itself */
#define GPUPC_AMG_DEV_ROWCAP 64

/* the entries row i keeps in the interpolation buffer, from its bound: the bound for a row formed in the buffer (bound
   above GPUPC_AMG_DEV_ROWCAP) or without a count truncation (tmax <= 0), else at most tmax (the truncated length) */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGDevInterpCapacity(PetscInt bound, PetscInt tmax)
{
  return bound > GPUPC_AMG_DEV_ROWCAP || tmax <= 0 ? bound : PetscMin(bound, tmax);
}

/* row i of P, truncated, into the buffer cols, vals of GPUPCAMGDevInterpCapacity() entries (idx: scratch of as
   many); returns its length */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGDevInterpRowStored(const PetscInt *Ai, const PetscInt *Aj, const PetscScalar *Aa, const PetscScalar *diag, const PetscInt *Si, const PetscInt *Sj, const PetscInt *cf, PetscInt type, PetscInt tmax, PetscReal tfac, PetscInt i, PetscInt *cols, PetscReal *vals, PetscInt *idx)
{
  PetscInt  lc[GPUPC_AMG_DEV_ROWCAP], li[GPUPC_AMG_DEV_ROWCAP], len;
  PetscReal lv[GPUPC_AMG_DEV_ROWCAP];

  if (GPUPCAMGDevInterpBound(Ai, Si, Sj, cf, type, i) > GPUPC_AMG_DEV_ROWCAP) return GPUPCAMGDevInterpRow(Ai, Aj, Aa, diag, Si, Sj, cf, type, tmax, tfac, i, cols, vals, idx);
  len = GPUPCAMGDevInterpRow(Ai, Aj, Aa, diag, Si, Sj, cf, type, tmax, tfac, i, lc, lv, li);
  for (PetscInt q = 0; q < len; q++) {
    cols[q] = lc[q];
    vals[q] = lv[q];
  }
  return len;
}

/* row i of P from the buffer: coarse columns, sorted (insertion sort: truncated rows are short) */
static inline GPUPC_AMG_HD void GPUPCAMGDevGatherRow(PetscInt len, const PetscInt *bcols, const PetscReal *bvals, const PetscInt *cmap, PetscInt *pj, PetscReal *pa)
{
  for (PetscInt q = 0; q < len; q++) {
    PetscInt  c = cmap[bcols[q]], p = q;
    PetscReal v = bvals[q];
    while (p > 0 && pj[p - 1] > c) {
      pj[p] = pj[p - 1];
      pa[p] = pa[p - 1];
      p--;
    }
    pj[p] = c;
    pa[p] = v;
  }
}

#endif

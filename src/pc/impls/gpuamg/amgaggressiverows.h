/*
   amgaggressiverows.h - the per-row code of PC gpuamg's aggressive coarsening and multipass interpolation on the
   device (gpupc/amgaggrkernels.h), one code for the host reference (host/amgaggrkernels_host.c) and the CUDA kernels
   (cuda/amgaggrkernels.cu). Each function works on one row (one C point of S2, one F point of a pass) and gives what
   the host setup gives for it (amgsetupcoarsen.c GPUPCAMGCoarsenAggressive, amgsetupinterp.c InterpMultipass) on one
   rank. The host setup finds points through per-thread marks of n entries; a device thread has none, so a row gathers
   its candidates with repeats into its own scratch, sorts their places and keeps the first of each point
   (GPUPCAMGDevUniquePoints of amgdevrows.h), and later looks them up by binary search.
*/
#ifndef GPUPC_AMGAGGRESSIVEROWS_H
#define GPUPC_AMGAGGRESSIVEROWS_H

#include <gpupc/amgaggrkernels.h>
#include "amgdevrows.h"

/* a + b c with the product rounded before the add: the host's two operations, never fused into one on the device (a
   fused multiply-add rounds once), so both tables give the host setup's sums bit for bit */
static inline GPUPC_AMG_HD PetscReal GPUPCAMGAggrMulAdd(PetscReal a, PetscReal b, PetscReal c)
{
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, __dmul_rn(b, c));
#else
  return a + b * c;
#endif
}

/* the candidates of the C point c in S2, with repeats: 1 per strong C neighbour, the strong neighbours of each strong
   F neighbour */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGAggrS2BoundOf(const PetscInt *Si, const PetscInt *Sj, const PetscInt *cf, PetscInt c)
{
  PetscInt b = 0;

  for (PetscInt e = Si[c]; e < Si[c + 1]; e++) b += cf[Sj[e]] == GPUPC_AMG_C ? 1 : Si[Sj[e] + 1] - Si[Sj[e]];
  return b;
}

/* the row of the C point c in S2: the distinct C points other than c among its strong C neighbours and the strong
   neighbours of its strong F neighbours (the host's set; PMIS depends on the set, not on its order), ascending, into
   out[0 .. len); cand: scratch of GPUPCAMGAggrS2BoundOf() entries, out of as many; returns len */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGAggrS2RowOf(const PetscInt *Si, const PetscInt *Sj, const PetscInt *cf, PetscInt c, PetscInt *cand, PetscInt *out)
{
  PetscInt nb = 0, len = 0, prev = -1;

  for (PetscInt e = Si[c]; e < Si[c + 1]; e++) {
    PetscInt k = Sj[e];
    if (cf[k] == GPUPC_AMG_C) cand[nb++] = k;
    else
      for (PetscInt f = Si[k]; f < Si[k + 1]; f++)
        if (cf[Sj[f]] == GPUPC_AMG_C && Sj[f] != c) cand[nb++] = Sj[f];
  }
  for (PetscInt q = 0; q < nb; q++) out[q] = q;
  GPUPCAMGDevSortPlaces(cand, out, nb, 1);
  for (PetscInt q = 0; q < nb; q++) { /* out[q] is read before out[len] (len <= q) is written */
    PetscInt v = cand[out[q]];
    if (v != prev) out[len++] = v;
    prev = v;
  }
  return len;
}

/* the buffer entries of the C point c in the S2 passes: its candidates when they are more than GPUPC_AMG_DEV_ROWCAP
   (the row is formed in the buffer by the count pass and read back by the fill pass), else none (both passes form it
   in the thread's own arrays: local memory on the device, as ext+i's short rows) */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGAggrS2Capacity(const PetscInt *Si, const PetscInt *Sj, const PetscInt *cf, PetscInt c)
{
  const PetscInt b = GPUPCAMGAggrS2BoundOf(Si, Sj, cf, c);
  return b > GPUPC_AMG_DEV_ROWCAP ? b : 0;
}

/* the count pass of the C point c: the length of its S2 row (formed in cand, out when it has a buffer) */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGAggrS2Count(const PetscInt *Si, const PetscInt *Sj, const PetscInt *cf, PetscInt c, PetscInt *cand, PetscInt *out)
{
  PetscInt lc[GPUPC_AMG_DEV_ROWCAP], lo[GPUPC_AMG_DEV_ROWCAP];

  if (GPUPCAMGAggrS2Capacity(Si, Sj, cf, c)) return GPUPCAMGAggrS2RowOf(Si, Sj, cf, c, cand, out);
  return GPUPCAMGAggrS2RowOf(Si, Sj, cf, c, lc, lo);
}

/* the fill pass of the C point c: its S2 row of len points (from the count pass's buffer out, or formed again here)
   into S2j, numbered by cidx */
static inline GPUPC_AMG_HD void GPUPCAMGAggrS2Fill(const PetscInt *Si, const PetscInt *Sj, const PetscInt *cf, PetscInt c, const PetscInt *out, const PetscInt *cidx, PetscInt len, PetscInt *S2j)
{
  PetscInt lc[GPUPC_AMG_DEV_ROWCAP], lo[GPUPC_AMG_DEV_ROWCAP];

  if (!GPUPCAMGAggrS2Capacity(Si, Sj, cf, c)) {
    (void)GPUPCAMGAggrS2RowOf(Si, Sj, cf, c, lc, lo);
    out = lo;
  }
  for (PetscInt r = 0; r < len; r++) S2j[r] = cidx[out[r]];
}

/* the second stage's result for the C point q of S2 (state cf2q): F when S2's PMIS did not keep it and it has a C point
   within distance two (a C point without one stays C) */
static inline GPUPC_AMG_HD int GPUPCAMGAggrS2Drops(const PetscInt *S2i, const PetscInt *S2Ti, PetscInt cf2q, PetscInt q)
{
  return cf2q != GPUPC_AMG_C && (S2i[q + 1] > S2i[q] || S2Ti[q + 1] > S2Ti[q]);
}

/* whether the point i without a pass depends strongly on a point of a pass below p (the points that get pass p; a
   point given pass p in the same round reads as p, not below p, whichever order the rows run in) */
static inline GPUPC_AMG_HD int GPUPCAMGAggrGetsPass(const PetscInt *Si, const PetscInt *Sj, const PetscInt *pass, PetscInt p, PetscInt i)
{
  if (pass[i] >= 0) return 0;
  for (PetscInt e = Si[i]; e < Si[i + 1]; e++)
    if (pass[Sj[e]] >= 0 && pass[Sj[e]] < p) return 1;
  return 0;
}

/* the scratch of row i of pass p (0 for other rows): its entries in A (the direct weights), then the entries of the
   rows of P of its interpolatory points (strong neighbours marked GPUPC_AMG_C in earlier) */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGAggrMPBoundOf(const PetscInt *Ai, const PetscInt *Si, const PetscInt *Sj, const PetscInt *pass, PetscInt p, const PetscInt *earlier, const PetscInt *rl, PetscInt i)
{
  PetscInt b = Ai[i + 1] - Ai[i];

  if (pass[i] != p) return 0;
  for (PetscInt e = Si[i]; e < Si[i + 1]; e++)
    if (earlier[Sj[e]] == GPUPC_AMG_C) b += rl[Sj[e]];
  return b;
}

/* row i of pass p of the multipass interpolation (the host's InterpMultipass row on one rank), truncated, into cols,
   vals [0 .. len) (fine column numbers of C points); scratch: cols, vals, idx of GPUPCAMGAggrMPBoundOf() entries.
   The direct weights to the interpolatory points j (the host's DirectFormula, GPUPCAMGDevRowDirect with earlier as
   the C points) go to the first entries; then row i = sum_j w_ij P_j, the points in the order the host meets them
   (j in A's order, each P_j in its stored order), each value the host's sum in its order: starting from -0.0, which
   adds to the first term exactly as the host's assignment of it (a zero's sign included) */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGAggrMPRowOf(const PetscInt *Ai, const PetscInt *Aj, const PetscScalar *Aa, PetscReal di, const PetscInt *Si, const PetscInt *Sj, const PetscInt *earlier, const PetscInt *rs, const PetscInt *rl, const PetscInt *sc, const PetscReal *sv, PetscInt tmax, PetscReal tfac, PetscInt i, PetscInt *cols, PetscReal *vals, PetscInt *idx)
{
  const PetscInt na = Ai[i + 1] - Ai[i];
  PetscInt      *cc = cols + na, *ci = idx + na, nw, nb = 0, len;
  PetscReal     *cv = vals + na;

  nw = GPUPCAMGDevRowDirect(Ai, Aj, Aa, di, Si, Sj, earlier, i, cols, vals);
  for (PetscInt r = 0; r < nw; r++)
    for (PetscInt g = rs[cols[r]]; g < rs[cols[r]] + rl[cols[r]]; g++) cc[nb++] = sc[g];
  len = GPUPCAMGDevUniquePoints(cc, cv, ci, nb);
  for (PetscInt q = 0; q < len; q++) cv[q] = -0.0;
  for (PetscInt r = 0; r < nw; r++)
    for (PetscInt g = rs[cols[r]]; g < rs[cols[r]] + rl[cols[r]]; g++) {
      PetscInt q = GPUPCAMGDevFind(cc, ci, len, sc[g]);
      cv[q]      = GPUPCAMGAggrMulAdd(cv[q], vals[r], sv[g]);
    }
  len = GPUPCAMGTruncRow(len, cc, cv, tmax, tfac, PC_GPUAMG_TRUNC_RESCALE_SUM); /* signs: the host setup */
  for (PetscInt q = 0; q < len; q++) {                                          /* to the front: cc is at na >= q */
    cols[q] = cc[q];
    vals[q] = cv[q];
  }
  return len;
}

/* row i of pass p, truncated, into the buffer cols, vals of GPUPCAMGDevInterpCapacity(GPUPCAMGAggrMPBoundOf(), tmax)
   entries (idx: scratch of as many): formed there when its bound passes GPUPC_AMG_DEV_ROWCAP, else in the thread's own
   arrays (local memory on the device) with only its kept entries copied out; returns its length */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGAggrMPRowStored(const PetscInt *Ai, const PetscInt *Aj, const PetscScalar *Aa, PetscReal di, const PetscInt *Si, const PetscInt *Sj, const PetscInt *pass, PetscInt p, const PetscInt *earlier, const PetscInt *rs, const PetscInt *rl, const PetscInt *sc, const PetscReal *sv, PetscInt tmax, PetscReal tfac, PetscInt i, PetscInt *cols, PetscReal *vals, PetscInt *idx)
{
  PetscInt  lc[GPUPC_AMG_DEV_ROWCAP], li[GPUPC_AMG_DEV_ROWCAP], len;
  PetscReal lv[GPUPC_AMG_DEV_ROWCAP];

  if (GPUPCAMGAggrMPBoundOf(Ai, Si, Sj, pass, p, earlier, rl, i) > GPUPC_AMG_DEV_ROWCAP) return GPUPCAMGAggrMPRowOf(Ai, Aj, Aa, di, Si, Sj, earlier, rs, rl, sc, sv, tmax, tfac, i, cols, vals, idx);
  len = GPUPCAMGAggrMPRowOf(Ai, Aj, Aa, di, Si, Sj, earlier, rs, rl, sc, sv, tmax, tfac, i, lc, lv, li);
  for (PetscInt q = 0; q < len; q++) {
    cols[q] = lc[q];
    vals[q] = lv[q];
  }
  return len;
}

/* the end of a pass for row i of it (len entries at the start of its scratch cols, vals): appended to the store sc, sv
   at place at, which rs[i], rl[i] then name for the later passes and the gather */
static inline GPUPC_AMG_HD void GPUPCAMGAggrMPAppendRow(const PetscInt *cols, const PetscReal *vals, PetscInt len, PetscInt at, PetscInt i, PetscInt *rs, PetscInt *rl, PetscInt *sc, PetscReal *sv)
{
  rs[i] = at;
  rl[i] = len;
  for (PetscInt q = 0; q < len; q++) {
    sc[at + q] = cols[q];
    sv[at + q] = vals[q];
  }
}

#endif

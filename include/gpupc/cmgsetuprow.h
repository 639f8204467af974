/*
   gpupc/cmgsetuprow.h - the per-row work of PC cmg's reduction, written once for the host table and the CUDA kernels
   of gpupc/cmgsetupkernels.h (host reference src/pc/impls/cmg/host, CUDA src/pc/impls/cmg/cuda), so that both add
   their floating point terms in the same order and agree bit for bit: the Dirichlet test of a row, its checks and its
   weight to the ground (cmgreduce.c CheckRow), and the placement of its level-0 rows (cmgreduce.c's level 0 without a
   sort). A row's own and its columns' Dirichlet status come from isdir (1: Dirichlet) or, when isdir is NULL, from
   the kept-row map (-1: Dirichlet).
*/
#ifndef GPUPC_CMGSETUPROW_H
#define GPUPC_CMGSETUPROW_H

#include <gpupc/cmgsetupkernels.h>

#if defined(__CUDACC__)
#define GPUPC_CMG_HD __host__ __device__
#else
#define GPUPC_CMG_HD
#endif

/* row or column j is a Dirichlet row */
static inline GPUPC_CMG_HD PetscInt GPUPCCMGIsDir(const PetscInt *isdir, const PetscInt *map, PetscInt j)
{
  return isdir ? isdir[j] : (PetscInt)(map[j] < 0);
}

/* a_ij of a CSR with sorted rows, 0 if not stored */
static inline GPUPC_CMG_HD PetscReal GPUPCCMGEntryOf(const GPUPCDevCSR *A, PetscInt i, PetscInt j)
{
  PetscInt lo = A->i[i], hi = A->i[i + 1] - 1;

  while (lo <= hi) {
    const PetscInt mid = (lo + hi) / 2;
    if (A->j[mid] == j) return A->a[mid];
    if (A->j[mid] < j) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0.0;
}

/* 1 when row i holds no nonzero off-diagonal and the rule treats such rows as Dirichlet rows */
static inline GPUPC_CMG_HD PetscInt GPUPCCMGRowDirichlet(const GPUPCDevCSR *A, const GPUPCCMGReduceRule *rule, PetscInt i)
{
  PetscInt dir = rule->dirichlet_rows ? 1 : 0;

  for (PetscInt k = A->i[i]; k < A->i[i + 1] && dir; k++)
    if (A->j[k] != i && A->a[k] != 0.0) dir = 0;
  return dir;
}

/* what the checks of one row find: fault (then nothing else is set), the positive off-diagonals, the entries of its
   level-0 rows before the ground entry (1 + the nonzero off-diagonals outside Dirichlet columns), its weight to the
   ground (0 on a Dirichlet row) and 1/a_ii on a Dirichlet row (else 0) */
typedef struct {
  PetscInt  fault, npos, len;
  PetscReal excess, dinv;
} GPUPCCMGRowCheck;

static inline GPUPC_CMG_HD GPUPCCMGRowCheck GPUPCCMGCheckRow(const GPUPCDevCSR *A, const GPUPCCMGReduceRule *rule, const PetscInt *isdir, const PetscInt *map, PetscInt i)
{
  GPUPCCMGRowCheck r = {0, 0, 1, 0.0, 0.0};
  PetscReal        d = 0.0, off = 0.0, offdir = 0.0, e;

  for (PetscInt k = A->i[i]; k < A->i[i + 1] && !r.fault; k++) {
    const PetscInt  j = A->j[k];
    const PetscReal a = A->a[k];
    if (!isfinite(a)) { /* (the host reduction then names the entry) */
      r.fault = 1;
      break;
    }
    if (j == i) {
      d += a;
      continue;
    }
    if (a == 0.0) continue;
    if (GPUPCCMGIsDir(isdir, map, j)) {
      offdir += fabs(a);
      continue;
    }
    if (rule->check_symmetry) {
      const PetscReal at = GPUPCCMGEntryOf(A, j, i);
      if (fabs(a - at) > rule->symmetry_tol * PetscMax(fabs(a), fabs(at))) r.fault = 1;
    }
    if (a > 0.0) {
      if (!rule->doublecover) r.fault = 1;
      r.npos++;
    }
    off += fabs(a);
    r.len++;
  }
  e = d - off - offdir;
  if (!r.fault && !(d > 0.0)) r.fault = 1;
  if (!r.fault && e < -rule->dominance_tol * d) r.fault = 1;
  if (r.fault) return r;
  if (e <= rule->dominance_tol * d) e = 0.0;
  r.excess = GPUPCCMGIsDir(isdir, map, i) ? 0.0 : e + offdir;
  r.dinv   = GPUPCCMGIsDir(isdir, map, i) ? 1.0 / d : 0.0;
  return r;
}

/* check_rows of gpupc/cmgsetupkernels.h for row i: its outputs bad[i], excess[i], dinv[i], strict[i], len[i], and the
   row's part of the counts added to cnt (bad, positive off-diagonals, strict) */
static inline GPUPC_CMG_HD void GPUPCCMGCheckRowStore(const GPUPCDevCSR *A, const GPUPCCMGReduceRule *rule, const PetscInt *isdir, PetscInt i, PetscReal *excess, PetscReal *dinv, PetscInt *bad, PetscInt *strict, PetscInt *len, PetscInt cnt[3])
{
  const GPUPCCMGRowCheck c = GPUPCCMGCheckRow(A, rule, isdir, NULL, i);

  bad[i]    = c.fault;
  excess[i] = c.excess;
  dinv[i]   = c.dinv;
  strict[i] = !c.fault && !isdir[i] && c.excess > 0.0;
  len[i]    = c.fault ? 0 : c.len + (c.excess > 0.0 ? 1 : 0);
  cnt[0] += c.fault;
  cnt[1] += c.fault ? 0 : c.npos;
  cnt[2] += strict[i];
}

/* The level-0 rows of kept row i (weight excess to the ground) with their columns in order, without a sort: the
   columns of copy 0 (< nk) before those of copy 1, inside a copy the order of the user's columns (map increases), the
   diagonal (the sum of |a_ij| in row order plus the excess) among its copy's negatives, the ground (the largest
   column) last. Writes the values into val and the columns into colout (when not NULL); with colin (not NULL) returns
   1 when the kept columns colin differ from these, else 0. rp holds the rows' lengths (a changed length is the
   caller's check). */
static inline GPUPC_CMG_HD PetscInt GPUPCCMGLevel0Row(const GPUPCDevCSR *A, const PetscInt *isdir, const PetscInt *map, PetscInt i, PetscReal excess, PetscInt nk, PetscInt copies, const PetscInt *rp, PetscInt *colout, const PetscInt *colin, PetscReal *val)
{
  PetscInt  nneg = 0, nposr = 0, before = 0, moved = 0;
  PetscReal sum = 0.0;

  for (PetscInt k = A->i[i]; k < A->i[i + 1]; k++) {
    const PetscInt  j = A->j[k];
    const PetscReal a = A->a[k];
    if (j == i || a == 0.0 || GPUPCCMGIsDir(isdir, map, j)) continue;
    if (a < 0.0) {
      nneg++;
      if (j < i) before++;
    } else nposr++;
    sum += fabs(a);
  }
  if (excess > 0.0) sum += excess;
  for (PetscInt c = 0; c < copies; c++) {
    const PetscInt r = c * nk + map[i], o = rp[r];
    /* where the same-copy part (negatives and the diagonal) and the other-copy part (positives) start */
    const PetscInt same = c == 0 ? o : o + nposr, other = c == 0 ? o + nneg + 1 : o;
    PetscInt       qn = 0, qp = 0, q, cl;

    if (colout) colout[same + before] = r;
    if (colin) moved |= colin[same + before] != r;
    val[same + before] = sum;
    for (PetscInt k = A->i[i]; k < A->i[i + 1]; k++) {
      const PetscInt  j = A->j[k];
      const PetscReal a = A->a[k];
      if (j == i || a == 0.0 || GPUPCCMGIsDir(isdir, map, j)) continue;
      if (a < 0.0) {
        q  = same + qn + (qn >= before ? 1 : 0);
        cl = c * nk + map[j];
        qn++;
      } else {
        q  = other + qp;
        cl = (1 - c) * nk + map[j];
        qp++;
      }
      if (colout) colout[q] = cl;
      if (colin) moved |= colin[q] != cl;
      val[q] = -fabs(a);
    }
    if (excess > 0.0) {
      if (colout) colout[rp[r + 1] - 1] = copies * nk;
      if (colin) moved |= colin[rp[r + 1] - 1] != copies * nk;
      val[rp[r + 1] - 1] = -excess;
    }
  }
  return moved;
}

/* the value-only reuse of kept row i (level0_refill of gpupc/cmgsetupkernels.h): the checks of GPUPCCMGCheckRow, the
   values of GPUPCCMGLevel0Row on the kept columns col; *excess, *dinv as check_rows writes them (0 on a faulty or
   changed row). Returns 0 (the row's level-0 rows written), 1 (faulty) or 2 (the kept structure does not hold these
   values: the row turned Dirichlet or stopped being one, or its level-0 rows would have other lengths or columns). */
static inline GPUPC_CMG_HD PetscInt GPUPCCMGRefillRow(const GPUPCDevCSR *A, const GPUPCCMGReduceRule *rule, const PetscInt *map, PetscInt i, PetscInt nk, PetscInt copies, const PetscInt *rp, const PetscInt *col, PetscReal *excess, PetscReal *dinv, PetscReal *val, PetscInt *npos, PetscInt *strict)
{
  const PetscInt   isdir = map[i] < 0;
  GPUPCCMGRowCheck c;
  PetscInt         moved = 0;

  *excess = 0.0;
  *dinv   = 0.0;
  *npos   = 0;
  *strict = 0;
  if (GPUPCCMGRowDirichlet(A, rule, i) != isdir) return 2;
  c = GPUPCCMGCheckRow(A, rule, NULL, map, i);
  if (c.fault) return 1;
  *excess = c.excess;
  *dinv   = c.dinv;
  *npos   = c.npos;
  *strict = !isdir && c.excess > 0.0;
  if (isdir) return 0;
  for (PetscInt k = 0; k < copies && !moved; k++) moved = rp[k * nk + map[i] + 1] - rp[k * nk + map[i]] != c.len + (c.excess > 0.0 ? 1 : 0);
  if (!moved) moved = GPUPCCMGLevel0Row(A, NULL, map, i, c.excess, nk, copies, rp, NULL, col, val);
  return moved ? 2 : 0;
}

#endif

/*
   Host reference of the device sparse kernels of the setups (gpupc/sparsekernels.h): plain loops, one pass per
   row or entry, with a dense marker of the columns where a row is formed (SpGEMM) and counting sorts (transpose,
   sort-and-reduce), so each member is linear in its work: CI runs it at 10^5 - 10^6 rows.

   spgemm_values adds c_ij += a_ik b_kj over k in A's row order with the product rounded before the add; the CUDA
   table's deterministic mode does the same, so they agree bit for bit. A compiler that contracts a*b + c into a fused
   multiply-add would break that: contraction is off in this file.
*/
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif
#include <gpupc/sparsekernels.h>

static PetscErrorCode RowPtr_Host(PetscInt n, PetscInt *ptr, PetscInt *total, size_t *peak)
{
  PetscInt64 sum = 0;

  PetscFunctionBegin;
  if (peak) *peak = 0;
  for (PetscInt k = 0; k < n; k++) {
    PetscCheck(ptr[k + 1] >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "rowptr: count %" PetscInt_FMT " of %" PetscInt_FMT " is negative (%" PetscInt_FMT ")", k, n, ptr[k + 1]);
    sum += ptr[k + 1];
  }
  PetscCall(GPUPCSparseCheckSize(sum, n, "rowptr"));
  ptr[0] = 0;
  for (PetscInt k = 0; k < n; k++) ptr[k + 1] += ptr[k];
  *total = ptr[n];
  PetscFunctionReturn(0);
}

static PetscErrorCode Compact_Host(PetscInt n, const PetscInt *marks, PetscInt value, PetscInt *list, PetscInt *map, PetscInt *count, size_t *peak)
{
  PetscInt c = 0;

  if (peak) *peak = 0;
  for (PetscInt k = 0; k < n; k++) {
    const PetscBool hit = (PetscBool)(marks[k] == value);
    if (map) map[k] = hit ? c : -1;
    if (hit && list) list[c] = k;
    c += hit;
  }
  *count = c;
  return 0;
}

static PetscErrorCode Diagonal_Host(const GPUPCDevCSR *A, PetscScalar *d)
{
  PetscCheck(A->a || !A->nnz, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "diagonal: the matrix is a pattern");
  for (PetscInt r = 0; r < A->m; r++) {
    d[r] = 0.0;
    for (PetscInt e = A->i[r]; e < A->i[r + 1]; e++)
      if (A->j[e] == r) d[r] = A->a[e];
  }
  return 0;
}

static PetscErrorCode Nonzero_Host(const GPUPCDevCSR *A, PetscInt doff, char *keep)
{
  PetscCheck(A->a || !A->nnz, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "nonzero: the matrix is a pattern");
  for (PetscInt r = 0; r < A->m; r++)
    for (PetscInt e = A->i[r]; e < A->i[r + 1]; e++) keep[e] = (char)(A->a[e] != 0.0 || A->j[e] == r + doff);
  return 0;
}

static PetscErrorCode Check_Host(const GPUPCDevCSR *A, PetscInt *row, PetscInt *fault)
{
  *row   = -1;
  *fault = GPUPC_CSR_OK;
  if (A->m > 0 && (A->i[0] != 0)) {
    *row   = 0;
    *fault = GPUPC_CSR_ROWPTR;
    return 0;
  }
  for (PetscInt r = 0; r < A->m; r++) {
    const PetscInt b = A->i[r], e = A->i[r + 1];
    if (b < 0 || e < b || e > A->nnz || (r == A->m - 1 && e != A->nnz)) {
      *row   = r;
      *fault = GPUPC_CSR_ROWPTR;
      return 0;
    }
    for (PetscInt k = b; k < e; k++) {
      if (A->j[k] < 0 || A->j[k] >= A->n) {
        *row   = r;
        *fault = GPUPC_CSR_COLUMN;
        return 0;
      }
      if (k > b && A->j[k] <= A->j[k - 1]) {
        *row   = r;
        *fault = GPUPC_CSR_UNSORTED;
        return 0;
      }
    }
  }
  return 0;
}

static PetscErrorCode Expand_Host(const GPUPCDevCSR *A, const PetscInt *rmap, const PetscInt *cmap, PetscInt *ci, PetscInt *cj)
{
  for (PetscInt r = 0; r < A->m; r++)
    for (PetscInt e = A->i[r]; e < A->i[r + 1]; e++) {
      if (ci) ci[e] = rmap ? rmap[r] : r;
      if (cj) cj[e] = cmap ? cmap[A->j[e]] : A->j[e];
    }
  return 0;
}

/* entry e of A is kept by an extraction */
static inline PetscBool Kept(const GPUPCDevCSR *A, PetscInt e, const char *keep, const PetscInt *cmap)
{
  return (PetscBool)((!keep || keep[e]) && (!cmap || cmap[A->j[e]] >= 0));
}

static PetscErrorCode ExtractCount_Host(const GPUPCDevCSR *A, PetscInt nrows, const PetscInt *rows, const char *keep, const PetscInt *cmap, PetscInt *Bi)
{
  for (PetscInt q = 0; q < nrows; q++) {
    const PetscInt r = rows ? rows[q] : q;
    PetscInt       c = 0;
    for (PetscInt e = A->i[r]; e < A->i[r + 1]; e++) c += Kept(A, e, keep, cmap);
    Bi[q + 1] = c;
  }
  return 0;
}

static PetscErrorCode ExtractFill_Host(const GPUPCDevCSR *A, PetscInt nrows, const PetscInt *rows, const char *keep, const PetscInt *cmap, GPUPCDevCSR *B)
{
  PetscCheck(!B->a || A->a || !A->nnz, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "extract_fill: B has values but A is a pattern");
  for (PetscInt q = 0; q < nrows; q++) {
    const PetscInt r = rows ? rows[q] : q;
    PetscInt       p = B->i[q];
    for (PetscInt e = A->i[r]; e < A->i[r + 1]; e++) {
      if (!Kept(A, e, keep, cmap)) continue;
      B->j[p] = cmap ? cmap[A->j[e]] : A->j[e];
      if (B->a) B->a[p] = A->a[e];
      p++;
    }
  }
  return 0;
}

/* counting sort of A's entries by column, rows visited in order: each row of R lists A's rows in increasing order */
static PetscErrorCode Transpose_Host(const GPUPCDevCSR *A, GPUPCDevCSR *R, PetscInt *perm, size_t *peak)
{
  PetscInt *fill;

  PetscFunctionBegin;
  PetscCall(GPUPCSparseCheckTranspose(A, R));
  PetscCall(PetscMalloc1(A->n + 1, &fill));
  if (peak) *peak = (size_t)(A->n + 1) * sizeof(PetscInt);
  PetscCall(PetscArrayzero(R->i, A->n + 1));
  for (PetscInt e = 0; e < A->nnz; e++) R->i[A->j[e] + 1]++;
  for (PetscInt c = 0; c < A->n; c++) R->i[c + 1] += R->i[c];
  PetscCall(PetscArraycpy(fill, R->i, A->n + 1));
  for (PetscInt r = 0; r < A->m; r++)
    for (PetscInt e = A->i[r]; e < A->i[r + 1]; e++) {
      const PetscInt q = fill[A->j[e]]++;
      R->j[q]          = r;
      if (R->a) R->a[q] = A->a[e];
      if (perm) perm[q] = e;
    }
  PetscCall(PetscFree(fill));
  PetscFunctionReturn(0);
}

/* two stable counting sorts (by column, then by row) of the kept entries */
static PetscErrorCode COOSort_Host(PetscInt m, PetscInt n, PetscInt nent, const PetscInt *ci, const PetscInt *cj, PetscInt *perm, PetscInt *dst, PetscInt *Ci, PetscInt *nkept, PetscInt *nnz, size_t *peak)
{
  PetscInt *cnt, *bycol, kept = 0, s = -1;

  PetscFunctionBegin;
  for (PetscInt e = 0; e < nent; e++) {
    if (ci[e] < 0 || cj[e] < 0) continue;
    PetscCall(GPUPCSparseCheckCOOEntry(e, ci[e], cj[e], m, n));
    kept++;
  }
  PetscCall(PetscMalloc2(PetscMax(m, n) + 1, &cnt, kept, &bycol));
  if (peak) *peak = (size_t)(PetscMax(m, n) + 1 + kept) * sizeof(PetscInt);
  PetscCall(PetscArrayzero(cnt, n + 1));
  for (PetscInt e = 0; e < nent; e++)
    if (ci[e] >= 0 && cj[e] >= 0) cnt[cj[e] + 1]++;
  for (PetscInt c = 0; c < n; c++) cnt[c + 1] += cnt[c];
  for (PetscInt e = 0; e < nent; e++)
    if (ci[e] >= 0 && cj[e] >= 0) bycol[cnt[cj[e]]++] = e;
  PetscCall(PetscArrayzero(cnt, m + 1));
  for (PetscInt q = 0; q < kept; q++) cnt[ci[bycol[q]] + 1]++;
  for (PetscInt r = 0; r < m; r++) cnt[r + 1] += cnt[r];
  for (PetscInt q = 0; q < kept; q++) perm[cnt[ci[bycol[q]]]++] = bycol[q];
  /* distinct (row, column) pairs in sorted order, counted per row */
  PetscCall(PetscArrayzero(Ci, m + 1));
  for (PetscInt q = 0; q < kept; q++) {
    const PetscInt e = perm[q];
    if (q == 0 || ci[e] != ci[perm[q - 1]] || cj[e] != cj[perm[q - 1]]) {
      s++;
      Ci[ci[e] + 1]++;
    }
    dst[q] = s;
  }
  for (PetscInt r = 0; r < m; r++) Ci[r + 1] += Ci[r];
  *nkept = kept;
  *nnz   = s + 1;
  PetscCall(PetscFree2(cnt, bycol));
  PetscFunctionReturn(0);
}

static PetscErrorCode COOPattern_Host(PetscInt nkept, const PetscInt *perm, const PetscInt *dst, const PetscInt *cj, PetscInt nnz, PetscInt *Cj, PetscInt *seg)
{
  for (PetscInt q = 0; q < nkept; q++)
    if (q == 0 || dst[q] != dst[q - 1]) {
      Cj[dst[q]]  = cj[perm[q]];
      seg[dst[q]] = q;
    }
  seg[nnz] = nkept;
  return 0;
}

static PetscErrorCode COOSum_Host(PetscInt nnz, const PetscInt *seg, const PetscInt *perm, const PetscScalar *v, PetscScalar *Ca)
{
  for (PetscInt s = 0; s < nnz; s++) {
    PetscScalar sum = v[perm[seg[s]]];
    for (PetscInt q = seg[s] + 1; q < seg[s + 1]; q++) sum += v[perm[q]];
    Ca[s] = sum;
  }
  return 0;
}

/* marker of the columns of B seen in the current row (the row's number, -1: none yet) */
static PetscErrorCode MarkerCreate(PetscInt n, PetscInt **mark, size_t *peak)
{
  PetscFunctionBegin;
  PetscCall(PetscMalloc1(n, mark));
  for (PetscInt c = 0; c < n; c++) (*mark)[c] = -1;
  if (peak) *peak = (size_t)n * sizeof(PetscInt);
  PetscFunctionReturn(0);
}

static PetscErrorCode SpGEMMCount_Host(const GPUPCDevCSR *A, const GPUPCDevCSR *B, PetscInt *Ci, PetscInt *nnz, size_t *peak)
{
  PetscInt *mark;

  PetscFunctionBegin;
  PetscCall(GPUPCSparseCheckProduct(A, B, NULL));
  PetscCall(MarkerCreate(B->n, &mark, peak));
  for (PetscInt r = 0; r < A->m; r++) {
    PetscInt c = 0;
    for (PetscInt k = A->i[r]; k < A->i[r + 1]; k++)
      for (PetscInt t = B->i[A->j[k]]; t < B->i[A->j[k] + 1]; t++)
        if (mark[B->j[t]] != r) {
          mark[B->j[t]] = r;
          c++;
        }
    Ci[r + 1] = c;
  }
  PetscCall(PetscFree(mark));
  PetscCall(RowPtr_Host(A->m, Ci, nnz, NULL));
  PetscFunctionReturn(0);
}

static PetscErrorCode SpGEMMPattern_Host(const GPUPCDevCSR *A, const GPUPCDevCSR *B, GPUPCDevCSR *C, size_t *peak)
{
  PetscInt *mark, bad = -1, c = 0, len = 0;

  PetscFunctionBegin;
  PetscCall(GPUPCSparseCheckProduct(A, B, C));
  PetscCall(MarkerCreate(B->n, &mark, peak));
  for (PetscInt r = 0; r < A->m && bad < 0; r++) {
    len = C->i[r + 1] - C->i[r];
    c   = 0;
    for (PetscInt k = A->i[r]; k < A->i[r + 1]; k++)
      for (PetscInt t = B->i[A->j[k]]; t < B->i[A->j[k] + 1]; t++)
        if (mark[B->j[t]] != r) {
          mark[B->j[t]] = r;
          if (c < len) C->j[C->i[r] + c] = B->j[t];
          c++;
        }
    if (c != len) bad = r;
    else PetscCall(PetscSortInt(len, C->j + C->i[r]));
  }
  PetscCall(PetscFree(mark));
  PetscCheck(bad < 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "spgemm_pattern: row %" PetscInt_FMT " of the product has %" PetscInt_FMT " entries, its row pointers say %" PetscInt_FMT ": C's row pointers are not spgemm_count's for these A and B", bad, c, len);
  PetscFunctionReturn(0);
}

static PetscErrorCode SpGEMMValues_Host(const GPUPCDevCSR *A, const GPUPCDevCSR *B, GPUPCDevCSR *C, PetscBool deterministic, size_t *peak)
{
  PetscInt *pos; /* pos[c]: where column c is in the current row of C, -1: not in it */
  PetscInt  badrow = -1, badcol = -1;

  PetscFunctionBegin;
  PetscCall(GPUPCSparseCheckProductValues(A, B, C));
  PetscCall(MarkerCreate(B->n, &pos, peak));
  for (PetscInt r = 0; r < A->m && badrow < 0; r++) {
    for (PetscInt p = C->i[r]; p < C->i[r + 1]; p++) {
      pos[C->j[p]] = p;
      C->a[p]      = 0.0;
    }
    for (PetscInt k = A->i[r]; k < A->i[r + 1]; k++) {
      const PetscScalar a = A->a[k];
      for (PetscInt t = B->i[A->j[k]]; t < B->i[A->j[k] + 1]; t++) {
        const PetscInt    p    = pos[B->j[t]];
        const PetscScalar prod = a * B->a[t];
        if (p < 0) {
          badrow = r;
          badcol = B->j[t];
        } else C->a[p] += prod;
      }
    }
    for (PetscInt p = C->i[r]; p < C->i[r + 1]; p++) pos[C->j[p]] = -1;
  }
  PetscCall(PetscFree(pos));
  PetscCheck(badrow < 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "spgemm_values: the product has an entry (%" PetscInt_FMT ", %" PetscInt_FMT ") outside C's pattern: the patterns of A or B changed since the symbolic product; redo it (MAT_INITIAL_MATRIX)", badrow, badcol);
  PetscFunctionReturn(0);
}

/* two sorted runs per row, merged: the smaller column first (a tie, which the rules exclude, takes A's entry first) */
static PetscErrorCode Merge_Host(const GPUPCDevCSR *A, const PetscInt *acol, PetscInt aoff, const GPUPCDevCSR *B, const PetscInt *bcol, PetscInt boff, GPUPCDevCSR *C)
{
  PetscFunctionBegin;
  PetscCheck(A->m == B->m && A->m == C->m, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "merge: A has %" PetscInt_FMT " rows, B %" PetscInt_FMT ", C %" PetscInt_FMT, A->m, B->m, C->m);
  PetscCheck(!C->a || ((A->a || !A->nnz) && (B->a || !B->nnz)), PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "merge: C has values but A or B is a pattern");
  for (PetscInt r = 0; r <= A->m; r++) C->i[r] = (A->m ? A->i[r] + B->i[r] : 0);
  for (PetscInt r = 0; r < A->m; r++) {
    PetscInt ka = A->i[r], kb = B->i[r], q = C->i[r];
    while (ka < A->i[r + 1] || kb < B->i[r + 1]) {
      const PetscInt ca = ka < A->i[r + 1] ? (acol ? acol[A->j[ka]] : A->j[ka]) + aoff : PETSC_MAX_INT;
      const PetscInt cb = kb < B->i[r + 1] ? (bcol ? bcol[B->j[kb]] : B->j[kb]) + boff : PETSC_MAX_INT;
      if (ka < A->i[r + 1] && ca <= cb) {
        C->j[q] = ca;
        if (C->a) C->a[q] = A->a[ka];
        ka++;
      } else {
        C->j[q] = cb;
        if (C->a) C->a[q] = B->a[kb];
        kb++;
      }
      q++;
    }
  }
  PetscFunctionReturn(0);
}

/* the keys sorted with their places (a comparison sort), then the runs of equal keys numbered */
static PetscErrorCode Unique_Host(PetscInt n, const PetscInt *keys, PetscInt *list, PetscInt *map, PetscInt *count, size_t *peak)
{
  PetscInt *k, *at, c = -1;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(n, &k, n, &at));
  if (peak) *peak = (size_t)2 * n * sizeof(PetscInt);
  PetscCall(PetscArraycpy(k, keys, n));
  for (PetscInt q = 0; q < n; q++) at[q] = q;
  PetscCall(PetscSortIntWithArray(n, k, at));
  for (PetscInt q = 0; q < n; q++) {
    if (q == 0 || k[q] != k[q - 1]) {
      c++;
      if (list) list[c] = k[q];
    }
    if (map) map[at[q]] = c;
  }
  *count = c + 1;
  PetscCall(PetscFree2(k, at));
  PetscFunctionReturn(0);
}

/* a binary search per key */
static PetscErrorCode Search_Host(PetscInt nl, const PetscInt *list, PetscInt nk, const PetscInt *keys, PetscInt *pos, PetscInt *seg, PetscInt *off)
{
  PetscFunctionBegin;
  PetscCheck(nl >= 1 || (!seg && !off), PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "search: ranges need a list of at least one bound");
  for (PetscInt k = 0; k < nk; k++) {
    const PetscInt x  = keys[k];
    PetscInt       lo = 0, hi = nl;
    while (lo < hi) { /* the first entry >= x */
      const PetscInt mid = lo + (hi - lo) / 2;
      if (list[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    if (pos) pos[k] = lo;
    hi = nl;
    while (lo < hi) { /* the first entry > x */
      const PetscInt mid = lo + (hi - lo) / 2;
      if (list[mid] <= x) lo = mid + 1;
      else hi = mid;
    }
    if (seg) seg[k] = lo - 1;
    if (off) off[k] = lo >= 1 && lo < nl ? x - list[lo - 1] : -1;
  }
  PetscFunctionReturn(0);
}

/* the table: every member's Stem_Host from GPUPC_SPARSE_KERNEL_LIST, by name (gpupc/kerneltable.h) */
static PetscErrorCode Locate_Host(PetscInt nk, const PetscInt *keys, PetscInt lo, PetscInt hi, PetscInt nl, const PetscInt *list, PetscInt loff, PetscBool init, PetscInt *out)
{
  for (PetscInt k = 0; k < nk; k++) {
    const PetscInt g = keys[k];
    PetscInt       a = 0, b = nl;
    if (g >= lo && g < hi) {
      out[k] = g - lo;
      continue;
    }
    while (a < b) { /* lower bound of g in list */
      const PetscInt mid = a + (b - a) / 2;
      if (list[mid] < g) a = mid + 1;
      else b = mid;
    }
    if (a < nl && list[a] == g) out[k] = a + loff;
    else if (init) out[k] = -1;
  }
  return 0;
}

GPUPC_KERNEL_TABLE_DEFINE(GPUPCSparseKernels, GPUPCSparseKernelsHost, GPUPC_SPARSE_KERNEL_LIST, "host", _Host);

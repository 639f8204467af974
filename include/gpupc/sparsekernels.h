/*
   gpupc/sparsekernels.h - the device sparse kernels of the setups (private to GPUPC and its tests): CSR transpose,
   SpGEMM (symbolic, then numeric; the numeric alone again for new values on the same pattern), sort-and-reduce of
   (row, column, value) triples into CSR, and the small pieces around them (row pointers from counts, compaction of
   marked indices, extraction of rows and entries, COO indices of a CSR, the diagonal, a validity check, the merge of
   two CSR's rows, the distinct values of a list, searches in a sorted list, global to local numbers). One table
   serves PC gpuamg's and PC cmg's device setups and the distributed setup's rank-local parts.

   GPUPCSparseKernels is declared once by GPUPC_SPARSE_KERNEL_LIST (gpupc/kerneltable.h). GPUPCSparseKernelsHost
   (src/mat/utils/host) is the plain C reference, GPUPCSparseKernelsCUDA (src/mat/utils/cuda) the CUDA version;
   GPUPCGetSparseKernels() picks by backend. The algorithms are in docs/algorithms.md ("device sparse kernels of the
   setups").

   Conventions of every member:
   - All arrays are device arrays of the table's world (on the host backend, and for the host table that the tests run
     beside the CUDA one: host arrays). Outputs are allocated by the caller; a member allocates only temporaries (the
     CUDA table through GPUPCMalloc, so they are counted in PetscGPUPCDeviceMemoryInUse(); the host table on the host
     heap) and frees them before it returns. Where an output's size depends on the data, a first member gives the size
     (spgemm_count, coo_sort, extract_count with rowptr), the caller allocates, a second member fills it.
   - size_t *peak (may be NULL) returns the largest number of temporary bytes the call held at once: what the setup
     needs beyond its inputs and outputs (issue: peak device memory of the setup in -ksp_view).
   - Sizes that could pass 2^31 - 1 (the entries of a product, of an extraction, of a scan) are summed in 64 bits and
     refused with a PETSc error that names them; nothing wraps around silently.
   - Row pointers are PetscInt: i[0] = 0, nondecreasing, i[m] = nnz.

   Results: transpose, the COO members, extraction, compaction, expansion, merge and the diagonal move values without
   arithmetic (bit-identical on both tables); coo_sum adds the duplicates of one (row, column) in input order, one
   after the other, on both tables (bit-identical); spgemm_values with deterministic true adds the products of an
   entry c_ij in the order of A's row i (a_ik b_kj, k in row order, each product rounded before the add, never fused)
   on both tables, so they agree bit for bit; with deterministic false the CUDA table adds them in any order (equal up
   to rounding: |difference| <= (terms + 2) eps sum |a_ik b_kj|).
*/
#ifndef GPUPC_SPARSEKERNELS_H
#define GPUPC_SPARSEKERNELS_H

#include <petscmat.h>
#include <gpupc/kerneltable.h>

/* A CSR matrix in device memory (the arrays in the table's world). The columns of each row are sorted and unique
   (every member relies on it for its inputs and gives it for its outputs); a is NULL for a pattern. */
typedef struct {
  PetscInt     m, n; /* rows, columns */
  PetscInt     nnz;  /* entries: i[m] */
  PetscInt    *i;    /* m + 1 row pointers */
  PetscInt    *j;    /* nnz columns, in [0, n), increasing within a row */
  PetscScalar *a;    /* nnz values, or NULL */
} GPUPCDevCSR;

/* what the check member found wrong with a CSR (the first bad row's fault) */
typedef enum {
  GPUPC_CSR_OK = 0,
  GPUPC_CSR_ROWPTR,   /* i[0] != 0, i[r+1] < i[r], or i[m] != nnz */
  GPUPC_CSR_COLUMN,   /* a column outside [0, n) */
  GPUPC_CSR_UNSORTED, /* the columns of the row are not increasing (unsorted or repeated) */
} GPUPCDevCSRFault;

/* The table, one line per kernel: X(A, member, Stem, (parameters)) (gpupc/kerneltable.h); the host implementation of a
   member is Stem_Host (src/mat/utils/host), the CUDA one Stem_CUDA (src/mat/utils/cuda). */
#define GPUPC_SPARSE_KERNEL_LIST(X, A)                                                                                                                                                                \
  /* row pointers from counts, in place: on entry ptr[k+1] holds count k (>= 0), k < n; on exit ptr[0] = 0 and ptr[k+1] = \
     ptr[k] + count k; *total = ptr[n] (host). A total above PETSC_MAX_INT is an error and leaves ptr as it was */                                                                           \
  X(A, rowptr, RowPtr, (PetscInt n, PetscInt * ptr, PetscInt * total, size_t * peak))                                                                                                                 \
  /* the indices k < n with marks[k] == value: list[0 .. *count) ascending (list NULL: not written), map[k] = the place of \
     k in that list or -1 when marks[k] != value (map NULL: not written); *count on the host */                                                                          \
  X(A, compact, Compact, (PetscInt n, const PetscInt *marks, PetscInt value, PetscInt *list, PetscInt *map, PetscInt *count, size_t *peak))                                                           \
  /* d[r] = a_rr, 0 where the row does not store it (and for r >= n), r < m; the columns of a row need not be sorted \
     here (the local parts with ghosts list their rows in global column order) */                                                                                \
  X(A, diagonal, Diagonal, (const GPUPCDevCSR *A, PetscScalar *d))                                                                                                                                    \
  /* keep[e] = 1 for A's entries with a nonzero value or on the diagonal (row r's diagonal is column r + doff: doff \
     places a block's rows among its columns, e.g. the owned rows of a distributed matrix with global columns), else \
     0; A->a needed. For the extract members: a matrix without its explicit zeros, the diagonal kept */                                                                                 \
  X(A, nonzero, Nonzero, (const GPUPCDevCSR *A, PetscInt doff, char *keep))                                                                                                                           \
  /* *row = the first row of A that breaks the CSR rules above (-1: none), *fault = what it breaks (GPUPCDevCSRFault; \
     a bad i[0] or i[m] counts for row 0 or row m - 1); on the host */                                                                               \
  X(A, check, Check, (const GPUPCDevCSR *A, PetscInt *row, PetscInt *fault))                                                                                                                          \
  /* COO indices of A's entries: ci[e] = rmap[r] (r when rmap is NULL) for the row r of entry e, cj[e] = cmap[A->j[e]] \
     (A->j[e] when cmap is NULL); ci or cj NULL: not written */                                                                              \
  X(A, expand, Expand, (const GPUPCDevCSR *A, const PetscInt *rmap, const PetscInt *cmap, PetscInt *ci, PetscInt *cj))                                                                                \
  /* extraction, first pass: Bi[q+1] = the entries e of row rows[q] (q when rows is NULL) of A that are kept, q < nrows: \
     keep[e] != 0 (keep NULL: all) and cmap[A->j[e]] >= 0 (cmap NULL: all); Bi[0] is not written (rowptr makes the \
     row pointers) */                                                                            \
  X(A, extract_count, ExtractCount, (const GPUPCDevCSR *A, PetscInt nrows, const PetscInt *rows, const char *keep, const PetscInt *cmap, PetscInt *Bi))                                               \
  /* extraction, second pass: B's rows (B->i from the first pass and rowptr) get the kept entries in A's order, columns \
     cmap[A->j[e]] (A->j[e] when cmap is NULL: then B's columns are sorted when cmap increases on the kept columns), \
     values A->a[e] when B->a is not NULL */                                                                             \
  X(A, extract_fill, ExtractFill, (const GPUPCDevCSR *A, PetscInt nrows, const PetscInt *rows, const char *keep, const PetscInt *cmap, GPUPCDevCSR *B))                                               \
  /* R = A^T: R->m = A->n rows, R->n = A->m, R->nnz = A->nnz, arrays allocated by the caller; each row of R lists A's \
     rows in increasing order; R->a (when not NULL) gets A's values; perm (nnz, may be NULL): R's entry q is A's entry \
     perm[q], so new values of A on the same pattern give R's as R->a[q] = A->a[perm[q]] */                                                                               \
  X(A, transpose, Transpose, (const GPUPCDevCSR *A, GPUPCDevCSR *R, PetscInt *perm, size_t *peak))                                                                                                    \
  /* sort-and-reduce of COO triples into an m x n CSR, first pass: entry e = (ci[e], cj[e]), e < nent; a negative index \
     drops the entry, one >= m (row) or >= n (column) is an error naming it. perm[q], q < *nkept: the kept entries sorted \
     by (row, column), entries of the same (row, column) in input order; dst[q]: the CSR entry that sorted entry q adds \
     to; Ci (m + 1): the row pointers of the distinct (row, column) pairs; *nkept, *nnz on the host. perm and dst are \
     allocated with nent entries */                                                                             \
  X(A, coo_sort, COOSort, (PetscInt m, PetscInt n, PetscInt nent, const PetscInt *ci, const PetscInt *cj, PetscInt *perm, PetscInt *dst, PetscInt *Ci, PetscInt *nkept, PetscInt *nnz, size_t *peak)) \
  /* second pass: Cj (nnz) the columns of the distinct pairs (sorted within each row), seg (nnz + 1): the sorted entries \
     seg[s] .. seg[s+1]-1 add to CSR entry s */                                                                            \
  X(A, coo_pattern, COOPattern, (PetscInt nkept, const PetscInt *perm, const PetscInt *dst, const PetscInt *cj, PetscInt nnz, PetscInt *Cj, PetscInt *seg))                                           \
  /* values (first time and for new values v of the same triples): Ca[s] = sum of v[perm[q]] over q = seg[s] .. \
     seg[s+1]-1, added one after the other in that order (input order) */                                                                                     \
  X(A, coo_sum, COOSum, (PetscInt nnz, const PetscInt *seg, const PetscInt *perm, const PetscScalar *v, PetscScalar *Ca))                                                                             \
  /* C = A B, symbolic first pass: Ci (A->m + 1) the row pointers of C's pattern (the union of the rows of B that A's \
     row selects; entries whose products cancel stay), *nnz on the host (more than PETSC_MAX_INT: an error naming it) */                                                                               \
  X(A, spgemm_count, SpGEMMCount, (const GPUPCDevCSR *A, const GPUPCDevCSR *B, PetscInt *Ci, PetscInt *nnz, size_t *peak))                                                                            \
  /* symbolic second pass: C->j (C->i from spgemm_count), sorted within each row */                                                                                                                   \
  X(A, spgemm_pattern, SpGEMMPattern, (const GPUPCDevCSR *A, const GPUPCDevCSR *B, GPUPCDevCSR *C, size_t *peak))                                                                                     \
  /* numeric: C->a on the pattern C->i, C->j (from the symbolic passes, kept for new values of A and B on the same \
     patterns); a product outside C's pattern is an error. deterministic: each entry sums its products in A's row order \
     (bit-identical on both tables); otherwise the CUDA table adds them in any order */                                                                                  \
  X(A, spgemm_values, SpGEMMValues, (const GPUPCDevCSR *A, const GPUPCDevCSR *B, GPUPCDevCSR *C, PetscBool deterministic, size_t *peak))                                                              \
  /* C's rows = A's and B's rows (A->m == B->m == C->m) merged by column: A's entry e gets column (acol ? acol[A->j[e]] : \
     A->j[e]) + aoff, B's likewise; each map must increase along a row and the columns of a merged row be distinct (so C's \
     rows are sorted). C->i (m + 1) and C->j (A->nnz + B->nnz) are written, C->a when not NULL (A->a and B->a then \
     needed); values moved. New values on the same patterns: merge again */                                                                           \
  X(A, merge, Merge, (const GPUPCDevCSR *A, const PetscInt *acol, PetscInt aoff, const GPUPCDevCSR *B, const PetscInt *bcol, PetscInt boff, GPUPCDevCSR *C))                                          \
  /* the distinct values of keys[0 .. n): list[0 .. *count) ascending (list NULL: not written; room for n), map[k] = the \
     place of keys[k] in list (map NULL: not written; map may be keys itself); *count on the host */                                                                            \
  X(A, unique, Unique, (PetscInt n, const PetscInt *keys, PetscInt *list, PetscInt *map, PetscInt *count, size_t *peak))                                                                              \
  /* keys against the nondecreasing list[0 .. nl), nl >= 1, read as the bounds of the ranges [list[s], list[s+1]): \
     pos[k] = the list entries below keys[k] (a lower bound); seg[k] = the list entries at or below keys[k], minus one \
     (-1 below list[0], nl - 1 at or above list[nl-1]; of equal bounds the last, so an empty range is never found); \
     off[k] = keys[k] - list[seg[k]] when 0 <= seg[k] < nl - 1, else -1. Any of pos, seg, off may be NULL */                                                                                  \
  X(A, search, Search, (PetscInt nl, const PetscInt *list, PetscInt nk, const PetscInt *keys, PetscInt *pos, PetscInt *seg, PetscInt *off))                                                           \
  /* global to local numbers: out[k] = keys[k] - lo when lo <= keys[k] < hi (an owned range; lo == hi: none), else q + \
     loff when list[q] == keys[k] (list[0 .. nl) increasing; a ghost list), else -1 (init) or out[k] as it was (init \
     false: a second list fills what a first left at -1) */                                                                              \
  X(A, locate, Locate, (PetscInt nk, const PetscInt *keys, PetscInt lo, PetscInt hi, PetscInt nl, const PetscInt *list, PetscInt loff, PetscBool init, PetscInt *out))

typedef GPUPC_KERNEL_TABLE(GPUPC_SPARSE_KERNEL_LIST) GPUPCSparseKernels;

/* member k of the list is GPUPC_SPARSE_KERNEL_<member> = k; its name is GPUPCSparseKernelNames[k] */
typedef enum {
  GPUPC_SPARSE_KERNEL_LIST(GPUPC_KERNEL_ENUM, GPUPC_SPARSE_KERNEL_)
  GPUPC_SPARSE_NKERNELS
} GPUPCSparseKernelIndex;
PETSC_EXTERN const char *const GPUPCSparseKernelNames[];

PETSC_INTERN const GPUPCSparseKernels GPUPCSparseKernelsHost;
#if defined(GPUPC_HAVE_CUDA)
PETSC_INTERN const GPUPCSparseKernels GPUPCSparseKernelsCUDA;
#endif
/* developers' tuning of the CUDA SpGEMM's values pass (-gpupc_spgemm_lanes): lanes a row of C, 8, 16 or 32; 0 (default)
   chooses by the products a row */
PETSC_EXTERN PetscErrorCode GPUPCSparseSetSpGEMMLanes(PetscInt);
PETSC_EXTERN PetscErrorCode GPUPCSparseGetSpGEMMLanes(PetscInt *);
/* the table of the active backend, and a table by backend (for tests that compare the two) */
PETSC_EXTERN PetscErrorCode GPUPCGetSparseKernels(const GPUPCSparseKernels **);
PETSC_EXTERN PetscErrorCode GPUPCGetSparseKernelsFor(PetscGPUPCBackend, const GPUPCSparseKernels **);

/* ---------------------------------------------------------------- operations on the active backend (src/mat/utils)
   What the setups call: the members above in their order, outputs allocated with GPUPCMalloc, -log_view events. */

/* a device CSR of the given shape with its arrays allocated (values: a too); GPUPCDevCSRDestroy frees them */
PETSC_EXTERN PetscErrorCode GPUPCDevCSRCreate(PetscInt, PetscInt, PetscInt, PetscBool, GPUPCDevCSR *);
PETSC_EXTERN PetscErrorCode GPUPCDevCSRDestroy(GPUPCDevCSR *);
/* a copy of a SEQAIJ matrix (or a type derived from it) on the device, and back into a new SEQAIJ matrix */
PETSC_EXTERN PetscErrorCode GPUPCDevCSRFromMat(Mat, GPUPCDevCSR *);
PETSC_EXTERN PetscErrorCode GPUPCDevCSRToMat(const GPUPCDevCSR *, Mat *);
/* a PETSc error naming the first row of A that breaks the CSR rules; what names A in the message */
PETSC_EXTERN PetscErrorCode GPUPCDevCSRCheck(const GPUPCDevCSR *, const char *);
/* B = the entries of A whose columns cmap keeps (cmap[c] >= 0), renumbered by cmap (MAT_REUSE_MATRIX: values only) */
PETSC_EXTERN PetscErrorCode GPUPCDevCSRExtract(const GPUPCDevCSR *, const PetscInt *, PetscInt, MatReuse, GPUPCDevCSR *);
/* R = A^T (MAT_INITIAL_MATRIX: R and *perm created; MAT_REUSE_MATRIX: R's values from A's through *perm) */
PETSC_EXTERN PetscErrorCode GPUPCDevCSRTranspose(const GPUPCDevCSR *, MatReuse, GPUPCDevCSR *, PetscInt **, size_t *);
/* C = A B (MAT_INITIAL_MATRIX: symbolic and numeric; MAT_REUSE_MATRIX: numeric only, on C's pattern) */
PETSC_EXTERN PetscErrorCode GPUPCDevCSRMatMult(const GPUPCDevCSR *, const GPUPCDevCSR *, MatReuse, PetscBool, GPUPCDevCSR *, size_t *);

/* the Galerkin product C = R A P with R = P^T, as R (A P): what a numeric re-run keeps */
typedef struct {
  GPUPCDevCSR R;     /* P^T */
  PetscInt   *perm;  /* R's entry q is P's entry perm[q] */
  GPUPCDevCSR AP;    /* A P */
  size_t      peak;  /* the largest temporary bytes of the last call (the products' and the transpose's) */
  size_t      bytes; /* bytes held here (R, perm, AP) */
} GPUPCDevRAP;
/* (A, P, reuse, deterministic, data, C): MAT_INITIAL_MATRIX fills data (zeroed by the caller) and creates C */
PETSC_EXTERN PetscErrorCode GPUPCDevCSRRAP(const GPUPCDevCSR *, const GPUPCDevCSR *, MatReuse, PetscBool, GPUPCDevRAP *, GPUPCDevCSR *);
PETSC_EXTERN PetscErrorCode GPUPCDevRAPDestroy(GPUPCDevRAP *);

/* COO triples assembled into CSR with the duplicates summed: what new values of the same triples need */
typedef struct {
  PetscInt  nent, nkept; /* triples given, kept (nonnegative indices) */
  PetscInt *perm, *seg;  /* coo_sort's and coo_pattern's */
  size_t    peak;        /* the largest temporary bytes of the last call */
} GPUPCDevCOO;
PETSC_EXTERN PetscErrorCode GPUPCDevCOOAssemble(PetscInt, PetscInt, PetscInt, const PetscInt *, const PetscInt *, const PetscScalar *, MatReuse, GPUPCDevCOO *, GPUPCDevCSR *);
PETSC_EXTERN PetscErrorCode GPUPCDevCOODestroy(GPUPCDevCOO *);

/* the checks both tables make, with the same messages (src/mat/utils/sparse.c): a size above PETSC_MAX_INT (what: the
   member, n: its rows), a COO entry e = (r, c) outside the m x n matrix, the shapes of a product C = A B (C may be
   NULL) */
PETSC_INTERN PetscErrorCode GPUPCSparseCheckSize(PetscInt64, PetscInt, const char *);
PETSC_INTERN PetscErrorCode GPUPCSparseCheckCOOEntry(PetscInt64, PetscInt, PetscInt, PetscInt, PetscInt);
PETSC_INTERN PetscErrorCode GPUPCSparseCheckProduct(const GPUPCDevCSR *, const GPUPCDevCSR *, const GPUPCDevCSR *);
/* the shapes of C = A B and the values of all three (an empty matrix needs none) */
PETSC_INTERN PetscErrorCode GPUPCSparseCheckProductValues(const GPUPCDevCSR *, const GPUPCDevCSR *, const GPUPCDevCSR *);
/* the shape of R = A^T, and values only where A has them */
PETSC_INTERN PetscErrorCode GPUPCSparseCheckTranspose(const GPUPCDevCSR *, const GPUPCDevCSR *);

/* -log_view events of the operations (registered with the Mat types) */
PETSC_INTERN PetscLogEvent  GPUPC_SpTranspose, GPUPC_SpGEMMSymbolic, GPUPC_SpGEMMNumeric, GPUPC_SpCOOAssemble;
PETSC_INTERN PetscErrorCode GPUPCSparseRegisterEvents(void);

#endif

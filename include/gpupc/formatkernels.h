/*
   gpupc/formatkernels.h - building a GPUPC format's block from CSR arrays already on the device: one declaration, two
   implementations (private).

   The device setups of cmg and gpuamg produce their level matrices as CSR on the device (row pointers, columns,
   values). A format's structure (segcsr's segment pointers, rows of segments and row bins; hec's row classes, slabs
   and remainder offsets) depends only on the row pointers, and is computed from them on the device by the kernels
   below, with the sparse table's scan and compaction (gpupc/sparsekernels.h: rowptr, compact); only a few scalars,
   the hec row-length histogram (longest row + 1 entries) and the short lists of long rows (sorted on the host,
   longest first) come to the host. The columns are put into their slots by segcsrcolumns / heccolumns, the values
   by the format's own value-update kernel (layvalues), so neither the row pointers nor the nnz columns and values
   leave the device. segcsr's tile mode is the exception: its greedy cut into tiles is serial, so a block that may run
   in tile mode copies its segment pointers down and cuts the tiles on the host (segcsrbuild.c). The layouts are the
   ones of gpupc/segcsrkernels.h and gpupc/heckernels.h; each result is the one the format's host build gives for the
   same CSR (tests/kernel_equiv_formats).

   bcsr's block structure (gpupc/bcsrkernels.h) depends on the columns too: bcsrcount merges the b sorted rows of each
   block row into its distinct block columns (counting them), bcsrcolumns lists them in order, the block rows are
   sorted by length (the sparse table's compact, once per length that occurs, longest first: a stable counting sort),
   bcsrslices places them in slices and measures the slice widths, bcsrfill gives every stored block its block column
   and every CSR entry its value slot (pos); bcsr's own layvalues then scatters the values through pos (the value-only
   update uses it too). Only the sums, the histogram of the block row lengths and the lengths' counts come to the host.

   GPUPCFormatKernelsHost (src/mat/utils/host/formatkernels_host.c) is the plain C reference, GPUPCFormatKernelsCUDA
   (src/mat/utils/cuda/formatkernels.cu) the CUDA version; tests/kernel_equiv_formats holds them against each other
   and against the formats' host builds.
*/
#ifndef GPUPC_FORMATKERNELS_H
#define GPUPC_FORMATKERNELS_H

#include <gpupc/kerneltable.h>
#include <gpupc/segcsrkernels.h>
#include <gpupc/heckernels.h>
#include <gpupc/bcsrkernels.h>

/* bcsr: the distinct block columns (j / b) of block row br (rows br*b .. br*b+b-1 of rowptr, j), merged from its b
   rows, whose columns are strictly increasing: out[t] = the t-th smallest (out NULL: only counted); returns how many.
   b <= GPUPC_BCSR_MAXB. One rule for the host reference and the CUDA kernels of bcsrcount and bcsrcolumns. */
static inline GPUPC_HOST_DEVICE PetscInt GPUPCBCSRMergeBlockRow(PetscInt br, PetscInt b, const PetscInt *rowptr, const PetscInt *j, PetscInt *out)
{
  PetscInt cur[GPUPC_BCSR_MAXB], end[GPUPC_BCSR_MAXB], cnt = 0;

  for (PetscInt i = 0; i < b; i++) {
    cur[i] = rowptr[br * b + i];
    end[i] = rowptr[br * b + i + 1];
  }
  for (;;) {
    PetscInt J = -1; /* the smallest block column at the rows' cursors */

    for (PetscInt i = 0; i < b; i++)
      if (cur[i] < end[i] && (J < 0 || j[cur[i]] / b < J)) J = j[cur[i]] / b;
    if (J < 0) return cnt;
    if (out) out[cnt] = J;
    cnt++;
    for (PetscInt i = 0; i < b; i++)
      while (cur[i] < end[i] && j[cur[i]] / b == J) cur[i]++;
  }
}

/* bcsr: the place of block column J among the len increasing block columns bc (-1: not there) */
static inline GPUPC_HOST_DEVICE PetscInt GPUPCBCSRFindBlock(PetscInt J, PetscInt len, const PetscInt *bc)
{
  PetscInt lo = 0, hi = len;

  while (lo < hi) {
    const PetscInt mid = lo + (hi - lo) / 2;

    if (bc[mid] < J) lo = mid + 1;
    else hi = mid;
  }
  return lo < len && bc[lo] == J ? lo : -1;
}

/* The table, one line per kernel: X(A, member, Stem, (parameters)) (gpupc/kerneltable.h); the host implementation of a
   member is Stem_Host, the CUDA one Stem_CUDA. j is the CSR column array (device) of the matrix whose row pointers the
   block holds (A->rowptr). */
#define GPUPC_FORMAT_KERNEL_LIST(X, A)                                                                                                             \
  /* segcsr: col[s] for every slot s < nseg*L; slot q of row i (from segptr[i]*L) holds j[rowptr[i] + q] for q < the */                            \
  /* row length, the row's last column after it (padding; column 0 for an empty row). Needs segptr, segrow, rowptr */                              \
  X(A, segcsrcolumns, SegCSRColumns, (const GPUPCSegCSRDev *A, const PetscInt *j, PetscInt *col))                                                  \
  /* hec: ellcol for the K x stride ELL slots (entry p of an ELL row, else padding: the row itself, 0 for i >= n) and */                           \
  /* remcol[r] = entry q of row remrow[r] for every remainder slot r = rembase[i] + q remstep[i] (slab padding, */                                 \
  /* remrow -1, untouched). Needs rowptr, rembase, remstep, remrow */                                                                              \
  X(A, heccolumns, HECColumns, (const GPUPCHECDev *A, const PetscInt *j, PetscInt *ellcol, PetscInt *remcol))                                      \
  /* *maxlen (host) = the longest row of the m rows of rowptr (0 for m = 0) */                                                                     \
  X(A, rowmax, RowMax, (PetscInt m, const PetscInt *rowptr, PetscInt *maxlen))                                                                     \
  /* count[len] = the rows of length len, 0 <= len <= maxlen (every row is at most maxlen long) */                                                 \
  X(A, rowhistogram, RowHistogram, (PetscInt m, const PetscInt *rowptr, PetscInt maxlen, PetscInt *count))                                         \
  /* len[p] = ptr[rows[p] + 1] - ptr[rows[p]] for p < n (lengths of listed rows: entries, or segments for segptr) */                               \
  X(A, rowlengths, RowLengths, (PetscInt n, const PetscInt *rows, const PetscInt *ptr, PetscInt *len))                                             \
  /* segcsr: cnt[i] = segments of row i of length len (ceil(len / L), 1 for an empty row), i < m; stats (host): the */                             \
  /* fewest and most segments of a row (PETSC_MAX_INT and 0 for m = 0) and the longest row */                                                      \
  X(A, segcsrcount, SegCSRCount, (PetscInt m, const PetscInt *rowptr, PetscInt L, PetscInt *cnt, PetscInt stats[3]))                               \
  /* segcsr: segrow[g] = the row owning segment g, g < nseg. Needs segptr */                                                                       \
  X(A, segcsrsegrow, SegCSRSegRow, (const GPUPCSegCSRDev *A))                                                                                      \
  /* segcsr: bin[i] = GPUPCSegCSRRowBin of row i (i < m); counts (host): the medium and the long rows. Needs segptr, */                            \
  /* L, shortmax */                                                                                                                                \
  X(A, segcsrbins, SegCSRBins, (const GPUPCSegCSRDev *A, PetscInt *bin, PetscInt counts[2]))                                                       \
  /* segcsr: sums (host) over the warps of the group-per-row short bin (32/L consecutive rows each): [0] the segments */                           \
  /* of its short rows, [1] its longest short row times its rows (segcsrbuild.c GroupBusy). Needs segptr, L, shortmax */                           \
  X(A, segcsrbusy, SegCSRBusy, (const GPUPCSegCSRDev *A, PetscInt64 sums[2]))                                                                      \
  /* hec: cls[i] = -1 for an ELL row, g for a row of slab group g (slablen[g] = its length), nslab for a warp or */                                \
  /* block row, i < m; and slabrows[t] = -1 for every slab lane t < 32 slabwarp[nslab]. Needs rowptr, K, the slab */                               \
  /* groups (nslab, slablen, slabwarp) */                                                                                                          \
  X(A, hecclass, HECClass, (const GPUPCHECDev *A, PetscInt *cls))                                                                                  \
  /* hec: ellen of every row; rembase, remstep (0 for ELL rows) and remrow of every row outside the ELL part: slab */                              \
  /* rows from slabrows (group g's rows in row order from lane 32 slabwarp[g], -1 after them), warp and block rows */                              \
  /* from longlist (their nlong rows in row order) and longoff (nlong+1: exclusive sums of their lengths); remrow -1 */                            \
  /* on slab padding. Needs rowptr, K, the slab groups, nslabslots, nremslots */                                                                   \
  X(A, hecfill, HECFill, (const GPUPCHECDev *A, const PetscInt *longlist, const PetscInt *longoff))                                                \
  /* bcsr: cnt[br] = the distinct block columns j / b of the b rows of block row br, br < mb (rowptr: mb*b + 1); */                                \
  /* stats (host): [0] the sum of cnt, [1] the first row whose columns are not strictly increasing inside [0, n) */                                \
  /* (-1: none; the counts are then meaningless) */                                                                                                \
  X(A, bcsrcount, BCSRCount, (PetscInt mb, PetscInt b, PetscInt n, const PetscInt *rowptr, const PetscInt *j, PetscInt *cnt, PetscInt64 stats[2])) \
  /* bcsr: bc[bptr[br] + t] = the t-th smallest distinct block column of block row br, t < bptr[br+1] - bptr[br] */                                \
  /* (bptr: the row pointers of bcsrcount's counts; the rows' columns strictly increasing) */                                                      \
  X(A, bcsrcolumns, BCSRColumns, (PetscInt mb, PetscInt b, const PetscInt *rowptr, const PetscInt *j, const PetscInt *bptr, PetscInt *bc))         \
  /* bcsr: blkrow[p] = order[p] (p < mb; order NULL: p) and -1 for mb <= p < nslices*S, rowpos[blkrow[p]] = p, and */                              \
  /* width[s] = S times the longest block row of slice s (bptr's lengths), s < nslices. Needs b, mb, S, nslices, */                                \
  /* blkrow, rowpos */                                                                                                                             \
  X(A, bcsrslices, BCSRSlices, (const GPUPCBCSRDev *A, const PetscInt *order, const PetscInt *bptr, PetscInt *width))                              \
  /* bcsr: bcol of every stored block (block t of the block row at row-in-slice r of slice s: bc[bptr[br] + t], past */                            \
  /* its length the row's last block column, 0 for an empty or padding row) and pos[k] = GPUPCBCSRSlot of CSR entry */                             \
  /* k (rowptr, j: the CSR; bc: bcsrcolumns'). Needs b, mb, S, nslices, sliceptr, blkrow, rowpos, bcol, pos */                                     \
  X(A, bcsrfill, BCSRFill, (const GPUPCBCSRDev *A, const PetscInt *rowptr, const PetscInt *j, const PetscInt *bptr, const PetscInt *bc))

typedef GPUPC_KERNEL_TABLE(GPUPC_FORMAT_KERNEL_LIST) GPUPCFormatKernels;

/* member k of the list is GPUPC_FORMAT_KERNEL_<member> = k; its name is GPUPCFormatKernelNames[k] */
typedef enum {
  GPUPC_FORMAT_KERNEL_LIST(GPUPC_KERNEL_ENUM, GPUPC_FORMAT_KERNEL_)
  GPUPC_FORMAT_NKERNELS
} GPUPCFormatKernelIndex;
PETSC_EXTERN const char *const GPUPCFormatKernelNames[];

PETSC_INTERN const GPUPCFormatKernels GPUPCFormatKernelsHost;
#if defined(GPUPC_HAVE_CUDA)
PETSC_INTERN const GPUPCFormatKernels GPUPCFormatKernelsCUDA;
#endif

/* the table of the active backend, and a table by backend (for tests that compare the two) */
PETSC_EXTERN PetscErrorCode GPUPCGetFormatKernels(const GPUPCFormatKernels **);
PETSC_EXTERN PetscErrorCode GPUPCGetFormatKernelsFor(PetscGPUPCBackend, const GPUPCFormatKernels **);

#endif

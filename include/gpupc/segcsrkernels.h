/*
   gpupc/segcsrkernels.h - the segmented-CSR kernels: one declaration, two implementations.

   GPUPCSegCSRKernels is the interface, declared once by GPUPC_SEGCSR_KERNEL_LIST
   (gpupc/kerneltable.h); GPUPCSegCSRKernelsHost (src/mat/impls/segcsr/host)
   is the plain C reference and GPUPCSegCSRKernelsCUDA (src/mat/impls/segcsr/cuda) the CUDA
   version. All pointers are device pointers (on the host backend: the emulated device
   buffers). The format is docs/algorithms.md section 1.1:

     row i owns the segments segptr[i] .. segptr[i+1]-1 (at least one), each of L slots;
     slot s of segment g is val[g*L + s], col[g*L + s]; padding slots hold value 0 and a
     valid column of the same row (column 0 for an empty row); segrow[g] is the row of g.

   Row bins (built with the layout, GPUPCSegCSRRowBin): a row of s segments is
     short  when s <= shortmax:                    a group of L lanes per row (rows in order),
     medium when longer but s*L <= GPUPC_SEGCSR_LONG_SLOTS: a warp per row, listed in medrows,
     long   otherwise:                             a thread block per row, listed in longrows
                                                   (longest first).
   The bins only decide which lanes work on a row; every kernel computes the same y. The CUDA
   SpMV does all three bins in one launch (long-row blocks first); the host reference walks
   the bins in the same order, so a row missing from the lists shows up in its tests.

   Short-row mode (shortmode, chosen at build: MatSegCSRShortMode, auto resolved per block):
     group: the three bins above: a group of L lanes per short row (rows in order), a warp per
            medium row, a block per long row;
     tile:  the rows that are not long (short and medium) are cut into tiles: runs of consecutive
            such rows (a long row ends a tile and belongs to none) of at most
            GPUPC_SEGCSR_TILE_SLOTS / L segments in all; there are no medium-row warps (nmed = 0,
            medrows unused). Tile t holds rows tileptr[t] .. tileend[t]-1, so its segments
            segptr[tileptr[t]] .. segptr[tileend[t]]-1 are contiguous. A thread block per tile:
            groups of L lanes reduce one segment each (a warp reads consecutive segments), then
            each row adds up its segment sums (a lane per short row, a warp per medium row). A
            warp no longer waits for the longest row of its groups, which irregular short rows
            made it do, and medium rows do not cut the tiles short.
*/
#ifndef GPUPC_SEGCSRKERNELS_H
#define GPUPC_SEGCSRKERNELS_H

#include <gpupc/kerneltable.h>

/* a row with more slots than this is a "long row" (a thread block per row on the GPU) */
#define GPUPC_SEGCSR_LONG_SLOTS 1024
/* a short row (group of L lanes) never has more segments than this (lane iterations) */
#define GPUPC_SEGCSR_SHORT_MAXSEG 32
/* tile mode: a tile has at most this many slots (GPUPC_SEGCSR_TILE_SLOTS / L segments); a row
   that is not long never has more, so every tile holds a row */
#define GPUPC_SEGCSR_TILE_SLOTS GPUPC_SEGCSR_LONG_SLOTS

typedef enum {
  GPUPC_SEGCSR_BIN_SHORT,
  GPUPC_SEGCSR_BIN_MEDIUM,
  GPUPC_SEGCSR_BIN_LONG
} GPUPCSegCSRBin;

/* the bin of a row of s segments of length L in a block whose short rows have <= shortmax segments */
static inline GPUPC_HOST_DEVICE GPUPCSegCSRBin GPUPCSegCSRRowBin(PetscInt s, PetscInt L, PetscInt shortmax)
{
  if (s <= shortmax) return GPUPC_SEGCSR_BIN_SHORT;
  return (PetscInt64)s * L <= GPUPC_SEGCSR_LONG_SLOTS ? GPUPC_SEGCSR_BIN_MEDIUM : GPUPC_SEGCSR_BIN_LONG;
}

/* shortmax of a block with nseg segments over m rows: twice the mean segments per row
   (rounded up), at least 2, at most GPUPC_SEGCSR_SHORT_MAXSEG and never above the long-row
   limit; regular matrices (max <= 2 x mean) have short rows only */
static inline PetscInt GPUPCSegCSRShortMax(PetscInt64 nseg, PetscInt m, PetscInt L)
{
  PetscInt64 mean = m > 0 ? (nseg + m - 1) / m : 1, s = PetscMax(2, 2 * mean);

  s = PetscMin(s, GPUPC_SEGCSR_SHORT_MAXSEG);
  s = PetscMin(s, GPUPC_SEGCSR_LONG_SLOTS / L);
  return (PetscInt)s;
}

/* device-side description of one segmented-CSR matrix (block) */
typedef struct {
  PetscInt           m, n;      /* rows, columns */
  PetscInt           L;         /* segment length: 1, 2, 4, 8, 16 or 32 */
  PetscInt           nseg;      /* segments (>= m) */
  PetscInt           nnz;       /* stored entries (without padding) */
  PetscInt           shortmax;  /* rows with at most this many segments are short */
  PetscInt           nmed;      /* medium rows with a warp each (group mode; 0 in tile mode, where the tiles hold them) */
  PetscInt           nlong;     /* long rows (a thread block each) */
  PetscInt          *segptr;    /* m+1 */
  PetscInt          *segrow;    /* nseg */
  PetscInt          *col;       /* nseg*L */
  PetscScalar       *val;       /* nseg*L */
  PetscInt          *medrows;   /* nmed, increasing */
  PetscInt          *longrows;  /* nlong, longest first */
  MatSegCSRShortMode shortmode; /* short rows: MAT_SEGCSR_SHORT_GROUP or MAT_SEGCSR_SHORT_TILE (never auto) */
  PetscInt           ntiles;    /* tile mode: tiles of short and medium rows; 0 in group mode */
  PetscInt          *tileptr;   /* tile mode: ntiles+1, first row of each tile (increasing), tileptr[ntiles] = m; NULL in group mode */
  PetscInt          *tileend;   /* tile mode: ntiles, one past the last row of each tile (<= tileptr[t+1]); NULL in group mode */
  PetscInt          *rowptr;    /* m+1: the CSR row pointers (entry k of row i is in slot segptr[i]*L + k - rowptr[i]); layvalues */
} GPUPCSegCSRDev;

/* The table, one line per kernel: X(A, member, Stem, (parameters)) (gpupc/kerneltable.h); the host
   implementation of a member is Stem_Host (src/mat/impls/segcsr/host), the CUDA one Stem_CUDA
   (src/mat/impls/segcsr/cuda). */
#define GPUPC_SEGCSR_KERNEL_LIST(X, A)                                                                              \
  /* y = A x + z (z may be NULL: y = A x; z may equal y) */                                                         \
  X(A, mult, Mult, (const GPUPCSegCSRDev *A, const PetscScalar *x, const PetscScalar *z, PetscScalar *y))           \
  /* y += A^T x  (y has length n; atomic scatter on the GPU) */                                                     \
  X(A, multtransposeadd, MultTransposeAdd, (const GPUPCSegCSRDev *A, const PetscScalar *x, PetscScalar *y))         \
  /* d[i] = a(i, i + coloffset) for i < m (0 where not stored) */                                                   \
  X(A, getdiagonal, GetDiagonal, (const GPUPCSegCSRDev *A, PetscInt coloffset, PetscScalar *d))                     \
  /* value update: val[s] for the slots s0 <= s < s1 from the CSR values (AIJ order) of their entries: a slot of */ \
  /* row i holding entry k (k < rowptr[i+1]) gets a[k - k0], a padding slot 0. The entries of those slots lie in */ \
  /* k0 .. k0 + (length of a) - 1; a range of entries [k0, k1) has its slots, and the padding between them, in */   \
  /* [slot of k0, slot of k1) (slot 0 for k0 = 0, nseg*L for k1 = nnz). Needs rowptr and segrow. */                 \
  X(A, layvalues, LayValues, (const GPUPCSegCSRDev *A, PetscInt s0, PetscInt s1, PetscInt k0, const PetscScalar *a, PetscScalar *val))

typedef GPUPC_KERNEL_TABLE(GPUPC_SEGCSR_KERNEL_LIST) GPUPCSegCSRKernels;

/* member k of the list is GPUPC_SEGCSR_KERNEL_<member> = k; its name is GPUPCSegCSRKernelNames[k] */
typedef enum {
  GPUPC_SEGCSR_KERNEL_LIST(GPUPC_KERNEL_ENUM, GPUPC_SEGCSR_KERNEL_)
  GPUPC_SEGCSR_NKERNELS
} GPUPCSegCSRKernelIndex;
PETSC_EXTERN const char *const GPUPCSegCSRKernelNames[];

PETSC_INTERN const GPUPCSegCSRKernels GPUPCSegCSRKernelsHost;
#if defined(GPUPC_HAVE_CUDA)
PETSC_INTERN const GPUPCSegCSRKernels GPUPCSegCSRKernelsCUDA;
#endif

PETSC_EXTERN PetscErrorCode GPUPCGetSegCSRKernels(const GPUPCSegCSRKernels **);
PETSC_EXTERN PetscErrorCode GPUPCGetSegCSRKernelsFor(PetscGPUPCBackend, const GPUPCSegCSRKernels **);

#endif

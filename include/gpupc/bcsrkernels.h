/*
   gpupc/bcsrkernels.h - the block-CSR (bcsr) kernels: one declaration, two implementations.
   GPUPCBCSRKernels is the interface, declared once by GPUPC_BCSR_KERNEL_LIST (gpupc/kerneltable.h);
   GPUPCBCSRKernelsHost (src/mat/impls/bcsr/host) is the plain C reference and GPUPCBCSRKernelsCUDA
   (src/mat/impls/bcsr/cuda) the CUDA version. All pointers are device pointers (on the host backend:
   the emulated device buffers). The format is docs/algorithms.md section 1.3:

   - the m x n matrix (m, n multiples of b) is cut into b x b blocks; a block holding at least one
     entry is stored whole (entries missing from the AIJ pattern are stored zeros);
   - block rows are sorted by their number of blocks, longest first (stable: equal lengths keep
     their order), and cut into slices of S consecutive sorted block rows; blkrow[p] is the block
     row at sorted position p (-1 for the padding rows of the last slice), rowpos its inverse;
   - slice s owns the blocks sliceptr[s] .. sliceptr[s+1]-1, width w = (sliceptr[s+1] - sliceptr[s]) / S
     steps of S blocks: block t*S + r of the slice is block t of its block row r (row-in-slice), so
     the blocks one step touches are contiguous; a row shorter than w is padded with empty blocks
     (values 0, the block column of its last real block, 0 for an empty row);
   - the values of the S blocks of one step are interleaved by block column: entry (i, j) of the
     block at row-in-slice r of the step that starts at block q is val[q*b*b + j*S*b + r*b + i]
     (GPUPCBCSRSlot). The thread of matrix row (r, i) of a slice -- lane r*b + i -- reads, for each
     j, consecutive addresses with its neighbours: every value load of a slice is contiguous for
     every b, the point of the paper's block reordering;
   - pos[k] is the value slot of CSR entry k (AIJ order): a value update writes only those slots,
     the padding stays 0 from the build.
*/
#ifndef GPUPC_BCSRKERNELS_H
#define GPUPC_BCSRKERNELS_H

#include <gpupc/kerneltable.h>

/* supported block sizes 1 .. GPUPC_BCSR_MAXB */
#define GPUPC_BCSR_MAXB 8

/* device-side description of one bcsr matrix (block) */
typedef struct {
  PetscInt     m, n;     /* rows, columns (multiples of b) */
  PetscInt     b;        /* block size, 1 .. GPUPC_BCSR_MAXB */
  PetscInt     mb, nb;   /* block rows, block columns */
  PetscInt     S;        /* slice height: block rows per slice */
  PetscInt     lanes;    /* threads per slice on the GPU: S*b rounded up to a warp (>= S*b; the rest idle) */
  PetscInt     nslices;  /* ceil(mb / S) */
  PetscInt     nblocks;  /* stored blocks, padding included (sliceptr[nslices]) */
  PetscInt     nnz;      /* CSR entries the values come from */
  PetscInt    *sliceptr; /* nslices+1 */
  PetscInt    *blkrow;   /* nslices*S: block row at each sorted position, -1 for padding rows */
  PetscInt    *rowpos;   /* mb: sorted position of each block row */
  PetscInt    *bcol;     /* nblocks: block column of each stored block */
  PetscScalar *val;      /* nblocks*b*b, step-interleaved (GPUPCBCSRSlot) */
  PetscInt    *pos;      /* nnz: value slot of each CSR entry */
} GPUPCBCSRDev;

/* value slot of entry (i, j) of the block at row-in-slice r of the step whose first block is q */
static inline GPUPC_HOST_DEVICE size_t GPUPCBCSRSlot(PetscInt q, PetscInt S, PetscInt b, PetscInt r, PetscInt i, PetscInt j)
{
  return (size_t)q * b * b + (size_t)j * S * b + (size_t)r * b + i;
}

/* The table, one line per kernel: X(A, member, Stem, (parameters)) (gpupc/kerneltable.h); the host implementation of a
   member is Stem_Host (src/mat/impls/bcsr/host), the CUDA one Stem_CUDA (src/mat/impls/bcsr/cuda). */
#define GPUPC_BCSR_KERNEL_LIST(X, A)                                                                      \
  /* y = A x + z (z may be NULL: y = A x; z may equal y) */                                               \
  X(A, mult, Mult, (const GPUPCBCSRDev *A, const PetscScalar *x, const PetscScalar *z, PetscScalar *y))   \
  /* y += A^T x  (y has length n; atomic scatter on the GPU) */                                           \
  X(A, multtransposeadd, MultTransposeAdd, (const GPUPCBCSRDev *A, const PetscScalar *x, PetscScalar *y)) \
  /* d[i] = a(i, i) for i < m (0 where not stored, and for i >= n) */                                     \
  X(A, getdiagonal, GetDiagonal, (const GPUPCBCSRDev *A, PetscScalar *d))                                 \
  /* value update: val[pos[k0 + q]] = a[q] for q < count (the CSR entries k0 .. k0+count-1) */            \
  X(A, layvalues, LayValues, (const GPUPCBCSRDev *A, PetscInt k0, PetscInt count, const PetscScalar *a, PetscScalar *val))

typedef GPUPC_KERNEL_TABLE(GPUPC_BCSR_KERNEL_LIST) GPUPCBCSRKernels;

/* member k of the list is GPUPC_BCSR_KERNEL_<member> = k; its name is GPUPCBCSRKernelNames[k] */
typedef enum {
  GPUPC_BCSR_KERNEL_LIST(GPUPC_KERNEL_ENUM, GPUPC_BCSR_KERNEL_)
  GPUPC_BCSR_NKERNELS
} GPUPCBCSRKernelIndex;
PETSC_EXTERN const char *const GPUPCBCSRKernelNames[];

PETSC_INTERN const GPUPCBCSRKernels GPUPCBCSRKernelsHost;
#if defined(GPUPC_HAVE_CUDA)
PETSC_INTERN const GPUPCBCSRKernels GPUPCBCSRKernelsCUDA;
#endif
PETSC_EXTERN PetscErrorCode GPUPCGetBCSRKernels(const GPUPCBCSRKernels **);
PETSC_EXTERN PetscErrorCode GPUPCGetBCSRKernelsFor(PetscGPUPCBackend, const GPUPCBCSRKernels **);

/* slice height and lanes per slice of block size b under a mapping (MatBCSRMapping, petscgpupc.h):
   full: S = 32/gcd(32, b), so S*b is a multiple of 32 and no lane idles; warp: S = floor(32/b), one warp per slice */
static inline void GPUPCBCSRSliceShape(PetscInt b, MatBCSRMapping mapping, PetscInt *S, PetscInt *lanes)
{
  PetscInt g = 1;

  while (g < 32 && b % (2 * g) == 0) g *= 2; /* gcd(32, b): the power-of-two part of b, at most 32 */
  if (mapping == MAT_BCSR_MAPPING_WARP) {
    *S     = 32 / b;
    *lanes = 32;
  } else {
    *S     = 32 / g;
    *lanes = *S * b;
  }
}

#endif

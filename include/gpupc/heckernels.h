/*
   gpupc/heckernels.h - the HEC (hybrid ELL + CSR) kernels: one declaration, two implementations.

   GPUPCHECKernels is the interface, declared once by GPUPC_HEC_KERNEL_LIST (gpupc/kerneltable.h);
   GPUPCHECKernelsHost (src/mat/impls/hec/host) is the plain C reference and GPUPCHECKernelsCUDA
   (src/mat/impls/hec/cuda) the CUDA version. All pointers are device pointers (on the host backend:
   the emulated device buffers). The format is docs/algorithms.md section 1.2:

     row i of length len_i (CSR rowptr[i] .. rowptr[i+1]-1) keeps its first min(len_i, K) entries in
     the ELL part and the other max(0, len_i - K) in the CSR remainder (remainder part);
     ELL part: K columns of stride entries each (stride = m rounded up to a multiple of
       GPUPC_HEC_ALIGN), column-major: entry p < K of row i is ellval[p*stride + i], ellcol[p*stride + i];
       the slots past a row's length (padding) hold value 0 and column i (i < n; else 0): the row itself;
     remainder: entry q of row i's remainder (entry K + q of the row) is remval[remptr[i] + q],
       remcol[remptr[i] + q]; remrow[r] is the row of remainder entry r.

   Row bins by the length of the remainder (GPUPCHECRowBin): a row whose remainder has at most
   GPUPC_HEC_SHORT_REM entries is done by one thread (its ELL entries and its remainder); a longer one
   by a warp, or by a thread block beyond GPUPC_HEC_BLOCK_REM entries. longrows lists the rows of the
   warp and block bins, longest remainder first (the first nblock are the block rows). Every kernel
   computes the same y; the CUDA SpMV does all bins in one launch (block rows first), the host reference
   walks the bins in the same order, so a row missing from the lists shows up in its tests.
*/
#ifndef GPUPC_HECKERNELS_H
#define GPUPC_HECKERNELS_H

#include <gpupc/kerneltable.h>

/* the ELL stride is the row count rounded up to a multiple of this (a warp of consecutive rows reads
   one 256-byte run of values and one 128-byte run of columns per ELL column) */
#define GPUPC_HEC_ALIGN 32
/* a row whose CSR remainder has more entries than this gets a warp (its own thread would read them
   one after the other, uncoalesced, and hold up its warp) */
#define GPUPC_HEC_SHORT_REM 16
/* ... and more than this, a thread block */
#define GPUPC_HEC_BLOCK_REM 1024

typedef enum {
  GPUPC_HEC_BIN_THREAD,
  GPUPC_HEC_BIN_WARP,
  GPUPC_HEC_BIN_BLOCK
} GPUPCHECBin;

/* the bin of a row whose remainder has r entries */
static inline GPUPCHECBin GPUPCHECRowBin(PetscInt r)
{
  if (r <= GPUPC_HEC_SHORT_REM) return GPUPC_HEC_BIN_THREAD;
  return r <= GPUPC_HEC_BLOCK_REM ? GPUPC_HEC_BIN_WARP : GPUPC_HEC_BIN_BLOCK;
}

/* device-side description of one HEC matrix (block) */
typedef struct {
  PetscInt     m, n;     /* rows, columns */
  PetscInt     K;        /* ELL width (0: everything is in the remainder) */
  PetscInt     stride;   /* ELL column stride: m rounded up to a multiple of GPUPC_HEC_ALIGN */
  PetscInt     nnz;      /* stored entries */
  PetscInt     nrem;     /* entries in the CSR remainder */
  PetscInt     nlong;    /* rows of the warp and block bins */
  PetscInt     nblock;   /* rows of the block bin: longrows[0 .. nblock-1] */
  PetscInt    *rowptr;   /* m+1: the CSR row pointers (row lengths; layvalues) */
  PetscInt    *ellcol;   /* K*stride */
  PetscScalar *ellval;   /* K*stride */
  PetscInt    *remptr;   /* m+1 */
  PetscInt    *remrow;   /* nrem */
  PetscInt    *remcol;   /* nrem */
  PetscScalar *remval;   /* nrem */
  PetscInt    *longrows; /* nlong, longest remainder first */
} GPUPCHECDev;

/* The table, one line per kernel: X(A, member, Stem, (parameters)) (gpupc/kerneltable.h); the host
   implementation of a member is Stem_Host (src/mat/impls/hec/host), the CUDA one Stem_CUDA
   (src/mat/impls/hec/cuda). */
#define GPUPC_HEC_KERNEL_LIST(X, A)                                                                               \
  /* y = A x + z (z may be NULL: y = A x; z may equal y) */                                                       \
  X(A, mult, Mult, (const GPUPCHECDev *A, const PetscScalar *x, const PetscScalar *z, PetscScalar *y))            \
  /* y += A^T x  (y has length n; atomic scatter on the GPU) */                                                   \
  X(A, multtransposeadd, MultTransposeAdd, (const GPUPCHECDev *A, const PetscScalar *x, PetscScalar *y))          \
  /* d[i] = a(i, i + coloffset) for i < m (0 where not stored) */                                                 \
  X(A, getdiagonal, GetDiagonal, (const GPUPCHECDev *A, PetscInt coloffset, PetscScalar *d))                      \
  /* value update: the CSR entries k0 <= k < k1 (AIJ order), held by rows i0 .. i1-1 (i0: the row of entry k0, */ \
  /* i1: one past the row of entry k1-1), get a[k - k0] in their ELL or remainder slot; padding is not touched */ \
  X(A, layvalues, LayValues, (const GPUPCHECDev *A, PetscInt i0, PetscInt i1, PetscInt k0, PetscInt k1, const PetscScalar *a))

typedef GPUPC_KERNEL_TABLE(GPUPC_HEC_KERNEL_LIST) GPUPCHECKernels;

/* member k of the list is GPUPC_HEC_KERNEL_<member> = k; its name is GPUPCHECKernelNames[k] */
typedef enum {
  GPUPC_HEC_KERNEL_LIST(GPUPC_KERNEL_ENUM, GPUPC_HEC_KERNEL_)
  GPUPC_HEC_NKERNELS
} GPUPCHECKernelIndex;
PETSC_EXTERN const char *const GPUPCHECKernelNames[];

PETSC_INTERN const GPUPCHECKernels GPUPCHECKernelsHost;
#if defined(GPUPC_HAVE_CUDA)
PETSC_INTERN const GPUPCHECKernels GPUPCHECKernelsCUDA;
#endif

PETSC_EXTERN PetscErrorCode GPUPCGetHECKernels(const GPUPCHECKernels **);
PETSC_EXTERN PetscErrorCode GPUPCGetHECKernelsFor(PetscGPUPCBackend, const GPUPCHECKernels **);

/* *K: the ELL width minimising w(K) = K m + p_r sum_i max(0, len_i - K) over 0 <= K <= max len_i (the smallest such
   K) for the m rows of CSR row pointers rowptr (src/mat/impls/hec/hecbuild.c) */
PETSC_EXTERN PetscErrorCode GPUPCHECCostWidth(PetscInt m, const PetscInt *rowptr, PetscReal pr, PetscInt *K);

#endif

/*
   gpupc/heckernels.h - the HEC (hybrid ELL + CSR) kernels: one declaration, two implementations.

   GPUPCHECKernels is the interface, declared once by GPUPC_HEC_KERNEL_LIST (gpupc/kerneltable.h);
   GPUPCHECKernelsHost (src/mat/impls/hec/host) is the plain C reference and GPUPCHECKernelsCUDA
   (src/mat/impls/hec/cuda) the CUDA version. All pointers are device pointers (on the host backend:
   the emulated device buffers). The format (docs/algorithms.md section 1.2, with the rows that do not fit
   the ELL width kept whole outside it):

     row i of length len_i (CSR rowptr[i] .. rowptr[i+1]-1) is an ELL row when len_i <= K: its entries are
     ELL slots 0 .. len_i-1; a longer row is kept whole outside the ELL part (its ELL slots are padding),
     either in a slab (remainder len_i - K <= GPUPC_HEC_SHORT_REM) or in CSR (longer remainders);
     ELL part: K columns of stride entries each (stride = m rounded up to a multiple of GPUPC_HEC_ALIGN),
       column-major: slot p < K of row i is ellval[p*stride + i], ellcol[p*stride + i]; padding slots hold
       value 0 and column i (i < n; else 0): the row itself;
     ellen: the ELL length of row i (len_i), or the largest value of its type for a row kept outside the
       ELL part; the type is the narrowest unsigned integer above K (GPUPCHECEllLengthBytes: one byte a row
       in the SpMV for K < 255, where the CSR row pointers took four);
     outside the ELL part: entry q of such a row i is remval[rembase[i] + q*remstep[i]],
       remcol[...]; remrow[r] is the row of slot r (-1 for slab padding); remstep = 1 for CSR rows;
     slabs: the rows of equal length slablen[g] (g < nslab, slablen increasing) form group g; its slab is
       slablen[g] columns of gstride = 32 (slabwarp[g+1] - slabwarp[g]) lanes from remval[slabstart[g]],
       column-major (entry q of the group's row t at slabstart[g] + q*gstride + t: a warp reads 32 rows'
       q-th entries in one run); slabrows[32*slabwarp[g] + t] is that row (-1 for the padding lanes);
       rows of a group in increasing order; then the CSR rows (whole) from remval[nslabslots].

   Row bins by the remainder length r = max(0, len_i - K) (GPUPCHECRowBin): r = 0 an ELL row, a thread
   each; r <= GPUPC_HEC_SHORT_REM a slab row, a lane of a warp of its group; longer by a warp, or by a thread
   block beyond GPUPC_HEC_BLOCK_REM entries. longrows lists the rows of the warp and block bins, longest
   remainder first (the first nblock are the block rows). Every kernel computes the same y; the CUDA SpMV
   does all bins in one launch (block rows, warp rows, slab warps, ELL rows), each row written once; the
   host reference walks the bins in the same order, so a row missing from the lists shows up in its tests.
*/
#ifndef GPUPC_HECKERNELS_H
#define GPUPC_HECKERNELS_H

#include <gpupc/kerneltable.h>

/* the ELL stride is the row count rounded up to a multiple of this (a warp of consecutive rows reads
   one 256-byte run of values and one 128-byte run of columns per ELL column) */
#define GPUPC_HEC_ALIGN 32
/* a row whose remainder (entries beyond K) has at most this many entries goes to the slab of its length; a longer
   one gets a warp */
#define GPUPC_HEC_SHORT_REM 16
/* ... and more than this, a thread block */
#define GPUPC_HEC_BLOCK_REM 1024

typedef enum {
  GPUPC_HEC_BIN_ELL,
  GPUPC_HEC_BIN_SLAB,
  GPUPC_HEC_BIN_WARP,
  GPUPC_HEC_BIN_BLOCK
} GPUPCHECBin;

/* the bin of a row whose remainder has r entries */
static inline GPUPC_HOST_DEVICE GPUPCHECBin GPUPCHECRowBin(PetscInt r)
{
  if (r <= 0) return GPUPC_HEC_BIN_ELL;
  if (r <= GPUPC_HEC_SHORT_REM) return GPUPC_HEC_BIN_SLAB;
  return r <= GPUPC_HEC_BLOCK_REM ? GPUPC_HEC_BIN_WARP : GPUPC_HEC_BIN_BLOCK;
}

/* device-side description of one HEC matrix (block) */
typedef struct {
  PetscInt     m, n;                              /* rows, columns */
  PetscInt     K;                                 /* ELL width (0: every nonempty row is outside the ELL part) */
  PetscInt     stride;                            /* ELL column stride: m rounded up to a multiple of GPUPC_HEC_ALIGN */
  PetscInt     nnz;                               /* stored entries */
  PetscInt     nrem;                              /* entries outside the ELL part (slab and CSR rows) */
  PetscInt     nremslots;                         /* slots of remcol/remval/remrow: the slabs (with padding lanes), then the CSR rows */
  PetscInt     nslabslots;                        /* slots of the slabs */
  PetscInt     nlong;                             /* rows of the warp and block bins */
  PetscInt     nblock;                            /* rows of the block bin: longrows[0 .. nblock-1] */
  PetscInt     nslab;                             /* slab groups (distinct lengths of the slab rows) */
  PetscInt     slablen[GPUPC_HEC_SHORT_REM];      /* row length of group g */
  PetscInt     slabstart[GPUPC_HEC_SHORT_REM];    /* group g's first slot in remcol/remval */
  PetscInt     slabwarp[GPUPC_HEC_SHORT_REM + 1]; /* warps of the groups before g (prefix; slabwarp[nslab] warps in all) */
  PetscInt    *rowptr;                            /* m+1: the CSR row pointers (row lengths; layvalues) */
  void        *ellen;                             /* m: ELL length or the marker, GPUPCHECEllLengthBytes(K) bytes each */
  PetscInt    *ellcol;                            /* K*stride */
  PetscScalar *ellval;                            /* K*stride */
  PetscInt    *rembase;                           /* m: first slot of a row outside the ELL part (0 for ELL rows) */
  PetscInt    *remstep;                           /* m: distance of its consecutive entries (1 in CSR, gstride in a slab; 0 for ELL rows) */
  PetscInt    *remrow;                            /* nremslots: row of each slot, -1 for slab padding */
  PetscInt    *remcol;                            /* nremslots (slab padding: column 0) */
  PetscScalar *remval;                            /* nremslots (slab padding: 0) */
  PetscInt    *slabrows;                          /* 32*slabwarp[nslab]: the row of each slab lane, -1 for padding */
  PetscInt    *longrows;                          /* nlong, longest remainder first */
} GPUPCHECDev;

/* the bytes of an ELL length: 1 for K < 255, 2 for K < 65535, else 4 (the type's largest value is the marker of a row
   kept outside the ELL part) */
static inline GPUPC_HOST_DEVICE size_t GPUPCHECEllLengthBytes(PetscInt K)
{
  return K < 255 ? 1 : K < 65535 ? 2
                                 : 4;
}

/* host side (the reference kernels, tests): the ELL length of row i, or -1 for a row kept outside the ELL part */
static inline PetscInt GPUPCHECEllLength(const GPUPCHECDev *A, PetscInt i)
{
  switch (GPUPCHECEllLengthBytes(A->K)) {
  case 1:
    return ((const unsigned char *)A->ellen)[i] == 255 ? -1 : (PetscInt)((const unsigned char *)A->ellen)[i];
  case 2:
    return ((const unsigned short *)A->ellen)[i] == 65535 ? -1 : (PetscInt)((const unsigned short *)A->ellen)[i];
  default:
    return ((const unsigned int *)A->ellen)[i] == 0xffffffffu ? -1 : (PetscInt)((const unsigned int *)A->ellen)[i];
  }
}

/* the host build, the device build (gpupc/formatkernels.h: hecfill) and tests: sets ELL length len of row i in ellen for
   width K (len < 0: the marker) */
static inline GPUPC_HOST_DEVICE void GPUPCHECSetEllLength(PetscInt K, void *ellen, PetscInt i, PetscInt len)
{
  switch (GPUPCHECEllLengthBytes(K)) {
  case 1:
    ((unsigned char *)ellen)[i] = (unsigned char)(len < 0 ? 255 : len);
    break;
  case 2:
    ((unsigned short *)ellen)[i] = (unsigned short)(len < 0 ? 65535 : len);
    break;
  default:
    ((unsigned int *)ellen)[i] = len < 0 ? 0xffffffffu : (unsigned int)len;
  }
}

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

/*
   gpupc/gpubjacobikernels.h - the kernels of PC gpubjacobi (block Jacobi with dense inverses of the diagonal blocks):
   one declaration, two implementations.

   GPUPCPBJKernels is declared once by GPUPC_PBJ_KERNEL_LIST (gpupc/kerneltable.h). GPUPCPBJKernelsHost
   (src/pc/impls/gpubjacobi/host) is the plain C reference, GPUPCPBJKernelsCUDA (src/pc/impls/gpubjacobi/cuda) the
   CUDA version; GPUPCGetPBJKernels() picks by backend. All pointers are device pointers (on the host backend: the
   emulated device buffers).

   Layout of the inverses. The n local rows are cut into blocks of bs consecutive rows (block k holds rows
   k bs .. min((k+1) bs, n) - 1; the last block has n - (nblocks-1) bs rows when bs does not divide n). Row r = k bs + i
   of block k (i its place in the block) stores its row of the block's inverse, (B_k^-1)(i, j) for j = 0 .. bs-1, at

       inv[j * ld + r]                          (ld >= n: the leading dimension, a multiple of 32)

   that is, like ELLPACK with bs implicit columns per row, column by column. The kernels of consecutive rows then read
   consecutive addresses for every j, whatever bs is, and the columns start on 256-byte boundaries. Entries of a
   partial last block beyond its size (j >= its rows) and rows n .. ld-1 hold zeros.
*/
#ifndef GPUPC_GPUBJACOBIKERNELS_H
#define GPUPC_GPUBJACOBIKERNELS_H

#include <gpupc/kerneltable.h>

/* the largest block size (one warp of rows) */
#define GPUPC_PBJ_MAX_BS 32

/* the inverses of one rank's diagonal blocks on the device */
typedef struct {
  PetscInt     n;   /* local rows */
  PetscInt     bs;  /* block size, 1 .. GPUPC_PBJ_MAX_BS */
  PetscInt     ld;  /* leading dimension of inv: n rounded up to a multiple of 32 */
  PetscScalar *inv; /* ld * bs entries, see above */
} GPUPCPBJBlocks;

/* The table, one line per kernel: X(A, member, Stem, (parameters)) (gpupc/kerneltable.h); the host implementation of a
   member is Stem_Host (src/pc/impls/gpubjacobi/host), the CUDA one Stem_CUDA (src/pc/impls/gpubjacobi/cuda). x and y
   have D->n entries and must not overlap. */
#define GPUPC_PBJ_KERNEL_LIST(X, A)                                                             \
  /* y_k = B_k^-1 x_k on every block k */                                                       \
  X(A, apply, Apply, (const GPUPCPBJBlocks *D, const PetscScalar *x, PetscScalar *y))           \
  /* y_k = B_k^-T x_k on every block k (the transposed inverses, read from the same storage) */ \
  X(A, apply_transpose, ApplyTranspose, (const GPUPCPBJBlocks *D, const PetscScalar *x, PetscScalar *y))

typedef GPUPC_KERNEL_TABLE(GPUPC_PBJ_KERNEL_LIST) GPUPCPBJKernels;

/* member k of the list is GPUPC_PBJ_KERNEL_<member> = k; its name is GPUPCPBJKernelNames[k] */
typedef enum {
  GPUPC_PBJ_KERNEL_LIST(GPUPC_KERNEL_ENUM, GPUPC_PBJ_KERNEL_)
  GPUPC_PBJ_NKERNELS
} GPUPCPBJKernelIndex;
PETSC_EXTERN const char *const GPUPCPBJKernelNames[];

PETSC_INTERN const GPUPCPBJKernels GPUPCPBJKernelsHost;
#if defined(GPUPC_HAVE_CUDA)
PETSC_INTERN const GPUPCPBJKernels GPUPCPBJKernelsCUDA;
#endif

PETSC_EXTERN PetscErrorCode GPUPCGetPBJKernels(const GPUPCPBJKernels **);
PETSC_EXTERN PetscErrorCode GPUPCGetPBJKernelsFor(PetscGPUPCBackend, const GPUPCPBJKernels **);

#endif

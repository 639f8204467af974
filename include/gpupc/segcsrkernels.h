/*
   gpupc/segcsrkernels.h - the segmented-CSR kernels: one declaration, two implementations.

   GPUPCSegCSRKernels is the interface; GPUPCSegCSRKernelsHost (src/mat/impls/segcsr/host)
   is the plain C reference and GPUPCSegCSRKernelsCUDA (src/mat/impls/segcsr/cuda) the CUDA
   version. All pointers are device pointers (on the host backend: the emulated device
   buffers). The format is ALGORITHMS.md section 1.1:

     row i owns the segments segptr[i] .. segptr[i+1]-1 (at least one), each of L slots;
     slot s of segment g is val[g*L + s], col[g*L + s]; padding slots hold value 0 and a
     valid column of the same row (column 0 for an empty row); segrow[g] is the row of g.
     Rows with more than GPUPC_SEGCSR_LONG_SEGMENTS segments are listed in longrows; the
     CUDA SpMV gives each of them a whole thread block in a second launch.
*/
#ifndef GPUPC_SEGCSRKERNELS_H
#define GPUPC_SEGCSRKERNELS_H

#include <gpupc/device.h>

/* a row with more segments than this is a "long row" (a thread block per row on the GPU) */
#define GPUPC_SEGCSR_LONG_SEGMENTS 64

/* device-side description of one segmented-CSR matrix (block) */
typedef struct {
  PetscInt     m, n;      /* rows, columns */
  PetscInt     L;         /* segment length: 1, 2, 4, 8, 16 or 32 */
  PetscInt     nseg;      /* segments (>= m) */
  PetscInt     nnz;       /* stored entries (without padding) */
  PetscInt     nlong;     /* rows with more than GPUPC_SEGCSR_LONG_SEGMENTS segments */
  PetscInt    *segptr;    /* m+1 */
  PetscInt    *segrow;    /* nseg */
  PetscInt    *col;       /* nseg*L */
  PetscScalar *val;       /* nseg*L */
  PetscInt    *longrows;  /* nlong */
} GPUPCSegCSRDev;

typedef struct {
  const char *name;
  /* y = A x + z (z may be NULL: y = A x; z may equal y) */
  PetscErrorCode (*mult)(const GPUPCSegCSRDev *A, const PetscScalar *x, const PetscScalar *z, PetscScalar *y);
  /* y += A^T x  (y has length n; atomic scatter on the GPU) */
  PetscErrorCode (*multtransposeadd)(const GPUPCSegCSRDev *A, const PetscScalar *x, PetscScalar *y);
  /* d[i] = a(i, i + coloffset) for i < m (0 where not stored) */
  PetscErrorCode (*getdiagonal)(const GPUPCSegCSRDev *A, PetscInt coloffset, PetscScalar *d);
} GPUPCSegCSRKernels;

PETSC_INTERN const GPUPCSegCSRKernels GPUPCSegCSRKernelsHost;
#if defined(GPUPC_HAVE_CUDA)
PETSC_INTERN const GPUPCSegCSRKernels GPUPCSegCSRKernelsCUDA;
#endif

PETSC_EXTERN PetscErrorCode GPUPCGetSegCSRKernels(const GPUPCSegCSRKernels **);
PETSC_EXTERN PetscErrorCode GPUPCGetSegCSRKernelsFor(PetscGPUPCBackend, const GPUPCSegCSRKernels **);

#endif

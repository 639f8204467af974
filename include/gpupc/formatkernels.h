/*
   gpupc/formatkernels.h - building a GPUPC format's block from CSR arrays already on the device: one declaration, two
   implementations (private).

   The device setups of cmg and gpuamg produce their level matrices as CSR on the device (row pointers, columns,
   values). A format's structure (segcsr's segment pointers, rows of segments and row bins; hec's row classes, slabs
   and remainder offsets) depends only on the row pointers: those m+1 integers come to the host, where the format's
   usual build code lays out the structure. The columns are then put into their slots on the device by the kernels
   below, and the values by the format's own value-update kernel (layvalues), so the nnz columns and values never
   leave the device. The layouts are the ones of gpupc/segcsrkernels.h and gpupc/heckernels.h.

   GPUPCFormatKernelsHost (src/mat/utils/host/formatkernels_host.c) is the plain C reference, GPUPCFormatKernelsCUDA
   (src/mat/utils/cuda/formatkernels.cu) the CUDA version; tests/kernel_equiv_formats holds them against each other
   and against the formats' host builds.
*/
#ifndef GPUPC_FORMATKERNELS_H
#define GPUPC_FORMATKERNELS_H

#include <gpupc/kerneltable.h>
#include <gpupc/segcsrkernels.h>
#include <gpupc/heckernels.h>

/* The table, one line per kernel: X(A, member, Stem, (parameters)) (gpupc/kerneltable.h); the host implementation of a
   member is Stem_Host, the CUDA one Stem_CUDA. j is the CSR column array (device) of the matrix whose row pointers the
   block holds (A->rowptr). */
#define GPUPC_FORMAT_KERNEL_LIST(X, A)                                                                                   \
  /* segcsr: col[s] for every slot s < nseg*L; slot q of row i (from segptr[i]*L) holds j[rowptr[i] + q] for q < the */  \
  /* row length, the row's last column after it (padding; column 0 for an empty row). Needs segptr, segrow, rowptr */    \
  X(A, segcsrcolumns, SegCSRColumns, (const GPUPCSegCSRDev *A, const PetscInt *j, PetscInt *col))                        \
  /* hec: ellcol for the K x stride ELL slots (entry p of an ELL row, else padding: the row itself, 0 for i >= n) and */ \
  /* remcol[r] = entry q of row remrow[r] for every remainder slot r = rembase[i] + q remstep[i] (slab padding, */       \
  /* remrow -1, untouched). Needs rowptr, rembase, remstep, remrow */                                                    \
  X(A, heccolumns, HECColumns, (const GPUPCHECDev *A, const PetscInt *j, PetscInt *ellcol, PetscInt *remcol))

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

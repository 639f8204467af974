/*
   gpupc/amgacrosskernels.h - the kernels of PC gpuamg's device setup across ranks (gpupc/amgdevacross.h; private to
   GPUPC and its tests): PMIS with global measures and ties on the local part with ghosts, and the index moves of the
   interpolation across ranks (the points renumbered by their global numbers, P split into its two blocks).

   GPUPCAMGAcrossKernels is declared once by GPUPC_AMG_ACROSS_KERNEL_LIST (gpupc/kerneltable.h).
   GPUPCAMGAcrossKernelsHost (src/pc/impls/gpuamg/host) is the plain C reference, GPUPCAMGAcrossKernelsCUDA
   (src/pc/impls/gpuamg/cuda) the CUDA version; both run the per-point code of src/pc/impls/gpuamg/amgacrossrows.h, written
   to give the host setup's amgsetupcoarsenacross.c bit for bit. Arrays are device arrays of the table's world (host
   arrays for the host table); outputs are allocated by the caller; counts marked "(host)" come back to the host.
   S (ne rows: the owned points, then the garray ghosts; nx columns) and ST (nx rows, ne columns, rows increasing) are
   the strength graph of the local part with ghosts; the first n points are the owned ones; gidx their global numbers.
*/
#ifndef GPUPC_AMGACROSSKERNELS_H
#define GPUPC_AMGACROSSKERNELS_H

#include <gpupc/amgsetupkernels.h>

/* The table, one line per kernel: X(A, member, Stem, (parameters)) (gpupc/kerneltable.h); the host implementation of a
   member is Stem_Host, the CUDA one Stem_CUDA. */
#define GPUPC_AMG_ACROSS_KERNEL_LIST(X, A)                                                                                                                          \
  /* cnt[p] = the owned rows (columns < n) in row p of ST, p < ST->m: the strong dependences on p counted on this rank */                                           \
  X(A, count_owned, AMGAcrossCountOwned, (const GPUPCDevCSR *ST, PetscInt n, PetscInt *cnt))                                                                        \
  /* PMIS start: w[p] = cnt[p] + GPUPCAMGRandom(gidx[p]), p < nx (cnt: the counts of every rank); for the owned i < n: \
     cf[i] = U first when reset, then an undecided i with cnt[i] == 0 becomes F; *left (host) = the owned U points */                                            \
  X(A, measure, AMGAcrossMeasure, (PetscInt nx, PetscInt n, const PetscInt *cnt, const PetscInt *gidx, PetscInt reset, PetscReal *w, PetscInt *cf, PetscInt *left)) \
  /* beaten[p] = 1 when p is U and an undecided owned row (column < n of ST row p) beats it (larger w, ties: larger \
     gidx), else 0; p < ST->m */                                               \
  X(A, beaten, AMGAcrossBeaten, (const GPUPCDevCSR *ST, PetscInt n, const PetscReal *w, const PetscInt *gidx, const PetscInt *cf, PetscInt *beaten))                \
  /* mark[i] = 1 when i is U, not beaten, and no undecided point of S row i beats it, else 0; i < S->m (the owned \
     rows: the caller passes S with m = n) */                                                 \
  X(A, select, AMGAcrossSelect, (const GPUPCDevCSR *S, const PetscReal *w, const PetscInt *gidx, const PetscInt *cf, const PetscInt *beaten, char *mark))           \
  /* dst[k] = src[idx[k]], k < n */                                                                                                                                 \
  X(A, gather, AMGAcrossGather, (PetscInt n, const PetscInt *idx, const PetscInt *src, PetscInt *dst))                                                              \
  /* dst[idx[k]] = src[k] (k when src is NULL), k < n */                                                                                                            \
  X(A, scatter, AMGAcrossScatter, (PetscInt n, const PetscInt *idx, const PetscInt *src, PetscInt *dst))                                                            \
  /* dst[k] = value + step k, k < n (step 0: a constant, 1: a numbering) */                                                                                         \
  X(A, fill, AMGAcrossFill, (PetscInt n, PetscInt value, PetscInt step, PetscInt * dst))                                                                            \
  /* row pointers of X padded with empty rows to m >= X->m rows: Pi[r] = X->i[min(r, X->m)], r <= m */                                                              \
  X(A, pad_rowptr, AMGAcrossPadRowPtr, (const GPUPCDevCSR *X, PetscInt m, PetscInt *Pi))                                                                            \
  /* flag[P->j[e]] = 1 for every entry e of P (the columns P uses; the other flags are left as they are) */                                                         \
  X(A, mark_cols, AMGAcrossMarkCols, (const GPUPCDevCSR *P, PetscInt *flag))

typedef GPUPC_KERNEL_TABLE(GPUPC_AMG_ACROSS_KERNEL_LIST) GPUPCAMGAcrossKernels;

/* member k of the list is GPUPC_AMG_ACROSS_KERNEL_<member> = k; its name is GPUPCAMGAcrossKernelNames[k] */
typedef enum {
  GPUPC_AMG_ACROSS_KERNEL_LIST(GPUPC_KERNEL_ENUM, GPUPC_AMG_ACROSS_KERNEL_)
  GPUPC_AMG_ACROSS_NKERNELS
} GPUPCAMGAcrossKernelIndex;
PETSC_EXTERN const char *const GPUPCAMGAcrossKernelNames[];

PETSC_INTERN const GPUPCAMGAcrossKernels GPUPCAMGAcrossKernelsHost;
#if defined(GPUPC_HAVE_CUDA)
PETSC_INTERN const GPUPCAMGAcrossKernels GPUPCAMGAcrossKernelsCUDA;
#endif

PETSC_EXTERN PetscErrorCode GPUPCGetAMGAcrossKernels(const GPUPCAMGAcrossKernels **);
PETSC_EXTERN PetscErrorCode GPUPCGetAMGAcrossKernelsFor(PetscGPUPCBackend, const GPUPCAMGAcrossKernels **);

#endif

/*
   Private layout of the bcsr Mat types (seqbcsr, mpibcsr).

   A bcsr matrix is a SEQAIJ/MPIAIJ (host assembly, MatGetRow, MatSetValues(Blocked) from any rank, factorizations)
   whose device ops are overridden; A->spptr holds the device copy in sorted, sliced block CSR (gpupc/bcsrkernels.h,
   docs/algorithms.md 1.3) and, for MPI, the diagonal and off-diagonal blocks and the halo plan. The host AIJ is
   authoritative; the machinery shared with segcsr and hec (GPUPCMatBlocks, gpupc/matgpu.h) keeps the device copy in step
   (build on a new pattern, value-only upload on the same pattern) and runs the operations; this type supplies its block
   operations (bcsrmat.c).

   Off-diagonal block of mpibcsr: its columns are the ghost columns (garray). They are grouped into whole ghost blocks
   (global block column gcol / b): the halo plan fetches all b columns of every ghost block (a non-blocked pattern
   fetches a few entries it multiplies by stored zeros), and colmap[c] is the place of compressed column c there.
*/
#ifndef GPUPC_BCSRIMPL_H
#define GPUPC_BCSRIMPL_H

#include <petscgpupc.h>
#include <gpupc/matgpu.h>
#include <gpupc/bcsrkernels.h>

/* one matrix (block) in bcsr: device arrays plus statistics for the view */
typedef struct {
  GPUPCBCSRDev   d;
  PetscInt       nreal;  /* blocks holding entries (d.nblocks - nreal: padding blocks) */
  PetscInt       minlen; /* blocks per block row: min, max */
  PetscInt       maxlen;
  PetscBool      sorted;  /* block rows sorted by length */
  MatBCSRMapping mapping; /* the slice shape */
} GPUPCBCSRBlock;

typedef struct {
  GPUPCMatBlocks g;          /* first: the shared machinery (gpupc/matgpu.h) reaches it through A->spptr */
  PetscInt       bopt;       /* requested block size, 0 = the Mat's block size */
  MatBCSRMapping mapping;    /* slice shape (-mat_bcsr_mapping) */
  PetscBool      sort;       /* sort block rows by length (-mat_bcsr_sort) */
  GPUPCBCSRBlock diag, offd; /* seq: diag only */
  PetscInt      *colmap;     /* mpi only: expanded ghost position of each compressed off-diagonal column */
} Mat_BCSR;

PETSC_INTERN PetscErrorCode GPUPCBCSRCheckBlockSize(PetscInt, const char *);
PETSC_INTERN PetscErrorCode GPUPCBCSRBlockBuild(const GPUPCCSR *, PetscInt, const PetscInt *, PetscInt, MatBCSRMapping, PetscBool, GPUPCBCSRBlock *);
PETSC_INTERN PetscErrorCode GPUPCBCSRBlockUploadValues(const GPUPCCSR *, GPUPCBCSRBlock *);
PETSC_INTERN PetscErrorCode GPUPCBCSRBlockDestroy(GPUPCBCSRBlock *);
PETSC_INTERN PetscErrorCode GPUPCBCSRBlockView(const GPUPCBCSRBlock *, const char *, PetscBool, PetscViewer);

PETSC_INTERN PetscErrorCode MatCreate_SeqBCSR(Mat);
PETSC_INTERN PetscErrorCode MatCreate_MPIBCSR(Mat);
PETSC_INTERN PetscErrorCode MatCreate_BCSR(Mat);
PETSC_INTERN PetscErrorCode MatConvert_AIJ_BCSR(Mat, MatType, MatReuse, Mat *);
PETSC_INTERN PetscErrorCode MatConvert_BAIJ_BCSR(Mat, MatType, MatReuse, Mat *);
PETSC_INTERN PetscErrorCode MatSetFromOptions_BCSR_Private(Mat, PetscOptionItems *);

PETSC_INTERN PetscLogEvent MATBCSR_Build, MATBCSR_Upload, MATBCSR_Mult, MATBCSR_MultTranspose;

#endif

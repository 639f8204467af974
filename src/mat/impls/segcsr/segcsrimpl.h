/*
   Private layout of the segcsr Mat types (seqsegcsr, mpisegcsr).

   A segcsr matrix is a SEQAIJ/MPIAIJ (host assembly, MatGetRow, MatSetValues from any rank)
   whose ops are overridden; A->spptr holds the device copy in segmented CSR
   (docs/algorithms.md 1.1) and, for MPI, the diagonal and off-diagonal blocks and the halo plan.

   Keeping host and device in sync: the host AIJ is authoritative. Value-changing ops
   (MatScale, MatShift, MatDiagonalScale, MatZeroEntries, MatCopy, MatAXPY, MatZeroRows,
   MatSeqAIJGetArray/Restore, ...) run on the host through the base AIJ op; the device copy
   is refreshed (values only, one upload) at the next device operation when the object
   state changed. MatAssemblyEnd builds (new pattern) or re-uploads values (same pattern)
   at once. Everything but the block layout is shared with hec and bcsr (GPUPCMatBlocks,
   gpupc/matgpu.h); this type supplies its block operations (segcsrmat.c).
*/
#ifndef GPUPC_SEGCSRIMPL_H
#define GPUPC_SEGCSRIMPL_H

#include <petscgpupc.h>
#include <gpupc/matgpu.h>
#include <gpupc/segcsrkernels.h>

/* one matrix (block) in segmented CSR: device arrays plus what the host keeps */
typedef struct {
  GPUPCSegCSRDev     d;
  PetscInt          *h_segptr; /* host copy of segptr (value re-upload) */
  PetscInt           segmin, segmax;
  PetscInt           maxrow;    /* longest row */
  PetscInt           nmedium;   /* rows in the medium bin: d.nmed = nmedium in group mode (a warp each), 0 in tile mode (the tiles hold them) */
  MatSegCSRShortMode shortreq;  /* short-row mode asked for (d.shortmode is what runs) */
  PetscReal          groupbusy; /* share of lane iterations a group per short row keeps busy (1: no warp waits) */
} GPUPCSegCSRBlock;

typedef struct {
  GPUPCMatBlocks     g;          /* first: the shared machinery (gpupc/matgpu.h) reaches it through A->spptr */
  PetscInt           Lopt;       /* requested segment length, 0 = default */
  MatSegCSRShortMode shortopt;   /* requested short-row mode (-mat_segcsr_short), auto by default */
  GPUPCSegCSRBlock   diag, offd; /* seq: diag only */
} Mat_SegCSR;

PETSC_INTERN PetscErrorCode GPUPCSegCSRCheckLength(PetscInt, const char *);
PETSC_INTERN PetscInt       GPUPCSegCSRDefaultLength(PetscInt, PetscInt);
PETSC_INTERN PetscErrorCode GPUPCSegCSRBlockBuild(const GPUPCCSR *, PetscInt, GPUPCSegCSRBlock *);
PETSC_INTERN PetscErrorCode GPUPCSegCSRBlockBuildWithMode(const GPUPCCSR *, PetscInt, MatSegCSRShortMode, GPUPCSegCSRBlock *);
PETSC_INTERN PetscErrorCode GPUPCSegCSRBlockUploadValues(const GPUPCCSR *, GPUPCSegCSRBlock *);
PETSC_INTERN PetscErrorCode GPUPCSegCSRBlockDestroy(GPUPCSegCSRBlock *);
PETSC_INTERN PetscErrorCode GPUPCSegCSRBlockView(GPUPCSegCSRBlock *, const char *, PetscBool, PetscViewer);

PETSC_INTERN PetscErrorCode         MatCreate_SeqSegCSR(Mat);
PETSC_INTERN PetscErrorCode         MatCreate_MPISegCSR(Mat);
PETSC_INTERN PetscErrorCode         MatCreate_SegCSR(Mat);
PETSC_INTERN PetscErrorCode         MatSetFromOptions_SegCSR_Private(Mat, PetscOptionItems *);
PETSC_INTERN const GPUPCMatComposed MatSegCSRComposed[];

PETSC_INTERN PetscLogEvent MATSEGCSR_Build, MATSEGCSR_Upload, MATSEGCSR_Mult, MATSEGCSR_MultTranspose;

#endif

/*
   Private layout of the HEC Mat types (seqhec, mpihec): hybrid ELL + CSR on the device.

   As segcsr (segcsrimpl.h): a SEQAIJ/MPIAIJ whose host data stays authoritative (assembly, MatGetRow,
   MatSetValues from any rank, every value-changing op runs on the host), with the device copy kept in
   step by the machinery shared with segcsr and bcsr (GPUPCMatBlocks, gpupc/matgpu.h): a build on a new
   nonzero pattern, a value-only update (the CSR values staged to the device and laid into the ELL and
   remainder slots there) on the same pattern. A->spptr holds the device blocks (the diagonal one; for
   MPI also the off-diagonal one) and the shared record with the halo plan; hecmat.c supplies the blocks.
*/
#ifndef GPUPC_HECIMPL_H
#define GPUPC_HECIMPL_H

#include <petscgpupc.h>
#include <gpupc/matgpu.h>
#include <gpupc/heckernels.h>

/* the default p_r of the cost model, chosen by the bench/spmv sweep over p_r = 1 .. 64 on an H100 (bench/NOTES.md,
   "hec p_r sweep"): only the matrices with rows longer than K move; p_r = 12 keeps the power grid's K at its busiest
   width (6: 1.34x cuSPARSE) and gives the power-law graph the narrower ELL part it prefers (K 11 against 15 at the
   paper's 20: 0.60x against 0.57x cuSPARSE), the best geometric mean of the sweep */
#define GPUPC_HEC_DEFAULT_RATIO 12.0

/* one matrix (block) in HEC: device arrays plus what the host keeps */
typedef struct {
  GPUPCHECDev d;
  PetscInt   *h_rowptr;  /* host copy of the row pointers (the rows of a chunk of a value update) */
  PetscInt    maxrow;    /* longest row */
  PetscReal   ratio;     /* p_r the block was built with */
  PetscInt    Kcost;     /* the width the cost model gives (d.K unless forced) */
  PetscBool   forced;    /* d.K was forced (-mat_hec_ell_width) */
  PetscInt    nwarp;     /* rows of the warp bin (d.nlong - d.nblock) */
  PetscInt    nslabrows; /* rows kept whole in the slabs */
} GPUPCHECBlock;

typedef struct {
  GPUPCMatBlocks g;          /* first: the shared machinery (gpupc/matgpu.h) reaches it through A->spptr */
  PetscReal      ratio;      /* p_r of the cost model */
  PetscInt       Kopt;       /* forced ELL width, PETSC_DECIDE (-1): the cost model */
  GPUPCHECBlock  diag, offd; /* seq: diag only */
} Mat_HEC;

PETSC_INTERN PetscErrorCode GPUPCHECCheckRatio(PetscReal, const char *);
PETSC_INTERN PetscErrorCode GPUPCHECCheckWidth(PetscInt, const char *);
PETSC_INTERN PetscErrorCode GPUPCHECBlockBuild(const GPUPCCSR *, PetscReal, PetscInt, GPUPCHECBlock *);
PETSC_INTERN PetscErrorCode GPUPCHECBlockUploadValues(const GPUPCCSR *, GPUPCHECBlock *);
PETSC_INTERN PetscErrorCode GPUPCHECBlockDestroy(GPUPCHECBlock *);
PETSC_INTERN PetscErrorCode GPUPCHECBlockView(const GPUPCHECBlock *, const char *, PetscBool, PetscViewer);

PETSC_INTERN PetscErrorCode         MatCreate_SeqHEC(Mat);
PETSC_INTERN PetscErrorCode         MatCreate_MPIHEC(Mat);
PETSC_INTERN PetscErrorCode         MatCreate_HEC(Mat);
PETSC_INTERN PetscErrorCode         MatSetFromOptions_HEC_Private(Mat, PetscOptionItems *);
PETSC_INTERN const GPUPCMatComposed MatHECComposed[];

PETSC_INTERN PetscLogEvent MATHEC_Build, MATHEC_Upload, MATHEC_Mult, MATHEC_MultTranspose;

#endif

/*
   gpupc/devmat.h - a sparse matrix on the device in any GPUPC format, without a Mat (private): the level matrices of
   cmg and gpuamg.

   A GPUPCDevMat is {the format's GPUPCMatBlockOps, one block of that format}: the same table and block that the Mat
   types segcsr, hec and bcsr are made of (gpupc/matgpu.h), reached here without the AIJ subclassing, so a multigrid
   level can be held in any format and the PCs call products, diagonals and value updates through the table. Adding a
   format to the levels is adding a GPUPCMatBlockOps (with blocksize and buildcsr) and a name below.

   Created from a SEQAIJ, from CSR on the host, or from CSR already on the device (row pointers, columns, values: the
   device setups build their levels so; every format computes its structure on the device too, gpupc/formatkernels.h;
   bcsr's blocks need each row's columns strictly increasing there, and a block size:
   GPUPCDevMatCreateFromDeviceCSRBlocked). auto picks per matrix (GPUPCDevMatChoose): bcsr when the block size is
   above 1 and the bs x bs blocks are at least 3/4 full (counted on the device for device CSR), else hec when the longest row is at most twice the mean, the mean
   at most 16 and the rows at least 262144, else segcsr;
   GPUPCDevMatView says which format and why.

   A GPUPCDevCSR of the setups (gpupc/sparsekernels.h) becomes a level with
   GPUPCDevMatCreateFromDeviceCSR(A->m, A->n, A->nnz, A->i, A->j, A->a, format, &dm). All vector arguments are device
   arrays (gpupc/device.h). The functions are exported for the tests. The block of
   segcsr and hec begins with its device description (GPUPCSegCSRDev, GPUPCHECDev), which the fused kernels of a
   format (cmg's segcsr cycle) and the tests read.
*/
#ifndef GPUPC_DEVMAT_H
#define GPUPC_DEVMAT_H

#include <gpupc/matgpu.h>

typedef enum {
  GPUPC_DEVMAT_SEGCSR,
  GPUPC_DEVMAT_HEC,
  GPUPC_DEVMAT_BCSR,
  GPUPC_DEVMAT_AUTO
} GPUPCDevMatFormat;
/* "segcsr", "hec", "bcsr", "auto" and the PetscOptionsEnum tail */
PETSC_EXTERN const char *const GPUPCDevMatFormats[];

/* auto's thresholds: a blocked matrix whose blocks are this full goes to bcsr; rows this regular, this short on
   average, and this many, to hec. Measured on gpuamg's levels of a 7.2M-row 3D Laplacian (H200, bench/NOTES.md
   2026-11-29c lead): hec's product 0.84x segcsr's on the operator (7 entries a row), 1.17x on the first coarse level
   (2.4M rows of 28), 1.3-9x on the coarser levels (rows of 60-150, 300k rows and fewer) */
/* and a blocked matrix goes to bcsr only with rows this short on average: bcsr walks a row's blocks one after another
   in one thread, so the long block rows of smoothed aggregation's coarse levels (6 x 6 blocks, 200-300 entries a row)
   took 2-3x segcsr's time even with a slice split among groups of lanes, while Q1 elasticity's operator (81 entries a
   row, 3 x 3 blocks) took 0.72x (H200, bench/NOTES.md 2026-11-29e lead) */
#define GPUPC_DEVMAT_AUTO_BCSRMEAN  128.0
#define GPUPC_DEVMAT_AUTO_BLOCKFILL 0.75
#define GPUPC_DEVMAT_AUTO_ROWRATIO  2.0
#define GPUPC_DEVMAT_AUTO_HECMEAN   16.0
#define GPUPC_DEVMAT_AUTO_HECROWS   262144

typedef struct _n_GPUPCDevMat *GPUPCDevMat;
struct _n_GPUPCDevMat {
  const GPUPCMatBlockOps *ops;         /* the format */
  void                   *block;       /* its block (ops->blocksize bytes) */
  PetscInt                m, n, nnz;   /* rows, columns, stored entries */
  PetscInt                bs;          /* block size the matrix was given (1: none) */
  PetscInt               *h_i;         /* m+1 host row pointers (value updates from the host); NULL when built from device CSR */
  size_t                  bytes;       /* device memory the block holds (measured at the build) */
  char                    reason[160]; /* why this format: asked for, or auto's statistics */
};

PETSC_EXTERN PetscErrorCode GPUPCDevMatChoose(GPUPCDevMatFormat, const GPUPCCSR *, PetscInt, const GPUPCMatBlockOps **, char *, size_t);
PETSC_EXTERN PetscErrorCode GPUPCDevMatChooseForMat(Mat, GPUPCDevMatFormat, const GPUPCMatBlockOps **, char *, size_t);
PETSC_EXTERN PetscErrorCode GPUPCDevMatCreate(const GPUPCCSR *, PetscInt, GPUPCDevMatFormat, GPUPCDevMat *);
PETSC_EXTERN PetscErrorCode GPUPCDevMatCreateFromSeqAIJ(Mat, GPUPCDevMatFormat, GPUPCDevMat *);
PETSC_EXTERN PetscErrorCode GPUPCDevMatCreateFromDeviceCSR(PetscInt, PetscInt, PetscInt, const PetscInt *, const PetscInt *, const PetscScalar *, GPUPCDevMatFormat, GPUPCDevMat *);
PETSC_EXTERN PetscErrorCode GPUPCDevMatCreateFromDeviceCSRBlocked(PetscInt, PetscInt, PetscInt, const PetscInt *, const PetscInt *, const PetscScalar *, PetscInt, GPUPCDevMatFormat, GPUPCDevMat *);
PETSC_EXTERN PetscErrorCode GPUPCDevMatMult(GPUPCDevMat, const PetscScalar *, const PetscScalar *, PetscScalar *);
PETSC_EXTERN PetscErrorCode GPUPCDevMatMultTransposeAdd(GPUPCDevMat, const PetscScalar *, PetscScalar *);
PETSC_EXTERN PetscErrorCode GPUPCDevMatGetDiagonal(GPUPCDevMat, PetscScalar *);
PETSC_EXTERN PetscErrorCode GPUPCDevMatUpdateValues(GPUPCDevMat, const PetscScalar *, PetscBool);
PETSC_EXTERN PetscErrorCode GPUPCDevMatGetBlock(GPUPCDevMat, const GPUPCMatBlockOps **, void **);
PETSC_EXTERN PetscErrorCode GPUPCDevMatView(GPUPCDevMat, const char *, PetscViewer);
PETSC_EXTERN PetscErrorCode GPUPCDevMatViewFormat(GPUPCDevMat, const char *, PetscViewer);
PETSC_EXTERN PetscErrorCode GPUPCDevMatDestroy(GPUPCDevMat *);
/* a sequential Mat (MATSHELL) applying the matrix on gpu Vecs, owning it (devmatshell.c) */
PETSC_EXTERN PetscErrorCode GPUPCDevMatCreateMat(GPUPCDevMat, Mat *);
PETSC_EXTERN PetscErrorCode GPUPCDevMatFromMat(Mat, GPUPCDevMat *);

#endif

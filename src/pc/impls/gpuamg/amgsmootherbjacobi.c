/*
   PC gpuamg's point-block Jacobi smoother (registered as bjacobi), docs/algorithms.md 4.2:

     x += omega_l D_B^-1 (b - A x),   omega_l = w 4 / (3 lambda_l),   lambda_l >= lambda_max(D_B^-1 A_l)

   D_B is the block diagonal of the level matrix over its block size (MatGetBlockSize of the level: the unknowns per
   node on the finest level, the near-null-space vectors per aggregate on the coarse levels of aggregation); a level of
   block size 1 is the jacobi smoother (same lambda_l, same damping, the same fused step on omega_l dinv): it reads no
   host matrix, so the device setup keeps no host levels for it (needs_host_blocks). The inverses of the
   blocks are computed, uploaded and applied by PC gpubjacobi's shared code (gpubjacobiblocks.c: dense inverses of
   1..32 rows, one batched kernel per application); lambda_l of a block size > 1 comes from Lanczos in the D_B inner
   product (amgsmootherlambda.c). The transpose is the same step with A^T and the transposed inverses. Blocks never cross
   ranks (the local rows of each rank are cut into blocks).
*/
#include <gpupc/amgcycle.h>
#include <gpupc/gpubjacobi.h>

typedef struct {
  PetscInt       bs;     /* the level's block size */
  GPUPCPBJBlocks blocks; /* bs > 1: the inverses of the diagonal blocks on the device */
  Vec            z;      /* bs > 1: D_B^-1 (b - A x); bs 1: omega_l dinv, the weights of the Jacobi step */
} BJacobiData;

static PetscErrorCode DestroyBJacobi(PCGPUAMGSmootherLevel *S)
{
  BJacobiData *d = (BJacobiData *)S->data;

  PetscFunctionBegin;
  if (d->bs > 1) PetscCall(GPUPCPBJBlocksDestroy(&d->blocks));
  PetscCall(VecDestroy(&d->z));
  PetscCall(PetscFree(S->data));
  PetscFunctionReturn(0);
}

static PetscErrorCode SetUpBJacobi(PCGPUAMGSmootherLevel *S)
{
  BJacobiData *d;
  PetscInt     bs, n;

  PetscFunctionBegin;
  PetscCall(MatGetBlockSize(S->A, &bs));
  PetscCheck(bs <= GPUPC_PBJ_MAX_BS, PetscObjectComm((PetscObject)S->A), PETSC_ERR_SUP, "PC gpuamg: the bjacobi smoother inverts blocks of at most %d rows; level %" PetscInt_FMT " has block size %" PetscInt_FMT " (for aggregation: the near-null-space vectors). Use another smoother (-pc_gpuamg_smoother jacobi or chebyshev)", GPUPC_PBJ_MAX_BS, S->level, bs);
  PetscCall(PetscNew(&d));
  S->data = d;
  d->bs   = bs;
  PetscCall(VecDuplicate(S->x, &d->z));
  PetscCall(VecGetLocalSize(S->x, &n));
  if (bs == 1) { /* jacobi: its lambda_l and its step, from the device scalings (no host matrix) */
    PetscCall(GPUPCAMGSmootherLambda(GPUPCAMGSmootherKernels(S), S->A, S->dinv, S->level, S->gersh, &S->ritz, &S->lambda));
    S->omega = S->weight * 4.0 / (3.0 * S->lambda);
    PetscCall(VecCopy(S->dinv, d->z));
    PetscCall(VecScale(d->z, S->omega));
    S->bytes += sizeof(PetscScalar) * (size_t)n;
    PetscFunctionReturn(0);
  }
  PetscCall(GPUPCPBJBlocksSetUp(S->A, bs, NULL, &d->blocks, NULL));
  PetscCall(GPUPCAMGSmootherLambdaBlock(GPUPCAMGSmootherKernels(S), S->A, &d->blocks, S->x, S->level, &S->ritz, &S->lambda));
  S->omega = S->weight * 4.0 / (3.0 * S->lambda);
  S->bytes += sizeof(PetscScalar) * ((size_t)d->blocks.ld * bs + (size_t)n);
  PetscFunctionReturn(0);
}

static PetscErrorCode ApplyBJacobi(PCGPUAMGSmootherLevel *S, PetscBool transpose, PetscInt sweeps, PetscBool zero)
{
  BJacobiData *d = (BJacobiData *)S->data;
  PetscInt     N;

  PetscFunctionBegin;
  if (d->bs == 1) {
    for (PetscInt s = 0; s < sweeps; s++) PetscCall(GPUPCAMGSmootherJacobiStep(S, d->z, transpose, (PetscBool)(zero && s == 0)));
    PetscFunctionReturn(0);
  }
  PetscCall(VecGetSize(S->x, &N));
  for (PetscInt s = 0; s < sweeps; s++) {
    if (zero && s == 0) { /* x = omega D_B^-1 b */
      PetscCall(GPUPCPBJBlocksApply(&d->blocks, transpose, NULL, S->b, S->x));
      PetscCall(VecScale(S->x, S->omega));
      PetscCall(GPUPCAMGSmootherCountBytes(S, (4.0 + d->blocks.bs) * sizeof(PetscScalar) * N));
    } else { /* x += omega D_B^-1 (b - A x) */
      PetscCall(PCGPUAMGSmootherMult(S, transpose, S->x, S->r));
      PetscCall(VecAYPX(S->r, -1.0, S->b));
      PetscCall(GPUPCPBJBlocksApply(&d->blocks, transpose, NULL, S->r, d->z));
      PetscCall(VecAXPY(S->x, S->omega, d->z));
      PetscCall(GPUPCAMGSmootherCountBytes(S, (8.0 + d->blocks.bs) * sizeof(PetscScalar) * N));
    }
  }
  PetscFunctionReturn(0);
}

/* the damping and the block size of every smoothed level (the view gets level 0's smoother; the others are read
   through the cycle) */
static PetscErrorCode ViewBJacobi(PCGPUAMGSmootherLevel *S, PetscViewer v)
{
  const GPUPCAMGDevice *D = (const GPUPCAMGDevice *)S->cycle;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(v, "bjacobi: omega_l = %g * 4 / (3 lambda_l), lambda_l = 1.1 * largest Ritz value of %d Lanczos steps in the D_B inner product >= lambda_max(D_B^-1 A_l) (block size 1: jacobi's lambda_l)\n", (double)S->weight, GPUPC_AMG_LANCZOS_STEPS));
  PetscCall(PetscViewerASCIIPrintf(v, "bjacobi block size per level (dense inverses of the diagonal blocks by the gpubjacobi kernels):"));
  PetscCall(PetscViewerASCIIUseTabs(v, PETSC_FALSE));
  for (PetscInt l = 0; D && l < D->nlevels - 1; l++) {
    const BJacobiData *d = (const BJacobiData *)D->levels[l].sm.data;
    PetscCall(PetscViewerASCIIPrintf(v, " %" PetscInt_FMT, d ? d->bs : 0));
  }
  PetscCall(PetscViewerASCIIPrintf(v, "\n"));
  PetscCall(PetscViewerASCIIUseTabs(v, PETSC_TRUE));
  PetscFunctionReturn(0);
}

const PCGPUAMGSmootherOps GPUPCAMGSmootherOpsBJacobi = {SetUpBJacobi, ApplyBJacobi, ViewBJacobi, DestroyBJacobi, 1, PETSC_FALSE, PETSC_FALSE, PETSC_TRUE, PETSC_FALSE, PETSC_TRUE};

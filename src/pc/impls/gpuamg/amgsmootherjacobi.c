/*
   PC gpuamg's Jacobi smoothers (registered as jacobi and l1jacobi), docs/algorithms.md 4.2:

     jacobi      x += omega_l D^-1 (b - A x), omega_l = w 4 / (3 lambda_l), w = -pc_gpuamg_jacobi_weight (1): a fixed
                 omega (2/3 before) is no smoother where lambda_max(D^-1 A) nears 3 or more, as on coarse classical and
                 aggregation levels (issue 34: CG indefinite, Richardson divergent)
     l1jacobi    x += w D_l1^-1 (b - A x), (D_l1)_ii = |a_ii| + sum_{j != i} |a_ij|: convergent for every SPD matrix, no
                 eigenvalue estimate needed

   Both are polynomials in W A with W diagonal, so symmetric in the A inner product, and their transpose is the same
   step with A^T. A step from a zero iterate skips its product with A.
*/
#include <gpupc/amgcycle.h>

/* GPUPCAMGSmootherJacobiStep - one step x += w .* (b - A x) (zero: x = w .* b) with the fused kernel */
PetscErrorCode GPUPCAMGSmootherJacobiStep(PCGPUAMGSmootherLevel *S, Vec wv, PetscBool transpose, PetscBool zero)
{
  const PetscScalar *w, *b, *q = NULL;
  PetscScalar       *x;
  PetscInt           n, N;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(S->x, &n));
  PetscCall(VecGetSize(S->x, &N));
  if (!zero) PetscCall(PCGPUAMGSmootherMult(S, transpose, S->x, S->r));
  PetscCall(GPUPCAMGSmootherCountBytes(S, (zero ? 3.0 : 5.0) * sizeof(PetscScalar) * N));
  PetscCall(VecGPUGetDeviceArrayRead(wv, &w));
  PetscCall(VecGPUGetDeviceArrayRead(S->b, &b));
  if (!zero) PetscCall(VecGPUGetDeviceArrayRead(S->r, &q));
  if (zero) PetscCall(VecGPUGetDeviceArrayWrite(S->x, &x));
  else PetscCall(VecGPUGetDeviceArray(S->x, &x));
  PetscCall(GPUPCAMGSmootherKernels(S)->jacobi(n, zero, w, b, q, x));
  if (zero) PetscCall(VecGPURestoreDeviceArrayWrite(S->x, &x));
  else PetscCall(VecGPURestoreDeviceArray(S->x, &x));
  if (!zero) PetscCall(VecGPURestoreDeviceArrayRead(S->r, &q));
  PetscCall(VecGPURestoreDeviceArrayRead(S->b, &b));
  PetscCall(VecGPURestoreDeviceArrayRead(wv, &w));
  PetscFunctionReturn(0);
}

/* the scaling w = omega * s of a level (s: dinv or dl1), held as the smoother's data (jacobi, l1jacobi, polynomial) */
PetscErrorCode GPUPCAMGSmootherSetUpScaled(PCGPUAMGSmootherLevel *S, Vec s, PetscReal omega)
{
  Vec     *w;
  PetscInt n;

  PetscFunctionBegin;
  PetscCall(PetscNew(&w));
  PetscCall(VecDuplicate(s, w));
  PetscCall(VecCopy(s, *w));
  PetscCall(VecScale(*w, omega));
  PetscCall(VecGetLocalSize(s, &n));
  S->omega = omega;
  S->data  = w;
  S->bytes += sizeof(PetscScalar) * (size_t)n;
  PetscFunctionReturn(0);
}

static PetscErrorCode SetUpJacobi(PCGPUAMGSmootherLevel *S)
{
  PetscFunctionBegin;
  PetscCall(GPUPCAMGSmootherSetUpScaled(S, S->dinv, S->weight * 4.0 / (3.0 * S->lambda)));
  PetscFunctionReturn(0);
}

static PetscErrorCode SetUpL1Jacobi(PCGPUAMGSmootherLevel *S)
{
  PetscFunctionBegin;
  PetscCall(GPUPCAMGSmootherSetUpScaled(S, S->dl1, S->weight));
  PetscFunctionReturn(0);
}

static PetscErrorCode ApplyScaled(PCGPUAMGSmootherLevel *S, PetscBool transpose, PetscInt sweeps, PetscBool zero)
{
  Vec w = *(Vec *)S->data;

  PetscFunctionBegin;
  for (PetscInt s = 0; s < sweeps; s++) PetscCall(GPUPCAMGSmootherJacobiStep(S, w, transpose, (PetscBool)(zero && s == 0)));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCAMGSmootherDestroyScaled(PCGPUAMGSmootherLevel *S)
{
  PetscFunctionBegin;
  PetscCall(VecDestroy((Vec *)S->data));
  PetscCall(PetscFree(S->data));
  PetscFunctionReturn(0);
}

static PetscErrorCode ViewJacobi(PCGPUAMGSmootherLevel *S, PetscViewer v)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(v, "jacobi: omega_l = %g * 4 / (3 lambda_l) per level\n", (double)S->weight));
  PetscFunctionReturn(0);
}

static PetscErrorCode ViewL1Jacobi(PCGPUAMGSmootherLevel *S, PetscViewer v)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(v, "l1jacobi: weight %g on 1 / (|a_ii| + sum_j!=i |a_ij|)\n", (double)S->weight));
  PetscFunctionReturn(0);
}

const PCGPUAMGSmootherOps GPUPCAMGSmootherOpsJacobi   = {SetUpJacobi, ApplyScaled, ViewJacobi, GPUPCAMGSmootherDestroyScaled, 1, PETSC_TRUE, PETSC_FALSE, PETSC_TRUE, PETSC_FALSE, PETSC_FALSE};
const PCGPUAMGSmootherOps GPUPCAMGSmootherOpsL1Jacobi = {SetUpL1Jacobi, ApplyScaled, ViewL1Jacobi, GPUPCAMGSmootherDestroyScaled, 1, PETSC_FALSE, PETSC_FALSE, PETSC_TRUE, PETSC_FALSE, PETSC_FALSE};

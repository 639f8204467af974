/*
   PC gpuamg's polynomial smoothers (registered as chebyshev and polynomial), docs/algorithms.md 4.2:

     chebyshev   the Chebyshev polynomial of degree k (products with A per sweep) in D^-1 A on [lambda_l/10, lambda_l],
                 three-term recurrence on the correction d (Saad, Iterative Methods for Sparse Linear Systems, Alg. 12.1)
     polynomial  x += omega (I + G + ... + G^m) D^-1 (b - A x), G = I - omega D^-1 A: the truncated Neumann series of
                 (omega D^-1 A)^-1, omega = 4 / (3 lambda_l). Since (I + G + ... + G^m) omega D^-1 A = I - G^{m+1},
                 a sweep is exactly m+1 damped Jacobi steps with that omega, and it is applied so.
*/
#include <gpupc/amgcycle.h>

typedef struct {
  Vec       d;            /* the Chebyshev direction */
  PetscReal theta, delta; /* centre and half width of the interval */
} Chebyshev;

static PetscErrorCode SetUpChebyshev(PCGPUAMGSmootherLevel *S)
{
  Chebyshev      *c;
  const PetscReal lo = S->lambda / GPUPC_AMG_CHEBYSHEV_LOWER, hi = S->lambda;
  PetscInt        n;

  PetscFunctionBegin;
  PetscCall(PetscNew(&c));
  PetscCall(VecDuplicate(S->x, &c->d));
  PetscCall(VecSet(c->d, 0.0));
  c->theta = 0.5 * (hi + lo);
  c->delta = 0.5 * (hi - lo);
  PetscCall(VecGetLocalSize(S->x, &n));
  S->bytes += sizeof(PetscScalar) * (size_t)n;
  S->data = c;
  PetscFunctionReturn(0);
}

/* one Chebyshev step: d = alpha d + beta dinv .* (b - A x), x += d (zero: d = beta dinv .* b, x = d) */
static PetscErrorCode ChebyshevStep(PCGPUAMGSmootherLevel *S, Vec dv, PetscBool transpose, PetscBool zero, PetscReal alpha, PetscReal beta)
{
  const PetscScalar *w, *b, *q = NULL;
  PetscScalar       *x, *d;
  PetscInt           n, N;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(S->x, &n));
  PetscCall(VecGetSize(S->x, &N));
  if (!zero) PetscCall(PCGPUAMGSmootherMult(S, transpose, S->x, S->r));
  PetscCall(GPUPCAMGSmootherCountBytes(S, (zero ? 4.0 : (alpha == 0.0 ? 6.0 : 7.0)) * sizeof(PetscScalar) * N));
  PetscCall(VecGPUGetDeviceArrayRead(S->dinv, &w));
  PetscCall(VecGPUGetDeviceArrayRead(S->b, &b));
  if (!zero) PetscCall(VecGPUGetDeviceArrayRead(S->r, &q));
  if (zero) PetscCall(VecGPUGetDeviceArrayWrite(S->x, &x));
  else PetscCall(VecGPUGetDeviceArray(S->x, &x));
  if (zero || alpha == 0.0) PetscCall(VecGPUGetDeviceArrayWrite(dv, &d));
  else PetscCall(VecGPUGetDeviceArray(dv, &d));
  PetscCall(GPUPCAMGSmootherKernels(S)->chebyshev(n, zero, alpha, beta, w, b, q, d, x));
  if (zero || alpha == 0.0) PetscCall(VecGPURestoreDeviceArrayWrite(dv, &d));
  else PetscCall(VecGPURestoreDeviceArray(dv, &d));
  if (zero) PetscCall(VecGPURestoreDeviceArrayWrite(S->x, &x));
  else PetscCall(VecGPURestoreDeviceArray(S->x, &x));
  if (!zero) PetscCall(VecGPURestoreDeviceArrayRead(S->r, &q));
  PetscCall(VecGPURestoreDeviceArrayRead(S->b, &b));
  PetscCall(VecGPURestoreDeviceArrayRead(S->dinv, &w));
  PetscFunctionReturn(0);
}

static PetscErrorCode ApplyChebyshev(PCGPUAMGSmootherLevel *S, PetscBool transpose, PetscInt sweeps, PetscBool zero)
{
  Chebyshev      *c     = (Chebyshev *)S->data;
  const PetscReal sigma = c->theta / c->delta;

  PetscFunctionBegin;
  for (PetscInt s = 0; s < sweeps; s++) {
    PetscReal rho = 1.0 / sigma, rnew;

    PetscCall(ChebyshevStep(S, c->d, transpose, (PetscBool)(zero && s == 0), 0.0, 1.0 / c->theta));
    for (PetscInt j = 1; j < S->cheby_degree; j++) {
      rnew = 1.0 / (2.0 * sigma - rho);
      PetscCall(ChebyshevStep(S, c->d, transpose, PETSC_FALSE, rnew * rho, 2.0 * rnew / c->delta));
      rho = rnew;
    }
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode DestroyChebyshev(PCGPUAMGSmootherLevel *S)
{
  Chebyshev *c = (Chebyshev *)S->data;

  PetscFunctionBegin;
  PetscCall(VecDestroy(&c->d));
  PetscCall(PetscFree(S->data));
  PetscFunctionReturn(0);
}

static PetscErrorCode ViewChebyshev(PCGPUAMGSmootherLevel *S, PetscViewer v)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(v, "chebyshev: degree %" PetscInt_FMT " on [lambda_l/%g, lambda_l]\n", S->cheby_degree, GPUPC_AMG_CHEBYSHEV_LOWER));
  PetscFunctionReturn(0);
}

/* polynomial: w = omega dinv, omega = 4 / (3 lambda); a sweep = m+1 Jacobi steps */
static PetscErrorCode SetUpPolynomial(PCGPUAMGSmootherLevel *S)
{
  PetscFunctionBegin;
  PetscCall(GPUPCAMGSmootherSetUpScaled(S, S->dinv, 4.0 / (3.0 * S->lambda)));
  PetscFunctionReturn(0);
}

static PetscErrorCode ApplyPolynomial(PCGPUAMGSmootherLevel *S, PetscBool transpose, PetscInt sweeps, PetscBool zero)
{
  Vec w = *(Vec *)S->data;

  PetscFunctionBegin;
  for (PetscInt s = 0; s < sweeps; s++)
    for (PetscInt j = 0; j <= S->poly_degree; j++) PetscCall(GPUPCAMGSmootherJacobiStep(S, w, transpose, (PetscBool)(zero && s == 0 && j == 0)));
  PetscFunctionReturn(0);
}

static PetscErrorCode ViewPolynomial(PCGPUAMGSmootherLevel *S, PetscViewer v)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(v, "polynomial: Neumann degree %" PetscInt_FMT ", omega_l = 4 / (3 lambda_l)\n", S->poly_degree));
  PetscFunctionReturn(0);
}

const PCGPUAMGSmootherOps GPUPCAMGSmootherOpsChebyshev  = {SetUpChebyshev, ApplyChebyshev, ViewChebyshev, DestroyChebyshev, 1, PETSC_TRUE, PETSC_FALSE, PETSC_TRUE, PETSC_FALSE, PETSC_FALSE};
const PCGPUAMGSmootherOps GPUPCAMGSmootherOpsPolynomial = {SetUpPolynomial, ApplyPolynomial, ViewPolynomial, GPUPCAMGSmootherDestroyScaled, 1, PETSC_TRUE, PETSC_FALSE, PETSC_TRUE, PETSC_FALSE, PETSC_FALSE};

/*
   Host reference implementation of the gpuamg cycle kernels (gpupc/amgkernels.h): plain loops, the semantics the CUDA
   kernels must match.
*/
#include <gpupc/amgkernels.h>

static PetscErrorCode AMGJacobi_Host(PetscInt n, PetscBool zero, const PetscScalar *w, const PetscScalar *b, const PetscScalar *q, PetscScalar *x)
{
  if (zero)
    for (PetscInt i = 0; i < n; i++) x[i] = w[i] * b[i];
  else
    for (PetscInt i = 0; i < n; i++) x[i] += w[i] * (b[i] - q[i]);
  return 0;
}

static PetscErrorCode AMGChebyshev_Host(PetscInt n, PetscBool zero, PetscScalar alpha, PetscScalar beta, const PetscScalar *w, const PetscScalar *b, const PetscScalar *q, PetscScalar *d, PetscScalar *x)
{
  if (zero) {
    for (PetscInt i = 0; i < n; i++) {
      d[i] = beta * w[i] * b[i];
      x[i] = d[i];
    }
  } else {
    for (PetscInt i = 0; i < n; i++) {
      d[i] = (alpha == 0.0 ? 0.0 : alpha * d[i]) + beta * w[i] * (b[i] - q[i]);
      x[i] += d[i];
    }
  }
  return 0;
}

static PetscErrorCode AMGResidual_Host(PetscInt n, const PetscScalar *b, PetscScalar *r)
{
  for (PetscInt i = 0; i < n; i++) r[i] = b[i] - r[i];
  return 0;
}

static PetscErrorCode AMGDenseMult_Host(PetscInt m, PetscBool transpose, const PetscScalar *M, const PetscScalar *x, PetscScalar *y)
{
  if (!transpose) {
    for (PetscInt i = 0; i < m; i++) {
      PetscScalar s = 0.0;
      for (PetscInt j = 0; j < m; j++) s += M[(size_t)i * m + j] * x[j];
      y[i] = s;
    }
  } else {
    for (PetscInt j = 0; j < m; j++) y[j] = 0.0;
    for (PetscInt i = 0; i < m; i++)
      for (PetscInt j = 0; j < m; j++) y[j] += M[(size_t)i * m + j] * x[i];
  }
  return 0;
}

static PetscErrorCode AMGGSColour_Host(PetscInt nr, const PetscInt *rows, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, const PetscScalar *dinv, const PetscScalar *b, PetscScalar *x)
{
  for (PetscInt k = 0; k < nr; k++) {
    const PetscInt i = rows[k];
    PetscScalar    s = b[i];

    for (PetscInt e = ai[i]; e < ai[i + 1]; e++) s -= aa[e] * x[aj[e]];
    x[i] += dinv[i] * s;
  }
  return 0;
}

static PetscErrorCode AMGScaling_Host(PetscInt n, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, PetscScalar *dinv, PetscScalar *dl1, PetscReal *gersh, PetscInt *bad)
{
  *gersh = 0.0;
  bad[0] = bad[1] = -1;
  for (PetscInt i = 0; i < n; i++) {
    PetscScalar dii = 0, l1 = 0;
    int         z, f;

    for (PetscInt k = ai[i]; k < ai[i + 1]; k++) {
      if (aj[k] == i) dii += aa[k];
      else l1 += PetscAbsScalar(aa[k]);
    }
    dinv[i] = GPUPCAMGRowScaling(dii, l1, gersh, &dl1[i], &z, &f);
    if (z && bad[0] < 0) bad[0] = i;
    if (f && bad[1] < 0) bad[1] = i;
  }
  return 0;
}

static PetscErrorCode AMGRandom_Host(PetscInt n, PetscInt seed, PetscInt first, PetscScalar *x)
{
  for (PetscInt i = 0; i < n; i++) x[i] = GPUPCAMGRandomSigned(seed, first + i);
  return 0;
}

GPUPC_KERNEL_TABLE_DEFINE(GPUPCAMGKernels, GPUPCAMGKernelsHost, GPUPC_AMG_KERNEL_LIST, "host", _Host);

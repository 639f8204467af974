/*
   Host reference implementation of the vector kernels (gpupc/veckernels.h).
   Plain loops: the semantics every other implementation must match.
*/
#include <gpupc/veckernels.h>

static PetscErrorCode Set_Host(PetscInt n, PetscScalar alpha, PetscScalar *y)
{
  for (PetscInt i = 0; i < n; i++) y[i] = alpha;
  return 0;
}

static PetscErrorCode Scale_Host(PetscInt n, PetscScalar alpha, PetscScalar *y)
{
  for (PetscInt i = 0; i < n; i++) y[i] *= alpha;
  return 0;
}

static PetscErrorCode Shift_Host(PetscInt n, PetscScalar alpha, PetscScalar *y)
{
  for (PetscInt i = 0; i < n; i++) y[i] += alpha;
  return 0;
}

static PetscErrorCode AXPBY_Host(PetscInt n, PetscScalar alpha, const PetscScalar *x, PetscScalar beta, PetscScalar *y)
{
  if (beta == 0.0)
    for (PetscInt i = 0; i < n; i++) y[i] = alpha * x[i];
  else
    for (PetscInt i = 0; i < n; i++) y[i] = alpha * x[i] + beta * y[i];
  return 0;
}

static PetscErrorCode AXPBYPCZ_Host(PetscInt n, PetscScalar alpha, const PetscScalar *x, PetscScalar beta, const PetscScalar *y, PetscScalar gamma, PetscScalar *z)
{
  if (gamma == 0.0)
    for (PetscInt i = 0; i < n; i++) z[i] = alpha * x[i] + beta * y[i];
  else
    for (PetscInt i = 0; i < n; i++) z[i] = alpha * x[i] + beta * y[i] + gamma * z[i];
  return 0;
}

static PetscErrorCode Swap_Host(PetscInt n, PetscScalar *x, PetscScalar *y)
{
  for (PetscInt i = 0; i < n; i++) {
    PetscScalar t = x[i];
    x[i]          = y[i];
    y[i]          = t;
  }
  return 0;
}

static PetscErrorCode WAXPY_Host(PetscInt n, PetscScalar alpha, const PetscScalar *x, const PetscScalar *y, PetscScalar *w)
{
  for (PetscInt i = 0; i < n; i++) w[i] = alpha * x[i] + y[i];
  return 0;
}

static PetscErrorCode MAXPY_Host(PetscInt n, PetscInt nv, const PetscScalar *alpha, const PetscScalar *const *x, PetscScalar *y)
{
  for (PetscInt i = 0; i < n; i++) {
    PetscScalar s = y[i];
    for (PetscInt j = 0; j < nv; j++) s += alpha[j] * x[j][i];
    y[i] = s;
  }
  return 0;
}

static PetscErrorCode Pointwise_Host(GPUPCPointwiseOp op, PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscScalar *w)
{
  switch (op) {
  case GPUPC_PW_MULT:
    for (PetscInt i = 0; i < n; i++) w[i] = x[i] * y[i];
    break;
  case GPUPC_PW_DIVIDE:
    for (PetscInt i = 0; i < n; i++) w[i] = y[i] != 0.0 ? x[i] / y[i] : 0.0;
    break;
  case GPUPC_PW_MAX:
    for (PetscInt i = 0; i < n; i++) w[i] = PetscMax(x[i], y[i]);
    break;
  case GPUPC_PW_MIN:
    for (PetscInt i = 0; i < n; i++) w[i] = PetscMin(x[i], y[i]);
    break;
  case GPUPC_PW_MAXABS:
    for (PetscInt i = 0; i < n; i++) w[i] = PetscMax(PetscAbsScalar(x[i]), PetscAbsScalar(y[i]));
    break;
  }
  return 0;
}

static PetscErrorCode Unary_Host(GPUPCUnaryOp op, PetscInt n, PetscScalar *x)
{
  switch (op) {
  case GPUPC_UNARY_RECIPROCAL:
    for (PetscInt i = 0; i < n; i++) x[i] = x[i] != 0.0 ? 1.0 / x[i] : 0.0;
    break;
  case GPUPC_UNARY_ABS:
    for (PetscInt i = 0; i < n; i++) x[i] = PetscAbsScalar(x[i]);
    break;
  case GPUPC_UNARY_SQRT_ABS:
    for (PetscInt i = 0; i < n; i++) x[i] = PetscSqrtReal(PetscAbsScalar(x[i]));
    break;
  case GPUPC_UNARY_EXP:
    for (PetscInt i = 0; i < n; i++) x[i] = PetscExpScalar(x[i]);
    break;
  case GPUPC_UNARY_LOG:
    for (PetscInt i = 0; i < n; i++) x[i] = PetscLogScalar(x[i]);
    break;
  }
  return 0;
}

static PetscErrorCode MDot_Host(PetscInt n, const PetscScalar *x, PetscInt nv, const PetscScalar *const *y, PetscScalar *val)
{
  for (PetscInt j = 0; j < nv; j++) {
    PetscScalar s = 0.0;
    for (PetscInt i = 0; i < n; i++) s += x[i] * y[j][i];
    val[j] = s;
  }
  return 0;
}

static PetscErrorCode DotNorm2_Host(PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscScalar *val)
{
  PetscScalar d = 0.0, nn = 0.0;

  for (PetscInt i = 0; i < n; i++) {
    d += x[i] * y[i];
    nn += y[i] * y[i];
  }
  val[0] = d;
  val[1] = nn;
  return 0;
}

static PetscErrorCode Norms_Host(PetscInt n, const PetscScalar *x, PetscReal *val)
{
  PetscReal s1 = 0.0, s2 = 0.0, mx = 0.0;

  for (PetscInt i = 0; i < n; i++) {
    PetscReal a = PetscAbsScalar(x[i]);
    s1 += a;
    s2 += a * a;
    if (a > mx || PetscIsNanReal(a)) mx = a;
  }
  val[0] = s1;
  val[1] = s2;
  val[2] = mx;
  return 0;
}

static PetscErrorCode MaxPointwiseDivide_Host(PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscReal *val)
{
  PetscReal m = 0.0;

  for (PetscInt i = 0; i < n; i++) {
    PetscReal q = y[i] != 0.0 ? PetscAbsScalar(x[i] / y[i]) : PetscAbsScalar(x[i]);
    if (q > m) m = q;
  }
  *val = m;
  return 0;
}

static PetscErrorCode Extremum_Host(PetscInt n, const PetscScalar *x, PetscInt sign, PetscReal *val, PetscInt *idx)
{
  PetscReal best = sign > 0 ? PETSC_MIN_REAL : PETSC_MAX_REAL;
  PetscInt  at   = -1;

  for (PetscInt i = 0; i < n; i++) {
    PetscReal v = PetscRealPart(x[i]);
    if ((sign > 0 && v > best) || (sign < 0 && v < best) || at < 0) {
      best = v;
      at   = i;
    }
  }
  *val = best;
  *idx = at;
  return 0;
}

static PetscErrorCode Sum_Host(PetscInt n, const PetscScalar *x, PetscScalar *val)
{
  PetscScalar s = 0.0;

  for (PetscInt i = 0; i < n; i++) s += x[i];
  *val = s;
  return 0;
}

/* ---- fused CG (KSP gpucg): the host has no asynchrony, the reductions are complete on return */

static PetscErrorCode CGUpdate_Host(PetscInt n, PetscScalar alpha, PetscScalar beta, GPUPCCGVectors v)
{
  for (PetscInt i = 0; i < n; i++) {
    const PetscScalar p = beta == 0.0 ? v.u[i] : v.u[i] + beta * v.p[i];
    const PetscScalar s = beta == 0.0 ? v.w[i] : v.w[i] + beta * v.s[i];

    v.p[i] = p;
    v.s[i] = s;
    v.x[i] += alpha * p;
    v.r[i] -= alpha * s;
  }
  return 0;
}

/* (r.u, w.u, u.u, r.r) */
static void CGDots(PetscInt n, GPUPCCGVectors v, PetscScalar *val)
{
  PetscScalar d[GPUPC_CG_NDOTS] = {0.0, 0.0, 0.0, 0.0};

  for (PetscInt i = 0; i < n; i++) {
    const PetscScalar u = v.u[i], r = v.r[i];

    d[0] += r * u;
    d[1] += v.w[i] * u;
    d[2] += u * u;
    d[3] += r * r;
  }
  for (PetscInt k = 0; k < GPUPC_CG_NDOTS; k++) val[k] = d[k];
}

static PetscErrorCode CGDots_Host(PetscInt n, GPUPCCGVectors v, void *work, PetscScalar *val)
{
  CGDots(n, v, val);
  return 0;
}

static PetscErrorCode PipeCGUpdate_Host(PetscInt n, PetscScalar alpha, PetscScalar beta, GPUPCCGVectors v, void *work, PetscScalar *val)
{
  for (PetscInt i = 0; i < n; i++) {
    const PetscScalar z = beta == 0.0 ? v.n[i] : v.n[i] + beta * v.z[i];
    const PetscScalar q = beta == 0.0 ? v.m[i] : v.m[i] + beta * v.q[i];
    const PetscScalar s = beta == 0.0 ? v.w[i] : v.w[i] + beta * v.s[i];
    const PetscScalar p = beta == 0.0 ? v.u[i] : v.u[i] + beta * v.p[i];

    v.z[i] = z;
    v.q[i] = q;
    v.s[i] = s;
    v.p[i] = p;
    v.x[i] += alpha * p;
    v.r[i] -= alpha * s;
    v.u[i] -= alpha * q;
    v.w[i] -= alpha * z;
  }
  CGDots(n, v, val);
  return 0;
}

/* the table: every member's Stem_Host from GPUPC_VEC_KERNEL_LIST, by name (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_DEFINE(GPUPCVecKernels, GPUPCVecKernelsHost, GPUPC_VEC_KERNEL_LIST, "host", _Host);

/*
   Arithmetic of the gpu Vec types: every op calls one kernel of the active backend on the
   device arrays. The other operands may be of any Vec type (reached through the
   device-array accessors). Reductions combine across ranks with one MPI_Allreduce.
*/
#include <gpupc/vecgpu.h>

#define K(v) (((Vec_GPU *)(v)->data)->k)

/* reductions: local kernel result -> sum (or max) over the vector's communicator */
static PetscErrorCode AllreduceScalars(Vec v, PetscScalar *val, PetscInt n, MPI_Op op)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)v), &size));
  if (size > 1) PetscCall(MPIU_Allreduce(MPI_IN_PLACE, val, n, MPIU_SCALAR, op, PetscObjectComm((PetscObject)v)));
  PetscFunctionReturn(0);
}

/* all nv dots in one kernel-table call: the CUDA version launches one pass per GPUPC_MAX_MULTI vectors and waits once
   (GMRES's orthogonalization against 30 vectors: 4 passes, 1 host wait) */
static PetscErrorCode VecMDotLocal_GPU(Vec x, PetscInt nv, const Vec y[], PetscScalar *val)
{
  const PetscScalar *xa, *ystack[4 * GPUPC_MAX_MULTI], **ya = ystack;

  PetscFunctionBegin;
  if (nv <= 0) PetscFunctionReturn(0);
  if (nv > 4 * GPUPC_MAX_MULTI) PetscCall(PetscMalloc1(nv, &ya));
  PetscCall(VecGPUDeviceRead_Private(x, &xa));
  for (PetscInt j = 0; j < nv; j++) PetscCall(VecGPUGetDeviceArrayRead(y[j], &ya[j]));
  PetscCall(K(x)->mdot(x->map->n, xa, nv, ya, val));
  PetscCall(PetscLogFlops(2.0 * nv * x->map->n));
  for (PetscInt j = 0; j < nv; j++) PetscCall(VecGPURestoreDeviceArrayRead(y[j], &ya[j]));
  if (ya != ystack) PetscCall(PetscFree(ya));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecMDot_GPU(Vec x, PetscInt nv, const Vec y[], PetscScalar *val)
{
  PetscFunctionBegin;
  PetscCall(VecMDotLocal_GPU(x, nv, y, val));
  PetscCall(AllreduceScalars(x, val, nv, MPIU_SUM));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecDotLocal_GPU(Vec x, Vec y, PetscScalar *val)
{
  PetscFunctionBegin;
  PetscCall(VecMDotLocal_GPU(x, 1, &y, val));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecDot_GPU(Vec x, Vec y, PetscScalar *val)
{
  PetscFunctionBegin;
  PetscCall(VecMDot_GPU(x, 1, &y, val));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecDotNorm2_GPU(Vec s, Vec t, PetscScalar *dp, PetscScalar *nm)
{
  const PetscScalar *sa, *ta;
  PetscScalar        val[2];

  PetscFunctionBegin;
  PetscCall(VecGPUDeviceRead_Private(s, &sa));
  PetscCall(VecGPUGetDeviceArrayRead(t, &ta));
  PetscCall(K(s)->dotnorm2(s->map->n, sa, ta, val));
  PetscCall(PetscLogFlops(4.0 * s->map->n));
  PetscCall(VecGPURestoreDeviceArrayRead(t, &ta));
  PetscCall(AllreduceScalars(s, val, 2, MPIU_SUM));
  *dp = val[0];
  *nm = val[1];
  PetscFunctionReturn(0);
}

/* local parts of a norm: NORM_2 returns the sum of squares (the caller takes the root) */
static PetscErrorCode VecNormLocalParts(Vec x, PetscReal parts[3])
{
  const PetscScalar *xa;

  PetscFunctionBegin;
  PetscCall(VecGPUDeviceRead_Private(x, &xa));
  PetscCall(K(x)->norms(x->map->n, xa, parts));
  PetscCall(PetscLogFlops(2.0 * x->map->n));
  PetscFunctionReturn(0);
}

/* the requested norm from the parts (sum |x|, sum x^2, max |x|) */
static void NormFromParts(NormType type, const PetscReal p[3], PetscReal *val)
{
  switch (type) {
  case NORM_1: val[0] = p[0]; break;
  case NORM_2:
  case NORM_FROBENIUS: val[0] = PetscSqrtReal(p[1]); break;
  case NORM_INFINITY: val[0] = p[2]; break;
  case NORM_1_AND_2:
    val[0] = p[0];
    val[1] = PetscSqrtReal(p[1]);
    break;
  }
}

static PetscErrorCode VecNormLocal_GPU(Vec x, NormType type, PetscReal *val)
{
  PetscReal p[3];

  PetscFunctionBegin;
  PetscCall(VecNormLocalParts(x, p));
  NormFromParts(type, p, val);
  PetscFunctionReturn(0);
}

static PetscErrorCode VecNorm_GPU(Vec x, NormType type, PetscReal *val)
{
  PetscReal   p[3];
  PetscMPIInt size;
  MPI_Comm    comm = PetscObjectComm((PetscObject)x);

  PetscFunctionBegin;
  PetscCall(VecNormLocalParts(x, p));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (size > 1) {
    if (type == NORM_INFINITY) PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &p[2], 1, MPIU_REAL, MPIU_MAX, comm));
    else PetscCall(MPIU_Allreduce(MPI_IN_PLACE, p, 2, MPIU_REAL, MPIU_SUM, comm));
  }
  NormFromParts(type, p, val);
  PetscFunctionReturn(0);
}

static PetscErrorCode VecMaxPointwiseDivide_GPU(Vec x, Vec y, PetscReal *max)
{
  const PetscScalar *xa, *ya;

  PetscFunctionBegin;
  PetscCall(VecGPUDeviceRead_Private(x, &xa));
  PetscCall(VecGPUGetDeviceArrayRead(y, &ya));
  PetscCall(K(x)->maxpointwisedivide(x->map->n, xa, ya, max));
  PetscCall(VecGPURestoreDeviceArrayRead(y, &ya));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, max, 1, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)x)));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecExtremum(Vec x, PetscInt sign, PetscInt *p, PetscReal *val)
{
  const PetscScalar *xa;
  PetscInt           idx;
  PetscMPIInt        size;
  MPI_Comm           comm = PetscObjectComm((PetscObject)x);

  PetscFunctionBegin;
  PetscCall(VecGPUDeviceRead_Private(x, &xa));
  PetscCall(K(x)->extremum(x->map->n, xa, sign, val, &idx));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (size > 1) {
    struct petsc_mpiu_real_int in, out; /* MPIU_MAXLOC/MINLOC: the extreme value, ties to the smallest index */

    in.v = idx < 0 ? (sign > 0 ? PETSC_MIN_REAL : PETSC_MAX_REAL) : *val;
    in.i = idx < 0 ? -1 : idx + x->map->rstart;
    PetscCall(MPIU_Allreduce(&in, &out, 1, MPIU_REAL_INT, sign > 0 ? MPIU_MAXLOC : MPIU_MINLOC, comm));
    *val = out.v;
    idx  = out.i;
  }
  if (p) *p = idx;
  PetscFunctionReturn(0);
}

static PetscErrorCode VecMax_GPU(Vec x, PetscInt *p, PetscReal *val)
{
  return VecExtremum(x, 1, p, val);
}

static PetscErrorCode VecMin_GPU(Vec x, PetscInt *p, PetscReal *val)
{
  return VecExtremum(x, -1, p, val);
}

static PetscErrorCode VecSum_GPU(Vec x, PetscScalar *sum)
{
  const PetscScalar *xa;

  PetscFunctionBegin;
  PetscCall(VecGPUDeviceRead_Private(x, &xa));
  PetscCall(K(x)->sum(x->map->n, xa, sum)); /* local: VecSum() itself sums over the ranks */
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ updates */

static PetscErrorCode VecSet_GPU(Vec x, PetscScalar alpha)
{
  PetscScalar *xa;

  PetscFunctionBegin;
  PetscCall(VecGPUDeviceWrite_Private(x, &xa));
  PetscCall(K(x)->set(x->map->n, alpha, xa));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecScale_GPU(Vec x, PetscScalar alpha)
{
  PetscScalar *xa;

  PetscFunctionBegin;
  if (alpha == 0.0) {
    PetscCall(VecSet_GPU(x, 0.0));
    PetscFunctionReturn(0);
  }
  PetscCall(VecGPUDeviceReadWrite_Private(x, &xa));
  PetscCall(K(x)->scale(x->map->n, alpha, xa));
  PetscCall(PetscLogFlops(x->map->n));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecShift_GPU(Vec x, PetscScalar alpha)
{
  PetscScalar *xa;

  PetscFunctionBegin;
  PetscCall(VecGPUDeviceReadWrite_Private(x, &xa));
  PetscCall(K(x)->shift(x->map->n, alpha, xa));
  PetscCall(PetscLogFlops(x->map->n));
  PetscFunctionReturn(0);
}

/* y = alpha x + beta y; beta == 0 overwrites y without reading it */
static PetscErrorCode AXPBY(Vec y, PetscScalar alpha, PetscScalar beta, Vec x)
{
  const PetscScalar *xa;
  PetscScalar       *ya;

  PetscFunctionBegin;
  PetscCall(VecGPUGetDeviceArrayRead(x, &xa));
  if (beta == 0.0) PetscCall(VecGPUDeviceWrite_Private(y, &ya));
  else PetscCall(VecGPUDeviceReadWrite_Private(y, &ya));
  PetscCall(K(y)->axpby(y->map->n, alpha, xa, beta, ya));
  PetscCall(PetscLogFlops((beta == 0.0 ? 1.0 : 3.0) * y->map->n));
  PetscCall(VecGPURestoreDeviceArrayRead(x, &xa));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecAXPY_GPU(Vec y, PetscScalar alpha, Vec x)
{
  return AXPBY(y, alpha, 1.0, x);
}

static PetscErrorCode VecAYPX_GPU(Vec y, PetscScalar beta, Vec x)
{
  return AXPBY(y, 1.0, beta, x);
}

static PetscErrorCode VecAXPBY_GPU(Vec y, PetscScalar alpha, PetscScalar beta, Vec x)
{
  return AXPBY(y, alpha, beta, x);
}

static PetscErrorCode VecAXPBYPCZ_GPU(Vec z, PetscScalar alpha, PetscScalar beta, PetscScalar gamma, Vec x, Vec y)
{
  const PetscScalar *xa, *ya;
  PetscScalar       *za;

  PetscFunctionBegin;
  PetscCall(VecGPUGetDeviceArrayRead(x, &xa));
  PetscCall(VecGPUGetDeviceArrayRead(y, &ya));
  if (gamma == 0.0) PetscCall(VecGPUDeviceWrite_Private(z, &za));
  else PetscCall(VecGPUDeviceReadWrite_Private(z, &za));
  PetscCall(K(z)->axpbypcz(z->map->n, alpha, xa, beta, ya, gamma, za));
  PetscCall(PetscLogFlops((gamma == 0.0 ? 3.0 : 5.0) * z->map->n));
  PetscCall(VecGPURestoreDeviceArrayRead(y, &ya));
  PetscCall(VecGPURestoreDeviceArrayRead(x, &xa));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecWAXPY_GPU(Vec w, PetscScalar alpha, Vec x, Vec y)
{
  const PetscScalar *xa, *ya;
  PetscScalar       *wa;

  PetscFunctionBegin;
  PetscCall(VecGPUGetDeviceArrayRead(x, &xa));
  PetscCall(VecGPUGetDeviceArrayRead(y, &ya));
  PetscCall(VecGPUDeviceWrite_Private(w, &wa));
  PetscCall(K(w)->waxpy(w->map->n, alpha, xa, ya, wa));
  PetscCall(PetscLogFlops(2.0 * w->map->n));
  PetscCall(VecGPURestoreDeviceArrayRead(y, &ya));
  PetscCall(VecGPURestoreDeviceArrayRead(x, &xa));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecMAXPY_GPU(Vec y, PetscInt nv, const PetscScalar *alpha, Vec *x)
{
  const PetscScalar *xa[GPUPC_MAX_MAXPY];
  PetscScalar       *ya;

  PetscFunctionBegin;
  PetscCall(VecGPUDeviceReadWrite_Private(y, &ya));
  for (PetscInt j0 = 0; j0 < nv; j0 += GPUPC_MAX_MAXPY) { /* one pass over y per GPUPC_MAX_MAXPY vectors */
    PetscInt m = PetscMin(GPUPC_MAX_MAXPY, nv - j0);

    for (PetscInt j = 0; j < m; j++) PetscCall(VecGPUGetDeviceArrayRead(x[j0 + j], &xa[j]));
    PetscCall(K(y)->maxpy(y->map->n, m, alpha + j0, xa, ya));
    PetscCall(PetscLogFlops(2.0 * m * y->map->n));
    for (PetscInt j = 0; j < m; j++) PetscCall(VecGPURestoreDeviceArrayRead(x[j0 + j], &xa[j]));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Pointwise(GPUPCPointwiseOp op, Vec w, Vec x, Vec y)
{
  const PetscScalar *xa, *ya;
  PetscScalar       *wa;

  PetscFunctionBegin;
  PetscCall(VecGPUGetDeviceArrayRead(x, &xa));
  PetscCall(VecGPUGetDeviceArrayRead(y, &ya));
  if (w == x || w == y) PetscCall(VecGPUDeviceReadWrite_Private(w, &wa));
  else PetscCall(VecGPUDeviceWrite_Private(w, &wa));
  PetscCall(K(w)->pointwise(op, w->map->n, xa, ya, wa));
  PetscCall(PetscLogFlops(w->map->n));
  PetscCall(VecGPURestoreDeviceArrayRead(y, &ya));
  PetscCall(VecGPURestoreDeviceArrayRead(x, &xa));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecPointwiseMult_GPU(Vec w, Vec x, Vec y)
{
  return Pointwise(GPUPC_PW_MULT, w, x, y);
}
static PetscErrorCode VecPointwiseDivide_GPU(Vec w, Vec x, Vec y)
{
  return Pointwise(GPUPC_PW_DIVIDE, w, x, y);
}
static PetscErrorCode VecPointwiseMax_GPU(Vec w, Vec x, Vec y)
{
  return Pointwise(GPUPC_PW_MAX, w, x, y);
}
static PetscErrorCode VecPointwiseMin_GPU(Vec w, Vec x, Vec y)
{
  return Pointwise(GPUPC_PW_MIN, w, x, y);
}
static PetscErrorCode VecPointwiseMaxAbs_GPU(Vec w, Vec x, Vec y)
{
  return Pointwise(GPUPC_PW_MAXABS, w, x, y);
}

static PetscErrorCode Unary(GPUPCUnaryOp op, Vec x)
{
  PetscScalar *xa;

  PetscFunctionBegin;
  PetscCall(VecGPUDeviceReadWrite_Private(x, &xa));
  PetscCall(K(x)->unary(op, x->map->n, xa));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecReciprocal_GPU(Vec x)
{
  return Unary(GPUPC_UNARY_RECIPROCAL, x);
}
static PetscErrorCode VecAbs_GPU(Vec x)
{
  return Unary(GPUPC_UNARY_ABS, x);
}
static PetscErrorCode VecSqrtAbs_GPU(Vec x)
{
  return Unary(GPUPC_UNARY_SQRT_ABS, x);
}
static PetscErrorCode VecExp_GPU(Vec x)
{
  return Unary(GPUPC_UNARY_EXP, x);
}
static PetscErrorCode VecLog_GPU(Vec x)
{
  return Unary(GPUPC_UNARY_LOG, x);
}

/* VecCopy(x, y) calls x's op: x is a gpu vector, y any vector */
static PetscErrorCode VecCopy_GPU(Vec x, Vec y)
{
  PetscFunctionBegin;
  if (x == y) PetscFunctionReturn(0);
  if (VecIsGPU(y)) {
    PetscScalar *ya;

    PetscCall(VecGPUDeviceWrite_Private(y, &ya));
    if (x->offloadmask == PETSC_OFFLOAD_CPU) { /* only the host is current: upload straight into y */
      PetscCall(GPUPCCopyToDevice(ya, ((Vec_GPU *)x->data)->array, x->map->n));
    } else {
      const PetscScalar *xa;

      PetscCall(VecGPUDeviceRead_Private(x, &xa));
      PetscCall(GPUPCCopyOnDevice(ya, xa, x->map->n));
    }
  } else {
    const PetscScalar *xa;
    PetscScalar       *ya;

    PetscCall(VecGetArrayRead(x, &xa));
    PetscCall(VecGetArrayWrite(y, &ya));
    PetscCall(PetscArraycpy(ya, xa, x->map->n));
    PetscCall(VecRestoreArrayWrite(y, &ya));
    PetscCall(VecRestoreArrayRead(x, &xa));
  }
  PetscFunctionReturn(0);
}

/* VecSwap(x, y) calls x's op */
static PetscErrorCode VecSwap_GPU(Vec x, Vec y)
{
  PetscScalar *xa, *ya;

  PetscFunctionBegin;
  if (x == y) PetscFunctionReturn(0);
  PetscCall(VecGPUDeviceReadWrite_Private(x, &xa));
  PetscCall(VecGPUGetDeviceArray(y, &ya));
  PetscCall(K(x)->swap(x->map->n, xa, ya));
  PetscCall(VecGPURestoreDeviceArray(y, &ya));
  PetscFunctionReturn(0);
}

PETSC_INTERN PetscErrorCode VecGPUSetOps_Private(Vec v)
{
  PetscFunctionBegin;
  v->ops->dot                = VecDot_GPU;
  v->ops->tdot               = VecDot_GPU; /* real scalars */
  v->ops->mdot               = VecMDot_GPU;
  v->ops->mtdot              = VecMDot_GPU;
  v->ops->dot_local          = VecDotLocal_GPU;
  v->ops->tdot_local         = VecDotLocal_GPU;
  v->ops->mdot_local         = VecMDotLocal_GPU;
  v->ops->mtdot_local        = VecMDotLocal_GPU;
  v->ops->norm               = VecNorm_GPU;
  v->ops->norm_local         = VecNormLocal_GPU;
  v->ops->dotnorm2           = VecDotNorm2_GPU;
  v->ops->maxpointwisedivide = VecMaxPointwiseDivide_GPU;
  v->ops->max                = VecMax_GPU;
  v->ops->min                = VecMin_GPU;
  v->ops->sum                = VecSum_GPU;
  v->ops->set                = VecSet_GPU;
  v->ops->scale              = VecScale_GPU;
  v->ops->shift              = VecShift_GPU;
  v->ops->axpy               = VecAXPY_GPU;
  v->ops->aypx               = VecAYPX_GPU;
  v->ops->axpby              = VecAXPBY_GPU;
  v->ops->axpbypcz           = VecAXPBYPCZ_GPU;
  v->ops->waxpy              = VecWAXPY_GPU;
  v->ops->maxpy              = VecMAXPY_GPU;
  v->ops->pointwisemult      = VecPointwiseMult_GPU;
  v->ops->pointwisedivide    = VecPointwiseDivide_GPU;
  v->ops->pointwisemax       = VecPointwiseMax_GPU;
  v->ops->pointwisemin       = VecPointwiseMin_GPU;
  v->ops->pointwisemaxabs    = VecPointwiseMaxAbs_GPU;
  v->ops->reciprocal         = VecReciprocal_GPU;
  v->ops->abs                = VecAbs_GPU;
  v->ops->sqrt               = VecSqrtAbs_GPU;
  v->ops->exp                = VecExp_GPU;
  v->ops->log                = VecLog_GPU;
  v->ops->copy               = VecCopy_GPU;
  v->ops->swap               = VecSwap_GPU;
  PetscFunctionReturn(0);
}

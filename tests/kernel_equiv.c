static const char help[] = "Every member of every kernel table (vec, segcsr, cmg, halo), walked by the generated member lists.\n"
                           "cuda backend: the CUDA table on device buffers against the host table on host copies of the same inputs;\n"
                           "host backend: the host table against plain reference loops written here. Random data of several sizes\n"
                           "(0, 1, 32, 256, 4097 and more than 2^20 entries). A member without a case here fails the test.\n";

/*
   Design. Two sides run the same case on the same inputs:

     side 0, the table under test: the active backend's table, on device-world buffers (GPUPCMalloc);
     side 1, the reference: on the cuda backend the host table, on the host backend the reference
             table of this file (plain loops written from the specification in the kernel headers),
             both on host-world buffers (PetscMalloc).

   Inputs are drawn once on the host and copied into both worlds; results are copied back and compared.
   The reference tables are filled from the same X-macro lists as the library's (GPUPC_KERNEL_TABLE_DEFINE
   with the suffix _Ref), so they too have every member. Each case marks its member in a per-table
   coverage record; at the end every member of every generated list must have run, on sizes down to 0 and
   up to the table's large size, or the test fails naming the member.

   Agreement. A result that sums k terms t_1 .. t_k (products counted as terms) is, in floating point with
   unit roundoff u = eps/2, in any order and with or without fused multiply-adds, within gamma_k sum |t_j| of
   the exact sum (gamma_k = k u / (1 - k u)). Two such results differ by at most 2 gamma_k sum |t_j|; the test
   allows

       |a - b| <= (k + 2) eps sum |t_j|     (eps of the stored precision: double, or float on float CMG levels)

   (the 2 covers the last rounding into the stored precision, e.g. a float level against a reference that
   sums in double, and gamma's denominator). Copies, gathers, max/min, comparisons, diagonals and indices
   must agree exactly.
*/
#include <float.h>
#include <math.h>
#include <petsc/private/pcimpl.h>
#include <gpupc/veckernels.h>
#include <gpupc/segcsrkernels.h>
#include <gpupc/cmg.h>
#include <gpupc/matgpu.h>
#include <gpupc/amgkernels.h>
#include "cmgtest.h"
#include "kerneltest.h"

/* ================================================================ sides, agreement, coverage */

typedef enum {
  T_VEC,
  T_SEGCSR,
  T_CMG,
  T_HALO,
  T_AMG,
  T_NTABLES
} Table;

#define MAX_MEMBERS 64

typedef struct {
  const char        *table;
  const char        *list;  /* the list macro, for the message of a missing case */
  const char *const *names; /* generated member names, NULL-terminated */
  PetscInt           count; /* members in the list */
  PetscInt64         small; /* every member must run on a size <= small ... */
  PetscInt64         large; /* ... and on a size >= large */
  PetscInt           runs[MAX_MEMBERS];
  PetscInt64         minsize[MAX_MEMBERS], maxsize[MAX_MEMBERS];
} Coverage;

typedef struct {
  const char               *what;   /* in messages */
  PetscBool                 device; /* buffers: device world (GPUPCMalloc) or host world (PetscMalloc) */
  const GPUPCVecKernels    *vec;
  const GPUPCSegCSRKernels *seg;
  const GPUPCCMGKernels    *cmg;
  const GPUPCHaloKernels   *halo;
  const GPUPCAMGKernels    *amg;
} Side;

typedef struct {
  Side        S[2]; /* 0: the table under test, 1: the reference */
  PetscRandom rnd;
  Coverage    cov[T_NTABLES];
} Ctx;

#define FOR_SIDES(s) for (PetscInt s = 0; s < 2; s++)

/* entries i < n of the two sides' results a (side 0) and b (side 1) agree: |a - b| <= (terms + 2) eps mag, or exactly
   when mag is NULL; NaN never agrees */
static PetscErrorCode Agree(Ctx *c, Table t, PetscInt member, const char *variant, PetscInt64 size, PetscInt n, const PetscReal *a, const PetscReal *b, const PetscReal *mag, const PetscReal *terms, PetscReal eps)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) {
    const PetscReal allowed = mag ? (terms[i] + 2.0) * eps * mag[i] : 0.0;
    const PetscBool ok      = (PetscBool)(!PetscIsNanReal(a[i]) && !PetscIsNanReal(b[i]) && PetscAbsReal(a[i] - b[i]) <= allowed);
    PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s table, member %s (%s), size %" PetscInt64_FMT ", entry %" PetscInt_FMT ": %s %.17g, %s %.17g (difference %g, allowed %g)", c->cov[t].table, c->cov[t].names[member], variant, size, i, c->S[0].what, (double)a[i], c->S[1].what, (double)b[i], (double)PetscAbsReal(a[i] - b[i]), (double)allowed);
  }
  PetscFunctionReturn(0);
}

/* member ran on both sides at this size and agreed */
static void Covered(Ctx *c, Table t, PetscInt member, PetscInt64 size)
{
  Coverage *cv = &c->cov[t];

  if (!cv->runs[member]++) cv->minsize[member] = cv->maxsize[member] = size;
  cv->minsize[member] = PetscMin(cv->minsize[member], size);
  cv->maxsize[member] = PetscMax(cv->maxsize[member], size);
}

static PetscErrorCode CoverageInit(Coverage *cv, const char *table, const char *list, const char *const *names, PetscInt count, PetscInt64 small, PetscInt64 large)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(cv, sizeof(*cv)));
  PetscCheck(count <= MAX_MEMBERS, PETSC_COMM_SELF, PETSC_ERR_SUP, "the %s table has %" PetscInt_FMT " members; raise MAX_MEMBERS", table, count);
  cv->table = table;
  cv->list  = list;
  cv->names = names;
  cv->count = count;
  cv->small = small;
  cv->large = large;
  /* the generated name list has one name per member, in the order of the indices */
  for (PetscInt k = 0; k < count; k++) PetscCheck(names[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: member %" PetscInt_FMT " of %" PetscInt_FMT " has no name", list, k, count);
  PetscCheck(!names[count], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: more names than %" PetscInt_FMT " members", list, count);
  PetscFunctionReturn(0);
}

/* every member of the generated list ran, on a small and on a large size */
static PetscErrorCode CoverageCheck(const Coverage *cv)
{
  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s table: %" PetscInt_FMT " members\n", cv->table, cv->count));
  for (PetscInt k = 0; k < cv->count; k++) {
    PetscCheck(cv->runs[k] > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s table: member %s (number %" PetscInt_FMT " of %" PetscInt_FMT " in %s) was never exercised: add a case for it to tests/kernel_equiv.c", cv->table, cv->names[k], k, cv->count, cv->list);
    PetscCheck(cv->minsize[k] <= cv->small && cv->maxsize[k] >= cv->large, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s table: member %s ran on sizes %" PetscInt64_FMT " .. %" PetscInt64_FMT " only; the test asks for sizes down to %" PetscInt64_FMT " and up to %" PetscInt64_FMT, cv->table, cv->names[k], cv->minsize[k], cv->maxsize[k], cv->small, cv->large);
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-20s %5" PetscInt_FMT " cases, sizes %" PetscInt64_FMT " .. %" PetscInt64_FMT "\n", cv->names[k], cv->runs[k], cv->minsize[k], cv->maxsize[k]));
  }
  PetscFunctionReturn(0);
}

/* uniform random values in [-1, 1) */
static PetscErrorCode Random(Ctx *c, PetscInt n, PetscReal *h)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) PetscCall(PetscRandomGetValueReal(c->rnd, &h[i]));
  PetscFunctionReturn(0);
}

/* the bcsr table: its reference loops, layouts and cases (tests/bcsrequiv.h) */
#include "bcsrequiv.h"

/* every member of every table of a side is set (by name, from the lists) */
#define CHECK_MEMBER(K, member, stem, params) PetscCheck((K)->member, PETSC_COMM_SELF, PETSC_ERR_PLIB, "table %s has no member " #member, (K)->name);
static PetscErrorCode CheckSideTables(const Side *S)
{
  PetscFunctionBegin;
  GPUPC_VEC_KERNEL_LIST(CHECK_MEMBER, S->vec)
  GPUPC_SEGCSR_KERNEL_LIST(CHECK_MEMBER, S->seg)
  GPUPC_CMG_KERNEL_LIST(CHECK_MEMBER, S->cmg)
  GPUPC_HALO_KERNEL_LIST(CHECK_MEMBER, S->halo)
  GPUPC_AMG_KERNEL_LIST(CHECK_MEMBER, S->amg)
  PetscFunctionReturn(0);
}

/* ================================================================ reference tables (plain loops, host memory) */

/* ---- vec */
static PetscErrorCode Set_Ref(PetscInt n, PetscScalar alpha, PetscScalar *y)
{
  for (PetscInt i = 0; i < n; i++) y[i] = alpha;
  return 0;
}
static PetscErrorCode Scale_Ref(PetscInt n, PetscScalar alpha, PetscScalar *y)
{
  for (PetscInt i = 0; i < n; i++) y[i] = alpha * y[i];
  return 0;
}
static PetscErrorCode Shift_Ref(PetscInt n, PetscScalar alpha, PetscScalar *y)
{
  for (PetscInt i = 0; i < n; i++) y[i] = y[i] + alpha;
  return 0;
}
static PetscErrorCode AXPBY_Ref(PetscInt n, PetscScalar alpha, const PetscScalar *x, PetscScalar beta, PetscScalar *y)
{
  for (PetscInt i = 0; i < n; i++) y[i] = alpha * x[i] + (beta == 0.0 ? 0.0 : beta * y[i]); /* beta 0: y is not read */
  return 0;
}
static PetscErrorCode AXPBYPCZ_Ref(PetscInt n, PetscScalar alpha, const PetscScalar *x, PetscScalar beta, const PetscScalar *y, PetscScalar gamma, PetscScalar *z)
{
  for (PetscInt i = 0; i < n; i++) z[i] = alpha * x[i] + beta * y[i] + (gamma == 0.0 ? 0.0 : gamma * z[i]);
  return 0;
}
static PetscErrorCode Swap_Ref(PetscInt n, PetscScalar *x, PetscScalar *y)
{
  for (PetscInt i = 0; i < n; i++) {
    const PetscScalar t = y[i];
    y[i]                = x[i];
    x[i]                = t;
  }
  return 0;
}
static PetscErrorCode WAXPY_Ref(PetscInt n, PetscScalar alpha, const PetscScalar *x, const PetscScalar *y, PetscScalar *w)
{
  for (PetscInt i = 0; i < n; i++) w[i] = y[i] + alpha * x[i];
  return 0;
}
static PetscErrorCode MAXPY_Ref(PetscInt n, PetscInt nv, const PetscScalar *alpha, const PetscScalar *const *x, PetscScalar *y)
{
  for (PetscInt j = 0; j < nv; j++)
    for (PetscInt i = 0; i < n; i++) y[i] += alpha[j] * x[j][i];
  return 0;
}
static PetscErrorCode Pointwise_Ref(GPUPCPointwiseOp op, PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscScalar *w)
{
  for (PetscInt i = 0; i < n; i++) {
    const PetscScalar a = x[i], b = y[i];
    switch (op) {
    case GPUPC_PW_MULT: w[i] = a * b; break;
    case GPUPC_PW_DIVIDE: w[i] = b == 0.0 ? 0.0 : a / b; break;
    case GPUPC_PW_MAX: w[i] = a >= b ? a : b; break;
    case GPUPC_PW_MIN: w[i] = a <= b ? a : b; break;
    case GPUPC_PW_MAXABS: w[i] = PetscMax(PetscAbsReal(a), PetscAbsReal(b)); break;
    }
  }
  return 0;
}
static PetscErrorCode Unary_Ref(GPUPCUnaryOp op, PetscInt n, PetscScalar *x)
{
  for (PetscInt i = 0; i < n; i++) {
    const PetscScalar a = x[i];
    switch (op) {
    case GPUPC_UNARY_RECIPROCAL: x[i] = a == 0.0 ? 0.0 : 1.0 / a; break;
    case GPUPC_UNARY_ABS: x[i] = PetscAbsReal(a); break;
    case GPUPC_UNARY_SQRT_ABS: x[i] = PetscSqrtReal(PetscAbsReal(a)); break;
    case GPUPC_UNARY_EXP: x[i] = PetscExpReal(a); break;
    case GPUPC_UNARY_LOG: x[i] = PetscLogReal(a); break;
    }
  }
  return 0;
}
static PetscErrorCode MDot_Ref(PetscInt n, const PetscScalar *x, PetscInt nv, const PetscScalar *const *y, PetscScalar *val)
{
  for (PetscInt j = 0; j < nv; j++) {
    val[j] = 0.0;
    for (PetscInt i = 0; i < n; i++) val[j] += x[i] * y[j][i];
  }
  return 0;
}
static PetscErrorCode DotNorm2_Ref(PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscScalar *val)
{
  val[0] = val[1] = 0.0;
  for (PetscInt i = 0; i < n; i++) val[0] += x[i] * y[i];
  for (PetscInt i = 0; i < n; i++) val[1] += y[i] * y[i];
  return 0;
}
static PetscErrorCode Norms_Ref(PetscInt n, const PetscScalar *x, PetscReal *val)
{
  val[0] = val[1] = val[2] = 0.0;
  for (PetscInt i = 0; i < n; i++) {
    val[0] += PetscAbsReal(x[i]);
    val[1] += x[i] * x[i];
    val[2] = PetscMax(val[2], PetscAbsReal(x[i]));
  }
  return 0;
}
static PetscErrorCode MaxPointwiseDivide_Ref(PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscReal *val)
{
  *val = 0.0;
  for (PetscInt i = 0; i < n; i++) *val = PetscMax(*val, PetscAbsReal(y[i] == 0.0 ? x[i] : x[i] / y[i]));
  return 0;
}
static PetscErrorCode Extremum_Ref(PetscInt n, const PetscScalar *x, PetscInt sign, PetscReal *val, PetscInt *idx)
{
  *val = sign > 0 ? PETSC_MIN_REAL : PETSC_MAX_REAL;
  *idx = -1;
  for (PetscInt i = 0; i < n; i++)
    if (*idx < 0 || sign * x[i] > sign * *val) { /* strictly better: the smallest index of the extreme value stays */
      *val = x[i];
      *idx = i;
    }
  return 0;
}
static PetscErrorCode Sum_Ref(PetscInt n, const PetscScalar *x, PetscScalar *val)
{
  *val = 0.0;
  for (PetscInt i = 0; i < n; i++) *val += x[i];
  return 0;
}
/* fused CG: written from the comments in gpupc/veckernels.h, one vector at a time */
static void CGDots_RefSums(PetscInt n, const GPUPCCGVectors *v, PetscScalar *val)
{
  for (PetscInt k = 0; k < GPUPC_CG_NDOTS; k++) val[k] = 0.0;
  for (PetscInt i = 0; i < n; i++) val[0] += v->r[i] * v->u[i];
  for (PetscInt i = 0; i < n; i++) val[1] += v->w[i] * v->u[i];
  for (PetscInt i = 0; i < n; i++) val[2] += v->u[i] * v->u[i];
  for (PetscInt i = 0; i < n; i++) val[3] += v->r[i] * v->r[i];
}
/* y = a + beta y, not reading y when beta is 0 */
static void CGAypx_Ref(PetscInt n, PetscScalar beta, const PetscScalar *a, PetscScalar *y)
{
  for (PetscInt i = 0; i < n; i++) y[i] = beta == 0.0 ? a[i] : a[i] + beta * y[i];
}
static PetscErrorCode CGUpdate_Ref(PetscInt n, PetscScalar alpha, PetscScalar beta, GPUPCCGVectors v)
{
  CGAypx_Ref(n, beta, v.u, v.p);
  CGAypx_Ref(n, beta, v.w, v.s);
  for (PetscInt i = 0; i < n; i++) v.x[i] += alpha * v.p[i];
  for (PetscInt i = 0; i < n; i++) v.r[i] -= alpha * v.s[i];
  return 0;
}
static PetscErrorCode CGDots_Ref(PetscInt n, GPUPCCGVectors v, void *work, PetscScalar *val)
{
  CGDots_RefSums(n, &v, val);
  return 0;
}
static PetscErrorCode PipeCGUpdate_Ref(PetscInt n, PetscScalar alpha, PetscScalar beta, GPUPCCGVectors v, void *work, PetscScalar *val)
{
  CGAypx_Ref(n, beta, v.n, v.z);
  CGAypx_Ref(n, beta, v.m, v.q);
  CGAypx_Ref(n, beta, v.w, v.s);
  CGAypx_Ref(n, beta, v.u, v.p);
  for (PetscInt i = 0; i < n; i++) v.x[i] += alpha * v.p[i];
  for (PetscInt i = 0; i < n; i++) v.r[i] -= alpha * v.s[i];
  for (PetscInt i = 0; i < n; i++) v.u[i] -= alpha * v.q[i];
  for (PetscInt i = 0; i < n; i++) v.w[i] -= alpha * v.z[i];
  CGDots_RefSums(n, &v, val);
  return 0;
}
GPUPC_KERNEL_TABLE_DEFINE(GPUPCVecKernels, RefVecKernels, GPUPC_VEC_KERNEL_LIST, "reference", _Ref);

/* ---- segcsr: every slot of every row in order, whatever the bins and tiles say */
static PetscErrorCode Mult_Ref(const GPUPCSegCSRDev *A, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  for (PetscInt i = 0; i < A->m; i++) {
    PetscScalar s = 0.0;
    if (A->n > 0)
      for (size_t k = (size_t)A->segptr[i] * A->L; k < (size_t)A->segptr[i + 1] * A->L; k++) s += A->val[k] * x[A->col[k]];
    y[i] = (z ? z[i] : 0.0) + s;
  }
  return 0;
}
static PetscErrorCode MultTransposeAdd_Ref(const GPUPCSegCSRDev *A, const PetscScalar *x, PetscScalar *y)
{
  if (A->n > 0)
    for (PetscInt i = 0; i < A->m; i++)
      for (size_t k = (size_t)A->segptr[i] * A->L; k < (size_t)A->segptr[i + 1] * A->L; k++) y[A->col[k]] += A->val[k] * x[i];
  return 0;
}
static PetscErrorCode GetDiagonal_Ref(const GPUPCSegCSRDev *A, PetscInt coloffset, PetscScalar *d)
{
  for (PetscInt i = 0; i < A->m; i++) {
    d[i] = 0.0;
    for (size_t k = (size_t)A->segptr[i] * A->L; k < (size_t)A->segptr[i + 1] * A->L; k++)
      if (A->col[k] == i + coloffset) d[i] += A->val[k]; /* padding slots hold 0 */
  }
  return 0;
}
/* row by row: slot q of row i holds the row's entry q, or padding (0) past the row's length; only slots in [s0, s1) */
static PetscErrorCode LayValues_Ref(const GPUPCSegCSRDev *A, PetscInt s0, PetscInt s1, PetscInt k0, const PetscScalar *a, PetscScalar *val)
{
  for (PetscInt i = 0; i < A->m; i++) {
    const PetscInt len = A->rowptr[i + 1] - A->rowptr[i];
    for (PetscInt q = 0; q < (A->segptr[i + 1] - A->segptr[i]) * A->L; q++) {
      const PetscInt slot = A->segptr[i] * A->L + q;
      if (slot >= s0 && slot < s1) val[slot] = q < len ? a[A->rowptr[i] + q - k0] : 0.0;
    }
  }
  return 0;
}
GPUPC_KERNEL_TABLE_DEFINE(GPUPCSegCSRKernels, RefSegCSRKernels, GPUPC_SEGCSR_KERNEL_LIST, "reference", _Ref);

/* ---- cmg: level vectors in the level precision, read and written through Ld/St; sums in double; the cluster
   sums by the cluster map c(v) (not the cluster-sorted list the kernels use) */
static inline PetscReal Ld(GPUPCCMGPrecision p, const void *a, PetscInt i)
{
  return p == GPUPC_CMG_PRECISION_SINGLE ? (PetscReal)((const float *)a)[i] : ((const double *)a)[i];
}
static inline void St(GPUPCCMGPrecision p, void *a, PetscInt i, PetscReal v)
{
  if (p == GPUPC_CMG_PRECISION_SINGLE) ((float *)a)[i] = (float)v;
  else ((double *)a)[i] = v;
}

static void NextJacobi_Ref(GPUPCCMGPrecision p, PetscInt n, const GPUPCCMGNextJacobi *next, const void *b)
{
  if (next)
    for (PetscInt i = 0; i < n; i++) St(p, next->x, i, Ld(p, next->invd, i) * Ld(p, b, i));
}

static PetscErrorCode Expand_Ref(const GPUPCCMGDeviceFold *F, PetscBool transpose, const PetscScalar *b, void *b0)
{
  PetscReal sum = 0.0;

  for (PetscInt i = 0; i < F->n; i++) {
    const PetscInt m = F->map ? F->map[i] : i;
    PetscReal      v;
    if (m < 0) continue; /* a Dirichlet row */
    v = b[i];
    if (F->erow && !transpose)
      for (PetscInt e = F->erow[i]; e < F->erow[i + 1]; e++) v -= F->eval[e] * F->dinv[F->ecol[e]] * b[F->ecol[e]];
    St(F->prec, b0, m, v);
    if (F->copies == 2) St(F->prec, b0, F->nk + m, -v);
    sum += v;
  }
  if (F->ground) St(F->prec, b0, F->copies * F->nk, F->copies == 1 ? -sum : 0.0);
  NextJacobi_Ref(F->prec, F->first.x ? F->n0 : 0, &F->first, b0);
  return 0;
}

static PetscReal Folded_Ref(const GPUPCCMGDeviceFold *F, const void *x0, PetscInt m)
{
  const PetscReal xg = F->ground ? Ld(F->prec, x0, F->copies * F->nk) : 0.0;
  return F->copies == 2 ? 0.5 * ((Ld(F->prec, x0, m) - xg) - (Ld(F->prec, x0, F->nk + m) - xg)) : Ld(F->prec, x0, m) - xg;
}

static PetscErrorCode Fold_Ref(const GPUPCCMGDeviceFold *F, PetscBool transpose, const PetscScalar *b, const void *x0, PetscScalar *x)
{
  for (PetscInt i = 0; i < F->n; i++) {
    const PetscInt m = F->map ? F->map[i] : i;
    if (m >= 0) x[i] = Folded_Ref(F, x0, m);
    else {
      PetscReal v = b[i];
      if (F->trow && transpose)
        for (PetscInt e = F->trow[i]; e < F->trow[i + 1]; e++) v -= F->tval[e] * Folded_Ref(F, x0, F->map[F->tcol[e]]);
      x[i] = F->dinv[i] * v;
    }
  }
  return 0;
}

static PetscErrorCode Jacobi_Ref(const GPUPCCMGDeviceLevel *L)
{
  for (PetscInt i = 0; i < L->n; i++) St(L->prec, L->x, i, Ld(L->prec, L->invd, i) * Ld(L->prec, L->b, i));
  return 0;
}

/* (b - A x)_i with x_j = xin_j (+ xc[c(j)]) */
static PetscReal Residual_Ref(const GPUPCCMGDeviceLevel *L, const void *xin, const void *xc, PetscInt i)
{
  PetscReal r = Ld(L->prec, L->b, i);
  for (PetscInt e = L->rowptr[i]; e < L->rowptr[i + 1]; e++) {
    const PetscInt j = L->col[e];
    r -= Ld(L->prec, L->val, e) * (Ld(L->prec, xin, j) + (xc ? Ld(L->prec, xc, L->cluster[j]) : 0.0));
  }
  return r;
}

static PetscErrorCode Smooth_Ref(const GPUPCCMGDeviceLevel *L, const void *xin, const void *xc, void *xout)
{
  for (PetscInt i = 0; i < L->n; i++) St(L->prec, xout, i, Ld(L->prec, xin, i) + (xc ? Ld(L->prec, xc, L->cluster[i]) : 0.0) + Ld(L->prec, L->invd, i) * Residual_Ref(L, xin, xc, i));
  return 0;
}

/* bc[C] = sum over v with c(v) = C of r(v) */
static void ClusterSums_Ref(const GPUPCCMGDeviceLevel *L, const PetscReal *r, void *bc)
{
  PetscReal *acc;

  PetscCallAbort(PETSC_COMM_SELF, PetscCalloc1(PetscMax(L->nc, 1), &acc));
  for (PetscInt v = 0; v < L->n; v++) acc[L->cluster[v]] += r[v];
  for (PetscInt C = 0; C < L->nc; C++) St(L->prec, bc, C, acc[C]);
  PetscCallAbort(PETSC_COMM_SELF, PetscFree(acc));
}

static PetscErrorCode ResidualRestrict_Ref(const GPUPCCMGDeviceLevel *L, PetscBool first, void *bc, const GPUPCCMGNextJacobi *next)
{
  PetscReal *r;

  if (first) Jacobi_Ref(L);
  PetscCallAbort(PETSC_COMM_SELF, PetscMalloc1(PetscMax(L->n, 1), &r));
  for (PetscInt v = 0; v < L->n; v++) r[v] = Residual_Ref(L, L->x, NULL, v);
  ClusterSums_Ref(L, r, bc);
  NextJacobi_Ref(L->prec, L->nc, next, bc);
  PetscCallAbort(PETSC_COMM_SELF, PetscFree(r));
  return 0;
}

static PetscErrorCode Prolong_Ref(const GPUPCCMGDeviceLevel *L, const void *xc)
{
  for (PetscInt i = 0; i < L->n; i++) St(L->prec, L->x, i, Ld(L->prec, L->x, i) + Ld(L->prec, xc, L->cluster[i]));
  return 0;
}

static PetscErrorCode DenseSolve_Ref(const GPUPCCMGDeviceLevel *L)
{
  for (PetscInt i = 0; i < L->n; i++) {
    PetscReal s = 0.0;
    for (PetscInt j = 0; j < L->n; j++) s += Ld(L->prec, L->dense, (PetscInt)((size_t)i * L->n + j)) * Ld(L->prec, L->b, j);
    St(L->prec, L->x, i, s);
  }
  return 0;
}

static PetscErrorCode Update_Ref(const GPUPCCMGDeviceLevel *L, const void *r, const void *xin, void *xout)
{
  for (PetscInt i = 0; i < L->n; i++) St(L->prec, xout, i, Ld(L->prec, xin, i) + Ld(L->prec, L->invd, i) * Ld(L->prec, r, i));
  return 0;
}

static PetscErrorCode ClusterSum_Ref(const GPUPCCMGDeviceLevel *L, const void *r, void *bc, const GPUPCCMGNextJacobi *next)
{
  PetscReal *rr;

  PetscCallAbort(PETSC_COMM_SELF, PetscMalloc1(PetscMax(L->n, 1), &rr));
  for (PetscInt v = 0; v < L->n; v++) rr[v] = Ld(L->prec, r, v);
  ClusterSums_Ref(L, rr, bc);
  NextJacobi_Ref(L->prec, L->nc, next, bc);
  PetscCallAbort(PETSC_COMM_SELF, PetscFree(rr));
  return 0;
}
static PetscErrorCode Demote_Ref(PetscInt64 n, const PetscReal *x, float *y)
{
  for (PetscInt64 i = 0; i < n; i++) y[i] = (float)x[i];
  return 0;
}

GPUPC_KERNEL_TABLE_DEFINE(GPUPCCMGKernels, RefCMGKernels, GPUPC_CMG_KERNEL_LIST, "reference", _Ref);

/* ---- halo */
static PetscErrorCode Gather_Ref(PetscInt n, const PetscInt *idx, const PetscScalar *x, PetscScalar *buf)
{
  for (PetscInt k = 0; k < n; k++) buf[k] = x[idx[k]];
  return 0;
}
static PetscErrorCode ScatterAdd_Ref(PetscInt n, const PetscInt *idx, const PetscScalar *buf, PetscScalar *y)
{
  for (PetscInt k = 0; k < n; k++) y[idx[k]] = y[idx[k]] + buf[k];
  return 0;
}
GPUPC_KERNEL_TABLE_DEFINE(GPUPCHaloKernels, RefHaloKernels, GPUPC_HALO_KERNEL_LIST, "reference", _Ref);

/* ================================================================ vec */

#define NVEC (GPUPC_MAX_MULTI + 2) /* x, y, and GPUPC_MAX_MULTI more for mdot/maxpy */

typedef struct {
  PetscInt     n;
  PetscScalar *in[NVEC];     /* host inputs */
  PetscScalar *buf[2][NVEC]; /* each side's world buffers */
  PetscScalar *out[2];       /* host copies of a result of each side */
  PetscReal   *mag, *terms;  /* the bound of each entry (see Agree) */
} VecData;

static PetscErrorCode VecPut(Ctx *c, VecData *V, PetscInt s, PetscInt j, const PetscScalar *h)
{
  return TestPut(c->S[s].device, V->buf[s][j], h, V->n * sizeof(PetscScalar));
}
static PetscErrorCode VecGet(Ctx *c, VecData *V, PetscInt s, PetscInt j)
{
  return TestGet(c->S[s].device, V->out[s], V->buf[s][j], V->n * sizeof(PetscScalar));
}
/* buffer j of both sides against each other with the bound in V->mag, V->terms (exact: mag NULL) */
static PetscErrorCode VecAgree(Ctx *c, VecData *V, PetscInt member, const char *variant, PetscInt j, PetscBool exact)
{
  PetscFunctionBegin;
  FOR_SIDES(s)
  PetscCall(VecGet(c, V, s, j));
  PetscCall(Agree(c, T_VEC, member, variant, V->n, V->n, V->out[0], V->out[1], exact ? NULL : V->mag, V->terms, DBL_EPSILON));
  PetscFunctionReturn(0);
}

/* The fused CG kernels on the ten buffers of V (x, r, u, w, p, s, m, n, q, z in GPUPCCGVectors order), with beta 0.7
   and with beta 0 on p, s, q, z of NaN (not read). The reductions are asynchronous: results in host memory the device
   writes (GPUPCHostMalloc), read after GPUPCSynchronize(). Bounds: an updated entry a + beta b has magnitude bound
   |a| + |beta b| (2 terms); x + alpha (a + beta b) adds a term; a dot of updated vectors sums the products of their
   bounds (n + 5 terms). */
enum {
  CG_X,
  CG_R,
  CG_U,
  CG_W,
  CG_P,
  CG_S,
  CG_M,
  CG_N,
  CG_Q,
  CG_Z
};
static GPUPCCGVectors CGVectorsOf(PetscScalar *const *b)
{
  GPUPCCGVectors v = {b[CG_X], b[CG_R], b[CG_U], b[CG_W], b[CG_P], b[CG_S], b[CG_M], b[CG_N], b[CG_Q], b[CG_Z]};
  return v;
}

static PetscErrorCode CGCases(Ctx *c, VecData *V, const PetscScalar *nanv)
{
  const PetscInt    n     = V->n;
  const PetscScalar alpha = -0.45;
  PetscScalar      *val[2], *work[2] = {NULL, NULL}, **in = V->in;
  PetscBool         pinned[2] = {PETSC_FALSE, PETSC_FALSE};
  PetscReal        *bnd[NVEC], dmag[GPUPC_CG_NDOTS], dterms[GPUPC_CG_NDOTS], dv[2][GPUPC_CG_NDOTS];
  const PetscInt    dl[GPUPC_CG_NDOTS][2] = {
       {CG_R, CG_U},
       {CG_W, CG_U},
       {CG_U, CG_U},
       {CG_R, CG_R}};

  PetscFunctionBegin;
  PetscCheck(NVEC >= 10, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the CG cases need 10 buffers");
  FOR_SIDES(s)
  {
    if (c->S[s].device) {
      PetscCall(GPUPCMalloc(GPUPC_CG_WORK_BYTES, (void **)&work[s]));
      PetscCall(GPUPCMemzero(work[s], GPUPC_CG_WORK_BYTES));
      PetscCall(GPUPCHostMalloc(GPUPC_CG_NDOTS * sizeof(PetscScalar), (void **)&val[s], &pinned[s]));
    } else PetscCall(PetscMalloc1(GPUPC_CG_NDOTS, &val[s]));
  }
  for (PetscInt j = 0; j < NVEC; j++) PetscCall(PetscMalloc1(PetscMax(n, 1), &bnd[j]));
  for (PetscInt pipe = 0; pipe < 2; pipe++) {
    for (PetscInt b = 0; b < 2; b++) {
      const PetscScalar beta      = b ? 0.0 : 0.7;
      const PetscInt    member    = pipe ? GPUPC_VEC_KERNEL_pipecgupdate : GPUPC_VEC_KERNEL_cgupdate;
      const char       *variant   = b ? "beta 0, p s q z NaN" : "beta 0.7";
      const PetscInt    upd[4][2] = {
           {CG_P, CG_U},
           {CG_S, CG_W},
           {CG_Q, CG_M},
           {CG_Z, CG_N}}; /* y = a + beta y */
      const PetscInt axp[4][2] = {
        {CG_X, CG_P},
        {CG_R, CG_S},
        {CG_U, CG_Q},
        {CG_W, CG_Z}}; /* y -+= alpha d */
      const PetscInt nupd = pipe ? 4 : 2;

      FOR_SIDES(s)
      {
        for (PetscInt j = 0; j < NVEC; j++) PetscCall(VecPut(c, V, s, j, b && (j == CG_P || j == CG_S || j == CG_Q || j == CG_Z) ? nanv : in[j]));
        if (pipe) PetscCall(c->S[s].vec->pipecgupdate(n, alpha, beta, CGVectorsOf(V->buf[s]), work[s], val[s]));
        else PetscCall(c->S[s].vec->cgupdate(n, alpha, beta, CGVectorsOf(V->buf[s])));
      }
      PetscCall(GPUPCSynchronize());
      /* magnitude bounds of every buffer after the update */
      for (PetscInt j = 0; j < NVEC; j++)
        for (PetscInt i = 0; i < n; i++) bnd[j][i] = PetscAbsReal(in[j][i]);
      for (PetscInt k = 0; k < nupd; k++)
        for (PetscInt i = 0; i < n; i++) bnd[upd[k][0]][i] = PetscAbsReal(in[upd[k][1]][i]) + (b ? 0.0 : PetscAbsReal(beta * in[upd[k][0]][i]));
      for (PetscInt k = 0; k < nupd; k++)
        for (PetscInt i = 0; i < n; i++) bnd[axp[k][0]][i] = PetscAbsReal(in[axp[k][0]][i]) + PetscAbsReal(alpha) * bnd[axp[k][1]][i];
      for (PetscInt k = 0; k < nupd; k++) {
        for (PetscInt i = 0; i < n; i++) V->mag[i] = bnd[upd[k][0]][i], V->terms[i] = 2;
        PetscCall(VecAgree(c, V, member, variant, upd[k][0], PETSC_FALSE));
        for (PetscInt i = 0; i < n; i++) V->mag[i] = bnd[axp[k][0]][i], V->terms[i] = 3;
        PetscCall(VecAgree(c, V, member, variant, axp[k][0], PETSC_FALSE));
      }
      if (pipe) { /* the dots of the updated r, u, w */
        for (PetscInt k = 0; k < GPUPC_CG_NDOTS; k++) {
          dmag[k]   = 0.0;
          dterms[k] = n + 5;
          for (PetscInt i = 0; i < n; i++) dmag[k] += bnd[dl[k][0]][i] * bnd[dl[k][1]][i];
        }
        FOR_SIDES(s)
        for (PetscInt k = 0; k < GPUPC_CG_NDOTS; k++) dv[s][k] = val[s][k];
        PetscCall(Agree(c, T_VEC, member, "r.u, w.u, u.u, r.r after the update", n, GPUPC_CG_NDOTS, dv[0], dv[1], dmag, dterms, DBL_EPSILON));
      }
      Covered(c, T_VEC, member, n);
    }
  }
  /* cgdots of fresh r, u, w (twice: the completion counter must be left ready for the next launch) */
  for (PetscInt rep = 0; rep < 2; rep++) {
    FOR_SIDES(s)
    {
      for (PetscInt j = 0; j < NVEC; j++) PetscCall(VecPut(c, V, s, j, in[(j + rep) % NVEC]));
      PetscCall(c->S[s].vec->cgdots(n, CGVectorsOf(V->buf[s]), work[s], val[s]));
    }
    PetscCall(GPUPCSynchronize());
    for (PetscInt k = 0; k < GPUPC_CG_NDOTS; k++) {
      dmag[k]   = 0.0;
      dterms[k] = n;
      for (PetscInt i = 0; i < n; i++) dmag[k] += PetscAbsReal(in[(dl[k][0] + rep) % NVEC][i] * in[(dl[k][1] + rep) % NVEC][i]);
    }
    FOR_SIDES(s)
    for (PetscInt k = 0; k < GPUPC_CG_NDOTS; k++) dv[s][k] = val[s][k];
    PetscCall(Agree(c, T_VEC, GPUPC_VEC_KERNEL_cgdots, rep ? "r.u, w.u, u.u, r.r (second launch)" : "r.u, w.u, u.u, r.r", n, GPUPC_CG_NDOTS, dv[0], dv[1], dmag, dterms, DBL_EPSILON));
  }
  Covered(c, T_VEC, GPUPC_VEC_KERNEL_cgdots, n);
  for (PetscInt j = 0; j < NVEC; j++) PetscCall(PetscFree(bnd[j]));
  FOR_SIDES(s)
  {
    if (c->S[s].device) {
      PetscCall(GPUPCFree(work[s]));
      PetscCall(GPUPCHostFree(val[s], pinned[s]));
    } else PetscCall(PetscFree(val[s]));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode VecCases(Ctx *c, PetscInt n)
{
  VecData        V;
  const PetscInt nv = GPUPC_MAX_MULTI;
  PetscScalar    alpha[GPUPC_MAX_MULTI], val[2][GPUPC_MAX_MULTI];
  PetscReal      rmag[GPUPC_MAX_MULTI], rterms[GPUPC_MAX_MULTI], nrm[2][3];
  PetscScalar   *x, *y, *nanv;
  char           variant[64];

  PetscFunctionBegin;
  V.n = n;
  for (PetscInt j = 0; j < NVEC; j++) {
    PetscCall(PetscMalloc1(PetscMax(n, 1), &V.in[j]));
    PetscCall(Random(c, n, V.in[j]));
    FOR_SIDES(s)
    PetscCall(TestMalloc(c->S[s].device, n * sizeof(PetscScalar), (void **)&V.buf[s][j]));
  }
  FOR_SIDES(s)
  PetscCall(PetscMalloc1(PetscMax(n, 1), &V.out[s]));
  PetscCall(PetscMalloc3(PetscMax(n, 1), &V.mag, PetscMax(n, 1), &V.terms, PetscMax(n, 1), &nanv));
  x = V.in[0];
  y = V.in[1];
  for (PetscInt i = 0; i < n; i++) nanv[i] = (PetscScalar)NAN; /* a buffer the kernel must not read */
  for (PetscInt i = 0; i < n; i += 7) y[i] = 0.0;              /* divisions by zero (pointwise divide, maxpointwisedivide) */
  for (PetscInt i = 3; i < n; i += 11) x[i] = 0.0;             /* reciprocal of zero */
  for (PetscInt j = 0; j < nv; j++) alpha[j] = 0.37 * j - 1.1;

  /* set: exact */
  FOR_SIDES(s)
  {
    PetscCall(VecPut(c, &V, s, 2, x));
    PetscCall(c->S[s].vec->set(n, 2.5, V.buf[s][2]));
  }
  PetscCall(VecAgree(c, &V, GPUPC_VEC_KERNEL_set, "alpha 2.5", 2, PETSC_TRUE));
  Covered(c, T_VEC, GPUPC_VEC_KERNEL_set, n);
  /* scale */
  FOR_SIDES(s)
  {
    PetscCall(VecPut(c, &V, s, 2, x));
    PetscCall(c->S[s].vec->scale(n, -1.5, V.buf[s][2]));
  }
  for (PetscInt i = 0; i < n; i++) V.mag[i] = 1.5 * PetscAbsReal(x[i]), V.terms[i] = 1;
  PetscCall(VecAgree(c, &V, GPUPC_VEC_KERNEL_scale, "alpha -1.5", 2, PETSC_FALSE));
  Covered(c, T_VEC, GPUPC_VEC_KERNEL_scale, n);
  /* shift */
  FOR_SIDES(s)
  {
    PetscCall(VecPut(c, &V, s, 2, x));
    PetscCall(c->S[s].vec->shift(n, 0.75, V.buf[s][2]));
  }
  for (PetscInt i = 0; i < n; i++) V.mag[i] = PetscAbsReal(x[i]) + 0.75, V.terms[i] = 2;
  PetscCall(VecAgree(c, &V, GPUPC_VEC_KERNEL_shift, "alpha 0.75", 2, PETSC_FALSE));
  Covered(c, T_VEC, GPUPC_VEC_KERNEL_shift, n);
  /* axpby, beta -0.5, and beta 0 on a y of NaN (must not be read) */
  for (PetscInt v = 0; v < 2; v++) {
    const PetscScalar beta = v ? 0.0 : -0.5;
    FOR_SIDES(s)
    {
      PetscCall(VecPut(c, &V, s, 0, x));
      PetscCall(VecPut(c, &V, s, 2, v ? nanv : y));
      PetscCall(c->S[s].vec->axpby(n, 2.0, V.buf[s][0], beta, V.buf[s][2]));
    }
    for (PetscInt i = 0; i < n; i++) V.mag[i] = 2.0 * PetscAbsReal(x[i]) + (v ? 0.0 : 0.5 * PetscAbsReal(y[i])), V.terms[i] = 2;
    PetscCall(VecAgree(c, &V, GPUPC_VEC_KERNEL_axpby, v ? "beta 0, y NaN" : "beta -0.5", 2, PETSC_FALSE));
  }
  Covered(c, T_VEC, GPUPC_VEC_KERNEL_axpby, n);
  /* axpbypcz, gamma 0.5, and gamma 0 on a z of NaN */
  for (PetscInt v = 0; v < 2; v++) {
    const PetscScalar gamma = v ? 0.0 : 0.5;
    FOR_SIDES(s)
    {
      PetscCall(VecPut(c, &V, s, 0, x));
      PetscCall(VecPut(c, &V, s, 1, y));
      PetscCall(VecPut(c, &V, s, 2, v ? nanv : V.in[2]));
      PetscCall(c->S[s].vec->axpbypcz(n, 1.25, V.buf[s][0], -2.0, V.buf[s][1], gamma, V.buf[s][2]));
    }
    for (PetscInt i = 0; i < n; i++) V.mag[i] = 1.25 * PetscAbsReal(x[i]) + 2.0 * PetscAbsReal(y[i]) + (v ? 0.0 : 0.5 * PetscAbsReal(V.in[2][i])), V.terms[i] = 3;
    PetscCall(VecAgree(c, &V, GPUPC_VEC_KERNEL_axpbypcz, v ? "gamma 0, z NaN" : "gamma 0.5", 2, PETSC_FALSE));
  }
  Covered(c, T_VEC, GPUPC_VEC_KERNEL_axpbypcz, n);
  /* swap: exact, both buffers */
  FOR_SIDES(s)
  {
    PetscCall(VecPut(c, &V, s, 0, x));
    PetscCall(VecPut(c, &V, s, 1, y));
    PetscCall(c->S[s].vec->swap(n, V.buf[s][0], V.buf[s][1]));
  }
  PetscCall(VecAgree(c, &V, GPUPC_VEC_KERNEL_swap, "x", 0, PETSC_TRUE));
  PetscCall(VecAgree(c, &V, GPUPC_VEC_KERNEL_swap, "y", 1, PETSC_TRUE));
  Covered(c, T_VEC, GPUPC_VEC_KERNEL_swap, n);
  /* waxpy */
  FOR_SIDES(s)
  {
    PetscCall(VecPut(c, &V, s, 0, x));
    PetscCall(VecPut(c, &V, s, 1, y));
    PetscCall(VecPut(c, &V, s, 2, nanv));
    PetscCall(c->S[s].vec->waxpy(n, -0.8, V.buf[s][0], V.buf[s][1], V.buf[s][2]));
  }
  for (PetscInt i = 0; i < n; i++) V.mag[i] = 0.8 * PetscAbsReal(x[i]) + PetscAbsReal(y[i]), V.terms[i] = 2;
  PetscCall(VecAgree(c, &V, GPUPC_VEC_KERNEL_waxpy, "alpha -0.8", 2, PETSC_FALSE));
  Covered(c, T_VEC, GPUPC_VEC_KERNEL_waxpy, n);
  /* maxpy and mdot with 0 .. GPUPC_MAX_MULTI vectors (buffers 2 ..) */
  for (PetscInt m = 0; m <= nv; m++) {
    PetscCall(PetscSNPrintf(variant, sizeof(variant), "%" PetscInt_FMT " vectors", m));
    FOR_SIDES(s)
    {
      const PetscScalar *cx[GPUPC_MAX_MULTI];
      for (PetscInt j = 0; j < m; j++) {
        PetscCall(VecPut(c, &V, s, 2 + j, V.in[2 + j]));
        cx[j] = V.buf[s][2 + j];
      }
      PetscCall(VecPut(c, &V, s, 0, x));
      PetscCall(c->S[s].vec->maxpy(n, m, alpha, cx, V.buf[s][0]));
      PetscCall(c->S[s].vec->mdot(n, V.buf[s][0], m, cx, val[s]));
    }
    for (PetscInt i = 0; i < n; i++) {
      V.mag[i]   = PetscAbsReal(x[i]);
      V.terms[i] = m + 1;
      for (PetscInt j = 0; j < m; j++) V.mag[i] += PetscAbsReal(alpha[j] * V.in[2 + j][i]);
    }
    PetscCall(VecAgree(c, &V, GPUPC_VEC_KERNEL_maxpy, variant, 0, PETSC_FALSE));
    /* mdot of the maxpy result (side 0's, which agrees with side 1's) with each x_j: the sides' inputs differ by the
       maxpy bound, which the mdot bound takes in: sum_i |y_i x_ji| with y_i replaced by its magnitude bound */
    for (PetscInt j = 0; j < m; j++) {
      rmag[j]   = 0.0;
      rterms[j] = n + m + 3;
      for (PetscInt i = 0; i < n; i++) rmag[j] += V.mag[i] * PetscAbsReal(V.in[2 + j][i]);
    }
    PetscCall(Agree(c, T_VEC, GPUPC_VEC_KERNEL_mdot, variant, n, m, val[0], val[1], rmag, rterms, DBL_EPSILON));
  }
  /* maxpy with more vectors than mdot's pass: 9, 19 and GPUPC_MAX_MAXPY (the buffers 2 .. used in turn) */
  {
    const PetscInt mmv[3] = {GPUPC_MAX_MULTI + 1, 2 * GPUPC_MAX_MULTI + 3, GPUPC_MAX_MAXPY};
    PetscScalar    ma[GPUPC_MAX_MAXPY];

    for (PetscInt t = 0; t < 3; t++) {
      const PetscInt     mm = mmv[t];
      const PetscScalar *cx[GPUPC_MAX_MAXPY];

      for (PetscInt j = 0; j < mm; j++) ma[j] = 0.11 * j - 1.3;
      PetscCall(PetscSNPrintf(variant, sizeof(variant), "%" PetscInt_FMT " vectors", mm));
      FOR_SIDES(s)
      {
        for (PetscInt j = 0; j < nv; j++) PetscCall(VecPut(c, &V, s, 2 + j, V.in[2 + j]));
        for (PetscInt j = 0; j < mm; j++) cx[j] = V.buf[s][2 + j % nv];
        PetscCall(VecPut(c, &V, s, 0, x));
        PetscCall(c->S[s].vec->maxpy(n, mm, ma, cx, V.buf[s][0]));
      }
      for (PetscInt i = 0; i < n; i++) {
        V.mag[i]   = PetscAbsReal(x[i]);
        V.terms[i] = mm + 1;
        for (PetscInt j = 0; j < mm; j++) V.mag[i] += PetscAbsReal(ma[j] * V.in[2 + j % nv][i]);
      }
      PetscCall(VecAgree(c, &V, GPUPC_VEC_KERNEL_maxpy, variant, 0, PETSC_FALSE));
    }
  }
  Covered(c, T_VEC, GPUPC_VEC_KERNEL_maxpy, n);
  /* mdot with more vectors than one pass takes (2 GPUPC_MAX_MULTI + 3, the buffers 2 .. used in turn): several passes,
     each result in its own slot */
  {
    const PetscInt     mm = 2 * GPUPC_MAX_MULTI + 3;
    const PetscScalar *cy[2 * GPUPC_MAX_MULTI + 3];
    PetscScalar        mv[2][2 * GPUPC_MAX_MULTI + 3];
    PetscReal          mmag[2 * GPUPC_MAX_MULTI + 3], mterms[2 * GPUPC_MAX_MULTI + 3];

    FOR_SIDES(s)
    {
      PetscCall(VecPut(c, &V, s, 0, x));
      for (PetscInt j = 0; j < nv; j++) PetscCall(VecPut(c, &V, s, 2 + j, V.in[2 + j]));
      for (PetscInt j = 0; j < mm; j++) cy[j] = V.buf[s][2 + j % nv];
      PetscCall(c->S[s].vec->mdot(n, V.buf[s][0], mm, cy, mv[s]));
    }
    for (PetscInt j = 0; j < mm; j++) {
      mmag[j]   = 0.0;
      mterms[j] = n;
      for (PetscInt i = 0; i < n; i++) mmag[j] += PetscAbsReal(x[i] * V.in[2 + j % nv][i]);
    }
    PetscCall(Agree(c, T_VEC, GPUPC_VEC_KERNEL_mdot, "2 GPUPC_MAX_MULTI + 3 vectors", n, mm, mv[0], mv[1], mmag, mterms, DBL_EPSILON));
  }
  Covered(c, T_VEC, GPUPC_VEC_KERNEL_mdot, n);
  /* pointwise: mult and divide round once, max/min/maxabs are exact */
  {
    const GPUPCPointwiseOp op[]   = {GPUPC_PW_MULT, GPUPC_PW_DIVIDE, GPUPC_PW_MAX, GPUPC_PW_MIN, GPUPC_PW_MAXABS};
    const char            *name[] = {"mult", "divide (y has zeros)", "max", "min", "maxabs"};
    for (PetscInt o = 0; o < 5; o++) {
      FOR_SIDES(s)
      {
        PetscCall(VecPut(c, &V, s, 0, x));
        PetscCall(VecPut(c, &V, s, 1, y));
        PetscCall(VecPut(c, &V, s, 2, nanv));
        PetscCall(c->S[s].vec->pointwise(op[o], n, V.buf[s][0], V.buf[s][1], V.buf[s][2]));
      }
      for (PetscInt i = 0; i < n; i++) V.mag[i] = o == 0 ? PetscAbsReal(x[i] * y[i]) : (y[i] != 0.0 ? PetscAbsReal(x[i] / y[i]) : 0.0), V.terms[i] = 1;
      PetscCall(VecAgree(c, &V, GPUPC_VEC_KERNEL_pointwise, name[o], 2, (PetscBool)(o >= 2)));
    }
  }
  Covered(c, T_VEC, GPUPC_VEC_KERNEL_pointwise, n);
  /* unary: reciprocal and sqrt round once, abs is exact, exp and log are within 1 ulp on either side (log of |x| + 0.25) */
  {
    const GPUPCUnaryOp op[]   = {GPUPC_UNARY_RECIPROCAL, GPUPC_UNARY_ABS, GPUPC_UNARY_SQRT_ABS, GPUPC_UNARY_EXP, GPUPC_UNARY_LOG};
    const char        *name[] = {"reciprocal (x has zeros)", "abs", "sqrt_abs", "exp", "log"};
    for (PetscInt o = 0; o < 5; o++) {
      PetscScalar *in = V.in[2];
      for (PetscInt i = 0; i < n; i++) in[i] = op[o] == GPUPC_UNARY_LOG ? PetscAbsReal(x[i]) + 0.25 : x[i];
      FOR_SIDES(s)
      {
        PetscCall(VecPut(c, &V, s, 2, in));
        PetscCall(c->S[s].vec->unary(op[o], n, V.buf[s][2]));
      }
      PetscCall(Unary_Ref(op[o], n, in)); /* the magnitudes of the results */
      for (PetscInt i = 0; i < n; i++) V.mag[i] = PetscAbsReal(in[i]), V.terms[i] = 2;
      PetscCall(VecAgree(c, &V, GPUPC_VEC_KERNEL_unary, name[o], 2, (PetscBool)(op[o] == GPUPC_UNARY_ABS)));
    }
    PetscCall(Random(c, n, V.in[2]));
  }
  Covered(c, T_VEC, GPUPC_VEC_KERNEL_unary, n);
  /* dotnorm2 */
  FOR_SIDES(s)
  {
    PetscCall(VecPut(c, &V, s, 0, x));
    PetscCall(VecPut(c, &V, s, 1, y));
    PetscCall(c->S[s].vec->dotnorm2(n, V.buf[s][0], V.buf[s][1], val[s]));
  }
  rmag[0] = rmag[1] = 0.0;
  rterms[0] = rterms[1] = n;
  for (PetscInt i = 0; i < n; i++) rmag[0] += PetscAbsReal(x[i] * y[i]), rmag[1] += y[i] * y[i];
  PetscCall(Agree(c, T_VEC, GPUPC_VEC_KERNEL_dotnorm2, "x.y, y.y", n, 2, val[0], val[1], rmag, rterms, DBL_EPSILON));
  Covered(c, T_VEC, GPUPC_VEC_KERNEL_dotnorm2, n);
  /* norms: the sums to rounding, the max exactly */
  FOR_SIDES(s)
  {
    PetscCall(VecPut(c, &V, s, 0, x));
    PetscCall(c->S[s].vec->norms(n, V.buf[s][0], nrm[s]));
  }
  rmag[0] = rmag[1] = 0.0;
  rterms[0] = rterms[1] = n;
  for (PetscInt i = 0; i < n; i++) rmag[0] += PetscAbsReal(x[i]), rmag[1] += x[i] * x[i];
  PetscCall(Agree(c, T_VEC, GPUPC_VEC_KERNEL_norms, "sum |x|, sum x^2", n, 2, nrm[0], nrm[1], rmag, rterms, DBL_EPSILON));
  PetscCall(Agree(c, T_VEC, GPUPC_VEC_KERNEL_norms, "max |x|", n, 1, &nrm[0][2], &nrm[1][2], NULL, NULL, DBL_EPSILON));
  Covered(c, T_VEC, GPUPC_VEC_KERNEL_norms, n);
  /* maxpointwisedivide: exact (a max of quotients that round alike) */
  FOR_SIDES(s)
  {
    PetscCall(VecPut(c, &V, s, 0, x));
    PetscCall(VecPut(c, &V, s, 1, y));
    PetscCall(c->S[s].vec->maxpointwisedivide(n, V.buf[s][0], V.buf[s][1], &nrm[s][0]));
  }
  PetscCall(Agree(c, T_VEC, GPUPC_VEC_KERNEL_maxpointwisedivide, "y has zeros", n, 1, &nrm[0][0], &nrm[1][0], NULL, NULL, DBL_EPSILON));
  Covered(c, T_VEC, GPUPC_VEC_KERNEL_maxpointwisedivide, n);
  /* extremum: value and index exactly; the input holds its extreme values twice, so the smallest index is asked for */
  for (PetscInt sign = -1; sign <= 1; sign += 2) {
    PetscInt     idx[2];
    PetscReal    at[2];
    PetscScalar *in = V.in[2];
    PetscCall(PetscArraycpy(in, x, n));
    if (n > 2) {
      PetscInt best = 0;
      for (PetscInt i = 1; i < n; i++)
        if (sign * in[i] > sign * in[best]) best = i;
      in[n - 1] = in[best]; /* a tie after the first occurrence (best < n - 1 unless it is the last) */
    }
    FOR_SIDES(s)
    {
      PetscCall(VecPut(c, &V, s, 2, in));
      PetscCall(c->S[s].vec->extremum(n, V.buf[s][2], sign, &nrm[s][0], &idx[s]));
    }
    at[0] = idx[0];
    at[1] = idx[1];
    PetscCall(Agree(c, T_VEC, GPUPC_VEC_KERNEL_extremum, sign > 0 ? "max value" : "min value", n, 1, &nrm[0][0], &nrm[1][0], NULL, NULL, DBL_EPSILON));
    PetscCall(Agree(c, T_VEC, GPUPC_VEC_KERNEL_extremum, sign > 0 ? "max index" : "min index", n, 1, &at[0], &at[1], NULL, NULL, DBL_EPSILON));
  }
  Covered(c, T_VEC, GPUPC_VEC_KERNEL_extremum, n);
  /* sum */
  FOR_SIDES(s)
  {
    PetscCall(VecPut(c, &V, s, 0, x));
    PetscCall(c->S[s].vec->sum(n, V.buf[s][0], &val[s][0]));
  }
  rmag[0]   = 0.0;
  rterms[0] = n;
  for (PetscInt i = 0; i < n; i++) rmag[0] += PetscAbsReal(x[i]);
  PetscCall(Agree(c, T_VEC, GPUPC_VEC_KERNEL_sum, "sum x", n, 1, val[0], val[1], rmag, rterms, DBL_EPSILON));
  Covered(c, T_VEC, GPUPC_VEC_KERNEL_sum, n);
  PetscCall(CGCases(c, &V, nanv));

  for (PetscInt j = 0; j < NVEC; j++) {
    PetscCall(PetscFree(V.in[j]));
    FOR_SIDES(s)
    PetscCall(TestFree(c->S[s].device, V.buf[s][j]));
  }
  FOR_SIDES(s)
  PetscCall(PetscFree(V.out[s]));
  PetscCall(PetscFree3(V.mag, V.terms, nanv));
  PetscFunctionReturn(0);
}

/* ================================================================ halo */

static PetscErrorCode HaloCases(Ctx *c, PetscInt n)
{
  const PetscInt nx = 2 * n + 5, ny = n + 7; /* gather from a longer vector; scatter into a longer one */
  PetscInt      *gidx, *sidx, *dgidx[2], *dsidx[2];
  PetscScalar   *x, *buf, *y, *out[2], *dx[2], *dbuf[2], *dy[2];
  PetscReal     *mag, *terms;

  PetscFunctionBegin;
  PetscCall(PetscMalloc5(PetscMax(n, 1), &gidx, ny, &sidx, nx, &x, PetscMax(n, 1), &buf, ny, &y));
  PetscCall(PetscMalloc4(ny, &out[0], ny, &out[1], ny, &mag, ny, &terms));
  PetscCall(Random(c, nx, x));
  PetscCall(Random(c, n, buf));
  PetscCall(Random(c, ny, y));
  for (PetscInt k = 0; k < n; k++) {
    PetscReal u;
    PetscCall(PetscRandomGetValueReal(c->rnd, &u));
    gidx[k] = PetscMin(nx - 1, (PetscInt)((u + 1.0) * 0.5 * nx)); /* repeats allowed */
  }
  for (PetscInt k = 0; k < ny; k++) sidx[k] = k;
  for (PetscInt k = ny - 1; k > 0; k--) { /* a random permutation: n indices without repeats */
    PetscReal u;
    PetscInt  j, t;
    PetscCall(PetscRandomGetValueReal(c->rnd, &u));
    j       = PetscMin(k, (PetscInt)((u + 1.0) * 0.5 * (k + 1)));
    t       = sidx[k];
    sidx[k] = sidx[j];
    sidx[j] = t;
  }
  FOR_SIDES(s)
  {
    const PetscBool dev = c->S[s].device;
    PetscCall(TestDup(dev, gidx, n * sizeof(PetscInt), (void **)&dgidx[s]));
    PetscCall(TestDup(dev, sidx, n * sizeof(PetscInt), (void **)&dsidx[s]));
    PetscCall(TestDup(dev, x, nx * sizeof(PetscScalar), (void **)&dx[s]));
    PetscCall(TestDup(dev, y, ny * sizeof(PetscScalar), (void **)&dy[s]));
    PetscCall(TestMalloc(dev, n * sizeof(PetscScalar), (void **)&dbuf[s]));
    /* gather: exact */
    PetscCall(c->S[s].halo->gather(n, dgidx[s], dx[s], dbuf[s]));
    PetscCall(TestGet(dev, out[s], dbuf[s], n * sizeof(PetscScalar)));
  }
  PetscCall(Agree(c, T_HALO, GPUPC_HALO_KERNEL_gather, "random indices with repeats", n, n, out[0], out[1], NULL, NULL, DBL_EPSILON));
  Covered(c, T_HALO, GPUPC_HALO_KERNEL_gather, n);
  /* scatteradd: one rounded addition on the entries it touches, the others exactly unchanged */
  FOR_SIDES(s)
  {
    const PetscBool dev = c->S[s].device;
    PetscCall(TestPut(dev, dbuf[s], buf, n * sizeof(PetscScalar)));
    PetscCall(c->S[s].halo->scatteradd(n, dsidx[s], dbuf[s], dy[s]));
    PetscCall(TestGet(dev, out[s], dy[s], ny * sizeof(PetscScalar)));
  }
  for (PetscInt i = 0; i < ny; i++) mag[i] = terms[i] = 0.0;
  for (PetscInt k = 0; k < n; k++) mag[sidx[k]] = PetscAbsReal(y[sidx[k]]) + PetscAbsReal(buf[k]), terms[sidx[k]] = 2;
  PetscCall(Agree(c, T_HALO, GPUPC_HALO_KERNEL_scatteradd, "random indices without repeats", n, ny, out[0], out[1], mag, terms, DBL_EPSILON));
  Covered(c, T_HALO, GPUPC_HALO_KERNEL_scatteradd, n);
  FOR_SIDES(s)
  {
    const PetscBool dev = c->S[s].device;
    PetscCall(TestFree(dev, dgidx[s]));
    PetscCall(TestFree(dev, dsidx[s]));
    PetscCall(TestFree(dev, dx[s]));
    PetscCall(TestFree(dev, dy[s]));
    PetscCall(TestFree(dev, dbuf[s]));
  }
  PetscCall(PetscFree5(gidx, sidx, x, buf, y));
  PetscCall(PetscFree4(out[0], out[1], mag, terms));
  PetscFunctionReturn(0);
}

/* ================================================================ segcsr */

/* an m x n CSR with distinct columns per row and rows of every kind: empty (r % 23 == 0), short, medium (300 entries
   every 97th row) and one long row (row 3: 5000 entries), each capped at n */
static PetscErrorCode SegRandomCSR(Ctx *c, PetscInt m, PetscInt n, TestCSR *A)
{
  size_t cap = 0;

  PetscFunctionBegin;
  A->m = m;
  A->n = n;
  PetscCall(PetscMalloc1(m + 1, &A->i));
  A->i[0] = 0;
  for (PetscInt r = 0; r < m; r++) {
    const PetscInt len = n ? PetscMin(n, r == 3 ? 5000 : r % 97 == 0 ? 300
                                                                     : r % 23)
                           : 0;
    A->i[r + 1]        = A->i[r] + len;
  }
  cap = (size_t)A->i[m];
  PetscCall(PetscMalloc2(cap + 1, &A->j, cap + 1, &A->a));
  for (PetscInt r = 0; r < m; r++) {
    const PetscInt len = A->i[r + 1] - A->i[r];
    for (PetscInt t = 0; t < len; t++) {
      PetscReal u;
      PetscCall(PetscRandomGetValueReal(c->rnd, &u));
      A->j[A->i[r] + t] = (r + t * (n / PetscMax(len, 1))) % n; /* distinct: stride n / len >= 1, len <= n */
      A->a[A->i[r] + t] = u;
    }
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode SegFreeCSR(TestCSR *A)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(A->i));
  PetscCall(PetscFree2(A->j, A->a));
  PetscFunctionReturn(0);
}

/* every member on one layout h (host arrays) copied into both worlds */
static PetscErrorCode SegLayoutCases(Ctx *c, const TestCSR *A, const GPUPCSegCSRDev *h, const PetscScalar *x, const PetscScalar *z, const PetscScalar *xt, const PetscScalar *y0)
{
  const PetscInt   m = h->m, n = h->n, L = h->L;
  const PetscInt   offsets[2] = {0, n > 3 ? 3 : 0};
  GPUPCSegCSRDev   d[2];
  PetscScalar     *dx[2], *dz[2], *dy[2], *dxt[2], *dyt[2], *out[2];
  PetscReal       *mag, *terms;
  char             variant[128];
  const PetscInt64 size = h->nnz;

  PetscFunctionBegin;
  PetscCall(PetscMalloc4(PetscMax(PetscMax(m, n), 1), &out[0], PetscMax(PetscMax(m, n), 1), &out[1], PetscMax(PetscMax(m, n), 1), &mag, PetscMax(PetscMax(m, n), 1), &terms));
  FOR_SIDES(s)
  {
    const PetscBool dev = c->S[s].device;
    PetscCall(TestSegCSRUpload(h, dev, &d[s]));
    PetscCall(TestDup(dev, x, n * sizeof(PetscScalar), (void **)&dx[s]));
    PetscCall(TestMalloc(dev, m * sizeof(PetscScalar), (void **)&dz[s]));
    PetscCall(TestMalloc(dev, m * sizeof(PetscScalar), (void **)&dy[s]));
    PetscCall(TestDup(dev, xt, m * sizeof(PetscScalar), (void **)&dxt[s]));
    PetscCall(TestMalloc(dev, n * sizeof(PetscScalar), (void **)&dyt[s]));
  }
  /* mult: y = A x, y = A x + z (z another buffer), z = A x + z (in place) */
  for (PetscInt v = 0; v < 3; v++) {
    const char *vname[] = {"y = A x", "y = A x + z", "z = A x + z in place"};
    PetscCall(PetscSNPrintf(variant, sizeof(variant), "%s, L = %" PetscInt_FMT ", %s mode, %" PetscInt_FMT " x %" PetscInt_FMT, vname[v], L, MatSegCSRShortModes[h->shortmode], m, n));
    FOR_SIDES(s)
    {
      const PetscBool dev = c->S[s].device;
      PetscCall(TestPut(dev, dz[s], z, m * sizeof(PetscScalar)));
      PetscCall(TestPut(dev, dy[s], y0, m * sizeof(PetscScalar))); /* stale values that must be overwritten */
      PetscCall(c->S[s].seg->mult(&d[s], dx[s], v ? dz[s] : NULL, v == 2 ? dz[s] : dy[s]));
      PetscCall(TestGet(dev, out[s], v == 2 ? dz[s] : dy[s], m * sizeof(PetscScalar)));
    }
    for (PetscInt i = 0; i < m; i++) {
      mag[i]   = v ? PetscAbsReal(z[i]) : 0.0;
      terms[i] = (h->segptr[i + 1] - h->segptr[i]) * L + 1;
      for (PetscInt q = A->i[i]; q < A->i[i + 1]; q++) mag[i] += PetscAbsReal(A->a[q] * x[A->j[q]]);
    }
    PetscCall(Agree(c, T_SEGCSR, GPUPC_SEGCSR_KERNEL_mult, variant, size, m, out[0], out[1], mag, terms, DBL_EPSILON));
  }
  Covered(c, T_SEGCSR, GPUPC_SEGCSR_KERNEL_mult, size);
  /* multtransposeadd: yt = y0 + A^T xt */
  PetscCall(PetscSNPrintf(variant, sizeof(variant), "yt += A^T xt, L = %" PetscInt_FMT ", %s mode, %" PetscInt_FMT " x %" PetscInt_FMT, L, MatSegCSRShortModes[h->shortmode], m, n));
  FOR_SIDES(s)
  {
    const PetscBool dev = c->S[s].device;
    PetscCall(TestPut(dev, dyt[s], x, n * sizeof(PetscScalar)));
    PetscCall(c->S[s].seg->multtransposeadd(&d[s], dxt[s], dyt[s]));
    PetscCall(TestGet(dev, out[s], dyt[s], n * sizeof(PetscScalar)));
  }
  for (PetscInt j = 0; j < n; j++) mag[j] = PetscAbsReal(x[j]), terms[j] = 1;
  for (PetscInt i = 0; i < m; i++) {
    for (PetscInt q = A->i[i]; q < A->i[i + 1]; q++) mag[A->j[q]] += PetscAbsReal(A->a[q] * xt[i]);
    if (n > 0)
      for (size_t k = (size_t)h->segptr[i] * L; k < (size_t)h->segptr[i + 1] * L; k++) terms[h->col[k]] += 1; /* padding slots add exact zeros */
  }
  PetscCall(Agree(c, T_SEGCSR, GPUPC_SEGCSR_KERNEL_multtransposeadd, variant, size, n, out[0], out[1], mag, terms, DBL_EPSILON));
  Covered(c, T_SEGCSR, GPUPC_SEGCSR_KERNEL_multtransposeadd, size);
  /* getdiagonal of the block and of a block whose diagonal is shifted by 3 columns: exact */
  for (PetscInt o = 0; o < 2; o++) {
    PetscCall(PetscSNPrintf(variant, sizeof(variant), "column offset %" PetscInt_FMT ", L = %" PetscInt_FMT ", %s mode", offsets[o], L, MatSegCSRShortModes[h->shortmode]));
    FOR_SIDES(s)
    {
      const PetscBool dev = c->S[s].device;
      PetscCall(TestPut(dev, dy[s], y0, m * sizeof(PetscScalar)));
      PetscCall(c->S[s].seg->getdiagonal(&d[s], offsets[o], dy[s]));
      PetscCall(TestGet(dev, out[s], dy[s], m * sizeof(PetscScalar)));
    }
    PetscCall(Agree(c, T_SEGCSR, GPUPC_SEGCSR_KERNEL_getdiagonal, variant, size, m, out[0], out[1], NULL, NULL, DBL_EPSILON));
  }
  Covered(c, T_SEGCSR, GPUPC_SEGCSR_KERNEL_getdiagonal, size);
  /* layvalues: the values laid out in one range and in ranges of 1000 entries (as a staged update does), over a value
     array of garbage that every slot must lose: exact */
  {
    const PetscInt nslots = h->nseg * L, nnz = A->i[m];
    PetscInt      *slot;
    PetscScalar   *da[2], *dval[2], *got[2], *junk;

    PetscCall(PetscMalloc4(nnz + 1, &slot, PetscMax(nslots, 1), &got[0], PetscMax(nslots, 1), &got[1], PetscMax(nslots, 1), &junk));
    for (PetscInt i = 0; i < m; i++)
      for (PetscInt q = A->i[i]; q < A->i[i + 1]; q++) slot[q] = h->segptr[i] * L + q - A->i[i];
    for (PetscInt t = 0; t < nslots; t++) junk[t] = 1e300;
    for (PetscInt cs = PetscMax(nnz, 1), pass = 0; pass < 2; pass++, cs = 1000) {
      PetscCall(PetscSNPrintf(variant, sizeof(variant), "ranges of %" PetscInt_FMT " entries, L = %" PetscInt_FMT ", %" PetscInt_FMT " x %" PetscInt_FMT, cs, L, m, n));
      FOR_SIDES(s)
      {
        const PetscBool dev = c->S[s].device;
        PetscCall(TestMalloc(dev, PetscMax(cs, 1) * sizeof(PetscScalar), (void **)&da[s]));
        PetscCall(TestDup(dev, junk, nslots * sizeof(PetscScalar), (void **)&dval[s]));
        for (PetscInt k0 = 0; k0 < PetscMax(nnz, 1); k0 += cs) { /* nnz = 0: one range of padding only */
          const PetscInt k1 = PetscMin(nnz, k0 + cs), s0 = k0 == 0 ? 0 : slot[k0], s1 = k1 == nnz ? nslots : slot[k1];
          PetscCall(TestPut(dev, da[s], A->a + k0, (k1 - k0) * sizeof(PetscScalar)));
          PetscCall(c->S[s].seg->layvalues(&d[s], s0, s1, k0, da[s], dval[s]));
        }
        PetscCall(TestGet(dev, got[s], dval[s], nslots * sizeof(PetscScalar)));
        PetscCall(TestFree(dev, da[s]));
        PetscCall(TestFree(dev, dval[s]));
      }
      PetscCall(Agree(c, T_SEGCSR, GPUPC_SEGCSR_KERNEL_layvalues, variant, size, nslots, got[0], got[1], NULL, NULL, DBL_EPSILON));
    }
    PetscCall(PetscFree4(slot, got[0], got[1], junk));
  }
  Covered(c, T_SEGCSR, GPUPC_SEGCSR_KERNEL_layvalues, size);
  FOR_SIDES(s)
  {
    const PetscBool dev = c->S[s].device;
    PetscCall(TestSegCSRFreeUpload(dev, &d[s]));
    PetscCall(TestFree(dev, dx[s]));
    PetscCall(TestFree(dev, dz[s]));
    PetscCall(TestFree(dev, dy[s]));
    PetscCall(TestFree(dev, dxt[s]));
    PetscCall(TestFree(dev, dyt[s]));
  }
  PetscCall(PetscFree4(out[0], out[1], mag, terms));
  PetscFunctionReturn(0);
}

/* an m x n matrix in group mode, tile mode with full tiles and tile mode with tiles of at most 3 segments, for each
   segment length of Ls */
static PetscErrorCode SegCases(Ctx *c, PetscInt m, PetscInt n, PetscInt nL, const PetscInt *Ls)
{
  TestCSR      A;
  PetscScalar *x, *z, *xt, *y0;

  PetscFunctionBegin;
  PetscCall(SegRandomCSR(c, m, n, &A));
  PetscCall(PetscMalloc4(PetscMax(n, 1), &x, PetscMax(m, 1), &z, PetscMax(m, 1), &xt, PetscMax(m, 1), &y0));
  PetscCall(Random(c, n, x));
  PetscCall(Random(c, m, z));
  PetscCall(Random(c, m, xt));
  PetscCall(Random(c, m, y0));
  for (PetscInt l = 0; l < nL; l++) {
    GPUPCSegCSRDev h;
    PetscCall(TestSegCSRLayout(&A, Ls[l], &h));
    for (PetscInt v = 0; v < 3; v++) {
      if (v) PetscCall(TestSegCSRTile(&h, v == 1 ? GPUPC_SEGCSR_TILE_SLOTS / Ls[l] : 3));
      PetscCall(SegLayoutCases(c, &A, &h, x, z, xt, y0));
    }
    PetscCall(TestSegCSRFreeLayout(&h));
  }
  PetscCall(PetscFree4(x, z, xt, y0));
  PetscCall(SegFreeCSR(&A));
  PetscFunctionReturn(0);
}

/* ================================================================ cmg */

/* a set-up PC cmg's levels and fold on both sides: side 0 the PC's own device data (copies of its structs), side 1
   host-world copies of the same arrays (the CUDA-only load-balancing fields left empty: the host kernels and the
   reference do not read them) */
typedef struct {
  GPUPCCMGPrecision    prec;
  size_t               es;
  PetscReal            eps;
  PetscInt             nlevels, nmax;
  GPUPCCMGDeviceLevel *lev[2];
  GPUPCCMGDeviceFold   fold[2];
  void                *r[2];          /* a residual buffer of nmax entries */
  PetscScalar         *ub[2], *ux[2]; /* user vectors (fold.n) */
} CMGData;

static PetscErrorCode HostCopy(const void *d, size_t bytes, void **h)
{
  PetscFunctionBegin;
  PetscCall(TestMalloc(PETSC_FALSE, bytes, h));
  PetscCall(TestGet(PETSC_TRUE, *h, d, bytes));
  PetscFunctionReturn(0);
}

/* level values of the level precision from double host values h (already rounded to it) */
static PetscErrorCode PutLevel(Ctx *c, CMGData *M, PetscInt s, PetscInt n, const PetscReal *h, void *d)
{
  PetscFunctionBegin;
  if (M->prec == GPUPC_CMG_PRECISION_SINGLE) {
    float *f;
    PetscCall(PetscMalloc1(PetscMax(n, 1), &f));
    for (PetscInt i = 0; i < n; i++) f[i] = (float)h[i];
    PetscCall(TestPut(c->S[s].device, d, f, n * sizeof(float)));
    PetscCall(PetscFree(f));
  } else PetscCall(TestPut(c->S[s].device, d, h, n * sizeof(double)));
  PetscFunctionReturn(0);
}

static PetscErrorCode GetLevel(Ctx *c, CMGData *M, PetscInt s, PetscInt n, const void *d, PetscReal *h)
{
  PetscFunctionBegin;
  if (M->prec == GPUPC_CMG_PRECISION_SINGLE) {
    float *f;
    PetscCall(PetscMalloc1(PetscMax(n, 1), &f));
    PetscCall(TestGet(c->S[s].device, f, d, n * sizeof(float)));
    for (PetscInt i = 0; i < n; i++) h[i] = f[i];
    PetscCall(PetscFree(f));
  } else PetscCall(TestGet(c->S[s].device, h, d, n * sizeof(double)));
  PetscFunctionReturn(0);
}

/* random values rounded to the level precision */
static PetscErrorCode RandomLevel(Ctx *c, CMGData *M, PetscInt n, PetscReal *h)
{
  PetscFunctionBegin;
  PetscCall(Random(c, n, h));
  if (M->prec == GPUPC_CMG_PRECISION_SINGLE)
    for (PetscInt i = 0; i < n; i++) h[i] = (float)h[i];
  PetscFunctionReturn(0);
}

static PetscErrorCode CMGDataCreate(Ctx *c, const GPUPCCMGHierarchy *H, const GPUPCCMGDevice *D, CMGData *M)
{
  const GPUPCCMGReduction *R = &H->red;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(M, sizeof(*M)));
  M->prec    = D->prec;
  M->es      = M->prec == GPUPC_CMG_PRECISION_SINGLE ? sizeof(float) : sizeof(double);
  M->eps     = M->prec == GPUPC_CMG_PRECISION_SINGLE ? FLT_EPSILON : DBL_EPSILON;
  M->nlevels = D->nlevels;
  FOR_SIDES(s)
  PetscCall(PetscCalloc1(M->nlevels, &M->lev[s]));
  for (PetscInt k = 0; k < M->nlevels; k++) {
    const GPUPCCMGDeviceLevel *DL = &D->levels[k];
    GPUPCCMGDeviceLevel       *HL = &M->lev[1][k];
    const PetscInt             n = DL->n, nnz = DL->nnz;

    M->lev[0][k] = *DL;
    M->nmax      = PetscMax(M->nmax, n);
    HL->prec     = DL->prec;
    HL->n        = n;
    HL->nnz      = nnz;
    HL->nc       = DL->nc;
    HL->t        = DL->t;
    HL->direct   = DL->direct;
    HL->lanes    = DL->lanes;
    PetscCall(HostCopy(DL->rowptr, (n + 1) * sizeof(PetscInt), (void **)&HL->rowptr));
    PetscCall(HostCopy(DL->col, nnz * sizeof(PetscInt), (void **)&HL->col));
    PetscCall(HostCopy(DL->val, nnz * M->es, &HL->val));
    PetscCall(HostCopy(DL->invd, n * M->es, &HL->invd));
    PetscCall(TestMalloc(PETSC_FALSE, n * M->es, &HL->b));
    PetscCall(TestMalloc(PETSC_FALSE, n * M->es, &HL->x));
    PetscCall(TestMalloc(PETSC_FALSE, n * M->es, &HL->w));
    if (k + 1 < M->nlevels) {
      PetscCall(HostCopy(DL->cluster, n * sizeof(PetscInt), (void **)&HL->cluster));
      PetscCall(HostCopy(DL->cptr, (DL->nc + 1) * sizeof(PetscInt), (void **)&HL->cptr));
      PetscCall(HostCopy(DL->cperm, n * sizeof(PetscInt), (void **)&HL->cperm));
    } else if (DL->direct) PetscCall(HostCopy(DL->dense, (size_t)n * n * M->es, &HL->dense));
  }
  M->fold[0]      = D->fold;
  M->fold[1]      = D->fold;
  M->fold[1].map  = NULL;
  M->fold[1].dinv = NULL;
  M->fold[1].sum  = NULL;
  M->fold[1].done = NULL;
  M->fold[1].erow = M->fold[1].ecol = M->fold[1].trow = M->fold[1].tcol = NULL;
  M->fold[1].eval = M->fold[1].tval = NULL;
  if (D->fold.map) {
    PetscCall(HostCopy(D->fold.map, R->n * sizeof(PetscInt), (void **)&M->fold[1].map));
    PetscCall(HostCopy(D->fold.dinv, R->n * sizeof(PetscScalar), (void **)&M->fold[1].dinv));
  }
  if (D->fold.erow) {
    PetscCall(HostCopy(D->fold.erow, (R->n + 1) * sizeof(PetscInt), (void **)&M->fold[1].erow));
    PetscCall(HostCopy(D->fold.ecol, R->ncoupling * sizeof(PetscInt), (void **)&M->fold[1].ecol));
    PetscCall(HostCopy(D->fold.eval, R->ncoupling * sizeof(PetscScalar), (void **)&M->fold[1].eval));
    PetscCall(HostCopy(D->fold.trow, (R->n + 1) * sizeof(PetscInt), (void **)&M->fold[1].trow));
    PetscCall(HostCopy(D->fold.tcol, R->ncoupling * sizeof(PetscInt), (void **)&M->fold[1].tcol));
    PetscCall(HostCopy(D->fold.tval, R->ncoupling * sizeof(PetscScalar), (void **)&M->fold[1].tval));
  }
  FOR_SIDES(s)
  {
    const PetscBool dev   = c->S[s].device;
    M->fold[s].first.x    = NULL; /* set by the expand cases */
    M->fold[s].first.invd = NULL;
    PetscCall(TestMalloc(dev, M->nmax * M->es, &M->r[s]));
    PetscCall(TestMalloc(dev, R->n * sizeof(PetscScalar), (void **)&M->ub[s]));
    PetscCall(TestMalloc(dev, R->n * sizeof(PetscScalar), (void **)&M->ux[s]));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode CMGDataDestroy(Ctx *c, CMGData *M)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < M->nlevels; k++) {
    GPUPCCMGDeviceLevel *HL = &M->lev[1][k];
    PetscCall(PetscFree(HL->rowptr));
    PetscCall(PetscFree(HL->col));
    PetscCall(PetscFree(HL->val));
    PetscCall(PetscFree(HL->invd));
    PetscCall(PetscFree(HL->b));
    PetscCall(PetscFree(HL->x));
    PetscCall(PetscFree(HL->w));
    PetscCall(PetscFree(HL->cluster));
    PetscCall(PetscFree(HL->cptr));
    PetscCall(PetscFree(HL->cperm));
    PetscCall(PetscFree(HL->dense));
  }
  PetscCall(PetscFree(M->fold[1].map));
  PetscCall(PetscFree(M->fold[1].dinv));
  PetscCall(PetscFree(M->fold[1].erow));
  PetscCall(PetscFree(M->fold[1].ecol));
  PetscCall(PetscFree(M->fold[1].eval));
  PetscCall(PetscFree(M->fold[1].trow));
  PetscCall(PetscFree(M->fold[1].tcol));
  PetscCall(PetscFree(M->fold[1].tval));
  FOR_SIDES(s)
  {
    const PetscBool dev = c->S[s].device;
    PetscCall(TestFree(dev, M->r[s]));
    PetscCall(TestFree(dev, M->ub[s]));
    PetscCall(TestFree(dev, M->ux[s]));
    PetscCall(PetscFree(M->lev[s]));
  }
  PetscFunctionReturn(0);
}

/* the output of both sides: n level values at the world buffers d[0] and d[1] */
static PetscErrorCode CMGAgree(Ctx *c, CMGData *M, PetscInt member, const char *variant, PetscInt64 size, PetscInt n, void *d0, void *d1, const PetscReal *mag, const PetscReal *terms, PetscReal *o0, PetscReal *o1)
{
  PetscFunctionBegin;
  PetscCall(GetLevel(c, M, 0, n, d0, o0));
  PetscCall(GetLevel(c, M, 1, n, d1, o1));
  PetscCall(Agree(c, T_CMG, member, variant, size, n, o0, o1, mag, terms, M->eps));
  PetscFunctionReturn(0);
}

/* every level kernel on level k (and its next level) */
static PetscErrorCode CMGLevelCases(Ctx *c, CMGData *M, PetscInt k, const char *config)
{
  const GPUPCCMGDeviceLevel *HL   = &M->lev[1][k]; /* host copies: the magnitudes come from these */
  const PetscBool            last = (PetscBool)(k + 1 == M->nlevels);
  const PetscInt             n = HL->n, nc = last ? 0 : HL->nc, m = PetscMax(PetscMax(n, nc), 1);
  const GPUPCCMGPrecision    p = M->prec;
  PetscReal                 *b, *x, *xc, *r, *o0, *o1, *mag, *terms, *cmag, *cterms, *absx;
  char                       variant[160];

  PetscFunctionBegin;
  PetscCall(PetscMalloc7(m, &b, m, &x, m, &xc, m, &r, m, &o0, m, &o1, m, &mag));
  PetscCall(PetscMalloc4(m, &terms, m, &cmag, m, &cterms, m, &absx));
  PetscCall(RandomLevel(c, M, n, b));
  PetscCall(RandomLevel(c, M, n, x));
  PetscCall(RandomLevel(c, M, n, r));
  PetscCall(RandomLevel(c, M, nc, xc));
#define V(what) (PetscSNPrintf(variant, sizeof(variant), "%s, level %" PetscInt_FMT " of %" PetscInt_FMT " (n %" PetscInt_FMT ", nc %" PetscInt_FMT "), %s", what, k, M->nlevels, n, nc, GPUPCCMGPrecisions[p]), variant)
#define INVD(i) PetscAbsReal(Ld(p, HL->invd, i))
  /* jacobi: x = invd .* b */
  FOR_SIDES(s)
  {
    PetscCall(PutLevel(c, M, s, n, b, M->lev[s][k].b));
    PetscCall(PutLevel(c, M, s, n, r, M->lev[s][k].x)); /* overwritten */
    PetscCall(c->S[s].cmg->jacobi(&M->lev[s][k]));
  }
  for (PetscInt i = 0; i < n; i++) mag[i] = INVD(i) * PetscAbsReal(b[i]), terms[i] = 1;
  PetscCall(CMGAgree(c, M, GPUPC_CMG_KERNEL_jacobi, V(config), n, n, M->lev[0][k].x, M->lev[1][k].x, mag, terms, o0, o1));
  Covered(c, T_CMG, GPUPC_CMG_KERNEL_jacobi, n);
  /* smooth: w = x' + invd .* (b - A x'), x' = x, or x + xc[c(.)] with the prolongation fused in (x unchanged) */
  for (PetscInt fused = 0; fused < (last ? 1 : 2); fused++) {
    FOR_SIDES(s)
    {
      GPUPCCMGDeviceLevel *L = &M->lev[s][k];
      PetscCall(PutLevel(c, M, s, n, b, L->b));
      PetscCall(PutLevel(c, M, s, n, x, L->x));
      PetscCall(PutLevel(c, M, s, n, r, L->w)); /* overwritten */
      if (fused) PetscCall(PutLevel(c, M, s, nc, xc, M->lev[s][k + 1].x));
      PetscCall(c->S[s].cmg->smooth(L, L->x, fused ? M->lev[s][k + 1].x : NULL, L->w));
    }
    for (PetscInt j = 0; j < n; j++) absx[j] = PetscAbsReal(x[j]) + (fused ? PetscAbsReal(xc[HL->cluster[j]]) : 0.0);
    for (PetscInt i = 0; i < n; i++) {
      PetscReal rs = PetscAbsReal(b[i]);
      for (PetscInt e = HL->rowptr[i]; e < HL->rowptr[i + 1]; e++) rs += PetscAbsReal(Ld(p, HL->val, e)) * absx[HL->col[e]];
      mag[i]   = absx[i] + INVD(i) * rs;
      terms[i] = HL->rowptr[i + 1] - HL->rowptr[i] + 4;
    }
    PetscCall(CMGAgree(c, M, GPUPC_CMG_KERNEL_smooth, V(fused ? "prolongation fused in: w" : "w"), n, n, M->lev[0][k].w, M->lev[1][k].w, mag, terms, o0, o1));
    PetscCall(CMGAgree(c, M, GPUPC_CMG_KERNEL_smooth, V(fused ? "prolongation fused in: x unchanged" : "x unchanged"), n, n, M->lev[0][k].x, M->lev[1][k].x, NULL, NULL, o0, o1));
  }
  Covered(c, T_CMG, GPUPC_CMG_KERNEL_smooth, n);
  /* update: w = x + invd .* r */
  FOR_SIDES(s)
  {
    GPUPCCMGDeviceLevel *L = &M->lev[s][k];
    PetscCall(PutLevel(c, M, s, n, x, L->x));
    PetscCall(PutLevel(c, M, s, n, r, M->r[s]));
    PetscCall(PutLevel(c, M, s, n, b, L->w)); /* overwritten */
    PetscCall(c->S[s].cmg->update(L, M->r[s], L->x, L->w));
  }
  for (PetscInt i = 0; i < n; i++) mag[i] = PetscAbsReal(x[i]) + INVD(i) * PetscAbsReal(r[i]), terms[i] = 2;
  PetscCall(CMGAgree(c, M, GPUPC_CMG_KERNEL_update, V(config), n, n, M->lev[0][k].w, M->lev[1][k].w, mag, terms, o0, o1));
  Covered(c, T_CMG, GPUPC_CMG_KERNEL_update, n);
  if (!last) {
    const GPUPCCMGDeviceLevel *HC = &M->lev[1][k + 1];
    /* residual_restrict: bc = sums over clusters of b - A x, x = L->x or (first) invd .* b stored in L->x; with next
       also the next level's x = invd' .* bc */
    for (PetscInt v = 0; v < 4; v++) {
      const PetscBool first = (PetscBool)(v & 1), next = (PetscBool)(v >> 1);
      FOR_SIDES(s)
      {
        GPUPCCMGDeviceLevel     *L = &M->lev[s][k], *C = &M->lev[s][k + 1];
        const GPUPCCMGNextJacobi nj = {C->invd, C->x};
        PetscCall(PutLevel(c, M, s, n, b, L->b));
        PetscCall(PutLevel(c, M, s, n, x, L->x));
        PetscCall(PutLevel(c, M, s, nc, xc, C->b)); /* overwritten */
        PetscCall(PutLevel(c, M, s, nc, xc, C->x)); /* overwritten when next */
        PetscCall(c->S[s].cmg->residual_restrict(L, first, C->b, next ? &nj : NULL));
      }
      for (PetscInt j = 0; j < n; j++) absx[j] = first ? INVD(j) * PetscAbsReal(b[j]) : PetscAbsReal(x[j]);
      for (PetscInt C = 0; C < nc; C++) cmag[C] = 0.0, cterms[C] = 1;
      for (PetscInt i = 0; i < n; i++) {
        PetscReal rs = PetscAbsReal(b[i]);
        for (PetscInt e = HL->rowptr[i]; e < HL->rowptr[i + 1]; e++) rs += PetscAbsReal(Ld(p, HL->val, e)) * absx[HL->col[e]];
        cmag[HL->cluster[i]] += rs;
        cterms[HL->cluster[i]] += HL->rowptr[i + 1] - HL->rowptr[i] + 2; /* the first Jacobi step rounds x once more */
      }
      PetscCall(CMGAgree(c, M, GPUPC_CMG_KERNEL_residual_restrict, V(first ? (next ? "first, next: bc" : "first: bc") : (next ? "next: bc" : "bc")), n, nc, M->lev[0][k + 1].b, M->lev[1][k + 1].b, cmag, cterms, o0, o1));
      if (first) {
        for (PetscInt i = 0; i < n; i++) mag[i] = absx[i], terms[i] = 1;
        PetscCall(CMGAgree(c, M, GPUPC_CMG_KERNEL_residual_restrict, V(next ? "first, next: x" : "first: x"), n, n, M->lev[0][k].x, M->lev[1][k].x, mag, terms, o0, o1));
      }
      if (next) {
        for (PetscInt C = 0; C < nc; C++) mag[C] = PetscAbsReal(Ld(p, HC->invd, C)) * cmag[C], terms[C] = cterms[C] + 1;
        PetscCall(CMGAgree(c, M, GPUPC_CMG_KERNEL_residual_restrict, V(first ? "first, next: the next level's x" : "next: the next level's x"), n, nc, M->lev[0][k + 1].x, M->lev[1][k + 1].x, mag, terms, o0, o1));
      }
    }
    Covered(c, T_CMG, GPUPC_CMG_KERNEL_residual_restrict, n);
    /* cluster_sum: bc = sums over clusters of r; with next also the next level's x */
    for (PetscInt next = 0; next < 2; next++) {
      FOR_SIDES(s)
      {
        GPUPCCMGDeviceLevel     *L = &M->lev[s][k], *C = &M->lev[s][k + 1];
        const GPUPCCMGNextJacobi nj = {C->invd, C->x};
        PetscCall(PutLevel(c, M, s, n, r, M->r[s]));
        PetscCall(PutLevel(c, M, s, nc, xc, C->b)); /* overwritten */
        PetscCall(PutLevel(c, M, s, nc, xc, C->x)); /* overwritten when next */
        PetscCall(c->S[s].cmg->cluster_sum(L, M->r[s], C->b, next ? &nj : NULL));
      }
      for (PetscInt C = 0; C < nc; C++) cmag[C] = 0.0, cterms[C] = 1;
      for (PetscInt i = 0; i < n; i++) cmag[HL->cluster[i]] += PetscAbsReal(r[i]), cterms[HL->cluster[i]] += 1;
      PetscCall(CMGAgree(c, M, GPUPC_CMG_KERNEL_cluster_sum, V(next ? "next: bc" : "bc"), n, nc, M->lev[0][k + 1].b, M->lev[1][k + 1].b, cmag, cterms, o0, o1));
      if (next) {
        for (PetscInt C = 0; C < nc; C++) mag[C] = PetscAbsReal(Ld(p, HC->invd, C)) * cmag[C], terms[C] = cterms[C] + 1;
        PetscCall(CMGAgree(c, M, GPUPC_CMG_KERNEL_cluster_sum, V("next: the next level's x"), n, nc, M->lev[0][k + 1].x, M->lev[1][k + 1].x, mag, terms, o0, o1));
      }
    }
    Covered(c, T_CMG, GPUPC_CMG_KERNEL_cluster_sum, n);
    /* prolong: x += xc[c(.)] */
    FOR_SIDES(s)
    {
      PetscCall(PutLevel(c, M, s, n, x, M->lev[s][k].x));
      PetscCall(PutLevel(c, M, s, nc, xc, M->lev[s][k + 1].x));
      PetscCall(c->S[s].cmg->prolong(&M->lev[s][k], M->lev[s][k + 1].x));
    }
    for (PetscInt i = 0; i < n; i++) mag[i] = PetscAbsReal(x[i]) + PetscAbsReal(xc[HL->cluster[i]]), terms[i] = 1;
    PetscCall(CMGAgree(c, M, GPUPC_CMG_KERNEL_prolong, V(config), n, n, M->lev[0][k].x, M->lev[1][k].x, mag, terms, o0, o1));
    Covered(c, T_CMG, GPUPC_CMG_KERNEL_prolong, n);
  } else if (HL->direct) {
    /* dense_solve: x = dense b */
    FOR_SIDES(s)
    {
      PetscCall(PutLevel(c, M, s, n, b, M->lev[s][k].b));
      PetscCall(PutLevel(c, M, s, n, r, M->lev[s][k].x)); /* overwritten */
      PetscCall(c->S[s].cmg->dense_solve(&M->lev[s][k]));
    }
    for (PetscInt i = 0; i < n; i++) {
      mag[i]   = 0.0;
      terms[i] = n;
      for (PetscInt j = 0; j < n; j++) mag[i] += PetscAbsReal(Ld(p, HL->dense, (PetscInt)((size_t)i * n + j)) * b[j]);
    }
    PetscCall(CMGAgree(c, M, GPUPC_CMG_KERNEL_dense_solve, V(config), n, n, M->lev[0][k].x, M->lev[1][k].x, mag, terms, o0, o1));
    Covered(c, T_CMG, GPUPC_CMG_KERNEL_dense_solve, n);
  }
#undef V
#undef INVD
  PetscCall(PetscFree7(b, x, xc, r, o0, o1, mag));
  PetscCall(PetscFree4(terms, cmag, cterms, absx));
  PetscFunctionReturn(0);
}

/* expand (without and with the first Jacobi iterate of level 0) and fold, plain and transposed */
static PetscErrorCode CMGFoldCases(Ctx *c, CMGData *M, const char *config)
{
  const GPUPCCMGDeviceFold  *F  = &M->fold[1];
  const GPUPCCMGDeviceLevel *H0 = &M->lev[1][0];
  const GPUPCCMGPrecision    p  = M->prec;
  const PetscInt             n = F->n, nk = F->nk, n0 = F->n0, mm = PetscMax(PetscMax(n, n0), 1);
  PetscReal                 *b, *x0, *o0, *o1, *mag, *terms, *rmag, *rterms;
  char                       variant[160];

  PetscFunctionBegin;
  PetscCheck(n0 == M->lev[1][0].n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "fold n0 %" PetscInt_FMT " but level 0 has %" PetscInt_FMT, n0, M->lev[1][0].n);
  PetscCall(PetscMalloc6(mm, &b, mm, &x0, mm, &o0, mm, &o1, mm, &mag, mm, &terms));
  PetscCall(PetscMalloc2(mm, &rmag, mm, &rterms));
  PetscCall(Random(c, n, b));
  /* the magnitudes of the expanded rows b'_i (plain: with the Dirichlet couplings E) */
  for (PetscInt tr = 0; tr < 2; tr++) {
    for (PetscInt i = 0; i < n; i++) {
      rmag[i]   = PetscAbsReal(b[i]);
      rterms[i] = 1;
      if (F->erow && !tr)
        for (PetscInt e = F->erow[i]; e < F->erow[i + 1]; e++) rmag[i] += PetscAbsReal(F->eval[e] * F->dinv[F->ecol[e]] * b[F->ecol[e]]), rterms[i] += 2;
    }
    for (PetscInt i = 0; i < n0; i++) mag[i] = 0.0, terms[i] = 1;
    {
      PetscReal gmag = 0.0, gterms = 1;
      for (PetscInt i = 0; i < n; i++) {
        const PetscInt mi = F->map ? F->map[i] : i;
        if (mi < 0) continue;
        mag[mi]   = rmag[i];
        terms[mi] = rterms[i];
        if (F->copies == 2) mag[nk + mi] = rmag[i], terms[nk + mi] = rterms[i];
        gmag += rmag[i];
        gterms += rterms[i] + 1;
      }
      if (F->ground) mag[F->copies * nk] = F->copies == 1 ? gmag : 0.0, terms[F->copies * nk] = gterms;
    }
    for (PetscInt first = 0; first < 2; first++) {
      PetscCall(PetscSNPrintf(variant, sizeof(variant), "%s%s, %s, n %" PetscInt_FMT ", n0 %" PetscInt_FMT ", copies %" PetscInt_FMT ", %s", tr ? "transpose" : "plain", first ? ", first Jacobi iterate" : "", config, n, n0, F->copies, GPUPCCMGPrecisions[p]));
      FOR_SIDES(s)
      {
        GPUPCCMGDeviceFold   Fs = M->fold[s];
        GPUPCCMGDeviceLevel *L  = &M->lev[s][0];
        Fs.first.invd           = first ? L->invd : NULL;
        Fs.first.x              = first ? L->x : NULL;
        PetscCall(TestPut(c->S[s].device, M->ub[s], b, n * sizeof(PetscScalar)));
        PetscCall(RandomLevel(c, M, n0, x0));
        PetscCall(PutLevel(c, M, s, n0, x0, L->b)); /* overwritten */
        PetscCall(PutLevel(c, M, s, n0, x0, L->x)); /* overwritten when first */
        PetscCall(c->S[s].cmg->expand(&Fs, (PetscBool)tr, M->ub[s], L->b));
      }
      PetscCall(CMGAgree(c, M, GPUPC_CMG_KERNEL_expand, variant, n0, n0, M->lev[0][0].b, M->lev[1][0].b, mag, terms, o0, o1));
      if (first) {
        PetscReal *xm, *xt;
        PetscCall(PetscMalloc2(mm, &xm, mm, &xt));
        for (PetscInt i = 0; i < n0; i++) xm[i] = PetscAbsReal(Ld(p, H0->invd, i)) * mag[i], xt[i] = terms[i] + 1;
        PetscCall(CMGAgree(c, M, GPUPC_CMG_KERNEL_expand, variant, n0, n0, M->lev[0][0].x, M->lev[1][0].x, xm, xt, o0, o1));
        PetscCall(PetscFree2(xm, xt));
      }
    }
    /* fold */
    PetscCall(RandomLevel(c, M, n0, x0));
    FOR_SIDES(s)
    {
      PetscCall(TestPut(c->S[s].device, M->ub[s], b, n * sizeof(PetscScalar)));
      PetscCall(PutLevel(c, M, s, n0, x0, M->lev[s][0].x));
      PetscCall(c->S[s].cmg->fold(&M->fold[s], (PetscBool)tr, M->ub[s], M->lev[s][0].x, M->ux[s]));
    }
    {
      const PetscReal xg = F->ground ? PetscAbsReal(x0[F->copies * nk]) : 0.0;
      for (PetscInt i = 0; i < n; i++) { /* kept rows first: the Dirichlet rows read them */
        const PetscInt mi = F->map ? F->map[i] : i;
        if (mi < 0) continue;
        rmag[i]   = PetscAbsReal(x0[mi]) + xg + (F->copies == 2 ? PetscAbsReal(x0[nk + mi]) + xg : 0.0);
        rterms[i] = 4;
      }
      for (PetscInt i = 0; i < n; i++) {
        PetscReal s = PetscAbsReal(b[i]), t = 2;
        if (!F->map || F->map[i] >= 0) continue;
        if (F->trow && tr)
          for (PetscInt e = F->trow[i]; e < F->trow[i + 1]; e++) s += PetscAbsReal(F->tval[e]) * rmag[F->tcol[e]], t += rterms[F->tcol[e]] + 2;
        rmag[i]   = PetscAbsReal(F->dinv[i]) * s;
        rterms[i] = t;
      }
    }
    FOR_SIDES(s)
    PetscCall(TestGet(c->S[s].device, s ? o1 : o0, M->ux[s], n * sizeof(PetscScalar)));
    PetscCall(PetscSNPrintf(variant, sizeof(variant), "%s, %s, n %" PetscInt_FMT ", n0 %" PetscInt_FMT ", copies %" PetscInt_FMT ", %s", tr ? "transpose" : "plain", config, n, n0, F->copies, GPUPCCMGPrecisions[p]));
    PetscCall(Agree(c, T_CMG, GPUPC_CMG_KERNEL_fold, variant, n, n, o0, o1, rmag, rterms, M->eps));
  }
  Covered(c, T_CMG, GPUPC_CMG_KERNEL_expand, n0);
  Covered(c, T_CMG, GPUPC_CMG_KERNEL_fold, n);
  PetscCall(PetscFree6(b, x0, o0, o1, mag, terms));
  PetscCall(PetscFree2(rmag, rterms));
  PetscFunctionReturn(0);
}

/* every cmg kernel on an empty level and an empty fold (n = 0): nothing to compare, but nothing may be read or written
   (all pointers are NULL) */
static PetscErrorCode CMGEmptyCases(Ctx *c)
{
  GPUPCCMGDeviceLevel E;
  GPUPCCMGDeviceFold  F;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&E, sizeof(E)));
  PetscCall(PetscMemzero(&F, sizeof(F)));
  E.prec   = GPUPC_CMG_PRECISION_DOUBLE;
  E.lanes  = 2;
  E.direct = PETSC_TRUE;
  F.prec   = GPUPC_CMG_PRECISION_DOUBLE;
  F.copies = 1;
  FOR_SIDES(s)
  {
    const GPUPCCMGKernels *K = c->S[s].cmg;
    PetscCall(K->expand(&F, PETSC_FALSE, NULL, NULL));
    PetscCall(K->fold(&F, PETSC_TRUE, NULL, NULL, NULL));
    PetscCall(K->jacobi(&E));
    PetscCall(K->smooth(&E, NULL, NULL, NULL));
    PetscCall(K->residual_restrict(&E, PETSC_TRUE, NULL, NULL));
    PetscCall(K->prolong(&E, NULL));
    PetscCall(K->dense_solve(&E));
    PetscCall(K->update(&E, NULL, NULL, NULL));
    PetscCall(K->cluster_sum(&E, NULL, NULL, NULL));
    PetscCall(K->demote(0, NULL, NULL));
  }
  for (PetscInt k = 0; k < GPUPC_CMG_NKERNELS; k++) Covered(c, T_CMG, k, 0);
  PetscFunctionReturn(0);
}

/* demote: doubles rounded to float (the last level's inverse of a single-precision cmg), exactly as the C cast rounds;
   values across the float range, ties of the float grid, subnormal results and overflow to infinity included */
static PetscErrorCode CMGDemoteCases(Ctx *c, PetscInt64 n)
{
  PetscReal *x;
  float     *y[2];
  void      *dx[2], *dy[2];
  PetscReal *a, *b;

  PetscFunctionBegin;
  PetscCall(PetscMalloc5(n, &x, n, &y[0], n, &y[1], n, &a, n, &b));
  PetscCall(Random(c, (PetscInt)n, x));
  for (PetscInt64 i = 0; i < n; i++) {
    switch (i % 6) {
    case 1:
      x[i] *= 1e30; /* large */
      break;
    case 2:
      x[i] *= 1e-40; /* float subnormal */
      break;
    case 3:
      x[i] = (1.0 + ldexp(1.0, -24)) * (i % 12 == 3 ? -1.0 : 1.0); /* a tie of the float grid: rounds to even */
      break;
    case 4:
      x[i] = i % 12 == 4 ? 1e39 : -1e-50; /* beyond the float range; below its smallest subnormal */
      break;
    default:
      break;
    }
  }
  FOR_SIDES(s)
  {
    PetscCall(TestDup(c->S[s].device, x, (size_t)n * sizeof(PetscReal), &dx[s]));
    PetscCall(TestMalloc(c->S[s].device, (size_t)n * sizeof(float), &dy[s]));
    PetscCall(c->S[s].cmg->demote(n, (const PetscReal *)dx[s], (float *)dy[s]));
    PetscCall(TestGet(c->S[s].device, y[s], dy[s], (size_t)n * sizeof(float)));
  }
  for (PetscInt64 i = 0; i < n; i++) {
    a[i] = y[0][i];
    b[i] = y[1][i];
    if (PetscIsInfReal(a[i]) && a[i] == b[i]) a[i] = b[i] = 0.0; /* the same infinity: Agree rejects differences only */
  }
  PetscCall(Agree(c, T_CMG, GPUPC_CMG_KERNEL_demote, "double to float", n, (PetscInt)n, a, b, NULL, NULL, 0.0));
  Covered(c, T_CMG, GPUPC_CMG_KERNEL_demote, n);
  FOR_SIDES(s)
  {
    PetscCall(TestFree(c->S[s].device, dx[s]));
    PetscCall(TestFree(c->S[s].device, dy[s]));
  }
  PetscCall(PetscFree5(x, y[0], y[1], a, b));
  PetscFunctionReturn(0);
}

typedef struct {
  const char    *name;
  CMGTestProblem p;
  const char    *options; /* PC options under the prefix <name>_ */
} CMGConfig;

static PetscErrorCode CMGConfigCases(Ctx *c, const CMGConfig *cfg)
{
  Mat                      A;
  PC                       pc;
  const GPUPCCMGHierarchy *H;
  CMGData                  M;
  char                     prefix[64], opts[512];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(prefix, sizeof(prefix), "%s_", cfg->name));
  PetscCall(PetscSNPrintf(opts, sizeof(opts), cfg->options, prefix, prefix, prefix, prefix));
  PetscCall(PetscOptionsInsertString(NULL, opts));
  PetscCall(CMGTestMatrix(&cfg->p, &A));
  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetOptionsPrefix(pc, prefix));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetType(pc, PCCMG));
  PetscCall(PCSetFromOptions(pc));
  PetscCall(PCSetUp(pc));
  PetscCall(PCCMGGetHierarchy_Private(pc, &H));
  PetscCall(CMGDataCreate(c, H, &((PC_CMG *)pc->data)->dev, &M));
  PetscCall(CMGFoldCases(c, &M, cfg->name));
  for (PetscInt k = 0; k < M.nlevels; k++) PetscCall(CMGLevelCases(c, &M, k, cfg->name));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "cmg %-14s %s, %" PetscInt_FMT " levels, n =", cfg->name, GPUPCCMGPrecisions[M.prec], M.nlevels));
  for (PetscInt k = 0; k < M.nlevels; k++) PetscCall(PetscPrintf(PETSC_COMM_SELF, " %" PetscInt_FMT, M.lev[1][k].n));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s\n", M.lev[1][M.nlevels - 1].direct ? " (dense last level)" : " (Jacobi last level)"));
  PetscCall(CMGDataDestroy(c, &M));
  PetscCall(PCDestroy(&pc));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(0);
}

/* ================================================================ tassl (the triangular solves of PC tasslilu)

   Its own block: the table under test (side 0, device world) against the host table (cuda backend) or the reference
   loops below (host backend, side 1, host world), on random triangular systems scheduled by GPUPCTasslAnalyze with
   several sub-graph sizes; its own coverage record, checked at the end of TasslCases. The references solve row by row
   in each sub-graph's position order (no time slots), so the tolerance covers a different summation order. */
#include <gpupc/tassl.h>

/* rows of sub-graph g in position order; row k's edges are those of g's slots with target k - subptr[g], bucketed by
   target first (cnt, list: work arrays of the sub-graph's size and edge count) */
static void TasslSubgraph_Ref(const GPUPCTasslDev *T, PetscInt g, const PetscScalar *b, PetscScalar *x, PetscScalar *xs, PetscInt *cnt, PetscInt *list)
{
  const PetscInt r0 = T->subptr[g], nr = T->subptr[g + 1] - r0, s0 = T->slotptr[g], s1 = T->slotptr[g + 1];
  const PetscInt e0 = T->edgeptr[s0], e1 = T->edgeptr[s1];

  for (PetscInt k = 0; k <= nr; k++) cnt[k] = 0;
  for (PetscInt e = e0; e < e1; e++) cnt[T->etgt[e] + 1]++;
  for (PetscInt k = 0; k < nr; k++) cnt[k + 1] += cnt[k];
  for (PetscInt sl = s0; sl < s1; sl++)
    for (PetscInt e = T->edgeptr[sl]; e < T->edgeptr[sl + 1]; e++) list[cnt[T->etgt[e]]++] = e;
  for (PetscInt k = nr; k > 0; k--) cnt[k] = cnt[k - 1];
  cnt[0] = 0;
  for (PetscInt k = 0; k < nr; k++) {
    PetscScalar s = T->dinv[r0 + k] * b[T->bidx[r0 + k]];
    for (PetscInt q = cnt[k]; q < cnt[k + 1]; q++) {
      const PetscInt  e   = list[q];
      const PetscBool ext = (PetscBool)(e < T->edgeptr[s0 + T->next[g]]);
      s -= T->eval[e] * (ext ? x[T->esrc[e]] : xs[T->esrc[e]]);
    }
    xs[k] = s;
  }
  for (PetscInt k = 0; k < nr; k++) x[T->xidx[r0 + k]] = xs[k];
}
static PetscErrorCode Subgraphs_Ref(const GPUPCTasslDev *T, const PetscScalar *b, PetscScalar *x)
{
  PetscScalar *xs;
  PetscInt    *cnt, *list;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(T->nmax + 1, &xs, T->nmax + 2, &cnt, T->nedges + 1, &list));
  for (PetscInt g = 0; g < T->nsub; g++) TasslSubgraph_Ref(T, g, b, x, xs, cnt, list);
  PetscCall(PetscFree3(xs, cnt, list));
  PetscFunctionReturn(0);
}
static PetscErrorCode OneLaunch_Ref(const GPUPCTasslDev *T, int epoch, const PetscScalar *b, PetscScalar *x)
{
  PetscFunctionBegin;
  PetscCall(Subgraphs_Ref(T, b, x));
  for (PetscInt g = 0; g < T->nsub; g++) T->ready[g] = epoch;
  PetscFunctionReturn(0);
}
static PetscErrorCode LevelSet_Ref(const GPUPCTasslDev *T, const PetscScalar *b, PetscScalar *x)
{
  for (PetscInt k = 0; k < T->n; k++) {
    PetscScalar s = T->lsdinv[k] * b[T->lsbidx[k]];
    for (PetscInt q = T->lsrp[k]; q < T->lsrp[k + 1]; q++) s -= T->lsval[q] * x[T->lscol[q]];
    x[T->lsxidx[k]] = s;
  }
  return 0;
}
GPUPC_KERNEL_TABLE_DEFINE(GPUPCTasslKernels, RefTasslKernels, GPUPC_TASSL_KERNEL_LIST, "reference", _Ref);

/* a host-world copy of a device solve */
static PetscErrorCode TasslDevToHost(const GPUPCTasslDev *D, GPUPCTasslDev *H)
{
  const PetscInt n = D->n, ns = D->nsub, ne = D->nedges, nnz = n ? 0 : 0;
  PetscInt       lsnnz = 0, ndep = 0;

  PetscFunctionBegin;
  (void)nnz;
  *H = *D;
  if (n) PetscCall(TestGet(PETSC_TRUE, &lsnnz, D->lsrp + n, sizeof(PetscInt)));
  if (ns) PetscCall(TestGet(PETSC_TRUE, &ndep, D->depptr + ns, sizeof(PetscInt)));
#define TASSL_COPY(f, cnt)                                                   \
  do {                                                                       \
    void *h_ = NULL;                                                         \
    PetscCall(TestMalloc(PETSC_FALSE, (size_t)(cnt) * sizeof(*D->f), &h_));  \
    PetscCall(TestGet(PETSC_TRUE, h_, D->f, (size_t)(cnt) * sizeof(*D->f))); \
    H->f = (__typeof__(H->f))h_;                                             \
  } while (0)
  TASSL_COPY(subptr, ns ? ns + 1 : 0);
  TASSL_COPY(bidx, n);
  TASSL_COPY(xidx, n);
  TASSL_COPY(dinv, n);
  TASSL_COPY(slotptr, ns ? ns + 1 : 0);
  TASSL_COPY(next, ns);
  TASSL_COPY(edgeptr, ns ? D->nslots + 1 : 0);
  TASSL_COPY(etgt, ne);
  TASSL_COPY(esrc, ne);
  TASSL_COPY(eval, ne);
  TASSL_COPY(depptr, ns ? ns + 1 : 0);
  TASSL_COPY(dep, ndep);
  TASSL_COPY(ready, ns);
  TASSL_COPY(ticket, 1);
  TASSL_COPY(lsbidx, n);
  TASSL_COPY(lsxidx, n);
  TASSL_COPY(lsdinv, n);
  TASSL_COPY(lsrp, n ? n + 1 : 0);
  TASSL_COPY(lscol, lsnnz);
  TASSL_COPY(lsval, lsnnz);
#undef TASSL_COPY
  PetscFunctionReturn(0);
}

static PetscErrorCode TasslHostFree(GPUPCTasslDev *H)
{
  void *p[] = {H->subptr, H->bidx, H->xidx, H->dinv, H->slotptr, H->next, H->edgeptr, H->etgt, H->esrc, H->eval, H->depptr, H->dep, H->ready, H->ticket, H->lsbidx, H->lsxidx, H->lsdinv, H->lsrp, H->lscol, H->lsval};

  PetscFunctionBegin;
  for (size_t k = 0; k < sizeof(p) / sizeof(p[0]); k++) PetscCall(TestFree(PETSC_FALSE, p[k]));
  PetscFunctionReturn(0);
}

/* random triangular system: row i (topological index) needs up to 4 earlier rows, near (a grid-like band) or far */
static PetscErrorCode TasslRandomTri(Ctx *c, PetscInt n, PetscBool forward, GPUPCTri *T, PetscScalar **aa)
{
  PetscInt nnz = 0;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(T, sizeof(*T)));
  T->n       = n;
  T->forward = forward;
  T->kind    = forward ? GPUPC_TRI_L : GPUPC_TRI_U;
  PetscCall(PetscMalloc1(n + 1, &T->ptr));
  PetscCall(PetscMalloc2(4 * n + 1, &T->col, 4 * n + 1, &T->fidx));
  PetscCall(PetscMalloc1(n + 1, &T->didx));
  T->ptr[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    const PetscInt t = forward ? i : n - 1 - i;
    PetscInt       tmp[4], k = 0;
    for (PetscInt j = 0; j < 4 && t > 0; j++) {
      PetscReal r, r2;
      PetscCall(PetscRandomGetValueReal(c->rnd, &r));
      PetscCall(PetscRandomGetValueReal(c->rnd, &r2));
      if (r < -0.4) continue;
      tmp[k++] = t - PetscMin(t, 1 + (PetscInt)(0.5 * (r2 + 1.0) * (j < 2 ? 2 : 300)));
    }
    PetscCall(PetscSortRemoveDupsInt(&k, tmp));
    for (PetscInt j = 0; j < k; j++) {
      T->col[nnz]  = forward ? tmp[j] : n - 1 - tmp[j];
      T->fidx[nnz] = nnz;
      nnz++;
    }
    T->ptr[i + 1] = nnz;
  }
  PetscCall(PetscMalloc1(nnz + n + 1, aa));
  for (PetscInt q = 0; q < nnz; q++) PetscCall(PetscRandomGetValueReal(c->rnd, &(*aa)[q]));
  for (PetscInt i = 0; i < n; i++) {
    PetscReal r;
    PetscCall(PetscRandomGetValueReal(c->rnd, &r));
    T->didx[i]     = nnz + i;
    (*aa)[nnz + i] = (r < 0 ? -2.0 : 2.0) + r;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode TasslCases(Ctx *c, PetscGPUPCBackend backend)
{
  const PetscInt           sizes[] = {0, 1, 31, 257, 4097, 100003};
  const PetscInt           nmaxs[] = {1, 32, 700, 6144};
  const GPUPCTasslKernels *K[2];
  Coverage                 cov;

  PetscFunctionBegin;
  PetscCall(CoverageInit(&cov, "tassl", "GPUPC_TASSL_KERNEL_LIST", GPUPCTasslKernelNames, GPUPC_TASSL_NKERNELS, 0, 100000));
  PetscCall(GPUPCGetTasslKernelsFor(backend, &K[0]));
  if (backend == PETSC_GPUPC_BACKEND_CUDA) PetscCall(GPUPCGetTasslKernelsFor(PETSC_GPUPC_BACKEND_HOST, &K[1]));
  else K[1] = &RefTasslKernels;
  for (size_t zi = 0; zi < sizeof(sizes) / sizeof(sizes[0]); zi++)
    for (size_t mi = 0; mi < sizeof(nmaxs) / sizeof(nmaxs[0]); mi++)
      for (int fw = 0; fw < 2; fw++) {
        const PetscInt     n = sizes[zi], nmax = nmaxs[mi];
        GPUPCTri           T;
        GPUPCTasslSchedule S;
        GPUPCTasslDev      D[2];
        PetscInt          *hl, *hs, *bidx, *xidx;
        PetscScalar       *aa, *b, *x[2], *db[2], *dx[2];
        PetscReal         *mag, *terms, *o0, *o1;
        int                rd[2];

        if (n > 5000 && nmax < 32) continue;
        PetscCall(TasslRandomTri(c, n, (PetscBool)fw, &T, &aa));
        PetscCall(GPUPCTasslAnalyze(&T, nmax, &S));
        /* b is read through a reversal, x written through a rotation */
        PetscCall(PetscMalloc6(n + 1, &bidx, n + 1, &xidx, n + 1, &b, n + 1, &mag, n + 1, &terms, n + 1, &o0));
        PetscCall(PetscMalloc3(n + 1, &o1, n + 1, &x[0], n + 1, &x[1]));
        for (PetscInt i = 0; i < n; i++) {
          bidx[i] = n - 1 - i;
          xidx[i] = (i + 7) % n;
        }
        PetscCall(Random(c, n, b));
        PetscCall(GPUPCTasslDevCreate(&T, &S, aa, bidx, xidx, &D[0], &hl, &hs));
        PetscCall(TasslDevToHost(&D[0], &D[1]));
        /* magnitudes: |x| of a substitution with absolute values, terms: entries of the row + 1 */
        for (PetscInt t = 0; t < n; t++) {
          const PetscInt i = fw ? t : n - 1 - t;
          PetscReal      m = PetscAbsReal(b[bidx[i]]);
          for (PetscInt q = T.ptr[i]; q < T.ptr[i + 1]; q++) m += PetscAbsReal(aa[q]) * mag[xidx[T.col[q]]];
          mag[xidx[i]]   = m / PetscAbsReal(aa[T.didx[i]]);
          terms[xidx[i]] = 2 * (T.ptr[i + 1] - T.ptr[i]) + 2;
        }
        FOR_SIDES(s)
        {
          PetscCall(TestDup(c->S[s].device, b, n * sizeof(PetscScalar), (void **)&db[s]));
          PetscCall(TestMalloc(c->S[s].device, n * sizeof(PetscScalar), (void **)&dx[s]));
        }
        for (PetscInt m = 0; m < GPUPC_TASSL_NKERNELS; m++) {
          char variant[128];
          PetscCall(PetscSNPrintf(variant, sizeof(variant), "%s, nmax %" PetscInt_FMT ", %" PetscInt_FMT " sub-graphs in %" PetscInt_FMT " levels", fw ? "lower" : "upper", nmax, S.nsub, S.nlev));
          FOR_SIDES(s)
          {
            if (n) PetscCall(c->S[s].device ? GPUPCMemzero(dx[s], n * sizeof(PetscScalar)) : PetscArrayzero(dx[s], n));
            if (m == GPUPC_TASSL_KERNEL_subgraphs) PetscCall(K[s]->subgraphs(&D[s], db[s], dx[s]));
            else if (m == GPUPC_TASSL_KERNEL_onelaunch) PetscCall(K[s]->onelaunch(&D[s], 3, db[s], dx[s]));
            else PetscCall(K[s]->levelset(&D[s], db[s], dx[s]));
            PetscCall(TestGet(c->S[s].device, x[s], dx[s], n * sizeof(PetscScalar)));
          }
          for (PetscInt i = 0; i < n; i++) {
            o0[i] = x[0][i];
            o1[i] = x[1][i];
            PetscCheck(!(PetscAbsReal(o0[i] - o1[i]) > (terms[i] + 2.0) * 4 * DBL_EPSILON * mag[i] * (1 + S.nlev)), PETSC_COMM_SELF, PETSC_ERR_PLIB, "tassl table, member %s (%s), size %" PetscInt_FMT ", entry %" PetscInt_FMT ": %s %.17g, %s %.17g", GPUPCTasslKernelNames[m], variant, n, i, c->S[0].what, (double)o0[i], c->S[1].what, (double)o1[i]);
          }
          if (m == GPUPC_TASSL_KERNEL_onelaunch)
            for (PetscInt g = 0; g < S.nsub; g++) {
              FOR_SIDES(s)
              PetscCall(TestGet(c->S[s].device, &rd[s], D[s].ready + g, sizeof(int)));
              PetscCheck(rd[0] == 3 && rd[1] == 3, PETSC_COMM_SELF, PETSC_ERR_PLIB, "tassl onelaunch: ready flag of sub-graph %" PetscInt_FMT " is %d (%s) and %d (%s), not the epoch 3", g, rd[0], c->S[0].what, rd[1], c->S[1].what);
            }
          if (!cov.runs[m]++) cov.minsize[m] = cov.maxsize[m] = n;
          cov.minsize[m] = PetscMin(cov.minsize[m], n);
          cov.maxsize[m] = PetscMax(cov.maxsize[m], n);
        }
        FOR_SIDES(s)
        {
          PetscCall(TestFree(c->S[s].device, db[s]));
          PetscCall(TestFree(c->S[s].device, dx[s]));
        }
        PetscCall(TasslHostFree(&D[1]));
        PetscCall(GPUPCTasslDevDestroy(&D[0], &hl, &hs));
        PetscCall(PetscFree6(bidx, xidx, b, mag, terms, o0));
        PetscCall(PetscFree3(o1, x[0], x[1]));
        PetscCall(GPUPCTasslScheduleDestroy(&S));
        PetscCall(GPUPCTriDestroy(&T));
        PetscCall(PetscFree(aa));
      }
  PetscCall(CoverageCheck(&cov));
  PetscFunctionReturn(0);
}

/* ================================================================ gpubjacobi (gpupc/gpubjacobikernels.h)

   Self-contained: its own sides (the active backend's table on device buffers against the host table, or against the
   reference loops below) and its own coverage record; main runs it with PBJCases(). Every block size 1..32, on row
   counts around the CUDA thread blocks' whole-block boundaries, with a partial last block wherever bs does not divide
   n; the outputs start as NaN, so a row that a kernel does not write fails. */
#include <gpupc/gpubjacobikernels.h>

/* y_r = sum_j (B_k^-1)(i, j) x_{k bs + j} over the m rows of r's block, (B_k^-1)(i, j) = inv[j ld + r] */
static PetscErrorCode Apply_Ref(const GPUPCPBJBlocks *D, const PetscScalar *x, PetscScalar *y)
{
  for (PetscInt r = 0; r < D->n; r++) {
    const PetscInt k0 = (r / D->bs) * D->bs, m = PetscMin(D->bs, D->n - k0);
    PetscScalar    s = 0.0;
    for (PetscInt j = 0; j < m; j++) s += D->inv[(size_t)j * D->ld + r] * x[k0 + j];
    y[r] = s;
  }
  return 0;
}

/* y_r = sum_j (B_k^-1)(j, i) x_{k bs + j}, (B_k^-1)(j, i) = inv[i ld + k bs + j] */
static PetscErrorCode ApplyTranspose_Ref(const GPUPCPBJBlocks *D, const PetscScalar *x, PetscScalar *y)
{
  for (PetscInt r = 0; r < D->n; r++) {
    const PetscInt k0 = (r / D->bs) * D->bs, m = PetscMin(D->bs, D->n - k0), i = r - k0;
    PetscScalar    s = 0.0;
    for (PetscInt j = 0; j < m; j++) s += D->inv[(size_t)i * D->ld + k0 + j] * x[k0 + j];
    y[r] = s;
  }
  return 0;
}

GPUPC_KERNEL_TABLE_DEFINE(GPUPCPBJKernels, RefPBJKernels, GPUPC_PBJ_KERNEL_LIST, "reference", _Ref);

typedef struct {
  Ctx                   *c;
  const GPUPCPBJKernels *K[2];
  Coverage               cv;
} PBJCtx;

/* one member on n rows of blocks of bs: both sides from the same random inverses and x, compared to rounding */
static PetscErrorCode PBJCase(PBJCtx *P, PetscInt n, PetscInt bs)
{
  Ctx           *c  = P->c;
  const PetscInt ld = ((n + 31) / 32) * 32;
  PetscScalar   *inv, *x, *nanv, *out[2];
  PetscReal     *mag, *terms;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1((size_t)ld * bs + 1, &inv));
  PetscCall(PetscMalloc6(n + 1, &x, n + 1, &nanv, n + 1, &out[0], n + 1, &out[1], n + 1, &mag, n + 1, &terms));
  /* the layout's stored entries: row r's j < m (its block's rows); zeros elsewhere (rows n .. ld-1, a partial block) */
  for (PetscInt j = 0; j < bs; j++)
    for (PetscInt r = 0; r < n; r++)
      if (j < PetscMin(bs, n - (r / bs) * bs)) PetscCall(PetscRandomGetValueReal(c->rnd, &inv[(size_t)j * ld + r]));
  PetscCall(Random(c, n, x));
  for (PetscInt r = 0; r < n; r++) nanv[r] = PETSC_MAX_REAL * 10.0 - PETSC_MAX_REAL * 10.0;
  for (PetscInt member = 0; member < GPUPC_PBJ_NKERNELS; member++) {
    const PetscBool tr = (PetscBool)(member == GPUPC_PBJ_KERNEL_apply_transpose);
    FOR_SIDES(s)
    {
      const PetscBool dev = c->S[s].device;
      GPUPCPBJBlocks  D   = {n, bs, ld, NULL};
      PetscScalar    *dx, *dy;
      PetscCall(TestDup(dev, inv, (size_t)ld * bs * sizeof(PetscScalar), (void **)&D.inv));
      PetscCall(TestDup(dev, x, n * sizeof(PetscScalar), (void **)&dx));
      PetscCall(TestDup(dev, nanv, n * sizeof(PetscScalar), (void **)&dy));
      if (tr) PetscCall(P->K[s]->apply_transpose(&D, dx, dy));
      else PetscCall(P->K[s]->apply(&D, dx, dy));
      PetscCall(TestGet(dev, out[s], dy, n * sizeof(PetscScalar)));
      PetscCall(TestFree(dev, D.inv));
      PetscCall(TestFree(dev, dx));
      PetscCall(TestFree(dev, dy));
    }
    for (PetscInt r = 0; r < n; r++) {
      const PetscInt k0 = (r / bs) * bs, m = PetscMin(bs, n - k0), i = r - k0;
      mag[r]   = 0.0;
      terms[r] = m;
      for (PetscInt j = 0; j < m; j++) mag[r] += PetscAbsReal(inv[tr ? (size_t)i * ld + k0 + j : (size_t)j * ld + r] * x[k0 + j]);
    }
    for (PetscInt r = 0; r < n; r++) {
      const PetscReal allowed = (terms[r] + 2.0) * DBL_EPSILON * mag[r];
      const PetscBool ok      = (PetscBool)(!PetscIsNanReal(out[0][r]) && !PetscIsNanReal(out[1][r]) && PetscAbsReal(out[0][r] - out[1][r]) <= allowed);
      PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpubjacobi table, member %s, %" PetscInt_FMT " rows, block size %" PetscInt_FMT ", row %" PetscInt_FMT ": %s %.17g, %s %.17g (difference %g, allowed %g)", GPUPCPBJKernelNames[member], n, bs, r, c->S[0].what, (double)out[0][r], c->S[1].what, (double)out[1][r], (double)PetscAbsReal(out[0][r] - out[1][r]), (double)allowed);
    }
    if (!P->cv.runs[member]++) P->cv.minsize[member] = P->cv.maxsize[member] = n;
    P->cv.minsize[member] = PetscMin(P->cv.minsize[member], n);
    P->cv.maxsize[member] = PetscMax(P->cv.maxsize[member], n);
  }
  PetscCall(PetscFree(inv));
  PetscCall(PetscFree6(x, nanv, out[0], out[1], mag, terms));
  PetscFunctionReturn(0);
}

static PetscErrorCode PBJCases(Ctx *c, PetscGPUPCBackend backend)
{
  /* rows: none, one, around a warp, around the 256- and 128-thread blocks, several thread blocks */
  const PetscInt sizes[] = {0, 1, 2, 31, 33, 127, 129, 255, 257, 1000, 4097}, large = 100003, bslarge[] = {1, 3, 8, 17, 32};
  PBJCtx         P;

  PetscFunctionBegin;
  P.c = c;
  PetscCall(GPUPCGetPBJKernelsFor(backend, &P.K[0]));
  if (backend == PETSC_GPUPC_BACKEND_CUDA) PetscCall(GPUPCGetPBJKernelsFor(PETSC_GPUPC_BACKEND_HOST, &P.K[1]));
  else P.K[1] = &RefPBJKernels;
  FOR_SIDES(s)
  {
    PetscCheck(P.K[s]->apply && P.K[s]->apply_transpose, PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpubjacobi table %s lacks a member", P.K[s]->name);
  }
#if !defined(GPUPC_HAVE_CUDA)
  { /* a build without CUDA has no CUDA table: the getter refuses */
    const GPUPCPBJKernels *k = NULL;
    PetscErrorCode         e;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    e = GPUPCGetPBJKernelsFor(PETSC_GPUPC_BACKEND_CUDA, &k);
    PetscCall(PetscPopErrorHandler());
    PetscCheck(e == PETSC_ERR_SUP, PETSC_COMM_SELF, PETSC_ERR_PLIB, "a build without CUDA gave the gpubjacobi table for the cuda backend (error %d, expected PETSC_ERR_SUP)", (int)e);
  }
#endif
  PetscCall(CoverageInit(&P.cv, "gpubjacobi", "GPUPC_PBJ_KERNEL_LIST", GPUPCPBJKernelNames, GPUPC_PBJ_NKERNELS, 0, large));
  for (PetscInt bs = 1; bs <= GPUPC_PBJ_MAX_BS; bs++)
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) PetscCall(PBJCase(&P, sizes[i], bs));
  for (size_t i = 0; i < sizeof(bslarge) / sizeof(bslarge[0]); i++) PetscCall(PBJCase(&P, large, bslarge[i]));
  PetscCall(CoverageCheck(&P.cv));
  PetscFunctionReturn(0);
}

/* ================================================================ gpuamg (reference loops and cases) */

static PetscErrorCode AMGJacobi_Ref(PetscInt n, PetscBool zero, const PetscScalar *w, const PetscScalar *b, const PetscScalar *q, PetscScalar *x)
{
  for (PetscInt i = 0; i < n; i++) x[i] = zero ? w[i] * b[i] : x[i] + w[i] * (b[i] - q[i]);
  return 0;
}
static PetscErrorCode AMGChebyshev_Ref(PetscInt n, PetscBool zero, PetscScalar alpha, PetscScalar beta, const PetscScalar *w, const PetscScalar *b, const PetscScalar *q, PetscScalar *d, PetscScalar *x)
{
  for (PetscInt i = 0; i < n; i++) {
    if (zero) d[i] = beta * w[i] * b[i];
    else d[i] = (alpha == 0.0 ? 0.0 : alpha * d[i]) + beta * w[i] * (b[i] - q[i]); /* alpha 0: d is not read */
    x[i] = zero ? d[i] : x[i] + d[i];
  }
  return 0;
}
static PetscErrorCode AMGResidual_Ref(PetscInt n, const PetscScalar *b, PetscScalar *r)
{
  for (PetscInt i = 0; i < n; i++) r[i] = b[i] - r[i];
  return 0;
}
static PetscErrorCode AMGDenseMult_Ref(PetscInt m, PetscBool transpose, const PetscScalar *M, const PetscScalar *x, PetscScalar *y)
{
  for (PetscInt i = 0; i < m; i++) {
    PetscScalar s = 0.0;
    for (PetscInt j = 0; j < m; j++) s += (transpose ? M[(size_t)j * m + i] : M[(size_t)i * m + j]) * x[j];
    y[i] = s;
  }
  return 0;
}
static PetscErrorCode AMGGSColour_Ref(PetscInt nr, PetscInt lanes, const PetscInt *rows, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, const PetscScalar *dinv, const PetscScalar *b, PetscScalar *x)
{
  for (PetscInt k = 0; k < nr; k++) {
    PetscScalar s = b[rows[k]];
    for (PetscInt e = ai[rows[k]]; e < ai[rows[k] + 1]; e++) s -= aa[e] * x[aj[e]];
    x[rows[k]] += dinv[rows[k]] * s;
  }
  return 0;
}
/* plain sequential Gauss-Seidel over the colours' rows in the order the direction gives */
static PetscErrorCode AMGGSBlock_Ref(PetscInt c0, PetscInt c1, PetscInt dir, PetscInt lanes, const PetscInt *cptr, const PetscInt *rows, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, const PetscScalar *dinv, const PetscScalar *b, PetscScalar *x)
{
  for (PetscInt pass = 0; pass < 2; pass++) {
    if ((dir == 0 && pass == 1) || (dir == 1 && pass == 0)) continue;
    for (PetscInt t = 0; t < c1 - c0; t++) {
      const PetscInt c = pass == 0 ? c0 + t : c1 - 1 - t;
      AMGGSColour_Ref(cptr[c + 1] - cptr[c], lanes, rows + cptr[c], ai, aj, aa, dinv, b, x);
    }
  }
  return 0;
}
/* the specification's colouring written another way: rows in decreasing priority, each the smallest colour its
   neighbours (in A or A^T) do not hold (greedy); the rounds: a row's round is one more than the latest round of a
   neighbour before it (the longest chain of decreasing priority) */
static int RefPriorityCompare(const void *pa, const void *pb)
{
  const PetscInt a = *(const PetscInt *)pa, b = *(const PetscInt *)pb;
  return GPUPCAMGColourBefore(a, b) ? -1 : (GPUPCAMGColourBefore(b, a) ? 1 : 0);
}
static PetscErrorCode AMGColour_Ref(PetscInt n, const PetscInt *ai, const PetscInt *aj, const PetscInt *ti, const PetscInt *tj, PetscInt *colour, PetscInt *ncolours, PetscInt *rounds)
{
  PetscInt *order, *rnd, *mark;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(PetscMax(n, 1), &order, PetscMax(n, 1), &rnd, n + 1, &mark));
  for (PetscInt i = 0; i < n; i++) {
    order[i]  = i;
    colour[i] = -1;
    rnd[i]    = -1;
    mark[i]   = -1;
  }
  mark[n] = -1;
  qsort(order, (size_t)n, sizeof(PetscInt), RefPriorityCompare);
  *ncolours = *rounds = 0;
  for (PetscInt q = 0; q < n; q++) {
    const PetscInt i = order[q];
    PetscInt       c = 0, r = 0;
    for (PetscInt t = 0; t < 2; t++)
      for (PetscInt e = (t ? ti : ai)[i]; e < (t ? ti : ai)[i + 1]; e++) {
        const PetscInt j = (t ? tj : aj)[e];
        if (j != i && colour[j] >= 0) {
          mark[colour[j]] = i;
          r               = PetscMax(r, rnd[j] + 1);
        }
      }
    while (mark[c] == i) c++;
    colour[i] = c;
    rnd[i]    = r;
    *ncolours = PetscMax(*ncolours, c + 1);
    *rounds   = PetscMax(*rounds, r + 1);
  }
  PetscCall(PetscFree3(order, rnd, mark));
  PetscFunctionReturn(0);
}
static PetscErrorCode AMGScaling_Ref(PetscInt n, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, PetscScalar *dinv, PetscScalar *dl1, PetscReal *gersh, PetscInt *bad)
{
  *gersh = 0.0;
  bad[0] = bad[1] = -1;
  for (PetscInt i = 0; i < n; i++) {
    PetscScalar d = 0.0, l1 = 0.0;
    for (PetscInt e = ai[i]; e < ai[i + 1]; e++) {
      if (aj[e] == i) d += aa[e];
      else l1 += PetscAbsScalar(aa[e]);
    }
    if (d == 0.0 && bad[0] < 0) bad[0] = i;
    if ((PetscIsInfOrNanScalar(d) || PetscIsInfOrNanScalar(l1)) && bad[1] < 0) bad[1] = i;
    if (d == 0.0) d = 1.0;
    *gersh  = PetscMax(*gersh, 1.0 + PetscRealPart(l1) / PetscAbsScalar(d));
    dl1[i]  = 1.0 / (PetscAbsScalar(d) + l1);
    dinv[i] = 1.0 / d;
  }
  return 0;
}
static PetscErrorCode AMGRandom_Ref(PetscInt n, PetscInt seed, PetscInt first, PetscScalar *x)
{
  for (PetscInt i = 0; i < n; i++) x[i] = GPUPCAMGRandomSigned(seed, first + i);
  return 0;
}
GPUPC_KERNEL_TABLE_DEFINE(GPUPCAMGKernels, RefAMGKernels, GPUPC_AMG_KERNEL_LIST, "reference", _Ref);

/* the element-wise members on n entries: jacobi and chebyshev from a zero and a nonzero iterate (chebyshev also with
   alpha 0, where d holds NaN and must not be read), residual */
static PetscErrorCode AMGVecCases(Ctx *c, PetscInt n)
{
  const PetscInt m = PetscMax(n, 1);
  PetscScalar   *w, *b, *q, *x, *d, *nan, *outx[2], *outd[2], *dw[2], *db[2], *dq[2], *dx[2], *dd[2];
  PetscReal     *magx, *magd, *terms;

  PetscFunctionBegin;
  PetscCall(PetscMalloc6(m, &w, m, &b, m, &q, m, &x, m, &d, m, &nan));
  PetscCall(PetscMalloc4(m, &outx[0], m, &outx[1], m, &outd[0], m, &outd[1]));
  PetscCall(PetscMalloc3(m, &magx, m, &magd, m, &terms));
  PetscCall(Random(c, n, w));
  PetscCall(Random(c, n, b));
  PetscCall(Random(c, n, q));
  PetscCall(Random(c, n, x));
  PetscCall(Random(c, n, d));
  for (PetscInt i = 0; i < n; i++) nan[i] = NAN;
  FOR_SIDES(s)
  {
    const PetscBool dev = c->S[s].device;
    PetscCall(TestDup(dev, w, n * sizeof(PetscScalar), (void **)&dw[s]));
    PetscCall(TestDup(dev, b, n * sizeof(PetscScalar), (void **)&db[s]));
    PetscCall(TestDup(dev, q, n * sizeof(PetscScalar), (void **)&dq[s]));
    PetscCall(TestMalloc(dev, n * sizeof(PetscScalar), (void **)&dx[s]));
    PetscCall(TestMalloc(dev, n * sizeof(PetscScalar), (void **)&dd[s]));
  }
  for (PetscInt zero = 0; zero < 2; zero++) {
    /* jacobi: one rounded product and two additions per entry */
    FOR_SIDES(s)
    {
      const PetscBool dev = c->S[s].device;
      PetscCall(TestPut(dev, dx[s], zero ? nan : x, n * sizeof(PetscScalar)));
      PetscCall(c->S[s].amg->jacobi(n, (PetscBool)zero, dw[s], db[s], zero ? NULL : dq[s], dx[s]));
      PetscCall(TestGet(dev, outx[s], dx[s], n * sizeof(PetscScalar)));
    }
    for (PetscInt i = 0; i < n; i++) {
      magx[i]  = zero ? PetscAbsReal(w[i] * b[i]) : PetscAbsReal(x[i]) + PetscAbsReal(w[i]) * (PetscAbsReal(b[i]) + PetscAbsReal(q[i]));
      terms[i] = 3;
    }
    PetscCall(Agree(c, T_AMG, GPUPC_AMG_KERNEL_jacobi, zero ? "zero iterate" : "nonzero iterate", n, n, outx[0], outx[1], magx, terms, DBL_EPSILON));
    Covered(c, T_AMG, GPUPC_AMG_KERNEL_jacobi, n);
    /* chebyshev: zero iterate; nonzero with alpha 0 (d not read) and with alpha 0.7 */
    for (PetscInt variant = 0; variant < (zero ? 1 : 2); variant++) {
      const PetscScalar alpha = variant ? 0.7 : 0.0, beta = 1.3;
      FOR_SIDES(s)
      {
        const PetscBool dev = c->S[s].device;
        PetscCall(TestPut(dev, dx[s], zero ? nan : x, n * sizeof(PetscScalar)));
        PetscCall(TestPut(dev, dd[s], zero || alpha == 0.0 ? nan : d, n * sizeof(PetscScalar)));
        PetscCall(c->S[s].amg->chebyshev(n, (PetscBool)zero, alpha, beta, dw[s], db[s], zero ? NULL : dq[s], dd[s], dx[s]));
        PetscCall(TestGet(dev, outx[s], dx[s], n * sizeof(PetscScalar)));
        PetscCall(TestGet(dev, outd[s], dd[s], n * sizeof(PetscScalar)));
      }
      for (PetscInt i = 0; i < n; i++) {
        magd[i]  = zero ? PetscAbsReal(beta * w[i] * b[i]) : PetscAbsReal(alpha * d[i]) + PetscAbsReal(beta * w[i]) * (PetscAbsReal(b[i]) + PetscAbsReal(q[i]));
        magx[i]  = (zero ? 0.0 : PetscAbsReal(x[i])) + magd[i];
        terms[i] = 6;
      }
      PetscCall(Agree(c, T_AMG, GPUPC_AMG_KERNEL_chebyshev, zero ? "zero iterate: d" : (variant ? "alpha 0.7: d" : "alpha 0: d"), n, n, outd[0], outd[1], magd, terms, DBL_EPSILON));
      PetscCall(Agree(c, T_AMG, GPUPC_AMG_KERNEL_chebyshev, zero ? "zero iterate: x" : (variant ? "alpha 0.7: x" : "alpha 0: x"), n, n, outx[0], outx[1], magx, terms, DBL_EPSILON));
      Covered(c, T_AMG, GPUPC_AMG_KERNEL_chebyshev, n);
    }
  }
  /* residual: one rounded subtraction */
  FOR_SIDES(s)
  {
    const PetscBool dev = c->S[s].device;
    PetscCall(TestPut(dev, dx[s], x, n * sizeof(PetscScalar)));
    PetscCall(c->S[s].amg->residual(n, db[s], dx[s]));
    PetscCall(TestGet(dev, outx[s], dx[s], n * sizeof(PetscScalar)));
  }
  for (PetscInt i = 0; i < n; i++) {
    magx[i]  = PetscAbsReal(b[i]) + PetscAbsReal(x[i]);
    terms[i] = 2;
  }
  PetscCall(Agree(c, T_AMG, GPUPC_AMG_KERNEL_residual, "random", n, n, outx[0], outx[1], magx, terms, DBL_EPSILON));
  Covered(c, T_AMG, GPUPC_AMG_KERNEL_residual, n);
  /* random: the same hash on both sides, so equal; values in [-1, 1), their mean near 0, another seed or offset
     another vector (the Lanczos start vectors of different levels must differ) */
  for (PetscInt v = 0; v < 3; v++) {
    const PetscInt seed = v == 1 ? 8 : 7, first = v == 2 ? 1000 : 0;
    PetscReal      sum = 0.0;
    FOR_SIDES(s)
    {
      const PetscBool dev = c->S[s].device;
      PetscCall(TestPut(dev, dx[s], nan, n * sizeof(PetscScalar)));
      PetscCall(c->S[s].amg->random(n, seed, first, dx[s]));
      PetscCall(TestGet(dev, v ? outd[s] : outx[s], dx[s], n * sizeof(PetscScalar)));
    }
    for (PetscInt i = 0; i < n; i++) {
      const PetscScalar *o0 = v ? outd[0] : outx[0], *o1 = v ? outd[1] : outx[1];
      PetscCheck(o0[i] == o1[i], PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpuamg random: entry %" PetscInt_FMT " is %g and %g on the two tables", i, (double)o0[i], (double)o1[i]);
      PetscCheck(o0[i] >= -1.0 && o0[i] < 1.0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpuamg random: entry %" PetscInt_FMT " is %g, outside [-1, 1)", i, (double)o0[i]);
      sum += PetscRealPart(o0[i]);
    }
    PetscCheck(n < 1000 || PetscAbsReal(sum) < 0.1 * n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpuamg random: mean %g of %" PetscInt_FMT " entries is far from 0", (double)(sum / n), n);
    if (v && n > 16) {
      PetscInt same = 0;
      for (PetscInt i = 0; i < n; i++) same += outd[0][i] == outx[0][i];
      PetscCheck(same < n / 2, PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpuamg random: %s gives the same vector", v == 1 ? "another seed" : "another offset");
    }
  }
  Covered(c, T_AMG, GPUPC_AMG_KERNEL_random, n);
  FOR_SIDES(s)
  {
    const PetscBool dev = c->S[s].device;
    PetscCall(TestFree(dev, dw[s]));
    PetscCall(TestFree(dev, db[s]));
    PetscCall(TestFree(dev, dq[s]));
    PetscCall(TestFree(dev, dx[s]));
    PetscCall(TestFree(dev, dd[s]));
  }
  PetscCall(PetscFree6(w, b, q, x, d, nan));
  PetscCall(PetscFree4(outx[0], outx[1], outd[0], outd[1]));
  PetscCall(PetscFree3(magx, magd, terms));
  PetscFunctionReturn(0);
}

/* gs_colour on n rows coupled at distances 0, 1 and 3 (odd: the even rows, one colour, are not coupled among
   themselves), the even rows swept; scaling on the same rows, with a zero diagonal in row n/2 */
static PetscErrorCode AMGGSCases(Ctx *c, PetscInt n)
{
  const PetscInt off[5] = {-3, -1, 0, 1, 3}, m = PetscMax(n, 1);
  PetscInt      *ai, *aj, *rows, nnz = 0, nr = 0, *dai[2], *daj[2], *drows[2];
  PetscScalar   *aa, *dinv, *b, *x, *out[2], *daa[2], *ddinv[2], *db[2], *dx[2];
  PetscReal     *mag, *terms;

  PetscFunctionBegin;
  PetscCall(PetscMalloc4(m + 1, &ai, 5 * m, &aj, 5 * m, &aa, m, &rows));
  PetscCall(PetscMalloc6(m, &dinv, m, &b, m, &x, m, &out[0], m, &out[1], m, &mag));
  PetscCall(PetscMalloc1(m, &terms));
  PetscCall(Random(c, 5 * m, aa));
  PetscCall(Random(c, n, dinv));
  PetscCall(Random(c, n, b));
  PetscCall(Random(c, n, x));
  ai[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    for (PetscInt k = 0; k < 5; k++)
      if (i + off[k] >= 0 && i + off[k] < n) aj[nnz++] = i + off[k];
    ai[i + 1] = nnz;
    if (i % 2 == 0) rows[nr++] = i;
  }
  FOR_SIDES(s)
  {
    const PetscBool dev = c->S[s].device;
    PetscCall(TestDup(dev, ai, (n + 1) * sizeof(PetscInt), (void **)&dai[s]));
    PetscCall(TestDup(dev, aj, nnz * sizeof(PetscInt), (void **)&daj[s]));
    PetscCall(TestDup(dev, aa, nnz * sizeof(PetscScalar), (void **)&daa[s]));
    PetscCall(TestDup(dev, rows, nr * sizeof(PetscInt), (void **)&drows[s]));
    PetscCall(TestDup(dev, dinv, n * sizeof(PetscScalar), (void **)&ddinv[s]));
    PetscCall(TestDup(dev, b, n * sizeof(PetscScalar), (void **)&db[s]));
    PetscCall(TestDup(dev, x, n * sizeof(PetscScalar), (void **)&dx[s]));
  }
  for (PetscInt i = 0; i < n; i++) {
    PetscReal r = PetscAbsReal(b[i]);
    for (PetscInt e = ai[i]; e < ai[i + 1]; e++) r += PetscAbsReal(aa[e] * x[aj[e]]);
    mag[i]   = PetscAbsReal(x[i]) + PetscAbsReal(dinv[i]) * r;
    terms[i] = ai[i + 1] - ai[i] + 3;
  }
  for (PetscInt lanes = 1; lanes <= 32; lanes *= 2) { /* a thread per row, then groups of 2 .. 32 lanes (rows shorter than the group) */
    FOR_SIDES(s)
    {
      PetscCall(TestPut(c->S[s].device, dx[s], x, n * sizeof(PetscScalar)));
      PetscCall(c->S[s].amg->gs_colour(nr, lanes, drows[s], dai[s], daj[s], daa[s], ddinv[s], db[s], dx[s]));
      PetscCall(TestGet(c->S[s].device, out[s], dx[s], n * sizeof(PetscScalar)));
    }
    PetscCall(Agree(c, T_AMG, GPUPC_AMG_KERNEL_gs_colour, "even rows of a distance-1,3 pattern", nnz, n, out[0], out[1], mag, terms, DBL_EPSILON));
  }
  Covered(c, T_AMG, GPUPC_AMG_KERNEL_gs_colour, nnz);
  { /* scaling: the same operations per row on both sides, so equal up to rounding; the bound and the bad rows exactly */
    PetscReal gersh[2];
    PetscInt  bad[2][2], z = -1;
    for (PetscInt e = n > 0 ? ai[n / 2] : 0; e < (n > 0 ? ai[n / 2 + 1] : 0); e++)
      if (aj[e] == n / 2) z = e;
    if (z >= 0) aa[z] = 0.0;
    FOR_SIDES(s)
    {
      const PetscBool dev = c->S[s].device;
      if (z >= 0) PetscCall(TestPut(dev, daa[s], aa, nnz * sizeof(PetscScalar)));
      PetscCall(c->S[s].amg->scaling(n, dai[s], daj[s], daa[s], ddinv[s], dx[s], &gersh[s], bad[s]));
      PetscCall(TestGet(dev, out[s], ddinv[s], n * sizeof(PetscScalar)));
    }
    for (PetscInt i = 0; i < n; i++) {
      mag[i]   = PetscAbsReal(out[0][i]);
      terms[i] = 2;
    }
    PetscCall(Agree(c, T_AMG, GPUPC_AMG_KERNEL_scaling, "dinv, a zero diagonal", n, n, out[0], out[1], mag, terms, DBL_EPSILON));
    FOR_SIDES(s)
    PetscCall(TestGet(c->S[s].device, out[s], dx[s], n * sizeof(PetscScalar)));
    for (PetscInt i = 0; i < n; i++) {
      mag[i]   = PetscAbsReal(out[0][i]);
      terms[i] = ai[i + 1] - ai[i] + 1;
    }
    PetscCall(Agree(c, T_AMG, GPUPC_AMG_KERNEL_scaling, "dl1, a zero diagonal", n, n, out[0], out[1], mag, terms, DBL_EPSILON));
    PetscCheck(PetscAbsReal(gersh[0] - gersh[1]) <= 8 * DBL_EPSILON * gersh[0], PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpuamg scaling: Gershgorin bound %.17g on one side, %.17g on the other", (double)gersh[0], (double)gersh[1]);
    PetscCheck(bad[0][0] == bad[1][0] && bad[0][1] == bad[1][1] && bad[0][0] == (z >= 0 ? n / 2 : -1) && bad[0][1] == -1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpuamg scaling: bad rows (%" PetscInt_FMT ", %" PetscInt_FMT ") and (%" PetscInt_FMT ", %" PetscInt_FMT "), expected (%" PetscInt_FMT ", -1)", bad[0][0], bad[0][1], bad[1][0], bad[1][1], z >= 0 ? n / 2 : -1);
    Covered(c, T_AMG, GPUPC_AMG_KERNEL_scaling, nnz);
  }
  FOR_SIDES(s)
  {
    const PetscBool dev = c->S[s].device;
    PetscCall(TestFree(dev, dai[s]));
    PetscCall(TestFree(dev, daj[s]));
    PetscCall(TestFree(dev, daa[s]));
    PetscCall(TestFree(dev, drows[s]));
    PetscCall(TestFree(dev, ddinv[s]));
    PetscCall(TestFree(dev, db[s]));
    PetscCall(TestFree(dev, dx[s]));
  }
  PetscCall(PetscFree4(ai, aj, aa, rows));
  PetscCall(PetscFree6(dinv, b, x, out[0], out[1], mag));
  PetscCall(PetscFree(terms));
  PetscFunctionReturn(0);
}

/* colour, then gs_colour and gs_block on its colouring. The level: n rows, a diagonally dominant matrix (so sweeps stay
   bounded and rounding differences do not grow), pattern kind 0: distances 1 and 3 (symmetric), kind 1: the diagonal
   and 0 .. 2 len random columns per row (not symmetric: A + A^T's graph is not A's). The colourings must be equal on
   both sides (integers), valid (no two coupled rows share a colour), and the reference computes its own another way
   (greedy in priority order, rounds as the longest chain); the sweeps are compared with a plain sequential
   Gauss-Seidel in colour order (the reference table's gs_block) for lanes 1, 4 and 32. */
static PetscErrorCode AMGColourCases(Ctx *c, PetscInt n, PetscInt kind, PetscInt len)
{
  const PetscInt off[5] = {-3, -1, 0, 1, 3}, m = PetscMax(n, 1);
  PetscInt       cap = kind == 0 ? 5 * m : m * (2 * len + 1), nnz = 0, maxrow = 0, nc[2], rounds[2];
  PetscInt      *ai, *aj, *ti, *tj, *fill, *col[2], *cptr, *rows;
  PetscInt      *dai[2], *daj[2], *dti[2], *dtj[2], *dcol[2], *dcptr[2], *drows[2];
  PetscScalar   *aa, *dinv, *b, *x, *out[2], *daa[2], *ddinv[2], *db[2], *dx[2];
  PetscReal     *mag, *terms, scale = 0.0;
  const char    *what = kind == 0 ? "distance-1,3 pattern" : "random nonsymmetric pattern";

  PetscFunctionBegin;
  PetscCall(PetscMalloc4(m + 1, &ai, cap, &aj, m + 1, &ti, cap, &tj));
  PetscCall(PetscMalloc5(cap, &aa, m, &dinv, m, &b, m, &x, m + 1, &fill));
  PetscCall(PetscMalloc4(m, &col[0], m, &col[1], m + 1, &cptr, m, &rows));
  PetscCall(PetscMalloc4(m, &out[0], m, &out[1], m, &mag, m, &terms));
  for (PetscInt i = 0; i < m; i++) col[0][i] = col[1][i] = -1;
  ai[0] = 0;
  for (PetscInt i = 0; i < n; i++) { /* sorted, unique columns */
    PetscInt start = nnz, r;
    if (kind == 0) {
      for (PetscInt k = 0; k < 5; k++)
        if (i + off[k] >= 0 && i + off[k] < n) aj[nnz++] = i + off[k];
    } else {
      PetscReal u;
      PetscCall(PetscRandomGetValueReal(c->rnd, &u));
      r         = PetscMin(2 * len, (PetscInt)((u + 1.0) * len)); /* 0 .. 2 len */
      aj[nnz++] = i;
      for (PetscInt k = 0; k < r; k++) {
        PetscCall(PetscRandomGetValueReal(c->rnd, &u));
        aj[nnz++] = PetscMin(n - 1, (PetscInt)((u + 1.0) * 0.5 * n));
      }
      r = nnz - start;
      PetscCall(PetscSortRemoveDupsInt(&r, aj + start));
      nnz = start + r;
    }
    ai[i + 1] = nnz;
    maxrow    = PetscMax(maxrow, nnz - start);
  }
  /* values: off-diagonal in [-1, 1], the diagonal 1 + the row's absolute sum; dinv = its inverse */
  PetscCall(Random(c, nnz, aa));
  PetscCall(Random(c, n, b));
  PetscCall(Random(c, n, x));
  for (PetscInt i = 0; i < n; i++) {
    PetscReal d = 1.0;
    PetscInt  q = -1;
    for (PetscInt e = ai[i]; e < ai[i + 1]; e++) {
      if (aj[e] == i) q = e;
      else d += PetscAbsReal(aa[e]);
    }
    aa[q]   = d;
    dinv[i] = 1.0 / d;
  }
  /* A^T's pattern (rows in increasing order) */
  for (PetscInt i = 0; i <= n; i++) ti[i] = fill[i] = 0;
  for (PetscInt e = 0; e < nnz; e++) ti[aj[e] + 1]++;
  for (PetscInt i = 0; i < n; i++) ti[i + 1] += ti[i];
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt e = ai[i]; e < ai[i + 1]; e++) tj[ti[aj[e]] + fill[aj[e]]++] = i;

  FOR_SIDES(s)
  {
    const PetscBool dev = c->S[s].device;
    PetscCall(TestDup(dev, ai, (n + 1) * sizeof(PetscInt), (void **)&dai[s]));
    PetscCall(TestDup(dev, aj, PetscMax(nnz, 1) * sizeof(PetscInt), (void **)&daj[s]));
    PetscCall(TestDup(dev, ti, (n + 1) * sizeof(PetscInt), (void **)&dti[s]));
    PetscCall(TestDup(dev, tj, PetscMax(nnz, 1) * sizeof(PetscInt), (void **)&dtj[s]));
    PetscCall(TestDup(dev, aa, PetscMax(nnz, 1) * sizeof(PetscScalar), (void **)&daa[s]));
    PetscCall(TestDup(dev, dinv, m * sizeof(PetscScalar), (void **)&ddinv[s]));
    PetscCall(TestDup(dev, b, m * sizeof(PetscScalar), (void **)&db[s]));
    PetscCall(TestDup(dev, x, m * sizeof(PetscScalar), (void **)&dx[s]));
    PetscCall(TestDup(dev, col[0], m * sizeof(PetscInt), (void **)&dcol[s]));
    PetscCall(c->S[s].amg->colour(n, dai[s], daj[s], dti[s], dtj[s], dcol[s], &nc[s], &rounds[s]));
    PetscCall(TestGet(dev, col[s], dcol[s], n * sizeof(PetscInt)));
  }
  PetscCheck(nc[0] == nc[1] && rounds[0] == rounds[1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpuamg colour (%s, %" PetscInt_FMT " rows): %" PetscInt_FMT " colours in %" PetscInt_FMT " rounds on one side, %" PetscInt_FMT " in %" PetscInt_FMT " on the other", what, n, nc[0], rounds[0], nc[1], rounds[1]);
  for (PetscInt i = 0; i < n; i++) {
    PetscCheck(col[0][i] == col[1][i], PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpuamg colour (%s, %" PetscInt_FMT " rows): row %" PetscInt_FMT " has colour %" PetscInt_FMT " on one side, %" PetscInt_FMT " on the other", what, n, i, col[0][i], col[1][i]);
    PetscCheck(col[0][i] >= 0 && col[0][i] < nc[0], PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpuamg colour (%s): row %" PetscInt_FMT " has colour %" PetscInt_FMT " of %" PetscInt_FMT, what, i, col[0][i], nc[0]);
    for (PetscInt e = ai[i]; e < ai[i + 1]; e++) PetscCheck(aj[e] == i || col[0][aj[e]] != col[0][i], PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpuamg colour (%s): coupled rows %" PetscInt_FMT " and %" PetscInt_FMT " share colour %" PetscInt_FMT, what, i, aj[e], col[0][i]);
  }
  { /* greedy: at most the largest degree + 1 colours; a row of colour k waited for one of colour k - 1: rounds >= colours */
    PetscInt maxdeg = 0;
    for (PetscInt i = 0; i < n; i++) maxdeg = PetscMax(maxdeg, ai[i + 1] - ai[i] + ti[i + 1] - ti[i]);
    PetscCheck(n == 0 || (nc[0] >= 1 && nc[0] <= maxdeg + 1 && rounds[0] >= nc[0]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpuamg colour (%s): %" PetscInt_FMT " colours, %" PetscInt_FMT " rounds, degrees up to %" PetscInt_FMT, what, nc[0], rounds[0], maxdeg);
    if (n > 1) PetscCall(PetscInfo(NULL, "gpuamg colour (%s, %" PetscInt_FMT " rows): %" PetscInt_FMT " colours, %" PetscInt_FMT " rounds\n", what, n, nc[0], rounds[0]));
  }
  Covered(c, T_AMG, GPUPC_AMG_KERNEL_colour, nnz);

  /* rows grouped by colour, increasing within a colour */
  for (PetscInt k = 0; k <= nc[0]; k++) cptr[k] = 0;
  for (PetscInt i = 0; i < n; i++) cptr[col[0][i] + 1]++;
  for (PetscInt k = 0; k < nc[0]; k++) cptr[k + 1] += cptr[k];
  for (PetscInt k = 0; k < nc[0]; k++) fill[k] = cptr[k];
  for (PetscInt i = 0; i < n; i++) rows[fill[col[0][i]]++] = i;
  FOR_SIDES(s)
  {
    PetscCall(TestDup(c->S[s].device, cptr, (nc[0] + 1) * sizeof(PetscInt), (void **)&dcptr[s]));
    PetscCall(TestDup(c->S[s].device, rows, m * sizeof(PetscInt), (void **)&drows[s]));
  }
  /* the sweeps: with the diagonal 1 + the off-diagonal absolute sum, no update takes |x| above scale = max(|x|, |b|);
     an update's rounding reaches later rows damped, so (steps * (the longest row + 2)) eps scale bounds the difference */
  for (PetscInt i = 0; i < n; i++) scale = PetscMax(scale, PetscMax(PetscAbsReal(x[i]), PetscAbsReal(b[i])));
  for (PetscInt i = 0; i < n; i++) {
    mag[i]   = scale;
    terms[i] = 2.0 * (nc[0] + 1) * (maxrow + 2);
  }
  for (PetscInt lanes = 1; lanes <= 32; lanes *= 8) {
    for (PetscInt dir = 0; dir < 3; dir++) { /* the small colours (from the middle on) in one block, dir 0, 1, 2 */
      const PetscInt c0 = nc[0] / 2;
      FOR_SIDES(s)
      {
        PetscCall(TestPut(c->S[s].device, dx[s], x, m * sizeof(PetscScalar)));
        PetscCall(c->S[s].amg->gs_block(c0, nc[0], dir, lanes, dcptr[s], drows[s], dai[s], daj[s], daa[s], ddinv[s], db[s], dx[s]));
        PetscCall(TestGet(c->S[s].device, out[s], dx[s], n * sizeof(PetscScalar)));
      }
      PetscCall(Agree(c, T_AMG, GPUPC_AMG_KERNEL_gs_block, dir == 0 ? "forward" : (dir == 1 ? "backward" : "both"), nnz, n, out[0], out[1], mag, terms, DBL_EPSILON));
    }
    /* a whole symmetric sweep as the smoother runs it: the first colour alone, the rest in one block, the first again */
    FOR_SIDES(s)
    {
      const GPUPCAMGKernels *k = c->S[s].amg;
      PetscCall(TestPut(c->S[s].device, dx[s], x, m * sizeof(PetscScalar)));
      if (nc[0] > 0) PetscCall(k->gs_colour(cptr[1], lanes, drows[s], dai[s], daj[s], daa[s], ddinv[s], db[s], dx[s]));
      PetscCall(k->gs_block(PetscMin(1, nc[0]), nc[0], 2, lanes, dcptr[s], drows[s], dai[s], daj[s], daa[s], ddinv[s], db[s], dx[s]));
      if (nc[0] > 0) PetscCall(k->gs_colour(cptr[1], lanes, drows[s], dai[s], daj[s], daa[s], ddinv[s], db[s], dx[s]));
      PetscCall(TestGet(c->S[s].device, out[s], dx[s], n * sizeof(PetscScalar)));
    }
    PetscCall(Agree(c, T_AMG, GPUPC_AMG_KERNEL_gs_block, "a symmetric sweep", nnz, n, out[0], out[1], mag, terms, DBL_EPSILON));
    if (kind == 1) { /* long rows: gs_colour with groups of lanes, colour by colour */
      FOR_SIDES(s)
      {
        PetscCall(TestPut(c->S[s].device, dx[s], x, m * sizeof(PetscScalar)));
        for (PetscInt k = 0; k < nc[0]; k++) PetscCall(c->S[s].amg->gs_colour(cptr[k + 1] - cptr[k], lanes, drows[s] + cptr[k], dai[s], daj[s], daa[s], ddinv[s], db[s], dx[s]));
        PetscCall(TestGet(c->S[s].device, out[s], dx[s], n * sizeof(PetscScalar)));
      }
      PetscCall(Agree(c, T_AMG, GPUPC_AMG_KERNEL_gs_colour, "every colour of a random pattern", nnz, n, out[0], out[1], mag, terms, DBL_EPSILON));
      Covered(c, T_AMG, GPUPC_AMG_KERNEL_gs_colour, nnz);
    }
  }
  Covered(c, T_AMG, GPUPC_AMG_KERNEL_gs_block, nnz);
  FOR_SIDES(s)
  {
    const PetscBool dev = c->S[s].device;
    PetscCall(TestFree(dev, dai[s]));
    PetscCall(TestFree(dev, daj[s]));
    PetscCall(TestFree(dev, dti[s]));
    PetscCall(TestFree(dev, dtj[s]));
    PetscCall(TestFree(dev, daa[s]));
    PetscCall(TestFree(dev, ddinv[s]));
    PetscCall(TestFree(dev, db[s]));
    PetscCall(TestFree(dev, dx[s]));
    PetscCall(TestFree(dev, dcol[s]));
    PetscCall(TestFree(dev, dcptr[s]));
    PetscCall(TestFree(dev, drows[s]));
  }
  PetscCall(PetscFree4(ai, aj, ti, tj));
  PetscCall(PetscFree5(aa, dinv, b, x, fill));
  PetscCall(PetscFree4(col[0], col[1], cptr, rows));
  PetscCall(PetscFree4(out[0], out[1], mag, terms));
  PetscFunctionReturn(0);
}

/* dense_mult on an m x m matrix, both directions; its size is m*m entries */
static PetscErrorCode AMGDenseCases(Ctx *c, PetscInt m)
{
  const size_t mm = (size_t)m * m;
  PetscScalar *M, *x, *out[2], *dM[2], *dxv[2], *dy[2];
  PetscReal   *mag, *terms;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(PetscMax(mm, 1), &M, PetscMax(m, 1), &x, PetscMax(m, 1), &mag));
  PetscCall(PetscMalloc3(PetscMax(m, 1), &out[0], PetscMax(m, 1), &out[1], PetscMax(m, 1), &terms));
  PetscCall(Random(c, (PetscInt)mm, M));
  PetscCall(Random(c, m, x));
  FOR_SIDES(s)
  {
    const PetscBool dev = c->S[s].device;
    PetscCall(TestDup(dev, M, mm * sizeof(PetscScalar), (void **)&dM[s]));
    PetscCall(TestDup(dev, x, m * sizeof(PetscScalar), (void **)&dxv[s]));
    PetscCall(TestMalloc(dev, m * sizeof(PetscScalar), (void **)&dy[s]));
  }
  for (PetscInt t = 0; t < 2; t++) {
    FOR_SIDES(s)
    {
      const PetscBool dev = c->S[s].device;
      PetscCall(c->S[s].amg->dense_mult(m, (PetscBool)t, dM[s], dxv[s], dy[s]));
      PetscCall(TestGet(dev, out[s], dy[s], m * sizeof(PetscScalar)));
    }
    for (PetscInt i = 0; i < m; i++) {
      mag[i] = 0;
      for (PetscInt j = 0; j < m; j++) mag[i] += PetscAbsReal((t ? M[(size_t)j * m + i] : M[(size_t)i * m + j]) * x[j]);
      terms[i] = m;
    }
    PetscCall(Agree(c, T_AMG, GPUPC_AMG_KERNEL_dense_mult, t ? "transpose" : "no transpose", (PetscInt64)mm, m, out[0], out[1], mag, terms, DBL_EPSILON));
    Covered(c, T_AMG, GPUPC_AMG_KERNEL_dense_mult, (PetscInt64)mm);
  }
  FOR_SIDES(s)
  {
    const PetscBool dev = c->S[s].device;
    PetscCall(TestFree(dev, dM[s]));
    PetscCall(TestFree(dev, dxv[s]));
    PetscCall(TestFree(dev, dy[s]));
  }
  PetscCall(PetscFree3(M, x, mag));
  PetscCall(PetscFree3(out[0], out[1], terms));
  PetscFunctionReturn(0);
}

/* ================================================================ main */

/* a build without CUDA has no CUDA tables: every getter refuses (an error, never the host table) */
/* ================================================================ hec (hybrid ELL + CSR)

   Self-contained: its own coverage record and tables, so that the hec table (GPUPC_HEC_KERNEL_LIST) is walked like the
   others: side 0 the active backend's table on device buffers, side 1 the host table (cuda backend) or the reference
   loops below (host backend), on the layouts of TestHECLayout (tests/kerneltest.h) at several ELL widths. */

/* reference: rows in order, whatever the bins say; a row's entries from the ELL slots (an ELL row: the marker says it)
   or from its slots outside the ELL part, at rembase + q remstep */
static inline const PetscScalar *HECRefVal(const GPUPCHECDev *A, PetscInt i, PetscInt q)
{
  return GPUPCHECEllLength(A, i) >= 0 ? &A->ellval[(size_t)q * A->stride + i] : &A->remval[A->rembase[i] + q * A->remstep[i]];
}
static inline PetscInt HECRefCol(const GPUPCHECDev *A, PetscInt i, PetscInt q)
{
  return GPUPCHECEllLength(A, i) >= 0 ? A->ellcol[(size_t)q * A->stride + i] : A->remcol[A->rembase[i] + q * A->remstep[i]];
}
static PetscErrorCode Mult_HECRef(const GPUPCHECDev *A, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  for (PetscInt i = 0; i < A->m; i++) {
    PetscScalar s = 0.0;
    if (A->n > 0)
      for (PetscInt q = 0; q < A->rowptr[i + 1] - A->rowptr[i]; q++) s += *HECRefVal(A, i, q) * x[HECRefCol(A, i, q)];
    y[i] = (z ? z[i] : 0.0) + s;
  }
  return 0;
}
static PetscErrorCode MultTransposeAdd_HECRef(const GPUPCHECDev *A, const PetscScalar *x, PetscScalar *y)
{
  if (A->n > 0)
    for (PetscInt i = 0; i < A->m; i++)
      for (PetscInt q = 0; q < A->rowptr[i + 1] - A->rowptr[i]; q++) y[HECRefCol(A, i, q)] += *HECRefVal(A, i, q) * x[i];
  return 0;
}
static PetscErrorCode GetDiagonal_HECRef(const GPUPCHECDev *A, PetscInt coloffset, PetscScalar *d)
{
  for (PetscInt i = 0; i < A->m; i++) {
    d[i] = 0.0;
    for (PetscInt q = 0; q < A->rowptr[i + 1] - A->rowptr[i]; q++)
      if (HECRefCol(A, i, q) == i + coloffset) d[i] += *HECRefVal(A, i, q);
  }
  return 0;
}
/* entry by entry: its row by a linear walk from i0 */
static PetscErrorCode LayValues_HECRef(const GPUPCHECDev *A, PetscInt i0, PetscInt i1, PetscInt k0, PetscInt k1, const PetscScalar *a)
{
  PetscInt i = i0;

  for (PetscInt k = k0; k < k1; k++) {
    while (A->rowptr[i + 1] <= k) i++;
    if (i >= i1) return PETSC_ERR_PLIB; /* the rows given do not hold entry k */
    *(PetscScalar *)HECRefVal(A, i, k - A->rowptr[i]) = a[k - k0];
  }
  return 0;
}
GPUPC_KERNEL_TABLE_DEFINE(GPUPCHECKernels, RefHECKernels, GPUPC_HEC_KERNEL_LIST, "reference", _HECRef);

typedef struct {
  Ctx                   *c; /* the worlds, the sides' names, the random numbers */
  const GPUPCHECKernels *k[2];
  Coverage               cov;
} HECSides;

/* as Agree, on the hec coverage record */
static PetscErrorCode HECAgree(HECSides *H, PetscInt member, const char *variant, PetscInt64 size, PetscInt n, const PetscReal *a, const PetscReal *b, const PetscReal *mag, const PetscReal *terms)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) {
    const PetscReal allowed = mag ? (terms[i] + 2.0) * DBL_EPSILON * mag[i] : 0.0;
    const PetscBool ok      = (PetscBool)(!PetscIsNanReal(a[i]) && !PetscIsNanReal(b[i]) && PetscAbsReal(a[i] - b[i]) <= allowed);
    PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_PLIB, "hec table, member %s (%s), size %" PetscInt64_FMT ", entry %" PetscInt_FMT ": %s %.17g, %s %.17g (difference %g, allowed %g)", GPUPCHECKernelNames[member], variant, size, i, H->c->S[0].what, (double)a[i], H->c->S[1].what, (double)b[i], (double)PetscAbsReal(a[i] - b[i]), (double)allowed);
  }
  {
    Coverage *cv = &H->cov;
    if (!cv->runs[member]++) cv->minsize[member] = cv->maxsize[member] = size;
    cv->minsize[member] = PetscMin(cv->minsize[member], size);
    cv->maxsize[member] = PetscMax(cv->maxsize[member], size);
  }
  PetscFunctionReturn(0);
}

/* the row of entry k < nnz of CSR A: the last row starting at or before k */
static PetscInt HECEntryRow(const TestCSR *A, PetscInt k)
{
  PetscInt lo = 0, hi = A->m - 1;
  while (lo < hi) {
    const PetscInt mid = lo + (hi - lo + 1) / 2;
    if (A->i[mid] <= k) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/* every member on the layout of A with ELL width K, copied into both worlds */
static PetscErrorCode HECLayoutCases(HECSides *H, const TestCSR *A, PetscInt K, const PetscScalar *x, const PetscScalar *z, const PetscScalar *xt, const PetscScalar *y0)
{
  Ctx           *c = H->c;
  GPUPCHECDev    h, d[2];
  const PetscInt m = A->m, n = A->n, offsets[2] = {0, n > 3 ? 3 : 0};
  PetscScalar   *dx[2], *dz[2], *dy[2], *dxt[2], *dyt[2], *out[2];
  PetscReal     *mag, *terms;
  char           variant[160];
  PetscInt64     size;
  const PetscInt mn = PetscMax(PetscMax(m, n), 1);

  PetscFunctionBegin;
  PetscCall(TestHECLayout(A, K, &h));
  size = h.nnz;
  PetscCall(PetscMalloc4(mn, &out[0], mn, &out[1], mn, &mag, mn, &terms));
  FOR_SIDES(s)
  {
    const PetscBool dev = c->S[s].device;
    PetscCall(TestHECUpload(&h, dev, &d[s]));
    PetscCall(TestDup(dev, x, n * sizeof(PetscScalar), (void **)&dx[s]));
    PetscCall(TestMalloc(dev, m * sizeof(PetscScalar), (void **)&dz[s]));
    PetscCall(TestMalloc(dev, m * sizeof(PetscScalar), (void **)&dy[s]));
    PetscCall(TestDup(dev, xt, m * sizeof(PetscScalar), (void **)&dxt[s]));
    PetscCall(TestMalloc(dev, n * sizeof(PetscScalar), (void **)&dyt[s]));
  }
  /* mult: y = A x, y = A x + z, z = A x + z in place */
  for (PetscInt v = 0; v < 3; v++) {
    const char *vname[] = {"y = A x", "y = A x + z", "z = A x + z in place"};
    PetscCall(PetscSNPrintf(variant, sizeof(variant), "%s, K = %" PetscInt_FMT " (%" PetscInt_FMT " entries outside the ELL part, %" PetscInt_FMT " slab groups, %" PetscInt_FMT " warp/block rows), %" PetscInt_FMT " x %" PetscInt_FMT, vname[v], K, h.nrem, h.nslab, h.nlong, m, n));
    FOR_SIDES(s)
    {
      const PetscBool dev = c->S[s].device;
      PetscCall(TestPut(dev, dz[s], z, m * sizeof(PetscScalar)));
      PetscCall(TestPut(dev, dy[s], y0, m * sizeof(PetscScalar))); /* stale values that must be overwritten */
      PetscCall(H->k[s]->mult(&d[s], dx[s], v ? dz[s] : NULL, v == 2 ? dz[s] : dy[s]));
      PetscCall(TestGet(dev, out[s], v == 2 ? dz[s] : dy[s], m * sizeof(PetscScalar)));
    }
    for (PetscInt i = 0; i < m; i++) {
      mag[i]   = v ? PetscAbsReal(z[i]) : 0.0;
      terms[i] = A->i[i + 1] - A->i[i] + 1;
      for (PetscInt q = A->i[i]; q < A->i[i + 1]; q++) mag[i] += PetscAbsReal(A->a[q] * x[A->j[q]]);
    }
    PetscCall(HECAgree(H, GPUPC_HEC_KERNEL_mult, variant, size, m, out[0], out[1], mag, terms));
  }
  /* multtransposeadd: yt = x + A^T xt */
  PetscCall(PetscSNPrintf(variant, sizeof(variant), "yt += A^T xt, K = %" PetscInt_FMT ", %" PetscInt_FMT " x %" PetscInt_FMT, K, m, n));
  FOR_SIDES(s)
  {
    const PetscBool dev = c->S[s].device;
    PetscCall(TestPut(dev, dyt[s], x, n * sizeof(PetscScalar)));
    PetscCall(H->k[s]->multtransposeadd(&d[s], dxt[s], dyt[s]));
    PetscCall(TestGet(dev, out[s], dyt[s], n * sizeof(PetscScalar)));
  }
  for (PetscInt j = 0; j < n; j++) mag[j] = PetscAbsReal(x[j]), terms[j] = 1;
  for (PetscInt i = 0; i < m; i++)
    for (PetscInt q = A->i[i]; q < A->i[i + 1]; q++) mag[A->j[q]] += PetscAbsReal(A->a[q] * xt[i]), terms[A->j[q]] += 1;
  PetscCall(HECAgree(H, GPUPC_HEC_KERNEL_multtransposeadd, variant, size, n, out[0], out[1], mag, terms));
  /* getdiagonal of the block and of a block whose diagonal is shifted by 3 columns: exact */
  for (PetscInt o = 0; o < 2; o++) {
    PetscCall(PetscSNPrintf(variant, sizeof(variant), "column offset %" PetscInt_FMT ", K = %" PetscInt_FMT, offsets[o], K));
    FOR_SIDES(s)
    {
      const PetscBool dev = c->S[s].device;
      PetscCall(TestPut(dev, dy[s], y0, m * sizeof(PetscScalar)));
      PetscCall(H->k[s]->getdiagonal(&d[s], offsets[o], dy[s]));
      PetscCall(TestGet(dev, out[s], dy[s], m * sizeof(PetscScalar)));
    }
    PetscCall(HECAgree(H, GPUPC_HEC_KERNEL_getdiagonal, variant, size, m, out[0], out[1], NULL, NULL));
  }
  /* layvalues: the values laid in one range and in ranges of 1000 entries (as a staged update does), over value arrays
     of garbage that every entry slot must lose and every padding slot must keep: exact */
  {
    const PetscInt nslots = h.K * h.stride, nnz = A->i[m], nall = PetscMax(nslots + h.nremslots, 1);
    PetscScalar   *da[2], *got[2], *junk;

    PetscCall(PetscMalloc3(nall, &got[0], nall, &got[1], nall, &junk));
    for (PetscInt t = 0; t < nall; t++) junk[t] = 1e300 + t;
    for (PetscInt cs = PetscMax(nnz, 1), pass = 0; pass < 2; pass++, cs = 1000) {
      PetscCall(PetscSNPrintf(variant, sizeof(variant), "ranges of %" PetscInt_FMT " entries, K = %" PetscInt_FMT ", %" PetscInt_FMT " x %" PetscInt_FMT, cs, K, m, n));
      FOR_SIDES(s)
      {
        const PetscBool dev = c->S[s].device;
        PetscCall(TestMalloc(dev, PetscMax(cs, 1) * sizeof(PetscScalar), (void **)&da[s]));
        PetscCall(TestPut(dev, d[s].ellval, junk, nslots * sizeof(PetscScalar)));
        PetscCall(TestPut(dev, d[s].remval, junk + nslots, h.nremslots * sizeof(PetscScalar)));
        for (PetscInt k0 = 0; k0 < nnz; k0 += cs) {
          const PetscInt k1 = PetscMin(nnz, k0 + cs);
          PetscCall(TestPut(dev, da[s], A->a + k0, (k1 - k0) * sizeof(PetscScalar)));
          PetscCall(H->k[s]->layvalues(&d[s], HECEntryRow(A, k0), HECEntryRow(A, k1 - 1) + 1, k0, k1, da[s]));
        }
        PetscCall(TestGet(dev, got[s], d[s].ellval, nslots * sizeof(PetscScalar)));
        PetscCall(TestGet(dev, got[s] + nslots, d[s].remval, h.nremslots * sizeof(PetscScalar)));
        PetscCall(TestFree(dev, da[s]));
      }
      PetscCall(HECAgree(H, GPUPC_HEC_KERNEL_layvalues, variant, size, nslots + h.nremslots, got[0], got[1], NULL, NULL));
      /* and they are the layout's values (entries) or the garbage (padding) */
      for (PetscInt t = 0; t < nslots; t++) {
        const PetscInt  i = t % h.stride, p = t / h.stride;
        const PetscBool entry = (PetscBool)(i < m && p < A->i[i + 1] - A->i[i] && A->i[i + 1] - A->i[i] <= h.K);
        PetscCheck(entry ? got[1][t] == h.ellval[t] : got[1][t] == junk[t], PETSC_COMM_SELF, PETSC_ERR_PLIB, "hec layvalues (%s): ELL slot %" PetscInt_FMT " (row %" PetscInt_FMT ", entry %" PetscInt_FMT ") holds %g", variant, t, i, p, (double)got[1][t]);
      }
      for (PetscInt r = 0; r < h.nremslots; r++) {
        const PetscScalar want = h.remrow[r] >= 0 ? h.remval[r] : junk[nslots + r]; /* slab padding keeps its value */
        PetscCheck(got[1][nslots + r] == want, PETSC_COMM_SELF, PETSC_ERR_PLIB, "hec layvalues (%s): slot %" PetscInt_FMT " outside the ELL part (row %" PetscInt_FMT ") holds %g, expected %g", variant, r, h.remrow[r], (double)got[1][nslots + r], (double)want);
      }
    }
    PetscCall(PetscFree3(got[0], got[1], junk));
  }
  FOR_SIDES(s)
  {
    const PetscBool dev = c->S[s].device;
    PetscCall(TestHECFreeUpload(dev, &d[s]));
    PetscCall(TestFree(dev, dx[s]));
    PetscCall(TestFree(dev, dz[s]));
    PetscCall(TestFree(dev, dy[s]));
    PetscCall(TestFree(dev, dxt[s]));
    PetscCall(TestFree(dev, dyt[s]));
  }
  PetscCall(TestHECFreeLayout(&h));
  PetscCall(PetscFree4(out[0], out[1], mag, terms));
  PetscFunctionReturn(0);
}

/* the row length of row r in the hec shapes: HEC_MIXED lengths 0..30 at random (with K = 3 or 8 every slab group occurs,
   with rows of each length in several warps and a few warp-bin rows), HEC_POWERLAW a power-law-like spread (Pareto
   with exponent 1.5, at least 1, at most 3030; the rare long tail goes to warps and blocks), HEC_WIDE below; capped
   at n */
typedef enum {
  HEC_SEGRANDOM,
  HEC_MIXED,
  HEC_POWERLAW,
  HEC_WIDE /* row 1 holds every column, the others r % 5 entries: at K = the longest row, 4-byte ELL lengths */
} HECShape;

/* an m x n CSR matrix of the given shape (HEC_SEGRANDOM: SegRandomCSR) with distinct columns per row */
static PetscErrorCode HECShapeCSR(Ctx *c, HECShape shape, PetscInt m, PetscInt n, TestCSR *A)
{
  PetscFunctionBegin;
  if (shape == HEC_SEGRANDOM) {
    PetscCall(SegRandomCSR(c, m, n, A));
    PetscFunctionReturn(0);
  }
  A->m = m;
  A->n = n;
  PetscCall(PetscMalloc1(m + 1, &A->i));
  A->i[0] = 0;
  for (PetscInt r = 0; r < m; r++) {
    PetscReal u;
    PetscInt  len;
    PetscCall(PetscRandomGetValueReal(c->rnd, &u)); /* in [-1, 1) */
    u = 0.5 * (u + 1.0);
    if (shape == HEC_MIXED) len = (PetscInt)(31.0 * u);
    else if (shape == HEC_POWERLAW) len = PetscMin((PetscInt)PetscMin(PetscPowReal(PetscMax(u, 1e-9), -1.0 / 1.5), 1e6), 3030);
    else len = r == 1 ? n : r % 5;
    A->i[r + 1] = A->i[r] + PetscMin(n, len);
  }
  PetscCall(PetscMalloc2(A->i[m] + 1, &A->j, A->i[m] + 1, &A->a));
  for (PetscInt r = 0; r < m; r++) {
    const PetscInt len = A->i[r + 1] - A->i[r];
    for (PetscInt t = 0; t < len; t++) {
      PetscReal u;
      PetscCall(PetscRandomGetValueReal(c->rnd, &u));
      A->j[A->i[r] + t] = (r * 7 + t * (n / PetscMax(len, 1))) % n; /* distinct: stride n / len >= 1, len <= n */
      A->a[A->i[r] + t] = u;
    }
  }
  PetscFunctionReturn(0);
}

/* an m x n matrix of the given shape at ELL widths 0, 1, 3, 8, the cost model's (p_r 20) and the longest row (plain
   ELL); few: only the cost model's and 0 */
static PetscErrorCode HECCases(HECSides *H, HECShape shape, PetscInt m, PetscInt n, PetscBool few)
{
  TestCSR      A;
  PetscScalar *x, *z, *xt, *y0;
  PetscInt     Ks[6] = {0, 1, 3, 8, 0, 0}, nK = 6, maxrow = 0;

  PetscFunctionBegin;
  PetscCall(HECShapeCSR(H->c, shape, m, n, &A));
  PetscCall(PetscMalloc4(PetscMax(n, 1), &x, PetscMax(m, 1), &z, PetscMax(m, 1), &xt, PetscMax(m, 1), &y0));
  PetscCall(Random(H->c, n, x));
  PetscCall(Random(H->c, m, z));
  PetscCall(Random(H->c, m, xt));
  PetscCall(Random(H->c, m, y0));
  for (PetscInt i = 0; i < m; i++) maxrow = PetscMax(maxrow, A.i[i + 1] - A.i[i]);
  PetscCall(GPUPCHECCostWidth(m, A.i, 20.0, &Ks[4]));
  Ks[5] = maxrow;
  if (few) {
    Ks[1] = Ks[4];
    nK    = 2;
  }
  for (PetscInt k = 0; k < nK; k++) PetscCall(HECLayoutCases(H, &A, Ks[k], x, z, xt, y0));
  PetscCall(PetscFree4(x, z, xt, y0));
  PetscCall(SegFreeCSR(&A));
  PetscFunctionReturn(0);
}

/* the whole hec table on the shapes of the segcsr cases (0 and 1 rows, a warp, a block, rectangles, no columns, a row of
   5000 entries: the block bin, more than 2^20 entries), then its coverage */
static PetscErrorCode HECAllCases(Ctx *c, PetscInt64 large)
{
  HECSides          H;
  PetscGPUPCBackend backend;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&H, sizeof(H)));
  H.c = c;
  PetscCall(PetscGPUPCGetBackend(&backend));
  PetscCall(GPUPCGetHECKernelsFor(backend, &H.k[0]));
  if (backend == PETSC_GPUPC_BACKEND_CUDA) PetscCall(GPUPCGetHECKernelsFor(PETSC_GPUPC_BACKEND_HOST, &H.k[1]));
  else H.k[1] = &RefHECKernels;
  FOR_SIDES(s){
    GPUPC_HEC_KERNEL_LIST(CHECK_MEMBER, H.k[s])}
#if !defined(GPUPC_HAVE_CUDA)
  {
    const GPUPCHECKernels *k = NULL;
    PetscErrorCode         e;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    e = GPUPCGetHECKernelsFor(PETSC_GPUPC_BACKEND_CUDA, &k);
    PetscCall(PetscPopErrorHandler());
    PetscCheck(e == PETSC_ERR_SUP, PETSC_COMM_SELF, PETSC_ERR_PLIB, "a build without CUDA gave the hec table for the cuda backend (error %d, expected PETSC_ERR_SUP)", (int)e);
  }
#endif
  PetscCall(CoverageInit(&H.cov, "hec", "GPUPC_HEC_KERNEL_LIST", GPUPCHECKernelNames, GPUPC_HEC_NKERNELS, 0, large));
  PetscCall(HECCases(&H, HEC_SEGRANDOM, 0, 10, PETSC_FALSE));
  PetscCall(HECCases(&H, HEC_SEGRANDOM, 1, 1, PETSC_FALSE));
  PetscCall(HECCases(&H, HEC_SEGRANDOM, 1, 40, PETSC_FALSE));
  PetscCall(HECCases(&H, HEC_SEGRANDOM, 32, 32, PETSC_FALSE));
  PetscCall(HECCases(&H, HEC_SEGRANDOM, 256, 300, PETSC_FALSE));
  PetscCall(HECCases(&H, HEC_SEGRANDOM, 40, 0, PETSC_FALSE));
  PetscCall(HECCases(&H, HEC_SEGRANDOM, 700, 90, PETSC_FALSE));
  PetscCall(HECCases(&H, HEC_SEGRANDOM, 200, 6000, PETSC_FALSE));
  PetscCall(HECCases(&H, HEC_SEGRANDOM, 80000, 80000, PETSC_TRUE));
  /* many short remainders of mixed length (every slab group, several warps each, padding lanes), and a power-law-like
     matrix (slabs, warp and block rows together) */
  PetscCall(HECCases(&H, HEC_MIXED, 3000, 500, PETSC_FALSE));
  PetscCall(HECCases(&H, HEC_MIXED, 45, 64, PETSC_FALSE));
  PetscCall(HECCases(&H, HEC_POWERLAW, 20000, 20000, PETSC_FALSE));
  PetscCall(HECCases(&H, HEC_WIDE, 40, 70000, PETSC_FALSE));
  PetscCall(CoverageCheck(&H.cov));
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckNoCUDATables(void)
{
  PetscFunctionBegin;
#if !defined(GPUPC_HAVE_CUDA)
  {
    const void    *k = NULL;
    PetscErrorCode e[5];
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    e[0] = GPUPCGetVecKernelsFor(PETSC_GPUPC_BACKEND_CUDA, (const GPUPCVecKernels **)&k);
    e[1] = GPUPCGetSegCSRKernelsFor(PETSC_GPUPC_BACKEND_CUDA, (const GPUPCSegCSRKernels **)&k);
    e[2] = GPUPCGetCMGKernelsFor(PETSC_GPUPC_BACKEND_CUDA, (const GPUPCCMGKernels **)&k);
    e[3] = GPUPCGetHaloKernelsFor(PETSC_GPUPC_BACKEND_CUDA, (const GPUPCHaloKernels **)&k);
    e[4] = GPUPCGetAMGKernelsFor(PETSC_GPUPC_BACKEND_CUDA, (const GPUPCAMGKernels **)&k);
    PetscCall(PetscPopErrorHandler());
    for (int t = 0; t < 5; t++) PetscCheck(e[t] == PETSC_ERR_SUP, PETSC_COMM_SELF, PETSC_ERR_PLIB, "a build without CUDA gave table %d for the cuda backend (error %d, expected PETSC_ERR_SUP)", t, (int)e[t]);
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "built without CUDA: the five getters refuse the cuda backend\n"));
  }
#endif
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  /* around warp, block (256) and grid-stride boundaries, and more than 2^20 entries */
  const PetscInt    vsizes[] = {0, 1, 31, 32, 33, 256, 257, 4097, (1 << 20) + 3};
  const PetscInt    Lall[] = {1, 2, 4, 8, 16, 32}, Lbig[] = {1, 8};
  const PetscInt    large = 1 << 20;
  PetscGPUPCBackend backend;
  Ctx               c;
  size_t            mem0, mem1;
  /* cmg hierarchies: several levels (dense last level), float levels, a bandwidth-bound two-pass residual-restriction
     with long rows of several chunks and large clusters, the double cover with Dirichlet rows (map, E couplings),
     wide lanes with clusters split over units, a Jacobi last level, one level of a few hundred and one of 4 vertices */
  const CMGConfig cmgconfigs[] = {
    {"grid2d", {.problem = "grid", .ground = "pads", .dim = 2, .n = 64, .spread = 6.0}, "-%spc_cmg_direct_size 100"},
    {"grid2d_sp", {.problem = "grid", .ground = "pads", .dim = 2, .n = 64, .spread = 6.0}, "-%spc_cmg_direct_size 100 -%spc_cmg_precision single"},
    {"power", {.problem = "power", .ground = "pads", .dim = 2, .n = 200, .spread = 6.0}, "-%spc_cmg_direct_size 700 -%spc_cmg_pack_nnz 0"},
    {"power_sp", {.problem = "power", .ground = "pads", .dim = 2, .n = 200, .spread = 6.0}, "-%spc_cmg_direct_size 700 -%spc_cmg_precision single"},
    {"dirichlet", {.problem = "grid", .ground = "pads", .dim = 3, .n = 16, .spread = 6.0, .positive = 0.2, .dirichlet = PETSC_TRUE}, "-%spc_cmg_direct_size 100"},
    {"graph", {.problem = "graph", .ground = "pads", .dim = 2, .n = 60, .spread = 0.3}, "-%spc_cmg_direct_size 10"},
    {"jacobilast", {.problem = "grid", .ground = "pads", .dim = 2, .n = 48, .spread = 6.0}, "-%spc_cmg_direct_size 10 -%spc_cmg_max_levels 3"},
    {"onelevel", {.problem = "grid", .ground = "pads", .dim = 2, .n = 20, .spread = 6.0}, "-%spc_cmg_direct_size 700"},
    {"tiny", {.problem = "cycles", .ground = "pads", .dim = 2, .n = 1}, "-%spc_cmg_direct_size 700"},
  };

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem0));
  PetscCall(PetscGPUPCGetBackend(&backend));
  PetscCall(PetscMemzero(&c, sizeof(c)));
  /* side 0: the active backend's tables on device buffers */
  c.S[0].device = PETSC_TRUE;
  PetscCall(GPUPCGetVecKernelsFor(backend, &c.S[0].vec));
  PetscCall(GPUPCGetSegCSRKernelsFor(backend, &c.S[0].seg));
  PetscCall(GPUPCGetCMGKernelsFor(backend, &c.S[0].cmg));
  PetscCall(GPUPCGetHaloKernelsFor(backend, &c.S[0].halo));
  PetscCall(GPUPCGetAMGKernelsFor(backend, &c.S[0].amg));
  /* side 1: the host tables (cuda backend) or the reference loops of this file (host backend), on host buffers */
  c.S[1].device = PETSC_FALSE;
  if (backend == PETSC_GPUPC_BACKEND_CUDA) {
    c.S[0].what = "cuda table";
    c.S[1].what = "host table";
    PetscCall(GPUPCGetVecKernelsFor(PETSC_GPUPC_BACKEND_HOST, &c.S[1].vec));
    PetscCall(GPUPCGetSegCSRKernelsFor(PETSC_GPUPC_BACKEND_HOST, &c.S[1].seg));
    PetscCall(GPUPCGetCMGKernelsFor(PETSC_GPUPC_BACKEND_HOST, &c.S[1].cmg));
    PetscCall(GPUPCGetHaloKernelsFor(PETSC_GPUPC_BACKEND_HOST, &c.S[1].halo));
    PetscCall(GPUPCGetAMGKernelsFor(PETSC_GPUPC_BACKEND_HOST, &c.S[1].amg));
  } else {
    c.S[0].what = "host table";
    c.S[1].what = "reference loops";
    c.S[1].vec  = &RefVecKernels;
    c.S[1].seg  = &RefSegCSRKernels;
    c.S[1].cmg  = &RefCMGKernels;
    c.S[1].halo = &RefHaloKernels;
    c.S[1].amg  = &RefAMGKernels;
  }
  FOR_SIDES(s)
  PetscCall(CheckSideTables(&c.S[s]));
  PetscCall(CheckNoCUDATables());
  PetscCall(CoverageInit(&c.cov[T_VEC], "vec", "GPUPC_VEC_KERNEL_LIST", GPUPCVecKernelNames, GPUPC_VEC_NKERNELS, 0, large));
  PetscCall(CoverageInit(&c.cov[T_SEGCSR], "segcsr", "GPUPC_SEGCSR_KERNEL_LIST", GPUPCSegCSRKernelNames, GPUPC_SEGCSR_NKERNELS, 0, large));
  PetscCall(CoverageInit(&c.cov[T_CMG], "cmg", "GPUPC_CMG_KERNEL_LIST", GPUPCCMGKernelNames, GPUPC_CMG_NKERNELS, 0, 256));
  PetscCall(CoverageInit(&c.cov[T_HALO], "halo", "GPUPC_HALO_KERNEL_LIST", GPUPCHaloKernelNames, GPUPC_HALO_NKERNELS, 0, large));
  PetscCall(CoverageInit(&c.cov[T_AMG], "gpuamg", "GPUPC_AMG_KERNEL_LIST", GPUPCAMGKernelNames, GPUPC_AMG_NKERNELS, 0, large));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &c.rnd));
  PetscCall(PetscRandomSetInterval(c.rnd, -1.0, 1.0));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "kernel_equiv: %s backend, the %s (device buffers) against the %s (host buffers)\n", PetscGPUPCBackends[backend], c.S[0].what, c.S[1].what));

  for (size_t i = 0; i < sizeof(vsizes) / sizeof(vsizes[0]); i++) PetscCall(VecCases(&c, vsizes[i]));
  for (size_t i = 0; i < sizeof(vsizes) / sizeof(vsizes[0]); i++) PetscCall(HaloCases(&c, vsizes[i]));
  /* gpuamg: the element-wise members on every size; the dense product of the last level on 0 .. 1025 rows */
  for (size_t i = 0; i < sizeof(vsizes) / sizeof(vsizes[0]); i++) PetscCall(AMGVecCases(&c, vsizes[i]));
  for (size_t i = 0; i < sizeof(vsizes) / sizeof(vsizes[0]); i++) PetscCall(AMGGSCases(&c, vsizes[i]));
  /* the colouring and the sweeps on it: every size on the distance pattern and on random rows of ~4 entries, random
     rows of ~60 entries (Galerkin-like: many colours, groups of lanes) up to 4097 rows */
  for (size_t i = 0; i < sizeof(vsizes) / sizeof(vsizes[0]); i++) {
    PetscCall(AMGColourCases(&c, vsizes[i], 0, 0));
    PetscCall(AMGColourCases(&c, vsizes[i], 1, 2));
    if (vsizes[i] <= 4097) PetscCall(AMGColourCases(&c, vsizes[i], 1, 30));
  }
  {
    const PetscInt msizes[] = {0, 1, 31, 33, 257, 1025}; /* 1025^2 entries: more than 2^20 */
    for (size_t i = 0; i < sizeof(msizes) / sizeof(msizes[0]); i++) PetscCall(AMGDenseCases(&c, msizes[i]));
  }
  /* segcsr: shapes of 0 and 1 rows, a warp, a block, rectangles, a block without columns, a row of 5000 entries (the
     block-per-row bin for every L), and more than 2^20 entries */
  PetscCall(SegCases(&c, 0, 10, 6, Lall));
  PetscCall(SegCases(&c, 1, 1, 6, Lall));
  PetscCall(SegCases(&c, 1, 40, 6, Lall));
  PetscCall(SegCases(&c, 32, 32, 6, Lall));
  PetscCall(SegCases(&c, 256, 300, 6, Lall));
  PetscCall(SegCases(&c, 40, 0, 6, Lall));
  PetscCall(SegCases(&c, 700, 90, 6, Lall));
  PetscCall(SegCases(&c, 200, 6000, 6, Lall));
  PetscCall(SegCases(&c, 80000, 80000, 2, Lbig));
  /* bcsr (tests/bcsrequiv.h): its own coverage check */
  PetscCall(BCSRCases(&c));
  PetscCall(HECAllCases(&c, large)); /* hec: its own coverage record */
  /* cmg */
  PetscCall(CMGEmptyCases(&c));
  PetscCall(CMGDemoteCases(&c, 1));
  PetscCall(CMGDemoteCases(&c, 300));
  PetscCall(CMGDemoteCases(&c, 1000003));
  for (size_t i = 0; i < sizeof(cmgconfigs) / sizeof(cmgconfigs[0]); i++) PetscCall(CMGConfigCases(&c, &cmgconfigs[i]));

  /* tassl: its own block and coverage record */
  PetscCall(TasslCases(&c, backend));
  for (PetscInt t = 0; t < T_NTABLES; t++) PetscCall(CoverageCheck(&c.cov[t]));
  PetscCall(PBJCases(&c, backend)); /* gpubjacobi: its own coverage record */
  PetscCall(PetscRandomDestroy(&c.rnd));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem1));
  PetscCheck(mem0 == mem1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "device memory in use went from %zu to %zu bytes", mem0, mem1);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "kernel_equiv: every member of the vec, segcsr, cmg, halo, bcsr, hec, tassl and gpubjacobi tables agrees\n"));
  PetscCall(PetscFinalize());
  return 0;
}

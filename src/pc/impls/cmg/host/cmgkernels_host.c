/*
   Host reference implementation of the CMG cycle kernels (gpupc/cmgkernels.h): plain
   loops, the semantics the CUDA kernels must match. One body (cmgkernels_host_impl.h)
   instantiated for double and float.
*/
#include <gpupc/cmgkernels.h>

#define CMG_T       double
#define CMG_NAME(f) f##_D
#include "cmgkernels_host_impl.h"
#undef CMG_T
#undef CMG_NAME
#define CMG_T       float
#define CMG_NAME(f) f##_S
#include "cmgkernels_host_impl.h"
#undef CMG_T
#undef CMG_NAME

#define SINGLE(p) ((p) == GPUPC_CMG_PRECISION_SINGLE)

static PetscErrorCode Expand_Host(const GPUPCCMGDeviceFold *F, PetscBool transpose, const PetscScalar *b, void *b0)
{
  if (SINGLE(F->prec)) Expand_S(F, transpose, b, (float *)b0);
  else Expand_D(F, transpose, b, (double *)b0);
  return 0;
}

static PetscErrorCode Fold_Host(const GPUPCCMGDeviceFold *F, PetscBool transpose, const PetscScalar *b, const void *x0, PetscScalar *x)
{
  if (SINGLE(F->prec)) Fold_S(F, transpose, b, (const float *)x0, x);
  else Fold_D(F, transpose, b, (const double *)x0, x);
  return 0;
}

static PetscErrorCode Jacobi_Host(const GPUPCCMGDeviceLevel *L)
{
  if (SINGLE(L->prec)) Jacobi_S(L);
  else Jacobi_D(L);
  return 0;
}

static PetscErrorCode Smooth_Host(const GPUPCCMGDeviceLevel *L, const void *xin, const void *xc, void *xout)
{
  if (SINGLE(L->prec)) Smooth_S(L, (const float *)xin, (const float *)xc, (float *)xout);
  else Smooth_D(L, (const double *)xin, (const double *)xc, (double *)xout);
  return 0;
}

/* the next level's first Jacobi iterate from bc, when asked for */
static void NextJacobi_Host(const GPUPCCMGDeviceLevel *L, const GPUPCCMGNextJacobi *next, const void *bc)
{
  if (!next) return;
  if (SINGLE(L->prec)) NextJacobi_S(L->nc, next, (const float *)bc);
  else NextJacobi_D(L->nc, next, (const double *)bc);
}

static PetscErrorCode ResidualRestrict_Host(const GPUPCCMGDeviceLevel *L, PetscBool first, void *bc, const GPUPCCMGNextJacobi *next)
{
  if (first) Jacobi_Host(L); /* the reference: the Jacobi step, then the residual-restriction of its iterate */
  if (SINGLE(L->prec)) ResidualRestrict_S(L, (float *)bc);
  else ResidualRestrict_D(L, (double *)bc);
  NextJacobi_Host(L, next, bc);
  return 0;
}

static PetscErrorCode Prolong_Host(const GPUPCCMGDeviceLevel *L, const void *xc)
{
  if (SINGLE(L->prec)) Prolong_S(L, (const float *)xc);
  else Prolong_D(L, (const double *)xc);
  return 0;
}

static PetscErrorCode DenseSolve_Host(const GPUPCCMGDeviceLevel *L)
{
  if (SINGLE(L->prec)) DenseSolve_S(L);
  else DenseSolve_D(L);
  return 0;
}

static PetscErrorCode Update_Host(const GPUPCCMGDeviceLevel *L, const void *r, const void *xin, void *xout)
{
  if (SINGLE(L->prec)) Update_S(L, (const float *)r, (const float *)xin, (float *)xout);
  else Update_D(L, (const double *)r, (const double *)xin, (double *)xout);
  return 0;
}

static PetscErrorCode ClusterSum_Host(const GPUPCCMGDeviceLevel *L, const void *r, void *bc, const GPUPCCMGNextJacobi *next)
{
  if (SINGLE(L->prec)) ClusterSum_S(L, (const float *)r, (float *)bc);
  else ClusterSum_D(L, (const double *)r, (double *)bc);
  NextJacobi_Host(L, next, bc);
  return 0;
}

static PetscErrorCode Demote_Host(PetscInt64 n, const PetscReal *x, float *y)
{
  for (PetscInt64 i = 0; i < n; i++) y[i] = (float)x[i];
  return 0;
}

/* the table: every member's Stem_Host from GPUPC_CMG_KERNEL_LIST, by name (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_DEFINE(GPUPCCMGKernels, GPUPCCMGKernelsHost, GPUPC_CMG_KERNEL_LIST, "host", _Host);

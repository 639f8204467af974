/*
   gpupc/veckernels.h - the vector kernels: one declaration, two implementations.

   GPUPCVecKernels is the interface. GPUPCVecKernelsHost (src/vec/kernels/host) is the
   plain C reference, GPUPCVecKernelsCUDA (src/vec/kernels/cuda) the CUDA version. Both
   take device pointers (on the host backend: the emulated device buffers) and local
   lengths; reductions return their local result on the host. Tests hold the two tables
   against each other; the Vec type calls GPUPCGetVecKernels(), which picks by backend.
*/
#ifndef GPUPC_VECKERNELS_H
#define GPUPC_VECKERNELS_H

#include <gpupc/device.h>

/* the most vectors one mdot/maxpy kernel call takes; the Vec type splits larger calls */
#define GPUPC_MAX_MULTI 8

typedef enum {
  GPUPC_PW_MULT,
  GPUPC_PW_DIVIDE, /* w = x / y, with w = 0 where y = 0 (as PETSc's VECSEQ) */
  GPUPC_PW_MAX,
  GPUPC_PW_MIN,
  GPUPC_PW_MAXABS
} GPUPCPointwiseOp;

typedef enum {
  GPUPC_UNARY_RECIPROCAL, /* x = 1/x, 0 stays 0 (as PETSc) */
  GPUPC_UNARY_ABS,
  GPUPC_UNARY_SQRT_ABS,
  GPUPC_UNARY_EXP,
  GPUPC_UNARY_LOG
} GPUPCUnaryOp;

typedef struct {
  const char *name;
  /* y[i] = alpha */
  PetscErrorCode (*set)(PetscInt n, PetscScalar alpha, PetscScalar *y);
  /* y[i] = alpha*y[i] */
  PetscErrorCode (*scale)(PetscInt n, PetscScalar alpha, PetscScalar *y);
  /* y[i] += alpha */
  PetscErrorCode (*shift)(PetscInt n, PetscScalar alpha, PetscScalar *y);
  /* y = alpha x + beta y (covers axpy, aypx, axpby; beta == 0 does not read y) */
  PetscErrorCode (*axpby)(PetscInt n, PetscScalar alpha, const PetscScalar *x, PetscScalar beta, PetscScalar *y);
  /* z = alpha x + beta y + gamma z (gamma == 0 does not read z) */
  PetscErrorCode (*axpbypcz)(PetscInt n, PetscScalar alpha, const PetscScalar *x, PetscScalar beta, const PetscScalar *y, PetscScalar gamma, PetscScalar *z);
  /* exchange x and y */
  PetscErrorCode (*swap)(PetscInt n, PetscScalar *x, PetscScalar *y);
  /* w = alpha x + y */
  PetscErrorCode (*waxpy)(PetscInt n, PetscScalar alpha, const PetscScalar *x, const PetscScalar *y, PetscScalar *w);
  /* y += sum_j alpha[j] x[j], nv <= GPUPC_MAX_MULTI; alpha and the pointer array x on the host */
  PetscErrorCode (*maxpy)(PetscInt n, PetscInt nv, const PetscScalar *alpha, const PetscScalar *const *x, PetscScalar *y);
  /* w = x op y */
  PetscErrorCode (*pointwise)(GPUPCPointwiseOp op, PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscScalar *w);
  /* x = op(x) */
  PetscErrorCode (*unary)(GPUPCUnaryOp op, PetscInt n, PetscScalar *x);
  /* local reductions, results on the host */
  /* val[j] = x . y[j], nv <= GPUPC_MAX_MULTI (dot is nv == 1) */
  PetscErrorCode (*mdot)(PetscInt n, const PetscScalar *x, PetscInt nv, const PetscScalar *const *y, PetscScalar *val);
  /* val[0] = x . y, val[1] = y . y in one pass (VecDotNorm2) */
  PetscErrorCode (*dotnorm2)(PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscScalar *val);
  /* sum |x|, sum x^2, max |x| : val[0..2] */
  PetscErrorCode (*norms)(PetscInt n, const PetscScalar *x, PetscReal *val);
  /* max |x/y| with y == 0 treated as 1 */
  PetscErrorCode (*maxpointwisedivide)(PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscReal *val);
  /* value and smallest index of the max (sign = 1) or min (sign = -1); idx = -1 when n == 0 */
  PetscErrorCode (*extremum)(PetscInt n, const PetscScalar *x, PetscInt sign, PetscReal *val, PetscInt *idx);
  /* sum x */
  PetscErrorCode (*sum)(PetscInt n, const PetscScalar *x, PetscScalar *val);
} GPUPCVecKernels;

PETSC_INTERN const GPUPCVecKernels GPUPCVecKernelsHost;
#if defined(GPUPC_HAVE_CUDA)
PETSC_INTERN const GPUPCVecKernels GPUPCVecKernelsCUDA;
#endif

/* the table of the active backend */
PETSC_EXTERN PetscErrorCode GPUPCGetVecKernels(const GPUPCVecKernels **);
/* a table by backend, for tests that compare the two (error if that backend is not built/usable) */
PETSC_EXTERN PetscErrorCode GPUPCGetVecKernelsFor(PetscGPUPCBackend, const GPUPCVecKernels **);

#endif

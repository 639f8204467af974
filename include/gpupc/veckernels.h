/*
   gpupc/veckernels.h - the vector kernels: one declaration, two implementations.

   GPUPCVecKernels is the interface, declared once by GPUPC_VEC_KERNEL_LIST (gpupc/kerneltable.h).
   GPUPCVecKernelsHost (src/vec/kernels/host) is the plain C reference, GPUPCVecKernelsCUDA
   (src/vec/kernels/cuda) the CUDA version. Both take device pointers (on the host backend:
   the emulated device buffers) and local lengths; reductions return their local result on
   the host. tests/kernel_equiv holds the two tables against each other member by member;
   the Vec type calls GPUPCGetVecKernels(), which picks by backend.
*/
#ifndef GPUPC_VECKERNELS_H
#define GPUPC_VECKERNELS_H

#include <gpupc/kerneltable.h>

/* the most vectors one mdot pass reads (mdot takes any number: one pass per GPUPC_MAX_MULTI) */
#define GPUPC_MAX_MULTI 8
/* the most vectors one maxpy call takes, in one pass (GMRES's default restart of 30 fits); the Vec type splits larger calls */
#define GPUPC_MAX_MAXPY 32

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

/* The fused kernels of KSP gpucg (src/ksp/impls/gpucg), members of the vec table. v holds the device arrays of the
   iteration's vectors; a kernel reads and writes only the ones its comment names. The reductions are asynchronous: they
   write val[0..3] = (r.u, w.u, u.u, r.r) (local sums) into val, host memory the device can write (GPUPCHostMalloc), and
   return without waiting; val is valid after GPUPCSynchronize(). work is GPUPC_CG_WORK_BYTES of device memory, zeroed
   once before its first use, one buffer per reduction in flight. */
typedef struct {
  PetscScalar *x, *r, *u, *w, *p, *s; /* classic: solution, residual, preconditioned residual u = B r, w = A u, direction p, s = A p */
  PetscScalar *m, *n, *q, *z;         /* pipelined only: m = B w, n = A m, q = B s, z = A q */
} GPUPCCGVectors;
#define GPUPC_CG_NDOTS      4
#define GPUPC_CG_MAX_BLOCKS 4096
#define GPUPC_CG_WORK_BYTES (256 + (size_t)GPUPC_CG_NDOTS * GPUPC_CG_MAX_BLOCKS * sizeof(double))

/* classic (Chronopoulos-Gear) CG update, one pass: p = u + beta p, s = w + beta s, x += alpha p, r -= alpha s (beta == 0
   does not read p and s); the dots of r, u, w (after the PC and the product have made u and w); pipelined
   (Ghysels-Vanroose) update and the next iteration's dots in one pass: z = n + beta z, q = m + beta q, s = w + beta s,
   p = u + beta p, x += alpha p, r -= alpha s, u -= alpha q, w -= alpha z (beta == 0 does not read z, q, s, p), then the
   dots of the new r, u, w */
#define GPUPC_CG_KERNEL_LIST(X, A)                                                                 \
  X(A, cgupdate, CGUpdate, (PetscInt nloc, PetscScalar alpha, PetscScalar beta, GPUPCCGVectors v)) \
  X(A, cgdots, CGDots, (PetscInt nloc, GPUPCCGVectors v, void *work, PetscScalar *val))            \
  X(A, pipecgupdate, PipeCGUpdate, (PetscInt nloc, PetscScalar alpha, PetscScalar beta, GPUPCCGVectors v, void *work, PetscScalar *val))

/* The table, one line per kernel: X(A, member, Stem, (parameters)) (gpupc/kerneltable.h); the host
   implementation of a member is Stem_Host (src/vec/kernels/host), the CUDA one Stem_CUDA (src/vec/kernels/cuda). */
#define GPUPC_VEC_KERNEL_LIST(X, A)                                                                                                                          \
  /* y[i] = alpha */                                                                                                                                         \
  X(A, set, Set, (PetscInt n, PetscScalar alpha, PetscScalar * y))                                                                                           \
  /* y[i] = alpha*y[i] */                                                                                                                                    \
  X(A, scale, Scale, (PetscInt n, PetscScalar alpha, PetscScalar * y))                                                                                       \
  /* y[i] += alpha */                                                                                                                                        \
  X(A, shift, Shift, (PetscInt n, PetscScalar alpha, PetscScalar * y))                                                                                       \
  /* y = alpha x + beta y (covers axpy, aypx, axpby; beta == 0 does not read y) */                                                                           \
  X(A, axpby, AXPBY, (PetscInt n, PetscScalar alpha, const PetscScalar *x, PetscScalar beta, PetscScalar *y))                                                \
  /* z = alpha x + beta y + gamma z (gamma == 0 does not read z) */                                                                                          \
  X(A, axpbypcz, AXPBYPCZ, (PetscInt n, PetscScalar alpha, const PetscScalar *x, PetscScalar beta, const PetscScalar *y, PetscScalar gamma, PetscScalar *z)) \
  /* exchange x and y */                                                                                                                                     \
  X(A, swap, Swap, (PetscInt n, PetscScalar * x, PetscScalar * y))                                                                                           \
  /* w = alpha x + y */                                                                                                                                      \
  X(A, waxpy, WAXPY, (PetscInt n, PetscScalar alpha, const PetscScalar *x, const PetscScalar *y, PetscScalar *w))                                            \
  /* y += sum_j alpha[j] x[j] in one pass, nv <= GPUPC_MAX_MAXPY; alpha and the pointer array x on the host */                                               \
  X(A, maxpy, MAXPY, (PetscInt n, PetscInt nv, const PetscScalar *alpha, const PetscScalar *const *x, PetscScalar *y))                                       \
  /* w = x op y */                                                                                                                                           \
  X(A, pointwise, Pointwise, (GPUPCPointwiseOp op, PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscScalar *w))                                  \
  /* x = op(x) */                                                                                                                                            \
  X(A, unary, Unary, (GPUPCUnaryOp op, PetscInt n, PetscScalar * x))                                                                                         \
  /* local reductions, results on the host: */                                                                                                               \
  /* val[j] = x . y[j], any nv (dot is nv == 1): one pass over x per GPUPC_MAX_MULTI vectors, one wait; y on the host */                                     \
  X(A, mdot, MDot, (PetscInt n, const PetscScalar *x, PetscInt nv, const PetscScalar *const *y, PetscScalar *val))                                           \
  /* val[0] = x . y, val[1] = y . y in one pass (VecDotNorm2) */                                                                                             \
  X(A, dotnorm2, DotNorm2, (PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscScalar *val))                                                       \
  /* sum |x|, sum x^2, max |x| : val[0..2] */                                                                                                                \
  X(A, norms, Norms, (PetscInt n, const PetscScalar *x, PetscReal *val))                                                                                     \
  /* max |x/y| with y == 0 treated as 1 */                                                                                                                   \
  X(A, maxpointwisedivide, MaxPointwiseDivide, (PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscReal *val))                                     \
  /* value and smallest index of the max (sign = 1) or min (sign = -1); idx = -1 when n == 0 */                                                              \
  X(A, extremum, Extremum, (PetscInt n, const PetscScalar *x, PetscInt sign, PetscReal *val, PetscInt *idx))                                                 \
  /* sum x */                                                                                                                                                \
  X(A, sum, Sum, (PetscInt n, const PetscScalar *x, PetscScalar *val))                                                                                       \
  GPUPC_CG_KERNEL_LIST(X, A)

typedef GPUPC_KERNEL_TABLE(GPUPC_VEC_KERNEL_LIST) GPUPCVecKernels;

/* member k of the list is GPUPC_VEC_KERNEL_<member> = k; its name is GPUPCVecKernelNames[k] */
typedef enum {
  GPUPC_VEC_KERNEL_LIST(GPUPC_KERNEL_ENUM, GPUPC_VEC_KERNEL_)
  GPUPC_VEC_NKERNELS
} GPUPCVecKernelIndex;
PETSC_EXTERN const char *const GPUPCVecKernelNames[];

PETSC_INTERN const GPUPCVecKernels GPUPCVecKernelsHost;
#if defined(GPUPC_HAVE_CUDA)
PETSC_INTERN const GPUPCVecKernels GPUPCVecKernelsCUDA;
#endif

/* the table of the active backend */
PETSC_EXTERN PetscErrorCode GPUPCGetVecKernels(const GPUPCVecKernels **);
/* a table by backend, for tests that compare the two (error if that backend is not built/usable) */
PETSC_EXTERN PetscErrorCode GPUPCGetVecKernelsFor(PetscGPUPCBackend, const GPUPCVecKernels **);

#endif

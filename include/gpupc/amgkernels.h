/*
   gpupc/amgkernels.h - the kernels of PC gpuamg's cycle: one declaration, two implementations.

   GPUPCAMGKernels is declared once by GPUPC_AMG_KERNEL_LIST (gpupc/kerneltable.h). GPUPCAMGKernelsHost
   (src/pc/impls/gpuamg/host) is the plain C reference, GPUPCAMGKernelsCUDA (src/pc/impls/gpuamg/cuda) the CUDA
   version; GPUPCGetAMGKernels() picks by backend. All pointers are device pointers (on the host backend: the emulated
   device buffers) and lengths are local. The sparse products of the cycle are the level matrices' own (segcsr MatMult,
   MatMultAdd, MatMultTranspose); these kernels are the vector work around them, fused so that a smoothing step reads
   its operands once.
*/
#ifndef GPUPC_AMGKERNELS_H
#define GPUPC_AMGKERNELS_H

#include <gpupc/kerneltable.h>
#include <gpupc/amghash.h> /* GPUPC_AMG_HD */

/* The table, one line per kernel: X(A, member, Stem, (parameters)) (gpupc/kerneltable.h); the host implementation of a
   member is Stem_Host (src/pc/impls/gpuamg/host), the CUDA one Stem_CUDA (src/pc/impls/gpuamg/cuda). */
#define GPUPC_AMG_KERNEL_LIST(X, A)                                                                                                                                                                  \
  /* Jacobi step: x = x + w .* (b - q), q = A x; zero: x = w .* b (x and q are not read) */                                                                                                          \
  X(A, jacobi, AMGJacobi, (PetscInt n, PetscBool zero, const PetscScalar *w, const PetscScalar *b, const PetscScalar *q, PetscScalar *x))                                                            \
  /* Chebyshev step: d = alpha d + beta w .* (b - q), x = x + d, q = A x (alpha 0: d is not read); zero: d = beta \
     w .* b, x = d (x, q and d are not read) */                                                                                  \
  X(A, chebyshev, AMGChebyshev, (PetscInt n, PetscBool zero, PetscScalar alpha, PetscScalar beta, const PetscScalar *w, const PetscScalar *b, const PetscScalar *q, PetscScalar *d, PetscScalar *x)) \
  /* residual: r = b - r (r holds A x on entry) */                                                                                                                                                   \
  X(A, residual, AMGResidual, (PetscInt n, const PetscScalar *b, PetscScalar *r))                                                                                                                    \
  /* y = M x, or y = M^T x when transpose; M is m x m, row-major */                                                                                                                                  \
  X(A, dense_mult, AMGDenseMult, (PetscInt m, PetscBool transpose, const PetscScalar *M, const PetscScalar *x, PetscScalar *y))                                                                      \
  /* Gauss-Seidel on the nr rows of one colour (rows[k], no two of them coupled): x_i += dinv_i (b_i - sum_e aa[e] x[aj[e]]) over \
     e in ai[i] .. ai[i+1]-1 (the whole row of the CSR ai, aj, aa, diagonal included) */                                                                  \
  X(A, gs_colour, AMGGSColour, (PetscInt nr, const PetscInt *rows, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, const PetscScalar *dinv, const PetscScalar *b, PetscScalar *x))    \
  /* the smoothers' scalings of the n rows of the CSR ai, aj, aa (device arrays): dinv, dl1 by GPUPCAMGRowScaling; \
     *gersh (host) = the largest row bound, bad[0], bad[1] (host) = the first row with a zero diagonal, with Inf or NaN (-1: none) */                                                                                 \
  X(A, scaling, AMGScaling, (PetscInt n, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, PetscScalar *dinv, PetscScalar *dl1, PetscReal *gersh, PetscInt *bad))                       \
  /* x[i] = GPUPCAMGRandomSigned(seed, first + i): the start vector of the smoothers' Lanczos estimates, made where it \
     lives (a host-made random vector of a 7.2M-row level cost more than the whole estimate on the device) */                                                                             \
  X(A, random, AMGRandom, (PetscInt n, PetscInt seed, PetscInt first, PetscScalar * x))

typedef GPUPC_KERNEL_TABLE(GPUPC_AMG_KERNEL_LIST) GPUPCAMGKernels;

/* the smoothers' scalings of row i from its diagonal dii and the sum l1 of |a_ij|, j != i (host setup and both kernel
   tables): returns dinv_i = 1/a_ii (a zero diagonal taken as 1), sets *dl1 = 1/(|a_ii| + l1), raises *gersh to the
   row's Gershgorin bound 1 + l1/|a_ii| of D^-1 A, *zero when a_ii = 0, *inf when a_ii or l1 is Inf or NaN */
static inline GPUPC_AMG_HD PetscScalar GPUPCAMGRowScaling(PetscScalar dii, PetscScalar l1, PetscReal *gersh, PetscScalar *dl1, int *zero, int *inf)
{
  const PetscReal dr = PetscRealPart(dii), lr = PetscRealPart(l1);

  *zero = dii == 0.0;
  *inf  = !(dr - dr == 0.0) || !(lr - lr == 0.0); /* x - x is NaN exactly for Inf and NaN */
  if (dii == 0.0) dii = 1.0;
  *gersh = PetscMax(*gersh, 1.0 + PetscRealPart(l1) / PetscAbsScalar(dii));
  *dl1   = 1.0 / (PetscAbsScalar(dii) + l1);
  return 1.0 / dii;
}

/* member k of the list is GPUPC_AMG_KERNEL_<member> = k; its name is GPUPCAMGKernelNames[k] */
typedef enum {
  GPUPC_AMG_KERNEL_LIST(GPUPC_KERNEL_ENUM, GPUPC_AMG_KERNEL_)
  GPUPC_AMG_NKERNELS
} GPUPCAMGKernelIndex;
PETSC_EXTERN const char *const GPUPCAMGKernelNames[];

PETSC_INTERN const GPUPCAMGKernels GPUPCAMGKernelsHost;
#if defined(GPUPC_HAVE_CUDA)
PETSC_INTERN const GPUPCAMGKernels GPUPCAMGKernelsCUDA;
#endif

PETSC_EXTERN PetscErrorCode GPUPCGetAMGKernels(const GPUPCAMGKernels **);
PETSC_EXTERN PetscErrorCode GPUPCGetAMGKernelsFor(PetscGPUPCBackend, const GPUPCAMGKernels **);

#endif

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
#define GPUPC_AMG_KERNEL_LIST(X, A)                                                                                                                                                                                                                              \
  /* Jacobi step: x = x + w .* (b - q), q = A x; zero: x = w .* b (x and q are not read) */                                                                                                                                                                      \
  X(A, jacobi, AMGJacobi, (PetscInt n, PetscBool zero, const PetscScalar *w, const PetscScalar *b, const PetscScalar *q, PetscScalar *x))                                                                                                                        \
  /* Chebyshev step: d = alpha d + beta w .* (b - q), x = x + d, q = A x (alpha 0: d is not read); zero: d = beta \
     w .* b, x = d (x, q and d are not read) */                                                                                                                                              \
  X(A, chebyshev, AMGChebyshev, (PetscInt n, PetscBool zero, PetscScalar alpha, PetscScalar beta, const PetscScalar *w, const PetscScalar *b, const PetscScalar *q, PetscScalar *d, PetscScalar *x))                                                             \
  /* residual: r = b - r (r holds A x on entry) */                                                                                                                                                                                                               \
  X(A, residual, AMGResidual, (PetscInt n, const PetscScalar *b, PetscScalar *r))                                                                                                                                                                                \
  /* y = M x, or y = M^T x when transpose; M is m x m, row-major */                                                                                                                                                                                              \
  X(A, dense_mult, AMGDenseMult, (PetscInt m, PetscBool transpose, const PetscScalar *M, const PetscScalar *x, PetscScalar *y))                                                                                                                                  \
  /* Gauss-Seidel on the nr rows of one colour (rows[k], no two of them coupled): x_i += dinv_i (b_i - sum_e aa[e] x[aj[e]]) over \
     e in ai[i] .. ai[i+1]-1 (the whole row of the CSR ai, aj, aa, diagonal included), the terms subtracted in row order; \
     lanes (1, 2, 4, 8, 16 or 32): threads per row on the device (the products in parallel, the sum still in row order) */                                                                                                                              \
  X(A, gs_colour, AMGGSColour, (PetscInt nr, PetscInt lanes, const PetscInt *rows, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, const PetscScalar *dinv, const PetscScalar *b, PetscScalar *x))                                                \
  /* gs_colour on the colours c0 .. c1-1 in turn, in one launch of one block (a barrier between colours): the rows of \
     colour c are rows[cptr[c] .. cptr[c+1]-1] (cptr a device array); dir 0: colours c0 .. c1-1, 1: c1-1 .. c0, 2: both, \
     forward then backward (2 (c1 - c0) colour steps, the symmetric sweep's middle); lanes as gs_colour's */                                                                                                                                          \
  X(A, gs_block, AMGGSBlock, (PetscInt c0, PetscInt c1, PetscInt dir, PetscInt lanes, const PetscInt *cptr, const PetscInt *rows, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, const PetscScalar *dinv, const PetscScalar *b, PetscScalar *x)) \
  /* colouring of the graph of A + A^T (n rows; A's rows ai, aj and A^T's rows ti, tj, an n x n pattern and its \
     transpose; the diagonal is no edge): Jones-Plassmann rounds, row i's priority GPUPCAMGRandom(i) (ties: the larger \
     index first); in round r every uncoloured row whose higher-priority neighbours were all coloured in rounds before \
     r takes the smallest colour none of them has. So colour[i] is the greedy colouring in decreasing priority, the \
     same on every table and launch shape; *ncolours and *rounds (host) are the colours and rounds used */                                                                                                                                                \
  X(A, colour, AMGColour, (PetscInt n, const PetscInt *ai, const PetscInt *aj, const PetscInt *ti, const PetscInt *tj, PetscInt *colour, PetscInt *ncolours, PetscInt *rounds))                                                                                  \
  /* the smoothers' scalings of the n rows of the CSR ai, aj, aa (device arrays): dinv, dl1 by GPUPCAMGRowScaling; \
     *gersh (host) = the largest row bound, bad[0], bad[1] (host) = the first row with a zero diagonal, with Inf or NaN (-1: none) */                                                                                                                                             \
  X(A, scaling, AMGScaling, (PetscInt n, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, PetscScalar *dinv, PetscScalar *dl1, PetscReal *gersh, PetscInt *bad))                                                                                   \
  /* x[i] = GPUPCAMGRandomSigned(seed, first + i): the start vector of the smoothers' Lanczos estimates, made where it \
     lives (a host-made random vector of a 7.2M-row level cost more than the whole estimate on the device) */                                                                                                                                         \
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

/* the colouring's order (member colour): row j comes before row i (j's priority is higher) */
static inline GPUPC_AMG_HD int GPUPCAMGColourBefore(PetscInt j, PetscInt i)
{
  const PetscReal wj = GPUPCAMGRandom(j), wi = GPUPCAMGRandom(i);

  return wj > wi || (wj == wi && j > i);
}

/* the colouring's round r on row i (member colour; host and CUDA tables): -1 while a neighbour before it (j with
   GPUPCAMGColourBefore(j, i)) was not coloured in a round before r, else the smallest colour that no neighbour coloured
   before round r has (rnd[j]: the round row j was coloured in, -1 while uncoloured; a row coloured in round r itself
   counts as uncoloured, so the rows of one round read nothing that round writes). Those neighbours are exactly the
   ones before i (one after i waits for i), so the colour is the greedy one in priority order. */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGColourRow(PetscInt i, PetscInt r, const PetscInt *ai, const PetscInt *aj, const PetscInt *ti, const PetscInt *tj, const PetscInt *colour, const PetscInt *rnd)
{
  for (int t = 0; t < 2; t++) { /* ready? */
    const PetscInt *p = t ? ti : ai, *q = t ? tj : aj;

    for (PetscInt e = p[i]; e < p[i + 1]; e++) {
      const PetscInt j = q[e], rj = rnd[j];

      if (j != i && !(rj >= 0 && rj < r) && GPUPCAMGColourBefore(j, i)) return -1;
    }
  }
  for (PetscInt base = 0;; base += 64) { /* the colours base .. base+63 the neighbours hold, as bits */
    unsigned long long taken = 0;
    int                c     = 0;

    for (int t = 0; t < 2; t++) {
      const PetscInt *p = t ? ti : ai, *q = t ? tj : aj;

      for (PetscInt e = p[i]; e < p[i + 1]; e++) {
        const PetscInt j = q[e], rj = rnd[j];

        if (j != i && rj >= 0 && rj < r && colour[j] >= base && colour[j] < base + 64) taken |= 1ULL << (colour[j] - base);
      }
    }
    if (taken == ~0ULL) continue;
    while (taken >> c & 1ULL) c++;
    return base + c;
  }
}

/* the colour of step t of gs_block on colours c0 .. c1-1 in direction dir (0 forward, 1 backward, 2 both) */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGBlockColour(PetscInt c0, PetscInt c1, PetscInt dir, PetscInt t)
{
  const PetscInt nc = c1 - c0;

  if (dir == 0 || (dir == 2 && t < nc)) return c0 + t;
  return c1 - 1 - (dir == 2 ? t - nc : t);
}

/* the lanes per row of gs_colour and gs_block: 1, 2, 4, 8, 16 or 32 */
static inline GPUPC_AMG_HD int GPUPCAMGLanesValid(PetscInt lanes)
{
  return lanes >= 1 && lanes <= 32 && (lanes & (lanes - 1)) == 0;
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

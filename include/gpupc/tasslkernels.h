/*
   gpupc/tasslkernels.h - the triangular-solve kernels of PC tasslilu: one declaration, two implementations.

   A triangular solve T x = b is held, after the TASSL analysis (gpupc/tassl.h), as a GPUPCTasslDev: every row
   is scaled by its diagonal, so row i computes

       x[xidx_i] = dinv_i b[bidx_i] - sum_j (dinv_i t_ij) x[xidx_j]

   where bidx and xidx fold the fill-reducing ordering and the factor's numbering into the solve (no separate
   permutation kernels). Three ways to run it, all on the same numbers:

     subgraphs  TASSL: the rows are cut into sub-graphs of at most nmax rows (one thread block and its shared
                memory each), grouped in sub-graph levels; one launch per level, one block per sub-graph of the
                level. A block loads its rows' b into shared memory, applies its external time slots (x of
                earlier sub-graphs, read from global memory), then its internal slots (shared memory only), one
                edge per thread per slot with a barrier between slots (no two edges of a slot enter the same
                row), and writes its x back.
     onelaunch  the same sub-graphs in one launch: a block takes the next sub-graph in level order from a ticket
                counter, waits on the ready flags of the sub-graphs it depends on, runs as above and raises its
                own flag (ready[g] = epoch; the epoch changes every solve so the flags never need clearing).
     levelset   the baseline: the rows grouped in level sets (level = 1 + the largest level of the rows it
                needs), one launch per level, one thread per row reading x from global memory.

   All pointers of a GPUPCTasslDev are device pointers (on the host backend: the emulated device buffers), except
   hlevptr and hlsptr, host copies of the level ranges that the launches need. Every kernel returns
   PetscErrorCode; b and x must not overlap.
*/
#ifndef GPUPC_TASSLKERNELS_H
#define GPUPC_TASSLKERNELS_H

#include <gpupc/kerneltable.h>

/* threads per block of the TASSL kernels */
#define GPUPC_TASSL_BLOCK 256

typedef struct {
  PetscInt n;    /* rows */
  PetscInt nsub; /* sub-graphs, numbered in level order */
  PetscInt nlev; /* sub-graph levels */
  PetscInt nmax; /* rows of the largest sub-graph (shared memory of a block: nmax scalars) */
  PetscInt nslots, nedges;
  /* sub-graphs */
  const PetscInt *hlevptr; /* host, nlev + 1: sub-graphs of level p are hlevptr[p] .. hlevptr[p+1) */
  PetscInt       *subptr;  /* nsub + 1: sub-graph g holds positions subptr[g] .. subptr[g+1) */
  PetscInt       *bidx;    /* n: position k reads b[bidx[k]] ... */
  PetscInt       *xidx;    /* n: ... and writes x[xidx[k]] */
  PetscScalar    *dinv;    /* n: 1 / diagonal of the row at position k (1 for a unit diagonal) */
  PetscInt       *slotptr; /* nsub + 1: time slots of g are slotptr[g] .. slotptr[g+1) ... */
  PetscInt       *next;    /* nsub: ... of which the first next[g] are external */
  PetscInt       *edgeptr; /* nslots + 1: edges of slot s are edgeptr[s] .. edgeptr[s+1) */
  PetscInt       *etgt;    /* nedges: target row, local to its sub-graph (0 .. size-1) */
  PetscInt       *esrc;    /* nedges: source: local index (internal slot) or index into x (external slot) */
  PetscScalar    *eval;    /* nedges: dinv_i t_ij */
  PetscInt       *depptr;  /* nsub + 1: sub-graphs that g reads x from are dep[depptr[g] .. depptr[g+1]) */
  PetscInt       *dep;
  int            *ready;  /* nsub flags of the one-launch solve */
  int            *ticket; /* one counter of the one-launch solve (the CUDA launch zeroes it first) */
  /* level sets (baseline) */
  PetscInt        nls;    /* level sets */
  const PetscInt *hlsptr; /* host, nls + 1: positions of level l are hlsptr[l] .. hlsptr[l+1) */
  PetscInt       *lsbidx; /* n: as bidx, xidx, dinv, for the level-set order */
  PetscInt       *lsxidx;
  PetscScalar    *lsdinv;
  PetscInt       *lsrp;  /* n + 1: off-diagonal entries of position k are lsrp[k] .. lsrp[k+1) */
  PetscInt       *lscol; /* index into x */
  PetscScalar    *lsval; /* dinv_i t_ij */
} GPUPCTasslDev;

/* The table, one line per kernel: X(A, member, Stem, (parameters)) (gpupc/kerneltable.h); the host implementation
   of a member is Stem_Host (src/pc/impls/tasslilu/host), the CUDA one Stem_CUDA (src/pc/impls/tasslilu/cuda). */
#define GPUPC_TASSL_KERNEL_LIST(X, A)                                                                                            \
  /* TASSL: one launch per sub-graph level, one block per sub-graph */                                                           \
  X(A, subgraphs, Subgraphs, (const GPUPCTasslDev *T, const PetscScalar *b, PetscScalar *x))                                     \
  /* TASSL in one launch with ready flags; epoch > 0 differs from the previous solve's (flags of older epochs mean not ready) */ \
  X(A, onelaunch, OneLaunch, (const GPUPCTasslDev *T, int epoch, const PetscScalar *b, PetscScalar *x))                          \
  /* level sets: one launch per level, one thread per row */                                                                     \
  X(A, levelset, LevelSet, (const GPUPCTasslDev *T, const PetscScalar *b, PetscScalar *x))

typedef GPUPC_KERNEL_TABLE(GPUPC_TASSL_KERNEL_LIST) GPUPCTasslKernels;

/* member k of the list is GPUPC_TASSL_KERNEL_<member> = k; its name is GPUPCTasslKernelNames[k] */
typedef enum {
  GPUPC_TASSL_KERNEL_LIST(GPUPC_KERNEL_ENUM, GPUPC_TASSL_KERNEL_)
  GPUPC_TASSL_NKERNELS
} GPUPCTasslKernelIndex;
PETSC_EXTERN const char *const GPUPCTasslKernelNames[];

PETSC_INTERN const GPUPCTasslKernels GPUPCTasslKernelsHost;
#if defined(GPUPC_HAVE_CUDA)
PETSC_INTERN const GPUPCTasslKernels GPUPCTasslKernelsCUDA;
#endif

PETSC_EXTERN PetscErrorCode GPUPCGetTasslKernels(const GPUPCTasslKernels **);
PETSC_EXTERN PetscErrorCode GPUPCGetTasslKernelsFor(PetscGPUPCBackend, const GPUPCTasslKernels **);

#endif

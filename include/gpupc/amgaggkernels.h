/*
   gpupc/amgaggkernels.h - the kernels of PC gpuamg's smoothed aggregation on the device (private to GPUPC and its
   tests): the aggregation strength of the node graph (blocks of bs rows), MIS(2) aggregation in parallel rounds, the
   tentative prolongator by a thin QR per aggregate with the coarse near-null space, and the prolongator smoothing
   P = P_tent - omega D^-1 (A P_tent) on the pattern of A P_tent.

   GPUPCAMGAggKernels is declared once by GPUPC_AMG_AGG_KERNEL_LIST (gpupc/kerneltable.h). GPUPCAMGAggKernelsHost
   (src/pc/impls/gpuamg/host) is the plain C reference, GPUPCAMGAggKernelsCUDA (src/pc/impls/gpuamg/cuda) the CUDA
   version; both run the same per-node and per-aggregate code (src/pc/impls/gpuamg/amgaggrows.h), so they give the same
   graph, the same aggregates and the same P (values up to the rounding of fused multiply-adds on the CUDA table).
   The algorithms are in docs/algorithms.md ("smoothed aggregation on the device").

   Arrays are device arrays of the table's world (host arrays for the host table); outputs are allocated by the
   caller. Counts marked "(host)" come back to the host. Matrices are GPUPCDevCSR (gpupc/sparsekernels.h): A the
   level matrix (diagonal stored), G the symmetrised node graph (a pattern, columns sorted, no diagonal).
*/
#ifndef GPUPC_AMGAGGKERNELS_H
#define GPUPC_AMGAGGKERNELS_H

#include <gpupc/sparsekernels.h>
#include <gpupc/amghash.h>

/* MIS(2) states of a node; an aggregated node's final state is its aggregate (>= 0) in the agg array, not here */
#define GPUPC_AMG_AGG_NONE    (-1) /* no strong neighbour: left out of P (the smoother handles it) */
#define GPUPC_AMG_AGG_UNDEC   (-2) /* still a candidate for a root */
#define GPUPC_AMG_AGG_ROOT    (-3) /* the root of an aggregate */
#define GPUPC_AMG_AGG_COVERED (-4) /* within distance two of a root: no longer a candidate */

/* the priority order of the MIS(2) rounds: hashed chunks of GPUPC_AMG_AGG_CHUNK consecutive nodes, index order inside
   a chunk (the default: the host's dense greedy packing inside a chunk, rounds bounded by the chunks), or the index
   (the host setup's greedy order, so the same aggregates on a symmetric graph, but rounds grow with the graph's
   diameter) */
#define GPUPC_AMG_AGG_ORDER_HASH  0
#define GPUPC_AMG_AGG_ORDER_INDEX 1
#define GPUPC_AMG_AGG_CHUNK       2048

/* The table, one line per kernel: X(A, member, Stem, (parameters)) (gpupc/kerneltable.h); the host implementation of a
   member is Stem_Host, the CUDA one Stem_CUDA. */
#define GPUPC_AMG_AGG_KERNEL_LIST(X, A)                                                                                                                                                  \
  /* dnorm[x] = ||A_II||_F, the Frobenius norm of node x's diagonal block, x < A->m / bs */                                                                                              \
  X(A, node_norm, AMGAggNodeNorm, (const GPUPCDevCSR *A, PetscInt bs, PetscReal *dnorm))                                                                                                 \
  /* aggregation strength, first pass: Si[x+1] = the nodes y != x with ||A_IJ||_F > 0 and ||A_IJ||_F >= eps \
     sqrt(dnorm[x] dnorm[y]) (GPUPCAMGStrengthAgg on one rank); Si[0] is not written (rowptr) */                                                                            \
  X(A, strength_count, AMGAggStrengthCount, (const GPUPCDevCSR *A, PetscInt bs, PetscReal eps, const PetscReal *dnorm, PetscInt *Si))                                                    \
  /* second pass: S->j (S->i from the first pass), ascending */                                                                                                                          \
  X(A, strength_fill, AMGAggStrengthFill, (const GPUPCDevCSR *A, PetscInt bs, PetscReal eps, const PetscReal *dnorm, GPUPCDevCSR *S))                                                    \
  /* symmetrisation, first pass: Gi[x+1] = |row x of S union row x of ST|; Gi[0] is not written */                                                                                       \
  X(A, union_count, AMGAggUnionCount, (const GPUPCDevCSR *S, const GPUPCDevCSR *ST, PetscInt *Gi))                                                                                       \
  /* second pass: G->j, the merged rows (ascending, no repeats) */                                                                                                                       \
  X(A, union_fill, AMGAggUnionFill, (const GPUPCDevCSR *S, const GPUPCDevCSR *ST, GPUPCDevCSR *G))                                                                                       \
  /* MIS(2) start: state[x] = GPUPC_AMG_AGG_UNDEC for nodes with a neighbour in G, GPUPC_AMG_AGG_NONE otherwise; \
     *left (host) = the undecided nodes */                                                                       \
  X(A, mis2_init, AMGAggMIS2Init, (const GPUPCDevCSR *G, PetscInt *state, PetscInt *left))                                                                                               \
  /* a "max over neighbours" pass: dst[x] = the best of src[y] over y in {x} and row x of G (best in the order \
     GPUPC_AMG_AGG_ORDER_*; -1 loses to any node); src NULL: src[y] = y for the undecided y, else -1 */                                                                         \
  X(A, mis2_max, AMGAggMIS2Max, (const GPUPCDevCSR *G, const PetscInt *state, const PetscInt *src, PetscInt order, PetscInt *dst))                                                       \
  /* roots of a round: an undecided x with best[x] == x (it beats every undecided node within distance two) gets \
     GPUPC_AMG_AGG_ROOT and roots[x] = x; every other node roots[x] = -1; *nroots (host) = the new roots */                                                                       \
  X(A, mis2_roots, AMGAggMIS2Roots, (PetscInt n, const PetscInt *best, PetscInt *state, PetscInt *roots, PetscInt *nroots))                                                              \
  /* an undecided x with near[x] >= 0 (a new root within distance two) gets GPUPC_AMG_AGG_COVERED; *left (host) = \
     the undecided nodes after that */                                                                      \
  X(A, mis2_cover, AMGAggMIS2Cover, (PetscInt n, const PetscInt *near, PetscInt *state, PetscInt *left))                                                                                 \
  /* aggregates, first pass: a root gets rootnum[x] (its place among the roots in index order), a neighbour of a root \
     that root's (roots are at distance three or more: at most one), a node without neighbours -1, the rest -2 */                                                                  \
  X(A, agg_first, AMGAggFirst, (const GPUPCDevCSR *G, const PetscInt *state, const PetscInt *rootnum, PetscInt *first))                                                                  \
  /* second pass: agg[x] = first[x], except the nodes with first[x] == -2: the aggregate of first[] that holds most of \
     their neighbours (ties: the smaller aggregate); *orphan (host) = such a node without an aggregated neighbour, or -1 */                                                                 \
  X(A, agg_second, AMGAggSecond, (const GPUPCDevCSR *G, const PetscInt *first, PetscInt *agg, PetscInt *orphan))                                                                         \
  /* aptr[a] = the first place of aggregate a in anodes (the aggregated nodes sorted by aggregate), aptr[nagg] = nkept */                                                                \
  X(A, agg_bounds, AMGAggBounds, (PetscInt nkept, const PetscInt *anodes, const PetscInt *agg, PetscInt nagg, PetscInt *aptr))                                                           \
  /* tentative P, first pass: Pi[r+1] = nv for the rows r of aggregated nodes (agg[r / bs] >= 0), else 0, r < nn bs */                                                                   \
  X(A, tent_count, AMGAggTentCount, (PetscInt nn, PetscInt bs, PetscInt nv, const PetscInt *agg, PetscInt *Pi))                                                                          \
  /* second pass, per aggregate a: the rows B_a (m x nv, the rows of its nodes anodes[aptr[a] .. aptr[a+1]) in that \
     order, B row-major with nv columns) = Q_a R_a by twice-iterated Gram-Schmidt (GPUPCAMGTentative's rule for a \
     dependent column); P's rows get Q_a in columns a nv .. a nv + nv - 1 (P->i from the first pass), Bc rows \
     a nv .. a nv + nv - 1 get R_a (row-major, nv columns); *bad (host) = an aggregate too small for nv \
     independent columns, or -1 */                                                                    \
  X(A, tent_qr, AMGAggTentQR, (PetscInt nagg, PetscInt bs, PetscInt nv, const PetscInt *aptr, const PetscInt *anodes, const PetscReal *B, GPUPCDevCSR *P, PetscReal *Bc, PetscInt *bad)) \
  /* smoothing in place: AP (= A P_tent) becomes P_tent - omega D^-1 AP, d the diagonal of A (nonzero); *missing (host) \
     = the entries of P_tent outside AP's pattern (0 when A stores its diagonal) */                                                                \
  X(A, prol_smooth, AMGAggProlSmooth, (GPUPCDevCSR * AP, const PetscScalar *d, PetscReal omega, const GPUPCDevCSR *Pt, PetscInt *missing))

typedef GPUPC_KERNEL_TABLE(GPUPC_AMG_AGG_KERNEL_LIST) GPUPCAMGAggKernels;

/* member k of the list is GPUPC_AMG_AGG_KERNEL_<member> = k; its name is GPUPCAMGAggKernelNames[k] */
typedef enum {
  GPUPC_AMG_AGG_KERNEL_LIST(GPUPC_KERNEL_ENUM, GPUPC_AMG_AGG_KERNEL_)
  GPUPC_AMG_AGG_NKERNELS
} GPUPCAMGAggKernelIndex;
PETSC_EXTERN const char *const GPUPCAMGAggKernelNames[];

PETSC_INTERN const GPUPCAMGAggKernels GPUPCAMGAggKernelsHost;
#if defined(GPUPC_HAVE_CUDA)
PETSC_INTERN const GPUPCAMGAggKernels GPUPCAMGAggKernelsCUDA;
#endif

PETSC_EXTERN PetscErrorCode GPUPCGetAMGAggKernels(const GPUPCAMGAggKernels **);
PETSC_EXTERN PetscErrorCode GPUPCGetAMGAggKernelsFor(PetscGPUPCBackend, const GPUPCAMGAggKernels **);

#endif

/*
   gpupc/cmgsetupkernels.h - the kernels of PC cmg's setup on the device (-pc_cmg_setup device): one declaration, two
   implementations, GPUPCCMGSetupKernelsHost (src/pc/impls/cmg/host/cmgsetupkernels_host.c, the plain C reference)
   and GPUPCCMGSetupKernelsCUDA (src/pc/impls/cmg/cuda/cmgsetupkernels.cu). The driver is
   src/pc/impls/cmg/cmgsetupdevice.c; the sort-and-reduce of the Galerkin sums, the scans and the compactions are the
   shared ones of gpupc/sparsekernels.h.

   Conventions: every pointer is a device pointer (on the host backend, and for the host table that the tests run
   beside the CUDA one: host arrays); counts named *x are returned on the host. Members allocate only temporaries
   (CUDA: GPUPCMalloc) and free them before they return. Every member computes what the host setup
   (cmgreduce.c, cmgcluster.c, cmggalerkin.c) computes, in the same order where it adds floating point numbers, so
   both tables and the host setup agree bit for bit (docs/algorithms.md 2.5).
   Flags are PetscInt 0/1 arrays (what the compact member of gpupc/sparsekernels.h reads).
*/
#ifndef GPUPC_CMGSETUPKERNELS_H
#define GPUPC_CMGSETUPKERNELS_H

#include <gpupc/sparsekernels.h>

/* the reduction's tolerances and choices (from GPUPCCMGOptions), passed by value to the kernels */
typedef struct {
  PetscBool check_symmetry, doublecover, dirichlet_rows;
  PetscReal symmetry_tol, dominance_tol;
} GPUPCCMGReduceRule;

/* the ground row's diagonal is summed in chunks of this many entries (each chunk in order, then the chunk sums in
   order), on the host setup too, so that a device can sum the chunks in parallel and still agree bit for bit */
#define GPUPC_CMG_GROUND_CHUNK 1024
/* the clusters' largest height below their top vertex (cmgcluster.c: diameter <= 2 * 3 forest hops) */
#define GPUPC_CMG_MAX_HEIGHT 3

#define GPUPC_CMG_SETUP_KERNEL_LIST(X, A)                                                                                                                                                                                                                                          \
  /* isdir[i] = 1 when row i of A holds no nonzero off-diagonal (and rule->dirichlet_rows), else 0; *ndir on the host */                                                                                                                                                           \
  X(A, dirichlet_rows, DirichletRows, (const GPUPCDevCSR *A, const GPUPCCMGReduceRule *rule, PetscInt *isdir, PetscInt *ndir))                                                                                                                                                     \
  /* row checks of the reduction (cmgreduce.c CheckRow): bad[i] = 1 on a faulty row (a non-finite entry, asymmetric pair, positive \
     off-diagonal without the double cover, diagonal <= 0, not dominant), else 0; on a good row excess[i] = its weight \
     to the ground (0 on a Dirichlet row), dinv[i] = 1/a_ii on a Dirichlet row (else 0), strict[i] = 1 when a kept row \
     has excess > 0, len[i] = the entries of its level-0 rows (1 + off-diagonals outside Dirichlet columns + ground). \
     *nbad, *npos (positive off-diagonals), *nstrict on the host */                                                                                                                                               \
  X(A, check_rows, CheckRows,                                                                                                                                                                                                                                                      \
    (const GPUPCDevCSR *A, const GPUPCCMGReduceRule *rule, const PetscInt *isdir, PetscReal *excess, PetscReal *dinv, PetscInt *bad, PetscInt *strict, PetscInt *len, PetscInt *nbad, PetscInt *npos, PetscInt *nstrict))                                                          \
  /* the couplings E = A(kept rows, Dirichlet columns) that the cycle's expansion and fold read (cmgreduce.c \
     DirichletCouplings), first pass: erow[i+1] = the nonzero entries a_ij of row i with isdir[j] (0 on a Dirichlet \
     row i); erow[0] is not written (rowptr makes the row pointers) */                                                                                                                                                                     \
  X(A, coupling_count, CouplingCount, (const GPUPCDevCSR *A, const PetscInt *isdir, PetscInt *erow))                                                                                                                                                                               \
  /* second pass: those entries of row i in A's order into ecol, eval from erow[i] on */                                                                                                                                                                                           \
  X(A, coupling_fill, CouplingFill, (const GPUPCDevCSR *A, const PetscInt *isdir, const PetscInt *erow, PetscInt *ecol, PetscReal *eval))                                                                                                                                          \
  /* level-0 row lengths: rp[c nk + map[i] + 1] = len[i] for the kept rows i (map[i] >= 0) and copies c; when ground, \
     rp[copies nk + 1] = copies nstrict + 1 */                                                                                                                                                            \
  X(A, level0_count, Level0Count, (PetscInt n, const PetscInt *map, const PetscInt *len, PetscInt nk, PetscInt copies, PetscInt nstrict, PetscBool ground, PetscInt *rp))                                                                                                          \
  /* level-0 rows of the kept vertices (columns sorted): -|a_ij| towards copy c (a_ij < 0) or the other copy (a_ij > 0), \
     -excess to the ground, the diagonal = the sum of |a_ij| in row order plus the excess */                                                                                                                                                         \
  X(A, level0_fill, Level0Fill, (const GPUPCDevCSR *A, const PetscInt *isdir, const PetscReal *excess, const PetscInt *map, PetscInt nk, PetscInt copies, const PetscInt *rp, PetscInt *col, PetscReal *val))                                                                      \
  /* value-only reuse of level 0 (SAME_NONZERO_PATTERN), one pass over A's new values on the kept structure (map: -1 on \
     a Dirichlet row; rp, col: level 0): per row the Dirichlet test of dirichlet_rows, the checks and the excess[i], \
     dinv[i] of check_rows, and for a kept row the values of its level-0 rows as level0_fill writes them, into val \
     (the ground row is not written: ground_fill). *nchanged: rows whose level-0 structure these values would change \
     (Dirichlet or not, an entry zero or not, its sign, the ground entry); their val are then not written. *nbad, \
     *npos, *nstrict as check_rows */                                                                                                                                                          \
  X(A, level0_refill, Level0Refill,                                                                                                                                                                                                                                                \
    (const GPUPCDevCSR *A, const GPUPCCMGReduceRule *rule, const PetscInt *map, PetscInt nk, PetscInt copies, const PetscInt *rp, const PetscInt *col, PetscReal *excess, PetscReal *dinv, PetscReal *val, PetscInt *nbad, PetscInt *npos, PetscInt *nstrict, PetscInt *nchanged)) \
  /* the ground row g = copies nk: -excess[list[q]] at c nk + map[list[q]] for c < copies, q < nstrict, then its \
     diagonal (the sum of the excesses in chunks of GPUPC_CMG_GROUND_CHUNK entries) */                                                                                                                                                                 \
  X(A, ground_fill, GroundFill, (PetscInt nstrict, const PetscInt *list, const PetscReal *excess, const PetscInt *map, PetscInt nk, PetscInt copies, const PetscInt *rp, PetscInt *col, PetscReal *val, size_t *peak))                                                             \
  /* heaviest neighbour p[v] (ties: smallest column; none: v), its weight wmax[v] = -a_{v,p(v)}, vol[v] = a_vv; *nlight: \
     vertices with wmax < vol / 8 */                                                                                                                                                         \
  X(A, heaviest, Heaviest, (const GPUPCDevCSR *L, PetscInt *p, PetscReal *wmax, PetscReal *vol, PetscInt *nlight))                                                                                                                                                                 \
  /* weak vertices become roots: t(v) = the forest weight touching v, p[v] = v where t(v) < vol(v) / 8; *nweak */                                                                                                                                                                  \
  X(A, weak, Weak, (const GPUPCDevCSR *L, const PetscReal *wmax, const PetscReal *vol, PetscInt *p, PetscInt *nweak, size_t *peak))                                                                                                                                                \
  /* every 2-cycle u <-> v of p is cut at its smaller vertex */                                                                                                                                                                                                                    \
  X(A, cut_two_cycles, CutTwoCycles, (PetscInt n, PetscInt * p, size_t * peak))                                                                                                                                                                                                    \
  /* heights of the forest p by leaf climbing: h(v) = max over children d with h(d) < GPUPC_CMG_MAX_HEIGHT of h(d) + 1; \
     *done: vertices finished (< n when p has a longer cycle) */                                                                                                                                                          \
  X(A, heights, Heights, (PetscInt n, const PetscInt *p, PetscInt *h, PetscInt *done, size_t *peak))                                                                                                                                                                               \
  /* the clusters of the cut forest (cmgcluster.c steps 3-4): rep[v] = the smallest vertex of v's cluster, mark[v] = \
     (rep[v] == v) */                                                                                                                                                             \
  X(A, cluster_tops, ClusterTops, (const GPUPCDevCSR *L, const PetscInt *p, const PetscInt *h, const PetscReal *wmax, PetscInt *rep, PetscInt *mark, size_t *peak))                                                                                                                \
  /* cluster[v] = id[rep[v]]; *nsingle: clusters of one vertex, *maxsize: the largest cluster (nc clusters) */                                                                                                                                                                     \
  X(A, cluster_number, ClusterNumber, (PetscInt n, PetscInt nc, const PetscInt *rep, const PetscInt *id, PetscInt *cluster, PetscInt *nsingle, PetscInt *maxsize, size_t *peak))                                                                                                   \
  /* the Galerkin sum's triples, nc + nnz of them: triple C < nc is (C, C, 0) (the diagonal's place); fine entry e of \
     row v (cluster C) with column u in cluster D != C gives triple nc + e = (C, D, a_e); an entry inside a cluster a \
     dropped triple (row -1). ci, cj NULL: only the values */                                                                                                                                                            \
  X(A, galerkin_triples, GalerkinTriples, (const GPUPCDevCSR *L, const PetscInt *cluster, PetscInt nc, PetscInt *ci, PetscInt *cj, PetscReal *v))                                                                                                                                  \
  /* the diagonal of every row of the summed coarse level: minus its off-diagonal values, added in column order */                                                                                                                                                                 \
  X(A, galerkin_diagonal, GalerkinDiagonal, (GPUPCDevCSR * C))                                                                                                                                                                                                                     \
  /* the Jacobi weights of a level for the cycle (cmgdevice.c UploadValues): invd[i] = 1 / (2 a_ii) when the last stored \
     diagonal entry a_ii of row i is > 0, else 0 (an isolated vertex) */                                                                                                                                                         \
  X(A, smoother_weights, SmootherWeights, (const GPUPCDevCSR *L, PetscReal *invd))                                                                                                                                                                                                 \
  /* the dense grounded matrix of the last level (cmgcoarse.c): M (m x m, row-major) holds L's entries between vertices \
     of mask 1, added into zeros as the host's factor adds them, and the rows and columns of the identity at the \
     vertices of mask 0 (one grounded vertex per component) */                                                                                                                                                          \
  X(A, coarse_dense, CoarseDense, (const GPUPCDevCSR *L, const PetscReal *mask, PetscReal *M))                                                                                                                                                                                     \
  /* *count = the k < n with a[k] != b[k] */                                                                                                                                                                                                                                       \
  X(A, differ, Differ, (PetscInt n, const PetscInt *a, const PetscInt *b, PetscInt *count))

typedef GPUPC_KERNEL_TABLE(GPUPC_CMG_SETUP_KERNEL_LIST) GPUPCCMGSetupKernels;

typedef enum {
  GPUPC_CMG_SETUP_KERNEL_LIST(GPUPC_KERNEL_ENUM, GPUPC_CMG_SETUP_KERNEL_)
  GPUPC_CMG_SETUP_NKERNELS
} GPUPCCMGSetupKernelIndex;
PETSC_EXTERN const char *const GPUPCCMGSetupKernelNames[];

PETSC_INTERN const GPUPCCMGSetupKernels GPUPCCMGSetupKernelsHost;
#if defined(GPUPC_HAVE_CUDA)
PETSC_INTERN const GPUPCCMGSetupKernels GPUPCCMGSetupKernelsCUDA;
#endif
PETSC_EXTERN PetscErrorCode GPUPCGetCMGSetupKernels(const GPUPCCMGSetupKernels **);
PETSC_EXTERN PetscErrorCode GPUPCGetCMGSetupKernelsFor(PetscGPUPCBackend, const GPUPCCMGSetupKernels **);

#endif

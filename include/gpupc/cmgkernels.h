/*
   gpupc/cmgkernels.h - the kernels of the CMG cycle: one declaration, two implementations.

   GPUPCCMGKernels is declared once by GPUPC_CMG_KERNEL_LIST (gpupc/kerneltable.h).
   GPUPCCMGKernelsHost (src/pc/impls/cmg/host) is the plain C reference, GPUPCCMGKernelsCUDA
   (src/pc/impls/cmg/cuda) the CUDA version; GPUPCGetCMGKernels() picks by backend. All
   pointers are device pointers (on the host backend: the emulated device buffers). Level
   data and level vectors are double or float (GPUPCCMGPrecision); the user's vectors are
   always PetscScalar (double).
*/
#ifndef GPUPC_CMGKERNELS_H
#define GPUPC_CMGKERNELS_H

#include <gpupc/kerneltable.h>

/* the public PCCMGPrecision and PCCMGMatType (petscgpupc.h, with their string arrays PCCMGPrecisions and PCCMGMatTypes)
   under the names the CMG sources use: aliases, not separate types */
typedef PCCMGPrecision GPUPCCMGPrecision;
#define GPUPC_CMG_PRECISION_DOUBLE PC_CMG_PRECISION_DOUBLE
#define GPUPC_CMG_PRECISION_SINGLE PC_CMG_PRECISION_SINGLE
#define GPUPCCMGPrecisions         PCCMGPrecisions

typedef PCCMGMatType GPUPCCMGMatType;
#define GPUPC_CMG_MAT_CSR    PC_CMG_MAT_CSR
#define GPUPC_CMG_MAT_SEGCSR PC_CMG_MAT_SEGCSR
#define GPUPC_CMG_MAT_HEC    PC_CMG_MAT_HEC
#define GPUPC_CMG_MAT_BCSR   PC_CMG_MAT_BCSR
#define GPUPC_CMG_MAT_AUTO   PC_CMG_MAT_AUTO
#define GPUPCCMGMatTypes     PCCMGMatTypes

#define GPUPC_CMG_LONG_ROW 256
/* the CUDA cluster sums give a cluster of at most this many vertices one thread */
#define GPUPC_CMG_LONG_CLUSTER 32
/* threads per block of the CUDA CMG kernels */
#define GPUPC_CMG_BLOCK 256
/* the CUDA kernels split a long row into chunks of GPUPC_CMG_LONG_ROW_CHUNK entries, one thread block per chunk, whose
   threads each load their GPUPC_CMG_LONG_ROW_ILP entries before the previous kernel has finished; the parts of a row
   of several chunks are combined with atomicAdd (a row of one chunk needs none). A large cluster is split into chunks
   of GPUPC_CMG_LONG_CLUSTER_CHUNK vertices, one thread block per chunk, combined in the same way */
#define GPUPC_CMG_LONG_ROW_ILP       4
#define GPUPC_CMG_LONG_ROW_CHUNK     (GPUPC_CMG_BLOCK * GPUPC_CMG_LONG_ROW_ILP)
#define GPUPC_CMG_LONG_CLUSTER_CHUNK 256
/* vertices in a unit of the packed residual-restriction with g lanes per vertex: a warp's worth of vertices, or fewer
   when their groups of lanes would not fit one thread block */
#define GPUPC_CMG_UNIT_SLOTS(g) ((g)*32 <= GPUPC_CMG_BLOCK ? 32 : GPUPC_CMG_BLOCK / (g))

/* a level with at least this many stored entries (~12 MB per pass) is bound by bandwidth, a smaller one by the latency
   of its rows. It is the default of -pc_cmg_pack_nnz, which sets what the CUDA kernels do on either side
   (GPUPCCMGLanes and the residual-restriction of GPUPCCMGDeviceLevel); the H200 sweep of 1e6, 2e6, 3e6, 4e6 and 8e6 in
   bench/NOTES.md found 1e6 best or within 1% everywhere */
#define GPUPC_CMG_STREAM_NNZ 1000000
#define GPUPC_CMG_FUSE_NNZ   1000000

/* One level on the device. Scalars (val, invd, dense, b, x, w) are float when prec is single. */
typedef struct {
  GPUPCCMGPrecision prec;
  PetscInt          n, nnz;
  PetscInt         *rowptr, *col; /* level Laplacian, CSR */
  void             *val;
  PetscBool         borrowed; /* rowptr, col (and val when set) are the device setup's arrays (GPUPCCMGLevelFromDevice), not freed here */
  PetscBool         valborrowed;
  void             *invd;      /* 1 / (2 diag) */
  void             *b, *x, *w; /* right-hand side, iterate, second iterate buffer (Jacobi is out of place) */
  /* towards the next level */
  PetscInt  nc;
  PetscInt *cluster;      /* c(v), length n: prolongation gather */
  PetscInt *cptr, *cperm; /* vertices of cluster C: cperm[cptr[C] .. cptr[C+1]): restriction without atomics */
  PetscInt  t;
  /* last level */
  PetscBool direct; /* dense inverse (n x n, row-major, symmetric) or one Jacobi step */
  void     *dense;
  /* load balance of the CUDA kernels (the host kernels ignore these): rows with more than GPUPC_CMG_LONG_ROW
     entries (e.g. the ground vertex, tied to every strictly dominant row) are cut into chunks, a thread block each,
     inside the same launch as the rest; so are clusters with more than GPUPC_CMG_LONG_CLUSTER vertices in the
     cluster sums */
  PetscInt  nlong, nlongc;
  PetscInt *longrows; /* ascending */
  PetscInt *longclusters;
  void     *rlong;                      /* residual partial sums of the long rows (zero between kernels) */
  PetscInt *rcount;                     /* nlong: chunks of each long row finished in the running kernel (zero between kernels) */
  PetscInt  nrowchunks, nclusterchunks; /* thread blocks of the long rows and of the large clusters */
  PetscInt *rowchunk;                   /* nlong + 1: long row j is cut into chunks rowchunk[j] .. rowchunk[j+1) */
  PetscInt *clusterchunk;               /* nlongc + 1: the same for the large clusters */
  void     *lcacc;                      /* nlongc: partial sums of the large clusters of several chunks (zero between kernels) */
  PetscInt *lccount;                    /* nlongc: their chunks finished in the running kernel (zero between kernels) */
  /* lanes per row of the CUDA row kernels (GPUPCCMGLanes) */
  PetscInt lanes;
  /* latency-bound levels (fewer than -pc_cmg_pack_nnz entries): the CUDA residual-restriction is one launch over
     units of the cluster-sorted vertex list, GPUPC_CMG_UNIT_SLOTS(lanes) vertices each, a group of lanes per vertex:
     unit u takes the positions urange[2u] .. urange[2u+1) of cperm, whole clusters where they fit, a larger cluster
     split over units of its own (NULL, nunits 0: the residual by rows, then the cluster sums) */
  PetscInt  nunits;
  PetscInt *urange;
  /* clusters of a packed level summed by several contributions (split clusters, and those holding a long row: one
     contribution per chunk of the row) get a slot: the contributions are added into cacc and counted in ccount; the
     last of the cneed contributions writes the cluster sum and zeroes the slot again */
  PetscInt  nslots;
  PetscInt *cslot; /* nc: slot of cluster C, -1 when one unit sums it alone (NULL: no slots) */
  void     *cacc;
  PetscInt *ccount, *cneed;
  /* -pc_cmg_mat_type segcsr, hec, bcsr or auto (double only): -A_k in that format (a GPUPCDevMat, gpupc/devmat.h:
     the residual b - A_k x is its SpMV y = (-A_k) x + b) and a residual buffer r; with csr (mat NULL), r is the residual
     of the two-launch residual-restriction of a level without a packing (nunits 0) */
  struct _n_GPUPCDevMat *mat;
  void                  *r;
} GPUPCCMGDeviceLevel;

/* the next level's first Jacobi iterate, which the kernels that restrict into that level (or the expansion, into
   level 0) write together with its right-hand side bc: x = invd .* bc (invd: the next level's 1 / (2 diag)) */
typedef struct {
  const void *invd;
  void       *x;
} GPUPCCMGNextJacobi;

/* the map between the user's vectors and level 0 (see GPUPCCMGReduction in gpupc/cmg.h) */
typedef struct {
  GPUPCCMGPrecision  prec;
  PetscInt           n, nk, copies, n0;
  PetscBool          ground;
  PetscInt          *map;         /* length n: row -> kept index or -1 (Dirichlet row); NULL: identity (nk == n) */
  PetscScalar       *dinv;        /* length n: 1/a_ii on Dirichlet rows; NULL when map is NULL */
  PetscScalar       *sum;         /* one device scalar: sum of b over the kept rows (ground right-hand side); zero between applications */
  PetscInt          *done;        /* one device counter: blocks of the CUDA expansion finished (zero between applications) */
  PetscInt          *erow, *ecol; /* E = A(kept, Dirichlet) by user row, NULL when empty */
  PetscScalar       *eval;
  PetscInt          *trow, *tcol; /* E^T by user row */
  PetscScalar       *tval;
  GPUPCCMGNextJacobi first; /* with first.x the expansion also writes level 0's first Jacobi iterate (the plan then has
                               no Jacobi step of its own on level 0); first.x NULL: b0 only */
} GPUPCCMGDeviceFold;

/* The table, one line per kernel: X(A, member, Stem, (parameters)) (gpupc/kerneltable.h); the host
   implementation of a member is Stem_Host (src/pc/impls/cmg/host), the CUDA one Stem_CUDA
   (src/pc/impls/cmg/cuda). */
#define GPUPC_CMG_KERNEL_LIST(X, A)                                                                                                    \
  /* kept rows: b'_i = b_i - sum_j E_ij dinv_j b_j (transpose: b'_i = b_i); \
     b0[c nk + map[i]] = s_c b'_i (c < copies); ground: -(copies == 1 ? sum of b' : 0); with F->first.x also \
     first.x = first.invd .* b0 (in the level precision) */                                                          \
  X(A, expand, Expand, (const GPUPCCMGDeviceFold *F, PetscBool transpose, const PetscScalar *b, void *b0))                             \
  /* kept rows: x_i = y_i = (1/copies) sum_c s_c (x0[c nk + map[i]] - x0[g]) (x0[g] = 0 without ground); \
     Dirichlet rows: x_j = dinv_j b_j (transpose: x_j = dinv_j (b_j - sum_i E_ij y_i)) */                             \
  X(A, fold, Fold, (const GPUPCCMGDeviceFold *F, PetscBool transpose, const PetscScalar *b, const void *x0, PetscScalar *x))           \
  /* L->x = invd .* L->b */                                                                                                            \
  X(A, jacobi, Jacobi, (const GPUPCCMGDeviceLevel *L))                                                                                 \
  /* xout = x + invd .* (L->b - A x), xout != xin (fused residual and smoothing) with x = xin, or, when xc is given \
     (the next level's iterate), x = xin + xc[c(.)] (the prolongation fused in: x is read on the fly, xin unchanged) */                  \
  X(A, smooth, Smooth, (const GPUPCCMGDeviceLevel *L, const void *xin, const void *xc, void *xout))                                    \
  /* bc[C] = sum_{v in C} (L->b - A x)_v (fused residual and restriction over the cluster-sorted vertex list) with \
     x = L->x, or, when first, x = invd .* L->b, which is also stored in L->x (the first Jacobi step of a level \
     iteration fused in); with next (may be NULL) also next->x = next->invd .* bc */                   \
  X(A, residual_restrict, ResidualRestrict, (const GPUPCCMGDeviceLevel *L, PetscBool first, void *bc, const GPUPCCMGNextJacobi *next)) \
  /* L->x[v] += xc[c(v)] */                                                                                                            \
  X(A, prolong, Prolong, (const GPUPCCMGDeviceLevel *L, const void *xc))                                                               \
  /* L->x = dense * L->b (last level) */                                                                                               \
  X(A, dense_solve, DenseSolve, (const GPUPCCMGDeviceLevel *L))                                                                        \
  /* with a level matrix of another format that gave the residual r = b - A x: */                                                      \
  /* xout = xin + invd .* r */                                                                                                         \
  X(A, update, Update, (const GPUPCCMGDeviceLevel *L, const void *r, const void *xin, void *xout))                                     \
  /* bc[C] = sum_{v in C} r_v (cluster-sorted, no atomics); with next (may be NULL) also next->x = next->invd .* bc */                 \
  X(A, cluster_sum, ClusterSum, (const GPUPCCMGDeviceLevel *L, const void *r, void *bc, const GPUPCCMGNextJacobi *next))               \
  /* y[i] = x[i] rounded to float, i < n: a double-precision result into a single-precision level (the last level's \
     inverse factored on the device) */                  \
  X(A, demote, Demote, (PetscInt64 n, const PetscReal *x, float *y))

typedef GPUPC_KERNEL_TABLE(GPUPC_CMG_KERNEL_LIST) GPUPCCMGKernels;

/* member k of the list is GPUPC_CMG_KERNEL_<member> = k; its name is GPUPCCMGKernelNames[k] */
typedef enum {
  GPUPC_CMG_KERNEL_LIST(GPUPC_KERNEL_ENUM, GPUPC_CMG_KERNEL_)
  GPUPC_CMG_NKERNELS
} GPUPCCMGKernelIndex;
PETSC_EXTERN const char *const GPUPCCMGKernelNames[];

PETSC_INTERN const GPUPCCMGKernels GPUPCCMGKernelsHost;
#if defined(GPUPC_HAVE_CUDA)
PETSC_INTERN const GPUPCCMGKernels GPUPCCMGKernelsCUDA;
#endif

PETSC_EXTERN PetscErrorCode GPUPCGetCMGKernels(const GPUPCCMGKernels **);
PETSC_EXTERN PetscErrorCode GPUPCGetCMGKernelsFor(PetscGPUPCBackend, const GPUPCCMGKernels **);
PETSC_INTERN PetscInt       GPUPCCMGLanes(PetscInt, PetscInt, PetscInt);

#endif

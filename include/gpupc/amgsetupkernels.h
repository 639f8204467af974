/*
   gpupc/amgsetupkernels.h - the kernels of PC gpuamg's device setup (one rank): one declaration, two implementations.

   GPUPCAMGSetupKernels is declared once by GPUPC_AMG_SETUP_KERNEL_LIST (gpupc/kerneltable.h).
   GPUPCAMGSetupKernelsHost (src/pc/impls/gpuamg/host) is the plain C reference, GPUPCAMGSetupKernelsCUDA
   (src/pc/impls/gpuamg/cuda) the CUDA version; GPUPCGetAMGSetupKernels() picks by backend. All arrays are device
   arrays of the table's world (on the host backend: host arrays); outputs are allocated by the caller. The per-row
   arithmetic of both tables is one code, src/pc/impls/gpuamg/amgdevrows.h, written to give the host setup's rows
   (amgsetupstrength.c, amgsetupcoarsen.c, amgsetupinterp.c) on one rank: the same strength graph, the same PMIS splitting
   (the measures' random part is GPUPCAMGRandom of gpupc/amghash.h on both sides) and the same interpolation rows,
   summed in the same order (on the CUDA table up to the rounding of fused multiply-adds).

   The matrices are GPUPCDevCSR (gpupc/sparsekernels.h): A the level matrix (diagonal stored), S the strength graph
   (a pattern: j influences i strongly), ST its transpose. d is A's diagonal (the sparse table's diagonal member).
*/
#ifndef GPUPC_AMGSETUPKERNELS_H
#define GPUPC_AMGSETUPKERNELS_H

#include <gpupc/sparsekernels.h>
#include <gpupc/amghash.h>

/* C/F states of a point */
#define GPUPC_AMG_F (-1)
#define GPUPC_AMG_U 0
#define GPUPC_AMG_C 1

/* interpolations of the device setup (the values of PCGPUAMGInterpType they stand for, checked in amgdev.c) */
#define GPUPC_AMG_DEV_DIRECT   0
#define GPUPC_AMG_DEV_STANDARD 1
#define GPUPC_AMG_DEV_EXTI     2

/* hmis on the device: the default rows of a subdomain of its Ruge-Stueben first pass (PCGPUAMGSetHMISSubdomain).
   Larger subdomains give coarse grids nearer the host setup's hmis (randcoef3d 80^3, operator complexity: 256 rows
   3.73, 4096 3.50, 16384 3.20, host 3.04; the same CG iterations), and cost more: the CUDA block kernel's picks are
   sequential within a subdomain, and 4096 rows take 32 kB of shared memory a block (bench/NOTES.md 2026-11-29e) */
#define GPUPC_AMG_HMIS_SUBDOMAIN 4096

/* Developers' tuning of the CUDA table's ext+i rows (PCGPUAMGSetInterpTuning(), -pc_gpuamg_dev_interp_*): which rows
   take a warp and the hash tables of the warp passes (src/pc/impls/gpuamg/cuda/amgsetupkernels.cu says why the
   defaults). The host table ignores it: its rows are one loop whatever the shape. */
typedef struct {
  PetscInt small_level;    /* levels of fewer rows: every ext+i F row takes a warp (default 500000) */
  PetscInt long_row;       /* >= 0: on every level, rows of more candidates take a warp; < 0 (default): by small_level */
  PetscInt long_slots;     /* hash slots of the first warp pass: a power of 2 from 64 (default 256) */
  PetscInt long_slots_big; /* of the last pass: a power of 2 from 64 to 8192 (default 8192) */
} GPUPCAMGInterpTuning;

PETSC_EXTERN PetscErrorCode GPUPCAMGInterpTuningDefault(GPUPCAMGInterpTuning *);
PETSC_EXTERN PetscErrorCode GPUPCAMGInterpTuningCheck(MPI_Comm, const GPUPCAMGInterpTuning *);

/* swaps the (column, value) pairs a and b (host setup and device-setup rows) */
static inline GPUPC_AMG_HD void GPUPCAMGSwapPairs(PetscInt *cols, PetscReal *vals, PetscInt a, PetscInt b)
{
  PetscInt  c = cols[a];
  PetscReal v = vals[a];
  cols[a]     = cols[b];
  vals[a]     = vals[b];
  cols[b]     = c;
  vals[b]     = v;
}

/* The table, one line per kernel: X(A, member, Stem, (parameters)) (gpupc/kerneltable.h); the host implementation of a
   member is Stem_Host (src/pc/impls/gpuamg/host), the CUDA one Stem_CUDA (src/pc/impls/gpuamg/cuda). */
#define GPUPC_AMG_SETUP_KERNEL_LIST(X, A)                                                                                                                                                                                                                                                       \
  /* *row (host) = the first r < n with d[r] == 0, or -1 */                                                                                                                                                                                                                                     \
  X(A, diag_zero, AMGDiagZero, (PetscInt n, const PetscScalar *d, PetscInt *row))                                                                                                                                                                                                               \
  /* classical strength, first pass: Si[r+1] = the points j != r with -s a_rj >= theta max_k(-s a_rk) > 0, s = sign(a_rr) \
     (rows without such negative couplings: |a_rj| >= theta max_k |a_rk| > 0); Si[0] is not written (rowptr) */                                                                                                                                                                     \
  X(A, strength_count, AMGStrengthCount, (const GPUPCDevCSR *A, const PetscScalar *d, PetscReal theta, PetscInt *Si))                                                                                                                                                                           \
  /* second pass: S->j (S->i from the first pass), in A's column order */                                                                                                                                                                                                                       \
  X(A, strength_fill, AMGStrengthFill, (const GPUPCDevCSR *A, const PetscScalar *d, PetscReal theta, GPUPCDevCSR *S))                                                                                                                                                                           \
  /* PMIS start: w[i] = |ST row i| + GPUPCAMGRandom(rstart + i); cf[i] = F for points that influence none, U otherwise; \
     *left (host) = the U points */                                                                                                                                                                       \
  X(A, pmis_init, AMGPMISInit, (const GPUPCDevCSR *S, const GPUPCDevCSR *ST, PetscInt rstart, PetscReal *w, PetscInt *cf, PetscInt *left))                                                                                                                                                      \
  /* mark[i] = 1 for the U points whose w beats every U neighbour's in S and ST (ties: the larger index), else 0 */                                                                                                                                                                             \
  X(A, pmis_select, AMGPMISSelect, (const GPUPCDevCSR *S, const GPUPCDevCSR *ST, const PetscReal *w, const PetscInt *cf, char *mark))                                                                                                                                                           \
  /* mark[i] = 1 for the U points that depend strongly on a C point, else 0 */                                                                                                                                                                                                                  \
  X(A, pmis_depend, AMGPMISDepend, (const GPUPCDevCSR *S, const PetscInt *cf, char *mark))                                                                                                                                                                                                      \
  /* cf[i] = value where mark[i]; *left (host) = the U points after that */                                                                                                                                                                                                                     \
  X(A, pmis_set, AMGPMISSet, (PetscInt n, const char *mark, PetscInt value, PetscInt *cf, PetscInt *left))                                                                                                                                                                                      \
  /* HMIS first stage: Ruge-Stueben's first pass (largest measure first, ties: the smaller index; the host setup's \
     amgsetupcoarsen.c) inside each subdomain of B consecutive points, on the strong couplings between its points; \
     cf[i] = C or F, or U for the points without such couplings; lambda: scratch of n entries */                                                                                                                                                                            \
  X(A, hmis_first, AMGHMISFirst, (const GPUPCDevCSR *S, const GPUPCDevCSR *ST, PetscInt B, PetscInt *lambda, PetscInt *cf))                                                                                                                                                                     \
  /* HMIS second stage start: w[i] = |ST row i| + GPUPCAMGRandom(rstart + i) (pmis_init's measure); the U points that \
     influence none become F, the others keep their states; *left (host) = the U points */                                                                                                                                                                         \
  X(A, hmis_init, AMGHMISInit, (const GPUPCDevCSR *S, const GPUPCDevCSR *ST, PetscInt rstart, PetscReal *w, PetscInt *cf, PetscInt *left))                                                                                                                                                      \
  /* interpolation, first pass: Bi[i+1] = the buffer entries of row i: a bound of its entries before truncation (type \
     GPUPC_AMG_DEV_*), at most tmax for a short row formed in scratch (GPUPCAMGDevInterpCapacity); Bi[0] not written; \
     tune: the CUDA table's ext+i tuning (the host table ignores it) */                                                                                                                                                                         \
  X(A, interp_bound, AMGInterpBound, (const GPUPCDevCSR *A, const GPUPCDevCSR *S, const PetscInt *cf, PetscInt type, PetscInt tmax, const GPUPCAMGInterpTuning *tune, PetscInt *Bi))                                                                                                            \
  /* second pass: row i of P (fine point columns) in bcols, bvals [Bi[i], Bi[i+1]) truncated to tmax entries and by tfac \
     (0: no truncation) with its sum kept; Pi[i+1] = its length (Pi[0] is not written); bidx: scratch like bcols; \
     tune: the same as interp_bound's (the rows that take a warp there have their whole bound) */                                                                                                                                                                      \
  X(A, interp_rows, AMGInterpRows, (const GPUPCDevCSR *A, const PetscScalar *d, const GPUPCDevCSR *S, const PetscInt *cf, PetscInt type, PetscInt tmax, PetscReal tfac, const GPUPCAMGInterpTuning *tune, const PetscInt *Bi, PetscInt *bcols, PetscReal *bvals, PetscInt *bidx, PetscInt *Pi)) \
  /* third pass: P's rows (P->i from the counts and rowptr) from the buffer, columns cmap[fine point] sorted in each row */                                                                                                                                                                     \
  X(A, interp_gather, AMGInterpGather, (PetscInt n, const PetscInt *Bi, const PetscInt *bcols, const PetscReal *bvals, const PetscInt *cmap, GPUPCDevCSR *P))

typedef GPUPC_KERNEL_TABLE(GPUPC_AMG_SETUP_KERNEL_LIST) GPUPCAMGSetupKernels;

/* member k of the list is GPUPC_AMG_SETUP_KERNEL_<member> = k; its name is GPUPCAMGSetupKernelNames[k] */
typedef enum {
  GPUPC_AMG_SETUP_KERNEL_LIST(GPUPC_KERNEL_ENUM, GPUPC_AMG_SETUP_KERNEL_)
  GPUPC_AMG_SETUP_NKERNELS
} GPUPCAMGSetupKernelIndex;
PETSC_EXTERN const char *const GPUPCAMGSetupKernelNames[];

PETSC_INTERN const GPUPCAMGSetupKernels GPUPCAMGSetupKernelsHost;
#if defined(GPUPC_HAVE_CUDA)
PETSC_INTERN const GPUPCAMGSetupKernels GPUPCAMGSetupKernelsCUDA;
#endif

PETSC_EXTERN PetscErrorCode GPUPCGetAMGSetupKernels(const GPUPCAMGSetupKernels **);
PETSC_EXTERN PetscErrorCode GPUPCGetAMGSetupKernelsFor(PetscGPUPCBackend, const GPUPCAMGSetupKernels **);

#endif

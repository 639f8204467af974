/*
   gpupc/amgaggrkernels.h - the kernels of PC gpuamg's aggressive coarsening and multipass interpolation on the device
   (one rank; private to GPUPC and its tests).

   Aggressive coarsening (the host setup's GPUPCAMGCoarsenAggressive): the C points of a first PMIS splitting are
   coarsened again by PMIS on the distance-two strength graph S2 among them (c -> d when d is a strong C neighbour of c
   or a strong C neighbour of a strong F neighbour of c); a C point that S2's PMIS makes F becomes F, unless it has no C
   point within distance two. Multipass interpolation (the host setup's InterpMultipass): every F point gets a pass
   number in rounds (pass 1: a strong C neighbour; pass p: a strong neighbour of an earlier pass); the rows of pass p
   are direct interpolation to the strong neighbours of earlier passes, multiplied out through those neighbours' rows
   of P, then truncated.

   GPUPCAMGAggrKernels is declared once by GPUPC_AMG_AGGR_KERNEL_LIST (gpupc/kerneltable.h). GPUPCAMGAggrKernelsHost
   (src/pc/impls/gpuamg/host) is the plain C reference, GPUPCAMGAggrKernelsCUDA (src/pc/impls/gpuamg/cuda) the CUDA
   version; both run the per-row code of src/pc/impls/gpuamg/amgaggressiverows.h (one thread per row), written to give
   the host setup's S2 rows (as sets; here sorted), its splitting, and its multipass rows bit for bit: the same
   operations in the same order, every product rounded before its add (never fused) on the CUDA table too.

   Arrays are device arrays of the table's world (host arrays for the host table); outputs are allocated by the caller.
   Counts marked "(host)" come back to the host. S is the level's strength graph (a pattern, rows sorted), A the level
   matrix (diagonal stored), cf the C/F states (gpupc/amgsetupkernels.h), cpts the nc C points ascending and cidx their
   numbers (-1 for F points: the sparse table's compact member gives both).
*/
#ifndef GPUPC_AMGAGGRKERNELS_H
#define GPUPC_AMGAGGRKERNELS_H

#include <gpupc/amgsetupkernels.h>

/* The table, one line per kernel: X(A, member, Stem, (parameters)) (gpupc/kerneltable.h); the host implementation of a
   member is Stem_Host, the CUDA one Stem_CUDA. */
#define GPUPC_AMG_AGGR_KERNEL_LIST(X, A)                                                                                                                                                                                                                                                                                                                           \
  /* S2, first pass: Bi[q+1] = the buffer entries of C point cpts[q]: its candidates with repeats (1 per strong C \
     neighbour, the strong neighbours of each strong F neighbour) when they are more than GPUPC_AMG_DEV_ROWCAP, else 0 \
     (a short row is formed in the thread's own arrays), q < nc; Bi[0] is not written (rowptr) */                                                                                                                                                                                                                                                \
  X(A, s2_bound, AMGAggrS2Bound, (const GPUPCDevCSR *S, const PetscInt *cf, PetscInt nc, const PetscInt *cpts, PetscInt *Bi))                                                                                                                                                                                                                                      \
  /* second pass: S2i[q+1] = the distinct C points (not cpts[q] itself) among the candidates; a row with a buffer leaves \
     them ascending in bidx[Bi[q] ..) (bcand: scratch like bidx); S2i[0] is not written */                                                                                                                                                                                                                                         \
  X(A, s2_count, AMGAggrS2Count, (const GPUPCDevCSR *S, const PetscInt *cf, PetscInt nc, const PetscInt *cpts, const PetscInt *Bi, PetscInt *bcand, PetscInt *bidx, PetscInt *S2i))                                                                                                                                                                                \
  /* third pass: S2->j (S2->i from the counts and rowptr) = cidx of the points of each row, ascending (from bidx, or \
     formed again for a row without a buffer) */                                                                                                                                                                                                                                             \
  X(A, s2_fill, AMGAggrS2Fill, (const GPUPCDevCSR *S, const PetscInt *cf, PetscInt nc, const PetscInt *cpts, const PetscInt *Bi, const PetscInt *bidx, const PetscInt *cidx, GPUPCDevCSR *S2))                                                                                                                                                                     \
  /* the second stage's result: cf[cpts[q]] = GPUPC_AMG_F where cf2[q] is not GPUPC_AMG_C and q has a neighbour in S2 or \
     S2T (the transpose) */                                                                                                                                                                                                                                         \
  X(A, s2_apply, AMGAggrS2Apply, (const GPUPCDevCSR *S2, const GPUPCDevCSR *S2T, const PetscInt *cf2, const PetscInt *cpts, PetscInt *cf))                                                                                                                                                                                                                         \
  /* multipass start: a C point i gets pass[i] = 0 and its row of P (fine column i, value 1) at place cidx[i] of the \
     store sc, sv (rs[i] = cidx[i], rl[i] = 1); an F point pass[i] = -1, rs[i] = rl[i] = 0 */                                                                                                                                                                                                                                             \
  X(A, mp_init, AMGAggrMPInit, (PetscInt n, const PetscInt *cf, const PetscInt *cidx, PetscInt *pass, PetscInt *rs, PetscInt *rl, PetscInt *sc, PetscReal *sv))                                                                                                                                                                                                    \
  /* round p >= 1: the points without a pass that depend strongly on a point of an earlier pass get pass[i] = p; \
     *count (host) = how many */                                                                                                                                                                                                                                                 \
  X(A, mp_round, AMGAggrMPRound, (const GPUPCDevCSR *S, PetscInt p, PetscInt *pass, PetscInt *count))                                                                                                                                                                                                                                                              \
  /* earlier[i] = GPUPC_AMG_C for the points of a pass below p (C points included), GPUPC_AMG_F for the others: the \
     interpolatory points of the rows of pass p */                                                                                                                                                                                                                                              \
  X(A, mp_earlier, AMGAggrMPEarlier, (PetscInt n, const PetscInt *pass, PetscInt p, PetscInt *earlier))                                                                                                                                                                                                                                                            \
  /* rows of pass p, first pass: Bi[i+1] = the buffer entries of row i: its bound (its entries in A, then the entries \
     rl[j] of the rows of P of its interpolatory points j), at most tmax for a row formed in the thread's own arrays \
     (GPUPCAMGDevInterpCapacity), 0 for rows of other passes; Bi[0] is not written */                                                                                                                                                                                                                                            \
  X(A, mp_bound, AMGAggrMPBound, (const GPUPCDevCSR *A, const GPUPCDevCSR *S, const PetscInt *pass, PetscInt p, const PetscInt *earlier, const PetscInt *rl, PetscInt tmax, PetscInt *Bi))                                                                                                                                                                         \
  /* second pass: row i of pass p (direct weights to its interpolatory points times their rows rs, rl in the store sc, \
     sv; truncated to tmax entries and by tfac, rescaled by the row sum) at the start of its buffer bcols, bvals \
     [Bi[i], Bi[i+1]) (bidx: scratch too); Ci[i+1] = its length, 0 for rows of other passes; Ci[0] is not written */                                                                                                                                                                                                                                           \
  X(A, mp_rows, AMGAggrMPRows, (const GPUPCDevCSR *A, const PetscScalar *d, const GPUPCDevCSR *S, const PetscInt *pass, PetscInt p, const PetscInt *earlier, const PetscInt *rs, const PetscInt *rl, const PetscInt *sc, const PetscReal *sv, PetscInt tmax, PetscReal tfac, const PetscInt *Bi, PetscInt *bcols, PetscReal *bvals, PetscInt *bidx, PetscInt *Ci)) \
  /* third pass: the rows of pass p appended to the store: row i (Ci from the lengths and rowptr) to sc, sv at base + \
     Ci[i]; rs[i] = base + Ci[i], rl[i] = its length */                                                                                                                                                                                                                                            \
  X(A, mp_append, AMGAggrMPAppend, (PetscInt n, const PetscInt *pass, PetscInt p, const PetscInt *Bi, const PetscInt *bcols, const PetscReal *bvals, const PetscInt *Ci, PetscInt base, PetscInt *rs, PetscInt *rl, PetscInt *sc, PetscReal *sv))

typedef GPUPC_KERNEL_TABLE(GPUPC_AMG_AGGR_KERNEL_LIST) GPUPCAMGAggrKernels;

/* member k of the list is GPUPC_AMG_AGGR_KERNEL_<member> = k; its name is GPUPCAMGAggrKernelNames[k] */
typedef enum {
  GPUPC_AMG_AGGR_KERNEL_LIST(GPUPC_KERNEL_ENUM, GPUPC_AMG_AGGR_KERNEL_)
  GPUPC_AMG_AGGR_NKERNELS
} GPUPCAMGAggrKernelIndex;
PETSC_EXTERN const char *const GPUPCAMGAggrKernelNames[];

PETSC_INTERN const GPUPCAMGAggrKernels GPUPCAMGAggrKernelsHost;
#if defined(GPUPC_HAVE_CUDA)
PETSC_INTERN const GPUPCAMGAggrKernels GPUPCAMGAggrKernelsCUDA;
#endif

PETSC_EXTERN PetscErrorCode GPUPCGetAMGAggrKernels(const GPUPCAMGAggrKernels **);
PETSC_EXTERN PetscErrorCode GPUPCGetAMGAggrKernelsFor(PetscGPUPCBackend, const GPUPCAMGAggrKernels **);

/* the steps of the device setup built on the table (src/pc/impls/gpuamg/amgsetupdeviceaggr.c) */
PETSC_EXTERN PetscErrorCode GPUPCAMGDevStrength2(const GPUPCAMGAggrKernels *, const GPUPCSparseKernels *, const GPUPCDevCSR *, const PetscInt *, PetscInt, const PetscInt *, const PetscInt *, GPUPCDevCSR *, GPUPCDevCSR *);
PETSC_EXTERN PetscErrorCode GPUPCAMGDevCoarsenAggressive(const GPUPCAMGSetupKernels *, const GPUPCAMGAggrKernels *, const GPUPCSparseKernels *, const GPUPCDevCSR *, PetscInt *);
PETSC_EXTERN PetscErrorCode GPUPCAMGDevInterpMultipass(const GPUPCAMGSetupKernels *, const GPUPCAMGAggrKernels *, const GPUPCSparseKernels *, const GPUPCDevCSR *, const PetscScalar *, const GPUPCDevCSR *, const PetscInt *, const PetscInt *, PetscInt, PetscInt, PetscReal, PetscInt *, GPUPCDevCSR *);

#endif

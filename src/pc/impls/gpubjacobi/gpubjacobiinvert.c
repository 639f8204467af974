/*
   PC gpubjacobi: the host side of the setup. The diagonal blocks of a rank's local rows are read from the matrix's
   local diagonal block (the matrix itself on one rank, MatGetDiagonalBlock on several), row by row with MatGetRow, so
   every AIJ-family type works (aij, segcsr; tested), then each block is inverted by LU with partial pivoting (PA = LU, then the inverse column by
   column from L and U), the blocks split over OpenMP threads. The inverses go straight into the device layout of
   gpupc/gpubjacobikernels.h (inv[j ld + r] = (B_k^-1)(i, j) for row r = k bs + i).

   Why not LAPACK getrf/getri per block: a call costs about as much as the arithmetic of a block of 8 rows or fewer,
   and block sizes 1-7 are the common case (one block per mesh node), so the few lines of elimination below are
   several times faster there and the same method (LU with partial pivoting) everywhere.

   A block is singular when it holds a NaN or an infinity, or when a pivot of its elimination is at most
   bs * eps * max |B_k(i, j)| in magnitude: its inverse would then be made of rounding errors. The error is raised on
   every rank (the setup is collective) and names the first such block: its global rows, its index on its rank, the
   pivot, and the fixes.
*/
#include <gpupc/gpubjacobi.h>

typedef enum {
  PBJ_OK,
  PBJ_ZERO_PIVOT,
  PBJ_NONFINITE
} PBJStatus;

/* the inverse of the row-major m x m block a (overwritten by its LU factors) into column-major storage with leading
   dimension ld: out[c ld + i] = A^-1(i, c); piv is work of m entries. Returns PBJ_OK, or the reason it is singular
   with the elimination step in *step and the pivot in *pivot. Calls no PETSc function (OpenMP threads run it). */
static PBJStatus InvertBlock(PetscInt m, PetscScalar *a, PetscInt *piv, PetscInt ld, PetscScalar *out, PetscInt *step, PetscReal *pivot)
{
  PetscReal amax = 0.0, tol;

  for (PetscInt k = 0; k < m * m; k++) {
    if (PetscIsInfOrNanReal(a[k])) {
      *step  = k;
      *pivot = a[k];
      return PBJ_NONFINITE;
    }
    amax = PetscMax(amax, PetscAbsScalar(a[k]));
  }
  tol = (PetscReal)m * PETSC_MACHINE_EPSILON * amax;
  /* PA = LU: L unit lower (below the diagonal), U upper; piv[k] = the row of A that is row k of PA */
  for (PetscInt k = 0; k < m; k++) piv[k] = k;
  for (PetscInt k = 0; k < m; k++) {
    PetscInt  p    = k;
    PetscReal best = PetscAbsScalar(a[k * m + k]);
    for (PetscInt i = k + 1; i < m; i++)
      if (PetscAbsScalar(a[i * m + k]) > best) best = PetscAbsScalar(a[i * m + k]), p = i;
    if (!(best > tol)) {
      *step  = k;
      *pivot = best;
      return PBJ_ZERO_PIVOT;
    }
    if (p != k) {
      PetscInt t = piv[k];
      piv[k]     = piv[p];
      piv[p]     = t;
      for (PetscInt j = 0; j < m; j++) {
        PetscScalar s = a[k * m + j];
        a[k * m + j]  = a[p * m + j];
        a[p * m + j]  = s;
      }
    }
    for (PetscInt i = k + 1; i < m; i++) {
      const PetscScalar l = a[i * m + k] / a[k * m + k];
      a[i * m + k]        = l;
      for (PetscInt j = k + 1; j < m; j++) a[i * m + j] -= l * a[k * m + j];
    }
  }
  /* column c of the inverse solves A x = e_c, i.e. L U x = P e_c: (P e_c)_i = 1 where piv[i] = c */
  for (PetscInt c = 0; c < m; c++) {
    PetscScalar *x = out + (size_t)c * ld;
    for (PetscInt i = 0; i < m; i++) {
      PetscScalar s = piv[i] == c ? 1.0 : 0.0;
      for (PetscInt j = 0; j < i; j++) s -= a[i * m + j] * x[j];
      x[i] = s;
    }
    for (PetscInt i = m - 1; i >= 0; i--) {
      PetscScalar s = x[i];
      for (PetscInt j = i + 1; j < m; j++) s -= a[i * m + j] * x[j];
      x[i] = s / a[i * m + i];
    }
  }
  return PBJ_OK;
}

/* the dense diagonal blocks k0 .. k1-1 of the n local rows of Ad, row-major, block k at blocks + (k - k0) bs^2 (zeroed
   by the caller; a partial last block of m rows uses its first m^2 entries); entries outside the blocks are skipped */
static PetscErrorCode GatherBlocks(Mat Ad, PetscInt n, PetscInt bs, PetscInt k0, PetscInt k1, PetscScalar *blocks)
{
  PetscFunctionBegin;
  for (PetscInt r = k0 * bs; r < PetscMin(n, k1 * bs); r++) {
    const PetscInt     k = r / bs, c0 = k * bs, m = PetscMin(bs, n - c0), i = r - c0;
    PetscScalar       *row = blocks + (size_t)(k - k0) * bs * bs + (size_t)i * m;
    PetscInt           nc;
    const PetscInt    *cols;
    const PetscScalar *vals;

    PetscCall(MatGetRow(Ad, r, &nc, &cols, &vals));
    for (PetscInt e = 0; e < nc; e++)
      if (cols[e] >= c0 && cols[e] < c0 + m) row[cols[e] - c0] += vals[e];
    PetscCall(MatRestoreRow(Ad, r, &nc, &cols, &vals));
  }
  PetscFunctionReturn(0);
}

/*@C
   GPUPCPBJInvertBlocks - the inverses of the diagonal blocks of a rank's local rows, in the device layout

   Collective on pmat

   Input Parameters:
+  pmat    - the matrix (square local diagonal block; blocks never cross ranks)
.  bs      - block size (1 .. GPUPC_PBJ_MAX_BS); the last block has fewer rows when bs does not divide the local rows
.  ld      - leading dimension of inv (at least the local rows)
-  threads - host threads (OpenMP) that invert the blocks

   Output Parameter:
.  inv - ld * bs entries (host memory, zeroed by the caller): inv[j ld + r] = (B_k^-1)(i, j) for local row r = k bs + i

   Notes:
   A singular block (see the file's comment) is an error on every rank of pmat, naming the block.

   Level: developer

.seealso: PCGPUBJACOBI, GPUPCPBJBlocks
@*/
PetscErrorCode GPUPCPBJInvertBlocks(Mat pmat, PetscInt bs, PetscInt ld, PetscInt threads, PetscScalar *inv)
{
  MPI_Comm     comm = PetscObjectComm((PetscObject)pmat);
  Mat          Ad;
  PetscInt     n, rstart, nblocks, firstbad, bad, badall;
  PetscScalar *blocks;
  PetscMPIInt  rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(MatGetLocalSize(pmat, &n, NULL));
  PetscCall(MatGetOwnershipRange(pmat, &rstart, NULL));
  { /* one rank: the matrix itself (MatGetDiagonalBlock of some sequential types, e.g. seqdense, is not the matrix) */
    PetscMPIInt size;
    PetscCallMPI(MPI_Comm_size(comm, &size));
    if (size == 1) Ad = pmat;
    else PetscCall(MatGetDiagonalBlock(pmat, &Ad));
  }
  nblocks = (n + bs - 1) / bs;
  PetscCall(PetscCalloc1((size_t)nblocks * bs * bs, &blocks));
  PetscCall(GatherBlocks(Ad, n, bs, 0, nblocks, blocks));
  firstbad = PETSC_MAX_INT;
/* clang-format off */
#pragma omp parallel num_threads((int)PetscMax(threads, 1)) if (threads > 1)
  /* clang-format on */
  {
    PetscInt piv[GPUPC_PBJ_MAX_BS];
/* clang-format off */
#pragma omp for schedule(static) reduction(min : firstbad)
    /* clang-format on */
    for (PetscInt k = 0; k < nblocks; k++) {
      const PetscInt m = PetscMin(bs, n - k * bs);
      PetscInt       step;
      PetscReal      pivot;
      if (InvertBlock(m, blocks + (size_t)k * bs * bs, piv, ld, inv + k * bs, &step, &pivot) != PBJ_OK) firstbad = PetscMin(firstbad, k);
    }
  }
  PetscCall(PetscFree(blocks));
  /* the first singular block of all ranks, by its first global row, and the rank that holds it */
  bad = firstbad < nblocks ? rstart + firstbad * bs : PETSC_MAX_INT;
  PetscCall(MPIU_Allreduce(&bad, &badall, 1, MPIU_INT, MPI_MIN, comm));
  if (badall < PETSC_MAX_INT) {
    /* details from the rank that owns it */
    PetscReal   info[5] = {0, 0, 0, 0, 0}; /* local block index, rows, step, pivot, status */
    PetscMPIInt owner;
    PetscInt    mine = bad == badall ? (PetscInt)rank : PETSC_MAX_INT, first, nrows;

    PetscCall(MPIU_Allreduce(&mine, &first, 1, MPIU_INT, MPI_MIN, comm));
    owner = (PetscMPIInt)first;
    if (rank == owner) {
      const PetscInt m = PetscMin(bs, n - firstbad * bs);
      PetscInt       piv[GPUPC_PBJ_MAX_BS], step = 0;
      PetscReal      pivot = 0.0;
      PetscScalar   *a, *out;
      PBJStatus      st;

      /* the elimination again on a fresh copy of the block, for the message */
      PetscCall(PetscCalloc2((size_t)bs * bs, &a, (size_t)m * m, &out));
      PetscCall(GatherBlocks(Ad, n, bs, firstbad, firstbad + 1, a));
      st = InvertBlock(m, a, piv, m, out, &step, &pivot);
      PetscCall(PetscFree2(a, out));
      info[0] = (PetscReal)firstbad;
      info[1] = (PetscReal)m;
      info[2] = (PetscReal)step;
      info[3] = pivot;
      info[4] = (PetscReal)st;
    }
    PetscCallMPI(MPI_Bcast(info, 5, MPIU_REAL, owner, comm));
    nrows = (PetscInt)info[1];
    if ((PBJStatus)info[4] == PBJ_NONFINITE)
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FP, "PC gpubjacobi: the diagonal block of global rows %" PetscInt_FMT "..%" PetscInt_FMT " (block %" PetscInt_FMT " of rank %d, %" PetscInt_FMT " rows) holds a NaN or an infinity (%g); fix the matrix entries", badall, badall + nrows - 1, (PetscInt)info[0], (int)owner, nrows, (double)info[3]);
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT,
            "PC gpubjacobi: the diagonal block of global rows %" PetscInt_FMT "..%" PetscInt_FMT " (block %" PetscInt_FMT " of rank %d, %" PetscInt_FMT " rows) is singular: pivot %g at elimination step %" PetscInt_FMT " (at most %" PetscInt_FMT " * eps * max |entry| of the block). Fix: shift the matrix (MatShift()), pick another block size (-pc_gpubjacobi_block_size), or use another preconditioner (e.g. -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_shift_type nonzero)",
            badall, badall + nrows - 1, (PetscInt)info[0], (int)owner, nrows, (double)info[3], (PetscInt)info[2], nrows);
  }
  PetscFunctionReturn(0);
}

/*
   The row-callback assembler used by every generator: each rank asks the generator for its
   own rows only, counts the diagonal/off-diagonal block entries for an exact preallocation,
   then inserts the rows. Memory is O(local rows) besides the matrix itself.
*/
#include "problemimpl.h"

/* [lo, hi): the global range of the m rows this rank holds, ranks in order */
PetscErrorCode GPUPCOwnedRange(MPI_Comm comm, PetscInt m, PetscInt *lo, PetscInt *hi)
{
  PetscFunctionBegin;
  PetscCallMPI(MPI_Scan(&m, hi, 1, MPIU_INT, MPI_SUM, comm));
  *lo = *hi - m;
  PetscFunctionReturn(0);
}

/* MATAIJ of the given sizes, block size, then -mat_type etc. from the options */
PetscErrorCode GPUPCMatCreateEmpty(MPI_Comm comm, PetscInt m, PetscInt n, PetscInt M, PetscInt N, Mat *A)
{
  PetscFunctionBegin;
  PetscCall(MatCreate(comm, A));
  PetscCall(MatSetSizes(*A, m, n, M, N));
  PetscCall(MatSetType(*A, MATAIJ));
  PetscCall(MatSetFromOptions(*A));
  PetscFunctionReturn(0);
}

/* exact AIJ preallocation from per-row counts; a no-op for types that are not AIJ-like */
static PetscErrorCode Preallocate(Mat A, const PetscInt dnz[], const PetscInt onz[])
{
  PetscFunctionBegin;
  PetscCall(MatSeqAIJSetPreallocation(A, 0, dnz));
  PetscCall(MatMPIAIJSetPreallocation(A, 0, dnz, 0, onz));
  PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCAssembleRows(MPI_Comm comm, PetscInt N, PetscInt bs, PetscInt maxnz, GPUPCRowFn fn, void *ctx, Mat *A)
{
  PetscInt     m = PETSC_DECIDE, lo, hi, *dnz, *onz, *cols, ncols;
  PetscScalar *vals;

  PetscFunctionBegin;
  PetscCheck(N > 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "Problem size %" PetscInt_FMT " must be positive", N);
  PetscCheck(N % bs == 0, comm, PETSC_ERR_PLIB, "Problem size %" PetscInt_FMT " is not a multiple of the block size %" PetscInt_FMT, N, bs);
  PetscCall(PetscSplitOwnershipBlock(comm, bs, &m, &N));
  PetscCall(MatCreate(comm, A));
  PetscCall(MatSetSizes(*A, m, m, N, N));
  PetscCall(MatSetType(*A, MATAIJ));
  if (bs > 1) PetscCall(MatSetBlockSize(*A, bs));
  PetscCall(MatSetFromOptions(*A));
  PetscCall(GPUPCOwnedRange(comm, m, &lo, &hi)); /* the layout is not set up before preallocation */
  PetscCall(PetscCalloc2(hi - lo, &dnz, hi - lo, &onz));
  PetscCall(PetscMalloc2(maxnz, &cols, maxnz, &vals));
  for (PetscInt row = lo; row < hi; row++) {
    PetscCall((*fn)(ctx, row, &ncols, cols, vals));
    PetscCheck(ncols <= maxnz, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Generator row %" PetscInt_FMT " has %" PetscInt_FMT " entries, more than its bound %" PetscInt_FMT, row, ncols, maxnz);
    for (PetscInt k = 0; k < ncols; k++) {
      if (cols[k] >= lo && cols[k] < hi) dnz[row - lo]++;
      else onz[row - lo]++;
    }
  }
  PetscCall(Preallocate(*A, dnz, onz));
  for (PetscInt row = lo; row < hi; row++) {
    PetscCall((*fn)(ctx, row, &ncols, cols, vals));
    PetscCall(MatSetValues(*A, 1, &row, ncols, cols, vals, INSERT_VALUES));
  }
  PetscCall(PetscFree2(cols, vals));
  PetscCall(PetscFree2(dnz, onz));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCAssembleRhs(Mat A, GPUPCRhsFn fn, void *ctx, Vec *b)
{
  PetscInt     lo, hi;
  PetscScalar *x;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, NULL, b));
  PetscCall(VecGetOwnershipRange(*b, &lo, &hi));
  PetscCall(VecGetArrayWrite(*b, &x));
  for (PetscInt row = lo; row < hi; row++) PetscCall((*fn)(ctx, row, &x[row - lo]));
  PetscCall(VecRestoreArrayWrite(*b, &x));
  PetscFunctionReturn(0);
}

/*
   Rank 0 holds a whole matrix (CSR, global columns) or vector read from a file; every rank
   receives its own contiguous block of rows (PETSc's default split) with MPI_Scatterv, so
   only rank 0 needs O(nnz) memory.
*/
#include "problemimpl.h"

/* row ranges of PETSc's default split of M rows over the ranks (on rank 0) */
static PetscErrorCode RowSplit(MPI_Comm comm, PetscInt M, PetscInt *m, PetscInt **ranges)
{
  PetscMPIInt size, rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  *m = PETSC_DECIDE;
  PetscCall(PetscSplitOwnership(comm, m, &M));
  PetscCall(PetscMalloc1(size + 1, ranges));
  (*ranges)[0] = 0;
  PetscCallMPI(MPI_Allgather(m, 1, MPIU_INT, *ranges + 1, 1, MPIU_INT, comm));
  for (PetscMPIInt r = 0; r < size; r++) (*ranges)[r + 1] += (*ranges)[r];
  PetscFunctionReturn(0);
}

static PetscErrorCode ToMPIInt(PetscInt64 v, PetscMPIInt *out)
{
  PetscFunctionBegin;
  PetscCheck(v <= PETSC_MPI_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "%" PetscInt64_FMT " entries for one rank exceed what one MPI message can carry; run with more ranks", v);
  *out = (PetscMPIInt)v;
  PetscFunctionReturn(0);
}

/*@C
   GPUPCMatCreateFromRootCSR - distributes a matrix held in CSR form on rank 0

   Collective

   Input Parameters:
+  comm - the communicator
.  M, N - global sizes (all ranks)
-  ia, ja, a - CSR row pointers, global column indices (sorted, no duplicates within a row) and
   values of all M rows; only read on rank 0 (pass NULL elsewhere)

   Output Parameter:
.  A - the assembled matrix: MATAIJ, then MatSetFromOptions(), PETSc's default row split

   Level: developer

.seealso: GPUPCVecCreateFromRootArray(), GPUPCMatLoadMatrixMarket()
@*/
PetscErrorCode GPUPCMatCreateFromRootCSR(MPI_Comm comm, PetscInt M, PetscInt N, const PetscInt ia[], const PetscInt ja[], const PetscScalar a[], Mat *A)
{
  PetscMPIInt  size, rank, *cnt = NULL, *displ = NULL, *ncnt = NULL, *ndispl = NULL, nloc;
  PetscInt     m, *ranges, *len, *rowptr, *cols, lo, hi, *dnz, *onz, *lens_all = NULL;
  PetscScalar *vals;

  PetscFunctionBegin;
  PetscCall(GPUPCProblemsRegisterEvents());
  PetscCall(PetscLogEventBegin(GPUPC_Distribute, 0, 0, 0, 0));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(RowSplit(comm, M, &m, &ranges));
  if (rank == 0) {
    PetscCall(PetscMalloc4(size, &cnt, size, &displ, size, &ncnt, size, &ndispl));
    PetscCall(PetscMalloc1(M, &lens_all));
    for (PetscInt i = 0; i < M; i++) lens_all[i] = ia[i + 1] - ia[i];
    for (PetscMPIInt r = 0; r < size; r++) {
      PetscCall(ToMPIInt(ranges[r + 1] - ranges[r], &cnt[r]));
      PetscCall(ToMPIInt(ranges[r], &displ[r]));
      PetscCall(ToMPIInt(ia[ranges[r + 1]] - ia[ranges[r]], &ncnt[r]));
      PetscCall(ToMPIInt(ia[ranges[r]], &ndispl[r]));
    }
  }
  PetscCall(PetscMalloc2(m, &len, m + 1, &rowptr));
  PetscCallMPI(MPI_Scatterv(lens_all, cnt, displ, MPIU_INT, len, (PetscMPIInt)m, MPIU_INT, 0, comm));
  rowptr[0] = 0;
  for (PetscInt i = 0; i < m; i++) rowptr[i + 1] = rowptr[i] + len[i];
  PetscCall(ToMPIInt(rowptr[m], &nloc));
  PetscCall(PetscMalloc2(rowptr[m], &cols, rowptr[m], &vals));
  PetscCallMPI(MPI_Scatterv(ja, ncnt, ndispl, MPIU_INT, cols, nloc, MPIU_INT, 0, comm));
  PetscCallMPI(MPI_Scatterv(a, ncnt, ndispl, MPIU_SCALAR, vals, nloc, MPIU_SCALAR, 0, comm));
  PetscCall(PetscFree(lens_all));
  PetscCall(PetscFree4(cnt, displ, ncnt, ndispl));

  {
    PetscInt n = PETSC_DECIDE;
    PetscCall(PetscSplitOwnership(comm, &n, &N));
    PetscCall(GPUPCMatCreateEmpty(comm, m, n, M, N, A));
    PetscCall(GPUPCOwnedRange(comm, n, &lo, &hi)); /* columns of the diagonal block */
  }
  PetscCall(PetscCalloc2(m, &dnz, m, &onz));
  for (PetscInt i = 0; i < m; i++)
    for (PetscInt k = rowptr[i]; k < rowptr[i + 1]; k++) {
      if (cols[k] >= lo && cols[k] < hi) dnz[i]++;
      else onz[i]++;
    }
  PetscCall(MatSeqAIJSetPreallocation(*A, 0, dnz));
  PetscCall(MatMPIAIJSetPreallocation(*A, 0, dnz, 0, onz));
  PetscCall(PetscFree2(dnz, onz));
  for (PetscInt i = 0; i < m; i++) {
    PetscInt row = ranges[rank] + i;
    PetscCall(MatSetValues(*A, 1, &row, len[i], cols + rowptr[i], vals + rowptr[i], INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree2(cols, vals));
  PetscCall(PetscFree2(len, rowptr));
  PetscCall(PetscFree(ranges));
  PetscCall(PetscLogEventEnd(GPUPC_Distribute, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCVecCreateFromRootArray - distributes a vector held on rank 0

   Collective

   Input Parameters:
+  comm - the communicator
.  M - global size (all ranks)
-  x - the M values, read on rank 0 only

   Output Parameter:
.  v - a standard vector with PETSc's default split (the same split as GPUPCMatCreateFromRootCSR())

   Level: developer

.seealso: GPUPCMatCreateFromRootCSR()
@*/
PetscErrorCode GPUPCVecCreateFromRootArray(MPI_Comm comm, PetscInt M, const PetscScalar x[], Vec *v)
{
  PetscMPIInt  size, rank, *cnt = NULL, *displ = NULL;
  PetscInt     m, *ranges;
  PetscScalar *y;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(RowSplit(comm, M, &m, &ranges));
  if (rank == 0) {
    PetscCall(PetscMalloc2(size, &cnt, size, &displ));
    for (PetscMPIInt r = 0; r < size; r++) {
      PetscCall(ToMPIInt(ranges[r + 1] - ranges[r], &cnt[r]));
      PetscCall(ToMPIInt(ranges[r], &displ[r]));
    }
  }
  PetscCall(VecCreateMPI(comm, m, M, v));
  PetscCall(VecGetArrayWrite(*v, &y));
  PetscCallMPI(MPI_Scatterv(x, cnt, displ, MPIU_SCALAR, y, (PetscMPIInt)m, MPIU_SCALAR, 0, comm));
  PetscCall(VecRestoreArrayWrite(*v, &y));
  PetscCall(PetscFree2(cnt, displ));
  PetscCall(PetscFree(ranges));
  PetscFunctionReturn(0);
}

/*
   The operations of the setups on device CSR matrices (gpupc/sparsekernels.h): the members of the active backend's
   sparse kernel table run in their order, the outputs allocated with GPUPCMalloc, each operation in a -log_view event.
*/
#include <gpupc/sparsekernels.h>
#include <gpupc/matgpu.h>

/*@C
   GPUPCDevCSRCreate - a device CSR matrix with its arrays allocated on the active backend

   Not Collective

   Input Parameters:
+  m, n   - rows and columns
.  nnz    - entries
-  values - whether to allocate the values (PETSC_FALSE: a pattern, a NULL)

   Output Parameter:
.  A - the matrix; its row pointers and columns are not set

   Level: developer

.seealso: GPUPCDevCSRDestroy(), GPUPCDevCSRFromMat()
@*/
PetscErrorCode GPUPCDevCSRCreate(PetscInt m, PetscInt n, PetscInt nnz, PetscBool values, GPUPCDevCSR *A)
{
  PetscFunctionBegin;
  PetscCheck(m >= 0 && n >= 0 && nnz >= 0 && m < PETSC_MAX_INT && n < PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "a device CSR of %" PetscInt_FMT " x %" PetscInt_FMT " with %" PetscInt_FMT " entries (rows and columns below %" PetscInt_FMT ")", m, n, nnz, (PetscInt)PETSC_MAX_INT);
  PetscCall(PetscMemzero(A, sizeof(*A)));
  A->m   = m;
  A->n   = n;
  A->nnz = nnz;
  PetscCall(GPUPCMallocArray(m + 1, &A->i));
  PetscCall(GPUPCMallocArray(nnz, &A->j));
  if (values) PetscCall(GPUPCMallocArray(nnz, &A->a));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevCSRDestroy - frees the arrays of a device CSR matrix (any of them may be NULL)

   Not Collective

   Level: developer

.seealso: GPUPCDevCSRCreate()
@*/
PetscErrorCode GPUPCDevCSRDestroy(GPUPCDevCSR *A)
{
  PetscFunctionBegin;
  PetscCall(GPUPCFree(A->i));
  PetscCall(GPUPCFree(A->j));
  PetscCall(GPUPCFree(A->a));
  PetscCall(PetscMemzero(A, sizeof(*A)));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevCSRFromMat - a copy of a SEQAIJ matrix (or a type derived from it) on the active backend's device

   Not Collective

   Input Parameter:
.  aij - the matrix

   Output Parameter:
.  A - its copy (GPUPCDevCSRDestroy frees it)

   Level: developer

.seealso: GPUPCDevCSRToMat()
@*/
PetscErrorCode GPUPCDevCSRFromMat(Mat aij, GPUPCDevCSR *A)
{
  GPUPCCSR csr;

  PetscFunctionBegin;
  PetscCall(GPUPCMatGetCSR(aij, &csr));
  PetscCall(GPUPCDevCSRCreate(csr.m, csr.n, csr.nnz, PETSC_TRUE, A));
  PetscCall(GPUPCCopyToDevice(A->i, csr.i, csr.m + 1));
  PetscCall(GPUPCCopyToDevice(A->j, csr.j, csr.nnz));
  PetscCall(GPUPCCopyToDevice(A->a, csr.a, csr.nnz));
  PetscCall(GPUPCMatRestoreCSR(&csr));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevCSRToMat - a new SEQAIJ matrix holding a device CSR matrix (values 0 for a pattern)

   Not Collective

   Input Parameter:
.  A - the device matrix

   Output Parameter:
.  B - the SEQAIJ matrix on PETSC_COMM_SELF

   Level: developer

.seealso: GPUPCDevCSRFromMat()
@*/
PetscErrorCode GPUPCDevCSRToMat(const GPUPCDevCSR *A, Mat *B)
{
  PetscInt    *i, *j;
  PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(A->m + 1, &i, A->nnz, &j, A->nnz, &a));
  PetscCall(GPUPCCopyToHost(i, A->i, A->m + 1));
  PetscCall(GPUPCCopyToHost(j, A->j, A->nnz));
  if (A->a) PetscCall(GPUPCCopyToHost(a, A->a, A->nnz));
  else PetscCall(PetscArrayzero(a, A->nnz));
  PetscCall(MatCreate(PETSC_COMM_SELF, B));
  PetscCall(MatSetSizes(*B, A->m, A->n, A->m, A->n));
  PetscCall(MatSetType(*B, MATSEQAIJ));
  PetscCall(MatSeqAIJSetPreallocationCSR(*B, i, j, a));
  PetscCall(PetscFree3(i, j, a));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevCSRCheck - a PETSc error naming the first row of a device CSR matrix that breaks the CSR rules (row
   pointers from 0 to nnz, nondecreasing; columns in [0, n), increasing within a row)

   Not Collective

   Input Parameters:
+  A    - the matrix
-  what - its name in the message

   Level: developer

.seealso: GPUPCDevCSRFault
@*/
PetscErrorCode GPUPCDevCSRCheck(const GPUPCDevCSR *A, const char *what)
{
  static const char *const  faults[] = {"none", "row pointers out of order or not ending at the entries", "a column outside [0, n)", "columns not increasing (unsorted or repeated)"};
  const GPUPCSparseKernels *k;
  PetscInt                  row, fault;

  PetscFunctionBegin;
  PetscCall(GPUPCGetSparseKernels(&k));
  PetscCall(k->check(A, &row, &fault));
  PetscCheck(row < 0, PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "%s (%" PetscInt_FMT " x %" PetscInt_FMT ", %" PetscInt_FMT " entries) is not a CSR matrix: row %" PetscInt_FMT " has %s", what, A->m, A->n, A->nnz, row, faults[fault]);
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevCSRTranspose - R = A^T on the active backend

   Not Collective

   Input Parameters:
+  A     - the matrix
-  reuse - MAT_INITIAL_MATRIX (creates R and perm) or MAT_REUSE_MATRIX (R's values from A's new values, same pattern)

   Output Parameters:
+  R    - the transpose: its rows list A's rows in increasing order
.  perm - R's entry q is A's entry perm[q] (GPUPCFree frees it)
-  peak - the largest temporary bytes (may be NULL)

   Level: developer

.seealso: GPUPCDevCSRMatMult(), GPUPCDevCSRRAP()
@*/
PetscErrorCode GPUPCDevCSRTranspose(const GPUPCDevCSR *A, MatReuse reuse, GPUPCDevCSR *R, PetscInt **perm, size_t *peak)
{
  const GPUPCSparseKernels *k;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(GPUPC_SpTranspose, 0, 0, 0, 0));
  if (reuse == MAT_INITIAL_MATRIX) {
    PetscCall(GPUPCGetSparseKernels(&k));
    PetscCall(GPUPCDevCSRCreate(A->n, A->m, A->nnz, (PetscBool)(A->a != NULL), R));
    PetscCall(GPUPCMallocArray(A->nnz, perm));
    PetscCall(k->transpose(A, R, *perm, peak));
  } else {
    const GPUPCHaloKernels *g;
    PetscCall(GPUPCSparseCheckTranspose(A, R));
    PetscCheck(A->nnz == 0 || (R->a && A->a), PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "GPUPCDevCSRTranspose(MAT_REUSE_MATRIX) moves values: A and R need them"); /* no entries: no arrays (a rank without rows of the level) */
    PetscCall(GPUPCGetHaloKernels(&g));                                                                                                                       /* R->a[q] = A->a[perm[q]]: the halo's gather */
    PetscCall(g->gather(A->nnz, *perm, A->a, R->a));
    if (peak) *peak = 0;
  }
  PetscCall(PetscLogEventEnd(GPUPC_SpTranspose, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevCSRMatMult - C = A B on the active backend

   Not Collective

   Input Parameters:
+  A, B          - the factors (with values)
.  reuse         - MAT_INITIAL_MATRIX (symbolic and numeric; creates C) or MAT_REUSE_MATRIX (numeric only, on C's pattern:
                   new values of A and B on the patterns they had)
-  deterministic - each entry sums its products in A's row order, as the host table does (bit-identical results);
                   PETSC_FALSE lets the CUDA table add them in any order

   Output Parameters:
+  C    - the product, columns sorted in each row
-  peak - the largest temporary bytes (may be NULL)

   Level: developer

.seealso: GPUPCDevCSRRAP(), GPUPCDevCSRTranspose()
@*/
PetscErrorCode GPUPCDevCSRMatMult(const GPUPCDevCSR *A, const GPUPCDevCSR *B, MatReuse reuse, PetscBool deterministic, GPUPCDevCSR *C, size_t *peak)
{
  const GPUPCSparseKernels *k;
  size_t                    p[3] = {0, 0, 0};

  PetscFunctionBegin;
  PetscCall(GPUPCGetSparseKernels(&k));
  if (reuse == MAT_INITIAL_MATRIX) {
    PetscInt nnz;
    PetscCall(PetscLogEventBegin(GPUPC_SpGEMMSymbolic, 0, 0, 0, 0));
    PetscCall(GPUPCSparseCheckProduct(A, B, NULL));
    PetscCall(PetscMemzero(C, sizeof(*C)));
    C->m = A->m;
    C->n = B->n;
    PetscCall(GPUPCMallocArray(C->m + 1, &C->i));
    PetscCall(k->spgemm_count(A, B, C->i, &nnz, &p[0]));
    C->nnz = nnz;
    PetscCall(GPUPCMallocArray(nnz, &C->j));
    PetscCall(GPUPCMallocArray(nnz, &C->a));
    PetscCall(k->spgemm_pattern(A, B, C, &p[1]));
    PetscCall(PetscLogEventEnd(GPUPC_SpGEMMSymbolic, 0, 0, 0, 0));
  }
  PetscCall(PetscLogEventBegin(GPUPC_SpGEMMNumeric, 0, 0, 0, 0));
  PetscCall(k->spgemm_values(A, B, C, deterministic, &p[2]));
  PetscCall(PetscLogEventEnd(GPUPC_SpGEMMNumeric, 0, 0, 0, 0));
  if (peak) *peak = PetscMax(p[0], PetscMax(p[1], p[2]));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevCSRExtract - the entries of A whose columns cmap keeps, renumbered by cmap, on the active backend (the
   extract members of gpupc/sparsekernels.h)

   Not Collective

   Input Parameters:
+  A     - the matrix
.  cmap  - per column of A: its column in B, or -1 to drop it (device array; increasing on the kept columns keeps B's
           rows sorted)
.  ncol  - B's columns
-  reuse - MAT_INITIAL_MATRIX (B created: its pattern and values) or MAT_REUSE_MATRIX (new values of A on the same
           pattern: B's values only, its row pointers kept)

   Output Parameter:
.  B - A's rows with the kept entries (GPUPCDevCSRDestroy frees it)

   Level: developer

.seealso: GPUPCDevCSRCreate()
@*/
PetscErrorCode GPUPCDevCSRExtract(const GPUPCDevCSR *A, const PetscInt *cmap, PetscInt ncol, MatReuse reuse, GPUPCDevCSR *B)
{
  const GPUPCSparseKernels *k;

  PetscFunctionBegin;
  PetscCall(GPUPCGetSparseKernels(&k));
  if (reuse == MAT_INITIAL_MATRIX) {
    PetscInt nnz;
    PetscCall(PetscMemzero(B, sizeof(*B)));
    B->m = A->m;
    B->n = ncol;
    PetscCall(GPUPCMallocArray(A->m + 1, &B->i));
    PetscCall(k->extract_count(A, A->m, NULL, NULL, cmap, B->i));
    PetscCall(k->rowptr(A->m, B->i, &nnz, NULL));
    B->nnz = nnz;
    PetscCall(GPUPCMallocArray(nnz, &B->j));
    PetscCall(GPUPCMallocArray(nnz, &B->a));
  }
  PetscCall(k->extract_fill(A, A->m, NULL, NULL, cmap, B));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevCSRRAP - the Galerkin product C = R A P with R = P^T, as R (A P), on the active backend

   Not Collective

   Input Parameters:
+  A, P          - the fine matrix and the prolongator
.  reuse         - MAT_INITIAL_MATRIX (data zeroed by the caller is filled, C created) or MAT_REUSE_MATRIX (new values of
                   A and P on the same patterns: R's values gathered, both products numeric only)
.  deterministic - sums in the host's order (GPUPCDevCSRMatMult())
-  data          - R, the permutation of P's values into R, and A P, kept for a reuse

   Output Parameter:
.  C - the coarse matrix

   Level: developer

   Note:
   Two products with A P stored: a product fused over A P would form each row of A P once per entry of P's row
   (docs/algorithms.md).

.seealso: GPUPCDevRAPDestroy(), GPUPCDevCSRMatMult()
@*/
PetscErrorCode GPUPCDevCSRRAP(const GPUPCDevCSR *A, const GPUPCDevCSR *P, MatReuse reuse, PetscBool deterministic, GPUPCDevRAP *data, GPUPCDevCSR *C)
{
  size_t p[3] = {0, 0, 0};

  PetscFunctionBegin;
  PetscCheck(A->m == A->n && A->n == P->m, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "R A P: A is %" PetscInt_FMT " x %" PetscInt_FMT " and P %" PetscInt_FMT " x %" PetscInt_FMT ": A must be square with P's rows", A->m, A->n, P->m, P->n);
  PetscCall(GPUPCDevCSRTranspose(P, reuse, &data->R, &data->perm, &p[0]));
  PetscCall(GPUPCDevCSRMatMult(A, P, reuse, deterministic, &data->AP, &p[1]));
  PetscCall(GPUPCDevCSRMatMult(&data->R, &data->AP, reuse, deterministic, C, &p[2]));
  data->peak  = PetscMax(p[0], PetscMax(p[1], p[2]));
  data->bytes = (size_t)(data->R.m + 1 + 2 * data->R.nnz + data->AP.m + 1 + data->AP.nnz) * sizeof(PetscInt) + (size_t)(data->R.nnz + data->AP.nnz) * sizeof(PetscScalar);
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevRAPDestroy - frees what GPUPCDevCSRRAP() kept for a numeric re-run (R, the permutation, A P)

   Not Collective

   Level: developer

.seealso: GPUPCDevCSRRAP()
@*/
PetscErrorCode GPUPCDevRAPDestroy(GPUPCDevRAP *data)
{
  PetscFunctionBegin;
  PetscCall(GPUPCDevCSRDestroy(&data->R));
  PetscCall(GPUPCDevCSRDestroy(&data->AP));
  PetscCall(GPUPCFree(data->perm));
  PetscCall(PetscMemzero(data, sizeof(*data)));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevCOOAssemble - an m x n CSR matrix from (row, column, value) triples on the device, duplicates summed in
   input order (the sort-and-reduce of gpupc/sparsekernels.h), as MatSetPreallocationCOO() and MatSetValuesCOO() do

   Not Collective

   Input Parameters:
+  m, n   - the matrix's rows and columns
.  nent   - triples
.  ci, cj - their rows and columns (device arrays; a negative index drops the triple)
.  v      - their values (device array)
-  reuse  - MAT_INITIAL_MATRIX (sorts; creates C and fills coo) or MAT_REUSE_MATRIX (new values of the same triples: sums
            only; ci and cj are not read)

   Output Parameters:
+  coo - what a reuse needs (GPUPCDevCOODestroy frees it)
-  C   - the matrix

   Level: developer

.seealso: GPUPCDevCOODestroy()
@*/
PetscErrorCode GPUPCDevCOOAssemble(PetscInt m, PetscInt n, PetscInt nent, const PetscInt *ci, const PetscInt *cj, const PetscScalar *v, MatReuse reuse, GPUPCDevCOO *coo, GPUPCDevCSR *C)
{
  const GPUPCSparseKernels *k;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(GPUPC_SpCOOAssemble, 0, 0, 0, 0));
  PetscCall(GPUPCGetSparseKernels(&k));
  if (reuse == MAT_INITIAL_MATRIX) {
    PetscInt *dst, nnz;
    size_t    peak;
    PetscCheck(m >= 0 && n >= 0 && nent >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "COO assembly of %" PetscInt_FMT " triples into %" PetscInt_FMT " x %" PetscInt_FMT, nent, m, n);
    PetscCall(PetscMemzero(coo, sizeof(*coo)));
    PetscCall(PetscMemzero(C, sizeof(*C)));
    coo->nent = nent;
    C->m      = m;
    C->n      = n;
    PetscCall(GPUPCMallocArray(nent, &coo->perm));
    PetscCall(GPUPCMallocArray(nent, &dst));
    PetscCall(GPUPCMallocArray(m + 1, &C->i));
    PetscCall(k->coo_sort(m, n, nent, ci, cj, coo->perm, dst, C->i, &coo->nkept, &nnz, &peak));
    C->nnz = nnz;
    PetscCall(GPUPCMallocArray(nnz, &C->j));
    PetscCall(GPUPCMallocArray(nnz, &C->a));
    PetscCall(GPUPCMallocArray(nnz + 1, &coo->seg));
    PetscCall(k->coo_pattern(coo->nkept, coo->perm, dst, cj, nnz, C->j, coo->seg));
    PetscCall(GPUPCFree(dst));
    coo->peak = peak + (size_t)nent * sizeof(PetscInt); /* dst, held across the two passes */
  } else coo->peak = 0;
  PetscCall(k->coo_sum(C->nnz, coo->seg, coo->perm, v, C->a));
  PetscCall(PetscLogEventEnd(GPUPC_SpCOOAssemble, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevCOODestroy - frees what GPUPCDevCOOAssemble() kept for new values of the same triples

   Not Collective

   Level: developer

.seealso: GPUPCDevCOOAssemble()
@*/
PetscErrorCode GPUPCDevCOODestroy(GPUPCDevCOO *coo)
{
  PetscFunctionBegin;
  PetscCall(GPUPCFree(coo->perm));
  PetscCall(GPUPCFree(coo->seg));
  PetscCall(PetscMemzero(coo, sizeof(*coo)));
  PetscFunctionReturn(0);
}

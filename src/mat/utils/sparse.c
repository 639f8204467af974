/*
   The device sparse kernel table (gpupc/sparsekernels.h): its getters, member names and events, and the checks both
   implementations make with the same messages.
*/
#include <gpupc/sparsekernels.h>

const char *const GPUPCSparseKernelNames[] = {GPUPC_SPARSE_KERNEL_LIST(GPUPC_KERNEL_NAME, ) NULL};

PetscLogEvent GPUPC_SpTranspose, GPUPC_SpGEMMSymbolic, GPUPC_SpGEMMNumeric, GPUPC_SpCOOAssemble;

/* GPUPCGetSparseKernelsFor(backend, &k): the table of a backend (the CUDA table is usable only when the active backend
   is CUDA); GPUPCGetSparseKernels(&k): the table of the active backend (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_GETTERS(GPUPCSparseKernels, Sparse, "sparse")

static PetscInt spgemm_lanes = 0; /* -gpupc_spgemm_lanes */

/*@C
   GPUPCSparseSetSpGEMMLanes - developers' tuning of the CUDA SpGEMM's values pass: the lanes that share a row of C

   Not Collective

   Input Parameter:
.  lanes - 8, 16 or 32; 0 (the default) chooses by the products a row (8 up to 16 products, 16 up to 48, else 32)

   Options Database Key:
.  -gpupc_spgemm_lanes <0> - lanes

   Notes:
   Every choice gives the same values bit for bit (the sums run in A's order); the option times the choices and lets the
   tests cover every group size on any shape. The host table ignores it.

   Level: developer

.seealso: GPUPCSparseGetSpGEMMLanes()
@*/
PetscErrorCode GPUPCSparseSetSpGEMMLanes(PetscInt lanes)
{
  PetscFunctionBegin;
  PetscCheck(lanes == 0 || lanes == 8 || lanes == 16 || lanes == 32, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-gpupc_spgemm_lanes %" PetscInt_FMT ": the values pass of the SpGEMM takes 8, 16 or 32 lanes a row (0: by the products a row)", lanes);
  spgemm_lanes = lanes;
  PetscFunctionReturn(0);
}

/*@C
   GPUPCSparseGetSpGEMMLanes - the lanes set by GPUPCSparseSetSpGEMMLanes() (0: chosen by the products a row)

   Not Collective

   Output Parameter:
.  lanes - the value

   Level: developer

.seealso: GPUPCSparseSetSpGEMMLanes()
@*/
PetscErrorCode GPUPCSparseGetSpGEMMLanes(PetscInt *lanes)
{
  PetscFunctionBegin;
  *lanes = spgemm_lanes;
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCSparseRegisterEvents(void)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventRegister("GPUSpTranspose", MAT_CLASSID, &GPUPC_SpTranspose));
  PetscCall(PetscLogEventRegister("GPUSpGEMMSym", MAT_CLASSID, &GPUPC_SpGEMMSymbolic));
  PetscCall(PetscLogEventRegister("GPUSpGEMMNum", MAT_CLASSID, &GPUPC_SpGEMMNumeric));
  PetscCall(PetscLogEventRegister("GPUSpCOOAssemble", MAT_CLASSID, &GPUPC_SpCOOAssemble));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCSparseCheckSize(PetscInt64 total, PetscInt n, const char *what)
{
  PetscFunctionBegin;
  PetscCheck(total <= PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_SUP, "%s: %" PetscInt64_FMT " entries over %" PetscInt_FMT " rows, more than a 32-bit PetscInt holds (%" PetscInt_FMT "): use a PETSc built with --with-64-bit-indices, or spread the matrix over more ranks", what, total, n, (PetscInt)PETSC_MAX_INT);
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCSparseCheckCOOEntry(PetscInt64 e, PetscInt r, PetscInt c, PetscInt m, PetscInt n)
{
  PetscFunctionBegin;
  PetscCheck(r < m && c < n, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "coo_sort: entry %" PetscInt64_FMT " is (%" PetscInt_FMT ", %" PetscInt_FMT "), outside the %" PetscInt_FMT " x %" PetscInt_FMT " matrix (a negative index drops an entry)", e, r, c, m, n);
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCSparseCheckProduct(const GPUPCDevCSR *A, const GPUPCDevCSR *B, const GPUPCDevCSR *C)
{
  PetscFunctionBegin;
  PetscCheck(A->n == B->m, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "C = A B: A is %" PetscInt_FMT " x %" PetscInt_FMT " and B %" PetscInt_FMT " x %" PetscInt_FMT ": A's columns must be B's rows", A->m, A->n, B->m, B->n);
  if (C) PetscCheck(C->m == A->m && C->n == B->n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "C = A B: C is %" PetscInt_FMT " x %" PetscInt_FMT ", the product %" PetscInt_FMT " x %" PetscInt_FMT, C->m, C->n, A->m, B->n);
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCSparseCheckProductValues(const GPUPCDevCSR *A, const GPUPCDevCSR *B, const GPUPCDevCSR *C)
{
  PetscFunctionBegin;
  PetscCall(GPUPCSparseCheckProduct(A, B, C));
  PetscCheck((A->a || !A->nnz) && (B->a || !B->nnz) && (C->a || !C->nnz), PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "spgemm_values needs the values of A, B and C (a pattern has none)");
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCSparseCheckTranspose(const GPUPCDevCSR *A, const GPUPCDevCSR *R)
{
  PetscFunctionBegin;
  PetscCheck(R->m == A->n && R->n == A->m && R->nnz == A->nnz, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "R = A^T: A is %" PetscInt_FMT " x %" PetscInt_FMT " with %" PetscInt_FMT " entries, R %" PetscInt_FMT " x %" PetscInt_FMT " with %" PetscInt_FMT, A->m, A->n, A->nnz, R->m, R->n, R->nnz);
  PetscCheck(!R->a || A->a || !A->nnz, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "R = A^T: R has values but A is a pattern");
  PetscFunctionReturn(0);
}

/*
   cuSPARSE's SpGEMM (C = A B, from scratch and through the reuse API) and CSR transpose (csr2csc) on device CSR
   matrices: the baselines of bench/spgemm (gpupc/bench.h). Every buffer goes through GPUPCMalloc; the caller times.
*/
#include <gpupc/cuda.h>
#include <gpupc/bench.h>

static const cusparseOperation_t opN = CUSPARSE_OPERATION_NON_TRANSPOSE;
static const cusparseSpGEMMAlg_t alg = CUSPARSE_SPGEMM_DEFAULT;
static const double              one = 1.0, zero = 0.0;
static const cusparseIndexType_t i32  = CUSPARSE_INDEX_32I;
static const cusparseIndexBase_t base = CUSPARSE_INDEX_BASE_ZERO;

/* a cuSPARSE descriptor of device CSR A (no copy) */
static PetscErrorCode Describe(const GPUPCDevCSR *A, cusparseSpMatDescr_t *d)
{
  PetscFunctionBegin;
  PetscCall(GPUPCBenchRequireCUDA("the cuSPARSE SpGEMM baseline"));
  PetscCheck(A->a || !A->nnz, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "cuSPARSE's SpGEMM needs values");
  GPUPCCallCUSPARSE(cusparseCreateCsr(d, A->m, A->n, A->nnz, A->i, A->j, A->a, i32, i32, base, CUDA_R_64F));
  PetscFunctionReturn(0);
}

/* C's arrays for the nnz cuSPARSE found, set into its descriptor */
static PetscErrorCode MakeC(const GPUPCDevCSR *A, const GPUPCDevCSR *B, cusparseSpMatDescr_t mC, GPUPCDevCSR *C)
{
  int64_t rows, cols, nnz;

  PetscFunctionBegin;
  GPUPCCallCUSPARSE(cusparseSpMatGetSize(mC, &rows, &cols, &nnz));
  PetscCheck(nnz <= PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_SUP, "cuSPARSE's product has %lld entries", (long long)nnz);
  PetscCall(GPUPCDevCSRCreate(A->m, B->n, (PetscInt)nnz, PETSC_TRUE, C));
  GPUPCCallCUSPARSE(cusparseCsrSetPointers(mC, C->i, C->j, C->a));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCBenchCuSparseSpGEMM(const GPUPCDevCSR *A, const GPUPCDevCSR *B, GPUPCDevCSR *C)
{
  cusparseHandle_t      h;
  cusparseSpMatDescr_t  mA, mB, mC;
  cusparseSpGEMMDescr_t d;
  size_t                s1 = 0, s2 = 0;
  void                 *b1 = NULL, *b2 = NULL;

  PetscFunctionBegin;
  PetscCall(GPUPCCUDAGetCUSPARSE(&h));
  PetscCall(Describe(A, &mA));
  PetscCall(Describe(B, &mB));
  GPUPCCallCUSPARSE(cusparseCreateCsr(&mC, A->m, B->n, 0, NULL, NULL, NULL, i32, i32, base, CUDA_R_64F));
  GPUPCCallCUSPARSE(cusparseSpGEMM_createDescr(&d));
  GPUPCCallCUSPARSE(cusparseSpGEMM_workEstimation(h, opN, opN, &one, mA, mB, &zero, mC, CUDA_R_64F, alg, d, &s1, NULL));
  PetscCall(GPUPCMalloc(s1, &b1));
  GPUPCCallCUSPARSE(cusparseSpGEMM_workEstimation(h, opN, opN, &one, mA, mB, &zero, mC, CUDA_R_64F, alg, d, &s1, b1));
  GPUPCCallCUSPARSE(cusparseSpGEMM_compute(h, opN, opN, &one, mA, mB, &zero, mC, CUDA_R_64F, alg, d, &s2, NULL));
  PetscCall(GPUPCMalloc(s2, &b2));
  GPUPCCallCUSPARSE(cusparseSpGEMM_compute(h, opN, opN, &one, mA, mB, &zero, mC, CUDA_R_64F, alg, d, &s2, b2));
  PetscCall(MakeC(A, B, mC, C));
  GPUPCCallCUSPARSE(cusparseSpGEMM_copy(h, opN, opN, &one, mA, mB, &zero, mC, CUDA_R_64F, alg, d));
  GPUPCCallCUSPARSE(cusparseSpGEMM_destroyDescr(d));
  GPUPCCallCUSPARSE(cusparseDestroySpMat(mA));
  GPUPCCallCUSPARSE(cusparseDestroySpMat(mB));
  GPUPCCallCUSPARSE(cusparseDestroySpMat(mC));
  PetscCall(GPUPCFree(b1));
  PetscCall(GPUPCFree(b2));
  PetscFunctionReturn(0);
}

struct _n_GPUPCBenchSpGEMM {
  cusparseSpMatDescr_t  mA, mB, mC;
  cusparseSpGEMMDescr_t d;
  void                 *b4, *b5; /* kept for the numeric reruns */
};

PetscErrorCode GPUPCBenchCuSparseSpGEMMCreate(const GPUPCDevCSR *A, const GPUPCDevCSR *B, GPUPCDevCSR *C, GPUPCBenchSpGEMM *ctx)
{
  cusparseHandle_t h;
  GPUPCBenchSpGEMM r;
  size_t           s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0;
  void            *b1 = NULL, *b2 = NULL, *b3 = NULL;

  PetscFunctionBegin;
  PetscCall(GPUPCCUDAGetCUSPARSE(&h));
  PetscCall(PetscNew(&r));
  PetscCall(Describe(A, &r->mA));
  PetscCall(Describe(B, &r->mB));
  GPUPCCallCUSPARSE(cusparseCreateCsr(&r->mC, A->m, B->n, 0, NULL, NULL, NULL, i32, i32, base, CUDA_R_64F));
  GPUPCCallCUSPARSE(cusparseSpGEMM_createDescr(&r->d));
  GPUPCCallCUSPARSE(cusparseSpGEMMreuse_workEstimation(h, opN, opN, r->mA, r->mB, r->mC, alg, r->d, &s1, NULL));
  PetscCall(GPUPCMalloc(s1, &b1));
  GPUPCCallCUSPARSE(cusparseSpGEMMreuse_workEstimation(h, opN, opN, r->mA, r->mB, r->mC, alg, r->d, &s1, b1));
  GPUPCCallCUSPARSE(cusparseSpGEMMreuse_nnz(h, opN, opN, r->mA, r->mB, r->mC, alg, r->d, &s2, NULL, &s3, NULL, &s4, NULL));
  PetscCall(GPUPCMalloc(s2, &b2));
  PetscCall(GPUPCMalloc(s3, &b3));
  PetscCall(GPUPCMalloc(s4, &r->b4));
  GPUPCCallCUSPARSE(cusparseSpGEMMreuse_nnz(h, opN, opN, r->mA, r->mB, r->mC, alg, r->d, &s2, b2, &s3, b3, &s4, r->b4));
  PetscCall(GPUPCFree(b1));
  PetscCall(GPUPCFree(b2));
  PetscCall(MakeC(A, B, r->mC, C));
  GPUPCCallCUSPARSE(cusparseSpGEMMreuse_copy(h, opN, opN, r->mA, r->mB, r->mC, alg, r->d, &s5, NULL));
  PetscCall(GPUPCMalloc(s5, &r->b5));
  GPUPCCallCUSPARSE(cusparseSpGEMMreuse_copy(h, opN, opN, r->mA, r->mB, r->mC, alg, r->d, &s5, r->b5));
  PetscCall(GPUPCFree(b3));
  PetscCall(GPUPCBenchCuSparseSpGEMMNumeric(r));
  *ctx = r;
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCBenchCuSparseSpGEMMNumeric(GPUPCBenchSpGEMM r)
{
  cusparseHandle_t h;

  PetscFunctionBegin;
  PetscCall(GPUPCCUDAGetCUSPARSE(&h));
  GPUPCCallCUSPARSE(cusparseSpGEMMreuse_compute(h, opN, opN, &one, r->mA, r->mB, &zero, r->mC, CUDA_R_64F, alg, r->d));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCBenchCuSparseSpGEMMDestroy(GPUPCBenchSpGEMM *ctx)
{
  GPUPCBenchSpGEMM r = *ctx;

  PetscFunctionBegin;
  if (!r) PetscFunctionReturn(0);
  GPUPCCallCUSPARSE(cusparseSpGEMM_destroyDescr(r->d));
  GPUPCCallCUSPARSE(cusparseDestroySpMat(r->mA));
  GPUPCCallCUSPARSE(cusparseDestroySpMat(r->mB));
  GPUPCCallCUSPARSE(cusparseDestroySpMat(r->mC));
  PetscCall(GPUPCFree(r->b4));
  PetscCall(GPUPCFree(r->b5));
  PetscCall(PetscFree(*ctx));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCBenchCuSparseTranspose(const GPUPCDevCSR *A, GPUPCDevCSR *R)
{
  cusparseHandle_t h;
  size_t           bytes = 0;
  void            *buf   = NULL;

  PetscFunctionBegin;
  PetscCall(GPUPCBenchRequireCUDA("the cuSPARSE transpose baseline"));
  PetscCall(GPUPCCUDAGetCUSPARSE(&h));
  GPUPCCallCUSPARSE(cusparseCsr2cscEx2_bufferSize(h, A->m, A->n, A->nnz, A->a, A->i, A->j, R->a, R->i, R->j, CUDA_R_64F, CUSPARSE_ACTION_NUMERIC, base, CUSPARSE_CSR2CSC_ALG1, &bytes));
  PetscCall(GPUPCMalloc(bytes, &buf));
  GPUPCCallCUSPARSE(cusparseCsr2cscEx2(h, A->m, A->n, A->nnz, A->a, A->i, A->j, R->a, R->i, R->j, CUDA_R_64F, CUSPARSE_ACTION_NUMERIC, base, CUSPARSE_CSR2CSC_ALG1, buf));
  PetscCall(GPUPCFree(buf));
  PetscFunctionReturn(0);
}

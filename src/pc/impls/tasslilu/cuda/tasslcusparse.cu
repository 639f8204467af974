/*
   cuSPARSE SpSV baseline of PC tasslilu (-pc_tasslilu_solve cusparse) and of bench/trisolve: the ILU factor as
   two CSR matrices on the device (L with its unit diagonal stored, U with its diagonal), analysed by
   cusparseSpSV_analysis, solved by cusparseSpSV_solve. The factor's ordering is applied by a gather of b before
   the solves and a scatter of x after them. The transpose (PCApplyTranspose) solves U^T then L^T with
   CUSPARSE_OPERATION_TRANSPOSE on the same matrices.
*/
#include <gpupc/cuda.h>
#include <gpupc/tassl.h>

struct _n_GPUPCTasslSpSV {
  PetscBool            transpose;
  PetscInt             n, nnzL, nnzU;
  PetscInt            *Lrp, *Lcol, *Urp, *Ucol; /* device */
  PetscScalar         *Lval, *Uval;
  PetscInt            *bidx, *xidx; /* device: t1[i] = b[bidx[i]], x[xidx[i]] = t1[i] (NULL: identity) */
  PetscScalar         *t1, *t2;
  cusparseSpMatDescr_t L, U;
  cusparseDnVecDescr_t v1, v2;
  cusparseSpSVDescr_t  sL, sU;
  void                *bufL, *bufU;
};

__global__ void SpSVGather(PetscInt n, const PetscInt *__restrict__ idx, const PetscScalar *__restrict__ b, PetscScalar *__restrict__ t)
{
  const PetscInt i = (PetscInt)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) t[i] = b[idx ? idx[i] : i];
}

__global__ void SpSVScatter(PetscInt n, const PetscInt *__restrict__ idx, const PetscScalar *__restrict__ t, PetscScalar *__restrict__ x)
{
  const PetscInt i = (PetscInt)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[idx ? idx[i] : i] = t[i];
}

/* host CSR of L (unit diagonal stored) and U (with diagonal) of the factor's current values */
static PetscErrorCode FactorCSR(const GPUPCILU *F, PetscInt *Lrp, PetscInt *Lcol, PetscScalar *Lval, PetscInt *Urp, PetscInt *Ucol, PetscScalar *Uval)
{
  PetscInt cl = 0, cu = 0;

  PetscFunctionBegin;
  Lrp[0] = Urp[0] = 0;
  for (PetscInt i = 0; i < F->n; i++) {
    for (PetscInt q = F->ai[i]; q < F->adiag[i]; q++) {
      if (Lcol) Lcol[cl] = F->aj[q];
      Lval[cl++] = F->aa[q];
    }
    if (Lcol) Lcol[cl] = i;
    Lval[cl++] = 1.0;
    for (PetscInt q = F->adiag[i]; q < F->ai[i + 1]; q++) {
      if (Ucol) Ucol[cu] = F->aj[q];
      Uval[cu++] = F->aa[q];
    }
    Lrp[i + 1] = cl;
    Urp[i + 1] = cu;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Analyse(GPUPCTasslSpSV S)
{
  cusparseHandle_t     h;
  const double         one   = 1.0;
  cusparseOperation_t  op    = S->transpose ? CUSPARSE_OPERATION_TRANSPOSE : CUSPARSE_OPERATION_NON_TRANSPOSE;
  cusparseSpMatDescr_t first = S->transpose ? S->U : S->L, second = S->transpose ? S->L : S->U;
  cusparseSpSVDescr_t  sfirst = S->transpose ? S->sU : S->sL, ssecond = S->transpose ? S->sL : S->sU;
  void                *bfirst = S->transpose ? S->bufU : S->bufL, *bsecond = S->transpose ? S->bufL : S->bufU;

  PetscFunctionBegin;
  PetscCall(GPUPCCUDAGetCUSPARSE(&h));
  GPUPCCallCUSPARSE(cusparseSpSV_analysis(h, op, &one, first, S->v1, S->v2, CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, sfirst, bfirst));
  GPUPCCallCUSPARSE(cusparseSpSV_analysis(h, op, &one, second, S->v2, S->v1, CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, ssecond, bsecond));
  PetscCall(GPUPCSynchronize());
  PetscFunctionReturn(0);
}

/*@C
   GPUPCTasslSpSVCreate - the cuSPARSE SpSV solves of an ILU factor (cuda backend), analysed

   Not Collective

   Input Parameters:
+  F - the factor, with values
-  transpose - solve with (LU)^T (U^T then L^T) instead of LU

   Output Parameter:
.  S - the solves

   Level: developer

.seealso: GPUPCTasslSpSVApply(), GPUPCTasslSpSVRefresh()
@*/
PetscErrorCode GPUPCTasslSpSVCreate(const GPUPCILU *F, PetscBool transpose, GPUPCTasslSpSV *S)
{
  GPUPCTasslSpSV      s;
  cusparseHandle_t    h;
  PetscInt           *Lrp, *Lcol, *Urp, *Ucol;
  PetscScalar        *Lval, *Uval;
  const PetscInt      n = F->n;
  size_t              szL, szU;
  const double        one   = 1.0;
  cusparseOperation_t op    = transpose ? CUSPARSE_OPERATION_TRANSPOSE : CUSPARSE_OPERATION_NON_TRANSPOSE;
  cusparseFillMode_t  lower = CUSPARSE_FILL_MODE_LOWER, upper = CUSPARSE_FILL_MODE_UPPER;
  cusparseDiagType_t  unit = CUSPARSE_DIAG_TYPE_UNIT, nonunit = CUSPARSE_DIAG_TYPE_NON_UNIT;
  const PetscInt     *bperm = transpose ? F->cperm : F->rperm, *xperm = transpose ? F->rperm : F->cperm;

  PetscFunctionBegin;
  PetscCall(PetscNew(&s));
  s->transpose = transpose;
  s->n         = n;
  for (PetscInt i = 0; i < n; i++) {
    s->nnzL += F->adiag[i] - F->ai[i] + 1;
    s->nnzU += F->ai[i + 1] - F->adiag[i];
  }
  PetscCall(PetscMalloc6(n + 1, &Lrp, s->nnzL, &Lcol, s->nnzL, &Lval, n + 1, &Urp, s->nnzU, &Ucol, s->nnzU, &Uval));
  PetscCall(FactorCSR(F, Lrp, Lcol, Lval, Urp, Ucol, Uval));
  PetscCall(GPUPCMallocArray(n + 1, &s->Lrp));
  PetscCall(GPUPCMallocArray(n + 1, &s->Urp));
  PetscCall(GPUPCMallocArray(PetscMax(s->nnzL, 1), &s->Lcol));
  PetscCall(GPUPCMallocArray(PetscMax(s->nnzL, 1), &s->Lval));
  PetscCall(GPUPCMallocArray(PetscMax(s->nnzU, 1), &s->Ucol));
  PetscCall(GPUPCMallocArray(PetscMax(s->nnzU, 1), &s->Uval));
  PetscCall(GPUPCCopyToDevice(s->Lrp, Lrp, n + 1));
  PetscCall(GPUPCCopyToDevice(s->Urp, Urp, n + 1));
  if (s->nnzL) PetscCall(GPUPCCopyToDevice(s->Lcol, Lcol, s->nnzL));
  if (s->nnzL) PetscCall(GPUPCCopyToDevice(s->Lval, Lval, s->nnzL));
  if (s->nnzU) PetscCall(GPUPCCopyToDevice(s->Ucol, Ucol, s->nnzU));
  if (s->nnzU) PetscCall(GPUPCCopyToDevice(s->Uval, Uval, s->nnzU));
  PetscCall(PetscFree6(Lrp, Lcol, Lval, Urp, Ucol, Uval));
  if (bperm) {
    PetscCall(GPUPCMallocArray(n, &s->bidx));
    PetscCall(GPUPCCopyToDevice(s->bidx, bperm, n));
  }
  if (xperm) {
    PetscCall(GPUPCMallocArray(n, &s->xidx));
    PetscCall(GPUPCCopyToDevice(s->xidx, xperm, n));
  }
  PetscCall(GPUPCMallocArray(PetscMax(n, 1), &s->t1));
  PetscCall(GPUPCMallocArray(PetscMax(n, 1), &s->t2));
  GPUPCCallCUSPARSE(cusparseCreateCsr(&s->L, n, n, s->nnzL, s->Lrp, s->Lcol, s->Lval, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  GPUPCCallCUSPARSE(cusparseCreateCsr(&s->U, n, n, s->nnzU, s->Urp, s->Ucol, s->Uval, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  GPUPCCallCUSPARSE(cusparseSpMatSetAttribute(s->L, CUSPARSE_SPMAT_FILL_MODE, &lower, sizeof(lower)));
  GPUPCCallCUSPARSE(cusparseSpMatSetAttribute(s->L, CUSPARSE_SPMAT_DIAG_TYPE, &unit, sizeof(unit)));
  GPUPCCallCUSPARSE(cusparseSpMatSetAttribute(s->U, CUSPARSE_SPMAT_FILL_MODE, &upper, sizeof(upper)));
  GPUPCCallCUSPARSE(cusparseSpMatSetAttribute(s->U, CUSPARSE_SPMAT_DIAG_TYPE, &nonunit, sizeof(nonunit)));
  GPUPCCallCUSPARSE(cusparseCreateDnVec(&s->v1, n, s->t1, CUDA_R_64F));
  GPUPCCallCUSPARSE(cusparseCreateDnVec(&s->v2, n, s->t2, CUDA_R_64F));
  GPUPCCallCUSPARSE(cusparseSpSV_createDescr(&s->sL));
  GPUPCCallCUSPARSE(cusparseSpSV_createDescr(&s->sU));
  PetscCall(GPUPCCUDAGetCUSPARSE(&h));
  GPUPCCallCUSPARSE(cusparseSpSV_bufferSize(h, op, &one, s->L, s->v1, s->v2, CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, s->sL, &szL));
  GPUPCCallCUSPARSE(cusparseSpSV_bufferSize(h, op, &one, s->U, s->v1, s->v2, CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, s->sU, &szU));
  PetscCall(GPUPCMalloc(PetscMax(szL, (size_t)8), &s->bufL));
  PetscCall(GPUPCMalloc(PetscMax(szU, (size_t)8), &s->bufU));
  PetscCall(Analyse(s));
  *S = s;
  PetscFunctionReturn(0);
}

/*@C
   GPUPCTasslSpSVRefresh - new factor values (same pattern) into the cuSPARSE solves, analysed again

   Level: developer
@*/
PetscErrorCode GPUPCTasslSpSVRefresh(GPUPCTasslSpSV s, const GPUPCILU *F)
{
  PetscInt    *Lrp, *Urp;
  PetscScalar *Lval, *Uval;

  PetscFunctionBegin;
  PetscCall(PetscMalloc4(s->n + 1, &Lrp, s->nnzL, &Lval, s->n + 1, &Urp, s->nnzU, &Uval));
  PetscCall(FactorCSR(F, Lrp, NULL, Lval, Urp, NULL, Uval));
  if (s->nnzL) PetscCall(GPUPCCopyToDevice(s->Lval, Lval, s->nnzL));
  if (s->nnzU) PetscCall(GPUPCCopyToDevice(s->Uval, Uval, s->nnzU));
  PetscCall(PetscFree4(Lrp, Lval, Urp, Uval));
  PetscCall(Analyse(s));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCTasslSpSVApply - x = (LU)^{-1} b (or (LU)^{-T} b) with cuSPARSE SpSV; b and x are device arrays in the
   user's numbering

   Level: developer
@*/
PetscErrorCode GPUPCTasslSpSVApply(GPUPCTasslSpSV s, const PetscScalar *b, PetscScalar *x)
{
  cusparseHandle_t    h;
  const double        one = 1.0;
  const unsigned      nb  = (unsigned)((s->n + 255) / 256);
  cusparseOperation_t op  = s->transpose ? CUSPARSE_OPERATION_TRANSPOSE : CUSPARSE_OPERATION_NON_TRANSPOSE;

  PetscFunctionBegin;
  if (!s->n) PetscFunctionReturn(0);
  PetscCall(GPUPCCUDAGetCUSPARSE(&h));
  SpSVGather<<<nb, 256, 0, GPUPCCUDAStream()>>>(s->n, s->bidx, b, s->t1);
  GPUPCCheckLaunch("SpSVGather");
  GPUPCCallCUSPARSE(cusparseSpSV_solve(h, op, &one, s->transpose ? s->U : s->L, s->v1, s->v2, CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, s->transpose ? s->sU : s->sL));
  GPUPCCallCUSPARSE(cusparseSpSV_solve(h, op, &one, s->transpose ? s->L : s->U, s->v2, s->v1, CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, s->transpose ? s->sL : s->sU));
  SpSVScatter<<<nb, 256, 0, GPUPCCUDAStream()>>>(s->n, s->xidx, s->t1, x);
  GPUPCCheckLaunch("SpSVScatter");
  PetscFunctionReturn(0);
}

/*@C
   GPUPCTasslSpSVDestroy - frees the cuSPARSE solves

   Level: developer
@*/
PetscErrorCode GPUPCTasslSpSVDestroy(GPUPCTasslSpSV *S)
{
  GPUPCTasslSpSV s = *S;
  void          *p[12];

  PetscFunctionBegin;
  if (!s) PetscFunctionReturn(0);
  GPUPCCallCUSPARSE(cusparseSpSV_destroyDescr(s->sL));
  GPUPCCallCUSPARSE(cusparseSpSV_destroyDescr(s->sU));
  GPUPCCallCUSPARSE(cusparseDestroySpMat(s->L));
  GPUPCCallCUSPARSE(cusparseDestroySpMat(s->U));
  GPUPCCallCUSPARSE(cusparseDestroyDnVec(s->v1));
  GPUPCCallCUSPARSE(cusparseDestroyDnVec(s->v2));
  p[0]  = s->Lrp;
  p[1]  = s->Lcol;
  p[2]  = s->Lval;
  p[3]  = s->Urp;
  p[4]  = s->Ucol;
  p[5]  = s->Uval;
  p[6]  = s->bidx;
  p[7]  = s->xidx;
  p[8]  = s->t1;
  p[9]  = s->t2;
  p[10] = s->bufL;
  p[11] = s->bufU;
  for (int k = 0; k < 12; k++)
    if (p[k]) PetscCall(GPUPCFree(p[k]));
  PetscCall(PetscFree(s));
  *S = NULL;
  PetscFunctionReturn(0);
}

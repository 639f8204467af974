/*
   Benchmark helpers (gpupc/bench.h): cuSPARSE CSR SpMV baseline, MatMult timing with
   cudaEvents, device-to-device copy bandwidth, page-locked host-to-device copy time. Used by bench/spmv and the other Mat types'
   benchmarks; not used by the library itself.
*/
#include <gpupc/cuda.h>
#include <gpupc/bench.h>
#include <petscgpupc.h>
#include <algorithm>
#include <vector>

PetscErrorCode GPUPCBenchRequireCUDA(const char *who)
{
  PetscGPUPCBackend b;

  PetscFunctionBegin;
  PetscCall(PetscGPUPCGetBackend(&b));
  PetscCheck(b == PETSC_GPUPC_BACKEND_CUDA, PETSC_COMM_SELF, PETSC_ERR_SUP, "%s times CUDA work: run with -gpupc_backend cuda on a GPU host", who);
  PetscFunctionReturn(0);
}

static double Median(std::vector<float> &t)
{
  std::sort(t.begin(), t.end());
  size_t n = t.size();
  return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* median time in ms of op() over reps runs on the rank's stream, after `warm` untimed runs,
   each run between two CUDA events */
template <class Op>
static PetscErrorCode TimeMedian(int warm, PetscInt reps, Op op, double *median_ms)
{
  cudaEvent_t        e0, e1;
  cudaStream_t       s = GPUPCCUDAStream();
  std::vector<float> t;

  PetscFunctionBegin;
  for (int w = 0; w < warm; w++) PetscCall(op());
  GPUPCCallCUDA(cudaStreamSynchronize(s));
  GPUPCCallCUDA(cudaEventCreate(&e0));
  GPUPCCallCUDA(cudaEventCreate(&e1));
  for (PetscInt r = 0; r < reps; r++) {
    float ms;
    GPUPCCallCUDA(cudaEventRecord(e0, s));
    PetscCall(op());
    GPUPCCallCUDA(cudaEventRecord(e1, s));
    GPUPCCallCUDA(cudaEventSynchronize(e1));
    GPUPCCallCUDA(cudaEventElapsedTime(&ms, e0, e1));
    t.push_back(ms);
  }
  *median_ms = Median(t);
  GPUPCCallCUDA(cudaEventDestroy(e0));
  GPUPCCallCUDA(cudaEventDestroy(e1));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCBenchCuSparseSpMV(Mat aij, Vec x, Vec y, PetscInt reps, double *median_ms)
{
  cusparseHandle_t     h;
  cusparseSpMatDescr_t A;
  cusparseDnVecDescr_t vx, vy;
  const PetscInt      *ai, *aj;
  const PetscScalar   *aa, *dx;
  PetscScalar         *dy;
  PetscInt             m, n, nnz;
  PetscBool            done;
  int                 *d_i, *d_j;
  PetscScalar         *d_a;
  void                *buf     = NULL;
  size_t               bufsize = 0;
  const double         one = 1.0, zero = 0.0;

  PetscFunctionBegin;
  PetscCall(GPUPCBenchRequireCUDA("GPUPCBenchCuSparseSpMV"));
  PetscCheck(sizeof(PetscInt) == sizeof(int), PETSC_COMM_SELF, PETSC_ERR_SUP, "GPUPCBenchCuSparseSpMV needs 32-bit PetscInt");
  PetscCall(MatGetSize(aij, &m, &n));
  PetscCall(MatGetRowIJ(aij, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "GPUPCBenchCuSparseSpMV needs a SEQAIJ matrix");
  nnz = ai[m];
  PetscCall(MatSeqAIJGetArrayRead(aij, &aa));
  PetscCall(GPUPCMallocArray(m + 1, &d_i));
  PetscCall(GPUPCMallocArray(nnz, &d_j));
  PetscCall(GPUPCMallocArray(nnz, &d_a));
  PetscCall(GPUPCMemcpy(d_i, ai, (m + 1) * sizeof(int), GPUPC_COPY_HOST_TO_DEVICE));
  PetscCall(GPUPCMemcpy(d_j, aj, nnz * sizeof(int), GPUPC_COPY_HOST_TO_DEVICE));
  PetscCall(GPUPCCopyToDevice(d_a, aa, nnz));
  PetscCall(MatSeqAIJRestoreArrayRead(aij, &aa));
  {
    PetscInt mr; /* MatRestoreRowIJ() resets its size argument */
    PetscCall(MatRestoreRowIJ(aij, 0, PETSC_FALSE, PETSC_FALSE, &mr, &ai, &aj, &done));
  }

  PetscCall(GPUPCCUDAGetCUSPARSE(&h));
  PetscCall(VecGPUGetDeviceArrayRead(x, &dx));
  PetscCall(VecGPUGetDeviceArrayWrite(y, &dy));
  GPUPCCallCUSPARSE(cusparseCreateCsr(&A, m, n, nnz, d_i, d_j, d_a, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  GPUPCCallCUSPARSE(cusparseCreateDnVec(&vx, n, (void *)dx, CUDA_R_64F));
  GPUPCCallCUSPARSE(cusparseCreateDnVec(&vy, m, (void *)dy, CUDA_R_64F));
  GPUPCCallCUSPARSE(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vx, &zero, vy, CUDA_R_64F, CUSPARSE_SPMV_CSR_ALG1, &bufsize));
  if (bufsize) PetscCall(GPUPCMalloc(bufsize, &buf));
  PetscCall(TimeMedian(
    5, reps,
    [&]() -> PetscErrorCode {
      GPUPCCallCUSPARSE(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vx, &zero, vy, CUDA_R_64F, CUSPARSE_SPMV_CSR_ALG1, buf));
      return 0;
    },
    median_ms));
  GPUPCCallCUSPARSE(cusparseDestroySpMat(A));
  GPUPCCallCUSPARSE(cusparseDestroyDnVec(vx));
  GPUPCCallCUSPARSE(cusparseDestroyDnVec(vy));
  PetscCall(VecGPURestoreDeviceArrayWrite(y, &dy));
  PetscCall(VecGPURestoreDeviceArrayRead(x, &dx));
  PetscCall(GPUPCFree(buf));
  PetscCall(GPUPCFree(d_i));
  PetscCall(GPUPCFree(d_j));
  PetscCall(GPUPCFree(d_a));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCBenchTimeMatMult(Mat A, Vec x, Vec y, PetscInt reps, double *median_ms)
{
  PetscFunctionBegin;
  PetscCall(GPUPCBenchRequireCUDA("GPUPCBenchTimeMatMult"));
  PetscCall(TimeMedian(
    5, reps, [&]() -> PetscErrorCode { return MatMult(A, x, y); }, median_ms));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCBenchCopyBandwidth(size_t bytes, PetscInt reps, double *gbs)
{
  void        *a, *b;
  cudaStream_t s  = GPUPCCUDAStream();
  double       ms = 0.0;

  PetscFunctionBegin;
  PetscCall(GPUPCBenchRequireCUDA("GPUPCBenchCopyBandwidth"));
  PetscCall(GPUPCMalloc(bytes, &a));
  PetscCall(GPUPCMalloc(bytes, &b));
  PetscCall(GPUPCMemzero(a, bytes));
  PetscCall(TimeMedian(
    3, reps,
    [&]() -> PetscErrorCode {
      GPUPCCallCUDA(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, s));
      return 0;
    },
    &ms));
  *gbs = 2.0 * (double)bytes / (ms * 1e-3) / 1e9;
  PetscCall(GPUPCFree(a));
  PetscCall(GPUPCFree(b));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCBenchHostToDevice(size_t bytes, PetscInt reps, double *median_ms)
{
  void        *h, *d;
  PetscBool    pinned;
  cudaStream_t s = GPUPCCUDAStream();

  PetscFunctionBegin;
  PetscCall(GPUPCBenchRequireCUDA("GPUPCBenchHostToDevice"));
  PetscCall(GPUPCHostMalloc(bytes, &h, &pinned));
  PetscCheck(pinned, PETSC_COMM_SELF, PETSC_ERR_PLIB, "GPUPCBenchHostToDevice: the host buffer is not page-locked");
  PetscCall(PetscMemzero(h, bytes));
  PetscCall(GPUPCMalloc(bytes, &d));
  PetscCall(TimeMedian(
    3, reps,
    [&]() -> PetscErrorCode {
      GPUPCCallCUDA(cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, s));
      return 0;
    },
    median_ms));
  PetscCall(GPUPCFree(d));
  PetscCall(GPUPCHostFree(h, pinned));
  PetscFunctionReturn(0);
}

/* ---- bcsr's baseline (bench/spmv): cuSPARSE BSR SpMV (cusparseDbsrmv, still offered by CUDA 13) on a device copy of a
   SEQAIJ matrix cut into b x b blocks. The BSR arrays are made on the host: a block holding any entry is stored whole,
   row-major inside the block (CUSPARSE_DIRECTION_ROW), the blocks of a block row by increasing block column. */
static PetscErrorCode CSRToBSR(PetscInt m, PetscInt n, PetscInt b, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, std::vector<int> &bp, std::vector<int> &bc, std::vector<double> &bv)
{
  const PetscInt   mb = m / b, nb = n / b;
  std::vector<int> where(nb, -1); /* block column -> its block index in the current block row */

  PetscFunctionBegin;
  bp.assign(mb + 1, 0);
  bc.clear();
  for (PetscInt br = 0; br < mb; br++) { /* structure */
    const size_t first = bc.size();
    for (PetscInt k = ai[br * b]; k < ai[br * b + b]; k++) {
      const int J = (int)(aj[k] / b);
      if (where[J] < 0) {
        where[J] = 0;
        bc.push_back(J);
      }
    }
    std::sort(bc.begin() + first, bc.end());
    for (size_t q = first; q < bc.size(); q++) where[bc[q]] = -1;
    bp[br + 1] = (int)bc.size();
  }
  bv.assign(bc.size() * b * b, 0.0);
  for (PetscInt br = 0; br < mb; br++) { /* values */
    for (int q = bp[br]; q < bp[br + 1]; q++) where[bc[q]] = q;
    for (PetscInt r = br * b; r < br * b + b; r++)
      for (PetscInt k = ai[r]; k < ai[r + 1]; k++) bv[(size_t)where[aj[k] / b] * b * b + (size_t)(r - br * b) * b + aj[k] % b] = aa[k];
    for (int q = bp[br]; q < bp[br + 1]; q++) where[bc[q]] = -1;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCBenchCuSparseBSRMV(Mat aij, PetscInt b, Vec x, Vec y, PetscInt reps, double *median_ms)
{
  cusparseHandle_t    h;
  cusparseMatDescr_t  descr;
  const PetscInt     *ai, *aj;
  const PetscScalar  *aa, *dx;
  PetscScalar        *dy, *d_v;
  PetscInt            m, n;
  PetscBool           done;
  int                *d_p, *d_c, mb, nb, nnzb;
  std::vector<int>    bp, bc;
  std::vector<double> bv;
  const double        one = 1.0, zero = 0.0;

  PetscFunctionBegin;
  PetscCall(GPUPCBenchRequireCUDA("GPUPCBenchCuSparseBSRMV"));
  PetscCheck(sizeof(PetscInt) == sizeof(int) && sizeof(PetscScalar) == sizeof(double), PETSC_COMM_SELF, PETSC_ERR_SUP, "GPUPCBenchCuSparseBSRMV needs 32-bit PetscInt and double PetscScalar");
  PetscCall(MatGetSize(aij, &m, &n));
  PetscCheck(b >= 1 && m % b == 0 && n % b == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "GPUPCBenchCuSparseBSRMV: %" PetscInt_FMT " x %" PetscInt_FMT " is not made of %" PetscInt_FMT " x %" PetscInt_FMT " blocks", m, n, b, b);
  PetscCall(MatGetRowIJ(aij, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "GPUPCBenchCuSparseBSRMV needs a SEQAIJ matrix");
  PetscCall(MatSeqAIJGetArrayRead(aij, &aa));
  PetscCall(CSRToBSR(m, n, b, ai, aj, aa, bp, bc, bv));
  PetscCall(MatSeqAIJRestoreArrayRead(aij, &aa));
  {
    PetscInt mr; /* MatRestoreRowIJ() resets its size argument */
    PetscCall(MatRestoreRowIJ(aij, 0, PETSC_FALSE, PETSC_FALSE, &mr, &ai, &aj, &done));
  }
  mb   = (int)(m / b);
  nb   = (int)(n / b);
  nnzb = (int)bc.size();
  PetscCall(GPUPCMallocArray(mb + 1, &d_p));
  PetscCall(GPUPCMallocArray(nnzb, &d_c));
  PetscCall(GPUPCMallocArray(bv.size(), &d_v));
  PetscCall(GPUPCCopyToDevice(d_p, bp.data(), mb + 1));
  PetscCall(GPUPCCopyToDevice(d_c, bc.data(), nnzb));
  PetscCall(GPUPCCopyToDevice(d_v, bv.data(), bv.size()));
  PetscCall(GPUPCCUDAGetCUSPARSE(&h));
  GPUPCCallCUSPARSE(cusparseCreateMatDescr(&descr));
  GPUPCCallCUSPARSE(cusparseSetMatType(descr, CUSPARSE_MATRIX_TYPE_GENERAL));
  GPUPCCallCUSPARSE(cusparseSetMatIndexBase(descr, CUSPARSE_INDEX_BASE_ZERO));
  PetscCall(VecGPUGetDeviceArrayRead(x, &dx));
  PetscCall(VecGPUGetDeviceArrayWrite(y, &dy));
  PetscCall(TimeMedian(
    5, reps,
    [&]() -> PetscErrorCode {
      GPUPCCallCUSPARSE(cusparseDbsrmv(h, CUSPARSE_DIRECTION_ROW, CUSPARSE_OPERATION_NON_TRANSPOSE, mb, nb, nnzb, &one, descr, d_v, d_p, d_c, (int)b, dx, &zero, dy));
      return 0;
    },
    median_ms));
  PetscCall(VecGPURestoreDeviceArrayWrite(y, &dy));
  PetscCall(VecGPURestoreDeviceArrayRead(x, &dx));
  GPUPCCallCUSPARSE(cusparseDestroyMatDescr(descr));
  PetscCall(GPUPCFree(d_p));
  PetscCall(GPUPCFree(d_c));
  PetscCall(GPUPCFree(d_v));
  PetscFunctionReturn(0);
}

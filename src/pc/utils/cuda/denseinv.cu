/*
   The cuda backend's dense SPD inverse (gpupc/denseinv.h): X = P M^{-1} P, P = diag(mask), on the device with
   cuSOLVER's 64-bit API: Cholesky (cusolverDnXpotrf) and the two triangular solves against the right-hand side P
   (cusolverDnXpotrs with m right-hand sides), in double precision on the rank's stream. The row-major M read as
   column-major is M^T = M, so the lower triangle of the column-major view is factored. The solves give a result that
   is symmetric only to rounding; (X + X^T) / 2 (cuBLAS geam) makes it exactly symmetric, as the host's mirrored
   potri result is, so that PC cmg's last level stays a symmetric operator.
*/
#include <gpupc/cuda.h>
#include <gpupc/denseinv.h>
#include <cusolverDn.h>

#define GPUPCCallCUSOLVER(...)                                                                                                                                                           \
  do {                                                                                                                                                                                   \
    cusolverStatus_t gpupc_slverr_ = (__VA_ARGS__);                                                                                                                                      \
    PetscCheck(gpupc_slverr_ == CUSOLVER_STATUS_SUCCESS, PETSC_COMM_SELF, PETSC_ERR_GPU, "cuSOLVER call %s failed with status %d (cusolverStatus_t)", #__VA_ARGS__, (int)gpupc_slverr_); \
  } while (0)

static cusolverDnHandle_t solver = NULL; /* on the rank's stream, created at first use */
static cusolverDnParams_t params = NULL;

/* registered with PetscRegisterFinalize() after the package's finalize, so it runs before the stream is destroyed */
static PetscErrorCode DenseFinalize(void)
{
  PetscFunctionBegin;
  if (params) GPUPCCallCUSOLVER(cusolverDnDestroyParams(params));
  if (solver) GPUPCCallCUSOLVER(cusolverDnDestroy(solver));
  params = NULL;
  solver = NULL;
  PetscFunctionReturn(0);
}

static PetscErrorCode GetSolver(void)
{
  PetscFunctionBegin;
  if (solver) PetscFunctionReturn(0);
  GPUPCCallCUSOLVER(cusolverDnCreate(&solver));
  GPUPCCallCUSOLVER(cusolverDnSetStream(solver, GPUPCCUDAStream()));
  GPUPCCallCUSOLVER(cusolverDnCreateParams(&params));
  PetscCall(PetscRegisterFinalize(DenseFinalize));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCCUDADenseSetUp(void)
{
  PetscFunctionBegin;
  PetscCall(GetSolver());
  PetscFunctionReturn(0);
}

/* M: host memory, or device memory when mdevice */
PetscErrorCode GPUPCCUDADenseSPDInverseMasked(PetscInt m, const PetscReal *M, PetscBool mdevice, const PetscReal *mask, PetscReal *d_X, PetscBLASInt *info)
{
  const size_t  mm = (size_t)m * m;
  cudaStream_t  s;
  char         *buf;
  double       *dA;
  int          *dinfo, hinfo = 0;
  void         *work = NULL, *hwork = NULL;
  size_t        dbytes = 0, hbytes = 0;
  PetscReal    *diag;
  const int64_t n = (int64_t)m;

  PetscFunctionBegin;
  static_assert(sizeof(PetscReal) == sizeof(double), "GPUPC's dense factorization is double precision");
  PetscCheck(m < PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_SUP, "dense inverse of order %" PetscInt_FMT " is too large for cuBLAS's 32-bit sizes", m);
  *info = 0;
  if (m == 0) PetscFunctionReturn(0);
  PetscCall(GetSolver());
  s = GPUPCCUDAStream();
  /* the factor's matrix and the info word in one allocation, the right-hand side P built in d_X: zeros, then
     its diagonal by one strided copy (row pitch m + 1 entries) */
  PetscCall(GPUPCMalloc(mm * sizeof(double) + sizeof(double), (void **)&buf));
  dA    = (double *)buf;
  dinfo = (int *)(buf + mm * sizeof(double));
  PetscCall(PetscMalloc1(m, &diag));
  for (PetscInt i = 0; i < m; i++) diag[i] = mask ? mask[i] : 1.0;
  GPUPCCallCUDA(cudaMemcpyAsync(dA, M, mm * sizeof(double), mdevice ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice, s));
  GPUPCCallCUDA(cudaMemsetAsync(d_X, 0, mm * sizeof(double), s));
  GPUPCCallCUDA(cudaMemcpy2DAsync(d_X, (size_t)(m + 1) * sizeof(double), diag, sizeof(double), sizeof(double), (size_t)m, cudaMemcpyHostToDevice, s));
  GPUPCCallCUSOLVER(cusolverDnXpotrf_bufferSize(solver, params, CUBLAS_FILL_MODE_LOWER, n, CUDA_R_64F, dA, n, CUDA_R_64F, &dbytes, &hbytes));
  if (dbytes) PetscCall(GPUPCMalloc(dbytes, &work));
  if (hbytes) PetscCall(PetscMalloc(hbytes, &hwork));
  GPUPCCallCUSOLVER(cusolverDnXpotrf(solver, params, CUBLAS_FILL_MODE_LOWER, n, CUDA_R_64F, dA, n, CUDA_R_64F, work, dbytes, hwork, hbytes, dinfo));
  GPUPCCallCUDA(cudaMemcpyAsync(&hinfo, dinfo, sizeof(int), cudaMemcpyDeviceToHost, s));
  GPUPCCallCUDA(cudaStreamSynchronize(s)); /* also ends the copies out of diag and M */
  PetscCheck(hinfo >= 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "cuSOLVER potrf rejected argument %d of a %" PetscInt_FMT " x %" PetscInt_FMT " factorization", -hinfo, m, m);
  if (hinfo == 0) {
    GPUPCCallCUSOLVER(cusolverDnXpotrs(solver, params, CUBLAS_FILL_MODE_LOWER, n, n, CUDA_R_64F, dA, n, CUDA_R_64F, d_X, n, dinfo));
    GPUPCCallCUDA(cudaMemcpyAsync(&hinfo, dinfo, sizeof(int), cudaMemcpyDeviceToHost, s));
    GPUPCCallCUDA(cudaStreamSynchronize(s));
    PetscCheck(hinfo == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "cuSOLVER potrs failed on a factored %" PetscInt_FMT " x %" PetscInt_FMT " matrix (info %d)", m, m, hinfo);
    { /* dA (the factor is no longer needed) = (X + X^T) / 2, then back into d_X */
      cublasHandle_t blas;
      const double   half = 0.5;
      PetscCall(GPUPCCUDAGetCUBLAS(&blas));
      GPUPCCallCUBLAS(cublasDgeam(blas, CUBLAS_OP_N, CUBLAS_OP_T, (int)m, (int)m, &half, d_X, (int)m, &half, d_X, (int)m, dA, (int)m));
      GPUPCCallCUDA(cudaMemcpyAsync(d_X, dA, mm * sizeof(double), cudaMemcpyDeviceToDevice, s));
      GPUPCCallCUDA(cudaStreamSynchronize(s)); /* dA is freed below */
    }
  } else *info = (PetscBLASInt)hinfo;
  PetscCall(PetscFree(hwork));
  PetscCall(PetscFree(diag));
  if (work) PetscCall(GPUPCFree(work));
  PetscCall(GPUPCFree(buf));
  PetscFunctionReturn(0);
}

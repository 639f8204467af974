/*
   gpupc/bench.h - benchmark helpers exported by the library (CUDA builds only), so that
   the benchmark programs in bench/ stay plain C compiled by mpicc.

   All times are medians over reps warm repetitions, measured with cudaEvents on the
   rank's GPUPC stream; every helper checks that the active backend is CUDA.
*/
#ifndef GPUPC_BENCH_H
#define GPUPC_BENCH_H

#include <petscmat.h>
#include <gpupc/sparsekernels.h>

/* cuSPARSE's SpGEMM with its reuse API (below; CUDA builds only) */
typedef struct _n_GPUPCBenchSpGEMM *GPUPCBenchSpGEMM;

#if defined(GPUPC_HAVE_CUDA)
/* an error unless the active backend is CUDA (who: the caller, for the message) */
PETSC_INTERN PetscErrorCode GPUPCBenchRequireCUDA(const char *);
/* y = A x with cuSPARSE's CSR SpMV (CUSPARSE_SPMV_CSR_ALG1) on a device copy of the SEQAIJ
   matrix aij; x and y any vectors (device arrays through VecGPUGetDeviceArray*); y gets
   the result. Buffer allocated once, warm-up, then reps timed launches. */
PETSC_EXTERN PetscErrorCode GPUPCBenchCuSparseSpMV(Mat aij, Vec x, Vec y, PetscInt reps, double *median_ms);
/* median time of MatMult(A, x, y) (whatever the type) over reps, after a warm-up */
PETSC_EXTERN PetscErrorCode GPUPCBenchTimeMatMult(Mat A, Vec x, Vec y, PetscInt reps, double *median_ms);
/* device-to-device cudaMemcpy of bytes bytes; GB/s counts read + write (2 * bytes / time) */
PETSC_EXTERN PetscErrorCode GPUPCBenchCopyBandwidth(size_t bytes, PetscInt reps, double *gbs);
/* median time of a host-to-device cudaMemcpy of bytes bytes from page-locked host memory (the link's speed: what a
   staged upload of those bytes costs at best) */
PETSC_EXTERN PetscErrorCode GPUPCBenchHostToDevice(size_t bytes, PetscInt reps, double *median_ms);
/* y = A x with cuSPARSE's BSR SpMV (cusparseDbsrmv, row-major blocks) on a device copy of the SEQAIJ matrix aij cut
   into b x b blocks (a block holding any entry stored whole): the baseline of bcsr in bench/spmv */
PETSC_EXTERN PetscErrorCode GPUPCBenchCuSparseBSRMV(Mat aij, PetscInt b, Vec x, Vec y, PetscInt reps, double *median_ms);

/* cuSPARSE's SpGEMM and transpose on device CSR matrices (GPUPCDevCSR, 32-bit indices, double values), the baselines of
   bench/spgemm (src/bench/cusparse_spgemm.cu); one operation per call, the caller times them:
   - GPUPCBenchCuSparseSpGEMM: C = A B from scratch (cusparseSpGEMM_workEstimation, _compute, _copy, CUSPARSE_SPGEMM_DEFAULT,
     every buffer and C's arrays allocated in the call; GPUPCDevCSRDestroy frees C);
   - the reuse API: ...Create does the symbolic part (cusparseSpGEMMreuse_workEstimation, _nnz, _copy) and makes C,
     ...Numeric recomputes C's values (cusparseSpGEMMreuse_compute), ...Destroy frees all but C;
   - GPUPCBenchCuSparseTranspose: R = A^T by cusparseCsr2cscEx2 into R's arrays (allocated by the caller; the buffer in
     the call). */
PETSC_EXTERN PetscErrorCode GPUPCBenchCuSparseSpGEMM(const GPUPCDevCSR *, const GPUPCDevCSR *, GPUPCDevCSR *);
PETSC_EXTERN PetscErrorCode GPUPCBenchCuSparseSpGEMMCreate(const GPUPCDevCSR *, const GPUPCDevCSR *, GPUPCDevCSR *, GPUPCBenchSpGEMM *);
PETSC_EXTERN PetscErrorCode GPUPCBenchCuSparseSpGEMMNumeric(GPUPCBenchSpGEMM);
PETSC_EXTERN PetscErrorCode GPUPCBenchCuSparseSpGEMMDestroy(GPUPCBenchSpGEMM *);
PETSC_EXTERN PetscErrorCode GPUPCBenchCuSparseTranspose(const GPUPCDevCSR *, GPUPCDevCSR *);
#endif

#endif

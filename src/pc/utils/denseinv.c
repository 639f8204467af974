/*
   Dense inverses of the last level of a multigrid hierarchy (gpupc/denseinv.h): on the host, LAPACK Cholesky (potrf)
   and inverse from the factor (potri), the lower triangle mirrored into the upper one; into device memory on the cuda
   backend, cuSOLVER on the device (cuda/denseinv.cu).
*/
#include <gpupc/denseinv.h>

static PetscLogEvent GPUPC_DenseInvDev = 0;

/* the event of the inverses into device memory, registered at first use */
static PetscErrorCode DenseEvent(void)
{
  PetscFunctionBegin;
  if (!GPUPC_DenseInvDev) PetscCall(PetscLogEventRegister("GPUPCDenseInvDev", GPUPC_CLASSID, &GPUPC_DenseInvDev));
  PetscFunctionReturn(0);
}

/* the host backend's masked inverse: host LAPACK on M (overwritten), the masked diagonal zeroed, then into d_X */
static PetscErrorCode HostMasked(PetscInt m, PetscReal *M, const PetscReal *mask, PetscReal *d_X, PetscBLASInt *info)
{
  PetscFunctionBegin;
  PetscCall(GPUPCDenseSPDInverse(m, M, M, info));
  if (*info == 0) {
    for (PetscInt i = 0; mask && i < m; i++) /* the masked row and column: 1 on the diagonal; zeroed */
      if (mask[i] == 0.0) M[(size_t)i * m + i] = 0.0;
    PetscCall(GPUPCCopyToDevice(d_X, M, (size_t)m * m));
  }
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDenseSetUp - on the cuda backend, creates the process's dense solver (the cuSOLVER handle on the rank's stream)
   now, once, and keeps it until PetscFinalize(); nothing on the host backend

   Not Collective

   Notes:
   The first cuSOLVER call of a process starts the library (tens of milliseconds to 0.1 s and more on an H200, varying
   run to run). PC cmg calls this when it is created, so that this start falls outside its PCSetUp(); every later
   factorization (GPUPCDenseSPDInverseMaskedDevice()) uses the same handle.

   Level: developer

.seealso: GPUPCDenseSPDInverseMaskedDevice()
@*/
PetscErrorCode GPUPCDenseSetUp(void)
{
  PetscGPUPCBackend backend;

  PetscFunctionBegin;
  PetscCall(PetscGPUPCGetBackend(&backend));
#if defined(GPUPC_HAVE_CUDA)
  if (backend == PETSC_GPUPC_BACKEND_CUDA) PetscCall(GPUPCCUDADenseSetUp());
#endif
  (void)backend;
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDenseSPDInverse - inverse of a dense symmetric positive definite matrix, on the host

   Not Collective

   Input Parameters:
+  m - order
-  M - m x m row-major matrix (symmetric: either triangle may be read); overwritten

   Output Parameters:
+  inv  - m x m row-major inverse, both triangles (may be M itself)
-  info - 0, or k > 0 when the leading minor of order k is not positive definite (inv is then undefined)

   Level: developer

.seealso: GPUPCDenseSPDInverseDevice()
@*/
PetscErrorCode GPUPCDenseSPDInverse(PetscInt m, PetscReal *M, PetscReal *inv, PetscBLASInt *info)
{
  PetscBLASInt bm;

  PetscFunctionBegin;
  *info = 0;
  if (m == 0) PetscFunctionReturn(0);
  PetscCall(PetscBLASIntCast(m, &bm));
  /* row-major M read as column-major is M^T = M: "L" of the column-major view is the row-major upper triangle */
  PetscCallBLAS("LAPACKpotrf", LAPACKpotrf_("L", &bm, M, &bm, info));
  if (*info != 0) PetscFunctionReturn(0);
  PetscCallBLAS("LAPACKpotri", LAPACKpotri_("L", &bm, M, &bm, info));
  PetscCheck(*info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK potri failed on a factored %" PetscInt_FMT " x %" PetscInt_FMT " matrix (info %d)", m, m, (int)*info);
  /* column-major lower triangle == row-major upper triangle; mirror it */
  for (PetscInt i = 0; i < m; i++) {
    for (PetscInt j = 0; j < i; j++) M[(size_t)i * m + j] = M[(size_t)j * m + i];
  }
  if (inv != M) PetscCall(PetscArraycpy(inv, M, (size_t)m * m));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDenseSPDInverseMaskedDevice - the inverse of a dense symmetric positive definite matrix with the rows and columns
   of a mask zeroed, into device memory: on the cuda backend factored on the device (cuSOLVER Cholesky, then the
   triangular solves against the masked identity), on the host backend by host LAPACK

   Not Collective

   Input Parameters:
+  m    - order
.  M    - m x m row-major host matrix (symmetric positive definite), with the rows and columns of the identity where
          mask is 0; overwritten on the host backend, unchanged on the cuda backend
-  mask - m host values, each 0 or 1, or NULL for all ones

   Output Parameters:
+  d_X  - m x m row-major device memory (GPUPCMalloc'ed by the caller): diag(mask) M^{-1} diag(mask), symmetric
-  info - 0, or k > 0 when the leading minor of order k is not positive definite (d_X is then undefined)

   Notes:
   With mask 0 at one vertex per component of a Laplacian this is PC cmg's grounded last-level inverse. Logged as
   GPUPCDenseInvDev.

   Level: developer

.seealso: GPUPCDenseSPDInverse(), GPUPCDenseSPDInverseDevice()
@*/
PetscErrorCode GPUPCDenseSPDInverseMaskedDevice(PetscInt m, PetscReal *M, const PetscReal *mask, PetscReal *d_X, PetscBLASInt *info)
{
  PetscGPUPCBackend backend;

  PetscFunctionBegin;
  *info = 0;
  if (m == 0) PetscFunctionReturn(0);
  for (PetscInt i = 0; mask && i < m; i++) {
    PetscCheck(mask[i] == 0.0 || mask[i] == 1.0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "GPUPCDenseSPDInverseMaskedDevice(): mask[%" PetscInt_FMT "] is %g; a mask holds 0 or 1", i, (double)mask[i]);
    for (PetscInt j = 0; mask[i] == 0.0 && j < m; j++) PetscCheck(M[(size_t)i * m + j] == (i == j ? 1.0 : 0.0) && M[(size_t)j * m + i] == (i == j ? 1.0 : 0.0), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "GPUPCDenseSPDInverseMaskedDevice(): row and column %" PetscInt_FMT " are masked but are not those of the identity (entry %" PetscInt_FMT ")", i, j);
  }
  PetscCall(DenseEvent());
  PetscCall(PetscGPUPCGetBackend(&backend));
  PetscCall(PetscLogEventBegin(GPUPC_DenseInvDev, 0, 0, 0, 0));
#if defined(GPUPC_HAVE_CUDA)
  if (backend == PETSC_GPUPC_BACKEND_CUDA) PetscCall(GPUPCCUDADenseSPDInverseMasked(m, M, PETSC_FALSE, mask, d_X, info));
  else
#endif
    PetscCall(HostMasked(m, M, mask, d_X, info));
  PetscCall(PetscLogEventEnd(GPUPC_DenseInvDev, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDenseSPDInverseMaskedOnDevice - GPUPCDenseSPDInverseMaskedDevice() of a matrix in device memory

   Not Collective

   Input Parameters:
+  m    - order
.  d_M  - m x m row-major device matrix (GPUPCMalloc'ed; symmetric positive definite, with the rows and columns of
          the identity where mask is 0, which is not checked); overwritten
-  mask - m host values, each 0 or 1, or NULL for all ones

   Output Parameters:
+  d_X  - m x m row-major device memory: diag(mask) M^{-1} diag(mask), symmetric
-  info - as for GPUPCDenseSPDInverseMaskedDevice()

   Notes:
   For a matrix built on the device (PC cmg's last level from its device CSR): no copy through the host.

   Level: developer

.seealso: GPUPCDenseSPDInverseMaskedDevice()
@*/
PetscErrorCode GPUPCDenseSPDInverseMaskedOnDevice(PetscInt m, PetscReal *d_M, const PetscReal *mask, PetscReal *d_X, PetscBLASInt *info)
{
  PetscGPUPCBackend backend;

  PetscFunctionBegin;
  *info = 0;
  if (m == 0) PetscFunctionReturn(0);
  PetscCall(DenseEvent());
  PetscCall(PetscGPUPCGetBackend(&backend));
  PetscCall(PetscLogEventBegin(GPUPC_DenseInvDev, 0, 0, 0, 0));
#if defined(GPUPC_HAVE_CUDA)
  if (backend == PETSC_GPUPC_BACKEND_CUDA) PetscCall(GPUPCCUDADenseSPDInverseMasked(m, d_M, PETSC_TRUE, mask, d_X, info));
  else
#endif
    PetscCall(HostMasked(m, d_M, mask, d_X, info)); /* the host backend's device memory is host memory */
  PetscCall(PetscLogEventEnd(GPUPC_DenseInvDev, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDenseSPDInverseDevice - inverse of a dense symmetric positive definite matrix, into device memory; computed on
   the device on the cuda backend (GPUPCDenseSPDInverseMaskedDevice() with the identity)

   Not Collective

   Input Parameters:
+  m - order
-  M - m x m row-major host matrix (symmetric); may be overwritten

   Output Parameters:
+  d_inv - m x m row-major inverse in device memory (GPUPCMalloc'ed by the caller)
-  info  - 0, or k > 0 when the leading minor of order k is not positive definite

   Level: developer

.seealso: GPUPCDenseSPDInverse(), GPUPCDenseSPDInverseMaskedDevice()
@*/
PetscErrorCode GPUPCDenseSPDInverseDevice(PetscInt m, PetscReal *M, PetscReal *d_inv, PetscBLASInt *info)
{
  PetscFunctionBegin;
  PetscCall(GPUPCDenseSPDInverseMaskedDevice(m, M, NULL, d_inv, info));
  PetscFunctionReturn(0);
}

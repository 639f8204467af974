/*
   Dense inverses of the last level of a multigrid hierarchy (gpupc/denseinv.h): LAPACK Cholesky (potrf) and
   inverse from the factor (potri), the lower triangle mirrored into the upper one.
*/
#include <gpupc/denseinv.h>

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
   GPUPCDenseSPDInverseDevice - inverse of a dense symmetric positive definite matrix, into device memory

   Not Collective

   Input Parameters:
+  m - order
-  M - m x m row-major host matrix (symmetric); overwritten

   Output Parameters:
+  d_inv - m x m row-major inverse in device memory (GPUPCMalloc'ed by the caller)
-  info  - 0, or k > 0 when the leading minor of order k is not positive definite

   Level: developer

.seealso: GPUPCDenseSPDInverse()
@*/
PetscErrorCode GPUPCDenseSPDInverseDevice(PetscInt m, PetscReal *M, PetscReal *d_inv, PetscBLASInt *info)
{
  PetscFunctionBegin;
  PetscCall(GPUPCDenseSPDInverse(m, M, M, info));
  if (*info == 0 && m > 0) PetscCall(GPUPCCopyToDevice(d_inv, M, (size_t)m * m));
  PetscFunctionReturn(0);
}

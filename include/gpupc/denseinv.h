/*
   gpupc/denseinv.h - dense inverses of the last level of a multigrid hierarchy (private to GPUPC).

   PC cmg (grounded Laplacian) and PC gpuamg (coarsest Galerkin operator) solve their last level by a dense
   inverse applied as a matrix-vector product on the device. The inverse is computed on the active backend:
   host LAPACK on the host backend; on the cuda backend on the device (cuSOLVER, src/pc/utils/cuda), so a last
   level of a few thousand rows does not wait for one host core. -log_view: event GPUPCDenseInvDev.
*/
#ifndef GPUPC_DENSEINV_H
#define GPUPC_DENSEINV_H

#include <gpupc/device.h>
#include <petscblaslapack.h>

/* GPUPCDenseSPDInverse: M (m x m, row-major, symmetric positive definite; overwritten) -> inv (m x m row-major, both
   triangles), host memory. *info is 0 on success, k > 0 when the leading minor of order k is not positive definite
   (the caller words the error: it knows what the matrix is). */
PETSC_EXTERN PetscErrorCode GPUPCDenseSPDInverse(PetscInt m, PetscReal *M, PetscReal *inv, PetscBLASInt *info);
/* the same, with the result in device memory d_inv (m*m PetscReal, allocated by the caller with GPUPCMalloc); on the
   cuda backend the factorization runs on the device (GPUPCDenseSPDInverseMaskedDevice with d NULL). M is host memory and
   may be overwritten. */
PETSC_EXTERN PetscErrorCode GPUPCDenseSPDInverseDevice(PetscInt m, PetscReal *M, PetscReal *d_inv, PetscBLASInt *info);

/* GPUPCDenseSPDInverseMaskedDevice: X = P M^{-1} P (m x m, row-major, symmetric) with P = diag(mask) for a 0/1 mask
   (host, m values; NULL: all ones, X = M^{-1}), into device memory d_X (m*m PetscReal, GPUPCMalloc'ed by the caller).
   M (row-major, symmetric positive definite) must have the rows and columns of the identity where the mask is 0: then
   X is the inverse of the kept part with zero rows and columns at the masked ones (a grounded inverse). On the cuda
   backend M is copied to the device and factored there (cuSOLVER potrf, potrs against P, the result symmetrized
   exactly as the host's is) and is left unchanged; on the host backend by host LAPACK (GPUPCDenseSPDInverse, M
   overwritten). *info as for GPUPCDenseSPDInverse. */
PETSC_EXTERN PetscErrorCode GPUPCDenseSPDInverseMaskedDevice(PetscInt m, PetscReal *M, const PetscReal *d, PetscReal *d_X, PetscBLASInt *info);

/* GPUPCDenseSPDInverseMaskedOnDevice: the same with M in device memory (m*m PetscReal, GPUPCMalloc'ed; its masked rows
   and columns those of the identity, not checked), overwritten: a matrix built on the device is factored without a
   copy through the host */
PETSC_EXTERN PetscErrorCode GPUPCDenseSPDInverseMaskedOnDevice(PetscInt m, PetscReal *d_M, const PetscReal *d, PetscReal *d_X, PetscBLASInt *info);

/* GPUPCDenseSetUp: on the cuda backend, creates the process's cuSOLVER handle now (once; kept until PetscFinalize) so
   that the first factorization does not pay the library's start; nothing on the host backend */
PETSC_EXTERN PetscErrorCode GPUPCDenseSetUp(void);

#if defined(GPUPC_HAVE_CUDA)
/* the cuda backend's factorization (src/pc/utils/cuda/denseinv.cu), called by denseinv.c only */
PETSC_INTERN PetscErrorCode GPUPCCUDADenseSPDInverseMasked(PetscInt m, const PetscReal *M, PetscBool mdevice, const PetscReal *d, PetscReal *d_X, PetscBLASInt *info);
PETSC_INTERN PetscErrorCode GPUPCCUDADenseSetUp(void);
#endif

#endif

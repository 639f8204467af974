/*
   gpupc/denseinv.h - dense inverses of the last level of a multigrid hierarchy (private to GPUPC).

   PC cmg (grounded Laplacian) and PC gpuamg (coarsest Galerkin operator) solve their last level by a dense
   inverse applied as a matrix-vector product on the device. The inverse is computed on the active backend:
   host LAPACK on the host backend; on the cuda backend on the device, so a last level of a few thousand rows
   does not wait for one host core (src/pc/utils).
*/
#ifndef GPUPC_DENSEINV_H
#define GPUPC_DENSEINV_H

#include <gpupc/device.h>
#include <petscblaslapack.h>

/* GPUPCDenseSPDInverse: M (m x m, row-major, symmetric positive definite; overwritten) -> inv (m x m row-major, both
   triangles), host memory. *info is 0 on success, k > 0 when the leading minor of order k is not positive definite
   (the caller words the error: it knows what the matrix is). */
PETSC_INTERN PetscErrorCode GPUPCDenseSPDInverse(PetscInt m, PetscReal *M, PetscReal *inv, PetscBLASInt *info);
/* the same, with the result in device memory d_inv (m*m PetscReal, allocated by the caller with GPUPCMalloc); on the
   cuda backend the factorization runs on the device. M is host memory and is overwritten. */
PETSC_INTERN PetscErrorCode GPUPCDenseSPDInverseDevice(PetscInt m, PetscReal *M, PetscReal *d_inv, PetscBLASInt *info);

#endif

/*
   Registers GPUPC's Mat types. Each type adds its MatRegister() calls here.
*/
#include <petscmat.h>
#include <gpupc/registry.h>
#include <gpupc/sparsekernels.h>

PETSC_INTERN PetscErrorCode GPUPCRegisterSegCSR(void); /* src/mat/impls/segcsr/segcsr.c */
PETSC_INTERN PetscErrorCode GPUPCRegisterBCSR(void);   /* src/mat/impls/bcsr/bcsr.c */
PETSC_INTERN PetscErrorCode GPUPCRegisterHEC(void);    /* src/mat/impls/hec/hec.c */

PetscErrorCode GPUPCRegisterMat(void)
{
  PetscFunctionBegin;
  PetscCall(GPUPCRegisterSegCSR());
  PetscCall(GPUPCRegisterBCSR());
  PetscCall(GPUPCRegisterHEC());
  PetscCall(GPUPCSparseRegisterEvents());
  PetscFunctionReturn(0);
}

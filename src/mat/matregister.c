/*
   Registers GPUPC's Mat types. Each type adds its MatRegister() calls here.
*/
#include <petscmat.h>
#include <gpupc/registry.h>

PetscErrorCode GPUPCRegisterMat(void)
{
  PetscFunctionBegin;
  PetscFunctionReturn(0);
}

/*
   Registers GPUPC's PC types. Each type adds its PCRegister() calls here.
*/
#include <petscpc.h>
#include <gpupc/registry.h>

PetscErrorCode GPUPCRegisterPC(void)
{
  PetscFunctionBegin;
  PetscFunctionReturn(0);
}

/*
   Registers GPUPC's PC types. Each type adds its PCRegister() calls here.
*/
#include <petscpc.h>
#include <gpupc/registry.h>
#include <gpupc/cmg.h>

PetscErrorCode GPUPCRegisterPC(void)
{
  PetscFunctionBegin;
  PetscCall(PCCMGRegisterEvents());
  PetscCall(PCRegister(PCCMG, PCCreate_CMG));
  PetscFunctionReturn(0);
}

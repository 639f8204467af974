/*
   Registers GPUPC's PC types. Each type adds its PCRegister() calls here.
*/
#include <petscpc.h>
#include <gpupc/registry.h>
#include <gpupc/cmg.h>
#include <gpupc/amgcycle.h>

PetscErrorCode GPUPCRegisterPC(void)
{
  PetscFunctionBegin;
  PetscCall(PCCMGRegisterEvents());
  PetscCall(PCRegister(PCCMG, PCCreate_CMG));
  /* PC gpuamg: the events of its host setup and of its device cycle */
  PetscCall(GPUPCAMGRegisterSetupEvents());
  PetscCall(PCGPUAMGRegisterEvents());
  PetscCall(PCRegister(PCGPUAMG, PCCreate_GPUAMG));
  PetscFunctionReturn(0);
}

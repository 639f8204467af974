/*
   Registers GPUPC's KSP types and their log events. Each type adds its KSPRegister() call here.
*/
#include <gpupc/registry.h>
#include <gpupc/gpucg.h>

PETSC_INTERN PetscErrorCode KSPCreate_GPUCG(KSP);

PetscLogEvent KSP_GPUCGUpdate, KSP_GPUCGReduce;

PetscErrorCode GPUPCRegisterKSP(void)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventRegister("KSPGPUCGUpdate", KSP_CLASSID, &KSP_GPUCGUpdate));
  PetscCall(PetscLogEventRegister("KSPGPUCGReduce", KSP_CLASSID, &KSP_GPUCGReduce));
  PetscCall(KSPRegister(KSPGPUCG, KSPCreate_GPUCG));
  PetscFunctionReturn(0);
}

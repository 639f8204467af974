/*
   Registers GPUPC's Mat types (each type adds its MatRegister() calls here) and the log events of the machinery they
   share (the halo exchange of the parallel types, the device sparse kernels of the setups).
*/
#include <petscmat.h>
#include <gpupc/registry.h>
#include <gpupc/sparsekernels.h>
#include <gpupc/matgpu.h>

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
  PetscCall(PetscLogEventRegister("GPUHaloSetUp", MAT_CLASSID, &GPUPC_HaloSetUp)); /* halo.c: every parallel type's */
  PetscCall(PetscLogEventRegister("GPUHaloForward", MAT_CLASSID, &GPUPC_HaloForward));
  PetscCall(PetscLogEventRegister("GPUHaloReverse", MAT_CLASSID, &GPUPC_HaloReverse));
  PetscCall(PetscLogEventRegister("GPUHaloPack", MAT_CLASSID, &GPUPC_HaloPack));
  PetscCall(PetscLogEventRegister("GPUHaloExchange", MAT_CLASSID, &GPUPC_HaloExchange));
  PetscCall(PetscLogEventRegister("GPUHaloUnpack", MAT_CLASSID, &GPUPC_HaloUnpack));
  PetscFunctionReturn(0);
}

/*
   Package registration: every GPUPC type, log event and option is registered here.
*/
#include <gpupc/device.h>
#include <gpupc/registry.h>
#include <gpupc/threads.h>

PetscClassId  GPUPC_CLASSID;
PetscLogEvent GPUPC_DeviceSetUp, GPUPC_CopyToDevice, GPUPC_CopyFromDevice;

static PetscBool package_initialized = PETSC_FALSE;

PETSC_INTERN PetscErrorCode GPUPCDeviceReadOptions(void);

/*@C
   PetscGPUPCFinalizePackage - releases the device resources of GPUPC (streams, handles)

   Level: developer

   Note:
   Called from PetscFinalize(); users do not call it.

.seealso: PetscGPUPCInitializePackage()
@*/
PetscErrorCode PetscGPUPCFinalizePackage(void)
{
  PetscFunctionBegin;
  PetscCall(GPUPCDeviceFinalize());
  package_initialized = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/*@C
   PetscGPUPCInitializePackage - registers every GPUPC type (Vec gpu/seqgpu/mpigpu and the
   Mat, PC and KSP types of the library), its log events and its options

   Collective on PETSC_COMM_WORLD (reads the -gpupc_ options and the node-local rank)

   Level: beginner

   Notes:
   Called automatically when the library is loaded with -dll_append or PETSC_OPTIONS;
   programs that link libpetscgpupc directly call it once after PetscInitialize().
   The CUDA device itself is initialized at first use, not here.

.seealso: PetscGPUPCGetBackend()
@*/
PetscErrorCode PetscGPUPCInitializePackage(void)
{
  PetscFunctionBegin;
  if (package_initialized) PetscFunctionReturn(0);
  package_initialized = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("GPUPC", &GPUPC_CLASSID));
  PetscCall(PetscLogEventRegister("GPUPCDeviceSetUp", GPUPC_CLASSID, &GPUPC_DeviceSetUp));
  PetscCall(PetscLogEventRegister("GPUPCCopyToDev", GPUPC_CLASSID, &GPUPC_CopyToDevice));
  PetscCall(PetscLogEventRegister("GPUPCCopyFromDev", GPUPC_CLASSID, &GPUPC_CopyFromDevice));
  PetscCall(GPUPCDeviceReadOptions());
  PetscCall(GPUPCHostCoresSetUp()); /* the rank's cores: the default threads of host setups (src/sys/threads.c) */
  PetscCall(GPUPCRegisterVec());
  PetscCall(GPUPCRegisterMat());
  PetscCall(GPUPCRegisterPC());
  PetscCall(GPUPCRegisterKSP());
  PetscCall(PetscRegisterFinalize(PetscGPUPCFinalizePackage));
  PetscFunctionReturn(0);
}

/*
   PetscDLLibraryRegister_petscgpupc - entry point PETSc's dynamic loader calls for
   -dll_append .../libpetscgpupc.so
*/
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_petscgpupc(void)
{
  PetscFunctionBegin;
  PetscCall(PetscGPUPCInitializePackage());
  PetscFunctionReturn(0);
}

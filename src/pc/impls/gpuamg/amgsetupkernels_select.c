/*
   The gpuamg device-setup kernel table's getters (the choice itself is GPUPCKernelTableSelect) and its member names,
   for messages and for tests that walk the table.
*/
#include <gpupc/amgsetupkernels.h>

const char *const GPUPCAMGSetupKernelNames[] = {GPUPC_AMG_SETUP_KERNEL_LIST(GPUPC_KERNEL_NAME, ) NULL};

/*@C
   GPUPCGetAMGSetupKernelsFor - the gpuamg device-setup kernel table of a given backend

   Not Collective

   Input Parameter:
.  backend - PETSC_GPUPC_BACKEND_HOST or PETSC_GPUPC_BACKEND_CUDA

   Output Parameter:
.  k - the table

   Level: developer

   Note:
   The CUDA table is only usable when the active backend is CUDA (its pointers are device pointers).

.seealso: GPUPCGetAMGSetupKernels()
@*/
PetscErrorCode GPUPCGetAMGSetupKernelsFor(PetscGPUPCBackend backend, const GPUPCAMGSetupKernels **k)
{
  PetscFunctionBegin;
  PetscCall(GPUPCKernelTableSelect(backend, &GPUPCAMGSetupKernelsHost, GPUPC_CUDA_TABLE(GPUPCAMGSetupKernelsCUDA), "gpuamg setup", (const void **)k));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCGetAMGSetupKernels - the gpuamg device-setup kernel table of the active backend

   Not Collective

   Output Parameter:
.  k - the table (host reference or CUDA)

   Level: developer

.seealso: GPUPCGetAMGSetupKernelsFor()
@*/
PetscErrorCode GPUPCGetAMGSetupKernels(const GPUPCAMGSetupKernels **k)
{
  PetscFunctionBegin;
  PetscCall(GPUPCKernelTableSelectActive(&GPUPCAMGSetupKernelsHost, GPUPC_CUDA_TABLE(GPUPCAMGSetupKernelsCUDA), "gpuamg setup", (const void **)k));
  PetscFunctionReturn(0);
}

/*
   The CMG setup kernel table's getters (the choice itself is GPUPCKernelTableSelect) and its member names.
*/
#include <gpupc/cmgsetupkernels.h>

const char *const GPUPCCMGSetupKernelNames[] = {GPUPC_CMG_SETUP_KERNEL_LIST(GPUPC_KERNEL_NAME, ) NULL};

/*@C
   GPUPCGetCMGSetupKernelsFor - the CMG setup kernel table of a given backend

   Not Collective

   Input Parameter:
.  backend - PETSC_GPUPC_BACKEND_HOST or PETSC_GPUPC_BACKEND_CUDA

   Output Parameter:
.  k - the table

   Level: developer

.seealso: GPUPCGetCMGSetupKernels()
@*/
PetscErrorCode GPUPCGetCMGSetupKernelsFor(PetscGPUPCBackend backend, const GPUPCCMGSetupKernels **k)
{
  PetscFunctionBegin;
  PetscCall(GPUPCKernelTableSelect(backend, &GPUPCCMGSetupKernelsHost, GPUPC_CUDA_TABLE(GPUPCCMGSetupKernelsCUDA), "CMG setup", (const void **)k));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCGetCMGSetupKernels - the CMG setup kernel table of the active backend

   Not Collective

   Output Parameter:
.  k - the table (host reference or CUDA)

   Level: developer

.seealso: GPUPCGetCMGSetupKernelsFor()
@*/
PetscErrorCode GPUPCGetCMGSetupKernels(const GPUPCCMGSetupKernels **k)
{
  PetscFunctionBegin;
  PetscCall(GPUPCKernelTableSelectActive(&GPUPCCMGSetupKernelsHost, GPUPC_CUDA_TABLE(GPUPCCMGSetupKernelsCUDA), "CMG setup", (const void **)k));
  PetscFunctionReturn(0);
}

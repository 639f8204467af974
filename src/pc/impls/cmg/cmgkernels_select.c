/*
   The CMG kernel table's getters (the choice itself is GPUPCKernelTableSelect) and its member
   names, for messages and for tests that walk the table.
*/
#include <gpupc/cmgkernels.h>

const char *const GPUPCCMGKernelNames[] = {GPUPC_CMG_KERNEL_LIST(GPUPC_KERNEL_NAME, ) NULL};

/*@C
   GPUPCGetCMGKernelsFor - the CMG cycle kernel table of a given backend

   Not Collective

   Input Parameter:
.  backend - PETSC_GPUPC_BACKEND_HOST or PETSC_GPUPC_BACKEND_CUDA

   Output Parameter:
.  k - the table

   Level: developer

   Note:
   The CUDA table is only usable when the active backend is CUDA (its pointers are device pointers).

.seealso: GPUPCGetCMGKernels()
@*/
PetscErrorCode GPUPCGetCMGKernelsFor(PetscGPUPCBackend backend, const GPUPCCMGKernels **k)
{
  PetscFunctionBegin;
  PetscCall(GPUPCKernelTableSelect(backend, &GPUPCCMGKernelsHost, GPUPC_CUDA_TABLE(GPUPCCMGKernelsCUDA), "CMG", (const void **)k));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCGetCMGKernels - the CMG cycle kernel table of the active backend

   Not Collective

   Output Parameter:
.  k - the table (host reference or CUDA)

   Level: developer

.seealso: GPUPCGetCMGKernelsFor(), GPUPCGetVecKernels()
@*/
PetscErrorCode GPUPCGetCMGKernels(const GPUPCCMGKernels **k)
{
  PetscFunctionBegin;
  PetscCall(GPUPCKernelTableSelectActive(&GPUPCCMGKernelsHost, GPUPC_CUDA_TABLE(GPUPCCMGKernelsCUDA), "CMG", (const void **)k));
  PetscFunctionReturn(0);
}

/*
   The gpuamg cycle kernel table's getters (the choice itself is GPUPCKernelTableSelect) and its member names, for
   messages and for tests that walk the table.
*/
#include <gpupc/amgkernels.h>

const char *const GPUPCAMGKernelNames[] = {GPUPC_AMG_KERNEL_LIST(GPUPC_KERNEL_NAME, ) NULL};

/*@C
   GPUPCGetAMGKernelsFor - the gpuamg cycle kernel table of a given backend

   Not Collective

   Input Parameter:
.  backend - PETSC_GPUPC_BACKEND_HOST or PETSC_GPUPC_BACKEND_CUDA

   Output Parameter:
.  k - the table

   Level: developer

   Note:
   The CUDA table is only usable when the active backend is CUDA (its pointers are device pointers).

.seealso: GPUPCGetAMGKernels()
@*/
PetscErrorCode GPUPCGetAMGKernelsFor(PetscGPUPCBackend backend, const GPUPCAMGKernels **k)
{
  PetscFunctionBegin;
  PetscCall(GPUPCKernelTableSelect(backend, &GPUPCAMGKernelsHost, GPUPC_CUDA_TABLE(GPUPCAMGKernelsCUDA), "gpuamg", (const void **)k));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCGetAMGKernels - the gpuamg cycle kernel table of the active backend

   Not Collective

   Output Parameter:
.  k - the table (host reference or CUDA)

   Level: developer

.seealso: GPUPCGetAMGKernelsFor()
@*/
PetscErrorCode GPUPCGetAMGKernels(const GPUPCAMGKernels **k)
{
  PetscFunctionBegin;
  PetscCall(GPUPCKernelTableSelectActive(&GPUPCAMGKernelsHost, GPUPC_CUDA_TABLE(GPUPCAMGKernelsCUDA), "gpuamg", (const void **)k));
  PetscFunctionReturn(0);
}

/*
   The vector-kernel table's getters (the choice itself is GPUPCKernelTableSelect) and its
   member names, for messages and for tests that walk the table.
*/
#include <gpupc/veckernels.h>

const char *const GPUPCVecKernelNames[] = {GPUPC_VEC_KERNEL_LIST(GPUPC_KERNEL_NAME, ) NULL};

/*@C
   GPUPCGetVecKernelsFor - the vector-kernel table of a given backend

   Not Collective

   Input Parameter:
.  backend - PETSC_GPUPC_BACKEND_HOST or PETSC_GPUPC_BACKEND_CUDA

   Output Parameter:
.  k - the table

   Level: developer

   Note:
   The CUDA table is only usable when the active backend is CUDA (its pointers are device pointers).
@*/
PetscErrorCode GPUPCGetVecKernelsFor(PetscGPUPCBackend backend, const GPUPCVecKernels **k)
{
  PetscFunctionBegin;
  PetscCall(GPUPCKernelTableSelect(backend, &GPUPCVecKernelsHost, GPUPC_CUDA_TABLE(GPUPCVecKernelsCUDA), "vector", (const void **)k));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCGetVecKernels - the vector-kernel table of the active backend

   Not Collective

   Output Parameter:
.  k - the table

   Level: developer

.seealso: GPUPCGetVecKernelsFor()
@*/
PetscErrorCode GPUPCGetVecKernels(const GPUPCVecKernels **k)
{
  PetscFunctionBegin;
  PetscCall(GPUPCKernelTableSelectActive(&GPUPCVecKernelsHost, GPUPC_CUDA_TABLE(GPUPCVecKernelsCUDA), "vector", (const void **)k));
  PetscFunctionReturn(0);
}

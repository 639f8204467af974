/*
   The gpubjacobi kernel table's getters (the choice itself is GPUPCKernelTableSelect) and its member names, for
   messages and for tests that walk the table.
*/
#include <gpupc/gpubjacobikernels.h>

const char *const GPUPCPBJKernelNames[] = {GPUPC_PBJ_KERNEL_LIST(GPUPC_KERNEL_NAME, ) NULL};

/*@C
   GPUPCGetPBJKernelsFor - the gpubjacobi kernel table of a given backend

   Not Collective

   Input Parameter:
.  backend - PETSC_GPUPC_BACKEND_HOST or PETSC_GPUPC_BACKEND_CUDA

   Output Parameter:
.  k - the table

   Level: developer

   Note:
   The CUDA table is only usable when the active backend is CUDA (its pointers are device pointers).

.seealso: GPUPCGetPBJKernels(), PCGPUBJACOBI
@*/
PetscErrorCode GPUPCGetPBJKernelsFor(PetscGPUPCBackend backend, const GPUPCPBJKernels **k)
{
  PetscFunctionBegin;
  PetscCall(GPUPCKernelTableSelect(backend, &GPUPCPBJKernelsHost, GPUPC_CUDA_TABLE(GPUPCPBJKernelsCUDA), "gpubjacobi", (const void **)k));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCGetPBJKernels - the gpubjacobi kernel table of the active backend

   Not Collective

   Output Parameter:
.  k - the table (host reference or CUDA)

   Level: developer

.seealso: GPUPCGetPBJKernelsFor(), PCGPUBJACOBI
@*/
PetscErrorCode GPUPCGetPBJKernels(const GPUPCPBJKernels **k)
{
  PetscFunctionBegin;
  PetscCall(GPUPCKernelTableSelectActive(&GPUPCPBJKernelsHost, GPUPC_CUDA_TABLE(GPUPCPBJKernelsCUDA), "gpubjacobi", (const void **)k));
  PetscFunctionReturn(0);
}

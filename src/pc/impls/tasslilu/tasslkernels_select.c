/*
   The TASSL kernel table's getters (the choice itself is GPUPCKernelTableSelect) and its member
   names, for messages and for tests that walk the table.
*/
#include <gpupc/tasslkernels.h>

const char *const GPUPCTasslKernelNames[] = {GPUPC_TASSL_KERNEL_LIST(GPUPC_KERNEL_NAME, ) NULL};

/*@C
   GPUPCGetTasslKernelsFor - the TASSL triangular-solve kernel table of a given backend

   Not Collective

   Input Parameter:
.  backend - PETSC_GPUPC_BACKEND_HOST or PETSC_GPUPC_BACKEND_CUDA

   Output Parameter:
.  k - the table

   Level: developer

   Note:
   The CUDA table is only usable when the active backend is CUDA (its pointers are device pointers).

.seealso: GPUPCGetTasslKernels()
@*/
PetscErrorCode GPUPCGetTasslKernelsFor(PetscGPUPCBackend backend, const GPUPCTasslKernels **k)
{
  PetscFunctionBegin;
  PetscCall(GPUPCKernelTableSelect(backend, &GPUPCTasslKernelsHost, GPUPC_CUDA_TABLE(GPUPCTasslKernelsCUDA), "TASSL", (const void **)k));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCGetTasslKernels - the TASSL triangular-solve kernel table of the active backend

   Not Collective

   Output Parameter:
.  k - the table (host reference or CUDA)

   Level: developer

.seealso: GPUPCGetTasslKernelsFor(), GPUPCGetVecKernels()
@*/
PetscErrorCode GPUPCGetTasslKernels(const GPUPCTasslKernels **k)
{
  PetscFunctionBegin;
  PetscCall(GPUPCKernelTableSelectActive(&GPUPCTasslKernelsHost, GPUPC_CUDA_TABLE(GPUPCTasslKernelsCUDA), "TASSL", (const void **)k));
  PetscFunctionReturn(0);
}

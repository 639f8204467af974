/*
   The segmented-CSR kernel table's getters (the choice itself is GPUPCKernelTableSelect) and
   its member names, for messages and for tests that walk the table.
*/
#include <gpupc/segcsrkernels.h>

const char *const GPUPCSegCSRKernelNames[] = {GPUPC_SEGCSR_KERNEL_LIST(GPUPC_KERNEL_NAME, ) NULL};

/*@C
   GPUPCGetSegCSRKernelsFor - the segmented-CSR kernel table of a given backend

   Not Collective

   Input Parameter:
.  backend - PETSC_GPUPC_BACKEND_HOST or PETSC_GPUPC_BACKEND_CUDA

   Output Parameter:
.  k - the table

   Level: developer

   Note:
   The CUDA table is only usable when the active backend is CUDA (its pointers are device pointers).

.seealso: GPUPCGetSegCSRKernels(), MATSEGCSR
@*/
PetscErrorCode GPUPCGetSegCSRKernelsFor(PetscGPUPCBackend backend, const GPUPCSegCSRKernels **k)
{
  PetscFunctionBegin;
  PetscCall(GPUPCKernelTableSelect(backend, &GPUPCSegCSRKernelsHost, GPUPC_CUDA_TABLE(GPUPCSegCSRKernelsCUDA), "segcsr", (const void **)k));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCGetSegCSRKernels - the segmented-CSR kernel table of the active backend

   Not Collective

   Output Parameter:
.  k - the table

   Level: developer

.seealso: GPUPCGetSegCSRKernelsFor()
@*/
PetscErrorCode GPUPCGetSegCSRKernels(const GPUPCSegCSRKernels **k)
{
  PetscFunctionBegin;
  PetscCall(GPUPCKernelTableSelectActive(&GPUPCSegCSRKernelsHost, GPUPC_CUDA_TABLE(GPUPCSegCSRKernelsCUDA), "segcsr", (const void **)k));
  PetscFunctionReturn(0);
}

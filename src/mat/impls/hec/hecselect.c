/*
   The HEC (hybrid ELL + CSR) kernel table's getters (the choice itself is GPUPCKernelTableSelect) and
   its member names, for messages and for tests that walk the table.
*/
#include <gpupc/heckernels.h>

const char *const GPUPCHECKernelNames[] = {GPUPC_HEC_KERNEL_LIST(GPUPC_KERNEL_NAME, ) NULL};

/*@C
   GPUPCGetHECKernelsFor - the HEC (hybrid ELL + CSR) kernel table of a given backend

   Not Collective

   Input Parameter:
.  backend - PETSC_GPUPC_BACKEND_HOST or PETSC_GPUPC_BACKEND_CUDA

   Output Parameter:
.  k - the table

   Level: developer

   Note:
   The CUDA table is only usable when the active backend is CUDA (its pointers are device pointers).

.seealso: GPUPCGetHECKernels(), MATHEC
@*/
PetscErrorCode GPUPCGetHECKernelsFor(PetscGPUPCBackend backend, const GPUPCHECKernels **k)
{
  PetscFunctionBegin;
  PetscCall(GPUPCKernelTableSelect(backend, &GPUPCHECKernelsHost, GPUPC_CUDA_TABLE(GPUPCHECKernelsCUDA), "hec", (const void **)k));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCGetHECKernels - the HEC (hybrid ELL + CSR) kernel table of the active backend

   Not Collective

   Output Parameter:
.  k - the table

   Level: developer

.seealso: GPUPCGetHECKernelsFor()
@*/
PetscErrorCode GPUPCGetHECKernels(const GPUPCHECKernels **k)
{
  PetscFunctionBegin;
  PetscCall(GPUPCKernelTableSelectActive(&GPUPCHECKernelsHost, GPUPC_CUDA_TABLE(GPUPCHECKernelsCUDA), "hec", (const void **)k));
  PetscFunctionReturn(0);
}

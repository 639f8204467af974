/*
   Picks the vector-kernel table of the active backend.
*/
#include <gpupc/veckernels.h>

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
  if (backend == PETSC_GPUPC_BACKEND_HOST) {
    *k = &GPUPCVecKernelsHost;
    PetscFunctionReturn(0);
  }
#if defined(GPUPC_HAVE_CUDA)
  *k = &GPUPCVecKernelsCUDA;
  PetscFunctionReturn(0);
#else
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "GPUPC was built without CUDA; no CUDA kernels");
#endif
}

PetscErrorCode GPUPCGetVecKernels(const GPUPCVecKernels **k)
{
  PetscGPUPCBackend backend;

  PetscFunctionBegin;
  PetscCall(PetscGPUPCGetBackend(&backend));
  PetscCall(GPUPCGetVecKernelsFor(backend, k));
  PetscFunctionReturn(0);
}

/*
   Picks the CMG kernel table of the active backend.
*/
#include <gpupc/cmgkernels.h>

/*@C
   GPUPCGetCMGKernels - the CMG cycle kernel table of the active backend

   Not Collective

   Output Parameter:
.  k - the table (host reference or CUDA)

   Level: developer

.seealso: GPUPCGetVecKernels()
@*/
PetscErrorCode GPUPCGetCMGKernels(const GPUPCCMGKernels **k)
{
  PetscGPUPCBackend backend;

  PetscFunctionBegin;
  PetscCall(PetscGPUPCGetBackend(&backend));
  if (backend == PETSC_GPUPC_BACKEND_HOST) {
    *k = &GPUPCCMGKernelsHost;
    PetscFunctionReturn(0);
  }
#if defined(GPUPC_HAVE_CUDA)
  *k = &GPUPCCMGKernelsCUDA;
  PetscFunctionReturn(0);
#else
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "GPUPC was built without CUDA; no CUDA CMG kernels");
#endif
}

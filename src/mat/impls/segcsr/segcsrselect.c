/*
   Picks the segmented-CSR kernel table of the active backend.
*/
#include <gpupc/segcsrkernels.h>

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
  if (backend == PETSC_GPUPC_BACKEND_HOST) {
    *k = &GPUPCSegCSRKernelsHost;
    PetscFunctionReturn(0);
  }
#if defined(GPUPC_HAVE_CUDA)
  *k = &GPUPCSegCSRKernelsCUDA;
  PetscFunctionReturn(0);
#else
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "GPUPC was built without CUDA; no CUDA segcsr kernels");
#endif
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
  PetscGPUPCBackend backend;

  PetscFunctionBegin;
  PetscCall(PetscGPUPCGetBackend(&backend));
  PetscCall(GPUPCGetSegCSRKernelsFor(backend, k));
  PetscFunctionReturn(0);
}

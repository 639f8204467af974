/*
   The backend choice of every kernel table (gpupc/kerneltable.h): the vec, segcsr, cmg and
   halo getters all come here, so a build without CUDA fails the same way for each.
*/
#include <gpupc/kerneltable.h>

/*@C
   GPUPCKernelTableSelect - the kernel table of a given backend

   Not Collective

   Input Parameters:
+  backend - PETSC_GPUPC_BACKEND_HOST or PETSC_GPUPC_BACKEND_CUDA
.  host - the table's host implementation
.  cuda - its CUDA implementation, NULL in a build without CUDA (GPUPC_CUDA_TABLE())
-  table - what the table is, for the error message ("vector", "segcsr", "cmg", "halo")

   Output Parameter:
.  k - the table

   Level: developer

   Note:
   The CUDA table is only usable when the active backend is CUDA (its pointers are device pointers).
   Asking for the CUDA table of a build without CUDA is an error, never a silent fallback to the host.

.seealso: GPUPCKernelTableSelectActive(), GPUPCGetVecKernelsFor()
@*/
PetscErrorCode GPUPCKernelTableSelect(PetscGPUPCBackend backend, const void *host, const void *cuda, const char *table, const void **k)
{
  PetscFunctionBegin;
  *k = NULL;
  switch (backend) {
  case PETSC_GPUPC_BACKEND_HOST:
    *k = host;
    break;
  case PETSC_GPUPC_BACKEND_CUDA:
    PetscCheck(cuda, PETSC_COMM_SELF, PETSC_ERR_SUP, "GPUPC was built without CUDA (make CUDA=0); no CUDA %s kernels. Use -gpupc_backend host or rebuild with CUDA", table);
    *k = cuda;
    break;
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Unknown GPUPC backend %d for the %s kernels", (int)backend, table);
  }
  PetscCheck(*k, PETSC_COMM_SELF, PETSC_ERR_PLIB, "No %s %s kernel table", PetscGPUPCBackends[backend], table);
  PetscFunctionReturn(0);
}

/*@C
   GPUPCKernelTableSelectActive - the kernel table of the active backend (PetscGPUPCGetBackend())

   Not Collective

   Input Parameters:
+  host - the table's host implementation
.  cuda - its CUDA implementation, NULL in a build without CUDA
-  table - what the table is, for the error message

   Output Parameter:
.  k - the table

   Level: developer

.seealso: GPUPCKernelTableSelect()
@*/
PetscErrorCode GPUPCKernelTableSelectActive(const void *host, const void *cuda, const char *table, const void **k)
{
  PetscGPUPCBackend backend;

  PetscFunctionBegin;
  PetscCall(PetscGPUPCGetBackend(&backend));
  PetscCall(GPUPCKernelTableSelect(backend, host, cuda, table, k));
  PetscFunctionReturn(0);
}

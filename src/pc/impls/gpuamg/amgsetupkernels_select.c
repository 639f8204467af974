/*
   The gpuamg device-setup kernel table's getters (the choice itself is GPUPCKernelTableSelect) and its member names,
   for messages and for tests that walk the table.
*/
#include <gpupc/amgsetupkernels.h>

const char *const GPUPCAMGSetupKernelNames[] = {GPUPC_AMG_SETUP_KERNEL_LIST(GPUPC_KERNEL_NAME, ) NULL};

/* GPUPCGetAMGSetupKernelsFor(backend, &k): the table of a backend (the CUDA table is usable only when the active
   backend is CUDA); GPUPCGetAMGSetupKernels(&k): the table of the active backend (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_GETTERS(GPUPCAMGSetupKernels, AMGSetup, "gpuamg setup")

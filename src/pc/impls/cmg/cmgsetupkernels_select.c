/*
   The CMG setup kernel table's getters (the choice itself is GPUPCKernelTableSelect) and its member names, for
   messages and for tests that walk the table.
*/
#include <gpupc/cmgsetupkernels.h>

const char *const GPUPCCMGSetupKernelNames[] = {GPUPC_CMG_SETUP_KERNEL_LIST(GPUPC_KERNEL_NAME, ) NULL};

/* GPUPCGetCMGSetupKernelsFor(backend, &k): the table of a backend (the CUDA table is usable only when the active
   backend is CUDA); GPUPCGetCMGSetupKernels(&k): the table of the active backend (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_GETTERS(GPUPCCMGSetupKernels, CMGSetup, "CMG setup")

/*
   The CMG kernel table's getters (the choice itself is GPUPCKernelTableSelect) and its member
   names, for messages and for tests that walk the table.
*/
#include <gpupc/cmgkernels.h>

const char *const GPUPCCMGKernelNames[] = {GPUPC_CMG_KERNEL_LIST(GPUPC_KERNEL_NAME, ) NULL};

/* GPUPCGetCMGKernelsFor(backend, &k): the table of a backend (the CUDA table is usable only when the active backend
   is CUDA); GPUPCGetCMGKernels(&k): the table of the active backend (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_GETTERS(GPUPCCMGKernels, CMG, "CMG")

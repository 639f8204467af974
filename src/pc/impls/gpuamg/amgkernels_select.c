/*
   The gpuamg cycle kernel table's getters (the choice itself is GPUPCKernelTableSelect) and its member names, for
   messages and for tests that walk the table.
*/
#include <gpupc/amgkernels.h>

const char *const GPUPCAMGKernelNames[] = {GPUPC_AMG_KERNEL_LIST(GPUPC_KERNEL_NAME, ) NULL};

/* GPUPCGetAMGKernelsFor(backend, &k): the table of a backend (the CUDA table is usable only when the active backend
   is CUDA); GPUPCGetAMGKernels(&k): the table of the active backend (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_GETTERS(GPUPCAMGKernels, AMG, "gpuamg")

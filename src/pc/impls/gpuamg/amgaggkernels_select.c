/*
   The gpuamg smoothed-aggregation kernel table's getters (the choice itself is GPUPCKernelTableSelect) and its member
   names, for messages and for tests that walk the table.
*/
#include <gpupc/amgaggkernels.h>

const char *const GPUPCAMGAggKernelNames[] = {GPUPC_AMG_AGG_KERNEL_LIST(GPUPC_KERNEL_NAME, ) NULL};

/* GPUPCGetAMGAggKernelsFor(backend, &k): the table of a backend (the CUDA table is usable only when the active
   backend is CUDA); GPUPCGetAMGAggKernels(&k): the table of the active backend (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_GETTERS(GPUPCAMGAggKernels, AMGAgg, "gpuamg aggregation")

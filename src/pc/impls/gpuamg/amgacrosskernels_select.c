/*
   The gpuamg across-ranks kernel table's getters (the choice itself is GPUPCKernelTableSelect) and its member names,
   for messages and for tests that walk the table.
*/
#include <gpupc/amgacrosskernels.h>

const char *const GPUPCAMGAcrossKernelNames[] = {GPUPC_AMG_ACROSS_KERNEL_LIST(GPUPC_KERNEL_NAME, ) NULL};

/* GPUPCGetAMGAcrossKernelsFor(backend, &k): the table of a backend (the CUDA table is usable only when the active
   backend is CUDA); GPUPCGetAMGAcrossKernels(&k): the table of the active backend (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_GETTERS(GPUPCAMGAcrossKernels, AMGAcross, "gpuamg setup across ranks")

/*
   The format-build kernel table's getters (GPUPCGetFormatKernels, GPUPCGetFormatKernelsFor: gpupc/kerneltable.h's
   GPUPC_KERNEL_TABLE_GETTERS) and its member names, for messages and for tests that walk the table.
*/
#include <gpupc/formatkernels.h>

const char *const GPUPCFormatKernelNames[] = {GPUPC_FORMAT_KERNEL_LIST(GPUPC_KERNEL_NAME, ) NULL};

GPUPC_KERNEL_TABLE_GETTERS(GPUPCFormatKernels, Format, "format")

/*
   The TASSL kernel table's getters (the choice itself is GPUPCKernelTableSelect) and its member
   names, for messages and for tests that walk the table.
*/
#include <gpupc/tasslkernels.h>

const char *const GPUPCTasslKernelNames[] = {GPUPC_TASSL_KERNEL_LIST(GPUPC_KERNEL_NAME, ) NULL};

/* GPUPCGetTasslKernelsFor(backend, &k): the table of a backend (the CUDA table is usable only when the active backend
   is CUDA); GPUPCGetTasslKernels(&k): the table of the active backend (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_GETTERS(GPUPCTasslKernels, Tassl, "TASSL")

/*
   The vector-kernel table's getters (the choice itself is GPUPCKernelTableSelect) and its
   member names, for messages and for tests that walk the table.
*/
#include <gpupc/veckernels.h>

const char *const GPUPCVecKernelNames[] = {GPUPC_VEC_KERNEL_LIST(GPUPC_KERNEL_NAME, ) NULL};

/* GPUPCGetVecKernelsFor(backend, &k): the table of a backend (the CUDA table is usable only when the active backend
   is CUDA); GPUPCGetVecKernels(&k): the table of the active backend (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_GETTERS(GPUPCVecKernels, Vec, "vector")

/*
   The gpubjacobi kernel table's getters (the choice itself is GPUPCKernelTableSelect) and its member names, for
   messages and for tests that walk the table.
*/
#include <gpupc/gpubjacobikernels.h>

const char *const GPUPCPBJKernelNames[] = {GPUPC_PBJ_KERNEL_LIST(GPUPC_KERNEL_NAME, ) NULL};

/* GPUPCGetPBJKernelsFor(backend, &k): the table of a backend (the CUDA table is usable only when the active backend
   is CUDA); GPUPCGetPBJKernels(&k): the table of the active backend (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_GETTERS(GPUPCPBJKernels, PBJ, "gpubjacobi")

/*
   The HEC (hybrid ELL + CSR) kernel table's getters (the choice itself is GPUPCKernelTableSelect) and
   its member names, for messages and for tests that walk the table.
*/
#include <gpupc/heckernels.h>

const char *const GPUPCHECKernelNames[] = {GPUPC_HEC_KERNEL_LIST(GPUPC_KERNEL_NAME, ) NULL};

/* GPUPCGetHECKernelsFor(backend, &k): the table of a backend (the CUDA table is usable only when the active backend
   is CUDA); GPUPCGetHECKernels(&k): the table of the active backend (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_GETTERS(GPUPCHECKernels, HEC, "hec")

/*
   The segmented-CSR kernel table's getters (the choice itself is GPUPCKernelTableSelect) and
   its member names, for messages and for tests that walk the table.
*/
#include <gpupc/segcsrkernels.h>

const char *const GPUPCSegCSRKernelNames[] = {GPUPC_SEGCSR_KERNEL_LIST(GPUPC_KERNEL_NAME, ) NULL};

/* GPUPCGetSegCSRKernelsFor(backend, &k): the table of a backend (the CUDA table is usable only when the active backend
   is CUDA); GPUPCGetSegCSRKernels(&k): the table of the active backend (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_GETTERS(GPUPCSegCSRKernels, SegCSR, "segcsr")

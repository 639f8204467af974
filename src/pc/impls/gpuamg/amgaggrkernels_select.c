/*
   The gpuamg aggressive-coarsening and multipass kernel table's getters (the choice itself is GPUPCKernelTableSelect)
   and its member names, for messages and for tests that walk the table.
*/
#include <gpupc/amgaggrkernels.h>

const char *const GPUPCAMGAggrKernelNames[] = {GPUPC_AMG_AGGR_KERNEL_LIST(GPUPC_KERNEL_NAME, ) NULL};

/* GPUPCGetAMGAggrKernelsFor(backend, &k): the table of a backend (the CUDA table is usable only when the active
   backend is CUDA); GPUPCGetAMGAggrKernels(&k): the table of the active backend (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_GETTERS(GPUPCAMGAggrKernels, AMGAggr, "gpuamg aggressive coarsening")

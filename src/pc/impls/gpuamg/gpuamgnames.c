/*
   Names of PC gpuamg's enums (-pc_gpuamg_type, -pc_gpuamg_coarsen, -pc_gpuamg_interp, -pc_gpuamg_setup), in PetscOptionsEnum form: the
   values, then the enum's name, then its prefix.
*/
#include <petscgpupc.h>

const char *const PCGPUAMGTypes[]          = {"classical", "agg", "PCGPUAMGType", "PC_GPUAMG_", NULL};
const char *const PCGPUAMGCoarsenTypes[]   = {"rs", "cljp", "pmis", "hmis", "PCGPUAMGCoarsenType", "PC_GPUAMG_COARSEN_", NULL};
const char *const PCGPUAMGInterpTypes[]    = {"direct", "standard", "ext+i", "multipass", "simple", "PCGPUAMGInterpType", "PC_GPUAMG_INTERP_", NULL};
const char *const PCGPUAMGTruncRescales[]  = {"sum", "signs", "PCGPUAMGTruncRescale", "PC_GPUAMG_TRUNC_RESCALE_", NULL};
const char *const PCGPUAMGSetupLocations[] = {"host", "device", "PCGPUAMGSetupLocation", "PC_GPUAMG_SETUP_", NULL};

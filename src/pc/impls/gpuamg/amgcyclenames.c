/*
   Names of PC gpuamg's cycle enums (-pc_gpuamg_cycle, -pc_gpuamg_smoother), in PetscOptionsEnum form: the values, then
   the enum's name, then its prefix.
*/
#include <petscgpupc.h>

const char *const PCGPUAMGCycleTypes[] = {"v", "w", "f", "PCGPUAMGCycleType", "PC_GPUAMG_CYCLE_", NULL};

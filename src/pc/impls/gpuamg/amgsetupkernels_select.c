/*
   The gpuamg device-setup kernel table's getters (the choice itself is GPUPCKernelTableSelect), its member names, for
   messages and for tests that walk the table, and the defaults and checks of the CUDA table's ext+i tuning.
*/
#include <gpupc/amgsetupkernels.h>

const char *const GPUPCAMGSetupKernelNames[] = {GPUPC_AMG_SETUP_KERNEL_LIST(GPUPC_KERNEL_NAME, ) NULL};

/* GPUPCGetAMGSetupKernelsFor(backend, &k): the table of a backend (the CUDA table is usable only when the active
   backend is CUDA); GPUPCGetAMGSetupKernels(&k): the table of the active backend (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_GETTERS(GPUPCAMGSetupKernels, AMGSetup, "gpuamg setup")

/*@C
   GPUPCAMGInterpTuningDefault - the defaults of the CUDA table's ext+i tuning (GPUPCAMGInterpTuning)

   Not Collective

   Output Parameter:
.  t - small level 500000 rows, warp rows by level size, 256 hash slots in the first pass, 8192 in the last

   Level: developer

.seealso: PCGPUAMGSetInterpTuning(), GPUPCAMGInterpTuningCheck()
@*/
PetscErrorCode GPUPCAMGInterpTuningDefault(GPUPCAMGInterpTuning *t)
{
  PetscFunctionBegin;
  t->small_level    = 500000;
  t->long_row       = -1;
  t->long_slots     = 256;
  t->long_slots_big = 8192;
  PetscFunctionReturn(0);
}

static PetscBool PowerOf2(PetscInt v)
{
  return (PetscBool)(v > 0 && !(v & (v - 1)));
}

/*@C
   GPUPCAMGInterpTuningCheck - a clear error for a tuning the CUDA table cannot run

   Not Collective

   Input Parameters:
+  comm - where to raise it
-  t    - the tuning

   Level: developer

.seealso: PCGPUAMGSetInterpTuning(), GPUPCAMGInterpTuningDefault()
@*/
PetscErrorCode GPUPCAMGInterpTuningCheck(MPI_Comm comm, const GPUPCAMGInterpTuning *t)
{
  PetscFunctionBegin;
  PetscCheck(t->small_level >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_dev_interp_small_level %" PetscInt_FMT " must be >= 0", t->small_level);
  PetscCheck(PowerOf2(t->long_slots) && t->long_slots >= 64, comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_dev_interp_long_slots %" PetscInt_FMT " must be a power of 2 from 64", t->long_slots);
  PetscCheck(PowerOf2(t->long_slots_big) && t->long_slots_big >= 64 && t->long_slots_big <= 8192, comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_dev_interp_long_slots_big %" PetscInt_FMT " must be a power of 2 from 64 to 8192", t->long_slots_big);
  PetscFunctionReturn(0);
}

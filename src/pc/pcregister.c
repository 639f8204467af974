/*
   Registers GPUPC's PC types. Each type adds its PCRegister() calls here.
*/
#include <petscpc.h>
#include <gpupc/registry.h>
#include <gpupc/cmg.h>
/* tasslilu */
#include "impls/tasslilu/tassliluimpl.h"

PetscErrorCode GPUPCRegisterPC(void)
{
  PetscFunctionBegin;
  PetscCall(PCCMGRegisterEvents());
  PetscCall(PCRegister(PCCMG, PCCreate_CMG));
  /* tasslilu: the PC and the "tassl" MatSolverType (ILU) */
  PetscCall(PCTASSLILURegisterEvents());
  PetscCall(PCRegister(PCTASSLILU, PCCreate_TASSLILU));
  PetscCall(GPUPCTasslRegisterSolverType());
  PetscFunctionReturn(0);
}

/*
   Registers GPUPC's PC types. Each type adds its PCRegister() calls here.
*/
#include <petscpc.h>
#include <gpupc/registry.h>
#include <gpupc/cmg.h>
/* tasslilu */
#include "impls/tasslilu/tassliluimpl.h"
#include <gpupc/gpubjacobi.h>
#include <gpupc/amgcycle.h>
#include <gpupc/amgevents.h> /* the events registered below */

PetscErrorCode GPUPCRegisterPC(void)
{
  PetscFunctionBegin;
  PetscCall(PCCMGRegisterEvents());
  PetscCall(PCRegister(PCCMG, PCCreate_CMG));
  /* tasslilu: the PC and the "tassl" MatSolverType (ILU) */
  PetscCall(PCTASSLILURegisterEvents());
  PetscCall(PCRegister(PCTASSLILU, PCCreate_TASSLILU));
  PetscCall(GPUPCTasslRegisterSolverType());
  /* PC gpubjacobi: block Jacobi with dense block inverses applied on the device */
  PetscCall(PCGPUBJacobiRegisterEvents());
  PetscCall(PCRegister(PCGPUBJACOBI, PCCreate_GPUBJacobi));
  /* PC gpuamg: the events of its host setup and of its device cycle */
  PetscCall(GPUPCAMGRegisterSetupEvents());
  PetscCall(PCGPUAMGRegisterEvents());
  PetscCall(PCRegister(PCGPUAMG, PCCreate_GPUAMG));
  PetscFunctionReturn(0);
}

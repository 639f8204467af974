/*
   gpupc/registry.h - one registration function per family of types; called only by
   PetscGPUPCInitializePackage(). A new type adds its VecRegister/MatRegister/PCRegister
   call (and its log events) to its family's function.
*/
#ifndef GPUPC_REGISTRY_H
#define GPUPC_REGISTRY_H

#include <petscsys.h>

PETSC_INTERN PetscErrorCode GPUPCRegisterVec(void); /* src/vec/impls/gpu/vecgpu.c */
PETSC_INTERN PetscErrorCode GPUPCRegisterMat(void); /* src/mat/matregister.c */
PETSC_INTERN PetscErrorCode GPUPCRegisterPC(void);  /* src/pc/pcregister.c */
PETSC_INTERN PetscErrorCode GPUPCRegisterKSP(void); /* src/ksp/kspregister.c */

#endif

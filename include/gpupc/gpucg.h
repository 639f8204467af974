/*
   gpupc/gpucg.h - private data of KSP gpucg (src/ksp/impls/gpucg).

   gpucg is preconditioned CG in a single-reduction form: every iteration's inner products are one fused reduction
   (gpupc/veckernels.h, GPUPC_CG_KERNEL_LIST) whose result the host waits for once, for the step lengths and the
   convergence test. classic is the Chronopoulos-Gear form, pipelined the Ghysels-Vanroose form, which starts the
   reduction before the preconditioner and the product and waits for it after them.
*/
#ifndef GPUPC_GPUCG_H
#define GPUPC_GPUCG_H

#include <petsc/private/kspimpl.h>
#include <petscgpupc.h>
#include <gpupc/veckernels.h>

typedef struct {
  KSPGPUCGType type;
  void        *work;      /* device scratch of the reduction (GPUPC_CG_WORK_BYTES), NULL until the first fused solve */
  PetscScalar *val;       /* host memory the reduction writes its GPUPC_CG_NDOTS local sums into */
  PetscBool    valpinned; /* val is page-locked (GPUPCHostFree) */
  /* the last solve, for KSPView and KSPGPUCGGetStatistics */
  PetscBool  solved, fused;
  PetscInt   its;
  PetscInt64 waits, launches; /* host waits for the device and kernel launches that gpucg itself issued */
} KSP_GPUCG;

PETSC_INTERN PetscErrorCode KSPSolve_GPUCG(KSP);
PETSC_INTERN PetscLogEvent  KSP_GPUCGUpdate, KSP_GPUCGReduce;

#endif

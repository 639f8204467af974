/*
   gpupc/amgevents.h - the -log_view events of PC gpuamg: the host setup's (registered by amgsetuphierarchy.c) and the
   device half's (registered by amgcycledevice.c), and the two functions that register them (once). The setup files,
   the cycle files and the PC's registration (pcregister.c) include this header, and none of them needs another's.
*/
#ifndef GPUPC_AMGEVENTS_H
#define GPUPC_AMGEVENTS_H

#include <petscsys.h>

/* the host setup's phases (GPUPCAMGRegisterSetupEvents, amgsetuphierarchy.c) */
PETSC_INTERN PetscLogEvent GPUPCAMG_Setup, GPUPCAMG_Local, GPUPCAMG_PMat, GPUPCAMG_Strength, GPUPCAMG_Coarsen, GPUPCAMG_Interp, GPUPCAMG_Aggregate, GPUPCAMG_Tentative, GPUPCAMG_ProlSmooth, GPUPCAMG_Galerkin, GPUPCAMG_GalerkinMPI;
/* inside GPUAMGGalerkinMPI: its phases (amgsetupgalerkinmpi.c) */
PETSC_INTERN PetscLogEvent  GPUPCAMG_GalMPIPlan, GPUPCAMG_GalMPIVals, GPUPCAMG_GalMPIProd, GPUPCAMG_GalMPIXPlan, GPUPCAMG_GalMPIXchg, GPUPCAMG_GalMPIAsm, GPUPCAMG_GalMPIMat;
PETSC_EXTERN PetscErrorCode GPUPCAMGRegisterSetupEvents(void);

/* the device half: upload, smoother and coarse setups, the cycle's parts (PCGPUAMGRegisterEvents, amgcycledevice.c) */
PETSC_INTERN PetscLogEvent  PC_GPUAMG_Upload, PC_GPUAMG_SmootherSetUp, PC_GPUAMG_CoarseSetUp, PC_GPUAMG_Cycle, PC_GPUAMG_Smooth, PC_GPUAMG_Restrict, PC_GPUAMG_Prolong, PC_GPUAMG_CoarseSolve;
PETSC_EXTERN PetscErrorCode PCGPUAMGRegisterEvents(void);

#endif

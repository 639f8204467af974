/*
   Private data of PC tasslilu and of the "tassl" MatSolverType: one ILU(k) factor of a sequential matrix and its
   scheduled triangular solves on the device (gpupc/tassl.h).
*/
#ifndef TASSLILUIMPL_H
#define TASSLILUIMPL_H

#include <petsc/private/pcimpl.h>
#include <gpupc/tassl.h>

/* the factor and its solves, shared by the PC and the MatSolverType */
typedef struct {
  GPUPCILU            F;
  GPUPCTasslOp        L, U, UT, LT; /* UT and LT are built at the first transpose solve */
  PetscBool           haveT;
  PetscInt            nmax;
  GPUPCTasslSolveType solve;
  GPUPCTasslLaunch    launch;
  PetscScalar        *work; /* device, n */
  GPUPCTasslSpSV      spsv, spsvT;
  PetscLogDouble      tsymbolic, tnumeric, tanalysis, tspsv;
  PetscInt            nnumeric;
} GPUPCTasslFactor;

PETSC_INTERN PetscLogEvent PC_TASSLILU_Symbolic, PC_TASSLILU_Numeric, PC_TASSLILU_Analysis, PC_TASSLILU_Solve;

PETSC_INTERN PetscErrorCode GPUPCTasslFactorSymbolic(GPUPCTasslFactor *, Mat, IS, IS, PetscInt, GPUPCILUShift, PetscReal, PetscReal);
PETSC_INTERN PetscErrorCode GPUPCTasslFactorNumeric(GPUPCTasslFactor *, Mat);
PETSC_INTERN PetscErrorCode GPUPCTasslFactorSetUpSolves(GPUPCTasslFactor *);
PETSC_INTERN PetscErrorCode GPUPCTasslFactorApply(GPUPCTasslFactor *, PetscBool, Vec, Vec);
PETSC_INTERN PetscErrorCode GPUPCTasslFactorView(GPUPCTasslFactor *, PetscViewer);
PETSC_INTERN PetscErrorCode GPUPCTasslFactorDestroy(GPUPCTasslFactor *);

/* position of row v in the topological order of T */
static inline PetscInt GPUPCTasslTopo(const GPUPCTri *T, PetscInt v)
{
  return T->forward ? v : T->n - 1 - v;
}
PETSC_INTERN PetscInt       GPUPCTasslFind(PetscInt *, PetscInt);
PETSC_INTERN PetscErrorCode GPUPCTasslPartition(const GPUPCTri *, const PetscInt *, PetscInt, const PetscInt *, PetscInt, PetscInt, PetscInt *, PetscInt *, PetscInt *, PetscInt *, PetscInt *);

PETSC_INTERN PetscErrorCode PCCreate_TASSLILU(PC);
PETSC_INTERN PetscErrorCode PCTASSLILURegisterEvents(void);
PETSC_INTERN PetscErrorCode GPUPCTasslRegisterSolverType(void);

#endif

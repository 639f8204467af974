/*
   Subclassing AIJ (see gpupc/matgpu.h): saving and restoring the base type's ops and
   telling a value-only update from a nonzero-pattern change.
*/
#include <gpupc/matgpu.h>

/* saves A's current (base type) ops so overrides can call them */
PetscErrorCode GPUPCMatSubclassSave(Mat A, GPUPCMatSubclass *sc)
{
  PetscFunctionBegin;
  PetscCall(PetscMemcpy(&sc->base, A->ops, sizeof(struct _MatOps)));
  sc->built   = PETSC_FALSE;
  sc->nzstate = -1;
  PetscFunctionReturn(0);
}

/* puts the base type's ops back (conversion back to the base type) */
PetscErrorCode GPUPCMatSubclassRestore(Mat A, const GPUPCMatSubclass *sc)
{
  PetscFunctionBegin;
  PetscCall(PetscMemcpy(A->ops, &sc->base, sizeof(struct _MatOps)));
  PetscFunctionReturn(0);
}

/* true when the device structure must be rebuilt: never built, or the nonzero pattern
   changed since (A->nonzerostate, which AIJ increases on every new nonzero location) */
PetscBool GPUPCMatPatternChanged(Mat A, const GPUPCMatSubclass *sc)
{
  return (PetscBool)(!sc->built || A->nonzerostate != sc->nzstate);
}

void GPUPCMatMarkBuilt(Mat A, GPUPCMatSubclass *sc)
{
  sc->built   = PETSC_TRUE;
  sc->nzstate = A->nonzerostate;
}

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

/* MatConvert's three reuse modes around a conversion done in place by inplace():
   MAT_REUSE_MATRIX copies the values into *newmat (same pattern), MAT_INITIAL_MATRIX
   converts a duplicate of A, MAT_INPLACE_MATRIX converts A itself */
PetscErrorCode GPUPCMatConvertReuse(Mat A, MatReuse reuse, Mat *newmat, PetscErrorCode (*inplace)(Mat))
{
  Mat B;

  PetscFunctionBegin;
  if (reuse == MAT_REUSE_MATRIX) {
    PetscCall(MatCopy(A, *newmat, SAME_NONZERO_PATTERN));
    PetscFunctionReturn(0);
  }
  if (reuse == MAT_INITIAL_MATRIX) PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &B));
  else B = A;
  PetscCall(inplace(B));
  *newmat = B;
  PetscFunctionReturn(0);
}

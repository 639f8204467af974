/*
   Subclassing AIJ (see gpupc/matgpu.h): the base type's ops, and the device copy kept in step
   with the host data by object state.
*/
#include <gpupc/matgpu.h>

/* A's subclass record: the first member of A->spptr */
static inline GPUPCMatSubclass *Sub(Mat A)
{
  return (GPUPCMatSubclass *)A->spptr;
}

/*
   GPUPCMatSubclassSave - saves A's current (base type) ops so overrides can call them, and the
   type's build (new pattern) and upload (same pattern, new values) functions
*/
PetscErrorCode GPUPCMatSubclassSave(Mat A, GPUPCMatSubclass *sc, PetscBool mpi, PetscErrorCode (*build)(Mat), PetscErrorCode (*upload)(Mat))
{
  PetscFunctionBegin;
  PetscCall(PetscMemcpy(&sc->base, A->ops, sizeof(struct _MatOps)));
  sc->mpi     = mpi;
  sc->built   = PETSC_FALSE;
  sc->nzstate = -1;
  sc->synced  = -1;
  sc->build   = build;
  sc->upload  = upload;
  PetscFunctionReturn(0);
}

/* puts the base type's ops back (conversion back to the base type) */
PetscErrorCode GPUPCMatSubclassRestore(Mat A, const GPUPCMatSubclass *sc)
{
  PetscFunctionBegin;
  PetscCall(PetscMemcpy(A->ops, &sc->base, sizeof(struct _MatOps)));
  PetscFunctionReturn(0);
}

/* the value version of the host data: the states of the matrix and, for MPIAIJ, of its two blocks (each only
   increases; a block's own state moves when its arrays are written through the block, e.g. by MatFDColoringApply) */
static PetscErrorCode ValueVersion(Mat A, PetscObjectState *v)
{
  PetscFunctionBegin;
  *v = ((PetscObject)A)->state;
  if (Sub(A)->mpi) {
    Mat Ad, Ao;
    PetscCall(GPUPCMatMPIAIJGetSeqAIJ(A, &Ad, &Ao, NULL));
    *v += ((PetscObject)Ad)->state + ((PetscObject)Ao)->state;
  }
  PetscFunctionReturn(0);
}

/*
   GPUPCMatSubclassSync - builds the device copy (never built, or the nonzero pattern changed since:
   A->nonzerostate, which AIJ increases on every new nonzero location) or refreshes its values.

   bumps: how often the PETSc operation in progress increases the object state after this returns
   without changing values (PETSc 3.18: MatAssemblyEnd, MatConvert and MatDuplicate increase it once
   after the type's function), so the device copy is current while the state is the recorded one.
   Collective for an MPI type when it builds (the nonzero state is global, so all ranks decide alike).
*/
PetscErrorCode GPUPCMatSubclassSync(Mat A, PetscInt bumps)
{
  GPUPCMatSubclass *sc = Sub(A);

  PetscFunctionBegin;
  if (!sc->built || A->nonzerostate != sc->nzstate) {
    PetscCall(sc->build(A));
    sc->builds++;
    sc->built   = PETSC_TRUE;
    sc->nzstate = A->nonzerostate;
  } else {
    PetscCall(sc->upload(A));
    sc->uploads++;
  }
  PetscCall(ValueVersion(A, &sc->synced));
  sc->synced += bumps;
  PetscFunctionReturn(0);
}

/*
   GPUPCMatSubclassEnsure - before any device use: the device copy holds the host values. A value-only
   refresh is local; a pattern change outside assembly is one only a sequential matrix can have (MPIAIJ
   changes its pattern only in collective assembly, where GPUPCMatAssemblyEnd_Subclass rebuilds).
*/
PetscErrorCode GPUPCMatSubclassEnsure(Mat A)
{
  GPUPCMatSubclass *sc = Sub(A);
  PetscObjectState  v;

  PetscFunctionBegin;
  PetscCheck(A->assembled, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "%s matrix is not assembled; call MatAssemblyBegin/End first", ((PetscObject)A)->type_name);
  PetscCheck(!sc->mpi || sc->built, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: the device copy was never built (it is built in MatAssemblyEnd)", ((PetscObject)A)->type_name);
  PetscCall(ValueVersion(A, &v));
  if (!sc->built || v != sc->synced || (!sc->mpi && A->nonzerostate != sc->nzstate)) PetscCall(GPUPCMatSubclassSync(A, 0));
  PetscFunctionReturn(0);
}

/* GPUPCMatSubclassRelayout - a layout option changed: rebuild now if assembled (collective for MPI), else at assembly */
PetscErrorCode GPUPCMatSubclassRelayout(Mat A)
{
  PetscFunctionBegin;
  Sub(A)->built = PETSC_FALSE;
  if (A->assembled) PetscCall(GPUPCMatSubclassSync(A, 0));
  PetscFunctionReturn(0);
}

/* MatAssemblyEnd of every GPUPC Mat type: the base type's, then the device copy (in MatAssemblyEnd: one bump) */
PetscErrorCode GPUPCMatAssemblyEnd_Subclass(Mat A, MatAssemblyType mode)
{
  PetscFunctionBegin;
  PetscCall(Sub(A)->base.assemblyend(A, mode));
  if (mode == MAT_FINAL_ASSEMBLY) PetscCall(GPUPCMatSubclassSync(A, 1));
  PetscFunctionReturn(0);
}

/* type name and default vector type of a matrix turned into (or back from) a GPUPC type */
PetscErrorCode GPUPCMatSubclassSetTypeName(Mat B, MatType type, VecType vtype)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(B->defaultvectype));
  PetscCall(PetscStrallocpy(vtype, &B->defaultvectype));
  PetscCall(PetscObjectChangeTypeName((PetscObject)B, type));
  PetscFunctionReturn(0);
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

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
   GPUPCMatSubclassSave - saves A's current (base type) ops so overrides can call them, the type's
   build (new pattern), upload (same pattern, new values) and frombase (in-place conversion from
   the base type) functions, and installs the overrides every GPUPC type shares (MatAssemblyEnd,
   MatTranspose, MatRetrieveValues, MatCreateGraph). The caller sets A->spptr to the record that begins with sc.
*/
PetscErrorCode GPUPCMatSubclassSave(Mat A, GPUPCMatSubclass *sc, PetscBool mpi, PetscErrorCode (*build)(Mat), PetscErrorCode (*upload)(Mat), PetscErrorCode (*frombase)(Mat))
{
  PetscFunctionBegin;
  PetscCall(PetscMemcpy(&sc->base, A->ops, sizeof(struct _MatOps)));
  sc->mpi      = mpi;
  sc->built    = PETSC_FALSE;
  sc->nzstate  = -1;
  sc->synced   = -1;
  sc->build    = build;
  sc->upload   = upload;
  sc->frombase = frombase;
  PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatRetrieveValues_C", &sc->retrieve));
  A->ops->assemblyend = GPUPCMatAssemblyEnd_Subclass;
  A->ops->transpose   = GPUPCMatTranspose_Subclass;
  if (sc->base.creategraph) A->ops->creategraph = GPUPCMatCreateGraph_Subclass; /* PCGAMG: the AIJ one checks the type name */
  if (sc->base.productsetfromoptions) A->ops->productsetfromoptions = GPUPCMatProductSetFromOptions_Subclass;
  if (sc->retrieve) PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatRetrieveValues_C", GPUPCMatRetrieveValues_Subclass));
  PetscFunctionReturn(0);
}

/* puts the base type's ops back (conversion back to the base type) */
PetscErrorCode GPUPCMatSubclassRestore(Mat A, const GPUPCMatSubclass *sc)
{
  PetscFunctionBegin;
  PetscCall(PetscMemcpy(A->ops, &sc->base, sizeof(struct _MatOps)));
  if (sc->retrieve) PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatRetrieveValues_C", sc->retrieve));
  PetscFunctionReturn(0);
}

/* MatRetrieveValues copies the stored values back without changing the object state (PETSc 3.18), so the device
   copy would never see them: the state moves here */
PetscErrorCode GPUPCMatRetrieveValues_Subclass(Mat A)
{
  PetscFunctionBegin;
  PetscCall(Sub(A)->retrieve(A));
  PetscCall(PetscObjectStateIncrease((PetscObject)A));
  PetscFunctionReturn(0);
}

/*
   MatTranspose of every GPUPC type. The base type's transpose ends with MatSetType(C, type name of A), which on a
   fresh base-type matrix would throw its data away for an empty matrix of the derived type; so the base transpose
   runs under the base type's name, and its result becomes the derived type in place (frombase). MAT_REUSE_MATRIX
   copies the new values into *B (the same pattern), MAT_INPLACE_MATRIX replaces A's contents.
*/
PetscErrorCode GPUPCMatTranspose_Subclass(Mat A, MatReuse reuse, Mat *B)
{
  GPUPCMatSubclass *sc = Sub(A);
  Mat               T  = NULL;
  char             *name;
  PetscErrorCode    ierr;

  PetscFunctionBegin;
  name = GPUPCMatNameAs(A, GPUPCMatBaseType(A));
  ierr = sc->base.transpose(A, MAT_INITIAL_MATRIX, &T);
  GPUPCMatNameRestore(A, name);
  PetscCall(ierr);
  PetscCall(sc->frombase(T));
  if (reuse == MAT_INITIAL_MATRIX) *B = T;
  else if (reuse == MAT_REUSE_MATRIX) {
    PetscCall(MatCopy(T, *B, SAME_NONZERO_PATTERN));
    PetscCall(MatDestroy(&T));
  } else PetscCall(MatHeaderReplace(A, &T));
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
   GPUPCMatSubclassMarkBuilt - the device copy was laid out by the caller from data that equals the host values (a
   level the device setup built from its device CSR): record it as built and current, as GPUPCMatSubclassSync would
*/
PetscErrorCode GPUPCMatSubclassMarkBuilt(Mat A)
{
  GPUPCMatSubclass *sc = Sub(A);

  PetscFunctionBegin;
  sc->builds++;
  sc->built   = PETSC_TRUE;
  sc->nzstate = A->nonzerostate;
  PetscCall(ValueVersion(A, &sc->synced));
  PetscFunctionReturn(0);
}

/* GPUPCMatSubclassMarkUploaded - the caller refreshed the device values (same pattern) from data equal to the host
   values: record them as current, as GPUPCMatSubclassSync's upload would */
PetscErrorCode GPUPCMatSubclassMarkUploaded(Mat A)
{
  GPUPCMatSubclass *sc = Sub(A);

  PetscFunctionBegin;
  PetscCheck(sc->built && A->nonzerostate == sc->nzstate, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: new device values on a layout that is not current", ((PetscObject)A)->type_name);
  sc->uploads++;
  PetscCall(ValueVersion(A, &sc->synced));
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

/* type name and default vector type of a matrix turned into a GPUPC type (B->spptr set) or back into the base type
   (B->spptr NULL) */
PetscErrorCode GPUPCMatSubclassSetTypeName(Mat B, MatType type, VecType vtype)
{
  const char *base = B->spptr ? (Sub(B)->mpi ? MATMPIAIJ : MATSEQAIJ) : NULL;

  PetscFunctionBegin;
  /* products with one operand of the base type: PETSc looks the set-up up by both type names */
  if (base) PetscCall(GPUPCMatComposeProductSetFromOptions(B, type, base, GPUPCMatProductSetFromOptions_Subclass));
  else PetscCall(GPUPCMatComposeProductSetFromOptions(B, ((PetscObject)B)->type_name, type, NULL));
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

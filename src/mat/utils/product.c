/*
   Matrix products (MatMatMult, MatPtAP, MatTransposeMatMult, ...) with GPUPC Mat types as operands
   (gpupc/matgpu.h). The operands keep AIJ's host data, so AIJ's product code computes the product;
   but that code checks its operands' type names (e.g. MatMPIAIJGetLocalMat accepts only MPIAIJ).
   The product's set-up, symbolic and numeric phases therefore run with every GPUPC operand under
   its base type's name; the result is of the base type (SEQAIJ or MPIAIJ), computed on the host.
*/
#include <gpupc/matgpu.h>

static PetscBool IsGPUPC(Mat X)
{
  return (PetscBool)(X && X->spptr && X->ops->transpose == GPUPCMatTranspose_Subclass);
}

/* the operands under their base names for the length of f(mat) */
static PetscErrorCode CallAsBase(Mat mat, PetscErrorCode (*f)(Mat))
{
  Mat_Product   *p      = mat->product;
  Mat            op[3]  = {p->A, p->B, p->C};
  char          *old[3] = {NULL, NULL, NULL};
  PetscErrorCode ierr;

  PetscFunctionBegin;
  for (int k = 0; k < 3; k++) {
    if (!IsGPUPC(op[k]) || (k && (op[k] == op[0] || (k == 2 && op[2] == op[1])))) continue; /* each matrix once */
    old[k] = GPUPCMatNameAs(op[k], GPUPCMatBaseType(op[k]));
  }
  ierr = f(mat);
  for (int k = 0; k < 3; k++)
    if (old[k]) GPUPCMatNameRestore(op[k], old[k]);
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

typedef struct {
  PetscErrorCode (*f)(Mat);
} SavedFn;

static PetscErrorCode SavedFnDestroy(void *p)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(p));
  PetscFunctionReturn(0);
}

static PetscErrorCode Save(Mat mat, const char *key, PetscErrorCode (*f)(Mat))
{
  PetscContainer c;
  SavedFn       *s;

  PetscFunctionBegin;
  PetscCall(PetscNew(&s));
  s->f = f;
  PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &c));
  PetscCall(PetscContainerSetPointer(c, s));
  PetscCall(PetscContainerSetUserDestroy(c, SavedFnDestroy));
  PetscCall(PetscObjectCompose((PetscObject)mat, key, (PetscObject)c));
  PetscCall(PetscContainerDestroy(&c));
  PetscFunctionReturn(0);
}

static PetscErrorCode Saved(Mat mat, const char *key, PetscErrorCode (**f)(Mat))
{
  PetscContainer c;
  SavedFn       *s;

  PetscFunctionBegin;
  PetscCall(PetscObjectQuery((PetscObject)mat, key, (PetscObject *)&c));
  PetscCheck(c, PetscObjectComm((PetscObject)mat), PETSC_ERR_PLIB, "product of GPUPC matrices without its saved %s", key);
  PetscCall(PetscContainerGetPointer(c, (void **)&s));
  *f = s->f;
  PetscFunctionReturn(0);
}

static PetscErrorCode ProductNumeric_GPUPC(Mat mat)
{
  PetscErrorCode (*f)(Mat);

  PetscFunctionBegin;
  PetscCall(Saved(mat, "GPUPCProductNumeric", &f));
  PetscCall(CallAsBase(mat, f));
  PetscFunctionReturn(0);
}

static PetscErrorCode ProductSymbolic_GPUPC(Mat mat)
{
  PetscErrorCode (*f)(Mat);

  PetscFunctionBegin;
  PetscCall(Saved(mat, "GPUPCProductSymbolic", &f));
  PetscCall(CallAsBase(mat, f));
  if (mat->ops->productnumeric && mat->ops->productnumeric != ProductNumeric_GPUPC) {
    PetscCall(Save(mat, "GPUPCProductNumeric", mat->ops->productnumeric));
    mat->ops->productnumeric = ProductNumeric_GPUPC;
  }
  PetscFunctionReturn(0);
}

/*
   GPUPCMatProductSetFromOptions_Subclass - the product set-up of every GPUPC type (ops->productsetfromoptions and the
   composed MatProductSetFromOptions_<type>_<base>_C and _<base>_<type>_C that PETSc looks for when the operands'
   set-up functions differ): the base type's set-up, then symbolic and numeric phases under the base names
*/
PetscErrorCode GPUPCMatProductSetFromOptions_Subclass(Mat mat)
{
  Mat_Product *p    = mat->product;
  Mat          ours = IsGPUPC(p->A) ? p->A : IsGPUPC(p->B) ? p->B
                                                           : p->C;

  PetscFunctionBegin;
  PetscCheck(IsGPUPC(ours), PetscObjectComm((PetscObject)mat), PETSC_ERR_PLIB, "product set-up of GPUPC matrices without a GPUPC operand");
  PetscCall(CallAsBase(mat, ((GPUPCMatSubclass *)ours->spptr)->base.productsetfromoptions));
  if (mat->ops->productsymbolic) {
    PetscCall(Save(mat, "GPUPCProductSymbolic", mat->ops->productsymbolic));
    mat->ops->productsymbolic = ProductSymbolic_GPUPC;
  }
  PetscFunctionReturn(0);
}

/* composes (f set) or removes (f NULL) the set-up PETSc looks for when one operand is of type `type` and the other of
   its base type */
PetscErrorCode GPUPCMatComposeProductSetFromOptions(Mat A, const char *type, const char *base, PetscErrorCode (*f)(Mat))
{
  char name[256];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(name, sizeof(name), "MatProductSetFromOptions_%s_%s_C", type, base));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, name, f));
  PetscCall(PetscSNPrintf(name, sizeof(name), "MatProductSetFromOptions_%s_%s_C", base, type));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, name, f));
  PetscFunctionReturn(0);
}

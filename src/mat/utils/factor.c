/*
   Factorizations of GPUPC's Mat types through MatGetFactor (gpupc/matgpu.h).

   A GPUPC Mat type keeps AIJ's host data (SEQAIJ or MPIAIJ), so every factorization that
   PETSc or an external package offers for SEQAIJ/MPIAIJ reads it unchanged. For each solver
   package that offers a factorization of the base type, GPUPCMatRegisterFactors registers
   the same package for the derived type, with a function that asks the package for the
   base type's factor. The factor is the package's own matrix (a host factor: its MatSolve
   runs on the host); MatView of it says so, which is what -ksp_view shows under PCFactor.
   The package's functions see the factored matrix under the base type's name (they check
   it); its data is the base type's.
*/
#include <gpupc/matgpu.h>

/* the packages asked for, in the order MatGetFactor() with no package tries them for the
   derived type (PETSc's own first: PCFactor's default for AIJ) */
static const char *const FactorPackages[] = {MATSOLVERPETSC, MATSOLVERMUMPS, MATSOLVERSUPERLU, MATSOLVERSUPERLU_DIST, MATSOLVERUMFPACK, MATSOLVERCHOLMOD, MATSOLVERKLU, MATSOLVERSTRUMPACK, MATSOLVERMKL_PARDISO, MATSOLVERMKL_CPARDISO, MATSOLVERPASTIX, MATSOLVERLUSOL, MATSOLVERESSL, MATSOLVERBAS, MATSOLVERSPQR, MATSOLVERSCALAPACK, MATSOLVERELEMENTAL, MATSOLVERSPARSEELEMENTAL};
#define NPACKAGES ((int)(sizeof(FactorPackages) / sizeof(FactorPackages[0])))

/* what the factor needs to act on the derived type: the base type name to show to the package's functions, and the
   package's own functions that the wrappers below call */
typedef struct {
  char    derived[64]; /* type name of the matrix that was factored */
  MatType base;        /* MATSEQAIJ or MATMPIAIJ */
  PetscErrorCode (*view)(Mat, PetscViewer);
  PetscErrorCode (*lusym)(Mat, Mat, IS, IS, const MatFactorInfo *);
  PetscErrorCode (*ilusym)(Mat, Mat, IS, IS, const MatFactorInfo *);
  PetscErrorCode (*cholsym)(Mat, Mat, IS, const MatFactorInfo *);
  PetscErrorCode (*iccsym)(Mat, Mat, IS, const MatFactorInfo *);
  PetscErrorCode (*lunum)(Mat, Mat, const MatFactorInfo *);
  PetscErrorCode (*cholnum)(Mat, Mat, const MatFactorInfo *);
} HostFactorCtx;

static PetscErrorCode GetCtx(Mat F, HostFactorCtx **ctx)
{
  PetscContainer c;

  PetscFunctionBegin;
  PetscCall(PetscObjectQuery((PetscObject)F, "GPUPCHostFactor", (PetscObject *)&c));
  PetscCheck(c, PETSC_COMM_SELF, PETSC_ERR_PLIB, "factor of a GPUPC matrix without its context");
  PetscCall(PetscContainerGetPointer(c, (void **)ctx));
  PetscFunctionReturn(0);
}

/* A holds the base type's data; packages check its type name (MUMPS tells SEQAIJ from MPIAIJ by it, MPIAIJ's
   MatMPIAIJGetSeqAIJ refuses other names), so they see the base name for the length of the call */
#define AS_BASE(ctx, A, call)                              \
  do {                                                     \
    char          *name_ = GPUPCMatNameAs(A, (ctx)->base); \
    PetscErrorCode ierr_ = (call);                         \
    GPUPCMatNameRestore(A, name_);                         \
    PetscCall(ierr_);                                      \
  } while (0)

static PetscErrorCode WrapNumeric(Mat F, HostFactorCtx *ctx);

static PetscErrorCode LUNumeric(Mat F, Mat A, const MatFactorInfo *info)
{
  HostFactorCtx *ctx;

  PetscFunctionBegin;
  PetscCall(GetCtx(F, &ctx));
  AS_BASE(ctx, A, ctx->lunum(F, A, info));
  PetscCall(WrapNumeric(F, ctx)); /* a numeric factorization may choose the next one (e.g. PETSc's inode variant) */
  PetscFunctionReturn(0);
}

static PetscErrorCode CholeskyNumeric(Mat F, Mat A, const MatFactorInfo *info)
{
  HostFactorCtx *ctx;

  PetscFunctionBegin;
  PetscCall(GetCtx(F, &ctx));
  AS_BASE(ctx, A, ctx->cholnum(F, A, info));
  PetscCall(WrapNumeric(F, ctx));
  PetscFunctionReturn(0);
}

/* keeps the package's numeric functions (a symbolic factorization sets them) and puts the wrappers in their place */
static PetscErrorCode WrapNumeric(Mat F, HostFactorCtx *ctx)
{
  PetscFunctionBegin;
  if (F->ops->lufactornumeric && F->ops->lufactornumeric != LUNumeric) {
    ctx->lunum              = F->ops->lufactornumeric;
    F->ops->lufactornumeric = LUNumeric;
  }
  if (F->ops->choleskyfactornumeric && F->ops->choleskyfactornumeric != CholeskyNumeric) {
    ctx->cholnum                  = F->ops->choleskyfactornumeric;
    F->ops->choleskyfactornumeric = CholeskyNumeric;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode LUSymbolic(Mat F, Mat A, IS r, IS c, const MatFactorInfo *info)
{
  HostFactorCtx *ctx;

  PetscFunctionBegin;
  PetscCall(GetCtx(F, &ctx));
  AS_BASE(ctx, A, ctx->lusym(F, A, r, c, info));
  PetscCall(WrapNumeric(F, ctx));
  PetscFunctionReturn(0);
}

static PetscErrorCode ILUSymbolic(Mat F, Mat A, IS r, IS c, const MatFactorInfo *info)
{
  HostFactorCtx *ctx;

  PetscFunctionBegin;
  PetscCall(GetCtx(F, &ctx));
  AS_BASE(ctx, A, ctx->ilusym(F, A, r, c, info));
  PetscCall(WrapNumeric(F, ctx));
  PetscFunctionReturn(0);
}

static PetscErrorCode CholeskySymbolic(Mat F, Mat A, IS p, const MatFactorInfo *info)
{
  HostFactorCtx *ctx;

  PetscFunctionBegin;
  PetscCall(GetCtx(F, &ctx));
  AS_BASE(ctx, A, ctx->cholsym(F, A, p, info));
  PetscCall(WrapNumeric(F, ctx));
  PetscFunctionReturn(0);
}

static PetscErrorCode ICCSymbolic(Mat F, Mat A, IS p, const MatFactorInfo *info)
{
  HostFactorCtx *ctx;

  PetscFunctionBegin;
  PetscCall(GetCtx(F, &ctx));
  AS_BASE(ctx, A, ctx->iccsym(F, A, p, info));
  PetscCall(WrapNumeric(F, ctx));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatView_GPUPCHostFactor(Mat F, PetscViewer viewer)
{
  HostFactorCtx *ctx;
  PetscBool      isascii;

  PetscFunctionBegin;
  PetscCall(GetCtx(F, &ctx));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (isascii) PetscCall(PetscViewerASCIIPrintf(viewer, "factor of a %s matrix, computed from its host (AIJ) data; the factorization and MatSolve run on the host\n", ctx->derived));
  if (ctx->view) PetscCall(ctx->view(F, viewer));
  PetscFunctionReturn(0);
}

static PetscErrorCode HostFactorCtxDestroy(void *p)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(p));
  PetscFunctionReturn(0);
}

/* asks package k for a factor of A (a type derived from base) as if A were of the base type, and wraps the factor's
   symbolic and numeric functions and its view */
static PetscErrorCode GetFactorAsBase(int k, MatType base, Mat A, MatFactorType ftype, Mat *F)
{
  PetscBool         foundtype, foundmtype;
  MatSolverFunction getfactor = NULL;
  PetscContainer    c;
  HostFactorCtx    *ctx;

  PetscFunctionBegin;
  PetscCall(MatSolverTypeGet(FactorPackages[k], base, ftype, &foundtype, &foundmtype, &getfactor));
  PetscCheck(getfactor, PETSC_COMM_SELF, PETSC_ERR_PLIB, "solver package %s registered for %s but offers no %s factorization of %s", FactorPackages[k], ((PetscObject)A)->type_name, MatFactorTypes[ftype], base);
  PetscCall(PetscNew(&ctx));
  ctx->base = base;
  PetscCall(PetscStrncpy(ctx->derived, ((PetscObject)A)->type_name, sizeof(ctx->derived)));
  *F = NULL;
  {
    char          *name = GPUPCMatNameAs(A, base);
    PetscErrorCode ierr = getfactor(A, ftype, F);

    GPUPCMatNameRestore(A, name);
    if (ierr) PetscCall(PetscFree(ctx));
    PetscCall(ierr);
  }
  if (!*F) {
    PetscCall(PetscFree(ctx));
    PetscFunctionReturn(0);
  }
  ctx->view    = (*F)->ops->view;
  ctx->lusym   = (*F)->ops->lufactorsymbolic;
  ctx->ilusym  = (*F)->ops->ilufactorsymbolic;
  ctx->cholsym = (*F)->ops->choleskyfactorsymbolic;
  ctx->iccsym  = (*F)->ops->iccfactorsymbolic;
  if (ctx->lusym) (*F)->ops->lufactorsymbolic = LUSymbolic;
  if (ctx->ilusym) (*F)->ops->ilufactorsymbolic = ILUSymbolic;
  if (ctx->cholsym) (*F)->ops->choleskyfactorsymbolic = CholeskySymbolic;
  if (ctx->iccsym) (*F)->ops->iccfactorsymbolic = ICCSymbolic;
  PetscCall(WrapNumeric(*F, ctx));
  (*F)->ops->view = MatView_GPUPCHostFactor;
  PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &c));
  PetscCall(PetscContainerSetPointer(c, ctx));
  PetscCall(PetscContainerSetUserDestroy(c, HostFactorCtxDestroy));
  PetscCall(PetscObjectCompose((PetscObject)*F, "GPUPCHostFactor", (PetscObject)c));
  PetscCall(PetscContainerDestroy(&c));
  PetscCall(PetscInfo(A, "%s factor of a %s matrix from package %s: computed and applied on the host\n", MatFactorTypes[ftype], ctx->derived, FactorPackages[k]));
  PetscFunctionReturn(0);
}

/* MatSolverFunction has no package argument: one function per (package, base type) */
#define GPUPC_FACTOR_FN(k)                                               \
  static PetscErrorCode GetFactorSeq_##k(Mat A, MatFactorType t, Mat *F) \
  {                                                                      \
    PetscFunctionBegin;                                                  \
    PetscCall(GetFactorAsBase(k, MATSEQAIJ, A, t, F));                   \
    PetscFunctionReturn(0);                                              \
  }                                                                      \
  static PetscErrorCode GetFactorMPI_##k(Mat A, MatFactorType t, Mat *F) \
  {                                                                      \
    PetscFunctionBegin;                                                  \
    PetscCall(GetFactorAsBase(k, MATMPIAIJ, A, t, F));                   \
    PetscFunctionReturn(0);                                              \
  }
GPUPC_FACTOR_FN(0)
GPUPC_FACTOR_FN(1)
GPUPC_FACTOR_FN(2)
GPUPC_FACTOR_FN(3)
GPUPC_FACTOR_FN(4)
GPUPC_FACTOR_FN(5)
GPUPC_FACTOR_FN(6)
GPUPC_FACTOR_FN(7)
GPUPC_FACTOR_FN(8)
GPUPC_FACTOR_FN(9)
GPUPC_FACTOR_FN(10)
GPUPC_FACTOR_FN(11)
GPUPC_FACTOR_FN(12)
GPUPC_FACTOR_FN(13)
GPUPC_FACTOR_FN(14)
GPUPC_FACTOR_FN(15)
GPUPC_FACTOR_FN(16)
GPUPC_FACTOR_FN(17)

static const MatSolverFunction GetFactorSeq[] = {GetFactorSeq_0, GetFactorSeq_1, GetFactorSeq_2, GetFactorSeq_3, GetFactorSeq_4, GetFactorSeq_5, GetFactorSeq_6, GetFactorSeq_7, GetFactorSeq_8, GetFactorSeq_9, GetFactorSeq_10, GetFactorSeq_11, GetFactorSeq_12, GetFactorSeq_13, GetFactorSeq_14, GetFactorSeq_15, GetFactorSeq_16, GetFactorSeq_17};
static const MatSolverFunction GetFactorMPI[] = {GetFactorMPI_0, GetFactorMPI_1, GetFactorMPI_2, GetFactorMPI_3, GetFactorMPI_4, GetFactorMPI_5, GetFactorMPI_6, GetFactorMPI_7, GetFactorMPI_8, GetFactorMPI_9, GetFactorMPI_10, GetFactorMPI_11, GetFactorMPI_12, GetFactorMPI_13, GetFactorMPI_14, GetFactorMPI_15, GetFactorMPI_16, GetFactorMPI_17};

/*
   GPUPCMatRegisterFactors - registers, for the Mat types seqtype (derived from SEQAIJ) and
   mpitype (derived from MPIAIJ), every factorization (LU, Cholesky, ILU, ICC) that
   a solver package offers for SEQAIJ and MPIAIJ in this PETSc build. Call once at package
   registration, after MatInitializePackage().
*/
PetscErrorCode GPUPCMatRegisterFactors(MatType seqtype, MatType mpitype)
{
  PetscFunctionBegin;
  PetscCheck(NPACKAGES == (int)(sizeof(GetFactorSeq) / sizeof(GetFactorSeq[0])) && NPACKAGES == (int)(sizeof(GetFactorMPI) / sizeof(GetFactorMPI[0])), PETSC_COMM_SELF, PETSC_ERR_PLIB, "one GPUPC_FACTOR_FN per package in FactorPackages");
  PetscCall(MatInitializePackage());
  for (int k = 0; k < NPACKAGES; k++) {
    for (int t = MAT_FACTOR_LU; t <= MAT_FACTOR_ICC; t++) { /* the factorizations whose symbolic and numeric functions are wrapped */
      PetscBool         foundtype, foundmtype;
      MatSolverFunction f;

      if (seqtype) {
        f = NULL;
        PetscCall(MatSolverTypeGet(FactorPackages[k], MATSEQAIJ, (MatFactorType)t, &foundtype, &foundmtype, &f));
        if (f) PetscCall(MatSolverTypeRegister(FactorPackages[k], seqtype, (MatFactorType)t, GetFactorSeq[k]));
      }
      if (mpitype) {
        f = NULL;
        PetscCall(MatSolverTypeGet(FactorPackages[k], MATMPIAIJ, (MatFactorType)t, &foundtype, &foundmtype, &f));
        if (f) PetscCall(MatSolverTypeRegister(FactorPackages[k], mpitype, (MatFactorType)t, GetFactorMPI[k]));
      }
    }
  }
  PetscFunctionReturn(0);
}

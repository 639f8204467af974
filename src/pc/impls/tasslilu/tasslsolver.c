/*
   The MatSolverType "tassl": PC tasslilu's factorization offered the PETSc way, so that

     -pc_type ilu -pc_factor_mat_solver_type tassl
     -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_solver_type tassl   (and under asm)

   factor with our ILU(k) (levels, ordering, shift and zero pivot from PCFactor's MatFactorInfo and IS) and solve
   on the device with the TASSL kernels. Registered for MATSEQAIJ, MATSEQSEGCSR, MATSEQHEC and MATSEQBCSR (the last two through a MATSEQAIJ copy), MAT_FACTOR_ILU. The kernels
   are chosen with -mat_tassl_solve <tassl,levelset,cusparse>, -mat_tassl_launch and
   -mat_tassl_subgraph_size (options prefix of the factored matrix).
*/
#include <petsc/private/matimpl.h>
#include "tassliluimpl.h"

static PetscErrorCode MatFactorGetSolverType_TASSL(Mat F, MatSolverType *t)
{
  PetscFunctionBegin;
  *t = MATSOLVERTASSL;
  PetscFunctionReturn(0);
}

static PetscErrorCode MatILUFactorSymbolic_TASSL(Mat F, Mat A, IS row, IS col, const MatFactorInfo *info)
{
  GPUPCTasslFactor *f = (GPUPCTasslFactor *)F->data;
  GPUPCILUShift     shift;
  PetscReal         amount = info->shiftamount > 0.0 ? info->shiftamount : (PetscReal)PETSC_DEFAULT;

  PetscFunctionBegin;
  switch ((MatFactorShiftType)(PetscInt)info->shifttype) {
  case MAT_SHIFT_NONE:
    shift = GPUPC_ILU_SHIFT_NONE;
    break;
  case MAT_SHIFT_POSITIVE_DEFINITE:
    shift = GPUPC_ILU_SHIFT_POSITIVE_DEFINITE;
    break;
  default: /* nonzero, inblocks: the pivot alone is moved */
    shift = GPUPC_ILU_SHIFT_NONZERO;
  }
  PetscObjectOptionsBegin((PetscObject)F);
  PetscCall(PetscOptionsEnum("-mat_tassl_solve", "Triangular solve kernels (as -pc_tasslilu_solve: levelset and cusparse are baselines; cusparse needs the cuda backend)", "MatSolverType tassl", PCTASSLILUSolveTypes, (PetscEnum)f->solve, (PetscEnum *)&f->solve, NULL));
  PetscCall(PetscOptionsEnum("-mat_tassl_launch", "TASSL launches (as -pc_tasslilu_launch)", "MatSolverType tassl", PCTASSLILULaunches, (PetscEnum)f->launch, (PetscEnum *)&f->launch, NULL));
  PetscCall(PetscOptionsInt("-mat_tassl_subgraph_size", "Most rows of a TASSL sub-graph (1 .. 6144)", "MatSolverType tassl", f->nmax, &f->nmax, NULL));
  PetscOptionsEnd();
  PetscCheck(f->nmax >= 1 && f->nmax <= 6144, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_tassl_subgraph_size must be 1 .. 6144, not %" PetscInt_FMT, f->nmax);
  PetscCall(GPUPCTasslFactorSymbolic(f, A, row, col, (PetscInt)info->levels, shift, amount, info->zeropivot > 0.0 ? info->zeropivot : -1.0));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatLUFactorNumeric_TASSL(Mat F, Mat A, const MatFactorInfo *info)
{
  GPUPCTasslFactor *f = (GPUPCTasslFactor *)F->data;

  PetscFunctionBegin;
  (void)info;
  PetscCall(GPUPCTasslFactorNumeric(f, A));
  PetscCall(GPUPCTasslFactorSetUpSolves(f));
  F->assembled = PETSC_TRUE;
  PetscFunctionReturn(0);
}

static PetscErrorCode MatSolve_TASSL(Mat F, Vec b, Vec x)
{
  PetscFunctionBegin;
  PetscCall(GPUPCTasslFactorApply((GPUPCTasslFactor *)F->data, PETSC_FALSE, b, x));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatSolveTranspose_TASSL(Mat F, Vec b, Vec x)
{
  PetscFunctionBegin;
  PetscCall(GPUPCTasslFactorApply((GPUPCTasslFactor *)F->data, PETSC_TRUE, b, x));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatView_TASSL(Mat F, PetscViewer v)
{
  PetscBool         ascii;
  PetscViewerFormat format;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)v, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(0);
  PetscCall(PetscViewerGetFormat(v, &format));
  if (format == PETSC_VIEWER_ASCII_INFO || format == PETSC_VIEWER_ASCII_INFO_DETAIL || format == PETSC_VIEWER_DEFAULT) {
    PetscCall(PetscViewerASCIIPrintf(v, "TASSL: ILU factor on the host, TASSL-scheduled triangular solves on the device\n"));
    PetscCall(GPUPCTasslFactorView((GPUPCTasslFactor *)F->data, v));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode MatGetInfo_TASSL(Mat F, MatInfoType flag, MatInfo *info)
{
  GPUPCTasslFactor *f = (GPUPCTasslFactor *)F->data;

  PetscFunctionBegin;
  (void)flag;
  PetscCall(PetscMemzero(info, sizeof(*info)));
  info->block_size        = 1.0;
  info->nz_used           = f->F.ai ? (PetscLogDouble)f->F.ai[f->F.n] : 0.0;
  info->nz_allocated      = info->nz_used;
  info->fill_ratio_given  = 0.0;
  info->fill_ratio_needed = f->F.nnzA ? info->nz_used / f->F.nnzA : 0.0;
  info->factor_mallocs    = 0.0;
  PetscFunctionReturn(0);
}

static PetscErrorCode MatDestroy_TASSL(Mat F)
{
  PetscFunctionBegin;
  PetscCall(GPUPCTasslFactorDestroy((GPUPCTasslFactor *)F->data));
  PetscCall(PetscFree(F->data));
  PetscCall(PetscObjectComposeFunction((PetscObject)F, "MatFactorGetSolverType_C", NULL));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatGetFactor_TASSL(Mat A, MatFactorType ftype, Mat *F)
{
  Mat               B;
  GPUPCTasslFactor *f;
  PetscInt          m, n;

  PetscFunctionBegin;
  PetscCheck(ftype == MAT_FACTOR_ILU, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "MatSolverType tassl offers ILU only (MAT_FACTOR_ILU), not %s", MatFactorTypes[ftype]);
  PetscCall(MatGetLocalSize(A, &m, &n));
  PetscCall(MatCreate(PetscObjectComm((PetscObject)A), &B));
  PetscCall(MatSetSizes(B, m, n, PETSC_DETERMINE, PETSC_DETERMINE));
  PetscCall(PetscStrallocpy(MATSOLVERTASSL, &((PetscObject)B)->type_name));
  PetscCall(MatSetUp(B));
  PetscCall(PetscNew(&f));
  f->nmax                   = 6144;
  f->solve                  = GPUPC_TASSL_SOLVE_TASSL;
  f->launch                 = GPUPC_TASSL_LAUNCH_AUTO;
  B->data                   = f;
  B->ops->ilufactorsymbolic = MatILUFactorSymbolic_TASSL;
  B->ops->lufactornumeric   = MatLUFactorNumeric_TASSL;
  B->ops->solve             = MatSolve_TASSL;
  B->ops->solvetranspose    = MatSolveTranspose_TASSL;
  B->ops->view              = MatView_TASSL;
  B->ops->getinfo           = MatGetInfo_TASSL;
  B->ops->destroy           = MatDestroy_TASSL;
  B->factortype             = MAT_FACTOR_ILU;
  B->canuseordering         = PETSC_TRUE;
  B->assembled              = PETSC_TRUE;
  B->preallocated           = PETSC_TRUE;
  PetscCall(PetscFree(B->solvertype));
  PetscCall(PetscStrallocpy(MATSOLVERTASSL, &B->solvertype));
  PetscCall(PetscStrallocpy(MATORDERINGNATURAL, (char **)&B->preferredordering[MAT_FACTOR_ILU]));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatFactorGetSolverType_C", MatFactorGetSolverType_TASSL));
  *F = B;
  PetscFunctionReturn(0);
}

/* registered with the PC types (src/pc/pcregister.c) */
PetscErrorCode GPUPCTasslRegisterSolverType(void)
{
  PetscFunctionBegin;
  PetscCall(MatSolverTypeRegister(MATSOLVERTASSL, MATSEQAIJ, MAT_FACTOR_ILU, MatGetFactor_TASSL));
  PetscCall(MatSolverTypeRegister(MATSOLVERTASSL, MATSEQSEGCSR, MAT_FACTOR_ILU, MatGetFactor_TASSL));
  PetscCall(MatSolverTypeRegister(MATSOLVERTASSL, MATSEQHEC, MAT_FACTOR_ILU, MatGetFactor_TASSL));
  PetscCall(MatSolverTypeRegister(MATSOLVERTASSL, MATSEQBCSR, MAT_FACTOR_ILU, MatGetFactor_TASSL));
  PetscFunctionReturn(0);
}

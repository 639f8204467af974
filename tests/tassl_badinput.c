static const char help[] = "PC tasslilu on bad input: a zero pivot (the error names the row; -pc_tasslilu_shift nonzero and\n"
                           "positive_definite get past it), a non-square matrix, cusparse on the host backend, a bad sub-graph size.\n";

#include "gpupctest.h"
#include <petscksp.h>

/* runs PCSetUp on a fresh tasslilu PC with the given options; returns the error code and its message */
static PetscErrorCode TrySetUp(Mat A, const char *opts, PetscErrorCode *err, char *msg, size_t len)
{
  PC             pc;
  PetscErrorCode e;
  const char    *text     = NULL;
  char          *specific = NULL;

  PetscFunctionBegin;
  PetscCall(PetscOptionsClearValue(NULL, "-pc_tasslilu_shift"));
  PetscCall(PetscOptionsClearValue(NULL, "-pc_tasslilu_solve"));
  PetscCall(PetscOptionsClearValue(NULL, "-pc_tasslilu_subgraph_size"));
  PetscCall(PetscOptionsInsertString(NULL, opts));
  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetType(pc, PCTASSLILU));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  e = PCSetFromOptions(pc);
  if (!e) e = PCSetUp(pc);
  PetscCall(PetscPopErrorHandler());
  *err   = e;
  msg[0] = 0;
  if (e) {
    PetscCall(PetscErrorMessage(e, &text, &specific));
    PetscCall(PetscStrncpy(msg, specific ? specific : "", len));
  }
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(0);
}

static PetscErrorCode Expect(Mat A, const char *opts, PetscErrorCode want, const char *needle)
{
  PetscErrorCode e = 0;
  char           msg[1024], *hit = NULL;

  PetscFunctionBegin;
  PetscCall(TrySetUp(A, opts, &e, msg, sizeof(msg)));
  if (needle) PetscCall(PetscStrstr(msg, needle, &hit));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "[%s] error %d: %s\n", opts, (int)e, e ? msg : "(none)"));
  PetscCheck(e == want, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "options '%s': error %d, expected %d", opts, (int)e, (int)want);
  PetscCheck(!needle || hit, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "options '%s': the message does not say '%s': %s", opts, needle, msg);
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Mat               Z, R;
  PetscInt          n = 40, lo, hi, bad = 17;
  PetscGPUPCBackend backend;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscGPUPCGetBackend(&backend));
  /* tridiagonal, row 17 with a zero diagonal and no lower neighbour: its ILU(0) pivot is 0 (the fill that could
     fix it is not in the pattern) */
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 3, NULL, 2, NULL, &Z));
  PetscCall(MatGetOwnershipRange(Z, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) {
    PetscScalar d = i == bad ? 0.0 : 4.0;
    PetscCall(MatSetValue(Z, i, i, d, INSERT_VALUES));
    if (i > 0 && i != bad) PetscCall(MatSetValue(Z, i, i - 1, -1.0, INSERT_VALUES));
    if (i < n - 1) PetscCall(MatSetValue(Z, i, i + 1, -1.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(Z, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Z, MAT_FINAL_ASSEMBLY));
  PetscCall(Expect(Z, "-pc_tasslilu_shift none", PETSC_ERR_MAT_LU_ZRPVT, "row 17 of the matrix"));
  PetscCall(Expect(Z, "-pc_tasslilu_shift nonzero", 0, NULL));
  PetscCall(Expect(Z, "-pc_tasslilu_shift positive_definite", 0, NULL));
  PetscCall(Expect(Z, "-pc_tasslilu_subgraph_size 0", PETSC_ERR_ARG_OUTOFRANGE, "subgraph_size"));
  if (backend == PETSC_GPUPC_BACKEND_HOST) PetscCall(Expect(Z, "-pc_tasslilu_solve cusparse", PETSC_ERR_SUP, "host backend"));
  /* non-square */
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n + 3, 1, NULL, 1, NULL, &R));
  PetscCall(MatGetOwnershipRange(R, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) PetscCall(MatSetValue(R, i, i, 1.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(R, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(R, MAT_FINAL_ASSEMBLY));
  PetscCall(Expect(R, "-pc_tasslilu_shift none", PETSC_ERR_ARG_WRONG, "square"));
  PetscCall(MatDestroy(&Z));
  PetscCall(MatDestroy(&R));
  PetscCall(PetscFinalize());
  return 0;
}

static const char help[] = "The CMG cycle: PCApply against an independent plain-C implementation of ALGORITHMS.md 2.3 on the\n"
                           "host copy of the hierarchy (exact recursion shape), symmetry <P u, v> = <u, P v> on random vectors,\n"
                           "PCApplyTranspose == PCApply. cmgtest.h options select the matrix; -tol <t> the allowed relative difference.\n";

#include <gpupc/cmg.h>
#include "cmgtest.h"

/* y = A_k x */
static void LevelMult(const GPUPCCMGLevel *L, const PetscReal *x, PetscReal *y)
{
  for (PetscInt i = 0; i < L->n; i++) {
    PetscReal s = 0.0;
    for (PetscInt e = L->rowptr[i]; e < L->rowptr[i + 1]; e++) s += L->val[e] * x[L->col[e]];
    y[i] = s;
  }
}

static PetscReal Diag(const GPUPCCMGLevel *L, PetscInt i)
{
  for (PetscInt e = L->rowptr[i]; e < L->rowptr[i + 1]; e++)
    if (L->col[e] == i) return L->val[e];
  return 0.0;
}

/* x = invD (b - A x) + x, or x = invD b when first */
static void Jacobi(const GPUPCCMGLevel *L, const PetscReal *b, PetscReal *x, PetscReal *tmp, PetscBool first)
{
  if (!first) LevelMult(L, x, tmp);
  for (PetscInt i = 0; i < L->n; i++) {
    PetscReal d = Diag(L, i), w = d > 0 ? 1.0 / (2.0 * d) : 0.0;
    x[i]        = first ? w * b[i] : x[i] + w * (b[i] - tmp[i]);
  }
}

/* P(b, k, m) of ALGORITHMS.md 2.3, written out independently of the library's cycle */
static PetscErrorCode RefCycle(const GPUPCCMGHierarchy *H, PetscInt k, PetscInt m, const PetscReal *b, PetscReal *x)
{
  const GPUPCCMGLevel *L = &H->levels[k];
  PetscReal           *tmp, *bc, *xc;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(L->n, &tmp));
  if (k == H->nlevels - 1) {
    if (H->coarse_direct)
      for (PetscInt i = 0; i < L->n; i++) {
        x[i] = 0.0;
        for (PetscInt j = 0; j < L->n; j++) x[i] += H->coarse_inv[(size_t)i * L->n + j] * b[j];
      }
    else Jacobi(L, b, x, tmp, PETSC_TRUE);
    PetscCall(PetscFree(tmp));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscMalloc2(L->nc, &bc, L->nc, &xc));
  for (PetscInt j = 1; j <= m; j++) {
    Jacobi(L, b, x, tmp, j == 1 ? PETSC_TRUE : PETSC_FALSE);
    LevelMult(L, x, tmp);
    for (PetscInt c = 0; c < L->nc; c++) bc[c] = 0.0;
    for (PetscInt i = 0; i < L->n; i++) bc[L->cluster[i]] += b[i] - tmp[i];
    PetscCall(RefCycle(H, k + 1, L->t, bc, xc));
    for (PetscInt i = 0; i < L->n; i++) x[i] += xc[L->cluster[i]];
    Jacobi(L, b, x, tmp, PETSC_FALSE);
  }
  PetscCall(PetscFree2(bc, xc));
  PetscCall(PetscFree(tmp));
  PetscFunctionReturn(0);
}

/* the reference preconditioner on a user vector: expand, cycle, fold */
static PetscErrorCode RefApply(const GPUPCCMGHierarchy *H, Vec b, Vec x)
{
  const GPUPCCMGReduction *r = &H->red;
  const PetscScalar       *ba;
  PetscScalar             *xa;
  PetscReal               *b0, *x0, sum = 0.0, xg;

  PetscFunctionBegin;
  PetscCall(PetscCalloc2(r->n0, &b0, r->n0, &x0));
  PetscCall(VecGetArrayRead(b, &ba));
  for (PetscInt i = 0; i < r->n; i++) {
    b0[i] = ba[i];
    sum += ba[i];
    if (r->copies == 2) b0[r->n + i] = -ba[i];
  }
  if (r->ground) b0[r->copies * r->n] = r->copies == 1 ? -sum : 0.0;
  PetscCall(VecRestoreArrayRead(b, &ba));
  PetscCall(RefCycle(H, 0, 1, b0, x0));
  xg = r->ground ? x0[r->copies * r->n] : 0.0;
  PetscCall(VecGetArray(x, &xa));
  for (PetscInt i = 0; i < r->n; i++) xa[i] = r->copies == 2 ? 0.5 * ((x0[i] - xg) - (x0[r->n + i] - xg)) : x0[i] - xg;
  PetscCall(VecRestoreArray(x, &xa));
  PetscCall(PetscFree2(b0, x0));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  CMGTestProblem           p;
  Mat                      A;
  PC                       pc;
  Vec                      u, v, Pu, Pv, ref, PTu;
  PetscRandom              rnd;
  const GPUPCCMGHierarchy *H;
  PetscScalar              a, b;
  PetscReal                tol = 1e-10, nr, nd;
  size_t                   mem0, mem1;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(CMGTestGetProblem(&p));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem0));
  PetscCall(CMGTestMatrix(&p, &A));
  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetType(pc, PCCMG));
  PetscCall(PCSetFromOptions(pc));
  PetscCall(PCSetUp(pc));
  PetscCall(PCCMGGetHierarchy_Private(pc, &H));
  PetscCall(MatCreateVecs(A, &u, &v));
  PetscCall(VecSetType(u, VECGPU));
  PetscCall(VecSetType(v, VECGPU));
  PetscCall(VecDuplicate(u, &Pu));
  PetscCall(VecDuplicate(u, &Pv));
  PetscCall(VecDuplicate(u, &PTu));
  PetscCall(MatCreateVecs(A, &ref, NULL));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(VecSetRandom(u, rnd));
  PetscCall(VecSetRandom(v, rnd));
  PetscCall(PetscRandomDestroy(&rnd));

  PetscCall(PCApply(pc, u, Pu));
  PetscCall(PCApply(pc, v, Pv));
  PetscCall(PCApplyTranspose(pc, u, PTu));
  /* against the reference cycle */
  PetscCall(RefApply(H, u, ref));
  PetscCall(VecNorm(ref, NORM_INFINITY, &nr));
  PetscCall(VecAXPY(ref, -1.0, Pu));
  PetscCall(VecNorm(ref, NORM_INFINITY, &nd));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT " levels; |P u - reference| / |reference| = %.3e\n", H->nlevels, (double)(nd / nr)));
  PetscCheck(nr > 0 && nd <= tol * nr, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "PCApply differs from the reference cycle: %g relative (tolerance %g)", (double)(nd / nr), (double)tol);
  /* symmetry */
  PetscCall(VecDot(Pu, v, &a));
  PetscCall(VecDot(u, Pv, &b));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "<P u, v> = %.15g, <u, P v> = %.15g\n", (double)a, (double)b));
  PetscCheck(PetscAbsScalar(a - b) <= tol * PetscMax(PetscAbsScalar(a), PetscAbsScalar(b)), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the CMG operator is not symmetric: <P u, v> = %g, <u, P v> = %g", (double)a, (double)b);
  PetscCall(VecAXPY(PTu, -1.0, Pu));
  PetscCall(VecNorm(PTu, NORM_INFINITY, &nd));
  PetscCheck(nd == 0.0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "PCApplyTranspose differs from PCApply by %g", (double)nd);

  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&v));
  PetscCall(VecDestroy(&Pu));
  PetscCall(VecDestroy(&Pv));
  PetscCall(VecDestroy(&PTu));
  PetscCall(VecDestroy(&ref));
  PetscCall(PCDestroy(&pc));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem1));
  PetscCheck(mem0 == mem1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "device memory in use went from %zu to %zu bytes", mem0, mem1);
  PetscCall(PetscFinalize());
  return 0;
}

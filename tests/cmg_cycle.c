static const char help[] = "The CMG cycle: PCApply and PCApplyTranspose against an independent plain-C implementation of\n"
                           "docs/algorithms.md 2.3 on the host copy of the hierarchy (exact recursion shape), symmetry <P u, v> = <u, P v>\n"
                           "on random vectors and PCApplyTranspose == PCApply (with eliminated Dirichlet couplings: <P u, v> = <u, P^T v>).\n"
                           "cmgtest.h options select the matrix; -tol <t> the allowed relative difference.\n"
                           "  -newvalues : then scale the matrix (same pattern) and set up again: the clustering kept, the device values\n"
                           "               refreshed in place; the hierarchy must equal a fresh PC's on the scaled matrix (up to rounding with\n"
                           "               -pc_cmg_cluster_order), PCApply up to -tol\n";

#include <petsc/private/pcimpl.h>
#include <gpupc/cmg.h>
#include "cmgtest.h"
#include "testcases.h"

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
    x[i] = first ? w * b[i] : x[i] + w * (b[i] - tmp[i]);
  }
}

/* P(b, k, m) of docs/algorithms.md 2.3, written out independently of the library's cycle */
static PetscErrorCode RefCycle(const GPUPCCMGHierarchy *H, PetscInt k, PetscInt m, const PetscReal *b, PetscReal *x)
{
  const GPUPCCMGLevel *L = &H->levels[k];
  PetscReal           *tmp, *bc, *xc;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(L->n, &tmp));
  if (k == H->nlevels - 1) {
    if (H->coarse_direct) {
      const PetscReal *inv; /* the host factorization's (the cuda backend's setup factors on the device) */
      PetscCall(GPUPCCMGHierarchyGetCoarseInverse(H, &inv));
      for (PetscInt i = 0; i < L->n; i++) {
        x[i] = 0.0;
        for (PetscInt j = 0; j < L->n; j++) x[i] += inv[(size_t)i * L->n + j] * b[j];
      }
    } else Jacobi(L, b, x, tmp, PETSC_TRUE);
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

/* the reference preconditioner on a user vector: Dirichlet elimination, expand, cycle, fold (P or P^T) */
static PetscErrorCode RefApply(const GPUPCCMGHierarchy *H, PetscBool transpose, Vec b, Vec x)
{
  const GPUPCCMGReduction *r = &H->red;
  const PetscScalar       *ba;
  PetscScalar             *xa;
  PetscReal               *b0, *x0, *bk, sum = 0.0, xg;
  PetscInt                 nk = r->nkept;

  PetscFunctionBegin;
  PetscCall(PetscCalloc3(r->n0, &b0, r->n0, &x0, r->n, &bk));
  PetscCall(VecGetArrayRead(b, &ba));
  for (PetscInt i = 0; i < r->n; i++) bk[i] = ba[i];
  if (r->erow && !transpose) /* b_I - E D_B^{-1} b_B */
    for (PetscInt i = 0; i < r->n; i++)
      for (PetscInt k = r->erow[i]; k < r->erow[i + 1]; k++) bk[i] -= r->eval[k] * r->dinv[r->ecol[k]] * ba[r->ecol[k]];
  for (PetscInt i = 0; i < r->n; i++) {
    PetscInt m = r->map ? r->map[i] : i;
    if (m < 0) continue;
    b0[m] = bk[i];
    sum += bk[i];
    if (r->copies == 2) b0[nk + m] = -bk[i];
  }
  if (r->ground) b0[r->copies * nk] = r->copies == 1 ? -sum : 0.0;
  PetscCall(RefCycle(H, 0, 1, b0, x0));
  xg = r->ground ? x0[r->copies * nk] : 0.0;
  PetscCall(VecGetArray(x, &xa));
  for (PetscInt i = 0; i < r->n; i++) {
    PetscInt m = r->map ? r->map[i] : i;
    if (m >= 0) xa[i] = r->copies == 2 ? 0.5 * ((x0[m] - xg) - (x0[nk + m] - xg)) : x0[m] - xg;
  }
  for (PetscInt i = 0; i < r->n; i++) { /* Dirichlet rows: D_B^{-1} b_B, or D_B^{-1} (b_B - E^T x_I) for the transpose */
    PetscReal v;
    if (!r->map || r->map[i] >= 0) continue;
    v = ba[i];
    if (r->trow && transpose)
      for (PetscInt k = r->trow[i]; k < r->trow[i + 1]; k++) v -= r->tval[k] * xa[r->tcol[k]];
    xa[i] = r->dinv[i] * v;
  }
  PetscCall(VecRestoreArray(x, &xa));
  PetscCall(VecRestoreArrayRead(b, &ba));
  PetscCall(PetscFree3(b0, x0, bk));
  PetscFunctionReturn(0);
}

/* |x - ref| / |ref| must not exceed tol */
/* the hierarchies of a PC set up again on new values (clustering kept) and of a fresh PC on the same matrix are the same,
   value for value; with the cluster order (exact false) up to rounding: a fresh setup sums a coarse entry in the order
   of the level built, the recomputation in the order of the level renumbered */
static PetscErrorCode CompareHierarchies(const GPUPCCMGHierarchy *R, const GPUPCCMGHierarchy *F, PetscBool exact)
{
  PetscBool eq = (PetscBool)(R->nlevels == F->nlevels);

  PetscFunctionBegin;
  for (PetscInt k = 0; eq && k < R->nlevels; k++) {
    const GPUPCCMGLevel *a = &R->levels[k], *b = &F->levels[k];
    PetscBool            e1, e2, e3;
    PetscCheck(a->n == b->n && a->nnz == b->nnz, PETSC_COMM_SELF, PETSC_ERR_PLIB, "level %" PetscInt_FMT ": %" PetscInt_FMT " rows, %" PetscInt_FMT " nonzeros after the new values; a fresh setup has %" PetscInt_FMT ", %" PetscInt_FMT, k, a->n, a->nnz, b->n, b->nnz);
    PetscCall(PetscArraycmp(a->rowptr, b->rowptr, a->n + 1, &e1));
    PetscCall(PetscArraycmp(a->col, b->col, a->nnz, &e2));
    if (exact) PetscCall(PetscArraycmp(a->val, b->val, a->nnz, &e3));
    else {
      e3 = PETSC_TRUE;
      for (PetscInt q = 0; q < a->nnz; q++) e3 = (PetscBool)(e3 && PetscAbsReal(a->val[q] - b->val[q]) <= 1e-12 * PetscAbsReal(b->val[q]));
    }
    PetscCheck(e1 && e2 && e3, PETSC_COMM_SELF, PETSC_ERR_PLIB, "level %" PetscInt_FMT " after the new values differs from a fresh setup (rows %d, columns %d, values %d the same)", k, (int)e1, (int)e2, (int)e3);
  }
  PetscCheck(eq, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%" PetscInt_FMT " levels after the new values, a fresh setup has %" PetscInt_FMT, R->nlevels, F->nlevels);
  if (R->coarse_direct && exact) {
    const PetscInt   m = R->levels[R->nlevels - 1].n;
    const PetscReal *rinv, *finv;
    PetscCall(GPUPCCMGHierarchyGetCoarseInverse(R, &rinv));
    PetscCall(GPUPCCMGHierarchyGetCoarseInverse(F, &finv));
    PetscCall(PetscArraycmp(rinv, finv, (size_t)m * m, &eq));
    PetscCheck(eq, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the last level's inverse after the new values differs from a fresh setup's");
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Compare(Vec x, Vec ref, PetscReal tol, const char *what)
{
  Vec       d;
  PetscReal nr, nd;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(ref, &d));
  PetscCall(VecCopy(ref, d));
  PetscCall(VecNorm(ref, NORM_INFINITY, &nr));
  PetscCall(VecAXPY(d, -1.0, x));
  PetscCall(VecNorm(d, NORM_INFINITY, &nd));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: |P u - reference| / |reference| = %.3e\n", what, (double)(nd / nr)));
  PetscCheck(nr > 0 && nd <= tol * nr, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s differs from the reference cycle: %g relative (tolerance %g)", what, (double)(nd / nr), (double)tol);
  PetscCall(VecDestroy(&d));
  PetscFunctionReturn(0);
}

/* one test case on the options of the current database (tests/testcases.h) */
static PetscErrorCode RunCase(void)
{
  CMGTestProblem           p;
  Mat                      A;
  PC                       pc;
  Vec                      u, v, Pu, Pv, ref, PTu, PTv;
  PetscRandom              rnd;
  const GPUPCCMGHierarchy *H;
  PetscScalar              a, b;
  PetscReal                tol = 1e-10, nd;
  size_t                   mem0, mem1;
  PetscBool                newvalues = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(CMGTestGetProblem(&p));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-newvalues", &newvalues, NULL));
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
  PetscCall(VecDuplicate(u, &PTv));
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
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT " levels, %" PetscInt_FMT " Dirichlet rows, %" PetscInt_FMT " couplings into them\n", H->nlevels, H->red.ndirichlet, H->red.ncoupling));
  PetscCall(RefApply(H, PETSC_FALSE, u, ref));
  PetscCall(Compare(Pu, ref, tol, "PCApply"));
  PetscCall(RefApply(H, PETSC_TRUE, u, ref));
  PetscCall(Compare(PTu, ref, tol, "PCApplyTranspose"));
  /* <P u, v> = <u, P^T v>, and P^T = P when no Dirichlet couplings were eliminated */
  PetscCall(PCApplyTranspose(pc, v, PTv));
  PetscCall(VecDot(Pu, v, &a));
  PetscCall(VecDot(u, H->red.ncoupling ? PTv : Pv, &b));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "<P u, v> = %.15g, <u, P%s v> = %.15g\n", (double)a, H->red.ncoupling ? "^T" : "", (double)b));
  { /* a dot product of rounded vectors is only within tol |x| |y| of the exact one, however small it is after cancellation */
    PetscReal nPu, nv, nu, nPv;
    PetscCall(VecNorm(Pu, NORM_2, &nPu));
    PetscCall(VecNorm(v, NORM_2, &nv));
    PetscCall(VecNorm(u, NORM_2, &nu));
    PetscCall(VecNorm(H->red.ncoupling ? PTv : Pv, NORM_2, &nPv));
    PetscCheck(PetscAbsScalar(a - b) <= tol * PetscMax(nPu * nv, nu * nPv), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "<P u, v> = %g but <u, P%s v> = %g (allowed: %g |P u| |v|)", (double)a, H->red.ncoupling ? "^T" : "", (double)b, (double)tol);
  }
  if (!H->red.ncoupling) {
    PetscCall(VecAXPY(PTu, -1.0, Pu));
    PetscCall(VecNorm(PTu, NORM_INFINITY, &nd));
    PetscCheck(nd == 0.0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the operator is symmetric, but PCApplyTranspose differs from PCApply by %g", (double)nd);
  }

  if (newvalues) { /* same pattern, new values: the PC keeps its clustering and refreshes its device values in place */
    PC                       fresh;
    const GPUPCCMGHierarchy *F;
    PC_CMG                  *cmg = (PC_CMG *)pc->data;

    PetscCall(MatScale(A, 2.5));
    PetscCall(PCSetUp(pc));
    PetscCheck(cmg->nreuses == 1, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "new values on the same pattern did not keep the clustering (%" PetscInt_FMT " reuses)", cmg->nreuses);
    PetscCheck(cmg->nrefreshes == 1, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "new values on the same pattern were uploaded afresh (%" PetscInt_FMT " refreshes)", cmg->nrefreshes);
    PetscCall(PCCMGGetHierarchy_Private(pc, &H));
    PetscCall(PCApply(pc, u, Pu));
    PetscCall(RefApply(H, PETSC_FALSE, u, ref));
    PetscCall(Compare(Pu, ref, tol, "PCApply after the new values"));
    PetscCall(PCCreate(PETSC_COMM_WORLD, &fresh));
    PetscCall(PCSetOperators(fresh, A, A));
    PetscCall(PCSetType(fresh, PCCMG));
    PetscCall(PCSetFromOptions(fresh));
    PetscCall(PCSetUp(fresh));
    PetscCall(PCCMGGetHierarchy_Private(fresh, &F));
    PetscCall(CompareHierarchies(H, F, (PetscBool)!cmg->opts.cluster_order));
    /* up to rounding: the CUDA kernels add the chunks of a long row or a large cluster in the order they finish */
    PetscCall(PCApply(fresh, u, Pv));
    PetscCall(Compare(Pu, Pv, tol, "PCApply after the new values against a fresh PC's"));
    PetscCall(PCDestroy(&fresh));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "new values: clustering kept, device values refreshed, the same as a fresh setup\n"));
  }

  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&v));
  PetscCall(VecDestroy(&Pu));
  PetscCall(VecDestroy(&Pv));
  PetscCall(VecDestroy(&PTu));
  PetscCall(VecDestroy(&PTv));
  PetscCall(VecDestroy(&ref));
  PetscCall(PCDestroy(&pc));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem1));
  PetscCheck(mem0 == mem1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "device memory in use went from %zu to %zu bytes", mem0, mem1);
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  return TestCasesMain(argc, argv, help, RunCase);
}

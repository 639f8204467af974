static const char help[] = "Properties of the CMG hierarchy on SDD test matrices (cmgtest.h options):\n"
                           "  level 0 reproduces A (A x = first n rows of L0 [x; -x; 0]), every level is a symmetric Laplacian,\n"
                           "  every cluster is connected with diameter <= 6, the weak-vertex count follows the rule, coarsening ratio >= -min_ratio, level k+1 = R A_k R^T\n"
                           "  (against MatPtAP with P = R^T on AIJ), and the recursion counts follow t_k = max(floor(nnz_k/nnz_k+1 - 1/2), 1).\n"
                           "  -compare_threads: the hierarchy built with -pc_cmg_setup_threads (at least 2) equals, bit for bit, the one built\n"
                           "  with one thread. -compare_setup: the hierarchy built with the other -pc_cmg_setup (device, host) equals it bit for bit.\n"
                           "  With -pc_cmg_cluster_order, levels 1 .. last-1 are in cluster order.\n";

#include <gpupc/cmg.h>
#include "cmgtest.h"
#include "testcases.h"

static PetscErrorCode LevelToAIJ(const GPUPCCMGLevel *L, Mat *M)
{
  PetscFunctionBegin;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, L->n, L->n, 0, NULL, M));
  PetscCall(MatSetOption(*M, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  for (PetscInt i = 0; i < L->n; i++) PetscCall(MatSetValues(*M, 1, &i, L->rowptr[i + 1] - L->rowptr[i], L->col + L->rowptr[i], L->val + L->rowptr[i], INSERT_VALUES));
  PetscCall(MatAssemblyBegin(*M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*M, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* every cluster connected in the level graph, hop diameter <= 6 */
static PetscErrorCode CheckClusters(const GPUPCCMGLevel *L, PetscInt k)
{
  PetscInt *cptr, *cperm, *dist, *queue, maxd = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc4(L->nc + 1, &cptr, L->n, &cperm, L->n, &dist, L->n, &queue));
  PetscCall(GPUPCCMGClusterSort(L->n, L->nc, L->cluster, cptr, cperm));
  for (PetscInt C = 0; C < L->nc; C++)
    for (PetscInt q = cptr[C]; q < cptr[C + 1]; q++) PetscCheck(L->cluster[cperm[q]] == C && (q == cptr[C] || cperm[q] > cperm[q - 1]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "level %" PetscInt_FMT ": the cluster sort lists vertex %" PetscInt_FMT " at position %" PetscInt_FMT " of cluster %" PetscInt_FMT " (its cluster %" PetscInt_FMT ", not ascending or not its own)", k, cperm[q], q - cptr[C], C, L->cluster[cperm[q]]);
  PetscCheck(cptr[L->nc] == L->n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "level %" PetscInt_FMT ": the cluster sort lists %" PetscInt_FMT " of %" PetscInt_FMT " vertices", k, cptr[L->nc], L->n);
  for (PetscInt v = 0; v < L->n; v++) dist[v] = -1;
  for (PetscInt C = 0; C < L->nc; C++) {
    PetscInt size = cptr[C + 1] - cptr[C];
    PetscCheck(size > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "level %" PetscInt_FMT ": cluster %" PetscInt_FMT " is empty", k, C);
    for (PetscInt q = cptr[C]; q < cptr[C + 1]; q++) { /* BFS inside the cluster from every vertex */
      PetscInt head = 0, tail = 0, s = cperm[q];
      dist[s]       = 0;
      queue[tail++] = s;
      while (head < tail) {
        PetscInt v = queue[head++];
        for (PetscInt e = L->rowptr[v]; e < L->rowptr[v + 1]; e++) {
          PetscInt u = L->col[e];
          if (u != v && L->val[e] != 0.0 && L->cluster[u] == C && dist[u] < 0) {
            dist[u]       = dist[v] + 1;
            queue[tail++] = u;
            maxd          = PetscMax(maxd, dist[u]);
          }
        }
      }
      PetscCheck(tail == size, PETSC_COMM_SELF, PETSC_ERR_PLIB, "level %" PetscInt_FMT ": cluster %" PetscInt_FMT " is not connected (%" PetscInt_FMT " of %" PetscInt_FMT " vertices reached from %" PetscInt_FMT ")", k, C, tail, size, s);
      for (PetscInt r = 0; r < tail; r++) dist[queue[r]] = -1;
    }
  }
  PetscCheck(maxd <= 6, PETSC_COMM_SELF, PETSC_ERR_PLIB, "level %" PetscInt_FMT ": a cluster has diameter %" PetscInt_FMT " > 6", k, maxd);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "level %" PetscInt_FMT ": %" PetscInt_FMT " clusters (%" PetscInt_FMT " weak vertices), all connected, largest diameter %" PetscInt_FMT "\n", k, L->nc, L->nweak, maxd));
  PetscCall(PetscFree4(cptr, cperm, dist, queue));
  PetscFunctionReturn(0);
}

/* the weak-vertex count of the clustering against docs/algorithms.md 2.2 step 2, computed here: p(v) = the heaviest
   neighbour (ties: smallest index); when some vertex's heaviest edge is below vol(v) / 8, t(v) = the total weight of
   the forest edges touching v (an edge of a 2-cycle u <-> v is one edge: it counts once at u and once at v), and the
   vertices with p(v) != v and t(v) < vol(v) / 8 are weak */
static PetscErrorCode CheckWeak(const GPUPCCMGLevel *L, PetscInt k)
{
  PetscInt  *p, nweak = 0;
  PetscReal *w, *vol, *t;
  PetscBool  any = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscMalloc4(L->n, &p, L->n, &w, L->n, &vol, L->n, &t));
  for (PetscInt v = 0; v < L->n; v++) {
    p[v]   = v;
    w[v]   = 0.0;
    vol[v] = 0.0;
    t[v]   = 0.0;
    for (PetscInt e = L->rowptr[v]; e < L->rowptr[v + 1]; e++) {
      if (L->col[e] == v) vol[v] = L->val[e];
      else if (-L->val[e] > w[v] || (-L->val[e] == w[v] && w[v] > 0.0 && L->col[e] < p[v])) {
        w[v] = -L->val[e];
        p[v] = L->col[e];
      }
    }
    if (w[v] < vol[v] / 8) any = PETSC_TRUE;
  }
  for (PetscInt v = 0; v < L->n && any; v++) {
    if (p[v] == v) continue;
    t[v] += w[v];
    if (p[p[v]] != v) t[p[v]] += w[v];
  }
  for (PetscInt v = 0; v < L->n && any; v++)
    if (p[v] != v && t[v] < vol[v] / 8) nweak++;
  PetscCheck(nweak == L->nweak, PETSC_COMM_SELF, PETSC_ERR_PLIB, "level %" PetscInt_FMT ": the clustering found %" PetscInt_FMT " weak vertices, the rule of docs/algorithms.md 2.2 gives %" PetscInt_FMT, k, L->nweak, nweak);
  PetscCall(PetscFree4(p, w, vol, t));
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckLaplacian(const GPUPCCMGLevel *L, PetscInt k)
{
  Mat       M, Mt;
  PetscReal nm, nd;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < L->n; i++) {
    PetscReal d = 0.0, s = 0.0, m = 0.0;
    for (PetscInt e = L->rowptr[i]; e < L->rowptr[i + 1]; e++) {
      if (L->col[e] == i) d = L->val[e];
      else PetscCheck(L->val[e] <= 0.0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "level %" PetscInt_FMT " row %" PetscInt_FMT ": positive off-diagonal %g", k, i, (double)L->val[e]);
      s += L->val[e];
      m = PetscMax(m, PetscAbsReal(L->val[e]));
    }
    PetscCheck(PetscAbsReal(s) <= 1e-12 * PetscMax(d, m), PETSC_COMM_SELF, PETSC_ERR_PLIB, "level %" PetscInt_FMT " row %" PetscInt_FMT ": row sum %g, diagonal %g: not a Laplacian", k, i, (double)s, (double)d);
  }
  PetscCall(LevelToAIJ(L, &M));
  PetscCall(MatTranspose(M, MAT_INITIAL_MATRIX, &Mt));
  PetscCall(MatNorm(M, NORM_INFINITY, &nm));
  PetscCall(MatAXPY(Mt, -1.0, M, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatNorm(Mt, NORM_INFINITY, &nd));
  PetscCheck(nd <= 1e-13 * nm, PETSC_COMM_SELF, PETSC_ERR_PLIB, "level %" PetscInt_FMT " is not symmetric: |A - A^T| = %g, |A| = %g", k, (double)nd, (double)nm);
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&Mt));
  PetscFunctionReturn(0);
}

/* level k+1 == P^T A_k P with P = R^T (n x nc, P[v, c(v)] = 1) */
static PetscErrorCode CheckGalerkin(const GPUPCCMGLevel *F, const GPUPCCMGLevel *C, PetscInt k)
{
  Mat       Af, Ac, P, PtAP;
  PetscReal nd, na;

  PetscFunctionBegin;
  PetscCall(LevelToAIJ(F, &Af));
  PetscCall(LevelToAIJ(C, &Ac));
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, F->n, F->nc, 1, NULL, &P));
  for (PetscInt v = 0; v < F->n; v++) PetscCall(MatSetValue(P, v, F->cluster[v], 1.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatPtAP(Af, P, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &PtAP));
  PetscCall(MatNorm(Af, NORM_INFINITY, &na));
  PetscCall(MatAXPY(PtAP, -1.0, Ac, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatNorm(PtAP, NORM_INFINITY, &nd));
  PetscCheck(nd <= 1e-12 * na, PETSC_COMM_SELF, PETSC_ERR_PLIB, "level %" PetscInt_FMT ": |R A R^T - A_c| = %g (|A| = %g)", k + 1, (double)nd, (double)na);
  PetscCall(MatDestroy(&Af));
  PetscCall(MatDestroy(&Ac));
  PetscCall(MatDestroy(&P));
  PetscCall(MatDestroy(&PtAP));
  PetscFunctionReturn(0);
}

/* A x == first n rows of L0 [x; -x (double cover); 0 (ground)] */
static PetscErrorCode CheckReduction(Mat A, const GPUPCCMGHierarchy *H)
{
  const GPUPCCMGLevel *L0 = &H->levels[0];
  Vec                  x, y;
  const PetscScalar   *xa, *ya;
  PetscScalar         *x0;
  PetscRandom          rnd;
  PetscReal            err = 0.0, m = 0.0;
  PetscInt             n = H->red.n;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  if (H->red.map) { /* zero on the Dirichlet rows: their couplings are eliminated, not in L0 */
    PetscScalar *xw;
    PetscCall(VecGetArray(x, &xw));
    for (PetscInt i = 0; i < n; i++)
      if (H->red.map[i] < 0) xw[i] = 0.0;
    PetscCall(VecRestoreArray(x, &xw));
  }
  PetscCall(MatMult(A, x, y));
  PetscCall(PetscCalloc1(L0->n, &x0));
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(VecGetArrayRead(y, &ya));
  for (PetscInt i = 0; i < n; i++) {
    PetscInt m = H->red.map ? H->red.map[i] : i;
    if (m < 0) continue;
    x0[m] = xa[i];
    if (H->red.copies == 2) x0[H->red.nkept + m] = -xa[i];
  }
  for (PetscInt i = 0; i < n; i++) {
    PetscScalar s = 0.0;
    PetscInt    m = H->red.map ? H->red.map[i] : i;
    if (m < 0) continue;
    for (PetscInt e = L0->rowptr[m]; e < L0->rowptr[m + 1]; e++) s += L0->val[e] * x0[L0->col[e]];
    err = PetscMax(err, PetscAbsScalar(s - ya[i]));
    m   = PetscMax(m, PetscAbsScalar(ya[i]));
  }
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscCall(VecRestoreArrayRead(y, &ya));
  PetscCheck(err <= 1e-9 * PetscMax(m, 1.0), PETSC_COMM_SELF, PETSC_ERR_PLIB, "level 0 does not reproduce A: max error %g", (double)err);
  PetscCall(PetscFree(x0));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(0);
}

#define SAME(what, a, b, m)                                                                    \
  do {                                                                                         \
    PetscBool eq_ = PETSC_TRUE;                                                                \
    if ((m) > 0) PetscCall(PetscArraycmp((a), (b), (m), &eq_));                                \
    PetscCheck(eq_, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s differs between the %s", what, pair); \
  } while (0)

/* the hierarchy of A built with option opt = val equals H bit for bit: one setup thread against the threads (the threaded
   loops compute each row as one thread does), or the other -pc_cmg_setup (the device kernels add in the host's order);
   pair names the two setups in messages */
static PetscErrorCode CompareSetups(Mat A, const GPUPCCMGHierarchy *H, const char *opt, const char *val, const char *pair)
{
  PC                       pc;
  const GPUPCCMGHierarchy *S;
  const GPUPCCMGReduction *r, *s;

  PetscFunctionBegin;
  PetscCall(PetscOptionsSetValue(NULL, opt, val));
  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetType(pc, PCCMG));
  PetscCall(PCSetFromOptions(pc));
  PetscCall(PCSetUp(pc));
  PetscCall(PCCMGGetHierarchy_Private(pc, &S));
  r = &H->red;
  s = &S->red;
  PetscCheck(r->n == s->n && r->copies == s->copies && r->ground == s->ground && r->n0 == s->n0 && r->nkept == s->nkept && r->npositive == s->npositive && r->nstrict == s->nstrict && r->ndirichlet == s->ndirichlet && r->ncoupling == s->ncoupling, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the reduction's counts differ between the %s", pair);
  PetscCheck(!r->map == !s->map && !r->erow == !s->erow, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the reduction's Dirichlet arrays differ between the %s", pair);
  if (r->map) {
    SAME("the Dirichlet row map", r->map, s->map, r->n);
    SAME("the Dirichlet inverse diagonal", r->dinv, s->dinv, r->n);
  }
  if (r->erow) {
    SAME("E's rows", r->erow, s->erow, r->n + 1);
    SAME("E's columns", r->ecol, s->ecol, r->ncoupling);
    SAME("E's values", r->eval, s->eval, r->ncoupling);
    SAME("E^T's rows", r->trow, s->trow, r->n + 1);
    SAME("E^T's columns", r->tcol, s->tcol, r->ncoupling);
    SAME("E^T's values", r->tval, s->tval, r->ncoupling);
  }
  PetscCheck(H->nlevels == S->nlevels && H->stop == S->stop && H->coarse_direct == S->coarse_direct && H->coarse_ncomp == S->coarse_ncomp, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the hierarchies of the %s differ in depth or last level: %" PetscInt_FMT " and %" PetscInt_FMT " levels", pair, H->nlevels, S->nlevels);
  for (PetscInt k = 0; k < H->nlevels; k++) {
    const GPUPCCMGLevel *L = &H->levels[k], *M = &S->levels[k];
    PetscCheck(L->n == M->n && L->nnz == M->nnz && L->nc == M->nc && L->t == M->t && L->nweak == M->nweak && L->nsingletons == M->nsingletons && L->maxsize == M->maxsize, PETSC_COMM_SELF, PETSC_ERR_PLIB, "level %" PetscInt_FMT ": sizes or statistics differ between the %s", k, pair);
    SAME("a level's row pointers", L->rowptr, M->rowptr, L->n + 1);
    SAME("a level's columns", L->col, M->col, L->nnz);
    SAME("a level's values", L->val, M->val, L->nnz);
    if (L->nc > 0) SAME("a level's clusters", L->cluster, M->cluster, L->n);
  }
  if (H->coarse_direct) { /* the host inverse (on the cuda backend the setup factors on the device: computed here) */
    const PetscReal *hinv, *sinv;
    PetscCall(GPUPCCMGHierarchyGetCoarseInverse(H, &hinv));
    PetscCall(GPUPCCMGHierarchyGetCoarseInverse(S, &sinv));
    SAME("the last level's inverse", hinv, sinv, H->levels[H->nlevels - 1].n * H->levels[H->nlevels - 1].n);
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "the hierarchies of the %s are equal bit for bit (%" PetscInt_FMT " levels)\n", pair, H->nlevels));
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(0);
}

/* one test case on the options of the current database (tests/testcases.h) */
static PetscErrorCode RunCase(void)
{
  CMGTestProblem           p;
  Mat                      A;
  PC                       pc;
  const GPUPCCMGHierarchy *H;
  PetscReal                min_ratio = 2.0;
  PetscInt                 repeat = 0, repeat_max = 2, capped = 0;
  PetscBool                expect_capped = PETSC_FALSE, compare_threads = PETSC_FALSE, compare_setup = PETSC_FALSE, ordered = PETSC_FALSE;
  PCCMGSetupLocation       where;
  PetscInt                 threads = 1;

  PetscFunctionBegin;
  PetscCall(CMGTestGetProblem(&p));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-min_ratio", &min_ratio, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-pc_cmg_repeat", &repeat, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-pc_cmg_repeat_max", &repeat_max, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-expect_capped", &expect_capped, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-compare_threads", &compare_threads, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-compare_setup", &compare_setup, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-pc_cmg_cluster_order", &ordered, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-pc_cmg_setup_threads", &threads, NULL));
  PetscCheck(!compare_threads || threads >= 2, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-compare_threads needs -pc_cmg_setup_threads 2 or more, got %" PetscInt_FMT, threads);
  PetscCall(CMGTestMatrix(&p, &A));
  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetType(pc, PCCMG));
  PetscCall(PCSetFromOptions(pc));
  PetscCall(PCSetUp(pc));
  PetscCall(PCCMGGetHierarchy_Private(pc, &H));
  PetscCheck(H->nlevels >= 2, PETSC_COMM_SELF, PETSC_ERR_PLIB, "expected a hierarchy of at least 2 levels, got %" PetscInt_FMT " (use a larger -n)", H->nlevels);
  PetscCall(CheckReduction(A, H));
  for (PetscInt k = 0; k < H->nlevels; k++) {
    const GPUPCCMGLevel *L = &H->levels[k];
    PetscCall(CheckLaplacian(L, k));
    if (k + 1 == H->nlevels) break;
    PetscCall(CheckClusters(L, k));
    if (!ordered || k == 0) PetscCall(CheckWeak(L, k)); /* (the cluster order renumbers a level after its clustering, and the ties with it) */
    if (ordered && k > 0)                               /* -pc_cmg_cluster_order: each cluster's vertices consecutive, clusters in the next level's order */
      for (PetscInt v = 1; v < L->n; v++) PetscCheck(L->cluster[v] >= L->cluster[v - 1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "level %" PetscInt_FMT " is not in cluster order: vertex %" PetscInt_FMT " is in cluster %" PetscInt_FMT ", vertex %" PetscInt_FMT " in %" PetscInt_FMT, k, v - 1, L->cluster[v - 1], v, L->cluster[v]);
    PetscCheck((PetscReal)L->n >= min_ratio * L->nc, PETSC_COMM_SELF, PETSC_ERR_PLIB, "level %" PetscInt_FMT ": coarsening ratio %g below %g", k, (double)L->n / L->nc, (double)min_ratio);
    PetscCall(CheckGalerkin(L, &H->levels[k + 1], k));
    {
      PetscReal nnz_next = (k + 2 == H->nlevels && H->coarse_direct) ? 0.5 * (H->levels[k + 1].n - H->coarse_ncomp) * (H->levels[k + 1].n - H->coarse_ncomp + 1.0) : (PetscReal)H->levels[k + 1].nnz;
      PetscInt  t        = repeat > 0 ? repeat : PetscMax((PetscInt)PetscFloorReal(L->nnz / PetscMax(nnz_next, 1.0) - 0.5), 1);
      if (repeat == 0 && repeat_max > 0 && t > repeat_max) {
        t = repeat_max; /* -pc_cmg_repeat_max caps the ratio rule */
        capped++;
      }
      PetscCheck(L->t == t, PETSC_COMM_SELF, PETSC_ERR_PLIB, "level %" PetscInt_FMT ": recursion count %" PetscInt_FMT ", expected %" PetscInt_FMT, k, L->t, t);
    }
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%" PetscInt_FMT " levels checked, %" PetscInt_FMT " recursion counts capped by -pc_cmg_repeat_max\n", H->nlevels, capped));
  PetscCheck(!expect_capped || capped > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-expect_capped: no recursion count reached -pc_cmg_repeat_max %" PetscInt_FMT, repeat_max);
  if (compare_threads) PetscCall(CompareSetups(A, H, "-pc_cmg_setup_threads", "1", "threaded and the one-thread setup"));
  PetscCall(PCCMGGetSetupLocation(pc, &where));
  if (compare_setup) PetscCall(CompareSetups(A, H, "-pc_cmg_setup", where == PC_CMG_SETUP_DEVICE ? "host" : "device", "device and the host setup"));
  PetscCall(PCDestroy(&pc));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  return TestCasesMain(argc, argv, help, RunCase);
}

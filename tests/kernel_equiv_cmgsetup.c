static const char help[] = "Every member of PC cmg's setup kernel table (gpupc/cmgsetupkernels.h): the active backend's table on device\n"
                           "buffers against the host table on host buffers, member by member on the chain of the device setup (reduction,\n"
                           "level 0, clustering, Galerkin triples), exactly; then the host table's results against the host setup\n"
                           "(GPUPCCMGReduce, GPUPCCMGCluster, GPUPCCMGGalerkin through the shared COO sort-and-reduce), bit for bit; and\n"
                           "a row that is not dominant found by check_rows on both. Cases: cmgtest.h problems (grids with pads, the\n"
                           "double cover with Dirichlet rows, weak vertices, longer heaviest-neighbour cycles, a power grid). A member\n"
                           "without a run fails the test.\n";

#include <gpupc/cmg.h>
#include <gpupc/cmgsetupkernels.h>
#include "kerneltest.h"
#include "cmgtest.h"
#include "testcases.h"

typedef struct {
  PetscBool                   device;
  const GPUPCCMGSetupKernels *k;
  const GPUPCSparseKernels   *sk;
} Side;

/* what one side's chain computed, copied to the host */
typedef struct {
  PetscInt   n, ndir, nbad, npos, nstrict, nk, n0, nnz0, nlight, nweak, done, nc, nsingle, maxsize, ndiffer, ne;
  PetscInt   rbad, rpos, rstrict, rchanged, zchanged; /* level0_refill on the new values, and on them with one pair zeroed */
  PetscReal *rval, *rexcess, *rdinv;
  PetscReal *dense; /* coarse_dense of level 0 with every fifth vertex grounded (levels of at most 2500 vertices) */
  PetscInt  *isdir, *erow, *ecol, *bad, *strict, *len, *map, *rp, *col, *pheavy, *pcut, *h, *rep, *mark, *cluster, *ci, *cj;
  PetscReal *excess, *dinv, *val, *wmax, *vol, *v, *v2, *eval, *invd;
} Result;

static PetscInt runs[GPUPC_CMG_SETUP_NKERNELS];

/* a side array of n elements of size es, zeroed through a host copy */
static PetscErrorCode Alloc(const Side *s, size_t n, size_t es, void **p)
{
  void *z;

  PetscFunctionBegin;
  PetscCall(TestMalloc(s->device, PetscMax(n, 1) * es, p));
  PetscCall(PetscCalloc(PetscMax(n, 1) * es, &z));
  PetscCall(TestPut(s->device, *p, z, PetscMax(n, 1) * es));
  PetscCall(PetscFree(z));
  PetscFunctionReturn(0);
}

/* a host copy of a side array */
static PetscErrorCode Down(const Side *s, const void *d, size_t n, size_t es, void **h)
{
  PetscFunctionBegin;
  PetscCall(PetscMalloc(PetscMax(n, 1) * es, h));
  if (n) PetscCall(TestGet(s->device, *h, d, n * es));
  PetscFunctionReturn(0);
}
#define DOWN(s, d, n, h) Down((s), (d), (size_t)(n), sizeof(**(h)), (void **)(h))

static PetscErrorCode ResultFree(Result *r)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(r->isdir));
  PetscCall(PetscFree(r->bad));
  PetscCall(PetscFree(r->strict));
  PetscCall(PetscFree(r->len));
  PetscCall(PetscFree(r->map));
  PetscCall(PetscFree(r->rp));
  PetscCall(PetscFree(r->col));
  PetscCall(PetscFree(r->pheavy));
  PetscCall(PetscFree(r->pcut));
  PetscCall(PetscFree(r->h));
  PetscCall(PetscFree(r->rep));
  PetscCall(PetscFree(r->mark));
  PetscCall(PetscFree(r->cluster));
  PetscCall(PetscFree(r->ci));
  PetscCall(PetscFree(r->cj));
  PetscCall(PetscFree(r->excess));
  PetscCall(PetscFree(r->dinv));
  PetscCall(PetscFree(r->val));
  PetscCall(PetscFree(r->wmax));
  PetscCall(PetscFree(r->vol));
  PetscCall(PetscFree(r->v));
  PetscCall(PetscFree(r->v2));
  PetscCall(PetscFree(r->erow));
  PetscCall(PetscFree(r->ecol));
  PetscCall(PetscFree(r->eval));
  PetscCall(PetscFree(r->invd));
  PetscCall(PetscFree(r->rval));
  PetscCall(PetscFree(r->rexcess));
  PetscCall(PetscFree(r->rdinv));
  PetscCall(PetscFree(r->dense));
  PetscCall(PetscMemzero(r, sizeof(*r)));
  PetscFunctionReturn(0);
}

static void Ran(GPUPCCMGSetupKernelIndex m)
{
  runs[m]++;
}

/* the value-only reuse of level 0 on one side: the values of An (A's pattern) through level0_refill and ground_fill
   on the structure that the chain built (dA, map, L, list); then An's values with the pair a_ij, a_ji of one kept row
   zeroed, which changes the level-0 rows of i and j and nothing else (r->zchanged) */
static PetscErrorCode Refill(const Side *s, Mat An, const GPUPCDevCSR *dA, const GPUPCCMGReduceRule *rule, const PetscInt *map, PetscInt copies, PetscBool ground, const PetscInt *list, GPUPCDevCSR *L, Result *r)
{
  const PetscInt    *ia, *ja;
  const PetscScalar *aa;
  PetscScalar       *z;
  PetscInt           m, b, pos, st, i = -1, ij = -1, ji = -1;
  PetscBool          done;
  GPUPCDevCSR        dN = *dA;
  PetscReal         *val, *excess, *dinv;

  PetscFunctionBegin;
  PetscCall(MatGetRowIJ(An, 0, PETSC_FALSE, PETSC_FALSE, &m, &ia, &ja, &done));
  PetscCheck(done && m == dA->m && ia[m] == dA->nnz, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "the new values' matrix has another pattern");
  PetscCall(MatSeqAIJGetArrayRead(An, &aa));
  PetscCall(TestDup(s->device, aa, dA->nnz * sizeof(PetscScalar), (void **)&dN.a));
  PetscCall(Alloc(s, L->nnz, sizeof(PetscReal), (void **)&val));
  PetscCall(Alloc(s, r->n, sizeof(PetscReal), (void **)&excess));
  PetscCall(Alloc(s, r->n, sizeof(PetscReal), (void **)&dinv));
  PetscCall(s->k->level0_refill(&dN, rule, map, r->nk, copies, L->i, L->j, excess, dinv, val, &r->rbad, &r->rpos, &r->rstrict, &r->rchanged));
  Ran(GPUPC_CMG_SETUP_KERNEL_level0_refill);
  if (ground && r->rchanged == 0 && r->rstrict == r->nstrict) PetscCall(s->k->ground_fill(r->nstrict, list, excess, map, r->nk, copies, L->i, L->j, val, NULL));
  PetscCall(DOWN(s, val, L->nnz, &r->rval));
  PetscCall(DOWN(s, excess, r->n, &r->rexcess));
  PetscCall(DOWN(s, dinv, r->n, &r->rdinv));
  /* a kept row i from the middle with an off-diagonal a_ij != 0 (so j is kept too), and a_ji */
  for (PetscInt t = 0; t < m && ij < 0; t++) {
    const PetscInt row = (m / 2 + t) % m;
    for (PetscInt k = ia[row]; k < ia[row + 1] && ij < 0; k++)
      if (ja[k] != row && aa[k] != 0.0) {
        i  = row;
        ij = k;
      }
  }
  PetscCheck(ij >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "the test matrix has no off-diagonal entry");
  for (PetscInt k = ia[ja[ij]]; k < ia[ja[ij] + 1]; k++)
    if (ja[k] == i) ji = k;
  PetscCheck(ji >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "the test matrix's pattern is not symmetric at (%" PetscInt_FMT ", %" PetscInt_FMT ")", i, ja[ij]);
  PetscCall(PetscMalloc1(dA->nnz, &z));
  PetscCall(PetscArraycpy(z, aa, dA->nnz));
  z[ij] = z[ji] = 0.0;
  PetscCall(TestPut(s->device, dN.a, z, dA->nnz * sizeof(PetscScalar)));
  PetscCall(PetscFree(z));
  PetscCall(s->k->level0_refill(&dN, rule, map, r->nk, copies, L->i, L->j, excess, dinv, val, &b, &pos, &st, &r->zchanged));
  PetscCall(MatSeqAIJRestoreArrayRead(An, &aa));
  PetscCall(MatRestoreRowIJ(An, 0, PETSC_FALSE, PETSC_FALSE, &m, &ia, &ja, &done));
  PetscCall(TestFree(s->device, val));
  PetscCall(TestFree(s->device, excess));
  PetscCall(TestFree(s->device, dinv));
  PetscCall(TestFree(s->device, dN.a));
  PetscFunctionReturn(0);
}

/* the chain of the device setup on one side: the reduction (stops after check_rows when a row is bad), level 0, the
   value-only reuse of level 0 with An's values (Refill), the clustering of level 0, the Galerkin triples; every output
   copied into r */
static PetscErrorCode Chain(const Side *s, Mat A, Mat An, const GPUPCCMGOptions *opts, Result *r)
{
  const PetscInt    *ia, *ja;
  const PetscScalar *aa;
  PetscInt           m;
  PetscBool          done;
  GPUPCDevCSR        dA, L;
  GPUPCCMGReduceRule rule;
  PetscInt          *isdir, *bad, *strict, *len, *map, *list = NULL, *p, *h, *rep, *mark, *id, *cluster, *ci, *cj, *erow, *ecol, copies, cnt;
  PetscReal         *excess, *dinv, *wmax, *vol, *v, *eval, *invd;
  PetscBool          ground;
  size_t             nent;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(r, sizeof(*r)));
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ia, &ja, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "the test matrix gives no CSR");
  PetscCall(MatSeqAIJGetArrayRead(A, &aa));
  dA.m = dA.n = m;
  dA.nnz      = ia[m];
  r->n        = m;
  PetscCall(TestDup(s->device, ia, (m + 1) * sizeof(PetscInt), (void **)&dA.i));
  PetscCall(TestDup(s->device, ja, dA.nnz * sizeof(PetscInt), (void **)&dA.j));
  PetscCall(TestDup(s->device, aa, dA.nnz * sizeof(PetscScalar), (void **)&dA.a));
  PetscCall(MatSeqAIJRestoreArrayRead(A, &aa));
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ia, &ja, &done));
  rule.check_symmetry = opts->check_symmetry;
  rule.doublecover    = (PetscBool)(opts->positive == GPUPC_CMG_POSITIVE_DOUBLE_COVER);
  rule.dirichlet_rows = opts->dirichlet_rows;
  rule.symmetry_tol   = opts->symmetry_tol;
  rule.dominance_tol  = opts->dominance_tol;
  PetscCall(Alloc(s, r->n, sizeof(PetscInt), (void **)&isdir));
  PetscCall(Alloc(s, r->n, sizeof(PetscInt), (void **)&bad));
  PetscCall(Alloc(s, r->n, sizeof(PetscInt), (void **)&strict));
  PetscCall(Alloc(s, r->n, sizeof(PetscInt), (void **)&len));
  PetscCall(Alloc(s, r->n, sizeof(PetscInt), (void **)&map));
  PetscCall(Alloc(s, r->n, sizeof(PetscReal), (void **)&excess));
  PetscCall(Alloc(s, r->n, sizeof(PetscReal), (void **)&dinv));
  PetscCall(s->k->dirichlet_rows(&dA, &rule, isdir, &r->ndir));
  Ran(GPUPC_CMG_SETUP_KERNEL_dirichlet_rows);
  PetscCall(s->k->check_rows(&dA, &rule, isdir, excess, dinv, bad, strict, len, &r->nbad, &r->npos, &r->nstrict));
  Ran(GPUPC_CMG_SETUP_KERNEL_check_rows);
  PetscCall(DOWN(s, isdir, r->n, &r->isdir));
  PetscCall(DOWN(s, bad, r->n, &r->bad));
  PetscCall(DOWN(s, strict, r->n, &r->strict));
  PetscCall(DOWN(s, len, r->n, &r->len));
  PetscCall(DOWN(s, excess, r->n, &r->excess));
  PetscCall(DOWN(s, dinv, r->n, &r->dinv));
  if (r->nbad == 0) {
    PetscCall(s->sk->compact(r->n, isdir, 0, NULL, map, &r->nk, NULL));
    PetscCall(DOWN(s, map, r->n, &r->map));
    /* the Dirichlet couplings E */
    PetscCall(Alloc(s, r->n + 1, sizeof(PetscInt), (void **)&erow));
    PetscCall(s->k->coupling_count(&dA, isdir, erow));
    Ran(GPUPC_CMG_SETUP_KERNEL_coupling_count);
    PetscCall(s->sk->rowptr(r->n, erow, &r->ne, NULL));
    PetscCall(Alloc(s, r->ne, sizeof(PetscInt), (void **)&ecol));
    PetscCall(Alloc(s, r->ne, sizeof(PetscReal), (void **)&eval));
    PetscCall(s->k->coupling_fill(&dA, isdir, erow, ecol, eval));
    Ran(GPUPC_CMG_SETUP_KERNEL_coupling_fill);
    PetscCall(DOWN(s, erow, r->n + 1, &r->erow));
    PetscCall(DOWN(s, ecol, r->ne, &r->ecol));
    PetscCall(DOWN(s, eval, r->ne, &r->eval));
    PetscCall(TestFree(s->device, erow));
    PetscCall(TestFree(s->device, ecol));
    PetscCall(TestFree(s->device, eval));
    copies = r->npos > 0 ? 2 : 1;
    ground = (PetscBool)(r->nstrict > 0);
    r->n0  = copies * r->nk + (ground ? 1 : 0);
    L.m = L.n = r->n0;
    PetscCall(Alloc(s, r->n0 + 1, sizeof(PetscInt), (void **)&L.i));
    PetscCall(s->k->level0_count(r->n, map, len, r->nk, copies, r->nstrict, ground, L.i));
    Ran(GPUPC_CMG_SETUP_KERNEL_level0_count);
    PetscCall(s->sk->rowptr(r->n0, L.i, &r->nnz0, NULL));
    L.nnz = r->nnz0;
    PetscCall(Alloc(s, L.nnz, sizeof(PetscInt), (void **)&L.j));
    PetscCall(Alloc(s, L.nnz, sizeof(PetscReal), (void **)&L.a));
    PetscCall(s->k->level0_fill(&dA, isdir, excess, map, r->nk, copies, L.i, L.j, L.a));
    Ran(GPUPC_CMG_SETUP_KERNEL_level0_fill);
    if (ground) {
      PetscCall(Alloc(s, r->nstrict, sizeof(PetscInt), (void **)&list));
      PetscCall(s->sk->compact(r->n, strict, 1, list, NULL, &cnt, NULL));
      PetscCall(s->k->ground_fill(r->nstrict, list, excess, map, r->nk, copies, L.i, L.j, L.a, NULL));
      Ran(GPUPC_CMG_SETUP_KERNEL_ground_fill);
    }
    PetscCall(DOWN(s, L.i, L.m + 1, &r->rp));
    PetscCall(DOWN(s, L.j, L.nnz, &r->col));
    PetscCall(DOWN(s, L.a, L.nnz, &r->val));
    PetscCall(Refill(s, An, &dA, &rule, map, copies, ground, list, &L, r));
    if (L.m <= 2500) { /* the last level's dense grounded matrix, here of level 0 */
      PetscReal *mask, *hmask, *M;
      PetscCall(PetscMalloc1(L.m, &hmask));
      for (PetscInt v = 0; v < L.m; v++) hmask[v] = v % 5 ? 1.0 : 0.0;
      PetscCall(TestDup(s->device, hmask, L.m * sizeof(PetscReal), (void **)&mask));
      PetscCall(PetscFree(hmask));
      PetscCall(Alloc(s, (size_t)L.m * L.m, sizeof(PetscReal), (void **)&M));
      PetscCall(s->k->coarse_dense(&L, mask, M));
      Ran(GPUPC_CMG_SETUP_KERNEL_coarse_dense);
      PetscCall(DOWN(s, M, (size_t)L.m * L.m, &r->dense));
      PetscCall(TestFree(s->device, M));
      PetscCall(TestFree(s->device, mask));
    }
    /* the cycle's Jacobi weights of level 0 */
    PetscCall(Alloc(s, L.m, sizeof(PetscReal), (void **)&invd));
    PetscCall(s->k->smoother_weights(&L, invd));
    Ran(GPUPC_CMG_SETUP_KERNEL_smoother_weights);
    PetscCall(DOWN(s, invd, L.m, &r->invd));
    PetscCall(TestFree(s->device, invd));
    /* clustering of level 0 */
    PetscCall(Alloc(s, L.m, sizeof(PetscInt), (void **)&p));
    PetscCall(Alloc(s, L.m, sizeof(PetscInt), (void **)&h));
    PetscCall(Alloc(s, L.m, sizeof(PetscInt), (void **)&rep));
    PetscCall(Alloc(s, L.m, sizeof(PetscInt), (void **)&mark));
    PetscCall(Alloc(s, L.m, sizeof(PetscInt), (void **)&id));
    PetscCall(Alloc(s, L.m, sizeof(PetscInt), (void **)&cluster));
    PetscCall(Alloc(s, L.m, sizeof(PetscReal), (void **)&wmax));
    PetscCall(Alloc(s, L.m, sizeof(PetscReal), (void **)&vol));
    PetscCall(s->k->heaviest(&L, p, wmax, vol, &r->nlight));
    Ran(GPUPC_CMG_SETUP_KERNEL_heaviest);
    PetscCall(DOWN(s, p, L.m, &r->pheavy));
    PetscCall(DOWN(s, wmax, L.m, &r->wmax));
    PetscCall(DOWN(s, vol, L.m, &r->vol));
    PetscCall(s->k->weak(&L, wmax, vol, p, &r->nweak, NULL)); /* (the driver calls it only when nlight > 0; it is exact either way) */
    Ran(GPUPC_CMG_SETUP_KERNEL_weak);
    PetscCall(s->k->cut_two_cycles(L.m, p, NULL));
    Ran(GPUPC_CMG_SETUP_KERNEL_cut_two_cycles);
    PetscCall(DOWN(s, p, L.m, &r->pcut));
    PetscCall(s->k->differ(L.m, p, p, &cnt));
    PetscCheck(cnt == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "differ: an array differs from itself in %" PetscInt_FMT " places", cnt);
    PetscCall(TestPut(s->device, rep, r->pheavy, L.m * sizeof(PetscInt)));
    PetscCall(s->k->differ(L.m, p, rep, &r->ndiffer)); /* the roots the weak rule and the 2-cycle cut made */
    Ran(GPUPC_CMG_SETUP_KERNEL_differ);
    PetscCall(s->k->heights(L.m, p, h, &r->done, NULL));
    Ran(GPUPC_CMG_SETUP_KERNEL_heights);
    if (r->done < L.m) { /* a longer cycle: the host cuts it, as the driver does */
      PetscInt *hp;
      PetscCall(DOWN(s, p, L.m, &hp));
      PetscCall(GPUPCCMGMakeForest(L.m, hp));
      PetscCall(TestPut(s->device, p, hp, L.m * sizeof(PetscInt)));
      PetscCall(PetscFree(hp));
      PetscCall(s->k->heights(L.m, p, h, &cnt, NULL));
      PetscCheck(cnt == L.m, PETSC_COMM_SELF, PETSC_ERR_PLIB, "heights: %" PetscInt_FMT " of %" PetscInt_FMT " vertices finished on a forest", cnt, L.m);
    }
    PetscCall(DOWN(s, h, L.m, &r->h));
    PetscCall(s->k->cluster_tops(&L, p, h, wmax, rep, mark, NULL));
    Ran(GPUPC_CMG_SETUP_KERNEL_cluster_tops);
    PetscCall(DOWN(s, rep, L.m, &r->rep));
    PetscCall(DOWN(s, mark, L.m, &r->mark));
    PetscCall(s->sk->compact(L.m, mark, 1, NULL, id, &r->nc, NULL));
    PetscCall(s->k->cluster_number(L.m, r->nc, rep, id, cluster, &r->nsingle, &r->maxsize, NULL));
    Ran(GPUPC_CMG_SETUP_KERNEL_cluster_number);
    PetscCall(DOWN(s, cluster, L.m, &r->cluster));
    /* the Galerkin triples, then their values alone */
    nent = (size_t)r->nc + (size_t)L.nnz;
    PetscCall(Alloc(s, nent, sizeof(PetscInt), (void **)&ci));
    PetscCall(Alloc(s, nent, sizeof(PetscInt), (void **)&cj));
    PetscCall(Alloc(s, nent, sizeof(PetscReal), (void **)&v));
    PetscCall(s->k->galerkin_triples(&L, cluster, r->nc, ci, cj, v));
    PetscCall(DOWN(s, ci, nent, &r->ci));
    PetscCall(DOWN(s, cj, nent, &r->cj));
    PetscCall(DOWN(s, v, nent, &r->v));
    PetscCall(TestFree(s->device, v));
    PetscCall(Alloc(s, nent, sizeof(PetscReal), (void **)&v));
    PetscCall(s->k->galerkin_triples(&L, cluster, r->nc, NULL, NULL, v));
    Ran(GPUPC_CMG_SETUP_KERNEL_galerkin_triples);
    PetscCall(DOWN(s, v, nent, &r->v2));
    PetscCall(TestFree(s->device, v));
    PetscCall(TestFree(s->device, ci));
    PetscCall(TestFree(s->device, cj));
    PetscCall(TestFree(s->device, p));
    PetscCall(TestFree(s->device, h));
    PetscCall(TestFree(s->device, rep));
    PetscCall(TestFree(s->device, mark));
    PetscCall(TestFree(s->device, id));
    PetscCall(TestFree(s->device, cluster));
    PetscCall(TestFree(s->device, wmax));
    PetscCall(TestFree(s->device, vol));
    PetscCall(TestFree(s->device, L.i));
    PetscCall(TestFree(s->device, L.j));
    PetscCall(TestFree(s->device, L.a));
    PetscCall(TestFree(s->device, list));
  }
  PetscCall(TestFree(s->device, isdir));
  PetscCall(TestFree(s->device, bad));
  PetscCall(TestFree(s->device, strict));
  PetscCall(TestFree(s->device, len));
  PetscCall(TestFree(s->device, map));
  PetscCall(TestFree(s->device, excess));
  PetscCall(TestFree(s->device, dinv));
  PetscCall(TestFree(s->device, dA.i));
  PetscCall(TestFree(s->device, dA.j));
  PetscCall(TestFree(s->device, dA.a));
  PetscFunctionReturn(0);
}

#define EQ(what, a, b, m)                                                                             \
  do {                                                                                                \
    PetscBool eq_ = PETSC_TRUE;                                                                       \
    if ((m) > 0) PetscCall(PetscArraycmp((a), (b), (m), &eq_));                                       \
    PetscCheck(eq_, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %s differs between %s", label, what, pair); \
  } while (0)
#define EQN(what, a, b) PetscCheck((a) == (b), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %s is %" PetscInt_FMT " and %" PetscInt_FMT " on %s", label, what, (PetscInt)(a), (PetscInt)(b), pair)

/* the two sides' chains agree exactly */
static PetscErrorCode Compare(const char *label, const char *pair, const Result *a, const Result *b)
{
  const size_t nent = (size_t)a->nc + (size_t)a->nnz0;

  PetscFunctionBegin;
  EQN("ndir", a->ndir, b->ndir);
  EQN("nbad", a->nbad, b->nbad);
  EQN("npos", a->npos, b->npos);
  EQN("nstrict", a->nstrict, b->nstrict);
  EQ("isdir", a->isdir, b->isdir, a->n);
  EQ("bad", a->bad, b->bad, a->n);
  EQ("strict", a->strict, b->strict, a->n);
  EQ("len", a->len, b->len, a->n);
  EQ("excess", a->excess, b->excess, a->n);
  EQ("dinv", a->dinv, b->dinv, a->n);
  if (a->nbad) PetscFunctionReturn(0);
  EQN("refill: bad rows", a->rbad, b->rbad);
  EQN("refill: positive off-diagonals", a->rpos, b->rpos);
  EQN("refill: strictly dominant rows", a->rstrict, b->rstrict);
  EQN("refill: changed rows", a->rchanged, b->rchanged);
  EQN("refill with a zeroed pair: changed rows", a->zchanged, b->zchanged);
  EQ("refill: level 0 values", a->rval, b->rval, a->nnz0);
  EQ("refill: excess", a->rexcess, b->rexcess, a->n);
  EQ("refill: dinv", a->rdinv, b->rdinv, a->n);
  if (a->dense || b->dense) EQ("the dense grounded matrix", a->dense, b->dense, (size_t)a->n0 * a->n0);
  EQN("nnz0", a->nnz0, b->nnz0);
  EQN("nlight", a->nlight, b->nlight);
  EQN("nweak", a->nweak, b->nweak);
  EQN("done", a->done, b->done);
  EQN("nc", a->nc, b->nc);
  EQN("nsingle", a->nsingle, b->nsingle);
  EQN("maxsize", a->maxsize, b->maxsize);
  EQN("ndiffer", a->ndiffer, b->ndiffer);
  EQ("map", a->map, b->map, a->n);
  EQN("Dirichlet couplings", a->ne, b->ne);
  EQ("coupling row pointers", a->erow, b->erow, a->n + 1);
  EQ("coupling columns", a->ecol, b->ecol, a->ne);
  EQ("coupling values", a->eval, b->eval, a->ne);
  EQ("level 0 row pointers", a->rp, b->rp, a->n0 + 1);
  EQ("level 0 columns", a->col, b->col, a->nnz0);
  EQ("level 0 values", a->val, b->val, a->nnz0);
  EQ("level 0 Jacobi weights", a->invd, b->invd, a->n0);
  EQ("heaviest neighbours", a->pheavy, b->pheavy, a->n0);
  EQ("heaviest weights", a->wmax, b->wmax, a->n0);
  EQ("volumes", a->vol, b->vol, a->n0);
  EQ("the forest after the weak rule and the 2-cycle cut", a->pcut, b->pcut, a->n0);
  EQ("heights", a->h, b->h, a->n0);
  EQ("cluster representatives", a->rep, b->rep, a->n0);
  EQ("representative marks", a->mark, b->mark, a->n0);
  EQ("clusters", a->cluster, b->cluster, a->n0);
  EQ("triple rows", a->ci, b->ci, nent);
  EQ("triple columns", a->cj, b->cj, nent);
  EQ("triple values", a->v, b->v, nent);
  EQ("values-only triple values", a->v, a->v2, nent);
  PetscFunctionReturn(0);
}

/* the host table's chain against the host setup, bit for bit */
static PetscErrorCode Reference(const char *label, Mat A, const GPUPCCMGOptions *opts, const Result *r)
{
  const GPUPCCMGSetupKernels *k;
  const char                 *pair = "the setup kernels and the host setup";
  GPUPCCMGReduction           red;
  GPUPCCMGLevel               L0, C;
  GPUPCDevCOO                 coo;
  GPUPCDevCSR                 dC;
  PetscInt                   *ci, *cj, *Ci, *Cj;
  PetscReal                  *v, *Ca;
  const PetscInt              nent = r->nc + r->nnz0;

  PetscFunctionBegin;
  PetscCall(GPUPCGetCMGSetupKernels(&k));
  PetscCall(GPUPCCMGReduce(A, opts, &red, &L0));
  EQN("level 0 vertices", r->n0, L0.n);
  EQN("level 0 entries", r->nnz0, L0.nnz);
  EQN("positive off-diagonals", r->npos, red.npositive);
  EQN("strictly dominant rows", r->nstrict, red.nstrict);
  EQN("Dirichlet rows", r->ndir, red.ndirichlet);
  EQ("level 0 row pointers", r->rp, L0.rowptr, L0.n + 1);
  EQ("level 0 columns", r->col, L0.col, L0.nnz);
  EQ("level 0 values", r->val, L0.val, L0.nnz);
  if (red.map) EQ("the kept-row map", r->map, red.map, red.n);
  if (red.dinv) EQ("the Dirichlet inverse diagonal", r->dinv, red.dinv, red.n);
  EQN("Dirichlet couplings", r->ne, red.ncoupling);
  if (red.erow) {
    EQ("coupling row pointers", r->erow, red.erow, red.n + 1);
    EQ("coupling columns", r->ecol, red.ecol, red.ncoupling);
    EQ("coupling values", r->eval, red.eval, red.ncoupling);
  }
  PetscCall(GPUPCCMGCluster(&L0, 1));
  EQN("clusters", r->nc, L0.nc);
  EQN("weak vertices", r->nlight ? r->nweak : 0, L0.nweak);
  EQN("singletons", r->nsingle, L0.nsingletons);
  EQN("largest cluster", r->maxsize, L0.maxsize);
  EQ("cluster numbers", r->cluster, L0.cluster, L0.n);
  PetscCall(GPUPCCMGGalerkin(&L0, L0.nc, L0.cluster, 1, &C));
  /* the triples through the shared sort-and-reduce of the active backend */
  PetscCall(TestDup(PETSC_TRUE, r->ci, nent * sizeof(PetscInt), (void **)&ci));
  PetscCall(TestDup(PETSC_TRUE, r->cj, nent * sizeof(PetscInt), (void **)&cj));
  PetscCall(TestDup(PETSC_TRUE, r->v, nent * sizeof(PetscReal), (void **)&v));
  PetscCall(GPUPCDevCOOAssemble(r->nc, r->nc, nent, ci, cj, v, MAT_INITIAL_MATRIX, &coo, &dC));
  PetscCall(k->galerkin_diagonal(&dC));
  runs[GPUPC_CMG_SETUP_KERNEL_galerkin_diagonal]++;
  EQN("coarse entries", dC.nnz, C.nnz);
  PetscCall(PetscMalloc3(dC.m + 1, &Ci, dC.nnz, &Cj, dC.nnz, &Ca));
  PetscCall(GPUPCCopyToHost(Ci, dC.i, dC.m + 1));
  PetscCall(GPUPCCopyToHost(Cj, dC.j, dC.nnz));
  PetscCall(GPUPCCopyToHost(Ca, dC.a, dC.nnz));
  EQ("coarse row pointers", Ci, C.rowptr, C.n + 1);
  EQ("coarse columns", Cj, C.col, C.nnz);
  EQ("coarse values", Ca, C.val, C.nnz);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: %" PetscInt_FMT " Dirichlet couplings, level 0 (%" PetscInt_FMT " vertices, %" PetscInt_FMT " entries), %" PetscInt_FMT " clusters (%" PetscInt_FMT " weak, %" PetscInt_FMT " singletons, largest %" PetscInt_FMT ") and level 1 (%" PetscInt_FMT " entries) equal the host setup's bit for bit\n", label, r->ne, L0.n, L0.nnz, L0.nc, L0.nweak, L0.nsingletons, L0.maxsize, C.nnz));
  PetscCall(PetscFree3(Ci, Cj, Ca));
  PetscCall(GPUPCDevCSRDestroy(&dC));
  PetscCall(GPUPCDevCOODestroy(&coo));
  PetscCall(TestFree(PETSC_TRUE, ci));
  PetscCall(TestFree(PETSC_TRUE, cj));
  PetscCall(TestFree(PETSC_TRUE, v));
  PetscCall(GPUPCCMGLevelFree(&C));
  PetscCall(GPUPCCMGLevelFree(&L0));
  PetscCall(GPUPCCMGReductionFree(&red));
  PetscFunctionReturn(0);
}

static PetscErrorCode RunCase(void)
{
  CMGTestProblem  p;
  GPUPCCMGOptions opts;
  Mat             A, B, An;
  Side            S[2];
  Result          R[2];
  char            label[64];
  PetscInt        row;
  const char     *pair = "the active table on device buffers and the host table";

  PetscFunctionBegin;
  PetscCall(CMGTestGetProblem(&p));
  PetscCall(PetscSNPrintf(label, sizeof(label), "%s n=%" PetscInt_FMT, p.problem, p.n));
  PetscCall(CMGTestMatrix(&p, &A));
  PetscCall(GPUPCCMGOptionsDefault(&opts));
  opts.threads = 1;
  S[0].device  = PETSC_TRUE;
  S[1].device  = PETSC_FALSE;
  PetscCall(GPUPCGetCMGSetupKernels(&S[0].k));
  PetscCall(GPUPCGetSparseKernels(&S[0].sk));
  PetscCall(GPUPCGetCMGSetupKernelsFor(PETSC_GPUPC_BACKEND_HOST, &S[1].k));
  PetscCall(GPUPCGetSparseKernelsFor(PETSC_GPUPC_BACKEND_HOST, &S[1].sk));
  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &An)); /* new values on the same pattern, for the value-only reuse */
  PetscCall(MatScale(An, 1.5));
  for (int s = 0; s < 2; s++) PetscCall(Chain(&S[s], A, An, &opts, &R[s]));
  PetscCall(Compare(label, pair, &R[0], &R[1]));
  PetscCheck(R[1].nbad == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: check_rows found %" PetscInt_FMT " bad rows in an SDD test matrix", label, R[1].nbad);
  PetscCall(Reference(label, A, &opts, &R[1]));
  { /* the reuse's level 0 is the fresh chain's of the new values, bit for bit; the zeroed pair changes rows i and j */
    Result F;
    PetscCall(Chain(&S[1], An, An, &opts, &F));
    PetscCheck(R[1].rbad == 0 && R[1].rchanged == 0 && R[1].rpos == F.npos && R[1].rstrict == F.nstrict, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: level0_refill of scaled values: %" PetscInt_FMT " bad, %" PetscInt_FMT " changed rows, %" PetscInt_FMT " positive, %" PetscInt_FMT " strict; a fresh reduction: %" PetscInt_FMT " positive, %" PetscInt_FMT " strict", label, R[1].rbad, R[1].rchanged, R[1].rpos, R[1].rstrict, F.npos, F.nstrict);
    PetscCheck(F.nnz0 == R[1].nnz0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: scaled values give %" PetscInt_FMT " level-0 entries, the values before %" PetscInt_FMT, label, F.nnz0, R[1].nnz0);
    pair = "level0_refill of the new values and a fresh reduction of them";
    EQ("level 0 values", R[1].rval, F.val, F.nnz0);
    EQ("excess", R[1].rexcess, F.excess, F.n);
    EQ("dinv", R[1].rdinv, F.dinv, F.n);
    PetscCheck(R[1].zchanged == 2, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: level0_refill with the pair a_ij, a_ji zeroed reported %" PetscInt_FMT " changed rows, expected 2", label, R[1].zchanged);
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: level0_refill of new values equals a fresh level 0 bit for bit; a zeroed pair changes %" PetscInt_FMT " rows\n", label, R[1].zchanged));
    PetscCall(ResultFree(&F));
    pair = "the active table on device buffers and the host table";
  }
  for (int s = 0; s < 2; s++) PetscCall(ResultFree(&R[s]));
  PetscCall(MatDestroy(&An));
  /* a row made not dominant: found by check_rows on both sides, and only that row */
  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &B));
  PetscCall(MatGetSize(A, &row, NULL));
  for (row = row / 2;; row++) { /* a row with an off-diagonal (not a Dirichlet row, which any positive diagonal keeps valid) */
    PetscInt           nz, off = 0;
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscCall(MatGetRow(A, row, &nz, &cols, &vals));
    for (PetscInt e = 0; e < nz; e++) off += cols[e] != row && vals[e] != 0.0;
    PetscCall(MatRestoreRow(A, row, &nz, &cols, &vals));
    if (off) break;
  }
  PetscCall(MatSetValue(B, row, row, 1e-3, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  for (int s = 0; s < 2; s++) PetscCall(Chain(&S[s], B, B, &opts, &R[s]));
  PetscCall(Compare(label, pair, &R[0], &R[1]));
  PetscCheck(R[1].nbad == 1 && R[1].bad[row] == 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: check_rows found %" PetscInt_FMT " bad rows (row %" PetscInt_FMT ": %" PetscInt_FMT "), expected row %" PetscInt_FMT " alone", label, R[1].nbad, row, R[1].bad[row], row);
  for (int s = 0; s < 2; s++) PetscCall(ResultFree(&R[s]));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscCall(TestCasesMain(argc, argv, help, RunCase));
  for (int m = 0; m < GPUPC_CMG_SETUP_NKERNELS; m++)
    if (!runs[m]) {
      printf("kernel_equiv_cmgsetup: member %s of the CMG setup table has no case\n", GPUPCCMGSetupKernelNames[m]);
      return 1;
    }
  printf("kernel_equiv_cmgsetup: every member of the CMG setup table ran\n");
  return 0;
}

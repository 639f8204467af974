static const char help[] = "The distributed PC cmg's coarse levels by the per-rank sort-and-reduce sums (src/pc/impls/cmg/mpi/cmgmpigalerkin.c)\n"
                           "against MatPtAP on MPIAIJ (the old path, -pc_cmg_mpi_galerkin_ptap, and an independent R A R^T made here):\n"
                           "  1. a fresh hierarchy: the same levels, clusters and excess as the MatPtAP hierarchy, the coarse matrices\n"
                           "     to 1e-12 relative (Frobenius), and every coarse level equal to R A_k R^T of its own level and clusters;\n"
                           "  2. new values on the same pattern (off-diagonals times a symmetric factor in [0.5, 1.5], excess times 1.3):\n"
                           "     a value-only setup (clusters and sorts kept, the coarse MPIAIJ matrices the same objects) whose levels\n"
                           "     equal R A_k R^T again;\n"
                           "  3. a fresh build, the matrix doubled: a value-only setup equal to a fresh build of the doubled matrix\n"
                           "     (the same clusters).\n"
                           "  After 1 and 2 the device levels' blocks (-A_k in the level format, built on the device) against the host\n"
                           "  MPIAIJ blocks: products with a varied vector to 1e-12 relative.\n"
                           "Cases: cmgtest.h problems (-problem, -dim, -n, -ground, -dirichlet, -spread); -min_levels <k> (default 2).\n"
                           "  -asym local|across: instead, one entry of rank 0 halved (its transposed entry kept) whose column is on rank 0\n"
                           "     or on rank 1: the setup must refuse the matrix.\n";

#include <petscksp.h>
#include <gpupc/cmgmpi.h>
#include "cmgtest.h"
#include "testcases.h"

#define TOL 1e-12

/* ||X - Y||_F / ||Y||_F */
static PetscErrorCode RelDiff(Mat X, Mat Y, PetscReal *rel)
{
  Mat       D;
  PetscReal nd, ny;

  PetscFunctionBegin;
  PetscCall(MatDuplicate(Y, MAT_COPY_VALUES, &D));
  PetscCall(MatAXPY(D, -1.0, X, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatNorm(D, NORM_FROBENIUS, &nd));
  PetscCall(MatNorm(Y, NORM_FROBENIUS, &ny));
  *rel = nd / PetscMax(ny, PETSC_SMALL);
  PetscCall(MatDestroy(&D));
  PetscFunctionReturn(0);
}

/* max |x - y| / max |y| over the ranks */
static PetscErrorCode RelDiffArray(MPI_Comm comm, PetscInt n, const PetscReal *x, const PetscReal *y, PetscReal *rel)
{
  PetscReal m[2] = {0, 0}, g[2];

  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) {
    m[0] = PetscMax(m[0], PetscAbsReal(x[i] - y[i]));
    m[1] = PetscMax(m[1], PetscAbsReal(y[i]));
  }
  PetscCall(MPIU_Allreduce(m, g, 2, MPIU_REAL, MPI_MAX, comm));
  *rel = g[0] / PetscMax(g[1], PETSC_SMALL);
  PetscFunctionReturn(0);
}

/* R A R^T of level F with its clusters, made here with MatPtAP, its diagonal reset to the off-diagonal weight plus R e */
static PetscErrorCode ReferenceGalerkin(MPI_Comm comm, const GPUPCCMGMPILevel *F, Mat *C, PetscReal **ce)
{
  Mat          P;
  PetscInt     scan, cstart, lo, hi;
  Vec          d;
  PetscScalar *da;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Scan(&F->nc, &scan, 1, MPIU_INT, MPI_SUM, comm));
  cstart = scan - F->nc;
  PetscCall(MatCreateAIJ(comm, F->n, F->nc, F->N, F->NC, 1, NULL, 1, NULL, &P));
  for (PetscInt v = 0; v < F->n; v++) PetscCall(MatSetValue(P, F->rstart + v, cstart + F->cluster[v], 1.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatPtAP(F->A, P, MAT_INITIAL_MATRIX, 2.0, C));
  PetscCall(MatDestroy(&P));
  PetscCall(PetscCalloc1(F->nc, ce));
  for (PetscInt v = 0; v < F->n; v++) (*ce)[F->cluster[v]] += F->e[v];
  PetscCall(MatCreateVecs(*C, &d, NULL));
  PetscCall(MatGetOwnershipRange(*C, &lo, &hi));
  PetscCall(VecGetArray(d, &da));
  for (PetscInt r = lo; r < hi; r++) {
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscInt           nz;
    PetscReal          s = 0.0;
    PetscCall(MatGetRow(*C, r, &nz, &cols, &vals));
    for (PetscInt k = 0; k < nz; k++)
      if (cols[k] != r) s += PetscAbsScalar(vals[k]);
    PetscCall(MatRestoreRow(*C, r, &nz, &cols, &vals));
    da[r - lo] = s + (*ce)[r - lo];
  }
  PetscCall(VecRestoreArray(d, &da));
  PetscCall(MatDiagonalSet(*C, d, INSERT_VALUES));
  PetscCall(VecDestroy(&d));
  PetscFunctionReturn(0);
}

/* every coarse level of M against R A_k R^T of its own fine level; every level but the last kept its sorts */
static PetscErrorCode CheckAgainstReference(GPUPCCMGMPI M, const char *what)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k + 1 < M->nlevels; k++) {
    const GPUPCCMGMPILevel *F = &M->levels[k], *C = &M->levels[k + 1];
    Mat                     R;
    PetscReal              *re, rel, rele;

    PetscCheck(F->sort, M->comm, PETSC_ERR_PLIB, "%s: level %" PetscInt_FMT " has no kept Galerkin sort", what, k);
    PetscCall(ReferenceGalerkin(M->comm, F, &R, &re));
    PetscCall(RelDiff(C->A, R, &rel));
    PetscCall(RelDiffArray(M->comm, C->n, C->e, re, &rele));
    PetscCall(PetscPrintf(M->comm, "  %s: level %" PetscInt_FMT " (%" PetscInt_FMT " rows) against R A R^T: %.2e (excess %.2e)\n", what, k + 1, C->N, (double)rel, (double)rele));
    PetscCheck(rel <= TOL && rele <= TOL, M->comm, PETSC_ERR_PLIB, "%s: level %" PetscInt_FMT " differs from R A R^T by %g (excess %g)", what, k + 1, (double)rel, (double)rele);
    PetscCall(MatDestroy(&R));
    PetscCall(PetscFree(re));
  }
  PetscFunctionReturn(0);
}

/* a block of the upload (-B in the level format, on the device) against the host block B: D x against -(B x) for an
   x of varied entries; *rel = max |D x + B x| / max |B x| on this rank (0 for an empty block) */
static PetscErrorCode BlockAgainstHost(GPUPCDevMat D, Mat B, PetscReal *rel)
{
  Vec          x, y;
  PetscInt     m, n;
  PetscScalar *xa, *dx, *dy, *hy;
  PetscReal    num = 0.0, den = 0.0;
  MatInfo      info;

  PetscFunctionBegin;
  *rel = 0.0;
  PetscCall(MatGetLocalSize(B, &m, &n));
  PetscCall(MatGetInfo(B, MAT_LOCAL, &info));
  PetscCheck(D->m == m && D->n == n && D->nnz == (PetscInt)info.nz_used, PETSC_COMM_SELF, PETSC_ERR_PLIB, "uploaded block %" PetscInt_FMT " x %" PetscInt_FMT " with %" PetscInt_FMT " entries, the host block %" PetscInt_FMT " x %" PetscInt_FMT " with %" PetscInt_FMT, D->m, D->n, D->nnz, m, n, (PetscInt)info.nz_used);
  if (D->nnz == 0) PetscFunctionReturn(0);
  PetscCall(MatCreateVecs(B, &x, &y));
  PetscCall(VecGetArray(x, &xa));
  for (PetscInt i = 0; i < n; i++) xa[i] = 1.0 + 0.37 * (PetscReal)((i * 7919) % 13);
  PetscCall(VecRestoreArray(x, &xa));
  PetscCall(MatMult(B, x, y));
  PetscCall(GPUPCMalloc(PetscMax(n, 1) * sizeof(PetscScalar), (void **)&dx));
  PetscCall(GPUPCMalloc(PetscMax(m, 1) * sizeof(PetscScalar), (void **)&dy));
  PetscCall(PetscMalloc1(PetscMax(m, 1), &hy));
  PetscCall(VecGetArray(x, &xa));
  PetscCall(GPUPCCopyToDevice(dx, xa, n));
  PetscCall(VecRestoreArray(x, &xa));
  PetscCall(GPUPCDevMatMult(D, dx, NULL, dy));
  PetscCall(GPUPCCopyToHost(hy, dy, m));
  PetscCall(VecGetArray(y, &xa));
  for (PetscInt i = 0; i < m; i++) {
    num = PetscMax(num, PetscAbsScalar(hy[i] + xa[i]));
    den = PetscMax(den, PetscAbsScalar(xa[i]));
  }
  PetscCall(VecRestoreArray(y, &xa));
  *rel = num / PetscMax(den, PETSC_SMALL);
  PetscCall(PetscFree(hy));
  PetscCall(GPUPCFree(dx));
  PetscCall(GPUPCFree(dy));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(0);
}

/* the uploaded level blocks (built on the device from device blocks: level 0's from the device reduction, the coarse
   levels' copied up) against each level's host MPIAIJ blocks */
static PetscErrorCode CheckUpload(GPUPCCMGMPI M, const char *what)
{
  PetscFunctionBegin;
  PetscCheck(M->dlev, M->comm, PETSC_ERR_PLIB, "%s: the hierarchy has no device levels", what);
  for (PetscInt k = 0; k < M->nlevels; k++) {
    const GPUPCCMGMPIDeviceLevel *DL = &M->dlev[k];
    Mat                           Ad, Ao;
    PetscReal                     r[2], g[2];

    PetscCheck(DL->diag && DL->offd, M->comm, PETSC_ERR_PLIB, "%s: level %" PetscInt_FMT " has no uploaded blocks", what, k);
    PetscCall(MatMPIAIJGetSeqAIJ(M->levels[k].A, &Ad, &Ao, NULL)); /* the levels are MPIAIJ */
    PetscCall(BlockAgainstHost(DL->diag, Ad, &r[0]));
    PetscCall(BlockAgainstHost(DL->offd, Ao, &r[1]));
    PetscCall(MPIU_Allreduce(r, g, 2, MPIU_REAL, MPI_MAX, M->comm));
    PetscCall(PetscPrintf(M->comm, "  %s: level %" PetscInt_FMT " uploaded blocks against the host blocks: %.2e, %.2e\n", what, k, (double)g[0], (double)g[1]));
    PetscCheck(g[0] <= TOL && g[1] <= TOL, M->comm, PETSC_ERR_PLIB, "%s: level %" PetscInt_FMT "'s uploaded blocks differ from -A_k's by %g, %g", what, k, (double)g[0], (double)g[1]);
  }
  PetscFunctionReturn(0);
}

/* two hierarchies level by level: sizes, clusters, matrices to tol, excess to tol */
static PetscErrorCode CompareHierarchies(GPUPCCMGMPI X, GPUPCCMGMPI Y, PetscReal tol, const char *what)
{
  PetscFunctionBegin;
  PetscCheck(X->nlevels == Y->nlevels, X->comm, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " levels against %" PetscInt_FMT, what, X->nlevels, Y->nlevels);
  for (PetscInt k = 0; k < X->nlevels; k++) {
    const GPUPCCMGMPILevel *a = &X->levels[k], *b = &Y->levels[k];
    PetscReal               rel, rele;
    PetscBool               samecl = PETSC_TRUE, all;

    PetscCheck(a->N == b->N && a->n == b->n && a->nnz == b->nnz && a->NC == b->NC, X->comm, PETSC_ERR_PLIB, "%s: level %" PetscInt_FMT " has %" PetscInt_FMT " rows, %" PetscInt_FMT " nonzeros, %" PetscInt_FMT " clusters against %" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT, what, k, a->N, a->nnz, a->NC, b->N, b->nnz,
               b->NC);
    if (k + 1 < X->nlevels) PetscCall(PetscArraycmp(a->cluster, b->cluster, a->n, &samecl));
    PetscCall(MPIU_Allreduce(&samecl, &all, 1, MPIU_BOOL, MPI_LAND, X->comm));
    PetscCheck(all, X->comm, PETSC_ERR_PLIB, "%s: the clusters of level %" PetscInt_FMT " differ", what, k);
    PetscCall(RelDiff(a->A, b->A, &rel));
    PetscCall(RelDiffArray(X->comm, a->n, a->e, b->e, &rele));
    PetscCall(PetscPrintf(X->comm, "  %s: level %" PetscInt_FMT " (%" PetscInt_FMT " rows, %" PetscInt_FMT " nonzeros): %.2e (excess %.2e)\n", what, k, a->N, a->nnz, (double)rel, (double)rele));
    PetscCheck(rel <= tol && rele <= tol, X->comm, PETSC_ERR_PLIB, "%s: level %" PetscInt_FMT " differs by %g (excess %g), more than %g", what, k, (double)rel, (double)rele, (double)tol);
  }
  PetscFunctionReturn(0);
}

/* the maps between the user's rows and level 0 (Dirichlet rows, couplings E and E^T, off-rank Dirichlet columns) of two
   hierarchies: equal exactly (the device reduction takes the same entries as the host reduction) */
static PetscErrorCode CompareReductions(GPUPCCMGMPI X, GPUPCCMGMPI Y)
{
  const GPUPCCMGReduction *a = &X->red, *b = &Y->red;
  PetscBool                same = PETSC_TRUE, all, t;

  PetscFunctionBegin;
  same = (PetscBool)(a->n == b->n && a->nkept == b->nkept && a->ndirichlet == b->ndirichlet && a->nstrict == b->nstrict && a->ncoupling == b->ncoupling && X->nghostdir == Y->nghostdir && X->offrank_coupling == Y->offrank_coupling && !a->map == !b->map && !a->erow == !b->erow);
  if (same && a->map) {
    PetscCall(PetscArraycmp(a->map, b->map, a->n, &t));
    same = (PetscBool)(same && t);
    PetscCall(PetscArraycmp(a->dinv, b->dinv, a->n + X->nghostdir, &t));
    same = (PetscBool)(same && t);
    PetscCall(PetscArraycmp(X->ghostdir, Y->ghostdir, X->nghostdir, &t));
    same = (PetscBool)(same && t);
  }
  if (same && a->erow) {
    PetscCall(PetscArraycmp(a->erow, b->erow, a->n + 1, &t));
    same = (PetscBool)(same && t);
    PetscCall(PetscArraycmp(a->ecol, b->ecol, a->ncoupling, &t));
    same = (PetscBool)(same && t);
    PetscCall(PetscArraycmp(a->eval, b->eval, a->ncoupling, &t));
    same = (PetscBool)(same && t);
    PetscCall(PetscArraycmp(a->trow, b->trow, a->n + 1, &t));
    same = (PetscBool)(same && t);
    if (same) PetscCall(PetscArraycmp(a->tcol, b->tcol, a->trow[a->n], &t));
    same = (PetscBool)(same && t);
    if (same) PetscCall(PetscArraycmp(a->tval, b->tval, a->trow[a->n], &t));
    same = (PetscBool)(same && t);
  }
  PetscCall(MPIU_Allreduce(&same, &all, 1, MPIU_BOOL, MPI_LAND, X->comm));
  PetscCheck(all && X->gdirichlet == Y->gdirichlet && X->gcoupling == Y->gcoupling && X->gstrict == Y->gstrict && X->Nkept == Y->Nkept, X->comm, PETSC_ERR_PLIB, "the reductions differ (Dirichlet rows, couplings or their maps)");
  PetscCall(PetscPrintf(X->comm, "  reduction (%s against %s): %" PetscInt_FMT " Dirichlet rows, %" PetscInt_FMT " couplings, %" PetscInt_FMT " strictly dominant rows: the same\n", X->reduced_on_device ? "device" : "host", Y->reduced_on_device ? "device" : "host", X->gdirichlet, X->gcoupling, X->gstrict));
  PetscFunctionReturn(0);
}

static PetscErrorCode SetUpPC(Mat A, PetscBool ptap, PC *pc, GPUPCCMGMPI *M)
{
  PetscFunctionBegin;
  if (ptap) PetscCall(PetscOptionsSetValue(NULL, "-pc_cmg_mpi_galerkin_ptap", "1"));
  PetscCall(PCCreate(PetscObjectComm((PetscObject)A), pc));
  PetscCall(PCSetOperators(*pc, A, A));
  PetscCall(PCSetType(*pc, PCCMG));
  PetscCall(PCCMGSetMPIGatherSize(*pc, 0)); /* every level distributed down to the last (the levels compared here) */
  PetscCall(PCSetFromOptions(*pc));
  PetscCall(PCSetUp(*pc));
  if (ptap) PetscCall(PetscOptionsClearValue(NULL, "-pc_cmg_mpi_galerkin_ptap"));
  PetscCall(PCCMGGetMPIHierarchy_Private(*pc, M));
  PetscCheck(*M, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "run this test on more than one rank");
  PetscCheck((*M)->ptap == ptap, PetscObjectComm((PetscObject)A), PETSC_ERR_PLIB, "the hierarchy was formed %s MatPtAP", ptap ? "without" : "with");
  PetscFunctionReturn(0);
}

/* new values on the same pattern, in place: off-diagonals times 0.5 + hash(i, j) (symmetric), the excess times 1.3 */
static PetscErrorCode NewValues(Mat A)
{
  PetscInt lo, hi;
  Mat      B;

  PetscFunctionBegin;
  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &B));
  PetscCall(MatGetOwnershipRange(A, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) {
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscInt           nz, nn = 0, dk = -1;
    PetscInt          *c;
    PetscScalar       *v;
    PetscReal          off = 0.0, offnew = 0.0, d = 0.0;

    PetscCall(MatGetRow(B, i, &nz, &cols, &vals));
    PetscCall(PetscMalloc2(nz, &c, nz, &v));
    for (PetscInt k = 0; k < nz; k++) {
      c[nn] = cols[k];
      if (cols[k] == i) {
        d       = PetscRealPart(vals[k]);
        dk      = nn;
        v[nn++] = 0.0;
        continue;
      }
      off += PetscAbsScalar(vals[k]);
      v[nn] = vals[k] * (0.5 + CMGTestHash(i, cols[k], 11));
      offnew += PetscAbsScalar(v[nn++]);
    }
    if (dk >= 0) v[dk] = nz == 1 ? d : offnew + 1.3 * (d - off);
    PetscCall(MatRestoreRow(B, i, &nz, &cols, &vals));
    PetscCall(MatSetValues(A, 1, &i, nn, c, v, INSERT_VALUES));
    PetscCall(PetscFree2(c, v));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(0);
}

/* a value-only setup of pc on A (whose values changed in place): counted as one, the coarse matrices the same objects */
static PetscErrorCode ReuseSetUp(PC pc, GPUPCCMGMPI *M)
{
  GPUPCCMGMPI M0;
  Mat         first;
  PetscInt    nreuses;

  PetscFunctionBegin;
  PetscCall(PCCMGGetMPIHierarchy_Private(pc, &M0));
  nreuses = M0->nreuses;
  first   = M0->nlevels > 1 ? M0->levels[1].A : NULL;
  PetscCall(PCSetUp(pc));
  PetscCall(PCCMGGetMPIHierarchy_Private(pc, M));
  PetscCheck(*M == M0 && (*M)->nreuses == nreuses + 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_PLIB, "new values on the same pattern were not a value-only setup");
  PetscCheck(!first || (*M)->levels[1].A == first, PetscObjectComm((PetscObject)pc), PETSC_ERR_PLIB, "a value-only setup made a new coarse matrix");
  PetscFunctionReturn(0);
}

/* -asym local|across: one entry a_ij of rank 0 halved, its a_ji kept, with j on rank 0 (local) or on rank 1 (across):
   the setup must refuse the matrix (the device reduction detects the pair, then the host reduction names it) */
static PetscErrorCode RunAsymmetric(const char *where)
{
  CMGTestProblem p;
  Mat            A;
  PC             pc;
  PetscMPIInt    rank;
  PetscInt       lo, hi;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(CMGTestGetProblem(&p));
  PetscCall(CMGTestMatrix(&p, &A));
  PetscCall(MatGetOwnershipRange(A, &lo, &hi));
  if (rank == 0) {
    const PetscBool    across = (PetscBool)!strcmp(where, "across");
    const PetscInt     i      = across ? hi - 1 : lo;
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscInt           nz, j = -1;
    PetscScalar        a = 0.0;
    PetscCall(MatGetRow(A, i, &nz, &cols, &vals));
    for (PetscInt k = 0; k < nz && j < 0; k++)
      if (cols[k] != i && (across ? cols[k] >= hi : cols[k] < hi) && vals[k] != 0.0) {
        j = cols[k];
        a = 0.5 * vals[k];
      }
    PetscCall(MatRestoreRow(A, i, &nz, &cols, &vals));
    PetscCheck(j >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "row %" PetscInt_FMT " has no %s neighbour", i, where);
    PetscCall(MatSetValue(A, i, j, a, INSERT_VALUES));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  A(%" PetscInt_FMT ",%" PetscInt_FMT ") halved (%s)\n", i, j, where));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetType(pc, PCCMG));
  PetscCall(PCSetFromOptions(pc));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = PCSetUp(pc);
  PetscCall(PetscPopErrorHandler());
  PetscCheck(ierr == PETSC_ERR_ARG_WRONG, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "a matrix with an asymmetric pair (%s) was not refused (error %d)", where, (int)ierr);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  refused as expected\n"));
  PetscCall(PCDestroy(&pc));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(0);
}

static PetscErrorCode RunCase(void)
{
  CMGTestProblem p;
  Mat            A;
  PC             ref, pc, fresh;
  GPUPCCMGMPI    Mr, M, Mf;
  PetscInt       minlevels = 2;

  PetscFunctionBegin;
  {
    char      where[16];
    PetscBool asym;
    PetscCall(PetscOptionsGetString(NULL, NULL, "-asym", where, sizeof(where), &asym));
    if (asym) {
      PetscCall(RunAsymmetric(where));
      PetscFunctionReturn(0);
    }
  }
  PetscCall(CMGTestGetProblem(&p));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-min_levels", &minlevels, NULL));
  PetscCall(CMGTestMatrix(&p, &A));
  /* 1. fresh: the sorted sums against the MatPtAP hierarchy and against R A R^T */
  PetscCall(SetUpPC(A, PETSC_TRUE, &ref, &Mr));
  PetscCall(SetUpPC(A, PETSC_FALSE, &pc, &M));
  PetscCheck(M->nlevels >= minlevels, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the hierarchy has %" PetscInt_FMT " levels, the case asks for at least %" PetscInt_FMT, M->nlevels, minlevels);
  PetscCall(CompareReductions(M, Mr));
  PetscCall(CompareHierarchies(M, Mr, TOL, "sorted against MatPtAP"));
  PetscCall(CheckAgainstReference(M, "fresh"));
  PetscCall(CheckUpload(M, "fresh"));
  PetscCall(PCDestroy(&ref));
  /* 2. new values: a value-only setup */
  PetscCall(NewValues(A));
  PetscCall(ReuseSetUp(pc, &M));
  PetscCall(CheckAgainstReference(M, "new values"));
  PetscCall(CheckUpload(M, "new values"));
  PetscCall(PCDestroy(&pc));
  /* 3. a fresh build on these values, then the matrix doubled: the clusters of a fresh build of the doubled matrix are
     the same, so the value-only setup must equal it */
  PetscCall(SetUpPC(A, PETSC_FALSE, &pc, &M));
  PetscCall(MatScale(A, 2.0));
  PetscCall(ReuseSetUp(pc, &M));
  PetscCall(SetUpPC(A, PETSC_FALSE, &fresh, &Mf));
  PetscCall(CompareHierarchies(M, Mf, TOL, "value-only against fresh"));
  PetscCall(PCDestroy(&fresh));
  PetscCall(PCDestroy(&pc));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  return TestCasesMain(argc, argv, help, RunCase);
}

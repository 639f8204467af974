static const char help[] = "PC gpubjacobi against PETSc's own block Jacobi preconditioners.\n"
                           "  -mode pbj:    block sizes -bs_min..-bs_max (default 1..7) as the matrix's block size, PCApply against PCPBJACOBI, and\n"
                           "                PCApplyTranspose against PCPBJACOBI on the explicit transpose; then new values on the same pattern\n"
                           "  -mode bj:     -pc_gpubjacobi_block_size -bs_min..-bs_max (default 8..32) on a matrix of block size 1 whose ranks'\n"
                           "                rows are not multiples of it (partial last blocks), against PCBJACOBI with blocks of the same rows\n"
                           "                (PCBJacobiSetLocalBlocks, sub_pc lu), apply and transpose apply\n"
                           "  -mode cg:     KSPCG with gpubjacobi and with pbjacobi (block size -bs_min) on an SPD matrix: iterations and solution\n"
                           "  -mode errors: a singular block, a NaN and a too large matrix block size are refused with errors that name them\n"
                           "  -values dominant|random: diagonal blocks dominant, or random entries (pivoting; pbj mode)\n"
                           "  -nblocks <n>: blocks per rank; -mat_type: the type of the matrix gpubjacobi gets (references use AIJ)\n";

#include <petscksp.h>
#include <petscgpupc.h>
#include "gpupctest.h"

typedef struct {
  PetscInt  N, bs, w; /* global rows, block size (for singular-block placement), band half-width */
  PetscBool sym;      /* symmetric values */
  PetscBool random;   /* diagonal blocks of random entries (else diagonally dominant rows) */
  PetscInt  badblock; /* global block (of bs rows) made singular, -1: none */
  PetscInt  nanrow;   /* row whose diagonal is NaN, -1: none */
  PetscReal excess;   /* dominant rows: diagonal = off-diagonal magnitudes + excess (1 + Hash/2); 0: 0.5 */
} Gen;

/* deterministic value in [-1, 1) from two integers (the same on any number of ranks) */
static PetscReal Hash(PetscInt a, PetscInt b)
{
  unsigned long long h = (unsigned long long)a * 0x9E3779B97F4A7C15ULL ^ ((unsigned long long)b + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ULL;
  h ^= h >> 29;
  return (PetscReal)(h >> 11) / (PetscReal)(1ULL << 53) * 2.0 - 1.0;
}

static PetscReal OffDiag(const Gen *g, PetscInt i, PetscInt j)
{
  return g->sym ? Hash(PetscMin(i, j), PetscMax(i, j)) : Hash(i, j);
}

/* the columns of row i: a band of half-width w and two far columns (i +- N/2), ascending, distinct */
static PetscInt Columns(const Gen *g, PetscInt i, PetscInt *cols)
{
  PetscInt k = 0, far[2] = {(i + g->N / 2) % g->N, (i - g->N / 2 + g->N) % g->N};

  for (PetscInt j = PetscMax(0, i - g->w); j <= PetscMin(g->N - 1, i + g->w); j++) cols[k++] = j;
  for (int f = 0; f < 2; f++) {
    PetscBool have = PETSC_FALSE;
    for (PetscInt q = 0; q < k; q++) have = (PetscBool)(have || cols[q] == far[f]);
    if (!have) cols[k++] = far[f];
  }
  return k;
}

/* the row's values: off-diagonals from OffDiag; diagonal = the row's off-diagonal sum of magnitudes + excess (dominant), or
   random entries in the diagonal block (random); a singular block repeats twice its first row in its second */
static void Values(const Gen *g, PetscInt i, PetscInt k, const PetscInt *cols, PetscScalar *vals)
{
  PetscReal sum = 0.0;
  PetscInt  d   = -1;

  for (PetscInt q = 0; q < k; q++) {
    if (cols[q] == i) d = q;
    else {
      vals[q] = OffDiag(g, i, cols[q]);
      sum += PetscAbsReal(vals[q]);
    }
  }
  vals[d] = g->random ? Hash(i, i) : sum + (g->excess > 0 ? g->excess : 0.5) * (1.0 + 0.5 * Hash(i, i));
  if (g->badblock >= 0 && i / g->bs == g->badblock && i % g->bs == 1) {
    PetscInt    c0 = (i / g->bs) * g->bs, pc[128];
    PetscScalar pv[128];
    PetscInt    pk = Columns(g, i - 1, pc);
    Values(&(Gen){g->N, g->bs, g->w, g->sym, g->random, -1, -1, g->excess}, i - 1, pk, pc, pv);
    for (PetscInt q = 0; q < k; q++)
      if (cols[q] >= c0 && cols[q] < c0 + g->bs)
        for (PetscInt p = 0; p < pk; p++)
          if (pc[p] == cols[q]) vals[q] = 2.0 * pv[p];
  }
  if (i == g->nanrow) vals[d] = PETSC_MAX_REAL * 10.0 - PETSC_MAX_REAL * 10.0;
}

/* the matrix of g with nloc local rows, block size mbs, of type mtype (NULL: from -mat_type, default aij) */
static PetscErrorCode Matrix(const Gen *g, PetscInt nloc, PetscInt mbs, MatType mtype, Mat *A)
{
  PetscInt lo, hi, cols[128];

  PetscFunctionBegin;
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, nloc, nloc, g->N, g->N));
  PetscCall(MatSetBlockSize(*A, mbs));
  if (mtype) PetscCall(MatSetType(*A, mtype));
  else {
    PetscCall(MatSetType(*A, MATAIJ));
    PetscCall(MatSetFromOptions(*A));
  }
  PetscCall(MatSeqAIJSetPreallocation(*A, 2 * g->w + 3, NULL));
  PetscCall(MatMPIAIJSetPreallocation(*A, 2 * g->w + 3, NULL, 2 * g->w + 3, NULL));
  PetscCall(MatGetOwnershipRange(*A, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) {
    PetscScalar vals[128];
    PetscInt    k = Columns(g, i, cols);
    Values(g, i, k, cols, vals);
    PetscCall(MatSetValues(*A, 1, &i, k, cols, vals, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* a gpubjacobi PC on A (block size bs, or PETSC_DECIDE: the matrix's) */
static PetscErrorCode GPUBJ(Mat A, PetscInt bs, PC *pc)
{
  PetscFunctionBegin;
  PetscCall(PCCreate(PETSC_COMM_WORLD, pc));
  PetscCall(PCSetOperators(*pc, A, A));
  PetscCall(PCSetType(*pc, PCGPUBJACOBI));
  PetscCall(PCGPUBJacobiSetBlockSize(*pc, bs));
  PetscCall(PCSetFromOptions(*pc));
  PetscCall(PCSetUp(*pc));
  PetscFunctionReturn(0);
}

/* y = M^-1 x with pc, on the vectors of A (gpu vectors for GPUPC's types) and on standard vectors: both must agree with
   yref to tol; transpose: PCApplyTranspose */
static PetscErrorCode Check(PC pc, PetscBool transpose, Mat A, Vec xref, Vec yref, PetscReal tol, const char *what)
{
  Vec       x, y, xs, ys;
  PetscReal d1, d2;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecDuplicate(xref, &xs));
  PetscCall(VecDuplicate(yref, &ys));
  PetscCall(VecCopy(xref, x));
  PetscCall(VecCopy(xref, xs));
  if (transpose) {
    PetscCall(PCApplyTranspose(pc, x, y));
    PetscCall(PCApplyTranspose(pc, xs, ys));
  } else {
    PetscCall(PCApply(pc, x, y));
    PetscCall(PCApply(pc, xs, ys));
  }
  PetscCall(TestVecDiff(y, yref, &d1));
  PetscCall(TestVecDiff(ys, yref, &d2));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-44s %s: difference %.2e (matrix vectors), %.2e (standard vectors)\n", what, transpose ? "transpose" : "apply    ", (double)d1, (double)d2));
  PetscCheck(d1 <= tol && d2 <= tol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s, %s: gpubjacobi differs from the reference by %g (matrix vectors) and %g (standard vectors), more than %g", what, transpose ? "PCApplyTranspose" : "PCApply", (double)d1, (double)d2, (double)tol);
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&xs));
  PetscCall(VecDestroy(&ys));
  PetscFunctionReturn(0);
}

/* reference PC of type type on B (plain AIJ): pbjacobi, or bjacobi with local blocks of bs rows (the last partial) and
   an LU solve per block */
static PetscErrorCode Reference(Mat B, PCType type, PetscInt bs, PC *pc)
{
  PetscFunctionBegin;
  PetscCall(PCCreate(PETSC_COMM_WORLD, pc));
  PetscCall(PCSetOperators(*pc, B, B));
  PetscCall(PCSetType(*pc, type));
  if (!strcmp(type, PCBJACOBI)) {
    PetscInt  n, nb;
    PetscInt *lens;
    PetscCall(MatGetLocalSize(B, &n, NULL));
    nb = (n + bs - 1) / bs;
    PetscCall(PetscMalloc1(nb, &lens));
    for (PetscInt k = 0; k < nb; k++) lens[k] = PetscMin(bs, n - k * bs);
    PetscCall(PCBJacobiSetLocalBlocks(*pc, nb, lens));
    PetscCall(PetscFree(lens));
    PetscCall(PCSetOptionsPrefix(*pc, "ref_"));
    PetscCall(PetscOptionsSetValue(NULL, "-ref_sub_ksp_type", "preonly"));
    PetscCall(PetscOptionsSetValue(NULL, "-ref_sub_pc_type", "lu"));
    PetscCall(PCSetFromOptions(*pc));
  }
  PetscCall(PCSetUp(*pc));
  PetscFunctionReturn(0);
}

/* one case: gpubjacobi on A (block size bs, or the matrix's) against the reference type on Aref and on Aref^T */
static PetscErrorCode CompareCase(Mat A, Mat Aref, PCType type, PetscInt bs, PetscInt gbs, PetscReal tol, const char *what)
{
  PC          pc, ref, reft;
  Mat         At;
  Vec         x, yref;
  PetscRandom rnd;
  PetscInt    got;

  PetscFunctionBegin;
  PetscCall(GPUBJ(A, gbs, &pc));
  PetscCall(PCGPUBJacobiGetBlockSize(pc, &got));
  PetscCheck(got == bs, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: PCGPUBJacobiGetBlockSize gives %" PetscInt_FMT ", expected %" PetscInt_FMT, what, got, bs);
  PetscCall(Reference(Aref, type, bs, &ref));
  PetscCall(MatTranspose(Aref, MAT_INITIAL_MATRIX, &At));
  PetscCall(Reference(At, type, bs, &reft));
  PetscCall(MatCreateVecs(Aref, &x, &yref));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(PCApply(ref, x, yref));
  PetscCall(Check(pc, PETSC_FALSE, A, x, yref, tol, what));
  PetscCall(PCApply(reft, x, yref));
  PetscCall(Check(pc, PETSC_TRUE, A, x, yref, tol, what));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&yref));
  PetscCall(PCDestroy(&pc));
  PetscCall(PCDestroy(&ref));
  PetscCall(PCDestroy(&reft));
  PetscCall(MatDestroy(&At));
  PetscFunctionReturn(0);
}

/* local rows of this rank: nb blocks of bs rows (more on higher ranks), plus extra rows */
static PetscErrorCode LocalRows(PetscInt nb, PetscInt bs, PetscInt extra, PetscInt *nloc, PetscInt *N)
{
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  *nloc = (nb + rank) * bs + extra;
  PetscCall(MPIU_Allreduce(nloc, N, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  PetscFunctionReturn(0);
}

static PetscErrorCode ModePBJ(PetscInt bsmin, PetscInt bsmax, PetscInt nb, PetscBool random, PetscReal tol, PetscBool view)
{
  PetscFunctionBegin;
  for (PetscInt bs = bsmin; bs <= bsmax; bs++) {
    for (int sym = 0; sym < 2; sym++) {
      Gen      g = {0, bs, bs, (PetscBool)sym, random, -1, -1, 0};
      Mat      A, Aref;
      char     what[128];
      PC       pc, ref;
      Vec      x, yref;
      PetscInt nloc;

      PetscCall(LocalRows(nb, bs, 0, &nloc, &g.N));
      PetscCall(Matrix(&g, nloc, bs, NULL, &A));
      PetscCall(Matrix(&g, nloc, bs, MATAIJ, &Aref));
      PetscCall(PetscSNPrintf(what, sizeof(what), "bs %" PetscInt_FMT " %s %s, vs pbjacobi", bs, sym ? "symmetric" : "nonsymmetric", random ? "random" : "dominant"));
      PetscCall(CompareCase(A, Aref, PCPBJACOBI, bs, PETSC_DECIDE, tol, what));
      /* new values on the same pattern: the same PC object recomputes its inverses at the next setup */
      PetscCall(GPUBJ(A, PETSC_DECIDE, &pc));
      if (view && bs == bsmax && sym) PetscCall(PCView(pc, PETSC_VIEWER_STDOUT_WORLD));
      PetscCall(MatScale(A, 2.0));
      PetscCall(MatShift(A, 0.75));
      PetscCall(MatScale(Aref, 2.0));
      PetscCall(MatShift(Aref, 0.75));
      PetscCall(PCSetOperators(pc, A, A));
      PetscCall(PCSetUp(pc));
      PetscCall(Reference(Aref, PCPBJACOBI, bs, &ref));
      PetscCall(MatCreateVecs(Aref, &x, &yref));
      PetscCall(VecSetRandom(x, NULL));
      PetscCall(PCApply(ref, x, yref));
      PetscCall(PetscSNPrintf(what, sizeof(what), "bs %" PetscInt_FMT " %s, new values", bs, sym ? "symmetric" : "nonsymmetric"));
      PetscCall(Check(pc, PETSC_FALSE, A, x, yref, tol, what));
      PetscCall(VecDestroy(&x));
      PetscCall(VecDestroy(&yref));
      PetscCall(PCDestroy(&pc));
      PetscCall(PCDestroy(&ref));
      PetscCall(MatDestroy(&A));
      PetscCall(MatDestroy(&Aref));
    }
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode ModeBJ(PetscInt bsmin, PetscInt bsmax, PetscInt nb, PetscReal tol, PetscBool view)
{
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  for (PetscInt bs = bsmin; bs <= bsmax; bs++) {
    const PetscInt extra = bs > 1 ? 1 + (3 * rank + bs) % (bs - 1) : 0; /* 1 .. bs-1: a partial last block on every rank */
    Gen            g     = {0, bs, bs, (PetscBool)(bs % 2), PETSC_FALSE, -1, -1, 0};
    Mat            A, Aref;
    PetscInt       nloc;
    char           what[128];

    PetscCall(LocalRows(nb, bs, extra, &nloc, &g.N));
    PetscCall(Matrix(&g, nloc, 1, NULL, &A));
    PetscCall(Matrix(&g, nloc, 1, MATAIJ, &Aref));
    PetscCall(PetscSNPrintf(what, sizeof(what), "bs %" PetscInt_FMT " (last block %" PetscInt_FMT " on rank %d), vs bjacobi", bs, extra ? extra : bs, (int)rank));
    PetscCall(CompareCase(A, Aref, PCBJACOBI, bs, bs, tol, what));
    if (view && bs == bsmax) {
      PC pc;
      PetscCall(GPUBJ(A, bs, &pc));
      PetscCall(PCView(pc, PETSC_VIEWER_STDOUT_WORLD));
      PetscCall(PCDestroy(&pc));
    }
    PetscCall(MatDestroy(&A));
    PetscCall(MatDestroy(&Aref));
  }
  PetscFunctionReturn(0);
}

/* KSPCG with pc type on A; returns iterations and the solution */
static PetscErrorCode Solve(Mat A, PCType type, Vec b, Vec x, PetscInt *its)
{
  KSP                ksp;
  PC                 pc;
  KSPConvergedReason reason;

  PetscFunctionBegin;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, type));
  PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 500));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "KSPCG with %s did not converge (%s)", type, KSPConvergedReasons[reason]);
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(0);
}

static PetscErrorCode ModeCG(PetscInt bs, PetscInt nb)
{
  Gen       g = {0, bs, 2 * bs + 1, PETSC_TRUE, PETSC_FALSE, -1, -1, 0.002};
  Mat       A, Aref;
  Vec       b, x1, x2;
  PetscInt  nloc, its1, its2;
  PetscReal d;

  PetscFunctionBegin;
  PetscCall(LocalRows(nb, bs, 0, &nloc, &g.N));
  PetscCall(Matrix(&g, nloc, bs, NULL, &A));
  PetscCall(Matrix(&g, nloc, bs, MATAIJ, &Aref));
  PetscCall(MatCreateVecs(A, &x1, &b));
  PetscCall(MatCreateVecs(Aref, &x2, NULL));
  PetscCall(VecSetRandom(b, NULL));
  PetscCall(Solve(A, PCGPUBJACOBI, b, x1, &its1));
  {
    Vec bref;
    PetscCall(MatCreateVecs(Aref, NULL, &bref));
    PetscCall(VecCopy(b, bref));
    PetscCall(Solve(Aref, PCPBJACOBI, bref, x2, &its2));
    PetscCall(VecDestroy(&bref));
  }
  PetscCall(TestVecDiff(x1, x2, &d));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  cg, bs %" PetscInt_FMT ", %" PetscInt_FMT " rows: gpubjacobi %" PetscInt_FMT " iterations, pbjacobi %" PetscInt_FMT "; solutions differ by %.2e\n", bs, g.N, its1, its2, (double)d));
  PetscCheck(PetscAbsInt(its1 - its2) <= 1, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "CG with gpubjacobi took %" PetscInt_FMT " iterations, with pbjacobi %" PetscInt_FMT, its1, its2);
  PetscCheck(its1 > 3, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the CG test problem is too easy (%" PetscInt_FMT " iterations)", its1);
  PetscCheck(d <= 1e-7, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "CG solutions with gpubjacobi and pbjacobi differ by %g", (double)d);
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x1));
  PetscCall(VecDestroy(&x2));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&Aref));
  PetscFunctionReturn(0);
}

/* PCSetUp must fail with a message containing expect */
static PetscErrorCode ExpectFailure(Mat A, const char *expect)
{
  PC             pc;
  PetscErrorCode ierr;
  const char    *text;
  char          *msg = NULL, *found = NULL;

  PetscFunctionBegin;
  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetType(pc, PCGPUBJACOBI));
  PetscCall(PCSetFromOptions(pc));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = PCSetUp(pc);
  PetscCall(PetscPopErrorHandler());
  PetscCheck(ierr, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PC gpubjacobi accepted bad input (expected an error containing \"%s\")", expect);
  PetscCall(PetscErrorMessage(ierr, &text, &msg));
  PetscCall(PetscStrstr(msg ? msg : "", expect, &found));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  refused as expected: %s\n", msg ? msg : "(no message)"));
  PetscCheck(found, PETSC_COMM_SELF, PETSC_ERR_PLIB, "error message \"%s\" does not contain \"%s\"", msg ? msg : "", expect);
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(0);
}

static PetscErrorCode ModeErrors(PetscInt nb)
{
  const PetscInt bs = 3;
  Gen            g  = {0, bs, bs, PETSC_FALSE, PETSC_FALSE, -1, -1, 0};
  Mat            A;
  PetscInt       nloc, kbad;
  char           expect[256];

  PetscFunctionBegin;
  PetscCall(LocalRows(nb, bs, 0, &nloc, &g.N));
  /* a singular block on the last rank: its second row is twice its first */
  kbad       = g.N / bs - 2;
  g.badblock = kbad;
  PetscCall(Matrix(&g, nloc, bs, NULL, &A));
  PetscCall(PetscSNPrintf(expect, sizeof(expect), "the diagonal block of global rows %" PetscInt_FMT "..%" PetscInt_FMT, kbad * bs, kbad * bs + bs - 1));
  PetscCall(ExpectFailure(A, expect));
  PetscCall(ExpectFailure(A, "is singular"));
  PetscCall(ExpectFailure(A, "MatShift()"));
  PetscCall(MatDestroy(&A));
  /* a NaN on the first rank */
  g.badblock = -1;
  g.nanrow   = 4;
  PetscCall(Matrix(&g, nloc, bs, NULL, &A));
  PetscCall(ExpectFailure(A, "the diagonal block of global rows 3..5"));
  PetscCall(ExpectFailure(A, "holds a NaN or an infinity"));
  PetscCall(MatDestroy(&A));
  /* bad -pc_gpubjacobi_block_size values: tests/gpubjacobi_badoption.sh (an error inside PCSetFromOptions ends the run) */
  /* a matrix block size larger than 32 without -pc_gpubjacobi_block_size */
  {
    Gen g40 = {0, 40, 2, PETSC_FALSE, PETSC_FALSE, -1, -1, 0};
    PetscCall(LocalRows(2, 40, 0, &nloc, &g40.N));
    PetscCall(Matrix(&g40, nloc, 40, NULL, &A));
    PetscCall(ExpectFailure(A, "inverts blocks of at most 32 rows; the matrix has block size 40. Set -pc_gpubjacobi_block_size (1..32) or use -pc_type pbjacobi"));
    PetscCall(MatDestroy(&A));
  }
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char      mode[16] = "pbj", values[16] = "dominant";
  PetscInt  bsmin = -1, bsmax = -1, nb = 12;
  PetscReal tol  = 1e-11;
  PetscBool view = PETSC_FALSE;
  size_t    mem0, mem1;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem0));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mode", mode, sizeof(mode), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-values", values, sizeof(values), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bs_min", &bsmin, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bs_max", &bsmax, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nblocks", &nb, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-view", &view, NULL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "gpubjacobi test, mode %s\n", mode));
  if (!strcmp(mode, "pbj")) PetscCall(ModePBJ(bsmin > 0 ? bsmin : 1, bsmax > 0 ? bsmax : 7, nb, (PetscBool)!strcmp(values, "random"), tol, view));
  else if (!strcmp(mode, "bj")) PetscCall(ModeBJ(bsmin > 0 ? bsmin : 8, bsmax > 0 ? bsmax : 32, nb, tol, view));
  else if (!strcmp(mode, "cg")) PetscCall(ModeCG(bsmin > 0 ? bsmin : 3, nb));
  else if (!strcmp(mode, "errors")) PetscCall(ModeErrors(nb));
  else SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-mode %s: use pbj, bj, cg or errors", mode);
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem1));
  PetscCheck(mem0 == mem1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "device memory in use went from %zu to %zu bytes", mem0, mem1);
  PetscCall(PetscFinalize());
  return 0;
}

static const char help[] = "hec products, conversions, value updates and value-changing ops against AIJ.\n"
                           "  -m <global rows> -n <global columns> -maxlen <longest ordinary row> -long <length of one very long row, 0 = none>\n"
                           "  -powerlaw: heavy-tailed row lengths (Pareto, exponent 1.5, lengths 2..200) instead of uniform ones up to maxlen;\n"
                           "             the cost model must keep the ELL part small (ELL alone would pad every row to the longest)\n"
                           "  -sparse <s>: only every s-th row has entries (the cost model picks K = 0 when s > p_r)\n"
                           "  -expect_width <K>: the ELL width the cost model must pick (every rank's diagonal block)\n"
                           "  The last rank owns no rows when run on more than one rank. Forced ELL widths 0, 1, 2, 3, 5, 8 and above the\n"
                           "  longest row, and the cost model with p_r 1.5, 20 and 1000 are tested, with new values on the same pattern at each\n"
                           "  (assembled, and on one rank written through MatSeqAIJGetArray); -gpupc_stage_bytes <b> cuts their upload into\n"
                           "  chunks of b bytes. -mat_hec_ratio and -mat_hec_ell_width apply to the directly assembled matrix.\n";

#include <petscmat.h>
#include <petscgpupc.h>
#include "gpupctest.h"

typedef struct {
  PetscInt  M, N, maxlen, longlen;
  PetscBool powerlaw;
  PetscInt  sparse;
} Problem;

/* random rows (some empty), one long row, entries also set from a neighbouring rank */
static PetscErrorCode Fill(Mat A, const Problem *p, PetscInt seed, PetscBool samepattern)
{
  PetscInt     lo, hi, *cols;
  PetscScalar *vals;
  PetscMPIInt  rank, size;
  PetscRandom  r;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)A), &rank));
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  PetscCall(MatGetOwnershipRange(A, &lo, &hi));
  PetscCall(PetscMalloc2(PetscMax(PetscMax(p->maxlen, p->longlen), 201) + 1, &cols, PetscMax(PetscMax(p->maxlen, p->longlen), 201) + 1, &vals));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &r));
  PetscCall(PetscRandomSetSeed(r, 17 + rank));
  PetscCall(PetscRandomSeed(r));
  for (PetscInt i = lo; i < hi; i++) {
    PetscInt len = (i * 7919) % (p->maxlen + 1); /* pattern depends on i only */
    if (p->powerlaw) len = (PetscInt)(2.0 * PetscPowReal(((i * 7919) % 997 + 1) / 998.0, -2.0 / 3.0));
    if (i % 5 == 3) len = 0;                     /* empty rows */
    if (p->sparse > 1 && i % p->sparse) len = 0; /* -sparse: most rows empty */
    if (i == 1 && p->longlen) len = p->longlen;  /* the very long row */
    len = PetscMin(len, p->N);
    for (PetscInt k = 0; k < len; k++) {
      PetscReal u;
      PetscCall(PetscRandomGetValueReal(r, &u));
      cols[k] = len == p->N || i == 1 ? k : (i * 31 + k * (p->N / (len + 1) + 1)) % p->N;
      vals[k] = (PetscScalar)(u - 0.5 + 0.01 * seed);
    }
    if (i < p->N && i % 5 != 3 && (p->sparse < 2 || i % p->sparse == 0)) { /* a diagonal entry on most rows */
      cols[len] = i;
      vals[len] = 4.0 + seed;
      len++;
    }
    PetscCall(MatSetValues(A, 1, &i, len, cols, vals, ADD_VALUES));
    if (!samepattern && i % 4 == 0 && (p->sparse < 2 || i % p->sparse == 0)) { /* new nonzero locations: a rebuild */
      PetscInt    c = (i * 3 + p->N / 2 + 1) % p->N;
      PetscScalar v = 0.125;
      PetscCall(MatSetValues(A, 1, &i, 1, &c, &v, ADD_VALUES));
    }
  }
  /* an entry of the next rank's first row, set from this rank (off-process stash) */
  if (size > 1) {
    PetscInt    row = ((rank + 1) % size) * 0, col = (rank * 13) % p->N;
    PetscScalar v = 0.25 * (rank + 1);
    PetscCall(MatGetOwnershipRange(A, &lo, &hi));
    row = 0; /* row 0 is owned by rank 0; every rank adds to it */
    if (!samepattern) col = (col + 7) % p->N;
    PetscCall(MatSetValues(A, 1, &row, 1, &col, &v, ADD_VALUES));
  }
  PetscCall(PetscRandomDestroy(&r));
  PetscCall(PetscFree2(cols, vals));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

static PetscErrorCode CreateMat(const Problem *p, MatType type, Mat *A)
{
  PetscMPIInt size, rank;
  PetscInt    mloc;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  /* the last rank owns no rows on more than one rank */
  mloc = size == 1 ? p->M : (rank == size - 1 ? 0 : p->M / (size - 1) + (rank < p->M % (size - 1)));
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, mloc, p->M == p->N ? mloc : PETSC_DECIDE, p->M, p->N));
  PetscCall(MatSetType(*A, type));
  PetscCall(MatSetFromOptions(*A));
  PetscCall(MatXAIJSetPreallocation(*A, 1, NULL, NULL, NULL, NULL));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscFunctionReturn(0);
}

/* all products of S against A, with vectors of type vtype */
static PetscErrorCode CompareProducts(Mat S, Mat A, VecType vtype, const char *what)
{
  Vec         x, y, ys, z, xt, yt, yts, zt;
  PetscRandom r;
  char        msg[256];
  PetscInt    M, N;

  PetscFunctionBegin;
  PetscCall(MatGetSize(A, &M, &N));
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecSetType(x, vtype));
  PetscCall(VecSetType(y, vtype));
  PetscCall(VecDuplicate(y, &ys));
  PetscCall(VecDuplicate(y, &z));
  PetscCall(VecDuplicate(y, &xt));
  PetscCall(VecDuplicate(x, &yt));
  PetscCall(VecDuplicate(x, &yts));
  PetscCall(VecDuplicate(x, &zt));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &r));
  PetscCall(VecSetRandom(x, r));
  PetscCall(VecSetRandom(z, r));
  PetscCall(VecSetRandom(xt, r));
  PetscCall(VecSetRandom(zt, r));
  PetscCall(PetscRandomDestroy(&r));

  PetscCall(MatMult(A, x, y));
  PetscCall(MatMult(S, x, ys));
  PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s: MatMult (%s vectors)", what, vtype));
  TestCheckVec(ys, y, 1e-12, msg);
  PetscCall(MatMultAdd(A, x, z, y));
  PetscCall(MatMultAdd(S, x, z, ys));
  PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s: MatMultAdd (%s vectors)", what, vtype));
  TestCheckVec(ys, y, 1e-12, msg);
  PetscCall(VecCopy(z, y));
  PetscCall(VecCopy(z, ys));
  PetscCall(MatMultAdd(A, x, y, y));
  PetscCall(MatMultAdd(S, x, ys, ys));
  PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s: MatMultAdd in place (%s vectors)", what, vtype));
  TestCheckVec(ys, y, 1e-12, msg);
  PetscCall(MatMultTranspose(A, xt, yt));
  PetscCall(MatMultTranspose(S, xt, yts));
  PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s: MatMultTranspose (%s vectors)", what, vtype));
  TestCheckVec(yts, yt, 1e-12, msg);
  PetscCall(MatMultTransposeAdd(A, xt, zt, yt));
  PetscCall(MatMultTransposeAdd(S, xt, zt, yts));
  PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s: MatMultTransposeAdd (%s vectors)", what, vtype));
  TestCheckVec(yts, yt, 1e-12, msg);
  if (M == N) {
    PetscCall(MatGetDiagonal(A, y));
    PetscCall(MatGetDiagonal(S, ys));
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s: MatGetDiagonal (%s vectors)", what, vtype));
    TestCheckVec(ys, y, 0.0, msg);
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&ys));
  PetscCall(VecDestroy(&z));
  PetscCall(VecDestroy(&xt));
  PetscCall(VecDestroy(&yt));
  PetscCall(VecDestroy(&yts));
  PetscCall(VecDestroy(&zt));
  PetscFunctionReturn(0);
}

/* a matrix made by a conversion or a duplicate built its device copy there: no product may upload its values again
   (PETSc increases the state once after the type's function) */
static PetscErrorCode CheckNoUpload(Mat S, const char *what)
{
  PetscInt builds, uploads;

  PetscFunctionBegin;
  PetscCall(MatHECGetInfo(S, NULL, &builds, &uploads));
  PetscCheck(builds == 1 && uploads == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " builds and %" PetscInt_FMT " value uploads; expected the one build of the conversion and no upload", what, builds, uploads);
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckType(Mat S, const char *what)
{
  PetscBool ok;
  MatType   t;

  PetscFunctionBegin;
  PetscCall(MatGetType(S, &t));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)S, &ok, MATSEQHEC, MATMPIHEC, ""));
  PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: type is %s, expected a hec type", what, t);
  PetscFunctionReturn(0);
}

/* the layouts tested: forced widths 0, 1, 2, 3, 5, 8 and 1000 (above every row of these problems but the long one:
   cut to the longest row), then the cost model with p_r 1.5, 20 and 1000 */
#define NVARIANTS 10
static const PetscInt  widths[NVARIANTS] = {0, 1, 2, 3, 5, 8, 1000, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE};
static const PetscReal ratios[NVARIANTS] = {20, 20, 20, 20, 20, 20, 20, 1.5, 20, 1000};

/* the rows of this rank's diagonal block of the AIJ matrix A (SEQAIJ on one rank) */
static PetscErrorCode LocalRows(Mat A, Mat *Ad)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  if (size == 1) *Ad = A;
  else PetscCall(MatMPIAIJGetSeqAIJ(A, Ad, NULL, NULL));
  PetscFunctionReturn(0);
}

/* the ELL width a hec copy of the AIJ matrix A must have on this rank (its diagonal block): Kopt cut to the longest row,
   or for Kopt < 0 the smallest minimiser of w(K) = K m + p_r sum max(0, len_i - K), found here by trying every
   candidate (w is piecewise linear with kinks at the row lengths, so its smallest minimiser is 0 or a row length);
   also the local rows, nonzeros and longest row */
static PetscErrorCode ExpectedWidth(Mat A, PetscInt Kopt, PetscReal pr, PetscInt *K, PetscInt *mloc, PetscInt *nzloc, PetscInt *maxrow)
{
  Mat             Ad;
  const PetscInt *ai;
  PetscInt        m;
  PetscBool       done;
  PetscReal       best = PETSC_MAX_REAL;

  PetscFunctionBegin;
  PetscCall(LocalRows(A, &Ad));
  PetscCall(MatGetRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, NULL, &done));
  *maxrow = 0;
  for (PetscInt i = 0; i < m; i++) *maxrow = PetscMax(*maxrow, ai[i + 1] - ai[i]);
  *mloc  = m;
  *nzloc = m ? ai[m] : 0;
  *K     = 0;
  if (Kopt >= 0) *K = PetscMin(Kopt, *maxrow);
  else {
    for (PetscInt c = -1; c < m; c++) { /* candidate 0, then every row length */
      const PetscInt k   = c < 0 ? 0 : ai[c + 1] - ai[c];
      PetscInt64     rem = 0;
      PetscReal      w;

      for (PetscInt i = 0; i < m; i++) rem += PetscMax(0, ai[i + 1] - ai[i] - k);
      w = (PetscReal)k * (PetscReal)m + pr * (PetscReal)rem;
      if (w < best || (w == best && k < *K)) {
        best = w;
        *K   = k;
      }
    }
  }
  PetscCall(MatRestoreRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, NULL, &done));
  PetscFunctionReturn(0);
}

/* layout variant v on S (same pattern as A): the width it runs must be the expected one; what names it */
static PetscErrorCode SetVariant(Mat S, Mat A, PetscInt v, char *what, size_t len)
{
  PetscInt K, want, m, nz, maxrow;

  PetscFunctionBegin;
  PetscCall(MatHECSetRatio(S, ratios[v]));
  PetscCall(MatHECSetEllWidth(S, widths[v]));
  PetscCall(MatHECGetEllWidth(S, &K));
  PetscCall(ExpectedWidth(A, widths[v], ratios[v], &want, &m, &nz, &maxrow));
  PetscCheck(K == want, PETSC_COMM_SELF, PETSC_ERR_PLIB, "ELL width %" PetscInt_FMT " with p_r %g and -mat_hec_ell_width %" PetscInt_FMT " (%" PetscInt_FMT " rows, longest %" PetscInt_FMT "); expected %" PetscInt_FMT, K, (double)ratios[v], widths[v], m, maxrow, want);
  PetscCall(PetscSNPrintf(what, len, "K = %" PetscInt_FMT " (%s, p_r %g)", K, widths[v] >= 0 ? "forced" : "cost model", (double)ratios[v]));
  PetscFunctionReturn(0);
}

/* back to the cost model with p_r pr */
static PetscErrorCode ResetVariant(Mat S, PetscReal pr)
{
  PetscFunctionBegin;
  PetscCall(MatHECSetRatio(S, pr));
  PetscCall(MatHECSetEllWidth(S, PETSC_DECIDE));
  PetscFunctionReturn(0);
}

/* new values on the same pattern for every layout variant: S and A are assembled again with new values (a value upload
   at MatAssemblyEnd, no rebuild), and on one rank also written through MatSeqAIJGetArray (uploaded at the next product,
   once); the products must equal AIJ's. The values reach the device in chunks of -gpupc_stage_bytes, laid into the ELL
   and remainder slots there. */
static PetscErrorCode CheckValueUpdates(Mat S, Mat A, const Problem *p)
{
  PetscMPIInt size;
  PetscReal   pr;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(MatHECGetRatio(S, &pr));
  for (PetscInt l = 0; l < NVARIANTS; l++) {
    PetscInt b0, u0, b1, u1;
    char     lay[64], what[128];

    PetscCall(SetVariant(S, A, l, lay, sizeof(lay)));
    PetscCall(MatHECGetInfo(S, NULL, &b0, &u0));
    PetscCall(MatZeroEntries(A));
    PetscCall(MatZeroEntries(S));
    PetscCall(Fill(A, p, 10 + l, PETSC_TRUE));
    PetscCall(Fill(S, p, 10 + l, PETSC_TRUE));
    PetscCall(MatHECGetInfo(S, NULL, &b1, &u1));
    PetscCheck(b1 == b0 && u1 > u0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s, same-pattern assembly: builds %" PetscInt_FMT " -> %" PetscInt_FMT ", uploads %" PetscInt_FMT " -> %" PetscInt_FMT "; expected value uploads only", lay, b0, b1, u0, u1);
    PetscCall(PetscSNPrintf(what, sizeof(what), "new values by assembly, %s", lay));
    PetscCall(CompareProducts(S, A, VECGPU, what));
    if (size == 1) { /* PETSc 3.18's MatMPIAIJGetSeqAIJ refuses derived types: the arrays on one rank only */
      PetscScalar *as, *aa;
      MatInfo      info;
      PetscInt     u2;

      PetscCall(MatGetInfo(A, MAT_LOCAL, &info));
      PetscCall(MatHECGetInfo(S, NULL, &b0, &u0)); /* (syncs the device copy: before the values change) */
      PetscCall(MatSeqAIJGetArray(S, &as));
      PetscCall(MatSeqAIJGetArray(A, &aa));
      for (PetscInt q = 0; q < (PetscInt)info.nz_used; q++) as[q] = aa[q] = (PetscScalar)((q * 7919 + l) % 101) / 50.0 - 1.0;
      PetscCall(MatSeqAIJRestoreArray(A, &aa));
      PetscCall(MatSeqAIJRestoreArray(S, &as));
      PetscCall(PetscSNPrintf(what, sizeof(what), "new values through MatSeqAIJGetArray, %s", lay));
      PetscCall(CompareProducts(S, A, VECGPU, what));
      PetscCall(MatHECGetInfo(S, NULL, &b1, &u2));
      PetscCheck(b1 == b0 && u2 == u0 + 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s, values written through the array: builds %" PetscInt_FMT " -> %" PetscInt_FMT ", uploads %" PetscInt_FMT " -> %" PetscInt_FMT "; expected one value upload", lay, b0, b1, u0, u2);
    }
  }
  PetscCall(ResetVariant(S, pr));
  PetscFunctionReturn(0);
}

/* the ascii_info view of S names its ELL width, fill and remainder (rank 0's text) */
static PetscErrorCode CheckView(Mat S)
{
  PetscInt    K;
  PetscMPIInt rank;
  PetscViewer viewer;
  FILE       *fp;
  char        want[3][64];

  PetscFunctionBegin;
  PetscCall(MatHECGetEllWidth(S, &K));
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)S), &rank));
  fp = tmpfile();
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "tmpfile() failed");
  PetscCall(PetscViewerASCIIOpenWithFILE(PetscObjectComm((PetscObject)S), fp, &viewer)); /* rank 0 writes */
  PetscCall(PetscViewerPushFormat(viewer, PETSC_VIEWER_ASCII_INFO));
  PetscCall(MatView(S, viewer));
  PetscCall(PetscViewerPopFormat(viewer));
  PetscCall(PetscViewerDestroy(&viewer)); /* leaves fp open */
  PetscCall(PetscSNPrintf(want[0], sizeof(want[0]), "ELL width K %" PetscInt_FMT " (", K));
  PetscCall(PetscStrncpy(want[1], "ELL fill ", sizeof(want[1])));
  PetscCall(PetscStrncpy(want[2], "% of nnz", sizeof(want[2])));
  if (!rank) {
    char   text[16384];
    size_t len;

    rewind(fp);
    len       = fread(text, 1, sizeof(text) - 1, fp);
    text[len] = 0;
    for (PetscInt w = 0; w < 3; w++) {
      char *found = NULL;
      PetscCall(PetscStrstr(text, want[w], &found));
      PetscCheck(found, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the ascii_info view does not say \"%s\":\n%s", want[w], text);
    }
  }
  fclose(fp);
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Problem   p = {600, 600, 12, 0, PETSC_FALSE, 0};
  Mat       A, S, S2, B, C;
  size_t    mem0, mem1;
  PetscInt  K, b0, u0, b1, u1, expect = -1;
  PetscReal pr;
  PetscBool square;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-m", &p.M, NULL));
  p.N = p.M;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &p.N, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-maxlen", &p.maxlen, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-long", &p.longlen, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-powerlaw", &p.powerlaw, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-sparse", &p.sparse, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-expect_width", &expect, NULL));
  square = (PetscBool)(p.M == p.N);
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem0));

  /* reference AIJ and a hec assembled directly (MatSetType; the -mat_hec_ options apply) */
  PetscCall(CreateMat(&p, MATAIJ, &A));
  PetscCall(Fill(A, &p, 0, PETSC_TRUE));
  PetscCall(CreateMat(&p, MATHEC, &S));
  PetscCall(CheckType(S, "MatSetType(hec)"));
  PetscCall(Fill(S, &p, 0, PETSC_TRUE));
  PetscCall(MatHECGetRatio(S, &pr));
  {
    PetscInt  want, m, nz, maxrow, Kopt = PETSC_DECIDE;
    PetscBool set;

    PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_hec_ell_width", &Kopt, &set));
    PetscCall(MatHECGetEllWidth(S, &K));
    PetscCall(ExpectedWidth(A, Kopt, pr, &want, &m, &nz, &maxrow));
    PetscCheck(K == want, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the assembled hec runs ELL width %" PetscInt_FMT ", expected %" PetscInt_FMT " (p_r %g)", K, want, (double)pr);
    PetscCheck(expect < 0 || m == 0 || K == expect, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-expect_width %" PetscInt_FMT ": the cost model picked %" PetscInt_FMT " (%" PetscInt_FMT " rows, longest %" PetscInt_FMT ")", expect, K, m, maxrow);
    /* a heavy tail: the ELL part must stay within 4 slots per nonzero, where ELL alone would hold m x (longest row) slots */
    PetscCheck(!p.powerlaw || (PetscInt64)K * m <= 4 * (PetscInt64)nz, PETSC_COMM_SELF, PETSC_ERR_PLIB, "power-law rows: ELL width %" PetscInt_FMT " x %" PetscInt_FMT " rows exceeds 4 x the %" PetscInt_FMT " nonzeros", K, m, nz);
    PetscCheck(!p.powerlaw || m == 0 || maxrow > 4 * K, PETSC_COMM_SELF, PETSC_ERR_PLIB, "power-law rows: ELL width %" PetscInt_FMT " is not far below the longest row %" PetscInt_FMT, K, maxrow);
    PetscCall(PetscSynchronizedPrintf(PETSC_COMM_WORLD, "[%d] ELL width %" PetscInt_FMT " (p_r %g): %" PetscInt_FMT " rows, %" PetscInt_FMT " nonzeros, longest row %" PetscInt_FMT "\n", (int)PetscGlobalRank, K, (double)pr, m, nz, maxrow));
    PetscCall(PetscSynchronizedFlush(PETSC_COMM_WORLD, PETSC_STDOUT));
  }
  PetscCall(MatViewFromOptions(S, NULL, "-hec_view"));
  PetscCall(CheckView(S));
  PetscCall(CompareProducts(S, A, VECGPU, "assembled hec, options' layout"));
  for (PetscInt v = 0; v < NVARIANTS; v++) {
    char lay[64], what[128];

    PetscCall(SetVariant(S, A, v, lay, sizeof(lay)));
    PetscCall(PetscSNPrintf(what, sizeof(what), "assembled hec, %s", lay));
    PetscCall(CompareProducts(S, A, VECGPU, what));
    PetscCall(CompareProducts(S, A, VECSTANDARD, what));
  }
  PetscCall(ResetVariant(S, pr));

  /* invalid ratios and widths are refused (bad -mat_hec_ratio / -mat_hec_ell_width values: tests/hec_badoption.sh) */
  {
    const PetscReal badratios[] = {0.0, -1.0};
    PetscErrorCode  ierr;

    for (PetscInt q = 0; q < 2; q++) {
      PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
      ierr = MatHECSetRatio(S, badratios[q]);
      PetscCall(PetscPopErrorHandler());
      PetscCheck(ierr == PETSC_ERR_ARG_OUTOFRANGE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "ratio %g was not refused (error %d)", (double)badratios[q], (int)ierr);
    }
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = MatHECSetEllWidth(S, -2);
    PetscCall(PetscPopErrorHandler());
    PetscCheck(ierr == PETSC_ERR_ARG_OUTOFRANGE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "ELL width -2 was not refused (error %d)", (int)ierr);
  }

  /* same pattern, new values: value upload only */
  PetscCall(MatHECGetInfo(S, NULL, &b0, &u0));
  PetscCall(MatZeroEntries(A));
  PetscCall(MatZeroEntries(S));
  PetscCall(Fill(A, &p, 1, PETSC_TRUE));
  PetscCall(Fill(S, &p, 1, PETSC_TRUE));
  PetscCall(MatHECGetInfo(S, NULL, &b1, &u1));
  PetscCheck(b1 == b0 && u1 > u0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "same-pattern update: builds %" PetscInt_FMT " -> %" PetscInt_FMT ", uploads %" PetscInt_FMT " -> %" PetscInt_FMT "; expected a value upload only", b0, b1, u0, u1);
  PetscCall(CompareProducts(S, A, VECGPU, "after a same-pattern update"));
  {
    PetscInt u2;
    PetscCall(MatHECGetInfo(S, NULL, NULL, &u2));
    PetscCheck(u2 == u1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "products after an assembly uploaded the values again (%" PetscInt_FMT " -> %" PetscInt_FMT " uploads)", u1, u2);
  }
  PetscCall(CheckValueUpdates(S, A, &p));
  /* new pattern: rebuild */
  PetscCall(Fill(A, &p, 2, PETSC_FALSE));
  PetscCall(Fill(S, &p, 2, PETSC_FALSE));
  PetscCall(MatHECGetInfo(S, NULL, &b1, NULL));
  PetscCheck(b1 > b0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "pattern change did not rebuild (builds %" PetscInt_FMT " -> %" PetscInt_FMT ")", b0, b1);
  PetscCall(CompareProducts(S, A, VECGPU, "after a pattern change"));

  /* conversions from AIJ: all three reuse modes */
  PetscCall(MatConvert(A, MATHEC, MAT_INITIAL_MATRIX, &S2));
  PetscCall(CheckType(S2, "MatConvert(aij, hec, MAT_INITIAL_MATRIX)"));
  PetscCall(CompareProducts(S2, A, VECGPU, "converted (initial)"));
  PetscCall(CheckNoUpload(S2, "converted (initial)"));
  PetscCall(MatScale(A, 2.0));
  PetscCall(MatConvert(A, MATHEC, MAT_REUSE_MATRIX, &S2));
  PetscCall(CompareProducts(S2, A, VECGPU, "converted (reuse)"));
  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &B));
  PetscCall(MatConvert(B, MATHEC, MAT_INPLACE_MATRIX, &B));
  PetscCall(CheckType(B, "MatConvert(aij, hec, MAT_INPLACE_MATRIX)"));
  PetscCall(CompareProducts(B, A, VECSTANDARD, "converted (in place)"));
  PetscCall(CompareProducts(B, A, VECGPU, "converted (in place)"));
  PetscCall(CheckNoUpload(B, "converted (in place)"));
  PetscCall(MatScale(B, 2.0)); /* one state increase after the conversion's: the device copy must follow */
  PetscCall(MatScale(A, 2.0));
  PetscCall(CompareProducts(B, A, VECGPU, "converted (in place), then MatScale"));
  PetscCall(MatScale(B, 0.5));
  PetscCall(MatScale(A, 0.5));
  /* and back to AIJ */
  PetscCall(MatConvert(B, MATAIJ, MAT_INITIAL_MATRIX, &C));
  {
    PetscBool isaij;
    MatType   t;
    PetscCall(MatGetType(C, &t));
    PetscCall(PetscObjectTypeCompareAny((PetscObject)C, &isaij, MATSEQAIJ, MATMPIAIJ, ""));
    PetscCheck(isaij, PETSC_COMM_SELF, PETSC_ERR_PLIB, "hec -> aij gave type %s", t);
  }
  PetscCall(CompareProducts(C, A, VECSTANDARD, "converted back to aij (initial)"));
  PetscCall(MatScale(B, 0.5));
  PetscCall(MatScale(A, 0.5));
  PetscCall(MatConvert(B, MATAIJ, MAT_REUSE_MATRIX, &C));
  PetscCall(CompareProducts(C, A, VECSTANDARD, "converted back to aij (reuse)"));
  PetscCall(MatDestroy(&C));
  PetscCall(MatConvert(B, MATAIJ, MAT_INPLACE_MATRIX, &B));
  PetscCall(CompareProducts(B, A, VECSTANDARD, "converted back to aij (in place)"));
  PetscCall(MatDestroy(&B));

  /* value-changing operations: the device copy follows the host (S2 was converted from 2 A) */
  PetscCall(MatScale(S2, 0.5));
  PetscCall(MatScale(A, -1.5));
  PetscCall(MatScale(S2, -1.5));
  PetscCall(CompareProducts(S2, A, VECGPU, "MatScale"));
  if (square) {
    PetscCall(MatShift(A, 3.0));
    PetscCall(MatShift(S2, 3.0));
    PetscCall(CompareProducts(S2, A, VECGPU, "MatShift"));
  }
  {
    Vec l, r;
    PetscCall(MatCreateVecs(A, &r, &l));
    PetscCall(VecSetRandom(l, NULL));
    PetscCall(VecSetRandom(r, NULL));
    PetscCall(MatDiagonalScale(A, l, r));
    PetscCall(MatDiagonalScale(S2, l, r));
    PetscCall(CompareProducts(S2, A, VECGPU, "MatDiagonalScale"));
    PetscCall(VecDestroy(&l));
    PetscCall(VecDestroy(&r));
  }
  PetscCall(MatDuplicate(S2, MAT_COPY_VALUES, &B));
  PetscCall(CheckType(B, "MatDuplicate"));
  PetscCall(CompareProducts(B, A, VECGPU, "MatDuplicate"));
  PetscCall(CheckNoUpload(B, "MatDuplicate"));
  PetscCall(MatAXPY(B, 2.0, S2, SAME_NONZERO_PATTERN));
  PetscCall(MatAXPY(S2, 2.0, S2, SAME_NONZERO_PATTERN)); /* S2 = 3 S2 */
  PetscCall(MatScale(A, 3.0));
  PetscCall(CompareProducts(B, A, VECGPU, "MatAXPY (same pattern)"));
  PetscCall(CompareProducts(S2, A, VECGPU, "MatAXPY onto itself"));
  PetscCall(MatAXPY(B, 1.0, S, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatAXPY(A, 1.0, S, DIFFERENT_NONZERO_PATTERN));
  PetscCall(CheckType(B, "MatAXPY (different pattern)"));
  PetscCall(CompareProducts(B, A, VECGPU, "MatAXPY (different pattern)"));
  PetscCall(MatCopy(A, B, SAME_NONZERO_PATTERN));
  PetscCall(CompareProducts(B, A, VECGPU, "MatCopy from aij"));
  PetscCall(MatZeroEntries(B));
  PetscCall(MatZeroEntries(A));
  PetscCall(CompareProducts(B, A, VECGPU, "MatZeroEntries"));
  /* values written through the AIJ array (one rank: PETSc 3.18's MatMPIAIJGetSeqAIJ refuses derived types) */
  if (PETSC_TRUE) {
    PetscMPIInt sz;
    PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &sz));
    if (sz > 1) goto skiparray;
  }
  {
    Mat          Bl = B;
    PetscScalar *a;
    PetscInt     nz;
    PetscCall(MatSeqAIJGetArray(Bl, &a));
    PetscCall(MatGetRowIJ(Bl, 0, PETSC_FALSE, PETSC_FALSE, &nz, NULL, NULL, NULL));
    PetscCall(MatRestoreRowIJ(Bl, 0, PETSC_FALSE, PETSC_FALSE, &nz, NULL, NULL, NULL));
    {
      MatInfo info;
      PetscCall(MatGetInfo(Bl, MAT_LOCAL, &info));
      for (PetscInt k = 0; k < (PetscInt)info.nz_used; k++) a[k] = 1.0 + k % 3;
    }
    PetscCall(MatSeqAIJRestoreArray(Bl, &a));
    PetscCall(MatCopy(B, A, DIFFERENT_NONZERO_PATTERN));
    PetscCall(CompareProducts(B, A, VECGPU, "values written with MatSeqAIJGetArray"));
  }
skiparray:
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&S2));
  PetscCall(MatDestroy(&S));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem1));
  PetscCheck(mem0 == mem1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "device memory in use went from %zu to %zu bytes", mem0, mem1);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hec_mult: all checks passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}

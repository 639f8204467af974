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

#include "matmulttest.h"

static const MatMultTestType T = {"hec", MATHEC, MATSEQHEC, MATMPIHEC, MatHECGetInfo};

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
  PetscReal pr;

  PetscFunctionBegin;
  PetscCall(MatHECGetRatio(S, &pr));
  for (PetscInt l = 0; l < NVARIANTS; l++) {
    char lay[64];

    PetscCall(SetVariant(S, A, l, lay, sizeof(lay)));
    PetscCall(CheckValueUpdate(&T, S, A, p, l, lay));
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
  Mat       A, S;
  size_t    mem0;
  PetscInt  K, expect = -1;
  PetscReal pr;

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
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem0));

  /* reference AIJ and a hec assembled directly (MatSetType; the -mat_hec_ options apply) */
  PetscCall(CreateMat(&p, MATAIJ, &A));
  PetscCall(Fill(A, &p, 0, PETSC_TRUE));
  PetscCall(CreateMat(&p, MATHEC, &S));
  PetscCall(CheckType(&T, S, "MatSetType(hec)"));
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

  PetscCall(CheckUpdatesAndConversions(&T, &S, &A, &p, mem0, CheckValueUpdates));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hec_mult: all checks passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}

static const char help[] = "segcsr products, conversions, value updates and value-changing ops against AIJ.\n"
                           "  -m <global rows> -n <global columns> -maxlen <longest ordinary row> -long <length of one very long row, 0 = none>\n"
                           "  -powerlaw: heavy-tailed row lengths (Pareto, exponent 1.5, lengths 2..200) instead of uniform ones up to maxlen\n"
                           "  The last rank owns no rows when run on more than one rank. Every segment length 1..32 is tested.\n"
                           "  -mat_segcsr_short <auto,group,tile>: the short-row mode of the directly assembled matrix (checked with the view).\n"
                           "  New values on the same pattern at every L (assembled, and on one rank written through MatSeqAIJGetArray);\n"
                           "  -gpupc_stage_bytes <b> cuts their upload into chunks of b bytes.\n";

#include <petscmat.h>
#include <petscgpupc.h>
#include "gpupctest.h"

typedef struct {
  PetscInt  M, N, maxlen, longlen;
  PetscBool powerlaw;
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
    if (i % 5 == 3) len = 0;                    /* empty rows */
    if (i == 1 && p->longlen) len = p->longlen; /* the very long row */
    len = PetscMin(len, p->N);
    for (PetscInt k = 0; k < len; k++) {
      PetscReal u;
      PetscCall(PetscRandomGetValueReal(r, &u));
      cols[k] = len == p->N || i == 1 ? k : (i * 31 + k * (p->N / (len + 1) + 1)) % p->N;
      vals[k] = (PetscScalar)(u - 0.5 + 0.01 * seed);
    }
    if (i < p->N && i % 5 != 3) { /* a diagonal entry on most rows */
      cols[len] = i;
      vals[len] = 4.0 + seed;
      len++;
    }
    PetscCall(MatSetValues(A, 1, &i, len, cols, vals, ADD_VALUES));
    if (!samepattern && i % 4 == 0) { /* new nonzero locations: a rebuild */
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
   (PETSc increases the state once after the type's function: seqsegcsr.c, SeqSegCSRSync) */
static PetscErrorCode CheckNoUpload(Mat S, const char *what)
{
  PetscInt builds, uploads;

  PetscFunctionBegin;
  PetscCall(MatSegCSRGetInfo(S, NULL, &builds, &uploads));
  PetscCheck(builds == 1 && uploads == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " builds and %" PetscInt_FMT " value uploads; expected the one build of the conversion and no upload", what, builds, uploads);
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckType(Mat S, const char *what)
{
  PetscBool ok;
  MatType   t;

  PetscFunctionBegin;
  PetscCall(MatGetType(S, &t));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)S, &ok, MATSEQSEGCSR, MATMPISEGCSR, ""));
  PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: type is %s, expected a segcsr type", what, t);
  PetscFunctionReturn(0);
}

/* new values on the same pattern for every segment length (the short-row mode of the options, the bins of the
   problem): S and A are assembled again with new values (a value upload at MatAssemblyEnd, no rebuild), and on one rank
   also written through MatSeqAIJGetArray (uploaded at the next product, once); the products must equal AIJ's. The
   values reach the device in chunks of -gpupc_stage_bytes, laid into the layout there. */
static PetscErrorCode CheckValueUpdates(Mat S, Mat A, const Problem *p)
{
  const PetscInt Ls[] = {1, 2, 4, 8, 16, 32};
  PetscMPIInt    size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  for (PetscInt l = 0; l < 6; l++) {
    PetscInt b0, u0, b1, u1;
    char     what[128];

    PetscCall(MatSegCSRSetSegmentLength(S, Ls[l]));
    PetscCall(TestCheckSegCSRShortMode(S));
    PetscCall(MatSegCSRGetInfo(S, NULL, &b0, &u0));
    PetscCall(MatZeroEntries(A));
    PetscCall(MatZeroEntries(S));
    PetscCall(Fill(A, p, 10 + l, PETSC_TRUE));
    PetscCall(Fill(S, p, 10 + l, PETSC_TRUE));
    PetscCall(MatSegCSRGetInfo(S, NULL, &b1, &u1));
    PetscCheck(b1 == b0 && u1 > u0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "L = %" PetscInt_FMT ", same-pattern assembly: builds %" PetscInt_FMT " -> %" PetscInt_FMT ", uploads %" PetscInt_FMT " -> %" PetscInt_FMT "; expected value uploads only", Ls[l], b0, b1, u0, u1);
    PetscCall(PetscSNPrintf(what, sizeof(what), "new values by assembly, L = %" PetscInt_FMT, Ls[l]));
    PetscCall(CompareProducts(S, A, VECGPU, what));
    if (size == 1) { /* PETSc 3.18's MatMPIAIJGetSeqAIJ refuses derived types: the arrays on one rank only */
      PetscScalar *as, *aa;
      MatInfo      info;
      PetscInt     u2;

      PetscCall(MatGetInfo(A, MAT_LOCAL, &info));
      PetscCall(MatSegCSRGetInfo(S, NULL, &b0, &u0)); /* (syncs the device copy: before the values change) */
      PetscCall(MatSeqAIJGetArray(S, &as));
      PetscCall(MatSeqAIJGetArray(A, &aa));
      for (PetscInt q = 0; q < (PetscInt)info.nz_used; q++) as[q] = aa[q] = (PetscScalar)((q * 7919 + l) % 101) / 50.0 - 1.0;
      PetscCall(MatSeqAIJRestoreArray(A, &aa));
      PetscCall(MatSeqAIJRestoreArray(S, &as));
      PetscCall(PetscSNPrintf(what, sizeof(what), "new values through MatSeqAIJGetArray, L = %" PetscInt_FMT, Ls[l]));
      PetscCall(CompareProducts(S, A, VECGPU, what));
      PetscCall(MatSegCSRGetInfo(S, NULL, &b1, &u2));
      PetscCheck(b1 == b0 && u2 == u0 + 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "L = %" PetscInt_FMT ", values written through the array: builds %" PetscInt_FMT " -> %" PetscInt_FMT ", uploads %" PetscInt_FMT " -> %" PetscInt_FMT "; expected one value upload", Ls[l], b0, b1, u0, u2);
    }
  }
  PetscCall(MatSegCSRSetSegmentLength(S, 0));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Problem   p = {600, 600, 12, 0, PETSC_FALSE};
  Mat       A, S, S2, B, C;
  size_t    mem0, mem1;
  PetscInt  L, b0, u0, b1, u1, Ls[] = {1, 2, 4, 8, 16, 32};
  PetscBool square;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-m", &p.M, NULL));
  p.N = p.M;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &p.N, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-maxlen", &p.maxlen, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-long", &p.longlen, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-powerlaw", &p.powerlaw, NULL));
  square = (PetscBool)(p.M == p.N);
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem0));

  /* reference AIJ and a segcsr assembled directly (MatSetType) */
  PetscCall(CreateMat(&p, MATAIJ, &A));
  PetscCall(Fill(A, &p, 0, PETSC_TRUE));
  PetscCall(CreateMat(&p, MATSEGCSR, &S));
  PetscCall(CheckType(S, "MatSetType(segcsr)"));
  PetscCall(Fill(S, &p, 0, PETSC_TRUE));
  PetscCall(MatSegCSRGetInfo(S, &L, NULL, NULL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "default segment length %" PetscInt_FMT "\n", L));
  PetscCall(MatViewFromOptions(S, NULL, "-segcsr_view"));
  for (PetscInt k = 0; k < 6; k++) {
    char what[64];
    PetscCall(MatSegCSRSetSegmentLength(S, Ls[k]));
    PetscCall(MatSegCSRGetInfo(S, &L, NULL, NULL));
    PetscCheck(L == Ls[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "segment length %" PetscInt_FMT " was asked, %" PetscInt_FMT " is used", Ls[k], L);
    PetscCall(TestCheckSegCSRShortMode(S)); /* the mode survives the re-layout */
    PetscCall(PetscSNPrintf(what, sizeof(what), "assembled segcsr, L = %" PetscInt_FMT, L));
    PetscCall(CompareProducts(S, A, VECGPU, what));
    PetscCall(CompareProducts(S, A, VECSTANDARD, what));
  }
  PetscCall(MatSegCSRSetSegmentLength(S, 0));

  /* invalid segment length is refused */
  {
    PetscErrorCode ierr;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = MatSegCSRSetSegmentLength(S, 3);
    PetscCall(PetscPopErrorHandler());
    PetscCheck(ierr == PETSC_ERR_ARG_OUTOFRANGE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "segment length 3 was not refused (error %d)", (int)ierr);
  }
  /* an invalid short-row mode is refused (a bad -mat_segcsr_short value: tests/segcsr_badoption.sh) */
  {
    PetscErrorCode ierr;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = MatSegCSRSetShortMode(S, (MatSegCSRShortMode)7);
    PetscCall(PetscPopErrorHandler());
    PetscCheck(ierr == PETSC_ERR_ARG_OUTOFRANGE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "short-row mode 7 was not refused (error %d)", (int)ierr);
  }

  /* same pattern, new values: value upload only */
  PetscCall(MatSegCSRGetInfo(S, NULL, &b0, &u0));
  PetscCall(MatZeroEntries(A));
  PetscCall(MatZeroEntries(S));
  PetscCall(Fill(A, &p, 1, PETSC_TRUE));
  PetscCall(Fill(S, &p, 1, PETSC_TRUE));
  PetscCall(MatSegCSRGetInfo(S, NULL, &b1, &u1));
  PetscCheck(b1 == b0 && u1 > u0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "same-pattern update: builds %" PetscInt_FMT " -> %" PetscInt_FMT ", uploads %" PetscInt_FMT " -> %" PetscInt_FMT "; expected a value upload only", b0, b1, u0, u1);
  PetscCall(CompareProducts(S, A, VECGPU, "after a same-pattern update"));
  {
    PetscInt u2;
    PetscCall(MatSegCSRGetInfo(S, NULL, NULL, &u2));
    PetscCheck(u2 == u1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "products after an assembly uploaded the values again (%" PetscInt_FMT " -> %" PetscInt_FMT " uploads)", u1, u2);
  }
  PetscCall(CheckValueUpdates(S, A, &p));
  /* new pattern: rebuild */
  PetscCall(Fill(A, &p, 2, PETSC_FALSE));
  PetscCall(Fill(S, &p, 2, PETSC_FALSE));
  PetscCall(MatSegCSRGetInfo(S, NULL, &b1, NULL));
  PetscCheck(b1 > b0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "pattern change did not rebuild (builds %" PetscInt_FMT " -> %" PetscInt_FMT ")", b0, b1);
  PetscCall(CompareProducts(S, A, VECGPU, "after a pattern change"));

  /* conversions from AIJ: all three reuse modes */
  PetscCall(MatConvert(A, MATSEGCSR, MAT_INITIAL_MATRIX, &S2));
  PetscCall(CheckType(S2, "MatConvert(aij, segcsr, MAT_INITIAL_MATRIX)"));
  PetscCall(CompareProducts(S2, A, VECGPU, "converted (initial)"));
  PetscCall(CheckNoUpload(S2, "converted (initial)"));
  PetscCall(MatScale(A, 2.0));
  PetscCall(MatConvert(A, MATSEGCSR, MAT_REUSE_MATRIX, &S2));
  PetscCall(CompareProducts(S2, A, VECGPU, "converted (reuse)"));
  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &B));
  PetscCall(MatConvert(B, MATSEGCSR, MAT_INPLACE_MATRIX, &B));
  PetscCall(CheckType(B, "MatConvert(aij, segcsr, MAT_INPLACE_MATRIX)"));
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
    PetscCheck(isaij, PETSC_COMM_SELF, PETSC_ERR_PLIB, "segcsr -> aij gave type %s", t);
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
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "segcsr_mult: all checks passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}

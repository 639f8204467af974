/*
   Helpers of the tests that compare a GPUPC Mat type over device blocks with AIJ (segcsr_mult, hec_mult): the
   problem and its assembly, the products compared, and the checks every such type must pass alike (value updates
   and pattern changes, the conversions in all reuse modes, the value-changing operations, MatDuplicate). A test
   names its type in a MatMultTestType.
*/
#ifndef MATMULTTEST_H
#define MATMULTTEST_H

#include <petscmat.h>
#include <petscgpupc.h>
#include "gpupctest.h"

typedef struct {
  PetscInt  M, N, maxlen, longlen;
  PetscBool powerlaw;
  PetscInt  sparse; /* > 1: only every sparse-th row has entries */
} Problem;

/* the type under test */
typedef struct {
  const char *name;                                                /* "segcsr": messages */
  MatType     type;                                                /* the root type name (MatSetType, MatConvert) */
  MatType     seqtype, mpitype;                                    /* what the matrices must be */
  PetscErrorCode (*info)(Mat, PetscInt *, PetscInt *, PetscInt *); /* (layout parameter,) builds and value uploads of the device copy */
} MatMultTestType;

/* random rows (some empty), one long row, entries also set from a neighbouring rank */
static inline PetscErrorCode Fill(Mat A, const Problem *p, PetscInt seed, PetscBool samepattern)
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

static inline PetscErrorCode CreateMat(const Problem *p, MatType type, Mat *A)
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
static inline PetscErrorCode CompareProducts(Mat S, Mat A, VecType vtype, const char *what)
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
static inline PetscErrorCode CheckNoUpload(const MatMultTestType *T, Mat S, const char *what)
{
  PetscInt builds, uploads;

  PetscFunctionBegin;
  PetscCall(T->info(S, NULL, &builds, &uploads));
  PetscCheck(builds == 1 && uploads == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " builds and %" PetscInt_FMT " value uploads; expected the one build of the conversion and no upload", what, builds, uploads);
  PetscFunctionReturn(0);
}

static inline PetscErrorCode CheckType(const MatMultTestType *T, Mat S, const char *what)
{
  PetscBool ok;
  MatType   t;

  PetscFunctionBegin;
  PetscCall(MatGetType(S, &t));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)S, &ok, T->seqtype, T->mpitype, ""));
  PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: type is %s, expected a %s type", what, t, T->name);
  PetscFunctionReturn(0);
}

/* new values on the same pattern in the layout lay (seed 10 + l): S and A are assembled again with new values (a value
   upload at MatAssemblyEnd, no rebuild), and on one rank also written through MatSeqAIJGetArray (uploaded at the next
   product, once); the products must equal AIJ's. The values reach the device in chunks of -gpupc_stage_bytes, laid into
   the layout there. */
static inline PetscErrorCode CheckValueUpdate(const MatMultTestType *T, Mat S, Mat A, const Problem *p, PetscInt l, const char *lay)
{
  PetscMPIInt size;
  PetscInt    b0, u0, b1, u1;
  char        what[128];

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(T->info(S, NULL, &b0, &u0));
  PetscCall(MatZeroEntries(A));
  PetscCall(MatZeroEntries(S));
  PetscCall(Fill(A, p, 10 + l, PETSC_TRUE));
  PetscCall(Fill(S, p, 10 + l, PETSC_TRUE));
  PetscCall(T->info(S, NULL, &b1, &u1));
  PetscCheck(b1 == b0 && u1 > u0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s, same-pattern assembly: builds %" PetscInt_FMT " -> %" PetscInt_FMT ", uploads %" PetscInt_FMT " -> %" PetscInt_FMT "; expected value uploads only", lay, b0, b1, u0, u1);
  PetscCall(PetscSNPrintf(what, sizeof(what), "new values by assembly, %s", lay));
  PetscCall(CompareProducts(S, A, VECGPU, what));
  if (size == 1) { /* PETSc 3.18's MatMPIAIJGetSeqAIJ refuses derived types: the arrays on one rank only */
    PetscScalar *as, *aa;
    MatInfo      info;
    PetscInt     u2;

    PetscCall(MatGetInfo(A, MAT_LOCAL, &info));
    PetscCall(T->info(S, NULL, &b0, &u0)); /* (syncs the device copy: before the values change) */
    PetscCall(MatSeqAIJGetArray(S, &as));
    PetscCall(MatSeqAIJGetArray(A, &aa));
    for (PetscInt q = 0; q < (PetscInt)info.nz_used; q++) as[q] = aa[q] = (PetscScalar)((q * 7919 + l) % 101) / 50.0 - 1.0;
    PetscCall(MatSeqAIJRestoreArray(A, &aa));
    PetscCall(MatSeqAIJRestoreArray(S, &as));
    PetscCall(PetscSNPrintf(what, sizeof(what), "new values through MatSeqAIJGetArray, %s", lay));
    PetscCall(CompareProducts(S, A, VECGPU, what));
    PetscCall(T->info(S, NULL, &b1, &u2));
    PetscCheck(b1 == b0 && u2 == u0 + 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s, values written through the array: builds %" PetscInt_FMT " -> %" PetscInt_FMT ", uploads %" PetscInt_FMT " -> %" PetscInt_FMT "; expected one value upload", lay, b0, b1, u0, u2);
  }
  PetscFunctionReturn(0);
}

/* after S (assembled directly, of type T) and A (AIJ) hold the same matrix: value updates on the same pattern (and
   valueupdates, the type's own over its layouts), a pattern change, the conversions from and to AIJ in all reuse
   modes, the value-changing operations, MatDuplicate, MatAXPY, MatCopy, MatZeroEntries and values written through the
   AIJ array, each compared with AIJ; then S and A are destroyed and the device memory in use must be mem0 again */
static inline PetscErrorCode CheckUpdatesAndConversions(const MatMultTestType *T, Mat *Sp, Mat *Ap, const Problem *p, size_t mem0, PetscErrorCode (*valueupdates)(Mat, Mat, const Problem *))
{
  Mat       S = *Sp, A = *Ap, S2, B, C;
  PetscInt  b0, u0, b1, u1;
  PetscBool square = (PetscBool)(p->M == p->N);
  size_t    mem1;

  PetscFunctionBegin;
  /* same pattern, new values: value upload only */
  PetscCall(T->info(S, NULL, &b0, &u0));
  PetscCall(MatZeroEntries(A));
  PetscCall(MatZeroEntries(S));
  PetscCall(Fill(A, p, 1, PETSC_TRUE));
  PetscCall(Fill(S, p, 1, PETSC_TRUE));
  PetscCall(T->info(S, NULL, &b1, &u1));
  PetscCheck(b1 == b0 && u1 > u0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "same-pattern update: builds %" PetscInt_FMT " -> %" PetscInt_FMT ", uploads %" PetscInt_FMT " -> %" PetscInt_FMT "; expected a value upload only", b0, b1, u0, u1);
  PetscCall(CompareProducts(S, A, VECGPU, "after a same-pattern update"));
  {
    PetscInt u2;
    PetscCall(T->info(S, NULL, NULL, &u2));
    PetscCheck(u2 == u1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "products after an assembly uploaded the values again (%" PetscInt_FMT " -> %" PetscInt_FMT " uploads)", u1, u2);
  }
  PetscCall(valueupdates(S, A, p));
  /* new pattern: rebuild */
  PetscCall(Fill(A, p, 2, PETSC_FALSE));
  PetscCall(Fill(S, p, 2, PETSC_FALSE));
  PetscCall(T->info(S, NULL, &b1, NULL));
  PetscCheck(b1 > b0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "pattern change did not rebuild (builds %" PetscInt_FMT " -> %" PetscInt_FMT ")", b0, b1);
  PetscCall(CompareProducts(S, A, VECGPU, "after a pattern change"));

  /* conversions from AIJ: all three reuse modes */
  PetscCall(MatConvert(A, T->type, MAT_INITIAL_MATRIX, &S2));
  PetscCall(CheckType(T, S2, "MatConvert(aij, MAT_INITIAL_MATRIX)"));
  PetscCall(CompareProducts(S2, A, VECGPU, "converted (initial)"));
  PetscCall(CheckNoUpload(T, S2, "converted (initial)"));
  PetscCall(MatScale(A, 2.0));
  PetscCall(MatConvert(A, T->type, MAT_REUSE_MATRIX, &S2));
  PetscCall(CompareProducts(S2, A, VECGPU, "converted (reuse)"));
  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &B));
  PetscCall(MatConvert(B, T->type, MAT_INPLACE_MATRIX, &B));
  PetscCall(CheckType(T, B, "MatConvert(aij, MAT_INPLACE_MATRIX)"));
  PetscCall(CompareProducts(B, A, VECSTANDARD, "converted (in place)"));
  PetscCall(CompareProducts(B, A, VECGPU, "converted (in place)"));
  PetscCall(CheckNoUpload(T, B, "converted (in place)"));
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
    PetscCheck(isaij, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s -> aij gave type %s", T->name, t);
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
  PetscCall(CheckType(T, B, "MatDuplicate"));
  PetscCall(CompareProducts(B, A, VECGPU, "MatDuplicate"));
  PetscCall(CheckNoUpload(T, B, "MatDuplicate"));
  PetscCall(MatAXPY(B, 2.0, S2, SAME_NONZERO_PATTERN));
  PetscCall(MatAXPY(S2, 2.0, S2, SAME_NONZERO_PATTERN)); /* S2 = 3 S2 */
  PetscCall(MatScale(A, 3.0));
  PetscCall(CompareProducts(B, A, VECGPU, "MatAXPY (same pattern)"));
  PetscCall(CompareProducts(S2, A, VECGPU, "MatAXPY onto itself"));
  PetscCall(MatAXPY(B, 1.0, S, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatAXPY(A, 1.0, S, DIFFERENT_NONZERO_PATTERN));
  PetscCall(CheckType(T, B, "MatAXPY (different pattern)"));
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
  PetscCall(MatDestroy(Sp));
  PetscCall(MatDestroy(Ap));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem1));
  PetscCheck(mem0 == mem1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "device memory in use went from %zu to %zu bytes", mem0, mem1);
  PetscFunctionReturn(0);
}

#endif

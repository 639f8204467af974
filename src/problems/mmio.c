/*
   Matrix Market reader and writer.

   Reading: rank 0 parses the file and builds the CSR (duplicates summed; symmetric and
   skew-symmetric files are expanded), then every rank receives its own rows, so only rank 0
   needs memory proportional to nnz. Accepted: "matrix coordinate real|integer|pattern
   general|symmetric|skew-symmetric"; vectors also as "matrix array real general" with one
   column. Complex, Hermitian and dense (array) matrices are refused with a message.
   Every parse error names the file and line.
   Writing: rank by rank, each appending its own rows, so the writer too is O(local) memory.
*/
#include "rootread.h"
#include <ctype.h>
#include <string.h>
#include <errno.h>

typedef struct {
  FILE         *fp;
  GPUPCTriplets t;
  PetscInt     *ia, *ja;
  PetscScalar  *a, *x;
  PetscInt      M, N;
  PetscBool     symmetric;
} MMRead;

typedef enum {
  MM_COORDINATE,
  MM_ARRAY
} MMFormat;
typedef enum {
  MM_REAL,
  MM_PATTERN
} MMField;
typedef enum {
  MM_GENERAL,
  MM_SYMMETRIC,
  MM_SKEW
} MMSymmetry;

static void Lower(char *s)
{
  for (; *s; s++) *s = (char)tolower((unsigned char)*s);
}

static PetscErrorCode ParseHeader(const char file[], const char line[], MMFormat *fmt, MMField *field, MMSymmetry *sym)
{
  char banner[64], object[64], format[64], fld[64], symm[64];

  PetscFunctionBegin;
  PetscCheck(sscanf(line, "%63s %63s %63s %63s %63s", banner, object, format, fld, symm) == 5 && !strcmp(banner, "%%MatrixMarket"), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s:1: not a Matrix Market file: the first line must be \"%%%%MatrixMarket matrix coordinate real general\" (or pattern/integer, symmetric)", file);
  Lower(object);
  Lower(format);
  Lower(fld);
  Lower(symm);
  PetscCheck(!strcmp(object, "matrix"), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:1: Matrix Market object \"%s\" is not supported; only \"matrix\"", file, object);
  if (!strcmp(format, "coordinate")) *fmt = MM_COORDINATE;
  else if (!strcmp(format, "array")) *fmt = MM_ARRAY;
  else SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:1: unknown Matrix Market format \"%s\" (coordinate or array)", file, format);
  if (!strcmp(fld, "real") || !strcmp(fld, "integer") || !strcmp(fld, "double")) *field = MM_REAL;
  else if (!strcmp(fld, "pattern")) *field = MM_PATTERN;
  else if (!strcmp(fld, "complex")) SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "%s:1: complex Matrix Market files are not supported: GPUPC works with real matrices (PETSc with real scalars)", file);
  else SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:1: unknown Matrix Market field \"%s\" (real, integer or pattern)", file, fld);
  if (!strcmp(symm, "general")) *sym = MM_GENERAL;
  else if (!strcmp(symm, "symmetric")) *sym = MM_SYMMETRIC;
  else if (!strcmp(symm, "skew-symmetric")) *sym = MM_SKEW;
  else if (!strcmp(symm, "hermitian")) SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "%s:1: Hermitian Matrix Market files are complex and not supported", file);
  else SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:1: unknown Matrix Market symmetry \"%s\" (general, symmetric or skew-symmetric)", file, symm);
  PetscFunctionReturn(0);
}

/* next line that is neither a comment nor blank; *eof at the end */
static PetscErrorCode NextDataLine(FILE *fp, const char file[], char buf[], size_t len, PetscInt *lineno, PetscBool *eof)
{
  PetscFunctionBegin;
  while (1) {
    const char *s;
    PetscCall(GPUPCReadLine(fp, file, buf, len, lineno, eof));
    if (*eof) break;
    for (s = buf; *s && isspace((unsigned char)*s); s++) {}
    if (*s && *s != '%') break;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode ParseReal(const char file[], PetscInt lineno, char **s, PetscReal *v, const char what[])
{
  char *end;

  PetscFunctionBegin;
  errno = 0;
  *v    = strtod(*s, &end);
  PetscCheck(end != *s, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": expected %s, found \"%s\"", file, lineno, what, *s);
  PetscCheck(!PetscIsInfOrNanReal(*v), PETSC_COMM_SELF, PETSC_ERR_FP, "%s:%" PetscInt_FMT ": %s is not a finite number", file, lineno, what);
  *s = end;
  PetscFunctionReturn(0);
}

static PetscErrorCode ParseIndex(const char file[], PetscInt lineno, char **s, PetscInt lo, PetscInt hi, PetscInt *v, const char what[])
{
  char     *end;
  long long l;

  PetscFunctionBegin;
  l = strtoll(*s, &end, 10);
  PetscCheck(end != *s && (*end == 0 || isspace((unsigned char)*end)), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": expected %s (an integer), found \"%s\"", file, lineno, what, *s);
  PetscCheck(l >= lo && l <= hi, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": %s %lld is out of range [%" PetscInt_FMT ", %" PetscInt_FMT "]", file, lineno, what, l, lo, hi);
  *v = (PetscInt)l;
  *s = end;
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckLineEnd(const char file[], PetscInt lineno, const char *s)
{
  PetscFunctionBegin;
  while (*s && isspace((unsigned char)*s)) s++;
  PetscCheck(!*s, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": unexpected text \"%s\" at the end of the line", file, lineno, s);
  PetscFunctionReturn(0);
}

/* rank 0: parse the whole file into r (the caller frees r, also after an error) */
static PetscErrorCode ReadRoot(const char file[], PetscBool want_vector, PetscInt vlen, MMRead *r)
{
  char       buf[1024];
  PetscInt   lineno = 0, M, N, nz, k = 0;
  PetscBool  eof;
  MMFormat   fmt;
  MMField    field;
  MMSymmetry sym;
  char      *s;

  PetscFunctionBegin;
  r->fp = fopen(file, "r");
  PetscCheck(r->fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open Matrix Market file %s: %s", file, strerror(errno));
  PetscCall(GPUPCReadLine(r->fp, file, buf, sizeof(buf), &lineno, &eof));
  PetscCheck(!eof, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s is empty; expected a Matrix Market file", file);
  PetscCall(ParseHeader(file, buf, &fmt, &field, &sym));
  PetscCheck(fmt == MM_COORDINATE || want_vector, PETSC_COMM_SELF, PETSC_ERR_SUP, "%s:1: dense (array) Matrix Market matrices are not supported; write the matrix in coordinate format", file);
  PetscCheck(fmt == MM_COORDINATE || (field == MM_REAL && sym == MM_GENERAL), PETSC_COMM_SELF, PETSC_ERR_SUP, "%s:1: an array (dense) Matrix Market vector must be \"real general\"", file);
  r->symmetric = (PetscBool)(sym == MM_SYMMETRIC);
  PetscCall(NextDataLine(r->fp, file, buf, sizeof(buf), &lineno, &eof));
  PetscCheck(!eof, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: file ends before the size line", file);
  s = buf;
  PetscCall(ParseIndex(file, lineno, &s, 0, PETSC_MAX_INT, &M, "number of rows"));
  PetscCall(ParseIndex(file, lineno, &s, 0, PETSC_MAX_INT, &N, "number of columns"));
  if (fmt == MM_COORDINATE) PetscCall(ParseIndex(file, lineno, &s, 0, PETSC_MAX_INT, &nz, "number of entries"));
  else nz = M * N;
  PetscCall(CheckLineEnd(file, lineno, s));
  PetscCheck(sym == MM_GENERAL || M == N, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": a symmetric matrix must be square, not %" PetscInt_FMT " x %" PetscInt_FMT, file, lineno, M, N);
  if (want_vector) {
    PetscCheck(N == 1, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": a vector must have one column, this file has %" PetscInt_FMT, file, lineno, N);
    PetscCheck(vlen < 0 || M == vlen, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "%s:%" PetscInt_FMT ": the vector has %" PetscInt_FMT " rows, the matrix %" PetscInt_FMT, file, lineno, M, vlen);
    PetscCall(PetscCalloc1(M, &r->x));
  }
  r->M = M;
  r->N = N;
  for (k = 0; k < nz; k++) {
    PetscInt  i, j;
    PetscReal v = 1.0;

    PetscCall(NextDataLine(r->fp, file, buf, sizeof(buf), &lineno, &eof));
    PetscCheck(!eof, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: file ends after %" PetscInt_FMT " of the %" PetscInt_FMT " entries the size line announced (line %" PetscInt_FMT ")", file, k, nz, lineno);
    s = buf;
    if (fmt == MM_ARRAY) {
      PetscCall(ParseReal(file, lineno, &s, &v, "a value"));
      PetscCall(CheckLineEnd(file, lineno, s));
      r->x[k] = v;
      continue;
    }
    PetscCall(ParseIndex(file, lineno, &s, 1, M, &i, "row index"));
    PetscCall(ParseIndex(file, lineno, &s, 1, N, &j, "column index"));
    if (field == MM_REAL) PetscCall(ParseReal(file, lineno, &s, &v, "a value after the indices"));
    PetscCall(CheckLineEnd(file, lineno, s));
    i--;
    j--;
    if (want_vector) {
      r->x[i] += v;
      continue;
    }
    PetscCheck(sym != MM_SKEW || i != j, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": a skew-symmetric matrix has no diagonal entries", file, lineno);
    PetscCall(GPUPCTripletsAdd(&r->t, i, j, v));
    if (sym != MM_GENERAL && i != j) PetscCall(GPUPCTripletsAdd(&r->t, j, i, sym == MM_SKEW ? -v : v));
  }
  PetscCall(NextDataLine(r->fp, file, buf, sizeof(buf), &lineno, &eof));
  PetscCheck(eof, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": more entries than the %" PetscInt_FMT " the size line announced", file, lineno, nz);
  if (!want_vector) PetscCall(GPUPCTripletsToCSR(&r->t, M, &r->ia, &r->ja, &r->a));
  PetscFunctionReturn(0);
}

static PetscErrorCode MMReadFree(MMRead *r)
{
  PetscFunctionBegin;
  if (r->fp) fclose(r->fp);
  r->fp = NULL;
  PetscCall(GPUPCTripletsFree(&r->t));
  PetscCall(PetscFree(r->ia));
  PetscCall(PetscFree(r->ja));
  PetscCall(PetscFree(r->a));
  PetscCall(PetscFree(r->x));
  PetscFunctionReturn(0);
}

/* rank 0 reads with errors returned (not printed), then the outcome goes to every rank */
static PetscErrorCode ReadOnRoot(MPI_Comm comm, const char file[], PetscBool want_vector, PetscInt vlen, MMRead *r)
{
  PetscMPIInt    rank;
  PetscErrorCode ierr = 0;
  PetscInt       sizes[3];

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank == 0) {
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = ReadRoot(file, want_vector, vlen, r); /* captured, relayed to every rank below */
    PetscCall(PetscPopErrorHandler());
    if (ierr) PetscCall(MMReadFree(r));
  }
  PetscCall(GPUPCRootErrorRelay(comm, ierr));
  sizes[0] = r->M;
  sizes[1] = r->N;
  sizes[2] = r->symmetric;
  PetscCallMPI(MPI_Bcast(sizes, 3, MPIU_INT, 0, comm));
  r->M         = sizes[0];
  r->N         = sizes[1];
  r->symmetric = (PetscBool)sizes[2];
  PetscFunctionReturn(0);
}

/*@C
   GPUPCMatLoadMatrixMarketSymmetric - reads a Matrix Market file into a distributed matrix and
   says whether the file declared it symmetric

   Collective

   Input Parameters:
+  comm - the communicator
-  file - the file name

   Output Parameters:
+  A - the matrix (MATAIJ, then MatSetFromOptions()), PETSc's default row split
-  symmetric - PETSC_TRUE for a "symmetric" file (may be NULL)

   Notes:
   Rank 0 reads the file and sends every rank its rows: only rank 0 needs memory for all
   nonzeros. Coordinate real, integer or pattern (values 1) files, general, symmetric or
   skew-symmetric; duplicate entries are summed. Errors name the file and the line.

   Level: beginner

.seealso: GPUPCMatLoadMatrixMarket(), GPUPCMatWriteMatrixMarket()
@*/
PetscErrorCode GPUPCMatLoadMatrixMarketSymmetric(MPI_Comm comm, const char file[], Mat *A, PetscBool *symmetric)
{
  MMRead r;

  PetscFunctionBegin;
  PetscCall(GPUPCProblemsRegisterEvents());
  PetscCall(PetscLogEventBegin(GPUPC_MatLoadMM, 0, 0, 0, 0));
  PetscCall(PetscMemzero(&r, sizeof(r)));
  PetscCall(ReadOnRoot(comm, file, PETSC_FALSE, -1, &r));
  PetscCall(GPUPCMatCreateFromRootCSR(comm, r.M, r.N, r.ia, r.ja, r.a, A));
  PetscCall(MMReadFree(&r));
  if (r.symmetric) PetscCall(MatSetOption(*A, MAT_SYMMETRIC, PETSC_TRUE));
  if (symmetric) *symmetric = r.symmetric;
  PetscCall(PetscLogEventEnd(GPUPC_MatLoadMM, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCMatLoadMatrixMarket - reads a Matrix Market file into a distributed matrix

   Collective

   Input Parameters:
+  comm - the communicator
-  file - the file name

   Output Parameter:
.  A - the matrix

   Level: beginner

.seealso: GPUPCMatLoadMatrixMarketSymmetric(), GPUPCMatWriteMatrixMarket(), GPUPCMatLoadFile()
@*/
PetscErrorCode GPUPCMatLoadMatrixMarket(MPI_Comm comm, const char file[], Mat *A)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMatLoadMatrixMarketSymmetric(comm, file, A, NULL));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCVecLoadMatrixMarket - reads a vector from a Matrix Market file (array format with one
   column, or coordinate format n x 1)

   Collective

   Input Parameters:
+  comm - the communicator
.  file - the file name
-  n - the expected length, or -1 for any

   Output Parameter:
.  v - a standard vector, PETSc's default split

   Level: beginner

.seealso: GPUPCVecWriteMatrixMarket()
@*/
PetscErrorCode GPUPCVecLoadMatrixMarket(MPI_Comm comm, const char file[], PetscInt n, Vec *v)
{
  MMRead r;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&r, sizeof(r)));
  PetscCall(ReadOnRoot(comm, file, PETSC_TRUE, n, &r));
  PetscCall(GPUPCVecCreateFromRootArray(comm, r.M, r.x, v));
  PetscCall(MMReadFree(&r));
  PetscFunctionReturn(0);
}

/* opens on the ranks in turn: rank 0 truncates and writes the header, the others append */
static PetscErrorCode WriteInTurns(MPI_Comm comm, const char file[], const char header[], PetscErrorCode (*rows)(void *, FILE *), void *ctx)
{
  PetscMPIInt size, rank;
  int         bad = 0, anybad;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  for (PetscMPIInt turn = 0; turn < size; turn++) {
    if (turn == rank) {
      FILE *fp = fopen(file, rank ? "a" : "w");
      if (!fp) bad = 1;
      else {
        if (!rank) fputs(header, fp);
        PetscCall((*rows)(ctx, fp));
        if (ferror(fp)) bad = 1;
        if (fclose(fp)) bad = 1;
      }
    }
    PetscCallMPI(MPI_Barrier(comm));
  }
  PetscCallMPI(MPIU_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, comm));
  PetscCheck(!anybad, comm, PETSC_ERR_FILE_WRITE, "Cannot write Matrix Market file %s (directory missing, no permission or disk full?)", file);
  PetscFunctionReturn(0);
}

typedef struct {
  Mat       A;
  PetscBool lower;
} MatRowsCtx;

static PetscErrorCode MatRows(void *ctx, FILE *fp)
{
  MatRowsCtx        *c = (MatRowsCtx *)ctx;
  PetscInt           lo, hi, ncols;
  const PetscInt    *cols;
  const PetscScalar *vals;

  PetscFunctionBegin;
  PetscCall(MatGetOwnershipRange(c->A, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) {
    PetscCall(MatGetRow(c->A, i, &ncols, &cols, &vals));
    for (PetscInt k = 0; k < ncols; k++)
      if (!c->lower || cols[k] <= i) fprintf(fp, "%d %d %.17g\n", (int)(i + 1), (int)(cols[k] + 1), (double)PetscRealPart(vals[k]));
    PetscCall(MatRestoreRow(c->A, i, &ncols, &cols, &vals));
  }
  PetscFunctionReturn(0);
}

/*@C
   GPUPCMatWriteMatrixMarket - writes a (parallel) matrix as a Matrix Market coordinate file

   Collective

   Input Parameters:
+  A - the matrix
.  file - the file name
-  symmetric - PETSC_TRUE writes a "symmetric" file with the lower triangle only (the caller
   asserts that A is symmetric), PETSC_FALSE a "general" file with every stored entry

   Notes:
   The ranks append their rows in turn, so no rank holds more than its own rows.
   Values are written with 17 significant digits, so reading back gives the same matrix.

   Level: beginner

.seealso: GPUPCMatLoadMatrixMarket()
@*/
PetscErrorCode GPUPCMatWriteMatrixMarket(Mat A, const char file[], PetscBool symmetric)
{
  MatRowsCtx      c = {A, symmetric};
  PetscInt        M, N, lo, hi, ncols;
  const PetscInt *cols;
  PetscInt64      cnt = 0, total;
  char            header[256];
  MPI_Comm        comm = PetscObjectComm((PetscObject)A);

  PetscFunctionBegin;
  PetscCall(MatGetSize(A, &M, &N));
  PetscCheck(!symmetric || M == N, comm, PETSC_ERR_ARG_SIZ, "A symmetric Matrix Market file needs a square matrix, not %" PetscInt_FMT " x %" PetscInt_FMT, M, N);
  PetscCall(MatGetOwnershipRange(A, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) {
    PetscCall(MatGetRow(A, i, &ncols, &cols, NULL));
    for (PetscInt k = 0; k < ncols; k++)
      if (!symmetric || cols[k] <= i) cnt++;
    PetscCall(MatRestoreRow(A, i, &ncols, &cols, NULL));
  }
  PetscCallMPI(MPIU_Allreduce(&cnt, &total, 1, MPIU_INT64, MPI_SUM, comm));
  PetscCall(PetscSNPrintf(header, sizeof(header), "%%%%MatrixMarket matrix coordinate real %s\n%% written by GPUPC\n%" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt64_FMT "\n", symmetric ? "symmetric" : "general", M, N, total));
  PetscCall(WriteInTurns(comm, file, header, MatRows, &c));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecRows(void *ctx, FILE *fp)
{
  Vec                v = (Vec)ctx;
  PetscInt           n;
  const PetscScalar *x;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(v, &n));
  PetscCall(VecGetArrayRead(v, &x));
  for (PetscInt i = 0; i < n; i++) fprintf(fp, "%.17g\n", (double)PetscRealPart(x[i]));
  PetscCall(VecRestoreArrayRead(v, &x));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCVecWriteMatrixMarket - writes a vector as a Matrix Market "array real general" file
   with one column

   Collective

   Input Parameters:
+  v - the vector
-  file - the file name

   Level: beginner

.seealso: GPUPCVecLoadMatrixMarket()
@*/
PetscErrorCode GPUPCVecWriteMatrixMarket(Vec v, const char file[])
{
  PetscInt N;
  char     header[256];

  PetscFunctionBegin;
  PetscCall(VecGetSize(v, &N));
  PetscCall(PetscSNPrintf(header, sizeof(header), "%%%%MatrixMarket matrix array real general\n%% written by GPUPC\n%" PetscInt_FMT " 1\n", N));
  PetscCall(WriteInTurns(PetscObjectComm((PetscObject)v), file, header, VecRows, v));
  PetscFunctionReturn(0);
}

/*
   Loading a matrix or vector from a file whose format is recognised from its first bytes:
   Matrix Market ("%%MatrixMarket") or PETSc binary (the Mat/Vec class id in big-endian).
*/
#include "rootread.h"
#include <petscviewer.h>
#include <string.h>
#include <errno.h>

typedef enum {
  FILE_MM,
  FILE_PETSC_MAT,
  FILE_PETSC_VEC,
  FILE_UNKNOWN
} FileKind;

static PetscErrorCode Sniff(MPI_Comm comm, const char file[], FileKind *kind)
{
  PetscMPIInt rank;
  int         k = FILE_UNKNOWN, err = 0;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank == 0) {
    unsigned char head[16] = {0};
    FILE         *fp       = fopen(file, "rb");
    if (!fp) err = errno;
    else {
      size_t   got = fread(head, 1, sizeof(head), fp);
      unsigned id  = got >= 4 ? ((unsigned)head[0] << 24 | (unsigned)head[1] << 16 | (unsigned)head[2] << 8 | head[3]) : 0;
      fclose(fp);
      if (got >= 14 && !memcmp(head, "%%MatrixMarket", 14)) k = FILE_MM;
      else if (id == MAT_FILE_CLASSID) k = FILE_PETSC_MAT;
      else if (id == VEC_FILE_CLASSID) k = FILE_PETSC_VEC;
    }
  }
  PetscCallMPI(MPI_Bcast(&err, 1, MPI_INT, 0, comm));
  PetscCheck(!err, comm, PETSC_ERR_FILE_OPEN, "Cannot open %s: %s", file, strerror(err));
  PetscCallMPI(MPI_Bcast(&k, 1, MPI_INT, 0, comm));
  *kind = (FileKind)k;
  PetscFunctionReturn(0);
}

/*@C
   GPUPCMatLoadFile - loads a matrix from a Matrix Market or PETSc binary file, recognised from
   its contents

   Collective

   Input Parameters:
+  comm - the communicator
-  file - the file

   Output Parameters:
+  A - the matrix (MATAIJ, then MatSetFromOptions()), distributed with PETSc's default split
.  b - for a PETSc binary file that also holds a vector after the matrix, that vector (from
       MatCreateVecs()); otherwise NULL. Pass NULL if not wanted.
-  symmetric - PETSC_TRUE when the file declares the matrix symmetric (Matrix Market
       "symmetric"); may be NULL

   Level: beginner

.seealso: GPUPCMatLoadMatrixMarket(), GPUPCMatLoadNetlist(), GPUPCVecLoadFile()
@*/
PetscErrorCode GPUPCMatLoadFile(MPI_Comm comm, const char file[], Mat *A, Vec *b, PetscBool *symmetric)
{
  FileKind kind;

  PetscFunctionBegin;
  if (b) *b = NULL;
  if (symmetric) *symmetric = PETSC_FALSE;
  PetscCall(Sniff(comm, file, &kind));
  if (kind == FILE_MM) PetscCall(GPUPCMatLoadMatrixMarketSymmetric(comm, file, A, symmetric));
  else if (kind == FILE_PETSC_MAT) {
    PetscViewer viewer;
    PetscCall(PetscViewerBinaryOpen(comm, file, FILE_MODE_READ, &viewer));
    PetscCall(MatCreate(comm, A));
    PetscCall(MatSetType(*A, MATAIJ));
    PetscCall(MatSetFromOptions(*A));
    PetscCall(MatLoad(*A, viewer));
    if (b) { /* PETSc's convention: a right-hand side may follow the matrix */
      PetscInt classid = 0, cnt = 0;
      PetscCall(PetscViewerBinaryRead(viewer, &classid, 1, &cnt, PETSC_INT));
      if (cnt == 1 && classid == VEC_FILE_CLASSID) {
        PetscCall(PetscViewerDestroy(&viewer));
        PetscCall(PetscViewerBinaryOpen(comm, file, FILE_MODE_READ, &viewer));
        Mat skip;
        PetscCall(MatCreate(comm, &skip));
        PetscCall(MatSetType(skip, MATAIJ));
        PetscCall(MatLoad(skip, viewer));
        PetscCall(MatDestroy(&skip));
        PetscCall(MatCreateVecs(*A, NULL, b));
        PetscCall(VecLoad(*b, viewer));
      }
    }
    PetscCall(PetscViewerDestroy(&viewer));
  } else SETERRQ(comm, PETSC_ERR_FILE_UNEXPECTED, "%s is neither a Matrix Market file (first line %%%%MatrixMarket ...) nor a PETSc binary matrix; for a SPICE netlist use -netlist", file);
  PetscFunctionReturn(0);
}

/*@C
   GPUPCVecLoadFile - loads a vector from a Matrix Market or PETSc binary file, recognised from
   its contents

   Collective

   Input Parameters:
+  comm - the communicator
.  file - the file
-  n - the expected global length, or -1

   Output Parameter:
.  v - a standard vector with PETSc's default split

   Level: beginner

.seealso: GPUPCMatLoadFile(), GPUPCVecLoadMatrixMarket()
@*/
PetscErrorCode GPUPCVecLoadFile(MPI_Comm comm, const char file[], PetscInt n, Vec *v)
{
  FileKind kind;
  PetscInt N;

  PetscFunctionBegin;
  PetscCall(Sniff(comm, file, &kind));
  if (kind == FILE_MM) PetscCall(GPUPCVecLoadMatrixMarket(comm, file, n, v));
  else if (kind == FILE_PETSC_VEC) {
    PetscViewer viewer;
    PetscCall(PetscViewerBinaryOpen(comm, file, FILE_MODE_READ, &viewer));
    PetscCall(VecCreate(comm, v));
    PetscCall(VecSetType(*v, VECSTANDARD));
    PetscCall(VecLoad(*v, viewer));
    PetscCall(PetscViewerDestroy(&viewer));
    PetscCall(VecGetSize(*v, &N));
    PetscCheck(n < 0 || N == n, comm, PETSC_ERR_ARG_SIZ, "The vector in %s has %" PetscInt_FMT " entries, the matrix %" PetscInt_FMT " rows", file, N, n);
  } else SETERRQ(comm, PETSC_ERR_FILE_UNEXPECTED, "%s is neither a Matrix Market vector nor a PETSc binary vector", file);
  PetscFunctionReturn(0);
}

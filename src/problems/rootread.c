/*
   Shared pieces of the rank-0 readers (Matrix Market, netlist): triplets to CSR with
   duplicates summed, line reading with line numbers, and relaying a rank-0 error to all ranks.
*/
#include "rootread.h"
#include <string.h>

PetscErrorCode GPUPCTripletsAdd(GPUPCTriplets *t, PetscInt i, PetscInt j, PetscScalar v)
{
  PetscFunctionBegin;
  if (t->n == t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 1024;
    PetscCall(PetscRealloc(cap * sizeof(PetscInt), &t->i));
    PetscCall(PetscRealloc(cap * sizeof(PetscInt), &t->j));
    PetscCall(PetscRealloc(cap * sizeof(PetscScalar), &t->v));
    t->cap = cap;
  }
  t->i[t->n] = i;
  t->j[t->n] = j;
  t->v[t->n] = v;
  t->n++;
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCTripletsFree(GPUPCTriplets *t)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(t->i));
  PetscCall(PetscFree(t->j));
  PetscCall(PetscFree(t->v));
  t->n = t->cap = 0;
  PetscFunctionReturn(0);
}

/* CSR with sorted columns and duplicates summed; frees the triplets on the way */
PetscErrorCode GPUPCTripletsToCSR(GPUPCTriplets *t, PetscInt M, PetscInt **ia, PetscInt **ja, PetscScalar **a)
{
  PetscInt *pos, nz;

  PetscFunctionBegin;
  PetscCheck(t->n <= (size_t)PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_SUP, "%zu nonzeros do not fit 32-bit PetscInt; use a PETSc built with 64-bit indices", t->n);
  PetscCall(PetscCalloc1(M + 1, ia));
  PetscCall(PetscMalloc1(t->n, ja));
  PetscCall(PetscMalloc1(t->n, a));
  PetscCall(PetscMalloc1(M + 1, &pos));
  for (size_t k = 0; k < t->n; k++) (*ia)[t->i[k] + 1]++;
  for (PetscInt r = 0; r < M; r++) (*ia)[r + 1] += (*ia)[r];
  PetscCall(PetscArraycpy(pos, *ia, M + 1));
  for (size_t k = 0; k < t->n; k++) {
    PetscInt p = pos[t->i[k]]++;
    (*ja)[p]   = t->j[k];
    (*a)[p]    = t->v[k];
  }
  PetscCall(PetscFree(pos));
  PetscCall(GPUPCTripletsFree(t));
  /* sort each row, sum duplicates, compact in place */
  nz = 0;
  for (PetscInt r = 0, start = 0; r < M; r++) {
    PetscInt end = (*ia)[r + 1], rowstart = nz;
    PetscCall(PetscSortIntWithScalarArray(end - start, *ja + start, *a + start));
    for (PetscInt k = start; k < end; k++) {
      if (nz > rowstart && (*ja)[nz - 1] == (*ja)[k]) (*a)[nz - 1] += (*a)[k];
      else {
        (*ja)[nz]  = (*ja)[k];
        (*a)[nz++] = (*a)[k];
      }
    }
    start        = end;
    (*ia)[r + 1] = nz;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCReadLine(FILE *fp, const char file[], char buf[], size_t len, PetscInt *lineno, PetscBool *eof)
{
  size_t l;

  PetscFunctionBegin;
  *eof = PETSC_FALSE;
  if (!fgets(buf, (int)len, fp)) {
    PetscCheck(!ferror(fp), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "Error reading %s after line %" PetscInt_FMT, file, *lineno);
    *eof = PETSC_TRUE;
    PetscFunctionReturn(0);
  }
  (*lineno)++;
  l = strlen(buf);
  PetscCheck(l < len - 1 || buf[l - 1] == '\n' || feof(fp), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": line longer than %zu characters; is this a text file of the right format?", file, *lineno, len - 2);
  while (l > 0 && (buf[l - 1] == '\n' || buf[l - 1] == '\r')) buf[--l] = 0;
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCRootErrorRelay(MPI_Comm comm, PetscErrorCode ierr)
{
  int         code      = (int)ierr;
  char        msg[1024] = "";
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank == 0 && code) {
    char *specific = NULL;
    PetscCall(PetscErrorMessage(ierr, NULL, &specific));
    if (specific) PetscCall(PetscStrncpy(msg, specific, sizeof(msg)));
  }
  PetscCallMPI(MPI_Bcast(&code, 1, MPI_INT, 0, comm));
  if (!code) PetscFunctionReturn(0);
  PetscCallMPI(MPI_Bcast(msg, (PetscMPIInt)sizeof(msg), MPI_CHAR, 0, comm));
  SETERRQ(comm, (PetscErrorCode)code, "%s", msg[0] ? msg : "reading the file on rank 0 failed");
}

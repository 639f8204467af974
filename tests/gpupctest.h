/*
   Helpers shared by the GPUPC tests. A check that fails raises a PETSc error naming what
   was compared, so the runner prints it and counts the test as failed.
*/
#ifndef GPUPCTEST_H
#define GPUPCTEST_H

#include <petscgpupc.h>

/* rank 0 writes a text file (e.g. a malformed input); every rank returns once it is there */
static inline PetscErrorCode TestWriteText(MPI_Comm comm, const char file[], const char text[])
{
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (!rank) {
    FILE *fp = fopen(file, "w");
    PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot write %s", file);
    fputs(text, fp);
    fclose(fp);
  }
  PetscCallMPI(MPI_Barrier(comm));
  PetscFunctionReturn(0);
}

/* max |a - b| / max(1, max |b|) over all ranks */
static inline PetscErrorCode TestVecDiff(Vec a, Vec b, PetscReal *rel)
{
  const PetscScalar *x, *y;
  PetscInt           n, nb;
  PetscReal          d = 0.0, m = 0.0, in[2], out[2];

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(a, &n));
  PetscCall(VecGetLocalSize(b, &nb));
  PetscCheck(n == nb, PETSC_COMM_SELF, PETSC_ERR_PLIB, "local sizes differ: %" PetscInt_FMT " and %" PetscInt_FMT, n, nb);
  PetscCall(VecGetArrayRead(a, &x));
  PetscCall(VecGetArrayRead(b, &y));
  for (PetscInt i = 0; i < n; i++) {
    PetscReal e = PetscAbsScalar(x[i] - y[i]);
    if (e > d || PetscIsNanReal(e)) d = e;
    m = PetscMax(m, PetscAbsScalar(y[i]));
  }
  PetscCall(VecRestoreArrayRead(a, &x));
  PetscCall(VecRestoreArrayRead(b, &y));
  in[0] = d;
  in[1] = m;
  PetscCall(MPIU_Allreduce(in, out, 2, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)a)));
  *rel = out[0] / PetscMax(1.0, out[1]);
  if (PetscIsNanReal(out[0])) *rel = PETSC_MAX_REAL;
  PetscFunctionReturn(0);
}

#define TestCheckVec(a, b, tol, what) \
  do { \
    PetscReal rel_ = PETSC_MAX_REAL; \
    PetscCall(TestVecDiff((a), (b), &rel_)); \
    PetscCheck(rel_ <= (tol), PetscObjectComm((PetscObject)(a)), PETSC_ERR_PLIB, "%s: vectors differ, relative error %g > %g", (what), (double)rel_, (double)(tol)); \
  } while (0)

#define TestCheckScalar(a, b, tol, what) \
  do { \
    PetscReal a_ = (PetscReal)(a), b_ = (PetscReal)(b); \
    PetscCheck(PetscAbsReal(a_ - b_) <= (tol) * PetscMax(1.0, PetscAbsReal(b_)), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: got %.17g, expected %.17g", (what), (double)a_, (double)b_); \
  } while (0)

/* for reductions: the rounding error of a sum scales with the sum of the magnitudes of its
   terms (scale), not with the size of the result */
#define TestCheckReduction(a, b, scale, tol, what) \
  do { \
    PetscReal a_ = (PetscReal)(a), b_ = (PetscReal)(b), s_ = PetscMax((PetscReal)(scale), 1.0); \
    PetscCheck(PetscAbsReal(a_ - b_) <= (tol) * s_, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: got %.17g, expected %.17g (error %g, scale %g)", (what), (double)a_, (double)b_, (double)PetscAbsReal(a_ - b_), (double)s_); \
  } while (0)

#endif

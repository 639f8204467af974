/*
   Helpers shared by the GPUPC tests. A check that fails raises a PETSc error naming what
   was compared, so the runner prints it and counts the test as failed.
*/
#ifndef GPUPCTEST_H
#define GPUPCTEST_H

#include <petscgpupc.h>
#include <petscmat.h>

/* 5-point (2D) or 7-point (3D) operator on an n^d grid with variable, symmetric edge weights;
   -conv adds a first-order convection term in x (nonsymmetric, for gmres/bicg); assembled
   with matrix type mtype, rows split by PETSc */
static inline PetscErrorCode TestGridOperator(PetscInt dim, PetscInt n, PetscReal conv, MatType mtype, Mat *A)
{
  PetscInt N = dim == 2 ? n * n : n * n * n, lo, hi;

  PetscFunctionBegin;
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, N, N));
  PetscCall(MatSetType(*A, mtype));
  PetscCall(MatSeqAIJSetPreallocation(*A, 2 * dim + 1, NULL));
  PetscCall(MatMPIAIJSetPreallocation(*A, 2 * dim + 1, NULL, 2 * dim, NULL));
  PetscCall(MatGetOwnershipRange(*A, &lo, &hi));
  for (PetscInt row = lo; row < hi; row++) {
    PetscInt    c[3] = {row % n, (row / n) % n, dim == 3 ? row / (n * n) : 0}, cols[7], k = 0, stride = 1;
    PetscScalar vals[7], diag = 0.0;

    for (PetscInt d = 0; d < dim; d++, stride *= n) {
      for (PetscInt s = -1; s <= 1; s += 2) {
        PetscInt    cc = c[d] + s;
        PetscScalar w  = 1.0 + 0.5 * (PetscMin(row, row + s * stride) % 3); /* symmetric edge weight */
        diag += w;
        if (cc >= 0 && cc < n) {
          cols[k] = row + s * stride;
          vals[k] = -w + (d == 0 ? s * conv : 0.0);
          k++;
        }
      }
    }
    cols[k] = row;
    vals[k] = diag;
    k++;
    PetscCall(MatSetValues(*A, 1, &row, k, cols, vals, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

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

/* segcsr matrix S: the short-row mode asked for with -mat_segcsr_short (group or tile) is the
   one its product runs, and MatView with ::ascii_info says which mode runs and, for tiles, how
   many (first block printed: rank 0's diagonal block) */
static inline PetscErrorCode TestCheckSegCSRShortMode(Mat S)
{
  MatSegCSRShortMode asked = MAT_SEGCSR_SHORT_AUTO, mode;
  PetscInt           ntiles;
  PetscBool          set;
  PetscMPIInt        rank;
  PetscViewer        viewer;
  FILE              *fp;
  char               want[128];

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetEnum(NULL, NULL, "-mat_segcsr_short", MatSegCSRShortModes, (PetscEnum *)&asked, &set));
  PetscCall(MatSegCSRGetShortMode(S, &mode, &ntiles));
  PetscCheck(mode == MAT_SEGCSR_SHORT_GROUP || mode == MAT_SEGCSR_SHORT_TILE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "segcsr runs short-row mode %d, expected group or tile", (int)mode);
  PetscCheck(asked == MAT_SEGCSR_SHORT_AUTO || mode == asked, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-mat_segcsr_short %s was asked, the matrix runs %s", MatSegCSRShortModes[asked], MatSegCSRShortModes[mode]);
  PetscCheck(mode == MAT_SEGCSR_SHORT_TILE || ntiles == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "group mode with %" PetscInt_FMT " tiles", ntiles);
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)S), &rank));
  fp = tmpfile();
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "tmpfile() failed");
  PetscCall(PetscViewerASCIIOpenWithFILE(PetscObjectComm((PetscObject)S), fp, &viewer)); /* rank 0 writes */
  PetscCall(PetscViewerPushFormat(viewer, PETSC_VIEWER_ASCII_INFO));
  PetscCall(MatView(S, viewer));
  PetscCall(PetscViewerPopFormat(viewer));
  PetscCall(PetscViewerDestroy(&viewer)); /* leaves fp open */
  if (mode == MAT_SEGCSR_SHORT_TILE) PetscCall(PetscSNPrintf(want, sizeof(want), "short rows: tile mode (%s), %" PetscInt_FMT " tiles", asked == MAT_SEGCSR_SHORT_AUTO ? "chosen by auto" : "asked for", ntiles));
  else PetscCall(PetscSNPrintf(want, sizeof(want), "short rows: group mode (%s)", asked == MAT_SEGCSR_SHORT_AUTO ? "chosen by auto" : "asked for"));
  if (!rank) {
    char   text[16384];
    size_t len;
    char  *found = NULL;

    rewind(fp);
    len       = fread(text, 1, sizeof(text) - 1, fp);
    text[len] = 0;
    PetscCall(PetscStrstr(text, want, &found));
    PetscCheck(found, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the ascii_info view does not say \"%s\":\n%s", want, text);
  }
  fclose(fp);
  PetscFunctionReturn(0);
}

#define TestCheckVec(a, b, tol, what)                                                                                                                                \
  do {                                                                                                                                                               \
    PetscReal rel_ = PETSC_MAX_REAL;                                                                                                                                 \
    PetscCall(TestVecDiff((a), (b), &rel_));                                                                                                                         \
    PetscCheck(rel_ <= (tol), PetscObjectComm((PetscObject)(a)), PETSC_ERR_PLIB, "%s: vectors differ, relative error %g > %g", (what), (double)rel_, (double)(tol)); \
  } while (0)

#define TestCheckScalar(a, b, tol, what)                                                                                                                                          \
  do {                                                                                                                                                                            \
    PetscReal a_ = (PetscReal)(a), b_ = (PetscReal)(b);                                                                                                                           \
    PetscCheck(PetscAbsReal(a_ - b_) <= (tol)*PetscMax(1.0, PetscAbsReal(b_)), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: got %.17g, expected %.17g", (what), (double)a_, (double)b_); \
  } while (0)

/* for reductions: the rounding error of a sum scales with the sum of the magnitudes of its
   terms (scale), not with the size of the result */
#define TestCheckReduction(a, b, scale, tol, what)                                                                                                                                                                   \
  do {                                                                                                                                                                                                               \
    PetscReal a_ = (PetscReal)(a), b_ = (PetscReal)(b), s_ = PetscMax((PetscReal)(scale), 1.0);                                                                                                                      \
    PetscCheck(PetscAbsReal(a_ - b_) <= (tol)*s_, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: got %.17g, expected %.17g (error %g, scale %g)", (what), (double)a_, (double)b_, (double)PetscAbsReal(a_ - b_), (double)s_); \
  } while (0)

#endif

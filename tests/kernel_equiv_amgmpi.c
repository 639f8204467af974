static const char help[] = "PC gpuamg's distributed Galerkin products by each rank's share on the sparse kernel table\n"
                           "(GPUPCAMGGalerkinMPI, src/pc/impls/gpuamg/amgsetupgalerkinmpi.c) against MatPtAP on MPIAIJ:\n"
                           "  1. a fresh host-setup hierarchy (default options: the per-rank products): every coarse level made by the\n"
                           "     per-rank product (its kept data composed), with MatPtAP's pattern and block size, and its values within\n"
                           "     -tol (default 1e-13) of MatPtAP(A_l, P_l) relative to the largest entry of each row;\n"
                           "  2. the hierarchy with -pc_gpuamg_mpi_galerkin_ptap's option (mpi_ptap): the first coarse level by MatPtAP\n"
                           "     (nothing composed), equal to the first one's within -tol;\n"
                           "  3. new values on the same pattern (off-diagonals times a factor in [0.5, 1.5]): the value-only recompute\n"
                           "     keeps the coarse matrices (the same objects) and each level equals MatPtAP of the recomputed level within\n"
                           "     -tol and a fresh GPUPCAMGGalerkinMPI of it bit for bit;\n"
                           "  4. new values of P (P times 2, a copy): the reuse equals MatPtAP within -tol; MAT_REUSE_MATRIX on a matrix\n"
                           "     not made by GPUPCAMGGalerkinMPI is refused.\n"
                           "Cases: -problem <randcoef3d> -n <rows> -agg (smoothed aggregation: P rank-local plus A P_tent) -rank_local\n"
                           "  (classical coarsened rank by rank: P without an off-diagonal block) -min_levels <2>\n";

#include <gpupc/amgsetup.h>
#include <gpupc/problems.h>
#include "testcases.h"

/* over the local rows: the largest |x_ij - y_ij| / max_k |y_ik| (entries missing from one count as 0), and whether
   the patterns differ; reduced over the ranks */
static PetscErrorCode RowRelDiff(Mat X, Mat Y, PetscReal *rel, PetscBool *samepattern)
{
  PetscInt  lo, hi;
  PetscReal worst   = 0.0;
  PetscInt  diffpat = 0, gdiff;

  PetscFunctionBegin;
  PetscCall(MatGetOwnershipRange(Y, &lo, &hi));
  for (PetscInt r = lo; r < hi; r++) {
    const PetscInt    *xc, *yc;
    const PetscScalar *xv, *yv;
    PetscInt           nx, ny, a = 0, b = 0;
    PetscReal          ymax = 0.0;
    PetscCall(MatGetRow(X, r, &nx, &xc, &xv));
    PetscCall(MatGetRow(Y, r, &ny, &yc, &yv));
    for (PetscInt k = 0; k < ny; k++) ymax = PetscMax(ymax, PetscAbsScalar(yv[k]));
    if (nx != ny) diffpat = 1;
    while (a < nx || b < ny) {
      PetscScalar d;
      if (b >= ny || (a < nx && xc[a] < yc[b])) {
        d       = xv[a++];
        diffpat = 1;
      } else if (a >= nx || yc[b] < xc[a]) {
        d       = yv[b++];
        diffpat = 1;
      } else d = xv[a++] - yv[b++];
      worst = PetscMax(worst, PetscAbsScalar(d) / PetscMax(ymax, PETSC_SMALL));
    }
    PetscCall(MatRestoreRow(Y, r, &ny, &yc, &yv));
    PetscCall(MatRestoreRow(X, r, &nx, &xc, &xv));
  }
  PetscCall(MPIU_Allreduce(&worst, rel, 1, MPIU_REAL, MPI_MAX, PetscObjectComm((PetscObject)Y)));
  PetscCall(MPIU_Allreduce(&diffpat, &gdiff, 1, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)Y)));
  *samepattern = (PetscBool)!gdiff;
  PetscFunctionReturn(0);
}

/* X equals Y within tol (the pattern too); what names the comparison */
static PetscErrorCode CheckClose(Mat X, Mat Y, PetscReal tol, const char *what, PetscInt l)
{
  PetscReal rel;
  PetscBool same;
  PetscInt  bx, by;

  PetscFunctionBegin;
  PetscCall(RowRelDiff(X, Y, &rel, &same));
  PetscCall(MatGetBlockSize(X, &bx));
  PetscCall(MatGetBlockSize(Y, &by));
  PetscCall(PetscPrintf(PetscObjectComm((PetscObject)Y), "  level %" PetscInt_FMT ": %s: max row-relative difference %.3g%s\n", l + 1, what, (double)rel, same ? "" : " (patterns differ)"));
  PetscCheck(same && rel <= tol && bx == by, PetscObjectComm((PetscObject)Y), PETSC_ERR_PLIB, "level %" PetscInt_FMT ", %s: difference %g (tolerance %g), %s pattern, block sizes %" PetscInt_FMT " and %" PetscInt_FMT, l + 1, what, (double)rel, (double)tol, same ? "same" : "another", bx, by);
  PetscFunctionReturn(0);
}

/* whether C was made by the per-rank product (it carries the product's kept data) */
static PetscErrorCode Kept(Mat C, PetscBool *kept)
{
  PetscObject o;

  PetscFunctionBegin;
  PetscCall(PetscObjectQuery((PetscObject)C, GPUPC_AMG_GALERKIN_MPI_KEY, &o));
  *kept = (PetscBool)(o != NULL);
  PetscFunctionReturn(0);
}

/* a deterministic factor in [0.5, 1.5] of an entry */
static PetscReal Factor(PetscInt i, PetscInt j)
{
  unsigned long long h = (unsigned long long)(i * 1000003 + j * 7919 + 17);
  h ^= h >> 13;
  h *= 0x9E3779B97F4A7C15ULL;
  h ^= h >> 29;
  return 0.5 + (PetscReal)(h % 1000003) / 1000003.0;
}

/* A's off-diagonal values times Factor, in place (the pattern is kept) */
static PetscErrorCode NewValues(Mat A)
{
  Mat      B;
  PetscInt lo, hi;

  PetscFunctionBegin;
  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &B));
  PetscCall(MatGetOwnershipRange(A, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) {
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscInt           nz;
    PetscScalar       *v;
    PetscCall(MatGetRow(B, i, &nz, &cols, &vals));
    PetscCall(PetscMalloc1(nz, &v));
    for (PetscInt k = 0; k < nz; k++) v[k] = cols[k] == i ? vals[k] : vals[k] * Factor(i, cols[k]);
    PetscCall(MatSetValues(A, 1, &i, nz, cols, v, INSERT_VALUES));
    PetscCall(PetscFree(v));
    PetscCall(MatRestoreRow(B, i, &nz, &cols, &vals));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(0);
}

static PetscErrorCode RunCase(void)
{
  MPI_Comm             comm        = PETSC_COMM_WORLD;
  char                 problem[64] = "randcoef3d";
  PetscInt             n = 4000, minlev = 2;
  PetscReal            tol = 1e-13;
  PetscBool            agg = PETSC_FALSE, local = PETSC_FALSE;
  GPUPCAMGSetupOptions o;
  GPUPCAMGHierarchy    H, H2;
  Mat                  A;
  Vec                  b;
  Mat                 *first;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-problem", problem, sizeof(problem), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-min_levels", &minlev, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-agg", &agg, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-rank_local", &local, NULL));
  PetscCall(GPUPCProblemCreate(comm, problem, n, 1, &A, &b));
  PetscCall(GPUPCAMGSetupOptionsDefault(&o));
  o.location     = PC_GPUAMG_SETUP_HOST;
  o.location_set = PETSC_TRUE;
  o.max_coarse   = 20;
  if (agg) o.type = PC_GPUAMG_AGG;
  if (local) o.across = 0;

  /* 1. the fresh hierarchy against MatPtAP level by level */
  PetscCall(GPUPCAMGHierarchyBuild(A, &o, &H));
  PetscCall(PetscPrintf(comm, "%s, %" PetscInt_FMT " rows%s: %" PetscInt_FMT " levels\n", problem, n, agg ? ", aggregation" : (local ? ", rank-local classical" : ", classical across ranks"), H.nlevels));
  PetscCheck(H.nlevels >= minlev, comm, PETSC_ERR_PLIB, "%" PetscInt_FMT " levels, fewer than -min_levels %" PetscInt_FMT, H.nlevels, minlev);
  for (PetscInt l = 0; l + 1 < H.nlevels; l++) {
    Mat       R;
    PetscBool kept;
    PetscCall(Kept(H.A[l + 1], &kept));
    PetscCheck(kept, comm, PETSC_ERR_PLIB, "level %" PetscInt_FMT " was not made by the per-rank product", l + 1);
    PetscCall(MatPtAP(H.A[l], H.P[l], MAT_INITIAL_MATRIX, 2.0, &R));
    PetscCall(CheckClose(H.A[l + 1], R, tol, "fresh, against MatPtAP", l));
    PetscCall(MatDestroy(&R));
  }

  /* 2. the MatPtAP reference through the option */
  o.mpi_ptap = PETSC_TRUE;
  PetscCall(GPUPCAMGHierarchyBuild(A, &o, &H2));
  {
    PetscBool kept;
    PetscCall(Kept(H2.A[1], &kept));
    PetscCheck(!kept, comm, PETSC_ERR_PLIB, "mpi_ptap: the first coarse level was made by the per-rank product");
    PetscCall(CheckClose(H.A[1], H2.A[1], tol, "against the mpi_ptap hierarchy", 0));
  }
  PetscCall(GPUPCAMGHierarchyDestroy(&H2));

  /* 3. new values on the same pattern: the value-only recompute against MatPtAP and against a fresh product */
  PetscCall(PetscMalloc1(H.nlevels, &first));
  for (PetscInt l = 1; l < H.nlevels; l++) first[l] = H.A[l];
  PetscCall(NewValues(A));
  PetscCall(GPUPCAMGHierarchyRecompute(A, &H));
  for (PetscInt l = 0; l + 1 < H.nlevels; l++) {
    Mat R, F;
    PetscCheck(H.A[l + 1] == first[l + 1], comm, PETSC_ERR_PLIB, "the value-only recompute replaced coarse level %" PetscInt_FMT, l + 1);
    PetscCall(MatPtAP(H.A[l], H.P[l], MAT_INITIAL_MATRIX, 2.0, &R));
    PetscCall(CheckClose(H.A[l + 1], R, tol, "value-only, against MatPtAP", l));
    PetscCall(GPUPCAMGGalerkinMPI(H.A[l], H.P[l], MAT_INITIAL_MATRIX, &F));
    PetscCall(CheckClose(H.A[l + 1], F, 0.0, "value-only, against a fresh product (bit for bit)", l));
    PetscCall(MatDestroy(&F));
    PetscCall(MatDestroy(&R));
  }
  PetscCall(PetscFree(first));

  /* 4. new values of P, and a reuse the product refuses */
  {
    Mat            P2, C, R;
    PetscErrorCode ierr;
    PetscCall(MatDuplicate(H.P[0], MAT_COPY_VALUES, &P2));
    PetscCall(GPUPCAMGGalerkinMPI(A, P2, MAT_INITIAL_MATRIX, &C));
    PetscCall(MatScale(P2, 2.0));
    PetscCall(GPUPCAMGGalerkinMPI(A, P2, MAT_REUSE_MATRIX, &C));
    PetscCall(MatPtAP(A, P2, MAT_INITIAL_MATRIX, 2.0, &R));
    PetscCall(CheckClose(C, R, tol, "P times 2, reuse against MatPtAP", 0));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = GPUPCAMGGalerkinMPI(A, P2, MAT_REUSE_MATRIX, &R);
    PetscCall(PetscPopErrorHandler());
    PetscCheck(ierr == PETSC_ERR_ARG_WRONG, comm, PETSC_ERR_PLIB, "MAT_REUSE_MATRIX on MatPtAP's matrix gave error %d, not PETSC_ERR_ARG_WRONG", (int)ierr);
    PetscCall(MatDestroy(&R));
    PetscCall(MatDestroy(&C));
    PetscCall(MatDestroy(&P2));
  }
  PetscCall(GPUPCAMGHierarchyDestroy(&H));
  PetscCall(MatDestroy(&A));
  PetscCall(VecDestroy(&b));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  return TestCasesMain(argc, argv, help, RunCase);
}

static const char help[] = "PC gpuamg's device cycle on a hierarchy built here (geometric bilinear interpolation on an n x n grid,\n"
                           "Galerkin coarse operators by MatPtAP), apart from the host setup:\n"
                           "  the smoother reduces the A-norm of the error of a random vector on the finest level;\n"
                           "  with -pcmg, a V(1,1) cycle with damped Jacobi equals PETSc's PCMG with the same levels and smoother;\n"
                           "  the cycle is symmetric for a symmetric operator ((x, M y) = (M x, y)) and PCApplyTranspose is its\n"
                           "  transpose ((M^T x, y) = (x, M y), also for a nonsymmetric one: -conv);\n"
                           "  CG (GMRES with -conv) preconditioned by the cycle converges in at most -maxits iterations.\n"
                           "Options: -n (2^k - 1), -conv, -levels, -maxits, -pcmg, -block_size, and the cycle options -pc_gpuamg_cycle, -pc_gpuamg_smoother,\n"
                           "-pc_gpuamg_pre_sweeps, -pc_gpuamg_post_sweeps, -pc_gpuamg_jacobi_weight, -pc_gpuamg_chebyshev_degree,\n"
                           "-pc_gpuamg_polynomial_degree.\n";

#include <petscksp.h>
#include <gpupc/amgcycle.h>
#include "gpupctest.h"

/* P = P1 x P1, P1 the 1D linear interpolation from nc = (nf - 1) / 2 coarse points (fine points 2j+1) to nf fine
   points; rows owned as in A (fine layout), columns PETSc's split of the coarse grid */
static PetscErrorCode Interpolation(Mat A, PetscInt nf, Mat *P)
{
  const PetscInt nc = (nf - 1) / 2;
  PetscInt       lo, hi, mloc;

  PetscFunctionBegin;
  PetscCall(MatGetOwnershipRange(A, &lo, &hi));
  PetscCall(MatGetLocalSize(A, &mloc, NULL));
  PetscCall(MatCreateAIJ(PetscObjectComm((PetscObject)A), mloc, PETSC_DECIDE, nf * nf, nc * nc, 4, NULL, 4, NULL, P));
  for (PetscInt row = lo; row < hi; row++) {
    const PetscInt i = row % nf, j = row / nf;
    PetscInt       ci[2], cj[2], ni = 0, nj = 0;
    PetscReal      wi[2], wj[2];

    if (i % 2 == 1) {
      ci[ni]   = (i - 1) / 2;
      wi[ni++] = 1.0;
    } else {
      if (i / 2 - 1 >= 0) {
        ci[ni]   = i / 2 - 1;
        wi[ni++] = 0.5;
      }
      if (i / 2 < nc) {
        ci[ni]   = i / 2;
        wi[ni++] = 0.5;
      }
    }
    if (j % 2 == 1) {
      cj[nj]   = (j - 1) / 2;
      wj[nj++] = 1.0;
    } else {
      if (j / 2 - 1 >= 0) {
        cj[nj]   = j / 2 - 1;
        wj[nj++] = 0.5;
      }
      if (j / 2 < nc) {
        cj[nj]   = j / 2;
        wj[nj++] = 0.5;
      }
    }
    for (PetscInt a = 0; a < ni; a++)
      for (PetscInt b = 0; b < nj; b++) {
        PetscInt    col = cj[b] * nc + ci[a];
        PetscScalar v   = wi[a] * wj[b];
        PetscCall(MatSetValues(*P, 1, &row, 1, &col, &v, INSERT_VALUES));
      }
  }
  PetscCall(MatAssemblyBegin(*P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*P, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

static PetscErrorCode BuildHierarchy(Mat A, PetscInt n, PetscInt maxlevels, GPUPCAMGHierarchy *H)
{
  PetscInt nf = n;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(H, sizeof(*H)));
  PetscCall(PetscCalloc2(maxlevels, &H->A, maxlevels, &H->P));
  PetscCall(PetscObjectReference((PetscObject)A));
  H->A[0]    = A;
  H->nlevels = 1;
  while (H->nlevels < maxlevels && nf >= 7) {
    const PetscInt l = H->nlevels - 1;
    PetscCall(Interpolation(H->A[l], nf, &H->P[l]));
    PetscCall(MatPtAP(H->A[l], H->P[l], MAT_INITIAL_MATRIX, 2.0, &H->A[l + 1]));
    nf = (nf - 1) / 2;
    H->nlevels++;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode FreeHierarchy(GPUPCAMGHierarchy *H)
{
  PetscFunctionBegin;
  for (PetscInt l = 0; l < H->nlevels; l++) {
    PetscCall(MatDestroy(&H->A[l]));
    if (l < H->nlevels - 1) PetscCall(MatDestroy(&H->P[l]));
  }
  PetscCall(PetscFree2(H->A, H->P));
  PetscFunctionReturn(0);
}

static PetscErrorCode ApplyShell(PC pc, Vec b, Vec x)
{
  GPUPCAMGDevice *D;

  PetscFunctionBegin;
  PetscCall(PCShellGetContext(pc, &D));
  PetscCall(GPUPCAMGDeviceApply(D, PETSC_FALSE, b, x));
  PetscFunctionReturn(0);
}

static PetscErrorCode ApplyTransposeShell(PC pc, Vec b, Vec x)
{
  GPUPCAMGDevice *D;

  PetscFunctionBegin;
  PetscCall(PCShellGetContext(pc, &D));
  PetscCall(GPUPCAMGDeviceApply(D, PETSC_TRUE, b, x));
  PetscFunctionReturn(0);
}

static PetscErrorCode ANorm(Mat A, Vec e, Vec t, PetscReal *nrm)
{
  PetscScalar d;

  PetscFunctionBegin;
  PetscCall(MatMult(A, e, t));
  PetscCall(VecDot(e, t, &d));
  *nrm = PetscSqrtReal(PetscRealPart(d));
  PetscFunctionReturn(0);
}

/* the smoother on level 0, from zero for b = A u: the A-norm of the error goes down, sweep after sweep */
static PetscErrorCode CheckSmoother(GPUPCAMGDevice *D)
{
  GPUPCAMGDeviceLevel *L = &D->levels[0];
  Vec                  u, e, t;
  PetscRandom          rnd;
  PetscReal            e0, prev, cur;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(L->x, &u));
  PetscCall(VecDuplicate(L->x, &e));
  PetscCall(VecDuplicate(L->x, &t));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetFromOptions(rnd));
  PetscCall(VecSetRandom(u, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(MatMult(L->A, u, L->b));
  PetscCall(ANorm(L->A, u, t, &e0));
  prev = e0;
  for (PetscInt s = 0; s < 4; s++) {
    PetscCall(GPUPCAMGSmooth(D, 0, PETSC_FALSE, 1, (PetscBool)(s == 0)));
    PetscCall(VecWAXPY(e, -1.0, L->x, u));
    PetscCall(ANorm(L->A, e, t, &cur));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "smoother %s sweep %" PetscInt_FMT ": ||e||_A / ||e0||_A = %.4f\n", D->opts.smoother, s + 1, (double)(cur / e0)));
    PetscCheck(cur < prev, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "smoother %s: sweep %" PetscInt_FMT " did not reduce the A-norm of the error (%g to %g)", D->opts.smoother, s + 1, (double)prev, (double)cur);
    prev = cur;
  }
  PetscCheck(cur < 0.9 * e0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "smoother %s: four sweeps left %.3f of the A-norm of a random error", D->opts.smoother, (double)(cur / e0));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&e));
  PetscCall(VecDestroy(&t));
  PetscFunctionReturn(0);
}

/* (x, M y) against (M^T x, y), and for a symmetric operator also against (M x, y) */
static PetscErrorCode CheckTranspose(GPUPCAMGDevice *D, PetscBool symmetric)
{
  Vec         x, y, Mx, My, Mtx;
  PetscRandom rnd;
  PetscScalar a, b, c;
  PetscReal   nx, ny, nMy, nMx;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(D->levels[0].x, &x));
  PetscCall(VecDuplicate(x, &y));
  PetscCall(VecDuplicate(x, &Mx));
  PetscCall(VecDuplicate(x, &My));
  PetscCall(VecDuplicate(x, &Mtx));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(VecSetRandom(y, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(GPUPCAMGDeviceApply(D, PETSC_FALSE, y, My));
  PetscCall(GPUPCAMGDeviceApply(D, PETSC_FALSE, x, Mx));
  PetscCall(GPUPCAMGDeviceApply(D, PETSC_TRUE, x, Mtx));
  PetscCall(VecDot(x, My, &a));
  PetscCall(VecDot(Mtx, y, &b));
  PetscCall(VecDot(Mx, y, &c));
  PetscCall(VecNorm(x, NORM_2, &nx));
  PetscCall(VecNorm(y, NORM_2, &ny));
  PetscCall(VecNorm(My, NORM_2, &nMy));
  PetscCall(VecNorm(Mx, NORM_2, &nMx));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "(x, M y) = %.12g, (M^T x, y) = %.12g, (M x, y) = %.12g\n", (double)a, (double)b, (double)c));
  PetscCheck(PetscAbsScalar(a - b) <= 1e-11 * nx * nMy, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "PCApplyTranspose is not the transpose of the cycle: (x, M y) = %.15g, (M^T x, y) = %.15g", (double)a, (double)b);
  if (symmetric) PetscCheck(PetscAbsScalar(a - c) <= 1e-11 * PetscMax(nx * nMy, ny * nMx), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the cycle is not symmetric: (x, M y) = %.15g, (M x, y) = %.15g", (double)a, (double)c);
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&Mx));
  PetscCall(VecDestroy(&My));
  PetscCall(VecDestroy(&Mtx));
  PetscFunctionReturn(0);
}

/* M b of the cycle against PETSc's PCMG with the same levels, V(1,1) damped Jacobi (Richardson-scaled PCJACOBI) and
   an LU last level */
static PetscErrorCode CheckPCMG(GPUPCAMGDevice *D, const GPUPCAMGHierarchy *H)
{
  PC          mg;
  KSP         smooth;
  PC          spc;
  Vec         b, x1, x2;
  PetscRandom rnd;
  PetscReal   nrm, dif;

  PetscFunctionBegin;
  PetscCheck(!strcmp(D->opts.smoother, PCGPUAMGSMOOTHERJACOBI) && D->opts.cycle == PC_GPUAMG_CYCLE_V, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-pcmg compares a V-cycle with jacobi");
  PetscCall(PCCreate(PETSC_COMM_WORLD, &mg));
  PetscCall(PCSetType(mg, PCMG));
  PetscCall(PCSetOperators(mg, H->A[0], H->A[0]));
  PetscCall(PCMGSetLevels(mg, H->nlevels, NULL));
  PetscCall(PCMGSetGalerkin(mg, PC_MG_GALERKIN_NONE));
  for (PetscInt l = 0; l < H->nlevels; l++) {
    const PetscInt lev = H->nlevels - 1 - l; /* PCMG counts from the coarsest */
    if (l < H->nlevels - 1) PetscCall(PCMGSetInterpolation(mg, lev, H->P[l]));
    if (l == H->nlevels - 1) {
      PetscCall(PCMGGetCoarseSolve(mg, &smooth));
      PetscCall(KSPSetType(smooth, KSPPREONLY));
      PetscCall(KSPGetPC(smooth, &spc));
      PetscCall(PCSetType(spc, PCLU));
      PetscCall(KSPSetOperators(smooth, H->A[l], H->A[l]));
      continue;
    }
    PetscCall(PCMGGetSmoother(mg, lev, &smooth));
    PetscCall(KSPSetOperators(smooth, H->A[l], H->A[l]));
    PetscCall(KSPSetType(smooth, KSPRICHARDSON));
    PetscCall(KSPRichardsonSetScale(smooth, D->levels[l].sm.omega));
    PetscCall(KSPSetTolerances(smooth, 0, 0, 0, D->opts.pre));
    PetscCall(KSPSetNormType(smooth, KSP_NORM_NONE));
    PetscCall(KSPSetConvergenceTest(smooth, KSPConvergedSkip, NULL, NULL));
    PetscCall(KSPGetPC(smooth, &spc));
    PetscCall(PCSetType(spc, PCJACOBI));
  }
  PetscCall(PCSetUp(mg));
  PetscCall(VecDuplicate(D->levels[0].x, &b));
  PetscCall(VecDuplicate(b, &x1));
  PetscCall(VecDuplicate(b, &x2));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(VecSetRandom(b, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PCApply(mg, b, x1));
  PetscCall(GPUPCAMGDeviceApply(D, PETSC_FALSE, b, x2));
  PetscCall(VecNorm(x1, NORM_2, &nrm));
  PetscCall(VecAXPY(x2, -1.0, x1));
  PetscCall(VecNorm(x2, NORM_2, &dif));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "V(1,1) jacobi against PCMG: relative difference %s\n", dif <= 1e-12 * nrm ? "below 1e-12" : "ABOVE 1e-12"));
  PetscCheck(dif <= 1e-12 * nrm, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the cycle differs from PCMG's: |x - x_mg| = %g, |x_mg| = %g", (double)dif, (double)nrm);
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x1));
  PetscCall(VecDestroy(&x2));
  PetscCall(PCDestroy(&mg));
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckKrylov(GPUPCAMGDevice *D, PetscBool symmetric, PetscInt maxits)
{
  KSP         ksp;
  PC          pc;
  Vec         b, x;
  PetscRandom rnd;
  PetscInt    its;

  PetscFunctionBegin;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, D->levels[0].A, D->levels[0].A));
  PetscCall(KSPSetType(ksp, symmetric ? KSPCG : KSPGMRES));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 200));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCSHELL));
  PetscCall(PCShellSetContext(pc, D));
  PetscCall(PCShellSetApply(pc, ApplyShell));
  PetscCall(PCShellSetApplyTranspose(pc, ApplyTransposeShell));
  PetscCall(VecDuplicate(D->levels[0].x, &b));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(VecSetRandom(b, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s with the %s-cycle (%s): %" PetscInt_FMT " iterations to 1e-8\n", symmetric ? "CG" : "GMRES", PCGPUAMGCycleTypes[D->opts.cycle], D->opts.smoother, its));
  PetscCheck(its <= maxits, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "%" PetscInt_FMT " iterations, more than %" PetscInt_FMT, its, maxits);
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt             n = 63, levels = 10, maxits = 20, bs = 1;
  PetscReal            conv = 0;
  PetscBool            pcmg = PETSC_FALSE;
  GPUPCAMGCycleOptions o;
  GPUPCAMGHierarchy    H;
  GPUPCAMGDevice       D;
  Mat                  A;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(GPUPCAMGCycleOptionsDefault(&o));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "amg_cycle options", NULL);
  PetscCall(PetscOptionsInt("-n", "grid points per direction (2^k - 1)", NULL, n, &n, NULL));
  PetscCall(PetscOptionsInt("-levels", "at most this many levels", NULL, levels, &levels, NULL));
  PetscCall(PetscOptionsInt("-maxits", "at most this many Krylov iterations", NULL, maxits, &maxits, NULL));
  PetscCall(PetscOptionsReal("-conv", "convection (nonsymmetric operator)", NULL, conv, &conv, NULL));
  PetscCall(PetscOptionsBool("-pcmg", "compare with PCMG", NULL, pcmg, &pcmg, NULL));
  PetscCall(PetscOptionsInt("-block_size", "block size of the finest matrix (the bjacobi smoother's blocks; must divide the local rows)", NULL, bs, &bs, NULL));
  PetscCall(PetscOptionsEnum("-pc_gpuamg_cycle", "cycle", NULL, PCGPUAMGCycleTypes, (PetscEnum)o.cycle, (PetscEnum *)&o.cycle, NULL));
  PetscCall(PetscOptionsString("-pc_gpuamg_smoother", "smoother (a registered name)", NULL, o.smoother, o.smoother, sizeof(o.smoother), NULL));
  PetscCall(PetscOptionsInt("-pc_gpuamg_pre_sweeps", "pre-smoothing sweeps", NULL, o.pre, &o.pre, NULL));
  PetscCall(PetscOptionsInt("-pc_gpuamg_post_sweeps", "post-smoothing sweeps", NULL, o.post, &o.post, NULL));
  PetscCall(PetscOptionsReal("-pc_gpuamg_jacobi_weight", "damping", NULL, o.weight, &o.weight, NULL));
  PetscCall(PetscOptionsInt("-pc_gpuamg_chebyshev_degree", "Chebyshev degree", NULL, o.cheby_degree, &o.cheby_degree, NULL));
  PetscCall(PetscOptionsInt("-pc_gpuamg_polynomial_degree", "Neumann degree", NULL, o.poly_degree, &o.poly_degree, NULL));
  PetscOptionsEnd();

  PetscCall(TestGridOperator(2, n, conv, MATAIJ, &A));
  if (bs > 1) PetscCall(MatSetBlockSize(A, bs));
  PetscCall(BuildHierarchy(A, n, levels, &H));
  PetscCall(GPUPCAMGDeviceCreate(&H, &o, &D));
  {
    PetscViewer v = PETSC_VIEWER_STDOUT_WORLD;
    PetscCall(GPUPCAMGDeviceView(&D, v));
  }
  if (conv == 0) PetscCall(CheckSmoother(&D));
  if (pcmg) PetscCall(CheckPCMG(&D, &H));
  PetscCall(CheckTranspose(&D, (PetscBool)(conv == 0 && o.cycle != PC_GPUAMG_CYCLE_F && o.pre == o.post)));
  PetscCall(CheckKrylov(&D, (PetscBool)(conv == 0 && o.cycle != PC_GPUAMG_CYCLE_F && o.pre == o.post), maxits));
  PetscCall(GPUPCAMGDeviceDestroy(&D));
  PetscCall(FreeHierarchy(&H));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

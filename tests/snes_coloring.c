static const char help[] = "Newton on a DMDA problem with several unknowns per grid point, Jacobian by PETSc's default\n"
                           "finite-difference coloring, with AIJ and with the Mat type under test.\n"
                           "  -test_mat_type <segcsr>   the type under test (its vectors: -test_vec_type <gpu>)\n"
                           "  -dof <4> -n <12> -dim <2,3> -stencil <star,box> -periodic (n divisible by 3; an n x n grid)\n"
                           "Checks: the colored Jacobians agree entry by entry at the same point, SNES takes the same Newton steps\n"
                           "and linear iterations (+-1 per Newton step) as AIJ, the solutions agree.\n";

#include <petscdmda.h>
#include <petscsnes.h>
#include <petscgpupc.h>

/* F_c(u) = -lap(u_c) + u_c^3 + 0.5 u_c u_{c+1} + 0.3 du_{c+2}/dx - (1 + c): nonsymmetric, couples every component */
static PetscErrorCode FormFunction(SNES snes, Vec X, Vec F, void *ctx)
{
  DM             da;
  Vec            Xl;
  DMDALocalInfo  in;
  PetscScalar ***x3, ***f3;

  PetscFunctionBegin;
  PetscCall(SNESGetDM(snes, &da));
  PetscCall(DMDAGetLocalInfo(da, &in));
  PetscCall(DMGetLocalVector(da, &Xl));
  PetscCall(DMGlobalToLocal(da, X, INSERT_VALUES, Xl));
  if (in.dim == 2) {
    PetscReal hx = 1.0 / (in.mx + 1), hy = 1.0 / (in.my + 1);
    PetscCall(DMDAVecGetArrayDOFRead(da, Xl, &x3));
    PetscCall(DMDAVecGetArrayDOF(da, F, &f3));
    for (PetscInt j = in.ys; j < in.ys + in.ym; j++)
      for (PetscInt i = in.xs; i < in.xs + in.xm; i++)
        for (PetscInt c = 0; c < in.dof; c++) {
          /* outside a non-periodic boundary the unknowns are 0 */
          PetscScalar u = x3[j][i][c], w = (i > 0 || in.bx == DM_BOUNDARY_PERIODIC) ? x3[j][i - 1][c] : 0, e = (i < in.mx - 1 || in.bx == DM_BOUNDARY_PERIODIC) ? x3[j][i + 1][c] : 0;
          PetscScalar s = (j > 0 || in.by == DM_BOUNDARY_PERIODIC) ? x3[j - 1][i][c] : 0, n = (j < in.my - 1 || in.by == DM_BOUNDARY_PERIODIC) ? x3[j + 1][i][c] : 0;
          PetscInt    c1 = (c + 1) % in.dof, c2 = (c + 2) % in.dof;
          PetscScalar dw = (i > 0 || in.bx == DM_BOUNDARY_PERIODIC) ? x3[j][i - 1][c2] : 0, de = (i < in.mx - 1 || in.bx == DM_BOUNDARY_PERIODIC) ? x3[j][i + 1][c2] : 0;
          f3[j][i][c] = (2 * u - w - e) / (hx * hx) + (2 * u - s - n) / (hy * hy) + u * u * u + 0.5 * u * x3[j][i][c1] + 0.3 * (de - dw) / (2 * hx) - (1.0 + c);
        }
    PetscCall(DMDAVecRestoreArrayDOFRead(da, Xl, &x3));
    PetscCall(DMDAVecRestoreArrayDOF(da, F, &f3));
  } else {
    PetscScalar ****x4, ****f4;
    PetscReal       h = 1.0 / (in.mx + 1);
    PetscCall(DMDAVecGetArrayDOFRead(da, Xl, &x4));
    PetscCall(DMDAVecGetArrayDOF(da, F, &f4));
    for (PetscInt k = in.zs; k < in.zs + in.zm; k++)
      for (PetscInt j = in.ys; j < in.ys + in.ym; j++)
        for (PetscInt i = in.xs; i < in.xs + in.xm; i++)
          for (PetscInt c = 0; c < in.dof; c++) {
            PetscBool   px = (PetscBool)(in.bx == DM_BOUNDARY_PERIODIC), py = (PetscBool)(in.by == DM_BOUNDARY_PERIODIC), pz = (PetscBool)(in.bz == DM_BOUNDARY_PERIODIC);
            PetscScalar u = x4[k][j][i][c], nb = 0;
            PetscInt    c1 = (c + 1) % in.dof;
            if (i > 0 || px) nb += x4[k][j][i - 1][c];
            if (i < in.mx - 1 || px) nb += x4[k][j][i + 1][c];
            if (j > 0 || py) nb += x4[k][j - 1][i][c];
            if (j < in.my - 1 || py) nb += x4[k][j + 1][i][c];
            if (k > 0 || pz) nb += x4[k - 1][j][i][c];
            if (k < in.mz - 1 || pz) nb += x4[k + 1][j][i][c];
            f4[k][j][i][c] = (6 * u - nb) / (h * h) + u * u * u + 0.5 * u * x4[k][j][i][c1] - (1.0 + c);
          }
    PetscCall(DMDAVecRestoreArrayDOFRead(da, Xl, &x4));
    PetscCall(DMDAVecRestoreArrayDOF(da, F, &f4));
  }
  PetscCall(DMRestoreLocalVector(da, &Xl));
  PetscFunctionReturn(0);
}

typedef struct {
  PetscInt            newton, linear;
  PetscInt            linear_per_step[64];
  PetscReal           fnorm[64];
  SNESConvergedReason reason;
  Vec                 x;
  Mat                 J; /* the Jacobian at the common point, as AIJ */
} Result;

static PetscErrorCode Run(PetscInt dim, PetscInt n, PetscInt dof, DMDAStencilType st, DMBoundaryType bt, MatType mtype, VecType vtype, Vec xprobe, Result *r)
{
  DM   da;
  SNES snes;
  Vec  x, xp;
  Mat  J;

  PetscFunctionBegin;
  if (dim == 2) PetscCall(DMDACreate2d(PETSC_COMM_WORLD, bt, bt, st, n, bt == DM_BOUNDARY_PERIODIC ? n : n + 1, PETSC_DECIDE, PETSC_DECIDE, dof, 1, NULL, NULL, &da));
  else PetscCall(DMDACreate3d(PETSC_COMM_WORLD, bt, bt, bt, st, n, n, n, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, dof, 1, NULL, NULL, NULL, &da));
  PetscCall(DMSetMatType(da, mtype));
  PetscCall(DMSetVecType(da, vtype));
  PetscCall(DMSetUp(da));
  PetscCall(SNESCreate(PETSC_COMM_WORLD, &snes));
  PetscCall(SNESSetDM(snes, da));
  PetscCall(SNESSetFunction(snes, NULL, FormFunction, NULL));
  PetscCall(SNESSetTolerances(snes, 1e-10, 1e-8, PETSC_DEFAULT, 50, PETSC_DEFAULT));
  PetscCall(SNESSetConvergenceHistory(snes, r->fnorm, r->linear_per_step, 64, PETSC_TRUE));
  {
    KSP ksp;
    PC  pc;
    PetscCall(SNESGetKSP(snes, &ksp));
    PetscCall(KSPSetType(ksp, KSPGMRES));
    PetscCall(KSPSetTolerances(ksp, 1e-6, PETSC_DEFAULT, PETSC_DEFAULT, 5000));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCJACOBI));
  }
  PetscCall(SNESSetFromOptions(snes));
  PetscCall(DMCreateGlobalVector(da, &x));
  PetscCall(VecSet(x, 0.0));
  PetscCall(SNESSolve(snes, NULL, x));
  PetscCall(SNESGetIterationNumber(snes, &r->newton));
  PetscCall(SNESGetLinearSolveIterations(snes, &r->linear));
  PetscCall(SNESGetConvergedReason(snes, &r->reason));
  /* the Jacobian at a common point, as AIJ */
  PetscCall(VecDuplicate(x, &xp));
  PetscCall(VecCopy(xprobe, xp));
  PetscCall(SNESGetJacobian(snes, &J, NULL, NULL, NULL));
  PetscCall(SNESComputeJacobian(snes, xp, J, J));
  PetscCall(MatConvert(J, MATAIJ, MAT_INITIAL_MATRIX, &r->J));
  {
    PetscInt nl;
    PetscCall(VecGetLocalSize(x, &nl));
    PetscCall(VecCreateMPI(PETSC_COMM_WORLD, nl, PETSC_DETERMINE, &r->x));
    PetscCall(VecCopy(x, r->x));
  }
  PetscCall(VecDestroy(&xp));
  PetscCall(VecDestroy(&x));
  PetscCall(SNESDestroy(&snes));
  PetscCall(DMDestroy(&da));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt        dim = 2, n = 12, dof = 4;
  char            mtype[64] = "segcsr", vtype[64] = "gpu", stname[16] = "star";
  PetscBool       periodic = PETSC_FALSE, box;
  Result          ra = {0}, rt = {0};
  Vec             xprobe, d;
  PetscReal       nJ, ndiff, nx, nxd;
  PetscRandom     rnd;
  DMDAStencilType st;
  DMBoundaryType  bt;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dim", &dim, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dof", &dof, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-test_mat_type", mtype, sizeof(mtype), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-test_vec_type", vtype, sizeof(vtype), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-stencil", stname, sizeof(stname), NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-periodic", &periodic, NULL));
  PetscCheck(dim == 2 || dim == 3, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-dim must be 2 or 3");
  PetscCheck(dof >= 1 && dof <= 8, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-dof must be 1..8");
  /* PETSc's DMDA coloring of a periodic grid needs every periodic size divisible by 2 * stencil width + 1 */
  PetscCheck(!periodic || n % 3 == 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-periodic needs -n divisible by 3 (PETSc's DMDA coloring)");
  PetscCall(PetscStrcmp(stname, "box", &box));
  st = box ? DMDA_STENCIL_BOX : DMDA_STENCIL_STAR;
  bt = periodic ? DM_BOUNDARY_PERIODIC : DM_BOUNDARY_NONE;

  /* the common point at which both Jacobians are compared: random, on the AIJ layout */
  {
    DM  da;
    Vec g;
    if (dim == 2) PetscCall(DMDACreate2d(PETSC_COMM_WORLD, bt, bt, st, n, bt == DM_BOUNDARY_PERIODIC ? n : n + 1, PETSC_DECIDE, PETSC_DECIDE, dof, 1, NULL, NULL, &da));
    else PetscCall(DMDACreate3d(PETSC_COMM_WORLD, bt, bt, bt, st, n, n, n, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, dof, 1, NULL, NULL, NULL, &da));
    PetscCall(DMSetUp(da));
    PetscCall(DMCreateGlobalVector(da, &g));
    PetscCall(VecDuplicate(g, &xprobe));
    PetscCall(VecDestroy(&g));
    PetscCall(DMDestroy(&da));
  }
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, 0.5, 2.0));
  PetscCall(VecSetRandom(xprobe, rnd));
  PetscCall(PetscRandomDestroy(&rnd));

  PetscCall(Run(dim, n, dof, st, bt, MATAIJ, VECSTANDARD, xprobe, &ra));
  PetscCall(Run(dim, n, dof, st, bt, mtype, vtype, xprobe, &rt));

  /* Jacobians at the same point: the coloring evaluates the same differences, so they agree to rounding */
  PetscCall(MatNorm(ra.J, NORM_FROBENIUS, &nJ));
  PetscCall(MatAXPY(rt.J, -1.0, ra.J, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatNorm(rt.J, NORM_FROBENIUS, &ndiff));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: colored Jacobian |J_test - J_aij|_F / |J_aij|_F = %.3g\n", mtype, (double)(ndiff / nJ)));
  PetscCheck(ndiff <= 1e-10 * nJ, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the colored Jacobian of %s differs from AIJ's: |difference|_F %g against |J|_F %g", mtype, (double)ndiff, (double)nJ);

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "aij: %s after %" PetscInt_FMT " Newton steps, %" PetscInt_FMT " linear iterations; %s: %s after %" PetscInt_FMT " Newton steps, %" PetscInt_FMT " linear iterations\n", SNESConvergedReasons[ra.reason], ra.newton, ra.linear, mtype,
                        SNESConvergedReasons[rt.reason], rt.newton, rt.linear));
  PetscCheck(ra.reason > 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the AIJ run did not converge (%s): the test problem is wrong", SNESConvergedReasons[ra.reason]);
  PetscCheck(rt.reason == ra.reason && rt.newton == ra.newton, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: %s after %" PetscInt_FMT " Newton steps; AIJ: %s after %" PetscInt_FMT, mtype, SNESConvergedReasons[rt.reason], rt.newton, SNESConvergedReasons[ra.reason], ra.newton);
  for (PetscInt k = 0; k < ra.newton && k < 64; k++)
    PetscCheck(PetscAbs(ra.linear_per_step[k] - rt.linear_per_step[k]) <= 1, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "Newton step %" PetscInt_FMT ": %s took %" PetscInt_FMT " linear iterations, AIJ %" PetscInt_FMT, k, mtype, rt.linear_per_step[k], ra.linear_per_step[k]);
  PetscCall(VecDuplicate(ra.x, &d));
  PetscCall(VecWAXPY(d, -1.0, ra.x, rt.x));
  PetscCall(VecNorm(d, NORM_INFINITY, &nxd));
  PetscCall(VecNorm(ra.x, NORM_INFINITY, &nx));
  PetscCheck(nxd <= 1e-6 * nx, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "solutions differ: max |x_test - x_aij| %g, max |x_aij| %g", (double)nxd, (double)nx);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "solutions agree: max difference %.3g of %.3g\n", (double)nxd, (double)nx));

  PetscCall(VecDestroy(&d));
  PetscCall(VecDestroy(&xprobe));
  PetscCall(VecDestroy(&ra.x));
  PetscCall(VecDestroy(&rt.x));
  PetscCall(MatDestroy(&ra.J));
  PetscCall(MatDestroy(&rt.J));
  PetscCall(PetscFinalize());
  return 0;
}

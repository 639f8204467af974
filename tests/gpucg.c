static const char help[] = "KSP gpucg against KSPCG on the same SPD problem, the same vectors and the same PC.\n"
                           "  -dim <2,3> -n <points per direction>; PC, norm type and -ksp_gpucg_type from the options (no -ksp_type:\n"
                           "   the test sets cg and gpucg itself)\n"
                           "  -scale_decades <k>: solve with D A D, D diagonal with entries 10^(k u), u uniform in [0,1) (ill-conditioned)\n"
                           "  -guess_nonzero: start both from the same random initial guess\n"
                           "  -standard_vectors: plain VECSTANDARD vectors (gpucg's fallback path) instead of gpu vectors\n"
                           "  -its_tolerance <k> (default 1), -its_rtol <r>: iteration counts may differ by max(k, r * its)\n"
                           "  -sol_tolerance <t> (default 1e-6): max |x_gpucg - x_cg| / max(1, max |x_cg|)\n"
                           "  -history_iterations <k> (default 3): the first k+1 residual norms agree to 1e-8\n"
                           "Checks: both converge, counts within the tolerance, solutions agree, residual histories start alike, true\n"
                           "residual small; on gpu vectors gpucg ran its fused kernels with one host wait per iteration (plus the\n"
                           "initial one); on standard vectors it ran the fallback.\n";

#include <petscksp.h>
#include <petscgpupc.h>
#include <gpupc/device.h>
#include "gpupctest.h"
#include "testcases.h"

#define MAXHIST 4096

static PetscErrorCode Solve(Mat A, KSPType type, Vec b, Vec x0, Vec x, PetscReal *hist, PetscInt *nhist, PetscInt *its, KSPConvergedReason *reason, KSP *kspout)
{
  KSP ksp;

  PetscFunctionBegin;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, type));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 3000));
  PetscCall(KSPSetResidualHistory(ksp, hist, MAXHIST, PETSC_TRUE));
  PetscCall(KSPSetFromOptions(ksp));
  if (x0) {
    PetscCall(VecCopy(x0, x));
    PetscCall(KSPSetInitialGuessNonzero(ksp, PETSC_TRUE));
  }
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, reason));
  {
    const PetscReal *h;
    PetscCall(KSPGetResidualHistory(ksp, &h, nhist));
  }
  *kspout = ksp;
  PetscFunctionReturn(0);
}

/* A := D A D with D_ii = 10^(k u_i) */
static PetscErrorCode Scale(Mat A, PetscReal decades, PetscRandom rnd)
{
  Vec          d;
  PetscScalar *a;
  PetscInt     n;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, &d, NULL));
  PetscCall(VecSetRandom(d, rnd));
  PetscCall(VecGetLocalSize(d, &n));
  PetscCall(VecGetArray(d, &a));
  for (PetscInt i = 0; i < n; i++) a[i] = PetscPowReal(10.0, decades * PetscRealPart(a[i]));
  PetscCall(VecRestoreArray(d, &a));
  PetscCall(MatDiagonalScale(A, d, d));
  PetscCall(VecDestroy(&d));
  PetscFunctionReturn(0);
}

/* one test case on the options of the current database (tests/testcases.h) */
static PetscErrorCode RunCase(void)
{
  PetscInt           dim = 2, n = 32, its_c, its_g, its_tol = 1, nh_c, nh_g, hist_its = 3, gits;
  PetscReal          its_rtol = 0.0, sol_tol = 1e-6, decades = 0.0, hc[MAXHIST], hg[MAXHIST], rn, bn;
  PetscBool          nonzero = PETSC_FALSE, standard = PETSC_FALSE, fused;
  PetscInt64         waits, launches;
  KSPConvergedReason rc, rg;
  KSPGPUCGType       variant;
  KSPNormType        normtype;
  Mat                A;
  Vec                b, x0 = NULL, xc, xg, r;
  PetscRandom        rnd;
  KSP                kc, kg;
  size_t             mem0, mem1;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dim", &dim, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-its_tolerance", &its_tol, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-its_rtol", &its_rtol, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-sol_tolerance", &sol_tol, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-scale_decades", &decades, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-history_iterations", &hist_its, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-guess_nonzero", &nonzero, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-standard_vectors", &standard, NULL));
  PetscCheck(dim == 2 || dim == 3, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-dim must be 2 or 3");
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem0));
  PetscCall(TestGridOperator(dim, n, 0.0, MATAIJ, &A));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  if (decades > 0.0) PetscCall(Scale(A, decades, rnd));
  PetscCall(MatCreateVecs(A, &xc, NULL));
  if (!standard) PetscCall(VecSetType(xc, VECGPU));
  PetscCall(VecDuplicate(xc, &xg));
  PetscCall(VecDuplicate(xc, &b));
  PetscCall(VecSetRandom(b, rnd));
  if (nonzero) {
    PetscCall(VecDuplicate(xc, &x0));
    PetscCall(VecSetRandom(x0, rnd));
  }
  PetscCall(PetscRandomDestroy(&rnd));

  PetscCall(Solve(A, KSPCG, b, x0, xc, hc, &nh_c, &its_c, &rc, &kc));
  PetscCall(Solve(A, KSPGPUCG, b, x0, xg, hg, &nh_g, &its_g, &rg, &kg));
  PetscCall(KSPGPUCGGetType(kg, &variant));
  PetscCall(KSPGetNormType(kg, &normtype));
  PetscCall(KSPGPUCGGetStatistics(kg, &fused, &gits, &waits, &launches));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "dim %" PetscInt_FMT " n %" PetscInt_FMT " %s vectors, norm %s: cg %" PetscInt_FMT " its (%s), gpucg %s %" PetscInt_FMT " its (%s), %s, host waits %" PetscInt64_FMT ", launches %" PetscInt64_FMT "\n", dim, n, standard ? "standard" : "gpu", KSPNormTypes[normtype], its_c,
                        KSPConvergedReasons[rc], KSPGPUCGTypes[variant], its_g, KSPConvergedReasons[rg], fused ? "fused" : "fallback", waits, launches));
  /* without a norm both run to the iteration limit */
  if (normtype == KSP_NORM_NONE) PetscCheck(rc == rg, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "without a norm the solves ended differently: cg %s, gpucg %s", KSPConvergedReasons[rc], KSPConvergedReasons[rg]);
  else PetscCheck(rc > 0 && rg > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "a solve did not converge: cg %s, gpucg %s", KSPConvergedReasons[rc], KSPConvergedReasons[rg]);
  its_tol = PetscMax(its_tol, (PetscInt)PetscCeilReal(its_rtol * its_c));
  PetscCheck(PetscAbs(its_g - its_c) <= its_tol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "iteration counts differ: gpucg %" PetscInt_FMT ", cg %" PetscInt_FMT " (allowed difference %" PetscInt_FMT ")", its_g, its_c, its_tol);
  TestCheckVec(xg, xc, sol_tol, "solution of gpucg vs cg");
  /* the monitors see the same norms: the histories have one entry per iteration and start alike */
  PetscCheck(nh_c == its_c + 1 && nh_g == its_g + 1, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "residual histories have %" PetscInt_FMT " (cg) and %" PetscInt_FMT " (gpucg) entries for %" PetscInt_FMT " and %" PetscInt_FMT " iterations", nh_c, nh_g, its_c, its_g);
  if (normtype != KSP_NORM_NONE)
    for (PetscInt i = 0; i <= PetscMin(hist_its, PetscMin(its_c, its_g)); i++) TestCheckScalar(hg[i] / hc[0], hc[i] / hc[0], 1e-8, "residual history of gpucg vs cg (relative to the first norm)");
  /* what gpucg ran: fused on gpu vectors with one wait per test (iterations + the initial one), else the fallback */
  PetscCheck(gits == its_g, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "KSPGPUCGGetStatistics says %" PetscInt_FMT " iterations, KSP %" PetscInt_FMT, gits, its_g);
  PetscCheck(fused == !standard, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "gpucg ran %s on %s vectors", fused ? "fused kernels" : "the fallback", standard ? "standard" : "gpu");
  if (fused) {
    const PetscInt64 want_launches = variant == KSP_GPUCG_CLASSIC ? 2 * its_g + 1 : its_g + 1;
    PetscCheck(waits == its_g + 1, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "gpucg waited %" PetscInt64_FMT " times for the device in %" PetscInt_FMT " iterations, expected %" PetscInt_FMT, waits, its_g, its_g + 1);
    PetscCheck(launches == want_launches, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "gpucg launched %" PetscInt64_FMT " kernels in %" PetscInt_FMT " iterations, expected %" PetscInt64_FMT, launches, its_g, want_launches);
  } else PetscCheck(waits == 0 && launches == 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the fallback counted %" PetscInt64_FMT " waits and %" PetscInt64_FMT " launches", waits, launches);
  /* true residual of the gpucg solution (the unscaled check as ksp_laplace: within the PC's scaling) */
  PetscCall(VecDuplicate(b, &r));
  PetscCall(MatMult(A, xg, r));
  PetscCall(VecAXPY(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rn));
  PetscCall(VecNorm(b, NORM_2, &bn));
  PetscCheck(decades > 0.0 || normtype == KSP_NORM_NONE || rn <= 1e-5 * bn, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "true relative residual %g too large", (double)(rn / bn));
  PetscCall(KSPDestroy(&kc));
  PetscCall(KSPDestroy(&kg));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&x0));
  PetscCall(VecDestroy(&xc));
  PetscCall(VecDestroy(&xg));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem1));
  PetscCheck(mem0 == mem1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "device memory in use went from %zu to %zu bytes", mem0, mem1);
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  return TestCasesMain(argc, argv, help, RunCase);
}

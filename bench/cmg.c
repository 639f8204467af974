static const char help[] = "PCG + PC cmg on a generated SDD problem: setup by phase, iterations to -rtol, solve time,\n"
                           "and the time of one cycle (PCApply) against the cycle's bandwidth floor.\n"
                           "  -problem <randcoef3d>  a built-in SDD problem (-help lists the built-in problems under -problem)\n"
                           "  -n <1000000>           unknowns (the generator picks the nearest grid)\n"
                           "  -rtol <1e-8>           true relative residual of the solve (unpreconditioned norm)\n"
                           "  -cycles <20>           timed PCApply calls (median reported)\n"
                           "The solve is timed twice from a zero guess: solve_s is the first KSPSolve (it includes one-time\n"
                           "device costs: loading each kernel at its first launch, reduction buffers), warm_solve_s the second.\n"
                           "  -copy_bw <GB/s>        device copy bandwidth for the floor (default: measured here)\n"
                           "  -reuse                 then new values on the same pattern (the matrix scaled by 1.5): the time of\n"
                           "                         PCSetUp (SAME_NONZERO_PATTERN: the clustering kept) by phase, and of the solve\n"
                           "                         after it, which includes the upload of the segcsr matrix's new values\n"
                           "  -csv <file>            append the summary as a CSV row (header written when the file is new): problem,\n"
                           "                         n, nnz, solver, backend, precision, its, relres, setup_s, the setup phases\n"
                           "                         reduce/cluster/galerkin/coarse/upload_only (upload without the last-level\n"
                           "                         factorization that the cuda backend runs inside it), solve_s, warm_solve_s,\n"
                           "                         cycle_ms, floor_ms (bench/plot.py reads it)\n"
                           "  -history_csv <file>    the first solve's true relative residual per iteration (iteration,relres)\n"
                           "The matrix is segcsr (so PCG's product runs on the device) and vectors are gpu vectors.\n"
                           "Floor of one cycle: level k is visited as often as level k-1 iterates and iterates t_{k-1}\n"
                           "times per visit (level 0: once). Every iteration reads the level's Laplacian twice (residual,\n"
                           "post-smoothing) and moves 6 vectors of its size; every iteration after the first of a visit\n"
                           "reads it once more and moves 4 more vectors (pre-smoothing x + invD (b - A x)); 12 bytes (8\n"
                           "single) per nonzero. The last level reads its dense inverse once per visit.\n";

#include <petscksp.h>
#include <petsctime.h>
#include <petscgpupc.h>
#include <gpupc/device.h>
#include <gpupc/problems.h>

static int CompareDouble(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : (x > y);
}

/* seconds of one KSPSolve from the current x, the device work before and inside it waited for */
static PetscErrorCode TimedSolve(KSP ksp, Vec b, Vec x, PetscLogDouble *t)
{
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(GPUPCSynchronize());
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(GPUPCSynchronize());
  PetscCall(PetscTime(&t1));
  *t = t1 - t0;
  PetscFunctionReturn(0);
}

/* seconds inside a log event so far (all stages) */
static PetscErrorCode EventTime(const char *name, PetscLogDouble *t)
{
  PetscLogEvent      ev;
  PetscEventPerfInfo info;

  PetscFunctionBegin;
  *t = 0.0;
  PetscCall(PetscLogEventGetId(name, &ev));
  PetscCall(PetscLogEventGetPerfInfo(0, ev, &info));
  *t = info.time;
  PetscFunctionReturn(0);
}

/* device copy bandwidth (read + write) of 512 MB, median of 10 */
static PetscErrorCode CopyBandwidth(double *gbs)
{
  const size_t n = 64 * 1024 * 1024;
  double      *a, *b, t[10];

  PetscFunctionBegin;
  PetscCall(GPUPCMallocArray(n, &a));
  PetscCall(GPUPCMallocArray(n, &b));
  PetscCall(GPUPCMemzero(a, n * sizeof(double)));
  for (int r = -2; r < 10; r++) {
    PetscLogDouble t0, t1;
    PetscCall(GPUPCSynchronize());
    PetscCall(PetscTime(&t0));
    PetscCall(GPUPCCopyOnDevice(b, a, n));
    PetscCall(GPUPCSynchronize());
    PetscCall(PetscTime(&t1));
    if (r >= 0) t[r] = t1 - t0;
  }
  qsort(t, 10, sizeof(double), CompareDouble);
  *gbs = 2.0 * n * sizeof(double) / t[5] / 1e9;
  PetscCall(GPUPCFree(a));
  PetscCall(GPUPCFree(b));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char               problem[64] = "randcoef3d", prec[16] = "double", csvname[PETSC_MAX_PATH_LEN] = "", histname[PETSC_MAX_PATH_LEN] = "";
  PetscInt           n = 1000000, cycles = 20, nlev, its, N, nnz0;
  PetscReal          rtol    = 1e-8, rnorm, bnorm;
  double             copy_bw = 0.0, *tc, floor_bytes = 0.0, visits = 1.0, iters = 1.0;
  PetscLogDouble     t0, t1, tsetup, tsolve, twarm, ph[5];
  const char        *phases[] = {"CMGReduce", "CMGCluster", "CMGGalerkin", "CMGCoarseFactor", "CMGUpload"};
  Mat                A;
  Vec                b, x, r;
  KSP                ksp;
  PC                 pc;
  KSPConvergedReason reason;
  PetscBool          single = PETSC_FALSE, reuse = PETSC_FALSE;
  PetscGPUPCBackend  backend;
  MatInfo            info;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscLogDefaultBegin());
  PetscCall(GPUPCProblemOptionsString(PETSC_COMM_WORLD, "-problem", "the SDD problem solved", problem, sizeof(problem)));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-cycles", &cycles, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-rtol", &rtol, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-copy_bw", &copy_bw, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-pc_cmg_precision", prec, sizeof(prec), NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-reuse", &reuse, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-csv", csvname, sizeof(csvname), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-history_csv", histname, sizeof(histname), NULL));
  single = (PetscBool)!strcmp(prec, "single");
  PetscCall(PetscGPUPCGetBackend(&backend));
  if (copy_bw <= 0) PetscCall(CopyBandwidth(&copy_bw));

  PetscCall(GPUPCProblemCreate(PETSC_COMM_WORLD, problem, n, 1, &A, &b));
  PetscCall(MatConvert(A, MATSEGCSR, MAT_INPLACE_MATRIX, &A));
  PetscCall(MatGetSize(A, &N, NULL));
  PetscCall(MatGetInfo(A, MAT_GLOBAL_SUM, &info));
  nnz0 = (PetscInt)info.nz_used;
  PetscCall(MatCreateVecs(A, &x, &r));
  {
    Vec bg;
    PetscCall(VecDuplicate(x, &bg));
    PetscCall(VecCopy(b, bg));
    PetscCall(VecDestroy(&b));
    b = bg;
  }
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCCMG));
  PetscCall(KSPSetTolerances(ksp, rtol, PETSC_DEFAULT, PETSC_DEFAULT, 2000));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED)); /* stop on the true relative residual */
  PetscCall(KSPSetFromOptions(ksp));

  PetscCall(GPUPCSynchronize());
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSetUp(ksp));
  PetscCall(GPUPCSynchronize());
  PetscCall(PetscTime(&t1));
  tsetup = t1 - t0;
  for (int p = 0; p < 5; p++) PetscCall(EventTime(phases[p], &ph[p]));

  if (histname[0]) PetscCall(KSPSetResidualHistory(ksp, NULL, PETSC_DECIDE, PETSC_TRUE));
  PetscCall(TimedSolve(ksp, b, x, &tsolve));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  if (histname[0]) { /* the norms of the first solve: true residuals (unpreconditioned norm), relative to |b| */
    const PetscReal *hist;
    PetscInt         nh;
    PetscReal        b0;
    FILE            *fh;

    PetscCall(VecNorm(b, NORM_2, &b0));
    PetscCall(KSPGetResidualHistory(ksp, &hist, &nh));
    PetscCall(PetscFOpen(PETSC_COMM_WORLD, histname, "w", &fh));
    PetscCall(PetscFPrintf(PETSC_COMM_WORLD, fh, "iteration,relres\n"));
    for (PetscInt i = 0; i < nh; i++) PetscCall(PetscFPrintf(PETSC_COMM_WORLD, fh, "%" PetscInt_FMT ",%.6e\n", i, (double)(hist[i] / b0)));
    PetscCall(PetscFClose(PETSC_COMM_WORLD, fh));
    PetscCall(KSPSetResidualHistory(ksp, NULL, PETSC_DECIDE, PETSC_FALSE)); /* the warm solve keeps none */
  }
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rnorm));
  PetscCall(VecNorm(b, NORM_2, &bnorm));
  { /* the same solve again, warm */
    PetscInt its2;

    PetscCall(VecSet(x, 0.0));
    PetscCall(TimedSolve(ksp, b, x, &twarm));
    PetscCall(KSPGetIterationNumber(ksp, &its2));
    PetscCheck(its2 == its, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the second solve took %" PetscInt_FMT " iterations, the first %" PetscInt_FMT, its2, its);
  }

  /* one cycle: PCApply, synchronised, median */
  PetscCall(PetscMalloc1(cycles, &tc));
  for (PetscInt c = -2; c < cycles; c++) {
    PetscCall(GPUPCSynchronize());
    PetscCall(PetscTime(&t0));
    PetscCall(PCApply(pc, b, x));
    PetscCall(GPUPCSynchronize());
    PetscCall(PetscTime(&t1));
    if (c >= 0) tc[c] = t1 - t0;
  }
  qsort(tc, cycles, sizeof(double), CompareDouble);

  PetscCall(PCCMGGetNumberOfLevels(pc, &nlev));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "levels (n, nnz, t, visits and iterations per cycle):"));
  for (PetscInt k = 0; k < nlev; k++) {
    PetscInt     nk, zk, tk;
    const double vb = single ? 4.0 : 8.0, again = iters - visits; /* iterations after the first of a visit */

    PetscCall(PCCMGGetLevel(pc, k, &nk, &zk, &tk));
    if (k < nlev - 1) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, " [%" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT " %.0f %.0f]", nk, zk, tk, visits, iters));
      floor_bytes += (2.0 * iters + again) * (vb + 4.0) * zk + (6.0 * iters + 4.0 * again) * vb * nk;
    } else {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, " [%" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT " %.0f]", nk, zk, tk, visits));
      floor_bytes += visits * (vb * (double)nk * nk + 2.0 * vb * nk);
    }
    visits = iters;
    iters *= (double)PetscMax(tk, 1);
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                        "bench/cmg: problem=%s n=%" PetscInt_FMT " nnz=%" PetscInt_FMT " backend=%s precision=%s levels=%" PetscInt_FMT " its=%" PetscInt_FMT " reason=%s relres=%.2e setup_s=%.3f [reduce %.3f cluster %.3f galerkin %.3f coarse %.3f upload %.3f] solve_s=%.4f warm_solve_s=%.4f cycle_ms=%.4f floor_ms=%.4f cycle/floor=%.2f copy_GBps=%.0f\n",
                        problem, N, nnz0, backend == PETSC_GPUPC_BACKEND_CUDA ? "cuda" : "host", prec, nlev, its, KSPConvergedReasons[reason], (double)(rnorm / bnorm), tsetup, ph[0], ph[1], ph[2], ph[3], ph[4], tsolve, twarm, 1e3 * tc[cycles / 2],
                        1e3 * floor_bytes / (copy_bw * 1e9), tc[cycles / 2] / (floor_bytes / (copy_bw * 1e9)), copy_bw));
  if (csvname[0]) { /* one row; the header when the file is new */
    PetscBool exists;
    FILE     *fc;
    double    upload_only = ph[4] - (backend == PETSC_GPUPC_BACKEND_CUDA ? ph[3] : 0.0); /* cuda: the factor runs in the upload */

    PetscCall(PetscTestFile(csvname, 'r', &exists));
    PetscCall(PetscFOpen(PETSC_COMM_WORLD, csvname, "a", &fc));
    if (!exists) PetscCall(PetscFPrintf(PETSC_COMM_WORLD, fc, "problem,n,nnz,solver,backend,precision,its,relres,setup_s,reduce_s,cluster_s,galerkin_s,coarse_s,upload_only_s,solve_s,warm_solve_s,cycle_ms,floor_ms\n"));
    PetscCall(PetscFPrintf(PETSC_COMM_WORLD, fc, "%s,%" PetscInt_FMT ",%" PetscInt_FMT ",cmg,%s,%s,%" PetscInt_FMT ",%.3e,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.5f,%.5f,%.5f,%.5f\n", problem, N, nnz0, backend == PETSC_GPUPC_BACKEND_CUDA ? "cuda" : "host", prec, its, (double)(rnorm / bnorm), tsetup, ph[0], ph[1], ph[2], ph[3], upload_only, tsolve, twarm,
                           1e3 * tc[cycles / 2], 1e3 * floor_bytes / (copy_bw * 1e9)));
    PetscCall(PetscFClose(PETSC_COMM_WORLD, fc));
  }
  PetscCall(PetscFree(tc));
  if (reuse) { /* new values, same pattern: PCSetUp keeps the clustering; the solve uploads the segcsr values first */
    PetscLogDouble ph0[5], ph1[5], up0, up1, tre, tresolve;
    PetscInt       its3;

    for (int p = 0; p < 5; p++) PetscCall(EventTime(phases[p], &ph0[p]));
    PetscCall(EventTime("SegCSRUpload", &up0));
    PetscCall(MatScale(A, 1.5));
    PetscCall(GPUPCSynchronize());
    PetscCall(PetscTime(&t0));
    PetscCall(PCSetUp(pc)); /* KSPSolve would do it: PCSetUp sees the new matrix state */
    PetscCall(GPUPCSynchronize());
    PetscCall(PetscTime(&t1));
    tre = t1 - t0;
    PetscCall(VecSet(x, 0.0));
    PetscCall(TimedSolve(ksp, b, x, &tresolve));
    PetscCall(KSPGetIterationNumber(ksp, &its3));
    for (int p = 0; p < 5; p++) PetscCall(EventTime(phases[p], &ph1[p]));
    PetscCall(EventTime("SegCSRUpload", &up1));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bench/cmg reuse: its=%" PetscInt_FMT " setup_s=%.3f [reduce %.3f cluster %.3f galerkin %.3f coarse %.3f upload %.3f] solve_s=%.4f (segcsr value upload %.3f)\n", its3, tre, ph1[0] - ph0[0], ph1[1] - ph0[1], ph1[2] - ph0[2], ph1[3] - ph0[3], ph1[4] - ph0[4], tresolve, up1 - up0));
  }
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

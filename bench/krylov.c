static const char help[] = "Time per PCG iteration with KSPCG and with KSP gpucg (classic and pipelined) on gpu vectors and a segcsr\n"
                           "matrix, against the iteration's bandwidth floor, with the host waits per iteration.\n"
                           "  -problem <poisson3d>          a built-in problem (3D Laplacian by default; -help lists them under -problem)\n"
                           "  -sizes <1e4,1e5,1e6,1e7,3e7>   unknowns (the generator picks the nearest grid)\n"
                           "  -pcs <jacobi,cmg>             PC types, each set with PCSetType (so gpubjacobi or any other works)\n"
                           "                                and then PCSetFromOptions (so -pc_cmg_... and the like apply); each PC\n"
                           "                                is set up once per size and shared by the KSPs\n"
                           "  -ksps <cg,gpucg,gpucg_pipelined>  the Krylov methods compared\n"
                           "  -its <40>                     iterations per timed solve (rtol 0: every solve runs them all)\n"
                           "  -reps <5>                     timed solves (median reported), after one warm-up solve\n"
                           "  -rtol <0>                     > 0: also the time to solution at this relative residual (unpreconditioned\n"
                           "                                norm), from a zero guess, after a warm-up solve\n"
                           "  -copy_bw <GB/s>               device copy bandwidth for the floor (default: measured here)\n"
                           "Floor of one iteration: the bytes a fused PCG iteration must move over the copy bandwidth: the product\n"
                           "(12 bytes per nonzero, a row pointer, x read, y written: 12 nnz + 20 n), the vector work of single-\n"
                           "reduction CG (update: u, w, p, s, x, r read, p, s, x, r written; reduction: r, u, w read: 13 vectors of\n"
                           "n doubles) and the PC: jacobi reads r and the diagonal and writes u (3 vectors), none copies (2); for\n"
                           "other PCs the median time of one PCApply measured here is added to the floor instead.\n"
                           "Host waits per iteration: the device reductions of the Vec operations (VecDot, VecTDot, VecNorm, VecMDot,\n"
                           "VecMTDot and VecDotNorm2 log events, one wait each on gpu vectors) plus gpucg's own waits; waits inside the PC or the\n"
                           "product are not counted.\n";

#include <petscksp.h>
#include <petsctime.h>
#include <petscgpupc.h>
#include <gpupc/device.h>
#include <gpupc/problems.h>

#define MAXLIST 16

static int CompareDouble(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : (x > y);
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

/* the device reductions of Vec operations so far (each is one host wait on gpu vectors) */
static PetscErrorCode VecReductions(PetscLogDouble *count)
{
  const char *names[] = {"VecDot", "VecTDot", "VecNorm", "VecMDot", "VecMTDot", "VecDotNorm2"};

  PetscFunctionBegin;
  *count = 0;
  for (int k = 0; k < 6; k++) {
    PetscLogEvent      ev;
    PetscEventPerfInfo info;

    PetscCall(PetscLogEventGetId(names[k], &ev));
    PetscCall(PetscLogEventGetPerfInfo(0, ev, &info));
    *count += info.count;
  }
  PetscFunctionReturn(0);
}

/* one solve from x = 0: seconds, iterations, host waits (Vec reductions + gpucg's own) */
static PetscErrorCode TimedSolve(KSP ksp, Vec b, Vec x, PetscBool gpucg, double *t, PetscInt *its, double *waits)
{
  PetscLogDouble t0, t1, c0, c1;
  PetscInt64     own = 0;

  PetscFunctionBegin;
  PetscCall(VecSet(x, 0.0));
  PetscCall(VecReductions(&c0));
  PetscCall(GPUPCSynchronize());
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(GPUPCSynchronize());
  PetscCall(PetscTime(&t1));
  PetscCall(VecReductions(&c1));
  PetscCall(KSPGetIterationNumber(ksp, its));
  if (gpucg) PetscCall(KSPGPUCGGetStatistics(ksp, NULL, NULL, &own, NULL));
  *t     = t1 - t0;
  *waits = (c1 - c0) + (double)own;
  PetscFunctionReturn(0);
}

/* median seconds of one PCApply */
static PetscErrorCode TimePC(PC pc, Vec b, Vec x, double *t)
{
  double s[10];

  PetscFunctionBegin;
  for (int r = -2; r < 10; r++) {
    PetscLogDouble t0, t1;
    PetscCall(GPUPCSynchronize());
    PetscCall(PetscTime(&t0));
    PetscCall(PCApply(pc, b, x));
    PetscCall(GPUPCSynchronize());
    PetscCall(PetscTime(&t1));
    if (r >= 0) s[r] = t1 - t0;
  }
  qsort(s, 10, sizeof(double), CompareDouble);
  *t = s[5];
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char              problem[64]    = "poisson3d", *pcs[MAXLIST], *ksps[MAXLIST];
  PetscReal         sizes[MAXLIST] = {1e4, 1e5, 1e6, 1e7, 3e7}, rtol = 0.0;
  PetscInt          nsizes = MAXLIST, npcs = MAXLIST, nksps = MAXLIST, its = 40, reps = 5;
  PetscBool         set;
  double            copy_bw = 0.0;
  PetscGPUPCBackend backend;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscLogDefaultBegin());
  PetscCall(GPUPCProblemOptionsString(PETSC_COMM_WORLD, "-problem", "the matrix of the solves", problem, sizeof(problem)));
  PetscCall(PetscOptionsGetRealArray(NULL, NULL, "-sizes", sizes, &nsizes, &set));
  if (!set) nsizes = 5;
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-pcs", pcs, &npcs, &set));
  if (!set) {
    npcs = 2;
    PetscCall(PetscStrallocpy("jacobi", &pcs[0]));
    PetscCall(PetscStrallocpy("cmg", &pcs[1]));
  }
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-ksps", ksps, &nksps, &set));
  if (!set) {
    nksps = 3;
    PetscCall(PetscStrallocpy("cg", &ksps[0]));
    PetscCall(PetscStrallocpy("gpucg", &ksps[1]));
    PetscCall(PetscStrallocpy("gpucg_pipelined", &ksps[2]));
  }
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-its", &its, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-rtol", &rtol, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-copy_bw", &copy_bw, NULL));
  PetscCheck(reps >= 1 && reps <= 100 && its >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-reps must be in 1..100 and -its at least 1");
  PetscCall(PetscGPUPCGetBackend(&backend));
  if (copy_bw <= 0) PetscCall(CopyBandwidth(&copy_bw));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bench/krylov: problem=%s backend=%s copy_GBps=%.0f its=%" PetscInt_FMT " reps=%" PetscInt_FMT "\n", problem, backend == PETSC_GPUPC_BACKEND_CUDA ? "cuda" : "host", copy_bw, its, reps));

  for (PetscInt s = 0; s < nsizes; s++) {
    Mat      A;
    Vec      b, x;
    PetscInt N;
    double   nnz;
    MatInfo  info;

    PetscCall(GPUPCProblemCreate(PETSC_COMM_WORLD, problem, (PetscInt)sizes[s], 1, &A, &b));
    PetscCall(MatConvert(A, MATSEGCSR, MAT_INPLACE_MATRIX, &A));
    PetscCall(MatGetSize(A, &N, NULL));
    PetscCall(MatGetInfo(A, MAT_GLOBAL_SUM, &info));
    nnz = info.nz_used;
    PetscCall(MatCreateVecs(A, &x, NULL));
    {
      Vec bg;
      PetscCall(VecDuplicate(x, &bg));
      PetscCall(VecCopy(b, bg));
      PetscCall(VecDestroy(&b));
      b = bg;
    }
    for (PetscInt p = 0; p < npcs; p++) {
      double cg_it = 0.0, cg_sol = 0.0;
      PC     pc; /* set up once, shared by the KSPs */

      PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
      PetscCall(PCSetOperators(pc, A, A));
      PetscCall(PCSetType(pc, pcs[p]));
      PetscCall(PCSetFromOptions(pc));
      PetscCall(PCSetUp(pc));

      for (PetscInt k = 0; k < nksps; k++) {
        KSP       ksp;
        PetscBool isgpucg, pipelined, isjacobi, isnone;
        double    t[100], w = 0.0, pc_s = 0.0, bytes, floor_s, it_s, sol_s = 0.0;
        PetscInt  n_its = 0, sol_its = 0;

        PetscCall(PetscStrncmp(ksps[k], "gpucg", 5, &isgpucg));
        PetscCall(PetscStrcmp(ksps[k], "gpucg_pipelined", &pipelined));
        PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
        PetscCall(KSPSetOperators(ksp, A, A));
        PetscCall(KSPSetType(ksp, isgpucg ? KSPGPUCG : ksps[k]));
        if (isgpucg) PetscCall(KSPGPUCGSetType(ksp, pipelined ? KSP_GPUCG_PIPELINED : KSP_GPUCG_CLASSIC));
        PetscCall(KSPSetPC(ksp, pc));
        PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
        PetscCall(KSPSetTolerances(ksp, 0.0, 0.0, PETSC_DEFAULT, its));
        PetscCall(KSPSetUp(ksp));
        for (PetscInt r = -1; r < reps; r++) {
          double   tr, wr;
          PetscInt ir;

          PetscCall(TimedSolve(ksp, b, x, isgpucg, &tr, &ir, &wr));
          if (r < 0) continue;
          t[r]  = tr / PetscMax(ir, 1);
          w     = wr / PetscMax(ir, 1);
          n_its = ir;
        }
        qsort(t, reps, sizeof(double), CompareDouble);
        it_s = t[reps / 2];
        PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCJACOBI, &isjacobi));
        PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCNONE, &isnone));
        bytes = 12.0 * nnz + 20.0 * N + 13.0 * 8.0 * N;
        if (isjacobi) bytes += 3.0 * 8.0 * N;
        else if (isnone) bytes += 2.0 * 8.0 * N;
        else PetscCall(TimePC(pc, b, x, &pc_s));
        floor_s = bytes / (copy_bw * 1e9) + pc_s;
        if (rtol > 0) {
          double wr;
          PetscCall(KSPSetTolerances(ksp, rtol, 0.0, PETSC_DEFAULT, 10000));
          PetscCall(TimedSolve(ksp, b, x, isgpucg, &sol_s, &sol_its, &wr)); /* warm-up */
          PetscCall(TimedSolve(ksp, b, x, isgpucg, &sol_s, &sol_its, &wr));
        }
        if (k == 0) {
          cg_it  = it_s;
          cg_sol = sol_s;
        }
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bench/krylov: n=%" PetscInt_FMT " nnz=%.0f pc=%s ksp=%s its=%" PetscInt_FMT " it_ms=%.4f floor_ms=%.4f it/floor=%.2f waits/it=%.2f vs_%s=%.2fx", N, nnz, pcs[p], ksps[k], n_its, 1e3 * it_s, 1e3 * floor_s, it_s / floor_s, w, ksps[0], cg_it / it_s));
        if (!isjacobi && !isnone) PetscCall(PetscPrintf(PETSC_COMM_WORLD, " pc_ms=%.4f", 1e3 * pc_s));
        if (rtol > 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, " solve_its=%" PetscInt_FMT " solve_s=%.4f solve_vs_%s=%.2fx", sol_its, sol_s, ksps[0], cg_sol / sol_s));
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
        PetscCall(KSPDestroy(&ksp));
      }
      PetscCall(PCDestroy(&pc));
    }
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&b));
    PetscCall(MatDestroy(&A));
  }
  for (PetscInt p = 0; p < npcs; p++) PetscCall(PetscFree(pcs[p]));
  for (PetscInt k = 0; k < nksps; k++) PetscCall(PetscFree(ksps[k]));
  PetscCall(PetscFinalize());
  return 0;
}

static const char help[] = "PC gpubjacobi (bench/pbjbench): time of PCApply and PCApplyTranspose on gpu vectors against the bandwidth floor (the bytes an\n"
                           "application must move, 8 n bs of inverses + 16 n of x and y, at the speed of a device-to-device copy\n"
                           "measured in the same run), and against PETSc's PCPBJACOBI (host, standard vectors) on the same matrix;\n"
                           "setup (host inversion + upload) against PCPBJACOBI's setup.\n"
                           "  -n <rows>      rows (default 4032000, a multiple of every block size listed by default)\n"
                           "  -bs <list>     block sizes (default 1,2,3,4,5,6,7,8,16,32)\n"
                           "  -reps <k>      timed batches (median reported, default 20)\n"
                           "  -batch <k>     applications per batch between synchronisations (default 10)\n"
                           "  -petsc <bool>  also time PETSc's pbjacobi on the host (default true)\n"
                           "  -csv <file>    also write the table as CSV\n";

#include <petscksp.h>
#include <petscgpupc.h>
#include <gpupc/bench.h>
#include <petsctime.h>
#include <gpupc/device.h>

static int CompareDouble(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : (x > y);
}

/* median seconds of one application (op 0: PCApply, 1: PCApplyTranspose, 2: VecCopy x -> y) */
static PetscErrorCode Time(PC pc, int op, Vec x, Vec y, PetscInt reps, PetscInt batch, double *median_s)
{
  double *t;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(reps, &t));
  for (PetscInt r = -2; r < reps; r++) { /* two warm-up batches */
    PetscLogDouble t0, t1;
    PetscCall(GPUPCSynchronize());
    PetscCall(PetscTime(&t0));
    for (PetscInt b = 0; b < batch; b++) {
      if (op == 0) PetscCall(PCApply(pc, x, y));
      else if (op == 1) PetscCall(PCApplyTranspose(pc, x, y));
      else PetscCall(VecCopy(x, y));
    }
    PetscCall(GPUPCSynchronize());
    PetscCall(PetscTime(&t1));
    if (r >= 0) t[r] = (t1 - t0) / batch;
  }
  qsort(t, reps, sizeof(double), CompareDouble);
  *median_s = t[reps / 2];
  PetscCall(PetscFree(t));
  PetscFunctionReturn(0);
}

/* block-diagonal matrix of n rows, blocks of bs (block size bs), random entries, rows diagonally dominant */
static PetscErrorCode BlockMatrix(PetscInt n, PetscInt bs, PetscRandom rnd, Mat *A)
{
  PetscInt    *cols;
  PetscScalar *vals;

  PetscFunctionBegin;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, bs, NULL, A));
  PetscCall(MatSetBlockSize(*A, bs));
  PetscCall(PetscMalloc2(bs, &cols, bs, &vals));
  for (PetscInt r = 0; r < n; r++) {
    const PetscInt k0  = (r / bs) * bs;
    PetscReal      sum = 0.0;
    for (PetscInt j = 0; j < bs; j++) {
      cols[j] = k0 + j;
      PetscCall(PetscRandomGetValue(rnd, &vals[j]));
      sum += PetscAbsScalar(vals[j]);
    }
    vals[r - k0] = sum + 1.0;
    PetscCall(MatSetValues(*A, 1, &r, bs, cols, vals, INSERT_VALUES));
  }
  PetscCall(PetscFree2(cols, vals));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt          n = 4032000, reps = 20, batch = 10, bslist[32] = {1, 2, 3, 4, 5, 6, 7, 8, 16, 32}, nbs = 32;
  PetscBool         petsc                       = PETSC_TRUE, set;
  char              csvname[PETSC_MAX_PATH_LEN] = "";
  FILE             *csv                         = NULL;
  PetscGPUPCBackend backend;
  PetscRandom       rnd;
  Vec               x, y, xh, yh;
  double            tcopy, copygbs;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-batch", &batch, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-petsc", &petsc, NULL));
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-bs", bslist, &nbs, &set));
  if (!set) nbs = 10;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-csv", csvname, sizeof(csvname), NULL));
  PetscCall(PetscGPUPCGetBackend(&backend));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(VecCreateSeqGPU(PETSC_COMM_SELF, n, &x));
  PetscCall(VecDuplicate(x, &y));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, n, &xh));
  PetscCall(VecDuplicate(xh, &yh));
  PetscCall(VecCopy(x, xh));
  PetscCall(Time(NULL, 2, x, y, reps, batch, &tcopy));
  copygbs = 16.0 * n / tcopy / 1e9;
#if defined(GPUPC_HAVE_CUDA)
  /* on the device the floor's speed is a device-to-device copy of the same bytes (VecCopy may run where the data is
     valid, the host, and measured 103 GB/s on the H100) */
  if (backend == PETSC_GPUPC_BACKEND_CUDA) PetscCall(GPUPCBenchCopyBandwidth((size_t)8 * n, reps, &copygbs));
#endif
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "gpubjacobi bench: %s backend, n = %" PetscInt_FMT "; device copy %.1f GB/s (read + write)\n", PetscGPUPCBackends[backend], n, copygbs));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  bs  apply ms  floor ms  floor/apply  GB/s   transp ms  floor/transp  pbjacobi(host) ms  speedup  setup s  pbjacobi setup s\n"));
  if (csvname[0]) {
    PetscCall(PetscFOpen(PETSC_COMM_SELF, csvname, "w", &csv));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, csv, "backend,n,bs,apply_ms,transpose_ms,floor_ms,copy_gbs,pbjacobi_host_ms,setup_s,pbjacobi_setup_s\n"));
  }
  for (PetscInt b = 0; b < nbs; b++) {
    const PetscInt bs    = bslist[b];
    const double   bytes = 8.0 * n * bs + 16.0 * n, floor_s = bytes / (copygbs * 1e9);
    Mat            A;
    PC             pc, ref = NULL;
    double         ta, tt, th = 0.0;
    PetscLogDouble t0, t1, setup, refsetup = 0.0;

    PetscCheck(bs >= 1 && bs <= 32, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-bs %" PetscInt_FMT ": block sizes are 1..32", bs);
    /* bs does not divide n: a diagonal matrix, gpubjacobi with a partial last block, no pbjacobi */
    PetscCall(BlockMatrix(n, n % bs ? 1 : bs, rnd, &A));
    PetscCall(PCCreate(PETSC_COMM_SELF, &pc));
    PetscCall(PCSetOperators(pc, A, A));
    PetscCall(PCSetType(pc, PCGPUBJACOBI));
    PetscCall(PCGPUBJacobiSetBlockSize(pc, bs));
    PetscCall(GPUPCSynchronize());
    PetscCall(PetscTime(&t0));
    PetscCall(PCSetUp(pc));
    PetscCall(GPUPCSynchronize());
    PetscCall(PetscTime(&t1));
    setup = t1 - t0;
    PetscCall(Time(pc, 0, x, y, reps, batch, &ta));
    PetscCall(Time(pc, 1, x, y, reps, batch, &tt));
    if (petsc && n % bs == 0) {
      PetscCall(PCCreate(PETSC_COMM_SELF, &ref));
      PetscCall(PCSetOperators(ref, A, A));
      PetscCall(PCSetType(ref, PCPBJACOBI));
      PetscCall(PetscTime(&t0));
      PetscCall(PCSetUp(ref));
      PetscCall(PetscTime(&t1));
      refsetup = t1 - t0;
      PetscCall(Time(ref, 0, xh, yh, PetscMax(3, reps / 4), 1, &th));
      PetscCall(PCDestroy(&ref));
    }
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %2" PetscInt_FMT "  %8.3f  %8.3f  %11.2f  %5.0f  %9.3f  %12.2f  %17.3f  %7.1f  %7.3f  %16.3f\n", bs, ta * 1e3, floor_s * 1e3, floor_s / ta, bytes / ta / 1e9, tt * 1e3, floor_s / tt, th * 1e3, th > 0 ? th / ta : 0.0, (double)setup, (double)refsetup));
    if (csv) PetscCall(PetscFPrintf(PETSC_COMM_SELF, csv, "%s,%" PetscInt_FMT ",%" PetscInt_FMT ",%.6f,%.6f,%.6f,%.2f,%.6f,%.6f,%.6f\n", PetscGPUPCBackends[backend], n, bs, ta * 1e3, tt * 1e3, floor_s * 1e3, copygbs, th * 1e3, (double)setup, (double)refsetup));
    PetscCall(PCDestroy(&pc));
    PetscCall(MatDestroy(&A));
  }
  if (csv) PetscCall(PetscFClose(PETSC_COMM_SELF, csv));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&xh));
  PetscCall(VecDestroy(&yh));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return 0;
}

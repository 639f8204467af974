static const char help[] = "Bandwidth of VecAXPY, VecDot and VecMDot (8 vectors) on gpu vectors, as a fraction\n"
                           "of a device-to-device copy measured in the same run.\n"
                           "  -n <length>    vector length (default 10^8)\n"
                           "  -reps <k>      timed batches (median reported, default 30)\n"
                           "  -batch <k>     operations per batch between synchronisations (default 10)\n"
                           "  -csv <file>    also write the table as CSV\n";

#include <petscgpupc.h>
#include <petsctime.h>
#include <gpupc/device.h>

typedef enum {
  OP_COPY,
  OP_AXPY,
  OP_DOT,
  OP_MDOT8
} Op;

static const char *opname[] = {"copy (VecCopy, D2D)", "VecAXPY", "VecDot", "VecMDot (8 vectors)"};
static const int   opvecs[] = {2, 3, 2, 9}; /* vectors of n doubles moved per operation */

static int CompareDouble(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : (x > y);
}

static PetscErrorCode RunOp(Op op, Vec x, Vec y, Vec *ys, PetscInt reps, PetscInt batch, double *median_s)
{
  double     *t;
  PetscScalar d, md[8];

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(reps, &t));
  for (PetscInt r = -2; r < reps; r++) { /* two warm-up batches */
    PetscLogDouble t0, t1;

    PetscCall(GPUPCSynchronize());
    PetscCall(PetscTime(&t0));
    for (PetscInt b = 0; b < batch; b++) {
      switch (op) {
      case OP_COPY: PetscCall(VecCopy(x, y)); break;
      case OP_AXPY: PetscCall(VecAXPY(y, 1.0e-3, x)); break;
      case OP_DOT: PetscCall(VecDot(x, y, &d)); break;
      case OP_MDOT8: PetscCall(VecMDot(x, 8, ys, md)); break;
      }
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

int main(int argc, char **argv)
{
  PetscInt               n = 100000000, reps = 30, batch = 10;
  char                   csv[PETSC_MAX_PATH_LEN] = "";
  Vec                    x, y, ys[8];
  PetscRandom            rnd;
  double                 sec[4], gbs[4];
  const GPUPCDeviceInfo *info;
  FILE                  *f = NULL;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-batch", &batch, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-csv", csv, sizeof(csv), NULL));
  PetscCall(GPUPCDeviceGetInfo(&info));
  PetscCall(VecCreateSeqGPU(PETSC_COMM_SELF, n, &x));
  PetscCall(VecDuplicate(x, &y));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(VecSetRandom(y, rnd));
  for (int j = 0; j < 8; j++) {
    PetscCall(VecDuplicate(x, &ys[j]));
    PetscCall(VecSetRandom(ys[j], rnd));
  }
  for (int j = 0; j < 10; j++) { /* move the random values to the device before timing */
    Vec                v = j < 8 ? ys[j] : (j == 8 ? x : y);
    const PetscScalar *d;
    PetscCall(VecGPUGetDeviceArrayRead(v, &d));
    PetscCall(VecGPURestoreDeviceArrayRead(v, &d));
  }
  for (int op = 0; op < 4; op++) {
    PetscCall(RunOp((Op)op, x, y, ys, reps, batch, &sec[op]));
    gbs[op] = opvecs[op] * 8.0 * (double)n / sec[op] / 1e9;
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "device: %s, backend %s, n = %" PetscInt_FMT " doubles, median of %" PetscInt_FMT " batches of %" PetscInt_FMT "\n", info->name, info->backend == PETSC_GPUPC_BACKEND_CUDA ? "cuda" : "host", n, reps, batch));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-22s %12s %12s %10s %14s\n", "operation", "time (ms)", "bytes (GB)", "GB/s", "of copy BW"));
  if (csv[0]) {
    PetscCall(PetscFOpen(PETSC_COMM_SELF, csv, "w", &f));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, f, "operation,n,time_ms,bytes,GBps,fraction_of_copy\n"));
  }
  for (int op = 0; op < 4; op++) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-22s %12.4f %12.3f %10.1f %13.1f%%\n", opname[op], sec[op] * 1e3, opvecs[op] * 8.0 * n / 1e9, gbs[op], 100.0 * gbs[op] / gbs[OP_COPY]));
    if (f) PetscCall(PetscFPrintf(PETSC_COMM_SELF, f, "%s,%" PetscInt_FMT ",%.6f,%.0f,%.2f,%.4f\n", opname[op], n, sec[op] * 1e3, opvecs[op] * 8.0 * n, gbs[op], gbs[op] / gbs[OP_COPY]));
  }
  if (f) PetscCall(PetscFClose(PETSC_COMM_SELF, f));
  for (int j = 0; j < 8; j++) PetscCall(VecDestroy(&ys[j]));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return 0;
}

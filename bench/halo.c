static const char help[] = "Where the time of a distributed segcsr MatMult goes when several ranks share the GPUs they run on.\n"
                           "For each rank count it measures, per product (median over -reps, each followed by a wait for\n"
                           "the rank's stream, as a Krylov iteration waits for its dot products):\n"
                           "  mult         the distributed MatMult (mpisegcsr: interior product overlapped with the halo exchange)\n"
                           "  local/shared the product of each rank's diagonal block alone (no exchange), all ranks at once\n"
                           "  local/alone  the same product with one rank at a time (the others wait at a barrier)\n"
                           "  pack, exchange, unpack: the halo's parts from its -log_view events (per product, rank average)\n"
                           "so that sharing the device costs local/shared - local/alone, and the exchange costs\n"
                           "mult - local/shared. Options:\n"
                           "  -problem <poisson3d>  a built-in problem (-help lists them under -problem)\n"
                           "  -n <rows>             target rows of the whole problem (default 274625 = 65^3)\n"
                           "  -reps <k>             timed products (default 200)\n";

#include <petscgpupc.h>
#include <petsctime.h>
#include <gpupc/device.h>
#include <gpupc/problems.h>

static int CompareDouble(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : (x > y);
}

/* median seconds of one MatMult followed by a wait for the stream; every rank runs when active, else only waits */
static PetscErrorCode TimeMult(MPI_Comm comm, Mat A, Vec x, Vec y, PetscInt reps, PetscBool active, double *median)
{
  double *t;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(reps, &t));
  PetscCallMPI(MPI_Barrier(comm));
  for (PetscInt r = -5; r < reps; r++) {
    PetscLogDouble t0, t1;

    PetscCall(PetscTime(&t0));
    if (active) {
      PetscCall(MatMult(A, x, y));
      PetscCall(GPUPCSynchronize());
    }
    PetscCall(PetscTime(&t1));
    if (r >= 0) t[r] = t1 - t0;
  }
  qsort(t, reps, sizeof(double), CompareDouble);
  *median = t[reps / 2];
  PetscCallMPI(MPI_Barrier(comm));
  PetscCall(PetscFree(t));
  PetscFunctionReturn(0);
}

static PetscErrorCode EventSeconds(const char *name, PetscInt calls, double *per_call)
{
  PetscLogEvent      ev;
  PetscEventPerfInfo info;

  PetscFunctionBegin;
  PetscCall(PetscLogEventGetId(name, &ev));
  PetscCall(PetscLogEventGetPerfInfo(0, ev, &info));
  *per_call = calls > 0 ? info.time / calls : 0.0;
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  MPI_Comm    comm;
  PetscMPIInt size, rank;
  char        problem[64] = "poisson3d";
  PetscInt    n = 274625, reps = 200, N;
  Mat         A0, A, Ad, D;
  Vec         x, y, xd, yd;
  double      tmult, tshared, talone = 0.0, part[3], partsum[3], pack_t0[3];
  const char *parts[3] = {"GPUHaloPack", "GPUHaloExchange", "GPUHaloUnpack"};

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscLogDefaultBegin());
  comm = PETSC_COMM_WORLD;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(GPUPCProblemOptionsString(comm, "-problem", "the matrix of the products", problem, sizeof(problem)));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, NULL));
  PetscCheck(reps > 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-reps must be positive");

  PetscCall(GPUPCProblemCreate(comm, problem, n, 1, &A0, NULL));
  PetscCall(MatGetSize(A0, &N, NULL));
  /* the diagonal block of this rank (the whole matrix on one rank), as a one-rank segcsr */
  if (size > 1) PetscCall(MatMPIAIJGetSeqAIJ(A0, &Ad, NULL, NULL));
  else Ad = A0;
  PetscCall(MatConvert(Ad, MATSEQSEGCSR, MAT_INITIAL_MATRIX, &D));
  PetscCall(MatConvert(A0, MATSEGCSR, MAT_INITIAL_MATRIX, &A));
  PetscCall(MatDestroy(&A0));
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(MatCreateVecs(D, &xd, &yd));
  PetscCall(VecSetRandom(x, NULL));
  PetscCall(VecSetRandom(xd, NULL));

  for (int p = 0; p < 3; p++) PetscCall(EventSeconds(parts[p], 1, &pack_t0[p]));
  PetscCall(TimeMult(comm, A, x, y, reps, PETSC_TRUE, &tmult));
  for (int p = 0; p < 3; p++) {
    PetscCall(EventSeconds(parts[p], 1, &part[p]));
    part[p] = (part[p] - pack_t0[p]) / (reps + 5); /* the events of the timed and warm-up products */
  }
  PetscCall(TimeMult(comm, D, xd, yd, reps, PETSC_TRUE, &tshared));
  for (PetscMPIInt r = 0; r < size; r++) {
    double t;
    PetscCall(TimeMult(comm, D, xd, yd, reps, (PetscBool)(r == rank), &t));
    if (r == rank) talone = t;
  }
  {
    double in[3] = {tmult, tshared, talone}, mx[3];
    PetscCallMPI(MPI_Allreduce(in, mx, 3, MPI_DOUBLE, MPI_MAX, comm));
    PetscCallMPI(MPI_Allreduce(part, partsum, 3, MPI_DOUBLE, MPI_SUM, comm));
    PetscCall(PetscPrintf(comm, "halo: problem=%s rows=%" PetscInt_FMT " ranks=%d  mult %.1f us  local/shared %.1f us  local/alone %.1f us  sharing %.1f us  exchange %.1f us  | pack %.1f us  exchange(MPI) %.1f us  unpack %.1f us\n", problem, N, (int)size, 1e6 * mx[0], 1e6 * mx[1], 1e6 * mx[2], 1e6 * (mx[1] - mx[2]), 1e6 * (mx[0] - mx[1]), 1e6 * partsum[0] / size, 1e6 * partsum[1] / size, 1e6 * partsum[2] / size));
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&xd));
  PetscCall(VecDestroy(&yd));
  PetscCall(MatDestroy(&D));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

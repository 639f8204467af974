static const char help[] = "bench/spmv: y = A x with segcsr and hec against cuSPARSE CSR SpMV (CUSPARSE_SPMV_CSR_ALG1), same run, same vectors.\n"
                           "Generated suite: 2D 5-point, 3D 7-point, 3D 27-point Laplacians, power-grid-like SDD, power-law random graph\n"
                           "(max row >= 1000x mean), 3D elasticity (block size 3); plus -f a.mtx,b.mtx (Matrix Market coordinate).\n"
                           "Options:\n"
                           "  -reps <100>            timed repetitions (median reported, after a warm-up)\n"
                           "  -quick                 small sizes (seconds), for a smoke test\n"
                           "  -n2d <3000> -n3d7 <224> -n3d27 <128> -ngrid <2000> -npowerlaw <4000000> -nelast <72>   problem sizes\n"
                           "  -problems lap2d5,lap3d7,lap3d27,powergrid,powerlaw,elast3d   subset to run\n"
                           "  -f <files>             Matrix Market files to add\n"
                           "  -copy_mb <1024>        buffer size of the device-to-device copy measurement\n"
                           "  -csv <spmv.csv>        CSV output\n"
                           "  -check                 also run on the host backend: build the suite, compare segcsr with AIJ, print statistics (no timing)\n"
                           "  -reuse                 also new values on the same pattern (issue 19): the segcsr matrix's values written through\n"
                           "                         MatSeqAIJGetArray (scaled by 2, then 0.5, ...), then the next MatMult, which uploads them first;\n"
                           "                         update = median of that MatMult minus the median MatMult, against a device-to-device copy and a\n"
                           "                         page-locked host-to-device copy of the same nnz*8 bytes measured in the same run. Runs on the\n"
                           "                         host backend too (with -quick: a smoke test of the updates and the check, no timing)\n"
                           "  -reuse_reps <10>       value updates timed (median reported, after one untimed)\n"
                           "  -reuse_csv <spmv_reuse.csv>  CSV output of -reuse\n"
                           "  -mat_segcsr_segment_length <L> and -mat_segcsr_short <auto,group,tile> are honoured (MatSetFromOptions on the segcsr\n"
                           "  matrix; the column \"short\" says which short-row mode ran, with the number of tiles in tile mode).\n"
                           "  -bcsr                  instead: the bcsr table (bench/spmv_bcsr.h): blocked matrices blk2,blk3,blk4,blk5,blk8 (27-point node\n"
                           "                         stencil, dense b x b blocks) and elast3d as bcsr, cuSPARSE CSR and cuSPARSE BSR (cusparseDbsrmv);\n"
                           "                         -bcsr_problems <list>, -bcsr_rows <3000000>, -bcsr_max_nnz <4e8>, -nelast <100>,\n"
                           "                         -bcsr_mappings full,warp (slice shapes compared for b not a power of two), -bcsr_csv <spmv_bcsr.csv>\n"
                           "  -mat_hec_ratio <p_r> and -mat_hec_ell_width <K> are honoured by the hec matrix (MatSetFromOptions); the hec columns\n"
                           "  give its ELL width K, the share of the nonzeros in its CSR remainder, its time and its speedup over cuSPARSE and\n"
                           "  over segcsr (CSV columns hec_*; geometric means of both speedups at the end).\n"
                           "  -small                 only the small-matrix sweep: segcsr, hec and cuSPARSE at 10^3, 10^4, 10^5 and 10^6 rows\n"
                           "                         (where launch latency dominates); times in microseconds\n"
                           "  -small_problems <lap3d7,powerlaw>  problems of the sweep (any of the suite's)   -small_csv <spmv_small.csv>\n"
                           "Run on one rank with -gpupc_backend cuda on a GPU host.\n";

#include <petscmat.h>
#include <petscgpupc.h>
#include <petsctime.h>
#include <gpupc/device.h>
#include <gpupc/bench.h>
#include "spmv_problems.h"

typedef struct {
  char name[64];
  Mat  A;
} Problem;

static PetscErrorCode RowStats(Mat A, PetscInt *maxrow, PetscReal *mean)
{
  const PetscInt *ai;
  PetscInt        m;
  PetscBool       done;

  PetscFunctionBegin;
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, NULL, &done));
  *maxrow = 0;
  for (PetscInt i = 0; i < m; i++) *maxrow = PetscMax(*maxrow, ai[i + 1] - ai[i]);
  *mean = m ? (PetscReal)ai[m] / m : 0;
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, NULL, &done));
  PetscFunctionReturn(0);
}

static PetscErrorCode Generate(const char *name, PetscBool quick, Mat *A)
{
  PetscInt  n2d = quick ? 200 : 3000, n3d7 = quick ? 30 : 224, n3d27 = quick ? 20 : 128, ngrid = quick ? 150 : 2000, npl = quick ? 40000 : 4000000, nel = quick ? 10 : 72;
  PetscBool f;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n2d", &n2d, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n3d7", &n3d7, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n3d27", &n3d27, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-ngrid", &ngrid, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-npowerlaw", &npl, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nelast", &nel, NULL));
  *A = NULL;
  PetscCall(PetscStrcmp(name, "lap2d5", &f));
  if (f) PetscCall(BenchLaplacian(2, 5, n2d, A));
  PetscCall(PetscStrcmp(name, "lap3d7", &f));
  if (f) PetscCall(BenchLaplacian(3, 7, n3d7, A));
  PetscCall(PetscStrcmp(name, "lap3d27", &f));
  if (f) PetscCall(BenchLaplacian(3, 27, n3d27, A));
  PetscCall(PetscStrcmp(name, "powergrid", &f));
  if (f) PetscCall(BenchPowerGrid(ngrid, A));
  PetscCall(PetscStrcmp(name, "powerlaw", &f));
  if (f) PetscCall(BenchPowerLaw(npl, A));
  PetscCall(PetscStrcmp(name, "elast3d", &f));
  if (f) PetscCall(BenchElasticity(nel, A));
  PetscCheck(*A, PETSC_COMM_SELF, PETSC_ERR_ARG_UNKNOWN_TYPE, "unknown problem %s in -problems (use lap2d5, lap3d7, lap3d27, powergrid, powerlaw, elast3d)", name);
  PetscFunctionReturn(0);
}

/* max |a-b| / max |b| */
static PetscErrorCode RelDiff(Vec a, Vec b, PetscReal *rel)
{
  Vec       d;
  PetscReal nd, nb;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(a, &d));
  PetscCall(VecWAXPY(d, -1.0, b, a));
  PetscCall(VecNorm(d, NORM_INFINITY, &nd));
  PetscCall(VecNorm(b, NORM_INFINITY, &nb));
  *rel = nd / PetscMax(nb, PETSC_SMALL);
  PetscCall(VecDestroy(&d));
  PetscFunctionReturn(0);
}

/* a median of n times (sorts t) */
static double MedianTime(PetscInt n, PetscReal *t)
{
  PetscCallAbort(PETSC_COMM_SELF, PetscSortReal(n, t));
  return n % 2 ? (double)t[n / 2] : 0.5 * (double)(t[n / 2 - 1] + t[n / 2]);
}

/* -reuse: reps + 1 value updates of S (the first untimed: it allocates the staging buffers), each one as a
   time-stepping or Newton code makes it: the values written through MatSeqAIJGetArray (scaled by 2 and 0.5 in turn;
   *touch_ms, host only, not part of the update), then MatMult, which uploads them first. *update_ms = the median of
   those MatMults (host clock, device synchronized before and after) minus mult_ms (the median MatMult alone). Then
   the product is checked against AIJ (A scaled alike). Timing only on the cuda backend. */
static PetscErrorCode ValueUpdates(Mat A, Mat S, Vec x, Vec y, Vec yref, PetscInt reps, PetscBool timing, double mult_ms, double *update_ms, double *touch_ms)
{
  PetscReal *tu, *tt, rel;
  MatInfo    info;
  PetscInt   nz;

  PetscFunctionBegin;
  PetscCall(MatGetInfo(S, MAT_LOCAL, &info));
  nz = (PetscInt)info.nz_used;
  PetscCall(PetscMalloc2(reps + 1, &tu, reps + 1, &tt));
  for (PetscInt r = 0; r <= reps; r++) {
    const PetscScalar f = r % 2 ? 0.5 : 2.0;
    PetscLogDouble    t0, t1, t2, t3;
    PetscScalar      *a;

    PetscCall(PetscTime(&t0));
    PetscCall(MatSeqAIJGetArray(S, &a));
    for (PetscInt q = 0; q < nz; q++) a[q] *= f;
    PetscCall(MatSeqAIJRestoreArray(S, &a));
    PetscCall(PetscTime(&t1));
    PetscCall(GPUPCSynchronize());
    PetscCall(PetscTime(&t2));
    PetscCall(MatMult(S, x, y));
    PetscCall(GPUPCSynchronize());
    PetscCall(PetscTime(&t3));
    tu[r] = (PetscReal)(1e3 * (t3 - t2));
    tt[r] = (PetscReal)(1e3 * (t1 - t0));
  }
  if ((reps + 1) % 2) PetscCall(MatScale(A, 2.0)); /* an odd number of updates left S scaled by 2 */
  PetscCall(MatMult(A, x, yref));
  PetscCall(RelDiff(y, yref, &rel));
  PetscCheck(rel < 1e-10, PETSC_COMM_SELF, PETSC_ERR_PLIB, "segcsr product after %" PetscInt_FMT " value updates differs from AIJ (relative %g)", reps + 1, (double)rel);
  if ((reps + 1) % 2) PetscCall(MatScale(A, 0.5));
  *update_ms = timing ? MedianTime(reps, tu + 1) - mult_ms : 0.0;
  *touch_ms  = MedianTime(reps, tt + 1);
  PetscCall(PetscFree2(tu, tt));
  PetscFunctionReturn(0);
}

/* the bcsr table (-bcsr) */
#include "spmv_bcsr.h"
/* the problem name at about rows rows (the suite's generators, size parameter from the row count) */
static PetscErrorCode GenerateRows(const char *name, PetscInt rows, Mat *A)
{
  const PetscReal r = (PetscReal)rows;
  PetscBool       f;

  PetscFunctionBegin;
  *A = NULL;
  PetscCall(PetscStrcmp(name, "lap2d5", &f));
  if (f) PetscCall(BenchLaplacian(2, 5, (PetscInt)round(PetscSqrtReal(r)), A));
  PetscCall(PetscStrcmp(name, "lap3d7", &f));
  if (f) PetscCall(BenchLaplacian(3, 7, (PetscInt)round(PetscPowReal(r, 1.0 / 3.0)), A));
  PetscCall(PetscStrcmp(name, "lap3d27", &f));
  if (f) PetscCall(BenchLaplacian(3, 27, (PetscInt)round(PetscPowReal(r, 1.0 / 3.0)), A));
  PetscCall(PetscStrcmp(name, "powergrid", &f));
  if (f) PetscCall(BenchPowerGrid((PetscInt)round(PetscSqrtReal(r)), A));
  PetscCall(PetscStrcmp(name, "powerlaw", &f));
  if (f) PetscCall(BenchPowerLaw(rows, A));
  PetscCall(PetscStrcmp(name, "elast3d", &f));
  if (f) PetscCall(BenchElasticity((PetscInt)round(PetscPowReal(r / 3.0, 1.0 / 3.0)), A));
  PetscCheck(*A, PETSC_COMM_SELF, PETSC_ERR_ARG_UNKNOWN_TYPE, "unknown problem %s in -small_problems (use lap2d5, lap3d7, lap3d27, powergrid, powerlaw, elast3d)", name);
  PetscFunctionReturn(0);
}

/* -small: segcsr, hec and cuSPARSE on small matrices (10^3 .. 10^6 rows), where a product is a few microseconds and the
   launch and its latency, not the bandwidth, set the time; every product is checked against AIJ first */
static PetscErrorCode SmallSweep(PetscInt reps, PetscBool timing)
{
  char       *names[8], csvname[PETSC_MAX_PATH_LEN] = "spmv_small.csv";
  PetscInt    nnames = 8;
  PetscBool   set;
  FILE       *csv        = NULL;
  const char *defaults[] = {"lap3d7", "powerlaw"};

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-small_problems", names, &nnames, &set));
  if (!set) {
    nnames = 2;
    for (PetscInt k = 0; k < 2; k++) PetscCall(PetscStrallocpy(defaults[k], &names[k]));
  }
  PetscCall(PetscOptionsGetString(NULL, NULL, "-small_csv", csvname, sizeof(csvname), NULL));
  if (timing) {
    PetscCall(PetscFOpen(PETSC_COMM_WORLD, csvname, "w", &csv));
    PetscCall(PetscFPrintf(PETSC_COMM_WORLD, csv, "matrix,rows,nnz,hec_K,segcsr_us,hec_us,cusparse_us,segcsr_speedup,hec_speedup\n"));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "small matrices: one product, microseconds (median of %" PetscInt_FMT ")\n%-10s %9s %10s %4s %9s %9s %9s %8s %8s\n", reps, "matrix", "rows", "nnz", "K", "seg us", "hec us", "cusp us", "seg/cus", "hec/cus"));
  for (PetscInt p = 0; p < nnames; p++) {
    for (PetscInt rows = 1000; rows <= 1000000; rows *= 10) {
      Mat       A, S, H;
      Vec       x, y, yref;
      PetscInt  m, K;
      PetscReal rel;
      MatInfo   info;
      double    tseg = 0, thec = 0, tcus = 0;

      PetscCall(GenerateRows(names[p], rows, &A));
      PetscCall(MatGetSize(A, &m, NULL));
      PetscCall(MatGetInfo(A, MAT_LOCAL, &info));
      PetscCall(MatConvert(A, MATSEGCSR, MAT_INITIAL_MATRIX, &S));
      PetscCall(MatSetFromOptions(S));
      PetscCall(MatConvert(A, MATHEC, MAT_INITIAL_MATRIX, &H));
      PetscCall(MatSetFromOptions(H));
      PetscCall(MatHECGetEllWidth(H, &K));
      PetscCall(MatCreateVecs(S, &x, &y));
      PetscCall(VecDuplicate(y, &yref));
      PetscCall(VecSetRandom(x, NULL));
      PetscCall(MatMult(A, x, yref));
      PetscCall(MatMult(S, x, y));
      PetscCall(RelDiff(y, yref, &rel));
      PetscCheck(rel < 1e-10, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s at %" PetscInt_FMT " rows: segcsr product differs from AIJ (relative %g)", names[p], m, (double)rel);
      PetscCall(MatMult(H, x, y));
      PetscCall(RelDiff(y, yref, &rel));
      PetscCheck(rel < 1e-10, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s at %" PetscInt_FMT " rows: hec product differs from AIJ (relative %g)", names[p], m, (double)rel);
#if defined(GPUPC_HAVE_CUDA)
      if (timing) {
        PetscCall(GPUPCBenchTimeMatMult(S, x, y, reps, &tseg));
        PetscCall(GPUPCBenchTimeMatMult(H, x, y, reps, &thec));
        PetscCall(GPUPCBenchCuSparseSpMV(A, x, yref, reps, &tcus));
        PetscCall(RelDiff(y, yref, &rel));
        PetscCheck(rel < 1e-10, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s at %" PetscInt_FMT " rows: hec product differs from cuSPARSE (relative %g)", names[p], m, (double)rel);
      }
#endif
      if (timing) {
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-10s %9" PetscInt_FMT " %10.0f %4" PetscInt_FMT " %9.2f %9.2f %9.2f %8.3f %8.3f\n", names[p], m, (double)info.nz_used, K, 1e3 * tseg, 1e3 * thec, 1e3 * tcus, tcus / tseg, tcus / thec));
        PetscCall(PetscFPrintf(PETSC_COMM_WORLD, csv, "%s,%" PetscInt_FMT ",%.0f,%" PetscInt_FMT ",%.3f,%.3f,%.3f,%.4f,%.4f\n", names[p], m, (double)info.nz_used, K, 1e3 * tseg, 1e3 * thec, 1e3 * tcus, tcus / tseg, tcus / thec));
      } else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-10s %9" PetscInt_FMT " %10.0f %4" PetscInt_FMT "  (segcsr and hec == AIJ; no timing on this backend)\n", names[p], m, (double)info.nz_used, K));
      PetscCall(VecDestroy(&x));
      PetscCall(VecDestroy(&y));
      PetscCall(VecDestroy(&yref));
      PetscCall(MatDestroy(&H));
      PetscCall(MatDestroy(&S));
      PetscCall(MatDestroy(&A));
    }
  }
  if (csv) {
    PetscCall(PetscFClose(PETSC_COMM_WORLD, csv));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "CSV: %s\n", csvname));
  }
  for (PetscInt k = 0; k < nnames; k++) PetscCall(PetscFree(names[k]));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char             *names[16], *files[16], csvname[PETSC_MAX_PATH_LEN] = "spmv.csv", reusecsvname[PETSC_MAX_PATH_LEN] = "spmv_reuse.csv";
  PetscInt          nnames = 16, nfiles = 16, reps = 100, copy_mb = 1024, nrun = 0, reuse_reps = 10;
  PetscBool         quick = PETSC_FALSE, check = PETSC_FALSE, reuse = PETSC_FALSE, small = PETSC_FALSE, set, timing;
  FILE             *reusecsv = NULL;
  PetscMPIInt       size;
  PetscGPUPCBackend backend;
  double            copygbs = 0.0, logsum = 0.0, loghec = 0.0, loghecseg = 0.0;
  FILE             *csv        = NULL;
  const char       *defaults[] = {"lap2d5", "lap3d7", "lap3d27", "powergrid", "powerlaw", "elast3d"};

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCheck(size == 1, PETSC_COMM_WORLD, PETSC_ERR_SUP, "bench/spmv runs on one rank (one GPU)");
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-quick", &quick, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-check", &check, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-reuse", &reuse, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-small", &small, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reuse_reps", &reuse_reps, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-reuse_csv", reusecsvname, sizeof(reusecsvname), NULL));
  PetscCheck(reuse_reps >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-reuse_reps must be at least 1, got %" PetscInt_FMT, reuse_reps);
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-copy_mb", &copy_mb, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-csv", csvname, sizeof(csvname), NULL));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-problems", names, &nnames, &set));
  if (!set) {
    nnames = 6;
    for (PetscInt k = 0; k < 6; k++) PetscCall(PetscStrallocpy(defaults[k], &names[k]));
  }
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-f", files, &nfiles, &set));
  if (!set) nfiles = 0;
  PetscCall(PetscGPUPCGetBackend(&backend));
#if defined(GPUPC_HAVE_CUDA)
  timing = (PetscBool)(backend == PETSC_GPUPC_BACKEND_CUDA);
#else
  timing = PETSC_FALSE;
#endif
  if (!timing) {
#if defined(GPUPC_HAVE_CUDA)
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bench/spmv: the active backend is host; the benchmark times CUDA kernels (run on a GPU host with -gpupc_backend cuda).\n"));
#else
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bench/spmv: GPUPC was built without CUDA; the benchmark times CUDA kernels and cuSPARSE.\n"));
#endif
    if (!check && !reuse && !small) {
      for (PetscInt k = 0; k < nnames; k++) PetscCall(PetscFree(names[k]));
      for (PetscInt k = 0; k < nfiles; k++) PetscCall(PetscFree(files[k]));
      PetscCall(PetscFinalize());
      return 0;
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: building the matrices and comparing segcsr and hec with AIJ%s, no timing.\n", small ? "-small" : check ? "-check"
                                                                                                                                                        : "-reuse",
                          reuse ? " (also after value updates)" : ""));
  }
  if (small) { /* the small-matrix sweep only */
    PetscCall(SmallSweep(reps, timing));
    for (PetscInt k = 0; k < nnames; k++) PetscCall(PetscFree(names[k]));
    for (PetscInt k = 0; k < nfiles; k++) PetscCall(PetscFree(files[k]));
    PetscCall(PetscFinalize());
    return 0;
  }
#if defined(GPUPC_HAVE_CUDA)
  if (timing) {
    PetscCall(GPUPCBenchCopyBandwidth((size_t)copy_mb << 20, 50, &copygbs));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "device-to-device copy (%" PetscInt_FMT " MiB): %.1f GB/s (read + write)\n", copy_mb, copygbs));
  }
#endif
  { /* -bcsr: the bcsr table instead of the segcsr one */
    PetscBool bcsr                        = PETSC_FALSE;
    char      bcsrcsv[PETSC_MAX_PATH_LEN] = "spmv_bcsr.csv";
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-bcsr", &bcsr, NULL));
    PetscCall(PetscOptionsGetString(NULL, NULL, "-bcsr_csv", bcsrcsv, sizeof(bcsrcsv), NULL));
    if (bcsr) {
      PetscCall(BCSRBench(quick, timing, reps, copygbs, bcsrcsv));
      for (PetscInt k = 0; k < nnames; k++) PetscCall(PetscFree(names[k]));
      for (PetscInt k = 0; k < nfiles; k++) PetscCall(PetscFree(files[k]));
      PetscCall(PetscFinalize());
      return 0;
    }
  }
  if (timing) {
    PetscCall(PetscFOpen(PETSC_COMM_WORLD, csvname, "w", &csv));
    PetscCall(PetscFPrintf(PETSC_COMM_WORLD, csv, "matrix,rows,cols,nnz,mean_row,max_row,segment_length,padding,segcsr_ms,cusparse_ms,floor_bytes,segcsr_GBs,cusparse_GBs,segcsr_pct_copy,cusparse_pct_copy,speedup,copy_GBs,short_mode,tiles,hec_K,hec_rem_frac,hec_ms,hec_GBs,hec_speedup,hec_vs_segcsr\n"));
    if (reuse) {
      PetscCall(PetscFOpen(PETSC_COMM_WORLD, reusecsvname, "w", &reusecsv));
      PetscCall(PetscFPrintf(PETSC_COMM_WORLD, reusecsv, "matrix,rows,nnz,segment_length,padding,value_bytes,update_ms,d2d_copy_ms,h2d_pinned_ms,ratio,touch_ms,mult_ms\n"));
    }
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-14s %10s %11s %8s %7s %3s %6s %-12s %9s %9s %8s %8s %6s %6s %7s | %4s %6s %9s %8s %7s %7s\n", "matrix", "rows", "nnz", "mean", "maxrow", "L", "pad", "short", "seg ms", "cusp ms", "seg GB/s", "cus GB/s", "seg%cp", "cus%cp", "speedup", "K", "rem", "hec ms", "hec GB/s", "hec/cus", "hec/seg"));
  for (PetscInt p = 0; p < nnames + nfiles; p++) {
    Mat                A, S, H;
    Vec                x, y, yref;
    MatSegCSRShortMode mode;
    char               shortdesc[32];
    PetscInt           m, n, maxrow = 0, L, builds, ntiles, K;
    PetscReal          mean = 0, rel = 0;
    MatInfo            info;
    double             nnz, floor_bytes, tseg = 0, tcus = 0, thec = 0, pad, remfrac = 0;
    const char        *name = p < nnames ? names[p] : files[p - nnames];

    if (p < nnames) PetscCall(Generate(names[p], quick, &A));
    else PetscCall(BenchReadMatrixMarket(files[p - nnames], &A));
    PetscCall(MatGetSize(A, &m, &n));
    PetscCall(MatGetInfo(A, MAT_LOCAL, &info));
    nnz = info.nz_used;
    PetscCall(RowStats(A, &maxrow, &mean));
    PetscCall(MatConvert(A, MATSEGCSR, MAT_INITIAL_MATRIX, &S));
    PetscCall(MatSetFromOptions(S));
    PetscCall(MatSegCSRGetInfo(S, &L, &builds, NULL));
    PetscCall(MatSegCSRGetShortMode(S, &mode, &ntiles));
    if (mode == MAT_SEGCSR_SHORT_TILE) PetscCall(PetscSNPrintf(shortdesc, sizeof(shortdesc), "tile:%" PetscInt_FMT, ntiles));
    else PetscCall(PetscSNPrintf(shortdesc, sizeof(shortdesc), "%s", MatSegCSRShortModes[mode]));
    {
      /* padding from the layout: slots = L * sum_i max(1, ceil(len_i / L)) */
      const PetscInt *ai;
      PetscBool       done;
      PetscInt        mm;
      PetscInt64      slots = 0;
      PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &mm, &ai, NULL, &done));
      for (PetscInt i = 0; i < mm; i++) slots += L * PetscMax(1, (ai[i + 1] - ai[i] + L - 1) / L);
      PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &mm, &ai, NULL, &done));
      pad = nnz > 0 ? (double)(slots - (PetscInt64)nnz) / nnz : 0.0;
    }
    PetscCall(MatCreateVecs(S, &x, &y));
    PetscCall(VecDuplicate(y, &yref));
    PetscCall(VecSetRandom(x, NULL));
    /* correctness first: segcsr against AIJ */
    PetscCall(MatMult(A, x, yref));
    PetscCall(MatMult(S, x, y));
    PetscCall(RelDiff(y, yref, &rel));
    PetscCheck(rel < 1e-10, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: segcsr product differs from AIJ (relative %g)", name, (double)rel);
    /* hec: its width, the share of the nonzeros beyond it (the CSR remainder), and its product against AIJ */
    PetscCall(MatConvert(A, MATHEC, MAT_INITIAL_MATRIX, &H));
    PetscCall(MatSetFromOptions(H));
    PetscCall(MatHECGetEllWidth(H, &K));
    {
      const PetscInt *ai;
      PetscBool       done;
      PetscInt        mm;
      PetscInt64      rem = 0;
      PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &mm, &ai, NULL, &done));
      for (PetscInt i = 0; i < mm; i++) rem += PetscMax(0, ai[i + 1] - ai[i] - K);
      PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &mm, &ai, NULL, &done));
      remfrac = nnz > 0 ? (double)rem / nnz : 0.0;
    }
    PetscCall(MatMult(H, x, y));
    PetscCall(RelDiff(y, yref, &rel));
    PetscCheck(rel < 1e-10, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: hec product differs from AIJ (relative %g)", name, (double)rel);
#if defined(GPUPC_HAVE_CUDA)
    if (timing) {
      PetscCall(GPUPCBenchTimeMatMult(H, x, y, reps, &thec));
      PetscCall(GPUPCBenchTimeMatMult(S, x, y, reps, &tseg));
      PetscCall(GPUPCBenchCuSparseSpMV(A, x, yref, reps, &tcus));
      PetscCall(RelDiff(y, yref, &rel));
      PetscCheck(rel < 1e-10, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: segcsr product differs from cuSPARSE (relative %g)", name, (double)rel);
    }
#endif
    floor_bytes = 12.0 * nnz + 8.0 * (m + n);
    if (timing) {
      double gseg = floor_bytes / (tseg * 1e-3) / 1e9, gcus = floor_bytes / (tcus * 1e-3) / 1e9, speed = tcus / tseg, ghec = floor_bytes / (thec * 1e-3) / 1e9;
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-14s %10" PetscInt_FMT " %11.0f %8.2f %7" PetscInt_FMT " %3" PetscInt_FMT " %6.3f %-12s %9.4f %9.4f %8.1f %8.1f %6.1f %6.1f %7.3f | %4" PetscInt_FMT " %6.3f %9.4f %8.1f %7.3f %7.3f\n", name, m, nnz, (double)mean, maxrow, L, pad, shortdesc, tseg, tcus, gseg, gcus, 100.0 * gseg / copygbs, 100.0 * gcus / copygbs, speed, K, remfrac, thec, ghec, tcus / thec, tseg / thec));
      PetscCall(PetscFPrintf(PETSC_COMM_WORLD, csv, "%s,%" PetscInt_FMT ",%" PetscInt_FMT ",%.0f,%.4f,%" PetscInt_FMT ",%" PetscInt_FMT ",%.4f,%.6f,%.6f,%.0f,%.2f,%.2f,%.2f,%.2f,%.4f,%.2f,%s,%" PetscInt_FMT ",%" PetscInt_FMT ",%.4f,%.6f,%.2f,%.4f,%.4f\n", name, m, n, nnz, (double)mean, maxrow, L, pad, tseg, tcus, floor_bytes, gseg, gcus, 100.0 * gseg / copygbs, 100.0 * gcus / copygbs, speed, copygbs, MatSegCSRShortModes[mode], ntiles, K, remfrac, thec, ghec, tcus / thec, tseg / thec));
      logsum += PetscLogReal(speed);
      loghec += PetscLogReal(tcus / thec);
      loghecseg += PetscLogReal(tseg / thec);
    } else {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-14s %10" PetscInt_FMT " %11.0f %8.2f %7" PetscInt_FMT " %3" PetscInt_FMT " %6.3f %-12s %9s %9s %8s %8s %6s %6s %7s | %4" PetscInt_FMT " %6.3f  (segcsr and hec == AIJ: rel %.1e)\n", name, m, nnz, (double)mean, maxrow, L, pad, shortdesc, "-", "-", "-", "-", "-", "-", "-", K, remfrac, (double)rel));
    }
    if (reuse) { /* new values on the same pattern: the update against the copies of the same bytes */
      double tupd = 0, ttouch = 0, tcopy = 0, th2d = 0, bytes = 8.0 * nnz;

      PetscCall(ValueUpdates(A, S, x, y, yref, quick && !timing ? 2 : reuse_reps, timing, tseg, &tupd, &ttouch));
#if defined(GPUPC_HAVE_CUDA)
      if (timing) {
        double gbs;
        PetscCall(GPUPCBenchCopyBandwidth((size_t)bytes, 20, &gbs));
        tcopy = 2.0 * bytes / (gbs * 1e9) * 1e3;
        PetscCall(GPUPCBenchHostToDevice((size_t)bytes, 20, &th2d));
      }
#endif
      if (timing) {
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-12s value update %.3f ms (%.0f MB of values) | d2d copy %.3f ms + pinned h2d %.3f ms (%.1f GB/s) = %.3f ms | update/(copy+h2d) %.2f | host touch %.1f ms\n", name, tupd, bytes / 1e6, tcopy, th2d, bytes / (th2d * 1e6), tcopy + th2d, tupd / (tcopy + th2d), ttouch));
        PetscCall(PetscFPrintf(PETSC_COMM_WORLD, reusecsv, "%s,%" PetscInt_FMT ",%.0f,%" PetscInt_FMT ",%.4f,%.0f,%.4f,%.4f,%.4f,%.3f,%.3f,%.4f\n", name, m, nnz, L, pad, bytes, tupd, tcopy, th2d, tupd / (tcopy + th2d), ttouch, tseg));
      } else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-12s value updates: segcsr == AIJ after them (%.0f MB of values; no timing on this backend)\n", name, bytes / 1e6));
    }
    nrun++;
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y));
    PetscCall(VecDestroy(&yref));
    PetscCall(MatDestroy(&H));
    PetscCall(MatDestroy(&S));
    PetscCall(MatDestroy(&A));
  }
  if (timing && nrun) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "geometric mean speedup segcsr / cuSPARSE over %" PetscInt_FMT " matrices: %.3f\ngeometric mean speedup hec / cuSPARSE: %.3f, hec / segcsr: %.3f\nCSV: %s\n", nrun, exp(logsum / nrun), exp(loghec / nrun), exp(loghecseg / nrun), csvname));
  if (csv) PetscCall(PetscFClose(PETSC_COMM_WORLD, csv));
  if (reusecsv) {
    PetscCall(PetscFClose(PETSC_COMM_WORLD, reusecsv));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "CSV of -reuse: %s\n", reusecsvname));
  }
  for (PetscInt k = 0; k < nnames; k++) PetscCall(PetscFree(names[k]));
  for (PetscInt k = 0; k < nfiles; k++) PetscCall(PetscFree(files[k]));
  PetscCall(PetscFinalize());
  return 0;
}

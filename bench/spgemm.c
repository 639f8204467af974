static const char help[] = "bench/spgemm: the device sparse kernels of the setups (gpupc/sparsekernels.h) against cuSPARSE on the Galerkin products\n"
                           "of a real hierarchy: gpuamg's host setup builds A_l and P_l (its default options), then on the device, level by\n"
                           "level: R = P^T, A P (count, pattern, values; values alone, deterministic and unordered sums), and R A P = R (A P)\n"
                           "from scratch and for new values (numeric only), against cuSPARSE's csr2csc and SpGEMM (from scratch, and its reuse\n"
                           "API for the numeric part) in the same run. Times are medians of -reps runs after one warm-up, each run waited for;\n"
                           "every run allocates what the call allocates (ours: its temporaries and outputs; cuSPARSE: its buffers and C).\n"
                           "  -problem <poisson3d>   any gpupc-solve problem (poisson3d, randcoef3d, elasticity3d with -type agg, ...)\n"
                           "  -n <1000000>           unknowns (the generator picks the nearest grid)\n"
                           "  -type <classical>      the hierarchy: classical (pmis, ext+i, at most 4 per row of P) or agg (smoothed aggregation)\n"
                           "  -levels <0>            the first so many Galerkin products (0: all)\n"
                           "  -reps <5>              timed runs per measurement\n"
                           "Columns: ms; GB/s = the bytes a product must move at least (A, P read once, C written once: 12 bytes an entry, 4 a\n"
                           "row) over the time; Gprod/s = multiply-adds a_ik p_kj over the time; x = cuSPARSE's time over ours. Checks:\n"
                           "our R against cuSPARSE's (exactly), our A P and R A P against cuSPARSE's and R A P against the host hierarchy's\n"
                           "(same pattern, largest |difference| over the largest |entry| of its row; more than 1e-10 fails the run at the end). The host backend runs ours only (a check of the program).\n";

#include <petscmat.h>
#include <petscgpupc.h>
#include <petsctime.h>
#include <gpupc/device.h>
#include <gpupc/amg.h>
#include <gpupc/bench.h>
#include <gpupc/problems.h>
#include <gpupc/sparsekernels.h>

#define MAXREPS 101

typedef struct {
  const GPUPCSparseKernels *k;
  PetscBool                 cuda;
  GPUPCDevCSR               A, P, R, AP, RAP, Rc; /* ours (R, AP, RAP kept for the numeric runs), cuSPARSE's R */
  PetscInt                 *perm, *Ci;
  GPUPCDevRAP               rap;
  GPUPCDevCSR               cuAP, cuRAP; /* cuSPARSE's reuse results */
  GPUPCBenchSpGEMM          cuap, curap;
} Level;

typedef PetscErrorCode (*Op)(Level *);

/* the median time in ms of op over reps runs after one untimed, each waited for */
static PetscErrorCode Time(Level *L, Op op, PetscInt reps, double *ms)
{
  double t[MAXREPS];

  PetscFunctionBegin;
  PetscCall(op(L));
  PetscCall(GPUPCSynchronize());
  for (PetscInt r = 0; r < reps; r++) {
    PetscLogDouble t0, t1;
    PetscCall(PetscTime(&t0));
    PetscCall(op(L));
    PetscCall(GPUPCSynchronize());
    PetscCall(PetscTime(&t1));
    t[r] = 1e3 * (t1 - t0);
    for (PetscInt q = r; q > 0 && t[q] < t[q - 1]; q--) {
      const double x = t[q];
      t[q]           = t[q - 1];
      t[q - 1]       = x;
    }
  }
  *ms = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
  PetscFunctionReturn(0);
}

/* the device memory op takes above what is in use before it (its temporaries and what it makes and frees) */
static PetscErrorCode PeakOf(Level *L, Op op, size_t *bytes)
{
  size_t inuse, hw;

  PetscFunctionBegin;
  PetscCall(PetscGPUPCDeviceMemoryInUse(&inuse));
  PetscCall(PetscGPUPCDeviceMemoryResetPeak());
  PetscCall(op(L));
  PetscCall(PetscGPUPCDeviceMemoryPeak(&hw));
  *bytes = hw - inuse;
  PetscFunctionReturn(0);
}

/* ---- the measured operations */
static PetscErrorCode OpTranspose(Level *L)
{
  return L->k->transpose(&L->P, &L->R, L->perm, NULL);
}
static PetscErrorCode OpCount(Level *L)
{
  PetscInt nnz;
  return L->k->spgemm_count(&L->A, &L->P, L->Ci, &nnz, NULL);
}
static PetscErrorCode OpPattern(Level *L)
{
  return L->k->spgemm_pattern(&L->A, &L->P, &L->AP, NULL);
}
static PetscErrorCode OpValuesDet(Level *L)
{
  return L->k->spgemm_values(&L->A, &L->P, &L->AP, PETSC_TRUE, NULL);
}
static PetscErrorCode OpValuesAny(Level *L)
{
  return L->k->spgemm_values(&L->A, &L->P, &L->AP, PETSC_FALSE, NULL);
}
static PetscErrorCode OpMatMult(Level *L)
{
  GPUPCDevCSR C;

  PetscFunctionBegin;
  PetscCall(GPUPCDevCSRMatMult(&L->A, &L->P, MAT_INITIAL_MATRIX, PETSC_TRUE, &C, NULL));
  PetscCall(GPUPCDevCSRDestroy(&C));
  PetscFunctionReturn(0);
}
static PetscErrorCode OpRAP(Level *L)
{
  GPUPCDevRAP data;
  GPUPCDevCSR C;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&data, sizeof(data)));
  PetscCall(GPUPCDevCSRRAP(&L->A, &L->P, MAT_INITIAL_MATRIX, PETSC_TRUE, &data, &C));
  PetscCall(GPUPCDevRAPDestroy(&data));
  PetscCall(GPUPCDevCSRDestroy(&C));
  PetscFunctionReturn(0);
}
static PetscErrorCode OpRAPNumeric(Level *L)
{
  return GPUPCDevCSRRAP(&L->A, &L->P, MAT_REUSE_MATRIX, PETSC_TRUE, &L->rap, &L->RAP);
}
#if defined(GPUPC_HAVE_CUDA)
static PetscErrorCode OpCuTranspose(Level *L)
{
  return GPUPCBenchCuSparseTranspose(&L->P, &L->Rc);
}
static PetscErrorCode OpCuMatMult(Level *L)
{
  GPUPCDevCSR C;

  PetscFunctionBegin;
  PetscCall(GPUPCBenchCuSparseSpGEMM(&L->A, &L->P, &C));
  PetscCall(GPUPCDevCSRDestroy(&C));
  PetscFunctionReturn(0);
}
static PetscErrorCode OpCuValues(Level *L)
{
  return GPUPCBenchCuSparseSpGEMMNumeric(L->cuap);
}
static PetscErrorCode OpCuRAP(Level *L)
{
  GPUPCDevCSR AP, C;

  PetscFunctionBegin;
  PetscCall(GPUPCBenchCuSparseTranspose(&L->P, &L->Rc));
  PetscCall(GPUPCBenchCuSparseSpGEMM(&L->A, &L->P, &AP));
  PetscCall(GPUPCBenchCuSparseSpGEMM(&L->Rc, &AP, &C));
  PetscCall(GPUPCDevCSRDestroy(&AP));
  PetscCall(GPUPCDevCSRDestroy(&C));
  PetscFunctionReturn(0);
}
static PetscErrorCode OpCuRAPNumeric(Level *L)
{
  PetscFunctionBegin;
  PetscCall(GPUPCBenchCuSparseTranspose(&L->P, &L->Rc));
  PetscCall(GPUPCBenchCuSparseSpGEMMNumeric(L->cuap));
  PetscCall(GPUPCBenchCuSparseSpGEMMNumeric(L->curap));
  PetscFunctionReturn(0);
}
#endif

/* ---- checks on host copies */
typedef struct {
  PetscInt     m, nnz, *i, *j;
  PetscScalar *a;
} Host;

static PetscErrorCode HostGet(const GPUPCDevCSR *d, Host *h)
{
  PetscFunctionBegin;
  h->m   = d->m;
  h->nnz = d->nnz;
  PetscCall(PetscMalloc3(d->m + 1, &h->i, d->nnz, &h->j, d->nnz, &h->a));
  PetscCall(GPUPCCopyToHost(h->i, d->i, d->m + 1));
  PetscCall(GPUPCCopyToHost(h->j, d->j, d->nnz));
  PetscCall(GPUPCCopyToHost(h->a, d->a, d->nnz));
  PetscFunctionReturn(0);
}

static PetscErrorCode HostFree(Host *h)
{
  PetscFunctionBegin;
  PetscCall(PetscFree3(h->i, h->j, h->a));
  PetscFunctionReturn(0);
}

/* same pattern, and the largest |a_ij - b_ij| relative to the largest entry of its row (at least 1e-8 of the matrix's) */
static PetscErrorCode Compare(const GPUPCDevCSR *x, const GPUPCDevCSR *y, PetscBool *same, double *rel)
{
  Host a, b;

  PetscFunctionBegin;
  PetscCall(HostGet(x, &a));
  PetscCall(HostGet(y, &b));
  *rel  = 0.0;
  *same = (PetscBool)(a.m == b.m && a.nnz == b.nnz);
  for (PetscInt r = 0; *same && r <= a.m; r++) *same = (PetscBool)(a.i[r] == b.i[r]);
  for (PetscInt e = 0; *same && e < a.nnz; e++) *same = (PetscBool)(a.j[e] == b.j[e]);
  /* each row's difference relative to its largest entry, but to no less than 1e-8 of the matrix's largest: a row whose
     entries cancel to rounding level (products that sum to zero) holds no digits to compare */
  double top = 0.0;
  for (PetscInt e = 0; *same && e < b.nnz; e++) top = PetscMax(top, PetscAbsScalar(b.a[e]));
  for (PetscInt r = 0; *same && r < a.m; r++) {
    double big = 1e-8 * top, diff = 0.0;
    for (PetscInt e = a.i[r]; e < a.i[r + 1]; e++) {
      big  = PetscMax(big, PetscAbsScalar(b.a[e]));
      diff = PetscMax(diff, PetscAbsScalar(a.a[e] - b.a[e]));
    }
    if (diff > 0.0) *rel = PetscMax(*rel, big > 0.0 ? diff / big : PETSC_INFINITY);
  }
  PetscCall(HostFree(&a));
  PetscCall(HostFree(&b));
  PetscFunctionReturn(0);
}

/* multiply-adds of A B: sum over A's entries of the length of the row of B they select */
static PetscErrorCode Products(const GPUPCDevCSR *A, const GPUPCDevCSR *B, double *prods)
{
  PetscInt *ai, *aj, *bi;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(A->m + 1, &ai, A->nnz, &aj, B->m + 1, &bi));
  PetscCall(GPUPCCopyToHost(ai, A->i, A->m + 1));
  PetscCall(GPUPCCopyToHost(aj, A->j, A->nnz));
  PetscCall(GPUPCCopyToHost(bi, B->i, B->m + 1));
  *prods = 0.0;
  for (PetscInt e = 0; e < A->nnz; e++) *prods += bi[aj[e] + 1] - bi[aj[e]];
  PetscCall(PetscFree3(ai, aj, bi));
  PetscFunctionReturn(0);
}

/* the bytes a product C = A B moves at least: A and B read once, C written once */
static double ProductBytes(const GPUPCDevCSR *A, const GPUPCDevCSR *B, const GPUPCDevCSR *C)
{
  return 12.0 * (A->nnz + B->nnz + C->nnz) + 4.0 * (A->m + B->m + C->m + 3);
}

int main(int argc, char **argv)
{
  char                 problem[64] = "poisson3d", type[16] = "classical";
  PetscInt             n = 1000000, nlev = 0, reps = 5, bad = 0;
  PetscGPUPCBackend    backend;
  Mat                  A;
  GPUPCAMGSetupOptions opts;
  GPUPCAMGHierarchy    H;
  PetscLogDouble       t0, t1;
  double               sum[6] = {0, 0, 0, 0, 0, 0}; /* over the levels: our R A P, cuSPARSE's, numeric both, peak bytes both */

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-problem", problem, sizeof(problem), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-type", type, sizeof(type), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-levels", &nlev, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, NULL));
  PetscCheck(reps >= 1 && reps <= MAXREPS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-reps must be in [1, %d]", MAXREPS);
  PetscCall(PetscGPUPCGetBackend(&backend));

  PetscCall(GPUPCProblemCreate(PETSC_COMM_SELF, problem, n, 1, &A, NULL));
  PetscCall(MatConvert(A, MATSEQAIJ, MAT_INPLACE_MATRIX, &A));
  PetscCall(GPUPCAMGSetupOptionsDefault(&opts));
  if (!strcmp(type, "agg")) opts.type = PC_GPUAMG_AGG;
  else PetscCheck(!strcmp(type, "classical"), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-type classical or agg, not %s", type);
  PetscCall(PetscTime(&t0));
  PetscCall(GPUPCAMGHierarchyBuild(A, &opts, &H));
  PetscCall(PetscTime(&t1));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "spgemm bench: %s backend, %s n=%" PetscInt_FMT ", gpuamg %s hierarchy of %" PetscInt_FMT " levels built on the host in %.2f s (%" PetscInt_FMT " threads; its Galerkin products %.3f s)\n", PetscGPUPCBackends[backend], problem, n, type, H.nlevels, t1 - t0, opts.threads, H.times[2]));
  if (nlev <= 0 || nlev > H.nlevels - 1) nlev = H.nlevels - 1;

  for (PetscInt l = 0; l < nlev; l++) {
    Level     L;
    double    ms[16], prodAP, prodRAP, bytesAP, bytesRAP, rel[3] = {0, 0, 0};
    PetscBool same[3] = {PETSC_TRUE, PETSC_TRUE, PETSC_TRUE};
    size_t    peak[2] = {0, 0};
    PetscInt  nnz;

    PetscCall(PetscMemzero(&L, sizeof(L)));
    PetscCall(PetscMemzero(ms, sizeof(ms)));
    L.cuda = (PetscBool)(backend == PETSC_GPUPC_BACKEND_CUDA);
    PetscCall(GPUPCGetSparseKernels(&L.k));
    PetscCall(GPUPCDevCSRFromMat(H.A[l], &L.A));
    PetscCall(GPUPCDevCSRFromMat(H.P[l], &L.P));
    /* ours: R, A P (kept), R A P (kept) */
    PetscCall(GPUPCDevCSRCreate(L.P.n, L.P.m, L.P.nnz, PETSC_TRUE, &L.R));
    PetscCall(GPUPCMallocArray(L.P.nnz, &L.perm));
    PetscCall(GPUPCMallocArray(L.A.m + 1, &L.Ci));
    PetscCall(GPUPCDevCSRMatMult(&L.A, &L.P, MAT_INITIAL_MATRIX, PETSC_TRUE, &L.AP, NULL));
    PetscCall(GPUPCDevCSRRAP(&L.A, &L.P, MAT_INITIAL_MATRIX, PETSC_TRUE, &L.rap, &L.RAP));
    PetscCall(Products(&L.A, &L.P, &prodAP));
    PetscCall(Products(&L.rap.R, &L.AP, &prodRAP));
    bytesAP  = ProductBytes(&L.A, &L.P, &L.AP);
    bytesRAP = bytesAP + ProductBytes(&L.rap.R, &L.AP, &L.RAP) + 12.0 * L.P.nnz * 2; /* + the transpose */
    PetscCall(Time(&L, OpTranspose, reps, &ms[0]));
    PetscCall(Time(&L, OpCount, reps, &ms[1]));
    PetscCall(Time(&L, OpPattern, reps, &ms[2]));
    PetscCall(Time(&L, OpValuesDet, reps, &ms[3]));
    PetscCall(Time(&L, OpValuesAny, reps, &ms[4]));
    PetscCall(Time(&L, OpMatMult, reps, &ms[5]));
    PetscCall(Time(&L, OpRAP, reps, &ms[6]));
    PetscCall(Time(&L, OpRAPNumeric, reps, &ms[7]));
    PetscCall(PeakOf(&L, OpRAP, &peak[0]));
    /* the values of the timed numeric runs are the deterministic ones again */
    PetscCall(OpValuesDet(&L));
#if defined(GPUPC_HAVE_CUDA)
    if (L.cuda) {
      PetscCall(GPUPCDevCSRCreate(L.P.n, L.P.m, L.P.nnz, PETSC_TRUE, &L.Rc));
      PetscCall(GPUPCBenchCuSparseTranspose(&L.P, &L.Rc));
      PetscCall(GPUPCBenchCuSparseSpGEMMCreate(&L.A, &L.P, &L.cuAP, &L.cuap));
      PetscCall(GPUPCBenchCuSparseSpGEMMCreate(&L.Rc, &L.cuAP, &L.cuRAP, &L.curap));
      PetscCall(Time(&L, OpCuTranspose, reps, &ms[8]));
      PetscCall(Time(&L, OpCuMatMult, reps, &ms[9]));
      PetscCall(Time(&L, OpCuValues, reps, &ms[10]));
      PetscCall(Time(&L, OpCuRAP, reps, &ms[11]));
      PetscCall(Time(&L, OpCuRAPNumeric, reps, &ms[12]));
      PetscCall(PeakOf(&L, OpCuRAP, &peak[1]));
      PetscCall(OpTranspose(&L));
      PetscCall(Compare(&L.R, &L.Rc, &same[0], &rel[0]));
      if (!same[0] || rel[0] != 0.0) bad++;
      PetscCall(Compare(&L.AP, &L.cuAP, &same[1], &rel[1]));
      PetscCall(Compare(&L.RAP, &L.cuRAP, &same[2], &rel[2]));
    }
#endif
    {
      GPUPCDevCSR host;
      PetscBool   hsame = PETSC_FALSE;
      double      hrel  = 0.0;
      PetscCall(GPUPCDevCSRFromMat(H.A[l + 1], &host));
      PetscCall(Compare(&L.RAP, &host, &hsame, &hrel));
      PetscCall(GPUPCDevCSRDestroy(&host));
      nnz = L.RAP.nnz;
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "level %" PetscInt_FMT ": A %" PetscInt_FMT " rows %" PetscInt_FMT " entries, P %" PetscInt_FMT " columns %" PetscInt_FMT " entries, A P %" PetscInt_FMT " entries (%.3g products), R A P %" PetscInt_FMT " entries (%.3g products)\n", l, L.A.m, L.A.nnz, L.P.n, L.P.nnz, L.AP.nnz, prodAP, nnz, prodRAP));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "  ours: transpose %.3f ms | A P: count %.3f pattern %.3f values %.3f (unordered %.3f), all %.3f ms = %.1f GB/s %.2f Gprod/s | R A P %.3f ms = %.1f GB/s, numeric %.3f ms | peak %.1f MB beyond the inputs\n", ms[0], ms[1], ms[2], ms[3], ms[4], ms[5], 1e-6 * bytesAP / ms[5], 1e-6 * prodAP / ms[5], ms[6], 1e-6 * bytesRAP / ms[6], ms[7], peak[0] / 1048576.0));
      if (L.cuda)
        PetscCall(PetscPrintf(PETSC_COMM_SELF, "  cuSPARSE: transpose %.3f ms (x %.2f) | A P %.3f ms (x %.2f), numeric %.3f ms (x %.2f) | R A P %.3f ms (x %.2f), numeric %.3f ms (x %.2f) | peak %.1f MB\n", ms[8], ms[8] / ms[0], ms[9], ms[9] / ms[5], ms[10], ms[10] / ms[3], ms[11], ms[11] / ms[6], ms[12], ms[12] / ms[7], peak[1] / 1048576.0));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "  check: R A P against the host hierarchy: %s pattern, largest relative difference %.2e", hsame ? "same" : "OTHER", hrel));
      if (L.cuda) PetscCall(PetscPrintf(PETSC_COMM_SELF, "; against cuSPARSE: A P %s %.2e, R A P %s %.2e, R %s", same[1] ? "same" : "OTHER", rel[1], same[2] ? "same" : "OTHER", rel[2], same[0] && rel[0] == 0.0 ? "exact" : "DIFFERENT"));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "\n"));
      if (!(hsame && hrel < 1e-10 && same[1] && same[2] && rel[1] < 1e-10 && rel[2] < 1e-10)) bad++;
    }
    sum[0] += ms[6];
    sum[1] += ms[11];
    sum[2] += ms[7];
    sum[3] += ms[12];
    sum[4] = PetscMax(sum[4], (double)peak[0]);
    sum[5] = PetscMax(sum[5], (double)peak[1]);
#if defined(GPUPC_HAVE_CUDA)
    if (L.cuda) {
      PetscCall(GPUPCBenchCuSparseSpGEMMDestroy(&L.cuap));
      PetscCall(GPUPCBenchCuSparseSpGEMMDestroy(&L.curap));
      PetscCall(GPUPCDevCSRDestroy(&L.cuAP));
      PetscCall(GPUPCDevCSRDestroy(&L.cuRAP));
      PetscCall(GPUPCDevCSRDestroy(&L.Rc));
    }
#endif
    PetscCall(GPUPCDevRAPDestroy(&L.rap));
    PetscCall(GPUPCDevCSRDestroy(&L.RAP));
    PetscCall(GPUPCDevCSRDestroy(&L.AP));
    PetscCall(GPUPCDevCSRDestroy(&L.R));
    PetscCall(GPUPCDevCSRDestroy(&L.A));
    PetscCall(GPUPCDevCSRDestroy(&L.P));
    PetscCall(GPUPCFree(L.perm));
    PetscCall(GPUPCFree(L.Ci));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "all %" PetscInt_FMT " Galerkin products: ours %.2f ms (numeric %.2f ms, peak %.1f MB)", nlev, sum[0], sum[2], sum[4] / 1048576.0));
  if (backend == PETSC_GPUPC_BACKEND_CUDA) PetscCall(PetscPrintf(PETSC_COMM_SELF, ", cuSPARSE %.2f ms (numeric %.2f ms, peak %.1f MB): x %.2f and x %.2f", sum[1], sum[3], sum[5] / 1048576.0, sum[1] / sum[0], sum[3] / sum[2]));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "\n"));
  PetscCall(GPUPCAMGHierarchyDestroy(&H));
  PetscCall(MatDestroy(&A));
  PetscCheck(!bad, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%" PetscInt_FMT " checks failed (see the check lines)", bad);
  PetscCall(PetscFinalize());
  return 0;
}

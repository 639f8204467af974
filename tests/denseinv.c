static const char help[] = "Dense SPD inverses on the active backend (gpupc/denseinv.h, PC cmg's last level) against host LAPACK.\n"
                           "  -m <n>     order of the matrices (default 300; 2243 is the 36k Neumann problem's last level)\n"
                           "  -parts <k> connected components of the Laplacian (default 3; one more vertex is isolated)\n"
                           "On the cuda backend the device factorization (cuSOLVER) runs; on the host backend the same\n"
                           "entry points run host LAPACK. Both are compared with GPUPCDenseSPDInverse and with PC cmg's\n"
                           "host last-level factor (GPUPCCMGCoarseFactor), in double and in single precision.\n";

#include <gpupc/cmg.h>
#include <gpupc/denseinv.h>
#include <petscgpupc.h>

/* a weighted graph Laplacian on m vertices: parts random connected components (a path plus random chords, weights in
   [0.01, 100)) and one isolated vertex, in CSR with the diagonal stored and the columns sorted */
static PetscErrorCode RandomLaplacian(PetscRandom rnd, PetscInt m, PetscInt parts, GPUPCCMGLevel *L)
{
  PetscReal *W;
  PetscInt   q = 0, per = (m - 1) / parts;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(L, sizeof(*L)));
  PetscCall(PetscCalloc1((size_t)m * m, &W));
  for (PetscInt p = 0; p < parts; p++) {
    PetscInt lo = p * per, hi = p + 1 == parts ? m - 1 : (p + 1) * per; /* vertex m - 1 stays isolated */
    for (PetscInt v = lo; v < hi; v++) {
      for (PetscInt e = 0; e < 4; e++) {
        PetscReal r, w;
        PetscInt  u;
        PetscCall(PetscRandomGetValueReal(rnd, &r));
        u = e == 0 ? v + 1 : lo + (PetscInt)(r * (hi - lo));
        if (u >= hi || u == v) continue;
        PetscCall(PetscRandomGetValueReal(rnd, &r));
        w = PetscPowReal(10.0, 4.0 * r - 2.0);
        W[(size_t)v * m + u] += w;
        W[(size_t)u * m + v] += w;
      }
    }
  }
  L->n = m;
  PetscCall(PetscMalloc1(m + 1, &L->rowptr));
  L->rowptr[0] = 0;
  for (PetscInt v = 0; v < m; v++) {
    PetscInt k = 1;
    for (PetscInt u = 0; u < m; u++) k += W[(size_t)v * m + u] != 0.0;
    L->rowptr[v + 1] = L->rowptr[v] + k;
  }
  L->nnz = L->rowptr[m];
  PetscCall(PetscMalloc2(L->nnz, &L->col, L->nnz, &L->val));
  for (PetscInt v = 0; v < m; v++) {
    PetscReal d = 0.0;
    for (PetscInt u = 0; u < m; u++) d += W[(size_t)v * m + u];
    for (PetscInt u = 0; u < m; u++) {
      if (u != v && W[(size_t)v * m + u] == 0.0) continue;
      L->col[q]   = u;
      L->val[q++] = u == v ? d : -W[(size_t)v * m + u];
    }
  }
  PetscCall(PetscFree(W));
  PetscFunctionReturn(0);
}

/* |a - b| <= tol max|b| entrywise, NaN never */
static PetscErrorCode Close(PetscInt64 n, const PetscReal *a, const PetscReal *b, PetscReal tol, const char *what)
{
  PetscReal  big = 0.0, worst = 0.0;
  PetscInt64 at = 0;

  PetscFunctionBegin;
  for (PetscInt64 i = 0; i < n; i++) big = PetscMax(big, PetscAbsReal(b[i]));
  for (PetscInt64 i = 0; i < n; i++) {
    PetscReal e = PetscAbsReal(a[i] - b[i]);
    PetscCheck(!PetscIsNanReal(a[i]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: entry %" PetscInt64_FMT " is NaN", what, i);
    if (e > worst) worst = e, at = i;
  }
  PetscCheck(worst <= tol * big, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: entry %" PetscInt64_FMT " is %.17g, the host's %.17g (difference %g > %g = %g max|entry|)", what, at, (double)a[at], (double)b[at], (double)worst, (double)(tol * big), (double)tol);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %s: largest difference %.3g max|entry|\n", what, (double)(big > 0 ? worst / big : worst)));
  PetscFunctionReturn(0);
}

/* X is symmetric bit for bit and zero in the rows and columns where the host inverse is */
static PetscErrorCode Structure(PetscInt m, const PetscReal *X, const PetscReal *ref, const char *what)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < m; i++) {
    PetscBool zero = PETSC_TRUE;
    for (PetscInt j = 0; j < m; j++) zero = (PetscBool)(zero && ref[(size_t)i * m + j] == 0.0);
    for (PetscInt j = 0; j < m; j++) {
      PetscCheck(X[(size_t)i * m + j] == X[(size_t)j * m + i], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: not symmetric at (%" PetscInt_FMT ", %" PetscInt_FMT "): %.17g and %.17g", what, i, j, (double)X[(size_t)i * m + j], (double)X[(size_t)j * m + i]);
      PetscCheck(!zero || X[(size_t)i * m + j] == 0.0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: row %" PetscInt_FMT " is grounded (zero in the host inverse) but entry %" PetscInt_FMT " is %g", what, i, j, (double)X[(size_t)i * m + j]);
    }
  }
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt          m = 300, parts = 3, ncomp, ncomp2;
  PetscRandom       rnd;
  GPUPCCMGLevel     L;
  PetscReal        *host, *got, *S, *S2, *Sinv, *dX;
  float            *f;
  void             *dF;
  PetscBLASInt      info;
  PetscGPUPCBackend backend;
  size_t            mem0, mem1;
  const PetscReal   eps = PETSC_MACHINE_EPSILON;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-m", &m, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-parts", &parts, NULL));
  PetscCheck(m >= 4 && parts >= 1 && parts < m / 2, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "need -m 4 or more and 1 <= -parts < m/2");
  PetscCall(PetscGPUPCGetBackend(&backend));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem0));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "denseinv: %s backend, order %" PetscInt_FMT "\n", PetscGPUPCBackends[backend], m));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, 0.0, 1.0));
  PetscCall(PetscMalloc3((size_t)m * m, &got, (size_t)m * m, &S, (size_t)m * m, &S2));
  PetscCall(PetscMalloc2((size_t)m * m, &Sinv, (size_t)m * m, &f));

  /* 1. the plain inverse of a random SPD matrix S = B B^T / m + I: on the active backend against host LAPACK; and
        S * X = I to rounding */
  for (size_t i = 0; i < (size_t)m * m; i++) PetscCall(PetscRandomGetValueReal(rnd, &got[i]));
  for (PetscInt i = 0; i < m; i++)
    for (PetscInt j = 0; j <= i; j++) {
      PetscReal s = i == j ? 1.0 : 0.0;
      for (PetscInt k = 0; k < m; k++) s += got[(size_t)i * m + k] * got[(size_t)j * m + k] / m;
      S[(size_t)i * m + j] = S[(size_t)j * m + i] = s;
    }
  PetscCall(PetscArraycpy(S2, S, (size_t)m * m));
  PetscCall(GPUPCDenseSPDInverse(m, S2, Sinv, &info));
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "host LAPACK failed on an SPD matrix (info %d)", (int)info);
  PetscCall(GPUPCMalloc((size_t)m * m * sizeof(PetscReal), (void **)&dX));
  PetscCall(PetscArraycpy(S2, S, (size_t)m * m));
  PetscCall(GPUPCDenseSPDInverseDevice(m, S2, dX, &info));
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "GPUPCDenseSPDInverseDevice failed on an SPD matrix (info %d)", (int)info);
  PetscCall(GPUPCMemcpy(got, dX, (size_t)m * m * sizeof(PetscReal), GPUPC_COPY_DEVICE_TO_HOST));
  PetscCall(Close((PetscInt64)m * m, got, Sinv, 1e3 * m * eps, "SPD inverse into device memory"));
  PetscCall(Structure(m, got, Sinv, "SPD inverse into device memory"));
  for (PetscInt i = 0; i < m; i++)
    for (PetscInt j = 0; j < m; j++) {
      PetscReal s = 0.0, a = 0.0;
      for (PetscInt k = 0; k < m; k++) s += S[(size_t)i * m + k] * got[(size_t)k * m + j], a += PetscAbsReal(S[(size_t)i * m + k] * got[(size_t)k * m + j]);
      PetscCheck(PetscAbsReal(s - (i == j ? 1.0 : 0.0)) <= 1e3 * m * eps * a, PETSC_COMM_SELF, PETSC_ERR_PLIB, "(S X)(%" PetscInt_FMT ", %" PetscInt_FMT ") = %g, not %d", i, j, (double)s, i == j);
    }
  /* a matrix that is not positive definite: info names the first bad minor (row 2 of -diag) on every backend */
  PetscCall(PetscArraycpy(S2, S, (size_t)m * m));
  S2[(size_t)1 * m + 1] = -1.0;
  PetscCall(GPUPCDenseSPDInverseDevice(m, S2, dX, &info));
  PetscCheck(info == 2, PETSC_COMM_SELF, PETSC_ERR_PLIB, "a matrix whose leading minor of order 2 is negative gave info %d, not 2", (int)info);
  PetscCall(GPUPCFree(dX));

  /* 2. PC cmg's grounded last level: the device path (GPUPCCMGCoarseFactorDevice, on the active backend) against the
        host's (GPUPCCMGCoarseFactor, host LAPACK), double and single */
  PetscCall(RandomLaplacian(rnd, m, parts, &L));
  PetscCall(GPUPCCMGCoarseFactor(&L, &ncomp, &host));
  PetscCall(GPUPCCMGCoarseComponents(&L, &ncomp2));
  PetscCheck(ncomp == parts + 1 && ncomp2 == ncomp, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%" PetscInt_FMT " and %" PetscInt_FMT " components, the graph has %" PetscInt_FMT, ncomp, ncomp2, parts + 1);
  PetscCall(GPUPCMalloc((size_t)m * m * sizeof(PetscReal), (void **)&dX));
  PetscCall(GPUPCCMGCoarseFactorDevice(&L, GPUPC_CMG_PRECISION_DOUBLE, dX));
  PetscCall(GPUPCMemcpy(got, dX, (size_t)m * m * sizeof(PetscReal), GPUPC_COPY_DEVICE_TO_HOST));
  PetscCall(GPUPCFree(dX));
  /* the weights span 10^4: the inverse's rounding grows with the condition number (~10^6 here) */
  PetscCall(Close((PetscInt64)m * m, got, host, 1e8 * eps, "cmg last level, double"));
  PetscCall(Structure(m, got, host, "cmg last level, double"));
  { /* the level's CSR on the device (as the device setup leaves it): the grounded matrix built there, the same bits */
    PetscInt  *dri, *dcj;
    PetscReal *dva, *again;
    PetscBool  eq;
    PetscCall(GPUPCMallocArray(m + 1, &dri));
    PetscCall(GPUPCMallocArray(L.nnz, &dcj));
    PetscCall(GPUPCMallocArray(L.nnz, &dva));
    PetscCall(GPUPCCopyToDevice(dri, L.rowptr, m + 1));
    PetscCall(GPUPCCopyToDevice(dcj, L.col, L.nnz));
    PetscCall(GPUPCCopyToDevice(dva, L.val, L.nnz));
    L.drowptr = dri;
    L.dcol    = dcj;
    L.dval    = dva;
    PetscCall(PetscMalloc1((size_t)m * m, &again));
    PetscCall(GPUPCMalloc((size_t)m * m * sizeof(PetscReal), (void **)&dX));
    PetscCall(GPUPCCMGCoarseFactorDevice(&L, GPUPC_CMG_PRECISION_DOUBLE, dX));
    PetscCall(GPUPCMemcpy(again, dX, (size_t)m * m * sizeof(PetscReal), GPUPC_COPY_DEVICE_TO_HOST));
    PetscCall(GPUPCFree(dX));
    PetscCall(PetscArraycmp(again, got, (size_t)m * m, &eq));
    PetscCheck(eq, PETSC_COMM_SELF, PETSC_ERR_PLIB, "cmg last level from its device CSR differs from the same level from its host CSR");
    PetscCall(PetscFree(again));
    L.drowptr = NULL;
    L.dcol    = NULL;
    L.dval    = NULL;
    PetscCall(GPUPCFree(dri));
    PetscCall(GPUPCFree(dcj));
    PetscCall(GPUPCFree(dva));
  }
  PetscCall(GPUPCMalloc((size_t)m * m * sizeof(float), &dF));
  PetscCall(GPUPCCMGCoarseFactorDevice(&L, GPUPC_CMG_PRECISION_SINGLE, dF));
  PetscCall(GPUPCMemcpy(f, dF, (size_t)m * m * sizeof(float), GPUPC_COPY_DEVICE_TO_HOST));
  PetscCall(GPUPCFree(dF));
  for (size_t i = 0; i < (size_t)m * m; i++) got[i] = f[i];
  PetscCall(Close((PetscInt64)m * m, got, host, 1e8 * eps + 1.2e-7, "cmg last level, single"));
  PetscCall(Structure(m, got, host, "cmg last level, single"));

  PetscCall(PetscFree(host));
  PetscCall(PetscFree(L.rowptr));
  PetscCall(PetscFree2(L.col, L.val));
  PetscCall(PetscFree3(got, S, S2));
  PetscCall(PetscFree2(Sinv, f));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem1));
  PetscCheck(mem0 == mem1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "device memory in use went from %zu to %zu bytes", mem0, mem1);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "denseinv: the %s backend's inverses agree with host LAPACK\n", PetscGPUPCBackends[backend]));
  PetscCall(PetscFinalize());
  return 0;
}

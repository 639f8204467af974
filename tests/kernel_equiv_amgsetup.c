static const char help[] = "The gpuamg device-setup kernel table (gpupc/amgsetupkernels.h) of the active backend, through the device\n"
                           "setup's steps (strength, PMIS, interpolation), against the host setup's functions on the same matrices:\n"
                           "the strength graph and its transpose, the C/F splitting, the coarse numbering and the interpolation's\n"
                           "pattern exactly, its values exactly on the host table and within 1e-12 (relative to the row's largest)\n"
                           "on the CUDA table (fused multiply-adds). Built-in problems with random and structured coefficients, positive\n"
                           "couplings (elasticity), direct and ext+i, truncation by count and by factor; the zero-diagonal check.\n";

#include <petscmat.h>
#include <gpupc/amgsetup.h>
#include <gpupc/problems.h>
#include "amgdevtest.h"

/* A: the built-in problem of the given size, or with levels > 0 its Galerkin operator that many levels down (the host
   setup's PMIS and ext+i interpolation, truncated to 4 entries): coarse levels have the dense rows whose interpolatory
   sets take the device's long-row kernels */
static PetscErrorCode Operator(const char *problem, PetscInt size, PetscInt levels, Mat *A)
{
  Mat A0;
  Vec b;

  PetscFunctionBegin;
  PetscCall(GPUPCProblemCreate(PETSC_COMM_SELF, problem, size, 1, &A0, &b));
  PetscCall(MatConvert(A0, MATSEQAIJ, MAT_INITIAL_MATRIX, A));
  PetscCall(MatSetBlockSize(*A, 1));
  for (PetscInt l = 0; l < levels; l++) {
    GPUPCAMGLocal    L;
    GPUPCAMGStrength S;
    GPUPCAMGLocalP   P;
    PetscInt        *cf;
    Mat              Pm, Ac;

    PetscCall(GPUPCAMGLocalGet(*A, 1, NULL, 1, &L));
    PetscCall(GPUPCAMGStrengthClassical(&L, 0.25, 1, &S));
    PetscCall(PetscMalloc1(L.n, &cf));
    PetscCall(GPUPCAMGCoarsen(&S, PC_GPUAMG_COARSEN_PMIS, 0, 1, cf));
    PetscCall(GPUPCAMGInterpolate(&L, &S, cf, PC_GPUAMG_INTERP_EXTENDED_I, 4, 0.0, PC_GPUAMG_TRUNC_RESCALE_SUM, 1, &P));
    for (PetscInt i = 0; i < L.n; i++) PetscCall(PetscSortIntWithScalarArray(P.i[i + 1] - P.i[i], P.j + P.i[i], P.a + P.i[i]));
    PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, L.n, P.nc, P.i, P.j, P.a, &Pm));
    PetscCall(MatPtAP(*A, Pm, MAT_INITIAL_MATRIX, 2.0, &Ac));
    PetscCall(MatDestroy(&Pm));
    PetscCall(GPUPCAMGLocalPFree(&P));
    PetscCall(GPUPCAMGStrengthFree(&S));
    PetscCall(GPUPCAMGLocalFree(&L));
    PetscCall(PetscFree(cf));
    PetscCall(MatDestroy(A));
    *A = Ac;
  }
  PetscCall(MatDestroy(&A0));
  PetscCall(VecDestroy(&b));
  PetscFunctionReturn(0);
}

static PetscErrorCode Case(const GPUPCAMGSetupKernels *k, const GPUPCSparseKernels *sk, const GPUPCAMGInterpTuning *tune, PetscBool exact, const char *problem, PetscInt size, PetscInt levels, PCGPUAMGInterpType interp, PetscInt tmax, PetscReal tfac)
{
  Mat              A;
  GPUPCAMGLocal    L;
  GPUPCAMGStrength S;
  GPUPCAMGLocalP   P;
  GPUPCDevCSR      Ad, Sd, STd, Pd;
  PetscScalar     *d, *hd;
  PetscInt        *cf, *hcf, *cmap, *hcmap, *hi, *hj, *hti, *htj, *pi, *pj, n, nc, hnc = 0, bad, rowmax = 0;
  PetscReal       *pa, theta = 0.25, maxdiff = 0.0;
  char             what[128];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s %" PetscInt_FMT " level %" PetscInt_FMT ", %s, trunc %" PetscInt_FMT " %g", problem, size, levels, PCGPUAMGInterpTypes[interp], tmax, (double)tfac));
  PetscCall(Operator(problem, size, levels, &A));
  /* the host setup */
  PetscCall(GPUPCAMGLocalGet(A, 1, NULL, 1, &L));
  n = L.n;
  PetscCall(GPUPCAMGStrengthClassical(&L, theta, 1, &S));
  PetscCall(PetscMalloc1(n, &hcf));
  PetscCall(GPUPCAMGCoarsen(&S, PC_GPUAMG_COARSEN_PMIS, 0, 1, hcf));
  PetscCall(GPUPCAMGInterpolate(&L, &S, hcf, interp, tmax, tfac, PC_GPUAMG_TRUNC_RESCALE_SUM, 1, &P));
  for (PetscInt i = 0; i < n; i++) {
    PetscCall(PetscSortIntWithScalarArray(P.i[i + 1] - P.i[i], P.j + P.i[i], P.a + P.i[i])); /* the host setup leaves them in the order it found them */
    hnc += hcf[i] == GPUPC_AMG_C;
  }
  /* the device setup's steps */
  PetscCall(GPUPCDevCSRFromMat(A, &Ad));
  PetscCall(GPUPCMallocArray(n, &d));
  PetscCall(sk->diagonal(&Ad, d));
  PetscCall(k->diag_zero(n, d, &bad));
  PetscCheck(bad == -1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: diag_zero found row %" PetscInt_FMT " zero", what, bad);
  PetscCall(Back(hd, d, n));
  hd[n / 2] = 0.0; /* a zero diagonal in the middle: the check must name that row */
  PetscCall(GPUPCCopyToDevice(d, hd, n));
  PetscCall(k->diag_zero(n, d, &bad));
  PetscCheck(bad == n / 2, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: diag_zero gave %" PetscInt_FMT ", not the zeroed row %" PetscInt_FMT, what, bad, n / 2);
  PetscCall(sk->diagonal(&Ad, d));
  PetscCall(GPUPCAMGDevStrength(k, sk, &Ad, d, theta, &Sd, &STd));
  PetscCheck(Sd.nnz == S.i[n], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: strength graph of %" PetscInt_FMT " entries on the device setup, %" PetscInt_FMT " on the host setup", what, Sd.nnz, S.i[n]);
  PetscCall(Back(hi, Sd.i, n + 1));
  PetscCall(Back(hj, Sd.j, Sd.nnz));
  PetscCall(Back(hti, STd.i, n + 1));
  PetscCall(Back(htj, STd.j, STd.nnz));
  PetscCall(ExpectEqualInts(what, "S.i", n + 1, hi, S.i));
  PetscCall(ExpectEqualInts(what, "S.j", Sd.nnz, hj, S.j));
  PetscCall(ExpectEqualInts(what, "S^T.i", n + 1, hti, S.ti));
  PetscCall(ExpectEqualInts(what, "S^T.j", STd.nnz, htj, S.tj));
  PetscCall(GPUPCMallocArray(n, &cf));
  PetscCall(GPUPCMallocArray(n, &cmap));
  PetscCall(GPUPCAMGDevPMIS(k, &Sd, &STd, 0, cf));
  PetscCall(PetscFree(hi));
  PetscCall(Back(hi, cf, n));
  PetscCall(ExpectEqualInts(what, "cf", n, hi, hcf));
  PetscCall(sk->compact(n, cf, GPUPC_AMG_C, NULL, cmap, &nc, NULL));
  PetscCheck(nc == hnc && nc == P.nc, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " coarse points on the device setup, %" PetscInt_FMT " on the host setup", what, nc, hnc);
  PetscCall(Back(hcmap, cmap, n));
  for (PetscInt i = 0, c = 0; i < n; i++) PetscCheck(hcmap[i] == (hcf[i] == GPUPC_AMG_C ? c++ : -1), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: coarse number of point %" PetscInt_FMT " is %" PetscInt_FMT, what, i, hcmap[i]);
  PetscCall(GPUPCAMGDevInterp(k, sk, &Ad, d, &Sd, cf, cmap, nc, interp, tmax, tfac, tune, &Pd));
  PetscCheck(Pd.m == n && Pd.n == nc && Pd.nnz == P.i[n], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: P is %" PetscInt_FMT " x %" PetscInt_FMT " with %" PetscInt_FMT " entries on the device setup, %" PetscInt_FMT " x %" PetscInt_FMT " with %" PetscInt_FMT " on the host setup", what, Pd.m, Pd.n, Pd.nnz, n, P.nc, P.i[n]);
  PetscCall(Back(pi, Pd.i, n + 1));
  PetscCall(Back(pj, Pd.j, Pd.nnz));
  PetscCall(Back(pa, Pd.a, Pd.nnz));
  PetscCall(ExpectEqualInts(what, "P.i", n + 1, pi, P.i));
  PetscCall(ExpectEqualInts(what, "P.j", Pd.nnz, pj, P.j));
  for (PetscInt i = 0; i < n; i++) {
    PetscReal mx = 0.0;
    for (PetscInt e = P.i[i]; e < P.i[i + 1]; e++) mx = PetscMax(mx, PetscAbsReal(P.a[e]));
    for (PetscInt e = P.i[i]; e < P.i[i + 1]; e++) {
      PetscReal diff = PetscAbsReal(pa[e] - P.a[e]);
      maxdiff        = PetscMax(maxdiff, mx > 0 ? diff / mx : diff);
      PetscCheck(exact ? pa[e] == P.a[e] : diff <= 1e-12 * mx, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: P(%" PetscInt_FMT ", %" PetscInt_FMT ") is %.17g on the device setup, %.17g on the host setup", what, i, P.j[e], (double)pa[e], (double)P.a[e]);
    }
  }
  for (PetscInt i = 0; i < n; i++) rowmax = PetscMax(rowmax, P.i[i + 1] - P.i[i]);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %" PetscInt_FMT " rows, S %" PetscInt_FMT " entries, %" PetscInt_FMT " C points, P %" PetscInt_FMT " entries, longest row %" PetscInt_FMT ": same as the host setup (largest relative difference of P %.2g)\n", what, n, Sd.nnz, nc, Pd.nnz, rowmax, (double)maxdiff));
  PetscCall(PetscFree(pi));
  PetscCall(PetscFree(pj));
  PetscCall(PetscFree(pa));
  PetscCall(PetscFree(hd));
  PetscCall(PetscFree(hi));
  PetscCall(PetscFree(hj));
  PetscCall(PetscFree(hti));
  PetscCall(PetscFree(htj));
  PetscCall(PetscFree(hcmap));
  PetscCall(PetscFree(hcf));
  PetscCall(GPUPCFree(d));
  PetscCall(GPUPCFree(cf));
  PetscCall(GPUPCFree(cmap));
  PetscCall(GPUPCDevCSRDestroy(&Ad));
  PetscCall(GPUPCDevCSRDestroy(&Sd));
  PetscCall(GPUPCDevCSRDestroy(&STd));
  PetscCall(GPUPCDevCSRDestroy(&Pd));
  PetscCall(GPUPCAMGLocalPFree(&P));
  PetscCall(GPUPCAMGStrengthFree(&S));
  PetscCall(GPUPCAMGLocalFree(&L));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  const GPUPCAMGSetupKernels *k;
  const GPUPCSparseKernels   *sk;
  PetscGPUPCBackend           backend;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(GPUPCGetAMGSetupKernels(&k));
  PetscCall(GPUPCGetSparseKernels(&sk));
  PetscCall(PetscGPUPCGetBackend(&backend));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "device-setup kernel table: %s\n", k->name));
  /* the CUDA table's ext+i rows: on these levels (fewer rows than its small-level threshold) a warp per F row; as on a
     large level, one thread per row up to 64 candidates (its own scratch), a warp above; one thread per row up to 256
     (the rows above 64 in the interpolation buffer); hash tables of 64 slots (rows past 15 points to the later passes);
     both the first and the last table of 64 slots (rows past 15 points to the one-lane fallback): the developers'
     tuning GPUPCAMGInterpTuning (PCGPUAMGSetInterpTuning(), -pc_gpuamg_dev_interp_*). The host backend runs the
     defaults once (its table ignores the tuning). */
  for (PetscInt c = 0; c < (backend == PETSC_GPUPC_BACKEND_CUDA ? 5 : 1); c++) {
    const char          *config[] = {"defaults", "small level 0", "long row 256", "long slots 64", "long slots 64, last pass 64"};
    const PetscBool      exact    = (PetscBool)(backend != PETSC_GPUPC_BACKEND_CUDA);
    GPUPCAMGInterpTuning t, *tune = &t;

    PetscCall(GPUPCAMGInterpTuningDefault(&t));
    if (c == 1) t.small_level = 0;
    if (c == 2) t.long_row = 256;
    if (c >= 3) t.long_slots = 64;
    if (c == 4) t.long_slots_big = 64;
    PetscCall(GPUPCAMGInterpTuningCheck(PETSC_COMM_SELF, &t));
    if (backend == PETSC_GPUPC_BACKEND_CUDA) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "ext+i kernels: %s\n", config[c]));
    PetscCall(Case(k, sk, tune, exact, "poisson2d", 2500, 0, PC_GPUAMG_INTERP_EXTENDED_I, 4, 0.0));
    PetscCall(Case(k, sk, tune, exact, "randcoef3d", 8000, 0, PC_GPUAMG_INTERP_EXTENDED_I, 0, 0.2));
    PetscCall(Case(k, sk, tune, exact, "randcoef3d", 8000, 0, PC_GPUAMG_INTERP_DIRECT, 3, 0.0));
    PetscCall(Case(k, sk, tune, exact, "aniso2d", 4900, 0, PC_GPUAMG_INTERP_DIRECT, 0, 0.0));
    PetscCall(Case(k, sk, tune, exact, "jump3d", 8000, 0, PC_GPUAMG_INTERP_EXTENDED_I, 4, 0.1));
    PetscCall(Case(k, sk, tune, exact, "elasticity3d", 3000, 0, PC_GPUAMG_INTERP_EXTENDED_I, 4, 0.0));
    PetscCall(Case(k, sk, tune, exact, "elasticity3d", 3000, 0, PC_GPUAMG_INTERP_DIRECT, 0, 0.0));
    /* coarse levels: ext+i rows of hundreds to thousands of candidates (the long-row kernel of the CUDA table; the
       configurations with 64 slots in the first and in the last pass send rows through its second
       pass and its one-lane fallback) */
    PetscCall(Case(k, sk, tune, exact, "elasticity3d", 24000, 1, PC_GPUAMG_INTERP_EXTENDED_I, 0, 0.0));
    PetscCall(Case(k, sk, tune, exact, "elasticity3d", 24000, 2, PC_GPUAMG_INTERP_EXTENDED_I, 4, 0.0));
    PetscCall(Case(k, sk, tune, exact, "powergrid", 64000, 1, PC_GPUAMG_INTERP_EXTENDED_I, 4, 0.0));
  }
  PetscCall(PetscFinalize());
  return 0;
}

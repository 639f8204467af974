static const char help[] = "The gpuamg device-setup kernel table (gpupc/amgsetupkernels.h) of the active backend, through the device\n"
                           "setup's steps (strength, PMIS, interpolation), against the host setup's functions on the same matrices:\n"
                           "the strength graph and its transpose, the C/F splitting, the coarse numbering and the interpolation's\n"
                           "pattern exactly, its values exactly on the host table and within 1e-12 (relative to the row's largest)\n"
                           "on the CUDA table (fused multiply-adds). Built-in problems with random and structured coefficients, positive\n"
                           "couplings (elasticity), direct, standard and ext+i, truncation by count and by factor; the zero-diagonal\n"
                           "check. HMIS (GPUPCAMGDevHMIS) against a reference made of the host setup's Ruge-Stueben first pass on\n"
                           "each subdomain and PMIS rounds written out here, exactly: structured and random graphs, isolated points,\n"
                           "subdomains of 1 point (then PMIS itself), of several sizes with a last partial one (on CUDA the block\n"
                           "kernel, with opt-in shared memory above 6144 points, and above 16384 the one-thread kernel), and of\n"
                           "every point (then the host setup's hmis).\n";

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

/* a random graph of n points: each point couples to 3 others picked by a hash (symmetric negative couplings), every
   11th point is isolated (its diagonal only); diagonally dominant */
static PetscErrorCode RandomGraph(PetscInt n, Mat *A)
{
  PetscReal *diag;

  PetscFunctionBegin;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 16, NULL, A));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(PetscCalloc1(n, &diag));
  for (PetscInt i = 0; i < n; i++) {
    if (i % 11 == 5) continue;
    for (PetscInt t = 0; t < 3; t++) {
      PetscInt    j = (PetscInt)(GPUPCAMGRandom(7 * i + t) * (PetscReal)n);
      PetscScalar v = -(0.1 + GPUPCAMGRandom(5 * n + 3 * i + t));
      if (j == i || j % 11 == 5) continue;
      PetscCall(MatSetValue(*A, i, j, v, ADD_VALUES));
      PetscCall(MatSetValue(*A, j, i, v, ADD_VALUES));
      diag[i] -= v;
      diag[j] -= v;
    }
  }
  for (PetscInt i = 0; i < n; i++) PetscCall(MatSetValue(*A, i, i, diag[i] + 0.1, ADD_VALUES));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree(diag));
  PetscFunctionReturn(0);
}

/* HMIS with subdomains of B points, made of the host setup's pieces: its Ruge-Stueben first pass (GPUPCAMGCoarsen hmis)
   on the graph of each subdomain's internal couplings, the points without such couplings left undecided; then PMIS
   rounds on those (measure |S^T_i| + GPUPCAMGRandom(i), ties to the larger index), the first pass's states fixed.
   *infirst: the points the first pass decided */
static PetscErrorCode ReferenceHMIS(const GPUPCAMGStrength *S, PetscInt B, PetscInt *cf, PetscInt *infirst)
{
  PetscInt   n = S->n, left = 0, *sub;
  PetscReal *w;
  char      *mark;

  PetscFunctionBegin;
  *infirst = 0;
  PetscCall(PetscMalloc3(n, &sub, n, &w, n, &mark));
  for (PetscInt lo = 0; lo < n; lo += B) {
    PetscInt         hi = PetscMin(lo + B, n), m = hi - lo;
    GPUPCAMGStrength Sub;

    PetscCall(PetscMemzero(&Sub, sizeof(Sub)));
    Sub.n = m;
    PetscCall(PetscMalloc1(m + 1, &Sub.i));
    Sub.i[0] = 0;
    for (PetscInt q = 0; q < m; q++) {
      Sub.i[q + 1] = Sub.i[q];
      for (PetscInt e = S->i[lo + q]; e < S->i[lo + q + 1]; e++) Sub.i[q + 1] += S->j[e] >= lo && S->j[e] < hi;
    }
    PetscCall(PetscMalloc1(PetscMax(Sub.i[m], 1), &Sub.j));
    for (PetscInt q = 0, c = 0; q < m; q++)
      for (PetscInt e = S->i[lo + q]; e < S->i[lo + q + 1]; e++)
        if (S->j[e] >= lo && S->j[e] < hi) Sub.j[c++] = S->j[e] - lo;
    PetscCall(GPUPCAMGStrengthTranspose(&Sub, 1));
    PetscCall(GPUPCAMGCoarsen(&Sub, PC_GPUAMG_COARSEN_HMIS, lo, 1, sub));
    for (PetscInt q = 0; q < m; q++) {
      const PetscBool out = (PetscBool)(Sub.i[q + 1] == Sub.i[q] && Sub.ti[q + 1] == Sub.ti[q]);
      cf[lo + q]          = out ? GPUPC_AMG_U : sub[q];
      *infirst += !out;
    }
    PetscCall(GPUPCAMGStrengthFree(&Sub));
  }
  for (PetscInt i = 0; i < n; i++) {
    PetscInt nt = S->ti[i + 1] - S->ti[i];
    w[i]        = (PetscReal)nt + GPUPCAMGRandom(i);
    if (cf[i] == GPUPC_AMG_U && nt == 0) cf[i] = GPUPC_AMG_F;
  }
  for (PetscInt i = 0; i < n; i++) { /* at once from the first pass's states */
    mark[i] = 0;
    for (PetscInt e = S->i[i]; e < S->i[i + 1] && cf[i] == GPUPC_AMG_U; e++)
      if (cf[S->j[e]] == GPUPC_AMG_C) mark[i] = 1;
  }
  for (PetscInt i = 0; i < n; i++) {
    if (cf[i] == GPUPC_AMG_U && mark[i] == 1) cf[i] = GPUPC_AMG_F;
    left += cf[i] == GPUPC_AMG_U;
  }
  while (left > 0) {
    for (PetscInt i = 0; i < n; i++) {
      mark[i] = cf[i] == GPUPC_AMG_U;
      for (PetscInt e = S->i[i]; e < S->i[i + 1] && mark[i]; e++) {
        PetscInt j = S->j[e];
        if (cf[j] == GPUPC_AMG_U && (w[j] > w[i] || (w[j] == w[i] && j > i))) mark[i] = 0;
      }
      for (PetscInt e = S->ti[i]; e < S->ti[i + 1] && mark[i]; e++) {
        PetscInt j = S->tj[e];
        if (cf[j] == GPUPC_AMG_U && (w[j] > w[i] || (w[j] == w[i] && j > i))) mark[i] = 0;
      }
    }
    for (PetscInt i = 0; i < n; i++)
      if (mark[i]) cf[i] = GPUPC_AMG_C;
    for (PetscInt i = 0; i < n; i++) {
      mark[i] = 0;
      for (PetscInt e = S->i[i]; e < S->i[i + 1] && cf[i] == GPUPC_AMG_U; e++)
        if (cf[S->j[e]] == GPUPC_AMG_C) mark[i] = 1;
    }
    left = 0;
    for (PetscInt i = 0; i < n; i++) {
      if (mark[i]) cf[i] = GPUPC_AMG_F;
      left += cf[i] == GPUPC_AMG_U;
    }
  }
  PetscCall(PetscFree3(sub, w, mark));
  PetscFunctionReturn(0);
}

/* the device setup's HMIS of A (subdomains of B points) against ReferenceHMIS, and with B = 1 against the host setup's
   pmis, with B >= n against its hmis */
static PetscErrorCode HMISCase(const GPUPCAMGSetupKernels *k, const GPUPCSparseKernels *sk, const char *name, Mat A, PetscInt B)
{
  GPUPCAMGLocal    L;
  GPUPCAMGStrength S;
  GPUPCDevCSR      Ad, Sd, STd;
  PetscScalar     *d;
  PetscInt        *cf, *hcf, *ref, *host = NULL, n, rounds, infirst, nc = 0;
  char             what[128];

  PetscFunctionBegin;
  PetscCall(GPUPCAMGLocalGet(A, 1, NULL, 1, &L));
  n = L.n;
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s, hmis subdomains of %" PetscInt_FMT " points", name, B));
  PetscCall(GPUPCAMGStrengthClassical(&L, 0.25, 1, &S));
  PetscCall(PetscMalloc1(n, &ref));
  PetscCall(ReferenceHMIS(&S, B, ref, &infirst));
  if (B == 1 || B >= n) {
    PetscCall(PetscMalloc1(n, &host));
    PetscCall(GPUPCAMGCoarsen(&S, B == 1 ? PC_GPUAMG_COARSEN_PMIS : PC_GPUAMG_COARSEN_HMIS, 0, 1, host));
    PetscCall(ExpectEqualInts(what, B == 1 ? "reference against the host setup's pmis: cf" : "reference against the host setup's hmis: cf", n, ref, host));
  }
  PetscCall(GPUPCDevCSRFromMat(A, &Ad));
  PetscCall(GPUPCMallocArray(n, &d));
  PetscCall(sk->diagonal(&Ad, d));
  PetscCall(GPUPCAMGDevStrength(k, sk, &Ad, d, 0.25, &Sd, &STd));
  PetscCall(GPUPCMallocArray(n, &cf));
  PetscCall(GPUPCAMGDevHMIS(k, &Sd, &STd, 0, B, cf, &rounds));
  PetscCall(Back(hcf, cf, n));
  PetscCall(ExpectEqualInts(what, "cf", n, hcf, ref));
  for (PetscInt i = 0; i < n; i++) {
    PetscCheck(hcf[i] == GPUPC_AMG_C || hcf[i] == GPUPC_AMG_F, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: point %" PetscInt_FMT " left in state %" PetscInt_FMT, what, i, hcf[i]);
    nc += hcf[i] == GPUPC_AMG_C;
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %" PetscInt_FMT " points, %" PetscInt_FMT " decided by the first pass, %" PetscInt_FMT " PMIS rounds, %" PetscInt_FMT " C points: same as the reference%s\n", what, n, infirst, rounds, nc, B == 1 ? " and the host setup's pmis" : (B >= n ? " and the host setup's hmis" : "")));
  PetscCall(PetscFree(ref));
  PetscCall(PetscFree(host));
  PetscCall(PetscFree(hcf));
  PetscCall(GPUPCFree(d));
  PetscCall(GPUPCFree(cf));
  PetscCall(GPUPCDevCSRDestroy(&Ad));
  PetscCall(GPUPCDevCSRDestroy(&Sd));
  PetscCall(GPUPCDevCSRDestroy(&STd));
  PetscCall(GPUPCAMGStrengthFree(&S));
  PetscCall(GPUPCAMGLocalFree(&L));
  PetscFunctionReturn(0);
}

/* HMISCase on a built-in problem (levels > 0: its Galerkin operator that many levels down, Operator()) */
static PetscErrorCode HMISProblem(const GPUPCAMGSetupKernels *k, const GPUPCSparseKernels *sk, const char *problem, PetscInt size, PetscInt levels, PetscInt B)
{
  Mat  A;
  char name[64];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(name, sizeof(name), "%s %" PetscInt_FMT " level %" PetscInt_FMT, problem, size, levels));
  PetscCall(Operator(problem, size, levels, &A));
  PetscCall(HMISCase(k, sk, name, A, B));
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
    if (c > 0) continue; /* standard interpolation: one thread per row in every configuration */
    PetscCall(Case(k, sk, tune, exact, "poisson2d", 2500, 0, PC_GPUAMG_INTERP_STANDARD, 4, 0.0));
    PetscCall(Case(k, sk, tune, exact, "randcoef3d", 8000, 0, PC_GPUAMG_INTERP_STANDARD, 0, 0.2));
    PetscCall(Case(k, sk, tune, exact, "jump3d", 8000, 0, PC_GPUAMG_INTERP_STANDARD, 0, 0.0));
    PetscCall(Case(k, sk, tune, exact, "elasticity3d", 3000, 0, PC_GPUAMG_INTERP_STANDARD, 4, 0.0));
    /* rows of hundreds of candidates, formed in the interpolation buffer */
    PetscCall(Case(k, sk, tune, exact, "elasticity3d", 24000, 1, PC_GPUAMG_INTERP_STANDARD, 4, 0.1));
  }
  /* HMIS: subdomains of 1 point (PMIS), of 256, 300 (a last partial one), 4096, 7000 (the CUDA block kernel with
     opt-in shared memory, a last partial one) and of every point (the host setup's hmis); 20000 (the CUDA one-thread
     kernel, a last partial one) */
  {
    const PetscInt Bs[] = {1, 256, 300, 4096, 7000, 8000};
    Mat            G;
    for (size_t b = 0; b < sizeof(Bs) / sizeof(Bs[0]); b++) PetscCall(HMISProblem(k, sk, "randcoef3d", 8000, 0, Bs[b]));
    PetscCall(HMISProblem(k, sk, "poisson2d", 2500, 0, 256));
    PetscCall(HMISProblem(k, sk, "aniso2d", 4900, 0, 64));
    PetscCall(HMISProblem(k, sk, "jump3d", 8000, 0, 256));
    PetscCall(HMISProblem(k, sk, "elasticity3d", 3000, 0, 200));
    PetscCall(HMISProblem(k, sk, "randcoef3d", 8000, 1, 256));
    PetscCall(HMISProblem(k, sk, "randcoef3d", 27000, 0, 20000));
    PetscCall(RandomGraph(5000, &G)); /* isolated points, irregular degrees */
    PetscCall(HMISCase(k, sk, "random graph 5000", G, 128));
    PetscCall(HMISCase(k, sk, "random graph 5000", G, 1000));
    PetscCall(HMISCase(k, sk, "random graph 5000", G, 5000));
    PetscCall(MatDestroy(&G));
  }
  PetscCall(PetscFinalize());
  return 0;
}

static const char help[] = "The gpuamg aggressive-coarsening and multipass kernel table (gpupc/amgaggrkernels.h) of the active backend,\n"
                           "through the device setup's steps, against the host setup's functions on the same matrices: the distance-two\n"
                           "graph S2 among the C points against a direct construction (as sets, sorted rows, and its transpose), the\n"
                           "second stage's splitting against GPUPCAMGCoarsenAggressive's, the multipass P against GPUPCAMGInterpolate's\n"
                           "(pattern and values bit for bit on both tables: no fused multiply-adds). Built-in problems with random and\n"
                           "structured coefficients, positive couplings, a nonsymmetric one, coarse levels with dense rows; truncation\n"
                           "by count, by factor and none; multipass on a plain PMIS splitting too; a bad truncation factor refused.\n";

#include <math.h>
#include <petscmat.h>
#include <gpupc/amgsetup.h>
#include <gpupc/amgaggrkernels.h>
#include <gpupc/problems.h>
#include "amgdevtest.h"
#include "../src/pc/impls/gpuamg/amgdevrows.h" /* GPUPC_AMG_DEV_ROWCAP: rows up to it are formed in a thread's own arrays */

/* rows of the cases on each side of GPUPC_AMG_DEV_ROWCAP (S2 candidates, multipass bounds): both sides must be met */
static PetscInt covered[2][2];

/* the operator: the built-in problem, or with levels > 0 the level that many levels down in the host setup's default
   hierarchy (coarse levels have the long rows whose candidates reach hundreds) */
static PetscErrorCode LevelOperator(const char *problem, PetscInt size, PetscInt levels, Mat *A)
{
  Mat                  A0;
  Vec                  b;
  GPUPCAMGSetupOptions opts;
  GPUPCAMGHierarchy    H;

  PetscFunctionBegin;
  PetscCall(GPUPCProblemCreate(PETSC_COMM_SELF, problem, size, 1, &A0, &b));
  PetscCall(MatSetBlockSize(A0, 1));
  if (levels == 0) PetscCall(MatConvert(A0, MATSEQAIJ, MAT_INITIAL_MATRIX, A));
  else {
    PetscCall(GPUPCAMGSetupOptionsDefault(&opts));
    opts.threads    = 1;
    opts.max_levels = levels + 1;
    PetscCall(PetscMemzero(&H, sizeof(H)));
    PetscCall(GPUPCAMGHierarchyBuild(A0, &opts, &H));
    PetscCheck(H.nlevels == levels + 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s %" PetscInt_FMT ": the hierarchy has %" PetscInt_FMT " levels, not %" PetscInt_FMT, problem, size, H.nlevels, levels + 1);
    PetscCall(MatConvert(H.A[levels], MATSEQAIJ, MAT_INITIAL_MATRIX, A));
    PetscCall(GPUPCAMGHierarchyDestroy(&H));
  }
  PetscCall(MatSetBlockSize(*A, 1));
  PetscCall(MatDestroy(&A0));
  PetscCall(VecDestroy(&b));
  PetscFunctionReturn(0);
}

/* adds the point t to the row of the C point c of the reference S2 unless it is not a C point, c itself or there */
static PetscErrorCode RefAdd(PetscInt t, PetscInt c, const PetscInt *cf, const PetscInt *cidx, PetscInt *mark, PetscInt *cnt, PetscInt *cap, PetscInt **rj)
{
  PetscFunctionBegin;
  if (cf[t] != GPUPC_AMG_C || t == c || mark[t] == c) PetscFunctionReturn(0);
  mark[t] = c;
  if (*cnt == *cap) {
    *cap *= 2;
    PetscCall(PetscRealloc(sizeof(PetscInt) * *cap, rj));
  }
  (*rj)[(*cnt)++] = cidx[t];
  PetscFunctionReturn(0);
}

/* S2 of the splitting cf built directly from its definition, row by row with a mark per point: row q = the C points
   other than the q-th that are strong C neighbours of it or strong neighbours of its strong F neighbours, sorted,
   numbered among the C points */
static PetscErrorCode ReferenceS2(const GPUPCAMGStrength *S, const PetscInt *cf, PetscInt *nc, PetscInt **ri, PetscInt **rj)
{
  PetscInt n = S->n, *cidx, *mark, cap = 16, cnt = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(n, &cidx, n, &mark));
  *nc = 0;
  for (PetscInt i = 0; i < n; i++) {
    mark[i] = -1;
    cidx[i] = cf[i] == GPUPC_AMG_C ? (*nc)++ : -1;
  }
  PetscCall(PetscMalloc1(*nc + 1, ri));
  PetscCall(PetscMalloc1(cap, rj));
  (*ri)[0] = 0;
  for (PetscInt c = 0; c < n; c++) {
    if (cf[c] != GPUPC_AMG_C) continue;
    for (PetscInt e = S->i[c]; e < S->i[c + 1]; e++) {
      PetscInt k = S->j[e];
      if (cf[k] == GPUPC_AMG_C) PetscCall(RefAdd(k, c, cf, cidx, mark, &cnt, &cap, rj));
      else
        for (PetscInt f = S->i[k]; f < S->i[k + 1]; f++) PetscCall(RefAdd(S->j[f], c, cf, cidx, mark, &cnt, &cap, rj));
    }
    PetscCall(PetscSortInt(cnt - (*ri)[cidx[c]], *rj + (*ri)[cidx[c]]));
    (*ri)[cidx[c] + 1] = cnt;
  }
  PetscCall(PetscFree2(cidx, mark));
  PetscFunctionReturn(0);
}

/* the S2 of the device setup against ReferenceS2 of the first splitting hcf1 (host) whose device copy is cf1 */
static PetscErrorCode CheckS2(const char *what, const GPUPCAMGAggrKernels *ak, const GPUPCSparseKernels *sk, const GPUPCAMGStrength *S, const GPUPCDevCSR *Sd, const PetscInt *hcf1, const PetscInt *cf1, PetscInt *s2nnz)
{
  PetscInt    *ri, *rj, nc = 0, ncd = 0, *cpts, *cidx, *hi, *hj, *ti, *tj;
  PetscScalar *ones;
  GPUPCDevCSR  S2, S2T;
  Mat          R, RT;

  PetscFunctionBegin;
  PetscCall(ReferenceS2(S, hcf1, &nc, &ri, &rj));
  PetscCall(GPUPCMallocArray(PetscMax(Sd->m, 1), &cpts));
  PetscCall(GPUPCMallocArray(PetscMax(Sd->m, 1), &cidx));
  PetscCall(sk->compact(Sd->m, cf1, GPUPC_AMG_C, cpts, cidx, &ncd, NULL));
  PetscCheck(ncd == nc, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " C points on the device, %" PetscInt_FMT " on the host", what, ncd, nc);
  PetscCall(GPUPCAMGDevStrength2(ak, sk, Sd, cf1, nc, cpts, cidx, &S2, &S2T));
  PetscCheck(S2.m == nc && S2.n == nc && S2.nnz == ri[nc], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: S2 is %" PetscInt_FMT " x %" PetscInt_FMT " with %" PetscInt_FMT " entries on the device, %" PetscInt_FMT " x %" PetscInt_FMT " with %" PetscInt_FMT " in the reference", what, S2.m, S2.n, S2.nnz, nc, nc, ri[nc]);
  PetscCall(GPUPCDevCSRCheck(&S2, "S2"));
  PetscCall(Back(hi, S2.i, nc + 1));
  PetscCall(Back(hj, S2.j, S2.nnz));
  PetscCall(ExpectEqualInts(what, "S2.i", nc + 1, hi, ri));
  PetscCall(ExpectEqualInts(what, "S2.j", S2.nnz, hj, rj));
  /* the transpose against PETSc's of the reference */
  PetscCall(PetscMalloc1(PetscMax(ri[nc], 1), &ones));
  for (PetscInt e = 0; e < ri[nc]; e++) ones[e] = 1.0;
  PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, nc, nc, ri, rj, ones, &R));
  PetscCall(MatTranspose(R, MAT_INITIAL_MATRIX, &RT));
  {
    const PetscInt *pi, *pj;
    PetscInt        m;
    PetscBool       done;
    PetscCall(MatGetRowIJ(RT, 0, PETSC_FALSE, PETSC_FALSE, &m, &pi, &pj, &done));
    PetscCall(Back(ti, S2T.i, nc + 1));
    PetscCall(Back(tj, S2T.j, S2T.nnz));
    PetscCall(ExpectEqualInts(what, "S2^T.i", nc + 1, ti, pi));
    PetscCall(ExpectEqualInts(what, "S2^T.j", S2T.nnz, tj, pj));
    PetscCall(MatRestoreRowIJ(RT, 0, PETSC_FALSE, PETSC_FALSE, &m, &pi, &pj, &done));
  }
  *s2nnz = S2.nnz;
  PetscCall(MatDestroy(&R));
  PetscCall(MatDestroy(&RT));
  PetscCall(PetscFree(ones));
  PetscCall(PetscFree(ri));
  PetscCall(PetscFree(rj));
  PetscCall(PetscFree(hi));
  PetscCall(PetscFree(hj));
  PetscCall(PetscFree(ti));
  PetscCall(PetscFree(tj));
  PetscCall(GPUPCFree(cpts));
  PetscCall(GPUPCFree(cidx));
  PetscCall(GPUPCDevCSRDestroy(&S2));
  PetscCall(GPUPCDevCSRDestroy(&S2T));
  PetscFunctionReturn(0);
}

/* the rows' sizes that decide where the device forms them, from the host setup's S, first splitting hcf1, final
   splitting hcf and P: the S2 candidates of each C point of hcf1; for multipass the pass of each F point (computed
   here again) and its bound, the row of A plus the rows of P of its strong neighbours of earlier passes */
static PetscErrorCode Cover(Mat A, const GPUPCAMGStrength *S, const PetscInt *hcf1, const PetscInt *hcf, const GPUPCAMGLocalP *P, PetscBool aggressive, PetscInt *s2max, PetscInt *mpmax)
{
  PetscInt        n = S->n, m, *pass, left = 1;
  const PetscInt *ai, *aj;
  PetscBool       done;

  PetscFunctionBegin;
  *s2max = *mpmax = 0;
  for (PetscInt c = 0; c < n && aggressive; c++) {
    PetscInt b = 0;
    if (hcf1[c] != GPUPC_AMG_C) continue;
    for (PetscInt e = S->i[c]; e < S->i[c + 1]; e++) b += hcf1[S->j[e]] == GPUPC_AMG_C ? 1 : S->i[S->j[e] + 1] - S->i[S->j[e]];
    covered[0][b > GPUPC_AMG_DEV_ROWCAP]++;
    *s2max = PetscMax(*s2max, b);
  }
  PetscCall(PetscMalloc1(n, &pass));
  for (PetscInt i = 0; i < n; i++) pass[i] = hcf[i] == GPUPC_AMG_C ? 0 : -1;
  for (PetscInt p = 1; left; p++) {
    left = 0;
    for (PetscInt i = 0; i < n; i++)
      for (PetscInt e = S->i[i]; e < S->i[i + 1] && pass[i] < 0; e++)
        if (pass[S->j[e]] >= 0 && pass[S->j[e]] < p) {
          pass[i] = p;
          left++;
        }
  }
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  for (PetscInt i = 0; i < n; i++) {
    PetscInt b = ai[i + 1] - ai[i];
    if (pass[i] <= 0) continue;
    for (PetscInt e = S->i[i]; e < S->i[i + 1]; e++)
      if (pass[S->j[e]] >= 0 && pass[S->j[e]] < pass[i]) b += P->i[S->j[e] + 1] - P->i[S->j[e]];
    covered[1][b > GPUPC_AMG_DEV_ROWCAP]++;
    *mpmax = PetscMax(*mpmax, b);
  }
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscCall(PetscFree(pass));
  PetscFunctionReturn(0);
}

/* one case: the level's host setup (strength, pmis, the aggressive second stage when aggressive, multipass) against
   the device setup's steps */
static PetscErrorCode Case(const GPUPCAMGSetupKernels *k, const GPUPCAMGAggrKernels *ak, const GPUPCSparseKernels *sk, const char *problem, PetscInt size, PetscInt levels, PetscBool aggressive, PetscInt tmax, PetscReal tfac)
{
  Mat              A;
  GPUPCAMGLocal    L;
  GPUPCAMGStrength S;
  GPUPCAMGLocalP   P;
  GPUPCDevCSR      Ad, Sd, STd, Pd;
  PetscScalar     *d;
  PetscInt        *hcf1, *hcf, *cf, *cmap, *back, *pi, *pj, n, nc = 0, hnc = 0, nc1 = 0, npasses = 0, s2nnz = 0, rowmax = 0, s2max, mpmax;
  PetscReal       *pa;
  char             what[160];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s %" PetscInt_FMT " level %" PetscInt_FMT ", %s, trunc %" PetscInt_FMT " %g", problem, size, levels, aggressive ? "aggressive" : "pmis, multipass", tmax, (double)tfac));
  PetscCall(LevelOperator(problem, size, levels, &A));
  /* the host setup */
  PetscCall(GPUPCAMGLocalGet(A, 1, NULL, 1, &L));
  n = L.n;
  PetscCall(GPUPCAMGStrengthClassical(&L, 0.25, 1, &S));
  PetscCall(PetscMalloc2(n, &hcf1, n, &hcf));
  PetscCall(GPUPCAMGCoarsen(&S, PC_GPUAMG_COARSEN_PMIS, 0, 1, hcf1));
  PetscCall(PetscArraycpy(hcf, hcf1, n));
  if (aggressive) PetscCall(GPUPCAMGCoarsenAggressive(&S, PC_GPUAMG_COARSEN_PMIS, 0, 1, hcf));
  PetscCall(GPUPCAMGInterpolate(&L, &S, hcf, PC_GPUAMG_INTERP_MULTIPASS, tmax, tfac, PC_GPUAMG_TRUNC_RESCALE_SUM, 1, &P));
  for (PetscInt i = 0; i < n; i++) {
    PetscCall(PetscSortIntWithScalarArray(P.i[i + 1] - P.i[i], P.j + P.i[i], P.a + P.i[i])); /* the host setup leaves them in the order it made them */
    hnc += hcf[i] == GPUPC_AMG_C;
    nc1 += hcf1[i] == GPUPC_AMG_C;
    rowmax = PetscMax(rowmax, P.i[i + 1] - P.i[i]);
  }
  PetscCall(Cover(A, &S, hcf1, hcf, &P, aggressive, &s2max, &mpmax));
  /* the device setup's steps */
  PetscCall(GPUPCDevCSRFromMat(A, &Ad));
  PetscCall(GPUPCMallocArray(n, &d));
  PetscCall(sk->diagonal(&Ad, d));
  PetscCall(GPUPCAMGDevStrength(k, sk, &Ad, d, 0.25, &Sd, &STd));
  PetscCall(GPUPCMallocArray(n, &cf));
  PetscCall(GPUPCMallocArray(n, &cmap));
  PetscCall(GPUPCAMGDevPMIS(k, &Sd, &STd, 0, cf));
  PetscCall(Back(back, cf, n));
  PetscCall(ExpectEqualInts(what, "cf (first stage)", n, back, hcf1));
  PetscCall(PetscFree(back));
  if (aggressive) {
    PetscCall(CheckS2(what, ak, sk, &S, &Sd, hcf1, cf, &s2nnz));
    PetscCall(GPUPCAMGDevCoarsenAggressive(k, ak, sk, &Sd, cf));
    PetscCall(Back(back, cf, n));
    PetscCall(ExpectEqualInts(what, "cf (second stage)", n, back, hcf));
    PetscCall(PetscFree(back));
  }
  PetscCall(sk->compact(n, cf, GPUPC_AMG_C, NULL, cmap, &nc, NULL));
  PetscCheck(nc == hnc && nc == P.nc, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " coarse points on the device setup, %" PetscInt_FMT " on the host setup", what, nc, hnc);
  PetscCall(GPUPCAMGDevInterpMultipass(k, ak, sk, &Ad, d, &Sd, cf, cmap, nc, tmax, tfac, &npasses, &Pd));
  PetscCheck(Pd.m == n && Pd.n == nc && Pd.nnz == P.i[n], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: P is %" PetscInt_FMT " x %" PetscInt_FMT " with %" PetscInt_FMT " entries on the device setup, %" PetscInt_FMT " x %" PetscInt_FMT " with %" PetscInt_FMT " on the host setup", what, Pd.m, Pd.n, Pd.nnz, n, P.nc, P.i[n]);
  PetscCall(GPUPCDevCSRCheck(&Pd, "P"));
  PetscCall(Back(pi, Pd.i, n + 1));
  PetscCall(Back(pj, Pd.j, Pd.nnz));
  PetscCall(Back(pa, Pd.a, Pd.nnz));
  PetscCall(ExpectEqualInts(what, "P.i", n + 1, pi, P.i));
  PetscCall(ExpectEqualInts(what, "P.j", Pd.nnz, pj, P.j));
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt e = P.i[i]; e < P.i[i + 1]; e++) /* bit for bit, the sign of a zero included */
      PetscCheck(pa[e] == P.a[e] && !signbit(pa[e]) == !signbit(P.a[e]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: P(%" PetscInt_FMT ", %" PetscInt_FMT ") is %.17g on the device setup, %.17g on the host setup", what, i, P.j[e], (double)pa[e], (double)P.a[e]);
  PetscCheck(npasses >= 1 || nc == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " passes", what, npasses);
  if (aggressive) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %" PetscInt_FMT " rows, %" PetscInt_FMT " C points after the first stage, S2 %" PetscInt_FMT " entries, %" PetscInt_FMT " C points after the second; P %" PetscInt_FMT " entries in %" PetscInt_FMT " passes, longest row %" PetscInt_FMT "; most candidates of a row of S2 %" PetscInt_FMT ", of P %" PetscInt_FMT ": same as the host setup\n", what, n, nc1, s2nnz, nc, Pd.nnz, npasses, rowmax, s2max, mpmax));
  else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %" PetscInt_FMT " rows, %" PetscInt_FMT " C points; P %" PetscInt_FMT " entries in %" PetscInt_FMT " passes, longest row %" PetscInt_FMT "; most candidates of a row %" PetscInt_FMT ": same as the host setup\n", what, n, nc, Pd.nnz, npasses, rowmax, mpmax));
  PetscCall(PetscFree(pi));
  PetscCall(PetscFree(pj));
  PetscCall(PetscFree(pa));
  PetscCall(PetscFree2(hcf1, hcf));
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

/* a truncation factor outside [0, 1) is refused with PETSC_ERR_ARG_OUTOFRANGE before anything is made */
static PetscErrorCode BadFactor(const GPUPCAMGSetupKernels *k, const GPUPCAMGAggrKernels *ak, const GPUPCSparseKernels *sk)
{
  GPUPCDevCSR    none, P;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&none, sizeof(none)));
  PetscCall(PetscMemzero(&P, sizeof(P)));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = GPUPCAMGDevInterpMultipass(k, ak, sk, &none, NULL, &none, NULL, NULL, 0, 4, 1.5, NULL, &P);
  PetscCall(PetscPopErrorHandler());
  PetscCheck(ierr == PETSC_ERR_ARG_OUTOFRANGE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "truncation factor 1.5: error %d, not PETSC_ERR_ARG_OUTOFRANGE", (int)ierr);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "truncation factor 1.5: refused\n"));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  const GPUPCAMGSetupKernels *k;
  const GPUPCAMGAggrKernels  *ak;
  const GPUPCSparseKernels   *sk;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(GPUPCGetAMGSetupKernels(&k));
  PetscCall(GPUPCGetAMGAggrKernels(&ak));
  PetscCall(GPUPCGetSparseKernels(&sk));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "aggressive-coarsening kernel table: %s\n", ak->name));
  PetscCall(Case(k, ak, sk, "poisson3d", 8000, 0, PETSC_TRUE, 4, 0.0));
  PetscCall(Case(k, ak, sk, "randcoef3d", 8000, 0, PETSC_TRUE, 0, 0.2));
  PetscCall(Case(k, ak, sk, "aniso2d", 4900, 0, PETSC_TRUE, 0, 0.0));
  PetscCall(Case(k, ak, sk, "jump3d", 8000, 0, PETSC_TRUE, 3, 0.1));
  PetscCall(Case(k, ak, sk, "elasticity3d", 3000, 0, PETSC_TRUE, 4, 0.0));
  PetscCall(Case(k, ak, sk, "convdiff2d", 4900, 0, PETSC_TRUE, 4, 0.0));
  PetscCall(Case(k, ak, sk, "poisson3d27", 8000, 0, PETSC_TRUE, 4, 0.0));
  /* multipass on the plain PMIS splitting (-pc_gpuamg_interp multipass) */
  PetscCall(Case(k, ak, sk, "randcoef3d", 8000, 0, PETSC_FALSE, 4, 0.0));
  PetscCall(Case(k, ak, sk, "jump3d", 8000, 0, PETSC_FALSE, 0, 0.0));
  /* coarse levels of the host setup's hierarchy: denser rows, more passes */
  PetscCall(Case(k, ak, sk, "randcoef3d", 27000, 1, PETSC_TRUE, 4, 0.0));
  PetscCall(Case(k, ak, sk, "elasticity3d", 24000, 2, PETSC_TRUE, 0, 0.0));
  for (PetscInt t = 0; t < 2; t++)
    PetscCheck(covered[t][0] > 0 && covered[t][1] > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the cases formed %" PetscInt_FMT " rows of %s in a thread's own arrays and %" PetscInt_FMT " in the buffer: both ways must be tested", covered[t][0], t ? "P" : "S2", covered[t][1]);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "rows up to %d candidates (a thread's own arrays) and above (the buffer): S2 %" PetscInt_FMT " and %" PetscInt_FMT ", P %" PetscInt_FMT " and %" PetscInt_FMT "\n", GPUPC_AMG_DEV_ROWCAP, covered[0][0], covered[0][1], covered[1][0], covered[1][1]));
  PetscCall(BadFactor(k, ak, sk));
  PetscCall(PetscFinalize());
  return 0;
}

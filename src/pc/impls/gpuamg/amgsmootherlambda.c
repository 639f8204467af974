/*
   The eigenvalue bound of PC gpuamg's smoothers (docs/algorithms.md 4.2): lambda_l >= lambda_max(D^-1 A_l) of a level.

   D^-1 A is similar to the symmetric (for a symmetric A) S sgn(D) A S, S = |D|^-1/2, and Lanczos on that operator
   (GPUPC_AMG_LANCZOS_STEPS steps from a random vector) gives Ritz values that approach lambda_max from below much
   faster than power steps do. The bound used is

     lambda = min(1.1 * largest Ritz value, Gershgorin bound max_i sum_j |a_ij| / |a_ii|)

   (the Gershgorin bound is a true upper bound; the Ritz value a lower one that 1.1 lifts above lambda_max in
   practice). The products go through the level's MatMult and gpu Vec operations, so the estimate runs on the device.

   The bjacobi smoother's lambda_l >= lambda_max(D_B^-1 A_l) (D_B the block diagonal) comes from the same Lanczos loop
   run in the D_B inner product (preconditioned Lanczos, D_B^-1 applied by the device block kernels).
*/
#include <gpupc/amgcycle.h>
#include <gpupc/gpubjacobi.h>

/* the number of eigenvalues of the symmetric tridiagonal T (diagonal a, off-diagonal b, order k) below x (Sturm) */
static PetscInt SturmCount(const PetscReal *a, const PetscReal *b, PetscInt k, PetscReal x)
{
  PetscInt  cnt = 0;
  PetscReal q   = 1.0;

  for (PetscInt i = 0; i < k; i++) {
    q = a[i] - x - (i > 0 ? b[i - 1] * b[i - 1] / q : 0.0);
    if (q == 0.0) q = -PETSC_MACHINE_EPSILON * (PetscAbsReal(a[i]) + PETSC_MACHINE_EPSILON);
    if (q < 0.0) cnt++;
  }
  return cnt;
}

/* the largest eigenvalue of T by bisection between its Gershgorin bounds */
static PetscReal TridiagonalMax(const PetscReal *a, const PetscReal *b, PetscInt k)
{
  PetscReal lo = PETSC_MAX_REAL, hi = -PETSC_MAX_REAL;

  for (PetscInt i = 0; i < k; i++) {
    const PetscReal r = (i > 0 ? PetscAbsReal(b[i - 1]) : 0.0) + (i < k - 1 ? PetscAbsReal(b[i]) : 0.0);
    lo                = PetscMin(lo, a[i] - r);
    hi                = PetscMax(hi, a[i] + r);
  }
  for (PetscInt it = 0; it < 200 && hi - lo > 1e-12 * PetscMax(PetscAbsReal(hi), PetscAbsReal(lo)); it++) {
    const PetscReal mid = 0.5 * (lo + hi);
    if (SturmCount(a, b, k, mid) == k) hi = mid; /* every eigenvalue below mid */
    else lo = mid;
  }
  return hi;
}

/* the operator of a Lanczos estimate: w = op(z) (the Lanczos operator times z); minv, when set, applies M^-1 of an
   SPD M whose inner product the Lanczos vectors are orthonormal in (the estimate is then one of op's eigenvalues in
   the M^-1-preconditioned sense: lambda_max(M^-1 op)) */
typedef struct {
  PetscErrorCode (*op)(void *, Vec, Vec);
  PetscErrorCode (*minv)(void *, Vec, Vec);
  void *ctx;
} LanczosOperator;

/* the largest Ritz value of GPUPC_AMG_LANCZOS_STEPS Lanczos steps on L from level l's start vector (made on the device
   by the kernel table k: a host-made random vector cost more than the steps), vectors like tmpl. Without
   minv: the plain symmetric Lanczos on op. With minv: preconditioned Lanczos, v the residual-like and z = M^-1 v the
   search-like vectors, normalised by sqrt(v^T z) (which must be positive: M SPD). */
static PetscErrorCode LanczosRitz(const GPUPCAMGKernels *kt, Mat A, const LanczosOperator *L, Vec tmpl, PetscInt l, PetscReal *ritz)
{
  Vec          v, vold, w, z, zw;
  PetscScalar *va;
  PetscReal    alpha[GPUPC_AMG_LANCZOS_STEPS], beta[GPUPC_AMG_LANCZOS_STEPS], nv;
  PetscScalar  dot;
  PetscInt     k = 0, n, rstart;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(tmpl, &v));
  PetscCall(VecDuplicate(tmpl, &vold));
  PetscCall(VecDuplicate(tmpl, &w));
  if (L->minv) {
    PetscCall(VecDuplicate(tmpl, &z));
    PetscCall(VecDuplicate(tmpl, &zw));
  } else z = zw = v;
  PetscCall(VecGetLocalSize(v, &n));
  PetscCall(VecGetOwnershipRange(v, &rstart, NULL));
  PetscCall(VecGPUGetDeviceArrayWrite(v, &va));
  PetscCall(kt->random(n, 0x5eed + l, rstart, va)); /* entries in [-1, 1), a hash of the global row: any rank count alike */
  PetscCall(VecGPURestoreDeviceArrayWrite(v, &va));
  PetscCall(VecSet(vold, 0.0));
  if (L->minv) { /* v^T M^-1 v = 1 */
    PetscCall((*L->minv)(L->ctx, v, z));
    PetscCall(VecDot(v, z, &dot));
    nv = PetscSqrtReal(PetscMax(PetscRealPart(dot), 0.0));
    if (nv > 0) {
      PetscCall(VecScale(v, 1.0 / nv));
      PetscCall(VecScale(z, 1.0 / nv));
    }
  } else PetscCall(VecNormalize(v, &nv));
  for (k = 0; k < GPUPC_AMG_LANCZOS_STEPS && nv > 0;) {
    PetscCall((*L->op)(L->ctx, z, w));
    PetscCall(VecDot(w, z, &dot));
    alpha[k] = PetscRealPart(dot);
    PetscCall(VecAXPY(w, -alpha[k], v));
    if (k > 0) PetscCall(VecAXPY(w, -beta[k - 1], vold));
    if (L->minv) {
      PetscCall((*L->minv)(L->ctx, w, zw));
      PetscCall(VecDot(w, zw, &dot));
      PetscCheck(PetscRealPart(dot) >= 0 || PetscIsInfOrNanScalar(dot), PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "PC gpuamg: the block diagonal of level %" PetscInt_FMT " is not positive definite (w^T D_B^-1 w = %g < 0 in the Lanczos estimate of lambda_max(D_B^-1 A)); use the point smoothers (-pc_gpuamg_smoother l1jacobi)", l, (double)PetscRealPart(dot));
      beta[k] = PetscSqrtReal(PetscRealPart(dot));
    } else PetscCall(VecNorm(w, NORM_2, &beta[k]));
    PetscCheck(!PetscIsInfOrNanReal(alpha[k]) && !PetscIsInfOrNanReal(beta[k]), PetscObjectComm((PetscObject)A), PETSC_ERR_FP, "PC gpuamg: the Lanczos estimate of the largest eigenvalue of the smoother's D^-1 A on level %" PetscInt_FMT " met Inf or NaN; the level operator holds values that are not finite", l);
    k++;
    if (beta[k - 1] <= 1e-10 * (PetscAbsReal(alpha[k - 1]) + (k > 1 ? beta[k - 2] : 0.0))) break; /* invariant subspace: exact */
    PetscCall(VecCopy(v, vold));
    PetscCall(VecAXPBY(v, 1.0 / beta[k - 1], 0.0, w));
    if (L->minv) PetscCall(VecAXPBY(z, 1.0 / beta[k - 1], 0.0, zw));
  }
  *ritz = k > 0 ? TridiagonalMax(alpha, beta, k) : 0.0;
  PetscCall(VecDestroy(&v));
  PetscCall(VecDestroy(&vold));
  PetscCall(VecDestroy(&w));
  if (L->minv) {
    PetscCall(VecDestroy(&z));
    PetscCall(VecDestroy(&zw));
  }
  PetscFunctionReturn(0);
}

/* the point-Jacobi operator S sgn(D) A S (S = |D|^-1/2) */
typedef struct {
  Mat A;
  Vec s, ss, t;
} PointScaled;

static PetscErrorCode PointScaledMult(void *ctx, Vec z, Vec w)
{
  PointScaled *P = (PointScaled *)ctx;

  PetscFunctionBegin;
  PetscCall(VecPointwiseMult(P->t, P->s, z));
  PetscCall(MatMult(P->A, P->t, w));
  PetscCall(VecPointwiseMult(w, P->ss, w)); /* w = S sgn(D) A S z */
  PetscFunctionReturn(0);
}

/*
   GPUPCAMGSmootherLambda - the largest Ritz value of GPUPC_AMG_LANCZOS_STEPS Lanczos steps on S sgn(D) A S of level l
   (dinv holds 1/a_ii; k: the cycle's kernel table, which makes the start vector) and the bound lambda = min(1.1 * Ritz, gersh); collective on the level's matrix
*/
PetscErrorCode GPUPCAMGSmootherLambda(const GPUPCAMGKernels *k, Mat A, Vec dinv, PetscInt l, PetscReal gersh, PetscReal *ritz, PetscReal *lambda)
{
  PointScaled     P;
  LanczosOperator L = {PointScaledMult, NULL, &P};

  PetscFunctionBegin;
  P.A = A;
  PetscCall(VecDuplicate(dinv, &P.s));
  PetscCall(VecDuplicate(dinv, &P.ss));
  PetscCall(VecDuplicate(dinv, &P.t));
  PetscCall(VecCopy(dinv, P.s));
  PetscCall(VecSqrtAbs(P.s));                     /* S = |D|^-1/2 */
  PetscCall(VecPointwiseDivide(P.ss, dinv, P.s)); /* sgn(D) S = D^-1 / |D|^-1/2 */
  PetscCall(LanczosRitz(k, A, &L, dinv, l, ritz));
  PetscCall(VecDestroy(&P.s));
  PetscCall(VecDestroy(&P.ss));
  PetscCall(VecDestroy(&P.t));
  *lambda = PetscMin(1.1 * *ritz, gersh);
  PetscCheck(*lambda > 0 && !PetscIsInfOrNanReal(*lambda), PetscObjectComm((PetscObject)A), PETSC_ERR_CONV_FAILED, "PC gpuamg: the estimate of the largest eigenvalue of D^-1 A on level %" PetscInt_FMT " is %g (largest Ritz value %g, Gershgorin bound %g); the smoothers that need it work on positive definite levels (use -pc_gpuamg_smoother l1jacobi)", l, (double)*lambda, (double)*ritz, (double)gersh);
  PetscFunctionReturn(0);
}

/* the block-Jacobi operator: A, with M^-1 = D_B^-1 */
typedef struct {
  Mat                   A;
  const GPUPCPBJBlocks *blocks;
} BlockScaled;

static PetscErrorCode BlockMult(void *ctx, Vec z, Vec w)
{
  PetscFunctionBegin;
  PetscCall(MatMult(((BlockScaled *)ctx)->A, z, w));
  PetscFunctionReturn(0);
}

static PetscErrorCode BlockInverse(void *ctx, Vec v, Vec z)
{
  PetscFunctionBegin;
  PetscCall(GPUPCPBJBlocksApply(((BlockScaled *)ctx)->blocks, PETSC_FALSE, NULL, v, z));
  PetscFunctionReturn(0);
}

/*
   GPUPCAMGSmootherLambdaBlock - lambda_max(D_B^-1 A) of level l (D_B: the block diagonal whose inverses are blocks) by
   GPUPC_AMG_LANCZOS_STEPS steps of Lanczos in the D_B inner product: the largest Ritz value, and lambda = 1.1 x it
   (no Gershgorin cap: the bound of D_B^-1 A would need the products of the inverses with the rows). Collective.
*/
PetscErrorCode GPUPCAMGSmootherLambdaBlock(const GPUPCAMGKernels *k, Mat A, const GPUPCPBJBlocks *blocks, Vec tmpl, PetscInt l, PetscReal *ritz, PetscReal *lambda)
{
  BlockScaled     B = {A, blocks};
  LanczosOperator L = {BlockMult, BlockInverse, &B};

  PetscFunctionBegin;
  PetscCall(LanczosRitz(k, A, &L, tmpl, l, ritz));
  *lambda = 1.1 * *ritz;
  PetscCheck(*lambda > 0 && !PetscIsInfOrNanReal(*lambda), PetscObjectComm((PetscObject)A), PETSC_ERR_CONV_FAILED, "PC gpuamg: the estimate of the largest eigenvalue of D_B^-1 A (block size %" PetscInt_FMT ") on level %" PetscInt_FMT " is %g; the bjacobi smoother works on positive definite levels (use -pc_gpuamg_smoother l1jacobi)", blocks->bs, l, (double)*lambda);
  PetscFunctionReturn(0);
}

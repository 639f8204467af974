/*
   The eigenvalue bound of PC gpuamg's smoothers (docs/algorithms.md 4.2): lambda_l >= lambda_max(D^-1 A_l) of a level.

   D^-1 A is similar to the symmetric (for a symmetric A) S sgn(D) A S, S = |D|^-1/2, and Lanczos on that operator
   (GPUPC_AMG_LANCZOS_STEPS steps from a random vector) gives Ritz values that approach lambda_max from below much
   faster than power steps do. The bound used is

     lambda = min(1.1 * largest Ritz value, Gershgorin bound max_i sum_j |a_ij| / |a_ii|)

   (the Gershgorin bound is a true upper bound; the Ritz value a lower one that 1.1 lifts above lambda_max in
   practice). The products go through the level's MatMult and gpu Vec operations, so the estimate runs on the device.
*/
#include <gpupc/amgcycle.h>

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

/*
   GPUPCAMGSmootherLambda - the largest Ritz value of GPUPC_AMG_LANCZOS_STEPS Lanczos steps on S sgn(D) A S of level l
   (dinv holds 1/a_ii) and the bound lambda = min(1.1 * Ritz, gersh); collective on the level's matrix
*/
PetscErrorCode GPUPCAMGSmootherLambda(Mat A, Vec dinv, PetscInt l, PetscReal gersh, PetscReal *ritz, PetscReal *lambda)
{
  Vec         s, ss, v, vold, w, t;
  PetscRandom rnd;
  PetscReal   alpha[GPUPC_AMG_LANCZOS_STEPS], beta[GPUPC_AMG_LANCZOS_STEPS], nv;
  PetscScalar dot;
  PetscInt    k = 0;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(dinv, &s));
  PetscCall(VecDuplicate(dinv, &ss));
  PetscCall(VecDuplicate(dinv, &v));
  PetscCall(VecDuplicate(dinv, &vold));
  PetscCall(VecDuplicate(dinv, &w));
  PetscCall(VecDuplicate(dinv, &t));
  PetscCall(VecCopy(dinv, s));
  PetscCall(VecSqrtAbs(s));                   /* S = |D|^-1/2 */
  PetscCall(VecPointwiseDivide(ss, dinv, s)); /* sgn(D) S = D^-1 / |D|^-1/2 */
  PetscCall(PetscRandomCreate(PetscObjectComm((PetscObject)A), &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(PetscRandomSetSeed(rnd, (unsigned long)(0x5eed + l)));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(v, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecSet(vold, 0.0));
  PetscCall(VecNormalize(v, &nv));
  for (k = 0; k < GPUPC_AMG_LANCZOS_STEPS && nv > 0;) {
    PetscCall(VecPointwiseMult(t, s, v));
    PetscCall(MatMult(A, t, w));
    PetscCall(VecPointwiseMult(w, ss, w)); /* w = S sgn(D) A S v */
    PetscCall(VecDot(w, v, &dot));
    alpha[k] = PetscRealPart(dot);
    PetscCall(VecAXPY(w, -alpha[k], v));
    if (k > 0) PetscCall(VecAXPY(w, -beta[k - 1], vold));
    PetscCall(VecNorm(w, NORM_2, &beta[k]));
    PetscCheck(!PetscIsInfOrNanReal(alpha[k]) && !PetscIsInfOrNanReal(beta[k]), PetscObjectComm((PetscObject)A), PETSC_ERR_FP, "PC gpuamg: the Lanczos estimate of lambda_max(D^-1 A) on level %" PetscInt_FMT " met Inf or NaN; the level operator holds values that are not finite", l);
    k++;
    if (beta[k - 1] <= 1e-10 * (PetscAbsReal(alpha[k - 1]) + (k > 1 ? beta[k - 2] : 0.0))) break; /* invariant subspace: exact */
    PetscCall(VecCopy(v, vold));
    PetscCall(VecAXPBY(v, 1.0 / beta[k - 1], 0.0, w));
  }
  *ritz   = k > 0 ? TridiagonalMax(alpha, beta, k) : 0.0;
  *lambda = PetscMin(1.1 * *ritz, gersh);
  PetscCheck(*lambda > 0 && !PetscIsInfOrNanReal(*lambda), PetscObjectComm((PetscObject)A), PETSC_ERR_CONV_FAILED, "PC gpuamg: the estimate of the largest eigenvalue of D^-1 A on level %" PetscInt_FMT " is %g (largest Ritz value %g, Gershgorin bound %g); the smoothers that need it work on positive definite levels (use -pc_gpuamg_smoother l1jacobi)", l, (double)*lambda, (double)*ritz, (double)gersh);
  PetscCall(VecDestroy(&s));
  PetscCall(VecDestroy(&ss));
  PetscCall(VecDestroy(&v));
  PetscCall(VecDestroy(&vold));
  PetscCall(VecDestroy(&w));
  PetscCall(VecDestroy(&t));
  PetscFunctionReturn(0);
}

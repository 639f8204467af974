/*
   PC gpuamg's smoothers (docs/algorithms.md 4.2). Every one is a polynomial in W A with W a diagonal scaling, so the
   smoother is symmetric in the A inner product (a V(n,n) cycle is a symmetric preconditioner for CG) and its transpose
   is the same recurrence with A^T (PCApplyTranspose):

     jacobi      x += omega_l D^-1 (b - A x), omega_l = w 4 / (3 lambda_l), w = -pc_gpuamg_jacobi_weight (1): a fixed
                 omega (2/3 before) is no smoother where lambda_max(D^-1 A) nears 3 or more, as on coarse classical and
                 aggregation levels (issue 34: CG indefinite, Richardson divergent)
     l1jacobi    x += w D_l1^-1 (b - A x), (D_l1)_ii = a_ii + sum_{j != i} |a_ij| (w 1): convergent for every
                 SPD matrix, no eigenvalue estimate needed
     chebyshev   the Chebyshev polynomial of degree k (products with A per sweep) in D^-1 A on [lambda/10, lambda],
                 three-term recurrence on the correction d
     polynomial  x += omega (I + G + ... + G^m) D^-1 (b - A x), G = I - omega D^-1 A: the truncated Neumann series of
                 (omega D^-1 A)^-1, omega = 4 / (3 lambda). Since (I + G + ... + G^m) omega D^-1 A = I - G^{m+1},
                 a sweep is exactly m+1 damped Jacobi steps with that omega, and it is applied so.

   lambda_l >= lambda_max(D^-1 A_l) is min(1.1 x the largest Ritz value of Lanczos on S sgn(D) A S, Gershgorin bound),
   at setup (smootherlambda.c).
   A sweep from a zero iterate skips its first product with A.
*/
#include <gpupc/amgcycle.h>
#include <gpupc/matgpu.h>
#include <gpupc/threads.h>

/* the most threads of the scaling loop (one rank) */
#define GPUPC_SMOOTHER_MAX_THREADS 256

/* q = A x (or A^T x) on level l */
static PetscErrorCode Product(GPUPCAMGDevice *D, GPUPCAMGDeviceLevel *L, PetscBool transpose, Vec x, Vec q)
{
  PetscFunctionBegin;
  PetscCall(GPUPCAMGCountProduct(D, L->A, PETSC_FALSE));
  if (transpose) PetscCall(MatMultTranspose(L->A, x, q));
  else PetscCall(MatMult(L->A, x, q));
  PetscFunctionReturn(0);
}

/* the entry of w of row i (global) from its diagonal and the sum of the absolute off-diagonal values, and the row's
   Gershgorin radius of D^-1 A into *gersh; the first row with a zero diagonal goes to *zero, the first with Inf or NaN
   to *inf (reported by the caller, on every rank) */
static inline PetscScalar Scaling(PCGPUAMGSmootherType type, PetscReal omega, PetscScalar dii, PetscScalar l1, PetscInt i, PetscInt *zero, PetscInt *inf, PetscReal *gersh)
{
  if (dii == 0.0 && *zero < 0) *zero = i;
  if ((PetscIsInfOrNanScalar(dii) || PetscIsInfOrNanScalar(l1)) && *inf < 0) *inf = i;
  if (dii == 0.0) dii = 1.0;
  *gersh = PetscMax(*gersh, 1.0 + PetscRealPart(l1) / PetscAbsScalar(dii));
  if (type == PC_GPUAMG_SMOOTHER_L1JACOBI) return omega / (PetscAbsScalar(dii) + l1);
  return 1.0 / dii;
}

/* w = the scaling of the smoother on level l, and its eigenvalue data */
PetscErrorCode GPUPCAMGSmootherSetUp(GPUPCAMGDevice *D, PetscInt l)
{
  GPUPCAMGDeviceLevel        *L     = &D->levels[l];
  const GPUPCAMGCycleOptions *o     = &D->opts;
  const PetscReal             omega = GPUPCAMGCycleWeight(o);
  PetscScalar                *w;
  PetscInt                    rstart, rend, bad[2] = {-1, -1}, gbad[2]; /* first local row with a zero diagonal, with Inf or NaN */
  PetscBool                   seq;
  PetscInt                    tbad[2 * GPUPC_SMOOTHER_MAX_THREADS];
  PetscReal                   tgersh[GPUPC_SMOOTHER_MAX_THREADS], gersh = 0.0;

  PetscFunctionBegin;
  PetscCall(MatGetOwnershipRange(L->A, &rstart, &rend));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)L->A, &seq, MATSEQAIJ, MATSEQSEGCSR, ""));
  PetscCall(VecGetArrayWrite(L->w, &w));
  if (seq) { /* one rank: the rows straight from the CSR arrays, over the host threads (a MatGetRow per row cost more
                than the rest of the smoother's setup) */
    GPUPCCSR a;
    PetscInt nt;

    PetscCall(GPUPCMatGetCSR(L->A, &a));
    PetscCall(GPUPCDefaultHostThreads(&nt));
    nt = GPUPCRangeThreads(PetscMin(nt, GPUPC_SMOOTHER_MAX_THREADS), a.m, 65536);
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (PetscInt t = 0; t < nt; t++) {
      PetscInt lo, hi;
      GPUPCThreadRange(a.m, t, nt, &lo, &hi);
      PetscInt  b0 = -1, b1 = -1;
      PetscReal g = 0.0;

      for (PetscInt i = lo; i < hi; i++) {
        PetscScalar dii = 0, l1 = 0;

        for (PetscInt k = a.i[i]; k < a.i[i + 1]; k++) {
          if (a.j[k] == i) dii += a.a[k];
          else l1 += PetscAbsScalar(a.a[k]);
        }
        w[i] = Scaling(o->smoother, omega, dii, l1, i, &b0, &b1, &g);
      }
      tbad[2 * t]     = b0;
      tbad[2 * t + 1] = b1;
      tgersh[t]       = g;
    }
    for (PetscInt t = 0; t < nt; t++) gersh = PetscMax(gersh, tgersh[t]);
    for (PetscInt t = 0; t < nt; t++) /* the first bad row of all: that of the first range that has one */
      for (PetscInt q = 0; q < 2; q++)
        if (bad[q] < 0) bad[q] = tbad[2 * t + q];
    PetscCall(GPUPCMatRestoreCSR(&a));
  } else {
    for (PetscInt i = rstart; i < rend; i++) {
      const PetscInt    *cols;
      const PetscScalar *vals;
      PetscInt           nc;
      PetscScalar        dii = 0, l1 = 0;

      PetscCall(MatGetRow(L->A, i, &nc, &cols, &vals));
      for (PetscInt k = 0; k < nc; k++) {
        if (cols[k] == i) dii += vals[k];
        else l1 += PetscAbsScalar(vals[k]);
      }
      PetscCall(MatRestoreRow(L->A, i, &nc, &cols, &vals));
      w[i - rstart] = Scaling(o->smoother, omega, dii, l1, i, &bad[0], &bad[1], &gersh);
    }
  }
  PetscCall(VecRestoreArrayWrite(L->w, &w));
  PetscCall(MPIU_Allreduce(bad, gbad, 2, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)L->A)));
  PetscCheck(gbad[0] < 0, PetscObjectComm((PetscObject)L->A), PETSC_ERR_ARG_WRONG, "PC gpuamg: row %" PetscInt_FMT " of level %" PetscInt_FMT " has a zero diagonal entry; the smoothers divide by it (AMG needs a nonzero diagonal, e.g. an SPD matrix)", gbad[0], l);
  PetscCheck(gbad[1] < 0, PetscObjectComm((PetscObject)L->A), PETSC_ERR_FP, "PC gpuamg: row %" PetscInt_FMT " of level %" PetscInt_FMT " holds Inf or NaN", gbad[1], l);
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &gersh, 1, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)L->A)));
  L->gersh  = gersh;
  L->ritz   = 0;
  L->lambda = 0;
  L->omega  = omega;
  if (o->smoother != PC_GPUAMG_SMOOTHER_L1JACOBI) PetscCall(GPUPCAMGSmootherLambda(L->A, L->w, l, L->gersh, &L->ritz, &L->lambda));
  switch (o->smoother) {
  case PC_GPUAMG_SMOOTHER_JACOBI:
    L->omega = omega * 4.0 / (3.0 * L->lambda);
    PetscCall(VecScale(L->w, L->omega));
    break;
  case PC_GPUAMG_SMOOTHER_L1JACOBI: break;
  case PC_GPUAMG_SMOOTHER_CHEBYSHEV: {
    const PetscReal lo = L->lambda / GPUPC_AMG_CHEBYSHEV_LOWER, hi = L->lambda;
    L->theta = 0.5 * (hi + lo);
    L->delta = 0.5 * (hi - lo);
  } break;
  case PC_GPUAMG_SMOOTHER_POLYNOMIAL:
    L->omega = 4.0 / (3.0 * L->lambda);
    PetscCall(VecScale(L->w, L->omega));
    break;
  }
  PetscFunctionReturn(0);
}

/* one Jacobi-type step x += w .* (b - A x) (zero: x = w .* b) */
static PetscErrorCode JacobiStep(GPUPCAMGDevice *D, GPUPCAMGDeviceLevel *L, PetscBool transpose, PetscBool zero)
{
  const PetscScalar *w, *b, *q = NULL;
  PetscScalar       *x;

  PetscFunctionBegin;
  if (!zero) PetscCall(Product(D, L, transpose, L->x, L->r));
  GPUPCAMGCountBytes(D, (zero ? 3.0 : 5.0) * sizeof(PetscScalar) * L->N);
  PetscCall(VecGPUGetDeviceArrayRead(L->w, &w));
  PetscCall(VecGPUGetDeviceArrayRead(L->b, &b));
  if (!zero) PetscCall(VecGPUGetDeviceArrayRead(L->r, &q));
  if (zero) PetscCall(VecGPUGetDeviceArrayWrite(L->x, &x));
  else PetscCall(VecGPUGetDeviceArray(L->x, &x));
  PetscCall(D->k->jacobi(L->n, zero, w, b, q, x));
  if (zero) PetscCall(VecGPURestoreDeviceArrayWrite(L->x, &x));
  else PetscCall(VecGPURestoreDeviceArray(L->x, &x));
  if (!zero) PetscCall(VecGPURestoreDeviceArrayRead(L->r, &q));
  PetscCall(VecGPURestoreDeviceArrayRead(L->b, &b));
  PetscCall(VecGPURestoreDeviceArrayRead(L->w, &w));
  PetscFunctionReturn(0);
}

/* one Chebyshev step: d = alpha d + beta w .* (b - A x), x += d (zero: d = beta w .* b, x = d) */
static PetscErrorCode ChebyshevStep(GPUPCAMGDevice *D, GPUPCAMGDeviceLevel *L, PetscBool transpose, PetscBool zero, PetscReal alpha, PetscReal beta)
{
  const PetscScalar *w, *b, *q = NULL;
  PetscScalar       *x, *d;

  PetscFunctionBegin;
  if (!zero) PetscCall(Product(D, L, transpose, L->x, L->r));
  GPUPCAMGCountBytes(D, (zero ? 4.0 : (alpha == 0.0 ? 6.0 : 7.0)) * sizeof(PetscScalar) * L->N);
  PetscCall(VecGPUGetDeviceArrayRead(L->w, &w));
  PetscCall(VecGPUGetDeviceArrayRead(L->b, &b));
  if (!zero) PetscCall(VecGPUGetDeviceArrayRead(L->r, &q));
  if (zero) PetscCall(VecGPUGetDeviceArrayWrite(L->x, &x));
  else PetscCall(VecGPUGetDeviceArray(L->x, &x));
  if (zero || alpha == 0.0) PetscCall(VecGPUGetDeviceArrayWrite(L->d, &d));
  else PetscCall(VecGPUGetDeviceArray(L->d, &d));
  PetscCall(D->k->chebyshev(L->n, zero, alpha, beta, w, b, q, d, x));
  if (zero || alpha == 0.0) PetscCall(VecGPURestoreDeviceArrayWrite(L->d, &d));
  else PetscCall(VecGPURestoreDeviceArray(L->d, &d));
  if (zero) PetscCall(VecGPURestoreDeviceArrayWrite(L->x, &x));
  else PetscCall(VecGPURestoreDeviceArray(L->x, &x));
  if (!zero) PetscCall(VecGPURestoreDeviceArrayRead(L->r, &q));
  PetscCall(VecGPURestoreDeviceArrayRead(L->b, &b));
  PetscCall(VecGPURestoreDeviceArrayRead(L->w, &w));
  PetscFunctionReturn(0);
}

/* GPUPCAMGSmooth - sweeps of the smoother on level l, on A (or A^T); zero: the iterate starts at 0 (it is not read).
   With no sweep and a zero iterate, x = 0. */
PetscErrorCode GPUPCAMGSmooth(GPUPCAMGDevice *D, PetscInt l, PetscBool transpose, PetscInt sweeps, PetscBool zero)
{
  GPUPCAMGDeviceLevel        *L = &D->levels[l];
  const GPUPCAMGCycleOptions *o = &D->opts;

  PetscFunctionBegin;
  if (sweeps == 0) {
    if (zero) PetscCall(VecSet(L->x, 0.0));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscLogEventBegin(PC_GPUAMG_Smooth, 0, 0, 0, 0));
  for (PetscInt s = 0; s < sweeps; s++) {
    switch (o->smoother) {
    case PC_GPUAMG_SMOOTHER_JACOBI:
    case PC_GPUAMG_SMOOTHER_L1JACOBI: PetscCall(JacobiStep(D, L, transpose, zero)); break;
    case PC_GPUAMG_SMOOTHER_POLYNOMIAL:
      for (PetscInt j = 0; j <= o->poly_degree; j++) PetscCall(JacobiStep(D, L, transpose, (PetscBool)(zero && j == 0)));
      break;
    case PC_GPUAMG_SMOOTHER_CHEBYSHEV: {
      /* Saad, Iterative Methods for Sparse Linear Systems, Algorithm 12.1, on the correction */
      const PetscReal sigma = L->theta / L->delta;
      PetscReal       rho   = 1.0 / sigma, rnew;

      PetscCall(ChebyshevStep(D, L, transpose, zero, 0.0, 1.0 / L->theta));
      for (PetscInt j = 1; j < o->cheby_degree; j++) {
        rnew = 1.0 / (2.0 * sigma - rho);
        PetscCall(ChebyshevStep(D, L, transpose, PETSC_FALSE, rnew * rho, 2.0 * rnew / L->delta));
        rho = rnew;
      }
    } break;
    }
    zero = PETSC_FALSE;
  }
  PetscCall(PetscLogEventEnd(PC_GPUAMG_Smooth, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

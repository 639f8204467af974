/*
   PC gpuamg's smoothers, the common part (docs/algorithms.md 4.2): each registered smoother (amgsmootherregistry.c;
   built-in: amgsmootherjacobi.c, amgsmootherchebyshev.c) gets per level a PCGPUAMGSmootherLevel with the level's A, b, x,
   r and, computed here at every setup, dinv = 1/a_ii, dl1 = 1/(|a_ii| + sum_{j != i} |a_ij|), the Gershgorin bound
   of D^-1 A and, for those that ask (needs_lambda), lambda_l = min(1.1 x the largest Lanczos Ritz value on
   S sgn(D) A S, Gershgorin bound) >= lambda_max(D^-1 A_l) (amgsmootherlambda.c).
*/
#include <gpupc/amgcycle.h>
#include <gpupc/matgpu.h>
#include <gpupc/threads.h>

/* the most threads of the scaling loop (one rank) */
#define GPUPC_SMOOTHER_MAX_THREADS 256

/* the entry of dinv of row i (global) and that of dl1 (*dl1) from its diagonal and the sum of the absolute off-diagonal
   values (GPUPCAMGRowScaling, which the kernel tables' scaling uses too), and the row's Gershgorin radius of D^-1 A
   into *gersh; the first row with a zero diagonal goes to *zero, the first with Inf or NaN to *inf (reported by the
   caller, on every rank) */
static inline PetscScalar Scaling(PetscScalar dii, PetscScalar l1, PetscInt i, PetscInt *zero, PetscInt *inf, PetscReal *gersh, PetscScalar *dl1)
{
  int         z, f;
  PetscScalar w = GPUPCAMGRowScaling(dii, l1, gersh, dl1, &z, &f);

  if (z && *zero < 0) *zero = i;
  if (f && *inf < 0) *inf = i;
  return w;
}

/* the smoother of level l: the level's scalings and eigenvalue data, then the smoother's own setup */
PetscErrorCode GPUPCAMGSmootherSetUp(GPUPCAMGDevice *D, PetscInt l)
{
  GPUPCAMGDeviceLevel        *L = &D->levels[l];
  PCGPUAMGSmootherLevel      *S = &L->sm;
  const GPUPCAMGCycleOptions *o = &D->opts;
  PetscScalar                *w, *wl1;
  PetscInt                    rstart, rend, bad[2] = {-1, -1}, gbad[2]; /* first local row with a zero diagonal, with Inf or NaN */
  PetscBool                   seq;
  PetscInt                    tbad[2 * GPUPC_SMOOTHER_MAX_THREADS];
  PetscReal                   tgersh[GPUPC_SMOOTHER_MAX_THREADS], gersh = 0.0;

  PetscFunctionBegin;
  PetscCall(MatGetOwnershipRange(L->A, &rstart, &rend));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)L->A, &seq, MATSEQAIJ, MATSEQSEGCSR, ""));
  PetscCall(GPUPCAMGSmootherDestroy(D, l)); /* a new setup (new values): the smoother's data of the last one */
  S->A            = L->A;
  S->level        = l;
  S->b            = L->b;
  S->x            = L->x;
  S->r            = L->r;
  S->weight       = GPUPCAMGCycleWeight(o);
  S->cheby_degree = o->cheby_degree;
  S->poly_degree  = o->poly_degree;
  S->cycle        = D;
  S->bytes        = 0;
  if (!S->dinv) PetscCall(VecDuplicate(L->x, &S->dinv));
  if (!S->dl1) PetscCall(VecDuplicate(L->x, &S->dl1));
  if (L->dcsr) { /* the device setup's CSR of the level (one rank): the scalings on the device, nothing through the host */
    PetscCall(VecGPUGetDeviceArrayWrite(S->dinv, &w));
    PetscCall(VecGPUGetDeviceArrayWrite(S->dl1, &wl1));
    PetscCall(D->k->scaling(L->dcsr->m, L->dcsr->i, L->dcsr->j, L->dcsr->a, w, wl1, &gersh, bad));
    PetscCall(VecGPURestoreDeviceArrayWrite(S->dl1, &wl1));
    PetscCall(VecGPURestoreDeviceArrayWrite(S->dinv, &w));
  } else if (L->dblocks) { /* several ranks, A a shell over its device blocks: the scalings of the rows [d | o] (the
                              ghosts as columns d.n + g, never equal to a local row, so the l1 sums take them and the
                              diagonal is the diagonal block's), merged on the device for the scaling kernel */
    const GPUPCDevMPIBlocks  *B = L->dblocks;
    const GPUPCSparseKernels *sk;
    GPUPCDevCSR               X;

    PetscCall(GPUPCGetSparseKernels(&sk));
    PetscCall(GPUPCDevCSRCreate(B->d.m, B->d.n + B->nghost, B->d.nnz + B->o.nnz, PETSC_TRUE, &X));
    PetscCall(sk->merge(&B->d, NULL, 0, &B->o, NULL, B->d.n, &X));
    PetscCall(VecGPUGetDeviceArrayWrite(S->dinv, &w));
    PetscCall(VecGPUGetDeviceArrayWrite(S->dl1, &wl1));
    PetscCall(D->k->scaling(X.m, X.i, X.j, X.a, w, wl1, &gersh, bad));
    PetscCall(VecGPURestoreDeviceArrayWrite(S->dl1, &wl1));
    PetscCall(VecGPURestoreDeviceArrayWrite(S->dinv, &w));
    PetscCall(GPUPCDevCSRDestroy(&X));
    for (PetscInt q = 0; q < 2; q++) /* the global row for the message */
      if (bad[q] >= 0) bad[q] += rstart;
  } else {
    PetscCall(VecGetArrayWrite(S->dinv, &w));
    PetscCall(VecGetArrayWrite(S->dl1, &wl1));
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
          w[i] = Scaling(dii, l1, i, &b0, &b1, &g, &wl1[i]);
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
        w[i - rstart] = Scaling(dii, l1, i, &bad[0], &bad[1], &gersh, &wl1[i - rstart]);
      }
    }
    PetscCall(VecRestoreArrayWrite(S->dl1, &wl1));
    PetscCall(VecRestoreArrayWrite(S->dinv, &w));
  }
  PetscCall(MPIU_Allreduce(bad, gbad, 2, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)L->A)));
  PetscCheck(gbad[0] < 0, PetscObjectComm((PetscObject)L->A), PETSC_ERR_ARG_WRONG, "PC gpuamg: row %" PetscInt_FMT " of level %" PetscInt_FMT " has a zero diagonal entry; the smoothers divide by it (AMG needs a nonzero diagonal, e.g. an SPD matrix)", gbad[0], l);
  PetscCheck(gbad[1] < 0, PetscObjectComm((PetscObject)L->A), PETSC_ERR_FP, "PC gpuamg: row %" PetscInt_FMT " of level %" PetscInt_FMT " holds Inf or NaN", gbad[1], l);
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &gersh, 1, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)L->A)));
  S->gersh  = gersh;
  S->ritz   = 0;
  S->lambda = 0;
  S->omega  = 0;
  if (D->smoother.needs_lambda) PetscCall(GPUPCAMGSmootherLambda(D->k, L->A, S->dinv, l, S->gersh, &S->ritz, &S->lambda));
  PetscCall((*D->smoother.setup)(S));
  S->bytes += 2 * sizeof(PetscScalar) * (size_t)L->n; /* dinv, dl1 */
  PetscFunctionReturn(0);
}

/* frees the smoother's data of level l (and its scalings when the device hierarchy goes) */
PetscErrorCode GPUPCAMGSmootherDestroy(GPUPCAMGDevice *D, PetscInt l)
{
  PCGPUAMGSmootherLevel *S = &D->levels[l].sm;

  PetscFunctionBegin;
  if (S->data && D->smoother.destroy) PetscCall((*D->smoother.destroy)(S));
  S->data = NULL;
  PetscFunctionReturn(0);
}

/*@C
   PCGPUAMGSmootherMult - y = A x (or A^T x) on a smoother's level, counted in the bytes of the cycle

   Collective on the level's matrix

   Level: advanced

.seealso: PCGPUAMGSmootherRegister(), PCGPUAMGSmootherLevel
@*/
PetscErrorCode PCGPUAMGSmootherMult(PCGPUAMGSmootherLevel *S, PetscBool transpose, Vec x, Vec y)
{
  PetscFunctionBegin;
  if (S->cycle) PetscCall(GPUPCAMGCountProduct((GPUPCAMGDevice *)S->cycle, S->A, PETSC_FALSE));
  if (transpose) PetscCall(MatMultTranspose(S->A, x, y));
  else PetscCall(MatMult(S->A, x, y));
  PetscFunctionReturn(0);
}

/* while the cycle counts its bytes, add b */
PetscErrorCode GPUPCAMGSmootherCountBytes(PCGPUAMGSmootherLevel *S, PetscReal b)
{
  PetscFunctionBegin;
  if (S->cycle) GPUPCAMGCountBytes((GPUPCAMGDevice *)S->cycle, b);
  PetscFunctionReturn(0);
}

/* the cycle's kernel table (for the built-in smoothers) */
const GPUPCAMGKernels *GPUPCAMGSmootherKernels(PCGPUAMGSmootherLevel *S)
{
  return ((GPUPCAMGDevice *)S->cycle)->k;
}

/* GPUPCAMGSmooth - sweeps of the smoother on level l, on A (or A^T); zero: the iterate starts at 0 (it is not read).
   With no sweep and a zero iterate, x = 0. */
PetscErrorCode GPUPCAMGSmooth(GPUPCAMGDevice *D, PetscInt l, PetscBool transpose, PetscInt sweeps, PetscBool zero)
{
  GPUPCAMGDeviceLevel *L = &D->levels[l];

  PetscFunctionBegin;
  if (sweeps == 0) {
    if (zero) PetscCall(VecSet(L->x, 0.0));
    PetscFunctionReturn(0);
  }
  PetscCheck(!transpose || D->smoother.transpose, PetscObjectComm((PetscObject)L->A), PETSC_ERR_SUP, "PC gpuamg: the smoother %s cannot apply its transpose (PCApplyTranspose, KSPBICG); choose another with -pc_gpuamg_smoother", D->opts.smoother);
  PetscCall(PetscLogEventBegin(PC_GPUAMG_Smooth, 0, 0, 0, 0));
  PetscCall((*D->smoother.apply)(&L->sm, transpose, sweeps, zero));
  PetscCall(PetscLogEventEnd(PC_GPUAMG_Smooth, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

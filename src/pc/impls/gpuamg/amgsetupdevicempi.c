/*
   The device setup of PC gpuamg on several ranks (gpupc/amgdevacross.h): the classical hierarchy (pmis or hmis, direct,
   standard or ext+i, bs 1, no aggressive levels: GPUPCAMGSetupWhere() sends the rest to the host setup) built level by
   level with each level held as each rank's device blocks (GPUPCDevMPIBlocks):

     level 0's blocks from the operator (its host blocks copied up as they are), then per level the local part with
     ghosts (GPUPCAMGDevLocalGetGhost), the strength graph across ranks (GPUPCAMGDevStrengthAcross), the C/F splitting
     (GPUPCAMGDevCoarsenAcross), the prolongator's blocks (GPUPCAMGDevInterpolateAcross), the coarse points given to
     fewer ranks where the host setup gives them (GPUPCAMGAgglomerateMoves decides; the rare move goes through a host
     MPIAIJ of P, GPUPCAMGAgglomerate), and the Galerkin product on the blocks (GPUPCAMGGalerkinMPIBlocks).

   The stopping rules are the host setup's (GPUPCAMGHierarchyBuild: max levels, max coarse, max ratio, the last level's
   dense limit), and so is its agglomeration, so both setups give the same hierarchy: the same splittings and P (the
   across functions are the host references' twins), the same coarse levels (the same product on the same blocks).
   The last level becomes a host MPIAIJ (the cycle gathers and inverts it densely); the other levels do where host
   copies are asked for (opts->host_levels, -pc_gpuamg_keep_host_levels); the cycle lays its levels out from the
   blocks kept here (GPUPCAMGDevHierarchyGetLevelMPI). SAME_NONZERO_PATTERN reruns the numeric Galerkin products only
   (GPUPCAMGHierarchyRecomputeDeviceMPI).
*/
#include <gpupc/amgdevacross.h>
#include <gpupc/matgpu.h>
#include <petsctime.h>

struct _n_GPUPCAMGDevMPI {
  PetscInt           cap;     /* entries of the arrays (the most levels) */
  PetscInt           nlevels; /* levels made */
  GPUPCDevMPIBlocks *A;       /* A[0]: the operator's blocks; A[l+1] = P[l]^T A[l] P[l] */
  GPUPCDevMPIBlocks *P;       /* P[l], l < nlevels - 1 */
  GPUPCAMGGalMPI    *gal;     /* what each Galerkin product keeps for a numeric re-run */
  PetscObjectId      a0id;    /* the operator the blocks of level 0 were copied from ... */
  PetscObjectState   a0state; /* ... and its nonzero state then */
};

/* frees the levels across ranks (GPUPCAMGDevHierarchyFree calls it) */
PetscErrorCode GPUPCAMGDevMPIFree(GPUPCAMGDevMPI *Mp)
{
  GPUPCAMGDevMPI M = *Mp;

  PetscFunctionBegin;
  if (!M) PetscFunctionReturn(0);
  for (PetscInt l = 0; l < M->cap; l++) { /* every entry: after an error, a level may be partly made */
    PetscCall(GPUPCDevMPIBlocksDestroy(&M->A[l]));
    PetscCall(GPUPCDevMPIBlocksDestroy(&M->P[l]));
    PetscCall(GPUPCAMGGalMPIDestroy(&M->gal[l]));
  }
  PetscCall(PetscFree3(M->A, M->P, M->gal));
  PetscCall(PetscFree(*Mp));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDevHierarchyGetLevelMPI - the device blocks the device setup across ranks holds for level l: the level
   matrix and its prolongator

   Not Collective

   Input Parameters:
+  H - the hierarchy
-  l - the level

   Output Parameters:
+  A - the level matrix's blocks (NULL when H was not built by the device setup across ranks)
-  P - the prolongator's blocks (NULL on the last level, or likewise)

   Notes:
   A[0] holds the operator's values of the last setup or recompute. The blocks are the hierarchy's: do not free them.

   Level: developer

.seealso: GPUPCAMGHierarchyBuildDeviceMPI(), GPUPCAMGDevHierarchyGetLevel()
@*/
PetscErrorCode GPUPCAMGDevHierarchyGetLevelMPI(const GPUPCAMGHierarchy *H, PetscInt l, const GPUPCDevMPIBlocks **A, const GPUPCDevMPIBlocks **P)
{
  GPUPCAMGDevMPI M;

  PetscFunctionBegin;
  *A = *P = NULL;
  if (!H->ondevice) PetscFunctionReturn(0);
  PetscCall(GPUPCAMGDevHierarchyGetMPI(H, &M));
  if (!M || l < 0 || l >= M->nlevels) PetscFunctionReturn(0);
  *A = &M->A[l];
  if (l + 1 < M->nlevels) *P = &M->P[l];
  PetscFunctionReturn(0);
}

/* the identity of the operator's pattern: the matrix and its nonzero state (PETSc raises it on any change) */
static PetscErrorCode OperatorPattern(Mat A, PetscObjectId *id, PetscObjectState *state)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectGetId((PetscObject)A, id));
  PetscCall(MatGetNonzeroState(A, state));
  PetscFunctionReturn(0);
}

/* a zero on the diagonal of a level makes AMG meaningless: the first such row (global), on every rank */
static PetscErrorCode CheckDiagonal(const GPUPCAMGSetupKernels *k, const GPUPCSparseKernels *sk, const GPUPCDevMPIBlocks *A, PetscInt l)
{
  PetscScalar *d;
  PetscInt     bad, gbad;

  PetscFunctionBegin;
  PetscCall(GPUPCAMGDevAlloc(A->d.m, &d));
  PetscCall(sk->diagonal(&A->d, d));
  PetscCall(k->diag_zero(A->d.m, d, &bad));
  PetscCall(GPUPCFree(d));
  if (bad >= 0) bad += A->rstart;
  PetscCallMPI(MPI_Allreduce(&bad, &gbad, 1, MPIU_INT, MPI_MAX, A->comm));
  PetscCheck(gbad < 0, A->comm, PETSC_ERR_ARG_WRONG, "PC gpuamg: row %" PetscInt_FMT " of the level %" PetscInt_FMT " matrix has a zero diagonal; AMG needs a nonzero diagonal (an SPD-like matrix); reorder or use another PC", gbad, l);
  PetscFunctionReturn(0);
}

/* the prolongator of a level across ranks: local part with ghosts, strength, splitting, interpolation (collective) */
static PetscErrorCode Prolongator(const GPUPCDevMPIBlocks *A, const GPUPCAMGSetupOptions *opts, GPUPCDevMPIBlocks *P, PetscLogDouble *times)
{
  GPUPCAMGDevLocal L;
  GPUPCAMGDevGraph S;
  PetscInt        *cf;
  PetscLogDouble   t0 = 0, t1 = 0, t2 = 0;

  PetscFunctionBegin;
  PetscCall(GPUPCAMGDevNow(&t0));
  PetscCall(PetscLogEventBegin(GPUPCAMG_Local, 0, 0, 0, 0));
  PetscCall(GPUPCAMGDevLocalGetGhost(A, &L));
  PetscCall(PetscLogEventEnd(GPUPCAMG_Local, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(GPUPCAMG_Strength, 0, 0, 0, 0));
  PetscCall(GPUPCAMGDevStrengthAcross(&L, opts->strong_threshold, &S));
  PetscCall(PetscLogEventEnd(GPUPCAMG_Strength, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(GPUPCAMG_Coarsen, 0, 0, 0, 0));
  PetscCall(GPUPCAMGDevAlloc(L.nx, &cf));
  PetscCall(GPUPCAMGDevCoarsenAcross(&L, &S, opts->coarsen, cf));
  PetscCall(PetscLogEventEnd(GPUPCAMG_Coarsen, 0, 0, 0, 0));
  PetscCall(GPUPCAMGDevNow(&t1));
  PetscCall(PetscLogEventBegin(GPUPCAMG_Interp, 0, 0, 0, 0));
  PetscCall(GPUPCAMGDevInterpolateAcross(&L, &S, cf, opts->interp, opts->trunc_max, opts->trunc_factor, P));
  PetscCall(PetscLogEventEnd(GPUPCAMG_Interp, 0, 0, 0, 0));
  PetscCall(GPUPCFree(cf));
  PetscCall(GPUPCAMGDevStrengthFree(&S));
  PetscCall(GPUPCAMGDevLocalFree(&L));
  PetscCall(GPUPCAMGDevNow(&t2));
  times[0] += t1 - t0;
  times[1] += t2 - t1;
  PetscFunctionReturn(0);
}

/* the host setup's agglomeration of P's coarse points onto fewer ranks; P's blocks replaced when they move (through a
   host MPIAIJ: it happens on a coarse level at most a few times) */
static PetscErrorCode Agglomerate(PetscInt limit, GPUPCDevMPIBlocks *P, PetscMPIInt *ranks)
{
  PetscBool moves;
  Mat       Pm;

  PetscFunctionBegin;
  PetscCall(GPUPCAMGAgglomerateMoves(P->comm, limit, P->N, P->d.n, &moves, ranks));
  if (!moves) PetscFunctionReturn(0);
  PetscCall(GPUPCDevMPIBlocksToMat(P, &Pm));
  PetscCall(GPUPCAMGAgglomerate(limit, &Pm, ranks));
  PetscCall(GPUPCDevMPIBlocksDestroy(P));
  PetscCall(GPUPCDevMPIBlocksFromMat(Pm, P));
  PetscCall(MatDestroy(&Pm));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGHierarchyBuildDeviceMPI - builds PC gpuamg's classical hierarchy with the device setup on several ranks,
   each level held as each rank's device blocks

   Collective on A

   Input Parameters:
+  A    - the operator: MPIAIJ or a GPUPC type derived from it, its blocks on the host, nonzero diagonal
-  opts - classical, pmis or hmis, direct, standard or ext+i, no aggressive levels, bs 1 (GPUPCAMGSetupWhere() says
          whether they are)

   Output Parameter:
.  H - the hierarchy (H->ondevice, H->ranks, H->devpeak set); the blocks of every level and P
       (GPUPCAMGDevHierarchyGetLevelMPI()) and what the Galerkin products keep for GPUPCAMGHierarchyRecomputeDeviceMPI()

   Notes:
   The stopping rules and the agglomeration are the host setup's (GPUPCAMGHierarchyBuild()). H->A holds the operator,
   the last level as a host MPIAIJ, and the other levels (H->P the prolongators) where host copies are asked for.
   After an error, GPUPCAMGHierarchyDestroy() frees what was built.

   Level: developer

.seealso: GPUPCAMGHierarchyBuild(), GPUPCAMGHierarchyBuildDevice(), GPUPCAMGSetupWhere()
@*/
PetscErrorCode GPUPCAMGHierarchyBuildDeviceMPI(Mat A, const GPUPCAMGSetupOptions *opts, GPUPCAMGHierarchy *H)
{
  MPI_Comm                    comm = PetscObjectComm((PetscObject)A);
  const GPUPCAMGSetupKernels *k;
  const GPUPCSparseKernels   *sk;
  GPUPCAMGDevMPI              M;
  PetscMPIInt                 size;
  PetscLogDouble              t0 = 0, t1 = 0, t2 = 0;
  size_t                      base, peak;
  const PetscBool             host = opts->host_levels; /* host copies of every level and P */
  char                        stop[400];                /* why coarsening stopped (for the error on a last level too big) */

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(GPUPCAMGRegisterSetupEvents());
  {
    GPUPCAMGSetupOptions  o = *opts;
    PCGPUAMGSetupLocation where;
    const char           *why;
    o.location     = PC_GPUAMG_SETUP_DEVICE;
    o.location_set = PETSC_TRUE;
    PetscCall(GPUPCAMGSetupWhere(A, &o, &where, &why));
    PetscCheck(size > 1 && !why, comm, PETSC_ERR_SUP, "the device setup across ranks of PC gpuamg does not cover %s; use -pc_gpuamg_setup host", size > 1 ? why : "one rank (GPUPCAMGHierarchyBuildDevice)");
  }
  PetscCall(GPUPCGetAMGSetupKernels(&k));
  PetscCall(GPUPCGetSparseKernels(&sk));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&base));
  PetscCall(PetscGPUPCDeviceMemoryResetPeak());
  PetscCall(PetscLogEventBegin(GPUPCAMG_Setup, A, 0, 0, 0));
  PetscCall(GPUPCAMGDevNow(&t0));
  PetscCall(PetscCalloc3(opts->max_levels, &H->A, opts->max_levels, &H->P, opts->max_levels, &H->R));
  PetscCall(PetscMalloc1(opts->max_levels, &H->ranks));
  H->ranks[0] = size;
  PetscCall(PetscNew(&M));
  PetscCall(GPUPCAMGDevHierarchySetMPI(H, M)); /* H owns M from here on */
  PetscCall(PetscCalloc3(opts->max_levels, &M->A, opts->max_levels, &M->P, opts->max_levels, &M->gal));
  M->cap = opts->max_levels;
  PetscCall(PetscObjectReference((PetscObject)A));
  H->A[0]       = A;
  H->nlevels    = 1;
  H->threads    = opts->threads;
  H->ondevice   = PETSC_TRUE;
  H->hostlevels = host;
  PetscCall(GPUPCDevMPIBlocksFromMat(A, &M->A[0]));
  PetscCall(OperatorPattern(A, &M->a0id, &M->a0state));
  M->nlevels = 1;
  PetscCall(PetscSNPrintf(stop, sizeof(stop), "it reached -pc_gpuamg_max_levels %" PetscInt_FMT, opts->max_levels));
  for (PetscInt l = 0; l + 1 < opts->max_levels; l++) {
    const PetscInt    N = M->A[l].M;
    PetscInt          Nc;
    GPUPCDevMPIBlocks P;
    PetscLogDouble    t00 = H->times[0], t01 = H->times[1];

    if (N <= opts->max_coarse) {
      PetscCall(PetscSNPrintf(stop, sizeof(stop), "it reached -pc_gpuamg_max_coarse %" PetscInt_FMT, opts->max_coarse));
      break;
    }
    PetscCall(CheckDiagonal(k, sk, &M->A[l], l));
    PetscCall(PetscMemzero(&P, sizeof(P)));
    PetscCall(Prolongator(&M->A[l], opts, &P, H->times));
    Nc = P.N;
    if (Nc == 0 || Nc >= N || (PetscReal)Nc > opts->max_ratio * (PetscReal)N) {
      if (Nc == 0) PetscCall(PetscSNPrintf(stop, sizeof(stop), "level %" PetscInt_FMT " selected no coarse points", l));
      else PetscCall(PetscSNPrintf(stop, sizeof(stop), "coarsening stalled on level %" PetscInt_FMT ": %" PetscInt_FMT " of its %" PetscInt_FMT " rows would remain (more than -pc_gpuamg_max_ratio %g)", l, Nc, N, (double)opts->max_ratio));
      PetscCall(GPUPCDevMPIBlocksDestroy(&P));
      break;
    }
    M->P[l] = P; /* owned by M from here on */
    PetscCall(Agglomerate(GPUPCAMGCoarseEqLimit(opts), &M->P[l], &H->ranks[l + 1]));
    PetscCall(GPUPCAMGDevNow(&t1));
    PetscCall(PetscLogEventBegin(GPUPCAMG_Galerkin, A, 0, 0, 0));
    PetscCall(GPUPCAMGGalerkinMPIBlocks(&M->A[l], &M->P[l], MAT_INITIAL_MATRIX, &M->gal[l], &M->A[l + 1]));
    PetscCall(PetscLogEventEnd(GPUPCAMG_Galerkin, A, 0, 0, 0));
    PetscCall(GPUPCAMGDevNow(&t2));
    H->times[2] += t2 - t1;
    M->nlevels = l + 2;
    H->nacross++;
    if (host) {
      PetscCall(GPUPCDevMPIBlocksToMat(&M->A[l + 1], &H->A[l + 1]));
      PetscCall(GPUPCDevMPIBlocksToMat(&M->P[l], &H->P[l]));
    }
    H->nlevels = l + 2;
    PetscCall(PetscInfo(A, "device setup across ranks, level %" PetscInt_FMT ": %" PetscInt_FMT " rows; P %" PetscInt_FMT " columns on %d ranks; strength+coarsening %.4g s, interpolation %.4g s, Galerkin %.4g s\n", l, N, Nc, (int)H->ranks[l + 1], H->times[0] - t00, H->times[1] - t01, t2 - t1));
  }
  /* the last level comes to the host in any case: the cycle gathers it and inverts it densely */
  if (!H->A[H->nlevels - 1]) PetscCall(GPUPCDevMPIBlocksToMat(&M->A[H->nlevels - 1], &H->A[H->nlevels - 1]));
  {
    const PetscInt Nl = M->A[H->nlevels - 1].M;
    PetscCheck(Nl <= GPUPC_AMG_DENSE_MAX, comm, PETSC_ERR_SUP, "PC gpuamg: the last level has %" PetscInt_FMT " rows, more than the %d that its dense inverse takes; coarsening stopped after %" PetscInt_FMT " levels because %s", Nl, GPUPC_AMG_DENSE_MAX, H->nlevels, stop);
  }
  PetscCall(GPUPCAMGDevNow(&t1));
  H->times[3] = t1 - t0;
  PetscCall(PetscGPUPCDeviceMemoryPeak(&peak));
  H->devpeak = peak > base ? peak - base : 0;
  PetscCall(PetscLogEventEnd(GPUPCAMG_Setup, A, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGHierarchyRecomputeDeviceMPI - new values of the operator on the same nonzero pattern: the Galerkin products
   of a hierarchy built by the device setup across ranks recomputed (numeric parts only), its host copies refreshed

   Collective on A

   Input Parameters:
+  A - the operator with new values (same layout and pattern)
-  H - a hierarchy from GPUPCAMGHierarchyBuildDeviceMPI()

   Level: developer

.seealso: GPUPCAMGHierarchyBuildDeviceMPI(), GPUPCAMGHierarchyRecompute()
@*/
PetscErrorCode GPUPCAMGHierarchyRecomputeDeviceMPI(Mat A, GPUPCAMGHierarchy *H)
{
  GPUPCAMGDevMPI    M;
  GPUPCDevMPIBlocks A0;
  PetscObjectId     id;
  PetscObjectState  state;
  PetscLogDouble    t0 = 0, t1 = 0;

  PetscFunctionBegin;
  PetscCall(GPUPCAMGDevHierarchyGetMPI(H, &M));
  PetscCheck(H->ondevice && M, PetscObjectComm((PetscObject)A), PETSC_ERR_ORDER, "the AMG hierarchy was not built by the device setup across ranks");
  PetscCall(GPUPCAMGDevNow(&t0));
  PetscCall(OperatorPattern(A, &id, &state));
  if (id == M->a0id && state == M->a0state) PetscCall(GPUPCAMGDevMPIBlocksValuesFromMat(A, "operator", &M->A[0])); /* the values only */
  else {                                                                                                           /* another matrix, or a pattern PETSc may have changed: a new copy, whose sizes must match */
    PetscCall(GPUPCDevMPIBlocksFromMat(A, &A0));
    if (A0.d.m != M->A[0].d.m || A0.d.nnz != M->A[0].d.nnz || A0.o.nnz != M->A[0].o.nnz || A0.nghost != M->A[0].nghost) {
      const PetscInt m = A0.d.m, nnz = A0.d.nnz + A0.o.nnz;
      PetscCall(GPUPCDevMPIBlocksDestroy(&A0));
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "SAME_NONZERO_PATTERN, but the operator has %" PetscInt_FMT " local rows and %" PetscInt_FMT " local entries where the hierarchy was built on %" PetscInt_FMT " and %" PetscInt_FMT, m, nnz, M->A[0].d.m, M->A[0].d.nnz + M->A[0].o.nnz);
    }
    PetscCall(GPUPCDevMPIBlocksDestroy(&M->A[0]));
    M->A[0]    = A0;
    M->a0id    = id;
    M->a0state = state;
  }
  if (A != H->A[0]) {
    PetscCall(PetscObjectReference((PetscObject)A));
    PetscCall(MatDestroy(&H->A[0]));
    H->A[0] = A;
  }
  PetscCall(PetscLogEventBegin(GPUPCAMG_Galerkin, A, 0, 0, 0));
  for (PetscInt l = 0; l + 1 < M->nlevels; l++) PetscCall(GPUPCAMGGalerkinMPIBlocks(&M->A[l], &M->P[l], MAT_REUSE_MATRIX, &M->gal[l], &M->A[l + 1]));
  PetscCall(PetscLogEventEnd(GPUPCAMG_Galerkin, A, 0, 0, 0));
  for (PetscInt l = 0; l + 1 < M->nlevels; l++)
    if (H->A[l + 1]) PetscCall(GPUPCAMGDevMPIBlocksValuesToMat(&M->A[l + 1], H->A[l + 1])); /* the host copies that exist */
  PetscCall(GPUPCAMGDevNow(&t1));
  H->times[0] = H->times[1] = 0.0;
  H->times[2] = H->times[3] = t1 - t0;
  PetscFunctionReturn(0);
}

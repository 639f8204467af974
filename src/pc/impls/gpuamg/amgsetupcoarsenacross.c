/*
   C/F splitting across ranks for PC gpuamg's host setup (gpupc/amgsetup.h), on a local part with ghosts
   (GPUPCAMGLocalGetGhost) and its strength graph (rows: owned points and garray ghosts; columns: every local point).

   pmis: the measure of a point is the number of points, on any rank, that depend on it strongly (each rank counts the
     dependences of its own rows, the counts of ghosts are summed onto their owners through the local part's PetscSF)
     plus the hash of its GLOBAL number, and ties are broken by the global number, so the splitting is the same on
     any number of ranks (and on one rank the same as GPUPCAMGCoarsen()'s). A round: the owners' states go to the
     ghosts; each rank marks every point (owned or ghost) beaten by an undecided owned row that depends on it, and
     the marks of ghosts are reduced onto their owners; an undecided point that no undecided strong neighbour (in S
     or S^T, on any rank) beats becomes C; the states go to the ghosts again and the undecided points that depend on
     a C point become F. A point that influences no point is F from the start.
   hmis: Ruge-Stueben's first pass on each rank's own rows (the strong couplings between owned points), which leaves
     every point C or F with a strong C point on its rank, except the points without strong couplings on their rank;
     those enter the PMIS rounds above with their global measures (the other points keep their states), so a point
     strongly coupled only to other ranks is decided with its neighbours there.
   Messages per round: one reduction and two broadcasts to the neighbour ranks, one allreduce (undecided points left).
*/
#include <gpupc/amgsetup.h>

static inline PetscBool BeatsG(const PetscReal *w, const PetscInt *g, PetscInt j, PetscInt i)
{
  return (PetscBool)(w[j] > w[i] || (w[j] == w[i] && g[j] > g[i]));
}

/* the owners' states (or any PetscInt per point) to the ghosts */
static PetscErrorCode ToGhosts(const GPUPCAMGLocal *L, MPI_Datatype type, void *data)
{
  size_t sz = type == MPIU_REAL ? sizeof(PetscReal) : sizeof(PetscInt);

  PetscFunctionBegin;
  PetscCall(PetscSFBcastBegin(L->sf, type, data, (char *)data + sz * (size_t)L->n, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(L->sf, type, data, (char *)data + sz * (size_t)L->n, MPI_REPLACE));
  PetscFunctionReturn(0);
}

/* the PMIS rounds on the points left GPUPC_AMG_U in cf (the others keep their states) */
static PetscErrorCode PMISRounds(const GPUPCAMGLocal *L, const GPUPCAMGStrength *S, PetscInt threads, PetscInt *cf)
{
  MPI_Comm   comm = PetscObjectComm((PetscObject)L->sf);
  PetscInt   n = L->n, nx = L->nx, left = 0, *cnt, *beaten, rounds = 0;
  PetscReal *w;
  char      *newc;

  PetscFunctionBegin;
  PetscCall(PetscMalloc4(nx, &w, nx, &cnt, nx, &beaten, n, &newc));
  if (n < 16384) threads = 1; /* a small level: the sweeps' forks and joins would cost more than they save */
#pragma omp parallel for num_threads(threads) schedule(static)
  for (PetscInt p = 0; p < nx; p++) {
    PetscInt c = 0; /* the strong dependences on p from the owned rows (S^T lists are ascending: owned rows first) */
    for (PetscInt e = S->ti[p]; e < S->ti[p + 1] && S->tj[e] < n; e++) c++;
    cnt[p] = c;
  }
  PetscCall(PetscSFReduceBegin(L->sf, MPIU_INT, cnt + n, cnt, MPI_SUM));
  PetscCall(PetscSFReduceEnd(L->sf, MPIU_INT, cnt + n, cnt, MPI_SUM));
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ \
                                                                         : left)
  for (PetscInt i = 0; i < n; i++) {
    w[i] = (PetscReal)cnt[i] + GPUPCAMGRandom(L->gidx[i]);
    if (cf[i] == GPUPC_AMG_U && cnt[i] == 0) cf[i] = GPUPC_AMG_F; /* influences no point: F */
    if (cf[i] == GPUPC_AMG_U) left++;
  }
  PetscCall(ToGhosts(L, MPIU_REAL, w));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &left, 1, MPIU_INT, MPI_SUM, comm));
  PetscCall(ToGhosts(L, MPIU_INT, cf));
  /* points that depend on a C point already there (hmis: the first pass's) are F */
#pragma omp parallel for num_threads(threads) schedule(static)
  for (PetscInt i = 0; i < n; i++) {
    if (cf[i] != GPUPC_AMG_U) continue;
    for (PetscInt e = S->i[i]; e < S->i[i + 1]; e++)
      if (cf[S->j[e]] == GPUPC_AMG_C) {
        cf[i] = GPUPC_AMG_F;
        break;
      }
  }
  while (left > 0) {
    PetscCall(ToGhosts(L, MPIU_INT, cf));
    /* beaten[p]: an undecided owned row that depends on p beats it */
#pragma omp parallel for num_threads(threads) schedule(static)
    for (PetscInt p = 0; p < nx; p++) {
      PetscInt b = 0;
      if (cf[p] == GPUPC_AMG_U)
        for (PetscInt e = S->ti[p]; e < S->ti[p + 1] && S->tj[e] < n && !b; e++)
          if (cf[S->tj[e]] == GPUPC_AMG_U && BeatsG(w, L->gidx, S->tj[e], p)) b = 1;
      beaten[p] = b;
    }
    PetscCall(PetscSFReduceBegin(L->sf, MPIU_INT, beaten + n, beaten, MPI_MAX));
    PetscCall(PetscSFReduceEnd(L->sf, MPIU_INT, beaten + n, beaten, MPI_MAX));
#pragma omp parallel for num_threads(threads) schedule(static)
    for (PetscInt i = 0; i < n; i++) {
      PetscBool max = (PetscBool)(cf[i] == GPUPC_AMG_U && !beaten[i]);
      for (PetscInt e = S->i[i]; e < S->i[i + 1] && max; e++)
        if (cf[S->j[e]] == GPUPC_AMG_U && BeatsG(w, L->gidx, S->j[e], i)) max = PETSC_FALSE;
      newc[i] = (char)max;
    }
#pragma omp parallel for num_threads(threads) schedule(static)
    for (PetscInt i = 0; i < n; i++)
      if (newc[i]) cf[i] = GPUPC_AMG_C;
    PetscCall(ToGhosts(L, MPIU_INT, cf));
    PetscCall(GPUPCAMGPMISMarkF(S, n, threads, newc, cf, &left));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &left, 1, MPIU_INT, MPI_SUM, comm));
    rounds++;
  }
  PetscCall(PetscInfo(NULL, "PMIS across ranks: %" PetscInt_FMT " rounds on %" PetscInt_FMT " global rows\n", rounds, L->N));
  PetscCall(PetscFree4(w, cnt, beaten, newc));
  PetscFunctionReturn(0);
}

/* hmis's first stage: Ruge-Stueben's first pass on the couplings between owned points; the points without such
   couplings are left undecided */
static PetscErrorCode FirstPassOwned(const GPUPCAMGLocal *L, const GPUPCAMGStrength *S, PetscInt threads, PetscInt *cf)
{
  GPUPCAMGStrength So;
  PetscInt         n = L->n;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&So, sizeof(So)));
  So.n = n;
  PetscCall(PetscMalloc1(n + 1, &So.i));
  So.i[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    PetscInt c = 0;
    for (PetscInt e = S->i[i]; e < S->i[i + 1]; e++) c += S->j[e] < n;
    So.i[i + 1] = So.i[i] + c;
  }
  PetscCall(PetscMalloc1(So.i[n], &So.j));
  for (PetscInt i = 0; i < n; i++) {
    PetscInt k = So.i[i];
    for (PetscInt e = S->i[i]; e < S->i[i + 1]; e++)
      if (S->j[e] < n) So.j[k++] = S->j[e];
  }
  PetscCall(GPUPCAMGStrengthTranspose(&So, threads));
  PetscCall(GPUPCAMGCoarsen(&So, PC_GPUAMG_COARSEN_HMIS, L->rstart, threads, cf));
  for (PetscInt i = 0; i < n; i++)
    if (So.i[i + 1] == So.i[i] && So.ti[i + 1] == So.ti[i]) cf[i] = GPUPC_AMG_U;
  PetscCall(GPUPCAMGStrengthFree(&So));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGCoarsenAcross - C/F splitting of the owned points across ranks: PMIS or HMIS with the states and measures
   of ghost points exchanged

   Collective on the local part's PetscSF

   Input Parameters:
+  L       - the local part with ghosts (GPUPCAMGLocalGetGhost())
.  S       - its classical strength graph with the transpose (GPUPCAMGStrengthClassical())
.  type    - PC_GPUAMG_COARSEN_PMIS or PC_GPUAMG_COARSEN_HMIS
-  threads - host threads

   Output Parameter:
.  cf - L->nx states, GPUPC_AMG_C or GPUPC_AMG_F: the owned points' and, from their owners, the ghosts'

   Notes:
   pmis gives the same splitting on any number of ranks; on one rank both give GPUPCAMGCoarsen()'s.

   Level: developer

.seealso: GPUPCAMGLocalGetGhost(), GPUPCAMGCoarsen(), GPUPCAMGInterpolateAcross()
@*/
PetscErrorCode GPUPCAMGCoarsenAcross(const GPUPCAMGLocal *L, const GPUPCAMGStrength *S, PCGPUAMGCoarsenType type, PetscInt threads, PetscInt *cf)
{
  PetscFunctionBegin;
  PetscCheck(L->sf && (L->gidx || L->nx == 0), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "the coarsening across ranks needs the local part with ghosts (GPUPCAMGLocalGetGhost())");
  PetscCheck(S->n == L->ne && PetscMax(S->nx, S->n) == L->nx && S->ti, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "the strength graph (%" PetscInt_FMT " rows, %" PetscInt_FMT " columns) is not that of the local part with ghosts (%" PetscInt_FMT " rows, %" PetscInt_FMT " points)", S->n, S->nx, L->ne, L->nx);
  threads = PetscMax(threads, 1);
  switch (type) {
  case PC_GPUAMG_COARSEN_PMIS:
    for (PetscInt i = 0; i < L->n; i++) cf[i] = GPUPC_AMG_U;
    break;
  case PC_GPUAMG_COARSEN_HMIS:
    PetscCall(FirstPassOwned(L, S, threads, cf));
    break;
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "the coarsening across ranks is pmis or hmis, not %s", PCGPUAMGCoarsenTypes[type]);
  }
  PetscCall(PMISRounds(L, S, threads, cf));
  PetscCall(ToGhosts(L, MPIU_INT, cf));
  PetscFunctionReturn(0);
}

/*
   The AMG hierarchy of PC gpuamg (gpupc/amg.h): level by level, a prolongator from the level matrix (classical:
   strength, C/F splitting, interpolation; aggregation: amgsetupagg.c), then the Galerkin product A_{l+1} = P^T A_l P
   (MatPtAP, SEQAIJ or MPIAIJ, a GPUPC type derived from them included), until a stopping rule holds.

   Parallel, classical pmis/hmis with direct, standard, ext+i or simple interpolation: coarsening across ranks
   (amgsetupghost.c, amgsetupcoarsenacross.c, GPUPCAMGInterpolateAcross()): the strength graph and the PMIS rounds include
   the couplings to other ranks, P reaches other ranks' C points (an off-diagonal block), and pmis splits alike on any
   number of ranks. Otherwise (rs, cljp, multipass, aggressive levels, systems, aggregation) each rank coarsens its
   own rows (the diagonal block), couplings to other ranks lumped into the diagonal so interpolation keeps row sums;
   P has entries in its diagonal block only (classical). On several ranks the Galerkin products are each rank's share
   on the sparse kernel table, the off-rank rows of P and the off-rank contributions exchanged (GPUPCAMGGalerkinMPI,
   amgsetupgalerkinmpi.c); MatPtAP with -pc_gpuamg_mpi_galerkin_ptap (the reference).
*/
#include <gpupc/amgsetup.h>
#include <gpupc/amgdevacross.h> /* GPUPCAMGHierarchyBuildDeviceMPI */
#include <gpupc/stage.h>
#include <petsctime.h>

PetscLogEvent GPUPCAMG_Setup, GPUPCAMG_Local, GPUPCAMG_PMat, GPUPCAMG_Strength, GPUPCAMG_Coarsen, GPUPCAMG_Interp, GPUPCAMG_Aggregate, GPUPCAMG_Tentative, GPUPCAMG_ProlSmooth, GPUPCAMG_Galerkin;

/*@C
   GPUPCAMGRegisterSetupEvents - registers the -log_view events of PC gpuamg's host setup (once)

   Not Collective

   Events: GPUAMGSetup (the whole hierarchy), GPUAMGLocal (the rank-local part of a level), GPUAMGPMat (a local P
   made a Mat), GPUAMGStrength, GPUAMGCoarsen, GPUAMGInterp (classical), GPUAMGAggregate,
   GPUAMGTentative, GPUAMGProlSmooth (aggregation), GPUAMGGalerkin (the products P^T A P), GPUAMGGalerkinMPI
   (inside it on several ranks: the per-rank products, GPUPCAMGGalerkinMPI()), and inside that its phases:
   GPUAMGGalMPIPlan (the factors' patterns: X, P_loc, P_oth, B), GPUAMGGalMPIVals (the factors' values),
   GPUAMGGalMPIProd (the transpose and the two SpGEMMs), GPUAMGGalMPIXPln (the exchange plan: counts and the triples'
   indices), GPUAMGGalMPIXchg (the triples' values exchanged), GPUAMGGalMPIAsm (the sums, C's blocks, C) and inside
   that GPUAMGGalMPIMat (C's host MPIAIJ made from the blocks, or its values written)

   Level: developer

.seealso: GPUPCAMGHierarchyBuild()
@*/
PetscErrorCode GPUPCAMGRegisterSetupEvents(void)
{
  static PetscBool done = PETSC_FALSE;

  PetscFunctionBegin;
  if (done) PetscFunctionReturn(0);
  done = PETSC_TRUE;
  PetscCall(PetscLogEventRegister("GPUAMGSetup", PC_CLASSID, &GPUPCAMG_Setup));
  PetscCall(PetscLogEventRegister("GPUAMGLocal", PC_CLASSID, &GPUPCAMG_Local));
  PetscCall(PetscLogEventRegister("GPUAMGPMat", PC_CLASSID, &GPUPCAMG_PMat));
  PetscCall(PetscLogEventRegister("GPUAMGStrength", PC_CLASSID, &GPUPCAMG_Strength));
  PetscCall(PetscLogEventRegister("GPUAMGCoarsen", PC_CLASSID, &GPUPCAMG_Coarsen));
  PetscCall(PetscLogEventRegister("GPUAMGInterp", PC_CLASSID, &GPUPCAMG_Interp));
  PetscCall(PetscLogEventRegister("GPUAMGAggregate", PC_CLASSID, &GPUPCAMG_Aggregate));
  PetscCall(PetscLogEventRegister("GPUAMGTentative", PC_CLASSID, &GPUPCAMG_Tentative));
  PetscCall(PetscLogEventRegister("GPUAMGProlSmooth", PC_CLASSID, &GPUPCAMG_ProlSmooth));
  PetscCall(PetscLogEventRegister("GPUAMGGalerkin", PC_CLASSID, &GPUPCAMG_Galerkin));
  PetscCall(PetscLogEventRegister("GPUAMGGalerkinMPI", PC_CLASSID, &GPUPCAMG_GalerkinMPI));
  PetscCall(PetscLogEventRegister("GPUAMGGalMPIPlan", PC_CLASSID, &GPUPCAMG_GalMPIPlan));
  PetscCall(PetscLogEventRegister("GPUAMGGalMPIVals", PC_CLASSID, &GPUPCAMG_GalMPIVals));
  PetscCall(PetscLogEventRegister("GPUAMGGalMPIProd", PC_CLASSID, &GPUPCAMG_GalMPIProd));
  PetscCall(PetscLogEventRegister("GPUAMGGalMPIXPln", PC_CLASSID, &GPUPCAMG_GalMPIXPlan));
  PetscCall(PetscLogEventRegister("GPUAMGGalMPIXchg", PC_CLASSID, &GPUPCAMG_GalMPIXchg));
  PetscCall(PetscLogEventRegister("GPUAMGGalMPIAsm", PC_CLASSID, &GPUPCAMG_GalMPIAsm));
  PetscCall(PetscLogEventRegister("GPUAMGGalMPIMat", PC_CLASSID, &GPUPCAMG_GalMPIMat));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGSetupOptionsDefault - the defaults of PC gpuamg's host setup

   Not Collective

   Output Parameter:
.  opts - classical, pmis, ext+i, theta 0.25, agg eps 0.05, no aggressive levels, at most 4 entries per interpolation
          row, no relative truncation, one prolongator smoothing step, 25 levels, coarsest at most 100 rows, ratio 0.9,
          threads from GPUPCDefaultHostThreads(), coarsening across ranks where several ranks share the matrix (pmis,
          hmis), no coordinates, the default ext+i tuning of the device setup (GPUPCAMGInterpTuningDefault()) and
          its hmis subdomains of GPUPC_AMG_HMIS_SUBDOMAIN rows,
          the per-rank Galerkin products on several ranks (not MatPtAP)

   Level: developer

.seealso: GPUPCAMGHierarchyBuild()
@*/
PetscErrorCode GPUPCAMGSetupOptionsDefault(GPUPCAMGSetupOptions *opts)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(opts, sizeof(*opts)));
  opts->type              = PC_GPUAMG_CLASSICAL;
  opts->coarsen           = PC_GPUAMG_COARSEN_PMIS;
  opts->interp            = PC_GPUAMG_INTERP_EXTENDED_I;
  opts->strong_threshold  = 0.25;
  opts->agg_priority      = PC_GPUAMG_AGG_PRIORITY_HASH;
  opts->agg_threshold     = 0.05; /* GAMG's 0 ignores strength: 72 against 7 CG iterations on aniso2d, 89 against 23 on randcoef3d */
  opts->aggressive_levels = 0;
  opts->trunc_max         = 4;
  opts->trunc_factor      = 0.0;
  opts->trunc_rescale     = PC_GPUAMG_TRUNC_RESCALE_SUM;
  opts->agg_smooths       = 1;
  opts->max_levels        = 25;
  opts->max_coarse        = 100;
  opts->max_ratio         = 0.9;
  PetscCall(GPUPCDefaultHostThreads(&opts->threads));
  opts->across          = -1;
  opts->coarse_eq_limit = -1; /* GPUPCAMGCoarseEqLimit(): 10000 with pmis, else 0 */
  opts->cdim            = 0;
  opts->ncoords         = 0;
  opts->coords          = NULL;
  opts->host_levels     = PETSC_TRUE;
  PetscCall(GPUPCAMGInterpTuningDefault(&opts->interp_tuning));
  opts->hmis_subdomain = GPUPC_AMG_HMIS_SUBDOMAIN;
  PetscFunctionReturn(0);
}

/* the rank-local part of a classical prolongator: strength, C/F splitting and interpolation of this rank's rows;
   errors on PETSC_COMM_SELF (GPUPCAMGAgree() follows) */
static PetscErrorCode ClassicalLocal(Mat A, const GPUPCAMGSetupOptions *opts, PetscInt level, PetscInt nf, const PetscInt *func, GPUPCAMGLocalP *Pl, PetscInt **cf, PetscLogDouble *t)
{
  GPUPCAMGLocal      L;
  GPUPCAMGStrength   S;
  PCGPUAMGInterpType interp = opts->interp;
  PetscLogDouble     t0, t1, t2;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(PetscLogEventBegin(GPUPCAMG_Local, A, 0, 0, 0));
  PetscCall(GPUPCAMGLocalGet(A, nf, func, opts->threads, &L));
  PetscCall(PetscLogEventEnd(GPUPCAMG_Local, A, 0, 0, 0));
  PetscCall(PetscLogEventBegin(GPUPCAMG_Strength, A, 0, 0, 0));
  PetscCall(GPUPCAMGStrengthClassical(&L, opts->strong_threshold, opts->threads, &S));
  PetscCall(PetscLogEventEnd(GPUPCAMG_Strength, A, 0, 0, 0));
  PetscCall(PetscLogEventBegin(GPUPCAMG_Coarsen, A, 0, 0, 0));
  PetscCall(PetscMalloc1(L.n, cf));
  PetscCall(GPUPCAMGCoarsen(&S, opts->coarsen, L.rstart, opts->threads, *cf));
  if (level < opts->aggressive_levels) { /* C points coarsened again on distance two; multipass reaches the F points */
    PetscCall(GPUPCAMGCoarsenAggressive(&S, opts->coarsen == PC_GPUAMG_COARSEN_RS ? PC_GPUAMG_COARSEN_HMIS : opts->coarsen, L.rstart, opts->threads, *cf));
    interp = PC_GPUAMG_INTERP_MULTIPASS;
  }
  PetscCall(PetscLogEventEnd(GPUPCAMG_Coarsen, A, 0, 0, 0));
  PetscCall(PetscTime(&t1));
  PetscCall(PetscLogEventBegin(GPUPCAMG_Interp, A, 0, 0, 0));
  PetscCall(GPUPCAMGInterpolate(&L, &S, *cf, interp, opts->trunc_max, opts->trunc_factor, opts->trunc_rescale, opts->threads, Pl));
  PetscCall(PetscLogEventEnd(GPUPCAMG_Interp, A, 0, 0, 0));
  PetscCall(GPUPCAMGStrengthFree(&S));
  PetscCall(GPUPCAMGLocalFree(&L));
  PetscCall(PetscTime(&t2));
  t[0] += t1 - t0;
  t[1] += t2 - t1;
  PetscFunctionReturn(0);
}

/* whether level's classical coarsening goes across ranks (else: why not, for the view, or NULL on one rank) */
static PetscErrorCode AcrossRanks(Mat A, const GPUPCAMGSetupOptions *opts, PetscInt level, PetscInt nf, PetscBool *across, const char **why)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  *across = PETSC_FALSE;
  *why    = NULL;
  if (opts->across == 0 || (opts->across < 0 && size == 1)) {
    if (size > 1) *why = "-pc_gpuamg_coarsen_across false";
    PetscFunctionReturn(0);
  }
  if (opts->coarsen != PC_GPUAMG_COARSEN_PMIS && opts->coarsen != PC_GPUAMG_COARSEN_HMIS) *why = "rs and cljp coarsen each rank's rows";
  else if (opts->interp == PC_GPUAMG_INTERP_MULTIPASS) *why = "multipass interpolation is rank-local";
  else if (level < opts->aggressive_levels) *why = "aggressive coarsening is rank-local";
  else if (nf > 1) *why = "systems AMG (block size > 1) is rank-local";
  else *across = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* the classical prolongator across ranks: the local part with ghosts, its strength graph, PMIS/HMIS with ghost
   states, interpolation from every rank's C points (collective throughout) */
static PetscErrorCode ClassicalAcross(Mat A, const GPUPCAMGSetupOptions *opts, GPUPCAMGLocalP *Pl, PetscLogDouble *t)
{
  GPUPCAMGLocal    L;
  GPUPCAMGStrength S;
  PetscInt        *cf;
  PetscLogDouble   t0, t1, t2;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(PetscLogEventBegin(GPUPCAMG_Local, A, 0, 0, 0));
  PetscCall(GPUPCAMGLocalGetGhost(A, opts->threads, &L));
  PetscCall(PetscLogEventEnd(GPUPCAMG_Local, A, 0, 0, 0));
  PetscCall(PetscLogEventBegin(GPUPCAMG_Strength, A, 0, 0, 0));
  PetscCall(GPUPCAMGStrengthClassical(&L, opts->strong_threshold, opts->threads, &S));
  PetscCall(PetscLogEventEnd(GPUPCAMG_Strength, A, 0, 0, 0));
  PetscCall(PetscLogEventBegin(GPUPCAMG_Coarsen, A, 0, 0, 0));
  PetscCall(PetscMalloc1(L.nx, &cf));
  PetscCall(GPUPCAMGCoarsenAcross(&L, &S, opts->coarsen, opts->threads, cf));
  PetscCall(PetscLogEventEnd(GPUPCAMG_Coarsen, A, 0, 0, 0));
  PetscCall(PetscTime(&t1));
  PetscCall(PetscLogEventBegin(GPUPCAMG_Interp, A, 0, 0, 0));
  PetscCall(GPUPCAMGInterpolateAcross(&L, &S, cf, opts->interp, opts->trunc_max, opts->trunc_factor, opts->trunc_rescale, opts->threads, Pl));
  PetscCall(PetscLogEventEnd(GPUPCAMG_Interp, A, 0, 0, 0));
  PetscCall(PetscFree(cf));
  PetscCall(GPUPCAMGStrengthFree(&S));
  PetscCall(GPUPCAMGLocalFree(&L));
  PetscCall(PetscTime(&t2));
  t[0] += t1 - t0;
  t[1] += t2 - t1;
  PetscFunctionReturn(0);
}

/* classical prolongator of one level; *func (systems: the function of each local row, NULL on the finest level and
   on a rank without rows) is replaced by the coarse level's */
static PetscErrorCode ProlongatorClassical(Mat A, const GPUPCAMGSetupOptions *opts, PetscInt level, PetscInt *nf, PetscInt **func, Mat *P, PetscLogDouble *t, GPUPCAMGHierarchy *H)
{
  GPUPCAMGLocalP Pl;
  PetscInt      *cf = NULL, n;
  PetscLogDouble t0, t1;
  PetscErrorCode ierr;
  PetscBool      across = PETSC_FALSE;
  const char    *why    = NULL;

  PetscFunctionBegin;
  if (level == 0) PetscCall(MatGetBlockSize(A, nf)); /* systems (block size > 1): the unknown approach, functions kept apart */
  PetscCall(PetscMemzero(&Pl, sizeof(Pl)));
  PetscCall(AcrossRanks(A, opts, level, *nf, &across, &why));
  if (across) {
    PetscCall(ClassicalAcross(A, opts, &Pl, t));
    H->nacross++;
  } else {
    if (why && !H->localwhy) H->localwhy = why;
    ierr = ClassicalLocal(A, opts, level, *nf, *func, &Pl, &cf, t);
    PetscCall(GPUPCAMGAgree(PetscObjectComm((PetscObject)A), ierr, "the classical coarsening and interpolation", level));
  }
  PetscCall(PetscTime(&t0));
  PetscCall(GPUPCAMGLocalPToMat(PetscObjectComm((PetscObject)A), &Pl, 1, 1, opts->threads, P));
  PetscCall(PetscTime(&t1));
  t[1] += t1 - t0;
  if (*nf > 1) {
    PetscInt *cfunc, k = 0;
    PetscCall(MatGetLocalSize(A, &n, NULL));
    PetscCall(PetscMalloc1(Pl.nc, &cfunc));
    for (PetscInt i = 0; i < n; i++)
      if (cf[i] == GPUPC_AMG_C) cfunc[k++] = *func ? (*func)[i] : i % *nf;
    PetscCall(PetscFree(*func));
    *func = cfunc;
  }
  PetscCall(GPUPCAMGLocalPFree(&Pl));
  PetscCall(PetscFree(cf));
  PetscFunctionReturn(0);
}

/* mean entries per row of P above which one rank uses MatPtAP: chosen when the threaded product formed each row of AP
   once per entry of P's row, so its work grew with P's row length (smoothed aggregation on random coefficients: 2.7 s
   against MatPtAP's fraction of it at 30k rows), while truncated classical prolongators keep at most 4. It now keeps
   the rows of AP it formed in a per-thread cache, so most are formed once and the limit is a conservative one, not
   measured again */
#define GPUPC_AMG_OWN_PRODUCT_MAX_ROW 4.5

/* whether the per-rank product reads A and P: MPIAIJ blocks (A derived from MPIAIJ, or mpisegcsr) */
static PetscErrorCode GalerkinMPIReads(Mat A, Mat P, PetscBool *reads)
{
  PetscBool a, p;

  PetscFunctionBegin;
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATMPIAIJ, &a));
  if (!a) PetscCall(PetscObjectTypeCompare((PetscObject)A, MATMPISEGCSR, &a));
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)P, MATMPIAIJ, &p));
  *reads = (PetscBool)(a && p);
  PetscFunctionReturn(0);
}

/* P^T A P: our threaded product on one rank when P's rows are short (it gives R = P^T too, when R is not NULL), else
   MatPtAP (and R by MatTranspose on one rank); on several ranks the per-rank product (GPUPCAMGGalerkinMPI) unless
   ptap asks for MatPtAP. The choice depends on P and the types only, so a reuse takes the same path (the per-rank
   product's reuse: when C carries what it kept) */
static PetscErrorCode Galerkin(Mat A, Mat P, MatReuse reuse, PetscBool ptap, PetscInt threads, Mat *C, Mat *R)
{
  PetscMPIInt size;
  PetscBool   own = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  if (size == 1) {
    MatInfo  info;
    PetscInt m;
    PetscCall(MatGetInfo(P, MAT_LOCAL, &info));
    PetscCall(MatGetLocalSize(P, &m, NULL));
    own = (PetscBool)(info.nz_used <= GPUPC_AMG_OWN_PRODUCT_MAX_ROW * (PetscLogDouble)PetscMax(m, 1));
  }
  if (size > 1) {
    PetscBool reads = PETSC_FALSE;
    PetscCall(GalerkinMPIReads(A, P, &reads));
    if (reuse == MAT_REUSE_MATRIX) { /* the path that made C */
      PetscObject kept;
      PetscCall(PetscObjectQuery((PetscObject)*C, GPUPC_AMG_GALERKIN_MPI_KEY, &kept));
      ptap = (PetscBool)!kept;
    }
    if (reads && !ptap) {
      PetscCall(GPUPCAMGGalerkinMPI(A, P, reuse, C));
      PetscFunctionReturn(0);
    }
  }
  if (own) PetscCall(GPUPCAMGGalerkinSeq(A, P, reuse, threads, C, R));
  else {
    PetscCall(MatPtAP(A, P, reuse, 2.0, C));
    if (size == 1 && R) PetscCall(MatTranspose(P, MAT_INITIAL_MATRIX, R));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckOptions(Mat A, const GPUPCAMGSetupOptions *o)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  PetscInt M, N, m, n, bad, gbad;

  PetscFunctionBegin;
  PetscCall(MatGetSize(A, &M, &N));
  PetscCall(MatGetLocalSize(A, &m, &n));
  bad = m != n;
  PetscCallMPI(MPI_Allreduce(&bad, &gbad, 1, MPIU_INT, MPI_MAX, comm));
  PetscCheck(M == N && !gbad, comm, PETSC_ERR_ARG_SIZ, "PC gpuamg needs a square matrix with the same row and column layout; got %" PetscInt_FMT " x %" PetscInt_FMT, M, N);
  PetscCheck(o->max_levels >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_max_levels must be at least 1, got %" PetscInt_FMT, o->max_levels);
  PetscCheck(o->max_coarse >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_max_coarse must be at least 1, got %" PetscInt_FMT, o->max_coarse);
  PetscCheck(o->max_ratio > 0.0 && o->max_ratio <= 1.0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_max_ratio must be in (0, 1], got %g", (double)o->max_ratio);
  PetscCheck(o->strong_threshold >= 0.0 && o->strong_threshold < 1.0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_strong_threshold must be in [0, 1), got %g", (double)o->strong_threshold);
  PetscCheck(o->agg_threshold >= 0.0 && o->agg_threshold < 1.0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_agg_threshold must be in [0, 1), got %g", (double)o->agg_threshold);
  PetscCheck(o->aggressive_levels >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_aggressive_levels must be >= 0, got %" PetscInt_FMT, o->aggressive_levels);
  PetscCheck(o->trunc_max >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_trunc_max must be >= 0 (0: no limit), got %" PetscInt_FMT, o->trunc_max);
  PetscCheck(o->trunc_factor >= 0.0 && o->trunc_factor < 1.0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_trunc_factor must be in [0, 1), got %g", (double)o->trunc_factor);
  PetscCheck(o->agg_smooths >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_gpuamg_agg_smooths must be >= 0, got %" PetscInt_FMT, o->agg_smooths);
  PetscCheck(o->threads >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "the setup needs at least one thread, got %" PetscInt_FMT, o->threads);
  if (o->cdim) PetscCall(GPUPCAMGCheckCoordinates(A, o->cdim, o->ncoords));
  PetscFunctionReturn(0);
}

/* zero diagonals make every method here meaningless: say which row */
static PetscErrorCode CheckDiagonal(Mat A, PetscInt level)
{
  Vec                d;
  const PetscScalar *v;
  PetscInt           m, rstart, bad = -1, gbad;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, &d, NULL));
  PetscCall(MatGetDiagonal(A, d));
  PetscCall(VecGetLocalSize(d, &m));
  PetscCall(VecGetOwnershipRange(d, &rstart, NULL));
  PetscCall(VecGetArrayRead(d, &v));
  for (PetscInt i = 0; i < m && bad < 0; i++)
    if (PetscRealPart(v[i]) == 0.0) bad = rstart + i;
  PetscCall(VecRestoreArrayRead(d, &v));
  PetscCall(VecDestroy(&d));
  PetscCallMPI(MPI_Allreduce(&bad, &gbad, 1, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)A)));
  PetscCheck(gbad < 0, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "PC gpuamg: row %" PetscInt_FMT " of the level %" PetscInt_FMT " matrix has a zero diagonal; AMG needs a nonzero diagonal (an SPD-like matrix); reorder or use another PC", gbad, level);
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGHierarchyBuild - builds the AMG hierarchy of PC gpuamg (on the host, or with the device setup where the
   options send it: GPUPCAMGSetupWhere())

   Collective on A

   Input Parameters:
+  A    - the operator (SEQAIJ, MPIAIJ or a GPUPC type derived from them), square, nonzero diagonal
-  opts - the setup options (GPUPCAMGSetupOptionsDefault() gives the defaults)

   Output Parameter:
.  H - levels A[0] = A (referenced), A[l+1] = P[l]^T A[l] P[l]; free with GPUPCAMGHierarchyDestroy()

   Notes:
   After an error, GPUPCAMGHierarchyDestroy() frees what was built.

   Coarsening stops before a level when the level has at most max_coarse rows or max_levels levels exist, and drops a
   prolongator whose coarse level has no rows or more than max_ratio times the rows of the fine one.

   Level: developer

.seealso: GPUPCAMGHierarchyRecompute(), GPUPCAMGHierarchyDestroy()
@*/
PetscErrorCode GPUPCAMGHierarchyBuild(Mat A, const GPUPCAMGSetupOptions *opts, GPUPCAMGHierarchy *H)
{
  PetscLogDouble t0, t1, t2;
  PetscInt       nv = 0, nf = 1, *func = NULL;
  PetscReal     *B = NULL;
  char           stop[400]; /* why coarsening stopped (for the error on a last level too big) */

  PetscFunctionBegin;
  PetscCall(PetscMemzero(H, sizeof(*H)));
  PetscCall(GPUPCAMGRegisterSetupEvents());
  PetscCall(CheckOptions(A, opts));
  {
    PCGPUAMGSetupLocation where;
    const char           *why;
    PetscCall(GPUPCAMGSetupWhere(A, opts, &where, &why));
    if (where == PC_GPUAMG_SETUP_DEVICE) {
      PetscMPIInt size;
      PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
      if (size > 1) PetscCall(GPUPCAMGHierarchyBuildDeviceMPI(A, opts, H)); /* the levels as each rank's device blocks */
      else PetscCall(GPUPCAMGHierarchyBuildDevice(A, opts, H));
      PetscFunctionReturn(0);
    }
    H->hostwhy = why;
  }
  PetscCall(PetscLogEventBegin(GPUPCAMG_Setup, A, 0, 0, 0));
  PetscCall(PetscTime(&t0));
  PetscCall(PetscCalloc3(opts->max_levels, &H->A, opts->max_levels, &H->P, opts->max_levels, &H->R));
  {
    PetscMPIInt size;
    PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
    if (size > 1) {
      PetscCall(PetscMalloc1(opts->max_levels, &H->ranks));
      H->ranks[0] = size;
    }
  }
  PetscCall(PetscObjectReference((PetscObject)A));
  H->A[0]    = A;
  H->nlevels = 1;
  H->threads = opts->threads;
  PetscCall(PetscSNPrintf(stop, sizeof(stop), "it reached -pc_gpuamg_max_levels %" PetscInt_FMT, opts->max_levels));
  for (PetscInt l = 0; l + 1 < opts->max_levels; l++) {
    PetscInt       N, Nc;
    Mat            P;
    PetscLogDouble t00 = H->times[0], t01 = H->times[1];

    PetscCall(MatGetSize(H->A[l], &N, NULL));
    if (N <= opts->max_coarse) {
      PetscCall(PetscSNPrintf(stop, sizeof(stop), "it reached -pc_gpuamg_max_coarse %" PetscInt_FMT, opts->max_coarse));
      break;
    }
    PetscCall(CheckDiagonal(H->A[l], l));
    if (opts->type == PC_GPUAMG_AGG) PetscCall(GPUPCAMGProlongatorAgg(H->A[l], opts, l, &nv, &B, &P, H->times));
    else PetscCall(ProlongatorClassical(H->A[l], opts, l, &nf, &func, &P, H->times, H));
    PetscCall(MatGetSize(P, NULL, &Nc));
    if (Nc == 0 || Nc >= N || (PetscReal)Nc > opts->max_ratio * (PetscReal)N) {
      PetscMPIInt size;
      PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
      if (Nc == 0) PetscCall(PetscSNPrintf(stop, sizeof(stop), "level %" PetscInt_FMT " selected no coarse points", l));
      else
        PetscCall(PetscSNPrintf(stop, sizeof(stop), "coarsening stalled on level %" PetscInt_FMT ": %" PetscInt_FMT " of its %" PetscInt_FMT " rows would remain (more than -pc_gpuamg_max_ratio %g)%s", l, Nc, N, (double)opts->max_ratio,
                                size > 1 && opts->type == PC_GPUAMG_AGG ? "; each rank aggregates its own rows, so coarsening stalls at rank boundaries when few rows remain per rank: use fewer ranks or -pc_gpuamg_aggressive_levels"
                                : size > 1 && H->localwhy               ? "; levels coarsened rank by rank stall at rank boundaries when few rows remain per rank: use fewer ranks, or pmis or hmis with direct, standard or ext+i interpolation (coarsening across ranks)"
                                                                        : ""));
      PetscCall(MatDestroy(&P));
      break;
    }
    if (H->ranks) { /* several ranks: the coarse level on fewer ranks when it has few rows a rank */
      const PetscInt limit = GPUPCAMGCoarseEqLimit(opts);
      if (limit > 0 && (opts->type != PC_GPUAMG_CLASSICAL || nf > 1)) {
        H->aggwhy       = opts->type != PC_GPUAMG_CLASSICAL ? "smoothed aggregation (its near-null space per point would have to move)" : "systems (the functions of the points would have to move)";
        H->ranks[l + 1] = H->ranks[l];
      } else PetscCall(GPUPCAMGAgglomerate(limit, &P, &H->ranks[l + 1]));
    }
    PetscCall(PetscTime(&t1));
    PetscCall(PetscLogEventBegin(GPUPCAMG_Galerkin, H->A[l], 0, 0, 0));
    PetscCall(Galerkin(H->A[l], P, MAT_INITIAL_MATRIX, opts->mpi_ptap, opts->threads, &H->A[l + 1], &H->R[l]));
    PetscCall(PetscLogEventEnd(GPUPCAMG_Galerkin, H->A[l], 0, 0, 0));
    PetscCall(PetscTime(&t2));
    H->times[2] += t2 - t1;
    H->P[l]    = P;
    H->nlevels = l + 2;
    { /* -info: the level's sizes and the time of each part (bench/NOTES.md tables come from these lines) */
      MatInfo ia, ip;
      PetscCall(MatGetInfo(H->A[l], MAT_GLOBAL_SUM, &ia));
      PetscCall(MatGetInfo(P, MAT_GLOBAL_SUM, &ip));
      PetscCall(PetscInfo(A, "level %" PetscInt_FMT ": %" PetscInt_FMT " rows, %.0f nonzeros; P %" PetscInt_FMT " columns, %.0f nonzeros; %s %.4g s, %s %.4g s, Galerkin %.4g s\n", l, N, ia.nz_used, Nc, ip.nz_used, opts->type == PC_GPUAMG_AGG ? "aggregation" : "strength+coarsening", H->times[0] - t00, opts->type == PC_GPUAMG_AGG ? "prolongator" : "interpolation", H->times[1] - t01, t2 - t1));
    }
  }
  PetscCall(PetscFree(B));
  PetscCall(PetscFree(func));
  { /* the last level is inverted densely: refuse one too big, with the reason coarsening stopped */
    PetscInt Nl;
    PetscCall(MatGetSize(H->A[H->nlevels - 1], &Nl, NULL));
    PetscCheck(Nl <= GPUPC_AMG_DENSE_MAX, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "PC gpuamg: the last level has %" PetscInt_FMT " rows, more than the %d that its dense inverse takes; coarsening stopped after %" PetscInt_FMT " levels because %s", Nl, GPUPC_AMG_DENSE_MAX, H->nlevels, stop);
  }
  PetscCall(PetscTime(&t1));
  H->times[3] = t1 - t0;
  PetscCall(PetscLogEventEnd(GPUPCAMG_Setup, A, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGHierarchyRecompute - new values of the operator on the same nonzero pattern: keeps every P and recomputes
   the Galerkin products

   Collective on A

   Input Parameters:
+  A - the operator (the one the hierarchy was built from, or one with the same layout and nonzero pattern)
-  H - the hierarchy

   Level: developer

.seealso: GPUPCAMGHierarchyBuild()
@*/
PetscErrorCode GPUPCAMGHierarchyRecompute(Mat A, GPUPCAMGHierarchy *H)
{
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCheck(H->nlevels >= 1 && H->A, PetscObjectComm((PetscObject)A), PETSC_ERR_ORDER, "the AMG hierarchy was not built");
  if (H->ondevice) {
    PetscCall(GPUPCAMGHierarchyRecomputeDevice(A, H));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscTime(&t0));
  if (A != H->A[0]) {
    PetscCall(PetscObjectReference((PetscObject)A));
    PetscCall(MatDestroy(&H->A[0]));
    H->A[0] = A;
  }
  PetscCall(PetscLogEventBegin(GPUPCAMG_Galerkin, A, 0, 0, 0));
  for (PetscInt l = 0; l + 1 < H->nlevels; l++) PetscCall(Galerkin(H->A[l], H->P[l], MAT_REUSE_MATRIX, PETSC_FALSE, H->threads, &H->A[l + 1], NULL));
  PetscCall(PetscLogEventEnd(GPUPCAMG_Galerkin, A, 0, 0, 0));
  PetscCall(PetscTime(&t1));
  H->times[2] = t1 - t0;
  H->times[3] = t1 - t0;
  H->times[0] = H->times[1] = 0.0;
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGHierarchyDestroy - frees the hierarchy

   Collective

   Level: developer

.seealso: GPUPCAMGHierarchyBuild()
@*/
PetscErrorCode GPUPCAMGHierarchyDestroy(GPUPCAMGHierarchy *H)
{
  PetscFunctionBegin;
  if (H->A)
    for (PetscInt l = 0; l < H->nlevels; l++) PetscCall(MatDestroy(&H->A[l]));
  if (H->P)
    for (PetscInt l = 0; l + 1 < H->nlevels; l++) PetscCall(MatDestroy(&H->P[l]));
  if (H->R)
    for (PetscInt l = 0; l + 1 < H->nlevels; l++) PetscCall(MatDestroy(&H->R[l]));
  PetscCall(PetscFree3(H->A, H->P, H->R));
  PetscCall(PetscFree(H->ranks));
  PetscCall(GPUPCAMGDevHierarchyFree(H));
  PetscCall(PetscMemzero(H, sizeof(*H)));
  PetscFunctionReturn(0);
}

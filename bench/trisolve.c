static const char help[] = "bench/trisolve: ILU(k) triangular solves (L then U) of PC tasslilu: TASSL (one launch per sub-graph level and\n"
                           "one launch with ready flags), the level-set kernel and cuSPARSE SpSV, same run, same factor, same vectors.\n"
                           "Per factor: rows, entries of L+U, sub-graphs, sub-graph levels, level sets, concurrency C, the host analysis\n"
                           "time of TASSL and of cuSPARSE SpSV against one numeric ILU factorization, the solve times (mean of -reps after a\n"
                           "warm-up), cuSPARSE/TASSL, and the effective bandwidth of the best TASSL solve against a device-to-device copy\n"
                           "(bytes: 12 per entry of L and U + 40 per row). With -gmres also GMRES(30) to rtol 1e-8 with -pc_type tasslilu\n"
                           "(segcsr matrix, gpu vectors) timed here; the host comparison, GMRES + bjacobi/ILU(0) on all cores, is\n"
                           "build/bin/gpupc-solve with the same -problem and -n under mpiexec (see tools/gpu-session.sh trisolve).\n"
                           "Options:\n"
                           "  -problems <list>      comma-separated built-in problems (default: poisson2d,poisson3d,poisson3d27,powergrid,elasticity3d,\n"
                           "                        convdiff2d,convdiff3d; -help lists every built-in problem under -problems)\n"
                           "  -n <2000000>          target rows of every problem   -levels 0,1   ILU levels of fill\n"
                           "  -reps <20>            timed solves   -subgraph_size <6144>   TASSL sub-graph size\n"
                           "  -csv <trisolve.csv>   CSV output     -quick   small sizes, host backend allowed (smoke test, no cuSPARSE)\n"
                           "  -ordering <natural>   MatOrderingType of the factors (nd gives independent sub-domains: many roots)\n"
                           "  -gmres                also GMRES time to solution with tasslilu (ILU(0); -gmres_pc_tasslilu_ordering etc. apply)\n";

#include <petscksp.h>
#include <petscgpupc.h>
#include <petsctime.h>
#include <gpupc/device.h>
#include <gpupc/bench.h>
#include <gpupc/problems.h>
#include <gpupc/tassl.h>

/* the solve kinds timed: TASSL with one launch per sub-graph level, TASSL in one launch, level sets, cuSPARSE */
typedef enum {
  RUN_LEVEL,
  RUN_ONE,
  RUN_LEVELSET,
  RUN_CUSPARSE,
  NRUNS
} RunKind;

typedef struct {
  GPUPCTasslOp  *L, *U;
  GPUPCTasslSpSV spsv;
  PetscScalar   *b, *z, *x;
} Solves;

static PetscErrorCode RunOnce(Solves *s, RunKind k)
{
  PetscFunctionBegin;
  switch (k) {
  case RUN_LEVEL:
  case RUN_ONE:
    PetscCall(GPUPCTasslOpSolve(s->L, GPUPC_TASSL_SOLVE_TASSL, k == RUN_ONE ? GPUPC_TASSL_LAUNCH_ONE : GPUPC_TASSL_LAUNCH_LEVEL, s->b, s->z));
    PetscCall(GPUPCTasslOpSolve(s->U, GPUPC_TASSL_SOLVE_TASSL, k == RUN_ONE ? GPUPC_TASSL_LAUNCH_ONE : GPUPC_TASSL_LAUNCH_LEVEL, s->z, s->x));
    break;
  case RUN_LEVELSET:
    PetscCall(GPUPCTasslOpSolve(s->L, GPUPC_TASSL_SOLVE_LEVELSET, GPUPC_TASSL_LAUNCH_AUTO, s->b, s->z));
    PetscCall(GPUPCTasslOpSolve(s->U, GPUPC_TASSL_SOLVE_LEVELSET, GPUPC_TASSL_LAUNCH_AUTO, s->z, s->x));
    break;
  case RUN_CUSPARSE:
#if defined(GPUPC_HAVE_CUDA)
    PetscCall(GPUPCTasslSpSVApply(s->spsv, s->b, s->x));
#endif
    break;
  default:
    break;
  }
  PetscFunctionReturn(0);
}

/* mean seconds of reps calls of one solve kind (after one untimed) */
static PetscErrorCode TimeRun(Solves *s, RunKind k, PetscInt reps, double *sec)
{
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(RunOnce(s, k));
  PetscCall(GPUPCSynchronize());
  PetscCall(PetscTime(&t0));
  for (PetscInt r = 0; r < reps; r++) PetscCall(RunOnce(s, k));
  PetscCall(GPUPCSynchronize());
  PetscCall(PetscTime(&t1));
  *sec = (t1 - t0) / reps;
  PetscFunctionReturn(0);
}

static PetscErrorCode GMRESTime(const char *name, PetscInt n, double *setup, double *solve, PetscInt *its)
{
  Mat            A, S;
  Vec            b, x, bs;
  KSP            ksp;
  PC             pc;
  PetscLogDouble t0, t1, t2;

  PetscFunctionBegin;
  PetscCall(GPUPCProblemCreate(PETSC_COMM_SELF, name, n, 1, &A, &b));
  PetscCall(MatConvert(A, MATSEGCSR, MAT_INITIAL_MATRIX, &S));
  PetscCall(MatCreateVecs(S, &x, &bs));
  PetscCall(VecCopy(b, bs));
  PetscCall(KSPCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(KSPSetOperators(ksp, S, S));
  PetscCall(KSPSetType(ksp, KSPGMRES));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 10000));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCTASSLILU));
  PetscCall(KSPSetOptionsPrefix(ksp, "gmres_"));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(GPUPCSynchronize());
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSetUp(ksp));
  PetscCall(GPUPCSynchronize());
  PetscCall(PetscTime(&t1));
  PetscCall(KSPSolve(ksp, bs, x));
  PetscCall(GPUPCSynchronize());
  PetscCall(PetscTime(&t2));
  PetscCall(KSPGetIterationNumber(ksp, its));
  *setup = t1 - t0;
  *solve = t2 - t1;
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&bs));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&S));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char              problist[512] = "poisson2d,poisson3d,poisson3d27,powergrid,elasticity3d,convdiff2d,convdiff3d", csvname[PETSC_MAX_PATH_LEN] = "";
  char            **probs;
  char              ordering[64] = MATORDERINGNATURAL;
  int               nprob        = 16;
  PetscInt          n = 2000000, levels[4] = {0, 1}, nlevels = 2, reps = 20, nmax = 6144;
  PetscBool         quick = PETSC_FALSE, gmres = PETSC_FALSE, cuda;
  PetscGPUPCBackend backend;
  double            copygbs = 0.0;
  FILE             *csv     = NULL;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-quick", &quick, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-gmres", &gmres, NULL));
  if (quick) n = 20000;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-subgraph_size", &nmax, NULL));
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-levels", levels, &nlevels, NULL));
  if (!nlevels) nlevels = 2;
  PetscCall(GPUPCProblemOptionsString(PETSC_COMM_WORLD, "-problems", "comma-separated built-in problems whose ILU factors are solved", problist, sizeof(problist)));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-csv", csvname, sizeof(csvname), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-ordering", ordering, sizeof(ordering), NULL));
  PetscCall(PetscGPUPCGetBackend(&backend));
  cuda = (PetscBool)(backend == PETSC_GPUPC_BACKEND_CUDA);
  PetscCheck(cuda || quick, PETSC_COMM_SELF, PETSC_ERR_SUP, "bench/trisolve times CUDA work: run with -gpupc_backend cuda on a GPU host (or -quick for a host smoke test)");
  PetscCall(PetscStrToArray(problist, ',', &nprob, &probs));
#if defined(GPUPC_HAVE_CUDA)
  if (cuda) PetscCall(GPUPCBenchCopyBandwidth((size_t)1 << 30, 10, &copygbs));
#endif
  if (csvname[0]) {
    csv = fopen(csvname, "w");
    PetscCheck(csv, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot write %s", csvname);
    fprintf(csv, "problem,n,k,nnzLU,nsub,nlev,nls,C,numeric_ms,tassl_analysis_ms,cusparse_analysis_ms,level_ms,one_ms,levelset_ms,cusparse_ms,cusparse_over_tassl,tassl_gbs,copy_gbs\n");
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "copy bandwidth %.1f GB/s; solve = L then U, mean of %" PetscInt_FMT "; analysis and numeric on the host\n", copygbs, reps));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-13s %9s %1s %10s %6s %5s %6s %6s | %8s %8s %8s | %9s %9s %9s %9s | %6s %5s\n", "problem", "n", "k", "nnz(L+U)", "subg", "slev", "lsets", "C", "num ms", "tassl an", "spsv an", "level ms", "one ms", "lset ms", "spsv ms", "spsv/T", "%bw"));
  for (PetscInt p = 0; p < nprob; p++) {
    Mat                A, Ad;
    Vec                rhs;
    const PetscInt    *ai, *aj;
    const PetscScalar *aa;
    PetscInt           m;
    PetscBool          done;
    IS                 rowis = NULL, colis = NULL;
    const PetscInt    *rperm = NULL, *cperm = NULL;

    PetscCall(GPUPCProblemCreate(PETSC_COMM_SELF, probs[p], n, 1, &A, &rhs));
    PetscCall(MatConvert(A, MATSEQAIJ, MAT_INITIAL_MATRIX, &Ad));
    PetscCall(MatGetRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
    PetscCall(MatSeqAIJGetArrayRead(Ad, &aa));
    {
      PetscBool natural;
      PetscCall(PetscStrcmp(ordering, MATORDERINGNATURAL, &natural));
      if (!natural) PetscCall(MatGetOrdering(Ad, ordering, &rowis, &colis));
      if (rowis) PetscCall(ISGetIndices(rowis, &rperm));
      if (colis) PetscCall(ISGetIndices(colis, &cperm));
    }
    for (PetscInt li = 0; li < nlevels; li++) {
      GPUPCILU       F;
      GPUPCTasslOp   L, U;
      Solves         s;
      PetscLogDouble t0, t1, tnum, tan, tsp = 0;
      (void)tsp;
      double       t[NRUNS] = {0, 0, 0, 0}, best, gbs, nnzLU, err = 0.0;
      PetscScalar *h, *hx, *hr;

      PetscCall(GPUPCILUSymbolic(m, ai, aj, rperm, cperm, levels[li], &F));
      PetscCall(PetscTime(&t0));
      PetscCall(GPUPCILUNumeric(&F, ai, aj, aa));
      PetscCall(PetscTime(&t1));
      tnum = t1 - t0;
      PetscCall(PetscTime(&t0));
      PetscCall(GPUPCTasslOpCreate(&F, GPUPC_TRI_L, nmax, F.rperm, NULL, &L));
      PetscCall(GPUPCTasslOpCreate(&F, GPUPC_TRI_U, nmax, NULL, F.cperm, &U));
      PetscCall(PetscTime(&t1));
      tan = L.sched.time + U.sched.time; /* the analysis proper; t1 - t0 adds the layout and upload */
      PetscCall(PetscMemzero(&s, sizeof(s)));
      s.L = &L;
      s.U = &U;
      PetscCall(GPUPCMallocArray(m, &s.b));
      PetscCall(GPUPCMallocArray(m, &s.z));
      PetscCall(GPUPCMallocArray(m, &s.x));
      PetscCall(PetscMalloc3(m, &h, m, &hx, m, &hr));
      for (PetscInt i = 0; i < m; i++) h[i] = 1.0 + 0.5 * PetscSinReal((PetscReal)i);
      PetscCall(GPUPCCopyToDevice(s.b, h, m));
#if defined(GPUPC_HAVE_CUDA)
      if (cuda) {
        PetscCall(PetscTime(&t0));
        PetscCall(GPUPCTasslSpSVCreate(&F, PETSC_FALSE, &s.spsv));
        PetscCall(PetscTime(&t1));
        tsp = t1 - t0;
      }
#endif
      /* every kind gives the same x (TASSL level as the reference) */
      for (int k = 0; k < NRUNS; k++) {
        if (k == RUN_CUSPARSE && !cuda) continue;
        PetscCall(RunOnce(&s, (RunKind)k));
        PetscCall(GPUPCCopyToHost(k ? hx : hr, s.x, m));
        if (k)
          for (PetscInt i = 0; i < m; i++) err = PetscMax(err, PetscAbsScalar(hx[i] - hr[i]) / (PetscAbsScalar(hr[i]) + 1e-300));
        PetscCall(TimeRun(&s, (RunKind)k, reps, &t[k]));
      }
      PetscCheck(err < 1e-8, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s ILU(%" PetscInt_FMT "): the solve kinds disagree (largest relative difference %g)", probs[p], levels[li], err);
      nnzLU = (double)(L.sched.nedges + U.sched.nedges + m);
      best  = PetscMin(t[RUN_LEVEL], t[RUN_ONE]);
      gbs   = (12.0 * nnzLU + 40.0 * m) / best / 1e9;
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-13s %9" PetscInt_FMT " %1" PetscInt_FMT " %10.0f %6" PetscInt_FMT " %5" PetscInt_FMT " %6" PetscInt_FMT " %6.4f | %8.2f %8.2f %8.2f | %9.3f %9.3f %9.3f %9.3f | %6.2f %5.1f\n", probs[p], m, levels[li], nnzLU, L.sched.nsub + U.sched.nsub, L.sched.nlev + U.sched.nlev, L.sched.nls + U.sched.nls,
                            (double)(1.0 - (double)(L.sched.critslots + U.sched.critslots) / PetscMax(1.0, (double)(L.sched.nedges + U.sched.nedges))), tnum * 1e3, tan * 1e3, tsp * 1e3, t[RUN_LEVEL] * 1e3, t[RUN_ONE] * 1e3, t[RUN_LEVELSET] * 1e3, t[RUN_CUSPARSE] * 1e3, cuda ? t[RUN_CUSPARSE] / best : 0.0, copygbs > 0 ? 100.0 * gbs / copygbs : 0.0));
      if (csv)
        fprintf(csv, "%s,%d,%d,%.0f,%d,%d,%d,%.5f,%.4f,%.4f,%.4f,%.5f,%.5f,%.5f,%.5f,%.3f,%.2f,%.2f\n", probs[p], (int)m, (int)levels[li], nnzLU, (int)(L.sched.nsub + U.sched.nsub), (int)(L.sched.nlev + U.sched.nlev), (int)(L.sched.nls + U.sched.nls), (double)(1.0 - (double)(L.sched.critslots + U.sched.critslots) / PetscMax(1.0, (double)(L.sched.nedges + U.sched.nedges))), tnum * 1e3, tan * 1e3,
                tsp * 1e3, t[RUN_LEVEL] * 1e3, t[RUN_ONE] * 1e3, t[RUN_LEVELSET] * 1e3, t[RUN_CUSPARSE] * 1e3, cuda ? t[RUN_CUSPARSE] / best : 0.0, gbs, copygbs);
#if defined(GPUPC_HAVE_CUDA)
      if (s.spsv) PetscCall(GPUPCTasslSpSVDestroy(&s.spsv));
#endif
      PetscCall(PetscFree3(h, hx, hr));
      PetscCall(GPUPCFree(s.b));
      PetscCall(GPUPCFree(s.z));
      PetscCall(GPUPCFree(s.x));
      PetscCall(GPUPCTasslOpDestroy(&L));
      PetscCall(GPUPCTasslOpDestroy(&U));
      PetscCall(GPUPCILUDestroy(&F));
    }
    if (rowis) PetscCall(ISRestoreIndices(rowis, &rperm));
    if (colis) PetscCall(ISRestoreIndices(colis, &cperm));
    PetscCall(ISDestroy(&rowis));
    PetscCall(ISDestroy(&colis));
    PetscCall(MatSeqAIJRestoreArrayRead(Ad, &aa));
    PetscCall(MatRestoreRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
    PetscCall(MatDestroy(&Ad));
    PetscCall(MatDestroy(&A));
    PetscCall(VecDestroy(&rhs));
    if (gmres) {
      double   setup = 0, solve = 0;
      PetscInt its = 0;
      PetscCall(GMRESTime(probs[p], n, &setup, &solve, &its));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "  GMRES + tasslilu (ILU(0), segcsr, %s backend, default ordering natural): %" PetscInt_FMT " iterations, setup %.3f s, solve %.3f s, total %.3f s\n", PetscGPUPCBackends[backend], its, setup, solve, setup + solve));
    }
  }
  if (csv) fclose(csv);
  PetscCall(PetscStrToArrayDestroy(nprob, probs));
  PetscCall(PetscFinalize());
  return 0;
}

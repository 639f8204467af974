/*
   The core of gpupc-solve: build or load the system, solve it with the KSP/PC of the options
   (-repeat times), measure, and fill the summary. In the library so that tests call it.
*/
#include <gpupc/problems.h>
#include <gpupc/device.h>
#include <petsctime.h>
#include <string.h>

static PetscLogEvent GPUPC_SolveSetup = 0, GPUPC_SolveSolve = 0;

static PetscErrorCode Median(PetscInt k, PetscReal t[], PetscReal *m)
{
  PetscFunctionBegin;
  PetscCall(PetscSortReal(k, t));
  *m = k % 2 ? t[k / 2] : 0.5 * (t[k / 2 - 1] + t[k / 2]);
  PetscFunctionReturn(0);
}

/* wall-clock time after all ranks (and their devices) are done */
static PetscErrorCode Now(MPI_Comm comm, PetscLogDouble *t)
{
  PetscFunctionBegin;
  PetscCall(GPUPCSynchronize());
  PetscCallMPI(MPI_Barrier(comm));
  PetscCall(PetscTime(t));
  PetscFunctionReturn(0);
}

static void BaseName(const char *path, char *out, size_t len)
{
  const char *s = strrchr(path, '/');
  PetscStrncpy(out, s ? s + 1 : path, len);
}

/*@C
   GPUPCSolveRun - what gpupc-solve does: builds or loads a linear system, solves it with the
   KSP and PC given in the options and measures the solve

   Collective

   Input Parameter:
.  comm - the communicator

   Output Parameter:
.  s - the summary (format it with GPUPCSolveSummaryFormat())

   Options Database Keys:
+  -f <file> - matrix from a Matrix Market or PETSc binary file (recognised from its contents)
.  -netlist <file> - conductance matrix and right-hand side from a SPICE power-grid netlist
.  -problem <name> - a built-in problem (default powergrid), one of GPUPCProblemList(); -help lists them
.  -n <rows> - target size of the built-in problem (default 1000000)
.  -seed <s> - seed of the built-in problem (default 1)
.  -rhs <file> - right-hand side (Matrix Market or PETSc binary); default: the problem's own b
                 (netlist, powergrid, generators, a vector stored after a binary matrix), else A*1
.  -repeat <k> - solve k times with a fresh KSP each time; setup_s and solve_s are medians
.  -reuse - then the matrix scaled by 1.5 (new values, the same nonzero pattern) is set up and solved again with the
            last KSP (the PC's value-only setup, SAME_NONZERO_PATTERN); a line "gpupc-solve reuse:" gives its setup and
            solve times, and the summary's iterations, reason and residual are this solve's
.  -write_netlist <file> - with -problem powergrid: also write the grid as a SPICE netlist
.  -write_mtx <file> - write the matrix as a Matrix Market file
-  -view_solution <viewer> - write the solution, e.g. -view_solution binary:x.bin or ascii:x.txt

   Notes:
   Vectors come from MatCreateVecs(), so the matrix type (-mat_type) decides where they live;
   -vec_type gpu is applied to them when given. The KSP defaults to cg when the matrix is known
   symmetric (built-in symmetric problems, netlists, symmetric Matrix Market files) and gmres
   otherwise, with rtol 1e-8 and at most 10000 iterations; the options override all of these.
   setup_s is KSPSetUp() (the PC setup included), solve_s is KSPSolve(); the true relative
   residual ||b - A x|| / ||b|| is computed after the last solve.

   Level: beginner

.seealso: GPUPCSolveSummaryFormat(), GPUPCProblemCreate(), GPUPCMatLoadFile(), GPUPCMatLoadNetlist()
@*/
PetscErrorCode GPUPCSolveRun(MPI_Comm comm, GPUPCSolveSummary *s)
{
  char              file[PETSC_MAX_PATH_LEN] = "", netlist[PETSC_MAX_PATH_LEN] = "", rhsfile[PETSC_MAX_PATH_LEN] = "";
  char              problem[64] = "powergrid", wnet[PETSC_MAX_PATH_LEN] = "", wmtx[PETSC_MAX_PATH_LEN] = "";
  char              vectype[64] = "", problemlist[512], problemhelp[600];
  PetscInt          n = 1000000, seed = 1, repeat = 1, N;
  PetscBool         reuse = PETSC_FALSE;
  PetscBool         hasf, hasnet, hasvt, symmetric = PETSC_FALSE, flg;
  Mat               A;
  Vec               b0  = NULL, b, x, r;
  KSP               ksp = NULL;
  PetscReal        *tset, *tsol, rn, bn;
  MatInfo           info;
  PetscViewer       viewer;
  PetscViewerFormat format;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(s, sizeof(*s)));
  if (!GPUPC_SolveSetup) {
    PetscCall(PetscLogEventRegister("GPUPCSolveSetUp", KSP_CLASSID, &GPUPC_SolveSetup));
    PetscCall(PetscLogEventRegister("GPUPCSolveSolve", KSP_CLASSID, &GPUPC_SolveSolve));
  }
  PetscCall(GPUPCProblemListString(problemlist, sizeof(problemlist)));
  PetscCall(PetscSNPrintf(problemhelp, sizeof(problemhelp), "built-in problem: %s", problemlist));
  PetscOptionsBegin(comm, NULL, "gpupc-solve: load or generate a system and solve it", "GPUPCSolveRun");
  PetscCall(PetscOptionsString("-f", "matrix file (Matrix Market or PETSc binary)", "GPUPCSolveRun", file, file, sizeof(file), &hasf));
  PetscCall(PetscOptionsString("-netlist", "SPICE power-grid netlist", "GPUPCSolveRun", netlist, netlist, sizeof(netlist), &hasnet));
  PetscCall(PetscOptionsString("-problem", problemhelp, "GPUPCProblemCreate", problem, problem, sizeof(problem), NULL));
  PetscCall(PetscOptionsInt("-n", "target number of rows of the built-in problem", "GPUPCProblemCreate", n, &n, NULL));
  PetscCall(PetscOptionsInt("-seed", "seed of the built-in problem", "GPUPCProblemCreate", seed, &seed, NULL));
  PetscCall(PetscOptionsString("-rhs", "right-hand side file (Matrix Market or PETSc binary)", "GPUPCSolveRun", rhsfile, rhsfile, sizeof(rhsfile), NULL));
  PetscCall(PetscOptionsInt("-repeat", "number of solves; times are medians", "GPUPCSolveRun", repeat, &repeat, NULL));
  PetscCall(PetscOptionsBool("-reuse", "then set up and solve again with the matrix scaled by 1.5 (same pattern): the PC's value-only setup", "GPUPCSolveRun", reuse, &reuse, NULL));
  PetscCall(PetscOptionsString("-write_netlist", "write the powergrid problem as a SPICE netlist", "GPUPCNetlistWritePowerGrid", wnet, wnet, sizeof(wnet), NULL));
  PetscCall(PetscOptionsString("-write_mtx", "write the matrix as Matrix Market", "GPUPCMatWriteMatrixMarket", wmtx, wmtx, sizeof(wmtx), NULL));
  PetscCall(PetscOptionsString("-vec_type", "vector type of the solve (default: what the matrix type creates)", "VecSetType", vectype, vectype, sizeof(vectype), &hasvt));
  PetscOptionsEnd();
  PetscCheck(!(hasf && hasnet), comm, PETSC_ERR_ARG_INCOMP, "Give either -f <matrix file> or -netlist <netlist>, not both");
  PetscCheck(repeat >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-repeat %" PetscInt_FMT " must be at least 1", repeat);

  /* the system */
  if (hasf) {
    PetscCall(GPUPCMatLoadFile(comm, file, &A, &b0, &symmetric));
    BaseName(file, s->problem, sizeof(s->problem));
  } else if (hasnet) {
    PetscCall(GPUPCMatLoadNetlist(comm, netlist, &A, &b0));
    symmetric = PETSC_TRUE;
    BaseName(netlist, s->problem, sizeof(s->problem));
  } else {
    PetscCall(GPUPCProblemGetInfo(problem, &symmetric, NULL, NULL));
    PetscCall(GPUPCProblemCreate(comm, problem, n, seed, &A, &b0));
    PetscCall(PetscStrncpy(s->problem, problem, sizeof(s->problem)));
    if (wnet[0]) {
      PetscCall(PetscStrcmp(problem, "powergrid", &flg));
      PetscCheck(flg, comm, PETSC_ERR_ARG_INCOMP, "-write_netlist writes the powergrid problem; this run has -problem %s", problem);
      PetscCall(GPUPCNetlistWritePowerGrid(comm, wnet, n, seed));
    }
  }
  PetscCall(MatGetSize(A, &N, NULL));
  if (wmtx[0]) PetscCall(GPUPCMatWriteMatrixMarket(A, wmtx, symmetric));
  PetscCall(MatCreateVecs(A, &x, &b));
  if (hasvt) {
    PetscCall(VecSetType(x, vectype));
    PetscCall(VecSetType(b, vectype));
  }
  if (rhsfile[0]) {
    PetscCall(VecDestroy(&b0));
    PetscCall(GPUPCVecLoadFile(comm, rhsfile, N, &b0));
  }
  if (b0) PetscCall(VecCopy(b0, b));
  else {
    PetscCall(VecSet(x, 1.0));
    PetscCall(MatMult(A, x, b));
  }
  PetscCall(VecDestroy(&b0));

  /* solves */
  PetscCall(PetscMalloc2(repeat, &tset, repeat, &tsol));
  for (PetscInt k = 0; k < repeat; k++) {
    PetscLogDouble t0, t1, t2;
    PC             pc;

    PetscCall(KSPDestroy(&ksp));
    PetscCall(KSPCreate(comm, &ksp));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(KSPSetType(ksp, symmetric ? KSPCG : KSPGMRES));
    PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 10000));
    PetscCall(KSPSetFromOptions(ksp));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(VecSet(x, 0.0));
    PetscCall(Now(comm, &t0));
    PetscCall(PetscLogEventBegin(GPUPC_SolveSetup, ksp, 0, 0, 0));
    PetscCall(KSPSetUp(ksp));
    PetscCall(KSPSetUpOnBlocks(ksp));
    PetscCall(PetscLogEventEnd(GPUPC_SolveSetup, ksp, 0, 0, 0));
    PetscCall(Now(comm, &t1));
    PetscCall(PetscLogEventBegin(GPUPC_SolveSolve, ksp, 0, 0, 0));
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(PetscLogEventEnd(GPUPC_SolveSolve, ksp, 0, 0, 0));
    PetscCall(Now(comm, &t2));
    tset[k] = (PetscReal)(t1 - t0);
    tsol[k] = (PetscReal)(t2 - t1);
  }
  PetscCall(Median(repeat, tset, &s->setup_s));
  PetscCall(Median(repeat, tsol, &s->solve_s));
  PetscCall(PetscFree2(tset, tsol));
  if (reuse) { /* new values on the same pattern: PCSetUp with SAME_NONZERO_PATTERN on the last KSP */
    PetscLogDouble t0, t1, t2;
    PetscInt       its;

    PetscCall(MatScale(A, 1.5));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(VecSet(x, 0.0));
    PetscCall(Now(comm, &t0));
    PetscCall(KSPSetUp(ksp));
    PetscCall(KSPSetUpOnBlocks(ksp));
    PetscCall(Now(comm, &t1));
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(Now(comm, &t2));
    PetscCall(KSPGetIterationNumber(ksp, &its));
    PetscCall(PetscPrintf(comm, "gpupc-solve reuse: setup_s=%.4f solve_s=%.4f its=%" PetscInt_FMT "\n", (double)(t1 - t0), (double)(t2 - t1), its));
  }

  /* what happened */
  {
    KSPType kt;
    PCType  pt;
    PC      pc;
    PetscCall(KSPGetType(ksp, &kt));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCGetType(pc, &pt));
    PetscCall(PetscStrncpy(s->ksp, kt, sizeof(s->ksp)));
    PetscCall(PetscStrncpy(s->pc, pt ? pt : "none", sizeof(s->pc)));
  }
  PetscCall(KSPGetIterationNumber(ksp, &s->its));
  PetscCall(KSPGetConvergedReason(ksp, &s->reason));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rn));
  PetscCall(VecNorm(b, NORM_2, &bn));
  s->relres = bn > 0 ? rn / bn : rn;
  PetscCall(MatGetInfo(A, MAT_GLOBAL_SUM, &info));
  s->n   = N;
  s->nnz = (PetscInt64)info.nz_used;
  PetscCallMPI(MPI_Comm_size(comm, &s->ranks));
  { /* where GPUPC's kernels ran */
    PetscGPUPCBackend      backend;
    const GPUPCDeviceInfo *info;
    PetscCall(PetscGPUPCGetBackend(&backend));
    PetscCall(GPUPCDeviceGetInfo(&info));
    if (backend == PETSC_GPUPC_BACKEND_CUDA) PetscCall(PetscSNPrintf(s->backend, sizeof(s->backend), "cuda:%s", info->name));
    else PetscCall(PetscStrncpy(s->backend, "host", sizeof(s->backend)));
  }

  PetscCall(PetscOptionsGetViewer(comm, NULL, NULL, "-view_solution", &viewer, &format, &flg));
  if (flg) {
    PetscCall(PetscViewerPushFormat(viewer, format));
    PetscCall(VecView(x, viewer));
    PetscCall(PetscViewerPopFormat(viewer));
    PetscCall(PetscViewerDestroy(&viewer));
  }
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(0);
}

static const char help[] = "PC gpuamg's smoother registry (issue 35 item 3): every registered smoother, and one registered by this\n"
                           "test through the public PCGPUAMGSmootherRegister(), preconditions CG to rtol 1e-8 within -maxits on a\n"
                           "built-in problem; an unknown name, mcgs on several ranks and mcgs's transpose are refused with errors.\n"
                           "bjacobi: -ksp_view lists -bjacobi_bs (its block size per level, e.g. 3,6), its PCApplyTranspose equals\n"
                           "PCApply (symmetric A and blocks), and on a matrix of block size 1 CG takes as many iterations as with jacobi.\n"
                           "mcgs: its launch shapes (-pc_gpuamg_mcgs_block_nnz, -pc_gpuamg_mcgs_lanes) take the same iterations.\n"
                           "Options: -problem <poisson3d> -n <20000> -type <classical,agg> -smoothers <list> -maxits <30> -bjacobi_bs <bs,bs,...>\n";

#include <petscksp.h>
#include <unistd.h>
#include <gpupc/problems.h>

/* the test's own smoother, through the public interface only: x += (w / g) D^-1 (b - A x), g the Gershgorin bound of
   D^-1 A (>= lambda_max, so convergent for SPD A without an eigenvalue estimate) */
static PetscErrorCode UserSetUp(PCGPUAMGSmootherLevel *S)
{
  Vec *w;

  PetscFunctionBegin;
  PetscCall(PetscNew(&w));
  PetscCall(VecDuplicate(S->dinv, w));
  PetscCall(VecCopy(S->dinv, *w));
  S->omega = S->weight / S->gersh;
  PetscCall(VecScale(*w, S->omega));
  S->data = w;
  PetscFunctionReturn(0);
}

static PetscErrorCode UserApply(PCGPUAMGSmootherLevel *S, PetscBool transpose, PetscInt sweeps, PetscBool zero)
{
  Vec w = *(Vec *)S->data;

  PetscFunctionBegin;
  if (zero) PetscCall(VecSet(S->x, 0.0));
  for (PetscInt s = 0; s < sweeps; s++) {
    PetscCall(PCGPUAMGSmootherMult(S, transpose, S->x, S->r));
    PetscCall(VecAYPX(S->r, -1.0, S->b));       /* r = b - A x */
    PetscCall(VecPointwiseMult(S->r, w, S->r)); /* r = w .* r */
    PetscCall(VecAXPY(S->x, 1.0, S->r));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode UserView(PCGPUAMGSmootherLevel *S, PetscViewer v)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(v, "user: x += (%g / Gershgorin) D^-1 (b - A x)\n", (double)S->weight));
  PetscFunctionReturn(0);
}

static PetscErrorCode UserDestroy(PCGPUAMGSmootherLevel *S)
{
  PetscFunctionBegin;
  PetscCall(VecDestroy((Vec *)S->data));
  PetscCall(PetscFree(S->data));
  PetscFunctionReturn(0);
}

/* the set-up bjacobi smoother of pc: -ksp_view lists the block sizes bs (when given) and PCApplyTranspose equals PCApply
   (A and its diagonal blocks are symmetric) */
static PetscErrorCode CheckBJacobi(PC pc, Vec b, const char *bs)
{
  PetscViewer viewer;
  char       *text, want[128], *hit;
  size_t      len = 1 << 16;
  Vec         y, yt;
  PetscReal   ny, nd;

  PetscFunctionBegin;
  if (bs[0]) { /* the ASCII view (PC gpuamg views only to ASCII viewers) into a file of rank 0's process id, read back */
    int         pid = (int)getpid();
    char        name[PETSC_MAX_PATH_LEN];
    FILE       *f;
    PetscMPIInt rank;

    PetscCallMPI(MPI_Bcast(&pid, 1, MPI_INT, 0, PETSC_COMM_WORLD));
    PetscCall(PetscSNPrintf(name, sizeof(name), "/tmp/amg_smoothers_view_%d.txt", pid));
    PetscCall(PetscViewerASCIIOpen(PETSC_COMM_WORLD, name, &viewer));
    PetscCall(PCView(pc, viewer));
    PetscCall(PetscViewerDestroy(&viewer));
    PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
    if (rank == 0) {
      size_t got;
      PetscCall(PetscCalloc1(len, &text));
      f = fopen(name, "r");
      PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot read back the view in %s", name);
      got = fread(text, 1, len - 1, f);
      fclose(f);
      remove(name);
      text[got] = 0;
      PetscCall(PetscSNPrintf(want, sizeof(want), "gpubjacobi kernels): %s\n", bs));
      PetscCall(PetscStrstr(text, want, &hit));
      PetscCheck(hit, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the view of the bjacobi smoother does not list the block sizes per level \"%s\":\n%s", bs, text);
      PetscCall(PetscFree(text));
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bjacobi block size per level: %s (as expected)\n", bs));
  }
  PetscCall(VecDuplicate(b, &y));
  PetscCall(VecDuplicate(b, &yt));
  PetscCall(PCApply(pc, b, y));
  PetscCall(PCApplyTranspose(pc, b, yt));
  PetscCall(VecNorm(y, NORM_2, &ny));
  PetscCall(VecAXPY(yt, -1.0, y));
  PetscCall(VecNorm(yt, NORM_2, &nd));
  PetscCheck(nd <= 1e-10 * ny, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "bjacobi: |PCApplyTranspose b - PCApply b| = %g, |PCApply b| = %g; they should agree on a symmetric matrix", (double)nd, (double)ny);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bjacobi: PCApplyTranspose agrees with PCApply (relative difference %.1e)\n", (double)(nd / ny)));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&yt));
  PetscFunctionReturn(0);
}

/* a CG solver to rtol 1e-8 (unpreconditioned norm) with PC gpuamg of the type and smoother, then the options */
static PetscErrorCode CreateSolver(Mat A, PCGPUAMGType type, const char *smoother, PetscInt maxits, KSP *ksp)
{
  PC pc;

  PetscFunctionBegin;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, ksp));
  PetscCall(KSPSetOperators(*ksp, A, A));
  PetscCall(KSPSetType(*ksp, KSPCG));
  PetscCall(KSPSetTolerances(*ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, maxits));
  PetscCall(KSPSetNormType(*ksp, KSP_NORM_UNPRECONDITIONED));
  PetscCall(KSPGetPC(*ksp, &pc));
  PetscCall(PCSetType(pc, PCGPUAMG));
  PetscCall(PCGPUAMGSetType(pc, type));
  PetscCall(PCGPUAMGSetSmoother(pc, smoother));
  PetscCall(KSPSetFromOptions(*ksp));
  PetscFunctionReturn(0);
}

/* mcgs's launch shapes do the same arithmetic: every colour its own launch (-pc_gpuamg_mcgs_block_nnz 0), every
   colour inside one block (a large block_nnz), and a warp per row must all take the iterations its (and, on the host
   backend, where the kernels are the same loops, the same residual norm rnorm exactly) */
static PetscErrorCode CheckMCGSShapes(Mat A, Vec b, Vec x, PCGPUAMGType type, PetscInt maxits, PetscInt its, PetscReal rnorm)
{
  const char *shape[3][2] = {
    {"0", "0"},
    {"1000000000", "0"},
    {"8192", "32"}};
  PetscGPUPCBackend be;

  PetscFunctionBegin;
  PetscCall(PetscGPUPCGetBackend(&be));
  for (PetscInt k = 0; k < 3; k++) {
    KSP       ksp;
    PetscInt  it;
    PetscReal rn;

    if (k < 2) { /* through the options database; the last shape through the setter */
      PetscCall(PetscOptionsSetValue(NULL, "-pc_gpuamg_mcgs_block_nnz", shape[k][0]));
      PetscCall(PetscOptionsSetValue(NULL, "-pc_gpuamg_mcgs_lanes", shape[k][1]));
    }
    PetscCall(CreateSolver(A, type, "mcgs", maxits, &ksp));
    if (k == 2) {
      PC       pc;
      PetscInt bn, ln;

      PetscCall(KSPGetPC(ksp, &pc));
      PetscCall(PCGPUAMGSetMCGSTuning(pc, 8192, 32));
      PetscCall(PCGPUAMGGetMCGSTuning(pc, &bn, &ln));
      PetscCheck(bn == 8192 && ln == 32, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "PCGPUAMGGetMCGSTuning gave %" PetscInt_FMT ", %" PetscInt_FMT " after setting 8192, 32", bn, ln);
    }
    PetscCall(VecSet(x, 0.0));
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(KSPGetIterationNumber(ksp, &it));
    PetscCall(KSPGetResidualNorm(ksp, &rn));
    PetscCheck(it == its && (be != PETSC_GPUPC_BACKEND_HOST || rn == rnorm) && PetscAbsReal(rn - rnorm) <= 1e-3 * rnorm, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "mcgs with block_nnz %s, lanes %s: %" PetscInt_FMT " iterations, residual %.17g; the default shapes took %" PetscInt_FMT ", %.17g", shape[k][0], shape[k][1], it, (double)rn, its, (double)rnorm);
    PetscCall(KSPDestroy(&ksp));
  }
  PetscCall(PetscOptionsClearValue(NULL, "-pc_gpuamg_mcgs_block_nnz"));
  PetscCall(PetscOptionsClearValue(NULL, "-pc_gpuamg_mcgs_lanes"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "mcgs: every colour its own launch, all in one block, a warp per row: the same %" PetscInt_FMT " iterations\n", its));
  PetscFunctionReturn(0);
}

/* KSPSetUp (and with transpose a PCApplyTranspose) of gpuamg with the smoother must fail with error code expect */
static PetscErrorCode ExpectFailure(Mat A, Vec b, const char *smoother, PetscBool transpose, PetscErrorCode expect)
{
  KSP            ksp;
  PC             pc;
  Vec            y;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCGPUAMG));
  PetscCall(VecDuplicate(b, &y));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = PCGPUAMGSetSmoother(pc, smoother);
  if (!ierr) ierr = KSPSetUp(ksp);
  if (!ierr && transpose) ierr = PCApplyTranspose(pc, b, y);
  PetscCall(PetscPopErrorHandler());
  PetscCheck(ierr == expect, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "smoother %s%s: error %d, expected %d", smoother, transpose ? " (transpose)" : "", (int)ierr, (int)expect);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "refused as expected: smoother %s%s (error %d)\n", smoother, transpose ? ", PCApplyTranspose" : "", (int)ierr));
  PetscCall(VecDestroy(&y));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char                problem[64] = "poisson3d", *smoothers[16], bjbs[64] = "";
  const char         *all[] = {"jacobi", "l1jacobi", "chebyshev", "polynomial", "mcgs", "bjacobi", "user"};
  PetscInt            n = 20000, maxits = 30, ns = 16, its_jacobi = -1, its_bjacobi = -1, Abs;
  PCGPUAMGType        type = PC_GPUAMG_CLASSICAL;
  PetscBool           set;
  PetscMPIInt         size;
  Mat                 A;
  Vec                 b, x;
  PCGPUAMGSmootherOps ops = {UserSetUp, UserApply, UserView, UserDestroy, 2, PETSC_FALSE, PETSC_FALSE, PETSC_TRUE, PETSC_FALSE, PETSC_FALSE};

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-problem", problem, sizeof(problem), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-maxits", &maxits, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-bjacobi_bs", bjbs, sizeof(bjbs), NULL));
  for (char *c = bjbs; *c; c++)
    if (*c == ',') *c = ' '; /* "3,6" (one word in tests/TESTS): the view's "3 6" */
  PetscCall(PetscOptionsGetEnum(NULL, NULL, "-type", PCGPUAMGTypes, (PetscEnum *)&type, NULL));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-smoothers", smoothers, &ns, &set));
  if (!set) {
    ns = 0; /* every smoother; mcgs on one rank only */
    for (PetscInt k = 0; k < 7; k++)
      if (size == 1 || strcmp(all[k], "mcgs")) PetscCall(PetscStrallocpy(all[k], &smoothers[ns++]));
  }
  PetscCall(PCGPUAMGSmootherRegister("user", &ops));

  PetscCall(GPUPCProblemCreate(PETSC_COMM_WORLD, problem, n, 1, &A, &b));
  PetscCall(VecDuplicate(b, &x));
  for (PetscInt s = 0; s < ns; s++) {
    KSP                  ksp;
    PC                   pc;
    PetscInt             its, pre, post;
    KSPConvergedReason   reason;
    PCGPUAMGSmootherType got;

    PetscCall(CreateSolver(A, type, smoothers[s], maxits, &ksp));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCGPUAMGGetSmoother(pc, &got));
    PetscCheck(!strcmp(got, smoothers[s]), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "PCGPUAMGGetSmoother gave %s, set %s", got, smoothers[s]);
    PetscCall(PCGPUAMGGetSweeps(pc, &pre, &post));
    PetscCheck(strcmp(got, "user") || (pre == 2 && post == 2), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the user smoother's default sweeps are 2, the PC uses %" PetscInt_FMT " and %" PetscInt_FMT, pre, post);
    PetscCall(VecSet(x, 0.0));
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(KSPGetConvergedReason(ksp, &reason));
    PetscCall(KSPGetIterationNumber(ksp, &its));
    PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "smoother %s: CG did not converge in %" PetscInt_FMT " iterations (%s)", smoothers[s], maxits, KSPConvergedReasons[reason]);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s %s, smoother %-10s (sweeps %" PetscInt_FMT "+%" PetscInt_FMT "): CG %" PetscInt_FMT " iterations\n", problem, PCGPUAMGTypes[type], smoothers[s], pre, post, its));
    if (!strcmp(got, "jacobi")) its_jacobi = its;
    if (!strcmp(got, "mcgs")) {
      PetscReal rnorm;
      PetscCall(KSPGetResidualNorm(ksp, &rnorm));
      PetscCall(CheckMCGSShapes(A, b, x, type, maxits, its, rnorm));
    }
    if (!strcmp(got, "bjacobi")) {
      its_bjacobi = its;
      PetscCall(CheckBJacobi(pc, b, bjbs));
    }
    PetscCall(KSPDestroy(&ksp));
  }
  PetscCall(MatGetBlockSize(A, &Abs));
  if (Abs == 1 && its_jacobi >= 0 && its_bjacobi >= 0) {
    PetscCheck(its_jacobi == its_bjacobi, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "block size 1: bjacobi took %" PetscInt_FMT " CG iterations, jacobi %" PetscInt_FMT "; they are the same smoother there", its_bjacobi, its_jacobi);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "block size 1: bjacobi and jacobi take the same CG iterations\n"));
  }
  PetscCall(ExpectFailure(A, b, "no-such-smoother", PETSC_FALSE, PETSC_ERR_ARG_UNKNOWN_TYPE));
  PetscCall(ExpectFailure(A, b, "mcgs", (PetscBool)(size == 1), PETSC_ERR_SUP)); /* one rank: its transpose; several: setup */

  for (PetscInt s = 0; s < ns; s++) PetscCall(PetscFree(smoothers[s]));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

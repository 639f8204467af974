static const char help[] = "PC gpuamg's smoother registry (issue 35 item 3): every registered smoother, and one registered by this\n"
                           "test through the public PCGPUAMGSmootherRegister(), preconditions CG to rtol 1e-8 within -maxits on a\n"
                           "built-in problem; an unknown name, mcgs on several ranks and mcgs's transpose are refused with errors.\n"
                           "Options: -problem <poisson3d> -n <20000> -type <classical,agg> -smoothers <list> -maxits <30>\n";

#include <petscksp.h>
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
  char                problem[64] = "poisson3d", *smoothers[16];
  const char         *all[]       = {"jacobi", "l1jacobi", "chebyshev", "polynomial", "mcgs", "user"};
  PetscInt            n = 20000, maxits = 30, ns = 16;
  PCGPUAMGType        type = PC_GPUAMG_CLASSICAL;
  PetscBool           set;
  PetscMPIInt         size;
  Mat                 A;
  Vec                 b, x;
  PCGPUAMGSmootherOps ops = {UserSetUp, UserApply, UserView, UserDestroy, 2, PETSC_FALSE, PETSC_FALSE, PETSC_TRUE};

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-problem", problem, sizeof(problem), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-maxits", &maxits, NULL));
  PetscCall(PetscOptionsGetEnum(NULL, NULL, "-type", PCGPUAMGTypes, (PetscEnum *)&type, NULL));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-smoothers", smoothers, &ns, &set));
  if (!set) {
    ns = 0; /* every smoother; mcgs on one rank only */
    for (PetscInt k = 0; k < 6; k++)
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

    PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(KSPSetType(ksp, KSPCG));
    PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, maxits));
    PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCGPUAMG));
    PetscCall(PCGPUAMGSetType(pc, type));
    PetscCall(PCGPUAMGSetSmoother(pc, smoothers[s]));
    PetscCall(KSPSetFromOptions(ksp));
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
    PetscCall(KSPDestroy(&ksp));
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

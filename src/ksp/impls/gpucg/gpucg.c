/*
   KSP gpucg: creation, options, setters, view and destruction. The iteration is in gpucgsolve.c.
*/
#include <gpupc/gpucg.h>

const char *const KSPGPUCGTypes[] = {"classic", "pipelined", "KSPGPUCGType", "KSP_GPUCG_", NULL};

static PetscErrorCode KSPGPUCGSetType_GPUCG(KSP ksp, KSPGPUCGType type)
{
  KSP_GPUCG *cg = (KSP_GPUCG *)ksp->data;

  PetscFunctionBegin;
  cg->type = type;
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPGPUCGGetType_GPUCG(KSP ksp, KSPGPUCGType *type)
{
  PetscFunctionBegin;
  *type = ((KSP_GPUCG *)ksp->data)->type;
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPGPUCGGetStatistics_GPUCG(KSP ksp, PetscBool *fused, PetscInt *its, PetscInt64 *waits, PetscInt64 *launches)
{
  KSP_GPUCG *cg = (KSP_GPUCG *)ksp->data;

  PetscFunctionBegin;
  if (fused) *fused = cg->fused;
  if (its) *its = cg->its;
  if (waits) *waits = cg->waits;
  if (launches) *launches = cg->launches;
  PetscFunctionReturn(0);
}

/*@
   KSPGPUCGSetType - chooses the form of CG that KSP gpucg runs

   Logically Collective

   Input Parameters:
+  ksp - the KSP of type gpucg (other types ignore the call)
-  type - KSP_GPUCG_CLASSIC (default) or KSP_GPUCG_PIPELINED

   Options Database Key:
.  -ksp_gpucg_type <classic,pipelined> - the form

   Notes:
   Both forms give the iterates of KSPCG up to rounding. Pipelined hides the reduction behind the preconditioner and the
   product (and, on several ranks, the MPI_Allreduce behind the product) at the cost of four more vectors and of a
   recurrence that loses a little more accuracy on ill-conditioned problems.

   Level: intermediate

.seealso: KSPGPUCG, KSPGPUCGGetType(), KSPGPUCGType
@*/
PetscErrorCode KSPGPUCGSetType(KSP ksp, KSPGPUCGType type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(ksp, type, 2);
  PetscTryMethod(ksp, "KSPGPUCGSetType_C", (KSP, KSPGPUCGType), (ksp, type));
  PetscFunctionReturn(0);
}

/*@
   KSPGPUCGGetType - the form of CG that KSP gpucg runs

   Not Collective

   Input Parameter:
.  ksp - the KSP of type gpucg

   Output Parameter:
.  type - KSP_GPUCG_CLASSIC or KSP_GPUCG_PIPELINED

   Level: intermediate

.seealso: KSPGPUCG, KSPGPUCGSetType()
@*/
PetscErrorCode KSPGPUCGGetType(KSP ksp, KSPGPUCGType *type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidPointer(type, 2);
  PetscUseMethod(ksp, "KSPGPUCGGetType_C", (KSP, KSPGPUCGType *), (ksp, type));
  PetscFunctionReturn(0);
}

/*@
   KSPGPUCGGetStatistics - what the last KSPSolve() of a gpucg KSP did

   Not Collective

   Input Parameter:
.  ksp - the KSP of type gpucg

   Output Parameters (each may be NULL):
+  fused - whether it ran the fused kernels (the vectors were GPUPC gpu vectors) or ordinary Vec operations
.  its - its iterations
.  waits - the host waits for the device that gpucg itself issued (one per reduction; the operator and the
           preconditioner may add their own)
-  launches - the kernel launches that gpucg itself issued (its vector updates and reductions)

   Level: advanced

.seealso: KSPGPUCG
@*/
PetscErrorCode KSPGPUCGGetStatistics(KSP ksp, PetscBool *fused, PetscInt *its, PetscInt64 *waits, PetscInt64 *launches)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscUseMethod(ksp, "KSPGPUCGGetStatistics_C", (KSP, PetscBool *, PetscInt *, PetscInt64 *, PetscInt64 *), (ksp, fused, its, waits, launches));
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPSetFromOptions_GPUCG(KSP ksp, PetscOptionItems *PetscOptionsObject)
{
  KSP_GPUCG *cg = (KSP_GPUCG *)ksp->data;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "KSP gpucg options");
  PetscCall(PetscOptionsEnum("-ksp_gpucg_type", "classic (single-reduction) or pipelined (reduction overlapped with the preconditioner and the product)", "KSPGPUCGSetType", KSPGPUCGTypes, (PetscEnum)cg->type, (PetscEnum *)&cg->type, NULL));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPView_GPUCG(KSP ksp, PetscViewer viewer)
{
  KSP_GPUCG *cg = (KSP_GPUCG *)ksp->data;
  PetscBool  iascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(0);
  PetscCall(PetscViewerASCIIPrintf(viewer, "  variant: %s (%s)\n", KSPGPUCGTypes[cg->type], cg->type == KSP_GPUCG_CLASSIC ? "Chronopoulos-Gear single reduction" : "Ghysels-Vanroose pipelined, reduction overlapped with PC and product"));
  if (!cg->solved) PetscFunctionReturn(0);
  if (cg->fused) {
    const PetscReal per = 1.0 / (PetscReal)PetscMax(cg->its, 1);

    PetscCall(PetscViewerASCIIPrintf(viewer, "  last solve: fused kernels on gpu vectors, %" PetscInt_FMT " iterations\n", cg->its));
    PetscCall(PetscViewerASCIIPrintf(viewer, "    host waits per iteration: %.2f, kernel launches per iteration: %.2f (gpucg's own; the operator and PC add theirs)\n", (double)(cg->waits * per), (double)(cg->launches * per)));
    PetscCall(PetscViewerASCIIPrintf(viewer, "    iteration not recorded as a CUDA graph (step lengths are kernel arguments computed on the host after the wait)\n"));
  } else {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  last solve: vectors not GPUPC gpu vectors, ordinary Vec operations (one split-phase reduction per iteration), %" PetscInt_FMT " iterations\n", cg->its));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPReset_GPUCG(KSP ksp)
{
  KSP_GPUCG *cg = (KSP_GPUCG *)ksp->data;

  PetscFunctionBegin;
  PetscCall(GPUPCFree(cg->work));
  PetscCall(GPUPCHostFree(cg->val, cg->valpinned));
  cg->work      = NULL;
  cg->val       = NULL;
  cg->valpinned = PETSC_FALSE;
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPDestroy_GPUCG(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPReset_GPUCG(ksp));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPGPUCGSetType_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPGPUCGGetType_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPGPUCGGetStatistics_C", NULL));
  PetscCall(KSPDestroyDefault(ksp));
  PetscFunctionReturn(0);
}

/* the work vectors are made in KSPSolve_GPUCG, where the variant is final */
static PetscErrorCode KSPSetUp_GPUCG(KSP ksp)
{
  PetscFunctionBegin;
  PetscFunctionReturn(0);
}

/*MC
   KSPGPUCG - KSPGPUCG = "gpucg" - preconditioned conjugate gradients whose vector work runs as a few fused device
   kernels, with one host wait for the device per iteration

   Options Database Key:
.  -ksp_gpucg_type <classic,pipelined> - the form of CG (KSPGPUCGSetType())

   Notes:
   For symmetric positive definite operators and preconditioners, as KSPCG. The iterates are KSPCG's up to rounding,
   with the same norm types (preconditioned, the default; unpreconditioned; natural; none), monitors, convergence
   tests and nonzero initial guesses. Each iteration applies the preconditioner, the operator, one fused update kernel
   and one fused reduction of (r,u), (w,u), (u,u) and (r,r) (u = B r, w = A u), whose result the host waits for once:
   KSPCG waits for the device at each of its two dot products and its norm.

   classic is Chronopoulos and Gear's single-reduction CG; pipelined is Ghysels and Vanroose's pipelined CG, whose
   update kernel also computes the next reduction and which waits for it only after the preconditioner and the
   product have been issued (on several ranks, the MPI_Iallreduce runs during the product).

   When the solution and right-hand side are not GPUPC gpu vectors (-vec_type gpu), the same iteration runs with
   ordinary Vec operations and one split-phase reduction per iteration (-info says so).

   Level: intermediate

.seealso: KSPCG, KSPPIPECG, KSPGPUCGSetType(), KSPGPUCGGetStatistics()
M*/
PETSC_INTERN PetscErrorCode KSPCreate_GPUCG(KSP ksp)
{
  KSP_GPUCG *cg;

  PetscFunctionBegin;
  PetscCall(PetscNew(&cg));
  cg->type  = KSP_GPUCG_CLASSIC;
  ksp->data = cg;
  /* KSPCG's norms and priorities */
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_PRECONDITIONED, PC_LEFT, 3));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_UNPRECONDITIONED, PC_LEFT, 2));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NATURAL, PC_LEFT, 2));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NONE, PC_LEFT, 1));
  ksp->ops->setup          = KSPSetUp_GPUCG;
  ksp->ops->solve          = KSPSolve_GPUCG;
  ksp->ops->destroy        = KSPDestroy_GPUCG;
  ksp->ops->reset          = KSPReset_GPUCG;
  ksp->ops->view           = KSPView_GPUCG;
  ksp->ops->setfromoptions = KSPSetFromOptions_GPUCG;
  ksp->ops->buildsolution  = KSPBuildSolutionDefault;
  ksp->ops->buildresidual  = KSPBuildResidualDefault;
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPGPUCGSetType_C", KSPGPUCGSetType_GPUCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPGPUCGGetType_C", KSPGPUCGGetType_GPUCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPGPUCGGetStatistics_C", KSPGPUCGGetStatistics_GPUCG));
  PetscFunctionReturn(0);
}

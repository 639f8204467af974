/*
   The registry of PC gpuamg's smoothers: a name and a PCGPUAMGSmootherOps each. The built-in ones (jacobi, l1jacobi,
   chebyshev, polynomial) are registered at the first use; users add theirs with PCGPUAMGSmootherRegister() and choose
   them with -pc_gpuamg_smoother <name> or PCGPUAMGSetSmoother().
*/
#include <gpupc/amgcycle.h>

#define GPUPC_AMG_MAX_SMOOTHERS 32

static PetscInt            nregistered = 0;
static char                names[GPUPC_AMG_MAX_SMOOTHERS][64];
static const char         *namelist[GPUPC_AMG_MAX_SMOOTHERS + 1];
static PCGPUAMGSmootherOps registry[GPUPC_AMG_MAX_SMOOTHERS];
static PetscBool           builtin = PETSC_FALSE;

/* the built-in smoothers, once (before any other, so a user may replace one of them) */
static PetscErrorCode EnsureBuiltin(void)
{
  PetscFunctionBegin;
  if (!builtin) {
    builtin = PETSC_TRUE;
    PetscCall(GPUPCAMGSmootherRegisterBuiltin());
  }
  PetscFunctionReturn(0);
}

/*@C
   PCGPUAMGSmootherRegister - adds a smoother to PC gpuamg's registry (or replaces the one of that name)

   Not Collective

   Input Parameters:
+  name - its name (for -pc_gpuamg_smoother and PCGPUAMGSetSmoother())
-  ops - its operations (copied): setup, apply, view, destroy, default sweeps, and whether it needs the eigenvalue
         bound lambda of D^-1 A, the host graph of A (one rank only) and whether apply can transpose

   Notes:
   apply gets a PCGPUAMGSmootherLevel whose b, x and r are gpu Vecs of the level; it must leave the smoothed iterate in
   x and reach A through MatMult()/MatMultTranspose() or PCGPUAMGSmootherMult() (which counts the bytes of the cycle).

   Level: advanced

.seealso: PCGPUAMG, PCGPUAMGSetSmoother(), PCGPUAMGSmootherOps, PCGPUAMGSmootherLevel
@*/
PetscErrorCode PCGPUAMGSmootherRegister(const char name[], const PCGPUAMGSmootherOps *ops)
{
  PetscInt k;

  PetscFunctionBegin;
  PetscValidCharPointer(name, 1);
  PetscValidPointer(ops, 2);
  PetscCheck(ops->setup && ops->apply, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "PCGPUAMGSmootherRegister(%s): setup and apply are required", name);
  PetscCheck(ops->default_sweeps >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "PCGPUAMGSmootherRegister(%s): default sweeps %" PetscInt_FMT " must be >= 1", name, ops->default_sweeps);
  PetscCheck(strlen(name) > 0 && strlen(name) < sizeof(names[0]), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "PCGPUAMGSmootherRegister: the name must have 1 to %d characters", (int)sizeof(names[0]) - 1);
  PetscCall(EnsureBuiltin());
  for (k = 0; k < nregistered; k++)
    if (!strcmp(names[k], name)) break;
  PetscCheck(k < GPUPC_AMG_MAX_SMOOTHERS, PETSC_COMM_SELF, PETSC_ERR_SUP, "PCGPUAMGSmootherRegister(%s): the registry holds at most %d smoothers", name, GPUPC_AMG_MAX_SMOOTHERS);
  PetscCall(PetscStrncpy(names[k], name, sizeof(names[k])));
  registry[k] = *ops;
  if (k == nregistered) nregistered++;
  for (PetscInt i = 0; i < nregistered; i++) namelist[i] = names[i];
  namelist[nregistered] = NULL;
  PetscFunctionReturn(0);
}

/* jacobi, l1jacobi (amgsmootherjacobi.c), chebyshev, polynomial (amgsmootherchebyshev.c), mcgs (amgsmoothermcgs.c), bjacobi
   (amgsmootherbjacobi.c) */
PetscErrorCode GPUPCAMGSmootherRegisterBuiltin(void)
{
  PetscFunctionBegin;
  PetscCall(PCGPUAMGSmootherRegister(PCGPUAMGSMOOTHERJACOBI, &GPUPCAMGSmootherOpsJacobi));
  PetscCall(PCGPUAMGSmootherRegister(PCGPUAMGSMOOTHERL1JACOBI, &GPUPCAMGSmootherOpsL1Jacobi));
  PetscCall(PCGPUAMGSmootherRegister(PCGPUAMGSMOOTHERCHEBYSHEV, &GPUPCAMGSmootherOpsChebyshev));
  PetscCall(PCGPUAMGSmootherRegister(PCGPUAMGSMOOTHERPOLYNOMIAL, &GPUPCAMGSmootherOpsPolynomial));
  PetscCall(PCGPUAMGSmootherRegister(PCGPUAMGSMOOTHERMCGS, &GPUPCAMGSmootherOpsMCGS));
  PetscCall(PCGPUAMGSmootherRegister(PCGPUAMGSMOOTHERBJACOBI, &GPUPCAMGSmootherOpsBJacobi));
  PetscFunctionReturn(0);
}

/* the operations of the smoother called name; *found false when there is none */
PetscErrorCode GPUPCAMGSmootherFind(const char name[], PCGPUAMGSmootherOps *ops, PetscBool *found)
{
  PetscFunctionBegin;
  PetscCall(EnsureBuiltin());
  *found = PETSC_FALSE;
  for (PetscInt k = 0; k < nregistered; k++)
    if (!strcmp(names[k], name)) {
      if (ops) *ops = registry[k];
      *found = PETSC_TRUE;
    }
  PetscFunctionReturn(0);
}

/* the registered names (for -help) */
PetscErrorCode GPUPCAMGSmootherNames(PetscInt *n, const char *const **list)
{
  PetscFunctionBegin;
  PetscCall(EnsureBuiltin());
  *n    = nregistered;
  *list = namelist;
  PetscFunctionReturn(0);
}

/*
   The list of built-in problems and the entry point GPUPCProblemCreate().
*/
#include "problemimpl.h"

PetscLogEvent    GPUPC_ProblemGenerate, GPUPC_MatLoadMM, GPUPC_MatLoadNetlist, GPUPC_Distribute;
static PetscBool events_registered = PETSC_FALSE;

static PetscErrorCode GPUPCProblemsFinalize(void)
{
  PetscFunctionBegin;
  events_registered = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* registers the log events of the generators and readers at first use */
PetscErrorCode GPUPCProblemsRegisterEvents(void)
{
  PetscClassId id;

  PetscFunctionBegin;
  if (events_registered) PetscFunctionReturn(0);
  events_registered = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("GPUPCProblems", &id));
  PetscCall(PetscLogEventRegister("GPUPCProbGen", id, &GPUPC_ProblemGenerate));
  PetscCall(PetscLogEventRegister("GPUPCLoadMM", id, &GPUPC_MatLoadMM));
  PetscCall(PetscLogEventRegister("GPUPCLoadNetlist", id, &GPUPC_MatLoadNetlist));
  PetscCall(PetscLogEventRegister("GPUPCDistribute", id, &GPUPC_Distribute));
  PetscCall(PetscRegisterFinalize(GPUPCProblemsFinalize));
  PetscFunctionReturn(0);
}

/* The one list of built-in problems: name, symmetric, sdd, spd. sdd: symmetric diagonally dominant with
   non-positive off-diagonals (what CMG accepts). The info table, the name array of GPUPCProblemList() and every
   list printed (-help of gpupc-solve and the benchmarks, the unknown-problem error) come from it. */
#define GPUPC_PROBLEM_LIST(X)                          \
  X(poisson2d, PETSC_TRUE, PETSC_TRUE, PETSC_TRUE)     \
  X(poisson3d, PETSC_TRUE, PETSC_TRUE, PETSC_TRUE)     \
  X(poisson3d27, PETSC_TRUE, PETSC_TRUE, PETSC_TRUE)   \
  X(aniso2d, PETSC_TRUE, PETSC_TRUE, PETSC_TRUE)       \
  X(jump3d, PETSC_TRUE, PETSC_TRUE, PETSC_TRUE)        \
  X(randcoef3d, PETSC_TRUE, PETSC_TRUE, PETSC_TRUE)    \
  X(powergrid, PETSC_TRUE, PETSC_TRUE, PETSC_TRUE)     \
  X(graphlap, PETSC_TRUE, PETSC_TRUE, PETSC_TRUE)      \
  X(elasticity3d, PETSC_TRUE, PETSC_FALSE, PETSC_TRUE) \
  X(convdiff2d, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE) \
  X(convdiff3d, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE)

typedef struct {
  const char *name;
  PetscBool   symmetric, sdd, spd;
} ProblemInfo;

#define GPUPC_PROBLEM_INFO(name, sym, sdd, spd) {#name, sym, sdd, spd},
#define GPUPC_PROBLEM_NAME(name, sym, sdd, spd) #name,
static const ProblemInfo problems[]      = {GPUPC_PROBLEM_LIST(GPUPC_PROBLEM_INFO)};
static const char *const problem_names[] = {GPUPC_PROBLEM_LIST(GPUPC_PROBLEM_NAME)};
#define NPROBLEMS ((PetscInt)(sizeof(problems) / sizeof(problems[0])))

/*@C
   GPUPCProblemList - the names of the built-in problems

   Not Collective

   Output Parameters:
+  names - array of names (static storage; do not free)
-  n - how many

   Level: beginner

.seealso: GPUPCProblemCreate(), GPUPCProblemGetInfo(), GPUPCProblemListString()
@*/
PetscErrorCode GPUPCProblemList(const char *const **names, PetscInt *n)
{
  PetscFunctionBegin;
  if (names) *names = problem_names;
  if (n) *n = NPROBLEMS;
  PetscFunctionReturn(0);
}

/*@C
   GPUPCProblemListString - the names of the built-in problems in one string, separated by blanks (for help texts
   and error messages, so that no list of names is written by hand)

   Not Collective

   Input Parameter:
.  len - size of list

   Output Parameter:
.  list - the names; an error if they do not fit

   Level: developer

.seealso: GPUPCProblemList(), GPUPCProblemOptionsString()
@*/
PetscErrorCode GPUPCProblemListString(char list[], size_t len)
{
  size_t used = 0;

  PetscFunctionBegin;
  PetscCheck(len > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "GPUPCProblemListString: empty buffer");
  list[0] = 0;
  for (PetscInt i = 0; i < NPROBLEMS; i++) {
    size_t l;
    PetscCall(PetscStrlen(problem_names[i], &l));
    PetscCheck(used + l + 2 <= len, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "GPUPCProblemListString: %zu bytes do not hold the names of the built-in problems", len);
    if (i) PetscCall(PetscStrlcat(list, " ", len));
    PetscCall(PetscStrlcat(list, problem_names[i], len));
    used += l + (i ? 1 : 0);
  }
  PetscFunctionReturn(0);
}

/*@C
   GPUPCProblemOptionsString - reads a string option that names built-in problems, in an options block of its own, so
   that -help prints it with the list of built-in problems (the benchmarks' -problem and -problems)

   Collective

   Input Parameters:
+  comm - the communicator
.  opt - the option, e.g. "-problem"
.  text - what the option is; -help prints it followed by the names of the built-in problems
-  len - size of value

   Input/Output Parameter:
.  value - the default on input, the option's value on output

   Level: developer

.seealso: GPUPCProblemListString(), GPUPCProblemCreate()
@*/
PetscErrorCode GPUPCProblemOptionsString(MPI_Comm comm, const char opt[], const char text[], char value[], size_t len)
{
  char list[512], help[1024];

  PetscFunctionBegin;
  PetscCall(GPUPCProblemListString(list, sizeof(list)));
  PetscCall(PetscSNPrintf(help, sizeof(help), "%s; built-in problems: %s", text, list));
  PetscOptionsBegin(comm, NULL, "Built-in problems (src/problems)", "GPUPCProblemCreate");
  PetscCall(PetscOptionsString(opt, help, "GPUPCProblemCreate", value, value, len, NULL));
  PetscOptionsEnd();
  PetscFunctionReturn(0);
}

static PetscErrorCode UnknownProblem(MPI_Comm comm, const char name[])
{
  char list[512];

  PetscFunctionBegin;
  PetscCall(GPUPCProblemListString(list, sizeof(list)));
  SETERRQ(comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown problem \"%s\"; the built-in problems are: %s", name, list);
}

/*@C
   GPUPCProblemGetInfo - what is known about a built-in problem's matrix

   Not Collective

   Input Parameter:
.  name - the problem name

   Output Parameters (any may be NULL):
+  symmetric - the matrix is symmetric
.  sdd - symmetric, diagonally dominant (strictly in some rows) with non-positive off-diagonal
   entries, i.e. a grounded graph Laplacian, the class CMG solves
-  spd - symmetric positive definite

   Level: beginner

.seealso: GPUPCProblemCreate()
@*/
PetscErrorCode GPUPCProblemGetInfo(const char name[], PetscBool *symmetric, PetscBool *sdd, PetscBool *spd)
{
  PetscBool match;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < NPROBLEMS; i++) {
    PetscCall(PetscStrcmp(name, problems[i].name, &match));
    if (!match) continue;
    if (symmetric) *symmetric = problems[i].symmetric;
    if (sdd) *sdd = problems[i].sdd;
    if (spd) *spd = problems[i].spd;
    PetscFunctionReturn(0);
  }
  PetscCall(UnknownProblem(PETSC_COMM_SELF, name));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCProblemCreate - generates a built-in test problem, in parallel

   Collective

   Input Parameters:
+  comm - the communicator
.  name - a built-in problem: one of the names of GPUPCProblemList() (gpupc-solve -help lists them; docs/solve.md
          describes them)
.  n - target number of rows; each problem picks the grid closest to it (the actual size is
       MatGetSize())
-  seed - seed of the pseudo-random parts (coefficients, weights, loads)

   Output Parameters:
+  A - the matrix, MATAIJ then MatSetFromOptions() (so -mat_type applies), rows split by PETSc
-  b - a right-hand side from MatCreateVecs() (pass NULL if not needed)

   Options Database Keys:
+  -problem_aniso_eps <1e-3> - aniso2d: the weak direction's coefficient
.  -problem_jump <1e6> - jump3d: coefficient ratio between the regions
.  -problem_jump_blocks <4> - jump3d: regions per direction
.  -problem_randcoef_orders <6> - randcoef3d: edge weights 10^(orders * u), u uniform in [0,1)
.  -problem_convdiff_peclet <100> - convdiff: cell Peclet number times n (upwinded)
.  -problem_powergrid_layers <4> - powergrid: metal layers
.  -problem_powergrid_pad_pitch <4> - powergrid: a pad every so many top-layer nodes
-  -problem_graphlap_degree <3> - graphlap: points per cell (mean degree about 3.1 times it)

   Notes:
   Every rank generates its own rows only; pseudo-random numbers are a hash of (seed, global
   index), so the problem does not depend on the number of ranks. Grid problems use
   Dirichlet boundaries eliminated from the system, so they are nonsingular.
   b: powergrid has its physical right-hand side (pad injections minus sink currents);
   the others get hash-random entries in [-1, 1).

   Level: beginner

.seealso: GPUPCProblemGetInfo(), GPUPCProblemList(), GPUPCMatLoadNetlist()
@*/
PetscErrorCode GPUPCProblemCreate(MPI_Comm comm, const char name[], PetscInt n, PetscInt seed, Mat *A, Vec *b)
{
  PetscBool match;
  Vec       bb = NULL;

  PetscFunctionBegin;
  PetscCheck(n > 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "Problem size n = %" PetscInt_FMT " must be positive (-n <rows>)", n);
  PetscCall(GPUPCProblemsRegisterEvents());
  PetscCall(GPUPCProblemGetInfo(name, NULL, NULL, NULL));
  PetscCall(PetscLogEventBegin(GPUPC_ProblemGenerate, 0, 0, 0, 0));
  PetscCall(PetscStrcmp(name, "powergrid", &match));
  if (match) PetscCall(GPUPCProblemCreate_PowerGrid(comm, n, seed, A, &bb));
  else {
    PetscCall(PetscStrcmp(name, "graphlap", &match));
    if (match) PetscCall(GPUPCProblemCreate_GraphLap(comm, n, seed, A, &bb));
    else {
      PetscCall(PetscStrcmp(name, "elasticity3d", &match));
      if (match) PetscCall(GPUPCProblemCreate_Elasticity(comm, n, seed, A, &bb));
      else PetscCall(GPUPCProblemCreate_Stencil(comm, name, n, seed, A, &bb));
    }
  }
  PetscCall(PetscObjectSetName((PetscObject)*A, name));
  PetscCall(PetscLogEventEnd(GPUPC_ProblemGenerate, 0, 0, 0, 0));
  if (b) *b = bb;
  else PetscCall(VecDestroy(&bb));
  PetscFunctionReturn(0);
}

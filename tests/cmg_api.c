static const char help[] = "PC cmg configured entirely from C (the PCCMGSet... functions, no cmg option in the database) against a second KSP\n"
                           "configured with the same values through the options database (prefix b_). Checks: every getter returns what its\n"
                           "setter set; the options give the same values as the setters; on a PC of another type the setters are no-ops\n"
                           "and the getters errors; PetscGPUPCSetHaloPeer's getter; bad values are refused with an error naming the function and the option; the two\n"
                           "KSPs build the same hierarchy and take the same iterations; after setup a new value of a hierarchy setting\n"
                           "gives a fresh setup and an unchanged value or an output-only setting keeps it; device memory returned.\n"
                           "(see cmgtest.h for -problem, -ground, -dim, -n, -spread)\n"
                           "  -single : solve in single precision with csr level matrices (one rank) instead of double with segcsr\n";

#include <petscksp.h>
#include <petscgpupc.h>
#include "cmgtest.h"

/* the value of every -pc_cmg_ option */
typedef struct {
  PetscBool          check_symmetry, dirichlet_rows, monitor, cluster_order, graph;
  PetscReal          symmetry_tol, dominance_tol;
  PCCMGPositiveMode  positive;
  PetscInt           direct_size, max_levels, repeat, repeat_max, fuse_nnz, pack_nnz, threads;
  PCCMGPrecision     prec;
  PCCMGMatType       mattype;
  PCCMGSetupLocation setup;
} Settings;

static PetscErrorCode SetAll(PC pc, const Settings *s)
{
  PetscFunctionBegin;
  PetscCall(PCCMGSetCheckSymmetry(pc, s->check_symmetry));
  PetscCall(PCCMGSetSymmetryTolerance(pc, s->symmetry_tol));
  PetscCall(PCCMGSetDirichletRows(pc, s->dirichlet_rows));
  PetscCall(PCCMGSetDominanceTolerance(pc, s->dominance_tol));
  PetscCall(PCCMGSetPositiveOffDiagonal(pc, s->positive));
  PetscCall(PCCMGSetDirectSize(pc, s->direct_size));
  PetscCall(PCCMGSetMaxLevels(pc, s->max_levels));
  PetscCall(PCCMGSetRepeat(pc, s->repeat));
  PetscCall(PCCMGSetRepeatMax(pc, s->repeat_max));
  PetscCall(PCCMGSetFuseNnz(pc, s->fuse_nnz));
  PetscCall(PCCMGSetPackNnz(pc, s->pack_nnz));
  PetscCall(PCCMGSetPrecision(pc, s->prec));
  PetscCall(PCCMGSetUseGraph(pc, s->graph));
  PetscCall(PCCMGSetMatType(pc, s->mattype));
  PetscCall(PCCMGSetMonitor(pc, s->monitor));
  PetscCall(PCCMGSetClusterOrder(pc, s->cluster_order));
  PetscCall(PCCMGSetSetupThreads(pc, s->threads));
  PetscCall(PCCMGSetSetupLocation(pc, s->setup));
  PetscFunctionReturn(0);
}

static PetscErrorCode GetAll(PC pc, Settings *s)
{
  PetscFunctionBegin;
  PetscCall(PCCMGGetCheckSymmetry(pc, &s->check_symmetry));
  PetscCall(PCCMGGetSymmetryTolerance(pc, &s->symmetry_tol));
  PetscCall(PCCMGGetDirichletRows(pc, &s->dirichlet_rows));
  PetscCall(PCCMGGetDominanceTolerance(pc, &s->dominance_tol));
  PetscCall(PCCMGGetPositiveOffDiagonal(pc, &s->positive));
  PetscCall(PCCMGGetDirectSize(pc, &s->direct_size));
  PetscCall(PCCMGGetMaxLevels(pc, &s->max_levels));
  PetscCall(PCCMGGetRepeat(pc, &s->repeat));
  PetscCall(PCCMGGetRepeatMax(pc, &s->repeat_max));
  PetscCall(PCCMGGetFuseNnz(pc, &s->fuse_nnz));
  PetscCall(PCCMGGetPackNnz(pc, &s->pack_nnz));
  PetscCall(PCCMGGetPrecision(pc, &s->prec));
  PetscCall(PCCMGGetUseGraph(pc, &s->graph));
  PetscCall(PCCMGGetMatType(pc, &s->mattype));
  PetscCall(PCCMGGetMonitor(pc, &s->monitor));
  PetscCall(PCCMGGetClusterOrder(pc, &s->cluster_order));
  PetscCall(PCCMGGetSetupThreads(pc, &s->threads));
  PetscCall(PCCMGGetSetupLocation(pc, &s->setup));
  PetscFunctionReturn(0);
}

/* every field of got equals want; the error names the first that differs */
static PetscErrorCode CheckSettings(const Settings *got, const Settings *want, const char *what)
{
  PetscFunctionBegin;
#define CHECK_FIELD(f) PetscCheck(got->f == want->f, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %s is %g, expected %g", what, #f, (double)got->f, (double)want->f)
  CHECK_FIELD(check_symmetry);
  CHECK_FIELD(symmetry_tol);
  CHECK_FIELD(dirichlet_rows);
  CHECK_FIELD(dominance_tol);
  CHECK_FIELD(positive);
  CHECK_FIELD(direct_size);
  CHECK_FIELD(max_levels);
  CHECK_FIELD(repeat);
  CHECK_FIELD(repeat_max);
  CHECK_FIELD(fuse_nnz);
  CHECK_FIELD(pack_nnz);
  CHECK_FIELD(prec);
  CHECK_FIELD(graph);
  CHECK_FIELD(mattype);
  CHECK_FIELD(monitor);
  CHECK_FIELD(cluster_order);
  CHECK_FIELD(threads);
  CHECK_FIELD(setup);
#undef CHECK_FIELD
  PetscFunctionReturn(0);
}

/* the same values as options of the given prefix */
static PetscErrorCode SetOptions(const char *prefix, const Settings *s)
{
  char name[128], value[64];

  PetscFunctionBegin;
#define SET_OPTION(opt, fmt, v)                                                \
  do {                                                                         \
    PetscCall(PetscSNPrintf(name, sizeof(name), "-%spc_cmg_%s", prefix, opt)); \
    PetscCall(PetscSNPrintf(value, sizeof(value), fmt, v));                    \
    PetscCall(PetscOptionsSetValue(NULL, name, value));                        \
  } while (0)
  SET_OPTION("check_symmetry", "%s", PetscBools[s->check_symmetry]);
  SET_OPTION("symmetry_tol", "%.17g", (double)s->symmetry_tol);
  SET_OPTION("dirichlet_rows", "%s", PetscBools[s->dirichlet_rows]);
  SET_OPTION("dominance_tol", "%.17g", (double)s->dominance_tol);
  SET_OPTION("positive_offdiag", "%s", PCCMGPositiveModes[s->positive]);
  SET_OPTION("direct_size", "%" PetscInt_FMT, s->direct_size);
  SET_OPTION("max_levels", "%" PetscInt_FMT, s->max_levels);
  SET_OPTION("repeat", "%" PetscInt_FMT, s->repeat);
  SET_OPTION("repeat_max", "%" PetscInt_FMT, s->repeat_max);
  SET_OPTION("fuse_nnz", "%" PetscInt_FMT, s->fuse_nnz);
  SET_OPTION("pack_nnz", "%" PetscInt_FMT, s->pack_nnz);
  SET_OPTION("precision", "%s", PCCMGPrecisions[s->prec]);
  SET_OPTION("graph", "%s", PetscBools[s->graph]);
  SET_OPTION("mat_type", "%s", PCCMGMatTypes[s->mattype]);
  SET_OPTION("monitor", "%s", PetscBools[s->monitor]);
  SET_OPTION("cluster_order", "%s", PetscBools[s->cluster_order]);
  SET_OPTION("setup_threads", "%" PetscInt_FMT, s->threads);
  SET_OPTION("setup", "%s", PCCMGSetupLocations[s->setup]);
#undef SET_OPTION
  PetscFunctionReturn(0);
}

/* call must fail (a PETSc error, not printed) with a message that contains expect */
#define ExpectError(comm, call, expect, what)                                                                                           \
  do {                                                                                                                                  \
    PetscErrorCode ierr_;                                                                                                               \
    const char    *text_;                                                                                                               \
    char          *msg_ = NULL, *found_ = NULL;                                                                                         \
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));                                                                    \
    ierr_ = (call);                                                                                                                     \
    PetscCall(PetscPopErrorHandler());                                                                                                  \
    PetscCheck(ierr_, comm, PETSC_ERR_PLIB, "%s was accepted, expected an error", what);                                                \
    PetscCall(PetscErrorMessage(ierr_, &text_, &msg_));                                                                                 \
    PetscCall(PetscStrstr(msg_ ? msg_ : "", (expect), &found_));                                                                        \
    PetscCheck(found_, comm, PETSC_ERR_PLIB, "%s: the error \"%s\" does not say \"%s\"", what, msg_ ? msg_ : "(no message)", (expect)); \
    PetscCall(PetscPrintf(comm, "refused as expected: %s: %s\n", what, msg_ ? msg_ : text_));                                           \
  } while (0)

/* out-of-range values are refused by the setter with its name and the option's, and leave the value unchanged */
static PetscErrorCode CheckBadValues(PC pc)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)pc);
  Settings before, after;

  PetscFunctionBegin;
  PetscCall(GetAll(pc, &before));
  ExpectError(comm, PCCMGSetDirectSize(pc, 0), "PCCMGSetDirectSize(): -pc_cmg_direct_size must be at least 1, got 0", "direct size 0");
  ExpectError(comm, PCCMGSetMaxLevels(pc, 0), "PCCMGSetMaxLevels(): -pc_cmg_max_levels must be at least 1, got 0", "max levels 0");
  ExpectError(comm, PCCMGSetRepeat(pc, -1), "PCCMGSetRepeat(): -pc_cmg_repeat must be 0 (automatic) or positive, got -1", "repeat -1");
  ExpectError(comm, PCCMGSetRepeatMax(pc, -2), "PCCMGSetRepeatMax(): -pc_cmg_repeat_max must be 0 (no limit) or positive, got -2", "repeat max -2");
  ExpectError(comm, PCCMGSetFuseNnz(pc, -3), "PCCMGSetFuseNnz(): -pc_cmg_fuse_nnz must be 0 (never fuse) or positive, got -3", "fuse nnz -3");
  ExpectError(comm, PCCMGSetPackNnz(pc, -4), "PCCMGSetPackNnz(): -pc_cmg_pack_nnz must be 0 (never pack) or positive, got -4", "pack nnz -4");
  ExpectError(comm, PCCMGSetSetupThreads(pc, 0), "PCCMGSetSetupThreads(): -pc_cmg_setup_threads must be at least 1, got 0", "setup threads 0");
  ExpectError(comm, PCCMGSetSymmetryTolerance(pc, -1e-3), "PCCMGSetSymmetryTolerance(): -pc_cmg_symmetry_tol must be non-negative", "symmetry tolerance -1e-3");
  ExpectError(comm, PCCMGSetDominanceTolerance(pc, PETSC_MIN_REAL), "PCCMGSetDominanceTolerance(): -pc_cmg_dominance_tol must be non-negative", "dominance tolerance PETSC_MIN_REAL");
  ExpectError(comm, PCCMGSetPositiveOffDiagonal(pc, (PCCMGPositiveMode)7), "PCCMGSetPositiveOffDiagonal(): mode 7 is not a PCCMGPositiveMode", "positive mode 7");
  ExpectError(comm, PCCMGSetPrecision(pc, (PCCMGPrecision)-1), "PCCMGSetPrecision(): precision -1 is not a PCCMGPrecision", "precision -1");
  ExpectError(comm, PCCMGSetMatType(pc, (PCCMGMatType)3), "PCCMGSetMatType(): type 3 is not a PCCMGMatType", "mat type 3");
  ExpectError(comm, PCCMGSetSetupLocation(pc, (PCCMGSetupLocation)2), "PCCMGSetSetupLocation(): location 2 is not a PCCMGSetupLocation", "setup location 2");
  PetscCall(GetAll(pc, &after));
  PetscCall(CheckSettings(&after, &before, "after the refused values"));
  PetscFunctionReturn(0);
}

/* on a PC of another type the setters do nothing and the getters raise an error */
static PetscErrorCode CheckOtherType(const Settings *s)
{
  PC        pc;
  Settings  got;
  PetscBool isjacobi;

  PetscFunctionBegin;
  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(SetAll(pc, s));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCJACOBI, &isjacobi));
  PetscCheck(isjacobi, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the PCCMGSet functions changed the type of a PC jacobi");
  ExpectError(PETSC_COMM_WORLD, PCCMGGetCheckSymmetry(pc, &got.check_symmetry), "PCCMGGetCheckSymmetry_C", "PCCMGGetCheckSymmetry on PC jacobi");
  ExpectError(PETSC_COMM_WORLD, PCCMGGetSymmetryTolerance(pc, &got.symmetry_tol), "PCCMGGetSymmetryTolerance_C", "PCCMGGetSymmetryTolerance on PC jacobi");
  ExpectError(PETSC_COMM_WORLD, PCCMGGetDirichletRows(pc, &got.dirichlet_rows), "PCCMGGetDirichletRows_C", "PCCMGGetDirichletRows on PC jacobi");
  ExpectError(PETSC_COMM_WORLD, PCCMGGetDominanceTolerance(pc, &got.dominance_tol), "PCCMGGetDominanceTolerance_C", "PCCMGGetDominanceTolerance on PC jacobi");
  ExpectError(PETSC_COMM_WORLD, PCCMGGetPositiveOffDiagonal(pc, &got.positive), "PCCMGGetPositiveOffDiagonal_C", "PCCMGGetPositiveOffDiagonal on PC jacobi");
  ExpectError(PETSC_COMM_WORLD, PCCMGGetDirectSize(pc, &got.direct_size), "PCCMGGetDirectSize_C", "PCCMGGetDirectSize on PC jacobi");
  ExpectError(PETSC_COMM_WORLD, PCCMGGetMaxLevels(pc, &got.max_levels), "PCCMGGetMaxLevels_C", "PCCMGGetMaxLevels on PC jacobi");
  ExpectError(PETSC_COMM_WORLD, PCCMGGetRepeat(pc, &got.repeat), "PCCMGGetRepeat_C", "PCCMGGetRepeat on PC jacobi");
  ExpectError(PETSC_COMM_WORLD, PCCMGGetRepeatMax(pc, &got.repeat_max), "PCCMGGetRepeatMax_C", "PCCMGGetRepeatMax on PC jacobi");
  ExpectError(PETSC_COMM_WORLD, PCCMGGetFuseNnz(pc, &got.fuse_nnz), "PCCMGGetFuseNnz_C", "PCCMGGetFuseNnz on PC jacobi");
  ExpectError(PETSC_COMM_WORLD, PCCMGGetPackNnz(pc, &got.pack_nnz), "PCCMGGetPackNnz_C", "PCCMGGetPackNnz on PC jacobi");
  ExpectError(PETSC_COMM_WORLD, PCCMGGetPrecision(pc, &got.prec), "PCCMGGetPrecision_C", "PCCMGGetPrecision on PC jacobi");
  ExpectError(PETSC_COMM_WORLD, PCCMGGetUseGraph(pc, &got.graph), "PCCMGGetUseGraph_C", "PCCMGGetUseGraph on PC jacobi");
  ExpectError(PETSC_COMM_WORLD, PCCMGGetMatType(pc, &got.mattype), "PCCMGGetMatType_C", "PCCMGGetMatType on PC jacobi");
  ExpectError(PETSC_COMM_WORLD, PCCMGGetMonitor(pc, &got.monitor), "PCCMGGetMonitor_C", "PCCMGGetMonitor on PC jacobi");
  ExpectError(PETSC_COMM_WORLD, PCCMGGetClusterOrder(pc, &got.cluster_order), "PCCMGGetClusterOrder_C", "PCCMGGetClusterOrder on PC jacobi");
  ExpectError(PETSC_COMM_WORLD, PCCMGGetSetupThreads(pc, &got.threads), "PCCMGGetSetupThreads_C", "PCCMGGetSetupThreads on PC jacobi");
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(0);
}

static PetscErrorCode CreateKSP(Mat A, const char *prefix, KSP *ksp, PC *pc)
{
  PetscFunctionBegin;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, ksp));
  if (prefix) PetscCall(KSPSetOptionsPrefix(*ksp, prefix));
  PetscCall(KSPSetOperators(*ksp, A, A));
  PetscCall(KSPSetType(*ksp, KSPCG));
  PetscCall(KSPSetTolerances(*ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
  PetscCall(KSPGetPC(*ksp, pc));
  PetscCall(PCSetType(*pc, PCCMG));
  PetscFunctionReturn(0);
}

static PetscErrorCode Solve(KSP ksp, Vec b, Vec x, const char *what, PetscInt *its)
{
  KSPConvergedReason reason;

  PetscFunctionBegin;
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %" PetscInt_FMT " iterations (%s)\n", what, *its, KSPConvergedReasons[reason]));
  PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "%s: CG with cmg did not converge: %s after %" PetscInt_FMT " iterations", what, KSPConvergedReasons[reason], *its);
  PetscFunctionReturn(0);
}

/* the two set-up PCs hold hierarchies of the same shape, and the C settings reached it: t_k = repeat, at most max_levels */
static PetscErrorCode CompareHierarchies(PC pa, PC pb, const Settings *s)
{
  PetscInt na, nb;

  PetscFunctionBegin;
  PetscCall(PCCMGGetNumberOfLevels(pa, &na));
  PetscCall(PCCMGGetNumberOfLevels(pb, &nb));
  PetscCheck(na == nb, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "configured from C: %" PetscInt_FMT " levels, from options: %" PetscInt_FMT, na, nb);
  PetscCheck(na > 1 && na <= s->max_levels, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%" PetscInt_FMT " levels: expected 2 .. %" PetscInt_FMT " (PCCMGSetMaxLevels)", na, s->max_levels);
  for (PetscInt k = 0; k < na; k++) {
    PetscInt n[2], nnz[2], t[2];

    PetscCall(PCCMGGetLevel(pa, k, &n[0], &nnz[0], &t[0]));
    PetscCall(PCCMGGetLevel(pb, k, &n[1], &nnz[1], &t[1]));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "level %" PetscInt_FMT ": %" PetscInt_FMT " rows, %" PetscInt_FMT " nonzeros, t %" PetscInt_FMT "\n", k, n[0], nnz[0], t[0]));
    PetscCheck(n[0] == n[1] && nnz[0] == nnz[1] && t[0] == t[1], PETSC_COMM_WORLD, PETSC_ERR_PLIB, "level %" PetscInt_FMT ": configured from C %" PetscInt_FMT " rows, %" PetscInt_FMT " nonzeros, t %" PetscInt_FMT "; from options %" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT, k, n[0], nnz[0], t[0], n[1], nnz[1], t[1]);
    PetscCheck(k == na - 1 || t[0] == s->repeat, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "level %" PetscInt_FMT ": t = %" PetscInt_FMT ", but PCCMGSetRepeat() fixed it to %" PetscInt_FMT, k, t[0], s->repeat);
  }
  PetscFunctionReturn(0);
}

/* after setup: an unchanged value and the output-only settings keep the hierarchy; a new max levels rebuilds it */
static PetscErrorCode CheckAfterSetUp(KSP ksp, PC pc, const Settings *s, Vec b, Vec x)
{
  PetscInt nl, its;

  PetscFunctionBegin;
  PetscCall(PCCMGSetMaxLevels(pc, s->max_levels));
  PetscCall(PCCMGSetSetupThreads(pc, s->threads + 1));
  PetscCall(PCCMGSetMonitor(pc, PETSC_FALSE));
  PetscCall(PCCMGGetNumberOfLevels(pc, &nl)); /* still set up */
  PetscCall(PCCMGSetMaxLevels(pc, 2));
  ExpectError(PETSC_COMM_WORLD, PCCMGGetNumberOfLevels(pc, &nl), "PC cmg is not set up", "PCCMGGetNumberOfLevels() after a new max levels");
  PetscCall(KSPSolve(ksp, b, x)); /* sets up again (two levels: a Jacobi last level, convergence not asked) */
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(PCCMGGetNumberOfLevels(pc, &nl));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "after PCCMGSetMaxLevels(pc, 2): %" PetscInt_FMT " levels, %" PetscInt_FMT " iterations\n", nl, its));
  PetscCheck(nl == 2, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "after PCCMGSetMaxLevels(pc, 2) and a new solve the hierarchy has %" PetscInt_FMT " levels", nl);
  PetscFunctionReturn(0);
}

/* PetscGPUPCSetHaloPeer(): what the getter returns after each value (the path a halo then takes is in -ksp_view) */
static PetscErrorCode CheckHaloPeer(void)
{
  PetscBool allow, force, opt, set;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-gpupc_halo_peer", &opt, &set));
  PetscCall(PetscGPUPCGetHaloPeer(&allow, &force));
  PetscCheck(allow == (set ? opt : PETSC_TRUE) && force == (set ? opt : PETSC_FALSE), PETSC_COMM_SELF, PETSC_ERR_PLIB, "halo peer before any call: allow %d force %d", (int)allow, (int)force);
  PetscCall(PetscGPUPCSetHaloPeer(PETSC_FALSE));
  PetscCall(PetscGPUPCGetHaloPeer(&allow, &force));
  PetscCheck(!allow && !force, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PetscGPUPCSetHaloPeer(PETSC_FALSE): allow %d force %d", (int)allow, (int)force);
  PetscCall(PetscGPUPCSetHaloPeer(PETSC_TRUE));
  PetscCall(PetscGPUPCGetHaloPeer(&allow, &force));
  PetscCheck(allow && force, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PetscGPUPCSetHaloPeer(PETSC_TRUE): allow %d force %d", (int)allow, (int)force);
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  CMGTestProblem p;
  Mat            A;
  Vec            x, b;
  KSP            ksa, ksb;
  PC             pa, pb;
  PetscMPIInt    size;
  PetscBool      single = PETSC_FALSE;
  PetscInt       itsa, itsb;
  Settings       want, got, fromopts, def;
  size_t         mem0, mem1;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-single", &single, NULL));
  PetscCheck(!single || size == 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-single: PC cmg keeps the hierarchy in double precision on more than one rank; run it on one");
  PetscCall(CMGTestGetProblem(&p));
  PetscCall(PetscOptionsClearValue(NULL, "-pc_cmg_direct_size")); /* CMGTestGetProblem's default for options-driven tests: no cmg option here */
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem0));
  PetscCall(CMGTestMatrix(&p, &A));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(x, 1.0));
  PetscCall(MatMult(A, x, b));

  /* every setting away from its default, then each getter */
  PetscCall(CreateKSP(A, NULL, &ksa, &pa));
  PetscCall(GetAll(pa, &def));
  want.check_symmetry = PETSC_FALSE;
  want.symmetry_tol   = 1e-8;
  want.dirichlet_rows = PETSC_FALSE;
  want.dominance_tol  = 1e-9;
  want.positive       = PC_CMG_POSITIVE_ERROR;
  want.direct_size    = 40;
  want.max_levels     = 8;
  want.repeat         = 2;
  want.repeat_max     = 3;
  want.fuse_nnz       = 3000;
  want.pack_nnz       = 2000;
  want.prec           = PC_CMG_PRECISION_SINGLE;
  want.graph          = PETSC_FALSE;
  want.mattype        = PC_CMG_MAT_SEGCSR;
  want.monitor        = PETSC_TRUE;
  want.cluster_order  = PETSC_TRUE;
  want.threads        = def.threads == 2 ? 3 : 2;
  want.setup          = def.setup == PC_CMG_SETUP_DEVICE ? PC_CMG_SETUP_HOST : PC_CMG_SETUP_DEVICE;
#define CHECK_NOT_DEFAULT(f) PetscCheck(want.f != def.f, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "test setup: %s %g is the default", #f, (double)want.f)
  CHECK_NOT_DEFAULT(check_symmetry);
  CHECK_NOT_DEFAULT(symmetry_tol);
  CHECK_NOT_DEFAULT(dirichlet_rows);
  CHECK_NOT_DEFAULT(dominance_tol);
  CHECK_NOT_DEFAULT(positive);
  CHECK_NOT_DEFAULT(direct_size);
  CHECK_NOT_DEFAULT(max_levels);
  CHECK_NOT_DEFAULT(repeat);
  CHECK_NOT_DEFAULT(repeat_max);
  CHECK_NOT_DEFAULT(fuse_nnz);
  CHECK_NOT_DEFAULT(pack_nnz);
  CHECK_NOT_DEFAULT(prec);
  CHECK_NOT_DEFAULT(graph);
  CHECK_NOT_DEFAULT(mattype);
  CHECK_NOT_DEFAULT(monitor);
  CHECK_NOT_DEFAULT(cluster_order);
  CHECK_NOT_DEFAULT(threads);
  CHECK_NOT_DEFAULT(setup);
#undef CHECK_NOT_DEFAULT
  PetscCall(SetAll(pa, &want));
  PetscCall(GetAll(pa, &got));
  PetscCall(CheckSettings(&got, &want, "getter after setter"));
  PetscCall(CheckBadValues(pa));
  PetscCall(CheckOtherType(&want));

  /* segcsr level matrices hold double only: solve with one of the two away from its default */
  if (single) want.mattype = PC_CMG_MAT_CSR;
  else want.prec = PC_CMG_PRECISION_DOUBLE;
  PetscCall(SetAll(pa, &want));
  PetscCall(GetAll(pa, &got));
  PetscCall(CheckSettings(&got, &want, "getter after setter"));

  /* the same values from the options database */
  PetscCall(SetOptions("b_", &want));
  PetscCall(CreateKSP(A, "b_", &ksb, &pb));
  PetscCall(KSPSetFromOptions(ksb));
  PetscCall(GetAll(pb, &fromopts));
  PetscCall(CheckSettings(&fromopts, &want, "configured from options (-b_pc_cmg_...)"));

  PetscCall(Solve(ksa, b, x, "configured from C", &itsa));
  PetscCall(Solve(ksb, b, x, "configured from options", &itsb));
  PetscCall(CompareHierarchies(pa, pb, &want));
  PetscCheck(itsa == itsb, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "configured from C: %" PetscInt_FMT " iterations, from options: %" PetscInt_FMT, itsa, itsb);
  PetscCall(CheckAfterSetUp(ksa, pa, &want, b, x));
  PetscCall(CheckHaloPeer());

  PetscCall(KSPDestroy(&ksa));
  PetscCall(KSPDestroy(&ksb));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem1));
  PetscCheck(mem0 == mem1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "device memory in use went from %zu to %zu bytes", mem0, mem1);
  PetscCall(PetscFinalize());
  return 0;
}

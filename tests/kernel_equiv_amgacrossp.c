static const char help[] = "PC gpuamg's device coarsening across ranks (gpupc/amgdevacross.h: GPUPCAMGDevCoarsenAcross,\n"
                           "GPUPCAMGDevInterpolateAcross on the across kernel table gpupc/amgacrosskernels.h and the one-rank setup table)\n"
                           "against the host setup's GPUPCAMGCoarsenAcross and GPUPCAMGInterpolateAcross on the same local part with\n"
                           "ghosts (GPUPCAMGLocalGetGhost, classical strength; device copies by GPUPCAMGDevLocalFromHost and\n"
                           "GPUPCAMGDevStrengthFromHost), on any number of ranks, level 0 and the first coarse level (P^T A P of the\n"
                           "host's P) of poisson3d, randcoef3d and jump3d:\n"
                           "  1. pmis and hmis (first pass on the whole rank): the states of every point, ghosts included, equal;\n"
                           "     hmis on subdomains of -sub rows (default 7): every point decided, the ghosts' states their owners';\n"
                           "  2. direct, standard and ext+i interpolation, truncation none, -tmax (default 4) entries and factor 0.2: P\n"
                           "     (as MPIAIJ, GPUPCDevMPIBlocksToMat) has the host's pattern and values (exactly on the host table,\n"
                           "     within -tol relative to the row's largest entry on the CUDA table: fused multiply-adds, default\n"
                           "     1e-12); the off-diagonal block's garray increasing, every ghost column used, the diagonal block the\n"
                           "     owned C points; ext+i also with the CUDA table's warp rows and smallest hash tables;\n"
                           "  3. a bad truncation factor and multipass refused with an error.\n"
                           "Options: -n <rows, default 1000> -problems <poisson3d,randcoef3d,jump3d> -levels <2> -large (only pmis and ext+i\n"
                           "  truncated to -tmax entries: the setup's defaults, for big runs) -times (print the host and device calls' wall\n"
                           "  times on rank 0: information only, nothing is asserted on them)\n";

#include <petscmat.h>
#include <gpupc/amgdevacross.h>
#include <gpupc/problems.h>
#include "amgdevtest.h"
#include "testcases.h"
#include <petsctime.h>

static PetscBool large = PETSC_FALSE, times = PETSC_FALSE;

/* wall time after the device work queued so far */
static PetscErrorCode Now(PetscLogDouble *t)
{
  PetscFunctionBegin;
  PetscCall(GPUPCSynchronize());
  PetscCall(PetscTime(t));
  PetscFunctionReturn(0);
}

/* X (device blocks as MPIAIJ) against Y (the host's P): same pattern, values within tol of the row's largest */
static PetscErrorCode ComparePs(Mat X, Mat Y, PetscReal tol, const char *what)
{
  PetscInt  lo, hi, bad = 0, gbad;
  PetscReal worst = 0.0, gworst;

  PetscFunctionBegin;
  PetscCall(MatGetOwnershipRange(Y, &lo, &hi));
  for (PetscInt r = lo; r < hi && !bad; r++) {
    const PetscInt    *xc, *yc;
    const PetscScalar *xv, *yv;
    PetscInt           nx, ny;
    PetscReal          ymax = 0.0;
    PetscCall(MatGetRow(X, r, &nx, &xc, &xv));
    PetscCall(MatGetRow(Y, r, &ny, &yc, &yv));
    for (PetscInt q = 0; q < ny; q++) ymax = PetscMax(ymax, PetscAbsScalar(yv[q]));
    if (nx != ny) bad = 1;
    for (PetscInt q = 0; q < nx && !bad; q++) {
      if (xc[q] != yc[q]) bad = 1;
      else worst = PetscMax(worst, PetscAbsScalar(xv[q] - yv[q]) / PetscMax(ymax, PETSC_SMALL));
    }
    if (bad) PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: row %" PetscInt_FMT " has %" PetscInt_FMT " entries on the device, %" PetscInt_FMT " on the host (or other columns)\n", what, r, nx, ny));
    PetscCall(MatRestoreRow(Y, r, &ny, &yc, &yv));
    PetscCall(MatRestoreRow(X, r, &nx, &xc, &xv));
  }
  PetscCall(MPIU_Allreduce(&bad, &gbad, 1, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)Y)));
  PetscCall(MPIU_Allreduce(&worst, &gworst, 1, MPIU_REAL, MPI_MAX, PetscObjectComm((PetscObject)Y)));
  PetscCheck(!gbad, PetscObjectComm((PetscObject)Y), PETSC_ERR_PLIB, "%s: the device P's pattern is not the host's", what);
  PetscCheck(gworst <= tol, PetscObjectComm((PetscObject)Y), PETSC_ERR_PLIB, "%s: the device P differs from the host's by %g (relative to a row's largest entry), more than %g", what, (double)gworst, (double)tol);
  PetscFunctionReturn(0);
}

/* the blocks' own rules: garray increasing and every ghost column used, the diagonal block nc columns */
static PetscErrorCode CheckBlocks(const GPUPCDevMPIBlocks *B, PetscInt nc, const char *what)
{
  PetscInt *oj, *used;

  PetscFunctionBegin;
  PetscCheck(B->d.m == B->o.m && B->d.n == nc && B->o.n == B->nghost, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: blocks %" PetscInt_FMT " x %" PetscInt_FMT " and %" PetscInt_FMT " x %" PetscInt_FMT " (%" PetscInt_FMT " ghosts), expected %" PetscInt_FMT " owned C points", what, B->d.m, B->d.n, B->o.m, B->o.n, B->nghost, nc);
  for (PetscInt g = 1; g < B->nghost; g++) PetscCheck(B->garray[g] > B->garray[g - 1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: garray not increasing at %" PetscInt_FMT, what, g);
  for (PetscInt g = 0; g < B->nghost; g++) PetscCheck(B->garray[g] < B->cstart || B->garray[g] >= B->cstart + nc, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: garray[%" PetscInt_FMT "] = %" PetscInt_FMT " is an owned coarse point", what, g, B->garray[g]);
  PetscCall(Back(oj, B->o.j, B->o.nnz));
  PetscCall(PetscCalloc1(PetscMax(B->nghost, 1), &used));
  for (PetscInt e = 0; e < B->o.nnz; e++) used[oj[e]] = 1;
  for (PetscInt g = 0; g < B->nghost; g++) PetscCheck(used[g], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: ghost column %" PetscInt_FMT " (coarse point %" PetscInt_FMT ") is not used", what, g, B->garray[g]);
  PetscCall(PetscFree(oj));
  PetscCall(PetscFree(used));
  PetscFunctionReturn(0);
}

/* the ghosts' states of cf (nx entries, host) are their owners' */
static PetscErrorCode CheckGhostStates(const GPUPCAMGLocal *L, const PetscInt *cf, const char *what)
{
  PetscInt *g;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(PetscMax(L->nx - L->n, 1), &g));
  PetscCall(PetscSFBcastBegin(L->sf, MPIU_INT, cf, g, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(L->sf, MPIU_INT, cf, g, MPI_REPLACE));
  for (PetscInt p = 0; p < L->nx; p++) {
    PetscCheck(cf[p] == GPUPC_AMG_C || cf[p] == GPUPC_AMG_F, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: point %" PetscInt_FMT " is left in state %" PetscInt_FMT, what, p, cf[p]);
    if (p >= L->n) PetscCheck(cf[p] == g[p - L->n], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: ghost %" PetscInt_FMT " (global %" PetscInt_FMT ") is %" PetscInt_FMT ", its owner says %" PetscInt_FMT, what, p, L->gidx[p], cf[p], g[p - L->n]);
  }
  PetscCall(PetscFree(g));
  PetscFunctionReturn(0);
}

/* one level: the splittings and the interpolations against the host's; *Pnext: the host's P of pmis, ext+i, tmax */
static PetscErrorCode CheckLevel(Mat A, const char *name, PetscInt sub, PetscInt tmax, PetscReal tol, Mat *Pnext)
{
  MPI_Comm                  comm = PetscObjectComm((PetscObject)A);
  GPUPCAMGLocal             L;
  GPUPCAMGStrength          S;
  GPUPCAMGDevLocal          DL;
  GPUPCAMGDevGraph          DG;
  PetscInt                 *hcf, *dcf, *back, nc = 0;
  const PCGPUAMGCoarsenType ctypes[2] = {PC_GPUAMG_COARSEN_PMIS, PC_GPUAMG_COARSEN_HMIS};
  const PCGPUAMGInterpType  itypes[3] = {PC_GPUAMG_INTERP_DIRECT, PC_GPUAMG_INTERP_STANDARD, PC_GPUAMG_INTERP_EXTENDED_I};
  const PetscInt            tmaxs[3]  = {0, tmax, 0};
  const PetscReal           tfacs[3]  = {0.0, 0.0, 0.2};
  char                      what[256];
  PetscLogDouble            t0 = 0, t1 = 0, t2 = 0, t3 = 0;

  PetscFunctionBegin;
  *Pnext = NULL;
  PetscCall(GPUPCAMGLocalGetGhost(A, 1, &L));
  PetscCall(GPUPCAMGStrengthClassical(&L, 0.25, 1, &S));
  if (!S.ti) PetscCall(GPUPCAMGStrengthTranspose(&S, 1)); /* the strength of a part with ghosts comes with it */
  PetscCall(GPUPCAMGDevLocalFromHost(&L, &DL));
  PetscCall(GPUPCAMGDevStrengthFromHost(&S, &DG));
  PetscCall(PetscMalloc1(PetscMax(L.nx, 1), &hcf));
  PetscCall(GPUPCAMGDevAlloc(L.nx, &dcf));
  for (PetscInt c = 0; c < 2; c++) {
    /* 1. the splittings: the whole rank (hmis's first pass as the host's), then small subdomains */
    PetscCall(PetscSNPrintf(what, sizeof(what), "%s %s", name, PCGPUAMGCoarsenTypes[ctypes[c]]));
    if (large && c > 0) break;
    PetscCall(Now(&t0));
    PetscCall(GPUPCAMGCoarsenAcross(&L, &S, ctypes[c], 1, hcf));
    PetscCall(Now(&t1));
    if (ctypes[c] == PC_GPUAMG_COARSEN_PMIS) PetscCall(GPUPCAMGDevCoarsenAcross(&DL, &DG, ctypes[c], dcf));
    else PetscCall(GPUPCAMGDevCoarsenAcrossSubdomain(&DL, &DG, ctypes[c], PETSC_MAX_INT, dcf));
    PetscCall(Now(&t2));
    if (times) PetscCall(PetscPrintf(comm, "%s: host %.4f s, device %.4f s\n", what, (double)(t1 - t0), (double)(t2 - t1)));
    PetscCall(Back(back, dcf, L.nx));
    PetscCall(ExpectEqualInts(what, "cf", L.nx, back, hcf));
    PetscCall(PetscFree(back));
    if (ctypes[c] == PC_GPUAMG_COARSEN_HMIS) {
      PetscCall(PetscSNPrintf(what, sizeof(what), "%s hmis on subdomains of %" PetscInt_FMT " rows", name, sub));
      PetscCall(GPUPCAMGDevCoarsenAcrossSubdomain(&DL, &DG, ctypes[c], sub, dcf));
      PetscCall(Back(back, dcf, L.nx));
      PetscCall(CheckGhostStates(&L, back, what));
      PetscCall(PetscFree(back));
    }
    /* 2. the interpolations of the host's splitting */
    PetscCall(GPUPCCopyToDevice(dcf, hcf, L.nx));
    nc = 0;
    for (PetscInt i = 0; i < L.n; i++) nc += hcf[i] == GPUPC_AMG_C;
    for (PetscInt t = 0; t < 3; t++) {
      for (PetscInt q = 0; q < 3; q++) {
        GPUPCAMGLocalP    Pl;
        GPUPCDevMPIBlocks B;
        Mat               Ph, Pd;

        if (large && (t != 2 || q != 1)) continue;
        PetscCall(PetscSNPrintf(what, sizeof(what), "%s %s, %s, truncation %" PetscInt_FMT " entries factor %g", name, PCGPUAMGCoarsenTypes[ctypes[c]], PCGPUAMGInterpTypes[itypes[t]], tmaxs[q], (double)tfacs[q]));
        PetscCall(Now(&t0));
        PetscCall(GPUPCAMGInterpolateAcross(&L, &S, hcf, itypes[t], tmaxs[q], tfacs[q], PC_GPUAMG_TRUNC_RESCALE_SUM, 1, &Pl));
        PetscCall(Now(&t1));
        PetscCall(GPUPCAMGLocalPToMat(comm, &Pl, 1, 1, 1, &Ph));
        PetscCall(GPUPCAMGLocalPFree(&Pl));
        PetscCall(Now(&t2));
        PetscCall(GPUPCAMGDevInterpolateAcross(&DL, &DG, dcf, itypes[t], tmaxs[q], tfacs[q], &B));
        PetscCall(Now(&t3));
        if (times) PetscCall(PetscPrintf(comm, "%s: host %.4f s, device %.4f s\n", what, (double)(t1 - t0), (double)(t3 - t2)));
        PetscCall(CheckBlocks(&B, nc, what));
        PetscCall(GPUPCDevMPIBlocksToMat(&B, &Pd));
        PetscCall(ComparePs(Pd, Ph, tol, what));
        PetscCall(GPUPCDevMPIBlocksDestroy(&B));
        PetscCall(MatDestroy(&Pd));
        if (itypes[t] == PC_GPUAMG_INTERP_EXTENDED_I && !large) { /* the CUDA table's other ext+i kernels: a warp for every
                                                                      row, the smallest hash tables (the host table's rows
                                                                      are one loop: the same P) */
          GPUPCAMGInterpTuning tune;
          PetscCall(GPUPCAMGInterpTuningDefault(&tune));
          tune.long_row       = 0;
          tune.long_slots     = 64;
          tune.long_slots_big = 64;
          PetscCall(PetscStrlcat(what, ", ext+i rows a warp each, 64 hash slots", sizeof(what)));
          PetscCall(GPUPCAMGDevInterpolateAcrossTuned(&DL, &DG, dcf, itypes[t], tmaxs[q], tfacs[q], &tune, &B));
          PetscCall(CheckBlocks(&B, nc, what));
          PetscCall(GPUPCDevMPIBlocksToMat(&B, &Pd));
          PetscCall(ComparePs(Pd, Ph, tol, what));
          PetscCall(GPUPCDevMPIBlocksDestroy(&B));
          PetscCall(MatDestroy(&Pd));
        }
        if (c == 0 && t == 2 && q == 1) *Pnext = Ph;
        else PetscCall(MatDestroy(&Ph));
      }
    }
  }
  /* 3. what the device interpolation refuses */
  {
    GPUPCDevMPIBlocks B;
    PetscErrorCode    ierr;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = GPUPCAMGDevInterpolateAcross(&DL, &DG, dcf, PC_GPUAMG_INTERP_EXTENDED_I, 0, 1.5, &B);
    PetscCall(PetscPopErrorHandler());
    PetscCheck(ierr == PETSC_ERR_ARG_OUTOFRANGE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: a truncation factor 1.5 gave error %d, not PETSC_ERR_ARG_OUTOFRANGE", name, (int)ierr);
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = GPUPCAMGDevInterpolateAcross(&DL, &DG, dcf, PC_GPUAMG_INTERP_MULTIPASS, 0, 0.0, &B);
    PetscCall(PetscPopErrorHandler());
    PetscCheck(ierr == PETSC_ERR_SUP, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: multipass gave error %d, not PETSC_ERR_SUP", name, (int)ierr);
  }
  PetscCall(GPUPCFree(dcf));
  PetscCall(PetscFree(hcf));
  PetscCall(GPUPCAMGDevStrengthFree(&DG));
  PetscCall(GPUPCAMGDevLocalFree(&DL));
  PetscCall(GPUPCAMGStrengthFree(&S));
  PetscCall(GPUPCAMGLocalFree(&L));
  PetscFunctionReturn(0);
}

static PetscErrorCode RunCase(void)
{
  PetscInt          n = 1000, sub = 7, tmax = 4, np = 3, levels = 2;
  PetscReal         tol         = 0.0;
  char             *problems[3] = {NULL, NULL, NULL};
  PetscBool         set;
  PetscGPUPCBackend backend;

  PetscFunctionBegin;
  PetscCall(PetscGPUPCGetBackend(&backend));
  if (backend == PETSC_GPUPC_BACKEND_CUDA) tol = 1e-12; /* fused multiply-adds in the CUDA table's rows */
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-sub", &sub, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-tmax", &tmax, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-levels", &levels, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-large", &large, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-times", &times, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-problems", problems, &np, &set));
  if (!set) {
    np = 3;
    PetscCall(PetscStrallocpy("poisson3d", &problems[0]));
    PetscCall(PetscStrallocpy("randcoef3d", &problems[1]));
    PetscCall(PetscStrallocpy("jump3d", &problems[2]));
  }
  for (PetscInt p = 0; p < np; p++) {
    Mat A0, A, P, Ac;

    Vec  b;
    char name[128];

    PetscCall(GPUPCProblemCreate(PETSC_COMM_WORLD, problems[p], n, 1, &A0, &b));
    PetscCall(MatConvert(A0, MATAIJ, MAT_INITIAL_MATRIX, &A));
    PetscCall(MatSetBlockSize(A, 1));
    for (PetscInt l = 0; l < levels; l++) { /* level l + 1: P^T A P of the host's P (pmis, ext+i, tmax) */
      PetscCall(PetscSNPrintf(name, sizeof(name), "%s n %" PetscInt_FMT " level %" PetscInt_FMT, problems[p], n, l));
      PetscCall(CheckLevel(A, name, sub, tmax, tol, &P));
      if (l + 1 < levels) {
        PetscCall(MatPtAP(A, P, MAT_INITIAL_MATRIX, 2.0, &Ac));
        PetscCall(MatDestroy(&A));
        A = Ac;
      }
      PetscCall(MatDestroy(&P));
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s n %" PetscInt_FMT ": device splittings and interpolations across ranks equal the host's on %" PetscInt_FMT " levels\n", problems[p], n, levels));
    PetscCall(MatDestroy(&A));
    PetscCall(MatDestroy(&A0));
    PetscCall(VecDestroy(&b));
    PetscCall(PetscFree(problems[p]));
  }
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  return TestCasesMain(argc, argv, help, RunCase);
}

static const char help[] = "PC gpuamg's coarsening across ranks (host setup): for each problem, coarsening and interpolation, CG with PC\n"
                           "gpuamg (l1-Jacobi smoothing, which does not depend on the ranks) to -rtol must converge on this run's ranks\n"
                           "in at most -ratio times the iterations of the same solve on one rank (built on PETSC_COMM_SELF in this run,\n"
                           "or -ref_its: the one-rank counts in the order problems x coarsenings x interpolations, checked on one rank);\n"
                           "the finest P built by the host setup on these ranks must have row sums 1 on the rows of zero row sum (the\n"
                           "near-null space is the constant), and, for pmis (which splits alike on any number of ranks), reach other\n"
                           "ranks' coarse points (an off-diagonal block) on several ranks and equal the one-rank P to -ptol (default: bit\n"
                           "for bit). On one rank the coarsening across ranks, forced, must give the rank-local code's hierarchy bit for\n"
                           "bit (every P and level matrix). On 2 to -device_ranks ranks the device setup across ranks (this backend's)\n"
                           "must give the host setup's hierarchy: the same levels, ranks holding them and P bit for bit, level\n"
                           "matrices to -atol (relative, Frobenius), also after a value-only recompute (the operator scaled by 2), and\n"
                           "the same CG iterations.\n"
                           "Options: -problems <poisson3d,jump3d> -n <27000> -coarsens <pmis,hmis> -interps <direct,standard,ext+i>\n"
                           "  -ratio <1.1> -rtol <1e-8> -ptol <0 (bit for bit)> -ref_its <k1,k2,...> -device_ranks <2> -atol <1e-13>\n";

#include <gpupc/amgsetup.h>
#include <gpupc/amgdevacross.h>
#include <gpupc/problems.h>
#include <petscksp.h>

/* CG + PC gpuamg (setup where) on A; returns the iterations */
static PetscErrorCode Solve(Mat A, Vec b, PCGPUAMGSetupLocation where, PCGPUAMGCoarsenType c, PCGPUAMGInterpType ip, PetscReal rtol, PetscInt *its)
{
  KSP                ksp;
  PC                 pc;
  Vec                x;
  KSPConvergedReason reason;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(b, &x));
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPSetTolerances(ksp, rtol, PETSC_DEFAULT, PETSC_DEFAULT, 200));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCGPUAMG));
  PetscCall(PCGPUAMGSetSetupLocation(pc, where));
  PetscCall(PCGPUAMGSetCoarsenType(pc, c));
  PetscCall(PCGPUAMGSetInterpType(pc, ip));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCheck(reason > 0, PetscObjectComm((PetscObject)A), PETSC_ERR_NOT_CONVERGED, "CG + PC gpuamg did not converge: %s after %" PetscInt_FMT " iterations", KSPConvergedReasons[reason], *its);
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscFunctionReturn(0);
}

/* the default setup options with coarsening c and interpolation ip, on the host */
static PetscErrorCode HostOptions(PCGPUAMGCoarsenType c, PCGPUAMGInterpType ip, GPUPCAMGSetupOptions *o)
{
  PetscFunctionBegin;
  PetscCall(GPUPCAMGSetupOptionsDefault(o));
  o->coarsen      = c;
  o->interp       = ip;
  o->location     = PC_GPUAMG_SETUP_HOST;
  o->location_set = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* one rank: the hierarchy of the coarsening across ranks (forced) must be that of the rank-local code bit for bit,
   every P and every level matrix; returns the local code's finest P */
static PetscErrorCode CompareOneRank(Mat A, PCGPUAMGCoarsenType c, PCGPUAMGInterpType ip, PetscBool *same, Mat *P)
{
  GPUPCAMGSetupOptions o;
  GPUPCAMGHierarchy    H0, H1;

  PetscFunctionBegin;
  PetscCall(HostOptions(c, ip, &o));
  o.across = 0;
  PetscCall(GPUPCAMGHierarchyBuild(A, &o, &H0));
  o.across = 1;
  PetscCall(GPUPCAMGHierarchyBuild(A, &o, &H1));
  *same = (PetscBool)(H0.nlevels == H1.nlevels && H1.nacross == H1.nlevels - 1 && H0.nacross == 0 && H0.nlevels > 1);
  for (PetscInt l = 0; *same && l + 1 < H0.nlevels; l++) {
    PetscBool e1, e2;
    PetscCall(MatEqual(H0.P[l], H1.P[l], &e1));
    PetscCall(MatEqual(H0.A[l + 1], H1.A[l + 1], &e2));
    *same = (PetscBool)(e1 && e2);
  }
  PetscCall(PetscObjectReference((PetscObject)H0.P[0]));
  *P = H0.P[0];
  PetscCall(GPUPCAMGHierarchyDestroy(&H0));
  PetscCall(GPUPCAMGHierarchyDestroy(&H1));
  PetscFunctionReturn(0);
}

/* max |X - Y| / max |Y| (X, Y on the same layout) */
static PetscErrorCode RelDiff(Mat X, Mat Y, PetscReal *d)
{
  Mat       Z;
  PetscReal ny;

  PetscFunctionBegin;
  PetscCall(MatNorm(Y, NORM_FROBENIUS, &ny));
  PetscCall(MatDuplicate(X, MAT_COPY_VALUES, &Z));
  PetscCall(MatAXPY(Z, -1.0, Y, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatNorm(Z, NORM_FROBENIUS, d));
  if (ny > 0) *d /= ny;
  PetscCall(MatDestroy(&Z));
  PetscFunctionReturn(0);
}

/* several ranks: the device setup across ranks against the host setup: levels, their sizes and ranks, P exactly, the
   level matrices to atol (relative, Frobenius), before and after a value-only recompute with A scaled by 2 (A is
   scaled back on return: exact, a power of 2); *bad counts the differences, *nl the levels */
static PetscErrorCode CompareDevice(Mat A, PCGPUAMGCoarsenType c, PCGPUAMGInterpType ip, PetscReal atol, PetscInt *bad, PetscInt *nl, PetscReal *dmax)
{
  GPUPCAMGSetupOptions o;
  GPUPCAMGHierarchy    Hh, Hd;

  PetscFunctionBegin;
  PetscCall(HostOptions(c, ip, &o));
  PetscCall(GPUPCAMGHierarchyBuild(A, &o, &Hh));
  o.location = PC_GPUAMG_SETUP_DEVICE;
  PetscCall(GPUPCAMGHierarchyBuild(A, &o, &Hd));
  *bad  = 0;
  *dmax = 0;
  *nl   = Hd.nlevels;
  if (!Hd.ondevice || Hh.ondevice || Hh.nlevels != Hd.nlevels || Hd.nlevels < 2) (*bad)++;
  for (PetscInt pass = 0; pass < 2 && !*bad; pass++) {
    if (pass == 1) { /* new values on the same pattern: the numeric products only */
      PetscCall(MatScale(A, 2.0));
      PetscCall(GPUPCAMGHierarchyRecompute(A, &Hh));
      PetscCall(GPUPCAMGHierarchyRecompute(A, &Hd));
    }
    for (PetscInt l = 0; l + 1 < Hd.nlevels && !*bad; l++) {
      const GPUPCDevMPIBlocks *bA, *bP;
      PetscInt                 Ml, M0, M1;
      PetscBool                eq;
      PetscReal                d;

      PetscCall(GPUPCAMGDevHierarchyGetLevelMPI(&Hd, l, &bA, &bP));
      PetscCall(MatGetSize(Hh.A[l], &Ml, NULL));
      PetscCall(MatGetSize(Hh.A[l + 1], &M0, NULL));
      PetscCall(MatGetSize(Hd.A[l + 1], &M1, NULL));
      if (!bA || !bP || bA->M != Ml || bP->N != M0 || M0 != M1 || Hh.ranks[l + 1] != Hd.ranks[l + 1]) {
        (*bad)++;
        break;
      }
      PetscCall(MatEqual(Hh.P[l], Hd.P[l], &eq));
      if (!eq) (*bad)++;
      PetscCall(RelDiff(Hd.A[l + 1], Hh.A[l + 1], &d));
      *dmax = PetscMax(*dmax, d);
      if (d > atol) (*bad)++;
    }
  }
  PetscCall(MatScale(A, 0.5));
  PetscCall(GPUPCAMGHierarchyDestroy(&Hh));
  PetscCall(GPUPCAMGHierarchyDestroy(&Hd));
  PetscFunctionReturn(0);
}

/* the finest P of the host setup on A */
static PetscErrorCode FinestP(Mat A, PCGPUAMGCoarsenType c, PCGPUAMGInterpType ip, Mat *P)
{
  GPUPCAMGSetupOptions o;
  GPUPCAMGHierarchy    H;

  PetscFunctionBegin;
  PetscCall(HostOptions(c, ip, &o));
  o.max_levels = 2;
  PetscCall(GPUPCAMGHierarchyBuild(A, &o, &H));
  PetscCheck(H.nlevels == 2, PetscObjectComm((PetscObject)A), PETSC_ERR_PLIB, "the setup built %" PetscInt_FMT " levels, not 2", H.nlevels);
  PetscCall(PetscObjectReference((PetscObject)H.P[0]));
  *P = H.P[0];
  PetscCall(GPUPCAMGHierarchyDestroy(&H));
  PetscFunctionReturn(0);
}

/* row sums of P on the rows where A's row sum is zero and that of every neighbour (an M-matrix: no neighbour with a
   nonzero row sum is where A v = 0 for v = 1 on the rows of nonzero row sum; standard interpolation keeps constants
   only where the eliminated neighbours' rows have zero sums too); entries in the off-diagonal block */
static PetscErrorCode CheckRowSums(Mat A, Mat P, PetscInt *bad, PetscInt *offd)
{
  Vec                one, ra, rp, v, av;
  const PetscScalar *va, *vp, *vv;
  PetscInt           m;
  PetscMPIInt        size;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(P, &one, &rp));
  PetscCall(MatCreateVecs(A, NULL, &ra));
  PetscCall(VecSet(one, 1.0));
  PetscCall(MatMult(P, one, rp));
  PetscCall(VecDestroy(&one));
  PetscCall(MatCreateVecs(A, &one, NULL));
  PetscCall(VecSet(one, 1.0));
  PetscCall(MatMult(A, one, ra));
  PetscCall(VecDestroy(&one));
  PetscCall(VecDuplicate(ra, &v));
  PetscCall(VecDuplicate(ra, &av));
  PetscCall(VecGetLocalSize(ra, &m));
  {
    PetscScalar *w;
    PetscCall(VecGetArrayRead(ra, &va));
    PetscCall(VecGetArrayWrite(v, &w));
    for (PetscInt i = 0; i < m; i++) w[i] = va[i] != 0.0 ? 1.0 : 0.0;
    PetscCall(VecRestoreArrayWrite(v, &w));
    PetscCall(VecRestoreArrayRead(ra, &va));
  }
  PetscCall(MatMult(A, v, av));
  PetscCall(VecGetArrayRead(ra, &va));
  PetscCall(VecGetArrayRead(rp, &vp));
  PetscCall(VecGetArrayRead(av, &vv));
  *bad = 0;
  for (PetscInt i = 0; i < m; i++)
    if (va[i] == 0.0 && vv[i] == 0.0 && PetscAbsScalar(vp[i] - 1.0) > 1e-12) (*bad)++;
  PetscCall(VecRestoreArrayRead(ra, &va));
  PetscCall(VecRestoreArrayRead(rp, &vp));
  PetscCall(VecRestoreArrayRead(av, &vv));
  PetscCall(VecDestroy(&v));
  PetscCall(VecDestroy(&av));
  PetscCall(VecDestroy(&ra));
  PetscCall(VecDestroy(&rp));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, bad, 1, MPIU_INT, MPI_SUM, PetscObjectComm((PetscObject)A)));
  *offd = 0;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  if (size > 1) {
    Mat      Ad, Ao;
    MatInfo  info;
    PetscInt nz;
    PetscCall(MatMPIAIJGetSeqAIJ(P, &Ad, &Ao, NULL));
    PetscCall(MatGetInfo(Ao, MAT_LOCAL, &info));
    nz = (PetscInt)info.nz_used;
    PetscCallMPI(MPI_Allreduce(&nz, offd, 1, MPIU_INT, MPI_SUM, PetscObjectComm((PetscObject)A)));
  }
  PetscFunctionReturn(0);
}

/* max |P - P1| with P gathered onto rank 0 (P1: the one-rank P there; other ranks give 0) */
static PetscErrorCode CompareP(Mat P, Mat P1, PetscReal *diff)
{
  PetscMPIInt rank;
  PetscInt    M, N;
  IS          rows, cols;
  Mat        *sub;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)P), &rank));
  PetscCall(MatGetSize(P, &M, &N));
  PetscCall(ISCreateStride(PETSC_COMM_SELF, rank ? 0 : M, 0, 1, &rows));
  PetscCall(ISCreateStride(PETSC_COMM_SELF, rank ? 0 : N, 0, 1, &cols));
  PetscCall(MatCreateSubMatrices(P, 1, &rows, &cols, MAT_INITIAL_MATRIX, &sub));
  *diff = 0.0;
  if (!rank) {
    PetscInt M1, N1;
    PetscCall(MatGetSize(P1, &M1, &N1));
    if (M1 != M || N1 != N) *diff = PETSC_MAX_REAL;
    else
      for (PetscInt r = 0; r < M; r++) { /* both rows sorted: merge */
        PetscInt           na, nb, a = 0, c = 0;
        const PetscInt    *ja, *jb;
        const PetscScalar *va, *vb;
        PetscCall(MatGetRow(sub[0], r, &na, &ja, &va));
        PetscCall(MatGetRow(P1, r, &nb, &jb, &vb));
        while (a < na || c < nb) {
          PetscScalar d;
          if (c == nb || (a < na && ja[a] < jb[c])) d = va[a++];
          else if (a == na || jb[c] < ja[a]) d = vb[c++];
          else d = va[a++] - vb[c++];
          *diff = PetscMax(*diff, PetscAbsScalar(d));
        }
        PetscCall(MatRestoreRow(sub[0], r, &na, &ja, &va));
        PetscCall(MatRestoreRow(P1, r, &nb, &jb, &vb));
      }
  }
  PetscCallMPI(MPI_Bcast(diff, 1, MPIU_REAL, 0, PetscObjectComm((PetscObject)P)));
  PetscCall(MatDestroySubMatrices(1, &sub));
  PetscCall(ISDestroy(&rows));
  PetscCall(ISDestroy(&cols));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char       *problems[8], *coarsens[4], *interps[8];
  PetscInt    np = 8, nc = 4, ni = 8, n = 27000, bad = 0, refits[256], nref = 256;
  PetscReal   ratio = 1.1, rtol = 1e-8, ptol = 0.0, atol = 1e-13;
  PetscMPIInt size, rank;
  MPI_Comm    comm;
  PetscBool   set;
  PetscInt    devranks = 2;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  comm = PETSC_COMM_WORLD;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-ratio", &ratio, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-rtol", &rtol, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-ptol", &ptol, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-atol", &atol, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-device_ranks", &devranks, NULL));
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-ref_its", refits, &nref, NULL));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-problems", problems, &np, &set));
  if (!set) {
    np = 2;
    PetscCall(PetscStrallocpy("poisson3d", &problems[0]));
    PetscCall(PetscStrallocpy("jump3d", &problems[1]));
  }
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-coarsens", coarsens, &nc, &set));
  if (!set) {
    nc = 2;
    PetscCall(PetscStrallocpy("pmis", &coarsens[0]));
    PetscCall(PetscStrallocpy("hmis", &coarsens[1]));
  }
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-interps", interps, &ni, &set));
  if (!set) {
    ni = 3;
    PetscCall(PetscStrallocpy("direct", &interps[0]));
    PetscCall(PetscStrallocpy("standard", &interps[1]));
    PetscCall(PetscStrallocpy("ext+i", &interps[2]));
  }
  PetscCheck(nref == 0 || nref == np * nc * ni, comm, PETSC_ERR_ARG_SIZ, "-ref_its needs %" PetscInt_FMT " counts (problems x coarsenings x interpolations), got %" PetscInt_FMT, np * nc * ni, nref);
  for (PetscInt p = 0; p < np; p++) {
    Mat A, A1 = NULL;
    Vec b, b1 = NULL;

    PetscCall(GPUPCProblemCreate(comm, problems[p], n, 1, &A, &b));
    if (!rank) PetscCall(GPUPCProblemCreate(PETSC_COMM_SELF, problems[p], n, 1, &A1, &b1));
    for (PetscInt c = 0; c < nc; c++)
      for (PetscInt i = 0; i < ni; i++) {
        PetscInt            ci = -1, ii = -1, its, ref = 0, rbad, offd;
        PCGPUAMGCoarsenType ct;
        PCGPUAMGInterpType  it;
        Mat                 P, P1 = NULL;
        PetscReal           diff = 0.0;
        PetscBool           ok, same = PETSC_FALSE;

        for (PetscInt k = 0; PCGPUAMGCoarsenTypes[k] && k < 4; k++) {
          PetscCall(PetscStrcmp(PCGPUAMGCoarsenTypes[k], coarsens[c], &ok));
          if (ok) ci = k;
        }
        for (PetscInt k = 0; PCGPUAMGInterpTypes[k] && k < 5; k++) {
          PetscCall(PetscStrcmp(PCGPUAMGInterpTypes[k], interps[i], &ok));
          if (ok) ii = k;
        }
        PetscCheck(ci >= 0 && ii >= 0, comm, PETSC_ERR_ARG_WRONG, "unknown coarsening %s or interpolation %s", coarsens[c], interps[i]);
        ct = (PCGPUAMGCoarsenType)ci;
        it = (PCGPUAMGInterpType)ii;
        PetscCall(Solve(A, b, PC_GPUAMG_SETUP_HOST, ct, it, rtol, &its));
        if (nref) { /* the one-rank counts given; on one rank they must be this run's */
          ref = refits[(p * nc + c) * ni + i];
          PetscCheck(size > 1 || its == ref, comm, PETSC_ERR_PLIB, "%s %s %s: %" PetscInt_FMT " iterations on one rank, but -ref_its says %" PetscInt_FMT ": update -ref_its in tests/TESTS", problems[p], coarsens[c], interps[i], its, ref);
        } else {
          if (!rank) PetscCall(Solve(A1, b1, PC_GPUAMG_SETUP_HOST, ct, it, rtol, &ref));
          PetscCallMPI(MPI_Bcast(&ref, 1, MPIU_INT, 0, comm));
        }
        PetscCall(FinestP(A, ct, it, &P));
        PetscCall(CheckRowSums(A, P, &rbad, &offd));
        if (size == 1) PetscCall(CompareOneRank(A1, ct, it, &same, &P1));
        else {
          same = PETSC_TRUE; /* checked by the one-rank runs */
          if (!rank && ct == PC_GPUAMG_COARSEN_PMIS) PetscCall(FinestP(A1, ct, it, &P1));
        }
        if (ct == PC_GPUAMG_COARSEN_PMIS) PetscCall(CompareP(P, P1, &diff));
        PetscCall(MatDestroy(&P1));
        PetscCall(PetscPrintf(comm, "%s %s %s: %" PetscInt_FMT " iterations on %d ranks, %" PetscInt_FMT " on one rank (at most %g); P: %" PetscInt_FMT " rows of zero row sum with row sum not 1, %s%s%s\n", problems[p], coarsens[c], interps[i], its, (int)size, ref, (double)(ratio * ref), rbad,
                              size == 1 ? "one rank" : (offd > 0 ? "reaches other ranks" : (ct == PC_GPUAMG_COARSEN_PMIS ? "NO ENTRIES OF OTHER RANKS" : "no entries of other ranks")), ct != PC_GPUAMG_COARSEN_PMIS ? "" : (diff <= ptol ? ", equals the one-rank P" : ", DIFFERS from the one-rank P"), size > 1 ? "" : (same ? "; across ranks (forced) = rank-local bit for bit" : "; across ranks (forced) DIFFERS from rank-local")));
        if (size > 1 && size <= devranks) { /* the device setup across ranks: the host setup's hierarchy and iterations */
          PetscInt  dbad, nl, dits;
          PetscReal dmax;
          PetscCall(CompareDevice(A, ct, it, atol, &dbad, &nl, &dmax));
          PetscCall(Solve(A, b, PC_GPUAMG_SETUP_DEVICE, ct, it, rtol, &dits));
          PetscCall(PetscPrintf(comm, "  device setup across ranks: %" PetscInt_FMT " levels, %s; level matrices within %.2g of the host setup's (relative), %" PetscInt_FMT " iterations (host setup %" PetscInt_FMT ")\n", nl, dbad ? "DIFFERS from the host setup (levels, ranks, P or level matrices)" : "the host setup's levels, ranks and P, also after a value-only recompute", (double)dmax, dits, its));
          if (dbad || dits != its) bad++;
        }
        if ((PetscReal)its > ratio * ref + 1e-9) bad++;
        if (rbad || (size > 1 && offd == 0 && ct == PC_GPUAMG_COARSEN_PMIS) || diff > ptol || !same) bad++;
        PetscCall(MatDestroy(&P));
      }
    PetscCall(MatDestroy(&A));
    PetscCall(VecDestroy(&b));
    PetscCall(MatDestroy(&A1));
    PetscCall(VecDestroy(&b1));
  }
  PetscCheck(!bad, comm, PETSC_ERR_PLIB, "%" PetscInt_FMT " cases failed (more iterations than -ratio times one rank's, or P's row sums, reach or values)", bad);
  for (PetscInt p = 0; p < np; p++) PetscCall(PetscFree(problems[p]));
  for (PetscInt c = 0; c < nc; c++) PetscCall(PetscFree(coarsens[c]));
  for (PetscInt i = 0; i < ni; i++) PetscCall(PetscFree(interps[i]));
  PetscCall(PetscFinalize());
  return 0;
}

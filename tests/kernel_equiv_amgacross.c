static const char help[] = "PC gpuamg's local part with ghosts and its strength graph built on the device (gpupc/amgdevacross.h:\n"
                           "GPUPCAMGDevLocalGetGhost, GPUPCAMGDevStrengthAcross) against the host setup's GPUPCAMGLocalGetGhost and\n"
                           "GPUPCAMGStrengthClassical, on the active backend's tables (host backend: the host tables; cuda: the\n"
                           "device). For each problem (poisson3d, randcoef3d, jump3d of -n rows) the fine level and the first coarse\n"
                           "level of a host-setup hierarchy (ghost rows with far columns, second ghosts), then the fine level with\n"
                           "explicit zeros stored (dropped, the diagonal kept): the sizes, every array\n"
                           "exactly (X's row pointers, columns and values, gidx on both sides, S and S^T), and the ghosts' PetscSF\n"
                           "(the same graph; a broadcast of the owned global numbers gives gidx's ghosts on both).\n"
                           "Options: -problems <poisson3d,randcoef3d,jump3d> -n <rows> -theta <0.25>\n";

#include <gpupc/amgdevacross.h>
#include <gpupc/problems.h>
#include "testcases.h"

/* a device array of n PetscInts equals the host array ref (bit for bit) */
static PetscErrorCode SameDevInts(MPI_Comm comm, const char *what, const char *field, PetscInt n, const PetscInt *dev, const PetscInt *ref)
{
  PetscInt *h, bad = -1, gbad;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(PetscMax(n, 1), &h));
  PetscCall(GPUPCCopyToHost(h, dev, n));
  for (PetscInt k = 0; k < n && bad < 0; k++)
    if (h[k] != ref[k]) bad = k;
  if (bad >= 0) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %s: %s[%" PetscInt_FMT "] is %" PetscInt_FMT ", the host's %" PetscInt_FMT "\n", what, field, bad, h[bad], ref[bad]));
  PetscCall(PetscFree(h));
  PetscCall(MPIU_Allreduce(&bad, &gbad, 1, MPIU_INT, MPI_MAX, comm));
  PetscCheck(gbad < 0, comm, PETSC_ERR_PLIB, "%s: %s differs from the host's", what, field);
  PetscFunctionReturn(0);
}

/* X's values equal the host's (bit for bit) */
static PetscErrorCode SameDevValues(MPI_Comm comm, const char *what, PetscInt n, const PetscScalar *dev, const PetscReal *ref)
{
  PetscScalar *h;
  PetscInt     bad = -1, gbad;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(PetscMax(n, 1), &h));
  PetscCall(GPUPCCopyToHost(h, dev, n));
  for (PetscInt k = 0; k < n && bad < 0; k++)
    if (PetscRealPart(h[k]) != ref[k]) bad = k;
  if (bad >= 0) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %s: X.a[%" PetscInt_FMT "] is %.17g, the host's %.17g\n", what, bad, (double)PetscRealPart(h[bad]), (double)ref[bad]));
  PetscCall(PetscFree(h));
  PetscCall(MPIU_Allreduce(&bad, &gbad, 1, MPIU_INT, MPI_MAX, comm));
  PetscCheck(gbad < 0, comm, PETSC_ERR_PLIB, "%s: X's values differ from the host's", what);
  PetscFunctionReturn(0);
}

/* the two PetscSFs have the same graph, and a broadcast of the owned points' global numbers gives the ghosts' */
static PetscErrorCode SameSF(MPI_Comm comm, const char *what, const GPUPCAMGLocal *L, PetscSF dsf)
{
  PetscInt           nr[2], nl[2], bad = 0, gbad, *roots, *leaves;
  const PetscInt    *il[2];
  const PetscSFNode *rem[2];
  PetscSF            sf[2] = {L->sf, dsf};

  PetscFunctionBegin;
  for (int s = 0; s < 2; s++) PetscCall(PetscSFGetGraph(sf[s], &nr[s], &nl[s], &il[s], &rem[s]));
  if (nr[0] != nr[1] || nl[0] != nl[1]) bad = 1;
  for (PetscInt k = 0; !bad && k < nl[0]; k++) {
    const PetscInt l0 = il[0] ? il[0][k] : k, l1 = il[1] ? il[1][k] : k;
    if (l0 != l1 || rem[0][k].rank != rem[1][k].rank || rem[0][k].index != rem[1][k].index) bad = 1;
  }
  PetscCall(PetscMalloc2(L->n, &roots, PetscMax(L->nx - L->n, 1), &leaves));
  for (PetscInt r = 0; r < L->n; r++) roots[r] = L->rstart + r;
  for (int s = 0; s < 2 && !bad; s++) {
    for (PetscInt k = 0; k < L->nx - L->n; k++) leaves[k] = -1;
    PetscCall(PetscSFBcastBegin(sf[s], MPIU_INT, roots, leaves, MPI_REPLACE));
    PetscCall(PetscSFBcastEnd(sf[s], MPIU_INT, roots, leaves, MPI_REPLACE));
    for (PetscInt k = 0; k < L->nx - L->n; k++)
      if (leaves[k] != L->gidx[L->n + k]) bad = 1;
  }
  PetscCall(PetscFree2(roots, leaves));
  PetscCall(MPIU_Allreduce(&bad, &gbad, 1, MPIU_INT, MPI_MAX, comm));
  PetscCheck(!gbad, comm, PETSC_ERR_PLIB, "%s: the ghosts' PetscSF differs from the host's", what);
  PetscFunctionReturn(0);
}

/* one level: the host part and graph against the device ones */
static PetscErrorCode CompareLevel(Mat A, PetscReal theta, const char *what)
{
  MPI_Comm          comm = PetscObjectComm((PetscObject)A);
  GPUPCAMGLocal     L;
  GPUPCAMGStrength  S;
  GPUPCDevMPIBlocks B;
  GPUPCAMGDevLocal  D;
  GPUPCAMGDevGraph  G;
  PetscInt          sizes[5], dsizes[5], bad, gbad, tot[3], gtot[3];

  PetscFunctionBegin;
  PetscCall(GPUPCAMGLocalGetGhost(A, 1, &L));
  PetscCall(GPUPCAMGStrengthClassical(&L, theta, 1, &S));
  PetscCall(GPUPCDevMPIBlocksFromMat(A, &B));
  PetscCall(GPUPCAMGDevLocalGetGhost(&B, &D));
  PetscCall(GPUPCAMGDevStrengthAcross(&D, theta, &G));
  sizes[0]  = L.n;
  sizes[1]  = L.ne;
  sizes[2]  = L.nx;
  sizes[3]  = L.rstart;
  sizes[4]  = L.N;
  dsizes[0] = D.n;
  dsizes[1] = D.ne;
  dsizes[2] = D.nx;
  dsizes[3] = D.rstart;
  dsizes[4] = D.N;
  bad       = 0;
  for (int k = 0; k < 5; k++) bad |= sizes[k] != dsizes[k];
  bad |= D.X.m != L.ne || D.X.n != L.nx || D.X.nnz != L.i[L.ne];
  bad |= G.S.m != L.ne || G.S.n != L.nx || G.S.nnz != S.i[S.n] || G.ST.m != L.nx || G.ST.n != L.ne || G.ST.nnz != S.i[S.n];
  if (bad) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %s: n, ne, nx %" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT " (host %" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT "), X %" PetscInt_FMT " entries (host %" PetscInt_FMT "), S %" PetscInt_FMT " (host %" PetscInt_FMT ")\n", what, D.n, D.ne, D.nx, L.n, L.ne, L.nx, D.X.nnz, L.i[L.ne], G.S.nnz, S.i[S.n]));
  PetscCall(MPIU_Allreduce(&bad, &gbad, 1, MPIU_INT, MPI_MAX, comm));
  PetscCheck(!gbad, comm, PETSC_ERR_PLIB, "%s: the device part's sizes differ from the host's", what);
  PetscCheck(S.nx == L.nx, comm, PETSC_ERR_PLIB, "%s: the host graph has %" PetscInt_FMT " points, the part %" PetscInt_FMT, what, S.nx, L.nx);
  PetscCall(SameDevInts(comm, what, "X.i", L.ne + 1, D.X.i, L.i));
  PetscCall(SameDevInts(comm, what, "X.j", L.i[L.ne], D.X.j, L.j));
  PetscCall(SameDevValues(comm, what, L.i[L.ne], D.X.a, L.a));
  PetscCall(SameDevInts(comm, what, "gidx", L.nx, D.gidx, L.gidx));
  {
    PetscInt bad = 0, gbad;
    for (PetscInt p = 0; p < L.nx; p++) bad |= D.hgidx[p] != L.gidx[p];
    PetscCall(MPIU_Allreduce(&bad, &gbad, 1, MPIU_INT, MPI_MAX, comm));
    PetscCheck(!gbad, comm, PETSC_ERR_PLIB, "%s: the host copy of gidx differs from the host part's", what);
  }
  PetscCall(SameSF(comm, what, &L, D.sf));
  PetscCall(SameDevInts(comm, what, "S.i", S.n + 1, G.S.i, S.i));
  PetscCall(SameDevInts(comm, what, "S.j", S.i[S.n], G.S.j, S.j));
  PetscCall(SameDevInts(comm, what, "ST.i", L.nx + 1, G.ST.i, S.ti));
  PetscCall(SameDevInts(comm, what, "ST.j", S.i[S.n], G.ST.j, S.tj));
  tot[0] = L.nx - L.ne; /* second ghosts */
  tot[1] = L.i[L.ne] - L.i[L.n];
  tot[2] = S.i[S.n];
  PetscCall(MPIU_Allreduce(tot, gtot, 3, MPIU_INT, MPI_SUM, comm));
  PetscCall(PetscPrintf(comm, "  %s: %" PetscInt_FMT " rows, the same part on the device (%" PetscInt_FMT " second ghosts, %" PetscInt_FMT " ghost-row entries, %" PetscInt_FMT " strong couplings on all ranks)\n", what, L.N, gtot[0], gtot[1], gtot[2]));
  PetscCall(GPUPCAMGDevStrengthFree(&G));
  PetscCall(GPUPCAMGDevLocalFree(&D));
  PetscCall(GPUPCDevMPIBlocksDestroy(&B));
  PetscCall(GPUPCAMGStrengthFree(&S));
  PetscCall(GPUPCAMGLocalFree(&L));
  PetscFunctionReturn(0);
}

/* explicit zeros in A's pattern: the first entry of every 7th row (an off-diagonal of the ranks below, or the diagonal)
   and the diagonal of every 11th (the device part drops the zeros and keeps the diagonal, as the host's) */
static PetscErrorCode StoredZeros(Mat A)
{
  PetscInt lo, hi, *first;

  PetscFunctionBegin;
  PetscCall(MatGetOwnershipRange(A, &lo, &hi));
  PetscCall(PetscMalloc1(PetscMax(hi - lo, 1), &first));
  for (PetscInt r = lo; r < hi; r++) { /* the rows read before the first change (MatGetRow needs an assembled matrix) */
    const PetscInt *cols;
    PetscInt        nz;
    PetscCall(MatGetRow(A, r, &nz, &cols, NULL));
    first[r - lo] = nz > 0 ? cols[0] : -1;
    PetscCall(MatRestoreRow(A, r, &nz, &cols, NULL));
  }
  for (PetscInt r = lo; r < hi; r++) {
    if (r % 7 == 0 && first[r - lo] >= 0) PetscCall(MatSetValue(A, r, first[r - lo], 0.0, INSERT_VALUES));
    if (r % 11 == 0) PetscCall(MatSetValue(A, r, r, 0.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree(first));
  PetscFunctionReturn(0);
}

static PetscErrorCode RunCase(void)
{
  MPI_Comm             comm = PETSC_COMM_WORLD;
  char                *problems[8];
  PetscInt             nprob = 8, n = 3375;
  PetscReal            theta = 0.25;
  PetscBool            set;
  PetscMPIInt          size;
  GPUPCAMGSetupOptions o;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-problems", problems, &nprob, &set));
  if (!set) {
    nprob = 3;
    PetscCall(PetscStrallocpy("poisson3d", &problems[0]));
    PetscCall(PetscStrallocpy("randcoef3d", &problems[1]));
    PetscCall(PetscStrallocpy("jump3d", &problems[2]));
  }
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-theta", &theta, NULL));
  PetscCall(GPUPCAMGSetupOptionsDefault(&o));
  o.location        = PC_GPUAMG_SETUP_HOST;
  o.location_set    = PETSC_TRUE;
  o.max_levels      = 2;
  o.max_coarse      = 10;
  o.coarse_eq_limit = 0; /* the coarse level on every rank */
  for (PetscInt p = 0; p < nprob; p++) {
    Mat               A, M;
    Vec               b;
    GPUPCAMGHierarchy H;
    char              what[128];

    PetscCall(GPUPCProblemCreate(comm, problems[p], n, 1, &A, &b));
    PetscCall(MatConvert(A, MATMPIAIJ, MAT_INITIAL_MATRIX, &M)); /* the blocks on one rank too */
    PetscCall(PetscPrintf(comm, "%s on %d ranks\n", problems[p], (int)size));
    PetscCall(PetscSNPrintf(what, sizeof(what), "%s, fine level", problems[p]));
    PetscCall(CompareLevel(M, theta, what));
    PetscCall(GPUPCAMGHierarchyBuild(A, &o, &H)); /* from the problem's own type (SEQAIJ on one rank) */
    PetscCheck(H.nlevels == 2, comm, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " levels, expected 2", problems[p], H.nlevels);
    {
      Mat C;
      PetscCall(MatConvert(H.A[1], MATMPIAIJ, MAT_INITIAL_MATRIX, &C));
      PetscCall(PetscSNPrintf(what, sizeof(what), "%s, coarse level", problems[p]));
      PetscCall(CompareLevel(C, theta, what));
      PetscCall(MatDestroy(&C));
    }
    PetscCall(GPUPCAMGHierarchyDestroy(&H));
    PetscCall(StoredZeros(M));
    PetscCall(PetscSNPrintf(what, sizeof(what), "%s, fine level with stored zeros", problems[p]));
    PetscCall(CompareLevel(M, theta, what));
    PetscCall(MatDestroy(&M));
    PetscCall(MatDestroy(&A));
    PetscCall(VecDestroy(&b));
    PetscCall(PetscFree(problems[p]));
  }
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  return TestCasesMain(argc, argv, help, RunCase);
}

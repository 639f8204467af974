static const char help[] = "GPUPCMatHaloStats: the neighbours and ghost values of one product, against the counts of a stencil matrix\n"
                           "whose rows are distributed in slabs of whole planes of an n^3 grid (each rank receives -reach planes of\n"
                           "n^2 values from each neighbouring slab; a slab thinner than the reach reads further ranks too, which the\n"
                           "expected counts follow), for MPIAIJ and each GPUPC type on the same rows; one rank has no halo.\n"
                           "Options: -n <12> -reach <1> (planes the stencil reaches in z)\n";

#include <petscgpupc.h>
#include <gpupc/matgpu.h>

/* the (2 reach + 1)-point line in z plus the 5-point stencil in each plane of an n^3 grid, rows in z-major order */
static PetscErrorCode Stencil(PetscInt n, PetscInt reach, PetscInt nlocal, Mat *A)
{
  PetscInt rstart, rend;

  PetscFunctionBegin;
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, nlocal, nlocal, PETSC_DETERMINE, PETSC_DETERMINE, 5 + 2 * reach, NULL, 2 * reach, NULL, A));
  PetscCall(MatGetOwnershipRange(*A, &rstart, &rend));
  for (PetscInt r = rstart; r < rend; r++) {
    PetscInt x = r % n, y = (r / n) % n, z = r / (n * n);
    PetscCall(MatSetValue(*A, r, r, 4.0 + 2.0 * reach, INSERT_VALUES));
    if (x > 0) PetscCall(MatSetValue(*A, r, r - 1, -1.0, INSERT_VALUES));
    if (x < n - 1) PetscCall(MatSetValue(*A, r, r + 1, -1.0, INSERT_VALUES));
    if (y > 0) PetscCall(MatSetValue(*A, r, r - n, -1.0, INSERT_VALUES));
    if (y < n - 1) PetscCall(MatSetValue(*A, r, r + n, -1.0, INSERT_VALUES));
    for (PetscInt k = 1; k <= reach; k++) {
      if (z - k >= 0) PetscCall(MatSetValue(*A, r, r - k * n * n, -1.0, INSERT_VALUES));
      if (z + k < n) PetscCall(MatSetValue(*A, r, r + k * n * n, -1.0, INSERT_VALUES));
    }
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt       n = 12, reach = 1, planes, *first;
  PetscMPIInt    size, rank;
  PetscInt64     msgs = 0, ghosts = 0, nbrmax = 0, ghostmax = 0;
  const MatType  types[] = {MATAIJ, MATSEGCSR, MATHEC, MATBCSR};
  GPUPCHaloStats st;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reach", &reach, NULL));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCheck(reach >= 1 && reach < n, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-reach %" PetscInt_FMT " must be in [1, n)", reach);
  PetscCheck(n >= size, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-n %" PetscInt_FMT " must give every one of the %d ranks a plane", n, (int)size);
  /* slabs of whole planes, the first n % size ranks one plane more; first[p] = the first plane of rank p */
  PetscCall(PetscMalloc1(size + 1, &first));
  first[0] = 0;
  for (PetscMPIInt p = 0; p < size; p++) first[p + 1] = first[p] + n / size + (p < n % size ? 1 : 0);
  planes = first[rank + 1] - first[rank];
  /* expected: rank p reads the planes [first[p] - reach, first[p]) and [first[p+1], first[p+1] + reach) within the grid */
  for (PetscMPIInt p = 0; p < size; p++) {
    PetscInt lo = PetscMax(0, first[p] - reach), hi = PetscMin(n, first[p + 1] + reach), nbr = 0;
    for (PetscMPIInt q = 0; q < size; q++)
      if (q != p && first[q] < hi && first[q + 1] > lo) nbr++;
    msgs += nbr;
    ghosts += (PetscInt64)(first[p] - lo + hi - first[p + 1]) * n * n;
    nbrmax   = PetscMax(nbrmax, nbr);
    ghostmax = PetscMax(ghostmax, (PetscInt64)(first[p] - lo + hi - first[p + 1]) * n * n);
  }
  for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
    Mat A;
    PetscCall(Stencil(n, reach, planes * n * n, &A));
    if (t) PetscCall(MatConvert(A, types[t], MAT_INPLACE_MATRIX, &A));
    PetscCall(GPUPCMatHaloStats(A, &st));
    PetscCheck(st.known, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "type %s: the halo is not known", types[t]);
    if (size == 1) PetscCheck(st.messages == 0 && st.ghosts == 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "type %s on one rank: %" PetscInt64_FMT " messages, %" PetscInt64_FMT " ghosts", types[t], st.messages, st.ghosts);
    PetscCheck(st.messages == msgs && st.ghosts == ghosts && st.nbr_max == nbrmax && st.ghosts_max == ghostmax, PETSC_COMM_WORLD, PETSC_ERR_PLIB,
               "type %s: messages %" PetscInt64_FMT " (expected %" PetscInt64_FMT "), ghosts %" PetscInt64_FMT " (%" PetscInt64_FMT "), most neighbours %" PetscInt64_FMT " (%" PetscInt64_FMT "), most ghosts %" PetscInt64_FMT " (%" PetscInt64_FMT ")", types[t],
               st.messages, msgs, st.ghosts, ghosts, st.nbr_max, nbrmax, st.ghosts_max, ghostmax);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-7s %d ranks reach %" PetscInt_FMT ": messages %" PetscInt64_FMT " ghosts %" PetscInt64_FMT " most neighbours %" PetscInt64_FMT " most ghosts %" PetscInt64_FMT ": ok\n", types[t], (int)size, reach, st.messages, st.ghosts, st.nbr_max, st.ghosts_max));
    PetscCall(MatDestroy(&A));
  }
  PetscCall(PetscFree(first));
  PetscCall(PetscFinalize());
  return 0;
}

static const char help[] = "The distributed device-only Mat over device blocks (GPUPCDevMPIBlocksCreateMat) and the distributed transpose\n"
                           "of device blocks (GPUPCDevMPIBlocksTranspose) against MPIAIJ: a square A and a rectangular P with uneven\n"
                           "row splits (with -empty, one rank owns no coarse rows), couplings across ranks, in each format (segcsr, hec,\n"
                           "bcsr, auto): MatMult, MatMultAdd (y = z and y != z), MatMultTranspose, MatMultTransposeAdd, MatGetDiagonal,\n"
                           "MatGetInfo and the halo statistics; R = P^T equal to MatTranspose's entry for entry, and R's shell equal to\n"
                           "P's transpose product; new values through GPUPCDevMPIBlocksMatUpdateValues.\n"
                           "Options: -nodes <60> (fine nodes) -bs <1> (block size) -empty (a rank without coarse rows, 3+ ranks)\n";

#include <petscgpupc.h>
#include <gpupc/devmpiblocks.h>
#include <gpupc/matgpu.h>
#include "matmulttest.h" /* CompareProducts */

/* a value in [-1, 1) from two integers (the same on every rank and run) */
static PetscScalar Hash(PetscInt a, PetscInt b)
{
  PetscInt64 h = (PetscInt64)a * 2654435761LL + (PetscInt64)b * 40503LL + 12345;

  h = (h ^ (h >> 13)) * 1274126177LL;
  return (PetscScalar)((double)((h >> 7) & 0xffff) / 32768.0 - 1.0);
}

/* the node split: rank p gets base + (p % 3) nodes, the last rank the rest; with zero_rank >= 0 that rank none */
static PetscErrorCode NodeSplit(PetscInt nodes, PetscInt zero_rank, PetscInt *mine)
{
  PetscMPIInt size, rank;
  PetscInt    base, first = 0, cnt = 0;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  base = nodes / size - 1;
  for (PetscMPIInt p = 0; p < size; p++) {
    PetscInt c = p == zero_rank ? 0 : PetscMax(0, base + (p % 3) - 1);
    if (p == size - 1) c = nodes - first;
    if (p == rank) cnt = c;
    first += c;
  }
  PetscCheck(cnt >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "too few nodes for the ranks");
  *mine = cnt;
  PetscFunctionReturn(0);
}

/* A (square, nodes x nodes in bs x bs blocks): node i couples to i +- 1 and i +- nodes/3 (across ranks); diagonally
   dominant; seed changes the values only. P (nodes x cnodes in blocks): fine node i to coarse nodes i/3, i/3 + 1 and
   (7 i) % cnodes */
static PetscErrorCode Build(PetscInt nodes, PetscInt cnodes, PetscInt bs, PetscBool empty, PetscInt seed, Mat *A, Mat *P)
{
  PetscInt    nloc, cloc, rs, re;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(NodeSplit(nodes, -1, &nloc));
  PetscCall(NodeSplit(cnodes, empty && size >= 3 ? 1 : -1, &cloc));
  /* MPIAIJ on one rank too: the blocks are made from an MPIAIJ's */
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, nloc * bs, nloc * bs, PETSC_DETERMINE, PETSC_DETERMINE));
  PetscCall(MatSetType(*A, MATMPIAIJ));
  PetscCall(MatMPIAIJSetPreallocation(*A, 5 * bs, NULL, 5 * bs, NULL));
  PetscCall(MatCreate(PETSC_COMM_WORLD, P));
  PetscCall(MatSetSizes(*P, nloc * bs, cloc * bs, PETSC_DETERMINE, PETSC_DETERMINE));
  PetscCall(MatSetType(*P, MATMPIAIJ));
  PetscCall(MatMPIAIJSetPreallocation(*P, 3 * bs, NULL, 3 * bs, NULL));
  PetscCall(MatSetBlockSize(*A, bs));
  PetscCall(MatSetBlockSizes(*P, bs, bs));
  PetscCall(MatGetOwnershipRange(*A, &rs, &re));
  for (PetscInt node = rs / bs; node < re / bs; node++) {
    const PetscInt nb[5] = {node, node - 1, node + 1, node - nodes / 3, node + nodes / 3};
    const PetscInt cb[3] = {node / 3, PetscMin(node / 3 + 1, cnodes - 1), (7 * node) % cnodes};

    for (PetscInt a = 0; a < bs; a++) {
      const PetscInt row = node * bs + a;

      for (PetscInt q = 0; q < 5; q++) {
        if (nb[q] < 0 || nb[q] >= nodes || (q > 0 && nb[q] == node)) continue;
        for (PetscInt b = 0; b < bs; b++) {
          const PetscInt col = nb[q] * bs + b;
          PetscScalar    v   = Hash(row + seed, col);

          if (col == row) v = 12.0 * bs + v;
          PetscCall(MatSetValue(*A, row, col, v, ADD_VALUES));
        }
      }
      for (PetscInt q = 0; q < 3; q++) {
        PetscBool dup = PETSC_FALSE;
        for (PetscInt t = 0; t < q; t++) dup = (PetscBool)(dup || cb[t] == cb[q]);
        if (dup) continue;
        for (PetscInt b = 0; b < bs; b++) PetscCall(MatSetValue(*P, row, cb[q] * bs + b, Hash(row, cb[q] * bs + b + seed), INSERT_VALUES));
      }
    }
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(*P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*P, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* every product of the shell S against the MPIAIJ M on gpu vectors (tests/matmulttest.h; the diagonal of square
   ones), the stored entries and the halo statistics */
static PetscErrorCode CheckProducts(Mat S, Mat M, const char *what, const char *fmt)
{
  MatInfo        si, mi;
  GPUPCHaloStats hs, hm;
  char           label[128];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(label, sizeof(label), "%s (%s)", what, fmt));
  PetscCall(CompareProducts(S, M, VECGPU, label));
  PetscCall(MatGetInfo(S, MAT_GLOBAL_SUM, &si));
  PetscCall(MatGetInfo(M, MAT_GLOBAL_SUM, &mi));
  PetscCheck(si.nz_used == mi.nz_used, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: MatGetInfo gives %g entries, MPIAIJ %g", label, (double)si.nz_used, (double)mi.nz_used);
  PetscCall(GPUPCMatHaloStats(S, &hs));
  PetscCall(GPUPCMatHaloStats(M, &hm));
  PetscCheck(hs.known && hs.messages == hm.messages && hs.ghosts == hm.ghosts && hs.nbr_max == hm.nbr_max && hs.ghosts_max == hm.ghosts_max, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: halo statistics %" PetscInt64_FMT " messages, %" PetscInt64_FMT " ghosts; MPIAIJ's %" PetscInt64_FMT ", %" PetscInt64_FMT, label, hs.messages, hs.ghosts, hm.messages, hm.ghosts);
  PetscFunctionReturn(0);
}

/* R (blocks) = MatTranspose(P), entry for entry (the same pattern and values) */
static PetscErrorCode CheckTranspose(Mat P, const GPUPCDevMPIBlocks *RB)
{
  Mat       T, R;
  MatInfo   ti, ri;
  PetscReal nrm;
  PetscInt  m, n, mt, nt;

  PetscFunctionBegin;
  PetscCall(MatTranspose(P, MAT_INITIAL_MATRIX, &T));
  PetscCall(GPUPCDevMPIBlocksToMat(RB, &R));
  PetscCall(MatGetLocalSize(T, &mt, &nt));
  PetscCall(MatGetLocalSize(R, &m, &n));
  PetscCheck(m == mt && n == nt, PETSC_COMM_SELF, PETSC_ERR_PLIB, "P^T: local sizes %" PetscInt_FMT " x %" PetscInt_FMT ", MatTranspose's %" PetscInt_FMT " x %" PetscInt_FMT, m, n, mt, nt);
  PetscCall(MatGetInfo(T, MAT_GLOBAL_SUM, &ti));
  PetscCall(MatGetInfo(R, MAT_GLOBAL_SUM, &ri));
  PetscCheck(ti.nz_used == ri.nz_used, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "P^T: %g entries, MatTranspose's %g", (double)ri.nz_used, (double)ti.nz_used);
  PetscCall(MatAXPY(R, -1.0, T, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatNorm(R, NORM_FROBENIUS, &nrm));
  PetscCheck(nrm == 0.0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "P^T differs from MatTranspose's by %g (Frobenius)", (double)nrm);
  PetscCall(MatDestroy(&R));
  PetscCall(MatDestroy(&T));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt          nodes = 60, bs = 1, cnodes;
  PetscBool         empty = PETSC_FALSE;
  Mat               A, P, A2, P2, RT;
  GPUPCDevMPIBlocks AB, PB, RB, AB2;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nodes", &nodes, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bs", &bs, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-empty", &empty, NULL));
  cnodes = nodes / 3 + 1;
  PetscCall(Build(nodes, cnodes, bs, empty, 0, &A, &P));
  PetscCall(Build(nodes, cnodes, bs, empty, 17, &A2, &P2));
  PetscCall(GPUPCDevMPIBlocksFromMat(A, &AB));
  PetscCall(GPUPCDevMPIBlocksFromMat(A2, &AB2));
  PetscCall(GPUPCDevMPIBlocksFromMat(P, &PB));
  PetscCall(GPUPCDevMPIBlocksTranspose(&PB, &RB));
  PetscCall(CheckTranspose(P, &RB));
  PetscCall(MatTranspose(P, MAT_INITIAL_MATRIX, &RT));
  for (PetscInt f = GPUPC_DEVMAT_SEGCSR; f <= GPUPC_DEVMAT_AUTO; f++) {
    const char *fmt = GPUPCDevMatFormats[f];
    Mat         SA, SP, SR;
    PetscBool   isblocks;
    const char *dname;

    PetscCall(GPUPCDevMPIBlocksCreateMat(&AB, (GPUPCDevMatFormat)f, bs, &SA));
    PetscCall(GPUPCDevMPIBlocksCreateMat(&PB, (GPUPCDevMatFormat)f, bs, &SP));
    PetscCall(GPUPCDevMPIBlocksCreateMat(&RB, (GPUPCDevMatFormat)f, bs, &SR));
    PetscCall(GPUPCDevMPIBlocksMatGetInfo(SA, &isblocks, NULL, NULL, &dname, NULL));
    PetscCheck(isblocks, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the shell is not recognised");
    PetscCheck(f == GPUPC_DEVMAT_AUTO || !strcmp(dname, fmt), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "asked for %s, the diagonal blocks are %s", fmt, dname);
    PetscCall(CheckProducts(SA, A, "A", fmt));
    PetscCall(CheckProducts(SP, P, "P", fmt));
    PetscCall(CheckProducts(SR, RT, "R = P^T", fmt));
    /* new values on the same pattern */
    PetscCall(GPUPCDevMPIBlocksMatUpdateValues(SA, &AB2));
    PetscCall(CheckProducts(SA, A2, "A after new values", fmt));
    if (f == GPUPC_DEVMAT_AUTO) PetscCall(MatView(SA, PETSC_VIEWER_STDOUT_WORLD));
    PetscCall(MatDestroy(&SA));
    PetscCall(MatDestroy(&SP));
    PetscCall(MatDestroy(&SR));
  }
  PetscCall(GPUPCDevMPIBlocksDestroy(&AB));
  PetscCall(GPUPCDevMPIBlocksDestroy(&AB2));
  PetscCall(GPUPCDevMPIBlocksDestroy(&PB));
  PetscCall(GPUPCDevMPIBlocksDestroy(&RB));
  PetscCall(MatDestroy(&RT));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&P));
  PetscCall(MatDestroy(&A2));
  PetscCall(MatDestroy(&P2));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "devmpiblocks_shell: every product, diagonal, count and transpose equal MPIAIJ's\n"));
  PetscCall(PetscFinalize());
  return 0;
}

/*
   Agglomeration of coarse levels onto fewer ranks (PC gpuamg's host setup on several ranks, docs/algorithms.md 4.3).

   A coarse level with few rows a rank costs a cycle one halo exchange per product whatever its size, and its rows
   reach ranks further away as the Galerkin stencils widen (bench/NOTES.md 2026-11-29d: on 8 ranks level 5 of
   randcoef3d has 132 rows a rank and 7 neighbours a rank). So when the next level would have fewer than
   coarse_eq_limit rows per rank holding rows, it is given to about k = max(1, N_c / coarse_eq_limit) ranks instead:
   the ranks holding points are taken in groups of m = ceil(holding / k) consecutive ones, and the first rank of each
   group takes the points of the group (a contiguous range of the same global numbering: its own points stay, the
   others come from its group's ranks), the others none. This is done on P's columns before
   the Galerkin product (P keeps its rows; the coarse points move to their new owners by MatCreateSubMatrix), so the
   product, the value-only recomputation and the cycle's vectors all follow P's column layout, and nothing else moves.
   The global numbering is the same, so coarsening across ranks, whose splitting does not depend on the ranks (pmis,
   with its measures seeded by the global row), gives the same hierarchy as without agglomeration.
   Covered: classical coarsening of scalar problems (one function). Systems (their functions per point) and smoothed
   aggregation (its near-null space per point) would have to move their per-point data too: not done, said in
   -ksp_view.
*/
#include <gpupc/amgsetup.h>

/*@C
   GPUPCAMGAgglomerateMoves - whether GPUPCAMGAgglomerate() would give a coarse level to fewer ranks (the decision
   alone, from the counts: a caller holding P elsewhere than in a Mat asks before it makes one)

   Collective on comm

   Input Parameters:
+  comm  - the level's communicator
.  limit - the rows a rank below which the coarse level goes to fewer ranks (0: never)
.  Nc    - the coarse points in all
-  nc    - this rank's coarse points

   Output Parameters:
+  moves   - whether the coarse points would move
-  holding - the ranks holding coarse points now

   Level: developer

.seealso: GPUPCAMGAgglomerate()
@*/
PetscErrorCode GPUPCAMGAgglomerateMoves(MPI_Comm comm, PetscInt limit, PetscInt Nc, PetscInt nc, PetscBool *moves, PetscMPIInt *holding)
{
  PetscMPIInt size;
  PetscInt    has = nc > 0, nhold, k;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Allreduce(&has, &nhold, 1, MPIU_INT, MPI_SUM, comm));
  *holding = (PetscMPIInt)nhold;
  k        = limit > 0 ? PetscMax(1, Nc / limit) : nhold;
  *moves   = (PetscBool) !(size == 1 || nhold <= 1 || k >= nhold);
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGAgglomerate - gives the coarse points of P (its columns) to fewer ranks when there would be fewer than
   limit a rank

   Collective on P

   Input Parameters:
+  limit - the rows a rank below which the coarse level goes to fewer ranks (0: never)
-  P     - the prolongator (MPIAIJ), rows of the fine level, columns of the coarse one

   Output Parameters:
+  P     - replaced by the same matrix with the new column layout (unchanged if the level stays where it is)
-  ranks - the ranks holding coarse points afterwards

   Level: developer

.seealso: GPUPCAMGHierarchyBuild(), GPUPCAMGAgglomerateMoves()
@*/
PetscErrorCode GPUPCAMGAgglomerate(PetscInt limit, Mat *P, PetscMPIInt *ranks)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)*P);
  PetscMPIInt size, rank, holding = 0;
  PetscInt    Nc, nc, rstart, rend, k, m, cstart, newnc = 0, *counts;
  PetscBool   moves;
  IS          isrow, iscol;
  Mat         Pn;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(MatGetSize(*P, NULL, &Nc));
  PetscCall(MatGetLocalSize(*P, NULL, &nc));
  PetscCall(MatGetOwnershipRangeColumn(*P, &cstart, NULL));
  PetscCall(GPUPCAMGAgglomerateMoves(comm, limit, Nc, nc, &moves, ranks));
  if (!moves) PetscFunctionReturn(0);
  holding = *ranks;
  k       = limit > 0 ? PetscMax(1, Nc / limit) : holding;
  PetscCall(PetscMalloc1(size, &counts));
  PetscCallMPI(MPI_Allgather(&nc, 1, MPIU_INT, counts, 1, MPIU_INT, comm));
  /* groups of m consecutive holding ranks; the first of each group takes the group's points, a contiguous range of the
     global numbering (the ranks between hold none), so its own points stay where they are */
  m = (holding + k - 1) / k;
  for (PetscMPIInt r = 0, h = 0, owner = -1; r < size; r++) {
    if (counts[r] == 0) continue;
    if (h % m == 0) owner = r;
    if (owner == rank) newnc += counts[r];
    h++;
  }
  *ranks = (PetscMPIInt)((holding + m - 1) / m);
  PetscCall(PetscFree(counts));
  /* this rank's new range starts where its old one did when it leads a group; a rank without points gets none */
  PetscCall(ISCreateStride(comm, newnc, newnc ? cstart : 0, 1, &iscol));
  PetscCall(MatGetOwnershipRange(*P, &rstart, &rend));
  PetscCall(ISCreateStride(comm, rend - rstart, rstart, 1, &isrow));
  PetscCall(MatCreateSubMatrix(*P, isrow, iscol, MAT_INITIAL_MATRIX, &Pn));
  PetscCall(ISDestroy(&isrow));
  PetscCall(ISDestroy(&iscol));
  PetscCall(MatDestroy(P));
  *P = Pn;
  PetscFunctionReturn(0);
}

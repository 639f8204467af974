/*
   graphlap: the grounded Laplacian of a weighted random geometric graph in the unit square.

   The square is cut into C x C cells of side r; each cell holds exactly d points
   (-problem_graphlap_degree) at hash-random positions (stratified sampling, so any rank can
   place any point without a sequential stream). Points closer than r are joined with weight
   1 - 0.9 |p - q| / r. One percent of the points (hash-chosen) are grounded with weight 1 and
   every diagonal gets 1e-6 times the weighted degree (isolated points get 1), so the matrix
   is symmetric, strictly diagonally dominant and positive definite.
   Numbering: cell by cell (x fastest), points within a cell consecutive.
*/
#include "problemimpl.h"

typedef struct {
  PetscInt C, d;
  uint64_t seed;
} GraphLap;

static void Position(const GraphLap *g, PetscInt p, PetscReal xy[2])
{
  PetscInt cell = p / g->d;
  xy[0]         = ((cell % g->C) + GPUPCHashUniform(g->seed, 0x71, (uint64_t)p)) / g->C;
  xy[1]         = ((cell / g->C) + GPUPCHashUniform(g->seed, 0x72, (uint64_t)p)) / g->C;
}

static PetscErrorCode GraphLapRow(void *ctx, PetscInt row, PetscInt *ncols, PetscInt cols[], PetscScalar vals[])
{
  const GraphLap *g    = (const GraphLap *)ctx;
  PetscInt        cell = row / g->d, cx = cell % g->C, cy = cell / g->C, k = 0, dk = 0;
  PetscReal       p[2], q[2], r = 1.0 / g->C, deg = 0.0;

  PetscFunctionBegin;
  Position(g, row, p);
  for (PetscInt y = PetscMax(cy - 1, 0); y <= PetscMin(cy + 1, g->C - 1); y++)
    for (PetscInt x = PetscMax(cx - 1, 0); x <= PetscMin(cx + 1, g->C - 1); x++)
      for (PetscInt s = 0; s < g->d; s++) {
        PetscInt  col = (x + y * g->C) * g->d + s;
        PetscReal dist;

        if (col == row) {
          dk        = k;
          cols[k]   = row;
          vals[k++] = 0.0;
          continue;
        }
        Position(g, col, q);
        dist = PetscSqrtReal((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]));
        if (dist >= r) continue;
        cols[k] = col;
        vals[k] = -(1.0 - 0.9 * dist / r);
        deg -= vals[k++];
      }
  vals[dk] = deg > 0.0 ? deg * (1.0 + 1e-6) : 1.0;
  if (GPUPCHashUniform(g->seed, 0x67, (uint64_t)row) < 0.01) vals[dk] += 1.0;
  *ncols = k;
  PetscFunctionReturn(0);
}

static PetscErrorCode GraphLapRhs(void *ctx, PetscInt row, PetscScalar *v)
{
  const GraphLap *g = (const GraphLap *)ctx;

  PetscFunctionBegin;
  *v = 2.0 * GPUPCHashUniform(g->seed, 0xb, (uint64_t)row) - 1.0;
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCProblemCreate_GraphLap(MPI_Comm comm, PetscInt n, PetscInt seed, Mat *A, Vec *b)
{
  GraphLap g = {1, 3, (uint64_t)seed};

  PetscFunctionBegin;
  PetscOptionsBegin(comm, NULL, "GPUPC graph Laplacian problem options", "GPUPCProblemCreate");
  PetscCall(PetscOptionsInt("-problem_graphlap_degree", "graphlap: points per cell of side r (mean degree about 3.1 times it)", "GPUPCProblemCreate", g.d, &g.d, NULL));
  PetscOptionsEnd();
  PetscCheck(g.d >= 1 && g.d <= 64, comm, PETSC_ERR_ARG_OUTOFRANGE, "-problem_graphlap_degree %" PetscInt_FMT " must be between 1 and 64", g.d);
  g.C = (PetscInt)PetscMax(1.0, PetscFloorReal(PetscSqrtReal((PetscReal)n / g.d) + 0.5));
  PetscCall(PetscInfo(NULL, "graphlap: %" PetscInt_FMT "^2 cells of %" PetscInt_FMT " points (asked for %" PetscInt_FMT ")\n", g.C, g.d, n));
  PetscCall(GPUPCAssembleRows(comm, g.C * g.C * g.d, 1, 9 * g.d, GraphLapRow, &g, A));
  PetscCall(GPUPCAssembleRhs(*A, GraphLapRhs, &g, b));
  PetscFunctionReturn(0);
}

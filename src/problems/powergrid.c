/*
   powergrid: the DC conductance system of an on-chip power grid, like the IBM power grid
   benchmarks.

   L metal layers (-problem_powergrid_layers), each a rectangular mesh of wires; layer k has
   a node every 2^k bottom-layer pitches, so upper layers are coarser. Wire segments of layer
   k have conductance about (k+1) (upper wires are wider), jittered +-20% per segment; vias
   (conductance about 4) join every node of layer k+1 to the node below it. Pads on the top
   layer (every -problem_powergrid_pad_pitch nodes) connect through a pad resistance to an
   ideal voltage source Vdd = 1.8 V, which is eliminated: the pad node's diagonal gets the pad
   conductance and b gets conductance * Vdd. A quarter of the bottom-layer nodes (hash-chosen)
   sink a current to ground, b -= I. The matrix is symmetric, diagonally dominant with
   non-positive off-diagonals, strictly dominant in pad rows, irreducible, hence SPD.

   Numbering: layer by layer from the bottom, x fastest. Node names in netlists are
   n<layer>_<x>_<y> (layer from 1, coordinates in bottom-layer pitches), as in the IBM files.
*/
#include "problemimpl.h"

#define PG_VDD 1.8

typedef struct {
  PetscInt  layers, pad_pitch, m0;
  PetscInt  m[16], offset[17];
  uint64_t  seed;
  PetscReal sink_current;
} PowerGrid;

static PetscErrorCode PowerGridSetUp(MPI_Comm comm, PetscInt n, PetscInt seed, PowerGrid *pg)
{
  PetscReal f = 0.0;
  PetscInt  c, top;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(pg, sizeof(*pg)));
  pg->layers       = 4;
  pg->pad_pitch    = 4;
  pg->seed         = (uint64_t)seed;
  pg->sink_current = 1e-3;
  PetscOptionsBegin(comm, NULL, "GPUPC power grid problem options", "GPUPCProblemCreate");
  PetscCall(PetscOptionsInt("-problem_powergrid_layers", "powergrid: metal layers (1 to 12)", "GPUPCProblemCreate", pg->layers, &pg->layers, NULL));
  PetscCall(PetscOptionsInt("-problem_powergrid_pad_pitch", "powergrid: a pad every so many top-layer nodes", "GPUPCProblemCreate", pg->pad_pitch, &pg->pad_pitch, NULL));
  PetscCall(PetscOptionsReal("-problem_powergrid_current", "powergrid: mean sink current (A)", "GPUPCProblemCreate", pg->sink_current, &pg->sink_current, NULL));
  PetscOptionsEnd();
  PetscCheck(pg->layers >= 1 && pg->layers <= 12, comm, PETSC_ERR_ARG_OUTOFRANGE, "-problem_powergrid_layers %" PetscInt_FMT " must be between 1 and 12", pg->layers);
  PetscCheck(pg->pad_pitch >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-problem_powergrid_pad_pitch %" PetscInt_FMT " must be at least 1", pg->pad_pitch);
  /* bottom layer m0 = c * 2^(L-1) + 1 points per direction, so every layer's nodes sit on bottom nodes */
  top = (PetscInt)1 << (pg->layers - 1);
  for (PetscInt k = 0; k < pg->layers; k++) f += PetscPowReal(0.25, (PetscReal)k);
  c             = (PetscInt)PetscMax(1.0, PetscFloorReal((PetscSqrtReal(n / f) - 1.0) / top + 0.5));
  pg->m0        = c * top + 1;
  pg->offset[0] = 0;
  for (PetscInt k = 0; k < pg->layers; k++) {
    pg->m[k]          = (pg->m0 - 1) / ((PetscInt)1 << k) + 1;
    pg->offset[k + 1] = pg->offset[k] + pg->m[k] * pg->m[k];
  }
  PetscFunctionReturn(0);
}

static void NodeOf(const PowerGrid *pg, PetscInt row, PetscInt *k, PetscInt *i, PetscInt *j)
{
  PetscInt l = 0;
  while (row >= pg->offset[l + 1]) l++;
  *k = l;
  *i = (row - pg->offset[l]) % pg->m[l];
  *j = (row - pg->offset[l]) / pg->m[l];
}

static PetscInt RowOf(const PowerGrid *pg, PetscInt k, PetscInt i, PetscInt j)
{
  return pg->offset[k] + i + j * pg->m[k];
}

static PetscReal EdgeConductance(const PowerGrid *pg, PetscInt a, PetscInt b, PetscReal g0)
{
  PetscInt lo = PetscMin(a, b), hi = PetscMax(a, b);
  return g0 * (0.8 + 0.4 * GPUPCHashUniform(pg->seed, (uint64_t)lo, (uint64_t)hi));
}

static PetscReal PadConductance(const PowerGrid *pg, PetscInt row)
{
  PetscInt k, i, j;
  NodeOf(pg, row, &k, &i, &j);
  if (k != pg->layers - 1 || i % pg->pad_pitch || j % pg->pad_pitch) return 0.0;
  return 50.0 * (0.8 + 0.4 * GPUPCHashUniform(pg->seed, 0x9ad, (uint64_t)row));
}

static PetscReal SinkCurrent(const PowerGrid *pg, PetscInt row)
{
  if (row >= pg->offset[1] || GPUPCHashUniform(pg->seed, 0x5c, (uint64_t)row) >= 0.25) return 0.0;
  return pg->sink_current * (0.5 + GPUPCHashUniform(pg->seed, 0x5d, (uint64_t)row));
}

/* off-diagonal neighbors of row with their conductances (no diagonal); returns the count */
static PetscInt Neighbors(const PowerGrid *pg, PetscInt row, PetscInt nb[], PetscReal g[])
{
  PetscInt k, i, j, cnt = 0;

  NodeOf(pg, row, &k, &i, &j);
  const PetscInt  di[4] = {0, -1, 1, 0}, dj[4] = {-1, 0, 0, 1};
  const PetscReal gw = (PetscReal)(k + 1);
  if (k > 0) { /* via down */
    nb[cnt] = RowOf(pg, k - 1, 2 * i, 2 * j);
    g[cnt]  = EdgeConductance(pg, row, nb[cnt], 4.0);
    cnt++;
  }
  for (PetscInt d = 0; d < 4; d++) {
    PetscInt ii = i + di[d], jj = j + dj[d];
    if (ii < 0 || jj < 0 || ii >= pg->m[k] || jj >= pg->m[k]) continue;
    nb[cnt] = RowOf(pg, k, ii, jj);
    g[cnt]  = EdgeConductance(pg, row, nb[cnt], gw);
    cnt++;
  }
  if (k + 1 < pg->layers && i % 2 == 0 && j % 2 == 0) { /* via up */
    nb[cnt] = RowOf(pg, k + 1, i / 2, j / 2);
    g[cnt]  = EdgeConductance(pg, row, nb[cnt], 4.0);
    cnt++;
  }
  return cnt;
}

static PetscErrorCode PowerGridRow(void *ctx, PetscInt row, PetscInt *ncols, PetscInt cols[], PetscScalar vals[])
{
  const PowerGrid *pg = (const PowerGrid *)ctx;
  PetscReal        g[6], diag;
  PetscInt         nb[6], cnt;

  PetscFunctionBegin;
  cnt  = Neighbors(pg, row, nb, g);
  diag = PadConductance(pg, row);
  for (PetscInt q = 0; q < cnt; q++) {
    cols[q] = nb[q];
    vals[q] = -g[q];
    diag += g[q];
  }
  cols[cnt] = row;
  vals[cnt] = diag;
  *ncols    = cnt + 1;
  PetscFunctionReturn(0);
}

static PetscErrorCode PowerGridRhs(void *ctx, PetscInt row, PetscScalar *v)
{
  const PowerGrid *pg = (const PowerGrid *)ctx;

  PetscFunctionBegin;
  *v = PadConductance(pg, row) * PG_VDD - SinkCurrent(pg, row);
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCProblemCreate_PowerGrid(MPI_Comm comm, PetscInt n, PetscInt seed, Mat *A, Vec *b)
{
  PowerGrid pg;

  PetscFunctionBegin;
  PetscCall(PowerGridSetUp(comm, n, seed, &pg));
  PetscCall(PetscInfo(NULL, "powergrid: %" PetscInt_FMT " layers, bottom %" PetscInt_FMT "^2, %" PetscInt_FMT " nodes (asked for %" PetscInt_FMT ")\n", pg.layers, pg.m0, pg.offset[pg.layers], n));
  PetscCall(GPUPCAssembleRows(comm, pg.offset[pg.layers], 1, 7, PowerGridRow, &pg, A));
  PetscCall(GPUPCAssembleRhs(*A, PowerGridRhs, &pg, b));
  PetscFunctionReturn(0);
}

static void NodeName(const PowerGrid *pg, PetscInt row, char name[64])
{
  PetscInt k, i, j, s;
  NodeOf(pg, row, &k, &i, &j);
  s = (PetscInt)1 << k;
  snprintf(name, 64, "n%d_%d_%d", (int)(k + 1), (int)(i * s), (int)(j * s));
}

/*@C
   GPUPCNetlistWritePowerGrid - writes the powergrid problem as a SPICE netlist in the format of
   the IBM power grid benchmarks (R, V and I elements; node names n<layer>_<x>_<y>)

   Collective

   Input Parameters:
+  comm - the communicator (rank 0 writes)
.  file - the netlist file
.  n - target number of nodes, as for GPUPCProblemCreate()
-  seed - the seed, as for GPUPCProblemCreate()

   Notes:
   Reading the file back with GPUPCMatLoadNetlist() gives the matrix and right-hand side of
   GPUPCProblemCreate(comm, "powergrid", n, seed, ...) up to rounding of the resistances
   (the -problem_powergrid_ options apply to both). Pads appear as a resistor from the pad node
   to a node _X_<pad node> held by a voltage source, sinks as current sources to ground.
   Resistors are written in row order, lower-numbered node first, so that numbering nodes by
   first appearance (the reader's rule) reproduces the generator's numbering.

   Level: intermediate

.seealso: GPUPCMatLoadNetlist(), GPUPCProblemCreate()
@*/
PetscErrorCode GPUPCNetlistWritePowerGrid(MPI_Comm comm, const char file[], PetscInt n, PetscInt seed)
{
  PowerGrid   pg;
  PetscMPIInt rank;
  FILE       *fp;

  PetscFunctionBegin;
  PetscCall(PowerGridSetUp(comm, n, seed, &pg));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(PetscFOpen(comm, file, "w", &fp));
  if (rank == 0) {
    PetscInt  N  = pg.offset[pg.layers], nb[6], cnt;
    long long nr = 0, nv = 0, ni = 0;
    PetscReal g[6];
    char      a[64], c[64];

    fprintf(fp, "* GPUPC synthetic power grid: %d layers, %d nodes, seed %d\n", (int)pg.layers, (int)N, (int)seed);
    fprintf(fp, "* written by GPUPCNetlistWritePowerGrid in the IBM power grid benchmark format\n");
    for (PetscInt row = 0; row < N; row++) {
      cnt = Neighbors(&pg, row, nb, g);
      NodeName(&pg, row, c);
      for (PetscInt q = 0; q < cnt; q++) {
        if (nb[q] > row) continue;
        NodeName(&pg, nb[q], a);
        fprintf(fp, "R%lld %s %s %.17g\n", ++nr, a, c, 1.0 / g[q]);
      }
    }
    for (PetscInt row = 0; row < N; row++) {
      PetscReal gp = PadConductance(&pg, row);
      if (gp == 0.0) continue;
      NodeName(&pg, row, c);
      fprintf(fp, "R%lld _X_%s %s %.17g\n", ++nr, c, c, 1.0 / gp);
      fprintf(fp, "V%lld _X_%s 0 %.17g\n", ++nv, c, PG_VDD);
    }
    for (PetscInt row = 0; row < pg.offset[1]; row++) {
      PetscReal cur = SinkCurrent(&pg, row);
      if (cur == 0.0) continue;
      NodeName(&pg, row, c);
      fprintf(fp, "I%lld %s 0 %.17g\n", ++ni, c, cur);
    }
    fprintf(fp, ".op\n.end\n");
    PetscCheck(!ferror(fp), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Writing the netlist %s failed (disk full?)", file);
  }
  PetscCall(PetscFClose(comm, fp));
  PetscFunctionReturn(0);
}

/*
   Structured-grid problems on the unit square/cube with Dirichlet boundaries eliminated:
     poisson2d (5-point), poisson3d (7-point), poisson3d27 (27-point), aniso2d (eps u_xx + u_yy),
     jump3d (7-point, coefficients jumping by -problem_jump between checkerboard regions,
     harmonic face averages), randcoef3d (7-point graph Laplacian, random edge weights over
     -problem_randcoef_orders orders of magnitude),
     convdiff2d/3d (-lap u + beta.grad u, first-order upwind).
   Matrices are scaled by h^2. Grid points are numbered x fastest.
*/
#include "problemimpl.h"

typedef enum {
  ST_POISSON,
  ST_POISSON27,
  ST_ANISO,
  ST_JUMP,
  ST_RANDCOEF,
  ST_CONVDIFF
} StencilKind;

typedef struct {
  StencilKind kind;
  PetscInt    dim, m; /* m interior points per direction */
  PetscReal   eps, jump, peclet, orders;
  PetscInt    blocks;
  uint64_t    seed;
} Stencil;

static void Coords(const Stencil *s, PetscInt row, PetscInt c[3])
{
  c[0] = row % s->m;
  c[1] = (row / s->m) % s->m;
  c[2] = s->dim == 3 ? row / (s->m * s->m) : 0;
}

/* jump3d: coefficient of the cell at grid point c; checkerboard of regions, jittered per region */
static PetscReal Kappa(const Stencil *s, const PetscInt c[3])
{
  PetscInt r[3], id;

  for (PetscInt d = 0; d < 3; d++) r[d] = (c[d] * s->blocks) / s->m;
  id = r[0] + s->blocks * (r[1] + s->blocks * r[2]);
  return ((r[0] + r[1] + r[2]) % 2 ? s->jump : 1.0) * (1.0 + GPUPCHashUniform(s->seed, 0x6a, (uint64_t)id));
}

/* randcoef3d: weight of the edge leaving grid point `row` in direction d (side +1 or -1):
   10^(orders * u), u a hash of the edge (the same from both ends); boundary edges hash
   (row, d, side), so the eliminated Dirichlet neighbours ground the boundary rows */
static PetscReal EdgeWeight(const Stencil *s, PetscInt row, PetscInt d, PetscInt side, PetscBool interior, const PetscInt stride[3])
{
  uint64_t id = interior ? 3 * (uint64_t)(side > 0 ? row : row - stride[d]) + (uint64_t)d : 6 * (uint64_t)row + 2 * (uint64_t)d + (side > 0);

  return PetscPowReal(10.0, s->orders * GPUPCHashUniform(s->seed, interior ? 0x7b : 0x7c, id));
}

static PetscErrorCode StencilRow(void *ctx, PetscInt row, PetscInt *ncols, PetscInt cols[], PetscScalar vals[])
{
  const Stencil  *s = (const Stencil *)ctx;
  PetscInt        c[3], k = 0, stride[3] = {1, s->m, s->m * s->m};
  PetscScalar     diag    = 0.0;
  const PetscReal beta[3] = {1.0, 0.7, 0.4};

  PetscFunctionBegin;
  Coords(s, row, c);
  if (s->kind == ST_POISSON27) {
    for (PetscInt dz = -1; dz <= 1; dz++)
      for (PetscInt dy = -1; dy <= 1; dy++)
        for (PetscInt dx = -1; dx <= 1; dx++) {
          PetscInt q[3] = {c[0] + dx, c[1] + dy, c[2] + dz};
          if (!dx && !dy && !dz) {
            cols[k]   = row;
            vals[k++] = 26.0;
            continue;
          }
          if (q[0] < 0 || q[0] >= s->m || q[1] < 0 || q[1] >= s->m || q[2] < 0 || q[2] >= s->m) continue;
          cols[k]   = row + dx + dy * stride[1] + dz * stride[2];
          vals[k++] = -1.0;
        }
    *ncols = k;
    PetscFunctionReturn(0);
  }
  PetscReal kp = s->kind == ST_JUMP ? Kappa(s, c) : 1.0;
  /* neighbors in increasing column order: -z, -y, -x, center, +x, +y, +z */
  for (PetscInt side = -1; side <= 1; side += 2) {
    for (PetscInt dd = 0; dd < s->dim; dd++) {
      PetscInt  d = side < 0 ? s->dim - 1 - dd : dd, q[3] = {c[0], c[1], c[2]};
      PetscReal w = 1.0;

      q[d] += side;
      if (s->kind == ST_ANISO && d == 0) w = s->eps;
      if (s->kind == ST_RANDCOEF) w = EdgeWeight(s, row, d, side, (PetscBool)(q[d] >= 0 && q[d] < s->m), stride);
      if (s->kind == ST_JUMP) {
        if (q[d] >= 0 && q[d] < s->m) {
          PetscReal kq = Kappa(s, q);
          w            = 2.0 * kp * kq / (kp + kq);
        } else w = kp;
      }
      diag += w;
      if (s->kind == ST_CONVDIFF && side < 0) { /* upwind: beta > 0, so the upstream point is -e_d */
        PetscReal cb = s->peclet * beta[d] / (s->m + 1);
        diag += cb;
        w += cb;
      }
      if (q[d] >= 0 && q[d] < s->m) {
        cols[k]   = row + side * stride[d];
        vals[k++] = -w;
      }
    }
    if (side < 0) { /* the center goes between the lower and upper neighbors; filled below */
      cols[k]   = row;
      vals[k++] = 0.0;
    }
  }
  for (PetscInt j = 0; j < k; j++)
    if (cols[j] == row) vals[j] = diag;
  *ncols = k;
  PetscFunctionReturn(0);
}

static PetscErrorCode RandomRhs(void *ctx, PetscInt row, PetscScalar *v)
{
  const Stencil *s = (const Stencil *)ctx;

  PetscFunctionBegin;
  *v = 2.0 * GPUPCHashUniform(s->seed, 0xb, (uint64_t)row) - 1.0;
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCProblemCreate_Stencil(MPI_Comm comm, const char name[], PetscInt n, PetscInt seed, Mat *A, Vec *b)
{
  Stencil   s = {ST_POISSON, 2, 1, 1e-3, 1e6, 100.0, 6.0, 4, (uint64_t)seed};
  PetscBool match;
  PetscInt  N;

  PetscFunctionBegin;
  static const struct {
    const char *name;
    PetscInt    dim;
    StencilKind kind;
  } table[] = {
    {"poisson2d", 2, ST_POISSON},
    {"poisson3d", 3, ST_POISSON},
    {"poisson3d27", 3, ST_POISSON27},
    {"aniso2d", 2, ST_ANISO},
    {"jump3d", 3, ST_JUMP},
    {"randcoef3d", 3, ST_RANDCOEF},
    {"convdiff2d", 2, ST_CONVDIFF},
    {"convdiff3d", 3, ST_CONVDIFF},
  };
  PetscInt which = -1;

  for (PetscInt i = 0; i < (PetscInt)(sizeof(table) / sizeof(table[0])); i++) {
    PetscCall(PetscStrcmp(name, table[i].name, &match));
    if (match) which = i;
  }
  PetscCheck(which >= 0, comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "%s is not a stencil problem", name);
  s.dim  = table[which].dim;
  s.kind = table[which].kind;
  PetscOptionsBegin(comm, NULL, "GPUPC structured-grid problem options", "GPUPCProblemCreate");
  if (s.kind == ST_ANISO) PetscCall(PetscOptionsReal("-problem_aniso_eps", "aniso2d: coefficient of u_xx (u_yy has 1)", "GPUPCProblemCreate", s.eps, &s.eps, NULL));
  if (s.kind == ST_JUMP) {
    PetscCall(PetscOptionsReal("-problem_jump", "jump3d: coefficient ratio between regions", "GPUPCProblemCreate", s.jump, &s.jump, NULL));
    PetscCall(PetscOptionsInt("-problem_jump_blocks", "jump3d: checkerboard regions per direction", "GPUPCProblemCreate", s.blocks, &s.blocks, NULL));
  }
  if (s.kind == ST_RANDCOEF) PetscCall(PetscOptionsReal("-problem_randcoef_orders", "randcoef3d: edge weights are 10^(orders * uniform[0,1))", "GPUPCProblemCreate", s.orders, &s.orders, NULL));
  if (s.kind == ST_CONVDIFF) PetscCall(PetscOptionsReal("-problem_convdiff_peclet", "convdiff: Peclet number |beta| (cell Peclet = it * h)", "GPUPCProblemCreate", s.peclet, &s.peclet, NULL));
  PetscOptionsEnd();
  PetscCheck(s.eps > 0 && s.jump > 0 && s.peclet >= 0 && s.blocks > 0 && s.orders >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "Problem %s: -problem_aniso_eps and -problem_jump must be positive, -problem_convdiff_peclet and -problem_randcoef_orders non-negative, -problem_jump_blocks >= 1", name);
  s.m = (PetscInt)PetscMax(1.0, PetscFloorReal(PetscPowReal((PetscReal)n, 1.0 / s.dim) + 0.5));
  N   = s.dim == 2 ? s.m * s.m : s.m * s.m * s.m;
  PetscCall(PetscInfo(NULL, "%s: %" PetscInt_FMT "^%" PetscInt_FMT " = %" PetscInt_FMT " unknowns (asked for %" PetscInt_FMT ")\n", name, s.m, s.dim, N, n));
  PetscCall(GPUPCAssembleRows(comm, N, 1, 27, StencilRow, &s, A));
  PetscCall(GPUPCAssembleRhs(*A, RandomRhs, &s, b));
  PetscFunctionReturn(0);
}

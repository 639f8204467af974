/*
   elasticity3d: linear elasticity (Navier-Lame) on the unit cube, clamped on the boundary,
   finite differences on an m^3 grid of interior nodes, 3 unknowns per node (block size 3):

     A = mu * (-Laplacian, 7-point, per component) + (lambda + mu) * B^T B

   where B is the discrete divergence with central differences evaluated at the interior
   nodes. Both terms are symmetric (the second positive semidefinite, the first definite), so
   A is SPD; it is not diagonally dominant (mixed-derivative couplings have both signs).
   The rigid-body modes are attached as the near null space (MatSetNearNullSpace) for AMG.
   Scaled by h^2; mu = 1, lambda from -problem_elasticity_nu (Poisson ratio, default 0.3).
*/
#include "problemimpl.h"

typedef struct {
  PetscInt  m;
  PetscReal mu, lambda;
  uint64_t  seed;
} Elasticity;

static void Add(PetscInt *k, PetscInt cols[], PetscScalar vals[], PetscInt col, PetscScalar v)
{
  for (PetscInt j = 0; j < *k; j++)
    if (cols[j] == col) {
      vals[j] += v;
      return;
    }
  cols[*k] = col;
  vals[*k] = v;
  (*k)++;
}

static PetscErrorCode ElasticityRow(void *ctx, PetscInt row, PetscInt *ncols, PetscInt cols[], PetscScalar vals[])
{
  const Elasticity *e    = (const Elasticity *)ctx;
  PetscInt          node = row / 3, a = row % 3, m = e->m, k = 0;
  PetscInt          p[3] = {node % m, (node / m) % m, node / (m * m)};
  PetscReal         cg   = 0.25 * (e->lambda + e->mu);

#define INSIDE(c) ((c)[0] >= 0 && (c)[0] < m && (c)[1] >= 0 && (c)[1] < m && (c)[2] >= 0 && (c)[2] < m)
#define NODE(c)   ((c)[0] + m * ((c)[1] + m * (c)[2]))
  PetscFunctionBegin;
  Add(&k, cols, vals, row, 6.0 * e->mu);
  for (PetscInt d = 0; d < 3; d++)
    for (PetscInt s = -1; s <= 1; s += 2) {
      PetscInt q[3] = {p[0], p[1], p[2]};
      q[d] += s;
      if (INSIDE(q)) Add(&k, cols, vals, 3 * NODE(q) + a, -e->mu);
    }
  /* (B^T B)(p a, q b) = sum over r = p - s e_a inside, q = r + t e_b inside, of s t / 4 */
  for (PetscInt s = -1; s <= 1; s += 2) {
    PetscInt r[3] = {p[0], p[1], p[2]};
    r[a] -= s;
    if (!INSIDE(r)) continue;
    for (PetscInt b = 0; b < 3; b++)
      for (PetscInt t = -1; t <= 1; t += 2) {
        PetscInt q[3] = {r[0], r[1], r[2]};
        q[b] += t;
        if (INSIDE(q)) Add(&k, cols, vals, 3 * NODE(q) + b, cg * s * t);
      }
  }
#undef INSIDE
#undef NODE
  *ncols = k;
  PetscFunctionReturn(0);
}

static PetscErrorCode ElasticityRhs(void *ctx, PetscInt row, PetscScalar *v)
{
  const Elasticity *e = (const Elasticity *)ctx;

  PetscFunctionBegin;
  *v = 2.0 * GPUPCHashUniform(e->seed, 0xb, (uint64_t)row) - 1.0;
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCProblemCreate_Elasticity(MPI_Comm comm, PetscInt n, PetscInt seed, Mat *A, Vec *b)
{
  Elasticity   e  = {1, 1.0, 0.0, (uint64_t)seed};
  PetscReal    nu = 0.3;
  Vec          coords;
  PetscInt     lo, hi;
  PetscScalar *c;
  MatNullSpace nsp;

  PetscFunctionBegin;
  PetscOptionsBegin(comm, NULL, "GPUPC elasticity problem options", "GPUPCProblemCreate");
  PetscCall(PetscOptionsReal("-problem_elasticity_nu", "elasticity3d: Poisson ratio, in [0, 0.5)", "GPUPCProblemCreate", nu, &nu, NULL));
  PetscOptionsEnd();
  PetscCheck(nu >= 0.0 && nu < 0.5, comm, PETSC_ERR_ARG_OUTOFRANGE, "-problem_elasticity_nu %g must be in [0, 0.5)", (double)nu);
  e.lambda = 2.0 * e.mu * nu / (1.0 - 2.0 * nu);
  e.m      = (PetscInt)PetscMax(1.0, PetscFloorReal(PetscPowReal(n / 3.0, 1.0 / 3.0) + 0.5));
  PetscCall(GPUPCAssembleRows(comm, 3 * e.m * e.m * e.m, 3, 20, ElasticityRow, &e, A));
  PetscCall(GPUPCAssembleRhs(*A, ElasticityRhs, &e, b));
  /* rigid-body modes from the node coordinates */
  PetscCall(MatCreateVecs(*A, &coords, NULL));
  PetscCall(VecSetBlockSize(coords, 3));
  PetscCall(VecGetOwnershipRange(coords, &lo, &hi));
  PetscCall(VecGetArrayWrite(coords, &c));
  for (PetscInt row = lo; row < hi; row++) {
    PetscInt node = row / 3, p[3] = {node % e.m, (node / e.m) % e.m, node / (e.m * e.m)};
    c[row - lo] = (p[row % 3] + 1.0) / (e.m + 1.0);
  }
  PetscCall(VecRestoreArrayWrite(coords, &c));
  PetscCall(MatNullSpaceCreateRigidBody(coords, &nsp));
  PetscCall(MatSetNearNullSpace(*A, nsp));
  PetscCall(MatNullSpaceDestroy(&nsp));
  PetscCall(VecDestroy(&coords));
  PetscFunctionReturn(0);
}

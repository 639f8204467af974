/*
   Test matrices for PC cmg, assembled in parallel (every rank computes its own rows; the
   random weights come from a hash of the edge, so they do not depend on the number of ranks).

   -problem grid   : 2D/3D grid Laplacian (-dim, -n) with weights 10^(spread * u), u in [0,1)
   -problem graph  : graph Laplacian of a circulant graph on -n^2 vertices, neighbours at offsets +-1, 7, 31,
                     101, 517, 1999 (mod N), weights 10^(spread * u): vertices of degree 12 with
                     independent weights, which makes weak vertices for the clustering
   -problem power  : power-grid-like two-layer mesh: a fine layer (weights 1..10), a strong
                     upper layer (weight 100 * 10^u), vias every 4th point (weight 1e3), pads
                     (strictly dominant rows, excess 1e4) every 16th point of the upper layer
   -problem pairs  : -n copies of a 20-vertex graph a - b (weight 1), b - c_j (0.9), c_j - d_j (1), j < 9, on which
                     b is a weak vertex (docs/algorithms.md 2.2 step 2) exactly when the edge of the 2-cycle a <-> b
                     counts once at b: t(b) = 1 < vol(b) / 8 = 1.1375
   -problem cycles : -n triangles u -> v -> w -> u whose weights differ by 4 ulp between a_ij and a_ji (within
                     the symmetry tolerance): each vertex's heaviest neighbour is the next one round the triangle, a
                     3-cycle of the heaviest-neighbour graph, which the clustering cuts on one thread
   -ground none    : pure Laplacian (singular, floating)
   -ground pads    : a few rows strictly dominant (every 97th row gets excess = its weight sum)
   -ground all     : every row strictly dominant by a random 0..10% (an SDDM matrix)
   -positive f     : a fraction f of the off-diagonal pairs flipped to positive sign (SDD, not M-matrix)
   -dirichlet      : grid boundary rows hold only their diagonal while interior rows keep their couplings
                     to them (the nonsymmetric Dirichlet assembly of PETSc's DMDA examples, e.g. ksp ex45)
*/
#ifndef CMGTEST_H
#define CMGTEST_H

#include <petscksp.h>
#include <petscgpupc.h>

typedef struct {
  char      problem[32], ground[32];
  PetscInt  dim, n;
  PetscReal spread, positive;
  PetscBool dirichlet;
} CMGTestProblem;

static inline PetscReal CMGTestHash(PetscInt a, PetscInt b, PetscInt salt)
{
  unsigned long long h    = 1469598103934665603ULL;
  unsigned long long v[3] = {(unsigned long long)PetscMin(a, b), (unsigned long long)PetscMax(a, b), (unsigned long long)salt};
  for (int k = 0; k < 3; k++) {
    h ^= v[k] + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h *= 1099511628211ULL;
    h ^= h >> 29;
  }
  return (PetscReal)(h >> 11) / 9007199254740992.0; /* [0, 1) */
}

static inline PetscErrorCode CMGTestGetProblem(CMGTestProblem *p)
{
  PetscFunctionBegin;
  PetscCall(PetscStrcpy(p->problem, "grid"));
  PetscCall(PetscStrcpy(p->ground, "pads"));
  p->dim      = 2;
  p->n        = 32;
  p->spread   = 6.0;
  p->positive = 0.0;
  { /* the same hierarchies on every backend: the host backend's default last-level size unless a test sets one */
    PetscBool set;
    PetscCall(PetscOptionsHasName(NULL, NULL, "-pc_cmg_direct_size", &set));
    if (!set) PetscCall(PetscOptionsSetValue(NULL, "-pc_cmg_direct_size", "700"));
  }
  PetscCall(PetscOptionsGetString(NULL, NULL, "-problem", p->problem, sizeof(p->problem), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-ground", p->ground, sizeof(p->ground), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dim", &p->dim, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &p->n, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-spread", &p->spread, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-positive", &p->positive, NULL));
  p->dirichlet = PETSC_FALSE;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-dirichlet", &p->dirichlet, NULL));
  PetscFunctionReturn(0);
}

/* is grid vertex i on the boundary */
static inline PetscBool CMGTestBoundary(const CMGTestProblem *p, PetscInt i)
{
  PetscInt n = p->n, c[3] = {i % n, (i / n) % n, p->dim == 3 ? i / (n * n) : 1};
  for (PetscInt d = 0; d < p->dim; d++)
    if (c[d] == 0 || c[d] == n - 1) return PETSC_TRUE;
  return PETSC_FALSE;
}

/* neighbours and weights of vertex i; returns the count (at most 13) and the pad excess */
static inline PetscInt CMGTestNeighbors(const CMGTestProblem *p, PetscInt i, PetscInt *nb, PetscReal *w, PetscReal *pad)
{
  PetscInt n = p->n, k = 0;

  *pad = 0.0;
  if (!strcmp(p->problem, "graph")) {
    const PetscInt off[6] = {1, 7, 31, 101, 517, 1999}, N = n * n;
    for (PetscInt d = 0; d < 6; d++)
      for (PetscInt s = -1; s <= 1; s += 2) {
        PetscInt j = ((i + s * off[d]) % N + N) % N;
        if (j == i || off[d] >= N / 2) continue;
        nb[k] = j;
        w[k]  = PetscPowReal(10.0, p->spread * CMGTestHash(i, j, 6));
        k++;
      }
    return k;
  }
  if (!strcmp(p->problem, "pairs")) {
    const PetscInt base = i - i % 20, r = i % 20;
    if (r == 0 || r == 1) { /* a and b */
      nb[k]  = base + 1 - r;
      w[k++] = 1.0;
    }
    for (PetscInt j = 0; r == 1 && j < 9; j++) {
      nb[k]  = base + 2 + j;
      w[k++] = 0.9;
    }
    if (r >= 2 && r < 11) { /* c_j */
      nb[k]  = base + 1;
      w[k++] = 0.9;
      nb[k]  = base + r + 9;
      w[k++] = 1.0;
    }
    if (r >= 11) { /* d_j */
      nb[k]  = base + r - 9;
      w[k++] = 1.0;
    }
    return k;
  }
  if (!strcmp(p->problem, "cycles")) {
    const PetscInt base = i - i % 3, r = i % 3;
    nb[k]  = base + (r + 1) % 3;
    w[k++] = 1.0 + 4 * PETSC_MACHINE_EPSILON;
    nb[k]  = base + (r + 2) % 3;
    w[k++] = 1.0;
    return k;
  }
  if (!strcmp(p->problem, "power")) {
    PetscInt layer = i / (n * n), r = i % (n * n), x = r % n, y = r / n;
    for (PetscInt d = 0; d < 2; d++)
      for (PetscInt s = -1; s <= 1; s += 2) {
        PetscInt xx = x + (d == 0 ? s : 0), yy = y + (d == 1 ? s : 0);
        if (xx < 0 || xx >= n || yy < 0 || yy >= n) continue;
        nb[k] = layer * n * n + yy * n + xx;
        w[k]  = layer == 0 ? 1.0 + 9.0 * CMGTestHash(i, nb[k], 1) : 100.0 * PetscPowReal(10.0, CMGTestHash(i, nb[k], 2));
        k++;
      }
    if (x % 4 == 0 && y % 4 == 0) { /* via */
      nb[k] = (1 - layer) * n * n + r;
      w[k]  = 1e3;
      k++;
    }
    if (layer == 1 && x % 16 == 0 && y % 16 == 0) *pad = 1e4;
    return k;
  }
  {
    PetscInt c[3] = {i % n, (i / n) % n, p->dim == 3 ? i / (n * n) : 0}, stride = 1;
    for (PetscInt d = 0; d < p->dim; d++, stride *= n)
      for (PetscInt s = -1; s <= 1; s += 2) {
        PetscInt cc = c[d] + s;
        if (cc < 0 || cc >= n) continue;
        nb[k] = i + s * stride;
        w[k]  = PetscPowReal(10.0, p->spread * CMGTestHash(i, nb[k], 3));
        k++;
      }
  }
  return k;
}

static inline PetscErrorCode CMGTestMatrix(const CMGTestProblem *p, Mat *A)
{
  PetscInt N, lo, hi;

  PetscFunctionBegin;
  if (!strcmp(p->problem, "power")) N = 2 * p->n * p->n;
  else if (!strcmp(p->problem, "graph")) N = p->n * p->n;
  else if (!strcmp(p->problem, "pairs")) N = 20 * p->n;
  else if (!strcmp(p->problem, "cycles")) N = 3 * p->n;
  else if (!strcmp(p->problem, "grid")) N = p->dim == 3 ? p->n * p->n * p->n : p->n * p->n;
  else SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-problem grid, graph, power, pairs or cycles, not %s", p->problem);
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, N, N));
  PetscCall(MatSetType(*A, MATAIJ));
  PetscCall(MatSeqAIJSetPreallocation(*A, 13, NULL));
  PetscCall(MatMPIAIJSetPreallocation(*A, 13, NULL, 12, NULL));
  PetscCall(MatGetOwnershipRange(*A, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) {
    PetscInt    nb[13], k;
    PetscReal   w[13], pad, sum = 0.0;
    PetscScalar v[13];

    k = CMGTestNeighbors(p, i, nb, w, &pad);
    for (PetscInt j = 0; j < k; j++) {
      PetscBool flip = (PetscBool)(p->positive > 0 && CMGTestHash(i, nb[j], 4) < p->positive);
      v[j]           = flip ? w[j] : -w[j];
      sum += w[j];
    }
    if (!strcmp(p->ground, "pads") && (i % 97 == 0 || pad > 0)) sum += pad > 0 ? pad : sum;
    else if (!strcmp(p->ground, "all")) sum *= 1.0 + 0.1 * CMGTestHash(i, i, 5);
    else if (strcmp(p->ground, "none") && strcmp(p->ground, "pads")) SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-ground none, pads or all, not %s", p->ground);
    nb[k] = i;
    v[k]  = sum;
    if (p->dirichlet && !strcmp(p->problem, "grid") && CMGTestBoundary(p, i)) PetscCall(MatSetValues(*A, 1, &i, 1, &nb[k], &v[k], INSERT_VALUES));
    else PetscCall(MatSetValues(*A, 1, &i, k + 1, nb, v, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

#endif

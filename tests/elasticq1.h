/*
   elasticq1.h - a test problem: linear elasticity on a beam of trilinear (Q1) hexahedra, 2 ne x ne x ne elements of
   size 1/ne, clamped at x = 0, three unknowns per node (block size 3), node-major. Assembled element by element with
   MatSetValues/ADD_VALUES into whatever type MatSetFromOptions picks (aij, baij, sbaij, bcsr, ...), with every rank
   but one (empty_rank) owning a contiguous range of nodes; the empty rank owns no rows, as a rank of PETSc's ksp ex56
   does on 2 ranks. Young's modulus 1 (pass 0) or 1 on x < 1 and 10 beyond (pass 1: new values, same pattern).
*/
#ifndef GPUPC_TESTS_ELASTICQ1_H
#define GPUPC_TESTS_ELASTICQ1_H

#include <petscmat.h>

typedef struct {
  PetscInt  ne, nx, ny, nz; /* elements across, elements per direction */
  PetscInt  nstart, nend;   /* owned nodes */
  PetscReal h;
} ElasticQ1;

/* node range of rank r of size ranks: nodes split evenly over the ranks other than empty_rank */
static inline void ElasticQ1Range(PetscInt nn, PetscMPIInt size, PetscMPIInt rank, PetscMPIInt empty_rank, PetscInt *s, PetscInt *e)
{
  PetscInt parts = (empty_rank >= 0 && empty_rank < size && size > 1) ? size - 1 : size;
  PetscInt p     = (empty_rank >= 0 && empty_rank < size && size > 1 && rank > empty_rank) ? rank - 1 : rank;

  if (size > 1 && rank == empty_rank) {
    *s = *e = 0;
    return;
  }
  *s = nn / parts * p + PetscMin(p, nn % parts);
  *e = *s + nn / parts + (p < nn % parts ? 1 : 0);
}

/* gradients of the 8 shape functions at a Gauss point (xi, eta, zeta in {-1/sqrt3, 1/sqrt3}) of an element of size h */
static inline void ElasticQ1Gradients(PetscReal h, const PetscReal q[3], PetscReal g[8][3])
{
  for (PetscInt a = 0; a < 8; a++) {
    PetscReal s[3] = {(a & 1) ? 1.0 : -1.0, (a & 2) ? 1.0 : -1.0, (a & 4) ? 1.0 : -1.0};
    PetscReal f[3];
    for (PetscInt d = 0; d < 3; d++) f[d] = 1.0 + s[d] * q[d];
    g[a][0] = s[0] * f[1] * f[2] / 8.0 * 2.0 / h;
    g[a][1] = f[0] * s[1] * f[2] / 8.0 * 2.0 / h;
    g[a][2] = f[0] * f[1] * s[2] / 8.0 * 2.0 / h;
  }
}

/* the 24 x 24 element stiffness of an isotropic material (E, nu): K_ab^pq = int lambda dNa/dx_p dNb/dx_q +
   mu (dNa/dx_q dNb/dx_p + delta_pq grad Na . grad Nb), 2 x 2 x 2 Gauss points */
static inline void ElasticQ1Element(PetscReal h, PetscReal E, PetscReal nu, PetscScalar K[24 * 24])
{
  const PetscReal lam = E * nu / ((1.0 + nu) * (1.0 - 2.0 * nu)), mu = E / (2.0 * (1.0 + nu)), gp = 1.0 / PetscSqrtReal(3.0);
  const PetscReal detw = h * h * h / 8.0;

  for (PetscInt k = 0; k < 24 * 24; k++) K[k] = 0.0;
  for (PetscInt qp = 0; qp < 8; qp++) {
    PetscReal q[3] = {(qp & 1) ? gp : -gp, (qp & 2) ? gp : -gp, (qp & 4) ? gp : -gp}, g[8][3];
    ElasticQ1Gradients(h, q, g);
    for (PetscInt a = 0; a < 8; a++)
      for (PetscInt b = 0; b < 8; b++) {
        PetscReal dot = g[a][0] * g[b][0] + g[a][1] * g[b][1] + g[a][2] * g[b][2];
        for (PetscInt p = 0; p < 3; p++)
          for (PetscInt r = 0; r < 3; r++) K[(3 * a + p) * 24 + 3 * b + r] += detw * (lam * g[a][p] * g[b][r] + mu * (g[a][r] * g[b][p] + (p == r ? dot : 0.0)));
      }
  }
}

/* node index of (i, j, k) */
#define ELASTICQ1_NODE(P, i, j, k) (((k) * ((P)->ny + 1) + (j)) * ((P)->nx + 1) + (i))

/* creates (pass 0) or refills (pass 1: new values on the same pattern) A; coords: the owned nodes' points */
static PetscErrorCode ElasticQ1Assemble(MPI_Comm comm, PetscInt ne, PetscMPIInt empty_rank, PetscInt pass, ElasticQ1 *P, Mat *A, PetscReal **coords)
{
  PetscMPIInt size, rank;
  PetscInt    nn, *dnz, *onz, nl;
  PetscScalar K[24 * 24], K10[24 * 24];

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (pass == 0) {
    P->ne = ne;
    P->nx = 2 * ne;
    P->ny = P->nz = ne;
    P->h          = 1.0 / (PetscReal)ne;
    nn            = (P->nx + 1) * (P->ny + 1) * (P->nz + 1);
    ElasticQ1Range(nn, size, rank, empty_rank, &P->nstart, &P->nend);
    nl = P->nend - P->nstart;
    PetscCall(MatCreate(comm, A));
    PetscCall(MatSetSizes(*A, 3 * nl, 3 * nl, PETSC_DETERMINE, PETSC_DETERMINE));
    PetscCall(MatSetBlockSize(*A, 3));
    PetscCall(MatSetFromOptions(*A));
    PetscCall(PetscMalloc2(nl, &dnz, nl, &onz));
    PetscCall(PetscMalloc1(3 * nl, coords));
    for (PetscInt v = P->nstart; v < P->nend; v++) {
      PetscInt i = v % (P->nx + 1), j = (v / (P->nx + 1)) % (P->ny + 1), k = v / ((P->nx + 1) * (P->ny + 1));
      dnz[v - P->nstart] = onz[v - P->nstart] = 0;
      for (PetscInt dk = -1; dk <= 1; dk++)
        for (PetscInt dj = -1; dj <= 1; dj++)
          for (PetscInt di = -1; di <= 1; di++) {
            PetscInt w;
            if (i + di < 0 || i + di > P->nx || j + dj < 0 || j + dj > P->ny || k + dk < 0 || k + dk > P->nz) continue;
            w = ELASTICQ1_NODE(P, i + di, j + dj, k + dk);
            if (w >= P->nstart && w < P->nend) dnz[v - P->nstart]++;
            else onz[v - P->nstart]++;
          }
      (*coords)[3 * (v - P->nstart) + 0] = i * P->h;
      (*coords)[3 * (v - P->nstart) + 1] = j * P->h;
      (*coords)[3 * (v - P->nstart) + 2] = k * P->h;
    }
    PetscCall(MatXAIJSetPreallocation(*A, 3, dnz, onz, dnz, onz));
    PetscCall(PetscFree2(dnz, onz));
    {
      PetscBool sbaij;
      PetscCall(PetscObjectTypeCompareAny((PetscObject)*A, &sbaij, MATSEQSBAIJ, MATMPISBAIJ, ""));
      if (sbaij) PetscCall(MatSetOption(*A, MAT_IGNORE_LOWER_TRIANGULAR, PETSC_TRUE)); /* SBAIJ keeps the upper triangle */
    }
  } else PetscCall(MatZeroEntries(*A));
  ElasticQ1Element(P->h, 1.0, 0.3, K);
  ElasticQ1Element(P->h, 10.0, 0.3, K10);
  /* each element is added by the owner of its first node; clamped unknowns (x = 0) get a unit diagonal only */
  for (PetscInt v = P->nstart; v < P->nend; v++) {
    PetscInt i = v % (P->nx + 1), j = (v / (P->nx + 1)) % (P->ny + 1), k = v / ((P->nx + 1) * (P->ny + 1));
    if (i == 0)
      for (PetscInt c = 0; c < 3; c++) {
        PetscInt    r   = 3 * v + c;
        PetscScalar one = 1.0;
        PetscCall(MatSetValues(*A, 1, &r, 1, &r, &one, ADD_VALUES));
      }
    if (i < P->nx && j < P->ny && k < P->nz) {
      PetscInt           idx[24];
      const PetscScalar *Ke = (pass == 1 && i >= P->ne) ? K10 : K;
      for (PetscInt a = 0; a < 8; a++) {
        PetscInt ia = i + (a & 1), node = ELASTICQ1_NODE(P, ia, j + ((a & 2) ? 1 : 0), k + ((a & 4) ? 1 : 0));
        for (PetscInt c = 0; c < 3; c++) idx[3 * a + c] = ia == 0 ? -1 : 3 * node + c; /* -1: skipped by MatSetValues */
      }
      PetscCall(MatSetValues(*A, 24, idx, 24, idx, Ke, ADD_VALUES));
    }
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

#endif

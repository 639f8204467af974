/*
   spmv_problems.h - the generated matrix suite of bench/spmv (private to the benchmark):
   2D 5-point, 3D 7-point and 27-point Laplacians, a power-grid-like SDD matrix, a random
   graph with a power-law degree distribution, 3D elasticity with block size 3, and a
   Matrix Market reader. Every generator builds CSR on the host and hands it to a SEQAIJ.
*/
#ifndef SPMV_PROBLEMS_H
#define SPMV_PROBLEMS_H

#include <petscmat.h>

/* growing CSR: rows appended in order */
typedef struct {
  PetscInt     m, n, nnz, cap;
  PetscInt    *i, *j;
  PetscScalar *a;
} BenchCSR;

static PetscErrorCode BenchCSRInit(BenchCSR *c, PetscInt m, PetscInt n, PetscInt capguess)
{
  PetscFunctionBegin;
  c->m   = m;
  c->n   = n;
  c->nnz = 0;
  c->cap = PetscMax(capguess, 16);
  PetscCall(PetscMalloc1(m + 1, &c->i));
  PetscCall(PetscMalloc2(c->cap, &c->j, c->cap, &c->a));
  c->i[0] = 0;
  PetscFunctionReturn(0);
}

static PetscErrorCode BenchCSRPush(BenchCSR *c, PetscInt col, PetscScalar v)
{
  PetscFunctionBegin;
  if (c->nnz == c->cap) {
    PetscInt    *j;
    PetscScalar *a;
    PetscInt64   cap = (PetscInt64)c->cap * 2;
    PetscCheck(cap < PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_SUP, "bench matrix too large for 32-bit PetscInt; use a smaller size");
    PetscCall(PetscMalloc2(cap, &j, cap, &a));
    PetscCall(PetscArraycpy(j, c->j, c->nnz));
    PetscCall(PetscArraycpy(a, c->a, c->nnz));
    PetscCall(PetscFree2(c->j, c->a));
    c->j   = j;
    c->a   = a;
    c->cap = (PetscInt)cap;
  }
  c->j[c->nnz]   = col;
  c->a[c->nnz++] = v;
  PetscFunctionReturn(0);
}

/* ends row `row`: sorts its columns and sums duplicates */
static PetscErrorCode BenchCSREndRow(BenchCSR *c, PetscInt row)
{
  PetscInt s = c->i[row], e = c->nnz, k = s;

  PetscFunctionBegin;
  PetscCall(PetscSortIntWithScalarArray(e - s, c->j + s, c->a + s));
  for (PetscInt q = s; q < e; q++) {
    if (q > s && c->j[q] == c->j[k - 1]) c->a[k - 1] += c->a[q];
    else {
      c->j[k] = c->j[q];
      c->a[k] = c->a[q];
      k++;
    }
  }
  c->nnz        = k;
  c->i[row + 1] = k;
  PetscFunctionReturn(0);
}

static PetscErrorCode BenchCSRToMat(BenchCSR *c, PetscInt bs, Mat *A)
{
  PetscFunctionBegin;
  PetscCall(MatCreate(PETSC_COMM_SELF, A));
  PetscCall(MatSetSizes(*A, c->m, c->n, c->m, c->n));
  if (bs > 1) PetscCall(MatSetBlockSize(*A, bs));
  PetscCall(MatSetType(*A, MATSEQAIJ));
  PetscCall(MatSeqAIJSetPreallocationCSR(*A, c->i, c->j, c->a));
  PetscCall(PetscFree(c->i));
  PetscCall(PetscFree2(c->j, c->a));
  PetscFunctionReturn(0);
}

/* 2D 5-point (dim 2, points 5), 3D 7-point (dim 3, 7) or 27-point (dim 3, 27) Laplacian on nx^dim */
static PetscErrorCode BenchLaplacian(PetscInt dim, PetscInt points, PetscInt nx, Mat *A)
{
  PetscInt N = dim == 2 ? nx * nx : nx * nx * nx;
  BenchCSR c;

  PetscFunctionBegin;
  PetscCall(BenchCSRInit(&c, N, N, N * points));
  for (PetscInt r = 0; r < N; r++) {
    PetscInt x = r % nx, y = (r / nx) % nx, z = dim == 3 ? r / (nx * nx) : 0;
    for (PetscInt dz = (dim == 3 ? -1 : 0); dz <= (dim == 3 ? 1 : 0); dz++)
      for (PetscInt dy = -1; dy <= 1; dy++)
        for (PetscInt dx = -1; dx <= 1; dx++) {
          PetscInt nz = PetscAbsInt(dx) + PetscAbsInt(dy) + PetscAbsInt(dz);
          if (points != 27 && nz > 1) continue;
          if (x + dx < 0 || x + dx >= nx || y + dy < 0 || y + dy >= nx || z + dz < 0 || z + dz >= nx) continue;
          PetscCall(BenchCSRPush(&c, r + dx + dy * nx + dz * nx * nx, nz == 0 ? (PetscScalar)(points - 1) : -1.0));
        }
    PetscCall(BenchCSREndRow(&c, r));
  }
  PetscCall(BenchCSRToMat(&c, 1, A));
  PetscFunctionReturn(0);
}

/* power-grid-like SDD matrix: a 2D mesh of wires with random conductances, random vias
   (long-range edges) and pads (strictly dominant rows) on nx*nx nodes */
static PetscErrorCode BenchPowerGrid(PetscInt nx, Mat *A)
{
  PetscInt     N = nx * nx;
  PetscInt    *deg, *start, *adj, nedge = 0;
  PetscScalar *w;
  PetscInt    *eu, *ev;
  PetscScalar *ew;
  PetscRandom  rnd;
  BenchCSR     c;

  PetscFunctionBegin;
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 4242));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(PetscMalloc3(3 * N, &eu, 3 * N, &ev, 3 * N, &ew));
  for (PetscInt r = 0; r < N; r++) {
    PetscReal u;
    PetscInt  x = r % nx, y = r / nx;
    PetscCall(PetscRandomGetValueReal(rnd, &u));
    if (x + 1 < nx) {
      eu[nedge]   = r;
      ev[nedge]   = r + 1;
      ew[nedge++] = 1.0 + 9.0 * u;
    }
    if (y + 1 < nx) {
      eu[nedge]   = r;
      ev[nedge]   = r + nx;
      ew[nedge++] = 1.0 + 9.0 * (1.0 - u);
    }
    if (r % 17 == 0) { /* via to another layer region */
      PetscCall(PetscRandomGetValueReal(rnd, &u));
      PetscInt t = (PetscInt)(u * (N - 1));
      if (t != r) {
        eu[nedge]   = r;
        ev[nedge]   = t;
        ew[nedge++] = 50.0;
      }
    }
  }
  PetscCall(PetscCalloc2(N + 1, &deg, N + 1, &start));
  for (PetscInt e = 0; e < nedge; e++) {
    deg[eu[e]]++;
    deg[ev[e]]++;
  }
  for (PetscInt r = 0; r < N; r++) start[r + 1] = start[r] + deg[r];
  PetscCall(PetscMalloc2(start[N], &adj, start[N], &w));
  PetscCall(PetscArrayzero(deg, N));
  for (PetscInt e = 0; e < nedge; e++) {
    adj[start[eu[e]] + deg[eu[e]]] = ev[e];
    w[start[eu[e]] + deg[eu[e]]++] = ew[e];
    adj[start[ev[e]] + deg[ev[e]]] = eu[e];
    w[start[ev[e]] + deg[ev[e]]++] = ew[e];
  }
  PetscCall(BenchCSRInit(&c, N, N, start[N] + N));
  for (PetscInt r = 0; r < N; r++) {
    PetscScalar d = r % 997 == 0 ? 100.0 : 0.0; /* pads: strictly dominant rows */
    for (PetscInt k = start[r]; k < start[r + 1]; k++) {
      PetscCall(BenchCSRPush(&c, adj[k], -w[k]));
      d += w[k];
    }
    PetscCall(BenchCSRPush(&c, r, d));
    PetscCall(BenchCSREndRow(&c, r));
  }
  PetscCall(BenchCSRToMat(&c, 1, A));
  PetscCall(PetscFree2(adj, w));
  PetscCall(PetscFree2(deg, start));
  PetscCall(PetscFree3(eu, ev, ew));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscFunctionReturn(0);
}

/* random graph with a power-law (Pareto, exponent alpha = 2.5) out-degree distribution on n
   vertices; the largest row is made >= 1000 times the mean row length */
static PetscErrorCode BenchPowerLaw(PetscInt n, Mat *A)
{
  PetscRandom rnd;
  PetscInt   *deg, maxdeg = 0, maxrow = 0;
  PetscInt64  total = 0;
  BenchCSR    c;

  PetscFunctionBegin;
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 777));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(PetscMalloc1(n, &deg));
  for (PetscInt r = 0; r < n; r++) {
    PetscReal u;
    PetscCall(PetscRandomGetValueReal(rnd, &u));
    u      = PetscMax(u, 1e-12);
    deg[r] = (PetscInt)PetscMin(2.0 * PetscPowReal(u, -1.0 / 1.5), (PetscReal)(n - 1));
    total += deg[r];
    if (deg[r] > maxdeg) {
      maxdeg = deg[r];
      maxrow = r;
    }
  }
  if (maxdeg < 1000.0 * (double)total / n) { /* force the heavy tail the suite asks for */
    PetscInt want = (PetscInt)PetscMin(1001.0 * (double)total / n + 1, (PetscReal)(n - 1));
    total += want - deg[maxrow];
    deg[maxrow] = want;
  }
  PetscCall(BenchCSRInit(&c, n, n, (PetscInt)PetscMin(total + n, (PetscInt64)PETSC_MAX_INT / 2)));
  for (PetscInt r = 0; r < n; r++) {
    PetscScalar s = 1.0;
    for (PetscInt k = 0; k < deg[r]; k++) {
      PetscReal u, v;
      PetscCall(PetscRandomGetValueReal(rnd, &u));
      PetscCall(PetscRandomGetValueReal(rnd, &v));
      PetscCall(BenchCSRPush(&c, (PetscInt)(u * (n - 1)), -v));
      s += v;
    }
    PetscCall(BenchCSRPush(&c, r, s));
    PetscCall(BenchCSREndRow(&c, r));
  }
  PetscCall(BenchCSRToMat(&c, 1, A));
  PetscCall(PetscFree(deg));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscFunctionReturn(0);
}

/* 3D linear-elasticity-like matrix, 3 dofs per node (block size 3), 27-point node stencil
   with dense 3x3 coupling blocks on an nx^3 node grid */
static PetscErrorCode BenchElasticity(PetscInt nx, Mat *A)
{
  PetscInt N = nx * nx * nx;
  BenchCSR c;

  PetscFunctionBegin;
  PetscCall(BenchCSRInit(&c, 3 * N, 3 * N, 3 * N * 81));
  for (PetscInt node = 0; node < N; node++) {
    PetscInt x = node % nx, y = (node / nx) % nx, z = node / (nx * nx);
    for (PetscInt a = 0; a < 3; a++) {
      PetscInt row = 3 * node + a;
      for (PetscInt dz = -1; dz <= 1; dz++)
        for (PetscInt dy = -1; dy <= 1; dy++)
          for (PetscInt dx = -1; dx <= 1; dx++) {
            PetscInt d[3] = {dx, dy, dz}, nb = node + dx + dy * nx + dz * nx * nx;
            if (x + dx < 0 || x + dx >= nx || y + dy < 0 || y + dy >= nx || z + dz < 0 || z + dz >= nx) continue;
            for (PetscInt b = 0; b < 3; b++) {
              PetscScalar v;
              if (nb == node) v = a == b ? 26.0 * 2.0 : 0.5;
              else v = -(a == b ? 1.0 : 0.0) - 0.25 * d[a] * d[b];
              PetscCall(BenchCSRPush(&c, 3 * nb + b, v));
            }
          }
      PetscCall(BenchCSREndRow(&c, row));
    }
  }
  PetscCall(BenchCSRToMat(&c, 3, A));
  PetscFunctionReturn(0);
}

/* Matrix Market coordinate file (real, integer or pattern; general or symmetric) */
static PetscErrorCode BenchReadMatrixMarket(const char *path, Mat *A)
{
  FILE        *f;
  char         line[1024], obj[64], fmt[64], field[64], sym[64];
  PetscInt     m, n, nz, *ri, *ci, *cnt;
  PetscScalar *v;
  PetscBool    symmetric, pattern;
  BenchCSR     c;
  PetscInt64   tot = 0;

  PetscFunctionBegin;
  f = fopen(path, "r");
  PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot open Matrix Market file %s", path);
  PetscCheck(fgets(line, sizeof(line), f), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s is empty", path);
  PetscCheck(sscanf(line, "%%%%MatrixMarket %63s %63s %63s %63s", obj, fmt, field, sym) == 4, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: no %%%%MatrixMarket header", path);
  PetscCheck(!strcmp(fmt, "coordinate"), PETSC_COMM_SELF, PETSC_ERR_SUP, "%s: only coordinate Matrix Market files are read (got %s)", path, fmt);
  PetscCheck(strcmp(field, "complex"), PETSC_COMM_SELF, PETSC_ERR_SUP, "%s: complex matrices are not supported", path);
  symmetric = (PetscBool)(!strcmp(sym, "symmetric"));
  pattern   = (PetscBool)(!strcmp(field, "pattern"));
  PetscCheck(symmetric || !strcmp(sym, "general"), PETSC_COMM_SELF, PETSC_ERR_SUP, "%s: symmetry %s not supported (general or symmetric)", path, sym);
  do {
    PetscCheck(fgets(line, sizeof(line), f), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s: no size line", path);
  } while (line[0] == '%');
  PetscCheck(sscanf(line, "%" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT, &m, &n, &nz) == 3, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: bad size line", path);
  PetscCall(PetscMalloc3(nz, &ri, nz, &ci, nz, &v));
  for (PetscInt k = 0; k < nz; k++) {
    double val = 1.0;
    int    got = pattern ? fscanf(f, "%" PetscInt_FMT " %" PetscInt_FMT, &ri[k], &ci[k]) : fscanf(f, "%" PetscInt_FMT " %" PetscInt_FMT " %lf", &ri[k], &ci[k], &val);
    PetscCheck(got == (pattern ? 2 : 3), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: entry %" PetscInt_FMT " unreadable", path, k + 1);
    ri[k]--;
    ci[k]--;
    PetscCheck(ri[k] >= 0 && ri[k] < m && ci[k] >= 0 && ci[k] < n, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: entry %" PetscInt_FMT " out of range", path, k + 1);
    v[k] = val;
  }
  fclose(f);
  /* bucket by row (mirror symmetric off-diagonal entries) */
  PetscCall(PetscCalloc1(m + 1, &cnt));
  for (PetscInt k = 0; k < nz; k++) {
    cnt[ri[k] + 1]++;
    if (symmetric && ri[k] != ci[k]) cnt[ci[k] + 1]++;
  }
  for (PetscInt r = 0; r < m; r++) cnt[r + 1] += cnt[r];
  tot = cnt[m];
  {
    PetscInt    *bj, *pos;
    PetscScalar *bv;
    PetscCall(PetscMalloc3(tot, &bj, tot, &bv, m, &pos));
    PetscCall(PetscArraycpy(pos, cnt, m));
    for (PetscInt k = 0; k < nz; k++) {
      bj[pos[ri[k]]]   = ci[k];
      bv[pos[ri[k]]++] = v[k];
      if (symmetric && ri[k] != ci[k]) {
        bj[pos[ci[k]]]   = ri[k];
        bv[pos[ci[k]]++] = v[k];
      }
    }
    PetscCall(BenchCSRInit(&c, m, n, (PetscInt)tot));
    for (PetscInt r = 0; r < m; r++) {
      for (PetscInt k = cnt[r]; k < cnt[r + 1]; k++) PetscCall(BenchCSRPush(&c, bj[k], bv[k]));
      PetscCall(BenchCSREndRow(&c, r));
    }
    PetscCall(PetscFree3(bj, bv, pos));
  }
  PetscCall(BenchCSRToMat(&c, 1, A));
  PetscCall(PetscFree(cnt));
  PetscCall(PetscFree3(ri, ci, v));
  PetscFunctionReturn(0);
}

#endif

/*
   Body of the host reference CMG kernels for one scalar type; included by cmgkernels_host.c
   with CMG_T (float or double) and CMG_NAME(f) (suffixes the function names) defined.
*/

/* the iterate at vertex j: x_j, or with xc (the next level's iterate, the prolongation fused in) x_j + xc[c(j)] */
static inline CMG_T CMG_NAME(Iterate)(const GPUPCCMGDeviceLevel *L, const CMG_T *x, const CMG_T *xc, PetscInt j)
{
  return xc ? x[j] + xc[L->cluster[j]] : x[j];
}

/* (b - A x)_i for row i, x read through Iterate */
static inline CMG_T CMG_NAME(RowResidual)(const GPUPCCMGDeviceLevel *L, const CMG_T *b, const CMG_T *x, const CMG_T *xc, const CMG_T *val, PetscInt i)
{
  CMG_T s = b[i];

  for (PetscInt k = L->rowptr[i]; k < L->rowptr[i + 1]; k++) s -= val[k] * CMG_NAME(Iterate)(L, x, xc, L->col[k]);
  return s;
}

/* the first Jacobi iterate x = invd .* b of the level whose right-hand side b (nc entries) was just written: the next
   level's after a restriction, level 0's after the expansion */
static void CMG_NAME(NextJacobi)(PetscInt nc, const GPUPCCMGNextJacobi *next, const CMG_T *bc)
{
  const CMG_T *invd = (const CMG_T *)next->invd;
  CMG_T       *x    = (CMG_T *)next->x;

  for (PetscInt c = 0; c < nc; c++) x[c] = invd[c] * bc[c];
}

static void CMG_NAME(Expand)(const GPUPCCMGDeviceFold *F, PetscBool transpose, const PetscScalar *b, CMG_T *b0)
{
  PetscScalar sum = 0.0;

  for (PetscInt i = 0; i < F->n; i++) {
    const PetscInt m = F->map ? F->map[i] : i;
    PetscScalar    v;
    if (m < 0) continue;
    v = b[i];
    if (F->erow && !transpose)
      for (PetscInt k = F->erow[i]; k < F->erow[i + 1]; k++) v -= F->eval[k] * F->dinv[F->ecol[k]] * b[F->ecol[k]];
    b0[m] = (CMG_T)v;
    if (F->copies == 2) b0[F->nk + m] = (CMG_T)(-v);
    sum += v;
  }
  if (F->ground) {
    if (F->copies == 2) sum = 0.0;
    b0[F->copies * F->nk] = (CMG_T)(-sum);
  }
  if (F->first.x) CMG_NAME(NextJacobi)
  (F->n0, &F->first, b0);
}

/* the folded value of kept row i */
static inline PetscScalar CMG_NAME(Folded)(const GPUPCCMGDeviceFold *F, const CMG_T *x0, PetscScalar xg, PetscInt m)
{
  PetscScalar s = (PetscScalar)x0[m] - xg;
  if (F->copies == 2) s = 0.5 * (s - ((PetscScalar)x0[F->nk + m] - xg));
  return s;
}

static void CMG_NAME(Fold)(const GPUPCCMGDeviceFold *F, PetscBool transpose, const PetscScalar *b, const CMG_T *x0, PetscScalar *x)
{
  const PetscScalar xg = F->ground ? (PetscScalar)x0[F->copies * F->nk] : 0.0;

  for (PetscInt i = 0; i < F->n; i++) {
    const PetscInt m = F->map ? F->map[i] : i;
    PetscScalar    v;
    if (m >= 0) {
      x[i] = CMG_NAME(Folded)(F, x0, xg, m);
      continue;
    }
    v = b[i];
    if (F->trow && transpose)
      for (PetscInt k = F->trow[i]; k < F->trow[i + 1]; k++) v -= F->tval[k] * CMG_NAME(Folded)(F, x0, xg, F->map[F->tcol[k]]);
    x[i] = F->dinv[i] * v;
  }
}

static void CMG_NAME(Jacobi)(const GPUPCCMGDeviceLevel *L)
{
  const CMG_T *invd = (const CMG_T *)L->invd, *b = (const CMG_T *)L->b;
  CMG_T       *x = (CMG_T *)L->x;

  for (PetscInt i = 0; i < L->n; i++) x[i] = invd[i] * b[i];
}

/* xout = x + invd .* (b - A x), x = xin, or xin + xc[c(.)] when xc is given (xin unchanged) */
static void CMG_NAME(Smooth)(const GPUPCCMGDeviceLevel *L, const CMG_T *xin, const CMG_T *xc, CMG_T *xout)
{
  const CMG_T *invd = (const CMG_T *)L->invd, *b = (const CMG_T *)L->b, *val = (const CMG_T *)L->val;

  for (PetscInt i = 0; i < L->n; i++) xout[i] = CMG_NAME(Iterate)(L, xin, xc, i) + invd[i] * CMG_NAME(RowResidual)(L, b, xin, xc, val, i);
}

static void CMG_NAME(ResidualRestrict)(const GPUPCCMGDeviceLevel *L, CMG_T *bc)
{
  const CMG_T *b = (const CMG_T *)L->b, *x = (const CMG_T *)L->x, *val = (const CMG_T *)L->val;

  for (PetscInt c = 0; c < L->nc; c++) {
    CMG_T s = 0;
    for (PetscInt k = L->cptr[c]; k < L->cptr[c + 1]; k++) s += CMG_NAME(RowResidual)(L, b, x, NULL, val, L->cperm[k]);
    bc[c] = s;
  }
}

static void CMG_NAME(Prolong)(const GPUPCCMGDeviceLevel *L, const CMG_T *xc)
{
  CMG_T *x = (CMG_T *)L->x;

  for (PetscInt i = 0; i < L->n; i++) x[i] += xc[L->cluster[i]];
}

static void CMG_NAME(DenseSolve)(const GPUPCCMGDeviceLevel *L)
{
  const CMG_T *D = (const CMG_T *)L->dense, *b = (const CMG_T *)L->b;
  CMG_T       *x = (CMG_T *)L->x;

  for (PetscInt i = 0; i < L->n; i++) {
    CMG_T s = 0;
    for (PetscInt j = 0; j < L->n; j++) s += D[(size_t)i * L->n + j] * b[j];
    x[i] = s;
  }
}

static void CMG_NAME(Update)(const GPUPCCMGDeviceLevel *L, const CMG_T *r, const CMG_T *xin, CMG_T *xout)
{
  const CMG_T *invd = (const CMG_T *)L->invd;

  for (PetscInt i = 0; i < L->n; i++) xout[i] = xin[i] + invd[i] * r[i];
}

static void CMG_NAME(ClusterSum)(const GPUPCCMGDeviceLevel *L, const CMG_T *r, CMG_T *bc)
{
  for (PetscInt c = 0; c < L->nc; c++) {
    CMG_T s = 0;
    for (PetscInt k = L->cptr[c]; k < L->cptr[c + 1]; k++) s += r[L->cperm[k]];
    bc[c] = s;
  }
}

static const char help[] = "Each CMG cycle kernel of the active backend's table (host or CUDA), called on the device data of a\n"
                           "set-up PC cmg with random vectors, against a plain-C reference computed here from the host hierarchy.\n"
                           "cmgtest.h options select the matrix; -pc_cmg_precision single checks the float kernels;\n"
                           "-require_split fails unless some cluster is split over units of the packed residual-restriction.\n";

#include <float.h>
#include <petsc/private/pcimpl.h>
#include <gpupc/cmg.h>
#include "cmgtest.h"
#include "testcases.h"

typedef struct {
  GPUPCCMGPrecision prec;
  size_t            es;
  PetscReal         tol;
  PetscRandom       rnd;
} Ctx;

/* random host values (rounded to the level precision) copied to the device buffer d */
static PetscErrorCode Random(Ctx *c, PetscInt n, PetscReal *h, void *d)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) {
    PetscScalar v;
    PetscCall(PetscRandomGetValue(c->rnd, &v));
    h[i] = c->prec == GPUPC_CMG_PRECISION_SINGLE ? (PetscReal)(float)v : v;
  }
  if (c->prec == GPUPC_CMG_PRECISION_SINGLE) {
    float *f;
    PetscCall(PetscMalloc1(PetscMax(n, 1), &f));
    for (PetscInt i = 0; i < n; i++) f[i] = (float)h[i];
    PetscCall(GPUPCMemcpy(d, f, n * sizeof(float), GPUPC_COPY_HOST_TO_DEVICE));
    PetscCall(PetscFree(f));
  } else PetscCall(GPUPCMemcpy(d, h, n * sizeof(double), GPUPC_COPY_HOST_TO_DEVICE));
  PetscFunctionReturn(0);
}

static PetscErrorCode Download(Ctx *c, PetscInt n, const void *d, PetscReal *h)
{
  PetscFunctionBegin;
  if (c->prec == GPUPC_CMG_PRECISION_SINGLE) {
    float *f;
    PetscCall(PetscMalloc1(PetscMax(n, 1), &f));
    PetscCall(GPUPCMemcpy(f, d, n * sizeof(float), GPUPC_COPY_DEVICE_TO_HOST));
    for (PetscInt i = 0; i < n; i++) h[i] = f[i];
    PetscCall(PetscFree(f));
  } else PetscCall(GPUPCMemcpy(h, d, n * sizeof(double), GPUPC_COPY_DEVICE_TO_HOST));
  PetscFunctionReturn(0);
}

/* |got - ref| <= tol * scale (scale: sum of the magnitudes of the terms of the entry) */
static PetscErrorCode Check(Ctx *c, PetscInt n, const PetscReal *got, const PetscReal *ref, const PetscReal *scale, const char *what, PetscInt level)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) {
    PetscReal e = PetscAbsReal(got[i] - ref[i]);
    PetscCheck(e <= c->tol * scale[i] + 1e-300 && !PetscIsNanReal(got[i]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "kernel %s, level %" PetscInt_FMT ", entry %" PetscInt_FMT ": got %.17g, reference %.17g (allowed %g)", what, level, i, (double)got[i], (double)ref[i], (double)(c->tol * scale[i]));
  }
  PetscFunctionReturn(0);
}

static PetscReal Round(Ctx *c, PetscReal v)
{
  return c->prec == GPUPC_CMG_PRECISION_SINGLE ? (PetscReal)(float)v : v;
}

static PetscReal InvD(Ctx *c, const GPUPCCMGLevel *L, PetscInt i)
{
  for (PetscInt e = L->rowptr[i]; e < L->rowptr[i + 1]; e++)
    if (L->col[e] == i) return L->val[e] > 0 ? Round(c, 1.0 / (2.0 * L->val[e])) : 0.0;
  return 0.0;
}

/* (b - A x)_i and the sum of the magnitudes of its terms */
static void RowResidual(Ctx *c, const GPUPCCMGLevel *L, const PetscReal *b, const PetscReal *x, PetscInt i, PetscReal *r, PetscReal *s)
{
  *r = b[i];
  *s = PetscAbsReal(b[i]);
  for (PetscInt e = L->rowptr[i]; e < L->rowptr[i + 1]; e++) {
    PetscReal t = Round(c, L->val[e]) * x[L->col[e]];
    *r -= t;
    *s += PetscAbsReal(t);
  }
}

/* Check() allows tol * scale. A sum of m terms in any order (the kernels' orders differ, and vary from run to run where
   atomics combine the parts of a cluster) is within (m - 1) u sum |terms| of the exact sum (u: the unit roundoff of
   the level precision): for a sum of more than tol / eps terms the scale sum |terms| grows by m eps / tol, m the
   terms of the sum. */
static PetscReal SumScale(Ctx *c, PetscReal magnitudes, PetscInt m)
{
  const PetscReal eps = c->prec == GPUPC_CMG_PRECISION_SINGLE ? FLT_EPSILON : DBL_EPSILON;

  return magnitudes * PetscMax(1.0, (PetscReal)m * eps / c->tol);
}

/* bc[C] = sum_{v in C} (b - A x)_v and its scale (the same sums of magnitudes, see SumScale) */
static void RestrictedResidual(Ctx *c, const GPUPCCMGLevel *L, const PetscReal *b, const PetscReal *x, PetscReal *bc, PetscReal *scale)
{
  PetscInt *terms;

  PetscCallAbort(PETSC_COMM_SELF, PetscCalloc1(PetscMax(L->nc, 1), &terms));
  for (PetscInt C = 0; C < L->nc; C++) bc[C] = scale[C] = 0.0;
  for (PetscInt i = 0; i < L->n; i++) {
    PetscReal rr, ss;
    RowResidual(c, L, b, x, i, &rr, &ss);
    bc[L->cluster[i]] += rr;
    scale[L->cluster[i]] += ss;
    terms[L->cluster[i]] += 1 + L->rowptr[i + 1] - L->rowptr[i];
  }
  for (PetscInt C = 0; C < L->nc; C++) scale[C] = SumScale(c, scale[C], terms[C]);
  PetscCallAbort(PETSC_COMM_SELF, PetscFree(terms));
}

/* the next level's first Jacobi iterate that a restriction from level k wrote (into level k+1's x) with its right-hand
   side bc: x = invD_{k+1} .* bc */
static PetscErrorCode CheckNextJacobi(Ctx *c, const GPUPCCMGHierarchy *H, GPUPCCMGDevice *D, PetscInt k, const PetscReal *bc, const char *what)
{
  const GPUPCCMGLevel *LC = &H->levels[k + 1];
  PetscReal           *got, *ref, *scale;
  char                 name[64];

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(PetscMax(LC->n, 1), &got, PetscMax(LC->n, 1), &ref, PetscMax(LC->n, 1), &scale));
  PetscCall(Download(c, LC->n, D->levels[k + 1].x, got));
  for (PetscInt i = 0; i < LC->n; i++) {
    ref[i]   = Round(c, InvD(c, LC, i) * bc[i]);
    scale[i] = PetscAbsReal(ref[i]);
  }
  PetscCall(PetscSNPrintf(name, sizeof(name), "%s (next Jacobi: x)", what));
  PetscCall(Check(c, LC->n, got, ref, scale, name, k));
  PetscCall(PetscFree3(got, ref, scale));
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckLevel(Ctx *c, const GPUPCCMGKernels *K, const GPUPCCMGHierarchy *H, GPUPCCMGDevice *D, PetscInt k)
{
  const GPUPCCMGLevel *L    = &H->levels[k];
  GPUPCCMGDeviceLevel *DL   = &D->levels[k];
  const PetscBool      last = (PetscBool)(k == H->nlevels - 1);
  const PetscInt       n = L->n, nc = last ? 0 : L->nc, m = PetscMax(n, 1) + PetscMax(nc, 1);
  PetscReal           *b, *x, *r, *xc, *got, *ref, *scale;
  void                *dr;

  PetscFunctionBegin;
  PetscCall(PetscMalloc7(m, &b, m, &x, m, &r, m, &xc, m, &got, m, &ref, m, &scale));
  PetscCall(GPUPCMalloc(PetscMax(n, 1) * c->es, &dr));
  /* jacobi */
  PetscCall(Random(c, n, b, DL->b));
  PetscCall(K->jacobi(DL));
  PetscCall(Download(c, n, DL->x, got));
  for (PetscInt i = 0; i < n; i++) {
    ref[i]   = InvD(c, L, i) * b[i];
    scale[i] = PetscAbsReal(ref[i]);
  }
  PetscCall(Check(c, n, got, ref, scale, "jacobi", k));
  /* smooth: w = x + invD (b - A x) */
  PetscCall(Random(c, n, x, DL->x));
  PetscCall(K->smooth(DL, DL->x, NULL, DL->w));
  PetscCall(Download(c, n, DL->w, got));
  for (PetscInt i = 0; i < n; i++) {
    PetscReal rr, ss, d = InvD(c, L, i);
    RowResidual(c, L, b, x, i, &rr, &ss);
    ref[i]   = x[i] + d * rr;
    scale[i] = PetscAbsReal(x[i]) + d * ss;
  }
  PetscCall(Check(c, n, got, ref, scale, "smooth", k));
  /* update: w = x + invD r */
  PetscCall(Random(c, n, r, dr));
  PetscCall(K->update(DL, dr, DL->x, DL->w));
  PetscCall(Download(c, n, DL->w, got));
  for (PetscInt i = 0; i < n; i++) {
    ref[i]   = x[i] + InvD(c, L, i) * r[i];
    scale[i] = PetscAbsReal(x[i]) + PetscAbsReal(InvD(c, L, i) * r[i]);
  }
  PetscCall(Check(c, n, got, ref, scale, "update", k));
  if (!last) {
    GPUPCCMGDeviceLevel     *DC   = &D->levels[k + 1];
    const GPUPCCMGNextJacobi next = {DC->invd, DC->x};
    /* residual_restrict and cluster_sum into the next level's b */
    PetscCall(K->residual_restrict(DL, PETSC_FALSE, DC->b, NULL));
    PetscCall(Download(c, nc, DC->b, got));
    RestrictedResidual(c, L, b, x, ref, scale);
    PetscCall(Check(c, nc, got, ref, scale, "residual_restrict", k));
    /* the same with the next level's first Jacobi iterate written too */
    PetscCall(Random(c, nc, xc, DC->x)); /* overwritten by the kernel */
    PetscCall(K->residual_restrict(DL, PETSC_FALSE, DC->b, &next));
    PetscCall(Download(c, nc, DC->b, got));
    PetscCall(Check(c, nc, got, ref, scale, "residual_restrict (next Jacobi: b)", k));
    PetscCall(CheckNextJacobi(c, H, D, k, got, "residual_restrict"));
    /* with the first Jacobi step fused in: x = invd .* b (stored), then the same */
    PetscCall(Random(c, n, got, DL->x)); /* overwritten by the kernel */
    PetscCall(K->residual_restrict(DL, PETSC_TRUE, DC->b, NULL));
    for (PetscInt i = 0; i < n; i++) x[i] = Round(c, InvD(c, L, i) * b[i]);
    PetscCall(Download(c, n, DL->x, got));
    for (PetscInt i = 0; i < n; i++) scale[i] = PetscAbsReal(x[i]);
    PetscCall(Check(c, n, got, x, scale, "residual_restrict (first: stored iterate)", k));
    PetscCall(Download(c, nc, DC->b, got));
    RestrictedResidual(c, L, b, x, ref, scale);
    PetscCall(Check(c, nc, got, ref, scale, "residual_restrict (first)", k));
    PetscCall(K->cluster_sum(DL, dr, DC->b, NULL));
    PetscCall(Download(c, nc, DC->b, got));
    for (PetscInt C = 0; C < nc; C++) ref[C] = scale[C] = xc[C] = 0.0; /* xc: the cluster sizes (terms) */
    for (PetscInt i = 0; i < n; i++) {
      ref[L->cluster[i]] += r[i];
      scale[L->cluster[i]] += PetscAbsReal(r[i]);
      xc[L->cluster[i]] += 1.0;
    }
    for (PetscInt C = 0; C < nc; C++) scale[C] = SumScale(c, scale[C], (PetscInt)xc[C]);
    PetscCall(Check(c, nc, got, ref, scale, "cluster_sum", k));
    PetscCall(Random(c, nc, xc, DC->x));
    PetscCall(K->cluster_sum(DL, dr, DC->b, &next));
    PetscCall(Download(c, nc, DC->b, got));
    PetscCall(Check(c, nc, got, ref, scale, "cluster_sum (next Jacobi: b)", k));
    PetscCall(CheckNextJacobi(c, H, D, k, got, "cluster_sum"));
    /* prolong: x += xc[c(i)] */
    PetscCall(Random(c, n, x, DL->x));
    PetscCall(Random(c, nc, xc, DC->x));
    PetscCall(K->prolong(DL, DC->x));
    PetscCall(Download(c, n, DL->x, got));
    for (PetscInt i = 0; i < n; i++) {
      ref[i]   = x[i] + xc[L->cluster[i]];
      scale[i] = PetscAbsReal(x[i]) + PetscAbsReal(xc[L->cluster[i]]);
    }
    PetscCall(Check(c, n, got, ref, scale, "prolong", k));
    { /* smooth with the prolongation fused in: w = x' + invD (b - A x'), x' = x + xc[c(.)], x unchanged */
      PetscReal *xp, *xabs;
      PetscCall(PetscMalloc2(n, &xp, n, &xabs));
      PetscCall(Random(c, n, x, DL->x));
      for (PetscInt i = 0; i < n; i++) {
        xp[i]   = x[i] + xc[L->cluster[i]];
        xabs[i] = PetscAbsReal(x[i]) + PetscAbsReal(xc[L->cluster[i]]);
      }
      PetscCall(K->smooth(DL, DL->x, DC->x, DL->w));
      PetscCall(Download(c, n, DL->w, got));
      for (PetscInt i = 0; i < n; i++) {
        PetscReal rr, ss, d = InvD(c, L, i);
        RowResidual(c, L, b, xp, i, &rr, &ss);
        ref[i] = xp[i] + d * rr;
        RowResidual(c, L, b, xabs, i, &rr, &ss); /* rounding of x' is relative to |x| + |xc|, not to |x'| */
        scale[i] = xabs[i] + d * ss;
      }
      PetscCall(Check(c, n, got, ref, scale, "smooth (prolongation fused in)", k));
      PetscCall(Download(c, n, DL->x, got));
      for (PetscInt i = 0; i < n; i++) scale[i] = PetscAbsReal(x[i]);
      PetscCall(Check(c, n, got, x, scale, "smooth (prolongation fused in) leaves x", k));
      PetscCall(PetscFree2(xp, xabs));
    }
  } else if (H->coarse_direct) {
    PetscCall(Random(c, n, b, DL->b));
    PetscReal *dense; /* the inverse the kernel reads: the host setup's upload, or the device factorization's (cuda) */
    PetscCall(K->dense_solve(DL));
    PetscCall(Download(c, n, DL->x, got));
    PetscCall(PetscMalloc1((size_t)n * n, &dense));
    PetscCall(Download(c, n * n, DL->dense, dense));
    for (PetscInt i = 0; i < n; i++) {
      ref[i] = scale[i] = 0.0;
      for (PetscInt j = 0; j < n; j++) {
        PetscReal t = dense[(size_t)i * n + j] * b[j];
        ref[i] += t;
        scale[i] += PetscAbsReal(t);
      }
    }
    PetscCall(PetscFree(dense));
    PetscCall(Check(c, n, got, ref, scale, "dense_solve", k));
  }
  PetscCall(GPUPCFree(dr));
  PetscCall(PetscFree7(b, x, r, xc, got, ref, scale));
  PetscFunctionReturn(0);
}

/* expand and fold (both directions) against the reduction's definition */
/* the chunk prefix of the long items (rows or clusters) on the device: item j = list[j] of length ptr[j + 1] - ptr[j] has
   ceil(length / chunk) chunks numbered first[j] .. first[j + 1), and the chunks of all items are numbered 0 .. total */
static PetscErrorCode CheckChunkPrefix(PetscInt cnt, const PetscInt *dlist, const PetscInt *dfirst, PetscInt total, const PetscInt *ptr, PetscInt chunk, const char *what, PetscInt level)
{
  PetscInt *list, *first;

  PetscFunctionBegin;
  if (!cnt) PetscFunctionReturn(0);
  PetscCall(PetscMalloc2(cnt, &list, cnt + 1, &first));
  PetscCall(GPUPCMemcpy(list, dlist, cnt * sizeof(PetscInt), GPUPC_COPY_DEVICE_TO_HOST));
  PetscCall(GPUPCMemcpy(first, dfirst, (cnt + 1) * sizeof(PetscInt), GPUPC_COPY_DEVICE_TO_HOST));
  PetscCheck(first[0] == 0 && first[cnt] == total, PETSC_COMM_SELF, PETSC_ERR_PLIB, "level %" PetscInt_FMT ": %s chunk prefix runs %" PetscInt_FMT " .. %" PetscInt_FMT ", expected 0 .. %" PetscInt_FMT, level, what, first[0], first[cnt], total);
  for (PetscInt j = 0; j < cnt; j++) {
    const PetscInt len = ptr[list[j] + 1] - ptr[list[j]];
    PetscCheck(first[j + 1] - first[j] == (len + chunk - 1) / chunk, PETSC_COMM_SELF, PETSC_ERR_PLIB, "level %" PetscInt_FMT ": %s %" PetscInt_FMT " of length %" PetscInt_FMT " has %" PetscInt_FMT " chunks of %" PetscInt_FMT, level, what, list[j], len, first[j + 1] - first[j], chunk);
  }
  PetscCall(PetscFree2(list, first));
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckChunks(const GPUPCCMGHierarchy *H, const GPUPCCMGDevice *D, PetscInt k)
{
  const GPUPCCMGLevel       *L     = &H->levels[k];
  const GPUPCCMGDeviceLevel *DL    = &D->levels[k];
  PetscInt                   nlong = 0;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < L->n; i++) nlong += L->rowptr[i + 1] - L->rowptr[i] > GPUPC_CMG_LONG_ROW;
  PetscCheck(nlong == DL->nlong, PETSC_COMM_SELF, PETSC_ERR_PLIB, "level %" PetscInt_FMT ": %" PetscInt_FMT " rows longer than %d, the device level lists %" PetscInt_FMT, k, nlong, GPUPC_CMG_LONG_ROW, DL->nlong);
  PetscCall(CheckChunkPrefix(DL->nlong, DL->longrows, DL->rowchunk, DL->nrowchunks, L->rowptr, GPUPC_CMG_LONG_ROW_CHUNK, "long row", k));
  if (DL->nlongc) {
    PetscInt *cptr;
    PetscCall(PetscMalloc1(DL->nc + 1, &cptr));
    PetscCall(GPUPCMemcpy(cptr, DL->cptr, (DL->nc + 1) * sizeof(PetscInt), GPUPC_COPY_DEVICE_TO_HOST));
    PetscCall(CheckChunkPrefix(DL->nlongc, DL->longclusters, DL->clusterchunk, DL->nclusterchunks, cptr, GPUPC_CMG_LONG_CLUSTER_CHUNK, "large cluster", k));
    PetscCall(PetscFree(cptr));
  }
  PetscFunctionReturn(0);
}

/* the packing of a level (GPUPCCMGDeviceLevel.urange): units run through the cluster-sorted list in order, at most
   GPUPC_CMG_UNIT_SLOTS(lanes) vertices each, a cluster that fits a unit is in one unit, a larger one starts a unit of
   its own; counts the clusters split over units into *nsplit */
static PetscErrorCode CheckUnits(const GPUPCCMGDeviceLevel *DL, PetscInt k, PetscInt *nsplit)
{
  const PetscInt unit = GPUPC_CMG_UNIT_SLOTS(DL->lanes);
  PetscInt      *urange, *cptr, u = 0;

  PetscFunctionBegin;
  if (!DL->nunits) PetscFunctionReturn(0);
  PetscCall(PetscMalloc2(2 * DL->nunits, &urange, DL->nc + 1, &cptr));
  PetscCall(GPUPCMemcpy(urange, DL->urange, 2 * DL->nunits * sizeof(PetscInt), GPUPC_COPY_DEVICE_TO_HOST));
  PetscCall(GPUPCMemcpy(cptr, DL->cptr, (DL->nc + 1) * sizeof(PetscInt), GPUPC_COPY_DEVICE_TO_HOST));
  for (PetscInt w = 0; w < DL->nunits; w++) {
    PetscCheck(urange[2 * w] == (w ? urange[2 * w - 1] : 0) && urange[2 * w] < urange[2 * w + 1] && urange[2 * w + 1] - urange[2 * w] <= unit, PETSC_COMM_SELF, PETSC_ERR_PLIB, "level %" PetscInt_FMT ": unit %" PetscInt_FMT " covers %" PetscInt_FMT " .. %" PetscInt_FMT " (at most %" PetscInt_FMT " vertices, right after the unit before)", k, w, urange[2 * w], urange[2 * w + 1], unit);
  }
  PetscCheck(urange[2 * DL->nunits - 1] == DL->n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "level %" PetscInt_FMT ": units end at %" PetscInt_FMT " of %" PetscInt_FMT " vertices", k, urange[2 * DL->nunits - 1], DL->n);
  for (PetscInt c = 0; c < DL->nc; c++) {
    const PetscInt size = cptr[c + 1] - cptr[c];
    while (urange[2 * u + 1] <= cptr[c]) u++;
    if (size > unit) {
      PetscCheck(urange[2 * u] == cptr[c], PETSC_COMM_SELF, PETSC_ERR_PLIB, "level %" PetscInt_FMT ": cluster %" PetscInt_FMT " of %" PetscInt_FMT " vertices does not start a unit", k, c, size);
      (*nsplit)++;
    } else PetscCheck(urange[2 * u + 1] >= cptr[c + 1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "level %" PetscInt_FMT ": cluster %" PetscInt_FMT " of %" PetscInt_FMT " <= %" PetscInt_FMT " vertices is split", k, c, size, unit);
  }
  PetscCall(PetscFree2(urange, cptr));
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckFold(Ctx *c, const GPUPCCMGKernels *K, const GPUPCCMGHierarchy *H, GPUPCCMGDevice *D)
{
  const GPUPCCMGReduction *R = &H->red;
  const PetscInt           n = R->n, n0 = R->n0, nk = R->nkept;
  PetscScalar             *db, *dx;
  PetscReal               *b, *bk, *x0, *got, *ref, *scale, *sk;

  PetscFunctionBegin;
  PetscCall(PetscMalloc7(n, &b, n, &bk, n0 + 1, &x0, n0 + n + 1, &got, n0 + n + 1, &ref, n0 + n + 1, &scale, n, &sk));
  PetscCall(GPUPCMalloc(n * sizeof(PetscScalar), (void **)&db));
  PetscCall(GPUPCMalloc(n * sizeof(PetscScalar), (void **)&dx));
  for (PetscInt i = 0; i < n; i++) PetscCall(PetscRandomGetValue(c->rnd, &b[i]));
  PetscCall(GPUPCMemcpy(db, b, n * sizeof(PetscScalar), GPUPC_COPY_HOST_TO_DEVICE));
  for (PetscInt tr = 0; tr < 2; tr++) {
    PetscReal sum = 0.0, ssum = 0.0;
    if (D->fold.first.x) PetscCall(Random(c, n0, x0, D->fold.first.x)); /* overwritten by the expansion */
    PetscCall(K->expand(&D->fold, (PetscBool)tr, db, D->levels[0].b));
    PetscCall(Download(c, n0, D->levels[0].b, got));
    for (PetscInt i = 0; i < n; i++) {
      bk[i] = b[i];
      sk[i] = PetscAbsReal(b[i]);
      if (R->erow && !tr)
        for (PetscInt e = R->erow[i]; e < R->erow[i + 1]; e++) {
          bk[i] -= R->eval[e] * R->dinv[R->ecol[e]] * b[R->ecol[e]];
          sk[i] += PetscAbsReal(R->eval[e] * R->dinv[R->ecol[e]] * b[R->ecol[e]]);
        }
    }
    for (PetscInt i = 0; i < n; i++) {
      PetscInt mi = R->map ? R->map[i] : i;
      if (mi < 0) continue;
      ref[mi]   = bk[i];
      scale[mi] = sk[i];
      if (R->copies == 2) {
        ref[nk + mi]   = -bk[i];
        scale[nk + mi] = sk[i];
      }
      sum += bk[i];
      ssum += sk[i];
    }
    if (R->ground) {
      ref[R->copies * nk]   = R->copies == 1 ? -sum : 0.0;
      scale[R->copies * nk] = ssum;
    }
    for (PetscInt i = 0; i < n0; i++) scale[i] += PetscAbsReal(ref[i]); /* rounding to float */
    PetscCall(Check(c, n0, got, ref, scale, tr ? "expand (transpose)" : "expand", 0));
    if (D->fold.first.x) { /* the expansion also wrote level 0's first Jacobi iterate x0 = invD .* b0 */
      PetscCall(Download(c, n0, D->fold.first.x, x0));
      for (PetscInt i = 0; i < n0; i++) {
        ref[i]   = Round(c, InvD(c, &H->levels[0], i) * got[i]);
        scale[i] = PetscAbsReal(ref[i]);
      }
      PetscCall(Check(c, n0, x0, ref, scale, tr ? "expand (transpose, first Jacobi iterate)" : "expand (first Jacobi iterate)", 0));
    }
    /* fold */
    PetscCall(Random(c, n0, x0, D->levels[0].x));
    PetscCall(K->fold(&D->fold, (PetscBool)tr, db, D->levels[0].x, dx));
    PetscCall(GPUPCMemcpy(got, dx, n * sizeof(PetscScalar), GPUPC_COPY_DEVICE_TO_HOST));
    {
      const PetscReal xg = R->ground ? x0[R->copies * nk] : 0.0;
      for (PetscInt i = 0; i < n; i++) {
        PetscInt mi = R->map ? R->map[i] : i;
        if (mi < 0) continue;
        ref[i]   = R->copies == 2 ? 0.5 * ((x0[mi] - xg) - (x0[nk + mi] - xg)) : x0[mi] - xg;
        scale[i] = PetscAbsReal(x0[mi]) + PetscAbsReal(xg) + (R->copies == 2 ? PetscAbsReal(x0[nk + mi]) : 0.0);
      }
      for (PetscInt i = 0; i < n; i++) {
        PetscReal v, s;
        if (!R->map || R->map[i] >= 0) continue;
        v = b[i];
        s = PetscAbsReal(b[i]);
        if (R->trow && tr)
          for (PetscInt e = R->trow[i]; e < R->trow[i + 1]; e++) {
            v -= R->tval[e] * ref[R->tcol[e]];
            s += PetscAbsReal(R->tval[e]) * scale[R->tcol[e]];
          }
        ref[i]   = R->dinv[i] * v;
        scale[i] = R->dinv[i] * s;
      }
    }
    PetscCall(Check(c, n, got, ref, scale, tr ? "fold (transpose)" : "fold", 0));
  }
  PetscCall(GPUPCFree(db));
  PetscCall(GPUPCFree(dx));
  PetscCall(PetscFree7(b, bk, x0, got, ref, scale, sk));
  PetscFunctionReturn(0);
}

/* one test case on the options of the current database (tests/testcases.h) */
static PetscErrorCode RunCase(void)
{
  CMGTestProblem           p;
  Mat                      A;
  PC                       pc;
  PC_CMG                  *cmg;
  const GPUPCCMGKernels   *K;
  const GPUPCCMGHierarchy *H;
  Ctx                      c;
  size_t                   mem0, mem1;

  PetscFunctionBegin;
  PetscCall(CMGTestGetProblem(&p));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem0));
  PetscCall(CMGTestMatrix(&p, &A));
  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetType(pc, PCCMG));
  PetscCall(PCSetFromOptions(pc));
  PetscCall(PCSetUp(pc));
  PetscCall(PCCMGGetHierarchy_Private(pc, &H));
  cmg = (PC_CMG *)pc->data;
  PetscCall(GPUPCGetCMGKernels(&K));
  c.prec = cmg->dev.prec;
  c.es   = c.prec == GPUPC_CMG_PRECISION_SINGLE ? sizeof(float) : sizeof(double);
  c.tol  = c.prec == GPUPC_CMG_PRECISION_SINGLE ? 2e-6 : 1e-14;
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &c.rnd));
  PetscCall(PetscRandomSetInterval(c.rnd, -1.0, 1.0));
  PetscCall(CheckFold(&c, K, H, &cmg->dev));
  {
    PetscBool require = PETSC_FALSE;
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-require_first_iterate", &require, NULL));
    PetscCheck(!require || cmg->dev.fold.first.x, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-require_first_iterate: level 0 of this problem fuses its first Jacobi step, so the expansion does not write it and that path is not tested");
  }
  for (PetscInt k = 0; k < H->nlevels; k++) PetscCall(CheckLevel(&c, K, H, &cmg->dev, k));
  for (PetscInt k = 0; k < H->nlevels; k++) PetscCall(CheckChunks(H, &cmg->dev, k));
  {
    PetscInt  npacked = 0, nsplit = 0;
    PetscBool require = PETSC_FALSE;
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-require_split", &require, NULL));
    for (PetscInt k = 0; k < H->nlevels; k++) {
      PetscCall(CheckUnits(&cmg->dev.levels[k], k, &nsplit));
      npacked += cmg->dev.levels[k].nunits > 0;
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "packed levels %" PetscInt_FMT " (lanes per row:", npacked));
    for (PetscInt k = 0; k < H->nlevels; k++)
      if (cmg->dev.levels[k].nunits) PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %" PetscInt_FMT, cmg->dev.levels[k].lanes));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "), clusters split over units %" PetscInt_FMT "\n", nsplit));
    PetscCheck(!require || nsplit > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-require_split: no cluster of this problem is split over units, so the split path is not tested");
  }
  {
    PetscInt nl = 0, nlc = 0, nrc = 0, ncc = 0;
    for (PetscInt k = 0; k < cmg->dev.nlevels; k++) {
      nl += cmg->dev.levels[k].nlong;
      nlc += cmg->dev.levels[k].nlongc;
      nrc += cmg->dev.levels[k].nrowchunks;
      ncc += cmg->dev.levels[k].nclusterchunks;
    }
    PetscBool one = PETSC_FALSE, several = PETSC_FALSE, onec = PETSC_FALSE, severalc = PETSC_FALSE;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "rows longer than %d: %" PetscInt_FMT " (%" PetscInt_FMT " chunks), clusters larger than %d: %" PetscInt_FMT " (%" PetscInt_FMT " chunks) (a thread block per chunk on the GPU)\n", GPUPC_CMG_LONG_ROW, nl, nrc, GPUPC_CMG_LONG_CLUSTER, nlc, ncc));
    /* every long row has at least one chunk: fewer than two per row means some row has one, more than one per row
       means some row has several (the CUDA kernels treat the two differently) */
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-require_one_chunk_row", &one, NULL));
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-require_several_chunk_row", &several, NULL));
    PetscCheck(!one || (nl > 0 && nrc < 2 * nl), PETSC_COMM_SELF, PETSC_ERR_PLIB, "-require_one_chunk_row: no long row of this problem is a single chunk, so that path is not tested");
    PetscCheck(!several || nrc > nl, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-require_several_chunk_row: no long row of this problem has several chunks, so that path is not tested");
    /* the same for the large clusters of the cluster sums */
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-require_one_chunk_cluster", &onec, NULL));
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-require_several_chunk_cluster", &severalc, NULL));
    PetscCheck(!onec || (nlc > 0 && ncc < 2 * nlc), PETSC_COMM_SELF, PETSC_ERR_PLIB, "-require_one_chunk_cluster: no large cluster of this problem is a single chunk, so that path is not tested");
    PetscCheck(!severalc || ncc > nlc, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-require_several_chunk_cluster: no large cluster of this problem has several chunks, so that path is not tested");
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "kernel table %s, precision %s: expand, fold, jacobi, smooth (also with the prolongation fused in), update, residual_restrict (also with the first Jacobi step), cluster_sum, prolong, dense_solve agree with the reference on %" PetscInt_FMT " levels (the restrictions also with the next level's first Jacobi iterate)\n", K->name, GPUPCCMGPrecisions[c.prec], H->nlevels));
  PetscCall(PetscRandomDestroy(&c.rnd));
  PetscCall(PCDestroy(&pc));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem1));
  PetscCheck(mem0 == mem1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "device memory in use went from %zu to %zu bytes", mem0, mem1);
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  return TestCasesMain(argc, argv, help, RunCase);
}

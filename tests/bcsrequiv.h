/*
   The bcsr kernel table in tests/kernel_equiv.c (included there after its coverage and random helpers): every member on
   layouts built here, independently of the library's build code, from random block-sparse matrices, for every block
   size 1..8 and both slice shapes. Side 0 is the active backend's table on device buffers, side 1 the host table (cuda
   backend) or the reference loops below (host backend) on host buffers.
*/
#include <gpupc/bcsrkernels.h>

/* ---- reference loops: the stored blocks in storage order, each added into y at once (another summation order than
   the kernels' per-row sums); the diagonal by scanning every stored block */
static PetscErrorCode Mult_RefB(const GPUPCBCSRDev *A, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  const PetscInt b = A->b, S = A->S;

  for (PetscInt k = 0; k < A->m; k++) y[k] = z ? z[k] : 0.0;
  if (!A->n) return 0;
  for (PetscInt s = 0; s < A->nslices; s++)
    for (PetscInt q = A->sliceptr[s]; q < A->sliceptr[s + 1]; q++) {
      const PetscInt r = (q - A->sliceptr[s]) % S, br = A->blkrow[s * S + r], q0 = q - r;
      if (br < 0) continue;
      for (PetscInt i = 0; i < b; i++)
        for (PetscInt j = 0; j < b; j++) y[br * b + i] += A->val[GPUPCBCSRSlot(q0, S, b, r, i, j)] * x[A->bcol[q] * b + j];
    }
  return 0;
}
static PetscErrorCode MultTransposeAdd_RefB(const GPUPCBCSRDev *A, const PetscScalar *x, PetscScalar *y)
{
  const PetscInt b = A->b, S = A->S;

  if (!A->n) return 0;
  for (PetscInt s = 0; s < A->nslices; s++)
    for (PetscInt q = A->sliceptr[s]; q < A->sliceptr[s + 1]; q++) {
      const PetscInt r = (q - A->sliceptr[s]) % S, br = A->blkrow[s * S + r], q0 = q - r;
      if (br < 0) continue;
      for (PetscInt i = 0; i < b; i++)
        for (PetscInt j = 0; j < b; j++) y[A->bcol[q] * b + j] += A->val[GPUPCBCSRSlot(q0, S, b, r, i, j)] * x[br * b + i];
    }
  return 0;
}
static PetscErrorCode GetDiagonal_RefB(const GPUPCBCSRDev *A, PetscScalar *d)
{
  const PetscInt b = A->b, S = A->S;

  for (PetscInt k = 0; k < A->m; k++) d[k] = 0.0;
  for (PetscInt s = 0; s < A->nslices; s++)
    for (PetscInt q = A->sliceptr[s]; q < A->sliceptr[s + 1]; q++) {
      const PetscInt r = (q - A->sliceptr[s]) % S, br = A->blkrow[s * S + r], q0 = q - r;
      if (br < 0 || A->bcol[q] != br) continue;
      for (PetscInt i = 0; i < b; i++) d[br * b + i] += A->val[GPUPCBCSRSlot(q0, S, b, r, i, i)]; /* padding blocks hold 0 */
    }
  return 0;
}
static PetscErrorCode LayValues_RefB(const GPUPCBCSRDev *A, PetscInt k0, PetscInt count, const PetscScalar *a, PetscScalar *val)
{
  for (PetscInt q = 0; q < count; q++) val[A->pos[k0 + q]] = a[q];
  return 0;
}
GPUPC_KERNEL_TABLE_DEFINE(GPUPCBCSRKernels, RefBCSRKernels, GPUPC_BCSR_KERNEL_LIST, "reference", _RefB);

/* ---- a random block-sparse matrix and its layout */
typedef struct {
  GPUPCBCSRDev h;       /* host arrays of the layout (val zero until laid) */
  PetscInt    *ri, *rj; /* the CSR pattern (rows m) */
  PetscScalar *ra;
} BCSRTest;

/* mb x nb blocks of size b; block row br has (br * 7) % 11 blocks (some empty), block row 1 has min(nb, 300);
   full: every entry of a block present, else an entry with probability about 1/2 (a non-blocked AIJ pattern) */
static PetscErrorCode BCSRTestCreate(Ctx *c, PetscInt b, PetscInt mb, PetscInt nb, PetscBool full, MatBCSRMapping mapping, BCSRTest *t)
{
  GPUPCBCSRDev *h = &t->h;
  PetscInt     *len, *bc, *bptr, *key, *order, nnz = 0, S, lanes;
  PetscInt64    nblocks = 0;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(t, sizeof(*t)));
  GPUPCBCSRSliceShape(b, mapping, &S, &lanes);
  h->b = b, h->mb = mb, h->nb = nb, h->m = mb * b, h->n = nb * b, h->S = S, h->lanes = lanes;
  h->nslices = (mb + S - 1) / S;
  PetscCall(PetscMalloc5(mb, &len, mb + 1, &bptr, mb, &key, h->nslices * S, &order, mb, &h->rowpos));
  bptr[0] = 0;
  for (PetscInt br = 0; br < mb; br++) {
    len[br]      = nb ? PetscMin(nb, br == 1 ? 300 : (br * 7) % 11) : 0;
    bptr[br + 1] = bptr[br] + len[br];
    key[br]      = (nb + 1 - len[br]) * mb + br; /* longest first, then by index */
    order[br]    = br;
  }
  PetscCall(PetscMalloc1(bptr[mb] + 1, &bc));
  for (PetscInt br = 0; br < mb; br++) /* distinct increasing block columns: a stride of nb / len from a row-dependent start */
    for (PetscInt q = 0; q < len[br]; q++) bc[bptr[br] + q] = (br + q * (nb / len[br])) % nb;
  for (PetscInt br = 0; br < mb; br++) PetscCall(PetscSortInt(len[br], bc + bptr[br]));
  PetscCall(PetscSortIntWithArray(mb, key, order));
  PetscCall(PetscMalloc2(h->nslices * S, &h->blkrow, h->nslices + 1, &h->sliceptr));
  for (PetscInt p = 0; p < h->nslices * S; p++) h->blkrow[p] = p < mb ? order[p] : -1;
  for (PetscInt p = 0; p < mb; p++) h->rowpos[order[p]] = p;
  h->sliceptr[0] = 0;
  for (PetscInt s = 0; s < h->nslices; s++) {
    PetscInt w = 0;
    for (PetscInt r = 0; r < S; r++)
      if (h->blkrow[s * S + r] >= 0) w = PetscMax(w, len[h->blkrow[s * S + r]]);
    nblocks += (PetscInt64)w * S;
    h->sliceptr[s + 1] = (PetscInt)nblocks;
  }
  h->nblocks = (PetscInt)nblocks;
  PetscCall(PetscMalloc2(nblocks, &h->bcol, nblocks * b * b, &h->val));
  for (PetscInt s = 0; s < h->nslices; s++)
    for (PetscInt r = 0; r < S; r++) {
      const PetscInt br = h->blkrow[s * S + r], l = br >= 0 ? len[br] : 0;
      for (PetscInt q = h->sliceptr[s], st = 0; q < h->sliceptr[s + 1]; q += S, st++) h->bcol[q + r] = st < l ? bc[bptr[br] + st] : (l ? bc[bptr[br] + l - 1] : 0);
    }
  for (PetscInt64 k = 0; k < nblocks * b * b; k++) h->val[k] = 0.0;
  /* the CSR entries, row by row in column order, and their slots */
  PetscCall(PetscMalloc1(h->m + 1, &t->ri));
  PetscCall(PetscMalloc3(bptr[mb] * b * b + 1, &t->rj, bptr[mb] * b * b + 1, &t->ra, bptr[mb] * b * b + 1, &h->pos));
  t->ri[0] = 0;
  for (PetscInt row = 0; row < h->m; row++) {
    const PetscInt br = row / b, i = row % b, p = h->rowpos[br], s = p / S, r = p % S;
    for (PetscInt q = 0; q < len[br]; q++)
      for (PetscInt j = 0; j < b; j++) {
        PetscReal u;
        PetscCall(PetscRandomGetValueReal(c->rnd, &u));
        if (!full && u < 0.0 && !(i == j && bc[bptr[br] + q] == br)) continue; /* keep the diagonal entries */
        t->rj[nnz]    = bc[bptr[br] + q] * b + j;
        t->ra[nnz]    = u;
        h->pos[nnz++] = (PetscInt)GPUPCBCSRSlot(h->sliceptr[s] + q * S, S, b, r, i, j);
      }
    t->ri[row + 1] = nnz;
  }
  h->nnz = nnz;
  PetscCall(PetscFree(bc));
  PetscCall(PetscFree5(len, bptr, key, order, h->rowpos));
  /* rowpos again (freed with the work arrays above) */
  PetscCall(PetscMalloc1(mb, &h->rowpos));
  for (PetscInt p = 0; p < mb; p++) h->rowpos[h->blkrow[p]] = p;
  PetscFunctionReturn(0);
}

static PetscErrorCode BCSRTestDestroy(BCSRTest *t)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(t->ri));
  PetscCall(PetscFree3(t->rj, t->ra, t->h.pos));
  PetscCall(PetscFree2(t->h.bcol, t->h.val));
  PetscCall(PetscFree2(t->h.blkrow, t->h.sliceptr));
  PetscCall(PetscFree(t->h.rowpos));
  PetscFunctionReturn(0);
}

/* layout h with its arrays copied into a world */
static PetscErrorCode BCSRTestUpload(const GPUPCBCSRDev *h, PetscBool device, GPUPCBCSRDev *d)
{
  PetscFunctionBegin;
  *d = *h;
  PetscCall(TestDup(device, h->sliceptr, (h->nslices + 1) * sizeof(PetscInt), (void **)&d->sliceptr));
  PetscCall(TestDup(device, h->blkrow, h->nslices * h->S * sizeof(PetscInt), (void **)&d->blkrow));
  PetscCall(TestDup(device, h->rowpos, h->mb * sizeof(PetscInt), (void **)&d->rowpos));
  PetscCall(TestDup(device, h->bcol, h->nblocks * sizeof(PetscInt), (void **)&d->bcol));
  PetscCall(TestDup(device, h->val, (size_t)h->nblocks * h->b * h->b * sizeof(PetscScalar), (void **)&d->val));
  PetscCall(TestDup(device, h->pos, h->nnz * sizeof(PetscInt), (void **)&d->pos));
  PetscFunctionReturn(0);
}

static PetscErrorCode BCSRTestFreeUpload(PetscBool device, GPUPCBCSRDev *d)
{
  PetscFunctionBegin;
  PetscCall(TestFree(device, d->sliceptr));
  PetscCall(TestFree(device, d->blkrow));
  PetscCall(TestFree(device, d->rowpos));
  PetscCall(TestFree(device, d->bcol));
  PetscCall(TestFree(device, d->val));
  PetscCall(TestFree(device, d->pos));
  PetscFunctionReturn(0);
}

/* member ran on both sides at this size and agreed */
static void BCSRCovered(Coverage *cv, PetscInt member, PetscInt64 size)
{
  if (!cv->runs[member]++) cv->minsize[member] = cv->maxsize[member] = size;
  cv->minsize[member] = PetscMin(cv->minsize[member], size);
  cv->maxsize[member] = PetscMax(cv->maxsize[member], size);
}

/* the n results of both sides agree within (terms + 2) eps |mag| (exactly when tol is 0) */
static PetscErrorCode BCSRAgree(const char *member, const char *variant, PetscInt n, const PetscScalar *a, const PetscScalar *r, const PetscReal *mag, PetscReal terms, const char *wa, const char *wr)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < n; k++) {
    const PetscReal allowed = mag ? (terms + 2.0) * PETSC_MACHINE_EPSILON * mag[k] : 0.0;
    PetscCheck(!PetscIsNanReal(a[k]) && PetscAbsReal(a[k] - r[k]) <= allowed, PETSC_COMM_SELF, PETSC_ERR_PLIB, "bcsr table, member %s (%s), entry %" PetscInt_FMT ": %s %.17g, %s %.17g (allowed %g)", member, variant, k, wa, (double)a[k], wr, (double)r[k], (double)allowed);
  }
  PetscFunctionReturn(0);
}

/* every member on one random matrix: values laid in chunks, y = A x + z (z NULL, z, z = y), y += A^T x, the diagonal */
static PetscErrorCode BCSRCase(Ctx *c, const GPUPCBCSRKernels *K[2], const char *what[2], Coverage *cv, PetscInt b, PetscInt mb, PetscInt nb, PetscBool full, MatBCSRMapping mapping)
{
  BCSRTest        t;
  GPUPCBCSRDev    d[2];
  PetscScalar    *x, *z, *xt, *out[2], *dx[2], *dz[2], *dy[2], *dxt[2], *dyt[2], *da[2];
  PetscReal      *mag, *magt;
  PetscInt        m, n, chunk;
  PetscInt64      size;
  char            variant[128];
  const PetscBool dev[2] = {c->S[0].device, c->S[1].device};

  PetscFunctionBegin;
  PetscCall(BCSRTestCreate(c, b, mb, nb, full, mapping, &t));
  m    = t.h.m;
  n    = t.h.n;
  size = (PetscInt64)t.h.nblocks * b * b;
  PetscCall(PetscSNPrintf(variant, sizeof(variant), "b = %" PetscInt_FMT ", %s mapping, %" PetscInt_FMT " x %" PetscInt_FMT ", %s blocks", b, MatBCSRMappings[mapping], m, n, full ? "full" : "half-empty"));
  PetscCall(PetscMalloc6(n + 1, &x, m + 1, &z, m + 1, &xt, PetscMax(m, n) + 1, &out[0], PetscMax(m, n) + 1, &out[1], PetscMax(m, n) + 1, &mag));
  PetscCall(PetscMalloc1(PetscMax(m, n) + 1, &magt));
  PetscCall(Random(c, n, x));
  PetscCall(Random(c, m, z));
  PetscCall(Random(c, m, xt));
  FOR_SIDES(s)
  {
    PetscCall(BCSRTestUpload(&t.h, dev[s], &d[s]));
    PetscCall(TestDup(dev[s], x, n * sizeof(PetscScalar), (void **)&dx[s]));
    PetscCall(TestDup(dev[s], z, m * sizeof(PetscScalar), (void **)&dz[s]));
    PetscCall(TestDup(dev[s], xt, m * sizeof(PetscScalar), (void **)&dxt[s]));
    PetscCall(TestMalloc(dev[s], m * sizeof(PetscScalar), (void **)&dy[s]));
    PetscCall(TestMalloc(dev[s], n * sizeof(PetscScalar), (void **)&dyt[s]));
    PetscCall(TestDup(dev[s], t.ra, t.h.nnz * sizeof(PetscScalar), (void **)&da[s]));
  }
  /* layvalues in chunks of about a third (the first chunk may be empty) */
  chunk = t.h.nnz / 3 + 1;
  FOR_SIDES(s)
  for (PetscInt k0 = 0; k0 < t.h.nnz; k0 += chunk) PetscCall(K[s]->layvalues(&d[s], k0, PetscMin(chunk, t.h.nnz - k0), da[s] + k0, d[s].val));
  {
    PetscScalar *v[2];
    FOR_SIDES(s)
    {
      PetscCall(PetscMalloc1(size + 1, &v[s]));
      PetscCall(TestGet(dev[s], v[s], d[s].val, size * sizeof(PetscScalar)));
    }
    PetscCall(BCSRAgree("layvalues", variant, (PetscInt)size, v[0], v[1], NULL, 0, what[0], what[1]));
    for (PetscInt k = 0; k < t.h.nnz; k++) PetscCheck(v[1][t.h.pos[k]] == t.ra[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "bcsr layvalues (%s): entry %" PetscInt_FMT " not in its slot", variant, k);
    FOR_SIDES(s)
    PetscCall(PetscFree(v[s]));
    BCSRCovered(cv, GPUPC_BCSR_KERNEL_layvalues, t.h.nnz);
  }
  /* magnitudes: sum over the row of |a| |x| (+ |z|) */
  for (PetscInt k = 0; k < m; k++) mag[k] = PetscAbsReal(z[k]);
  for (PetscInt k = 0; k < n; k++) magt[k] = 0.0;
  for (PetscInt row = 0; row < m; row++)
    for (PetscInt k = t.ri[row]; k < t.ri[row + 1]; k++) {
      mag[row] += PetscAbsReal(t.ra[k] * x[t.rj[k]]);
      magt[t.rj[k]] += PetscAbsReal(t.ra[k] * xt[row]);
    }
  for (PetscInt v = 0; v < 3; v++) { /* y = A x, y = A x + z, y = A x + y */
    FOR_SIDES(s)
    {
      if (v == 2) PetscCall(TestPut(dev[s], dy[s], z, m * sizeof(PetscScalar)));
      PetscCall(K[s]->mult(&d[s], dx[s], v == 0 ? NULL : v == 1 ? dz[s]
                                                                : dy[s],
                           dy[s]));
      PetscCall(TestGet(dev[s], out[s], dy[s], m * sizeof(PetscScalar)));
    }
    PetscCall(BCSRAgree("mult", variant, m, out[0], out[1], mag, (PetscReal)(PetscMin(nb, 300) * b + 1), what[0], what[1]));
  }
  BCSRCovered(cv, GPUPC_BCSR_KERNEL_mult, size);
  FOR_SIDES(s)
  {
    PetscCall(TestPut(dev[s], dyt[s], x, n * sizeof(PetscScalar))); /* y starts at x: an add, not an overwrite */
    PetscCall(K[s]->multtransposeadd(&d[s], dxt[s], dyt[s]));
    PetscCall(TestGet(dev[s], out[s], dyt[s], n * sizeof(PetscScalar)));
  }
  for (PetscInt k = 0; k < n; k++) magt[k] += PetscAbsReal(x[k]);
  PetscCall(BCSRAgree("multtransposeadd", variant, n, out[0], out[1], magt, (PetscReal)(m + 1), what[0], what[1]));
  BCSRCovered(cv, GPUPC_BCSR_KERNEL_multtransposeadd, size);
  FOR_SIDES(s)
  {
    PetscCall(K[s]->getdiagonal(&d[s], dy[s]));
    PetscCall(TestGet(dev[s], out[s], dy[s], m * sizeof(PetscScalar)));
  }
  PetscCall(BCSRAgree("getdiagonal", variant, m, out[0], out[1], NULL, 0, what[0], what[1]));
  BCSRCovered(cv, GPUPC_BCSR_KERNEL_getdiagonal, size);
  FOR_SIDES(s)
  {
    PetscCall(BCSRTestFreeUpload(dev[s], &d[s]));
    PetscCall(TestFree(dev[s], dx[s]));
    PetscCall(TestFree(dev[s], dz[s]));
    PetscCall(TestFree(dev[s], dxt[s]));
    PetscCall(TestFree(dev[s], dy[s]));
    PetscCall(TestFree(dev[s], dyt[s]));
    PetscCall(TestFree(dev[s], da[s]));
  }
  PetscCall(PetscFree6(x, z, xt, out[0], out[1], mag));
  PetscCall(PetscFree(magt));
  PetscCall(BCSRTestDestroy(&t));
  PetscFunctionReturn(0);
}

/* every member of the bcsr table: block sizes 1..8, both slice shapes, full and half-empty blocks; shapes with no block
   row, one block row, no block column, a long block row (300 blocks) beside empty ones, rectangles, and one case of
   more than 2^17 entries */
static PetscErrorCode BCSRCases(Ctx *c)
{
  const GPUPCBCSRKernels *K[2];
  const char             *what[2] = {c->S[0].what, c->S[1].what};
  PetscGPUPCBackend       backend;
  Coverage                cv;
  const PetscInt          shapes[][2] = {{0, 5}, {1, 1}, {1, 40}, {33, 0}, {70, 70}, {130, 45}, {20, 400}};

  PetscFunctionBegin;
  PetscCall(PetscGPUPCGetBackend(&backend));
  PetscCall(GPUPCGetBCSRKernelsFor(backend, &K[0]));
  if (backend == PETSC_GPUPC_BACKEND_CUDA) PetscCall(GPUPCGetBCSRKernelsFor(PETSC_GPUPC_BACKEND_HOST, &K[1]));
  else K[1] = &RefBCSRKernels;
  PetscCall(CoverageInit(&cv, "bcsr", "GPUPC_BCSR_KERNEL_LIST", GPUPCBCSRKernelNames, GPUPC_BCSR_NKERNELS, 0, 1 << 17));
  for (PetscInt b = 1; b <= GPUPC_BCSR_MAXB; b++)
    for (PetscInt mp = 0; mp < 2; mp++)
      for (size_t k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++) PetscCall(BCSRCase(c, K, what, &cv, b, shapes[k][0], shapes[k][1], (PetscBool)(k % 2 == 0), (MatBCSRMapping)mp));
  PetscCall(BCSRCase(c, K, what, &cv, 3, 4000, 4000, PETSC_TRUE, MAT_BCSR_MAPPING_FULL));
  PetscCall(BCSRCase(c, K, what, &cv, 5, 1000, 1200, PETSC_FALSE, MAT_BCSR_MAPPING_WARP));
  PetscCall(CoverageCheck(&cv));
  PetscFunctionReturn(0);
}

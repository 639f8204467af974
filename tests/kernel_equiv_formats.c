static const char help[] = "The format builds from CSR on the device (gpupc/formatkernels.h, gpupc/devmat.h): every member of the\n"
                           "format-build kernel table, the active backend's table on device buffers against the host table on\n"
                           "host buffers; segcsr and hec level matrices built from device CSR against the same formats built\n"
                           "from host CSR (every column and value slot identical, products identical, value updates from host and\n"
                           "device identical); products against a CSR reference; auto's choices.\n"
                           "bcsr from device CSR (row pointers on the device or the host) against bcsr from host CSR, array by\n"
                           "array, with its members (bcsrcount, bcsrcolumns, bcsrslices, bcsrfill) against the host table and a\n"
                           "plain count: random blocked matrices of block size 1, 2, 3, 6 (missing entries inside blocks, empty\n"
                           "block rows), elasticity-like stencils, no entries, no rows; unsorted rows and bad sizes refused.\n"
                           "The structure of a block built from device row pointers (segment pointers, rows, bins, tiles; ELL\n"
                           "lengths, slabs, remainder offsets, long rows) is compared array by array with the host build.\n"
                           "Matrices: irregular rows (empty, slab, warp and block rows), a 2D Laplacian, a rectangle, no entries,\n"
                           "ragged short rows (segcsr's tile mode), one very long row among empty ones, one row, no rows.\n";

#include <gpupc/devmat.h>
#include <gpupc/formatkernels.h>
#include "kerneltest.h"
/* the blocks' host statistics (segmin, groupbusy, Kcost, ...), compared between the host and the device builds */
#include "../src/mat/impls/segcsr/segcsrimpl.h"
#include "../src/mat/impls/hec/hecimpl.h"
#include "../src/mat/impls/bcsr/bcsrimpl.h"

typedef struct {
  const char  *name;
  PetscInt     m, n, nnz;
  PetscInt    *i, *j;
  PetscScalar *a;
} HostCSR;

static PetscInt runs[GPUPC_FORMAT_NKERNELS], tiled; /* tiled: segcsr blocks in tile mode (the ragged matrix must make one) */

/* the entries of A (row pointers set): random columns and values */
static PetscErrorCode FillEntries(PetscRandom r, HostCSR *A)
{
  PetscReal u;

  PetscFunctionBegin;
  A->nnz = A->i[A->m];
  PetscCall(PetscMalloc2(PetscMax(A->nnz, 1), &A->j, PetscMax(A->nnz, 1), &A->a));
  for (PetscInt k = 0; k < A->nnz; k++) {
    PetscCall(PetscRandomGetValueReal(r, &u));
    A->j[k] = (PetscInt)(u * A->n) % A->n;
    PetscCall(PetscRandomGetValueReal(r, &u));
    A->a[k] = u - 0.5;
  }
  PetscFunctionReturn(0);
}

/* irregular rows: lengths 0 .. 3 mean (slab rows of hec), a few of 40 (warp rows) and one of 1500 (a block row, a
   long segcsr row); random columns and values */
static PetscErrorCode MakeIrregular(PetscRandom r, PetscInt m, PetscInt n, HostCSR *A)
{
  PetscReal u;

  PetscFunctionBegin;
  A->name = "irregular";
  A->m    = m;
  A->n    = n;
  PetscCall(PetscMalloc1(m + 1, &A->i));
  A->i[0] = 0;
  for (PetscInt i = 0; i < m; i++) {
    PetscInt len;

    PetscCall(PetscRandomGetValueReal(r, &u));
    len         = i == m / 2 ? PetscMin(n, 1500) : (i % 97 == 5 ? PetscMin(n, 40) : (i % 13 == 0 ? 0 : (PetscInt)(u * 16)));
    A->i[i + 1] = A->i[i] + len;
  }
  PetscCall(FillEntries(r, A));
  PetscFunctionReturn(0);
}

static PetscErrorCode MakeLaplace(PetscInt g, HostCSR *A)
{
  PetscInt k = 0;

  PetscFunctionBegin;
  A->name = "laplace2d";
  A->m = A->n = g * g;
  PetscCall(PetscMalloc1(A->m + 1, &A->i));
  PetscCall(PetscMalloc2(5 * A->m, &A->j, 5 * A->m, &A->a));
  A->i[0] = 0;
  for (PetscInt y = 0; y < g; y++) {
    for (PetscInt x = 0; x < g; x++) {
      const PetscInt row = y * g + x;

      if (y > 0) A->j[k] = row - g, A->a[k++] = -1.0 - 0.01 * row;
      if (x > 0) A->j[k] = row - 1, A->a[k++] = -1.0;
      A->j[k] = row, A->a[k++] = 4.5;
      if (x < g - 1) A->j[k] = row + 1, A->a[k++] = -1.0;
      if (y < g - 1) A->j[k] = row + g, A->a[k++] = -1.0 - 0.02 * row;
      A->i[row + 1] = k;
    }
  }
  A->nnz = k;
  PetscFunctionReturn(0);
}

static PetscErrorCode FreeCSR(HostCSR *A)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(A->i));
  PetscCall(PetscFree2(A->j, A->a));
  PetscFunctionReturn(0);
}

static GPUPCCSR HostView(const HostCSR *A)
{
  GPUPCCSR c;

  PetscMemzero(&c, sizeof(c));
  c.m   = A->m;
  c.n   = A->n;
  c.nnz = A->nnz;
  c.i   = A->i;
  c.j   = A->j;
  c.a   = A->a;
  return c;
}

/* two device arrays of len entries of size bytes are equal */
static PetscErrorCode SameDevice(const char *what, const void *x, const void *y, PetscInt len, size_t size)
{
  char *hx, *hy;

  PetscFunctionBegin;
  if (len <= 0) PetscFunctionReturn(0);
  PetscCall(PetscMalloc2(len * size, &hx, len * size, &hy));
  PetscCall(GPUPCMemcpy(hx, x, len * size, GPUPC_COPY_DEVICE_TO_HOST));
  PetscCall(GPUPCMemcpy(hy, y, len * size, GPUPC_COPY_DEVICE_TO_HOST));
  for (PetscInt k = 0; k < len; k++) PetscCheck(!memcmp(hx + k * size, hy + k * size, size), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: entry %" PetscInt_FMT " differs", what, k);
  PetscCall(PetscFree2(hx, hy));
  PetscFunctionReturn(0);
}

/* a device copy of a host array */
static PetscErrorCode Up(const void *h, size_t bytes, void **d)
{
  PetscFunctionBegin;
  PetscCall(TestDup(PETSC_TRUE, h, bytes, d));
  PetscFunctionReturn(0);
}

/* device copies of A's row pointers, columns and values */
static PetscErrorCode UpCSR(const HostCSR *A, PetscInt **di, PetscInt **dj, PetscScalar **da)
{
  PetscFunctionBegin;
  PetscCall(Up(A->i, (A->m + 1) * sizeof(PetscInt), (void **)di));
  PetscCall(Up(A->j, A->nnz * sizeof(PetscInt), (void **)dj));
  PetscCall(Up(A->a, A->nnz * sizeof(PetscScalar), (void **)da));
  PetscFunctionReturn(0);
}

/* frees UpCSR's copies */
static PetscErrorCode FreeUp(PetscInt *di, PetscInt *dj, PetscScalar *da)
{
  PetscFunctionBegin;
  PetscCall(GPUPCFree(di));
  PetscCall(GPUPCFree(dj));
  PetscCall(GPUPCFree(da));
  PetscFunctionReturn(0);
}

/* a host copy of a device array (NULL for no entries) */
static PetscErrorCode Down(const void *d, size_t bytes, void **h)
{
  PetscFunctionBegin;
  *h = NULL;
  if (!bytes) PetscFunctionReturn(0);
  PetscCall(PetscMalloc(bytes, h));
  PetscCall(GPUPCMemcpy(*h, d, bytes, GPUPC_COPY_DEVICE_TO_HOST));
  PetscFunctionReturn(0);
}

/* the segcsr member: the active table on the device block against the host table on host copies of its arrays */
static PetscErrorCode CheckSegCSRMember(const GPUPCSegCSRDev *D, const PetscInt *dj, const PetscInt *hj, PetscInt nnz)
{
  const GPUPCFormatKernels *act, *host;
  GPUPCSegCSRDev            H     = *D;
  const PetscInt            slots = D->nseg * D->L;
  PetscInt                 *dcol, *hcol, *back;

  PetscFunctionBegin;
  PetscCall(GPUPCGetFormatKernels(&act));
  PetscCall(GPUPCGetFormatKernelsFor(PETSC_GPUPC_BACKEND_HOST, &host));
  PetscCall(Down(D->segptr, (D->m + 1) * sizeof(PetscInt), (void **)&H.segptr));
  PetscCall(Down(D->segrow, D->nseg * sizeof(PetscInt), (void **)&H.segrow));
  PetscCall(Down(D->rowptr, (D->m + 1) * sizeof(PetscInt), (void **)&H.rowptr));
  PetscCall(GPUPCMallocArray(slots, &dcol));
  PetscCall(PetscMalloc2(slots, &hcol, slots, &back));
  PetscCall(act->segcsrcolumns(D, dj, dcol));
  PetscCall(host->segcsrcolumns(&H, hj, hcol));
  PetscCall(GPUPCCopyToHost(back, dcol, slots));
  for (PetscInt s = 0; s < slots; s++) PetscCheck(back[s] == hcol[s], PETSC_COMM_SELF, PETSC_ERR_PLIB, "segcsrcolumns: %s and host differ at slot %" PetscInt_FMT " (%" PetscInt_FMT " vs %" PetscInt_FMT ")", act->name, s, back[s], hcol[s]);
  runs[GPUPC_FORMAT_KERNEL_segcsrcolumns]++;
  (void)nnz;
  PetscCall(GPUPCFree(dcol));
  PetscCall(PetscFree2(hcol, back));
  PetscCall(PetscFree(H.segptr));
  PetscCall(PetscFree(H.segrow));
  PetscCall(PetscFree(H.rowptr));
  PetscFunctionReturn(0);
}

/* the hec member likewise (the slab padding of remcol starts at -7 on both sides: the member leaves it) */
static PetscErrorCode CheckHECMember(const GPUPCHECDev *D, const PetscInt *dj, const PetscInt *hj)
{
  const GPUPCFormatKernels *act, *host;
  GPUPCHECDev               H    = *D;
  const PetscInt            nell = D->K * D->stride, nrem = D->nremslots;
  PetscInt                 *dell, *drem, *hell, *hrem, *bell, *brem;

  PetscFunctionBegin;
  PetscCall(GPUPCGetFormatKernels(&act));
  PetscCall(GPUPCGetFormatKernelsFor(PETSC_GPUPC_BACKEND_HOST, &host));
  PetscCall(Down(D->rowptr, (D->m + 1) * sizeof(PetscInt), (void **)&H.rowptr));
  PetscCall(Down(D->rembase, D->m * sizeof(PetscInt), (void **)&H.rembase));
  PetscCall(Down(D->remstep, D->m * sizeof(PetscInt), (void **)&H.remstep));
  PetscCall(Down(D->remrow, nrem * sizeof(PetscInt), (void **)&H.remrow));
  PetscCall(PetscMalloc4(nell, &hell, nrem, &hrem, nell, &bell, nrem, &brem));
  for (PetscInt r = 0; r < nrem; r++) hrem[r] = -7;
  PetscCall(Up(hrem, nrem * sizeof(PetscInt), (void **)&drem));
  PetscCall(GPUPCMallocArray(nell, &dell));
  PetscCall(act->heccolumns(D, dj, dell, drem));
  PetscCall(host->heccolumns(&H, hj, hell, hrem));
  PetscCall(GPUPCCopyToHost(bell, dell, nell));
  PetscCall(GPUPCCopyToHost(brem, drem, nrem));
  for (PetscInt t = 0; t < nell; t++) PetscCheck(bell[t] == hell[t], PETSC_COMM_SELF, PETSC_ERR_PLIB, "heccolumns: %s and host differ at ELL slot %" PetscInt_FMT, act->name, t);
  for (PetscInt t = 0; t < nrem; t++) PetscCheck(brem[t] == hrem[t], PETSC_COMM_SELF, PETSC_ERR_PLIB, "heccolumns: %s and host differ at remainder slot %" PetscInt_FMT, act->name, t);
  runs[GPUPC_FORMAT_KERNEL_heccolumns]++;
  PetscCall(GPUPCFree(dell));
  PetscCall(GPUPCFree(drem));
  PetscCall(PetscFree4(hell, hrem, bell, brem));
  PetscCall(PetscFree(H.rowptr));
  PetscCall(PetscFree(H.rembase));
  PetscCall(PetscFree(H.remstep));
  PetscCall(PetscFree(H.remrow));
  PetscFunctionReturn(0);
}

/* the n entries of device array x (size bytes each) against those of y, or nothing when both are absent */
#define SAME(what, x, y, n) SameDevice(what, x, y, n, sizeof(*(x)))

/* every array and statistic of two blocks of one format built from the same matrix (from host and from device CSR) */
static PetscErrorCode SameBlocks(const char *fmt, GPUPCDevMat X, GPUPCDevMat Y)
{
  PetscFunctionBegin;
  if (!strcmp(fmt, "segcsr")) {
    const GPUPCSegCSRBlock *p = (const GPUPCSegCSRBlock *)X->block, *q = (const GPUPCSegCSRBlock *)Y->block;
    const GPUPCSegCSRDev   *a = &p->d, *b = &q->d;

    PetscCheck(a->m == b->m && a->n == b->n && a->nseg == b->nseg && a->L == b->L && a->nnz == b->nnz && a->shortmax == b->shortmax && a->nlong == b->nlong && a->nmed == b->nmed && a->shortmode == b->shortmode && a->ntiles == b->ntiles, PETSC_COMM_SELF, PETSC_ERR_PLIB, "segcsr layouts differ");
    PetscCheck(p->segmin == q->segmin && p->segmax == q->segmax && p->maxrow == q->maxrow && p->nmedium == q->nmedium && p->shortreq == q->shortreq && p->groupbusy == q->groupbusy, PETSC_COMM_SELF, PETSC_ERR_PLIB, "segcsr statistics differ: segments %" PetscInt_FMT "..%" PetscInt_FMT " vs %" PetscInt_FMT "..%" PetscInt_FMT ", busy %g vs %g", p->segmin, p->segmax, q->segmin, q->segmax, (double)p->groupbusy, (double)q->groupbusy);
    PetscCall(SAME("segcsr segptr", a->segptr, b->segptr, a->m + 1));
    PetscCall(SAME("segcsr rowptr", a->rowptr, b->rowptr, a->m + 1));
    PetscCall(SAME("segcsr segrow", a->segrow, b->segrow, a->nseg));
    PetscCall(SAME("segcsr medrows", a->medrows, b->medrows, a->nmed));
    PetscCall(SAME("segcsr longrows", a->longrows, b->longrows, a->nlong));
    if (a->shortmode == MAT_SEGCSR_SHORT_TILE) {
      PetscCall(SAME("segcsr tileptr", a->tileptr, b->tileptr, a->ntiles + 1));
      PetscCall(SAME("segcsr tileend", a->tileend, b->tileend, a->ntiles));
    }
    PetscCall(SAME("segcsr col", a->col, b->col, a->nseg * a->L));
    PetscCall(SAME("segcsr val", a->val, b->val, a->nseg * a->L));
  } else {
    const GPUPCHECBlock *p = (const GPUPCHECBlock *)X->block, *q = (const GPUPCHECBlock *)Y->block;
    const GPUPCHECDev   *a = &p->d, *b = &q->d;

    PetscCheck(a->m == b->m && a->n == b->n && a->K == b->K && a->stride == b->stride && a->nnz == b->nnz && a->nrem == b->nrem && a->nremslots == b->nremslots && a->nslabslots == b->nslabslots && a->nlong == b->nlong && a->nblock == b->nblock && a->nslab == b->nslab, PETSC_COMM_SELF, PETSC_ERR_PLIB, "hec layouts differ");
    PetscCheck(!memcmp(a->slablen, b->slablen, sizeof(a->slablen)) && !memcmp(a->slabstart, b->slabstart, sizeof(a->slabstart)) && !memcmp(a->slabwarp, b->slabwarp, sizeof(a->slabwarp)), PETSC_COMM_SELF, PETSC_ERR_PLIB, "hec slab groups differ");
    PetscCheck(p->maxrow == q->maxrow && p->Kcost == q->Kcost && p->nwarp == q->nwarp && p->nslabrows == q->nslabrows && p->forced == q->forced, PETSC_COMM_SELF, PETSC_ERR_PLIB, "hec statistics differ");
    PetscCall(SAME("hec rowptr", a->rowptr, b->rowptr, a->m + 1));
    PetscCall(SameDevice("hec ellen", a->ellen, b->ellen, a->m, GPUPCHECEllLengthBytes(a->K)));
    PetscCall(SAME("hec rembase", a->rembase, b->rembase, a->m));
    PetscCall(SAME("hec remstep", a->remstep, b->remstep, a->m));
    PetscCall(SAME("hec remrow", a->remrow, b->remrow, a->nremslots));
    PetscCall(SAME("hec slabrows", a->slabrows, b->slabrows, 32 * a->slabwarp[a->nslab]));
    PetscCall(SAME("hec longrows", a->longrows, b->longrows, a->nlong));
    PetscCall(SAME("hec ellcol", a->ellcol, b->ellcol, a->K * a->stride));
    PetscCall(SAME("hec ellval", a->ellval, b->ellval, a->K * a->stride));
    PetscCall(SAME("hec remcol", a->remcol, b->remcol, a->nremslots));
    PetscCall(SAME("hec remval", a->remval, b->remval, a->nremslots));
  }
  PetscFunctionReturn(0);
}

/* device array x (n ints) against host array h */
static PetscErrorCode SameInts(const char *what, const char *table, const PetscInt *x, const PetscInt *h, PetscInt n)
{
  PetscInt *back;

  PetscFunctionBegin;
  if (n <= 0) PetscFunctionReturn(0);
  PetscCall(PetscMalloc1(n, &back));
  PetscCall(GPUPCCopyToHost(back, x, n));
  for (PetscInt k = 0; k < n; k++) PetscCheck(back[k] == h[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %s and host differ at %" PetscInt_FMT " (%" PetscInt_FMT " vs %" PetscInt_FMT ")", what, table, k, back[k], h[k]);
  PetscCall(PetscFree(back));
  PetscFunctionReturn(0);
}

/* the structure members for one matrix, the active table on device arrays against the host table on host arrays,
   their inputs taken from D, the segcsr block built from host CSR, and E, the hec block (whose arrays the results must
   also reproduce) */
static PetscErrorCode CheckStructureMembers(const HostCSR *A, const GPUPCSegCSRDev *D, const GPUPCHECDev *E)
{
  const GPUPCFormatKernels *act, *host;
  const PetscInt            m = A->m, lanes = 32 * E->slabwarp[E->nslab];
  PetscInt                  amax, hmax, ast[3], hst[3], acnt[2], hcnt[2], *dv, *hv, *hv2, *rows, *drows, nlong = 0;
  PetscInt64                asum[2], hsum[2];
  GPUPCSegCSRDev            Dd = *D, Hd = *D;
  GPUPCHECDev               Ed = *E, He = *E;

  PetscFunctionBegin;
  PetscCall(GPUPCGetFormatKernels(&act));
  PetscCall(GPUPCGetFormatKernelsFor(PETSC_GPUPC_BACKEND_HOST, &host));
  PetscCall(Down(D->segptr, (m + 1) * sizeof(PetscInt), (void **)&Hd.segptr));
  Hd.rowptr = A->i;
  He.rowptr = A->i;
  /* rowmax, rowhistogram */
  PetscCall(act->rowmax(m, D->rowptr, &amax));
  PetscCall(host->rowmax(m, A->i, &hmax));
  PetscCheck(amax == hmax, PETSC_COMM_SELF, PETSC_ERR_PLIB, "rowmax: %s %" PetscInt_FMT ", host %" PetscInt_FMT, act->name, amax, hmax);
  runs[GPUPC_FORMAT_KERNEL_rowmax]++;
  PetscCall(GPUPCMallocArray(hmax + 1, &dv));
  PetscCall(PetscMalloc1(hmax + 1, &hv));
  PetscCall(act->rowhistogram(m, D->rowptr, hmax, dv));
  PetscCall(host->rowhistogram(m, A->i, hmax, hv));
  PetscCall(SameInts("rowhistogram", act->name, dv, hv, hmax + 1));
  runs[GPUPC_FORMAT_KERNEL_rowhistogram]++;
  PetscCall(GPUPCFree(dv));
  PetscCall(PetscFree(hv));
  /* segcsrcount: the counts are the differences of segptr */
  PetscCall(GPUPCMallocArray(PetscMax(m, 1), &dv));
  PetscCall(PetscMalloc2(PetscMax(m, 1), &hv, PetscMax(m, 1), &hv2));
  PetscCall(act->segcsrcount(m, D->rowptr, D->L, dv, ast));
  PetscCall(host->segcsrcount(m, A->i, D->L, hv, hst));
  PetscCheck(ast[0] == hst[0] && ast[1] == hst[1] && ast[2] == hst[2], PETSC_COMM_SELF, PETSC_ERR_PLIB, "segcsrcount: %s and host statistics differ", act->name);
  PetscCall(SameInts("segcsrcount", act->name, dv, hv, m));
  for (PetscInt i = 0; i < m; i++) PetscCheck(hv[i] == Hd.segptr[i + 1] - Hd.segptr[i], PETSC_COMM_SELF, PETSC_ERR_PLIB, "segcsrcount: row %" PetscInt_FMT " has %" PetscInt_FMT " segments, the host build %" PetscInt_FMT, i, hv[i], Hd.segptr[i + 1] - Hd.segptr[i]);
  runs[GPUPC_FORMAT_KERNEL_segcsrcount]++;
  /* segcsrbins, segcsrbusy */
  PetscCall(act->segcsrbins(D, dv, acnt));
  PetscCall(host->segcsrbins(&Hd, hv, hcnt));
  PetscCheck(acnt[0] == hcnt[0] && acnt[1] == hcnt[1] && hcnt[1] == D->nlong, PETSC_COMM_SELF, PETSC_ERR_PLIB, "segcsrbins: counts differ");
  PetscCall(SameInts("segcsrbins", act->name, dv, hv, m));
  runs[GPUPC_FORMAT_KERNEL_segcsrbins]++;
  PetscCall(act->segcsrbusy(D, asum));
  PetscCall(host->segcsrbusy(&Hd, hsum));
  PetscCheck(asum[0] == hsum[0] && asum[1] == hsum[1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "segcsrbusy: %s and host sums differ", act->name);
  runs[GPUPC_FORMAT_KERNEL_segcsrbusy]++;
  /* rowlengths of every row, last first, over segptr */
  PetscCall(PetscMalloc1(PetscMax(m, 1), &rows));
  for (PetscInt p = 0; p < m; p++) rows[p] = m - 1 - p;
  PetscCall(Up(rows, m * sizeof(PetscInt), (void **)&drows));
  PetscCall(act->rowlengths(m, drows, D->segptr, dv));
  PetscCall(host->rowlengths(m, rows, Hd.segptr, hv2));
  PetscCall(SameInts("rowlengths", act->name, dv, hv2, m));
  runs[GPUPC_FORMAT_KERNEL_rowlengths]++;
  PetscCall(GPUPCFree(drows));
  /* segcsrsegrow into fresh arrays, against the host build's segrow */
  PetscCall(GPUPCMallocArray(D->nseg, &Dd.segrow));
  PetscCall(PetscMalloc1(D->nseg, &Hd.segrow));
  PetscCall(act->segcsrsegrow(&Dd));
  PetscCall(host->segcsrsegrow(&Hd));
  PetscCall(SameInts("segcsrsegrow", act->name, Dd.segrow, Hd.segrow, D->nseg));
  PetscCall(SameDevice("segcsrsegrow against the build", Dd.segrow, D->segrow, D->nseg, sizeof(PetscInt)));
  runs[GPUPC_FORMAT_KERNEL_segcsrsegrow]++;
  PetscCall(GPUPCFree(Dd.segrow));
  PetscCall(PetscFree(Hd.segrow));
  /* hecclass into fresh slabrows (all -1 after it) */
  PetscCall(GPUPCMallocArray(lanes, &Ed.slabrows));
  PetscCall(PetscMalloc1(lanes, &He.slabrows));
  PetscCall(act->hecclass(&Ed, dv));
  PetscCall(host->hecclass(&He, hv));
  PetscCall(SameInts("hecclass", act->name, dv, hv, m));
  PetscCall(SameInts("hecclass slabrows", act->name, Ed.slabrows, He.slabrows, lanes));
  for (PetscInt t = 0; t < lanes; t++) PetscCheck(He.slabrows[t] == -1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "hecclass: slab lane %" PetscInt_FMT " not cleared", t);
  runs[GPUPC_FORMAT_KERNEL_hecclass]++;
  /* hecfill from the build's slabrows and the warp and block rows in row order (from the host classes) */
  PetscCall(GPUPCFree(Ed.slabrows));
  PetscCall(PetscFree(He.slabrows));
  Ed.slabrows = E->slabrows;
  PetscCall(Down(E->slabrows, lanes * sizeof(PetscInt), (void **)&He.slabrows));
  for (PetscInt i = 0; i < m; i++)
    if (hv[i] == E->nslab) rows[nlong++] = i;
  PetscCheck(nlong == E->nlong, PETSC_COMM_SELF, PETSC_ERR_PLIB, "hecclass: %" PetscInt_FMT " warp and block rows, the build has %" PetscInt_FMT, nlong, E->nlong);
  {
    PetscInt *off, *doff;

    PetscCall(PetscMalloc1(nlong + 1, &off));
    off[0] = 0;
    for (PetscInt p = 0; p < nlong; p++) off[p + 1] = off[p] + A->i[rows[p] + 1] - A->i[rows[p]];
    PetscCall(Up(rows, nlong * sizeof(PetscInt), (void **)&drows));
    PetscCall(Up(off, (nlong + 1) * sizeof(PetscInt), (void **)&doff));
    PetscCall(GPUPCMalloc(m * GPUPCHECEllLengthBytes(E->K), &Ed.ellen));
    PetscCall(GPUPCMallocArray(m, &Ed.rembase));
    PetscCall(GPUPCMallocArray(m, &Ed.remstep));
    PetscCall(GPUPCMallocArray(E->nremslots, &Ed.remrow));
    PetscCall(PetscMalloc(m * GPUPCHECEllLengthBytes(E->K) + 1, &He.ellen));
    PetscCall(PetscMalloc3(PetscMax(m, 1), &He.rembase, PetscMax(m, 1), &He.remstep, PetscMax(E->nremslots, 1), &He.remrow));
    PetscCall(act->hecfill(&Ed, drows, doff));
    PetscCall(host->hecfill(&He, rows, off));
    PetscCall(SameInts("hecfill rembase", act->name, Ed.rembase, He.rembase, m));
    PetscCall(SameInts("hecfill remstep", act->name, Ed.remstep, He.remstep, m));
    PetscCall(SameInts("hecfill remrow", act->name, Ed.remrow, He.remrow, E->nremslots));
    PetscCall(SameDevice("hecfill ellen against the build", Ed.ellen, E->ellen, m, GPUPCHECEllLengthBytes(E->K)));
    PetscCall(SameDevice("hecfill rembase against the build", Ed.rembase, E->rembase, m, sizeof(PetscInt)));
    PetscCall(SameDevice("hecfill remstep against the build", Ed.remstep, E->remstep, m, sizeof(PetscInt)));
    PetscCall(SameDevice("hecfill remrow against the build", Ed.remrow, E->remrow, E->nremslots, sizeof(PetscInt)));
    for (PetscInt i = 0; i < m; i++) PetscCheck(GPUPCHECEllLength(&He, i) == (A->i[i + 1] - A->i[i] <= E->K ? A->i[i + 1] - A->i[i] : -1), PETSC_COMM_SELF, PETSC_ERR_PLIB, "hecfill: host ellen of row %" PetscInt_FMT " is wrong", i);
    runs[GPUPC_FORMAT_KERNEL_hecfill]++;
    PetscCall(GPUPCFree(Ed.ellen));
    PetscCall(GPUPCFree(Ed.rembase));
    PetscCall(GPUPCFree(Ed.remstep));
    PetscCall(GPUPCFree(Ed.remrow));
    PetscCall(PetscFree(He.ellen));
    PetscCall(PetscFree3(He.rembase, He.remstep, He.remrow));
    PetscCall(GPUPCFree(drows));
    PetscCall(GPUPCFree(doff));
    PetscCall(PetscFree(off));
  }
  PetscCall(PetscFree(He.slabrows));
  PetscCall(PetscFree(rows));
  PetscCall(GPUPCFree(dv));
  PetscCall(PetscFree2(hv, hv2));
  PetscCall(PetscFree(Hd.segptr));
  PetscFunctionReturn(0);
}

/* y = A x from both builds, identical, and within rounding of the CSR product; A^T x and the diagonal likewise */
static PetscErrorCode SameProducts(const HostCSR *A, GPUPCDevMat X, GPUPCDevMat Y)
{
  PetscScalar *x, *ref, *dx, *yx, *yy, *hy;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(PetscMax(A->m, A->n), &x, A->m, &ref, PetscMax(A->m, A->n), &hy));
  for (PetscInt c = 0; c < PetscMax(A->m, A->n); c++) x[c] = 1.0 + 0.001 * (c % 17);
  for (PetscInt i = 0; i < A->m; i++) {
    ref[i] = 0;
    for (PetscInt k = A->i[i]; k < A->i[i + 1]; k++) ref[i] += A->a[k] * x[A->j[k]];
  }
  PetscCall(Up(x, PetscMax(A->m, A->n) * sizeof(PetscScalar), (void **)&dx));
  PetscCall(GPUPCMallocArray(PetscMax(1, PetscMax(A->m, A->n)), &yx));
  PetscCall(GPUPCMallocArray(PetscMax(1, PetscMax(A->m, A->n)), &yy));
  PetscCall(GPUPCDevMatMult(X, dx, NULL, yx));
  PetscCall(GPUPCDevMatMult(Y, dx, NULL, yy));
  PetscCall(SameDevice("y = A x", yx, yy, A->m, sizeof(PetscScalar)));
  if (A->m) PetscCall(GPUPCCopyToHost(hy, yx, A->m));
  for (PetscInt i = 0; i < A->m; i++) PetscCheck(PetscAbsScalar(hy[i] - ref[i]) <= 1e-12 * (1.0 + PetscAbsScalar(ref[i])) * (A->i[i + 1] - A->i[i] + 1), PETSC_COMM_SELF, PETSC_ERR_PLIB, "y = A x: row %" PetscInt_FMT " is %g, the CSR product %g", i, (double)PetscRealPart(hy[i]), (double)PetscRealPart(ref[i]));
  PetscCall(GPUPCDevMatGetDiagonal(X, yx));
  PetscCall(GPUPCDevMatGetDiagonal(Y, yy));
  PetscCall(SameDevice("diagonal", yx, yy, A->m, sizeof(PetscScalar)));
  PetscCall(GPUPCFree(dx));
  PetscCall(GPUPCFree(yx));
  PetscCall(GPUPCFree(yy));
  PetscCall(PetscFree3(x, ref, hy));
  PetscFunctionReturn(0);
}

/* format fmt (segcsr or hec) from host CSR and from device CSR; then new values from the host and from the device */
static PetscErrorCode CheckFormat(const HostCSR *A, GPUPCDevMatFormat f)
{
  const char  *fmt = GPUPCDevMatFormats[f];
  GPUPCCSR     h   = HostView(A);
  GPUPCDevMat  X, Y;
  PetscInt    *di, *dj;
  PetscScalar *da, *na;

  PetscFunctionBegin;
  PetscCall(UpCSR(A, &di, &dj, &da));
  PetscCall(GPUPCDevMatCreate(&h, 1, f, &X));
  PetscCall(GPUPCDevMatCreateFromDeviceCSR(A->m, A->n, A->nnz, di, dj, da, f, &Y));
  PetscCheck(!strcmp(X->ops->name, fmt) && !strcmp(Y->ops->name, fmt), PETSC_COMM_SELF, PETSC_ERR_PLIB, "asked for %s, got %s and %s", fmt, X->ops->name, Y->ops->name);
  PetscCheck(!Y->h_i && X->h_i, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: the build from device CSR keeps host row pointers (or the host build none)", fmt);
  PetscCall(SameBlocks(fmt, X, Y));
  PetscCall(SameProducts(A, X, Y));
  if (f == GPUPC_DEVMAT_SEGCSR) tiled += ((const GPUPCSegCSRDev *)Y->block)->shortmode == MAT_SEGCSR_SHORT_TILE;
  if (f == GPUPC_DEVMAT_SEGCSR) PetscCall(CheckSegCSRMember((const GPUPCSegCSRDev *)X->block, dj, A->j, A->nnz));
  else PetscCall(CheckHECMember((const GPUPCHECDev *)X->block, dj, A->j));
  /* new values: 2a - 1 from the host into X, from the device into Y */
  PetscCall(PetscMalloc1(A->nnz, &na));
  for (PetscInt k = 0; k < A->nnz; k++) na[k] = 2.0 * A->a[k] - 1.0;
  PetscCall(GPUPCFree(da));
  PetscCall(Up(na, A->nnz * sizeof(PetscScalar), (void **)&da));
  PetscCall(GPUPCDevMatUpdateValues(X, na, PETSC_FALSE));
  PetscCall(GPUPCDevMatUpdateValues(Y, da, PETSC_TRUE));
  PetscCall(SameBlocks(fmt, X, Y));
  /* then 1 - a from the host into both: Y, built from device CSR, holds no host row pointers (a device copy) */
  for (PetscInt k = 0; k < A->nnz; k++) na[k] = 1.0 - A->a[k];
  PetscCall(GPUPCDevMatUpdateValues(X, na, PETSC_FALSE));
  PetscCall(GPUPCDevMatUpdateValues(Y, na, PETSC_FALSE));
  PetscCall(SameBlocks(fmt, X, Y));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-9s %-6s m %4" PetscInt_FMT " n %4" PetscInt_FMT " nnz %5" PetscInt_FMT "%s: device build = host build, products and value updates agree\n", A->name, fmt, A->m, A->n, A->nnz,
                        f == GPUPC_DEVMAT_SEGCSR ? (((const GPUPCSegCSRDev *)X->block)->shortmode == MAT_SEGCSR_SHORT_TILE ? " (tile mode)" : " (group mode)") : ""));
  PetscCall(PetscFree(na));
  PetscCall(GPUPCDevMatDestroy(&X));
  PetscCall(GPUPCDevMatDestroy(&Y));
  PetscCall(FreeUp(di, dj, da));
  PetscFunctionReturn(0);
}

/* the structure members on the blocks of A built from host CSR, then both formats from host and device CSR */
static PetscErrorCode CheckMatrix(const HostCSR *A)
{
  GPUPCCSR    h = HostView(A);
  GPUPCDevMat S, H;

  PetscFunctionBegin;
  PetscCall(GPUPCDevMatCreate(&h, 1, GPUPC_DEVMAT_SEGCSR, &S));
  PetscCall(GPUPCDevMatCreate(&h, 1, GPUPC_DEVMAT_HEC, &H));
  PetscCall(CheckStructureMembers(A, (const GPUPCSegCSRDev *)S->block, (const GPUPCHECDev *)H->block));
  PetscCall(GPUPCDevMatDestroy(&S));
  PetscCall(GPUPCDevMatDestroy(&H));
  for (int f = GPUPC_DEVMAT_SEGCSR; f <= GPUPC_DEVMAT_HEC; f++) PetscCall(CheckFormat(A, (GPUPCDevMatFormat)f));
  PetscFunctionReturn(0);
}

/* a matrix of m x n with row i of len(i) entries at random columns, random values */
static PetscErrorCode MakeRows(PetscRandom r, const char *name, PetscInt m, PetscInt n, PetscInt (*len)(PetscInt, PetscReal), HostCSR *A)
{
  PetscReal u;

  PetscFunctionBegin;
  A->name = name;
  A->m    = m;
  A->n    = n;
  PetscCall(PetscMalloc1(m + 1, &A->i));
  A->i[0] = 0;
  for (PetscInt i = 0; i < m; i++) {
    PetscCall(PetscRandomGetValueReal(r, &u));
    A->i[i + 1] = A->i[i] + len(i, u);
  }
  PetscCall(FillEntries(r, A));
  PetscFunctionReturn(0);
}

/* 1 .. 6 entries: a warp of short rows waits for its longest, so segcsr's auto takes tile mode */
static PetscInt RaggedLen(PetscInt i, PetscReal u)
{
  return 1 + (PetscInt)(u * 6) % 6;
}

/* one row of 6000 entries (a segcsr long row, a hec block row), every third row empty, the others 2 */
static PetscInt OneLongLen(PetscInt i, PetscReal u)
{
  return i == 7 ? 6000 : (i % 3 == 0 ? 0 : 2);
}

static PetscInt OneRowLen(PetscInt i, PetscReal u)
{
  return 3;
}

/* ---------------------------------------------------------------- bcsr from device CSR */

/* a blocked matrix of mbr x nbc blocks of bs x bs: block row R touches block column C with probability pblock
   (every 5th block row none: empty block rows; block row 1 every block column: a long one), and inside a touched
   block each entry is stored with probability pfill (missing entries inside blocks); columns increasing in each
   row, random values away from zero */
static PetscErrorCode MakeBlocked(PetscRandom r, const char *name, PetscInt mbr, PetscInt nbc, PetscInt bs, PetscReal pblock, PetscReal pfill, HostCSR *A)
{
  PetscReal u;
  PetscInt *touch, k = 0, cap;

  PetscFunctionBegin;
  A->name = name;
  A->m    = mbr * bs;
  A->n    = nbc * bs;
  cap     = A->m * A->n;
  PetscCall(PetscMalloc1(A->m + 1, &A->i));
  PetscCall(PetscMalloc2(PetscMax(cap, 1), &A->j, PetscMax(cap, 1), &A->a));
  PetscCall(PetscMalloc1(PetscMax(nbc, 1), &touch));
  A->i[0] = 0;
  for (PetscInt R = 0; R < mbr; R++) {
    for (PetscInt C = 0; C < nbc; C++) {
      PetscCall(PetscRandomGetValueReal(r, &u));
      touch[C] = R % 5 == 3 ? 0 : (R == 1 || u < pblock);
    }
    for (PetscInt i = 0; i < bs; i++) {
      for (PetscInt C = 0; C < nbc; C++) {
        if (!touch[C]) continue;
        for (PetscInt c = 0; c < bs; c++) {
          PetscCall(PetscRandomGetValueReal(r, &u));
          if (u >= pfill) continue;
          PetscCall(PetscRandomGetValueReal(r, &u));
          A->j[k]   = C * bs + c;
          A->a[k++] = u < 0.5 ? u - 1.0 : u;
        }
      }
      A->i[R * bs + i + 1] = k;
    }
  }
  A->nnz = k;
  PetscCall(PetscFree(touch));
  PetscFunctionReturn(0);
}

/* elasticity-like: a g x g x g grid of nodes with bs unknowns each, every node coupled to its 27 neighbours by a
   bs x bs block; with holes, the entries (i, c) of the off-diagonal blocks with i + c odd are missing */
static PetscErrorCode MakeElastic(const char *name, PetscInt g, PetscInt bs, PetscBool holes, HostCSR *A)
{
  PetscInt k = 0;

  PetscFunctionBegin;
  A->name = name;
  A->m = A->n = g * g * g * bs;
  PetscCall(PetscMalloc1(A->m + 1, &A->i));
  PetscCall(PetscMalloc2(27 * bs * A->m, &A->j, 27 * bs * A->m, &A->a));
  A->i[0] = 0;
  for (PetscInt node = 0; node < g * g * g; node++) {
    const PetscInt x = node % g, y = (node / g) % g, z = node / (g * g);

    for (PetscInt i = 0; i < bs; i++) {
      for (PetscInt dz = -1; dz <= 1; dz++)
        for (PetscInt dy = -1; dy <= 1; dy++)
          for (PetscInt dx = -1; dx <= 1; dx++) {
            const PetscInt X = x + dx, Y = y + dy, Z = z + dz, nb = (Z * g + Y) * g + X;

            if (X < 0 || Y < 0 || Z < 0 || X >= g || Y >= g || Z >= g) continue;
            for (PetscInt c = 0; c < bs; c++) {
              if (holes && nb != node && (i + c) % 2) continue;
              A->j[k]   = nb * bs + c;
              A->a[k++] = nb == node ? (i == c ? 26.0 + 0.01 * node : 0.3) : -0.5 - 0.001 * (i + c) - 0.0001 * nb;
            }
          }
      A->i[node * bs + i + 1] = k;
    }
  }
  A->nnz = k;
  PetscFunctionReturn(0);
}

/* every array and statistic of two bcsr blocks built from the same matrix */
static PetscErrorCode SameBCSR(const char *what, GPUPCDevMat X, GPUPCDevMat Y)
{
  const GPUPCBCSRBlock *p = (const GPUPCBCSRBlock *)X->block, *q = (const GPUPCBCSRBlock *)Y->block;
  const GPUPCBCSRDev   *a = &p->d, *b = &q->d;

  PetscFunctionBegin;
  PetscCheck(a->m == b->m && a->n == b->n && a->b == b->b && a->mb == b->mb && a->nb == b->nb && a->S == b->S && a->lanes == b->lanes && a->nslices == b->nslices && a->nblocks == b->nblocks && a->nnz == b->nnz, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: bcsr layouts differ (%" PetscInt_FMT " and %" PetscInt_FMT " stored blocks)", what, a->nblocks, b->nblocks);
  PetscCheck(p->nreal == q->nreal && p->minlen == q->minlen && p->maxlen == q->maxlen && p->sorted == q->sorted && p->mapping == q->mapping, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: bcsr statistics differ: %" PetscInt_FMT " vs %" PetscInt_FMT " blocks, lengths %" PetscInt_FMT "..%" PetscInt_FMT " vs %" PetscInt_FMT "..%" PetscInt_FMT, what, p->nreal, q->nreal, p->minlen, p->maxlen, q->minlen, q->maxlen);
  PetscCall(SAME("bcsr sliceptr", a->sliceptr, b->sliceptr, a->nslices + 1));
  PetscCall(SAME("bcsr blkrow", a->blkrow, b->blkrow, a->nslices * a->S));
  PetscCall(SAME("bcsr rowpos", a->rowpos, b->rowpos, a->mb));
  PetscCall(SAME("bcsr bcol", a->bcol, b->bcol, a->nblocks));
  PetscCall(SAME("bcsr pos", a->pos, b->pos, a->nnz));
  PetscCall(SAME("bcsr val", a->val, b->val, a->nblocks * a->b * a->b));
  PetscFunctionReturn(0);
}

/* the bcsr members for A with block size bs, the active table on device arrays against the host table on host arrays
   and against a plain count of A's blocks; bcsrslices and bcsrfill take their inputs from X, the block built from host
   CSR, and must reproduce its arrays */
static PetscErrorCode CheckBCSRMembers(const HostCSR *A, PetscInt bs, const PetscInt *di, const PetscInt *dj, const GPUPCBCSRBlock *X)
{
  const GPUPCFormatKernels *act, *host;
  const PetscInt            mb = A->m / bs, nb = A->n / bs;
  const GPUPCBCSRDev       *D  = &X->d;
  GPUPCBCSRDev              Dd = *D, Hd = *D;
  PetscInt                 *hcnt, *hptr, *hbc, *mark, *dcnt, *dptr, *dbc, *dord, *dwidth, *hwidth, total = 0;
  PetscInt64                ast[2], hst[2];

  PetscFunctionBegin;
  PetscCall(GPUPCGetFormatKernels(&act));
  PetscCall(GPUPCGetFormatKernelsFor(PETSC_GPUPC_BACKEND_HOST, &host));
  /* bcsrcount */
  PetscCall(PetscMalloc3(PetscMax(mb, 1), &hcnt, mb + 1, &hptr, PetscMax(nb, 1), &mark));
  PetscCall(GPUPCMallocArray(PetscMax(mb, 1), &dcnt));
  PetscCall(act->bcsrcount(mb, bs, A->n, di, dj, dcnt, ast));
  PetscCall(host->bcsrcount(mb, bs, A->n, A->i, A->j, hcnt, hst));
  PetscCheck(ast[0] == hst[0] && ast[1] == hst[1] && hst[1] == -1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "bcsrcount: %s sums %" PetscInt64_FMT " %" PetscInt64_FMT ", host %" PetscInt64_FMT " %" PetscInt64_FMT, act->name, ast[0], ast[1], hst[0], hst[1]);
  PetscCall(SameInts("bcsrcount", act->name, dcnt, hcnt, mb));
  for (PetscInt J = 0; J < nb; J++) mark[J] = -1;
  hptr[0] = 0;
  for (PetscInt R = 0; R < mb; R++) {
    PetscInt c = 0;

    for (PetscInt k = A->i[R * bs]; k < A->i[R * bs + bs]; k++)
      if (mark[A->j[k] / bs] != R) mark[A->j[k] / bs] = R, c++;
    PetscCheck(c == hcnt[R], PETSC_COMM_SELF, PETSC_ERR_PLIB, "bcsrcount: block row %" PetscInt_FMT " touches %" PetscInt_FMT " blocks, counted %" PetscInt_FMT, R, c, hcnt[R]);
    hptr[R + 1] = hptr[R] + c;
    total += c;
  }
  PetscCheck(total == X->nreal && total == hst[0], PETSC_COMM_SELF, PETSC_ERR_PLIB, "bcsrcount: %" PetscInt_FMT " blocks, the build has %" PetscInt_FMT, total, X->nreal);
  runs[GPUPC_FORMAT_KERNEL_bcsrcount]++;
  /* bcsrcolumns: increasing, each touched */
  PetscCall(PetscMalloc1(PetscMax(total, 1), &hbc));
  PetscCall(Up(hptr, (mb + 1) * sizeof(PetscInt), (void **)&dptr));
  PetscCall(GPUPCMallocArray(PetscMax(total, 1), &dbc));
  PetscCall(act->bcsrcolumns(mb, bs, di, dj, dptr, dbc));
  PetscCall(host->bcsrcolumns(mb, bs, A->i, A->j, hptr, hbc));
  PetscCall(SameInts("bcsrcolumns", act->name, dbc, hbc, total));
  for (PetscInt R = 0; R < mb; R++) { /* as many listed as touched (bcsrcount), each touched, increasing */
    for (PetscInt k = A->i[R * bs]; k < A->i[R * bs + bs]; k++) mark[A->j[k] / bs] = R;
    for (PetscInt t = hptr[R]; t < hptr[R + 1]; t++) PetscCheck(mark[hbc[t]] == R && (t == hptr[R] || hbc[t] > hbc[t - 1]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "bcsrcolumns: block row %" PetscInt_FMT " lists block column %" PetscInt_FMT " wrongly", R, hbc[t]);
  }
  runs[GPUPC_FORMAT_KERNEL_bcsrcolumns]++;
  /* bcsrslices with the build's order (the first mb entries of its blkrow), into fresh blkrow and rowpos */
  {
    PetscInt *order, *hsl;

    PetscCall(Down(D->blkrow, D->nslices * D->S * sizeof(PetscInt), (void **)&order));
    PetscCall(Down(D->sliceptr, (D->nslices + 1) * sizeof(PetscInt), (void **)&hsl));
    PetscCall(Up(order, mb * sizeof(PetscInt), (void **)&dord));
    PetscCall(PetscMalloc3(D->nslices * D->S + 1, &Hd.blkrow, mb + 1, &Hd.rowpos, D->nslices + 1, &hwidth));
    PetscCall(GPUPCMallocArray(D->nslices * D->S, &Dd.blkrow));
    PetscCall(GPUPCMallocArray(mb, &Dd.rowpos));
    PetscCall(GPUPCMallocArray(D->nslices, &dwidth));
    PetscCall(act->bcsrslices(&Dd, dord, dptr, dwidth));
    PetscCall(host->bcsrslices(&Hd, order, hptr, hwidth));
    PetscCall(SameInts("bcsrslices blkrow", act->name, Dd.blkrow, Hd.blkrow, D->nslices * D->S));
    PetscCall(SameInts("bcsrslices rowpos", act->name, Dd.rowpos, Hd.rowpos, mb));
    PetscCall(SameInts("bcsrslices width", act->name, dwidth, hwidth, D->nslices));
    PetscCall(SameDevice("bcsrslices blkrow against the build", Dd.blkrow, D->blkrow, D->nslices * D->S, sizeof(PetscInt)));
    PetscCall(SameDevice("bcsrslices rowpos against the build", Dd.rowpos, D->rowpos, mb, sizeof(PetscInt)));
    for (PetscInt s = 0; s < D->nslices; s++) PetscCheck(hwidth[s] == hsl[s + 1] - hsl[s], PETSC_COMM_SELF, PETSC_ERR_PLIB, "bcsrslices: slice %" PetscInt_FMT " is %" PetscInt_FMT " blocks wide, the build %" PetscInt_FMT, s, hwidth[s], hsl[s + 1] - hsl[s]);
    runs[GPUPC_FORMAT_KERNEL_bcsrslices]++;
    PetscCall(GPUPCFree(Dd.blkrow));
    PetscCall(GPUPCFree(Dd.rowpos));
    PetscCall(PetscFree3(Hd.blkrow, Hd.rowpos, hwidth));
    /* bcsrfill on the build's slices into fresh bcol and pos */
    Hd.sliceptr = hsl;
    Hd.blkrow   = order;
    PetscCall(Down(D->rowpos, mb * sizeof(PetscInt), (void **)&Hd.rowpos));
    Dd.blkrow = D->blkrow;
    Dd.rowpos = D->rowpos;
    PetscCall(PetscMalloc2(D->nblocks + 1, &Hd.bcol, A->nnz + 1, &Hd.pos));
    PetscCall(GPUPCMallocArray(D->nblocks, &Dd.bcol));
    PetscCall(GPUPCMallocArray(A->nnz, &Dd.pos));
    PetscCall(act->bcsrfill(&Dd, di, dj, dptr, dbc));
    PetscCall(host->bcsrfill(&Hd, A->i, A->j, hptr, hbc));
    PetscCall(SameInts("bcsrfill bcol", act->name, Dd.bcol, Hd.bcol, D->nblocks));
    PetscCall(SameInts("bcsrfill pos", act->name, Dd.pos, Hd.pos, A->nnz));
    PetscCall(SameDevice("bcsrfill bcol against the build", Dd.bcol, D->bcol, D->nblocks, sizeof(PetscInt)));
    PetscCall(SameDevice("bcsrfill pos against the build", Dd.pos, D->pos, A->nnz, sizeof(PetscInt)));
    runs[GPUPC_FORMAT_KERNEL_bcsrfill]++;
    PetscCall(GPUPCFree(Dd.bcol));
    PetscCall(GPUPCFree(Dd.pos));
    PetscCall(PetscFree2(Hd.bcol, Hd.pos));
    PetscCall(PetscFree(Hd.rowpos));
    PetscCall(PetscFree(hsl));
    PetscCall(PetscFree(order));
  }
  PetscCall(GPUPCFree(dord));
  PetscCall(GPUPCFree(dwidth));
  PetscCall(GPUPCFree(dptr));
  PetscCall(GPUPCFree(dbc));
  PetscCall(GPUPCFree(dcnt));
  PetscCall(PetscFree(hbc));
  PetscCall(PetscFree3(hcnt, hptr, mark));
  PetscFunctionReturn(0);
}

/* bcsr of A with block size bs from host CSR (X), from device CSR with the row pointers on the device (Y) and on the
   host (Z): the same block array by array, the same products; then new values from the host and from the device */
static PetscErrorCode CheckBCSR(const HostCSR *A, PetscInt bs)
{
  GPUPCCSR     h = HostView(A), d = HostView(A);
  GPUPCDevMat  X, Y, Z;
  PetscInt    *di, *dj;
  PetscScalar *da, *na;

  PetscFunctionBegin;
  PetscCall(UpCSR(A, &di, &dj, &da));
  PetscCall(GPUPCDevMatCreate(&h, bs, GPUPC_DEVMAT_BCSR, &X));
  PetscCall(GPUPCDevMatCreateFromDeviceCSRBlocked(A->m, A->n, A->nnz, di, dj, da, bs, GPUPC_DEVMAT_BCSR, &Y));
  d.j      = dj;
  d.a      = da;
  d.device = PETSC_TRUE;
  PetscCall(GPUPCDevMatCreate(&d, bs, GPUPC_DEVMAT_BCSR, &Z));
  PetscCheck(!strcmp(X->ops->name, "bcsr") && !strcmp(Y->ops->name, "bcsr") && !strcmp(Z->ops->name, "bcsr"), PETSC_COMM_SELF, PETSC_ERR_PLIB, "asked for bcsr, got %s, %s and %s", X->ops->name, Y->ops->name, Z->ops->name);
  PetscCheck(X->h_i && !Y->h_i && Z->h_i, PETSC_COMM_SELF, PETSC_ERR_PLIB, "bcsr: host row pointers kept wrongly");
  PetscCheck(((const GPUPCBCSRBlock *)Y->block)->d.b == bs, PETSC_COMM_SELF, PETSC_ERR_PLIB, "bcsr from device CSR: block size %" PetscInt_FMT ", asked for %" PetscInt_FMT, ((const GPUPCBCSRBlock *)Y->block)->d.b, bs);
  PetscCall(SameBCSR("row pointers on the device", X, Y));
  PetscCall(SameBCSR("row pointers on the host", X, Z));
  PetscCall(SameProducts(A, X, Y));
  PetscCall(CheckBCSRMembers(A, bs, di, dj, (const GPUPCBCSRBlock *)X->block));
  /* new values: 2a - 1 from the host into X, from the device into Y and Z */
  PetscCall(PetscMalloc1(A->nnz + 1, &na));
  for (PetscInt k = 0; k < A->nnz; k++) na[k] = 2.0 * A->a[k] - 1.0;
  PetscCall(GPUPCFree(da));
  PetscCall(Up(na, A->nnz * sizeof(PetscScalar), (void **)&da));
  PetscCall(GPUPCDevMatUpdateValues(X, na, PETSC_FALSE));
  PetscCall(GPUPCDevMatUpdateValues(Y, da, PETSC_TRUE));
  PetscCall(GPUPCDevMatUpdateValues(Z, da, PETSC_TRUE));
  PetscCall(SameBCSR("device value update", X, Y));
  PetscCall(SameBCSR("device value update, host rows", X, Z));
  /* then 1 - a from the host into X and Y (Y holds no host row pointers: a device copy) */
  for (PetscInt k = 0; k < A->nnz; k++) na[k] = 1.0 - A->a[k];
  PetscCall(GPUPCDevMatUpdateValues(X, na, PETSC_FALSE));
  PetscCall(GPUPCDevMatUpdateValues(Y, na, PETSC_FALSE));
  PetscCall(SameBCSR("host value update", X, Y));
  {
    const GPUPCBCSRBlock *b = (const GPUPCBCSRBlock *)X->block;

    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-10s bcsr bs %" PetscInt_FMT " m %4" PetscInt_FMT " n %4" PetscInt_FMT " nnz %6" PetscInt_FMT ": %" PetscInt_FMT " blocks (%" PetscInt_FMT " stored) in %" PetscInt_FMT " slices, block rows of %" PetscInt_FMT "..%" PetscInt_FMT ": device build = host build, products and value updates agree\n", A->name, bs, A->m, A->n, A->nnz, b->nreal, b->d.nblocks, b->d.nslices, b->minlen, b->maxlen));
  }
  PetscCall(PetscFree(na));
  PetscCall(GPUPCDevMatDestroy(&X));
  PetscCall(GPUPCDevMatDestroy(&Y));
  PetscCall(GPUPCDevMatDestroy(&Z));
  PetscCall(FreeUp(di, dj, da));
  PetscFunctionReturn(0);
}

/* bad input to bcsr from device CSR: a row whose columns are not increasing (PETSC_ERR_ARG_WRONG; auto then does not
   take bcsr), sizes that are not multiples of the block size (PETSC_ERR_ARG_SIZ); nothing leaked */
static PetscErrorCode CheckBCSRBadInput(const HostCSR *A, PetscInt bs)
{
  PetscInt      *di, *dj, *j, row = -1;
  PetscScalar   *da;
  GPUPCDevMat    Y = NULL;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(A->nnz, &j));
  PetscCall(PetscArraycpy(j, A->j, A->nnz));
  for (PetscInt i = 0; i < A->m && row < 0; i++)
    if (A->i[i + 1] - A->i[i] >= 2) {
      row            = i;
      j[A->i[i]]     = A->j[A->i[i] + 1];
      j[A->i[i] + 1] = A->j[A->i[i]];
    }
  PetscCheck(row >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "no row of two entries to swap");
  PetscCall(Up(A->i, (A->m + 1) * sizeof(PetscInt), (void **)&di));
  PetscCall(Up(j, A->nnz * sizeof(PetscInt), (void **)&dj));
  PetscCall(Up(A->a, A->nnz * sizeof(PetscScalar), (void **)&da));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = GPUPCDevMatCreateFromDeviceCSRBlocked(A->m, A->n, A->nnz, di, dj, da, bs, GPUPC_DEVMAT_BCSR, &Y);
  PetscCall(PetscPopErrorHandler());
  PetscCheck(ierr == PETSC_ERR_ARG_WRONG, PETSC_COMM_SELF, PETSC_ERR_PLIB, "bcsr from device CSR with row %" PetscInt_FMT " unsorted gave error %d, expected PETSC_ERR_ARG_WRONG", row, (int)ierr);
  PetscCall(GPUPCDevMatDestroy(&Y));
  PetscCall(GPUPCDevMatCreateFromDeviceCSRBlocked(A->m, A->n, A->nnz, di, dj, da, bs, GPUPC_DEVMAT_AUTO, &Y));
  PetscCheck(strcmp(Y->ops->name, "bcsr") && strstr(Y->reason, "not sorted"), PETSC_COMM_SELF, PETSC_ERR_PLIB, "auto with an unsorted row chose %s (%s)", Y->ops->name, Y->reason);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "bcsr from device CSR, row %" PetscInt_FMT " unsorted: refused (PETSC_ERR_ARG_WRONG); auto: %s (%s)\n", row, Y->ops->name, Y->reason));
  PetscCall(GPUPCDevMatDestroy(&Y));
  {
    PetscInt bad = 2; /* a block size that does not divide the rows */

    while (bad < GPUPC_BCSR_MAXB && A->m % bad == 0) bad++;
    PetscCheck(A->m % bad, PETSC_COMM_SELF, PETSC_ERR_PLIB, "every block size up to %d divides %" PetscInt_FMT, GPUPC_BCSR_MAXB, A->m);
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = GPUPCDevMatCreateFromDeviceCSRBlocked(A->m, A->n, A->nnz, di, dj, da, bad, GPUPC_DEVMAT_BCSR, &Y);
    PetscCall(PetscPopErrorHandler());
    PetscCheck(ierr == PETSC_ERR_ARG_SIZ, PETSC_COMM_SELF, PETSC_ERR_PLIB, "bcsr from device CSR of %" PetscInt_FMT " rows with block size %" PetscInt_FMT " gave error %d, expected PETSC_ERR_ARG_SIZ", A->m, bad, (int)ierr);
    PetscCall(GPUPCDevMatDestroy(&Y));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "bcsr from device CSR of %" PetscInt_FMT " rows, block size %" PetscInt_FMT ": refused (PETSC_ERR_ARG_SIZ)\n", A->m, bad));
  }
  PetscCall(FreeUp(di, dj, da));
  PetscCall(PetscFree(j));
  PetscFunctionReturn(0);
}

/* auto from device CSR with block size bs (the longest row, and the block fill for bs > 1, found on the device) chooses
   fmt, as from host CSR */
static PetscErrorCode CheckAutoDevice(const HostCSR *A, PetscInt bs, const char *fmt)
{
  PetscInt    *di, *dj;
  PetscScalar *da;
  GPUPCDevMat  Y;

  PetscFunctionBegin;
  PetscCall(UpCSR(A, &di, &dj, &da));
  PetscCall(GPUPCDevMatCreateFromDeviceCSRBlocked(A->m, A->n, A->nnz, di, dj, da, bs, GPUPC_DEVMAT_AUTO, &Y));
  PetscCheck(!strcmp(Y->ops->name, fmt), PETSC_COMM_SELF, PETSC_ERR_PLIB, "auto on %s from device CSR chose %s (%s), expected %s", A->name, Y->ops->name, Y->reason, fmt);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "auto %s bs %" PetscInt_FMT " from device CSR: %s (%s)\n", A->name, bs, Y->ops->name, Y->reason));
  if (bs > 1) { /* the same choice and reason as from host CSR */
    GPUPCCSR    h = HostView(A);
    GPUPCDevMat X;

    PetscCall(GPUPCDevMatCreate(&h, bs, GPUPC_DEVMAT_AUTO, &X));
    PetscCheck(!strcmp(X->ops->name, fmt) && !strcmp(X->reason, Y->reason), PETSC_COMM_SELF, PETSC_ERR_PLIB, "auto on %s: from host CSR %s (%s), from device CSR %s (%s)", A->name, X->ops->name, X->reason, Y->ops->name, Y->reason);
    PetscCall(GPUPCDevMatDestroy(&X));
  }
  PetscCall(GPUPCDevMatDestroy(&Y));
  PetscCall(FreeUp(di, dj, da));
  PetscFunctionReturn(0);
}

/* auto: hec for a Laplacian of 512^2 rows, segcsr for a small one (too few rows for a thread each) and for the
   irregular rows, bcsr for a SEQAIJ of full 3 x 3 blocks */
static PetscErrorCode CheckAuto(const HostCSR *lap, const HostCSR *irr)
{
  GPUPCCSR    h;
  GPUPCDevMat X;
  Mat         B;
  HostCSR     big;

  PetscFunctionBegin;
  PetscCall(MakeLaplace(512, &big));
  h = HostView(&big);
  PetscCall(GPUPCDevMatCreate(&h, 1, GPUPC_DEVMAT_AUTO, &X));
  PetscCheck(!strcmp(X->ops->name, "hec"), PETSC_COMM_SELF, PETSC_ERR_PLIB, "auto on the Laplacian of 512^2 rows chose %s (%s), expected hec", X->ops->name, X->reason);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "auto laplace2d 512^2: %s (%s)\n", X->ops->name, X->reason));
  PetscCall(GPUPCDevMatDestroy(&X));
  PetscCall(CheckAutoDevice(&big, 1, "hec"));
  PetscCall(FreeCSR(&big));
  h = HostView(lap);
  PetscCall(GPUPCDevMatCreate(&h, 1, GPUPC_DEVMAT_AUTO, &X));
  PetscCheck(!strcmp(X->ops->name, "segcsr"), PETSC_COMM_SELF, PETSC_ERR_PLIB, "auto on the small Laplacian chose %s (%s), expected segcsr", X->ops->name, X->reason);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "auto laplace2d: %s (%s)\n", X->ops->name, X->reason));
  PetscCall(GPUPCDevMatDestroy(&X));
  PetscCall(CheckAutoDevice(lap, 1, "segcsr"));
  PetscCall(CheckAutoDevice(irr, 1, "segcsr"));
  h = HostView(irr);
  PetscCall(GPUPCDevMatCreate(&h, 1, GPUPC_DEVMAT_AUTO, &X));
  PetscCheck(!strcmp(X->ops->name, "segcsr"), PETSC_COMM_SELF, PETSC_ERR_PLIB, "auto on the irregular rows chose %s (%s), expected segcsr", X->ops->name, X->reason);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "auto irregular: %s (%s)\n", X->ops->name, X->reason));
  PetscCall(GPUPCDevMatDestroy(&X));
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 60, 60, 9, NULL, &B));
  PetscCall(MatSetBlockSize(B, 3));
  for (PetscInt b = 0; b < 20; b++) {
    for (PetscInt c = b - 1; c <= b + 1; c++) {
      if (c < 0 || c >= 20) continue;
      for (PetscInt r = 0; r < 3; r++)
        for (PetscInt s = 0; s < 3; s++) PetscCall(MatSetValue(B, 3 * b + r, 3 * c + s, b == c ? (r == s ? 10.0 : 0.5) : -1.0, INSERT_VALUES));
    }
  }
  PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  PetscCall(GPUPCDevMatCreateFromSeqAIJ(B, GPUPC_DEVMAT_AUTO, &X));
  PetscCheck(!strcmp(X->ops->name, "bcsr"), PETSC_COMM_SELF, PETSC_ERR_PLIB, "auto on full 3 x 3 blocks chose %s (%s), expected bcsr", X->ops->name, X->reason);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "auto blocks3: %s (%s)\n", X->ops->name, X->reason));
  PetscCall(GPUPCDevMatView(X, "blocks3", PETSC_VIEWER_STDOUT_SELF));
  PetscCall(GPUPCDevMatDestroy(&X));
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscRandom r;
  HostCSR     irr, lap, rect, none, ragged, onelong, onerow, norows, blk[6];

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &r));
  PetscCall(PetscRandomSetFromOptions(r));
  PetscCall(MakeIrregular(r, 900, 2000, &irr));
  PetscCall(MakeLaplace(24, &lap));
  PetscCall(MakeIrregular(r, 300, 120, &rect));
  rect.name = "rectangle";
  PetscCall(MakeIrregular(r, 30, 30, &none));
  none.name = "noentries";
  none.nnz  = 0;
  for (PetscInt i = 0; i <= none.m; i++) none.i[i] = 0;
  PetscCall(MakeRows(r, "ragged", 3000, 3000, RaggedLen, &ragged));
  PetscCall(MakeRows(r, "onelong", 40, 8000, OneLongLen, &onelong));
  PetscCall(MakeRows(r, "onerow", 1, 5, OneRowLen, &onerow));
  PetscCall(MakeRows(r, "norows", 0, 0, OneRowLen, &norows));
  PetscCall(CheckMatrix(&irr));
  PetscCall(CheckMatrix(&lap));
  PetscCall(CheckMatrix(&rect));
  PetscCall(CheckMatrix(&none));
  PetscCall(CheckMatrix(&ragged));
  PetscCall(CheckMatrix(&onelong));
  PetscCall(CheckMatrix(&onerow));
  PetscCall(CheckMatrix(&norows));
  /* bcsr: random blocks (bs 1, 2, 3 rectangular, 6; missing entries inside blocks, empty block rows, one long block
     row), elasticity-like stencils (full 3 x 3 blocks; 6 x 6 with holes), no entries, no rows */
  PetscCall(MakeBlocked(r, "blocked1", 200, 200, 1, 0.03, 1.0, &blk[0]));
  PetscCall(MakeBlocked(r, "blocked2", 120, 120, 2, 0.05, 0.7, &blk[1]));
  PetscCall(MakeBlocked(r, "blocked3", 100, 80, 3, 0.06, 0.6, &blk[2]));
  PetscCall(MakeBlocked(r, "blocked6", 60, 60, 6, 0.1, 0.5, &blk[3]));
  PetscCall(MakeElastic("elastic3", 6, 3, PETSC_FALSE, &blk[4]));
  PetscCall(MakeElastic("elastic6", 4, 6, PETSC_TRUE, &blk[5]));
  PetscCall(CheckBCSR(&blk[0], 1));
  PetscCall(CheckBCSR(&blk[1], 2));
  PetscCall(CheckBCSR(&blk[2], 3));
  PetscCall(CheckBCSR(&blk[3], 6));
  PetscCall(CheckBCSR(&blk[4], 3));
  PetscCall(CheckBCSR(&blk[5], 6));
  PetscCall(CheckBCSR(&blk[4], 1));
  PetscCall(CheckBCSR(&lap, 2));
  PetscCall(CheckBCSR(&none, 3));
  PetscCall(CheckBCSR(&norows, 2));
  PetscCall(CheckBCSRBadInput(&blk[4], 3));
  PetscCall(CheckAutoDevice(&blk[4], 3, "bcsr"));
  PetscCall(CheckAutoDevice(&blk[5], 6, "segcsr"));
  PetscCall(CheckAutoDevice(&blk[2], 3, "segcsr"));
  PetscCall(CheckAuto(&lap, &irr));
  PetscCheck(tiled > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "no segcsr block in tile mode: the ragged matrix should make one");
  for (PetscInt k = 0; k < GPUPC_FORMAT_NKERNELS; k++) PetscCheck(runs[k] > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "format kernel %s has no case", GPUPCFormatKernelNames[k]);
  PetscCall(FreeCSR(&irr));
  PetscCall(FreeCSR(&lap));
  PetscCall(FreeCSR(&rect));
  PetscCall(FreeCSR(&none));
  PetscCall(FreeCSR(&ragged));
  PetscCall(FreeCSR(&onelong));
  PetscCall(FreeCSR(&onerow));
  PetscCall(FreeCSR(&norows));
  for (PetscInt b = 0; b < 6; b++) PetscCall(FreeCSR(&blk[b]));
  PetscCall(PetscRandomDestroy(&r));
  PetscCall(PetscFinalize());
  return 0;
}

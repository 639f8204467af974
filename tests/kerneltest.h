/*
   Helpers of the kernel tests (segcsr_kernels, kernel_equiv).

   Two "worlds" of buffers: the device world (GPUPCMalloc: device memory on the cuda backend, a
   separate host allocation on the host backend), where the active backend's kernels run, and the
   host world (PetscMalloc), where the host kernel table runs beside the CUDA one on the cuda
   backend. The same inputs are copied into both and the results copied back to compare.

   The segmented-CSR layout of a CSR matrix (gpupc/segcsrkernels.h), built here independently of
   the library's build code: every row gets ceil(len / L) segments (at least one), rows are put in
   the short, medium and long bins, and TestSegCSRTile cuts the rows into tiles for tile mode.
*/
#ifndef KERNELTEST_H
#define KERNELTEST_H

#include <gpupc/segcsrkernels.h>

/* ---------------------------------------------------------------- the two worlds */
static inline PetscErrorCode TestMalloc(PetscBool device, size_t bytes, void **p)
{
  PetscFunctionBegin;
  *p = NULL;
  if (!bytes) PetscFunctionReturn(0);
  if (device) PetscCall(GPUPCMalloc(bytes, p));
  else PetscCall(PetscMalloc(bytes, p));
  PetscFunctionReturn(0);
}

static inline PetscErrorCode TestFree(PetscBool device, void *p)
{
  PetscFunctionBegin;
  if (!p) PetscFunctionReturn(0);
  if (device) PetscCall(GPUPCFree(p));
  else PetscCall(PetscFree(p));
  PetscFunctionReturn(0);
}

/* host array src into the world's buffer dst */
static inline PetscErrorCode TestPut(PetscBool device, void *dst, const void *src, size_t bytes)
{
  PetscFunctionBegin;
  if (!bytes) PetscFunctionReturn(0);
  if (device) PetscCall(GPUPCMemcpy(dst, src, bytes, GPUPC_COPY_HOST_TO_DEVICE));
  else PetscCall(PetscMemcpy(dst, src, bytes));
  PetscFunctionReturn(0);
}

/* the world's buffer src into host array dst */
static inline PetscErrorCode TestGet(PetscBool device, void *dst, const void *src, size_t bytes)
{
  PetscFunctionBegin;
  if (!bytes) PetscFunctionReturn(0);
  if (device) PetscCall(GPUPCMemcpy(dst, src, bytes, GPUPC_COPY_DEVICE_TO_HOST));
  else PetscCall(PetscMemcpy(dst, src, bytes));
  PetscFunctionReturn(0);
}

/* a new world buffer holding a copy of host array src (NULL when bytes is 0) */
static inline PetscErrorCode TestDup(PetscBool device, const void *src, size_t bytes, void **dst)
{
  PetscFunctionBegin;
  PetscCall(TestMalloc(device, bytes, dst));
  PetscCall(TestPut(device, *dst, src, bytes));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- segmented CSR layout */
typedef struct {
  PetscInt     m, n, *i, *j;
  PetscScalar *a;
} TestCSR;

/* host arrays of the segmented layout for segment length L */
static inline PetscErrorCode TestSegCSRLayout(const TestCSR *c, PetscInt L, GPUPCSegCSRDev *h)
{
  PetscInt nseg = 0, nmed = 0, nlong = 0;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(h, sizeof(*h))); /* group mode, no tiles */
  h->shortmode = MAT_SEGCSR_SHORT_GROUP;
  h->m         = c->m;
  h->n         = c->n;
  h->L         = L;
  h->nnz       = c->i[c->m];
  PetscCall(PetscMalloc2(c->m + 1, &h->segptr, c->m + 1, &h->rowptr));
  PetscCall(PetscArraycpy(h->rowptr, c->i, c->m + 1));
  for (PetscInt r = 0; r < c->m; r++) {
    PetscInt len = c->i[r + 1] - c->i[r], s = PetscMax(1, (len + L - 1) / L);
    h->segptr[r] = nseg;
    nseg += s;
  }
  h->segptr[c->m] = nseg;
  h->nseg         = nseg;
  h->shortmax     = GPUPCSegCSRShortMax(nseg, c->m, L);
  for (PetscInt r = 0; r < c->m; r++) {
    GPUPCSegCSRBin bin = GPUPCSegCSRRowBin(h->segptr[r + 1] - h->segptr[r], L, h->shortmax);
    nmed += bin == GPUPC_SEGCSR_BIN_MEDIUM;
    nlong += bin == GPUPC_SEGCSR_BIN_LONG;
  }
  h->nmed  = nmed;
  h->nlong = nlong;
  PetscCall(PetscMalloc5(nseg, &h->segrow, nseg * L, &h->col, nseg * L, &h->val, nmed, &h->medrows, nlong, &h->longrows));
  nmed = nlong = 0;
  for (PetscInt r = 0; r < c->m; r++) {
    PetscInt       len = c->i[r + 1] - c->i[r], k0 = h->segptr[r] * L, k1 = h->segptr[r + 1] * L;
    GPUPCSegCSRBin bin = GPUPCSegCSRRowBin(h->segptr[r + 1] - h->segptr[r], L, h->shortmax);
    for (PetscInt g = h->segptr[r]; g < h->segptr[r + 1]; g++) h->segrow[g] = r;
    for (PetscInt k = k0; k < k1; k++) {
      PetscInt q = k - k0;
      h->col[k]  = q < len ? c->j[c->i[r] + q] : (len ? c->j[c->i[r]] : 0);
      h->val[k]  = q < len ? c->a[c->i[r] + q] : 0.0;
    }
    if (bin == GPUPC_SEGCSR_BIN_MEDIUM) h->medrows[nmed++] = r;
    if (bin == GPUPC_SEGCSR_BIN_LONG) h->longrows[nlong++] = r; /* any order is valid */
  }
  PetscFunctionReturn(0);
}

/* tile mode on host layout h: tiles of consecutive rows that are not long (short and medium)
   with at most cap segments each (cap <= GPUPC_SEGCSR_TILE_SLOTS / L; a row longer than cap gets
   a tile of its own), a long row ends a tile; the medium rows lose their warps (nmed = 0) */
static inline PetscErrorCode TestSegCSRTile(GPUPCSegCSRDev *h, PetscInt cap)
{
  PetscInt nt = 0;

  PetscFunctionBegin;
  PetscCall(PetscFree2(h->tileptr, h->tileend));
  PetscCall(PetscMalloc2(h->m + 1, &h->tileptr, PetscMax(h->m, 1), &h->tileend)); /* at most one tile per row */
  for (PetscInt r = 0; r < h->m;) {
    PetscInt segs = 0, r1 = r;
    if (GPUPCSegCSRRowBin(h->segptr[r + 1] - h->segptr[r], h->L, h->shortmax) == GPUPC_SEGCSR_BIN_LONG) {
      r++;
      continue;
    }
    while (r1 < h->m && GPUPCSegCSRRowBin(h->segptr[r1 + 1] - h->segptr[r1], h->L, h->shortmax) != GPUPC_SEGCSR_BIN_LONG && (r1 == r || segs + h->segptr[r1 + 1] - h->segptr[r1] <= cap)) segs += h->segptr[r1 + 1] - h->segptr[r1], r1++;
    h->tileptr[nt]   = r;
    h->tileend[nt++] = r1;
    r                = r1;
  }
  h->tileptr[nt] = h->m;
  h->ntiles      = nt;
  h->nmed        = 0;
  h->shortmode   = MAT_SEGCSR_SHORT_TILE;
  PetscFunctionReturn(0);
}

static inline PetscErrorCode TestSegCSRFreeLayout(GPUPCSegCSRDev *h)
{
  PetscFunctionBegin;
  PetscCall(PetscFree2(h->segptr, h->rowptr));
  PetscCall(PetscFree5(h->segrow, h->col, h->val, h->medrows, h->longrows));
  PetscCall(PetscFree2(h->tileptr, h->tileend));
  PetscFunctionReturn(0);
}

/* a copy of layout h in the device world (device true: GPUPCMalloc buffers) or the host world (PetscMalloc) */
static inline PetscErrorCode TestSegCSRUpload(const GPUPCSegCSRDev *h, PetscBool device, GPUPCSegCSRDev *d)
{
  size_t ns = (size_t)h->nseg * h->L;

  PetscFunctionBegin;
  *d = *h;
  PetscCall(TestDup(device, h->segptr, (h->m + 1) * sizeof(PetscInt), (void **)&d->segptr));
  PetscCall(TestDup(device, h->rowptr, (h->m + 1) * sizeof(PetscInt), (void **)&d->rowptr));
  PetscCall(TestDup(device, h->segrow, h->nseg * sizeof(PetscInt), (void **)&d->segrow));
  PetscCall(TestDup(device, h->col, ns * sizeof(PetscInt), (void **)&d->col));
  PetscCall(TestDup(device, h->val, ns * sizeof(PetscScalar), (void **)&d->val));
  PetscCall(TestDup(device, h->medrows, h->nmed * sizeof(PetscInt), (void **)&d->medrows));
  PetscCall(TestDup(device, h->longrows, h->nlong * sizeof(PetscInt), (void **)&d->longrows));
  PetscCall(TestDup(device, h->tileptr, h->tileptr ? (h->ntiles + 1) * sizeof(PetscInt) : 0, (void **)&d->tileptr));
  PetscCall(TestDup(device, h->tileend, h->tileptr ? h->ntiles * sizeof(PetscInt) : 0, (void **)&d->tileend));
  PetscFunctionReturn(0);
}

static inline PetscErrorCode TestSegCSRFreeUpload(PetscBool device, GPUPCSegCSRDev *d)
{
  PetscFunctionBegin;
  PetscCall(TestFree(device, d->segptr));
  PetscCall(TestFree(device, d->rowptr));
  PetscCall(TestFree(device, d->segrow));
  PetscCall(TestFree(device, d->col));
  PetscCall(TestFree(device, d->val));
  PetscCall(TestFree(device, d->medrows));
  PetscCall(TestFree(device, d->longrows));
  PetscCall(TestFree(device, d->tileptr));
  PetscCall(TestFree(device, d->tileend));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- HEC layout */
#include <gpupc/heckernels.h>

/* host arrays of the HEC layout (gpupc/heckernels.h) of CSR c with ELL width K, built here independently of the
   library's build: ELL column-major with stride m rounded up to GPUPC_HEC_ALIGN (padding: value 0, column = the row, or
   0 past the columns) holding the rows of at most K entries; the longer rows whole outside it: those with a remainder
   of at most GPUPC_HEC_SHORT_REM in the slab of their length (group by group, shortest first, rows in order), the
   others in CSR after the slabs (in row order); longrows = the block-bin rows, then the warp-bin rows (in row order,
   which the kernels must accept: only the bin split is part of the format) */
static inline PetscErrorCode TestHECLayout(const TestCSR *c, PetscInt K, GPUPCHECDev *h)
{
  const PetscInt m     = c->m;
  PetscInt       nlong = 0, nlanes, off;
  size_t         nslots;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(h, sizeof(*h)));
  h->m      = m;
  h->n      = c->n;
  h->K      = K;
  h->stride = ((m + GPUPC_HEC_ALIGN - 1) / GPUPC_HEC_ALIGN) * GPUPC_HEC_ALIGN;
  h->nnz    = c->i[m];
  nslots    = (size_t)K * h->stride;
  /* the slab groups: one per remainder length that occurs, in increasing length */
  for (PetscInt r = 1; r <= GPUPC_HEC_SHORT_REM; r++) {
    PetscInt rows = 0;
    for (PetscInt i = 0; i < m; i++) rows += c->i[i + 1] - c->i[i] == K + r;
    if (!rows) continue;
    h->slablen[h->nslab]      = K + r;
    h->slabstart[h->nslab]    = h->nslabslots;
    h->slabwarp[h->nslab + 1] = h->slabwarp[h->nslab] + (rows + 31) / 32;
    h->nslabslots += (K + r) * 32 * ((rows + 31) / 32);
    h->nslab++;
  }
  nlanes       = 32 * h->slabwarp[h->nslab];
  h->nremslots = h->nslabslots;
  for (PetscInt i = 0; i < m; i++) {
    const PetscInt len = c->i[i + 1] - c->i[i];
    if (len > K) h->nrem += len;
    if (len > K + GPUPC_HEC_SHORT_REM) h->nremslots += len, h->nlong++, h->nblock += GPUPCHECRowBin(len - K) == GPUPC_HEC_BIN_BLOCK;
  }
  PetscCall(PetscMalloc5(m + 1, &h->rowptr, m, &h->rembase, m, &h->remstep, nlanes, &h->slabrows, h->nlong, &h->longrows));
  PetscCall(PetscMalloc5(nslots, &h->ellcol, nslots, &h->ellval, h->nremslots, &h->remrow, h->nremslots, &h->remcol, h->nremslots, &h->remval));
  PetscCall(PetscMalloc(m * GPUPCHECEllLengthBytes(K), &h->ellen));
  PetscCall(PetscArraycpy(h->rowptr, c->i, m + 1));
  for (PetscInt i = 0; i < h->stride; i++) {
    const PetscInt len = i < m ? c->i[i + 1] - c->i[i] : 0;
    for (PetscInt p = 0; p < K; p++) {
      const PetscBool entry                = (PetscBool)(p < len && len <= K);
      h->ellcol[(size_t)p * h->stride + i] = entry ? c->j[c->i[i] + p] : (i < c->n ? i : 0);
      h->ellval[(size_t)p * h->stride + i] = entry ? c->a[c->i[i] + p] : 0.0;
    }
    if (i < m) {
      GPUPCHECSetEllLength(K, h->ellen, i, len <= K ? len : -1);
      h->rembase[i] = h->remstep[i] = 0;
    }
  }
  for (PetscInt t = 0; t < nlanes; t++) h->slabrows[t] = -1;
  for (PetscInt t = 0; t < h->nslabslots; t++) h->remrow[t] = -1, h->remcol[t] = 0, h->remval[t] = 0.0;
  for (PetscInt g = 0; g < h->nslab; g++) { /* group g: its rows in order, row t of the group in lane t */
    const PetscInt gs = 32 * (h->slabwarp[g + 1] - h->slabwarp[g]);
    PetscInt       t  = 0;
    for (PetscInt i = 0; i < m; i++) {
      if (c->i[i + 1] - c->i[i] != h->slablen[g]) continue;
      h->slabrows[32 * h->slabwarp[g] + t] = i;
      h->rembase[i]                        = h->slabstart[g] + t;
      h->remstep[i]                        = gs;
      t++;
    }
  }
  off = h->nslabslots;
  for (PetscInt i = 0; i < m; i++) {
    const PetscInt len = c->i[i + 1] - c->i[i];
    if (len <= K) continue;
    if (len > K + GPUPC_HEC_SHORT_REM) h->rembase[i] = off, h->remstep[i] = 1, off += len;
    for (PetscInt q = 0; q < len; q++) {
      const PetscInt slot = h->rembase[i] + q * h->remstep[i];
      h->remrow[slot]     = i;
      h->remcol[slot]     = c->j[c->i[i] + q];
      h->remval[slot]     = c->a[c->i[i] + q];
    }
  }
  for (PetscInt pass = 0; pass < 2; pass++) { /* block rows first, then warp rows */
    for (PetscInt i = 0; i < m; i++) {
      const PetscInt rl = PetscMax(0, c->i[i + 1] - c->i[i] - K);
      if (GPUPCHECRowBin(rl) == (pass ? GPUPC_HEC_BIN_WARP : GPUPC_HEC_BIN_BLOCK)) h->longrows[nlong++] = i;
    }
  }
  PetscFunctionReturn(0);
}

static inline PetscErrorCode TestHECFreeLayout(GPUPCHECDev *h)
{
  PetscFunctionBegin;
  PetscCall(PetscFree5(h->rowptr, h->rembase, h->remstep, h->slabrows, h->longrows));
  PetscCall(PetscFree5(h->ellcol, h->ellval, h->remrow, h->remcol, h->remval));
  PetscCall(PetscFree(h->ellen));
  PetscFunctionReturn(0);
}

/* a copy of HEC layout h in the device world (device true: GPUPCMalloc buffers) or the host world (PetscMalloc) */
static inline PetscErrorCode TestHECUpload(const GPUPCHECDev *h, PetscBool device, GPUPCHECDev *d)
{
  const size_t ns = (size_t)h->K * h->stride;

  PetscFunctionBegin;
  *d = *h;
  PetscCall(TestDup(device, h->rowptr, (h->m + 1) * sizeof(PetscInt), (void **)&d->rowptr));
  PetscCall(TestDup(device, h->ellen, h->m * GPUPCHECEllLengthBytes(h->K), &d->ellen));
  PetscCall(TestDup(device, h->ellcol, ns * sizeof(PetscInt), (void **)&d->ellcol));
  PetscCall(TestDup(device, h->ellval, ns * sizeof(PetscScalar), (void **)&d->ellval));
  PetscCall(TestDup(device, h->rembase, h->m * sizeof(PetscInt), (void **)&d->rembase));
  PetscCall(TestDup(device, h->remstep, h->m * sizeof(PetscInt), (void **)&d->remstep));
  PetscCall(TestDup(device, h->remrow, h->nremslots * sizeof(PetscInt), (void **)&d->remrow));
  PetscCall(TestDup(device, h->remcol, h->nremslots * sizeof(PetscInt), (void **)&d->remcol));
  PetscCall(TestDup(device, h->remval, h->nremslots * sizeof(PetscScalar), (void **)&d->remval));
  PetscCall(TestDup(device, h->slabrows, 32 * h->slabwarp[h->nslab] * sizeof(PetscInt), (void **)&d->slabrows));
  PetscCall(TestDup(device, h->longrows, h->nlong * sizeof(PetscInt), (void **)&d->longrows));
  PetscFunctionReturn(0);
}

static inline PetscErrorCode TestHECFreeUpload(PetscBool device, GPUPCHECDev *d)
{
  PetscFunctionBegin;
  PetscCall(TestFree(device, d->rowptr));
  PetscCall(TestFree(device, d->ellen));
  PetscCall(TestFree(device, d->ellcol));
  PetscCall(TestFree(device, d->ellval));
  PetscCall(TestFree(device, d->rembase));
  PetscCall(TestFree(device, d->remstep));
  PetscCall(TestFree(device, d->remrow));
  PetscCall(TestFree(device, d->remcol));
  PetscCall(TestFree(device, d->remval));
  PetscCall(TestFree(device, d->slabrows));
  PetscCall(TestFree(device, d->longrows));
  PetscFunctionReturn(0);
}

#endif

/*
   Building one HEC block from CSR on the host and keeping its device copy (docs/algorithms.md 1.2): the ELL width
   from the cost model, the layout, the value-only update, statistics for the view.
*/
#include "hecimpl.h"
#include <gpupc/stage.h>
#include <gpupc/formatkernels.h>
#include <gpupc/sparsekernels.h>

PetscLogEvent MATHEC_Build, MATHEC_Upload, MATHEC_Mult, MATHEC_MultTranspose;

/* refuses a p_r that is not a positive finite number */
PetscErrorCode GPUPCHECCheckRatio(PetscReal pr, const char *where)
{
  PetscFunctionBegin;
  PetscCheck(pr > 0.0 && !PetscIsInfOrNanReal(pr), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s: hec cost ratio p_r = %g is invalid; use a positive number, the cost of a CSR-remainder entry relative to an ELL slot (-mat_hec_ratio, default %g)", where, (double)pr, (double)GPUPC_HEC_DEFAULT_RATIO);
  PetscFunctionReturn(0);
}

/* refuses an ELL width below 0 other than PETSC_DECIDE */
PetscErrorCode GPUPCHECCheckWidth(PetscInt K, const char *where)
{
  PetscFunctionBegin;
  PetscCheck(K >= 0 || K == PETSC_DECIDE, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s: hec ELL width %" PetscInt_FMT " is invalid; use K >= 0 to force the width, or -1 (PETSC_DECIDE) for the cost model (-mat_hec_ell_width)", where, K);
  PetscFunctionReturn(0);
}

/* the width of the cost model (GPUPCHECCostWidth) from the row-length histogram count[0 .. maxlen] of m rows holding
   nnz entries: the host and the device builds both come here with their histograms */
static PetscInt CostWidthFromCounts(PetscInt m, PetscInt maxlen, const PetscInt *count, PetscInt64 nnz, PetscReal pr)
{
  PetscInt64 rem   = nnz;          /* entries beyond width 0 */
  PetscInt   above = m - count[0], /* rows longer than width 0 */
    K              = 0;
  PetscReal best   = pr * (PetscReal)rem;

  for (PetscInt k = 1; k <= maxlen; k++) {
    PetscReal w;

    rem -= above; /* each row longer than k - 1 moves one entry into the ELL part */
    above -= count[k];
    w = (PetscReal)k * (PetscReal)m + pr * (PetscReal)rem;
    if (w < best) {
      best = w;
      K    = k;
    }
  }
  return K;
}

/*@C
   GPUPCHECCostWidth - the ELL width of the HEC cost model: the smallest K minimising
   w(K) = K m + p_r sum_i max(0, len_i - K) over 0 <= K <= max len_i

   Not Collective

   Input Parameters:
+  m - number of rows
.  rowptr - CSR row pointers (m + 1)
-  pr - p_r, the cost of a CSR-remainder entry relative to an ELL slot (> 0)

   Output Parameter:
.  K - the width

   Level: developer

   Note:
   w(K+1) - w(K) = m - p_r #{i : len_i > K}: K is about the (1 - 1/p_r) quantile of the row lengths.

.seealso: MATHEC, MatHECSetRatio()
@*/
PetscErrorCode GPUPCHECCostWidth(PetscInt m, const PetscInt *rowptr, PetscReal pr, PetscInt *K)
{
  PetscInt *count, maxlen = 0;

  PetscFunctionBegin;
  PetscCall(GPUPCHECCheckRatio(pr, "GPUPCHECCostWidth"));
  for (PetscInt i = 0; i < m; i++) maxlen = PetscMax(maxlen, rowptr[i + 1] - rowptr[i]);
  PetscCall(PetscCalloc1(maxlen + 1, &count));
  for (PetscInt i = 0; i < m; i++) count[rowptr[i + 1] - rowptr[i]]++;
  *K = CostWidthFromCounts(m, maxlen, count, m ? (PetscInt64)(rowptr[m] - rowptr[0]) : 0, pr);
  PetscCall(PetscFree(count));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCHECBlockDestroy(GPUPCHECBlock *b)
{
  PetscFunctionBegin;
  PetscCall(GPUPCFree(b->d.rowptr));
  PetscCall(GPUPCFree(b->d.ellen));
  PetscCall(GPUPCFree(b->d.ellcol));
  PetscCall(GPUPCFree(b->d.ellval));
  PetscCall(GPUPCFree(b->d.rembase));
  PetscCall(GPUPCFree(b->d.remstep));
  PetscCall(GPUPCFree(b->d.remrow));
  PetscCall(GPUPCFree(b->d.remcol));
  PetscCall(GPUPCFree(b->d.remval));
  PetscCall(GPUPCFree(b->d.slabrows));
  PetscCall(GPUPCFree(b->d.longrows));
  PetscCall(PetscFree(b->h_rowptr));
  PetscCall(PetscMemzero(b, sizeof(*b)));
  PetscFunctionReturn(0);
}

/* the row holding entry k < nnz of the CSR matrix with row pointers rowptr (m rows): the last row starting at or
   before k */
static PetscInt EntryRow(const PetscInt *rowptr, PetscInt m, PetscInt k)
{
  PetscInt lo = 0, hi = m - 1;

  while (lo < hi) {
    const PetscInt mid = lo + (hi - lo + 1) / 2;
    if (rowptr[mid] <= k) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

typedef struct {
  GPUPCHECBlock         *b;
  const GPUPCHECKernels *k;
} LayOut;

/* GPUPCStageConsumer: the CSR values of entries first .. first+count-1, landed at a on the device, into their slots */
static PetscErrorCode LayChunk(void *ctx, size_t first, size_t count, const void *a)
{
  LayOut        *lo = (LayOut *)ctx;
  const PetscInt k0 = (PetscInt)first, k1 = (PetscInt)(first + count), m = lo->b->d.m;
  const PetscInt i0 = EntryRow(lo->b->h_rowptr, m, k0), i1 = EntryRow(lo->b->h_rowptr, m, k1 - 1) + 1;

  PetscFunctionBegin;
  PetscCall(lo->k->layvalues(&lo->b->d, i0, i1, k0, k1, (const PetscScalar *)a));
  PetscFunctionReturn(0);
}

/* the slot values of block b (structure on the device, padding already 0) from the CSR values: the nnz values go to
   the device once, chunk by chunk through the page-locked staging buffers (gpupc/stage.h), and the kernel table's
   layvalues puts each chunk into its ELL and remainder slots there while the next chunk is filled and sent */
static PetscErrorCode LayValues(const GPUPCCSR *csr, GPUPCHECBlock *b)
{
  LayOut lo;

  PetscFunctionBegin;
  if (!csr->nnz) PetscFunctionReturn(0);
  lo.b = b;
  PetscCall(GPUPCGetHECKernels(&lo.k));
  if (csr->device) { /* the values are on the device already: one pass over every row */
    PetscCall(lo.k->layvalues(&b->d, 0, b->d.m, 0, csr->nnz, csr->a));
    PetscFunctionReturn(0);
  }
  PetscCheck(b->h_rowptr && !csr->rowsdevice, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "hec value update: values on the host for a block built from device row pointers; pass them on the device");
  PetscCall(GPUPCStageStream(0, (size_t)csr->nnz, csr->a, sizeof(PetscScalar), LayChunk, &lo));
  PetscFunctionReturn(0);
}

/* host arrays of a block's layout (gpupc/heckernels.h), before they go to the device */
typedef struct {
  void     *ellen;
  PetscInt *ellcol, *rembase, *remstep, *remrow, *remcol, *slabrows, *longrows, *longkey;
} HECHostLayout;

/* the row classes and the slab groups at width K (d->m, K, stride set) from the row-length histogram count[0 .. maxlen]:
   the counts in d, the group of each remainder length 1 .. GPUPC_HEC_SHORT_REM in grp (-1: no group) */
static PetscErrorCode HECClassify(const PetscInt *count, PetscInt maxlen, GPUPCHECDev *d, PetscInt grp[GPUPC_HEC_SHORT_REM + 1], PetscInt *nslabrows)
{
  PetscInt cnt[GPUPC_HEC_SHORT_REM + 1] = {0}, ncsr = 0;

  PetscFunctionBegin;
  *nslabrows = 0;
  for (PetscInt len = d->K + 1; len <= maxlen; len++) {
    const PetscInt    r = len - d->K, c = count[len];
    const GPUPCHECBin bin = GPUPCHECRowBin(r);

    if (!c) continue;
    d->nrem += len * c;
    if (bin == GPUPC_HEC_BIN_SLAB) {
      cnt[r] += c;
      *nslabrows += c;
    } else {
      d->nlong += c;
      d->nblock += bin == GPUPC_HEC_BIN_BLOCK ? c : 0;
      ncsr += len * c;
    }
  }
  d->slabwarp[0] = 0;
  for (PetscInt r = 1; r <= GPUPC_HEC_SHORT_REM; r++) {
    const PetscInt g = d->nslab;

    grp[r] = -1;
    if (!cnt[r]) continue;
    grp[r]             = g;
    d->slablen[g]      = d->K + r;
    d->slabstart[g]    = d->nslabslots;
    d->slabwarp[g + 1] = d->slabwarp[g] + (cnt[r] + 31) / 32;
    PetscCheck((PetscInt64)d->nslabslots + (PetscInt64)d->slablen[g] * 32 * (d->slabwarp[g + 1] - d->slabwarp[g]) <= PETSC_MAX_INT - 1024, PETSC_COMM_SELF, PETSC_ERR_SUP, "hec: the slabs of a block of %" PetscInt_FMT " rows with ELL width %" PetscInt_FMT " need more slots than 32-bit indices address; use a smaller -mat_hec_ell_width or more MPI ranks", d->m, d->K);
    d->nslabslots += d->slablen[g] * 32 * (d->slabwarp[g + 1] - d->slabwarp[g]);
    d->nslab++;
  }
  d->nremslots = d->nslabslots + ncsr;
  PetscFunctionReturn(0);
}

/* fills the host layout h of CSR csr (d counted by HECClassify, grp its groups); h's arrays allocated; the columns
   (ellcol, remcol) only for a host CSR: those of a device CSR are laid on the device (gpupc/formatkernels.h) */
static void HECFill(const GPUPCCSR *csr, const GPUPCHECDev *d, const PetscInt grp[GPUPC_HEC_SHORT_REM + 1], HECHostLayout *h)
{
  PetscInt       pos[GPUPC_HEC_SHORT_REM] = {0}, off = d->nslabslots, nlong = 0;
  const PetscInt K = d->K, stride = d->stride;

  for (PetscInt t = 0; t < 32 * d->slabwarp[d->nslab]; t++) h->slabrows[t] = -1;
  for (PetscInt t = 0; t < d->nslabslots; t++) h->remrow[t] = -1;
  if (!csr->device)
    for (PetscInt t = 0; t < d->nslabslots; t++) h->remcol[t] = 0;
  for (PetscInt i = 0; i < stride && !csr->device; i++) { /* ELL: entry p of an ELL row i, or padding (the row itself as column) */
    const PetscInt len = i < d->m ? csr->i[i + 1] - csr->i[i] : 0, pad = i < d->n ? i : 0;

    for (PetscInt p = 0; p < K; p++) h->ellcol[(size_t)p * stride + i] = p < len && len <= K ? csr->j[csr->i[i] + p] : pad;
  }
  for (PetscInt i = 0; i < d->m; i++) {
    const PetscInt    len = csr->i[i + 1] - csr->i[i], r = PetscMax(0, len - K);
    const GPUPCHECBin bin = GPUPCHECRowBin(r);

    GPUPCHECSetEllLength(K, h->ellen, i, bin == GPUPC_HEC_BIN_ELL ? len : -1);
    h->rembase[i] = h->remstep[i] = 0;
    if (bin == GPUPC_HEC_BIN_ELL) continue;
    if (bin == GPUPC_HEC_BIN_SLAB) {
      const PetscInt g = grp[r], t = pos[g]++;

      h->slabrows[32 * d->slabwarp[g] + t] = i;
      h->rembase[i]                        = d->slabstart[g] + t;
      h->remstep[i]                        = 32 * (d->slabwarp[g + 1] - d->slabwarp[g]);
    } else {
      h->rembase[i] = off;
      h->remstep[i] = 1;
      off += len;
      h->longkey[nlong]    = -r; /* longest first: the block rows lead the list (and start first on the GPU) */
      h->longrows[nlong++] = i;
    }
    for (PetscInt q = 0; q < len; q++) {
      const size_t slot = (size_t)h->rembase[i] + (size_t)q * h->remstep[i];

      h->remrow[slot] = i;
      if (!csr->device) h->remcol[slot] = csr->j[csr->i[i] + q];
    }
  }
}

/* the layout of block b (counted by HECClassify, grp its slab groups, device arrays allocated) from row pointers on the
   host: filled on the host (HECFill) and uploaded; the columns too for host CSR */
static PetscErrorCode HostLayout(const GPUPCCSR *csr, const PetscInt grp[GPUPC_HEC_SHORT_REM + 1], GPUPCHECBlock *b)
{
  GPUPCHECDev   *d = &b->d;
  const PetscInt m = d->m, nslots = d->K * d->stride;
  HECHostLayout  h;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(m + 1, &b->h_rowptr));
  PetscCall(PetscArraycpy(b->h_rowptr, csr->i, m + 1));
  PetscCall(PetscMemzero(&h, sizeof(h)));
  PetscCall(PetscMalloc(m * GPUPCHECEllLengthBytes(d->K), &h.ellen));
  PetscCall(PetscMalloc4(csr->device ? 0 : (size_t)nslots, &h.ellcol, m, &h.rembase, m, &h.remstep, 32 * d->slabwarp[d->nslab], &h.slabrows));
  PetscCall(PetscMalloc4(d->nremslots, &h.remrow, csr->device ? 0 : d->nremslots, &h.remcol, d->nlong, &h.longrows, d->nlong, &h.longkey));
  HECFill(csr, d, grp, &h);
  PetscCall(PetscSortIntWithArray(d->nlong, h.longkey, h.longrows));
  PetscCall(GPUPCCopyToDevice(d->rowptr, csr->i, m + 1));
  PetscCall(GPUPCMemcpy(d->ellen, h.ellen, m * GPUPCHECEllLengthBytes(d->K), GPUPC_COPY_HOST_TO_DEVICE));
  PetscCall(GPUPCCopyToDevice(d->rembase, h.rembase, m));
  PetscCall(GPUPCCopyToDevice(d->remstep, h.remstep, m));
  PetscCall(GPUPCCopyToDevice(d->remrow, h.remrow, d->nremslots));
  if (!csr->device) {
    PetscCall(GPUPCCopyToDevice(d->ellcol, h.ellcol, nslots));
    PetscCall(GPUPCCopyToDevice(d->remcol, h.remcol, d->nremslots));
  }
  PetscCall(GPUPCCopyToDevice(d->slabrows, h.slabrows, 32 * d->slabwarp[d->nslab]));
  PetscCall(GPUPCCopyToDevice(d->longrows, h.longrows, d->nlong));
  PetscCall(PetscFree(h.ellen));
  PetscCall(PetscFree4(h.ellcol, h.rembase, h.remstep, h.slabrows));
  PetscCall(PetscFree4(h.remrow, h.remcol, h.longrows, h.longkey));
  PetscFunctionReturn(0);
}

/* the same layout as HostLayout() from row pointers on the device (csr->rowsdevice), computed there
   (gpupc/formatkernels.h): each row's class, the rows of each slab group and the warp and block rows by compaction in
   row order, the offsets of the latter by a scan of their lengths, then every row's ELL length, base, step and
   remainder slots. To the host come only the warp and block rows with their offsets, sorted there longest first as
   HostLayout() sorts them (the same input in the same order). No host row pointers are kept: value updates of this
   block come from the device. */
static PetscErrorCode DeviceLayout(const GPUPCCSR *csr, GPUPCHECBlock *b)
{
  GPUPCHECDev              *d = &b->d;
  const PetscInt            m = d->m;
  const GPUPCFormatKernels *fk;
  const GPUPCSparseKernels *sk;
  PetscInt                 *cls = NULL, *list = NULL, *off = NULL, cnt, total;

  PetscFunctionBegin;
  PetscCall(GPUPCGetFormatKernels(&fk));
  PetscCall(GPUPCGetSparseKernels(&sk));
  PetscCall(GPUPCCopyOnDevice(d->rowptr, csr->i, m + 1));
  PetscCall(GPUPCMallocArray(m, &cls));
  PetscCall(fk->hecclass(d, cls));
  for (PetscInt g = 0; g < d->nslab; g++) {
    PetscCall(sk->compact(m, cls, g, d->slabrows + 32 * d->slabwarp[g], NULL, &cnt, NULL));
    PetscCheck(cnt <= 32 * (d->slabwarp[g + 1] - d->slabwarp[g]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "hec: slab group %" PetscInt_FMT " got %" PetscInt_FMT " rows, more than its lanes", g, cnt);
  }
  PetscCall(GPUPCMallocArray(d->nlong, &list));
  PetscCall(GPUPCMallocArray(d->nlong + 1, &off));
  if (d->nlong) {
    PetscCall(sk->compact(m, cls, d->nslab, list, NULL, &cnt, NULL));
    PetscCheck(cnt == d->nlong, PETSC_COMM_SELF, PETSC_ERR_PLIB, "hec: %" PetscInt_FMT " warp and block rows listed, %" PetscInt_FMT " counted", cnt, d->nlong);
    PetscCall(fk->rowlengths(d->nlong, list, d->rowptr, off + 1));
    PetscCall(sk->rowptr(d->nlong, off, &total, NULL));
  }
  PetscCall(fk->hecfill(d, list, off));
  if (d->nlong) {
    PetscInt *hrows, *hkey;

    PetscCall(PetscMalloc2(d->nlong, &hrows, d->nlong + 1, &hkey));
    PetscCall(GPUPCCopyToHost(hrows, list, d->nlong));
    PetscCall(GPUPCCopyToHost(hkey, off, d->nlong + 1));
    for (PetscInt p = 0; p < d->nlong; p++) hkey[p] = -(hkey[p + 1] - hkey[p] - d->K); /* longest remainder first */
    PetscCall(PetscSortIntWithArray(d->nlong, hkey, hrows));
    PetscCall(GPUPCCopyToDevice(d->longrows, hrows, d->nlong));
    PetscCall(PetscFree2(hrows, hkey));
  }
  PetscCall(GPUPCFree(cls));
  PetscCall(GPUPCFree(list));
  PetscCall(GPUPCFree(off));
  PetscFunctionReturn(0);
}

/*
   GPUPCHECBlockBuild - (re)builds block b from CSR: ELL width Kopt (PETSC_DECIDE: the cost model with ratio pr;
   a forced width above the longest row is cut to it, which changes nothing but the padding)
*/
PetscErrorCode GPUPCHECBlockBuild(const GPUPCCSR *csr, PetscReal pr, PetscInt Kopt, GPUPCHECBlock *b)
{
  const PetscInt m = csr->m, n = csr->n;
  PetscInt       K, stride, grp[GPUPC_HEC_SHORT_REM + 1], nslabrows, *count;
  PetscInt64     nslots;
  GPUPCHECDev   *d = &b->d;

  PetscFunctionBegin;
  PetscCall(GPUPCHECCheckRatio(pr, "MatAssemblyEnd"));
  PetscCall(GPUPCHECCheckWidth(Kopt, "MatAssemblyEnd"));
  PetscCheck(!csr->rowsdevice || csr->device, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "hec build: row pointers on the device need the columns and values there too");
  PetscCall(PetscLogEventBegin(MATHEC_Build, 0, 0, 0, 0));
  PetscCall(GPUPCHECBlockDestroy(b));
  /* the row-length histogram decides the width and the row classes; from device row pointers it is counted there and
     only its longest row + 1 entries come down */
  if (csr->rowsdevice) {
    const GPUPCFormatKernels *fk;
    PetscInt                 *dcount;

    PetscCall(GPUPCGetFormatKernels(&fk));
    PetscCall(fk->rowmax(m, csr->i, &b->maxrow));
    PetscCall(GPUPCMallocArray(b->maxrow + 1, &dcount));
    PetscCall(fk->rowhistogram(m, csr->i, b->maxrow, dcount));
    PetscCall(PetscMalloc1(b->maxrow + 1, &count));
    PetscCall(GPUPCCopyToHost(count, dcount, b->maxrow + 1));
    PetscCall(GPUPCFree(dcount));
  } else {
    for (PetscInt i = 0; i < m; i++) b->maxrow = PetscMax(b->maxrow, csr->i[i + 1] - csr->i[i]);
    PetscCall(PetscCalloc1(b->maxrow + 1, &count));
    for (PetscInt i = 0; i < m; i++) count[csr->i[i + 1] - csr->i[i]]++;
  }
  b->Kcost  = CostWidthFromCounts(m, b->maxrow, count, csr->nnz, pr);
  b->ratio  = pr;
  b->forced = (PetscBool)(Kopt >= 0);
  K         = b->forced ? PetscMin(Kopt, b->maxrow) : b->Kcost;
  stride    = ((m + GPUPC_HEC_ALIGN - 1) / GPUPC_HEC_ALIGN) * GPUPC_HEC_ALIGN;
  nslots    = (PetscInt64)K * stride;
  PetscCheck(nslots <= PETSC_MAX_INT - 1024, PETSC_COMM_SELF, PETSC_ERR_SUP, "hec: a block of %" PetscInt_FMT " rows with ELL width %" PetscInt_FMT " needs %" PetscInt64_FMT " ELL slots, more than 32-bit indices address; use a smaller -mat_hec_ell_width, a larger -mat_hec_ratio or more MPI ranks", m, K, nslots);
  d->m      = m;
  d->n      = n;
  d->K      = K;
  d->stride = stride;
  d->nnz    = csr->nnz;
  PetscCall(HECClassify(count, b->maxrow, d, grp, &nslabrows));
  PetscCall(PetscFree(count));
  PetscCheck((PetscInt64)d->nslabslots + d->nrem <= PETSC_MAX_INT - 1024, PETSC_COMM_SELF, PETSC_ERR_SUP, "hec: a block of %" PetscInt_FMT " rows with ELL width %" PetscInt_FMT " needs more slots outside the ELL part than 32-bit indices address; use a larger -mat_hec_ell_width or more MPI ranks", m, K);
  b->nwarp     = d->nlong - d->nblock;
  b->nslabrows = nslabrows;
  PetscCall(GPUPCMallocArray(m + 1, &d->rowptr));
  PetscCall(GPUPCMalloc(m * GPUPCHECEllLengthBytes(K), &d->ellen));
  PetscCall(GPUPCMallocArray(nslots, &d->ellcol));
  PetscCall(GPUPCMallocArray(nslots, &d->ellval));
  PetscCall(GPUPCMallocArray(m, &d->rembase));
  PetscCall(GPUPCMallocArray(m, &d->remstep));
  PetscCall(GPUPCMallocArray(d->nremslots, &d->remrow));
  PetscCall(GPUPCMallocArray(d->nremslots, &d->remcol));
  PetscCall(GPUPCMallocArray(d->nremslots, &d->remval));
  PetscCall(GPUPCMallocArray(32 * d->slabwarp[d->nslab], &d->slabrows));
  PetscCall(GPUPCMallocArray(d->nlong, &d->longrows));
  if (csr->rowsdevice) PetscCall(DeviceLayout(csr, b));
  else PetscCall(HostLayout(csr, grp, b));
  if (csr->device) { /* the columns from the device CSR, there (slab padding: column 0) */
    const GPUPCFormatKernels *fk;

    PetscCall(GPUPCMemzero(d->remcol, (size_t)d->nslabslots * sizeof(PetscInt)));
    PetscCall(GPUPCGetFormatKernels(&fk));
    PetscCall(fk->heccolumns(d, csr->j, d->ellcol, d->remcol));
  }
  PetscCall(GPUPCMemzero(d->ellval, (size_t)nslots * sizeof(PetscScalar)));        /* the padding stays 0 for good */
  PetscCall(GPUPCMemzero(d->remval, (size_t)d->nslabslots * sizeof(PetscScalar))); /* and the slabs' padding lanes */
  PetscCall(LayValues(csr, b));                                                    /* the same path as a value update */
  PetscCall(PetscLogEventEnd(MATHEC_Build, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*
   GPUPCHECBlockUploadValues - same nonzero pattern, new values: the nnz CSR values go to the device once (staged) and
   a kernel puts them into the ELL and remainder slots there (LayValues); the ELL padding keeps its zeros
*/
PetscErrorCode GPUPCHECBlockUploadValues(const GPUPCCSR *csr, GPUPCHECBlock *b)
{
  PetscFunctionBegin;
  PetscCheck(csr->m == b->d.m && csr->nnz == b->d.nnz, PETSC_COMM_SELF, PETSC_ERR_PLIB, "hec value update: the block has %" PetscInt_FMT " rows and %" PetscInt_FMT " nonzeros, the matrix %" PetscInt_FMT " and %" PetscInt_FMT "; the pattern changed without a rebuild", b->d.m, b->d.nnz, csr->m, csr->nnz);
  PetscCall(PetscLogEventBegin(MATHEC_Upload, 0, 0, 0, 0));
  PetscCall(LayValues(csr, b));
  PetscCall(PetscLogEventEnd(MATHEC_Upload, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* ASCII statistics of one block; sync: every rank prints (inside PetscViewerASCIIPushSynchronized) */
PetscErrorCode GPUPCHECBlockView(const GPUPCHECBlock *b, const char *name, PetscBool sync, PetscViewer viewer)
{
  const PetscInt64 slots = (PetscInt64)b->d.K * b->d.m, inell = (PetscInt64)b->d.nnz - b->d.nrem;
  PetscErrorCode (*print)(PetscViewer, const char[], ...) = sync ? PetscViewerASCIISynchronizedPrintf : PetscViewerASCIIPrintf;
  char width[128];

  PetscFunctionBegin;
  if (b->forced) PetscCall(PetscSNPrintf(width, sizeof(width), "forced (-mat_hec_ell_width); the cost model with p_r %g gives %" PetscInt_FMT, (double)b->ratio, b->Kcost));
  else PetscCall(PetscSNPrintf(width, sizeof(width), "cost model, p_r %g", (double)b->ratio));
  PetscCall(print(viewer, "%s: %" PetscInt_FMT " x %" PetscInt_FMT ", %" PetscInt_FMT " nonzeros, longest row %" PetscInt_FMT "; ELL width K %" PetscInt_FMT " (%s), stride %" PetscInt_FMT "\n", name, b->d.m, b->d.n, b->d.nnz, b->maxrow, b->d.K, width, b->d.stride));
  PetscCall(print(viewer, "%s: ELL fill %.3g (%" PetscInt64_FMT " entries in %" PetscInt64_FMT " slots); outside it (rows longer than K, kept whole) %" PetscInt_FMT " nonzeros, %.3g%% of nnz\n", name, slots ? (double)inell / (double)slots : 1.0, inell, slots, b->d.nrem, b->d.nnz ? 100.0 * (double)b->d.nrem / (double)b->d.nnz : 0.0));
  PetscCall(print(viewer, "%s: rows by remainder length: %" PetscInt_FMT " in the ELL part (none), %" PetscInt_FMT " whole in %" PetscInt_FMT " slabs of equal-length rows (<= %d, %.3g%% padding lanes), %" PetscInt_FMT " whole in CSR with a warp each (<= %d), %" PetscInt_FMT " with a thread block each\n", name, b->d.m - b->d.nlong - b->nslabrows, b->nslabrows, b->d.nslab, GPUPC_HEC_SHORT_REM,
                  b->d.slabwarp[b->d.nslab] ? 100.0 * (1.0 - (double)b->nslabrows / (32.0 * (double)b->d.slabwarp[b->d.nslab])) : 0.0, b->nwarp, GPUPC_HEC_BLOCK_REM, b->d.nblock));
  PetscFunctionReturn(0);
}

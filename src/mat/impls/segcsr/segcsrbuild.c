/*
   Building one segmented-CSR block from CSR on the host and keeping its device copy
   (docs/algorithms.md 1.1): layout, value-only re-upload, statistics for the view.
*/
#include "segcsrimpl.h"
#include <gpupc/threads.h>
#include <gpupc/stage.h>
#include <gpupc/formatkernels.h>
#include <gpupc/sparsekernels.h>

PetscLogEvent MATSEGCSR_Build, MATSEGCSR_Upload, MATSEGCSR_Mult, MATSEGCSR_MultTranspose;

/* refuses a segment length that is not a power of two in 1..32 */
PetscErrorCode GPUPCSegCSRCheckLength(PetscInt L, const char *where)
{
  PetscFunctionBegin;
  PetscCheck(L >= 1 && L <= 32 && (L & (L - 1)) == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s: segcsr segment length %" PetscInt_FMT " is invalid; use a power of two from 1 to 32 (-mat_segcsr_segment_length 1, 2, 4, 8, 16 or 32), or 0 for the default", where, L);
  PetscFunctionReturn(0);
}

/* the default segment length: the largest power of two <= mean row length / 3, clamped to
   1..8 (bench/NOTES.md "segcsr default segment length": measured on the H200 suite; this
   deviates from the segSpMV rule in docs/algorithms.md 1.1, which padded every suite matrix and lost to cuSPARSE).
   Longer rows need no longer segments: they go to the warp- and block-per-row bins. */
PetscInt GPUPCSegCSRDefaultLength(PetscInt nnz, PetscInt m)
{
  PetscInt  L    = 1;
  PetscReal mean = m > 0 ? (PetscReal)nnz / (PetscReal)m : 1.0;

  while (L < 8 && (PetscReal)(2 * L) <= mean / 3.0) L *= 2;
  return L;
}

PetscErrorCode GPUPCSegCSRBlockDestroy(GPUPCSegCSRBlock *b)
{
  PetscFunctionBegin;
  PetscCall(GPUPCFree(b->d.segptr));
  PetscCall(GPUPCFree(b->d.segrow));
  PetscCall(GPUPCFree(b->d.col));
  PetscCall(GPUPCFree(b->d.val));
  PetscCall(GPUPCFree(b->d.medrows));
  PetscCall(GPUPCFree(b->d.longrows));
  PetscCall(GPUPCFree(b->d.tileptr));
  PetscCall(GPUPCFree(b->d.tileend));
  PetscCall(GPUPCFree(b->d.rowptr));
  PetscCall(PetscFree(b->h_segptr));
  PetscCall(PetscMemzero(b, sizeof(*b)));
  PetscFunctionReturn(0);
}

/* the slot of entry k (0 <= k <= nnz) of the CSR matrix that block b was built from: entry k of row i is in slot
   segptr[i]*L + k - i[i]; 0 for k = 0 and nseg*L for k = nnz, so that the slots [slot(k0), slot(k1)) of consecutive
   ranges of entries cover every slot once: the padding of a row goes with its last entry, that of an empty row with
   the entries before it (the first range for leading empty rows) */
static PetscInt EntrySlot(const GPUPCCSR *csr, const GPUPCSegCSRBlock *b, PetscInt k)
{
  PetscInt lo = 0, hi = csr->m - 1;

  if (k == 0) return 0;
  if (k >= csr->nnz) return b->d.nseg * b->d.L;
  while (lo < hi) { /* the last row starting at or before k: it holds k, since k < nnz */
    const PetscInt mid = lo + (hi - lo + 1) / 2;
    if (csr->i[mid] <= k) lo = mid;
    else hi = mid - 1;
  }
  return b->h_segptr[lo] * b->d.L + k - csr->i[lo];
}

typedef struct {
  const GPUPCCSR           *csr;
  GPUPCSegCSRBlock         *b;
  const GPUPCSegCSRKernels *k;
} LayOut;

/* GPUPCStageConsumer: the CSR values of entries first .. first+count-1, landed at a on the device, into their slots */
static PetscErrorCode LayChunk(void *ctx, size_t first, size_t count, const void *a)
{
  LayOut        *lo = (LayOut *)ctx;
  const PetscInt k0 = (PetscInt)first, k1 = (PetscInt)(first + count);

  PetscFunctionBegin;
  PetscCall(lo->k->layvalues(&lo->b->d, EntrySlot(lo->csr, lo->b, k0), EntrySlot(lo->csr, lo->b, k1), k0, (const PetscScalar *)a, lo->b->d.val));
  PetscFunctionReturn(0);
}

/* the slot values of block b (structure on the device) from the CSR values: the nnz values go to the device once,
   chunk by chunk through the page-locked staging buffers (gpupc/stage.h), and the kernel table's layvalues lays each
   chunk into its slots there (padding 0) while the next chunk is filled and sent. On the cuda backend this returns with
   the last chunks still in flight on the rank's stream, which orders every later product after them. */
static PetscErrorCode LayValues(const GPUPCCSR *csr, GPUPCSegCSRBlock *b)
{
  LayOut lo;

  PetscFunctionBegin;
  if (!csr->nnz) { /* only padding */
    PetscCall(GPUPCMemzero(b->d.val, (size_t)b->d.nseg * b->d.L * sizeof(PetscScalar)));
    PetscFunctionReturn(0);
  }
  lo.csr = csr;
  lo.b   = b;
  PetscCall(GPUPCGetSegCSRKernels(&lo.k));
  if (csr->device) { /* the values are on the device already: one pass over every slot */
    PetscCall(lo.k->layvalues(&b->d, 0, b->d.nseg * b->d.L, 0, csr->a, b->d.val));
    PetscFunctionReturn(0);
  }
  PetscCheck(b->h_segptr && !csr->rowsdevice, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "segcsr value update: values on the host for a block built from device row pointers; pass them on the device");
  PetscCall(GPUPCStageStream(0, (size_t)csr->nnz, csr->a, sizeof(PetscScalar), LayChunk, &lo));
  PetscFunctionReturn(0);
}

/* auto short-row mode: tiles when a group of L lanes per short row would keep fewer than
   GPUPC_SEGCSR_AUTO_TILE_BUSY of its lane iterations busy AND the tiles would be at least
   GPUPC_SEGCSR_AUTO_TILE_FILL full (a block per tile idles where medium rows cut the tiles short).
   Measured on the H200 (bench/NOTES.md, bench/spmv): powergrid (busy 0.83, full tiles) 1.40x ->
   1.49x cuSPARSE in tile mode; the Laplacians and elast3d (busy >= 0.99) lose 0-25% in tile
   mode. (When medium rows still ended a tile, powerlaw's tiles came out ~15% full and ran 0.36x;
   since tiles take the medium rows in, only long rows cut them short.) */
#define GPUPC_SEGCSR_AUTO_TILE_BUSY 0.9
#define GPUPC_SEGCSR_AUTO_TILE_FILL 0.5

/* share of the lane iterations of the group-per-row short bin that do work: a warp holds the
   groups of 32/L consecutive rows and runs as long as its longest short row (the groups of
   medium and long rows leave at once) */
static PetscReal GroupBusy(const GPUPCSegCSRBlock *b, PetscInt nt)
{
  const PetscInt m = b->d.m, L = b->d.L, groups = 32 / L, nw = (m + groups - 1) / groups;
  PetscInt64     busy = 0, held = 0; /* integer sums: the same for any thread count */

  nt = GPUPCRangeThreads(nt, nw, 16384);
#pragma omp parallel for num_threads(nt) schedule(static) reduction(+ \
                                                                    : busy, held) if (nt > 1)
  for (PetscInt wi = 0; wi < nw; wi++) {
    const PetscInt w       = wi * groups;
    PetscInt       longest = 0;

    for (PetscInt i = w; i < PetscMin(m, w + groups); i++) {
      const PetscInt s = b->h_segptr[i + 1] - b->h_segptr[i];

      if (GPUPCSegCSRRowBin(s, L, b->d.shortmax) != GPUPC_SEGCSR_BIN_SHORT) continue;
      busy += s;
      longest = PetscMax(longest, s);
    }
    held += (PetscInt64)longest * PetscMin(groups, m - w);
  }
  return held ? (PetscReal)busy / (PetscReal)held : 1.0;
}

/* cuts the rows of at most GPUPC_SEGCSR_TILE_SLOTS slots (short and medium: every row that is
   not long) into tiles (segcsrkernels.h): runs of consecutive such rows of at most
   GPUPC_SEGCSR_TILE_SLOTS / L segments, ended by a long row or by the next row not fitting.
   Returns the number of tiles; fills tileptr (ntiles+1) and tileend (ntiles) unless they are
   NULL (counting pass) and the segments the tiles hold in all (*tiledsegs) unless it is NULL. */
static PetscInt CutTiles(const GPUPCSegCSRBlock *b, PetscInt *tileptr, PetscInt *tileend, PetscInt64 *tiledsegs)
{
  const PetscInt m = b->d.m, cap = GPUPC_SEGCSR_TILE_SLOTS / b->d.L;
  PetscInt       ntiles = 0, segs = 0;
  PetscInt64     all  = 0;
  PetscBool      open = PETSC_FALSE;

  for (PetscInt i = 0; i < m; i++) {
    const PetscInt  s      = b->h_segptr[i + 1] - b->h_segptr[i];
    const PetscBool intile = (PetscBool)(GPUPCSegCSRRowBin(s, b->d.L, b->d.shortmax) != GPUPC_SEGCSR_BIN_LONG);

    if (open && (!intile || segs + s > cap)) { /* close the open tile before row i */
      if (tileend) tileend[ntiles - 1] = i;
      open = PETSC_FALSE;
    }
    if (!intile) continue;
    if (!open) { /* row i starts a tile; it fits: a row that is not long has <= cap segments */
      if (tileptr) tileptr[ntiles] = i;
      ntiles++;
      segs = 0;
      open = PETSC_TRUE;
    }
    segs += s;
    all += s;
  }
  if (open && tileend) tileend[ntiles - 1] = m;
  if (tileptr) tileptr[ntiles] = m;
  if (tiledsegs) *tiledsegs = all;
  return ntiles;
}

/* the short-row mode to run: the one asked for, or for auto the rule above */
static MatSegCSRShortMode ResolveShortMode(const GPUPCSegCSRBlock *b, MatSegCSRShortMode mode, PetscReal groupbusy)
{
  PetscInt64 tiledsegs;
  PetscInt   ntiles;

  if (mode != MAT_SEGCSR_SHORT_AUTO) return mode;
  if (groupbusy >= GPUPC_SEGCSR_AUTO_TILE_BUSY) return MAT_SEGCSR_SHORT_GROUP;
  ntiles = CutTiles(b, NULL, NULL, &tiledsegs);
  return ntiles > 0 && (PetscReal)tiledsegs >= GPUPC_SEGCSR_AUTO_TILE_FILL * ntiles * (GPUPC_SEGCSR_TILE_SLOTS / b->d.L) ? MAT_SEGCSR_SHORT_TILE : MAT_SEGCSR_SHORT_GROUP;
}

/* tile mode: the tiles of block b (h_segptr, L and shortmax set) on the device */
static PetscErrorCode BuildTiles(GPUPCSegCSRBlock *b)
{
  PetscInt *tileptr, *tileend;

  PetscFunctionBegin;
  b->d.ntiles = CutTiles(b, NULL, NULL, NULL);
  PetscCall(PetscMalloc2(b->d.ntiles + 1, &tileptr, b->d.ntiles, &tileend));
  PetscCheck(CutTiles(b, tileptr, tileend, NULL) == b->d.ntiles, PETSC_COMM_SELF, PETSC_ERR_PLIB, "segcsr tiles: the two passes disagree");
  PetscCall(GPUPCMallocArray(b->d.ntiles + 1, &b->d.tileptr));
  PetscCall(GPUPCMallocArray(b->d.ntiles, &b->d.tileend));
  PetscCall(GPUPCCopyToDevice(b->d.tileptr, tileptr, b->d.ntiles + 1));
  PetscCall(GPUPCCopyToDevice(b->d.tileend, tileend, b->d.ntiles));
  PetscCall(PetscFree2(tileptr, tileend));
  PetscFunctionReturn(0);
}

/* the short-row mode of block b (bins set, groupbusy its share of busy lanes): records what was asked, resolves auto,
   builds tiles (CutTiles reads h_segptr, which a block built from device row pointers fetches for this only) */
static PetscErrorCode SetUpShortRows(MatSegCSRShortMode mode, PetscReal groupbusy, GPUPCSegCSRBlock *b)
{
  PetscFunctionBegin;
  b->shortreq    = mode;
  b->groupbusy   = groupbusy;
  b->d.shortmode = ResolveShortMode(b, mode, b->groupbusy);
  if (b->d.shortmode == MAT_SEGCSR_SHORT_TILE) PetscCall(BuildTiles(b));
  PetscFunctionReturn(0);
}

/*
   GPUPCSegCSRBlockBuild - (re)builds block b from CSR with segment length L (0: default) and the
   auto short-row mode (the CMG level matrices build their blocks this way)
*/
PetscErrorCode GPUPCSegCSRBlockBuild(const GPUPCCSR *csr, PetscInt L, GPUPCSegCSRBlock *b)
{
  PetscFunctionBegin;
  PetscCall(GPUPCSegCSRBlockBuildWithMode(csr, L, MAT_SEGCSR_SHORT_AUTO, b));
  PetscFunctionReturn(0);
}

/* the segment pointers of the rows (h_segptr), their total and the row statistics, over nt contiguous row ranges: each
   range counts its segments, a serial scan over the ranges gives their offsets, each range writes its pointers */
static PetscErrorCode SegmentPointers(const GPUPCCSR *csr, PetscInt L, PetscInt nt, GPUPCSegCSRBlock *b, PetscInt64 *nseg)
{
  const PetscInt m = csr->m;
  PetscInt64    *part;
  PetscInt      *smin, *smax, *rmax;

  PetscFunctionBegin;
  nt = GPUPCRangeThreads(nt, m, 65536); /* a thread per 64k rows at least: small blocks stay serial */
  PetscCall(PetscMalloc4(nt + 1, &part, nt, &smin, nt, &smax, nt, &rmax));
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (PetscInt t = 0; t < nt; t++) {
    PetscInt lo, hi;
    GPUPCThreadRange(m, t, nt, &lo, &hi);
    PetscInt64 cnt = 0;
    PetscInt   mn = PETSC_MAX_INT, mx = 0, rm = 0;

    for (PetscInt i = lo; i < hi; i++) {
      const PetscInt len = csr->i[i + 1] - csr->i[i], s = len ? (len + L - 1) / L : 1;
      cnt += s;
      mn = PetscMin(mn, s);
      mx = PetscMax(mx, s);
      rm = PetscMax(rm, len);
    }
    part[t + 1] = cnt;
    smin[t]     = mn;
    smax[t]     = mx;
    rmax[t]     = rm;
  }
  part[0] = 0;
  for (PetscInt t = 0; t < nt; t++) {
    part[t + 1] += part[t];
    b->segmin = PetscMin(b->segmin, smin[t]);
    b->segmax = PetscMax(b->segmax, smax[t]);
    b->maxrow = PetscMax(b->maxrow, rmax[t]);
  }
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (PetscInt t = 0; t < nt; t++) {
    PetscInt lo, hi;
    GPUPCThreadRange(m, t, nt, &lo, &hi);
    PetscInt64 g = part[t];

    for (PetscInt i = lo; i < hi; i++) {
      const PetscInt len = csr->i[i + 1] - csr->i[i];
      b->h_segptr[i]     = (PetscInt)PetscMin(g, PETSC_MAX_INT); /* beyond 32 bits the caller refuses the block */
      g += len ? (len + L - 1) / L : 1;
    }
  }
  *nseg = part[nt];
  PetscCall(PetscFree4(part, smin, smax, rmax));
  PetscFunctionReturn(0);
}

/* the structure of block b (m, n, L, nnz set) from row pointers on the host, by the upload threads, and its upload;
   the columns too: copied into their slots here for host CSR, laid on the device for device CSR */
static PetscErrorCode HostStructure(const GPUPCCSR *csr, PetscInt L, MatSegCSRShortMode mode, PetscInt nt, GPUPCSegCSRBlock *b)
{
  const PetscInt m    = csr->m;
  PetscInt64     nseg = 0, nslots;
  PetscInt      *segrow, *col, *medrows, *longrows, *longkey, nmed = 0, nlong = 0, ntf, ntb, *medoff, *longoff;
  PetscBool      listmed;

  PetscFunctionBegin;
  b->segmin = m ? PETSC_MAX_INT : 0;
  PetscCall(PetscMalloc1(m + 1, &b->h_segptr));
  PetscCall(SegmentPointers(csr, L, nt, b, &nseg));
  nslots = nseg * L;
  PetscCheck(nslots <= PETSC_MAX_INT - 1024, PETSC_COMM_SELF, PETSC_ERR_SUP, "segcsr: a block of %" PetscInt_FMT " rows needs %" PetscInt64_FMT " slots with segment length %" PetscInt_FMT ", more than 32-bit indices address; use a smaller -mat_segcsr_segment_length or more MPI ranks", m, nslots, L);
  b->h_segptr[m] = (PetscInt)nseg;
  b->d.nseg      = (PetscInt)nseg;
  b->d.shortmax  = GPUPCSegCSRShortMax(nseg, m, L);
  /* the medium and long rows of ntb contiguous row ranges: counted here, listed in row order below */
  ntb = GPUPCRangeThreads(nt, m, 65536);
  PetscCall(PetscCalloc2(ntb + 1, &medoff, ntb + 1, &longoff));
#pragma omp parallel for num_threads(ntb) schedule(static) if (ntb > 1)
  for (PetscInt t = 0; t < ntb; t++) {
    PetscInt lo, hi;
    GPUPCThreadRange(m, t, ntb, &lo, &hi);
    PetscInt cm = 0, cl = 0;

    for (PetscInt i = lo; i < hi; i++) {
      const GPUPCSegCSRBin bin = GPUPCSegCSRRowBin(b->h_segptr[i + 1] - b->h_segptr[i], L, b->d.shortmax);
      if (bin == GPUPC_SEGCSR_BIN_MEDIUM) cm++;
      else if (bin == GPUPC_SEGCSR_BIN_LONG) cl++;
    }
    medoff[t + 1]  = cm;
    longoff[t + 1] = cl;
  }
  for (PetscInt t = 0; t < ntb; t++) {
    medoff[t + 1] += medoff[t];
    longoff[t + 1] += longoff[t];
  }
  nmed       = medoff[ntb];
  nlong      = longoff[ntb];
  b->nmedium = nmed;
  b->d.nlong = nlong;
  PetscCall(SetUpShortRows(mode, GroupBusy(b, nt), b));
  listmed   = (PetscBool)(b->d.shortmode != MAT_SEGCSR_SHORT_TILE); /* tile mode: the medium rows are in the tiles */
  nmed      = listmed ? nmed : 0;
  b->d.nmed = nmed;
  PetscCall(PetscMalloc3(nseg, &segrow, csr->device ? 0 : nslots, &col, nmed, &medrows)); /* device CSR: columns laid there */
  PetscCall(PetscMalloc2(nlong, &longrows, nlong, &longkey));
  /* every row owns its segments and slots: contiguous row ranges fill them in parallel (the pages each thread
     touches first are its own) */
  ntf = GPUPCRangeThreads(nt, m, 16384);
#pragma omp parallel for num_threads(ntf) schedule(static) if (ntf > 1)
  for (PetscInt t = 0; t < ntf; t++) {
    PetscInt lo, hi;
    GPUPCThreadRange(m, t, ntf, &lo, &hi);

    for (PetscInt i = lo; i < hi; i++) {
      const PetscInt  len = csr->i[i + 1] - csr->i[i], g0 = b->h_segptr[i], g1 = b->h_segptr[i + 1];
      const PetscInt  pad = len && !csr->device ? csr->j[csr->i[i + 1] - 1] : 0; /* a column of the same row keeps the gather in cache */
      const PetscInt *src = csr->device ? NULL : csr->j + csr->i[i];
      PetscInt       *c   = csr->device ? NULL : col + (size_t)g0 * L, k;

      for (PetscInt g = g0; g < g1; g++) segrow[g] = i;
      if (csr->device) continue;
      for (k = 0; k < len; k++) c[k] = src[k];
      for (; k < (g1 - g0) * L; k++) c[k] = pad;
    }
  }
#pragma omp parallel for num_threads(ntb) schedule(static) if (ntb > 1)
  for (PetscInt t = 0; t < ntb; t++) {
    PetscInt lo, hi;
    GPUPCThreadRange(m, t, ntb, &lo, &hi);
    PetscInt km = medoff[t], kl = longoff[t];

    for (PetscInt i = lo; i < hi; i++) {
      const PetscInt       g0 = b->h_segptr[i], g1 = b->h_segptr[i + 1];
      const GPUPCSegCSRBin bin = GPUPCSegCSRRowBin(g1 - g0, L, b->d.shortmax);

      if (bin == GPUPC_SEGCSR_BIN_MEDIUM && listmed) medrows[km++] = i;
      else if (bin == GPUPC_SEGCSR_BIN_LONG) {
        longkey[kl]    = -(g1 - g0); /* longest first: their blocks start first on the GPU */
        longrows[kl++] = i;
      }
    }
  }
  PetscCall(PetscFree2(medoff, longoff));
  PetscCall(PetscSortIntWithArray(nlong, longkey, longrows));
  PetscCall(GPUPCMallocArray(m + 1, &b->d.segptr));
  PetscCall(GPUPCMallocArray(m + 1, &b->d.rowptr));
  PetscCall(GPUPCMallocArray(nseg, &b->d.segrow));
  PetscCall(GPUPCMallocArray(nslots, &b->d.col));
  PetscCall(GPUPCMallocArray(nslots, &b->d.val));
  PetscCall(GPUPCMallocArray(nmed, &b->d.medrows));
  PetscCall(GPUPCMallocArray(nlong, &b->d.longrows));
  /* the large arrays through the page-locked staging buffers (a pageable copy runs at a fraction of the link's speed) */
  PetscCall(GPUPCStageCopyToDevice(nt, (size_t)m + 1, b->h_segptr, sizeof(PetscInt), b->d.segptr, sizeof(PetscInt)));
  PetscCall(GPUPCStageCopyToDevice(nt, (size_t)m + 1, csr->i, sizeof(PetscInt), b->d.rowptr, sizeof(PetscInt)));
  PetscCall(GPUPCStageCopyToDevice(nt, (size_t)nseg, segrow, sizeof(PetscInt), b->d.segrow, sizeof(PetscInt)));
  if (csr->device) {
    const GPUPCFormatKernels *fk;

    PetscCall(GPUPCGetFormatKernels(&fk));
    PetscCall(fk->segcsrcolumns(&b->d, csr->j, b->d.col));
  } else PetscCall(GPUPCStageCopyToDevice(nt, (size_t)nslots, col, sizeof(PetscInt), b->d.col, sizeof(PetscInt)));
  PetscCall(GPUPCCopyToDevice(b->d.medrows, medrows, nmed));
  PetscCall(GPUPCCopyToDevice(b->d.longrows, longrows, nlong));
  PetscCall(PetscFree3(segrow, col, medrows));
  PetscCall(PetscFree2(longrows, longkey));
  PetscFunctionReturn(0);
}

/* the same structure as HostStructure() from row pointers on the device (csr->rowsdevice), computed there
   (gpupc/formatkernels.h): segment counts, their scan (the sparse table's rowptr), segrow, the bins and the busy share
   as reductions, the medium and long rows by compaction in row order. To the host come the statistics, the long rows
   with their segment counts (sorted there as HostStructure sorts them: the same input in the same order) and, only
   when the block may run in tile mode, the segment pointers for the serial tile cut. */
static PetscErrorCode DeviceStructure(const GPUPCCSR *csr, PetscInt L, MatSegCSRShortMode mode, GPUPCSegCSRBlock *b)
{
  const PetscInt            m = csr->m;
  const GPUPCFormatKernels *fk;
  const GPUPCSparseKernels *sk;
  PetscInt                  stats[3], counts[2], nseg, cnt, *bin = NULL, *list = NULL, *len = NULL, *hrows, *hkey;
  PetscInt64                sums[2], nslots;
  PetscReal                 busy;

  PetscFunctionBegin;
  PetscCall(GPUPCGetFormatKernels(&fk));
  PetscCall(GPUPCGetSparseKernels(&sk));
  PetscCall(GPUPCMallocArray(m + 1, &b->d.segptr));
  PetscCall(GPUPCMallocArray(m + 1, &b->d.rowptr));
  PetscCall(GPUPCCopyOnDevice(b->d.rowptr, csr->i, m + 1));
  PetscCall(fk->segcsrcount(m, b->d.rowptr, L, b->d.segptr + 1, stats));
  b->segmin = m ? stats[0] : 0;
  b->segmax = stats[1];
  b->maxrow = stats[2];
  PetscCall(sk->rowptr(m, b->d.segptr, &nseg, NULL));
  nslots = (PetscInt64)nseg * L;
  PetscCheck(nslots <= PETSC_MAX_INT - 1024, PETSC_COMM_SELF, PETSC_ERR_SUP, "segcsr: a block of %" PetscInt_FMT " rows needs %" PetscInt64_FMT " slots with segment length %" PetscInt_FMT ", more than 32-bit indices address; use a smaller -mat_segcsr_segment_length or more MPI ranks", m, nslots, L);
  b->d.nseg     = nseg;
  b->d.shortmax = GPUPCSegCSRShortMax(nseg, m, L);
  PetscCall(GPUPCMallocArray(nseg, &b->d.segrow));
  PetscCall(fk->segcsrsegrow(&b->d));
  PetscCall(GPUPCMallocArray(m, &bin));
  PetscCall(fk->segcsrbins(&b->d, bin, counts));
  b->nmedium = counts[0];
  b->d.nlong = counts[1];
  PetscCall(fk->segcsrbusy(&b->d, sums));
  busy = sums[1] ? (PetscReal)sums[0] / (PetscReal)sums[1] : 1.0;
  if (mode == MAT_SEGCSR_SHORT_TILE || (mode == MAT_SEGCSR_SHORT_AUTO && busy < GPUPC_SEGCSR_AUTO_TILE_BUSY)) {
    PetscCall(PetscMalloc1(m + 1, &b->h_segptr));
    PetscCall(GPUPCCopyToHost(b->h_segptr, b->d.segptr, m + 1));
  }
  PetscCall(SetUpShortRows(mode, busy, b));
  PetscCall(PetscFree(b->h_segptr));                                    /* value updates of this block come from the device (GPUPCDevMatUpdateValues) */
  b->d.nmed = b->d.shortmode != MAT_SEGCSR_SHORT_TILE ? b->nmedium : 0; /* tile mode: the medium rows are in the tiles */
  PetscCall(GPUPCMallocArray(b->d.nmed, &b->d.medrows));
  if (b->d.nmed) {
    PetscCall(sk->compact(m, bin, GPUPC_SEGCSR_BIN_MEDIUM, b->d.medrows, NULL, &cnt, NULL));
    PetscCheck(cnt == b->d.nmed, PETSC_COMM_SELF, PETSC_ERR_PLIB, "segcsr: %" PetscInt_FMT " medium rows listed, %" PetscInt_FMT " counted", cnt, b->d.nmed);
  }
  PetscCall(GPUPCMallocArray(b->d.nlong, &b->d.longrows));
  if (b->d.nlong) {
    PetscCall(GPUPCMallocArray(b->d.nlong, &list));
    PetscCall(GPUPCMallocArray(b->d.nlong, &len));
    PetscCall(sk->compact(m, bin, GPUPC_SEGCSR_BIN_LONG, list, NULL, &cnt, NULL));
    PetscCheck(cnt == b->d.nlong, PETSC_COMM_SELF, PETSC_ERR_PLIB, "segcsr: %" PetscInt_FMT " long rows listed, %" PetscInt_FMT " counted", cnt, b->d.nlong);
    PetscCall(fk->rowlengths(b->d.nlong, list, b->d.segptr, len));
    PetscCall(PetscMalloc2(b->d.nlong, &hrows, b->d.nlong, &hkey));
    PetscCall(GPUPCCopyToHost(hrows, list, b->d.nlong));
    PetscCall(GPUPCCopyToHost(hkey, len, b->d.nlong));
    for (PetscInt p = 0; p < b->d.nlong; p++) hkey[p] = -hkey[p]; /* longest first, as HostStructure() */
    PetscCall(PetscSortIntWithArray(b->d.nlong, hkey, hrows));
    PetscCall(GPUPCCopyToDevice(b->d.longrows, hrows, b->d.nlong));
    PetscCall(PetscFree2(hrows, hkey));
    PetscCall(GPUPCFree(list));
    PetscCall(GPUPCFree(len));
  }
  PetscCall(GPUPCFree(bin));
  PetscCall(GPUPCMallocArray(nslots, &b->d.col));
  PetscCall(GPUPCMallocArray(nslots, &b->d.val));
  PetscCall(fk->segcsrcolumns(&b->d, csr->j, b->d.col));
  PetscFunctionReturn(0);
}

/*
   GPUPCSegCSRBlockBuildWithMode - (re)builds block b from CSR with segment length L (0: default)
   and short-row mode (auto, group or tile: segcsrkernels.h)

   From host row pointers the host arrays of the layout are filled by the upload threads (-gpupc_upload_threads), each
   row the same way whatever the thread count, and reach the device through the page-locked staging buffers
   (gpupc/stage.h); from device row pointers (csr->rowsdevice) the layout is computed on the device, the same arrays.
*/
PetscErrorCode GPUPCSegCSRBlockBuildWithMode(const GPUPCCSR *csr, PetscInt L, MatSegCSRShortMode mode, GPUPCSegCSRBlock *b)
{
  PetscInt nt;

  PetscFunctionBegin;
  PetscCheck(mode >= MAT_SEGCSR_SHORT_AUTO && mode <= MAT_SEGCSR_SHORT_TILE, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "segcsr short-row mode %d is invalid; use auto, group or tile (-mat_segcsr_short)", (int)mode);
  PetscCheck(!csr->rowsdevice || csr->device, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "segcsr build: row pointers on the device need the columns and values there too");
  PetscCall(PetscLogEventBegin(MATSEGCSR_Build, 0, 0, 0, 0));
  PetscCall(GPUPCSegCSRBlockDestroy(b));
  if (!L) L = GPUPCSegCSRDefaultLength(csr->nnz, csr->m);
  PetscCall(GPUPCSegCSRCheckLength(L, "MatAssemblyEnd"));
  PetscCall(GPUPCStageDefaultThreads(&nt));
  b->d.m   = csr->m;
  b->d.n   = csr->n;
  b->d.L   = L;
  b->d.nnz = csr->nnz;
  if (csr->rowsdevice) PetscCall(DeviceStructure(csr, L, mode, b));
  else PetscCall(HostStructure(csr, L, mode, nt, b));
  PetscCall(LayValues(csr, b)); /* the same path as a value update */
  PetscCall(PetscLogEventEnd(MATSEGCSR_Build, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*
   GPUPCSegCSRBlockUploadValues - same nonzero pattern, new values: the nnz CSR values go to the device once (through
   the page-locked staging buffers, filled by host threads while earlier chunks are in flight) and a kernel lays them
   into the segmented layout there (LayValues): no host re-layout, no padded host array, no pageable copy
*/
PetscErrorCode GPUPCSegCSRBlockUploadValues(const GPUPCCSR *csr, GPUPCSegCSRBlock *b)
{
  PetscFunctionBegin;
  PetscCheck(csr->m == b->d.m && csr->nnz == b->d.nnz, PETSC_COMM_SELF, PETSC_ERR_PLIB, "segcsr value update: the block has %" PetscInt_FMT " rows and %" PetscInt_FMT " nonzeros, the matrix %" PetscInt_FMT " and %" PetscInt_FMT "; the pattern changed without a rebuild", b->d.m, b->d.nnz, csr->m, csr->nnz);
  PetscCall(PetscLogEventBegin(MATSEGCSR_Upload, 0, 0, 0, 0));
  PetscCall(LayValues(csr, b));
  PetscCall(PetscLogEventEnd(MATSEGCSR_Upload, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* ASCII statistics of one block; sync: every rank prints (inside PetscViewerASCIIPushSynchronized) */
PetscErrorCode GPUPCSegCSRBlockView(GPUPCSegCSRBlock *b, const char *name, PetscBool sync, PetscViewer viewer)
{
  const PetscInt64 slots                                  = (PetscInt64)b->d.nseg * b->d.L;
  PetscErrorCode (*print)(PetscViewer, const char[], ...) = sync ? PetscViewerASCIISynchronizedPrintf : PetscViewerASCIIPrintf;

  PetscFunctionBegin;
  PetscCall(print(viewer, "%s: %" PetscInt_FMT " x %" PetscInt_FMT ", %" PetscInt_FMT " nonzeros, segment length %" PetscInt_FMT ", %" PetscInt64_FMT " slots, padding overhead %.3g\n", name, b->d.m, b->d.n, b->d.nnz, b->d.L, slots,
                  b->d.nnz ? (double)(slots - b->d.nnz) / (double)b->d.nnz : 0.0));
  PetscCall(print(viewer, "%s: segments per row min %" PetscInt_FMT " mean %.3g max %" PetscInt_FMT "; longest row %" PetscInt_FMT "\n", name, b->segmin, b->d.m ? (double)b->d.nseg / (double)b->d.m : 0.0, b->segmax, b->maxrow));
  PetscCall(print(viewer, "%s: row bins: %" PetscInt_FMT " short (<= %" PetscInt_FMT " segments), %" PetscInt_FMT " medium (<= %d slots), %" PetscInt_FMT " long (> %d slots, a thread block per row)\n", name, b->d.m - b->nmedium - b->d.nlong, b->d.shortmax, b->nmedium, GPUPC_SEGCSR_LONG_SLOTS, b->d.nlong, GPUPC_SEGCSR_LONG_SLOTS));
  if (b->d.shortmode == MAT_SEGCSR_SHORT_TILE) PetscCall(print(viewer, "%s: short rows: tile mode (%s), %" PetscInt_FMT " tiles of <= %d slots holding the short and medium rows, a thread block each; a group of %" PetscInt_FMT " lanes per row would keep %.0f%% of its lanes busy\n", name, b->shortreq == MAT_SEGCSR_SHORT_AUTO ? "chosen by auto" : "asked for", b->d.ntiles, GPUPC_SEGCSR_TILE_SLOTS, b->d.L, 100.0 * (double)b->groupbusy));
  else PetscCall(print(viewer, "%s: short rows: group mode (%s), a group of %" PetscInt_FMT " lanes per row keeps %.0f%% of its lanes busy; a warp per medium row\n", name, b->shortreq == MAT_SEGCSR_SHORT_AUTO ? "chosen by auto" : "asked for", b->d.L, 100.0 * (double)b->groupbusy));
  PetscFunctionReturn(0);
}

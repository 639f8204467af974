/*
   Building one bcsr block from CSR and keeping its device copy (docs/algorithms.md 1.3): the blocks of each block row,
   the sort of the block rows by length, the slices with their padding, the value slot of every CSR entry; value-only
   re-upload; statistics for the view. From CSR on the host the layout is made on the host and uploaded; from CSR whose
   columns and values are on the device (a level of a device setup) the same arrays are computed on the device by the
   format-build kernels (gpupc/formatkernels.h).
*/
#include "bcsrimpl.h"
#include <gpupc/stage.h>
#include <gpupc/formatkernels.h>
#include <gpupc/sparsekernels.h>

PetscLogEvent MATBCSR_Build, MATBCSR_Upload, MATBCSR_Mult, MATBCSR_MultTranspose;

/* refuses a block size outside 1..GPUPC_BCSR_MAXB */
PetscErrorCode GPUPCBCSRCheckBlockSize(PetscInt b, const char *where)
{
  PetscFunctionBegin;
  PetscCheck(b >= 1 && b <= GPUPC_BCSR_MAXB, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s: bcsr block size %" PetscInt_FMT " is not supported; use 1 to %d (MatSetBlockSize() before assembly, or -mat_bcsr_block_size)", where, b, GPUPC_BCSR_MAXB);
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCBCSRBlockDestroy(GPUPCBCSRBlock *bl)
{
  PetscFunctionBegin;
  PetscCall(GPUPCFree(bl->d.sliceptr));
  PetscCall(GPUPCFree(bl->d.blkrow));
  PetscCall(GPUPCFree(bl->d.rowpos));
  PetscCall(GPUPCFree(bl->d.bcol));
  PetscCall(GPUPCFree(bl->d.val));
  PetscCall(GPUPCFree(bl->d.pos));
  PetscCall(PetscMemzero(bl, sizeof(*bl)));
  PetscFunctionReturn(0);
}

typedef struct {
  GPUPCBCSRBlock         *bl;
  const GPUPCBCSRKernels *k;
} LayOut;

/* GPUPCStageConsumer: the CSR values of entries first .. first+count-1, landed at a on the device, into their slots */
static PetscErrorCode LayChunk(void *ctx, size_t first, size_t count, const void *a)
{
  LayOut *lo = (LayOut *)ctx;

  PetscFunctionBegin;
  PetscCall(lo->k->layvalues(&lo->bl->d, (PetscInt)first, (PetscInt)count, (const PetscScalar *)a, lo->bl->d.val));
  PetscFunctionReturn(0);
}

/* the values of the CSR entries into their slots: the nnz values go to the device once, chunk by chunk through the
   page-locked staging buffers (gpupc/stage.h), and layvalues scatters each chunk there; padding slots are not written
   (zeroed at the build) */
static PetscErrorCode LayValues(const GPUPCCSR *csr, GPUPCBCSRBlock *bl)
{
  LayOut lo;

  PetscFunctionBegin;
  if (!csr->nnz) PetscFunctionReturn(0);
  lo.bl = bl;
  PetscCall(GPUPCGetBCSRKernels(&lo.k));
  PetscCall(GPUPCStageStream(0, (size_t)csr->nnz, csr->a, sizeof(PetscScalar), LayChunk, &lo));
  PetscFunctionReturn(0);
}

/* expanded column of CSR column c */
static inline PetscInt Col(const PetscInt *colmap, PetscInt c)
{
  return colmap ? colmap[c] : c;
}

/* the values of device CSR into their slots (the padding slots stay as they are: zeroed at the build) */
static PetscErrorCode LayDeviceValues(const GPUPCCSR *csr, GPUPCBCSRBlock *bl)
{
  const GPUPCBCSRKernels *k;

  PetscFunctionBegin;
  if (!csr->nnz) PetscFunctionReturn(0);
  PetscCall(GPUPCGetBCSRKernels(&k));
  PetscCall(k->layvalues(&bl->d, 0, csr->nnz, csr->a, bl->d.val));
  PetscFunctionReturn(0);
}

/* the layout of GPUPCBCSRBlockBuild from CSR with the columns on the device (row pointers on the device with
   csr->rowsdevice, else copied there): the same arrays as the host build, computed by the format-build kernels. The
   block rows' distinct block columns by a merge of their rows (which needs each row's columns strictly increasing:
   checked), their order by length through one compaction per length that occurs (longest first, equal lengths in
   their order: the host build's counting sort), the slice widths scanned into sliceptr. To the host come the block
   count, the first bad row and the histogram of the block row lengths. */
static PetscErrorCode DeviceLayout(const GPUPCCSR *csr, PetscInt b, MatBCSRMapping mapping, PetscBool sort, GPUPCBCSRBlock *bl)
{
  const PetscInt            m = csr->m, mb = m / b;
  const GPUPCFormatKernels *fk;
  const GPUPCSparseKernels *sk;
  PetscInt                 *rowptr = (PetscInt *)csr->i, *len = NULL, *bptr = NULL, *bc = NULL, *dhist = NULL, *order = NULL, *hist, maxlen, nreal, nblocks;
  PetscInt64                stats[2];

  PetscFunctionBegin;
  PetscCall(GPUPCGetFormatKernels(&fk));
  PetscCall(GPUPCGetSparseKernels(&sk));
  if (!csr->rowsdevice) {
    PetscCall(GPUPCMallocArray(m + 1, &rowptr));
    PetscCall(GPUPCCopyToDevice(rowptr, csr->i, m + 1));
  }
  /* the block columns of each block row: count, scan, list */
  PetscCall(GPUPCMallocArray(mb, &len));
  PetscCall(GPUPCMallocArray(mb + 1, &bptr));
  PetscCall(fk->bcsrcount(mb, b, csr->n, rowptr, csr->j, len, stats));
  if (stats[1] >= 0) { /* free what was made before the error */
    PetscCall(GPUPCFree(len));
    PetscCall(GPUPCFree(bptr));
    if (!csr->rowsdevice) PetscCall(GPUPCFree(rowptr));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "bcsr from device CSR: the columns of row %" PetscInt64_FMT " are not strictly increasing inside [0, %" PetscInt_FMT "); the device build needs each row's columns sorted and unique", stats[1], csr->n);
  }
  PetscCheck(stats[0] < PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_SUP, "bcsr: a block of %" PetscInt_FMT " block rows holds %" PetscInt64_FMT " blocks, more than 32-bit indices address; use more MPI ranks", mb, stats[0]);
  PetscCall(GPUPCCopyOnDevice(bptr + 1, len, mb));
  PetscCall(sk->rowptr(mb, bptr, &nreal, NULL));
  PetscCheck(nreal == stats[0], PETSC_COMM_SELF, PETSC_ERR_PLIB, "bcsr: %" PetscInt_FMT " blocks scanned, %" PetscInt64_FMT " counted", nreal, stats[0]);
  PetscCall(GPUPCMallocArray(nreal, &bc));
  PetscCall(fk->bcsrcolumns(mb, b, rowptr, csr->j, bptr, bc));
  /* the lengths of the block rows: shortest and longest (the view), the order longest first */
  PetscCall(fk->rowmax(mb, bptr, &maxlen));
  PetscCall(GPUPCMallocArray(maxlen + 1, &dhist));
  PetscCall(PetscMalloc1(maxlen + 1, &hist));
  PetscCall(fk->rowhistogram(mb, bptr, maxlen, dhist));
  PetscCall(GPUPCCopyToHost(hist, dhist, maxlen + 1));
  bl->maxlen = maxlen;
  bl->minlen = 0;
  for (PetscInt l = 0; l <= maxlen; l++)
    if (hist[l]) {
      bl->minlen = l;
      break;
    }
  if (sort) {
    PetscInt off = 0, cnt;

    PetscCall(GPUPCMallocArray(mb, &order));
    for (PetscInt l = maxlen; l >= 0; l--) {
      if (!hist[l]) continue;
      PetscCall(sk->compact(mb, len, l, order + off, NULL, &cnt, NULL));
      PetscCheck(cnt == hist[l], PETSC_COMM_SELF, PETSC_ERR_PLIB, "bcsr: %" PetscInt_FMT " block rows of %" PetscInt_FMT " blocks listed, %" PetscInt_FMT " counted", cnt, l, hist[l]);
      off += cnt;
    }
  }
  PetscCall(PetscFree(hist));
  PetscCall(GPUPCFree(dhist));
  /* slices: positions, widths, their scan */
  GPUPCBCSRSliceShape(b, mapping, &bl->d.S, &bl->d.lanes);
  bl->mapping   = mapping;
  bl->sorted    = sort;
  bl->nreal     = nreal;
  bl->d.m       = m;
  bl->d.n       = csr->n;
  bl->d.b       = b;
  bl->d.mb      = mb;
  bl->d.nb      = csr->n / b;
  bl->d.nslices = (mb + bl->d.S - 1) / bl->d.S;
  bl->d.nnz     = csr->nnz;
  PetscCall(GPUPCMallocArray(bl->d.nslices + 1, &bl->d.sliceptr));
  PetscCall(GPUPCMallocArray(bl->d.nslices * bl->d.S, &bl->d.blkrow));
  PetscCall(GPUPCMallocArray(mb, &bl->d.rowpos));
  PetscCall(fk->bcsrslices(&bl->d, order, bptr, bl->d.sliceptr + 1));
  PetscCall(sk->rowptr(bl->d.nslices, bl->d.sliceptr, &nblocks, NULL));
  PetscCheck((PetscInt64)nblocks * b * b < PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_SUP, "bcsr: %" PetscInt64_FMT " stored values need more than 32-bit value slots; use more MPI ranks", (PetscInt64)nblocks * b * b);
  bl->d.nblocks = nblocks;
  /* block columns in slice order, the value slot of every entry, the values */
  PetscCall(GPUPCMallocArray(nblocks, &bl->d.bcol));
  PetscCall(GPUPCMallocArray(csr->nnz, &bl->d.pos));
  PetscCall(fk->bcsrfill(&bl->d, rowptr, csr->j, bptr, bc));
  PetscCall(GPUPCMallocArray(nblocks * b * b, &bl->d.val));
  PetscCall(GPUPCMemzero(bl->d.val, (size_t)nblocks * b * b * sizeof(PetscScalar)));
  PetscCall(GPUPCFree(order));
  PetscCall(GPUPCFree(bc));
  PetscCall(GPUPCFree(bptr));
  PetscCall(GPUPCFree(len));
  if (!csr->rowsdevice) PetscCall(GPUPCFree(rowptr));
  PetscFunctionReturn(0);
}

/*
   GPUPCBCSRBlockBuild - (re)builds bl from csr with block size b

   Input Parameters:
+  csr     - the matrix (rows a multiple of b): on the host, or its columns and values on the device (csr->device; its
             row pointers too with csr->rowsdevice), each row's columns then strictly increasing
.  b       - block size, 1..GPUPC_BCSR_MAXB
.  colmap  - column c of csr is column colmap[c] of the block (increasing), or NULL for the identity
.  ncols   - columns of the block (a multiple of b; csr->n without colmap)
.  mapping - slice shape (MatBCSRMapping)
-  sort    - sort block rows by length (longest first, stable)
*/
PetscErrorCode GPUPCBCSRBlockBuild(const GPUPCCSR *csr, PetscInt b, const PetscInt *colmap, PetscInt ncols, MatBCSRMapping mapping, PetscBool sort, GPUPCBCSRBlock *bl)
{
  const PetscInt m = csr->m;
  PetscInt       mb, nb, S, lanes, nslices, *bptr, *bc, *mark, *order, *blkrow, *rowpos, *sliceptr, *bcol, *pos, *count, nreal = 0;
  PetscInt64     nblocks = 0;

  PetscFunctionBegin;
  PetscCheck(!csr->device || !colmap, PETSC_COMM_SELF, PETSC_ERR_SUP, "bcsr: an off-diagonal block (ghost columns) is built from CSR on the host only");
  PetscCheck(!csr->rowsdevice || csr->device, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "bcsr build: row pointers on the device need the columns and values there too");
  PetscCall(GPUPCBCSRCheckBlockSize(b, "MatAssemblyEnd"));
  PetscCheck(m % b == 0 && ncols % b == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "bcsr: a local block of %" PetscInt_FMT " x %" PetscInt_FMT " is not divisible into %" PetscInt_FMT " x %" PetscInt_FMT " blocks; bcsr needs local row and column sizes that are multiples of the block size (set the sizes accordingly, or choose another -mat_bcsr_block_size)", m, ncols, b, b);
  PetscCall(PetscLogEventBegin(MATBCSR_Build, 0, 0, 0, 0));
  PetscCall(GPUPCBCSRBlockDestroy(bl));
  if (csr->device) {
    PetscCall(DeviceLayout(csr, b, mapping, sort, bl));
    PetscCall(LayDeviceValues(csr, bl));
    PetscCall(PetscLogEventEnd(MATBCSR_Build, 0, 0, 0, 0));
    PetscFunctionReturn(0);
  }
  mb = m / b;
  nb = ncols / b;
  GPUPCBCSRSliceShape(b, mapping, &S, &lanes);
  bl->mapping = mapping;
  bl->sorted  = sort;
  /* the block columns of each block row, increasing: count, then fill (mark[J] = last block row that listed J) */
  PetscCall(PetscMalloc2(mb + 1, &bptr, nb, &mark));
  for (PetscInt J = 0; J < nb; J++) mark[J] = -1;
  bptr[0] = 0;
  for (PetscInt br = 0; br < mb; br++) {
    PetscInt len = 0;

    for (PetscInt k = csr->i[br * b]; k < csr->i[br * b + b]; k++) {
      const PetscInt J = Col(colmap, csr->j[k]) / b;

      if (mark[J] != br) {
        mark[J] = br;
        len++;
      }
    }
    bptr[br + 1] = bptr[br] + len;
  }
  nreal = bptr[mb];
  PetscCall(PetscMalloc1(nreal, &bc));
  for (PetscInt J = 0; J < nb; J++) mark[J] = -1;
  for (PetscInt br = 0; br < mb; br++) {
    PetscInt len = 0;

    for (PetscInt k = csr->i[br * b]; k < csr->i[br * b + b]; k++) {
      const PetscInt J = Col(colmap, csr->j[k]) / b;

      if (mark[J] != br) {
        mark[J]              = br;
        bc[bptr[br] + len++] = J;
      }
    }
    PetscCall(PetscSortInt(len, bc + bptr[br]));
  }
  /* sorted order of the block rows: longest first, equal lengths in their order (a counting sort) */
  bl->minlen = mb ? PETSC_MAX_INT : 0;
  bl->maxlen = 0;
  for (PetscInt br = 0; br < mb; br++) {
    bl->minlen = PetscMin(bl->minlen, bptr[br + 1] - bptr[br]);
    bl->maxlen = PetscMax(bl->maxlen, bptr[br + 1] - bptr[br]);
  }
  nslices = (mb + S - 1) / S;
  PetscCall(PetscMalloc4(nslices * S, &order, nslices * S, &blkrow, mb, &rowpos, nslices + 1, &sliceptr));
  if (sort) {
    PetscCall(PetscCalloc1(bl->maxlen + 2, &count));
    for (PetscInt br = 0; br < mb; br++) count[bl->maxlen - (bptr[br + 1] - bptr[br]) + 1]++; /* bucket maxlen - len: longest first */
    for (PetscInt l = 0; l <= bl->maxlen; l++) count[l + 1] += count[l];
    for (PetscInt br = 0; br < mb; br++) order[count[bl->maxlen - (bptr[br + 1] - bptr[br])]++] = br;
    PetscCall(PetscFree(count));
  } else
    for (PetscInt br = 0; br < mb; br++) order[br] = br;
  for (PetscInt p = 0; p < nslices * S; p++) {
    blkrow[p] = p < mb ? order[p] : -1;
    if (p < mb) rowpos[order[p]] = p;
  }
  /* slices: width = the longest block row of the slice */
  sliceptr[0] = 0;
  for (PetscInt s = 0; s < nslices; s++) {
    PetscInt w = 0;

    for (PetscInt r = 0; r < S; r++) {
      const PetscInt br = blkrow[s * S + r];
      if (br >= 0) w = PetscMax(w, bptr[br + 1] - bptr[br]);
    }
    nblocks += (PetscInt64)w * S;
    PetscCheck(nblocks < PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_SUP, "bcsr: a block of %" PetscInt_FMT " block rows needs more than 2^31 stored blocks; use more MPI ranks", mb);
    sliceptr[s + 1] = (PetscInt)nblocks;
  }
  /* block columns in slice order; padding blocks repeat the row's last block column (0 for an empty or padding row) */
  PetscCall(PetscMalloc1(nblocks, &bcol));
  for (PetscInt s = 0; s < nslices; s++) {
    for (PetscInt r = 0; r < S; r++) {
      const PetscInt br  = blkrow[s * S + r];
      const PetscInt len = br >= 0 ? bptr[br + 1] - bptr[br] : 0, pad = len ? bc[bptr[br] + len - 1] : 0;

      for (PetscInt q = sliceptr[s], t = 0; q < sliceptr[s + 1]; q += S, t++) bcol[q + r] = t < len ? bc[bptr[br] + t] : pad;
    }
  }
  /* the value slot of every CSR entry */
  PetscCall(PetscMalloc1(csr->nnz, &pos));
  for (PetscInt row = 0; row < m; row++) {
    const PetscInt br = row / b, i = row % b, p = rowpos[br], s = p / S, r = p % S, len = bptr[br + 1] - bptr[br];

    for (PetscInt k = csr->i[row]; k < csr->i[row + 1]; k++) {
      const PetscInt col = Col(colmap, csr->j[k]);
      PetscInt       t;

      PetscCall(PetscFindInt(col / b, len, bc + bptr[br], &t));
      PetscCheck(t >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "bcsr: block column %" PetscInt_FMT " of row %" PetscInt_FMT " not listed", col / b, row);
      pos[k] = (PetscInt)GPUPCBCSRSlot(sliceptr[s] + t * S, S, b, r, i, col % b);
    }
  }
  bl->nreal     = nreal;
  bl->d.m       = m;
  bl->d.n       = ncols;
  bl->d.b       = b;
  bl->d.mb      = mb;
  bl->d.nb      = nb;
  bl->d.S       = S;
  bl->d.lanes   = lanes;
  bl->d.nslices = nslices;
  bl->d.nblocks = (PetscInt)nblocks;
  bl->d.nnz     = csr->nnz;
  PetscCheck(nblocks * b * b < PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_SUP, "bcsr: %" PetscInt64_FMT " stored values need more than 32-bit value slots; use more MPI ranks", nblocks * b * b);
  PetscCall(GPUPCMallocArray(nslices + 1, &bl->d.sliceptr));
  PetscCall(GPUPCMallocArray(nslices * S, &bl->d.blkrow));
  PetscCall(GPUPCMallocArray(mb, &bl->d.rowpos));
  PetscCall(GPUPCMallocArray(nblocks, &bl->d.bcol));
  PetscCall(GPUPCMallocArray(nblocks * b * b, &bl->d.val));
  PetscCall(GPUPCMallocArray(csr->nnz, &bl->d.pos));
  PetscCall(GPUPCCopyToDevice(bl->d.sliceptr, sliceptr, nslices + 1));
  PetscCall(GPUPCCopyToDevice(bl->d.blkrow, blkrow, nslices * S));
  PetscCall(GPUPCCopyToDevice(bl->d.rowpos, rowpos, mb));
  PetscCall(GPUPCCopyToDevice(bl->d.bcol, bcol, nblocks));
  PetscCall(GPUPCCopyToDevice(bl->d.pos, pos, csr->nnz));
  PetscCall(GPUPCMemzero(bl->d.val, (size_t)nblocks * b * b * sizeof(PetscScalar)));
  PetscCall(LayValues(csr, bl)); /* the same path as a value update */
  PetscCall(PetscFree(pos));
  PetscCall(PetscFree(bcol));
  PetscCall(PetscFree4(order, blkrow, rowpos, sliceptr));
  PetscCall(PetscFree(bc));
  PetscCall(PetscFree2(bptr, mark));
  PetscCall(PetscLogEventEnd(MATBCSR_Build, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* GPUPCBCSRBlockUploadValues - same nonzero pattern, new values: the nnz CSR values go to the device once (or are
   there already: csr->device) and are laid into their slots there (no host re-layout) */
PetscErrorCode GPUPCBCSRBlockUploadValues(const GPUPCCSR *csr, GPUPCBCSRBlock *bl)
{
  PetscFunctionBegin;
  PetscCheck(csr->m == bl->d.m && csr->nnz == bl->d.nnz, PETSC_COMM_SELF, PETSC_ERR_PLIB, "bcsr value update: the block has %" PetscInt_FMT " rows and %" PetscInt_FMT " nonzeros, the matrix %" PetscInt_FMT " and %" PetscInt_FMT "; the pattern changed without a rebuild", bl->d.m, bl->d.nnz, csr->m, csr->nnz);
  PetscCall(PetscLogEventBegin(MATBCSR_Upload, 0, 0, 0, 0));
  if (csr->device) PetscCall(LayDeviceValues(csr, bl));
  else PetscCall(LayValues(csr, bl));
  PetscCall(PetscLogEventEnd(MATBCSR_Upload, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* ASCII statistics of one block: block size, density of the stored blocks, padding; sync: every rank prints (inside
   PetscViewerASCIIPushSynchronized) */
PetscErrorCode GPUPCBCSRBlockView(const GPUPCBCSRBlock *bl, const char *name, PetscBool sync, PetscViewer viewer)
{
  const GPUPCBCSRDev *d                                   = &bl->d;
  const PetscInt64    bb                                  = (PetscInt64)d->b * d->b;
  PetscErrorCode (*print)(PetscViewer, const char[], ...) = sync ? PetscViewerASCIISynchronizedPrintf : PetscViewerASCIIPrintf;

  PetscFunctionBegin;
  PetscCall(print(viewer, "%s: %" PetscInt_FMT " x %" PetscInt_FMT ", block size %" PetscInt_FMT ", %" PetscInt_FMT " nonzeros in %" PetscInt_FMT " blocks: block density %.3g (stored zeros inside blocks: %.3g per nonzero)\n", name, d->m, d->n, d->b, d->nnz, bl->nreal, bl->nreal ? (double)d->nnz / (double)(bl->nreal * bb) : 1.0,
                  d->nnz ? (double)(bl->nreal * bb - d->nnz) / (double)d->nnz : 0.0));
  PetscCall(print(viewer, "%s: %" PetscInt_FMT " slices of %" PetscInt_FMT " block rows (%s mapping, %" PetscInt_FMT " lanes each), block rows %s; %" PetscInt_FMT " padding blocks (%.3g of the stored blocks); blocks per block row min %" PetscInt_FMT " mean %.3g max %" PetscInt_FMT "\n", name, d->nslices, d->S,
                  MatBCSRMappings[bl->mapping], d->lanes, bl->sorted ? "sorted by length" : "in their order", d->nblocks - bl->nreal, d->nblocks ? (double)(d->nblocks - bl->nreal) / (double)d->nblocks : 0.0, bl->minlen, d->mb ? (double)bl->nreal / (double)d->mb : 0.0, bl->maxlen));
  PetscCall(print(viewer, "%s: stored values per nonzero %.3g (1 = no padding, no stored zeros)\n", name, d->nnz ? (double)(d->nblocks * bb) / (double)d->nnz : 0.0));
  PetscFunctionReturn(0);
}

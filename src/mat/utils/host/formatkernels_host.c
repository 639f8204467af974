/*
   Host reference implementation of the format-build kernels (gpupc/formatkernels.h): row by row.
*/
#include <gpupc/formatkernels.h>

static PetscErrorCode SegCSRColumns_Host(const GPUPCSegCSRDev *A, const PetscInt *j, PetscInt *col)
{
  for (PetscInt i = 0; i < A->m; i++) {
    const PetscInt k0 = A->rowptr[i], len = A->rowptr[i + 1] - k0, pad = len ? j[k0 + len - 1] : 0;
    const PetscInt s0 = A->segptr[i] * A->L, s1 = A->segptr[i + 1] * A->L;

    for (PetscInt s = s0; s < s1; s++) col[s] = s - s0 < len ? j[k0 + s - s0] : pad;
  }
  return 0;
}

static PetscErrorCode HECColumns_Host(const GPUPCHECDev *A, const PetscInt *j, PetscInt *ellcol, PetscInt *remcol)
{
  for (PetscInt i = 0; i < A->stride; i++) {
    const PetscInt k0 = i < A->m ? A->rowptr[i] : 0, len = i < A->m ? A->rowptr[i + 1] - k0 : 0, pad = i < A->n ? i : 0;

    for (PetscInt p = 0; p < A->K; p++) ellcol[(size_t)p * A->stride + i] = p < len && len <= A->K ? j[k0 + p] : pad;
  }
  for (PetscInt i = 0; i < A->m; i++) {
    const PetscInt k0 = A->rowptr[i], len = A->rowptr[i + 1] - k0;

    if (len <= A->K) continue;
    for (PetscInt q = 0; q < len; q++) remcol[(size_t)A->rembase[i] + (size_t)q * A->remstep[i]] = j[k0 + q];
  }
  return 0;
}

static PetscErrorCode RowMax_Host(PetscInt m, const PetscInt *rowptr, PetscInt *maxlen)
{
  *maxlen = 0;
  for (PetscInt i = 0; i < m; i++) *maxlen = PetscMax(*maxlen, rowptr[i + 1] - rowptr[i]);
  return 0;
}

static PetscErrorCode RowHistogram_Host(PetscInt m, const PetscInt *rowptr, PetscInt maxlen, PetscInt *count)
{
  for (PetscInt len = 0; len <= maxlen; len++) count[len] = 0;
  for (PetscInt i = 0; i < m; i++) count[rowptr[i + 1] - rowptr[i]]++;
  return 0;
}

static PetscErrorCode RowLengths_Host(PetscInt n, const PetscInt *rows, const PetscInt *ptr, PetscInt *len)
{
  for (PetscInt p = 0; p < n; p++) len[p] = ptr[rows[p] + 1] - ptr[rows[p]];
  return 0;
}

static PetscErrorCode SegCSRCount_Host(PetscInt m, const PetscInt *rowptr, PetscInt L, PetscInt *cnt, PetscInt stats[3])
{
  stats[0] = PETSC_MAX_INT;
  stats[1] = stats[2] = 0;
  for (PetscInt i = 0; i < m; i++) {
    const PetscInt len = rowptr[i + 1] - rowptr[i], s = len ? (len + L - 1) / L : 1;

    cnt[i]   = s;
    stats[0] = PetscMin(stats[0], s);
    stats[1] = PetscMax(stats[1], s);
    stats[2] = PetscMax(stats[2], len);
  }
  return 0;
}

static PetscErrorCode SegCSRSegRow_Host(const GPUPCSegCSRDev *A)
{
  for (PetscInt i = 0; i < A->m; i++)
    for (PetscInt g = A->segptr[i]; g < A->segptr[i + 1]; g++) A->segrow[g] = i;
  return 0;
}

static PetscErrorCode SegCSRBins_Host(const GPUPCSegCSRDev *A, PetscInt *bin, PetscInt counts[2])
{
  counts[0] = counts[1] = 0;
  for (PetscInt i = 0; i < A->m; i++) {
    bin[i] = (PetscInt)GPUPCSegCSRRowBin(A->segptr[i + 1] - A->segptr[i], A->L, A->shortmax);
    counts[0] += bin[i] == GPUPC_SEGCSR_BIN_MEDIUM;
    counts[1] += bin[i] == GPUPC_SEGCSR_BIN_LONG;
  }
  return 0;
}

static PetscErrorCode SegCSRBusy_Host(const GPUPCSegCSRDev *A, PetscInt64 sums[2])
{
  const PetscInt groups = 32 / A->L;

  sums[0] = sums[1] = 0;
  for (PetscInt w = 0; w < A->m; w += groups) {
    PetscInt longest = 0;

    for (PetscInt i = w; i < PetscMin(A->m, w + groups); i++) {
      const PetscInt s = A->segptr[i + 1] - A->segptr[i];

      if (GPUPCSegCSRRowBin(s, A->L, A->shortmax) != GPUPC_SEGCSR_BIN_SHORT) continue;
      sums[0] += s;
      longest = PetscMax(longest, s);
    }
    sums[1] += (PetscInt64)longest * PetscMin(groups, A->m - w);
  }
  return 0;
}

static PetscErrorCode HECClass_Host(const GPUPCHECDev *A, PetscInt *cls)
{
  for (PetscInt t = 0; t < 32 * A->slabwarp[A->nslab]; t++) A->slabrows[t] = -1;
  for (PetscInt i = 0; i < A->m; i++) {
    const PetscInt    len = A->rowptr[i + 1] - A->rowptr[i];
    const GPUPCHECBin bin = GPUPCHECRowBin(len - A->K);

    cls[i] = bin == GPUPC_HEC_BIN_ELL ? -1 : A->nslab;
    if (bin == GPUPC_HEC_BIN_SLAB)
      for (PetscInt g = 0; g < A->nslab; g++)
        if (A->slablen[g] == len) cls[i] = g;
  }
  return 0;
}

static PetscErrorCode HECFill_Host(const GPUPCHECDev *A, const PetscInt *longlist, const PetscInt *longoff)
{
  for (PetscInt i = 0; i < A->m; i++) {
    const PetscInt len = A->rowptr[i + 1] - A->rowptr[i];

    GPUPCHECSetEllLength(A->K, A->ellen, i, len <= A->K ? len : -1);
    A->rembase[i] = A->remstep[i] = 0;
  }
  for (PetscInt g = 0; g < A->nslab; g++) {
    const PetscInt gstride = 32 * (A->slabwarp[g + 1] - A->slabwarp[g]);

    for (PetscInt t = 0; t < gstride; t++) {
      const PetscInt i = A->slabrows[32 * A->slabwarp[g] + t];

      if (i >= 0) {
        A->rembase[i] = A->slabstart[g] + t;
        A->remstep[i] = gstride;
      }
      for (PetscInt q = 0; q < A->slablen[g]; q++) A->remrow[A->slabstart[g] + q * gstride + t] = i;
    }
  }
  for (PetscInt p = 0; p < A->nlong; p++) {
    const PetscInt i = longlist[p];

    A->rembase[i] = A->nslabslots + longoff[p];
    A->remstep[i] = 1;
    for (PetscInt q = longoff[p]; q < longoff[p + 1]; q++) A->remrow[A->nslabslots + q] = i;
  }
  return 0;
}

static PetscErrorCode BCSRCount_Host(PetscInt mb, PetscInt b, PetscInt n, const PetscInt *rowptr, const PetscInt *j, PetscInt *cnt, PetscInt64 stats[2])
{
  stats[0] = 0;
  stats[1] = -1;
  for (PetscInt br = 0; br < mb; br++) {
    for (PetscInt row = br * b; row < br * b + b && stats[1] < 0; row++)
      for (PetscInt k = rowptr[row]; k < rowptr[row + 1]; k++)
        if (j[k] < 0 || j[k] >= n || (k > rowptr[row] && j[k] <= j[k - 1])) {
          stats[1] = row;
          break;
        }
    cnt[br] = GPUPCBCSRMergeBlockRow(br, b, rowptr, j, NULL);
    stats[0] += cnt[br];
  }
  return 0;
}

static PetscErrorCode BCSRColumns_Host(PetscInt mb, PetscInt b, const PetscInt *rowptr, const PetscInt *j, const PetscInt *bptr, PetscInt *bc)
{
  for (PetscInt br = 0; br < mb; br++) (void)GPUPCBCSRMergeBlockRow(br, b, rowptr, j, bc + bptr[br]);
  return 0;
}

static PetscErrorCode BCSRSlices_Host(const GPUPCBCSRDev *A, const PetscInt *order, const PetscInt *bptr, PetscInt *width)
{
  for (PetscInt p = 0; p < A->nslices * A->S; p++) {
    const PetscInt br = p < A->mb ? (order ? order[p] : p) : -1;

    A->blkrow[p] = br;
    if (br >= 0) A->rowpos[br] = p;
  }
  for (PetscInt s = 0; s < A->nslices; s++) {
    PetscInt w = 0;

    for (PetscInt p = s * A->S; p < PetscMin(A->mb, (s + 1) * A->S); p++) {
      const PetscInt br = order ? order[p] : p;

      w = PetscMax(w, bptr[br + 1] - bptr[br]);
    }
    width[s] = w * A->S;
  }
  return 0;
}

static PetscErrorCode BCSRFill_Host(const GPUPCBCSRDev *A, const PetscInt *rowptr, const PetscInt *j, const PetscInt *bptr, const PetscInt *bc)
{
  const PetscInt S = A->S, b = A->b;

  for (PetscInt p = 0; p < A->nslices * S; p++) {
    const PetscInt s = p / S, r = p % S, br = A->blkrow[p];
    const PetscInt len = br >= 0 ? bptr[br + 1] - bptr[br] : 0, pad = len ? bc[bptr[br] + len - 1] : 0;

    for (PetscInt q = A->sliceptr[s], t = 0; q < A->sliceptr[s + 1]; q += S, t++) A->bcol[q + r] = t < len ? bc[bptr[br] + t] : pad;
  }
  for (PetscInt row = 0; row < A->mb * b; row++) {
    const PetscInt br = row / b, i = row % b, p = A->rowpos[br], s = p / S, r = p % S;

    for (PetscInt k = rowptr[row]; k < rowptr[row + 1]; k++) {
      const PetscInt t = GPUPCBCSRFindBlock(j[k] / b, bptr[br + 1] - bptr[br], bc + bptr[br]);

      A->pos[k] = (PetscInt)GPUPCBCSRSlot(A->sliceptr[s] + t * S, S, b, r, i, j[k] % b);
    }
  }
  return 0;
}

/* the table: every member's Stem_Host from GPUPC_FORMAT_KERNEL_LIST, by name (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_DEFINE(GPUPCFormatKernels, GPUPCFormatKernelsHost, GPUPC_FORMAT_KERNEL_LIST, "host", _Host);

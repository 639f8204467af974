/*
   CUDA implementation of the format-build kernels (gpupc/formatkernels.h): one thread per slot, so that the writes of a
   warp are one coalesced run; the columns are read through the read-only cache.

   segcsr: slot s is in segment s / L of row segrow[s / L]; hec: ELL slot t = p * stride + i is entry p of row i, and a
   remainder slot r belongs to row remrow[r] (-1: slab padding, skipped) at entry (r - rembase) / remstep.
*/
#include <gpupc/devscalar.h>
#include <gpupc/cuda.h>
#include <gpupc/formatkernels.h>
#include <cub/cub.cuh>
#include <climits>

#define BLOCK           256
#define GRID_LOOP(k, n) for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < (long long)(n); k += (long long)gridDim.x * blockDim.x)

/* row-length histogram: lengths below this are counted in shared memory first (one global add per block and length) */
#define HIST_SHARED 1024

__global__ void SegCSRColumnsKernel(int nslots, int L, const PetscInt *__restrict__ segptr, const PetscInt *__restrict__ segrow, const PetscInt *__restrict__ rowptr, const PetscInt *__restrict__ j, PetscInt *__restrict__ col)
{
  for (int s = blockIdx.x * blockDim.x + threadIdx.x; s < nslots; s += gridDim.x * blockDim.x) {
    const int i = segrow[s / L], k0 = rowptr[i], len = rowptr[i + 1] - k0, q = s - segptr[i] * L;

    col[s] = q < len ? __ldg(j + k0 + q) : (len ? __ldg(j + k0 + len - 1) : 0);
  }
}

__global__ void HECEllColumnsKernel(int nslots, int stride, int m, int n, int K, const PetscInt *__restrict__ rowptr, const PetscInt *__restrict__ j, PetscInt *__restrict__ ellcol)
{
  for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < nslots; t += gridDim.x * blockDim.x) {
    const int p = t / stride, i = t - p * stride;
    const int k0 = i < m ? rowptr[i] : 0, len = i < m ? rowptr[i + 1] - k0 : 0;

    ellcol[t] = p < len && len <= K ? __ldg(j + k0 + p) : (i < n ? i : 0);
  }
}

__global__ void HECRemColumnsKernel(int nslots, const PetscInt *__restrict__ remrow, const PetscInt *__restrict__ rembase, const PetscInt *__restrict__ remstep, const PetscInt *__restrict__ rowptr, const PetscInt *__restrict__ j, PetscInt *__restrict__ remcol)
{
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < nslots; r += gridDim.x * blockDim.x) {
    const int i = remrow[r];

    if (i < 0) continue;
    remcol[r] = __ldg(j + rowptr[i] + (r - rembase[i]) / remstep[i]);
  }
}

static PetscErrorCode SegCSRColumns_CUDA(const GPUPCSegCSRDev *A, const PetscInt *j, PetscInt *col)
{
  const PetscInt64 nslots = (PetscInt64)A->nseg * A->L;

  PetscFunctionBegin;
  if (nslots <= 0) PetscFunctionReturn(0);
  SegCSRColumnsKernel<<<GPUPCCUDAGridSize((PetscInt)nslots, BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>((int)nslots, (int)A->L, A->segptr, A->segrow, A->rowptr, j, col);
  GPUPCCheckLaunch("SegCSRColumnsKernel");
  PetscFunctionReturn(0);
}

static PetscErrorCode HECColumns_CUDA(const GPUPCHECDev *A, const PetscInt *j, PetscInt *ellcol, PetscInt *remcol)
{
  const PetscInt64 nell = (PetscInt64)A->K * A->stride;

  PetscFunctionBegin;
  if (nell > 0) {
    HECEllColumnsKernel<<<GPUPCCUDAGridSize((PetscInt)nell, BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>((int)nell, (int)A->stride, (int)A->m, (int)A->n, (int)A->K, A->rowptr, j, ellcol);
    GPUPCCheckLaunch("HECEllColumnsKernel");
  }
  if (A->nremslots > 0) {
    HECRemColumnsKernel<<<GPUPCCUDAGridSize(A->nremslots, BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>((int)A->nremslots, A->remrow, A->rembase, A->remstep, A->rowptr, j, remcol);
    GPUPCCheckLaunch("HECRemColumnsKernel");
  }
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- structure from the row pointers */

/* the reduction operators (the project's own: CUB's Max and Min functors are deprecated in CCCL 3) */
struct MaxOp {
  __device__ __forceinline__ int operator()(int a, int b) const { return a > b ? a : b; }
};
struct MinOp {
  __device__ __forceinline__ int operator()(int a, int b) const { return a < b ? a : b; }
};

/* the device scalars of a reduction: four ints and two 64-bit sums, reset before and copied down after */
typedef struct {
  int                v[4];
  unsigned long long s[2];
} Reduced;

/* a Reduced in a slot of the device scalar pool (gpupc/devscalar.h), set to v0..v3 and zero sums: no allocation */
static PetscErrorCode ReducedStart(GPUPCDevScalar *slot, Reduced **dr, int v0, int v1, int v2, int v3)
{
  Reduced h;

  PetscFunctionBegin;
  static_assert(sizeof(Reduced) <= GPUPC_DEVSCALAR_BYTES, "a Reduced fits a device scalar slot");
  PetscCall(PetscMemzero(&h, sizeof(h)));
  h.v[0] = v0;
  h.v[1] = v1;
  h.v[2] = v2;
  h.v[3] = v3;
  PetscCall(GPUPCDevScalarGet(&h, sizeof(h), slot));
  *dr = (Reduced *)slot->d;
  PetscFunctionReturn(0);
}

/* its values on the host (one copy, one wait); gives the slot back */
static PetscErrorCode ReducedFinish(GPUPCDevScalar *slot, Reduced *h)
{
  PetscFunctionBegin;
  PetscCall(GPUPCDevScalarRead(slot, h, sizeof(*h)));
  PetscFunctionReturn(0);
}

__global__ void __launch_bounds__(BLOCK) RowMaxKernel(int m, const PetscInt *__restrict__ rowptr, Reduced *r)
{
  typedef cub::BlockReduce<int, BLOCK>    Reduce;
  __shared__ typename Reduce::TempStorage rs;
  int                                     mx = 0;

  GRID_LOOP(i, m)
  mx = max(mx, rowptr[i + 1] - rowptr[i]);
  mx = Reduce(rs).Reduce(mx, MaxOp());
  if (threadIdx.x == 0) atomicMax(&r->v[0], mx);
}

static PetscErrorCode RowMax_CUDA(PetscInt m, const PetscInt *rowptr, PetscInt *maxlen)
{
  Reduced       *dr = NULL, h;
  GPUPCDevScalar slot;

  PetscFunctionBegin;
  *maxlen = 0;
  if (m <= 0) PetscFunctionReturn(0);
  PetscCall(ReducedStart(&slot, &dr, 0, 0, 0, 0));
  RowMaxKernel<<<GPUPCCUDAGridSize(m, BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>((int)m, rowptr, dr);
  GPUPCCheckLaunch("RowMaxKernel");
  PetscCall(ReducedFinish(&slot, &h));
  *maxlen = h.v[0];
  PetscFunctionReturn(0);
}

/* the short lengths in a block's shared histogram (a row length repeats across the rows: global atomics on one
   counter would serialise), the others straight into the global one */
__global__ void __launch_bounds__(BLOCK) RowHistogramKernel(int m, const PetscInt *__restrict__ rowptr, int maxlen, PetscInt *count)
{
  __shared__ int sh[HIST_SHARED];
  const int      nsh = min(maxlen + 1, HIST_SHARED);

  for (int t = threadIdx.x; t < nsh; t += blockDim.x) sh[t] = 0;
  __syncthreads();
  GRID_LOOP(i, m)
  {
    const int len = rowptr[i + 1] - rowptr[i];

    if (len < nsh) atomicAdd(&sh[len], 1);
    else atomicAdd(&count[len], 1);
  }
  __syncthreads();
  for (int t = threadIdx.x; t < nsh; t += blockDim.x)
    if (sh[t]) atomicAdd(&count[t], sh[t]);
}

static PetscErrorCode RowHistogram_CUDA(PetscInt m, const PetscInt *rowptr, PetscInt maxlen, PetscInt *count)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMemzero(count, (size_t)(maxlen + 1) * sizeof(PetscInt)));
  if (m <= 0) PetscFunctionReturn(0);
  RowHistogramKernel<<<GPUPCCUDAGridSize(m, BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>((int)m, rowptr, (int)maxlen, count);
  GPUPCCheckLaunch("RowHistogramKernel");
  PetscFunctionReturn(0);
}

__global__ void RowLengthsKernel(int n, const PetscInt *__restrict__ rows, const PetscInt *__restrict__ ptr, PetscInt *__restrict__ len)
{
  GRID_LOOP(p, n)
  {
    const int i = rows[p];
    len[p]      = ptr[i + 1] - ptr[i];
  }
}

static PetscErrorCode RowLengths_CUDA(PetscInt n, const PetscInt *rows, const PetscInt *ptr, PetscInt *len)
{
  PetscFunctionBegin;
  if (n <= 0) PetscFunctionReturn(0);
  RowLengthsKernel<<<GPUPCCUDAGridSize(n, BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>((int)n, rows, ptr, len);
  GPUPCCheckLaunch("RowLengthsKernel");
  PetscFunctionReturn(0);
}

__global__ void __launch_bounds__(BLOCK) SegCSRCountKernel(int m, const PetscInt *__restrict__ rowptr, int L, PetscInt *__restrict__ cnt, Reduced *r)
{
  typedef cub::BlockReduce<int, BLOCK>    Reduce;
  __shared__ typename Reduce::TempStorage rs;
  int                                     mn = INT_MAX, mx = 0, rm = 0;

  GRID_LOOP(i, m)
  {
    const int len = rowptr[i + 1] - rowptr[i], s = len ? (len + L - 1) / L : 1;

    cnt[i] = s;
    mn     = min(mn, s);
    mx     = max(mx, s);
    rm     = max(rm, len);
  }
  mn = Reduce(rs).Reduce(mn, MinOp());
  __syncthreads();
  mx = Reduce(rs).Reduce(mx, MaxOp());
  __syncthreads();
  rm = Reduce(rs).Reduce(rm, MaxOp());
  if (threadIdx.x == 0) {
    atomicMin(&r->v[0], mn);
    atomicMax(&r->v[1], mx);
    atomicMax(&r->v[2], rm);
  }
}

static PetscErrorCode SegCSRCount_CUDA(PetscInt m, const PetscInt *rowptr, PetscInt L, PetscInt *cnt, PetscInt stats[3])
{
  Reduced       *dr = NULL, h;
  GPUPCDevScalar slot;

  PetscFunctionBegin;
  stats[0] = PETSC_MAX_INT;
  stats[1] = stats[2] = 0;
  if (m <= 0) PetscFunctionReturn(0);
  PetscCall(ReducedStart(&slot, &dr, INT_MAX, 0, 0, 0));
  SegCSRCountKernel<<<GPUPCCUDAGridSize(m, BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>((int)m, rowptr, (int)L, cnt, dr);
  GPUPCCheckLaunch("SegCSRCountKernel");
  PetscCall(ReducedFinish(&slot, &h));
  stats[0] = h.v[0];
  stats[1] = h.v[1];
  stats[2] = h.v[2];
  PetscFunctionReturn(0);
}

/* segrow: every row's first segment gets the row, every other segment 0; an inclusive max-scan then carries each
   row to its other segments (a row has at least one segment, so the first segments are distinct) and keeps the work
   even when one row has a million segments */
__global__ void SegRowStartsKernel(int m, const PetscInt *__restrict__ segptr, PetscInt *__restrict__ segrow)
{
  GRID_LOOP(i, m)
  segrow[segptr[i]] = (int)i;
}

static PetscErrorCode SegCSRSegRow_CUDA(const GPUPCSegCSRDev *A)
{
  cudaStream_t s     = GPUPCCUDAStream();
  size_t       bytes = 0;
  void        *tmp   = NULL;
  cudaError_t  err;

  PetscFunctionBegin;
  if (A->m <= 0 || A->nseg <= 0) PetscFunctionReturn(0);
  PetscCall(GPUPCMemzero(A->segrow, (size_t)A->nseg * sizeof(PetscInt)));
  SegRowStartsKernel<<<GPUPCCUDAGridSize(A->m, BLOCK), BLOCK, 0, s>>>((int)A->m, A->segptr, A->segrow);
  GPUPCCheckLaunch("SegRowStartsKernel");
  err = cub::DeviceScan::InclusiveScan(NULL, bytes, A->segrow, A->segrow, MaxOp(), (int)A->nseg, s);
  PetscCheck(err == cudaSuccess, PETSC_COMM_SELF, PETSC_ERR_GPU, "CUB DeviceScan::InclusiveScan (segrow, sizing) failed: %s", cudaGetErrorString(err));
  PetscCall(GPUPCMalloc(PetscMax(bytes, (size_t)16), &tmp));
  err = cub::DeviceScan::InclusiveScan(tmp, bytes, A->segrow, A->segrow, MaxOp(), (int)A->nseg, s);
  PetscCall(GPUPCFree(tmp));
  PetscCheck(err == cudaSuccess, PETSC_COMM_SELF, PETSC_ERR_GPU, "CUB DeviceScan::InclusiveScan (segrow) failed: %s", cudaGetErrorString(err));
  PetscFunctionReturn(0);
}

/* the block's sums of a and b added to *da and *db (one atomic each, none for a zero sum) */
template <typename T>
__device__ void BlockSumsTo(T a, T b, T *da, T *db)
{
  typedef cub::BlockReduce<T, BLOCK>      Reduce;
  __shared__ typename Reduce::TempStorage rs;

  a = Reduce(rs).Sum(a);
  __syncthreads();
  b = Reduce(rs).Sum(b);
  if (threadIdx.x == 0) {
    if (a) atomicAdd(da, a);
    if (b) atomicAdd(db, b);
  }
}

__global__ void __launch_bounds__(BLOCK) SegCSRBinsKernel(int m, const PetscInt *__restrict__ segptr, int L, int shortmax, PetscInt *__restrict__ bin, Reduced *r)
{
  int med = 0, lng = 0;

  GRID_LOOP(i, m)
  {
    const GPUPCSegCSRBin b = GPUPCSegCSRRowBin(segptr[i + 1] - segptr[i], L, shortmax);

    bin[i] = (int)b;
    med += b == GPUPC_SEGCSR_BIN_MEDIUM;
    lng += b == GPUPC_SEGCSR_BIN_LONG;
  }
  BlockSumsTo(med, lng, &r->v[0], &r->v[1]);
}

static PetscErrorCode SegCSRBins_CUDA(const GPUPCSegCSRDev *A, PetscInt *bin, PetscInt counts[2])
{
  Reduced       *dr = NULL, h;
  GPUPCDevScalar slot;

  PetscFunctionBegin;
  counts[0] = counts[1] = 0;
  if (A->m <= 0) PetscFunctionReturn(0);
  PetscCall(ReducedStart(&slot, &dr, 0, 0, 0, 0));
  SegCSRBinsKernel<<<GPUPCCUDAGridSize(A->m, BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>((int)A->m, A->segptr, (int)A->L, (int)A->shortmax, bin, dr);
  GPUPCCheckLaunch("SegCSRBinsKernel");
  PetscCall(ReducedFinish(&slot, &h));
  counts[0] = h.v[0];
  counts[1] = h.v[1];
  PetscFunctionReturn(0);
}

/* a thread per warp of the short bin (groups consecutive rows), as GroupBusy in segcsrbuild.c */
__global__ void __launch_bounds__(BLOCK) SegCSRBusyKernel(int m, const PetscInt *__restrict__ segptr, int L, int shortmax, Reduced *r)
{
  const int          groups = 32 / L, nw = (m + groups - 1) / groups;
  unsigned long long busy = 0, held = 0;

  GRID_LOOP(wi, nw)
  {
    const int w = (int)wi * groups, e = min(m, w + groups);
    int       longest = 0;

    for (int i = w; i < e; i++) {
      const int s = segptr[i + 1] - segptr[i];

      if (GPUPCSegCSRRowBin(s, L, shortmax) != GPUPC_SEGCSR_BIN_SHORT) continue;
      busy += (unsigned long long)s;
      longest = max(longest, s);
    }
    held += (unsigned long long)longest * (unsigned long long)(e - w);
  }
  BlockSumsTo(busy, held, &r->s[0], &r->s[1]);
}

static PetscErrorCode SegCSRBusy_CUDA(const GPUPCSegCSRDev *A, PetscInt64 sums[2])
{
  Reduced       *dr = NULL, h;
  GPUPCDevScalar slot;

  PetscFunctionBegin;
  sums[0] = sums[1] = 0;
  if (A->m <= 0) PetscFunctionReturn(0);
  PetscCall(ReducedStart(&slot, &dr, 0, 0, 0, 0));
  SegCSRBusyKernel<<<GPUPCCUDAGridSize((A->m + 32 / A->L - 1) / (32 / A->L), BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>((int)A->m, A->segptr, (int)A->L, (int)A->shortmax, dr);
  GPUPCCheckLaunch("SegCSRBusyKernel");
  PetscCall(ReducedFinish(&slot, &h));
  sums[0] = (PetscInt64)h.s[0];
  sums[1] = (PetscInt64)h.s[1];
  PetscFunctionReturn(0);
}

/* the HEC description goes to the kernels by value (its slab tables are small fixed arrays) */
__global__ void HECClassKernel(GPUPCHECDev A, PetscInt *__restrict__ cls)
{
  GRID_LOOP(t, 32 * A.slabwarp[A.nslab])
  A.slabrows[t] = -1;
  GRID_LOOP(i, A.m)
  {
    const int         len = A.rowptr[i + 1] - A.rowptr[i];
    const GPUPCHECBin bin = GPUPCHECRowBin(len - A.K);
    int               c   = bin == GPUPC_HEC_BIN_ELL ? -1 : A.nslab;

    if (bin == GPUPC_HEC_BIN_SLAB)
      for (int g = 0; g < A.nslab; g++)
        if (A.slablen[g] == len) c = g;
    cls[i] = c;
  }
}

static PetscErrorCode HECClass_CUDA(const GPUPCHECDev *A, PetscInt *cls)
{
  const PetscInt n = PetscMax(A->m, 32 * A->slabwarp[A->nslab]);

  PetscFunctionBegin;
  if (n <= 0) PetscFunctionReturn(0);
  HECClassKernel<<<GPUPCCUDAGridSize(n, BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>(*A, cls);
  GPUPCCheckLaunch("HECClassKernel");
  PetscFunctionReturn(0);
}

/* ellen of every row, and rembase = remstep = 0 (the rows outside the ELL part get theirs below) */
__global__ void HECEllenKernel(GPUPCHECDev A)
{
  GRID_LOOP(i, A.m)
  {
    const int len = A.rowptr[i + 1] - A.rowptr[i];

    GPUPCHECSetEllLength(A.K, A.ellen, (PetscInt)i, len <= A.K ? len : -1);
    A.rembase[i] = 0;
    A.remstep[i] = 0;
  }
}

/* a thread per slab lane: its row's base and step, and remrow of its slablen slots (-1 on a padding lane) */
__global__ void HECSlabKernel(GPUPCHECDev A)
{
  GRID_LOOP(lane, 32 * A.slabwarp[A.nslab])
  {
    int g = 0;

    while (32 * A.slabwarp[g + 1] <= lane) g++;
    {
      const int gstride = 32 * (A.slabwarp[g + 1] - A.slabwarp[g]), t = (int)lane - 32 * A.slabwarp[g], i = A.slabrows[lane];

      if (i >= 0) {
        A.rembase[i] = A.slabstart[g] + t;
        A.remstep[i] = gstride;
      }
      for (int q = 0; q < A.slablen[g]; q++) A.remrow[A.slabstart[g] + q * gstride + t] = i;
    }
  }
}

__global__ void HECLongBaseKernel(GPUPCHECDev A, const PetscInt *__restrict__ longlist, const PetscInt *__restrict__ longoff)
{
  GRID_LOOP(p, A.nlong)
  {
    const int i  = longlist[p];
    A.rembase[i] = A.nslabslots + longoff[p];
    A.remstep[i] = 1;
  }
}

/* a thread per CSR remainder slot: the long row holding it, by a search of longoff (a row may be very long) */
__global__ void HECLongRowsKernel(GPUPCHECDev A, const PetscInt *__restrict__ longlist, const PetscInt *__restrict__ longoff)
{
  GRID_LOOP(q, A.nremslots - A.nslabslots)
  {
    int lo = 0, hi = A.nlong; /* the last p with longoff[p] <= q */

    while (hi - lo > 1) {
      const int mid = lo + (hi - lo) / 2;
      if (longoff[mid] <= q) lo = mid;
      else hi = mid;
    }
    A.remrow[A.nslabslots + q] = longlist[lo];
  }
}

static PetscErrorCode HECFill_CUDA(const GPUPCHECDev *A, const PetscInt *longlist, const PetscInt *longoff)
{
  const cudaStream_t s     = GPUPCCUDAStream();
  const PetscInt     lanes = 32 * A->slabwarp[A->nslab], ncsr = A->nremslots - A->nslabslots;

  PetscFunctionBegin;
  if (A->m > 0) {
    HECEllenKernel<<<GPUPCCUDAGridSize(A->m, BLOCK), BLOCK, 0, s>>>(*A);
    GPUPCCheckLaunch("HECEllenKernel");
  }
  if (lanes > 0) {
    HECSlabKernel<<<GPUPCCUDAGridSize(lanes, BLOCK), BLOCK, 0, s>>>(*A);
    GPUPCCheckLaunch("HECSlabKernel");
  }
  if (A->nlong > 0) {
    HECLongBaseKernel<<<GPUPCCUDAGridSize(A->nlong, BLOCK), BLOCK, 0, s>>>(*A, longlist, longoff);
    GPUPCCheckLaunch("HECLongBaseKernel");
  }
  if (ncsr > 0) {
    HECLongRowsKernel<<<GPUPCCUDAGridSize(ncsr, BLOCK), BLOCK, 0, s>>>(*A, longlist, longoff);
    GPUPCCheckLaunch("HECLongRowsKernel");
  }
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- bcsr's block structure */

/* a thread per block row: the check of its b rows (the first bad row of the thread: its block rows increase) and the
   merge count of its block columns; the sum of the counts and the first bad row over the grid */
__global__ void __launch_bounds__(BLOCK) BCSRCountKernel(int mb, int b, int n, const PetscInt *__restrict__ rowptr, const PetscInt *__restrict__ j, PetscInt *__restrict__ cnt, Reduced *r)
{
  typedef cub::BlockReduce<unsigned long long, BLOCK> SumReduce;
  typedef cub::BlockReduce<int, BLOCK>                MinReduce;
  __shared__ typename SumReduce::TempStorage          ss;
  __shared__ typename MinReduce::TempStorage          ms;
  unsigned long long                                  total = 0;
  int                                                 bad   = INT_MAX;

  GRID_LOOP(br, mb)
  {
    PetscInt c;

    for (int row = (int)br * b; row < (int)br * b + b && bad == INT_MAX; row++) {
      const int k0 = rowptr[row], k1 = rowptr[row + 1];

      for (int k = k0; k < k1; k++) {
        const int col = __ldg(j + k);

        if (col < 0 || col >= n || (k > k0 && col <= __ldg(j + k - 1))) {
          bad = row;
          break;
        }
      }
    }
    c       = GPUPCBCSRMergeBlockRow((PetscInt)br, b, rowptr, j, NULL);
    cnt[br] = c;
    total += (unsigned long long)c;
  }
  total = SumReduce(ss).Sum(total);
  bad   = MinReduce(ms).Reduce(bad, MinOp());
  if (threadIdx.x == 0) {
    if (total) atomicAdd(&r->s[0], total);
    if (bad < INT_MAX) atomicMin(&r->v[0], bad);
  }
}

static PetscErrorCode BCSRCount_CUDA(PetscInt mb, PetscInt b, PetscInt n, const PetscInt *rowptr, const PetscInt *j, PetscInt *cnt, PetscInt64 stats[2])
{
  Reduced       *dr = NULL, h;
  GPUPCDevScalar slot;

  PetscFunctionBegin;
  stats[0] = 0;
  stats[1] = -1;
  if (mb <= 0) PetscFunctionReturn(0);
  PetscCall(ReducedStart(&slot, &dr, INT_MAX, 0, 0, 0));
  BCSRCountKernel<<<GPUPCCUDAGridSize(mb, BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>((int)mb, (int)b, (int)n, rowptr, j, cnt, dr);
  GPUPCCheckLaunch("BCSRCountKernel");
  PetscCall(ReducedFinish(&slot, &h));
  stats[0] = (PetscInt64)h.s[0];
  stats[1] = h.v[0] == INT_MAX ? -1 : h.v[0];
  PetscFunctionReturn(0);
}

/* a thread per block row: the merge of its rows writes its block columns in order */
__global__ void BCSRColumnsKernel(int mb, int b, const PetscInt *__restrict__ rowptr, const PetscInt *__restrict__ j, const PetscInt *__restrict__ bptr, PetscInt *__restrict__ bc)
{
  GRID_LOOP(br, mb)
  (void)GPUPCBCSRMergeBlockRow((PetscInt)br, b, rowptr, j, bc + bptr[br]);
}

static PetscErrorCode BCSRColumns_CUDA(PetscInt mb, PetscInt b, const PetscInt *rowptr, const PetscInt *j, const PetscInt *bptr, PetscInt *bc)
{
  PetscFunctionBegin;
  if (mb <= 0) PetscFunctionReturn(0);
  BCSRColumnsKernel<<<GPUPCCUDAGridSize(mb, BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>((int)mb, (int)b, rowptr, j, bptr, bc);
  GPUPCCheckLaunch("BCSRColumnsKernel");
  PetscFunctionReturn(0);
}

/* a thread per sorted position: its block row and the inverse */
__global__ void BCSRPlaceKernel(GPUPCBCSRDev A, const PetscInt *__restrict__ order)
{
  GRID_LOOP(p, A.nslices * A.S)
  {
    const int br = p < A.mb ? (order ? order[p] : (int)p) : -1;

    A.blkrow[p] = br;
    if (br >= 0) A.rowpos[br] = (int)p;
  }
}

/* a thread per slice: S times its longest block row */
__global__ void BCSRWidthKernel(GPUPCBCSRDev A, const PetscInt *__restrict__ order, const PetscInt *__restrict__ bptr, PetscInt *__restrict__ width)
{
  GRID_LOOP(s, A.nslices)
  {
    const int p1 = min((int)A.mb, ((int)s + 1) * (int)A.S);
    int       w  = 0;

    for (int p = (int)s * A.S; p < p1; p++) {
      const int br = order ? order[p] : p;

      w = max(w, bptr[br + 1] - bptr[br]);
    }
    width[s] = w * A.S;
  }
}

static PetscErrorCode BCSRSlices_CUDA(const GPUPCBCSRDev *A, const PetscInt *order, const PetscInt *bptr, PetscInt *width)
{
  const cudaStream_t s = GPUPCCUDAStream();

  PetscFunctionBegin;
  if (A->nslices <= 0) PetscFunctionReturn(0);
  BCSRPlaceKernel<<<GPUPCCUDAGridSize(A->nslices * A->S, BLOCK), BLOCK, 0, s>>>(*A, order);
  GPUPCCheckLaunch("BCSRPlaceKernel");
  BCSRWidthKernel<<<GPUPCCUDAGridSize(A->nslices, BLOCK), BLOCK, 0, s>>>(*A, order, bptr, width);
  GPUPCCheckLaunch("BCSRWidthKernel");
  PetscFunctionReturn(0);
}

/* a thread per sorted position: the block columns of its row in the slice's steps (neighbouring threads write
   neighbouring blocks of a step), padded with the row's last */
__global__ void BCSRBlockColumnsKernel(GPUPCBCSRDev A, const PetscInt *__restrict__ bptr, const PetscInt *__restrict__ bc)
{
  GRID_LOOP(p, A.nslices * A.S)
  {
    const int s = (int)p / A.S, r = (int)p - s * A.S, br = A.blkrow[p];
    const int len = br >= 0 ? bptr[br + 1] - bptr[br] : 0, pad = len ? bc[bptr[br] + len - 1] : 0;
    const int q1 = A.sliceptr[s + 1];

    for (int q = A.sliceptr[s], t = 0; q < q1; q += A.S, t++) A.bcol[q + r] = t < len ? bc[bptr[br] + t] : pad;
  }
}

/* a thread per CSR row: the value slot of each of its entries (its block found among its block row's) */
__global__ void BCSRPosKernel(GPUPCBCSRDev A, const PetscInt *__restrict__ rowptr, const PetscInt *__restrict__ j, const PetscInt *__restrict__ bptr, const PetscInt *__restrict__ bc)
{
  GRID_LOOP(row, A.mb * A.b)
  {
    const int br = (int)row / A.b, i = (int)row - br * A.b, p = A.rowpos[br], s = p / A.S, r = p - s * A.S;
    const int k1 = rowptr[row + 1], b0 = bptr[br], len = bptr[br + 1] - b0, q0 = A.sliceptr[s];

    for (int k = rowptr[row]; k < k1; k++) {
      const int col = __ldg(j + k), t = GPUPCBCSRFindBlock(col / A.b, len, bc + b0);

      A.pos[k] = (PetscInt)GPUPCBCSRSlot(q0 + t * A.S, A.S, A.b, r, i, col % A.b);
    }
  }
}

static PetscErrorCode BCSRFill_CUDA(const GPUPCBCSRDev *A, const PetscInt *rowptr, const PetscInt *j, const PetscInt *bptr, const PetscInt *bc)
{
  const cudaStream_t s = GPUPCCUDAStream();

  PetscFunctionBegin;
  if (A->nslices <= 0) PetscFunctionReturn(0);
  BCSRBlockColumnsKernel<<<GPUPCCUDAGridSize(A->nslices * A->S, BLOCK), BLOCK, 0, s>>>(*A, bptr, bc);
  GPUPCCheckLaunch("BCSRBlockColumnsKernel");
  BCSRPosKernel<<<GPUPCCUDAGridSize(A->mb * A->b, BLOCK), BLOCK, 0, s>>>(*A, rowptr, j, bptr, bc);
  GPUPCCheckLaunch("BCSRPosKernel");
  PetscFunctionReturn(0);
}

/* the table: every member's Stem_CUDA from GPUPC_FORMAT_KERNEL_LIST, by name (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_DEFINE(GPUPCFormatKernels, GPUPCFormatKernelsCUDA, GPUPC_FORMAT_KERNEL_LIST, "cuda", _CUDA);

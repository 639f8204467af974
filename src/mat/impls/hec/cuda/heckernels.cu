/*
   CUDA implementation of the HEC kernels (gpupc/heckernels.h).

   SpMV, one launch over the four row bins of the build, every row written by exactly one thread: the first nblock
   thread blocks each reduce one CSR row whose remainder is longer than GPUPC_HEC_BLOCK_REM (longest first, so they
   start first and overlap the rest), the next blocks give each row of the warp bin a warp, the next ones give each
   warp 32 lanes of a slab (rows of one length, a lane per row), the remaining blocks give every ELL row one thread;
   a thread skips a row whose ELL length is the marker (the row is done in a slab or in CSR).

   Memory traffic (DRAM bytes; x is gathered through the read-only cache, 8 B per distinct column read):
     ELL entry: value 8 + column 4 = 12 B, coalesced: lane i reads row i, and ELL column p of 32 consecutive rows is
       one 256-byte run of values and one 128-byte run of columns (the stride is a multiple of 32). A lane stops at
       its own row length, so padding slots are not loaded, except that a sector shared with a longer neighbouring
       row is fetched whole.
     slab entry: 12 B, coalesced the same way (lane t of a slab warp reads row t of its group; all lanes of a group
       have the same length, so no lane waits and no padding slot is read but the last warp's idle lanes').
     CSR entry (warp and block rows): 12 B, contiguous over the lanes.
     per ELL row: its length 1 B (2 B when K >= 255) + y 8 B (+ z 8 B in MatMultAdd); per slab row: its row index
       4 B + y 8 B, written alone (a sector).
   So a matrix that fits its ELL part (every Laplacian of the suite: K = longest row) moves 12 B per nonzero + 9 B
   per row + x: 3 B a row below the CSR floor (cuSPARSE reads 12 B + 4 B of row pointer + 8 B of y).

   Transpose: one thread per ELL slot (padding and rows outside the ELL part skipped by the length) and per slot
   outside it (slab padding skipped by its row, -1), atomicAdd into y (non-deterministic summation order; no transposed
   copy is stored). Index math is 32-bit: the build refuses blocks of 2^31 or more slots.
*/
#include <gpupc/cuda.h>
#include <gpupc/heckernels.h>

#define BLOCK 256
#define WARPS (BLOCK / 32)

/* the marker of a row kept outside the ELL part: the largest value of the length type */
template <typename LenT>
__device__ __forceinline__ bool NotELL(LenT l)
{
  return l == (LenT) ~(LenT)0;
}

/* runs the statement (the macro's other arguments) with LenT the ELL length type of width K (GPUPCHECEllLengthBytes) */
#define HEC_BY_LENGTH(K, ...)            \
  do {                                   \
    switch (GPUPCHECEllLengthBytes(K)) { \
    case 1: {                            \
      typedef unsigned char LenT;        \
      __VA_ARGS__;                       \
    } break;                             \
    case 2: {                            \
      typedef unsigned short LenT;       \
      __VA_ARGS__;                       \
    } break;                             \
    default: {                           \
      typedef unsigned int LenT;         \
      __VA_ARGS__;                       \
    }                                    \
    }                                    \
  } while (0)

/* entry k's term of the product: a(k) x(col(k)) */
__device__ __forceinline__ PetscScalar Term(int k, const PetscInt *__restrict__ col, const PetscScalar *__restrict__ val, const PetscScalar *__restrict__ x)
{
  return __ldg(val + k) * __ldg(x + __ldg(col + k));
}

typedef struct {
  int m, K, stride, nlong, nblock, warpblocks, slabblocks, nslab;
  int slablen[GPUPC_HEC_SHORT_REM], slabstart[GPUPC_HEC_SHORT_REM], slabwarp[GPUPC_HEC_SHORT_REM + 1];
  const PetscInt *__restrict__ rowptr;
  const void *__restrict__ ellen;
  const PetscInt *__restrict__ ellcol;
  const PetscScalar *__restrict__ ellval;
  const PetscInt *__restrict__ rembase;
  const PetscInt *__restrict__ remcol;
  const PetscScalar *__restrict__ remval;
  const PetscInt *__restrict__ slabrows;
  const PetscInt *__restrict__ longrows;
  const PetscScalar *__restrict__ x;
  const PetscScalar *z;
  PetscScalar       *y;
} HECMultArgs;

/* a CSR row's product split over G lanes (lane = 0..G-1) with stride G; G = 32: reduced over the warp, lane 0 gets the
   sum; G = BLOCK: reduced over the block through shared memory, thread 0 gets it (call block-uniformly) */
template <int G>
__device__ __forceinline__ PetscScalar LongRowSum(const HECMultArgs &a, int row, int lane)
{
  const int   k0 = __ldg(a.rembase + row), k1 = k0 + __ldg(a.rowptr + row + 1) - __ldg(a.rowptr + row);
  PetscScalar sum = 0.0;

#pragma unroll 4
  for (int k = k0 + lane; k < k1; k += G) sum += Term(k, a.remcol, a.remval, a.x);
  sum = GPUPCGroupSum<PetscScalar, 32>(sum);
  if (G > 32) {
    __shared__ PetscScalar part[WARPS];
    if ((lane & 31) == 0) part[lane / 32] = sum;
    __syncthreads();
    sum = 0.0;
    if (lane < 32) sum = GPUPCGroupSum<PetscScalar, 32>(lane < WARPS ? part[lane] : 0.0);
  }
  return sum;
}

template <typename LenT>
__global__ void __launch_bounds__(BLOCK) HECMultKernel(const HECMultArgs a)
{
  int b = (int)blockIdx.x;

  if (b < a.nblock) { /* a row with a very long remainder: the whole block */
    const int         row = __ldg(a.longrows + b);
    const PetscScalar sum = LongRowSum<BLOCK>(a, row, (int)threadIdx.x);
    if (threadIdx.x == 0) a.y[row] = a.z ? a.z[row] + sum : sum;
    return;
  }
  b -= a.nblock;
  if (b < a.warpblocks) { /* rows with a long remainder: a warp each */
    const int w = a.nblock + b * WARPS + (int)(threadIdx.x / 32), lane = (int)(threadIdx.x & 31);
    if (w >= a.nlong) return; /* whole warps leave */
    const int         row = __ldg(a.longrows + w);
    const PetscScalar sum = LongRowSum<32>(a, row, lane);
    if (lane == 0) a.y[row] = a.z ? a.z[row] + sum : sum;
    return;
  }
  b -= a.warpblocks;
  if (b < a.slabblocks) { /* slab warps: 32 rows of one length, a lane each, entry q of the 32 rows in one run */
    const int u = b * WARPS + (int)(threadIdx.x / 32), lane = (int)(threadIdx.x & 31);
    int       len = 0, start = 0, w0 = 0, w1 = 0;

    if (u >= a.slabwarp[a.nslab]) return;
      /* the warp's group: the last one starting at or before u (warp-uniform); unrolled, so that the argument arrays are
       read at constant indices (a dynamic index would copy them to local memory) */
#pragma unroll
    for (int h = 0; h < GPUPC_HEC_SHORT_REM; h++)
      if (h < a.nslab && u >= a.slabwarp[h]) {
        len   = a.slablen[h];
        start = a.slabstart[h];
        w0    = a.slabwarp[h];
        w1    = a.slabwarp[h + 1];
      }
    const int row = __ldg(a.slabrows + 32 * u + lane);
    if (row < 0) return; /* a padding lane of the group's last warp */
    const int   gstride = 32 * (w1 - w0);
    const int   k0      = start + 32 * (u - w0) + lane;
    PetscScalar sum     = 0.0;

#pragma unroll 4
    for (int q = 0; q < len; q++) sum += Term(k0 + q * gstride, a.remcol, a.remval, a.x);
    a.y[row] = a.z ? a.z[row] + sum : sum;
    return;
  }
  b -= a.slabblocks;
  { /* ELL rows: a thread each, coalesced over the warp's consecutive rows */
    const int i = b * BLOCK + (int)threadIdx.x;

    if (i >= a.m) return;
    const LenT l = __ldg((const LenT *)a.ellen + i);
    if (NotELL(l)) return; /* done in a slab or in CSR */
    const int   e   = (int)l;
    PetscScalar sum = 0.0;

#pragma unroll 4
    for (int p = 0; p < e; p++) sum += Term(p * a.stride + i, a.ellcol, a.ellval, a.x);
    a.y[i] = a.z ? a.z[i] + sum : sum;
  }
}

static PetscErrorCode Mult_CUDA(const GPUPCHECDev *A, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  HECMultArgs a;
  unsigned    grid;

  PetscFunctionBegin;
  if (A->m == 0) PetscFunctionReturn(0);
  if (A->n == 0) { /* no columns: y = z or 0, x is not read */
    if (z) PetscCall(GPUPCCopyOnDevice(y, z, A->m));
    else PetscCall(GPUPCMemzero(y, (size_t)A->m * sizeof(PetscScalar)));
    PetscFunctionReturn(0);
  }
  a.m          = (int)A->m;
  a.K          = (int)A->K;
  a.stride     = (int)A->stride;
  a.nlong      = (int)A->nlong;
  a.nblock     = (int)A->nblock;
  a.warpblocks = (int)((A->nlong - A->nblock + WARPS - 1) / WARPS);
  a.nslab      = (int)A->nslab;
  a.slabblocks = (int)((A->slabwarp[A->nslab] + WARPS - 1) / WARPS);
  for (PetscInt g = 0; g < GPUPC_HEC_SHORT_REM; g++) {
    a.slablen[g]   = g < A->nslab ? (int)A->slablen[g] : 0;
    a.slabstart[g] = g < A->nslab ? (int)A->slabstart[g] : 0;
  }
  for (PetscInt g = 0; g <= GPUPC_HEC_SHORT_REM; g++) a.slabwarp[g] = g <= A->nslab ? (int)A->slabwarp[g] : (int)A->slabwarp[A->nslab];
  a.rowptr   = A->rowptr;
  a.ellen    = A->ellen;
  a.ellcol   = A->ellcol;
  a.ellval   = A->ellval;
  a.rembase  = A->rembase;
  a.remcol   = A->remcol;
  a.remval   = A->remval;
  a.slabrows = A->slabrows;
  a.longrows = A->longrows;
  a.x        = x;
  a.z        = z;
  a.y        = y;
  grid       = (unsigned)(a.nblock + a.warpblocks + a.slabblocks + (a.m + BLOCK - 1) / BLOCK);
  HEC_BY_LENGTH(A->K, HECMultKernel<LenT><<<grid, BLOCK, 0, GPUPCCUDAStream()>>>(a));
  GPUPCCheckLaunch("HECMultKernel");
  PetscFunctionReturn(0);
}

/* y += A^T x: threads t < K*stride take ELL slot t (row t % stride, entry t / stride; padding and rows outside the
   ELL part skipped by the length), the others slot t - K*stride outside the ELL part (slab padding: row -1) */
template <typename LenT>
__global__ void HECMultTransposeAddKernel(int m, int K, int stride, int nremslots, const LenT *__restrict__ ellen, const PetscInt *__restrict__ ellcol, const PetscScalar *__restrict__ ellval, const PetscInt *__restrict__ remrow, const PetscInt *__restrict__ remcol, const PetscScalar *__restrict__ remval, const PetscScalar *__restrict__ x, PetscScalar *y)
{
  const int nell = K * stride, total = nell + nremslots;

  for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < total; t += gridDim.x * blockDim.x) {
    if (t < nell) {
      const int p = t / stride, i = t - p * stride;
      if (i < m) {
        const LenT l = __ldg(ellen + i);
        if (!NotELL(l) && p < (int)l) atomicAdd(y + __ldg(ellcol + t), __ldg(ellval + t) * __ldg(x + i));
      }
    } else {
      const int r = t - nell, row = __ldg(remrow + r);
      if (row >= 0) atomicAdd(y + __ldg(remcol + r), __ldg(remval + r) * __ldg(x + row));
    }
  }
}

static PetscErrorCode MultTransposeAdd_CUDA(const GPUPCHECDev *A, const PetscScalar *x, PetscScalar *y)
{
  const PetscInt total = A->K * A->stride + A->nremslots;
  const int      grid  = GPUPCCUDAGridSize(total, BLOCK);

  PetscFunctionBegin;
  if (A->m == 0 || A->n == 0 || total == 0) PetscFunctionReturn(0);
  HEC_BY_LENGTH(A->K, HECMultTransposeAddKernel<<<grid, BLOCK, 0, GPUPCCUDAStream()>>>((int)A->m, (int)A->K, (int)A->stride, (int)A->nremslots, (const LenT *)A->ellen, A->ellcol, A->ellval, A->remrow, A->remcol, A->remval, x, y));
  GPUPCCheckLaunch("HECMultTransposeAddKernel");
  PetscFunctionReturn(0);
}

/* one thread per row: its ELL slots, or its entries outside the ELL part */
template <typename LenT>
__global__ void HECGetDiagonalKernel(int m, int stride, int coloffset, const PetscInt *__restrict__ rowptr, const LenT *__restrict__ ellen, const PetscInt *__restrict__ ellcol, const PetscScalar *__restrict__ ellval, const PetscInt *__restrict__ rembase, const PetscInt *__restrict__ remstep, const PetscInt *__restrict__ remcol, const PetscScalar *__restrict__ remval, PetscScalar *d)
{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < m; i += gridDim.x * blockDim.x) {
    const LenT  l = ellen[i];
    const int   c = i + coloffset;
    PetscScalar s = 0.0;

    if (!NotELL(l)) {
      for (int p = 0; p < (int)l; p++)
        if (ellcol[p * stride + i] == c) s += ellval[p * stride + i];
    } else {
      const int len = rowptr[i + 1] - rowptr[i], k0 = rembase[i], step = remstep[i];
      for (int q = 0; q < len; q++)
        if (remcol[k0 + q * step] == c) s += remval[k0 + q * step];
    }
    d[i] = s;
  }
}

static PetscErrorCode GetDiagonal_CUDA(const GPUPCHECDev *A, PetscInt coloffset, PetscScalar *d)
{
  const int grid = GPUPCCUDAGridSize(A->m, BLOCK);

  PetscFunctionBegin;
  if (A->m == 0) PetscFunctionReturn(0);
  HEC_BY_LENGTH(A->K, HECGetDiagonalKernel<<<grid, BLOCK, 0, GPUPCCUDAStream()>>>((int)A->m, (int)A->stride, (int)coloffset, A->rowptr, (const LenT *)A->ellen, A->ellcol, A->ellval, A->rembase, A->remstep, A->remcol, A->remval, d));
  GPUPCCheckLaunch("HECGetDiagonalKernel");
  PetscFunctionReturn(0);
}

/* Value update: one thread per entry k of [k0, k1), consecutive threads on consecutive entries; its row i is the last
   of rows i0 .. i1-1 starting at or before k (binary search in rowptr, whose few touched lines stay in L1), entry
   p = k - rowptr[i] of the row goes to ELL slot p*stride + i (an ELL row) or to slot rembase[i] + p*remstep[i] outside
   the ELL part (a slab or CSR row). Reads of a coalesce; CSR writes are contiguous runs; ELL and slab writes of one
   row are a stride apart, and those of neighbouring rows share sectors in L2 before they reach DRAM. Bytes per
   nonzero: a 8 + the slot 8 (+ rowptr, the length and the slot base, about 10 B per row) - about a device-to-device
   copy of the values, a few percent of the host-to-device transfer before it. */
template <typename LenT>
__global__ void __launch_bounds__(BLOCK) HECLayValuesKernel(int i0, int i1, int k0, int count, int stride, const PetscInt *__restrict__ rowptr, const LenT *__restrict__ ellen, const PetscInt *__restrict__ rembase, const PetscInt *__restrict__ remstep, const PetscScalar *__restrict__ a, PetscScalar *__restrict__ ellval, PetscScalar *__restrict__ remval)
{
  const long long t = (long long)blockIdx.x * BLOCK + threadIdx.x;

  if (t >= count) return;
  const int k  = k0 + (int)t;
  int       lo = i0, hi = i1 - 1;
  while (lo < hi) {
    const int mid = lo + (hi - lo + 1) / 2;
    if (__ldg(rowptr + mid) <= k) lo = mid;
    else hi = mid - 1;
  }
  const int p = k - __ldg(rowptr + lo);
  if (!NotELL(__ldg(ellen + lo))) ellval[p * stride + lo] = __ldg(a + t);
  else remval[__ldg(rembase + lo) + p * __ldg(remstep + lo)] = __ldg(a + t);
}

static PetscErrorCode LayValues_CUDA(const GPUPCHECDev *A, PetscInt i0, PetscInt i1, PetscInt k0, PetscInt k1, const PetscScalar *a)
{
  const PetscInt count = k1 - k0;
  const unsigned grid  = (unsigned)((count + BLOCK - 1) / BLOCK);

  PetscFunctionBegin;
  if (count <= 0) PetscFunctionReturn(0);
  HEC_BY_LENGTH(A->K, HECLayValuesKernel<<<grid, BLOCK, 0, GPUPCCUDAStream()>>>((int)i0, (int)i1, (int)k0, (int)count, (int)A->stride, A->rowptr, (const LenT *)A->ellen, A->rembase, A->remstep, a, A->ellval, A->remval));
  GPUPCCheckLaunch("HECLayValuesKernel");
  PetscFunctionReturn(0);
}

/* the table: every member's Stem_CUDA from GPUPC_HEC_KERNEL_LIST, by name (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_DEFINE(GPUPCHECKernels, GPUPCHECKernelsCUDA, GPUPC_HEC_KERNEL_LIST, "cuda", _CUDA);

/*
   CUDA implementation of the HEC kernels (gpupc/heckernels.h).

   SpMV, one launch over the three row bins of the build: the first nblock thread blocks each reduce one row whose
   remainder is longer than GPUPC_HEC_BLOCK_REM (longest first, so they start first and overlap the rest), the next
   blocks give each row of the warp bin a warp, the remaining blocks give every other row one thread, which adds its
   ELL entries and then its (short) remainder; a thread skips a row of the warp or block bin.

   Memory traffic per nonzero (DRAM bytes; x is gathered through the read-only cache, 8 B per distinct column read):
     ELL entry, thread bin: value 8 + column 4 = 12 B, coalesced: lane i reads row i, and ELL column p of 32
       consecutive rows is one 256-byte run of values and one 128-byte run of columns (the stride is a multiple of
       32). A lane stops at its own row length, so padding slots are not loaded, except that a sector shared with
       a longer neighbouring row is fetched whole.
     remainder entry, thread bin: 12 B of data, but each lane walks its own run: a warp's loads touch up to 32
       sectors, so short remainders cost up to 32 + 32 B per entry; this is what p_r (-mat_hec_ratio) prices.
     remainder entry, warp and block bins: 12 B, contiguous over the lanes.
     per row: rowptr 4 B (the row length; remptr 4 B more only when the block has a remainder at all) + y 8 B
       (+ z 8 B in MatMultAdd).
   So a matrix that fits its ELL part (every Laplacian of the suite: K = longest row) moves 12 B per nonzero + 12 B
   per row + x, the CSR floor (cuSPARSE reads the same 12 B + 4 B of row pointer + 8 B of y), without the padding
   traffic of plain ELL.

   Transpose: one thread per ELL slot (padding skipped by the row length) and per remainder entry, atomicAdd into y
   (non-deterministic summation order; no transposed copy is stored). Index math is 32-bit: the build refuses blocks
   of 2^31 or more ELL slots.
*/
#include <gpupc/cuda.h>
#include <gpupc/heckernels.h>

#define BLOCK 256
#define WARPS (BLOCK / 32)

/* entry k's term of the product: a(k) x(col(k)) */
__device__ __forceinline__ PetscScalar Term(int k, const PetscInt *__restrict__ col, const PetscScalar *__restrict__ val, const PetscScalar *__restrict__ x)
{
  return __ldg(val + k) * __ldg(x + __ldg(col + k));
}

typedef struct {
  int m, K, stride, nlong, nblock, warpblocks, hasrem;
  const PetscInt *__restrict__ rowptr;
  const PetscInt *__restrict__ ellcol;
  const PetscScalar *__restrict__ ellval;
  const PetscInt *__restrict__ remptr;
  const PetscInt *__restrict__ remcol;
  const PetscScalar *__restrict__ remval;
  const PetscInt *__restrict__ longrows;
  const PetscScalar *__restrict__ x;
  const PetscScalar *z;
  PetscScalar       *y;
} HECMultArgs;

/* row's product split over G lanes (lane = 0..G-1): its ELL entries, then its remainder, each with stride G; G = 32:
   reduced over the warp, lane 0 gets the sum; G = BLOCK: reduced over the block through shared memory, thread 0 gets
   it (call block-uniformly) */
template <int G>
__device__ __forceinline__ PetscScalar LongRowSum(const HECMultArgs &a, int row, int lane)
{
  const int   e = min(__ldg(a.rowptr + row + 1) - __ldg(a.rowptr + row), a.K), r1 = __ldg(a.remptr + row + 1);
  PetscScalar sum = 0.0;

  for (int p = lane; p < e; p += G) sum += Term(p * a.stride + row, a.ellcol, a.ellval, a.x);
#pragma unroll 4
  for (int r = __ldg(a.remptr + row) + lane; r < r1; r += G) sum += Term(r, a.remcol, a.remval, a.x);
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
  { /* every other row: a thread each, ELL entries (coalesced over the warp's consecutive rows), then the remainder */
    const int i  = b * BLOCK + (int)threadIdx.x;
    int       r0 = 0, r1 = 0;

    if (i >= a.m) return;
    if (a.hasrem) {
      r0 = __ldg(a.remptr + i);
      r1 = __ldg(a.remptr + i + 1);
      if (r1 - r0 > GPUPC_HEC_SHORT_REM) return; /* done by its warp or block */
    }
    const int   e   = min(__ldg(a.rowptr + i + 1) - __ldg(a.rowptr + i), a.K);
    PetscScalar sum = 0.0;

#pragma unroll 4
    for (int p = 0; p < e; p++) sum += Term(p * a.stride + i, a.ellcol, a.ellval, a.x);
    for (int r = r0; r < r1; r++) sum += Term(r, a.remcol, a.remval, a.x);
    a.y[i] = a.z ? a.z[i] + sum : sum;
  }
}

static PetscErrorCode Mult_CUDA(const GPUPCHECDev *A, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  HECMultArgs a;

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
  a.hasrem     = A->nrem > 0;
  a.rowptr     = A->rowptr;
  a.ellcol     = A->ellcol;
  a.ellval     = A->ellval;
  a.remptr     = A->remptr;
  a.remcol     = A->remcol;
  a.remval     = A->remval;
  a.longrows   = A->longrows;
  a.x          = x;
  a.z          = z;
  a.y          = y;
  HECMultKernel<<<a.nblock + a.warpblocks + (a.m + BLOCK - 1) / BLOCK, BLOCK, 0, GPUPCCUDAStream()>>>(a);
  GPUPCCheckLaunch("HECMultKernel");
  PetscFunctionReturn(0);
}

/* y += A^T x: threads t < K*stride take ELL slot t (row t % stride, entry t / stride; padding skipped by the row
   length), the others remainder entry t - K*stride */
__global__ void HECMultTransposeAddKernel(int m, int K, int stride, int nrem, const PetscInt *__restrict__ rowptr, const PetscInt *__restrict__ ellcol, const PetscScalar *__restrict__ ellval, const PetscInt *__restrict__ remrow, const PetscInt *__restrict__ remcol, const PetscScalar *__restrict__ remval, const PetscScalar *__restrict__ x, PetscScalar *y)
{
  const int nell = K * stride, total = nell + nrem;

  for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < total; t += gridDim.x * blockDim.x) {
    if (t < nell) {
      const int p = t / stride, i = t - p * stride;
      if (i < m && p < __ldg(rowptr + i + 1) - __ldg(rowptr + i)) atomicAdd(y + __ldg(ellcol + t), __ldg(ellval + t) * __ldg(x + i));
    } else {
      const int r = t - nell;
      atomicAdd(y + __ldg(remcol + r), __ldg(remval + r) * __ldg(x + __ldg(remrow + r)));
    }
  }
}

static PetscErrorCode MultTransposeAdd_CUDA(const GPUPCHECDev *A, const PetscScalar *x, PetscScalar *y)
{
  const PetscInt total = A->K * A->stride + A->nrem;

  PetscFunctionBegin;
  if (A->m == 0 || A->n == 0 || total == 0) PetscFunctionReturn(0);
  HECMultTransposeAddKernel<<<GPUPCCUDAGridSize(total, BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>((int)A->m, (int)A->K, (int)A->stride, (int)A->nrem, A->rowptr, A->ellcol, A->ellval, A->remrow, A->remcol, A->remval, x, y);
  GPUPCCheckLaunch("HECMultTransposeAddKernel");
  PetscFunctionReturn(0);
}

__global__ void HECGetDiagonalKernel(int m, int K, int stride, int coloffset, const PetscInt *__restrict__ rowptr, const PetscInt *__restrict__ ellcol, const PetscScalar *__restrict__ ellval, const PetscInt *__restrict__ remptr, const PetscInt *__restrict__ remcol, const PetscScalar *__restrict__ remval, PetscScalar *d)
{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < m; i += gridDim.x * blockDim.x) {
    const int   e = min(rowptr[i + 1] - rowptr[i], K), c = i + coloffset;
    PetscScalar s = 0.0;

    for (int p = 0; p < e; p++)
      if (ellcol[p * stride + i] == c) s += ellval[p * stride + i];
    for (int r = remptr[i]; r < remptr[i + 1]; r++)
      if (remcol[r] == c) s += remval[r];
    d[i] = s;
  }
}

static PetscErrorCode GetDiagonal_CUDA(const GPUPCHECDev *A, PetscInt coloffset, PetscScalar *d)
{
  PetscFunctionBegin;
  if (A->m == 0) PetscFunctionReturn(0);
  HECGetDiagonalKernel<<<GPUPCCUDAGridSize(A->m, BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>((int)A->m, (int)A->K, (int)A->stride, (int)coloffset, A->rowptr, A->ellcol, A->ellval, A->remptr, A->remcol, A->remval, d);
  GPUPCCheckLaunch("HECGetDiagonalKernel");
  PetscFunctionReturn(0);
}

/* Value update: one thread per entry k of [k0, k1), consecutive threads on consecutive entries; its row i is the last
   of rows i0 .. i1-1 starting at or before k (binary search in rowptr, whose few touched lines stay in L1), entry
   p = k - rowptr[i] of the row goes to ELL slot p*stride + i (p < K) or to remainder entry remptr[i] + p - K.
   Reads of a coalesce; remainder writes are contiguous runs; ELL writes of one row are stride apart, and those of
   neighbouring rows share sectors in L2 before they reach DRAM. Bytes per nonzero: a 8 + the slot 8 (+ rowptr and
   remptr, 8 B per row) - about a device-to-device copy of the values, a few percent of the host-to-device transfer
   before it. */
__global__ void __launch_bounds__(BLOCK) HECLayValuesKernel(int i0, int i1, int k0, int count, int K, int stride, const PetscInt *__restrict__ rowptr, const PetscInt *__restrict__ remptr, const PetscScalar *__restrict__ a, PetscScalar *__restrict__ ellval, PetscScalar *__restrict__ remval)
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
  if (p < K) ellval[p * stride + lo] = __ldg(a + t);
  else remval[__ldg(remptr + lo) + p - K] = __ldg(a + t);
}

static PetscErrorCode LayValues_CUDA(const GPUPCHECDev *A, PetscInt i0, PetscInt i1, PetscInt k0, PetscInt k1, const PetscScalar *a)
{
  const PetscInt count = k1 - k0;

  PetscFunctionBegin;
  if (count <= 0) PetscFunctionReturn(0);
  HECLayValuesKernel<<<(unsigned)((count + BLOCK - 1) / BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>((int)i0, (int)i1, (int)k0, (int)count, (int)A->K, (int)A->stride, A->rowptr, A->remptr, a, A->ellval, A->remval);
  GPUPCCheckLaunch("HECLayValuesKernel");
  PetscFunctionReturn(0);
}

/* the table: every member's Stem_CUDA from GPUPC_HEC_KERNEL_LIST, by name (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_DEFINE(GPUPCHECKernels, GPUPCHECKernelsCUDA, GPUPC_HEC_KERNEL_LIST, "cuda", _CUDA);

/*
   CUDA implementation of the segmented-CSR kernels (gpupc/segcsrkernels.h).

   SpMV: one launch over the three row bins of the build (segcsrkernels.h), one kernel
   template: the first nlong blocks each reduce one long row (longest first, so they start
   first and overlap the rest), the next blocks give each medium row a warp, the remaining
   blocks do the short rows. Group mode: a group of L lanes (L = segment length) per short
   row, in row order; a group skips a row that is not short. Tile mode: no medium-row warps; a
   block per tile of consecutive short and medium rows; its groups of L lanes reduce one segment
   each (segment g0 + group, + BLOCK/L, ...), leave the sums in shared memory, and the block then
   adds up the segment sums of the tile's rows (a lane per short row, a warp per medium row), so
   no warp waits for the longest row of its groups.
   Segment-major storage makes a group read consecutive slots and a warp read consecutive
   segments, so loads coalesce in both modes (taking the short rows in a length-sorted order
   lost that coalescing and ran powerlaw 12% slower: bench/NOTES.md); groups reduce with warp
   shuffles, blocks through shared memory. A matrix in group mode whose rows are all short (the
   regular ones) runs the plain group-per-row kernel. Index math is 32-bit: the build refuses
   matrices with 2^31 or more slots.

   Transpose: one thread per slot, atomicAdd into y (non-deterministic summation order;
   no transposed copy is stored, so it costs no memory but atomics on y). Slot-parallel, so
   it is already balanced whatever the row lengths.
*/
#include <gpupc/cuda.h>
#include <gpupc/segcsrkernels.h>

#define BLOCK 256
#define WARPS (BLOCK / 32)

static_assert(GPUPC_SEGCSR_TILE_SLOTS % BLOCK == 0, "a tile must give every thread the same number of slots");

/* slot k's term of the product: a(k) x(col(k)) */
__device__ __forceinline__ PetscScalar SlotProduct(int k, const PetscInt *__restrict__ col, const PetscScalar *__restrict__ val, const PetscScalar *__restrict__ x)
{
  return __ldg(val + k) * __ldg(x + __ldg(col + k));
}

/* the lanes of the calling thread's group of G lanes (G <= 32 divides 32) in its warp */
template <int G>
__device__ __forceinline__ unsigned GroupMask(void)
{
  return G == 32 ? 0xffffffffu : (((1u << G) - 1u) << ((threadIdx.x & 31) & ~(G - 1)));
}

/* the product row of A with x over slots [k0, ke), split over G lanes (lane = 0..G-1, stride
   G); G <= 32: reduced with shuffles over the G lanes in mask, lane 0 gets the sum; G = BLOCK:
   reduced over the block through shared memory, thread 0 gets it (call block-uniformly) */
template <int G>
__device__ __forceinline__ PetscScalar RowSum(int k0, int ke, int lane, unsigned mask, const PetscInt *__restrict__ col, const PetscScalar *__restrict__ val, const PetscScalar *__restrict__ x)
{
  constexpr int W   = G < 32 ? G : 32;
  PetscScalar   sum = 0.0;

#pragma unroll 4
  for (int k = k0 + lane; k < ke; k += G) sum += SlotProduct(k, col, val, x);
  sum = GPUPCGroupSum<PetscScalar, W>(sum, mask);
  if (G > 32) {
    __shared__ PetscScalar part[WARPS];
    if ((lane & 31) == 0) part[lane / 32] = sum;
    __syncthreads();
    sum = 0.0;
    if (lane < 32) sum = GPUPCGroupSum<PetscScalar, 32>(lane < WARPS ? part[lane] : 0.0);
  }
  return sum;
}

typedef struct {
  int m, shortmax, nmed, nlong, medblocks, tiled;
  const PetscInt *__restrict__ segptr;
  const PetscInt *__restrict__ col;
  const PetscScalar *__restrict__ val;
  const PetscInt *__restrict__ medrows;
  const PetscInt *__restrict__ longrows;
  const PetscInt *__restrict__ tileptr;
  const PetscInt *__restrict__ tileend;
  const PetscScalar *__restrict__ x;
  const PetscScalar *z;
  PetscScalar       *y;
} SegCSRMultArgs;

/* tile mode: the block computes tile t (call block-uniformly). Its segments [g0, g1) are
   contiguous; in each of ROUNDS rounds the group of L lanes q takes segment g0 + q + round *
   BLOCK/L (a warp reads consecutive segments; the rounds' loads are independent, so they are
   in flight together), reduces it and leaves the sum in shared memory. Then each warp takes 32
   consecutive rows of the tile at a time: a short row (<= shortmax segments) is added up by its
   own lane, a medium row (up to GPUPC_SEGCSR_TILE_SLOTS / L segments) by the whole warp, one
   such row after the other (found with a ballot), so no lane walks a long list of segment sums
   alone. A row of length 0 owns one padding segment (sum 0): y = z or 0. The segment sums live
   in dynamic shared memory (TileSharedBytes<L>() at the launch), so a launch in group mode
   keeps its L1 cache. */
template <int L>
__device__ __forceinline__ void TileMult(const SegCSRMultArgs &a, int t)
{
  constexpr int                 GROUPS = BLOCK / L, ROUNDS = GPUPC_SEGCSR_TILE_SLOTS / BLOCK;
  extern __shared__ PetscScalar segsum[]; /* GPUPC_SEGCSR_TILE_SLOTS / L */
  const int                     r0 = __ldg(a.tileptr + t), r1 = __ldg(a.tileend + t), g0 = __ldg(a.segptr + r0), g1 = __ldg(a.segptr + r1);
  const int                     lane = (int)(threadIdx.x & (L - 1)), group = (int)(threadIdx.x / L);
  const int                     wlane = (int)(threadIdx.x & 31), warp = (int)(threadIdx.x / 32);
  const unsigned                mask = GroupMask<L>();
  PetscScalar                   term[ROUNDS];

#pragma unroll
  for (int q = 0; q < ROUNDS; q++) { /* a group's lanes agree on g, so each group reduces whole */
    const int g = g0 + group + q * GROUPS;
    term[q]     = g < g1 ? SlotProduct(g * L + lane, a.col, a.val, a.x) : 0.0;
  }
#pragma unroll
  for (int q = 0; q < ROUNDS; q++) {
    const PetscScalar sum = GPUPCGroupSum<PetscScalar, L>(term[q], mask);
    if (lane == 0 && g0 + group + q * GROUPS < g1) segsum[group + q * GROUPS] = sum;
  }
  __syncthreads();
  for (int base = r0 + 32 * warp; base < r1; base += BLOCK) { /* warp-uniform trip count */
    const int row = base + wlane;
    int       s0 = 0, s1 = 0;

    if (row < r1) {
      s0 = __ldg(a.segptr + row) - g0;
      s1 = __ldg(a.segptr + row + 1) - g0;
    }
    const bool wide = s1 - s0 > a.shortmax;
    if (row < r1 && !wide) {
      PetscScalar sum = 0.0;

      for (int s = s0; s < s1; s++) sum += segsum[s];
      a.y[row] = a.z ? a.z[row] + sum : sum;
    }
    for (unsigned w = __ballot_sync(0xffffffffu, wide); w; w &= w - 1) { /* the warp's medium rows, one at a time */
      const int   src = __ffs(w) - 1, ws0 = __shfl_sync(0xffffffffu, s0, src), ws1 = __shfl_sync(0xffffffffu, s1, src);
      PetscScalar sum = 0.0;

      for (int s = ws0 + wlane; s < ws1; s += 32) sum += segsum[s];
      sum = GPUPCGroupSum<PetscScalar, 32>(sum);
      if (wlane == 0) a.y[base + src] = a.z ? a.z[base + src] + sum : sum;
    }
  }
}

/* dynamic shared memory of a tile-mode launch: the segment sums of one tile */
template <int L>
static constexpr size_t TileSharedBytes(void)
{
  return (size_t)(GPUPC_SEGCSR_TILE_SLOTS / L) * sizeof(PetscScalar);
}

template <int L>
__global__ void __launch_bounds__(BLOCK) SegCSRMultKernel(const SegCSRMultArgs a)
{
  int b = (int)blockIdx.x;

  if (b < a.nlong) { /* long row: the whole block */
    const int         row = __ldg(a.longrows + b);
    const PetscScalar sum = RowSum<BLOCK>(__ldg(a.segptr + row) * L, __ldg(a.segptr + row + 1) * L, (int)threadIdx.x, 0xffffffffu, a.col, a.val, a.x);
    if (threadIdx.x == 0) a.y[row] = a.z ? a.z[row] + sum : sum;
    return;
  }
  b -= a.nlong;
  if (b < a.medblocks) { /* medium rows: a warp each */
    const int w = b * WARPS + (int)(threadIdx.x / 32), lane = (int)(threadIdx.x & 31);
    if (w >= a.nmed) return; /* whole warps leave */
    const int         row = __ldg(a.medrows + w);
    const PetscScalar sum = RowSum<32>(__ldg(a.segptr + row) * L, __ldg(a.segptr + row + 1) * L, lane, 0xffffffffu, a.col, a.val, a.x);
    if (lane == 0) a.y[row] = a.z ? a.z[row] + sum : sum;
    return;
  }
  b -= a.medblocks;
  if (a.tiled) { /* short rows by tiles: a block each */
    TileMult<L>(a, b);
    return;
  }
  { /* short rows in order: a group of L lanes each */
    const int      lane = (int)(threadIdx.x & (L - 1));
    const int      row  = b * (BLOCK / L) + (int)(threadIdx.x / L);
    const unsigned mask = GroupMask<L>();

    if (row >= a.m) return; /* whole groups leave together: L divides 32 */
    const int g0 = __ldg(a.segptr + row), g1 = __ldg(a.segptr + row + 1);
    if (g1 - g0 > a.shortmax) return; /* a medium or long row: done by its warp or block */
    const PetscScalar sum = RowSum<L>(g0 * L, g1 * L, lane, mask, a.col, a.val, a.x);
    if (lane == 0) a.y[row] = a.z ? a.z[row] + sum : sum;
  }
}

template <int L>
static void LaunchMult(const GPUPCSegCSRDev *A, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  SegCSRMultArgs a;
  const int      tiled       = A->shortmode == MAT_SEGCSR_SHORT_TILE;
  const int      shortblocks = tiled ? (int)A->ntiles : (int)((A->m + BLOCK / L - 1) / (BLOCK / L));

  a.tiled     = tiled;
  a.m         = (int)A->m;
  a.shortmax  = (int)A->shortmax;
  a.nmed      = (int)A->nmed;
  a.nlong     = (int)A->nlong;
  a.medblocks = (int)((A->nmed + WARPS - 1) / WARPS);
  a.segptr    = A->segptr;
  a.col       = A->col;
  a.val       = A->val;
  a.medrows   = A->medrows;
  a.longrows  = A->longrows;
  a.tileptr   = A->tileptr;
  a.tileend   = A->tileend;
  a.x         = x;
  a.z         = z;
  a.y         = y;
  SegCSRMultKernel<L><<<a.nlong + a.medblocks + shortblocks, BLOCK, tiled ? TileSharedBytes<L>() : 0, GPUPCCUDAStream()>>>(a);
}

static PetscErrorCode Mult_CUDA(const GPUPCSegCSRDev *A, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  PetscFunctionBegin;
  if (A->m == 0) PetscFunctionReturn(0);
  if (A->n == 0) { /* no columns: y = z or 0, x is not read */
    if (z) PetscCall(GPUPCCopyOnDevice(y, z, A->m));
    else PetscCall(GPUPCMemzero(y, (size_t)A->m * sizeof(PetscScalar)));
    PetscFunctionReturn(0);
  }
  switch (A->L) {
  case 1: LaunchMult<1>(A, x, z, y); break;
  case 2: LaunchMult<2>(A, x, z, y); break;
  case 4: LaunchMult<4>(A, x, z, y); break;
  case 8: LaunchMult<8>(A, x, z, y); break;
  case 16: LaunchMult<16>(A, x, z, y); break;
  case 32: LaunchMult<32>(A, x, z, y); break;
  default: SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "segcsr segment length %d is not 1, 2, 4, 8, 16 or 32", (int)A->L);
  }
  GPUPCCheckLaunch("SegCSRMultKernel");
  PetscFunctionReturn(0);
}

__global__ void SegCSRMultTransposeAddKernel(int nslots, int L, const PetscInt *__restrict__ segrow, const PetscInt *__restrict__ col, const PetscScalar *__restrict__ val, const PetscScalar *__restrict__ x, PetscScalar *y)
{
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < nslots; k += gridDim.x * blockDim.x) {
    const PetscScalar v = val[k];
    if (v != 0.0) atomicAdd(y + col[k], v * x[segrow[k / L]]);
  }
}

static PetscErrorCode MultTransposeAdd_CUDA(const GPUPCSegCSRDev *A, const PetscScalar *x, PetscScalar *y)
{
  const int nslots = (int)(A->nseg * A->L);

  PetscFunctionBegin;
  if (A->m == 0 || A->n == 0) PetscFunctionReturn(0);
  SegCSRMultTransposeAddKernel<<<GPUPCCUDAGridSize(nslots, BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>(nslots, (int)A->L, A->segrow, A->col, A->val, x, y);
  GPUPCCheckLaunch("SegCSRMultTransposeAddKernel");
  PetscFunctionReturn(0);
}

__global__ void SegCSRGetDiagonalKernel(int m, int L, int coloffset, const PetscInt *__restrict__ segptr, const PetscInt *__restrict__ col, const PetscScalar *__restrict__ val, PetscScalar *d)
{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < m; i += gridDim.x * blockDim.x) {
    PetscScalar s = 0.0;
    for (int k = segptr[i] * L; k < segptr[i + 1] * L; k++)
      if (col[k] == i + coloffset) s += val[k];
    d[i] = s;
  }
}

static PetscErrorCode GetDiagonal_CUDA(const GPUPCSegCSRDev *A, PetscInt coloffset, PetscScalar *d)
{
  PetscFunctionBegin;
  if (A->m == 0) PetscFunctionReturn(0);
  SegCSRGetDiagonalKernel<<<GPUPCCUDAGridSize(A->m, BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>((int)A->m, (int)A->L, (int)coloffset, A->segptr, A->col, A->val, d);
  GPUPCCheckLaunch("SegCSRGetDiagonalKernel");
  PetscFunctionReturn(0);
}

/* Value update: one thread per slot s of [s0, s1), consecutive threads on consecutive slots; row i = segrow[s >> lg]
   (lg = log2 L), entry k = rowptr[i] + s - segptr[i] L; val[s] = a[k - k0] for an entry, 0 for a padding slot.
   Consecutive slots of a row hold consecutive entries, and the rows follow each other in both arrays, so a warp reads
   a nearly contiguous run of a and writes a contiguous run of val: both coalesce. Bytes per nonzero, with p padding
   slots per nonzero: a 8 (read once) + val 8 (1 + p) (written once) + segrow 4 (1 + p) / L + rowptr and segptr 12 per
   row (a warp's slots cover a few rows; L1 serves the rest of its lanes). The 7.2M-row 7-point Laplacian (L = 2,
   p = 0.14, 6.9 nonzeros per row): 8 + 9.1 + 2.3 + 1.7 = 21 B, against 16 B per nonzero for a device-to-device copy
   of the values (read + write): ~1.3x that copy's time, a few percent of the host-to-device transfer before it. */
__global__ void __launch_bounds__(BLOCK) SegCSRLayValuesKernel(int s0, int count, int lg, int k0, const PetscInt *__restrict__ segrow, const PetscInt *__restrict__ segptr, const PetscInt *__restrict__ rowptr, const PetscScalar *__restrict__ a, PetscScalar *__restrict__ val)
{
  const long long t = (long long)blockIdx.x * BLOCK + threadIdx.x;

  if (t >= count) return;
  const int s = s0 + (int)t, i = __ldg(segrow + (s >> lg)), k = __ldg(rowptr + i) + s - (__ldg(segptr + i) << lg);
  val[s] = k < __ldg(rowptr + i + 1) ? __ldg(a + (k - k0)) : 0.0;
}

static PetscErrorCode LayValues_CUDA(const GPUPCSegCSRDev *A, PetscInt s0, PetscInt s1, PetscInt k0, const PetscScalar *a, PetscScalar *val)
{
  const PetscInt count = s1 - s0;
  int            lg    = 0;

  PetscFunctionBegin;
  if (count <= 0) PetscFunctionReturn(0);
  while ((1 << lg) < A->L) lg++;
  SegCSRLayValuesKernel<<<(unsigned)((count + BLOCK - 1) / BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>((int)s0, (int)count, lg, (int)k0, A->segrow, A->segptr, A->rowptr, a, val);
  GPUPCCheckLaunch("SegCSRLayValuesKernel");
  PetscFunctionReturn(0);
}

/* the table: every member's Stem_CUDA from GPUPC_SEGCSR_KERNEL_LIST, by name (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_DEFINE(GPUPCSegCSRKernels, GPUPCSegCSRKernelsCUDA, GPUPC_SEGCSR_KERNEL_LIST, "cuda", _CUDA);

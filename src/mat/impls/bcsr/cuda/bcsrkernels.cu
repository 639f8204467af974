/*
   CUDA implementation of the bcsr kernels (gpupc/bcsrkernels.h).

   SpMV: one thread per matrix row ("row-in-block" mapping): the lanes of a slice are its S block
   rows times b rows each, lane = r*b + i; a thread keeps its own sum, so no reduction between
   threads is needed for any b. Per step a thread reads one block column index (the b threads of
   a block read the same word: one index per block), b values and b entries of x. With the
   step-interleaved value order, at each j the S*b lanes of a slice read S*b consecutive values,
   so the value loads are contiguous for every b, also b < 4 where the paper's one-thread-per-
   element MBR mapping needed the block reordering to coalesce. x and the indices go through the
   read-only data cache (__ldg): the b threads of a block read the same x entries, and the blocks
   of neighbouring rows mostly the same columns.

   Bytes per stored block (double values, 32-bit indices): b*b*8 values + 4 index, plus b*8 of x
   (from cache when reused) and per block row b*8 of y, 4 of blkrow and b*8 of z in MatMultAdd:
     b = 2: 36 B (9.0 per entry), b = 3: 76 B (8.4), b = 4: 132 B (8.3), b = 5: 204 B (8.2), b = 8: 516 B (8.1)
   against 12 B per entry (8 value + 4 column) plus the row pointers and a gather per entry for
   CSR: at full block density the matrix stream shrinks to ~0.7x of CSR's.

   Thread mapping for b not a power of two (MatBCSRMapping): a slice must give each lane a whole
   matrix row, so 32 lanes cannot hold whole block rows when b does not divide 32. Two choices:
     full (default): S = 32/gcd(32,b) block rows per slice (b = 3: 32 block rows, 96 lanes = 3 warps),
       every lane busy, and each step of a slice is S*b*b values, a multiple of 32 values: with the
       slice starting at a multiple of S blocks every warp-wide load is one aligned 256-byte run. The
       cost: a slice is S block rows wide in padding terms (its rows all take as many steps as its
       longest), and sorting makes neighbours equally long, so the padding stays small.
     warp: S = floor(32/b) (b = 3: 10 block rows, 30 lanes), a warp per slice with 32 mod b idle lanes
       (b = 3: 6%, b = 5: 6%, b = 7: 12.5%), smaller slices (less padding for irregular rows) but
       loads that straddle 128-byte lines (30 values per warp per j).
   The product is bandwidth-bound, so idle lanes cost little and misaligned runs cost an extra sector
   per load; full is the default because it never wastes a sector on a regular (sorted) matrix.
   This choice is reasoned, not yet measured: bench/spmv -bcsr (-bcsr_mappings full,warp, the default)
   times both on the GPU for every b not a power of two; -mat_bcsr_mapping picks one for a matrix.

   Transpose: the same threads, each scattering its row's b*b-entry share with atomicAdd into y
   (no transposed copy is stored; non-deterministic summation order); stored zeros are skipped.
   Index math is 32-bit for blocks (the build refuses 2^31 or more blocks), 64-bit for value slots.
*/
#include <gpupc/cuda.h>
#include <gpupc/bcsrkernels.h>

#define BLOCK 256

/* slices per thread block, threads per thread block (exactly perblock whole slices: a thread past them would take a
   slice of the next thread block) and the grid for lanes-wide slices */
static inline void Shape(const GPUPCBCSRDev *A, int *perblock, unsigned *threads, unsigned *grid)
{
  *perblock = (int)PetscMax(1, BLOCK / A->lanes);
  *threads  = (unsigned)(*perblock * A->lanes);
  *grid     = (unsigned)((A->nslices + *perblock - 1) / *perblock);
}

template <int B>
__global__ void __launch_bounds__(BLOCK) BCSRMultKernel(int nslices, int S, int lanes, int perblock, const PetscInt *__restrict__ sliceptr, const PetscInt *__restrict__ blkrow, const PetscInt *__restrict__ bcol, const PetscScalar *__restrict__ val, const PetscScalar *__restrict__ x, const PetscScalar *z, PetscScalar *y)
{
  const int slice = blockIdx.x * perblock + threadIdx.x / lanes, lane = threadIdx.x % lanes;

  if (slice >= nslices || lane >= S * B) return;
  const int r = lane / B, i = lane - r * B, q0 = __ldg(sliceptr + slice), q1 = __ldg(sliceptr + slice + 1), br = __ldg(blkrow + slice * S + r);

  PetscScalar sum = 0.0;
  /* unrolled: several steps' independent loads in flight per thread (the trip count is the slice width) */
#pragma unroll 4
  for (int q = q0; q < q1; q += S) { /* q: first block of the step */
    const int          c = __ldg(bcol + q + r) * B;
    const PetscScalar *v = val + (size_t)q * B * B + lane; /* + j*S*B: entry (i, j) of this row's block */
#pragma unroll
    for (int j = 0; j < B; j++) sum += __ldg(v + (size_t)j * S * B) * __ldg(x + c + j);
  }
  if (br >= 0) {
    const size_t row = (size_t)br * B + i;
    y[row]           = z ? z[row] + sum : sum;
  }
}

/* y = A x + z for few, long slices (a coarse level of smoothed aggregation: a few thousand block rows of dozens of
   blocks): one thread block per slice, T groups of the slice's lanes, group g taking the steps g, g + T, ...; the
   partial sums meet in shared memory and group 0 adds them in group order (deterministic for a given T) */
template <int B>
__global__ void __launch_bounds__(1024) BCSRMultSplitKernel(int S, int lanes, int T, const PetscInt *__restrict__ sliceptr, const PetscInt *__restrict__ blkrow, const PetscInt *__restrict__ bcol, const PetscScalar *__restrict__ val, const PetscScalar *__restrict__ x, const PetscScalar *z, PetscScalar *y)
{
  extern __shared__ PetscScalar part[]; /* T * lanes */
  const int                     slice = blockIdx.x, g = threadIdx.x / lanes, lane = threadIdx.x % lanes, r = lane / B, i = lane - r * B;
  const int                     q0 = __ldg(sliceptr + slice), q1 = __ldg(sliceptr + slice + 1);
  PetscScalar                   sum = 0.0;

  if (lane < S * B) {
#pragma unroll 2
    for (int q = q0 + g * S; q < q1; q += T * S) {
      const int          c = __ldg(bcol + q + r) * B;
      const PetscScalar *v = val + (size_t)q * B * B + lane;
#pragma unroll
      for (int j = 0; j < B; j++) sum += __ldg(v + (size_t)j * S * B) * __ldg(x + c + j);
    }
  }
  part[threadIdx.x] = sum;
  __syncthreads();
  if (g || lane >= S * B) return;
  for (int t = 1; t < T; t++) sum += part[t * lanes + lane];
  const int br = __ldg(blkrow + slice * S + r);
  if (br >= 0) {
    const size_t row = (size_t)br * B + i;
    y[row]           = z ? z[row] + sum : sum;
  }
}

template <int B>
__global__ void __launch_bounds__(BLOCK) BCSRMultTransposeKernel(int nslices, int S, int lanes, int perblock, const PetscInt *__restrict__ sliceptr, const PetscInt *__restrict__ blkrow, const PetscInt *__restrict__ bcol, const PetscScalar *__restrict__ val, const PetscScalar *__restrict__ x, PetscScalar *y)
{
  const int slice = blockIdx.x * perblock + threadIdx.x / lanes, lane = threadIdx.x % lanes;

  if (slice >= nslices || lane >= S * B) return;
  const int r = lane / B, i = lane - r * B, q0 = __ldg(sliceptr + slice), q1 = __ldg(sliceptr + slice + 1), br = __ldg(blkrow + slice * S + r);
  if (br < 0) return;
  const PetscScalar xi = __ldg(x + (size_t)br * B + i);
  if (xi == 0.0) return;
  for (int q = q0; q < q1; q += S) {
    const int          c = __ldg(bcol + q + r) * B;
    const PetscScalar *v = val + (size_t)q * B * B + lane;
#pragma unroll
    for (int j = 0; j < B; j++) {
      const PetscScalar a = __ldg(v + (size_t)j * S * B);
      if (a != 0.0) atomicAdd(y + c + j, a * xi);
    }
  }
}

/* z (or 0) into y: a matrix without stored blocks or without columns */
__global__ void __launch_bounds__(BLOCK) BCSRCopyKernel(int m, const PetscScalar *z, PetscScalar *y)
{
  const int k = blockIdx.x * BLOCK + threadIdx.x;

  if (k < m) y[k] = z ? z[k] : 0.0;
}

#define BCSR_DISPATCH_SHARED(KERNEL, b, grid, threads, shared, ...)                                                                                               \
  do {                                                                                                                                                            \
    switch (b) {                                                                                                                                                  \
    case 1: KERNEL<1><<<grid, threads, shared, GPUPCCUDAStream()>>>(__VA_ARGS__); break;                                                                          \
    case 2: KERNEL<2><<<grid, threads, shared, GPUPCCUDAStream()>>>(__VA_ARGS__); break;                                                                          \
    case 3: KERNEL<3><<<grid, threads, shared, GPUPCCUDAStream()>>>(__VA_ARGS__); break;                                                                          \
    case 4: KERNEL<4><<<grid, threads, shared, GPUPCCUDAStream()>>>(__VA_ARGS__); break;                                                                          \
    case 5: KERNEL<5><<<grid, threads, shared, GPUPCCUDAStream()>>>(__VA_ARGS__); break;                                                                          \
    case 6: KERNEL<6><<<grid, threads, shared, GPUPCCUDAStream()>>>(__VA_ARGS__); break;                                                                          \
    case 7: KERNEL<7><<<grid, threads, shared, GPUPCCUDAStream()>>>(__VA_ARGS__); break;                                                                          \
    case 8: KERNEL<8><<<grid, threads, shared, GPUPCCUDAStream()>>>(__VA_ARGS__); break;                                                                          \
    default: SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "bcsr: block size %" PetscInt_FMT " is not supported (1 to %d)", (PetscInt)(b), GPUPC_BCSR_MAXB); \
    }                                                                                                                                                             \
  } while (0)

#define BCSR_DISPATCH(KERNEL, b, grid, threads, ...) BCSR_DISPATCH_SHARED(KERNEL, b, grid, threads, 0, __VA_ARGS__)

/* groups of lanes that share a slice's steps (BCSRMultSplitKernel), 1 for the one-group kernel: more than one only when
   the slices' threads would fill less than a quarter of a large GPU (about 64k threads) and a slice has at least 8
   steps on average; then as many groups as bring the threads to about 128k, at most 1024 threads a thread block and
   at least 4 steps a group */
static int SplitGroups(const GPUPCBCSRDev *A)
{
  const PetscInt threads = A->nslices * A->lanes, steps = A->nslices ? A->nblocks / (A->S * A->nslices) : 0;
  PetscInt       T;

  if (threads >= 65536 || steps < 8) return 1;
  T = PetscMin(1024 / A->lanes, PetscMin(steps / 4, (131072 + threads - 1) / threads));
  return (int)PetscMax(1, T);
}

static PetscErrorCode Mult_CUDA(const GPUPCBCSRDev *A, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  int      perblock, T;
  unsigned grid, threads;

  PetscFunctionBegin;
  if (!A->m) PetscFunctionReturn(0);
  if (!A->nblocks || !A->n) {
    BCSRCopyKernel<<<(unsigned)((A->m + BLOCK - 1) / BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>((int)A->m, z, y);
    GPUPCCheckLaunch("BCSRCopyKernel");
    PetscFunctionReturn(0);
  }
  T = SplitGroups(A);
  if (T > 1) {
    const size_t shared = (size_t)T * A->lanes * sizeof(PetscScalar);

    BCSR_DISPATCH_SHARED(BCSRMultSplitKernel, A->b, (unsigned)A->nslices, (unsigned)(T * A->lanes), shared, (int)A->S, (int)A->lanes, T, A->sliceptr, A->blkrow, A->bcol, A->val, x, z, y);
    GPUPCCheckLaunch("BCSRMultSplitKernel");
    PetscFunctionReturn(0);
  }
  Shape(A, &perblock, &threads, &grid);
  BCSR_DISPATCH(BCSRMultKernel, A->b, grid, threads, (int)A->nslices, (int)A->S, (int)A->lanes, perblock, A->sliceptr, A->blkrow, A->bcol, A->val, x, z, y);
  GPUPCCheckLaunch("BCSRMultKernel");
  PetscFunctionReturn(0);
}

static PetscErrorCode MultTransposeAdd_CUDA(const GPUPCBCSRDev *A, const PetscScalar *x, PetscScalar *y)
{
  int      perblock;
  unsigned grid, threads;

  PetscFunctionBegin;
  if (!A->nblocks || !A->n || !A->m) PetscFunctionReturn(0);
  Shape(A, &perblock, &threads, &grid);
  BCSR_DISPATCH(BCSRMultTransposeKernel, A->b, grid, threads, (int)A->nslices, (int)A->S, (int)A->lanes, perblock, A->sliceptr, A->blkrow, A->bcol, A->val, x, y);
  GPUPCCheckLaunch("BCSRMultTransposeKernel");
  PetscFunctionReturn(0);
}

/* a thread per row: its block row's steps until the first block of the diagonal block column (0 beyond the columns) */
__global__ void __launch_bounds__(BLOCK) BCSRGetDiagonalKernel(int m, int nb, int b, int S, const PetscInt *__restrict__ rowpos, const PetscInt *__restrict__ sliceptr, const PetscInt *__restrict__ bcol, const PetscScalar *__restrict__ val, PetscScalar *d)
{
  const int k = blockIdx.x * BLOCK + threadIdx.x;

  if (k >= m) return;
  const int   br = k / b, i = k - br * b, p = __ldg(rowpos + br), s = p / S, r = p - s * S, q1 = br < nb ? __ldg(sliceptr + s + 1) : 0;
  PetscScalar a = 0.0;
  for (int q = __ldg(sliceptr + s); q < q1; q += S)
    if (__ldg(bcol + q + r) == br) {
      a = val[(size_t)q * b * b + (size_t)i * S * b + (size_t)r * b + i];
      break;
    }
  d[k] = a;
}

static PetscErrorCode GetDiagonal_CUDA(const GPUPCBCSRDev *A, PetscScalar *d)
{
  PetscFunctionBegin;
  if (!A->m) PetscFunctionReturn(0);
  BCSRGetDiagonalKernel<<<(unsigned)((A->m + BLOCK - 1) / BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>((int)A->m, (int)A->nb, (int)A->b, (int)A->S, A->rowpos, A->sliceptr, A->bcol, A->val, d);
  GPUPCCheckLaunch("BCSRGetDiagonalKernel");
  PetscFunctionReturn(0);
}

__global__ void __launch_bounds__(BLOCK) BCSRLayValuesKernel(int count, const PetscInt *__restrict__ pos, const PetscScalar *__restrict__ a, PetscScalar *val)
{
  const int q = blockIdx.x * BLOCK + threadIdx.x;

  if (q < count) val[__ldg(pos + q)] = __ldg(a + q);
}

static PetscErrorCode LayValues_CUDA(const GPUPCBCSRDev *A, PetscInt k0, PetscInt count, const PetscScalar *a, PetscScalar *val)
{
  PetscFunctionBegin;
  if (count <= 0) PetscFunctionReturn(0);
  BCSRLayValuesKernel<<<(unsigned)((count + BLOCK - 1) / BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>((int)count, A->pos + k0, a, val);
  GPUPCCheckLaunch("BCSRLayValuesKernel");
  PetscFunctionReturn(0);
}

/* the table: every member's Stem_CUDA from GPUPC_BCSR_KERNEL_LIST, by name (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_DEFINE(GPUPCBCSRKernels, GPUPCBCSRKernelsCUDA, GPUPC_BCSR_KERNEL_LIST, "cuda", _CUDA);

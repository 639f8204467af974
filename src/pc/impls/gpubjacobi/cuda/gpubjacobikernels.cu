/*
   CUDA implementation of the gpubjacobi kernels (gpupc/gpubjacobikernels.h): y_k = B_k^-1 x_k (apply) or
   y_k = B_k^-T x_k (apply_transpose) on every diagonal block k, templated on the block size B (1 .. 32) so that the
   loops over a block's columns unroll and a row's B entries of the inverse sit in registers.

   Mapping, chosen for bandwidth. The kernel streams the n B entries of the inverses once (8 n B bytes, against 16 n for
   x and y): that stream is the whole cost, so it must be read in full 128-byte lines whatever B is.

   - apply: one thread per row r = k B + i; it needs row i of B_k^-1, stored as B values inv[j ld + r] (j < B). For a
     fixed j the 32 threads of a warp read 32 consecutive doubles: every load instruction is one fully used 256-byte
     segment, for every B (a warp per block, or several blocks per warp, would read B-long pieces of rows when B < 32,
     and need shuffles to sum). A thread block takes R = floor(256 / B) B rows, whole blocks only, so the x entries a
     block needs are those of its own rows: the block loads them once into shared memory (coalesced) and each thread
     reads its block's B entries from there (one address per block: a broadcast). The inverse does not change between
     applications, so a thread loads its B entries into registers before it waits for the kernel before it in the
     stream (programmatic dependent launch, gpupc/cuda.h): the stream of the inverse overlaps the previous kernel's
     tail, and only x waits.
   - apply_transpose: thread r = k B + i needs column i of B_k^-1, i.e. inv[i ld + k B + j] for j < B: B consecutive
     doubles of one column per thread, 32 different columns per warp, which would be read through the L1 cache one
     line per thread. Instead the thread block (128 threads, R = floor(128 / B) B rows, whole blocks) copies the
     B x R tile of the inverse that its rows own into shared memory with coalesced loads (before the wait, as above),
     then reads it transposed. The tile's columns are R + 1 doubles apart so that the 32 threads of a warp, which read
     32 different columns, hit different banks. At B = 32 the tile is 33 KB, inside the static 48 KB.

   Rows of a partial last block read zeros beyond its size (stored zeros of the inverse, and x entries past n set to
   zero in shared memory), so no thread branches on the block's size; each y entry sums its B products in order of
   j, like the host reference (which sums only the block's own columns: the extra terms are exact zeros).
*/
#include <gpupc/cuda.h>
#include <gpupc/gpubjacobikernels.h>

#define APPLY_BLOCK     256
#define TRANSPOSE_BLOCK 128

template <int B>
__global__ void __launch_bounds__(APPLY_BLOCK) PBJApplyKernel(int n, size_t ld, const PetscScalar *__restrict__ inv, const PetscScalar *__restrict__ x, PetscScalar *__restrict__ y)
{
  constexpr int          R = (APPLY_BLOCK / B) * B; /* rows of this thread block: whole blocks */
  __shared__ PetscScalar xs[R];
  const int              t    = threadIdx.x;
  const size_t           r    = (size_t)blockIdx.x * R + t;
  const bool             mine = t < R && r < (size_t)n;
  PetscScalar            a[B];

#pragma unroll
  for (int j = 0; j < B; j++) a[j] = mine ? inv[j * ld + r] : 0.0; /* constant data: before the wait */
  GPUPCWaitPrevious();
  GPUPCLetNextLaunch();
  if (t < R) xs[t] = r < (size_t)n ? x[r] : 0.0;
  __syncthreads();
  if (mine) {
    const PetscScalar *xb = xs + (t / B) * B;
    PetscScalar        s  = 0.0;
#pragma unroll
    for (int j = 0; j < B; j++) s += a[j] * xb[j];
    y[r] = s;
  }
}

template <int B>
__global__ void __launch_bounds__(TRANSPOSE_BLOCK) PBJApplyTransposeKernel(int n, size_t ld, const PetscScalar *__restrict__ inv, const PetscScalar *__restrict__ x, PetscScalar *__restrict__ y)
{
  constexpr int          R = (TRANSPOSE_BLOCK / B) * B; /* rows of this thread block: whole blocks */
  constexpr int          S = R + 1;                     /* padded stride of a tile column */
  __shared__ PetscScalar tile[B * S];
  __shared__ PetscScalar xs[R];
  const int              t  = threadIdx.x;
  const size_t           r0 = (size_t)blockIdx.x * R;

  /* tile[j S + q] = inv[j ld + r0 + q]: row q's entry j, i.e. B_k^-1(q - k B, j) (constant data: before the wait) */
  for (int e = t; e < B * R; e += TRANSPOSE_BLOCK) {
    const int j = e / R, q = e - j * R;
    tile[j * S + q] = r0 + q < (size_t)n ? inv[j * ld + r0 + q] : 0.0;
  }
  GPUPCWaitPrevious();
  GPUPCLetNextLaunch();
  if (t < R) xs[t] = r0 + t < (size_t)n ? x[r0 + t] : 0.0;
  __syncthreads();
  if (t < R && r0 + t < (size_t)n) {
    const int   b0 = (t / B) * B, i = t - b0;
    PetscScalar s = 0.0;
#pragma unroll
    for (int j = 0; j < B; j++) s += tile[i * S + b0 + j] * xs[b0 + j]; /* B_k^-1(j, i) x_j */
    y[r0 + t] = s;
  }
}

/* thread blocks for n rows, R = floor(threads / bs) bs rows each */
static unsigned Grid(PetscInt n, PetscInt bs, int threads)
{
  const PetscInt R = (threads / bs) * bs;
  return (unsigned)((n + R - 1) / R);
}

/* clang-format off */
#define PBJ_CASES(X) \
  X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16) \
  X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31) X(32)
/* clang-format on */

static PetscErrorCode Apply_CUDA(const GPUPCPBJBlocks *D, const PetscScalar *x, PetscScalar *y)
{
  const int    n  = (int)D->n;
  const size_t ld = (size_t)D->ld;

  PetscFunctionBegin;
  if (D->n <= 0) PetscFunctionReturn(0);
  switch (D->bs) {
#define PBJ_APPLY_CASE(b)                                                                                                                      \
  case b:                                                                                                                                      \
    GPUPCCallCUDA(GPUPCLaunchDependent(Grid(D->n, b, APPLY_BLOCK), APPLY_BLOCK, PBJApplyKernel<b>, n, ld, (const PetscScalar *)D->inv, x, y)); \
    break;
    PBJ_CASES(PBJ_APPLY_CASE)
#undef PBJ_APPLY_CASE
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "gpubjacobi apply: block size %" PetscInt_FMT " is not in 1..%d", D->bs, GPUPC_PBJ_MAX_BS);
  }
  GPUPCCheckLaunch("gpubjacobi apply");
  PetscFunctionReturn(0);
}

static PetscErrorCode ApplyTranspose_CUDA(const GPUPCPBJBlocks *D, const PetscScalar *x, PetscScalar *y)
{
  const int    n  = (int)D->n;
  const size_t ld = (size_t)D->ld;

  PetscFunctionBegin;
  if (D->n <= 0) PetscFunctionReturn(0);
  switch (D->bs) {
#define PBJ_TRANSPOSE_CASE(b)                                                                                                                                   \
  case b:                                                                                                                                                       \
    GPUPCCallCUDA(GPUPCLaunchDependent(Grid(D->n, b, TRANSPOSE_BLOCK), TRANSPOSE_BLOCK, PBJApplyTransposeKernel<b>, n, ld, (const PetscScalar *)D->inv, x, y)); \
    break;
    PBJ_CASES(PBJ_TRANSPOSE_CASE)
#undef PBJ_TRANSPOSE_CASE
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "gpubjacobi apply_transpose: block size %" PetscInt_FMT " is not in 1..%d", D->bs, GPUPC_PBJ_MAX_BS);
  }
  GPUPCCheckLaunch("gpubjacobi apply_transpose");
  PetscFunctionReturn(0);
}

/* the table: every member's Stem_CUDA from GPUPC_PBJ_KERNEL_LIST, by name (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_DEFINE(GPUPCPBJKernels, GPUPCPBJKernelsCUDA, GPUPC_PBJ_KERNEL_LIST, "cuda", _CUDA);

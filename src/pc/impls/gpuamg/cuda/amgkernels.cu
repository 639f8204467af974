/*
   CUDA implementation of the gpuamg cycle kernels (gpupc/amgkernels.h).

   The element-wise kernels (Jacobi and Chebyshev steps, residual) are one thread per entry; the dense product of the
   last level is a warp per row (y = M x) or a thread per column (y = M^T x, consecutive threads read consecutive
   entries of a row); Gauss-Seidel is a group of 1 .. 32 lanes per row, on one colour over the grid (gs_colour) or on
   a run of colours inside one block (gs_block). Every kernel is launched dependent (GPUPCLaunchDependent): it may start while the kernel before it
   finishes, reads its weights (data no kernel of the cycle writes) before GPUPCWaitPrevious and everything else after.
*/
#include <gpupc/cuda.h>
#include <gpupc/amgkernels.h>
#include <climits>
#include <cstring>

#define BLOCK 256
#define WARPS (BLOCK / 32)

#define AMGLaunch(grid, ...) GPUPCCallCUDA(GPUPCLaunchDependent((unsigned)(grid), BLOCK, __VA_ARGS__))

static inline unsigned Blocks(PetscInt n)
{
  return (unsigned)((n + BLOCK - 1) / BLOCK);
}

__global__ void JacobiKernel(PetscInt n, PetscBool zero, const PetscScalar *__restrict__ w, const PetscScalar *__restrict__ b, const PetscScalar *__restrict__ q, PetscScalar *__restrict__ x)
{
  const PetscInt    i  = blockIdx.x * (PetscInt)BLOCK + threadIdx.x;
  const PetscScalar wi = i < n ? w[i] : 0.0;

  GPUPCWaitPrevious();
  GPUPCLetNextLaunch();
  if (i >= n) return;
  if (zero) x[i] = wi * b[i];
  else x[i] += wi * (b[i] - q[i]);
}

__global__ void ChebyshevKernel(PetscInt n, PetscBool zero, PetscScalar alpha, PetscScalar beta, const PetscScalar *__restrict__ w, const PetscScalar *__restrict__ b, const PetscScalar *__restrict__ q, PetscScalar *__restrict__ d, PetscScalar *__restrict__ x)
{
  const PetscInt    i  = blockIdx.x * (PetscInt)BLOCK + threadIdx.x;
  const PetscScalar wi = i < n ? w[i] : 0.0;
  PetscScalar       di;

  GPUPCWaitPrevious();
  GPUPCLetNextLaunch();
  if (i >= n) return;
  if (zero) {
    di   = beta * wi * b[i];
    x[i] = di;
  } else {
    di = (alpha == 0.0 ? 0.0 : alpha * d[i]) + beta * wi * (b[i] - q[i]);
    x[i] += di;
  }
  d[i] = di;
}

__global__ void ResidualKernel(PetscInt n, const PetscScalar *__restrict__ b, PetscScalar *__restrict__ r)
{
  const PetscInt i = blockIdx.x * (PetscInt)BLOCK + threadIdx.x;

  GPUPCWaitPrevious();
  GPUPCLetNextLaunch();
  if (i < n) r[i] = b[i] - r[i];
}

/* y = M x: a warp per row */
__global__ void DenseRowKernel(PetscInt m, const PetscScalar *__restrict__ M, const PetscScalar *__restrict__ x, PetscScalar *__restrict__ y)
{
  const PetscInt i    = blockIdx.x * (PetscInt)WARPS + threadIdx.x / 32;
  const int      lane = threadIdx.x % 32;
  PetscScalar    s    = 0.0;

  GPUPCWaitPrevious();
  GPUPCLetNextLaunch();
  if (i < m) {
    const PetscScalar *__restrict__ row = M + (size_t)i * m;
    for (PetscInt j = lane; j < m; j += 32) s += row[j] * x[j];
  }
  s = GPUPCGroupSum<PetscScalar, 32>(s);
  if (lane == 0 && i < m) y[i] = s;
}

/* y = M^T x: a thread per column j, the rows in turn (consecutive threads read consecutive entries of a row) */
__global__ void DenseColumnKernel(PetscInt m, const PetscScalar *__restrict__ M, const PetscScalar *__restrict__ x, PetscScalar *__restrict__ y)
{
  const PetscInt j = blockIdx.x * (PetscInt)BLOCK + threadIdx.x;
  PetscScalar    s = 0.0;

  GPUPCWaitPrevious();
  GPUPCLetNextLaunch();
  if (j >= m) return;
  for (PetscInt i = 0; i < m; i++) s += M[(size_t)i * m + j] * x[i];
  y[j] = s;
}

static PetscErrorCode AMGJacobi_CUDA(PetscInt n, PetscBool zero, const PetscScalar *w, const PetscScalar *b, const PetscScalar *q, PetscScalar *x)
{
  PetscFunctionBegin;
  if (n <= 0) PetscFunctionReturn(0);
  AMGLaunch(Blocks(n), JacobiKernel, n, zero, w, b, q, x);
  GPUPCCheckLaunch("gpuamg jacobi");
  PetscFunctionReturn(0);
}

static PetscErrorCode AMGChebyshev_CUDA(PetscInt n, PetscBool zero, PetscScalar alpha, PetscScalar beta, const PetscScalar *w, const PetscScalar *b, const PetscScalar *q, PetscScalar *d, PetscScalar *x)
{
  PetscFunctionBegin;
  if (n <= 0) PetscFunctionReturn(0);
  AMGLaunch(Blocks(n), ChebyshevKernel, n, zero, alpha, beta, w, b, q, d, x);
  GPUPCCheckLaunch("gpuamg chebyshev");
  PetscFunctionReturn(0);
}

static PetscErrorCode AMGResidual_CUDA(PetscInt n, const PetscScalar *b, PetscScalar *r)
{
  PetscFunctionBegin;
  if (n <= 0) PetscFunctionReturn(0);
  AMGLaunch(Blocks(n), ResidualKernel, n, b, r);
  GPUPCCheckLaunch("gpuamg residual");
  PetscFunctionReturn(0);
}

static PetscErrorCode AMGDenseMult_CUDA(PetscInt m, PetscBool transpose, const PetscScalar *M, const PetscScalar *x, PetscScalar *y)
{
  PetscFunctionBegin;
  if (m <= 0) PetscFunctionReturn(0);
  if (transpose) AMGLaunch(Blocks(m), DenseColumnKernel, m, M, x, y);
  else AMGLaunch((m + WARPS - 1) / WARPS, DenseRowKernel, m, M, x, y);
  GPUPCCheckLaunch("gpuamg dense_mult");
  PetscFunctionReturn(0);
}

/* Gauss-Seidel on row i by a group of G lanes (lane: this thread's place in it; mask: the group's lanes in the warp).
   G == 1: the thread sums its row. G > 1: each lane forms the products of every G-th entry (the loads of a long row in
   parallel and coalesced), then every lane subtracts the G products of the chunk in row order, read by shuffles, so
   the sum is the host's (products rounded, then subtracted one after the other) and no row waits for a long serial
   loop of loads. The group's first lane writes x_i. */
template <int G>
__device__ __forceinline__ void GSRow(PetscInt i, int lane, unsigned mask, const PetscInt *__restrict__ ai, const PetscInt *__restrict__ aj, const PetscScalar *__restrict__ aa, const PetscScalar *__restrict__ dinv, const PetscScalar *__restrict__ b, PetscScalar *x)
{
  const PetscInt lo = ai[i], hi = ai[i + 1];
  PetscScalar    s = b[i];

  if constexpr (G == 1) {
    for (PetscInt e = lo; e < hi; e++) s -= aa[e] * x[aj[e]];
    x[i] += dinv[i] * s;
  } else {
    for (PetscInt base = lo; base < hi; base += G) {
      const PetscInt    e   = base + lane;
      const PetscScalar p   = e < hi ? aa[e] * x[aj[e]] : 0.0;
      const int         cnt = (int)(hi - base < G ? hi - base : G);

      for (int k = 0; k < cnt; k++) s -= __shfl_sync(mask, p, k, G);
    }
    if (lane == 0) x[i] += dinv[i] * s;
  }
}

/* the lanes of the aligned group of G that holds this thread */
template <int G>
__device__ __forceinline__ unsigned GroupMask(void)
{
  return G == 32 ? 0xffffffffu : ((1u << G) - 1u) << ((threadIdx.x % 32) & ~(G - 1));
}

/* Gauss-Seidel on one colour: a group of G lanes per row of the colour (the rows of a colour are not coupled, so the
   order does not matter) */
template <int G>
__global__ void GSColourKernel(PetscInt nr, const PetscInt *__restrict__ rows, const PetscInt *__restrict__ ai, const PetscInt *__restrict__ aj, const PetscScalar *__restrict__ aa, const PetscScalar *__restrict__ dinv, const PetscScalar *__restrict__ b, PetscScalar *x)
{
  const PetscInt k = (blockIdx.x * (PetscInt)BLOCK + threadIdx.x) / G;
  PetscInt       i = -1;

  if (k < nr) i = rows[k];
  GPUPCWaitPrevious();
  GPUPCLetNextLaunch();
  if (i < 0) return; /* the whole group: its lanes share k */
  GSRow<G>(i, (int)(threadIdx.x % G), GroupMask<G>(), ai, aj, aa, dinv, b, x);
}

/* gs_block: one block of GSBLOCK threads walks the colours, a barrier after each (the next colour reads the rows this
   one wrote; __syncthreads makes the block's global writes visible to the block) */
#define GSBLOCK 1024

template <int G>
__global__ void __launch_bounds__(GSBLOCK) GSBlockKernel(PetscInt c0, PetscInt c1, PetscInt dir, const PetscInt *__restrict__ cptr, const PetscInt *__restrict__ rows, const PetscInt *__restrict__ ai, const PetscInt *__restrict__ aj, const PetscScalar *__restrict__ aa, const PetscScalar *__restrict__ dinv, const PetscScalar *__restrict__ b, PetscScalar *x)
{
  const PetscInt steps = dir == 2 ? 2 * (c1 - c0) : c1 - c0;
  const int      lane  = (int)(threadIdx.x % G);
  const unsigned mask  = GroupMask<G>();

  GPUPCWaitPrevious();
  GPUPCLetNextLaunch();
  for (PetscInt t = 0; t < steps; t++) {
    const PetscInt c = GPUPCAMGBlockColour(c0, c1, dir, t), hi = cptr[c + 1];

    for (PetscInt k = cptr[c] + (PetscInt)(threadIdx.x / G); k < hi; k += GSBLOCK / G) GSRow<G>(rows[k], lane, mask, ai, aj, aa, dinv, b, x);
    __syncthreads();
  }
}

/* the operands of both Gauss-Seidel launches */
typedef struct {
  PetscInt           nr, c0, c1, dir;
  const PetscInt    *cptr, *rows, *ai, *aj;
  const PetscScalar *aa, *dinv, *b;
  PetscScalar       *x;
} GSArgs;

/* gs_block (block) or gs_colour with groups of G lanes */
template <int G>
static cudaError_t GSLaunch(const GSArgs &a, bool block)
{
  if (block) return GPUPCLaunchDependent(1, GSBLOCK, GSBlockKernel<G>, a.c0, a.c1, a.dir, a.cptr, a.rows, a.ai, a.aj, a.aa, a.dinv, a.b, a.x);
  return GPUPCLaunchDependent((unsigned)((a.nr * G + BLOCK - 1) / BLOCK), BLOCK, GSColourKernel<G>, a.nr, a.rows, a.ai, a.aj, a.aa, a.dinv, a.b, a.x);
}

static PetscErrorCode GSLaunchLanes(PetscInt lanes, const GSArgs &a, bool block)
{
  PetscFunctionBegin;
  PetscCheck(GPUPCAMGLanesValid(lanes), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "gpuamg %s: %" PetscInt_FMT " lanes per row; 1, 2, 4, 8, 16 or 32", block ? "gs_block" : "gs_colour", lanes);
  switch (lanes) {
  case 1:
    GPUPCCallCUDA(GSLaunch<1>(a, block));
    break;
  case 2:
    GPUPCCallCUDA(GSLaunch<2>(a, block));
    break;
  case 4:
    GPUPCCallCUDA(GSLaunch<4>(a, block));
    break;
  case 8:
    GPUPCCallCUDA(GSLaunch<8>(a, block));
    break;
  case 16:
    GPUPCCallCUDA(GSLaunch<16>(a, block));
    break;
  default:
    GPUPCCallCUDA(GSLaunch<32>(a, block));
  }
  GPUPCCheckLaunch(block ? "gpuamg gs_block" : "gpuamg gs_colour");
  PetscFunctionReturn(0);
}

static PetscErrorCode AMGGSColour_CUDA(PetscInt nr, PetscInt lanes, const PetscInt *rows, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, const PetscScalar *dinv, const PetscScalar *b, PetscScalar *x)
{
  const GSArgs a = {nr, 0, 0, 0, NULL, rows, ai, aj, aa, dinv, b, x};

  PetscFunctionBegin;
  if (nr <= 0 && GPUPCAMGLanesValid(lanes)) PetscFunctionReturn(0);
  PetscCall(GSLaunchLanes(lanes, a, false));
  PetscFunctionReturn(0);
}

static PetscErrorCode AMGGSBlock_CUDA(PetscInt c0, PetscInt c1, PetscInt dir, PetscInt lanes, const PetscInt *cptr, const PetscInt *rows, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, const PetscScalar *dinv, const PetscScalar *b, PetscScalar *x)
{
  const GSArgs a = {0, c0, c1, dir, cptr, rows, ai, aj, aa, dinv, b, x};

  PetscFunctionBegin;
  PetscCheck(dir >= 0 && dir <= 2 && c0 >= 0 && c1 >= c0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "gpuamg gs_block: colours %" PetscInt_FMT " .. %" PetscInt_FMT ", direction %" PetscInt_FMT " (0, 1 or 2)", c0, c1, dir);
  if (c1 == c0 && GPUPCAMGLanesValid(lanes)) PetscFunctionReturn(0);
  PetscCall(GSLaunchLanes(lanes, a, true));
  PetscFunctionReturn(0);
}

/* one round of the colouring: a thread per row (GPUPCAMGColourRow, as the host's); the rows coloured and the largest
   colour by a warp reduction and one atomic per warp. A setup kernel: launched plainly on the stream. */
typedef struct {
  unsigned long long done; /* rows coloured so far */
  int                maxc; /* the largest colour given (-1: none) */
} ColourCount;

__global__ void ColourRoundKernel(PetscInt n, PetscInt r, const PetscInt *__restrict__ ai, const PetscInt *__restrict__ aj, const PetscInt *__restrict__ ti, const PetscInt *__restrict__ tj, PetscInt *colour, PetscInt *rnd, ColourCount *cnt)
{
  const PetscInt i = blockIdx.x * (PetscInt)BLOCK + threadIdx.x;
  PetscInt       c = -1;
  unsigned       got;
  int            m;

  if (i < n && rnd[i] < 0) {
    c = GPUPCAMGColourRow(i, r, ai, aj, ti, tj, colour, rnd);
    if (c >= 0) {
      colour[i] = c;
      rnd[i]    = r;
    }
  }
  got = __ballot_sync(0xffffffffu, c >= 0); /* BLOCK is a multiple of 32: whole warps */
  m   = (int)c;
  for (int o = 16; o > 0; o /= 2) m = max(m, __shfl_down_sync(0xffffffffu, m, o));
  if ((threadIdx.x & 31) == 0 && got) {
    atomicAdd(&cnt->done, (unsigned long long)__popc(got));
    atomicMax(&cnt->maxc, m);
  }
}

__global__ void ColourInitKernel(PetscInt n, PetscInt *colour, PetscInt *rnd)
{
  const PetscInt i = blockIdx.x * (PetscInt)BLOCK + threadIdx.x;

  if (i < n) colour[i] = rnd[i] = -1;
}

/* rounds until every row is coloured; the count comes back after each round (a few tens of rounds on AMG levels) */
static PetscErrorCode AMGColour_CUDA(PetscInt n, const PetscInt *ai, const PetscInt *aj, const PetscInt *ti, const PetscInt *tj, PetscInt *colour, PetscInt *ncolours, PetscInt *rounds)
{
  ColourCount h = {0ULL, -1}, *d;
  PetscInt   *rnd, r = 0;

  PetscFunctionBegin;
  *ncolours = *rounds = 0;
  if (n <= 0) PetscFunctionReturn(0);
  PetscCall(GPUPCMalloc(sizeof(h), (void **)&d));
  PetscCall(GPUPCMalloc(n * sizeof(PetscInt), (void **)&rnd));
  PetscCall(GPUPCMemcpy(d, &h, sizeof(h), GPUPC_COPY_HOST_TO_DEVICE));
  ColourInitKernel<<<Blocks(n), BLOCK, 0, GPUPCCUDAStream()>>>(n, colour, rnd);
  GPUPCCheckLaunch("gpuamg colour");
  for (; h.done < (unsigned long long)n; r++) {
    ColourRoundKernel<<<Blocks(n), BLOCK, 0, GPUPCCUDAStream()>>>(n, r, ai, aj, ti, tj, colour, rnd, d);
    GPUPCCheckLaunch("gpuamg colour");
    PetscCall(GPUPCMemcpy(&h, d, sizeof(h), GPUPC_COPY_DEVICE_TO_HOST));
    PetscCheck(r < n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpuamg colour: %" PetscInt_FMT " rounds on %" PetscInt_FMT " rows", r + 1, n);
  }
  PetscCall(GPUPCFree(rnd));
  PetscCall(GPUPCFree(d));
  *ncolours = h.maxc + 1;
  *rounds   = r;
  PetscFunctionReturn(0);
}

/* the smoothers' scalings: a thread per row (GPUPCAMGRowScaling, as the host's), the largest Gershgorin bound by a warp
   reduction and one atomic per warp on its bits (the bounds are >= 0 and not NaN: their bits order as the values), the
   first bad rows by atomicMin. A setup kernel: launched plainly on the stream, not inside a recorded cycle. */
typedef struct {
  unsigned long long gersh;  /* bits of the largest bound */
  int                bad[2]; /* first zero diagonal, first Inf or NaN (INT_MAX: none) */
} ScalingResult;

__global__ void ScalingKernel(PetscInt n, const PetscInt *__restrict__ ai, const PetscInt *__restrict__ aj, const PetscScalar *__restrict__ aa, PetscScalar *__restrict__ dinv, PetscScalar *__restrict__ dl1, ScalingResult *res)
{
  const PetscInt i = blockIdx.x * (PetscInt)BLOCK + threadIdx.x;
  PetscReal      g = 0.0;

  if (i < n) {
    PetscScalar dii = 0, l1 = 0;
    int         z, f;

    for (PetscInt k = ai[i]; k < ai[i + 1]; k++) {
      if (aj[k] == i) dii += aa[k];
      else l1 += PetscAbsScalar(aa[k]);
    }
    dinv[i] = GPUPCAMGRowScaling(dii, l1, &g, &dl1[i], &z, &f);
    if (z) atomicMin(&res->bad[0], (int)i);
    if (f) atomicMin(&res->bad[1], (int)i);
  }
  for (int o = 16; o > 0; o /= 2) g = fmax(g, __shfl_down_sync(0xffffffffu, g, o)); /* BLOCK is a multiple of 32 */
  if ((threadIdx.x & 31) == 0 && g > 0.0) atomicMax(&res->gersh, (unsigned long long)__double_as_longlong(g));
}

static PetscErrorCode AMGScaling_CUDA(PetscInt n, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, PetscScalar *dinv, PetscScalar *dl1, PetscReal *gersh, PetscInt *bad)
{
  ScalingResult h = {0ULL, {INT_MAX, INT_MAX}}, *d;
  double        g;

  PetscFunctionBegin;
  static_assert(sizeof(PetscReal) == sizeof(unsigned long long), "the bound's reduction works on the bits of a double");
  PetscCall(GPUPCMalloc(sizeof(h), (void **)&d));
  PetscCall(GPUPCMemcpy(d, &h, sizeof(h), GPUPC_COPY_HOST_TO_DEVICE));
  if (n > 0) {
    ScalingKernel<<<Blocks(n), BLOCK, 0, GPUPCCUDAStream()>>>(n, ai, aj, aa, dinv, dl1, d);
    GPUPCCheckLaunch("gpuamg scaling");
  }
  PetscCall(GPUPCMemcpy(&h, d, sizeof(h), GPUPC_COPY_DEVICE_TO_HOST));
  PetscCall(GPUPCFree(d));
  memcpy(&g, &h.gersh, sizeof(g));
  *gersh = g;
  for (int q = 0; q < 2; q++) bad[q] = h.bad[q] == INT_MAX ? -1 : h.bad[q];
  PetscFunctionReturn(0);
}

/* the Lanczos start vector: a thread per entry; a setup kernel, launched plainly on the stream */
__global__ void RandomKernel(PetscInt n, PetscInt seed, PetscInt first, PetscScalar *__restrict__ x)
{
  const PetscInt i = blockIdx.x * (PetscInt)BLOCK + threadIdx.x;

  if (i < n) x[i] = GPUPCAMGRandomSigned(seed, first + i);
}

static PetscErrorCode AMGRandom_CUDA(PetscInt n, PetscInt seed, PetscInt first, PetscScalar *x)
{
  PetscFunctionBegin;
  if (n > 0) {
    RandomKernel<<<Blocks(n), BLOCK, 0, GPUPCCUDAStream()>>>(n, seed, first, x);
    GPUPCCheckLaunch("gpuamg random");
  }
  PetscFunctionReturn(0);
}

/* the table: every member's Stem_CUDA from GPUPC_AMG_KERNEL_LIST, by name (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_DEFINE(GPUPCAMGKernels, GPUPCAMGKernelsCUDA, GPUPC_AMG_KERNEL_LIST, "cuda", _CUDA);

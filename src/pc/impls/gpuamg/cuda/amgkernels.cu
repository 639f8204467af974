/*
   CUDA implementation of the gpuamg cycle kernels (gpupc/amgkernels.h).

   The element-wise kernels (Jacobi and Chebyshev steps, residual) are one thread per entry; the dense product of the
   last level is a warp per row (y = M x) or a thread per column (y = M^T x, consecutive threads read consecutive
   entries of a row). Every kernel is launched dependent (GPUPCLaunchDependent): it may start while the kernel before it
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

/* Gauss-Seidel on one colour: a thread per row of the colour (the rows of a colour are not coupled, so the order does
   not matter); the row's entries are read by its thread (rows of a few to ~100 entries on AMG levels) */
__global__ void GSColourKernel(PetscInt nr, const PetscInt *__restrict__ rows, const PetscInt *__restrict__ ai, const PetscInt *__restrict__ aj, const PetscScalar *__restrict__ aa, const PetscScalar *__restrict__ dinv, const PetscScalar *__restrict__ b, PetscScalar *x)
{
  const PetscInt k = blockIdx.x * (PetscInt)BLOCK + threadIdx.x;
  PetscInt       i = -1;
  PetscScalar    s;

  if (k < nr) i = rows[k];
  GPUPCWaitPrevious();
  GPUPCLetNextLaunch();
  if (i < 0) return;
  s = b[i];
  for (PetscInt e = ai[i]; e < ai[i + 1]; e++) s -= aa[e] * x[aj[e]];
  x[i] += dinv[i] * s;
}

static PetscErrorCode AMGGSColour_CUDA(PetscInt nr, const PetscInt *rows, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, const PetscScalar *dinv, const PetscScalar *b, PetscScalar *x)
{
  PetscFunctionBegin;
  if (nr <= 0) PetscFunctionReturn(0);
  AMGLaunch(Blocks(nr), GSColourKernel, nr, rows, ai, aj, aa, dinv, b, x);
  GPUPCCheckLaunch("gpuamg gs_colour");
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

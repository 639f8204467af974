/*
   CUDA implementation of the gpuamg cycle kernels (gpupc/amgkernels.h).

   The element-wise kernels (Jacobi and Chebyshev steps, residual) are one thread per entry; the dense product of the
   last level is a warp per row (y = M x) or a thread per column (y = M^T x, consecutive threads read consecutive
   entries of a row). Every kernel is launched dependent (GPUPCLaunchDependent): it may start while the kernel before it
   finishes, reads its weights (data no kernel of the cycle writes) before GPUPCWaitPrevious and everything else after.
*/
#include <gpupc/cuda.h>
#include <gpupc/amgkernels.h>

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

/* the table: every member's Stem_CUDA from GPUPC_AMG_KERNEL_LIST, by name (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_DEFINE(GPUPCAMGKernels, GPUPCAMGKernelsCUDA, GPUPC_AMG_KERNEL_LIST, "cuda", _CUDA);

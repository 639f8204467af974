/*
   CUDA implementation of the vector kernels (gpupc/veckernels.h).

   Element-wise kernels: one grid-stride template driven by a functor.
   Reductions: one single-launch template (grid-stride partial sums, block reduction with
   warp shuffles, the last block to finish combines the per-block partials), K results per
   pass with a sum or max combine per slot, so a multi-dot reads x once.
*/
#include <gpupc/cuda.h>
#include <gpupc/veckernels.h>
#include <math_constants.h>

#define BLOCK 256

/* ------------------------------------------------------------------ element-wise */

template <class F>
__global__ void ElementwiseKernel(PetscInt n, F f)
{
  for (PetscInt i = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x; i < n; i += (PetscInt)gridDim.x * blockDim.x) f(i);
}

/* one element per thread: streaming kernels reach the highest bandwidth with a full grid */
template <class F>
static PetscErrorCode LaunchElementwise(const char *name, PetscInt n, F f)
{
  PetscFunctionBegin;
  if (n <= 0) PetscFunctionReturn(0);
  ElementwiseKernel<<<(unsigned int)((n + BLOCK - 1) / BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>(n, f);
  GPUPCCheckLaunch(name);
  PetscFunctionReturn(0);
}

struct SetF {
  PetscScalar     a, *y;
  __device__ void operator()(PetscInt i) const { y[i] = a; }
};
struct ScaleF {
  PetscScalar     a, *y;
  __device__ void operator()(PetscInt i) const { y[i] *= a; }
};
struct ShiftF {
  PetscScalar     a, *y;
  __device__ void operator()(PetscInt i) const { y[i] += a; }
};
struct AXPBYF {
  PetscScalar        a, b;
  const PetscScalar *x;
  PetscScalar       *y;
  __device__ void    operator()(PetscInt i) const { y[i] = a * x[i] + b * y[i]; }
};
struct AXF { /* beta == 0: y is write-only */
  PetscScalar        a;
  const PetscScalar *x;
  PetscScalar       *y;
  __device__ void    operator()(PetscInt i) const { y[i] = a * x[i]; }
};
struct AXPBYPCZF {
  PetscScalar        a, b, c;
  const PetscScalar *x, *y;
  PetscScalar       *z;
  __device__ void    operator()(PetscInt i) const { z[i] = a * x[i] + b * y[i] + c * z[i]; }
};
struct AXPBYZF { /* gamma == 0: z is write-only */
  PetscScalar        a, b;
  const PetscScalar *x, *y;
  PetscScalar       *z;
  __device__ void    operator()(PetscInt i) const { z[i] = a * x[i] + b * y[i]; }
};
struct SwapF {
  PetscScalar    *x, *y;
  __device__ void operator()(PetscInt i) const
  {
    PetscScalar t = x[i];
    x[i]          = y[i];
    y[i]          = t;
  }
};
struct WAXPYF {
  PetscScalar        a;
  const PetscScalar *x, *y;
  PetscScalar       *w;
  __device__ void    operator()(PetscInt i) const { w[i] = a * x[i] + y[i]; }
};
template <int NV>
struct MAXPYF {
  PetscScalar        a[NV];
  const PetscScalar *x[NV];
  PetscScalar       *y;
  __device__ void    operator()(PetscInt i) const
  {
    PetscScalar s = y[i];
#pragma unroll
    for (int j = 0; j < NV; j++) s += a[j] * x[j][i];
    y[i] = s;
  }
};
struct PointwiseF {
  GPUPCPointwiseOp   op;
  const PetscScalar *x, *y;
  PetscScalar       *w;
  __device__ void    operator()(PetscInt i) const
  {
    PetscScalar a = x[i], b = y[i];
    switch (op) {
    case GPUPC_PW_MULT: w[i] = a * b; break;
    case GPUPC_PW_DIVIDE: w[i] = b != 0.0 ? a / b : 0.0; break;
    case GPUPC_PW_MAX: w[i] = a > b ? a : b; break;
    case GPUPC_PW_MIN: w[i] = a < b ? a : b; break;
    case GPUPC_PW_MAXABS: w[i] = fmax(fabs(a), fabs(b)); break;
    }
  }
};
struct UnaryF {
  GPUPCUnaryOp    op;
  PetscScalar    *x;
  __device__ void operator()(PetscInt i) const
  {
    PetscScalar a = x[i];
    switch (op) {
    case GPUPC_UNARY_RECIPROCAL: x[i] = a != 0.0 ? 1.0 / a : 0.0; break;
    case GPUPC_UNARY_ABS: x[i] = fabs(a); break;
    case GPUPC_UNARY_SQRT_ABS: x[i] = sqrt(fabs(a)); break;
    case GPUPC_UNARY_EXP: x[i] = exp(a); break;
    case GPUPC_UNARY_LOG: x[i] = log(a); break;
    }
  }
};

static PetscErrorCode Set_CUDA(PetscInt n, PetscScalar a, PetscScalar *y)
{
  return LaunchElementwise("set", n, SetF{a, y});
}
static PetscErrorCode Scale_CUDA(PetscInt n, PetscScalar a, PetscScalar *y)
{
  return LaunchElementwise("scale", n, ScaleF{a, y});
}
static PetscErrorCode Shift_CUDA(PetscInt n, PetscScalar a, PetscScalar *y)
{
  return LaunchElementwise("shift", n, ShiftF{a, y});
}
static PetscErrorCode AXPBY_CUDA(PetscInt n, PetscScalar a, const PetscScalar *x, PetscScalar b, PetscScalar *y)
{
  if (b == 0.0) return LaunchElementwise("axpby", n, AXF{a, x, y});
  return LaunchElementwise("axpby", n, AXPBYF{a, b, x, y});
}
static PetscErrorCode AXPBYPCZ_CUDA(PetscInt n, PetscScalar a, const PetscScalar *x, PetscScalar b, const PetscScalar *y, PetscScalar c, PetscScalar *z)
{
  if (c == 0.0) return LaunchElementwise("axpbypcz", n, AXPBYZF{a, b, x, y, z});
  return LaunchElementwise("axpbypcz", n, AXPBYPCZF{a, b, c, x, y, z});
}
static PetscErrorCode Swap_CUDA(PetscInt n, PetscScalar *x, PetscScalar *y)
{
  return LaunchElementwise("swap", n, SwapF{x, y});
}
static PetscErrorCode WAXPY_CUDA(PetscInt n, PetscScalar a, const PetscScalar *x, const PetscScalar *y, PetscScalar *w)
{
  return LaunchElementwise("waxpy", n, WAXPYF{a, x, y, w});
}

template <int NV>
static PetscErrorCode MAXPYN(PetscInt n, const PetscScalar *alpha, const PetscScalar *const *x, PetscScalar *y)
{
  MAXPYF<NV> f;
  for (int j = 0; j < NV; j++) {
    f.a[j] = alpha[j];
    f.x[j] = x[j];
  }
  f.y = y;
  return LaunchElementwise("maxpy", n, f);
}

/* 9 .. GPUPC_MAX_MAXPY vectors in one pass: the loop unrolled to the maximum, entries past nv skipped (no padding
   vectors read) */
struct MAXPYManyF {
  int                nv;
  PetscScalar        a[GPUPC_MAX_MAXPY];
  const PetscScalar *x[GPUPC_MAX_MAXPY];
  PetscScalar       *y;
  __device__ void    operator()(PetscInt i) const
  {
    PetscScalar s = y[i];
#pragma unroll
    for (int j = 0; j < GPUPC_MAX_MAXPY; j++)
      if (j < nv) s += a[j] * x[j][i];
    y[i] = s;
  }
};

static PetscErrorCode MAXPY_CUDA(PetscInt n, PetscInt nv, const PetscScalar *alpha, const PetscScalar *const *x, PetscScalar *y)
{
  PetscFunctionBegin;
  if (nv > GPUPC_MAX_MULTI && nv <= GPUPC_MAX_MAXPY) {
    MAXPYManyF f;

    f.nv = (int)nv;
    for (int j = 0; j < GPUPC_MAX_MAXPY; j++) {
      f.a[j] = j < nv ? alpha[j] : 0.0;
      f.x[j] = j < nv ? x[j] : NULL;
    }
    f.y = y;
    PetscCall(LaunchElementwise("maxpy", n, f));
    PetscFunctionReturn(0);
  }
  switch (nv) {
  case 0: break;
  case 1: PetscCall(MAXPYN<1>(n, alpha, x, y)); break;
  case 2: PetscCall(MAXPYN<2>(n, alpha, x, y)); break;
  case 3: PetscCall(MAXPYN<3>(n, alpha, x, y)); break;
  case 4: PetscCall(MAXPYN<4>(n, alpha, x, y)); break;
  case 5: PetscCall(MAXPYN<5>(n, alpha, x, y)); break;
  case 6: PetscCall(MAXPYN<6>(n, alpha, x, y)); break;
  case 7: PetscCall(MAXPYN<7>(n, alpha, x, y)); break;
  case 8: PetscCall(MAXPYN<8>(n, alpha, x, y)); break;
  default: SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "maxpy kernel takes at most %d vectors, got %" PetscInt_FMT, GPUPC_MAX_MAXPY, nv);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Pointwise_CUDA(GPUPCPointwiseOp op, PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscScalar *w)
{
  return LaunchElementwise("pointwise", n, PointwiseF{op, x, y, w});
}
static PetscErrorCode Unary_CUDA(GPUPCUnaryOp op, PetscInt n, PetscScalar *x)
{
  return LaunchElementwise("unary", n, UnaryF{op, x});
}

/* ------------------------------------------------------------------ reductions */

enum Combine {
  SUM,
  MAX,
  MIN
};

__device__ __forceinline__ double CombineValues(Combine c, double a, double b)
{
  switch (c) {
  case MAX: return (a > b || a != a) ? a : b; /* NaN wins, as the host reference */
  case MIN: return a < b ? a : b;
  default: return a + b;
  }
}
__device__ __forceinline__ double Identity(Combine c)
{
  return c == MAX ? -CUDART_INF : (c == MIN ? CUDART_INF : 0.0);
}

/* A reduction functor F provides: static const int K; Combine combine[K] (as comb(k));
   __device__ void accumulate(PetscInt i, double acc[K]) const */
template <int K>
__device__ void BlockReduce(double acc[K], const Combine *comb, double (*shared)[32])
{
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
#pragma unroll
  for (int k = 0; k < K; k++) {
    for (int off = 16; off > 0; off >>= 1) acc[k] = CombineValues(comb[k], acc[k], __shfl_down_sync(0xffffffffu, acc[k], off));
    if (lane == 0) shared[k][warp] = acc[k];
  }
  __syncthreads();
  if (warp == 0) {
#pragma unroll
    for (int k = 0; k < K; k++) {
      acc[k] = lane < nwarps ? shared[k][lane] : Identity(comb[k]);
      for (int off = 16; off > 0; off >>= 1) acc[k] = CombineValues(comb[k], acc[k], __shfl_down_sync(0xffffffffu, acc[k], off));
    }
  }
}

template <int K, class F>
__global__ void __launch_bounds__(BLOCK) ReduceKernel(PetscInt n, F f, double *partial, double *result, unsigned int *counter)
{
  __shared__ double shared[K][32];
  __shared__ bool   last;
  double            acc[K];
  Combine           comb[K];

#pragma unroll
  for (int k = 0; k < K; k++) {
    comb[k] = f.comb(k);
    acc[k]  = Identity(comb[k]);
  }
  {
    /* four independent loads in flight per thread before their adds */
    const PetscInt stride = (PetscInt)gridDim.x * blockDim.x;
    PetscInt       i      = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
      f.accumulate(i, acc);
      f.accumulate(i + stride, acc);
      f.accumulate(i + 2 * stride, acc);
      f.accumulate(i + 3 * stride, acc);
    }
    for (; i < n; i += stride) f.accumulate(i, acc);
  }
  BlockReduce<K>(acc, comb, shared);
  if (threadIdx.x == 0) {
#pragma unroll
    for (int k = 0; k < K; k++) partial[k * gridDim.x + blockIdx.x] = acc[k];
    __threadfence();
    last = atomicInc(counter, gridDim.x - 1) == gridDim.x - 1; /* wraps to 0: ready for the next launch */
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
#pragma unroll
  for (int k = 0; k < K; k++) {
    acc[k] = Identity(comb[k]);
    for (unsigned int b = threadIdx.x; b < gridDim.x; b += blockDim.x) acc[k] = CombineValues(comb[k], acc[k], ((volatile double *)partial)[k * gridDim.x + b]);
  }
  __syncthreads();
  BlockReduce<K>(acc, comb, shared);
  if (threadIdx.x == 0) {
#pragma unroll
    for (int k = 0; k < K; k++) result[k] = acc[k];
  }
}

/* The scratch of the reductions: a completion counter at the start (zeroed whenever the buffer is new; every launch
   leaves it at 0) and the per-block partials of up to K results. Launches in the rank's stream run one after the other,
   so consecutive reductions share it. */
static PetscErrorCode ReduceScratch(int K, int grid, char **base)
{
  const size_t partial_off = 256, bytes = partial_off + (size_t)K * grid * sizeof(double);
  void        *scratch;
  PetscBool    fresh;

  PetscFunctionBegin;
  PetscCall(GPUPCCUDAGetScratch(GPUPC_SCRATCH_REDUCTION, bytes, &scratch, &fresh));
  if (fresh) GPUPCCallCUDA(cudaMemsetAsync(scratch, 0, partial_off, GPUPCCUDAStream()));
  *base = (char *)scratch;
  PetscFunctionReturn(0);
}

/* launches one reduction of K results into result (device-writable memory) and returns without waiting */
template <int K, class F>
static PetscErrorCode ReduceLaunch(const char *name, PetscInt n, const F &f, int grid, char *base, double *result)
{
  PetscFunctionBegin;
  ReduceKernel<K, F><<<grid, BLOCK, 0, GPUPCCUDAStream()>>>(n, f, (double *)(base + 256), result, (unsigned int *)base);
  GPUPCCheckLaunch(name);
  PetscFunctionReturn(0);
}

/* Runs one reduction and returns its K results on the host (waits for the device). The last block writes the results
   straight into page-locked host memory (mapped into the device's address space), so the stream holds the kernel
   only and no device-to-host copy: at n = 10^5 on the H200 a VecDot took 19 us with that copy. */
template <int K, class F>
static PetscErrorCode Reduce(const char *name, PetscInt n, const F &f, double *out)
{
  const int grid = GPUPCCUDAGridSize(n, BLOCK);
  void     *pinned;
  char     *base;

  PetscFunctionBegin;
  PetscCall(ReduceScratch(K, grid, &base));
  PetscCall(GPUPCCUDAGetPinnedResult(K * sizeof(double), &pinned));
  PetscCall(ReduceLaunch<K, F>(name, n, f, grid, base, (double *)pinned));
  GPUPCCallCUDA(cudaStreamSynchronize(GPUPCCUDAStream()));
  for (int k = 0; k < K; k++) out[k] = ((double *)pinned)[k];
  PetscFunctionReturn(0);
}

template <int NV>
struct MDotF {
  const PetscScalar *x, *y[NV];
  __device__ Combine comb(int) const { return SUM; }
  __device__ void    accumulate(PetscInt i, double acc[NV]) const
  {
    const PetscScalar xi = x[i];
#pragma unroll
    for (int j = 0; j < NV; j++) acc[j] += xi * y[j][i];
  }
};

template <int NV>
static PetscErrorCode MDotN(PetscInt n, const PetscScalar *x, const PetscScalar *const *y, int grid, char *base, double *result)
{
  MDotF<NV> f;
  f.x = x;
  for (int j = 0; j < NV; j++) f.y[j] = y[j];
  return ReduceLaunch<NV>("mdot", n, f, grid, base, result);
}

static_assert(GPUPC_MAX_MULTI == 8, "MDot_CUDA and MAXPY_CUDA instantiate their kernels for 1 .. 8 vectors");

/* any number of vectors: one kernel per GPUPC_MAX_MULTI of them (each reads x once), all launched before the one wait */
static PetscErrorCode MDot_CUDA(PetscInt n, const PetscScalar *x, PetscInt nv, const PetscScalar *const *y, PetscScalar *val)
{
  const int grid = GPUPCCUDAGridSize(n, BLOCK);
  void     *pinned;
  char     *base;

  PetscFunctionBegin;
  if (nv <= 0) PetscFunctionReturn(0);
  PetscCall(ReduceScratch(GPUPC_MAX_MULTI, grid, &base));
  PetscCall(GPUPCCUDAGetPinnedResult(nv * sizeof(double), &pinned)); /* before the launches: it may move when it grows */
  for (PetscInt j0 = 0; j0 < nv; j0 += GPUPC_MAX_MULTI) {
    const PetscInt            m  = PetscMin(GPUPC_MAX_MULTI, nv - j0);
    const PetscScalar *const *yj = y + j0;
    double                   *r  = (double *)pinned + j0;

    switch (m) {
    case 1: PetscCall(MDotN<1>(n, x, yj, grid, base, r)); break;
    case 2: PetscCall(MDotN<2>(n, x, yj, grid, base, r)); break;
    case 3: PetscCall(MDotN<3>(n, x, yj, grid, base, r)); break;
    case 4: PetscCall(MDotN<4>(n, x, yj, grid, base, r)); break;
    case 5: PetscCall(MDotN<5>(n, x, yj, grid, base, r)); break;
    case 6: PetscCall(MDotN<6>(n, x, yj, grid, base, r)); break;
    case 7: PetscCall(MDotN<7>(n, x, yj, grid, base, r)); break;
    default: PetscCall(MDotN<8>(n, x, yj, grid, base, r)); break;
    }
  }
  GPUPCCallCUDA(cudaStreamSynchronize(GPUPCCUDAStream()));
  for (PetscInt j = 0; j < nv; j++) val[j] = ((double *)pinned)[j];
  PetscFunctionReturn(0);
}

struct DotNorm2F {
  const PetscScalar *x, *y;
  __device__ Combine comb(int) const { return SUM; }
  __device__ void    accumulate(PetscInt i, double acc[2]) const
  {
    const PetscScalar yi = y[i];
    acc[0] += x[i] * yi;
    acc[1] += yi * yi;
  }
};
static PetscErrorCode DotNorm2_CUDA(PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscScalar *val)
{
  return Reduce<2>("dotnorm2", n, DotNorm2F{x, y}, val);
}

struct NormsF {
  const PetscScalar *x;
  __device__ Combine comb(int k) const { return k == 2 ? MAX : SUM; }
  __device__ void    accumulate(PetscInt i, double acc[3]) const
  {
    const double a = fabs(x[i]);
    acc[0] += a;
    acc[1] += a * a;
    acc[2] = CombineValues(MAX, a, acc[2]);
  }
};
static PetscErrorCode Norms_CUDA(PetscInt n, const PetscScalar *x, PetscReal *val)
{
  PetscFunctionBegin;
  PetscCall(Reduce<3>("norms", n, NormsF{x}, val));
  if (n == 0) val[2] = 0.0;
  PetscFunctionReturn(0);
}

struct MaxPointwiseDivideF {
  const PetscScalar *x, *y;
  __device__ Combine comb(int) const { return MAX; }
  __device__ void    accumulate(PetscInt i, double acc[1]) const
  {
    const double b = y[i], q = b != 0.0 ? fabs(x[i] / b) : fabs(x[i]);
    acc[0] = q > acc[0] ? q : acc[0];
  }
};
static PetscErrorCode MaxPointwiseDivide_CUDA(PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscReal *val)
{
  PetscFunctionBegin;
  PetscCall(Reduce<1>("maxpointwisedivide", n, MaxPointwiseDivideF{x, y}, val));
  if (n == 0) *val = 0.0;
  PetscFunctionReturn(0);
}

struct ExtremeValueF {
  const PetscScalar *x;
  double             sign;
  __device__ Combine comb(int) const { return MAX; }
  __device__ void    accumulate(PetscInt i, double acc[1]) const { acc[0] = CombineValues(MAX, sign * x[i], acc[0]); }
};
struct FirstIndexOfF {
  const PetscScalar *x;
  double             v;
  __device__ Combine comb(int) const { return MIN; }
  __device__ void    accumulate(PetscInt i, double acc[1]) const
  {
    if (x[i] == v && (double)i < acc[0]) acc[0] = (double)i;
  }
};
/* two passes: the extreme value, then the smallest index holding it (VecMax/VecMin are rare) */
static PetscErrorCode Extremum_CUDA(PetscInt n, const PetscScalar *x, PetscInt sign, PetscReal *val, PetscInt *idx)
{
  double v = 0.0, at = 0.0;

  PetscFunctionBegin;
  if (n == 0) {
    *val = sign > 0 ? PETSC_MIN_REAL : PETSC_MAX_REAL;
    *idx = -1;
    PetscFunctionReturn(0);
  }
  PetscCall(Reduce<1>("extremum", n, ExtremeValueF{x, (double)sign}, &v));
  v = sign * v;
  PetscCall(Reduce<1>("extremum_index", n, FirstIndexOfF{x, v}, &at));
  *val = v;
  *idx = at < (double)n ? (PetscInt)at : 0; /* NaN everywhere: no entry equals v */
  PetscFunctionReturn(0);
}

struct SumF {
  const PetscScalar *x;
  __device__ Combine comb(int) const { return SUM; }
  __device__ void    accumulate(PetscInt i, double acc[1]) const { acc[0] += x[i]; }
};
static PetscErrorCode Sum_CUDA(PetscInt n, const PetscScalar *x, PetscScalar *val)
{
  return Reduce<1>("sum", n, SumF{x}, val);
}

/* ------------------------------------------------------------------ fused CG (KSP gpucg) */

struct CGUpdateF {
  PetscScalar     alpha, beta;
  GPUPCCGVectors  v;
  __device__ void operator()(PetscInt i) const
  {
    const PetscScalar p = beta == 0.0 ? v.u[i] : v.u[i] + beta * v.p[i];
    const PetscScalar s = beta == 0.0 ? v.w[i] : v.w[i] + beta * v.s[i];

    v.p[i] = p;
    v.s[i] = s;
    v.x[i] += alpha * p;
    v.r[i] -= alpha * s;
  }
};
static PetscErrorCode CGUpdate_CUDA(PetscInt n, PetscScalar alpha, PetscScalar beta, GPUPCCGVectors v)
{
  return LaunchElementwise("cgupdate", n, CGUpdateF{alpha, beta, v});
}

/* (r.u, w.u, u.u, r.r) of entry i */
__device__ __forceinline__ void CGDotsAccumulate(const GPUPCCGVectors &v, PetscInt i, double acc[GPUPC_CG_NDOTS])
{
  const PetscScalar u = v.u[i], r = v.r[i];

  acc[0] += r * u;
  acc[1] += v.w[i] * u;
  acc[2] += u * u;
  acc[3] += r * r;
}

struct CGDotsF {
  GPUPCCGVectors     v;
  __device__ Combine comb(int) const { return SUM; }
  __device__ void    accumulate(PetscInt i, double acc[GPUPC_CG_NDOTS]) const { CGDotsAccumulate(v, i, acc); }
};

/* the pipelined update of entry i, then its terms of the dots of the new r, u, w */
struct PipeCGUpdateF {
  PetscScalar        alpha, beta;
  GPUPCCGVectors     v;
  __device__ Combine comb(int) const { return SUM; }
  __device__ void    accumulate(PetscInt i, double acc[GPUPC_CG_NDOTS]) const
  {
    const PetscScalar z = beta == 0.0 ? v.n[i] : v.n[i] + beta * v.z[i];
    const PetscScalar q = beta == 0.0 ? v.m[i] : v.m[i] + beta * v.q[i];
    const PetscScalar s = beta == 0.0 ? v.w[i] : v.w[i] + beta * v.s[i];
    const PetscScalar p = beta == 0.0 ? v.u[i] : v.u[i] + beta * v.p[i];
    const PetscScalar r = v.r[i] - alpha * s, u = v.u[i] - alpha * q, w = v.w[i] - alpha * z;

    v.z[i] = z;
    v.q[i] = q;
    v.s[i] = s;
    v.p[i] = p;
    v.x[i] += alpha * p;
    v.r[i] = r;
    v.u[i] = u;
    v.w[i] = w;
    acc[0] += r * u;
    acc[1] += w * u;
    acc[2] += u * u;
    acc[3] += r * r;
  }
};

/* Launches one reduction of GPUPC_CG_NDOTS results and returns without waiting: the last block writes the results into
   val (page-locked host memory, mapped into the device's address space); work holds the completion counter (first 256
   bytes, zeroed once by the caller, left at 0 by every launch) and the per-block partials. */
template <class F>
static PetscErrorCode ReduceAsync(const char *name, PetscInt n, const F &f, void *work, PetscScalar *val)
{
  return ReduceLaunch<GPUPC_CG_NDOTS, F>(name, n, f, PetscMin(GPUPCCUDAGridSize(n, BLOCK), GPUPC_CG_MAX_BLOCKS), (char *)work, (double *)val);
}

static PetscErrorCode CGDots_CUDA(PetscInt n, GPUPCCGVectors v, void *work, PetscScalar *val)
{
  return ReduceAsync("cgdots", n, CGDotsF{v}, work, val);
}
static PetscErrorCode PipeCGUpdate_CUDA(PetscInt n, PetscScalar alpha, PetscScalar beta, GPUPCCGVectors v, void *work, PetscScalar *val)
{
  return ReduceAsync("pipecgupdate", n, PipeCGUpdateF{alpha, beta, v}, work, val);
}

/* the table: every member's Stem_CUDA from GPUPC_VEC_KERNEL_LIST, by name (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_DEFINE(GPUPCVecKernels, GPUPCVecKernelsCUDA, GPUPC_VEC_KERNEL_LIST, "cuda", _CUDA);

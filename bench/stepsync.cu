/*
   bench/stepsync.cu - what one step of a chain of small dependent sparse passes costs on this GPU, by the way the
   steps are separated (a design measurement for the CMG cycle's latency-bound levels; no PETSc, no GPUPC):

     graph-pdl     S kernels recorded in a CUDA graph, each a dependent launch (programmatic stream serialization,
                   griddepcontrol.wait / launch_dependents), as the CMG cycle runs today
     graph         the same without the dependent launch
     persist-B     one kernel of B resident blocks per SM that runs the S steps itself, a grid barrier between steps
                   (one arrival counter and a generation word, acquire/release atomics)
     cluster-C     one kernel of ONE thread block cluster (Hopper) of C blocks of CBLOCK threads that runs the S steps
                   itself, the hardware cluster barrier (barrier.cluster arrive.release / wait.acquire) between steps:
                   what a sub-cycle of the small levels would cost on a few SMs

   A step is y = x / 2 + A x for a random sparse A of n rows and d entries per row (a group of G = 8 lanes per row),
   then x and y swap: a gather per entry, like a CMG smoothing. Every variant's result after the S steps is first
   checked against the same steps on the host; a variant that disagrees is reported WRONG instead of timed (and the
   program exits with 1), otherwise it prints microseconds per step.

   Build (not part of the library's build): nvcc -O3 -std=c++17 -arch=sm_90 bench/stepsync.cu -o build/bench/stepsync
   Run: build/bench/stepsync [n ...]
*/
#include <cuda/atomic>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(e) \
  do { \
    cudaError_t err_ = (e); \
    if (err_ != cudaSuccess) { \
      fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      exit(1); \
    } \
  } while (0)

constexpr int BLOCK = 256, G = 8, DEG = 16, STEPS = 200;

struct Level {
  int           n;
  const int    *rowptr, *col;
  const double *val;
};

/* rows of virtual block blk (t: the thread's index in it): y = x / 2 + A x */
__device__ __forceinline__ void StepBlock(const Level &L, int blk, int t, const double *x, double *y)
{
  const int row = (blk * BLOCK + t) / G, lane = t % G;
  double    s   = 0;

  if (row < L.n)
    for (int k = L.rowptr[row] + lane; k < L.rowptr[row + 1]; k += G) s += L.val[k] * x[L.col[k]];
  for (int off = G / 2; off > 0; off /= 2) s += __shfl_down_sync(0xffffffffu, s, off, G);
  if (row < L.n && lane == 0) y[row] = 0.5 * x[row] + s;
}

__global__ void StepKernel(Level L, const double *x, double *y)
{
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
  StepBlock(L, blockIdx.x, threadIdx.x, x, y);
}

__device__ void GridBarrier(unsigned *count, unsigned *gen, unsigned nblocks)
{
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> c(*count), g(*gen);
    const unsigned                                        mine = g.load(cuda::memory_order_relaxed);
    if (c.fetch_add(1, cuda::memory_order_acq_rel) == nblocks - 1) {
      c.store(0, cuda::memory_order_relaxed);
      g.fetch_add(1, cuda::memory_order_release);
    } else
      while (g.load(cuda::memory_order_acquire) == mine) {}
  }
  __syncthreads();
}

__global__ void PersistKernel(Level L, double *x, double *y, int steps, unsigned *bar)
{
  const int vblocks = (L.n * G + BLOCK - 1) / BLOCK;
  for (int s = 0; s < steps; s++) {
    for (int blk = blockIdx.x; blk < vblocks; blk += gridDim.x) StepBlock(L, blk, threadIdx.x, x, y);
    double *t = x;
    x         = y;
    y         = t;
    if (s + 1 < steps) GridBarrier(bar, bar + 1, gridDim.x);
  }
}

/* one cluster of gridDim.x blocks of CBLOCK threads (CBLOCK / BLOCK virtual blocks each) */
constexpr int CBLOCK = 1024;
__global__ void __launch_bounds__(CBLOCK) ClusterKernel(Level L, double *x, double *y, int steps)
{
  const int vblocks = (L.n * G + BLOCK - 1) / BLOCK, per = CBLOCK / BLOCK;
  for (int s = 0; s < steps; s++) {
    for (int blk = blockIdx.x * per + (int)threadIdx.x / BLOCK; blk < vblocks; blk += gridDim.x * per) StepBlock(L, blk, threadIdx.x % BLOCK, x, y);
    double *t = x;
    x         = y;
    y         = t;
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
  }
}

/* the S steps on the host, for the check of every variant */
static std::vector<double> Reference(int n, const std::vector<int> &rp, const std::vector<int> &cl, const std::vector<double> &v, std::vector<double> x)
{
  std::vector<double> y(n);
  for (int s = 0; s < STEPS; s++) {
    for (int i = 0; i < n; i++) {
      double t = 0;
      for (int k = rp[i]; k < rp[i + 1]; k++) t += v[k] * x[cl[k]];
      y[i] = 0.5 * x[i] + t;
    }
    x.swap(y);
  }
  return x;
}

/* runs the S steps once from x0 (S is even, so the result is back in x); false (and a message) unless it matches the
   host */
static bool Check(const char *what, cudaGraphExec_t g, cudaStream_t st, const std::vector<double> &x0, const std::vector<double> &ref, double *x)
{
  std::vector<double> got(x0.size());
  double              err = 0, scale = 0;
  /* on st: a cudaMemcpy from pageable memory may return before its copy has reached the device */
  CHECK(cudaMemcpyAsync(x, x0.data(), x0.size() * sizeof(double), cudaMemcpyHostToDevice, st));
  CHECK(cudaGraphLaunch(g, st));
  CHECK(cudaStreamSynchronize(st));
  CHECK(cudaMemcpy(got.data(), x, got.size() * sizeof(double), cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < got.size(); i++) {
    err   = std::max(err, std::fabs(got[i] - ref[i]));
    scale = std::max(scale, std::fabs(ref[i]));
  }
  if (err <= 1e-12 * scale) return true;
  printf("  %s WRONG (max error %g against the host, max |x| %g)", what, err, scale);
  return false;
}

static float TimeGraph(cudaGraphExec_t g, cudaStream_t st, int reps)
{
  cudaEvent_t a, b;
  float       ms;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  CHECK(cudaGraphLaunch(g, st));
  CHECK(cudaEventRecord(a, st));
  for (int r = 0; r < reps; r++) CHECK(cudaGraphLaunch(g, st));
  CHECK(cudaEventRecord(b, st));
  CHECK(cudaEventSynchronize(b));
  CHECK(cudaEventElapsedTime(&ms, a, b));
  return ms / reps;
}

/* ends the capture on st of one variant's steps, checks the variant and prints its time per step; 1 when it is wrong */
static int Finish(const char *name, cudaStream_t st, const std::vector<double> &x0, const std::vector<double> &ref, double *x)
{
  cudaGraph_t     graph;
  cudaGraphExec_t exec;
  int             wrong = 0;

  CHECK(cudaStreamEndCapture(st, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  if (Check(name, exec, st, x0, ref, x)) printf("  %s %.2f", name, 1e3f * TimeGraph(exec, st, 20) / STEPS);
  else wrong = 1;
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  return wrong;
}

int main(int argc, char **argv)
{
  std::vector<int> sizes;
  int              sms, wrong = 0;
  char             name[32];
  cudaStream_t     st;

  for (int i = 1; i < argc; i++) sizes.push_back(atoi(argv[i]));
  if (sizes.empty()) sizes = {600, 1200, 5000, 22000, 100000};
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  static_assert(STEPS % 2 == 0, "the check expects the result back in x");
  printf("stepsync: %d SMs, %d steps, %d entries per row, %d lanes per row, blocks of %d\n", sms, STEPS, DEG, G, BLOCK);
  for (int n : sizes) {
    std::vector<int>    rp(n + 1), cl((size_t)n * DEG);
    std::vector<double> v((size_t)n * DEG), x0(n);
    int                *rowptr, *col;
    double             *val, *x, *y;
    unsigned           *bar;
    srand(1);
    for (int i = 0; i <= n; i++) rp[i] = i * DEG;
    for (size_t k = 0; k < cl.size(); k++) {
      cl[k] = rand() % n;
      v[k]  = 0.5 / DEG; /* y = x / 2 + mean of 16 entries of x / 2: x stays O(1), so the check compares O(1) values */
    }
    for (int i = 0; i < n; i++) x0[i] = 1.0 + (i % 7);
    CHECK(cudaMalloc(&rowptr, rp.size() * sizeof(int)));
    CHECK(cudaMalloc(&col, cl.size() * sizeof(int)));
    CHECK(cudaMalloc(&val, v.size() * sizeof(double)));
    CHECK(cudaMalloc(&x, n * sizeof(double)));
    CHECK(cudaMalloc(&y, n * sizeof(double)));
    CHECK(cudaMalloc(&bar, 2 * sizeof(unsigned)));
    CHECK(cudaMemset(bar, 0, 2 * sizeof(unsigned)));
    CHECK(cudaMemcpy(rowptr, rp.data(), rp.size() * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(col, cl.data(), cl.size() * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(val, v.data(), v.size() * sizeof(double), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(x, x0.data(), n * sizeof(double), cudaMemcpyHostToDevice));
    const std::vector<double> ref = Reference(n, rp, cl, v, x0);
    Level                     L   = {n, rowptr, col, val};
    const unsigned vblocks = (unsigned)(((size_t)n * G + BLOCK - 1) / BLOCK);

    printf("n %7d (%u blocks of work per step):", n, vblocks);
    for (int pdl = 1; pdl >= 0; pdl--) {
      CHECK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
      for (int s = 0; s < STEPS; s++) {
        cudaLaunchConfig_t  cfg = {};
        cudaLaunchAttribute attr;
        attr.id                                         = cudaLaunchAttributeProgrammaticStreamSerialization;
        attr.val.programmaticStreamSerializationAllowed = 1;
        cfg.gridDim                                     = vblocks;
        cfg.blockDim                                    = BLOCK;
        cfg.stream                                      = st;
        cfg.attrs                                       = &attr;
        cfg.numAttrs                                    = pdl;
        CHECK(cudaLaunchKernelEx(&cfg, StepKernel, L, (const double *)(s % 2 ? y : x), s % 2 ? x : y));
      }
      wrong += Finish(pdl ? "graph-pdl" : "graph", st, x0, ref, x);
    }
    for (int bps : {1, 2, 4, 8}) {
      int fit;
      CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, PersistKernel, BLOCK, 0));
      if (bps > fit) continue;
      CHECK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
      PersistKernel<<<sms * bps, BLOCK, 0, st>>>(L, x, y, STEPS, bar);
      CHECK(cudaGetLastError());
      snprintf(name, sizeof(name), "persist-%d", bps);
      wrong += Finish(name, st, x0, ref, x);
    }
    for (int C : {1, 2, 4, 8, 16}) {
      cudaLaunchConfig_t  cfg = {};
      cudaLaunchAttribute attr;
      if (C > 8) CHECK(cudaFuncSetAttribute(ClusterKernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
      attr.id               = cudaLaunchAttributeClusterDimension;
      attr.val.clusterDim.x = C;
      attr.val.clusterDim.y = 1;
      attr.val.clusterDim.z = 1;
      cfg.gridDim           = C;
      cfg.blockDim          = CBLOCK;
      cfg.stream            = st;
      cfg.attrs             = &attr;
      cfg.numAttrs          = 1;
      CHECK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
      CHECK(cudaLaunchKernelEx(&cfg, ClusterKernel, L, x, y, STEPS));
      snprintf(name, sizeof(name), "cluster-%d", C);
      wrong += Finish(name, st, x0, ref, x);
    }
    printf("\n");
    CHECK(cudaFree(rowptr));
    CHECK(cudaFree(col));
    CHECK(cudaFree(val));
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    CHECK(cudaFree(bar));
  }
  return wrong ? 1 : 0;
}

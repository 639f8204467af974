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
     smem-C        the same cluster, but block r keeps its share of the rows (entries, and its slices of x and y) in
                   shared memory for all the steps and gathers x from the owners' shared memory (distributed shared
                   memory), so a step makes no L2 round trip; also timed with no steps (the load of the level into
                   shared memory and the write-back of x: what each visit of a level would pay)

   A step is y = x / 2 + A x for a random sparse A of n rows and d entries per row (a group of G = 8 lanes per row),
   then x and y swap: a gather per entry, like a CMG smoothing. Every variant's result after the S steps is first
   checked against the same steps on the host; a variant that disagrees is reported WRONG instead of timed (and the
   program exits with 1), otherwise it prints microseconds per step.

   Build (not part of the library's build): nvcc -O3 -std=c++17 -arch=sm_90 bench/stepsync.cu -o build/bench/stepsync
   Run: build/bench/stepsync [n ...]
*/
#include <cooperative_groups.h>
#include <cuda/atomic>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(e)                                                                   \
  do {                                                                             \
    cudaError_t err_ = (e);                                                        \
    if (err_ != cudaSuccess) {                                                     \
      fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      exit(1);                                                                     \
    }                                                                              \
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
  double    s = 0;

  if (row < L.n)
    for (int k = L.rowptr[row] + lane; k < L.rowptr[row + 1]; k += G) s += L.val[k] * x[L.col[k]];
  for (int off = G / 2; off > 0; off /= 2) s += __shfl_down_sync(0xffffffffu, s, off, G);
  if (row < L.n && lane == 0) y[row] = 0.5 * x[row] + s;
}

__global__ void StepKernel(Level L, const double *x, double *y)
{
  asm volatile("griddepcontrol.wait;" ::
                 : "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::
                 : "memory");
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
constexpr int   CBLOCK = 1024;
__global__ void __launch_bounds__(CBLOCK) ClusterKernel(Level L, double *x, double *y, int steps)
{
  const int vblocks = (L.n * G + BLOCK - 1) / BLOCK, per = CBLOCK / BLOCK;
  for (int s = 0; s < steps; s++) {
    for (int blk = blockIdx.x * per + (int)threadIdx.x / BLOCK; blk < vblocks; blk += gridDim.x * per) StepBlock(L, blk, threadIdx.x % BLOCK, x, y);
    double *t = x;
    x         = y;
    y         = t;
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::
                   : "memory");
  }
}

/* shared memory of SmemClusterKernel for n rows over C blocks (0 when it does not fit a block) */
static size_t SmemBytes(int n, int C)
{
  const size_t rpc = (size_t)(n + C - 1) / C, bytes = rpc * (2 * sizeof(double) + DEG * (sizeof(double) + sizeof(int)));
  return bytes <= 227 * 1024 ? bytes : 0;
}

/* one cluster of C = gridDim.x blocks: block r owns rows [r rpc, (r + 1) rpc) (rpc = ceil(n / C)) and keeps their
   entries (DEG per row, so row i's are i DEG .. i DEG + DEG - 1) and its slices of x and y in shared memory; x_c is read
   from the shared memory of block c / rpc */
__global__ void __launch_bounds__(CBLOCK) SmemClusterKernel(Level L, double *x, int steps)
{
  namespace cg = cooperative_groups;
  extern __shared__ double smem[];
  cg::cluster_group        cluster = cg::this_cluster();
  const int                C = (int)gridDim.x, rpc = (L.n + C - 1) / C, r0 = (int)blockIdx.x * rpc;
  const int                nr = max(min(L.n, r0 + rpc) - r0, 0);
  double                  *xs = smem, *ys = smem + rpc, *vs = smem + 2 * rpc;
  int                     *cs = (int *)(vs + (size_t)rpc * DEG);

  for (int i = threadIdx.x; i < nr; i += blockDim.x) xs[i] = x[r0 + i];
  for (int k = threadIdx.x; k < nr * DEG; k += blockDim.x) {
    vs[k] = L.val[(size_t)r0 * DEG + k];
    cs[k] = L.col[(size_t)r0 * DEG + k];
  }
  cluster.sync();
  for (int s = 0; s < steps; s++) {
    for (int base = 0; base < nr * G; base += blockDim.x) { /* block-uniform trip count: whole groups shuffle */
      const int row = (base + (int)threadIdx.x) / G, lane = threadIdx.x % G;
      double    t = 0;

      if (row < nr)
        for (int k = row * DEG + lane; k < row * DEG + DEG; k += G) {
          const int c = cs[k];
          t += vs[k] * cluster.map_shared_rank(xs, c / rpc)[c % rpc];
        }
      for (int off = G / 2; off > 0; off /= 2) t += __shfl_down_sync(0xffffffffu, t, off, G);
      if (row < nr && lane == 0) ys[row] = 0.5 * xs[row] + t;
    }
    double *tmp = xs;
    xs          = ys;
    ys          = tmp;
    cluster.sync();
  }
  for (int i = threadIdx.x; i < nr; i += blockDim.x) x[r0 + i] = xs[i];
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

/* the launch of one cluster of C blocks of CBLOCK threads with smem bytes of dynamic shared memory (attr: its storage) */
static cudaLaunchConfig_t ClusterConfig(int C, size_t smem, cudaStream_t st, cudaLaunchAttribute *attr)
{
  cudaLaunchConfig_t cfg = {};

  attr->id               = cudaLaunchAttributeClusterDimension;
  attr->val.clusterDim.x = C;
  attr->val.clusterDim.y = 1;
  attr->val.clusterDim.z = 1;
  cfg.gridDim            = C;
  cfg.blockDim           = CBLOCK;
  cfg.dynamicSmemBytes   = smem;
  cfg.stream             = st;
  cfg.attrs              = attr;
  cfg.numAttrs           = 1;
  return cfg;
}

/* ends the capture on st of one variant's steps, checks the variant and prints its time per step; 1 when it is wrong */
static int Finish(const char *name, cudaStream_t st, const std::vector<double> &x0, const std::vector<double> &ref, double *x, bool check = true)
{
  cudaGraph_t     graph;
  cudaGraphExec_t exec;
  int             wrong = 0;

  CHECK(cudaStreamEndCapture(st, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  if (!check) printf("  %s %.2f", name, 1e3f * TimeGraph(exec, st, 20)); /* a whole launch, not per step */
  else if (Check(name, exec, st, x0, ref, x)) printf("  %s %.2f", name, 1e3f * TimeGraph(exec, st, 20) / STEPS);
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
    const std::vector<double> ref     = Reference(n, rp, cl, v, x0);
    Level                     L       = {n, rowptr, col, val};
    const unsigned            vblocks = (unsigned)(((size_t)n * G + BLOCK - 1) / BLOCK);

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
      cudaLaunchAttribute attr;
      cudaLaunchConfig_t  cfg = ClusterConfig(C, 0, st, &attr);
      if (C > 8) CHECK(cudaFuncSetAttribute(ClusterKernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
      CHECK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
      CHECK(cudaLaunchKernelEx(&cfg, ClusterKernel, L, x, y, STEPS));
      snprintf(name, sizeof(name), "cluster-%d", C);
      wrong += Finish(name, st, x0, ref, x);
    }
    for (int C : {8, 16}) {
      const size_t bytes = SmemBytes(n, C);
      if (!bytes) continue;
      CHECK(cudaFuncSetAttribute(SmemClusterKernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
      CHECK(cudaFuncSetAttribute(SmemClusterKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
      for (int steps : {STEPS, 0}) {
        cudaLaunchAttribute attr;
        cudaLaunchConfig_t  cfg = ClusterConfig(C, bytes, st, &attr);
        CHECK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
        CHECK(cudaLaunchKernelEx(&cfg, SmemClusterKernel, L, x, steps));
        snprintf(name, sizeof(name), steps ? "smem-%d" : "smem-%d-load", C);
        wrong += Finish(name, st, x0, ref, x, steps > 0);
      }
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

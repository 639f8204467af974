/*
   CUDA implementation of the kernels of PC cmg's device setup (gpupc/cmgsetupkernels.h). One thread per row or vertex
   in grid-stride loops; each thread adds its floating point terms in the order of the host setup, so the results agree
   with the host table bit for bit (the ground row's diagonal: one thread per chunk of GPUPC_CMG_GROUND_CHUNK entries,
   then one thread over the chunk sums). Counts: a per-thread sum, then one atomicAdd per thread into a device counter
   (a slot of the device scalar pool) copied back at the end. The forest's heights climb from the leaves as on the host: the last child of a vertex to
   finish (atomicSub on its pending count) carries on with it; a fence orders a child's atomicMax of its parent's
   height before its atomicSub, so the last child reads the final height.
*/
#include <gpupc/cuda.h>
#include <gpupc/devscalar.h>
#include <gpupc/cmgsetupkernels.h>
#include <gpupc/cmgsetuprow.h>

static_assert(sizeof(PetscInt) == sizeof(int), "the CUDA CMG setup kernels are written for 32-bit PetscInt");

#define BLOCK           256
#define GRID_LOOP(k, n) for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < (long long)(n); k += (long long)gridDim.x * blockDim.x)
#define NCOUNT          4

static int Grid(long long n)
{
  const long long need = (n + BLOCK - 1) / BLOCK, fill = GPUPCCUDAGridSize(1 << 28, BLOCK);
  return (int)(need < 1 ? 1 : (need < fill ? need : fill));
}

/* the temporaries of one member, freed together (also when the member fails half way); peak: their total */
struct Scratch {
  void  *p[8]  = {};
  size_t bytes = 0;
  ~Scratch()
  {
    for (void *q : p)
      if (q) (void)GPUPCFree(q);
  }
  template <typename T>
  PetscErrorCode Get(size_t n, T **out)
  {
    int k = 0;
    PetscFunctionBegin;
    while (k < 8 && p[k]) k++;
    PetscCheck(k < 8, PETSC_COMM_SELF, PETSC_ERR_PLIB, "more than 8 temporaries in one CMG setup kernel");
    PetscCall(GPUPCMalloc(PetscMax(n, (size_t)1) * sizeof(T), &p[k]));
    *out = (T *)p[k];
    bytes += PetscMax(n, (size_t)1) * sizeof(T);
    PetscFunctionReturn(0);
  }
};

/* device counters, zeroed: a slot of the device scalar pool (gpupc/devscalar.h), so no allocation */
static PetscErrorCode CountersGet(GPUPCDevScalar *slot, int **c)
{
  PetscFunctionBegin;
  PetscCall(GPUPCDevScalarGet(NULL, NCOUNT * sizeof(int), slot));
  *c = (int *)slot->d;
  PetscFunctionReturn(0);
}

/* their values on the host (one copy, one wait); gives the slot back */
static PetscErrorCode CountersRead(GPUPCDevScalar *slot, int h[NCOUNT])
{
  PetscFunctionBegin;
  PetscCall(GPUPCDevScalarRead(slot, h, NCOUNT * sizeof(int)));
  PetscFunctionReturn(0);
}

__global__ static void DirichletKernel(GPUPCDevCSR A, GPUPCCMGReduceRule rule, int *isdir, int *cnt)
{
  int c = 0;
  GRID_LOOP(i, A.m)
  {
    isdir[i] = GPUPCCMGRowDirichlet(&A, &rule, (int)i);
    c += isdir[i];
  }
  if (c) atomicAdd(cnt, c);
}

static PetscErrorCode DirichletRows_CUDA(const GPUPCDevCSR *A, const GPUPCCMGReduceRule *rule, PetscInt *isdir, PetscInt *ndir)
{
  Scratch s;
  int    *c = NULL, h[NCOUNT];

  PetscFunctionBegin;
  *ndir = 0;
  if (A->m <= 0) PetscFunctionReturn(0);
  GPUPCDevScalar cs;
  PetscCall(CountersGet(&cs, &c));
  DirichletKernel<<<Grid(A->m), BLOCK, 0, GPUPCCUDAStream()>>>(*A, *rule, isdir, c);
  GPUPCCheckLaunch("DirichletKernel");
  PetscCall(CountersRead(&cs, h));
  *ndir = h[0];
  PetscFunctionReturn(0);
}

__global__ static void CheckRowsKernel(GPUPCDevCSR A, GPUPCCMGReduceRule rule, const int *isdir, double *excess, double *dinv, int *bad, int *strict, int *len, int *cnt)
{
  int h[3] = {0, 0, 0};
  GRID_LOOP(i, A.m)
  GPUPCCMGCheckRowStore(&A, &rule, isdir, (int)i, excess, dinv, bad, strict, len, h);
  if (h[0]) atomicAdd(&cnt[0], h[0]);
  if (h[1]) atomicAdd(&cnt[1], h[1]);
  if (h[2]) atomicAdd(&cnt[2], h[2]);
}

static PetscErrorCode CheckRows_CUDA(const GPUPCDevCSR *A, const GPUPCCMGReduceRule *rule, const PetscInt *isdir, PetscReal *excess, PetscReal *dinv, PetscInt *bad, PetscInt *strict, PetscInt *len, PetscInt *nbad, PetscInt *npos, PetscInt *nstrict)
{
  Scratch s;
  int    *c = NULL, h[NCOUNT];

  PetscFunctionBegin;
  *nbad = *npos = *nstrict = 0;
  if (A->m <= 0) PetscFunctionReturn(0);
  GPUPCDevScalar cs;
  PetscCall(CountersGet(&cs, &c));
  CheckRowsKernel<<<Grid(A->m), BLOCK, 0, GPUPCCUDAStream()>>>(*A, *rule, isdir, excess, dinv, bad, strict, len, c);
  GPUPCCheckLaunch("CheckRowsKernel");
  PetscCall(CountersRead(&cs, h));
  *nbad    = h[0];
  *npos    = h[1];
  *nstrict = h[2];
  PetscFunctionReturn(0);
}

/* E = A(kept rows, Dirichlet columns): one thread per row, its entries in A's order */
__global__ static void CouplingCountKernel(GPUPCDevCSR A, const int *isdir, int *erow)
{
  GRID_LOOP(i, A.m)
  {
    int e = 0;
    if (!isdir[i])
      for (int k = A.i[i]; k < A.i[i + 1]; k++) e += isdir[A.j[k]] && A.a[k] != 0.0;
    erow[i + 1] = e;
  }
}

static PetscErrorCode CouplingCount_CUDA(const GPUPCDevCSR *A, const PetscInt *isdir, PetscInt *erow)
{
  PetscFunctionBegin;
  if (A->m <= 0) PetscFunctionReturn(0);
  CouplingCountKernel<<<Grid(A->m), BLOCK, 0, GPUPCCUDAStream()>>>(*A, isdir, erow);
  GPUPCCheckLaunch("CouplingCountKernel");
  PetscFunctionReturn(0);
}

__global__ static void CouplingFillKernel(GPUPCDevCSR A, const int *isdir, const int *erow, int *ecol, double *eval)
{
  GRID_LOOP(i, A.m)
  {
    int q = erow[i];
    if (isdir[i]) continue;
    for (int k = A.i[i]; k < A.i[i + 1]; k++)
      if (isdir[A.j[k]] && A.a[k] != 0.0) {
        ecol[q]   = A.j[k];
        eval[q++] = A.a[k];
      }
  }
}

static PetscErrorCode CouplingFill_CUDA(const GPUPCDevCSR *A, const PetscInt *isdir, const PetscInt *erow, PetscInt *ecol, PetscReal *eval)
{
  PetscFunctionBegin;
  if (A->m <= 0) PetscFunctionReturn(0);
  CouplingFillKernel<<<Grid(A->m), BLOCK, 0, GPUPCCUDAStream()>>>(*A, isdir, erow, ecol, eval);
  GPUPCCheckLaunch("CouplingFillKernel");
  PetscFunctionReturn(0);
}

__global__ static void Level0CountKernel(int n, const int *map, const int *len, int nk, int copies, int nstrict, int ground, int *rp)
{
  GRID_LOOP(i, n)
  {
    if (map[i] >= 0)
      for (int c = 0; c < copies; c++) rp[c * nk + map[i] + 1] = len[i];
    if (i == 0 && ground) rp[copies * nk + 1] = copies * nstrict + 1;
  }
}

static PetscErrorCode Level0Count_CUDA(PetscInt n, const PetscInt *map, const PetscInt *len, PetscInt nk, PetscInt copies, PetscInt nstrict, PetscBool ground, PetscInt *rp)
{
  PetscFunctionBegin;
  if (n <= 0) PetscFunctionReturn(0);
  Level0CountKernel<<<Grid(n), BLOCK, 0, GPUPCCUDAStream()>>>(n, map, len, nk, copies, nstrict, ground ? 1 : 0, rp);
  GPUPCCheckLaunch("Level0CountKernel");
  PetscFunctionReturn(0);
}

/* the rows of the kept vertices (gpupc/cmgsetuprow.h GPUPCCMGLevel0Row, as the host table's Level0Fill_Host) */
__global__ static void Level0FillKernel(GPUPCDevCSR A, const int *isdir, const double *excess, const int *map, int nk, int copies, const int *rp, int *col, double *val)
{
  GRID_LOOP(i, A.m)
  if (!isdir[i]) (void)GPUPCCMGLevel0Row(&A, isdir, map, (int)i, excess[i], nk, copies, rp, col, NULL, val);
}

static PetscErrorCode Level0Fill_CUDA(const GPUPCDevCSR *A, const PetscInt *isdir, const PetscReal *excess, const PetscInt *map, PetscInt nk, PetscInt copies, const PetscInt *rp, PetscInt *col, PetscReal *val)
{
  PetscFunctionBegin;
  if (A->m <= 0) PetscFunctionReturn(0);
  Level0FillKernel<<<Grid(A->m), BLOCK, 0, GPUPCCUDAStream()>>>(*A, isdir, excess, map, nk, copies, rp, col, val);
  GPUPCCheckLaunch("Level0FillKernel");
  PetscFunctionReturn(0);
}

/* the value-only reuse of level 0: the per-row functions of CheckRowsKernel and Level0FillKernel on the kept structure,
   one thread per row (the host table's Level0Refill_Host); counts: bad, positive, strict, changed */
__global__ static void Level0RefillKernel(GPUPCDevCSR A, GPUPCCMGReduceRule rule, const int *map, int nk, int copies, const int *rp, const int *col, double *excess, double *dinv, double *val, int *cnt)
{
  int cbad = 0, cpos = 0, cstrict = 0, cchanged = 0;
  GRID_LOOP(i, A.m)
  {
    int       p, st;
    const int r = GPUPCCMGRefillRow(&A, &rule, map, (int)i, nk, copies, rp, col, &excess[i], &dinv[i], val, &p, &st);
    cbad += r == 1;
    cchanged += r == 2;
    cpos += p;
    cstrict += st;
  }
  if (cbad) atomicAdd(&cnt[0], cbad);
  if (cpos) atomicAdd(&cnt[1], cpos);
  if (cstrict) atomicAdd(&cnt[2], cstrict);
  if (cchanged) atomicAdd(&cnt[3], cchanged);
}

static PetscErrorCode Level0Refill_CUDA(const GPUPCDevCSR *A, const GPUPCCMGReduceRule *rule, const PetscInt *map, PetscInt nk, PetscInt copies, const PetscInt *rp, const PetscInt *col, PetscReal *excess, PetscReal *dinv, PetscReal *val, PetscInt *nbad, PetscInt *npos, PetscInt *nstrict, PetscInt *nchanged)
{
  Scratch s;
  int    *c = NULL, h[NCOUNT];

  PetscFunctionBegin;
  *nbad = *npos = *nstrict = *nchanged = 0;
  if (A->m <= 0) PetscFunctionReturn(0);
  GPUPCDevScalar cs;
  PetscCall(CountersGet(&cs, &c));
  Level0RefillKernel<<<Grid(A->m), BLOCK, 0, GPUPCCUDAStream()>>>(*A, *rule, map, nk, copies, rp, col, excess, dinv, val, c);
  GPUPCCheckLaunch("Level0RefillKernel");
  PetscCall(CountersRead(&cs, h));
  *nbad     = h[0];
  *npos     = h[1];
  *nstrict  = h[2];
  *nchanged = h[3];
  PetscFunctionReturn(0);
}

__global__ static void GroundEntriesKernel(int nstrict, const int *list, const double *excess, const int *map, int nk, int copies, int o, int *col, double *val)
{
  GRID_LOOP(q, (long long)copies * nstrict)
  {
    const int c = (int)(q / nstrict), i = list[q % nstrict];
    col[o + q] = c * nk + map[i];
    val[o + q] = -excess[i];
  }
}

__global__ static void GroundChunksKernel(int m, const double *w, double *part)
{
  GRID_LOOP(c, (m + GPUPC_CMG_GROUND_CHUNK - 1) / GPUPC_CMG_GROUND_CHUNK)
  {
    double    s   = 0.0;
    const int end = min(m, (int)(c + 1) * GPUPC_CMG_GROUND_CHUNK);
    for (int q = (int)c * GPUPC_CMG_GROUND_CHUNK; q < end; q++) s += -w[q];
    part[c] = s;
  }
}

__global__ static void GroundDiagonalKernel(int nchunks, const double *part, int g, int *col, double *val)
{
  double t = 0.0;
  for (int c = 0; c < nchunks; c++) t += part[c];
  *col = g;
  *val = t;
}

static PetscErrorCode GroundFill_CUDA(PetscInt nstrict, const PetscInt *list, const PetscReal *excess, const PetscInt *map, PetscInt nk, PetscInt copies, const PetscInt *rp, PetscInt *col, PetscReal *val, size_t *peak)
{
  Scratch            s;
  PetscInt           o;
  const PetscInt     g = copies * nk, m = copies * nstrict, nchunks = (m + GPUPC_CMG_GROUND_CHUNK - 1) / GPUPC_CMG_GROUND_CHUNK;
  double            *part = NULL;
  const cudaStream_t st   = GPUPCCUDAStream();

  PetscFunctionBegin;
  PetscCall(GPUPCCopyToHost(&o, rp + g, 1));
  PetscCall(s.Get(nchunks, &part));
  if (m > 0) {
    GroundEntriesKernel<<<Grid(m), BLOCK, 0, st>>>(nstrict, list, excess, map, nk, copies, o, col, val);
    GPUPCCheckLaunch("GroundEntriesKernel");
    GroundChunksKernel<<<Grid(nchunks), BLOCK, 0, st>>>(m, val + o, part);
    GPUPCCheckLaunch("GroundChunksKernel");
  }
  GroundDiagonalKernel<<<1, 1, 0, st>>>(nchunks, part, g, col + o + m, val + o + m);
  GPUPCCheckLaunch("GroundDiagonalKernel");
  if (peak) *peak = s.bytes;
  PetscFunctionReturn(0);
}

__global__ static void HeaviestKernel(GPUPCDevCSR L, int *p, double *wmax, double *vol, int *cnt)
{
  int light = 0;
  GRID_LOOP(v, L.m)
  {
    double best = 0.0, d = 0.0;
    int    at = (int)v;
    for (int k = L.i[v]; k < L.i[v + 1]; k++) {
      const int    u = L.j[k];
      const double w = -L.a[k];
      if (u == v) {
        d = L.a[k];
        continue;
      }
      if (w > best) {
        best = w;
        at   = u;
      }
    }
    p[v]    = at;
    wmax[v] = best;
    vol[v]  = d;
    if (best < d / 8) light++;
  }
  if (light) atomicAdd(cnt, light);
}

static PetscErrorCode Heaviest_CUDA(const GPUPCDevCSR *L, PetscInt *p, PetscReal *wmax, PetscReal *vol, PetscInt *nlight)
{
  Scratch s;
  int    *c = NULL, h[NCOUNT];

  PetscFunctionBegin;
  *nlight = 0;
  if (L->m <= 0) PetscFunctionReturn(0);
  GPUPCDevScalar cs;
  PetscCall(CountersGet(&cs, &c));
  HeaviestKernel<<<Grid(L->m), BLOCK, 0, GPUPCCUDAStream()>>>(*L, p, wmax, vol, c);
  GPUPCCheckLaunch("HeaviestKernel");
  PetscCall(CountersRead(&cs, h));
  *nlight = h[0];
  PetscFunctionReturn(0);
}

__global__ static void ForestWeightKernel(GPUPCDevCSR L, const double *wmax, const int *p, double *t)
{
  GRID_LOOP(v, L.m)
  {
    double s = p[v] != v ? wmax[v] : 0.0;
    for (int k = L.i[v]; k < L.i[v + 1]; k++) {
      const int u = L.j[k];
      if (u != v && p[u] == v && p[v] != u) s += wmax[u];
    }
    t[v] = s;
  }
}

__global__ static void WeakRootsKernel(int n, const double *t, const double *vol, int *p, int *cnt)
{
  int c = 0;
  GRID_LOOP(v, n)
  if (p[v] != v && t[v] < vol[v] / 8) {
    p[v] = (int)v;
    c++;
  }
  if (c) atomicAdd(cnt, c);
}

static PetscErrorCode Weak_CUDA(const GPUPCDevCSR *L, const PetscReal *wmax, const PetscReal *vol, PetscInt *p, PetscInt *nweak, size_t *peak)
{
  Scratch            s;
  int               *c  = NULL, h[NCOUNT];
  double            *t  = NULL;
  const cudaStream_t st = GPUPCCUDAStream();

  PetscFunctionBegin;
  *nweak = 0;
  if (peak) *peak = 0;
  if (L->m <= 0) PetscFunctionReturn(0);
  PetscCall(s.Get(L->m, &t));
  GPUPCDevScalar cs;
  PetscCall(CountersGet(&cs, &c));
  ForestWeightKernel<<<Grid(L->m), BLOCK, 0, st>>>(*L, wmax, p, t);
  GPUPCCheckLaunch("ForestWeightKernel");
  WeakRootsKernel<<<Grid(L->m), BLOCK, 0, st>>>(L->m, t, vol, p, c);
  GPUPCCheckLaunch("WeakRootsKernel");
  PetscCall(CountersRead(&cs, h));
  *nweak = h[0];
  if (peak) *peak = s.bytes;
  PetscFunctionReturn(0);
}

__global__ static void TwoCycleMarkKernel(int n, const int *p, int *cut)
{
  GRID_LOOP(v, n)
  cut[v] = p[v] != v && p[p[v]] == v && v < p[v];
}

__global__ static void TwoCycleCutKernel(int n, const int *cut, int *p)
{
  GRID_LOOP(v, n)
  if (cut[v]) p[v] = (int)v;
}

static PetscErrorCode CutTwoCycles_CUDA(PetscInt n, PetscInt *p, size_t *peak)
{
  Scratch            s;
  int               *cut = NULL;
  const cudaStream_t st  = GPUPCCUDAStream();

  PetscFunctionBegin;
  if (peak) *peak = 0;
  if (n <= 0) PetscFunctionReturn(0);
  PetscCall(s.Get(n, &cut));
  TwoCycleMarkKernel<<<Grid(n), BLOCK, 0, st>>>(n, p, cut);
  GPUPCCheckLaunch("TwoCycleMarkKernel");
  TwoCycleCutKernel<<<Grid(n), BLOCK, 0, st>>>(n, cut, p);
  GPUPCCheckLaunch("TwoCycleCutKernel");
  if (peak) *peak = s.bytes;
  PetscFunctionReturn(0);
}

__global__ static void HeightsInitKernel(int n, int *h, int *pending)
{
  GRID_LOOP(v, n)
  {
    h[v]       = 0;
    pending[v] = 0;
  }
}

__global__ static void ChildrenKernel(int n, const int *p, int *pending)
{
  GRID_LOOP(v, n)
  if (p[v] != v) atomicAdd(&pending[p[v]], 1);
}

__global__ static void LeavesKernel(int n, const int *pending, int *leaf)
{
  GRID_LOOP(v, n)
  leaf[v] = pending[v] == 0;
}

__global__ static void ClimbKernel(int n, const int *p, const int *leaf, int *h, int *pending, int *cnt)
{
  int c = 0;
  GRID_LOOP(s, n)
  {
    int v = (int)s;
    if (!leaf[s]) continue;
    for (;;) {
      const int u = p[v], hv = atomicAdd(&h[v], 0); /* read through L2: the children's atomicMax are there */
      c++;
      if (u == v) break;
      if (hv < GPUPC_CMG_MAX_HEIGHT) atomicMax(&h[u], hv + 1);
      __threadfence();
      if (atomicSub(&pending[u], 1) != 1) break;
      __threadfence();
      v = u;
    }
  }
  if (c) atomicAdd(cnt, c);
}

static PetscErrorCode Heights_CUDA(PetscInt n, const PetscInt *p, PetscInt *h, PetscInt *done, size_t *peak)
{
  Scratch            s;
  int               *pending = NULL, *leaf = NULL, *c = NULL, hc[NCOUNT];
  const cudaStream_t st = GPUPCCUDAStream();

  PetscFunctionBegin;
  *done = 0;
  if (peak) *peak = 0;
  if (n <= 0) PetscFunctionReturn(0);
  PetscCall(s.Get(n, &pending));
  PetscCall(s.Get(n, &leaf));
  GPUPCDevScalar cs;
  PetscCall(CountersGet(&cs, &c));
  HeightsInitKernel<<<Grid(n), BLOCK, 0, st>>>(n, h, pending);
  GPUPCCheckLaunch("HeightsInitKernel");
  ChildrenKernel<<<Grid(n), BLOCK, 0, st>>>(n, p, pending);
  GPUPCCheckLaunch("ChildrenKernel");
  LeavesKernel<<<Grid(n), BLOCK, 0, st>>>(n, pending, leaf);
  GPUPCCheckLaunch("LeavesKernel");
  ClimbKernel<<<Grid(n), BLOCK, 0, st>>>(n, p, leaf, h, pending, c);
  GPUPCCheckLaunch("ClimbKernel");
  PetscCall(CountersRead(&cs, hc));
  *done = hc[0];
  if (peak) *peak = s.bytes;
  PetscFunctionReturn(0);
}

__global__ static void TopFlagKernel(int n, const int *p, const int *h, int *flag, int *size)
{
  GRID_LOOP(v, n)
  {
    flag[v] = p[v] == v || h[v] >= GPUPC_CMG_MAX_HEIGHT;
    size[v] = 0;
  }
}

__global__ static void TopKernel(int n, const int *p, const int *flag, int *top, int *size)
{
  GRID_LOOP(v, n)
  {
    int u = (int)v;
    while (!flag[u]) u = p[u];
    top[v] = u;
    atomicAdd(&size[u], 1);
  }
}

__global__ static void JoinKernel(GPUPCDevCSR L, const int *p, const int *flag, const int *size, const double *wmax, int *join)
{
  GRID_LOOP(v, L.m)
  {
    int    best = -1;
    double bw   = 0.0;
    if (p[v] == v && size[v] <= 2)
      for (int k = L.i[v]; k < L.i[v + 1]; k++) {
        const int d = L.j[k];
        if (d != v && p[d] == v && flag[d] && (best < 0 || wmax[d] > bw)) {
          best = d;
          bw   = wmax[d];
        }
      }
    join[v] = best;
  }
}

__global__ static void RetopKernel(int n, const int *join, int *top, int *first)
{
  GRID_LOOP(v, n)
  {
    if (join[top[v]] >= 0) top[v] = join[top[v]];
    first[v] = n;
  }
}

__global__ static void FirstKernel(int n, const int *top, int *first)
{
  GRID_LOOP(v, n)
  atomicMin(&first[top[v]], (int)v);
}

__global__ static void RepKernel(int n, const int *top, const int *first, int *rep, int *mark)
{
  GRID_LOOP(v, n)
  {
    rep[v]  = first[top[v]];
    mark[v] = rep[v] == v;
  }
}

static PetscErrorCode ClusterTops_CUDA(const GPUPCDevCSR *L, const PetscInt *p, const PetscInt *h, const PetscReal *wmax, PetscInt *rep, PetscInt *mark, size_t *peak)
{
  Scratch            s;
  const PetscInt     n    = L->m;
  int               *flag = NULL, *top = NULL, *size = NULL, *join = NULL;
  const cudaStream_t st = GPUPCCUDAStream();

  PetscFunctionBegin;
  if (peak) *peak = 0;
  if (n <= 0) PetscFunctionReturn(0);
  PetscCall(s.Get(n, &flag));
  PetscCall(s.Get(n, &top));
  PetscCall(s.Get(n, &size));
  PetscCall(s.Get(n, &join));
  TopFlagKernel<<<Grid(n), BLOCK, 0, st>>>(n, p, h, flag, size);
  GPUPCCheckLaunch("TopFlagKernel");
  TopKernel<<<Grid(n), BLOCK, 0, st>>>(n, p, flag, top, size);
  GPUPCCheckLaunch("TopKernel");
  JoinKernel<<<Grid(n), BLOCK, 0, st>>>(*L, p, flag, size, wmax, join);
  GPUPCCheckLaunch("JoinKernel");
  RetopKernel<<<Grid(n), BLOCK, 0, st>>>(n, join, top, size); /* size: now the first vertex of the cluster topped by v */
  GPUPCCheckLaunch("RetopKernel");
  FirstKernel<<<Grid(n), BLOCK, 0, st>>>(n, top, size);
  GPUPCCheckLaunch("FirstKernel");
  RepKernel<<<Grid(n), BLOCK, 0, st>>>(n, top, size, rep, mark);
  GPUPCCheckLaunch("RepKernel");
  if (peak) *peak = s.bytes;
  PetscFunctionReturn(0);
}

__global__ static void NumberKernel(int n, const int *rep, const int *id, int *cluster, int *size)
{
  GRID_LOOP(v, n)
  {
    cluster[v] = id[rep[v]];
    atomicAdd(&size[cluster[v]], 1);
  }
}

__global__ static void SizeStatsKernel(int nc, const int *size, int *cnt)
{
  int single = 0, mx = 0;
  GRID_LOOP(c, nc)
  {
    single += size[c] == 1;
    mx = max(mx, size[c]);
  }
  if (single) atomicAdd(&cnt[0], single);
  if (mx) atomicMax(&cnt[1], mx);
}

static PetscErrorCode ClusterNumber_CUDA(PetscInt n, PetscInt nc, const PetscInt *rep, const PetscInt *id, PetscInt *cluster, PetscInt *nsingle, PetscInt *maxsize, size_t *peak)
{
  Scratch            s;
  int               *size = NULL, *c = NULL, h[NCOUNT];
  const cudaStream_t st = GPUPCCUDAStream();

  PetscFunctionBegin;
  *nsingle = *maxsize = 0;
  if (peak) *peak = 0;
  if (n <= 0) PetscFunctionReturn(0);
  PetscCall(s.Get(nc, &size));
  GPUPCDevScalar cs;
  PetscCall(CountersGet(&cs, &c));
  GPUPCCallCUDA(cudaMemsetAsync(size, 0, (size_t)nc * sizeof(int), st));
  NumberKernel<<<Grid(n), BLOCK, 0, st>>>(n, rep, id, cluster, size);
  GPUPCCheckLaunch("NumberKernel");
  SizeStatsKernel<<<Grid(nc), BLOCK, 0, st>>>(nc, size, c);
  GPUPCCheckLaunch("SizeStatsKernel");
  PetscCall(CountersRead(&cs, h));
  *nsingle = h[0];
  *maxsize = h[1];
  if (peak) *peak = s.bytes;
  PetscFunctionReturn(0);
}

__global__ static void GalerkinSeedKernel(int nc, int *ci, int *cj, double *v)
{
  GRID_LOOP(c, nc)
  {
    if (ci) ci[c] = cj[c] = (int)c;
    v[c] = 0.0;
  }
}

__global__ static void GalerkinTriplesKernel(GPUPCDevCSR L, const int *cluster, int nc, int *ci, int *cj, double *v)
{
  GRID_LOOP(r, L.m)
  {
    const int C = cluster[r];
    for (int k = L.i[r]; k < L.i[r + 1]; k++) {
      const int       D = cluster[L.j[k]];
      const long long e = (long long)nc + (long long)k;
      if (ci) {
        ci[e] = D == C ? -1 : C;
        cj[e] = D;
      }
      v[e] = D == C ? 0.0 : L.a[k];
    }
  }
}

__global__ static void GalerkinDiagonalKernel(GPUPCDevCSR C)
{
  GRID_LOOP(r, C.m)
  {
    double d  = 0.0;
    int    at = -1;
    for (int q = C.i[r]; q < C.i[r + 1]; q++) {
      if (C.j[q] == r) at = q;
      else d -= C.a[q];
    }
    if (at >= 0) C.a[at] = d;
  }
}

static PetscErrorCode GalerkinDiagonal_CUDA(GPUPCDevCSR *C)
{
  PetscFunctionBegin;
  if (C->m <= 0) PetscFunctionReturn(0);
  GalerkinDiagonalKernel<<<Grid(C->m), BLOCK, 0, GPUPCCUDAStream()>>>(*C);
  GPUPCCheckLaunch("GalerkinDiagonalKernel");
  PetscFunctionReturn(0);
}

static PetscErrorCode GalerkinTriples_CUDA(const GPUPCDevCSR *L, const PetscInt *cluster, PetscInt nc, PetscInt *ci, PetscInt *cj, PetscReal *v)
{
  const cudaStream_t st = GPUPCCUDAStream();

  PetscFunctionBegin;
  if (nc > 0) {
    GalerkinSeedKernel<<<Grid(nc), BLOCK, 0, st>>>(nc, ci, cj, v);
    GPUPCCheckLaunch("GalerkinSeedKernel");
  }
  if (L->m > 0) {
    GalerkinTriplesKernel<<<Grid(L->m), BLOCK, 0, st>>>(*L, cluster, nc, ci, cj, v);
    GPUPCCheckLaunch("GalerkinTriplesKernel");
  }
  PetscFunctionReturn(0);
}

__global__ static void SmootherWeightsKernel(GPUPCDevCSR L, double *invd)
{
  GRID_LOOP(i, L.m)
  {
    double d = 0.0;
    for (int q = L.i[i]; q < L.i[i + 1]; q++)
      if (L.j[q] == i) d = L.a[q];
    invd[i] = d > 0.0 ? 1.0 / (2.0 * d) : 0.0;
  }
}

static PetscErrorCode SmootherWeights_CUDA(const GPUPCDevCSR *L, PetscReal *invd)
{
  PetscFunctionBegin;
  if (L->m <= 0) PetscFunctionReturn(0);
  SmootherWeightsKernel<<<Grid(L->m), BLOCK, 0, GPUPCCUDAStream()>>>(*L, invd);
  GPUPCCheckLaunch("SmootherWeightsKernel");
  PetscFunctionReturn(0);
}

/* one thread per row of the zeroed M: its entries between unmasked vertices in row order, or the identity's row */
__global__ static void CoarseDenseKernel(GPUPCDevCSR L, const double *mask, double *M)
{
  GRID_LOOP(v, L.m)
  {
    const size_t row = (size_t)v * (size_t)L.m;
    if (mask[v] == 0.0) {
      M[row + v] = 1.0;
      continue;
    }
    for (int k = L.i[v]; k < L.i[v + 1]; k++)
      if (mask[L.j[k]] != 0.0) M[row + L.j[k]] += L.a[k];
  }
}

static PetscErrorCode CoarseDense_CUDA(const GPUPCDevCSR *L, const PetscReal *mask, PetscReal *M)
{
  PetscFunctionBegin;
  if (L->m <= 0) PetscFunctionReturn(0);
  GPUPCCallCUDA(cudaMemsetAsync(M, 0, (size_t)L->m * (size_t)L->m * sizeof(double), GPUPCCUDAStream()));
  CoarseDenseKernel<<<Grid(L->m), BLOCK, 0, GPUPCCUDAStream()>>>(*L, mask, M);
  GPUPCCheckLaunch("CoarseDenseKernel");
  PetscFunctionReturn(0);
}

__global__ static void DifferKernel(int n, const int *a, const int *b, int *cnt)
{
  int c = 0;
  GRID_LOOP(k, n)
  c += a[k] != b[k];
  if (c) atomicAdd(cnt, c);
}

static PetscErrorCode Differ_CUDA(PetscInt n, const PetscInt *a, const PetscInt *b, PetscInt *count)
{
  Scratch s;
  int    *c = NULL, h[NCOUNT];

  PetscFunctionBegin;
  *count = 0;
  if (n <= 0) PetscFunctionReturn(0);
  GPUPCDevScalar cs;
  PetscCall(CountersGet(&cs, &c));
  DifferKernel<<<Grid(n), BLOCK, 0, GPUPCCUDAStream()>>>(n, a, b, c);
  GPUPCCheckLaunch("DifferKernel");
  PetscCall(CountersRead(&cs, h));
  *count = h[0];
  PetscFunctionReturn(0);
}

GPUPC_KERNEL_TABLE_DEFINE(GPUPCCMGSetupKernels, GPUPCCMGSetupKernelsCUDA, GPUPC_CMG_SETUP_KERNEL_LIST, "cuda", _CUDA);

/*
   CUDA implementation of the gpuamg device-setup kernels (gpupc/amgsetupkernels.h): one thread per row (grid-stride)
   around the per-row code shared with the host reference (../amgdevrows.h), so both tables compute every row alike;
   the ext+i rows of many candidates (every ext+i F row on a small level) take a warp each (InterpLongRowsKernel), which sums
   in the one-thread code's order.
   Counts and the first zero diagonal come back through one device integer (atomics), a slot of the device scalar pool
   (gpupc/devscalar.h): the PMIS rounds allocate nothing and wait once per count.
*/
#include <gpupc/cuda.h>
#include <gpupc/devscalar.h>
#include "../amgdevrows.h"
#include "amgcudahelp.h"
#include <climits>

__global__ void DiagZeroKernel(PetscInt n, const PetscScalar *d, int *first)
{
  ROWS(r, n)
  if (d[r] == 0.0) atomicMin(first, (int)r);
}

static PetscErrorCode AMGDiagZero_CUDA(PetscInt n, const PetscScalar *d, PetscInt *row)
{
  GPUPCDevScalar c;

  PetscFunctionBegin;
  PetscCall(CounterGet(INT_MAX, &c));
  if (n > 0) {
    DiagZeroKernel<<<Grid(n), BLOCK, 0, GPUPCCUDAStream()>>>(n, d, (int *)c.d);
    GPUPCCheckLaunch("DiagZeroKernel");
  }
  PetscCall(CounterPut(&c, row));
  if (*row == INT_MAX) *row = -1;
  PetscFunctionReturn(0);
}

__global__ void StrengthKernel(GPUPCDevCSR A, const PetscScalar *d, PetscReal theta, PetscInt *Si, GPUPCDevCSR S)
{
  ROWS(r, A.m)
  {
    if (Si) Si[r + 1] = GPUPCAMGDevStrongRow(A.i, A.j, A.a, d[r], theta, (PetscInt)r, NULL);
    else (void)GPUPCAMGDevStrongRow(A.i, A.j, A.a, d[r], theta, (PetscInt)r, S.j + S.i[r]);
  }
}

static PetscErrorCode AMGStrengthCount_CUDA(const GPUPCDevCSR *A, const PetscScalar *d, PetscReal theta, PetscInt *Si)
{
  GPUPCDevCSR none = {0, 0, 0, NULL, NULL, NULL};

  PetscFunctionBegin;
  if (A->m == 0) PetscFunctionReturn(0);
  StrengthKernel<<<Grid(A->m), BLOCK, 0, GPUPCCUDAStream()>>>(*A, d, theta, Si, none);
  GPUPCCheckLaunch("StrengthKernel");
  PetscFunctionReturn(0);
}

static PetscErrorCode AMGStrengthFill_CUDA(const GPUPCDevCSR *A, const PetscScalar *d, PetscReal theta, GPUPCDevCSR *S)
{
  PetscFunctionBegin;
  if (A->m == 0) PetscFunctionReturn(0);
  StrengthKernel<<<Grid(A->m), BLOCK, 0, GPUPCCUDAStream()>>>(*A, d, theta, NULL, *S);
  GPUPCCheckLaunch("StrengthKernel");
  PetscFunctionReturn(0);
}

/* the start of PMIS (hmis 0: every point's state set) or of HMIS's second stage (hmis 1: the first stage's states kept) */
__global__ void PMISInitKernel(PetscInt n, const PetscInt *STi, PetscInt rstart, int hmis, PetscReal *w, PetscInt *cf, int *left)
{
  int mine = 0;
  ROWS(i, n)
  mine += hmis ? GPUPCAMGDevHMISInit(STi, rstart, (PetscInt)i, w, cf) : GPUPCAMGDevPMISInit(STi, rstart, (PetscInt)i, w, cf);
  if (mine) atomicAdd(left, mine);
}

static PetscErrorCode PMISInitLaunch(const GPUPCDevCSR *S, const GPUPCDevCSR *ST, PetscInt rstart, int hmis, PetscReal *w, PetscInt *cf, PetscInt *left)
{
  GPUPCDevScalar c;

  PetscFunctionBegin;
  PetscCall(CounterGet(0, &c));
  if (S->m > 0) {
    PMISInitKernel<<<Grid(S->m), BLOCK, 0, GPUPCCUDAStream()>>>(S->m, ST->i, rstart, hmis, w, cf, (int *)c.d);
    GPUPCCheckLaunch("PMISInitKernel");
  }
  PetscCall(CounterPut(&c, left));
  PetscFunctionReturn(0);
}

static PetscErrorCode AMGPMISInit_CUDA(const GPUPCDevCSR *S, const GPUPCDevCSR *ST, PetscInt rstart, PetscReal *w, PetscInt *cf, PetscInt *left)
{
  PetscFunctionBegin;
  PetscCall(PMISInitLaunch(S, ST, rstart, 0, w, cf, left));
  PetscFunctionReturn(0);
}

__global__ void PMISSelectKernel(GPUPCDevCSR S, GPUPCDevCSR ST, const PetscReal *w, const PetscInt *cf, char *mark)
{
  ROWS(i, S.m)
  mark[i] = GPUPCAMGDevPMISMax(S.i, S.j, ST.i, ST.j, w, cf, (PetscInt)i);
}

static PetscErrorCode AMGPMISSelect_CUDA(const GPUPCDevCSR *S, const GPUPCDevCSR *ST, const PetscReal *w, const PetscInt *cf, char *mark)
{
  PetscFunctionBegin;
  if (S->m == 0) PetscFunctionReturn(0);
  PMISSelectKernel<<<Grid(S->m), BLOCK, 0, GPUPCCUDAStream()>>>(*S, *ST, w, cf, mark);
  GPUPCCheckLaunch("PMISSelectKernel");
  PetscFunctionReturn(0);
}

__global__ void PMISDependKernel(GPUPCDevCSR S, const PetscInt *cf, char *mark)
{
  ROWS(i, S.m)
  mark[i] = GPUPCAMGDevPMISDepends(S.i, S.j, cf, (PetscInt)i);
}

static PetscErrorCode AMGPMISDepend_CUDA(const GPUPCDevCSR *S, const PetscInt *cf, char *mark)
{
  PetscFunctionBegin;
  if (S->m == 0) PetscFunctionReturn(0);
  PMISDependKernel<<<Grid(S->m), BLOCK, 0, GPUPCCUDAStream()>>>(*S, cf, mark);
  GPUPCCheckLaunch("PMISDependKernel");
  PetscFunctionReturn(0);
}

__global__ void PMISSetKernel(PetscInt n, const char *mark, PetscInt value, PetscInt *cf, int *left)
{
  int mine = 0;
  ROWS(i, n)
  {
    if (mark[i]) cf[i] = value;
    mine += cf[i] == GPUPC_AMG_U;
  }
  if (mine) atomicAdd(left, mine);
}

static PetscErrorCode AMGPMISSet_CUDA(PetscInt n, const char *mark, PetscInt value, PetscInt *cf, PetscInt *left)
{
  GPUPCDevScalar c;

  PetscFunctionBegin;
  PetscCall(CounterGet(0, &c));
  if (n > 0) {
    PMISSetKernel<<<Grid(n), BLOCK, 0, GPUPCCUDAStream()>>>(n, mark, value, cf, (int *)c.d);
    GPUPCCheckLaunch("PMISSetKernel");
  }
  PetscCall(CounterPut(&c, left));
  PetscFunctionReturn(0);
}

/* HMIS's first stage. A subdomain of at most HMIS_SHARED points takes a block: its lambda and states in shared memory,
   each pick a block-wide argmax (largest lambda, then the smaller index: the pick of GPUPCAMGDevHMISSubdomain), then
   the threads share the new C point's dependents (the points that become F, and the increments of what they depend
   on: shared-memory atomics) and, after a barrier, its own dependences (the decrements). A point's final lambda and
   state do not depend on the order of these updates (increments and decrements commute; a point that becomes F in
   the same pick may or may not have been incremented, and an F point's lambda is never read again), so each pick is
   the one-thread code's. Larger subdomains take one thread each, running GPUPCAMGDevHMISSubdomain itself on lambda in
   global memory. A block has a thread per 16 points of its subdomain (32 to 1024): the scan of a pick reads 16 points
   a thread; subdomains above 6144 points (48 kB) take opt-in shared memory. */
#define HMIS_SHARED      16384
#define HMIS_MAX_THREADS 1024

/* (l, p) beats (bl, bp): the larger lambda, then the smaller point; p < 0: no point */
__device__ static inline int HMISBetter(int l, PetscInt p, int bl, PetscInt bp)
{
  return p >= 0 && (bp < 0 || l > bl || (l == bl && p < bp));
}

__global__ void HMISFirstBlockKernel(GPUPCDevCSR S, GPUPCDevCSR ST, PetscInt B, PetscInt nsub, PetscInt *cf)
{
  extern __shared__ int hsm[]; /* lambda[B], then the states st[B] */
  __shared__ int        wl[HMIS_MAX_THREADS / 32];
  __shared__ PetscInt   wp[HMIS_MAX_THREADS / 32], pick;
  int                  *lam = hsm, *st = hsm + B;
  const int             lane = threadIdx.x % 32, w = threadIdx.x / 32, nw = (blockDim.x + 31) / 32;

  for (long long sd = blockIdx.x; sd < nsub; sd += gridDim.x) {
    const PetscInt lo = (PetscInt)(sd * B), hi = PetscMin(lo + B, S.m), nb = hi - lo;
    for (PetscInt q = threadIdx.x; q < nb; q += blockDim.x) {
      PetscInt l;
      st[q]  = (int)GPUPCAMGDevHMISStart(S.i, S.j, ST.i, ST.j, lo, hi, lo + q, &l);
      lam[q] = (int)l;
    }
    __syncthreads();
    for (;;) {
      int      bl = -1;
      PetscInt bp = -1;
      for (PetscInt q = threadIdx.x; q < nb; q += blockDim.x) /* ascending: ties keep the smaller point */
        if (st[q] == GPUPC_AMG_U && HMISBetter(lam[q], q, bl, bp)) {
          bl = lam[q];
          bp = q;
        }
      for (int off = 16; off > 0; off /= 2) {
        const int      ol = __shfl_down_sync(0xffffffffu, bl, off);
        const PetscInt op = __shfl_down_sync(0xffffffffu, bp, off);
        if (HMISBetter(ol, op, bl, bp)) {
          bl = ol;
          bp = op;
        }
      }
      if (lane == 0) {
        wl[w] = bl;
        wp[w] = bp;
      }
      __syncthreads();
      if (threadIdx.x == 0) {
        for (int v = 1; v < nw; v++)
          if (HMISBetter(wl[v], wp[v], bl, bp)) {
            bl = wl[v];
            bp = wp[v];
          }
        pick = bp;
        if (bp >= 0) st[bp] = GPUPC_AMG_C;
      }
      __syncthreads();
      if (pick < 0) break;
      {
        const PetscInt i = lo + pick;
        for (PetscInt e = ST.i[i] + threadIdx.x; e < ST.i[i + 1]; e += blockDim.x) { /* the points that depend on i: F */
          const PetscInt j = ST.j[e];
          if (j < lo || j >= hi || st[j - lo] != GPUPC_AMG_U) continue;
          st[j - lo] = GPUPC_AMG_F;
          for (PetscInt f = S.i[j]; f < S.i[j + 1]; f++) {
            const PetscInt k = S.j[f];
            if (k >= lo && k < hi && st[k - lo] == GPUPC_AMG_U) atomicAdd(&lam[k - lo], 1);
          }
        }
        __syncthreads();
        for (PetscInt e = S.i[i] + threadIdx.x; e < S.i[i + 1]; e += blockDim.x) {
          const PetscInt k = S.j[e];
          if (k >= lo && k < hi && st[k - lo] == GPUPC_AMG_U) atomicSub(&lam[k - lo], 1);
        }
        __syncthreads();
      }
    }
    for (PetscInt q = threadIdx.x; q < nb; q += blockDim.x) cf[lo + q] = st[q] == GPUPC_AMG_HMIS_OUT ? GPUPC_AMG_U : st[q];
    __syncthreads(); /* the shared arrays are the next subdomain's */
  }
}

__global__ void HMISFirstThreadKernel(GPUPCDevCSR S, GPUPCDevCSR ST, PetscInt B, PetscInt nsub, PetscInt *lambda, PetscInt *cf)
{
  ROWS(sd, nsub)
  {
    const PetscInt lo = (PetscInt)(sd * B);
    GPUPCAMGDevHMISSubdomain(S.i, S.j, ST.i, ST.j, lo, PetscMin(lo + B, S.m), lambda, cf);
  }
}

static PetscErrorCode AMGHMISFirst_CUDA(const GPUPCDevCSR *S, const GPUPCDevCSR *ST, PetscInt B, PetscInt *lambda, PetscInt *cf)
{
  const PetscInt nsub = B > 0 ? (S->m + B - 1) / B : 0;

  PetscFunctionBegin;
  PetscCheck(B >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "HMIS subdomains of %" PetscInt_FMT " points: must be at least 1", B);
  if (S->m == 0) PetscFunctionReturn(0);
  if (B <= HMIS_SHARED) {
    const int       threads = (int)PetscMax(32, PetscMin(HMIS_MAX_THREADS, 32 * ((B / 16 + 31) / 32)));
    const long long fill    = GPUPCCUDAGridSize(1 << 28, threads);
    const int       grid    = (int)(nsub < fill ? nsub : fill);
    const size_t    shared  = 2 * (size_t)B * sizeof(int);
    if (shared > 48 * 1024) GPUPCCallCUDA(cudaFuncSetAttribute(HMISFirstBlockKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));
    HMISFirstBlockKernel<<<grid, threads, shared, GPUPCCUDAStream()>>>(*S, *ST, B, nsub, cf);
    GPUPCCheckLaunch("HMISFirstBlockKernel");
  } else {
    HMISFirstThreadKernel<<<Grid(nsub), BLOCK, 0, GPUPCCUDAStream()>>>(*S, *ST, B, nsub, lambda, cf);
    GPUPCCheckLaunch("HMISFirstThreadKernel");
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode AMGHMISInit_CUDA(const GPUPCDevCSR *S, const GPUPCDevCSR *ST, PetscInt rstart, PetscReal *w, PetscInt *cf, PetscInt *left)
{
  PetscFunctionBegin;
  PetscCall(PMISInitLaunch(S, ST, rstart, 1, w, cf, left));
  PetscFunctionReturn(0);
}

/* The ext+i F rows of more candidates than a level's threshold take a warp each (InterpLongRowsKernel). On a level of
   millions of rows, a row of at most GPUPC_AMG_DEV_ROWCAP candidates is formed faster by one thread in its own scratch
   (interleaved local memory); longer rows by a warp (ksp ex45 193^3 on an H200: level 0, 7.2M rows, 14 ms with a
   thread for these rows, 62 ms with a warp for every row; level 1, 2.4M rows of 28 entries: 0.113 s with one thread
   per row up to 256 candidates, 0.080 s with a warp above 64). On a level of fewer rows than LONG_SMALL_LEVEL the
   one-thread rows cannot fill the GPU and the kernel lasts as long as its slowest row (levels 3-6 of that run, 78k to
   3k rows: 18-20 ms each, 10-12 ms with one thread up to 64 candidates, 0.75-5.6 ms with a warp for every F row), so
   every ext+i F row takes a warp there (the level size and the thresholds: GPUPCAMGInterpTuning, defaults in
   GPUPCAMGInterpTuningDefault()). A warp row's buffer holds its bound (its candidates, with repeats): the write-out
   below uses it as scratch. */
#define LONG_ROW GPUPC_AMG_DEV_ROWCAP

/* the level's threshold: rows of more candidates than it take a warp (tune->long_row >= 0 sets it for every level) */
static PetscInt LongRowThreshold(PetscInt m, const GPUPCAMGInterpTuning *tune)
{
  if (tune->long_row >= 0) return tune->long_row;
  return m < tune->small_level ? 0 : LONG_ROW;
}

/* whether row i, of `candidates` candidates (its bound), is an ext+i F row that takes a warp: the one rule of the bound
   pass (which gives such a row its whole bound) and of the row passes (which tell those rows by it) */
__device__ static inline int LongExtIRow(const PetscInt *cf, PetscInt type, PetscInt longrow, long long i, PetscInt candidates)
{
  return type == GPUPC_AMG_DEV_EXTI && cf[i] != GPUPC_AMG_C && candidates > longrow;
}

__global__ void InterpBoundKernel(GPUPCDevCSR A, GPUPCDevCSR S, const PetscInt *cf, PetscInt type, PetscInt tmax, PetscInt longrow, PetscInt *Bi)
{
  ROWS(i, A.m)
  {
    const PetscInt bound = GPUPCAMGDevInterpBound(A.i, S.i, S.j, cf, type, (PetscInt)i);
    Bi[i + 1]            = LongExtIRow(cf, type, longrow, i, bound) ? bound : GPUPCAMGDevInterpCapacity(bound, tmax);
  }
}

static PetscErrorCode AMGInterpBound_CUDA(const GPUPCDevCSR *A, const GPUPCDevCSR *S, const PetscInt *cf, PetscInt type, PetscInt tmax, const GPUPCAMGInterpTuning *tune, PetscInt *Bi)
{
  PetscInt longrow;

  PetscFunctionBegin;
  if (A->m == 0) PetscFunctionReturn(0);
  longrow = LongRowThreshold(A->m, tune);
  InterpBoundKernel<<<Grid(A->m), BLOCK, 0, GPUPCCUDAStream()>>>(*A, *S, cf, type, tmax, longrow, Bi);
  GPUPCCheckLaunch("InterpBoundKernel");
  PetscFunctionReturn(0);
}

__global__ void InterpRowsKernel(GPUPCDevCSR A, const PetscScalar *d, GPUPCDevCSR S, const PetscInt *cf, PetscInt type, PetscInt tmax, PetscReal tfac, PetscInt longrow, const PetscInt *Bi, PetscInt *bcols, PetscReal *bvals, PetscInt *bidx, PetscInt *Pi)
{
  ROWS(i, A.m)
  if (!LongExtIRow(cf, type, longrow, i, Bi[i + 1] - Bi[i])) Pi[i + 1] = GPUPCAMGDevInterpRowStored(A.i, A.j, A.a, d, S.i, S.j, cf, type, tmax, tfac, (PetscInt)i, bcols + Bi[i], bvals + Bi[i], bidx + Bi[i]);
}

/* The long ext+i rows, one warp each. A row's interpolatory set lives in a hash table in shared memory (point, its
   first place in the candidate order, its value); the lanes share the candidates of a strong neighbour and the
   entries of a row of A. Each point appears once in a row of A, so within one neighbour's row the lanes add into
   distinct values, and the neighbours are taken in order: every value gets its terms in the order of the one-thread
   code (GPUPCAMGDevRowExtI). The sums that many entries feed (the lumped diagonal d, each neighbour's D) are added by
   lane 0 in the entries' order (the terms gathered by shuffles), so they are the one-thread code's too. The points
   are written out in the order first found: each point's first place (below the row's capacity) marks the row's
   scratch bidx, and one ordered pass over the places compacts them; then lane 0 truncates the row as the one-thread
   code does.
   Up to three passes, each with tables of more slots and fewer rows per block: the first over all the level's long
   rows (tune->long_slots slots, 256 by default: 4 kB of shared memory; LONG_WARPS rows a block: small tables keep
   many rows in flight), then over the rows whose distinct points overflowed the previous pass's tables (LONG_HS_MID
   slots, LONG_WARPS_MID rows a block; then tune->long_slots_big, 8192 by default: 128 kB, one row a block: dynamic
   shared memory); a row that overflows the last pass's table too is built by lane 0 with the one-thread code. */
#define LONG_WARPS     8    /* rows per block, first pass */
#define LONG_WARPS_MID 4    /* second pass */
#define LONG_HS_MID    2048 /* 32 kB */
#define FULL_MASK      0xffffffffu

__device__ static inline unsigned LongSlot(PetscInt key, unsigned mask)
{
  return ((unsigned)key * 2654435761u) & mask;
}

/* point key at candidate place q into the table (count: its distinct points); *full when the table reached limit */
__device__ static inline void LongInsert(PetscInt *keys, PetscInt *first, unsigned mask, PetscInt key, PetscInt q, int *count, int limit, int *full)
{
  unsigned h = LongSlot(key, mask);

  if (*(volatile int *)count >= limit) {
    *full = 1;
    return;
  }
  while (1) {
    const PetscInt old = atomicCAS(&keys[h], -1, key);
    if (old == -1) atomicAdd(count, 1);
    if (old == -1 || old == key) {
      atomicMin(&first[h], q);
      return;
    }
    h = (h + 1) & mask;
  }
}

/* the slot of point key, or -1 */
__device__ static inline int LongFind(const PetscInt *keys, unsigned mask, PetscInt key)
{
  unsigned h = LongSlot(key, mask);

  while (1) {
    const PetscInt k = keys[h];
    if (k == key) return (int)h;
    if (k == -1) return -1;
    h = (h + 1) & mask;
  }
}

/* lane 0's sum += the 32 lanes' terms t in lane order (lanes at or past n add nothing); zero terms are skipped (adding
   a zero leaves the sum's value as it is), so a chunk costs a shuffle per nonzero term, not 32 */
__device__ static inline void OrderedAdd(PetscReal t, int lane, int n, PetscReal *sum)
{
  for (unsigned m = __ballot_sync(FULL_MASK, lane < n && t != 0.0); m; m &= m - 1) {
    const PetscReal tj = __shfl_sync(FULL_MASK, t, __ffs((int)m) - 1);
    if (lane == 0) *sum += tj;
  }
}

/* with in NULL: the level's long rows, else the rows in[1..in[0]]; tables of hsmax slots; the rows that overflow them
   are appended to out[1..out[0]], or with out NULL built by lane 0 */
__global__ void InterpLongRowsKernel(GPUPCDevCSR A, const PetscScalar *diag, GPUPCDevCSR S, const PetscInt *cf, PetscInt tmax, PetscReal tfac, PetscInt longrow, int hsmax, const PetscInt *in, PetscInt *out, const PetscInt *Bi, PetscInt *bcols, PetscReal *bvals, PetscInt *bidx, PetscInt *Pi)
{
  extern __shared__ PetscReal smem[]; /* per warp: vals[hsmax]; then keys[hsmax], first[hsmax] per warp; count, full */
  const int                   nw = blockDim.x / 32, w = threadIdx.x / 32, lane = threadIdx.x % 32;
  PetscReal                  *vals = smem + (size_t)w * hsmax;
  PetscInt                   *keys = (PetscInt *)(smem + (size_t)nw * hsmax) + (size_t)w * 2 * hsmax, *first = keys + hsmax;
  int                        *scount = (int *)((PetscInt *)(smem + (size_t)nw * hsmax) + (size_t)nw * 2 * hsmax) + 2 * w, *sfull = scount + 1;
  const long long             nrows = in ? (long long)in[0] : (long long)A.m;

  for (long long t = (long long)blockIdx.x * nw + w; t < nrows; t += (long long)gridDim.x * nw) {
    const long long i   = in ? (long long)in[1 + t] : t;
    const PetscInt  cap = Bi[i + 1] - Bi[i];
    unsigned        hs  = hsmax < 128 ? (unsigned)hsmax : 128, mask;
    int             limit, n;
    PetscReal       d = 0.0;

    if (!in && !LongExtIRow(cf, GPUPC_AMG_DEV_EXTI, longrow, i, cap)) continue; /* the same for the whole warp */
    while (hs < 2 * (unsigned)cap && hs < (unsigned)hsmax) hs *= 2;
    mask  = hs - 1;
    limit = (int)(hs - hs / 4) - 33; /* at most 32 lanes claim past it: a probe always finds a free slot */
    for (unsigned s = lane; s < hs; s += 32) {
      keys[s]  = -1;
      first[s] = INT_MAX;
      vals[s]  = 0.0;
    }
    if (lane == 0) {
      *scount = 0;
      *sfull  = 0;
    }
    __syncwarp();
    { /* the candidates: strong C of i, and of each strong F neighbour, at their places in the one-thread order */
      PetscInt base = 0;
      for (PetscInt e = S.i[i]; e < S.i[i + 1]; e++) {
        const PetscInt k = S.j[e];
        if (cf[k] == GPUPC_AMG_C) {
          if (lane == 0) LongInsert(keys, first, mask, k, base, scount, limit, sfull);
          base++;
        } else {
          const PetscInt lo = S.i[k], len = S.i[k + 1] - lo;
          for (PetscInt q = lane; q < len; q += 32)
            if (cf[S.j[lo + q]] == GPUPC_AMG_C) LongInsert(keys, first, mask, S.j[lo + q], base + q, scount, limit, sfull);
          base += len;
        }
        __syncwarp();
        if (*(volatile int *)sfull) break;
      }
    }
    if (*(volatile int *)sfull) {
      if (out) { /* more points than the table takes: the next pass */
        if (lane == 0) out[1 + atomicAdd((int *)out, 1)] = (PetscInt)i;
      } else if (lane == 0) Pi[i + 1] = GPUPCAMGDevInterpRow(A.i, A.j, A.a, diag, S.i, S.j, cf, GPUPC_AMG_DEV_EXTI, tmax, tfac, (PetscInt)i, bcols + Bi[i], bvals + Bi[i], bidx + Bi[i]);
      __syncwarp();
      continue;
    }
    n = *scount;
    if (lane == 0) d = diag[i];
    /* the couplings of i: to interpolatory points into their values, weak ones not interpolatory lumped into d */
    for (PetscInt c0 = A.i[i]; c0 < A.i[i + 1]; c0 += 32) {
      const PetscInt e = c0 + lane;
      PetscReal      t = 0.0;
      if (e < A.i[i + 1] && A.j[e] != i) {
        const PetscInt nb = A.j[e];
        const int      p  = LongFind(keys, mask, nb);
        if (p >= 0) vals[p] += A.a[e];
        else if (!(cf[nb] == GPUPC_AMG_F && GPUPCAMGDevHas(S.j, S.i[i], S.i[i + 1], nb))) t = A.a[e];
      }
      OrderedAdd(t, lane, (int)PetscMin(32, A.i[i + 1] - c0), &d);
    }
    __syncwarp();
    /* each strong F neighbour k in order: its negative couplings to i and to the set, distributed */
    for (PetscInt e = A.i[i]; e < A.i[i + 1]; e++) {
      const PetscInt  k = A.j[e], kb = A.i[k], ke = A.i[k + 1];
      const PetscReal aik = A.a[e];
      PetscReal       sk, D = 0.0;
      if (k == i || cf[k] != GPUPC_AMG_F || !GPUPCAMGDevHas(S.j, S.i[i], S.i[i + 1], k)) continue;
      sk = diag[k] < 0.0 ? -1.0 : 1.0;
      for (PetscInt c0 = kb; c0 < ke; c0 += 32) {
        const PetscInt g = c0 + lane;
        PetscReal      t = 0.0;
        if (g < ke && A.a[g] * sk < 0.0 && (A.j[g] == i || LongFind(keys, mask, A.j[g]) >= 0)) t = A.a[g];
        OrderedAdd(t, lane, (int)PetscMin(32, ke - c0), &D);
      }
      D = __shfl_sync(FULL_MASK, D, 0);
      if (D == 0.0) {
        if (lane == 0) d += aik;
        continue;
      }
      for (PetscInt c0 = kb; c0 < ke; c0 += 32) {
        const PetscInt g = c0 + lane;
        PetscReal      t = 0.0;
        if (g < ke && A.a[g] * sk < 0.0) {
          const PetscInt l = A.j[g];
          int            p;
          if (l == i) t = aik * A.a[g] / D;
          else if ((p = LongFind(keys, mask, l)) >= 0) vals[p] += aik * A.a[g] / D;
        }
        OrderedAdd(t, lane, (int)PetscMin(32, ke - c0), &d); /* one term at most is not 0: the entry of i */
      }
      __syncwarp();
    }
    d = __shfl_sync(FULL_MASK, d, 0);
    { /* out in the order found: the points' first places (all below cap) mark the row's scratch, read in order */
      PetscInt *mark = bidx + Bi[i], r = 0;

      for (PetscInt q = lane; q < cap; q += 32) mark[q] = -1;
      __syncwarp();
      for (unsigned s = lane; s < hs; s += 32)
        if (keys[s] >= 0) mark[first[s]] = (PetscInt)s;
      __syncwarp();
      for (PetscInt q0 = 0; q0 < cap; q0 += 32) {
        const PetscInt q = q0 + lane, s = q < cap ? mark[q] : -1;
        const unsigned hit = __ballot_sync(FULL_MASK, s >= 0);
        if (s >= 0) {
          const PetscInt at = r + __popc(hit & ((1u << lane) - 1u));
          bcols[Bi[i] + at] = keys[s];
          bvals[Bi[i] + at] = d != 0.0 ? -vals[s] / d : 0.0;
        }
        r += __popc(hit);
      }
    }
    __syncwarp();
    if (lane == 0) Pi[i + 1] = GPUPCAMGTruncRow(n, bcols + Bi[i], bvals + Bi[i], tmax, tfac, PC_GPUAMG_TRUNC_RESCALE_SUM);
    __syncwarp();
  }
}

/* dynamic shared memory of InterpLongRowsKernel for nw warps of hsmax slots */
static size_t LongShared(int nw, int hsmax)
{
  return (size_t)nw * hsmax * (sizeof(PetscReal) + 2 * sizeof(PetscInt)) + (size_t)nw * 2 * sizeof(int);
}

/* the rows that take one thread, then the warp passes over the long ext+i rows; tune->long_slots and
   tune->long_slots_big are the first and the last pass's tables (the tests make them small to drive rows through every
   pass and the one-lane fallback) */
static PetscErrorCode AMGInterpRows_CUDA(const GPUPCDevCSR *A, const PetscScalar *d, const GPUPCDevCSR *S, const PetscInt *cf, PetscInt type, PetscInt tmax, PetscReal tfac, const GPUPCAMGInterpTuning *tune, const PetscInt *Bi, PetscInt *bcols, PetscReal *bvals, PetscInt *bidx, PetscInt *Pi)
{
  PetscInt longrow, slots = tune->long_slots, bigslots = tune->long_slots_big;

  PetscFunctionBegin;
  if (A->m == 0) PetscFunctionReturn(0);
  PetscCall(GPUPCAMGInterpTuningCheck(PETSC_COMM_SELF, tune));
  longrow = LongRowThreshold(A->m, tune);
  InterpRowsKernel<<<Grid(A->m), BLOCK, 0, GPUPCCUDAStream()>>>(*A, d, *S, cf, type, tmax, tfac, longrow, Bi, bcols, bvals, bidx, Pi);
  GPUPCCheckLaunch("InterpRowsKernel");
  if (type == GPUPC_AMG_DEV_EXTI) {
    int       hs[3], nw[3], np = 0, sms, dev;
    PetscInt *list[2]; /* count, then rows: the rows one pass leaves to the next */

    hs[np]   = (int)slots; /* the passes: slots and rows per block */
    nw[np++] = LONG_WARPS;
    if (PetscMin(LONG_HS_MID, bigslots) > hs[np - 1]) {
      hs[np]   = (int)PetscMin(LONG_HS_MID, bigslots);
      nw[np++] = LONG_WARPS_MID;
    }
    if (bigslots > hs[np - 1]) {
      hs[np]   = (int)bigslots;
      nw[np++] = 1;
    }
    GPUPCCallCUDA(cudaGetDevice(&dev));
    GPUPCCallCUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    PetscCall(GPUPCMalloc(2 * ((size_t)A->m + 1) * sizeof(PetscInt), (void **)&list[0]));
    list[1] = list[0] + A->m + 1;
    for (int p = 0; p < np; p++) {
      const size_t    shared = LongShared(nw[p], hs[p]);
      const long long need = ((long long)A->m + nw[p] - 1) / nw[p], fill = GPUPCCUDAGridSize(1 << 28, 32 * nw[p]);
      const int       grid = p == 0 ? (int)(need < fill ? need : fill) : 2 * sms; /* later passes: the few rows listed */
      PetscInt       *in = p ? list[(p - 1) % 2] : NULL, *out = p < np - 1 ? list[p % 2] : NULL;

      if (out) GPUPCCallCUDA(cudaMemsetAsync(out, 0, sizeof(PetscInt), GPUPCCUDAStream()));
      GPUPCCallCUDA(cudaFuncSetAttribute(InterpLongRowsKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));
      InterpLongRowsKernel<<<grid, 32 * nw[p], shared, GPUPCCUDAStream()>>>(*A, d, *S, cf, tmax, tfac, longrow, hs[p], in, out, Bi, bcols, bvals, bidx, Pi);
      GPUPCCheckLaunch("InterpLongRowsKernel");
    }
    PetscCall(GPUPCFree(list[0]));
  }
  PetscFunctionReturn(0);
}

__global__ void InterpGatherKernel(PetscInt n, const PetscInt *Bi, const PetscInt *bcols, const PetscReal *bvals, const PetscInt *cmap, GPUPCDevCSR P)
{
  ROWS(i, n)
  GPUPCAMGDevGatherRow(P.i[i + 1] - P.i[i], bcols + Bi[i], bvals + Bi[i], cmap, P.j + P.i[i], P.a + P.i[i]);
}

static PetscErrorCode AMGInterpGather_CUDA(PetscInt n, const PetscInt *Bi, const PetscInt *bcols, const PetscReal *bvals, const PetscInt *cmap, GPUPCDevCSR *P)
{
  PetscFunctionBegin;
  if (n == 0) PetscFunctionReturn(0);
  InterpGatherKernel<<<Grid(n), BLOCK, 0, GPUPCCUDAStream()>>>(n, Bi, bcols, bvals, cmap, *P);
  GPUPCCheckLaunch("InterpGatherKernel");
  PetscFunctionReturn(0);
}

GPUPC_KERNEL_TABLE_DEFINE(GPUPCAMGSetupKernels, GPUPCAMGSetupKernelsCUDA, GPUPC_AMG_SETUP_KERNEL_LIST, "cuda", _CUDA);

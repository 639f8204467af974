/*
   CUDA implementation of the CMG cycle kernels (gpupc/cmgkernels.h), templated on the
   level scalar (double or float).

   Sparse rows are handled by groups of G lanes (G from the mean row length and the level's
   size: GPUPCCMGLanes, chosen at upload): each lane sums a strided part of the row, a few entries unrolled so their
   loads are in flight together (gather of x inside the kernel), the group reduces with shuffles
   once at the end, so groups of one warp never diverge on a shuffle. Element-wise kernels take
   one item per thread (a grid-stride loop over one resident wave left each thread a chain of
   dependent loads); the expansion, which also sums b for the ground vertex with one atomic per
   block, keeps one wave and loads four items per thread before it stores any. Rows longer than
   GPUPC_CMG_LONG_ROW (the ground vertex is tied to every strictly dominant row, ~6 n^(2/3)
   entries on a 3D grid) are cut into chunks of GPUPC_CMG_LONG_ROW_CHUNK entries,
   one thread block per chunk, in the SAME launch as the ordinary rows (the chunk blocks come
   first), so a smoothing step or a residual-restriction is one kernel launch whatever the
   level holds (what matters in a W-cycle of thousands of launches). A chunk block loads its
   entries before the previous kernel has finished, so after the wait it only gathers x:
   - in a smoothing (or a residual by rows) a row of one chunk is written by that block; the
     chunks of a longer row add their parts into rlong[j] and count themselves in rcount[j],
     and the last chunk to finish (threadfence + counter, as in a last-block reduction) has
     the whole residual, writes the row's entry and zeroes rlong[j] and rcount[j] again;
   - in a residual-restriction each chunk's part is a contribution to the row's cluster:
     clusters that several units or chunks contribute to (clusters split over units, and
     clusters holding a long row) have a slot (cslot): contributions are added into cacc and
     counted in ccount, the last of the cneed contributions writes bc[c] and zeroes the slot.
   Everything a row's output needs besides its sum (b_v, x_v, 1/(2 a_vv)) is loaded right
   after the wait, together with the gathers, not after the row's shuffle sum.
   The summation order inside those rows and clusters therefore varies from run to run in the
   last bits; everything else is deterministic. On latency-bound levels (below -pc_cmg_pack_nnz
   entries) the residual-restriction is one launch over units of the cluster-sorted vertex list
   (PackedUnits): a group of G lanes per vertex, then a segmented shuffle sum per unit, so no
   thread walks a cluster's rows or a row's entries one after the other. On bandwidth-bound levels
   it is two: the residual by rows in storage order (RowKernel, coalesced), then the cluster sums
   (walking the rows of a cluster in cluster order ran at half the bandwidth), where clusters
   larger than GPUPC_CMG_LONG_CLUSTER are cut into chunks of GPUPC_CMG_LONG_CLUSTER_CHUNK
   vertices, a thread block each, in the same launch (the chunk blocks first; the chunks of a
   cluster combine their parts as a long row's chunks do). Whatever writes a cluster's sum bc[c]
   also writes the next level's first Jacobi iterate invd'[c] bc[c] when the plan asks for it
   (Restricted), so a level visit never starts with a Jacobi launch. The last level is a dense GEMV, half a thread block
   per row (coalesced row-major reads).
*/
#include <gpupc/cuda.h>
#include <gpupc/cmgkernels.h>

#define BLOCK GPUPC_CMG_BLOCK

/* every kernel of this file is launched as a dependent launch (gpupc/cuda.h): it waits for the previous kernel before
   it reads vectors or writes */
#define GPUPCLaunch(grid, ...) GPUPCCallCUDA(GPUPCLaunchDependent((unsigned)(grid), BLOCK, __VA_ARGS__))

static unsigned BlocksFor(PetscInt items, int per_item)
{
  size_t threads = (size_t)items * (size_t)per_item;
  return (unsigned)((threads + BLOCK - 1) / BLOCK);
}

/* ------------------------------------------------------------------ element-wise */

/* the sum of s over each segment of W consecutive threads (W a power of two, at most BLOCK; blockDim.x == BLOCK),
   valid in the segment's first thread: shuffles inside a warp, then, for segments wider than a warp, the first thread
   adds the segment's W / 32 warp sums from shared memory. Call from every thread of the block (it has a barrier). */
template <typename T, int W>
__device__ T SegmentSum(T s)
{
  __shared__ T part[BLOCK / 32];

  s = GPUPCGroupSum<T, (W < 32 ? W : 32)>(s);
  if (W <= 32) return s;
  if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = s;
  __syncthreads();
  if (threadIdx.x % W == 0) {
    s = 0;
    for (int w = 0; w < W / 32; w++) s += part[(threadIdx.x >> 5) + w];
  }
  return s;
}

/* block-wide sum, valid in thread 0 */
template <typename T>
__device__ T BlockSum(T s)
{
  return SegmentSum<T, BLOCK>(s);
}

__device__ __forceinline__ double TakeAndZero(double *p)
{
  return __longlong_as_double((long long)atomicExch((unsigned long long *)p, 0ull));
}
__device__ __forceinline__ float TakeAndZero(float *p)
{
  return atomicExch(p, 0.0f);
}

/* b0 = the expanded right-hand side; a grid-stride loop over one resident wave, each thread loading EXPAND_ILP items
   (map and b) before it stores any, so their loads are in flight together. With a ground vertex at index ground >= 0
   every block adds its part of sum b' into *sum and counts itself in *done; the last block to finish writes
   b0[ground] = -sum (0 for the double cover) and zeroes the sum again (the counter wraps to 0), so the expansion is
   one launch: no memset and no kernel of its own for the ground entry. With x0 it also writes level 0's first Jacobi
   iterate x0 = invd0 .* b0, which saves that step's launch and its read of b0 */
#define EXPAND_ILP 4
template <typename T>
__global__ void ExpandKernel(PetscInt n, PetscInt nk, PetscInt copies, PetscInt ground, const PetscInt *__restrict__ map, const PetscInt *__restrict__ erow, const PetscInt *__restrict__ ecol, const PetscScalar *__restrict__ eval, const PetscScalar *__restrict__ dinv, const PetscScalar *__restrict__ b, T *__restrict__ b0, const T *__restrict__ invd0, T *__restrict__ x0, PetscScalar *sum, PetscInt *done)
{
  const PetscInt  stride = (PetscInt)gridDim.x * blockDim.x;
  PetscScalar     s      = 0.0;
  __shared__ bool last;

  GPUPCWaitPrevious();
  GPUPCLetNextLaunch();
  for (PetscInt i0 = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x; i0 < n; i0 += EXPAND_ILP * stride) {
    PetscInt    m[EXPAND_ILP];
    PetscScalar v[EXPAND_ILP];

#pragma unroll
    for (int q = 0; q < EXPAND_ILP; q++) {
      const PetscInt i = i0 + q * stride;
      m[q]             = i < n ? (map ? map[i] : i) : -1;
      v[q]             = i < n ? b[i] : 0.0;
    }
#pragma unroll
    for (int q = 0; q < EXPAND_ILP; q++) {
      const PetscInt i = i0 + q * stride;
      if (m[q] < 0) continue;
      if (erow)
        for (PetscInt k = erow[i]; k < erow[i + 1]; k++) v[q] -= eval[k] * dinv[ecol[k]] * b[ecol[k]];
      b0[m[q]] = (T)v[q];
      if (copies == 2) b0[nk + m[q]] = (T)(-v[q]);
      if (x0) {
        x0[m[q]] = invd0[m[q]] * (T)v[q];
        if (copies == 2) x0[nk + m[q]] = invd0[nk + m[q]] * (T)(-v[q]);
      }
      s += v[q];
    }
  }
  if (ground < 0) return;
  s = BlockSum<PetscScalar>(s);
  if (threadIdx.x == 0) {
    if (copies == 1) atomicAdd(sum, s);
    __threadfence();
    last = atomicInc((unsigned int *)done, gridDim.x - 1) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    __threadfence();
    b0[ground] = (T)(-TakeAndZero(sum));
    if (x0) x0[ground] = invd0[ground] * b0[ground];
  }
}

template <typename T>
__device__ __forceinline__ PetscScalar Folded(PetscInt nk, PetscInt copies, const T *__restrict__ x0, PetscScalar xg, PetscInt m)
{
  PetscScalar s = (PetscScalar)x0[m] - xg;
  if (copies == 2) s = 0.5 * (s - ((PetscScalar)x0[nk + m] - xg));
  return s;
}

/* trow != NULL only for the transpose */
template <typename T>
__global__ void FoldKernel(PetscInt n, PetscInt nk, PetscInt copies, PetscInt g, const PetscInt *__restrict__ map, const PetscScalar *__restrict__ dinv, const PetscInt *__restrict__ trow, const PetscInt *__restrict__ tcol, const PetscScalar *__restrict__ tval, const PetscScalar *__restrict__ b, const T *__restrict__ x0, PetscScalar *__restrict__ x)
{
  GPUPCWaitPrevious();
  GPUPCLetNextLaunch();
  const PetscScalar xg = g >= 0 ? (PetscScalar)x0[g] : 0.0;

  for (PetscInt i = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x; i < n; i += (PetscInt)gridDim.x * blockDim.x) {
    const PetscInt m = map ? map[i] : i;
    if (m >= 0) {
      x[i] = Folded<T>(nk, copies, x0, xg, m);
      continue;
    }
    PetscScalar v = b[i];
    if (trow)
      for (PetscInt k = trow[i]; k < trow[i + 1]; k++) v -= tval[k] * Folded<T>(nk, copies, x0, xg, map[tcol[k]]);
    x[i] = dinv[i] * v;
  }
}

template <typename T>
__global__ void JacobiKernel(PetscInt n, const T *__restrict__ invd, const T *__restrict__ b, T *__restrict__ x)
{
  GPUPCWaitPrevious();
  GPUPCLetNextLaunch();
  for (PetscInt i = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x; i < n; i += (PetscInt)gridDim.x * blockDim.x) x[i] = invd[i] * b[i];
}

template <typename T>
__global__ void ProlongKernel(PetscInt n, const PetscInt *__restrict__ cluster, const T *__restrict__ xc, T *__restrict__ x)
{
  GPUPCWaitPrevious();
  GPUPCLetNextLaunch();
  for (PetscInt i = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x; i < n; i += (PetscInt)gridDim.x * blockDim.x) x[i] += xc[cluster[i]];
}

__global__ void DemoteKernel(PetscInt64 n, const double *__restrict__ x, float *__restrict__ y)
{
  GPUPCWaitPrevious();
  GPUPCLetNextLaunch();
  for (PetscInt64 i = blockIdx.x * (PetscInt64)blockDim.x + threadIdx.x; i < n; i += (PetscInt64)gridDim.x * blockDim.x) y[i] = __double2float_rn(x[i]);
}

template <typename T>
__global__ void UpdateKernel(PetscInt n, const T *__restrict__ invd, const T *__restrict__ r, const T *__restrict__ xin, T *__restrict__ xout)
{
  GPUPCWaitPrevious();
  GPUPCLetNextLaunch();
  for (PetscInt i = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x; i < n; i += (PetscInt)gridDim.x * blockDim.x) xout[i] = xin[i] + invd[i] * r[i];
}

/* the long item (row or cluster) j that chunk (thread block) blk belongs to: first[j] <= blk < first[j + 1] */
__device__ __forceinline__ PetscInt ChunkOwner(PetscInt blk, PetscInt nitems, const PetscInt *__restrict__ first)
{
  PetscInt lo = 0, hi = nitems - 1;
  while (lo < hi) {
    PetscInt mid = (lo + hi + 1) / 2;
    if (first[mid] <= blk) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/* ------------------------------------------------------------------ sparse rows by groups of G lanes */

/* what the fused smoothing and residual-restriction kernels read of a level (see GPUPCCMGDeviceLevel) */
template <typename T>
struct LevelArgs {
  PetscInt n, nlong, nlongc, nrowchunks, nclusterchunks;
  const PetscInt *__restrict__ rowptr, *__restrict__ col;
  const T *__restrict__ val, *__restrict__ invd, *__restrict__ b;
  const PetscInt *__restrict__ cluster, *__restrict__ cptr, *__restrict__ cperm;
  const PetscInt *__restrict__ longrows, *__restrict__ rowchunk, *__restrict__ longclusters, *__restrict__ clusterchunk;
  const PetscInt *__restrict__ cslot, *__restrict__ cneed;
  PetscInt nunits;
  const PetscInt *__restrict__ urange;
  T        *rlong, *cacc, *lcacc;
  PetscInt *rcount, *ccount, *lccount;
  const T *__restrict__ ninvd; /* with nx: the restriction also writes the next level's first Jacobi iterate */
  T *__restrict__ nx;
};

/* the level's arguments; next (may be NULL): the restriction also writes the next level's first Jacobi iterate */
template <typename T>
static LevelArgs<T> Args(const GPUPCCMGDeviceLevel *L, const GPUPCCMGNextJacobi *next = NULL)
{
  LevelArgs<T> a;
  a.n              = L->n;
  a.nlong          = L->nlong;
  a.nlongc         = L->nlongc;
  a.nrowchunks     = L->nlong ? L->nrowchunks : 0;
  a.nclusterchunks = L->nlongc ? L->nclusterchunks : 0;
  a.rowptr         = L->rowptr;
  a.col            = L->col;
  a.val            = (const T *)L->val;
  a.invd           = (const T *)L->invd;
  a.b              = (const T *)L->b;
  a.cluster        = L->cluster;
  a.cptr           = L->cptr;
  a.cperm          = L->cperm;
  a.longrows       = L->longrows;
  a.rowchunk       = L->rowchunk;
  a.longclusters   = L->longclusters;
  a.clusterchunk   = L->clusterchunk;
  a.cslot          = L->cslot;
  a.cneed          = L->cneed;
  a.nunits         = L->nunits;
  a.urange         = L->urange;
  a.rlong          = (T *)L->rlong;
  a.cacc           = (T *)L->cacc;
  a.rcount         = L->rcount;
  a.ccount         = L->ccount;
  a.lcacc          = (T *)L->lcacc;
  a.lccount        = L->lccount;
  a.ninvd          = next ? (const T *)next->invd : NULL;
  a.nx             = next ? (T *)next->x : NULL;
  return a;
}

/* a row of entries k0 .. k1-1 is long (summed in chunks by LongRowPart, skipped elsewhere) */
__device__ __forceinline__ bool IsLong(PetscInt k0, PetscInt k1)
{
  return k1 - k0 > GPUPC_CMG_LONG_ROW;
}

/* how a kernel reads the iterate x_j: stored (Stored), the first Jacobi step x = invd .* b computed on the fly
   (FirstJacobi: the residual-restriction that starts a level's iteration, so that step needs no launch of its own),
   or the prolonged iterate x + xc[c(j)] (Prolonged: the smoothing after the prolongation, likewise) */
template <typename T>
struct Stored {
  const T *__restrict__ x;
  __device__ T operator()(PetscInt j) const { return x[j]; }
};
template <typename T>
struct FirstJacobi {
  const T *__restrict__ invd, *__restrict__ b;
  __device__ T operator()(PetscInt j) const { return invd[j] * b[j]; }
};
template <typename T>
struct Prolonged {
  const T *__restrict__ x, *__restrict__ xc;
  const PetscInt *__restrict__ cluster;
  __device__ T operator()(PetscInt j) const { return x[j] + xc[cluster[j]]; }
};

/* what a kernel needs of row v besides its sum: b_v and x_v (and 1 / (2 a_vv) for a smoothing), loaded right after the
   wait for the previous kernel, so these loads are in flight together with the row's gathers */
template <typename T>
struct RowEnds {
  T b, x, invd;
};
template <typename T, typename X>
__device__ __forceinline__ RowEnds<T> LoadRowEnds(const LevelArgs<T> &a, const X &x, PetscInt v, bool smooth)
{
  return RowEnds<T>{a.b[v], x(v), smooth ? a.invd[v] : (T)0};
}

/* Thread block blk (< nrowchunks) sums its chunk of long row j: each thread loads its GPUPC_CMG_LONG_ROW_ILP entries
   (matrix data) before it waits for the previous kernel, then gathers x for all of them at once. Call
   block-uniformly; thread 0 gets the chunk's part of (b - A x)_v, b_v included by the first chunk, the row v and
   its chunk count in *v and *pieces, and (with ends) the row's RowEnds. */
template <typename T, typename X>
__device__ T LongRowPart(const LevelArgs<T> &a, PetscInt blk, const X &x, bool ends, PetscInt *v, PetscInt *j, PetscInt *pieces, RowEnds<T> *e)
{
  const PetscInt jj    = ChunkOwner(blk, a.nlong, a.rowchunk);
  const PetscInt piece = blk - a.rowchunk[jj];
  const PetscInt row   = a.longrows[jj];
  const PetscInt k0    = a.rowptr[row] + piece * (PetscInt)GPUPC_CMG_LONG_ROW_CHUNK;
  const PetscInt k1    = min(k0 + (PetscInt)GPUPC_CMG_LONG_ROW_CHUNK, a.rowptr[row + 1]);
  PetscInt       c[GPUPC_CMG_LONG_ROW_ILP];
  T              w[GPUPC_CMG_LONG_ROW_ILP], s = 0, bv = 0;

#pragma unroll
  for (int q = 0; q < GPUPC_CMG_LONG_ROW_ILP; q++) {
    const PetscInt k = k0 + threadIdx.x + q * (PetscInt)BLOCK;
    c[q]             = k < k1 ? a.col[k] : -1;
    w[q]             = k < k1 ? a.val[k] : (T)0;
  }
  GPUPCWaitPrevious();
  GPUPCLetNextLaunch();
  if (threadIdx.x == 0) {
    if (piece == 0) bv = a.b[row];
    if (ends) *e = LoadRowEnds<T>(a, x, row, true);
  }
#pragma unroll
  for (int q = 0; q < GPUPC_CMG_LONG_ROW_ILP; q++)
    if (c[q] >= 0) s += w[q] * x(c[q]);
  s       = BlockSum<T>(s);
  *v      = row;
  *j      = jj;
  *pieces = a.rowchunk[jj + 1] - a.rowchunk[jj];
  return bv - s;
}

/* Adds part, one of the pieces parts of a sum, to *acc and counts it in *count; the piece that comes last gets the whole
   sum in *sum (and zeroes *acc and *count again for the next kernel) and true, the others false. A single piece is the
   sum (no atomics). Call from one thread per piece. */
template <typename T>
__device__ bool LastPiece(T *acc, PetscInt *count, PetscInt pieces, T part, T *sum)
{
  if (pieces == 1) {
    *sum = part;
    return true;
  }
  atomicAdd(acc, part);
  __threadfence();
  if (atomicAdd(count, 1) != pieces - 1) return false;
  *sum   = TakeAndZero(acc);
  *count = 0;
  return true;
}

/* The whole residual of long row v in thread 0 of the chunk that finishes it, with the row's RowEnds: a row of one
   chunk has it at once; otherwise the chunks add their parts into rlong[j] and count themselves in rcount[j], and the
   last one to finish takes the sum (and zeroes rlong[j] and rcount[j] again for the next kernel). Call
   block-uniformly; returns true in that thread only. */
template <typename T, typename X>
__device__ bool LongRow(const LevelArgs<T> &a, PetscInt blk, const X &x, PetscInt *v, T *r, RowEnds<T> *e)
{
  PetscInt j, pieces;
  const T  part = LongRowPart<T>(a, blk, x, true, v, &j, &pieces, e);

  if (threadIdx.x != 0) return false;
  return LastPiece<T>(a.rlong + j, a.rcount + j, pieces, part, r);
}

/* the vertices cperm[*p0 .. *p1) of chunk blk (< L->nclusterchunks) of the large clusters, their cluster *c, its index
   *j among the large clusters and its chunk count *pieces */
template <typename T>
__device__ __forceinline__ void ClusterChunk(const LevelArgs<T> &a, PetscInt blk, PetscInt *c, PetscInt *j, PetscInt *pieces, PetscInt *p0, PetscInt *p1)
{
  *j      = ChunkOwner(blk, a.nlongc, a.clusterchunk);
  *pieces = a.clusterchunk[*j + 1] - a.clusterchunk[*j];
  *c      = a.longclusters[*j];
  *p0     = a.cptr[*c] + (blk - a.clusterchunk[*j]) * (PetscInt)GPUPC_CMG_LONG_CLUSTER_CHUNK;
  *p1     = min(*p0 + (PetscInt)GPUPC_CMG_LONG_CLUSTER_CHUNK, a.cptr[*c + 1]);
}

/* cluster c's sum s of the restriction: bc[c] = s, and with a.nx the next level's first Jacobi iterate */
template <typename T>
__device__ __forceinline__ void Restricted(const LevelArgs<T> &a, PetscInt c, T s, T *__restrict__ bc)
{
  bc[c] = s;
  if (a.nx) a.nx[c] = a.ninvd[c] * s;
}

/* adds one of the cneed[s] contributions to cluster c (slot s); the last one writes bc[c] and zeroes the slot */
template <typename T>
__device__ void Contribute(const LevelArgs<T> &a, PetscInt c, T v, T *__restrict__ bc)
{
  const PetscInt s = a.cslot[c];
  T              sum;

  if (LastPiece<T>(a.cacc + s, a.ccount + s, a.cneed[s], v, &sum)) Restricted<T>(a, c, sum, bc);
}

/* sum_k val[k] x(col[k]) over the entries k0 .. k1-1 of a row (mine) by a group of G lanes (lane 0..G-1), in lane 0:
   each lane reads its first entry (matrix data) before it waits for the previous kernel, which this call does, then
   runs early() (the caller's loads of what that kernel wrote, e.g. LoadRowEnds, in flight with the gathers); call
   from every thread (mine false where the thread has no row of its own), so every group takes part in the shuffles */
template <typename T, int G, typename X, typename Early>
__device__ __forceinline__ T GroupRowSum(const LevelArgs<T> &a, bool mine, PetscInt k0, PetscInt k1, int lane, const X &x, Early early)
{
  PetscInt k = k0 + lane, c0 = -1;
  T        s = 0, v0 = 0;

  if (mine && k < k1) {
    c0 = a.col[k];
    v0 = a.val[k];
  }
  GPUPCWaitPrevious();
  GPUPCLetNextLaunch();
  early();
  if (c0 >= 0) s = v0 * x(c0);
  if (mine) {
#pragma unroll 4
    for (k += G; k < k1; k += G) s += a.val[k] * x(a.col[k]);
  }
  return GPUPCGroupSum<T, G>(s);
}

/* what RowKernel writes for row v with residual r = b_v - (A x)_v (e: the row's RowEnds) */
template <typename T, bool RES>
__device__ __forceinline__ void RowOut(PetscInt v, T r, const RowEnds<T> &e, T *__restrict__ out, T *__restrict__ xw)
{
  if (!RES) out[v] = e.x + e.invd * r;
  else {
    out[v] = r;
    if (xw) xw[v] = e.x;
  }
}

/* By rows, one launch: out = x + invd .* (b - A x) (smoothing), or with RES out = b - A x (the residual, and x stored
   in xw when given). The first nrowchunks blocks do the long rows in chunks (the last chunk of a row writes its
   entry), the other blocks give every other row a group of G lanes. X reads the iterate x (Stored, FirstJacobi, or
   Prolonged: the prolongation fused in). */
template <typename T, int G, typename X, bool RES>
__global__ void RowKernel(const LevelArgs<T> a, const X x, T *__restrict__ out, T *__restrict__ xw)
{
  PetscInt blk = blockIdx.x;

  if (blk < a.nrowchunks) {
    PetscInt   v;
    T          r;
    RowEnds<T> e;
    if (LongRow<T>(a, blk, x, &v, &r, &e)) RowOut<T, RES>(v, r, e, out, xw);
    return;
  }
  blk -= a.nrowchunks;
  {
    const PetscInt row  = (blk * (PetscInt)blockDim.x + threadIdx.x) / G;
    const int      lane = threadIdx.x & (G - 1);
    const PetscInt k0 = row < a.n ? a.rowptr[row] : 0, k1 = row < a.n ? a.rowptr[row + 1] : 0;
    const bool     mine = row < a.n && !IsLong(k0, k1);
    RowEnds<T>     e;
    const T        s = GroupRowSum<T, G>(a, mine, k0, k1, lane, x, [&] {
      if (mine && lane == 0) e = LoadRowEnds<T>(a, x, row, !RES);
    });

    if (mine && lane == 0) RowOut<T, RES>(row, e.b - s, e, out, xw);
  }
}

/* The units of ResidualRestrictKernel on a latency-bound level (urange: whole small clusters, or a part of a large
   one, U = GPUPC_CMG_UNIT_SLOTS(G) positions of the cluster-sorted list each; BLOCK / (G U) units per thread block): a
   group of G lanes per vertex computes its residual as RowKernel does, so neither a cluster's vertices nor a row's
   entries are walked one after the other by one thread; then a warp per unit takes the unit's residuals from shared
   memory and a segmented shuffle sum (a cluster's vertices are consecutive) leaves each cluster's part in its last
   lane. A cluster summed by one unit alone is written, the others (split clusters, clusters with a long row) are
   contributions to their slot. Call block-uniformly (it has a barrier). */
template <typename T, int G, typename X>
__device__ void PackedUnits(const LevelArgs<T> &a, PetscInt blk, const X &x, T *__restrict__ xw, T *__restrict__ bc)
{
  constexpr int       U = GPUPC_CMG_UNIT_SLOTS(G), UPB = BLOCK / (G * U);
  __shared__ T        rs[BLOCK / G];
  __shared__ PetscInt cs[BLOCK / G];
  const int           slot = threadIdx.x / G, lane = threadIdx.x & (G - 1);
  const PetscInt      u  = blk * UPB + slot / U;
  const PetscInt      p  = u < a.nunits ? a.urange[2 * u] + slot % U : 0;
  const bool          in = u < a.nunits && p < a.urange[2 * u + 1];
  const PetscInt      v  = in ? a.cperm[p] : 0;
  const PetscInt      k0 = in ? a.rowptr[v] : 0, k1 = in ? a.rowptr[v + 1] : 0;
  const bool          sum = in && !IsLong(k0, k1);
  RowEnds<T>          e;
  T                   s;

  if (lane == 0) cs[slot] = in ? a.cluster[v] : -1; /* matrix data, before the wait */
  s = GroupRowSum<T, G>(a, sum, k0, k1, lane, x, [&] {
    if (in && lane == 0) e = LoadRowEnds<T>(a, x, v, false);
  });
  if (lane == 0) {
    if (in && xw) xw[v] = e.x;
    rs[slot] = sum ? e.b - s : (T)0;
  }
  __syncthreads();
  {
    const int w = threadIdx.x / 32, l = threadIdx.x & 31;
    PetscInt  c, cnext;
    T         r;

    if (w >= UPB) return;
    c = l < U ? cs[w * U + l] : -1;
    r = l < U ? rs[w * U + l] : (T)0;
    for (int off = 1; off < 32; off *= 2) {
      const T        o  = __shfl_up_sync(0xffffffffu, r, off);
      const PetscInt oc = __shfl_up_sync(0xffffffffu, c, off);
      if (l >= off && oc == c) r += o;
    }
    cnext = __shfl_down_sync(0xffffffffu, c, 1);
    if (c >= 0 && (l == 31 || cnext != c)) {
      if (a.cslot && a.cslot[c] >= 0) Contribute<T>(a, c, r, bc);
      else Restricted<T>(a, c, r, bc);
    }
  }
}

/* bc[c] = sum_{v in c} (b - A x)_v, one launch: the first nrowchunks blocks do the long rows in chunks (each chunk's
   part of the row's residual is a contribution to the row's cluster), the other blocks the units of the level's packing (PackedUnits;
   levels with a packing only: LaunchResidualRestrict). Long rows are skipped where their cluster is summed. Clusters
   with a slot are finished by their last contribution.
   X reads the iterate; with FirstJacobi the iterate is invd .* b, which the units also store in xw (every vertex is
   in exactly one unit, so each x_v is written once). */
template <typename T, int G, typename X>
__global__ void ResidualRestrictKernel(const LevelArgs<T> a, const X x, T *__restrict__ xw, T *__restrict__ bc)
{
  const PetscInt blk = blockIdx.x;

  if (blk < a.nrowchunks) {
    PetscInt   v, j, pieces;
    RowEnds<T> e;
    const T    part = LongRowPart<T>(a, blk, x, false, &v, &j, &pieces, &e);
    if (threadIdx.x == 0) Contribute<T>(a, a.cluster[v], part, bc);
    return;
  }
  PackedUnits<T, G>(a, blk - a.nrowchunks, x, xw, bc);
}

/* bc[c] = sum_{v in c} r_v over the cluster-sorted vertex list, one launch: the first nclusterchunks blocks sum the
   chunks of the clusters of more than GPUPC_CMG_LONG_CLUSTER vertices, a thread per vertex (the chunks of a cluster
   combine their parts with LastPiece), the other blocks give every other cluster a thread */
template <typename T>
__global__ void ClusterSumKernel(const LevelArgs<T> a, PetscInt nc, const T *__restrict__ r, T *__restrict__ bc)
{
  PetscInt blk = blockIdx.x;

  if (blk < a.nclusterchunks) {
    PetscInt c, j, pieces, p0, p1;
    T        s = 0, sum;

    ClusterChunk<T>(a, blk, &c, &j, &pieces, &p0, &p1);
    GPUPCWaitPrevious();
    GPUPCLetNextLaunch();
    for (PetscInt p = p0 + threadIdx.x; p < p1; p += blockDim.x) s += r[a.cperm[p]];
    s = BlockSum<T>(s);
    if (threadIdx.x == 0 && LastPiece<T>(a.lcacc + j, a.lccount + j, pieces, s, &sum)) Restricted<T>(a, c, sum, bc);
    return;
  }
  blk -= a.nclusterchunks;
  {
    const PetscInt c  = blk * (PetscInt)blockDim.x + threadIdx.x;
    const PetscInt p0 = c < nc ? a.cptr[c] : 0, p1 = c < nc ? a.cptr[c + 1] : 0; /* before the wait: not written by a kernel */
    T              s = 0;

    GPUPCWaitPrevious();
    GPUPCLetNextLaunch();
    if (c >= nc || p1 - p0 > GPUPC_CMG_LONG_CLUSTER) return;
    for (PetscInt p = p0; p < p1; p++) s += r[a.cperm[p]];
    Restricted<T>(a, c, s, bc);
  }
}

/* rows of the last-level inverse per thread block, and the entries of its row a thread of DenseKernel reads before the
   previous kernel has finished (all of a 1280-row inverse) */
#define DENSE_ROWS    2
#define DENSE_PRELOAD 10

/* x = D b, DENSE_ROWS rows per thread block, BLOCK / DENSE_ROWS threads per row: with a warp per row a last level of
   ~1200-2500 rows left ~10 warps per SM with one load in flight each (1.3 TB/s on the H200); with a block per row the
   1211 blocks of poisson3d's last level took 1.15 waves of 256-thread blocks (5.7-6.1 us per GEMV from L2, ncu) */
template <typename T>
__global__ void DenseKernel(PetscInt n, const T *__restrict__ D, const T *__restrict__ b, T *__restrict__ x)
{
  constexpr int  W          = BLOCK / DENSE_ROWS;
  const PetscInt i          = blockIdx.x * (PetscInt)DENSE_ROWS + threadIdx.x / W;
  const int      t          = threadIdx.x % W;
  const T *__restrict__ row = D + (size_t)(i < n ? i : 0) * n;
  T s                       = 0, d[DENSE_PRELOAD];

#pragma unroll
  for (int q = 0; q < DENSE_PRELOAD; q++) { /* the inverse, read before the previous kernel has finished */
    const PetscInt j = t + q * (PetscInt)W;
    d[q]             = i < n && j < n ? row[j] : (T)0;
  }
  GPUPCWaitPrevious();
  GPUPCLetNextLaunch();
#pragma unroll
  for (int q = 0; q < DENSE_PRELOAD; q++) {
    const PetscInt j = t + q * (PetscInt)W;
    if (i < n && j < n) s += d[q] * b[j];
  }
  if (i < n) {
#pragma unroll 4
    for (PetscInt j = t + DENSE_PRELOAD * (PetscInt)W; j < n; j += W) s += row[j] * b[j];
  }
  s = SegmentSum<T, W>(s);
  if (t == 0 && i < n) x[i] = s;
}

/* ------------------------------------------------------------------ launchers */

template <typename T>
static PetscErrorCode Expand_T(const GPUPCCMGDeviceFold *F, PetscBool transpose, const PetscScalar *b, void *b0)
{
  const unsigned grid = (unsigned)PetscMax(GPUPCCUDAGridSize(F->n, BLOCK), 1);

  PetscFunctionBegin;
  if (F->n <= 0 && !F->ground) PetscFunctionReturn(0);
  GPUPCLaunch(grid, ExpandKernel<T>, F->n, F->nk, F->copies, F->ground ? F->copies * F->nk : -1, F->map, transpose ? NULL : F->erow, F->ecol, F->eval, F->dinv, b, (T *)b0, (const T *)F->first.invd, (T *)F->first.x, F->sum, F->done);
  GPUPCCheckLaunch("cmg expand");
  PetscFunctionReturn(0);
}

template <typename T>
static PetscErrorCode Fold_T(const GPUPCCMGDeviceFold *F, PetscBool transpose, const PetscScalar *b, const void *x0, PetscScalar *x)
{
  PetscFunctionBegin;
  if (F->n <= 0) PetscFunctionReturn(0);
  GPUPCLaunch(BlocksFor(F->n, 1), FoldKernel<T>, F->n, F->nk, F->copies, F->ground ? F->copies * F->nk : -1, F->map, F->dinv, transpose ? F->trow : NULL, F->tcol, F->tval, b, (const T *)x0, x);
  GPUPCCheckLaunch("cmg fold");
  PetscFunctionReturn(0);
}

template <typename T>
static PetscErrorCode Jacobi_T(const GPUPCCMGDeviceLevel *L)
{
  PetscFunctionBegin;
  if (L->n <= 0) PetscFunctionReturn(0);
  GPUPCLaunch(BlocksFor(L->n, 1), JacobiKernel<T>, L->n, (const T *)L->invd, (const T *)L->b, (T *)L->x);
  GPUPCCheckLaunch("cmg jacobi");
  PetscFunctionReturn(0);
}

template <typename T>
static PetscErrorCode Prolong_T(const GPUPCCMGDeviceLevel *L, const void *xc)
{
  PetscFunctionBegin;
  if (L->n <= 0) PetscFunctionReturn(0);
  GPUPCLaunch(BlocksFor(L->n, 1), ProlongKernel<T>, L->n, L->cluster, (const T *)xc, (T *)L->x);
  GPUPCCheckLaunch("cmg prolong");
  PetscFunctionReturn(0);
}

template <typename T, int G>
static PetscErrorCode LaunchSmooth(const GPUPCCMGDeviceLevel *L, const void *xin, const void *xc, void *xout)
{
  const LevelArgs<T> a    = Args<T>(L);
  const unsigned     grid = (unsigned)a.nrowchunks + BlocksFor(L->n, G);

  PetscFunctionBegin;
  if (xc) GPUPCLaunch(grid, RowKernel<T, G, Prolonged<T>, false>, a, Prolonged<T>{(const T *)xin, (const T *)xc, L->cluster}, (T *)xout, (T *)NULL);
  else GPUPCLaunch(grid, RowKernel<T, G, Stored<T>, false>, a, Stored<T>{(const T *)xin}, (T *)xout, (T *)NULL);
  GPUPCCheckLaunch("cmg smooth");
  PetscFunctionReturn(0);
}

template <typename T>
static PetscErrorCode ClusterSum_T(const GPUPCCMGDeviceLevel *, const void *, void *, const GPUPCCMGNextJacobi *);

/* On a level with a packing (latency-bound) one fused launch; on the others (bandwidth-bound) the residual by rows
   in storage order into L->r, then the cluster sums: there the fused kernel's walk of each cluster's rows, in
   cluster order, ran at ~1.8 TB/s on the H200 against ~3.3 TB/s for a pass by rows (bench/NOTES.md) */
template <typename T, int G>
static PetscErrorCode LaunchResidualRestrict(const GPUPCCMGDeviceLevel *L, PetscBool first, void *bc, const GPUPCCMGNextJacobi *next)
{
  const LevelArgs<T> a    = Args<T>(L, next);
  constexpr int      UPB  = BLOCK / (G * GPUPC_CMG_UNIT_SLOTS(G));
  const unsigned     grid = (unsigned)(a.nrowchunks + (a.nunits + UPB - 1) / UPB);

  PetscFunctionBegin;
  if (!a.urange) {
    const unsigned rgrid = (unsigned)a.nrowchunks + BlocksFor(L->n, G);
    PetscCheck(L->r, PETSC_COMM_SELF, PETSC_ERR_PLIB, "CMG level without a packing has no residual buffer");
    if (first) GPUPCLaunch(rgrid, RowKernel<T, G, FirstJacobi<T>, true>, a, FirstJacobi<T>{a.invd, a.b}, (T *)L->r, (T *)L->x);
    else GPUPCLaunch(rgrid, RowKernel<T, G, Stored<T>, true>, a, Stored<T>{(const T *)L->x}, (T *)L->r, (T *)NULL);
    GPUPCCheckLaunch("cmg residual");
    PetscCall(ClusterSum_T<T>(L, L->r, bc, next));
    PetscFunctionReturn(0);
  }
  if (first) GPUPCLaunch(grid, ResidualRestrictKernel<T, G, FirstJacobi<T>>, a, FirstJacobi<T>{a.invd, a.b}, (T *)L->x, (T *)bc);
  else GPUPCLaunch(grid, ResidualRestrictKernel<T, G, Stored<T>>, a, Stored<T>{(const T *)L->x}, (T *)NULL, (T *)bc);
  GPUPCCheckLaunch("cmg residual_restrict");
  PetscFunctionReturn(0);
}

/* the level's lanes per row (GPUPCCMGLanes) as a template argument */
#define GPUPC_CMG_BY_LANES(L, F, ...)                                                                                                         \
  do {                                                                                                                                        \
    switch ((L)->lanes) {                                                                                                                     \
    case 2: PetscCall(F<T, 2>(__VA_ARGS__)); break;                                                                                           \
    case 4: PetscCall(F<T, 4>(__VA_ARGS__)); break;                                                                                           \
    case 8: PetscCall(F<T, 8>(__VA_ARGS__)); break;                                                                                           \
    case 16: PetscCall(F<T, 16>(__VA_ARGS__)); break;                                                                                         \
    case 32: PetscCall(F<T, 32>(__VA_ARGS__)); break;                                                                                         \
    default: SETERRQ(PETSC_COMM_SELF, PETSC_ERR_PLIB, "CMG level with %" PetscInt_FMT " lanes per row (2..32 by powers of two)", (L)->lanes); \
    }                                                                                                                                         \
  } while (0)

template <typename T>
static PetscErrorCode ResidualRestrict_T(const GPUPCCMGDeviceLevel *L, PetscBool first, void *bc, const GPUPCCMGNextJacobi *next)
{
  PetscFunctionBegin;
  if (L->nc <= 0) PetscFunctionReturn(0);
  GPUPC_CMG_BY_LANES(L, LaunchResidualRestrict, L, first, bc, next);
  PetscFunctionReturn(0);
}

template <typename T>
static PetscErrorCode Smooth_T(const GPUPCCMGDeviceLevel *L, const void *xin, const void *xc, void *xout)
{
  PetscFunctionBegin;
  if (L->n <= 0) PetscFunctionReturn(0);
  GPUPC_CMG_BY_LANES(L, LaunchSmooth, L, xin, xc, xout);
  PetscFunctionReturn(0);
}

template <typename T>
static PetscErrorCode DenseSolve_T(const GPUPCCMGDeviceLevel *L)
{
  PetscFunctionBegin;
  if (L->n <= 0) PetscFunctionReturn(0);
  GPUPCLaunch((L->n + DENSE_ROWS - 1) / DENSE_ROWS, DenseKernel<T>, L->n, (const T *)L->dense, (const T *)L->b, (T *)L->x);
  GPUPCCheckLaunch("cmg dense_solve");
  PetscFunctionReturn(0);
}

template <typename T>
static PetscErrorCode Update_T(const GPUPCCMGDeviceLevel *L, const void *r, const void *xin, void *xout)
{
  PetscFunctionBegin;
  if (L->n <= 0) PetscFunctionReturn(0);
  GPUPCLaunch(BlocksFor(L->n, 1), UpdateKernel<T>, L->n, (const T *)L->invd, (const T *)r, (const T *)xin, (T *)xout);
  GPUPCCheckLaunch("cmg update");
  PetscFunctionReturn(0);
}

template <typename T>
static PetscErrorCode ClusterSum_T(const GPUPCCMGDeviceLevel *L, const void *r, void *bc, const GPUPCCMGNextJacobi *next)
{
  PetscFunctionBegin;
  if (L->nc <= 0) PetscFunctionReturn(0);
  GPUPCLaunch((unsigned)L->nclusterchunks + BlocksFor(L->nc, 1), ClusterSumKernel<T>, Args<T>(L, next), L->nc, (const T *)r, (T *)bc);
  GPUPCCheckLaunch("cmg cluster_sum");
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ table */

#define SINGLE(p) ((p) == GPUPC_CMG_PRECISION_SINGLE)

static PetscErrorCode Expand_CUDA(const GPUPCCMGDeviceFold *F, PetscBool transpose, const PetscScalar *b, void *b0)
{
  return SINGLE(F->prec) ? Expand_T<float>(F, transpose, b, b0) : Expand_T<double>(F, transpose, b, b0);
}
static PetscErrorCode Fold_CUDA(const GPUPCCMGDeviceFold *F, PetscBool transpose, const PetscScalar *b, const void *x0, PetscScalar *x)
{
  return SINGLE(F->prec) ? Fold_T<float>(F, transpose, b, x0, x) : Fold_T<double>(F, transpose, b, x0, x);
}
static PetscErrorCode Jacobi_CUDA(const GPUPCCMGDeviceLevel *L)
{
  return SINGLE(L->prec) ? Jacobi_T<float>(L) : Jacobi_T<double>(L);
}
static PetscErrorCode Smooth_CUDA(const GPUPCCMGDeviceLevel *L, const void *xin, const void *xc, void *xout)
{
  return SINGLE(L->prec) ? Smooth_T<float>(L, xin, xc, xout) : Smooth_T<double>(L, xin, xc, xout);
}
static PetscErrorCode ResidualRestrict_CUDA(const GPUPCCMGDeviceLevel *L, PetscBool first, void *bc, const GPUPCCMGNextJacobi *next)
{
  return SINGLE(L->prec) ? ResidualRestrict_T<float>(L, first, bc, next) : ResidualRestrict_T<double>(L, first, bc, next);
}
static PetscErrorCode Prolong_CUDA(const GPUPCCMGDeviceLevel *L, const void *xc)
{
  return SINGLE(L->prec) ? Prolong_T<float>(L, xc) : Prolong_T<double>(L, xc);
}
static PetscErrorCode DenseSolve_CUDA(const GPUPCCMGDeviceLevel *L)
{
  return SINGLE(L->prec) ? DenseSolve_T<float>(L) : DenseSolve_T<double>(L);
}

static PetscErrorCode Update_CUDA(const GPUPCCMGDeviceLevel *L, const void *r, const void *xin, void *xout)
{
  return SINGLE(L->prec) ? Update_T<float>(L, r, xin, xout) : Update_T<double>(L, r, xin, xout);
}
static PetscErrorCode ClusterSum_CUDA(const GPUPCCMGDeviceLevel *L, const void *r, void *bc, const GPUPCCMGNextJacobi *next)
{
  return SINGLE(L->prec) ? ClusterSum_T<float>(L, r, bc, next) : ClusterSum_T<double>(L, r, bc, next);
}

static PetscErrorCode Demote_CUDA(PetscInt64 n, const PetscReal *x, float *y)
{
  PetscFunctionBegin;
  if (n <= 0) PetscFunctionReturn(0);
  GPUPCLaunch(GPUPCCUDAGridSize((PetscInt)PetscMin(n, (PetscInt64)PETSC_MAX_INT), BLOCK), DemoteKernel, n, (const double *)x, y);
  GPUPCCheckLaunch("cmg demote");
  PetscFunctionReturn(0);
}

/* the table: every member's Stem_CUDA from GPUPC_CMG_KERNEL_LIST, by name (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_DEFINE(GPUPCCMGKernels, GPUPCCMGKernelsCUDA, GPUPC_CMG_KERNEL_LIST, "cuda", _CUDA);

/*
   CUDA implementation of the device sparse kernels of the setups (gpupc/sparsekernels.h); the algorithms and their
   sources are in docs/algorithms.md, "device sparse kernels of the setups".

   SpGEMM C = A B, row by row, in three passes over the products a_ik b_kj:
     count   - the distinct columns of each row of C, by inserting them into a hash table;
     pattern - the same insertions, the table's keys written out, then every row sorted (CUB's segmented sort);
     values  - C's sorted row in shared memory (long rows: in place in C), each product's slot found by binary search.
   The count and pattern passes bin their rows by the keys their table must hold (count: min(products, columns of B);
   pattern: the row's length in C): bins 1..6 give a group of 1, 2, .., 32 lanes per row and 16, 32, .., 512 slots in
   shared memory (at most 3/4 full), bin 7 a block of 256 threads and 2048 shared slots, bin 8 a block and a table in
   global memory (sized per row, in batches of at most 64M slots). Inside a group, lanes split into sub-groups over A's
   row and lanes over B's rows (as many lanes per B row as B's mean row length, rounded up to a power of two).
   The values pass needs no bins: a group of 8, 16 or 32 lanes per row flattens the products of G entries of A's row
   at a time and works on G of them at once; the deterministic sums hand each slot's products of those G to one lane,
   which adds them in A's row order (see "SpGEMM: values" below).

   Transpose and sort-and-reduce are stable radix sorts (CUB) of the column (transpose) or of the (row, column) key
   (COO, 64-bit key of bits(m) + bits(n) + 1 bits, the top one for dropped entries) carrying the entry index; row
   pointers come from binary searches of the sorted keys, the values from the carried indices.
*/
#include <gpupc/cuda.h>
#include <gpupc/sparsekernels.h>
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <climits>

static_assert(sizeof(PetscInt) == sizeof(int), "the CUDA sparse kernels are written for 32-bit PetscInt");
static_assert(sizeof(PetscScalar) == sizeof(double), "the CUDA sparse kernels are written for double PetscScalar");

#define BLOCK           256
#define GRID_LOOP(k, n) for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < (long long)(n); k += (long long)gridDim.x * blockDim.x)

/* blocks of a grid-stride kernel over n items (64-bit: n may be close to 2^31) */
static int Grid(long long n)
{
  const long long need = (n + BLOCK - 1) / BLOCK, fill = GPUPCCUDAGridSize(1 << 28, BLOCK);
  return (int)(need < 1 ? 1 : (need < fill ? need : fill));
}

/* bits that hold the values 0 .. x-1 */
static int BitsFor(long long x)
{
  int b = 0;
  while (b < 62 && (1LL << b) < x) b++;
  return b;
}

/* ---------------------------------------------------------------- temporaries and results on the device */

/* the temporaries of one call, through GPUPCMalloc (counted by PetscGPUPCDeviceMemoryInUse); peak: the most held.
   Every member runs its body through Run(), which frees what the body still holds when it returns, also on an error. */
#define TEMP_SLOTS 16
typedef struct {
  size_t cur, peak;
  void  *p[TEMP_SLOTS];
  size_t bytes[TEMP_SLOTS];
} Temp;

template <typename T>
static PetscErrorCode TempGet(Temp *t, size_t n, T **p)
{
  int k = 0;

  PetscFunctionBegin;
  *p = NULL;
  if (!n) PetscFunctionReturn(0);
  while (k < TEMP_SLOTS && t->p[k]) k++;
  PetscCheck(k < TEMP_SLOTS, PETSC_COMM_SELF, PETSC_ERR_PLIB, "more than %d temporaries in one sparse kernel", TEMP_SLOTS);
  PetscCall(GPUPCMalloc(n * sizeof(T), (void **)p));
  t->p[k]     = *p;
  t->bytes[k] = n * sizeof(T);
  t->cur += n * sizeof(T);
  t->peak = PetscMax(t->peak, t->cur);
  PetscFunctionReturn(0);
}

template <typename T>
static PetscErrorCode TempPut(Temp *t, T **p)
{
  PetscFunctionBegin;
  if (!*p) PetscFunctionReturn(0);
  for (int k = 0; k < TEMP_SLOTS; k++)
    if (t->p[k] == (void *)*p) {
      PetscCall(GPUPCFree(t->p[k]));
      t->cur -= t->bytes[k];
      t->p[k] = NULL;
      *p      = NULL;
      PetscFunctionReturn(0);
    }
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_PLIB, "a sparse kernel freed a temporary it did not take");
}

/* body(&t) with fresh temporaries, all freed after it, its error (if any) returned after that; *peak: their peak */
template <class F>
static PetscErrorCode Run(size_t *peak, F body)
{
  Temp           t;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&t, sizeof(t)));
  ierr = body(&t);
  for (int k = 0; k < TEMP_SLOTS; k++) PetscCall(GPUPCFree(t.p[k]));
  PetscCall(ierr);
  if (peak) *peak = t.peak;
  PetscFunctionReturn(0);
}

/* a CUB device-wide call f(temp, bytes): sized, given its temporary storage, run */
template <class F>
static PetscErrorCode RunCUB(Temp *t, const char *what, F f)
{
  size_t      bytes = 0;
  char       *tmp   = NULL;
  cudaError_t err;

  PetscFunctionBegin;
  err = f(NULL, bytes);
  PetscCheck(err == cudaSuccess, PETSC_COMM_SELF, PETSC_ERR_GPU, "CUB %s (sizing) failed: %s (%s)", what, cudaGetErrorName(err), cudaGetErrorString(err));
  bytes = PetscMax(bytes, (size_t)16); /* a NULL buffer would only ask for the size again */
  PetscCall(TempGet(t, bytes, &tmp));
  err = f(tmp, bytes);
  PetscCheck(err == cudaSuccess, PETSC_COMM_SELF, PETSC_ERR_GPU, "CUB %s failed: %s (%s)", what, cudaGetErrorName(err), cudaGetErrorString(err));
  PetscCall(TempPut(t, &tmp));
  PetscFunctionReturn(0);
}

#define NBINS      9
#define BIN_BLOCK  7
#define BIN_GLOBAL 8

/* errors the kernels find (Scalars.err) */
#define ERR_FULL    1 /* a hash table filled up: a row has more distinct columns than its row pointers say */
#define ERR_PATTERN 2 /* a row has fewer distinct columns than its row pointers say */
#define ERR_OUTSIDE 4 /* a product lies outside C's pattern */

/* small results of the kernels, read back by the host */
typedef struct {
  unsigned long long badkey; /* check: 4 * row + fault of the first bad row (ULLONG_MAX: none) */
  unsigned long long sum;    /* rowptr: the sum of the counts */
  int                bincount[NBINS];
  int                err;    /* ERR_* bits */
  int                errrow; /* the first row with an error (INT_MAX: none) */
  int                neg;    /* rowptr: the first negative count (INT_MAX: none) */
  int                count;  /* compact: marked indices; coo: dropped entries */
  int                bad;    /* coo: the first entry outside the matrix (INT_MAX: none) */
} Scalars;

static PetscErrorCode ScalarsReset(Scalars *d)
{
  Scalars h;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&h, sizeof(h)));
  h.badkey = ULLONG_MAX;
  h.errrow = h.neg = h.bad = INT_MAX;
  PetscCall(GPUPCCopyToDevice(d, &h, 1));
  PetscFunctionReturn(0);
}

static PetscErrorCode ScalarsGet(Temp *t, Scalars **d)
{
  PetscFunctionBegin;
  PetscCall(TempGet(t, 1, d));
  PetscCall(ScalarsReset(*d));
  PetscFunctionReturn(0);
}

/* a PETSc error for what the SpGEMM kernels found */
static PetscErrorCode ReadErrors(const Scalars *d, const char *member)
{
  Scalars h;

  PetscFunctionBegin;
  PetscCall(GPUPCCopyToHost(&h, d, 1));
  PetscCheck(!(h.err & ERR_OUTSIDE), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "%s: the product has an entry in row %d outside C's pattern: the patterns of A or B changed since the symbolic product; redo it (MAT_INITIAL_MATRIX)", member, h.errrow);
  PetscCheck(!(h.err & (ERR_FULL | ERR_PATTERN)), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "%s: row %d of the product has another number of entries than its row pointers say: C's row pointers are not spgemm_count's for these A and B", member, h.errrow);
  PetscFunctionReturn(0);
}

__device__ __forceinline__ void SetError(Scalars *ds, int bits, int row)
{
  atomicOr(&ds->err, bits);
  atomicMin(&ds->errrow, row);
}

/* ---------------------------------------------------------------- searches */

/* the first q < n with keys[q] >= x (n when none) */
template <typename K>
__device__ __forceinline__ long long LowerBound(const K *keys, long long n, K x)
{
  long long lo = 0, hi = n;
  while (lo < hi) {
    const long long mid = (lo + hi) / 2;
    if (keys[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* the row r of entry e: i[r] <= e < i[r+1] */
__device__ __forceinline__ int RowOf(const int *i, int m, long long e)
{
  int lo = 0, hi = m;
  while (hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    if (i[mid] <= e) lo = mid;
    else hi = mid;
  }
  return lo;
}

/* ---------------------------------------------------------------- row pointers, compaction, gathers */

__global__ void __launch_bounds__(BLOCK) SumCountsKernel(int n, const int *cnt, Scalars *ds)
{
  typedef cub::BlockReduce<unsigned long long, BLOCK> Reduce;
  __shared__ typename Reduce::TempStorage             rs;
  unsigned long long                                  s = 0;

  GRID_LOOP(k, n)
  {
    const int c = cnt[k];
    if (c < 0) atomicMin(&ds->neg, (int)k);
    else s += (unsigned long long)c;
  }
  s = Reduce(rs).Sum(s);
  if (threadIdx.x == 0 && s) atomicAdd(&ds->sum, s);
}

/* ptr[1..n] holds counts: checked in 64 bits, then scanned in place (ptr[0] = 0) */
static PetscErrorCode RowPtrDevice(Temp *t, PetscInt n, PetscInt *ptr, Scalars *ds, PetscInt *total)
{
  Scalars      h;
  cudaStream_t s = GPUPCCUDAStream();

  PetscFunctionBegin;
  *total = 0;
  if (n <= 0) {
    PetscCall(GPUPCMemzero(ptr, sizeof(PetscInt)));
    PetscFunctionReturn(0);
  }
  PetscCall(ScalarsReset(ds));
  SumCountsKernel<<<Grid(n), BLOCK, 0, s>>>(n, ptr + 1, ds);
  GPUPCCheckLaunch("SumCountsKernel");
  PetscCall(GPUPCCopyToHost(&h, ds, 1));
  PetscCheck(h.neg == INT_MAX, PETSC_COMM_SELF, PETSC_ERR_PLIB, "rowptr: count %d of %" PetscInt_FMT " is negative", h.neg, n);
  PetscCall(GPUPCSparseCheckSize((PetscInt64)h.sum, n, "rowptr"));
  PetscCall(GPUPCMemzero(ptr, sizeof(PetscInt)));
  PetscCall(RunCUB(t, "DeviceScan::InclusiveSum (row pointers)", [&](void *tmp, size_t &bytes) { return cub::DeviceScan::InclusiveSum(tmp, bytes, ptr + 1, ptr + 1, (int)n, s); }));
  *total = (PetscInt)h.sum;
  PetscFunctionReturn(0);
}

static PetscErrorCode RowPtr_CUDA(PetscInt n, PetscInt *ptr, PetscInt *total, size_t *peak)
{
  PetscFunctionBegin;
  PetscCall(Run(peak, [&](Temp *t) -> PetscErrorCode {
    Scalars *ds;
    PetscCall(ScalarsGet(t, &ds));
    PetscCall(RowPtrDevice(t, n, ptr, ds, total));
    return 0;
  }));
  PetscFunctionReturn(0);
}

__global__ void MarkKernel(int n, const int *marks, int value, int *flag)
{
  GRID_LOOP(k, n)
  flag[k] = marks[k] == value;
}

/* rank holds the exclusive scan of the marks: the list, the map (-1 for the unmarked), the count */
__global__ void CompactKernel(int n, const int *marks, int value, int *rank, int *list, int mapout, Scalars *ds)
{
  GRID_LOOP(k, n)
  {
    const int hit = marks[k] == value, r = rank[k];
    if (k == n - 1) ds->count = r + hit;
    if (hit && list) list[r] = (int)k;
    if (!hit && mapout) rank[k] = -1;
  }
}

static PetscErrorCode Compact_CUDA(PetscInt n, const PetscInt *marks, PetscInt value, PetscInt *list, PetscInt *map, PetscInt *count, size_t *peak)
{
  PetscFunctionBegin;
  *count = 0;
  PetscCall(Run(peak, [&](Temp *t) -> PetscErrorCode {
    Scalars           *ds, h;
    PetscInt          *rank = map;
    const cudaStream_t s    = GPUPCCUDAStream();
    if (n <= 0) return 0;
    PetscCall(ScalarsGet(t, &ds));
    if (!map) PetscCall(TempGet(t, n, &rank));
    MarkKernel<<<Grid(n), BLOCK, 0, s>>>(n, marks, value, rank);
    GPUPCCheckLaunch("MarkKernel");
    PetscCall(RunCUB(t, "DeviceScan::ExclusiveSum (compaction)", [&](void *tmp, size_t &bytes) { return cub::DeviceScan::ExclusiveSum(tmp, bytes, rank, rank, (int)n, s); }));
    CompactKernel<<<Grid(n), BLOCK, 0, s>>>(n, marks, value, rank, list, map != NULL, ds);
    GPUPCCheckLaunch("CompactKernel");
    PetscCall(GPUPCCopyToHost(&h, ds, 1));
    *count = h.count;
    return 0;
  }));
  PetscFunctionReturn(0);
}

__global__ void DiagonalKernel(GPUPCDevCSR A, PetscScalar *d)
{
  GRID_LOOP(r, A.m)
  {
    const int b = A.i[r], len = A.i[r + 1] - b;
    long long q = LowerBound(A.j + b, len, (int)r);
    /* a sorted row finds its diagonal by the search; a row in another order (a local part with ghosts) may not, and
       is scanned (unsorted or not, the row holds column r at most once) */
    if (!(q < len && A.j[b + q] == r))
      for (q = 0; q < len && A.j[b + q] != r; q++) {}
    d[r] = q < len ? A.a[b + q] : 0.0;
  }
}

static PetscErrorCode Diagonal_CUDA(const GPUPCDevCSR *A, PetscScalar *d)
{
  PetscFunctionBegin;
  PetscCheck(A->a || !A->nnz, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "diagonal: the matrix is a pattern");
  if (A->m <= 0) PetscFunctionReturn(0);
  DiagonalKernel<<<Grid(A->m), BLOCK, 0, GPUPCCUDAStream()>>>(*A, d);
  GPUPCCheckLaunch("DiagonalKernel");
  PetscFunctionReturn(0);
}

__global__ void NonzeroKernel(GPUPCDevCSR A, int doff, char *keep)
{
  GRID_LOOP(r, A.m)
  {
    for (int e = A.i[r]; e < A.i[r + 1]; e++) keep[e] = (char)(A.a[e] != 0.0 || A.j[e] == (int)r + doff);
  }
}

static PetscErrorCode Nonzero_CUDA(const GPUPCDevCSR *A, PetscInt doff, char *keep)
{
  PetscFunctionBegin;
  PetscCheck(A->a || !A->nnz, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "nonzero: the matrix is a pattern");
  if (A->m <= 0) PetscFunctionReturn(0);
  NonzeroKernel<<<Grid(A->m), BLOCK, 0, GPUPCCUDAStream()>>>(*A, (int)doff, keep);
  GPUPCCheckLaunch("NonzeroKernel");
  PetscFunctionReturn(0);
}

__global__ void CheckKernel(GPUPCDevCSR A, Scalars *ds)
{
  GRID_LOOP(r, A.m)
  {
    const int b = A.i[r], e = A.i[r + 1];
    int       fault = GPUPC_CSR_OK;
    if ((r == 0 && b != 0) || b < 0 || e < b || e > A.nnz || (r == A.m - 1 && e != A.nnz)) fault = GPUPC_CSR_ROWPTR;
    else
      for (int k = b; k < e && fault == GPUPC_CSR_OK; k++) {
        if (A.j[k] < 0 || A.j[k] >= A.n) fault = GPUPC_CSR_COLUMN;
        else if (k > b && A.j[k] <= A.j[k - 1]) fault = GPUPC_CSR_UNSORTED;
      }
    if (fault != GPUPC_CSR_OK) atomicMin(&ds->badkey, 4ULL * (unsigned long long)r + (unsigned long long)fault);
  }
}

static PetscErrorCode Check_CUDA(const GPUPCDevCSR *A, PetscInt *row, PetscInt *fault)
{
  PetscFunctionBegin;
  *row   = -1;
  *fault = GPUPC_CSR_OK;
  PetscCall(Run(NULL, [&](Temp *t) -> PetscErrorCode {
    Scalars *ds, h;
    if (A->m <= 0) return 0;
    PetscCall(ScalarsGet(t, &ds));
    CheckKernel<<<Grid(A->m), BLOCK, 0, GPUPCCUDAStream()>>>(*A, ds);
    GPUPCCheckLaunch("CheckKernel");
    PetscCall(GPUPCCopyToHost(&h, ds, 1));
    if (h.badkey != ULLONG_MAX) {
      *row   = (PetscInt)(h.badkey / 4);
      *fault = (PetscInt)(h.badkey % 4);
    }
    return 0;
  }));
  PetscFunctionReturn(0);
}

__global__ void ExpandKernel(GPUPCDevCSR A, const int *rmap, const int *cmap, int *ci, int *cj)
{
  GRID_LOOP(e, A.nnz)
  {
    if (ci) {
      const int r = RowOf(A.i, A.m, e);
      ci[e]       = rmap ? rmap[r] : r;
    }
    if (cj) cj[e] = cmap ? cmap[A.j[e]] : A.j[e];
  }
}

static PetscErrorCode Expand_CUDA(const GPUPCDevCSR *A, const PetscInt *rmap, const PetscInt *cmap, PetscInt *ci, PetscInt *cj)
{
  PetscFunctionBegin;
  if (A->nnz <= 0 || (!ci && !cj)) PetscFunctionReturn(0);
  ExpandKernel<<<Grid(A->nnz), BLOCK, 0, GPUPCCUDAStream()>>>(*A, rmap, cmap, ci, cj);
  GPUPCCheckLaunch("ExpandKernel");
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- groups of lanes that share a row */

/* the lanes of a group of G (a power of two, 1..32, or a whole block of G > 32 threads) */
__host__ __device__ static constexpr unsigned GroupBits(int G)
{
  return G >= 32 ? 0xffffffffu : ((1u << (G >= 32 ? 0 : G)) - 1u);
}
__host__ __device__ static constexpr int Log2(int x)
{
  return x <= 1 ? 0 : 1 + Log2(x / 2);
}

template <int G>
struct Group {
  int                        lane; /* 0 .. G-1 */
  unsigned                   mask; /* the group's lanes in its warp (G <= 32) */
  __device__ __forceinline__ Group()
      : lane((int)(threadIdx.x % G)), mask(G >= 32 ? 0xffffffffu : GroupBits(G) << (threadIdx.x % 32u / G * G)) {}
  __device__ __forceinline__ void sync() const
  {
    if (G > 32) __syncthreads();
    else if (G > 1) __syncwarp(mask);
  }
};

/* extraction: 8 lanes per row */
#define XG 8

__device__ __forceinline__ bool KeptEntry(const GPUPCDevCSR &A, int e, const char *keep, const int *cmap)
{
  return (!keep || keep[e]) && (!cmap || cmap[A.j[e]] >= 0);
}

__global__ void __launch_bounds__(BLOCK) ExtractCountKernel(GPUPCDevCSR A, int nrows, const int *rows, const char *keep, const int *cmap, int *Bi)
{
  const Group<XG> g;
  const long long q = (long long)blockIdx.x * (BLOCK / XG) + threadIdx.x / XG;
  int             c = 0;

  if (q >= nrows) return;
  {
    const int r = rows ? rows[q] : (int)q;
    for (int e = A.i[r] + g.lane; e < A.i[r + 1]; e += XG) c += KeptEntry(A, e, keep, cmap);
  }
  c = GPUPCGroupSum<int, XG>(c, g.mask);
  if (g.lane == 0) Bi[q + 1] = c;
}

/* the kept entries in order: a ballot per step of 8 entries gives each kept one its place */
__global__ void __launch_bounds__(BLOCK) ExtractFillKernel(GPUPCDevCSR A, int nrows, const int *rows, const char *keep, const int *cmap, GPUPCDevCSR B)
{
  const Group<XG> g;
  const long long q     = (long long)blockIdx.x * (BLOCK / XG) + threadIdx.x / XG;
  const int       shift = (int)(threadIdx.x % 32u / XG * XG);

  if (q >= nrows) return;
  {
    const int r = rows ? rows[q] : (int)q, b = A.i[r], end = A.i[r + 1];
    int       p = B.i[q];
    for (int base = b; base < end; base += XG) {
      const int      e    = base + g.lane;
      const bool     kept = e < end && KeptEntry(A, e, keep, cmap);
      const unsigned bal  = (__ballot_sync(g.mask, kept) & g.mask) >> shift;
      if (kept) {
        const int at = p + __popc(bal & ((1u << g.lane) - 1u));
        B.j[at]      = cmap ? cmap[A.j[e]] : A.j[e];
        if (B.a) B.a[at] = A.a[e];
      }
      p += __popc(bal);
    }
  }
}

static PetscErrorCode ExtractCount_CUDA(const GPUPCDevCSR *A, PetscInt nrows, const PetscInt *rows, const char *keep, const PetscInt *cmap, PetscInt *Bi)
{
  PetscFunctionBegin;
  if (nrows <= 0) PetscFunctionReturn(0);
  ExtractCountKernel<<<(unsigned)(((long long)nrows + BLOCK / XG - 1) / (BLOCK / XG)), BLOCK, 0, GPUPCCUDAStream()>>>(*A, nrows, rows, keep, cmap, Bi);
  GPUPCCheckLaunch("ExtractCountKernel");
  PetscFunctionReturn(0);
}

static PetscErrorCode ExtractFill_CUDA(const GPUPCDevCSR *A, PetscInt nrows, const PetscInt *rows, const char *keep, const PetscInt *cmap, GPUPCDevCSR *B)
{
  PetscFunctionBegin;
  if (nrows <= 0) PetscFunctionReturn(0);
  PetscCheck(!B->a || A->a || !A->nnz, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "extract_fill: B has values but A is a pattern");
  ExtractFillKernel<<<(unsigned)(((long long)nrows + BLOCK / XG - 1) / (BLOCK / XG)), BLOCK, 0, GPUPCCUDAStream()>>>(*A, nrows, rows, keep, cmap, *B);
  GPUPCCheckLaunch("ExtractFillKernel");
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- transpose */

__global__ void IotaKernel(long long n, int *v)
{
  GRID_LOOP(k, n)
  v[k] = (int)k;
}

/* ptr[c] = the sorted keys below c, c = 0 .. n */
__global__ void LowerBoundsKernel(int n, const int *keys, long long nkeys, int *ptr)
{
  GRID_LOOP(c, (long long)n + 1)
  ptr[c] = (int)LowerBound(keys, nkeys, (int)c);
}

__global__ void TransposeFillKernel(GPUPCDevCSR A, const int *order, int *Rj, PetscScalar *Ra)
{
  GRID_LOOP(q, A.nnz)
  {
    const int e = order[q];
    Rj[q]       = RowOf(A.i, A.m, e);
    if (Ra) Ra[q] = A.a[e];
  }
}

static PetscErrorCode Transpose_CUDA(const GPUPCDevCSR *A, GPUPCDevCSR *R, PetscInt *perm, size_t *peak)
{
  PetscFunctionBegin;
  PetscCall(GPUPCSparseCheckTranspose(A, R));
  PetscCall(Run(peak, [&](Temp *t) -> PetscErrorCode {
    const int          nnz = A->nnz;
    const cudaStream_t s   = GPUPCCUDAStream();
    int               *k0, *k1, *v0 = perm, *v1;
    if (nnz == 0) return GPUPCMemzero(R->i, (A->n + 1) * sizeof(PetscInt));
    PetscCall(TempGet(t, nnz, &k0));
    PetscCall(TempGet(t, nnz, &k1));
    PetscCall(TempGet(t, nnz, &v1));
    if (!perm) PetscCall(TempGet(t, nnz, &v0));
    PetscCall(GPUPCCopyOnDevice(k0, A->j, nnz));
    IotaKernel<<<Grid(nnz), BLOCK, 0, s>>>(nnz, v0);
    GPUPCCheckLaunch("IotaKernel");
    cub::DoubleBuffer<int> kb(k0, k1), vb(v0, v1);
    const int              bits = PetscMax(1, BitsFor(A->n));
    PetscCall(RunCUB(t, "DeviceRadixSort::SortPairs (transpose)", [&](void *tmp, size_t &bytes) { return cub::DeviceRadixSort::SortPairs(tmp, bytes, kb, vb, nnz, 0, bits, s); }));
    LowerBoundsKernel<<<Grid((long long)A->n + 1), BLOCK, 0, s>>>(A->n, kb.Current(), nnz, R->i);
    GPUPCCheckLaunch("LowerBoundsKernel");
    TransposeFillKernel<<<Grid(nnz), BLOCK, 0, s>>>(*A, vb.Current(), R->j, R->a);
    GPUPCCheckLaunch("TransposeFillKernel");
    if (perm && vb.Current() != perm) PetscCall(GPUPCCopyOnDevice(perm, vb.Current(), nnz));
    return 0;
  }));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- sort-and-reduce of COO triples */

__global__ void __launch_bounds__(BLOCK) COOKeysKernel(long long nent, const int *ci, const int *cj, int m, int n, int bn, unsigned long long drop, unsigned long long *key, int *idx, Scalars *ds)
{
  typedef cub::BlockReduce<int, BLOCK>    Reduce;
  __shared__ typename Reduce::TempStorage rs;
  int                                     dropped = 0;

  GRID_LOOP(e, nent)
  {
    const int          r = ci[e], c = cj[e];
    unsigned long long k = drop;
    if (r < 0 || c < 0) dropped++;
    else if (r >= m || c >= n) {
      dropped++;
      atomicMin(&ds->bad, (int)e);
    } else k = ((unsigned long long)r << bn) | (unsigned long long)c;
    key[e] = k;
    idx[e] = (int)e;
  }
  dropped = Reduce(rs).Sum(dropped);
  if (threadIdx.x == 0 && dropped) atomicAdd(&ds->count, dropped);
}

/* flag[q] = sorted entry q starts a new (row, column) */
__global__ void SegmentStartKernel(long long nkept, const unsigned long long *key, int *flag)
{
  GRID_LOOP(q, nkept)
  flag[q] = q == 0 || key[q] != key[q - 1];
}

__global__ void MinusOneKernel(long long n, int *v)
{
  GRID_LOOP(q, n)
  v[q] -= 1;
}

/* Ci[r] = the distinct pairs in rows before r: dst of the first sorted entry of row r or later */
__global__ void COORowPtrKernel(int m, int bn, const unsigned long long *key, long long nkept, const int *dst, int nnz, int *Ci)
{
  GRID_LOOP(r, (long long)m + 1)
  {
    const long long q = LowerBound(key, nkept, (unsigned long long)r << bn);
    Ci[r]             = q < nkept ? dst[q] : nnz;
  }
}

static PetscErrorCode COOSort_CUDA(PetscInt m, PetscInt n, PetscInt nent, const PetscInt *ci, const PetscInt *cj, PetscInt *perm, PetscInt *dst, PetscInt *Ci, PetscInt *nkept, PetscInt *nnz, size_t *peak)
{
  PetscFunctionBegin;
  *nkept = *nnz = 0;
  PetscCall(Run(peak, [&](Temp *t) -> PetscErrorCode {
    Scalars            *ds, h;
    unsigned long long *k0, *k1;
    int                *v1;
    const int           bm = BitsFor(m), bn = BitsFor(n);
    const cudaStream_t  s = GPUPCCUDAStream();
    if (nent <= 0) return GPUPCMemzero(Ci, (m + 1) * sizeof(PetscInt));
    PetscCall(ScalarsGet(t, &ds));
    PetscCall(TempGet(t, nent, &k0));
    PetscCall(TempGet(t, nent, &k1));
    PetscCall(TempGet(t, nent, &v1));
    COOKeysKernel<<<Grid(nent), BLOCK, 0, s>>>(nent, ci, cj, m, n, bn, 1ULL << (bm + bn), k0, perm, ds);
    GPUPCCheckLaunch("COOKeysKernel");
    PetscCall(GPUPCCopyToHost(&h, ds, 1));
    if (h.bad != INT_MAX) {
      PetscInt r, c;
      PetscCall(GPUPCCopyToHost(&r, ci + h.bad, 1));
      PetscCall(GPUPCCopyToHost(&c, cj + h.bad, 1));
      PetscCall(GPUPCSparseCheckCOOEntry(h.bad, r, c, m, n));
    }
    const long long                       kept = nent - h.count;
    cub::DoubleBuffer<unsigned long long> kb(k0, k1);
    cub::DoubleBuffer<int>                vb(perm, v1);
    PetscCall(RunCUB(t, "DeviceRadixSort::SortPairs (COO)", [&](void *tmp, size_t &bytes) { return cub::DeviceRadixSort::SortPairs(tmp, bytes, kb, vb, nent, 0, bm + bn + 1, s); }));
    if (vb.Current() != perm) PetscCall(GPUPCCopyOnDevice(perm, vb.Current(), kept));
    if (kept > 0) {
      PetscInt last;
      SegmentStartKernel<<<Grid(kept), BLOCK, 0, s>>>(kept, kb.Current(), dst);
      GPUPCCheckLaunch("SegmentStartKernel");
      PetscCall(RunCUB(t, "DeviceScan::InclusiveSum (COO)", [&](void *tmp, size_t &bytes) { return cub::DeviceScan::InclusiveSum(tmp, bytes, dst, dst, (int)kept, s); }));
      MinusOneKernel<<<Grid(kept), BLOCK, 0, s>>>(kept, dst);
      GPUPCCheckLaunch("MinusOneKernel");
      PetscCall(GPUPCCopyToHost(&last, dst + kept - 1, 1));
      *nnz = last + 1;
    }
    *nkept = (PetscInt)kept;
    COORowPtrKernel<<<Grid((long long)m + 1), BLOCK, 0, s>>>(m, bn, kb.Current(), kept, dst, *nnz, Ci);
    GPUPCCheckLaunch("COORowPtrKernel");
    return 0;
  }));
  PetscFunctionReturn(0);
}

__global__ void COOPatternKernel(long long nkept, const int *perm, const int *dst, const int *cj, int *Cj, int *seg)
{
  GRID_LOOP(q, nkept)
  {
    const int d = dst[q];
    if (q == 0 || d != dst[q - 1]) {
      Cj[d]  = cj[perm[q]];
      seg[d] = (int)q;
    }
    if (q == nkept - 1) seg[d + 1] = (int)nkept;
  }
}

static PetscErrorCode COOPattern_CUDA(PetscInt nkept, const PetscInt *perm, const PetscInt *dst, const PetscInt *cj, PetscInt nnz, PetscInt *Cj, PetscInt *seg)
{
  PetscFunctionBegin;
  if (nkept <= 0) {
    PetscCall(GPUPCMemzero(seg, sizeof(PetscInt)));
    PetscFunctionReturn(0);
  }
  COOPatternKernel<<<Grid(nkept), BLOCK, 0, GPUPCCUDAStream()>>>(nkept, perm, dst, cj, Cj, seg);
  GPUPCCheckLaunch("COOPatternKernel");
  PetscFunctionReturn(0);
}

/* one thread per CSR entry adds its run of sorted entries in order (the host's order) */
__global__ void COOSumKernel(int nnz, const int *seg, const int *perm, const PetscScalar *v, PetscScalar *Ca)
{
  GRID_LOOP(s, nnz)
  {
    const int   q1  = seg[s + 1];
    PetscScalar sum = v[perm[seg[s]]];
    for (int q = seg[s] + 1; q < q1; q++) sum = __dadd_rn(sum, v[perm[q]]);
    Ca[s] = sum;
  }
}

static PetscErrorCode COOSum_CUDA(PetscInt nnz, const PetscInt *seg, const PetscInt *perm, const PetscScalar *v, PetscScalar *Ca)
{
  PetscFunctionBegin;
  if (nnz <= 0) PetscFunctionReturn(0);
  COOSumKernel<<<Grid(nnz), BLOCK, 0, GPUPCCUDAStream()>>>(nnz, seg, perm, v, Ca);
  GPUPCCheckLaunch("COOSumKernel");
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- merge, unique, search */

/* one thread per row: C->i from A's and B's row pointers, then the two sorted runs merged (A's entry first on a tie) */
__global__ void MergeKernel(GPUPCDevCSR A, const int *acol, int aoff, GPUPCDevCSR B, const int *bcol, int boff, GPUPCDevCSR C)
{
  GRID_LOOP(r, (long long)A.m + 1)
  {
    C.i[r] = A.i[r] + B.i[r];
    if (r == A.m) continue;
    int       ka = A.i[r], kb = B.i[r], q = A.i[r] + B.i[r];
    const int ea = A.i[r + 1], eb = B.i[r + 1];
    while (ka < ea || kb < eb) {
      const int ca = ka < ea ? (acol ? acol[A.j[ka]] : A.j[ka]) + aoff : INT_MAX;
      const int cb = kb < eb ? (bcol ? bcol[B.j[kb]] : B.j[kb]) + boff : INT_MAX;
      if (ka < ea && ca <= cb) {
        C.j[q] = ca;
        if (C.a) C.a[q] = A.a[ka];
        ka++;
      } else {
        C.j[q] = cb;
        if (C.a) C.a[q] = B.a[kb];
        kb++;
      }
      q++;
    }
  }
}

static PetscErrorCode Merge_CUDA(const GPUPCDevCSR *A, const PetscInt *acol, PetscInt aoff, const GPUPCDevCSR *B, const PetscInt *bcol, PetscInt boff, GPUPCDevCSR *C)
{
  PetscFunctionBegin;
  PetscCheck(A->m == B->m && A->m == C->m, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "merge: A has %" PetscInt_FMT " rows, B %" PetscInt_FMT ", C %" PetscInt_FMT, A->m, B->m, C->m);
  PetscCheck(!C->a || ((A->a || !A->nnz) && (B->a || !B->nnz)), PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "merge: C has values but A or B is a pattern");
  if (A->m <= 0) {
    PetscCall(GPUPCMemzero(C->i, sizeof(PetscInt)));
    PetscFunctionReturn(0);
  }
  MergeKernel<<<Grid((long long)A->m + 1), BLOCK, 0, GPUPCCUDAStream()>>>(*A, acol, aoff, *B, bcol, boff, *C);
  GPUPCCheckLaunch("MergeKernel");
  PetscFunctionReturn(0);
}

/* flag[q] = sorted key q differs from the one before */
__global__ void KeyStartKernel(long long n, const int *key, int *flag)
{
  GRID_LOOP(q, n)
  flag[q] = q == 0 || key[q] != key[q - 1];
}

/* rank[q] = the inclusive scan of the starts: the place of sorted key q is rank[q] - 1 */
__global__ void UniqueFillKernel(long long n, const int *key, const int *at, const int *rank, int *list, int *map, Scalars *ds)
{
  GRID_LOOP(q, n)
  {
    const int c = rank[q] - 1;
    if (list && (q == 0 || key[q] != key[q - 1])) list[c] = key[q];
    if (map) map[at[q]] = c;
    if (q == n - 1) ds->count = c + 1;
  }
}

static PetscErrorCode Unique_CUDA(PetscInt n, const PetscInt *keys, PetscInt *list, PetscInt *map, PetscInt *count, size_t *peak)
{
  PetscFunctionBegin;
  *count = 0;
  PetscCall(Run(peak, [&](Temp *t) -> PetscErrorCode {
    Scalars           *ds, h;
    int               *k0, *k1, *v0, *v1, *rank;
    const cudaStream_t s = GPUPCCUDAStream();
    if (n <= 0) return 0;
    PetscCall(ScalarsGet(t, &ds));
    PetscCall(TempGet(t, n, &k0));
    PetscCall(TempGet(t, n, &k1));
    PetscCall(TempGet(t, n, &v0));
    PetscCall(TempGet(t, n, &v1));
    PetscCall(GPUPCCopyOnDevice(k0, keys, n)); /* keys are read only here: map may be keys */
    IotaKernel<<<Grid(n), BLOCK, 0, s>>>(n, v0);
    GPUPCCheckLaunch("IotaKernel");
    cub::DoubleBuffer<int> kb(k0, k1), vb(v0, v1);
    PetscCall(RunCUB(t, "DeviceRadixSort::SortPairs (unique)", [&](void *tmp, size_t &bytes) { return cub::DeviceRadixSort::SortPairs(tmp, bytes, kb, vb, (int)n, 0, (int)(8 * sizeof(int)), s); }));
    rank = kb.Alternate(); /* the other key buffer is free now */
    KeyStartKernel<<<Grid(n), BLOCK, 0, s>>>(n, kb.Current(), rank);
    GPUPCCheckLaunch("KeyStartKernel");
    PetscCall(RunCUB(t, "DeviceScan::InclusiveSum (unique)", [&](void *tmp, size_t &bytes) { return cub::DeviceScan::InclusiveSum(tmp, bytes, rank, rank, (int)n, s); }));
    UniqueFillKernel<<<Grid(n), BLOCK, 0, s>>>(n, kb.Current(), vb.Current(), rank, list, map, ds);
    GPUPCCheckLaunch("UniqueFillKernel");
    PetscCall(GPUPCCopyToHost(&h, ds, 1));
    *count = h.count;
    return 0;
  }));
  PetscFunctionReturn(0);
}

/* one thread per key: the lower and upper bounds by binary search */
__global__ void SearchKernel(int nl, const int *list, long long nk, const int *keys, int *pos, int *seg, int *off)
{
  GRID_LOOP(k, nk)
  {
    const int x  = keys[k];
    const int lo = (int)LowerBound(list, (long long)nl, x);
    if (pos) pos[k] = lo;
    if (seg || off) {
      int a = lo, b = nl;
      while (a < b) { /* the first entry > x */
        const int mid = a + (b - a) / 2;
        if (list[mid] <= x) a = mid + 1;
        else b = mid;
      }
      if (seg) seg[k] = a - 1;
      if (off) off[k] = a >= 1 && a < nl ? x - list[a - 1] : -1;
    }
  }
}

static PetscErrorCode Search_CUDA(PetscInt nl, const PetscInt *list, PetscInt nk, const PetscInt *keys, PetscInt *pos, PetscInt *seg, PetscInt *off)
{
  PetscFunctionBegin;
  PetscCheck(nl >= 1 || (!seg && !off), PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "search: ranges need a list of at least one bound");
  if (nk <= 0 || (!pos && !seg && !off)) PetscFunctionReturn(0);
  SearchKernel<<<Grid(nk), BLOCK, 0, GPUPCCUDAStream()>>>(nl, list, nk, keys, pos, seg, off);
  GPUPCCheckLaunch("SearchKernel");
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- SpGEMM: bins */

/* a row whose table holds at most BinCap(b) keys goes to bin b = 1..7 (3/4 of its slots); more: bin 8 */
__host__ __device__ constexpr int BinCap(int b)
{
  return b <= 6 ? 12 << (b - 1) : 1536;
}

__device__ __forceinline__ int BinOf(long long key)
{
  if (key <= 0) return 0;
  for (int b = 1; b <= BIN_BLOCK; b++)
    if (key <= BinCap(b)) return b;
  return BIN_GLOBAL;
}

/* key[r]: what the row's table must hold and what sets its lanes. The count pass: min(products, columns of B). The
   pattern pass (Ci given): C's row length, but at least a quarter of that bound, so that a row of R A P
   with few columns and many products does not get 1-2 lanes and a serial loop of hundreds of dependent loads (binning
   by the whole bound made the short rows of level 0 slower: larger tables, more lanes than work; H200, 2026-11-29).
   Also its bin; the rows numbered for the sort; the bins' sizes; emptyerr: the error of a row with products that Ci
   leaves empty. */
__global__ void __launch_bounds__(BLOCK) BinKeysKernel(GPUPCDevCSR A, GPUPCDevCSR B, const int *Ci, int emptyerr, int *key, unsigned char *bin, int *rows, Scalars *ds)
{
  __shared__ int hist[NBINS];

  if (threadIdx.x < NBINS) hist[threadIdx.x] = 0;
  __syncthreads();
  GRID_LOOP(r, A.m)
  {
    long long ub = 0, k;
    for (int e = A.i[r]; e < A.i[r + 1]; e++) {
      const int c = A.j[e];
      ub += B.i[c + 1] - B.i[c];
    }
    k = ub < B.n ? ub : B.n;
    if (Ci) k /= 4; /* the table holds C's row; a quarter of the products sets a floor to the lanes (see above) */
    if (Ci) {
      const long long len = Ci[r + 1] - Ci[r];
      /* a row that C's pattern leaves empty goes to bin 0, which no pass visits: it must have no product */
      if (len == 0) {
        if (ub > 0) SetError(ds, emptyerr, (int)r);
        k = 0;
      } else if (len > k) k = len;
    }
    const int b = BinOf(k);
    key[r]      = (int)k;
    bin[r]      = (unsigned char)b;
    rows[r]     = (int)r;
    atomicAdd(&hist[b], 1);
  }
  __syncthreads();
  if (threadIdx.x < NBINS && hist[threadIdx.x]) atomicAdd(&ds->bincount[threadIdx.x], hist[threadIdx.x]);
}

typedef struct {
  int      count[NBINS], start[NBINS + 1];
  int     *rows; /* the rows grouped by bin, increasing within a bin */
  int     *key;  /* each row's key, by row */
  char    *slab; /* one allocation: key, the sort's two row and two bin buffers, its temporary storage */
  PetscInt m;
} Bins;

/* bytes rounded up to 256 (the alignment of the arrays carved from one allocation) */
static size_t Aligned(size_t bytes)
{
  return (bytes + 255) / 256 * 256;
}

/* the rows of C = A B binned by their keys (Ci: C's row pointers, or NULL for the count pass; emptyerr: the ERR_* bit of
   a row with products that Ci leaves empty) */
static PetscErrorCode BinRows(Temp *t, const GPUPCDevCSR *A, const GPUPCDevCSR *B, const PetscInt *Ci, int emptyerr, Scalars *ds, Bins *bins)
{
  unsigned char *bin[2];
  int           *buf[2];
  Scalars        h;
  const PetscInt m         = A->m;
  cudaStream_t   s         = GPUPCCUDAStream();
  size_t         sortbytes = 0, ints = Aligned(m * sizeof(int)), chars = Aligned(m);
  cudaError_t    err;

  PetscFunctionBegin;
  bins->m = m;
  PetscCall(ScalarsReset(ds));
  {
    cub::DoubleBuffer<unsigned char> kb(NULL, NULL);
    cub::DoubleBuffer<int>           vb(NULL, NULL);
    err = cub::DeviceRadixSort::SortPairs(NULL, sortbytes, kb, vb, (int)m, 0, 4, s);
    PetscCheck(err == cudaSuccess, PETSC_COMM_SELF, PETSC_ERR_GPU, "CUB DeviceRadixSort::SortPairs (rows by bin, sizing) failed: %s", cudaGetErrorName(err));
  }
  PetscCall(TempGet(t, 3 * ints + 2 * chars + Aligned(sortbytes), &bins->slab));
  bins->key = (int *)bins->slab;
  buf[0]    = (int *)(bins->slab + ints);
  buf[1]    = (int *)(bins->slab + 2 * ints);
  bin[0]    = (unsigned char *)(bins->slab + 3 * ints);
  bin[1]    = (unsigned char *)(bins->slab + 3 * ints + chars);
  BinKeysKernel<<<Grid(m), BLOCK, 0, s>>>(*A, *B, Ci, emptyerr, bins->key, bin[0], buf[0], ds);
  GPUPCCheckLaunch("BinKeysKernel");
  {
    cub::DoubleBuffer<unsigned char> kb(bin[0], bin[1]);
    cub::DoubleBuffer<int>           vb(buf[0], buf[1]);
    err = cub::DeviceRadixSort::SortPairs(bins->slab + 3 * ints + 2 * chars, sortbytes, kb, vb, (int)m, 0, 4, s);
    PetscCheck(err == cudaSuccess, PETSC_COMM_SELF, PETSC_ERR_GPU, "CUB DeviceRadixSort::SortPairs (rows by bin) failed: %s", cudaGetErrorName(err));
    bins->rows = vb.Current();
  }
  PetscCall(GPUPCCopyToHost(&h, ds, 1));
  bins->start[0] = 0;
  for (int b = 0; b < NBINS; b++) {
    bins->count[b]     = h.bincount[b];
    bins->start[b + 1] = bins->start[b] + h.bincount[b];
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode BinsFree(Temp *t, Bins *bins)
{
  PetscFunctionBegin;
  PetscCall(TempPut(t, &bins->slab));
  PetscFunctionReturn(0);
}

/* log2 of the lanes per row of B: B's mean row length rounded up to a power of two, at most 32 */
static int LanesPerBRowLog2(const GPUPCDevCSR *B)
{
  const double mean = B->m > 0 ? (double)B->nnz / (double)B->m : 1.0;
  int          lb   = 0;

  while (lb < 5 && (double)(1 << lb) < mean) lb++;
  return lb;
}

/* ---------------------------------------------------------------- SpGEMM: hash tables and rows */

#define EMPTY (-1)

/* Fibonacci hashing: the top bits of key * 2^32 / golden ratio (spreads the strided columns of stencils) */
__device__ __forceinline__ int HashStart(int key, int bits)
{
  return (int)(((unsigned)key * 2654435769u) >> (32 - bits));
}

/* linear probing: 1 when key was added, 0 when it was there, -1 when the table is full */
__device__ __forceinline__ int HashInsert(int *keys, int bits, int key)
{
  const int mask = (1 << bits) - 1;
  int       s    = HashStart(key, bits);

  for (int probe = 0; probe <= mask; probe++) {
    int cur = *(volatile int *)(keys + s);
    if (cur == key) return 0;
    if (cur == EMPTY) {
      cur = atomicCAS(keys + s, EMPTY, key);
      if (cur == EMPTY) return 1;
      if (cur == key) return 0;
    }
    s = (s + 1) & mask;
  }
  return -1;
}

/* the distinct columns of row `row` of A B, by group g in a table of 2^bits slots: counted into out[row + 1] (out = C's
   row counts), or (FILL) written unsorted into out[Ci[row] ..] (out = C's columns). Lanes: 2^lb per row of B, the
   rest over A's row. */
template <int G, bool FILL>
__device__ __forceinline__ void SymbolicRow(const Group<G> &g, int row, int *keys, int bits, int *counter, const GPUPCDevCSR &A, const GPUPCDevCSR &B, int lb, const int *Ci, int *out, Scalars *ds)
{
  const int mask = (1 << bits) - 1, gb = 1 << lb, ga = G >> lb, sa = g.lane >> lb, l = g.lane & (gb - 1);
  int       mine = 0;

  for (int s = g.lane; s <= mask; s += G) keys[s] = EMPTY;
  if (g.lane == 0) *counter = 0;
  g.sync();
  for (int k = A.i[row] + sa; k < A.i[row + 1]; k += ga) {
    const int c = A.j[k], te = B.i[c + 1];
    for (int t = B.i[c] + l; t < te; t += gb) {
      const int r = HashInsert(keys, bits, B.j[t]);
      if (r > 0) mine++;
      else if (r < 0) SetError(ds, ERR_FULL, row);
    }
  }
  if (!FILL) {
    if (mine) atomicAdd(counter, mine);
    g.sync();
    if (g.lane == 0) out[row + 1] = *counter;
  } else {
    const int start = Ci[row], len = Ci[row + 1] - start;
    g.sync();
    for (int s = g.lane; s <= mask; s += G) {
      const int key = keys[s];
      if (key != EMPTY) {
        const int q = atomicAdd(counter, 1);
        if (q < len) out[start + q] = key;
        else SetError(ds, ERR_PATTERN, row);
      }
    }
    g.sync();
    if (g.lane == 0 && *counter != len) SetError(ds, ERR_PATTERN, row);
  }
}

/* threads of the shared-memory kernels: 128 (groups of 1..32 lanes) or one row per block of G */
#define SHARED_THREADS(G) ((G) > 32 ? (G) : 128)

template <int G, int BITS, bool FILL>
__global__ void __launch_bounds__(SHARED_THREADS(G)) SymbolicSharedKernel(int nrows, const int *rows, GPUPCDevCSR A, GPUPCDevCSR B, int lb, const int *Ci, int *out, Scalars *ds)
{
  constexpr int   R = SHARED_THREADS(G) / G, TS = 1 << BITS;
  __shared__ int  keys[R * TS];
  __shared__ int  counter[R];
  const Group<G>  g;
  const int       gi = (int)(threadIdx.x / G);
  const long long q  = (long long)blockIdx.x * R + gi;

  if (q >= nrows) return; /* the whole group (one row per block when G > 32: never) */
  SymbolicRow<G, FILL>(g, rows[q], keys + gi * TS, BITS, counter + gi, A, B, lb, Ci, out, ds);
}

/* bin 8, count and pattern: a block per row, its table in global memory (off, bits per row of the batch) */
template <bool FILL>
__global__ void __launch_bounds__(BLOCK) SymbolicGlobalKernel(const int *rows, const long long *off, const int *bits, int *table, GPUPCDevCSR A, GPUPCDevCSR B, int lb, const int *Ci, int *out, Scalars *ds)
{
  __shared__ int     counter;
  const Group<BLOCK> g;

  SymbolicRow<BLOCK, FILL>(g, rows[blockIdx.x], table + off[blockIdx.x], bits[blockIdx.x], &counter, A, B, lb, Ci, out, ds);
}

enum {
  PASS_COUNT,
  PASS_FILL
};

/* one bin of rows through the shared-memory kernel of G lanes per row and 2^BITS slots */
template <int G, int BITS>
static PetscErrorCode LaunchShared(int pass, int nrows, const int *rows, const GPUPCDevCSR *A, const GPUPCDevCSR *B, const GPUPCDevCSR *C, int lb, Scalars *ds)
{
  constexpr int      NT = SHARED_THREADS(G), R = NT / G;
  const unsigned     grid = (unsigned)(((long long)nrows + R - 1) / R);
  const int          l    = PetscMin(lb, Log2(G));
  const cudaStream_t s    = GPUPCCUDAStream();

  PetscFunctionBegin;
  if (pass == PASS_COUNT) {
    SymbolicSharedKernel<G, BITS, false><<<grid, NT, 0, s>>>(nrows, rows, *A, *B, l, NULL, C->i, ds);
    GPUPCCheckLaunch("SymbolicSharedKernel (count)");
  } else {
    SymbolicSharedKernel<G, BITS, true><<<grid, NT, 0, s>>>(nrows, rows, *A, *B, l, C->i, C->j, ds);
    GPUPCCheckLaunch("SymbolicSharedKernel (pattern)");
  }
  PetscFunctionReturn(0);
}

/* the launcher of each shared-memory bin: G lanes per row and 2^BITS slots (index: the bin, 1..7) */
typedef PetscErrorCode (*SharedLauncher)(int, int, const int *, const GPUPCDevCSR *, const GPUPCDevCSR *, const GPUPCDevCSR *, int, Scalars *);
static const SharedLauncher shared_launchers[BIN_BLOCK + 1] = {NULL, LaunchShared<1, 4>, LaunchShared<2, 5>, LaunchShared<4, 6>, LaunchShared<8, 7>, LaunchShared<16, 8>, LaunchShared<32, 9>, LaunchShared<BLOCK, 11>};

/* bins 1..7 of a pass (C: its row pointers for the counts (count pass), its row pointers and columns (pattern pass)) */
static PetscErrorCode SharedBins(int pass, const Bins *bins, const GPUPCDevCSR *A, const GPUPCDevCSR *B, const GPUPCDevCSR *C, Scalars *ds)
{
  const int lb = LanesPerBRowLog2(B);

  PetscFunctionBegin;
  for (int b = 1; b <= BIN_BLOCK; b++)
    if (bins->count[b]) PetscCall(shared_launchers[b](pass, bins->count[b], bins->rows + bins->start[b], A, B, C, lb, ds));
  PetscFunctionReturn(0);
}

__global__ void GatherKeysKernel(int n, const int *rows, const int *key, int *out)
{
  GRID_LOOP(q, n)
  out[q] = key[rows[q]];
}

/* slots in the global tables of one batch of bin-8 rows (256 MB of keys; a row that needs more gets a batch alone) */
#define GLOBAL_BATCH_SLOTS (1LL << 26)

/* bin 8 of the count or pattern pass: each row's table of 2^bits >= 4/3 key slots in global memory */
static PetscErrorCode SymbolicGlobal(Temp *t, const Bins *bins, PetscBool fill, const GPUPCDevCSR *A, const GPUPCDevCSR *B, const GPUPCDevCSR *C, Scalars *ds)
{
  const int    n = bins->count[BIN_GLOBAL], *rows = bins->rows + bins->start[BIN_GLOBAL];
  const int    lb = LanesPerBRowLog2(B);
  int         *dkey, *hkey, *hbits, *dbits, *table;
  long long   *hoff, *doff, batch = 0, cur = 0;
  cudaStream_t s = GPUPCCUDAStream();

  PetscFunctionBegin;
  if (!n) PetscFunctionReturn(0);
  PetscCall(TempGet(t, n, &dkey));
  GatherKeysKernel<<<Grid(n), BLOCK, 0, s>>>(n, rows, bins->key, dkey);
  GPUPCCheckLaunch("GatherKeysKernel");
  PetscCall(PetscMalloc3(n, &hkey, n, &hbits, n, &hoff));
  PetscCall(GPUPCCopyToHost(hkey, dkey, n));
  PetscCall(TempPut(t, &dkey));
  for (int q = 0; q < n; q++) { /* offsets within the batch; 0 starts a batch */
    const int bits = BitsFor(((long long)hkey[q] * 4 + 2) / 3);
    if (bits > 30) {
      PetscCall(PetscFree3(hkey, hbits, hoff));
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "spgemm: a row of the product needs a hash table of 2^%d slots; split the product", bits);
    }
    hbits[q] = bits;
    if (cur > 0 && cur + (1LL << bits) > GLOBAL_BATCH_SLOTS) cur = 0;
    hoff[q] = cur;
    cur += 1LL << bits;
    batch = PetscMax(batch, cur);
  }
  PetscCall(TempGet(t, n, &dbits));
  PetscCall(TempGet(t, n, &doff));
  PetscCall(TempGet(t, batch, &table));
  PetscCall(GPUPCCopyToDevice(dbits, hbits, n));
  PetscCall(GPUPCCopyToDevice(doff, hoff, n));
  for (int q0 = 0, q1; q0 < n; q0 = q1) {
    for (q1 = q0 + 1; q1 < n && hoff[q1]; q1++) {}
    if (fill) SymbolicGlobalKernel<true><<<q1 - q0, BLOCK, 0, s>>>(rows + q0, doff + q0, dbits + q0, table, *A, *B, lb, C->i, C->j, ds);
    else SymbolicGlobalKernel<false><<<q1 - q0, BLOCK, 0, s>>>(rows + q0, doff + q0, dbits + q0, table, *A, *B, lb, NULL, C->i, ds);
    GPUPCCheckLaunch("SymbolicGlobalKernel");
  }
  PetscCall(TempPut(t, &table));
  PetscCall(TempPut(t, &doff));
  PetscCall(TempPut(t, &dbits));
  PetscCall(PetscFree3(hkey, hbits, hoff));
  PetscFunctionReturn(0);
}

static PetscErrorCode SpGEMMCount_CUDA(const GPUPCDevCSR *A, const GPUPCDevCSR *B, PetscInt *Ci, PetscInt *nnz, size_t *peak)
{
  PetscFunctionBegin;
  PetscCall(GPUPCSparseCheckProduct(A, B, NULL));
  PetscCall(GPUPCMemzero(Ci, (A->m + 1) * sizeof(PetscInt))); /* rows without products count 0 */
  *nnz = 0;
  PetscCall(Run(peak, [&](Temp *t) -> PetscErrorCode {
    Scalars    *ds;
    Bins        bins;
    GPUPCDevCSR C;
    if (A->m <= 0 || A->nnz <= 0 || B->nnz <= 0) return 0;
    PetscCall(PetscMemzero(&C, sizeof(C)));
    C.m = A->m;
    C.n = B->n;
    C.i = Ci;
    PetscCall(ScalarsGet(t, &ds));
    PetscCall(BinRows(t, A, B, NULL, 0, ds, &bins));
    PetscCall(SharedBins(PASS_COUNT, &bins, A, B, &C, ds));
    PetscCall(SymbolicGlobal(t, &bins, PETSC_FALSE, A, B, &C, ds));
    PetscCall(BinsFree(t, &bins));
    PetscCall(ReadErrors(ds, "spgemm_count"));
    PetscCall(RowPtrDevice(t, A->m, Ci, ds, nnz));
    return 0;
  }));
  PetscFunctionReturn(0);
}

static PetscErrorCode SpGEMMPattern_CUDA(const GPUPCDevCSR *A, const GPUPCDevCSR *B, GPUPCDevCSR *C, size_t *peak)
{
  PetscFunctionBegin;
  PetscCall(GPUPCSparseCheckProduct(A, B, C));
  PetscCall(Run(peak, [&](Temp *t) -> PetscErrorCode {
    Scalars           *ds;
    Bins               bins;
    int               *alt;
    const cudaStream_t s = GPUPCCUDAStream();
    if (A->m <= 0) return 0;
    PetscCall(ScalarsGet(t, &ds));
    PetscCall(BinRows(t, A, B, C->i, ERR_FULL, ds, &bins));
    if (C->nnz > 0) {
      PetscCall(SharedBins(PASS_FILL, &bins, A, B, C, ds));
      PetscCall(SymbolicGlobal(t, &bins, PETSC_TRUE, A, B, C, ds));
    }
    PetscCall(BinsFree(t, &bins));
    PetscCall(ReadErrors(ds, "spgemm_pattern"));
    PetscCall(TempPut(t, &ds));
    if (C->nnz <= 0) return 0;
    /* each row's columns sorted */
    PetscCall(TempGet(t, C->nnz, &alt));
    cub::DoubleBuffer<int> kb(C->j, alt);
    const int              nnz = C->nnz, m = C->m;
    const int             *rb = C->i, *re = C->i + 1;
    PetscCall(RunCUB(t, "DeviceSegmentedSort::SortKeys (rows of the product)", [&](void *tmp, size_t &bytes) { return cub::DeviceSegmentedSort::SortKeys(tmp, bytes, kb, nnz, m, rb, re, s); }));
    if (kb.Current() != C->j) PetscCall(GPUPCCopyOnDevice(C->j, kb.Current(), nnz));
    return 0;
  }));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- SpGEMM: values

   One group of G lanes per row of C (G = 8, 16 or 32 by the mean products per row), no binning. C's row (its sorted
   columns) goes into shared memory with a sum beside each column when it has at most cap columns (cap: a multiple of
   32 per group, from C's mean row length, at most what VAL_SMEM holds); a longer row sums in place in C.a and searches
   C.j. A's row is read G entries at a time (a batch): lane l loads entry l's column, value and row of B; a scan of the
   B rows' lengths over the group numbers the batch's products a_ik b_kj in A's row order (B's row order within an
   entry). The group then takes VAL_UNROLL * G products at a time (a chunk): lane l takes products q0 + l, q0 + G + l,
   .., finds each one's entry by a binary search of the scan (shuffles), loads b_kj (the loads of a chunk in flight at
   once), rounds the product and finds its column's slot by a binary search of C's sorted row.
   deterministic: per G products, the lanes holding the same slot (__match_any_sync) leave their products in shared
   memory and the lowest of them adds them to the slot in lane order, which is A's row order; the G-product steps go in
   order, so each entry of C gets its products in A's row order, each rounded before the add (__dmul_rn, __dadd_rn:
   never fused), as the host table adds them. A product whose column is not in C's row is an error (ERR_OUTSIDE).
   Otherwise each product is added by atomicAdd. */

#define VAL_THREADS 128
#define VAL_SMEM    40960 /* bytes of shared memory of a block: the products of a step, then per group cap sums and columns */
#define VAL_UNROLL  2     /* G-product steps whose loads a chunk issues together */

/* the most columns of a row kept in shared memory by a group of G lanes (a multiple of 32) */
__host__ __device__ constexpr int ValCapMax(int G)
{
  return (VAL_SMEM - VAL_THREADS * (int)sizeof(PetscScalar)) / ((VAL_THREADS / G) * (int)(sizeof(PetscScalar) + sizeof(int))) / 32 * 32;
}

/* the place of col in the sorted cols[0 .. len), -1 when it is not there */
__device__ __forceinline__ int FindColumn(const int *cols, int len, int col)
{
  int lo = 0, n = len;

  while (n > 0) {
    const int half = n >> 1;
    if (cols[lo + half] < col) {
      lo += half + 1;
      n -= half + 1;
    } else n = half;
  }
  return lo < len && cols[lo] == col ? lo : -1;
}

template <int G>
__global__ void __launch_bounds__(VAL_THREADS) NumericKernel(GPUPCDevCSR A, GPUPCDevCSR B, GPUPCDevCSR C, int cap, int det, Scalars *ds)
{
  constexpr int     R = VAL_THREADS / G;
  extern __shared__ __align__(16) char valsmem[];
  PetscScalar                         *stage = (PetscScalar *)valsmem; /* VAL_THREADS products, one a thread */
  const Group<G>                       g;
  const int                            gi = (int)(threadIdx.x / G), wbase = (int)(threadIdx.x & ~31u); /* wbase: lane 0 of the warp */
  PetscScalar                         *svals = stage + VAL_THREADS + gi * cap;
  int                                 *scols = (int *)(stage + VAL_THREADS + R * cap) + gi * cap;
  const long long                      r     = (long long)blockIdx.x * R + gi;

  if (r >= A.m) return; /* the whole group */
  const int    row = (int)r, cb = C.i[row], len = C.i[row + 1] - cb, kb = A.i[row], ke = A.i[row + 1];
  const bool   inshared = len <= cap;
  const int   *cols     = inshared ? scols : C.j + cb;
  PetscScalar *acc      = inshared ? svals : C.a + cb;

  for (int p = g.lane; p < len; p += G) {
    if (inshared) scols[p] = C.j[cb + p];
    acc[p] = 0.0;
  }
  g.sync();
  for (int k0 = kb; k0 < ke; k0 += G) { /* a batch of G entries of A's row */
    const int   e  = k0 + g.lane;
    PetscScalar ea = 0.0;
    int         eb = 0, el = 0;
    if (e < ke) {
      const int c = A.j[e];
      ea          = A.a[e];
      eb          = B.i[c];
      el          = B.i[c + 1] - eb;
    }
    long long incl = el; /* products of entries k0 .. e (64 bits: G rows of B may hold more than 2^31 entries) */
#pragma unroll
    for (int off = 1; off < G; off <<= 1) {
      const long long v = __shfl_up_sync(g.mask, incl, off, G);
      if (g.lane >= off) incl += v;
    }
    const long long excl = incl - el, total = __shfl_sync(g.mask, incl, G - 1, G);

    for (long long q0 = 0; q0 < total; q0 += VAL_UNROLL * G) { /* a chunk */
      int         t[VAL_UNROLL], slot[VAL_UNROLL], col[VAL_UNROLL];
      PetscScalar a[VAL_UNROLL], b[VAL_UNROLL], prod[VAL_UNROLL];
#pragma unroll
      for (int h = 0; h < VAL_UNROLL; h++) { /* product q: entry u = the first lane whose incl exceeds q */
        const long long q = q0 + h * G + g.lane;
        int             u = 0;
#pragma unroll
        for (int step = G / 2; step > 0; step >>= 1) {
          const long long v = __shfl_sync(g.mask, incl, u + step - 1, G);
          if (v <= q) u += step;
        }
        const long long ue = __shfl_sync(g.mask, excl, u, G);
        const int       ub = __shfl_sync(g.mask, eb, u, G);
        a[h]               = __shfl_sync(g.mask, ea, u, G);
        t[h]               = q < total ? ub + (int)(q - ue) : -1;
      }
#pragma unroll
      for (int h = 0; h < VAL_UNROLL; h++) { /* the loads of the chunk, all issued before they are used */
        col[h] = t[h] >= 0 ? B.j[t[h]] : 0;
        b[h]   = t[h] >= 0 ? B.a[t[h]] : 0.0;
      }
#pragma unroll
      for (int h = 0; h < VAL_UNROLL; h++) {
        slot[h] = -1;
        prod[h] = 0.0;
        if (t[h] >= 0) {
          prod[h] = __dmul_rn(a[h], b[h]);
          slot[h] = FindColumn(cols, len, col[h]);
          if (slot[h] < 0) SetError(ds, ERR_OUTSIDE, row);
        }
      }
#pragma unroll
      for (int h = 0; h < VAL_UNROLL; h++) {
        if (q0 + h * G >= total) break; /* the same for the whole group */
        if (det) {                      /* the lanes of a slot: the lowest adds their products in lane (= A's row) order */
          const unsigned peers = __match_any_sync(g.mask, slot[h]);
          stage[threadIdx.x]   = prod[h];
          g.sync();
          if (slot[h] >= 0 && (int)(threadIdx.x & 31u) == __ffs(peers) - 1) {
            PetscScalar sum = acc[slot[h]];
            for (unsigned m = peers; m; m &= m - 1) sum = __dadd_rn(sum, stage[wbase + __ffs(m) - 1]);
            acc[slot[h]] = sum;
          }
          g.sync();
        } else if (slot[h] >= 0) atomicAdd(acc + slot[h], prod[h]);
      }
    }
  }
  g.sync();
  if (inshared)
    for (int p = g.lane; p < len; p += G) C.a[cb + p] = svals[p];
}

/* the values pass of C = A B: G lanes per row by the mean products per row, cap from C's mean row length */
template <int G>
static PetscErrorCode LaunchNumeric(const GPUPCDevCSR *A, const GPUPCDevCSR *B, const GPUPCDevCSR *C, int det, Scalars *ds)
{
  constexpr int      R    = VAL_THREADS / G;
  const long long    mean = C->nnz / C->m; /* C->m = A->m > 0 */
  const int          cap  = (int)PetscMin((long long)ValCapMax(G), PetscMax(64LL, (4 * mean + 31) / 32 * 32));
  const size_t       smem = (size_t)VAL_THREADS * sizeof(PetscScalar) + (size_t)R * cap * (sizeof(PetscScalar) + sizeof(int));
  const unsigned     grid = (unsigned)(((long long)A->m + R - 1) / R);
  const cudaStream_t s    = GPUPCCUDAStream();

  PetscFunctionBegin;
  NumericKernel<G><<<grid, VAL_THREADS, smem, s>>>(*A, *B, *C, cap, det, ds);
  GPUPCCheckLaunch("NumericKernel");
  PetscFunctionReturn(0);
}

static PetscErrorCode SpGEMMValues_CUDA(const GPUPCDevCSR *A, const GPUPCDevCSR *B, GPUPCDevCSR *C, PetscBool deterministic, size_t *peak)
{
  PetscFunctionBegin;
  PetscCall(GPUPCSparseCheckProductValues(A, B, C));
  PetscCall(Run(peak, [&](Temp *t) -> PetscErrorCode {
    Scalars     *ds;
    const int    det  = deterministic ? 1 : 0;
    const double prod = A->m > 0 && B->m > 0 ? (double)A->nnz / (double)A->m * ((double)B->nnz / (double)B->m) : 0.0; /* products per row of C, about */
    PetscInt     lanes;
    if (A->m <= 0) return 0;
    /* GPUPCSparseSetSpGEMMLanes (-gpupc_spgemm_lanes): the group size forced (tuning, the tests' coverage of every size) */
    PetscCall(GPUPCSparseGetSpGEMMLanes(&lanes));
    if (!lanes) lanes = prod <= 16.0 ? 8 : (prod <= 48.0 ? 16 : 32);
    PetscCall(ScalarsGet(t, &ds));
    if (lanes == 8) PetscCall(LaunchNumeric<8>(A, B, C, det, ds));
    else if (lanes == 16) PetscCall(LaunchNumeric<16>(A, B, C, det, ds));
    else PetscCall(LaunchNumeric<32>(A, B, C, det, ds));
    PetscCall(ReadErrors(ds, "spgemm_values"));
    return 0;
  }));
  PetscFunctionReturn(0);
}

/* the table: every member's Stem_CUDA from GPUPC_SPARSE_KERNEL_LIST, by name (gpupc/kerneltable.h) */
__global__ void LocateKernel(long long nk, const int *keys, int lo, int hi, int nl, const int *list, int loff, int init, int *out)
{
  GRID_LOOP(k, nk)
  {
    const int g = keys[k];
    if (g >= lo && g < hi) out[k] = g - lo;
    else {
      const long long q = LowerBound(list, (long long)nl, g);
      if (q < nl && list[q] == g) out[k] = (int)q + loff;
      else if (init) out[k] = -1;
    }
  }
}

static PetscErrorCode Locate_CUDA(PetscInt nk, const PetscInt *keys, PetscInt lo, PetscInt hi, PetscInt nl, const PetscInt *list, PetscInt loff, PetscBool init, PetscInt *out)
{
  PetscFunctionBegin;
  if (nk <= 0) PetscFunctionReturn(0);
  LocateKernel<<<Grid(nk), BLOCK, 0, GPUPCCUDAStream()>>>(nk, keys, (int)lo, (int)hi, (int)nl, list, (int)loff, init ? 1 : 0, out);
  GPUPCCheckLaunch("LocateKernel");
  PetscFunctionReturn(0);
}

GPUPC_KERNEL_TABLE_DEFINE(GPUPCSparseKernels, GPUPCSparseKernelsCUDA, GPUPC_SPARSE_KERNEL_LIST, "cuda", _CUDA);

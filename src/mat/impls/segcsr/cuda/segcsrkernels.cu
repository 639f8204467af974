/*
   CUDA implementation of the segmented-CSR kernels (gpupc/segcsrkernels.h).

   SpMV: a group of L lanes (L = segment length, a power of two <= 32) owns one row and
   walks the row's segments; segment-major storage makes the L lanes of a group read L
   consecutive slots and a warp read 32/L consecutive segments, so loads coalesce. The
   group reduces with warp shuffles of width L and lane 0 writes y. Rows with more than
   GPUPC_SEGCSR_LONG_SEGMENTS segments are skipped by that kernel and done by a second
   launch, one thread block per long row (only when the matrix has such rows).
   Index math is 32-bit: the build refuses matrices with 2^31 or more slots.

   Transpose: one thread per slot, atomicAdd into y (non-deterministic summation order;
   no transposed copy is stored, so it costs no memory but atomics on y).
*/
#include <gpupc/cuda.h>
#include <gpupc/segcsrkernels.h>

#define BLOCK      256
#define LONG_BLOCK 256

template <int L>
__global__ void __launch_bounds__(BLOCK) SegCSRMultKernel(int m, const PetscInt *__restrict__ segptr, const PetscInt *__restrict__ col, const PetscScalar *__restrict__ val, const PetscScalar *__restrict__ x, const PetscScalar *z, PetscScalar *y)
{
  const int      lane = threadIdx.x & (L - 1);
  const int      row  = (int)((blockIdx.x * (unsigned)BLOCK + threadIdx.x) / L);
  const unsigned mask = (L == 32) ? 0xffffffffu : (((1u << L) - 1u) << ((threadIdx.x & 31) & ~(L - 1)));

  if (row >= m) return; /* whole groups leave together: L divides 32 */
  const int g0 = __ldg(segptr + row), g1 = __ldg(segptr + row + 1);
  if (g1 - g0 > GPUPC_SEGCSR_LONG_SEGMENTS) return; /* long row: the block-per-row kernel */
  PetscScalar sum = 0.0;
  int         k   = g0 * L + lane;
  const int   ke  = g1 * L;
#pragma unroll 4
  for (; k < ke; k += L) sum += __ldg(val + k) * __ldg(x + __ldg(col + k));
  if (L > 1) {
#pragma unroll
    for (int off = L / 2; off > 0; off >>= 1) sum += __shfl_down_sync(mask, sum, off, L);
  }
  if (lane == 0) y[row] = z ? z[row] + sum : sum;
}

__global__ void __launch_bounds__(LONG_BLOCK) SegCSRLongRowKernel(int L, const PetscInt *__restrict__ longrows, const PetscInt *__restrict__ segptr, const PetscInt *__restrict__ col, const PetscScalar *__restrict__ val, const PetscScalar *__restrict__ x, const PetscScalar *z, PetscScalar *y)
{
  __shared__ PetscScalar part[LONG_BLOCK / 32];
  const int   row = longrows[blockIdx.x];
  const int   ke  = segptr[row + 1] * L;
  PetscScalar sum = 0.0;

  for (int k = segptr[row] * L + threadIdx.x; k < ke; k += LONG_BLOCK) sum += __ldg(val + k) * __ldg(x + __ldg(col + k));
  for (int off = 16; off > 0; off >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, off);
  if ((threadIdx.x & 31) == 0) part[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x < 32) {
    sum = threadIdx.x < LONG_BLOCK / 32 ? part[threadIdx.x] : 0.0;
    for (int off = 16; off > 0; off >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, off);
    if (threadIdx.x == 0) y[row] = z ? z[row] + sum : sum;
  }
}

template <int L>
static void LaunchMult(const GPUPCSegCSRDev *A, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  const int  rows_per_block = BLOCK / L;
  const int  grid           = (int)((A->m + rows_per_block - 1) / rows_per_block);
  SegCSRMultKernel<L><<<grid, BLOCK, 0, GPUPCCUDAStream()>>>((int)A->m, A->segptr, A->col, A->val, x, z, y);
}

static PetscErrorCode Mult_CUDA(const GPUPCSegCSRDev *A, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  PetscFunctionBegin;
  if (A->m == 0) PetscFunctionReturn(0);
  if (A->n == 0) { /* no columns: y = z or 0, x is not read */
    if (z) PetscCall(GPUPCCopyOnDevice(y, z, A->m));
    else PetscCall(GPUPCMemzero(y, (size_t)A->m * sizeof(PetscScalar)));
    PetscFunctionReturn(0);
  }
  switch (A->L) {
  case 1: LaunchMult<1>(A, x, z, y); break;
  case 2: LaunchMult<2>(A, x, z, y); break;
  case 4: LaunchMult<4>(A, x, z, y); break;
  case 8: LaunchMult<8>(A, x, z, y); break;
  case 16: LaunchMult<16>(A, x, z, y); break;
  case 32: LaunchMult<32>(A, x, z, y); break;
  default: SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "segcsr segment length %d is not 1, 2, 4, 8, 16 or 32", (int)A->L);
  }
  GPUPCCheckLaunch("SegCSRMultKernel");
  if (A->nlong) {
    SegCSRLongRowKernel<<<(int)A->nlong, LONG_BLOCK, 0, GPUPCCUDAStream()>>>((int)A->L, A->longrows, A->segptr, A->col, A->val, x, z, y);
    GPUPCCheckLaunch("SegCSRLongRowKernel");
  }
  PetscFunctionReturn(0);
}

__global__ void SegCSRMultTransposeAddKernel(int nslots, int L, const PetscInt *__restrict__ segrow, const PetscInt *__restrict__ col, const PetscScalar *__restrict__ val, const PetscScalar *__restrict__ x, PetscScalar *y)
{
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < nslots; k += gridDim.x * blockDim.x) {
    const PetscScalar v = val[k];
    if (v != 0.0) atomicAdd(y + col[k], v * x[segrow[k / L]]);
  }
}

static PetscErrorCode MultTransposeAdd_CUDA(const GPUPCSegCSRDev *A, const PetscScalar *x, PetscScalar *y)
{
  const int nslots = (int)(A->nseg * A->L);

  PetscFunctionBegin;
  if (A->m == 0 || A->n == 0) PetscFunctionReturn(0);
  SegCSRMultTransposeAddKernel<<<GPUPCCUDAGridSize(nslots, BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>(nslots, (int)A->L, A->segrow, A->col, A->val, x, y);
  GPUPCCheckLaunch("SegCSRMultTransposeAddKernel");
  PetscFunctionReturn(0);
}

__global__ void SegCSRGetDiagonalKernel(int m, int L, int coloffset, const PetscInt *__restrict__ segptr, const PetscInt *__restrict__ col, const PetscScalar *__restrict__ val, PetscScalar *d)
{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < m; i += gridDim.x * blockDim.x) {
    PetscScalar s = 0.0;
    for (int k = segptr[i] * L; k < segptr[i + 1] * L; k++)
      if (col[k] == i + coloffset) s += val[k];
    d[i] = s;
  }
}

static PetscErrorCode GetDiagonal_CUDA(const GPUPCSegCSRDev *A, PetscInt coloffset, PetscScalar *d)
{
  PetscFunctionBegin;
  if (A->m == 0) PetscFunctionReturn(0);
  SegCSRGetDiagonalKernel<<<GPUPCCUDAGridSize(A->m, BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>((int)A->m, (int)A->L, (int)coloffset, A->segptr, A->col, A->val, d);
  GPUPCCheckLaunch("SegCSRGetDiagonalKernel");
  PetscFunctionReturn(0);
}

const GPUPCSegCSRKernels GPUPCSegCSRKernelsCUDA = {"cuda", Mult_CUDA, MultTransposeAdd_CUDA, GetDiagonal_CUDA};

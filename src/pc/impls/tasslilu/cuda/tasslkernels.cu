/*
   CUDA implementation of the TASSL triangular-solve kernels (gpupc/tasslkernels.h).

   subgraphs: one launch per sub-graph level, one thread block per sub-graph of the level. The block loads
   dinv_k b[bidx_k] of its rows into shared memory (the sub-graph has at most nmax <= 6144 rows: 48 KB), then
   walks its time slots: in a slot each thread takes edges (target t, source s, value v) with a stride of the
   block size and does xs[t] -= v * src, where src is x[s] from global memory in an external slot (written by an
   earlier level's launch) or xs[s] in an internal one; no two edges of a slot share a target, so there is no
   race, and a block barrier separates the slots. Finally x[xidx_k] = xs[k].

   onelaunch: the same body, all sub-graphs in one launch of nsub blocks. Thread 0 of a block takes a ticket
   (atomicAdd on T->ticket, reset to 0 before the launch) and the block solves sub-graph ticket: tickets follow
   the level order, so every sub-graph a block waits on has been taken by a block that is already resident and
   the wait cannot deadlock whatever order the hardware starts blocks in. The block's threads spin on the ready
   flags of its dependencies (volatile loads, ready[d] == epoch), fence, run the body reading external x with
   __ldcg (L2, never a stale L1 line), fence their writes of x, and thread 0 raises ready[g] = epoch.

   levelset: one launch per level set, one thread per row: x[xidx] = dinv b[bidx] - sum v x[col].

   The summation order of every row (slot by slot, the order of its entries) is the host reference's, so the
   results agree with it up to fused multiply-adds.
*/
#include <gpupc/cuda.h>
#include <gpupc/tasslkernels.h>

#define BLOCK GPUPC_TASSL_BLOCK

template <bool ONE>
__device__ __forceinline__ void SubgraphBody(const GPUPCTasslDev &T, PetscInt g, const PetscScalar *__restrict__ b, PetscScalar *x, PetscScalar *xs)
{
  const PetscInt r0 = T.subptr[g], nr = T.subptr[g + 1] - r0, s0 = T.slotptr[g], s1 = T.slotptr[g + 1], se = s0 + T.next[g];

  for (PetscInt k = threadIdx.x; k < nr; k += blockDim.x) xs[k] = T.dinv[r0 + k] * b[T.bidx[r0 + k]];
  __syncthreads();
  for (PetscInt s = s0; s < s1; s++) {
    const PetscInt e0 = T.edgeptr[s], e1 = T.edgeptr[s + 1];
    if (s < se) {
      for (PetscInt e = e0 + threadIdx.x; e < e1; e += blockDim.x) {
        const PetscScalar xv = ONE ? __ldcg(x + T.esrc[e]) : x[T.esrc[e]];
        xs[T.etgt[e]] -= T.eval[e] * xv;
      }
    } else {
      for (PetscInt e = e0 + threadIdx.x; e < e1; e += blockDim.x) xs[T.etgt[e]] -= T.eval[e] * xs[T.esrc[e]];
    }
    __syncthreads();
  }
  for (PetscInt k = threadIdx.x; k < nr; k += blockDim.x) x[T.xidx[r0 + k]] = xs[k];
}

__global__ void SubgraphLevelKernel(const GPUPCTasslDev T, PetscInt g0, const PetscScalar *__restrict__ b, PetscScalar *x)
{
  extern __shared__ PetscScalar xs[];

  SubgraphBody<false>(T, g0 + blockIdx.x, b, x, xs);
}

__global__ void OneLaunchKernel(const GPUPCTasslDev T, int epoch, const PetscScalar *__restrict__ b, PetscScalar *x)
{
  extern __shared__ PetscScalar xs[];
  __shared__ int                ticket;
  PetscInt                      g;

  if (threadIdx.x == 0) ticket = atomicAdd(T.ticket, 1);
  __syncthreads();
  g = ticket;
  for (PetscInt d = T.depptr[g] + threadIdx.x; d < T.depptr[g + 1]; d += blockDim.x) {
    volatile const int *flag = T.ready + T.dep[d];
    while (*flag != epoch) {}
  }
  __threadfence();
  __syncthreads();
  SubgraphBody<true>(T, g, b, x, xs);
  __threadfence(); /* this thread's writes of x are visible before the flag; the barrier in the body ordered the rest */
  __syncthreads();
  if (threadIdx.x == 0) atomicExch(T.ready + g, epoch);
}

__global__ void LevelSetKernel(const GPUPCTasslDev T, PetscInt k0, PetscInt k1, const PetscScalar *__restrict__ b, PetscScalar *x)
{
  const PetscInt k = k0 + (PetscInt)blockIdx.x * blockDim.x + threadIdx.x;

  if (k < k1) {
    PetscScalar s = T.lsdinv[k] * b[T.lsbidx[k]];
    for (PetscInt q = T.lsrp[k]; q < T.lsrp[k + 1]; q++) s -= T.lsval[q] * x[T.lscol[q]];
    x[T.lsxidx[k]] = s;
  }
}

/* a kernel's dynamic shared memory above the default 48 KB (less its static shared memory) must be allowed per kernel
   before the launch, or the launch fails with an invalid argument; the default sub-graph size fills 48 KB exactly */
template <typename K>
static PetscErrorCode AllowSharedMemory(K kernel, size_t shmem)
{
  cudaFuncAttributes attr;

  PetscFunctionBegin;
  GPUPCCallCUDA(cudaFuncGetAttributes(&attr, kernel));
  if (shmem + attr.sharedSizeBytes > 48 * 1024 && (int)shmem > attr.maxDynamicSharedSizeBytes) GPUPCCallCUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shmem));
  PetscFunctionReturn(0);
}

static PetscErrorCode Subgraphs_CUDA(const GPUPCTasslDev *T, const PetscScalar *b, PetscScalar *x)
{
  const size_t shmem = (size_t)PetscMax(T->nmax, 1) * sizeof(PetscScalar);

  PetscFunctionBegin;
  PetscCall(AllowSharedMemory(SubgraphLevelKernel, shmem));
  for (PetscInt p = 0; p < T->nlev; p++) {
    const PetscInt nb = T->hlevptr[p + 1] - T->hlevptr[p];
    if (!nb) continue;
    SubgraphLevelKernel<<<(unsigned)nb, BLOCK, shmem, GPUPCCUDAStream()>>>(*T, T->hlevptr[p], b, x);
    GPUPCCheckLaunch("TASSL SubgraphLevelKernel");
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode OneLaunch_CUDA(const GPUPCTasslDev *T, int epoch, const PetscScalar *b, PetscScalar *x)
{
  const size_t shmem = (size_t)PetscMax(T->nmax, 1) * sizeof(PetscScalar);

  PetscFunctionBegin;
  PetscCheck(epoch > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "one-launch TASSL solve needs an epoch > 0, not %d", epoch);
  if (!T->nsub) PetscFunctionReturn(0);
  PetscCall(AllowSharedMemory(OneLaunchKernel, shmem));
  GPUPCCallCUDA(cudaMemsetAsync(T->ticket, 0, sizeof(int), GPUPCCUDAStream()));
  OneLaunchKernel<<<(unsigned)T->nsub, BLOCK, shmem, GPUPCCUDAStream()>>>(*T, epoch, b, x);
  GPUPCCheckLaunch("TASSL OneLaunchKernel");
  PetscFunctionReturn(0);
}

static PetscErrorCode LevelSet_CUDA(const GPUPCTasslDev *T, const PetscScalar *b, PetscScalar *x)
{
  PetscFunctionBegin;
  for (PetscInt l = 0; l < T->nls; l++) {
    const PetscInt k0 = T->hlsptr[l], k1 = T->hlsptr[l + 1];
    if (k1 == k0) continue;
    LevelSetKernel<<<(unsigned)((k1 - k0 + BLOCK - 1) / BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>(*T, k0, k1, b, x);
    GPUPCCheckLaunch("TASSL LevelSetKernel");
  }
  PetscFunctionReturn(0);
}

/* the table: every member's Stem_CUDA from GPUPC_TASSL_KERNEL_LIST, by name (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_DEFINE(GPUPCTasslKernels, GPUPCTasslKernelsCUDA, GPUPC_TASSL_KERNEL_LIST, "cuda", _CUDA);

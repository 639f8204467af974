/*
   CUDA implementation of the format-build kernels (gpupc/formatkernels.h): one thread per slot, so that the writes of a
   warp are one coalesced run; the columns are read through the read-only cache.

   segcsr: slot s is in segment s / L of row segrow[s / L]; hec: ELL slot t = p * stride + i is entry p of row i, and a
   remainder slot r belongs to row remrow[r] (-1: slab padding, skipped) at entry (r - rembase) / remstep.
*/
#include <gpupc/cuda.h>
#include <gpupc/formatkernels.h>

#define BLOCK 256

__global__ void SegCSRColumnsKernel(int nslots, int L, const PetscInt *__restrict__ segptr, const PetscInt *__restrict__ segrow, const PetscInt *__restrict__ rowptr, const PetscInt *__restrict__ j, PetscInt *__restrict__ col)
{
  for (int s = blockIdx.x * blockDim.x + threadIdx.x; s < nslots; s += gridDim.x * blockDim.x) {
    const int i = segrow[s / L], k0 = rowptr[i], len = rowptr[i + 1] - k0, q = s - segptr[i] * L;

    col[s] = q < len ? __ldg(j + k0 + q) : (len ? __ldg(j + k0 + len - 1) : 0);
  }
}

__global__ void HECEllColumnsKernel(int nslots, int stride, int m, int n, int K, const PetscInt *__restrict__ rowptr, const PetscInt *__restrict__ j, PetscInt *__restrict__ ellcol)
{
  for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < nslots; t += gridDim.x * blockDim.x) {
    const int p = t / stride, i = t - p * stride;
    const int k0 = i < m ? rowptr[i] : 0, len = i < m ? rowptr[i + 1] - k0 : 0;

    ellcol[t] = p < len && len <= K ? __ldg(j + k0 + p) : (i < n ? i : 0);
  }
}

__global__ void HECRemColumnsKernel(int nslots, const PetscInt *__restrict__ remrow, const PetscInt *__restrict__ rembase, const PetscInt *__restrict__ remstep, const PetscInt *__restrict__ rowptr, const PetscInt *__restrict__ j, PetscInt *__restrict__ remcol)
{
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < nslots; r += gridDim.x * blockDim.x) {
    const int i = remrow[r];

    if (i < 0) continue;
    remcol[r] = __ldg(j + rowptr[i] + (r - rembase[i]) / remstep[i]);
  }
}

static PetscErrorCode SegCSRColumns_CUDA(const GPUPCSegCSRDev *A, const PetscInt *j, PetscInt *col)
{
  const PetscInt64 nslots = (PetscInt64)A->nseg * A->L;

  PetscFunctionBegin;
  if (nslots <= 0) PetscFunctionReturn(0);
  SegCSRColumnsKernel<<<GPUPCCUDAGridSize((PetscInt)nslots, BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>((int)nslots, (int)A->L, A->segptr, A->segrow, A->rowptr, j, col);
  GPUPCCheckLaunch("SegCSRColumnsKernel");
  PetscFunctionReturn(0);
}

static PetscErrorCode HECColumns_CUDA(const GPUPCHECDev *A, const PetscInt *j, PetscInt *ellcol, PetscInt *remcol)
{
  const PetscInt64 nell = (PetscInt64)A->K * A->stride;

  PetscFunctionBegin;
  if (nell > 0) {
    HECEllColumnsKernel<<<GPUPCCUDAGridSize((PetscInt)nell, BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>((int)nell, (int)A->stride, (int)A->m, (int)A->n, (int)A->K, A->rowptr, j, ellcol);
    GPUPCCheckLaunch("HECEllColumnsKernel");
  }
  if (A->nremslots > 0) {
    HECRemColumnsKernel<<<GPUPCCUDAGridSize(A->nremslots, BLOCK), BLOCK, 0, GPUPCCUDAStream()>>>((int)A->nremslots, A->remrow, A->rembase, A->remstep, A->rowptr, j, remcol);
    GPUPCCheckLaunch("HECRemColumnsKernel");
  }
  PetscFunctionReturn(0);
}

/* the table: every member's Stem_CUDA from GPUPC_FORMAT_KERNEL_LIST, by name (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_DEFINE(GPUPCFormatKernels, GPUPCFormatKernelsCUDA, GPUPC_FORMAT_KERNEL_LIST, "cuda", _CUDA);

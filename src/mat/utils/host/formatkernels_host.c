/*
   Host reference implementation of the format-build kernels (gpupc/formatkernels.h): row by row.
*/
#include <gpupc/formatkernels.h>

static PetscErrorCode SegCSRColumns_Host(const GPUPCSegCSRDev *A, const PetscInt *j, PetscInt *col)
{
  for (PetscInt i = 0; i < A->m; i++) {
    const PetscInt k0 = A->rowptr[i], len = A->rowptr[i + 1] - k0, pad = len ? j[k0 + len - 1] : 0;
    const PetscInt s0 = A->segptr[i] * A->L, s1 = A->segptr[i + 1] * A->L;

    for (PetscInt s = s0; s < s1; s++) col[s] = s - s0 < len ? j[k0 + s - s0] : pad;
  }
  return 0;
}

static PetscErrorCode HECColumns_Host(const GPUPCHECDev *A, const PetscInt *j, PetscInt *ellcol, PetscInt *remcol)
{
  for (PetscInt i = 0; i < A->stride; i++) {
    const PetscInt k0 = i < A->m ? A->rowptr[i] : 0, len = i < A->m ? A->rowptr[i + 1] - k0 : 0, pad = i < A->n ? i : 0;

    for (PetscInt p = 0; p < A->K; p++) ellcol[(size_t)p * A->stride + i] = p < len && len <= A->K ? j[k0 + p] : pad;
  }
  for (PetscInt i = 0; i < A->m; i++) {
    const PetscInt k0 = A->rowptr[i], len = A->rowptr[i + 1] - k0;

    if (len <= A->K) continue;
    for (PetscInt q = 0; q < len; q++) remcol[(size_t)A->rembase[i] + (size_t)q * A->remstep[i]] = j[k0 + q];
  }
  return 0;
}

/* the table: every member's Stem_Host from GPUPC_FORMAT_KERNEL_LIST, by name (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_DEFINE(GPUPCFormatKernels, GPUPCFormatKernelsHost, GPUPC_FORMAT_KERNEL_LIST, "host", _Host);

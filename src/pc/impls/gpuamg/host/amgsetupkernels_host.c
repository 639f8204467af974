/*
   Host reference of the gpuamg device-setup kernels (gpupc/amgsetupkernels.h): a loop over the rows around the
   per-row code that the CUDA table shares (../amgdevrows.h). On the host backend this table is the device setup.
*/
#include "../amgdevrows.h"

static PetscErrorCode AMGDiagZero_Host(PetscInt n, const PetscScalar *d, PetscInt *row)
{
  *row = -1;
  for (PetscInt r = 0; r < n; r++)
    if (d[r] == 0.0) {
      *row = r;
      break;
    }
  return 0;
}

static PetscErrorCode AMGStrengthCount_Host(const GPUPCDevCSR *A, const PetscScalar *d, PetscReal theta, PetscInt *Si)
{
  for (PetscInt r = 0; r < A->m; r++) Si[r + 1] = GPUPCAMGDevStrongRow(A->i, A->j, A->a, d[r], theta, r, NULL);
  return 0;
}

static PetscErrorCode AMGStrengthFill_Host(const GPUPCDevCSR *A, const PetscScalar *d, PetscReal theta, GPUPCDevCSR *S)
{
  for (PetscInt r = 0; r < A->m; r++) (void)GPUPCAMGDevStrongRow(A->i, A->j, A->a, d[r], theta, r, S->j + S->i[r]);
  return 0;
}

static PetscErrorCode AMGPMISInit_Host(const GPUPCDevCSR *S, const GPUPCDevCSR *ST, PetscInt rstart, PetscReal *w, PetscInt *cf, PetscInt *left)
{
  *left = 0;
  for (PetscInt i = 0; i < S->m; i++) *left += GPUPCAMGDevPMISInit(ST->i, rstart, i, w, cf);
  return 0;
}

static PetscErrorCode AMGPMISSelect_Host(const GPUPCDevCSR *S, const GPUPCDevCSR *ST, const PetscReal *w, const PetscInt *cf, char *mark)
{
  for (PetscInt i = 0; i < S->m; i++) mark[i] = GPUPCAMGDevPMISMax(S->i, S->j, ST->i, ST->j, w, cf, i);
  return 0;
}

static PetscErrorCode AMGPMISDepend_Host(const GPUPCDevCSR *S, const PetscInt *cf, char *mark)
{
  for (PetscInt i = 0; i < S->m; i++) mark[i] = GPUPCAMGDevPMISDepends(S->i, S->j, cf, i);
  return 0;
}

static PetscErrorCode AMGPMISSet_Host(PetscInt n, const char *mark, PetscInt value, PetscInt *cf, PetscInt *left)
{
  *left = 0;
  for (PetscInt i = 0; i < n; i++) {
    if (mark[i]) cf[i] = value;
    if (cf[i] == GPUPC_AMG_U) (*left)++;
  }
  return 0;
}

static PetscErrorCode AMGHMISFirst_Host(const GPUPCDevCSR *S, const GPUPCDevCSR *ST, PetscInt B, PetscInt *lambda, PetscInt *cf)
{
  PetscFunctionBegin;
  PetscCheck(B >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "HMIS subdomains of %" PetscInt_FMT " points: must be at least 1", B);
  for (PetscInt lo = 0; lo < S->m; lo += B) GPUPCAMGDevHMISSubdomain(S->i, S->j, ST->i, ST->j, lo, PetscMin(lo + B, S->m), lambda, cf);
  PetscFunctionReturn(0);
}

static PetscErrorCode AMGHMISInit_Host(const GPUPCDevCSR *S, const GPUPCDevCSR *ST, PetscInt rstart, PetscReal *w, PetscInt *cf, PetscInt *left)
{
  *left = 0;
  for (PetscInt i = 0; i < S->m; i++) *left += GPUPCAMGDevHMISInit(ST->i, rstart, i, w, cf);
  return 0;
}

static PetscErrorCode AMGInterpBound_Host(const GPUPCDevCSR *A, const GPUPCDevCSR *S, const PetscInt *cf, PetscInt type, PetscInt tmax, const GPUPCAMGInterpTuning *tune, PetscInt *Bi)
{
  (void)tune; /* the CUDA table's */
  for (PetscInt i = 0; i < A->m; i++) Bi[i + 1] = GPUPCAMGDevInterpCapacity(GPUPCAMGDevInterpBound(A->i, S->i, S->j, cf, type, i), tmax);
  return 0;
}

static PetscErrorCode AMGInterpRows_Host(const GPUPCDevCSR *A, const PetscScalar *d, const GPUPCDevCSR *S, const PetscInt *cf, PetscInt type, PetscInt tmax, PetscReal tfac, const GPUPCAMGInterpTuning *tune, const PetscInt *Bi, PetscInt *bcols, PetscReal *bvals, PetscInt *bidx, PetscInt *Pi)
{
  (void)tune;
  for (PetscInt i = 0; i < A->m; i++) Pi[i + 1] = GPUPCAMGDevInterpRowStored(A->i, A->j, A->a, d, S->i, S->j, cf, type, tmax, tfac, i, bcols + Bi[i], bvals + Bi[i], bidx + Bi[i]);
  return 0;
}

static PetscErrorCode AMGInterpGather_Host(PetscInt n, const PetscInt *Bi, const PetscInt *bcols, const PetscReal *bvals, const PetscInt *cmap, GPUPCDevCSR *P)
{
  for (PetscInt i = 0; i < n; i++) GPUPCAMGDevGatherRow(P->i[i + 1] - P->i[i], bcols + Bi[i], bvals + Bi[i], cmap, P->j + P->i[i], P->a + P->i[i]);
  return 0;
}

GPUPC_KERNEL_TABLE_DEFINE(GPUPCAMGSetupKernels, GPUPCAMGSetupKernelsHost, GPUPC_AMG_SETUP_KERNEL_LIST, "host", _Host);

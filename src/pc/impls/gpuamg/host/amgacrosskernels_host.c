/*
   Host reference of the gpuamg across-ranks kernels (gpupc/amgacrosskernels.h): loops over the points around the
   per-point code that the CUDA table shares (../amgacrossrows.h). On the host backend this table is the device setup
   across ranks.
*/
#include "../amgacrossrows.h"

static PetscErrorCode AMGAcrossCountOwned_Host(const GPUPCDevCSR *ST, PetscInt n, PetscInt *cnt)
{
  for (PetscInt p = 0; p < ST->m; p++) cnt[p] = GPUPCAMGAcrossOwnedEnd(ST->j, ST->i[p], ST->i[p + 1], n) - ST->i[p];
  return 0;
}

static PetscErrorCode AMGAcrossMeasure_Host(PetscInt nx, PetscInt n, const PetscInt *cnt, const PetscInt *gidx, PetscInt reset, PetscReal *w, PetscInt *cf, PetscInt *left)
{
  *left = 0;
  for (PetscInt p = 0; p < nx; p++) *left += GPUPCAMGAcrossMeasure(n, cnt, gidx, reset, p, w, cf);
  return 0;
}

static PetscErrorCode AMGAcrossBeaten_Host(const GPUPCDevCSR *ST, PetscInt n, const PetscReal *w, const PetscInt *gidx, const PetscInt *cf, PetscInt *beaten)
{
  for (PetscInt p = 0; p < ST->m; p++) beaten[p] = GPUPCAMGAcrossBeaten(ST->i, ST->j, n, w, gidx, cf, p);
  return 0;
}

static PetscErrorCode AMGAcrossSelect_Host(const GPUPCDevCSR *S, const PetscReal *w, const PetscInt *gidx, const PetscInt *cf, const PetscInt *beaten, char *mark)
{
  for (PetscInt i = 0; i < S->m; i++) mark[i] = GPUPCAMGAcrossSelect(S->i, S->j, w, gidx, cf, beaten, i);
  return 0;
}

static PetscErrorCode AMGAcrossGather_Host(PetscInt n, const PetscInt *idx, const PetscInt *src, PetscInt *dst)
{
  for (PetscInt k = 0; k < n; k++) dst[k] = src[idx[k]];
  return 0;
}

static PetscErrorCode AMGAcrossScatter_Host(PetscInt n, const PetscInt *idx, const PetscInt *src, PetscInt *dst)
{
  for (PetscInt k = 0; k < n; k++) dst[idx[k]] = src ? src[k] : k;
  return 0;
}

static PetscErrorCode AMGAcrossFill_Host(PetscInt n, PetscInt value, PetscInt step, PetscInt *dst)
{
  for (PetscInt k = 0; k < n; k++) dst[k] = value + step * k;
  return 0;
}

static PetscErrorCode AMGAcrossPadRowPtr_Host(const GPUPCDevCSR *X, PetscInt m, PetscInt *Pi)
{
  for (PetscInt r = 0; r <= m; r++) Pi[r] = X->i[PetscMin(r, X->m)];
  return 0;
}

static PetscErrorCode AMGAcrossMarkCols_Host(const GPUPCDevCSR *P, PetscInt *flag)
{
  for (PetscInt e = 0; e < P->nnz; e++) flag[P->j[e]] = 1;
  return 0;
}

GPUPC_KERNEL_TABLE_DEFINE(GPUPCAMGAcrossKernels, GPUPCAMGAcrossKernelsHost, GPUPC_AMG_ACROSS_KERNEL_LIST, "host", _Host);

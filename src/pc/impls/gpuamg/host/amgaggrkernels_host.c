/*
   Host reference of the gpuamg aggressive-coarsening and multipass kernels (gpupc/amgaggrkernels.h): a loop over the
   rows around the per-row code that the CUDA table shares (../amgaggressiverows.h). On the host backend this table is
   the device setup's aggressive coarsening and multipass interpolation.
*/
#include "../amgaggressiverows.h"

static PetscErrorCode AMGAggrS2Bound_Host(const GPUPCDevCSR *S, const PetscInt *cf, PetscInt nc, const PetscInt *cpts, PetscInt *Bi)
{
  for (PetscInt q = 0; q < nc; q++) Bi[q + 1] = GPUPCAMGAggrS2Capacity(S->i, S->j, cf, cpts[q]);
  return 0;
}

static PetscErrorCode AMGAggrS2Count_Host(const GPUPCDevCSR *S, const PetscInt *cf, PetscInt nc, const PetscInt *cpts, const PetscInt *Bi, PetscInt *bcand, PetscInt *bidx, PetscInt *S2i)
{
  for (PetscInt q = 0; q < nc; q++) S2i[q + 1] = GPUPCAMGAggrS2Count(S->i, S->j, cf, cpts[q], bcand + Bi[q], bidx + Bi[q]);
  return 0;
}

static PetscErrorCode AMGAggrS2Fill_Host(const GPUPCDevCSR *S, const PetscInt *cf, PetscInt nc, const PetscInt *cpts, const PetscInt *Bi, const PetscInt *bidx, const PetscInt *cidx, GPUPCDevCSR *S2)
{
  for (PetscInt q = 0; q < nc; q++) GPUPCAMGAggrS2Fill(S->i, S->j, cf, cpts[q], bidx + Bi[q], cidx, S2->i[q + 1] - S2->i[q], S2->j + S2->i[q]);
  return 0;
}

static PetscErrorCode AMGAggrS2Apply_Host(const GPUPCDevCSR *S2, const GPUPCDevCSR *S2T, const PetscInt *cf2, const PetscInt *cpts, PetscInt *cf)
{
  for (PetscInt q = 0; q < S2->m; q++)
    if (GPUPCAMGAggrS2Drops(S2->i, S2T->i, cf2[q], q)) cf[cpts[q]] = GPUPC_AMG_F;
  return 0;
}

static PetscErrorCode AMGAggrMPInit_Host(PetscInt n, const PetscInt *cf, const PetscInt *cidx, PetscInt *pass, PetscInt *rs, PetscInt *rl, PetscInt *sc, PetscReal *sv)
{
  for (PetscInt i = 0; i < n; i++) {
    const int c = cf[i] == GPUPC_AMG_C;
    pass[i]     = c ? 0 : -1;
    rs[i]       = c ? cidx[i] : 0;
    rl[i]       = c;
    if (c) {
      sc[cidx[i]] = i;
      sv[cidx[i]] = 1.0;
    }
  }
  return 0;
}

static PetscErrorCode AMGAggrMPRound_Host(const GPUPCDevCSR *S, PetscInt p, PetscInt *pass, PetscInt *count)
{
  *count = 0;
  for (PetscInt i = 0; i < S->m; i++)
    if (GPUPCAMGAggrGetsPass(S->i, S->j, pass, p, i)) {
      pass[i] = p;
      (*count)++;
    }
  return 0;
}

static PetscErrorCode AMGAggrMPEarlier_Host(PetscInt n, const PetscInt *pass, PetscInt p, PetscInt *earlier)
{
  for (PetscInt i = 0; i < n; i++) earlier[i] = pass[i] >= 0 && pass[i] < p ? GPUPC_AMG_C : GPUPC_AMG_F;
  return 0;
}

static PetscErrorCode AMGAggrMPBound_Host(const GPUPCDevCSR *A, const GPUPCDevCSR *S, const PetscInt *pass, PetscInt p, const PetscInt *earlier, const PetscInt *rl, PetscInt tmax, PetscInt *Bi)
{
  for (PetscInt i = 0; i < A->m; i++) Bi[i + 1] = GPUPCAMGDevInterpCapacity(GPUPCAMGAggrMPBoundOf(A->i, S->i, S->j, pass, p, earlier, rl, i), tmax);
  return 0;
}

static PetscErrorCode AMGAggrMPRows_Host(const GPUPCDevCSR *A, const PetscScalar *d, const GPUPCDevCSR *S, const PetscInt *pass, PetscInt p, const PetscInt *earlier, const PetscInt *rs, const PetscInt *rl, const PetscInt *sc, const PetscReal *sv, PetscInt tmax, PetscReal tfac, const PetscInt *Bi, PetscInt *bcols, PetscReal *bvals, PetscInt *bidx, PetscInt *Ci)
{
  for (PetscInt i = 0; i < A->m; i++) Ci[i + 1] = pass[i] == p ? GPUPCAMGAggrMPRowStored(A->i, A->j, A->a, d[i], S->i, S->j, pass, p, earlier, rs, rl, sc, sv, tmax, tfac, i, bcols + Bi[i], bvals + Bi[i], bidx + Bi[i]) : 0;
  return 0;
}

static PetscErrorCode AMGAggrMPAppend_Host(PetscInt n, const PetscInt *pass, PetscInt p, const PetscInt *Bi, const PetscInt *bcols, const PetscReal *bvals, const PetscInt *Ci, PetscInt base, PetscInt *rs, PetscInt *rl, PetscInt *sc, PetscReal *sv)
{
  for (PetscInt i = 0; i < n; i++)
    if (pass[i] == p) GPUPCAMGAggrMPAppendRow(bcols + Bi[i], bvals + Bi[i], Ci[i + 1] - Ci[i], base + Ci[i], (PetscInt)i, rs, rl, sc, sv);
  return 0;
}

GPUPC_KERNEL_TABLE_DEFINE(GPUPCAMGAggrKernels, GPUPCAMGAggrKernelsHost, GPUPC_AMG_AGGR_KERNEL_LIST, "host", _Host);

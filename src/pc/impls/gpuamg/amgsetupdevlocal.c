/*
   Device copies of the host setup's local part with ghosts and of its strength graph (gpupc/amgdevacross.h): the
   references the device setup across ranks is compared with, and the records' frees.
*/
#include <gpupc/amgdevacross.h>

/* a device CSR holding host arrays (values optional) */
static PetscErrorCode CSRUp(PetscInt m, PetscInt n, const PetscInt *i, const PetscInt *j, const PetscReal *a, GPUPCDevCSR *d)
{
  PetscFunctionBegin;
  PetscCall(GPUPCDevCSRCreate(m, n, i[m], (PetscBool)(a != NULL), d));
  PetscCall(GPUPCCopyToDevice(d->i, i, m + 1));
  PetscCall(GPUPCCopyToDevice(d->j, j, i[m]));
  if (a) PetscCall(GPUPCMemcpy(d->a, a, (size_t)i[m] * sizeof(PetscScalar), GPUPC_COPY_HOST_TO_DEVICE));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDevLocalFromHost - a device copy of a local part with ghosts (GPUPCAMGLocalGetGhost())

   Collective on L's PetscSF (it is duplicated)

   Input Parameter:
.  L - the host local part with ghosts (L->gidx and L->sf set; on one rank without ghosts, gidx may be NULL)

   Output Parameter:
.  D - the device part (GPUPCAMGDevLocalFree() frees it)

   Level: developer

.seealso: GPUPCAMGDevLocalGetGhost(), GPUPCAMGLocalGetGhost()
@*/
PetscErrorCode GPUPCAMGDevLocalFromHost(const GPUPCAMGLocal *L, GPUPCAMGDevLocal *D)
{
  PetscInt ne = L->ne ? L->ne : L->n, nx = L->nx ? L->nx : L->n;

  PetscFunctionBegin;
  PetscCheck(sizeof(PetscScalar) == sizeof(PetscReal), PETSC_COMM_SELF, PETSC_ERR_SUP, "GPUPCAMGDevLocalFromHost: real scalars only");
  PetscCall(PetscMemzero(D, sizeof(*D)));
  D->n      = L->n;
  D->ne     = ne;
  D->nx     = nx;
  D->rstart = L->rstart;
  D->N      = L->N;
  PetscCall(CSRUp(ne, nx, L->i, L->j, L->a, &D->X));
  PetscCall(PetscMalloc1(PetscMax(nx, 1), &D->hgidx));
  for (PetscInt p = 0; p < nx; p++) D->hgidx[p] = L->gidx ? L->gidx[p] : L->rstart + p;
  PetscCall(GPUPCMallocArray(PetscMax(nx, 1), &D->gidx));
  PetscCall(GPUPCCopyToDevice(D->gidx, D->hgidx, nx));
  if (L->sf) {
    PetscCall(PetscObjectReference((PetscObject)L->sf));
    D->sf = L->sf;
  }
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDevLocalFree - frees a device local part

   Not Collective

   Input Parameter:
.  D - the part (zeroed on return; a zeroed record is accepted)

   Level: developer

.seealso: GPUPCAMGDevLocalGetGhost()
@*/
PetscErrorCode GPUPCAMGDevLocalFree(GPUPCAMGDevLocal *D)
{
  PetscFunctionBegin;
  PetscCall(GPUPCDevCSRDestroy(&D->X));
  PetscCall(GPUPCFree(D->gidx));
  PetscCall(PetscFree(D->hgidx));
  PetscCall(PetscSFDestroy(&D->sf));
  PetscCall(PetscMemzero(D, sizeof(*D)));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDevStrengthFromHost - a device copy of a host strength graph and its transpose

   Not Collective

   Input Parameter:
.  S - the host graph (GPUPCAMGStrengthClassical(), with its transpose: GPUPCAMGStrengthTranspose())

   Output Parameter:
.  D - S and S^T on the device (GPUPCAMGDevStrengthFree() frees them)

   Level: developer

.seealso: GPUPCAMGDevStrengthAcross()
@*/
PetscErrorCode GPUPCAMGDevStrengthFromHost(const GPUPCAMGStrength *S, GPUPCAMGDevGraph *D)
{
  PetscInt nx = S->nx ? S->nx : S->n;

  PetscFunctionBegin;
  PetscCheck(S->ti, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "GPUPCAMGDevStrengthFromHost: the graph has no transpose; call GPUPCAMGStrengthTranspose() first");
  PetscCall(PetscMemzero(D, sizeof(*D)));
  PetscCall(CSRUp(S->n, nx, S->i, S->j, NULL, &D->S));
  PetscCall(CSRUp(nx, S->n, S->ti, S->tj, NULL, &D->ST));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDevStrengthFree - frees a device strength graph

   Not Collective

   Input Parameter:
.  D - the graph (zeroed on return; a zeroed record is accepted)

   Level: developer

.seealso: GPUPCAMGDevStrengthAcross()
@*/
PetscErrorCode GPUPCAMGDevStrengthFree(GPUPCAMGDevGraph *D)
{
  PetscFunctionBegin;
  PetscCall(GPUPCDevCSRDestroy(&D->S));
  PetscCall(GPUPCDevCSRDestroy(&D->ST));
  PetscCall(PetscMemzero(D, sizeof(*D)));
  PetscFunctionReturn(0);
}

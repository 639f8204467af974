/*
   TEMPORARY (dropped at the merge): the four functions of gpupc/amgdevacross.h that compute on the device
   (GPUPCAMGDevLocalGetGhost, GPUPCAMGDevStrengthAcross, GPUPCAMGDevCoarsenAcross, GPUPCAMGDevInterpolateAcross) by host
   round trips through the host setup's references, so the distributed device driver (amgsetupdevicempi.c) links and
   is tested before the device implementations arrive. Results are the host setup's bit for bit.

   The device records carry no host data, so the host records they were copied from are kept here (one local part and
   one strength graph at a time: the driver works a level at a time) and found again by the device arrays' addresses.
*/
#include <gpupc/amgdevacross.h>

static GPUPCAMGLocal    TmpL;
static GPUPCAMGStrength TmpS;
static const void      *TmpLKey, *TmpSKey; /* D->X.i, G->S.i of the device copies of TmpL, TmpS */
static PetscBool        TmpFinal;
static MPI_Comm         TmpComm; /* the level's communicator (P's) */

static PetscErrorCode TmpFree(void)
{
  PetscFunctionBegin;
  PetscCall(GPUPCAMGStrengthFree(&TmpS));
  PetscCall(GPUPCAMGLocalFree(&TmpL));
  TmpLKey = TmpSKey = NULL;
  PetscFunctionReturn(0);
}

static PetscErrorCode TmpFinalize(void)
{
  PetscFunctionBegin;
  PetscCall(TmpFree());
  TmpFinal = PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCAMGDevLocalGetGhost(const GPUPCDevMPIBlocks *B, GPUPCAMGDevLocal *D)
{
  Mat A;

  PetscFunctionBegin;
  if (!TmpFinal) {
    PetscCall(PetscRegisterFinalize(TmpFinalize));
    TmpFinal = PETSC_TRUE;
  }
  PetscCall(TmpFree());
  TmpComm = B->comm;
  PetscCall(GPUPCDevMPIBlocksToMat(B, &A));
  PetscCall(GPUPCAMGLocalGetGhost(A, 1, &TmpL));
  PetscCall(MatDestroy(&A));
  PetscCall(GPUPCAMGDevLocalFromHost(&TmpL, D));
  TmpLKey = D->X.i;
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCAMGDevStrengthAcross(const GPUPCAMGDevLocal *D, PetscReal theta, GPUPCAMGDevGraph *G)
{
  PetscFunctionBegin;
  PetscCheck(TmpLKey && TmpLKey == (const void *)D->X.i, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "TEMPORARY GPUPCAMGDevStrengthAcross: the local part is not the last one made by GPUPCAMGDevLocalGetGhost");
  PetscCall(GPUPCAMGStrengthFree(&TmpS));
  PetscCall(GPUPCAMGStrengthClassical(&TmpL, theta, 1, &TmpS));
  if (!TmpS.ti) PetscCall(GPUPCAMGStrengthTranspose(&TmpS, 1)); /* GPUPCAMGStrengthClassical makes it */
  PetscCall(GPUPCAMGDevStrengthFromHost(&TmpS, G));
  TmpSKey = G->S.i;
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCAMGDevCoarsenAcross(const GPUPCAMGDevLocal *D, const GPUPCAMGDevGraph *G, PCGPUAMGCoarsenType type, PetscInt *cf)
{
  PetscInt *hcf;

  PetscFunctionBegin;
  PetscCheck(TmpLKey && TmpLKey == (const void *)D->X.i && TmpSKey && TmpSKey == (const void *)G->S.i, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "TEMPORARY GPUPCAMGDevCoarsenAcross: not the last local part and graph made here");
  PetscCall(PetscMalloc1(PetscMax(TmpL.nx, 1), &hcf));
  PetscCall(GPUPCAMGCoarsenAcross(&TmpL, &TmpS, type, 1, hcf));
  PetscCall(GPUPCCopyToDevice(cf, hcf, TmpL.nx));
  PetscCall(PetscFree(hcf));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCAMGDevInterpolateAcross(const GPUPCAMGDevLocal *D, const GPUPCAMGDevGraph *G, const PetscInt *cf, PCGPUAMGInterpType interp, PetscInt tmax, PetscReal tfac, GPUPCDevMPIBlocks *P)
{
  PetscInt      *hcf;
  GPUPCAMGLocalP Pl;
  Mat            Pm;

  PetscFunctionBegin;
  PetscCheck(TmpLKey && TmpLKey == (const void *)D->X.i && TmpSKey && TmpSKey == (const void *)G->S.i, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "TEMPORARY GPUPCAMGDevInterpolateAcross: not the last local part and graph made here");
  PetscCall(PetscMalloc1(PetscMax(TmpL.nx, 1), &hcf));
  PetscCall(GPUPCCopyToHost(hcf, cf, TmpL.nx));
  PetscCall(PetscMemzero(&Pl, sizeof(Pl)));
  PetscCall(GPUPCAMGInterpolateAcross(&TmpL, &TmpS, hcf, interp, tmax, tfac, PC_GPUAMG_TRUNC_RESCALE_SUM, 1, &Pl));
  PetscCall(PetscFree(hcf));
  PetscCall(GPUPCAMGLocalPToMat(TmpComm, &Pl, 1, 1, 1, &Pm));
  PetscCall(GPUPCAMGLocalPFree(&Pl));
  PetscCall(GPUPCDevMPIBlocksFromMat(Pm, P));
  PetscCall(MatDestroy(&Pm));
  PetscFunctionReturn(0);
}

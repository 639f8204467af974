/*
   Distributed CMG on the device: upload of the levels (blocks of -A_k in the level format, gpupc/devmat.h, with their halo
   plan, smoother weights, cluster-sorted lists, level vectors), of the one-rank hierarchy of the
   gathered last level (GPUPCCMGDeviceUpload), of the Dirichlet fold; and free. Double precision.
*/
#include <gpupc/cmgmpi.h>
#include <gpupc/devmpiblocks.h>
#include <gpupc/veckernels.h>

static PetscErrorCode UploadInts(size_t n, const PetscInt *h, PetscInt **d, size_t *bytes)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMalloc(n * sizeof(PetscInt), (void **)d));
  PetscCall(GPUPCMemcpy(*d, h, n * sizeof(PetscInt), GPUPC_COPY_HOST_TO_DEVICE));
  *bytes += n * sizeof(PetscInt);
  PetscFunctionReturn(0);
}

static PetscErrorCode UploadReals(size_t n, const PetscReal *h, void **d, size_t *bytes)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMalloc(n * sizeof(PetscReal), d));
  PetscCall(GPUPCMemcpy(*d, h, n * sizeof(PetscReal), GPUPC_COPY_HOST_TO_DEVICE));
  *bytes += n * sizeof(PetscReal);
  PetscFunctionReturn(0);
}

/* -B of a device block in the level format: its values negated in place (the block is the upload's own copy), the
   format's structure built on the device (GPUPCDevMatCreateFromDeviceCSR) */
static PetscErrorCode NegatedBlock(GPUPCDevCSR *B, GPUPCDevMatFormat format, GPUPCDevMat *blk, size_t *bytes)
{
  const GPUPCVecKernels *vk;

  PetscFunctionBegin;
  PetscCall(GPUPCGetVecKernels(&vk));
  if (B->nnz > 0) PetscCall(vk->scale(B->nnz, -1.0, B->a));
  PetscCall(GPUPCDevMatCreateFromDeviceCSR(B->m, B->n, B->nnz, B->i, B->j, B->a, format, blk));
  *bytes += (*blk)->bytes;
  PetscFunctionReturn(0);
}

/* the blocks of level k on the device: level 0's as the device reduction left them, else the host MPIAIJ's copied up */
static PetscErrorCode LevelBlocks(GPUPCCMGMPI M, PetscInt k, GPUPCDevMPIBlocks *B)
{
  PetscFunctionBegin;
  if (k == 0 && M->l0dev) {
    PetscCall(PetscMemzero(B, sizeof(*B)));
    B->d = M->l0d;
    B->o = M->l0o;
    PetscCall(PetscMemzero(&M->l0d, sizeof(M->l0d)));
    PetscCall(PetscMemzero(&M->l0o, sizeof(M->l0o)));
    M->l0dev = PETSC_FALSE;
  } else PetscCall(GPUPCDevMPIBlocksFromMat(M->levels[k].A, B));
  PetscFunctionReturn(0);
}

static PetscErrorCode UploadFold(GPUPCCMGMPI M)
{
  GPUPCCMGDeviceFold      *F   = &M->fold;
  const GPUPCCMGReduction *red = &M->red;

  PetscFunctionBegin;
  F->prec   = GPUPC_CMG_PRECISION_DOUBLE;
  F->n      = red->n;
  F->nk     = red->nkept;
  F->copies = 1;
  F->n0     = red->nkept;
  F->ground = PETSC_FALSE;
  if (red->map) {
    PetscCall(UploadInts(red->n, red->map, &F->map, &M->bytes));
    PetscCall(UploadReals(red->n + M->nghostdir, red->dinv, (void **)&F->dinv, &M->bytes));
  }
  if (red->erow) {
    const PetscInt ne = red->ncoupling, nt = red->trow[red->n];
    PetscCall(UploadInts(red->n + 1, red->erow, &F->erow, &M->bytes));
    PetscCall(UploadInts(ne, red->ecol, &F->ecol, &M->bytes));
    PetscCall(UploadReals(ne, red->eval, (void **)&F->eval, &M->bytes));
    PetscCall(UploadInts(red->n + 1, red->trow, &F->trow, &M->bytes));
    PetscCall(UploadInts(nt, red->tcol, &F->tcol, &M->bytes));
    PetscCall(UploadReals(nt, red->tval, (void **)&F->tval, &M->bytes));
  }
  PetscFunctionReturn(0);
}

/*
   GPUPCCMGMPIDeviceUpload - the distributed hierarchy to the device

   Collective (halo plans)
*/
PetscErrorCode GPUPCCMGMPIDeviceUpload(Mat A, const GPUPCCMGOptions *opts, GPUPCCMGMPI M)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PC_CMG_Upload, 0, 0, 0, 0));
  PetscCall(PetscCalloc1(M->nlevels, &M->dlev));
  for (PetscInt k = 0; k < M->nlevels; k++) {
    const GPUPCCMGMPILevel *L  = &M->levels[k];
    GPUPCCMGMPIDeviceLevel *DL = &M->dlev[k];
    GPUPCCMGDeviceLevel    *D  = &DL->k;

    D->prec = GPUPC_CMG_PRECISION_DOUBLE;
    D->n    = L->n;
    D->t    = L->t;
    PetscCall(GPUPCMalloc(L->n * sizeof(PetscScalar), &D->b));
    PetscCall(GPUPCMalloc(L->n * sizeof(PetscScalar), &D->x));
    M->bytes += 2 * L->n * sizeof(PetscScalar);
    PetscCall(PetscLogEventBegin(PC_CMGM_UpClusters, 0, 0, 0, 0));
    { /* smoother weights 1 / (2 diag); 0 on an isolated vertex without excess (as on one rank) */
      Vec                d;
      const PetscScalar *da;
      PetscReal         *invd;
      PetscCall(MatCreateVecs(L->A, &d, NULL));
      PetscCall(MatGetDiagonal(L->A, d));
      PetscCall(VecGetArrayRead(d, &da));
      PetscCall(PetscMalloc1(PetscMax(L->n, 1), &invd));
      for (PetscInt i = 0; i < L->n; i++) invd[i] = PetscRealPart(da[i]) > 0.0 ? 1.0 / (2.0 * PetscRealPart(da[i])) : 0.0;
      PetscCall(VecRestoreArrayRead(d, &da));
      PetscCall(VecDestroy(&d));
      PetscCall(UploadReals(L->n, invd, &D->invd, &M->bytes));
      PetscCall(PetscFree(invd));
    }
    PetscCall(GPUPCMalloc(L->n * sizeof(PetscScalar), &D->w));
    PetscCall(GPUPCMalloc(L->n * sizeof(PetscScalar), &D->r));
    M->bytes += 2 * L->n * sizeof(PetscScalar);
    PetscCall(PetscLogEventEnd(PC_CMGM_UpClusters, 0, 0, 0, 0));
    { /* -A_k: diagonal and off-diagonal blocks, halo plan of the off-diagonal columns */
      Mat               Ad, Ao;
      const PetscInt   *garray;
      PetscInt          nghost;
      GPUPCDevMPIBlocks B;
      PetscCall(GPUPCMatMPIAIJGetSeqAIJ(L->A, &Ad, &Ao, &garray));
      PetscCall(MatGetLocalSize(Ao, NULL, &nghost));
      PetscCall(PetscLogEventBegin(PC_CMGM_UpBlocks, 0, 0, 0, 0));
      PetscCall(LevelBlocks(M, k, &B));
      PetscCheck(B.d.m == L->n && B.o.m == L->n && B.o.n == nghost, PETSC_COMM_SELF, PETSC_ERR_PLIB, "CMG (parallel): level %" PetscInt_FMT "'s device blocks (%" PetscInt_FMT " rows, %" PetscInt_FMT " ghosts) do not match its matrix (%" PetscInt_FMT ", %" PetscInt_FMT ")", k, B.d.m, B.o.n, L->n, nghost);
      PetscCall(NegatedBlock(&B.d, M->format, &DL->diag, &M->bytes));
      PetscCall(NegatedBlock(&B.o, M->format, &DL->offd, &M->bytes));
      PetscCall(GPUPCDevMPIBlocksDestroy(&B));
      PetscCall(GPUPCSynchronize());
      PetscCall(PetscLogEventEnd(PC_CMGM_UpBlocks, 0, 0, 0, 0));
      PetscCall(PetscLogEventBegin(PC_CMGM_UpHalo, 0, 0, 0, 0));
      PetscCall(GPUPCHaloCreate(L->A, nghost, garray, &DL->halo));
      PetscCall(PetscLogEventEnd(PC_CMGM_UpHalo, 0, 0, 0, 0));
      D->nnz = DL->diag->nnz + DL->offd->nnz;
    }
    if (k + 1 < M->nlevels) {
      PetscInt *cptr, *cperm;
      PetscCall(PetscLogEventBegin(PC_CMGM_UpClusters, 0, 0, 0, 0));
      D->nc = L->nc;
      PetscCall(PetscMalloc2(L->nc + 1, &cptr, PetscMax(L->n, 1), &cperm));
      PetscCall(GPUPCCMGClusterSort(L->n, L->nc, L->cluster, cptr, cperm));
      PetscCall(GPUPCCMGDeviceUploadLargeClusters(L->nc, cptr, D, &M->bytes));
      PetscCall(UploadInts(L->n, L->cluster, &D->cluster, &M->bytes));
      PetscCall(UploadInts(L->nc + 1, cptr, &D->cptr, &M->bytes));
      PetscCall(UploadInts(L->n, cperm, &D->cperm, &M->bytes));
      PetscCall(PetscFree2(cptr, cperm));
      PetscCall(PetscLogEventEnd(PC_CMGM_UpClusters, 0, 0, 0, 0));
    }
  }
  PetscCall(PetscLogEventBegin(PC_CMGM_UpSeq, 0, 0, 0, 0));
  if (M->gathered) { /* the one-rank hierarchy of the gathered last level, its vectors, host staging of the gather */
    const GPUPCCMGMPILevel *L = &M->levels[M->nlevels - 1];
    PetscMPIInt             nloc;
    PetscCall(GPUPCCMGDeviceUpload(&M->seq, GPUPC_CMG_PRECISION_DOUBLE, GPUPC_CMG_MAT_CSR, opts, &M->seqdev));
    M->bytes += M->seqdev.bytes;
    PetscCall(GPUPCMalloc(L->N * sizeof(PetscScalar), (void **)&M->bfull));
    PetscCall(GPUPCMalloc(L->N * sizeof(PetscScalar), (void **)&M->xfull));
    M->bytes += 2 * L->N * sizeof(PetscScalar);
    PetscCall(PetscMalloc2(PetscMax(L->n, 1), &M->h_part, PetscMax(L->N, 1), &M->h_full));
    PetscCall(PetscMalloc2(M->size, &M->counts, M->size, &M->displs));
    PetscCall(PetscMPIIntCast(L->n, &nloc));
    PetscCallMPI(MPI_Allgather(&nloc, 1, MPI_INT, M->counts, 1, MPI_INT, M->comm));
    M->displs[0] = 0;
    for (PetscMPIInt r = 1; r < M->size; r++) M->displs[r] = M->displs[r - 1] + M->counts[r - 1];
    { /* the gather as a halo whose ghosts are every other rank's rows: direct between the GPUs where it can be */
      PetscInt *others, rstart = M->displs[M->rank];
      PetscCall(PetscMalloc1(PetscMax(L->N - L->n, 1), &others));
      for (PetscInt i = 0; i < rstart; i++) others[i] = i;
      for (PetscInt i = rstart + L->n; i < L->N; i++) others[i - L->n] = i;
      PetscCall(GPUPCHaloCreate(L->A, L->N - L->n, others, &M->gatherhalo));
      PetscCall(PetscFree(others));
      if (!M->gatherhalo->peer) PetscCall(GPUPCHaloDestroy(&M->gatherhalo));
    }
  }
  PetscCall(UploadFold(M));
  if (M->gcoupling > 0 && M->offrank_coupling) { /* b at the off-rank Dirichlet columns of E */
    PetscCall(GPUPCHaloCreate(A, M->nghostdir, M->ghostdir, &M->dirhalo));
    PetscCall(GPUPCMalloc((M->red.n + M->nghostdir) * sizeof(PetscScalar), (void **)&M->bext));
    M->bytes += (M->red.n + M->nghostdir) * sizeof(PetscScalar);
  }
  PetscCall(GPUPCSynchronize());
  PetscCall(PetscLogEventEnd(PC_CMGM_UpSeq, 0, 0, 0, 0));
  PetscCall(PetscLogEventEnd(PC_CMG_Upload, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCCMGMPIDeviceFree(GPUPCCMGMPI M)
{
  GPUPCCMGDeviceFold *F = &M->fold;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < M->nlevels && M->dlev; k++) {
    GPUPCCMGMPIDeviceLevel *DL = &M->dlev[k];
    GPUPCCMGDeviceLevel    *D  = &DL->k;
    PetscCall(GPUPCFree(D->b));
    PetscCall(GPUPCFree(D->x));
    PetscCall(GPUPCFree(D->w));
    PetscCall(GPUPCFree(D->r));
    PetscCall(GPUPCFree(D->invd));
    PetscCall(GPUPCFree(D->cluster));
    PetscCall(GPUPCFree(D->cptr));
    PetscCall(GPUPCFree(D->cperm));
    PetscCall(GPUPCFree(D->longclusters));
    PetscCall(GPUPCFree(D->clusterchunk));
    PetscCall(GPUPCFree(D->lcacc));
    PetscCall(GPUPCFree(D->lccount));
    PetscCall(GPUPCDevMatDestroy(&DL->diag));
    PetscCall(GPUPCDevMatDestroy(&DL->offd));
    if (DL->halo) PetscCall(GPUPCHaloDestroy(&DL->halo));
  }
  PetscCall(PetscFree(M->dlev));
  PetscCall(GPUPCDevCSRDestroy(&M->l0d));
  PetscCall(GPUPCDevCSRDestroy(&M->l0o));
  M->l0dev = PETSC_FALSE;
  PetscCall(GPUPCGraphDestroy(&M->graph));
  if (M->gatherhalo) PetscCall(GPUPCHaloDestroy(&M->gatherhalo));
  PetscCall(GPUPCCMGDeviceFree(&M->seqdev));
  PetscCall(GPUPCFree(M->bfull));
  PetscCall(GPUPCFree(M->xfull));
  M->bfull = M->xfull = NULL;
  PetscCall(GPUPCFree(F->map));
  PetscCall(GPUPCFree(F->dinv));
  PetscCall(GPUPCFree(F->erow));
  PetscCall(GPUPCFree(F->ecol));
  PetscCall(GPUPCFree(F->eval));
  PetscCall(GPUPCFree(F->trow));
  PetscCall(GPUPCFree(F->tcol));
  PetscCall(GPUPCFree(F->tval));
  PetscCall(PetscMemzero(F, sizeof(*F)));
  if (M->dirhalo) PetscCall(GPUPCHaloDestroy(&M->dirhalo));
  PetscCall(GPUPCFree(M->bext));
  M->bext = NULL;
  PetscCall(PetscFree2(M->h_part, M->h_full));
  PetscCall(PetscFree2(M->counts, M->displs));
  M->bytes = 0;
  PetscFunctionReturn(0);
}

/*
   Distributed CMG: the Galerkin product A_c = R A R^T of one level without MatPtAP (docs/algorithms.md 2.4).
   Clusters never cross ranks, so P = R^T is block diagonal by rank and the coarse rows of a rank are sums of its own
   fine rows only:
     - the ghost columns' clusters come from their owners once per level (PetscSF over the MPIAIJ garray): the global
       coarse column of a ghost j is cstart(owner) + c(j); their sorted distinct values are the coarse garray;
     - diagonal block: the one-rank Galerkin triples (gpupc/cmgsetupkernels.h galerkin_triples: (C, C, 0) for each
       cluster, (c(i), c(j), a_ij) for every entry between two clusters) summed by the shared sort-and-reduce
       (GPUPCDevCOOAssemble);
     - off-diagonal block: (c(i), the coarse garray position of j, a_ij) for every entry (the expand member of
       gpupc/sparsekernels.h), summed by a second sort-and-reduce;
     - the diagonal is reset to the row's off-diagonal weight (both blocks) plus the cluster sum of e, as before;
     - the coarse MPIAIJ is made from the two blocks directly (MatCreateMPIAIJWithSplitArrays; the arrays belong to
       the matrix through a composed container).
   The sorts are kept (GPUPCCMGMPISort): new values on the same pattern rerun only the sums (GPUPCCMGMPIGalerkinValues).
   Both kernel tables run it: on the host backend the host table with host arrays.
*/
#include <gpupc/cmgmpi.h>
#include <gpupc/cmgsetupkernels.h>

/* the arrays of a coarse level's MPIAIJ blocks, owned by the matrix (a composed container frees them) */
typedef struct {
  PetscInt    *di, *dj, *oi, *oj;
  PetscScalar *da, *oa;
} SplitArrays;

static PetscErrorCode SplitArraysDestroy(void *ctx)
{
  SplitArrays *s = (SplitArrays *)ctx;

  PetscFunctionBegin;
  PetscCall(PetscFree3(s->di, s->dj, s->da));
  PetscCall(PetscFree3(s->oi, s->oj, s->oa));
  PetscCall(PetscFree(s));
  PetscFunctionReturn(0);
}

/*
   GPUPCCMGMPISortFree - frees what a level keeps for a value-only Galerkin product
*/
PetscErrorCode GPUPCCMGMPISortFree(GPUPCCMGMPISort **Sp)
{
  GPUPCCMGMPISort *S = *Sp;

  PetscFunctionBegin;
  if (!S) PetscFunctionReturn(0);
  PetscCall(GPUPCDevCSRDestroy(&S->Ad));
  PetscCall(GPUPCFree(S->cluster));
  PetscCall(GPUPCDevCOODestroy(&S->dcoo));
  PetscCall(GPUPCDevCOODestroy(&S->ocoo));
  PetscCall(GPUPCDevCSRDestroy(&S->Cd));
  PetscCall(GPUPCDevCSRDestroy(&S->Co));
  PetscCall(PetscFree(S));
  *Sp = NULL;
  PetscFunctionReturn(0);
}

/* the values of a SEQAIJ block into a device array of its entries */
static PetscErrorCode BlockValuesUp(Mat B, PetscInt nnz, PetscScalar *d)
{
  GPUPCCSR c;

  PetscFunctionBegin;
  PetscCall(GPUPCMatGetCSR(B, &c));
  PetscCheck(c.nnz == nnz, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "CMG (parallel): a level block has %" PetscInt_FMT " entries, its kept Galerkin sort %" PetscInt_FMT, c.nnz, nnz);
  PetscCall(GPUPCCopyToDevice(d, c.a, nnz));
  PetscCall(GPUPCMatRestoreCSR(&c));
  PetscFunctionReturn(0);
}

/* the two sums of the kept sorts with the fine level's current values: S->Cd, S->Co (device); the values from F's
   device blocks Fd, Fo when given (equal to F->A's), else from F->A's host blocks */
static PetscErrorCode SortedSums(const GPUPCCMGMPILevel *F, const GPUPCDevCSR *Fd, const GPUPCDevCSR *Fo, MatReuse reuse, PetscInt *ci, PetscInt *cj, const PetscInt *oci, const PetscInt *ocj, PetscInt ncg, GPUPCCMGMPISort *S)
{
  const GPUPCCMGSetupKernels *k;
  Mat                         Ad, Ao;
  PetscReal                  *v;
  PetscScalar                *ov;
  const PetscInt              nent = F->nc + S->Ad.nnz;

  PetscFunctionBegin;
  PetscCall(GPUPCGetCMGSetupKernels(&k));
  PetscCall(GPUPCMatMPIAIJGetSeqAIJ(F->A, &Ad, &Ao, NULL));
  PetscCheck(!Fd || (Fd->nnz == S->Ad.nnz && Fo->nnz == S->onnz), PETSC_COMM_SELF, PETSC_ERR_PLIB, "CMG (parallel): the level's device blocks do not match its kept Galerkin sort");
  if (reuse == MAT_REUSE_MATRIX && Fd) PetscCall(GPUPCCopyOnDevice(S->Ad.a, Fd->a, S->Ad.nnz));
  else if (reuse == MAT_REUSE_MATRIX) PetscCall(BlockValuesUp(Ad, S->Ad.nnz, S->Ad.a));
  PetscCall(GPUPCMallocArray(nent, &v));
  PetscCall(k->galerkin_triples(&S->Ad, S->cluster, F->nc, ci, cj, v));
  PetscCall(GPUPCDevCOOAssemble(F->nc, F->nc, nent, ci, cj, v, reuse, &S->dcoo, &S->Cd));
  PetscCall(GPUPCFree(v));
  PetscCall(GPUPCMallocArray(S->onnz, &ov));
  if (Fo) PetscCall(GPUPCCopyOnDevice(ov, Fo->a, S->onnz));
  else PetscCall(BlockValuesUp(Ao, S->onnz, ov));
  PetscCall(GPUPCDevCOOAssemble(F->nc, ncg, S->onnz, oci, ocj, ov, reuse, &S->ocoo, &S->Co));
  PetscCall(GPUPCFree(ov));
  PetscFunctionReturn(0);
}

/* the values of the device blocks Cd, Co down into the host arrays; with e, each diagonal = the row's off-diagonal
   weight + e */
static PetscErrorCode ValuesDown(const GPUPCDevCSR *Cd, const GPUPCDevCSR *Co, const PetscReal *e, const PetscInt *di, const PetscInt *dj, PetscScalar *da, const PetscInt *oi, PetscScalar *oa)
{
  PetscFunctionBegin;
  PetscCall(GPUPCCopyToHost(da, Cd->a, Cd->nnz));
  PetscCall(GPUPCCopyToHost(oa, Co->a, Co->nnz));
  for (PetscInt r = 0; r < Cd->m && e; r++) {
    PetscReal s  = 0.0;
    PetscInt  at = -1;
    for (PetscInt q = di[r]; q < di[r + 1]; q++) {
      if (dj[q] == r) at = q;
      else s += PetscAbsScalar(da[q]);
    }
    for (PetscInt q = oi[r]; q < oi[r + 1]; q++) s += PetscAbsScalar(oa[q]);
    PetscCheck(at >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "CMG (parallel): coarse row %" PetscInt_FMT " has no diagonal entry", r);
    da[at] = s + e[r];
  }
  PetscFunctionReturn(0);
}

/*
   GPUPCCMGMPIMatFromBlocks - an MPIAIJ matrix of N global rows from this rank's blocks on the device: Cd (its rows and
   local columns), Co (columns cg[c] in global numbering, cg ascending); with e, each diagonal is reset to the row's
   off-diagonal weight + e. The host arrays belong to the matrix (a composed container frees them).

   Collective
*/
PetscErrorCode GPUPCCMGMPIMatFromBlocks(MPI_Comm comm, PetscInt N, const GPUPCDevCSR *Cd, const GPUPCDevCSR *Co, const PetscInt *cg, const PetscReal *e, Mat *A)
{
  SplitArrays   *s;
  PetscContainer container;
  const PetscInt m = Cd->m;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PC_CMGM_FromBlocks, 0, 0, 0, 0));
  PetscCall(PetscNew(&s));
  PetscCall(PetscMalloc3(m + 1, &s->di, Cd->nnz, &s->dj, Cd->nnz, &s->da));
  PetscCall(PetscMalloc3(m + 1, &s->oi, Co->nnz, &s->oj, Co->nnz, &s->oa));
  PetscCall(GPUPCCopyToHost(s->di, Cd->i, m + 1));
  PetscCall(GPUPCCopyToHost(s->dj, Cd->j, Cd->nnz));
  PetscCall(GPUPCCopyToHost(s->oi, Co->i, m + 1));
  PetscCall(GPUPCCopyToHost(s->oj, Co->j, Co->nnz));
  PetscCall(ValuesDown(Cd, Co, e, s->di, s->dj, s->da, s->oi, s->oa));
  for (PetscInt q = 0; q < Co->nnz; q++) s->oj[q] = cg[s->oj[q]]; /* global columns, still ascending in each row */
  PetscCall(MatCreateMPIAIJWithSplitArrays(comm, m, m, N, N, s->di, s->dj, s->da, s->oi, s->oj, s->oa, A));
  PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &container));
  PetscCall(PetscContainerSetPointer(container, s));
  PetscCall(PetscContainerSetUserDestroy(container, SplitArraysDestroy));
  PetscCall(PetscObjectCompose((PetscObject)*A, "GPUPCCMGMPIArrays", (PetscObject)container));
  PetscCall(PetscContainerDestroy(&container));
  PetscCall(PetscLogEventEnd(PC_CMGM_FromBlocks, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* the global coarse columns of the fine ghost columns (their owners' cluster numbers plus the owners' first cluster):
   *ncg distinct ones in cg (ascending, PetscMalloc'd), gcol[g] = the position of ghost g's among them */
static PetscErrorCode GhostClusters(const GPUPCCMGMPILevel *F, PetscInt cstart, PetscInt nghost, const PetscInt *garray, PetscInt *gcol, PetscInt *ncg, PetscInt **cg)
{
  PetscLayout rmap;
  PetscSF     sf;
  PetscInt   *root, *leaf;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(F->n, &root, nghost, &leaf));
  for (PetscInt v = 0; v < F->n; v++) root[v] = cstart + F->cluster[v];
  PetscCall(MatGetLayouts(F->A, &rmap, NULL));
  PetscCall(PetscSFCreate(PetscObjectComm((PetscObject)F->A), &sf));
  PetscCall(PetscSFSetGraphLayout(sf, rmap, nghost, NULL, PETSC_COPY_VALUES, garray));
  PetscCall(PetscSFBcastBegin(sf, MPIU_INT, root, leaf, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(sf, MPIU_INT, root, leaf, MPI_REPLACE));
  PetscCall(PetscSFDestroy(&sf));
  PetscCall(PetscMalloc1(nghost, cg));
  PetscCall(PetscArraycpy(*cg, leaf, nghost));
  *ncg = nghost;
  PetscCall(PetscSortRemoveDupsInt(ncg, *cg));
  for (PetscInt g = 0; g < nghost; g++) {
    PetscInt at;
    PetscCall(PetscFindInt(leaf[g], *ncg, *cg, &at));
    gcol[g] = at;
  }
  PetscCall(PetscFree2(root, leaf));
  PetscFunctionReturn(0);
}

/*
   GPUPCCMGMPIGalerkin - the next level C = R F R^T of a clustered level F by the two sort-and-reduce sums (the file's
   comment); F->sort keeps the sorts for GPUPCCMGMPIGalerkinValues

   Collective

   Input Parameters:
+  F        - the clustered level
-  Fd, Fo   - F's diagonal and off-diagonal blocks on the device, equal to F->A's (level 0 of the device reduction),
              or NULL: F->A's host blocks are copied up
*/
PetscErrorCode GPUPCCMGMPIGalerkin(MPI_Comm comm, GPUPCCMGMPILevel *F, const GPUPCDevCSR *Fd, const GPUPCDevCSR *Fo, GPUPCCMGMPILevel *C)
{
  GPUPCCMGMPISort          *S;
  const GPUPCSparseKernels *sk;
  Mat                       Ad, Ao;
  const PetscInt           *garray;
  GPUPCCSR                  cd, co;
  GPUPCDevCSR               dAo;
  PetscInt                  cstart, scan, nghost, ncg, *cg, *gcol, *dgcol, *ci, *cj, *oci, *ocj;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PC_CMG_Galerkin, 0, 0, 0, 0));
  PetscCall(GPUPCGetSparseKernels(&sk));
  PetscCall(GPUPCCMGMPISortFree(&F->sort));
  PetscCall(PetscLogEventBegin(PC_CMGM_GalSums, 0, 0, 0, 0));
  PetscCall(PetscNew(&S));
  F->sort = S;
  PetscCallMPI(MPI_Scan(&F->nc, &scan, 1, MPIU_INT, MPI_SUM, comm));
  cstart = scan - F->nc;
  PetscCall(GPUPCMatMPIAIJGetSeqAIJ(F->A, &Ad, &Ao, &garray));
  PetscCall(MatGetLocalSize(Ao, NULL, &nghost));
  PetscCall(PetscMalloc1(nghost, &gcol));
  PetscCall(GhostClusters(F, cstart, nghost, garray, gcol, &ncg, &cg));
  /* up: the diagonal block, the clusters, the off-diagonal block's pattern and the ghosts' coarse columns */
  PetscCall(GPUPCMatGetCSR(Ad, &cd));
  PetscCall(GPUPCMatGetCSR(Ao, &co));
  PetscCheck(!Fd || (Fd->m == cd.m && Fd->nnz == cd.nnz && Fo->m == co.m && Fo->nnz == co.nnz && Fo->n == nghost), PETSC_COMM_SELF, PETSC_ERR_PLIB, "CMG (parallel): the level's device blocks do not match its matrix");
  PetscCall(GPUPCDevCSRCreate(cd.m, cd.n, cd.nnz, PETSC_TRUE, &S->Ad));
  PetscCall(GPUPCDevCSRCreate(co.m, nghost, co.nnz, PETSC_FALSE, &dAo));
  if (Fd) { /* on the device already */
    PetscCall(GPUPCCopyOnDevice(S->Ad.i, Fd->i, cd.m + 1));
    PetscCall(GPUPCCopyOnDevice(S->Ad.j, Fd->j, cd.nnz));
    PetscCall(GPUPCCopyOnDevice(S->Ad.a, Fd->a, cd.nnz));
    PetscCall(GPUPCCopyOnDevice(dAo.i, Fo->i, co.m + 1));
    PetscCall(GPUPCCopyOnDevice(dAo.j, Fo->j, co.nnz));
  } else {
    PetscCall(GPUPCCopyToDevice(S->Ad.i, cd.i, cd.m + 1));
    PetscCall(GPUPCCopyToDevice(S->Ad.j, cd.j, cd.nnz));
    PetscCall(GPUPCCopyToDevice(S->Ad.a, cd.a, cd.nnz));
    PetscCall(GPUPCCopyToDevice(dAo.i, co.i, co.m + 1));
    PetscCall(GPUPCCopyToDevice(dAo.j, co.j, co.nnz));
  }
  S->onnz   = co.nnz;
  S->nghost = nghost;
  PetscCall(GPUPCMatRestoreCSR(&co));
  PetscCall(GPUPCMatRestoreCSR(&cd));
  PetscCall(GPUPCMallocArray(F->n, &S->cluster));
  PetscCall(GPUPCCopyToDevice(S->cluster, F->cluster, F->n));
  PetscCall(GPUPCMallocArray(nghost, &dgcol));
  PetscCall(GPUPCCopyToDevice(dgcol, gcol, nghost));
  PetscCall(PetscFree(gcol));
  /* the triples' indices (the values are made by SortedSums) and the two sorts */
  PetscCall(GPUPCMallocArray(F->nc + S->Ad.nnz, &ci));
  PetscCall(GPUPCMallocArray(F->nc + S->Ad.nnz, &cj));
  PetscCall(GPUPCMallocArray(S->onnz, &oci));
  PetscCall(GPUPCMallocArray(S->onnz, &ocj));
  PetscCall(sk->expand(&dAo, S->cluster, dgcol, oci, ocj));
  PetscCall(GPUPCDevCSRDestroy(&dAo));
  PetscCall(GPUPCFree(dgcol));
  PetscCall(SortedSums(F, Fd, Fo, MAT_INITIAL_MATRIX, ci, cj, oci, ocj, ncg, S));
  PetscCall(GPUPCFree(ci));
  PetscCall(GPUPCFree(cj));
  PetscCall(GPUPCFree(oci));
  PetscCall(GPUPCFree(ocj));
  S->bytes = (size_t)(S->Ad.m + 1 + S->Ad.nnz + F->n + S->dcoo.nent + S->Cd.nnz + 1 + S->ocoo.nent + S->Co.nnz + 1 + 2 * (F->nc + 1) + S->Cd.nnz + S->Co.nnz) * sizeof(PetscInt) + (size_t)(S->Ad.nnz + S->Cd.nnz + S->Co.nnz) * sizeof(PetscScalar);
  PetscCall(GPUPCSynchronize());
  PetscCall(PetscLogEventEnd(PC_CMGM_GalSums, 0, 0, 0, 0));
  /* the coarse level on the host */
  PetscCall(PetscMemzero(C, sizeof(*C)));
  PetscCall(PetscCalloc1(F->nc, &C->e));
  for (PetscInt v = 0; v < F->n; v++) C->e[F->cluster[v]] += F->e[v];
  PetscCall(GPUPCCMGMPIMatFromBlocks(comm, F->NC, &S->Cd, &S->Co, cg, C->e, &C->A));
  PetscCall(PetscFree(cg));
  PetscCall(PetscLogEventEnd(PC_CMG_Galerkin, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*
   GPUPCCMGMPIGalerkinValues - new values of C = R F R^T on the kept sorts of F->sort (F's values changed, its pattern
   and clusters did not): the sums only, written into C's MPIAIJ in place

   Not Collective

   Input Parameters:
+  F      - the fine level (new values)
-  Fd, Fo - F's blocks on the device with those values (level 0 of the device reduction), or NULL: from F->A's host
            blocks
*/
PetscErrorCode GPUPCCMGMPIGalerkinValues(GPUPCCMGMPILevel *F, const GPUPCDevCSR *Fd, const GPUPCDevCSR *Fo, GPUPCCMGMPILevel *C)
{
  GPUPCCMGMPISort *S = F->sort;
  Mat              Cd, Co;
  GPUPCCSR         cd, co;
  PetscScalar     *da, *oa;

  PetscFunctionBegin;
  PetscCheck(S, PETSC_COMM_SELF, PETSC_ERR_ORDER, "CMG (parallel): level without a kept Galerkin sort");
  PetscCall(PetscLogEventBegin(PC_CMG_Galerkin, 0, 0, 0, 0));
  PetscCall(SortedSums(F, Fd, Fo, MAT_REUSE_MATRIX, NULL, NULL, NULL, NULL, S->Co.n, S));
  PetscCall(PetscArrayzero(C->e, F->nc));
  for (PetscInt v = 0; v < F->n; v++) C->e[F->cluster[v]] += F->e[v];
  PetscCall(GPUPCMatMPIAIJGetSeqAIJ(C->A, &Cd, &Co, NULL));
  PetscCall(GPUPCMatGetCSR(Cd, &cd));
  PetscCall(GPUPCMatGetCSR(Co, &co));
  PetscCheck(cd.nnz == S->Cd.nnz && co.nnz == S->Co.nnz && cd.m == F->nc, PETSC_COMM_SELF, PETSC_ERR_PLIB, "CMG (parallel): the coarse level's blocks do not match its kept sorts");
  PetscCall(MatSeqAIJGetArrayWrite(Cd, &da));
  PetscCall(MatSeqAIJGetArrayWrite(Co, &oa));
  PetscCall(ValuesDown(&S->Cd, &S->Co, C->e, cd.i, cd.j, da, co.i, oa));
  PetscCall(MatSeqAIJRestoreArrayWrite(Co, &oa));
  PetscCall(MatSeqAIJRestoreArrayWrite(Cd, &da));
  PetscCall(GPUPCMatRestoreCSR(&co));
  PetscCall(GPUPCMatRestoreCSR(&cd));
  PetscCall(PetscObjectStateIncrease((PetscObject)C->A));
  PetscCall(PetscLogEventEnd(PC_CMG_Galerkin, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

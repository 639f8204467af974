/*
   The rows of a distributed matrix that a rank's ghosts reference, fetched from their owners on host buffers
   (gpupc/devmpiblocks.h): the owners extract the referenced rows on the sparse kernel table, only those come down,
   and two PetscSF broadcasts (the rows' offsets and lengths, then the entries) bring them to the ranks that reference
   them. The entry PetscSF is kept, so new values on the same pattern need one extraction and one broadcast.
*/
#include <gpupc/devmpiblocks.h>
#include <gpupc/device.h>

/*@C
   GPUPCDevRowFetchCreate - fetches the rows that this rank's ghosts reference from their owners

   Collective on the layout's communicator

   Input Parameters:
+  rmap   - the row layout (which rank owns which global row)
.  loc    - this rank's rows (rmap's local size; device CSR, any column numbering, values optional)
.  nghost - the rows to fetch
-  ghosts - their global numbers (host; any order, repeats allowed)

   Output Parameter:
.  F - the fetched rows in F->hi, F->hj (and F->ha when loc has values), host arrays, in the order of ghosts;
       GPUPCDevRowFetchValues() fetches new values, GPUPCDevRowFetchDestroy() frees it

   Level: developer

.seealso: GPUPCDevRowFetchValues(), GPUPCDevRowFetchDestroy()
@*/
PetscErrorCode GPUPCDevRowFetchCreate(PetscLayout rmap, const GPUPCDevCSR *loc, PetscInt nghost, const PetscInt *ghosts, GPUPCDevRowFetch *F)
{
  const GPUPCSparseKernels *sk;
  const PetscInt           *ioffset, *irootloc;
  const PetscMPIInt        *iranks;
  const PetscSFNode        *rremote;
  PetscSFNode              *eremote;
  PetscInt                  niranks, nq, n = loc->m, *qi, *rs, *rl, *gs, *gl;
  PetscSF                   rsf;

  PetscFunctionBegin;
  PetscCheck(rmap->n == n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "GPUPCDevRowFetchCreate: %" PetscInt_FMT " local rows given, the layout has %" PetscInt_FMT, n, rmap->n);
  PetscCall(GPUPCGetSparseKernels(&sk));
  PetscCall(PetscMemzero(F, sizeof(*F)));
  F->nghost = nghost;
  /* the row PetscSF: leaves the ghosts; its leaf ranks name the rows each other rank references */
  PetscCall(PetscSFCreate(rmap->comm, &rsf));
  PetscCall(PetscSFSetGraphLayout(rsf, rmap, nghost, NULL, PETSC_COPY_VALUES, ghosts));
  PetscCall(PetscSFSetUp(rsf));
  PetscCall(PetscSFGetLeafRanks(rsf, &niranks, &iranks, &ioffset, &irootloc));
  nq = ioffset[niranks];
  PetscCall(GPUPCMallocArray(PetscMax(nq, 1), &F->qrows));
  PetscCall(GPUPCCopyToDevice(F->qrows, irootloc, nq));
  F->Q.m = nq;
  F->Q.n = loc->n;
  PetscCall(GPUPCMallocArray(nq + 1, &F->Q.i));
  PetscCall(sk->extract_count(loc, nq, F->qrows, NULL, NULL, F->Q.i));
  PetscCall(sk->rowptr(nq, F->Q.i, &F->Q.nnz, NULL));
  PetscCall(GPUPCMallocArray(PetscMax(F->Q.nnz, 1), &F->Q.j));
  if (loc->a) PetscCall(GPUPCMallocArray(PetscMax(F->Q.nnz, 1), &F->Q.a));
  PetscCall(sk->extract_fill(loc, nq, F->qrows, NULL, NULL, &F->Q));
  PetscCall(PetscMalloc1(nq + 1, &qi));
  PetscCall(GPUPCCopyToHost(qi, F->Q.i, nq + 1));
  /* each fetched row's offset in Q and length, to the ranks that reference it */
  PetscCall(PetscMalloc4(n, &rs, n, &rl, nghost, &gs, nghost, &gl)); /* rs, rl: read at fetched rows only */
  for (PetscInt k = 0; k < nq; k++) {
    rs[irootloc[k]] = qi[k]; /* a row fetched by several ranks: any of its (equal) copies */
    rl[irootloc[k]] = qi[k + 1] - qi[k];
  }
  PetscCall(PetscSFBcastBegin(rsf, MPIU_INT, rs, gs, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(rsf, MPIU_INT, rs, gs, MPI_REPLACE));
  PetscCall(PetscSFBcastBegin(rsf, MPIU_INT, rl, gl, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(rsf, MPIU_INT, rl, gl, MPI_REPLACE));
  PetscCall(PetscMalloc1(nghost + 1, &F->hi));
  F->hi[0] = 0;
  for (PetscInt g = 0; g < nghost; g++) F->hi[g + 1] = F->hi[g] + gl[g];
  F->nnz = F->hi[nghost];
  /* the entry PetscSF: leaf e of fetched row g is entry gs[g] + (e - hi[g]) of Q at the row's owner */
  PetscCall(PetscSFGetGraph(rsf, NULL, NULL, NULL, &rremote));
  PetscCall(PetscMalloc1(F->nnz, &eremote));
  for (PetscInt g = 0; g < nghost; g++)
    for (PetscInt e = F->hi[g]; e < F->hi[g + 1]; e++) {
      eremote[e].rank  = rremote[g].rank;
      eremote[e].index = gs[g] + (e - F->hi[g]);
    }
  PetscCall(PetscSFDestroy(&rsf));
  PetscCall(PetscSFCreate(rmap->comm, &F->esf));
  PetscCall(PetscSFSetGraph(F->esf, F->Q.nnz, F->nnz, NULL, PETSC_COPY_VALUES, eremote, PETSC_OWN_POINTER));
  PetscCall(PetscSFSetUp(F->esf));
  {
    PetscInt *qj;
    PetscCall(PetscMalloc1(F->Q.nnz, &qj));
    PetscCall(PetscMalloc1(F->nnz, &F->hj));
    PetscCall(GPUPCCopyToHost(qj, F->Q.j, F->Q.nnz));
    PetscCall(PetscSFBcastBegin(F->esf, MPIU_INT, qj, F->hj, MPI_REPLACE));
    PetscCall(PetscSFBcastEnd(F->esf, MPIU_INT, qj, F->hj, MPI_REPLACE));
    PetscCall(PetscFree(qj));
  }
  if (loc->a) {
    PetscCall(PetscMalloc2(F->Q.nnz, &F->hq, F->nnz, &F->ha));
    PetscCall(GPUPCCopyToHost(F->hq, F->Q.a, F->Q.nnz));
    PetscCall(PetscSFBcastBegin(F->esf, MPIU_SCALAR, F->hq, F->ha, MPI_REPLACE));
    PetscCall(PetscSFBcastEnd(F->esf, MPIU_SCALAR, F->hq, F->ha, MPI_REPLACE));
  }
  PetscCall(PetscFree(qi));
  PetscCall(PetscFree4(rs, rl, gs, gl));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevRowFetchValues - fetches new values of the same rows (the rows' patterns unchanged)

   Collective on F's PetscSF

   Input Parameters:
+  loc - this rank's rows with the new values (the pattern given to GPUPCDevRowFetchCreate())
-  F   - the fetch (made with values)

   Output Parameter:
.  F - F->ha holds the fetched rows' new values

   Level: developer

.seealso: GPUPCDevRowFetchCreate()
@*/
PetscErrorCode GPUPCDevRowFetchValues(const GPUPCDevCSR *loc, GPUPCDevRowFetch *F)
{
  const GPUPCSparseKernels *sk;

  PetscFunctionBegin;
  PetscCheck(F->esf && F->ha && loc->a, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "GPUPCDevRowFetchValues: the fetch was made without values, or the rows have none");
  PetscCall(GPUPCGetSparseKernels(&sk));
  PetscCall(sk->extract_fill(loc, F->Q.m, F->qrows, NULL, NULL, &F->Q));
  PetscCall(GPUPCCopyToHost(F->hq, F->Q.a, F->Q.nnz));
  PetscCall(PetscSFBcastBegin(F->esf, MPIU_SCALAR, F->hq, F->ha, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(F->esf, MPIU_SCALAR, F->hq, F->ha, MPI_REPLACE));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevRowFetchDestroy - frees a fetch

   Not Collective

   Input Parameter:
.  F - the fetch (zeroed on return; a zeroed record is accepted)

   Level: developer

.seealso: GPUPCDevRowFetchCreate()
@*/
PetscErrorCode GPUPCDevRowFetchDestroy(GPUPCDevRowFetch *F)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(F->hi));
  PetscCall(PetscFree(F->hj));
  PetscCall(PetscFree2(F->hq, F->ha));
  PetscCall(GPUPCFree(F->qrows));
  PetscCall(GPUPCDevCSRDestroy(&F->Q));
  PetscCall(PetscSFDestroy(&F->esf));
  PetscCall(PetscMemzero(F, sizeof(*F)));
  PetscFunctionReturn(0);
}

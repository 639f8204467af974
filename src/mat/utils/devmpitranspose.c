/*
   The transpose of a distributed matrix held as device blocks (gpupc/devmpiblocks.h): R = P^T, R's rows laid out as
   P's columns and R's columns as P's rows. The diagonal block is the transpose of P's (the sparse table's transpose,
   on the device). The entries of P's off-diagonal block belong to rows of R that other ranks own (the owners of their
   columns): they go there as triples (row of R, column of R, value) over host buffers by MPI_Alltoallv, grouped by
   destination in P's entry order, and each rank assembles what it received into its off-diagonal block with the
   sparse table's sort-and-reduce (GPUPCDevCOOAssemble), its columns numbered by the sorted distinct global columns
   (R's garray). The triples arrive in rank order and the assembly sorts by (row, column), so every run builds the
   same blocks; no two triples name the same entry, so nothing is summed and R equals MatTranspose's exactly.
*/
#include <gpupc/devmpiblocks.h>
#include <gpupc/matgpu.h>

/*@C
   GPUPCDevMPIBlocksTranspose - R = P^T for a distributed matrix held as device blocks

   Collective on P->comm

   Input Parameter:
.  P - the blocks of P (values needed)

   Output Parameter:
.  R - the blocks of P^T (GPUPCDevMPIBlocksDestroy() frees them): R->d.m = P->d.n rows, R->d.n = P->d.m columns,
       R->rstart = P->cstart, R->cstart = P->rstart

   Notes:
   Only the off-diagonal block's entries travel, through the host (their count is the halo of one product with P);
   the diagonal block never leaves the device.

   Level: developer

.seealso: GPUPCDevMPIBlocksFromMat(), GPUPCDevMPIBlocksToMat()
@*/
PetscErrorCode GPUPCDevMPIBlocksTranspose(const GPUPCDevMPIBlocks *P, GPUPCDevMPIBlocks *R)
{
  const GPUPCSparseKernels *k;
  MPI_Comm                  comm = P->comm;
  PetscMPIInt               size, rank;
  PetscLayout               cmap;
  const PetscInt           *ranges;
  PetscInt                 *oi, *oj, *srow, *scol, *rrow, *rcol, *dest, *cols, nrecv, nsend, nc = 0, *ci, *cj;
  PetscScalar              *oa, *sval, *rval, *cv;
  PetscMPIInt              *scount, *sdispl, *rcount, *rdispl;
  size_t                    peak;
  GPUPCDevCOO               coo;

  PetscFunctionBegin;
  PetscCheck((P->d.a || !P->d.nnz) && (P->o.a || !P->o.nnz), PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "GPUPCDevMPIBlocksTranspose: the blocks have no values");
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(GPUPCGetSparseKernels(&k));
  PetscCall(PetscMemzero(R, sizeof(*R)));
  R->comm   = comm;
  R->M      = P->N;
  R->N      = P->M;
  R->rstart = P->cstart;
  R->cstart = P->rstart;

  /* the diagonal block: the transpose on the device */
  PetscCall(GPUPCDevCSRCreate(P->d.n, P->d.m, P->d.nnz, PETSC_TRUE, &R->d));
  PetscCall(k->transpose(&P->d, &R->d, NULL, &peak));

  /* the off-diagonal entries (r, g) of P become R's (garray[g], rstart + r) at the owner of column garray[g] */
  nsend = P->o.nnz;
  PetscCall(PetscMalloc3(P->d.m + 1, &oi, nsend, &oj, nsend, &oa));
  PetscCall(GPUPCCopyToHost(oi, P->o.i, P->d.m + 1));
  PetscCall(GPUPCCopyToHost(oj, P->o.j, nsend));
  if (nsend) PetscCall(GPUPCCopyToHost(oa, P->o.a, nsend));
  PetscCall(PetscLayoutCreateFromSizes(comm, P->d.n, P->N, 1, &cmap));
  PetscCall(PetscLayoutGetRanges(cmap, &ranges));
  PetscCall(PetscMalloc4(size, &scount, size + 1, &sdispl, size, &rcount, size + 1, &rdispl));
  PetscCall(PetscMalloc1(PetscMax(1, P->nghost), &dest));
  for (PetscMPIInt q = 0; q < size; q++) scount[q] = 0;
  for (PetscInt g = 0, q = 0; g < P->nghost; g++) { /* garray increases: the owner advances */
    while (P->garray[g] >= ranges[q + 1]) q++;
    PetscCheck(q != rank, PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "GPUPCDevMPIBlocksTranspose: ghost column %" PetscInt_FMT " is owned by this rank", P->garray[g]);
    dest[g] = q;
  }
  for (PetscInt e = 0; e < nsend; e++) scount[dest[oj[e]]]++;
  sdispl[0] = 0;
  for (PetscMPIInt q = 0; q < size; q++) sdispl[q + 1] = sdispl[q] + scount[q];
  PetscCall(PetscMalloc3(nsend, &srow, nsend, &scol, nsend, &sval));
  {
    PetscMPIInt *fill;

    PetscCall(PetscMalloc1(size, &fill));
    for (PetscMPIInt q = 0; q < size; q++) fill[q] = sdispl[q];
    for (PetscInt r = 0; r < P->d.m; r++)
      for (PetscInt e = oi[r]; e < oi[r + 1]; e++) {
        const PetscMPIInt q = (PetscMPIInt)dest[oj[e]];

        srow[fill[q]] = P->garray[oj[e]];
        scol[fill[q]] = P->rstart + r;
        sval[fill[q]] = oa[e];
        fill[q]++;
      }
    PetscCall(PetscFree(fill));
  }
  PetscCallMPI(MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, comm));
  rdispl[0] = 0;
  for (PetscMPIInt q = 0; q < size; q++) rdispl[q + 1] = rdispl[q] + rcount[q];
  nrecv = rdispl[size];
  PetscCall(PetscMalloc3(nrecv, &rrow, nrecv, &rcol, nrecv, &rval));
  PetscCallMPI(MPI_Alltoallv(srow, scount, sdispl, MPIU_INT, rrow, rcount, rdispl, MPIU_INT, comm));
  PetscCallMPI(MPI_Alltoallv(scol, scount, sdispl, MPIU_INT, rcol, rcount, rdispl, MPIU_INT, comm));
  PetscCallMPI(MPI_Alltoallv(sval, scount, sdispl, MPIU_SCALAR, rval, rcount, rdispl, MPIU_SCALAR, comm));

  /* R's ghost columns: the distinct global columns received, increasing; the triples in local numbers */
  PetscCall(PetscMalloc1(PetscMax(1, nrecv), &cols));
  PetscCall(PetscArraycpy(cols, rcol, nrecv));
  nc = nrecv;
  PetscCall(PetscSortRemoveDupsInt(&nc, cols));
  for (PetscInt t = 0; t < nrecv; t++) {
    PetscInt pos;

    PetscCheck(rrow[t] >= R->rstart && rrow[t] < R->rstart + R->d.m, PETSC_COMM_SELF, PETSC_ERR_PLIB, "GPUPCDevMPIBlocksTranspose: received row %" PetscInt_FMT " outside this rank's rows %" PetscInt_FMT "..%" PetscInt_FMT, rrow[t], R->rstart, R->rstart + R->d.m);
    PetscCall(PetscFindInt(rcol[t], nc, cols, &pos));
    rrow[t] -= R->rstart;
    rcol[t] = pos;
  }
  R->nghost = nc;
  PetscCall(PetscMalloc1(PetscMax(1, nc), &R->garray));
  PetscCall(PetscArraycpy(R->garray, cols, nc));
  PetscCall(GPUPCMallocArray(nrecv, &ci));
  PetscCall(GPUPCMallocArray(nrecv, &cj));
  PetscCall(GPUPCMallocArray(nrecv, &cv));
  PetscCall(GPUPCCopyToDevice(ci, rrow, nrecv));
  PetscCall(GPUPCCopyToDevice(cj, rcol, nrecv));
  PetscCall(GPUPCCopyToDevice(cv, rval, nrecv));
  PetscCall(GPUPCDevCOOAssemble(R->d.m, nc, nrecv, ci, cj, cv, MAT_INITIAL_MATRIX, &coo, &R->o));
  PetscCall(GPUPCDevCOODestroy(&coo));
  PetscCall(GPUPCFree(ci));
  PetscCall(GPUPCFree(cj));
  PetscCall(GPUPCFree(cv));

  PetscCall(PetscFree(cols));
  PetscCall(PetscFree3(rrow, rcol, rval));
  PetscCall(PetscFree3(srow, scol, sval));
  PetscCall(PetscFree(dest));
  PetscCall(PetscFree4(scount, sdispl, rcount, rdispl));
  PetscCall(PetscLayoutDestroy(&cmap));
  PetscCall(PetscFree3(oi, oj, oa));
  PetscFunctionReturn(0);
}

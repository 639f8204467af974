/*
   The rank-local part of a level matrix for PC gpuamg's host setup (gpupc/amgsetup.h): the diagonal block copied
   with local indices, and per row the couplings to other ranks summed by sign and their largest values. The setup
   coarsens and interpolates on it; the couplings to other ranks are lumped into the diagonal so row sums are kept.
   Works on SEQAIJ, MPIAIJ and the GPUPC types derived from them (through GPUPCMatGetCSR/GPUPCMatMPIAIJGetSeqAIJ).
*/
#include <gpupc/amgsetup.h>
#include <gpupc/matgpu.h>

/* the diagonal block without explicit zeros (the diagonal kept); rows are independent: threaded, the same for any
   thread count */
static PetscErrorCode CopyDiagBlock(const GPUPCCSR *csr, PetscInt threads, GPUPCAMGLocal *L)
{
  PetscInt m = csr->m;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(m + 1, &L->i));
  L->i[0] = 0;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (PetscInt r = 0; r < m; r++) {
    PetscInt c = 0;
    for (PetscInt e = csr->i[r]; e < csr->i[r + 1]; e++)
      if (PetscRealPart(csr->a[e]) != 0.0 || csr->j[e] == r) c++;
    L->i[r + 1] = c;
  }
  for (PetscInt r = 0; r < m; r++) L->i[r + 1] += L->i[r];
  PetscCall(PetscMalloc2(L->i[m], &L->j, L->i[m], &L->a));
#pragma omp parallel for num_threads(threads) schedule(static)
  for (PetscInt r = 0; r < m; r++) {
    PetscInt k = L->i[r];
    L->diag[r] = 0.0;
    for (PetscInt e = csr->i[r]; e < csr->i[r + 1]; e++) {
      if (PetscRealPart(csr->a[e]) == 0.0 && csr->j[e] != r) continue; /* explicit zeros are no couplings */
      L->j[k]   = csr->j[e];
      L->a[k++] = PetscRealPart(csr->a[e]);
      if (csr->j[e] == r) L->diag[r] += PetscRealPart(csr->a[e]);
    }
  }
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGLocalGet - the rank-local part of a level matrix of PC gpuamg's setup

   Collective on A (nothing is communicated, but the MPIAIJ blocks are queried)

   Input Parameters:
+  A  - SEQAIJ, MPIAIJ or a GPUPC type derived from them; square
.  nf   - functions: 1 (scalar), or the block size for classical systems AMG (unknown approach)
.  func - function of each local row, or NULL for row r in function r % nf (the finest level: the couplings to other
          ranks are then summed within the row's function only; with func they are all summed)
-  threads - host threads (rows are independent; the result does not depend on the count)

   Output Parameter:
.  L - the local part (free with GPUPCAMGLocalFree())

   Level: developer

.seealso: GPUPCAMGLocalFree(), GPUPCAMGHierarchyBuild()
@*/
PetscErrorCode GPUPCAMGLocalGet(Mat A, PetscInt nf, const PetscInt *func, PetscInt threads, GPUPCAMGLocal *L)
{
  PetscErrorCode (*f)(void) = NULL;
  PetscInt        M, N, m, n;
  Mat             Ad = A, Ao = NULL;
  const PetscInt *garray = NULL;
  GPUPCCSR        dcsr, ocsr;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(L, sizeof(*L)));
  PetscCall(MatGetSize(A, &M, &N));
  PetscCall(MatGetLocalSize(A, &m, &n));
  PetscCheck(M == N && m == n, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_SIZ, "PC gpuamg needs a square matrix with the same row and column layout; got %" PetscInt_FMT " x %" PetscInt_FMT " (local %" PetscInt_FMT " x %" PetscInt_FMT ")", M, N, m, n);
  PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatMPIAIJSetPreallocation_C", &f));
  if (f) PetscCall(GPUPCMatMPIAIJGetSeqAIJ(A, &Ad, &Ao, &garray));
  L->n  = m;
  L->ne = m;
  L->nx = m;
  L->N  = M;
  PetscCall(MatGetOwnershipRange(A, &L->rstart, NULL));
  PetscCall(MatGetBlockSize(A, &L->bs));
  PetscCheck(nf >= 1 && (func || m == 0 || (m % nf == 0 && L->rstart % nf == 0)), PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "%" PetscInt_FMT " functions do not divide the local rows %" PetscInt_FMT " (first %" PetscInt_FMT "): give the matrix a block size that divides every rank's rows", nf, m, L->rstart);
  L->nf   = nf;
  L->func = func;
  PetscCall(PetscMalloc6(m, &L->diag, m, &L->offneg, m, &L->offpos, m, &L->offmaxneg, m, &L->offmaxabs, m, &L->offcnt));
  PetscCall(GPUPCMatGetCSR(Ad, &dcsr));
  PetscCall(CopyDiagBlock(&dcsr, PetscMax(threads, 1), L));
  PetscCall(GPUPCMatRestoreCSR(&dcsr));
#pragma omp parallel for num_threads(PetscMax(threads, 1)) schedule(static)
  for (PetscInt r = 0; r < m; r++) {
    L->offneg[r] = L->offpos[r] = L->offmaxneg[r] = L->offmaxabs[r] = 0.0;
    L->offcnt[r]                                                    = 0;
  }
  if (Ao) {
    PetscCall(GPUPCMatGetCSR(Ao, &ocsr));
#pragma omp parallel for num_threads(PetscMax(threads, 1)) schedule(static)
    for (PetscInt r = 0; r < m; r++) {
      PetscReal s = L->diag[r] < 0.0 ? -1.0 : 1.0;
      for (PetscInt e = ocsr.i[r]; e < ocsr.i[r + 1]; e++) {
        PetscReal v = PetscRealPart(ocsr.a[e]);
        if (v == 0.0 || (nf > 1 && !func && garray[ocsr.j[e]] % nf != r % nf)) continue;
        if (v < 0.0) L->offneg[r] += v;
        else L->offpos[r] += v;
        L->offmaxneg[r] = PetscMax(L->offmaxneg[r], -s * v);
        L->offmaxabs[r] = PetscMax(L->offmaxabs[r], PetscAbsReal(v));
        L->offcnt[r]++;
      }
    }
    PetscCall(GPUPCMatRestoreCSR(&ocsr));
  }
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGLocalFree - frees what GPUPCAMGLocalGet() or GPUPCAMGLocalGetGhost() allocated

   Not Collective

   Level: developer

.seealso: GPUPCAMGLocalGet()
@*/
PetscErrorCode GPUPCAMGLocalFree(GPUPCAMGLocal *L)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(L->i));
  PetscCall(PetscFree2(L->j, L->a));
  PetscCall(PetscFree6(L->diag, L->offneg, L->offpos, L->offmaxneg, L->offmaxabs, L->offcnt));
  PetscCall(PetscFree(L->gidx));
  PetscCall(PetscSFDestroy(&L->sf));
  PetscCall(PetscMemzero(L, sizeof(*L)));
  PetscFunctionReturn(0);
}

/*
   CMG last level (docs/algorithms.md 2.2, step 7): the Laplacian is singular with one null vector
   per connected component; one vertex per component is grounded (its row and column
   removed), the rest is factored with dense Cholesky (LAPACK potrf/potri) and stored as a
   dense inverse with zero rows and columns at the grounded vertices, applied on the device
   as a GEMV. The result is symmetric, and exact for right-hand sides that sum to zero over
   every component.

   On the host backend the hierarchy's setup factors the last level with host LAPACK
   (GPUPCCMGCoarseFactor). On the cuda backend the setup only counts the components
   (GPUPCCMGCoarseComponents) and the upload factors the level on the device
   (GPUPCCMGCoarseFactorDevice: cuSOLVER through gpupc/denseinv.h), writing the inverse in
   the level precision straight into the level's device buffer; the host copy of the
   inverse is then made only when asked for (GPUPCCMGHierarchyGetCoarseInverse: tests). When
   the device setup left the level's CSR on the device, the dense grounded matrix is built
   there (coarse_dense of gpupc/cmgsetupkernels.h) instead of on the host and copied up.
*/
#include <gpupc/cmg.h>
#include <gpupc/denseinv.h>
#include <gpupc/cmgsetupkernels.h>
#include <petscblaslapack.h>

/* the components of L (comp[v], breadth-first from the lowest vertex) and the position of every vertex among the
   kept ones (idx[v], -1 at the grounded first vertex of each component); queue is scratch of n entries */
static void Ground(const GPUPCCMGLevel *L, PetscInt *comp, PetscInt *queue, PetscInt *idx, PetscInt *ncomp, PetscInt *nkept)
{
  const PetscInt n = L->n;
  PetscInt       m = 0, nco = 0;

  for (PetscInt v = 0; v < n; v++) comp[v] = -1;
  /* components; the first vertex of each is grounded */
  for (PetscInt s = 0; s < n; s++) {
    PetscInt head = 0, tail = 0;
    if (comp[s] >= 0) continue;
    comp[s]       = nco;
    queue[tail++] = s;
    while (head < tail) {
      PetscInt v = queue[head++];
      for (PetscInt k = L->rowptr[v]; k < L->rowptr[v + 1]; k++) {
        PetscInt u = L->col[k];
        if (u != v && L->val[k] != 0.0 && comp[u] < 0) {
          comp[u]       = nco;
          queue[tail++] = u;
        }
      }
    }
    nco++;
  }
  for (PetscInt v = 0; v < n; v++) idx[v] = -1;
  for (PetscInt c = 0, v = 0; v < n; v++) { /* vertex v is grounded if it is the first of its component */
    if (comp[v] == c) {
      c++;
      continue;
    }
    idx[v] = m++;
  }
  *ncomp = nco;
  *nkept = m;
}

/*@C
   GPUPCCMGCoarseFactor - dense grounded inverse of the last CMG level

   Not Collective

   Input Parameter:
.  L - the level (a Laplacian)

   Output Parameters:
+  ncomp - connected components (= grounded vertices)
-  inv   - n x n row-major inverse (symmetric), zero in grounded rows and columns; PetscFree() it

   Level: developer
@*/
PetscErrorCode GPUPCCMGCoarseFactor(const GPUPCCMGLevel *L, PetscInt *ncomp, PetscReal **inv)
{
  const PetscInt n = L->n;
  PetscInt      *comp, *queue, *idx, m = 0, nco = 0;
  PetscReal     *M, *X;
  PetscBLASInt   bm, info = 0;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PC_CMG_CoarseFactor, 0, 0, 0, 0));
  PetscCall(PetscMalloc3(n, &comp, n, &queue, n, &idx));
  Ground(L, comp, queue, idx, &nco, &m);
  PetscCall(PetscCalloc1((size_t)n * n, &X));
  if (m > 0) {
    PetscCall(PetscCalloc1((size_t)m * m, &M));
    for (PetscInt v = 0; v < n; v++) {
      if (idx[v] < 0) continue;
      for (PetscInt k = L->rowptr[v]; k < L->rowptr[v + 1]; k++)
        if (idx[L->col[k]] >= 0) M[(size_t)idx[v] * m + idx[L->col[k]]] += L->val[k];
    }
    PetscCall(PetscBLASIntCast(m, &bm));
    PetscCallBLAS("LAPACKpotrf", LAPACKpotrf_("L", &bm, M, &bm, &info));
    PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_MAT_CH_ZRPVT, "PC cmg: the grounded last level (%" PetscInt_FMT " vertices, %" PetscInt_FMT " components) is not positive definite (Cholesky failed at pivot %d); the input is probably not diagonally dominant to working precision", n, nco, (int)info);
    PetscCallBLAS("LAPACKpotri", LAPACKpotri_("L", &bm, M, &bm, &info));
    PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "PC cmg: LAPACK potri failed on the last level (info %d)", (int)info);
    /* column-major lower triangle == row-major upper triangle; mirror it */
    for (PetscInt i = 0; i < m; i++)
      for (PetscInt j = 0; j < i; j++) M[(size_t)i * m + j] = M[(size_t)j * m + i];
    for (PetscInt v = 0; v < n; v++) {
      if (idx[v] < 0) continue;
      for (PetscInt u = 0; u < n; u++)
        if (idx[u] >= 0) X[(size_t)v * n + u] = M[(size_t)idx[v] * m + idx[u]];
    }
    PetscCall(PetscFree(M));
  }
  PetscCall(PetscFree3(comp, queue, idx));
  *ncomp = nco;
  *inv   = X;
  PetscCall(PetscLogEventEnd(PC_CMG_CoarseFactor, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCCMGCoarseComponents - the connected components (= grounded vertices) of the last CMG level, without factoring
   it (the cuda backend factors it at the upload, GPUPCCMGCoarseFactorDevice())

   Not Collective

   Input Parameter:
.  L - the level (a Laplacian)

   Output Parameter:
.  ncomp - connected components

   Level: developer
@*/
PetscErrorCode GPUPCCMGCoarseComponents(const GPUPCCMGLevel *L, PetscInt *ncomp)
{
  PetscInt *comp, *queue, *idx, m;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(L->n, &comp, L->n, &queue, L->n, &idx));
  Ground(L, comp, queue, idx, ncomp, &m);
  PetscCall(PetscFree3(comp, queue, idx));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCCMGCoarseFactorDevice - dense grounded inverse of the last CMG level, computed on the active backend's device
   into device memory in the level precision

   Not Collective

   Input Parameters:
+  L    - the level (a Laplacian)
-  prec - precision of dense

   Output Parameter:
.  dense - n x n row-major device buffer (GPUPCMalloc'ed, n*n doubles or floats): the inverse, zero in grounded rows
           and columns, as GPUPCCMGCoarseFactor() computes it on the host (to rounding)

   Notes:
   The grounded matrix is laid out in the level's own numbering, with the rows and columns of the grounded vertices
   those of the identity, and GPUPCDenseSPDInverseMaskedDevice() factors it (cuSOLVER on the cuda backend) and solves
   against the identity masked at the grounded vertices, which zeroes their rows and columns exactly. Single
   precision: the double-precision result is rounded to float on the device (the cmg table's demote kernel). When the
   level's CSR is on the device (L->drowptr, L->dcol, L->dval: the device setup's), the grounded matrix is built there
   by the cmg setup table's coarse_dense, the same bits as the host build, and factored without a copy through the
   host (GPUPCDenseSPDInverseMaskedOnDevice()); the components come from the host values as before.

   Level: developer

.seealso: GPUPCCMGCoarseFactor()
@*/
PetscErrorCode GPUPCCMGCoarseFactorDevice(const GPUPCCMGLevel *L, GPUPCCMGPrecision prec, void *dense)
{
  const PetscInt n = L->n;
  PetscInt      *comp, *queue, *idx, m = 0, nco = 0;
  PetscReal     *A, *mask, *X = NULL;
  PetscBLASInt   info = 0;

  PetscFunctionBegin;
  if (n == 0) PetscFunctionReturn(0);
  PetscCall(PetscLogEventBegin(PC_CMG_CoarseFactor, 0, 0, 0, 0));
  PetscCall(PetscMalloc3(n, &comp, n, &queue, n, &idx));
  Ground(L, comp, queue, idx, &nco, &m);
  PetscCall(PetscMalloc1(n, &mask));
  for (PetscInt v = 0; v < n; v++) mask[v] = idx[v] >= 0 ? 1.0 : 0.0;
  if (prec == GPUPC_CMG_PRECISION_SINGLE) PetscCall(GPUPCMalloc((size_t)n * n * sizeof(PetscReal), (void **)&X));
  if (L->drowptr && L->dcol && L->dval) { /* the level's CSR is on the device (the device setup): the dense matrix is built there */
    const GPUPCCMGSetupKernels *k;
    GPUPCDevCSR                 dL;
    PetscReal                  *dmask, *dA;

    PetscCall(GPUPCGetCMGSetupKernels(&k));
    dL.m = dL.n = n;
    dL.nnz      = L->nnz;
    dL.i        = (PetscInt *)L->drowptr;
    dL.j        = (PetscInt *)L->dcol;
    dL.a        = (PetscScalar *)L->dval;
    PetscCall(GPUPCMallocArray(n, &dmask));
    PetscCall(GPUPCMallocArray((size_t)n * n, &dA));
    PetscCall(GPUPCCopyToDevice(dmask, mask, n));
    PetscCall(k->coarse_dense(&dL, dmask, dA));
    PetscCall(GPUPCDenseSPDInverseMaskedOnDevice(n, dA, mask, X ? X : (PetscReal *)dense, &info));
    PetscCall(GPUPCFree(dA));
    PetscCall(GPUPCFree(dmask));
    A = NULL;
  } else {
    PetscCall(PetscCalloc1((size_t)n * n, &A));
    for (PetscInt v = 0; v < n; v++) {
      if (idx[v] < 0) {
        A[(size_t)v * n + v] = 1.0;
        continue;
      }
      for (PetscInt k = L->rowptr[v]; k < L->rowptr[v + 1]; k++)
        if (idx[L->col[k]] >= 0) A[(size_t)v * n + L->col[k]] += L->val[k];
    }
    PetscCall(GPUPCDenseSPDInverseMaskedDevice(n, A, mask, X ? X : (PetscReal *)dense, &info));
  }
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_MAT_CH_ZRPVT, "PC cmg: the grounded last level (%" PetscInt_FMT " vertices, %" PetscInt_FMT " components) is not positive definite (Cholesky failed at pivot %d); the input is probably not diagonally dominant to working precision", n, nco, (int)info);
  if (X) {
    const GPUPCCMGKernels *K;
    PetscCall(GPUPCGetCMGKernels(&K));
    PetscCall(K->demote((PetscInt64)n * n, X, (float *)dense));
    PetscCall(GPUPCFree(X)); /* ordered after the demote on the rank's stream */
  }
  PetscCall(PetscFree(mask));
  PetscCall(PetscFree(A));
  PetscCall(PetscFree3(comp, queue, idx));
  PetscCall(PetscLogEventEnd(PC_CMG_CoarseFactor, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCCMGHierarchyGetCoarseInverse - the host copy of the last level's grounded inverse: the setup's on the host
   backend; on the cuda backend, where the setup factors on the device only, computed on the host at the first request
   and kept in the hierarchy (tests compare against it)

   Not Collective

   Input Parameter:
.  H - a hierarchy whose last level is direct (H->coarse_direct)

   Output Parameter:
.  inv - n x n row-major, zero in grounded rows and columns; owned by H

   Level: developer

.seealso: GPUPCCMGCoarseFactor(), GPUPCCMGCoarseFactorDevice()
@*/
PetscErrorCode GPUPCCMGHierarchyGetCoarseInverse(const GPUPCCMGHierarchy *H, const PetscReal **inv)
{
  GPUPCCMGHierarchy *h = (GPUPCCMGHierarchy *)H; /* a cache: the inverse is a function of the last level */

  PetscFunctionBegin;
  PetscCheck(H->coarse_direct, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "the hierarchy's last level is one Jacobi step, not a dense inverse");
  if (!h->coarse_inv) {
    PetscInt ncomp;
    PetscCall(GPUPCCMGCoarseFactor(&h->levels[h->nlevels - 1], &ncomp, &h->coarse_inv));
  }
  *inv = h->coarse_inv;
  PetscFunctionReturn(0);
}

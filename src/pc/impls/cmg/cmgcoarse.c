/*
   CMG last level (docs/algorithms.md 2.2, step 7): the Laplacian is singular with one null vector
   per connected component; one vertex per component is grounded (its row and column
   removed), the rest is factored with dense Cholesky (LAPACK potrf/potri) and stored as a
   dense inverse with zero rows and columns at the grounded vertices, applied on the device
   as a GEMV. The result is symmetric, and exact for right-hand sides that sum to zero over
   every component.
*/
#include <gpupc/cmg.h>
#include <petscblaslapack.h>

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

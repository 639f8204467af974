/*
   The transpose of a CSR pattern (values optional) for PC gpuamg's setup (gpupc/amgsetup.h): the strength graph's
   S^T and the restriction R = P^T of the Galerkin product. Each row of the transpose lists the original rows in
   ascending order, whatever the thread count: one thread counts and places the entries in row order; several count
   with atomic increments, place the entries in atomically taken slots and then sort each row of the transpose.
*/
#include <gpupc/amgsetup.h>

/*@C
   GPUPCAMGTransposeCSR - the transpose of an m x n CSR matrix (or pattern)

   Not Collective

   Input Parameters:
+  m, n    - rows and columns
.  ai, aj  - the pattern, column indices in [0, n)
.  aa      - the values, or NULL for a pattern
-  threads - host threads

   Output Parameters:
+  ti, tj - the transpose's pattern (n + 1 and ai[m] entries, PetscMalloc'd), rows sorted
-  ta     - its values (ai[m] entries, PetscMalloc'd), or NULL when aa is NULL

   Level: developer

.seealso: GPUPCAMGStrengthTranspose(), GPUPCAMGGalerkinSeq()
@*/
PetscErrorCode GPUPCAMGTransposeCSR(PetscInt m, PetscInt n, const PetscInt *ai, const PetscInt *aj, const PetscReal *aa, PetscInt threads, PetscInt **ti, PetscInt **tj, PetscReal **ta)
{
  PetscInt   nnz = ai[m], *i, *j, *fill, nt = ai[m] < 65536 ? 1 : PetscMax(threads, 1); /* small: one thread is faster */
  PetscReal *a = NULL;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(n + 1, &i));
  PetscCall(PetscMalloc1(nnz, &j));
  if (aa) PetscCall(PetscMalloc1(nnz, &a));
  PetscCall(PetscMalloc1(n, &fill));
  if (nt == 1) {
    for (PetscInt e = 0; e < nnz; e++) i[aj[e] + 1]++;
    for (PetscInt c = 0; c < n; c++) i[c + 1] += i[c];
    PetscCall(PetscArraycpy(fill, i, n));
    for (PetscInt r = 0; r < m; r++)
      for (PetscInt e = ai[r]; e < ai[r + 1]; e++) {
        PetscInt q = fill[aj[e]]++;
        j[q]       = r;
        if (a) a[q] = aa[e];
      }
  } else {
#pragma omp        parallel for num_threads(nt) schedule(static)
    for (PetscInt e = 0; e < nnz; e++) {
       #pragma omp atomic update
      i[aj[e] + 1]++;
    }
    for (PetscInt c = 0; c < n; c++) i[c + 1] += i[c];
    PetscCall(PetscArraycpy(fill, i, n));
#pragma omp        parallel for num_threads(nt) schedule(static)
    for (PetscInt r = 0; r < m; r++)
      for (PetscInt e = ai[r]; e < ai[r + 1]; e++) {
               PetscInt q;
#pragma omp atomic capture
        q    = fill[aj[e]]++;
        j[q] = r;
        if (a) a[q] = aa[e];
      }
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1024)
    for (PetscInt c = 0; c < n; c++) {
      if (a) GPUPCAMGSortPairs(i[c + 1] - i[c], j + i[c], a + i[c]);
      else (void)PetscSortInt(i[c + 1] - i[c], j + i[c]);
    }
  }
  PetscCall(PetscFree(fill));
  *ti = i;
  *tj = j;
  if (ta) *ta = a;
  else PetscCall(PetscFree(a));
  PetscFunctionReturn(0);
}

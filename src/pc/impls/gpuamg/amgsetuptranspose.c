/*
   The transpose of a CSR pattern (values optional) for PC gpuamg's setup (gpupc/amgsetup.h): the strength graph's
   S^T and the restriction R = P^T of the Galerkin product. Each row of the transpose lists the original rows in
   ascending order, whatever the thread count: one thread counts and places the entries in row order; several count
   with atomic increments, place the entries in atomically taken slots and then sort each row of the transpose.
   Also the setup's other CSR helpers (gpupc/amgcsr.h): the (column, value) pair sort and the SEQAIJ matrix that
   owns its arrays. They live here, below the Galerkin product and the interpolation that use them, so that no two
   setup files need each other.
*/
#include <gpupc/amgcsr.h>
#include <gpupc/amgsetupkernels.h> /* GPUPCAMGSwapPairs */

/* sorts cols[0..n) ascending, vals along */
void GPUPCAMGSortPairs(PetscInt n, PetscInt *cols, PetscReal *vals)
{
  while (n > 16) { /* quicksort on the larger part's loop, recursion on the smaller */
    PetscInt p = cols[n / 2], lo = 0, hi = n - 1;
    while (lo <= hi) {
      while (cols[lo] < p) lo++;
      while (cols[hi] > p) hi--;
      if (lo <= hi) GPUPCAMGSwapPairs(cols, vals, lo++, hi--);
    }
    if (hi + 1 < n - lo) {
      GPUPCAMGSortPairs(hi + 1, cols, vals);
      cols += lo;
      vals += lo;
      n -= lo;
    } else {
      GPUPCAMGSortPairs(n - lo, cols + lo, vals + lo);
      n = hi + 1;
    }
  }
  for (PetscInt q = 1; q < n; q++) {
    PetscInt  c = cols[q], p = q;
    PetscReal v = vals[q];
    while (p > 0 && cols[p - 1] > c) {
      cols[p] = cols[p - 1];
      vals[p] = vals[p - 1];
      p--;
    }
    cols[p] = c;
    vals[p] = v;
  }
}

static PetscErrorCode FreeArrays(void *ctx)
{
  void **p = (void **)ctx;

  PetscFunctionBegin;
  PetscCall(PetscFree(p[0]));
  PetscCall(PetscFree(p[1]));
  PetscCall(PetscFree(p[2]));
  PetscCall(PetscFree(p));
  PetscFunctionReturn(0);
}

/* a SEQAIJ matrix on the arrays, which it frees when destroyed (a container composed with it holds them) */
PetscErrorCode GPUPCAMGMatOnArrays(PetscInt m, PetscInt n, PetscInt *i, PetscInt *j, PetscScalar *a, Mat *C)
{
  PetscContainer c;
  void         **p;

  PetscFunctionBegin;
  PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, m, n, i, j, a, C));
  PetscCall(PetscMalloc1(3, &p));
  p[0] = i;
  p[1] = j;
  p[2] = a;
  PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &c));
  PetscCall(PetscContainerSetPointer(c, p));
  PetscCall(PetscContainerSetUserDestroy(c, FreeArrays));
  PetscCall(PetscObjectCompose((PetscObject)*C, "GPUPCAMGArrays", (PetscObject)c));
  PetscCall(PetscContainerDestroy(&c));
  PetscFunctionReturn(0);
}

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

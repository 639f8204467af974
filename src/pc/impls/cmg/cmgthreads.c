/*
   Threads of the CMG host setup (OpenMP): how many the setup loops run on by default, and the row sort those loops
   use (it calls no PETSc function), and a prefix sum split over them. The reduction, the clustering and the Galerkin
   product split their work over the threads; each row (each vertex) is computed exactly as by one thread, so the
   hierarchy does not depend on the thread count (tests/cmg_hierarchy.c -compare_threads checks it bit for bit).
*/
#include <gpupc/cmg.h>
#include <gpupc/cmgsetupkernels.h>
#include <gpupc/stage.h>

/*@C
   GPUPCCMGDefaultThreads - the default of -pc_cmg_setup_threads

   Not Collective

   Output Parameter:
.  threads - OMP_NUM_THREADS when set, else the cores in the rank's affinity mask (shared among the node's ranks
             when their masks overlap); 1 when the library was built without OpenMP (GPUPCGetHostCores())

   Level: developer

.seealso: PCCMG, GPUPCCMGOptionsDefault()
@*/
PetscErrorCode GPUPCCMGDefaultThreads(PetscInt *threads)
{
  PetscFunctionBegin;
  PetscCall(GPUPCDefaultHostThreads(threads)); /* the rule of GPUPC's threaded host work (src/sys/threads.c) */
  PetscFunctionReturn(0);
}

/* col[i] with its value (val may be NULL) moves to the right place among col[i+1 .. m) (heap below i) */
static void SiftDown(PetscInt i, PetscInt m, PetscInt *col, PetscReal *val)
{
  PetscInt  c = col[i];
  PetscReal v = val ? val[i] : 0.0;

  while (2 * i + 1 < m) {
    PetscInt k = 2 * i + 1;
    if (k + 1 < m && col[k + 1] > col[k]) k++;
    if (col[k] <= c) break;
    col[i] = col[k];
    if (val) val[i] = val[k];
    i = k;
  }
  col[i] = c;
  if (val) val[i] = v;
}

/*@C
   GPUPCCMGSortRow - sorts one CSR row by column, its values along; calls no PETSc function, so the setup threads may
   call it

   Not Collective

   Input Parameters:
+  m   - entries of the row
.  col - column indices (distinct)
-  val - values, or NULL (the columns only)

   Notes:
   Insertion sort for the short rows of the fine levels, heap sort (O(m log m), in place) for the long rows of the
   coarse ones.

   Level: developer
@*/
void GPUPCCMGSortRow(PetscInt m, PetscInt *col, PetscReal *val)
{
  if (m <= 16) {
    for (PetscInt i = 1; i < m; i++) {
      PetscInt  c = col[i], k = i;
      PetscReal v = val ? val[i] : 0.0;
      for (; k > 0 && col[k - 1] > c; k--) {
        col[k] = col[k - 1];
        if (val) val[k] = val[k - 1];
      }
      col[k] = c;
      if (val) val[k] = v;
    }
    return;
  }
  for (PetscInt i = m / 2 - 1; i >= 0; i--) SiftDown(i, m, col, val);
  for (PetscInt e = m - 1; e > 0; e--) {
    PetscInt c = col[0];
    col[0]     = col[e];
    col[e]     = c;
    if (val) {
      PetscReal v = val[0];
      val[0]      = val[e];
      val[e]      = v;
    }
    SiftDown(0, e, col, val);
  }
}

/*@C
   GPUPCCMGExclusiveScan - a[i] = a[0] + ... + a[i-1] in place, split over threads (each sums its block, then adds the
   blocks before it); calls no PETSc function

   Not Collective

   Input Parameters:
+  n  - entries
.  nt - threads
-  a  - the values

   Output Parameter:
.  total - the sum of all n values

   Level: developer
@*/
void GPUPCCMGExclusiveScan(PetscInt n, PetscInt nt, PetscInt *a, PetscInt *total)
{
  PetscInt part[GPUPC_CMG_MAX_SCAN_BLOCKS + 1];
  PetscInt nb = PetscMax(PetscMin(nt, GPUPC_CMG_MAX_SCAN_BLOCKS), 1), len = (n + nb - 1) / PetscMax(nb, 1);

  part[0] = 0;
#pragma omp parallel for num_threads(nb) schedule(static, 1)
  for (PetscInt b = 0; b < nb; b++) {
    PetscInt s = 0;
    for (PetscInt i = b * len; i < PetscMin((b + 1) * len, n); i++) s += a[i];
    part[b + 1] = s;
  }
  for (PetscInt b = 0; b < nb; b++) part[b + 1] += part[b];
#pragma omp parallel for num_threads(nb) schedule(static, 1)
  for (PetscInt b = 0; b < nb; b++) {
    PetscInt s = part[b];
    for (PetscInt i = b * len; i < PetscMin((b + 1) * len, n); i++) {
      const PetscInt x = a[i];
      a[i]             = s;
      s += x;
    }
  }
  *total = part[nb];
}

/*@C
   GPUPCCMGGroundDiagonal - the diagonal of the ground row from its m off-diagonal weights w (negative): the sum of -w in
   chunks of GPUPC_CMG_GROUND_CHUNK entries, each chunk added in order from 0, then the chunk sums in order from 0 (the
   order the device setup can add in parallel, so both give the same bits)

   Not Collective

   Level: developer
@*/
PetscReal GPUPCCMGGroundDiagonal(PetscInt m, const PetscReal *w)
{
  PetscReal total = 0.0;

  for (PetscInt c = 0; c < m; c += GPUPC_CMG_GROUND_CHUNK) {
    PetscReal s = 0.0;
    for (PetscInt q = c; q < PetscMin(m, c + GPUPC_CMG_GROUND_CHUNK); q++) s += -w[q];
    total += s;
  }
  return total;
}

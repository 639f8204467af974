/*
   PC gpuamg's multicolour Gauss-Seidel smoother (registered as mcgs), docs/algorithms.md 4.2.

   At setup the rows of a level are coloured greedily on the graph of A + A^T (each row, in order, takes the smallest
   colour none of its neighbours has), so no two rows of a colour are coupled, and a device copy of the level's CSR and
   the rows grouped by colour are uploaded. A sweep is symmetric: the colours forward, then backward, each colour one
   launch of the gs_colour kernel (x_i += (b_i - (A x)_i) / a_ii on its rows). Forward and backward together make the
   smoother symmetric in the A inner product for a symmetric A, so the V-cycle suits CG. One rank only (the colouring
   needs the whole graph of the level; several ranks are refused with an error at setup); no transpose (PCApplyTranspose
   is refused with an error).
*/
#include <gpupc/amgcycle.h>
#include <gpupc/matgpu.h>
#include <gpupc/device.h>

typedef struct {
  PetscInt     ncolours, n, nnz;
  PetscInt    *cptr;                 /* host: rows of colour c are rows[cptr[c] .. cptr[c+1]-1] */
  PetscInt    *d_ai, *d_aj, *d_rows; /* device */
  PetscScalar *d_aa;
} MCGS;

/* greedy colouring of the graph of A + A^T (CSR ai, aj of n rows): colour[i], *nc colours */
static PetscErrorCode Colour(PetscInt n, const PetscInt *ai, const PetscInt *aj, PetscInt *colour, PetscInt *nc)
{
  PetscInt *ti, *tj, *fill, *mark;

  PetscFunctionBegin;
  PetscCall(PetscCalloc2(n + 1, &ti, n, &fill));
  for (PetscInt e = 0; e < ai[n]; e++) ti[aj[e] + 1]++;
  for (PetscInt i = 0; i < n; i++) ti[i + 1] += ti[i];
  PetscCall(PetscMalloc1(ai[n], &tj));
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt e = ai[i]; e < ai[i + 1]; e++) tj[ti[aj[e]] + fill[aj[e]]++] = i;
  PetscCall(PetscMalloc1(n + 1, &mark)); /* mark[c] == i: colour c is taken by a neighbour of i */
  for (PetscInt c = 0; c <= n; c++) mark[c] = -1;
  *nc = 0;
  for (PetscInt i = 0; i < n; i++) colour[i] = -1;
  for (PetscInt i = 0; i < n; i++) {
    PetscInt c = 0;
    for (PetscInt e = ai[i]; e < ai[i + 1]; e++)
      if (aj[e] != i && colour[aj[e]] >= 0) mark[colour[aj[e]]] = i;
    for (PetscInt e = ti[i]; e < ti[i + 1]; e++)
      if (tj[e] != i && colour[tj[e]] >= 0) mark[colour[tj[e]]] = i;
    while (mark[c] == i) c++;
    colour[i] = c;
    *nc       = PetscMax(*nc, c + 1);
  }
  PetscCall(PetscFree2(ti, fill));
  PetscCall(PetscFree(tj));
  PetscCall(PetscFree(mark));
  PetscFunctionReturn(0);
}

static PetscErrorCode SetUpMCGS(PCGPUAMGSmootherLevel *S)
{
  MCGS       *g;
  GPUPCCSR    a;
  PetscInt   *colour, *rows, *fill;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)S->A), &size));
  PetscCheck(size == 1, PetscObjectComm((PetscObject)S->A), PETSC_ERR_SUP, "PC gpuamg: the smoother mcgs works on one rank only; choose another with -pc_gpuamg_smoother");
  PetscCall(PetscNew(&g));
  PetscCall(GPUPCMatGetCSR(S->A, &a));
  g->n   = a.m;
  g->nnz = a.nnz;
  PetscCall(PetscMalloc3(a.m, &colour, a.m, &rows, a.m + 1, &fill));
  PetscCall(Colour(a.m, a.i, a.j, colour, &g->ncolours));
  PetscCall(PetscCalloc1(g->ncolours + 1, &g->cptr));
  for (PetscInt i = 0; i < a.m; i++) g->cptr[colour[i] + 1]++;
  for (PetscInt c = 0; c < g->ncolours; c++) g->cptr[c + 1] += g->cptr[c];
  for (PetscInt c = 0; c < g->ncolours; c++) fill[c] = g->cptr[c];
  for (PetscInt i = 0; i < a.m; i++) rows[fill[colour[i]]++] = i;
  PetscCall(GPUPCMalloc((a.m + 1) * sizeof(PetscInt), (void **)&g->d_ai));
  PetscCall(GPUPCMalloc(PetscMax(a.nnz, 1) * sizeof(PetscInt), (void **)&g->d_aj));
  PetscCall(GPUPCMalloc(PetscMax(a.nnz, 1) * sizeof(PetscScalar), (void **)&g->d_aa));
  PetscCall(GPUPCMalloc(PetscMax(a.m, 1) * sizeof(PetscInt), (void **)&g->d_rows));
  PetscCall(GPUPCCopyToDevice(g->d_ai, a.i, a.m + 1));
  PetscCall(GPUPCCopyToDevice(g->d_aj, a.j, a.nnz));
  PetscCall(GPUPCCopyToDevice(g->d_aa, a.a, a.nnz));
  PetscCall(GPUPCCopyToDevice(g->d_rows, rows, a.m));
  PetscCall(GPUPCMatRestoreCSR(&a));
  PetscCall(PetscFree3(colour, rows, fill));
  S->bytes += (size_t)(g->n + 1 + g->nnz + g->n) * sizeof(PetscInt) + (size_t)g->nnz * sizeof(PetscScalar);
  S->data = g;
  PetscFunctionReturn(0);
}

static PetscErrorCode ApplyMCGS(PCGPUAMGSmootherLevel *S, PetscBool transpose, PetscInt sweeps, PetscBool zero)
{
  MCGS                  *g = (MCGS *)S->data;
  const GPUPCAMGKernels *k = GPUPCAMGSmootherKernels(S);
  const PetscScalar     *dinv, *b;
  PetscScalar           *x;

  PetscFunctionBegin;
  PetscCheck(!transpose, PetscObjectComm((PetscObject)S->A), PETSC_ERR_SUP, "PC gpuamg: the smoother mcgs has no transpose");
  if (zero) PetscCall(VecSet(S->x, 0.0));
  PetscCall(VecGPUGetDeviceArrayRead(S->dinv, &dinv));
  PetscCall(VecGPUGetDeviceArrayRead(S->b, &b));
  PetscCall(VecGPUGetDeviceArray(S->x, &x));
  for (PetscInt s = 0; s < sweeps; s++)
    for (PetscInt t = 0; t < 2 * g->ncolours; t++) { /* forward, then backward */
      const PetscInt c = t < g->ncolours ? t : 2 * g->ncolours - 1 - t;
      PetscCall(k->gs_colour(g->cptr[c + 1] - g->cptr[c], g->d_rows + g->cptr[c], g->d_ai, g->d_aj, g->d_aa, dinv, b, x));
    }
  PetscCall(VecGPURestoreDeviceArray(S->x, &x));
  PetscCall(VecGPURestoreDeviceArrayRead(S->b, &b));
  PetscCall(VecGPURestoreDeviceArrayRead(S->dinv, &dinv));
  /* per sweep twice: the matrix, x read and written, b and dinv */
  PetscCall(GPUPCAMGSmootherCountBytes(S, 2.0 * sweeps * ((PetscReal)g->nnz * (sizeof(PetscScalar) + sizeof(PetscInt)) + 4.0 * sizeof(PetscScalar) * g->n)));
  PetscFunctionReturn(0);
}

static PetscErrorCode DestroyMCGS(PCGPUAMGSmootherLevel *S)
{
  MCGS *g = (MCGS *)S->data;

  PetscFunctionBegin;
  PetscCall(GPUPCFree(g->d_ai));
  PetscCall(GPUPCFree(g->d_aj));
  PetscCall(GPUPCFree(g->d_aa));
  PetscCall(GPUPCFree(g->d_rows));
  PetscCall(PetscFree(g->cptr));
  PetscCall(PetscFree(S->data));
  PetscFunctionReturn(0);
}

static PetscErrorCode ViewMCGS(PCGPUAMGSmootherLevel *S, PetscViewer v)
{
  MCGS *g = (MCGS *)S->data;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(v, "mcgs: symmetric multicolour Gauss-Seidel, %" PetscInt_FMT " colours on level 0 (greedy on A + A^T), a launch per colour and direction\n", g ? g->ncolours : 0));
  PetscFunctionReturn(0);
}

const PCGPUAMGSmootherOps GPUPCAMGSmootherOpsMCGS = {SetUpMCGS, ApplyMCGS, ViewMCGS, DestroyMCGS, 1, PETSC_FALSE, PETSC_TRUE, PETSC_FALSE, PETSC_TRUE, PETSC_FALSE};

/*
   PC gpuamg's multicolour Gauss-Seidel smoother (registered as mcgs), docs/algorithms.md 4.2.

   Setup, on the device: the level's device CSR (the device setup's own, GPUPCDevCSR of the level; after the host setup
   an upload of the host level), its pattern's transpose (the shared sparse transpose), the colouring of A + A^T by the
   kernel-table member colour (Jones-Plassmann rounds with hash priorities: the greedy colouring in priority order), and
   the rows grouped by colour by the shared COO sort (colour as the key, rows in increasing order within a colour). No
   level is read on the host, so the device setup keeps no host levels for it.

   A sweep is symmetric: the colours forward, then backward. The colours with many rows (the first ones: greedy
   colours shrink) are one gs_colour launch each, over the whole GPU; the run of small colours after them (estimated
   entries rows_c * nnz/n at most block_nnz) is one gs_block launch that walks them forward and back inside one block
   of 1024 threads with a barrier between colours, so a coarse level of hundreds of colours costs a few launches, not
   hundreds. Rows are read by groups of lanes (1 .. 32) by the level's mean row length, so a row of 400 entries is not
   400 serial loads of one thread. Forward and backward together make the smoother symmetric in the A inner product for
   a symmetric A, so the V-cycle suits CG. One rank only (the colouring needs the whole graph of the level; several
   ranks are refused with an error at setup); no transpose (PCApplyTranspose is refused with an error).

   Launch shapes: PCGPUAMGSetMCGSTuning() (-pc_gpuamg_mcgs_block_nnz <8192>, 0: no gs_block, every colour its own
   launch; -pc_gpuamg_mcgs_lanes <0: by the mean row length; 1, 2, 4, 8, 16 or 32>).
*/
#include <gpupc/amgcycle.h>
#include <gpupc/matgpu.h>
#include <gpupc/device.h>

/* a colour of at most this many estimated entries goes to the gs_block launch when every colour after it does too:
   about 100 KB, what one SM reads in about the time of a launch inside a recorded cycle (a few microseconds) */

typedef struct {
  PetscInt           n, nnz;
  PetscInt           ncolours, rounds; /* the colouring's colours and rounds */
  PetscInt           nbig;             /* colours 0 .. nbig-1 one launch each, nbig .. ncolours-1 one gs_block launch */
  PetscInt           lanes;            /* lanes per row */
  PetscInt          *cptr;             /* host: rows of colour c are rows[cptr[c] .. cptr[c+1]-1] */
  PetscInt          *d_cptr, *d_rows;  /* device */
  const PetscInt    *ai, *aj;          /* the level's device CSR: the device setup's, or the copies below */
  const PetscScalar *aa;
  PetscInt          *own_i, *own_j; /* device copies of a host level (host setup), else NULL */
  PetscScalar       *own_a;
} MCGS;

/* lanes per row by the mean row length m: one thread up to 16 entries, then about 4 entries per lane, at most a warp */
static PetscInt LanesFor(PetscReal m)
{
  PetscInt g = 1;

  if (m < 16) return 1;
  while (g < 32 && 4 * (2 * g) <= m) g *= 2;
  return g;
}

/* the colouring and the rows by colour of the n x n device CSR pattern (ai, aj) */
static PetscErrorCode ColourDevice(MCGS *g, const GPUPCAMGKernels *k)
{
  const GPUPCSparseKernels *sk;
  GPUPCDevCSR               A, T;
  PetscInt                 *perm, *colour, *dst, *Ci, *Cj, nkept, nd;

  PetscFunctionBegin;
  if (g->n == 0) { /* no rows: no colour */
    PetscCall(PetscCalloc1(1, &g->cptr));
    PetscCall(GPUPCMallocArray(1, &g->d_cptr));
    PetscCall(GPUPCCopyToDevice(g->d_cptr, g->cptr, 1));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscMemzero(&A, sizeof(A)));
  A.m = A.n = g->n;
  A.nnz     = g->nnz;
  A.i       = (PetscInt *)g->ai;
  A.j       = (PetscInt *)g->aj;
  PetscCall(GPUPCDevCSRTranspose(&A, MAT_INITIAL_MATRIX, &T, &perm, NULL)); /* pattern only (A.a is NULL) */
  PetscCall(GPUPCFree(perm));
  PetscCall(GPUPCMallocArray(g->n, &colour));
  PetscCall(k->colour(g->n, g->ai, g->aj, T.i, T.j, colour, &g->ncolours, &g->rounds));
  PetscCall(GPUPCDevCSRDestroy(&T));
  /* rows by colour: COO entries (colour[i], colour[i]) sorted, equal keys in input order (increasing rows); perm is
     then the rows grouped by colour and seg the colours' starts */
  PetscCall(GPUPCGetSparseKernels(&sk));
  PetscCall(GPUPCMallocArray(g->n, &g->d_rows));
  PetscCall(GPUPCMallocArray(g->n, &dst));
  PetscCall(GPUPCMallocArray(g->ncolours + 1, &Ci));
  PetscCall(GPUPCMallocArray(g->ncolours, &Cj));
  PetscCall(GPUPCMallocArray(g->ncolours + 1, &g->d_cptr));
  PetscCall(sk->coo_sort(g->ncolours, g->ncolours, g->n, colour, colour, g->d_rows, dst, Ci, &nkept, &nd, NULL));
  PetscCheck(nkept == g->n && nd == g->ncolours, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PC gpuamg mcgs: %" PetscInt_FMT " rows in %" PetscInt_FMT " colours after the sort, expected %" PetscInt_FMT " in %" PetscInt_FMT, nkept, nd, g->n, g->ncolours);
  PetscCall(sk->coo_pattern(nkept, g->d_rows, dst, colour, nd, Cj, g->d_cptr));
  PetscCall(PetscMalloc1(g->ncolours + 1, &g->cptr));
  PetscCall(GPUPCCopyToHost(g->cptr, g->d_cptr, g->ncolours + 1));
  PetscCall(GPUPCFree(dst));
  PetscCall(GPUPCFree(Ci));
  PetscCall(GPUPCFree(Cj));
  PetscCall(GPUPCFree(colour));
  PetscFunctionReturn(0);
}

static PetscErrorCode SetUpMCGS(PCGPUAMGSmootherLevel *S)
{
  GPUPCAMGDevice      *D = (GPUPCAMGDevice *)S->cycle;
  GPUPCAMGDeviceLevel *L = &D->levels[S->level];
  MCGS                *g;
  PetscMPIInt          size;
  PetscInt             blocknnz = D->opts.mcgs_block_nnz, lanes = D->opts.mcgs_lanes; /* PCGPUAMGSetMCGSTuning() */
  PetscReal            mean;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)S->A), &size));
  PetscCheck(size == 1, PetscObjectComm((PetscObject)S->A), PETSC_ERR_SUP, "PC gpuamg: the smoother mcgs works on one rank only; choose another with -pc_gpuamg_smoother");
  PetscCall(PetscNew(&g));
  S->data = g;   /* GPUPCAMGSmootherDestroy frees what is made from here on, also after an error */
  if (L->dcsr) { /* the device setup's CSR of the level: read in place */
    g->n   = L->dcsr->m;
    g->nnz = L->dcsr->nnz;
    g->ai  = L->dcsr->i;
    g->aj  = L->dcsr->j;
    g->aa  = L->dcsr->a;
    PetscCheck(g->aa, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PC gpuamg mcgs: the device CSR of level %" PetscInt_FMT " has no values", S->level);
  } else { /* the host setup's level: one upload */
    GPUPCCSR a;

    PetscCall(GPUPCMatGetCSR(S->A, &a));
    g->n   = a.m;
    g->nnz = a.nnz;
    PetscCall(GPUPCMallocArray(a.m + 1, &g->own_i));
    PetscCall(GPUPCMallocArray(PetscMax(a.nnz, 1), &g->own_j));
    PetscCall(GPUPCMallocArray(PetscMax(a.nnz, 1), &g->own_a));
    PetscCall(GPUPCCopyToDevice(g->own_i, a.i, a.m + 1));
    PetscCall(GPUPCCopyToDevice(g->own_j, a.j, a.nnz));
    PetscCall(GPUPCCopyToDevice(g->own_a, a.a, a.nnz));
    PetscCall(GPUPCMatRestoreCSR(&a));
    g->ai = g->own_i;
    g->aj = g->own_j;
    g->aa = g->own_a;
    S->bytes += (size_t)(g->n + 1 + g->nnz) * sizeof(PetscInt) + (size_t)g->nnz * sizeof(PetscScalar);
  }
  PetscCall(ColourDevice(g, GPUPCAMGSmootherKernels(S)));
  mean     = g->n ? (PetscReal)g->nnz / g->n : 0;
  g->lanes = lanes ? lanes : LanesFor(mean);
  g->nbig  = g->ncolours; /* the colours after the last one above blocknnz go into one block */
  while (g->nbig > 0 && (PetscReal)(g->cptr[g->nbig] - g->cptr[g->nbig - 1]) * mean <= (PetscReal)blocknnz) g->nbig--;
  S->bytes += (size_t)(g->n + g->ncolours + 1) * sizeof(PetscInt);
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
  for (PetscInt s = 0; s < sweeps; s++) { /* colours 0 .. nc-1, then nc-1 .. 0; the small ones in one launch */
    for (PetscInt c = 0; c < g->nbig; c++) PetscCall(k->gs_colour(g->cptr[c + 1] - g->cptr[c], g->lanes, g->d_rows + g->cptr[c], g->ai, g->aj, g->aa, dinv, b, x));
    if (g->nbig < g->ncolours) PetscCall(k->gs_block(g->nbig, g->ncolours, 2, g->lanes, g->d_cptr, g->d_rows, g->ai, g->aj, g->aa, dinv, b, x));
    for (PetscInt c = g->nbig - 1; c >= 0; c--) PetscCall(k->gs_colour(g->cptr[c + 1] - g->cptr[c], g->lanes, g->d_rows + g->cptr[c], g->ai, g->aj, g->aa, dinv, b, x));
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
  PetscCall(GPUPCFree(g->own_i));
  PetscCall(GPUPCFree(g->own_j));
  PetscCall(GPUPCFree(g->own_a));
  PetscCall(GPUPCFree(g->d_rows));
  PetscCall(GPUPCFree(g->d_cptr));
  PetscCall(PetscFree(g->cptr));
  PetscCall(PetscFree(S->data));
  PetscFunctionReturn(0);
}

/* launches of one sweep on a level: a gs_colour per large colour and direction, one gs_block for the small ones */
static PetscInt SweepLaunches(const MCGS *g)
{
  return 2 * g->nbig + (g->nbig < g->ncolours ? 1 : 0);
}

/* every smoothed level's colouring and launches (level 0's S is the one the PC views; the others come through the
   cycle) */
static PetscErrorCode ViewMCGS(PCGPUAMGSmootherLevel *S, PetscViewer v)
{
  const GPUPCAMGDevice *D     = (const GPUPCAMGDevice *)S->cycle;
  PetscInt              total = 0, old = 0;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(v, "mcgs: symmetric multicolour Gauss-Seidel, coloured on the device (Jones-Plassmann rounds, hash priorities, smallest free colour, on A + A^T)\n"));
  if (!D) PetscFunctionReturn(0);
  PetscCall(PetscViewerASCIIPrintf(v, "mcgs level     rows  colours rounds lanes  one-launch colours  in one block  launches/sweep\n"));
  for (PetscInt l = 0; l < D->nlevels - 1; l++) {
    const MCGS *g = (const MCGS *)D->levels[l].sm.data;

    if (!g) continue;
    PetscCall(PetscViewerASCIIPrintf(v, "mcgs %5" PetscInt_FMT " %8" PetscInt_FMT " %8" PetscInt_FMT " %6" PetscInt_FMT " %5" PetscInt_FMT " %19" PetscInt_FMT " %13" PetscInt_FMT " %15" PetscInt_FMT "\n", l, g->n, g->ncolours, g->rounds, g->lanes, g->nbig, g->ncolours - g->nbig, SweepLaunches(g)));
    total += (D->opts.pre + D->opts.post) * SweepLaunches(g);
    old += (D->opts.pre + D->opts.post) * 2 * g->ncolours;
  }
  PetscCall(PetscViewerASCIIPrintf(v, "mcgs: %" PetscInt_FMT " smoother launches per V-cycle (%" PetscInt_FMT " pre- and %" PetscInt_FMT " post-sweeps per level; one launch per colour and direction would be %" PetscInt_FMT ")\n", total, D->opts.pre, D->opts.post, old));
  PetscFunctionReturn(0);
}

const PCGPUAMGSmootherOps GPUPCAMGSmootherOpsMCGS = {SetUpMCGS, ApplyMCGS, ViewMCGS, DestroyMCGS, 1, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE};

/*
   Strength of connection for PC gpuamg's setup (gpupc/amgsetup.h).

   Classical: j strongly influences i when -s a_ij >= theta max_{k != i}(-s a_ik), s = sign(a_ii), the maximum taken
   over the whole row (couplings to other ranks included). A row without negative couplings (only positive
   off-diagonals) uses the absolute values instead: |a_ij| >= theta max_k |a_ik|.
   Aggregation: on nodes (blocks of bs rows), J strongly connected to I when ||A_IJ|| >= eps sqrt(||A_II|| ||A_JJ||)
   (Frobenius norms); eps = 0 keeps every nonzero coupling.
   Rows are computed independently (count, then fill), so the graph does not depend on the thread count.
*/
#include <gpupc/amgsetup.h>
#if defined(_OPENMP)
#include <omp.h>
#endif

static PetscInt StrongRow(const GPUPCAMGLocal *L, PetscReal theta, PetscInt r, PetscInt *out, char *ext)
{
  PetscReal s = L->diag[r] < 0.0 ? -1.0 : 1.0, mneg = L->offmaxneg[r], mabs = L->offmaxabs[r];
  PetscInt  c = 0;

  for (PetscInt e = L->i[r]; e < L->i[r + 1]; e++) {
    if (L->j[e] == r || !GPUPC_AMG_SAMEF(L, r, L->j[e])) continue;
    mneg = PetscMax(mneg, -s * L->a[e]);
    mabs = PetscMax(mabs, PetscAbsReal(L->a[e]));
  }
  if (ext) *ext = (char)(mneg > 0.0 ? L->offmaxneg[r] > 0.0 && L->offmaxneg[r] >= theta * mneg : L->offmaxabs[r] > 0.0 && L->offmaxabs[r] >= theta * mabs);
  if (mneg > 0.0) {
    for (PetscInt e = L->i[r]; e < L->i[r + 1]; e++)
      if (L->j[e] != r && GPUPC_AMG_SAMEF(L, r, L->j[e]) && -s * L->a[e] > 0.0 && -s * L->a[e] >= theta * mneg) {
        if (out) out[c] = L->j[e];
        c++;
      }
  } else if (mabs > 0.0) {
    for (PetscInt e = L->i[r]; e < L->i[r + 1]; e++)
      if (L->j[e] != r && GPUPC_AMG_SAMEF(L, r, L->j[e]) && PetscAbsReal(L->a[e]) >= theta * mabs) {
        if (out) out[c] = L->j[e];
        c++;
      }
  }
  return c;
}

/*@C
   GPUPCAMGStrengthClassical - the classical strength graph of the local part of a level matrix

   Not Collective

   Input Parameters:
+  L       - the local part
.  theta   - the strength threshold (0 < theta < 1; 0.25 is usual in 2D, 0.5 in 3D)
-  threads - host threads

   Output Parameter:
.  S - the graph and its transpose (free with GPUPCAMGStrengthFree())

   Level: developer

.seealso: GPUPCAMGStrengthAgg(), GPUPCAMGCoarsen()
@*/
PetscErrorCode GPUPCAMGStrengthClassical(const GPUPCAMGLocal *L, PetscReal theta, PetscInt threads, GPUPCAMGStrength *S)
{
  PetscInt n = L->ne ? L->ne : L->n; /* the held rows: with ghosts (coarsening across ranks), the ghosts' rows too */

  PetscFunctionBegin;
  PetscCheck(theta >= 0.0 && theta <= 1.0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "the strength threshold must be in [0, 1], got %g (-pc_gpuamg_strong_threshold)", (double)theta);
  PetscCall(PetscMemzero(S, sizeof(*S)));
  S->n  = n;
  S->nx = PetscMax(L->nx, n);
  PetscCall(PetscMalloc1(n + 1, &S->i));
  S->i[0] = 0;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (PetscInt r = 0; r < n; r++) S->i[r + 1] = StrongRow(L, theta, r, NULL, NULL);
  for (PetscInt r = 0; r < n; r++) S->i[r + 1] += S->i[r];
  PetscCall(PetscMalloc1(S->i[n], &S->j));
  if (L->N > L->n && !L->sf) PetscCall(PetscMalloc1(n, &S->ext)); /* with ghosts every coupling is in the graph */
#pragma omp parallel for num_threads(threads) schedule(static)
  for (PetscInt r = 0; r < n; r++) (void)StrongRow(L, theta, r, S->j + S->i[r], S->ext ? S->ext + r : NULL);
  PetscCall(GPUPCAMGStrengthTranspose(S, threads));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGStrengthTranspose - fills S->ti, S->tj (who depends on each of the max(nx, n) points, in ascending order)
   from S->i, S->j

   Not Collective

   Input Parameters:
+  S       - the graph
-  threads - host threads

   Level: developer

.seealso: GPUPCAMGStrengthClassical()
@*/
PetscErrorCode GPUPCAMGStrengthTranspose(GPUPCAMGStrength *S, PetscInt threads)
{
  PetscFunctionBegin;
  PetscCall(GPUPCAMGTransposeCSR(S->n, PetscMax(S->nx, S->n), S->i, S->j, NULL, threads, &S->ti, &S->tj, NULL));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGStrengthFree - frees a strength graph

   Not Collective

   Level: developer

.seealso: GPUPCAMGStrengthClassical()
@*/
PetscErrorCode GPUPCAMGStrengthFree(GPUPCAMGStrength *S)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(S->i));
  PetscCall(PetscFree(S->j));
  PetscCall(PetscFree(S->ti));
  PetscCall(PetscFree(S->tj));
  PetscCall(PetscFree(S->ext));
  S->n  = 0;
  S->nx = 0;
  PetscFunctionReturn(0);
}

/* squared Frobenius norms of the blocks of node ni, accumulated in acc[nj] (list of touched nj in nb) */
static PetscInt NodeBlocks(const GPUPCAMGLocal *L, PetscInt bs, PetscInt ni, PetscReal *acc, PetscInt *list)
{
  PetscInt cnt = 0;

  for (PetscInt r = ni * bs; r < (ni + 1) * bs; r++)
    for (PetscInt e = L->i[r]; e < L->i[r + 1]; e++) {
      PetscInt nj = L->j[e] / bs;
      if (acc[nj] < 0.0) {
        acc[nj]     = 0.0;
        list[cnt++] = nj;
      }
      acc[nj] += L->a[e] * L->a[e];
    }
  return cnt;
}

/*@C
   GPUPCAMGStrengthAgg - the aggregation strength graph of the nodes (blocks of bs rows) of the local part

   Not Collective

   Input Parameters:
+  L       - the local part
.  bs      - rows per node (the block size; L->n must be a multiple)
.  eps     - threshold: ||A_IJ|| >= eps sqrt(||A_II|| ||A_JJ||) (Frobenius norms), 0 keeps every coupling
-  threads - host threads

   Output Parameter:
.  S - the node graph (symmetric when A is), with its transpose

   Level: developer

.seealso: GPUPCAMGAggregate()
@*/
PetscErrorCode GPUPCAMGStrengthAgg(const GPUPCAMGLocal *L, PetscInt bs, PetscReal eps, PetscInt threads, GPUPCAMGStrength *S)
{
  PetscInt   nn;
  PetscReal *dnorm;

  PetscFunctionBegin;
  PetscCheck(bs >= 1 && L->n % bs == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "the local rows (%" PetscInt_FMT ") are not a multiple of the block size %" PetscInt_FMT, L->n, bs);
  PetscCheck(eps >= 0.0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "the aggregation threshold must be >= 0, got %g (-pc_gpuamg_agg_threshold)", (double)eps);
  nn = L->n / bs;
  PetscCall(PetscMemzero(S, sizeof(*S)));
  S->n = nn;
  PetscCall(PetscMalloc1(nn, &dnorm));
  PetscCall(PetscMalloc1(nn + 1, &S->i));
  S->i[0] = 0;
  for (PetscInt ni = 0; ni < nn; ni++) {
    PetscReal d = 0.0;
    for (PetscInt r = ni * bs; r < (ni + 1) * bs; r++)
      for (PetscInt e = L->i[r]; e < L->i[r + 1]; e++)
        if (L->j[e] / bs == ni) d += L->a[e] * L->a[e];
    dnorm[ni] = PetscSqrtReal(d);
  }
  for (PetscInt pass = 0; pass < 2; pass++) {
    if (pass == 1) {
      for (PetscInt ni = 0; ni < nn; ni++) S->i[ni + 1] += S->i[ni];
      PetscCall(PetscMalloc1(S->i[nn], &S->j));
    }
#pragma omp parallel num_threads(threads)
    {
      PetscReal *acc;
      PetscInt  *list;

      acc  = (PetscReal *)malloc(sizeof(PetscReal) * (size_t)PetscMax(nn, 1));
      list = (PetscInt *)malloc(sizeof(PetscInt) * (size_t)PetscMax(nn, 1));
      for (PetscInt nj = 0; nj < nn; nj++) acc[nj] = -1.0;
#pragma omp for schedule(static)
      for (PetscInt ni = 0; ni < nn; ni++) {
        PetscInt cnt = NodeBlocks(L, bs, ni, acc, list), c = 0;
        /* sorted output: the list in ascending order */
        for (PetscInt q = 1; q < cnt; q++) {
          PetscInt v = list[q], p = q;
          while (p > 0 && list[p - 1] > v) {
            list[p] = list[p - 1];
            p--;
          }
          list[p] = v;
        }
        for (PetscInt q = 0; q < cnt; q++) {
          PetscInt  nj  = list[q];
          PetscReal nrm = PetscSqrtReal(acc[nj]);
          if (nj != ni && nrm > 0.0 && nrm >= eps * PetscSqrtReal(dnorm[ni] * dnorm[nj])) {
            if (pass == 1) S->j[S->i[ni] + c] = nj;
            c++;
          }
          acc[nj] = -1.0;
        }
        if (pass == 0) S->i[ni + 1] = c;
      }
      free(acc);
      free(list);
    }
  }
  PetscCall(PetscFree(dnorm));
  if (L->N > L->n) {
    PetscCall(PetscCalloc1(nn, &S->ext));
    for (PetscInt r = 0; r < L->n; r++)
      if (L->offcnt[r] > 0) S->ext[r / bs] = 1;
  }
  PetscCall(GPUPCAMGStrengthTranspose(S, threads));
  PetscFunctionReturn(0);
}

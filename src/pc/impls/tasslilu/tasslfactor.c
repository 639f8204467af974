/*
   ILU(k) on the host, in our own CSR layout (gpupc/tassl.h): symbolic factorization by levels of fill, numeric
   factorization that reuses the symbolic one (and every schedule built on it) when only the values change.

   Levels of fill: an entry of A has level 0; eliminating row k from row i adds entry (i, j) with level
   lev(i, k) + lev(k, j) + 1, kept when that is at most k (the smallest level over all k counts). The
   numeric factorization is the IKJ variant restricted to the pattern: row i of A is scattered into the
   pattern, each l_ik = w_k / u_kk (k < i, ascending) subtracts l_ik times row k of U from the positions of
   the pattern, and the pivot u_ii is checked against zeropivot times the absolute row sum of A.
*/
#include <gpupc/tassl.h>

#define END PETSC_MAX_INT

/* appends (col, lev) to the growing arrays */
static PetscErrorCode Push(PetscInt *cnt, PetscInt *cap, PetscInt **aj, PetscInt **lev, PetscInt col, PetscInt l)
{
  PetscFunctionBegin;
  if (*cnt == *cap) {
    PetscInt  ncap = PetscMax(16, 2 * *cap);
    PetscInt *naj, *nlev;
    PetscCall(PetscMalloc2(ncap, &naj, ncap, &nlev));
    PetscCall(PetscArraycpy(naj, *aj, *cnt));
    PetscCall(PetscArraycpy(nlev, *lev, *cnt));
    PetscCall(PetscFree2(*aj, *lev));
    *aj  = naj;
    *lev = nlev;
    *cap = ncap;
  }
  (*aj)[*cnt]  = col;
  (*lev)[*cnt] = l;
  (*cnt)++;
  PetscFunctionReturn(0);
}

/*@C
   GPUPCILUSymbolic - the pattern of the ILU(levels) factor of a square CSR matrix, in the ordering rperm, cperm

   Not Collective

   Input Parameters:
+  n - rows (and columns)
.  ai, aj - the matrix pattern (CSR; rows need not be sorted, no duplicates)
.  rperm, cperm - row i of the factor is row rperm[i] of A, column j is column cperm[j] (NULL: identity; copied)
-  levels - the level of fill k >= 0

   Output Parameter:
.  F - the factor (values not yet computed; see GPUPCILUNumeric())

   Level: developer

.seealso: GPUPCILUNumeric(), GPUPCILUDestroy()
@*/
PetscErrorCode GPUPCILUSymbolic(PetscInt n, const PetscInt *ai, const PetscInt *aj, const PetscInt *rperm, const PetscInt *cperm, PetscInt levels, GPUPCILU *F)
{
  PetscInt *nxt, *lvl, *fj = NULL, *flev = NULL, *mark, cnt = 0, cap = 0;

  PetscFunctionBegin;
  PetscCheck(levels >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "ILU levels of fill must be >= 0, not %" PetscInt_FMT, levels);
  PetscCall(PetscMemzero(F, sizeof(*F)));
  F->n           = n;
  F->levels      = levels;
  F->nnzA        = n ? ai[n] : 0;
  F->shift       = GPUPC_ILU_SHIFT_NONE;
  F->zeropivot   = 100.0 * PETSC_MACHINE_EPSILON;
  F->shiftamount = PETSC_DEFAULT;
  if (rperm) {
    PetscCall(PetscMalloc1(n, &F->rperm));
    PetscCall(PetscArraycpy(F->rperm, rperm, n));
  }
  if (cperm) {
    PetscCall(PetscMalloc2(n, &F->cperm, n, &F->cinv));
    PetscCall(PetscArraycpy(F->cperm, cperm, n));
    for (PetscInt j = 0; j < n; j++) F->cinv[j] = -1;
    for (PetscInt j = 0; j < n; j++) {
      PetscCheck(cperm[j] >= 0 && cperm[j] < n && F->cinv[cperm[j]] < 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "column ordering is not a permutation (entry %" PetscInt_FMT ")", j);
      F->cinv[cperm[j]] = j;
    }
  }
  PetscCall(PetscMalloc1(n + 1, &F->ai));
  PetscCall(PetscMalloc1(n, &F->adiag));
  PetscCall(PetscMalloc3(n + 1, &nxt, n, &lvl, n, &mark));
  for (PetscInt j = 0; j < n; j++) mark[j] = -1;
  F->ai[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    const PetscInt ra = rperm ? rperm[i] : i, head = n;
    PetscInt       p, k;

    PetscCheck(ra >= 0 && ra < n, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "row ordering entry %" PetscInt_FMT " is %" PetscInt_FMT ", outside 0 .. %" PetscInt_FMT, i, ra, n - 1);
    /* row ra of A in factor columns, and the diagonal, as a sorted linked list at level 0 */
    nxt[head] = END;
    for (PetscInt q = ai[ra] - 1; q < ai[ra + 1]; q++) {
      PetscInt j = i;
      if (q >= ai[ra]) {
        PetscCheck(aj[q] >= 0 && aj[q] < n, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "row %" PetscInt_FMT " has column %" PetscInt_FMT " outside 0 .. %" PetscInt_FMT, ra, aj[q], n - 1);
        j = F->cinv ? F->cinv[aj[q]] : aj[q];
      }
      for (p = head; nxt[p] < j; p = nxt[p]) {}
      if (nxt[p] == j) continue;
      nxt[j] = nxt[p];
      nxt[p] = j;
      lvl[j] = 0;
    }
    /* eliminate with the rows k < i of the list, in ascending order */
    if (levels > 0) {
      for (k = nxt[head]; k < i; k = nxt[k]) {
        p = k;
        for (PetscInt q = F->adiag[k] + 1; q < F->ai[k + 1]; q++) {
          PetscInt j = fj[q], l = lvl[k] + flev[q] + 1;
          if (l > levels) continue;
          while (nxt[p] < j) p = nxt[p];
          if (nxt[p] == j) lvl[j] = PetscMin(lvl[j], l);
          else {
            nxt[j] = nxt[p];
            nxt[p] = j;
            lvl[j] = l;
          }
          p = j;
        }
      }
    }
    for (k = nxt[head]; k != END; k = nxt[k]) {
      if (k == i) F->adiag[i] = cnt;
      PetscCall(Push(&cnt, &cap, &fj, &flev, k, lvl[k]));
    }
    F->ai[i + 1] = cnt;
  }
  /* the factor arrays at their size, and where A's entries land */
  PetscCall(PetscMalloc1(cnt, &F->aj));
  PetscCall(PetscArraycpy(F->aj, fj, cnt));
  PetscCall(PetscFree2(fj, flev));
  PetscCall(PetscCalloc1(cnt, &F->aa));
  PetscCall(PetscMalloc1(F->nnzA, &F->amap));
  for (PetscInt i = 0; i < n; i++) {
    const PetscInt ra = rperm ? rperm[i] : i;
    for (PetscInt q = F->ai[i]; q < F->ai[i + 1]; q++) mark[F->aj[q]] = q;
    for (PetscInt q = ai[ra]; q < ai[ra + 1]; q++) F->amap[q] = mark[F->cinv ? F->cinv[aj[q]] : aj[q]];
    for (PetscInt q = F->ai[i]; q < F->ai[i + 1]; q++) mark[F->aj[q]] = -1;
  }
  PetscCall(PetscFree3(nxt, lvl, mark));
  PetscFunctionReturn(0);
}

/* one numeric pass with the diagonal shifted by alpha; *bad: the first row (factor numbering) whose pivot failed the
   check, or -1 */
static PetscErrorCode NumericPass(GPUPCILU *F, const PetscInt *ai, const PetscScalar *a, PetscReal alpha, PetscBool stopatbad, PetscInt *bad, PetscScalar *badpivot, PetscReal *badtol, PetscInt *mark)
{
  const PetscInt n = F->n;

  PetscFunctionBegin;
  *bad        = -1;
  F->nshifted = 0;
  PetscCall(PetscArrayzero(F->aa, F->ai[n]));
  for (PetscInt i = 0; i < n; i++) {
    const PetscInt ra = F->rperm ? F->rperm[i] : i;
    PetscReal      rs = 0.0, tol;
    PetscScalar    piv;

    for (PetscInt q = ai[ra]; q < ai[ra + 1]; q++) {
      F->aa[F->amap[q]] += a[q];
      rs += PetscAbsScalar(a[q]);
    }
    F->aa[F->adiag[i]] += alpha;
    for (PetscInt q = F->ai[i]; q < F->ai[i + 1]; q++) mark[F->aj[q]] = q;
    for (PetscInt p = F->ai[i]; p < F->adiag[i]; p++) {
      const PetscInt k = F->aj[p];
      PetscScalar    l = F->aa[p] / F->aa[F->adiag[k]];
      F->aa[p]         = l;
      if (l == 0.0) continue;
      for (PetscInt q = F->adiag[k] + 1; q < F->ai[k + 1]; q++) {
        PetscInt m = mark[F->aj[q]];
        if (m >= 0) F->aa[m] -= l * F->aa[q];
      }
    }
    for (PetscInt q = F->ai[i]; q < F->ai[i + 1]; q++) mark[F->aj[q]] = -1;
    piv = F->aa[F->adiag[i]];
    tol = F->zeropivot * (rs > 0.0 ? rs : 1.0);
    if (F->shift == GPUPC_ILU_SHIFT_NONZERO && PetscAbsScalar(piv) <= tol) {
      PetscReal amount   = F->shiftamount == (PetscReal)PETSC_DEFAULT ? 1e-8 * (rs > 0.0 ? rs : 1.0) : F->shiftamount;
      F->aa[F->adiag[i]] = PetscRealPart(piv) >= 0.0 ? piv + amount : piv - amount;
      F->nshifted++;
      piv = F->aa[F->adiag[i]];
    }
    if (PetscIsInfOrNanScalar(piv) || PetscAbsScalar(piv) <= tol || (F->shift == GPUPC_ILU_SHIFT_POSITIVE_DEFINITE && PetscRealPart(piv) <= 0.0)) {
      if (*bad < 0) {
        *bad      = i;
        *badpivot = piv;
        *badtol   = tol;
      }
      if (stopatbad) break;
    }
  }
  PetscFunctionReturn(0);
}

/*@C
   GPUPCILUNumeric - the values of the ILU factor of A (same pattern as given to GPUPCILUSymbolic())

   Not Collective

   Input Parameters:
+  F - the symbolic factor; F->shift, F->shiftamount, F->zeropivot say what to do with small pivots
-  ai, aj, a - A in CSR (the pattern given to GPUPCILUSymbolic())

   Level: developer

   Notes:
   A pivot u_ii fails when |u_ii| <= zeropivot * (absolute sum of row i of A), or is not finite. With shift none
   that is an error naming the row; with nonzero the pivot is moved away from zero by the shift amount (default
   1e-8 times the row sum); with positive_definite the whole diagonal is shifted by alpha (default: 1e-6 times the
   largest absolute row sum, doubled until every pivot is positive, at most 40 times), as Manteuffel's shift.

.seealso: GPUPCILUSymbolic()
@*/
PetscErrorCode GPUPCILUNumeric(GPUPCILU *F, const PetscInt *ai, const PetscInt *aj, const PetscScalar *a)
{
  const PetscInt n = F->n;
  PetscInt      *mark, bad;
  PetscScalar    badpiv = 0.0;
  PetscReal      badtol = 0.0, alpha = 0.0;

  PetscFunctionBegin;
  (void)aj;
  PetscCall(PetscMalloc1(n, &mark));
  for (PetscInt j = 0; j < n; j++) mark[j] = -1;
  F->shiftused = 0.0;
  PetscCall(NumericPass(F, ai, a, 0.0, PETSC_TRUE, &bad, &badpiv, &badtol, mark));
  if (bad >= 0 && F->shift == GPUPC_ILU_SHIFT_POSITIVE_DEFINITE) {
    PetscReal maxrs = 0.0;
    for (PetscInt i = 0; i < n; i++) {
      PetscReal rs = 0.0;
      for (PetscInt q = ai[i]; q < ai[i + 1]; q++) rs += PetscAbsScalar(a[q]);
      maxrs = PetscMax(maxrs, rs);
    }
    alpha = F->shiftamount == (PetscReal)PETSC_DEFAULT ? 1e-6 * (maxrs > 0.0 ? maxrs : 1.0) : F->shiftamount;
    for (PetscInt t = 0; t < 40 && bad >= 0; t++, alpha *= 2.0) {
      PetscCall(NumericPass(F, ai, a, alpha, PETSC_TRUE, &bad, &badpiv, &badtol, mark));
      if (bad < 0) F->shiftused = alpha;
    }
  }
  PetscCall(PetscFree(mark));
  if (bad >= 0) {
    const PetscInt row = F->rowoffset + (F->rperm ? F->rperm[bad] : bad);
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT, "Zero pivot in the ILU(%" PetscInt_FMT ") factorization at row %" PetscInt_FMT " of the matrix (row %" PetscInt_FMT " of the factor ordering): pivot %g, tolerance %g%s. Use -pc_tasslilu_shift nonzero or positive_definite (or -pc_factor_shift_type with -pc_factor_mat_solver_type tassl), or another ordering", F->levels, row, bad, (double)PetscRealPart(badpiv),
            (double)badtol, F->shift == GPUPC_ILU_SHIFT_POSITIVE_DEFINITE ? " after 40 doublings of the positive-definite shift" : "");
  }
  PetscFunctionReturn(0);
}

/*@C
   GPUPCILUDestroy - frees an ILU factor

   Level: developer
@*/
PetscErrorCode GPUPCILUDestroy(GPUPCILU *F)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(F->ai));
  PetscCall(PetscFree(F->aj));
  PetscCall(PetscFree(F->adiag));
  PetscCall(PetscFree(F->aa));
  PetscCall(PetscFree(F->rperm));
  PetscCall(PetscFree2(F->cperm, F->cinv));
  PetscCall(PetscFree(F->amap));
  PetscCall(PetscMemzero(F, sizeof(*F)));
  PetscFunctionReturn(0);
}

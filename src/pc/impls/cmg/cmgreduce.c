/*
   CMG input reduction (ALGORITHMS.md 2.1): from a symmetric diagonally dominant matrix to
   the level-0 Laplacian.
     - symmetry check (relative tolerance),
     - positive off-diagonals -> double cover [[D+An, -Ap], [-Ap, D+An]] (or an error),
     - Dirichlet rows (diagonal only) are left out of the Laplacian and eliminated exactly: x_B = b_B / a_BB,
       the kept rows see b_I - A_IB x_B (E = A_IB is kept for the cycle), and their couplings into the
       Dirichlet columns go to the ground,
     - excess diagonal e_i = a_ii - sum_j |a_ij| > 0 -> edge of weight e_i to one ground vertex,
     - e_i < -tol a_ii -> not diagonally dominant: error naming the row.
   The level-0 diagonal is the sum of its weights, so level 0 is an exact Laplacian.
*/
#include <gpupc/cmg.h>
#include <gpupc/matgpu.h>

/* the user's matrix as host CSR with sorted columns, read only: the arrays of an AIJ matrix itself (borrowed, given back
   by HostCSRFree) or a copy */
typedef struct {
  PetscInt         n, nnz;
  const PetscInt  *rowptr, *col;
  const PetscReal *val;
  PetscBool        borrowed;
  GPUPCCSR         aij; /* what was borrowed */
} HostCSR;

static PetscErrorCode HostCSRFree(HostCSR *C)
{
  PetscFunctionBegin;
  if (C->borrowed) PetscCall(GPUPCMatRestoreCSR(&C->aij));
  else {
    PetscCall(PetscFree(C->rowptr));
    PetscCall(PetscFree2(C->col, C->val));
  }
  PetscFunctionReturn(0);
}

/* the columns of every row ascend */
static PetscBool RowsSorted(PetscInt n, const PetscInt *rowptr, const PetscInt *col)
{
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt k = rowptr[i] + 1; k < rowptr[i + 1]; k++)
      if (col[k] <= col[k - 1]) return PETSC_FALSE;
  return PETSC_TRUE;
}

/* C = A: the arrays of a SEQAIJ (or of a type that keeps SEQAIJ's data: seqaij*, seqsegcsr) when its rows are sorted,
   which they are when assembled with MatSetValues; otherwise a copy with every row sorted, read through MatGetRow for
   a type that is not AIJ. On the 7.2M-row poisson3d the copy (600 MB of fresh pages) and the MatGetRow calls took
   ~2.5 s of a 6-7 s reduction on a 2-core machine (bench/NOTES.md). */
static PetscErrorCode ReadCSR(Mat A, HostCSR *C)
{
  PetscBool  aij;
  PetscInt  *rowptr, *col;
  PetscReal *val;

  PetscFunctionBegin;
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATSEQAIJ, &aij));
  if (!aij) PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQSEGCSR, &aij));
  if (aij) {
    PetscCall(GPUPCMatGetCSR(A, &C->aij));
    C->nnz = C->aij.nnz;
    if (RowsSorted(C->n, C->aij.i, C->aij.j)) {
      C->borrowed = PETSC_TRUE;
      C->rowptr   = C->aij.i;
      C->col      = C->aij.j;
      C->val      = C->aij.a; /* real scalars */
      PetscFunctionReturn(0);
    }
  }
  PetscCall(PetscMalloc1(C->n + 1, &rowptr));
  if (aij) {
    PetscCall(PetscArraycpy(rowptr, C->aij.i, C->n + 1));
    PetscCall(PetscMalloc2(C->nnz, &col, C->nnz, &val));
    PetscCall(PetscArraycpy(col, C->aij.j, C->nnz));
    PetscCall(PetscArraycpy(val, C->aij.a, C->nnz));
    PetscCall(GPUPCMatRestoreCSR(&C->aij));
  } else {
    rowptr[0] = 0;
    for (PetscInt i = 0, nz; i < C->n; i++) {
      PetscCall(MatGetRow(A, i, &nz, NULL, NULL));
      rowptr[i + 1] = rowptr[i] + nz;
      PetscCall(MatRestoreRow(A, i, &nz, NULL, NULL));
    }
    C->nnz = rowptr[C->n];
    PetscCall(PetscMalloc2(C->nnz, &col, C->nnz, &val));
    for (PetscInt i = 0, nz; i < C->n; i++) {
      const PetscInt    *cols;
      const PetscScalar *vals;

      PetscCall(MatGetRow(A, i, &nz, &cols, &vals));
      PetscCall(PetscArraycpy(col + rowptr[i], cols, nz));
      PetscCall(PetscArraycpy(val + rowptr[i], vals, nz));
      PetscCall(MatRestoreRow(A, i, &nz, &cols, &vals));
    }
  }
  for (PetscInt i = 0; i < C->n; i++) PetscCall(PetscSortIntWithScalarArray(rowptr[i + 1] - rowptr[i], col + rowptr[i], val + rowptr[i]));
  C->rowptr = rowptr;
  C->col    = col;
  C->val    = val;
  PetscFunctionReturn(0);
}

/* C = A with the columns of every row sorted; refuses a matrix that is not square or has a non-finite entry */
static PetscErrorCode ReadRows(Mat A, HostCSR *C)
{
  PetscInt  n, N, badrow = -1, badcol = -1;
  PetscReal badval = 0.0;

  PetscFunctionBegin;
  PetscCall(MatGetSize(A, &n, &N));
  if (n != N) {
    PetscCall(PetscLogEventEnd(PC_CMG_Reduce, A, 0, 0, 0));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "PC cmg needs a square matrix; it has %" PetscInt_FMT " rows and %" PetscInt_FMT " columns", n, N);
  }
  PetscCall(PetscMemzero(C, sizeof(*C)));
  C->n = n;
  PetscCall(ReadCSR(A, C));
  for (PetscInt i = 0; i < n && badrow < 0; i++)
    for (PetscInt k = C->rowptr[i]; k < C->rowptr[i + 1]; k++)
      if (PetscIsInfOrNanReal(C->val[k])) {
        badrow = i;
        badcol = C->col[k];
        badval = C->val[k];
        break;
      }
  if (badrow >= 0) {
    PetscCall(HostCSRFree(C));
    PetscCall(PetscLogEventEnd(PC_CMG_Reduce, A, 0, 0, 0));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FP, "PC cmg: matrix entry (%" PetscInt_FMT ", %" PetscInt_FMT ") is %g; the matrix must be finite", badrow, badcol, (double)badval);
  }
  PetscFunctionReturn(0);
}

/* a_ij, 0 if not stored */
static PetscReal Entry(const HostCSR *C, PetscInt i, PetscInt j)
{
  PetscInt lo = C->rowptr[i], hi = C->rowptr[i + 1] - 1;

  while (lo <= hi) {
    PetscInt mid = (lo + hi) / 2;
    if (C->col[mid] == j) return C->val[mid];
    if (C->col[mid] < j) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0.0;
}

/*@C
   GPUPCCMGReduce - reduces a symmetric diagonally dominant matrix to the level-0 Laplacian of CMG

   Not Collective (the matrix is sequential)

   Input Parameters:
+  A    - the matrix
-  opts - tolerances and how to treat positive off-diagonals

   Output Parameters:
+  red - how the user's vectors map to level 0
-  L0  - the level-0 Laplacian (CSR with sorted columns, diagonal stored); free with GPUPCCMGLevelFree()

   Notes:
   Errors name the first offending row: non-finite entry, non-positive diagonal, asymmetric pair,
   positive off-diagonal (with -pc_cmg_positive_offdiag error), row that is not diagonally dominant.

   Level: developer

.seealso: PCCMG, GPUPCCMGHierarchyBuild()
@*/
PetscErrorCode GPUPCCMGReduce(Mat A, const GPUPCCMGOptions *opts, GPUPCCMGReduction *red, GPUPCCMGLevel *L0)
{
  HostCSR    C;
  PetscReal *excess, *w;
  PetscInt   n, copies, nstrict = 0, npos = 0, n0, g, *cnt, *rp, *cl;
  PetscBool  ground;
  PetscBool *isdir;
  PetscReal *dinv;
  PetscInt   ndir = 0, nk, *map;
  enum { BAD_NONE, BAD_SYMMETRY, BAD_POSITIVE, BAD_DIAGONAL, BAD_DOMINANCE } bad = BAD_NONE;
  char       msg[512];

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PC_CMG_Reduce, A, 0, 0, 0));
  PetscCall(ReadRows(A, &C)); /* ends the event itself when it refuses the matrix */
  n = C.n;
  PetscCall(PetscMalloc1(n, &excess));
  /* Dirichlet rows: no nonzero off-diagonal. With opts->dirichlet_rows, couplings of other rows into them
     (a nonsymmetric pattern, as in PETSc's ksp ex45) move to the ground: the preconditioner is built from
     the symmetric operator with the Dirichlet unknowns eliminated. */
  PetscCall(PetscCalloc1(n, &isdir));
  PetscCall(PetscCalloc1(n, &dinv));
  if (opts->dirichlet_rows)
    for (PetscInt i = 0; i < n; i++) {
      isdir[i] = PETSC_TRUE;
      for (PetscInt k = C.rowptr[i]; k < C.rowptr[i + 1]; k++)
        if (C.col[k] != i && C.val[k] != 0.0) isdir[i] = PETSC_FALSE;
      if (isdir[i]) ndir++;
    }
  /* validate; on bad input free everything first, then raise the error naming the row */
  for (PetscInt i = 0; i < n && !bad; i++) {
    PetscReal d = 0.0, off = 0.0, offdir = 0.0;
    for (PetscInt k = C.rowptr[i]; k < C.rowptr[i + 1] && !bad; k++) {
      PetscInt  j = C.col[k];
      PetscReal a = C.val[k];
      if (j == i) {
        d += a;
        continue;
      }
      if (a == 0.0) continue;
      if (isdir[j]) { /* coupling into a Dirichlet row: counts for dominance, goes to the ground */
        offdir += PetscAbsReal(a);
        continue;
      }
      if (opts->check_symmetry) {
        PetscReal at = Entry(&C, j, i);
        if (PetscAbsReal(a - at) > opts->symmetry_tol * PetscMax(PetscAbsReal(a), PetscAbsReal(at))) {
          bad = BAD_SYMMETRY;
          PetscCall(PetscSNPrintf(msg, sizeof(msg), "PC cmg needs a symmetric matrix: row %" PetscInt_FMT " has A(%" PetscInt_FMT ",%" PetscInt_FMT ") = %g but A(%" PetscInt_FMT ",%" PetscInt_FMT ") = %g (relative tolerance %g, set with -pc_cmg_symmetry_tol; -pc_cmg_check_symmetry 0 skips the check)", i, i, j, (double)a, j, i, (double)at, (double)opts->symmetry_tol));
        }
      }
      if (!bad && a > 0.0) {
        if (opts->positive != GPUPC_CMG_POSITIVE_DOUBLE_COVER) {
          bad = BAD_POSITIVE;
          PetscCall(PetscSNPrintf(msg, sizeof(msg), "PC cmg: row %" PetscInt_FMT " has a positive off-diagonal entry A(%" PetscInt_FMT ",%" PetscInt_FMT ") = %g; use -pc_cmg_positive_offdiag doublecover to reduce such matrices through the double cover", i, i, j, (double)a));
        }
        npos++;
      }
      off += PetscAbsReal(a);
    }
    if (bad) break;
    if (!(d > 0.0)) {
      bad = BAD_DIAGONAL;
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "PC cmg needs a positive diagonal: row %" PetscInt_FMT " has diagonal %g (a matrix for cmg is symmetric and diagonally dominant with positive diagonal)", i, (double)d));
      break;
    }
    excess[i] = d - off - offdir;
    if (excess[i] < -opts->dominance_tol * d) {
      bad = BAD_DOMINANCE;
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "PC cmg needs a diagonally dominant matrix: row %" PetscInt_FMT " has diagonal %g but the sum of |off-diagonals| is %g (relative tolerance %g, -pc_cmg_dominance_tol)", i, (double)d, (double)off, (double)opts->dominance_tol));
      break;
    }
    if (excess[i] <= opts->dominance_tol * d) excess[i] = 0.0;
    excess[i] += offdir;
    if (isdir[i]) {
      dinv[i]   = 1.0 / d;
      excess[i] = 0.0;
    } else if (excess[i] > 0.0) nstrict++;
  }
  if (bad) {
    PetscCall(PetscFree(isdir));
    PetscCall(PetscFree(dinv));
    PetscCall(PetscFree(excess));
    PetscCall(HostCSRFree(&C));
    PetscCall(PetscLogEventEnd(PC_CMG_Reduce, A, 0, 0, 0));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "%s", msg);
  }
  /* kept rows (not Dirichlet) are numbered 0..nk-1 */
  PetscCall(PetscMalloc1(n, &map));
  nk = 0;
  for (PetscInt i = 0; i < n; i++) map[i] = isdir[i] ? -1 : nk++;
  copies = npos > 0 ? 2 : 1;
  ground = nstrict > 0 ? PETSC_TRUE : PETSC_FALSE;
  n0     = copies * nk + (ground ? 1 : 0);
  g      = copies * nk;

  /* level 0: rows c*nk + map[i] (copy c of kept vertex i), then the ground row */
  PetscCall(PetscMalloc1(n0 + 1, &rp));
  PetscCall(PetscCalloc1(n0 + 1, &cnt));
  for (PetscInt c = 0; c < copies; c++)
    for (PetscInt i = 0; i < n; i++) {
      PetscInt e = 1; /* diagonal */
      if (isdir[i]) continue;
      for (PetscInt k = C.rowptr[i]; k < C.rowptr[i + 1]; k++)
        if (C.col[k] != i && C.val[k] != 0.0 && !isdir[C.col[k]]) e++;
      if (excess[i] > 0.0) {
        e++;
        cnt[g]++;
      }
      cnt[c * nk + map[i]] = e;
    }
  if (ground) cnt[g]++; /* its diagonal */
  rp[0] = 0;
  for (PetscInt r = 0; r < n0; r++) rp[r + 1] = rp[r] + cnt[r];
  PetscCall(PetscMalloc2(rp[n0], &cl, rp[n0], &w));
  for (PetscInt r = 0; r < n0; r++) cnt[r] = rp[r];
  for (PetscInt c = 0; c < copies; c++)
    for (PetscInt i = 0; i < n; i++) {
      PetscInt  r, dpos;
      PetscReal sum = 0.0;

      if (isdir[i]) continue;
      r        = c * nk + map[i];
      dpos     = cnt[r]++;
      cl[dpos] = r;
      for (PetscInt k = C.rowptr[i]; k < C.rowptr[i + 1]; k++) {
        PetscInt  j = C.col[k];
        PetscReal a = C.val[k];
        if (j == i || a == 0.0 || isdir[j]) continue;
        cl[cnt[r]]  = a < 0.0 ? c * nk + map[j] : (1 - c) * nk + map[j];
        w[cnt[r]++] = -PetscAbsReal(a);
        sum += PetscAbsReal(a);
      }
      if (excess[i] > 0.0) {
        cl[cnt[r]]  = g;
        w[cnt[r]++] = -excess[i];
        cl[cnt[g]]  = r;
        w[cnt[g]++] = -excess[i];
        sum += excess[i];
      }
      w[dpos] = sum;
      PetscCall(PetscSortIntWithScalarArray(rp[r + 1] - rp[r], cl + rp[r], w + rp[r]));
    }
  if (ground) {
    PetscReal sum = 0.0;
    for (PetscInt k = rp[g]; k < cnt[g]; k++) sum -= w[k];
    cl[cnt[g]]  = g;
    w[cnt[g]++] = sum;
    PetscCall(PetscSortIntWithScalarArray(rp[g + 1] - rp[g], cl + rp[g], w + rp[g]));
  }
  PetscCall(PetscFree(cnt));
  PetscCall(PetscFree(excess));

  PetscCall(PetscMemzero(L0, sizeof(*L0)));
  L0->n      = n0;
  L0->nnz    = rp[n0];
  L0->rowptr = rp;
  L0->col    = cl;
  L0->val    = w;
  red->n         = n;
  red->copies    = copies;
  red->ground    = ground;
  red->n0        = n0;
  red->npositive = npos;
  red->nstrict   = nstrict;
  red->ndirichlet = ndir;
  red->nkept      = nk;
  red->erow = red->ecol = red->trow = red->tcol = NULL;
  red->eval = red->tval = NULL;
  red->ncoupling        = 0;
  if (ndir > 0) { /* couplings of kept rows into Dirichlet columns (E) and their transpose, for the elimination */
    PetscInt ne = 0;
    for (PetscInt i = 0; i < n; i++)
      if (!isdir[i])
        for (PetscInt k = C.rowptr[i]; k < C.rowptr[i + 1]; k++)
          if (isdir[C.col[k]] && C.val[k] != 0.0) ne++;
    red->ncoupling = ne;
    if (ne > 0) {
      PetscCall(PetscCalloc1(n + 1, &red->erow));
      PetscCall(PetscCalloc1(n + 1, &red->trow));
      PetscCall(PetscMalloc4(ne, &red->ecol, ne, &red->eval, ne, &red->tcol, ne, &red->tval));
      for (PetscInt i = 0; i < n; i++) {
        red->erow[i + 1] = red->erow[i];
        if (isdir[i]) continue;
        for (PetscInt k = C.rowptr[i]; k < C.rowptr[i + 1]; k++)
          if (isdir[C.col[k]] && C.val[k] != 0.0) {
            red->ecol[red->erow[i + 1]]   = C.col[k];
            red->eval[red->erow[i + 1]++] = C.val[k];
            red->trow[C.col[k] + 1]++;
          }
      }
      for (PetscInt j = 0; j < n; j++) red->trow[j + 1] += red->trow[j];
      for (PetscInt i = 0; i < n; i++)
        for (PetscInt k = red->erow[i]; k < red->erow[i + 1]; k++) { /* rows i ascend, so each transposed row is sorted */
          PetscInt j = red->ecol[k], q = red->trow[j]++;
          red->tcol[q] = i;
          red->tval[q] = red->eval[k];
        }
      for (PetscInt j = n; j > 0; j--) red->trow[j] = red->trow[j - 1];
      red->trow[0] = 0;
    }
  }
  if (ndir > 0) {
    red->map  = map;
    red->dinv = dinv;
  } else {
    red->map  = NULL;
    red->dinv = NULL;
    PetscCall(PetscFree(map));
    PetscCall(PetscFree(dinv));
  }
  PetscCall(PetscFree(isdir));
  PetscCall(HostCSRFree(&C));
  PetscCall(PetscInfo(A, "CMG reduction: %" PetscInt_FMT " rows, %" PetscInt_FMT " positive off-diagonals (%s), %" PetscInt_FMT " strictly dominant rows (%s); level 0 has %" PetscInt_FMT " vertices and %" PetscInt_FMT " nonzeros\n", n, npos,
                      copies == 2 ? "double cover" : "no double cover", nstrict, ground ? "ground vertex added" : "no ground vertex", n0, L0->nnz));
  PetscCall(PetscLogEventEnd(PC_CMG_Reduce, A, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCCMGLevelFree - frees the host arrays of a CMG level

   Not Collective

   Input Parameter:
.  L - the level

   Level: developer
@*/
PetscErrorCode GPUPCCMGLevelFree(GPUPCCMGLevel *L)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(L->rowptr));
  PetscCall(PetscFree2(L->col, L->val));
  PetscCall(PetscFree(L->cluster));
  PetscCall(PetscMemzero(L, sizeof(*L)));
  PetscFunctionReturn(0);
}

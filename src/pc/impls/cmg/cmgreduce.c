/*
   CMG input reduction (docs/algorithms.md 2.1): from a symmetric diagonally dominant matrix to
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
#include <gpupc/cmgsetupkernels.h>

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
static PetscBool RowsSorted(PetscInt n, const PetscInt *rowptr, const PetscInt *col, PetscInt nt)
{
  int sorted = 1;

/* clang-format 14 breaks the reduction clauses of OpenMP pragmas over lines */
/* clang-format off */
#pragma omp parallel for num_threads(nt) schedule(static) reduction(&& : sorted)
  /* clang-format on */
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt k = rowptr[i] + 1; k < rowptr[i + 1]; k++)
      if (col[k] <= col[k - 1]) sorted = 0;
  return sorted ? PETSC_TRUE : PETSC_FALSE;
}

/* C = A: the arrays of a SEQAIJ (or of a type that keeps SEQAIJ's data: seqaij*, seqsegcsr) when its rows are sorted,
   which they are when assembled with MatSetValues; otherwise a copy with every row sorted, read through MatGetRow for
   a type that is not AIJ. On the 7.2M-row poisson3d the copy (600 MB of fresh pages) and the MatGetRow calls took
   ~2.5 s of a 6-7 s reduction on a 2-core machine (bench/NOTES.md). */
static PetscErrorCode ReadCSR(Mat A, PetscInt nt, HostCSR *C)
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
    if (RowsSorted(C->n, C->aij.i, C->aij.j, nt)) {
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
#pragma omp parallel for num_threads(nt) schedule(static)
  for (PetscInt i = 0; i < C->n; i++) GPUPCCMGSortRow(rowptr[i + 1] - rowptr[i], col + rowptr[i], val + rowptr[i]);
  C->rowptr = rowptr;
  C->col    = col;
  C->val    = val;
  PetscFunctionReturn(0);
}

/* C = A with the columns of every row sorted; refuses a matrix that is not square or has a non-finite entry */
static PetscErrorCode ReadRows(Mat A, PetscInt nt, HostCSR *C)
{
  PetscInt  n, N, badrow, badcol = -1;
  PetscReal badval = 0.0;

  PetscFunctionBegin;
  PetscCall(MatGetSize(A, &n, &N));
  if (n != N) {
    PetscCall(PetscLogEventEnd(PC_CMG_Reduce, A, 0, 0, 0));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "PC cmg needs a square matrix; it has %" PetscInt_FMT " rows and %" PetscInt_FMT " columns", n, N);
  }
  PetscCall(PetscMemzero(C, sizeof(*C)));
  C->n = n;
  PetscCall(ReadCSR(A, nt, C));
  badrow = n;
/* clang-format 14 breaks the reduction clauses of OpenMP pragmas over lines */
/* clang-format off */
#pragma omp parallel for num_threads(nt) schedule(static) reduction(min : badrow)
  /* clang-format on */
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt k = C->rowptr[i]; k < C->rowptr[i + 1]; k++)
      if (!isfinite(C->val[k])) {
        badrow = PetscMin(badrow, i);
        break;
      }
  if (badrow < n) {
    for (PetscInt k = C->rowptr[badrow]; k < C->rowptr[badrow + 1] && badcol < 0; k++)
      if (!isfinite(C->val[k])) {
        badcol = C->col[k];
        badval = C->val[k];
      }
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

/* what is wrong with a row of the user's matrix: the first fault found, with the numbers that show it */
typedef enum {
  FAULT_NONE,
  FAULT_SYMMETRY,
  FAULT_POSITIVE,
  FAULT_DIAGONAL,
  FAULT_DOMINANCE
} RowFault;

typedef struct {
  RowFault  fault;
  PetscInt  col;    /* the offending entry (symmetry, positive) */
  PetscReal a, at;  /* A(i, col) and A(col, i) */
  PetscReal d, off; /* the diagonal and the sum of |off-diagonals| outside the Dirichlet columns */
  PetscReal offdir; /* the sum of |off-diagonals| in the Dirichlet columns (rows that hold only their diagonal) */
  PetscInt  dcol;   /* the first such column, and its entry */
  PetscReal dval;
} RowCheck;

/* checks row i; when it is fine, gives its weight to the ground (excess, 0 on a Dirichlet row) and how many positive
   off-diagonals it has. Calls no PETSc function: the setup threads run it. */
static RowCheck CheckRow(const HostCSR *C, const GPUPCCMGOptions *opts, const PetscBool *isdir, PetscInt i, PetscReal *excess, PetscInt *npos)
{
  RowCheck  r = {FAULT_NONE, -1, 0.0, 0.0, 0.0, 0.0, 0.0, -1, 0.0};
  PetscReal e;

  *npos = 0;
  for (PetscInt k = C->rowptr[i]; k < C->rowptr[i + 1]; k++) {
    PetscInt  j = C->col[k];
    PetscReal a = C->val[k];
    if (j == i) {
      r.d += a;
      continue;
    }
    if (a == 0.0) continue;
    if (isdir[j]) { /* coupling into a Dirichlet row: counts for dominance, goes to the ground */
      if (r.dcol < 0) r.dcol = j, r.dval = a;
      r.offdir += PetscAbsReal(a);
      continue;
    }
    if (opts->check_symmetry) {
      PetscReal at = Entry(C, j, i);
      if (PetscAbsReal(a - at) > opts->symmetry_tol * PetscMax(PetscAbsReal(a), PetscAbsReal(at))) {
        r.fault = FAULT_SYMMETRY;
        r.col   = j;
        r.a     = a;
        r.at    = at;
        return r;
      }
    }
    if (a > 0.0) {
      if (opts->positive != GPUPC_CMG_POSITIVE_DOUBLE_COVER) {
        r.fault = FAULT_POSITIVE;
        r.col   = j;
        r.a     = a;
        return r;
      }
      (*npos)++;
    }
    r.off += PetscAbsReal(a);
  }
  if (!(r.d > 0.0)) {
    r.fault = FAULT_DIAGONAL;
    return r;
  }
  e = r.d - r.off - r.offdir;
  if (e < -opts->dominance_tol * r.d) {
    r.fault = FAULT_DOMINANCE;
    return r;
  }
  if (e <= opts->dominance_tol * r.d) e = 0.0;
  *excess = isdir[i] ? 0.0 : e + r.offdir;
  return r;
}

/* the error message for a fault of row i */
static PetscErrorCode FaultMessage(const GPUPCCMGOptions *opts, PetscInt i, RowCheck r, char *msg, size_t len)
{
  PetscFunctionBegin;
  switch (r.fault) {
  case FAULT_SYMMETRY:
    PetscCall(PetscSNPrintf(msg, len, "PC cmg needs a symmetric matrix: row %" PetscInt_FMT " has A(%" PetscInt_FMT ",%" PetscInt_FMT ") = %g but A(%" PetscInt_FMT ",%" PetscInt_FMT ") = %g (relative tolerance %g, set with -pc_cmg_symmetry_tol; -pc_cmg_check_symmetry 0 skips the check)", i, i, r.col, (double)r.a, r.col, i, (double)r.at, (double)opts->symmetry_tol));
    break;
  case FAULT_POSITIVE:
    PetscCall(PetscSNPrintf(msg, len, "PC cmg: row %" PetscInt_FMT " has a positive off-diagonal entry A(%" PetscInt_FMT ",%" PetscInt_FMT ") = %g; use -pc_cmg_positive_offdiag doublecover to reduce such matrices through the double cover", i, i, r.col, (double)r.a));
    break;
  case FAULT_DIAGONAL:
    PetscCall(PetscSNPrintf(msg, len, "PC cmg needs a positive diagonal: row %" PetscInt_FMT " has diagonal %g (a matrix for cmg is symmetric and diagonally dominant with positive diagonal)", i, (double)r.d));
    break;
  case FAULT_DOMINANCE:
    if (r.offdir > 0.0 && r.d - r.off >= -opts->dominance_tol * r.d) {
      /* dominant without its couplings into rows that hold only their diagonal: those couplings have no mirror */
      PetscCall(PetscSNPrintf(msg, len, "PC cmg needs a symmetric matrix: row %" PetscInt_FMT " has A(%" PetscInt_FMT ",%" PetscInt_FMT ") = %g but A(%" PetscInt_FMT ",%" PetscInt_FMT ") = 0 (row %" PetscInt_FMT " holds only its diagonal). Couplings into such rows are accepted as eliminated Dirichlet unknowns only while the row stays diagonally dominant with them; row %" PetscInt_FMT " has diagonal %g and off-diagonals of absolute sum %g, %g of it into such rows", i, i, r.dcol, (double)r.dval, r.dcol, i, r.dcol, i, (double)r.d, (double)(r.off + r.offdir), (double)r.offdir));
    } else {
      PetscCall(PetscSNPrintf(msg, len, "PC cmg needs a diagonally dominant matrix: row %" PetscInt_FMT " has diagonal %g but the sum of |off-diagonals| is %g%s (relative tolerance %g, -pc_cmg_dominance_tol)", i, (double)r.d, (double)(r.off + r.offdir), r.offdir > 0.0 ? ", some of it into rows that hold only their diagonal" : "", (double)opts->dominance_tol));
    }
    break;
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_PLIB, "PC cmg: row %" PetscInt_FMT " has no fault to report", i);
  }
  PetscFunctionReturn(0);
}

/* E = A(kept rows, Dirichlet columns) by user row, and its transpose, for the elimination of the Dirichlet rows */
static PetscErrorCode DirichletCouplings(const HostCSR *C, const PetscBool *isdir, PetscInt nt, GPUPCCMGReduction *red)
{
  const PetscInt n = C->n;
  PetscInt       ne;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(n + 1, &red->erow));
  red->erow[0] = 0;
#pragma omp parallel for num_threads(nt) schedule(static)
  for (PetscInt i = 0; i < n; i++) {
    PetscInt e = 0;
    if (!isdir[i])
      for (PetscInt k = C->rowptr[i]; k < C->rowptr[i + 1]; k++)
        if (isdir[C->col[k]] && C->val[k] != 0.0) e++;
    red->erow[i + 1] = e;
  }
  for (PetscInt i = 0; i < n; i++) red->erow[i + 1] += red->erow[i];
  ne             = red->erow[n];
  red->ncoupling = ne;
  if (ne == 0) {
    PetscCall(PetscFree(red->erow));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscCalloc1(n + 1, &red->trow));
  PetscCall(PetscMalloc4(ne, &red->ecol, ne, &red->eval, ne, &red->tcol, ne, &red->tval));
#pragma omp parallel for num_threads(nt) schedule(static)
  for (PetscInt i = 0; i < n; i++) {
    PetscInt q = red->erow[i];
    if (isdir[i]) continue;
    for (PetscInt k = C->rowptr[i]; k < C->rowptr[i + 1]; k++)
      if (isdir[C->col[k]] && C->val[k] != 0.0) {
        red->ecol[q]   = C->col[k];
        red->eval[q++] = C->val[k];
      }
  }
  for (PetscInt q = 0; q < ne; q++) red->trow[red->ecol[q] + 1]++;
  for (PetscInt j = 0; j < n; j++) red->trow[j + 1] += red->trow[j];
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt k = red->erow[i]; k < red->erow[i + 1]; k++) { /* rows i ascend, so each transposed row is sorted */
      PetscInt j = red->ecol[k], q = red->trow[j]++;
      red->tcol[q] = i;
      red->tval[q] = red->eval[k];
    }
  for (PetscInt j = n; j > 0; j--) red->trow[j] = red->trow[j - 1];
  red->trow[0] = 0;
  PetscFunctionReturn(0);
}

/*@C
   GPUPCCMGReduce - reduces a symmetric diagonally dominant matrix to the level-0 Laplacian of CMG

   Not Collective (the matrix is sequential)

   Input Parameters:
+  A    - the matrix
-  opts - tolerances, how to treat positive off-diagonals, and the setup threads (the rows are split over them)

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
  const PetscInt nt = PetscMax(opts->threads, 1);
  HostCSR        C;
  PetscReal     *excess, *w;
  PetscInt       n, copies, nstrict = 0, npos = 0, n0, g, firstbad, *rp, *cl;
  PetscBool      ground;
  PetscBool     *isdir;
  PetscReal     *dinv;
  PetscInt       ndir = 0, nk, *map;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PC_CMG_Reduce, A, 0, 0, 0));
  PetscCall(ReadRows(A, nt, &C)); /* ends the event itself when it refuses the matrix */
  n = C.n;
  PetscCall(PetscMalloc2(n, &excess, n, &isdir));
  PetscCall(PetscMalloc1(n, &dinv)); /* kept by the reduction when there are Dirichlet rows */
  /* Dirichlet rows: no nonzero off-diagonal. With opts->dirichlet_rows, couplings of other rows into them
     (a nonsymmetric pattern, as in PETSc's ksp ex45) move to the ground: the preconditioner is built from
     the symmetric operator with the Dirichlet unknowns eliminated. */
/* clang-format 14 breaks the reduction clauses of OpenMP pragmas over lines */
/* clang-format off */
#pragma omp parallel for num_threads(nt) schedule(static) reduction(+ : ndir)
  /* clang-format on */
  for (PetscInt i = 0; i < n; i++) {
    PetscBool dir = opts->dirichlet_rows;
    for (PetscInt k = C.rowptr[i]; k < C.rowptr[i + 1] && dir; k++)
      if (C.col[k] != i && C.val[k] != 0.0) dir = PETSC_FALSE;
    isdir[i] = dir;
    if (dir) ndir++;
  }
  /* validate every row; on bad input free everything first, then raise the error naming the first bad row */
  firstbad = n;
/* clang-format 14 breaks the reduction clauses of OpenMP pragmas over lines */
/* clang-format off */
#pragma omp parallel for num_threads(nt) schedule(static) reduction(min : firstbad) reduction(+ : npos, nstrict)
  /* clang-format on */
  for (PetscInt i = 0; i < n; i++) {
    PetscInt p;
    RowCheck r = CheckRow(&C, opts, isdir, i, &excess[i], &p);
    if (r.fault != FAULT_NONE) {
      firstbad = PetscMin(firstbad, i);
      continue;
    }
    npos += p;
    dinv[i] = isdir[i] ? 1.0 / r.d : 0.0;
    if (!isdir[i] && excess[i] > 0.0) nstrict++;
  }
  if (firstbad < n) {
    PetscInt p;
    char     msg[512];
    RowCheck r = CheckRow(&C, opts, isdir, firstbad, &excess[firstbad], &p);

    PetscCall(FaultMessage(opts, firstbad, r, msg, sizeof(msg)));
    PetscCall(PetscFree2(excess, isdir));
    PetscCall(PetscFree(dinv));
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

  /* level 0: rows c*nk + map[i] (copy c of kept vertex i), then the ground row; first the row lengths */
  PetscCall(PetscMalloc1(n0 + 1, &rp));
  rp[0] = 0;
#pragma omp parallel for num_threads(nt) schedule(static)
  for (PetscInt i = 0; i < n; i++) {
    PetscInt e = excess[i] > 0.0 ? 2 : 1; /* diagonal, ground */
    if (isdir[i]) continue;
    for (PetscInt k = C.rowptr[i]; k < C.rowptr[i + 1]; k++)
      if (C.col[k] != i && C.val[k] != 0.0 && !isdir[C.col[k]]) e++;
    for (PetscInt c = 0; c < copies; c++) rp[c * nk + map[i] + 1] = e;
  }
  if (ground) rp[g + 1] = copies * nstrict + 1; /* its diagonal */
  for (PetscInt r = 0; r < n0; r++) rp[r + 1] += rp[r];
  PetscCall(PetscMalloc2(rp[n0], &cl, rp[n0], &w));
#pragma omp parallel for num_threads(nt) schedule(static)
  for (PetscInt i = 0; i < n; i++) {
    if (isdir[i]) continue;
    for (PetscInt c = 0; c < copies; c++) {
      PetscInt  r = c * nk + map[i], q = rp[r], dpos = q++;
      PetscReal sum = 0.0;

      cl[dpos] = r;
      for (PetscInt k = C.rowptr[i]; k < C.rowptr[i + 1]; k++) {
        PetscInt  j = C.col[k];
        PetscReal a = C.val[k];
        if (j == i || a == 0.0 || isdir[j]) continue;
        cl[q]  = a < 0.0 ? c * nk + map[j] : (1 - c) * nk + map[j];
        w[q++] = -PetscAbsReal(a);
        sum += PetscAbsReal(a);
      }
      if (excess[i] > 0.0) {
        cl[q]  = g;
        w[q++] = -excess[i];
        sum += excess[i];
      }
      w[dpos] = sum;
      GPUPCCMGSortRow(q - rp[r], cl + rp[r], w + rp[r]);
    }
  }
  if (ground) { /* its entries in the order of the rows, which ascend, then its diagonal (g, the largest column) */
    PetscInt q = rp[g];
    for (PetscInt c = 0; c < copies; c++)
      for (PetscInt i = 0; i < n; i++)
        if (!isdir[i] && excess[i] > 0.0) {
          cl[q]  = c * nk + map[i];
          w[q++] = -excess[i];
        }
    cl[q] = g;
    w[q]  = GPUPCCMGGroundDiagonal(q - rp[g], w + rp[g]);
  }

  PetscCall(PetscMemzero(L0, sizeof(*L0)));
  L0->n           = n0;
  L0->nnz         = rp[n0];
  L0->rowptr      = rp;
  L0->col         = cl;
  L0->val         = w;
  red->n          = n;
  red->copies     = copies;
  red->ground     = ground;
  red->n0         = n0;
  red->npositive  = npos;
  red->nstrict    = nstrict;
  red->ndirichlet = ndir;
  red->nkept      = nk;
  red->erow = red->ecol = red->trow = red->tcol = NULL;
  red->eval = red->tval = NULL;
  red->ncoupling        = 0;
  if (ndir > 0) PetscCall(DirichletCouplings(&C, isdir, nt, red));
  if (ndir > 0) {
    red->map  = map;
    red->dinv = dinv;
  } else {
    red->map  = NULL;
    red->dinv = NULL;
    PetscCall(PetscFree(map));
    PetscCall(PetscFree(dinv));
  }
  PetscCall(PetscFree2(excess, isdir));
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

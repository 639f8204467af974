/*
   Distributed CMG, level 0 (docs/algorithms.md 2.1 and 2.4): the user's parallel matrix becomes an
   MPIAIJ SDDM matrix A_0 = L_0 + diag(e) over the kept rows.
     - every rank reads its own rows (MatGetRow, global columns);
     - Dirichlet rows (only a diagonal, with -pc_cmg_dirichlet_rows) are eliminated exactly as on
       one rank: x_B = b_B / a_BB, kept rows see b_I - E x_B, E = A(I, B); couplings into
       Dirichlet columns move to e; E may reach Dirichlet rows of other ranks (their b values come
       through a halo in the cycle);
     - the kept rows are renumbered contiguously by rank (a PetscSF tells each rank the new
       numbers and the Dirichlet flags of its off-rank columns);
     - the excess e_i = a_ii - sum_j |a_ij| (below tol a_ii: 0) stays a diagonal term (no ground
       vertex); the diagonal of A_0 is set to the off-diagonal weight plus e_i, so A_0 is an exact
       SDDM matrix;
     - errors (non-finite entry, non-positive diagonal, asymmetric pair, not dominant, positive
       off-diagonal) name the global row; every rank raises the same error, the one with the
       smallest row. Positive off-diagonals are refused in parallel (the double cover is a
       one-rank reduction).
*/
#include <gpupc/cmgmpi.h>

/*
   GPUPCCMGMPIAgreeOnError - the smallest bad row over the ranks and its message, on every rank
*/
PetscErrorCode GPUPCCMGMPIAgreeOnError(MPI_Comm comm, PetscInt badrow, const char *msg, PetscInt *gbad, char *gmsg, size_t len)
{
  PetscInt    mine = badrow < 0 ? PETSC_MAX_INT : badrow, least;
  PetscMPIInt rank, size, owner, cand;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(MPIU_Allreduce(&mine, &least, 1, MPIU_INT, MPI_MIN, comm));
  *gbad = least == PETSC_MAX_INT ? -1 : least;
  if (*gbad < 0) PetscFunctionReturn(0);
  cand = mine == least ? rank : size;
  PetscCall(MPIU_Allreduce(&cand, &owner, 1, MPI_INT, MPI_MIN, comm));
  if (rank == owner) PetscCall(PetscStrncpy(gmsg, msg, len));
  PetscCallMPI(MPI_Bcast(gmsg, (PetscMPIInt)len, MPI_CHAR, owner, comm));
  PetscFunctionReturn(0);
}

typedef struct {
  PetscInt     n, rstart, nnz;
  PetscInt    *rowptr, *col; /* global columns, ascending */
  PetscScalar *val;
  PetscInt     nghost, *ghost; /* off-rank columns, ascending */
  PetscInt    *gnew;           /* their kept numbers (-1: Dirichlet row) */
  PetscScalar *gdiag;          /* their diagonals */
  PetscInt    *newidx;         /* kept number of each local row, -1 for Dirichlet rows */
} Rows;

static PetscErrorCode RowsFree(Rows *R)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(R->rowptr));
  PetscCall(PetscFree2(R->col, R->val));
  PetscCall(PetscFree(R->ghost));
  PetscCall(PetscFree2(R->gnew, R->gdiag));
  PetscCall(PetscFree(R->newidx));
  PetscFunctionReturn(0);
}

/* kept number of global column j (-1: a Dirichlet row); *ghost = its position among the ghosts or -1 */
static PetscInt NewIndex(const Rows *R, PetscInt j, PetscInt *ghost)
{
  PetscInt g = -1;

  if (ghost) *ghost = -1;
  if (j >= R->rstart && j < R->rstart + R->n) return R->newidx[j - R->rstart];
  (void)PetscFindInt(j, R->nghost, R->ghost, &g);
  if (ghost) *ghost = g;
  return g >= 0 ? R->gnew[g] : -1;
}

static PetscErrorCode ReadLocalRows(Mat A, Rows *R, PetscInt *badrow, char *msg, size_t len)
{
  PetscInt rend, nz;

  PetscFunctionBegin;
  PetscCall(MatGetOwnershipRange(A, &R->rstart, &rend));
  R->n = rend - R->rstart;
  PetscCall(PetscMalloc1(R->n + 1, &R->rowptr));
  R->rowptr[0] = 0;
  for (PetscInt i = 0; i < R->n; i++) {
    PetscCall(MatGetRow(A, R->rstart + i, &nz, NULL, NULL));
    R->rowptr[i + 1] = R->rowptr[i] + nz;
    PetscCall(MatRestoreRow(A, R->rstart + i, &nz, NULL, NULL));
  }
  R->nnz = R->rowptr[R->n];
  PetscCall(PetscMalloc2(R->nnz, &R->col, R->nnz, &R->val));
  for (PetscInt i = 0; i < R->n; i++) {
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscInt           o = R->rowptr[i];

    PetscCall(MatGetRow(A, R->rstart + i, &nz, &cols, &vals));
    for (PetscInt k = 0; k < nz; k++) {
      if (PetscIsInfOrNanScalar(vals[k]) && *badrow < 0) {
        *badrow = R->rstart + i;
        PetscCall(PetscSNPrintf(msg, len, "PC cmg: matrix entry (%" PetscInt_FMT ", %" PetscInt_FMT ") is %g; the matrix must be finite", R->rstart + i, cols[k], (double)PetscRealPart(vals[k])));
      }
      R->col[o + k] = cols[k];
      R->val[o + k] = vals[k];
    }
    PetscCall(MatRestoreRow(A, R->rstart + i, &nz, &cols, &vals));
    PetscCall(PetscSortIntWithScalarArray(nz, R->col + o, R->val + o));
  }
  PetscFunctionReturn(0);
}

/* Dirichlet flags and kept numbering of the local rows; kept numbers and diagonals of the off-rank columns */
static PetscErrorCode Renumber(Mat A, const GPUPCCMGOptions *opts, Rows *R, PetscInt *nk, PetscInt *kstart, PetscInt *ndir)
{
  MPI_Comm     comm = PetscObjectComm((PetscObject)A);
  PetscLayout  rmap;
  PetscSF      sf;
  PetscScalar *diag;
  PetscInt     cnt = 0, scan;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(R->n, &R->newidx));
  PetscCall(PetscMalloc1(R->n, &diag));
  *ndir = 0;
  for (PetscInt i = 0; i < R->n; i++) {
    PetscBool isdir = opts->dirichlet_rows;
    diag[i]         = 0.0;
    for (PetscInt k = R->rowptr[i]; k < R->rowptr[i + 1]; k++) {
      if (R->col[k] == R->rstart + i) diag[i] += R->val[k];
      else if (R->val[k] != 0.0) isdir = PETSC_FALSE;
    }
    R->newidx[i] = isdir ? -1 : cnt++;
    if (isdir) (*ndir)++;
  }
  *nk = cnt;
  PetscCallMPI(MPI_Scan(&cnt, &scan, 1, MPIU_INT, MPI_SUM, comm));
  *kstart = scan - cnt;
  for (PetscInt i = 0; i < R->n; i++)
    if (R->newidx[i] >= 0) R->newidx[i] += *kstart;
  /* off-rank columns */
  PetscCall(PetscMalloc1(R->nnz, &R->ghost));
  R->nghost = 0;
  for (PetscInt k = 0; k < R->nnz; k++)
    if (R->col[k] < R->rstart || R->col[k] >= R->rstart + R->n) R->ghost[R->nghost++] = R->col[k];
  PetscCall(PetscSortRemoveDupsInt(&R->nghost, R->ghost));
  PetscCall(PetscMalloc2(R->nghost, &R->gnew, R->nghost, &R->gdiag));
  PetscCall(MatGetLayouts(A, &rmap, NULL));
  PetscCall(PetscSFCreate(comm, &sf));
  PetscCall(PetscSFSetGraphLayout(sf, rmap, R->nghost, NULL, PETSC_COPY_VALUES, R->ghost));
  PetscCall(PetscSFBcastBegin(sf, MPIU_INT, R->newidx, R->gnew, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(sf, MPIU_INT, R->newidx, R->gnew, MPI_REPLACE));
  PetscCall(PetscSFBcastBegin(sf, MPIU_SCALAR, diag, R->gdiag, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(sf, MPIU_SCALAR, diag, R->gdiag, MPI_REPLACE));
  PetscCall(PetscSFDestroy(&sf));
  PetscCall(PetscFree(diag));
  PetscFunctionReturn(0);
}

/* the row checks of the one-rank reduction, except symmetry; e of the kept rows, dinv of the Dirichlet rows */
static PetscErrorCode CheckRows(const GPUPCCMGOptions *opts, PetscMPIInt size, const Rows *R, PetscReal *e, PetscReal *dinv, PetscInt *nstrict, PetscInt *badrow, char *msg, size_t len)
{
  PetscFunctionBegin;
  *nstrict = 0;
  for (PetscInt i = 0; i < R->n; i++) {
    const PetscInt gi = R->rstart + i;
    PetscReal      d = 0.0, off = 0.0, offdir = 0.0, ex, dval = 0.0;
    PetscInt       dcol = -1; /* the first coupling into a row that holds only its diagonal */
    PetscBool      bad  = PETSC_FALSE;

    e[i]    = 0.0;
    dinv[i] = 0.0;
    if (*badrow >= 0 && *badrow <= gi) break;
    for (PetscInt k = R->rowptr[i]; k < R->rowptr[i + 1] && !bad; k++) {
      PetscInt  j = R->col[k];
      PetscReal a = PetscRealPart(R->val[k]);
      if (j == gi) {
        d += a;
        continue;
      }
      if (a == 0.0) continue;
      if (NewIndex(R, j, NULL) < 0) {
        if (dcol < 0) dcol = j, dval = a;
        offdir += PetscAbsReal(a);
        continue;
      }
      if (a > 0.0) {
        bad = PETSC_TRUE;
        if (opts->positive != GPUPC_CMG_POSITIVE_DOUBLE_COVER) PetscCall(PetscSNPrintf(msg, len, "PC cmg: row %" PetscInt_FMT " has a positive off-diagonal entry A(%" PetscInt_FMT ",%" PetscInt_FMT ") = %g; use -pc_cmg_positive_offdiag doublecover to reduce such matrices through the double cover", gi, gi, j, (double)a));
        else
          PetscCall(PetscSNPrintf(msg, len, "PC cmg on %d MPI ranks: row %" PetscInt_FMT " has a positive off-diagonal entry A(%" PetscInt_FMT ",%" PetscInt_FMT ") = %g; the double cover that handles positive off-diagonals works on one rank only: run on one rank, or use -pc_type bjacobi -sub_pc_type cmg", (int)size, gi, gi, j, (double)a));
      }
      off += PetscAbsReal(a);
    }
    if (!bad && !(d > 0.0)) {
      bad = PETSC_TRUE;
      PetscCall(PetscSNPrintf(msg, len, "PC cmg needs a positive diagonal: row %" PetscInt_FMT " has diagonal %g (a matrix for cmg is symmetric and diagonally dominant with positive diagonal)", gi, (double)d));
    }
    ex = d - off - offdir;
    if (!bad && ex < -opts->dominance_tol * d) {
      bad = PETSC_TRUE;
      if (offdir > 0.0 && d - off >= -opts->dominance_tol * d) /* dominant without its couplings into diagonal-only rows */
        PetscCall(PetscSNPrintf(msg, len, "PC cmg needs a symmetric matrix: row %" PetscInt_FMT " has A(%" PetscInt_FMT ",%" PetscInt_FMT ") = %g but A(%" PetscInt_FMT ",%" PetscInt_FMT ") = 0 (row %" PetscInt_FMT " holds only its diagonal). Couplings into such rows are accepted as eliminated Dirichlet unknowns only while the row stays diagonally dominant with them; row %" PetscInt_FMT " has diagonal %g and off-diagonals of absolute sum %g, %g of it into such rows", gi, gi, dcol, (double)dval, dcol, gi, dcol, gi, (double)d, (double)(off + offdir), (double)offdir));
      else PetscCall(PetscSNPrintf(msg, len, "PC cmg needs a diagonally dominant matrix: row %" PetscInt_FMT " has diagonal %g but the sum of |off-diagonals| is %g%s (relative tolerance %g, -pc_cmg_dominance_tol)", gi, (double)d, (double)(off + offdir), offdir > 0.0 ? ", some of it into rows that hold only their diagonal" : "", (double)opts->dominance_tol));
    }
    if (bad) {
      *badrow = gi;
      break;
    }
    if (ex <= opts->dominance_tol * d) ex = 0.0;
    ex += offdir;
    if (R->newidx[i] < 0) dinv[i] = 1.0 / d;
    else {
      e[i] = ex;
      if (ex > 0.0) (*nstrict)++;
    }
  }
  PetscFunctionReturn(0);
}

/* A_0 over the kept rows: off-diagonals as given, diagonal = off-diagonal weight + e */
static PetscErrorCode AssembleLevel0(MPI_Comm comm, const Rows *R, PetscInt nk, PetscInt kstart, const PetscReal *e, Mat *A0)
{
  PetscInt    *dnz, *onz, *cols, maxrow = 1;
  PetscScalar *vals;

  PetscFunctionBegin;
  PetscCall(PetscCalloc2(nk, &dnz, nk, &onz));
  for (PetscInt i = 0; i < R->n; i++) {
    PetscInt r = R->newidx[i] - kstart;
    if (r < 0 || R->newidx[i] < 0) continue;
    dnz[r] = 1;
    for (PetscInt k = R->rowptr[i]; k < R->rowptr[i + 1]; k++) {
      PetscInt j = R->col[k], c;
      if (j == R->rstart + i || R->val[k] == 0.0) continue;
      c = NewIndex(R, j, NULL);
      if (c < 0) continue;
      if (c >= kstart && c < kstart + nk) dnz[r]++;
      else onz[r]++;
    }
    maxrow = PetscMax(maxrow, dnz[r] + onz[r]);
  }
  PetscCall(MatCreate(comm, A0));
  PetscCall(MatSetSizes(*A0, nk, nk, PETSC_DETERMINE, PETSC_DETERMINE));
  PetscCall(MatSetType(*A0, MATMPIAIJ));
  PetscCall(MatMPIAIJSetPreallocation(*A0, 0, dnz, 0, onz));
  PetscCall(MatSetOption(*A0, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  PetscCall(PetscMalloc2(maxrow, &cols, maxrow, &vals));
  for (PetscInt i = 0; i < R->n; i++) {
    PetscInt  row = R->newidx[i], cnt = 1;
    PetscReal sum = 0.0;
    if (row < 0) continue;
    for (PetscInt k = R->rowptr[i]; k < R->rowptr[i + 1]; k++) {
      PetscInt j = R->col[k], c;
      if (j == R->rstart + i || R->val[k] == 0.0) continue;
      c = NewIndex(R, j, NULL);
      if (c < 0) continue;
      cols[cnt]   = c;
      vals[cnt++] = R->val[k];
      sum += PetscAbsScalar(R->val[k]);
    }
    cols[0] = row;
    vals[0] = sum + e[i];
    PetscCall(MatSetValues(*A0, 1, &row, cnt, cols, vals, INSERT_VALUES));
  }
  PetscCall(PetscFree2(cols, vals));
  PetscCall(PetscFree2(dnz, onz));
  PetscCall(MatAssemblyBegin(*A0, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A0, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/*
   GPUPCCMGMPIFirstAsymmetric - the first local row of A_0 with a stored off-diagonal a_ij whose transposed entry
   differs beyond -pc_cmg_symmetry_tol (as on one rank: rows of A_0 against A_0^T)

   Collective on A0

   Output Parameters:
+  row  - its local row (-1: none)
.  col  - the global column of that entry
-  a, at - a_ij and a_ji
*/
PetscErrorCode GPUPCCMGMPIFirstAsymmetric(const GPUPCCMGOptions *opts, Mat A0, PetscInt *row, PetscInt *col, PetscReal *a, PetscReal *at)
{
  Mat      At;
  PetscInt lo, hi;

  PetscFunctionBegin;
  *row = *col = -1;
  *a = *at = 0.0;
  PetscCall(MatTranspose(A0, MAT_INITIAL_MATRIX, &At));
  PetscCall(MatGetOwnershipRange(A0, &lo, &hi));
  for (PetscInt r = lo; r < hi && *row < 0; r++) {
    const PetscInt    *ca, *ct;
    const PetscScalar *va, *vt;
    PetscInt           na, nt, q = 0;

    PetscCall(MatGetRow(A0, r, &na, &ca, &va));
    PetscCall(MatGetRow(At, r, &nt, &ct, &vt));
    for (PetscInt k = 0; k < na && *row < 0; k++) {
      PetscReal x, xt;
      if (ca[k] == r || va[k] == 0.0) continue;
      while (q < nt && ct[q] < ca[k]) q++;
      x  = PetscRealPart(va[k]);
      xt = (q < nt && ct[q] == ca[k]) ? PetscRealPart(vt[q]) : 0.0;
      if (PetscAbsReal(x - xt) > opts->symmetry_tol * PetscMax(PetscAbsReal(x), PetscAbsReal(xt))) {
        *row = r - lo;
        *col = ca[k];
        *a   = x;
        *at  = xt;
      }
    }
    PetscCall(MatRestoreRow(At, r, &nt, &ct, &vt));
    PetscCall(MatRestoreRow(A0, r, &na, &ca, &va));
  }
  PetscCall(MatDestroy(&At));
  PetscFunctionReturn(0);
}

/* the first asymmetric entry of A_0, named by the user's row and column */
static PetscErrorCode CheckSymmetry(const GPUPCCMGOptions *opts, Mat A0, const Rows *R, PetscInt *badrow, char *msg, size_t len)
{
  PetscInt  r, badj, lo;
  PetscReal a, at;

  PetscFunctionBegin;
  PetscCall(GPUPCCMGMPIFirstAsymmetric(opts, A0, &r, &badj, &a, &at));
  if (r < 0) PetscFunctionReturn(0);
  PetscCall(MatGetOwnershipRange(A0, &lo, NULL));
  for (PetscInt i = 0; i < R->n; i++) { /* name the user's row and column: the kept numbers increase with the user's */
    PetscInt gi = R->rstart + i, uj = -1;
    if (R->newidx[i] != lo + r) continue;
    for (PetscInt k = R->rowptr[i]; k < R->rowptr[i + 1]; k++)
      if (R->col[k] != gi && NewIndex(R, R->col[k], NULL) == badj) uj = R->col[k];
    *badrow = gi;
    PetscCall(PetscSNPrintf(msg, len, "PC cmg needs a symmetric matrix: row %" PetscInt_FMT " has A(%" PetscInt_FMT ",%" PetscInt_FMT ") = %g but A(%" PetscInt_FMT ",%" PetscInt_FMT ") = %g (relative tolerance %g, set with -pc_cmg_symmetry_tol; -pc_cmg_check_symmetry 0 skips the check)", gi, gi, uj, (double)a, uj, gi, (double)at, (double)opts->symmetry_tol));
    break;
  }
  PetscFunctionReturn(0);
}

/* E = A(kept, Dirichlet) by local user row, columns in [0, n + nghostdir): local Dirichlet rows, then off-rank ones; E^T for the
   rank-local couplings */
static PetscErrorCode BuildCoupling(const Rows *R, const PetscReal *dinvloc, GPUPCCMGMPI M)
{
  GPUPCCMGReduction *red = &M->red;
  const PetscInt     n   = R->n;
  PetscInt           ne = 0, nt = 0, *pos;
  PetscBool          offrank = PETSC_FALSE;

  PetscFunctionBegin;
  /* off-rank Dirichlet columns used by E */
  PetscCall(PetscMalloc1(R->nghost, &M->ghostdir));
  PetscCall(PetscMalloc1(R->nghost, &pos));
  M->nghostdir = 0;
  for (PetscInt g = 0; g < R->nghost; g++) pos[g] = -1;
  for (PetscInt i = 0; i < n; i++) {
    if (R->newidx[i] < 0) continue;
    for (PetscInt k = R->rowptr[i]; k < R->rowptr[i + 1]; k++) {
      PetscInt g, c;
      if (R->col[k] == R->rstart + i || R->val[k] == 0.0) continue;
      c = NewIndex(R, R->col[k], &g);
      if (c >= 0) continue;
      ne++;
      if (g >= 0) {
        pos[g]  = 0;
        offrank = PETSC_TRUE;
      } else nt++;
    }
  }
  for (PetscInt g = 0; g < R->nghost; g++)
    if (pos[g] == 0) {
      pos[g]                      = M->nghostdir;
      M->ghostdir[M->nghostdir++] = R->ghost[g];
    }
  M->offrank_coupling = offrank;
  PetscCall(PetscCalloc1(n + M->nghostdir, &red->dinv));
  for (PetscInt i = 0; i < n; i++) red->dinv[i] = dinvloc[i];
  for (PetscInt g = 0; g < R->nghost; g++)
    if (pos[g] >= 0) red->dinv[n + pos[g]] = 1.0 / PetscRealPart(R->gdiag[g]);
  red->ncoupling = ne;
  if (ne > 0) {
    PetscCall(PetscCalloc1(n + 1, &red->erow));
    PetscCall(PetscCalloc1(n + 1, &red->trow));
    PetscCall(PetscMalloc4(ne, &red->ecol, ne, &red->eval, PetscMax(nt, 1), &red->tcol, PetscMax(nt, 1), &red->tval));
    for (PetscInt i = 0; i < n; i++) {
      red->erow[i + 1] = red->erow[i];
      if (R->newidx[i] < 0) continue;
      for (PetscInt k = R->rowptr[i]; k < R->rowptr[i + 1]; k++) {
        PetscInt g, c, j = R->col[k];
        if (j == R->rstart + i || R->val[k] == 0.0) continue;
        c = NewIndex(R, j, &g);
        if (c >= 0) continue;
        red->ecol[red->erow[i + 1]]   = g >= 0 ? n + pos[g] : j - R->rstart;
        red->eval[red->erow[i + 1]++] = PetscRealPart(R->val[k]);
        if (g < 0) red->trow[j - R->rstart + 1]++;
      }
    }
    for (PetscInt j = 0; j < n; j++) red->trow[j + 1] += red->trow[j];
    for (PetscInt i = 0; i < n; i++)
      for (PetscInt k = red->erow[i]; k < red->erow[i + 1]; k++) {
        PetscInt j = red->ecol[k], q;
        if (j >= n) continue;
        q            = red->trow[j]++;
        red->tcol[q] = i;
        red->tval[q] = red->eval[k];
      }
    for (PetscInt j = n; j > 0; j--) red->trow[j] = red->trow[j - 1];
    red->trow[0] = 0;
  }
  PetscCall(PetscFree(pos));
  PetscFunctionReturn(0);
}

/*
   GPUPCCMGMPIReductionCounts - the rank's reduction record (M->red, emptied first: no map or couplings yet) and the
   global counts of strictly dominant and Dirichlet rows; the host and the device reduction both end with it

   Collective on comm

   Input Parameters:
+  comm    - the matrix's communicator
.  n       - the rank's user rows
.  nk      - the kept ones (the rank's rows of level 0)
.  nstrict - the rank's strictly dominant rows
.  ndir    - the rank's Dirichlet rows
-  Nuser   - the global user rows
*/
PetscErrorCode GPUPCCMGMPIReductionCounts(MPI_Comm comm, PetscInt n, PetscInt nk, PetscInt nstrict, PetscInt ndir, PetscInt Nuser, GPUPCCMGMPI M)
{
  PetscInt counts[2] = {nstrict, ndir}, gcounts[2];

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&M->red, sizeof(M->red)));
  M->red.n          = n;
  M->red.copies     = 1;
  M->red.ground     = PETSC_FALSE;
  M->red.n0         = nk;
  M->red.nkept      = nk;
  M->red.nstrict    = nstrict;
  M->red.ndirichlet = ndir;
  PetscCall(MPIU_Allreduce(counts, gcounts, 2, MPIU_INT, MPI_SUM, comm));
  M->gstrict    = gcounts[0];
  M->gdirichlet = gcounts[1];
  M->Nuser      = Nuser;
  PetscFunctionReturn(0);
}

/*
   GPUPCCMGMPICouplingCounts - after the Dirichlet couplings E are built (or not, without Dirichlet rows): their global
   count and whether any rank's E reaches a Dirichlet row of another rank

   Collective on comm
*/
PetscErrorCode GPUPCCMGMPICouplingCounts(MPI_Comm comm, GPUPCCMGMPI M)
{
  PetscInt counts[2], gcounts[2];

  PetscFunctionBegin;
  counts[0] = M->red.ncoupling;
  counts[1] = M->offrank_coupling ? 1 : 0;
  PetscCall(MPIU_Allreduce(counts, gcounts, 2, MPIU_INT, MPI_SUM, comm));
  M->gcoupling        = gcounts[0];
  M->offrank_coupling = gcounts[1] > 0 ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(0);
}

/*
   GPUPCCMGMPIReduce - level 0 of the distributed hierarchy and the map between the user's local rows and it

   Collective on A
*/
PetscErrorCode GPUPCCMGMPIReduce(Mat A, const GPUPCCMGOptions *opts, GPUPCCMGMPI M, GPUPCCMGMPILevel *L0)
{
  MPI_Comm   comm = PetscObjectComm((PetscObject)A);
  Rows       R;
  PetscInt   Nr, Nc, nk = 0, kstart = 0, ndir = 0, nstrict = 0, badrow = -1, badsym = -1, gbad;
  PetscReal *e, *dinv;
  char       msg[512] = "", msgsym[512] = "", gmsg[512] = "";
  Mat        A0 = NULL;

  PetscFunctionBegin;
  PetscCall(MatGetSize(A, &Nr, &Nc));
  PetscCheck(Nr == Nc, comm, PETSC_ERR_ARG_SIZ, "PC cmg needs a square matrix; it has %" PetscInt_FMT " rows and %" PetscInt_FMT " columns", Nr, Nc);
  if (opts->setup == PC_CMG_SETUP_DEVICE && !opts->mpi_ptap) { /* the MatPtAP reference keeps the host reduction */
    PetscBool done;
    PetscCall(GPUPCCMGMPIReduceDevice(A, opts, M, L0, &done));
    if (done) PetscFunctionReturn(0);
  }
  M->reduced_on_device = PETSC_FALSE;
  PetscCall(PetscLogEventBegin(PC_CMG_Reduce, A, 0, 0, 0));
  PetscCall(PetscMemzero(&R, sizeof(R)));
  PetscCall(ReadLocalRows(A, &R, &badrow, msg, sizeof(msg)));
  PetscCall(Renumber(A, opts, &R, &nk, &kstart, &ndir));
  PetscCall(PetscCalloc2(R.n, &e, R.n, &dinv));
  PetscCall(CheckRows(opts, M->size, &R, e, dinv, &nstrict, &badrow, msg, sizeof(msg)));
  PetscCall(AssembleLevel0(comm, &R, nk, kstart, e, &A0));
  if (opts->check_symmetry) PetscCall(CheckSymmetry(opts, A0, &R, &badsym, msgsym, sizeof(msgsym)));
  if (badsym >= 0 && (badrow < 0 || badsym <= badrow)) {
    badrow = badsym;
    PetscCall(PetscStrncpy(msg, msgsym, sizeof(msg)));
  }
  PetscCall(GPUPCCMGMPIAgreeOnError(comm, badrow, msg, &gbad, gmsg, sizeof(gmsg)));
  if (gbad >= 0) {
    PetscCall(MatDestroy(&A0));
    PetscCall(PetscFree2(e, dinv));
    PetscCall(RowsFree(&R));
    PetscCall(PetscLogEventEnd(PC_CMG_Reduce, A, 0, 0, 0));
    SETERRQ(comm, PETSC_ERR_ARG_WRONG, "%s", gmsg);
  }
  PetscCall(GPUPCCMGMPIReductionCounts(comm, R.n, nk, nstrict, ndir, Nr, M));
  if (M->gdirichlet > 0) {
    PetscCall(PetscMalloc1(R.n, &M->red.map));
    for (PetscInt i = 0; i < R.n; i++) M->red.map[i] = R.newidx[i] < 0 ? -1 : R.newidx[i] - kstart;
    PetscCall(BuildCoupling(&R, dinv, M));
  }
  PetscCall(GPUPCCMGMPICouplingCounts(comm, M));

  PetscCall(PetscMemzero(L0, sizeof(*L0)));
  L0->A      = A0;
  L0->n      = nk;
  L0->rstart = kstart;
  PetscCall(MatGetSize(A0, &L0->N, NULL));
  M->Nkept = L0->N;
  PetscCall(PetscMalloc1(nk, &L0->e));
  for (PetscInt i = 0, c = 0; i < R.n; i++)
    if (R.newidx[i] >= 0) L0->e[c++] = e[i];
  PetscCall(PetscFree2(e, dinv));
  PetscCall(RowsFree(&R));
  PetscCall(PetscInfo(A, "CMG (parallel) reduction: %" PetscInt_FMT " rows, %" PetscInt_FMT " Dirichlet rows eliminated, %" PetscInt_FMT " strictly dominant rows (excess kept on the diagonal); level 0 has %" PetscInt_FMT " rows\n", Nr, M->gdirichlet, M->gstrict, L0->N));
  PetscCall(PetscLogEventEnd(PC_CMG_Reduce, A, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*
   GPUPCCMGMPICouplingsFromBlocks - the Dirichlet couplings E (and E^T, the off-rank Dirichlet columns, dinv) of the
   device reduction, made as the host reduction makes them (BuildCoupling) from the rank's rows read from the MPIAIJ
   blocks of A in global column order; only the rows with a coupling are merged (BuildCoupling sees the others empty,
   which is all it reads of them)

   Not Collective

   Input Parameters:
+  A      - the user's MPIAIJ matrix
.  newidx - the kept global number of each local row (-1: a Dirichlet row)
.  gnew   - the kept global number of each ghost column (garray order; -1: a Dirichlet row of another rank)
.  gdiag  - the diagonal of each ghost column's row
-  dinv   - 1/a_ii of the local Dirichlet rows (0 elsewhere)
*/
PetscErrorCode GPUPCCMGMPICouplingsFromBlocks(Mat A, const PetscInt *newidx, const PetscInt *gnew, const PetscScalar *gdiag, const PetscReal *dinv, GPUPCCMGMPI M)
{
  Rows            R;
  Mat             Ad, Ao;
  const PetscInt *garray;
  GPUPCCSR        cd, co;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&R, sizeof(R)));
  PetscCall(GPUPCMatMPIAIJGetSeqAIJ(A, &Ad, &Ao, &garray));
  PetscCall(MatGetOwnershipRange(A, &R.rstart, NULL));
  PetscCall(GPUPCMatGetCSR(Ad, &cd));
  PetscCall(GPUPCMatGetCSR(Ao, &co));
  R.n      = cd.m;
  R.nnz    = cd.nnz + co.nnz;
  R.nghost = co.n;
  PetscCall(PetscMalloc1(R.n + 1, &R.rowptr));
  PetscCall(PetscMalloc2(R.nnz, &R.col, R.nnz, &R.val));
  PetscCall(PetscMalloc1(R.nghost, &R.ghost));
  PetscCall(PetscMalloc2(R.nghost, &R.gnew, R.nghost, &R.gdiag));
  PetscCall(PetscMalloc1(R.n, &R.newidx));
  PetscCall(PetscArraycpy(R.ghost, garray, R.nghost));
  PetscCall(PetscArraycpy(R.gnew, gnew, R.nghost));
  PetscCall(PetscArraycpy(R.gdiag, gdiag, R.nghost));
  PetscCall(PetscArraycpy(R.newidx, newidx, R.n));
  R.rowptr[0] = 0;
  for (PetscInt i = 0; i < R.n; i++) { /* merge: ghosts below the rank's columns, its own, ghosts above */
    PetscInt  q = R.rowptr[i], ko = co.i[i];
    PetscBool coupled = PETSC_FALSE;
    for (PetscInt kd = cd.i[i]; kd < cd.i[i + 1] && !coupled && newidx[i] >= 0; kd++) coupled = (PetscBool)(cd.j[kd] != i && cd.a[kd] != 0.0 && newidx[cd.j[kd]] < 0);
    for (PetscInt k = co.i[i]; k < co.i[i + 1] && !coupled && newidx[i] >= 0; k++) coupled = (PetscBool)(co.a[k] != 0.0 && gnew[co.j[k]] < 0);
    if (!coupled) {
      R.rowptr[i + 1] = q;
      continue;
    }
    for (; ko < co.i[i + 1] && garray[co.j[ko]] < R.rstart; ko++, q++) {
      R.col[q] = garray[co.j[ko]];
      R.val[q] = co.a[ko];
    }
    for (PetscInt kd = cd.i[i]; kd < cd.i[i + 1]; kd++, q++) {
      R.col[q] = R.rstart + cd.j[kd];
      R.val[q] = cd.a[kd];
    }
    for (; ko < co.i[i + 1]; ko++, q++) {
      R.col[q] = garray[co.j[ko]];
      R.val[q] = co.a[ko];
    }
    R.rowptr[i + 1] = q;
  }
  PetscCall(GPUPCMatRestoreCSR(&co));
  PetscCall(GPUPCMatRestoreCSR(&cd));
  PetscCall(BuildCoupling(&R, dinv, M));
  PetscCall(RowsFree(&R));
  PetscFunctionReturn(0);
}

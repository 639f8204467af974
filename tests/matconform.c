static const char help[] = "Conformance of a GPU Mat type against AIJ: every operation applied to an AIJ matrix and to the type under test,\n"
                           "then values, nonzero pattern and products (MatMult, MatMultAdd, MatMultTranspose(Add) with the type's own\n"
                           "vectors and with standard ones) compared against AIJ's after each operation.\n"
                           "  -mat_type <segcsr>  the type under test (read once, then cleared: the AIJ references never see it)\n"
                           "  -cases <name,...>   only these matrices (default: all)   -groups <name,...>: only these groups of operations\n"
                           "A failure names the operation, the matrix and the first differing entry; the program goes on and errors at the end.\n";

#include <petscdmda.h>
#include <petscmat.h>
#include <petscgpupc.h>
#include <stdint.h>
#include <stdio.h>

/* ---------------------------------------------------------------------------------------------------------------- */
/* the matrices                                                                                                      */

typedef enum {
  CASE_RANDOM,
  CASE_DMDA
} CaseKind;

typedef struct {
  const char     *name;
  CaseKind        kind;
  PetscInt        M, N, bs, w, longlen; /* random: global sizes, block size, band half-width, one row of longlen entries */
  PetscBool       lastempty;            /* random: the last rank owns no rows (more than one rank) */
  PetscInt        dim, n, dof;          /* DMDA */
  DMDAStencilType st;
  DMBoundaryType  bt;
} Case;

static const Case cases[] = {
  {"square", CASE_RANDOM, 90, 90, 1, 3, 0, PETSC_TRUE, 0, 0, 0, DMDA_STENCIL_STAR, DM_BOUNDARY_NONE},
  {"longrow", CASE_RANDOM, 10006, 10006, 1, 2, 10000, PETSC_FALSE, 0, 0, 0, DMDA_STENCIL_STAR, DM_BOUNDARY_NONE},
  {"wide-longrow", CASE_RANDOM, 40, 10050, 1, 4, 10000, PETSC_FALSE, 0, 0, 0, DMDA_STENCIL_STAR, DM_BOUNDARY_NONE},
  {"tall", CASE_RANDOM, 70, 31, 1, 3, 0, PETSC_TRUE, 0, 0, 0, DMDA_STENCIL_STAR, DM_BOUNDARY_NONE},
  {"bs2", CASE_RANDOM, 48, 48, 2, 2, 0, PETSC_FALSE, 0, 0, 0, DMDA_STENCIL_STAR, DM_BOUNDARY_NONE},
  {"bs3", CASE_RANDOM, 45, 45, 3, 2, 0, PETSC_TRUE, 0, 0, 0, DMDA_STENCIL_STAR, DM_BOUNDARY_NONE},
  {"bs4", CASE_RANDOM, 48, 48, 4, 1, 0, PETSC_FALSE, 0, 0, 0, DMDA_STENCIL_STAR, DM_BOUNDARY_NONE},
  {"bs5-rect", CASE_RANDOM, 50, 35, 5, 1, 0, PETSC_FALSE, 0, 0, 0, DMDA_STENCIL_STAR, DM_BOUNDARY_NONE},
  {"bs8", CASE_RANDOM, 64, 64, 8, 1, 0, PETSC_TRUE, 0, 0, 0, DMDA_STENCIL_STAR, DM_BOUNDARY_NONE}, /* bcsr: the largest block size */
  {"da2d-dof1-star", CASE_DMDA, 0, 0, 1, 0, 0, PETSC_FALSE, 2, 9, 1, DMDA_STENCIL_STAR, DM_BOUNDARY_NONE},
  {"da2d-dof2-box-periodic", CASE_DMDA, 0, 0, 2, 0, 0, PETSC_FALSE, 2, 6, 2, DMDA_STENCIL_BOX, DM_BOUNDARY_PERIODIC},
  {"da3d-dof3-star-periodic", CASE_DMDA, 0, 0, 3, 0, 0, PETSC_FALSE, 3, 6, 3, DMDA_STENCIL_STAR, DM_BOUNDARY_PERIODIC},
  {"da2d-dof4-box", CASE_DMDA, 0, 0, 4, 0, 0, PETSC_FALSE, 2, 6, 4, DMDA_STENCIL_BOX, DM_BOUNDARY_NONE},
  {"da3d-dof1-box", CASE_DMDA, 0, 0, 1, 0, 0, PETSC_FALSE, 3, 5, 1, DMDA_STENCIL_BOX, DM_BOUNDARY_NONE},
};

typedef struct {
  char                   type[64]; /* the type under test */
  const Case            *cs;
  char                   name[96]; /* the current matrix */
  PetscInt               nchecks, nfail, nmats;
  DM                     da;         /* DMDA cases */
  ISLocalToGlobalMapping rmap, cmap; /* random cases: reversed block numbering (MatSetValuesLocal) */
  char                 **groups;
  PetscInt               ngroups;
} Ctx;

enum {
  CK_TYPE     = 1, /* the tested matrix must be of the type under test */
  CK_AIJTYPE  = 2, /* ... of type AIJ */
  CK_PATTERN  = 4, /* the nonzero patterns must agree exactly (otherwise values only, a missing entry counts as 0) */
  CK_SHOWTYPE = 8  /* print the tested matrix's type */
};

/* a value in (-1,1) that depends on (a, b, seed) only: the same matrix on any number of ranks */
static PetscReal HashVal(PetscInt a, PetscInt b, PetscInt seed)
{
  uint64_t h = (uint64_t)a * 0x9E3779B97F4A7C15ULL ^ ((uint64_t)b + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL ^ ((uint64_t)seed + 1) * 0x165667B19E3779F9ULL;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ULL;
  h ^= h >> 32;
  h *= 0x94D049BB133111EBULL;
  h ^= h >> 31;
  return (PetscReal)(h >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

/* ---------------------------------------------------------------------------------------------------------------- */
/* reporting: one check, collective on comm; the rank with the first bad key prints msg                            */

static PetscErrorCode Report(Ctx *c, MPI_Comm comm, PetscBool bad, PetscInt key, const char *op, const char *msg)
{
  PetscInt    in, out;
  PetscMPIInt rank, r, rmin;

  PetscFunctionBegin;
  c->nchecks++;
  in = bad ? key : PETSC_MAX_INT;
  PetscCall(MPIU_Allreduce(&in, &out, 1, MPIU_INT, MPI_MIN, comm));
  if (out == PETSC_MAX_INT) PetscFunctionReturn(0);
  c->nfail++;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  r = (bad && key == out) ? rank : PETSC_MPI_INT_MAX;
  PetscCall(MPIU_Allreduce(&r, &rmin, 1, MPI_INT, MPI_MIN, comm));
  if (rank == rmin) {
    PetscMPIInt wrank;
    PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &wrank));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%d] FAILED %s on %s: %s\n", wrank, op, c->name, msg));
  }
  PetscFunctionReturn(0);
}

/* t against reference a entry by entry: |t_i - a_i| <= tol * scale_i (scale NULL: tol * max(|a_i|, 1)) */
static PetscErrorCode CheckVec(Ctx *c, Vec t, Vec a, Vec scale, PetscReal tol, const char *op, const char *what)
{
  const PetscScalar *x, *y, *s = NULL;
  PetscInt           n, na, lo, key = 0;
  PetscBool          bad      = PETSC_FALSE;
  char               msg[512] = "";

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(t, &n));
  PetscCall(VecGetLocalSize(a, &na));
  PetscCall(VecGetOwnershipRange(a, &lo, NULL));
  if (n != na) {
    bad = PETSC_TRUE;
    key = lo;
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s: local sizes %" PetscInt_FMT " and reference %" PetscInt_FMT, what, n, na));
  } else {
    PetscCall(VecGetArrayRead(t, &x));
    PetscCall(VecGetArrayRead(a, &y));
    if (scale) PetscCall(VecGetArrayRead(scale, &s));
    for (PetscInt i = 0; i < n; i++) {
      PetscReal d = PetscAbsScalar(x[i] - y[i]), allow = tol * (s ? PetscRealPart(s[i]) : PetscMax(1.0, PetscAbsScalar(y[i])));
      if (!(d <= allow)) {
        bad = PETSC_TRUE;
        key = lo + i;
        PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s: first difference at row %" PetscInt_FMT ": %.17g, reference %.17g (allowed difference %g)", what, lo + i, (double)PetscRealPart(x[i]), (double)PetscRealPart(y[i]), (double)allow));
        break;
      }
    }
    PetscCall(VecRestoreArrayRead(t, &x));
    PetscCall(VecRestoreArrayRead(a, &y));
    if (scale) PetscCall(VecRestoreArrayRead(scale, &s));
  }
  PetscCall(Report(c, PetscObjectComm((PetscObject)a), bad, key, op, msg));
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckScalar(Ctx *c, MPI_Comm comm, PetscReal t, PetscReal a, PetscReal tol, const char *op, const char *what)
{
  char msg[256];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s: %.17g, reference %.17g", what, (double)t, (double)a));
  PetscCall(Report(c, comm, (PetscBool) !(PetscAbsReal(t - a) <= tol * PetscMax(1.0, PetscAbsReal(a))), 0, op, msg));
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckTrue(Ctx *c, MPI_Comm comm, PetscBool ok, const char *op, const char *msg)
{
  PetscFunctionBegin;
  PetscCall(Report(c, comm, (PetscBool)!ok, 0, op, msg));
  PetscFunctionReturn(0);
}

/* copies the values of src into dst (any two vector types with the same layout) */
static PetscErrorCode CopyVals(Vec src, Vec dst)
{
  const PetscScalar *s;
  PetscScalar       *d;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(src, &n));
  PetscCall(VecGetArrayRead(src, &s));
  PetscCall(VecGetArrayWrite(dst, &d));
  PetscCall(PetscArraycpy(d, s, n));
  PetscCall(VecRestoreArrayRead(src, &s));
  PetscCall(VecRestoreArrayWrite(dst, &d));
  PetscFunctionReturn(0);
}

static PetscErrorCode IsTestType(Ctx *c, Mat T, PetscBool *is)
{
  char seq[80], mpi[80];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(seq, sizeof(seq), "seq%s", c->type));
  PetscCall(PetscSNPrintf(mpi, sizeof(mpi), "mpi%s", c->type));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)T, is, c->type, seq, mpi, ""));
  PetscFunctionReturn(0);
}

/* the products of T against those of the AIJ reference A, with T's own vectors (MatCreateVecs) or standard ones;
   tolerance of entry i: 1e-12 (sum_j |a_ij| max|x| + |z_i|) */
static PetscErrorCode CheckProducts(Ctx *c, Mat T, Mat A, PetscBool own, PetscReal dtol, const char *op)
{
  Vec         xa, ya, za, ua, wa, va, xt, yt, zt, ut, wt, vt, s, x0;
  PetscInt    lo, hi, M, N, m, n;
  PetscReal   xmax, umax, *colsum;
  PetscRandom r;
  char        what[128];
  const char *kind = own ? "own vectors" : "standard vectors";

  PetscFunctionBegin;
  PetscCall(MatGetSize(A, &M, &N));
  PetscCall(MatGetLocalSize(A, &m, &n));
  PetscCall(MatCreateVecs(A, &xa, &ya));
  PetscCall(VecDuplicate(ya, &za));
  PetscCall(VecDuplicate(ya, &ua));
  PetscCall(VecDuplicate(xa, &wa));
  PetscCall(VecDuplicate(xa, &va));
  PetscCall(VecDuplicate(ya, &s));
  if (own) PetscCall(MatCreateVecs(T, &xt, &yt));
  else {
    PetscCall(VecDuplicate(xa, &xt));
    PetscCall(VecDuplicate(ya, &yt));
  }
  PetscCall(VecDuplicate(yt, &zt));
  PetscCall(VecDuplicate(yt, &ut));
  PetscCall(VecDuplicate(xt, &wt));
  PetscCall(VecDuplicate(xt, &vt));
  PetscCall(PetscRandomCreate(PetscObjectComm((PetscObject)A), &r));
  PetscCall(PetscRandomSetInterval(r, -1.0, 1.0));
  PetscCall(PetscRandomSetSeed(r, 12345));
  PetscCall(PetscRandomSeed(r));
  PetscCall(VecSetRandom(xa, r));
  PetscCall(VecSetRandom(za, r));
  PetscCall(VecSetRandom(ua, r));
  PetscCall(VecSetRandom(va, r));
  PetscCall(PetscRandomDestroy(&r));
  PetscCall(CopyVals(xa, xt));
  PetscCall(CopyVals(za, zt));
  PetscCall(CopyVals(ua, ut));
  PetscCall(CopyVals(va, vt));
  PetscCall(VecDuplicate(xa, &x0));
  PetscCall(VecCopy(xa, x0));
  PetscCall(VecNorm(xa, NORM_INFINITY, &xmax));
  PetscCall(VecNorm(ua, NORM_INFINITY, &umax));

  /* row scales */
  PetscCall(MatGetOwnershipRange(A, &lo, &hi));
  {
    PetscScalar *sa;
    PetscCall(VecGetArrayWrite(s, &sa));
    for (PetscInt i = lo; i < hi; i++) {
      const PetscScalar *v;
      PetscInt           nc;
      PetscReal          sum = 0;
      PetscCall(MatGetRow(A, i, &nc, NULL, &v));
      for (PetscInt k = 0; k < nc; k++) sum += PetscAbsScalar(v[k]);
      PetscCall(MatRestoreRow(A, i, &nc, NULL, &v));
      sa[i - lo] = sum * xmax + 1e-300;
    }
    PetscCall(VecRestoreArrayWrite(s, &sa));
  }
  PetscCall(MatMult(A, xa, ya));
  PetscCall(MatMult(T, xt, yt));
  PetscCall(PetscSNPrintf(what, sizeof(what), "MatMult (%s)", kind));
  PetscCall(CheckVec(c, yt, ya, s, 1e-12, op, what));
  {
    Vec sz;
    PetscCall(VecDuplicate(s, &sz));
    PetscCall(VecCopy(za, sz));
    PetscCall(VecAbs(sz));
    PetscCall(VecAXPY(sz, 1.0, s));
    PetscCall(MatMultAdd(A, xa, za, ya));
    PetscCall(MatMultAdd(T, xt, zt, yt));
    PetscCall(PetscSNPrintf(what, sizeof(what), "MatMultAdd (%s)", kind));
    PetscCall(CheckVec(c, yt, ya, sz, 1e-12, op, what));
    PetscCall(VecCopy(za, ya));
    PetscCall(CopyVals(za, yt));
    PetscCall(MatMultAdd(A, xa, ya, ya));
    PetscCall(MatMultAdd(T, xt, yt, yt));
    PetscCall(PetscSNPrintf(what, sizeof(what), "MatMultAdd y = y + A x (%s)", kind));
    PetscCall(CheckVec(c, yt, ya, sz, 1e-12, op, what));
    PetscCall(VecDestroy(&sz));
  }
  /* column scales */
  PetscCall(PetscMalloc1(N, &colsum));
  PetscCall(MatGetColumnNorms(A, NORM_1, colsum));
  {
    PetscScalar *sa;
    PetscInt     clo, chi;
    Vec          sc, sz;
    PetscCall(VecDuplicate(xa, &sc));
    PetscCall(VecGetOwnershipRange(sc, &clo, &chi));
    PetscCall(VecGetArrayWrite(sc, &sa));
    for (PetscInt j = clo; j < chi; j++) sa[j - clo] = colsum[j] * umax + 1e-300;
    PetscCall(VecRestoreArrayWrite(sc, &sa));
    PetscCall(MatMultTranspose(A, ua, wa));
    PetscCall(MatMultTranspose(T, ut, wt));
    PetscCall(PetscSNPrintf(what, sizeof(what), "MatMultTranspose (%s)", kind));
    PetscCall(CheckVec(c, wt, wa, sc, 1e-12, op, what));
    PetscCall(VecDuplicate(sc, &sz));
    PetscCall(VecCopy(va, sz));
    PetscCall(VecAbs(sz));
    PetscCall(VecAXPY(sz, 1.0, sc));
    PetscCall(MatMultTransposeAdd(A, ua, va, wa));
    PetscCall(MatMultTransposeAdd(T, ut, vt, wt));
    PetscCall(PetscSNPrintf(what, sizeof(what), "MatMultTransposeAdd (%s)", kind));
    PetscCall(CheckVec(c, wt, wa, sz, 1e-12, op, what));
    PetscCall(VecDestroy(&sz));
    PetscCall(VecDestroy(&sc));
  }
  PetscCall(PetscFree(colsum));
  /* the input vectors are unchanged */
  PetscCall(PetscSNPrintf(what, sizeof(what), "input x of the products unchanged (%s)", kind));
  PetscCall(CheckVec(c, xt, x0, NULL, 0.0, op, what));
  if (M == N && m == n) {
    PetscCall(MatGetDiagonal(A, ya));
    PetscCall(MatGetDiagonal(T, yt));
    PetscCall(PetscSNPrintf(what, sizeof(what), "MatGetDiagonal (%s)", kind));
    PetscCall(CheckVec(c, yt, ya, NULL, dtol, op, what)); /* the tolerance of the entries */
  }
  PetscCall(VecDestroy(&xa));
  PetscCall(VecDestroy(&ya));
  PetscCall(VecDestroy(&za));
  PetscCall(VecDestroy(&ua));
  PetscCall(VecDestroy(&wa));
  PetscCall(VecDestroy(&va));
  PetscCall(VecDestroy(&s));
  PetscCall(VecDestroy(&x0));
  PetscCall(VecDestroy(&xt));
  PetscCall(VecDestroy(&yt));
  PetscCall(VecDestroy(&zt));
  PetscCall(VecDestroy(&ut));
  PetscCall(VecDestroy(&wt));
  PetscCall(VecDestroy(&vt));
  PetscFunctionReturn(0);
}

/* T (tested) against the AIJ reference A: type, sizes, products with both kinds of vectors (first: a stale device
   copy shows there), then every owned row through MatGetRow: the pattern (CK_PATTERN) and the values,
   |t_ij - a_ij| <= vtol max_k |a_ik| (vtol 0: bit for bit) */
static PetscErrorCode CheckMat(Ctx *c, Mat T, Mat A, PetscInt flags, PetscReal vtol, const char *op)
{
  MPI_Comm  comm = PetscObjectComm((PetscObject)A);
  PetscInt  M, N, Mt, Nt, m, n, mt, nt, lo, hi, key = 0;
  PetscBool bad      = PETSC_FALSE, is;
  char      msg[512] = "";
  MatType   tt;

  PetscFunctionBegin;
  PetscCall(MatGetType(T, &tt));
  if (flags & CK_SHOWTYPE) PetscCall(PetscPrintf(comm, "  %s on %s: result type %s\n", op, c->name, tt));
  if (flags & CK_TYPE) {
    PetscCall(IsTestType(c, T, &is));
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "type is %s, expected %s", tt, c->type));
    PetscCall(CheckTrue(c, comm, is, op, msg));
  }
  if (flags & CK_AIJTYPE) {
    PetscCall(PetscObjectTypeCompareAny((PetscObject)T, &is, MATSEQAIJ, MATMPIAIJ, ""));
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "type is %s, expected aij", tt));
    PetscCall(CheckTrue(c, comm, is, op, msg));
  }
  PetscCall(MatGetSize(A, &M, &N));
  PetscCall(MatGetSize(T, &Mt, &Nt));
  PetscCall(MatGetLocalSize(A, &m, &n));
  PetscCall(MatGetLocalSize(T, &mt, &nt));
  PetscCall(PetscSNPrintf(msg, sizeof(msg), "sizes %" PetscInt_FMT "x%" PetscInt_FMT " (local %" PetscInt_FMT "x%" PetscInt_FMT "), reference %" PetscInt_FMT "x%" PetscInt_FMT " (local %" PetscInt_FMT "x%" PetscInt_FMT ")", Mt, Nt, mt, nt, M, N, m, n));
  PetscCall(Report(c, comm, (PetscBool)(M != Mt || N != Nt || m != mt || n != nt), 0, op, msg));
  if (M != Mt || N != Nt || m != mt || n != nt) PetscFunctionReturn(0);
  PetscCall(CheckProducts(c, T, A, PETSC_TRUE, vtol, op));
  PetscCall(CheckProducts(c, T, A, PETSC_FALSE, vtol, op));
  PetscCall(MatGetOwnershipRange(A, &lo, &hi));
  for (PetscInt i = lo; i < hi && !bad; i++) {
    const PetscInt    *ca, *ct;
    const PetscScalar *va, *vt;
    PetscInt           na, nt2, ka = 0, kt = 0;
    PetscReal          rmax = 0;

    PetscCall(MatGetRow(A, i, &na, &ca, &va));
    PetscCall(MatGetRow(T, i, &nt2, &ct, &vt));
    for (PetscInt k = 0; k < na; k++) rmax = PetscMax(rmax, PetscAbsScalar(va[k]));
    if ((flags & CK_PATTERN) && na != nt2) {
      bad = PETSC_TRUE;
      key = i;
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "pattern: row %" PetscInt_FMT " has %" PetscInt_FMT " entries, reference %" PetscInt_FMT, i, nt2, na));
    }
    while (!bad && (ka < na || kt < nt2)) {
      PetscInt    col;
      PetscScalar a = 0, t = 0;
      PetscBool   ina, intt;
      if (kt >= nt2 || (ka < na && ca[ka] < ct[kt])) col = ca[ka];
      else col = ct[kt];
      ina  = (PetscBool)(ka < na && ca[ka] == col);
      intt = (PetscBool)(kt < nt2 && ct[kt] == col);
      if (ina) a = va[ka++];
      if (intt) t = vt[kt++];
      if ((flags & CK_PATTERN) && ina != intt) {
        bad = PETSC_TRUE;
        key = i;
        PetscCall(PetscSNPrintf(msg, sizeof(msg), "pattern: entry (%" PetscInt_FMT ",%" PetscInt_FMT ") %s in the tested matrix, %s in the reference (values %.17g, reference %.17g)", i, col, intt ? "present" : "absent", ina ? "present" : "absent", (double)PetscRealPart(t), (double)PetscRealPart(a)));
      } else if (!(PetscAbsScalar(t - a) <= vtol * rmax)) {
        bad = PETSC_TRUE;
        key = i;
        PetscCall(PetscSNPrintf(msg, sizeof(msg), "entry (%" PetscInt_FMT ",%" PetscInt_FMT "): %.17g, reference %.17g (allowed difference %g)", i, col, (double)PetscRealPart(t), (double)PetscRealPart(a), (double)(vtol * rmax)));
      }
    }
    PetscCall(MatRestoreRow(A, i, &na, &ca, &va));
    PetscCall(MatRestoreRow(T, i, &nt2, &ct, &vt));
  }
  PetscCall(Report(c, comm, bad, key, op, msg));
  PetscFunctionReturn(0);
}

/* CheckMat, unless T is not assembled: that is the failure then (its products would error) */
static PetscErrorCode CheckAssembledThenMat(Ctx *c, Mat T, Mat A, PetscInt flags, PetscReal vtol, const char *op)
{
  PetscBool ok;
  MatType   tt;
  char      msg[256];

  PetscFunctionBegin;
  PetscCall(MatAssembled(T, &ok));
  PetscCall(MatGetType(T, &tt));
  PetscCall(PetscSNPrintf(msg, sizeof(msg), "the result (type %s) is not assembled", tt));
  PetscCall(CheckTrue(c, PetscObjectComm((PetscObject)A), ok, op, msg));
  if (ok) PetscCall(CheckMat(c, T, A, flags, vtol, op));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------------------------------------------------------- */
/* building a matrix of the current case with type 'type'; seed changes the values, pv the pattern                  */

static PetscErrorCode LocalBlocks(PetscInt nb, PetscBool lastempty, MPI_Comm comm, PetscInt *local)
{
  PetscMPIInt rank, size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (lastempty && size > 1) *local = rank == size - 1 ? 0 : nb / (size - 1) + (rank < nb % (size - 1));
  else *local = nb / size + (rank < nb % size);
  PetscFunctionReturn(0);
}

/* the block columns of block row Ib of the random matrix */
static PetscInt RandomRow(const Case *cs, PetscInt Ib, PetscInt pv, PetscInt *J)
{
  PetscInt Mb = cs->M / cs->bs, Nb = cs->N / cs->bs, center = (Ib * Nb) / Mb, k = 0;

  if (Ib % 7 == 3) return 0; /* empty rows */
  for (PetscInt d = -cs->w; d <= cs->w; d++) {
    PetscInt j = center + d + pv;
    if (j < 0 || j >= Nb) continue;
    if (d == 0 || HashVal(Ib, j, 77 + pv) > -0.3) J[k++] = j;
  }
  return k;
}

static PetscErrorCode FillRandom(Ctx *c, Mat A, PetscInt seed, PetscInt pv)
{
  const Case  *cs = c->cs;
  PetscInt     bs = cs->bs, Mb = cs->M / bs, Nb = cs->N / bs, lo, hi, J[64], nj, *cols;
  PetscScalar *v;

  PetscFunctionBegin;
  PetscCall(MatGetOwnershipRange(A, &lo, &hi));
  PetscCall(PetscMalloc2(PetscMax(cs->longlen, 64 * bs), &cols, PetscMax(cs->longlen, 64 * bs * bs), &v));
  for (PetscInt Ib = lo / bs; Ib < hi / bs; Ib++) {
    nj = RandomRow(cs, Ib, pv, J);
    for (PetscInt q = 0; q < nj; q++)
      for (PetscInt a = 0; a < bs; a++)
        for (PetscInt b = 0; b < bs; b++) v[(a * nj + q) * bs + b] = HashVal(Ib * bs + a, J[q] * bs + b, seed) + ((cs->M == cs->N && J[q] == Ib && a == b) ? 6.0 : 0.0);
    if (Ib % 2 == 0) PetscCall(MatSetValuesBlocked(A, 1, &Ib, nj, J, v, ADD_VALUES));
    else { /* point-wise, row by row */
      for (PetscInt a = 0; a < bs; a++) {
        PetscInt row = Ib * bs + a;
        for (PetscInt q = 0; q < nj; q++)
          for (PetscInt b = 0; b < bs; b++) cols[q * bs + b] = J[q] * bs + b;
        PetscCall(MatSetValues(A, 1, &row, nj * bs, cols, v + a * nj * bs, ADD_VALUES));
      }
    }
    /* an entry of another (mirror) block row, set through the local numbering: mostly another rank's */
    {
      PetscInt Im = (Ib + Mb / 2) % Mb, Jm = (Im * Nb) / Mb, li = Mb - 1 - Im, lj = Nb - 1 - Jm;
      if (nj && Im % 7 != 3) {
        for (PetscInt a = 0; a < bs * bs; a++) v[a] = 0.5 * HashVal(Im, Jm + a, seed + 1000);
        PetscCall(MatSetValuesBlockedLocal(A, 1, &li, 1, &lj, v, ADD_VALUES));
      }
    }
  }
  /* the long row: the last row */
  if (cs->longlen && cs->M - 1 >= lo && cs->M - 1 < hi) {
    PetscInt row = cs->M - 1, step = cs->N / cs->longlen;
    for (PetscInt k = 0; k < cs->longlen; k++) {
      cols[k] = k * step;
      v[k]    = HashVal(row, k * step, seed + 5);
    }
    PetscCall(MatSetValues(A, 1, &row, cs->longlen, cols, v, ADD_VALUES));
  }
  PetscCall(PetscFree2(cols, v));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* natural global index of a DMDA unknown (wrapped for periodic) */
static PetscInt NatIndex(DMDALocalInfo *in, PetscInt i, PetscInt j, PetscInt k, PetscInt comp)
{
  i = (i + in->mx) % in->mx;
  j = (j + in->my) % in->my;
  k = (k + in->mz) % in->mz;
  return ((k * in->my + j) * in->mx + i) * in->dof + comp;
}

static PetscErrorCode FillDMDA(Ctx *c, Mat A, PetscInt seed, PetscInt pv)
{
  DMDALocalInfo in;
  PetscInt      dof, sw = 1;

  PetscFunctionBegin;
  PetscCall(DMDAGetLocalInfo(c->da, &in));
  dof = in.dof;
  for (PetscInt k = in.zs; k < in.zs + in.zm; k++)
    for (PetscInt j = in.ys; j < in.ys + in.ym; j++)
      for (PetscInt i = in.xs; i < in.xs + in.xm; i++) {
        MatStencil  row, cols[27];
        PetscScalar v[27 * 4 * 4];
        PetscInt    nc = 0;
        row.i          = i;
        row.j          = j;
        row.k          = k;
        row.c          = 0;
        for (PetscInt dk = (in.dim == 3 ? -sw : 0); dk <= (in.dim == 3 ? sw : 0); dk++)
          for (PetscInt dj = -sw; dj <= sw; dj++)
            for (PetscInt di = -sw; di <= sw; di++) {
              PetscInt nz = (di != 0) + (dj != 0) + (dk != 0);
              if (in.st == DMDA_STENCIL_STAR && nz > 1) continue;
              if (in.bx != DM_BOUNDARY_PERIODIC && (i + di < 0 || i + di >= in.mx)) continue;
              if (in.by != DM_BOUNDARY_PERIODIC && (j + dj < 0 || j + dj >= in.my)) continue;
              if (in.dim == 3 && in.bz != DM_BOUNDARY_PERIODIC && (k + dk < 0 || k + dk >= in.mz)) continue;
              if (pv && nz && HashVal(NatIndex(&in, i, j, k, 0), NatIndex(&in, i + di, j + dj, k + dk, 0), pv) < -0.4) continue; /* a sub-pattern */
              cols[nc].i = i + di;
              cols[nc].j = j + dj;
              cols[nc].k = k + dk;
              cols[nc].c = 0;
              nc++;
            }
        if (dof > 1 && (i + j + k) % 2 == 0) { /* blocked stencil */
          PetscInt nb = nc;
          for (PetscInt a = 0; a < dof; a++)
            for (PetscInt q = 0; q < nb; q++)
              for (PetscInt b = 0; b < dof; b++) {
                PetscInt gr = NatIndex(&in, i, j, k, a), gc = NatIndex(&in, cols[q].i, cols[q].j, cols[q].k, b);
                v[(a * nb + q) * dof + b] = HashVal(gr, gc, seed) + (gr == gc ? 8.0 : 0.0);
              }
          PetscCall(MatSetValuesBlockedStencil(A, 1, &row, nb, cols, v, ADD_VALUES));
        } else {
          MatStencil pc[27 * 4];
          PetscInt   np = 0;
          for (PetscInt q = 0; q < nc; q++)
            for (PetscInt b = 0; b < dof; b++) {
              pc[np]   = cols[q];
              pc[np].c = b;
              np++;
            }
          for (PetscInt a = 0; a < dof; a++) {
            MatStencil r = row;
            r.c          = a;
            for (PetscInt q = 0; q < np; q++) {
              PetscInt gr = NatIndex(&in, i, j, k, a), gc = NatIndex(&in, pc[q].i, pc[q].j, pc[q].k, pc[q].c);
              v[q] = HashVal(gr, gc, seed) + (gr == gc ? 8.0 : 0.0);
            }
            PetscCall(MatSetValuesStencil(A, 1, &r, np, pc, v, ADD_VALUES));
          }
        }
      }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

static PetscErrorCode Fill(Ctx *c, Mat A, PetscInt seed, PetscInt pv)
{
  PetscFunctionBegin;
  if (c->cs->kind == CASE_RANDOM) PetscCall(FillRandom(c, A, seed, pv));
  else PetscCall(FillDMDA(c, A, seed, pv));
  PetscFunctionReturn(0);
}

/* an empty (preallocated, not assembled) matrix of the case with type 'type' */
static PetscErrorCode Create(Ctx *c, MatType type, Mat *A)
{
  const Case *cs = c->cs;

  PetscFunctionBegin;
  if (cs->kind == CASE_DMDA) {
    PetscCall(DMSetMatType(c->da, type));
    PetscCall(DMCreateMatrix(c->da, A));
    PetscFunctionReturn(0);
  }
  {
    PetscInt bs = cs->bs, Mb = cs->M / bs, Nb = cs->N / bs, mb, nb, rlo, *d, *o;
    MPI_Comm comm = PETSC_COMM_WORLD;
    PetscCall(LocalBlocks(Mb, cs->lastempty, comm, &mb));
    if (cs->M == cs->N) nb = mb;
    else PetscCall(LocalBlocks(Nb, PETSC_FALSE, comm, &nb));
    PetscCall(MatCreate(comm, A));
    PetscCall(MatSetSizes(*A, mb * bs, nb * bs, cs->M, cs->N));
    PetscCall(MatSetBlockSize(*A, bs));
    PetscCall(MatSetType(*A, type));
    PetscCallMPI(MPI_Scan(&mb, &rlo, 1, MPIU_INT, MPI_SUM, comm));
    rlo -= mb;
    PetscCall(PetscMalloc2(mb, &d, mb, &o));
    for (PetscInt Ib = 0; Ib < mb; Ib++) {
      PetscInt K = 4 * cs->w + 6;
      d[Ib]      = PetscMin(nb, K);
      o[Ib]      = PetscMin(Nb - nb, K);
      if (cs->longlen && (rlo + Ib) * bs + bs - 1 >= cs->M - 1) {
        d[Ib] = nb;
        o[Ib] = Nb - nb;
      }
    }
    PetscCall(MatXAIJSetPreallocation(*A, bs, d, o, NULL, NULL));
    PetscCall(PetscFree2(d, o));
    PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
    PetscCall(MatSetLocalToGlobalMapping(*A, c->rmap, c->cmap));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Build(Ctx *c, MatType type, PetscInt seed, PetscInt pv, Mat *A)
{
  PetscFunctionBegin;
  PetscCall(Create(c, type, A));
  PetscCall(Fill(c, *A, seed, pv));
  PetscFunctionReturn(0);
}

/* the pair: the AIJ reference and the same matrix assembled as the type under test */
static PetscErrorCode BuildPair(Ctx *c, PetscInt seed, PetscInt pv, Mat *A, Mat *T)
{
  PetscFunctionBegin;
  PetscCall(Build(c, MATAIJ, seed, pv, A));
  PetscCall(Build(c, c->type, seed, pv, T));
  PetscFunctionReturn(0);
}

static PetscErrorCode DestroyPair(Mat *A, Mat *T)
{
  PetscFunctionBegin;
  PetscCall(MatDestroy(A));
  PetscCall(MatDestroy(T));
  PetscFunctionReturn(0);
}

static PetscBool IsSquare(Mat A)
{
  PetscInt M, N, m, n;
  MatGetSize(A, &M, &N);
  MatGetLocalSize(A, &m, &n);
  return (PetscBool)(M == N && m == n);
}

/* the first column >= from that row (global) of A does not hold, -1 if none */
static PetscErrorCode FreeColumn(Mat A, PetscInt row, PetscInt from, PetscInt *col)
{
  const PetscInt *cols;
  PetscInt        nc, N;

  PetscFunctionBegin;
  PetscCall(MatGetSize(A, NULL, &N));
  PetscCall(MatGetRow(A, row, &nc, &cols, NULL));
  *col = -1;
  for (PetscInt j = from, k = 0; j < N; j++) {
    while (k < nc && cols[k] < j) k++;
    if (k >= nc || cols[k] != j) {
      *col = j;
      break;
    }
  }
  PetscCall(MatRestoreRow(A, row, &nc, &cols, NULL));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------------------------------------------------------- */
/* the groups of operations; each starts from a fresh pair                                                          */

#define BOTH(call_a, call_t) \
  do {                       \
    PetscCall(call_a);       \
    PetscCall(call_t);       \
  } while (0)

static PetscErrorCode GroupAssembly(Ctx *c)
{
  Mat A, T;

  PetscFunctionBegin;
  PetscCall(BuildPair(c, 1, 0, &A, &T));
  PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, c->cs->kind == CASE_DMDA ? "assembly (MatSetValuesStencil/MatSetValuesBlockedStencil)" : "assembly (MatSetValues/MatSetValuesBlocked/MatSetValuesBlockedLocal, off-process entries)"));
  /* same pattern, new values */
  BOTH(MatZeroEntries(A), MatZeroEntries(T));
  BOTH(Fill(c, A, 2, 0), Fill(c, T, 2, 0));
  PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "reassembly, same pattern"));
  if (c->cs->kind == CASE_RANDOM) { /* new nonzero locations into an assembled matrix */
    BOTH(Fill(c, A, 3, 1), Fill(c, T, 3, 1));
    PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "reassembly adding new nonzero locations"));
  }
  PetscCall(DestroyPair(&A, &T));
  PetscFunctionReturn(0);
}

/* local index l with map[l] == g (-1: none) */
static PetscErrorCode FindLocal(ISLocalToGlobalMapping map, PetscInt g, PetscInt *l)
{
  const PetscInt *idx;
  PetscInt        n;

  PetscFunctionBegin;
  PetscCall(ISLocalToGlobalMappingGetSize(map, &n));
  PetscCall(ISLocalToGlobalMappingGetIndices(map, &idx));
  *l = -1;
  for (PetscInt k = 0; k < n; k++)
    if (idx[k] == g) {
      *l = k;
      break;
    }
  PetscCall(ISLocalToGlobalMappingRestoreIndices(map, &idx));
  PetscFunctionReturn(0);
}

static PetscErrorCode GroupSetValues(Ctx *c)
{
  Mat                    A, T, both[2];
  PetscInt               lo, hi, bs, M, N;
  PetscMPIInt            rank, size;
  ISLocalToGlobalMapping rmap, cmap;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(BuildPair(c, 1, 0, &A, &T));
  both[0] = A;
  both[1] = T;
  PetscCall(MatGetOwnershipRange(A, &lo, &hi));
  PetscCall(MatGetSize(A, &M, &N));
  PetscCall(MatGetBlockSize(A, &bs));
  /* INSERT and ADD at existing locations of up to three owned rows, point-wise; a flush between the modes */
  PetscInt first[3] = {-1, -1, -1}, last[3] = {-1, -1, -1}, mid[2] = {-1, -1};
  for (PetscInt i = lo; i < PetscMin(hi, lo + 3); i++) {
    const PetscInt *cols;
    PetscInt        nc;
    PetscCall(MatGetRow(A, i, &nc, &cols, NULL));
    if (nc) {
      first[i - lo] = cols[0];
      last[i - lo]  = cols[nc - 1];
    }
    PetscCall(MatRestoreRow(A, i, &nc, &cols, NULL));
  }
  for (PetscInt i = lo, q = 0; i < PetscMin(hi, lo + 2 * bs); i += bs, q++) {
    const PetscInt *cols;
    PetscInt        nc;
    PetscCall(MatGetRow(A, i, &nc, &cols, NULL));
    if (nc) mid[q] = cols[nc / 2];
    PetscCall(MatRestoreRow(A, i, &nc, &cols, NULL));
  }
  for (PetscInt s = 0; s < 2; s++) {
    for (PetscInt i = lo; i < PetscMin(hi, lo + 3); i++) {
      PetscScalar v = 1.5 + i;
      if (first[i - lo] >= 0) PetscCall(MatSetValues(both[s], 1, &i, 1, &first[i - lo], &v, INSERT_VALUES));
    }
    PetscCall(MatAssemblyBegin(both[s], MAT_FLUSH_ASSEMBLY));
    PetscCall(MatAssemblyEnd(both[s], MAT_FLUSH_ASSEMBLY));
    for (PetscInt i = lo; i < PetscMin(hi, lo + 3); i++) {
      PetscScalar v = 0.25;
      if (last[i - lo] >= 0) PetscCall(MatSetValues(both[s], 1, &i, 1, &last[i - lo], &v, ADD_VALUES));
    }
    PetscCall(MatAssemblyBegin(both[s], MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(both[s], MAT_FINAL_ASSEMBLY));
  }
  PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "MatSetValues INSERT (flush) then ADD at existing locations after assembly"));
  /* MatSetValuesLocal and MatSetValuesBlockedLocal at existing locations */
  PetscCall(MatGetLocalToGlobalMapping(A, &rmap, &cmap));
  for (PetscInt s = 0; s < 2; s++) {
    for (PetscInt i = lo, q = 0; i < PetscMin(hi, lo + 2 * bs); i += bs, q++) {
      PetscInt    col = mid[q], lr, lc, lbr, lbc;
      PetscScalar v[64]; /* a block of bs <= 8 (the bs8 case) */
      if (col < 0) continue;
      PetscCall(FindLocal(rmap, i, &lr));
      PetscCall(FindLocal(cmap, col, &lc));
      for (PetscInt k = 0; k < 64; k++) v[k] = 0.125 * (k + 1);
      if (lr >= 0 && lc >= 0) PetscCall(MatSetValuesLocal(both[s], 1, &lr, 1, &lc, v, ADD_VALUES));
      /* the whole block of that entry, blocked (the blocks are full in every case) */
      {
        ISLocalToGlobalMapping rb = rmap, cb = cmap;
        PetscInt               gbr = i / bs, gbc = col / bs, rbs;
        PetscCall(ISLocalToGlobalMappingGetBlockSize(rmap, &rbs));
        if (rbs == bs) {
          const PetscInt *bi;
          PetscInt        nbl;
          lbr = lbc = -1;
          PetscCall(ISLocalToGlobalMappingGetSize(rb, &nbl));
          nbl /= bs;
          PetscCall(ISLocalToGlobalMappingGetBlockIndices(rb, &bi));
          for (PetscInt k = 0; k < nbl; k++)
            if (bi[k] == gbr) {
              lbr = k;
              break;
            }
          PetscCall(ISLocalToGlobalMappingRestoreBlockIndices(rb, &bi));
          PetscCall(ISLocalToGlobalMappingGetSize(cb, &nbl));
          nbl /= bs;
          PetscCall(ISLocalToGlobalMappingGetBlockIndices(cb, &bi));
          for (PetscInt k = 0; k < nbl; k++)
            if (bi[k] == gbc) {
              lbc = k;
              break;
            }
          PetscCall(ISLocalToGlobalMappingRestoreBlockIndices(cb, &bi));
          if (lbr >= 0 && lbc >= 0) PetscCall(MatSetValuesBlockedLocal(both[s], 1, &lbr, 1, &lbc, v, ADD_VALUES));
        }
        /* and MatSetValuesBlocked with global block indices */
        PetscCall(MatSetValuesBlocked(both[s], 1, &gbr, 1, &gbc, v, ADD_VALUES));
      }
    }
    PetscCall(MatAssemblyBegin(both[s], MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(both[s], MAT_FINAL_ASSEMBLY));
  }
  PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "MatSetValuesLocal ADD / MatSetValuesBlockedLocal ADD / MatSetValuesBlocked ADD after assembly"));
  if (c->cs->kind == CASE_DMDA) {
    DMDALocalInfo in;
    PetscCall(DMDAGetLocalInfo(c->da, &in));
    for (PetscInt s = 0; s < 2; s++) {
      if (in.xm * in.ym * in.zm > 0) {
        MatStencil  r, cc[2];
        PetscScalar v[2 * 16] = {3.0, -2.0, 1.0, 0.5, 0.25, 7.0, 2.0, 1.0, 3.0, -2.0, 1.0, 0.5, 0.25, 7.0, 2.0, 1.0, 3.0, -2.0, 1.0, 0.5, 0.25, 7.0, 2.0, 1.0, 3.0, -2.0, 1.0, 0.5, 0.25, 7.0, 2.0, 1.0};
        r.i                   = in.xs;
        r.j                   = in.ys;
        r.k                   = in.zs;
        r.c                   = in.dof - 1;
        cc[0]                 = r;
        cc[1]                 = r;
        cc[1].i               = r.i + 1 < in.mx || in.bx == DM_BOUNDARY_PERIODIC ? r.i + 1 : r.i - 1;
        cc[1].c               = 0;
        PetscCall(MatSetValuesStencil(both[s], 1, &r, 2, cc, v, INSERT_VALUES));
        PetscCall(MatAssemblyBegin(both[s], MAT_FLUSH_ASSEMBLY));
        PetscCall(MatAssemblyEnd(both[s], MAT_FLUSH_ASSEMBLY));
        PetscCall(MatSetValuesStencil(both[s], 1, &r, 2, cc, v, ADD_VALUES));
        r.c     = 0;
        cc[0].c = 0;
        PetscCall(MatSetValuesBlockedStencil(both[s], 1, &r, 2, cc, v, ADD_VALUES));
      } else {
        PetscCall(MatAssemblyBegin(both[s], MAT_FLUSH_ASSEMBLY));
        PetscCall(MatAssemblyEnd(both[s], MAT_FLUSH_ASSEMBLY));
      }
      PetscCall(MatAssemblyBegin(both[s], MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(both[s], MAT_FINAL_ASSEMBLY));
    }
    PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "MatSetValuesStencil INSERT/ADD, MatSetValuesBlockedStencil ADD after assembly"));
  }
  /* new nonzero locations after assembly: an owned row and an entry of another rank's row */
  PetscInt fcol = -1;
  if (hi > lo) PetscCall(FreeColumn(A, lo, 0, &fcol));
  for (PetscInt s = 0; s < 2; s++) {
    PetscCall(MatSetOption(both[s], MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
    if (hi > lo) {
      PetscInt    col = fcol, row = lo;
      PetscScalar v = 9.5;
      if (col >= 0) PetscCall(MatSetValues(both[s], 1, &row, 1, &col, &v, ADD_VALUES));
    }
    {
      PetscInt    row = (hi < M ? hi : 0), col = (rank * 7 + 3) % N;
      PetscScalar v = -1.25;
      PetscCall(MatSetValues(both[s], 1, &row, 1, &col, &v, ADD_VALUES));
    }
    PetscCall(MatAssemblyBegin(both[s], MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(both[s], MAT_FINAL_ASSEMBLY));
  }
  PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "MatSetValues at new nonzero locations after assembly (own and other rank's rows)"));
  PetscCall(DestroyPair(&A, &T));
  PetscFunctionReturn(0);
}

static PetscErrorCode GroupZero(Ctx *c)
{
  Mat         A, T;
  PetscInt    lo, hi, M, nr = 0, rows[8];
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(BuildPair(c, 1, 0, &A, &T));
  BOTH(MatZeroEntries(A), MatZeroEntries(T));
  PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "MatZeroEntries"));
  PetscCall(DestroyPair(&A, &T));
  PetscCall(BuildPair(c, 1, 0, &A, &T));
  PetscCall(MatGetOwnershipRange(A, &lo, &hi));
  PetscCall(MatGetSize(A, &M, NULL));
  /* rows: two owned, one of another rank, the last (long) row from rank 0 */
  if (hi > lo) rows[nr++] = lo;
  if (hi - lo > 3) rows[nr++] = lo + 3;
  rows[nr++] = (hi + 1) % M;
  if (!rank) rows[nr++] = M - 1;
  if (IsSquare(A)) {
    Vec xa, ba, xt, bt;
    PetscCall(MatCreateVecs(A, &xa, &ba));
    PetscCall(MatCreateVecs(T, &xt, &bt));
    PetscCall(VecSetRandom(xa, NULL));
    PetscCall(VecSetRandom(ba, NULL));
    PetscCall(CopyVals(xa, xt));
    PetscCall(CopyVals(ba, bt));
    BOTH(MatZeroRows(A, nr, rows, 2.5, xa, ba), MatZeroRows(T, nr, rows, 2.5, xt, bt));
    PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "MatZeroRows (diag 2.5, x, b)"));
    PetscCall(CheckVec(c, bt, ba, NULL, 0.0, "MatZeroRows (diag 2.5, x, b)", "b"));
    BOTH(MatZeroRows(A, nr, rows, 0.0, NULL, NULL), MatZeroRows(T, nr, rows, 0.0, NULL, NULL));
    PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "MatZeroRows (diag 0)"));
    PetscCall(DestroyPair(&A, &T));
    PetscCall(BuildPair(c, 1, 0, &A, &T));
    PetscCall(VecSetRandom(ba, NULL));
    PetscCall(CopyVals(ba, bt));
    BOTH(MatZeroRowsColumns(A, nr, rows, 3.0, xa, ba), MatZeroRowsColumns(T, nr, rows, 3.0, xt, bt));
    PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "MatZeroRowsColumns (diag 3, x, b)"));
    PetscCall(CheckVec(c, bt, ba, NULL, 1e-14, "MatZeroRowsColumns (diag 3, x, b)", "b"));
    BOTH(MatZeroRowsColumns(A, nr, rows, 1.0, NULL, NULL), MatZeroRowsColumns(T, nr, rows, 1.0, NULL, NULL));
    PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "MatZeroRowsColumns (diag 1)"));
    PetscCall(VecDestroy(&xa));
    PetscCall(VecDestroy(&ba));
    PetscCall(VecDestroy(&xt));
    PetscCall(VecDestroy(&bt));
  } else {
    BOTH(MatZeroRows(A, nr, rows, 0.0, NULL, NULL), MatZeroRows(T, nr, rows, 0.0, NULL, NULL));
    PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "MatZeroRows (rectangular, diag 0)"));
  }
  PetscCall(DestroyPair(&A, &T));
  PetscFunctionReturn(0);
}

static PetscErrorCode GroupScale(Ctx *c)
{
  Mat A, T;
  Vec la, ra, lt, rt;

  PetscFunctionBegin;
  PetscCall(BuildPair(c, 1, 0, &A, &T));
  BOTH(MatScale(A, -1.5), MatScale(T, -1.5));
  PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "MatScale"));
  PetscCall(MatCreateVecs(A, &ra, &la));
  PetscCall(MatCreateVecs(T, &rt, &lt));
  PetscCall(VecSetRandom(la, NULL));
  PetscCall(VecSetRandom(ra, NULL));
  PetscCall(CopyVals(la, lt));
  PetscCall(CopyVals(ra, rt));
  BOTH(MatDiagonalScale(A, la, ra), MatDiagonalScale(T, lt, rt));
  PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "MatDiagonalScale (l, r)"));
  BOTH(MatDiagonalScale(A, NULL, ra), MatDiagonalScale(T, NULL, rt));
  PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "MatDiagonalScale (NULL, r)"));
  BOTH(MatDiagonalScale(A, la, NULL), MatDiagonalScale(T, lt, NULL));
  PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "MatDiagonalScale (l, NULL)"));
  if (IsSquare(A)) {
    BOTH(MatShift(A, 3.0), MatShift(T, 3.0));
    PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "MatShift (missing diagonal entries on the empty rows)"));
    BOTH(MatDiagonalSet(A, la, INSERT_VALUES), MatDiagonalSet(T, lt, INSERT_VALUES));
    PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "MatDiagonalSet INSERT_VALUES"));
    BOTH(MatDiagonalSet(A, ra, ADD_VALUES), MatDiagonalSet(T, rt, ADD_VALUES));
    PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "MatDiagonalSet ADD_VALUES"));
    PetscCall(DestroyPair(&A, &T));
    PetscCall(BuildPair(c, 1, 0, &A, &T));
    BOTH(MatDiagonalSet(A, la, ADD_VALUES), MatDiagonalSet(T, lt, ADD_VALUES));
    PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "MatDiagonalSet ADD_VALUES (missing diagonal entries)"));
  }
  PetscCall(VecDestroy(&la));
  PetscCall(VecDestroy(&ra));
  PetscCall(VecDestroy(&lt));
  PetscCall(VecDestroy(&rt));
  PetscCall(DestroyPair(&A, &T));
  PetscFunctionReturn(0);
}

/* a matrix (type 'type') with every other entry of each row of the AIJ matrix R: a subset of R's pattern */
static PetscErrorCode SubsetOf(Ctx *c, Mat R, MatType type, Mat *S)
{
  PetscInt lo, hi;

  PetscFunctionBegin;
  PetscCall(Create(c, type, S));
  PetscCall(MatGetOwnershipRange(R, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) {
    const PetscInt    *cols;
    const PetscScalar *v;
    PetscInt           nc;
    PetscCall(MatGetRow(R, i, &nc, &cols, &v));
    for (PetscInt k = 0; k < nc; k += 2) {
      PetscScalar w = 0.5 * v[k] + 0.125;
      PetscCall(MatSetValues(*S, 1, &i, 1, &cols[k], &w, INSERT_VALUES));
    }
    PetscCall(MatRestoreRow(R, i, &nc, &cols, &v));
  }
  PetscCall(MatAssemblyBegin(*S, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*S, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

static PetscErrorCode GroupAXPY(Ctx *c)
{
  Mat A, T, XA, XT;

  PetscFunctionBegin;
  for (PetscInt ay = 0; ay < 2; ay++) {
    const char *fn = ay ? "MatAYPX" : "MatAXPY";
    char        op[128];
    PetscCall(BuildPair(c, 1, 0, &A, &T));
    /* SAME: X of Y's pattern, other values */
    PetscCall(BuildPair(c, 4, 0, &XA, &XT));
    if (ay) BOTH(MatAYPX(A, -0.75, XA, SAME_NONZERO_PATTERN), MatAYPX(T, -0.75, XT, SAME_NONZERO_PATTERN));
    else BOTH(MatAXPY(A, -0.75, XA, SAME_NONZERO_PATTERN), MatAXPY(T, -0.75, XT, SAME_NONZERO_PATTERN));
    PetscCall(PetscSNPrintf(op, sizeof(op), "%s SAME_NONZERO_PATTERN", fn));
    PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, op));
    PetscCall(DestroyPair(&XA, &XT));
    /* SUBSET */
    PetscCall(SubsetOf(c, A, MATAIJ, &XA));
    PetscCall(SubsetOf(c, A, c->type, &XT));
    if (ay) BOTH(MatAYPX(A, 1.25, XA, SUBSET_NONZERO_PATTERN), MatAYPX(T, 1.25, XT, SUBSET_NONZERO_PATTERN));
    else BOTH(MatAXPY(A, 1.25, XA, SUBSET_NONZERO_PATTERN), MatAXPY(T, 1.25, XT, SUBSET_NONZERO_PATTERN));
    PetscCall(PetscSNPrintf(op, sizeof(op), "%s SUBSET_NONZERO_PATTERN", fn));
    PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, op));
    PetscCall(DestroyPair(&XA, &XT));
    /* DIFFERENT (the shifted pattern of DMDA cases: a sub-pattern) */
    PetscCall(BuildPair(c, 5, 1, &XA, &XT));
    if (ay) BOTH(MatAYPX(A, 0.5, XA, DIFFERENT_NONZERO_PATTERN), MatAYPX(T, 0.5, XT, DIFFERENT_NONZERO_PATTERN));
    else BOTH(MatAXPY(A, 0.5, XA, DIFFERENT_NONZERO_PATTERN), MatAXPY(T, 0.5, XT, DIFFERENT_NONZERO_PATTERN));
    PetscCall(PetscSNPrintf(op, sizeof(op), "%s DIFFERENT_NONZERO_PATTERN", fn));
    PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, op));
    /* X of type AIJ added to the tested type */
    if (!ay) {
      BOTH(MatAXPY(A, 2.0, XA, DIFFERENT_NONZERO_PATTERN), MatAXPY(T, 2.0, XA, DIFFERENT_NONZERO_PATTERN));
      PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "MatAXPY DIFFERENT_NONZERO_PATTERN, X of type aij"));
    }
    PetscCall(DestroyPair(&XA, &XT));
    PetscCall(DestroyPair(&A, &T));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode GroupCopyDup(Ctx *c)
{
  Mat                A, T, XA, XT, DA, DT;
  MatDuplicateOption opts[3]  = {MAT_DO_NOT_COPY_VALUES, MAT_COPY_VALUES, MAT_SHARE_NONZERO_PATTERN};
  const char        *names[3] = {"MAT_DO_NOT_COPY_VALUES", "MAT_COPY_VALUES", "MAT_SHARE_NONZERO_PATTERN"};
  char               op[128];

  PetscFunctionBegin;
  PetscCall(BuildPair(c, 1, 0, &A, &T));
  for (PetscInt k = 0; k < 3; k++) {
    PetscCall(MatDuplicate(A, opts[k], &DA));
    PetscCall(MatDuplicate(T, opts[k], &DT));
    PetscCall(PetscSNPrintf(op, sizeof(op), "MatDuplicate %s", names[k]));
    PetscCall(CheckMat(c, DT, DA, CK_TYPE | CK_PATTERN, 0.0, op));
    /* the duplicate changes, the original does not */
    PetscCall(MatCopy(A, DA, SAME_NONZERO_PATTERN));
    PetscCall(MatCopy(A, DT, SAME_NONZERO_PATTERN));
    BOTH(MatScale(DA, 3.0), MatScale(DT, 3.0));
    PetscCall(PetscSNPrintf(op, sizeof(op), "MatDuplicate %s, then MatCopy from aij and MatScale of the duplicate", names[k]));
    PetscCall(CheckMat(c, DT, DA, CK_TYPE | CK_PATTERN, 0.0, op));
    PetscCall(PetscSNPrintf(op, sizeof(op), "the original after MatDuplicate %s and a change of the duplicate", names[k]));
    PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, op));
    PetscCall(DestroyPair(&DA, &DT));
  }
  /* MatCopy: same pattern, different pattern, subset, to and from aij */
  PetscCall(BuildPair(c, 6, 0, &XA, &XT));
  BOTH(MatCopy(XA, A, SAME_NONZERO_PATTERN), MatCopy(XT, T, SAME_NONZERO_PATTERN));
  PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "MatCopy SAME_NONZERO_PATTERN"));
  PetscCall(DestroyPair(&XA, &XT));
  PetscCall(BuildPair(c, 7, 1, &XA, &XT));
  BOTH(MatCopy(XA, A, DIFFERENT_NONZERO_PATTERN), MatCopy(XT, T, DIFFERENT_NONZERO_PATTERN));
  PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "MatCopy DIFFERENT_NONZERO_PATTERN"));
  PetscCall(SubsetOf(c, XA, MATAIJ, &DA));
  PetscCall(SubsetOf(c, XA, c->type, &DT));
  BOTH(MatCopy(DA, A, SUBSET_NONZERO_PATTERN), MatCopy(DT, T, SUBSET_NONZERO_PATTERN));
  PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "MatCopy SUBSET_NONZERO_PATTERN"));
  PetscCall(DestroyPair(&DA, &DT));
  PetscCall(DestroyPair(&XA, &XT));
  PetscCall(DestroyPair(&A, &T));
  PetscCall(BuildPair(c, 1, 0, &A, &T));
  PetscCall(BuildPair(c, 6, 0, &XA, &XT));
  BOTH(MatCopy(XA, A, SAME_NONZERO_PATTERN), MatCopy(XA, T, SAME_NONZERO_PATTERN));
  PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "MatCopy aij -> tested type"));
  BOTH(MatScale(A, 2.0), MatScale(T, 2.0));
  PetscCall(MatCopy(T, XA, SAME_NONZERO_PATTERN));
  PetscCall(CheckMat(c, XA, A, CK_AIJTYPE | CK_PATTERN, 0.0, "MatCopy tested type -> aij"));
  PetscCall(DestroyPair(&XA, &XT));
  PetscCall(DestroyPair(&A, &T));
  PetscFunctionReturn(0);
}

static PetscErrorCode GroupConvert(Ctx *c)
{
  Mat A, T, C, B, E;

  PetscFunctionBegin;
  PetscCall(BuildPair(c, 1, 0, &A, &T));
  PetscCall(MatConvert(A, c->type, MAT_INITIAL_MATRIX, &C));
  PetscCall(CheckMat(c, C, A, CK_TYPE | CK_PATTERN, 0.0, "MatConvert aij -> tested MAT_INITIAL_MATRIX"));
  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &B));
  PetscCall(MatScale(B, 3.0));
  PetscCall(MatConvert(B, c->type, MAT_REUSE_MATRIX, &C));
  PetscCall(CheckMat(c, C, B, CK_TYPE | CK_PATTERN, 0.0, "MatConvert aij -> tested MAT_REUSE_MATRIX"));
  PetscCall(MatConvert(B, c->type, MAT_INPLACE_MATRIX, &B));
  PetscCall(MatScale(A, 3.0));
  PetscCall(CheckMat(c, B, A, CK_TYPE | CK_PATTERN, 0.0, "MatConvert aij -> tested MAT_INPLACE_MATRIX"));
  PetscCall(MatScale(B, 0.5)); /* the first change after an in-place conversion */
  PetscCall(MatScale(A, 0.5));
  PetscCall(CheckMat(c, B, A, CK_TYPE | CK_PATTERN, 0.0, "MatConvert aij -> tested MAT_INPLACE_MATRIX, then MatScale"));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&C));
  PetscCall(MatScale(A, 2.0 / 3.0));
  PetscCall(MatScale(A, 0.5));
  /* A = T again (up to the rounding of the scalings: compare against a fresh pair) */
  PetscCall(DestroyPair(&A, &T));
  PetscCall(BuildPair(c, 1, 0, &A, &T));
  PetscCall(MatConvert(T, MATAIJ, MAT_INITIAL_MATRIX, &E));
  PetscCall(CheckMat(c, E, A, CK_AIJTYPE | CK_PATTERN, 0.0, "MatConvert tested -> aij MAT_INITIAL_MATRIX"));
  BOTH(MatScale(A, -2.0), MatScale(T, -2.0));
  PetscCall(MatConvert(T, MATAIJ, MAT_REUSE_MATRIX, &E));
  PetscCall(CheckMat(c, E, A, CK_AIJTYPE | CK_PATTERN, 0.0, "MatConvert tested -> aij MAT_REUSE_MATRIX"));
  PetscCall(MatDestroy(&E));
  PetscCall(MatDuplicate(T, MAT_COPY_VALUES, &E));
  PetscCall(MatConvert(E, MATAIJ, MAT_INPLACE_MATRIX, &E));
  PetscCall(CheckMat(c, E, A, CK_AIJTYPE | CK_PATTERN, 0.0, "MatConvert tested -> aij MAT_INPLACE_MATRIX"));
  PetscCall(MatDestroy(&E));
  /* tested -> tested (MATSAME) */
  PetscCall(MatConvert(T, MATSAME, MAT_INITIAL_MATRIX, &E));
  PetscCall(CheckMat(c, E, A, CK_TYPE | CK_PATTERN, 0.0, "MatConvert tested -> MATSAME MAT_INITIAL_MATRIX"));
  PetscCall(MatDestroy(&E));
  PetscCall(DestroyPair(&A, &T));
  PetscFunctionReturn(0);
}

static PetscErrorCode GroupSub(Ctx *c)
{
  Mat         A, T, SA, ST, *sa, *st;
  IS          isr, isc;
  PetscInt    lo, hi, clo, chi, M, N;
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(BuildPair(c, 1, 0, &A, &T));
  PetscCall(MatGetSize(A, &M, &N));
  PetscCall(MatGetOwnershipRange(A, &lo, &hi));
  PetscCall(MatGetOwnershipRangeColumn(A, &clo, &chi));
  /* parallel: every other owned row, the owned columns but every third */
  PetscCall(ISCreateStride(PETSC_COMM_WORLD, (hi - lo + 1) / 2, lo, 2, &isr));
  {
    PetscInt *idx, n = 0;
    PetscCall(PetscMalloc1(chi - clo, &idx));
    for (PetscInt j = clo; j < chi; j++)
      if (j % 3 != 1) idx[n++] = j;
    PetscCall(ISCreateGeneral(PETSC_COMM_WORLD, n, idx, PETSC_OWN_POINTER, &isc));
  }
  BOTH(MatCreateSubMatrix(A, isr, isc, MAT_INITIAL_MATRIX, &SA), MatCreateSubMatrix(T, isr, isc, MAT_INITIAL_MATRIX, &ST));
  PetscCall(CheckMat(c, ST, SA, CK_PATTERN | CK_SHOWTYPE, 0.0, "MatCreateSubMatrix MAT_INITIAL_MATRIX"));
  BOTH(MatScale(A, 2.0), MatScale(T, 2.0));
  BOTH(MatCreateSubMatrix(A, isr, isc, MAT_REUSE_MATRIX, &SA), MatCreateSubMatrix(T, isr, isc, MAT_REUSE_MATRIX, &ST));
  PetscCall(CheckMat(c, ST, SA, CK_PATTERN, 0.0, "MatCreateSubMatrix MAT_REUSE_MATRIX (after MatScale)"));
  PetscCall(DestroyPair(&SA, &ST));
  PetscCall(ISDestroy(&isr));
  PetscCall(ISDestroy(&isc));
  /* sequential: rows of any rank (every fifth, shifted by the rank), columns every other */
  PetscCall(ISCreateStride(PETSC_COMM_SELF, (M - rank + 4) / 5, rank, 5, &isr));
  PetscCall(ISCreateStride(PETSC_COMM_SELF, (N + 1) / 2, 0, 2, &isc));
  BOTH(MatCreateSubMatrices(A, 1, &isr, &isc, MAT_INITIAL_MATRIX, &sa), MatCreateSubMatrices(T, 1, &isr, &isc, MAT_INITIAL_MATRIX, &st));
  PetscCall(CheckMat(c, st[0], sa[0], CK_PATTERN | CK_SHOWTYPE, 0.0, "MatCreateSubMatrices MAT_INITIAL_MATRIX"));
  BOTH(MatScale(A, -1.0), MatScale(T, -1.0));
  BOTH(MatCreateSubMatrices(A, 1, &isr, &isc, MAT_REUSE_MATRIX, &sa), MatCreateSubMatrices(T, 1, &isr, &isc, MAT_REUSE_MATRIX, &st));
  PetscCall(CheckMat(c, st[0], sa[0], CK_PATTERN, 0.0, "MatCreateSubMatrices MAT_REUSE_MATRIX (after MatScale)"));
  PetscCall(MatDestroySubMatrices(1, &sa));
  PetscCall(MatDestroySubMatrices(1, &st));
  PetscCall(ISDestroy(&isr));
  PetscCall(ISDestroy(&isc));
  if (IsSquare(A)) {
    BOTH(MatGetDiagonalBlock(A, &SA), MatGetDiagonalBlock(T, &ST));
    PetscCall(CheckMat(c, ST, SA, CK_PATTERN | CK_SHOWTYPE, 0.0, "MatGetDiagonalBlock"));
    BOTH(MatScale(A, 0.5), MatScale(T, 0.5));
    BOTH(MatGetDiagonalBlock(A, &SA), MatGetDiagonalBlock(T, &ST));
    PetscCall(CheckMat(c, ST, SA, CK_PATTERN, 0.0, "MatGetDiagonalBlock after MatScale of the matrix"));
  }
  PetscCall(DestroyPair(&A, &T));
  PetscFunctionReturn(0);
}

/* a thin matrix (type 'type') with the row layout of R and 7 columns, two entries a row */
static PetscErrorCode Thin(Mat R, MatType type, Mat *G)
{
  PetscInt lo, hi, m;

  PetscFunctionBegin;
  PetscCall(MatGetOwnershipRange(R, &lo, &hi));
  PetscCall(MatGetLocalSize(R, &m, NULL));
  PetscCall(MatCreate(PetscObjectComm((PetscObject)R), G));
  PetscCall(MatSetSizes(*G, m, PETSC_DECIDE, PETSC_DETERMINE, 7));
  PetscCall(MatSetType(*G, type));
  PetscCall(MatXAIJSetPreallocation(*G, 1, NULL, NULL, NULL, NULL));
  PetscCall(MatSetOption(*G, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  for (PetscInt i = lo; i < hi; i++) {
    PetscInt    cols[2] = {i % 7, (3 * i + 1) % 7};
    PetscScalar v[2]    = {HashVal(i, 0, 9), HashVal(i, 1, 9)};
    PetscCall(MatSetValues(*G, 1, &i, cols[0] == cols[1] ? 1 : 2, cols, v, ADD_VALUES));
  }
  PetscCall(MatAssemblyBegin(*G, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*G, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

static PetscErrorCode GroupTranspose(Ctx *c)
{
  Mat       A, T, At, Tt, PA, PT, GA, GT, QA, QT, RA, RT;
  PetscBool transposeok;

  PetscFunctionBegin;
  PetscCall(BuildPair(c, 1, 0, &A, &T));
  BOTH(MatTranspose(A, MAT_INITIAL_MATRIX, &At), MatTranspose(T, MAT_INITIAL_MATRIX, &Tt));
  PetscCall(CheckAssembledThenMat(c, Tt, At, CK_PATTERN | CK_SHOWTYPE, 0.0, "MatTranspose MAT_INITIAL_MATRIX"));
  PetscCall(MatAssembled(Tt, &transposeok));
  BOTH(MatScale(A, 1.5), MatScale(T, 1.5));
  {
    PetscBool ok;
    PetscCall(MatAssembled(Tt, &ok));
    if (ok) {
      BOTH(MatTranspose(A, MAT_REUSE_MATRIX, &At), MatTranspose(T, MAT_REUSE_MATRIX, &Tt));
      PetscCall(CheckAssembledThenMat(c, Tt, At, CK_PATTERN, 0.0, "MatTranspose MAT_REUSE_MATRIX (after MatScale)"));
    } else PetscCall(MatTranspose(A, MAT_REUSE_MATRIX, &At));
  }
  /* the operand T^T of the products below: the AIJ transpose converted (independent of MatTranspose of the type) */
  PetscCall(MatDestroy(&Tt));
  PetscCall(MatConvert(At, c->type, MAT_INITIAL_MATRIX, &Tt));
  /* products: T T^T, PtAP with a thin P, T^T G */
  BOTH(MatMatMult(A, At, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &PA), MatMatMult(T, Tt, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &PT));
  PetscCall(CheckMat(c, PT, PA, CK_SHOWTYPE, 1e-13, "MatMatMult(T, T^T) MAT_INITIAL_MATRIX"));
  BOTH(MatScale(A, -0.5), MatScale(T, -0.5));
  PetscCall(MatTranspose(A, MAT_REUSE_MATRIX, &At));
  PetscCall(MatConvert(At, c->type, MAT_REUSE_MATRIX, &Tt));
  BOTH(MatMatMult(A, At, MAT_REUSE_MATRIX, PETSC_DEFAULT, &PA), MatMatMult(T, Tt, MAT_REUSE_MATRIX, PETSC_DEFAULT, &PT));
  PetscCall(CheckMat(c, PT, PA, 0, 1e-13, "MatMatMult(T, T^T) MAT_REUSE_MATRIX (after MatScale)"));
  PetscCall(Thin(A, MATAIJ, &GA));
  PetscCall(Thin(T, c->type, &GT));
  BOTH(MatPtAP(PA, GA, MAT_INITIAL_MATRIX, 2.0, &QA), MatPtAP(PT, GT, MAT_INITIAL_MATRIX, 2.0, &QT));
  PetscCall(CheckMat(c, QT, QA, CK_SHOWTYPE, 1e-13, "MatPtAP(T T^T, G) MAT_INITIAL_MATRIX"));
  BOTH(MatScale(PA, 2.0), MatScale(PT, 2.0));
  BOTH(MatPtAP(PA, GA, MAT_REUSE_MATRIX, 2.0, &QA), MatPtAP(PT, GT, MAT_REUSE_MATRIX, 2.0, &QT));
  PetscCall(CheckMat(c, QT, QA, 0, 1e-13, "MatPtAP(T T^T, G) MAT_REUSE_MATRIX (after MatScale)"));
  if (transposeok) {
    BOTH(MatTransposeMatMult(A, GA, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &RA), MatTransposeMatMult(T, GT, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &RT));
    PetscCall(CheckMat(c, RT, RA, CK_SHOWTYPE, 1e-13, "MatTransposeMatMult(T, G) MAT_INITIAL_MATRIX"));
    BOTH(MatScale(A, 3.0), MatScale(T, 3.0));
    BOTH(MatTransposeMatMult(A, GA, MAT_REUSE_MATRIX, PETSC_DEFAULT, &RA), MatTransposeMatMult(T, GT, MAT_REUSE_MATRIX, PETSC_DEFAULT, &RT));
    PetscCall(CheckMat(c, RT, RA, 0, 1e-13, "MatTransposeMatMult(T, G) MAT_REUSE_MATRIX (after MatScale)"));
    PetscCall(DestroyPair(&RA, &RT));
  } else /* AIJ's product transposes T with MatTranspose: it would read the unassembled transpose and crash */
    PetscCall(CheckTrue(c, PETSC_COMM_WORLD, PETSC_FALSE, "MatTransposeMatMult(T, G)", "not run: MatTranspose of the type gives an unassembled matrix, which the product reads (SEGV)"));
  PetscCall(DestroyPair(&QA, &QT));
  PetscCall(DestroyPair(&GA, &GT));
  PetscCall(DestroyPair(&PA, &PT));
  PetscCall(DestroyPair(&At, &Tt));
  if (IsSquare(A) && transposeok) {
    BOTH(MatTranspose(A, MAT_INPLACE_MATRIX, &A), MatTranspose(T, MAT_INPLACE_MATRIX, &T));
    PetscCall(CheckAssembledThenMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "MatTranspose MAT_INPLACE_MATRIX"));
  }
  PetscCall(DestroyPair(&A, &T));
  PetscFunctionReturn(0);
}

static PetscErrorCode GroupNormEqual(Ctx *c)
{
  Mat         A, T, A2, T2;
  NormType    nt[3] = {NORM_1, NORM_FROBENIUS, NORM_INFINITY};
  const char *nn[3] = {"MatNorm NORM_1", "MatNorm NORM_FROBENIUS", "MatNorm NORM_INFINITY"};
  PetscBool   ea, et;
  PetscInt    lo, hi;

  PetscFunctionBegin;
  PetscCall(BuildPair(c, 1, 0, &A, &T));
  for (PetscInt k = 0; k < 3; k++) {
    PetscReal na, nt2;
    PetscCall(MatNorm(A, nt[k], &na));
    PetscCall(MatNorm(T, nt[k], &nt2));
    PetscCall(CheckScalar(c, PETSC_COMM_WORLD, nt2, na, 1e-13, nn[k], "norm"));
  }
  BOTH(MatDuplicate(A, MAT_COPY_VALUES, &A2), MatDuplicate(T, MAT_COPY_VALUES, &T2));
  PetscCall(MatEqual(A, A2, &ea));
  PetscCall(MatEqual(T, T2, &et));
  PetscCall(CheckTrue(c, PETSC_COMM_WORLD, (PetscBool)(ea == et && et), "MatEqual (duplicate)", et ? "AIJ says not equal" : "says not equal"));
  PetscCall(MatGetOwnershipRange(A, &lo, &hi));
  {
    PetscMPIInt size;
    PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
    /* change one existing entry on the rank that owns the row of the middle */
    PetscInt row = -1, col = -1, M;
    PetscCall(MatGetSize(A, &M, NULL));
    for (PetscInt i = PetscMax(lo, M / 2); i < hi && row < 0; i++) {
      const PetscInt *cols;
      PetscInt        nc;
      PetscCall(MatGetRow(A, i, &nc, &cols, NULL));
      if (nc) {
        row = i;
        col = cols[0];
      }
      PetscCall(MatRestoreRow(A, i, &nc, &cols, NULL));
    }
    {
      PetscInt in = row >= 0 ? row : PETSC_MAX_INT, out;
      PetscCall(MPIU_Allreduce(&in, &out, 1, MPIU_INT, MPI_MIN, PETSC_COMM_WORLD));
      if (row != out) row = -1;
    }
    if (row >= 0) {
      PetscScalar v = 1e-3;
      PetscCall(MatSetValues(A2, 1, &row, 1, &col, &v, ADD_VALUES));
      PetscCall(MatSetValues(T2, 1, &row, 1, &col, &v, ADD_VALUES));
    }
    BOTH(MatAssemblyBegin(A2, MAT_FINAL_ASSEMBLY), MatAssemblyBegin(T2, MAT_FINAL_ASSEMBLY));
    BOTH(MatAssemblyEnd(A2, MAT_FINAL_ASSEMBLY), MatAssemblyEnd(T2, MAT_FINAL_ASSEMBLY));
  }
  PetscCall(MatEqual(A, A2, &ea));
  PetscCall(MatEqual(T, T2, &et));
  PetscCall(CheckTrue(c, PETSC_COMM_WORLD, (PetscBool)(ea == et), "MatEqual (one entry changed)", "differs from AIJ's answer"));
  PetscCall(DestroyPair(&A2, &T2));
  PetscCall(DestroyPair(&A, &T));
  PetscFunctionReturn(0);
}

static PetscErrorCode GroupStore(Ctx *c)
{
  Mat A, T;

  PetscFunctionBegin;
  PetscCall(BuildPair(c, 1, 0, &A, &T));
  BOTH(MatSetOption(A, MAT_NEW_NONZERO_LOCATIONS, PETSC_FALSE), MatSetOption(T, MAT_NEW_NONZERO_LOCATIONS, PETSC_FALSE));
  BOTH(MatStoreValues(A), MatStoreValues(T));
  BOTH(MatScale(A, 4.0), MatScale(T, 4.0));
  PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "MatStoreValues, then MatScale"));
  BOTH(MatRetrieveValues(A), MatRetrieveValues(T));
  PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "MatRetrieveValues"));
  BOTH(MatZeroEntries(A), MatZeroEntries(T));
  BOTH(Fill(c, A, 8, 0), Fill(c, T, 8, 0));
  BOTH(MatRetrieveValues(A), MatRetrieveValues(T));
  PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "MatRetrieveValues after a reassembly"));
  BOTH(MatSetOption(A, MAT_NEW_NONZERO_LOCATIONS, PETSC_TRUE), MatSetOption(T, MAT_NEW_NONZERO_LOCATIONS, PETSC_TRUE));
  PetscCall(DestroyPair(&A, &T));
  /* MatResetPreallocation, then a new fill. PETSc 3.18's MPIAIJ refuses it on an assembled matrix on some ranks (its
     diagonal block no longer knows its preallocation): the type must then refuse it too (errors reduced over ranks) */
  PetscCall(BuildPair(c, 1, 0, &A, &T));
  {
    Mat            both[2] = {A, T};
    PetscErrorCode e[2], eg[2];
    char           msg[128];

    for (PetscInt s = 0; s < 2; s++) {
      PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
      e[s] = MatResetPreallocation(both[s]);
      PetscCall(PetscPopErrorHandler());
    }
    PetscCallMPI(MPI_Allreduce(e, eg, 2, MPI_INT, MPI_MAX, PETSC_COMM_WORLD));
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "error %d, AIJ gives error %d", (int)eg[1], (int)eg[0]));
    PetscCall(Report(c, PETSC_COMM_WORLD, (PetscBool)((eg[0] != 0) != (eg[1] != 0)), -1, "MatResetPreallocation", msg));
    if (!eg[0] && !eg[1]) {
      BOTH(MatSetOption(A, MAT_NEW_NONZERO_LOCATION_ERR, PETSC_FALSE), MatSetOption(T, MAT_NEW_NONZERO_LOCATION_ERR, PETSC_FALSE));
      BOTH(Fill(c, A, 9, 0), Fill(c, T, 9, 0));
      PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "MatResetPreallocation, then a new assembly"));
    }
  }
  PetscCall(DestroyPair(&A, &T));
  PetscFunctionReturn(0);
}

/* MatSetValues at a new location under each option: an error where AIJ errors, the same matrix afterwards */
static PetscErrorCode GroupOptions(Ctx *c)
{
  MatOption   opts[3]  = {MAT_NEW_NONZERO_LOCATIONS, MAT_NEW_NONZERO_LOCATION_ERR, MAT_NEW_NONZERO_ALLOCATION_ERR};
  PetscBool   flg[3]   = {PETSC_FALSE, PETSC_TRUE, PETSC_TRUE};
  const char *names[3] = {"MatSetOption(MAT_NEW_NONZERO_LOCATIONS, false)", "MatSetOption(MAT_NEW_NONZERO_LOCATION_ERR)", "MatSetOption(MAT_NEW_NONZERO_ALLOCATION_ERR)"};

  PetscFunctionBegin;
  for (PetscInt k = 0; k < 3; k++) {
    Mat            A, T, both[2];
    PetscErrorCode ierr[2] = {0, 0};
    PetscInt       lo, hi, col = -1, row;
    char           msg[256], op[160];
    PetscCall(BuildPair(c, 1, 0, &A, &T));
    both[0] = A;
    both[1] = T;
    PetscCall(MatGetOwnershipRange(A, &lo, &hi));
    row         = lo;
    PetscInt ec = -1;
    if (hi > lo) {
      const PetscInt *cols;
      PetscInt        nc;
      PetscCall(FreeColumn(A, row, 0, &col));
      PetscCall(MatGetRow(A, row, &nc, &cols, NULL));
      if (nc) ec = cols[0];
      PetscCall(MatRestoreRow(A, row, &nc, &cols, NULL));
    }
    for (PetscInt s = 0; s < 2; s++) {
      PetscScalar v = 5.0;
      PetscCall(MatSetOption(both[s], opts[k], flg[k]));
      if (col >= 0) {
        PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
        ierr[s] = MatSetValues(both[s], 1, &row, 1, &col, &v, INSERT_VALUES);
        PetscCall(PetscPopErrorHandler());
      }
      /* an existing location is always fine */
      if (ec >= 0) PetscCall(MatSetValues(both[s], 1, &row, 1, &ec, &v, INSERT_VALUES));
      PetscCall(MatAssemblyBegin(both[s], MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(both[s], MAT_FINAL_ASSEMBLY));
    }
    PetscCall(PetscSNPrintf(op, sizeof(op), "%s, MatSetValues at a new location", names[k]));
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "error %d, AIJ gives error %d (row %" PetscInt_FMT ", column %" PetscInt_FMT ")", (int)ierr[1], (int)ierr[0], row, col));
    PetscCall(Report(c, PETSC_COMM_WORLD, (PetscBool)((ierr[0] != 0) != (ierr[1] != 0)), row, op, msg));
    PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, op));
    PetscCall(DestroyPair(&A, &T));
  }
  PetscFunctionReturn(0);
}

/* PCGAMG on the type (issue 34 item 5): the strength graph (MatCreateGraph, which PETSc's AIJ code refuses on any other
   type name) equals AIJ's, and GAMG built on the type applies as GAMG built on AIJ (square cases; the matrix shifted
   by its infinity norm, so it is diagonally dominant and GAMG's smoothers are defined) */
static PetscErrorCode GroupGAMG(Ctx *c)
{
  Mat         A, T, GA, GT;
  PetscInt    M, N;
  PetscReal   s, ny, nd;
  KSP         k[2];
  Vec         b, y[2];
  char        msg[128];
  PetscMPIInt size;
  PetscBool   rap;

  PetscFunctionBegin;
  PetscCall(BuildPair(c, 1, 0, &A, &T));
  PetscCall(MatGetSize(A, &M, &N));
  if (M != N) {
    PetscCall(DestroyPair(&A, &T));
    PetscFunctionReturn(0);
  }
  PetscCall(MatNorm(A, NORM_INFINITY, &s));
  BOTH(MatShift(A, s), MatShift(T, s));
  BOTH(MatCreateGraph(A, PETSC_TRUE, PETSC_TRUE, -1.0, &GA), MatCreateGraph(T, PETSC_TRUE, PETSC_TRUE, -1.0, &GT));
  PetscCall(CheckMat(c, GT, GA, CK_AIJTYPE, 1e-14, "MatCreateGraph (symmetrized, scaled) of the shifted matrix"));
  PetscCall(DestroyPair(&GA, &GT));
  PetscCall(MatCreateVecs(A, &b, &y[0]));
  PetscCall(MatCreateVecs(T, NULL, &y[1]));
  PetscCall(VecSet(b, 1.0));
  /* a long row on one rank: the Galerkin products of GAMG on AIJ and on the type take PETSc's "rap" PtAP (P^T formed,
     then two products) instead of the default sparse-axpy one, whose symbolic phase keeps each coarse row in a sorted
     linked list and is quadratic in the coarse row that the long row makes dense (longrow: ~200 s of the group
     under -malloc_debug against ~10 s). Both sides take the same algorithm, so the comparison is unchanged; the
     other cases keep the default (the parallel PtAP has no rap) */
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  rap = (PetscBool)(size == 1 && c->cs->longlen > 0);
  if (rap) PetscCall(PetscOptionsSetValue(NULL, "-matptap_via", "rap"));
  /* twice: GAMG's defaults (smoothed aggregation, Chebyshev smoothers), whose eigenvalue estimates carry the products'
     rounding into the result (3e-5 relative seen on longrow, 3 ranks), then unsmoothed aggregation with Jacobi-Richardson
     smoothers, where only the products' rounding remains */
  for (PetscInt fixed = 0; fixed < 2; fixed++) {
    const PetscReal tol = fixed ? 1e-10 : 1e-4;

    for (PetscInt t = 0; t < 2; t++) {
      PC pc;
      PetscCall(KSPCreate(PETSC_COMM_WORLD, &k[t]));
      PetscCall(KSPSetOperators(k[t], t ? T : A, t ? T : A));
      PetscCall(KSPSetType(k[t], KSPPREONLY));
      PetscCall(KSPGetPC(k[t], &pc));
      PetscCall(PCSetType(pc, PCGAMG));
      if (fixed) {
        PetscCall(KSPSetOptionsPrefix(k[t], "matconform_gamg_"));
        PetscCall(PetscOptionsSetValue(NULL, "-matconform_gamg_mg_levels_ksp_type", "richardson"));
        PetscCall(PetscOptionsSetValue(NULL, "-matconform_gamg_mg_levels_pc_type", "jacobi"));
        PetscCall(PCGAMGSetNSmooths(pc, 0));
        PetscCall(KSPSetFromOptions(k[t]));
      }
      PetscCall(KSPSolve(k[t], b, y[t]));
    }
    PetscCall(VecNorm(y[0], NORM_INFINITY, &ny));
    PetscCall(VecAXPY(y[1], -1.0, y[0]));
    PetscCall(VecNorm(y[1], NORM_INFINITY, &nd));
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "GAMG%s on the type differs from GAMG on AIJ by %g (norm %g)", fixed ? " (unsmoothed, Jacobi)" : "", (double)nd, (double)ny));
    PetscCall(Report(c, PETSC_COMM_WORLD, (PetscBool) !(ny > 0.0 && nd <= tol * ny), -1, fixed ? "PCGAMG unsmoothed, Jacobi smoothers (KSPPREONLY) applied to ones" : "PCGAMG (KSPPREONLY) applied to ones", msg));
    for (PetscInt t = 0; t < 2; t++) PetscCall(KSPDestroy(&k[t]));
  }
  PetscCall(PetscOptionsClearValue(NULL, "-matconform_gamg_mg_levels_ksp_type"));
  PetscCall(PetscOptionsClearValue(NULL, "-matconform_gamg_mg_levels_pc_type"));
  if (rap) PetscCall(PetscOptionsClearValue(NULL, "-matptap_via"));
  for (PetscInt t = 0; t < 2; t++) PetscCall(VecDestroy(&y[t]));
  PetscCall(VecDestroy(&b));
  PetscCall(DestroyPair(&A, &T));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------------------------------------------------------- */

typedef struct {
  const char *name;
  PetscErrorCode (*fn)(Ctx *);
} Group;

static PetscErrorCode GroupFDColoring(Ctx *);
static PetscErrorCode GroupLoadView(Ctx *);
static PetscErrorCode GroupNullSpace(Ctx *);
static PetscErrorCode GroupFactor(Ctx *);

static const Group groups[] = {
  {"assembly", GroupAssembly},
  {"setvalues", GroupSetValues},
  {"zero", GroupZero},
  {"scale", GroupScale},
  {"axpy", GroupAXPY},
  {"copy", GroupCopyDup},
  {"convert", GroupConvert},
  {"sub", GroupSub},
  {"transpose", GroupTranspose},
  {"norm", GroupNormEqual},
  {"store", GroupStore},
  {"options", GroupOptions},
  {"fdcoloring", GroupFDColoring},
  {"loadview", GroupLoadView},
  {"nullspace", GroupNullSpace},
  {"factor", GroupFactor},
  {"gamg", GroupGAMG},
};

static PetscBool Wanted(char **list, PetscInt n, const char *name)
{
  PetscBool match;
  if (!n) return PETSC_TRUE;
  for (PetscInt k = 0; k < n; k++) {
    PetscStrcmp(list[k], name, &match);
    if (match) return PETSC_TRUE;
  }
  return PETSC_FALSE;
}

static PetscErrorCode SetUpCase(Ctx *c, const Case *cs)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  c->cs   = cs;
  c->da   = NULL;
  c->rmap = c->cmap = NULL;
  if (cs->kind == CASE_DMDA) {
    if (cs->dim == 2) PetscCall(DMDACreate2d(PETSC_COMM_WORLD, cs->bt, cs->bt, cs->st, cs->n, cs->bt == DM_BOUNDARY_PERIODIC ? cs->n : cs->n + 1, PETSC_DECIDE /* periodic DMDA colorings: sizes divisible by 3 */, PETSC_DECIDE, cs->dof, 1, NULL, NULL, &c->da));
    else PetscCall(DMDACreate3d(PETSC_COMM_WORLD, cs->bt, cs->bt, cs->bt, cs->st, cs->n, cs->n, cs->n, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, cs->dof, 1, NULL, NULL, NULL, &c->da));
    PetscCall(DMSetUp(c->da));
    PetscCall(PetscSNPrintf(c->name, sizeof(c->name), "%s (%" PetscInt_FMT "^%" PetscInt_FMT " grid)", cs->name, cs->n, cs->dim));
  } else {
    PetscInt bs = cs->bs, Mb = cs->M / bs, Nb = cs->N / bs, *ri, *ci;
    PetscCall(PetscMalloc1(Mb, &ri));
    PetscCall(PetscMalloc1(Nb, &ci));
    for (PetscInt k = 0; k < Mb; k++) ri[k] = Mb - 1 - k;
    for (PetscInt k = 0; k < Nb; k++) ci[k] = Nb - 1 - k;
    PetscCall(ISLocalToGlobalMappingCreate(PETSC_COMM_SELF, bs, Mb, ri, PETSC_OWN_POINTER, &c->rmap));
    PetscCall(ISLocalToGlobalMappingCreate(PETSC_COMM_SELF, bs, Nb, ci, PETSC_OWN_POINTER, &c->cmap));
    PetscCall(PetscSNPrintf(c->name, sizeof(c->name), "%s (%" PetscInt_FMT "x%" PetscInt_FMT ", bs %" PetscInt_FMT "%s)", cs->name, cs->M, cs->N, bs, cs->lastempty && size > 1 ? ", last rank empty" : ""));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode TearDownCase(Ctx *c)
{
  PetscFunctionBegin;
  PetscCall(DMDestroy(&c->da));
  PetscCall(ISLocalToGlobalMappingDestroy(&c->rmap));
  PetscCall(ISLocalToGlobalMappingDestroy(&c->cmap));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Ctx       c;
  PetscBool set;
  char     *caselist[64], *grouplist[64];
  PetscInt  ncase = 64, ngroup = 64, in[2], out[2];

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscMemzero(&c, sizeof(c)));
  PetscCall(PetscStrcpy(c.type, MATSEGCSR));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_type", c.type, sizeof(c.type), &set));
  PetscCall(PetscOptionsClearValue(NULL, "-mat_type")); /* the AIJ references must stay AIJ */
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-cases", caselist, &ncase, &set));
  if (!set) ncase = 0;
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-groups", grouplist, &ngroup, &set));
  if (!set) ngroup = 0;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "matconform: type under test %s\n", c.type));
  for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
    if (!Wanted(caselist, ncase, cases[k].name)) continue;
    PetscCall(SetUpCase(&c, &cases[k]));
    c.nmats++;
    for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
      PetscErrorCode ierr;
      PetscInt       f0 = c.nfail;
      if (!Wanted(grouplist, ngroup, groups[g].name)) continue;
      ierr = groups[g].fn(&c);
      if (ierr) { /* the group stopped with an error (printed above): counted, the others still run */
        c.nfail++;
        c.nchecks++;
        PetscCall(PetscPrintf(PETSC_COMM_SELF, "FAILED group %s on %s: PETSc error %d (the trace above names the operation)\n", groups[g].name, c.name, (int)ierr));
      }
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-12s %-40s %s\n", groups[g].name, c.name, c.nfail == f0 ? "ok" : "FAILED"));
    }
    PetscCall(TearDownCase(&c));
  }
  for (PetscInt k = 0; k < ncase; k++) PetscCall(PetscFree(caselist[k]));
  for (PetscInt k = 0; k < ngroup; k++) PetscCall(PetscFree(grouplist[k]));
  in[0] = c.nchecks;
  in[1] = c.nfail;
  PetscCall(MPIU_Allreduce(in, out, 2, MPIU_INT, MPI_MAX, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "matconform: %" PetscInt_FMT " checks on %" PetscInt_FMT " matrices, %" PetscInt_FMT " failures\n", out[0], c.nmats, out[1]));
  PetscCheck(out[1] == 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "matconform: %" PetscInt_FMT " failures with -mat_type %s", out[1], c.type);
  PetscCall(PetscFinalize());
  return 0;
}

/* F_c(u) at a grid point: u_c^3 + sum over the star neighbours q and components d of 0.1 (c + 1) u_c u_{q,d} - the
   pattern of any DMDA stencil contains it */
static PetscErrorCode FDFunction(void *sctx, Vec X, Vec F, void *fctx)
{
  Ctx               *c = (Ctx *)fctx;
  DMDALocalInfo      in;
  Vec                Xl;
  const PetscScalar *x;
  PetscScalar       *f;

  PetscFunctionBegin;
  PetscCall(DMDAGetLocalInfo(c->da, &in));
  PetscCall(DMGetLocalVector(c->da, &Xl));
  PetscCall(DMGlobalToLocal(c->da, X, INSERT_VALUES, Xl));
  PetscCall(VecGetArrayRead(Xl, &x));
  PetscCall(VecGetArray(F, &f));
#define GIDX(ii, jj, kk, cc) (((((kk)-in.gzs) * in.gym + ((jj)-in.gys)) * in.gxm + ((ii)-in.gxs)) * in.dof + (cc))
  for (PetscInt k = in.zs, p = 0; k < in.zs + in.zm; k++)
    for (PetscInt j = in.ys; j < in.ys + in.ym; j++)
      for (PetscInt i = in.xs; i < in.xs + in.xm; i++)
        for (PetscInt cc = 0; cc < in.dof; cc++, p++) {
          PetscScalar u = x[GIDX(i, j, k, cc)], sum = u * u * u;
          PetscInt    nb[6][3] = {{i - 1, j, k}, {i + 1, j, k}, {i, j - 1, k}, {i, j + 1, k}, {i, j, k - 1}, {i, j, k + 1}};
          for (PetscInt q = 0; q < (in.dim == 3 ? 6 : 4); q++) {
            if (in.bx != DM_BOUNDARY_PERIODIC && (nb[q][0] < 0 || nb[q][0] >= in.mx)) continue;
            if (in.by != DM_BOUNDARY_PERIODIC && (nb[q][1] < 0 || nb[q][1] >= in.my)) continue;
            if (in.dim == 3 && in.bz != DM_BOUNDARY_PERIODIC && (nb[q][2] < 0 || nb[q][2] >= in.mz)) continue;
            for (PetscInt d = 0; d < in.dof; d++) sum += 0.1 * (cc + 1) * u * x[GIDX(nb[q][0], nb[q][1], nb[q][2], d)];
          }
          f[p] = sum;
        }
#undef GIDX
  PetscCall(VecRestoreArrayRead(Xl, &x));
  PetscCall(VecRestoreArray(F, &f));
  PetscCall(DMRestoreLocalVector(c->da, &Xl));
  PetscFunctionReturn(0);
}

static PetscErrorCode GroupFDColoring(Ctx *c)
{
  Mat           A, T, both[2];
  ISColoring    iscoloring;
  MatFDColoring fd[2];
  Vec           x[2];

  PetscFunctionBegin;
  if (c->cs->kind != CASE_DMDA) PetscFunctionReturn(0);
  PetscCall(BuildPair(c, 1, 0, &A, &T));
  both[0] = A;
  both[1] = T;
  PetscCall(DMCreateColoring(c->da, IS_COLORING_GLOBAL, &iscoloring));
  for (PetscInt s = 0; s < 2; s++) {
    PetscRandom r;
    PetscCall(MatCreateVecs(both[s], &x[s], NULL)); /* the tested type's own vectors: the coloring's work vectors are their duplicates */
    PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &r));
    PetscCall(PetscRandomSetSeed(r, 99));
    PetscCall(PetscRandomSeed(r));
    if (!s) PetscCall(VecSetRandom(x[0], r));
    else PetscCall(CopyVals(x[0], x[1]));
    PetscCall(PetscRandomDestroy(&r));
    PetscCall(MatFDColoringCreate(both[s], iscoloring, &fd[s]));
    PetscCall(MatFDColoringSetFunction(fd[s], (PetscErrorCode(*)(void))(void (*)(void))FDFunction, c));
    PetscCall(MatFDColoringSetUp(both[s], iscoloring, fd[s]));
    PetscCall(MatFDColoringApply(both[s], fd[s], x[s], NULL));
  }
  PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 1e-8, "MatFDColoringApply (DMDA coloring)"));
  /* a second application at another point: the same matrix, new values */
  PetscCall(VecScale(x[0], -0.5));
  PetscCall(CopyVals(x[0], x[1]));
  for (PetscInt s = 0; s < 2; s++) PetscCall(MatFDColoringApply(both[s], fd[s], x[s], NULL));
  PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 1e-8, "MatFDColoringApply again at another point"));
  for (PetscInt s = 0; s < 2; s++) {
    PetscCall(MatFDColoringDestroy(&fd[s]));
    PetscCall(VecDestroy(&x[s]));
  }
  PetscCall(ISColoringDestroy(&iscoloring));
  PetscCall(DestroyPair(&A, &T));
  PetscFunctionReturn(0);
}

static PetscErrorCode GroupLoadView(Ctx *c)
{
  Mat         A, T, LA, LT;
  PetscViewer v;
  char        file[PETSC_MAX_PATH_LEN];
  PetscInt    bs;
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(BuildPair(c, 1, 0, &A, &T));
  PetscCall(MatGetBlockSize(A, &bs));
  PetscCall(PetscSNPrintf(file, sizeof(file), "matconform-%s.bin", c->cs->name));
  PetscCall(PetscViewerBinaryOpen(PETSC_COMM_WORLD, file, FILE_MODE_WRITE, &v));
  PetscCall(MatView(T, v));
  PetscCall(PetscViewerDestroy(&v));
  for (PetscInt s = 0; s < 2; s++) {
    Mat *L = s ? &LT : &LA;
    PetscCall(PetscViewerBinaryOpen(PETSC_COMM_WORLD, file, FILE_MODE_READ, &v));
    PetscCall(MatCreate(PETSC_COMM_WORLD, L));
    PetscInt m, n;
    PetscCall(MatGetLocalSize(A, &m, &n));
    PetscCall(MatSetSizes(*L, m, n, PETSC_DETERMINE, PETSC_DETERMINE));
    PetscCall(MatSetBlockSize(*L, bs));
    PetscCall(MatSetType(*L, s ? c->type : MATAIJ));
    PetscCall(MatLoad(*L, v));
    PetscCall(PetscViewerDestroy(&v));
  }
  PetscCall(CheckMat(c, LA, A, CK_AIJTYPE | CK_PATTERN, 0.0, "MatView (binary) of the tested type, MatLoad into aij"));
  PetscCall(CheckMat(c, LT, A, CK_TYPE | CK_PATTERN, 0.0, "MatView (binary) of the tested type, MatLoad into the tested type"));
  PetscCall(DestroyPair(&LA, &LT));
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  if (!rank) {
    char info[PETSC_MAX_PATH_LEN + 8];
    PetscCall(PetscSNPrintf(info, sizeof(info), "%s.info", file));
    remove(file);
    remove(info);
  }
  PetscCall(DestroyPair(&A, &T));
  PetscFunctionReturn(0);
}

static PetscErrorCode GroupNullSpace(Ctx *c)
{
  Mat          A, T, D[2], C[2];
  MatNullSpace nsp, got;
  const char  *what[2] = {"aij", "tested type"};
  char         op[160];

  PetscFunctionBegin;
  PetscCall(BuildPair(c, 1, 0, &A, &T));
  PetscCall(MatNullSpaceCreate(PETSC_COMM_WORLD, PETSC_TRUE, 0, NULL, &nsp));
  BOTH(MatSetNearNullSpace(A, nsp), MatSetNearNullSpace(T, nsp));
  BOTH(MatDuplicate(A, MAT_COPY_VALUES, &D[0]), MatDuplicate(T, MAT_COPY_VALUES, &D[1]));
  BOTH(MatConvert(A, c->type, MAT_INITIAL_MATRIX, &C[1]), MatConvert(T, MATAIJ, MAT_INITIAL_MATRIX, &C[0]));
  for (PetscInt s = 0; s < 2; s++) {
    PetscBool aijkeeps;
    Mat       R;
    /* the reference: what AIJ does (MatDuplicate of AIJ; MatConvert aij -> aij) */
    PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &R));
    PetscCall(MatGetNearNullSpace(R, &got));
    aijkeeps = (PetscBool)(got == nsp);
    PetscCall(MatDestroy(&R));
    PetscCall(MatGetNearNullSpace(D[s], &got));
    PetscCall(PetscSNPrintf(op, sizeof(op), "MatSetNearNullSpace, then MatDuplicate (%s)", what[s]));
    PetscCall(CheckTrue(c, PETSC_COMM_WORLD, (PetscBool)(got == nsp || !aijkeeps), op, "the near null space is lost (AIJ keeps it)"));
    PetscCall(MatGetNearNullSpace(C[s], &got));
    PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &R));
    {
      MatNullSpace rn;
      PetscCall(MatGetNearNullSpace(R, &rn));
      aijkeeps = (PetscBool)(rn == nsp);
    }
    PetscCall(MatDestroy(&R));
    PetscCall(PetscSNPrintf(op, sizeof(op), "MatSetNearNullSpace, then MatConvert %s", s ? "aij -> tested" : "tested -> aij"));
    PetscCall(CheckTrue(c, PETSC_COMM_WORLD, (PetscBool)(got == nsp || !aijkeeps), op, "the near null space is lost (MatConvert aij -> aij keeps it)"));
  }
  {
    PetscCall(MatConvert(T, MATAIJ, MAT_INPLACE_MATRIX, &T));
    PetscCall(MatGetNearNullSpace(T, &got));
    PetscCall(CheckTrue(c, PETSC_COMM_WORLD, (PetscBool)(got == nsp), "MatSetNearNullSpace, then MatConvert tested -> aij MAT_INPLACE_MATRIX", "the near null space is lost"));
    PetscCall(MatConvert(T, c->type, MAT_INPLACE_MATRIX, &T));
    PetscCall(MatGetNearNullSpace(T, &got));
    PetscCall(CheckTrue(c, PETSC_COMM_WORLD, (PetscBool)(got == nsp), "MatSetNearNullSpace, then MatConvert aij -> tested MAT_INPLACE_MATRIX", "the near null space is lost"));
  }
  PetscCall(DestroyPair(&D[0], &D[1]));
  PetscCall(DestroyPair(&C[0], &C[1]));
  PetscCall(MatNullSpaceDestroy(&nsp));
  PetscCall(DestroyPair(&A, &T));
  PetscFunctionReturn(0);
}

/* PETSc's own factorizations: symbolic, numeric, MatSolve of the tested type (its diagonal block on several ranks)
   against AIJ's, on the symmetric, diagonally dominant S = A + A^T + s I; then a numeric refactorization of 2 S */
static PetscErrorCode GroupFactor(Ctx *c)
{
  Mat           A, T, At, Tt, SA, ST, BA, BT;
  MatFactorType ft[4]    = {MAT_FACTOR_LU, MAT_FACTOR_ILU, MAT_FACTOR_CHOLESKY, MAT_FACTOR_ICC};
  const char   *names[4] = {"LU", "ILU", "Cholesky", "ICC"};
  PetscMPIInt   size;
  PetscReal     nrm;
  PetscInt      m;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(BuildPair(c, 1, 0, &A, &T));
  if (!IsSquare(A)) {
    PetscCall(DestroyPair(&A, &T));
    PetscFunctionReturn(0);
  }
  PetscCall(MatTranspose(A, MAT_INITIAL_MATRIX, &At));
  PetscCall(MatConvert(At, c->type, MAT_INITIAL_MATRIX, &Tt));
  BOTH(MatAXPY(A, 1.0, At, DIFFERENT_NONZERO_PATTERN), MatAXPY(T, 1.0, Tt, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatNorm(A, NORM_INFINITY, &nrm));
  /* the diagonal may have missing entries: the shift inserts them (MPIAIJ's MatAXPY result refuses new mallocs) */
  BOTH(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE), MatSetOption(T, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  BOTH(MatShift(A, nrm + 1.0), MatShift(T, nrm + 1.0));
  PetscCall(CheckMat(c, T, A, CK_TYPE | CK_PATTERN, 0.0, "A + A^T + s I (the matrix factored)"));
  if (size > 1) {
    BOTH(MatGetDiagonalBlock(A, &SA), MatGetDiagonalBlock(T, &ST));
  } else {
    SA = A;
    ST = T;
  }
  PetscCall(MatGetLocalSize(SA, &m, NULL));
  for (PetscInt k = 0; k < 4 && m > 0; k++) {
    Mat           F[2], S[2] = {SA, ST};
    Vec           b[2], x[2];
    IS            rp, cp;
    MatFactorInfo info;
    char          op[128];
    for (PetscInt s = 0; s < 2; s++) {
      PetscCall(MatGetFactor(S[s], MATSOLVERPETSC, ft[k], &F[s]));
      PetscCall(MatGetOrdering(SA, MATORDERINGNATURAL, &rp, &cp));
      PetscCall(MatFactorInfoInitialize(&info));
      info.fill = 5.0;
      if (ft[k] == MAT_FACTOR_LU) {
        PetscCall(MatLUFactorSymbolic(F[s], S[s], rp, cp, &info));
        PetscCall(MatLUFactorNumeric(F[s], S[s], &info));
      } else if (ft[k] == MAT_FACTOR_ILU) {
        PetscCall(MatILUFactorSymbolic(F[s], S[s], rp, cp, &info));
        PetscCall(MatLUFactorNumeric(F[s], S[s], &info));
      } else if (ft[k] == MAT_FACTOR_CHOLESKY) {
        PetscCall(MatCholeskyFactorSymbolic(F[s], S[s], rp, &info));
        PetscCall(MatCholeskyFactorNumeric(F[s], S[s], &info));
      } else {
        PetscCall(MatICCFactorSymbolic(F[s], S[s], rp, &info));
        PetscCall(MatCholeskyFactorNumeric(F[s], S[s], &info));
      }
      PetscCall(ISDestroy(&rp));
      PetscCall(ISDestroy(&cp));
      PetscCall(MatCreateVecs(S[s], &x[s], &b[s]));
      if (!s) PetscCall(VecSetRandom(b[0], NULL));
      else PetscCall(CopyVals(b[0], b[1]));
      PetscCall(MatSolve(F[s], b[s], x[s]));
    }
    PetscCall(PetscSNPrintf(op, sizeof(op), "MatGetFactor(petsc, %s): symbolic, numeric, MatSolve%s", names[k], size > 1 ? " of the diagonal block" : ""));
    PetscCall(CheckVec(c, x[1], x[0], NULL, 1e-12, op, "solution"));
    /* new values, the same pattern: numeric again */
    BOTH(MatScale(S[0], 2.0), MatScale(S[1], 2.0));
    for (PetscInt s = 0; s < 2; s++) {
      if (ft[k] == MAT_FACTOR_LU || ft[k] == MAT_FACTOR_ILU) PetscCall(MatLUFactorNumeric(F[s], S[s], &info));
      else PetscCall(MatCholeskyFactorNumeric(F[s], S[s], &info));
      PetscCall(MatSolve(F[s], b[s], x[s]));
    }
    PetscCall(PetscSNPrintf(op, sizeof(op), "MatGetFactor(petsc, %s): numeric again after MatScale, MatSolve%s", names[k], size > 1 ? " of the diagonal block" : ""));
    PetscCall(CheckVec(c, x[1], x[0], NULL, 1e-12, op, "solution"));
    BOTH(MatScale(S[0], 0.5), MatScale(S[1], 0.5));
    for (PetscInt s = 0; s < 2; s++) {
      PetscCall(MatDestroy(&F[s]));
      PetscCall(VecDestroy(&x[s]));
      PetscCall(VecDestroy(&b[s]));
    }
  }
  (void)BA;
  (void)BT;
  PetscCall(DestroyPair(&At, &Tt));
  PetscCall(DestroyPair(&A, &T));
  PetscFunctionReturn(0);
}

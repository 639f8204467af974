static const char help[] = "Every VecOp of the gpu vector types against VECSEQ/VECMPI on random data.\n"
                           "Local sizes vary by rank (one rank has none when run on 3 or more ranks).\n";

#include <petscgpupc.h>
#include <gpupc/device.h>
#include "gpupctest.h"

#define TOL_UPDATE 1e-14
#define TOL_REDUCE 1e-12 /* relative to the sum of the magnitudes of the terms */
#define NV         11    /* more than one kernel chunk (8) for mdot/maxpy */

typedef struct {
  Vec g[NV], s[NV]; /* gpu and standard vectors with equal values */
} Pairs;

static PetscErrorCode CreatePairs(MPI_Comm comm, PetscInt n, PetscRandom r, Pairs *p)
{
  PetscFunctionBegin;
  for (PetscInt j = 0; j < NV; j++) {
    PetscCall(VecCreate(comm, &p->s[j]));
    PetscCall(VecSetSizes(p->s[j], n, PETSC_DECIDE));
    PetscCall(VecSetType(p->s[j], VECSTANDARD));
    PetscCall(VecSetRandom(p->s[j], r));
    PetscCall(VecCreate(comm, &p->g[j]));
    PetscCall(VecSetSizes(p->g[j], n, PETSC_DECIDE));
    PetscCall(VecSetType(p->g[j], VECGPU));
    PetscCall(VecCopy(p->s[j], p->g[j])); /* standard -> gpu through the gpu vector's host access */
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode DestroyPairs(Pairs *p)
{
  PetscFunctionBegin;
  for (PetscInt j = 0; j < NV; j++) {
    PetscCall(VecDestroy(&p->s[j]));
    PetscCall(VecDestroy(&p->g[j]));
  }
  PetscFunctionReturn(0);
}

/* both vectors of pair j must hold the same values */
#define CHECK(j, what) TestCheckVec(p.g[j], p.s[j], TOL_UPDATE, what)

/* bound of sum |x_i y_i|, the scale of the rounding error of x . y */
static PetscReal DotScale(Vec x, Vec y)
{
  PetscReal a = 0.0, b = 0.0;

  if (VecNorm(x, NORM_2, &a) || VecNorm(y, NORM_2, &b)) return PETSC_MAX_REAL;
  return a * b;
}

static PetscErrorCode TestReductions(Pairs p)
{
  PetscScalar a, b, ma[NV], mb[NV], d1, d2, e1, e2;
  PetscReal   na, nb, n2a[2], n2b[2];
  PetscInt    ia, ib;

  PetscFunctionBegin;
  PetscCall(VecDot(p.g[0], p.g[1], &a));
  PetscCall(VecDot(p.s[0], p.s[1], &b));
  TestCheckReduction(a, b, DotScale(p.s[0], p.s[1]), TOL_REDUCE, "VecDot");
  PetscCall(VecDot(p.g[0], p.s[1], &a)); /* other operand of a host type */
  TestCheckReduction(a, b, DotScale(p.s[0], p.s[1]), TOL_REDUCE, "VecDot with a VECSTANDARD operand");
  PetscCall(VecTDot(p.g[2], p.g[3], &a));
  PetscCall(VecTDot(p.s[2], p.s[3], &b));
  TestCheckReduction(a, b, DotScale(p.s[2], p.s[3]), TOL_REDUCE, "VecTDot");
  for (PetscInt m = 1; m <= NV - 1; m += 3) {
    PetscCall(VecMDot(p.g[0], m, p.g + 1, ma));
    PetscCall(VecMDot(p.s[0], m, p.s + 1, mb));
    for (PetscInt j = 0; j < m; j++) TestCheckReduction(ma[j], mb[j], DotScale(p.s[0], p.s[1 + j]), TOL_REDUCE, "VecMDot");
    PetscCall(VecMTDot(p.g[0], m, p.g + 1, ma));
    PetscCall(VecMTDot(p.s[0], m, p.s + 1, mb));
    for (PetscInt j = 0; j < m; j++) TestCheckReduction(ma[j], mb[j], DotScale(p.s[0], p.s[1 + j]), TOL_REDUCE, "VecMTDot");
  }
  {
    NormType types[] = {NORM_1, NORM_2, NORM_INFINITY};
    for (int t = 0; t < 3; t++) {
      PetscCall(VecNorm(p.g[4], types[t], &na));
      PetscCall(VecNorm(p.s[4], types[t], &nb));
      TestCheckScalar(na, nb, TOL_REDUCE, NormTypes[types[t]]);
    }
    PetscCall(VecNorm(p.g[5], NORM_1_AND_2, n2a));
    PetscCall(VecNorm(p.s[5], NORM_1_AND_2, n2b));
    TestCheckScalar(n2a[0], n2b[0], TOL_REDUCE, "NORM_1_AND_2 (1)");
    TestCheckScalar(n2a[1], n2b[1], TOL_REDUCE, "NORM_1_AND_2 (2)");
  }
  PetscCall(VecDotNorm2(p.g[1], p.g[2], &d1, &d2));
  PetscCall(VecDotNorm2(p.s[1], p.s[2], &e1, &e2));
  TestCheckReduction(d1, e1, DotScale(p.s[1], p.s[2]), TOL_REDUCE, "VecDotNorm2 dot");
  TestCheckScalar(d2, e2, TOL_REDUCE, "VecDotNorm2 norm");
  PetscCall(VecMax(p.g[6], &ia, &na));
  PetscCall(VecMax(p.s[6], &ib, &nb));
  TestCheckScalar(na, nb, 0.0, "VecMax value");
  PetscCheck(ia == ib, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "VecMax index %" PetscInt_FMT " expected %" PetscInt_FMT, ia, ib);
  PetscCall(VecMin(p.g[6], &ia, &na));
  PetscCall(VecMin(p.s[6], &ib, &nb));
  TestCheckScalar(na, nb, 0.0, "VecMin value");
  PetscCheck(ia == ib, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "VecMin index %" PetscInt_FMT " expected %" PetscInt_FMT, ia, ib);
  PetscCall(VecSum(p.g[7], &a));
  PetscCall(VecSum(p.s[7], &b));
  PetscCall(VecNorm(p.s[7], NORM_1, &nb));
  TestCheckReduction(a, b, nb, TOL_REDUCE, "VecSum");
  PetscCall(VecMaxPointwiseDivide(p.g[7], p.g[8], &na));
  PetscCall(VecMaxPointwiseDivide(p.s[7], p.s[8], &nb));
  TestCheckScalar(na, nb, TOL_UPDATE, "VecMaxPointwiseDivide");
  PetscFunctionReturn(0);
}

static PetscErrorCode TestUpdates(Pairs p)
{
  PetscScalar alpha[NV];

  PetscFunctionBegin;
  for (PetscInt j = 0; j < NV; j++) alpha[j] = 0.5 - 0.1 * j;
  PetscCall(VecAXPY(p.g[0], 2.5, p.g[1]));
  PetscCall(VecAXPY(p.s[0], 2.5, p.s[1]));
  CHECK(0, "VecAXPY");
  PetscCall(VecAYPX(p.g[0], -0.75, p.g[2]));
  PetscCall(VecAYPX(p.s[0], -0.75, p.s[2]));
  CHECK(0, "VecAYPX");
  PetscCall(VecAYPX(p.g[0], 0.0, p.g[3]));
  PetscCall(VecAYPX(p.s[0], 0.0, p.s[3]));
  CHECK(0, "VecAYPX beta=0");
  PetscCall(VecAXPBY(p.g[1], 1.5, -2.0, p.g[2]));
  PetscCall(VecAXPBY(p.s[1], 1.5, -2.0, p.s[2]));
  CHECK(1, "VecAXPBY");
  PetscCall(VecAXPBY(p.g[1], 3.0, 0.0, p.g[4]));
  PetscCall(VecAXPBY(p.s[1], 3.0, 0.0, p.s[4]));
  CHECK(1, "VecAXPBY beta=0");
  PetscCall(VecAXPBYPCZ(p.g[2], 0.5, -1.0, 2.0, p.g[3], p.g[4]));
  PetscCall(VecAXPBYPCZ(p.s[2], 0.5, -1.0, 2.0, p.s[3], p.s[4]));
  CHECK(2, "VecAXPBYPCZ");
  PetscCall(VecAXPBYPCZ(p.g[2], 0.5, -1.0, 0.0, p.g[3], p.g[4]));
  PetscCall(VecAXPBYPCZ(p.s[2], 0.5, -1.0, 0.0, p.s[3], p.s[4]));
  CHECK(2, "VecAXPBYPCZ gamma=0");
  PetscCall(VecWAXPY(p.g[3], -1.25, p.g[4], p.g[5]));
  PetscCall(VecWAXPY(p.s[3], -1.25, p.s[4], p.s[5]));
  CHECK(3, "VecWAXPY");
  PetscCall(VecMAXPY(p.g[0], NV - 1, alpha, p.g + 1));
  PetscCall(VecMAXPY(p.s[0], NV - 1, alpha, p.s + 1));
  CHECK(0, "VecMAXPY");
  { /* GMRES-sized calls: 30 vectors (one pass) and 41 (two passes) and VecMDot over 30 (4 passes, one wait), the
       vectors 1 .. NV-1 used in turn */
    Vec         gx[41], sx[41];
    PetscScalar a41[41], ma[41], mb[41];

    for (PetscInt j = 0; j < 41; j++) {
      gx[j]  = p.g[1 + j % (NV - 1)];
      sx[j]  = p.s[1 + j % (NV - 1)];
      a41[j] = 0.02 * j - 0.4;
    }
    PetscCall(VecMAXPY(p.g[0], 30, a41, gx));
    PetscCall(VecMAXPY(p.s[0], 30, a41, sx));
    CHECK(0, "VecMAXPY 30 vectors");
    PetscCall(VecMAXPY(p.g[0], 41, a41, gx));
    PetscCall(VecMAXPY(p.s[0], 41, a41, sx));
    CHECK(0, "VecMAXPY 41 vectors");
    PetscCall(VecMDot(p.g[0], 30, gx, ma));
    PetscCall(VecMDot(p.s[0], 30, sx, mb));
    for (PetscInt j = 0; j < 30; j++) TestCheckReduction(ma[j], mb[j], DotScale(p.s[0], sx[j]), TOL_REDUCE, "VecMDot 30 vectors");
  }
  PetscCall(VecPointwiseMult(p.g[4], p.g[5], p.g[6]));
  PetscCall(VecPointwiseMult(p.s[4], p.s[5], p.s[6]));
  CHECK(4, "VecPointwiseMult");
  PetscCall(VecPointwiseMult(p.g[4], p.g[4], p.g[6]));
  PetscCall(VecPointwiseMult(p.s[4], p.s[4], p.s[6]));
  CHECK(4, "VecPointwiseMult in place");
  PetscCall(VecPointwiseMax(p.g[5], p.g[6], p.g[7]));
  PetscCall(VecPointwiseMax(p.s[5], p.s[6], p.s[7]));
  CHECK(5, "VecPointwiseMax");
  PetscCall(VecPointwiseMin(p.g[5], p.g[6], p.g[8]));
  PetscCall(VecPointwiseMin(p.s[5], p.s[6], p.s[8]));
  CHECK(5, "VecPointwiseMin");
  PetscCall(VecPointwiseMaxAbs(p.g[5], p.g[6], p.g[7]));
  PetscCall(VecPointwiseMaxAbs(p.s[5], p.s[6], p.s[7]));
  CHECK(5, "VecPointwiseMaxAbs");
  PetscCall(VecScale(p.g[6], -3.5));
  PetscCall(VecScale(p.s[6], -3.5));
  CHECK(6, "VecScale");
  PetscCall(VecShift(p.g[6], 0.25));
  PetscCall(VecShift(p.s[6], 0.25));
  CHECK(6, "VecShift");
  PetscCall(VecAbs(p.g[6]));
  PetscCall(VecAbs(p.s[6]));
  CHECK(6, "VecAbs");
  PetscCall(VecSqrtAbs(p.g[6]));
  PetscCall(VecSqrtAbs(p.s[6]));
  CHECK(6, "VecSqrtAbs");
  PetscCall(VecSwap(p.g[7], p.g[8]));
  PetscCall(VecSwap(p.s[7], p.s[8]));
  CHECK(7, "VecSwap (x)");
  CHECK(8, "VecSwap (y)");
  PetscCall(VecCopy(p.g[9], p.g[7]));
  PetscCall(VecCopy(p.s[9], p.s[7]));
  CHECK(7, "VecCopy gpu -> gpu");
  PetscCall(VecCopy(p.g[9], p.s[8])); /* gpu -> standard */
  PetscCall(VecCopy(p.s[9], p.g[8]));
  CHECK(8, "VecCopy gpu -> standard -> gpu");
  /* zeros inside the data: divide and reciprocal keep 0 for 0 as PETSc does */
  {
    PetscInt    lo, hi;
    PetscScalar zero = 0.0;

    PetscCall(VecGetOwnershipRange(p.s[9], &lo, &hi));
    for (PetscInt i = lo; i < hi; i += 5) {
      PetscCall(VecSetValues(p.g[9], 1, &i, &zero, INSERT_VALUES));
      PetscCall(VecSetValues(p.s[9], 1, &i, &zero, INSERT_VALUES));
    }
    PetscCall(VecAssemblyBegin(p.g[9]));
    PetscCall(VecAssemblyEnd(p.g[9]));
    PetscCall(VecAssemblyBegin(p.s[9]));
    PetscCall(VecAssemblyEnd(p.s[9]));
    CHECK(9, "VecSetValues zeros");
  }
  PetscCall(VecPointwiseDivide(p.g[10], p.g[1], p.g[9]));
  PetscCall(VecPointwiseDivide(p.s[10], p.s[1], p.s[9]));
  CHECK(10, "VecPointwiseDivide with zeros");
  PetscCall(VecReciprocal(p.g[9]));
  PetscCall(VecReciprocal(p.s[9]));
  CHECK(9, "VecReciprocal with zeros");
  PetscCall(VecSet(p.g[10], -7.0));
  PetscCall(VecSet(p.s[10], -7.0));
  CHECK(10, "VecSet");
  PetscCall(VecExp(p.g[10]));
  PetscCall(VecExp(p.s[10]));
  CHECK(10, "VecExp");
  PetscCall(VecLog(p.g[10]));
  PetscCall(VecLog(p.s[10]));
  CHECK(10, "VecLog");
  PetscFunctionReturn(0);
}

/* host access, placement, set/get values, random, duplicate, view/load, sizes */
static PetscErrorCode TestAccess(Pairs p, PetscRandom r)
{
  PetscScalar       *a, *b, *mine;
  const PetscScalar *c;
  PetscInt           n, N, ng, Ng, lo, hi;
  Vec                dup;
  PetscMPIInt        rank, size;
  MPI_Comm           comm = PetscObjectComm((PetscObject)p.g[0]);

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(VecGetLocalSize(p.s[0], &n));
  PetscCall(VecGetSize(p.s[0], &N));
  PetscCall(VecGetLocalSize(p.g[0], &ng));
  PetscCall(VecGetSize(p.g[0], &Ng));
  PetscCheck(n == ng && N == Ng, comm, PETSC_ERR_PLIB, "VecGetSize/VecGetLocalSize disagree");

  /* read-write host access after device work, then device work after host writes */
  PetscCall(VecScale(p.g[0], 2.0));
  PetscCall(VecScale(p.s[0], 2.0));
  PetscCall(VecGetArray(p.g[0], &a));
  PetscCall(VecGetArray(p.s[0], &b));
  for (PetscInt i = 0; i < n; i++) {
    a[i] += i;
    b[i] += i;
  }
  PetscCall(VecRestoreArray(p.g[0], &a));
  PetscCall(VecRestoreArray(p.s[0], &b));
  PetscCall(VecScale(p.g[0], 0.5));
  PetscCall(VecScale(p.s[0], 0.5));
  CHECK(0, "VecGetArray then device op");
  PetscCall(VecGetArrayWrite(p.g[1], &a));
  PetscCall(VecGetArrayWrite(p.s[1], &b));
  for (PetscInt i = 0; i < n; i++) a[i] = b[i] = 1.0 / (1.0 + i);
  PetscCall(VecRestoreArrayWrite(p.g[1], &a));
  PetscCall(VecRestoreArrayWrite(p.s[1], &b));
  CHECK(1, "VecGetArrayWrite");
  PetscCall(VecGetArrayRead(p.g[1], &c));
  PetscCall(VecRestoreArrayRead(p.g[1], &c));
  PetscCall(VecAXPY(p.g[1], 1.0, p.g[2]));
  PetscCall(VecAXPY(p.s[1], 1.0, p.s[2]));
  CHECK(1, "VecGetArrayRead then device op");

  /* place a host array, compute, reset: the original values come back */
  PetscCall(PetscMalloc1(n, &mine));
  for (PetscInt i = 0; i < n; i++) mine[i] = 3.0 + i;
  PetscCall(VecCopy(p.g[3], p.s[10]));
  PetscCall(VecPlaceArray(p.g[3], mine));
  PetscCall(VecScale(p.g[3], 2.0));
  PetscCall(VecGetArrayRead(p.g[3], &c)); /* brings the device result back into mine */
  PetscCall(VecRestoreArrayRead(p.g[3], &c));
  for (PetscInt i = 0; i < n; i++) PetscCheck(mine[i] == 2.0 * (3.0 + i), PETSC_COMM_SELF, PETSC_ERR_PLIB, "VecPlaceArray: placed array not updated at %" PetscInt_FMT, i);
  PetscCall(VecResetArray(p.g[3]));
  TestCheckVec(p.g[3], p.s[10], TOL_UPDATE, "VecResetArray restores the original values");
  /* a device result in a placed array reaches it at VecResetArray without any host read before (MatFDColoringApply
     places its difference array, computes into it with VecAXPY, resets and reads the array) */
  PetscCall(VecPlaceArray(p.g[3], mine));
  PetscCall(VecScale(p.g[3], -1.0));
  PetscCall(VecResetArray(p.g[3]));
  for (PetscInt i = 0; i < n; i++) PetscCheck(mine[i] == -2.0 * (3.0 + i), PETSC_COMM_SELF, PETSC_ERR_PLIB, "VecResetArray: the device result did not reach the placed array at %" PetscInt_FMT, i);
  PetscCall(PetscFree(mine));
  TestCheckVec(p.g[3], p.s[10], TOL_UPDATE, "VecResetArray after a device op restores the original values");

  /* set values from any rank, including off-process entries, with ADD_VALUES */
  PetscCall(VecGetOwnershipRange(p.s[4], &lo, &hi));
  for (PetscInt k = 0; k < 50; k++) {
    PetscInt    i = (k * 7919 + rank * 104729) % PetscMax(N, 1);
    PetscScalar v = 0.01 * k + rank;

    if (!N) break;
    PetscCall(VecSetValues(p.g[4], 1, &i, &v, ADD_VALUES));
    PetscCall(VecSetValues(p.s[4], 1, &i, &v, ADD_VALUES));
  }
  PetscCall(VecAssemblyBegin(p.g[4]));
  PetscCall(VecAssemblyEnd(p.g[4]));
  PetscCall(VecAssemblyBegin(p.s[4]));
  PetscCall(VecAssemblyEnd(p.s[4]));
  CHECK(4, "VecSetValues ADD_VALUES off-process");
  if (hi > lo) {
    PetscInt    idx[2] = {lo, hi - 1};
    PetscScalar va[2], vb[2];

    PetscCall(VecGetValues(p.g[4], 2, idx, va));
    PetscCall(VecGetValues(p.s[4], 2, idx, vb));
    TestCheckScalar(va[0], vb[0], TOL_UPDATE, "VecGetValues (first)"); /* the stash may add in another order */
    TestCheckScalar(va[1], vb[1], TOL_UPDATE, "VecGetValues (last)");
  }

  /* the same random values as the standard type from the same generator state */
  PetscCall(PetscRandomSetSeed(r, 4242));
  PetscCall(PetscRandomSeed(r));
  PetscCall(VecSetRandom(p.g[5], r));
  PetscCall(PetscRandomSetSeed(r, 4242));
  PetscCall(PetscRandomSeed(r));
  PetscCall(VecSetRandom(p.s[5], r));
  TestCheckVec(p.g[5], p.s[5], 0.0, "VecSetRandom");

  /* duplicate has the type and layout, not the values */
  PetscCall(VecDuplicate(p.g[5], &dup));
  {
    PetscBool same;
    PetscReal nrm;

    PetscCall(PetscObjectTypeCompare((PetscObject)dup, size > 1 ? VECMPIGPU : VECSEQGPU, &same));
    PetscCheck(same, comm, PETSC_ERR_PLIB, "VecDuplicate changed the type to %s", ((PetscObject)dup)->type_name);
    PetscCall(VecNorm(dup, NORM_2, &nrm));
    PetscCheck(nrm == 0.0, comm, PETSC_ERR_PLIB, "a new gpu vector is not zero");
  }
  PetscCall(VecCopy(p.g[5], dup));
  TestCheckVec(dup, p.s[5], 0.0, "VecDuplicate + VecCopy");
  /* VecSetType(a seqgpu/mpigpu vector, "gpu") gives a working gpu vector again */
  PetscCall(VecSetType(dup, VECGPU));
  PetscCall(VecCopy(p.s[5], dup));
  TestCheckVec(dup, p.s[5], 0.0, "VecSetType(gpu) on a gpu vector, then VecCopy");
  PetscCall(VecDestroy(&dup));

  /* binary view/load round trips in both directions between the types */
  {
    PetscViewer viewer;
    Vec         lg, ls;

    PetscCall(PetscViewerBinaryOpen(comm, "vecops.bin", FILE_MODE_WRITE, &viewer));
    PetscCall(VecView(p.g[6], viewer));
    PetscCall(VecView(p.s[7], viewer));
    PetscCall(PetscViewerDestroy(&viewer));
    PetscCall(PetscViewerBinaryOpen(comm, "vecops.bin", FILE_MODE_READ, &viewer));
    PetscCall(VecCreate(comm, &ls));
    PetscCall(VecSetType(ls, VECSTANDARD));
    PetscCall(VecSetSizes(ls, n, PETSC_DECIDE));
    PetscCall(VecLoad(ls, viewer));
    PetscCall(VecCreate(comm, &lg));
    PetscCall(VecSetSizes(lg, n, PETSC_DECIDE));
    PetscCall(VecSetType(lg, VECGPU));
    PetscCall(VecLoad(lg, viewer));
    PetscCall(PetscViewerDestroy(&viewer));
    TestCheckVec(ls, p.s[6], 0.0, "VecView(gpu) -> VecLoad(standard)");
    TestCheckVec(lg, p.s[7], 0.0, "VecView(standard) -> VecLoad(gpu)");
    PetscCall(VecDestroy(&lg));
    PetscCall(VecDestroy(&ls));
  }
  /* ASCII view prints the same numbers */
  {
    PetscViewer sa, sb;
    char        ba[65536], bb[65536];
    const char *ta, *tb;

    if (N <= 200) {
      PetscCall(PetscViewerStringOpen(comm, ba, sizeof(ba), &sa));
      PetscCall(PetscViewerStringOpen(comm, bb, sizeof(bb), &sb));
      PetscCall(VecView(p.g[6], sa));
      PetscCall(VecView(p.s[6], sb));
      PetscCall(PetscViewerStringGetStringRead(sa, &ta, NULL));
      PetscCall(PetscViewerStringGetStringRead(sb, &tb, NULL));
      PetscCheck(!strcmp(ta, tb) || size > 1, comm, PETSC_ERR_PLIB, "ASCII VecView differs:\n%s\nvs\n%s", ta, tb);
      PetscCall(PetscViewerDestroy(&sa));
      PetscCall(PetscViewerDestroy(&sb));
    }
  }
  PetscFunctionReturn(0);
}

/* the device-array accessors on a standard vector stage through a device buffer */
static PetscErrorCode TestAccessors(Pairs p)
{
  const PetscScalar *d;
  PetscScalar       *w, *h;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(p.s[0], &n));
  PetscCall(PetscMalloc1(n, &h));
  PetscCall(VecGPUGetDeviceArrayRead(p.s[0], &d));
  PetscCall(GPUPCMemcpy(h, d, n * sizeof(PetscScalar), GPUPC_COPY_DEVICE_TO_HOST));
  PetscCall(VecGPURestoreDeviceArrayRead(p.s[0], &d));
  PetscCall(VecGetArrayRead(p.s[0], &d));
  for (PetscInt i = 0; i < n; i++) PetscCheck(h[i] == d[i], PETSC_COMM_SELF, PETSC_ERR_PLIB, "staged device read differs at %" PetscInt_FMT, i);
  PetscCall(VecRestoreArrayRead(p.s[0], &d));
  for (PetscInt i = 0; i < n; i++) h[i] = -2.0 * i;
  PetscCall(VecGPUGetDeviceArrayWrite(p.s[1], &w));
  PetscCall(GPUPCMemcpy(w, h, n * sizeof(PetscScalar), GPUPC_COPY_HOST_TO_DEVICE));
  PetscCall(VecGPURestoreDeviceArrayWrite(p.s[1], &w));
  PetscCall(VecGPUGetDeviceArrayWrite(p.g[1], &w));
  PetscCall(GPUPCMemcpy(w, h, n * sizeof(PetscScalar), GPUPC_COPY_HOST_TO_DEVICE));
  PetscCall(VecGPURestoreDeviceArrayWrite(p.g[1], &w));
  CHECK(1, "device-array write accessors");
  PetscCall(PetscFree(h));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscMPIInt rank, size;
  PetscRandom r;
  size_t      mem0, mem1;
  PetscInt    sizes[] = {1, 17, 1000, 100003};

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem0));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &r));
  PetscCall(PetscRandomSetInterval(r, -1.0, 1.0));
  PetscCall(PetscRandomSetFromOptions(r));
  for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
    Pairs    p;
    PetscInt n = (size > 2 && rank == 1) ? 0 : sizes[s] + 3 * rank;

    PetscCall(CreatePairs(PETSC_COMM_WORLD, n, r, &p));
    PetscCall(TestReductions(p));
    PetscCall(TestUpdates(p));
    PetscCall(TestAccess(p, r));
    PetscCall(TestAccessors(p));
    PetscCall(DestroyPairs(&p));
  }
  PetscCall(PetscRandomDestroy(&r));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem1));
  PetscCheck(mem0 == mem1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "device memory in use went from %zu to %zu bytes", mem0, mem1);
  {
    PetscGPUPCBackend b;
    PetscCall(PetscGPUPCGetBackend(&b));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "vecops: all checks passed on %d ranks, backend %s\n", size, PetscGPUPCBackends[b]));
  }
  PetscCall(PetscFinalize());
  return 0;
}

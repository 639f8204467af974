static const char help[] = "The vector-kernel table of the active backend against PETSc's VECSEQ on random data,\n"
                           "called directly on device buffers, for lengths around the block and grid sizes.\n";

#include <petscgpupc.h>
#include <gpupc/veckernels.h>
#include "gpupctest.h"

#define NV GPUPC_MAX_MULTI

typedef struct {
  PetscInt     n;
  Vec          s[NV + 1]; /* reference VECSEQ vectors */
  PetscScalar *d[NV + 1]; /* device copies */
  PetscScalar *h;         /* host buffer for reading back */
} Data;

static PetscErrorCode Upload(Data *D, PetscInt j)
{
  const PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(D->s[j], &a));
  PetscCall(GPUPCMemcpy(D->d[j], a, D->n * sizeof(PetscScalar), GPUPC_COPY_HOST_TO_DEVICE));
  PetscCall(VecRestoreArrayRead(D->s[j], &a));
  PetscFunctionReturn(0);
}

/* device buffer j must equal reference vector j */
static PetscErrorCode Compare(Data *D, PetscInt j, const char *what)
{
  const PetscScalar *a;
  PetscReal          err = 0.0, mx = 0.0;

  PetscFunctionBegin;
  PetscCall(GPUPCMemcpy(D->h, D->d[j], D->n * sizeof(PetscScalar), GPUPC_COPY_DEVICE_TO_HOST));
  PetscCall(VecGetArrayRead(D->s[j], &a));
  for (PetscInt i = 0; i < D->n; i++) {
    PetscReal e = PetscAbsScalar(D->h[i] - a[i]);
    if (e > err || PetscIsNanReal(e)) err = e;
    mx = PetscMax(mx, PetscAbsScalar(a[i]));
  }
  PetscCall(VecRestoreArrayRead(D->s[j], &a));
  PetscCheck(err <= 1e-14 * PetscMax(1.0, mx), PETSC_COMM_SELF, PETSC_ERR_PLIB, "kernel %s, n=%" PetscInt_FMT ": max error %g", what, D->n, (double)err);
  PetscFunctionReturn(0);
}

static PetscErrorCode RunAll(const GPUPCVecKernels *k, PetscInt n, PetscRandom r)
{
  Data               D;
  const PetscScalar *cy[NV];
  PetscScalar        alpha[NV], val[NV], ref[NV], dn[2], rs;
  PetscReal          norms[3], rn, rv;
  PetscInt           idx, ridx;

  PetscFunctionBegin;
  D.n = n;
  PetscCall(PetscMalloc1(PetscMax(n, 1), &D.h));
  for (PetscInt j = 0; j <= NV; j++) {
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, n, &D.s[j]));
    PetscCall(VecSetRandom(D.s[j], r));
    PetscCall(GPUPCMallocArray(n, &D.d[j]));
    PetscCall(Upload(&D, j));
  }
  for (PetscInt j = 0; j < NV; j++) alpha[j] = 0.3 * j - 1.0;

  PetscCall(k->set(n, 2.5, D.d[0]));
  PetscCall(VecSet(D.s[0], 2.5));
  PetscCall(Compare(&D, 0, "set"));
  PetscCall(k->scale(n, -1.5, D.d[1]));
  PetscCall(VecScale(D.s[1], -1.5));
  PetscCall(Compare(&D, 1, "scale"));
  PetscCall(k->shift(n, 0.75, D.d[1]));
  PetscCall(VecShift(D.s[1], 0.75));
  PetscCall(Compare(&D, 1, "shift"));
  PetscCall(k->axpby(n, 2.0, D.d[2], -0.5, D.d[3]));
  PetscCall(VecAXPBY(D.s[3], 2.0, -0.5, D.s[2]));
  PetscCall(Compare(&D, 3, "axpby"));
  PetscCall(k->axpby(n, 3.0, D.d[2], 0.0, D.d[3]));
  PetscCall(VecAXPBY(D.s[3], 3.0, 0.0, D.s[2]));
  PetscCall(Compare(&D, 3, "axpby beta=0"));
  PetscCall(k->axpbypcz(n, 1.0, D.d[4], -2.0, D.d[5], 0.5, D.d[6]));
  PetscCall(VecAXPBYPCZ(D.s[6], 1.0, -2.0, 0.5, D.s[4], D.s[5]));
  PetscCall(Compare(&D, 6, "axpbypcz"));
  PetscCall(k->waxpy(n, -1.0, D.d[4], D.d[5], D.d[7]));
  PetscCall(VecWAXPY(D.s[7], -1.0, D.s[4], D.s[5]));
  PetscCall(Compare(&D, 7, "waxpy"));
  PetscCall(k->swap(n, D.d[4], D.d[5]));
  PetscCall(VecSwap(D.s[4], D.s[5]));
  PetscCall(Compare(&D, 4, "swap x"));
  PetscCall(Compare(&D, 5, "swap y"));
  for (PetscInt m = 1; m <= NV; m++) {
    for (PetscInt j = 0; j < m; j++) cy[j] = D.d[1 + j];
    PetscCall(k->maxpy(n, m, alpha, cy, D.d[0]));
    PetscCall(VecMAXPY(D.s[0], m, alpha, D.s + 1));
    PetscCall(Compare(&D, 0, "maxpy"));
    PetscCall(k->mdot(n, D.d[0], m, cy, val));
    PetscCall(VecMDot(D.s[0], m, D.s + 1, ref));
    for (PetscInt j = 0; j < m; j++) {
      PetscReal nx, ny;
      PetscCall(VecNorm(D.s[0], NORM_2, &nx));
      PetscCall(VecNorm(D.s[1 + j], NORM_2, &ny));
      TestCheckReduction(val[j], ref[j], nx * ny, 1e-12, "mdot"); /* sum |x y| <= |x| |y| */
    }
  }
  {
    GPUPCPointwiseOp ops[]  = {GPUPC_PW_MULT, GPUPC_PW_DIVIDE, GPUPC_PW_MAX, GPUPC_PW_MIN, GPUPC_PW_MAXABS};
    const char      *name[] = {"mult", "divide", "max", "min", "maxabs"};
    for (int o = 0; o < 5; o++) {
      PetscCall(k->pointwise(ops[o], n, D.d[2], D.d[3], D.d[8]));
      switch (ops[o]) {
      case GPUPC_PW_MULT: PetscCall(VecPointwiseMult(D.s[8], D.s[2], D.s[3])); break;
      case GPUPC_PW_DIVIDE: PetscCall(VecPointwiseDivide(D.s[8], D.s[2], D.s[3])); break;
      case GPUPC_PW_MAX: PetscCall(VecPointwiseMax(D.s[8], D.s[2], D.s[3])); break;
      case GPUPC_PW_MIN: PetscCall(VecPointwiseMin(D.s[8], D.s[2], D.s[3])); break;
      case GPUPC_PW_MAXABS: PetscCall(VecPointwiseMaxAbs(D.s[8], D.s[2], D.s[3])); break;
      }
      PetscCall(Compare(&D, 8, name[o]));
    }
  }
  PetscCall(k->unary(GPUPC_UNARY_RECIPROCAL, n, D.d[2]));
  PetscCall(VecReciprocal(D.s[2]));
  PetscCall(Compare(&D, 2, "reciprocal"));
  PetscCall(k->unary(GPUPC_UNARY_ABS, n, D.d[3]));
  PetscCall(VecAbs(D.s[3]));
  PetscCall(Compare(&D, 3, "abs"));
  PetscCall(k->dotnorm2(n, D.d[4], D.d[5], dn));
  PetscCall(VecDot(D.s[4], D.s[5], &ref[0]));
  PetscCall(VecDot(D.s[5], D.s[5], &ref[1]));
  {
    PetscReal nx, ny;
    PetscCall(VecNorm(D.s[4], NORM_2, &nx));
    PetscCall(VecNorm(D.s[5], NORM_2, &ny));
    TestCheckReduction(dn[0], ref[0], nx * ny, 1e-12, "dotnorm2 dot");
    TestCheckReduction(dn[1], ref[1], ny * ny, 1e-12, "dotnorm2 norm");
  }
  PetscCall(k->norms(n, D.d[6], norms));
  PetscCall(VecNorm(D.s[6], NORM_1, &rn));
  TestCheckReduction(norms[0], rn, rn, 1e-12, "norm 1");
  PetscCall(VecNorm(D.s[6], NORM_2, &rn));
  TestCheckScalar(PetscSqrtReal(norms[1]), rn, 1e-12, "norm 2");
  PetscCall(VecNorm(D.s[6], NORM_INFINITY, &rn));
  TestCheckScalar(norms[2], rn, 0.0, "norm inf");
  PetscCall(k->maxpointwisedivide(n, D.d[6], D.d[7], &rv));
  PetscCall(VecMaxPointwiseDivide(D.s[6], D.s[7], &rn));
  TestCheckScalar(rv, rn, 1e-14, "maxpointwisedivide");
  PetscCall(k->extremum(n, D.d[6], 1, &rv, &idx));
  PetscCall(VecMax(D.s[6], &ridx, &rn));
  PetscCheck(rv == rn && idx == ridx, PETSC_COMM_SELF, PETSC_ERR_PLIB, "max: %g at %" PetscInt_FMT ", expected %g at %" PetscInt_FMT, (double)rv, idx, (double)rn, ridx);
  PetscCall(k->extremum(n, D.d[6], -1, &rv, &idx));
  PetscCall(VecMin(D.s[6], &ridx, &rn));
  PetscCheck(rv == rn && idx == ridx, PETSC_COMM_SELF, PETSC_ERR_PLIB, "min: %g at %" PetscInt_FMT ", expected %g at %" PetscInt_FMT, (double)rv, idx, (double)rn, ridx);
  PetscCall(k->sum(n, D.d[7], &val[0]));
  PetscCall(VecSum(D.s[7], &rs));
  PetscCall(VecNorm(D.s[7], NORM_1, &rn));
  TestCheckReduction(val[0], rs, rn, 1e-12, "sum");

  for (PetscInt j = 0; j <= NV; j++) {
    PetscCall(GPUPCFree(D.d[j]));
    PetscCall(VecDestroy(&D.s[j]));
  }
  PetscCall(PetscFree(D.h));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  /* around warp, block (256) and grid-stride boundaries, plus one large length */
  PetscInt               lengths[] = {0, 1, 31, 32, 33, 255, 256, 257, 4097, 1000003};
  const GPUPCVecKernels *k;
  PetscRandom            r;
  size_t                 mem0, mem1;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem0));
  PetscCall(GPUPCGetVecKernels(&k));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &r));
  PetscCall(PetscRandomSetInterval(r, -1.0, 1.0));
  for (size_t i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++) PetscCall(RunAll(k, lengths[i], r));
  PetscCall(PetscRandomDestroy(&r));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem1));
  PetscCheck(mem0 == mem1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "device memory in use went from %zu to %zu bytes", mem0, mem1);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "veckernels: table '%s' matches VECSEQ on all lengths\n", k->name));
  PetscCall(PetscFinalize());
  return 0;
}

static const char help[] = "segcsr kernels of the active backend against a plain CSR loop (and, on the cuda backend, against the host table).\n"
                           "The segmented layout is built here independently of the library's build code; every segment length 1..32,\n"
                           "empty rows, rows in all three bins (group, warp and block per row), rectangular shape, a block without columns;\n"
                           "short rows in group mode and in tile mode (full tiles with short and medium rows, and small tiles of a few segments);\n"
                           "the value layout (layvalues) from ranges of CSR values, as a value update lays them.\n";

#include <petscsys.h>
#include <gpupc/segcsrkernels.h>
#include "gpupctest.h"
#include "kerneltest.h"

static PetscErrorCode Compare(PetscInt n, const PetscScalar *got, const PetscScalar *want, PetscReal tol, const char *what, PetscInt L)
{
  PetscReal d = 0, mx = 1;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < n; k++) {
    d  = PetscMax(d, PetscAbsScalar(got[k] - want[k]));
    mx = PetscMax(mx, PetscAbsScalar(want[k]));
    PetscCheck(!PetscIsNanScalar(got[k]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s, L = %" PetscInt_FMT ": NaN at %" PetscInt_FMT, what, L, k);
  }
  PetscCheck(d <= tol * mx, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s, L = %" PetscInt_FMT ": error %g > %g", what, L, (double)d, (double)(tol * mx));
  PetscFunctionReturn(0);
}

/* runs one table on device data and returns host copies of the results */
static PetscErrorCode Run(const GPUPCSegCSRKernels *k, const GPUPCSegCSRDev *d, const PetscScalar *x, const PetscScalar *z, const PetscScalar *xt, PetscScalar *y, PetscScalar *yz, PetscScalar *yt, PetscScalar *diag)
{
  PetscScalar *dx, *dz, *dy, *dxt, *dyt;

  PetscFunctionBegin;
  PetscCall(GPUPCMallocArray(PetscMax(d->n, 1), &dx));
  PetscCall(GPUPCMallocArray(PetscMax(d->m, 1), &dz));
  PetscCall(GPUPCMallocArray(PetscMax(d->m, 1), &dy));
  PetscCall(GPUPCMallocArray(PetscMax(d->m, 1), &dxt));
  PetscCall(GPUPCMallocArray(PetscMax(d->n, 1), &dyt));
  PetscCall(GPUPCCopyToDevice(dx, x, d->n));
  PetscCall(GPUPCCopyToDevice(dz, z, d->m));
  PetscCall(GPUPCCopyToDevice(dxt, xt, d->m));
  PetscCall(k->mult(d, dx, NULL, dy));
  PetscCall(GPUPCCopyToHost(y, dy, d->m));
  PetscCall(k->mult(d, dx, dz, dz)); /* in place: z = A x + z */
  PetscCall(GPUPCCopyToHost(yz, dz, d->m));
  PetscCall(GPUPCCopyToDevice(dyt, x, d->n)); /* yt = x + A^T xt */
  PetscCall(k->multtransposeadd(d, dxt, dyt));
  PetscCall(GPUPCCopyToHost(yt, dyt, d->n));
  PetscCall(k->getdiagonal(d, 0, dy));
  PetscCall(GPUPCCopyToHost(diag, dy, d->m));
  PetscCall(GPUPCFree(dx));
  PetscCall(GPUPCFree(dz));
  PetscCall(GPUPCFree(dy));
  PetscCall(GPUPCFree(dxt));
  PetscCall(GPUPCFree(dyt));
  PetscFunctionReturn(0);
}

/* layvalues: the CSR values of c laid into the slots of layout h (device copy d) by ranges of cs entries (cs <= 0: all
   at once), each range landed in a device buffer of its own as a value update does it; the slots must equal the values
   Layout put there (padding 0, over a device array filled with garbage first), bit for bit; on the cuda backend the
   host table does the same on host copies */
static PetscErrorCode CheckLayValues(const GPUPCSegCSRKernels *k, const GPUPCSegCSRKernels *kh, PetscBool cuda, const TestCSR *c, const GPUPCSegCSRDev *h, const GPUPCSegCSRDev *d, PetscInt cs)
{
  const PetscInt nnz = c->i[c->m], nslots = h->nseg * h->L;
  PetscInt      *slot;
  PetscScalar   *da, *dval, *got, *hgot;
  char           what[128];

  PetscFunctionBegin;
  if (cs <= 0) cs = PetscMax(nnz, 1);
  PetscCall(PetscMalloc1(nnz + 1, &slot)); /* the slot of each entry, row by row (independent of the library's search) */
  for (PetscInt r = 0; r < c->m; r++)
    for (PetscInt q = c->i[r]; q < c->i[r + 1]; q++) slot[q] = h->segptr[r] * h->L + q - c->i[r];
  PetscCall(PetscMalloc2(PetscMax(nslots, 1), &got, PetscMax(nslots, 1), &hgot));
  PetscCall(GPUPCMallocArray(PetscMax(cs, 1), &da));
  PetscCall(GPUPCMallocArray(PetscMax(nslots, 1), &dval));
  for (PetscInt s = 0; s < nslots; s++) got[s] = hgot[s] = 1e300; /* garbage every slot must lose */
  PetscCall(GPUPCCopyToDevice(dval, got, nslots));
  for (PetscInt k0 = 0; k0 < PetscMax(nnz, 1); k0 += cs) { /* nnz = 0: one range, padding only */
    const PetscInt k1 = PetscMin(nnz, k0 + cs), s0 = k0 == 0 ? 0 : slot[k0], s1 = k1 == nnz ? nslots : slot[k1];

    PetscCall(GPUPCCopyToDevice(da, c->a + k0, k1 - k0));
    PetscCall(k->layvalues(d, s0, s1, k0, da, dval));
    if (cuda) PetscCall(kh->layvalues(h, s0, s1, k0, c->a + k0, hgot));
  }
  PetscCall(GPUPCCopyToHost(got, dval, nslots));
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s layvalues %" PetscInt_FMT "x%" PetscInt_FMT ", ranges of %" PetscInt_FMT " entries", k->name, c->m, c->n, cs));
  PetscCall(Compare(nslots, got, h->val, 0.0, what, h->L));
  if (cuda) {
    PetscCall(PetscSNPrintf(what, sizeof(what), "host table layvalues %" PetscInt_FMT "x%" PetscInt_FMT ", ranges of %" PetscInt_FMT " entries", c->m, c->n, cs));
    PetscCall(Compare(nslots, hgot, h->val, 0.0, what, h->L));
  }
  PetscCall(GPUPCFree(da));
  PetscCall(GPUPCFree(dval));
  PetscCall(PetscFree2(got, hgot));
  PetscCall(PetscFree(slot));
  PetscFunctionReturn(0);
}

static PetscErrorCode TestShape(PetscInt m, PetscInt n, PetscRandom rnd)
{
  TestCSR                   c;
  PetscInt                  cap = 0;
  const GPUPCSegCSRKernels *k, *kh;
  PetscGPUPCBackend         backend;
  PetscScalar              *x, *z, *xt, *ry, *ryz, *ryt, *rd, *y, *yz, *yt, *dg;

  PetscFunctionBegin;
  PetscCall(PetscGPUPCGetBackend(&backend));
  PetscCall(GPUPCGetSegCSRKernels(&k));
  PetscCall(GPUPCGetSegCSRKernelsFor(PETSC_GPUPC_BACKEND_HOST, &kh));
  c.m = m;
  c.n = n;
  PetscCall(PetscMalloc1(m + 1, &c.i));
  for (PetscInt r = 0; r < m; r++) cap += n ? PetscMin(n, r == 3 ? 5000 : r % 7 == 0 ? 300
                                                                                     : r % 13)
                                            : 0;
  PetscCall(PetscMalloc2(cap + 1, &c.j, cap + 1, &c.a));
  c.i[0] = 0;
  for (PetscInt r = 0; r < m; r++) {
    PetscInt len = n ? PetscMin(n, r == 3 ? 5000 : r % 7 == 0 ? 300
                                                              : r % 13)
                     : 0,
             q   = c.i[r]; /* r % 13 == 0: empty rows; every 7th row medium, row 3 long (bins of segcsrkernels.h) */
    for (PetscInt t = 0; t < len; t++) {
      PetscReal u;
      PetscCall(PetscRandomGetValueReal(rnd, &u));
      c.j[q + t] = (r + t * (n / PetscMax(len, 1))) % n; /* distinct columns */
      c.a[q + t] = u - 0.5;
      if (c.j[q + t] == r) c.a[q + t] += 3.0;
    }
    c.i[r + 1] = q + len;
  }
  PetscCall(PetscMalloc4(PetscMax(n, 1), &x, PetscMax(m, 1), &z, PetscMax(m, 1), &xt, PetscMax(m, 1), &ry));
  PetscCall(PetscMalloc3(PetscMax(m, 1), &ryz, PetscMax(n, 1), &ryt, PetscMax(m, 1), &rd));
  PetscCall(PetscMalloc4(PetscMax(m, 1), &y, PetscMax(m, 1), &yz, PetscMax(n, 1), &yt, PetscMax(m, 1), &dg));
  for (PetscInt t = 0; t < n; t++) PetscCall(PetscRandomGetValue(rnd, &x[t]));
  for (PetscInt t = 0; t < m; t++) PetscCall(PetscRandomGetValue(rnd, &z[t]));
  for (PetscInt t = 0; t < m; t++) PetscCall(PetscRandomGetValue(rnd, &xt[t]));
  /* plain CSR reference */
  for (PetscInt t = 0; t < n; t++) ryt[t] = x[t];
  for (PetscInt r = 0; r < m; r++) {
    PetscScalar s = 0;
    rd[r]         = 0;
    for (PetscInt q = c.i[r]; q < c.i[r + 1]; q++) {
      s += c.a[q] * x[c.j[q]];
      ryt[c.j[q]] += c.a[q] * xt[r];
      if (c.j[q] == r) rd[r] = c.a[q];
    }
    ry[r]  = s;
    ryz[r] = z[r] + s;
  }
  for (PetscInt L = 1; L <= 32; L *= 2) {
    GPUPCSegCSRDev h, d;
    PetscCall(TestSegCSRLayout(&c, L, &h));
    for (PetscInt v = 0; v < 3; v++) { /* group mode; tile mode with full tiles; tile mode with tiles of <= 3 segments */
      char what[128];
      if (v) PetscCall(TestSegCSRTile(&h, v == 1 ? GPUPC_SEGCSR_TILE_SLOTS / L : 3));
      PetscCall(TestSegCSRUpload(&h, PETSC_TRUE, &d));
      PetscCall(Run(k, &d, x, z, xt, y, yz, yt, dg));
      PetscCall(PetscSNPrintf(what, sizeof(what), "%s kernels %" PetscInt_FMT "x%" PetscInt_FMT ", %s mode (%" PetscInt_FMT " tiles)", k->name, m, n, MatSegCSRShortModes[h.shortmode], h.ntiles));
      PetscCall(Compare(m, y, ry, 1e-13, what, L));
      PetscCall(Compare(m, yz, ryz, 1e-13, what, L));
      PetscCall(Compare(n, yt, ryt, 1e-13, what, L));
      PetscCall(Compare(m, dg, rd, 0.0, what, L));
      if (backend == PETSC_GPUPC_BACKEND_CUDA) { /* the host table on host copies of the same layout */
        PetscScalar *hy, *hyz, *hyt, *hdg;
        PetscCall(PetscMalloc4(PetscMax(m, 1), &hy, PetscMax(m, 1), &hyz, PetscMax(n, 1), &hyt, PetscMax(m, 1), &hdg));
        for (PetscInt t = 0; t < m; t++) hyz[t] = z[t];
        for (PetscInt t = 0; t < n; t++) hyt[t] = x[t];
        PetscCall(kh->mult(&h, x, NULL, hy));
        PetscCall(kh->mult(&h, x, hyz, hyz));
        PetscCall(kh->multtransposeadd(&h, xt, hyt));
        PetscCall(kh->getdiagonal(&h, 0, hdg));
        PetscCall(PetscSNPrintf(what, sizeof(what), "cuda vs host table, %s mode (%" PetscInt_FMT " tiles)", MatSegCSRShortModes[h.shortmode], h.ntiles));
        PetscCall(Compare(m, y, hy, 1e-13, what, L));
        PetscCall(Compare(m, yz, hyz, 1e-13, what, L));
        PetscCall(Compare(n, yt, hyt, 1e-13, what, L));
        PetscCall(Compare(m, dg, hdg, 0.0, what, L));
        PetscCall(PetscFree4(hy, hyz, hyt, hdg));
      }
      if (v == 0) { /* the value layout does not depend on the short-row mode */
        PetscCall(CheckLayValues(k, kh, (PetscBool)(backend == PETSC_GPUPC_BACKEND_CUDA), &c, &h, &d, 0));
        PetscCall(CheckLayValues(k, kh, (PetscBool)(backend == PETSC_GPUPC_BACKEND_CUDA), &c, &h, &d, 37));
        PetscCall(CheckLayValues(k, kh, (PetscBool)(backend == PETSC_GPUPC_BACKEND_CUDA), &c, &h, &d, 1000));
      }
      PetscCall(TestSegCSRFreeUpload(PETSC_TRUE, &d));
    }
    PetscCall(TestSegCSRFreeLayout(&h));
  }
  PetscCall(PetscFree4(x, z, xt, ry));
  PetscCall(PetscFree3(ryz, ryt, rd));
  PetscCall(PetscFree4(y, yz, yt, dg));
  PetscCall(PetscFree(c.i));
  PetscCall(PetscFree2(c.j, c.a));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscRandom rnd;
  size_t      mem0, mem1;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem0));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(TestShape(500, 500, rnd));
  PetscCall(TestShape(300, 1000, rnd));
  PetscCall(TestShape(700, 90, rnd));
  PetscCall(TestShape(200, 6000, rnd)); /* a row of 5000 entries: the block-per-row bin for every L */
  PetscCall(TestShape(40, 0, rnd));     /* a block without columns (empty off-diagonal block) */
  PetscCall(TestShape(0, 10, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem1));
  PetscCheck(mem0 == mem1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "device memory in use went from %zu to %zu bytes", mem0, mem1);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "segcsr kernels: all checks passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}

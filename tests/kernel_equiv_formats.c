static const char help[] = "The format builds from CSR on the device (gpupc/formatkernels.h, gpupc/devmat.h): every member of the\n"
                           "format-build kernel table, the active backend's table on device buffers against the host table on\n"
                           "host buffers; segcsr and hec level matrices built from device CSR against the same formats built\n"
                           "from host CSR (every column and value slot identical, products identical, value updates from host and\n"
                           "device identical); products against a CSR reference; bcsr refusing device CSR; auto's choices.\n"
                           "Matrices: irregular rows (empty, slab, warp and block rows), a 2D Laplacian, a rectangle, no entries.\n";

#include <gpupc/devmat.h>
#include <gpupc/formatkernels.h>
#include "kerneltest.h"

typedef struct {
  const char  *name;
  PetscInt     m, n, nnz;
  PetscInt    *i, *j;
  PetscScalar *a;
} HostCSR;

static PetscInt runs[GPUPC_FORMAT_NKERNELS];

/* irregular rows: lengths 0 .. 3 mean (slab rows of hec), a few of 40 (warp rows) and one of 1500 (a block row, a
   long segcsr row); random columns and values */
static PetscErrorCode MakeIrregular(PetscRandom r, PetscInt m, PetscInt n, HostCSR *A)
{
  PetscReal u;

  PetscFunctionBegin;
  A->name = "irregular";
  A->m    = m;
  A->n    = n;
  PetscCall(PetscMalloc1(m + 1, &A->i));
  A->i[0] = 0;
  for (PetscInt i = 0; i < m; i++) {
    PetscInt len;

    PetscCall(PetscRandomGetValueReal(r, &u));
    len         = i == m / 2 ? PetscMin(n, 1500) : (i % 97 == 5 ? PetscMin(n, 40) : (i % 13 == 0 ? 0 : (PetscInt)(u * 16)));
    A->i[i + 1] = A->i[i] + len;
  }
  A->nnz = A->i[m];
  PetscCall(PetscMalloc2(A->nnz, &A->j, A->nnz, &A->a));
  for (PetscInt k = 0; k < A->nnz; k++) {
    PetscCall(PetscRandomGetValueReal(r, &u));
    A->j[k] = (PetscInt)(u * n) % n;
    PetscCall(PetscRandomGetValueReal(r, &u));
    A->a[k] = u - 0.5;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode MakeLaplace(PetscInt g, HostCSR *A)
{
  PetscInt k = 0;

  PetscFunctionBegin;
  A->name = "laplace2d";
  A->m = A->n = g * g;
  PetscCall(PetscMalloc1(A->m + 1, &A->i));
  PetscCall(PetscMalloc2(5 * A->m, &A->j, 5 * A->m, &A->a));
  A->i[0] = 0;
  for (PetscInt y = 0; y < g; y++) {
    for (PetscInt x = 0; x < g; x++) {
      const PetscInt row = y * g + x;

      if (y > 0) A->j[k] = row - g, A->a[k++] = -1.0 - 0.01 * row;
      if (x > 0) A->j[k] = row - 1, A->a[k++] = -1.0;
      A->j[k] = row, A->a[k++] = 4.5;
      if (x < g - 1) A->j[k] = row + 1, A->a[k++] = -1.0;
      if (y < g - 1) A->j[k] = row + g, A->a[k++] = -1.0 - 0.02 * row;
      A->i[row + 1] = k;
    }
  }
  A->nnz = k;
  PetscFunctionReturn(0);
}

static PetscErrorCode FreeCSR(HostCSR *A)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(A->i));
  PetscCall(PetscFree2(A->j, A->a));
  PetscFunctionReturn(0);
}

static GPUPCCSR HostView(const HostCSR *A)
{
  GPUPCCSR c;

  PetscMemzero(&c, sizeof(c));
  c.m   = A->m;
  c.n   = A->n;
  c.nnz = A->nnz;
  c.i   = A->i;
  c.j   = A->j;
  c.a   = A->a;
  return c;
}

/* two device arrays of len entries of size bytes are equal */
static PetscErrorCode SameDevice(const char *what, const void *x, const void *y, PetscInt len, size_t size)
{
  char *hx, *hy;

  PetscFunctionBegin;
  if (len <= 0) PetscFunctionReturn(0);
  PetscCall(PetscMalloc2(len * size, &hx, len * size, &hy));
  PetscCall(GPUPCMemcpy(hx, x, len * size, GPUPC_COPY_DEVICE_TO_HOST));
  PetscCall(GPUPCMemcpy(hy, y, len * size, GPUPC_COPY_DEVICE_TO_HOST));
  for (PetscInt k = 0; k < len; k++) PetscCheck(!memcmp(hx + k * size, hy + k * size, size), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: entry %" PetscInt_FMT " differs", what, k);
  PetscCall(PetscFree2(hx, hy));
  PetscFunctionReturn(0);
}

/* a device copy of a host array */
static PetscErrorCode Up(const void *h, size_t bytes, void **d)
{
  PetscFunctionBegin;
  PetscCall(TestDup(PETSC_TRUE, h, bytes, d));
  PetscFunctionReturn(0);
}

/* a host copy of a device array (NULL for no entries) */
static PetscErrorCode Down(const void *d, size_t bytes, void **h)
{
  PetscFunctionBegin;
  *h = NULL;
  if (!bytes) PetscFunctionReturn(0);
  PetscCall(PetscMalloc(bytes, h));
  PetscCall(GPUPCMemcpy(*h, d, bytes, GPUPC_COPY_DEVICE_TO_HOST));
  PetscFunctionReturn(0);
}

/* the segcsr member: the active table on the device block against the host table on host copies of its arrays */
static PetscErrorCode CheckSegCSRMember(const GPUPCSegCSRDev *D, const PetscInt *dj, const PetscInt *hj, PetscInt nnz)
{
  const GPUPCFormatKernels *act, *host;
  GPUPCSegCSRDev            H     = *D;
  const PetscInt            slots = D->nseg * D->L;
  PetscInt                 *dcol, *hcol, *back;

  PetscFunctionBegin;
  PetscCall(GPUPCGetFormatKernels(&act));
  PetscCall(GPUPCGetFormatKernelsFor(PETSC_GPUPC_BACKEND_HOST, &host));
  PetscCall(Down(D->segptr, (D->m + 1) * sizeof(PetscInt), (void **)&H.segptr));
  PetscCall(Down(D->segrow, D->nseg * sizeof(PetscInt), (void **)&H.segrow));
  PetscCall(Down(D->rowptr, (D->m + 1) * sizeof(PetscInt), (void **)&H.rowptr));
  PetscCall(GPUPCMallocArray(slots, &dcol));
  PetscCall(PetscMalloc2(slots, &hcol, slots, &back));
  PetscCall(act->segcsrcolumns(D, dj, dcol));
  PetscCall(host->segcsrcolumns(&H, hj, hcol));
  PetscCall(GPUPCCopyToHost(back, dcol, slots));
  for (PetscInt s = 0; s < slots; s++) PetscCheck(back[s] == hcol[s], PETSC_COMM_SELF, PETSC_ERR_PLIB, "segcsrcolumns: %s and host differ at slot %" PetscInt_FMT " (%" PetscInt_FMT " vs %" PetscInt_FMT ")", act->name, s, back[s], hcol[s]);
  runs[GPUPC_FORMAT_KERNEL_segcsrcolumns]++;
  (void)nnz;
  PetscCall(GPUPCFree(dcol));
  PetscCall(PetscFree2(hcol, back));
  PetscCall(PetscFree(H.segptr));
  PetscCall(PetscFree(H.segrow));
  PetscCall(PetscFree(H.rowptr));
  PetscFunctionReturn(0);
}

/* the hec member likewise (the slab padding of remcol starts at -7 on both sides: the member leaves it) */
static PetscErrorCode CheckHECMember(const GPUPCHECDev *D, const PetscInt *dj, const PetscInt *hj)
{
  const GPUPCFormatKernels *act, *host;
  GPUPCHECDev               H    = *D;
  const PetscInt            nell = D->K * D->stride, nrem = D->nremslots;
  PetscInt                 *dell, *drem, *hell, *hrem, *bell, *brem;

  PetscFunctionBegin;
  PetscCall(GPUPCGetFormatKernels(&act));
  PetscCall(GPUPCGetFormatKernelsFor(PETSC_GPUPC_BACKEND_HOST, &host));
  PetscCall(Down(D->rowptr, (D->m + 1) * sizeof(PetscInt), (void **)&H.rowptr));
  PetscCall(Down(D->rembase, D->m * sizeof(PetscInt), (void **)&H.rembase));
  PetscCall(Down(D->remstep, D->m * sizeof(PetscInt), (void **)&H.remstep));
  PetscCall(Down(D->remrow, nrem * sizeof(PetscInt), (void **)&H.remrow));
  PetscCall(PetscMalloc4(nell, &hell, nrem, &hrem, nell, &bell, nrem, &brem));
  for (PetscInt r = 0; r < nrem; r++) hrem[r] = -7;
  PetscCall(Up(hrem, nrem * sizeof(PetscInt), (void **)&drem));
  PetscCall(GPUPCMallocArray(nell, &dell));
  PetscCall(act->heccolumns(D, dj, dell, drem));
  PetscCall(host->heccolumns(&H, hj, hell, hrem));
  PetscCall(GPUPCCopyToHost(bell, dell, nell));
  PetscCall(GPUPCCopyToHost(brem, drem, nrem));
  for (PetscInt t = 0; t < nell; t++) PetscCheck(bell[t] == hell[t], PETSC_COMM_SELF, PETSC_ERR_PLIB, "heccolumns: %s and host differ at ELL slot %" PetscInt_FMT, act->name, t);
  for (PetscInt t = 0; t < nrem; t++) PetscCheck(brem[t] == hrem[t], PETSC_COMM_SELF, PETSC_ERR_PLIB, "heccolumns: %s and host differ at remainder slot %" PetscInt_FMT, act->name, t);
  runs[GPUPC_FORMAT_KERNEL_heccolumns]++;
  PetscCall(GPUPCFree(dell));
  PetscCall(GPUPCFree(drem));
  PetscCall(PetscFree4(hell, hrem, bell, brem));
  PetscCall(PetscFree(H.rowptr));
  PetscCall(PetscFree(H.rembase));
  PetscCall(PetscFree(H.remstep));
  PetscCall(PetscFree(H.remrow));
  PetscFunctionReturn(0);
}

/* every slot of two blocks of one format built from the same matrix */
static PetscErrorCode SameBlocks(const char *fmt, GPUPCDevMat X, GPUPCDevMat Y)
{
  PetscFunctionBegin;
  if (!strcmp(fmt, "segcsr")) {
    const GPUPCSegCSRDev *a = (const GPUPCSegCSRDev *)X->block, *b = (const GPUPCSegCSRDev *)Y->block;

    PetscCheck(a->nseg == b->nseg && a->L == b->L && a->nlong == b->nlong && a->nmed == b->nmed, PETSC_COMM_SELF, PETSC_ERR_PLIB, "segcsr layouts differ");
    PetscCall(SameDevice("segcsr col", a->col, b->col, a->nseg * a->L, sizeof(PetscInt)));
    PetscCall(SameDevice("segcsr val", a->val, b->val, a->nseg * a->L, sizeof(PetscScalar)));
  } else {
    const GPUPCHECDev *a = (const GPUPCHECDev *)X->block, *b = (const GPUPCHECDev *)Y->block;

    PetscCheck(a->K == b->K && a->nremslots == b->nremslots && a->nlong == b->nlong, PETSC_COMM_SELF, PETSC_ERR_PLIB, "hec layouts differ");
    PetscCall(SameDevice("hec ellcol", a->ellcol, b->ellcol, a->K * a->stride, sizeof(PetscInt)));
    PetscCall(SameDevice("hec ellval", a->ellval, b->ellval, a->K * a->stride, sizeof(PetscScalar)));
    PetscCall(SameDevice("hec remcol", a->remcol, b->remcol, a->nremslots, sizeof(PetscInt)));
    PetscCall(SameDevice("hec remval", a->remval, b->remval, a->nremslots, sizeof(PetscScalar)));
  }
  PetscFunctionReturn(0);
}

/* y = A x from both builds, identical, and within rounding of the CSR product; A^T x and the diagonal likewise */
static PetscErrorCode SameProducts(const HostCSR *A, GPUPCDevMat X, GPUPCDevMat Y)
{
  PetscScalar *x, *ref, *dx, *yx, *yy, *hy;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(PetscMax(A->m, A->n), &x, A->m, &ref, PetscMax(A->m, A->n), &hy));
  for (PetscInt c = 0; c < PetscMax(A->m, A->n); c++) x[c] = 1.0 + 0.001 * (c % 17);
  for (PetscInt i = 0; i < A->m; i++) {
    ref[i] = 0;
    for (PetscInt k = A->i[i]; k < A->i[i + 1]; k++) ref[i] += A->a[k] * x[A->j[k]];
  }
  PetscCall(Up(x, PetscMax(A->m, A->n) * sizeof(PetscScalar), (void **)&dx));
  PetscCall(GPUPCMallocArray(PetscMax(1, PetscMax(A->m, A->n)), &yx));
  PetscCall(GPUPCMallocArray(PetscMax(1, PetscMax(A->m, A->n)), &yy));
  PetscCall(GPUPCDevMatMult(X, dx, NULL, yx));
  PetscCall(GPUPCDevMatMult(Y, dx, NULL, yy));
  PetscCall(SameDevice("y = A x", yx, yy, A->m, sizeof(PetscScalar)));
  if (A->m) PetscCall(GPUPCCopyToHost(hy, yx, A->m));
  for (PetscInt i = 0; i < A->m; i++) PetscCheck(PetscAbsScalar(hy[i] - ref[i]) <= 1e-12 * (1.0 + PetscAbsScalar(ref[i])) * (A->i[i + 1] - A->i[i] + 1), PETSC_COMM_SELF, PETSC_ERR_PLIB, "y = A x: row %" PetscInt_FMT " is %g, the CSR product %g", i, (double)PetscRealPart(hy[i]), (double)PetscRealPart(ref[i]));
  PetscCall(GPUPCDevMatGetDiagonal(X, yx));
  PetscCall(GPUPCDevMatGetDiagonal(Y, yy));
  PetscCall(SameDevice("diagonal", yx, yy, A->m, sizeof(PetscScalar)));
  PetscCall(GPUPCFree(dx));
  PetscCall(GPUPCFree(yx));
  PetscCall(GPUPCFree(yy));
  PetscCall(PetscFree3(x, ref, hy));
  PetscFunctionReturn(0);
}

/* format fmt (segcsr or hec) from host CSR and from device CSR; then new values from the host and from the device */
static PetscErrorCode CheckFormat(const HostCSR *A, GPUPCDevMatFormat f)
{
  const char  *fmt = GPUPCDevMatFormats[f];
  GPUPCCSR     h   = HostView(A);
  GPUPCDevMat  X, Y;
  PetscInt    *di, *dj;
  PetscScalar *da, *na;

  PetscFunctionBegin;
  PetscCall(Up(A->i, (A->m + 1) * sizeof(PetscInt), (void **)&di));
  PetscCall(Up(A->j, A->nnz * sizeof(PetscInt), (void **)&dj));
  PetscCall(Up(A->a, A->nnz * sizeof(PetscScalar), (void **)&da));
  PetscCall(GPUPCDevMatCreate(&h, 1, f, &X));
  PetscCall(GPUPCDevMatCreateFromDeviceCSR(A->m, A->n, A->nnz, di, dj, da, f, &Y));
  PetscCheck(!strcmp(X->ops->name, fmt) && !strcmp(Y->ops->name, fmt), PETSC_COMM_SELF, PETSC_ERR_PLIB, "asked for %s, got %s and %s", fmt, X->ops->name, Y->ops->name);
  PetscCall(SameBlocks(fmt, X, Y));
  PetscCall(SameProducts(A, X, Y));
  if (f == GPUPC_DEVMAT_SEGCSR) PetscCall(CheckSegCSRMember((const GPUPCSegCSRDev *)X->block, dj, A->j, A->nnz));
  else PetscCall(CheckHECMember((const GPUPCHECDev *)X->block, dj, A->j));
  /* new values: 2a - 1 from the host into X, from the device into Y */
  PetscCall(PetscMalloc1(A->nnz, &na));
  for (PetscInt k = 0; k < A->nnz; k++) na[k] = 2.0 * A->a[k] - 1.0;
  PetscCall(GPUPCFree(da));
  PetscCall(Up(na, A->nnz * sizeof(PetscScalar), (void **)&da));
  PetscCall(GPUPCDevMatUpdateValues(X, na, PETSC_FALSE));
  PetscCall(GPUPCDevMatUpdateValues(Y, da, PETSC_TRUE));
  PetscCall(SameBlocks(fmt, X, Y));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-9s %-6s m %4" PetscInt_FMT " n %4" PetscInt_FMT " nnz %5" PetscInt_FMT ": device build = host build, products and value updates agree\n", A->name, fmt, A->m, A->n, A->nnz));
  PetscCall(PetscFree(na));
  PetscCall(GPUPCDevMatDestroy(&X));
  PetscCall(GPUPCDevMatDestroy(&Y));
  PetscCall(GPUPCFree(di));
  PetscCall(GPUPCFree(dj));
  PetscCall(GPUPCFree(da));
  PetscFunctionReturn(0);
}

/* bcsr from device CSR: PETSC_ERR_SUP, nothing leaked */
static PetscErrorCode CheckBCSRRefuses(const HostCSR *A)
{
  PetscInt      *di, *dj;
  PetscScalar   *da;
  GPUPCDevMat    Y = NULL;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(Up(A->i, (A->m + 1) * sizeof(PetscInt), (void **)&di));
  PetscCall(Up(A->j, A->nnz * sizeof(PetscInt), (void **)&dj));
  PetscCall(Up(A->a, A->nnz * sizeof(PetscScalar), (void **)&da));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = GPUPCDevMatCreateFromDeviceCSR(A->m, A->n, A->nnz, di, dj, da, GPUPC_DEVMAT_BCSR, &Y);
  PetscCall(PetscPopErrorHandler());
  PetscCheck(ierr == PETSC_ERR_SUP, PETSC_COMM_SELF, PETSC_ERR_PLIB, "bcsr from device CSR gave error %d, expected PETSC_ERR_SUP", (int)ierr);
  PetscCall(GPUPCDevMatDestroy(&Y));
  PetscCall(GPUPCFree(di));
  PetscCall(GPUPCFree(dj));
  PetscCall(GPUPCFree(da));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "bcsr from device CSR: refused (PETSC_ERR_SUP)\n"));
  PetscFunctionReturn(0);
}

/* auto: hec for a Laplacian of 512^2 rows, segcsr for a small one (too few rows for a thread each) and for the
   irregular rows, bcsr for a SEQAIJ of full 3 x 3 blocks */
static PetscErrorCode CheckAuto(const HostCSR *lap, const HostCSR *irr)
{
  GPUPCCSR    h;
  GPUPCDevMat X;
  Mat         B;
  HostCSR     big;

  PetscFunctionBegin;
  PetscCall(MakeLaplace(512, &big));
  h = HostView(&big);
  PetscCall(GPUPCDevMatCreate(&h, 1, GPUPC_DEVMAT_AUTO, &X));
  PetscCheck(!strcmp(X->ops->name, "hec"), PETSC_COMM_SELF, PETSC_ERR_PLIB, "auto on the Laplacian of 512^2 rows chose %s (%s), expected hec", X->ops->name, X->reason);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "auto laplace2d 512^2: %s (%s)\n", X->ops->name, X->reason));
  PetscCall(GPUPCDevMatDestroy(&X));
  PetscCall(FreeCSR(&big));
  h = HostView(lap);
  PetscCall(GPUPCDevMatCreate(&h, 1, GPUPC_DEVMAT_AUTO, &X));
  PetscCheck(!strcmp(X->ops->name, "segcsr"), PETSC_COMM_SELF, PETSC_ERR_PLIB, "auto on the small Laplacian chose %s (%s), expected segcsr", X->ops->name, X->reason);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "auto laplace2d: %s (%s)\n", X->ops->name, X->reason));
  PetscCall(GPUPCDevMatDestroy(&X));
  h = HostView(irr);
  PetscCall(GPUPCDevMatCreate(&h, 1, GPUPC_DEVMAT_AUTO, &X));
  PetscCheck(!strcmp(X->ops->name, "segcsr"), PETSC_COMM_SELF, PETSC_ERR_PLIB, "auto on the irregular rows chose %s (%s), expected segcsr", X->ops->name, X->reason);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "auto irregular: %s (%s)\n", X->ops->name, X->reason));
  PetscCall(GPUPCDevMatDestroy(&X));
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 60, 60, 9, NULL, &B));
  PetscCall(MatSetBlockSize(B, 3));
  for (PetscInt b = 0; b < 20; b++) {
    for (PetscInt c = b - 1; c <= b + 1; c++) {
      if (c < 0 || c >= 20) continue;
      for (PetscInt r = 0; r < 3; r++)
        for (PetscInt s = 0; s < 3; s++) PetscCall(MatSetValue(B, 3 * b + r, 3 * c + s, b == c ? (r == s ? 10.0 : 0.5) : -1.0, INSERT_VALUES));
    }
  }
  PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  PetscCall(GPUPCDevMatCreateFromSeqAIJ(B, GPUPC_DEVMAT_AUTO, &X));
  PetscCheck(!strcmp(X->ops->name, "bcsr"), PETSC_COMM_SELF, PETSC_ERR_PLIB, "auto on full 3 x 3 blocks chose %s (%s), expected bcsr", X->ops->name, X->reason);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "auto blocks3: %s (%s)\n", X->ops->name, X->reason));
  PetscCall(GPUPCDevMatView(X, "blocks3", PETSC_VIEWER_STDOUT_SELF));
  PetscCall(GPUPCDevMatDestroy(&X));
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscRandom r;
  HostCSR     irr, lap, rect, none;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &r));
  PetscCall(PetscRandomSetFromOptions(r));
  PetscCall(MakeIrregular(r, 900, 2000, &irr));
  PetscCall(MakeLaplace(24, &lap));
  PetscCall(MakeIrregular(r, 300, 120, &rect));
  rect.name = "rectangle";
  PetscCall(MakeIrregular(r, 30, 30, &none));
  none.name = "noentries";
  none.nnz  = 0;
  for (PetscInt i = 0; i <= none.m; i++) none.i[i] = 0;
  for (int f = GPUPC_DEVMAT_SEGCSR; f <= GPUPC_DEVMAT_HEC; f++) {
    PetscCall(CheckFormat(&irr, (GPUPCDevMatFormat)f));
    PetscCall(CheckFormat(&lap, (GPUPCDevMatFormat)f));
    PetscCall(CheckFormat(&rect, (GPUPCDevMatFormat)f));
    PetscCall(CheckFormat(&none, (GPUPCDevMatFormat)f));
  }
  PetscCall(CheckBCSRRefuses(&lap));
  PetscCall(CheckAuto(&lap, &irr));
  for (PetscInt k = 0; k < GPUPC_FORMAT_NKERNELS; k++) PetscCheck(runs[k] > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "format kernel %s has no case", GPUPCFormatKernelNames[k]);
  PetscCall(FreeCSR(&irr));
  PetscCall(FreeCSR(&lap));
  PetscCall(FreeCSR(&rect));
  PetscCall(FreeCSR(&none));
  PetscCall(PetscRandomDestroy(&r));
  PetscCall(PetscFinalize());
  return 0;
}

/*
   PC gpuamg's hierarchy on the device (gpupc/amgcycle.h): every level's A, P and R = P^T in the device format
   (-pc_gpuamg_mat_type), its gpu vectors, the smoother's data and the last level's dense inverse; the value refresh
   for SAME_NONZERO_PATTERN; the view of what was built.

   On several ranks the levels, P and R are device-only shells over each rank's device blocks
   (GPUPCDevMPIBlocksCreateMat, gpupc/devmpiblocks.h): the blocks come from LevelBlocks (today copies of the host
   MPIAIJ levels' arrays, no host layout work), R is the distributed transpose of P's blocks
   (GPUPCDevMPIBlocksTranspose), and the smoothers' scalings are computed from A's blocks on the device
   (amgsmoother.c). The host MPIAIJ levels are still converted to the mpi GPUPC types (MatConvert, R by MatTranspose)
   only where a smoother reads the host matrix at its setup (needs_host, or needs_host_blocks on a level of block
   size > 1: bjacobi's block inverses gather the host rows).
*/
#include <gpupc/threads.h>
#include <gpupc/amgcycle.h>
#include <gpupc/matgpu.h>
#include <gpupc/devmat.h>
#include <gpupc/amgcsr.h>       /* GPUPCAMGMatOnArrays */
#include <gpupc/amgsetup.h>     /* GPUPCAMGDevHierarchyGetLevel: the device-built levels */
#include <gpupc/amgdevacross.h> /* the distributed levels as device blocks (GPUPCAMGDevHierarchyGetLevelMPI) */

PetscLogEvent PC_GPUAMG_Upload, PC_GPUAMG_SmootherSetUp, PC_GPUAMG_CoarseSetUp, PC_GPUAMG_Cycle, PC_GPUAMG_Smooth, PC_GPUAMG_Restrict, PC_GPUAMG_Prolong, PC_GPUAMG_CoarseSolve;

/*@C
   PCGPUAMGRegisterEvents - registers the log events of PC gpuamg's device side (once)

   Not Collective

   Level: developer
@*/
PetscErrorCode PCGPUAMGRegisterEvents(void)
{
  static PetscBool done = PETSC_FALSE;
  PetscClassId     id;

  PetscFunctionBegin;
  if (done) PetscFunctionReturn(0);
  done = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("PC gpuamg", &id));
  PetscCall(PetscLogEventRegister("GPUAMGUpload", id, &PC_GPUAMG_Upload));
  PetscCall(PetscLogEventRegister("GPUAMGSmoothSet", id, &PC_GPUAMG_SmootherSetUp));
  PetscCall(PetscLogEventRegister("GPUAMGCoarseSet", id, &PC_GPUAMG_CoarseSetUp));
  PetscCall(PetscLogEventRegister("GPUAMGCycle", id, &PC_GPUAMG_Cycle));
  PetscCall(PetscLogEventRegister("GPUAMGSmooth", id, &PC_GPUAMG_Smooth));
  PetscCall(PetscLogEventRegister("GPUAMGRestrict", id, &PC_GPUAMG_Restrict));
  PetscCall(PetscLogEventRegister("GPUAMGProlong", id, &PC_GPUAMG_Prolong));
  PetscCall(PetscLogEventRegister("GPUAMGCoarseSolve", id, &PC_GPUAMG_CoarseSolve));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGCycleOptionsDefault - the defaults of PC gpuamg's cycle options

   Not Collective

   Output Parameter:
.  o - V cycle, l1-Jacobi with its default sweeps (1 and 1), Chebyshev degree 2, Neumann degree 2, CUDA graph on, segcsr levels

   Level: developer
@*/
PetscErrorCode GPUPCAMGCycleOptionsDefault(GPUPCAMGCycleOptions *o)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(o, sizeof(*o)));
  o->cycle = PC_GPUAMG_CYCLE_V;
  PetscCall(PetscStrncpy(o->smoother, PCGPUAMGSMOOTHERL1JACOBI, sizeof(o->smoother)));
  o->pre            = PETSC_DEFAULT;
  o->post           = PETSC_DEFAULT;
  o->weight         = PETSC_DEFAULT;
  o->cheby_degree   = 2;
  o->poly_degree    = 2;
  o->graph          = PETSC_TRUE;
  o->mcgs_block_nnz = GPUPC_MCGS_BLOCK_NNZ;
  o->mcgs_lanes     = 0;
  PetscCall(PetscStrncpy(o->mattype, MATSEGCSR, sizeof(o->mattype)));
  PetscFunctionReturn(0);
}

/* the weight factor w in use: the option, or 1 (jacobi: omega_l = w 4/(3 lambda_l); l1jacobi: omega = w) */
PetscReal GPUPCAMGCycleWeight(const GPUPCAMGCycleOptions *o)
{
  if (o->weight != (PetscReal)PETSC_DEFAULT && o->weight > 0) return o->weight;
  return 1.0;
}

/* the device format of M for -pc_gpuamg_mat_type opt (auto: the shared layer's choice, the same on every rank); why
   (NULL: not wanted) says what decided it */
static PetscErrorCode ChooseFormat(Mat M, const char *opt, MatType *type, const GPUPCMatBlockOps **fops, char *why, size_t len)
{
  const GPUPCMatBlockOps *ops;
  PetscInt                f;
  PetscBool               found;
  char                    buf[160];

  PetscFunctionBegin;
  PetscCall(PetscEListFind(4, GPUPCDevMatFormats, opt, &f, &found));
  PetscCheck(found, PetscObjectComm((PetscObject)M), PETSC_ERR_ARG_UNKNOWN_TYPE, "PC gpuamg: device matrix type %s is not available; use -pc_gpuamg_mat_type segcsr, hec, bcsr or auto", opt);
  PetscCall(GPUPCDevMatChooseForMat(M, (GPUPCDevMatFormat)f, &ops, why ? why : buf, why ? len : sizeof(buf)));
  *type = ops->name;
  if (fops) *fops = ops;
  PetscFunctionReturn(0);
}

/* B = A in the device format: A itself (a new reference) when it already is one, else a converted copy */
static PetscErrorCode ToDevice(Mat A, const char *type, Mat *B)
{
  PetscBool same;
  char      seq[64], mpi[64];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(seq, sizeof(seq), "seq%s", type));
  PetscCall(PetscSNPrintf(mpi, sizeof(mpi), "mpi%s", type));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &same, seq, mpi, ""));
  if (same) {
    PetscCall(PetscObjectReference((PetscObject)A));
    *B = A;
  } else PetscCall(MatConvert(A, type, MAT_INITIAL_MATRIX, B));
  PetscFunctionReturn(0);
}

/* whether a level's format can be laid out from the device setup's device CSR dev (NULL: none): every format lays its
   structure, columns and values out on the device (gpupc/formatkernels.h; bcsr with the block size of the Mat) */
static PetscBool OnDevice(const GPUPCMatBlockOps *ops, const GPUPCDevCSR *dev)
{
  return (PetscBool)(dev && ops && (ops == &GPUPCSegCSRBlockOps || ops == &GPUPCHECBlockOps || ops == &GPUPCBCSRBlockOps));
}

/* d = M's CSR with the columns and values of dev, the device setup's copy of M (row pointers: M's host array, valid
   while M's pattern is) */
static PetscErrorCode DeviceCSROf(Mat M, const GPUPCDevCSR *dev, GPUPCCSR *d)
{
  GPUPCCSR h;

  PetscFunctionBegin;
  PetscCall(GPUPCMatGetCSR(M, &h));
  PetscCall(PetscMemzero(d, sizeof(*d)));
  d->m      = h.m;
  d->n      = h.n;
  d->nnz    = h.nnz;
  d->i      = h.i; /* the row pointers are the host copy's (equal); SEQAIJ's own array, valid after the restore */
  d->j      = dev->j;
  d->a      = dev->a;
  d->device = PETSC_TRUE;
  PetscCall(GPUPCMatRestoreCSR(&h));
  PetscCheck(d->m == dev->m && d->n == dev->n && d->nnz == dev->nnz, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PC gpuamg: a level matrix (%" PetscInt_FMT " x %" PetscInt_FMT ", %" PetscInt_FMT " entries) differs from its device CSR (%" PetscInt_FMT " x %" PetscInt_FMT ", %" PetscInt_FMT ")", d->m, d->n, d->nnz, dev->m, dev->n, dev->nnz);
  PetscFunctionReturn(0);
}

/* M (an assembled SEQAIJ whose host arrays hold dev's entries) into the format of ops in place, its device copy laid
   out from dev: the device setup's level without a layout on the host or an upload */
static PetscErrorCode FromDeviceCSR(Mat M, const GPUPCMatBlockOps *ops, const GPUPCDevCSR *dev)
{
  GPUPCCSR d;

  PetscFunctionBegin;
  PetscCall(DeviceCSROf(M, dev, &d));
  PetscCall(GPUPCMatBlocksFromBaseDeviceCSR(M, ops, &d));
  PetscFunctionReturn(0);
}

/* new values of M (its host arrays already written) from dev on the same pattern: *done false when M's format or
   state does not allow it (the caller then syncs from the host) */
static PetscErrorCode ValuesFromDeviceCSR(Mat M, const GPUPCDevCSR *dev, PetscBool *done)
{
  GPUPCCSR  d;
  PetscBool seq;

  PetscFunctionBegin;
  *done = PETSC_FALSE;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)M, &seq, MATSEQSEGCSR, MATSEQHEC, MATSEQBCSR, ""));
  if (!seq) PetscFunctionReturn(0);
  PetscCall(DeviceCSROf(M, dev, &d));
  PetscCall(GPUPCMatBlocksUploadDeviceCSR(M, &d, done));
  PetscFunctionReturn(0);
}

/* B = the caller's operator A in the device format, as a copy: a SEQAIJ's arrays are copied by the setup's threads
   (MatDuplicate copies them on one thread, and this copy is the largest one of the upload), anything else by
   MatConvert */
static PetscErrorCode ToDeviceCopy(Mat A, const char *type, const GPUPCMatBlockOps *ops, const GPUPCDevCSR *dev, PetscInt threads, Mat *B)
{
  PetscBool seqaij;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQAIJ, &seqaij));
  if (seqaij) {
    GPUPCCSR     a;
    PetscInt    *bi, *bj, rbs, cbs;
    PetscScalar *ba;
    PetscInt     nt = PetscMax(1, threads);

    PetscCall(GPUPCMatGetCSR(A, &a));
    PetscCall(PetscMalloc1(a.m + 1, &bi));
    PetscCall(PetscMalloc1(a.nnz, &bj));
    PetscCall(PetscMalloc1(a.nnz, &ba));
    nt = GPUPCRangeThreads(nt, a.m, 65536);
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (PetscInt t = 0; t < nt; t++) {
      PetscInt lo, hi;
      GPUPCThreadRange(a.m, t, nt, &lo, &hi);
      for (PetscInt i = lo; i < hi; i++) bi[i + 1] = a.i[i + 1];
      for (PetscInt k = a.i[lo]; k < a.i[hi]; k++) {
        bj[k] = a.j[k];
        ba[k] = a.a[k];
      }
    }
    bi[0] = a.i[0];
    PetscCall(GPUPCMatRestoreCSR(&a));
    PetscCall(GPUPCAMGMatOnArrays(A->rmap->n, A->cmap->n, bi, bj, ba, B));
    PetscCall(MatGetBlockSizes(A, &rbs, &cbs));
    PetscCall(MatSetBlockSizes(*B, rbs, cbs));
    if (OnDevice(ops, dev)) PetscCall(FromDeviceCSR(*B, ops, dev));
    else PetscCall(MatConvert(*B, type, MAT_INPLACE_MATRIX, B));
  } else PetscCall(ToDevice(A, type, B));
  PetscFunctionReturn(0);
}

/* B = M in the device format for a matrix the setup made (a coarse operator, P or R). On one rank M is converted in
   place and B references it, so the hierarchy's host copy is the device matrix's host side and no second host copy is
   made (a Galerkin recompute writes its values and the next Sync uploads them). Copied instead: a PETSc product's
   result or operand (consumer: the Galerkin product of the next level is a PETSc product) since the product's reuse
   checks the types it was set up with, and MPI matrices (MatPtAP's numeric phase needs MATMPIAIJ operands). dev (or
   NULL): M on the device as the device setup holds it, from which the format is laid out (no host layout, no upload) */
static PetscErrorCode ToDeviceOwned(Mat M, Mat consumer, const char *type, const GPUPCMatBlockOps *ops, const GPUPCDevCSR *dev, Mat *B)
{
  PetscBool seq;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)M, MATSEQAIJ, &seq));
  if (seq && !M->product && !(consumer && consumer->product)) {
    Mat T = M;
    if (OnDevice(ops, dev)) PetscCall(FromDeviceCSR(M, ops, dev));
    else PetscCall(MatConvert(M, type, MAT_INPLACE_MATRIX, &T));
    PetscCheck(T == M, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PC gpuamg: the in-place conversion to %s replaced the matrix", type);
  }
  PetscCall(ToDevice(M, type, B));
  PetscFunctionReturn(0);
}

/* the format of -pc_gpuamg_mat_type for a P or R of block size pbs (1: rows and columns have different block sizes):
   bcsr only where they have square blocks, else segcsr (bcsr would hold 1 x 1 blocks with a thread a row, the slowest
   layout for R's long rows: bench/NOTES.md 2026-11-29e lead) */
static const char *TransferType(const char *opt, PetscInt pbs)
{
  return (!strcmp(opt, "bcsr") && pbs <= 1) ? "segcsr" : opt;
}

/* the block size of M's square blocks, 1 when its rows and columns have different ones */
static PetscErrorCode SquareBlockSize(Mat M, PetscInt *bs)
{
  PetscInt rbs, cbs;

  PetscFunctionBegin;
  PetscCall(MatGetBlockSizes(M, &rbs, &cbs));
  *bs = rbs == cbs ? PetscMax(1, rbs) : 1;
  PetscFunctionReturn(0);
}

/* B = the device setup's CSR dev as a device-only Mat (GPUPCDevMatCreateMat) in the format of -pc_gpuamg_mat_type opt
   (segcsr, hec, bcsr or auto), with block size bs (bcsr's blocks, auto's block fill; 1: none): no host copy of the
   entries exists */
static PetscErrorCode DeviceOnly(const GPUPCDevCSR *dev, const char *opt, PetscInt bs, MatType *type, char *why, size_t len, Mat *B)
{
  PetscInt    f;
  PetscBool   found;
  GPUPCDevMat dm;

  PetscFunctionBegin;
  PetscCall(PetscEListFind(4, GPUPCDevMatFormats, opt, &f, &found));
  PetscCheck(found, PETSC_COMM_SELF, PETSC_ERR_ARG_UNKNOWN_TYPE, "PC gpuamg: device matrix type %s is not available; use -pc_gpuamg_mat_type segcsr, hec, bcsr or auto", opt);
  PetscCall(GPUPCDevMatCreateFromDeviceCSRBlocked(dev->m, dev->n, dev->nnz, dev->i, dev->j, dev->a, bs, (GPUPCDevMatFormat)f, &dm));
  *type = dm->ops->name;
  if (why) PetscCall(PetscStrncpy(why, dm->reason, len));
  PetscCall(GPUPCDevMatCreateMat(dm, B));
  PetscFunctionReturn(0);
}

/* the device copy of M holds its current values (so no product inside a recorded cycle uploads); a device-only Mat
   has no host copy */
static PetscErrorCode Sync(Mat M)
{
  GPUPCDevMat dm;

  PetscFunctionBegin;
  if (!M) PetscFunctionReturn(0);
  PetscCall(GPUPCDevMatFromMat(M, &dm));
  if (!dm) {
    PetscBool blocks;

    PetscCall(GPUPCDevMPIBlocksMatGetInfo(M, &blocks, NULL, NULL, NULL, NULL));
    if (!blocks) PetscCall(GPUPCMatSubclassEnsure(M));
  }
  PetscFunctionReturn(0);
}

/* the vector's values are on the device (so no read inside a recorded cycle copies) */
static PetscErrorCode TouchDevice(Vec v)
{
  const PetscScalar *d;

  PetscFunctionBegin;
  if (!v) PetscFunctionReturn(0);
  PetscCall(VecGPUGetDeviceArrayRead(v, &d));
  PetscCall(VecGPURestoreDeviceArrayRead(v, &d));
  PetscFunctionReturn(0);
}

/* the device blocks of level l's A (A not NULL) and of P[l] (P not NULL) on several ranks; *owned: they were made here
   and the caller frees them (GPUPCDevMPIBlocksDestroy, PetscFree), else they are the hierarchy's: the device setup
   across ranks hands its own (GPUPCAMGDevHierarchyGetLevelMPI); after the host setup they are copies of the host
   MPIAIJ levels' arrays (GPUPCDevMPIBlocksFromMat: no host layout work). The one place that says where the distributed
   levels' blocks come from. */
static PetscErrorCode LevelBlocks(const GPUPCAMGHierarchy *H, PetscInt l, GPUPCDevMPIBlocks **A, GPUPCDevMPIBlocks **P, PetscBool *owned)
{
  const GPUPCDevMPIBlocks *hA = NULL, *hP = NULL;

  PetscFunctionBegin;
  PetscCall(GPUPCAMGDevHierarchyGetLevelMPI(H, l, &hA, &hP));
  if ((!A || hA) && (!P || hP)) { /* the device setup's (read only here: the shells copy what they keep) */
    if (A) *A = (GPUPCDevMPIBlocks *)hA;
    if (P) *P = (GPUPCDevMPIBlocks *)hP;
    *owned = PETSC_FALSE;
    PetscFunctionReturn(0);
  }
  if (A) {
    PetscCall(PetscNew(A));
    PetscCall(GPUPCDevMPIBlocksFromMat(H->A[l], *A));
  }
  if (P) {
    PetscCall(PetscNew(P));
    PetscCall(GPUPCDevMPIBlocksFromMat(H->P[l], *P));
  }
  *owned = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* frees blocks that LevelBlocks made (owned), else leaves them to the hierarchy */
static PetscErrorCode LevelBlocksRelease(GPUPCDevMPIBlocks **B, PetscBool owned)
{
  PetscFunctionBegin;
  if (*B && owned) {
    PetscCall(GPUPCDevMPIBlocksDestroy(*B));
    PetscCall(PetscFree(*B));
  }
  *B = NULL;
  PetscFunctionReturn(0);
}

/* B = a distributed device-only Mat over the blocks blk (GPUPCDevMPIBlocksCreateMat) in the format of
   -pc_gpuamg_mat_type opt, with block size bs; the format's name into *type, why (NULL: not wanted) what decided it */
static PetscErrorCode BlocksOnly(const GPUPCDevMPIBlocks *blk, const char *opt, PetscInt bs, MatType *type, char *why, size_t len, Mat *B)
{
  PetscInt    f;
  PetscBool   found, isblocks;
  const char *name, *reason;

  PetscFunctionBegin;
  PetscCall(PetscEListFind(4, GPUPCDevMatFormats, opt, &f, &found));
  PetscCheck(found, blk->comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "PC gpuamg: device matrix type %s is not available; use -pc_gpuamg_mat_type segcsr, hec, bcsr or auto", opt);
  PetscCall(GPUPCDevMPIBlocksCreateMat(blk, (GPUPCDevMatFormat)f, bs, B));
  PetscCall(GPUPCDevMPIBlocksMatGetInfo(*B, &isblocks, NULL, NULL, &name, &reason));
  *type = name;
  if (why) PetscCall(PetscStrncpy(why, reason, len));
  PetscFunctionReturn(0);
}

/* whether the levels on several ranks can be device-only shells over device blocks: not where the smoother reads the
   host matrix at its setup (then the host levels are converted) */
static PetscErrorCode UseBlocks(const GPUPCAMGHierarchy *H, const GPUPCAMGDevice *D, PetscMPIInt size, PetscBool *use)
{
  PetscFunctionBegin;
  *use = (PetscBool)(size > 1 && !D->smoother.needs_host && !D->smoother.needs_graph);
  if (*use && D->smoother.needs_host_blocks)
    for (PetscInt l = 0; l < H->nlevels - 1; l++) {
      PetscInt bs = 1;

      if (H->A[l]) PetscCall(SquareBlockSize(H->A[l], &bs)); /* else a device level across ranks: bs 1 */
      if (bs > 1) *use = PETSC_FALSE;
    }
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckLevelMatrix(Mat A, PetscInt l)
{
  PetscInt M, N;

  PetscFunctionBegin;
  PetscCall(MatGetSize(A, &M, &N));
  PetscCheck(M == N, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_SIZ, "PC gpuamg: the operator of level %" PetscInt_FMT " is %" PetscInt_FMT " x %" PetscInt_FMT "; AMG needs a square matrix", l, M, N);
  PetscFunctionReturn(0);
}

/* the device setup after the upload, shared by the creation and the value refresh: every level's smoother but the
   last's, then the last level's dense inverse (of the host hierarchy's last operator), each under its log event and
   with its time kept for the view */
static PetscErrorCode SetUpSmoothersAndLastLevel(const GPUPCAMGHierarchy *H, GPUPCAMGDevice *D)
{
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(PetscLogEventBegin(PC_GPUAMG_SmootherSetUp, 0, 0, 0, 0));
  for (PetscInt l = 0; l < D->nlevels - 1; l++) PetscCall(GPUPCAMGSmootherSetUp(D, l));
  PetscCall(PetscLogEventEnd(PC_GPUAMG_SmootherSetUp, 0, 0, 0, 0));
  PetscCall(PetscTime(&t1));
  D->t_smoother = t1 - t0;
  PetscCall(PetscLogEventBegin(PC_GPUAMG_CoarseSetUp, 0, 0, 0, 0));
  PetscCall(GPUPCAMGCoarseSetUp(D, H->A[D->nlevels - 1]));
  PetscCall(PetscLogEventEnd(PC_GPUAMG_CoarseSetUp, 0, 0, 0, 0));
  PetscCall(PetscTime(&t0));
  D->t_coarse = t0 - t1;
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDeviceCreate - puts a host AMG hierarchy on the device and sets up the smoothers and the last level

   Collective on the hierarchy's matrices

   Input Parameters:
+  H - the hierarchy (host AIJ levels; kept by the caller)
-  o - the cycle options

   Output Parameter:
.  D - the device hierarchy (free with GPUPCAMGDeviceDestroy())

   Level: developer
@*/
PetscErrorCode GPUPCAMGDeviceCreate(const GPUPCAMGHierarchy *H, const GPUPCAMGCycleOptions *o, GPUPCAMGDevice *D)
{
  PetscLogDouble t0, t1;
  PetscMPIInt    size;
  PetscReal      nnz0 = 0, N0 = 0;
  PetscBool      avail, mpiblocks; /* several ranks: the levels, P and R as device-only shells over device blocks */

  PetscFunctionBegin;
  PetscCall(PCGPUAMGRegisterEvents());
  PetscCall(PetscMemzero(D, sizeof(*D)));
  PetscCheck(H->nlevels >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "PC gpuamg: the hierarchy has no level");
  {
    PetscBool found;
    PetscCall(GPUPCAMGSmootherFind(o->smoother, &D->smoother, &found));
    PetscCheck(found, PETSC_COMM_SELF, PETSC_ERR_ARG_UNKNOWN_TYPE, "PC gpuamg: no smoother %s is registered (-pc_gpuamg_smoother; -help lists them; PCGPUAMGSmootherRegister() adds one)", o->smoother);
  }
  D->opts = *o;
  if (D->opts.pre == PETSC_DEFAULT) D->opts.pre = D->smoother.default_sweeps;
  if (D->opts.post == PETSC_DEFAULT) D->opts.post = D->smoother.default_sweeps;
  PetscCheck(D->opts.pre >= 0 && D->opts.post >= 0 && D->opts.pre + D->opts.post > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "PC gpuamg: %" PetscInt_FMT " pre- and %" PetscInt_FMT " post-smoothing sweeps; at least one sweep in all is needed", D->opts.pre, D->opts.post);
  D->nlevels = H->nlevels;
  PetscCall(GPUPCGetAMGKernels(&D->k));
  PetscCall(PetscCalloc1(D->nlevels, &D->levels));
  PetscCall(MPI_Comm_size(PetscObjectComm((PetscObject)H->A[0]), &size));
  PetscCheck(!D->smoother.needs_graph || size == 1, PetscObjectComm((PetscObject)H->A[0]), PETSC_ERR_SUP, "PC gpuamg: the smoother %s works on one rank only (it colours the host graph of each level); on %d ranks choose another with -pc_gpuamg_smoother", o->smoother, (int)size);
  PetscCall(UseBlocks(H, D, size, &mpiblocks));

  PetscCall(PetscTime(&t0));
  PetscCall(PetscLogEventBegin(PC_GPUAMG_Upload, 0, 0, 0, 0));
  for (PetscInt l = 0; l < D->nlevels; l++) {
    GPUPCAMGDeviceLevel    *L = &D->levels[l];
    MatInfo                 info;
    const GPUPCMatBlockOps *aops = NULL, *pops = NULL, *rops = NULL;
    const GPUPCDevCSR      *dA, *dP, *dR; /* the device setup's CSR of the level (NULL after the host setup) */

    PetscBool devonly;         /* the device setup's level without host copies: device-only Mats (DeviceOnly) */
    PetscInt  bs = 1, pbs = 1; /* their block sizes: A's, and P's and R's */

    PetscCall(GPUPCAMGDevHierarchyGetLevel(H, l, &dA, &dP, &dR));
    devonly = (PetscBool)(dA && !H->hostlevels);
    L->dcsr = dA;  /* the smoother's scalings read it (GPUPCAMGSmootherSetUp) */
    if (devonly) { /* block sizes: the operator's on level 0, the device setup's on the coarse levels (aggregation: nv
                      rows a node, bjacobi's blocks); P and R have the blocks of both of their levels when they agree */
      PetscInt rbs, cbs, nbs = 1;

      PetscCall(MatGetBlockSizes(H->A[0], &rbs, &cbs));
      if (l == 0) bs = rbs == cbs ? PetscMax(1, rbs) : 1;
      else PetscCall(GPUPCAMGDevHierarchyGetBlockSize(H, l, &bs));
      if (l + 1 < D->nlevels) PetscCall(GPUPCAMGDevHierarchyGetBlockSize(H, l + 1, &nbs));
      pbs = nbs == bs ? bs : 1;
    }
    if (mpiblocks) { /* A's blocks stay with the level: the smoother's scalings read them */
      if (H->A[l]) { /* else a level of the device setup across ranks (square, block size 1) */
        PetscCall(CheckLevelMatrix(H->A[l], l));
        PetscCall(SquareBlockSize(H->A[l], &bs));
      }
      PetscCall(LevelBlocks(H, l, &L->dblocks, NULL, &L->ownblocks));
      PetscCall(BlocksOnly(L->dblocks, o->mattype, bs, &L->afmt, L->awhy, sizeof(L->awhy), &L->A));
    } else if (devonly && l == 0) { /* the operator itself when it already is a matrix of the format (no second layout) */
      PetscBool same;
      char      seq[64];

      PetscCall(ChooseFormat(H->A[0], o->mattype, &L->afmt, &aops, L->awhy, sizeof(L->awhy)));
      PetscCall(PetscSNPrintf(seq, sizeof(seq), "seq%s", L->afmt));
      PetscCall(PetscObjectTypeCompare((PetscObject)H->A[0], seq, &same));
      if (same) {
        PetscCall(PetscObjectReference((PetscObject)H->A[0]));
        L->A = H->A[0];
        PetscCall(PetscStrlcat(L->awhy, "; the operator itself", sizeof(L->awhy)));
      } else PetscCall(DeviceOnly(dA, o->mattype, bs, &L->afmt, L->awhy, sizeof(L->awhy), &L->A));
    } else if (devonly) {
      PetscCall(DeviceOnly(dA, o->mattype, bs, &L->afmt, L->awhy, sizeof(L->awhy), &L->A));
      if (bs > 1) PetscCall(MatSetBlockSizes(L->A, bs, bs));
    } else {
      PetscCall(CheckLevelMatrix(H->A[l], l));
      PetscCall(ChooseFormat(H->A[l], o->mattype, &L->afmt, &aops, L->awhy, sizeof(L->awhy)));
      if (l == 0) PetscCall(ToDeviceCopy(H->A[l], L->afmt, aops, dA, H->threads, &L->A)); /* the caller's operator */
      else PetscCall(ToDeviceOwned(H->A[l], l + 1 < D->nlevels ? H->A[l + 1] : NULL, L->afmt, aops, dA, &L->A));
    }
    PetscCall(MatGetLocalSize(L->A, &L->n, NULL));
    PetscCall(MatGetSize(L->A, &L->N, NULL));
    PetscCall(MatGetInfo(L->A, MAT_GLOBAL_SUM, &info));
    L->nnz = (PetscInt)info.nz_used;
    if (l == 0) {
      nnz0 = info.nz_used;
      N0   = L->N;
    }
    D->opcomplexity += nnz0 > 0 ? info.nz_used / nnz0 : 0;
    D->gridcomplexity += N0 > 0 ? L->N / N0 : 0;
    if (l < D->nlevels - 1 && mpiblocks) { /* P's blocks and R's, their transpose; the shells keep their own copies */
      GPUPCDevMPIBlocks *pb = NULL, rb;
      PetscBool          owned;

      if (H->P[l]) PetscCall(SquareBlockSize(H->P[l], &pbs));
      PetscCall(LevelBlocks(H, l, NULL, &pb, &owned));
      PetscCall(BlocksOnly(pb, TransferType(o->mattype, pbs), pbs, &L->pfmt, NULL, 0, &L->P));
      PetscCall(GPUPCDevMPIBlocksTranspose(pb, &rb));
      PetscCall(BlocksOnly(&rb, TransferType(o->mattype, pbs), pbs, &L->rfmt, NULL, 0, &L->R));
      PetscCall(GPUPCDevMPIBlocksDestroy(&rb));
      PetscCall(LevelBlocksRelease(&pb, owned));
    } else if (l < D->nlevels - 1 && devonly) {
      PetscCall(DeviceOnly(dP, TransferType(o->mattype, pbs), pbs, &L->pfmt, NULL, 0, &L->P));
      PetscCall(DeviceOnly(dR, TransferType(o->mattype, pbs), pbs, &L->rfmt, NULL, 0, &L->R));
    } else if (l < D->nlevels - 1) {
      Mat Rh;

      PetscCall(SquareBlockSize(H->P[l], &pbs));
      PetscCall(ChooseFormat(H->P[l], TransferType(o->mattype, pbs), &L->pfmt, &pops, NULL, 0));
      PetscCall(ToDeviceOwned(H->P[l], H->A[l + 1], L->pfmt, pops, dP, &L->P));
      if (H->R && H->R[l]) { /* the setup's P^T (no recompute reads it) */
        PetscCall(ChooseFormat(H->R[l], TransferType(o->mattype, pbs), &L->rfmt, &rops, NULL, 0));
        PetscCall(ToDeviceOwned(H->R[l], NULL, L->rfmt, rops, dR, &L->R));
      } else {
        PetscCall(MatTranspose(H->P[l], MAT_INITIAL_MATRIX, &Rh));
        PetscCall(ChooseFormat(Rh, TransferType(o->mattype, pbs), &L->rfmt, NULL, NULL, 0));
        PetscCall(MatConvert(Rh, L->rfmt, MAT_INITIAL_MATRIX, &L->R));
        PetscCall(MatDestroy(&Rh));
      }
    }
    PetscCall(MatCreateVecs(L->A, &L->x, &L->b));
    PetscCall(VecDuplicate(L->x, &L->r));
    PetscCall(VecSet(L->x, 0.0));
    PetscCall(VecSet(L->b, 0.0));
    PetscCall(VecSet(L->r, 0.0));
    PetscCall(Sync(L->A));
    PetscCall(Sync(L->P));
    PetscCall(Sync(L->R));
  }
  PetscCall(PetscLogEventEnd(PC_GPUAMG_Upload, 0, 0, 0, 0));
  PetscCall(PetscTime(&t1));
  D->t_upload = t1 - t0;
  PetscCall(SetUpSmoothersAndLastLevel(H, D));

  for (PetscInt l = 0; l < D->nlevels; l++) {
    GPUPCAMGDeviceLevel *L = &D->levels[l];
    PetscCall(TouchDevice(L->sm.dinv));
    PetscCall(TouchDevice(L->sm.dl1));
    PetscCall(TouchDevice(L->x));
    PetscCall(TouchDevice(L->b));
    PetscCall(TouchDevice(L->r));
  }
  PetscCall(GPUPCGraphAvailable(&avail));
  D->usegraph = (PetscBool)(avail && o->graph && size == 1);
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDeviceRefresh - new values on the same nonzero pattern: the device levels take the values of the host
   hierarchy (after GPUPCAMGHierarchyRecompute), the smoothers and the last level are set up again, and the cycle is
   recorded again (its Chebyshev coefficients changed)

   Collective

   Level: developer
@*/
PetscErrorCode GPUPCAMGDeviceRefresh(const GPUPCAMGHierarchy *H, GPUPCAMGDevice *D)
{
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  /* the recorded cycle holds the smoothers' coefficients (Chebyshev) by value and the device arrays by address: record
     it again at the next application but one */
  PetscCall(GPUPCGraphDestroy(&D->graph));
  D->applies = 0;
  PetscCheck(H->nlevels == D->nlevels, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "PC gpuamg: the recomputed hierarchy has %" PetscInt_FMT " levels, the device one %" PetscInt_FMT, H->nlevels, D->nlevels);
  PetscCall(PetscTime(&t0));
  PetscCall(PetscLogEventBegin(PC_GPUAMG_Upload, 0, 0, 0, 0));
  for (PetscInt l = 0; l < D->nlevels; l++) {
    GPUPCAMGDeviceLevel *L = &D->levels[l];

    PetscBool   done = PETSC_FALSE;
    GPUPCDevMat dm;

    if (L->dblocks) { /* several ranks: the level's new blocks, their values into the shell */
      GPUPCDevMPIBlocks *nb;
      PetscBool          owned;

      PetscCall(LevelBlocks(H, l, &nb, NULL, &owned));
      PetscCall(GPUPCDevMPIBlocksMatUpdateValues(L->A, nb));
      if (nb != L->dblocks) PetscCall(LevelBlocksRelease(&L->dblocks, L->ownblocks));
      L->dblocks   = nb;
      L->ownblocks = owned;
      continue;
    }
    if (L->A == H->A[l]) { /* the operator itself (level 0): its device copy follows its values */
      PetscCall(Sync(L->A));
      continue;
    }
    PetscCall(GPUPCDevMatFromMat(L->A, &dm));
    if (dm) { /* a device-only level: the device setup's new values (level 0: the operator's new device copy) */
      PetscCheck(L->dcsr && L->dcsr->nnz == dm->nnz, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PC gpuamg: level %" PetscInt_FMT " is held on the device only, but the recomputed hierarchy has no device CSR of it", l);
      PetscCall(GPUPCDevMatUpdateValues(dm, L->dcsr->a, PETSC_TRUE));
      continue;
    }
    if (L->A != H->A[l]) PetscCall(MatConvert(H->A[l], L->afmt, MAT_REUSE_MATRIX, &L->A));
    if (L->dcsr) PetscCall(ValuesFromDeviceCSR(L->A, L->dcsr, &done)); /* the device setup's values: no upload */
    if (!done) PetscCall(Sync(L->A));
  }
  PetscCall(PetscLogEventEnd(PC_GPUAMG_Upload, 0, 0, 0, 0));
  PetscCall(PetscTime(&t1));
  D->t_upload = t1 - t0;
  PetscCall(SetUpSmoothersAndLastLevel(H, D));
  for (PetscInt l = 0; l < D->nlevels; l++) {
    PetscCall(TouchDevice(D->levels[l].sm.dinv));
    PetscCall(TouchDevice(D->levels[l].sm.dl1));
  }
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDeviceDestroy - frees the device hierarchy (the host hierarchy is the caller's)

   Collective

   Level: developer
@*/
PetscErrorCode GPUPCAMGDeviceDestroy(GPUPCAMGDevice *D)
{
  PetscFunctionBegin;
  PetscCall(GPUPCGraphDestroy(&D->graph));
  for (PetscInt l = 0; l < D->nlevels; l++) {
    GPUPCAMGDeviceLevel *L = &D->levels[l];
    PetscCall(MatDestroy(&L->A));
    PetscCall(MatDestroy(&L->P));
    PetscCall(MatDestroy(&L->R));
    PetscCall(VecDestroy(&L->b));
    PetscCall(VecDestroy(&L->x));
    PetscCall(VecDestroy(&L->r));
    PetscCall(GPUPCAMGSmootherDestroy(D, l));
    PetscCall(VecDestroy(&L->sm.dinv));
    PetscCall(VecDestroy(&L->sm.dl1));
    PetscCall(LevelBlocksRelease(&L->dblocks, L->ownblocks));
  }
  PetscCall(GPUPCAMGCoarseDestroy(D));
  PetscCall(PetscFree(D->levels));
  PetscCall(PetscMemzero(D, sizeof(*D)));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDeviceView - per level rows, stored entries, entries per row, coarsening ratio and smoother data; the
   complexities, the cycle and the last level

   Collective

   Level: developer
@*/
PetscErrorCode GPUPCAMGDeviceView(const GPUPCAMGDevice *D, PetscViewer viewer)
{
  const GPUPCAMGCycleOptions *o = &D->opts;
  size_t                      nodes;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "cycle %s, smoother %s, sweeps %" PetscInt_FMT " pre and %" PetscInt_FMT " post\n", PCGPUAMGCycleTypes[o->cycle], o->smoother, o->pre, o->post));
  if (D->smoother.view && D->nlevels > 1) PetscCall((*D->smoother.view)((PCGPUAMGSmootherLevel *)&D->levels[0].sm, viewer));
  if (D->smoother.needs_lambda) PetscCall(PetscViewerASCIIPrintf(viewer, "lambda_l = min(1.1 * largest Ritz value of %d Lanczos steps on |D|^-1/2 sgn(D) A |D|^-1/2, Gershgorin bound of D^-1 A)\n", GPUPC_AMG_LANCZOS_STEPS));
  PetscCall(PetscViewerASCIIPrintf(viewer, "levels %" PetscInt_FMT ", grid complexity %.3f, operator complexity %.3f, device format %s\n", D->nlevels, (double)D->gridcomplexity, (double)D->opcomplexity, o->mattype));
  PetscCall(PetscViewerASCIIPrintf(viewer, "level        rows         nnz   nnz/row   ratio       Ritz Gershgorin     lambda      omega\n"));
  for (PetscInt l = 0; l < D->nlevels; l++) {
    const GPUPCAMGDeviceLevel *L     = &D->levels[l];
    const double               ratio = l > 0 && D->levels[l - 1].N > 0 ? (double)L->N / (double)D->levels[l - 1].N : 1.0;

    PetscCall(PetscViewerASCIIPrintf(viewer, "%5" PetscInt_FMT " %11" PetscInt_FMT " %11" PetscInt_FMT " %9.2f %7.3f", l, L->N, L->nnz, L->N ? (double)L->nnz / (double)L->N : 0.0, ratio));
    PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
    if (l == D->nlevels - 1) PetscCall(PetscViewerASCIIPrintf(viewer, "   last level: dense %s inverse%s\n", D->spd ? "Cholesky" : "LU", D->redundant ? ", redundant on every rank" : ""));
    else {
      const PCGPUAMGSmootherLevel *S        = &L->sm;
      char                         ritz[16] = "-", lambda[16] = "-", omega[16] = "-";

      if (S->lambda > 0) {
        PetscCall(PetscSNPrintf(ritz, sizeof(ritz), "%.4g", (double)S->ritz));
        PetscCall(PetscSNPrintf(lambda, sizeof(lambda), "%.4g", (double)S->lambda));
      }
      if (S->omega > 0) PetscCall(PetscSNPrintf(omega, sizeof(omega), "%.4g", (double)S->omega));
      PetscCall(PetscViewerASCIIPrintf(viewer, " %10s %10.4g %10s %10s\n", ritz, (double)S->gersh, lambda, omega));
    }
    PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
  }
  for (PetscInt l = 0; l < D->nlevels; l++) {
    const GPUPCAMGDeviceLevel *L = &D->levels[l];

    if (!L->afmt) continue;
    if (L->pfmt) PetscCall(PetscViewerASCIIPrintf(viewer, "level %" PetscInt_FMT " matrix: %s (%s); P %s, R %s\n", l, L->afmt, L->awhy, L->pfmt, L->rfmt));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "level %" PetscInt_FMT " matrix: %s (%s)\n", l, L->afmt, L->awhy));
  }
  PetscCall(GPUPCGraphGetSize(D->graph, &nodes));
  if (D->graph) PetscCall(PetscViewerASCIIPrintf(viewer, "cycle recorded as a CUDA graph of %zu operations\n", nodes));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "cycle launched operation by operation%s\n", D->usegraph ? " (recorded at the second application)" : (o->graph ? " (a CUDA graph needs one rank and the cuda backend)" : " (-pc_gpuamg_use_graph 0)")));
  if (D->cyclebytes > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "one application moves at least %.4g MB (every operand of every operation read or written once): its bandwidth floor\n", D->cyclebytes / 1e6));
  PetscCall(PetscViewerASCIIPrintf(viewer, "device setup: upload %.3g s, smoothers %.3g s, last level %.3g s\n", D->t_upload, D->t_smoother, D->t_coarse));
  PetscCall(GPUPCAMGDeviceViewHalo(D, viewer));
  PetscFunctionReturn(0);
}

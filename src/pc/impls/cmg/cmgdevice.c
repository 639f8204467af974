/*
   CMG hierarchy on the device: upload once per setup (structure, values in the chosen
   precision, cluster-sorted lists, last-level inverse, level vectors) and free.
*/
#include <gpupc/cmg.h>
#include <gpupc/stage.h>
#include <gpupc/cmgsetupkernels.h>

/* -L in the level format (segcsr, hec, bcsr or auto's choice: the format's SpMV y = A x + z then gives the residual
   b - L x): built at the first upload, its values replaced on a refresh */
static PetscErrorCode UploadLevelMat(const GPUPCCMGLevel *L, GPUPCCMGMatType mattype, GPUPCCMGDeviceLevel *DL, size_t *bytes)
{
  GPUPCCSR     csr;
  PetscScalar *neg;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(PetscMax(L->nnz, 1), &neg));
  for (PetscInt k = 0; k < L->nnz; k++) neg[k] = -L->val[k];
  PetscCall(PetscMemzero(&csr, sizeof(csr)));
  csr.m   = L->n;
  csr.n   = L->n;
  csr.nnz = L->nnz;
  csr.i   = L->rowptr;
  csr.j   = L->col;
  csr.a   = neg;
  if (DL->mat) PetscCall(GPUPCDevMatUpdateValues(DL->mat, neg, PETSC_FALSE));
  else {
    PetscCall(GPUPCDevMatCreate(&csr, 1, GPUPCCMGDevMatFormat(mattype), &DL->mat));
    *bytes += DL->mat->bytes;
    PetscCall(GPUPCMalloc(L->n * sizeof(PetscScalar), &DL->r));
    *bytes += L->n * sizeof(PetscScalar);
  }
  PetscCall(PetscFree(neg));
  PetscFunctionReturn(0);
}

/* Host -> device copies of the upload. The large arrays go through the rank's page-locked staging buffers (gpupc/stage.h,
   shared with segcsr's value updates): the setup threads copy, or convert to float, a chunk of the host array into a
   free buffer while the chunks before it are on their way; the ~1.5 GB of a 7.2M-row hierarchy went at ~6 GB/s from
   pageable memory on the H200 host (bench/NOTES.md). The small arrays (S NULL) are copied directly. */
typedef struct {
  PetscInt threads; /* the setup threads fill the staging buffers */
} Stage;

/* the n items of the host array h (hs bytes each) to the device buffer d (ds bytes each: hs, or a float for a
   PetscReal) */
static PetscErrorCode Copy(const Stage *S, size_t n, const void *h, size_t hs, void *d, size_t ds)
{
  PetscFunctionBegin;
  if (S || hs != ds) PetscCall(GPUPCStageCopyToDevice(S ? S->threads : 1, n, h, hs, d, ds));
  else PetscCall(GPUPCMemcpy(d, h, n * ds, GPUPC_COPY_HOST_TO_DEVICE));
  PetscFunctionReturn(0);
}

/* the n items of the host array h (hs bytes each) into the device buffer *d (ds bytes each), which is allocated, and
   counted in *bytes, when NULL: the first upload allocates, a refresh writes the same buffers again */
static PetscErrorCode Put(const Stage *S, size_t n, const void *h, size_t hs, size_t ds, void **d, size_t *bytes)
{
  PetscFunctionBegin;
  if (!*d) {
    PetscCall(GPUPCMalloc(n * ds, d));
    *bytes += n * ds;
  }
  PetscCall(Copy(S, n, h, hs, *d, ds));
  PetscFunctionReturn(0);
}

/* n reals into the device buffer *d in the level precision (Put) */
static PetscErrorCode PutReals(const Stage *S, GPUPCCMGPrecision prec, size_t n, const PetscReal *h, void **d, size_t *bytes)
{
  PetscFunctionBegin;
  PetscCall(Put(S, n, h, sizeof(PetscReal), prec == GPUPC_CMG_PRECISION_SINGLE ? sizeof(float) : sizeof(double), d, bytes));
  PetscFunctionReturn(0);
}

/* copies n integers to a new device buffer (S may be NULL; *d is NULL: structure is uploaded once) */
static PetscErrorCode UploadInts(const Stage *S, size_t n, const PetscInt *h, PetscInt **d, size_t *bytes)
{
  PetscFunctionBegin;
  PetscCall(Put(S, n, h, sizeof(PetscInt), sizeof(PetscInt), (void **)d, bytes));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCCMGLevelFromDevice - forms a level of the cycle from the CSR the device setup left on the device (L->drowptr,
   L->dcol, L->dval): the one place where a level is built from device data (the levels layer's device matrices will
   take over here). The structure when asked; the values when asked and the level precision is double (*done true),
   else the caller converts the host values. The level borrows the device setup's arrays (no second copy on the device;
   DL->borrowed, DL->valborrowed): PCSetUp_CMG frees or uploads the cycle again whenever it frees the device setup.

   Not Collective

   Level: developer
@*/
PetscErrorCode GPUPCCMGLevelFromDevice(const GPUPCCMGLevel *L, GPUPCCMGPrecision prec, PetscBool structure, PetscBool values, GPUPCCMGDeviceLevel *DL, PetscBool *done, size_t *bytes)
{
  PetscFunctionBegin;
  PetscCheck(L->drowptr && L->dcol && L->dval, PETSC_COMM_SELF, PETSC_ERR_PLIB, "CMG: the level has no device CSR to form it from");
  (void)bytes;     /* the arrays are borrowed: counted by the device setup */
  if (structure) { /* the device setup's CSR itself */
    PetscCheck(!DL->rowptr && !DL->col, PETSC_COMM_SELF, PETSC_ERR_PLIB, "CMG: the level's structure is already on the device");
    DL->rowptr   = (PetscInt *)L->drowptr;
    DL->col      = (PetscInt *)L->dcol;
    DL->borrowed = PETSC_TRUE;
  }
  *done = (PetscBool)(values && prec == GPUPC_CMG_PRECISION_DOUBLE);
  if (*done) { /* a refresh finds the same array, whose values the reuse has already replaced */
    PetscCheck(!DL->val || DL->valborrowed, PETSC_COMM_SELF, PETSC_ERR_PLIB, "CMG: the level's values have their own device buffer");
    DL->val         = (void *)L->dval;
    DL->valborrowed = PETSC_TRUE;
  }
  PetscFunctionReturn(0);
}

/* pieces of at most chunk items that len items are cut into (at least one) */
static PetscInt Pieces(PetscInt len, PetscInt chunk)
{
  return PetscMax((len + chunk - 1) / chunk, 1);
}

/* chunk prefix of the long items list[0..cnt): item j (entries ptr[list[j]] .. ptr[list[j] + 1)) is cut into
   Pieces(length, chunk), numbered first[j] .. first[j + 1); one CUDA thread block per piece */
static PetscErrorCode UploadChunks(PetscInt cnt, const PetscInt *list, const PetscInt *ptr, PetscInt chunk, PetscInt **d, PetscInt *total, size_t *bytes)
{
  PetscInt *first;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(cnt + 1, &first));
  first[0] = 0;
  for (PetscInt j = 0; j < cnt; j++) first[j + 1] = first[j] + Pieces(ptr[list[j] + 1] - ptr[list[j]], chunk);
  *total = first[cnt];
  PetscCall(UploadInts(NULL, cnt + 1, first, d, bytes));
  PetscCall(PetscFree(first));
  PetscFunctionReturn(0);
}

/*
   GPUPCCMGDeviceUploadLargeClusters - the clusters of more than GPUPC_CMG_LONG_CLUSTER vertices of a level (cluster
   C: positions cptr[C] .. cptr[C+1) of the cluster-sorted list), their chunk prefix and the zeroed partial sums and
   counters of their chunks: the CUDA cluster sums give each chunk of GPUPC_CMG_LONG_CLUSTER_CHUNK vertices a thread
   block. Sets DL->nlongc, longclusters, clusterchunk, nclusterchunks, lcacc and lccount (DL->prec set); adds the
   device bytes to *bytes.
*/
PetscErrorCode GPUPCCMGDeviceUploadLargeClusters(PetscInt nc, const PetscInt *cptr, GPUPCCMGDeviceLevel *DL, size_t *bytes)
{
  PetscInt *list, cnt = 0;

  PetscFunctionBegin;
  for (PetscInt c = 0; c < nc; c++)
    if (cptr[c + 1] - cptr[c] > GPUPC_CMG_LONG_CLUSTER) cnt++;
  DL->nlongc = cnt;
  if (!cnt) PetscFunctionReturn(0);
  PetscCall(PetscMalloc1(cnt, &list));
  cnt = 0;
  for (PetscInt c = 0; c < nc; c++)
    if (cptr[c + 1] - cptr[c] > GPUPC_CMG_LONG_CLUSTER) list[cnt++] = c;
  PetscCall(UploadInts(NULL, cnt, list, &DL->longclusters, bytes));
  PetscCall(UploadChunks(cnt, list, cptr, GPUPC_CMG_LONG_CLUSTER_CHUNK, &DL->clusterchunk, &DL->nclusterchunks, bytes));
  PetscCall(PetscFree(list));
  { /* the kernels leave lcacc and lccount zeroed again */
    const size_t es = DL->prec == GPUPC_CMG_PRECISION_SINGLE ? sizeof(float) : sizeof(double);
    PetscCall(GPUPCMalloc(cnt * es, &DL->lcacc));
    PetscCall(GPUPCMemzero(DL->lcacc, cnt * es));
    PetscCall(GPUPCMallocArray(cnt, &DL->lccount));
    PetscCall(GPUPCMemzero(DL->lccount, cnt * sizeof(PetscInt)));
    *bytes += cnt * (es + sizeof(PetscInt));
  }
  PetscFunctionReturn(0);
}

/*
   GPUPCCMGLanes - lanes per row of the CUDA row kernels on a level of n rows and nnz stored entries

   A level of at least packnnz (-pc_cmg_pack_nnz) entries is bound by bandwidth: there each lane keeps several entries
   of its row in flight and few lanes idle (the largest power of two <= a third of the mean row length, the rule
   segcsr measured best for its segment length). A smaller level is bound by the latency of its rows: there a row
   takes few steps (the smallest power of two >= half the mean row length). Both 2..32. On the H200 (bench/NOTES.md):
   the bandwidth rule ran poisson3d 7.2M's cycle 2.93 -> 2.31 ms but made 97k and 1M randcoef3d and powergrid up to 20%
   slower than the latency rule; with half instead of all of the mean row length the latency rule gained 6-11% at 1M
   and 3-8% at 7.2M and stayed within 1% at 97k (then with a threshold of 8e6 entries; see GPUPC_CMG_STREAM_NNZ).
*/
PetscInt GPUPCCMGLanes(PetscInt n, PetscInt nnz, PetscInt packnnz)
{
  const double mean = n > 0 ? (double)nnz / (double)n : 1.0;
  PetscInt     g    = 2;

  if (nnz >= packnnz)
    while (g < 32 && 2.0 * g <= mean / 3.0) g *= 2;
  else
    while (g < 32 && 2.0 * g < mean) g *= 2;
  return g;
}

/* The cluster slots of the packed CUDA residual-restriction (gpupc/cmgkernels.h): a cluster of more than unit
   vertices is split over units of its own (one contribution per unit), any other cluster is summed by one unit (one
   contribution); each chunk of a long row (more than GPUPC_CMG_LONG_ROW entries) adds its part of the row's residual to
   the row's cluster (one more contribution per chunk), and the unit that sums the cluster skips the row. (The two-launch
   residual-restriction of the other levels writes every residual, long rows included, and sums the clusters
   afterwards: no slots.) */
static PetscErrorCode UploadClusterSlots(const GPUPCCMGLevel *L, const PetscInt *cptr, const PetscInt *cperm, PetscInt unit, GPUPCCMGDeviceLevel *DL, size_t es, size_t *bytes)
{
  PetscInt *slot, *need, nslots = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(L->nc, &slot, L->nc, &need));
  for (PetscInt c = 0; c < L->nc; c++) {
    const PetscInt size = cptr[c + 1] - cptr[c];
    PetscInt       nl   = 0; /* chunks of the cluster's long rows */
    for (PetscInt p = cptr[c]; p < cptr[c + 1]; p++) {
      const PetscInt len = L->rowptr[cperm[p] + 1] - L->rowptr[cperm[p]];
      if (len > GPUPC_CMG_LONG_ROW) nl += Pieces(len, GPUPC_CMG_LONG_ROW_CHUNK);
    }
    slot[c] = -1;
    if (size > unit || nl > 0) {
      need[nslots] = Pieces(size, unit) + nl;
      slot[c]      = nslots++;
    }
  }
  DL->nslots = nslots;
  if (nslots) {
    PetscCall(UploadInts(NULL, L->nc, slot, &DL->cslot, bytes));
    PetscCall(UploadInts(NULL, nslots, need, &DL->cneed, bytes));
    PetscCall(GPUPCMalloc(nslots * es, &DL->cacc));
    PetscCall(GPUPCMemzero(DL->cacc, nslots * es));
    PetscCall(GPUPCMallocArray(nslots, &DL->ccount));
    PetscCall(GPUPCMemzero(DL->ccount, nslots * sizeof(PetscInt)));
    *bytes += nslots * (es + sizeof(PetscInt));
  }
  PetscCall(PetscFree2(slot, need));
  PetscFunctionReturn(0);
}

/* Units of a latency-bound level's cluster-sorted vertex list for the packed CUDA residual-restriction
   (GPUPCCMGDeviceLevel.urange): whole clusters of at most unit vertices fill a unit until the next one does not fit;
   a larger cluster takes units of its own, unit vertices each. */
static PetscErrorCode UploadUnitPacking(PetscInt nc, const PetscInt *cptr, PetscInt unit, GPUPCCMGDeviceLevel *DL, size_t *bytes)
{
  PetscInt *urange, nu = 0, cap = 0;
  PetscBool open = PETSC_FALSE; /* the last unit takes more small clusters */

  PetscFunctionBegin;
  for (PetscInt c = 0; c < nc; c++) cap += Pieces(cptr[c + 1] - cptr[c], unit);
  PetscCall(PetscMalloc1(2 * PetscMax(cap, 1), &urange));
  for (PetscInt c = 0; c < nc; c++) {
    if (cptr[c + 1] - cptr[c] > unit) {
      for (PetscInt p = cptr[c]; p < cptr[c + 1]; p += unit) {
        urange[2 * nu]     = p;
        urange[2 * nu + 1] = PetscMin(p + unit, cptr[c + 1]);
        nu++;
      }
      open = PETSC_FALSE;
      continue;
    }
    if (!open || cptr[c + 1] - urange[2 * nu - 2] > unit) {
      urange[2 * nu] = cptr[c];
      nu++;
      open = PETSC_TRUE;
    }
    urange[2 * nu - 1] = cptr[c + 1];
  }
  DL->nunits = nu;
  if (nu) PetscCall(UploadInts(NULL, 2 * nu, urange, &DL->urange, bytes));
  PetscCall(PetscFree(urange));
  PetscFunctionReturn(0);
}

/* The values of the hierarchy: the level matrices, the smoother weights invD = 1/(2 diag), the last level's inverse and
   the fold's Dirichlet values. Into new device buffers at the first upload, into the same buffers at a refresh (the
   recorded cycle keeps its addresses). An isolated vertex (diag 0, a whole component collapsed to one cluster) gets
   invD 0: its value is arbitrary and 0 keeps the cycle symmetric. */
static PetscErrorCode UploadValues(const GPUPCCMGHierarchy *H, PetscInt threads, const Stage *S, GPUPCCMGDevice *D)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < H->nlevels; k++) {
    const GPUPCCMGLevel *L  = &H->levels[k];
    GPUPCCMGDeviceLevel *DL = &D->levels[k];
    PetscReal           *invd;

    PetscBool fromdev = PETSC_FALSE;

    if (L->dval) PetscCall(GPUPCCMGLevelFromDevice(L, D->prec, PETSC_FALSE, PETSC_TRUE, DL, &fromdev, &D->bytes));
    if (!fromdev) PetscCall(PutReals(S, D->prec, L->nnz, L->val, &DL->val, &D->bytes));
    if (D->mattype != GPUPC_CMG_MAT_CSR) PetscCall(UploadLevelMat(L, D->mattype, DL, &D->bytes));
    if (fromdev) { /* double precision values on the device: the weights from them there (no host pass, no copy) */
      const GPUPCCMGSetupKernels *sk;
      GPUPCDevCSR                 dL;
      PetscCall(GPUPCGetCMGSetupKernels(&sk));
      dL.m = dL.n = L->n;
      dL.nnz      = L->nnz;
      dL.i        = (PetscInt *)L->drowptr;
      dL.j        = (PetscInt *)L->dcol;
      dL.a        = (PetscScalar *)L->dval;
      if (!DL->invd) {
        PetscCall(GPUPCMalloc(PetscMax(L->n, 1) * sizeof(PetscReal), &DL->invd));
        D->bytes += L->n * sizeof(PetscReal);
      }
      PetscCall(sk->smoother_weights(&dL, (PetscReal *)DL->invd));
    } else {
      PetscCall(PetscMalloc1(PetscMax(L->n, 1), &invd));
#pragma omp parallel for num_threads(threads) schedule(static)
      for (PetscInt i = 0; i < L->n; i++) {
        PetscReal d = 0.0;
        for (PetscInt q = L->rowptr[i]; q < L->rowptr[i + 1]; q++)
          if (L->col[q] == i) d = L->val[q];
        invd[i] = d > 0.0 ? 1.0 / (2.0 * d) : 0.0;
      }
      PetscCall(PutReals(S, D->prec, L->n, invd, &DL->invd, &D->bytes));
      PetscCall(PetscFree(invd));
    }
    if (k + 1 == H->nlevels && H->coarse_direct) {
      PetscGPUPCBackend backend;
      PetscCall(PetscGPUPCGetBackend(&backend));
      if (backend == PETSC_GPUPC_BACKEND_CUDA) { /* factored on the device, straight into the level's buffer */
        if (!DL->dense) {
          const size_t bytes = (size_t)L->n * L->n * (D->prec == GPUPC_CMG_PRECISION_SINGLE ? sizeof(float) : sizeof(double));
          PetscCall(GPUPCMalloc(bytes, &DL->dense));
          D->bytes += bytes;
        }
        PetscCall(GPUPCCMGCoarseFactorDevice(L, D->prec, DL->dense));
      } else PetscCall(PutReals(S, D->prec, (size_t)L->n * L->n, H->coarse_inv, &DL->dense, &D->bytes));
    }
  }
  if (H->red.map) PetscCall(Put(S, H->red.n, H->red.dinv, sizeof(PetscScalar), sizeof(PetscScalar), (void **)&D->fold.dinv, &D->bytes));
  if (H->red.erow) {
    PetscCall(Put(S, H->red.ncoupling, H->red.eval, sizeof(PetscScalar), sizeof(PetscScalar), (void **)&D->fold.eval, &D->bytes));
    PetscCall(Put(S, H->red.ncoupling, H->red.tval, sizeof(PetscScalar), sizeof(PetscScalar), (void **)&D->fold.tval, &D->bytes));
  }
  PetscFunctionReturn(0);
}

/* Upload the hierarchy and write the cycle's plan */
PetscErrorCode GPUPCCMGDeviceUpload(const GPUPCCMGHierarchy *H, GPUPCCMGPrecision prec, GPUPCCMGMatType mattype, const GPUPCCMGOptions *opts, GPUPCCMGDevice *D)
{
  const size_t      es = prec == GPUPC_CMG_PRECISION_SINGLE ? sizeof(float) : sizeof(double);
  PetscGPUPCBackend backend;
  Stage             S;

  PetscFunctionBegin;
  PetscCheck(mattype == GPUPC_CMG_MAT_CSR || prec == GPUPC_CMG_PRECISION_DOUBLE, PETSC_COMM_SELF, PETSC_ERR_SUP, "-pc_cmg_mat_type %s stores double precision only; use -pc_cmg_precision double or -pc_cmg_mat_type csr", GPUPCCMGMatTypes[mattype]);
  PetscCall(PetscLogEventBegin(PC_CMG_Upload, 0, 0, 0, 0));
  PetscCall(PetscGPUPCGetBackend(&backend));
  S.threads = opts->threads;
  PetscCall(PetscMemzero(D, sizeof(*D)));
  D->prec    = prec;
  D->mattype = mattype;
  D->fusennz = opts->fuse_nnz;
  D->packnnz = opts->pack_nnz;
  D->nlevels = H->nlevels;
  PetscCall(PetscCalloc1(H->nlevels, &D->levels));
  for (PetscInt k = 0; k < H->nlevels; k++) {
    const GPUPCCMGLevel *L  = &H->levels[k];
    GPUPCCMGDeviceLevel *DL = &D->levels[k];

    DL->prec  = prec;
    DL->n     = L->n;
    DL->nnz   = L->nnz;
    DL->t     = L->t;
    DL->lanes = GPUPCCMGLanes(L->n, L->nnz, opts->pack_nnz);
    if (L->drowptr) { /* formed from the device setup's CSR (the values follow in UploadValues) */
      PetscBool done;
      PetscCall(GPUPCCMGLevelFromDevice(L, prec, PETSC_TRUE, PETSC_FALSE, DL, &done, &D->bytes));
    } else {
      PetscCall(UploadInts(&S, L->n + 1, L->rowptr, &DL->rowptr, &D->bytes));
      PetscCall(UploadInts(&S, L->nnz, L->col, &DL->col, &D->bytes));
    }
    PetscCall(GPUPCMalloc(L->n * es, &DL->b));
    PetscCall(GPUPCMalloc(L->n * es, &DL->x));
    PetscCall(GPUPCMalloc(L->n * es, &DL->w));
    D->bytes += 3 * L->n * es;
    { /* long rows */
      PetscInt *list, cnt = 0;
      for (PetscInt i = 0; i < L->n; i++)
        if (L->rowptr[i + 1] - L->rowptr[i] > GPUPC_CMG_LONG_ROW) cnt++;
      if (cnt) {
        PetscCall(PetscMalloc1(cnt, &list));
        cnt = 0;
        for (PetscInt i = 0; i < L->n; i++)
          if (L->rowptr[i + 1] - L->rowptr[i] > GPUPC_CMG_LONG_ROW) list[cnt++] = i;
        PetscCall(UploadInts(NULL, cnt, list, &DL->longrows, &D->bytes));
        PetscCall(GPUPCMalloc(cnt * es, &DL->rlong));
        PetscCall(GPUPCMemzero(DL->rlong, cnt * es)); /* the kernels leave rlong and rcount zeroed again */
        PetscCall(GPUPCMallocArray(cnt, &DL->rcount));
        PetscCall(GPUPCMemzero(DL->rcount, cnt * sizeof(PetscInt)));
        D->bytes += cnt * sizeof(PetscInt);
        D->bytes += cnt * es;
        PetscCall(UploadChunks(cnt, list, L->rowptr, GPUPC_CMG_LONG_ROW_CHUNK, &DL->rowchunk, &DL->nrowchunks, &D->bytes));
        PetscCall(PetscFree(list));
      }
      DL->nlong = cnt;
    }
    if (k + 1 < H->nlevels) {
      PetscInt *cptr, *cperm;
      DL->nc = L->nc;
      PetscCall(PetscMalloc2(L->nc + 1, &cptr, L->n, &cperm));
      PetscCall(GPUPCCMGClusterSort(L->n, L->nc, L->cluster, cptr, cperm));
      PetscCall(GPUPCCMGDeviceUploadLargeClusters(L->nc, cptr, DL, &D->bytes));
      if (mattype == GPUPC_CMG_MAT_CSR && L->nnz < opts->pack_nnz) { /* the packed CUDA residual-restriction (segcsr levels restrict the SpMV's residual) */
        const PetscInt unit = GPUPC_CMG_UNIT_SLOTS(DL->lanes);
        PetscCall(UploadClusterSlots(L, cptr, cperm, unit, DL, es, &D->bytes));
        PetscCall(UploadUnitPacking(L->nc, cptr, unit, DL, &D->bytes));
      } else if (mattype == GPUPC_CMG_MAT_CSR && backend == PETSC_GPUPC_BACKEND_CUDA) { /* the CUDA residual-restriction of this level: residual, then cluster sums */
        PetscCall(GPUPCMalloc(L->n * es, &DL->r));
        D->bytes += L->n * es;
      }
      PetscCall(UploadInts(&S, L->n, L->cluster, &DL->cluster, &D->bytes));
      PetscCall(UploadInts(&S, L->nc + 1, cptr, &DL->cptr, &D->bytes));
      PetscCall(UploadInts(&S, L->n, cperm, &DL->cperm, &D->bytes));
      PetscCall(PetscFree2(cptr, cperm));
    } else DL->direct = H->coarse_direct;
  }
  D->fold.prec   = prec;
  D->fold.n      = H->red.n;
  D->fold.copies = H->red.copies;
  D->fold.n0     = H->red.n0;
  D->fold.nk     = H->red.nkept;
  D->fold.ground = H->red.ground;
  if (H->red.map) PetscCall(UploadInts(&S, H->red.n, H->red.map, &D->fold.map, &D->bytes));
  if (H->red.erow) {
    const PetscInt ne = H->red.ncoupling;
    PetscCall(UploadInts(&S, H->red.n + 1, H->red.erow, &D->fold.erow, &D->bytes));
    PetscCall(UploadInts(&S, ne, H->red.ecol, &D->fold.ecol, &D->bytes));
    PetscCall(UploadInts(&S, H->red.n + 1, H->red.trow, &D->fold.trow, &D->bytes));
    PetscCall(UploadInts(&S, ne, H->red.tcol, &D->fold.tcol, &D->bytes));
  }
  PetscCall(UploadValues(H, opts->threads, &S, D));
  PetscCall(GPUPCMalloc(sizeof(PetscScalar), (void **)&D->fold.sum));
  PetscCall(GPUPCMemzero(D->fold.sum, sizeof(PetscScalar)));
  PetscCall(GPUPCMallocArray(1, &D->fold.done));
  PetscCall(GPUPCMemzero(D->fold.done, sizeof(PetscInt)));
  D->bytes += sizeof(PetscScalar) + sizeof(PetscInt);
  PetscCall(GPUPCCMGDevicePlan(D));
  PetscCall(GPUPCSynchronize());
  PetscCall(PetscLogEventEnd(PC_CMG_Upload, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*
   GPUPCCMGDeviceRefresh - new values of a hierarchy whose structure did not change (GPUPCCMGHierarchyRecompute: same
   pattern, clustering kept): when D was uploaded from a hierarchy of the same sizes with the same precision, matrix
   type and level options, the values are copied into its buffers, so its plan and its recorded cycle stay valid, and
   *done is set; otherwise D is left alone (*done false) and the caller uploads afresh.
*/
PetscErrorCode GPUPCCMGDeviceRefresh(const GPUPCCMGHierarchy *H, GPUPCCMGPrecision prec, GPUPCCMGMatType mattype, const GPUPCCMGOptions *opts, GPUPCCMGDevice *D, PetscBool *done)
{
  Stage S;

  PetscFunctionBegin;
  *done = (PetscBool)(D->levels && D->nlevels == H->nlevels && D->prec == prec && D->mattype == mattype && D->fusennz == opts->fuse_nnz && D->packnnz == opts->pack_nnz);
  for (PetscInt k = 0; *done && k < H->nlevels; k++) *done = (PetscBool)(D->levels[k].n == H->levels[k].n && D->levels[k].nnz == H->levels[k].nnz && D->levels[k].direct == (k + 1 == H->nlevels && H->coarse_direct));
  if (!*done) PetscFunctionReturn(0);
  PetscCall(PetscLogEventBegin(PC_CMG_Upload, 0, 0, 0, 0));
  PetscCall(GPUPCSynchronize()); /* no cycle still reads the old values */
  S.threads = opts->threads;
  PetscCall(UploadValues(H, opts->threads, &S, D));
  PetscCall(GPUPCSynchronize());
  PetscCall(PetscLogEventEnd(PC_CMG_Upload, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCCMGDeviceFree(GPUPCCMGDevice *D)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < D->nlevels; k++) {
    GPUPCCMGDeviceLevel *DL = &D->levels[k];
    if (!DL->borrowed) {
      PetscCall(GPUPCFree(DL->rowptr));
      PetscCall(GPUPCFree(DL->col));
    }
    if (!DL->valborrowed) PetscCall(GPUPCFree(DL->val));
    PetscCall(GPUPCFree(DL->invd));
    PetscCall(GPUPCFree(DL->b));
    PetscCall(GPUPCFree(DL->x));
    PetscCall(GPUPCFree(DL->w));
    PetscCall(GPUPCFree(DL->cluster));
    PetscCall(GPUPCFree(DL->cptr));
    PetscCall(GPUPCFree(DL->cperm));
    PetscCall(GPUPCFree(DL->dense));
    PetscCall(GPUPCFree(DL->r));
    PetscCall(GPUPCFree(DL->longrows));
    PetscCall(GPUPCFree(DL->longclusters));
    PetscCall(GPUPCFree(DL->rlong));
    PetscCall(GPUPCFree(DL->rcount));
    PetscCall(GPUPCFree(DL->cslot));
    PetscCall(GPUPCFree(DL->cacc));
    PetscCall(GPUPCFree(DL->ccount));
    PetscCall(GPUPCFree(DL->cneed));
    PetscCall(GPUPCFree(DL->rowchunk));
    PetscCall(GPUPCFree(DL->clusterchunk));
    PetscCall(GPUPCFree(DL->lcacc));
    PetscCall(GPUPCFree(DL->lccount));
    PetscCall(GPUPCFree(DL->urange));
    PetscCall(GPUPCDevMatDestroy(&DL->mat));
  }
  PetscCall(GPUPCGraphDestroy(&D->graph));
  PetscCall(PetscFree(D->steps));
  PetscCall(PetscFree(D->levels));
  PetscCall(GPUPCFree(D->fold.sum));
  PetscCall(GPUPCFree(D->fold.done));
  PetscCall(GPUPCFree(D->fold.map));
  PetscCall(GPUPCFree(D->fold.dinv));
  PetscCall(GPUPCFree(D->fold.erow));
  PetscCall(GPUPCFree(D->fold.ecol));
  PetscCall(GPUPCFree(D->fold.eval));
  PetscCall(GPUPCFree(D->fold.trow));
  PetscCall(GPUPCFree(D->fold.tcol));
  PetscCall(GPUPCFree(D->fold.tval));
  PetscCall(PetscMemzero(D, sizeof(*D)));
  PetscFunctionReturn(0);
}

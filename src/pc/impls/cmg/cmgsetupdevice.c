/*
   PC cmg's setup on the device (-pc_cmg_setup device): the hierarchy of cmghierarchy.c built by the kernels of
   gpupc/cmgsetupkernels.h and the shared sparse kernels (scans, compactions, the sort-and-reduce of the Galerkin sums).
   The user's matrix goes up once; the reduction, the clustering and the Galerkin sums run on the device, level by
   level, with the stopping rules of the host setup; each finished level is copied down into the host hierarchy,
   which the cycle's upload, the last level's factor and -ksp_view read. The result is the host setup's hierarchy bit
   for bit (docs/algorithms.md 2.5). A value-only reuse (SAME_NONZERO_PATTERN) uploads the new values, checks them and
   writes level 0's values in place on the kept structure in one pass per row, sums the coarser levels' values on the
   kept clusters and sort, and copies only the last level's values down.
*/
#include <gpupc/cmg.h>
#include <gpupc/cmgsetupkernels.h>
#include <gpupc/matgpu.h>
#include <gpupc/stage.h>

/* device arrays of one reduction (freed by ReductionArraysFree) */
typedef struct {
  PetscInt  *isdir, *bad, *strict, *len, *map, *list;
  PetscReal *excess, *dinv;
} ReduceArrays;

static PetscErrorCode ReduceArraysFree(ReduceArrays *R)
{
  PetscFunctionBegin;
  PetscCall(GPUPCFree(R->isdir));
  PetscCall(GPUPCFree(R->bad));
  PetscCall(GPUPCFree(R->strict));
  PetscCall(GPUPCFree(R->len));
  PetscCall(GPUPCFree(R->map));
  PetscCall(GPUPCFree(R->list));
  PetscCall(GPUPCFree(R->excess));
  PetscCall(GPUPCFree(R->dinv));
  PetscCall(PetscMemzero(R, sizeof(*R)));
  PetscFunctionReturn(0);
}

/* the Dirichlet couplings E = A(kept rows, Dirichlet columns) and E^T of the reduction red (cmgreduce.c's
   DirichletCouplings on the device: a count and fill pair, E^T by the shared transpose, whose rows list E's rows in
   increasing order as the host's do); both come down into red, where the cycle's upload, its fold and -ksp_view read
   them (ncoupling entries, a few per boundary row) */
static PetscErrorCode CouplingsDevice(const GPUPCDevCSR *A, const PetscInt *isdir, GPUPCCMGReduction *red)
{
  const GPUPCCMGSetupKernels *k;
  const GPUPCSparseKernels   *sk;
  GPUPCDevCSR                 E, T;
  PetscInt                    ne, *perm = NULL;

  PetscFunctionBegin;
  PetscCall(GPUPCGetCMGSetupKernels(&k));
  PetscCall(GPUPCGetSparseKernels(&sk));
  red->ncoupling = 0;
  PetscCall(PetscMemzero(&E, sizeof(E)));
  PetscCall(PetscMemzero(&T, sizeof(T)));
  E.m = E.n = A->m;
  PetscCall(GPUPCMallocArray(A->m + 1, &E.i));
  PetscCall(k->coupling_count(A, isdir, E.i));
  PetscCall(sk->rowptr(A->m, E.i, &ne, NULL));
  if (ne > 0) {
    E.nnz = ne;
    PetscCall(GPUPCMallocArray(ne, &E.j));
    PetscCall(GPUPCMallocArray(ne, &E.a));
    PetscCall(k->coupling_fill(A, isdir, E.i, E.j, E.a));
    PetscCall(GPUPCDevCSRTranspose(&E, MAT_INITIAL_MATRIX, &T, &perm, NULL));
    red->ncoupling = ne;
    PetscCall(PetscMalloc1(A->m + 1, &red->erow));
    PetscCall(PetscMalloc1(A->m + 1, &red->trow));
    PetscCall(PetscMalloc4(ne, &red->ecol, ne, &red->eval, ne, &red->tcol, ne, &red->tval));
    PetscCall(GPUPCCopyToHost(red->erow, E.i, A->m + 1));
    PetscCall(GPUPCCopyToHost(red->ecol, E.j, ne));
    PetscCall(GPUPCCopyToHost(red->eval, E.a, ne));
    PetscCall(GPUPCCopyToHost(red->trow, T.i, A->m + 1));
    PetscCall(GPUPCCopyToHost(red->tcol, T.j, ne));
    PetscCall(GPUPCCopyToHost(red->tval, T.a, ne));
  }
  PetscCall(GPUPCFree(perm));
  PetscCall(GPUPCDevCSRDestroy(&T));
  PetscCall(GPUPCDevCSRDestroy(&E));
  PetscFunctionReturn(0);
}

/* the reduction's tolerances and choices for the kernels */
static void ReduceRule(const GPUPCCMGOptions *opts, GPUPCCMGReduceRule *rule)
{
  rule->check_symmetry = opts->check_symmetry;
  rule->doublecover    = (PetscBool)(opts->positive == GPUPC_CMG_POSITIVE_DOUBLE_COVER);
  rule->dirichlet_rows = opts->dirichlet_rows;
  rule->symmetry_tol   = opts->symmetry_tol;
  rule->dominance_tol  = opts->dominance_tol;
}

/* the host reduction raises the error that names the first faulty row of A (the device kernels found nbad) */
static PetscErrorCode ReduceError(Mat Ah, const GPUPCCMGOptions *opts, PetscInt nbad)
{
  GPUPCCMGReduction hred;
  GPUPCCMGLevel     hL0;

  PetscFunctionBegin;
  PetscCall(GPUPCCMGReduce(Ah, opts, &hred, &hL0));
  PetscCall(GPUPCCMGLevelFree(&hL0));
  PetscCall(GPUPCCMGReductionFree(&hred));
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_PLIB, "CMG device setup: %" PetscInt_FMT " rows failed the device's checks but the host reduction accepted the matrix", nbad);
}

/* the level-0 Laplacian L0 of the device matrix A (cmgreduce.c on the device); *map (device, n) and *strict (device,
   the strictly dominant kept rows in increasing order; NULL without a ground vertex) are kept. A faulty row:
   everything freed, then the host reduction raises the error that names it */
static PetscErrorCode ReduceDevice(Mat Ah, const GPUPCDevCSR *A, const GPUPCCMGOptions *opts, GPUPCCMGReduction *red, GPUPCDevCSR *L0, PetscInt **map, PetscInt **strict)
{
  const GPUPCCMGSetupKernels *k;
  const GPUPCSparseKernels   *sk;
  GPUPCCMGReduceRule          rule;
  ReduceArrays                R;
  const PetscInt              n = A->m;
  PetscInt                    ndir, nbad, npos, nstrict, nk, copies, n0, nnz0, cnt;
  PetscBool                   ground;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PC_CMG_Reduce, Ah, 0, 0, 0));
  PetscCall(GPUPCGetCMGSetupKernels(&k));
  PetscCall(GPUPCGetSparseKernels(&sk));
  PetscCall(PetscMemzero(&R, sizeof(R)));
  ReduceRule(opts, &rule);
  PetscCall(GPUPCMallocArray(n, &R.isdir));
  PetscCall(GPUPCMallocArray(n, &R.bad));
  PetscCall(GPUPCMallocArray(n, &R.strict));
  PetscCall(GPUPCMallocArray(n, &R.len));
  PetscCall(GPUPCMallocArray(n, &R.map));
  PetscCall(GPUPCMallocArray(n, &R.excess));
  PetscCall(GPUPCMallocArray(n, &R.dinv));
  PetscCall(k->dirichlet_rows(A, &rule, R.isdir, &ndir));
  PetscCall(k->check_rows(A, &rule, R.isdir, R.excess, R.dinv, R.bad, R.strict, R.len, &nbad, &npos, &nstrict));
  if (nbad > 0) {
    PetscCall(ReduceArraysFree(&R));
    PetscCall(PetscLogEventEnd(PC_CMG_Reduce, Ah, 0, 0, 0));
    PetscCall(ReduceError(Ah, opts, nbad));
  }
  PetscCall(sk->compact(n, R.isdir, 0, NULL, R.map, &nk, NULL));
  copies = npos > 0 ? 2 : 1;
  ground = nstrict > 0 ? PETSC_TRUE : PETSC_FALSE;
  n0     = copies * nk + (ground ? 1 : 0);
  PetscCall(PetscMemzero(L0, sizeof(*L0)));
  L0->m = L0->n = n0;
  PetscCall(GPUPCMallocArray(n0 + 1, &L0->i));
  PetscCall(k->level0_count(n, R.map, R.len, nk, copies, nstrict, ground, L0->i));
  PetscCall(sk->rowptr(n0, L0->i, &nnz0, NULL));
  L0->nnz = nnz0;
  PetscCall(GPUPCMallocArray(nnz0, &L0->j));
  PetscCall(GPUPCMallocArray(nnz0, &L0->a));
  PetscCall(k->level0_fill(A, R.isdir, R.excess, R.map, nk, copies, L0->i, L0->j, L0->a));
  if (ground) {
    PetscCall(GPUPCMallocArray(nstrict, &R.list));
    PetscCall(sk->compact(n, R.strict, 1, R.list, NULL, &cnt, NULL));
    PetscCheck(cnt == nstrict, PETSC_COMM_SELF, PETSC_ERR_PLIB, "CMG device setup: %" PetscInt_FMT " strictly dominant rows listed of %" PetscInt_FMT, cnt, nstrict);
    PetscCall(k->ground_fill(nstrict, R.list, R.excess, R.map, nk, copies, L0->i, L0->j, L0->a, NULL));
  }
  PetscCall(PetscMemzero(red, sizeof(*red)));
  red->n          = n;
  red->copies     = copies;
  red->ground     = ground;
  red->n0         = n0;
  red->npositive  = npos;
  red->nstrict    = nstrict;
  red->ndirichlet = ndir;
  red->nkept      = nk;
  if (ndir > 0) {
    PetscCall(PetscMalloc1(n, &red->map));
    PetscCall(PetscMalloc1(n, &red->dinv));
    PetscCall(GPUPCCopyToHost(red->map, R.map, n));
    PetscCall(GPUPCCopyToHost(red->dinv, R.dinv, n));
    PetscCall(CouplingsDevice(A, R.isdir, red));
  }
  *map    = R.map;
  *strict = R.list;
  R.map   = NULL;
  R.list  = NULL;
  PetscCall(ReduceArraysFree(&R));
  PetscCall(PetscInfo(Ah, "CMG reduction on the device: %" PetscInt_FMT " rows, %" PetscInt_FMT " positive off-diagonals, %" PetscInt_FMT " strictly dominant rows; level 0 has %" PetscInt_FMT " vertices and %" PetscInt_FMT " nonzeros\n", n, npos, nstrict, n0, nnz0));
  PetscCall(PetscLogEventEnd(PC_CMG_Reduce, Ah, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* the clusters of level L (cmgcluster.c on the device): *cluster (device, L->m), and the host level's nc and
   statistics */
static PetscErrorCode ClusterDevice(const GPUPCDevCSR *L, GPUPCCMGLevel *hL, PetscInt **cluster)
{
  const GPUPCCMGSetupKernels *k;
  const GPUPCSparseKernels   *sk;
  const PetscInt              n = L->m;
  PetscInt                   *p, *h, *rep, *mark, nlight, nweak = 0, done, nc;
  PetscReal                  *wmax, *vol;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PC_CMG_Cluster, 0, 0, 0, 0));
  PetscCall(GPUPCGetCMGSetupKernels(&k));
  PetscCall(GPUPCGetSparseKernels(&sk));
  PetscCall(GPUPCMallocArray(n, &p));
  PetscCall(GPUPCMallocArray(n, &h));
  PetscCall(GPUPCMallocArray(n, &wmax));
  PetscCall(GPUPCMallocArray(n, &vol));
  PetscCall(k->heaviest(L, p, wmax, vol, &nlight));
  if (nlight > 0) PetscCall(k->weak(L, wmax, vol, p, &nweak, NULL));
  PetscCall(k->cut_two_cycles(n, p, NULL));
  PetscCall(k->heights(n, p, h, &done, NULL));
  if (done < n) { /* a longer cycle (a level whose a_ij, a_ji differ in the last bits): cut on the host, climb again */
    PetscInt *hp;
    PetscCall(PetscMalloc1(n, &hp));
    PetscCall(GPUPCCopyToHost(hp, p, n));
    PetscCall(GPUPCCMGMakeForest(n, hp));
    PetscCall(GPUPCCopyToDevice(p, hp, n));
    PetscCall(PetscFree(hp));
    PetscCall(k->heights(n, p, h, &done, NULL));
  }
  PetscCheck(done == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "CMG device clustering: the forest's heights reached %" PetscInt_FMT " of %" PetscInt_FMT " vertices", done, n);
  PetscCall(GPUPCMallocArray(n, &rep));
  PetscCall(GPUPCMallocArray(n, &mark));
  PetscCall(k->cluster_tops(L, p, h, wmax, rep, mark, NULL));
  PetscCall(sk->compact(n, mark, 1, NULL, h, &nc, NULL)); /* h: now the number of each cluster's first vertex */
  PetscCall(GPUPCMallocArray(n, cluster));
  PetscCall(k->cluster_number(n, nc, rep, h, *cluster, &hL->nsingletons, &hL->maxsize, NULL));
  hL->nc    = nc;
  hL->nweak = nweak;
  PetscCall(GPUPCFree(p));
  PetscCall(GPUPCFree(h));
  PetscCall(GPUPCFree(rep));
  PetscCall(GPUPCFree(mark));
  PetscCall(GPUPCFree(wmax));
  PetscCall(GPUPCFree(vol));
  PetscCall(PetscLogEventEnd(PC_CMG_Cluster, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCCMGClusterDevice - GPUPCCMGCluster() through the device setup kernels: the level goes up, its clusters and
   statistics come down (the rank-local clustering of the distributed hierarchy with -pc_cmg_setup device)

   Not Collective

   Input Parameter:
.  L - the level (a Laplacian in CSR on the host)

   Output: L->nc, L->cluster, L->nweak, L->nsingletons, L->maxsize, the same as GPUPCCMGCluster() gives

   Level: developer
@*/
PetscErrorCode GPUPCCMGClusterDevice(GPUPCCMGLevel *L)
{
  GPUPCDevCSR dL;
  PetscInt   *cluster;

  PetscFunctionBegin;
  PetscCall(GPUPCDevCSRCreate(L->n, L->n, L->nnz, PETSC_TRUE, &dL));
  PetscCall(GPUPCCopyToDevice(dL.i, L->rowptr, L->n + 1));
  PetscCall(GPUPCCopyToDevice(dL.j, L->col, L->nnz));
  PetscCall(GPUPCCopyToDevice(dL.a, L->val, L->nnz));
  PetscCall(ClusterDevice(&dL, L, &cluster));
  PetscCall(PetscFree(L->cluster));
  PetscCall(PetscMalloc1(L->n, &L->cluster));
  PetscCall(GPUPCCopyToHost(L->cluster, cluster, L->n));
  PetscCall(GPUPCFree(cluster));
  PetscCall(GPUPCDevCSRDestroy(&dL));
  PetscFunctionReturn(0);
}

/* C = R L R^T from the clusters (cmggalerkin.c on the device) as one sort-and-reduce of (cluster, cluster) triples,
   then each diagonal as minus its row's off-diagonals; reuse: new values on the kept sort */
static PetscErrorCode GalerkinDevice(const GPUPCDevCSR *L, const PetscInt *cluster, PetscInt nc, MatReuse reuse, GPUPCDevCOO *coo, GPUPCDevCSR *C)
{
  const GPUPCCMGSetupKernels *k;
  const PetscInt64            nent64 = (PetscInt64)nc + (PetscInt64)L->nnz;
  PetscInt                    nent, *ci = NULL, *cj = NULL;
  PetscReal                  *v;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PC_CMG_Galerkin, 0, 0, 0, 0));
  PetscCall(GPUPCSparseCheckSize(nent64, L->m, "CMG Galerkin triples"));
  nent = (PetscInt)nent64;
  PetscCall(GPUPCGetCMGSetupKernels(&k));
  if (reuse == MAT_INITIAL_MATRIX) {
    PetscCall(GPUPCMallocArray(nent, &ci));
    PetscCall(GPUPCMallocArray(nent, &cj));
  }
  PetscCall(GPUPCMallocArray(nent, &v));
  PetscCall(k->galerkin_triples(L, cluster, nc, ci, cj, v));
  PetscCall(GPUPCDevCOOAssemble(nc, nc, nent, ci, cj, v, reuse, coo, C));
  PetscCall(k->galerkin_diagonal(C));
  PetscCall(GPUPCFree(ci));
  PetscCall(GPUPCFree(cj));
  PetscCall(GPUPCFree(v));
  PetscCall(PetscLogEventEnd(PC_CMG_Galerkin, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* the host copy of a device level: its row pointers (rowptr), its columns (when missing) and values (entries) */
static PetscErrorCode LevelDown(const GPUPCDevCSR *L, PetscBool rowptr, PetscBool entries, GPUPCCMGLevel *hL)
{
  PetscFunctionBegin;
  if (rowptr) {
    hL->n   = L->m;
    hL->nnz = L->nnz;
    PetscCall(PetscMalloc1(L->m + 1, &hL->rowptr));
    PetscCall(GPUPCCopyToHost(hL->rowptr, L->i, L->m + 1));
  }
  if (entries) {
    if (!hL->col) {
      PetscCall(PetscMalloc2(L->nnz, &hL->col, L->nnz, &hL->val));
      PetscCall(GPUPCCopyToHost(hL->col, L->j, L->nnz));
    }
    PetscCall(GPUPCCopyToHost(hL->val, L->a, L->nnz));
  }
  PetscFunctionReturn(0);
}

/* the user's matrix on the device when its rows are sorted CSR (AIJ assembled by MatSetValues, segcsr); *ok false
   otherwise (then the host setup, which sorts a copy, builds the same hierarchy) */
static PetscErrorCode UploadMatrix(Mat A, PetscInt threads, GPUPCDevCSR *dA, PetscBool *ok)
{
  const GPUPCSparseKernels *sk;
  PetscBool                 aij;
  PetscInt                  m, N, row, fault;
  GPUPCCSR                  csr;

  PetscFunctionBegin;
  *ok = PETSC_FALSE;
  PetscCall(MatGetSize(A, &m, &N));
  PetscCheck(m == N, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "PC cmg needs a square matrix; it has %" PetscInt_FMT " rows and %" PetscInt_FMT " columns", m, N);
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATSEQAIJ, &aij));
  if (!aij) PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQSEGCSR, &aij));
  if (!aij) {
    PetscCall(PetscInfo(A, "CMG: the device setup reads AIJ or segcsr matrices; this one (%s) is set up on the host\n", ((PetscObject)A)->type_name));
    PetscFunctionReturn(0);
  }
  PetscCall(GPUPCMatGetCSR(A, &csr)); /* through the page-locked staging buffers (cmgdevice.c's upload does the same) */
  PetscCall(GPUPCDevCSRCreate(csr.m, csr.n, csr.nnz, PETSC_TRUE, dA));
  PetscCall(GPUPCStageCopyToDevice(threads, (size_t)csr.m + 1, csr.i, sizeof(PetscInt), dA->i, sizeof(PetscInt)));
  PetscCall(GPUPCStageCopyToDevice(threads, (size_t)csr.nnz, csr.j, sizeof(PetscInt), dA->j, sizeof(PetscInt)));
  PetscCall(GPUPCStageCopyToDevice(threads, (size_t)csr.nnz, csr.a, sizeof(PetscScalar), dA->a, sizeof(PetscScalar)));
  PetscCall(GPUPCMatRestoreCSR(&csr));
  PetscCall(GPUPCGetSparseKernels(&sk));
  PetscCall(sk->check(dA, &row, &fault));
  if (row >= 0) {
    PetscCall(PetscInfo(A, "CMG: row %" PetscInt_FMT " of the matrix is not sorted CSR (fault %" PetscInt_FMT "); it is set up on the host, which sorts a copy\n", row, fault));
    PetscCall(GPUPCDevCSRDestroy(dA));
    PetscFunctionReturn(0);
  }
  *ok = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/*@C
   GPUPCCMGDevSetupFree - frees what the device setup keeps for a reuse

   Not Collective

   Level: developer
@*/
PetscErrorCode GPUPCCMGDevSetupFree(GPUPCCMGDevSetup *D)
{
  PetscFunctionBegin;
  PetscCall(GPUPCDevCSRDestroy(&D->A));
  PetscCall(GPUPCFree(D->map));
  PetscCall(GPUPCFree(D->strict));
  for (PetscInt k = 0; k < D->nlevels; k++) {
    PetscCall(GPUPCDevCSRDestroy(&D->L[k]));
    PetscCall(GPUPCFree(D->cluster[k]));
    PetscCall(GPUPCDevCOODestroy(&D->coo[k]));
  }
  PetscCall(PetscFree3(D->L, D->cluster, D->coo));
  PetscCall(PetscMemzero(D, sizeof(*D)));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCCMGHierarchyBuildDevice - builds the CMG hierarchy with the device setup kernels (-pc_cmg_setup device)

   Not Collective (sequential matrix)

   Input Parameters:
+  A    - the matrix
-  opts - the options

   Output Parameters:
+  H    - the hierarchy on the host (the same, bit for bit, as GPUPCCMGHierarchyBuild() gives)
.  D    - what the device keeps for a value-only reuse (GPUPCCMGDevSetupFree)
-  done - PETSC_FALSE when the matrix cannot be read on the device (not AIJ or segcsr, unsorted rows): nothing built,
          the caller builds on the host

   Level: developer

.seealso: GPUPCCMGHierarchyBuild(), GPUPCCMGHierarchyRecomputeDevice()
@*/
PetscErrorCode GPUPCCMGHierarchyBuildDevice(Mat A, const GPUPCCMGOptions *opts, GPUPCCMGHierarchy *H, GPUPCCMGDevSetup *D, PetscBool *done)
{
  const PetscInt maxl = PetscMax(opts->max_levels, 1);
  PetscInt       nnztotal;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(D, sizeof(*D)));
  PetscCall(UploadMatrix(A, PetscMax(opts->threads, 1), &D->A, done));
  if (!*done) PetscFunctionReturn(0);
  PetscCall(PetscMemzero(H, sizeof(*H)));
  PetscCall(PetscCalloc1(maxl, &H->levels));
  PetscCall(PetscCalloc3(maxl, &D->L, maxl, &D->cluster, maxl, &D->coo));
  PetscCall(ReduceDevice(A, &D->A, opts, &H->red, &D->L[0], &D->map, &D->strict));
  D->nlevels       = 1;
  H->nlevels       = 1;
  H->levels[0].n   = D->L[0].m;
  H->levels[0].nnz = D->L[0].nnz;
  nnztotal         = D->L[0].nnz;
  if (opts->monitor) PetscCall(PetscPrintf(PETSC_COMM_SELF, "CMG hierarchy (setup on the device) of a %" PetscInt_FMT " x %" PetscInt_FMT " matrix (level 0: %" PetscInt_FMT " vertices%s%s)\n", H->red.n, H->red.n, H->red.n0, H->red.copies == 2 ? ", double cover" : "", H->red.ground ? ", ground vertex" : ""));
  while (1) { /* the stopping rules of GPUPCCMGHierarchyBuild() */
    const PetscInt k  = H->nlevels - 1;
    GPUPCCMGLevel *L  = &H->levels[k];
    PetscBool      nz = PETSC_FALSE;

    if (GPUPCCMGStopBeforeClustering(opts, L->n, H->nlevels, &H->stop)) break;
    PetscCall(ClusterDevice(&D->L[k], L, &D->cluster[k]));
    if (L->nc >= L->n - 1) {
      H->stop = GPUPC_CMG_STOP_STAGNATION_SIZE;
      PetscCall(PetscInfo(A, "CMG stagnation at level %" PetscInt_FMT ": %" PetscInt_FMT " vertices gave %" PetscInt_FMT " clusters\n", k, L->n, L->nc));
    } else {
      PetscCall(GalerkinDevice(&D->L[k], D->cluster[k], L->nc, MAT_INITIAL_MATRIX, &D->coo[k], &D->L[k + 1]));
      if (nnztotal + D->L[k + 1].nnz > 5 * H->levels[0].nnz) {
        H->stop = GPUPC_CMG_STOP_STAGNATION_NNZ;
        nz      = PETSC_TRUE;
        PetscCall(PetscInfo(A, "CMG stagnation at level %" PetscInt_FMT ": the next level would bring the total nonzeros to %" PetscInt_FMT " > 5 x %" PetscInt_FMT "\n", k, nnztotal + D->L[k + 1].nnz, H->levels[0].nnz));
        PetscCall(GPUPCDevCSRDestroy(&D->L[k + 1]));
        PetscCall(GPUPCDevCOODestroy(&D->coo[k]));
      }
    }
    if (H->stop == GPUPC_CMG_STOP_STAGNATION_SIZE || nz) {
      PetscCall(GPUPCFree(D->cluster[k]));
      D->cluster[k] = NULL;
      L->nc         = 0;
      break;
    }
    PetscCall(PetscMalloc1(L->n, &L->cluster));
    PetscCall(GPUPCCopyToHost(L->cluster, D->cluster[k], L->n));
    PetscCall(GPUPCCMGLevelMonitor(opts, L, k));
    H->levels[k + 1].n   = D->L[k + 1].m;
    H->levels[k + 1].nnz = D->L[k + 1].nnz;
    nnztotal += D->L[k + 1].nnz;
    H->nlevels++;
    D->nlevels++;
  }
  /* down now: every level's row pointers (the upload's long-row lists), the last level whole (its components and
     factor); the other levels' columns and values when a host reader asks (GPUPCCMGHierarchySyncDevice) */
  for (PetscInt k = 0; k < H->nlevels; k++) PetscCall(LevelDown(&D->L[k], PETSC_TRUE, (PetscBool)(k + 1 == H->nlevels), &H->levels[k]));
  D->stale = (PetscBool)(H->nlevels > 1);
  /* what stays on the device for a reuse: the matrix's structure (its values buffer is allocated again by the reuse,
     which uploads new ones), the map, the levels, the clusters and the kept sorts */
  PetscCall(GPUPCFree(D->A.a));
  D->A.a   = NULL;
  D->bytes = (size_t)(D->A.m + 1 + D->A.nnz + D->A.m + (D->strict ? H->red.nstrict : 0)) * sizeof(PetscInt);
  for (PetscInt k = 0; k < D->nlevels; k++) {
    D->bytes += (size_t)(D->L[k].m + 1 + D->L[k].nnz) * sizeof(PetscInt) + (size_t)D->L[k].nnz * sizeof(PetscScalar);
    if (D->cluster[k]) D->bytes += (size_t)D->L[k].m * sizeof(PetscInt) + (size_t)(D->coo[k].nent + D->L[k + 1].nnz + 1) * sizeof(PetscInt);
  }
  PetscCall(GPUPCCMGLevelMonitor(opts, &H->levels[H->nlevels - 1], H->nlevels - 1));
  PetscCall(GPUPCCMGHierarchyFinish(opts, H));
  if (opts->monitor) PetscCall(PetscPrintf(PETSC_COMM_SELF, "CMG hierarchy: %" PetscInt_FMT " levels, stopped: %s; last level: %s\n", H->nlevels, GPUPCCMGStopReasons[H->stop], H->coarse_direct ? "dense grounded inverse" : "one Jacobi step (stagnation warning)"));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCCMGHierarchyAttachDevice - points the host levels at their device CSR (drowptr, dcol, dval), so that the cycle's
   upload forms them on the device; NULL for a level the device setup does not hold

   Not Collective

   Level: developer
@*/
PetscErrorCode GPUPCCMGHierarchyAttachDevice(GPUPCCMGHierarchy *H, const GPUPCCMGDevSetup *D)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < H->nlevels; k++) {
    const PetscBool on   = (PetscBool)(D && k < D->nlevels && D->L[k].m == H->levels[k].n && D->L[k].nnz == H->levels[k].nnz);
    H->levels[k].drowptr = on ? D->L[k].i : NULL;
    H->levels[k].dcol    = on ? D->L[k].j : NULL;
    H->levels[k].dval    = on ? D->L[k].a : NULL;
  }
  PetscFunctionReturn(0);
}

/* the Dirichlet couplings of the new values (E, E^T) into red when their pattern is red's; *same false otherwise */
static PetscErrorCode CouplingsRefill(const GPUPCDevCSR *A, const GPUPCCMGReduceRule *rule, GPUPCCMGReduction *red, PetscBool *same)
{
  const GPUPCCMGSetupKernels *k;
  GPUPCCMGReduction           c;
  PetscInt                   *isdir, ndir;
  PetscBool                   eq = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCall(GPUPCGetCMGSetupKernels(&k));
  PetscCall(PetscMemzero(&c, sizeof(c)));
  PetscCall(GPUPCMallocArray(A->m, &isdir));
  PetscCall(k->dirichlet_rows(A, rule, isdir, &ndir)); /* the kept rows' (level0_refill checked them) */
  PetscCall(CouplingsDevice(A, isdir, &c));
  PetscCall(GPUPCFree(isdir));
  if (c.ncoupling != red->ncoupling) eq = PETSC_FALSE;
  if (eq && c.ncoupling > 0) PetscCall(PetscArraycmp(c.erow, red->erow, A->m + 1, &eq));
  if (eq && c.ncoupling > 0) PetscCall(PetscArraycmp(c.ecol, red->ecol, c.ncoupling, &eq));
  if (eq && c.ncoupling > 0) PetscCall(PetscArraycmp(c.trow, red->trow, A->m + 1, &eq));
  if (eq && c.ncoupling > 0) PetscCall(PetscArraycmp(c.tcol, red->tcol, c.ncoupling, &eq));
  if (eq && c.ncoupling > 0) {
    PetscCall(PetscArraycpy(red->eval, c.eval, c.ncoupling));
    PetscCall(PetscArraycpy(red->tval, c.tval, c.ncoupling));
  }
  PetscCall(GPUPCCMGReductionFree(&c));
  *same = eq;
  PetscFunctionReturn(0);
}

/*@C
   GPUPCCMGHierarchyRecomputeDevice - new values of a matrix with the same nonzero pattern, on the device: the values
   of the kept levels recomputed in place on the kept structure, clusters and sorts (GPUPCCMGHierarchyRecompute() on
   the device)

   Not Collective

   Input Parameters:
+  A    - the matrix with new values
.  opts - the options
.  H    - the hierarchy built by GPUPCCMGHierarchyBuildDevice() for a matrix of the same pattern
-  D    - what that build kept

   Output Parameter:
.  same - PETSC_FALSE if the new values change the reduced level-0 structure (a row that turns Dirichlet or stops
          being one, an entry that becomes zero or changes sign, a row that becomes strictly dominant or stops being
          so, the Dirichlet couplings); then the values in H and D are partly the new ones and both must be rebuilt

   Notes:
   The new values go up once (into A's kept structure) and one pass per row (level0_refill of gpupc/cmgsetupkernels.h)
   checks them as the reduction does, confirms the kept level-0 structure and writes level 0's values in place; the
   ground row is filled from the kept list of strictly dominant rows; each coarser level's values are the segmented
   sums of the kept sort (GPUPCDevCOOAssemble() with MAT_REUSE_MATRIX). No structure is built, sorted or compared
   beyond that; only the last level's values come down (its components and factor), and with Dirichlet rows their
   inverse diagonal and couplings. The result is the fresh device setup's hierarchy with the kept clusters, bit for bit.

   Level: developer
@*/
PetscErrorCode GPUPCCMGHierarchyRecomputeDevice(Mat A, const GPUPCCMGOptions *opts, GPUPCCMGHierarchy *H, GPUPCCMGDevSetup *D, PetscBool *same)
{
  const GPUPCCMGSetupKernels *k;
  GPUPCCMGReduction          *red = &H->red;
  GPUPCDevCSR                *L0  = &D->L[0];
  GPUPCCMGReduceRule          rule;
  PetscReal                  *excess, *dinv;
  PetscInt                    nbad, npos, nstrict, nchanged;
  GPUPCCSR                    csr;

  PetscFunctionBegin;
  *same = PETSC_FALSE;
  PetscCall(GPUPCGetCMGSetupKernels(&k));
  PetscCall(GPUPCMatGetCSR(A, &csr));
  if (csr.m != D->A.m || csr.nnz != D->A.nnz) {
    PetscCall(GPUPCMatRestoreCSR(&csr));
    PetscFunctionReturn(0);
  }
  PetscCall(GPUPCMallocArray(csr.nnz, &D->A.a));                                                                                           /* freed again below: the values are read by the reduction only */
  PetscCall(GPUPCStageCopyToDevice(PetscMax(opts->threads, 1), (size_t)csr.nnz, csr.a, sizeof(PetscScalar), D->A.a, sizeof(PetscScalar))); /* the pattern is the caller's promise (SAME_NONZERO_PATTERN) */
  PetscCall(GPUPCMatRestoreCSR(&csr));
  PetscCall(PetscLogEventBegin(PC_CMG_Reduce, A, 0, 0, 0));
  ReduceRule(opts, &rule);
  PetscCall(GPUPCMallocArray(D->A.m, &excess));
  PetscCall(GPUPCMallocArray(D->A.m, &dinv));
  PetscCall(k->level0_refill(&D->A, &rule, D->map, red->nkept, red->copies, L0->i, L0->j, excess, dinv, L0->a, &nbad, &npos, &nstrict, &nchanged));
  if (nbad > 0) {
    PetscCall(GPUPCFree(excess));
    PetscCall(GPUPCFree(dinv));
    PetscCall(GPUPCFree(D->A.a));
    D->A.a = NULL;
    PetscCall(PetscLogEventEnd(PC_CMG_Reduce, A, 0, 0, 0));
    PetscCall(ReduceError(A, opts, nbad));
  }
  *same = (PetscBool)(nchanged == 0 && (npos > 0 ? 2 : 1) == red->copies && nstrict == red->nstrict);
  if (*same && red->ground) PetscCall(k->ground_fill(nstrict, D->strict, excess, D->map, red->nkept, red->copies, L0->i, L0->j, L0->a, NULL));
  if (*same && red->ndirichlet > 0) {
    PetscCall(GPUPCCopyToHost(red->dinv, dinv, red->n));
    PetscCall(CouplingsRefill(&D->A, &rule, red, same));
  }
  PetscCall(GPUPCFree(excess));
  PetscCall(GPUPCFree(dinv));
  PetscCall(GPUPCFree(D->A.a));
  D->A.a = NULL;
  PetscCall(PetscLogEventEnd(PC_CMG_Reduce, A, 0, 0, 0));
  if (!*same) {
    PetscCall(PetscInfo(A, "CMG value-only reuse: %" PetscInt_FMT " rows change the level-0 structure (%" PetscInt_FMT " positive off-diagonals, %" PetscInt_FMT " strictly dominant rows against %" PetscInt_FMT ")\n", nchanged, npos, nstrict, red->nstrict));
    PetscFunctionReturn(0);
  }
  red->npositive = npos;
  for (PetscInt l = 0; l + 1 < D->nlevels; l++) PetscCall(GalerkinDevice(&D->L[l], D->cluster[l], H->levels[l].nc, MAT_REUSE_MATRIX, &D->coo[l], &D->L[l + 1]));
  /* only the last level's values come down now (its components and, on the host backend, its factor); the cycle is
     refreshed from the device CSR, and a host reader of the other levels syncs first (GPUPCCMGHierarchySyncDevice) */
  PetscCall(LevelDown(&D->L[D->nlevels - 1], PETSC_FALSE, PETSC_TRUE, &H->levels[D->nlevels - 1]));
  D->stale = (PetscBool)(D->nlevels > 1);
  PetscCall(GPUPCCMGHierarchyFinish(opts, H));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCCMGHierarchySyncDevice - copies the columns and values of the levels that the device setup or a value-only
   reuse left on the device (all but the last) into the host hierarchy; nothing when they are current

   Not Collective

   Input Parameters:
+  H - the hierarchy that GPUPCCMGHierarchyBuildDevice() built or GPUPCCMGHierarchyRecomputeDevice() updated
-  D - what the device setup keeps

   Notes:
   The setup and the reuse skip these copies (~0.7 GB at 7.2M rows) because the cycle is formed from the device CSR;
   the host hierarchy's readers (the cluster ordering, the upload of single precision or non-csr levels, PCCMGGetHierarchy_Private)
   call this first.

   Level: developer

.seealso: GPUPCCMGHierarchyRecomputeDevice()
@*/
PetscErrorCode GPUPCCMGHierarchySyncDevice(GPUPCCMGHierarchy *H, GPUPCCMGDevSetup *D)
{
  PetscFunctionBegin;
  if (!D->stale) PetscFunctionReturn(0);
  PetscCheck(D->nlevels == H->nlevels, PETSC_COMM_SELF, PETSC_ERR_PLIB, "CMG: the device setup holds %" PetscInt_FMT " levels, the hierarchy %" PetscInt_FMT, D->nlevels, H->nlevels);
  for (PetscInt l = 0; l + 1 < D->nlevels; l++) PetscCall(LevelDown(&D->L[l], PETSC_FALSE, PETSC_TRUE, &H->levels[l]));
  D->stale = PETSC_FALSE;
  PetscFunctionReturn(0);
}

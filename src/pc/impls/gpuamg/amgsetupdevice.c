/*
   The device setup of PC gpuamg (one rank): the hierarchy built by the device-setup kernels (gpupc/amgsetupkernels.h)
   and the shared device sparse kernels (gpupc/sparsekernels.h), level by level, with the data on the device:

     diagonal (sparse diagonal) and its zero check, classical strength (count, row pointers, fill), its transpose
     (sparse transpose), PMIS (start, then rounds of select / set C / depend / set F until no point is undecided) or
     HMIS (Ruge-Stueben's first pass inside subdomains of consecutive rows, then the PMIS rounds on the points left),
     the coarse numbering (sparse compact), interpolation (bound, row pointers, rows with truncation, row pointers,
     gather), the Galerkin product R (A P) with R = P^T (GPUPCDevCSRRAP, deterministic: the host table's sums).

   It gives the host setup's hierarchy on one rank (same strength graph, same C/F splitting, same P rows; Galerkin
   values up to rounding, since the host setup sums its products in another order): the per-row code is the host
   setup's (amgdevrows.h). HMIS is the exception: the device's is HMIS as defined for several processors (De Sterck,
   Yang, Heys), each subdomain of opts->hmis_subdomain rows standing for a processor, where the host setup's runs its
   first pass on the whole rank (the same splitting when the subdomain holds every row). On the host backend it runs
   through the host table, so CI runs this file.

   Smoothed aggregation (-pc_gpuamg_type agg, any block size) runs its levels through amgsetupdeviceagg.c (MIS(2)
   aggregates, QR per aggregate, smoothing on the device) and the same Galerkin product; the near-null space is
   uploaded once and each level's coarse one (Bc) stays on the device.

   Aggressive coarsening (-pc_gpuamg_aggressive_levels, pmis in both stages) and multipass interpolation run through
   amgsetupdeviceaggr.c (S2 among the C points and its PMIS, the passes and their rows), with the host setup's results.

   On several ranks the device setup across ranks (amgsetupdevicempi.c, GPUPCAMGHierarchyBuildDeviceMPI) builds the
   levels as each rank's device blocks; it covers classical pmis or hmis with direct, standard or ext+i interpolation
   on scalar problems (bs 1), no aggressive levels.

   What it does not cover goes to the host setup, and the hierarchy says why (hostwhy, shown by -ksp_view): on several
   ranks what the setup across ranks does not cover (above), on one rank aggressive aggregation (the squared graph),
   and for classical AMG coarsening rs and cljp, aggressive coarsening whose second stage is not pmis, truncation
   rescaled by signs, simple interpolation, block size > 1.

   The levels stay on the device: GPUPCAMGDeviceCreate lays their device formats out from the device CSR kept here
   (GPUPCAMGDevHierarchyGetLevel), so no level is laid out on the host or uploaded. Only the last level (inverted
   densely on the host) becomes a host Mat, unless opts->host_levels asks for host copies of every coarse level, P and R
   (-pc_gpuamg_keep_host_levels, or a smoother that reads the host matrix): then they are made in one place (LevelToMat:
   one device-to-host copy per array into the SEQAIJ's own arrays). The device CSR of every level stays here for
   SAME_NONZERO_PATTERN (GPUPCAMGHierarchyRecomputeDevice re-runs only the Galerkin products).
*/
#include <gpupc/amgsetup.h>
#include <gpupc/amgdevacross.h> /* the hierarchy across ranks (amgsetupdevicempi.c) */
#include <gpupc/matgpu.h>
#include <gpupc/amgaggrkernels.h>
#include <petsctime.h>

struct _n_GPUPCAMGDevHierarchy {
  PetscInt         cap; /* entries of the arrays (the most levels) */
  PetscInt         nlevels;
  PetscObjectId    a0id;    /* the SEQAIJ (or its type) that A[0] was copied from ... */
  PetscObjectState a0state; /* ... and its nonzero state then: a reuse with both unchanged copies the values only */
  GPUPCDevCSR     *A;       /* A[0]: the operator's copy; A[l+1] = R A[l] P */
  GPUPCDevCSR     *P;       /* P[l], l < nlevels - 1 */
  GPUPCDevRAP     *rap;     /* what each Galerkin product keeps for a numeric re-run */
  PetscInt        *bs;      /* block size of each level (aggregation: the operator's, then the near-null vectors) */
  GPUPCAMGDevMPI   mpi;     /* several ranks: the levels as each rank's device blocks (amgsetupdevicempi.c); the
                               arrays above are then empty (nlevels 0) */
};

/* H's device part holding the levels across ranks M (owned from here on) */
PetscErrorCode GPUPCAMGDevHierarchySetMPI(GPUPCAMGHierarchy *H, GPUPCAMGDevMPI M)
{
  struct _n_GPUPCAMGDevHierarchy *D;

  PetscFunctionBegin;
  PetscCheck(!H->dev, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "PC gpuamg: the hierarchy already has a device part");
  PetscCall(PetscNew(&D));
  D->mpi = M;
  H->dev = D;
  PetscFunctionReturn(0);
}

/* the levels across ranks of H's device part (NULL: none) */
PetscErrorCode GPUPCAMGDevHierarchyGetMPI(const GPUPCAMGHierarchy *H, GPUPCAMGDevMPI *M)
{
  PetscFunctionBegin;
  *M = H->dev ? H->dev->mpi : NULL;
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGSetupWhere - where PC gpuamg's setup of A runs with these options

   Collective on A

   Input Parameters:
+  A    - the operator
-  opts - the setup options (location, location_set: not set means device on the cuda backend, host otherwise)

   Output Parameters:
+  where - PC_GPUAMG_SETUP_HOST or PC_GPUAMG_SETUP_DEVICE
-  why   - when the device setup was asked for and where is host: the reason (a static string), else NULL

   Level: developer

.seealso: GPUPCAMGHierarchyBuildDevice()
@*/
PetscErrorCode GPUPCAMGSetupWhere(Mat A, const GPUPCAMGSetupOptions *opts, PCGPUAMGSetupLocation *where, const char **why)
{
  PetscMPIInt           size;
  PetscInt              bs;
  PCGPUAMGSetupLocation want = opts->location;

  PetscFunctionBegin;
  *why = NULL;
  if (!opts->location_set) {
    PetscGPUPCBackend b;
    PetscCall(PetscGPUPCGetBackend(&b));
    want = b == PETSC_GPUPC_BACKEND_CUDA ? PC_GPUAMG_SETUP_DEVICE : PC_GPUAMG_SETUP_HOST;
  }
  *where = want;
  if (want == PC_GPUAMG_SETUP_HOST) PetscFunctionReturn(0);
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  PetscCall(MatGetBlockSize(A, &bs));
  if (size > 1) { /* the device setup across ranks (amgsetupdevicempi.c) */
    if (opts->type != PC_GPUAMG_CLASSICAL) *why = "several ranks with smoothed aggregation (the device setup across ranks is classical)";
    else if (opts->coarsen != PC_GPUAMG_COARSEN_PMIS && opts->coarsen != PC_GPUAMG_COARSEN_HMIS) *why = "several ranks with coarsening rs or cljp (the device setup across ranks coarsens pmis or hmis)";
    else if (opts->interp != PC_GPUAMG_INTERP_DIRECT && opts->interp != PC_GPUAMG_INTERP_STANDARD && opts->interp != PC_GPUAMG_INTERP_EXTENDED_I) *why = "several ranks with multipass or simple interpolation (the device setup across ranks interpolates direct, standard or ext+i)";
    else if (opts->aggressive_levels > 0) *why = "several ranks with aggressive levels (rank-local on the host)";
    else if (bs > 1) *why = "several ranks with block size > 1 (systems AMG, rank-local on the host)";
    else if (opts->trunc_rescale != PC_GPUAMG_TRUNC_RESCALE_SUM) *why = "several ranks with truncation rescale signs (-pc_gpuamg_trunc_rescale)";
    else if (opts->across == 0) *why = "several ranks with -pc_gpuamg_coarsen_across false (the device setup coarsens across ranks)";
    else if (opts->mpi_ptap) *why = "several ranks with -pc_gpuamg_mpi_galerkin_ptap (MatPtAP is on the host)";
  } else if (opts->type == PC_GPUAMG_AGG) { /* any block size; the classical options below do not apply */
    if (opts->aggressive_levels > 0) *why = "aggressive aggregation (-pc_gpuamg_aggressive_levels: the squared graph)";
  } else if (opts->aggressive_levels > 0 && opts->coarsen != PC_GPUAMG_COARSEN_PMIS) *why = "aggressive coarsening other than pmis (the device's second stage is pmis)";
  else if (opts->coarsen == PC_GPUAMG_COARSEN_RS) *why = "coarsening rs (sequential)";
  else if (opts->coarsen == PC_GPUAMG_COARSEN_CLJP) *why = "coarsening cljp";
  else if (opts->interp == PC_GPUAMG_INTERP_SIMPLE) *why = "interpolation simple";
  else if (bs > 1) *why = "block size > 1 (systems AMG)";
  else if (opts->trunc_rescale != PC_GPUAMG_TRUNC_RESCALE_SUM) *why = "truncation rescale signs (-pc_gpuamg_trunc_rescale)";
  if (*why) *where = PC_GPUAMG_SETUP_HOST;
  PetscFunctionReturn(0);
}

/* the level Mat (host SEQAIJ) of a device CSR: the one place that makes the PC's matrices from the device setup. The
   arrays come down by one copy each straight into the arrays the SEQAIJ owns (no MatSetValues, no sort);
   GPUPCAMGDeviceCreate then lays the device format out from the device CSR, which it finds with
   GPUPCAMGDevHierarchyGetLevel(), so nothing goes up again */
static PetscErrorCode LevelToMat(const GPUPCDevCSR *A, Mat *B)
{
  PetscInt    *i, *j;
  PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(A->m + 1, &i));
  PetscCall(PetscMalloc1(A->nnz, &j));
  PetscCall(PetscMalloc1(A->nnz, &a));
  PetscCall(GPUPCCopyToHost(i, A->i, A->m + 1));
  PetscCall(GPUPCCopyToHost(j, A->j, A->nnz));
  if (A->a) PetscCall(GPUPCCopyToHost(a, A->a, A->nnz));
  else PetscCall(PetscArrayzero(a, A->nnz));
  PetscCall(GPUPCAMGMatOnArrays(A->m, A->n, i, j, a, B));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDevHierarchyGetLevel - the device CSR the device setup holds for level l: the level matrix, its prolongator
   and restriction (the matrices H->A[l], H->P[l], H->R[l] were copied from)

   Not Collective

   Input Parameters:
+  H - the hierarchy
-  l - the level

   Output Parameters:
+  A - the level matrix (NULL when H was not built by the device setup)
.  P - the prolongator (NULL on the last level or without the device setup)
-  R - P^T (likewise)

   Notes:
   A[0] is the device copy of the operator H->A[0] had when the setup (or its recompute) ran.

   Level: developer

.seealso: GPUPCAMGHierarchyBuildDevice()
@*/
PetscErrorCode GPUPCAMGDevHierarchyGetLevel(const GPUPCAMGHierarchy *H, PetscInt l, const GPUPCDevCSR **A, const GPUPCDevCSR **P, const GPUPCDevCSR **R)
{
  const struct _n_GPUPCAMGDevHierarchy *D = H->dev;

  PetscFunctionBegin;
  *A = *P = *R = NULL;
  if (!H->ondevice || !D || l < 0 || l >= D->nlevels) PetscFunctionReturn(0);
  *A = &D->A[l];
  if (l + 1 < D->nlevels) {
    *P = &D->P[l];
    *R = &D->rap[l].R;
  }
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDevHierarchyGetBlockSize - the block size of level l of a device-built hierarchy (aggregation: the operator's
   on level 0, the near-null vectors per aggregate on the coarse levels; 1 otherwise, or for a host-built hierarchy)

   Not Collective

   Level: developer

.seealso: GPUPCAMGDevHierarchyGetLevel()
@*/
PetscErrorCode GPUPCAMGDevHierarchyGetBlockSize(const GPUPCAMGHierarchy *H, PetscInt l, PetscInt *bs)
{
  const struct _n_GPUPCAMGDevHierarchy *D = H->dev;

  PetscFunctionBegin;
  *bs = 1;
  if (H->ondevice && D && l >= 0 && l < D->nlevels) *bs = D->bs[l];
  PetscFunctionReturn(0);
}

/* new values of a device CSR into the Mat LevelToMat made of it (same pattern) */
static PetscErrorCode LevelValuesToMat(const GPUPCDevCSR *A, Mat B)
{
  PetscScalar *v;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJGetArrayWrite(B, &v));
  PetscCall(GPUPCCopyToHost(v, A->a, A->nnz));
  PetscCall(MatSeqAIJRestoreArrayWrite(B, &v));
  PetscFunctionReturn(0);
}

/* the device copy of the operator (SEQAIJ, a type derived from it, or MPIAIJ on one rank) */
/* the rank-local SEQAIJ of the operator (itself, or an MPIAIJ's diagonal block on one rank) */
static PetscErrorCode OperatorSeq(Mat A, Mat *seq)
{
  PetscErrorCode (*f)(void) = NULL;
  Mat             off;
  const PetscInt *garray;

  PetscFunctionBegin;
  *seq = A;
  PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatMPIAIJSetPreallocation_C", &f));
  if (f) PetscCall(GPUPCMatMPIAIJGetSeqAIJ(A, seq, &off, &garray));
  PetscFunctionReturn(0);
}

/* a device copy of the operator; id, state: what identifies its pattern (OperatorValuesToDevice) */
static PetscErrorCode OperatorToDevice(Mat A, GPUPCDevCSR *Ad, PetscObjectId *id, PetscObjectState *state)
{
  Mat seq;

  PetscFunctionBegin;
  PetscCall(OperatorSeq(A, &seq));
  PetscCall(GPUPCDevCSRFromMat(seq, Ad));
  PetscCall(PetscObjectGetId((PetscObject)seq, id));
  PetscCall(MatGetNonzeroState(seq, state));
  PetscFunctionReturn(0);
}

/* new values of the operator into D->A[0]: when it is the matrix the copy was made from and its nonzero state has not
   changed since (PETSc raises it on any change of the pattern), only the values go up, into the arrays that are there;
   otherwise a new copy (row pointers and columns too, ~40% of the bytes, and a new allocation) whose sizes must match */
static PetscErrorCode OperatorValuesToDevice(Mat A, struct _n_GPUPCAMGDevHierarchy *D)
{
  Mat              seq;
  PetscObjectId    id;
  PetscObjectState state;
  GPUPCDevCSR      Anew;

  PetscFunctionBegin;
  PetscCall(OperatorSeq(A, &seq));
  PetscCall(PetscObjectGetId((PetscObject)seq, &id));
  PetscCall(MatGetNonzeroState(seq, &state));
  if (id == D->a0id && state == D->a0state && D->A[0].a) {
    GPUPCCSR csr;
    PetscCall(GPUPCMatGetCSR(seq, &csr));
    PetscCheck(csr.m == D->A[0].m && csr.nnz == D->A[0].nnz, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the operator has %" PetscInt_FMT " rows and %" PetscInt_FMT " entries, its device copy %" PetscInt_FMT " and %" PetscInt_FMT " under the same nonzero state", csr.m, csr.nnz, D->A[0].m, D->A[0].nnz);
    PetscCall(GPUPCCopyToDevice(D->A[0].a, csr.a, csr.nnz));
    PetscCall(GPUPCMatRestoreCSR(&csr));
    PetscCall(PetscInfo(A, "device setup reuse: the operator's pattern is unchanged, its %" PetscInt_FMT " values copied into the kept device copy\n", csr.nnz));
    PetscFunctionReturn(0);
  }
  PetscCall(OperatorToDevice(A, &Anew, &id, &state));
  if (Anew.m != D->A[0].m || Anew.nnz != D->A[0].nnz) {
    const PetscInt m = Anew.m, nnz = Anew.nnz;
    PetscCall(GPUPCDevCSRDestroy(&Anew));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "SAME_NONZERO_PATTERN, but the operator has %" PetscInt_FMT " rows and %" PetscInt_FMT " entries where the hierarchy was built on %" PetscInt_FMT " and %" PetscInt_FMT, m, nnz, D->A[0].m, D->A[0].nnz);
  }
  PetscCall(GPUPCDevCSRDestroy(&D->A[0]));
  D->A[0]    = Anew;
  D->a0id    = id;
  D->a0state = state;
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDevStrength - the classical strength graph of a device CSR level matrix and its transpose (device setup)

   Not Collective

   Input Parameters:
+  k, sk  - the device-setup and sparse kernel tables
.  A      - the level matrix (device CSR)
.  d      - its diagonal (device)
-  theta  - the strength threshold

   Output Parameters:
+  S  - the graph (a pattern; free with GPUPCDevCSRDestroy())
-  ST - its transpose

   Level: developer

.seealso: GPUPCAMGStrengthClassical(), GPUPCAMGHierarchyBuildDevice()
@*/
PetscErrorCode GPUPCAMGDevStrength(const GPUPCAMGSetupKernels *k, const GPUPCSparseKernels *sk, const GPUPCDevCSR *A, const PetscScalar *d, PetscReal theta, GPUPCDevCSR *S, GPUPCDevCSR *ST)
{
  PetscInt  nnz, *perm;
  PetscInt *Si;

  PetscFunctionBegin;
  PetscCall(GPUPCAMGDevAlloc(A->m + 1, &Si));
  PetscCall(k->strength_count(A, d, theta, Si));
  PetscCall(sk->rowptr(A->m, Si, &nnz, NULL));
  PetscCall(PetscMemzero(S, sizeof(*S)));
  S->m   = A->m;
  S->n   = A->m;
  S->nnz = nnz;
  S->i   = Si;
  PetscCall(GPUPCAMGDevAlloc(nnz, &S->j));
  PetscCall(k->strength_fill(A, d, theta, S));
  PetscCall(GPUPCDevCSRTranspose(S, MAT_INITIAL_MATRIX, ST, &perm, NULL));
  PetscCall(GPUPCFree(perm));
  PetscFunctionReturn(0);
}

/* the PMIS rounds on the left undecided points of cf (measures w, the other points' states fixed); mark: scratch of
   S->m; *rounds (optional): how many */
static PetscErrorCode PMISRounds(const GPUPCAMGSetupKernels *k, const GPUPCDevCSR *S, const GPUPCDevCSR *ST, const PetscReal *w, char *mark, PetscInt *cf, PetscInt left, PetscInt *rounds)
{
  PetscInt before, ignore, r = 0;

  PetscFunctionBegin;
  while (left > 0) {
    before = left;
    PetscCall(k->pmis_select(S, ST, w, cf, mark));
    PetscCall(k->pmis_set(S->m, mark, GPUPC_AMG_C, cf, &ignore));
    PetscCall(k->pmis_depend(S, cf, mark));
    PetscCall(k->pmis_set(S->m, mark, GPUPC_AMG_F, cf, &left));
    r++;
    /* the undecided point of largest measure always becomes C: a round without progress is a defect */
    PetscCheck(left < before, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PC gpuamg device PMIS: a round decided no point (%" PetscInt_FMT " undecided)", left);
  }
  if (rounds) *rounds = r;
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDevPMIS - the PMIS splitting of a device strength graph (device setup)

   Not Collective

   Input Parameters:
+  k      - the device-setup kernel table
.  S, ST  - the strength graph and its transpose
-  rstart - global number of point 0 (seeds the measures as the host setup's GPUPCAMGCoarsen() does)

   Output Parameter:
.  cf - GPUPC_AMG_C or GPUPC_AMG_F per point (device)

   Level: developer

.seealso: GPUPCAMGCoarsen(), GPUPCAMGHierarchyBuildDevice()
@*/
PetscErrorCode GPUPCAMGDevPMIS(const GPUPCAMGSetupKernels *k, const GPUPCDevCSR *S, const GPUPCDevCSR *ST, PetscInt rstart, PetscInt *cf)
{
  PetscReal *w;
  char      *mark;
  PetscInt   left;

  PetscFunctionBegin;
  PetscCall(GPUPCAMGDevAlloc(S->m, &w));
  PetscCall(GPUPCAMGDevAlloc(S->m, &mark));
  PetscCall(k->pmis_init(S, ST, rstart, w, cf, &left));
  PetscCall(PMISRounds(k, S, ST, w, mark, cf, left, NULL));
  PetscCall(GPUPCFree(w));
  PetscCall(GPUPCFree(mark));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDevHMIS - the HMIS splitting of a device strength graph (device setup): HMIS as De Sterck, Yang and Heys
   define it for several processors, with subdomains of B consecutive points in the role of the processors

   Not Collective

   Input Parameters:
+  k      - the device-setup kernel table
.  S, ST  - the strength graph and its transpose
.  rstart - global number of point 0 (seeds the PMIS measures as the host setup's GPUPCAMGCoarsen() does)
-  B      - points per subdomain (>= 1; the last subdomain may be shorter)

   Output Parameters:
+  cf     - GPUPC_AMG_C or GPUPC_AMG_F per point (device)
-  rounds - (optional) the PMIS rounds of the second stage

   Notes:
   First Ruge-Stueben's first pass inside each subdomain, on the strong couplings between its points (the host setup's
   pass and tie rules); it decides every point with such a coupling. The points without one (their strong couplings
   all leave the subdomain, or they have none) then go through the PMIS rounds of GPUPCAMGDevPMIS(), their measures
   |S^T_i| + GPUPCAMGRandom(rstart + i) as in PMIS, the first pass's states fixed: a point that depends on one of its
   C points is F at once, one that influences no point is F. With B at least the number of points the splitting is the
   host setup's hmis on one rank; with B the rows of each rank, that of its hmis on ranks of B rows each.

   Level: developer

.seealso: GPUPCAMGDevPMIS(), GPUPCAMGCoarsen(), GPUPCAMGCoarsenAcross(), PCGPUAMGSetHMISSubdomain()
@*/
PetscErrorCode GPUPCAMGDevHMIS(const GPUPCAMGSetupKernels *k, const GPUPCDevCSR *S, const GPUPCDevCSR *ST, PetscInt rstart, PetscInt B, PetscInt *cf, PetscInt *rounds)
{
  PetscReal *w;
  PetscInt  *lambda, left;
  char      *mark;

  PetscFunctionBegin;
  PetscCheck(B >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "HMIS subdomains of %" PetscInt_FMT " points (-pc_gpuamg_dev_hmis_subdomain): must be at least 1", B);
  PetscCall(GPUPCAMGDevAlloc(S->m, &lambda));
  PetscCall(k->hmis_first(S, ST, B, lambda, cf));
  PetscCall(GPUPCFree(lambda));
  PetscCall(GPUPCAMGDevAlloc(S->m, &w));
  PetscCall(GPUPCAMGDevAlloc(S->m, &mark));
  PetscCall(k->hmis_init(S, ST, rstart, w, cf, &left));
  if (left > 0) { /* the points that depend on a C point of the first pass */
    PetscCall(k->pmis_depend(S, cf, mark));
    PetscCall(k->pmis_set(S->m, mark, GPUPC_AMG_F, cf, &left));
  }
  PetscCall(PMISRounds(k, S, ST, w, mark, cf, left, rounds));
  PetscCall(GPUPCFree(w));
  PetscCall(GPUPCFree(mark));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDevInterp - the interpolation of a C/F splitting on the device (device setup)

   Not Collective

   Input Parameters:
+  k, sk  - the device-setup and sparse kernel tables
.  A, d   - the level matrix and its diagonal
.  S      - the strength graph
.  cf     - the splitting
.  cmap   - the coarse number of each C point (-1 elsewhere)
.  nc     - the C points
.  interp - PC_GPUAMG_INTERP_DIRECT, PC_GPUAMG_INTERP_STANDARD or PC_GPUAMG_INTERP_EXTENDED_I
.  tmax, tfac - truncation to tmax entries per row and by the factor tfac (0: none)
-  tune   - the CUDA table's ext+i tuning (NULL: GPUPCAMGInterpTuningDefault())

   Output Parameter:
.  P - the interpolation, A->m x nc, columns sorted (free with GPUPCDevCSRDestroy())

   Level: developer

.seealso: GPUPCAMGInterpolate(), GPUPCAMGHierarchyBuildDevice()
@*/
PetscErrorCode GPUPCAMGDevInterp(const GPUPCAMGSetupKernels *k, const GPUPCSparseKernels *sk, const GPUPCDevCSR *A, const PetscScalar *d, const GPUPCDevCSR *S, const PetscInt *cf, const PetscInt *cmap, PetscInt nc, PCGPUAMGInterpType interp, PetscInt tmax, PetscReal tfac, const GPUPCAMGInterpTuning *tune, GPUPCDevCSR *P)
{
  PetscInt             n = A->m, type = interp == PC_GPUAMG_INTERP_DIRECT ? GPUPC_AMG_DEV_DIRECT : (interp == PC_GPUAMG_INTERP_STANDARD ? GPUPC_AMG_DEV_STANDARD : GPUPC_AMG_DEV_EXTI), nb, np;
  PetscInt            *Bi, *Pi, *bcols, *bidx;
  PetscReal           *bvals;
  GPUPCAMGInterpTuning deftune;

  PetscFunctionBegin;
  PetscCheck(interp == PC_GPUAMG_INTERP_DIRECT || interp == PC_GPUAMG_INTERP_STANDARD || interp == PC_GPUAMG_INTERP_EXTENDED_I, PETSC_COMM_SELF, PETSC_ERR_SUP, "the device setup interpolates direct, standard or ext+i, not %s", PCGPUAMGInterpTypes[interp]);
  /* standard rows mark their interpolatory points in the low bit of the fine columns (GPUPCAMGDevRowStandard) */
  PetscCheck(interp != PC_GPUAMG_INTERP_STANDARD || n <= PETSC_MAX_INT / 2, PETSC_COMM_SELF, PETSC_ERR_SUP, "the device setup's standard interpolation needs 2 x %" PetscInt_FMT " rows to fit a PetscInt; use ext+i or 64-bit indices", n);
  if (!tune) {
    PetscCall(GPUPCAMGInterpTuningDefault(&deftune));
    tune = &deftune;
  }
  PetscCall(GPUPCAMGDevAlloc(n + 1, &Bi));
  PetscCall(k->interp_bound(A, S, cf, type, tmax, tune, Bi));
  PetscCall(sk->rowptr(n, Bi, &nb, NULL));
  PetscCall(GPUPCAMGDevAlloc(nb, &bcols));
  PetscCall(GPUPCAMGDevAlloc(nb, &bvals));
  PetscCall(GPUPCAMGDevAlloc(nb, &bidx));
  PetscCall(GPUPCAMGDevAlloc(n + 1, &Pi));
  PetscCall(k->interp_rows(A, d, S, cf, type, tmax, tfac, tune, Bi, bcols, bvals, bidx, Pi));
  PetscCall(sk->rowptr(n, Pi, &np, NULL));
  PetscCall(GPUPCDevCSRCreate(n, nc, np, PETSC_TRUE, P));
  PetscCall(GPUPCCopyOnDevice(P->i, Pi, n + 1));
  PetscCall(k->interp_gather(n, Bi, bcols, bvals, cmap, P));
  PetscCall(GPUPCFree(Bi));
  PetscCall(GPUPCFree(Pi));
  PetscCall(GPUPCFree(bcols));
  PetscCall(GPUPCFree(bvals));
  PetscCall(GPUPCFree(bidx));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDevDiagonal - the diagonal of a device CSR level matrix, with a clear error for a zero on it (device setup)

   Not Collective

   Input Parameters:
+  k, sk - the device-setup and sparse kernel tables
.  A     - the level matrix
-  l     - the level (for the message)

   Output Parameter:
.  d - the diagonal (device, A->m entries; GPUPCFree())

   Level: developer

.seealso: GPUPCAMGHierarchyBuildDevice()
@*/
PetscErrorCode GPUPCAMGDevDiagonal(const GPUPCAMGSetupKernels *k, const GPUPCSparseKernels *sk, const GPUPCDevCSR *A, PetscInt l, PetscScalar **d)
{
  PetscInt bad;

  PetscFunctionBegin;
  PetscCall(GPUPCAMGDevAlloc(A->m, d));
  PetscCall(sk->diagonal(A, *d));
  PetscCall(k->diag_zero(A->m, *d, &bad));
  if (bad >= 0) {
    PetscCall(GPUPCFree(*d));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "PC gpuamg: row %" PetscInt_FMT " of the level %" PetscInt_FMT " matrix has a zero diagonal; AMG needs a nonzero diagonal (an SPD-like matrix); reorder or use another PC", bad, l);
  }
  PetscFunctionReturn(0);
}

/* a time stamp of the device setups: the device's queued work done first */
PetscErrorCode GPUPCAMGDevNow(PetscLogDouble *t)
{
  PetscFunctionBegin;
  PetscCall(GPUPCSynchronize());
  PetscCall(PetscTime(t));
  PetscFunctionReturn(0);
}

/* the prolongator of level l (device CSR A): P, or P->m == 0 when the level is the last (too few C points) */
static PetscErrorCode DevProlongator(const GPUPCAMGSetupKernels *k, const GPUPCSparseKernels *sk, const GPUPCDevCSR *A, PetscInt l, const GPUPCAMGSetupOptions *opts, GPUPCDevCSR *P, PetscLogDouble *times)
{
  PetscInt                   n = A->m, nc;
  PetscScalar               *d;
  PetscInt                  *cf, *cmap;
  GPUPCDevCSR                S, ST;
  PetscLogDouble             t0 = 0, t1 = 0, t2 = 0;
  const PetscBool            aggressive = (PetscBool)(l < opts->aggressive_levels); /* multipass on these levels, as the host setup */
  const GPUPCAMGAggrKernels *ak;

  PetscFunctionBegin;
  PetscCall(GPUPCGetAMGAggrKernels(&ak));
  PetscCall(PetscMemzero(P, sizeof(*P)));
  PetscCall(GPUPCAMGDevNow(&t0));
  PetscCall(GPUPCAMGDevDiagonal(k, sk, A, l, &d));
  PetscCall(PetscLogEventBegin(GPUPCAMG_Strength, 0, 0, 0, 0));
  PetscCall(GPUPCAMGDevStrength(k, sk, A, d, opts->strong_threshold, &S, &ST));
  PetscCall(PetscLogEventEnd(GPUPCAMG_Strength, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(GPUPCAMG_Coarsen, 0, 0, 0, 0));
  PetscCall(GPUPCAMGDevAlloc(n, &cf));
  PetscCall(GPUPCAMGDevAlloc(n, &cmap));
  if (opts->coarsen == PC_GPUAMG_COARSEN_HMIS) PetscCall(GPUPCAMGDevHMIS(k, &S, &ST, 0, opts->hmis_subdomain, cf, NULL));
  else PetscCall(GPUPCAMGDevPMIS(k, &S, &ST, 0, cf));
  if (aggressive) PetscCall(GPUPCAMGDevCoarsenAggressive(k, ak, sk, &S, cf));
  PetscCall(sk->compact(n, cf, GPUPC_AMG_C, NULL, cmap, &nc, NULL));
  PetscCall(PetscLogEventEnd(GPUPCAMG_Coarsen, 0, 0, 0, 0));
  PetscCall(GPUPCAMGDevNow(&t1));
  if (nc > 0 && nc < n && (PetscReal)nc <= opts->max_ratio * (PetscReal)n) {
    PetscCall(PetscLogEventBegin(GPUPCAMG_Interp, 0, 0, 0, 0));
    if (aggressive || opts->interp == PC_GPUAMG_INTERP_MULTIPASS) PetscCall(GPUPCAMGDevInterpMultipass(k, ak, sk, A, d, &S, cf, cmap, nc, opts->trunc_max, opts->trunc_factor, NULL, P));
    else PetscCall(GPUPCAMGDevInterp(k, sk, A, d, &S, cf, cmap, nc, opts->interp, opts->trunc_max, opts->trunc_factor, &opts->interp_tuning, P));
    PetscCall(PetscLogEventEnd(GPUPCAMG_Interp, 0, 0, 0, 0));
  }
  PetscCall(GPUPCAMGDevNow(&t2));
  times[0] += t1 - t0;
  times[1] += t2 - t1;
  PetscCall(GPUPCFree(d));
  PetscCall(GPUPCFree(cf));
  PetscCall(GPUPCFree(cmap));
  PetscCall(GPUPCDevCSRDestroy(&S));
  PetscCall(GPUPCDevCSRDestroy(&ST));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGHierarchyBuildDevice - builds PC gpuamg's classical hierarchy with the device setup (one rank)

   Collective on A (one rank)

   Input Parameters:
+  A    - the operator (SEQAIJ, a type derived from it, or MPIAIJ on one rank), nonzero diagonal
-  opts - classical, pmis (aggressive levels too) or hmis, direct, standard, ext+i or multipass (GPUPCAMGSetupWhere()
          says whether they are)

   Output Parameter:
.  H - the hierarchy (H->ondevice, H->devpeak set; the device CSR kept for GPUPCAMGHierarchyRecomputeDevice())

   Notes:
   The stopping rules are the host setup's (GPUPCAMGHierarchyBuild()). The random part of the PMIS measures is the
   host setup's hash of the row (rstart 0 on one rank), so both setups split alike with pmis; hmis runs its first pass
   on subdomains of opts->hmis_subdomain rows (GPUPCAMGDevHMIS()), where the host setup's runs it on the whole rank.

   Level: developer

.seealso: GPUPCAMGHierarchyBuild(), GPUPCAMGSetupWhere(), GPUPCAMGHierarchyRecomputeDevice()
@*/
PetscErrorCode GPUPCAMGHierarchyBuildDevice(Mat A, const GPUPCAMGSetupOptions *opts, GPUPCAMGHierarchy *H)
{
  const GPUPCAMGSetupKernels     *k;
  const GPUPCSparseKernels       *sk;
  const GPUPCAMGAggKernels       *ak = NULL;
  struct _n_GPUPCAMGDevHierarchy *D;
  PetscInt                        bs = 1, nv = 0;
  PetscReal                      *B  = NULL; /* aggregation: the level's near-null space (device, rows x nv) */
  PetscLogDouble                  t0 = 0, t1 = 0, t2 = 0;
  size_t                          base, peak;
  PetscMPIInt                     size;
  PCGPUAMGSetupLocation           where;
  const char                     *why;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  PetscCheck(size == 1, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "the device setup of PC gpuamg is for one rank (this matrix has %d); use -pc_gpuamg_setup host", (int)size);
  {
    GPUPCAMGSetupOptions o = *opts;
    o.location             = PC_GPUAMG_SETUP_DEVICE;
    o.location_set         = PETSC_TRUE;
    PetscCall(GPUPCAMGSetupWhere(A, &o, &where, &why));
    PetscCheck(!why, PETSC_COMM_SELF, PETSC_ERR_SUP, "the device setup of PC gpuamg does not cover %s; use -pc_gpuamg_setup host", why);
  }
  PetscCall(GPUPCGetAMGSetupKernels(&k));
  PetscCall(GPUPCGetSparseKernels(&sk));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&base));
  PetscCall(PetscGPUPCDeviceMemoryResetPeak());
  PetscCall(PetscLogEventBegin(GPUPCAMG_Setup, A, 0, 0, 0));
  PetscCall(GPUPCAMGDevNow(&t0));
  PetscCall(PetscCalloc3(opts->max_levels, &H->A, opts->max_levels, &H->P, opts->max_levels, &H->R));
  PetscCall(PetscNew(&D));
  H->dev = D;
  PetscCall(PetscCalloc3(opts->max_levels, &D->A, opts->max_levels, &D->P, opts->max_levels, &D->rap));
  PetscCall(PetscMalloc1(opts->max_levels, &D->bs));
  for (PetscInt l = 0; l < opts->max_levels; l++) D->bs[l] = 1;
  D->cap = opts->max_levels;
  PetscCall(PetscObjectReference((PetscObject)A));
  H->A[0]       = A;
  H->nlevels    = 1;
  H->threads    = opts->threads;
  H->ondevice   = PETSC_TRUE;
  H->hostlevels = opts->host_levels;
  D->nlevels    = 1;
  PetscCall(OperatorToDevice(A, &D->A[0], &D->a0id, &D->a0state));
  if (opts->type == PC_GPUAMG_AGG) { /* the near-null space of the operator, uploaded once; coarse levels get Bc */
    PetscReal *Bh;
    PetscCall(GPUPCGetAMGAggKernels(&ak));
    PetscCall(MatGetBlockSize(A, &bs));
    PetscCall(GPUPCAMGNearNullSpace(A, opts, &nv, &Bh));
    D->bs[0] = bs;
    PetscCall(GPUPCAMGDevAlloc(D->A[0].m * nv, &B));
    PetscCall(GPUPCCopyToDevice(B, Bh, D->A[0].m * nv));
    PetscCall(PetscFree(Bh));
  }
  for (PetscInt l = 0; l + 1 < opts->max_levels; l++) {
    GPUPCDevCSR    P;
    PetscLogDouble t00 = H->times[0], t01 = H->times[1];

    if (D->A[l].m <= opts->max_coarse) break;
    if (opts->type == PC_GPUAMG_AGG) {
      PetscReal *Bc;
      PetscCall(GPUPCAMGDevProlongatorAgg(k, ak, sk, &D->A[l], l, opts, bs, nv, B, &P, &Bc, H->times));
      PetscCall(GPUPCFree(B));
      B            = Bc;
      bs           = nv; /* a coarse node: the nv columns of one aggregate */
      D->bs[l + 1] = nv;
    } else PetscCall(DevProlongator(k, sk, &D->A[l], l, opts, &P, H->times));
    if (P.m == 0) break;
    PetscCall(GPUPCAMGDevNow(&t1));
    PetscCall(PetscLogEventBegin(GPUPCAMG_Galerkin, A, 0, 0, 0));
    D->P[l] = P; /* owned by D from here on */
    PetscCall(GPUPCDevCSRRAP(&D->A[l], &D->P[l], MAT_INITIAL_MATRIX, PETSC_TRUE, &D->rap[l], &D->A[l + 1]));
    D->nlevels = l + 2;
    PetscCall(PetscLogEventEnd(GPUPCAMG_Galerkin, A, 0, 0, 0));
    PetscCall(GPUPCAMGDevNow(&t2));
    H->times[2] += t2 - t1;
    if (opts->host_levels) {
      PetscCall(LevelToMat(&D->A[l + 1], &H->A[l + 1]));
      PetscCall(MatSetBlockSizes(H->A[l + 1], D->bs[l + 1], D->bs[l + 1]));
      PetscCall(LevelToMat(&D->P[l], &H->P[l]));
      PetscCall(LevelToMat(&D->rap[l].R, &H->R[l]));
    }
    H->nlevels = l + 2;
    PetscCall(PetscInfo(A, "device setup, level %" PetscInt_FMT ": %" PetscInt_FMT " rows, %" PetscInt_FMT " nonzeros; P %" PetscInt_FMT " columns, %" PetscInt_FMT " nonzeros; strength+coarsening %.4g s, interpolation %.4g s, Galerkin %.4g s\n", l, D->A[l].m, D->A[l].nnz, P.n, P.nnz, H->times[0] - t00, H->times[1] - t01, t2 - t1));
  }
  PetscCall(GPUPCFree(B));
  /* the last level comes to the host in any case: it is inverted densely there (a few hundred rows) */
  if (!H->A[H->nlevels - 1]) {
    PetscCall(LevelToMat(&D->A[H->nlevels - 1], &H->A[H->nlevels - 1]));
    PetscCall(MatSetBlockSizes(H->A[H->nlevels - 1], D->bs[H->nlevels - 1], D->bs[H->nlevels - 1]));
  }
  PetscCall(GPUPCAMGDevNow(&t1));
  H->times[3] = t1 - t0;
  PetscCall(PetscGPUPCDeviceMemoryPeak(&peak));
  H->devpeak = peak > base ? peak - base : 0;
  PetscCall(PetscLogEventEnd(GPUPCAMG_Setup, A, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGHierarchyRecomputeDevice - new values of the operator on the same nonzero pattern: the Galerkin products of
   a device-built hierarchy recomputed on the device (numeric parts only), the level Mats refreshed

   Collective on A

   Input Parameters:
+  A - the operator with new values (same pattern)
-  H - a hierarchy from GPUPCAMGHierarchyBuildDevice()

   Level: developer

.seealso: GPUPCAMGHierarchyBuildDevice(), GPUPCAMGHierarchyRecompute()
@*/
PetscErrorCode GPUPCAMGHierarchyRecomputeDevice(Mat A, GPUPCAMGHierarchy *H)
{
  struct _n_GPUPCAMGDevHierarchy *D  = H->dev;
  PetscLogDouble                  t0 = 0, t1 = 0;

  PetscFunctionBegin;
  PetscCheck(H->ondevice && D, PetscObjectComm((PetscObject)A), PETSC_ERR_ORDER, "the AMG hierarchy was not built by the device setup");
  if (D->mpi) {
    PetscCall(GPUPCAMGHierarchyRecomputeDeviceMPI(A, H));
    PetscFunctionReturn(0);
  }
  PetscCall(GPUPCAMGDevNow(&t0));
  if (A != H->A[0]) {
    PetscCall(PetscObjectReference((PetscObject)A));
    PetscCall(MatDestroy(&H->A[0]));
    H->A[0] = A;
  }
  PetscCall(OperatorValuesToDevice(A, D));
  PetscCall(PetscLogEventBegin(GPUPCAMG_Galerkin, A, 0, 0, 0));
  for (PetscInt l = 0; l + 1 < D->nlevels; l++) PetscCall(GPUPCDevCSRRAP(&D->A[l], &D->P[l], MAT_REUSE_MATRIX, PETSC_TRUE, &D->rap[l], &D->A[l + 1]));
  PetscCall(PetscLogEventEnd(GPUPCAMG_Galerkin, A, 0, 0, 0));
  for (PetscInt l = 0; l + 1 < D->nlevels; l++)
    if (H->A[l + 1]) PetscCall(LevelValuesToMat(&D->A[l + 1], H->A[l + 1])); /* the host copies that exist */
  PetscCall(GPUPCAMGDevNow(&t1));
  H->times[0] = H->times[1] = 0.0;
  H->times[2] = H->times[3] = t1 - t0;
  PetscFunctionReturn(0);
}

/* frees what the device setup kept (GPUPCAMGHierarchyDestroy calls it) */
PetscErrorCode GPUPCAMGDevHierarchyFree(GPUPCAMGHierarchy *H)
{
  struct _n_GPUPCAMGDevHierarchy *D = H->dev;

  PetscFunctionBegin;
  if (!D) PetscFunctionReturn(0);
  for (PetscInt l = 0; l < D->cap; l++) { /* every entry: after an error, a level may be partly made */
    PetscCall(GPUPCDevCSRDestroy(&D->A[l]));
    PetscCall(GPUPCDevCSRDestroy(&D->P[l]));
    PetscCall(GPUPCDevRAPDestroy(&D->rap[l]));
  }
  PetscCall(PetscFree3(D->A, D->P, D->rap));
  PetscCall(PetscFree(D->bs));
  PetscCall(GPUPCAMGDevMPIFree(&D->mpi));
  PetscCall(PetscFree(H->dev));
  PetscFunctionReturn(0);
}

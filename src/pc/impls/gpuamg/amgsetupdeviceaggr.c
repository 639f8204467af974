/*
   Aggressive coarsening and multipass interpolation in PC gpuamg's device setup (one rank; amgsetupdevice.c calls them
   on the levels below -pc_gpuamg_aggressive_levels, and multipass also for -pc_gpuamg_interp multipass), on the
   kernels of gpupc/amgaggrkernels.h with the data on the device:

     S2 among the C points of the first splitting (bound, row pointers, distinct points per row, row pointers, fill),
     its transpose (sparse transpose), PMIS on S2 (the device setup's PMIS, seeded as the host setup's), the C points
     it drops become F;
     multipass: the pass of every F point in rounds, then per pass the bound of its rows, their rows (direct weights
     times the earlier rows of P, truncated), appended to a store of the rows so far; P gathered from the store.

   The results are the host setup's (GPUPCAMGCoarsenAggressive, GPUPCAMGInterpolate with multipass) bit for bit:
   the same splitting and the same P values, on the host and on the CUDA table (amgaggressiverows.h says how).
*/
#include <gpupc/amgsetup.h>
#include <gpupc/amgaggrkernels.h>

/*@C
   GPUPCAMGDevStrength2 - the distance-two strength graph among the C points of a splitting and its transpose (device
   setup, aggressive coarsening)

   Not Collective

   Input Parameters:
+  ak, sk - the aggressive-coarsening and sparse kernel tables
.  S      - the level's strength graph
.  cf     - the first splitting
.  nc     - its C points
.  cpts   - the C points, ascending (device)
-  cidx   - the number of each C point among them, -1 for F points (device)

   Output Parameters:
+  S2  - nc x nc: row q holds the C points other than cpts[q] that are strong C neighbours of it or strong neighbours of
         its strong F neighbours, ascending (a pattern; free with GPUPCDevCSRDestroy())
-  S2T - its transpose

   Level: developer

.seealso: GPUPCAMGCoarsenAggressive(), GPUPCAMGDevCoarsenAggressive()
@*/
PetscErrorCode GPUPCAMGDevStrength2(const GPUPCAMGAggrKernels *ak, const GPUPCSparseKernels *sk, const GPUPCDevCSR *S, const PetscInt *cf, PetscInt nc, const PetscInt *cpts, const PetscInt *cidx, GPUPCDevCSR *S2, GPUPCDevCSR *S2T)
{
  PetscInt *Bi, *bcand, *bidx, *S2i, nb, nnz, *perm;

  PetscFunctionBegin;
  PetscCall(GPUPCAMGDevAlloc(nc + 1, &Bi));
  PetscCall(ak->s2_bound(S, cf, nc, cpts, Bi));
  PetscCall(sk->rowptr(nc, Bi, &nb, NULL));
  PetscCall(GPUPCAMGDevAlloc(nb, &bcand));
  PetscCall(GPUPCAMGDevAlloc(nb, &bidx));
  PetscCall(GPUPCAMGDevAlloc(nc + 1, &S2i));
  PetscCall(ak->s2_count(S, cf, nc, cpts, Bi, bcand, bidx, S2i));
  PetscCall(GPUPCFree(bcand));
  PetscCall(sk->rowptr(nc, S2i, &nnz, NULL));
  PetscCall(PetscMemzero(S2, sizeof(*S2)));
  S2->m   = nc;
  S2->n   = nc;
  S2->nnz = nnz;
  S2->i   = S2i;
  PetscCall(GPUPCAMGDevAlloc(nnz, &S2->j));
  PetscCall(ak->s2_fill(S, cf, nc, cpts, Bi, bidx, cidx, S2));
  PetscCall(GPUPCFree(Bi));
  PetscCall(GPUPCFree(bidx));
  PetscCall(GPUPCDevCSRTranspose(S2, MAT_INITIAL_MATRIX, S2T, &perm, NULL));
  PetscCall(GPUPCFree(perm));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDevCoarsenAggressive - the second stage of aggressive coarsening on the device: the C points of a PMIS
   splitting coarsened again by PMIS on the distance-two graph S2 (GPUPCAMGDevStrength2()); those it drops become F
   points, except C points without a C point within distance two

   Not Collective

   Input Parameters:
+  k, ak, sk - the device-setup, aggressive-coarsening and sparse kernel tables
.  S         - the level's strength graph
-  cf        - the first stage's splitting (device); overwritten

   Notes:
   S2's PMIS is seeded as the host setup's (rstart 0 on one rank, the C points numbered in order), so the result is
   GPUPCAMGCoarsenAggressive()'s with pmis.

   Level: developer

.seealso: GPUPCAMGCoarsenAggressive(), GPUPCAMGDevPMIS()
@*/
PetscErrorCode GPUPCAMGDevCoarsenAggressive(const GPUPCAMGSetupKernels *k, const GPUPCAMGAggrKernels *ak, const GPUPCSparseKernels *sk, const GPUPCDevCSR *S, PetscInt *cf)
{
  PetscInt   *cpts, *cidx, *cf2, nc;
  GPUPCDevCSR S2, S2T;

  PetscFunctionBegin;
  PetscCall(GPUPCAMGDevAlloc(S->m, &cpts));
  PetscCall(GPUPCAMGDevAlloc(S->m, &cidx));
  PetscCall(sk->compact(S->m, cf, GPUPC_AMG_C, cpts, cidx, &nc, NULL));
  PetscCall(GPUPCAMGDevStrength2(ak, sk, S, cf, nc, cpts, cidx, &S2, &S2T));
  PetscCall(GPUPCAMGDevAlloc(nc, &cf2));
  PetscCall(GPUPCAMGDevPMIS(k, &S2, &S2T, 0, cf2));
  PetscCall(ak->s2_apply(&S2, &S2T, cf2, cpts, cf));
  PetscCall(PetscInfo(NULL, "device aggressive coarsening: %" PetscInt_FMT " C points of the first stage, S2 %" PetscInt_FMT " entries\n", nc, S2.nnz));
  PetscCall(GPUPCFree(cf2));
  PetscCall(GPUPCFree(cpts));
  PetscCall(GPUPCFree(cidx));
  PetscCall(GPUPCDevCSRDestroy(&S2));
  PetscCall(GPUPCDevCSRDestroy(&S2T));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCAMGDevInterpMultipass - multipass interpolation of a C/F splitting on the device

   Not Collective

   Input Parameters:
+  k, ak, sk  - the device-setup, aggressive-coarsening and sparse kernel tables
.  A, d       - the level matrix and its diagonal
.  S          - the strength graph
.  cf         - the splitting
.  cmap       - the coarse number of each C point (-1 elsewhere)
.  nc         - the C points
-  tmax, tfac - truncation of each row to tmax entries and by the factor tfac (0: none), rescaled by the row sum

   Output Parameters:
+  npasses - the passes (NULL: not wanted)
-  P       - the interpolation, A->m x nc, columns sorted (free with GPUPCDevCSRDestroy()); an F point that no pass reaches
             has an empty row

   Notes:
   Pass 1 interpolates the F points with a strong C neighbour directly; pass p the F points with a strong neighbour of
   an earlier pass, through those neighbours' rows of P. The rows of a pass read only rows of earlier passes, so they
   are formed in parallel, each in its own scratch, then appended to a store of the rows so far (the earlier passes'
   rows are read from there, in the order the host setup stores them). The result is GPUPCAMGInterpolate()'s with
   PC_GPUAMG_INTERP_MULTIPASS and the rescale by sum, bit for bit.

   Level: developer

.seealso: GPUPCAMGInterpolate(), GPUPCAMGDevInterp()
@*/
PetscErrorCode GPUPCAMGDevInterpMultipass(const GPUPCAMGSetupKernels *k, const GPUPCAMGAggrKernels *ak, const GPUPCSparseKernels *sk, const GPUPCDevCSR *A, const PetscScalar *d, const GPUPCDevCSR *S, const PetscInt *cf, const PetscInt *cmap, PetscInt nc, PetscInt tmax, PetscReal tfac, PetscInt *npasses, GPUPCDevCSR *P)
{
  PetscInt   n = A->m, *pass, *rs, *rl, *earlier, *Bi, *Ci, *sc, cnt = nc, np, p, count;
  PetscReal *sv;

  PetscFunctionBegin;
  PetscCheck(tmax >= 0 && tfac >= 0.0 && tfac < 1.0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "truncation: max entries %" PetscInt_FMT " must be >= 0 and the factor %g in [0, 1) (-pc_gpuamg_trunc_max, -pc_gpuamg_trunc_factor)", tmax, (double)tfac);
  PetscCall(GPUPCAMGDevAlloc(n, &pass));
  PetscCall(GPUPCAMGDevAlloc(n, &rs));
  PetscCall(GPUPCAMGDevAlloc(n, &rl));
  PetscCall(GPUPCAMGDevAlloc(n, &earlier));
  PetscCall(GPUPCAMGDevAlloc(n + 1, &Bi));
  PetscCall(GPUPCAMGDevAlloc(n + 1, &Ci));
  PetscCall(GPUPCAMGDevAlloc(nc, &sc));
  PetscCall(GPUPCAMGDevAlloc(nc, &sv));
  PetscCall(ak->mp_init(n, cf, cmap, pass, rs, rl, sc, sv));
  /* the passes first: a round depends only on the rounds before it */
  for (p = 1;; p++) {
    PetscCall(ak->mp_round(S, p, pass, &count));
    if (!count) break;
  }
  if (npasses) *npasses = p - 1;
  for (PetscInt q = 1; q < p; q++) {
    PetscInt   nb, nn, *bcols, *bidx;
    PetscReal *bvals;

    PetscCall(ak->mp_earlier(n, pass, q, earlier));
    PetscCall(ak->mp_bound(A, S, pass, q, earlier, rl, tmax, Bi));
    PetscCall(sk->rowptr(n, Bi, &nb, NULL));
    PetscCall(GPUPCAMGDevAlloc(nb, &bcols));
    PetscCall(GPUPCAMGDevAlloc(nb, &bvals));
    PetscCall(GPUPCAMGDevAlloc(nb, &bidx));
    PetscCall(ak->mp_rows(A, d, S, pass, q, earlier, rs, rl, sc, sv, tmax, tfac, Bi, bcols, bvals, bidx, Ci));
    PetscCall(sk->rowptr(n, Ci, &nn, NULL));
    PetscCheck((PetscInt64)cnt + nn <= PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_SUP, "PC gpuamg device multipass interpolation: %" PetscInt64_FMT " entries of P, more than PetscInt holds", (PetscInt64)cnt + nn);
    if (nn > 0) { /* the store grows by this pass's rows */
      PetscInt  *sc2;
      PetscReal *sv2;
      PetscCall(GPUPCAMGDevAlloc(cnt + nn, &sc2));
      PetscCall(GPUPCAMGDevAlloc(cnt + nn, &sv2));
      PetscCall(GPUPCCopyOnDevice(sc2, sc, cnt));
      PetscCall(GPUPCCopyOnDevice(sv2, sv, cnt));
      PetscCall(GPUPCFree(sc));
      PetscCall(GPUPCFree(sv));
      sc = sc2;
      sv = sv2;
    }
    PetscCall(ak->mp_append(n, pass, q, Bi, bcols, bvals, Ci, cnt, rs, rl, sc, sv));
    cnt += nn;
    PetscCall(GPUPCFree(bcols));
    PetscCall(GPUPCFree(bvals));
    PetscCall(GPUPCFree(bidx));
  }
  /* P: the row lengths, their pointers, then each row from the store with coarse columns, sorted */
  PetscCall(GPUPCCopyOnDevice(Ci + 1, rl, n));
  PetscCall(sk->rowptr(n, Ci, &np, NULL));
  PetscCheck(np == cnt, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PC gpuamg device multipass interpolation: P has %" PetscInt_FMT " entries, its store %" PetscInt_FMT, np, cnt);
  PetscCall(GPUPCDevCSRCreate(n, nc, np, PETSC_TRUE, P));
  PetscCall(GPUPCCopyOnDevice(P->i, Ci, n + 1));
  PetscCall(k->interp_gather(n, rs, sc, sv, cmap, P));
  PetscCall(GPUPCFree(pass));
  PetscCall(GPUPCFree(rs));
  PetscCall(GPUPCFree(rl));
  PetscCall(GPUPCFree(earlier));
  PetscCall(GPUPCFree(Bi));
  PetscCall(GPUPCFree(Ci));
  PetscCall(GPUPCFree(sc));
  PetscCall(GPUPCFree(sv));
  PetscFunctionReturn(0);
}

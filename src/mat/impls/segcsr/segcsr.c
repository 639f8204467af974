/*
   MATSEGCSR: the type name that picks seqsegcsr or mpisegcsr, the options and the public
   functions of the segcsr types, and their registration.
*/
#include "segcsrimpl.h"

const char *const MatSegCSRShortModes[] = {"auto", "group", "tile", "MatSegCSRShortMode", "MAT_SEGCSR_SHORT_", NULL};

/*MC
   MATSEGCSR - MATSEGCSR = "segcsr" - segmented-CSR sparse matrix on the device: MATSEQSEGCSR
   on a one-process communicator, MATMPISEGCSR otherwise.

   Options Database Keys:
+  -mat_type segcsr - sets the type with MatSetFromOptions()
.  -mat_segcsr_segment_length <L> - segment length (power of two 1..32; default from the mean row length)
-  -mat_segcsr_short <auto,group,tile> - how the short rows are computed (see MatSegCSRSetShortMode())

   Level: beginner

   Notes:
   Default segment length: the largest power of two <= (mean row length)/3, clamped to 1..8
   (1 below a mean of 6, 2 below 12, 4 below 24, else 8). This deviates from the segSpMV rule of docs/algorithms.md 1.1 (smallest
   power of two >= the mean): that rule padded every matrix of the H200 suite and lost to
   cuSPARSE; the measurements are in bench/NOTES.md.

   Rows are put in three bins when the layout is built: short rows (at most twice the mean
   number of segments per row, at most 32 segments), medium rows of up to 1024 slots (a warp
   each) and long rows (a thread block each). The short rows run in one of two modes
   (-mat_segcsr_short): group, a group of L lanes per row in row order (and a warp per medium
   row); or tile, runs of consecutive short and medium rows of at most 1024 slots (a long row
   ends a run), a thread block each, whose groups of L lanes reduce one segment each before the
   rows add up their segment sums (a lane per short row, a warp per medium row), so a warp never
   waits for the longest row among its groups. auto (the default) takes tiles when the group
   mode would keep fewer than 90% of its lane iterations busy AND the tiles come out at least
   half full, groups otherwise (the Laplacians keep the group kernel); measurements in
   bench/NOTES.md. All bins run in one kernel launch. MatView() with
   -mat_view ::ascii_info shows the bins, the short-row mode and the number of tiles.

   Assembly is exactly as for MATAIJ (use MatXAIJSetPreallocation() or the SEQ/MPI AIJ
   preallocation calls). MatConvert() from and to MATAIJ works with all three MatReuse modes.
   The default vector type of the matrix is VECGPU.

.seealso: MATSEQSEGCSR, MATMPISEGCSR, MatSegCSRSetSegmentLength(), MatSegCSRSetShortMode(), MATAIJ
M*/
PetscErrorCode MatCreate_SegCSR(Mat A)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMatBlocksCreateRoot(A, MatCreate_SeqSegCSR, MatCreate_MPISegCSR));
  PetscFunctionReturn(0);
}

PetscErrorCode MatSetFromOptions_SegCSR_Private(Mat A, PetscOptionItems *PetscOptionsObject)
{
  Mat_SegCSR        *s    = (Mat_SegCSR *)A->spptr;
  PetscInt           L    = s->Lopt;
  MatSegCSRShortMode mode = s->shortopt;
  PetscBool          set, modeset;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "Segmented CSR (segcsr) options");
  PetscCall(PetscOptionsInt("-mat_segcsr_segment_length", "Segment length: 1, 2, 4, 8, 16 or 32 (0 = largest power of two <= mean row length / 3, clamped to 1..8)", "MatSegCSRSetSegmentLength", L, &L, &set));
  PetscCall(PetscOptionsEnum("-mat_segcsr_short", "Short rows: a group of L lanes per row (group), thread blocks over tiles of consecutive rows (tile), or tile where groups would leave lanes idle and the tiles are full (auto)", "MatSegCSRSetShortMode", MatSegCSRShortModes, (PetscEnum)mode, (PetscEnum *)&mode, &modeset));
  PetscOptionsHeadEnd();
  if (set) {
    if (L) PetscCall(GPUPCSegCSRCheckLength(L, "-mat_segcsr_segment_length"));
    PetscCall(MatSegCSRSetSegmentLength(A, L));
  }
  if (modeset) PetscCall(MatSegCSRSetShortMode(A, mode));
  PetscFunctionReturn(0);
}

/*@
   MatSegCSRSetSegmentLength - sets the segment length of a segcsr matrix

   Logically Collective on A

   Input Parameters:
+  A - the matrix (MATSEQSEGCSR or MATMPISEGCSR; other types ignore the call)
-  L - 1, 2, 4, 8, 16 or 32; 0 picks the default (the largest power of two <= mean row length / 3, clamped to 1..8; see MATSEGCSR)

   Options Database Key:
.  -mat_segcsr_segment_length <L> - the same from the options database

   Level: intermediate

   Note:
   An assembled matrix is re-laid out at once. Other values are refused with an error.

.seealso: MATSEGCSR, MatSegCSRGetInfo()
@*/
PetscErrorCode MatSegCSRSetSegmentLength(Mat A, PetscInt L)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidLogicalCollectiveInt(A, L, 2);
  if (L) PetscCall(GPUPCSegCSRCheckLength(L, "MatSegCSRSetSegmentLength"));
  PetscTryMethod(A, "MatSegCSRSetSegmentLength_C", (Mat, PetscInt), (A, L));
  PetscFunctionReturn(0);
}

/*@
   MatSegCSRSetShortMode - sets how the product of a segcsr matrix computes its short rows

   Logically Collective on A

   Input Parameters:
+  A - the matrix (MATSEQSEGCSR or MATMPISEGCSR; other types ignore the call)
-  mode - MAT_SEGCSR_SHORT_GROUP: a group of L lanes (L = segment length) per short row, rows in
          order; MAT_SEGCSR_SHORT_TILE: tiles of consecutive short and medium rows of at most
          1024 slots, a thread block each, whose groups reduce one segment each, then each row
          adds up its segment sums; MAT_SEGCSR_SHORT_AUTO (default): tile for a block where groups would keep
          fewer than 90% of their lane iterations busy and the tiles are at least half full,
          group otherwise (see MATSEGCSR)

   Options Database Key:
.  -mat_segcsr_short <auto,group,tile> - the same from the options database

   Level: intermediate

   Notes:
   Both modes compute the same product (up to rounding) with the same layout; only the work
   split changes. An assembled matrix is re-laid out at once. For MATMPISEGCSR the mode applies
   to the diagonal and the off-diagonal block, and auto decides for each block.

.seealso: MATSEGCSR, MatSegCSRGetShortMode(), MatSegCSRSetSegmentLength()
@*/
PetscErrorCode MatSegCSRSetShortMode(Mat A, MatSegCSRShortMode mode)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(A, mode, 2);
  PetscCheck(mode >= MAT_SEGCSR_SHORT_AUTO && mode <= MAT_SEGCSR_SHORT_TILE, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_OUTOFRANGE, "MatSegCSRSetShortMode: mode %d is invalid; use MAT_SEGCSR_SHORT_AUTO, _GROUP or _TILE", (int)mode);
  PetscTryMethod(A, "MatSegCSRSetShortMode_C", (Mat, MatSegCSRShortMode), (A, mode));
  PetscFunctionReturn(0);
}

/*@
   MatSegCSRGetShortMode - the short-row mode the product of a segcsr matrix runs

   Not Collective (collective for a MATMPISEGCSR whose device copy must be rebuilt)

   Input Parameter:
.  A - a MATSEQSEGCSR or MATMPISEGCSR matrix

   Output Parameters:
+  mode - MAT_SEGCSR_SHORT_GROUP or MAT_SEGCSR_SHORT_TILE (auto resolved) of the diagonal block, or NULL
-  ntiles - number of tiles of the diagonal block (0 in group mode), or NULL

   Level: developer

.seealso: MATSEGCSR, MatSegCSRSetShortMode()
@*/
PetscErrorCode MatSegCSRGetShortMode(Mat A, MatSegCSRShortMode *mode, PetscInt *ntiles)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscUseMethod(A, "MatSegCSRGetShortMode_C", (Mat, MatSegCSRShortMode *, PetscInt *), (A, mode, ntiles));
  PetscFunctionReturn(0);
}

/*@
   MatSegCSRGetInfo - what the segcsr device copy is: segment length and how often it was
   built (layout) and updated (values only)

   Not Collective (collective for a MATMPISEGCSR whose device copy must be rebuilt)

   Input Parameter:
.  A - a MATSEQSEGCSR or MATMPISEGCSR matrix

   Output Parameters:
+  L - segment length (of the diagonal block for MATMPISEGCSR), or NULL
.  builds - number of layout builds, or NULL
-  uploads - number of value-only uploads, or NULL

   Level: developer

.seealso: MATSEGCSR, MatSegCSRSetSegmentLength()
@*/
PetscErrorCode MatSegCSRGetInfo(Mat A, PetscInt *L, PetscInt *builds, PetscInt *uploads)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscUseMethod(A, "MatSegCSRGetInfo_C", (Mat, PetscInt *, PetscInt *, PetscInt *), (A, L, builds, uploads));
  PetscFunctionReturn(0);
}

/* ---- the composed implementations, shared by seqsegcsr and mpisegcsr */
static PetscErrorCode MatSegCSRSetSegmentLength_SegCSR(Mat A, PetscInt L)
{
  Mat_SegCSR *s = (Mat_SegCSR *)A->spptr;

  PetscFunctionBegin;
  if (L) PetscCall(GPUPCSegCSRCheckLength(L, "MatSegCSRSetSegmentLength"));
  if (L == s->Lopt) PetscFunctionReturn(0);
  s->Lopt = L;
  PetscCall(GPUPCMatSubclassRelayout(A)); /* collective for mpisegcsr: L is logically collective */
  PetscFunctionReturn(0);
}

static PetscErrorCode MatSegCSRSetShortMode_SegCSR(Mat A, MatSegCSRShortMode mode)
{
  Mat_SegCSR *s = (Mat_SegCSR *)A->spptr;

  PetscFunctionBegin;
  if (mode == s->shortopt) PetscFunctionReturn(0);
  s->shortopt = mode;
  PetscCall(GPUPCMatSubclassRelayout(A)); /* collective for mpisegcsr: the mode is logically collective */
  PetscFunctionReturn(0);
}

static PetscErrorCode MatSegCSRGetShortMode_SegCSR(Mat A, MatSegCSRShortMode *mode, PetscInt *ntiles)
{
  Mat_SegCSR *s = (Mat_SegCSR *)A->spptr;

  PetscFunctionBegin;
  if (A->assembled) PetscCall(GPUPCMatSubclassEnsure(A));
  if (mode) *mode = s->diag.d.shortmode;
  if (ntiles) *ntiles = s->diag.d.ntiles;
  PetscFunctionReturn(0);
}

static PetscErrorCode MatSegCSRGetInfo_SegCSR(Mat A, PetscInt *L, PetscInt *builds, PetscInt *uploads)
{
  Mat_SegCSR *s = (Mat_SegCSR *)A->spptr;

  PetscFunctionBegin;
  if (A->assembled) PetscCall(GPUPCMatSubclassEnsure(A));
  if (L) *L = s->diag.d.L;
  if (builds) *builds = s->g.sc.builds;
  if (uploads) *uploads = s->g.sc.uploads;
  PetscFunctionReturn(0);
}

/* the type's public functions, composed on every seqsegcsr and mpisegcsr */
const GPUPCMatComposed MatSegCSRComposed[] = {
  {"MatSegCSRSetSegmentLength_C", (PetscVoidFunction)MatSegCSRSetSegmentLength_SegCSR},
  {"MatSegCSRSetShortMode_C", (PetscVoidFunction)MatSegCSRSetShortMode_SegCSR},
  {"MatSegCSRGetShortMode_C", (PetscVoidFunction)MatSegCSRGetShortMode_SegCSR},
  {"MatSegCSRGetInfo_C", (PetscVoidFunction)MatSegCSRGetInfo_SegCSR},
  {NULL, NULL}};

/* called from GPUPCRegisterMat() (src/mat/matregister.c) */
PetscErrorCode GPUPCRegisterSegCSR(void)
{
  PetscFunctionBegin;
  PetscCall(MatRegisterRootName(MATSEGCSR, MATSEQSEGCSR, MATMPISEGCSR));
  PetscCall(MatRegister(MATSEGCSR, MatCreate_SegCSR));
  PetscCall(MatRegister(MATSEQSEGCSR, MatCreate_SeqSegCSR));
  PetscCall(MatRegister(MATMPISEGCSR, MatCreate_MPISegCSR));
  PetscCall(GPUPCMatRegisterFactors(MATSEQSEGCSR, MATMPISEGCSR));
  PetscCall(PetscLogEventRegister("SegCSRBuild", MAT_CLASSID, &MATSEGCSR_Build));
  PetscCall(PetscLogEventRegister("SegCSRUpload", MAT_CLASSID, &MATSEGCSR_Upload));
  PetscCall(PetscLogEventRegister("SegCSRMult", MAT_CLASSID, &MATSEGCSR_Mult));
  PetscCall(PetscLogEventRegister("SegCSRMultTr", MAT_CLASSID, &MATSEGCSR_MultTranspose));
  PetscFunctionReturn(0);
}

/*
   MATHEC: the type name that picks seqhec or mpihec, the options and the public functions of the HEC types (their
   implementations are the same for both: they only touch Mat_HEC and the shared subclass machinery), and their
   registration.
*/
#include "hecimpl.h"

/*MC
   MATHEC - MATHEC = "hec" - hybrid ELL + CSR sparse matrix on the device: MATSEQHEC on a one-process communicator,
   MATMPIHEC otherwise.

   Each row keeps its first K entries in an ELL part (K columns stored column by column, stride = rows rounded up to a
   multiple of 32, so that a warp's consecutive rows read contiguous memory) and the rest in a CSR remainder. K
   minimises w(K) = K m + p_r sum_i max(0, len_i - K) (m rows of lengths len_i): an ELL slot costs 1, a remainder entry
   p_r, so K is about the (1 - 1/p_r) quantile of the row lengths and a few very long rows (a power-law graph) do not
   blow up the ELL part.

   Options Database Keys:
+  -mat_type hec - sets the type with MatSetFromOptions()
.  -mat_hec_ratio <p_r> - the cost of a remainder entry relative to an ELL slot (> 0; default 12, chosen by a sweep on the bench suite; the GPU AMG paper uses 20)
-  -mat_hec_ell_width <K> - force the ELL width (K >= 0; -1 = the cost model, the default)

   Level: beginner

   Notes:
   The product is one kernel launch: one thread per row for the ELL part and a remainder of at most 16 entries, a warp
   per row whose remainder has up to 1024 entries, a thread block per longer one. MatMultTranspose is an atomic
   scatter over the same layout (no transposed copy). MatView() with -mat_view ::ascii_info shows K, the ELL fill (entries /
   slots), the share of the nonzeros in the remainder and the row bins.

   Assembly is exactly as for MATAIJ (use MatXAIJSetPreallocation() or the SEQ/MPI AIJ preallocation calls); new values
   on the same nonzero pattern are staged to the device and laid into the layout there. MatConvert() from and to
   MATAIJ works with all three MatReuse modes. The default vector type of the matrix is VECGPU.

.seealso: MATSEQHEC, MATMPIHEC, MatHECSetRatio(), MatHECSetEllWidth(), MATSEGCSR, MATAIJ
M*/
PetscErrorCode MatCreate_HEC(Mat A)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMatBlocksCreateRoot(A, MatCreate_SeqHEC, MatCreate_MPIHEC));
  PetscFunctionReturn(0);
}

PetscErrorCode MatSetFromOptions_HEC_Private(Mat A, PetscOptionItems *PetscOptionsObject)
{
  Mat_HEC  *s  = (Mat_HEC *)A->spptr;
  PetscReal pr = s->ratio;
  PetscInt  K  = s->Kopt;
  PetscBool prset, Kset;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "Hybrid ELL + CSR (hec) options");
  PetscCall(PetscOptionsReal("-mat_hec_ratio", "Cost of a CSR-remainder entry relative to an ELL slot in the width model w(K) = K m + p_r (entries beyond K); > 0", "MatHECSetRatio", pr, &pr, &prset));
  PetscCall(PetscOptionsInt("-mat_hec_ell_width", "ELL width K (>= 0), or -1 for the cost model", "MatHECSetEllWidth", K, &K, &Kset));
  PetscOptionsHeadEnd();
  if (prset) {
    PetscCall(GPUPCHECCheckRatio(pr, "-mat_hec_ratio"));
    PetscCall(MatHECSetRatio(A, pr));
  }
  if (Kset) {
    PetscCall(GPUPCHECCheckWidth(K, "-mat_hec_ell_width"));
    PetscCall(MatHECSetEllWidth(A, K));
  }
  PetscFunctionReturn(0);
}

/*@
   MatHECSetRatio - sets p_r, the cost of a CSR-remainder entry relative to an ELL slot, in the model that picks the
   ELL width of a hec matrix

   Logically Collective on A

   Input Parameters:
+  A - the matrix (MATSEQHEC or MATMPIHEC; other types ignore the call)
-  pr - a positive number (default 20); larger values widen the ELL part

   Options Database Key:
.  -mat_hec_ratio <p_r> - the same from the options database

   Level: intermediate

   Notes:
   K minimises w(K) = K m + p_r sum_i max(0, len_i - K); a forced width (MatHECSetEllWidth()) takes precedence. An
   assembled matrix is re-laid out at once. A value that is not positive is refused with an error.

.seealso: MATHEC, MatHECGetRatio(), MatHECSetEllWidth()
@*/
PetscErrorCode MatHECSetRatio(Mat A, PetscReal pr)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidLogicalCollectiveReal(A, pr, 2);
  PetscCall(GPUPCHECCheckRatio(pr, "MatHECSetRatio"));
  PetscTryMethod(A, "MatHECSetRatio_C", (Mat, PetscReal), (A, pr));
  PetscFunctionReturn(0);
}

/*@
   MatHECGetRatio - the p_r of the ELL width model of a hec matrix

   Not Collective

   Input Parameter:
.  A - a MATSEQHEC or MATMPIHEC matrix

   Output Parameter:
.  pr - p_r

   Level: intermediate

.seealso: MATHEC, MatHECSetRatio()
@*/
PetscErrorCode MatHECGetRatio(Mat A, PetscReal *pr)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidRealPointer(pr, 2);
  PetscUseMethod(A, "MatHECGetRatio_C", (Mat, PetscReal *), (A, pr));
  PetscFunctionReturn(0);
}

/*@
   MatHECSetEllWidth - forces the ELL width K of a hec matrix, or gives it back to the cost model

   Logically Collective on A

   Input Parameters:
+  A - the matrix (MATSEQHEC or MATMPIHEC; other types ignore the call)
-  K - the width (>= 0; 0 puts every entry in the CSR remainder), or PETSC_DECIDE (-1) for the cost model (default)

   Options Database Key:
.  -mat_hec_ell_width <K> - the same from the options database

   Level: intermediate

   Notes:
   A width above a block's longest row is cut to it (only padding would be added). For MATMPIHEC the width applies to
   the diagonal and the off-diagonal block; with the cost model each block has its own. An assembled matrix is re-laid
   out at once. Other negative values are refused with an error.

.seealso: MATHEC, MatHECGetEllWidth(), MatHECSetRatio()
@*/
PetscErrorCode MatHECSetEllWidth(Mat A, PetscInt K)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidLogicalCollectiveInt(A, K, 2);
  PetscCall(GPUPCHECCheckWidth(K, "MatHECSetEllWidth"));
  PetscTryMethod(A, "MatHECSetEllWidth_C", (Mat, PetscInt), (A, K));
  PetscFunctionReturn(0);
}

/*@
   MatHECGetEllWidth - the ELL width a hec matrix was built with (of the diagonal block for MATMPIHEC)

   Not Collective (collective for a MATMPIHEC whose device copy must be rebuilt)

   Input Parameter:
.  A - a MATSEQHEC or MATMPIHEC matrix

   Output Parameter:
.  K - the width in use (the forced one cut to the longest row, or the cost model's)

   Level: intermediate

.seealso: MATHEC, MatHECSetEllWidth()
@*/
PetscErrorCode MatHECGetEllWidth(Mat A, PetscInt *K)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidIntPointer(K, 2);
  PetscCall(MatHECGetInfo(A, K, NULL, NULL));
  PetscFunctionReturn(0);
}

/*@
   MatHECGetInfo - what the hec device copy is: ELL width and how often it was built (layout) and updated (values only)

   Not Collective (collective for a MATMPIHEC whose device copy must be rebuilt)

   Input Parameter:
.  A - a MATSEQHEC or MATMPIHEC matrix

   Output Parameters:
+  K - ELL width (of the diagonal block for MATMPIHEC), or NULL
.  builds - number of layout builds, or NULL
-  uploads - number of value-only uploads, or NULL

   Level: developer

.seealso: MATHEC, MatHECGetEllWidth()
@*/
PetscErrorCode MatHECGetInfo(Mat A, PetscInt *K, PetscInt *builds, PetscInt *uploads)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscUseMethod(A, "MatHECGetInfo_C", (Mat, PetscInt *, PetscInt *, PetscInt *), (A, K, builds, uploads));
  PetscFunctionReturn(0);
}

/* ---- the composed implementations, shared by seqhec and mpihec */
static PetscErrorCode MatHECSetRatio_HEC(Mat A, PetscReal pr)
{
  Mat_HEC *s = (Mat_HEC *)A->spptr;

  PetscFunctionBegin;
  if (pr == s->ratio) PetscFunctionReturn(0);
  s->ratio = pr;
  PetscCall(GPUPCMatSubclassRelayout(A)); /* collective for mpihec: the ratio is logically collective */
  PetscFunctionReturn(0);
}

static PetscErrorCode MatHECGetRatio_HEC(Mat A, PetscReal *pr)
{
  PetscFunctionBegin;
  *pr = ((Mat_HEC *)A->spptr)->ratio;
  PetscFunctionReturn(0);
}

static PetscErrorCode MatHECSetEllWidth_HEC(Mat A, PetscInt K)
{
  Mat_HEC *s = (Mat_HEC *)A->spptr;

  PetscFunctionBegin;
  if (K == s->Kopt) PetscFunctionReturn(0);
  s->Kopt = K;
  PetscCall(GPUPCMatSubclassRelayout(A));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatHECGetInfo_HEC(Mat A, PetscInt *K, PetscInt *builds, PetscInt *uploads)
{
  Mat_HEC *s = (Mat_HEC *)A->spptr;

  PetscFunctionBegin;
  if (A->assembled) PetscCall(GPUPCMatSubclassEnsure(A));
  if (K) *K = s->diag.d.K;
  if (builds) *builds = s->g.sc.builds;
  if (uploads) *uploads = s->g.sc.uploads;
  PetscFunctionReturn(0);
}

/* the type's public functions, composed on every seqhec and mpihec */
const GPUPCMatComposed MatHECComposed[] = {
  {"MatHECSetRatio_C", (PetscVoidFunction)MatHECSetRatio_HEC},
  {"MatHECGetRatio_C", (PetscVoidFunction)MatHECGetRatio_HEC},
  {"MatHECSetEllWidth_C", (PetscVoidFunction)MatHECSetEllWidth_HEC},
  {"MatHECGetInfo_C", (PetscVoidFunction)MatHECGetInfo_HEC},
  {NULL, NULL}};

/* called from GPUPCRegisterMat() (src/mat/matregister.c) */
PetscErrorCode GPUPCRegisterHEC(void)
{
  PetscFunctionBegin;
  PetscCall(MatRegisterRootName(MATHEC, MATSEQHEC, MATMPIHEC));
  PetscCall(MatRegister(MATHEC, MatCreate_HEC));
  PetscCall(MatRegister(MATSEQHEC, MatCreate_SeqHEC));
  PetscCall(MatRegister(MATMPIHEC, MatCreate_MPIHEC));
  PetscCall(GPUPCMatRegisterFactors(MATSEQHEC, MATMPIHEC));
  PetscCall(PetscLogEventRegister("HECBuild", MAT_CLASSID, &MATHEC_Build));
  PetscCall(PetscLogEventRegister("HECUpload", MAT_CLASSID, &MATHEC_Upload));
  PetscCall(PetscLogEventRegister("HECMult", MAT_CLASSID, &MATHEC_Mult));
  PetscCall(PetscLogEventRegister("HECMultTr", MAT_CLASSID, &MATHEC_MultTranspose));
  PetscFunctionReturn(0);
}

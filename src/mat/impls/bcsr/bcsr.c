/*
   MATBCSR: the type name that picks seqbcsr or mpibcsr, the options and public functions of the bcsr types, the
   kernel table's getters, and the registration.
*/
#include "bcsrimpl.h"

const char *const MatBCSRMappings[]      = {"full", "warp", "MatBCSRMapping", "MAT_BCSR_MAPPING_", NULL};
const char *const GPUPCBCSRKernelNames[] = {GPUPC_BCSR_KERNEL_LIST(GPUPC_KERNEL_NAME, ) NULL};

/*MC
   MATBCSR - MATBCSR = "bcsr" - block CSR sparse matrix on the device, for matrices made of dense b x b blocks
   (elasticity b = 3, flow b = 4 or 5, coupled multiphysics): MATSEQBCSR on a one-process communicator, MATMPIBCSR
   otherwise.

   Options Database Keys:
+  -mat_type bcsr - sets the type with MatSetFromOptions()
.  -mat_bcsr_block_size <b> - block size 1..8 of the device layout (default 0: the Mat's block size, MatSetBlockSize() or -mat_block_size)
.  -mat_bcsr_mapping <full,warp> - slice shape, i.e. which threads compute a slice of block rows (MatBCSRSetMapping())
-  -mat_bcsr_sort <true,false> - sort the block rows by their number of blocks (MatBCSRSetSort())

   Level: beginner

   Notes:
   Layout (docs/algorithms.md 1.3): every b x b block that holds an entry is stored whole, so an AIJ pattern that is
   not blocked is accepted (the missing entries inside a block are stored zeros; MatView() with -mat_view ::ascii_info
   prints the block density and the padding, which tell when bcsr is the wrong choice). Block rows are sorted by their
   number of blocks (longest first) and cut into slices of S block rows; slice by slice, the blocks one step of the
   product touches are stored contiguously, and each slice is padded with empty blocks to its longest block row. One
   thread per matrix row reads b values per block column with its neighbours at consecutive addresses, one block column
   index per block, and x through the read-only cache. The local row and column sizes (of every rank) must be multiples
   of b: the layout does not pad the matrix dimension.

   Mapping: full (default) takes S = 32/gcd(32,b) block rows per slice, so the S*b threads fill whole warps (b = 3: 32
   block rows, 3 warps); warp takes S = floor(32/b), one warp per slice, 32 mod b threads idle. They differ only for b
   not a power of two; bench/spmv -bcsr_mapping compares them on the GPU.

   Assembly is exactly as for MATAIJ (MatXAIJSetPreallocation() with the block size, MatSetValuesBlocked() works).
   MatConvert() from MATAIJ (all three MatReuse modes) and from MATBAIJ, and back to MATAIJ; the near-null space and
   null spaces survive the conversion. Every AIJ operation works (factorizations, products, MatGetRow); MatMult,
   MatMultAdd, MatMultTranspose(Add) and MatGetDiagonal run on the device. The default vector type is VECGPU.

.seealso: MATSEQBCSR, MATMPIBCSR, MatBCSRSetBlockSize(), MatBCSRSetMapping(), MatBCSRSetSort(), MatBCSRGetInfo(), MATSEGCSR
M*/
PetscErrorCode MatCreate_BCSR(Mat A)
{
  PetscFunctionBegin;
  PetscCall(GPUPCMatBlocksCreateRoot(A, MatCreate_SeqBCSR, MatCreate_MPIBCSR));
  PetscFunctionReturn(0);
}

PetscErrorCode MatSetFromOptions_BCSR_Private(Mat A, PetscOptionItems *PetscOptionsObject)
{
  Mat_BCSR      *s       = (Mat_BCSR *)A->spptr;
  PetscInt       b       = s->bopt;
  MatBCSRMapping mapping = s->mapping;
  PetscBool      sort    = s->sort, bset, mset, sset;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "Block CSR (bcsr) options");
  PetscCall(PetscOptionsInt("-mat_bcsr_block_size", "Block size of the device layout, 1 to 8 (0 = the Mat's block size)", "MatBCSRSetBlockSize", b, &b, &bset));
  PetscCall(PetscOptionsEnum("-mat_bcsr_mapping", "Slice shape: full (32/gcd(32,b) block rows, no idle lane) or warp (floor(32/b) block rows, a warp each)", "MatBCSRSetMapping", MatBCSRMappings, (PetscEnum)mapping, (PetscEnum *)&mapping, &mset));
  PetscCall(PetscOptionsBool("-mat_bcsr_sort", "Sort the block rows by their number of blocks (less padding in the slices)", "MatBCSRSetSort", sort, &sort, &sset));
  PetscOptionsHeadEnd();
  if (bset) PetscCall(MatBCSRSetBlockSize(A, b));
  if (mset) PetscCall(MatBCSRSetMapping(A, mapping));
  if (sset) PetscCall(MatBCSRSetSort(A, sort));
  PetscFunctionReturn(0);
}

/*@
   MatBCSRSetBlockSize - sets the block size of the device layout of a bcsr matrix

   Logically Collective on A

   Input Parameters:
+  A - the matrix (MATSEQBCSR or MATMPIBCSR; other types ignore the call)
-  b - 1 to 8, or 0 for the Mat's block size (the default)

   Options Database Key:
.  -mat_bcsr_block_size <b> - the same from the options database

   Level: intermediate

   Notes:
   The Mat's block size (MatSetBlockSize(), -mat_block_size) is what MatSetValuesBlocked() uses; this only changes the
   layout on the device. Every rank's local row and column sizes must be multiples of b. An assembled matrix is laid
   out again at once.

.seealso: MATBCSR, MatBCSRGetInfo(), MatSetBlockSize()
@*/
PetscErrorCode MatBCSRSetBlockSize(Mat A, PetscInt b)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidLogicalCollectiveInt(A, b, 2);
  if (b) PetscCall(GPUPCBCSRCheckBlockSize(b, "MatBCSRSetBlockSize"));
  PetscTryMethod(A, "MatBCSRSetBlockSize_C", (Mat, PetscInt), (A, b));
  PetscFunctionReturn(0);
}

/*@
   MatBCSRSetMapping - sets the slice shape of a bcsr matrix: which GPU threads compute a slice of block rows

   Logically Collective on A

   Input Parameters:
+  A - the matrix (MATSEQBCSR or MATMPIBCSR; other types ignore the call)
-  mapping - MAT_BCSR_MAPPING_FULL (default): slices of 32/gcd(32,b) block rows whose b threads per block row fill
             whole warps; MAT_BCSR_MAPPING_WARP: slices of floor(32/b) block rows, a warp each

   Options Database Key:
.  -mat_bcsr_mapping <full,warp> - the same from the options database

   Level: advanced

   Note:
   Both compute the same product; they differ only for b not a power of two (see MATBCSR). An assembled matrix is
   laid out again at once.

.seealso: MATBCSR, MatBCSRSetSort()
@*/
PetscErrorCode MatBCSRSetMapping(Mat A, MatBCSRMapping mapping)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(A, mapping, 2);
  PetscCheck(mapping == MAT_BCSR_MAPPING_FULL || mapping == MAT_BCSR_MAPPING_WARP, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_OUTOFRANGE, "MatBCSRSetMapping: mapping %d is invalid; use MAT_BCSR_MAPPING_FULL or MAT_BCSR_MAPPING_WARP", (int)mapping);
  PetscTryMethod(A, "MatBCSRSetMapping_C", (Mat, MatBCSRMapping), (A, mapping));
  PetscFunctionReturn(0);
}

/*@
   MatBCSRSetSort - sorts (default) or keeps in their order the block rows of a bcsr matrix before they are cut into
   slices

   Logically Collective on A

   Input Parameters:
+  A - the matrix (MATSEQBCSR or MATMPIBCSR; other types ignore the call)
-  sort - PETSC_TRUE: block rows sorted by their number of blocks, longest first, so a slice holds rows of similar
          length and needs little padding; PETSC_FALSE: in their order

   Options Database Key:
.  -mat_bcsr_sort <true,false> - the same from the options database

   Level: advanced

.seealso: MATBCSR, MatBCSRSetMapping()
@*/
PetscErrorCode MatBCSRSetSort(Mat A, PetscBool sort)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidLogicalCollectiveBool(A, sort, 2);
  PetscTryMethod(A, "MatBCSRSetSort_C", (Mat, PetscBool), (A, sort));
  PetscFunctionReturn(0);
}

/*@
   MatBCSRGetInfo - what the bcsr device copy is: block size, block density, padding, and how often it was built and
   updated

   Not Collective (collective for a MATMPIBCSR whose device copy must be rebuilt)

   Input Parameter:
.  A - a MATSEQBCSR or MATMPIBCSR matrix

   Output Parameters (each may be NULL):
+  b - block size of the layout
.  density - nonzeros / (stored blocks holding entries * b * b) of the (diagonal) block: 1 for a blocked pattern
.  padding - share of the stored blocks that are slice padding (diagonal block)
.  builds - number of layout builds
-  uploads - number of value-only uploads

   Level: developer

.seealso: MATBCSR, MatBCSRSetBlockSize()
@*/
PetscErrorCode MatBCSRGetInfo(Mat A, PetscInt *b, PetscReal *density, PetscReal *padding, PetscInt *builds, PetscInt *uploads)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscUseMethod(A, "MatBCSRGetInfo_C", (Mat, PetscInt *, PetscReal *, PetscReal *, PetscInt *, PetscInt *), (A, b, density, padding, builds, uploads));
  PetscFunctionReturn(0);
}

/* GPUPCGetBCSRKernelsFor(backend, &k): the table of a backend (the CUDA table is usable only when the active backend
   is CUDA); GPUPCGetBCSRKernels(&k): the table of the active backend (gpupc/kerneltable.h) */
GPUPC_KERNEL_TABLE_GETTERS(GPUPCBCSRKernels, BCSR, "bcsr")

/* called from GPUPCRegisterMat() (src/mat/matregister.c) */
PetscErrorCode GPUPCRegisterBCSR(void)
{
  PetscFunctionBegin;
  PetscCall(MatRegisterRootName(MATBCSR, MATSEQBCSR, MATMPIBCSR));
  PetscCall(MatRegister(MATBCSR, MatCreate_BCSR));
  PetscCall(MatRegister(MATSEQBCSR, MatCreate_SeqBCSR));
  PetscCall(MatRegister(MATMPIBCSR, MatCreate_MPIBCSR));
  PetscCall(GPUPCMatRegisterFactors(MATSEQBCSR, MATMPIBCSR));
  PetscCall(PetscLogEventRegister("BCSRBuild", MAT_CLASSID, &MATBCSR_Build));
  PetscCall(PetscLogEventRegister("BCSRUpload", MAT_CLASSID, &MATBCSR_Upload));
  PetscCall(PetscLogEventRegister("BCSRMult", MAT_CLASSID, &MATBCSR_Mult));
  PetscCall(PetscLogEventRegister("BCSRMultTr", MAT_CLASSID, &MATBCSR_MultTranspose));
  PetscFunctionReturn(0);
}

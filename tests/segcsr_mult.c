static const char help[] = "segcsr products, conversions, value updates and value-changing ops against AIJ.\n"
                           "  -m <global rows> -n <global columns> -maxlen <longest ordinary row> -long <length of one very long row, 0 = none>\n"
                           "  -powerlaw: heavy-tailed row lengths (Pareto, exponent 1.5, lengths 2..200) instead of uniform ones up to maxlen\n"
                           "  The last rank owns no rows when run on more than one rank. Every segment length 1..32 is tested.\n"
                           "  -mat_segcsr_short <auto,group,tile>: the short-row mode of the directly assembled matrix (checked with the view).\n"
                           "  New values on the same pattern at every L (assembled, and on one rank written through MatSeqAIJGetArray);\n"
                           "  -gpupc_stage_bytes <b> cuts their upload into chunks of b bytes.\n";

#include "matmulttest.h"

static const MatMultTestType T = {"segcsr", MATSEGCSR, MATSEQSEGCSR, MATMPISEGCSR, MatSegCSRGetInfo};

/* new values on the same pattern for every segment length (the short-row mode of the options, the bins of the
   problem): S and A are assembled again with new values (a value upload at MatAssemblyEnd, no rebuild), and on one rank
   also written through MatSeqAIJGetArray (uploaded at the next product, once); the products must equal AIJ's. The
   values reach the device in chunks of -gpupc_stage_bytes, laid into the layout there. */
static PetscErrorCode CheckValueUpdates(Mat S, Mat A, const Problem *p)
{
  const PetscInt Ls[] = {1, 2, 4, 8, 16, 32};

  PetscFunctionBegin;
  for (PetscInt l = 0; l < 6; l++) {
    char lay[32];

    PetscCall(MatSegCSRSetSegmentLength(S, Ls[l]));
    PetscCall(TestCheckSegCSRShortMode(S));
    PetscCall(PetscSNPrintf(lay, sizeof(lay), "L = %" PetscInt_FMT, Ls[l]));
    PetscCall(CheckValueUpdate(&T, S, A, p, l, lay));
  }
  PetscCall(MatSegCSRSetSegmentLength(S, 0));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Problem  p = {600, 600, 12, 0, PETSC_FALSE, 0};
  Mat      A, S;
  size_t   mem0;
  PetscInt L, Ls[] = {1, 2, 4, 8, 16, 32};

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-m", &p.M, NULL));
  p.N = p.M;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &p.N, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-maxlen", &p.maxlen, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-long", &p.longlen, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-powerlaw", &p.powerlaw, NULL));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem0));

  /* reference AIJ and a segcsr assembled directly (MatSetType) */
  PetscCall(CreateMat(&p, MATAIJ, &A));
  PetscCall(Fill(A, &p, 0, PETSC_TRUE));
  PetscCall(CreateMat(&p, MATSEGCSR, &S));
  PetscCall(CheckType(&T, S, "MatSetType(segcsr)"));
  PetscCall(Fill(S, &p, 0, PETSC_TRUE));
  PetscCall(MatSegCSRGetInfo(S, &L, NULL, NULL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "default segment length %" PetscInt_FMT "\n", L));
  PetscCall(MatViewFromOptions(S, NULL, "-segcsr_view"));
  for (PetscInt k = 0; k < 6; k++) {
    char what[64];
    PetscCall(MatSegCSRSetSegmentLength(S, Ls[k]));
    PetscCall(MatSegCSRGetInfo(S, &L, NULL, NULL));
    PetscCheck(L == Ls[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "segment length %" PetscInt_FMT " was asked, %" PetscInt_FMT " is used", Ls[k], L);
    PetscCall(TestCheckSegCSRShortMode(S)); /* the mode survives the re-layout */
    PetscCall(PetscSNPrintf(what, sizeof(what), "assembled segcsr, L = %" PetscInt_FMT, L));
    PetscCall(CompareProducts(S, A, VECGPU, what));
    PetscCall(CompareProducts(S, A, VECSTANDARD, what));
  }
  PetscCall(MatSegCSRSetSegmentLength(S, 0));

  /* invalid segment length is refused */
  {
    PetscErrorCode ierr;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = MatSegCSRSetSegmentLength(S, 3);
    PetscCall(PetscPopErrorHandler());
    PetscCheck(ierr == PETSC_ERR_ARG_OUTOFRANGE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "segment length 3 was not refused (error %d)", (int)ierr);
  }
  /* an invalid short-row mode is refused (a bad -mat_segcsr_short value: tests/segcsr_badoption.sh) */
  {
    PetscErrorCode ierr;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = MatSegCSRSetShortMode(S, (MatSegCSRShortMode)7);
    PetscCall(PetscPopErrorHandler());
    PetscCheck(ierr == PETSC_ERR_ARG_OUTOFRANGE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "short-row mode 7 was not refused (error %d)", (int)ierr);
  }

  PetscCall(CheckUpdatesAndConversions(&T, &S, &A, &p, mem0, CheckValueUpdates));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "segcsr_mult: all checks passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}

/*
   MatCreateGraph of every GPUPC Mat type (gpupc/matgpu.h). PCGAMG builds its strength graph with MatCreateGraph, whose
   AIJ implementation (the base type's op, inherited) refuses any type name but SEQAIJ/MPIAIJ ("Require (MPI)AIJ matrix
   type"): so the graph is made from an AIJ copy of the local rows (MatConvert to AIJ, which for a GPUPC type copies the
   base type's arrays and builds no device layout), by the AIJ implementation, and the copy is freed. -log_view event
   GPUGraphCopy: the copy.
*/
#include <gpupc/matgpu.h>

static PetscLogEvent GPUPC_GraphCopy;

/* GPUPCMatCreateGraph_Subclass - MatCreateGraph through an AIJ copy of A (collective) */
PetscErrorCode GPUPCMatCreateGraph_Subclass(Mat A, PetscBool sym, PetscBool scale, PetscReal filter, Mat *graph)
{
  Mat T;

  PetscFunctionBegin;
  if (!GPUPC_GraphCopy) PetscCall(PetscLogEventRegister("GPUGraphCopy", MAT_CLASSID, &GPUPC_GraphCopy));
  PetscCall(PetscLogEventBegin(GPUPC_GraphCopy, A, 0, 0, 0));
  PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &T));
  PetscCall(PetscLogEventEnd(GPUPC_GraphCopy, A, 0, 0, 0));
  PetscCheck(T->ops->creategraph, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "MatCreateGraph: the AIJ copy of a %s matrix has no graph operation", ((PetscObject)A)->type_name);
  PetscCall((*T->ops->creategraph)(T, sym, scale, filter, graph));
  PetscCall(MatDestroy(&T));
  PetscFunctionReturn(0);
}

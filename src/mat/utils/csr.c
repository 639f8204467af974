/*
   CSR arrays of a SEQAIJ matrix through public calls (gpupc/matgpu.h).
*/
#include <gpupc/matgpu.h>

PetscErrorCode GPUPCMatGetCSR(Mat aij, GPUPCCSR *csr)
{
  PetscInt m;

  PetscFunctionBegin;
  /* aij is a SEQAIJ or a type derived from it (its data is SEQAIJ's): MatSeqAIJGetArrayRead checks */
  PetscCall(PetscMemzero(csr, sizeof(*csr))); /* a host CSR (device FALSE) */
  csr->aij = aij;
  PetscCall(MatGetLocalSize(aij, &csr->m, &csr->n));
  PetscCall(MatGetRowIJ(aij, 0, PETSC_FALSE, PETSC_FALSE, &m, &csr->i, &csr->j, &csr->done));
  PetscCheck(csr->done, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatGetRowIJ() failed on a SEQAIJ matrix");
  PetscCheck(m == csr->m, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatGetRowIJ() gave %" PetscInt_FMT " rows, expected %" PetscInt_FMT, m, csr->m);
  csr->nnz = csr->m ? csr->i[csr->m] : 0;
  PetscCall(MatSeqAIJGetArrayRead(aij, &csr->a));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCMatRestoreCSR(GPUPCCSR *csr)
{
  PetscInt m;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJRestoreArrayRead(csr->aij, &csr->a));
  PetscCall(MatRestoreRowIJ(csr->aij, 0, PETSC_FALSE, PETSC_FALSE, &m, &csr->i, &csr->j, &csr->done));
  csr->aij = NULL;
  PetscFunctionReturn(0);
}

/*
   GPUPCMatMPIAIJGetSeqAIJ - MatMPIAIJGetSeqAIJ() for a type derived from MPIAIJ.

   PETSc 3.18's MatMPIAIJGetSeqAIJ() accepts only type names that begin with "mpiaij"; a
   subclass keeps MPIAIJ's data, so the name is switched to "mpiaij" for the call only
   (the object's own string is put back before any error is raised).
*/
PetscErrorCode GPUPCMatMPIAIJGetSeqAIJ(Mat A, Mat *Ad, Mat *Ao, const PetscInt **garray)
{
  char          *name;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  name = GPUPCMatNameAs(A, MATMPIAIJ);
  ierr = MatMPIAIJGetSeqAIJ(A, Ad, Ao, garray);
  GPUPCMatNameRestore(A, name);
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

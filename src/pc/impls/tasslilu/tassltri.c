/*
   The four triangular systems of an ILU factor (gpupc/tassl.h): L and U as stored, U^T and L^T by transposing
   their patterns. Each row lists the rows it needs (its parents) and where their values sit in the factor, so a
   new numeric factor refreshes every scheduled solve without a new analysis.
*/
#include <gpupc/tassl.h>

const char *const GPUPCTriKinds[] = {"L", "U", "U^T", "L^T", "GPUPCTriKind", "GPUPC_TRI_", NULL};

/*@C
   GPUPCTriFromILU - a triangular system of an ILU factor

   Not Collective

   Input Parameters:
+  F - the factor (symbolic is enough)
-  kind - GPUPC_TRI_L, GPUPC_TRI_U, GPUPC_TRI_UT or GPUPC_TRI_LT

   Output Parameter:
.  T - the system: parents of each row, their factor positions, the diagonal positions (NULL for L and L^T, unit)

   Level: developer

.seealso: GPUPCTasslAnalyze(), GPUPCTriDestroy()
@*/
PetscErrorCode GPUPCTriFromILU(const GPUPCILU *F, GPUPCTriKind kind, GPUPCTri *T)
{
  const PetscInt  n     = F->n;
  const PetscBool lpart = (PetscBool)(kind == GPUPC_TRI_L || kind == GPUPC_TRI_LT);
  PetscInt        nnz   = 0;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(T, sizeof(*T)));
  T->kind    = kind;
  T->n       = n;
  T->forward = (PetscBool)(kind == GPUPC_TRI_L || kind == GPUPC_TRI_UT);
  for (PetscInt i = 0; i < n; i++) nnz += lpart ? F->adiag[i] - F->ai[i] : F->ai[i + 1] - F->adiag[i] - 1;
  PetscCall(PetscCalloc1(n + 1, &T->ptr));
  PetscCall(PetscMalloc2(nnz, &T->col, nnz, &T->fidx));
  if (kind == GPUPC_TRI_L || kind == GPUPC_TRI_U) {
    for (PetscInt i = 0; i < n; i++) {
      const PetscInt q0 = lpart ? F->ai[i] : F->adiag[i] + 1, q1 = lpart ? F->adiag[i] : F->ai[i + 1];
      T->ptr[i + 1] = T->ptr[i] + q1 - q0;
      for (PetscInt q = q0; q < q1; q++) {
        T->col[T->ptr[i] + q - q0]  = F->aj[q];
        T->fidx[T->ptr[i] + q - q0] = q;
      }
    }
  } else {
    PetscInt *fill;
    for (PetscInt i = 0; i < n; i++) {
      const PetscInt q0 = lpart ? F->ai[i] : F->adiag[i] + 1, q1 = lpart ? F->adiag[i] : F->ai[i + 1];
      for (PetscInt q = q0; q < q1; q++) T->ptr[F->aj[q] + 1]++;
    }
    for (PetscInt i = 0; i < n; i++) T->ptr[i + 1] += T->ptr[i];
    PetscCall(PetscMalloc1(n, &fill));
    PetscCall(PetscArraycpy(fill, T->ptr, n));
    for (PetscInt i = 0; i < n; i++) { /* ascending i: every row's parents come out sorted */
      const PetscInt q0 = lpart ? F->ai[i] : F->adiag[i] + 1, q1 = lpart ? F->adiag[i] : F->ai[i + 1];
      for (PetscInt q = q0; q < q1; q++) {
        const PetscInt j = F->aj[q];
        T->col[fill[j]]  = i;
        T->fidx[fill[j]] = q;
        fill[j]++;
      }
    }
    PetscCall(PetscFree(fill));
  }
  if (!lpart) {
    PetscCall(PetscMalloc1(n, &T->didx));
    PetscCall(PetscArraycpy(T->didx, F->adiag, n));
  }
  PetscFunctionReturn(0);
}

/*@C
   GPUPCTriDestroy - frees a triangular system

   Level: developer
@*/
PetscErrorCode GPUPCTriDestroy(GPUPCTri *T)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(T->ptr));
  PetscCall(PetscFree2(T->col, T->fidx));
  PetscCall(PetscFree(T->didx));
  PetscCall(PetscMemzero(T, sizeof(*T)));
  PetscFunctionReturn(0);
}

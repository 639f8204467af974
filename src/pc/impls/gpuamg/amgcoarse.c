/*
   PC gpuamg's last level: the dense inverse of the whole last level, applied as a matrix-vector product on the device.
   On several ranks every rank gathers the last level's matrix and right-hand side and solves redundantly (the ranks
   then need no exchange for the result: each takes its share). The inverse comes from a Cholesky factorization
   (GPUPCDenseSPDInverseDevice, shared with PC cmg) when the matrix is symmetric positive definite, else from an LU
   factorization with partial pivoting (LAPACK getrf/getri on the host); a singular last level is an error.
*/
#include <gpupc/amgcycle.h>
#include <gpupc/denseinv.h>

/* the largest last level PC gpuamg inverts densely (its inverse takes GPUPC_AMG_DENSE_MAX^2 * 8 bytes) */

/* M (N x N row-major) = the whole of A, on every rank */
static PetscErrorCode GatherDense(Mat A, PetscInt N, PetscScalar *M)
{
  PetscMPIInt size;
  Mat         S = A, *sub = NULL;
  IS          all;

  PetscFunctionBegin;
  PetscCall(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  if (size > 1) {
    PetscCall(ISCreateStride(PETSC_COMM_SELF, N, 0, 1, &all));
    PetscCall(MatCreateSubMatrices(A, 1, &all, &all, MAT_INITIAL_MATRIX, &sub));
    PetscCall(ISDestroy(&all));
    S = sub[0];
  }
  PetscCall(PetscArrayzero(M, (size_t)N * N));
  for (PetscInt i = 0; i < N; i++) {
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscInt           nc;

    PetscCall(MatGetRow(S, i, &nc, &cols, &vals));
    for (PetscInt k = 0; k < nc; k++) M[(size_t)i * N + cols[k]] += vals[k];
    PetscCall(MatRestoreRow(S, i, &nc, &cols, &vals));
  }
  if (sub) PetscCall(MatDestroySubMatrices(1, &sub));
  PetscFunctionReturn(0);
}

/* symmetric up to the rounding of the Galerkin products: |m_ij - m_ji| <= 1e-10 sqrt(|m_ii m_jj|) (or relative to the
   pair where a diagonal entry is zero) */
static PetscBool Symmetric(PetscInt N, const PetscScalar *M)
{
  for (PetscInt i = 0; i < N; i++)
    for (PetscInt j = 0; j < i; j++) {
      const PetscReal a = PetscAbsScalar(M[(size_t)i * N + j]), b = PetscAbsScalar(M[(size_t)j * N + i]);
      const PetscReal scale = PetscMax(PetscSqrtReal(PetscAbsScalar(M[(size_t)i * N + i]) * PetscAbsScalar(M[(size_t)j * N + j])), PetscMax(a, b));
      if (PetscAbsScalar(M[(size_t)i * N + j] - M[(size_t)j * N + i]) > 1e-10 * scale) return PETSC_FALSE;
    }
  return PETSC_TRUE;
}

/* inverse by LU with partial pivoting, in place: row-major M read as column-major is M^T, and inv(M^T) read back as
   row-major is inv(M) */
static PetscErrorCode LUInverse(MPI_Comm comm, PetscInt N, PetscScalar *M)
{
  PetscBLASInt  bn, info, lwork;
  PetscBLASInt *piv;
  PetscScalar  *work;

  PetscFunctionBegin;
  PetscCall(PetscBLASIntCast(N, &bn));
  lwork = PetscMax(1, 64 * bn);
  PetscCall(PetscMalloc2(N, &piv, lwork, &work));
  PetscCallBLAS("LAPACKgetrf", LAPACKgetrf_(&bn, &bn, M, &bn, piv, &info));
  PetscCheck(info == 0, comm, PETSC_ERR_MAT_LU_ZRPVT, "PC gpuamg: the last level (%" PetscInt_FMT " rows) is singular: LU pivot %d is zero. Is the operator singular (a pure Neumann problem needs its null space attached and a consistent right-hand side)? Otherwise try -pc_gpuamg_max_coarse with a smaller size", N, (int)info);
  PetscCallBLAS("LAPACKgetri", LAPACKgetri_(&bn, M, &bn, piv, work, &lwork, &info));
  PetscCheck(info == 0, comm, PETSC_ERR_LIB, "PC gpuamg: LAPACK getri failed on the last level (info %d)", (int)info);
  PetscCall(PetscFree2(piv, work));
  PetscFunctionReturn(0);
}

/* GPUPCAMGCoarseSetUp - the dense inverse of the last level (host matrix A) into D->d_inv; on a refresh the same device
   buffer takes the new inverse */
PetscErrorCode GPUPCAMGCoarseSetUp(GPUPCAMGDevice *D, Mat A)
{
  GPUPCAMGDeviceLevel *L    = &D->levels[D->nlevels - 1];
  MPI_Comm             comm = PetscObjectComm((PetscObject)A);
  PetscMPIInt          size;
  PetscInt             N;
  PetscScalar         *M, *C;
  PetscBLASInt         info = 0;

  PetscFunctionBegin;
  PetscCall(MPI_Comm_size(comm, &size));
  PetscCall(MatGetSize(A, &N, NULL));
  PetscCheck(N <= GPUPC_AMG_DENSE_MAX, comm, PETSC_ERR_SUP, "PC gpuamg: the last level has %" PetscInt_FMT " rows, more than the %d that its dense inverse takes; allow more levels (-pc_gpuamg_max_levels) or lower -pc_gpuamg_max_coarse", N, GPUPC_AMG_DENSE_MAX);
  if (!D->d_inv) {
    D->nc        = N;
    D->redundant = (PetscBool)(size > 1);
    PetscCall(GPUPCMallocArray((size_t)N * N, &D->d_inv));
    D->bytes += (size_t)N * N * sizeof(PetscScalar);
    if (D->redundant) {
      Vec all;
      PetscCall(VecScatterCreateToAll(L->b, &D->cscatter, &all));
      PetscCall(VecDestroy(&all));
      PetscCall(VecCreateSeqGPU(PETSC_COMM_SELF, N, &D->cb));
      PetscCall(VecDuplicate(D->cb, &D->cx));
      PetscCall(VecSet(D->cx, 0.0));
      PetscCall(MatGetOwnershipRange(L->A, &D->cstart, NULL));
    }
  }
  PetscCheck(N == D->nc, comm, PETSC_ERR_ARG_WRONG, "PC gpuamg: the last level changed size (%" PetscInt_FMT " to %" PetscInt_FMT ")", D->nc, N);
  PetscCall(PetscMalloc2((size_t)N * N, &M, (size_t)N * N, &C));
  PetscCall(GatherDense(A, N, M));
  PetscCall(PetscArraycpy(C, M, (size_t)N * N));
  D->spd = Symmetric(N, M);
  if (D->spd) {
    PetscCall(GPUPCDenseSPDInverseDevice(N, M, D->d_inv, &info));
    if (info != 0) D->spd = PETSC_FALSE; /* symmetric, not positive definite: LU below */
  }
  if (!D->spd) {
    PetscCall(LUInverse(comm, N, C));
    PetscCall(GPUPCCopyToDevice(D->d_inv, C, (size_t)N * N));
  }
  PetscCall(PetscFree2(M, C));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCAMGCoarseDestroy(GPUPCAMGDevice *D)
{
  PetscFunctionBegin;
  PetscCall(GPUPCFree(D->d_inv));
  D->d_inv = NULL;
  PetscCall(VecScatterDestroy(&D->cscatter));
  PetscCall(VecDestroy(&D->cb));
  PetscCall(VecDestroy(&D->cx));
  PetscFunctionReturn(0);
}

/* GPUPCAMGCoarseSolve - x = inv(A) b on the last level (transpose: inv(A)^T b) */
PetscErrorCode GPUPCAMGCoarseSolve(GPUPCAMGDevice *D, PetscBool transpose)
{
  GPUPCAMGDeviceLevel *L = &D->levels[D->nlevels - 1];
  const PetscScalar   *b;
  PetscScalar         *x;
  const PetscBool      t = (PetscBool)(transpose && !D->spd);

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PC_GPUAMG_CoarseSolve, 0, 0, 0, 0));
  GPUPCAMGCountBytes(D, ((PetscReal)D->nc * D->nc + 2.0 * D->nc) * sizeof(PetscScalar));
  if (!D->redundant) {
    PetscCall(VecGPUGetDeviceArrayRead(L->b, &b));
    PetscCall(VecGPUGetDeviceArrayWrite(L->x, &x));
    PetscCall(D->k->dense_mult(D->nc, t, D->d_inv, b, x));
    PetscCall(VecGPURestoreDeviceArrayWrite(L->x, &x));
    PetscCall(VecGPURestoreDeviceArrayRead(L->b, &b));
  } else {
    const PetscScalar *cx;

    PetscCall(VecScatterBegin(D->cscatter, L->b, D->cb, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(D->cscatter, L->b, D->cb, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecGPUGetDeviceArrayRead(D->cb, &b));
    PetscCall(VecGPUGetDeviceArrayWrite(D->cx, &x));
    PetscCall(D->k->dense_mult(D->nc, t, D->d_inv, b, x));
    PetscCall(VecGPURestoreDeviceArrayWrite(D->cx, &x));
    PetscCall(VecGPURestoreDeviceArrayRead(D->cb, &b));
    PetscCall(VecGPUGetDeviceArrayRead(D->cx, &cx));
    PetscCall(VecGPUGetDeviceArrayWrite(L->x, &x));
    if (L->n) PetscCall(GPUPCCopyOnDevice(x, cx + D->cstart, L->n));
    PetscCall(VecGPURestoreDeviceArrayWrite(L->x, &x));
    PetscCall(VecGPURestoreDeviceArrayRead(D->cx, &cx));
  }
  PetscCall(PetscLogEventEnd(PC_GPUAMG_CoarseSolve, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

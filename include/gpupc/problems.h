/*
   gpupc/problems.h - test problems and matrix readers of GPUPC (exported for the tests,
   the benchmarks and gpupc-solve; not part of the stable public interface petscgpupc.h).

   One place for every problem generator and file reader, so that the solve driver, the
   tests and the benchmarks solve exactly the same systems.

   Generators: every rank builds its own rows (MatSetValues on owned rows only); pseudo-random
   numbers are a hash of (seed, global index), so a problem is the same for any number of ranks.
   Readers: rank 0 reads the file and sends every rank its rows (only rank 0 holds O(nnz) memory).
   Matrices are created as MATAIJ, then MatSetFromOptions() (so -mat_type picks another AIJ type).
*/
#ifndef GPUPC_PROBLEMS_H
#define GPUPC_PROBLEMS_H

#include <petscksp.h>
#include <petscgpupc.h>

/* ---- built-in problems (src/problems/problem.c and one file per family) ---- */
PETSC_EXTERN PetscErrorCode GPUPCProblemCreate(MPI_Comm, const char[], PetscInt, PetscInt, Mat *, Vec *);
PETSC_EXTERN PetscErrorCode GPUPCProblemGetInfo(const char[], PetscBool *, PetscBool *, PetscBool *);
PETSC_EXTERN PetscErrorCode GPUPCProblemList(const char *const **, PetscInt *);
PETSC_EXTERN PetscErrorCode GPUPCProblemListString(char[], size_t);
PETSC_EXTERN PetscErrorCode GPUPCProblemOptionsString(MPI_Comm, const char[], const char[], char[], size_t);

/* ---- Matrix Market (src/problems/mmio.c) ---- */
PETSC_EXTERN PetscErrorCode GPUPCMatLoadMatrixMarket(MPI_Comm, const char[], Mat *);
PETSC_EXTERN PetscErrorCode GPUPCMatLoadMatrixMarketSymmetric(MPI_Comm, const char[], Mat *, PetscBool *);
PETSC_EXTERN PetscErrorCode GPUPCMatWriteMatrixMarket(Mat, const char[], PetscBool);
PETSC_EXTERN PetscErrorCode GPUPCVecLoadMatrixMarket(MPI_Comm, const char[], PetscInt, Vec *);
PETSC_EXTERN PetscErrorCode GPUPCVecWriteMatrixMarket(Vec, const char[]);

/* ---- SPICE power-grid netlists (src/problems/netlist.c, powergrid.c) ---- */
PETSC_EXTERN PetscErrorCode GPUPCMatLoadNetlist(MPI_Comm, const char[], Mat *, Vec *);
PETSC_EXTERN PetscErrorCode GPUPCNetlistWritePowerGrid(MPI_Comm, const char[], PetscInt, PetscInt);

/* ---- any of the above, chosen from a file's contents (src/problems/load.c) ---- */
PETSC_EXTERN PetscErrorCode GPUPCMatLoadFile(MPI_Comm, const char[], Mat *, Vec *, PetscBool *);
PETSC_EXTERN PetscErrorCode GPUPCVecLoadFile(MPI_Comm, const char[], PetscInt, Vec *);

/* ---- rank-0 CSR to a distributed matrix (src/problems/distribute.c) ---- */
PETSC_EXTERN PetscErrorCode GPUPCMatCreateFromRootCSR(MPI_Comm, PetscInt, PetscInt, const PetscInt[], const PetscInt[], const PetscScalar[], Mat *);
PETSC_EXTERN PetscErrorCode GPUPCVecCreateFromRootArray(MPI_Comm, PetscInt, const PetscScalar[], Vec *);

/*S
   GPUPCSolveSummary - what one run of gpupc-solve measured; printed as the summary line

   The line (GPUPCSolveSummaryFormat()) is, on one line, key=value pairs separated by one blank:
$  gpupc-solve: problem=<name> n=<rows> nnz=<nonzeros> ranks=<MPI size> ksp=<type> pc=<type>
$     its=<iterations> reason=<KSPConvergedReason> setup_s=<s> solve_s=<s> relres=<||b-Ax||/||b||>
$     backend=<host, or cuda:<device name>>
   setup_s and solve_s are medians over -repeat runs; values never contain blanks (a blank in the device
   name is written as '_'). backend says where GPUPC's kernels ran (-gpupc_backend; -info says why auto
   chose the host).

   Level: beginner

.seealso: GPUPCSolveSummaryFormat(), GPUPCSolveSummaryParse(), GPUPCSolveRun()
S*/
typedef struct {
  char               problem[PETSC_MAX_PATH_LEN];
  PetscInt           n;
  PetscInt64         nnz;
  PetscMPIInt        ranks;
  char               ksp[64], pc[64];
  PetscInt           its;
  KSPConvergedReason reason;
  PetscReal          setup_s, solve_s, relres;
  char               backend[300]; /* "host" or "cuda:<device name>" */
} GPUPCSolveSummary;

PETSC_EXTERN PetscErrorCode GPUPCSolveSummaryFormat(const GPUPCSolveSummary *, char[], size_t);
PETSC_EXTERN PetscErrorCode GPUPCSolveSummaryParse(const char[], GPUPCSolveSummary *);
PETSC_EXTERN PetscErrorCode GPUPCSolveRun(MPI_Comm, GPUPCSolveSummary *);

#endif

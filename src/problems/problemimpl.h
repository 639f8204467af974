/*
   problemimpl.h - private pieces shared by the problem generators and readers:
   the counter-based hash (random numbers from (seed, index), independent of the rank
   count), the row-callback assembler and the log events.
*/
#ifndef GPUPC_PROBLEMIMPL_H
#define GPUPC_PROBLEMIMPL_H

#include <gpupc/problems.h>
#include <stdint.h>

/* splitmix64 finaliser over a combination of the key words: a stateless generator */
static inline uint64_t GPUPCHashMix(uint64_t z)
{
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static inline uint64_t GPUPCHash3(uint64_t seed, uint64_t a, uint64_t b)
{
  return GPUPCHashMix(GPUPCHashMix(GPUPCHashMix(seed) ^ a) ^ (b * 0x632be59bd9b4e019ULL));
}

/* uniform in [0,1) from (seed, a, b) */
static inline double GPUPCHashUniform(uint64_t seed, uint64_t a, uint64_t b)
{
  return (double)(GPUPCHash3(seed, a, b) >> 11) * (1.0 / 9007199254740992.0);
}

/* Row callback: fills the global row `row` (column indices and values, at most maxnz). */
typedef PetscErrorCode (*GPUPCRowFn)(void *, PetscInt, PetscInt *, PetscInt[], PetscScalar[]);
/* Right-hand side callback: the value of b at global row `row`. */
typedef PetscErrorCode (*GPUPCRhsFn)(void *, PetscInt, PetscScalar *);

PETSC_INTERN PetscErrorCode GPUPCAssembleRows(MPI_Comm, PetscInt, PetscInt, PetscInt, GPUPCRowFn, void *, Mat *);
PETSC_INTERN PetscErrorCode GPUPCAssembleRhs(Mat, GPUPCRhsFn, void *, Vec *);
PETSC_INTERN PetscErrorCode GPUPCOwnedRange(MPI_Comm, PetscInt, PetscInt *, PetscInt *);
PETSC_INTERN PetscErrorCode GPUPCMatCreateEmpty(MPI_Comm, PetscInt, PetscInt, PetscInt, PetscInt, Mat *);

/* the families; each returns A and b for a target size n (about n rows) */
PETSC_INTERN PetscErrorCode GPUPCProblemCreate_Stencil(MPI_Comm, const char[], PetscInt, PetscInt, Mat *, Vec *);
PETSC_INTERN PetscErrorCode GPUPCProblemCreate_PowerGrid(MPI_Comm, PetscInt, PetscInt, Mat *, Vec *);
PETSC_INTERN PetscErrorCode GPUPCProblemCreate_GraphLap(MPI_Comm, PetscInt, PetscInt, Mat *, Vec *);
PETSC_INTERN PetscErrorCode GPUPCProblemCreate_Elasticity(MPI_Comm, PetscInt, PetscInt, Mat *, Vec *);

/* log events, registered on first use */
PETSC_INTERN PetscLogEvent  GPUPC_ProblemGenerate, GPUPC_MatLoadMM, GPUPC_MatLoadNetlist, GPUPC_Distribute;
PETSC_INTERN PetscErrorCode GPUPCProblemsRegisterEvents(void);

/* string helpers for the readers */
PETSC_INTERN PetscErrorCode GPUPCSpiceValue(const char[], double *, PetscBool *);

#endif

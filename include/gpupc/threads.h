/*
   gpupc/threads.h - the cores a rank may run on and the default thread count of GPUPC's threaded host work (PC cmg's
   setup, the fills of the staging buffers); private to GPUPC and its tests.

   The default is the number of cores in the rank's affinity mask (sched_getaffinity), so a rank that mpiexec bound to
   its share of a node's cores uses them all, and one bound to a single core uses one thread; OMP_NUM_THREADS, when
   set, wins. Ranks of one node whose masks overlap (launched with --bind-to none) split the mask between them. A rank
   whose mask leaves cores of the node unused by every rank on it (Open MPI binds a lone rank to one core by default)
   gets a launch hint (GPUPCHostCoresHint) that PC cmg prints in -info and -ksp_view.
*/
#ifndef GPUPC_THREADS_H
#define GPUPC_THREADS_H

#include <petscviewer.h>

typedef struct {
  PetscInt    cores;      /* cores in the rank's affinity mask */
  PetscInt    online;     /* online cores of the node */
  PetscMPIInt node_ranks; /* ranks of PETSC_COMM_WORLD on this node */
  PetscBool   env;        /* OMP_NUM_THREADS is set: it gives the thread count */
  PetscBool   openmp;     /* the library was built with OpenMP */
  PetscInt    threads;    /* the default thread count of threaded host work */
  PetscBool   underused;  /* node_ranks * cores < online: cores of the node that no rank on it may use */
} GPUPCHostCores;

PETSC_INTERN PetscErrorCode GPUPCHostCoresSetUp(void);
PETSC_EXTERN PetscErrorCode GPUPCGetHostCores(GPUPCHostCores *);
PETSC_EXTERN PetscErrorCode GPUPCHostCoresHint(char *, size_t);
PETSC_EXTERN PetscErrorCode GPUPCHostCoresView(PetscViewer, PetscInt);
PETSC_INTERN PetscErrorCode GPUPCDefaultHostThreads(PetscInt *);

/* threads for a loop over n items cut into contiguous ranges: at most want, and one per per items at least, so that
   small loops stay serial */
static inline PetscInt GPUPCRangeThreads(PetscInt want, PetscInt n, PetscInt per)
{
  return PetscMax(1, PetscMin(want, n / per + 1));
}

/* [*lo, *hi): the t-th of nt contiguous ranges of n items (the same cut for every loop with the same n and nt) */
static inline void GPUPCThreadRange(PetscInt n, PetscInt t, PetscInt nt, PetscInt *lo, PetscInt *hi)
{
  *lo = (PetscInt)((PetscInt64)n * t / nt);
  *hi = (PetscInt)((PetscInt64)n * (t + 1) / nt);
}

#endif

/*
   The cores a rank may run on (gpupc/threads.h): its affinity mask, the node's online cores and the ranks of
   PETSC_COMM_WORLD on the node, read once at package initialization; from them the default thread count of GPUPC's
   threaded host work and the launch hint for a rank bound to fewer cores than it could use.
*/
#if !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT_S */
#endif
#include <sched.h>
#include <unistd.h>
#include <stdlib.h>
#include <gpupc/threads.h>
#if defined(_OPENMP)
#include <omp.h>
#endif

static GPUPCHostCores host_cores;
static PetscBool      host_cores_ready = PETSC_FALSE;

/* cores in this process's affinity mask; the online count when the mask cannot be read */
static PetscInt AffinityCores(PetscInt online)
{
  long       conf  = sysconf(_SC_NPROCESSORS_CONF);
  int        ncpu  = (int)PetscMax(conf, 1024);
  cpu_set_t *set   = CPU_ALLOC(ncpu);
  size_t     bytes = CPU_ALLOC_SIZE(ncpu);
  PetscInt   count = online;

  if (!set) return online;
  CPU_ZERO_S(bytes, set);
  if (sched_getaffinity(0, bytes, set) == 0) count = CPU_COUNT_S(bytes, set);
  CPU_FREE(set);
  return PetscMax(count, 1);
}

/* ranks of PETSC_COMM_WORLD on this node: the launcher's variable when it sets one, else a shared-memory split of
   PETSC_COMM_WORLD (collective) */
static PetscErrorCode NodeRanks(PetscMPIInt *n)
{
  const char *vars[] = {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS", "MV2_COMM_WORLD_LOCAL_SIZE", "PMI_LOCAL_SIZE"};

  PetscFunctionBegin;
  for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
    const char *v = getenv(vars[i]);
    if (v && atoi(v) > 0) {
      *n = (PetscMPIInt)atoi(v);
      PetscFunctionReturn(0);
    }
  }
  {
    MPI_Comm node;
    PetscCallMPI(MPI_Comm_split_type(PETSC_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    PetscCallMPI(MPI_Comm_size(node, n));
    PetscCallMPI(MPI_Comm_free(&node));
  }
  PetscFunctionReturn(0);
}

/*
   GPUPCHostCoresSetUp - reads the rank's cores and sets the default thread count; collective on PETSC_COMM_WORLD
   where the launcher does not tell the ranks per node (called from PetscGPUPCInitializePackage())

   Rule: OMP_NUM_THREADS when set (OpenMP's own default then); else the cores of the affinity mask when the ranks of
   the node, each with a mask of that size, fit in its online cores (one rank, or ranks bound to their share); else
   (masks overlap: ranks launched unbound) the mask's cores divided among the node's ranks. 1 without OpenMP.
*/
PetscErrorCode GPUPCHostCoresSetUp(void)
{
  GPUPCHostCores *h = &host_cores;
  long            online;
  const char     *env = getenv("OMP_NUM_THREADS");

  PetscFunctionBegin;
  if (host_cores_ready) PetscFunctionReturn(0);
  online     = sysconf(_SC_NPROCESSORS_ONLN);
  h->online  = online > 0 ? (PetscInt)online : 1;
  h->cores   = AffinityCores(h->online);
  h->env     = (PetscBool)(env && *env);
  h->openmp  = PETSC_FALSE;
  h->threads = 1;
  PetscCall(NodeRanks(&h->node_ranks));
  h->node_ranks = PetscMax(h->node_ranks, 1);
  h->underused  = (PetscBool)((PetscInt)h->node_ranks * h->cores < h->online);
#if defined(_OPENMP)
  h->openmp = PETSC_TRUE;
  if (h->env) h->threads = PetscMax(omp_get_max_threads(), 1);
  else if ((PetscInt)h->node_ranks * h->cores <= h->online) h->threads = h->cores;
  else h->threads = PetscMax(h->cores / h->node_ranks, 1);
#endif
  host_cores_ready = PETSC_TRUE;
  PetscCall(PetscInfo(NULL, "GPUPC: this rank may run on %" PetscInt_FMT " of the node's %" PetscInt_FMT " online cores, %d rank(s) of PETSC_COMM_WORLD on the node; threaded host work uses %" PetscInt_FMT " thread(s)%s\n", h->cores, h->online, (int)h->node_ranks, h->threads,
                      h->env ? " (OMP_NUM_THREADS)" : ""));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCGetHostCores - the cores this rank may run on, the node's, and the default thread count of GPUPC's threaded
   host work (PC cmg's setup, the staging of uploads)

   Not Collective (collective on PETSC_COMM_WORLD at its first call if the package was not initialized)

   Output Parameter:
.  h - affinity-mask cores, online cores of the node, ranks on the node, whether OMP_NUM_THREADS is set, whether
       OpenMP is built in, the default thread count, and whether cores of the node stay unused by every rank on it

   Level: developer

.seealso: GPUPCHostCoresHint(), PCCMGSetSetupThreads()
@*/
PetscErrorCode GPUPCGetHostCores(GPUPCHostCores *h)
{
  PetscFunctionBegin;
  PetscCall(GPUPCHostCoresSetUp());
  *h = host_cores;
  PetscFunctionReturn(0);
}

/*@C
   GPUPCHostCoresHint - the launch advice for a rank bound to fewer cores than the node leaves it

   Not Collective

   Input Parameter:
.  len - size of buf

   Output Parameter:
.  buf - the advice, or the empty string when the ranks on the node may use all its online cores

   Level: developer

.seealso: GPUPCGetHostCores()
@*/
PetscErrorCode GPUPCHostCoresHint(char *buf, size_t len)
{
  GPUPCHostCores h;

  PetscFunctionBegin;
  PetscCall(GPUPCGetHostCores(&h));
  buf[0] = 0;
  if (!h.underused) PetscFunctionReturn(0);
  if (h.node_ranks == 1)
    PetscCall(PetscSNPrintf(buf, len,
                            "this rank is bound to %" PetscInt_FMT " of the node's %" PetscInt_FMT " online cores and is the only rank on the node, so the host setup runs on %" PetscInt_FMT " thread(s) (Open MPI's mpiexec binds a rank to one core by default); launch with `mpiexec --bind-to none -n 1 ...`, or one rank per GPU with its share of the cores: `mpiexec --map-by ppr:<gpus>:node:PE=<cores per rank> -n <ranks> ...`",
                            h.cores, h.online, h.cores));
  else
    PetscCall(PetscSNPrintf(buf, len,
                            "this rank is bound to %" PetscInt_FMT " of the node's %" PetscInt_FMT " online cores and the %d ranks on the node may use %" PetscInt_FMT " of them, so the host setup runs on %" PetscInt_FMT " thread(s); give each rank its share of the cores: `mpiexec --map-by ppr:%d:node:PE=%" PetscInt_FMT " ...` (one rank per GPU), or `--bind-to none`",
                            h.cores, h.online, (int)h.node_ranks, (PetscInt)h.node_ranks * h.cores, h.cores, (int)h.node_ranks, PetscMax(h.online / h.node_ranks, 1)));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCHostCoresView - prints the rank's cores and the setup threads (one line), and the launch advice when the rank
   is bound to fewer cores than it could use

   Not Collective

   Input Parameters:
+  viewer  - an ASCII viewer
-  threads - the thread count the caller's setup used

   Level: developer

.seealso: GPUPCGetHostCores(), GPUPCHostCoresHint()
@*/
PetscErrorCode GPUPCHostCoresView(PetscViewer viewer, PetscInt threads)
{
  GPUPCHostCores h;
  char           hint[512];

  PetscFunctionBegin;
  PetscCall(GPUPCGetHostCores(&h));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  host setup: %" PetscInt_FMT " thread(s); this rank may run on %" PetscInt_FMT " core(s) of the node's %" PetscInt_FMT " (%d rank(s) on the node)%s\n", threads, h.cores, h.online, (int)h.node_ranks,
                                   !h.openmp ? "; built without OpenMP" : (h.env ? "; OMP_NUM_THREADS is set" : "")));
  PetscCall(GPUPCHostCoresHint(hint, sizeof(hint)));
  if (hint[0]) PetscCall(PetscViewerASCIIPrintf(viewer, "  WARNING: %s\n", hint));
  PetscFunctionReturn(0);
}

/*
   GPUPCDefaultHostThreads - the default thread count of GPUPC's threaded host work (PC cmg's setup, the fills of the
   staging buffers): GPUPCHostCoresSetUp()'s rule
*/
PetscErrorCode GPUPCDefaultHostThreads(PetscInt *threads)
{
  PetscFunctionBegin;
  PetscCall(GPUPCHostCoresSetUp());
  *threads = host_cores.threads;
  PetscFunctionReturn(0);
}

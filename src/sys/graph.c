/*
   Recorded device work (gpupc/device.h): the backend-independent entry points. The cuda backend records CUDA graphs
   (src/sys/cuda/graph.cu); the host backend runs everything as it is called, so it has nothing to record and the
   callers run their code directly (they ask GPUPCGraphAvailable() first).
*/
#include <gpupc/device.h>

static PetscErrorCode RequireCUDA(const char *what)
{
  const GPUPCDeviceInfo *info;

  PetscFunctionBegin;
  PetscCall(GPUPCDeviceGetInfo(&info));
  PetscCheck(info->backend == PETSC_GPUPC_BACKEND_CUDA, PETSC_COMM_SELF, PETSC_ERR_SUP, "%s: recorded device work (CUDA graphs) needs the cuda backend; check GPUPCGraphAvailable() first", what);
  PetscFunctionReturn(0);
}

/*@C
   GPUPCGraphAvailable - whether the backend records device work (CUDA graphs on the cuda backend)

   Not Collective

   Output Parameter:
.  avail - PETSC_TRUE on the cuda backend

   Level: developer

.seealso: GPUPCGraphBeginCapture(), GPUPCGraphLaunch()
@*/
PetscErrorCode GPUPCGraphAvailable(PetscBool *avail)
{
  const GPUPCDeviceInfo *info;

  PetscFunctionBegin;
  PetscCall(GPUPCDeviceGetInfo(&info));
  *avail = info->backend == PETSC_GPUPC_BACKEND_CUDA ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(0);
}

/*@C
   GPUPCGraphBeginCapture - start recording the work issued on the rank's stream

   Not Collective

   Notes:
   Until GPUPCGraphEndCapture() the launches are recorded, not run. Only kernel launches and asynchronous memsets may
   be issued; a synchronisation, allocation or copy between begin and end is an error of the CUDA runtime.

   Level: developer

.seealso: GPUPCGraphEndCapture(), GPUPCGraphLaunch()
@*/
PetscErrorCode GPUPCGraphBeginCapture(void)
{
  PetscFunctionBegin;
  PetscCall(RequireCUDA("GPUPCGraphBeginCapture"));
#if defined(GPUPC_HAVE_CUDA)
  PetscCall(GPUPCCUDAGraphBeginCapture());
#endif
  PetscFunctionReturn(0);
}

/*@C
   GPUPCGraphEndCapture - stop recording and make the recorded work launchable

   Not Collective

   Input Parameter:
.  keep - PETSC_FALSE discards what was recorded (use it when the recorded code failed)

   Output Parameter:
.  graph - the recording (NULL when discarded); free it with GPUPCGraphDestroy()

   Level: developer

.seealso: GPUPCGraphBeginCapture(), GPUPCGraphLaunch()
@*/
PetscErrorCode GPUPCGraphEndCapture(PetscBool keep, GPUPCGraph *graph)
{
  PetscFunctionBegin;
  *graph = NULL;
  PetscCall(RequireCUDA("GPUPCGraphEndCapture"));
#if defined(GPUPC_HAVE_CUDA)
  PetscCall(GPUPCCUDAGraphEndCapture(keep, graph));
#endif
  PetscFunctionReturn(0);
}

/*@C
   GPUPCGraphLaunch - run the recorded work on the rank's stream (asynchronously, like the launches it replaces)

   Not Collective

   Level: developer

.seealso: GPUPCGraphBeginCapture()
@*/
PetscErrorCode GPUPCGraphLaunch(GPUPCGraph graph)
{
  PetscFunctionBegin;
  PetscCheck(graph, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "GPUPCGraphLaunch: no recorded work (NULL graph)");
#if defined(GPUPC_HAVE_CUDA)
  PetscCall(GPUPCCUDAGraphLaunch(graph));
#endif
  PetscFunctionReturn(0);
}

/*@C
   GPUPCGraphGetSize - how many operations (kernel launches, memsets) the recording holds

   Not Collective

   Level: developer
@*/
PetscErrorCode GPUPCGraphGetSize(GPUPCGraph graph, size_t *nodes)
{
  PetscFunctionBegin;
  *nodes = 0;
#if defined(GPUPC_HAVE_CUDA)
  if (graph) PetscCall(GPUPCCUDAGraphGetSize(graph, nodes));
#endif
  PetscFunctionReturn(0);
}

/*@C
   GPUPCGraphDestroy - free a recording (NULL is allowed)

   Not Collective

   Level: developer
@*/
PetscErrorCode GPUPCGraphDestroy(GPUPCGraph *graph)
{
  PetscFunctionBegin;
#if defined(GPUPC_HAVE_CUDA)
  if (*graph) PetscCall(GPUPCCUDAGraphDestroy(*graph));
#endif
  *graph = NULL;
  PetscFunctionReturn(0);
}

/*
   CUDA graphs behind gpupc/device.h's recorded device work: stream capture on the rank's stream, one instantiation,
   replay with cudaGraphLaunch on the same stream.
*/
#include <gpupc/cuda.h>

struct _n_GPUPCGraph {
  cudaGraph_t     graph;
  cudaGraphExec_t exec;
  size_t          nodes;
};

PetscErrorCode GPUPCCUDAGraphBeginCapture(void)
{
  PetscFunctionBegin;
  /* thread-local: an unsafe call (synchronisation, allocation) from this thread fails instead of being recorded */
  GPUPCCallCUDA(cudaStreamBeginCapture(GPUPCCUDAStream(), cudaStreamCaptureModeThreadLocal));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCCUDAGraphEndCapture(PetscBool keep, GPUPCGraph *out)
{
  cudaGraph_t graph = NULL;
  GPUPCGraph  g;

  PetscFunctionBegin;
  GPUPCCallCUDA(cudaStreamEndCapture(GPUPCCUDAStream(), &graph));
  if (!keep) {
    if (graph) GPUPCCallCUDA(cudaGraphDestroy(graph));
    PetscFunctionReturn(0);
  }
  PetscCheck(graph, PETSC_COMM_SELF, PETSC_ERR_GPU, "CUDA stream capture returned no graph");
  PetscCall(PetscNew(&g));
  g->graph = graph;
  GPUPCCallCUDA(cudaGraphGetNodes(graph, NULL, &g->nodes));
  GPUPCCallCUDA(cudaGraphInstantiate(&g->exec, graph, 0));
  *out = g;
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCCUDAGraphLaunch(GPUPCGraph g)
{
  PetscFunctionBegin;
  GPUPCCallCUDA(cudaGraphLaunch(g->exec, GPUPCCUDAStream()));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCCUDAGraphGetSize(GPUPCGraph g, size_t *nodes)
{
  PetscFunctionBegin;
  *nodes = g->nodes;
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCCUDAGraphDestroy(GPUPCGraph g)
{
  PetscFunctionBegin;
  GPUPCCallCUDA(cudaGraphExecDestroy(g->exec));
  GPUPCCallCUDA(cudaGraphDestroy(g->graph));
  PetscCall(PetscFree(g));
  PetscFunctionReturn(0);
}

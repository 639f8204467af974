/*
   Halo plan for MPIAIJ-based GPU matrix types (gpupc/matgpu.h).

   Built from the off-diagonal block's column map (garray: global column of each ghost).
   Every owned entry that some rank needs is packed once (d_sendidx); a PetscSF whose roots
   are the packed buffer and whose leaves are the ghosts moves host copies of the values.
   Per product: gather on the device, one copy down, PetscSFBcast, one copy up.

   The host buffers are page-locked on the cuda backend, so both copies run at the link's
   speed and the copy up is only enqueued: the product that reads the ghosts follows it on
   the rank's stream, and the host goes on. The buffers are safe to reuse because every
   later write to them on the host comes after a copy down (which waits for the stream).
   No call here waits for the whole device, only for the rank's stream.

   Where every neighbour of every rank is on the same node and on another GPU (the usual one rank per GPU), the
   forward exchange goes directly from GPU to GPU instead (src/mat/utils/cuda/halopeer.cu, -gpupc_halo_peer): the
   readers pull the packed values from the owners' device buffers through CUDA IPC mappings, ordered by device-side
   flags, and the host waits for nothing. The reverse exchange (transpose products) is always staged.
*/
#include <gpupc/matgpu.h>

PetscLogEvent GPUPC_HaloSetUp, GPUPC_HaloForward, GPUPC_HaloReverse;
PetscLogEvent GPUPC_HaloPack, GPUPC_HaloExchange, GPUPC_HaloUnpack;

const char *const GPUPCHaloKernelNames[] = {GPUPC_HALO_KERNEL_LIST(GPUPC_KERNEL_NAME, ) NULL};

/*
   GPUPCGetHaloKernelsFor - the halo kernel table of a given backend (the CUDA table is only usable when the active
   backend is CUDA); GPUPCGetHaloKernels - the table of the active backend. A build without CUDA has no CUDA table:
   asking for it is an error, as for the other kernel tables (GPUPCKernelTableSelect).
*/
GPUPC_KERNEL_TABLE_GETTERS(GPUPCHaloKernels, Halo, "halo")

/*
   GPUPCHaloCreateFromLayout - the halo plan of a parallel matrix whose columns are laid out by cmap (on comm) for
   nghost ghost columns with global indices garray (sorted, as MatMPIAIJGetSeqAIJ gives them). Collective on comm.
   The Mat types give their column layout (GPUPCHaloCreate); the device-only shells of distributed blocks
   (devmatshellmpi.c) have no MPIAIJ and give theirs.
*/
PetscErrorCode GPUPCHaloCreateFromLayout(MPI_Comm comm, PetscLayout cmap, PetscInt nghost, const PetscInt *garray, GPUPCHalo *halo)
{
  GPUPCHalo       h;
  PetscSF         sf1;
  PetscSFNode    *remote;
  const PetscInt *degree;
  PetscInt        nroots = cmap->n, *cidx, *leafcidx, *sendidx, lastrank = -1;
  PetscMPIInt     owner;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(GPUPC_HaloSetUp, 0, 0, 0, 0));
  PetscCall(PetscNew(&h));
  h->nghost = nghost;
  /* plan 1: leaves = ghosts, roots = owned columns */
  PetscCall(PetscMalloc1(nghost, &remote));
  for (PetscInt k = 0; k < nghost; k++) {
    PetscInt idx;
    PetscCall(PetscLayoutFindOwnerIndex(cmap, garray[k], &owner, &idx));
    remote[k].rank  = owner;
    remote[k].index = idx;
    if (owner != lastrank) h->nneighbors++;
    lastrank = owner;
  }
  PetscCall(PetscSFCreate(comm, &sf1));
  PetscCall(PetscSFSetGraph(sf1, nroots, nghost, NULL, PETSC_COPY_VALUES, remote, PETSC_COPY_VALUES));
  PetscCall(PetscSFSetUp(sf1));
  /* owned entries needed by some rank: pack each once */
  PetscCall(PetscSFComputeDegreeBegin(sf1, &degree));
  PetscCall(PetscSFComputeDegreeEnd(sf1, &degree));
  PetscCall(PetscMalloc1(nroots, &cidx));
  PetscCall(PetscMalloc1(nghost, &leafcidx));
  h->nsend = 0;
  for (PetscInt r = 0; r < nroots; r++) cidx[r] = degree[r] > 0 ? h->nsend++ : -1;
  PetscCall(PetscMalloc1(h->nsend, &sendidx));
  for (PetscInt r = 0; r < nroots; r++)
    if (cidx[r] >= 0) sendidx[cidx[r]] = r;
  PetscCall(PetscSFBcastBegin(sf1, MPIU_INT, cidx, leafcidx, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(sf1, MPIU_INT, cidx, leafcidx, MPI_REPLACE));
  PetscCall(PetscSFDestroy(&sf1));
  /* plan 2: roots = packed buffer */
  for (PetscInt k = 0; k < nghost; k++) remote[k].index = leafcidx[k];
  PetscCall(PetscSFCreate(comm, &h->sf));
  PetscCall(PetscSFSetGraph(h->sf, h->nsend, nghost, NULL, PETSC_COPY_VALUES, remote, PETSC_OWN_POINTER));
  PetscCall(PetscSFSetUp(h->sf));
  PetscCall(GPUPCMallocArray(h->nsend, &h->d_sendidx));
  PetscCall(GPUPCCopyToDevice(h->d_sendidx, sendidx, h->nsend));
  PetscCall(GPUPCMallocArray(h->nsend, &h->d_send));
  PetscCall(GPUPCMallocArray(nghost, &h->d_ghost));
  PetscCall(GPUPCHostMalloc((size_t)h->nsend * sizeof(PetscScalar), (void **)&h->h_send, &h->send_pinned));
  PetscCall(GPUPCHostMalloc((size_t)nghost * sizeof(PetscScalar), (void **)&h->h_ghost, &h->ghost_pinned));
#if defined(GPUPC_HAVE_CUDA)
  {
    PetscGPUPCBackend backend;
    PetscBool         allow, force;
    PetscMPIInt      *owner;

    PetscCall(PetscGPUPCGetBackend(&backend));
    PetscCall(PetscGPUPCGetHaloPeer(&allow, &force));
    if (backend == PETSC_GPUPC_BACKEND_CUDA) {
      PetscCall(PetscMalloc1(nghost, &owner));
      for (PetscInt k = 0; k < nghost; k++) owner[k] = (PetscMPIInt)remote[k].rank;
      PetscCall(GPUPCHaloPeerCreate(h, comm, owner, leafcidx, force, allow));
      PetscCall(PetscFree(owner));
    }
  }
#endif
  PetscCall(PetscFree(sendidx));
  PetscCall(PetscFree(cidx));
  PetscCall(PetscFree(leafcidx));
  *halo = h;
  PetscCall(PetscLogEventEnd(GPUPC_HaloSetUp, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*
   GPUPCHaloCreate - the halo plan of a parallel matrix A for nghost ghost columns with global indices garray (sorted,
   as MatMPIAIJGetSeqAIJ gives them): GPUPCHaloCreateFromLayout() on A's column layout. Collective on A.
*/
PetscErrorCode GPUPCHaloCreate(Mat A, PetscInt nghost, const PetscInt *garray, GPUPCHalo *halo)
{
  PetscFunctionBegin;
  PetscCall(GPUPCHaloCreateFromLayout(PetscObjectComm((PetscObject)A), A->cmap, nghost, garray, halo));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCHaloDestroy(GPUPCHalo *halo)
{
  GPUPCHalo h = *halo;

  PetscFunctionBegin;
  if (!h) PetscFunctionReturn(0);
#if defined(GPUPC_HAVE_CUDA)
  PetscCall(GPUPCHaloPeerDestroy(h));
#endif
  PetscCall(PetscSFDestroy(&h->sf));
  PetscCall(GPUPCFree(h->d_sendidx));
  PetscCall(GPUPCFree(h->d_send));
  PetscCall(GPUPCFree(h->d_ghost));
  PetscCall(GPUPCHostFree(h->h_send, h->send_pinned));
  PetscCall(GPUPCHostFree(h->h_ghost, h->ghost_pinned));
  PetscCall(PetscFree(h));
  *halo = NULL;
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCHaloForwardBegin(GPUPCHalo h, const PetscScalar *d_x)
{
  const GPUPCHaloKernels *k;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(GPUPC_HaloForward, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(GPUPC_HaloPack, 0, 0, 0, 0));
  PetscCall(GPUPCGetHaloKernels(&k));
#if defined(GPUPC_HAVE_CUDA)
  if (h->peer) {
    PetscCall(GPUPCHaloPeerPackBegin(h));
    PetscCall(k->gather(h->nsend, h->d_sendidx, d_x, h->d_peersend));
    PetscCall(GPUPCHaloPeerPackEnd(h));
    PetscCall(PetscLogEventEnd(GPUPC_HaloPack, 0, 0, 0, 0));
    PetscCall(PetscLogEventEnd(GPUPC_HaloForward, 0, 0, 0, 0));
    PetscFunctionReturn(0);
  }
#endif
  PetscCall(k->gather(h->nsend, h->d_sendidx, d_x, h->d_send));
  PetscCall(GPUPCCopyToHost(h->h_send, h->d_send, h->nsend));
  PetscCall(PetscLogEventEnd(GPUPC_HaloPack, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(GPUPC_HaloExchange, 0, 0, 0, 0));
  PetscCall(PetscSFBcastBegin(h->sf, MPIU_SCALAR, h->h_send, h->h_ghost, MPI_REPLACE));
  PetscCall(PetscLogEventEnd(GPUPC_HaloExchange, 0, 0, 0, 0));
  PetscCall(PetscLogEventEnd(GPUPC_HaloForward, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCHaloForwardEnd(GPUPCHalo h, const PetscScalar **d_ghost)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(GPUPC_HaloForward, 0, 0, 0, 0));
#if defined(GPUPC_HAVE_CUDA)
  if (h->peer) {
    PetscCall(PetscLogEventBegin(GPUPC_HaloUnpack, 0, 0, 0, 0));
    PetscCall(GPUPCHaloPeerPull(h));
    PetscCall(PetscLogEventEnd(GPUPC_HaloUnpack, 0, 0, 0, 0));
    *d_ghost = h->d_ghost;
    PetscCall(PetscLogEventEnd(GPUPC_HaloForward, 0, 0, 0, 0));
    PetscFunctionReturn(0);
  }
#endif
  PetscCall(PetscLogEventBegin(GPUPC_HaloExchange, 0, 0, 0, 0));
  PetscCall(PetscSFBcastEnd(h->sf, MPIU_SCALAR, h->h_send, h->h_ghost, MPI_REPLACE));
  PetscCall(PetscLogEventEnd(GPUPC_HaloExchange, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(GPUPC_HaloUnpack, 0, 0, 0, 0));
  PetscCall(GPUPCCopyToDeviceNoWait(h->d_ghost, h->h_ghost, (size_t)h->nghost * sizeof(PetscScalar), h->ghost_pinned));
  PetscCall(PetscLogEventEnd(GPUPC_HaloUnpack, 0, 0, 0, 0));
  *d_ghost = h->d_ghost;
  PetscCall(PetscLogEventEnd(GPUPC_HaloForward, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCHaloReverseBegin(GPUPCHalo h)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(GPUPC_HaloReverse, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(GPUPC_HaloPack, 0, 0, 0, 0));
  PetscCall(GPUPCCopyToHost(h->h_ghost, h->d_ghost, h->nghost));
  PetscCall(PetscArrayzero(h->h_send, h->nsend));
  PetscCall(PetscLogEventEnd(GPUPC_HaloPack, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(GPUPC_HaloExchange, 0, 0, 0, 0));
  PetscCall(PetscSFReduceBegin(h->sf, MPIU_SCALAR, h->h_ghost, h->h_send, MPIU_SUM));
  PetscCall(PetscLogEventEnd(GPUPC_HaloExchange, 0, 0, 0, 0));
  PetscCall(PetscLogEventEnd(GPUPC_HaloReverse, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCHaloReverseEnd(GPUPCHalo h, PetscScalar *d_y)
{
  const GPUPCHaloKernels *k;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(GPUPC_HaloReverse, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(GPUPC_HaloExchange, 0, 0, 0, 0));
  PetscCall(PetscSFReduceEnd(h->sf, MPIU_SCALAR, h->h_ghost, h->h_send, MPIU_SUM));
  PetscCall(PetscLogEventEnd(GPUPC_HaloExchange, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(GPUPC_HaloUnpack, 0, 0, 0, 0));
  PetscCall(GPUPCCopyToDeviceNoWait(h->d_send, h->h_send, (size_t)h->nsend * sizeof(PetscScalar), h->send_pinned));
  PetscCall(GPUPCGetHaloKernels(&k));
  PetscCall(k->scatteradd(h->nsend, h->d_sendidx, h->d_send, d_y));
  PetscCall(PetscLogEventEnd(GPUPC_HaloUnpack, 0, 0, 0, 0));
  PetscCall(PetscLogEventEnd(GPUPC_HaloReverse, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

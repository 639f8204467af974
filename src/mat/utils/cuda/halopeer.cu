/*
   Direct halo exchange between the GPUs of one node (gpupc/matgpu.h): CUDA IPC instead of host staging and MPI.

   Every rank owns one device allocation that the ranks next to it map (cudaIpcOpenMemHandle):
     [ ready | consumed | padding to 256 bytes | packed send buffer (nsend values) ]
   ready is the number of the last forward exchange whose values this rank has packed, consumed the number of the last
   one whose ghosts it has read from its owners. A forward exchange r, all on the rank's stream:
     owner:  wait until every reader's consumed >= r - 1 (the buffer is free again), gather x into the send buffer,
             ready = r
     reader: wait until every owner's ready >= r, read the ghosts from the owners' send buffers (NVLink or PCIe peer
             reads), consumed = r
   The waits are one-warp kernels that poll the peers' flags with system-scope acquire loads; flags are written with
   system-scope release stores after a system fence. The exchange number r lives on the device (incremented by the
   owner's first kernel), so a recorded CUDA graph of exchanges stays valid when replayed. The host never waits, so
   the rank's host runs ahead of its device as on one rank. Every rank runs the same sequence of exchanges of a halo (they are collective), so every
   wait is for work that the peer's host has already enqueued or will enqueue before it waits for anything.

   The plan is chosen at creation, collectively: all of a rank's neighbours on its node, on other GPUs (two ranks on
   one GPU would spin against each other's time slices without MPS), and every IPC mapping opened; else every rank
   of the halo stays on the staged path. -gpupc_halo_peer forces it on (ranks sharing a GPU too) or off.
*/
#include <gpupc/cuda.h>
#include <gpupc/device.h>
#include <gpupc/matgpu.h>

#define FLAG_BYTES 256

typedef unsigned long long Flag;

struct _n_GPUPCHaloPeer {
  MPI_Comm      comm;
  void         *base;  /* this rank's allocation: flags, then the send buffer */
  Flag         *flags; /* [0] ready, [1] consumed, [2] the number of the current exchange (read locally) */
  PetscInt      nowners, nreaders;
  void        **opened; /* peers' mapped allocations, to close (nopened of them) */
  PetscInt      nopened;
  Flag        **d_owner_flags;  /* device array: each owner's flags */
  Flag        **d_reader_flags; /* device array: each reader's flags */
  PetscScalar **d_owner_send;   /* device array: each owner's send buffer */
  int          *d_ghost_owner;  /* per ghost: its owner's place in d_owner_send */
  PetscInt     *d_ghost_src;    /* per ghost: its index in that owner's send buffer */
};

__device__ __forceinline__ Flag LoadAcquireSys(const Flag *p)
{
  Flag v;
  asm volatile("ld.acquire.sys.global.u64 %0, [%1];"
               : "=l"(v)
               : "l"(p)
               : "memory");
  return v;
}

__device__ __forceinline__ void StoreReleaseSys(Flag *p, Flag v)
{
  asm volatile("st.release.sys.global.u64 [%0], %1;" ::"l"(p), "l"(v)
               : "memory");
}

/* the owner's start of an exchange: round += 1; then wait until every reader has consumed the exchange before */
__global__ void HaloPeerPackBeginKernel(int n, Flag *const *readers, Flag *round)
{
  __shared__ Flag r;
  if (threadIdx.x == 0) r = *round + 1;
  __syncthreads();
  if (threadIdx.x == 0) *round = r;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    const Flag *f = readers[i] + 1;
    while (LoadAcquireSys(f) < r - 1) __nanosleep(32);
  }
}

/* the reader's wait: every owner has packed the current exchange */
__global__ void HaloPeerWaitOwnersKernel(int n, Flag *const *owners, const Flag *round)
{
  const Flag r = *round;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    const Flag *f = owners[i];
    while (LoadAcquireSys(f) < r) __nanosleep(32);
  }
}

/* flag = the current exchange's number, after everything the stream wrote before it */
__global__ void HaloPeerSignalKernel(Flag *flag, const Flag *round)
{
  __threadfence_system();
  StoreReleaseSys(flag, *round);
}

/* ghost[k] = (owner's send buffer)[src[k]]: reads from the peers' memory, not cached */
__global__ void HaloPeerPullKernel(int n, const int *__restrict__ owner, const PetscInt *__restrict__ src, PetscScalar *const *send, PetscScalar *__restrict__ ghost)
{
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x) ghost[k] = __ldcv(send[owner[k]] + src[k]);
}

static PetscErrorCode Signal(GPUPCHaloPeer p, PetscInt slot)
{
  PetscFunctionBegin;
  HaloPeerSignalKernel<<<1, 1, 0, GPUPCCUDAStream()>>>(&p->flags[slot], &p->flags[2]);
  GPUPCCheckLaunch("HaloPeerSignalKernel");
  PetscFunctionReturn(0);
}

/* the ranks of comm on this rank's node, by their node's smallest rank; and each rank's GPU (PCI bus id) */
static PetscErrorCode Placement(MPI_Comm comm, PetscMPIInt size, PetscMPIInt **leader, char (**bus)[32])
{
  MPI_Comm    node;
  PetscMPIInt me, noderank, mine;
  char        bus_mine[32] = {0};
  int         dev;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &me));
  PetscCallMPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
  PetscCallMPI(MPI_Comm_rank(node, &noderank));
  mine = me;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &mine, 1, MPI_INT, MPI_MIN, node));
  PetscCallMPI(MPI_Comm_free(&node));
  PetscCall(PetscMalloc2(size, leader, size, bus));
  PetscCallMPI(MPI_Allgather(&mine, 1, MPI_INT, *leader, 1, MPI_INT, comm));
  GPUPCCallCUDA(cudaGetDevice(&dev));
  GPUPCCallCUDA(cudaDeviceGetPCIBusId(bus_mine, (int)sizeof(bus_mine) - 1, dev));
  PetscCallMPI(MPI_Allgather(bus_mine, 32, MPI_CHAR, *bus, 32, MPI_CHAR, comm));
  PetscFunctionReturn(0);
}

static PetscErrorCode Close(GPUPCHaloPeer p)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < p->nopened; i++) GPUPCCallCUDA(cudaIpcCloseMemHandle(p->opened[i]));
  p->nopened = 0;
  PetscFunctionReturn(0);
}

/*
   GPUPCHaloPeerCreate - the direct exchange of halo h, when it can be made (collective on comm; see the top of the
   file). owner[k] is the rank that owns ghost k and src[k] its index in that rank's packed send buffer. On return
   h->peer says whether it was made; then h->d_peersend is where the owned values are packed.
*/
PetscErrorCode GPUPCHaloPeerCreate(GPUPCHalo h, MPI_Comm comm, const PetscMPIInt owner[], const PetscInt src[], PetscBool force, PetscBool allow)
{
  GPUPCHaloPeer      p;
  PetscMPIInt        size, me, nreaders, *readers_ranks, *leader, *slot;
  const PetscMPIInt *iranks;
  const PetscInt    *ioffset, *irootloc;
  char(*bus)[32];
  cudaIpcMemHandle_t mine, *all;
  PetscInt           nowners = 0, nopen = 0;
  PetscMPIInt       *owners;
  int                ok = 1, allok;
  Flag             **h_of, **h_rf;
  PetscScalar      **h_os;
  int               *h_go;

  PetscFunctionBegin;
  h->peer     = PETSC_FALSE;
  h->peerplan = NULL;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &me));
  if (size == 1 || !allow) PetscFunctionReturn(0);
  PetscCall(PetscSFGetLeafRanks(h->sf, &nreaders, &iranks, &ioffset, &irootloc));
  PetscCall(PetscMalloc1(nreaders, &readers_ranks));
  for (PetscMPIInt i = 0; i < nreaders; i++) readers_ranks[i] = iranks[i];
  PetscCall(PetscMalloc1(h->nghost, &owners));
  for (PetscInt k = 0; k < h->nghost; k++) /* owners in ghost order (increasing: garray is sorted) */
    if (nowners == 0 || owners[nowners - 1] != owner[k]) owners[nowners++] = owner[k];
  PetscCall(Placement(comm, size, &leader, &bus));
  for (PetscInt i = 0; i < nowners + nreaders; i++) {
    PetscMPIInt r = i < nowners ? owners[i] : readers_ranks[i - nowners];
    if (leader[r] != leader[me]) ok = 0;                       /* another node: MPI only */
    if (!force && !strcmp(bus[r], bus[me]) && r != me) ok = 0; /* a shared GPU: staged unless forced */
  }
  PetscCallMPI(MPI_Allreduce(&ok, &allok, 1, MPI_INT, MPI_MIN, comm));
  if (!allok) {
    PetscCall(PetscInfo(NULL, "halo: staged through the host (a neighbour is on another node%s)\n", force ? "" : " or shares this rank's GPU"));
    PetscCall(PetscFree2(leader, bus));
    PetscCall(PetscFree(owners));
    PetscCall(PetscFree(readers_ranks));
    PetscFunctionReturn(0);
  }

  PetscCall(PetscNew(&p));
  p->comm     = comm;
  p->nowners  = nowners;
  p->nreaders = nreaders;
  PetscCall(GPUPCMallocShareable(FLAG_BYTES + (size_t)PetscMax(h->nsend, 1) * sizeof(PetscScalar), &p->base)); /* counted by PetscGPUPCDeviceMemoryInUse; outside the stream-ordered pool, so IPC can map it */
  GPUPCCallCUDA(cudaMemset(p->base, 0, FLAG_BYTES));
  p->flags      = (Flag *)p->base;
  h->d_peersend = (PetscScalar *)((char *)p->base + FLAG_BYTES);
  GPUPCCallCUDA(cudaIpcGetMemHandle(&mine, p->base));
  PetscCall(PetscMalloc1(size, &all));
  PetscCallMPI(MPI_Allgather(&mine, (int)sizeof(mine), MPI_BYTE, all, (int)sizeof(mine), MPI_BYTE, comm));

  /* map every neighbour once: slot[r] is the place of rank r's mapping */
  PetscCall(PetscMalloc1(size, &slot));
  for (PetscMPIInt r = 0; r < size; r++) slot[r] = -1;
  PetscCall(PetscMalloc1(nowners + nreaders, &p->opened));
  GPUPCCallCUDA(cudaDeviceSynchronize()); /* the memset is done before any peer reads the flags */
  PetscCallMPI(MPI_Barrier(comm));
  for (PetscInt i = 0; i < nowners + nreaders; i++) {
    PetscMPIInt r = i < nowners ? owners[i] : readers_ranks[i - nowners];
    if (slot[r] >= 0) continue;
    if (r == me) ok = 0; /* a ghost this rank owns cannot occur in an off-diagonal block: no direct plan then */
    if (ok) {
      void       *ptr = NULL;
      cudaError_t err = cudaIpcOpenMemHandle(&ptr, all[r], cudaIpcMemLazyEnablePeerAccess);
      if (err != cudaSuccess) {
        (void)cudaGetLastError();
        ok = 0;
        PetscCall(PetscInfo(NULL, "halo: cudaIpcOpenMemHandle for rank %d failed (%s): staged through the host\n", (int)r, cudaGetErrorString(err)));
      } else {
        slot[r]            = (PetscMPIInt)nopen;
        p->opened[nopen++] = ptr;
        p->nopened         = nopen;
      }
    }
  }
  PetscCallMPI(MPI_Allreduce(&ok, &allok, 1, MPI_INT, MPI_MIN, comm));
  if (!allok) {
    PetscCall(Close(p));
    PetscCall(GPUPCFreeShareable(p->base));
    PetscCall(PetscFree(p->opened));
    PetscCall(PetscFree(p));
    h->d_peersend = NULL;
  } else {
    PetscCall(PetscMalloc4(PetscMax(nowners, 1), &h_of, PetscMax(nreaders, 1), &h_rf, PetscMax(nowners, 1), &h_os, PetscMax(h->nghost, 1), &h_go));
    for (PetscInt i = 0; i < nowners; i++) {
      char *b = (char *)p->opened[slot[owners[i]]];
      h_of[i] = (Flag *)b;
      h_os[i] = (PetscScalar *)(b + FLAG_BYTES);
    }
    for (PetscInt i = 0; i < nreaders; i++) h_rf[i] = (Flag *)p->opened[slot[readers_ranks[i]]];
    for (PetscInt k = 0, i = 0; k < h->nghost; k++) {
      while (owners[i] != owner[k]) i++;
      h_go[k] = (int)i;
    }
    PetscCall(GPUPCMallocShareable(PetscMax(nowners, 1) * sizeof(Flag *), (void **)&p->d_owner_flags));
    PetscCall(GPUPCMallocShareable(PetscMax(nreaders, 1) * sizeof(Flag *), (void **)&p->d_reader_flags));
    PetscCall(GPUPCMallocShareable(PetscMax(nowners, 1) * sizeof(PetscScalar *), (void **)&p->d_owner_send));
    PetscCall(GPUPCMallocShareable(PetscMax(h->nghost, 1) * sizeof(int), (void **)&p->d_ghost_owner));
    PetscCall(GPUPCMallocShareable(PetscMax(h->nghost, 1) * sizeof(PetscInt), (void **)&p->d_ghost_src));
    GPUPCCallCUDA(cudaMemcpy(p->d_owner_flags, h_of, nowners * sizeof(Flag *), cudaMemcpyHostToDevice));
    GPUPCCallCUDA(cudaMemcpy(p->d_reader_flags, h_rf, nreaders * sizeof(Flag *), cudaMemcpyHostToDevice));
    GPUPCCallCUDA(cudaMemcpy(p->d_owner_send, h_os, nowners * sizeof(PetscScalar *), cudaMemcpyHostToDevice));
    GPUPCCallCUDA(cudaMemcpy(p->d_ghost_owner, h_go, h->nghost * sizeof(int), cudaMemcpyHostToDevice));
    GPUPCCallCUDA(cudaMemcpy(p->d_ghost_src, src, h->nghost * sizeof(PetscInt), cudaMemcpyHostToDevice));
    PetscCall(PetscFree4(h_of, h_rf, h_os, h_go));
    h->peer     = PETSC_TRUE;
    h->peerplan = p;
    PetscCall(PetscInfo(NULL, "halo: direct between GPUs (CUDA IPC): %" PetscInt_FMT " owners, %" PetscInt_FMT " readers on this rank\n", nowners, nreaders));
  }
  PetscCall(PetscFree(all));
  PetscCall(PetscFree(slot));
  PetscCall(PetscFree2(leader, bus));
  PetscCall(PetscFree(owners));
  PetscCall(PetscFree(readers_ranks));
  PetscFunctionReturn(0);
}

/* collective: no peer may still read this rank's buffer, nor this rank theirs, when the mappings go */
PetscErrorCode GPUPCHaloPeerDestroy(GPUPCHalo h)
{
  GPUPCHaloPeer p = h->peerplan;

  PetscFunctionBegin;
  if (!p) PetscFunctionReturn(0);
  GPUPCCallCUDA(cudaStreamSynchronize(GPUPCCUDAStream()));
  PetscCallMPI(MPI_Barrier(p->comm));
  PetscCall(Close(p));
  PetscCall(GPUPCFreeShareable(p->d_owner_flags));
  PetscCall(GPUPCFreeShareable(p->d_reader_flags));
  PetscCall(GPUPCFreeShareable(p->d_owner_send));
  PetscCall(GPUPCFreeShareable(p->d_ghost_owner));
  PetscCall(GPUPCFreeShareable(p->d_ghost_src));
  PetscCall(GPUPCFreeShareable(p->base));
  PetscCall(PetscFree(p->opened));
  PetscCall(PetscFree(p));
  h->peerplan   = NULL;
  h->peer       = PETSC_FALSE;
  h->d_peersend = NULL;
  PetscFunctionReturn(0);
}

/* before the owner packs exchange r: its readers are done with exchange r - 1 */
PetscErrorCode GPUPCHaloPeerPackBegin(GPUPCHalo h)
{
  GPUPCHaloPeer p = h->peerplan;

  PetscFunctionBegin;
  HaloPeerPackBeginKernel<<<1, 32, 0, GPUPCCUDAStream()>>>((int)p->nreaders, p->d_reader_flags, &p->flags[2]);
  GPUPCCheckLaunch("HaloPeerPackBeginKernel");
  PetscFunctionReturn(0);
}

/* after the owner packed exchange r */
PetscErrorCode GPUPCHaloPeerPackEnd(GPUPCHalo h)
{
  GPUPCHaloPeer p = h->peerplan;

  PetscFunctionBegin;
  if (p->nreaders > 0) PetscCall(Signal(p, 0));
  PetscFunctionReturn(0);
}

/* the reader's side of exchange r: wait for the owners, read the ghosts into h->d_ghost, release the owners' buffers */
PetscErrorCode GPUPCHaloPeerPull(GPUPCHalo h)
{
  GPUPCHaloPeer p = h->peerplan;

  PetscFunctionBegin;
  if (p->nowners == 0) PetscFunctionReturn(0);
  HaloPeerWaitOwnersKernel<<<1, 32, 0, GPUPCCUDAStream()>>>((int)p->nowners, p->d_owner_flags, &p->flags[2]);
  GPUPCCheckLaunch("HaloPeerWaitOwnersKernel");
  HaloPeerPullKernel<<<GPUPCCUDAGridSize(h->nghost, 256), 256, 0, GPUPCCUDAStream()>>>((int)h->nghost, p->d_ghost_owner, p->d_ghost_src, p->d_owner_send, h->d_ghost);
  GPUPCCheckLaunch("HaloPeerPullKernel");
  PetscCall(Signal(p, 1));
  PetscFunctionReturn(0);
}

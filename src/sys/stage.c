/*
   Staged host-to-device uploads (gpupc/stage.h): the rank's page-locked staging buffers, shared by PC cmg's hierarchy
   upload and the segcsr value update.

   Pipeline of one upload (cuda backend): chunk c takes buffer j = (next++) mod GPUPC_STAGE_BUFFERS; the host waits for
   the event of j's previous copy (if that copy is still in flight), the threads fill j with chunk c, then the copy of
   j to its destination is enqueued on the rank's stream with an event after it, and the host goes on to chunk c+1
   while the copy runs. So the device sees back-to-back copies as long as the threads fill a buffer faster than the
   link empties one, and the upload costs max(fill, transfer) plus the fill of the first chunk. The buffers are taken
   round robin across uploads too, so an upload that follows another does not wait for the copy just enqueued.
*/
#include <gpupc/stage.h>
#include <gpupc/threads.h>
#include <string.h>

/* a fill thread gets at least this many bytes (below that the threads cost more than they save) */
#define GPUPC_STAGE_MIN_PIECE ((size_t)256 << 10)

typedef struct {
  PetscBool         ready;                         /* buffers allocated */
  PetscGPUPCBackend backend;                       /* the backend they were allocated for */
  size_t            bytes;                         /* of each buffer */
  char             *host[GPUPC_STAGE_BUFFERS];     /* page-locked on the cuda backend */
  PetscBool         pinned;                        /* host[] is page-locked */
  void             *land[GPUPC_STAGE_BUFFERS];     /* device landing buffers of GPUPCStageStream, NULL until its first use */
  void             *left[GPUPC_STAGE_BUFFERS];     /* cuda: event recorded after the copy out of host[j] */
  PetscBool         inflight[GPUPC_STAGE_BUFFERS]; /* cuda: a copy out of host[j] was enqueued and not waited for */
  PetscInt          next;                          /* the buffer the next chunk takes */
} GPUPCStageBuffers;

static GPUPCStageBuffers stage;
static size_t            stage_bytes   = (size_t)8 << 20; /* -gpupc_stage_bytes */
static PetscInt          stage_threads = 0;               /* -gpupc_upload_threads; 0: GPUPCStageDefaultThreads' rule */

/* the options read with the device's (GPUPCDeviceReadOptions): bytes of each staging buffer (0: keep) and the fill
   threads of uploads that do not name their own (0: the default rule) */
PetscErrorCode GPUPCStageSetOptions(PetscInt bytes, PetscInt threads)
{
  PetscFunctionBegin;
  PetscCheck(bytes == 0 || bytes >= 64, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-gpupc_stage_bytes %" PetscInt_FMT " is too small; use at least 64 (default 8388608, 8 MiB)", bytes);
  PetscCheck(threads >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-gpupc_upload_threads must be at least 1 (or 0 for the default), got %" PetscInt_FMT, threads);
  PetscCheck(!stage.ready || bytes == 0 || (size_t)bytes == stage.bytes, PETSC_COMM_SELF, PETSC_ERR_ORDER, "-gpupc_stage_bytes cannot change after the staging buffers were allocated");
  if (bytes) stage_bytes = (size_t)bytes;
  stage_threads = threads;
  PetscFunctionReturn(0);
}

/* GPUPCStageDefaultThreads - the threads that fill the staging buffers in an upload that does not choose its own:
   -gpupc_upload_threads, else GPUPCDefaultHostThreads() */
PetscErrorCode GPUPCStageDefaultThreads(PetscInt *threads)
{
  PetscFunctionBegin;
  if (stage_threads > 0) *threads = stage_threads;
  else PetscCall(GPUPCDefaultHostThreads(threads));
  PetscFunctionReturn(0);
}

static PetscErrorCode StageSetUp(void)
{
  PetscFunctionBegin;
  if (stage.ready) PetscFunctionReturn(0);
  PetscCall(PetscGPUPCGetBackend(&stage.backend));
  stage.bytes = stage_bytes;
  for (int j = 0; j < GPUPC_STAGE_BUFFERS; j++) {
    PetscCall(GPUPCHostMalloc(stage.bytes, (void **)&stage.host[j], &stage.pinned));
#if defined(GPUPC_HAVE_CUDA)
    if (stage.backend == PETSC_GPUPC_BACKEND_CUDA) PetscCall(GPUPCCUDAEventCreate(&stage.left[j]));
#endif
  }
  stage.ready = PETSC_TRUE;
  PetscCall(PetscInfo(NULL, "GPUPC: %d staging buffers of %zu bytes (%s)\n", GPUPC_STAGE_BUFFERS, stage.bytes, stage.pinned ? "page-locked" : "pageable: host backend"));
  PetscFunctionReturn(0);
}

/* the device landing buffers of GPUPCStageStream: scratch of the device layer like the reduction buffers (kept until
   PetscFinalize, outside PetscGPUPCDeviceMemoryInUse, which counts what objects hold) */
static PetscErrorCode LandSetUp(void)
{
  PetscFunctionBegin;
  if (stage.land[0]) PetscFunctionReturn(0);
  for (int j = 0; j < GPUPC_STAGE_BUFFERS; j++) {
#if defined(GPUPC_HAVE_CUDA)
    if (stage.backend == PETSC_GPUPC_BACKEND_CUDA) PetscCall(GPUPCCUDAMalloc(stage.bytes, &stage.land[j]));
    else
#endif
      PetscCall(PetscMalloc(stage.bytes, &stage.land[j]));
  }
  PetscFunctionReturn(0);
}

/* the next buffer, free for filling: waits for its previous copy if that is still in flight */
static PetscErrorCode Acquire(PetscInt *j)
{
  PetscFunctionBegin;
  *j         = stage.next;
  stage.next = (stage.next + 1) % GPUPC_STAGE_BUFFERS;
#if defined(GPUPC_HAVE_CUDA)
  if (stage.inflight[*j]) {
    PetscCall(GPUPCCUDAEventWait(stage.left[*j]));
    stage.inflight[*j] = PETSC_FALSE;
  }
#endif
  PetscFunctionReturn(0);
}

/* enqueues the copy of the first bytes of buffer j to the device address d (cuda: asynchronous, an event after it) */
static PetscErrorCode Send(PetscInt j, void *d, size_t bytes)
{
  PetscFunctionBegin;
#if defined(GPUPC_HAVE_CUDA)
  if (stage.backend == PETSC_GPUPC_BACKEND_CUDA) {
    PetscCall(GPUPCCUDACopyToDeviceAsync(d, stage.host[j], bytes, stage.left[j]));
    stage.inflight[j] = PETSC_TRUE;
    PetscFunctionReturn(0);
  }
#endif
  PetscCall(PetscMemcpy(d, stage.host[j], bytes));
  PetscFunctionReturn(0);
}

/* dst[0 .. m) = src[0 .. m): bytes when hs == ds, else PetscReal to float; split over up to nt threads (no PETSc call) */
static void Fill(PetscInt nt, size_t m, const void *src, size_t hs, void *dst, size_t ds)
{
  nt = (PetscInt)PetscMax(1, PetscMin((size_t)nt, m * ds / GPUPC_STAGE_MIN_PIECE));
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (PetscInt b = 0; b < nt; b++) {
    const size_t lo = m * (size_t)b / (size_t)nt, hi = m * (size_t)(b + 1) / (size_t)nt;
    if (hs == ds) memcpy((char *)dst + lo * ds, (const char *)src + lo * hs, (hi - lo) * ds);
    else
      for (size_t i = lo; i < hi; i++) ((float *)dst)[i] = (float)((const PetscReal *)src)[i];
  }
}

static PetscErrorCode CheckSizes(size_t hs, size_t ds, const char *who)
{
  PetscFunctionBegin;
  PetscCheck(hs == ds || (hs == sizeof(PetscReal) && ds == sizeof(float)), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: items of %zu host bytes cannot become %zu device bytes (same size, or PetscReal to float)", who, hs, ds);
  PetscCheck(ds > 0 && ds <= 64, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: items of %zu bytes", who, ds);
  PetscFunctionReturn(0);
}

/* the chunk loop of both uploads: the n items of h (hs bytes each) are filled into the staging buffers as items of ds
   bytes, each chunk copied to d (its place in the destination) or, with d NULL, to a landing buffer handed to consume */
static PetscErrorCode Chunks(PetscInt threads, size_t n, const void *h, size_t hs, size_t ds, void *d, GPUPCStageConsumer consume, void *ctx)
{
  size_t per;

  PetscFunctionBegin;
  if (!n) PetscFunctionReturn(0);
  if (threads <= 0) PetscCall(GPUPCStageDefaultThreads(&threads));
  PetscCall(StageSetUp());
  if (!d) PetscCall(LandSetUp());
  PetscCall(PetscLogEventBegin(GPUPC_CopyToDevice, 0, 0, 0, 0));
  per = stage.bytes / ds;
  for (size_t i0 = 0; i0 < n; i0 += per) {
    const size_t m = PetscMin(per, n - i0);
    PetscInt     j;

    PetscCall(Acquire(&j));
    Fill(threads, m, (const char *)h + i0 * hs, hs, stage.host[j], ds);
    PetscCall(Send(j, d ? (char *)d + i0 * ds : stage.land[j], m * ds));
    if (!d) PetscCall(consume(ctx, i0, m, stage.land[j]));
  }
  PetscCall(PetscLogEventEnd(GPUPC_CopyToDevice, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*
   GPUPCStageCopyToDevice - d[0 .. n) = h[0 .. n) through the staging buffers

   Input Parameters:
+  threads - host threads that fill the buffers (<= 0: GPUPCStageDefaultThreads())
.  n       - items
.  h, hs   - the host array and the bytes of its items
-  ds      - the bytes of a device item: hs (a copy), or sizeof(float) for hs = sizeof(PetscReal) (a conversion)

   Output Parameter:
.  d - the device array (n items of ds bytes)

   Notes:
   Returns once h has been read; the copies may still be in flight, ordered on the rank's stream before any later
   device work of GPUPC (cuda backend). Not from inside a recorded graph (GPUPCGraphBeginCapture).
*/
PetscErrorCode GPUPCStageCopyToDevice(PetscInt threads, size_t n, const void *h, size_t hs, void *d, size_t ds)
{
  PetscFunctionBegin;
  PetscCall(CheckSizes(hs, ds, "GPUPCStageCopyToDevice"));
  PetscCall(Chunks(threads, n, h, hs, ds, d, NULL, NULL));
  PetscFunctionReturn(0);
}

/*
   GPUPCStageStream - the n items of h (es bytes each) reach the device chunk by chunk, each handed to consume

   Input Parameters:
+  threads - host threads that fill the buffers (<= 0: GPUPCStageDefaultThreads())
.  n       - items
.  h, es   - the host array and the bytes of an item
.  consume - called once per chunk, in order, with the chunk's first item, its count (at most -gpupc_stage_bytes / es)
             and its device landing address (see GPUPCStageConsumer)
-  ctx     - passed to consume

   Notes:
   What the consumer enqueues runs on the rank's stream after the chunk's copy; a landing buffer is overwritten only by
   a copy enqueued after the consumer of its previous chunk. Returns once h has been read (copies and consumers' work
   may still be in flight). Not from inside a recorded graph.
*/
PetscErrorCode GPUPCStageStream(PetscInt threads, size_t n, const void *h, size_t es, GPUPCStageConsumer consume, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(CheckSizes(es, es, "GPUPCStageStream"));
  PetscCall(Chunks(threads, n, h, es, es, NULL, consume, ctx));
  PetscFunctionReturn(0);
}

/* releases the staging buffers (from GPUPCDeviceFinalize, before the stream goes) */
PetscErrorCode GPUPCStageFinalize(void)
{
  PetscFunctionBegin;
  if (!stage.ready) PetscFunctionReturn(0);
#if defined(GPUPC_HAVE_CUDA)
  if (stage.backend == PETSC_GPUPC_BACKEND_CUDA) PetscCall(GPUPCSynchronize()); /* no copy or consumer still uses them */
#endif
  for (int j = 0; j < GPUPC_STAGE_BUFFERS; j++) {
#if defined(GPUPC_HAVE_CUDA)
    if (stage.backend == PETSC_GPUPC_BACKEND_CUDA) {
      PetscCall(GPUPCCUDAEventDestroy(stage.left[j]));
      if (stage.land[j]) PetscCall(GPUPCCUDAFree(stage.land[j]));
    } else
#endif
      PetscCall(PetscFree(stage.land[j]));
    PetscCall(GPUPCHostFree(stage.host[j], stage.pinned));
  }
  PetscCall(PetscMemzero(&stage, sizeof(stage)));
  PetscFunctionReturn(0);
}

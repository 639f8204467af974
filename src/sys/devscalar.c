/*
   The pool of device scalars read back by the host (gpupc/devscalar.h): GPUPC_DEVSCALAR_SLOTS slots of
   GPUPC_DEVSCALAR_BYTES bytes on the device and their host mirrors (GPUPCHostMalloc: page-locked on the cuda backend,
   so both copies are asynchronous and a read back waits once), allocated at the first GPUPCDevScalarGet() and freed by
   GPUPCDeviceFinalize(). One rank's stream uses them in order, so a slot's mirror is only touched by its own copies.
*/
#include <gpupc/devscalar.h>

static char     *pool_d = NULL, *pool_h = NULL;
static PetscBool pool_pinned;
static PetscBool pool_used[GPUPC_DEVSCALAR_SLOTS];

/*@C
   GPUPCDevScalarGet - takes a device scalar slot and sets it to the bytes at init (zero when init is NULL)

   Not Collective

   Input Parameters:
+  init  - the initial value (host), or NULL
-  bytes - its size, at most GPUPC_DEVSCALAR_BYTES

   Output Parameter:
.  s - the slot: s->d is the device pointer for the kernels

   Notes:
   The copy to the device is queued on the rank's stream (no wait); kernels queued after it see the value. Give the slot
   back with GPUPCDevScalarRead() or GPUPCDevScalarRelease().

   Level: developer

.seealso: GPUPCDevScalarRead(), GPUPCDevScalarRelease()
@*/
PetscErrorCode GPUPCDevScalarGet(const void *init, size_t bytes, GPUPCDevScalar *s)
{
  PetscInt k = 0;

  PetscFunctionBegin;
  PetscCheck(bytes > 0 && bytes <= GPUPC_DEVSCALAR_BYTES, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "a device scalar holds 1 to %d bytes, not %zu", GPUPC_DEVSCALAR_BYTES, bytes);
  if (!pool_d) {
    PetscCall(GPUPCMallocLibrary((size_t)GPUPC_DEVSCALAR_SLOTS * GPUPC_DEVSCALAR_BYTES, (void **)&pool_d)); /* the library's, not an object's */
    PetscCall(GPUPCHostMalloc((size_t)GPUPC_DEVSCALAR_SLOTS * GPUPC_DEVSCALAR_BYTES, (void **)&pool_h, &pool_pinned));
  }
  while (k < GPUPC_DEVSCALAR_SLOTS && pool_used[k]) k++;
  PetscCheck(k < GPUPC_DEVSCALAR_SLOTS, PETSC_COMM_SELF, PETSC_ERR_PLIB, "more than %d device scalars in use at once (a slot not given back?)", GPUPC_DEVSCALAR_SLOTS);
  pool_used[k] = PETSC_TRUE;
  s->slot      = k;
  s->d         = pool_d + (size_t)k * GPUPC_DEVSCALAR_BYTES;
  s->h         = pool_h + (size_t)k * GPUPC_DEVSCALAR_BYTES;
  if (init) PetscCall(PetscMemcpy(s->h, init, bytes));
  else PetscCall(PetscMemzero(s->h, bytes));
  PetscCall(GPUPCCopyToDeviceNoWait(s->d, s->h, bytes, pool_pinned));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevScalarRead - the value of a device scalar on the host (one copy, one wait); gives the slot back

   Not Collective

   Input Parameters:
+  s     - the slot from GPUPCDevScalarGet()
-  bytes - how many bytes to read

   Output Parameter:
.  value - the bytes (host)

   Level: developer

.seealso: GPUPCDevScalarGet()
@*/
PetscErrorCode GPUPCDevScalarRead(GPUPCDevScalar *s, void *value, size_t bytes)
{
  PetscFunctionBegin;
  PetscCheck(s->slot >= 0 && s->slot < GPUPC_DEVSCALAR_SLOTS && pool_used[s->slot], PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "the device scalar is not in use");
  PetscCheck(bytes <= GPUPC_DEVSCALAR_BYTES, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "a device scalar holds at most %d bytes, not %zu", GPUPC_DEVSCALAR_BYTES, bytes);
  PetscCall(GPUPCMemcpy(s->h, s->d, bytes, GPUPC_COPY_DEVICE_TO_HOST)); /* into page-locked memory: asynchronous, then the stream's wait */
  PetscCall(PetscMemcpy(value, s->h, bytes));
  PetscCall(GPUPCDevScalarRelease(s));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCDevScalarRelease - gives a device scalar's slot back without reading it (an error path)

   Not Collective

   Input Parameter:
.  s - the slot (nothing happens for s->slot -1)

   Level: developer

.seealso: GPUPCDevScalarGet()
@*/
PetscErrorCode GPUPCDevScalarRelease(GPUPCDevScalar *s)
{
  PetscFunctionBegin;
  if (s->slot >= 0 && s->slot < GPUPC_DEVSCALAR_SLOTS) pool_used[s->slot] = PETSC_FALSE;
  s->slot = -1;
  s->d = s->h = NULL;
  PetscFunctionReturn(0);
}

/* frees the pool (GPUPCDeviceFinalize, before the device goes) */
PetscErrorCode GPUPCDevScalarFinalize(void)
{
  PetscFunctionBegin;
  if (pool_d) PetscCall(GPUPCFreeLibrary(pool_d));
  if (pool_h) PetscCall(GPUPCHostFree(pool_h, pool_pinned));
  pool_d = pool_h = NULL;
  for (PetscInt k = 0; k < GPUPC_DEVSCALAR_SLOTS; k++) pool_used[k] = PETSC_FALSE;
  PetscFunctionReturn(0);
}

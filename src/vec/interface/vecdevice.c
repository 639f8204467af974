/*
   Device-array access for any Vec. All Mat and PC code reaches vector data through these.
   gpu vectors: zero-copy. Other vectors: staged through a device buffer kept on the
   vector (composed as "GPUPCStage"), copied in on get (read, read-write) and out on
   restore (write, read-write).
*/
#include <gpupc/vecgpu.h>

typedef struct {
  PetscScalar *d;
  PetscInt     n;
} GPUPCStage;

static PetscErrorCode GPUPCStageDestroy(void *ctx)
{
  GPUPCStage *s = (GPUPCStage *)ctx;

  PetscFunctionBegin;
  PetscCall(GPUPCFree(s->d));
  PetscCall(PetscFree(s));
  PetscFunctionReturn(0);
}

static PetscErrorCode GetStage(Vec v, PetscScalar **d)
{
  PetscContainer c;
  GPUPCStage    *s;

  PetscFunctionBegin;
  PetscCall(PetscObjectQuery((PetscObject)v, "GPUPCStage", (PetscObject *)&c));
  if (!c) {
    PetscCall(PetscNew(&s));
    s->n = v->map->n;
    PetscCall(GPUPCMallocArray(s->n, &s->d));
    PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &c));
    PetscCall(PetscContainerSetPointer(c, s));
    PetscCall(PetscContainerSetUserDestroy(c, GPUPCStageDestroy));
    PetscCall(PetscObjectCompose((PetscObject)v, "GPUPCStage", (PetscObject)c));
    PetscCall(PetscContainerDestroy(&c));
  } else PetscCall(PetscContainerGetPointer(c, (void **)&s));
  *d = s->d;
  PetscFunctionReturn(0);
}

static PetscErrorCode StageIn(Vec v, PetscScalar **d)
{
  const PetscScalar *h;

  PetscFunctionBegin;
  PetscCall(GetStage(v, d));
  PetscCall(VecGetArrayRead(v, &h));
  PetscCall(GPUPCCopyToDevice(*d, h, v->map->n));
  PetscCall(VecRestoreArrayRead(v, &h));
  PetscFunctionReturn(0);
}

static PetscErrorCode StageOut(Vec v, PetscScalar *d)
{
  PetscScalar *h;

  PetscFunctionBegin;
  PetscCall(VecGetArrayWrite(v, &h));
  PetscCall(GPUPCCopyToHost(h, d, v->map->n));
  PetscCall(VecRestoreArrayWrite(v, &h));
  PetscFunctionReturn(0);
}

/*@C
   VecGPUGetDeviceArrayRead - device pointer to the local values of any vector, for reading

   Not Collective

   Input Parameter:
.  v - the vector (any type)

   Output Parameter:
.  a - device pointer (on the host backend: the emulated device buffer)

   Level: developer

   Notes:
   For gpu vectors this is the vector's own device storage (copied from the host first if the
   host copy is newer). Other vector types are copied into a device buffer kept on the vector.
   Call VecGPURestoreDeviceArrayRead() when done.

.seealso: VecGPUGetDeviceArrayWrite(), VecGPUGetDeviceArray()
@*/
PetscErrorCode VecGPUGetDeviceArrayRead(Vec v, const PetscScalar **a)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(v, VEC_CLASSID, 1);
  if (VecIsGPU(v)) PetscCall(VecGPUDeviceRead_Private(v, a));
  else PetscCall(StageIn(v, (PetscScalar **)a));
  PetscFunctionReturn(0);
}

PetscErrorCode VecGPURestoreDeviceArrayRead(Vec v, const PetscScalar **a)
{
  PetscFunctionBegin;
  *a = NULL;
  PetscFunctionReturn(0);
}

/*@C
   VecGPUGetDeviceArrayWrite - device pointer to the local values of any vector, for overwriting

   Not Collective

   Level: developer

   Note:
   The values behind the pointer are undefined until written. VecGPURestoreDeviceArrayWrite()
   makes them the vector's values (and increases the vector's state).

.seealso: VecGPUGetDeviceArrayRead(), VecGPUGetDeviceArray()
@*/
PetscErrorCode VecGPUGetDeviceArrayWrite(Vec v, PetscScalar **a)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(v, VEC_CLASSID, 1);
  if (VecIsGPU(v)) PetscCall(VecGPUDeviceWrite_Private(v, a));
  else PetscCall(GetStage(v, a));
  PetscFunctionReturn(0);
}

PetscErrorCode VecGPURestoreDeviceArrayWrite(Vec v, PetscScalar **a)
{
  PetscFunctionBegin;
  if (!VecIsGPU(v)) PetscCall(StageOut(v, *a));
  PetscCall(PetscObjectStateIncrease((PetscObject)v));
  *a = NULL;
  PetscFunctionReturn(0);
}

/*@C
   VecGPUGetDeviceArray - device pointer to the local values of any vector, for reading and writing

   Not Collective

   Level: developer

.seealso: VecGPUGetDeviceArrayRead(), VecGPUGetDeviceArrayWrite()
@*/
PetscErrorCode VecGPUGetDeviceArray(Vec v, PetscScalar **a)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(v, VEC_CLASSID, 1);
  if (VecIsGPU(v)) PetscCall(VecGPUDeviceReadWrite_Private(v, a));
  else PetscCall(StageIn(v, a));
  PetscFunctionReturn(0);
}

PetscErrorCode VecGPURestoreDeviceArray(Vec v, PetscScalar **a)
{
  PetscFunctionBegin;
  PetscCall(VecGPURestoreDeviceArrayWrite(v, a));
  PetscFunctionReturn(0);
}

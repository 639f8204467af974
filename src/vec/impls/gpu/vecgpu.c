/*
   The gpu Vec types: creation, placement of data (device storage + lazy host mirror),
   host access, and the host logic delegated to a storage-less companion VECSEQ/VECMPI.
   The arithmetic is in vecgpuops.c.
*/
#include <gpupc/vecgpu.h>
#include <gpupc/registry.h>

PETSC_EXTERN PetscErrorCode VecView_MPI(Vec, PetscViewer); /* exported by libpetsc, not declared in its headers */

PETSC_INTERN PetscErrorCode VecGPUSetOps_Private(Vec);

static PetscErrorCode VecGPUEnsureHost(Vec v)
{
  Vec_GPU *d = (Vec_GPU *)v->data;

  PetscFunctionBegin;
  if (!d->array && v->map->n > 0) {
    const size_t bytes = (size_t)v->map->n * sizeof(PetscScalar);

    if (d->pinnedmin >= 0 && bytes >= (size_t)d->pinnedmin) PetscCall(GPUPCHostMalloc(bytes, (void **)&d->array_allocated, &d->pinned));
    else PetscCall(PetscMalloc1(v->map->n, &d->array_allocated));
    d->array = d->array_allocated;
  }
  PetscFunctionReturn(0);
}

/* makes the host mirror valid (copy device -> host if only the device is current) */
PetscErrorCode VecGPUSyncToHost_Private(Vec v)
{
  Vec_GPU *d = (Vec_GPU *)v->data;

  PetscFunctionBegin;
  PetscCall(VecGPUEnsureHost(v));
  if (v->offloadmask == PETSC_OFFLOAD_GPU) {
    PetscCall(GPUPCCopyToHost(d->array, d->d_array, v->map->n));
    v->offloadmask = PETSC_OFFLOAD_BOTH;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode VecGPUSyncToDevice(Vec v)
{
  Vec_GPU *d = (Vec_GPU *)v->data;

  PetscFunctionBegin;
  if (v->offloadmask == PETSC_OFFLOAD_CPU) {
    PetscCall(GPUPCCopyToDevice(d->d_array, d->array, v->map->n));
    v->offloadmask = PETSC_OFFLOAD_BOTH;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode VecGPUDeviceRead_Private(Vec v, const PetscScalar **a)
{
  PetscFunctionBegin;
  PetscCall(VecGPUSyncToDevice(v));
  *a = ((Vec_GPU *)v->data)->d_array;
  PetscFunctionReturn(0);
}

PetscErrorCode VecGPUDeviceWrite_Private(Vec v, PetscScalar **a)
{
  PetscFunctionBegin;
  *a             = ((Vec_GPU *)v->data)->d_array;
  v->offloadmask = PETSC_OFFLOAD_GPU;
  PetscFunctionReturn(0);
}

PetscErrorCode VecGPUDeviceReadWrite_Private(Vec v, PetscScalar **a)
{
  PetscFunctionBegin;
  PetscCall(VecGPUSyncToDevice(v));
  *a             = ((Vec_GPU *)v->data)->d_array;
  v->offloadmask = PETSC_OFFLOAD_GPU;
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ host access */

static PetscErrorCode VecGetArray_GPU(Vec v, PetscScalar **a)
{
  PetscFunctionBegin;
  PetscCall(VecGPUSyncToHost_Private(v));
  *a = ((Vec_GPU *)v->data)->array;
  PetscFunctionReturn(0);
}

static PetscErrorCode VecRestoreArray_GPU(Vec v, PetscScalar **a)
{
  PetscFunctionBegin;
  v->offloadmask = PETSC_OFFLOAD_CPU;
  PetscFunctionReturn(0);
}

static PetscErrorCode VecGetArrayRead_GPU(Vec v, const PetscScalar **a)
{
  PetscFunctionBegin;
  PetscCall(VecGPUSyncToHost_Private(v));
  *a = ((Vec_GPU *)v->data)->array;
  PetscFunctionReturn(0);
}

static PetscErrorCode VecRestoreArrayRead_GPU(Vec v, const PetscScalar **a)
{
  PetscFunctionBegin;
  PetscFunctionReturn(0);
}

/* the current values too, although the caller promises to write only: PETSc's own callers do not keep that promise
   (PCHYPRE hands the array of VecGetArrayWrite to hypre, which reads it: with -vec_type gpu ksp ex2's error was 0.42
   instead of 8.4e-5, and 2 ranks gave NaN), so a stale host mirror must never be handed out */
static PetscErrorCode VecGetArrayWrite_GPU(Vec v, PetscScalar **a)
{
  PetscFunctionBegin;
  PetscCall(VecGPUSyncToHost_Private(v));
  *a = ((Vec_GPU *)v->data)->array;
  PetscFunctionReturn(0);
}

static PetscErrorCode VecPlaceArray_GPU(Vec v, const PetscScalar *a)
{
  Vec_GPU *d = (Vec_GPU *)v->data;

  PetscFunctionBegin;
  PetscCheck(!d->unplacedarray, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "VecPlaceArray() was already called on this vector without a VecResetArray()");
  PetscCall(VecGPUSyncToHost_Private(v)); /* so that VecResetArray() finds the current values */
  d->unplacedarray = d->array;
  d->array         = (PetscScalar *)a;
  v->offloadmask   = PETSC_OFFLOAD_CPU;
  PetscFunctionReturn(0);
}

static PetscErrorCode VecResetArray_GPU(Vec v)
{
  Vec_GPU *d = (Vec_GPU *)v->data;

  PetscFunctionBegin;
  /* the placed array is the caller's: it must hold the values computed on the device while it was placed
     (MatFDColoringApply places its difference array, computes into it with VecAXPY and reads it after the reset) */
  PetscCall(VecGPUSyncToHost_Private(v));
  d->array         = d->unplacedarray;
  d->unplacedarray = NULL;
  v->offloadmask   = PETSC_OFFLOAD_CPU;
  PetscFunctionReturn(0);
}

static PetscErrorCode VecReplaceArray_GPU(Vec v, const PetscScalar *a)
{
  Vec_GPU *d = (Vec_GPU *)v->data;

  PetscFunctionBegin;
  PetscCall(GPUPCHostFree(d->array_allocated, d->pinned));
  d->pinned          = PETSC_FALSE; /* the caller's array, from PetscMalloc */
  d->array_allocated = d->array = (PetscScalar *)a;
  v->offloadmask                = PETSC_OFFLOAD_CPU;
  PetscFunctionReturn(0);
}

/* -------------------------------------------------- host logic through the companion */

/* Places the host mirror in the companion. Writing calls leave the host as the only valid copy. */
static PetscErrorCode CompanionBegin(Vec v, PetscBool writes)
{
  Vec_GPU *d = (Vec_GPU *)v->data;

  PetscFunctionBegin;
  PetscCall(VecGPUSyncToHost_Private(v));
  PetscCall(VecPlaceArray(d->companion, d->array));
  if (writes) v->offloadmask = PETSC_OFFLOAD_CPU;
  PetscFunctionReturn(0);
}

static PetscErrorCode CompanionEnd(Vec v)
{
  PetscFunctionBegin;
  PetscCall(VecResetArray(((Vec_GPU *)v->data)->companion));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecSetValues_GPU(Vec v, PetscInt ni, const PetscInt ix[], const PetscScalar y[], InsertMode mode)
{
  PetscFunctionBegin;
  PetscCall(CompanionBegin(v, PETSC_TRUE));
  PetscCall(VecSetValues(((Vec_GPU *)v->data)->companion, ni, ix, y, mode));
  PetscCall(CompanionEnd(v));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecSetValuesBlocked_GPU(Vec v, PetscInt ni, const PetscInt ix[], const PetscScalar y[], InsertMode mode)
{
  PetscFunctionBegin;
  PetscCall(CompanionBegin(v, PETSC_TRUE));
  PetscCall(VecSetValuesBlocked(((Vec_GPU *)v->data)->companion, ni, ix, y, mode));
  PetscCall(CompanionEnd(v));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecAssemblyBegin_GPU(Vec v)
{
  PetscFunctionBegin;
  PetscCall(CompanionBegin(v, PETSC_TRUE));
  PetscCall(VecAssemblyBegin(((Vec_GPU *)v->data)->companion));
  PetscCall(CompanionEnd(v));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecAssemblyEnd_GPU(Vec v)
{
  PetscFunctionBegin;
  PetscCall(CompanionBegin(v, PETSC_TRUE));
  PetscCall(VecAssemblyEnd(((Vec_GPU *)v->data)->companion));
  PetscCall(CompanionEnd(v));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecGetValues_GPU(Vec v, PetscInt ni, const PetscInt ix[], PetscScalar y[])
{
  PetscFunctionBegin;
  PetscCall(CompanionBegin(v, PETSC_FALSE));
  PetscCall(VecGetValues(((Vec_GPU *)v->data)->companion, ni, ix, y));
  PetscCall(CompanionEnd(v));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecSetOption_GPU(Vec v, VecOption op, PetscBool flag)
{
  PetscFunctionBegin;
  PetscCall(VecSetOption(((Vec_GPU *)v->data)->companion, op, flag));
  if (op == VEC_IGNORE_NEGATIVE_INDICES) v->stash.ignorenegidx = flag;
  PetscFunctionReturn(0);
}

/* the same random values as VECSEQ/VECMPI with the same generator state */
static PetscErrorCode VecSetRandom_GPU(Vec v, PetscRandom r)
{
  PetscFunctionBegin;
  PetscCall(VecGPUEnsureHost(v));
  v->offloadmask = PETSC_OFFLOAD_CPU;
  PetscCall(VecPlaceArray(((Vec_GPU *)v->data)->companion, ((Vec_GPU *)v->data)->array));
  PetscCall(VecSetRandom(((Vec_GPU *)v->data)->companion, r));
  PetscCall(CompanionEnd(v));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecView_GPU(Vec v, PetscViewer viewer)
{
  PetscMPIInt       size;
  PetscBool         iascii;
  PetscViewerFormat format;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (iascii) {
    PetscCall(PetscViewerGetFormat(viewer, &format));
    if (format == PETSC_VIEWER_ASCII_INFO || format == PETSC_VIEWER_ASCII_INFO_DETAIL) {
      const char *where[] = {"unallocated", "host", "device", "host and device"};
      int         m       = (int)v->offloadmask;

      PetscCall(PetscViewerASCIIPrintf(viewer, "GPUPC vector, backend %s, valid data on %s\n", ((Vec_GPU *)v->data)->k->name, m >= 0 && m <= 3 ? where[m] : "?"));
      PetscFunctionReturn(0);
    }
  }
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)v), &size));
  if (size > 1) PetscCall(VecView_MPI(v, viewer));
  else PetscCall(VecView_Seq(v, viewer));
  PetscFunctionReturn(0);
}

static PetscErrorCode VecGetSize_GPU(Vec v, PetscInt *N)
{
  PetscFunctionBegin;
  *N = v->map->N;
  PetscFunctionReturn(0);
}

static PetscErrorCode VecGetLocalSize_GPU(Vec v, PetscInt *n)
{
  PetscFunctionBegin;
  *n = v->map->n;
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------- life cycle */

static PetscErrorCode VecDestroy_GPU(Vec v)
{
  Vec_GPU *d = (Vec_GPU *)v->data;

  PetscFunctionBegin;
  if (!d) PetscFunctionReturn(0);
  PetscCall(GPUPCFree(d->d_array));
  PetscCall(VecDestroy(&d->companion));
  PetscCall(GPUPCHostFree(d->array_allocated, d->pinned));
  PetscCall(PetscFree(v->data));
  PetscFunctionReturn(0);
}

PetscBool VecIsGPU(Vec v)
{
  return v->ops->destroy == VecDestroy_GPU ? PETSC_TRUE : PETSC_FALSE;
}

static PetscErrorCode VecDuplicate_GPU(Vec v, Vec *w)
{
  PetscFunctionBegin;
  PetscCall(VecCreate(PetscObjectComm((PetscObject)v), w));
  PetscCall(PetscLayoutReference(v->map, &(*w)->map));
  PetscCall(VecSetType(*w, ((PetscObject)v)->type_name));
  PetscCall(PetscObjectListDuplicate(((PetscObject)v)->olist, &((PetscObject)*w)->olist));
  PetscCall(PetscFunctionListDuplicate(((PetscObject)v)->qlist, &((PetscObject)*w)->qlist));
  PetscFunctionReturn(0);
}

/* -vec_pinned_memory_min in VecSetFromOptions() (so that -help lists it); creation reads it too, for vectors made by
   VecSetType() or VecDuplicate() alone */
static PetscErrorCode VecSetFromOptions_GPU(Vec v, PetscOptionItems *PetscOptionsObject)
{
  Vec_GPU *d = (Vec_GPU *)v->data;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "GPU vector (VECSEQGPU, VECMPIGPU) options");
  PetscCall(PetscOptionsInt("-vec_pinned_memory_min", "Page-lock host mirrors of at least this many bytes (0: all, -1: never); applies to host mirrors allocated afterwards", "VECSEQGPU", d->pinnedmin, &d->pinnedmin, NULL));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(0);
}

static PetscErrorCode VecGPUCreate_Private(Vec v, PetscBool mpi)
{
  Vec_GPU *d;
  PetscInt bs;

  PetscFunctionBegin;
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(GPUPCDeviceSetUp());
  PetscCall(PetscLayoutSetUp(v->map));
  PetscCall(PetscNew(&d));
  v->data        = d;
  v->petscnative = PETSC_FALSE; /* host data is reached only through the getarray ops */
  PetscCall(GPUPCGetVecKernels(&d->k));
  d->pinnedmin = 0; /* as PETSc's VECCUDA: every host mirror page-locked unless -vec_pinned_memory_min says otherwise */
  PetscCall(PetscOptionsGetInt(((PetscObject)v)->options, ((PetscObject)v)->prefix, "-vec_pinned_memory_min", &d->pinnedmin, NULL));
  PetscCall(GPUPCMallocArray(v->map->n, &d->d_array));
  PetscCall(GPUPCMemzero(d->d_array, (size_t)v->map->n * sizeof(PetscScalar)));
  v->offloadmask = PETSC_OFFLOAD_GPU;
  PetscCall(PetscLayoutGetBlockSize(v->map, &bs));
  if (mpi) PetscCall(VecCreateMPIWithArray(PetscObjectComm((PetscObject)v), bs, v->map->n, v->map->N, NULL, &d->companion));
  else PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, bs, v->map->n, NULL, &d->companion));
  PetscCall(PetscMemzero(v->ops, sizeof(struct _VecOps)));
  v->ops->duplicate         = VecDuplicate_GPU;
  v->ops->duplicatevecs     = VecDuplicateVecs_Default;
  v->ops->destroyvecs       = VecDestroyVecs_Default;
  v->ops->destroy           = VecDestroy_GPU;
  v->ops->view              = VecView_GPU;
  v->ops->load              = VecLoad_Default;
  v->ops->getsize           = VecGetSize_GPU;
  v->ops->getlocalsize      = VecGetLocalSize_GPU;
  v->ops->getarray          = VecGetArray_GPU;
  v->ops->restorearray      = VecRestoreArray_GPU;
  v->ops->getarrayread      = VecGetArrayRead_GPU;
  v->ops->restorearrayread  = VecRestoreArrayRead_GPU;
  v->ops->getarraywrite     = VecGetArrayWrite_GPU;
  v->ops->restorearraywrite = VecRestoreArray_GPU;
  v->ops->placearray        = VecPlaceArray_GPU;
  v->ops->resetarray        = VecResetArray_GPU;
  v->ops->replacearray      = VecReplaceArray_GPU;
  v->ops->setvalues         = VecSetValues_GPU;
  v->ops->setvaluesblocked  = VecSetValuesBlocked_GPU;
  v->ops->assemblybegin     = VecAssemblyBegin_GPU;
  v->ops->assemblyend       = VecAssemblyEnd_GPU;
  v->ops->getvalues         = VecGetValues_GPU;
  v->ops->setoption         = VecSetOption_GPU;
  v->ops->setrandom         = VecSetRandom_GPU;
  v->ops->setfromoptions    = VecSetFromOptions_GPU;
  PetscCall(VecGPUSetOps_Private(v));
  PetscCall(PetscObjectChangeTypeName((PetscObject)v, mpi ? VECMPIGPU : VECSEQGPU));
  PetscFunctionReturn(0);
}

/*MC
   VECSEQGPU - VECSEQGPU = "seqgpu" - a sequential vector whose data lives on the GPU

   Storage is on the device of the rank (see -gpupc_backend); a host mirror is allocated at
   first host access and kept in sync lazily. Every arithmetic VecOp that PETSc's Krylov
   methods and PCJACOBI use runs on the device; VecGetArray() and friends copy to the host
   only when the host copy is stale. VecSetValues(), VecGetValues() and VecSetRandom() work on
   the host mirror with PETSc's own semantics. On the cuda backend the host mirror is
   page-locked (pinned) memory, as for PETSc's VECCUDA, so that uploads of data computed on the
   host (a right-hand side, say) run at the link's speed instead of through a staging buffer.

   Options Database Keys:
+  -vec_type seqgpu - sets the type in VecSetFromOptions()
-  -vec_pinned_memory_min <bytes> - page-lock host mirrors of at least this size (default 0: all; -1: never), read when the vector is created and in VecSetFromOptions()

   Level: beginner

.seealso: VECGPU, VECMPIGPU, VecGPUGetDeviceArrayRead(), PetscGPUPCGetBackend()
M*/
PetscErrorCode VecCreate_SeqGPU(Vec v)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)v), &size));
  PetscCheck(size == 1, PetscObjectComm((PetscObject)v), PETSC_ERR_ARG_WRONG, "Cannot create a seqgpu vector on %d processes; use -vec_type gpu or mpigpu", size);
  PetscCall(VecGPUCreate_Private(v, PETSC_FALSE));
  PetscFunctionReturn(0);
}

/*MC
   VECMPIGPU - VECMPIGPU = "mpigpu" - a parallel vector whose local part lives on the rank's GPU

   Reductions run on the device and combine across ranks with one MPI_Allreduce; off-process
   VecSetValues() go through PETSc's stash as for VECMPI.

   Options Database Key:
.  -vec_type mpigpu - sets the type in VecSetFromOptions()

   Level: beginner

.seealso: VECGPU, VECSEQGPU
M*/
PetscErrorCode VecCreate_MPIGPU(Vec v)
{
  PetscFunctionBegin;
  PetscCall(VecGPUCreate_Private(v, PETSC_TRUE));
  PetscFunctionReturn(0);
}

/*MC
   VECGPU - VECGPU = "gpu" - seqgpu on one process, mpigpu on several

   Options Database Key:
.  -vec_type gpu - sets the type in VecSetFromOptions()

   Level: beginner

.seealso: VECSEQGPU, VECMPIGPU, VecCreateSeqGPU(), VecCreateMPIGPU()
M*/
PetscErrorCode VecCreate_GPU(Vec v)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)v), &size));
  /* not VecSetType(): when v already was a seqgpu/mpigpu vector, VecSetType(v, "gpu") has
     just emptied it, and VecSetType(v, "seqgpu") would see the old type name and do nothing */
  PetscCall(VecGPUCreate_Private(v, size > 1 ? PETSC_TRUE : PETSC_FALSE));
  PetscFunctionReturn(0);
}

/*@C
   VecCreateSeqGPU - creates a sequential vector on the GPU

   Collective (on a one-process communicator)

   Input Parameters:
+  comm - a communicator of one process
-  n - the length

   Output Parameter:
.  v - the vector

   Level: beginner

.seealso: VECSEQGPU, VecCreateMPIGPU()
@*/
PetscErrorCode VecCreateSeqGPU(MPI_Comm comm, PetscInt n, Vec *v)
{
  PetscFunctionBegin;
  PetscCall(VecCreate(comm, v));
  PetscCall(VecSetSizes(*v, n, n));
  PetscCall(VecSetType(*v, VECSEQGPU));
  PetscFunctionReturn(0);
}

/*@C
   VecCreateMPIGPU - creates a parallel vector whose local parts live on the ranks' GPUs

   Collective

   Input Parameters:
+  comm - the communicator
.  n - local length (or PETSC_DECIDE)
-  N - global length (or PETSC_DETERMINE)

   Output Parameter:
.  v - the vector

   Level: beginner

.seealso: VECMPIGPU, VecCreateSeqGPU()
@*/
PetscErrorCode VecCreateMPIGPU(MPI_Comm comm, PetscInt n, PetscInt N, Vec *v)
{
  PetscFunctionBegin;
  PetscCall(VecCreate(comm, v));
  PetscCall(VecSetSizes(*v, n, N));
  PetscCall(VecSetType(*v, VECMPIGPU));
  PetscFunctionReturn(0);
}

/*@C
   VecGPUGetOffloadMask - where the valid data of a gpu vector is

   Not Collective

   Input Parameter:
.  v - a gpu vector

   Output Parameter:
.  mask - PETSC_OFFLOAD_GPU, PETSC_OFFLOAD_CPU or PETSC_OFFLOAD_BOTH

   Level: developer
@*/
PetscErrorCode VecGPUGetOffloadMask(Vec v, PetscOffloadMask *mask)
{
  PetscFunctionBegin;
  PetscCheck(VecIsGPU(v), PetscObjectComm((PetscObject)v), PETSC_ERR_ARG_WRONG, "Vector of type %s is not a GPUPC gpu vector", ((PetscObject)v)->type_name);
  *mask = v->offloadmask;
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCRegisterVec(void)
{
  PetscFunctionBegin;
  PetscCall(VecRegister(VECSEQGPU, VecCreate_SeqGPU));
  PetscCall(VecRegister(VECMPIGPU, VecCreate_MPIGPU));
  PetscCall(VecRegister(VECGPU, VecCreate_GPU));
  PetscFunctionReturn(0);
}

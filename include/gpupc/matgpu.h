/*
   gpupc/matgpu.h - machinery shared by GPUPC's Mat types (segcsr, hec, bcsr); private.

   - Subclassing AIJ: GPUPCMatSubclass saves the base type's ops so a type can override
     entries and still call the base ones, and keeps the device copy in step with the host
     data (build on a new nonzero pattern, value refresh on the same pattern, at assembly
     and before every device operation whose value version moved).
   - Factorizations: every package that factors SEQAIJ/MPIAIJ also factors the type.
   - CSR access: GPUPCMatGetCSR gives the row pointers, columns and values of a SEQAIJ
     (a block of an MPIAIJ included) through public calls only.
   - Halo plan for MPIAIJ-based types: the ghost values the off-diagonal block needs,
     packed on the device, copied once to the host, exchanged with PetscSF over host
     buffers, copied once to the device; and the reverse (transpose products) with a sum.
     MPI and PetscSF never see a device pointer.
   - Halo kernels (gather, scatter-add): one declaration (GPUPC_HALO_KERNEL_LIST), host and
     CUDA implementations.
*/
#ifndef GPUPC_MATGPU_H
#define GPUPC_MATGPU_H

#include <petsc/private/matimpl.h>
#include <petscsf.h>
#include <gpupc/kerneltable.h>

/* ---------------------------------------------------------------- AIJ subclassing */
/* The host AIJ data (SEQAIJ or MPIAIJ) is authoritative; the device copy is a function of it. A GPUPC Mat type's
   A->spptr begins with a GPUPCMatSubclass (first member), through which the shared code below keeps the device copy
   in step: GPUPCMatSubclassSync builds it (new nonzero pattern: the type's build) or refreshes its values (same
   pattern: the type's upload), GPUPCMatSubclassEnsure does so before a device operation when the value version
   (the object state, plus both blocks' states for MPIAIJ) moved since, which catches every host path that changes
   values: MatSetValues/assembly, MatScale/Shift/ZeroRows/..., MatSeqAIJGetArray/Restore, MatFDColoringApply. */
typedef struct {
  struct _MatOps   base;    /* the base type's ops, saved at subclassing */
  PetscBool        mpi;     /* based on MPIAIJ (else SEQAIJ) */
  PetscObjectState nzstate; /* A->nonzerostate at the last build */
  PetscBool        built;   /* device structure exists */
  PetscObjectState synced;  /* value version the device copy holds */
  PetscInt         builds, uploads;
  PetscErrorCode (*build)(Mat);    /* lays out and uploads (new pattern; collective for MPI) */
  PetscErrorCode (*upload)(Mat);   /* refreshes the device values (same pattern as far as A->nonzerostate tells) */
  PetscErrorCode (*frombase)(Mat); /* turns a matrix of the base type into this type, in place (MatTranspose's result) */
  PetscErrorCode (*retrieve)(Mat); /* the base type's MatRetrieveValues_C */
} GPUPCMatSubclass;

/* AIJ code that checks its operand's type name (MatMPIAIJGetSeqAIJ, MUMPS, MPIAIJ's products, AIJ's transpose) runs on a
   GPUPC matrix, which holds the base type's data, under the base type's name: GPUPCMatNameAs shows A as type t and
   returns the name to put back with GPUPCMatNameRestore; GPUPCMatBaseType is the base type of a GPUPC matrix */
static inline char *GPUPCMatNameAs(Mat A, MatType t)
{
  char *old = ((PetscObject)A)->type_name;

  ((PetscObject)A)->type_name = (char *)t;
  return old;
}
static inline void GPUPCMatNameRestore(Mat A, char *old)
{
  ((PetscObject)A)->type_name = old;
}
static inline MatType GPUPCMatBaseType(Mat A)
{
  return ((GPUPCMatSubclass *)A->spptr)->mpi ? MATMPIAIJ : MATSEQAIJ;
}

PETSC_INTERN PetscErrorCode GPUPCMatSubclassSave(Mat, GPUPCMatSubclass *, PetscBool, PetscErrorCode (*)(Mat), PetscErrorCode (*)(Mat), PetscErrorCode (*)(Mat));
PETSC_INTERN PetscErrorCode GPUPCMatTranspose_Subclass(Mat, MatReuse, Mat *);
PETSC_INTERN PetscErrorCode GPUPCMatRetrieveValues_Subclass(Mat);
PETSC_INTERN PetscErrorCode GPUPCMatProductSetFromOptions_Subclass(Mat);
PETSC_INTERN PetscErrorCode GPUPCMatComposeProductSetFromOptions(Mat, const char *, const char *, PetscErrorCode (*)(Mat));
PETSC_INTERN PetscErrorCode GPUPCMatSubclassRestore(Mat, const GPUPCMatSubclass *);
PETSC_INTERN PetscErrorCode GPUPCMatSubclassSync(Mat, PetscInt);
PETSC_INTERN PetscErrorCode GPUPCMatSubclassEnsure(Mat);
PETSC_INTERN PetscErrorCode GPUPCMatSubclassRelayout(Mat);
PETSC_INTERN PetscErrorCode GPUPCMatAssemblyEnd_Subclass(Mat, MatAssemblyType);
PETSC_INTERN PetscErrorCode GPUPCMatSubclassSetTypeName(Mat, MatType, VecType);
PETSC_INTERN PetscErrorCode GPUPCMatConvertReuse(Mat, MatReuse, Mat *, PetscErrorCode (*)(Mat));

/* ---------------------------------------------------------------- factorizations (src/mat/utils/factor.c) */
PETSC_INTERN PetscErrorCode GPUPCMatRegisterFactors(MatType, MatType);

/* ---------------------------------------------------------------- CSR access */
typedef struct {
  Mat                aij; /* the SEQAIJ it came from */
  PetscInt           m, n, nnz;
  const PetscInt    *i, *j;
  const PetscScalar *a;
  PetscBool          done;
} GPUPCCSR;

PETSC_INTERN PetscErrorCode GPUPCMatGetCSR(Mat, GPUPCCSR *);
PETSC_INTERN PetscErrorCode GPUPCMatRestoreCSR(GPUPCCSR *);
PETSC_INTERN PetscErrorCode GPUPCMatMPIAIJGetSeqAIJ(Mat, Mat *, Mat *, const PetscInt **);

/* ---------------------------------------------------------------- halo plan */
typedef struct _n_GPUPCHalo     *GPUPCHalo;
typedef struct _n_GPUPCHaloPeer *GPUPCHaloPeer;
struct _n_GPUPCHalo {
  PetscSF       sf;                /* roots: this rank's packed send buffer; leaves: ghosts */
  PetscInt      nsend, nghost;     /* packed entries sent (each owned entry once), ghosts received */
  PetscInt     *d_sendidx;         /* local indices packed (device) */
  PetscScalar  *d_send, *h_send;   /* packed buffer on device and host */
  PetscScalar  *d_ghost, *h_ghost; /* ghost values on device and host */
  PetscBool     send_pinned;       /* h_send is page-locked (cuda backend): its upload need not wait */
  PetscBool     ghost_pinned;      /* h_ghost likewise */
  PetscInt      nneighbors;        /* ranks this rank receives from */
  PetscBool     peer;              /* forward exchanges go directly between the GPUs of the node (CUDA IPC) */
  GPUPCHaloPeer peerplan;          /* their plan (src/mat/utils/cuda/halopeer.cu) */
  PetscScalar  *d_peersend;        /* the packed buffer that the neighbours read (direct exchange) */
};

PETSC_INTERN PetscErrorCode GPUPCHaloCreate(Mat, PetscInt, const PetscInt *, GPUPCHalo *);
PETSC_INTERN PetscErrorCode GPUPCHaloDestroy(GPUPCHalo *);
/* forward: ghosts = x[owners]; Begin packs, copies down and starts the exchange; End
   finishes it and uploads, returning the device ghost array */
PETSC_INTERN PetscErrorCode GPUPCHaloForwardBegin(GPUPCHalo, const PetscScalar *);
PETSC_INTERN PetscErrorCode GPUPCHaloForwardEnd(GPUPCHalo, const PetscScalar **);
/* the direct exchange between the GPUs of one node (cuda backend only; halopeer.cu): created collectively when every
   neighbour of every rank is on the same node and on another GPU (force: a shared GPU too), unless allow is false */
#if defined(GPUPC_HAVE_CUDA)
PETSC_INTERN PetscErrorCode GPUPCHaloPeerCreate(GPUPCHalo, MPI_Comm, const PetscMPIInt[], const PetscInt[], PetscBool, PetscBool);
PETSC_INTERN PetscErrorCode GPUPCHaloPeerDestroy(GPUPCHalo);
PETSC_INTERN PetscErrorCode GPUPCHaloPeerPackBegin(GPUPCHalo);
PETSC_INTERN PetscErrorCode GPUPCHaloPeerPackEnd(GPUPCHalo);
PETSC_INTERN PetscErrorCode GPUPCHaloPeerPull(GPUPCHalo);
#endif
/* reverse: y[owners] += ghost contributions held in halo->d_ghost */
PETSC_INTERN PetscErrorCode GPUPCHaloReverseBegin(GPUPCHalo);
PETSC_INTERN PetscErrorCode GPUPCHaloReverseEnd(GPUPCHalo, PetscScalar *);

/* ---------------------------------------------------------------- halo kernels */
/* The table, one line per kernel: X(A, member, Stem, (parameters)) (gpupc/kerneltable.h); the host
   implementation of a member is Stem_Host (src/mat/utils/host), the CUDA one Stem_CUDA (src/mat/utils/cuda). */
#define GPUPC_HALO_KERNEL_LIST(X, A)                                                              \
  /* buf[k] = x[idx[k]] */                                                                        \
  X(A, gather, Gather, (PetscInt n, const PetscInt *idx, const PetscScalar *x, PetscScalar *buf)) \
  /* y[idx[k]] += buf[k]  (idx without repeats) */                                                \
  X(A, scatteradd, ScatterAdd, (PetscInt n, const PetscInt *idx, const PetscScalar *buf, PetscScalar *y))

typedef GPUPC_KERNEL_TABLE(GPUPC_HALO_KERNEL_LIST) GPUPCHaloKernels;

/* member k of the list is GPUPC_HALO_KERNEL_<member> = k; its name is GPUPCHaloKernelNames[k] */
typedef enum {
  GPUPC_HALO_KERNEL_LIST(GPUPC_KERNEL_ENUM, GPUPC_HALO_KERNEL_)
  GPUPC_HALO_NKERNELS
} GPUPCHaloKernelIndex;
PETSC_EXTERN const char *const GPUPCHaloKernelNames[];

PETSC_INTERN const GPUPCHaloKernels GPUPCHaloKernelsHost;
#if defined(GPUPC_HAVE_CUDA)
PETSC_INTERN const GPUPCHaloKernels GPUPCHaloKernelsCUDA;
#endif
/* the table of the active backend, and a table by backend (for tests that compare the two) */
PETSC_EXTERN PetscErrorCode GPUPCGetHaloKernels(const GPUPCHaloKernels **);
PETSC_EXTERN PetscErrorCode GPUPCGetHaloKernelsFor(PetscGPUPCBackend, const GPUPCHaloKernels **);

/* log events of the shared machinery (registered in src/mat/matregister.c) */
PETSC_INTERN PetscLogEvent GPUPC_HaloSetUp, GPUPC_HaloForward, GPUPC_HaloReverse;
/* the parts of an exchange, inside HaloForward/HaloReverse: pack = the gather kernel and the copy to the host (the
   host waits for both); exchange = PetscSF (MPI) on the host buffers, begin and end; unpack = the copy to the device
   (enqueued, no wait) and the scatter-add kernel of the reverse exchange */
PETSC_INTERN PetscLogEvent GPUPC_HaloPack, GPUPC_HaloExchange, GPUPC_HaloUnpack;

#endif

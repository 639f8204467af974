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
   - The Mat types over device blocks (GPUPCMatBlocks, GPUPCMatBlockOps): every operation of
     segcsr, hec and bcsr, sequential and parallel, written once and driven by the type's
     table of block operations (its layout, kernels, options and view).
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
PETSC_INTERN PetscErrorCode GPUPCMatCreateGraph_Subclass(Mat, PetscBool, PetscBool, PetscReal, Mat *);
PETSC_INTERN PetscErrorCode GPUPCMatRetrieveValues_Subclass(Mat);
PETSC_INTERN PetscErrorCode GPUPCMatProductSetFromOptions_Subclass(Mat);
PETSC_INTERN PetscErrorCode GPUPCMatComposeProductSetFromOptions(Mat, const char *, const char *, PetscErrorCode (*)(Mat));
PETSC_INTERN PetscErrorCode GPUPCMatSubclassRestore(Mat, const GPUPCMatSubclass *);
PETSC_INTERN PetscErrorCode GPUPCMatSubclassSync(Mat, PetscInt);
PETSC_INTERN PetscErrorCode GPUPCMatSubclassEnsure(Mat);
PETSC_INTERN PetscErrorCode GPUPCMatSubclassMarkBuilt(Mat);
PETSC_INTERN PetscErrorCode GPUPCMatSubclassMarkUploaded(Mat);
PETSC_INTERN PetscErrorCode GPUPCMatSubclassRelayout(Mat);
PETSC_INTERN PetscErrorCode GPUPCMatAssemblyEnd_Subclass(Mat, MatAssemblyType);
PETSC_INTERN PetscErrorCode GPUPCMatSubclassSetTypeName(Mat, MatType, VecType);
PETSC_INTERN PetscErrorCode GPUPCMatConvertReuse(Mat, MatReuse, Mat *, PetscErrorCode (*)(Mat));

/* ---------------------------------------------------------------- factorizations (src/mat/utils/factor.c) */
PETSC_INTERN PetscErrorCode GPUPCMatRegisterFactors(MatType, MatType);

/* ---------------------------------------------------------------- CSR access */
typedef struct {
  Mat                aij; /* the SEQAIJ it came from (NULL for arrays made elsewhere) */
  PetscInt           m, n, nnz;
  const PetscInt    *i, *j;
  const PetscScalar *a;
  PetscBool          done;
  PetscBool          device;     /* j and a are device arrays (i on the host unless rowsdevice): a level built on the
                                device; the builds and value updates of segcsr, hec and bcsr take it (gpupc/formatkernels.h) */
  PetscBool          rowsdevice; /* with device: i is a device array too; the builds then compute their structure on the
                                    device (gpupc/formatkernels.h) */
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
PETSC_INTERN PetscErrorCode GPUPCHaloCreateFromLayout(MPI_Comm, PetscLayout, PetscInt, const PetscInt *, GPUPCHalo *);
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

/* one product's halo (src/mat/utils/halostats.c): (owner, reader) pairs and ghost values summed over the ranks, the
   largest rank's counts; known is false for a parallel matrix that is not MPIAIJ-based */
typedef struct {
  PetscBool   known;
  PetscMPIInt ranks;
  PetscInt64  messages, ghosts;    /* summed over the ranks */
  PetscInt64  nbr_max, ghosts_max; /* the largest over the ranks */
} GPUPCHaloStats;
PETSC_EXTERN PetscErrorCode GPUPCMatHaloStats(Mat, GPUPCHaloStats *);

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

/* ---------------------------------------------------------------- the Mat types over device blocks */
/* segcsr, hec and bcsr differ only in how one block (a SEQAIJ, or a block of an MPIAIJ) is laid out on the device and
   multiplied there. Everything else is shared (src/mat/utils/blocksmat.c: conversions, duplicate, view, options,
   destroy; src/mat/utils/blocksops.c: build and upload of the diagonal block and, for MPIAIJ, of the off-diagonal
   block with the halo plan; MatMult(Add), MatMultTranspose(Add) and MatGetDiagonal, the diagonal block's product
   overlapping the halo exchange), driven by the type's GPUPCMatBlockOps. A->spptr of such a type is the type's record,
   which begins with a GPUPCMatBlocks (whose first member is the GPUPCMatSubclass). */
typedef struct _n_GPUPCMatBlockOps GPUPCMatBlockOps;

/* The off-diagonal block of a distributed matrix has entries in the rows next to other ranks only (a few percent of
   the rows of a partitioned mesh); laid out on all rows, its product reads every row pointer and reads and writes every
   y entry. Kept on its rows with entries (when at most half the rows have any): the block's product goes to t (mc
   values) and is added at those rows (the halo table's scatteradd); its transpose product reads x gathered at them. */
typedef struct {
  PetscInt     m, mc; /* rows of the block, rows with entries (mc < m: compressed) */
  PetscInt    *hi;    /* host: the compressed row pointers (mc + 1); NULL: the block is laid out on all its rows */
  PetscInt    *drows; /* device: the mc rows with entries, ascending */
  PetscScalar *dt;    /* device: mc values */
} GPUPCRowCompress;
PETSC_INTERN PetscErrorCode GPUPCRowCompressSetUp(const GPUPCCSR *, GPUPCRowCompress *);
PETSC_INTERN PetscErrorCode GPUPCRowCompressApply(const GPUPCRowCompress *, const GPUPCCSR *, GPUPCCSR *);
PETSC_INTERN PetscErrorCode GPUPCRowCompressDestroy(GPUPCRowCompress *);

/* a function a type composes on its matrices (a list ends with name NULL) */
typedef struct {
  const char       *name;
  PetscVoidFunction fn;
} GPUPCMatComposed;

typedef struct {
  GPUPCMatSubclass        sc;         /* first: the subclass machinery reaches it through A->spptr */
  const GPUPCMatBlockOps *ops;        /* the type's block operations */
  void                   *diag;       /* the type's diagonal block (seq: the matrix) */
  void                   *offd;       /* the type's off-diagonal block (mpi only) */
  GPUPCHalo               halo;       /* mpi only: the ghost values the off-diagonal block multiplies */
  PetscInt                ncol;       /* mpi only: columns of the off-diagonal block (MPIAIJ's ghost columns) at the last build */
  PetscObjectState        blocknz[2]; /* mpi only: nonzero states of the diagonal and off-diagonal SEQAIJ at their last layout */
  GPUPCRowCompress        orows;      /* mpi only: the off-diagonal block laid out on its rows with entries only (see below) */
} GPUPCMatBlocks;

struct _n_GPUPCMatBlockOps {
  const char    *name;             /* "segcsr": the view's block label */
  const char    *layout;           /* what the device copy is, for the view ("segmented CSR on the device") */
  MatType        seqtype, mpitype; /* the sequential and the parallel type */
  size_t         size;             /* the type's record (A->spptr), which begins with a GPUPCMatBlocks */
  PetscLogEvent *multevent, *multtransposeevent;
  /* the record just allocated (zeroed): points diag and offd at the type's blocks and sets the default options */
  PetscErrorCode (*init)(GPUPCMatBlocks *);
  /* ---- one block */
  PetscErrorCode (*build)(Mat, const GPUPCCSR *, void *);                                        /* lays out (new pattern) the block of A (diag or offd) from its CSR, with A's options */
  PetscErrorCode (*upload)(const GPUPCCSR *, void *);                                            /* new values on the block's pattern */
  PetscErrorCode (*destroy)(void *);                                                             /* frees the block's memory (the block may be empty) */
  void (*counts)(const void *, PetscInt *, PetscInt *);                                          /* the block's rows and nonzeros (flop counts) */
  PetscErrorCode (*mult)(const void *, const PetscScalar *, const PetscScalar *, PetscScalar *); /* y = B x + z (z NULL or y) */
  PetscErrorCode (*multtransposeadd)(const void *, const PetscScalar *, PetscScalar *);          /* y += B^T x */
  PetscErrorCode (*getdiagonal)(const void *, PetscScalar *);                                    /* d = diag(B) */
  PetscErrorCode (*kernelsname)(const char **);                                                  /* the active kernel table's name */
  PetscErrorCode (*view)(const void *, const char *, PetscBool, PetscViewer);                    /* (block, label, synchronized) */
  /* ---- one block without a matrix (a multigrid level: GPUPCDevMat, gpupc/devmat.h) */
  size_t blocksize; /* bytes of the type's block record (zeroed before the first build) */
  /* lays out the block from CSR (host, or device with csr->device) with the type's default options; bs: the block size
     of a blocked format (bcsr), ignored by the others */
  PetscErrorCode (*buildcsr)(const GPUPCCSR *, PetscInt, void *);
  /* ---- the matrix */
  /* mpi only, optional (collective): the global columns the halo fetches for the off-diagonal block's ncol columns
     garray (allocated, freed by the caller); without it the halo fetches garray itself */
  PetscErrorCode (*ghosts)(Mat, PetscInt, const PetscInt *, PetscInt *, PetscInt **);
  PetscErrorCode (*info)(Mat, const GPUPCCSR *, const GPUPCCSR *); /* PetscInfo after a build (off-diagonal CSR NULL for seq) */
  PetscErrorCode (*setfromoptions)(Mat, PetscOptionItems *);       /* the type's options */
  PetscErrorCode (*copyoptions)(Mat, Mat, PetscBool *);            /* A's options onto B (duplicate); whether B's changed */
  const GPUPCMatComposed *composed;                                /* the type's public functions, composed on its matrices */
  PetscErrorCode (*freedata)(Mat);                                 /* optional: frees what the type's record holds besides the blocks */
  PetscErrorCode (*frombase)(Mat);                                 /* GPUPCMatBlocksFromBase(B, the type's table) */
  PetscErrorCode (*convert)(Mat, MatType, MatReuse, Mat *);        /* MatConvert from the base type to the type */
  PetscErrorCode (*convertbaij)(Mat, MatType, MatReuse, Mat *);    /* optional: MatConvert from SEQBAIJ/MPIBAIJ to the type */
};

/* the tables of the three formats (the level matrices of cmg and gpuamg find them by name: gpupc/devmat.h) */
PETSC_INTERN const GPUPCMatBlockOps GPUPCSegCSRBlockOps, GPUPCHECBlockOps, GPUPCBCSRBlockOps;

PETSC_INTERN PetscErrorCode GPUPCMatBlocksFromBase(Mat, const GPUPCMatBlockOps *);
/* an assembled SEQAIJ whose host arrays hold the CSR given with its columns and values on the device (csr->device) into
   the sequential type of ops in place, its device block laid out from that device CSR (no host layout, no upload) */
PETSC_INTERN PetscErrorCode GPUPCMatBlocksFromBaseDeviceCSR(Mat, const GPUPCMatBlockOps *, const GPUPCCSR *);
/* new values of a sequential segcsr, hec or bcsr matrix from device CSR on its pattern (its host arrays already hold them);
   *done false (nothing done) for another type or a layout that is not current */
PETSC_INTERN PetscErrorCode GPUPCMatBlocksUploadDeviceCSR(Mat, const GPUPCCSR *, PetscBool *);
PETSC_INTERN PetscErrorCode GPUPCMatBlocksCreate(Mat, MatType, const GPUPCMatBlockOps *);
PETSC_INTERN PetscErrorCode GPUPCMatBlocksCreateRoot(Mat, PetscErrorCode (*)(Mat), PetscErrorCode (*)(Mat));
PETSC_INTERN PetscErrorCode GPUPCMatConvert_Blocks_Base(Mat, MatType, MatReuse, Mat *);
PETSC_INTERN PetscErrorCode GPUPCMatBlocksSetDeviceOps(Mat);
PETSC_INTERN PetscErrorCode GPUPCMatBlocksBuild(Mat);
PETSC_INTERN PetscErrorCode GPUPCMatBlocksUpload(Mat);

/* GPUPC_MAT_BLOCK_OPS_DEFINE(Stem, DiagArgs): the block operations of a type that only call its block functions and
   kernel table, named Stem##Block<Op> (static): Upload, Destroy, Counts, Mult, MultTransposeAdd, GetDiagonal,
   KernelsName, View. The type provides GPUPC<Stem>Block (the host record of a block, whose member d is what the kernels
   take), GPUPC<Stem>BlockUploadValues, GPUPC<Stem>BlockDestroy, GPUPC<Stem>BlockView, GPUPC<Stem>Kernels and
   GPUPCGet<Stem>Kernels; DiagArgs is the argument list of its getdiagonal kernel in dv (the device block) and d (the
   output), e.g. (dv, 0, d). */
#define GPUPC_MAT_BLOCK_OPS_DEFINE(Stem, DiagArgs)                                                                    \
  static PetscErrorCode Stem##BlockUpload(const GPUPCCSR *csr, void *b)                                               \
  {                                                                                                                   \
    PetscFunctionBegin;                                                                                               \
    PetscCall(GPUPC##Stem##BlockUploadValues(csr, (GPUPC##Stem##Block *)b));                                          \
    PetscFunctionReturn(0);                                                                                           \
  }                                                                                                                   \
  static PetscErrorCode Stem##BlockDestroy(void *b)                                                                   \
  {                                                                                                                   \
    PetscFunctionBegin;                                                                                               \
    PetscCall(GPUPC##Stem##BlockDestroy((GPUPC##Stem##Block *)b));                                                    \
    PetscFunctionReturn(0);                                                                                           \
  }                                                                                                                   \
  static void Stem##BlockCounts(const void *b, PetscInt *m, PetscInt *nnz)                                            \
  {                                                                                                                   \
    *m   = ((const GPUPC##Stem##Block *)b)->d.m;                                                                      \
    *nnz = ((const GPUPC##Stem##Block *)b)->d.nnz;                                                                    \
  }                                                                                                                   \
  static PetscErrorCode Stem##BlockMult(const void *b, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)    \
  {                                                                                                                   \
    const GPUPC##Stem##Kernels *k;                                                                                    \
    PetscFunctionBegin;                                                                                               \
    PetscCall(GPUPCGet##Stem##Kernels(&k));                                                                           \
    PetscCall(k->mult(&((const GPUPC##Stem##Block *)b)->d, x, z, y));                                                 \
    PetscFunctionReturn(0);                                                                                           \
  }                                                                                                                   \
  static PetscErrorCode Stem##BlockMultTransposeAdd(const void *b, const PetscScalar *x, PetscScalar *y)              \
  {                                                                                                                   \
    const GPUPC##Stem##Kernels *k;                                                                                    \
    PetscFunctionBegin;                                                                                               \
    PetscCall(GPUPCGet##Stem##Kernels(&k));                                                                           \
    PetscCall(k->multtransposeadd(&((const GPUPC##Stem##Block *)b)->d, x, y));                                        \
    PetscFunctionReturn(0);                                                                                           \
  }                                                                                                                   \
  static PetscErrorCode Stem##BlockGetDiagonal(const void *b, PetscScalar *d)                                         \
  {                                                                                                                   \
    const GPUPC##Stem##Kernels *k;                                                                                    \
    const void                 *dv = &((const GPUPC##Stem##Block *)b)->d;                                             \
    PetscFunctionBegin;                                                                                               \
    PetscCall(GPUPCGet##Stem##Kernels(&k));                                                                           \
    PetscCall(k->getdiagonal DiagArgs);                                                                               \
    PetscFunctionReturn(0);                                                                                           \
  }                                                                                                                   \
  static PetscErrorCode Stem##BlockKernelsName(const char **name)                                                     \
  {                                                                                                                   \
    const GPUPC##Stem##Kernels *k;                                                                                    \
    PetscFunctionBegin;                                                                                               \
    PetscCall(GPUPCGet##Stem##Kernels(&k));                                                                           \
    *name = k->name;                                                                                                  \
    PetscFunctionReturn(0);                                                                                           \
  }                                                                                                                   \
  static PetscErrorCode Stem##BlockView(const void *b, const char *label, PetscBool synchronized, PetscViewer viewer) \
  {                                                                                                                   \
    PetscFunctionBegin;                                                                                               \
    PetscCall(GPUPC##Stem##BlockView((GPUPC##Stem##Block *)b, label, synchronized, viewer));                          \
    PetscFunctionReturn(0);                                                                                           \
  }

#endif

/*
   gpupc/kerneltable.h - one declaration per kernel table (private to GPUPC and its tests).

   Every kernel table (vec, segcsr, cmg, halo) is declared once, as an X-macro list:

     #define GPUPC_FOO_KERNEL_LIST(X, A) \
       X(A, member, Stem, (parameters)) \
       ...

   member is the struct member (and its name in messages), Stem the stem of its two
   implementations, Stem_Host (the plain C reference) and Stem_CUDA, and (parameters) the
   parenthesised parameter list; every kernel returns PetscErrorCode. A is passed through
   to X unchanged (a prefix or a suffix, see below). From the list come:

     the struct:       typedef GPUPC_KERNEL_TABLE(GPUPC_FOO_KERNEL_LIST) GPUPCFooKernels;
     member indices:   GPUPC_FOO_KERNEL_LIST(GPUPC_KERNEL_ENUM, GPUPC_FOO_KERNEL_) gives
                       GPUPC_FOO_KERNEL_<member>, in list order (for tests that walk a table)
     member names:     GPUPC_FOO_KERNEL_LIST(GPUPC_KERNEL_NAME, ) gives "member", ...
     the two tables:   GPUPC_KERNEL_TABLE_DEFINE(GPUPCFooKernels, GPUPCFooKernelsHost,
                                                 GPUPC_FOO_KERNEL_LIST, "host", _Host);

   GPUPC_KERNEL_TABLE_DEFINE declares Stem_Host (or Stem_CUDA) static with the list's
   parameters for every member and fills the table with designated initializers
   (.member = Stem_Host), so an implementation with other parameter types does not
   compile (C: conflicting types; C++: an overload that is never defined), a missing one
   does not link, and no two entries can be swapped. Use it after the implementations, in
   the file that defines them.

   GPUPCKernelTableSelect() is the one place that picks a table by backend; each table's
   getters (GPUPCGetVecKernels, GPUPCGetVecKernelsFor, ...) call it.
*/
#ifndef GPUPC_KERNELTABLE_H
#define GPUPC_KERNELTABLE_H

#include <gpupc/device.h>

/* a small inline function of a kernel header that the host reference and the CUDA kernels both call (one
   implementation of a rule, such as a row's bin) */
#if defined(__CUDACC__)
#define GPUPC_HOST_DEVICE __host__ __device__
#else
#define GPUPC_HOST_DEVICE
#endif

/* X-macros for the lists: A is the pass-through argument */
#define GPUPC_KERNEL_MEMBER(A, member, stem, params)  PetscErrorCode(*member) params;
#define GPUPC_KERNEL_ENUM(A, member, stem, params)    A##member,
#define GPUPC_KERNEL_NAME(A, member, stem, params)    #member,
#define GPUPC_KERNEL_DECLARE(A, member, stem, params) static PetscErrorCode stem##A params;
#define GPUPC_KERNEL_INIT(A, member, stem, params)    .member = stem##A,

/* the struct of a table: its name ("host", "cuda"), then one function pointer per member, in list order */
#define GPUPC_KERNEL_TABLE(LIST) \
  struct {                       \
    const char *name;            \
    LIST(GPUPC_KERNEL_MEMBER, )  \
  }

/* defines the table var of type Type named label from the implementations <stem><suffix> (suffix _Host or _CUDA) */
#define GPUPC_KERNEL_TABLE_DEFINE(Type, var, LIST, label, suffix) \
  LIST(GPUPC_KERNEL_DECLARE, suffix)                              \
  const Type var = {.name = label, LIST(GPUPC_KERNEL_INIT, suffix)}

/* the CUDA table of a getter: its address, or NULL in a build without CUDA */
#if defined(GPUPC_HAVE_CUDA)
#define GPUPC_CUDA_TABLE(t) ((const void *)&(t))
#else
#define GPUPC_CUDA_TABLE(t) ((const void *)NULL)
#endif

PETSC_EXTERN PetscErrorCode GPUPCKernelTableSelect(PetscGPUPCBackend, const void *, const void *, const char *, const void **);
PETSC_EXTERN PetscErrorCode GPUPCKernelTableSelectActive(const void *, const void *, const char *, const void **);

/* GPUPC_KERNEL_TABLE_GETTERS(Type, Stem, label) defines the two getters of the table Type whose implementations are
   GPUPC<Stem>KernelsHost and GPUPC<Stem>KernelsCUDA (label names it in messages):

     PetscErrorCode GPUPCGet<Stem>KernelsFor(PetscGPUPCBackend backend, const Type **k) - the table of a backend (the
       CUDA table is only usable when the active backend is CUDA: its pointers are device pointers);
     PetscErrorCode GPUPCGet<Stem>Kernels(const Type **k) - the table of the active backend.

   Both are declared PETSC_EXTERN in the table's header; the choice itself is GPUPCKernelTableSelect. */
#define GPUPC_KERNEL_TABLE_GETTERS(Type, Stem, label)                                                                                           \
  PetscErrorCode GPUPCGet##Stem##KernelsFor(PetscGPUPCBackend backend, const Type **k)                                                          \
  {                                                                                                                                             \
    PetscFunctionBegin;                                                                                                                         \
    PetscCall(GPUPCKernelTableSelect(backend, &GPUPC##Stem##KernelsHost, GPUPC_CUDA_TABLE(GPUPC##Stem##KernelsCUDA), label, (const void **)k)); \
    PetscFunctionReturn(0);                                                                                                                     \
  }                                                                                                                                             \
  PetscErrorCode GPUPCGet##Stem##Kernels(const Type **k)                                                                                        \
  {                                                                                                                                             \
    PetscFunctionBegin;                                                                                                                         \
    PetscCall(GPUPCKernelTableSelectActive(&GPUPC##Stem##KernelsHost, GPUPC_CUDA_TABLE(GPUPC##Stem##KernelsCUDA), label, (const void **)k));    \
    PetscFunctionReturn(0);                                                                                                                     \
  }

#endif

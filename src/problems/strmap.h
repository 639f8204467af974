/*
   strmap.h - string to index map (open addressing) for node names; indices are handed out
   in order of first insertion.
*/
#ifndef GPUPC_STRMAP_H
#define GPUPC_STRMAP_H

#include <petscsys.h>

typedef struct {
  char     *arena; /* the names, NUL-separated */
  size_t    arena_len, arena_cap;
  size_t   *offset; /* offset[id] of the name of id */
  PetscInt  count, idcap;
  PetscInt *slots;  /* id + 1, 0 when empty */
  size_t    nslots; /* power of two */
} GPUPCStrMap;

PETSC_INTERN PetscErrorCode GPUPCStrMapGetOrAdd(GPUPCStrMap *, const char[], PetscInt *);
PETSC_INTERN PetscErrorCode GPUPCStrMapDestroy(GPUPCStrMap *);
PETSC_INTERN const char    *GPUPCStrMapName(const GPUPCStrMap *, PetscInt);

#endif

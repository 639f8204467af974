/*
   String to index map for the netlist reader's node names.
*/
#include "strmap.h"
#include <string.h>
#include <stdint.h>

static uint64_t Fnv1a(const char *s)
{
  uint64_t h = 1469598103934665603ULL;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return h;
}

static PetscErrorCode Grow(GPUPCStrMap *m)
{
  size_t    n = m->nslots ? 2 * m->nslots : 1024;
  PetscInt *s;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(n, &s));
  for (PetscInt id = 0; id < m->count; id++) {
    size_t k = (size_t)Fnv1a(m->arena + m->offset[id]) & (n - 1);
    while (s[k]) k = (k + 1) & (n - 1);
    s[k] = id + 1;
  }
  PetscCall(PetscFree(m->slots));
  m->slots  = s;
  m->nslots = n;
  PetscFunctionReturn(0);
}

PetscErrorCode GPUPCStrMapGetOrAdd(GPUPCStrMap *m, const char name[], PetscInt *id)
{
  size_t k, len = strlen(name) + 1;

  PetscFunctionBegin;
  if (2 * (size_t)(m->count + 1) > m->nslots) PetscCall(Grow(m));
  k = (size_t)Fnv1a(name) & (m->nslots - 1);
  while (m->slots[k]) {
    if (!strcmp(m->arena + m->offset[m->slots[k] - 1], name)) {
      *id = m->slots[k] - 1;
      PetscFunctionReturn(0);
    }
    k = (k + 1) & (m->nslots - 1);
  }
  PetscCheck(m->count < PETSC_MAX_INT - 1, PETSC_COMM_SELF, PETSC_ERR_SUP, "More than %d node names", (int)PETSC_MAX_INT);
  if (m->arena_len + len > m->arena_cap) {
    size_t cap = PetscMax(2 * m->arena_cap, m->arena_len + len + 4096);
    PetscCall(PetscRealloc(cap, &m->arena));
    m->arena_cap = cap;
  }
  if (m->count == m->idcap) {
    m->idcap = m->idcap ? 2 * m->idcap : 1024;
    PetscCall(PetscRealloc((size_t)m->idcap * sizeof(size_t), &m->offset));
  }
  memcpy(m->arena + m->arena_len, name, len);
  m->offset[m->count] = m->arena_len;
  m->arena_len += len;
  m->slots[k] = m->count + 1;
  *id         = m->count++;
  PetscFunctionReturn(0);
}

const char *GPUPCStrMapName(const GPUPCStrMap *m, PetscInt id)
{
  return m->arena + m->offset[id];
}

PetscErrorCode GPUPCStrMapDestroy(GPUPCStrMap *m)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(m->arena));
  PetscCall(PetscFree(m->offset));
  PetscCall(PetscFree(m->slots));
  PetscCall(PetscMemzero(m, sizeof(*m)));
  PetscFunctionReturn(0);
}

/*
   amgacrossrows.h - the per-point code of PC gpuamg's device PMIS across ranks, one code for the host reference
   (host/amgacrosskernels_host.c) and the CUDA kernels (cuda/amgacrosskernels.cu). Each function is one point of a step
   of the host setup's PMISRounds (amgsetupcoarsenacross.c): the same tests in the same order, the measures compared
   with ties broken by the global number, so both tables and the host setup split alike on any number of ranks.
*/
#ifndef GPUPC_AMGACROSSROWS_H
#define GPUPC_AMGACROSSROWS_H

#include <gpupc/amgacrosskernels.h>

/* point j beats point i: larger measure, ties by the larger global number */
static inline GPUPC_AMG_HD int GPUPCAMGAcrossBeats(const PetscReal *w, const PetscInt *g, PetscInt j, PetscInt i)
{
  return w[j] > w[i] || (w[j] == w[i] && g[j] > g[i]);
}

/* the entries of the increasing tj[lo .. hi) below n (the owned rows that depend on the point) */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGAcrossOwnedEnd(const PetscInt *tj, PetscInt lo, PetscInt hi, PetscInt n)
{
  PetscInt a = lo, b = hi;

  while (a < b) {
    PetscInt mid = a + (b - a) / 2;
    if (tj[mid] < n) a = mid + 1;
    else b = mid;
  }
  return a;
}

/* PMIS start of point p: its measure; an owned undecided point without dependences on any rank is F (reset: U first);
   returns 1 when p is owned and undecided */
static inline GPUPC_AMG_HD int GPUPCAMGAcrossMeasure(PetscInt n, const PetscInt *cnt, const PetscInt *gidx, PetscInt reset, PetscInt p, PetscReal *w, PetscInt *cf)
{
  w[p] = (PetscReal)cnt[p] + GPUPCAMGRandom(gidx[p]);
  if (p >= n) return 0;
  if (reset) cf[p] = GPUPC_AMG_U;
  if (cf[p] == GPUPC_AMG_U && cnt[p] == 0) cf[p] = GPUPC_AMG_F;
  return cf[p] == GPUPC_AMG_U;
}

/* an undecided owned row that depends on the undecided point p beats it */
static inline GPUPC_AMG_HD PetscInt GPUPCAMGAcrossBeaten(const PetscInt *STi, const PetscInt *STj, PetscInt n, const PetscReal *w, const PetscInt *gidx, const PetscInt *cf, PetscInt p)
{
  if (cf[p] != GPUPC_AMG_U) return 0;
  for (PetscInt e = STi[p]; e < STi[p + 1] && STj[e] < n; e++)
    if (cf[STj[e]] == GPUPC_AMG_U && GPUPCAMGAcrossBeats(w, gidx, STj[e], p)) return 1;
  return 0;
}

/* the owned point i becomes C: undecided, beaten by no row on any rank that depends on it, nor by a point it depends on */
static inline GPUPC_AMG_HD char GPUPCAMGAcrossSelect(const PetscInt *Si, const PetscInt *Sj, const PetscReal *w, const PetscInt *gidx, const PetscInt *cf, const PetscInt *beaten, PetscInt i)
{
  if (cf[i] != GPUPC_AMG_U || beaten[i]) return 0;
  for (PetscInt e = Si[i]; e < Si[i + 1]; e++)
    if (cf[Sj[e]] == GPUPC_AMG_U && GPUPCAMGAcrossBeats(w, gidx, Sj[e], i)) return 0;
  return 1;
}

#endif

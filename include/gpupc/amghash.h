/*
   gpupc/amghash.h - the random part of PC gpuamg's coarsening measures: a hash of the global row index.

   One function for the host setup (amgsetupcoarsen.c) and the device setup's kernels (gpupc/amgsetupkernels.h, host
   reference and CUDA), so both give the same measures and the same C/F splitting for any thread count or launch
   shape. It is the splitmix64 finaliser of g + the golden-ratio increment, scaled to [0, 1) by its top 53 bits
   (exact in double precision on both sides).
*/
#ifndef GPUPC_AMGHASH_H
#define GPUPC_AMGHASH_H

#include <petscsys.h>

#if defined(__CUDACC__)
#define GPUPC_AMG_HD __host__ __device__
#else
#define GPUPC_AMG_HD
#endif

/* the splitmix64 finaliser of z scaled to [0, 1) by its top 53 bits */
static inline GPUPC_AMG_HD PetscReal GPUPCAMGHash01(unsigned long long z)
{
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z = z ^ (z >> 31);
  return (PetscReal)(z >> 11) * (1.0 / 9007199254740992.0);
}

/* the hash of global row g, in [0,1) */
static inline GPUPC_AMG_HD PetscReal GPUPCAMGRandom(PetscInt g)
{
  return GPUPCAMGHash01((unsigned long long)g + 0x9e3779b97f4a7c15ULL);
}

/* entry g of the start vector of stream seed (the smoothers' Lanczos estimates), in [-1, 1): a hash of the global
   index, so the vector is the same for any rank count, thread count or launch shape */
static inline GPUPC_AMG_HD PetscReal GPUPCAMGRandomSigned(PetscInt seed, PetscInt g)
{
  return 2.0 * GPUPCAMGHash01((unsigned long long)g + 0x9e3779b97f4a7c15ULL * (2ULL * (unsigned long long)seed + 3ULL)) - 1.0;
}

#endif

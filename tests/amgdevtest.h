/*
   Helpers of the tests of PC gpuamg's device setup against its host setup (kernel_equiv_amgsetup,
   kernel_equiv_amgaggr): device arrays back to the host, integer arrays compared entry by entry.
*/
#ifndef AMGDEVTEST_H
#define AMGDEVTEST_H

#include <petscsys.h>
#include <gpupc/device.h>

/* device array of n items back to a new host array */
#define Back(h, d, n) (PetscMalloc1(PetscMax((n), 1), &(h)) || GPUPCCopyToHost((h), (d), (n)))

/* an error naming the first q where the device setup's dev[q] differs from the reference's (the host setup's) */
static inline PetscErrorCode ExpectEqualInts(const char *what, const char *name, PetscInt n, const PetscInt *dev, const PetscInt *ref)
{
  PetscFunctionBegin;
  for (PetscInt q = 0; q < n; q++) PetscCheck(dev[q] == ref[q], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %s[%" PetscInt_FMT "] is %" PetscInt_FMT " on the device setup, %" PetscInt_FMT " in the reference (the host setup's)", what, name, q, dev[q], ref[q]);
  PetscFunctionReturn(0);
}

#endif

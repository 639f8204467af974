#!/usr/bin/env python3
"""Solve a 3D Laplacian from Python (petsc4py) with GPUPC's PC cmg and GPU vectors.

    python3 examples/python/solve.py [-n 24] [-rtol 1e-8] [PETSc options]
    mpiexec -n 2 python3 examples/python/solve.py -n 32 -ksp_view

GPUPC is a PETSc plugin: it is loaded at PetscInitialize with -dll_append <lib/libpetscgpupc.so>
(the library next to this checkout, or $GPUPC_LIB), after which its types are PETSc types like
any other: -vec_type gpu (here set on the vectors), PC "cmg" (set on the KSP), Mat "segcsr".
The matrix is the 7-point Laplacian of an n^3 grid with Dirichlet boundary (diagonally dominant,
as cmg requires), b = A * ones; the script checks the residual and the error of the solution
and exits nonzero when either is too large.
"""
import os
import sys

import petsc4py

here = os.path.dirname(os.path.abspath(__file__))
lib = os.environ.get("GPUPC_LIB", os.path.join(here, "..", "..", "lib", "libpetscgpupc.so"))
if not os.path.exists(lib):
    sys.exit(f"solve.py: the GPUPC library {lib} does not exist; run make, or set GPUPC_LIB")
petsc4py.init(sys.argv + ["-dll_append", os.path.abspath(lib)])
from petsc4py import PETSc  # noqa: E402  (after init: the options must reach PetscInitialize)


def laplacian(n, comm):
    """7-point Laplacian of an n^3 grid, rows split by PETSc"""
    N = n * n * n
    A = PETSc.Mat().createAIJ([N, N], nnz=(7, 6), comm=comm)
    lo, hi = A.getOwnershipRange()
    for row in range(lo, hi):
        i, j, k = row % n, (row // n) % n, row // (n * n)
        A.setValue(row, row, 6.0)
        for di, dj, dk in ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)):
            ii, jj, kk = i + di, j + dj, k + dk
            if 0 <= ii < n and 0 <= jj < n and 0 <= kk < n:
                A.setValue(row, ii + n * (jj + n * kk), -1.0)
    A.assemble()
    return A


def main():
    comm = PETSc.COMM_WORLD
    opts = PETSc.Options()
    n = opts.getInt("n", 24)
    rtol = opts.getReal("rtol", 1e-8)
    A = laplacian(n, comm)
    x = PETSc.Vec().create(comm=comm)
    x.setSizes(A.getSizes()[0])
    x.setType("gpu")  # GPUPC's vector type (seqgpu / mpigpu); -vec_type in the options may still override it
    x.setFromOptions()
    b, u = x.duplicate(), x.duplicate()
    u.set(1.0)
    A.mult(u, b)
    ksp = PETSc.KSP().create(comm=comm)
    ksp.setOperators(A)
    ksp.setType("cg")
    ksp.getPC().setType("cmg")  # GPUPC's combinatorial multigrid
    ksp.setTolerances(rtol=rtol, max_it=100)
    ksp.setFromOptions()
    x.set(0.0)
    ksp.solve(b, x)
    r = b.duplicate()
    A.mult(x, r)
    r.aypx(-1.0, b)  # r = b - A x
    res, bnorm = r.norm(), b.norm()
    r.waxpy(-1.0, u, x)  # x - ones
    err = r.norm() / u.norm()
    its, reason = ksp.getIterationNumber(), ksp.getConvergedReason()
    PETSc.Sys.Print(f"solve.py: n={n}^3 rows={A.getSize()[0]} ranks={comm.getSize()} vec={x.getType()} "
                    f"ksp={ksp.getType()} pc={ksp.getPC().getType()} its={its} reason={reason} "
                    f"relres={res / bnorm:.3e} relerr={err:.3e}")
    ok = reason > 0 and res <= 10 * rtol * bnorm and err <= 1e-4 and x.getType() in ("seqgpu", "mpigpu")
    for o in (r, ksp, b, u, x, A):
        o.destroy()
    if not ok:
        PETSc.Sys.Print("solve.py: FAILED (not converged, residual or error too large, or the vectors are not GPUPC's)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

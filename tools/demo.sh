#!/usr/bin/env bash
# make demo: solve the default problem. The solve driver (gpupc-solve) is not built yet.
echo "make demo: not yet - the solve driver gpupc-solve has not landed (see the project's issue list)."
echo "What works now: make check (VecOp and KSP tests), and -vec_type gpu in any PETSc program."

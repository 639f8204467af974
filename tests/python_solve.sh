#!/usr/bin/env bash
# examples/python/solve.py through petsc4py (Debian's python3-petsc4py, installed by tools/install-deps.sh): GPUPC
# loaded with -dll_append, PCG with PC cmg on GPU vectors; the script checks the residual, the error and the vector
# type and exits nonzero otherwise. Missing petsc4py is a failure, not a skip.
#   tests/python_solve.sh <np> [options]   (called by tests/run.sh)
set -u
np=$1; shift
here=$(cd "$(dirname "$0")" && pwd)
py=${GPUPC_PYTHON:-/usr/bin/python3} # Debian's interpreter: petsc4py is built for it (a pyenv or venv python lacks it)
"$py" -c "import petsc4py" 2>/dev/null || { echo "petsc4py is not importable by $py: run tools/install-deps.sh (Debian package python3-petsc4py)"; exit 1; }
out=$(${MPIEXEC:-mpiexec} -n "$np" "$py" "$here/../examples/python/solve.py" "$@" 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || { echo "solve.py failed (exit $rc)"; exit 1; }
echo "$out" | grep -q "solve.py: n=.* pc=cmg its=" || { echo "no summary line from solve.py"; exit 1; }

#!/usr/bin/env bash
# PC gpuamg on gpupc-solve's built-in problems: CG (or the KSP the options name) to a relative residual of 1e-8 must
# converge in at most <maxits> iterations.
#   tests/amg_solve.sh <np> <maxits> <gpupc-solve options>   (called by tests/run.sh)
set -u
np=$1; maxits=$2; shift 2
here=$(cd "$(dirname "$0")" && pwd)
solve=${GPUPC_SOLVE_BIN:-$here/../build/bin/gpupc-solve}
out=$(${MPIEXEC:-mpiexec} -n "$np" "$solve" -pc_type gpuamg -ksp_rtol 1e-8 "$@" 2>&1) || { echo "$out"; echo "gpupc-solve failed"; exit 1; }
line=$(echo "$out" | grep -m1 '^gpupc-solve:') || { echo "$out"; echo "no summary line"; exit 1; }
echo "$line"
its=$(echo "$line" | sed -n 's/.* its=\([0-9]*\) .*/\1/p')
echo "$line" | grep -q 'reason=CONVERGED' || { echo "not converged"; exit 1; }
[ -n "$its" ] && [ "$its" -le "$maxits" ] || { echo "$its iterations, more than $maxits"; exit 1; }
echo "converged in $its <= $maxits iterations"

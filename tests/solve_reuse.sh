#!/usr/bin/env bash
# gpupc-solve -reuse: after the solve the matrix is scaled by 1.5 and set up again on the same pattern (the PC's
# value-only setup); the same Krylov method on the scaled system takes the same iterations (up to one, rounding), and
# the final true residual is the scaled system's (below 1e-6: the KSP stops at 1e-8 of the preconditioned norm; cmg on
# the cuda backend ends at 1.6e-7). For cmg and gpuamg (device setup on the cuda backend, its host-table run on the
# host backend).
#   tests/solve_reuse.sh <np> [options]   (called by tests/run.sh)
set -u
np=$1; shift
here=$(cd "$(dirname "$0")" && pwd)
solve=${GPUPC_SOLVE_BIN:-$here/../build/bin/gpupc-solve}
for pc in cmg gpuamg; do
  base=$(${MPIEXEC:-mpiexec} -n "$np" "$solve" -problem randcoef3d -n 27000 -ksp_type cg -pc_type $pc "$@" 2>&1) || { echo "$base"; echo "$pc: the plain run failed"; exit 1; }
  out=$(${MPIEXEC:-mpiexec} -n "$np" "$solve" -problem randcoef3d -n 27000 -ksp_type cg -pc_type $pc -reuse "$@" 2>&1) || { echo "$out"; echo "$pc: the run with -reuse failed"; exit 1; }
  its0=$(echo "$base" | sed -n 's/^gpupc-solve:.* its=\([0-9]*\) .*/\1/p')
  line=$(echo "$out" | grep "^gpupc-solve reuse:") || { echo "$out"; echo "$pc: no 'gpupc-solve reuse:' line"; exit 1; }
  its1=$(echo "$line" | sed -n 's/.* its=\([0-9]*\).*/\1/p')
  rel=$(echo "$out" | sed -n 's/^gpupc-solve:.* relres=\([^ ]*\) .*/\1/p')
  [ -n "$its0" ] && [ -n "$its1" ] && [ -n "$rel" ] || { echo "$base"; echo "$out"; echo "$pc: cannot read the iterations or the residual"; exit 1; }
  [ $((its1 - its0)) -le 1 ] && [ $((its0 - its1)) -le 1 ] || { echo "$out"; echo "$pc: $its0 iterations on A, $its1 on 1.5 A after the value-only setup"; exit 1; }
  awk -v r="$rel" 'BEGIN {exit !(r < 1e-6)}' || { echo "$out"; echo "$pc: relative residual $rel after the reuse"; exit 1; }
  echo "$pc: $its0 iterations, $its1 after the value-only setup on 1.5 A ($line), relres $rel"
done

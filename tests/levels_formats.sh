#!/usr/bin/env bash
# Level matrices in every format of the shared device-Mat layer (gpupc/devmat.h): gpupc-solve with the PC and each
# -<pc>_mat_type format must converge in exactly the iterations of the segcsr levels (the same arithmetic up to
# rounding), and -ksp_view must name the format of every level.
#   tests/levels_formats.sh <np> <pc> <formats> <gpupc-solve options>   (called by tests/run.sh)
#   <formats>: comma-separated list compared against segcsr, e.g. hec,bcsr,auto
set -u
np=$1; pc=$2; formats=$3; shift 3
here=$(cd "$(dirname "$0")" && pwd)
solve=${GPUPC_SOLVE_BIN:-$here/../build/bin/gpupc-solve}
run() { # format -> prints the iterations; fails on a solver error or no convergence
  local f=$1 out line
  shift
  out=$(${MPIEXEC:-mpiexec} -n "$np" "$solve" -pc_type "$pc" -ksp_rtol 1e-8 -pc_${pc}_mat_type "$f" -ksp_view "$@" 2>&1) || { echo "$out" >&2; echo "gpupc-solve failed with -pc_${pc}_mat_type $f" >&2; return 1; }
  line=$(echo "$out" | grep -m1 '^gpupc-solve:') || { echo "$out" >&2; echo "no summary line" >&2; return 1; }
  echo "$line" | grep -q 'reason=CONVERGED' || { echo "$line" >&2; echo "-pc_${pc}_mat_type $f: not converged" >&2; return 1; }
  if [ "$np" = 1 ]; then
    echo "$out" | grep -q "level 0 matrix: $( [ "$f" = auto ] && echo '[a-z]* (auto' || echo "$f (asked for")" || { echo "$out" | grep -i "matri" >&2; echo "-ksp_view does not name level 0's format $f" >&2; return 1; }
  fi
  echo "$line" | sed -n 's/.* its=\([0-9]*\) .*/\1/p'
}
opts=("$@")
ref=$(run segcsr "${opts[@]}") || exit 1
echo "segcsr: $ref iterations"
for f in ${formats//,/ }; do
  its=$(run "$f" "${opts[@]}") || exit 1
  echo "$f: $its iterations"
  [ "$its" = "$ref" ] || { echo "-pc_${pc}_mat_type $f: $its iterations, segcsr $ref"; exit 1; }
done
echo "every format converged in the $ref iterations of segcsr"

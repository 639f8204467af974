#!/usr/bin/env bash
# A bad -mat_hec_ratio (not positive) or -mat_hec_ell_width (below -1) value is a clear error that names the option
# and says what is allowed: hec_mult must stop with it.
#   tests/hec_badoption.sh <np> [options]   (called by tests/run.sh)
# The failing run's output (PETSc's error trace) is shown only when the check fails.
set -u
np=$1; shift
extra=("$@") # the runner's options
here=$(cd "$(dirname "$0")" && pwd)
bin=${GPUPC_TEST_BIN:-$here/../build/tests}
check() { # check <option> <value> <expected message>
  out=$(${MPIEXEC:-mpiexec} -n "$np" "$bin/hec_mult" -m 50 "$1" "$2" "${extra[@]}" 2>&1) && { echo "$out"; echo "hec_mult accepted $1 $2"; exit 1; }
  msg=$(echo "$out" | grep -m1 -F -e "$3") || { echo "$out"; echo "no error saying \"$3\" for $1 $2"; exit 1; }
  echo "refused as expected: ${msg#*ERROR: }"
}
check -mat_hec_ratio 0 "-mat_hec_ratio: hec cost ratio p_r = 0. is invalid; use a positive number"
check -mat_hec_ratio -3 "-mat_hec_ratio: hec cost ratio p_r = -3. is invalid; use a positive number"
check -mat_hec_ell_width -4 "-mat_hec_ell_width: hec ELL width -4 is invalid; use K >= 0 to force the width, or -1 (PETSC_DECIDE)"

#!/usr/bin/env bash
# Out-of-range -pc_gpubjacobi_block_size values are PETSc errors that name the option and the accepted values:
# gpubjacobi must stop with each of them.
#   tests/gpubjacobi_badoption.sh <np> [options]   (called by tests/run.sh)
# A failing run's output is shown only when the check fails.
set -u
np=$1; shift
here=$(cd "$(dirname "$0")" && pwd)
bin=${GPUPC_TEST_BIN:-$here/../build/tests}
opts="$*"
check() { # check <value> <expected message>
  out=$(${MPIEXEC:-mpiexec} -n "$np" "$bin/gpubjacobi" -mode pbj -bs_min 2 -bs_max 2 $opts -pc_gpubjacobi_block_size "$1" 2>&1) && { echo "$out"; echo "gpubjacobi accepted -pc_gpubjacobi_block_size $1"; exit 1; }
  msg=$(echo "$out" | grep -m1 -F -- "$2") || { echo "$out"; echo "no PETSc error saying: $2"; exit 1; }
  echo "refused as expected: ${msg#*ERROR: }"
}
check 0 "-pc_gpubjacobi_block_size must be between 1 and 32 (or PETSC_DECIDE for the matrix's block size), got 0"
check 33 "-pc_gpubjacobi_block_size must be between 1 and 32 (or PETSC_DECIDE for the matrix's block size), got 33"
check -7 "-pc_gpubjacobi_block_size must be between 1 and 32 (or PETSC_DECIDE for the matrix's block size), got -7"

#!/usr/bin/env bash
# Out-of-range integer options of PC cmg are PETSc errors that name the option and the accepted values:
# cmg_cycle must stop with each of them.
#   tests/cmg_badoption.sh <np> [options]   (called by tests/run.sh)
# A failing run's output is shown only when the check fails.
set -u
np=$1; shift
here=$(cd "$(dirname "$0")" && pwd)
bin=${GPUPC_TEST_BIN:-$here/../build/tests}
opts="$*"
check() { # check <option> <value> <expected message>
  out=$(${MPIEXEC:-mpiexec} -n "$np" "$bin/cmg_cycle" -n 24 $opts "$1" "$2" 2>&1) && { echo "$out"; echo "cmg_cycle accepted $1 $2"; exit 1; }
  msg=$(echo "$out" | grep -m1 -F -- "$3") || { echo "$out"; echo "no PETSc error saying: $3"; exit 1; }
  echo "refused as expected: ${msg#*ERROR: }"
}
check -pc_cmg_pack_nnz -1 "-pc_cmg_pack_nnz must be 0 (never pack) or positive, got -1"
check -pc_cmg_fuse_nnz -5 "-pc_cmg_fuse_nnz must be 0 (never fuse) or positive, got -5"
check -pc_cmg_direct_size 0 "-pc_cmg_direct_size must be at least 1, got 0"
check -pc_cmg_setup_threads 0 "-pc_cmg_setup_threads must be at least 1, got 0"

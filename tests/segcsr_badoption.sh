#!/usr/bin/env bash
# A bad -mat_segcsr_short value is a PETSc error that names the option and its values
# (PetscOptionsEnum): segcsr_mult must stop with it.
#   tests/segcsr_badoption.sh <np> [options]   (called by tests/run.sh)
# The failing run's output (PETSc's error trace, and what an error inside the options
# block leaves allocated) is shown only when the check fails.
set -u
np=$1; shift
here=$(cd "$(dirname "$0")" && pwd)
bin=${GPUPC_TEST_BIN:-$here/../build/tests}
out=$(${MPIEXEC:-mpiexec} -n "$np" "$bin/segcsr_mult" -m 50 "$@" -mat_segcsr_short rows 2>&1) && { echo "$out"; echo "segcsr_mult accepted -mat_segcsr_short rows"; exit 1; }
msg=$(echo "$out" | grep -m1 "Unknown option rows for -mat_segcsr_short. Available options: auto group tile") || { echo "$out"; echo "no PETSc error naming -mat_segcsr_short and its values"; exit 1; }
echo "refused as expected: ${msg#*ERROR: }"

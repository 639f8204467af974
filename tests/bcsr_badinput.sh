#!/usr/bin/env bash
# bcsr refuses what it cannot lay out, with an error that says what and how to fix it: a block size outside 1..8
# (-mat_bcsr_block_size 9) and a block size that does not divide the local sizes (-mat_bcsr_block_size 3 on the
# 20 x 25 = 500-row ex2 Laplacian). Runs the unchanged PETSc tutorial ex2 with GPUPC loaded.
#   tests/bcsr_badinput.sh <np> [options]   (called by tests/run.sh)
# The failing run's output is shown only when the check fails.
set -u
np=$1; shift
here=$(cd "$(dirname "$0")" && pwd)
ex2=${GPUPC_TUTORIAL_BIN:-$here/../build/tutorials}/ksp_ex2
lib=$here/../lib/libpetscgpupc.so
[ -x "$ex2" ] || { echo "tutorial $ex2 was not built (is libpetsc3.18-dev-examples installed?)"; exit 1; }
check() { # check <expected message> <options...>
  local want=$1; shift
  local out msg
  out=$(${MPIEXEC:-mpiexec} -n "$np" "$ex2" -m 20 -n 25 -dll_append "$lib" -mat_type bcsr -vec_type gpu "$@" 2>&1) && { echo "$out"; echo "ex2 accepted $*"; exit 1; }
  msg=$(echo "$out" | grep -m1 -- "$want") || { echo "$out"; echo "no error saying: $want"; exit 1; }
  echo "refused as expected ($*): ${msg#*ERROR: }"
}
check "bcsr block size 9 is not supported; use 1 to 8" -mat_bcsr_block_size 9
check "not divisible into 3 x 3 blocks\|must be multiples of it" -mat_bcsr_block_size 3

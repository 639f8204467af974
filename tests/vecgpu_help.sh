#!/usr/bin/env bash
# VecSetFromOptions() on a gpu vector lists -vec_pinned_memory_min under -help, and the option is used (not left
# over): PETSc's unchanged ksp ex2 with -vec_type seqgpu/mpigpu.
#   tests/vecgpu_help.sh <np> [options]   (called by tests/run.sh)
set -u
np=$1; shift
here=$(cd "$(dirname "$0")" && pwd)
bin=${GPUPC_TUTORIAL_BIN:-$here/../build/tutorials}
lib=$here/../lib/libpetscgpupc.so
[ -x "$bin/ksp_ex2" ] || { echo "tutorial $bin/ksp_ex2 was not built (is libpetsc3.18-dev-examples installed?)"; exit 1; }
type=seqgpu; [ "$np" -gt 1 ] && type=mpigpu
out=$(${MPIEXEC:-mpiexec} -n "$np" "$bin/ksp_ex2" -m 8 -n 8 -dll_append "$lib" -vec_type $type "$@" -help 2>&1) || { echo "$out"; echo "ksp ex2 -help failed"; exit 1; }
echo "$out" | grep -q -- "-vec_pinned_memory_min <now 0" || { echo "$out" | grep -i -A2 "gpu vector"; echo "-help does not list -vec_pinned_memory_min"; exit 1; }
out=$(${MPIEXEC:-mpiexec} -n "$np" "$bin/ksp_ex2" -m 8 -n 8 -dll_append "$lib" -vec_type $type -vec_pinned_memory_min -1 "$@" -options_left 2>&1) || { echo "$out"; echo "ksp ex2 with -vec_pinned_memory_min -1 failed"; exit 1; }
echo "$out" | grep -q "There are no unused options" || { echo "$out"; echo "-vec_pinned_memory_min was left unused"; exit 1; }
echo "-help lists -vec_pinned_memory_min; -vec_pinned_memory_min -1 is used"

#!/usr/bin/env bash
# PC cmg's -ksp_view reports the setup threads and the cores the rank may run on (its affinity mask), and warns with
# launch advice when the ranks of the node leave some of its cores unused (src/sys/threads.c):
#   1. every rank under `taskset -c 0`: 1 core, 1 thread, and the advice exactly when np < online cores
#   2. as launched: the core count of the rank's mask (what `nproc` says under the same launcher), the threads of the
#      rule (the mask, divided among the node's ranks when their masks overlap), the advice when np * cores < online
#      (and with Open MPI, under --bind-to none)
#   3. OMP_NUM_THREADS=3 and -pc_cmg_setup_threads 2 override the count
#   tests/cmg_cores.sh <np> [options]   (called by tests/run.sh)
set -u
np=$1; shift
here=$(cd "$(dirname "$0")" && pwd)
bin=${GPUPC_TEST_BIN:-$here/../build/tests}
mpiexec=${MPIEXEC:-mpiexec}
opts="$*"
online=$(getconf _NPROCESSORS_ONLN)
fail() { echo "$out"; echo "FAIL: $*"; exit 1; }
run() { # run <env...> -- <launcher prefix...> -- <extra options>: the output of rank 0's view
  out=$("$@" 2>&1) || fail "the run failed: $*"
}
# the first "host setup" line and whether a warning follows it
check() { # check <threads> <cores> <expect advice: 0|1> <what>
  line=$(echo "$out" | grep -m1 "host setup:") || fail "no 'host setup' line in -ksp_view ($4)"
  echo "$4: $line"
  echo "$line" | grep -qF "host setup: $1 thread(s); this rank may run on $2 core(s) of the node's $online ($np rank(s) on the node)" ||
    fail "$4: expected $1 thread(s) on $2 core(s) of $online with $np rank(s) on the node"
  if [ "$3" = 1 ]; then
    echo "$out" | grep -q "WARNING: this rank is bound to $2 of the node's $online online cores" || fail "$4: no launch advice"
    echo "$out" | grep -qF -- "--bind-to none" || fail "$4: the advice does not name --bind-to none"
    echo "$out" | grep -qF -- "--map-by ppr:" || fail "$4: the advice does not name --map-by ppr:<gpus>:node:PE=<cores>"
  else
    echo "$out" | grep -q "WARNING: this rank is bound to" && fail "$4: launch advice although the ranks may use every core"
  fi
  return 0
}
prog() { echo "$bin/cmg_solve" -n 32 -max_its 40 -ksp_view $opts "$@"; }
# 1. bound to core 0
run env -u OMP_NUM_THREADS $mpiexec -n "$np" taskset -c 0 $(prog)
check 1 1 $([ "$np" -lt "$online" ] && echo 1 || echo 0) "taskset -c 0"
# 2. as launched
cores=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT $mpiexec -n 1 nproc | head -1)
[ "$np" -gt 1 ] && cores=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT $mpiexec -n "$np" nproc | head -1)
if [ $((np * cores)) -le "$online" ]; then threads=$cores; else threads=$((cores / np)); [ "$threads" -ge 1 ] || threads=1; fi
run env -u OMP_NUM_THREADS $mpiexec -n "$np" $(prog)
check "$threads" "$cores" $([ $((np * cores)) -lt "$online" ] && echo 1 || echo 0) "as launched"
# 2b. Open MPI's mpiexec binds a rank to a core by default: unbound, the mask is what the launcher itself may use
if $mpiexec --version 2>&1 | grep -q "Open MPI\|OpenRTE"; then
  cores=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT $mpiexec --bind-to none -n 1 nproc | head -1)
  if [ $((np * cores)) -le "$online" ]; then threads=$cores; else threads=$((cores / np)); [ "$threads" -ge 1 ] || threads=1; fi
  run env -u OMP_NUM_THREADS $mpiexec --bind-to none -n "$np" $(prog)
  check "$threads" "$cores" $([ $((np * cores)) -lt "$online" ] && echo 1 || echo 0) "--bind-to none"
fi
# 3. the overrides
run env OMP_NUM_THREADS=3 $mpiexec -n "$np" $(prog)
echo "$out" | grep -m1 "host setup:" | grep -q "host setup: 3 thread(s); .*; OMP_NUM_THREADS is set" || fail "OMP_NUM_THREADS=3 did not give 3 threads"
run env -u OMP_NUM_THREADS $mpiexec -n "$np" $(prog -pc_cmg_setup_threads 2)
echo "$out" | grep -m1 "host setup:" | grep -q "host setup: 2 thread(s);" || fail "-pc_cmg_setup_threads 2 did not give 2 threads"
echo "the view reports the threads, the cores and the advice"

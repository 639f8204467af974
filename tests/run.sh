#!/usr/bin/env bash
# GPUPC test runner: runs every line of tests/TESTS, in each listed MPI size, with a time
# limit; prints the name and output of each failure; ends with "N passed, N failed".
#
#   tests/run.sh [filter]           filter: run only tests whose name contains it
#   GPUPC_TEST_OPTIONS="-gpupc_backend cuda" tests/run.sh
#   GPUPC_TEST_BIN=dir              where the test programs are (default build/tests)
#   GPUPC_TEST_TIMEOUT=seconds      per run (default 300)
#
# Every run gets -malloc_debug -malloc_dump; any unfreed PETSc memory fails the run.
# Each run's wall time is printed on its line; the 15 slowest runs are listed before the total.
# A test named X with a script tests/X.sh is run as: bash tests/X.sh <np> <options>.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=${GPUPC_TEST_BIN:-$here/../build/tests}
list=${GPUPC_TEST_LIST:-$here/TESTS}
timeout_s=${GPUPC_TEST_TIMEOUT:-300}
opts=${GPUPC_TEST_OPTIONS:-}
filter=${1:-}
mpiexec=${MPIEXEC:-mpiexec}
if [ "$(id -u)" = 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
case "$mpiexec" in *--oversubscribe*) ;; *) $mpiexec --version 2>&1 | grep -q "Open MPI\|OpenRTE" && mpiexec="$mpiexec --oversubscribe";; esac
export TEST_DATA_DIR=$here/data
# one BLAS thread per process: the MPI tests already run more ranks than cores
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}

passed=0; failed=0; failures=()
log=$(mktemp -d)
times=$log/times # one "seconds label" line per run, for the slowest-runs list
while read -r name ranks args; do
  case "$name" in ''|'#'*) continue;; esac
  [ -n "$filter" ] && [[ "$name" != *"$filter"* ]] && continue
  prog=${name%%:*}
  for np in ${ranks//,/ }; do
    label="$name np=$np"
    out=$log/out
    t0=$(date +%s.%N)
    if [ -f "$here/$prog.sh" ]; then # a script test: gets the MPI size, its options and ours
      ( cd "$log" && MPIEXEC="$mpiexec" timeout -k 10 "$timeout_s" bash "$here/$prog.sh" "$np" $args $opts -malloc_debug -malloc_dump ) </dev/null >"$out" 2>&1
    else
      ( cd "$log" && timeout -k 10 "$timeout_s" $mpiexec -n "$np" "$bin/$prog" $args $opts -malloc_debug -malloc_dump ) </dev/null >"$out" 2>&1
    fi
    rc=$?
    secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    echo "$secs $label" >>"$times"
    leak=$(grep -E "^\[ *[0-9]+\] *[0-9]+ bytes " "$out" | head -5)
    if [ $rc -eq 0 ] && [ -z "$leak" ]; then
      passed=$((passed+1)); echo "ok     $label ($secs s)"
    else
      failed=$((failed+1)); failures+=("$label")
      why="exit $rc"; [ $rc -eq 124 ] && why="timed out after ${timeout_s}s"; [ -n "$leak" ] && why="$why, memory not freed"
      echo "FAILED $label ($why, $secs s)"
      echo "------ output of $label ------"; tail -n 60 "$out"; echo "------"
    fi
  done
done < "$list"
if [ -s "$times" ]; then
  echo "slowest runs:"
  sort -rn "$times" | head -15 | awk '{ s = $1; $1 = ""; printf "  %7.1f s%s\n", s, $0 }'
  awk '{ t += $1 } END { printf "total of all runs: %.1f s\n", t }' "$times"
fi
rm -rf "$log"
if [ $failed -gt 0 ]; then printf 'failed: %s\n' "${failures[@]}"; fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]

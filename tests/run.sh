#!/usr/bin/env bash
# GPUPC test runner: runs every line of tests/TESTS, in each listed MPI size, with a time
# limit; prints the name and output of each failure; ends with "N passed, N failed".
#
#   tests/run.sh [filter]           filter: run only tests whose name contains it
#   GPUPC_TEST_OPTIONS="-gpupc_backend cuda" tests/run.sh
#   GPUPC_TEST_BIN=dir              where the test programs are (default build/tests)
#   GPUPC_TEST_TIMEOUT=seconds      per run (default 300; a run of joined lines gets it once per line)
#
# Every run gets -malloc_debug -malloc_dump; any unfreed PETSc memory fails the run.
# Each run's wall time is printed on its line; the 15 slowest runs are listed before the total.
# A test named X with a script tests/X.sh is run as: bash tests/X.sh <np> <options>.
# A line whose MPI sizes are "+" joins the line above it (comments between are skipped), for programs that read
# groups (tests/testcases.h): the lines of such a group run as one program run per MPI size of its first line, each
# line passed as "{ <label> <options> }". It saves the start of a process per line; each line counts as a test.
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
# the whole list first (an edit of the file during the run does not shift what is read)
names=(); sizes=(); argl=()
while read -r name ranks args; do
  case "$name" in ''|'#'*) continue;; esac
  names+=("$name"); sizes+=("$ranks"); argl+=("$args")
done < "$list"
ntests=${#names[@]}
i=0
while [ $i -lt $ntests ]; do
  # a group: line i and the "+" lines after it
  j=$((i+1))
  while [ $j -lt $ntests ] && [ "${sizes[$j]}" = "+" ]; do j=$((j+1)); done
  prog=${names[$i]%%:*}; ranks=${sizes[$i]}
  sel=()
  for ((k = i; k < j; k++)); do
    [ -n "$filter" ] && [[ "${names[$k]}" != *"$filter"* ]] && continue
    sel+=($k)
  done
  bad=""
  [ "$ranks" = "+" ] && bad="its first line has the MPI sizes \"+\" (a \"+\" line joins the line above it)"
  for k in "${sel[@]}"; do [ "${names[$k]%%:*}" = "$prog" ] || bad="${names[$k]} is not a test of $prog, the program of the line it joins"; done
  [ ${#sel[@]} -gt 1 ] && [ -f "$here/$prog.sh" ] && bad="a script test cannot join lines"
  if [ ${#sel[@]} -gt 0 ] && [ -n "$bad" ]; then
    failed=$((failed+${#sel[@]})); failures+=("${names[$i]}")
    echo "FAILED ${names[$i]} (tests/TESTS: $bad)"
    i=$j; continue
  fi
  i=$j
  [ ${#sel[@]} -eq 0 ] && continue
  if [ ${#sel[@]} -eq 1 ]; then
    name=${names[${sel[0]}]}; args=${argl[${sel[0]}]}
  else # one run, the lines as groups
    name=""; args=""
    for k in "${sel[@]}"; do
      case=${names[$k]#*:}
      name="$name,$case"; args="$args { $case ${argl[$k]} }"
    done
    name="$prog:{${name#,}}"
  fi
  limit=$((timeout_s * ${#sel[@]})) # each joined line keeps the time a run of its own would have
  for np in ${ranks//,/ }; do
    label="$name np=$np"
    out=$log/out
    t0=$(date +%s.%N)
    if [ -f "$here/$prog.sh" ]; then # a script test: gets the MPI size, its options and ours
      ( cd "$log" && MPIEXEC="$mpiexec" timeout -k 10 "$limit" bash "$here/$prog.sh" "$np" $args $opts -malloc_debug -malloc_dump ) </dev/null >"$out" 2>&1
    else
      ( cd "$log" && timeout -k 10 "$limit" $mpiexec -n "$np" "$bin/$prog" $args $opts -malloc_debug -malloc_dump ) </dev/null >"$out" 2>&1
    fi
    rc=$?
    secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    echo "$secs $label" >>"$times"
    leak=$(grep -E "^\[ *[0-9]+\] *[0-9]+ bytes " "$out" | head -5)
    if [ $rc -eq 0 ] && [ -z "$leak" ]; then
      passed=$((passed+${#sel[@]})); echo "ok     $label ($secs s)"
    else
      failed=$((failed+${#sel[@]})); failures+=("$label")
      why="exit $rc"; [ $rc -eq 124 ] && why="timed out after ${limit}s"; [ -n "$leak" ] && why="$why, memory not freed"
      [ ${#sel[@]} -gt 1 ] && why="$why; its ${#sel[@]} lines count as failed"
      echo "FAILED $label ($why, $secs s)"
      echo "------ output of $label ------"; tail -n 60 "$out"; echo "------"
    fi
  done
done
if [ -s "$times" ]; then
  echo "slowest runs:"
  sort -rn "$times" | head -15 | awk '{ s = $1; $1 = ""; printf "  %7.1f s%s\n", s, $0 }'
  awk '{ t += $1 } END { printf "total of all runs: %.1f s\n", t }' "$times"
fi
rm -rf "$log"
if [ $failed -gt 0 ]; then printf 'failed: %s\n' "${failures[@]}"; fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]

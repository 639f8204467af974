#!/usr/bin/env bash
# Runs an unchanged PETSc tutorial (built by make into build/tutorials) twice: as PETSc
# ships it, and with GPUPC loaded through -dll_append plus the given GPUPC options; the
# iteration counts and the error norms the tutorial prints must agree.
#   tests/tutorial.sh <np> <program> [options for both runs] -- [GPUPC options]
#   tests/tutorial.sh <np> <program> --error [options for both runs] -- [GPUPC options]
#     (also the error norms the tutorial prints ("Norm of error ...") must agree to 1e-6 relative)
#   tests/tutorial.sh <np> <program> --bound N [options]
#     (a GPUPC-only preconditioner such as cmg: one run with GPUPC, which must converge
#      within N iterations)
# (called by tests/run.sh; the runner's own options, -gpupc_backend ..., arrive at the end
# and so go to the GPUPC run only).
set -u
np=$1; prog=$2; shift 2
bound=
errcheck=
if [ "${1:-}" = "--bound" ]; then bound=$2; shift 2; fi
if [ "${1:-}" = "--error" ]; then errcheck=1; shift; fi
common=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do common+=("$1"); shift; done
[ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")" && pwd)
bin=${GPUPC_TUTORIAL_BIN:-$here/../build/tutorials}
lib=$here/../lib/libpetscgpupc.so
[ -x "$bin/$prog" ] || { echo "tutorial $bin/$prog was not built (is libpetsc3.18-dev-examples installed?)"; exit 1; }
if [ -n "$bound" ]; then
  gpupc=$($MPIEXEC -n "$np" "$bin/$prog" "${common[@]}" -dll_append "$lib" -ksp_converged_reason "$@" -options_left 2>&1) || { echo "$gpupc"; echo "run with GPUPC failed"; exit 1; }
  echo "$gpupc"
  its=$(echo "$gpupc" | sed -n 's/.*Linear solve converged due to [A-Z_]* iterations \([0-9]*\).*/\1/p' | tail -1)
  [ -n "$its" ] || { echo "did not converge"; exit 1; }
  [ "$its" -le "$bound" ] || { echo "$its iterations, more than the bound $bound"; exit 1; }
  echo "$gpupc" | grep -qE "^\[ *[0-9]+\] *[0-9]+ bytes " && { echo "memory not freed"; exit 1; }
  echo "$gpupc" | grep -q "options you set that were not used" && { echo "some GPUPC options were not used by the program"; exit 1; }
  echo "converged in $its iterations (bound $bound)"
  exit 0
fi
# plain run: no GPUPC options at all
plain=$($MPIEXEC -n "$np" "$bin/$prog" "${common[@]}" -malloc_debug -malloc_dump 2>&1) || { echo "$plain"; echo "plain run failed"; exit 1; }
gpupc=$($MPIEXEC -n "$np" "$bin/$prog" "${common[@]}" -dll_append "$lib" "$@" -options_left 2>&1) || { echo "$gpupc"; echo "run with GPUPC failed"; exit 1; }
echo "plain: $plain"
echo "gpupc: $gpupc"
# every iteration count the tutorial prints (Newton and linear ones of a SNES tutorial), in order; not the
# iteration limit that -ksp_view prints
its() { grep -v 'maximum iterations' | grep -oE '[Ii]terations[ =]*[0-9]+' | grep -oE '[0-9]+$' | tr '\n' ' '; }
a=$(echo "$plain" | its); b=$(echo "$gpupc" | its)
[ -n "$a" ] || { echo "no iteration count in the tutorial's output"; exit 1; }
[ "$a" = "$b" ] || { echo "iteration counts differ: plain $a, with GPUPC $b"; exit 1; }
echo "$gpupc" | grep -qE "^\[ *[0-9]+\] *[0-9]+ bytes " && { echo "memory not freed"; exit 1; }
if [ -n "$errcheck" ]; then
  norms() { grep -oE 'Norm of error [-+0-9.eE]+' | awk '{print $4}' | tr '\n' ' '; }
  ea=$(echo "$plain" | norms); eb=$(echo "$gpupc" | norms)
  [ -n "$ea" ] || { echo "no error norm in the tutorial's output"; exit 1; }
  awk -v a="$ea" -v b="$eb" 'BEGIN { n = split(a, x, " "); m = split(b, y, " "); if (n != m) exit 1;
    for (i = 1; i <= n; i++) { d = x[i] - y[i]; if (d < 0) d = -d; s = x[i] < 0 ? -x[i] : x[i]; if (d > 1e-6 * s + 1e-300) exit 1 } }' ||
    { echo "error norms differ: plain $ea, with GPUPC $eb"; exit 1; }
  echo "same error norms ($ea)"
fi
# an option the program never read would make this test meaningless (e.g. a -mat_type that no
# MatSetFromOptions sees): fail on it
echo "$gpupc" | grep -q "options you set that were not used" && { echo "some GPUPC options were not used by the program"; exit 1; }
echo "same iteration counts ($a) with and without GPUPC"

#!/usr/bin/env bash
# PC gpuamg's device setup (-pc_gpuamg_setup device; on the host backend through the host kernel table) against the
# host setup on one gpupc-solve problem, on one rank or several (the device setup across ranks): -ksp_view must say
# "setup on the device" and "setup on the host", and both must give the same levels, grid and operator complexity,
# rows and nonzeros of every level (same C/F splitting, same P) and the same CG iterations. --fallback <reason>
# (options the device setup does not cover): the setup must fall back to the host one and -ksp_view must say why. --agg (smoothed aggregation: the device's MIS(2) aggregates are not
# the host's greedy ones): the same quality instead of the same hierarchy: CG iterations at most ceil(1.1x) the host
# setup's and operator complexity at most 1.05x its. --near (hmis: the device's first pass runs on subdomains, the
# host's on the whole rank): CG iterations at most ceil(1.1x) the host setup's, and -ksp_view names the device's
# coarsening.
#   tests/amg_devsetup.sh <np> [--fallback <reason> | --agg | --near] <gpupc-solve options>   (called by tests/run.sh)
set -u
np=$1; shift
reason=""
agg=""
[ "${1:-}" = --fallback ] && { reason=${2//_/ }; shift 2; } # _ for a space (tests/TESTS splits at spaces)
near=""
[ "${1:-}" = --agg ] && { agg=1; near=1; shift; set -- "$@" -pc_gpuamg_type agg; }
[ "${1:-}" = --near ] && { near=1; shift; }
here=$(cd "$(dirname "$0")" && pwd)
solve=${GPUPC_SOLVE_BIN:-$here/../build/bin/gpupc-solve}
run() { ${MPIEXEC:-mpiexec} -n "$np" "$solve" -pc_type gpuamg -ksp_type cg -ksp_rtol 1e-8 -ksp_view "$@" 2>&1; }
dev=$(run -pc_gpuamg_setup device "$@") || { echo "$dev"; echo "device setup: gpupc-solve failed"; exit 1; }
if [ -n "$reason" ]; then
  echo "$dev" | grep -qF "setup on the host (the device setup does not cover $reason" || { echo "$dev"; echo "$reason: -ksp_view does not say that the setup fell back to the host and why"; exit 1; }
  echo "$dev" | grep -m1 '^gpupc-solve:' | grep -q 'reason=CONVERGED' || { echo "$dev"; echo "not converged"; exit 1; }
  echo "$reason: host setup, and -ksp_view says why"
  exit 0
fi
host=$(run -pc_gpuamg_setup host "$@") || { echo "$host"; echo "host setup: gpupc-solve failed"; exit 1; }
echo "$dev" | grep -q 'setup on the device:' || { echo "$dev"; echo "-ksp_view does not say 'setup on the device'"; exit 1; }
echo "$host" | grep -q '^ *setup on the host$' || { echo "$host"; echo "-ksp_view does not say 'setup on the host'"; exit 1; }
cx() { echo "$1" | grep -m1 'grid complexity' | sed 's/,[^,]*device format.*//'; }
its() { echo "$1" | grep -m1 '^gpupc-solve:' | sed -n 's/.* its=\([0-9]*\) .*/\1/p'; }
echo "device: $(cx "$dev"); its $(its "$dev")"
echo "host:   $(cx "$host"); its $(its "$host")"
if [ -n "$near" ]; then
  oc() { echo "$1" | grep -m1 'operator complexity' | sed -n 's/.*operator complexity \([0-9.]*\).*/\1/p'; }
  echo "$dev" | grep -m1 '^gpupc-solve:' | grep -q 'reason=CONVERGED' || { echo "not converged"; exit 1; }
  if [ -z "$agg" ]; then
    echo "$dev" | grep -m1 'device coarsening:' || { echo "$dev"; echo "-ksp_view does not name the device's coarsening"; exit 1; }
  fi
  awk -v di="$(its "$dev")" -v hi="$(its "$host")" -v dc="$(oc "$dev")" -v hc="$(oc "$host")" -v agg="$agg" 'BEGIN {
    lim = int(1.1 * hi); if (lim < 1.1 * hi) lim++
    if (di == "" || hi == "" || dc == "" || hc == "") { print "iterations or operator complexity missing"; exit 1 }
    if (di + 0 > lim) { print "device setup: " di " iterations, more than ceil(1.1 x " hi ")"; exit 1 }
    if (agg != "" && dc + 0 > 1.05 * hc) { print "device setup: operator complexity " dc ", more than 1.05 x " hc; exit 1 }
    if (agg != "") print "device aggregation within 1.1x the host setup'"'"'s iterations and 1.05x its operator complexity"
    else print "device setup within 1.1x the host setup'"'"'s iterations (operator complexity " dc " against " hc ")" }' || exit 1
  exit 0
fi
[ -n "$(cx "$dev")" ] && [ "$(cx "$dev")" = "$(cx "$host")" ] || { echo "levels or complexities differ"; exit 1; }
# the level table of -ksp_view: rows and nonzeros of every level (the same splittings and patterns of P)
sizes() { echo "$1" | awk '/^ *level +rows +nnz/ { t = 1; next } t && $1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ { print $1, $2, $3; next } { t = 0 }'; }
[ -n "$(sizes "$dev")" ] && [ "$(sizes "$dev")" = "$(sizes "$host")" ] || { echo "$(sizes "$dev")"; echo "$(sizes "$host")"; echo "level sizes differ"; exit 1; }
[ -n "$(its "$dev")" ] && [ "$(its "$dev")" = "$(its "$host")" ] || { echo "iterations differ"; exit 1; }
echo "$dev" | grep -m1 '^gpupc-solve:' | grep -q 'reason=CONVERGED' || { echo "not converged"; exit 1; }
echo "same hierarchy and iterations from the device and the host setup"

#!/usr/bin/env bash
# The issue-5 comparison, run on the GPU host inside the bundle (tools/gpu-session.sh cmgbench):
# for each problem and size: PCG + cmg on the GPU (double and single), PCG + cmg on the host
# backend (one core), and PETSc's PCG + GAMG and PCG + BoomerAMG on all host cores, all to a
# true relative residual of 1e-8.
#   bench/cmg.sh "<problems>" "<sizes>" [all]      (all: also the host-core solvers)
# With BENCH_CSV=<dir>: every run also appends a row to <dir>/cmg.csv (bench/cmg -csv's columns; the rows of the
# gpupc-solve runs from its summary line, their setup phases empty) and writes its residual history to
# <dir>/history_<problem>_<n>_<solver>.csv (iteration,relres), for bench/plot.py.
# BENCH_GPUAMG=1: also PCG + gpuamg (its defaults; one process, all its setup threads) where cmg runs.
# BENCH_SETUP=0 leaves out the side-by-side table of the setup by phase with -pc_cmg_setup device and host (each with a
# value-only reuse), printed by default after each problem's runs.
# BENCH_BACKEND: the backend options of the cmg and gpuamg runs (default -gpupc_backend cuda -gpupc_require_device;
# "-gpupc_backend host" checks the script without a GPU).
set -u
problems=${1:-randcoef3d}; sizes=${2:-1000000}; all=${3:-}
np=${BENCH_NP:-$(nproc)}
bin=${BENCH_BIN:-build}
csvdir=${BENCH_CSV:-}
backend=${BENCH_BACKEND:--gpupc_backend cuda -gpupc_require_device}
where=$(echo "$backend" | sed -n 's/.*-gpupc_backend \([a-z]*\).*/\1/p') # cuda or host: the runs' labels
[ -n "$csvdir" ] && mkdir -p "$csvdir"
csv() { # csv <label>: bench/cmg's CSV options for this run
  [ -n "$csvdir" ] && echo "-csv $csvdir/cmg.csv -history_csv $csvdir/history_${p}_${n}_$1.csv"
}
solve() { # solve <label> <ranks> <backend column> <gpupc-solve options...>: a gpupc-solve run, its summary and history into the CSVs
  local label=$1 ranks=$2 where=$3 run; shift 3
  run="$MPIEXEC -n $ranks"
  [ "$ranks" = 1 ] && run="" # one process: no mpiexec, whose one-core binding would leave the setup one thread
  if [ -z "$csvdir" ]; then $run $bin/bin/gpupc-solve -problem "$p" -n "$n" "$@"; return; fi
  local mon=$csvdir/.monitor_$label.txt line
  line=$($run $bin/bin/gpupc-solve -problem "$p" -n "$n" "$@" -ksp_monitor ascii:"$mon" | tee /dev/stderr | grep "^gpupc-solve:")
  awk 'BEGIN {print "iteration,relres"} /KSP Residual norm/ {if (r0 == "") r0 = $5; printf "%d,%.6e\n", $1, (r0 > 0 ? $5 / r0 : $5)}' "$mon" >"$csvdir/history_${p}_${n}_$label.csv"
  rm -f "$mon"
  [ -f "$csvdir/cmg.csv" ] || echo "problem,n,nnz,solver,backend,precision,its,relres,setup_s,reduce_s,cluster_s,galerkin_s,coarse_s,upload_only_s,solve_s,warm_solve_s,cycle_ms,floor_ms" >"$csvdir/cmg.csv"
  echo "$line" | awk -v s="$label" -v w="$where" '{for (i = 2; i <= NF; i++) {split($i, kv, "="); v[kv[1]] = kv[2]}
    printf "%s,%s,%s,%s,%s,double,%s,%s,%s,,,,,,%s,,,\n", v["problem"], v["n"], v["nnz"], s, w, v["its"], v["relres"], v["setup_s"], v["solve_s"]}' >>"$csvdir/cmg.csv"
}
for p in $problems; do
  for n in $sizes; do
    echo "=== $p n=$n"
    $bin/bench/cmg -problem "$p" -n "$n" $backend $(csv cmg-$where-double)
    $bin/bench/cmg -problem "$p" -n "$n" $backend -pc_cmg_precision single $(csv cmg-$where-single)
    if [ "${BENCH_SETUP:-1}" = 1 ]; then # the setup by phase, device kernels beside the host setup, same run options
      for s in device host; do
        $bin/bench/cmg -problem "$p" -n "$n" $backend -pc_cmg_setup $s -reuse -cycles 3 | grep "^bench/cmg" >"${TMPDIR:-/tmp}/cmgsetup_$s.$$"
      done
      awk 'FNR == 1 {col++} /^bench\/cmg:/ {for (i = 1; i <= NF; i++) if ($i ~ /^its=/ || $i ~ /^setup_s=/) v[col, $i ~ /^its/ ? "its" : "setup"] = substr($i, index($i, "=") + 1)
             s = $0; sub(/.*\[/, "", s); sub(/\].*/, "", s); split(s, f, " "); for (k = 1; k < 10; k += 2) v[col, f[k]] = f[k + 1]}
           /^bench\/cmg reuse:/ {s = $0; sub(/.*setup_s=/, "", s); split(s, f, " "); v[col, "reuse"] = f[1]}
           END {printf "setup by phase (s)   -pc_cmg_setup device   -pc_cmg_setup host\n"
                n = split("setup reduce cluster galerkin coarse upload reuse its", ph, " ")
                for (k = 1; k <= n; k++) printf "  %-18s %20s %20s\n", ph[k], v[1, ph[k]], v[2, ph[k]]}' \
        "${TMPDIR:-/tmp}/cmgsetup_device.$$" "${TMPDIR:-/tmp}/cmgsetup_host.$$"
      rm -f "${TMPDIR:-/tmp}/cmgsetup_device.$$" "${TMPDIR:-/tmp}/cmgsetup_host.$$"
    fi
    if [ "${BENCH_GPUAMG:-0}" = 1 ]; then
      solve gpuamg 1 "$where" -mat_type segcsr -ksp_type cg -ksp_norm_type unpreconditioned -ksp_rtol 1e-8 -pc_type gpuamg $backend
    fi
    if [ "$all" = all ]; then
      $bin/bench/cmg -problem "$p" -n "$n" -gpupc_backend host -cycles 3 -copy_bw 1 $(csv cmg-host-double)
      solve gamg "$np" "host-${np}ranks" -ksp_type cg -ksp_norm_type unpreconditioned -ksp_rtol 1e-8 -pc_type gamg
      solve hypre "$np" "host-${np}ranks" -ksp_type cg -ksp_norm_type unpreconditioned -ksp_rtol 1e-8 -pc_type hypre -pc_hypre_type boomeramg
    fi
  done
done

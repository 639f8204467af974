#!/usr/bin/env bash
# bench/plot.py on the CSVs that bench/cmg writes (-csv, -history_csv) on the host backend: it must write the setup and
# the convergence PNGs (a change of the CSV columns that breaks the plots fails here), and the CSVs must hold the run.
#   tests/bench_plot.sh <np> [options]   (called by tests/run.sh; one rank)
set -u
np=$1; shift
here=$(cd "$(dirname "$0")" && pwd)
bench=${GPUPC_BENCH_BIN:-$here/../build/bench}
py=${GPUPC_PYTHON:-/usr/bin/python3}
"$py" -c "import matplotlib" 2>/dev/null || { echo "matplotlib is not importable by $py: run tools/install-deps.sh (Debian package python3-matplotlib)"; exit 1; }
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
out=$(${MPIEXEC:-mpiexec} -n 1 "$bench/cmg" -problem randcoef3d -n 3000 -gpupc_backend host -cycles 2 -copy_bw 1 -csv "$dir/cmg.csv" -history_csv "$dir/history_randcoef3d_3000_cmg-host-double.csv" "$@" 2>&1) || { echo "$out"; echo "bench/cmg failed"; exit 1; }
echo "$out" | tail -1
its=$(echo "$out" | sed -n 's/.* its=\([0-9]*\) .*/\1/p')
[ "$(wc -l <"$dir/cmg.csv")" = 2 ] || { cat "$dir/cmg.csv"; echo "cmg.csv should hold a header and one row"; exit 1; }
[ "$(cut -d, -f7 <"$dir/cmg.csv" | tail -1)" = "$its" ] || { cat "$dir/cmg.csv"; echo "cmg.csv's its is not the run's $its"; exit 1; }
[ "$(wc -l <"$dir/history_randcoef3d_3000_cmg-host-double.csv")" = $((its + 2)) ] || { echo "the history should hold iterations 0..$its"; exit 1; }
"$py" "$here/../bench/plot.py" "$dir" -o "$dir/png" || { echo "bench/plot.py failed"; exit 1; }
n=$(sed -n 2p "$dir/cmg.csv" | cut -d, -f2)
for f in "setup_randcoef3d_$n.png" convergence_randcoef3d_3000.png; do
  [ -s "$dir/png/$f" ] || { ls -l "$dir/png"; echo "bench/plot.py did not write $f"; exit 1; }
done
# bench/cmg.sh as tools/gpu-session.sh plots runs it (BENCH_CSV, BENCH_GPUAMG), on the host backend: the rows of cmg
# double/single and of gpuamg (a gpupc-solve summary line turned into a row) must reach cmg.csv and the pictures
sh=$dir/sh
BENCH_CSV=$sh BENCH_GPUAMG=1 BENCH_BACKEND="-gpupc_backend host" BENCH_BIN=${GPUPC_BENCH_ROOT:-$here/../build} bash "$here/../bench/cmg.sh" poisson3d 3000 >"$dir/sh.log" 2>&1 || { cat "$dir/sh.log"; echo "bench/cmg.sh failed"; exit 1; }
[ "$(cut -d, -f4-6 "$sh/cmg.csv" | tail -3 | tr '\n' ' ')" = "cmg,host,double cmg,host,single gpuamg,host,double " ] || { cat "$sh/cmg.csv"; echo "cmg.csv should hold the rows cmg double, cmg single, gpuamg"; exit 1; }
gits=$(sed -n 's/^gpupc-solve: .* pc=gpuamg its=\([0-9]*\) .*/\1/p' "$dir/sh.log")
[ -n "$gits" ] && [ "$(wc -l <"$sh/history_poisson3d_3000_gpuamg.csv")" = $((gits + 2)) ] || { cat "$dir/sh.log"; echo "the gpuamg history should hold iterations 0..$gits"; exit 1; }
"$py" "$here/../bench/plot.py" "$sh" -o "$sh/png" --card "host backend" >/dev/null || { echo "bench/plot.py failed on bench/cmg.sh's CSVs"; exit 1; }
[ -s "$sh/png/setup_poisson3d_$(sed -n 2p "$sh/cmg.csv" | cut -d, -f2).png" ] && [ -s "$sh/png/convergence_poisson3d_3000.png" ] || { ls -l "$sh/png"; echo "no setup or convergence picture from bench/cmg.sh's CSVs"; exit 1; }
echo "bench/plot.py wrote the setup and convergence plots of bench/cmg's and bench/cmg.sh's CSVs (gpuamg: $gits iterations)"

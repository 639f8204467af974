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
echo "bench/plot.py wrote the setup and convergence plots of bench/cmg's CSVs"

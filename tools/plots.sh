#!/usr/bin/env bash
# Draws the README's pictures from what `tools/gpu-session.sh plots` wrote on a GPU (plots.tar.gz: the benchmarks'
# CSV files and the card's nvidia-smi line): the CSVs go to bench/results (kept in the repository, so every picture
# can be traced to its numbers), the PNGs to docs/img (bench/plot.py; Debian's python3-matplotlib).
#   tools/plots.sh <plots.tar.gz | directory of the CSVs> [results dir] [image dir]
set -eu
src=${1:?usage: tools/plots.sh <plots.tar.gz | directory> [results dir] [image dir]}
root=$(cd "$(dirname "$0")/.." && pwd)
results=${2:-$root/bench/results}
img=${3:-$root/docs/img}
py=${GPUPC_PYTHON:-/usr/bin/python3}
"$py" -c "import matplotlib" 2>/dev/null || { echo "tools/plots.sh: matplotlib is not importable by $py (Debian: python3-matplotlib)"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [ -d "$src" ]; then cp "$src"/*.csv "$src"/gpu.txt "$tmp"/ 2>/dev/null || true
else tar -C "$tmp" -xzf "$src" && { [ -d "$tmp/plots" ] && mv "$tmp"/plots/* "$tmp"/ && rmdir "$tmp/plots" || true; }; fi
ls "$tmp"/*.csv >/dev/null 2>&1 || { echo "tools/plots.sh: no CSV files in $src"; exit 1; }
[ -s "$tmp/gpu.txt" ] || { echo "tools/plots.sh: $src has no gpu.txt: which card measured these CSVs is unknown"; exit 1; }
rm -rf "$results"; mkdir -p "$results" "$img"
cp "$tmp"/*.csv "$tmp/gpu.txt" "$results"/
"$py" "$root/bench/plot.py" "$results" -o "$img"
echo "tools/plots.sh: CSVs in $results, pictures in $img ($(sed -n 2p "$results/gpu.txt" | cut -d, -f1))"

#!/usr/bin/env bash
# Installs the Debian 12 packages GPUPC needs to build and test, when they are missing.
# As root it runs apt-get; otherwise it prints the apt-get line and stops.
set -eu
# libopenblas0-pthread: an optimized BLAS/LAPACK behind Debian's alternatives (PETSc and the CMG last-level
# factorization use it; the reference LAPACK takes seconds for a last level of a few thousand vertices)
# clang-format: make format-check (part of make check) holds the tree to .clang-format
# python3-petsc4py: PETSc 3.18's Python binding (tests/python_solve.sh runs examples/python/solve.py);
# python3-matplotlib: bench/plot.py
pkgs="petsc-dev libopenmpi-dev openmpi-bin libpetsc3.18-dev-examples libopenblas0-pthread make gcc g++ pkg-config clang-format python3-petsc4py python3-matplotlib"
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "GPUPC needs these Debian packages:$missing" >&2
  echo "run: sudo apt-get update && sudo apt-get install -y --no-install-recommends$missing" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends $missing

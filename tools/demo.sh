#!/usr/bin/env bash
# make demo / tools/demo.sh: set up what is missing, build, and solve the default problem
# (a power grid of about 10^6 nodes) twice, printing one gpupc-solve summary line for each:
#   1. GPUPC:  cg + cmg, matrix segcsr, gpu vectors (cg + jacobi while PC cmg is not built)
#   2. PETSc:  cg + gamg on standard vectors
# On a fresh Debian 12 machine: as root it installs the missing Debian packages; otherwise it
# prints the apt-get line and stops.
#   DEMO_N=<nodes> (default 1000000)   DEMO_NP=<MPI ranks> (default 1)   DEMO_OPTIONS="..." extra options
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
n=${DEMO_N:-1000000}
np=${DEMO_NP:-1}
extra=${DEMO_OPTIONS:-}

"$root/tools/install-deps.sh" || exit 1
if [ "$(id -u)" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
# build what is missing (a no-op when called from make demo after make all)
make -C "$root" -j2 all >/dev/null
solve="$root/build/bin/gpupc-solve"
run() { if [ "$np" -gt 1 ]; then mpiexec --oversubscribe -n "$np" "$solve" "$@"; else "$solve" "$@"; fi; }

# the GPUPC preconditioner: cmg once it is registered, jacobi until then
if "$solve" -problem poisson2d -n 100 -ksp_type cg -pc_type cmg >/dev/null 2>&1; then gpc=cmg; else gpc=jacobi; fi

echo "make demo: power grid, about $n nodes, $np rank(s); GPUPC cg+$gpc (segcsr matrix, gpu vectors) beside PETSc cg+gamg"
[ "$gpc" = jacobi ] && echo "  (PC cmg is not in this build yet; GPUPC runs cg+jacobi)"
line=$(run -problem powergrid -n "$n" -ksp_type cg -pc_type "$gpc" -mat_type segcsr $extra | grep '^gpupc-solve:')
echo "$line"
run -problem powergrid -n "$n" -ksp_type cg -pc_type gamg $extra | grep '^gpupc-solve:'
# which backend GPUPC's run used (the summary line's last field), and what that means for the times above
case "$line" in
*backend=cuda:*) echo "make demo: GPUPC ran on the GPU (${line##*backend=cuda:}); PETSc's GAMG ran on the host cores" ;;
*backend=host*)
  echo "make demo: no usable GPU here, so GPUPC ran its host backend: the one-core plain-C reference of every GPU kernel"
  echo "  (what CI tests; correct, not fast). Its times say nothing about the GPU: README.md (Benchmarks) and"
  echo "  bench/NOTES.md have the GPU figures. -info tells why the GPU was not used." ;;
esac

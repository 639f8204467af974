#!/usr/bin/env bash
# Runs unchanged PETSc tutorials (Debian's libpetsc3.18-dev-examples) with PC cmg loaded through
# -dll_append, and fails if a solve does not converge within the given iteration bound.
#
#   tools/cmg-tutorials.sh [extra options]        e.g. -gpupc_backend cuda
#
# ex2:  2D 5-point Laplacian (symmetric, grounded), CG + cmg on 1 rank, CG + bjacobi/cmg on 2 ranks
# ex45: 3D 7-point Laplacian on a DMDA with Dirichlet rows (nonsymmetric assembly), CG + cmg
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
lib=$here/lib/libpetscgpupc.so
ex=${PETSC_EXAMPLES:-/usr/share/petsc/3.18/share/petsc/examples/src/ksp/ksp/tutorials}
petsc=${PETSC_DIR:-/usr/lib/petsc}
mpiexec=${MPIEXEC:-mpiexec}
if [ "$(id -u)" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
[ -f "$lib" ] || { echo "build the library first (make)"; exit 1; }
[ -f "$ex/ex2.c" ] || { echo "PETSc tutorials not found in $ex (apt-get install libpetsc3.18-dev-examples, or set PETSC_EXAMPLES)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for e in ex2 ex45; do # the tutorials make built (build/tutorials/ksp_exN), else compile them here
  if [ -x "$here/build/tutorials/ksp_$e" ]; then cp "$here/build/tutorials/ksp_$e" "$work/$e"
  else mpicc -O2 -I"$petsc/include" "$ex/$e.c" -o "$work/$e" -L"$petsc/lib" -Wl,-rpath,"$petsc/lib" -lpetsc_real -lm; fi
done
fail=0
run() { # bound, ranks, program, options...
  local bound=$1 np=$2 prog=$3; shift 3
  out=$(cd "$work" && $mpiexec -n "$np" "./$prog" -dll_append "$lib" -ksp_converged_reason -ksp_rtol 1e-8 "$@" "${EXTRA[@]}" 2>&1) || true
  its=$(echo "$out" | sed -n 's/.*Linear solve converged due to [A-Z_]* iterations \([0-9]*\).*/\1/p' | head -1)
  if [ -n "$its" ] && [ "$its" -le "$bound" ]; then echo "ok     $prog np=$np $* : $its iterations"
  else echo "FAILED $prog np=$np $* (bound $bound)"; echo "$out" | tail -20; fail=1; fi
}
EXTRA=("$@")
run 30 1 ex2 -m 200 -n 200 -ksp_type cg -pc_type cmg
run 80 2 ex2 -m 200 -n 200 -ksp_type cg -pc_type bjacobi -sub_pc_type cmg
run 30 1 ex45 -da_grid_x 33 -da_grid_y 33 -da_grid_z 33 -ksp_type cg -pc_type cmg
run 30 1 ex45 -da_grid_x 33 -da_grid_y 33 -da_grid_z 33 -ksp_type cg -pc_type cmg -pc_cmg_precision single
run 30 1 ex45 -da_grid_x 33 -da_grid_y 33 -da_grid_z 33 -ksp_type cg -pc_type cmg -pc_cmg_mat_type segcsr -dm_vec_type gpu
exit $fail

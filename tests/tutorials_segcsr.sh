#!/usr/bin/env bash
# Unchanged PETSc tutorials (Debian's libpetsc3.18-dev-examples) with -mat_type segcsr:
# compiles ksp/ksp/tutorials ex2.c (and ex45.c if present) against PETSc into
# build/tutorials/, runs each plain and with the library loaded by -dll_append and the
# matrix (and vectors) of type segcsr/gpu, and fails when the iteration counts or the
# converged reasons differ. Extra options for both runs: $GPUPC_TEST_OPTIONS.
#   tests/tutorials_segcsr.sh            (from the worktree root, after make)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
ex=${PETSC_EXAMPLES:-/usr/share/petsc/3.18/share/petsc/examples/src/ksp/ksp/tutorials}
PETSC_DIR=${PETSC_DIR:-/usr/lib/petsc}
lib=$root/lib/libpetscgpupc.so
out=$root/build/tutorials
mpiexec=${MPIEXEC:-mpiexec}
opts=${GPUPC_TEST_OPTIONS:-}
if [ "$(id -u)" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
case "$mpiexec" in *--oversubscribe*) ;; *) "$mpiexec" --version 2>/dev/null | grep -qi "open-?mpi\|OpenRTE" && mpiexec="$mpiexec --oversubscribe";; esac
[ -f "$lib" ] || { echo "tutorials_segcsr: $lib not built (run make first)"; exit 1; }
[ -f "$ex/ex2.c" ] || { echo "tutorials_segcsr: $ex/ex2.c not found (install libpetsc3.18-dev-examples or set PETSC_EXAMPLES)"; exit 1; }
mkdir -p "$out"
cflags=$(make -s -C "$root" -f - print-flags <<MK 2>/dev/null
include $PETSC_DIR/lib/petsc/conf/variables
print-flags:
	@echo \$(PETSC_CC_INCLUDES) @@ \$(PETSC_LIB)
MK
)
inc=${cflags%%@@*}; libs=${cflags#*@@}
passed=0; failed=0
# name  source  sizes  options for both runs  options for the segcsr run
run_case() {
  local name=$1 src=$2 np=$3 common=$4 segopts=$5
  local bin=$out/$src
  if [ ! -x "$bin" ] || [ "$ex/$src.c" -nt "$bin" ]; then
    mpicc -O1 -w $inc "$ex/$src.c" -o "$bin" $libs || { echo "FAILED $name: cannot compile $ex/$src.c"; failed=$((failed+1)); return; }
  fi
  local plain seg ip is
  plain=$(timeout 300 $mpiexec -n "$np" "$bin" $common -ksp_converged_reason $opts 2>&1)
  seg=$(timeout 300 $mpiexec -n "$np" "$bin" $common -ksp_converged_reason -dll_append "$lib" $segopts -options_left 0 $opts 2>&1)
  ip=$(echo "$plain" | grep -E "Linear solve (converged|did not converge)" | tail -1)
  is=$(echo "$seg" | grep -E "Linear solve (converged|did not converge)" | tail -1)
  if [ -n "$ip" ] && [ "$ip" = "$is" ] && echo "$seg" | grep -q "segcsr"; then
    passed=$((passed+1)); echo "ok     $name np=$np: $is"
  else
    failed=$((failed+1)); echo "FAILED $name np=$np"
    echo "  plain : ${ip:-<no converged line>}"; echo "  segcsr: ${is:-<no converged line>}"
    echo "$seg" | tail -20
  fi
}
for np in 1 2 4; do
  run_case ex2 ex2 $np "-m 40 -n 40 -ksp_type cg -pc_type jacobi" "-mat_type segcsr -vec_type gpu -mat_view ::ascii_info"
done
if [ -f "$ex/ex45.c" ]; then
  for np in 1 2; do
    run_case ex45 ex45 $np "-da_grid_x 12 -da_grid_y 12 -da_grid_z 12 -ksp_type cg -pc_type jacobi" "-dm_mat_type segcsr -dm_vec_type gpu -ksp_view_mat ::ascii_info"
  done
fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]

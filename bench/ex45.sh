#!/usr/bin/env bash
# PETSc's own ksp ex45 (Debian examples, unchanged) on an N^3 grid with PCG + GPUPC's cmg on the
# device, the issue-5 comparison with BoomerAMG on the GPU (193^3: setup 3.17 s, solve 0.09 s).
# Times come from -log_view: setup = PCSetUp, solve = KSPSolve - KSPSetUp (ex45 assembles its
# operator inside KSPSetUp). Run on the GPU host inside the bundle (tools/gpu-session.sh cmd).
#   bench/ex45.sh [N] [extra options...]
set -u
N=${1:-193}; shift || true
bin=${BENCH_BIN:-build}
log=$($bin/tutorials/ksp_ex45 -dll_append lib/libpetscgpupc.so -da_grid_x "$N" -da_grid_y "$N" -da_grid_z "$N" \
  -ksp_type cg -ksp_rtol 1e-8 -ksp_norm_type unpreconditioned -pc_type cmg -dm_vec_type gpu -dm_mat_type segcsr \
  -gpupc_backend cuda -gpupc_require_device -ksp_converged_reason -log_view "$@" 2>&1) || { echo "$log"; exit 1; }
t() { echo "$log" | awk -v e="$1" '$1 == e { print $4; exit }'; }
its=$(echo "$log" | sed -n 's/.*CONVERGED_[A-Z_]* iterations \([0-9]*\).*/\1/p' | head -1)
echo "$log" | grep -E "CONVERGED|DIVERGED" | head -1
awk -v n="$N" -v its="$its" -v setup="$(t PCSetUp)" -v solve="$(t KSPSolve)" -v kspsetup="$(t KSPSetUp)" -v apply="$(t PCApply)" -v opts="$*" 'BEGIN {
  printf "ex45: N=%d^3 its=%s pc_setup_s=%.3f solve_s=%.4f pc_apply_s=%.4f (%s)\n", n, its, setup, solve - kspsetup, apply, opts }'

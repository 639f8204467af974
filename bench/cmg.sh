#!/usr/bin/env bash
# The issue-5 comparison, run on the GPU host inside the bundle (tools/gpu-session.sh cmgbench):
# for each problem and size: PCG + cmg on the GPU (double and single), PCG + cmg on the host
# backend (one core), and PETSc's PCG + GAMG and PCG + BoomerAMG on all host cores, all to a
# true relative residual of 1e-8.
#   bench/cmg.sh "<problems>" "<sizes>" [all]      (all: also the host-core solvers)
set -u
problems=${1:-randcoef3d}; sizes=${2:-1000000}; all=${3:-}
np=${BENCH_NP:-$(nproc)}
bin=${BENCH_BIN:-build}
for p in $problems; do
  for n in $sizes; do
    echo "=== $p n=$n"
    $bin/bench/cmg -problem "$p" -n "$n" -gpupc_backend cuda -gpupc_require_device
    $bin/bench/cmg -problem "$p" -n "$n" -gpupc_backend cuda -gpupc_require_device -pc_cmg_precision single
    if [ "$all" = all ]; then
      $bin/bench/cmg -problem "$p" -n "$n" -gpupc_backend host -cycles 3 -copy_bw 1
      $MPIEXEC -n "$np" $bin/bin/gpupc-solve -problem "$p" -n "$n" -ksp_type cg -ksp_norm_type unpreconditioned -ksp_rtol 1e-8 -pc_type gamg
      $MPIEXEC -n "$np" $bin/bin/gpupc-solve -problem "$p" -n "$n" -ksp_type cg -ksp_norm_type unpreconditioned -ksp_rtol 1e-8 -pc_type hypre -pc_hypre_type boomeramg
    fi
  done
done

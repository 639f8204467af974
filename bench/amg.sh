#!/usr/bin/env bash
# The issue-21 comparison, run on the GPU host inside the bundle (tools/gpu-session.sh amgbench): for each problem and
# size, PCG to a true relative residual of 1e-8 with
#   PC gpuamg on the GPU (defaults: classical pmis + ext+i, l1-Jacobi V(1,1); elasticity: smoothed aggregation with the
#     rigid-body modes and Chebyshev), one rank;
#   PETSc's PCG + GAMG and PCG + BoomerAMG (pmis, ext+i, l1-Jacobi: the same method as gpuamg's default; once with
#     PETSc's default CF-ordered relaxation, once without it, which is gpuamg's smoother) on all host cores.
# For gpuamg it prints the summary line, the setup by phase and the per-level view (complexities, bytes per cycle)
# from -ksp_view, and the -log_view lines of the setup phases and cycle parts. The cycle's events time its launches
# only (the device runs asynchronously); solve_s / its bounds the time per cycle from above (it adds CG's product and
# vector work), the profile step of tools/gpu-session.sh gives the kernels. The bandwidth floor of a cycle = the view's
# "moves at least" bytes / the device-to-device copy bandwidth (bench/vecbench prints it).
# gpuamg runs twice, with the device setup and with the host setup (-pc_gpuamg_setup device|host, issue 36): the
# lines of each are prefixed [device setup] / [host setup], so the setup by phase stands side by side.
#   bench/amg.sh "<problems>" "<sizes>" [all]      (all: also GAMG and BoomerAMG on the host cores)
#   bench/amg.sh ex45 [N]    the unchanged ksp ex45 on N^3 (default 193) under plain mpiexec -n 1 with gpuamg's
#                            default options, device setup then host setup (issue 36's target row): PCSetUp, KSPSolve
#                            (set LIB to the library, MPIEXEC to the launcher)
#   BENCH_BACKEND="-gpupc_backend host" runs gpuamg on the host backend (a check of the script without a GPU)
#   BENCH_AMG_FORMATS="segcsr hec bcsr auto": gpuamg once per level format (-pc_gpuamg_mat_type), for the issue-35
#     comparison of the cycle time by format (the iterations must not change); default: the PC's default only
#   BENCH_SMOOTHERS="l1jacobi jacobi chebyshev mcgs bjacobi" also runs gpuamg once per smoother (summary line and the
#     cycle's -log_view lines): iterations and time per cycle of each (issue 35); bjacobi is point-block Jacobi over each
#     level's block size (3 then 6 on elasticity3d agg; 1, i.e. jacobi, on the scalar problems), its GPUBJacApply line too
set -u
problems=${1:-"poisson3d randcoef3d elasticity3d"}; sizes=${2:-"1000000 7200000"}; all=${3:-}
np=${BENCH_NP:-$(nproc)}
bin=${BENCH_BIN:-build}
if [ "$problems" = ex45 ]; then
  g=${2:-193}
  for where in device host; do
    echo "=== ksp ex45 ${g}^3, mpiexec -n 1, gpuamg setup on the $where"
    ${MPIEXEC:-mpiexec} -n 1 $bin/tutorials/ksp_ex45 -da_grid_x "$g" -da_grid_y "$g" -da_grid_z "$g" -dll_append "${LIB:-lib/libpetscgpupc.so}" \
      ${BENCH_BACKEND:--gpupc_backend cuda -gpupc_require_device} -pc_type gpuamg -pc_gpuamg_setup $where -ksp_type cg -ksp_converged_reason -ksp_view -log_view 2>&1 |
      grep -E "converged due|setup on the|host setup|levels [0-9]|^GPUAMG|^(PCSetUp|KSPSolve|SpGEMM|SpTranspose)"
  done
  exit 0
fi
for p in $problems; do
  extra=""
  [ "$p" = elasticity3d ] && extra="-pc_gpuamg_type agg -pc_gpuamg_smoother chebyshev"
  for n in $sizes; do
    for fmt in ${BENCH_AMG_FORMATS:-default}; do
      fopt=""
      [ "$fmt" = default ] || fopt="-pc_gpuamg_mat_type $fmt"
      echo "=== $p n=$n format $fmt"
      for where in device host; do
        $bin/bin/gpupc-solve -problem "$p" -n "$n" -ksp_type cg -ksp_norm_type unpreconditioned -ksp_rtol 1e-8 -pc_type gpuamg $extra $fopt -pc_gpuamg_setup $where \
          ${BENCH_BACKEND:--gpupc_backend cuda -gpupc_require_device} -ksp_view -log_view 2>&1 |
          grep -E "^gpupc-solve:|setup on the|host setup|levels [0-9]|^ +level|^ +[0-9]+ +[0-9]+ +[0-9]+ |moves at least|CUDA graph|device setup|^GPUAMG|^PCSetUp|^PCApply |^KSPSolve" | sed "s/^/[$where setup] /"
      done
    done
    for sm in ${BENCH_SMOOTHERS:-}; do
      echo "--- smoother $sm"
      $bin/bin/gpupc-solve -problem "$p" -n "$n" -ksp_type cg -ksp_norm_type unpreconditioned -ksp_rtol 1e-8 -pc_type gpuamg $extra -pc_gpuamg_smoother "$sm" \
        ${BENCH_BACKEND:--gpupc_backend cuda -gpupc_require_device} -log_view 2>&1 | grep -E "^gpupc-solve:|^GPUAMGCycle|^GPUAMGSmooth |^GPUBJacApply|^KSPSolve"
    done
    if [ "$all" = all ]; then
      $MPIEXEC -n "$np" $bin/bin/gpupc-solve -problem "$p" -n "$n" -ksp_type cg -ksp_norm_type unpreconditioned -ksp_rtol 1e-8 -pc_type gamg
      $MPIEXEC -n "$np" $bin/bin/gpupc-solve -problem "$p" -n "$n" -ksp_type cg -ksp_norm_type unpreconditioned -ksp_rtol 1e-8 -pc_type hypre -pc_hypre_type boomeramg \
        -pc_hypre_boomeramg_coarsen_type PMIS -pc_hypre_boomeramg_interp_type ext+i -pc_hypre_boomeramg_relax_type_all l1scaled-Jacobi -pc_hypre_boomeramg_P_max 4
      # the same without CF-ordered relaxation (PETSc's default relax order): gpuamg's l1jacobi smoother exactly
      $MPIEXEC -n "$np" $bin/bin/gpupc-solve -problem "$p" -n "$n" -ksp_type cg -ksp_norm_type unpreconditioned -ksp_rtol 1e-8 -pc_type hypre -pc_hypre_type boomeramg \
        -pc_hypre_boomeramg_coarsen_type PMIS -pc_hypre_boomeramg_interp_type ext+i -pc_hypre_boomeramg_relax_type_all l1scaled-Jacobi -pc_hypre_boomeramg_P_max 4 -pc_hypre_boomeramg_no_CF
    fi
  done
done

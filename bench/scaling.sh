#!/usr/bin/env bash
# Issue 26: weak and strong scaling of PCG on the GPUs of one host, one MPI rank per GPU, each rank bound to its
# share of the host cores (--map-by ppr:<np>:node:PE=<cores/np>, the README's launch line), run inside the GPU
# bundle (tools/gpu-session.sh scaling).
#   bench/scaling.sh [gpus...]          default: 1 2 4 8, those the host has
# Environment:
#   SCALING_WEAK_N     unknowns per GPU of the weak runs (default 7200000)
#   SCALING_STRONG_N   unknowns of the strong runs (default 30000000; 0 skips them)
#   SCALING_PROBLEMS   problems of PCG + cmg (default "randcoef3d powergrid")
#   SCALING_JACOBI_ITS PCG + jacobi (segcsr) runs this many iterations on poisson3d (default 500; 0 skips)
#   SCALING_AMG=1      also PCG + gpuamg (weak and strong, randcoef3d)
#   SCALING_HOST=1     also PETSc's PCG + GAMG and PCG + BoomerAMG on all host cores (weak, randcoef3d)
#   SCALING_CSV=file   rows: kind,problem,pc,gpus,n,its,setup_s,solve_s,ms_per_it,eff
#   SCALING_BACKEND    backend options of the GPU runs (default "-gpupc_backend cuda -gpupc_require_device"; the host
#                      backend's "-gpupc_backend host" tries the script on a machine without a GPU)
# Weak efficiency is the one-GPU solve time over the np-GPU solve time of the same problem per GPU (so iteration
# growth counts against it); strong efficiency is the one-GPU solve time over np times the np-GPU solve time.
set -u
bin=${BENCH_BIN:-build}
mpiexec=${MPIEXEC:-mpiexec}
weak_n=${SCALING_WEAK_N:-7200000}
strong_n=${SCALING_STRONG_N:-30000000}
problems=${SCALING_PROBLEMS:-randcoef3d powergrid}
jits=${SCALING_JACOBI_ITS:-500}
csv=${SCALING_CSV:-}
cores=$(nproc)
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c "^GPU" || true)
[ "$ngpu" -ge 1 ] 2>/dev/null || ngpu=1
gpus="$*"
[ -n "$gpus" ] || for g in 1 2 4 8; do [ "$g" -le "$ngpu" ] && gpus="$gpus $g"; done
[ -n "$csv" ] && [ ! -f "$csv" ] && echo "kind,problem,pc,gpus,n,its,setup_s,solve_s,ms_per_it,eff" >"$csv"
echo "scaling: $ngpu GPUs, $cores host cores; runs on:$gpus"

declare -A base # solve time of the one-GPU run of each (kind, problem, pc)
field() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
run() { # run <kind> <problem> <pc label> <np> <n> <gpupc-solve options...>
  local kind=$1 p=$2 pc=$3 np=$4 n=$5 out line its setup solve msit eff key
  shift 5
  out=$($mpiexec -n "$np" --map-by "ppr:$np:node:PE=$((cores / np))" $bin/bin/gpupc-solve -problem "$p" -n "$n" -ksp_type cg -ksp_norm_type unpreconditioned "$@" 2>&1)
  echo "$out" >&2
  line=$(echo "$out" | grep "^gpupc-solve:")
  if [ -z "$line" ]; then # a failed run: its error text (PETSc's error lines, else the last lines) goes with the verdict
    echo "scaling: $kind $p $pc np=$np failed:"
    { echo "$out" | sed '/Option Table entries/,$d' | grep "PETSC ERROR: " | grep -v "Option left\|option(s) set that were not used\|Configure options\|Petsc Release\|See https\|named .* by\|-------" | head -20 | grep . || echo "$out" | tail -20; } | sed 's/^/scaling:   /'
    return
  fi
  its=$(field "$line" its); setup=$(field "$line" setup_s); solve=$(field "$line" solve_s)
  msit=$(awk -v s="$solve" -v i="$its" 'BEGIN {printf "%.4f", (i > 0 ? 1000 * s / i : 0)}')
  key="$kind/$p/$pc"
  [ "$np" = 1 ] && base[$key]=$solve
  eff=$(awk -v b="${base[$key]:-}" -v s="$solve" 'BEGIN {if (b == "" || s <= 0) print "-"; else printf "%.2f", b / s}')
  [ "$kind" = strong ] && eff=$(awk -v b="${base[$key]:-}" -v s="$solve" -v np="$np" 'BEGIN {if (b == "" || s <= 0) print "-"; else printf "%.2f", b / (s * np)}')
  printf "scaling: %-6s %-10s %-14s gpus=%d n=%d its=%s setup_s=%s solve_s=%s ms/it=%s eff=%s\n" "$kind" "$p" "$pc" "$np" "$n" "$its" "$setup" "$solve" "$msit" "$eff"
  [ -n "$csv" ] && echo "$kind,$p,$pc,$np,$n,$its,$setup,$solve,$msit,$eff" >>"$csv"
}
backend=${SCALING_BACKEND:-"-gpupc_backend cuda -gpupc_require_device"}
gpu="$backend -mat_type segcsr -repeat 3"
for np in $gpus; do
  for p in $problems; do run weak "$p" cmg "$np" $((weak_n * np)) $gpu -pc_type cmg -ksp_rtol 1e-8; done
  [ "$jits" -gt 0 ] && run weak poisson3d jacobi "$np" $((weak_n * np)) $gpu -pc_type jacobi -ksp_rtol 1e-30 -ksp_max_it "$jits"
  [ "${SCALING_AMG:-0}" = 1 ] && run weak randcoef3d gpuamg "$np" $((weak_n * np)) $backend -mat_type segcsr -pc_type gpuamg -ksp_rtol 1e-8
done
if [ "$strong_n" -gt 0 ]; then
  for np in $gpus; do run strong randcoef3d cmg "$np" "$strong_n" $gpu -pc_type cmg -ksp_rtol 1e-8; done
  [ "${SCALING_AMG:-0}" = 1 ] && for np in $gpus; do run strong randcoef3d gpuamg "$np" "$strong_n" $backend -mat_type segcsr -pc_type gpuamg -ksp_rtol 1e-8; done
fi
if [ "${SCALING_HOST:-0}" = 1 ]; then # the host-core solvers users compare with: all cores, as many ranks
  for np in $gpus; do
    n=$((weak_n * np))
    $mpiexec -n "$cores" $bin/bin/gpupc-solve -problem randcoef3d -n "$n" -ksp_type cg -ksp_norm_type unpreconditioned -ksp_rtol 1e-8 -pc_type gamg -gpupc_backend host 2>&1 | grep "^gpupc-solve:" | sed "s/^/host gamg ($np GPUs' problem): /"
    $mpiexec -n "$cores" $bin/bin/gpupc-solve -problem randcoef3d -n "$n" -ksp_type cg -ksp_norm_type unpreconditioned -ksp_rtol 1e-8 -pc_type hypre -pc_hypre_type boomeramg -gpupc_backend host 2>&1 | grep "^gpupc-solve:" | sed "s/^/host boomeramg ($np GPUs' problem): /"
  done
fi

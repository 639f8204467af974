#!/usr/bin/env bash
# What one device-machine call runs (tools/gpu-session.sh <what...>): unpack the GPU
# bundle carried in .bundle/, then run the named steps; logs go to $OUT.
#   suite            the whole test suite with -gpupc_backend cuda
#   vecbench         bench/vecbench at 10^8 doubles (and a sweep of the reduction grid fill)
#   spmv [L...]      bench/spmv (default segment length, then each L)
#   spmvshort        bench/spmv with -mat_segcsr_short group, then tile (the spmv step runs auto)
#   spmvreuse        bench/spmv -reuse: segcsr value updates against copies of the same bytes (7.2M rows, then the suite)
#   cmgbench P S [all]  bench/cmg.sh: PC cmg on problems P, sizes S (all: + host backend, GAMG, hypre)
#   launch           PC cmg's setup as launched (issue 25): ksp ex45 193^3 directly, under mpiexec -n 1, --bind-to none,
#                    --map-by ppr:1:node:PE=<cores>; ksp ex34 33^3 (pure Neumann, 36k rows) under plain mpiexec
#   plotdata [P] [S] the CSVs of bench/plot.py under $OUT/results: bench/spmv -csv and bench/cmg.sh with BENCH_CSV
#                    (cmg cuda double/single and host, GAMG, BoomerAMG on problems P, default "randcoef3d poisson3d
#                    powergrid", sizes S, default 1000000); copy them to bench/results and run bench/plot.py there
#   cmd <command>    any command inside the bundle's environment
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv | tee "$OUT/gpu.txt"
dest=/tmp/gpupc-run; rm -rf "$dest"; mkdir -p "$dest"
tar -C "$dest" -xJf .bundle/gpupc-bundle.tar.xz || exit 1
b=$dest/gpupc
cd "$b"
while [ $# -gt 0 ]; do
  step=$1; shift
  case $step in
  suite)
    ./run-suite.sh 2>&1 | tee "$OUT/suite.log" | grep -E "^(FAILED|ok|failed:)|passed," | tail -80 ;;
  vecbench)
    ./env.sh build/bench/vecbench -gpupc_backend cuda -gpupc_require_device -csv "$OUT/vecbench.csv" 2>&1 | tee "$OUT/vecbench.txt"
    for bps in 2 4 16; do
      echo "--- reductions with -gpupc_cuda_blocks_per_sm $bps"
      ./env.sh build/bench/vecbench -gpupc_backend cuda -gpupc_cuda_blocks_per_sm $bps -reps 15 2>&1 | grep -E "Dot|copy"
    done | tee -a "$OUT/vecbench.txt" ;;
  spmv) # spmv [L...]: the suite with the default segment length, then with each L given
    ./env.sh build/bench/spmv -gpupc_backend cuda -gpupc_require_device -csv "$OUT/spmv.csv" 2>&1 | tee "$OUT/spmv.txt"
    for L in "$@"; do
      echo "--- -mat_segcsr_segment_length $L" | tee -a "$OUT/spmv.txt"
      ./env.sh build/bench/spmv -gpupc_backend cuda -gpupc_require_device -reps 50 -mat_segcsr_segment_length $L -csv "$OUT/spmv_L$L.csv" 2>&1 | tail -12 | tee -a "$OUT/spmv.txt"
    done; shift $# ;;
  spmvshort) # the suite with each short-row mode forced (default L)
    for mode in group tile; do
      echo "--- -mat_segcsr_short $mode" | tee -a "$OUT/spmv.txt"
      ./env.sh build/bench/spmv -gpupc_backend cuda -gpupc_require_device -mat_segcsr_short $mode -csv "$OUT/spmv_$mode.csv" 2>&1 | tail -9 | tee -a "$OUT/spmv.txt"
    done ;;
  spmvreuse) # issue 19: new values on the same pattern, lap3d7 at 193^3 = 7.2M rows (~50M nonzeros), then the default suite
    ./env.sh build/bench/spmv -gpupc_backend cuda -gpupc_require_device -reuse -reuse_reps 20 -problems lap3d7 -n3d7 193 -reps 50 -csv "$OUT/spmv_reuse_7m_spmv.csv" -reuse_csv "$OUT/spmv_reuse_7m.csv" 2>&1 | tee "$OUT/spmv_reuse.txt"
    ./env.sh build/bench/spmv -gpupc_backend cuda -gpupc_require_device -reuse -reps 50 -csv "$OUT/spmv_reuse_suite_spmv.csv" -reuse_csv "$OUT/spmv_reuse_suite.csv" 2>&1 | tee -a "$OUT/spmv_reuse.txt" ;;
  cmgbench) # cmgbench "<problems>" "<sizes>" [all]
    ./env.sh bash bench/cmg.sh "$@" 2>&1 | grep -vE "^\s*$" | tee -a "$OUT/cmg.txt"; shift $# ;;
  profile) # profile <program args...>: kernel durations with Nsight Compute (clocks left alone)
    ./env.sh ncu --clock-control none --metrics gpu__time_duration.sum --print-summary per-kernel "$@" 2>&1 | tee "$OUT/profile.txt" | grep -E "^\s+[A-Za-z_].*\(|gpu__time_duration|bench/" | head -120; shift $# ;;
  launch) # issue 25: PCSetUp of the unchanged ksp ex45 on 193^3 as a user would launch it; full logs in $OUT/launch_*.txt
    lib=$b/lib/libpetscgpupc.so; pe=$(nproc)
    ex45="build/tutorials/ksp_ex45 -da_grid_x 193 -da_grid_y 193 -da_grid_z 193"
    ex34="build/tutorials/ksp_ex34 -da_grid_x 33 -da_grid_y 33 -da_grid_z 33"
    opts="-dll_append $lib -gpupc_require_device -pc_type cmg -ksp_type cg -ksp_converged_reason -ksp_view -log_view"
    while read -r name how; do
      echo "--- $name: $how" | tee -a "$OUT/launch.txt"
      ./env.sh bash -c "$how $opts" </dev/null >"$OUT/launch_$name.txt" 2>&1 # mpiexec would read the list
      grep -E "host setup:|WARNING: this rank|converged due|^(PCSetUp|KSPSolve|CMGCoarseFactor|GPUPCDenseInvDev|CMGUpload) " "$OUT/launch_$name.txt" | tee -a "$OUT/launch.txt"
    done <<LAUNCH
ex45-direct $ex45
ex45-mpiexec orterun -n 1 $ex45
ex45-bindnone orterun --bind-to none -n 1 $ex45
ex45-ppr orterun --map-by ppr:1:node:PE=$pe -n 1 $ex45
ex34-mpiexec orterun -n 1 $ex34
ex34-direct $ex34
LAUNCH
    ;;
  plotdata) # plotdata ["<problems>"] ["<sizes>"]: the CSVs bench/plot.py turns into PNGs (issue 25 item 6)
    mkdir -p "$OUT/results"
    ./env.sh build/bench/spmv -gpupc_backend cuda -gpupc_require_device -csv "$OUT/results/spmv.csv" 2>&1 | tail -14 | tee "$OUT/plotdata.txt"
    BENCH_CSV="$OUT/results" ./env.sh bash bench/cmg.sh "${1:-randcoef3d poisson3d powergrid}" "${2:-1000000}" all 2>&1 | grep -E "^(===|bench/cmg:|gpupc-solve:)" | tee -a "$OUT/plotdata.txt"
    ls -l "$OUT/results" | tee -a "$OUT/plotdata.txt"; shift $# ;;
  cmd)
    ./env.sh "$@" 2>&1 | tee -a "$OUT/cmd.txt"; shift $# ;;
  *) echo "unknown step $step" ;;
  esac
done

#!/usr/bin/env bash
# What one device-machine call runs (tools/gpu-session.sh <what...>): unpack the GPU
# bundle carried in .bundle/, then run the named steps; logs go to $OUT.
#   suite            the whole test suite with -gpupc_backend cuda
#   vecbench         bench/vecbench at 10^8 doubles (and a sweep of the reduction grid fill)
#   spmv [L...]      bench/spmv (default segment length, then each L)
#   spmvshort        bench/spmv with -mat_segcsr_short group, then tile (the spmv step runs auto)
#   spmvreuse        bench/spmv -reuse: segcsr value updates against copies of the same bytes (7.2M rows, then the suite)
#   cmgbench P S [all]  bench/cmg.sh: PC cmg on problems P, sizes S (all: + host backend, GAMG, hypre)
#   amgbench P S [all]  bench/amg.sh: PC gpuamg on problems P, sizes S (all: + GAMG, BoomerAMG on the host cores)
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
  amgbench) # amgbench "<problems>" "<sizes>" [all]
    ./env.sh bash bench/amg.sh "$@" 2>&1 | grep -vE "^\s*$" | tee -a "$OUT/amg.txt"; shift $# ;;
  profile) # profile <program args...>: kernel durations with Nsight Compute (clocks left alone)
    ./env.sh ncu --clock-control none --metrics gpu__time_duration.sum --print-summary per-kernel "$@" 2>&1 | tee "$OUT/profile.txt" | grep -E "^\s+[A-Za-z_].*\(|gpu__time_duration|bench/" | head -120; shift $# ;;
  cmd)
    ./env.sh "$@" 2>&1 | tee -a "$OUT/cmd.txt"; shift $# ;;
  *) echo "unknown step $step" ;;
  esac
done

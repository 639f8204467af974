#!/usr/bin/env bash
# What one device-machine call runs (tools/gpu-session.sh <what...>): unpack the GPU
# bundle carried in .bundle/, then run the named steps; logs go to $OUT.
#   suite [F...]     the whole test suite with -gpupc_backend cuda; with name filters F, only the tests whose names
#                    contain one of them, filter by filter (the whole suite takes longer than one 600 s device call:
#                    split it over calls, e.g. 'suite amg_ gpubjacobi'; a test matching two filters runs twice)
#   vecbench         bench/vecbench at 10^8 doubles (and a sweep of the reduction grid fill)
#   spmv [L...]      bench/spmv (default segment length, then each L)
#   spmvshort        bench/spmv with -mat_segcsr_short group, then tile (the spmv step runs auto)
#   spmvreuse        bench/spmv -reuse: segcsr value updates against copies of the same bytes (7.2M rows, then the suite)
#   spmvhec [p_r...] bench/spmv at each -mat_hec_ratio (default 2 4 8 12 16 20 32 64), then the small-matrix sweep
#   cmgbench P S [all]  bench/cmg.sh: PC cmg on problems P, sizes S (all: + host backend, GAMG, hypre)
#   halo [sizes]     bench/halo on 1, 2, 4 ranks sharing the GPU (default 65^3 and 193^3 rows), then again under MPS
#                    if nvidia-cuda-mps-control exists: where a distributed product's time goes (issue 26)
#   krylov [PCS]     bench/krylov: per-iteration PCG, KSPCG against gpucg (classic, pipelined), 3D Laplacian 10^4 .. 3*10^7,
#                    PCs PCS (default jacobi,cmg; e.g. jacobi,cmg,gpubjacobi); then time to solution with cmg on the
#                    7.2M random-coefficient Laplacian
#   launch           PC cmg's setup as launched (issue 25): ksp ex45 193^3 directly, under mpiexec -n 1, --bind-to none,
#                    --map-by ppr:1:node:PE=<cores>; ksp ex34 33^3 (pure Neumann, 36k rows) under plain mpiexec
#   plots [P] [S]    the inputs of bench/plot.py, packed into ONE file, $OUT/plots.tar.gz (the CSVs and gpu.txt):
#                    bench/spmv -csv (segcsr, hec, cuSPARSE), then bench/cmg.sh with BENCH_CSV and BENCH_GPUAMG=1 (cmg
#                    cuda double/single and host, gpuamg, GAMG and BoomerAMG on all cores) on problems P (default
#                    "randcoef3d powergrid poisson3d") at size S (default 1000000); the log with each part's seconds
#                    in $OUT/plots.txt. Here: tools/plots.sh <files_at>/plots.tar.gz draws them into docs/img
#   spmvbcsr         bench/spmv -bcsr: bcsr against cuSPARSE CSR and BSR, b = 2,3,4,5,8 at ~3M rows and elast3d at 3M rows, both slice shapes
#   trisolve [N]     bench/trisolve: TASSL/levelset/cuSPARSE solves of ILU(0)/ILU(1) factors (N rows, default 2e6), GMRES + tasslilu,
#                    then GMRES + bjacobi/ILU(0) on all host cores (gpupc-solve under mpiexec) on the same problems
#   pbjbench         bench/pbjbench: PC gpubjacobi apply against its bandwidth floor and PETSc's pbjacobi (4M rows)
#   amgbench P S [all]  bench/amg.sh: PC gpuamg on problems P, sizes S (all: + GAMG, BoomerAMG on the host cores)
#   spgemm [P] [S]   bench/spgemm: the setups' device transpose, SpGEMM and R A P against cuSPARSE on the Galerkin products
#                    of gpuamg's host hierarchy, problems P (default "poisson3d randcoef3d"), sizes S (default 7200000)
#   scaling [gpus]   bench/scaling.sh: weak (7.2M per GPU) and strong (3*10^7) scaling of PCG + cmg, PCG + jacobi on the
#                    host's GPUs, one rank per GPU (issue 26); SCALING_* variables pass through
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
    if [ $# -eq 0 ]; then ./run-suite.sh 2>&1 | tee "$OUT/suite.log" | grep -E "^(FAILED|ok|failed:)|passed," | tail -80
    else
      for f in "$@"; do
        echo "--- tests whose names contain $f" | tee -a "$OUT/suite.log"
        ./run-suite.sh "$f" 2>&1 | tee -a "$OUT/suite.log" | grep -E "^(FAILED|failed:)|passed,"
      done
      shift $#
    fi ;;
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
  spmvbcsr) # issue 23: bcsr on blocked matrices (3M rows each, at most 4e8 entries) and elast3d at 100^3 nodes (3M rows)
    ./env.sh build/bench/spmv -gpupc_backend cuda -gpupc_require_device -bcsr -reps 50 -bcsr_csv "$OUT/spmv_bcsr.csv" 2>&1 | tee "$OUT/spmv_bcsr.txt" ;;
  spmvhec) # spmvhec [p_r...]: the suite at each -mat_hec_ratio (hec columns; segcsr and cuSPARSE re-measured in each run), then -small
    ratios="$*"; [ -n "$ratios" ] || ratios="2 4 8 12 16 20 32 64"
    for pr in $ratios; do
      echo "--- -mat_hec_ratio $pr" | tee -a "$OUT/spmv_hec.txt"
      ./env.sh build/bench/spmv -gpupc_backend cuda -gpupc_require_device -reps 50 -mat_hec_ratio $pr -csv "$OUT/spmv_hec_pr$pr.csv" 2>&1 | tail -10 | tee -a "$OUT/spmv_hec.txt"
    done
    ./env.sh build/bench/spmv -gpupc_backend cuda -gpupc_require_device -small -small_problems lap2d5,lap3d7,powergrid,powerlaw -small_csv "$OUT/spmv_small.csv" 2>&1 | tee -a "$OUT/spmv_hec.txt"; shift $# ;;
  cmgbench) # cmgbench "<problems>" "<sizes>" [all]
    ./env.sh bash bench/cmg.sh "$@" 2>&1 | grep -vE "^\s*$" | tee -a "$OUT/cmg.txt"; shift $# ;;
  krylov) # krylov [pcs]: issue 24's per-iteration table and the 7.2M randcoef3d time to solution
    pcs=${1:-jacobi,cmg}; shift $#
    ./env.sh build/bench/krylov -gpupc_backend cuda -gpupc_require_device -pcs "$pcs" 2>&1 | tee "$OUT/krylov.txt"
    ./env.sh build/bench/krylov -gpupc_backend cuda -gpupc_require_device -problem randcoef3d -sizes 7.2e6 -pcs cmg -its 20 -rtol 1e-8 2>&1 | tee -a "$OUT/krylov.txt" ;;
  amgbench) # amgbench "<problems>" "<sizes>" [all]
    ./env.sh bash bench/amg.sh "$@" 2>&1 | grep -vE "^\s*$" | tee -a "$OUT/amg.txt"; shift $# ;;
  spgemm) # spgemm "<problems>" "<sizes>"
    for p in ${1:-poisson3d randcoef3d}; do
      for n in ${2:-7200000}; do
        echo "=== $p n=$n" | tee -a "$OUT/spgemm.txt"
        ./env.sh build/bench/spgemm -gpupc_backend cuda -gpupc_require_device -problem "$p" -n "$n" -reps 5 2>&1 | tee -a "$OUT/spgemm.txt"
      done
    done
    shift $# ;;
  profile) # profile <program args...>: kernel durations with Nsight Compute (clocks left alone)
    ./env.sh ncu --clock-control none --metrics gpu__time_duration.sum --print-summary per-kernel "$@" 2>&1 | tee "$OUT/profile.txt" | grep -E "^\s+[A-Za-z_].*\(|gpu__time_duration|bench/" | head -120; shift $# ;;
  halo) # halo [rows...]
    sizes="$*"; [ -z "$sizes" ] && sizes="274625 7189057"
    run_halo() {
      for n in $sizes; do for np in 1 2 4; do ./env.sh bash -c "\$MPIEXEC -n $np build/bench/halo -gpupc_backend cuda -gpupc_require_device -n $n -reps 200" 2>&1 | grep "^halo:" | tee -a "$OUT/halo.txt"; done; done
      # the issue's two solves: PCG + jacobi on 65^3 (segcsr) and PC cmg on 257^2, with the halo's events
      for np in 1 2 4; do ./env.sh bash -c "\$MPIEXEC -n $np build/bin/gpupc-solve -problem poisson3d -n 274625 -ksp_type cg -pc_type jacobi -mat_type segcsr -ksp_rtol 1e-8 -gpupc_backend cuda -log_view" 2>&1 | grep -E "^gpupc-solve:|^(MatMult|GPUHalo[A-Za-z]*|KSPSolve|VecTDot|VecNorm) " | tee -a "$OUT/halo.txt"; done
      for np in 1 2; do ./env.sh bash -c "\$MPIEXEC -n $np build/bin/gpupc-solve -problem poisson2d -n 66049 -ksp_type cg -pc_type cmg -ksp_rtol 1e-8 -gpupc_backend cuda -log_view" 2>&1 | grep -E "^gpupc-solve:|^(MatMult|GPUHalo[A-Za-z]*|KSPSolve|PCApply) " | tee -a "$OUT/halo.txt"; done
    }
    echo "--- ranks share the GPU by time slices (no MPS)" | tee -a "$OUT/halo.txt"; run_halo
    if [ "$(nvidia-smi -L | grep -c '^GPU')" -gt 1 ]; then # one rank per GPU: the direct exchange against the staged one
      echo "--- staged through the host (-gpupc_halo_peer 0)" | tee -a "$OUT/halo.txt"
      for n in $sizes; do ./env.sh bash -c "\$MPIEXEC -n 2 build/bench/halo -gpupc_backend cuda -gpupc_require_device -n $n -reps 200 -gpupc_halo_peer 0" 2>&1 | grep "^halo:" | tee -a "$OUT/halo.txt"; done
    fi
    if command -v nvidia-cuda-mps-control >/dev/null; then
      export CUDA_MPS_PIPE_DIRECTORY=/tmp/mps-pipe CUDA_MPS_LOG_DIRECTORY=/tmp/mps-log; mkdir -p /tmp/mps-pipe /tmp/mps-log
      nvidia-cuda-mps-control -d && echo "--- under MPS (nvidia-cuda-mps-control -d)" | tee -a "$OUT/halo.txt" && run_halo
      echo quit | nvidia-cuda-mps-control
    else echo "--- no nvidia-cuda-mps-control on this machine" | tee -a "$OUT/halo.txt"; fi
    shift $# ;;
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
  plots) # plots ["<problems>"] ["<size>"]: bench/plot.py's inputs in one tarball (a device call returns few files)
    d=$OUT/plots; rm -rf "$d"; mkdir -p "$d"; cp "$OUT/gpu.txt" "$d/"; t0=$SECONDS
    ./env.sh build/bench/spmv -gpupc_backend cuda -gpupc_require_device -reps 50 -csv "$d/spmv.csv" 2>&1 | tail -14 | tee "$OUT/plots.txt"
    echo "--- bench/spmv: $((SECONDS - t0)) s" | tee -a "$OUT/plots.txt"; t0=$SECONDS
    BENCH_CSV="$d" BENCH_GPUAMG=1 ./env.sh bash bench/cmg.sh "${1:-randcoef3d powergrid poisson3d}" "${2:-1000000}" all 2>&1 | grep -E "^(===|bench/cmg:|gpupc-solve:)" | tee -a "$OUT/plots.txt"
    echo "--- bench/cmg.sh: $((SECONDS - t0)) s" | tee -a "$OUT/plots.txt"
    tar -C "$OUT" -czf "$OUT/plots.tar.gz" plots && rm -rf "$d" && tar -tzvf "$OUT/plots.tar.gz" | tee -a "$OUT/plots.txt"
    shift $# ;;
  trisolve) # trisolve [N]: PC tasslilu's solves against level sets and cuSPARSE SpSV, then GMRES against host bjacobi/ILU(0)
    nt=${1:-2000000}; [ $# -gt 0 ] && shift
    ./env.sh build/bench/trisolve -gpupc_backend cuda -gpupc_require_device -n $nt -gmres -csv "$OUT/trisolve.csv" 2>&1 | tee "$OUT/trisolve.txt"
    echo "--- nested dissection ordering (many roots: sub-graph levels close to the level sets)" | tee -a "$OUT/trisolve.txt"
    ./env.sh build/bench/trisolve -gpupc_backend cuda -gpupc_require_device -n $nt -ordering nd -csv "$OUT/trisolve_nd.csv" 2>&1 | tee -a "$OUT/trisolve.txt"
    for p in poisson2d poisson3d poisson3d27 powergrid elasticity3d convdiff2d convdiff3d; do
      ./env.sh build/bin/gpupc-solve -problem $p -n $nt -mat_type segcsr -ksp_type gmres -ksp_rtol 1e-8 -ksp_max_it 10000 -pc_type tasslilu -gpupc_backend cuda -gpupc_require_device 2>&1 | grep "gpupc-solve:" | sed "s/^/gpu tasslilu: /" | tee -a "$OUT/trisolve.txt"
      ./env.sh ${MPIEXEC:-mpiexec} -n $(nproc) build/bin/gpupc-solve -problem $p -n $nt -ksp_type gmres -ksp_rtol 1e-8 -ksp_max_it 10000 -pc_type bjacobi -sub_pc_type ilu -gpupc_backend host 2>&1 | grep "gpupc-solve:" | sed "s/^/host bjacobi\/ILU(0): /" | tee -a "$OUT/trisolve.txt"
    done ;;
  pbjbench)
    ./env.sh build/bench/pbjbench -gpupc_backend cuda -gpupc_require_device -csv "$OUT/pbjbench.csv" 2>&1 | tee "$OUT/pbjbench.txt" ;;
  scaling) # scaling [gpus...]
    SCALING_CSV="$OUT/scaling.csv" ./env.sh bash bench/scaling.sh "$@" 2>"$OUT/scaling.log" | tee -a "$OUT/scaling.txt"; shift $# ;;
  cmd)
    ./env.sh "$@" 2>&1 | tee -a "$OUT/cmd.txt"; shift $# ;;
  *) echo "unknown step $step" ;;
  esac
done

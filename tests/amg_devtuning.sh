#!/usr/bin/env bash
# The developers' tuning of PC gpuamg's device-setup ext+i kernels (PCGPUAMGSetInterpTuning, -pc_gpuamg_dev_interp_*)
# and its hmis subdomains (PCGPUAMGSetHMISSubdomain): -help lists the options with their setters; a value the CUDA
# kernels cannot run (or a subdomain of no rows) is a clear error that names the option; a tuning that sends every ext+i row through the warp passes and the one-lane fallback (cuda backend; the host
# table ignores it) gives the same hierarchy and CG iterations as the defaults.
#   tests/amg_devtuning.sh <np> [options]   (called by tests/run.sh)
set -u
np=$1; shift
extra=("$@")
here=$(cd "$(dirname "$0")" && pwd)
solve=${GPUPC_SOLVE_BIN:-$here/../build/bin/gpupc-solve}
run() { ${MPIEXEC:-mpiexec} -n "$np" "$solve" -problem randcoef3d -n 8000 -pc_type gpuamg -pc_gpuamg_setup device -ksp_type cg -ksp_rtol 1e-8 -ksp_view "$@" "${extra[@]}" 2>&1; }
help=$(run -help) || { echo "$help"; echo "-help failed"; exit 1; }
for o in small_level long_row long_slots long_slots_big; do
  echo "$help" | grep -q -- "-pc_gpuamg_dev_interp_$o .*(PCGPUAMGSetInterpTuning)" || { echo "$help" | grep -i gpuamg; echo "-help has no line for -pc_gpuamg_dev_interp_$o naming PCGPUAMGSetInterpTuning"; exit 1; }
done
echo "-help lists the four -pc_gpuamg_dev_interp_ options"
echo "$help" | grep -q -- "-pc_gpuamg_dev_hmis_subdomain .*(PCGPUAMGSetHMISSubdomain)" || { echo "$help" | grep -i gpuamg; echo "-help has no line for -pc_gpuamg_dev_hmis_subdomain naming PCGPUAMGSetHMISSubdomain"; exit 1; }
echo "-help lists -pc_gpuamg_dev_hmis_subdomain"
check() { # check <option> <value> <expected message>
  out=$(run "$1" "$2") && { echo "$out"; echo "gpupc-solve accepted $1 $2"; exit 1; }
  msg=$(echo "$out" | grep -m1 -F -e "$3") || { echo "$out"; echo "no error saying \"$3\" for $1 $2"; exit 1; }
  echo "refused as expected: ${msg#*ERROR: }"
}
check -pc_gpuamg_dev_interp_long_slots 100 "-pc_gpuamg_dev_interp_long_slots 100 must be a power of 2 from 64"
check -pc_gpuamg_dev_interp_long_slots_big 16384 "-pc_gpuamg_dev_interp_long_slots_big 16384 must be a power of 2 from 64 to 8192"
check -pc_gpuamg_dev_interp_small_level -5 "-pc_gpuamg_dev_interp_small_level -5 must be >= 0"
check -pc_gpuamg_dev_interp_long_row -7 "-pc_gpuamg_dev_interp_long_row -7 must be >= 0"
check -pc_gpuamg_dev_hmis_subdomain 0 "-pc_gpuamg_dev_hmis_subdomain 0 must be at least 1"
its() { echo "$1" | grep -m1 '^gpupc-solve:' | sed -n 's/.* its=\([0-9]*\) .*/\1/p'; }
cx() { echo "$1" | grep -m1 'grid complexity' | sed 's/,[^,]*device format.*//'; }
def=$(run) || { echo "$def"; echo "defaults: gpupc-solve failed"; exit 1; }
tuned=$(run -pc_gpuamg_dev_interp_small_level 1000000000 -pc_gpuamg_dev_interp_long_slots 64 -pc_gpuamg_dev_interp_long_slots_big 64) || { echo "$tuned"; echo "tuned: gpupc-solve failed"; exit 1; }
echo "defaults: $(cx "$def"); its $(its "$def")"
echo "tuned:    $(cx "$tuned"); its $(its "$tuned")"
[ -n "$(its "$def")" ] && [ "$(its "$def")" = "$(its "$tuned")" ] && [ "$(cx "$def")" = "$(cx "$tuned")" ] || { echo "the tuning changed the hierarchy or the iterations"; exit 1; }
echo "same hierarchy and iterations with every row through the warp passes and the fallback"

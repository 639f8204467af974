#!/usr/bin/env bash
# make gpu-bundle: one tarball that runs the GPUPC test suite and benchmarks on a GPU host
# that has CUDA 13 but no PETSc and no MPI (e.g. Ubuntu 24.04).
#
# It holds: lib/libpetscgpupc.so, the test/bench/example programs, the test runner, and
# the runtime libraries they need from this (Debian 12) machine - the ldd closure of the
# programs, the Open MPI and PMIx packages' files (plugins, help texts, mpiexec) - except
# glibc, libstdc++/libgcc_s and the CUDA libraries, which come from the GPU host.
#
# Output: build/gpupc-bundle.tar.xz (or $GPUPC_BUNDLE). On the GPU host:
#   tar xJf gpupc-bundle.tar.xz -C /tmp && /tmp/gpupc/run-suite.sh [runner options]
#   /tmp/gpupc/env.sh <command...>     runs any bundled program with the environment set
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
out=${GPUPC_BUNDLE:-$top/build/gpupc-bundle.tar.xz}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stage=$work/gpupc
mkdir -p "$stage/rt/lib" "$stage/rt/root" "$stage/tests"

# 1. the project's files
cp -a lib "$stage/"
for d in build/tests build/bench build/bin build/tutorials; do [ -d "$d" ] && mkdir -p "$stage/$d" && cp -a "$d/." "$stage/$d/"; done
cp tests/*.sh "$stage/tests/"
# the Python tests stay out: the GPU host's Python cannot load Debian 12's petsc4py (built for its Python 3.11) and
# has no matplotlib (bench/plot.py runs where the CSVs are copied to)
grep -vE '^(python_solve|bench_plot)' tests/TESTS >"$stage/tests/TESTS"
mkdir -p "$stage/bench" && cp bench/*.sh "$stage/bench/"
[ -d tests/data ] && cp -a tests/data "$stage/tests/"

# 2. Open MPI / PMIx package trees, kept at their paths under rt/root (relocated with OPAL_PREFIX)
for pkg in libopenmpi3 openmpi-bin openmpi-common libpmix2; do
  dpkg -L "$pkg" 2>/dev/null | while read -r f; do
    case "$f" in /usr/share/doc/*|/usr/share/man/*|*/include/*) continue;; esac
    [ -f "$f" ] || continue
    mkdir -p "$stage/rt/root$(dirname "$f")"
    cp -aL "$f" "$stage/rt/root$f"
  done
done

# 3. ldd closure of every program, the library and every plugin, flat in rt/lib
skip='/(libc|libm|libdl|libpthread|librt|libutil|libresolv|ld-linux-x86-64|libgcc_s|libstdc\+\+|libcuda|libcudart|libcublas|libcublasLt|libcusparse|libcusolver|libnvJitLink)\.so'
{
  find "$stage/lib" "$stage/build" -type f -perm -u+x
  find "$stage/lib" "$stage/rt/root" -name '*.so*' -type f
  echo /usr/bin/orterun
} | while read -r f; do ldd "$f" 2>/dev/null || true; done \
  | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u | grep -vE "$skip" \
  | while read -r l; do cp -L "$l" "$stage/rt/lib/$(basename "$l")"; done

# 4. environment and runner
cat > "$stage/env.sh" <<'EOF'
#!/usr/bin/env bash
# Runs a command with the bundle's PETSc/Open MPI runtime; CUDA libraries from the host.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cuda=${CUDA_DIR:-/usr/local/cuda}
export LD_LIBRARY_PATH="$here/lib:$here/rt/lib:$here/rt/root/usr/lib/x86_64-linux-gnu/openmpi/lib:$cuda/lib64:$cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OPAL_PREFIX="$here/rt/root/usr"
export PMIX_INSTALL_PREFIX="$here/rt/root/usr/lib/x86_64-linux-gnu/pmix2"
export PATH="$here/rt/root/usr/bin:$PATH"
export OMPI_MCA_plm=${OMPI_MCA_plm:-isolated}
export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
export OMPI_MCA_rmaps_base_oversubscribe=1
export PMIX_MCA_pcompress=${PMIX_MCA_pcompress:-^zlib} PMIX_MCA_pcompress_base_silence_warning=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export MPIEXEC="$here/rt/root/usr/bin/orterun --oversubscribe"
if [ "${BASH_SOURCE[0]}" = "$0" ] && [ $# -gt 0 ]; then exec "$@"; fi
EOF
cat > "$stage/run-suite.sh" <<'EOF'
#!/usr/bin/env bash
# The whole GPUPC test suite on the GPU: -gpupc_backend cuda -gpupc_require_device.
# Extra arguments go to tests/run.sh (a name filter).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/env.sh"
export GPUPC_TEST_BIN="$here/build/tests"
export GPUPC_TEST_OPTIONS="${GPUPC_TEST_OPTIONS:--gpupc_backend cuda -gpupc_require_device}"
exec "$here/tests/run.sh" "$@"
EOF
chmod +x "$stage/env.sh" "$stage/run-suite.sh"
mkdir -p "$(dirname "$out")"
tar -C "$work" -I "xz -T2" -cf "$out" gpupc
echo "gpu-bundle: $out ($(du -h "$out" | cut -f1)); on the GPU host: tar xJf $(basename "$out") -C /tmp && /tmp/gpupc/run-suite.sh"

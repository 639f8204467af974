#!/usr/bin/env bash
# gpupc-solve -help lists every built-in problem under -problem, and nothing else: the list printed must be the
# registry's (src/problems/problem.c), which the refusal of an unknown problem prints too. A list written by hand in
# the help text (which once missed randcoef3d) fails here as soon as a problem is added.
#   tests/solve_help.sh <np> [options]   (called by tests/run.sh)
set -u
np=$1; shift
here=$(cd "$(dirname "$0")" && pwd)
solve=${GPUPC_SOLVE_BIN:-$here/../build/bin/gpupc-solve}
help=$(${MPIEXEC:-mpiexec} -n "$np" "$solve" -problem poisson2d -n 64 -pc_type jacobi "$@" -help 2>&1) || { echo "$help"; echo "gpupc-solve -help failed"; exit 1; }
listed=$(echo "$help" | sed -n 's/^ *-problem <now [^>]*>: built-in problem: \(.*\) (GPUPCProblemCreate)$/\1/p')
[ -n "$listed" ] || { echo "$help" | grep -- "-problem"; echo "-help has no '-problem <now ...>: built-in problem: <names> (GPUPCProblemCreate)' line"; exit 1; }
refusal=$(${MPIEXEC:-mpiexec} -n 1 "$solve" -problem no_such_problem "$@" 2>&1) && { echo "$refusal"; echo "-problem no_such_problem was accepted"; exit 1; }
registry=$(echo "$refusal" | sed -n 's/.*Unknown problem "no_such_problem"; the built-in problems are: //p' | head -1)
[ -n "$registry" ] || { echo "$refusal"; echo "the refusal of an unknown problem does not list the built-in problems"; exit 1; }
[ "$listed" = "$registry" ] || { echo "-help lists:  $listed"; echo "registry:     $registry"; echo "-help and the registry differ"; exit 1; }
for p in $registry; do
  grep -q "^| [^|]*\b$p\b" "$here/../docs/solve.md" || { echo "docs/solve.md's table of built-in problems does not describe $p"; exit 1; }
done
echo "-help lists the $(echo "$registry" | wc -w) built-in problems of the registry: $listed"

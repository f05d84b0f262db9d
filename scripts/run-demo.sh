#!/usr/bin/env bash
# The main job on an embedded default: friends-of-friends (2-hop path counts, stdlib/std/fof.gql) on a
# Kronecker graph from the built-in generator, compiled for OpenMP (CUDA when a GPU is present).
set -euo pipefail
cd "$(dirname "$0")/.."
target=openmp
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 && grep -q 'GQL_HAVE_CUDA:INTERNAL=ON' build/CMakeCache.txt 2>/dev/null; then
  target=cuda
fi
mkdir -p build/demo
build/compiler/gqlc stdlib/std/fof.gql --target "$target" -o build/demo/fof
build/demo/fof fof --G kron:14 --stats --explain

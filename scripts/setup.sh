#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks (Debian packages only), then configures and builds
# gql into ./build. Safe to run again: it installs nothing that is present and rebuilds incrementally.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake ninja-build g++ clang libomp-dev libgtest-dev llvm-14-tools zlib1g-dev
          libopenblas-dev libgraphblas-dev libxxhash-dev python3 python3-matplotlib)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Open MPI for the distributed ops and their tests (gql::dist); without it they are left out.
optional=(libopenmpi-dev openmpi-bin)
for p in "${optional[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "gql: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq || echo "gql: apt-get update failed; installing from the package lists at hand"
  if ! apt-get install -y -qq --no-install-recommends "${missing[@]}"; then
    # The required packages alone, so that a machine without Open MPI still builds the rest.
    required=()
    for p in "${missing[@]}"; do [[ " ${optional[*]} " == *" $p "* ]] || required+=("$p"); done
    echo "gql: Open MPI could not be installed; the distributed ops are left out"
    ((${#required[@]} == 0)) || apt-get install -y -qq --no-install-recommends "${required[@]}"
  fi
fi

# The CUDA toolkit is optional; use it when it is installed where NVIDIA puts it.
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DGQL_WERROR=ON -DGQL_REQUIRE_LIT=ON "$@"
cmake --build build -j"$(nproc)"

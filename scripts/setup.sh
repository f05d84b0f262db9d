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
if ((${#missing[@]})); then
  echo "gql: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The CUDA toolkit is optional; use it when it is installed where NVIDIA puts it.
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DGQL_WERROR=ON -DGQL_REQUIRE_LIT=ON "$@"
cmake --build build -j"$(nproc)"

// What the GPU closure tests share: the kernel designs to try, random dense inputs, and the
// comparison with gql::cpu::closure (exact for integers, 1e-5 relative for floats).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu_check.hpp"
#include "gql/cpu/closure.hpp"
#include "gql/device/closure/closure.hpp"
#include "test_closure_semirings.hpp"

namespace closure_check {

using namespace gql;
using namespace closure_semirings;
struct Variant {
  std::string name;
  gpu::DeviceClosureOptions options;
};

// Every design; register tiles with each k-block and thread tile the runtime builds for values of
// type V (8x16 only for 4-byte values and smaller).
template <class V>
std::vector<Variant> variants() {
  using gpu::ClosureKernel;
  std::vector<Variant> out;
  const auto add = [&](std::string name, ClosureKernel kernel, int tile, int per, bool spread, bool dpx,
                       gpu::RegisterTile registers = {8, 8}) {
    gpu::DeviceClosureOptions o;
    o.kernel = kernel;
    o.tile = tile;
    o.register_tile = registers;
    o.per_thread = per;
    o.spread = spread;
    o.dpx = dpx;
    o.out_of_core = gpu::OutOfCore::off;
    out.push_back({std::move(name), o});
  };
  add("register default", ClosureKernel::register_tiles, 0, 4, true, true, {0, 0});
  std::vector<gpu::RegisterTile> tiles{{8, 8}};
  if (sizeof(V) <= 4) tiles.push_back({8, 16});
  for (const gpu::RegisterTile t : tiles) {
    for (const int kb : {256, 128, 64, 32})
      add("register " + t.text() + " " + std::to_string(kb), ClosureKernel::register_tiles, kb, 4, true, true, t);
    add("register " + t.text() + " 128 no dpx", ClosureKernel::register_tiles, 128, 4, true, false, t);
  }
  add("shared 64 x4 spread", ClosureKernel::shared_tiles, 64, 4, true, false);
  add("shared 64 x8 packed", ClosureKernel::shared_tiles, 64, 8, false, false);
  add("shared 32 x2 packed", ClosureKernel::shared_tiles, 32, 2, false, false);
  add("shared 32 x1", ClosureKernel::shared_tiles, 32, 1, true, false);
  add("shared 32 x4 spread", ClosureKernel::shared_tiles, 32, 4, true, false);
  add("global", ClosureKernel::global_memory, 64, 4, true, false);
  return out;
}

template <class T>
bool same_value(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (a == b || (std::isnan(a) && std::isnan(b))) return true;  // infinities included
    return std::abs(a - b) <= 1e-5 * std::max(std::abs(a), std::abs(b));
  } else {
    return a == b;
  }
}

template <class T>
int64_t count_differences(const Matrix<T>& a, const Matrix<T>& b) {
  int64_t bad = 0;
  for (size_t e = 0; e < a.data().size(); ++e) bad += !same_value(a.data()[e], b.data()[e]);
  return bad;
}

// A random weighted digraph as a dense matrix: edges with probability `density`, weights from
// `weight`, S::zero() elsewhere; `diagonal` on the diagonal.
template <class S, class T, class Weight>
Matrix<T> random_matrix(int64_t n, double density, uint64_t seed, Weight weight, storage_t<T> diagonal) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  Matrix<T> m(n, n, static_cast<storage_t<T>>(S::zero()));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      if (i == j) m(i, j) = diagonal;
      else if (coin(rng) < density) m(i, j) = static_cast<storage_t<T>>(weight(rng));
  return m;
}

template <class S, class T>
inline void check_variants(const std::string& what, const Matrix<T>& input) {
  Matrix<T> expected = input.clone();
  cpu::closure<S>(expected);
  for (const Variant& v : variants<typename S::value_type>()) {
    Matrix<T> got = input.clone();
    const gpu::ClosurePlan plan = gpu::closure<S>(got, v.options);
    const int64_t bad = count_differences(expected, got);
    GPU_CHECK_MSG(bad == 0, what + ", " + v.name + " (" + plan.describe() + "): " + std::to_string(bad) +
                                " entries differ from the OpenMP closure");
  }
}

}  // namespace closure_check

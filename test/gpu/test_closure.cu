// closure(D over S) on the GPU against gql::cpu::closure: min_plus over f32/f64/i32 (with and without
// DPX)/i64 and or_and over bool, sizes that are not multiples of any tile, every kernel design
// (global memory, shared-memory tiles, register tiles with k-blocks 256, 128, 64 and 32 and thread
// tiles 8x8 and 8x16), and NaN entries (which the register tiles' fminf path must treat as the
// policy's own min does).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gpu_check.hpp"
#include "test_closure_check.hpp"

namespace {

using namespace gql;
using namespace closure_semirings;
using namespace closure_check;
using gpu_test::small_inputs;

void shortest_paths_and_reachability() {
  const std::vector<int64_t> sizes = small_inputs() ? std::vector<int64_t>{70, 129} : std::vector<int64_t>{1, 33, 150, 301};
  for (const int64_t n : sizes) {
    const std::string at = " n=" + std::to_string(n);
    const double density = 4.0 / static_cast<double>(std::max<int64_t>(n, 4));
    const auto weight = [](std::mt19937_64& r) { return static_cast<int>(r() % 100) + 1; };
    check_variants<MinPlus<float>>("min_plus f32" + at, random_matrix<MinPlus<float>, float>(n, density, 1, weight, 0));
    check_variants<MinPlus<double>>("min_plus f64" + at, random_matrix<MinPlus<double>, double>(n, density, 2, weight, 0));
    check_variants<MinPlusDpx>("min_plus i32" + at, random_matrix<MinPlusDpx, int>(n, density, 3, weight, 0));
    check_variants<MinPlus<int64_t>>("min_plus i64" + at,
                                     random_matrix<MinPlus<int64_t>, int64_t>(n, density, 4, weight, 0));
    check_variants<OrAnd>("or_and bool" + at,
                          random_matrix<OrAnd, bool>(n, 1.5 / static_cast<double>(std::max<int64_t>(n, 2)), 5,
                                                     [](std::mt19937_64&) { return 1; }, 1));
  }
}

// The register-tiled design's schedule, written plainly: per k-block K, the diagonal block closed one
// k at a time (a k-block above 128: closed by this schedule with k-blocks of 128); both panels as one
// product each through it, from the panels as they were; then every other entry through the final
// panels. Each output's agg runs over k in ascending order. (Positions passed to con are those of
// the block; the semirings here ignore them.)
template <class S, class T>
Matrix<T> blocked_reference(const Matrix<T>& input, int64_t kb) {
  Matrix<T> d = input.clone();
  const int64_t n = d.n_rows();
  const auto close_diagonal = [&](int64_t k0, int64_t k1) {
    if (kb > 128) {
      Matrix<T> block(k1 - k0, k1 - k0, storage_t<T>{});
      for (int64_t i = k0; i < k1; ++i)
        for (int64_t j = k0; j < k1; ++j) block(i - k0, j - k0) = d(i, j);
      const Matrix<T> closed = blocked_reference<S>(block, 128);
      for (int64_t i = k0; i < k1; ++i)
        for (int64_t j = k0; j < k1; ++j) d(i, j) = closed(i - k0, j - k0);
      return;
    }
    for (int64_t k = k0; k < k1; ++k)
      for (int64_t i = k0; i < k1; ++i)
        for (int64_t j = k0; j < k1; ++j) d(i, j) = S::agg(d(i, j), S::con(d(i, k), d(k, j), i, k, j));
  };
  const auto update = [&](const Matrix<T>& from, int64_t i, int64_t j, int64_t k0, int64_t k1) {
    T acc = from(i, j);
    for (int64_t k = k0; k < k1; ++k) acc = S::agg(acc, S::con(from(i, k), from(k, j), i, k, j));
    d(i, j) = acc;
  };
  for (int64_t k0 = 0; k0 < n; k0 += kb) {
    const int64_t k1 = std::min(n, k0 + kb);
    const auto in_block = [&](int64_t x) { return k0 <= x && x < k1; };
    close_diagonal(k0, k1);
    const Matrix<T> before = d.clone();
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        if (in_block(i) != in_block(j)) update(before, i, j, k0, k1);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        if (!in_block(i) && !in_block(j)) update(d, i, j, k0, k1);
  }
  return d;
}

// NaN entries in f32 and f64 inputs: where an output tile holds one, the register tiles run the
// policy's own `b < a ? b : a` rather than fminf, so NaN entries stay NaN and a NaN sum changes
// nothing, exactly as in the plain schedule above. (Which paths a NaN entry hides depends on the
// blocking, so each k-block has its own reference.)
template <class T>
void nan_entries(const std::string& what) {
  const int64_t n = small_inputs() ? 140 : 300;
  const auto weight = [](std::mt19937_64& r) { return static_cast<int>(r() % 100) + 1; };
  Matrix<T> input = random_matrix<MinPlus<T>, T>(n, 6.0 / static_cast<double>(n), 6, weight, 0);
  std::mt19937_64 rng(8);
  for (int e = 0; e < 12; ++e)
    input(static_cast<int64_t>(rng() % static_cast<uint64_t>(n)), static_cast<int64_t>(rng() % static_cast<uint64_t>(n))) =
        std::numeric_limits<T>::quiet_NaN();
  std::vector<gpu::RegisterTile> tiles{{8, 8}};
  if (sizeof(T) <= 4) tiles.push_back({8, 16});
  for (const int kb : {256, 128, 64, 32}) {
    const Matrix<T> expected = blocked_reference<MinPlus<T>>(input, kb);
    for (const gpu::RegisterTile tile : tiles) {
      gpu::DeviceClosureOptions o;
      o.tile = kb;
      o.register_tile = tile;
      o.out_of_core = gpu::OutOfCore::off;
      Matrix<T> got = input.clone();
      const gpu::ClosurePlan plan = gpu::closure<MinPlus<T>>(got, o);
      const int64_t bad = count_differences(expected, got);
      GPU_CHECK_MSG(bad == 0, what + " (" + plan.describe() + "): " + std::to_string(bad) + " entries differ");
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  return gql::gpu_test::run_main(argc, argv, "gpu_test_closure", [] {
    shortest_paths_and_reachability();
    nan_entries<float>("min_plus f32 with NaN entries");
    nan_entries<double>("min_plus f64 with NaN entries");
  });
}

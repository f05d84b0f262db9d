// closure(D over S) on the GPU against gql::cpu::closure: min_plus over f32/f64/i32 (with and without
// DPX)/i64 and or_and over bool, sizes that are not multiples of any tile, every kernel design
// (global memory, shared-memory tiles, register tiles).
#include <cstdint>
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

}  // namespace

int main(int argc, char** argv) {
  return gql::gpu_test::run_main(argc, argv, "gpu_test_closure", [] { shortest_paths_and_reachability(); });
}

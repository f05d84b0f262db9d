// closure(D over S) on the GPU against gql::cpu::closure: max_min (widest paths) over f32 and i32
// and max_times (most reliable paths) over f32 and f64, every kernel design, ragged sizes.
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

void widest_and_most_reliable() {
  const std::vector<int64_t> sizes = small_inputs() ? std::vector<int64_t>{70, 129} : std::vector<int64_t>{1, 33, 150, 301};
  for (const int64_t n : sizes) {
    const std::string at = " n=" + std::to_string(n);
    const double density = 4.0 / static_cast<double>(std::max<int64_t>(n, 4));
    const auto weight = [](std::mt19937_64& r) { return static_cast<int>(r() % 100) + 1; };
    check_variants<MaxMin<float>>("max_min f32" + at, random_matrix<MaxMin<float>, float>(n, density, 6, weight, 1000));
    check_variants<MaxMin<int>>("max_min i32" + at, random_matrix<MaxMin<int>, int>(n, density, 7, weight, 1000));
    const auto probability = [](std::mt19937_64& r) { return static_cast<double>(r() % 16 + 1) / 16.0; };
    check_variants<MaxTimes<double>>("max_times f64" + at,
                                     random_matrix<MaxTimes<double>, double>(n, density, 8, probability, 1.0));
    check_variants<MaxTimes<float>>("max_times f32" + at,
                                    random_matrix<MaxTimes<float>, float>(n, density, 9, probability, 1.0f));
  }
}

}  // namespace

int main(int argc, char** argv) {
  return gql::gpu_test::run_main(argc, argv, "gpu_test_closure_widest", [] { widest_and_most_reliable(); });
}

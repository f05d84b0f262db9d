// Floyd-Warshall (min_plus, fp32) in place: gql's closure variants against the naive triple loop
// on the same random graph, same run; the results must agree.
//
// Usage: bench_floyd_warshall [N=2048] [TILE=128]
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>

#include <omp.h>

#include "gql/cpu/closure.hpp"

namespace {

struct MinPlus {
  using a_type = float;
  using b_type = float;
  using value_type = float;
  static constexpr gql::Monoid monoid = gql::Monoid::min;
  static constexpr bool reads_values = true;
  static constexpr bool positional = false;
  static constexpr bool has_terminal = false;
  static float con(float a, float b, long long, long long, long long) { return a + b; }
  static float agg(float x, float y) { return y < x ? y : x; }
  static float zero() { return std::numeric_limits<float>::infinity(); }
  static float terminal() { return zero(); }
};

// The baseline: the textbook loop nest, single-threaded as written.
void naive_floyd_warshall(gql::Matrix<float>& D) {
  const int64_t n = D.n_rows();
  float* d = D.data().data();
  for (int64_t k = 0; k < n; ++k)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) d[i * n + j] = std::min(d[i * n + j], d[i * n + k] + d[k * n + j]);
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t n = argc > 1 ? std::atoll(argv[1]) : 2048;
  const int64_t tile = argc > 2 ? std::atoll(argv[2]) : 128;
  // Random digraph with about 8 out-edges per vertex, integer weights 1..100 (so sums are exact).
  gql::Matrix<float> input(n, n, MinPlus::zero());
  std::mt19937_64 rng(7);
  for (int64_t i = 0; i < n; ++i) {
    input(i, i) = 0.f;
    for (int e = 0; e < 8; ++e) input(i, static_cast<int64_t>(rng() % static_cast<uint64_t>(n))) = static_cast<float>(rng() % 100 + 1);
  }
  const double updates = static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
  std::printf("n = %lld, tile = %lld, threads = %d\n", static_cast<long long>(n), static_cast<long long>(tile),
              omp_get_max_threads());

  auto reference = input.clone();
  auto t0 = std::chrono::steady_clock::now();
  naive_floyd_warshall(reference);
  const double naive = seconds_since(t0);
  std::printf("naive triple loop: %8.3f s  %6.2f G updates/s\n", naive, updates / naive * 1e-9);

  bool all_equal = true;
  for (auto variant : {gql::cpu::ClosureVariant::tasks, gql::cpu::ClosureVariant::parallel_for,
                       gql::cpu::ClosureVariant::recursive}) {
    auto D = input.clone();
    t0 = std::chrono::steady_clock::now();
    gql::cpu::closure<MinPlus>(D, {variant, tile, 2 * tile});
    const double t = seconds_since(t0);
    int64_t differ = 0;
    for (size_t p = 0; p < D.data().size(); ++p) differ += D.data()[p] != reference.data()[p];
    all_equal = all_equal && differ == 0;
    const char* name = variant == gql::cpu::ClosureVariant::tasks          ? "tasks"
                       : variant == gql::cpu::ClosureVariant::parallel_for ? "parallel_for"
                                                                            : "recursive";
    std::printf("gql %-13s  %8.3f s  %6.2f G updates/s  %5.1fx naive  %s\n", name, t, updates / t * 1e-9, naive / t,
                differ == 0 ? "equal" : "DIFFERENT");
  }
  return all_equal ? 0 : 1;
}

// Floyd-Warshall (min_plus, fp32) in place: gql's closure variants against the naive triple loop
// on the same random graph, same run; the results must agree.
//
// The naive loop runs once (no warm-up: it is the slow baseline); gql's variants with warm-up and repeats.
//
// Usage: bench_floyd_warshall [--n 2048] [--tile 128] [--warmup 1] [--repeats 3] [--json FILE]
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <random>

#include "bench_args.hpp"
#include "checksum.hpp"
#include "gql/cpu/closure.hpp"
#include "gql/semiring.hpp"
#include "bench_semirings.hpp"
#include "host_context.hpp"
#include "measure.hpp"

namespace {

using MinPlusF32 = gql::bench::MinPlus<float>;

// The baseline: the textbook loop nest, single-threaded as written.
void naive_floyd_warshall(gql::Matrix<float>& D) {
  const int64_t n = D.n_rows();
  float* d = D.data().data();
  for (int64_t k = 0; k < n; ++k)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) d[i * n + j] = std::min(d[i * n + j], d[i * n + k] + d[k * n + j]);
}

gql::bench::Checksum dense_checksum(const gql::Matrix<float>& D) {
  gql::bench::Checksum sum;
  const int64_t n = D.n_rows();
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) sum.add(static_cast<uint64_t>(i), static_cast<uint64_t>(j), D(i, j));
  return sum;
}

}  // namespace

int main(int argc, char** argv) try {
  using namespace gql::bench;
  Args args(argc, argv, "usage: bench_floyd_warshall [--n 2048] [--tile 128] [--warmup 1] [--repeats 3] [--json FILE]");
  const int64_t n = args.integer("n", 2048);
  const int64_t tile = args.integer("tile", 128);
  const Repeat repeat{static_cast<int>(args.integer("warmup", 1)), static_cast<int>(args.integer("repeats", 3))};
  JsonLines out(args.text("json", ""));
  args.check_all_used();
  const RunContext context = host_context();
  // Random digraph with about 8 out-edges per vertex, integer weights 1..100 (so sums are exact).
  gql::Matrix<float> input(n, n, MinPlusF32::zero());
  std::mt19937_64 rng(7);
  for (int64_t i = 0; i < n; ++i) {
    input(i, i) = 0.f;
    for (int e = 0; e < 8; ++e) input(i, static_cast<int64_t>(rng() % static_cast<uint64_t>(n))) = static_cast<float>(rng() % 100 + 1);
  }
  const double updates = static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
  const auto emit = [&](const char* variant, const char* role, const Measurement& m, const Checksum& sum, bool same) {
    Record r;
    r.text("workload", "fw").text("case", "min_plus fp32").text("graph", "random 8 out-edges seed 7").integer("n", n)
        .integer("nvals", n * n).text("variant", variant).text("role", role);
    measured(r, m);
    r.number("rate", updates / m.time.median).text("rate_unit", "updates/s").text("checksum", sum.hex())
        .boolean("same_as_gql", same).text("detail", "tile " + std::to_string(tile));
    out.write(stamp_host(r, context));
  };

  gql::Matrix<float> reference = input.clone();
  const Measurement naive = measure({0, 1}, [&] {
    reference = input.clone();
    naive_floyd_warshall(reference);
  });
  const Checksum reference_sum = dense_checksum(reference);
  bool all_equal = true;
  Checksum first_sum;
  bool first = true;
  for (auto variant : {gql::cpu::ClosureVariant::tasks, gql::cpu::ClosureVariant::parallel_for,
                       gql::cpu::ClosureVariant::recursive}) {
    gql::Matrix<float> D = input.clone();
    const Measurement m = measure(repeat, [&] {
      D = input.clone();
      gql::cpu::closure<MinPlusF32>(D, {variant, tile, 2 * tile});
    });
    const Checksum sum = dense_checksum(D);
    all_equal = all_equal && sum == reference_sum;
    if (first) first_sum = sum;
    const char* name = variant == gql::cpu::ClosureVariant::tasks          ? "gql tasks"
                       : variant == gql::cpu::ClosureVariant::parallel_for ? "gql parallel_for"
                                                                            : "gql recursive";
    emit(name, first ? "gql" : "gql-variant", m, sum, sum == first_sum);
    first = false;
    std::fprintf(stderr, "fw n=%lld %-17s %8.3f s  %5.1fx naive  %s\n", static_cast<long long>(n), name, m.time.median,
                 naive.time.median / m.time.median, sum == reference_sum ? "equal" : "DIFFERENT");
  }
  emit("naive triple loop", "peer", naive, reference_sum, reference_sum == first_sum);
  return all_equal ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_floyd_warshall: %s\n", e.what());
  return 2;
}

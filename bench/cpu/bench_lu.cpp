// LU with partial pivoting (fp64): gql::cpu::lu (tiled right-looking, OpenBLAS gemm for the trailing
// update) against LAPACK's dgetrf as OpenBLAS ships it, on the same random matrix, same run. Both
// results are checked by their residual ||P A - L U||_max / ||A||_max; the pivots are compared too.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <random>
#include <string>
#include <vector>

#include "bench_args.hpp"
#include "checksum.hpp"
#include "gql/cpu/lu.hpp"
#include "host_context.hpp"
#include "measure.hpp"

extern "C" void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);

namespace {

using namespace gql::bench;

// max |(P A - L U)(i, j)| / max |A(i, j)|, with LU packed as get(i, j) and swaps applied in order.
template <class Get>
double residual(const gql::Matrix<double>& A, int64_t n, Get lu, const std::vector<int64_t>& swaps) {
  std::vector<double> pa(A.data().begin(), A.data().end());
  for (int64_t k = 0; k < n; ++k)
    if (swaps[static_cast<size_t>(k)] != k)
      for (int64_t j = 0; j < n; ++j) std::swap(pa[static_cast<size_t>(k * n + j)], pa[static_cast<size_t>(swaps[static_cast<size_t>(k)] * n + j)]);
  double worst = 0, scale = 0;
  for (const double x : A.data()) scale = std::max(scale, std::abs(x));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t k = 0; k <= std::min(i, j); ++k) sum += (k == i ? 1.0 : lu(i, k)) * lu(k, j);
      worst = std::max(worst, std::abs(pa[static_cast<size_t>(i * n + j)] - sum));
    }
  return worst / scale;
}

}  // namespace

int main(int argc, char** argv) try {
  Args args(argc, argv, "usage: bench_lu [--sizes 1024,2048] [--check-max 1024] [--warmup 1] [--repeats 3] [--json FILE]");
  const auto sizes = args.list("sizes", {"1024", "2048"});
  const int64_t check_max = args.integer("check-max", 1024);  // the residual is O(n^3) and single-threaded
  const Repeat repeat{static_cast<int>(args.integer("warmup", 1)), static_cast<int>(args.integer("repeats", 3))};
  JsonLines out(args.text("json", ""));
  args.check_all_used();
  const RunContext context = host_context();
  bool all_ok = true;
  for (const std::string& size : sizes) {
    const int64_t n = std::stoll(size);
    gql::Matrix<double> A(n, n, 0.0);
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    for (double& x : A.data()) x = uniform(rng);

    gql::cpu::LuFactors<double> ours_lu;
    const Measurement ours = measure(repeat, [&] { ours_lu = gql::cpu::lu(A); });
    // dgetrf works on columns: A stored column-major (transposed once, outside the timing).
    std::vector<double> source(static_cast<size_t>(n * n)), column_major;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) source[static_cast<size_t>(j * n + i)] = A(i, j);
    std::vector<int> ipiv(static_cast<size_t>(n));
    const int ni = static_cast<int>(n);
    int info = 0;
    const Measurement theirs = measure(repeat, [&] {
      column_major = source;  // a plain copy, as lu() clones its input
      dgetrf_(&ni, &ni, column_major.data(), &ni, ipiv.data(), &info);
    });
    if (info != 0) throw std::runtime_error("dgetrf: info " + std::to_string(info));

    std::vector<int64_t> our_swaps(static_cast<size_t>(n)), their_swaps(static_cast<size_t>(n));
    int64_t pivots_differ = 0;
    Checksum our_pivots, their_pivots;
    for (int64_t k = 0; k < n; ++k) {
      our_swaps[static_cast<size_t>(k)] = ours_lu.pivots[static_cast<size_t>(k)];
      their_swaps[static_cast<size_t>(k)] = ipiv[static_cast<size_t>(k)] - 1;  // LAPACK's are 1-based
      pivots_differ += our_swaps[static_cast<size_t>(k)] != their_swaps[static_cast<size_t>(k)];
      our_pivots.add(static_cast<uint64_t>(k), 0, our_swaps[static_cast<size_t>(k)]);
      their_pivots.add(static_cast<uint64_t>(k), 0, their_swaps[static_cast<size_t>(k)]);
    }
    // NaN (null in the JSON record) above --check-max, where the residual is not computed.
    double our_residual = std::nan(""), their_residual = std::nan("");
    if (n <= check_max) {
      our_residual = residual(A, n, [&](int64_t i, int64_t j) { return ours_lu.lu(i, j); }, our_swaps);
      their_residual = residual(A, n, [&](int64_t i, int64_t j) { return column_major[static_cast<size_t>(j * n + i)]; },
                                their_swaps);
      all_ok &= our_residual < 1e-10 && their_residual < 1e-10;
    }
    const double flops = 2.0 / 3.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
    for (const bool gql_side : {true, false}) {
      const Measurement& m = gql_side ? ours : theirs;
      Record r;
      r.text("workload", "lu").text("case", "fp64").text("graph", "uniform[-1,1] seed 3").integer("n", n)
          .integer("nvals", n * n).text("variant", gql_side ? "gql" : "OpenBLAS dgetrf").text("role", gql_side ? "gql" : "peer");
      measured(r, m);
      r.number("rate", flops / m.time.median).text("rate_unit", "flop/s")
          .number("residual", gql_side ? our_residual : their_residual)
          .text("checksum", (gql_side ? our_pivots : their_pivots).hex()).boolean("same_as_gql", pivots_differ == 0)
          .text("detail", gql_side ? "tiled right-looking, tile 128, recursive panels"
                                   : "LAPACK dgetrf (a copy of the input included, as in lu())");
      out.write(stamp_host(r, context));
    }
    std::fprintf(stderr, "lu n=%lld: gql %.3f s, dgetrf %.3f s, residuals %.2e %.2e%s, pivots %s\n",
                 static_cast<long long>(n), ours.time.median, theirs.time.median, our_residual, their_residual,
                 n <= check_max ? "" : " (not computed above --check-max)", pivots_differ == 0 ? "equal" : "DIFFER");
  }
  return all_ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_lu: %s\n", e.what());
  return 2;
}

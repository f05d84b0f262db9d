// fof (friends of friends: the paths semiring, counts in uint64) on a directed Kronecker graph:
// gql's OpenMP SpGEMM against SuiteSparse:GraphBLAS GrB_mxm with GxB_PLUS_PAIR_UINT64, same graph,
// same run. Prints both times, products/s, and checksums of both outputs (they must agree).
//
// The graph comes from the runtime's Graph500 Kronecker generator (gql::kronecker, seed 1).
//
// Usage: bench_fof [SCALE=16] [EDGE_FACTOR=16]
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <omp.h>

#include "gql/cpu/spgemm.hpp"
#include "gql/generate.hpp"
#include "graphblas_peer.hpp"

namespace {

struct Paths {
  using a_type = bool;
  using b_type = bool;
  using value_type = uint64_t;
  static constexpr gql::Monoid monoid = gql::Monoid::sum;
  static constexpr bool reads_values = false;
  static constexpr bool positional = false;
  static constexpr bool has_terminal = false;
  static uint64_t con(bool, bool, long long, long long, long long) { return 1; }
  static uint64_t agg(uint64_t x, uint64_t y) { return x + y; }
  static uint64_t zero() { return 0; }
  static uint64_t terminal() { return 0; }
};

// An order-independent checksum of (i, j, x) entries: a sum of mixed hashes.
uint64_t mix(uint64_t i, uint64_t j, uint64_t x) {
  uint64_t h = (i * 0x9E3779B97F4A7C15ull) ^ (j + 0x632BE59BD9B4E019ull) ^ (x * 0xD6E8FEB86659FD93ull);
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 29);
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  gql::KroneckerOptions ko;  // the runtime's Graph500 generator, as `--A kron:16` gives it
  if (argc > 1) ko.scale = std::atoi(argv[1]);
  if (argc > 2) ko.edge_factor = std::atoi(argv[2]);
  const int threads = omp_get_max_threads();
  gql::ReadOptions read;
  read.self_loops = gql::SelfLoops::drop;  // duplicates collapse into one entry
  const auto A = gql::kronecker<bool>(ko, read);
  std::printf("graph: kron:%d edgefactor %lld directed (self-loops dropped), n = %lld, nvals = %lld, threads = %d\n",
              ko.scale, static_cast<long long>(ko.edge_factor), static_cast<long long>(A.n_rows()), static_cast<long long>(A.nvals()), threads);

  auto t0 = std::chrono::steady_clock::now();
  gql::cpu::SpgemmStats stats;
  const auto C = gql::cpu::spgemm<Paths>(A, A, {}, {}, &stats);
  const double ours = seconds_since(t0);
  uint64_t our_sum = 0;
  for (int64_t i = 0; i < C.n_rows(); ++i)
    for (gql::offset_t p = C.row_offsets()[static_cast<size_t>(i)]; p < C.row_offsets()[static_cast<size_t>(i) + 1]; ++p)
      our_sum += mix(static_cast<uint64_t>(i), static_cast<uint64_t>(C.col_indices()[static_cast<size_t>(p)]),
                     C.values()[static_cast<size_t>(p)]);
  std::printf("gql:       %8.3f s  %7.3f G products/s  nvals %lld  (rows dense %lld, hash %lld)  checksum %016llx\n",
              ours, static_cast<double>(stats.products) / ours * 1e-9, static_cast<long long>(C.nvals()),
              static_cast<long long>(stats.rows_dense), static_cast<long long>(stats.rows_hash),
              static_cast<unsigned long long>(our_sum));

  gql::bench::grb_check(GrB_init(GrB_NONBLOCKING), "GrB_init");
  gql::bench::grb_check(GxB_Global_Option_set_INT32(GxB_GLOBAL_NTHREADS, threads), "GxB_set(NTHREADS)");
  GrB_Matrix a = gql::bench::to_graphblas(A);
  GrB_Matrix c = nullptr;
  gql::bench::grb_check(GrB_Matrix_new(&c, GrB_UINT64, static_cast<GrB_Index>(A.n_rows()),
                                       static_cast<GrB_Index>(A.n_cols())), "GrB_Matrix_new");
  t0 = std::chrono::steady_clock::now();
  gql::bench::grb_check(GrB_mxm(c, nullptr, nullptr, GxB_PLUS_PAIR_UINT64, a, a, nullptr), "GrB_mxm");
  gql::bench::grb_check(GrB_Matrix_wait(c, GrB_MATERIALIZE), "GrB_Matrix_wait");
  const double theirs = seconds_since(t0);
  GrB_Index nvals = 0;
  gql::bench::grb_check(GrB_Matrix_nvals(&nvals, c), "GrB_Matrix_nvals");
  std::vector<GrB_Index> I(nvals), J(nvals);
  std::vector<uint64_t> X(nvals);
  GrB_Index got = nvals;
  gql::bench::grb_check(GrB_Matrix_extractTuples_UINT64(I.data(), J.data(), X.data(), &got, c), "extractTuples");
  uint64_t their_sum = 0;
  for (GrB_Index p = 0; p < got; ++p) their_sum += mix(I[p], J[p], X[p]);
  std::printf("GraphBLAS: %8.3f s  %7.3f G products/s  nvals %llu  checksum %016llx\n", theirs,
              static_cast<double>(stats.products) / theirs * 1e-9, static_cast<unsigned long long>(got),
              static_cast<unsigned long long>(their_sum));
  const bool same = their_sum == our_sum && got == static_cast<GrB_Index>(C.nvals());
  std::printf("products %lld, outputs %s, speedup %.2fx\n", static_cast<long long>(stats.products),
              same ? "equal" : "DIFFER", theirs / ours);
  GrB_Matrix_free(&a);
  GrB_Matrix_free(&c);
  GrB_finalize();
  return same ? 0 : 1;
}

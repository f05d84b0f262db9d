// Loops of element stores (specs/stores.gql) through a gqlc-built program, against the same loops
// run on a std::map here: new entries, overwrites and repeated positions in any order, into graphs
// and sparse vectors, with reads between the stores; each graph loop also into a graph an op made
// (the device_ kernels, which gpu_test_generated_cuda runs on CUDA, where that graph is on the device).
#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "e2e_support.hpp"

namespace gql::e2e {
namespace {

using Entries = std::map<std::pair<int64_t, int64_t>, double>;

template <class T>
Entries entries_of(const Csr<T>& g) {
  Entries out;
  for (int64_t i = 0; i < g.n_rows(); ++i)
    for (offset_t p = g.row_offsets()[i]; p < g.row_offsets()[i + 1]; ++p)
      out[{i, g.col_indices()[p]}] = static_cast<double>(g.value_at(p));
  return out;
}

// S[(k * 7919) % n, (k * 31 + 5) % n] = k for k < rounds * n, as the spec's loops store.
Entries stored(Entries S, int64_t n, int64_t rounds, bool pattern) {
  for (int64_t k = 0; k < rounds * n; ++k) S[{(k * 7919) % n, (k * 31 + 5) % n}] = pattern ? 1.0 : double(k);
  return S;
}

TEST(Stores, GraphsHoldEveryEntryAndTheLastStore) {
  for (const char* graph : {"kron:10", "grid:30x40"}) {
    SCOPED_TRACE(graph);
    const auto G = read_graph<double>(graph);
    const int64_t n = G.n_rows();
    for (const std::string prefix : {"", "device_"}) {
      const std::string out = run_ok("specs_stores", prefix + "graph_stores", std::string("--G ") + graph + " --rounds 3");
      EXPECT_EQ(entries_of(read_graph<double>(out)), stored(entries_of(G), n, 3, false));
      const std::string pattern =
          run_ok("specs_stores", prefix + "pattern_stores", std::string("--G ") + graph + " --rounds 2");
      EXPECT_EQ(entries_of(read_graph<bool>(pattern)), stored(entries_of(read_graph<bool>(graph)), n, 2, true));
    }
  }
}

TEST(Stores, ReadsBetweenStoresSeeThem) {
  const auto G = read_graph<double>("kron:9", {.self_loops = SelfLoops::drop});
  const int64_t n = G.n_rows();
  Entries S = entries_of(G);
  double seen = 0;
  for (int64_t i = n - 1; i >= 0; --i) {
    S[{i, i}] = double(i) + 0.5;
    if (i % 64 == 0) seen += double(S.size()) + S[{i, i}] + S[{n - 1, n - 1}];
  }
  seen += double(S.size());
  for (const std::string kernel : {"stores_and_reads", "device_stores_and_reads"}) {
    const std::string out = run_ok("specs_stores", kernel, "--G kron:9 --drop-self-loops", "seen.txt");
    EXPECT_EQ(std::stod(read_text(out)), seen);
  }
}

TEST(Stores, SparseVectorsHoldTheLastStore) {
  const int64_t n = 3000;
  std::map<int64_t, int64_t> want;
  for (int64_t k = 3 * n - 1; k >= 0; --k) want[(k * k + 7) % n] = k;  // squares: some indices never
  const auto v = read_vector<int64_t>(run_ok("specs_stores", "vector_stores", "--n " + std::to_string(n)));
  ASSERT_FALSE(v.is_dense());
  std::map<int64_t, int64_t> got;
  for (size_t p = 0; p < v.indices().size(); ++p) got[v.indices()[p]] = v.values()[p];
  EXPECT_EQ(got, want);
}

}  // namespace
}  // namespace gql::e2e

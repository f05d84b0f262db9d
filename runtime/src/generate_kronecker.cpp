// Graph500 Kronecker generator: each edge descends `scale` levels of the 2x2 initiator
// [[A, B], [C, D]], one uniform draw per level from the edge's own counter; labels are then permuted.
#include <utility>

#include "element_types.hpp"
#include "generator_common.hpp"
#include "gql/generate.hpp"

namespace gql {
namespace {

constexpr double initiator_a = 0.57, initiator_b = 0.19, initiator_c = 0.19;
constexpr uint64_t stream_edges = 1, stream_permutation = 2, stream_weights = 3;

}  // namespace

template <class T>
EdgeList<T> kronecker_edges(const KroneckerOptions& options) {
  const int64_t m = detail::checked_edge_count("kron", options.scale, options.edge_factor);
  detail::check_weight_type<T>("kron", options.weighted);
  const int scale = options.scale;
  const int64_t n = int64_t{1} << scale;

  // A Fisher-Yates shuffle from its own stream: sequential, so identical for any thread count.
  std::vector<index_t> label(static_cast<size_t>(n));
  for (int64_t v = 0; v < n; ++v) label[v] = static_cast<index_t>(v);
  const detail::CounterRng shuffle(options.seed, stream_permutation);
  for (int64_t v = n - 1; v > 0; --v)
    std::swap(label[v], label[shuffle.bits(static_cast<uint64_t>(v)) % static_cast<uint64_t>(v + 1)]);

  EdgeList<T> edges;
  edges.n_rows = edges.n_cols = n;
  edges.rows.resize(static_cast<size_t>(m));
  edges.cols.resize(static_cast<size_t>(m));
  const detail::CounterRng draws(options.seed, stream_edges);
#pragma omp parallel for schedule(static)
  for (int64_t e = 0; e < m; ++e) {
    uint64_t row = 0, col = 0;
    for (int level = 0; level < scale; ++level) {
      const double r = draws.uniform(static_cast<uint64_t>(e) * 32 + static_cast<uint64_t>(level));
      const uint64_t row_bit = r >= initiator_a + initiator_b;
      const uint64_t col_bit = (r >= initiator_a && r < initiator_a + initiator_b) || r >= initiator_a + initiator_b + initiator_c;
      row |= row_bit << level;
      col |= col_bit << level;
    }
    edges.rows[e] = label[row];
    edges.cols[e] = label[col];
  }
  detail::fill_values(edges, detail::CounterRng(options.seed, stream_weights), options.weighted);
  return edges;
}

template <class T>
Csr<T> kronecker(const KroneckerOptions& options, const ReadOptions& read) {
  return build_csr<T>(kronecker_edges<T>(options), read, "kron:" + std::to_string(options.scale));
}

#define GQL_INSTANTIATE(T)                                                  \
  template EdgeList<T> kronecker_edges<T>(const KroneckerOptions&); \
  template Csr<T> kronecker<T>(const KroneckerOptions&, const ReadOptions&);
GQL_FOR_EACH_ELEMENT_TYPE(GQL_INSTANTIATE)
#undef GQL_INSTANTIATE

}  // namespace gql

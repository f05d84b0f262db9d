// Graph500 Kronecker generator: each edge descends `scale` levels of the 2x2 initiator
// [[A, B], [C, D]], one uniform draw per level from the edge's own counter; labels are then permuted.
#include <algorithm>
#include <utility>

#include "element_types.hpp"
#include "generator_common.hpp"
#include "gql/generate.hpp"

namespace gql {
namespace {

constexpr double initiator_a = 0.57, initiator_b = 0.19, initiator_c = 0.19;
constexpr uint64_t stream_edges = 1, stream_permutation = 2, stream_weights = 3;

// A draw r = x * 2^-53 (CounterRng::uniform, x its 53 bits) is at least t exactly when x is at least
// ceil(t * 2^53) (scaling by a power of two is exact): the quadrant is chosen on the integer, without
// a conversion and without branches, and always as the comparisons of r would choose it.
constexpr uint64_t draws_below(double t) {
  const double scaled = t * 0x1.0p53;
  const auto whole = static_cast<uint64_t>(scaled);
  return static_cast<double>(whole) < scaled ? whole + 1 : whole;
}
constexpr uint64_t at_a = draws_below(initiator_a), at_ab = draws_below(initiator_a + initiator_b),
                   at_abc = draws_below(initiator_a + initiator_b + initiator_c);

// The quadrant path of edges begin .. begin + edge_block - 1 (row and column before relabeling), the
// draws of a level made for the whole block at once so that they vectorize; AVX-512 has the 64-bit
// multiplies the mixing needs, so x86-64 builds carry a clone for it, chosen at load time.
constexpr int edge_block = 16;
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("arch=x86-64-v4", "default")))
#endif
void kronecker_block(const detail::CounterRng& draws, int scale, int64_t begin, uint64_t* row, uint64_t* col) {
  uint64_t r[edge_block] = {}, c[edge_block] = {};
  for (int level = 0; level < scale; ++level)
    for (int j = 0; j < edge_block; ++j) {
      const uint64_t x = draws.uniform_bits(static_cast<uint64_t>(begin + j) * 32 + static_cast<uint64_t>(level));
      r[j] |= static_cast<uint64_t>(x >= at_ab) << level;
      c[j] |= ((static_cast<uint64_t>(x >= at_a) & static_cast<uint64_t>(x < at_ab)) | static_cast<uint64_t>(x >= at_abc))
              << level;
    }
  for (int j = 0; j < edge_block; ++j) {
    row[j] = r[j];
    col[j] = c[j];
  }
}

}  // namespace

template <class T>
EdgeList<T> kronecker_edges(const KroneckerOptions& options) {
  const int64_t m = detail::checked_edge_count("kron", options.scale, options.edge_factor);
  detail::check_weight_type<T>("kron", options.weighted);
  const int scale = options.scale;
  const int64_t n = int64_t{1} << scale;

  // A Fisher-Yates shuffle from its own stream: sequential, so identical for any thread count.
  // Its draws are independent of each other, so they are made in parallel first.
  Array<index_t> label(static_cast<size_t>(n)), partner(static_cast<size_t>(n));  // both written below
  const detail::CounterRng shuffle(options.seed, stream_permutation);
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < n; ++v) {
    label[v] = static_cast<index_t>(v);
    partner[v] = static_cast<index_t>(shuffle.bits(static_cast<uint64_t>(v)) % static_cast<uint64_t>(v + 1));
  }
  for (int64_t v = n - 1; v > 0; --v) std::swap(label[v], label[partner[v]]);
  partner = {};

  EdgeList<T> edges;
  edges.n_rows = edges.n_cols = n;
  edges.rows.resize(static_cast<size_t>(m));
  edges.cols.resize(static_cast<size_t>(m));
  const detail::CounterRng draws(options.seed, stream_edges);
#pragma omp parallel for schedule(static)
  for (int64_t b = 0; b < m; b += edge_block) {
    const int count = static_cast<int>(std::min<int64_t>(edge_block, m - b));
    uint64_t row[edge_block], col[edge_block];
    kronecker_block(draws, scale, b, row, col);
    for (int j = 0; j < count; ++j) {
      edges.rows[b + j] = label[row[j]];
      edges.cols[b + j] = label[col[j]];
    }
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

// GAP's uniform random graph: both endpoints of every edge uniform over the 2^scale vertices.
#include "element_types.hpp"
#include "generator_common.hpp"
#include "gql/generate.hpp"

namespace gql {
namespace {

constexpr uint64_t stream_edges = 11, stream_weights = 13;

}  // namespace

template <class T>
EdgeList<T> urand_edges(const UniformOptions& options) {
  const int64_t m = detail::checked_edge_count("urand", options.scale, options.edge_factor);
  detail::check_weight_type<T>("urand", options.weighted);
  const uint64_t mask = (uint64_t{1} << options.scale) - 1;  // n is a power of two: masking is unbiased
  EdgeList<T> edges;
  edges.n_rows = edges.n_cols = int64_t{1} << options.scale;
  edges.rows.resize(static_cast<size_t>(m));
  edges.cols.resize(static_cast<size_t>(m));
  const detail::CounterRng draws(options.seed, stream_edges);
#pragma omp parallel for schedule(static)
  for (int64_t e = 0; e < m; ++e) {
    const uint64_t bits = draws.bits(static_cast<uint64_t>(e));
    edges.rows[e] = static_cast<index_t>(bits & mask);
    edges.cols[e] = static_cast<index_t>((bits >> 32) & mask);
  }
  detail::fill_values(edges, detail::CounterRng(options.seed, stream_weights), options.weighted);
  return edges;
}

template <class T>
Csr<T> urand(const UniformOptions& options, const ReadOptions& read) {
  return build_csr<T>(urand_edges<T>(options), read, "urand:" + std::to_string(options.scale));
}

#define GQL_INSTANTIATE(T)                                           \
  template EdgeList<T> urand_edges<T>(const UniformOptions&); \
  template Csr<T> urand<T>(const UniformOptions&, const ReadOptions&);
GQL_FOR_EACH_ELEMENT_TYPE(GQL_INSTANTIATE)
#undef GQL_INSTANTIATE

}  // namespace gql

// Checks and value filling shared by the random generators.
#pragma once

#include <limits>
#include <string>

#include "counter_rng.hpp"
#include "gql/edge_list.hpp"
#include "gql/error.hpp"

namespace gql::detail {

inline constexpr int max_generator_scale = 30;

inline int64_t checked_edge_count(const char* name, int scale, int64_t edge_factor) {
  if (scale < 0 || scale > max_generator_scale)
    throw Error(ErrorKind::usage, std::string(name) + ": scale must be in 0..30, not " + std::to_string(scale));
  if (edge_factor < 0 || edge_factor > (int64_t{1} << 20))
    throw Error(ErrorKind::usage, std::string(name) + ": edge factor must be in 0..2^20");
  return edge_factor << scale;
}

template <class T>
void check_weight_type(const char* name, bool weighted) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    if (weighted && std::numeric_limits<T>::max() < 255)
      throw Error(ErrorKind::usage, std::string(name) + ": weights in [1, 255] do not fit the element type");
  }
}

// Values of edge e: a weight from the weight stream, or 1.
template <class T>
void fill_values(EdgeList<T>& edges, const CounterRng& weights, bool weighted) {
  if constexpr (stores_values<T>) {
    const int64_t m = static_cast<int64_t>(edges.rows.size());
    edges.values.resize(static_cast<size_t>(m));
#pragma omp parallel for schedule(static)
    for (int64_t e = 0; e < m; ++e)
      edges.values[e] = weighted ? static_cast<T>(weights.weight(static_cast<uint64_t>(e))) : T{1};
  }
}

}  // namespace gql::detail

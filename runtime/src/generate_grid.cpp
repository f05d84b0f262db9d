// A 2-D grid: each vertex r * cols + c joined to its right and lower neighbours, in both directions.
#include "element_types.hpp"
#include "generator_common.hpp"
#include "gql/generate.hpp"

namespace gql {

template <class T>
EdgeList<T> grid_edges(int64_t rows, int64_t cols) {
  if (rows < 1 || cols < 1 || rows > max_vertex_count / cols)
    throw Error(ErrorKind::usage, "grid: rows and columns must be positive and rows * columns at most 2^31-1");
  EdgeList<T> edges;
  edges.n_rows = edges.n_cols = rows * cols;
  const size_t m = static_cast<size_t>(2 * (rows * (cols - 1) + (rows - 1) * cols));
  edges.rows.reserve(m);
  edges.cols.reserve(m);
  const auto join = [&](int64_t a, int64_t b) {
    edges.rows.push_back(static_cast<index_t>(a));
    edges.cols.push_back(static_cast<index_t>(b));
    edges.rows.push_back(static_cast<index_t>(b));
    edges.cols.push_back(static_cast<index_t>(a));
  };
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      const int64_t v = r * cols + c;
      if (c + 1 < cols) join(v, v + 1);
      if (r + 1 < rows) join(v, v + cols);
    }
  }
  detail::fill_values(edges, detail::CounterRng(0, 0), false);
  return edges;
}

template <class T>
Csr<T> grid(int64_t rows, int64_t cols, const ReadOptions& read) {
  return build_csr<T>(grid_edges<T>(rows, cols), read, "grid:" + std::to_string(rows) + "x" + std::to_string(cols));
}

#define GQL_INSTANTIATE(T)                                \
  template EdgeList<T> grid_edges<T>(int64_t, int64_t); \
  template Csr<T> grid<T>(int64_t, int64_t, const ReadOptions&);
GQL_FOR_EACH_ELEMENT_TYPE(GQL_INSTANTIATE)
#undef GQL_INSTANTIATE

}  // namespace gql

// The CSR of a graph without values whose repeated entries need no file order (every duplicates
// policy but error): its entries are a set, so it is built from the endpoints alone, in any order.
#pragma once

#include <cstdint>

#include "gql/array.hpp"
#include "gql/graph.hpp"

namespace gql::detail {

struct PatternCsr {
  Array<offset_t> row_offsets;
  Array<index_t> col_indices;  // each row's columns sorted, each once
};

// The entries (rows[e], cols[e]), self-loops dropped if asked, with their mirrors (c, r) when
// symmetrizing (square only). Takes the endpoint arrays to free them once they are read.
PatternCsr build_pattern(int64_t n_rows, int64_t n_cols, Array<index_t>&& rows, Array<index_t>&& cols, bool drop_loops,
                         bool symmetrize);

}  // namespace gql::detail

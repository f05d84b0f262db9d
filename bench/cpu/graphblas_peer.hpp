// SuiteSparse:GraphBLAS as the benchmarks' peer: building its matrices from our CSR graphs.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

extern "C" {
#include <GraphBLAS.h>
}

#include "gql/graph.hpp"

namespace gql::bench {

inline void grb_check(GrB_Info info, const char* what) {
  if (info != GrB_SUCCESS && info != GrB_NO_VALUE)
    throw std::runtime_error(std::string("GraphBLAS: ") + what + " failed (" + std::to_string(info) + ")");
}

// A boolean GraphBLAS matrix with the structure of g (all values true).
inline GrB_Matrix to_graphblas(const Csr<bool>& g) {
  const auto nv = static_cast<size_t>(g.nvals());
  std::vector<GrB_Index> rows(nv), cols(nv);
  for (int64_t i = 0; i < g.n_rows(); ++i)
    for (offset_t p = g.row_offsets()[static_cast<size_t>(i)]; p < g.row_offsets()[static_cast<size_t>(i) + 1]; ++p) {
      rows[static_cast<size_t>(p)] = static_cast<GrB_Index>(i);
      cols[static_cast<size_t>(p)] = static_cast<GrB_Index>(g.col_indices()[static_cast<size_t>(p)]);
    }
  std::unique_ptr<bool[]> ones(new bool[nv == 0 ? 1 : nv]);
  std::fill_n(ones.get(), nv, true);
  GrB_Matrix m = nullptr;
  grb_check(GrB_Matrix_new(&m, GrB_BOOL, static_cast<GrB_Index>(g.n_rows()), static_cast<GrB_Index>(g.n_cols())),
            "GrB_Matrix_new");
  grb_check(GrB_Matrix_build_BOOL(m, rows.data(), cols.data(), ones.get(), nv, GrB_LOR), "GrB_Matrix_build");
  grb_check(GrB_Matrix_wait(m, GrB_MATERIALIZE), "GrB_Matrix_wait");
  return m;
}

}  // namespace gql::bench

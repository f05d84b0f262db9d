// SuiteSparse:GraphBLAS as the benchmarks' peer: its matrices built from our CSR graphs, its results
// read back into checksums comparable with ours.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

extern "C" {
#include <GraphBLAS.h>
}

#include "checksum.hpp"
#include "gql/graph.hpp"

namespace gql::bench {

inline void grb_check(GrB_Info info, const char* what) {
  if (info != GrB_SUCCESS && info != GrB_NO_VALUE)
    throw std::runtime_error(std::string("GraphBLAS: ") + what + " failed (" + std::to_string(info) + ")");
}

// GraphBLAS's built-in type for T.
template <class T>
GrB_Type grb_type() {
  if constexpr (std::is_same_v<T, bool>) return GrB_BOOL;
  else if constexpr (std::is_same_v<T, float>) return GrB_FP32;
  else if constexpr (std::is_same_v<T, double>) return GrB_FP64;
  else if constexpr (std::is_same_v<T, uint64_t>) return GrB_UINT64;
  else static_assert(sizeof(T) == 0, "grb_type: no GraphBLAS type for T");
}

// Our CSR arrays, copied into a new GrB_Matrix of the same type and entries.
template <class T>
GrB_Matrix to_graphblas(const Csr<T>& g) {
  const auto nv = static_cast<size_t>(g.nvals());
  std::vector<GrB_Index> rows(nv), cols(nv);
  std::unique_ptr<T[]> values(new T[nv == 0 ? 1 : nv]);
  for (int64_t i = 0; i < g.n_rows(); ++i)
    for (offset_t p = g.row_offsets()[static_cast<size_t>(i)]; p < g.row_offsets()[static_cast<size_t>(i) + 1]; ++p) {
      rows[static_cast<size_t>(p)] = static_cast<GrB_Index>(i);
      cols[static_cast<size_t>(p)] = static_cast<GrB_Index>(g.col_indices()[static_cast<size_t>(p)]);
      if constexpr (std::is_same_v<T, bool>) values[static_cast<size_t>(p)] = true;  // a pattern graph
      else values[static_cast<size_t>(p)] = g.value_at(p);
    }
  GrB_Matrix m = nullptr;
  grb_check(GrB_Matrix_new(&m, grb_type<T>(), static_cast<GrB_Index>(g.n_rows()), static_cast<GrB_Index>(g.n_cols())),
            "GrB_Matrix_new");
  GrB_Info info;
  if constexpr (std::is_same_v<T, bool>) info = GrB_Matrix_build_BOOL(m, rows.data(), cols.data(), values.get(), nv, GrB_LOR);
  else if constexpr (std::is_same_v<T, float>) info = GrB_Matrix_build_FP32(m, rows.data(), cols.data(), values.get(), nv, GrB_MIN_FP32);
  else if constexpr (std::is_same_v<T, double>) info = GrB_Matrix_build_FP64(m, rows.data(), cols.data(), values.get(), nv, GrB_MIN_FP64);
  else info = GrB_Matrix_build_UINT64(m, rows.data(), cols.data(), values.get(), nv, GrB_PLUS_UINT64);
  grb_check(info, "GrB_Matrix_build");
  grb_check(GrB_Matrix_wait(m, GrB_MATERIALIZE), "GrB_Matrix_wait");
  return m;
}

// The checksum of a GraphBLAS matrix's entries read as T.
template <class T>
Checksum graphblas_checksum(GrB_Matrix m) {
  GrB_Index nvals = 0;
  grb_check(GrB_Matrix_nvals(&nvals, m), "GrB_Matrix_nvals");
  std::vector<GrB_Index> I(nvals), J(nvals);
  std::unique_ptr<T[]> X(new T[nvals == 0 ? 1 : nvals]);
  GrB_Index got = nvals;
  GrB_Info info;
  if constexpr (std::is_same_v<T, bool>) info = GrB_Matrix_extractTuples_BOOL(I.data(), J.data(), X.get(), &got, m);
  else if constexpr (std::is_same_v<T, float>) info = GrB_Matrix_extractTuples_FP32(I.data(), J.data(), X.get(), &got, m);
  else if constexpr (std::is_same_v<T, double>) info = GrB_Matrix_extractTuples_FP64(I.data(), J.data(), X.get(), &got, m);
  else info = GrB_Matrix_extractTuples_UINT64(I.data(), J.data(), X.get(), &got, m);
  grb_check(info, "GrB_Matrix_extractTuples");
  Checksum sum;
  for (GrB_Index p = 0; p < got; ++p) sum.add(I[p], J[p], X[p]);
  return sum;
}

// The checksum of one of our CSR results.
template <class T>
Checksum csr_checksum(const Csr<T>& c) {
  Checksum sum;
  for (int64_t i = 0; i < c.n_rows(); ++i)
    for (offset_t p = c.row_offsets()[static_cast<size_t>(i)]; p < c.row_offsets()[static_cast<size_t>(i) + 1]; ++p)
      sum.add(static_cast<uint64_t>(i), static_cast<uint64_t>(c.col_indices()[static_cast<size_t>(p)]), c.value_at(p));
  return sum;
}

// GraphBLAS set up for a run: its threads matched to ours; finalized when the run ends.
class GraphblasSession {
 public:
  explicit GraphblasSession(int threads) {
    grb_check(GrB_init(GrB_NONBLOCKING), "GrB_init");
    grb_check(GxB_Global_Option_set_INT32(GxB_GLOBAL_NTHREADS, threads), "GxB_set(NTHREADS)");
  }
  ~GraphblasSession() { GrB_finalize(); }
  GraphblasSession(const GraphblasSession&) = delete;
  GraphblasSession& operator=(const GraphblasSession&) = delete;
};

}  // namespace gql::bench

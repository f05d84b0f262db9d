// C<M, replace> = Z: writing a computed result into an existing output through a structural mask,
// as GraphBLAS (C API 2.x) defines it without an accumulator. Where the mask allows (i, j), C(i, j)
// becomes Z(i, j) (absent if Z has no entry there); elsewhere C keeps its entry, or loses it when
// `replace` is set. Kept apart from the products so generated code can compose any op with it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gql/common/shape_checks.hpp"
#include "gql/cpu/mask.hpp"
#include "gql/error.hpp"
#include "gql/graph.hpp"
#include "gql/cpu/parallel.hpp"

namespace gql::cpu {

namespace detail {

// Walks the union of row i of C and of Z in column order and calls
// emit(j, from_z, p) for each entry the masked assignment keeps (p indexes Z or C).
template <class T, class Emit>
inline void masked_assign_row(const Csr<T>& C, const Csr<T>& Z, const MatrixMask& mask, bool replace,
                              int64_t i, Emit&& emit) {
  const auto cc = C.col_indices();
  const auto zc = Z.col_indices();
  offset_t pc = C.row_offsets()[static_cast<size_t>(i)], pc_end = C.row_offsets()[static_cast<size_t>(i) + 1];
  offset_t pz = Z.row_offsets()[static_cast<size_t>(i)], pz_end = Z.row_offsets()[static_cast<size_t>(i) + 1];
  const auto mrow = mask.row(i);
  size_t pm = 0;
  // Mask membership by a forward walk (columns come in increasing order).
  const auto allowed = [&](index_t j) {
    while (pm < mrow.size() && mrow[pm] < j) ++pm;
    const bool present = pm < mrow.size() && mrow[pm] == j;
    return present != mask.complement;
  };
  while (pc < pc_end || pz < pz_end) {
    const index_t jc = pc < pc_end ? cc[static_cast<size_t>(pc)] : std::numeric_limits<index_t>::max();
    const index_t jz = pz < pz_end ? zc[static_cast<size_t>(pz)] : std::numeric_limits<index_t>::max();
    const index_t j = std::min(jc, jz);
    if (allowed(j)) {
      if (jz == j) emit(j, true, pz);
    } else if (!replace && jc == j) {
      emit(j, false, pc);
    }
    if (jc == j) ++pc;
    if (jz == j) ++pz;
  }
}

}  // namespace detail

// Returns the new value of C after C<mask, replace> = Z (C and Z of one shape, as is the mask).
template <class T>
Csr<T> masked_assign(const Csr<T>& C, const Csr<T>& Z, const MatrixMask& mask, bool replace) {
  if (C.n_rows() != Z.n_rows() || C.n_cols() != Z.n_cols())
    throw Error(ErrorKind::usage, "assign: the result's shape differs from the output's");
  check_mask_shape(mask, C.n_rows(), C.n_cols(), "assign");
  if (mask.mode() == MaskMode::none) return Z.clone();  // everything allowed: C becomes Z
  const int64_t n = C.n_rows();
  Array<offset_t> offsets(static_cast<size_t>(n) + 1, 0);
#pragma omp parallel for schedule(dynamic, 256) if (worth_threads(n + C.nvals() + Z.nvals()))
  for (int64_t i = 0; i < n; ++i) {
    offset_t count = 0;
    detail::masked_assign_row(C, Z, mask, replace, i, [&](index_t, bool, offset_t) { ++count; });
    offsets[static_cast<size_t>(i) + 1] = count;
  }
  for (int64_t i = 0; i < n; ++i) offsets[static_cast<size_t>(i) + 1] += offsets[static_cast<size_t>(i)];
  Array<index_t> cols(static_cast<size_t>(offsets.back()));  // every counted entry written below
  Array<storage_t<T>> values(stores_values<T> ? cols.size() : 0);
  const auto c_values = C.values();
  const auto z_values = Z.values();
#pragma omp parallel for schedule(dynamic, 256) if (worth_threads(n + C.nvals() + Z.nvals()))
  for (int64_t i = 0; i < n; ++i) {
    auto q = static_cast<size_t>(offsets[static_cast<size_t>(i)]);
    detail::masked_assign_row(C, Z, mask, replace, i, [&](index_t j, bool from_z, offset_t p) {
      cols[q] = j;
      if constexpr (stores_values<T>) values[q] = (from_z ? z_values : c_values)[static_cast<size_t>(p)];
      ++q;
    });
  }
  return Csr<T>(C.n_rows(), C.n_cols(), std::move(offsets), std::move(cols), std::move(values));
}

using common::check_assignment_shape;  // gql/common/shape_checks.hpp: the GPU ops check alike

// C<mask, replace> = Z for a freshly computed Z. Without a mask, C simply becomes Z (the language's
// plain assignment); through a mask, GraphBLAS's rules apply and the shapes must agree.
// `within_mask`: Z has no entry the mask denies (it was computed through the mask).
template <class TC, class TZ>
void assign_result(Csr<TC>& C, Csr<TZ>&& Z, const MatrixMask& m, bool replace, bool within_mask) {
  if (m.mode() == MaskMode::none) {
    if constexpr (std::is_same_v<TC, TZ>) C = std::move(Z);
    else C = convert<TC>(Z);
    return;
  }
  check_assignment_shape(C.n_rows(), C.n_cols(), Z.n_rows(), Z.n_cols());
  if constexpr (std::is_same_v<TC, TZ>) {
    // When Z lies within the mask and C holds nothing, there is nothing to merge.
    C = within_mask && C.nvals() == 0 ? std::move(Z) : masked_assign(C, Z, m, replace);
  } else {
    C = masked_assign(C, convert<TC>(Z), m, replace);
  }
}

}  // namespace gql::cpu

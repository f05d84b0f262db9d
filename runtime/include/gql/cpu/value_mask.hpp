// Value masks as GraphBLAS (C API 2.x) defines them (a mask without GrB_STRUCTURE): a position is
// selected when the mask has an entry there whose value, converted to bool as the language converts
// (`!= 0`: 0, false, 0.0 and -0.0 select nothing, NaN selects), is true; complemented, every other
// position. A value mask is therefore the structural mask of the mask's true entries, and every
// kernel reads it through the same views (gql/cpu/mask.hpp). `C<value(M)>` in a spec.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "gql/cpu/elementwise.hpp"
#include "gql/cpu/mask.hpp"
#include "gql/graph.hpp"

namespace gql::cpu {

template <class M>
bool mask_value_selects(const storage_t<M>& v) noexcept {
  return convert_element<bool>(v);
}

// A graph's value mask. A pattern graph (graph<bool>) holds only true entries, and a graph whose
// values are all true selects its structure: both are viewed in place; otherwise the true entries
// are gathered into a pattern graph the mask keeps.
template <class M>
MatrixMask value_mask(const Csr<M>& mask, bool complement) {
  if constexpr (stores_values<M>) {
    const auto values = mask.values();
    if (!std::all_of(values.begin(), values.end(), mask_value_selects<M>)) {
      auto kept = std::make_shared<const Csr<bool>>(apply<bool>(mask, [](M v) { return v; }));
      MatrixMask m = structural_mask(*kept, complement);
      m.kept = std::move(kept);
      return m;
    }
  }
  return structural_mask(mask, complement);
}

// A vector's value mask: one byte per index, set where the vector has a true entry.
template <class M>
VectorMask value_mask(const Vector<M>& mask, bool complement) {
  std::vector<uint8_t> present(static_cast<size_t>(mask.size()), 0);
  const auto values = mask.values();
  const auto indices = mask.indices();
  for (size_t p = 0; p < values.size(); ++p) {
    const size_t j = mask.is_dense() ? p : static_cast<size_t>(indices[p]);
    present[j] = mask_value_selects<M>(values[p]) ? 1 : 0;
  }
  return VectorMask(std::move(present), complement);
}

}  // namespace gql::cpu

// Structural masks as GraphBLAS (C API 2.x) defines them: an entry of the mask counts by its
// presence, whatever its value; a complemented mask lets through exactly what the mask does not.
// Kernels read a mask through these views, so one kernel serves masks of every element type. A value
// mask (gql/cpu/value_mask.hpp) is the structural mask of the entries whose value is true.
// Target-neutral: the OpenMP ops (gql::cpu, gql/cpu/mask.hpp) and the GPU ops (gql::gpu) both read
// these views.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gql/error.hpp"
#include "gql/graph.hpp"

namespace gql::common {

// How a kernel treats a row of the mask; chosen once per call so the inner loops stay branch-free.
enum class MaskMode {
  none,   // no mask: every position is allowed
  allow,  // plain mask: only positions present in the mask
  deny,   // complemented mask: only positions absent from the mask
};

// The structure of a sparse matrix used as a mask (values are never read).
struct MatrixMask {
  std::span<const offset_t> row_offsets;  // empty when there is no mask
  std::span<const index_t> col_indices;
  int64_t n_rows = 0;
  int64_t n_cols = 0;
  bool complement = false;
  std::shared_ptr<const Csr<bool>> kept;  // the structure the spans view when the mask made it (value masks)

  MaskMode mode() const noexcept {
    if (row_offsets.empty()) return MaskMode::none;
    return complement ? MaskMode::deny : MaskMode::allow;
  }
  std::span<const index_t> row(int64_t i) const noexcept {
    const auto b = row_offsets[static_cast<size_t>(i)], e = row_offsets[static_cast<size_t>(i) + 1];
    return col_indices.subspan(static_cast<size_t>(b), static_cast<size_t>(e - b));
  }
  // Whether (i, j) is allowed; a binary search in the mask's row (used off the hot paths).
  bool allows(int64_t i, index_t j) const noexcept {
    if (row_offsets.empty()) return true;
    const auto r = row(i);
    const bool present = std::binary_search(r.begin(), r.end(), j);
    return present != complement;
  }
};

inline MatrixMask no_matrix_mask() noexcept { return {}; }

// "No mask" as generated code passes it: every position is allowed.
struct NoMask {};
inline NoMask no_mask() noexcept { return {}; }

template <class M>
MatrixMask structural_mask(const Csr<M>& mask, bool complement = false) {
  return {mask.row_offsets(), mask.col_indices(), mask.n_rows(), mask.n_cols(), complement, nullptr};
}

// Checks that a mask has the shape of the output it guards.
inline void check_mask_shape(const MatrixMask& mask, int64_t n_rows, int64_t n_cols, const char* op) {
  if (mask.mode() == MaskMode::none) return;
  if (mask.n_rows != n_rows || mask.n_cols != n_cols)
    throw Error(ErrorKind::usage, std::string(op) + ": mask is " + std::to_string(mask.n_rows) + " x " +
                                      std::to_string(mask.n_cols) + ", output is " + std::to_string(n_rows) +
                                      " x " + std::to_string(n_cols));
}

// The structure of a vector used as a mask: a dense vector has every entry present; a sparse one
// has its stored indices. Lookups go through a byte map built once (vectors are n entries at most).
class VectorMask {
 public:
  VectorMask() = default;
  template <class M>
  explicit VectorMask(const Vector<M>& mask, bool complement = false)
      : size_(mask.size()), complement_(complement), present_(static_cast<size_t>(mask.size()), 0) {
    if (mask.is_dense()) {
      std::fill(present_.begin(), present_.end(), uint8_t{1});
    } else {
      for (index_t j : mask.indices()) present_[static_cast<size_t>(j)] = 1;
    }
  }
  // A mask over `present` (one byte per index, nonzero where the mask has an entry that counts).
  VectorMask(std::vector<uint8_t> present, bool complement)
      : size_(static_cast<int64_t>(present.size())), complement_(complement), present_(std::move(present)) {}

  bool active() const noexcept { return size_ >= 0; }
  int64_t size() const noexcept { return size_; }
  bool complement() const noexcept { return complement_; }
  bool allows(int64_t j) const noexcept {
    return size_ < 0 || (present_[static_cast<size_t>(j)] != 0) != complement_;
  }

 private:
  int64_t size_ = -1;  // -1: no mask
  bool complement_ = false;
  std::vector<uint8_t> present_;
};

inline void check_mask_size(const VectorMask& mask, int64_t size, const char* op) {
  if (mask.active() && mask.size() != size)
    throw Error(ErrorKind::usage, std::string(op) + ": mask has " + std::to_string(mask.size()) +
                                      " entries, output has " + std::to_string(size));
}

}  // namespace gql::common

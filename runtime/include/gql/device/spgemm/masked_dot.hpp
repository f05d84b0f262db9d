// C<M> = A * B by the mask's entries on the GPU (GraphBLAS's dot3), and the choice between it and
// the row-by-row product: the CPU's rule (gql/cpu/spgemm_dot.hpp) with the GPU's cost of a join step,
// its estimates made on the device from the operands' degrees. B's transpose is made on the device once per B value
// (gql/device/device_transpose.hpp); the mask's entries are joined by the semiring's kernel
// (gql/device/spgemm/spgemm_dot.cuh) and the entries that found a k compacted into C, rows in order.
// The structural pieces are held by the runtime library (runtime/src/cuda/masked_dot.cu); the
// driver is host code that launches through the product's kernel table.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "gql/common/masked_method.hpp"
#include "gql/device.hpp"
#include "gql/device/device_transpose.hpp"
#include "gql/device/spgemm/spgemm_kernel_table.hpp"

namespace gql::gpu {

using common::MaskedMethod;

namespace detail {
// The products of A's rows (row_products) whose mask row holds an entry.
int64_t masked_row_products(const offset_t* a_offsets, const index_t* a_columns, int64_t n_rows,
                            const offset_t* b_offsets, const offset_t* mask_offsets, const Stream& stream);
// The join steps of the mask's entries (i, j): the shorter of A's row i and Bt's row j, times a search
// of the longer (as the kernel joins them).
int64_t masked_join_steps(const offset_t* a_offsets, int64_t n_rows, const offset_t* bt_offsets,
                          const offset_t* mask_offsets, const index_t* mask_columns, int64_t entries,
                          const Stream& stream);
// Positions of the found entries among them (entries + 1: the last is their count); returns the count.
int64_t found_positions(const unsigned char* found, int64_t entries, offset_t* positions, const Stream& stream);
// C's row offsets, columns and values (elements of `value_bytes`) from the found entries.
void compact_found(const offset_t* mask_offsets, const index_t* mask_columns, int64_t n_rows, int64_t entries,
                   const unsigned char* found, const offset_t* positions, const void* values, size_t value_bytes,
                   offset_t* c_offsets, index_t* c_columns, void* c_values, const Stream& stream);
}  // namespace detail

// A join step (a probe of a binary search) costs the GPU about a tenth of a row product: the longer
// row is read by all the warp's lanes and stays in cache, while a product is an atomic update of an
// accumulator. Measured on the H200 (kron:20's triangle count, 2026-12-04): 35.6 G join steps in
// under 0.13 s, 21.3 G row products in 1.55 s. The choice counts join steps at this discount.
constexpr int64_t join_steps_per_product = 8;

// What the choice saw, for --explain.
struct MaskedDotChoice {
  MaskedMethod method = MaskedMethod::saxpy;
  std::string reason;
  int64_t saxpy_products = -1;
  int64_t dot_steps = -1;
};

// C<M> = A * B over the kernels' semiring for a plain structural mask M (its structure on the device,
// `entries` of them), by the mask's entries when `forced` says so or, under `automatic`, when their
// join steps (at join_steps_per_product, with B's transpose to make unless B is symmetric) take less
// work than the products of the rows M keeps. Returns no product when the rows' method is chosen.
template <class AT, class BT, class V>
std::optional<DeviceCsr<V>> masked_by_dot(const DeviceCsr<AT>& A, const DeviceCsr<BT>& B, const offset_t* mask_offsets,
                                          const index_t* mask_columns, int64_t entries, MaskedMethod forced,
                                          const SpgemmKernelTable<AT, BT, V>& kernels, const Stream& stream,
                                          MaskedDotChoice& choice) {
  const int64_t n = A.n_rows();
  if (forced != MaskedMethod::automatic) {
    choice.method = forced;
    choice.reason = "by the schedule";
  } else {
    choice.saxpy_products = detail::masked_row_products(A.row_offsets().data(), A.col_indices().data(), n,
                                                        B.row_offsets().data(), mask_offsets, stream);
    if (entries >= choice.saxpy_products) {
      choice.reason = "the mask has as many entries as the rows have products";
      return std::nullopt;
    }
    // The transpose's degrees, counted apart when it would have to be made (cheap next to making it).
    const bool have_transpose = B.derived().symmetric();
    std::optional<DeviceBuffer<offset_t>> counted;
    const offset_t* bt_offsets = B.row_offsets().data();
    if (!have_transpose) {
      counted.emplace(detail::column_offsets(B.col_indices().data(), B.nvals(), B.n_cols(), stream));
      bt_offsets = counted->data();
    }
    choice.dot_steps =
        detail::masked_join_steps(A.row_offsets().data(), n, bt_offsets, mask_offsets, mask_columns, entries, stream);
    const int64_t transpose_steps = have_transpose ? 0 : B.nvals();
    if (choice.dot_steps / join_steps_per_product + transpose_steps < choice.saxpy_products) {
      choice.method = MaskedMethod::dot;
      choice.reason = "the mask's join steps (" + std::to_string(join_steps_per_product) +
                      " to a row product's work) take less work than the rows' products";
    } else {
      choice.reason = "the rows' products take less work than the mask's join steps (" +
                      std::to_string(join_steps_per_product) + " to a row product's work)";
    }
  }
  if (choice.method != MaskedMethod::dot) return std::nullopt;
  const DeviceCsr<BT>& Bt = transpose_of(B, stream);
  const auto slots = static_cast<size_t>(std::max<int64_t>(entries, 1));
  StreamBuffer<V> values(slots, stream);
  StreamBuffer<unsigned char> found(slots, stream);
  constexpr int threads = SpgemmShapes::dot_threads;
  const long long blocks = std::min<long long>((entries + threads / 32 - 1) / (threads / 32), 1ll << 20);
  launch(kernels.dot_entries, static_cast<unsigned long long>(blocks), threads, 0, stream, A.view(), Bt.view(),
         mask_offsets, mask_columns, n, entries, values.data(), found.data());
  StreamBuffer<offset_t> positions(static_cast<size_t>(entries) + 1, stream);
  const int64_t nvals = detail::found_positions(found.data(), entries, positions.data(), stream);
  DeviceCsr<V> C(n, B.n_cols(), nvals);
  detail::compact_found(mask_offsets, mask_columns, n, entries, found.data(), positions.data(), values.data(),
                        sizeof(V), C.row_offsets().data(), C.col_indices().data(), C.values().data(), stream);
  stream.synchronize();  // the scratch above is freed in the stream's order; C is read on other streams next
  return C;
}

}  // namespace gql::gpu

// Host containers: sparse graphs in CSR, dense row-major matrices, and vectors (dense or sparse).
// All are move-only (copies are explicit through clone()) and check their invariants in validate().
// Device variants live in gql/device.hpp.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gql/array.hpp"
#include "gql/derived.hpp"
#include "gql/error.hpp"
#include "gql/host_memory.hpp"
#include "gql/integer_ops.hpp"

namespace gql {

using offset_t = int64_t;  // row offsets: 64-bit, graphs may hold more than 2^31 entries
using index_t = int32_t;   // column indices and vertex ids: 32-bit, checked on load

inline constexpr int64_t max_vertices = int64_t{1} << 31;  // 2^31 - 1 ids fit index_t

// A pattern graph (T = bool) stores no value array: every stored entry is `true`.
template <class T>
inline constexpr bool stores_values = !std::is_same_v<T, bool>;

// A container's dimension, checked: rows, columns and lengths lie in 0 .. max_vertices, so every
// id fits index_t and a dense size (rows * cols) fits int64_t. Error(usage) otherwise.
inline int64_t checked_dimension(int64_t n, const char* what) {
  if (n < 0 || n > max_vertices)
    throw Error(ErrorKind::usage, std::string(what) + " " + std::to_string(n) + " is outside 0 .. 2^31");
  return n;
}

// `count`, the elements of a container's storage of `element_bytes` each, once checked against the
// memory available (a kernel's arguments may ask for a 2^31 x 2^31 matrix): Error(oom) naming what
// `describe()` says otherwise.
template <class Describe>
size_t checked_storage(uint64_t count, size_t element_bytes, Describe describe) {
  const size_t bytes = bytes_for(count, element_bytes);
  if (bytes >= unchecked_allocation_bytes) check_host_allocation(bytes, describe());
  return static_cast<size_t>(count);
}

// Dense storage of an element: std::vector<bool> is bit-packed and has no data(), so booleans in
// dense matrices and vectors are stored as bytes (0 or 1).
template <class T>
using storage_t = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;

namespace detail {
// Stores `value` at `key` in the sorted run [begin, end) of `keys` (values parallel to keys; none for a
// pattern): overwritten when present, else inserted in order, moving the later entries once.
template <class V>
void store_sorted(Array<index_t>& keys, Array<V>* values, size_t begin, size_t end, index_t key, V value) {
  const auto at = std::lower_bound(keys.begin() + static_cast<std::ptrdiff_t>(begin),
                                   keys.begin() + static_cast<std::ptrdiff_t>(end), key);
  const auto p = at - keys.begin();
  if (at != keys.begin() + static_cast<std::ptrdiff_t>(end) && *at == key) {
    if (values) (*values)[static_cast<size_t>(p)] = value;
    return;
  }
  keys.insert(at, key);
  if (values) values->insert(values->begin() + p, value);
}
}  // namespace detail

template <class T>
class Csr {
 public:
  using value_type = T;

  Csr() : row_offsets_(1, 0) {}
  // An empty graph of the given shape (no entries).
  Csr(int64_t n_rows, int64_t n_cols)
      : n_rows_(checked_dimension(n_rows, "a graph's number of rows")),
        n_cols_(checked_dimension(n_cols, "a graph's number of columns")),
        row_offsets_(checked_storage(static_cast<uint64_t>(n_rows_) + 1, sizeof(offset_t),
                                     [&] { return "a graph of " + std::to_string(n_rows_) + " rows"; }),
                     0) {}
  // Takes ownership of the three arrays; for T = bool `values` must be empty.
  Csr(int64_t n_rows, int64_t n_cols, Array<offset_t> row_offsets,
      Array<index_t> col_indices, Array<storage_t<T>> values = {})
      : n_rows_(checked_dimension(n_rows, "a graph's number of rows")),
        n_cols_(checked_dimension(n_cols, "a graph's number of columns")),
        row_offsets_(std::move(row_offsets)),
        col_indices_(std::move(col_indices)),
        values_(std::move(values)) {}

  Csr(Csr&&) noexcept = default;
  Csr& operator=(Csr&&) noexcept = default;
  Csr(const Csr&) = delete;
  Csr& operator=(const Csr&) = delete;

  Csr clone() const { return Csr(n_rows_, n_cols_, row_offsets_, col_indices_, values_); }

  int64_t n_rows() const noexcept { return n_rows_; }
  int64_t n_cols() const noexcept { return n_cols_; }
  int64_t nvals() const noexcept { return row_offsets_.empty() ? 0 : row_offsets_.back(); }

  std::span<const offset_t> row_offsets() const noexcept { return row_offsets_; }
  std::span<const index_t> col_indices() const noexcept { return col_indices_; }
  std::span<const storage_t<T>> values() const noexcept { return values_; }
  // Writing access: what was derived from the contents is dropped (gql/derived.hpp).
  std::span<offset_t> row_offsets() noexcept { return derived_.clear(), std::span<offset_t>(row_offsets_); }
  std::span<index_t> col_indices() noexcept { return derived_.clear(), std::span<index_t>(col_indices_); }
  std::span<storage_t<T>> values() noexcept { return derived_.clear(), std::span<storage_t<T>>(values_); }
  // What is kept with these contents: their transpose, device copy, symmetry, ...
  const Derived& derived() const noexcept { return derived_; }
  // Entry (i, j) becomes `value` (0 <= i < n_rows, 0 <= j < n_cols; ignored for pattern graphs, whose
  // entries are all true): overwritten in place when stored, else inserted into row i, moving the later
  // entries once (memmove), not rebuilding the graph.
  void set_entry(int64_t i, int64_t j, storage_t<T> value) {
    derived_.clear();
    const size_t before = col_indices_.size();
    detail::store_sorted(col_indices_, stores_values<T> ? &values_ : nullptr,
                         static_cast<size_t>(row_offsets_[static_cast<size_t>(i)]),
                         static_cast<size_t>(row_offsets_[static_cast<size_t>(i) + 1]), static_cast<index_t>(j), value);
    if (col_indices_.size() == before) return;  // overwritten in place
    for (size_t r = static_cast<size_t>(i) + 1; r < row_offsets_.size(); ++r) ++row_offsets_[r];
  }

  // The value of the p-th stored entry (true for pattern graphs).
  T value_at(offset_t p) const noexcept {
    if constexpr (stores_values<T>) return values_[static_cast<size_t>(p)];
    else return true;
  }
  int64_t row_degree(int64_t row) const noexcept {
    return row_offsets_[static_cast<size_t>(row) + 1] - row_offsets_[static_cast<size_t>(row)];
  }

  // Checks every invariant; throws Error(internal) naming the first one broken.
  void validate() const {
    auto fail = [](const std::string& why) { throw Error(ErrorKind::internal, "invalid CSR: " + why); };
    if (n_rows_ < 0 || n_cols_ < 0) fail("negative dimension");
    if (n_rows_ > max_vertices || n_cols_ > max_vertices) fail("dimension exceeds 2^31");
    if (row_offsets_.size() != static_cast<size_t>(n_rows_) + 1) fail("row_offsets has wrong length");
    if (row_offsets_.front() != 0) fail("row_offsets[0] != 0");
    if (static_cast<size_t>(row_offsets_.back()) != col_indices_.size()) fail("row_offsets end != nvals");
    if constexpr (stores_values<T>) {
      if (values_.size() != col_indices_.size()) fail("values and col_indices differ in length");
    } else if (!values_.empty()) {
      fail("a pattern graph stores no values");
    }
    for (int64_t r = 0; r < n_rows_; ++r) {
      const offset_t b = row_offsets_[r], e = row_offsets_[r + 1];
      if (e < b) fail("row_offsets decrease at row " + std::to_string(r));
      for (offset_t p = b; p < e; ++p) {
        const index_t c = col_indices_[p];
        if (c < 0 || c >= n_cols_) fail("column out of range in row " + std::to_string(r));
        if (p > b && col_indices_[p - 1] >= c) fail("columns not sorted and unique in row " + std::to_string(r));
      }
    }
  }

 private:
  int64_t n_rows_ = 0;
  int64_t n_cols_ = 0;
  Array<offset_t> row_offsets_;
  Array<index_t> col_indices_;
  Array<storage_t<T>> values_;  // empty for pattern graphs
  Derived derived_;
};

// Dense row-major matrix.
template <class T>
class Matrix {
 public:
  using value_type = T;

  Matrix() = default;
  Matrix(int64_t n_rows, int64_t n_cols, storage_t<T> fill = storage_t<T>{})
      : n_rows_(checked_dimension(n_rows, "a matrix's number of rows")),
        n_cols_(checked_dimension(n_cols, "a matrix's number of columns")),
        data_(checked_storage(static_cast<uint64_t>(n_rows_) * static_cast<uint64_t>(n_cols_), sizeof(storage_t<T>),
                              [&] {
                                return "a " + std::to_string(n_rows_) + " x " + std::to_string(n_cols_) + " matrix of " +
                                       std::to_string(sizeof(storage_t<T>)) + "-byte values";
                              }),
              fill) {}
  Matrix(int64_t n_rows, int64_t n_cols, Array<storage_t<T>> data)
      : n_rows_(checked_dimension(n_rows, "a matrix's number of rows")),
        n_cols_(checked_dimension(n_cols, "a matrix's number of columns")),
        data_(std::move(data)) {
    if (data_.size() != static_cast<size_t>(n_rows_ * n_cols_))
      throw Error(ErrorKind::internal, "a dense matrix's storage does not match its shape");
  }

  Matrix(Matrix&&) noexcept = default;
  Matrix& operator=(Matrix&&) noexcept = default;
  Matrix(const Matrix&) = delete;
  Matrix& operator=(const Matrix&) = delete;
  Matrix clone() const { return Matrix(n_rows_, n_cols_, data_); }

  int64_t n_rows() const noexcept { return n_rows_; }
  int64_t n_cols() const noexcept { return n_cols_; }
  storage_t<T>& operator()(int64_t r, int64_t c) noexcept {
    derived_.clear();
    return data_[static_cast<size_t>(r * n_cols_ + c)];
  }
  const storage_t<T>& operator()(int64_t r, int64_t c) const noexcept {
    return data_[static_cast<size_t>(r * n_cols_ + c)];
  }
  std::span<storage_t<T>> data() noexcept { return derived_.clear(), std::span<storage_t<T>>(data_); }
  std::span<const storage_t<T>> data() const noexcept { return data_; }
  const Derived& derived() const noexcept { return derived_; }

  void validate() const {
    if (n_rows_ < 0 || n_cols_ < 0 || data_.size() != static_cast<size_t>(n_rows_ * n_cols_))
      throw Error(ErrorKind::internal, "invalid dense matrix: size does not match shape");
  }

 private:
  int64_t n_rows_ = 0;
  int64_t n_cols_ = 0;
  Array<storage_t<T>> data_;
  Derived derived_;
};

// A vector of n entries, stored dense (every entry present) or sparse (sorted unique indices + values).
// Sparse storage is what GraphBLAS calls the vector's structure: masks read it.
template <class T>
class Vector {
 public:
  using value_type = T;

  Vector() = default;
  // A sparse vector with no entries.
  explicit Vector(int64_t size) : size_(checked_dimension(size, "a vector's length")) {}
  // A dense vector, every entry equal to `fill`.
  static Vector dense(int64_t size, storage_t<T> fill) {
    Vector v(size);
    v.dense_ = true;
    v.values_.assign(checked_storage(static_cast<uint64_t>(v.size_), sizeof(storage_t<T>),
                                     [&] { return "a dense vector of " + std::to_string(v.size_) + " values"; }),
                     fill);
    return v;
  }
  // A dense vector of the given values (one per entry).
  static Vector dense(int64_t size, Array<storage_t<T>> values) {
    Vector v(size);
    if (values.size() != static_cast<size_t>(v.size_))
      throw Error(ErrorKind::internal, "a dense vector's storage does not match its length");
    v.dense_ = true;
    v.values_ = std::move(values);
    return v;
  }
  static Vector sparse(int64_t size, Array<index_t> indices, Array<storage_t<T>> values) {
    Vector v(size);
    v.indices_ = std::move(indices);
    v.values_ = std::move(values);
    return v;
  }

  Vector(Vector&&) noexcept = default;
  Vector& operator=(Vector&&) noexcept = default;
  Vector(const Vector&) = delete;
  Vector& operator=(const Vector&) = delete;
  Vector clone() const {
    Vector v(size_);
    v.dense_ = dense_;
    v.indices_ = indices_;
    v.values_ = values_;
    return v;
  }

  int64_t size() const noexcept { return size_; }
  bool is_dense() const noexcept { return dense_; }
  int64_t nvals() const noexcept { return dense_ ? size_ : static_cast<int64_t>(indices_.size()); }
  // Sparse storage only (empty for a dense vector).
  std::span<const index_t> indices() const noexcept { return indices_; }
  std::span<const storage_t<T>> values() const noexcept { return values_; }
  std::span<storage_t<T>> values() noexcept { return derived_.clear(), std::span<storage_t<T>>(values_); }
  const Derived& derived() const noexcept { return derived_; }
  // Entry i (0 <= i < size()) becomes `value`, present from now on: in place when dense, else found by
  // binary search and inserted when absent (moving the later entries, not rebuilding the vector).
  void set_entry(int64_t i, storage_t<T> value) {
    derived_.clear();
    if (dense_) {
      values_[static_cast<size_t>(i)] = value;
      return;
    }
    detail::store_sorted(indices_, &values_, 0, indices_.size(), static_cast<index_t>(i), value);
  }

  void validate() const {
    auto fail = [](const char* why) { throw Error(ErrorKind::internal, std::string("invalid vector: ") + why); };
    if (size_ < 0 || size_ > max_vertices) fail("size out of range");
    if (dense_) {
      if (values_.size() != static_cast<size_t>(size_) || !indices_.empty()) fail("dense storage has wrong length");
      return;
    }
    if (values_.size() != indices_.size()) fail("indices and values differ in length");
    for (size_t p = 0; p < indices_.size(); ++p) {
      if (indices_[p] < 0 || indices_[p] >= size_) fail("index out of range");
      if (p > 0 && indices_[p - 1] >= indices_[p]) fail("indices not sorted and unique");
    }
  }

 private:
  int64_t size_ = 0;
  bool dense_ = false;
  Array<index_t> indices_;
  Array<storage_t<T>> values_;
  Derived derived_;
};

// The language's rows/cols/nvals for every container (a vector is n x 1).
template <class T> int64_t rows(const Csr<T>& g) noexcept { return g.n_rows(); }
template <class T> int64_t cols(const Csr<T>& g) noexcept { return g.n_cols(); }
template <class T> int64_t nvals(const Csr<T>& g) noexcept { return g.nvals(); }
template <class T> int64_t rows(const Matrix<T>& m) noexcept { return m.n_rows(); }
template <class T> int64_t cols(const Matrix<T>& m) noexcept { return m.n_cols(); }
template <class T> int64_t nvals(const Matrix<T>& m) noexcept { return m.n_rows() * m.n_cols(); }
template <class T> int64_t rows(const Vector<T>& v) noexcept { return v.size(); }
template <class T> int64_t cols(const Vector<T>&) noexcept { return 1; }
template <class T> int64_t nvals(const Vector<T>& v) noexcept { return v.nvals(); }

// Element conversion as the language defines it: a pattern entry becomes 1 (or true), numbers
// convert as gql::convert_number does (a float to an integer saturates), and a number to bool is
// `!= 0`. A graph converted to a pattern graph keeps every stored entry (its structure), whatever
// the value.
template <class To, class From>
constexpr To convert_element(From x) noexcept {
  if constexpr (std::is_same_v<To, bool>) return x != From{};
  else return convert_number<To>(x);
}

template <class To, class From>
Csr<To> convert(const Csr<From>& in) {
  Array<offset_t> offsets(in.row_offsets().begin(), in.row_offsets().end());
  Array<index_t> cols(in.col_indices().begin(), in.col_indices().end());
  Array<storage_t<To>> vals;
  if constexpr (stores_values<To>) {
    vals.resize(cols.size());
    for (size_t p = 0; p < cols.size(); ++p) vals[p] = convert_element<To>(in.value_at(static_cast<offset_t>(p)));
  }
  // Converting to a pattern graph keeps the structure: every stored entry stays, as `true`.
  return Csr<To>(in.n_rows(), in.n_cols(), std::move(offsets), std::move(cols), std::move(vals));
}

}  // namespace gql

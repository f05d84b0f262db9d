// Host containers: sparse graphs in CSR, dense row-major matrices, and vectors (dense or sparse).
// All are move-only (copies are explicit through clone()) and check their invariants in validate().
// Device variants live in gql/device.hpp.
#pragma once

#include <algorithm>
#include <cassert>
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
#include "gql/pending_stores.hpp"

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
// Where `key` lies in the sorted run [begin, end) of `keys`, or -1 when it is not stored there.
inline int64_t find_sorted(const Array<index_t>& keys, size_t begin, size_t end, index_t key) noexcept {
  const auto last = keys.begin() + static_cast<std::ptrdiff_t>(end);
  const auto at = std::lower_bound(keys.begin() + static_cast<std::ptrdiff_t>(begin), last, key);
  return at != last && *at == key ? at - keys.begin() : -1;
}

// Merges new entries into sorted runs of keys (run r is [offsets[r], offsets[r + 1]); values parallel
// to keys, none for a pattern): entry n goes to run positions[n] / width with key positions[n] % width.
// The positions are sorted, unique and absent from the runs. One pass from the back, in place: each
// run moves once by the number of new entries before its end, and `offsets` become the new bounds.
// O(stored + runs + new x log(run length)); the arrays are grown before anything moves, so a failed
// allocation changes nothing.
template <class V>
void merge_entries(std::span<offset_t> offsets, Array<index_t>& keys, Array<V>* values, int64_t width,
                   const typename PendingStores<V>::Resolved& entries) {
  size_t next = entries.positions.size();  // entries [0, next) are not placed yet
  if (next == 0) return;
  const size_t grown = keys.size() + next;
  keys.reserve(grown);
  if (values) values->reserve(grown);
  keys.resize(grown);
  if (values) values->resize(grown);
  size_t write = grown;  // [write, grown) is in place
  const auto move_up = [&](size_t from, size_t to) {  // old entries [from, to) end at `write`
    if (write == to) return void(write = from);        // already there: nothing before them is new
    std::move_backward(keys.begin() + static_cast<std::ptrdiff_t>(from), keys.begin() + static_cast<std::ptrdiff_t>(to),
                       keys.begin() + static_cast<std::ptrdiff_t>(write));
    if (values)
      std::move_backward(values->begin() + static_cast<std::ptrdiff_t>(from),
                         values->begin() + static_cast<std::ptrdiff_t>(to),
                         values->begin() + static_cast<std::ptrdiff_t>(write));
    write -= to - from;
  };
  for (size_t run = offsets.size() - 1; run-- > 0 && next > 0;) {
    const auto begin = static_cast<size_t>(offsets[run]);
    auto read = static_cast<size_t>(offsets[run + 1]);  // old entries [begin, read) are not placed yet
    offsets[run + 1] = static_cast<offset_t>(write);
    for (; next > 0 && entries.positions[next - 1] / width == static_cast<int64_t>(run); --next) {
      const auto key = static_cast<index_t>(entries.positions[next - 1] % width);
      const auto after = std::upper_bound(keys.begin() + static_cast<std::ptrdiff_t>(begin),
                                          keys.begin() + static_cast<std::ptrdiff_t>(read), key);
      const auto from = static_cast<size_t>(after - keys.begin());
      move_up(from, read);
      read = from;
      --write;
      keys[write] = key;
      if (values) (*values)[write] = entries.values[next - 1];
    }
    move_up(begin, read);
  }
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

  Csr clone() const {
    settle();
    return Csr(n_rows_, n_cols_, row_offsets_, col_indices_, values_);
  }

  int64_t n_rows() const noexcept { return n_rows_; }
  int64_t n_cols() const noexcept { return n_cols_; }
  int64_t nvals() const { return settle(), row_offsets_.empty() ? 0 : row_offsets_.back(); }

  // Every read of the structure sees the stores made before it: the ones waiting are assembled first
  // (see set_entry).
  std::span<const offset_t> row_offsets() const { return settle(), std::span<const offset_t>(row_offsets_); }
  std::span<const index_t> col_indices() const { return settle(), std::span<const index_t>(col_indices_); }
  std::span<const storage_t<T>> values() const { return settle(), std::span<const storage_t<T>>(values_); }
  // Writing access: what was derived from the contents is dropped (gql/derived.hpp).
  std::span<offset_t> row_offsets() { return settle(), derived_.clear(), std::span<offset_t>(row_offsets_); }
  std::span<index_t> col_indices() { return settle(), derived_.clear(), std::span<index_t>(col_indices_); }
  std::span<storage_t<T>> values() { return settle(), derived_.clear(), std::span<storage_t<T>>(values_); }
  // What is kept with these contents: their transpose, device copy, symmetry, ...
  const Derived& derived() const noexcept { return derived_; }
  // Entry (i, j) becomes `value` (0 <= i < n_rows, 0 <= j < n_cols; ignored for pattern graphs, whose
  // entries are all true). A stored entry is overwritten in place (a binary search in row i). A new one
  // waits with the other new entries (gql/pending_stores.hpp; of two stores to one position the later
  // wins) until the graph is next read, when all are merged into the arrays in one pass: a loop of n
  // stores costs O(nvals + n log n), not O(nvals) each. Like any write, not while another thread reads.
  void set_entry(int64_t i, int64_t j, storage_t<T> value) {
    derived_.clear();
    const auto row = static_cast<size_t>(i);
    const int64_t at = detail::find_sorted(col_indices_, static_cast<size_t>(row_offsets_[row]),
                                           static_cast<size_t>(row_offsets_[row + 1]), static_cast<index_t>(j));
    if (at >= 0) {
      if constexpr (stores_values<T>) values_[static_cast<size_t>(at)] = value;
      return;
    }
    if (pending_.add(i * n_cols_ + j, value)) settle();
  }
  // Whether every store has been merged into the arrays (no new entry waits).
  bool settled() const noexcept { return !pending_.waiting(); }
  // Merges the new entries that wait now, as any read would (a program does it within a run's time). A
  // read, safe on several threads at once (gql/pending_stores.hpp): it changes the arrays but not the
  // graph they hold, so what was derived stays.
  void settle() const {
    pending_.settle([this](const auto& entries) {
      detail::merge_entries(std::span<offset_t>(row_offsets_), col_indices_, stores_values<T> ? &values_ : nullptr,
                            n_cols_, entries);
    });
  }

  // The value of the p-th stored entry (true for pattern graphs); p comes from a read of the structure,
  // which assembled the graph.
  T value_at(offset_t p) const noexcept {
    assert(settled());
    if constexpr (stores_values<T>) return values_[static_cast<size_t>(p)];
    else return true;
  }
  int64_t row_degree(int64_t row) const {
    settle();
    return row_offsets_[static_cast<size_t>(row) + 1] - row_offsets_[static_cast<size_t>(row)];
  }

  // Checks every invariant; throws Error(internal) naming the first one broken.
  void validate() const {
    settle();
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
  // Mutable: assembling the pending stores is a read of the graph (settle()).
  mutable Array<offset_t> row_offsets_;
  mutable Array<index_t> col_indices_;
  mutable Array<storage_t<T>> values_;  // empty for pattern graphs
  PendingEntries<storage_t<T>> pending_;  // new entries not yet in the arrays
  Derived derived_;
};

// A graph's arrays as hot loops read them: taken once, after its waiting stores are settled, so a
// loop over edges pays no check per access (Csr's accessors settle on every call). Valid while the
// graph is not written.
template <class T>
struct CsrView {
  explicit CsrView(const Csr<T>& g)
      : offsets(g.row_offsets().data()), columns(g.col_indices().data()), values(g.values().data()) {}
  int64_t degree(int64_t row) const noexcept {
    return offsets[static_cast<size_t>(row) + 1] - offsets[static_cast<size_t>(row)];
  }
  offset_t begin(int64_t row) const noexcept { return offsets[static_cast<size_t>(row)]; }
  offset_t end(int64_t row) const noexcept { return offsets[static_cast<size_t>(row) + 1]; }
  index_t column(offset_t p) const noexcept { return columns[static_cast<size_t>(p)]; }
  // As Csr::value_at, read here rather than through the graph: a loop that writes memory (an atomic
  // update per edge) would reload the graph's array each time.
  T value_at(offset_t p) const noexcept {
    if constexpr (stores_values<T>) return values[static_cast<size_t>(p)];
    else return true;
  }

  const offset_t* offsets;
  const index_t* columns;
  const storage_t<T>* values;  // empty for pattern graphs
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
    settle();
    Vector v(size_);
    v.dense_ = dense_;
    v.indices_ = indices_;
    v.values_ = values_;
    return v;
  }

  int64_t size() const noexcept { return size_; }
  bool is_dense() const noexcept { return dense_; }
  int64_t nvals() const { return dense_ ? size_ : (settle(), static_cast<int64_t>(indices_.size())); }
  // Sparse storage only (empty for a dense vector). Reads see every store made before them, as a
  // graph's do (the new entries waiting are merged first).
  std::span<const index_t> indices() const { return settle(), std::span<const index_t>(indices_); }
  std::span<const storage_t<T>> values() const { return settle(), std::span<const storage_t<T>>(values_); }
  std::span<storage_t<T>> values() { return settle(), derived_.clear(), std::span<storage_t<T>>(values_); }
  const Derived& derived() const noexcept { return derived_; }
  // Entry i (0 <= i < size()) becomes `value`, present from now on: in place when dense or stored (a
  // binary search), else kept with the new entries that wait until the vector is next read, as a
  // graph's are (Csr::set_entry): n stores cost O(nvals + n log n), not O(nvals) each.
  void set_entry(int64_t i, storage_t<T> value) {
    derived_.clear();
    const int64_t at = dense_ ? i : detail::find_sorted(indices_, 0, indices_.size(), static_cast<index_t>(i));
    if (at >= 0) {
      values_[static_cast<size_t>(at)] = value;
      return;
    }
    if (pending_.add(i, value)) settle();
  }
  // Whether every store has been merged into the arrays (no new entry waits).
  bool settled() const noexcept { return !pending_.waiting(); }
  // Merges the new entries that wait now, as any read would: a read, as a graph's (Csr::settle).
  void settle() const {
    pending_.settle([this](const auto& entries) {
      offset_t bounds[] = {0, static_cast<offset_t>(indices_.size())};  // one sorted run
      detail::merge_entries(std::span<offset_t>(bounds), indices_, &values_, size_, entries);
    });
  }

  void validate() const {
    settle();
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
  // Mutable: assembling the pending stores is a read of the vector (settle()).
  mutable Array<index_t> indices_;
  mutable Array<storage_t<T>> values_;
  PendingEntries<storage_t<T>> pending_;  // new entries of a sparse vector not yet in the arrays
  Derived derived_;
};

// The language's rows/cols/nvals for every container (a vector is n x 1).
template <class T> int64_t rows(const Csr<T>& g) noexcept { return g.n_rows(); }
template <class T> int64_t cols(const Csr<T>& g) noexcept { return g.n_cols(); }
template <class T> int64_t nvals(const Csr<T>& g) { return g.nvals(); }
template <class T> int64_t rows(const Matrix<T>& m) noexcept { return m.n_rows(); }
template <class T> int64_t cols(const Matrix<T>& m) noexcept { return m.n_cols(); }
template <class T> int64_t nvals(const Matrix<T>& m) noexcept { return m.n_rows() * m.n_cols(); }
template <class T> int64_t rows(const Vector<T>& v) noexcept { return v.size(); }
template <class T> int64_t cols(const Vector<T>&) noexcept { return 1; }
template <class T> int64_t nvals(const Vector<T>& v) { return v.nvals(); }

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

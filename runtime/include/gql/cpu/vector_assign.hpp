// Vectors as generated code writes them: GraphBLAS's masked assignment w<m, replace> = t, the
// same for a scalar (w<m> = s), and single elements. A vector's structure is its stored indices
// (a dense vector has every index); results are stored sparse unless every index is present.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "gql/common/shape_checks.hpp"
#include "gql/cpu/mask.hpp"
#include "gql/error.hpp"
#include "gql/graph.hpp"
#include "gql/cpu/parallel.hpp"

namespace gql::cpu {

// A vector spread over n slots: which indices are present and their values (a slot's value is
// only read where it is present). Made, spread and compacted by all threads for large vectors.
template <class T>
struct VectorSlots {
  Array<uint8_t> present;
  Array<storage_t<T>> values;

  explicit VectorSlots(int64_t n) : present(static_cast<size_t>(n)), values(static_cast<size_t>(n)) {
    fill_present(0);
  }

  static VectorSlots of(const Vector<T>& v) {
    VectorSlots s(v.size(), Uninitialized{});
    const int64_t n = v.size();
    if (v.is_dense()) {
      s.fill_present(1);
      const auto in = v.values();
#pragma omp parallel for schedule(static) if (worth_threads(n))
      for (int64_t i = 0; i < n; ++i) s.values[static_cast<size_t>(i)] = in[static_cast<size_t>(i)];
    } else {
      s.fill_present(0);
      const auto idx = v.indices();
      const auto val = v.values();
      const auto entries = static_cast<int64_t>(idx.size());
#pragma omp parallel for schedule(static) if (worth_threads(entries))
      for (int64_t p = 0; p < entries; ++p) {  // indices are distinct: no two threads write one slot
        s.present[static_cast<size_t>(idx[static_cast<size_t>(p)])] = 1;
        s.values[static_cast<size_t>(idx[static_cast<size_t>(p)])] = val[static_cast<size_t>(p)];
      }
    }
    return s;
  }

  // Back to a Vector: dense storage (the slots' values, taken over) when every slot is present,
  // else sparse, each block of slots compacted by one thread at its offset.
  Vector<T> to_vector() && {
    const int64_t n = static_cast<int64_t>(present.size());
    constexpr int64_t block = 65536;
    const int64_t blocks = (n + block - 1) / block;
    std::vector<int64_t> offsets(static_cast<size_t>(blocks) + 1, 0);
#pragma omp parallel for schedule(static) if (worth_threads(n))
    for (int64_t b = 0; b < blocks; ++b) {
      int64_t c = 0;
      for (int64_t i = b * block; i < std::min(n, (b + 1) * block); ++i) c += present[static_cast<size_t>(i)];
      offsets[static_cast<size_t>(b) + 1] = c;
    }
    for (int64_t b = 0; b < blocks; ++b) offsets[static_cast<size_t>(b) + 1] += offsets[static_cast<size_t>(b)];
    const int64_t count = offsets.back();
    if (count == n) return Vector<T>::dense(n, std::move(values));
    Array<index_t> idx(static_cast<size_t>(count));
    Array<storage_t<T>> vals(static_cast<size_t>(count));
#pragma omp parallel for schedule(static) if (worth_threads(n))
    for (int64_t b = 0; b < blocks; ++b) {
      auto at = static_cast<size_t>(offsets[static_cast<size_t>(b)]);
      for (int64_t i = b * block; i < std::min(n, (b + 1) * block); ++i)
        if (present[static_cast<size_t>(i)]) {
          idx[at] = static_cast<index_t>(i);
          vals[at++] = values[static_cast<size_t>(i)];
        }
    }
    return Vector<T>::sparse(n, std::move(idx), std::move(vals));
  }

 private:
  struct Uninitialized {};
  VectorSlots(int64_t n, Uninitialized) : present(static_cast<size_t>(n)), values(static_cast<size_t>(n)) {}
  void fill_present(uint8_t p) {
    const auto n = static_cast<int64_t>(present.size());
#pragma omp parallel for schedule(static) if (worth_threads(n))
    for (int64_t i = 0; i < n; ++i) present[static_cast<size_t>(i)] = p;
  }
};

inline VectorMask as_vector_mask(const VectorMask& m) { return m; }
inline VectorMask as_vector_mask(NoMask) { return {}; }

using common::check_same_size;  // gql/common/shape_checks.hpp

// w<m, replace> = t (GraphBLAS, no accumulator). Without a mask w simply becomes t.
template <class T, class U>
void assign_result(Vector<T>& w, Vector<U>&& t, const VectorMask& m, bool replace) {
  if (!m.active()) {
    if constexpr (std::is_same_v<T, U>) {
      w = std::move(t);
    } else {
      auto s = VectorSlots<U>::of(t);
      VectorSlots<T> out(t.size());
      const int64_t n = t.size();
#pragma omp parallel for schedule(static) if (worth_threads(n))
      for (int64_t i = 0; i < n; ++i) {
        const auto k = static_cast<size_t>(i);
        out.present[k] = s.present[k];
        if (s.present[k]) out.values[k] = static_cast<storage_t<T>>(convert_element<T>(s.values[k]));
      }
      w = std::move(out).to_vector();
    }
    return;
  }
  check_same_size(w.size(), t.size(), "masked assignment");
  check_mask_size(m, w.size(), "masked assignment");
  auto out = VectorSlots<T>::of(w);
  const auto in = VectorSlots<U>::of(t);
  const int64_t n = w.size();
#pragma omp parallel for schedule(static) if (worth_threads(n))
  for (int64_t i = 0; i < n; ++i) {
    const auto k = static_cast<size_t>(i);
    if (m.allows(i)) {
      out.present[k] = in.present[k];
      if (in.present[k]) out.values[k] = static_cast<storage_t<T>>(convert_element<T>(in.values[k]));
    } else if (replace) {
      out.present[k] = 0;
    }
  }
  w = std::move(out).to_vector();
}

// w<m, replace> = value: every index the mask allows (every index without a mask) gets the value.
template <class T, class Mask, class S>
void assign_scalar(Vector<T>& w, const Mask& mask_in, bool replace, S value) {
  const VectorMask m = as_vector_mask(mask_in);
  check_mask_size(m, w.size(), "assign");
  const auto v = static_cast<storage_t<T>>(convert_element<T>(value));
  if (!m.active()) {
    w = Vector<T>::dense(w.size(), v);
    return;
  }
  auto out = VectorSlots<T>::of(w);
  const int64_t n = w.size();
#pragma omp parallel for schedule(static) if (worth_threads(n))
  for (int64_t i = 0; i < n; ++i) {
    const auto k = static_cast<size_t>(i);
    if (m.allows(i)) {
      out.present[k] = 1;
      out.values[k] = v;
    } else if (replace) {
      out.present[k] = 0;
    }
  }
  w = std::move(out).to_vector();
}

inline void check_vector_index(int64_t i, int64_t size, const Location& where = {}) {
  if (i < 0 || i >= size)
    throw Error(ErrorKind::usage, "index " + std::to_string(i) + " is outside a vector of " + std::to_string(size) +
                                      " entries", where);
}

// w[i] = value; an index outside the vector is a usage error naming it.
template <class T, class S>
void set_element(Vector<T>& w, int64_t i, S value) {
  check_vector_index(i, w.size());
  w.set_entry(i, static_cast<storage_t<T>>(convert_element<T>(value)));
}

// The error of a read of a vector's entry i where none is stored: a requirement error at the read's
// place in the spec, as no value is a value of T (the device's reads throw it too).
inline Error missing_entry(int64_t i, const Location& where) {
  return Error(ErrorKind::requirement, "the vector has no entry at " + std::to_string(i), where);
}

// v[i]: the entry stored at i (a dense vector has them all); where none is stored the read fails
// (missing_entry).
template <class T>
T element(const Vector<T>& v, int64_t i, const Location& where) {
  check_vector_index(i, v.size(), where);
  if (v.is_dense()) return T(v.values()[static_cast<size_t>(i)]);
  const auto indices = v.indices();
  const auto at = std::lower_bound(indices.begin(), indices.end(), static_cast<index_t>(i));
  if (at == indices.end() || *at != static_cast<index_t>(i)) throw missing_entry(i, where);
  return T(v.values()[static_cast<size_t>(at - indices.begin())]);
}

}  // namespace gql::cpu

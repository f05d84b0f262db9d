// Vectors as generated code writes them: GraphBLAS's masked assignment w<m, replace> = t, the
// same for a scalar (w<m> = s), and single elements. A vector's structure is its stored indices
// (a dense vector has every index); results are stored sparse unless every index is present.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "gql/cpu/mask.hpp"
#include "gql/error.hpp"
#include "gql/graph.hpp"
#include "gql/cpu/parallel.hpp"

namespace gql::cpu {

// A vector spread over n slots: which indices are present and their values.
template <class T>
struct VectorSlots {
  std::vector<uint8_t> present;
  std::vector<storage_t<T>> values;

  explicit VectorSlots(int64_t n) : present(static_cast<size_t>(n), 0), values(static_cast<size_t>(n)) {}

  static VectorSlots of(const Vector<T>& v) {
    VectorSlots s(v.size());
    if (v.is_dense()) {
      std::fill(s.present.begin(), s.present.end(), uint8_t{1});
      std::copy(v.values().begin(), v.values().end(), s.values.begin());
    } else {
      for (size_t p = 0; p < v.indices().size(); ++p) {
        s.present[static_cast<size_t>(v.indices()[p])] = 1;
        s.values[static_cast<size_t>(v.indices()[p])] = v.values()[p];
      }
    }
    return s;
  }

  // Back to a Vector: dense storage when every slot is present, else sparse.
  Vector<T> to_vector() && {
    const int64_t n = static_cast<int64_t>(present.size());
    int64_t count = 0;
    for (uint8_t p : present) count += p;
    if (count == n) {
      auto v = Vector<T>::dense(n, storage_t<T>{});
      std::copy(values.begin(), values.end(), v.values().begin());
      return v;
    }
    Array<index_t> idx;
    Array<storage_t<T>> vals;
    idx.reserve(static_cast<size_t>(count));
    vals.reserve(static_cast<size_t>(count));
    for (int64_t i = 0; i < n; ++i)
      if (present[static_cast<size_t>(i)]) {
        idx.push_back(static_cast<index_t>(i));
        vals.push_back(values[static_cast<size_t>(i)]);
      }
    return Vector<T>::sparse(n, std::move(idx), std::move(vals));
  }
};

inline VectorMask as_vector_mask(const VectorMask& m) { return m; }
inline VectorMask as_vector_mask(NoMask) { return {}; }

inline void check_same_size(int64_t a, int64_t b, const char* op) {
  if (a != b)
    throw Error(ErrorKind::usage, std::string(op) + ": vectors of " + std::to_string(a) + " and " +
                                      std::to_string(b) + " entries");
}

// w<m, replace> = t (GraphBLAS, no accumulator). Without a mask w simply becomes t.
template <class T, class U>
void assign_result(Vector<T>& w, Vector<U>&& t, const VectorMask& m, bool replace) {
  if (!m.active()) {
    if constexpr (std::is_same_v<T, U>) {
      w = std::move(t);
    } else {
      auto s = VectorSlots<U>::of(t);
      VectorSlots<T> out(t.size());
      for (size_t i = 0; i < s.present.size(); ++i) {
        out.present[i] = s.present[i];
        out.values[i] = static_cast<storage_t<T>>(convert_element<T>(s.values[i]));
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

// w[i] = value; an index outside the vector is a usage error naming it.
template <class T, class S>
void set_element(Vector<T>& w, int64_t i, S value) {
  if (i < 0 || i >= w.size())
    throw Error(ErrorKind::usage, "index " + std::to_string(i) + " is outside a vector of " +
                                      std::to_string(w.size()) + " entries");
  w.set_entry(i, static_cast<storage_t<T>>(convert_element<T>(value)));
}

}  // namespace gql::cpu

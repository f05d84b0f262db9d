// Combining a value into a shared accumulator cell with agg, atomically: native atomics where the
// monoid and type have one (sum, min, max on the usual types; any is a plain store), a
// compare-and-swap loop over S::agg otherwise (user-written agg, prod, lor/land, small types).
// NVRTC-compatible.
#pragma once

#include "gql/device/types.cuh"

namespace gql::device {

template <class V>
struct native_add {
  static constexpr bool value = is_same<V, int>::value || is_same<V, unsigned>::value ||
                                is_same<V, unsigned long long>::value || is_same<V, float>::value ||
                                is_same<V, double>::value;
};
template <class V>
struct native_minmax {
  static constexpr bool value = is_same<V, int>::value || is_same<V, unsigned>::value ||
                                is_same<V, long long>::value || is_same<V, unsigned long long>::value;
};

template <int Bytes>
struct select_word;
template <>
struct select_word<1> { using type = unsigned char; };
template <>
struct select_word<2> { using type = unsigned short; };
template <>
struct select_word<4> { using type = unsigned; };
template <>
struct select_word<8> { using type = unsigned long long; };

// Bit copies between a value and the integer word that a CAS works on.
template <class To, class From>
__device__ __forceinline__ To bit_cast_to(From from) {
  static_assert(sizeof(To) == sizeof(From), "same size");
  union {
    From f;
    To t;
  } u;
  u.f = from;
  return u.t;
}

// CAS loop for 4- and 8-byte values; for 1- and 2-byte values, a CAS on the aligned 32-bit word
// that holds the cell.
template <class S>
__device__ void atomic_agg_cas(typename S::value_type* cell, typename S::value_type value) {
  using V = typename S::value_type;
  if constexpr (sizeof(V) == 4 || sizeof(V) == 8) {
    using Word = typename select_word<sizeof(V)>::type;
    Word* word = reinterpret_cast<Word*>(cell);
    Word old = *word, assumed;
    do {
      assumed = old;
      const V combined = S::agg(bit_cast_to<V>(assumed), value);
      old = atomicCAS(word, assumed, bit_cast_to<Word>(combined));
    } while (old != assumed);
  } else {
    static_assert(sizeof(V) == 1 || sizeof(V) == 2, "values of 1, 2, 4 or 8 bytes");
    const unsigned long long address = reinterpret_cast<unsigned long long>(cell);
    unsigned* word = reinterpret_cast<unsigned*>(address & ~3ull);
    const unsigned shift = static_cast<unsigned>(address & 3ull) * 8u;
    const unsigned mask = (sizeof(V) == 1 ? 0xffu : 0xffffu) << shift;
    unsigned old = *word, assumed;
    do {
      assumed = old;
      using Small = typename select_word<sizeof(V)>::type;
      const V current = bit_cast_to<V>(static_cast<Small>((assumed & mask) >> shift));
      const unsigned bits = static_cast<unsigned>(bit_cast_to<Small>(S::agg(current, value)));
      old = atomicCAS(word, assumed, (assumed & ~mask) | ((bits << shift) & mask));
    } while (old != assumed);
  }
}

template <class S>
__device__ __forceinline__ void atomic_agg(typename S::value_type* cell, typename S::value_type value) {
  using V = typename S::value_type;
  if constexpr (S::monoid == Monoid::sum && native_add<V>::value) {
    atomicAdd(cell, value);
  } else if constexpr (S::monoid == Monoid::min && native_minmax<V>::value) {
    atomicMin(cell, value);
  } else if constexpr (S::monoid == Monoid::max && native_minmax<V>::value) {
    atomicMax(cell, value);
  } else if constexpr (S::monoid == Monoid::any) {
    *reinterpret_cast<volatile V*>(cell) = value;  // any stored value is a correct result
  } else {
    atomic_agg_cas<S>(cell, value);
  }
}

}  // namespace gql::device

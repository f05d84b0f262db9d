// What every accumulator shares: when a new product may be skipped because the entry it would
// join can no longer change (the `any` monoid, or a monoid with a terminal value already reached).
#pragma once

#include "gql/semiring.hpp"

namespace gql::cpu {

// True when the semiring lets a kernel skip products into an entry once the entry is settled.
template <class S>
inline constexpr bool can_settle = S::monoid == Monoid::any || S::has_terminal;

template <class S>
inline bool settled(const typename S::value_type& x) noexcept {
  if constexpr (S::monoid == Monoid::any) return true;  // any value will do: keep the first
  else if constexpr (S::has_terminal) return x == S::terminal();
  else return false;
}

}  // namespace gql::cpu

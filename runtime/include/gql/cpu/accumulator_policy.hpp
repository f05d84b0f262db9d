// What every accumulator shares: when a new product may be skipped because the entry it would
// join can no longer change (the `any` monoid, a monoid with a terminal value already reached, or
// terms that are all equal under an idempotent monoid).
#pragma once

#include "gql/semiring.hpp"

namespace gql::cpu {

// Every term of a product into one entry is the same value (con reads neither an operand nor k), and
// agg keeps it (an idempotent monoid): the first term is the entry.
template <class S>
inline constexpr bool first_term_decides =
    !S::reads_values && !con_reads_position_k<S>() &&
    (S::monoid == Monoid::min || S::monoid == Monoid::max || S::monoid == Monoid::lor || S::monoid == Monoid::land);

// True when the semiring lets a kernel skip products into an entry once the entry is settled.
template <class S>
inline constexpr bool can_settle = S::monoid == Monoid::any || S::has_terminal || first_term_decides<S>;

template <class S>
inline bool settled(const typename S::value_type& x) noexcept {
  if constexpr (S::monoid == Monoid::any || first_term_decides<S>) return true;  // keep the first
  else if constexpr (S::has_terminal) return x == S::terminal();
  else return false;
}

}  // namespace gql::cpu

// C = A * B over a semiring S, optionally through a structural mask (plain or complemented).
//
// Rows of C are computed in parallel, in chunks of about equal work (a row's work is its product
// bound: the sum of the B-row degrees of its A-neighbours) under a dynamic schedule. Each thread
// owns a bitmap accumulator (n values + a bitmap, which emits a row in column order without
// sorting) and a hash accumulator for rows whose bound is small next to n; a policy picks
// one per row. Two phases: a symbolic one counts each row's entries (structure only: a bit set per
// product, no con, no agg; B's rows of n/128 entries or more are ORed in as whole bitmaps), then
// the output is allocated exactly (uninitialized) and a numeric phase writes each row in place,
// sorted by column, its threads first touching the output's pages.
// Memory: the output plus O(n) per thread plus those bitmaps (at most 16 bytes per entry of the
// rows they hold), never a copy of the output.
//
// When S::reads_values is false no value array of A or B is read (pattern graphs have none).
// A result type of bool is a pattern graph: entries whose value is false are left out (so its
// symbolic phase computes the values too, unless con is a constant).
//
// When con reads neither operands nor positions it is a constant c, and an entry reached by p
// products is c folded p times: c itself for an idempotent monoid (min, max, or, and, any: the
// numeric phase keeps no values at all), c * p for an integer sum (the accumulator counts p in
// 32 bits, half the cache footprint of 64-bit values, and adds B's dense rows whole through
// bit-sliced counters: accumulator_count.hpp).
// B's rows hold each column once, so an entry of row i is reached at most once per entry of A's row
// i: p <= min(row i's bound, its degree in A). Other semirings take the general path.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <omp.h>

#include "gql/cpu/accumulator_bitmap.hpp"
#include "gql/cpu/accumulator_count.hpp"
#include "gql/cpu/accumulator_hash.hpp"
#include "gql/cpu/huge_pages.hpp"
#include "gql/cpu/mask.hpp"
#include "gql/cpu/work_partition.hpp"
#include "gql/error.hpp"
#include "gql/graph.hpp"
#include "gql/limits.hpp"

namespace gql::cpu {

enum class Accumulator { dense, hash, automatic };

struct SpgemmOptions {
  Accumulator accumulator = Accumulator::automatic;
  // automatic: a row whose bound is below hash_fraction * n_cols uses the hash accumulator (the
  // bitmap's cost has a part in n / 64; the hash table's grows with the row's products and sort).
  double hash_fraction = 1.0 / static_cast<double>(cpu_hash_row_divisor);
  // Scheduling chunks per thread: more balance against more scheduling overhead.
  int chunks_per_thread = 64;
};

// What the product did, for --stats and --explain.
struct SpgemmStats {
  int64_t products = 0;  // scalar con applications the rows could make (sum of row bounds)
  int64_t rows_dense = 0;  // rows through the bitmap accumulator
  int64_t rows_hash = 0;
  int64_t nvals = 0;
  // Wall seconds of the phases: row bounds and partition, symbolic (row sizes), allocating the output
  // (left uninitialized: its pages are first touched by the numeric phase's threads), numeric
  // (writing the rows).
  double seconds_bounds = 0, seconds_symbolic = 0, seconds_allocate = 0, seconds_numeric = 0;
};

// An operand as con receives it: read (and converted) only when S::reads_values.
template <class S, class To, class T>
inline To operand(const Csr<T>& g, offset_t p) noexcept {
  if constexpr (S::reads_values) return convert_element<To>(g.value_at(p));
  else return To{};
}

// Calls f(std::integral_constant<MaskMode, m>) for the runtime mode m, so kernels get it at compile time.
template <class F>
inline decltype(auto) with_mask_mode(MaskMode mode, F&& f) {
  switch (mode) {
    case MaskMode::allow: return f(std::integral_constant<MaskMode, MaskMode::allow>{});
    case MaskMode::deny: return f(std::integral_constant<MaskMode, MaskMode::deny>{});
    case MaskMode::none: break;
  }
  return f(std::integral_constant<MaskMode, MaskMode::none>{});
}

// How many A-neighbours ahead accumulate_product_row prefetches B's row offsets and columns.
inline constexpr offset_t prefetch_far = 16;
inline constexpr offset_t prefetch_near = 8;

// How con's value can be known without calling it per product (see the header comment).
enum class ConstantCon { no, idempotent, integer_sum };

template <class S>
inline constexpr ConstantCon constant_con = [] {
  if constexpr (S::reads_values || S::positional) {
    return ConstantCon::no;
  } else {
    using V = typename S::value_type;
    constexpr Monoid m = S::monoid;
    if (m == Monoid::min || m == Monoid::max || m == Monoid::lor || m == Monoid::land || m == Monoid::any)
      return ConstantCon::idempotent;
    if (m == Monoid::sum && std::is_integral_v<V> && !std::is_same_v<V, bool>) return ConstantCon::integer_sum;
    return ConstantCon::no;
  }
}();

// An entry reached by `count` products of a constant con c (constant_con<S> is not `no`): c itself for
// an idempotent monoid, c * count modulo 2^bits for an integer sum (as the additions would wrap).
template <class S>
inline typename S::value_type folded_constant(uint64_t count) noexcept {
  using V = typename S::value_type;
  const V c = S::con({}, {}, 0, 0, 0);
  if constexpr (constant_con<S> == ConstantCon::integer_sum) {
    using U = std::make_unsigned_t<V>;
    return static_cast<V>(static_cast<U>(static_cast<U>(c) * static_cast<U>(count)));
  } else {
    return c;
  }
}

// The semiring that counts the products reaching each entry (for the integer sum of a constant).
template <class S>
struct ProductCount {
  using a_type = typename S::a_type;
  using b_type = typename S::b_type;
  using value_type = uint32_t;
  static constexpr Monoid monoid = Monoid::sum;
  static constexpr bool reads_values = false;
  static constexpr bool positional = false;
  static constexpr bool has_terminal = false;
  static uint32_t con(a_type, b_type, long long, long long, long long) { return 1; }
  static uint32_t agg(uint32_t x, uint32_t y) { return x + y; }
  static uint32_t zero() { return 0; }
  static uint32_t terminal() { return 0; }
};

// B's rows with many entries, also held as bitmaps of n_cols bits: the structure of a product row
// takes such a row with one pass of vector ORs over n_cols / 64 words instead of a bit update per
// entry. In power-law graphs these few rows carry most products (kron:16: the 697 rows of n_cols / 256
// or more entries, 1% of the rows, carry 91% of the products of A * A).
//
// The counting product's numeric phase adds only the rows of n_cols / 128 entries or more whole (a
// pass over the bit-sliced counters costs about what scattering n_cols / 128 increments does: kron:16
// single-threaded, the phase takes 2.0 s so, 3.3 s with n_cols / 256, 4.0 s with n_cols / 512); the
// symbolic phase's pass is a single OR per word, which pays from n_cols / 256 entries on.
struct DenseRows {
  std::vector<int32_t> slot;    // per row of B: its bitmap's index, or -1
  std::vector<uint64_t> words;  // the bitmaps, words_per_row each
  size_t words_per_row = 0;
  int64_t counted_whole_degree = 0;  // the rows of at least this many entries the counting product adds whole

  const uint64_t* bits(int32_t s) const noexcept { return words.data() + static_cast<size_t>(s) * words_per_row; }
};

// The rows of B held as bitmaps: at least n_cols / 256 entries (and at least 64), so that each costs
// n_cols / 8 bytes, at most 32 bytes per entry it holds.
inline int64_t dense_row_degree(int64_t n_cols) noexcept { return std::max<int64_t>(64, n_cols / 256); }

template <class TB>
DenseRows dense_rows_of(const Csr<TB>& B) {
  DenseRows d;
  const int64_t m = B.n_cols();
  const int64_t threshold = dense_row_degree(m);
  d.words_per_row = static_cast<size_t>((m + 63) / 64);
  d.counted_whole_degree = std::max<int64_t>(64, m / 128);
  d.slot.assign(static_cast<size_t>(B.n_rows()), -1);
  int32_t count = 0;
  for (int64_t k = 0; k < B.n_rows(); ++k)
    if (B.row_degree(k) >= threshold && count < std::numeric_limits<int32_t>::max()) d.slot[static_cast<size_t>(k)] = count++;
  d.words.assign(static_cast<size_t>(count) * d.words_per_row, 0);
  const auto b_off = B.row_offsets();
  const auto b_col = B.col_indices();
#pragma omp parallel for schedule(dynamic, 16)
  for (int64_t k = 0; k < B.n_rows(); ++k) {
    const int32_t s = d.slot[static_cast<size_t>(k)];
    if (s < 0) continue;
    uint64_t* w = d.words.data() + static_cast<size_t>(s) * d.words_per_row;
    for (offset_t p = b_off[static_cast<size_t>(k)]; p < b_off[static_cast<size_t>(k) + 1]; ++p) {
      const auto j = static_cast<size_t>(b_col[static_cast<size_t>(p)]);
      w[j >> 6] |= uint64_t{1} << (j & 63);
    }
  }
  return d;
}

// Calls visit(pa, k) for each entry pa (column k) of A's row i, in order. B's rows are scattered, so
// the columns of the B row a nearer entry names are prefetched, and with prefetch_offsets also the
// offsets of a later entry's row.
template <bool prefetch_offsets, class TA, class TB, class Visit>
inline void for_each_row_entry(const Csr<TA>& A, const Csr<TB>& B, int64_t i, Visit&& visit) {
  const auto a_off = A.row_offsets();
  const auto a_col = A.col_indices();
  const auto b_off = B.row_offsets();
  const auto b_col = B.col_indices();
  const offset_t pa_end = a_off[static_cast<size_t>(i) + 1];
  for (offset_t pa = a_off[static_cast<size_t>(i)]; pa < pa_end; ++pa) {
    if constexpr (prefetch_offsets)
      if (pa + prefetch_far < pa_end)
        __builtin_prefetch(&b_off[static_cast<size_t>(a_col[static_cast<size_t>(pa + prefetch_far)])]);
    if (pa + prefetch_near < pa_end)
      __builtin_prefetch(&b_col[static_cast<size_t>(b_off[static_cast<size_t>(a_col[static_cast<size_t>(pa + prefetch_near)])])]);
    visit(pa, a_col[static_cast<size_t>(pa)]);
  }
}

// The structure of row i of A * B (no mask) into a bitmap accumulator, B's dense rows by bitmap.
template <class S, class Acc, class TA, class TB>
inline void accumulate_structure_row(Acc& acc, const Csr<TA>& A, const Csr<TB>& B, const DenseRows& dense,
                                     int64_t i) {
  const auto b_off = B.row_offsets();
  const auto b_col = B.col_indices();
  for_each_row_entry<false>(A, B, i, [&](offset_t, index_t k) {
    const int32_t s = dense.slot[static_cast<size_t>(k)];
    if (s >= 0) {
      acc.add_columns(dense.bits(s));
      return;
    }
    const offset_t pb_end = b_off[static_cast<size_t>(k) + 1];
    for (offset_t pb = b_off[static_cast<size_t>(k)]; pb < pb_end; ++pb)
      acc.template add<MaskMode::none, true>(b_col[static_cast<size_t>(pb)], [] { return typename S::value_type{}; });
  });
}

// Accumulates row i of A * B (under the mask row) into acc, which has begun the row.
template <class S, MaskMode mode, bool count_only, class Acc, class TA, class TB>
inline void accumulate_product_row(Acc& acc, const Csr<TA>& A, const Csr<TB>& B, const MatrixMask& mask,
                                   int64_t i) {
  using a_type = typename S::a_type;
  using b_type = typename S::b_type;
  if constexpr (mode != MaskMode::none)
    for (index_t j : mask.row(i)) acc.mark(j);
  const auto b_off = B.row_offsets();
  const auto b_col = B.col_indices();
  for_each_row_entry<true>(A, B, i, [&](offset_t pa, index_t k) {
    const a_type a = operand<S, a_type>(A, pa);
    const offset_t pb_end = b_off[static_cast<size_t>(k) + 1];
    for (offset_t pb = b_off[static_cast<size_t>(k)]; pb < pb_end; ++pb) {
      const index_t j = b_col[static_cast<size_t>(pb)];
      acc.template add<mode, count_only>(j, [&] { return S::con(a, operand<S, b_type>(B, pb), i, k, j); });
    }
  });
}

// Counts the products reaching each entry of row i of A * B (no mask) into acc, which has begun the
// row: B's dense rows whole, as bitmaps.
template <class TA, class TB>
inline void accumulate_count_row(CountAccumulator& acc, const Csr<TA>& A, const Csr<TB>& B, const DenseRows& dense,
                                 int64_t i) {
  const auto b_off = B.row_offsets();
  const auto b_col = B.col_indices();
  for_each_row_entry<true>(A, B, i, [&](offset_t, index_t k) {
    const offset_t pb_begin = b_off[static_cast<size_t>(k)], pb_end = b_off[static_cast<size_t>(k) + 1];
    const int32_t s = dense.slot.empty() ? -1 : dense.slot[static_cast<size_t>(k)];
    if (s >= 0 && pb_end - pb_begin >= dense.counted_whole_degree) {
      acc.add_bitmap(dense.bits(s));
      return;
    }
    for (offset_t pb = pb_begin; pb < pb_end; ++pb) acc.add(b_col[static_cast<size_t>(pb)]);
  });
}

// The products row i of A makes with B (a bound on its entries in A * B): the lengths of B's rows
// at row i's columns, summed.
inline int64_t row_products(std::span<const offset_t> a_off, std::span<const index_t> a_col,
                            std::span<const offset_t> b_off, int64_t i) {
  int64_t products = 0;
  for (offset_t p = a_off[static_cast<size_t>(i)]; p < a_off[static_cast<size_t>(i) + 1]; ++p) {
    const index_t k = a_col[static_cast<size_t>(p)];
    products += b_off[static_cast<size_t>(k) + 1] - b_off[static_cast<size_t>(k)];
  }
  return products;
}

template <class S, class TA, class TB>
Csr<typename S::value_type> spgemm(const Csr<TA>& A, const Csr<TB>& B, const MatrixMask& mask = {},
                                   const SpgemmOptions& options = {}, SpgemmStats* stats = nullptr) {
  using V = typename S::value_type;
  if (A.n_cols() != B.n_rows())
    throw Error(ErrorKind::usage, "mxm: inner dimensions differ (" + std::to_string(A.n_cols()) + " and " +
                                      std::to_string(B.n_rows()) + ")");
  const int64_t n = A.n_rows(), m = B.n_cols();
  check_mask_shape(mask, n, m, "mxm");
  const MaskMode mode = mask.mode();
  SpgemmStats timing;
  auto lap_start = std::chrono::steady_clock::now();
  // Adds the wall time since the previous lap to `phase`.
  const auto lap = [&](double& phase) {
    const auto now = std::chrono::steady_clock::now();
    phase += std::chrono::duration<double>(now - lap_start).count();
    lap_start = now;
  };

  // Row bounds, then their prefix sums (the work measure for the partition).
  std::vector<int64_t> prefix(static_cast<size_t>(n) + 1, 0);
  int64_t max_count = 0;  // no entry of C is reached by more products
  {
    const auto a_off = A.row_offsets();
    const auto a_col = A.col_indices();
    const auto b_off = B.row_offsets();
#pragma omp parallel for schedule(static, 1024) reduction(max : max_count)
    for (int64_t i = 0; i < n; ++i) {
      const int64_t bound = row_products(a_off, a_col, b_off, i);
      prefix[static_cast<size_t>(i) + 1] = bound;
      max_count = std::max(max_count, std::min(bound, a_off[static_cast<size_t>(i) + 1] - a_off[static_cast<size_t>(i)]));
    }
    for (int64_t i = 0; i < n; ++i) prefix[static_cast<size_t>(i) + 1] += prefix[static_cast<size_t>(i)];
  }

  constexpr ConstantCon kind = constant_con<S>;
  // A constant con known to make false leaves a pattern result empty.
  if constexpr (kind != ConstantCon::no && !stores_values<V>) {
    if (!S::con({}, {}, 0, 0, 0)) {
      if (stats) *stats = {.products = prefix[static_cast<size_t>(n)]};
      return Csr<V>(n, m);
    }
  }
  // A pattern result keeps only true entries, so counting needs the values (unless con is constant).
  constexpr bool count_needs_values = !stores_values<V> && kind == ConstantCon::no;

  const int n_threads = omp_get_max_threads();
  const auto borders = partition_by_work(prefix, int64_t{n_threads} * options.chunks_per_thread);
  const int64_t n_chunks = static_cast<int64_t>(borders.size()) - 1;
  lap(timing.seconds_bounds);
  Array<offset_t> offsets(static_cast<size_t>(n) + 1, 0);  // row sizes first, then offsets
  Array<index_t> cols;
  Array<storage_t<V>> values;
  int64_t rows_dense = 0, rows_hash = 0;
  std::exception_ptr failure;
  const auto keep_failure = [&] {
#pragma omp critical(gql_spgemm_failure)
    if (!failure) failure = std::current_exception();
  };

  // The distinct columns row i may hold, given its count (exact after the symbolic phase).
  const auto row_capacity = [&](int64_t i, int64_t count) {
    // Hash tables also hold the mask row's columns.
    if (mode == MaskMode::allow) return std::min(static_cast<int64_t>(mask.row(i).size()), m);
    if (mode == MaskMode::deny) return std::min(count + static_cast<int64_t>(mask.row(i).size()), m);
    return std::min(count, m);
  };

  // Runs phase(accumulator, i) for every row worth computing, in parallel, with hash accumulators of
  // the semiring SA (S itself, or the product counter) and dense ones of type DenseAcc.
  const auto for_each_row = [&]<class SA, class DenseAcc>(bool numeric, std::type_identity<SA>,
                                                          std::type_identity<DenseAcc>, auto&& phase) {
#pragma omp parallel num_threads(n_threads) reduction(+ : rows_dense, rows_hash)
    {
      std::optional<DenseAcc> dense;  // built on first use: n cells per thread
      HashAccumulator<SA> hash;
#pragma omp for schedule(dynamic, 1)
      for (int64_t c = 0; c < n_chunks; ++c) {
        try {
          for (int64_t i = borders[static_cast<size_t>(c)]; i < borders[static_cast<size_t>(c) + 1]; ++i) {
            const int64_t bound = prefix[static_cast<size_t>(i) + 1] - prefix[static_cast<size_t>(i)];
            if (bound == 0) continue;
            if (mode == MaskMode::allow && mask.row(i).empty()) continue;
            if (numeric && offsets[static_cast<size_t>(i) + 1] == offsets[static_cast<size_t>(i)]) continue;
            // The choice goes by the bound (the work); the hash table is sized by the capacity.
            const bool use_hash =
                options.accumulator == Accumulator::hash ||
                (options.accumulator == Accumulator::automatic &&
                 static_cast<double>(row_capacity(i, bound)) < options.hash_fraction * static_cast<double>(m));
            int64_t capacity = row_capacity(i, bound);
            if (numeric && !count_needs_values)
              capacity = row_capacity(i, offsets[static_cast<size_t>(i) + 1] - offsets[static_cast<size_t>(i)]);
            if (use_hash) {
              hash.begin_row(capacity);
              phase(hash, i);
            } else {
              if (!dense) dense.emplace(m);
              dense->begin_row();
              phase(*dense, i);
            }
            if (numeric) ++(use_hash ? rows_hash : rows_dense);
          }
        } catch (...) {
          keep_failure();
        }
      }
    }
    if (failure) std::rethrow_exception(failure);
  };

  with_mask_mode(mode, [&](auto mode_constant) {
    constexpr MaskMode M = decltype(mode_constant)::value;
    // Symbolic phase: the size of every row (B's dense rows by bitmap when structure is all it needs;
    // the counting numeric phase takes their presence the same way).
    DenseRows dense_rows;
    if constexpr (M == MaskMode::none && !count_needs_values) {
      if (options.accumulator != Accumulator::hash) dense_rows = dense_rows_of(B);
    }
    for_each_row(false, std::type_identity<S>{}, std::type_identity<BitmapAccumulator<S>>{}, [&](auto& acc, int64_t i) {
      if constexpr (M == MaskMode::none && !count_needs_values &&
                    std::is_same_v<std::remove_cvref_t<decltype(acc)>, BitmapAccumulator<S>>) {
        if (!dense_rows.slot.empty()) {
          accumulate_structure_row<S>(acc, A, B, dense_rows, i);
          offsets[static_cast<size_t>(i) + 1] = acc.take_count();
          return;
        }
      }
      accumulate_product_row<S, M, !count_needs_values>(acc, A, B, mask, i);
      if constexpr (count_needs_values) {
        offset_t count = 0;
        acc.emit([&](index_t, const storage_t<V>& x) { count += x ? 1 : 0; });
        offsets[static_cast<size_t>(i) + 1] = count;
      } else {
        offsets[static_cast<size_t>(i) + 1] = acc.size();
        acc.discard();
      }
    });
    // Exact sizes: the output is allocated once.
    for (int64_t i = 0; i < n; ++i) offsets[static_cast<size_t>(i) + 1] += offsets[static_cast<size_t>(i)];
    lap(timing.seconds_symbolic);
    // Both arrays are allocated by the calling thread (an allocation made by an OpenMP worker comes
    // from that thread's own malloc arena, which never keeps an array this large, so a program whose
    // allocator keeps freed memory would still get fresh pages for it) and left uninitialized
    // (gql/array.hpp): the threads that write the rows touch their pages first, in parallel.
    const auto total = static_cast<size_t>(offsets[static_cast<size_t>(n)]);
    reserve_on_huge_pages(cols, total);
    cols.resize(total);
    if constexpr (stores_values<V>) {
      reserve_on_huge_pages(values, total);
      values.resize(total);
    }
    lap(timing.seconds_allocate);
    index_t* const out_cols = cols.data();
    storage_t<V>* const out_values = values.data();
    const auto row_start = [&](int64_t i) { return static_cast<size_t>(offsets[static_cast<size_t>(i)]); };

    // Numeric phase: each row written in place, sorted by column.
    const auto general = [&] {
      for_each_row(true, std::type_identity<S>{}, std::type_identity<BitmapAccumulator<S>>{}, [&](auto& acc, int64_t i) {
        accumulate_product_row<S, M, false>(acc, A, B, mask, i);
        if constexpr (stores_values<V>) {
          acc.write(out_cols + row_start(i), out_values + row_start(i));
        } else {
          size_t p = row_start(i);
          acc.emit([&](index_t j, const storage_t<V>& x) {
            if (x) out_cols[p++] = j;
          });
        }
      });
    };
    if constexpr (kind == ConstantCon::idempotent) {
      // Every entry is c: the structure is the whole answer.
      const V c = S::con({}, {}, 0, 0, 0);
      for_each_row(true, std::type_identity<S>{}, std::type_identity<BitmapAccumulator<S>>{}, [&](auto& acc, int64_t i) {
        accumulate_product_row<S, M, true>(acc, A, B, mask, i);
        const auto q = row_start(i);
        if constexpr (stores_values<V>) std::fill_n(out_values + q, acc.size(), c);
        acc.write_columns(out_cols + q);
      });
    } else if constexpr (kind == ConstantCon::integer_sum) {
      if (max_count > int64_t{std::numeric_limits<uint32_t>::max()}) {
        general();  // a count could overflow 32 bits
      } else {
        using Counter = ProductCount<S>;
        using DenseCounter = std::conditional_t<M == MaskMode::none, CountAccumulator, BitmapAccumulator<Counter>>;
        for_each_row(true, std::type_identity<Counter>{}, std::type_identity<DenseCounter>{}, [&](auto& acc, int64_t i) {
          if constexpr (std::is_same_v<std::remove_cvref_t<decltype(acc)>, CountAccumulator>) {
            accumulate_count_row(acc, A, B, dense_rows, i);
          } else {
            accumulate_product_row<Counter, M, false>(acc, A, B, mask, i);
          }
          size_t p = row_start(i);
          acc.emit([&](index_t j, uint32_t count) {
            out_cols[p] = j;
            out_values[p++] = folded_constant<S>(count);
          });
        });
      }
    } else {
      general();
    }
  });
  lap(timing.seconds_numeric);
  if (stats) {
    *stats = timing;
    stats->products = prefix[static_cast<size_t>(n)];
    stats->rows_dense = rows_dense;
    stats->rows_hash = rows_hash;
    stats->nvals = static_cast<int64_t>(cols.size());
  }
  return Csr<V>(n, m, std::move(offsets), std::move(cols), std::move(values));
}

}  // namespace gql::cpu

// The index arithmetic of the hybrid sort, shared by the device sort (gql/device/spgemm/hybrid_sort.cuh,
// gql/device/spgemm/reduce_by_key.cuh) and its CPU model (test/support/hybrid_sort_model.hpp), so both run the
// very same network, merge-path splits and thread ranges. NVRTC-compatible.
#pragma once

#include "gql/device/types.cuh"

namespace gql::device::spgemm {

GQL_HD int next_pow2(int n) {
  int p = 1;
  while (p < n) p <<= 1;
  return p;
}

// One compare-exchange of the bitonic network: the smaller key goes to `lo`.
struct Comparator {
  int lo;
  int hi;
};

// Comparator `t` (0 <= t < padded/2) of the step with merge size `k` and distance `j` of a bitonic
// network in its one-direction form: for each k = 2, 4, ..., padded the first step (j = k/2) compares
// each element of a k-block with its mirror image, the following steps (j = k/4 ... 1) compare i with
// i + j. Every comparator puts the smaller key first, so a padding of +infinity at the tail never
// moves: comparators that reach into the padding (hi >= n) are skipped instead of storing padding.
GQL_HD Comparator bitonic_comparator(int k, int j, int t) {
  if (j == k / 2) {
    const int block = t / j, offset = t % j;
    return {block * k + offset, block * k + k - 1 - offset};
  }
  const int lo = (t / j) * 2 * j + t % j;
  return {lo, lo + j};
}

// Merge path: how many of the first `diagonal` outputs of merging a and b come from a, ties taken
// from a first (so merging is stable).
template <class Key>
GQL_HD int merge_path(const Key* a, int a_len, const Key* b, int b_len, int diagonal) {
  int lo = max_of(0, diagonal - b_len);
  int hi = min_of(diagonal, a_len);
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (!(b[diagonal - 1 - mid] < a[mid])) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// The contiguous range of `n` items that thread `t` of `threads` handles: equal shares of
// ceil(n / threads), the last ones possibly short or empty.
struct ThreadRange {
  int begin;
  int end;
};

GQL_HD ThreadRange thread_range(int n, int threads, int t) {
  const int share = ceil_div(n, threads);
  const int begin = min_of(n, t * share);
  return {begin, min_of(n, begin + share)};
}

// Writes outputs [begin, end) of the merge pass with run width `width` over src (n items): each pair
// of runs [s, s+width) and [s+width, s+2*width) is merged into dst at s; a range may cross pairs.
template <class Key, class Value>
GQL_HD void merge_range(const Key* src_keys, const Value* src_values, Key* dst_keys, Value* dst_values, int n,
                        int width, int begin, int end) {
  int pos = begin;
  while (pos < end) {
    const int pair = (pos / (2 * width)) * (2 * width);
    const int a_len = min_of(width, n - pair);
    const int b_len = min_of(width, n - pair - a_len);
    const Key* a = src_keys + pair;
    const Key* b = a + a_len;
    const Value* a_values = src_values + pair;
    const Value* b_values = a_values + a_len;
    const int stop = min_of(end, pair + a_len + b_len);
    int i = merge_path(a, a_len, b, b_len, pos - pair);
    int j = pos - pair - i;
    for (; pos < stop; ++pos) {
      if (j >= b_len || (i < a_len && !(b[j] < a[i]))) {
        dst_keys[pos] = a[i];
        dst_values[pos] = a_values[i];
        ++i;
      } else {
        dst_keys[pos] = b[j];
        dst_values[pos] = b_values[j];
        ++j;
      }
    }
  }
}

// A key starts a run of equal keys in a sorted buffer.
template <class Key>
GQL_HD bool is_run_head(const Key* keys, int i) {
  return i == 0 || keys[i - 1] < keys[i];
}

}  // namespace gql::device::spgemm

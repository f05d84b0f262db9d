// The pattern build by a radix partition on the rows. The entries are bucketed by row block (a row's
// top bits), each thread writing its own run of every block's bucket in order; then each block is
// built by one thread in its cache (the block's entries counted and placed by row, each row sorted and
// deduplicated) and its columns placed after the previous block's, over the partition's own array. No
// atomic increments, no writes to random places in memory, no array of the result's size allocated
// besides the partition: counting and scattering every entry into its row directly (an atomic
// increment per entry into 4 M rows at kron:22) took most of the build.
#include "build_pattern.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "gql/cpu/parallel.hpp"
#include "sort_unique_columns.hpp"

namespace gql::detail {
namespace {

constexpr int64_t entries_per_block = int64_t{1} << 16;  // about: a block's columns stay in the L2 cache
constexpr int64_t most_blocks_wanted = 4096;  // a thread fills every block's bucket at once
constexpr int64_t most_blocks_packed = 8192;  // smaller blocks than wanted, to pack entries in 32 bits
constexpr int max_block_bits = 16;  // a block's row counts stay small even where rows far outnumber entries

// Rows [b << bits, (b + 1) << bits) form block b. An entry travels through the partition as its row
// within the block above its column: in 32 bits where they fit (half the bytes written and read),
// else in 64.
struct Blocks {
  int bits = 0;
  int64_t count = 0;
  int column_bits = 0;  // columns are below 2^column_bits
  bool wide = false;    // 64-bit entries
  int64_t first_row(int64_t b) const { return b << bits; }
  int row_shift() const { return wide ? 32 : column_bits; }
  template <class Entry>
  Entry packed(index_t row, index_t col) const {
    const Entry row_in_block = static_cast<uint32_t>(row) & ((uint32_t{1} << bits) - 1);
    return static_cast<Entry>(row_in_block << row_shift()) | static_cast<uint32_t>(col);
  }
  template <class Entry>
  int64_t row_in_block(Entry entry) const {
    return static_cast<int64_t>(entry >> row_shift());
  }
  template <class Entry>
  index_t col_of(Entry entry) const {
    return static_cast<index_t>(entry & ((Entry{1} << row_shift()) - 1));
  }
};

Blocks choose_blocks(int64_t n_rows, int64_t n_cols, int64_t expected_entries) {
  const int row_bits = std::bit_width(static_cast<uint64_t>(n_rows - 1));
  const int column_bits = std::bit_width(static_cast<uint64_t>(std::max<int64_t>(n_cols - 1, 0)));
  const int64_t wanted = std::clamp<int64_t>(expected_entries / entries_per_block, 1, most_blocks_wanted);
  const int wanted_bits = std::bit_width(static_cast<uint64_t>(wanted)) - 1;
  const int bits = std::clamp(row_bits - wanted_bits, 0, max_block_bits);
  const int packed_bits = std::min(bits, 32 - column_bits);
  if (packed_bits >= 0 && (int64_t{1} << std::max(row_bits - packed_bits, 0)) <= most_blocks_packed)
    return {packed_bits, ((n_rows - 1) >> packed_bits) + 1, column_bits, false};
  return {bits, ((n_rows - 1) >> bits) + 1, column_bits, true};
}

// 32-bit entries are kept in an array of the columns' type: the columns are built in its place.
template <class Entry>
using Stored = std::conditional_t<sizeof(Entry) == sizeof(index_t), index_t, Entry>;

template <class Entry>
struct Partition {
  Array<Stored<Entry>> entries;      // grouped by block
  std::vector<int64_t> block_begin;  // block b's entries are [block_begin[b], block_begin[b + 1])
};

// Two reads of the edge list, each thread over the same share: the first counts its entries per
// block, the second writes them at its own place in each block's bucket.
template <class Entry>
Partition<Entry> partition_by_block(const Array<index_t>& rows, const Array<index_t>& cols, Blocks blocks,
                                    bool drop_loops, bool symmetrize) {
  const int64_t m = static_cast<int64_t>(rows.size());
  Partition<Entry> part;
  part.block_begin.assign(static_cast<size_t>(blocks.count) + 1, 0);
  // Each thread's counts, then its next place, per block; a line of padding keeps threads apart.
  const int64_t stride = blocks.count + 8;
  std::vector<int64_t> next;
#pragma omp parallel if (cpu::worth_threads(m))
  {
    const int64_t threads = omp_get_num_threads(), t = omp_get_thread_num();
#pragma omp single
    next.assign(static_cast<size_t>(stride * threads), 0);
    int64_t* mine = next.data() + stride * t;
    const int64_t begin = m * t / threads, end = m * (t + 1) / threads;
    const auto for_each_entry = [&](auto&& visit) {
      for (int64_t e = begin; e < end; ++e) {
        const index_t r = rows[e], c = cols[e];
        if (r == c && drop_loops) continue;
        visit(r, c);
        if (symmetrize && r != c) visit(c, r);
      }
    };
    for_each_entry([&](index_t r, index_t) { ++mine[r >> blocks.bits]; });
#pragma omp barrier
#pragma omp single
    {
      int64_t total = 0;
      for (int64_t b = 0; b < blocks.count; ++b) {
        part.block_begin[b] = total;
        for (int64_t u = 0; u < threads; ++u) total += std::exchange(next[stride * u + b], total);
      }
      part.block_begin[blocks.count] = total;
      part.entries = Array<Stored<Entry>>(static_cast<size_t>(total));  // every entry written below
    }
    Stored<Entry>* entries = part.entries.data();
    for_each_entry([&](index_t r, index_t c) {
      entries[mine[r >> blocks.bits]++] = static_cast<Stored<Entry>>(blocks.packed<Entry>(r, c));
    });
  }
  return part;
}

// Where each block's columns start, known in block order: a block's start follows from the blocks
// before it once all of them are built. Whichever thread finishes a block moves the known prefix on
// (one at a time; a thread that finds another moving it leaves the work to it, which looks again
// before it stops), so no thread waits for a slower block to be told where its columns go.
class BlockStarts {
 public:
  explicit BlockStarts(int64_t blocks) : kept_(static_cast<size_t>(blocks)), built_(static_cast<size_t>(blocks)),
                                         start_(static_cast<size_t>(blocks) + 1, 0) {}
  void built(int64_t b, int64_t kept) {
    kept_[b] = kept;
    built_[b].store(true);
    for (;;) {
      if (moving_.exchange(true)) return;
      int64_t next = known_.load();
      for (; next < static_cast<int64_t>(kept_.size()) && built_[next].load(); ++next)
        start_[next + 1] = start_[next] + kept_[next];
      known_.store(next);
      moving_.store(false);
      if (next == static_cast<int64_t>(kept_.size()) || !built_[next].load()) return;
    }
  }
  bool known(int64_t b) const { return b < known_.load(); }
  int64_t start(int64_t b) const { return start_[b]; }  // once known(b); start(blocks) once all are
 private:
  std::vector<int64_t> kept_;
  std::vector<std::atomic<bool>> built_;
  std::vector<int64_t> start_;
  std::atomic<int64_t> known_{0};
  std::atomic<bool> moving_{false};
};

// Builds every block's rows in the thread's cache (its entries counted and placed by row, each row
// sorted and deduplicated, the rows' lengths kept in row_offsets), then, once the block's start is
// known, copies its columns to `cols` and turns its rows' lengths into offsets. A thread keeps its
// built blocks until their starts are known and takes the next block meanwhile. `cols` may be the
// partition's own array: a block's columns end before the next block's entries begin, and every
// block before it has read its entries by the time its start is known. Returns the columns placed.
template <class Entry>
int64_t build_blocks(const Partition<Entry>& part, Blocks blocks, int64_t n_rows, offset_t* row_offsets, index_t* cols) {
  std::atomic<int64_t> next_block{0};
  BlockStarts starts(blocks.count);
  row_offsets[0] = 0;
#pragma omp parallel if (cpu::worth_threads(static_cast<int64_t>(part.entries.size()) + n_rows))
  {
    struct Built {
      int64_t block;
      Array<index_t> columns;
    };
    std::vector<Built> waiting;          // built, start not yet known
    std::vector<Array<index_t>> spare;   // buffers of placed blocks, for the next ones
    Array<index_t> scratch;              // the radix sort's, grown to the largest block this thread builds
    std::vector<int64_t> row_end(static_cast<size_t>(int64_t{1} << blocks.bits));
    const auto place_known = [&] {
      for (size_t k = 0; k < waiting.size();) {
        Built& w = waiting[k];
        if (!starts.known(w.block)) {
          ++k;
          continue;
        }
        offset_t offset = starts.start(w.block);
        std::copy(w.columns.data(), w.columns.data() + (starts.start(w.block + 1) - offset), cols + offset);
        const int64_t first_row = blocks.first_row(w.block);
        const int64_t last_row = std::min(n_rows, first_row + (int64_t{1} << blocks.bits));
        for (int64_t r = first_row; r < last_row; ++r) offset = row_offsets[r + 1] += offset;
        spare.push_back(std::move(w.columns));
        w = std::move(waiting.back());
        waiting.pop_back();
      }
    };
    for (int64_t b; (b = next_block.fetch_add(1, std::memory_order_relaxed)) < blocks.count;) {
      const int64_t first_row = blocks.first_row(b);
      const int64_t rows = std::min(n_rows - first_row, int64_t{1} << blocks.bits);
      const Stored<Entry>* entries = part.entries.data() + part.block_begin[b];
      const int64_t size = part.block_begin[b + 1] - part.block_begin[b];
      Array<index_t> columns;
      if (!spare.empty()) {
        columns = std::move(spare.back());
        spare.pop_back();
      }
      if (static_cast<int64_t>(columns.size()) < size) columns = Array<index_t>(static_cast<size_t>(size));
      if (static_cast<int64_t>(scratch.size()) < size) scratch = Array<index_t>(static_cast<size_t>(size));
      // A counting sort by row: counts, their sums, then each entry placed at its row's next slot,
      // which leaves row_end[i] at the end of row i.
      const auto entry = [&](int64_t k) { return static_cast<Entry>(entries[k]); };
      std::fill_n(row_end.begin(), rows, 0);
      for (int64_t k = 0; k < size; ++k) ++row_end[blocks.row_in_block(entry(k))];
      int64_t sum = 0;
      for (int64_t i = 0; i < rows; ++i) sum += std::exchange(row_end[i], sum);
      for (int64_t k = 0; k < size; ++k) columns[row_end[blocks.row_in_block(entry(k))]++] = blocks.col_of(entry(k));
      // Each row sorted and deduplicated, moved down to follow the rows before it; its length kept.
      int64_t count = 0, row_begin = 0;
      for (int64_t i = 0; i < rows; ++i) {
        index_t* begin = columns.data() + row_begin;
        index_t* end = sort_unique_columns(begin, columns.data() + row_end[i], scratch.data(), blocks.column_bits);
        std::copy(begin, end, columns.data() + count);
        row_offsets[first_row + i + 1] = end - begin;
        count += end - begin;
        row_begin = row_end[i];
      }
      waiting.push_back({b, std::move(columns)});
      starts.built(b, count);
      place_known();
    }
    while (!waiting.empty()) {  // the blocks before them are being built by other threads
      std::this_thread::yield();
      place_known();
    }
  }
  return starts.start(blocks.count);
}

// The columns in an array of their own size: the partition's array holds every entry before
// deduplication, so where many were repeated (a symmetric file symmetrized) they are copied out.
Array<index_t> fitted(Array<index_t>&& cols, int64_t count) {
  cols.resize(static_cast<size_t>(count));
  if (static_cast<int64_t>(cols.capacity()) - count <= count / 8) return std::move(cols);
  Array<index_t> copy(static_cast<size_t>(count));  // every entry written below
#pragma omp parallel for schedule(static) if (cpu::worth_threads(count))
  for (int64_t k = 0; k < count; ++k) copy[k] = cols[k];
  return copy;
}

template <class Entry>
PatternCsr build_by_blocks(Blocks blocks, int64_t n_rows, Array<index_t>&& rows, Array<index_t>&& cols,
                           bool drop_loops, bool symmetrize) {
  Partition<Entry> part = partition_by_block<Entry>(rows, cols, blocks, drop_loops, symmetrize);
  rows = {};
  cols = {};
  PatternCsr csr;
  csr.row_offsets = Array<offset_t>(static_cast<size_t>(n_rows) + 1);  // every row's end written by its block
  if constexpr (std::is_same_v<Stored<Entry>, index_t>) {
    const int64_t count = build_blocks(part, blocks, n_rows, csr.row_offsets.data(), part.entries.data());
    csr.col_indices = fitted(std::move(part.entries), count);
  } else {
    Array<index_t> placed(part.entries.size());  // the columns written below, at most one per entry
    const int64_t count = build_blocks(part, blocks, n_rows, csr.row_offsets.data(), placed.data());
    part = {};
    csr.col_indices = fitted(std::move(placed), count);
  }
  return csr;
}

}  // namespace

PatternCsr build_pattern(int64_t n_rows, int64_t n_cols, Array<index_t>&& rows, Array<index_t>&& cols, bool drop_loops,
                         bool symmetrize) {
  if (n_rows == 0) return {Array<offset_t>(1, 0), {}};
  const auto m = static_cast<int64_t>(rows.size());
  const Blocks blocks = choose_blocks(n_rows, n_cols, symmetrize ? 2 * m : m);
  if (blocks.wide)
    return build_by_blocks<uint64_t>(blocks, n_rows, std::move(rows), std::move(cols), drop_loops, symmetrize);
  return build_by_blocks<uint32_t>(blocks, n_rows, std::move(rows), std::move(cols), drop_loops, symmetrize);
}

}  // namespace gql::detail

// The BFS over the ranks' GPUs (include/gql/dist/device_bfs.hpp): each rank's kernels over its rows,
// the exchanges of the frontier's bits, and the level loop on the host (a few counters read per
// level, summed over MPI).
#include <algorithm>
#include <climits>
#include <cstddef>
#include <utility>
#include <vector>

#include "gql/device/traversal/frontier.hpp"
#include "gql/device/traversal/levels_vector.hpp"
#include "gql/dist/device_bfs.hpp"

namespace gql::dist {
namespace {

using gpu::detail::grid_for;
constexpr int block = device::traversal::traversal_block;  // the one-GPU traversals' block, so grid_for's
constexpr unsigned all_lanes = 0xffffffffu;
constexpr offset_t hub_degree = 4096;  // a push step spreads the out-edges of vertices with as many over the grid
constexpr unsigned hub_grid = 1024;    // blocks of push_hubs: a few per multiprocessor

// What a level's kernels count on this rank: the vertices it reached among its own, their out- and
// in-edges (the direction rule's inputs), and the in-edges a pull step read; and a push step's hubs.
struct LevelCounts {
  unsigned long long found, found_edges, found_in_edges, examined, hubs;
};

__device__ inline bool has_bit(const unsigned* words, long long v) { return (words[v >> 5] >> (v & 31)) & 1u; }

__device__ inline unsigned long long warp_sum(unsigned long long x) {
  for (int d = 16; d > 0; d /= 2) x += __shfl_down_sync(all_lanes, x, d);
  return x;
}

// x summed over the block, added to *total by one atomic per block (not one per warp: a pull step's
// hundreds of thousands of warps would queue on the one counter).
__device__ inline void add_block_total(unsigned long long x, unsigned long long* total) {
  __shared__ unsigned long long partial[block / 32];
  const int warp = static_cast<int>(threadIdx.x / 32), lane = static_cast<int>(threadIdx.x & 31);
  x = warp_sum(x);
  if (lane == 0) partial[warp] = x;
  __syncthreads();
  if (warp == 0) {
    x = warp_sum(lane < block / 32 ? partial[lane] : 0ull);
    if (lane == 0 && x > 0) atomicAdd(total, x);
  }
  __syncthreads();  // partial is free for the next total
}

// Levels unseen but the source's (0); the source alone visited and in the frontier.
__global__ void start_search(int* levels, long long n, unsigned* visited, unsigned* frontier, long long words,
                             long long source) {
  const long long stride = static_cast<long long>(gridDim.x) * block, last = n > words ? n : words;
  for (long long i = blockIdx.x * static_cast<long long>(block) + threadIdx.x; i < last; i += stride) {
    if (i < n) levels[i] = i == source ? 0 : INT_MAX;
    if (i < words) visited[i] = frontier[i] = i == (source >> 5) ? 1u << (source & 31) : 0u;
  }
}

// A warp per 32 of the rank's rows [begin, begin + count) (begin a multiple of 32), over the grid: an
// unseen vertex (a lane) is next when one of its in-edges comes from the frontier; the warp writes its
// word of `next` whole.
__global__ void pull_step(const offset_t* in_offsets, const index_t* in_columns, long long begin, long long count,
                          const unsigned* visited, const unsigned* frontier, unsigned* next, LevelCounts* counts) {
  const long long warps = static_cast<long long>(gridDim.x) * (block / 32), words = (count + 31) / 32;
  const int lane = static_cast<int>(threadIdx.x & 31);
  unsigned long long examined = 0;
  for (long long w = (blockIdx.x * static_cast<long long>(block) + threadIdx.x) / 32; w < words; w += warps) {
    const long long i = w * 32 + lane;
    const unsigned seen = visited[(begin >> 5) + w];
    bool found = false;
    if (seen != all_lanes && i < count && !((seen >> lane) & 1u)) {
      for (offset_t p = in_offsets[i]; p < in_offsets[i + 1]; ++p) {
        ++examined;
        if (has_bit(frontier, in_columns[p])) {
          found = true;
          break;
        }
      }
    }
    const unsigned word = __ballot_sync(all_lanes, found);
    if (lane == 0) next[(begin >> 5) + w] = word;
  }
  add_block_total(examined, &counts->examined);
}

// Out-edges of vertex i (of the rank's rows) from the p-th, every stride-th: their unseen heads marked.
__device__ inline void mark_heads(const offset_t* out_offsets, const index_t* out_columns, long long i, offset_t p,
                                  offset_t stride, const unsigned* visited, unsigned* marks) {
  for (p += out_offsets[i]; p < out_offsets[i + 1]; p += stride) {
    const index_t u = out_columns[p];
    if (!has_bit(visited, u)) atomicOr(&marks[u >> 5], 1u << (u & 31));
  }
}

// A warp per 32 of the rank's rows, over the grid: the frontier's among them mark their unseen heads in
// `marks`; those with hub_degree out-edges or more are queued in `hubs` for push_hubs (one warp would
// hold the whole step up).
__global__ void push_step(const offset_t* out_offsets, const index_t* out_columns, long long begin, long long count,
                          const unsigned* frontier, const unsigned* visited, unsigned* marks, long long* hubs,
                          unsigned long long* hub_count) {
  const long long warps = static_cast<long long>(gridDim.x) * (block / 32), words = (count + 31) / 32;
  const int lane = static_cast<int>(threadIdx.x & 31);
  for (long long w = (blockIdx.x * static_cast<long long>(block) + threadIdx.x) / 32; w < words; w += warps) {
    const long long first = w * 32;
    unsigned word = frontier[(begin + first) >> 5];
    if (count - first < 32) word &= (1u << (count - first)) - 1u;
    while (word != 0) {
      const long long i = first + __ffs(static_cast<int>(word)) - 1;
      word &= word - 1;
      if (out_offsets[i + 1] - out_offsets[i] >= hub_degree) {
        if (lane == 0) hubs[atomicAdd(hub_count, 1ull)] = i;
        continue;
      }
      mark_heads(out_offsets, out_columns, i, lane, 32, visited, marks);
    }
  }
}

// The queued hubs' out-edges spread over the whole grid, one hub after another.
__global__ void push_hubs(const offset_t* out_offsets, const index_t* out_columns, const long long* hubs,
                          const unsigned long long* hub_count, const unsigned* visited, unsigned* marks) {
  const offset_t stride = static_cast<offset_t>(gridDim.x) * block;
  for (unsigned long long h = 0; h < *hub_count; ++h)
    mark_heads(out_offsets, out_columns, hubs[h], blockIdx.x * static_cast<offset_t>(block) + threadIdx.x, stride,
               visited, marks);
}

// next = the ranks' marks or-ed (rank r's at parts + r * words).
__global__ void or_parts(const unsigned* parts, int ranks, long long words, unsigned* next) {
  const long long stride = static_cast<long long>(gridDim.x) * block;
  for (long long w = blockIdx.x * static_cast<long long>(block) + threadIdx.x; w < words; w += stride) {
    unsigned bits = 0;
    for (int r = 0; r < ranks; ++r) bits |= parts[static_cast<long long>(r) * words + w];
    next[w] = bits;
  }
}

// The level's new vertices (next's bits) visited at `depth` on every rank, a warp per word (a lane per
// vertex) over the grid; this rank counts its own [begin, end) and their out- and in-edges.
__global__ void settle(const unsigned* next, unsigned* visited, int* levels, int depth, long long words,
                       long long begin, long long end, const offset_t* out_offsets, const offset_t* in_offsets,
                       LevelCounts* counts) {
  const long long warps = static_cast<long long>(gridDim.x) * (block / 32);
  const int lane = static_cast<int>(threadIdx.x & 31);
  unsigned long long found = 0, found_edges = 0, found_in_edges = 0;
  for (long long w = (blockIdx.x * static_cast<long long>(block) + threadIdx.x) / 32; w < words; w += warps) {
    const unsigned bits = next[w] & ~visited[w];
    if (bits == 0) continue;
    __syncwarp();  // every lane read visited[w] before lane 0 writes it
    if (lane == 0) visited[w] |= bits;
    const long long v = w * 32 + lane;
    if (!((bits >> lane) & 1u)) continue;
    levels[v] = depth;
    if (v >= begin && v < end) {
      ++found;
      found_edges += static_cast<unsigned long long>(out_offsets[v - begin + 1] - out_offsets[v - begin]);
      found_in_edges += static_cast<unsigned long long>(in_offsets[v - begin + 1] - in_offsets[v - begin]);
    }
  }
  add_block_total(found, &counts->found);
  add_block_total(found_edges, &counts->found_edges);
  add_block_total(found_in_edges, &counts->found_in_edges);
}

// A graph's rows [begin, end) on the device, offsets from 0.
struct DeviceRows {
  DeviceBuffer<offset_t> offsets;
  DeviceBuffer<index_t> columns;
};

DeviceRows upload_rows(DeviceBfsRows::Rows rows, RowRange mine, const Stream& stream) {
  const auto at = [&](int64_t v) { return rows.offsets[static_cast<size_t>(v)]; };
  std::vector<offset_t> offsets(static_cast<size_t>(mine.size()) + 1);
  for (int64_t i = 0; i <= mine.size(); ++i) offsets[static_cast<size_t>(i)] = at(mine.begin + i) - at(mine.begin);
  DeviceRows out{DeviceBuffer<offset_t>(offsets.size()), DeviceBuffer<index_t>(static_cast<size_t>(offsets.back()))};
  out.offsets.upload(std::span<const offset_t>(offsets), stream);
  out.columns.upload(rows.columns.subspan(static_cast<size_t>(at(mine.begin)), out.columns.size()), stream);
  return out;
}

}  // namespace

RowRange bfs_rows(std::span<const offset_t> row_offsets, int ranks, int rank) {
  const auto n = static_cast<int64_t>(row_offsets.size()) - 1;
  const auto start = [&](int r) { return r >= ranks ? n : rows_by_work(row_offsets, ranks, r).begin / 32 * 32; };
  return {start(rank), start(rank + 1)};
}

struct DeviceBfsRows::Buffers {
  DeviceRows out, in;  // in: empty when the in-edges are the out-edges
  bool in_is_out = true;
  DeviceBuffer<unsigned> visited, frontier, next, marks;  // marks: every rank's push marks, joined
  DeviceBuffer<int> levels;
  DeviceBuffer<long long> hubs;  // a push step's frontier vertices of hub_degree out-edges or more
  DeviceBuffer<LevelCounts> counts;
  std::vector<int64_t> mark_offsets;  // rank r's marks, in bytes
  long long resident = 0;             // blocks the GPU holds at once: the cap of every kernel's grid

  const offset_t* in_offsets() const { return (in_is_out ? out : in).offsets.data(); }
  const index_t* in_columns() const { return (in_is_out ? out : in).columns.data(); }
};

DeviceBfsRows::DeviceBfsRows(const DeviceWorld& devices, Rows out, Rows in, int64_t nvals, const Stream& stream)
    : devices_(devices),
      n_(static_cast<int64_t>(out.offsets.size()) - 1),
      nvals_(nvals),
      mine_(bfs_rows(out.offsets, devices.world().size(), devices.world().rank())),
      buffers_(std::make_unique<Buffers>()) {
  const World& world = devices.world();
  const int ranks = world.size();
  const int64_t n = n_;
  const RowRange mine = mine_;
  const auto words = static_cast<size_t>(std::max<int64_t>((n + 31) / 32, 1));
  Buffers& b = *buffers_;
  world.on_every_rank([&] {
    b.out = upload_rows(out, mine, stream);
    b.in_is_out = in.columns.data() == out.columns.data();
    if (!b.in_is_out) b.in = upload_rows(in, mine, stream);
    b.visited = DeviceBuffer<unsigned>(words);
    b.frontier = DeviceBuffer<unsigned>(words);
    b.next = DeviceBuffer<unsigned>(words);
    b.marks = DeviceBuffer<unsigned>(words * static_cast<size_t>(ranks));
    b.levels = DeviceBuffer<int>(static_cast<size_t>(std::max<int64_t>(n, 1)));
    const int64_t most_hubs = static_cast<int64_t>(b.out.columns.size()) / hub_degree;
    b.hubs = DeviceBuffer<long long>(static_cast<size_t>(std::max<int64_t>(most_hubs, 1)));
    b.counts = DeviceBuffer<LevelCounts>(1);
    b.resident = gpu::detail::resident_blocks();
  });
  for (int r = 0; r <= ranks; ++r) {
    const int64_t first = r == ranks ? static_cast<int64_t>(words) : bfs_rows(out.offsets, ranks, r).begin / 32;
    word_offsets_.push_back(first * static_cast<int64_t>(sizeof(unsigned)));
    b.mark_offsets.push_back(static_cast<int64_t>(r) * static_cast<int64_t>(words * sizeof(unsigned)));
  }
}

DeviceBfsRows::~DeviceBfsRows() = default;

common::TraversalStats DeviceBfsRows::run(int64_t source, const common::DirectionOptions& options,
                                          const Stream& stream) {
  common::check_source(n_, source, "bfs");
  const World& world = devices_.world();
  Buffers& b = *buffers_;
  const cudaStream_t s = stream.get();
  const auto words = static_cast<long long>(b.visited.size());
  const long long count = mine_.size();
  const long long cap = b.resident;
  start_search<<<grid_for(std::max<long long>(n_, words), cap), block, 0, s>>>(b.levels.data(), n_, b.visited.data(),
                                                                              b.frontier.data(), words, source);
  GQL_CUDA_CHECK_LAUNCH();
  offset_t source_edges = 0;  // the source's out-edges: the first frontier's, on the source's rank
  if (source >= mine_.begin && source < mine_.end) {
    offset_t bounds[2];
    GQL_CUDA_CHECK(cudaMemcpyAsync(bounds, b.out.offsets.data() + (source - mine_.begin), sizeof bounds,
                                   cudaMemcpyDeviceToHost, s));
    stream.synchronize();
    source_edges = bounds[1] - bounds[0];
  }
  source_edges = world.sum(source_edges);
  common::DirectionChooser chooser(options);
  int64_t frontier_size = 1, frontier_edges = source_edges, open_edges = nvals_;
  common::TraversalStats total;
  reached_ = 1;
  for (int depth = 1;; ++depth) {
    const bool pull = chooser.pull(frontier_edges, open_edges, frontier_size, n_);
    GQL_CUDA_CHECK(cudaMemsetAsync(b.counts.data(), 0, sizeof(LevelCounts), s));
    if (pull) {
      if (count > 0) {
        pull_step<<<grid_for(count, cap), block, 0, s>>>(b.in_offsets(), b.in_columns(), mine_.begin, count,
                                                         b.visited.data(), b.frontier.data(), b.next.data(),
                                                         b.counts.data());
        GQL_CUDA_CHECK_LAUNCH();
      }
      devices_.join_parts(reinterpret_cast<std::byte*>(b.next.data()), word_offsets_, s);
      ++total.pull_steps;
    } else {
      unsigned* my_marks = b.marks.data() + static_cast<long long>(world.rank()) * words;
      GQL_CUDA_CHECK(cudaMemsetAsync(my_marks, 0, static_cast<size_t>(words) * sizeof(unsigned), s));
      if (count > 0) {
        push_step<<<grid_for(count, cap), block, 0, s>>>(b.out.offsets.data(), b.out.columns.data(), mine_.begin,
                                                         count, b.frontier.data(), b.visited.data(), my_marks,
                                                         b.hubs.data(), &b.counts.data()->hubs);
        GQL_CUDA_CHECK_LAUNCH();
        push_hubs<<<hub_grid, block, 0, s>>>(b.out.offsets.data(), b.out.columns.data(), b.hubs.data(),
                                             &b.counts.data()->hubs, b.visited.data(), my_marks);
        GQL_CUDA_CHECK_LAUNCH();
      }
      devices_.join_parts(reinterpret_cast<std::byte*>(b.marks.data()), b.mark_offsets, s);
      or_parts<<<grid_for(words, cap), block, 0, s>>>(b.marks.data(), world.size(), words, b.next.data());
      GQL_CUDA_CHECK_LAUNCH();
    }
    settle<<<grid_for(words * 32, cap), block, 0, s>>>(b.next.data(), b.visited.data(), b.levels.data(), depth, words,
                                                       mine_.begin, mine_.end, b.out.offsets.data(), b.in_offsets(),
                                                       b.counts.data());
    GQL_CUDA_CHECK_LAUNCH();
    const LevelCounts counted = read_back(b.counts.data(), stream);
    int64_t sums[] = {static_cast<int64_t>(counted.found), static_cast<int64_t>(counted.found_edges),
                      static_cast<int64_t>(counted.found_in_edges), static_cast<int64_t>(counted.examined)};
    world.sum(std::span<int64_t>(sums));
    const auto [found, found_edges, found_in_edges, examined] = sums;
    total.edges_examined += pull ? examined : frontier_edges;
    ++total.levels;
    if (found == 0) break;
    reached_ += found;
    total.searched_edges += found_edges;
    frontier_size = found;
    frontier_edges = found_edges;
    open_edges -= found_in_edges;
    std::swap(b.frontier, b.next);
  }
  total.searched_edges += source_edges;
  return total;
}

DeviceVector<int32_t> DeviceBfsRows::levels(const Stream& stream) const {
  return gpu::levels_vector(nullptr, buffers_->levels.data(), n_, reached_, stream);
}

}  // namespace gql::dist

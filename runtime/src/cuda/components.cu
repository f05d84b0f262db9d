// Components on the device (gql/device/traversal/components.hpp), as cpu::component_labels finds them:
// union-find in the way of Afforest. Each vertex is linked to its first two neighbours (a thread per
// vertex), the trees are compressed, the largest component is guessed from 1024 sampled vertices,
// and the vertices outside it link their remaining edges. A link hangs the larger root under the
// smaller by a compare-and-swap, so a finished tree's root is its component's smallest vertex.
#include <algorithm>
#include <cstdint>
#include <map>
#include <type_traits>
#include <vector>

#include "gql/device/traversal/components.hpp"
#include "small_launches.cuh"

namespace gql::gpu {
namespace {

using launches::block;
using launches::grid_for;

constexpr int sampled_neighbours = 2;
constexpr int samples = 1024;

// A parent as other threads last wrote it (no stale copy in this multiprocessor's cache).
__device__ inline index_t parent_of(const index_t* parent, index_t v) {
  return *static_cast<const volatile index_t*>(parent + v);
}

__device__ void link(index_t u, index_t v, index_t* parent) {
  index_t a = parent_of(parent, u), b = parent_of(parent, v);
  while (a != b) {
    const index_t high = max(a, b), low = min(a, b);
    const index_t up = parent_of(parent, high);
    if (up == low) return;  // already joined
    if (up == high && atomicCAS(parent + high, high, low) == high) return;
    a = parent_of(parent, parent_of(parent, high));
    b = parent_of(parent, low);
  }
}

__global__ void each_its_own(index_t* parent, long long n) {
  for (long long v = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; v < n;
       v += static_cast<long long>(gridDim.x) * blockDim.x)
    parent[v] = static_cast<index_t>(v);
}

// Links each vertex with degree > r to its r-th neighbour; adds how many it linked to `linked`.
__global__ void link_neighbour(const offset_t* offsets, const index_t* columns, long long n, int r, index_t* parent,
                               unsigned long long* linked) {
  unsigned long long mine = 0;
  for (long long u = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; u < n;
       u += static_cast<long long>(gridDim.x) * blockDim.x)
    if (offsets[u + 1] - offsets[u] > r) {
      link(static_cast<index_t>(u), columns[offsets[u] + r], parent);
      ++mine;
    }
  if (mine > 0) atomicAdd(linked, mine);
}

// Links the edges past the sampled ones of every vertex outside the component rooted at `largest`; adds
// how many it linked to `linked`.
__global__ void link_the_rest(const offset_t* offsets, const index_t* columns, long long n, index_t largest,
                              index_t* parent, unsigned long long* linked) {
  unsigned long long mine = 0;
  for (long long u = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; u < n;
       u += static_cast<long long>(gridDim.x) * blockDim.x) {
    if (parent_of(parent, static_cast<index_t>(u)) == largest) continue;
    for (offset_t p = offsets[u] + sampled_neighbours; p < offsets[u + 1]; ++p) {
      link(static_cast<index_t>(u), columns[p], parent);
      ++mine;
    }
  }
  if (mine > 0) atomicAdd(linked, mine);
}

__global__ void compress(index_t* parent, long long n) {
  for (long long v = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; v < n;
       v += static_cast<long long>(gridDim.x) * blockDim.x) {
    index_t up = parent_of(parent, static_cast<index_t>(v)), top;
    while ((top = parent_of(parent, up)) != up) {
      parent[v] = top;
      up = top;
    }
  }
}

__global__ void sample_parents(const index_t* parent, long long n, index_t* sampled) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= samples) return;
  // Spread over the vertices by a multiplicative hash of the sample's number (fixed: the guess only
  // decides how much work is skipped).
  const unsigned long long at = (static_cast<unsigned long long>(s) * 0x9e3779b97f4a7c15ULL) % static_cast<unsigned long long>(n);
  sampled[s] = parent[at];
}

// Clears *ok when an entry (i, j) has no mirror (j, i).
__global__ void find_unmirrored(const offset_t* offsets, const index_t* columns, long long n, long long nvals, int* ok) {
  for (long long p = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; p < nvals;
       p += static_cast<long long>(gridDim.x) * blockDim.x) {
    const auto i = static_cast<index_t>(launches::row_holding(offsets, n, p));
    const index_t j = columns[p];
    offset_t lo = offsets[j], hi = offsets[j + 1];
    while (lo < hi) {
      const offset_t mid = lo + (hi - lo) / 2;
      if (columns[mid] < i) lo = mid + 1;
      else hi = mid;
    }
    if (lo == offsets[j + 1] || columns[lo] != i) *ok = 0;
  }
}

// Counts the rows with entries into *rows; clears *ok when an entry of `indices` is at a row without.
__global__ void check_label_rows(const offset_t* offsets, long long n, const index_t* indices, long long nvals,
                                 unsigned long long* rows, int* ok) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  const long long first = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  unsigned long long mine = 0;
  for (long long v = first; v < n; v += stride) mine += offsets[v + 1] > offsets[v];
  if (mine > 0) atomicAdd(rows, mine);
  if (indices != nullptr)
    for (long long p = first; p < nvals; p += stride)
      if (offsets[indices[p] + 1] == offsets[indices[p]]) *ok = 0;
}

// Integer labels of any width as unsigned keys in the same order (signed: the sign bit flipped).
template <class Word>
__device__ inline unsigned long long key_of(Word w, bool is_signed) {
  if (!is_signed) return w;
  const auto wide = static_cast<long long>(static_cast<std::make_signed_t<Word>>(w));
  return static_cast<unsigned long long>(wide) ^ (1ULL << 63);
}
template <class Word>
__device__ inline Word word_of(unsigned long long key, bool is_signed) {
  return static_cast<Word>(is_signed ? key ^ (1ULL << 63) : key);
}

template <class Word>
__global__ void smallest_at_roots(const index_t* parent, const index_t* indices, const Word* values, long long nvals,
                                  bool is_signed, unsigned long long* smallest) {
  for (long long p = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; p < nvals;
       p += static_cast<long long>(gridDim.x) * blockDim.x) {
    const index_t v = indices != nullptr ? indices[p] : static_cast<index_t>(p);
    const unsigned long long key = key_of(values[p], is_signed);
    unsigned long long* at = smallest + parent[v];
    if (key < *at) atomicMin(at, key);  // most vertices find their root's minimum already there
  }
}

template <class Word>
__global__ void take_smallest(const index_t* parent, const index_t* indices, Word* values, long long nvals,
                              bool is_signed, const unsigned long long* smallest) {
  for (long long p = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; p < nvals;
       p += static_cast<long long>(gridDim.x) * blockDim.x) {
    const index_t v = indices != nullptr ? indices[p] : static_cast<index_t>(p);
    values[p] = word_of<Word>(smallest[parent[v]], is_signed);
  }
}

}  // namespace

namespace detail {

bool structure_symmetric(const offset_t* offsets, const index_t* columns, int64_t n, int64_t nvals,
                         const Stream& stream) {
  StreamBuffer<int> ok(1, stream);
  launches::write_one(ok.data(), 1, stream);
  if (nvals > 0) {
    find_unmirrored<<<grid_for(nvals), block, 0, stream.get()>>>(offsets, columns, n, nvals, ok.data());
    GQL_CUDA_CHECK_LAUNCH();
  }
  return launches::read_back(ok.data(), stream) != 0;
}

bool at_rows_with_edges(const offset_t* offsets, int64_t n, const index_t* indices, int64_t nvals,
                        const Stream& stream) {
  StreamBuffer<unsigned long long> rows(1, stream);
  StreamBuffer<int> ok(1, stream);
  memset_async(rows.data(), 0, sizeof(unsigned long long), stream);
  launches::write_one(ok.data(), 1, stream);
  if (n > 0) {
    check_label_rows<<<grid_for(std::max(n, nvals)), block, 0, stream.get()>>>(offsets, n, indices, nvals, rows.data(),
                                                                                ok.data());
    GQL_CUDA_CHECK_LAUNCH();
  }
  const auto with_edges = static_cast<int64_t>(launches::read_back(rows.data(), stream));
  return launches::read_back(ok.data(), stream) != 0 && with_edges == nvals;
}

int64_t component_roots(const offset_t* offsets, const index_t* columns, int64_t n, index_t* parent,
                        const Stream& stream) {
  if (n == 0) return 0;
  const unsigned grid = grid_for(n);
  StreamBuffer<unsigned long long> linked(1, stream);
  memset_async(linked.data(), 0, sizeof(unsigned long long), stream);
  each_its_own<<<grid, block, 0, stream.get()>>>(parent, n);
  GQL_CUDA_CHECK_LAUNCH();
  for (int r = 0; r < sampled_neighbours; ++r) {
    link_neighbour<<<grid, block, 0, stream.get()>>>(offsets, columns, n, r, parent, linked.data());
    GQL_CUDA_CHECK_LAUNCH();
    compress<<<grid, block, 0, stream.get()>>>(parent, n);
    GQL_CUDA_CHECK_LAUNCH();
  }
  // The most frequent root of the sample, counted on the host (1024 values).
  StreamBuffer<index_t> sampled(samples, stream);
  sample_parents<<<samples / block, block, 0, stream.get()>>>(parent, n, sampled.data());
  GQL_CUDA_CHECK_LAUNCH();
  std::vector<index_t> roots(samples);
  copy_async(roots.data(), sampled.data(), samples * sizeof(index_t), cudaMemcpyDeviceToHost, stream, __FILE__,
             __LINE__);
  stream.synchronize();
  std::map<index_t, int> seen;
  for (index_t r : roots) ++seen[r];
  const index_t largest =
      std::max_element(seen.begin(), seen.end(), [](const auto& x, const auto& y) { return x.second < y.second; })->first;

  link_the_rest<<<grid, block, 0, stream.get()>>>(offsets, columns, n, largest, parent, linked.data());
  GQL_CUDA_CHECK_LAUNCH();
  compress<<<grid, block, 0, stream.get()>>>(parent, n);
  GQL_CUDA_CHECK_LAUNCH();
  return static_cast<int64_t>(launches::read_back(linked.data(), stream));
}

void smallest_per_component(const index_t* parent, int64_t n, const index_t* indices, void* values,
                            size_t value_bytes, bool is_signed, int64_t nvals, const Stream& stream) {
  if (nvals == 0) return;
  StreamBuffer<unsigned long long> smallest(static_cast<size_t>(n), stream);
  memset_async(smallest.data(), 0xff, static_cast<size_t>(n) * sizeof(unsigned long long), stream);
  launches::with_word_of(value_bytes, "component_labels", [&](auto word) {
    using Word = decltype(word);
    auto* v = static_cast<Word*>(values);
    smallest_at_roots<Word><<<grid_for(nvals), block, 0, stream.get()>>>(parent, indices, v, nvals, is_signed,
                                                                          smallest.data());
    GQL_CUDA_CHECK_LAUNCH();
    take_smallest<Word><<<grid_for(nvals), block, 0, stream.get()>>>(parent, indices, v, nvals, is_signed,
                                                                      smallest.data());
    GQL_CUDA_CHECK_LAUNCH();
  });
  stream.synchronize();  // the scratch goes back to the pool; the next op may read on another stream
}

}  // namespace detail
}  // namespace gql::gpu

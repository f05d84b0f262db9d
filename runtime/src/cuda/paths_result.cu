// The device side of what single-source paths learn and hand back (gql/device/traversal/paths_result.hpp):
// a block-reduced pass over the weights, a warp per reached vertex over its out-edges, a CUB
// selection of the reached ids and a gather of their values. Each answer the host needs is one small
// read of pinned memory.
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <type_traits>

#include "../element_types.hpp"
#include "gql/device/traversal/paths_result.hpp"
#include "small_launches.cuh"

namespace gql::gpu {
namespace {

using launches::block;
using launches::grid_for;

struct Summary {
  double sum;
  int non_negative;
};

template <class T>
__global__ void summarize(const T* weights, long long count, Summary* out) {
  double sum = 0;
  int non_negative = 1;
  for (long long i = blockIdx.x * static_cast<long long>(block) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * block) {
    const T w = weights[i];
    sum += static_cast<double>(w);
    if constexpr (std::is_floating_point_v<T> || std::is_signed_v<T>)
      if (!(w >= T(0))) non_negative = 0;  // negative or NaN
  }
  using Reduce = cub::BlockReduce<double, block>;
  __shared__ typename Reduce::TempStorage storage;
  const double block_sum = Reduce(storage).Sum(sum);
  const int block_non_negative = __syncthreads_and(non_negative);
  if (threadIdx.x == 0) {
    atomicAdd(&out->sum, block_sum);
    if (!block_non_negative) atomicExch(&out->non_negative, 0);
  }
}

// A warp per vertex: a reached vertex's lanes stride its out-edges.
__global__ void check_out_neighbours(const offset_t* offsets, const index_t* columns, long long n,
                                     const unsigned char* reached, int* all_reached) {
  const int lane = threadIdx.x % 32;
  const long long warps = static_cast<long long>(gridDim.x) * (block / 32);
  for (long long v = (blockIdx.x * static_cast<long long>(block) + threadIdx.x) / 32; v < n; v += warps) {
    if (!reached[v]) continue;
    bool missing = false;
    for (offset_t p = offsets[v] + lane; p < offsets[v + 1]; p += 32) missing |= !reached[columns[p]];
    if (__any_sync(0xffffffffu, missing) && lane == 0) atomicExch(all_reached, 0);
  }
}

struct IsReached {
  const unsigned char* reached;
  __device__ bool operator()(index_t v) const { return reached[v] != 0; }
};

template <class Word>
__global__ void gather(Word* to, const Word* from, const index_t* ids, long long count) {
  for (long long i = blockIdx.x * static_cast<long long>(block) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * block)
    to[i] = from[ids[i]];
}

}  // namespace

template <class T>
WeightSummary summarize_weights(const T* weights, int64_t count, const Stream& stream) {
  if (count <= 0) return {};
  StreamBuffer<Summary> on_device(1, stream);
  launches::write_one(on_device.data(), Summary{0.0, 1}, stream);
  summarize<T><<<grid_for(count), block, 0, stream.get()>>>(weights, count, on_device.data());
  GQL_CUDA_CHECK_LAUNCH();
  const Summary summary = launches::read_back(on_device.data(), stream);
  return {summary.sum, summary.non_negative != 0};
}

#define GQL_SUMMARIZE_WEIGHTS(T) template WeightSummary summarize_weights<T>(const T*, int64_t, const Stream&);
GQL_FOR_EACH_ELEMENT_TYPE(GQL_SUMMARIZE_WEIGHTS)
#undef GQL_SUMMARIZE_WEIGHTS

bool every_out_neighbour_reached(const offset_t* offsets, const index_t* columns, int64_t n,
                                 const unsigned char* reached, const Stream& stream) {
  if (n <= 0) return true;
  StreamBuffer<int> on_device(1, stream);
  launches::write_one(on_device.data(), 1, stream);
  check_out_neighbours<<<grid_for(n * 32), block, 0, stream.get()>>>(offsets, columns, n, reached, on_device.data());
  GQL_CUDA_CHECK_LAUNCH();
  return launches::read_back(on_device.data(), stream) != 0;
}

namespace detail {

int64_t select_reached(const unsigned char* reached, int64_t n, index_t* ids, const Stream& stream) {
  const cudaStream_t s = stream.get();
  const thrust::counting_iterator<index_t> all(0);
  StreamBuffer<long long> count_on_device(1, stream);
  size_t bytes = 0;
  GQL_CUDA_CHECK(cub::DeviceSelect::If(nullptr, bytes, all, ids, count_on_device.data(), n, IsReached{reached}, s));
  StreamBuffer<unsigned char> scratch(std::max<size_t>(bytes, 1), stream);
  GQL_CUDA_CHECK(
      cub::DeviceSelect::If(scratch.data(), bytes, all, ids, count_on_device.data(), n, IsReached{reached}, s));
  return launches::read_back(count_on_device.data(), stream);
}

void gather_elements(void* to, const void* from, const index_t* ids, int64_t count, size_t bytes,
                     const Stream& stream) {
  launches::with_word_of(bytes, "gather_elements", [&](auto word) {
    using Word = decltype(word);
    gather<<<grid_for(count), block, 0, stream.get()>>>(static_cast<Word*>(to), static_cast<const Word*>(from), ids,
                                                        count);
    GQL_CUDA_CHECK_LAUNCH();
  });
}

}  // namespace detail
}  // namespace gql::gpu

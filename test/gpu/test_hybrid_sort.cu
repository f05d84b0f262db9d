// The device hybrid sort and reduce-by-key against std::sort and against their CPU model, which
// must match the device bit for bit (same network, same merge splits, same fold order).
#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "gpu_check.hpp"
#include "hybrid_sort_model.hpp"
#include "gql/device/spgemm/hybrid_sort.cuh"
#include "gql/device/spgemm/reduce_by_key.cuh"

namespace {

using gql::DeviceBuffer;
using gql::Stream;

struct SumAgg {
  __host__ __device__ unsigned long long operator()(unsigned long long a, unsigned long long b) const {
    return a + b;
  }
};

// One block per segment: sort it in place (ping-pong with the alternate buffers), then reduce by key.
template <int Threads, int Chunk>
__global__ void sort_and_reduce_segments(const long long* segment_offsets, int* keys, unsigned long long* values,
                                         int* keys_alt, unsigned long long* values_alt, int* out_keys,
                                         unsigned long long* out_values, int* runs, unsigned char* result_in_alt) {
  using Sort = gql::device::spgemm::BlockHybridSort<Threads, Chunk, int, unsigned long long>;
  using Reduce = gql::device::spgemm::BlockReduceByKey<Threads, int, unsigned long long>;
  __shared__ typename Sort::TempStorage sort_storage;
  __shared__ typename Reduce::TempStorage reduce_storage;
  const long long begin = segment_offsets[blockIdx.x];
  const int n = static_cast<int>(segment_offsets[blockIdx.x + 1] - begin);
  const bool in_alt = Sort::sort(keys + begin, values + begin, keys_alt + begin, values_alt + begin, n, sort_storage);
  const int count = Reduce::reduce(in_alt ? keys_alt + begin : keys + begin, in_alt ? values_alt + begin : values + begin,
                                   n, out_keys + begin, out_values + begin, SumAgg{}, reduce_storage);
  if (threadIdx.x == 0) {
    runs[blockIdx.x] = count;
    result_in_alt[blockIdx.x] = in_alt ? 1 : 0;
  }
}

std::vector<int> test_lengths(bool small) {
  if (small) return {1, 2, 3, 7, 64, 65, 257, 1000, 2049, 5000};
  std::vector<int> lengths;
  for (int n = 1; n <= 300; ++n) lengths.push_back(n);
  for (int n : {511, 512, 513, 1023, 1024, 1025, 2047, 2048, 2049, 3000, 4095, 4096, 4097, 6144, 8191, 8193, 10000,
                16384, 16385, 33333, 50000, 65535, 65536, 65537, 99999, 100000})
    lengths.push_back(n);
  return lengths;
}

int key_for(int pattern, int i, int n, std::mt19937_64& rng) {
  switch (pattern) {
    case 0: return static_cast<int>(rng() % 2000003);       // random
    case 1: return static_cast<int>(rng() % 13);            // many duplicates
    case 2: return 7;                                       // all equal
    case 3: return i;                                       // sorted
    default: return n - i;                                  // reversed
  }
}

template <int Threads, int Chunk>
void check_config(int pattern) {
  const std::vector<int> lengths = test_lengths(gql::gpu_test::small_inputs());
  std::vector<long long> offsets{0};
  for (int n : lengths) offsets.push_back(offsets.back() + n);
  const size_t total = static_cast<size_t>(offsets.back());
  std::mt19937_64 rng(1234 + pattern);
  std::vector<int> keys(total);
  std::vector<unsigned long long> values(total);
  for (size_t s = 0; s < lengths.size(); ++s)
    for (int i = 0; i < lengths[s]; ++i) {
      keys[offsets[s] + i] = key_for(pattern, i, lengths[s], rng);
      values[offsets[s] + i] = rng() % 1000;
    }

  Stream stream;
  DeviceBuffer<long long> d_offsets(offsets.size());
  DeviceBuffer<int> d_keys(total), d_keys_alt(total), d_out_keys(total), d_runs(lengths.size());
  DeviceBuffer<unsigned long long> d_values(total), d_values_alt(total), d_out_values(total);
  DeviceBuffer<unsigned char> d_in_alt(lengths.size());
  d_offsets.copy_from_host(offsets, stream);
  d_keys.copy_from_host(keys, stream);
  d_values.copy_from_host(values, stream);
  sort_and_reduce_segments<Threads, Chunk><<<static_cast<unsigned>(lengths.size()), Threads, 0, stream.get()>>>(
      d_offsets.data(), d_keys.data(), d_values.data(), d_keys_alt.data(), d_values_alt.data(), d_out_keys.data(),
      d_out_values.data(), d_runs.data(), d_in_alt.data());
  GQL_CUDA_CHECK_LAUNCH();
  std::vector<int> g_keys(total), g_keys_alt(total), g_out_keys(total), g_runs(lengths.size());
  std::vector<unsigned long long> g_values(total), g_values_alt(total), g_out_values(total);
  std::vector<unsigned char> g_in_alt(lengths.size());
  d_keys.copy_to_host(g_keys, stream);
  d_keys_alt.copy_to_host(g_keys_alt, stream);
  d_values.copy_to_host(g_values, stream);
  d_values_alt.copy_to_host(g_values_alt, stream);
  d_out_keys.copy_to_host(g_out_keys, stream);
  d_out_values.copy_to_host(g_out_values, stream);
  d_runs.copy_to_host(g_runs, stream);
  d_in_alt.copy_to_host(g_in_alt, stream);
  stream.synchronize();

  const std::string config = "threads=" + std::to_string(Threads) + " chunk=" + std::to_string(Chunk) +
                             " pattern=" + std::to_string(pattern);
  for (size_t s = 0; s < lengths.size(); ++s) {
    const int n = lengths[s];
    const size_t b = static_cast<size_t>(offsets[s]);
    const std::string where = config + " n=" + std::to_string(n);
    std::vector<int> ref_keys(keys.begin() + b, keys.begin() + b + n);
    std::sort(ref_keys.begin(), ref_keys.end());
    // The CPU model on the same input must give the same permutation.
    std::vector<int> m_keys(keys.begin() + b, keys.begin() + b + n), m_keys_alt(n);
    std::vector<unsigned long long> m_values(values.begin() + b, values.begin() + b + n), m_values_alt(n);
    const bool m_in_alt = gql::device::spgemm::hybrid_sort_model<Threads, Chunk>(
        std::span<int>(m_keys), std::span<unsigned long long>(m_values), std::span<int>(m_keys_alt),
        std::span<unsigned long long>(m_values_alt));
    const std::vector<int>& g_k = g_in_alt[s] ? g_keys_alt : g_keys;
    const std::vector<unsigned long long>& g_v = g_in_alt[s] ? g_values_alt : g_values;
    const std::vector<int>& mk = m_in_alt ? m_keys_alt : m_keys;
    const std::vector<unsigned long long>& mv = m_in_alt ? m_values_alt : m_values;
    GPU_CHECK_MSG((g_in_alt[s] != 0) == m_in_alt, where);
    bool sorted_ok = true, model_ok = true;
    for (int i = 0; i < n; ++i) {
      sorted_ok = sorted_ok && g_k[b + i] == ref_keys[i];
      model_ok = model_ok && g_k[b + i] == mk[i] && g_v[b + i] == mv[i];
    }
    GPU_CHECK_MSG(sorted_ok, where + ": keys differ from std::sort");
    GPU_CHECK_MSG(model_ok, where + ": permutation differs from the CPU model");
    // Reduce-by-key: sums per key.
    std::map<int, unsigned long long> sums;
    for (int i = 0; i < n; ++i) sums[keys[b + i]] += values[b + i];
    bool reduce_ok = g_runs[s] == static_cast<int>(sums.size());
    int r = 0;
    for (auto& [k, v] : sums) {
      if (!reduce_ok) break;
      reduce_ok = g_out_keys[b + r] == k && g_out_values[b + r] == v;
      ++r;
    }
    GPU_CHECK_MSG(reduce_ok, where + ": reduce-by-key differs from the reference sums");
  }
}

}  // namespace

int main(int argc, char** argv) {
  return gql::gpu_test::run_main(argc, argv, "test_hybrid_sort", [] {
    for (int pattern = 0; pattern < 5; ++pattern) {
      check_config<256, 2048>(pattern);
      check_config<128, 256>(pattern);
      check_config<32, 64>(pattern);
    }
  });
}

// The closure benchmarks' input: a random digraph with about 16 edges per vertex, weights 1..100, as a
// dense n x n matrix of leading dimension ld (min_plus: 0 on the diagonal, no path elsewhere), made
// on the device. Shared by bench_gpu_closure and bench/dist/bench_dist_closure_gpu.
#pragma once

#include "../../test/gpu/test_closure_semirings.hpp"

namespace closure_bench {

template <class T>
__global__ void random_graph(T* d, long long n, long long ld) {
  const long long e = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (e >= n * ld) return;
  const long long i = e / ld, j = e % ld;
  unsigned long long h = static_cast<unsigned long long>(e) * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
  h ^= h >> 31;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 29;
  const bool edge = j < n && h % static_cast<unsigned long long>(n) < 16;
  d[e] = i == j ? T{0} : edge ? static_cast<T>(h % 100 + 1) : closure_semirings::MinPlus<T>::zero();
}

}  // namespace closure_bench

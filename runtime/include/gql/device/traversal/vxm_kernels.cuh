// The push side of w<mask> = v * G over any semiring S on the device: the frontier's out-edges,
// mapped to threads by a LoadBalance (frontier.cuh; edge-balanced by default), each product S::con(v(k), G(k, j), 0, k, j) combined into a dense
// accumulator cell with an atomic agg (semiring_atomics.cuh) where the mask allows column j.
// NVRTC-compatible.
#pragma once

#include "gql/device/traversal/frontier.cuh"
#include "gql/device/semiring_atomics.cuh"
#include "gql/integer_ops.hpp"

namespace gql::device::traversal {

// Element conversion as the language defines it (a number to bool is != 0, a float to an integer
// saturates).
template <class To, class From>
__device__ __forceinline__ To convert_element(From x) {
  if constexpr (is_same<To, bool>::value) return x != From{};
  else return convert_number<To>(x);
}

template <int Threads, class V>
__global__ void __launch_bounds__(Threads) vxm_clear(V* accumulator, unsigned char* present, long long n, V zero) {
  for (long long j = blockIdx.x * static_cast<long long>(Threads) + threadIdx.x; j < n;
       j += static_cast<long long>(gridDim.x) * Threads) {
    accumulator[j] = zero;
    present[j] = 0;
  }
}

// frontier[i] (a row k of G with at least one entry) holds frontier_values[i]; its edges are
// mapped to threads as Balance says (scan and total_edges as for bfs_push). allowed: a byte per column
// (null: every column).
template <int Threads, LoadBalance Balance, class S, class TV, class TG>
__global__ void __launch_bounds__(Threads)
    vxm_push(CsrView<TG> g, const index_t* frontier, const storage_t<TV>* frontier_values, const long long* scan,
             long long frontier_size, long long total_edges, const unsigned char* allowed,
             typename S::value_type* accumulator, unsigned char* present) {
  using A = typename S::a_type;
  using B = typename S::b_type;
  for_each_frontier_edge<Threads, Balance>(
      g.row_offsets, frontier, frontier_size, scan, total_edges, [&](bool active, long long i, offset_t p) {
        if (!active) return;
        const index_t k = frontier[i];
        const index_t j = g.col_indices[p];
        if (allowed != nullptr && allowed[j] == 0) return;
        A a{};
        B b{};
        if constexpr (S::reads_values) {
          a = convert_element<A>(static_cast<TV>(frontier_values[i]));
          b = convert_element<B>(g.value_at(p));
        }
        atomic_agg<S>(accumulator + j, S::con(a, b, 0, k, j));
        present[j] = 1;
      });
}

}  // namespace gql::device::traversal

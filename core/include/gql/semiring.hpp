// The shape of a semiring as every kernel template sees it (CPU and GPU alike).
//
// The code generator writes one struct per semiring instantiation of a spec; kernel templates take
// it as a template parameter, so con and agg are inlined (no function pointers, no type switches).
// This header includes nothing, so NVRTC compiles it as it is.
//
//   struct paths_bool_bool_u64 {
//     using a_type = bool;                       // left operand element  (row i, column k)
//     using b_type = bool;                       // right operand element (row k, column j)
//     using value_type = unsigned long long;     // what con makes and agg combines
//     static constexpr gql::Monoid monoid = gql::Monoid::sum;  // builtin monoid, or Monoid::user
//     static constexpr bool reads_values = false;   // con reads a or b (false: value-free kernel)
//     static constexpr bool positional = false;     // con reads i, k or j
//     static constexpr bool con_reads_k = false;    // con reads k (see con_reads_position_k)
//     static constexpr bool has_terminal = false;   // agg(x, terminal()) == terminal(): stop early
//     GQL_HD static value_type con(a_type a, b_type b, long long i, long long k, long long j);
//     GQL_HD static value_type agg(value_type x, value_type y);
//     GQL_HD static value_type zero();              // identity of agg
//     GQL_HD static value_type terminal();          // only meaningful when has_terminal
//   };
#pragma once

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define GQL_HD __host__ __device__ __forceinline__
#define GQL_DEVICE __device__ __forceinline__
#else
#define GQL_HD inline
#define GQL_DEVICE inline
#endif
// An element function's lambda that device code calls too (nvcc's --extended-lambda).
#if defined(__CUDACC__)
#define GQL_LAMBDA_HD __host__ __device__
#else
#define GQL_LAMBDA_HD
#endif

namespace gql {

// The builtin monoids of the language. Kernels pick native atomics and early exits from it;
// `user` means a user-written agg (a CAS loop on the GPU, the plain call on the CPU).
enum class Monoid { sum, prod, min, max, lor, land, any, user };

// Whether the policy S is plus_times over its value type (con(a, b) = a * b on operands of that type,
// agg = sum), so that a product may run as a vendor GEMM (OpenBLAS, cuBLAS). The code generator
// declares `static constexpr bool con_multiplies = true` in such policies only.
template <class S>
constexpr bool is_plus_times() {
  if constexpr (requires { S::con_multiplies; }) return S::con_multiplies && S::monoid == Monoid::sum;
  else return false;
}

// Whether con reads k, the position a product's terms run over: where it reads neither k nor an
// operand, every term into one entry is the same value. Generated policies say so in
// `con_reads_k`; a policy that does not say is taken to read k.
template <class S>
constexpr bool con_reads_position_k() {
  if constexpr (requires { S::con_reads_k; }) return S::con_reads_k;
  else return true;
}

}  // namespace gql

// The product shapes whose host driver and type-dependent kernels the runtime library holds
// precompiled. Host code built without nvcc (the JIT's, whose semiring kernels come from NVRTC) can
// multiply these shapes only; the JIT builds a spec with any other shape through nvcc.
#pragma once

#include <cstdint>
#include <string_view>

// mxm (gql::gpu::masked_product): X(A, B, V, S) with A's and B's element types, the values as the
// device stores them (bytes for bool) and the semiring's value type, spelled as the code generator
// spells the types.
#define GQL_SPGEMM_PRECOMPILED_SHAPES(X)      \
  X(bool, bool, unsigned char, bool)          \
  X(bool, bool, int32_t, int32_t)             \
  X(bool, bool, int64_t, int64_t)             \
  X(bool, bool, uint32_t, uint32_t)           \
  X(bool, bool, uint64_t, uint64_t)           \
  X(bool, bool, float, float)                 \
  X(bool, bool, double, double)               \
  X(int32_t, int32_t, int32_t, int32_t)       \
  X(int64_t, int64_t, int64_t, int64_t)       \
  X(uint32_t, uint32_t, uint32_t, uint32_t)   \
  X(uint64_t, uint64_t, uint64_t, uint64_t)   \
  X(float, float, float, float)               \
  X(double, double, double, double)

// vxm and mxv (gql::gpu::vxm_into, mxv_into): X(TV, TG, V, TW) with the vector's and the graph's
// element types, the semiring's values and the result's element type.
#define GQL_VXM_PRECOMPILED_SHAPES(X)       \
  X(bool, bool, bool, bool)                 \
  X(bool, bool, int32_t, int32_t)           \
  X(bool, bool, int64_t, int64_t)           \
  X(bool, bool, uint64_t, uint64_t)         \
  X(bool, bool, float, float)               \
  X(bool, bool, double, double)             \
  X(int32_t, bool, int32_t, int32_t)        \
  X(int64_t, bool, int64_t, int64_t)        \
  X(float, bool, float, float)              \
  X(double, bool, double, double)           \
  X(int32_t, int32_t, int32_t, int32_t)     \
  X(int64_t, int64_t, int64_t, int64_t)     \
  X(float, float, float, float)             \
  X(double, double, double, double)

namespace gql {

// Whether the library holds the product of a semiring over (a_type, b_type) -> value_type into a
// graph of value_type (types named as in GQL_SPGEMM_PRECOMPILED_SHAPES).
bool spgemm_shape_precompiled(std::string_view a_type, std::string_view b_type, std::string_view value_type);

// Whether the library holds the vector product of a semiring with `value_type` values over vectors of
// `vector_type` and graphs of `graph_type`, into a vector of `result_type`.
bool vxm_shape_precompiled(std::string_view vector_type, std::string_view graph_type, std::string_view value_type,
                           std::string_view result_type);

}  // namespace gql

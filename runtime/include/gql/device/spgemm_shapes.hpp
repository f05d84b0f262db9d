// The product shapes (A's, B's and C's element types, as the device stores C: bytes for bool) whose
// host driver and type-dependent kernels the runtime library holds precompiled. Host code built
// without nvcc (the JIT's, whose semiring kernels come from NVRTC) can multiply these shapes only;
// the JIT builds a spec with any other shape through nvcc.
#pragma once

#include <cstdint>
#include <string_view>

// X(A, B, V) for each shape; the names are spelled as the code generator spells the types.
#define GQL_SPGEMM_PRECOMPILED_SHAPES(X) \
  X(bool, bool, unsigned char)           \
  X(bool, bool, int32_t)                 \
  X(bool, bool, int64_t)                 \
  X(bool, bool, uint32_t)                \
  X(bool, bool, uint64_t)                \
  X(bool, bool, float)                   \
  X(bool, bool, double)                  \
  X(int32_t, int32_t, int32_t)           \
  X(int64_t, int64_t, int64_t)           \
  X(uint32_t, uint32_t, uint32_t)        \
  X(uint64_t, uint64_t, uint64_t)        \
  X(float, float, float)                 \
  X(double, double, double)

namespace gql {

// Whether the library holds the shape (types named as in GQL_SPGEMM_PRECOMPILED_SHAPES).
bool spgemm_shape_precompiled(std::string_view a_type, std::string_view b_type, std::string_view value_type);

}  // namespace gql

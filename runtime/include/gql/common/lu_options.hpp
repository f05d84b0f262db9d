// The options of a generated lu(A) op, shared by the OpenMP (cpu/ops.hpp) and GPU
// (device/dense/lu_factor.hpp) targets: written from the kernel's schedule.
#pragma once

#include <cstdint>

namespace gql::common {

struct LuOptions {
  int64_t tile = 128;        // the panel width
  bool vendor_gemm = true;   // the trailing update by BLAS (OpenBLAS, cuBLAS) gemm
  int threads = 0;           // OpenMP threads (0: all)
  const char* label;
};

}  // namespace gql::common

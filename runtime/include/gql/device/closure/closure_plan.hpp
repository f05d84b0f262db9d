// How a closure runs on the GPU: the options a caller or a generated schedule gives, and the plan
// they resolve to for an n x n matrix under the device memory budget (which kernel design, tile sizes,
// in core or streamed). Host code; compiles with nvcc or a host compiler. The driver that carries a
// plan out is gql/device/closure/closure.hpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "gql/closure_variants.hpp"
#include "gql/device.hpp"
#include "gql/device/closure/closure_shapes.cuh"
#include "gql/error.hpp"

namespace gql::gpu {

enum class ClosureKernel { global_memory, shared_tiles, register_tiles };
enum class OutOfCore { automatic, on, off };

// A thread's outputs in the register-tiled GEMM: 8x8 or 8x16 (4-byte values at most).
struct RegisterTile {
  int rows = 8;
  int cols = 8;
  friend bool operator==(const RegisterTile&, const RegisterTile&) = default;
  std::string text() const { return std::to_string(rows) + "x" + std::to_string(cols); }
};

struct DeviceClosureOptions {
  ClosureKernel kernel = ClosureKernel::register_tiles;
  int tile = 0;        // k-block edge: 32, 64, 128 or 256 (register_tiles), 32 or 64 (shared_tiles);
                       // 0: the default (resolve_defaults)
  RegisterTile register_tile = {0, 0};  // register_tiles: 8x8 or 8x16; {0, 0}: the default
  int per_thread = 4;  // shared_tiles: entries per thread (tile 32: 1, 2, 4; tile 64: 4, 8)
  bool spread = true;  // shared_tiles: a thread's rows strided (true) or contiguous
  OutOfCore out_of_core = OutOfCore::automatic;
  int streams = 3;     // out of core: streams (at least 2)
  bool dpx = true;     // i32 min-plus policies declaring con_adds: Hopper's add-min instruction
};

// The schedule of a generated closure on the GPU. per_thread 0 (the default) runs the register-tiled
// design with a k-block of `tile` (32, 64, 128 or 256) and a thread tile of `register_tile` (8x8 or
// 8x16); per_thread N runs the seed's shared-memory design with tiles of `tile` (32 or 64), N entries
// per thread, strided (`spread`) or contiguous. tile 0 and register_tile {0, 0} leave the choice to
// the runtime (resolve_defaults: the k-block by size, 8x8). gqlc accepts only those combinations;
// out_of_core and streams steer the streaming of tiles.
struct ClosureSchedule {
  int64_t tile = 0;
  RegisterTile register_tile = {0, 0};
  int per_thread = 0;
  bool spread = true;
  OutOfCore out_of_core = OutOfCore::automatic;
  int streams = 3;
  const char* label = "";
};

struct ClosurePlan {
  ClosureKernel kernel = ClosureKernel::register_tiles;
  int tile = 128;
  RegisterTile register_tile;
  int per_thread = 4;
  bool spread = true;
  bool dpx = false;          // the DPX add-min runs
  bool staged = false;       // the GEMM folds its outputs' old values in last (device::closure::stages_in)
  bool predecessors = false;
  bool out_of_core = false;
  int64_t n = 0;
  int64_t padded = 0;        // in core: rows and columns in device memory
  int64_t super_tile = 0;    // out of core: edge of the streamed tiles
  int streams = 0;
  size_t device_bytes = 0;   // what the plan allocates

  // What --explain says of the plan.
  std::string describe() const;
};

// The options for an n x n closure with what they leave at 0 filled in: the shared tiles' tile 64;
// the register tiles' thread tile 8x8 and k-block 256 from n = 16384 on, 128 below, as measured on
// the H200 for fp32 and int32 (docs/performance.md: 8x16 was slower everywhere; a k-block of 256
// 3-5% faster at 16384 and 32768, 2-3% slower at 8192, where fewer k-blocks overlap less).
inline DeviceClosureOptions resolve_defaults(DeviceClosureOptions o, int64_t n) {
  if (o.tile == 0) o.tile = o.kernel == ClosureKernel::shared_tiles ? 64 : n >= 16384 ? 256 : 128;
  if (o.register_tile == RegisterTile{0, 0}) o.register_tile = RegisterTile{8, 8};
  return o;
}

namespace detail {

inline int64_t round_up(int64_t x, int64_t to) { return (x + to - 1) / to * to; }

inline DeviceClosureOptions device_closure_options(const ClosureSchedule& schedule) {
  DeviceClosureOptions o;
  o.kernel = schedule.per_thread > 0 ? ClosureKernel::shared_tiles : ClosureKernel::register_tiles;
  o.tile = static_cast<int>(schedule.tile);
  o.register_tile = schedule.register_tile;
  if (schedule.per_thread > 0) {
    o.per_thread = schedule.per_thread;
    o.spread = schedule.spread;
  }
  o.out_of_core = schedule.out_of_core;
  o.streams = schedule.streams < 2 ? 2 : schedule.streams;
  return o;
}

inline void check_options(const DeviceClosureOptions& o, size_t value_bytes) {
  const bool registers = o.kernel == ClosureKernel::register_tiles;
  const GpuClosureRefusal refusal =
      gpu_closure_refusal({o.tile, registers ? o.register_tile.rows : 0, registers ? o.register_tile.cols : 0,
                           registers ? 0 : o.per_thread, value_bytes});
  if (!refusal.why.empty()) throw Error(ErrorKind::usage, "closure on the GPU: " + refusal.why);
  if (o.streams < 2) throw Error(ErrorKind::usage, "closure out of core: at least 2 streams");
}

}  // namespace detail

// What a closure will do for an n x n matrix of values of `value_bytes` under the options and the
// device memory budget, for a semiring that may run the DPX add-min (`dpx_capable`) and whose GEMM
// stages its old values (`stages_in`: device::closure::stages_in).
inline ClosurePlan plan_closure(int64_t n, const DeviceClosureOptions& given, bool predecessors, size_t value_bytes,
                                bool dpx_capable, bool stages_in) {
  const DeviceClosureOptions options = resolve_defaults(given, n);
  detail::check_options(options, value_bytes);
  ClosurePlan p;
  p.kernel = predecessors ? ClosureKernel::global_memory : options.kernel;
  p.tile = options.tile;
  p.register_tile = options.register_tile;
  p.per_thread = options.per_thread;
  p.spread = options.spread;
  p.dpx = options.dpx && dpx_capable && p.kernel == ClosureKernel::register_tiles;
  p.staged = stages_in && p.kernel == ClosureKernel::register_tiles;
  p.predecessors = predecessors;
  p.n = n;
  p.padded = detail::round_up(std::max<int64_t>(n, 1), device::closure::gemm_tile);
  const size_t entries = static_cast<size_t>(p.padded) * static_cast<size_t>(p.padded);
  const size_t in_core = entries * (value_bytes + (predecessors ? sizeof(int32_t) : 0));
  const size_t available = MemoryBudget::global().available();
  p.out_of_core = options.out_of_core == OutOfCore::on || (options.out_of_core == OutOfCore::automatic && in_core > available);
  if (!p.out_of_core) {
    p.device_bytes = in_core;
    return p;
  }
  if (predecessors)
    throw Error(ErrorKind::oom, "closure with predecessors needs the matrix in device memory (" +
                                    std::to_string(in_core >> 20) + " MiB, " + std::to_string(available >> 20) +
                                    " MiB available)");
  // Three super tiles per stream (the A, B and C of its products), with a tenth kept free.
  p.streams = options.streams;
  const double per_tile = static_cast<double>(available) * 0.9 / (3.0 * p.streams * static_cast<double>(value_bytes));
  const int64_t fit = static_cast<int64_t>(std::sqrt(per_tile)) / device::closure::gemm_tile * device::closure::gemm_tile;
  if (fit < device::closure::gemm_tile)
    throw Error(ErrorKind::oom, "closure out of core: " + std::to_string(available >> 20) +
                                    " MiB of device memory cannot hold " + std::to_string(3 * p.streams) +
                                    " tiles of 128 x 128");
  p.super_tile = std::min(fit, p.padded);
  p.device_bytes = static_cast<size_t>(3 * p.streams) * static_cast<size_t>(p.super_tile * p.super_tile) * value_bytes;
  return p;
}

}  // namespace gql::gpu

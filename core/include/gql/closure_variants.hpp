// The GPU closure's kernel variants: the designs and shapes the runtime builds kernels for, written
// once. The compiler's schedule checks, the runtime's own check of a caller's options, its kernel
// tables (ahead of time and through NVRTC) and the kernel names all read these lists, and a choice
// outside them gets one message wherever it is refused.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace gql {

// The register-tiled design: a k-block of one of these...
inline constexpr std::array<int, 4> gpu_closure_k_blocks{32, 64, 128, 256};

// ...and a thread tile of outputs of one of these. 8x16 needs about 170 registers a thread for
// 4-byte values, so it takes values of 4 bytes or fewer; 8x8 takes any.
struct GpuThreadTile {
  int rows = 0, cols = 0;
  size_t max_value_bytes = 0;  // 0: any
  constexpr bool holds(size_t value_bytes) const { return max_value_bytes == 0 || value_bytes <= max_value_bytes; }
};
inline constexpr std::array<GpuThreadTile, 2> gpu_closure_thread_tiles{{{8, 8, 0}, {8, 16, 4}}};

// The index of rows x cols in gpu_closure_thread_tiles; -1 when it is not one of them.
constexpr int gpu_thread_tile_index(int rows, int cols) {
  for (size_t t = 0; t < gpu_closure_thread_tiles.size(); ++t)
    if (gpu_closure_thread_tiles[t].rows == rows && gpu_closure_thread_tiles[t].cols == cols) return static_cast<int>(t);
  return -1;
}

// The shared-memory design (a schedule's per_thread): a tile edge and the entries each thread updates.
struct GpuClosureTile {
  int tile = 0;
  int per_thread = 0;
};
inline constexpr std::array<GpuClosureTile, 5> gpu_closure_shared_tiles{{{32, 1}, {32, 2}, {32, 4}, {64, 4}, {64, 8}}};

// A closure's choice of GPU kernel, as a schedule or a caller gives it: per_thread 0 is the register
// design (tile: its k-block, 0 left to the runtime; register tile 0x0 left to the runtime), per_thread N
// the shared design (tile 0 left to the runtime).
struct GpuClosureChoice {
  int tile = 0;
  int register_rows = 0, register_cols = 0;
  int per_thread = 0;
  size_t value_bytes = 0;
};

// Why no kernel is built for a choice (why is empty when one is), and whether the register tile is
// what is refused (else the tile or per_thread).
struct GpuClosureRefusal {
  std::string why;
  bool register_tile = false;
};

namespace closure_variants_detail {
// "32, 64, 128 or 256".
template <class List, class Text>
std::string listed_or(const List& values, Text text) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i)
    out += (i == 0 ? "" : i + 1 == values.size() ? " or " : ", ") + text(values[i]);
  return out;
}
inline std::string number(int n) { return std::to_string(n); }
}  // namespace closure_variants_detail

inline GpuClosureRefusal gpu_closure_refusal(const GpuClosureChoice& c) {
  namespace d = closure_variants_detail;
  const auto tile_text = [](const GpuThreadTile& t) { return d::number(t.rows) + "x" + d::number(t.cols); };
  if (c.register_rows != 0 || c.register_cols != 0) {
    const int index = gpu_thread_tile_index(c.register_rows, c.register_cols);
    if (index < 0)
      return {"the GPU closure's register tiles are " + d::listed_or(gpu_closure_thread_tiles, tile_text) + ", not " +
                  d::number(c.register_rows) + "x" + d::number(c.register_cols),
              true};
    const GpuThreadTile& t = gpu_closure_thread_tiles[static_cast<size_t>(index)];
    if (!t.holds(c.value_bytes)) {
      std::string any;
      for (const GpuThreadTile& other : gpu_closure_thread_tiles)
        if (other.max_value_bytes == 0) any += "; " + tile_text(other) + " holds any";
      return {"register_tile " + tile_text(t) + " holds values of " + std::to_string(t.max_value_bytes) +
                  " bytes or fewer (this closure's are " + std::to_string(c.value_bytes) + ")" + any,
              true};
    }
  }
  if (c.per_thread == 0) {
    for (const int kb : gpu_closure_k_blocks)
      if (kb == c.tile) return {};
    if (c.tile == 0) return {};
    return {"the GPU closure's register tiles take a k-block (tile) of " + d::listed_or(gpu_closure_k_blocks, d::number) +
            ", not " + d::number(c.tile)};
  }
  if (c.tile == 0) return {};  // the runtime's tile (64): checked with it
  std::vector<int> tiles, per_thread;
  for (const GpuClosureTile& s : gpu_closure_shared_tiles) {
    if (s.tile == c.tile && s.per_thread == c.per_thread) return {};
    if (tiles.empty() || tiles.back() != s.tile) tiles.push_back(s.tile);
    if (s.tile == c.tile) per_thread.push_back(s.per_thread);
  }
  if (per_thread.empty())
    return {"the shared-tile GPU closure (per_thread) takes tile " + d::listed_or(tiles, d::number) + ", not " +
            d::number(c.tile)};
  return {"tile " + d::number(c.tile) + " takes per_thread " + d::listed_or(per_thread, d::number) + ", not " +
          d::number(c.per_thread)};
}

}  // namespace gql

// Block-level sorts of the buffers the small-row path of the SpGEMM sorts: for each row of a
// Kronecker graph whose product count falls in a size class, the row's (column j, middle vertex k)
// pairs in gather order (B's rows concatenated, each already sorted). One block sorts one row's
// segment, as in the SpGEMM. Compared on the same segments in the same run:
//   hybrid        gql's hybrid sort (bitonic chunks in shared memory, merge-path merge tree)
//   cub-block     cub::BlockMergeSort on a tile of 256 threads x ITEMS (the class's largest segment)
//   cub-segmented cub::DeviceSegmentedSort::SortPairs over all segments at once
//   bitonic       a plain bitonic network over the whole segment padded to a power of two in
//                 shared memory (the seed's baseline)
// Every variant's output is checked: each segment sorted by key and holding the same (key, value)
// pairs as its input.
//
// Usage: bench_block_sort [--json FILE] [--graph kron:16] [--repeats 5] [--items 4194304]
#include <cub/block/block_load.cuh>
#include <cub/block/block_merge_sort.cuh>
#include <cub/block/block_store.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "bench_record.hpp"
#include "gql/device.hpp"
#include "gql/device/spgemm/hybrid_sort.cuh"
#include "gql/device/spgemm/spgemm.hpp"
#include "gql/io.hpp"

namespace {

using namespace gql;
using namespace gql::bench;
using Value = unsigned long long;  // the paths semiring's value type

constexpr int kThreads = 256;
constexpr int kHybridChunk = SpgemmShapes::sorted_chunk_items<Value>;  // what the SpGEMM driver uses

struct SizeClass {
  int lo;  // smallest segment (inclusive)
  int hi;  // largest segment (inclusive), a power of two: the CUB tile and the bitonic width
};

// Segments of one size class, in host memory.
struct Segments {
  std::vector<long long> offsets{0};
  std::vector<index_t> keys;
  std::vector<Value> values;
  size_t count() const { return offsets.size() - 1; }
};

// The small-row buffers of G * G whose product count lies in [lo, hi], up to `max_items` in all.
Segments gather_segments(const Csr<bool>& G, SizeClass size, size_t max_items) {
  Segments s;
  const auto& off = G.row_offsets();
  const auto& col = G.col_indices();
  for (int64_t i = 0; i < G.n_rows() && s.keys.size() < max_items; ++i) {
    long long bound = 0;
    for (offset_t p = off[i]; p < off[i + 1]; ++p) bound += off[col[p] + 1] - off[col[p]];
    if (bound < size.lo || bound > size.hi) continue;
    for (offset_t p = off[i]; p < off[i + 1]; ++p) {
      const index_t k = col[p];
      for (offset_t q = off[k]; q < off[k + 1]; ++q) {
        s.keys.push_back(col[q]);
        s.values.push_back(static_cast<Value>(k));
      }
    }
    s.offsets.push_back(static_cast<long long>(s.keys.size()));
  }
  return s;
}

// ---- the sorts, one block per segment -------------------------------------------------------------

__global__ void __launch_bounds__(kThreads)
hybrid_sort_segments(const long long* offsets, index_t* keys, Value* values, index_t* keys_alt, Value* values_alt,
                     unsigned char* in_alt) {
  using Sort = device::spgemm::BlockHybridSort<kThreads, kHybridChunk, index_t, Value>;
  __shared__ typename Sort::TempStorage storage;
  const long long base = offsets[blockIdx.x];
  const int n = static_cast<int>(offsets[blockIdx.x + 1] - base);
  const bool alt = Sort::sort(keys + base, values + base, keys_alt + base, values_alt + base, n, storage);
  if (threadIdx.x == 0) in_alt[blockIdx.x] = alt ? 1 : 0;
}

struct KeyLess {
  __device__ bool operator()(index_t a, index_t b) const { return a < b; }
};

template <int Items>
__global__ void __launch_bounds__(kThreads)
cub_block_sort_segments(const long long* offsets, index_t* keys, Value* values) {
  using Sort = cub::BlockMergeSort<index_t, kThreads, Items, Value>;
  using LoadKeys = cub::BlockLoad<index_t, kThreads, Items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using LoadValues = cub::BlockLoad<Value, kThreads, Items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using StoreKeys = cub::BlockStore<index_t, kThreads, Items, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using StoreValues = cub::BlockStore<Value, kThreads, Items, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  __shared__ union {
    typename Sort::TempStorage sort;
    typename LoadKeys::TempStorage load_keys;
    typename LoadValues::TempStorage load_values;
    typename StoreKeys::TempStorage store_keys;
    typename StoreValues::TempStorage store_values;
  } storage;
  const long long base = offsets[blockIdx.x];
  const int n = static_cast<int>(offsets[blockIdx.x + 1] - base);
  index_t k[Items];
  Value v[Items];
  LoadKeys(storage.load_keys).Load(keys + base, k, n, INT_MAX);
  __syncthreads();
  LoadValues(storage.load_values).Load(values + base, v, n, Value{0});
  __syncthreads();
  Sort(storage.sort).Sort(k, v, KeyLess{}, n, INT_MAX);
  __syncthreads();
  StoreKeys(storage.store_keys).Store(keys + base, k, n);
  __syncthreads();
  StoreValues(storage.store_values).Store(values + base, v, n);
}

// Plain bitonic sort of the segment padded (with INT_MAX keys) to `width`, a power of two, in
// dynamic shared memory of width * (sizeof(Value) + sizeof(index_t)) bytes.
__global__ void __launch_bounds__(kThreads)
bitonic_sort_segments(const long long* offsets, index_t* keys, Value* values, int width) {
  extern __shared__ unsigned long long shared_words[];
  Value* s_values = shared_words;
  index_t* s_keys = reinterpret_cast<index_t*>(shared_words + width);
  const long long base = offsets[blockIdx.x];
  const int n = static_cast<int>(offsets[blockIdx.x + 1] - base);
  const int padded = device::spgemm::next_pow2(n);
  for (int i = threadIdx.x; i < padded; i += kThreads) {
    s_keys[i] = i < n ? keys[base + i] : INT_MAX;
    s_values[i] = i < n ? values[base + i] : Value{0};
  }
  __syncthreads();
  for (int k = 2; k <= padded; k *= 2) {
    for (int j = k / 2; j > 0; j /= 2) {
      for (int i = threadIdx.x; i < padded; i += kThreads) {
        const int partner = i ^ j;
        if (partner > i) {
          const bool ascending = (i & k) == 0;
          if ((s_keys[partner] < s_keys[i]) == ascending) {
            const index_t key = s_keys[i];
            s_keys[i] = s_keys[partner];
            s_keys[partner] = key;
            const Value value = s_values[i];
            s_values[i] = s_values[partner];
            s_values[partner] = value;
          }
        }
      }
      __syncthreads();
    }
  }
  for (int i = threadIdx.x; i < n; i += kThreads) {
    keys[base + i] = s_keys[i];
    values[base + i] = s_values[i];
  }
}

// ---- checking and timing --------------------------------------------------------------------------

// The host copy of a sorted result, with where each segment ended up (primary or alternate buffer).
struct SortedResult {
  std::vector<index_t> keys, keys_alt;
  std::vector<Value> values, values_alt;
  std::vector<unsigned char> in_alt;  // empty: every segment is in the primary buffers
};

// Each segment sorted by key and a permutation of its input (compared as sorted (key, value) pairs).
std::string check_sorted(const Segments& input, const SortedResult& r) {
  for (size_t s = 0; s < input.count(); ++s) {
    const bool alt = !r.in_alt.empty() && r.in_alt[s] != 0;
    const auto& keys = alt ? r.keys_alt : r.keys;
    const auto& values = alt ? r.values_alt : r.values;
    const long long b = input.offsets[s], e = input.offsets[s + 1];
    std::vector<std::pair<index_t, Value>> want, got;
    for (long long p = b; p < e; ++p) {
      if (p > b && keys[p] < keys[p - 1]) return "segment " + std::to_string(s) + " is not sorted";
      want.emplace_back(input.keys[p], input.values[p]);
      got.emplace_back(keys[p], values[p]);
    }
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    if (want != got) return "segment " + std::to_string(s) + " lost or changed pairs";
  }
  return {};
}

struct Workspace {
  DeviceBuffer<long long> offsets;
  DeviceBuffer<index_t> input_keys, keys, keys_alt;
  DeviceBuffer<Value> input_values, values, values_alt;
  DeviceBuffer<unsigned char> in_alt;
};

Workspace upload(const Segments& s, const Stream& stream) {
  Workspace w;
  w.offsets = DeviceBuffer<long long>(s.offsets.size());
  w.offsets.copy_from_host(s.offsets, stream);
  w.input_keys = DeviceBuffer<index_t>(s.keys.size());
  w.input_keys.copy_from_host(s.keys, stream);
  w.input_values = DeviceBuffer<Value>(s.values.size());
  w.input_values.copy_from_host(s.values, stream);
  w.keys = DeviceBuffer<index_t>(s.keys.size());
  w.keys_alt = DeviceBuffer<index_t>(s.keys.size());
  w.values = DeviceBuffer<Value>(s.values.size());
  w.values_alt = DeviceBuffer<Value>(s.values.size());
  w.in_alt = DeviceBuffer<unsigned char>(s.count());
  stream.synchronize();
  return w;
}

// Times `sort` (kernel launches on `stream`) after restoring the unsorted input each time; checks
// the last run's output. Returns the times and the check's verdict (empty when right).
std::pair<std::vector<double>, std::string> time_sort(const Segments& s, Workspace& w, const Stream& stream,
                                                      int repeats, bool uses_alt, const std::function<void()>& sort) {
  std::vector<double> seconds;
  Event start, stop;
  for (int r = 0; r <= repeats; ++r) {
    w.keys.copy_from_device(w.input_keys, stream);
    w.values.copy_from_device(w.input_values, stream);
    start.record(stream);
    sort();
    stop.record(stream);
    stop.synchronize();
    if (r > 0) seconds.push_back(Event::elapsed_ms(start, stop) * 1e-3);
  }
  SortedResult result;
  result.keys.resize(s.keys.size());
  result.values.resize(s.values.size());
  w.keys.copy_to_host(result.keys, stream);
  w.values.copy_to_host(result.values, stream);
  if (uses_alt) {
    result.keys_alt.resize(s.keys.size());
    result.values_alt.resize(s.values.size());
    result.in_alt.resize(s.count());
    w.keys_alt.copy_to_host(result.keys_alt, stream);
    w.values_alt.copy_to_host(result.values_alt, stream);
    w.in_alt.copy_to_host(result.in_alt, stream);
  }
  stream.synchronize();
  return {seconds, check_sorted(s, result)};
}

template <int Items>
void launch_cub_block(Workspace& w, unsigned blocks, const Stream& stream) {
  cub_block_sort_segments<Items><<<blocks, kThreads, 0, stream.get()>>>(w.offsets.data(), w.keys.data(), w.values.data());
  GQL_CUDA_CHECK_LAUNCH();
}

// Tiles of cub::BlockMergeSort instantiated here: up to 16 items a thread (a larger tile's scratch
// exceeds the 48 KB of static shared memory).
bool cub_block_supported(int tile) {
  const int items = tile / kThreads;
  return tile % kThreads == 0 && (items == 1 || items == 2 || items == 4 || items == 8 || items == 16);
}

// cub::BlockMergeSort with a tile of the class's largest segment (cub_block_supported(tile)).
void cub_block_sort(int tile, Workspace& w, unsigned blocks, const Stream& stream) {
  switch (tile / kThreads) {
    case 1: launch_cub_block<1>(w, blocks, stream); break;
    case 2: launch_cub_block<2>(w, blocks, stream); break;
    case 4: launch_cub_block<4>(w, blocks, stream); break;
    case 8: launch_cub_block<8>(w, blocks, stream); break;
    default: launch_cub_block<16>(w, blocks, stream); break;
  }
}

struct Options {
  std::string json;
  std::string graph = "kron:16";
  int repeats = 5;
  size_t items = size_t{1} << 22;  // per size class (checking the outputs on the host is the slow part)
};

}  // namespace

int main(int argc, char** argv) {
  try {
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
      const std::string flag = argv[i], value = argv[i + 1];
      if (flag == "--json") o.json = value;
      else if (flag == "--graph") o.graph = value;
      else if (flag == "--repeats") o.repeats = std::max(1, std::atoi(value.c_str()));
      else if (flag == "--items") o.items = static_cast<size_t>(std::atoll(value.c_str()));
      else throw Error(ErrorKind::usage, "unknown option " + flag);
    }
    if (argc % 2 == 0) throw Error(ErrorKind::usage, std::string("missing value after ") + argv[argc - 1]);
    if (device_count() == 0) {
      std::fprintf(stderr, "bench_block_sort: no CUDA device\n");
      return 1;
    }
    JsonLines out(o.json);
    if (!o.json.empty() && !out.ok()) throw Error(ErrorKind::io, "cannot open " + o.json);
    cudaDeviceProp prop{};
    GQL_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    const RunContext ctx{std::string(prop.name) + ", " + std::to_string(prop.multiProcessorCount) + " SMs, " +
                             std::to_string(std::thread::hardware_concurrency()) + " host threads",
                         utc_now(), env_or("GQL_BENCH_COMMIT", "unknown")};
    const Csr<bool> G = read_graph<bool>(o.graph);
    Stream stream;
    bool all_right = true;
    for (const SizeClass size : {SizeClass{256, 512}, SizeClass{513, 1024}, SizeClass{1025, 2048},
                                 SizeClass{2049, 4096}, SizeClass{4097, 16384}}) {
      const Segments s = gather_segments(G, size, o.items);
      if (s.count() == 0) continue;
      Workspace w = upload(s, stream);
      const auto blocks = static_cast<unsigned>(s.count());
      const std::string size_name = std::to_string(size.lo) + ".." + std::to_string(size.hi);
      auto record = [&](const std::string& variant, const std::pair<std::vector<double>, std::string>& r) {
        Record rec;
        const TimeSummary t = summarize(r.first);
        rec.text("workload", "block_sort").text("graph", o.graph).text("segment_sizes", size_name)
            .text("variant", variant).integer("segments", static_cast<long long>(s.count()))
            .integer("items", static_cast<long long>(s.keys.size()))
            .text("status", r.second.empty() ? "ok" : "wrong").times(t)
            .number("items_per_s", static_cast<double>(s.keys.size()) / t.median);
        if (!r.second.empty()) rec.text("detail", r.second);
        all_right = all_right && r.second.empty();
        out.write(stamp(rec, ctx));
      };

      record("hybrid (chunk " + std::to_string(kHybridChunk) + ")",
             time_sort(s, w, stream, o.repeats, true, [&] {
               hybrid_sort_segments<<<blocks, kThreads, 0, stream.get()>>>(
                   w.offsets.data(), w.keys.data(), w.values.data(), w.keys_alt.data(), w.values_alt.data(),
                   w.in_alt.data());
               GQL_CUDA_CHECK_LAUNCH();
             }));

      if (cub_block_supported(size.hi)) {
        record("cub-block (tile " + std::to_string(size.hi) + ")",
               time_sort(s, w, stream, o.repeats, false, [&] { cub_block_sort(size.hi, w, blocks, stream); }));
      } else {
        Record rec;
        rec.text("workload", "block_sort").text("graph", o.graph).text("segment_sizes", size_name)
            .text("variant", "cub-block (tile " + std::to_string(size.hi) + ")").text("status", "not applicable")
            .text("detail", "a tile this large exceeds cub::BlockMergeSort's static shared memory");
        out.write(stamp(rec, ctx));
      }

      size_t temp_bytes = 0;
      GQL_CUDA_CHECK(cub::DeviceSegmentedSort::SortPairs(
          nullptr, temp_bytes, w.input_keys.data(), w.keys.data(), w.input_values.data(), w.values.data(),
          static_cast<int64_t>(s.keys.size()), static_cast<int64_t>(s.count()), w.offsets.data(), w.offsets.data() + 1,
          stream.get()));
      DeviceBuffer<unsigned char> temp(std::max<size_t>(temp_bytes, 1));
      // Sorts from the untouched input into keys/values (the restore copy is overwritten).
      record("cub-segmented", time_sort(s, w, stream, o.repeats, false, [&] {
               GQL_CUDA_CHECK(cub::DeviceSegmentedSort::SortPairs(
                   temp.data(), temp_bytes, w.input_keys.data(), w.keys.data(), w.input_values.data(), w.values.data(),
                   static_cast<int64_t>(s.keys.size()), static_cast<int64_t>(s.count()), w.offsets.data(),
                   w.offsets.data() + 1, stream.get()));
             }));

      const int shared_bytes = size.hi * static_cast<int>(sizeof(Value) + sizeof(index_t));
      GQL_CUDA_CHECK(cudaFuncSetAttribute(bitonic_sort_segments, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          shared_bytes));
      record("bitonic (padded to a power of two)", time_sort(s, w, stream, o.repeats, false, [&] {
               bitonic_sort_segments<<<blocks, kThreads, static_cast<size_t>(shared_bytes), stream.get()>>>(
                   w.offsets.data(), w.keys.data(), w.values.data(), size.hi);
               GQL_CUDA_CHECK_LAUNCH();
             }));
    }
    if (!all_right) {
      std::fprintf(stderr, "bench_block_sort: a sort gave a wrong result\n");
      return 1;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_block_sort: %s\n", e.what());
    return 1;
  }
  return 0;
}

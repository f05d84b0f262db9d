// Element reads and stores of values current on the device (gql/device/values/element_ops.hpp) against the
// host's (gql::cpu::element, set_element):
// - reads of present and missing entries of dense and sparse vectors, dense matrices and graphs (first
//   and last rows, empty rows, rectangular shapes, every element type, pattern graphs): the same value,
//   or the same error (kind, message, place); the value is not downloaded (on_host() stays false) and
//   stays on the device;
// - many random stores (new entries, overwrites, repeated positions, reads and counts in between) into
//   device graphs and sparse and dense vectors: kept on the device, and equal to a std::map of the
//   stores and to the same stores made on the host;
// - stores into a borrowed device argument leave the caller's value alone; a whole-value write drops
//   the stores that wait.
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gpu_check.hpp"
#include "graph_check.hpp"
#include "gql/device/ops.hpp"  // gql::gpu's element ops, and gql/cpu/ops.hpp, the reference
#include "vector_check.hpp"

namespace {

using namespace gql;
using gpu_test::same_graph;
using gpu_test::same_vector;

const Location here{"element_access.gql", 7, 11};

// The value k as T (small numbers, so every type holds them; bools alternate).
template <class T>
storage_t<T> value_of(int64_t k) {
  return static_cast<storage_t<T>>(convert_element<T>(static_cast<int>(k % 97) - 40));
}

// A rows x cols graph: row i holds about `per_row` random columns, rows in `empty` hold none; the first
// and last rows hold entries in the first and last columns.
template <class T>
Csr<T> random_graph(int64_t rows, int64_t cols, int per_row, uint64_t seed) {
  std::mt19937_64 random(seed);
  Array<offset_t> offsets{0};
  Array<index_t> columns;
  Array<storage_t<T>> values;
  for (int64_t i = 0; i < rows; ++i) {
    std::vector<index_t> row;
    const bool empty = i % 5 == 3 && i != rows - 1;
    if (!empty) {
      for (int n = 0; n < per_row; ++n) row.push_back(static_cast<index_t>(random() % static_cast<uint64_t>(cols)));
      if (i == 0 || i == rows - 1) {
        row.push_back(0);
        row.push_back(static_cast<index_t>(cols - 1));
      }
    }
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    for (const index_t j : row) {
      columns.push_back(j);
      if constexpr (stores_values<T>) values.push_back(value_of<T>(i * 7 + j));
    }
    offsets.push_back(static_cast<offset_t>(columns.size()));
  }
  return Csr<T>(rows, cols, std::move(offsets), std::move(columns), std::move(values));
}

// What a read gives: the value, or the error's kind, message and place.
template <class T>
struct ReadResult {
  std::optional<T> value;
  std::string error;
  bool operator==(const ReadResult&) const = default;
};
template <class T, class Read>
ReadResult<T> result_of(Read&& read) {
  try {
    return {read(), ""};
  } catch (const Error& e) {
    return {std::nullopt, std::to_string(static_cast<int>(e.kind())) + " " + e.what() + " @" + e.where().file + ":" +
                              std::to_string(e.where().line) + ":" + std::to_string(e.where().column)};
  }
}

// The positions a test reads: columns across the first, last and a few rows (present and missing;
// fewer under --small, where each launch is slow), and positions outside the value.
std::vector<std::pair<int64_t, int64_t>> positions_to_read(int64_t rows, int64_t cols) {
  const int64_t across = gpu_test::small_inputs() ? 8 : 64;
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const int64_t i : {int64_t{0}, rows - 1, rows / 2, int64_t{3} % rows})
    for (int64_t j = 0; j < cols; j += std::max<int64_t>(1, cols / across)) out.emplace_back(i, j);
  for (const int64_t i : {int64_t{0}, rows - 1}) out.emplace_back(i, cols - 1);
  out.emplace_back(rows, 0);
  out.emplace_back(0, cols);
  out.emplace_back(-1, 0);
  return out;
}

template <class T>
void graph_reads(int64_t rows, int64_t cols, int per_row) {
  const std::string what = "graph " + std::to_string(rows) + " x " + std::to_string(cols) + ", " +
                           std::to_string(sizeof(storage_t<T>)) + "-byte values";
  const Stream stream;
  const Csr<T> host = random_graph<T>(rows, cols, per_row, static_cast<uint64_t>(rows * 31 + cols));
  auto G = gpu::Resident<Csr<T>>(to_device(host, stream));
  int read = 0;
  for (const auto& [i, j] : positions_to_read(rows, cols)) {
    const auto expected = result_of<T>([&] { return cpu::element(host, i, j, here); });
    const auto got = result_of<T>([&] { return gpu::element(G, i, j, here, stream); });
    if (!GPU_CHECK(got == expected))
      std::fprintf(stderr, "  %s (%lld, %lld): %s\n", what.c_str(), static_cast<long long>(i),
                   static_cast<long long>(j), got.error.c_str());
    ++read;
  }
  GPU_CHECK_MSG(read > 0 && !G.on_host() && G.on_device(), what);  // read where it lies, not downloaded
  GPU_CHECK_MSG(same_graph(G.host(stream), host), what);
}

template <class T>
void vector_reads(int64_t n, bool dense) {
  const std::string what = std::string(dense ? "dense" : "sparse") + " vector of " + std::to_string(n) + ", " +
                           std::to_string(sizeof(storage_t<T>)) + "-byte values";
  const Stream stream;
  const Vector<T> host = dense ? Vector<T>::dense(n, value_of<T>(5)) : gpu_test::every<T>(n, 1, 3, [](int64_t k) {
    return static_cast<int>(k % 97) - 40;
  });
  auto v = gpu::Resident<Vector<T>>(to_device(host, stream));
  for (const auto& [row, column] : positions_to_read(1, n)) {
    const int64_t index = row == 0 ? column : -1;  // a vector is one row: indices present, missing, outside
    for (const int64_t i : {index, index + 1}) {
      const auto expected = result_of<T>([&] { return cpu::element(host, i, here); });
      const auto got = result_of<T>([&] { return gpu::element(v, i, here, stream); });
      if (!GPU_CHECK(got == expected))
        std::fprintf(stderr, "  %s [%lld]: %s\n", what.c_str(), static_cast<long long>(i), got.error.c_str());
    }
  }
  GPU_CHECK_MSG(!v.on_host() && v.on_device(), what);
  GPU_CHECK_MSG(same_vector(v.host(stream), host), what);
}

template <class T>
void matrix_reads(int64_t rows, int64_t cols) {
  const Stream stream;
  Matrix<T> host(rows, cols);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) host(i, j) = value_of<T>(i * cols + j);
  auto M = gpu::Resident<Matrix<T>>(to_device(host, stream));
  for (const auto& [i, j] : positions_to_read(rows, cols)) {
    const auto expected = result_of<T>([&] { return cpu::element(host, i, j, here); });
    const auto got = result_of<T>([&] { return gpu::element(M, i, j, here, stream); });
    GPU_CHECK(got == expected);
  }
  GPU_CHECK(!M.on_host() && M.on_device());
}

// A value current on the host is read there (no upload).
void host_values_read_on_the_host() {
  const Stream stream;
  const Csr<float> host = random_graph<float>(40, 30, 4, 9);
  auto G = gpu::Resident<Csr<float>>::borrow(host);
  GPU_CHECK(gpu::element(G, 0, 0, here, stream) == cpu::element(host, 0, 0, here));
  GPU_CHECK(G.on_host() && !G.on_device());
}

template <class T>
void reads_of_every_shape() {
  graph_reads<T>(1, 1, 1);
  graph_reads<T>(37, 1000, 6);
  graph_reads<T>(1000, 37, 3);
  graph_reads<T>(gpu_test::small_inputs() ? 300 : 5000, gpu_test::small_inputs() ? 300 : 5000, 9);
  vector_reads<T>(1, true);
  vector_reads<T>(1, false);
  vector_reads<T>(1000, true);
  vector_reads<T>(1000, false);
  matrix_reads<T>(1, 1);
  matrix_reads<T>(33, 70);
}

// Random stores into a device graph, with reads and counts between them: against a std::map of every
// store and the same stores into the host graph. Of stores to one position the later wins.
template <class T>
void graph_stores(int64_t rows, int64_t cols, int stores, uint64_t seed, bool borrowed) {
  const std::string what = "stores into a graph " + std::to_string(rows) + " x " + std::to_string(cols) + ", " +
                           std::to_string(sizeof(storage_t<T>)) + "-byte values" + (borrowed ? ", borrowed" : "");
  const Stream stream;
  const Csr<T> start = random_graph<T>(rows, cols, 3, seed);
  const DeviceCsr<T> argument = to_device(start, stream);
  auto G = borrowed ? gpu::Resident<Csr<T>>::borrow(argument) : gpu::Resident<Csr<T>>(to_device(start, stream));
  Csr<T> on_host = start.clone();
  std::map<std::pair<int64_t, int64_t>, storage_t<T>> expected;
  for (int64_t i = 0; i < rows; ++i)
    for (offset_t p = start.row_offsets()[static_cast<size_t>(i)]; p < start.row_offsets()[static_cast<size_t>(i) + 1]; ++p)
      expected[{i, start.col_indices()[static_cast<size_t>(p)]}] = static_cast<storage_t<T>>(start.value_at(p));
  std::mt19937_64 random(seed + 1);
  std::vector<std::pair<int64_t, int64_t>> stored;
  for (int k = 0; k < stores; ++k) {
    std::pair<int64_t, int64_t> at;
    const auto pick = random() % 4;
    if (pick == 0 && !stored.empty()) at = stored[random() % stored.size()];  // the same position again
    else if (pick == 1) at = std::next(expected.begin(), static_cast<long>(random() % expected.size()))->first;  // an entry
    else at = {static_cast<int64_t>(random() % static_cast<uint64_t>(rows)), static_cast<int64_t>(random() % static_cast<uint64_t>(cols))};
    stored.push_back(at);
    const storage_t<T> value = value_of<T>(k + 11);
    gpu::set_element(G, at.first, at.second, T(value), stream);
    cpu::set_element(on_host, at.first, at.second, T(value));
    expected[at] = stores_values<T> ? value : storage_t<T>{1};
    if (k % 97 == 50) {  // a read between the stores merges what waits, on the device
      const auto got = result_of<T>([&] { return gpu::element(G, at.first, at.second, here, stream); });
      GPU_CHECK_MSG(got.value && storage_t<T>(*got.value) == expected[at], what);
      GPU_CHECK_MSG(G.nvals() == static_cast<int64_t>(expected.size()), what);
    }
  }
  GPU_CHECK_MSG(G.on_device() && !G.on_host(), what);  // the stores waited on the device
  GPU_CHECK_MSG(G.nvals() == static_cast<int64_t>(expected.size()), what);
  GPU_CHECK_MSG(!G.on_host(), what);
  const Csr<T>& merged = G.host(stream);
  GPU_CHECK_MSG(same_graph(merged, on_host), what);
  size_t n = 0;
  bool same = merged.nvals() == static_cast<int64_t>(expected.size());
  for (int64_t i = 0; i < rows && same; ++i)
    for (offset_t p = merged.row_offsets()[static_cast<size_t>(i)]; p < merged.row_offsets()[static_cast<size_t>(i) + 1]; ++p, ++n) {
      const auto e = expected.find({i, merged.col_indices()[static_cast<size_t>(p)]});
      same = same && e != expected.end() && (!stores_values<T> || e->second == static_cast<storage_t<T>>(merged.value_at(p)));
    }
  GPU_CHECK_MSG(same, what);
  merged.validate();
  if (borrowed) GPU_CHECK_MSG(same_graph(argument.to_host(stream), start), what);  // the caller's value unchanged
}

// Random stores into a device vector (sparse: new entries and overwrites merged; dense: written in place).
template <class T>
void vector_stores(int64_t n, bool dense, int stores, uint64_t seed) {
  const std::string what = std::string("stores into a ") + (dense ? "dense" : "sparse") + " vector of " +
                           std::to_string(n) + ", " + std::to_string(sizeof(storage_t<T>)) + "-byte values";
  const Stream stream;
  const Vector<T> start = dense ? Vector<T>::dense(n, value_of<T>(3))
                                : gpu_test::every<T>(n, 2, 7, [](int64_t k) { return static_cast<int>(k % 97) - 40; });
  auto v = gpu::Resident<Vector<T>>(to_device(start, stream));
  Vector<T> on_host = start.clone();
  std::map<int64_t, storage_t<T>> expected;
  for (int64_t p = 0; p < start.nvals(); ++p)
    expected[dense ? p : start.indices()[static_cast<size_t>(p)]] = start.values()[static_cast<size_t>(p)];
  std::mt19937_64 random(seed);
  for (int k = 0; k < stores; ++k) {
    const int64_t i = k % 5 == 0 ? n - 1 : static_cast<int64_t>(random() % static_cast<uint64_t>(n));
    const storage_t<T> value = value_of<T>(k + 13);
    gpu::set_element(v, i, T(value), stream);
    cpu::set_element(on_host, i, T(value));
    expected[i] = value;
    if (k % 89 == 40) GPU_CHECK_MSG(gpu::element(v, i, here, stream) == T(value), what);
  }
  GPU_CHECK_MSG(v.on_device() && !v.on_host(), what);
  GPU_CHECK_MSG(v.nvals() == static_cast<int64_t>(expected.size()), what);
  const Vector<T>& merged = v.host(stream);
  GPU_CHECK_MSG(same_vector(merged, on_host), what);
  bool same = merged.nvals() == static_cast<int64_t>(expected.size());
  for (int64_t p = 0; p < merged.nvals() && same; ++p) {
    const int64_t index = merged.is_dense() ? p : merged.indices()[static_cast<size_t>(p)];
    const auto e = expected.find(index);
    same = e != expected.end() && e->second == merged.values()[static_cast<size_t>(p)];
  }
  GPU_CHECK_MSG(same, what);
}

// Stores then a whole value written over them: they are dropped, not written into the new value.
void stores_dropped_by_a_write() {
  const Stream stream;
  const Csr<double> a = random_graph<double>(50, 60, 4, 3), b = random_graph<double>(50, 60, 4, 4);
  auto G = gpu::Resident<Csr<double>>(to_device(a, stream));
  gpu::set_element(G, 3, 4, 100.0, stream);
  gpu::set_element(G, 49, 59, 100.0, stream);
  G.set_device(to_device(b, stream));
  GPU_CHECK(same_graph(G.host(stream), b));
}

// A store outside the value is refused as on the host.
void outside_the_value() {
  const Stream stream;
  auto G = gpu::Resident<Csr<int32_t>>(to_device(random_graph<int32_t>(4, 5, 2, 1), stream));
  const auto refused = [](auto&& store) {
    try {
      store();
    } catch (const Error& e) {
      return e.kind() == ErrorKind::usage;
    }
    return false;
  };
  GPU_CHECK(refused([&] { gpu::set_element(G, 4, 0, 1, stream); }));
  GPU_CHECK(refused([&] { gpu::set_element(G, 0, -1, 1, stream); }));
  auto v = gpu::Resident<Vector<int32_t>>(to_device(Vector<int32_t>(7), stream));
  GPU_CHECK(refused([&] { gpu::set_element(v, 7, 1, stream); }));
}

template <class T>
void stores_of_every_shape() {
  const int many = gpu_test::small_inputs() ? 300 : 5000;
  graph_stores<T>(1, 1, 5, 1, false);
  graph_stores<T>(64, 2000, many, 2, false);
  graph_stores<T>(2000, 64, many, 3, true);
  graph_stores<T>(300, 300, many, 4, false);
  vector_stores<T>(1, false, 4, 5);
  vector_stores<T>(3000, false, many, 6);
  vector_stores<T>(3000, true, many, 7);
}

template <class... T>
void for_every_type() {
  (reads_of_every_shape<T>(), ...);
  (stores_of_every_shape<T>(), ...);
}

}  // namespace

int main(int argc, char** argv) {
  return gql::gpu_test::run_main(argc, argv, "gpu_test_element_access", [] {
    for_every_type<bool, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t, float, double>();
    host_values_read_on_the_host();
    stores_dropped_by_a_write();
    outside_the_value();
  });
}

// The device runtime: buffers and copies, pinned memory, streams, events, the stream pool, the
// device containers' round trips, the memory budget, and the mapping of CUDA errors to gql::Error.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gpu_check.hpp"
#include "gql/device/device_copy.hpp"

namespace {

using namespace gql;

template <class Fn>
bool throws_kind(Fn fn, ErrorKind kind, std::string* message = nullptr) {
  try {
    fn();
  } catch (const Error& e) {
    if (message != nullptr) *message = e.what();
    return e.kind() == kind;
  }
  return false;
}

void check_buffers() {
  Stream stream;
  std::vector<int> host(1000);
  std::iota(host.begin(), host.end(), -500);
  DeviceBuffer<int> a(host.size()), b(host.size());
  GPU_CHECK(a.size() == 1000 && a.bytes() == 4000 && a.data() != nullptr);
  a.copy_from_host(host, stream);
  b.copy_from_device(a, stream);
  HostBuffer<int> pinned(host.size());
  b.copy_to_host(pinned.span(), stream);
  stream.synchronize();
  GPU_CHECK(std::equal(host.begin(), host.end(), pinned.data()));
  b.fill_zero(stream);
  b.copy_to_host(pinned.span(), stream);
  stream.synchronize();
  GPU_CHECK(std::all_of(pinned.data(), pinned.data() + pinned.size(), [](int x) { return x == 0; }));
  // Moves leave the source empty; an empty buffer copies nothing.
  DeviceBuffer<int> moved = std::move(a);
  GPU_CHECK(a.empty() && a.data() == nullptr && moved.size() == 1000);
  DeviceBuffer<int> empty;
  empty.copy_from_host(std::span<const int>(), stream);
  // Copying more than the buffer holds is the caller's error.
  GPU_CHECK(throws_kind([&] { DeviceBuffer<int> small(10); small.copy_from_host(host, stream); }, ErrorKind::usage));
}

// gql::upload and gql::download of a value's parts in one copy: staged parts (pageable, 256 KiB and
// more) cut into chunks that span part boundaries, mixed with parts that go straight through the driver
// (small, page-locked, empty), each part's bytes landing at its own place.
void check_staged_copies() {
  Stream stream;
  const std::vector<size_t> sizes = {300 << 10, 100, 0, (5 << 20) + 13, 1 << 20, 3 << 20};
  const size_t pinned_part = 4;  // page-locked on the host: copied directly
  std::vector<std::vector<unsigned char>> host(sizes.size());
  std::vector<DeviceBuffer<unsigned char>> device;
  for (size_t i = 0; i < sizes.size(); ++i) {
    host[i].resize(sizes[i]);
    for (size_t b = 0; b < sizes[i]; ++b) host[i][b] = static_cast<unsigned char>(b * 131 + i * 17 + b / 4093);
    device.emplace_back(sizes[i]);
  }
  HostBuffer<unsigned char> pinned(sizes[pinned_part]), pinned_back(sizes[pinned_part]);
  std::copy(host[pinned_part].begin(), host[pinned_part].end(), pinned.data());
  std::vector<std::vector<unsigned char>> back(sizes.size());
  std::vector<CopyPart> up, down;
  for (size_t i = 0; i < sizes.size(); ++i) {
    back[i].resize(sizes[i]);
    const bool locked = i == pinned_part;
    up.push_back({device[i].data(), locked ? pinned.data() : host[i].data(), sizes[i]});
    down.push_back({locked ? pinned_back.data() : back[i].data(), device[i].data(), sizes[i]});
  }
  upload(up, stream, __FILE__, __LINE__);
  download(down, stream, __FILE__, __LINE__);
  for (size_t i = 0; i < sizes.size(); ++i)
    GPU_CHECK(std::equal(host[i].begin(), host[i].end(), i == pinned_part ? pinned_back.data() : back[i].data()));
  // An upload into memory made on the way: the allocation runs on the calling thread (the device's
  // current one) while the others copy, and every part, staged or direct, lands in it.
  std::vector<DeviceBuffer<unsigned char>> made;
  std::vector<CopyPart> into = up;
  for (CopyPart& p : into) p.to = nullptr;
  const auto caller = std::this_thread::get_id();
  bool on_caller = false;
  upload(into, [&] {
    on_caller = std::this_thread::get_id() == caller;
    for (size_t i = 0; i < sizes.size(); ++i) into[i].to = made.emplace_back(sizes[i]).data();
  }, stream, __FILE__, __LINE__);
  GPU_CHECK(on_caller && made.size() == sizes.size());
  for (size_t i = 0; i < sizes.size(); ++i) {
    std::fill(back[i].begin(), back[i].end(), 0);
    down[i].from = made[i].data();
  }
  download(down, stream, __FILE__, __LINE__);
  for (size_t i = 0; i < sizes.size(); ++i)
    GPU_CHECK(std::equal(host[i].begin(), host[i].end(), i == pinned_part ? pinned_back.data() : back[i].data()));
  // One part alone, as DeviceBuffer's upload and download take it.
  DeviceBuffer<unsigned char> one(sizes[3]);
  one.upload(host[3], stream);
  std::vector<unsigned char> one_back(sizes[3]);
  one.download(std::span<unsigned char>(one_back), stream);
  GPU_CHECK(one_back == host[3]);
}

void check_streams_and_events() {
  StreamPool pool(3);
  GPU_CHECK(pool.size() == 3);
  Stream& first = pool.next();
  pool.next();
  pool.next();
  GPU_CHECK(&pool.next() == &first);  // round robin
  DeviceBuffer<char> big(size_t{64} << 20);
  Event start, end;
  start.record(first);
  big.fill_zero(first);
  end.record(first);
  end.wait_on(pool[1]);
  end.synchronize();
  GPU_CHECK(end.ready());
  const float ms = Event::elapsed_ms(start, end);
  GPU_CHECK(ms >= 0.0f);
  pool.synchronize_all();
  GPU_CHECK(throws_kind([] { StreamPool none(0); }, ErrorKind::usage));

  // A borrowed stream (a kernel call's) is used, moved and dropped without being destroyed.
  Stream callers;
  {
    KernelContext ctx;
    ctx.set_gpu_stream(callers.get());
    Stream borrowed = Stream::for_call(ctx);
    GPU_CHECK(borrowed.get() == callers.get());
    Stream moved = std::move(borrowed);
    big.fill_zero(moved);
  }
  callers.synchronize();  // an error here: the borrowed stream was destroyed
  GPU_CHECK(Stream::for_call(KernelContext()).get() != nullptr);  // no caller's stream: one of its own
}

void check_containers() {
  Stream stream;
  // 0 -> {1, 3}, 1 -> {}, 2 -> {0, 1, 2}
  Csr<float> g(3, 4, {0, 2, 2, 5}, {1, 3, 0, 1, 2}, {1.5f, -2.0f, 3.0f, 4.0f, 5.0f});
  DeviceCsr<float> dg = to_device(g, stream);
  GPU_CHECK(dg.n_rows() == 3 && dg.n_cols() == 4 && dg.nvals() == 5);
  const auto view = dg.view();
  GPU_CHECK(view.values != nullptr && view.n_rows == 3);
  Csr<float> back = dg.to_host(stream);
  back.validate();
  GPU_CHECK(std::equal(back.row_offsets().begin(), back.row_offsets().end(), g.row_offsets().begin()));
  GPU_CHECK(std::equal(back.col_indices().begin(), back.col_indices().end(), g.col_indices().begin()));
  GPU_CHECK(std::equal(back.values().begin(), back.values().end(), g.values().begin()));

  Csr<bool> pattern(2, 2, {0, 1, 2}, {1, 0});
  DeviceCsr<bool> dp = to_device(pattern, stream);
  GPU_CHECK(dp.values().empty() && dp.view().values == nullptr);
  Csr<bool> pattern_back = dp.to_host(stream);
  pattern_back.validate();
  GPU_CHECK(pattern_back.nvals() == 2 && pattern_back.col_indices()[0] == 1);

  // A graph whose new entries wait (gql/pending_stores.hpp) is uploaded with them merged, and its
  // device copy, kept with its contents, is made again after a store.
  Csr<float> stored = g.clone();
  GPU_CHECK(gpu::device_copy(stored, stream).nvals() == 5);
  stored.set_entry(1, 2, 7.0f);
  stored.set_entry(2, 3, 8.0f);
  stored.set_entry(1, 0, 6.0f);
  stored.set_entry(0, 3, -3.0f);  // stored: overwritten in place
  GPU_CHECK(!stored.settled());
  const auto merged = [](const Csr<float>& uploaded) {
    uploaded.validate();
    GPU_CHECK(std::vector<offset_t>(uploaded.row_offsets().begin(), uploaded.row_offsets().end()) ==
              (std::vector<offset_t>{0, 2, 4, 8}));
    GPU_CHECK(std::vector<index_t>(uploaded.col_indices().begin(), uploaded.col_indices().end()) ==
              (std::vector<index_t>{1, 3, 0, 2, 0, 1, 2, 3}));
    GPU_CHECK(std::vector<float>(uploaded.values().begin(), uploaded.values().end()) ==
              (std::vector<float>{1.5f, -3.0f, 6.0f, 7.0f, 3.0f, 4.0f, 5.0f, 8.0f}));
  };
  merged(to_device(stored, stream).to_host(stream));
  merged(gpu::device_copy(stored, stream).to_host(stream));
  Csr<bool> stored_pattern = pattern.clone();
  stored_pattern.set_entry(0, 0, 1);
  Csr<bool> stored_pattern_back = to_device(stored_pattern, stream).to_host(stream);
  GPU_CHECK(stored_pattern_back.nvals() == 3 && stored_pattern_back.col_indices()[0] == 0 &&
            stored_pattern_back.col_indices()[1] == 1);

  Matrix<double> m(2, 3, gql::Array<double>{1, 2, 3, 4, 5, 6});
  Matrix<double> m_back = to_device(m, stream).to_host(stream);
  GPU_CHECK(m_back.n_rows() == 2 && m_back.n_cols() == 3 && m_back(1, 2) == 6.0 && m_back(0, 1) == 2.0);

  Vector<int> dense = Vector<int>::dense(4, 9);
  Vector<int> dense_back = to_device(dense, stream).to_host(stream);
  GPU_CHECK(dense_back.is_dense() && dense_back.size() == 4 && dense_back.values()[3] == 9);
  Vector<int> sparse = Vector<int>::sparse(10, {2, 7}, {20, 70});
  Vector<int> sparse_back = to_device(sparse, stream).to_host(stream);
  sparse_back.validate();
  GPU_CHECK(!sparse_back.is_dense() && sparse_back.nvals() == 2 && sparse_back.indices()[1] == 7 &&
            sparse_back.values()[1] == 70);
  // A sparse vector's waiting stores too.
  Vector<int> stored_sparse = sparse.clone();
  stored_sparse.set_entry(0, 5);
  GPU_CHECK(!stored_sparse.settled());
  Vector<int> stored_sparse_back = to_device(stored_sparse, stream).to_host(stream);
  GPU_CHECK(stored_sparse_back.nvals() == 3 && stored_sparse_back.indices()[0] == 0 && stored_sparse_back.values()[0] == 5);
}

void check_budget_and_errors() {
  GPU_CHECK(parse_memory_size("1048576") == 1048576);
  GPU_CHECK(parse_memory_size("2G") == (size_t{2} << 30));
  GPU_CHECK(parse_memory_size("512M") == (size_t{512} << 20));
  GPU_CHECK(parse_memory_size("4k") == 4096 && parse_memory_size("3GiB") == (size_t{3} << 30));
  GPU_CHECK(parse_memory_size("1TB") == (size_t{1} << 40) && parse_memory_size("7B") == 7);
  for (const char* bad : {"", "G", "12X", "-5", "1.5G", "99999999999999999999", "16777216T"})
    GPU_CHECK_MSG(throws_kind([&] { parse_memory_size(bad); }, ErrorKind::usage), bad);

  MemoryBudget& budget = MemoryBudget::global();
  const auto saved = budget.limit();
  const size_t before = budget.in_use();
  {
    DeviceBuffer<char> held(1 << 20);
    GPU_CHECK(budget.in_use() == before + (1 << 20));
    budget.set_limit(before + (3 << 20));
    GPU_CHECK(budget.available() <= (2 << 20));
    DeviceBuffer<char> fits(1 << 20);
    std::string message;
    GPU_CHECK(throws_kind([] { DeviceBuffer<char> over(size_t{2} << 20); }, ErrorKind::oom, &message));
    GPU_CHECK_MSG(message.find("budget") != std::string::npos, message);
    GPU_CHECK(budget.in_use() == before + (2 << 20));  // the refused allocation was not charged
  }
  budget.set_limit(saved);
  GPU_CHECK(budget.in_use() == before);
  GPU_CHECK(budget.available() > 0);

  // A graph refused its device memory while its first chunk is copied: the error reaches the caller,
  // nothing stays charged, and the next upload goes through.
  const int64_t n = 1 << 18;
  Array<offset_t> offsets(n + 1, 0);
  Array<index_t> columns(n);
  for (int64_t i = 0; i < n; ++i) offsets[i + 1] = i + 1, columns[i] = static_cast<index_t>((i * 7919) % n);
  const Csr<bool> graph(n, n, std::move(offsets), Array<index_t>(columns));
  budget.set_limit(before + (1 << 20));
  GPU_CHECK(throws_kind([&] { to_device(graph, Stream()); }, ErrorKind::oom));
  budget.set_limit(saved);
  GPU_CHECK(budget.in_use() == before);
  const Csr<bool> graph_back = to_device(graph, Stream()).to_host(Stream());
  GPU_CHECK(std::equal(columns.begin(), columns.end(), graph_back.col_indices().begin()));

  // The device refusing an allocation is ErrorKind::oom too, and the process recovers from it.
  std::string message;
  GPU_CHECK(throws_kind([] { DeviceBuffer<char> huge(size_t{1} << 50); }, ErrorKind::oom, &message));
  GPU_CHECK_MSG(message.find("cudaMalloc") != std::string::npos, message);
  GPU_CHECK(budget.in_use() == before);
  DeviceBuffer<int> after(16);
  GPU_CHECK(after.data() != nullptr);

  // Any other failure is ErrorKind::cuda naming the call and this file and line.
  Error caught(ErrorKind::internal, "none");
  const int line = __LINE__ + 2;
  try {
    GQL_CUDA_CHECK(cudaSetDevice(1 << 20));
  } catch (const Error& e) {
    caught = e;
  }
  GPU_CHECK(caught.kind() == ErrorKind::cuda);
  GPU_CHECK_MSG(caught.reason().find("cudaSetDevice") != std::string::npos, caught.what());
  GPU_CHECK_MSG(caught.where().file.find("test_device_runtime.cpp") != std::string::npos, caught.what());
  GPU_CHECK(caught.where().line == line);
  GPU_CHECK(cudaGetLastError() == cudaSuccess);  // not left behind for the next check
}

}  // namespace

int main(int argc, char** argv) {
  return gql::gpu_test::run_main(argc, argv, "test_device_runtime", [] {
    check_buffers();
    check_staged_copies();
    check_streams_and_events();
    check_containers();
    check_budget_and_errors();
  });
}

// The closure over the ranks' GPUs (gql/dist/device_closure.hpp) and the exchanges under it
// (gql/dist/device_world.hpp). Run by CTest under mpiexec with 1, 2 and 3 ranks on the machine's
// GPUs: one rank per GPU goes through NCCL (where gql was built with it), ranks sharing a GPU through
// host memory over MPI. Every rank checks the whole joined result: equal entry for entry to the
// one-GPU closure with the same k-block and thread tile (each entry goes through the same steps),
// and to the OpenMP closure (exact for integers, 1e-5 relative for floats). Sizes include ranks
// without rows, blocks of unequal size and sizes that are not multiples of any tile.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "dist_check.hpp"
#include "gpu_check.hpp"
#include "gql/dist/device_closure.hpp"
#include "gql/dist/device_world.hpp"
#include "gql/dist/world.hpp"
#include "test_closure_check.hpp"

namespace {

using namespace gql;
using namespace closure_semirings;
using namespace closure_check;
using gpu_test::small_inputs;

template <class T>
bool same_bits(const Matrix<T>& a, const Matrix<T>& b) {
  return a.data().size() == b.data().size() &&
         std::memcmp(a.data().data(), b.data().data(), a.data().size() * sizeof(storage_t<T>)) == 0;
}

// Each rank's part of a device buffer (rank r's bytes: r + 1 repeated, unequal sizes, one rank's
// part empty) joined on every rank; a broadcast from the last rank.
void exchanges() {
  const dist::DeviceWorld& devices = gpu_test::the_devices();
  const int ranks = devices.world().size(), rank = devices.world().rank();
  std::vector<int64_t> offsets{0};
  for (int r = 0; r < ranks; ++r) offsets.push_back(offsets.back() + (r == 1 ? 0 : 1000 + 333 * r));
  const Stream stream;
  DeviceBuffer<std::byte> joined(static_cast<size_t>(offsets.back()));
  GQL_CUDA_CHECK(cudaMemsetAsync(joined.data(), 0, joined.bytes(), stream.get()));
  const auto mine = static_cast<size_t>(offsets[static_cast<size_t>(rank) + 1] - offsets[static_cast<size_t>(rank)]);
  GQL_CUDA_CHECK(cudaMemsetAsync(joined.data() + offsets[static_cast<size_t>(rank)], rank + 1, mine, stream.get()));
  devices.join_parts(joined.data(), offsets, stream.get());
  std::vector<std::byte> got(joined.size());
  GQL_CUDA_CHECK(cudaMemcpyAsync(got.data(), joined.data(), joined.bytes(), cudaMemcpyDeviceToHost, stream.get()));
  stream.synchronize();
  int64_t bad = 0;
  for (int r = 0; r < ranks; ++r)
    for (int64_t at = offsets[static_cast<size_t>(r)]; at < offsets[static_cast<size_t>(r) + 1]; ++at)
      bad += got[static_cast<size_t>(at)] != static_cast<std::byte>(r + 1);
  GPU_CHECK_MSG(bad == 0, std::to_string(bad) + " joined bytes differ (" + devices.describe() + ")");

  DeviceBuffer<int64_t> words(777);
  std::vector<int64_t> values(777);
  for (size_t i = 0; i < values.size(); ++i) values[i] = rank == ranks - 1 ? static_cast<int64_t>(i * i) : -1;
  GQL_CUDA_CHECK(cudaMemcpyAsync(words.data(), values.data(), words.bytes(), cudaMemcpyHostToDevice, stream.get()));
  devices.broadcast(words.data(), words.bytes(), ranks - 1, stream.get());
  GQL_CUDA_CHECK(cudaMemcpyAsync(values.data(), words.data(), words.bytes(), cudaMemcpyDeviceToHost, stream.get()));
  stream.synchronize();
  bad = 0;
  for (size_t i = 0; i < values.size(); ++i) bad += values[i] != static_cast<int64_t>(i * i);
  GPU_CHECK_MSG(bad == 0, std::to_string(bad) + " broadcast words differ (" + devices.describe() + ")");
}

// The row-block closure of `input` (whole on every rank) with k-block kb, joined on every rank.
template <class S, class T>
Matrix<T> over_the_ranks(const Matrix<T>& input, int kb) {
  using V = typename S::value_type;
  const dist::DeviceWorld& devices = gpu_test::the_devices();
  const int64_t n = input.n_rows();
  gpu::ClosureSchedule schedule;
  schedule.tile = kb;
  const dist::detail::DeviceRowsPlan plan = dist::device_rows_plan<S>(n, schedule);
  const Stream stream;
  DeviceMatrix<T> result(n, n);
  dist::close_on_devices<S>(devices, reinterpret_cast<const V*>(input.data().data()), cudaMemcpyHostToDevice,
                            reinterpret_cast<V*>(result.data().data()), n, plan, stream);
  return result.to_host(stream);
}

template <class S, class T>
void check_sizes(const std::string& what, uint64_t seed, storage_t<T> diagonal, double degree,
                 const std::function<int(std::mt19937_64&)>& weight) {
  const std::vector<int64_t> sizes =
      small_inputs() ? std::vector<int64_t>{70, 200} : std::vector<int64_t>{1, 33, 150, 301, 700};
  for (const int64_t n : sizes) {
    const Matrix<T> input = random_matrix<S, T>(n, degree / static_cast<double>(std::max<int64_t>(n, 4)), seed, weight, diagonal);
    Matrix<T> expected = input.clone();
    cpu::closure<S>(expected);
    for (const int kb : {256, 128, 64, 32}) {
      gpu::DeviceClosureOptions o;
      o.tile = kb;
      o.out_of_core = gpu::OutOfCore::off;
      Matrix<T> one_gpu = input.clone();
      gpu::closure<S>(one_gpu, o);
      const Matrix<T> got = over_the_ranks<S>(input, kb);
      const std::string at = what + " n=" + std::to_string(n) + " k-block " + std::to_string(kb) + " on " +
                             std::to_string(gpu_test::the_devices().world().size()) + " ranks";
      GPU_CHECK_MSG(same_bits(one_gpu, got), at + ": differs from the one-GPU closure");
      const int64_t bad = count_differences(expected, got);
      GPU_CHECK_MSG(bad == 0, at + ": " + std::to_string(bad) + " entries differ from the OpenMP closure");
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  return gpu_test::run_over_ranks(argc, argv, "gpu_test_dist_closure", [] {
    exchanges();
    const auto weight = [](std::mt19937_64& r) { return static_cast<int>(r() % 100) + 1; };
    check_sizes<MinPlus<float>, float>("min_plus f32", 1, 0.0f, 4.0, weight);
    check_sizes<MinPlusDpx, int>("min_plus i32 (DPX)", 3, 0, 4.0, weight);
    check_sizes<MinPlus<int64_t>, int64_t>("min_plus i64", 4, 0, 4.0, weight);
    check_sizes<OrAnd, bool>("or_and bool", 5, true, 1.5, [](std::mt19937_64&) { return 1; });
    check_sizes<MaxMin<float>, float>("max_min f32", 6, no_path<float>(), 4.0, weight);
  });
}

#include "gql/dist/device_world.hpp"

#include <cuda_runtime.h>

#include <string>
#include <utility>
#include <vector>

#if GQL_HAVE_NCCL
#include <nccl.h>
#endif

#include "gql/device.hpp"
#include "gql/dist/program.hpp"
#include "gql/error.hpp"

namespace gql::dist {
namespace {

#if GQL_HAVE_NCCL
void check_nccl(ncclResult_t code, const char* call) {
  if (code != ncclSuccess) throw Error(ErrorKind::cuda, std::string(call) + " failed: " + ncclGetErrorString(code));
}
#endif

const DeviceWorld* current = nullptr;

}  // namespace

// The communicator of the ranks, made at the first exchange (a collective call, as every exchange is):
// a program whose kernels exchange nothing starts no NCCL.
struct DeviceWorld::Nccl {
#if GQL_HAVE_NCCL
  ncclComm_t comm = nullptr;
  ~Nccl() {
    if (comm != nullptr) ncclCommDestroy(comm);
  }
  ncclComm_t get(const World& world) {
    if (comm != nullptr) return comm;
    ncclUniqueId id{};
    world.on_every_rank([&] {
      if (world.rank() == 0) check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
    });
    world.broadcast(std::as_writable_bytes(std::span<ncclUniqueId>(&id, 1)), 0);
    world.on_every_rank([&] { check_nccl(ncclCommInitRank(&comm, world.size(), id, world.rank()), "ncclCommInitRank"); });
    return comm;
  }
#endif
};

DeviceWorld::DeviceWorld(const World& world) : world_(world) {
  int devices = 0;
  world.on_every_rank([&] {
    devices = device_count();
    if (devices < 1) throw Error(ErrorKind::cuda, "no GPU is visible to this rank");
    device_ = world.host_rank() % devices;
    GQL_CUDA_CHECK(cudaSetDevice(device_));
  });
  // NCCL takes no two ranks of one communicator on one GPU.
  const int64_t sharing = world.sum(world.host_size() > devices ? 1 : 0);
#if GQL_HAVE_NCCL
  if (sharing == 0) {
    nccl_ = std::make_unique<Nccl>();
    return;
  }
  why_host_memory_ = std::to_string(sharing) + " of the " + std::to_string(world.size()) +
                     " ranks are on hosts with more ranks than GPUs, and NCCL takes one rank per GPU";
#else
  why_host_memory_ = sharing > 0 ? "ranks share GPUs, and gql was built without NCCL" : "gql was built without NCCL";
#endif
}

DeviceWorld::~DeviceWorld() = default;

std::string DeviceWorld::describe() const {
  return nccl_ ? std::string("NCCL") : "host memory over MPI (" + why_host_memory_ + ")";
}

void DeviceWorld::broadcast(void* data, size_t bytes, int root, cudaStream_t stream) const {
  if (world_.size() == 1 || bytes == 0) return;  // nothing to send (NCCL would still launch)
#if GQL_HAVE_NCCL
  if (nccl_) {
    check_nccl(ncclBroadcast(data, data, bytes, ncclChar, root, nccl_->get(world_), stream), "ncclBroadcast");
    return;
  }
#endif
  std::vector<std::byte> host(bytes);
  if (world_.rank() == root) GQL_CUDA_CHECK(cudaMemcpyAsync(host.data(), data, bytes, cudaMemcpyDeviceToHost, stream));
  GQL_CUDA_CHECK(cudaStreamSynchronize(stream));
  world_.broadcast(host, root);
  if (world_.rank() == root) return;
  GQL_CUDA_CHECK(cudaMemcpyAsync(data, host.data(), bytes, cudaMemcpyHostToDevice, stream));
  GQL_CUDA_CHECK(cudaStreamSynchronize(stream));  // before `host` goes
}

void DeviceWorld::join_parts(std::byte* joined, std::span<const int64_t> offsets, cudaStream_t stream) const {
  const int ranks = world_.size();
  if (offsets.size() != static_cast<size_t>(ranks) + 1)
    throw Error(ErrorKind::internal, "join_parts: " + std::to_string(offsets.size()) + " offsets for " +
                                         std::to_string(ranks) + " ranks");
  if (ranks == 1) return;
  const auto part = [&](int r) {
    return std::pair<int64_t, int64_t>{offsets[static_cast<size_t>(r)], offsets[static_cast<size_t>(r) + 1]};
  };
#if GQL_HAVE_NCCL
  if (nccl_) {
    const ncclComm_t comm = nccl_->get(world_);
    check_nccl(ncclGroupStart(), "ncclGroupStart");
    for (int r = 0; r < ranks; ++r) {
      const auto [begin, end] = part(r);
      if (end > begin)
        check_nccl(ncclBroadcast(joined + begin, joined + begin, static_cast<size_t>(end - begin), ncclChar, r, comm,
                                 stream),
                   "ncclBroadcast");
    }
    check_nccl(ncclGroupEnd(), "ncclGroupEnd");
    return;
  }
#endif
  const auto [mine_begin, mine_end] = part(world_.rank());
  std::vector<std::byte> host(static_cast<size_t>(offsets.back()));
  const auto mine_bytes = static_cast<size_t>(mine_end - mine_begin);
  GQL_CUDA_CHECK(cudaMemcpyAsync(host.data() + mine_begin, joined + mine_begin, mine_bytes, cudaMemcpyDeviceToHost, stream));
  GQL_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<int64_t> sizes;
  for (int r = 0; r < ranks; ++r) sizes.push_back(part(r).second - part(r).first);
  world_.join_parts(std::span<const std::byte>(host).subspan(static_cast<size_t>(mine_begin), mine_bytes), sizes, host);
  // The parts before this rank's and after it.
  GQL_CUDA_CHECK(cudaMemcpyAsync(joined, host.data(), static_cast<size_t>(mine_begin), cudaMemcpyHostToDevice, stream));
  GQL_CUDA_CHECK(cudaMemcpyAsync(joined + mine_end, host.data() + mine_end, static_cast<size_t>(offsets.back() - mine_end),
                                 cudaMemcpyHostToDevice, stream));
  GQL_CUDA_CHECK(cudaStreamSynchronize(stream));
}

namespace {
const World& world_loading_kernels_as(DeviceStart start) {
  choose_module_loading(start);
  return program_world();
}
}  // namespace

ProgramDevices::ProgramDevices(DeviceStart start) : devices_(world_loading_kernels_as(start)) { current = &devices_; }

ProgramDevices::~ProgramDevices() { current = nullptr; }

const DeviceWorld& program_devices() {
  if (current == nullptr)
    throw Error(ErrorKind::internal, "a distributed GPU op ran outside a program's ranks (no ProgramDevices)");
  return *current;
}

void use_program_devices(const DeviceWorld& devices) noexcept { current = &devices; }

}  // namespace gql::dist

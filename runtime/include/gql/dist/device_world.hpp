// The GPUs of a distributed run: one per rank, and how the ranks exchange device memory. Where gql
// was built with NCCL and every rank of a host has a GPU of its own, through NCCL (device to device,
// over NVLink where the GPUs have it); else through host memory over MPI (World): several ranks
// sharing a GPU, or no NCCL. The distributed GPU ops (gql/dist/device_closure.hpp) call only this.
//
// Built when MPI and CUDA are found (the library gql::dist); every rank must call the same exchanges
// in the same order, as with any collective MPI call.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "gql/device.hpp"
#include "gql/dist/world.hpp"

namespace gql::dist {

enum class DeviceTransport { nccl, host_memory };

class DeviceWorld {
 public:
  // Takes this rank's GPU (its rank among the host's ranks, modulo the host's GPUs; so call it before
  // any other CUDA call of the process) and the transport, alike on every rank; NCCL starts at the
  // first exchange. An error on any rank (no GPU, NCCL failing to start) is every rank's
  // (World::on_every_rank).
  explicit DeviceWorld(const World& world);
  DeviceWorld(const DeviceWorld&) = delete;
  DeviceWorld& operator=(const DeviceWorld&) = delete;
  ~DeviceWorld();

  const World& world() const noexcept { return world_; }
  int device() const noexcept { return device_; }
  DeviceTransport transport() const noexcept { return nccl_ ? DeviceTransport::nccl : DeviceTransport::host_memory; }
  // For --explain: "NCCL", or "host memory over MPI" and why.
  std::string describe() const;

  // Rank `root`'s `bytes` bytes at `data` (device memory, on every rank) copied to every rank's
  // `data`, after the work queued on `stream`; later work on `stream` sees them.
  void broadcast(void* data, size_t bytes, int root, cudaStream_t stream) const;
  // Every rank's part of `joined` (device memory of offsets.back() bytes on every rank; rank r's part
  // is [offsets[r], offsets[r + 1])) copied into every other rank's `joined`, ordered as broadcast.
  void join_parts(std::byte* joined, std::span<const int64_t> offsets, cudaStream_t stream) const;

 private:
  struct Nccl;
  const World& world_;
  int device_ = 0;
  std::unique_ptr<Nccl> nccl_;
  std::string why_host_memory_;
};

// The GPUs of a gqlc --mpi CUDA program's run: its main makes one, after its ProgramWorld and before
// the device starts, and the distributed GPU ops find it through program_devices(). Its first CUDA
// call comes before the device start, so it chooses how the kernels load as the device start would
// (`start`: the kernels' start, or with_cublas when a kernel of the program calls cuBLAS).
class ProgramDevices {
 public:
  explicit ProgramDevices(DeviceStart start);
  ProgramDevices(const ProgramDevices&) = delete;
  ProgramDevices& operator=(const ProgramDevices&) = delete;
  ~ProgramDevices();

 private:
  DeviceWorld devices_;
};

// Error(internal) when no ProgramDevices exists and none was handed over (use_program_devices).
const DeviceWorld& program_devices();
// Makes `devices` (a caller's, which outlives the calls) the GPUs of the distributed GPU ops: a CUDA
// kernel library that the JIT compiled for several processes holds its own copy of this library, and
// is handed its caller's DeviceWorld when loaded (gql/jit.hpp, CompilerOptions::devices).
void use_program_devices(const DeviceWorld& devices) noexcept;

}  // namespace gql::dist

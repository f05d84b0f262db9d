// The device memory budget.
#include "gql/device.hpp"

namespace gql {

MemoryBudget& MemoryBudget::global() {
  static MemoryBudget budget(memory_limit_from_environment("GQL_DEVICE_MEMORY_LIMIT"));
  return budget;
}

size_t MemoryBudget::available() const {
  size_t free_bytes = 0, total_bytes = 0;
  GQL_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const size_t cap = limit_.load();
  if (cap == no_limit) return free_bytes;
  const size_t used = in_use_.load();
  const size_t left = cap > used ? cap - used : 0;
  return left < free_bytes ? left : free_bytes;
}

void MemoryBudget::reserve(size_t bytes) {
  const size_t cap = limit_.load();
  const size_t before = in_use_.fetch_add(bytes);
  if (cap != no_limit && (before + bytes > cap || before + bytes < before)) {
    in_use_.fetch_sub(bytes);
    throw Error(ErrorKind::oom, "device memory budget exceeded: " + std::to_string(bytes) +
                                    " bytes requested, " + std::to_string(before) + " of " +
                                    std::to_string(cap) + " in use");
  }
}

}  // namespace gql

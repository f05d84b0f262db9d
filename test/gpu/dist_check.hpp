// What the tests of the ops over the ranks' GPUs share: their main (the MPI ranks, each rank's GPU,
// the transport said once by rank 0) and the ranks' GPUs while the test's body runs.
#pragma once

#include <cstdio>

#include "gpu_check.hpp"
#include "gql/dist/device_world.hpp"
#include "gql/dist/world.hpp"

namespace gql::gpu_test {

inline const dist::DeviceWorld*& current_devices() {
  static const dist::DeviceWorld* devices = nullptr;
  return devices;
}
// The ranks' GPUs of the running test (run_over_ranks).
inline const dist::DeviceWorld& the_devices() { return *current_devices(); }

// Runs the test's body on every rank with the ranks' GPUs; returns the process exit code.
template <class Body>
int run_over_ranks(int argc, char** argv, const char* name, Body body) {
  dist::World world(&argc, &argv);
  return run_main(argc, argv, name, [&] {
    const dist::DeviceWorld devices(world);
    current_devices() = &devices;
    if (world.rank() == 0) std::printf("%d ranks, transport: %s\n", world.size(), devices.describe().c_str());
    body();
    current_devices() = nullptr;
  });
}

}  // namespace gql::gpu_test

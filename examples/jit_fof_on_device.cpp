// Friends of friends on the GPU with the result left in device memory, called on a stream of the
// program's own: jit_fof_on_device [GRAPH] (a file or a generator spec, default kron:16).
// Calls fof twice per round, the result taken on the host and on the device, and prints both times:
// the difference is the copy of the result to the host that the device result does without.
#include <chrono>
#include <cstdio>
#include <future>
#include <string>

#include <gql/device.hpp>
#include <gql/gql.hpp>
#include <gql/jit.hpp>

int main(int argc, char** argv) try {
  const std::string graph = argc > 1 ? argv[1] : "kron:16";
  gql::Compiler compiler({.target = gql::Target::cuda});
  const gql::Kernel fof = compiler.compile_file(GQL_EXAMPLES_DIR "/fof.gql").kernel("fof");
  auto to_host = fof.bind<gql::Csr<uint64_t>(const gql::Csr<bool>&)>();
  auto on_device = fof.bind<gql::DeviceCsr<uint64_t>(const gql::Csr<bool>&)>();
  const gql::Csr<bool> G = gql::read_graph<bool>(graph);
  const gql::Stream stream;
  const auto seconds = [](auto&& call) {
    const auto start = std::chrono::steady_clock::now();
    call();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  for (int round = 0; round < 3; ++round) {  // the first round also loads the kernels
    long long host_entries = 0, device_entries = 0;
    const double host_s = seconds([&] { host_entries = to_host.async_on(stream.get(), G).get().nvals(); });
    const double device_s = seconds([&] { device_entries = on_device.async_on(stream.get(), G).get().nvals(); });
    std::printf("%s: fof has %lld entries; result on the host %.1f ms, on the device %.1f ms (%s)\n", graph.c_str(),
                host_entries, host_s * 1e3, device_s * 1e3, host_entries == device_entries ? "same size" : "SIZES DIFFER");
    if (host_entries != device_entries) return 1;
  }
  return 0;
} catch (const gql::Error& e) {
  std::fprintf(stderr, "jit_fof_on_device: %s\n", e.what());
  return 1;
}

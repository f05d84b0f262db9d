// The JIT through its cache: a fresh cache compiles, a new Compiler (as in a new process) reuses
// the disk entry, an edited spec compiles again, a corrupt entry is rebuilt, and processes
// starting together compile once.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "disk_cache.hpp"
#include "gql/gql.hpp"
#include "gql/jit.hpp"
#include "jit_test_support.hpp"

namespace gql {
namespace {

namespace fs = std::filesystem;

const char* two_hop = R"(
semiring count(a: bool, b: bool) -> u64 { con(a, b) = 1; agg(x, y) = x + y; zero = 0; }
kernel paths2(G: graph<bool>) -> graph<u64> { return G * G over count; }
)";
// The same kernel with a mask: a different generated source, so a different cache entry.
const char* two_hop_new = R"(
semiring count(a: bool, b: bool) -> u64 { con(a, b) = 1; agg(x, y) = x + y; zero = 0; }
kernel paths2(G: graph<bool>) -> graph<u64> {
  var C: graph<u64> = graph<u64>(rows(G), cols(G));
  C<!G, replace> = G * G over count;
  return C;
}
)";

// 0 -> 1 -> 2 and 0 -> 2: one two-hop path 0 -> 2, which is also an edge.
Csr<bool> triangle() { return Csr<bool>(3, 3, {0, 2, 3, 3}, {1, 2, 2}); }

struct Logged {
  std::vector<std::string> lines;
  CompilerOptions options(const std::string& cache) {
    CompilerOptions o;
    o.cache_dir = cache;
    o.verbose = true;
    o.log = [this](const std::string& line) { lines.push_back(line); };
    return o;
  }
  bool said(const std::string& what) const {
    for (const auto& l : lines)
      if (l.find(what) != std::string::npos) return true;
    return false;
  }
};

void write_file(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

TEST(JitCache, ColdThenDiskHitThenEditedSpecRecompiles) {
  test::ScratchDir dir;
  const fs::path spec = dir.path() / "paths.gql";
  write_file(spec, two_hop);
  {
    Logged log;
    Compiler c(log.options(dir.str() + "/cache"));
    auto k = c.compile_file(spec.string()).kernel("paths2").bind<Csr<uint64_t>(const Csr<bool>&)>();
    EXPECT_EQ(k(triangle()).nvals(), 1);
    EXPECT_TRUE(log.said("compiled by")) << log.lines.at(0);
  }
  // Clearing the in-process table is what a new process sees: the entry is on disk.
  jit_detail::forget_loaded_libraries();
  {
    Logged log;
    Compiler c(log.options(dir.str() + "/cache"));
    EXPECT_EQ(c.compile_file(spec.string()).kernel("paths2").bind<Csr<uint64_t>(const Csr<bool>&)>()(triangle()).nvals(), 1);
    EXPECT_TRUE(log.said("reused from the disk cache")) << log.lines.at(0);
  }
  // Edit the spec: the memo sees the new stamp, the new source has a new key.
  {
    Logged log;
    Compiler c(log.options(dir.str() + "/cache"));
    (void)c.compile_file(spec.string());
    write_file(spec, two_hop_new);
    fs::last_write_time(spec, fs::last_write_time(spec) + std::chrono::seconds(2));  // coarse clocks
    auto k = c.compile_file(spec.string()).kernel("paths2").bind<Csr<uint64_t>(const Csr<bool>&)>();
    EXPECT_EQ(k(triangle()).nvals(), 0);  // the only path is masked out by the edge 0 -> 2
    EXPECT_TRUE(log.said("compiled by"));
  }
}

// The memo keeps a module while the files it was compiled from hold the same text: an import
// rewritten with its size kept and its modification time set back once left the old kernel in use.
TEST(JitCache, AnImportEditedWithItsSizeAndTimeKeptCompilesAgain) {
  test::ScratchDir dir;
  const fs::path spec = dir.path() / "uses.gql", import = dir.path() / "count.gql";
  const auto semiring = [](int con) {
    return "semiring count(a: bool, b: bool) -> u64 { con(a, b) = " + std::to_string(con) +
           "; agg(x, y) = x + y; zero = 0; }\n";
  };
  write_file(import, semiring(1));
  write_file(spec, "import \"count.gql\";\nkernel paths2(G: graph<bool>) -> graph<u64> { return G * G over count; }\n");
  Compiler c({.cache_dir = test::shared_kernel_cache()});
  const auto path_value = [&] {
    auto k = c.compile_file(spec.string()).kernel("paths2").bind<Csr<uint64_t>(const Csr<bool>&)>();
    const Csr<uint64_t> C = k(triangle());
    return C.nvals() == 1 ? C.values()[0] : uint64_t{0};  // the one two-hop path, 0 -> 2
  };
  EXPECT_EQ(path_value(), 1u);
  const auto mtime = fs::last_write_time(import);
  write_file(import, semiring(2));
  fs::last_write_time(import, mtime);
  EXPECT_EQ(path_value(), 2u);
}

TEST(JitCache, CorruptLibraryIsRebuilt) {
  test::ScratchDir dir;
  std::string entry_path;
  jit_detail::forget_loaded_libraries();  // another test of this process may have loaded the same kernel
  {
    Compiler c({.cache_dir = dir.str()});
    const Module m = c.compile_source(two_hop, "paths.gql");
    // The entry path is the only .so in the cache.
    for (const auto& e : fs::directory_iterator(dir.path() / "v1"))
      if (e.path().extension() == ".so") entry_path = e.path().string();
  }
  ASSERT_FALSE(entry_path.empty());
  {
    std::fstream f(entry_path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(4096);
    f.put('\x5a');
  }
  std::string payload;
  EXPECT_FALSE(jit::DiskCache::read_payload(entry_path, payload));
  jit_detail::forget_loaded_libraries();
  Logged log;
  Compiler c(log.options(dir.str()));
  auto k = c.compile_source(two_hop, "paths.gql").kernel("paths2").bind<Csr<uint64_t>(const Csr<bool>&)>();
  EXPECT_EQ(k(triangle()).nvals(), 1);
  EXPECT_TRUE(log.said("corrupt")) << log.lines.at(0);
  EXPECT_TRUE(jit::DiskCache::read_payload(entry_path, payload));
}

TEST(JitCache, ThreadsAskingAtOnceCompileOnce) {
  test::ScratchDir dir;
  jit_detail::forget_loaded_libraries();
  Logged log;
  Compiler c(log.options(dir.str()));
  std::vector<std::thread> threads;
  std::vector<int64_t> nvals(4, -1);
  for (size_t t = 0; t < nvals.size(); ++t)
    threads.emplace_back([&, t] {
      auto k = c.compile_source(two_hop, "paths.gql").kernel("paths2").bind<Csr<uint64_t>(const Csr<bool>&)>();
      nvals[t] = k(triangle()).nvals();
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(nvals, std::vector<int64_t>(4, 1));
  int compiled = 0;
  for (const auto& line : log.lines) compiled += line.find("compiled by") != std::string::npos;
  EXPECT_EQ(compiled, 1);
}

TEST(JitCache, ProcessesStartingTogetherCompileOnce) {
  test::ScratchDir dir;
  const std::string cache = dir.str() + "/cache";
  constexpr int processes = 3;
  const test::RaceResult race = test::race_processes(processes, [&](int) {
    jit_detail::forget_loaded_libraries();
    Logged log;
    Compiler c(log.options(cache));
    auto k = c.compile_source(two_hop, "paths.gql").kernel("paths2").bind<Csr<uint64_t>(const Csr<bool>&)>();
    if (k(triangle()).nvals() != 1) return 4;
    return log.said("compiled by") ? test::did_the_work : test::reused_it;
  });
  EXPECT_TRUE(race.other_codes.empty()) << "a child exited with " << race.other_codes.front();
  EXPECT_EQ(race.did_the_work, 1);
  EXPECT_EQ(race.reused, processes - 1);
}

}  // namespace
}  // namespace gql

// The precompiled prelude of CPU kernels: one per cache and include set, reused by later kernels,
// rebuilt when corrupt, discarded when the compiler refuses it as stale, built once when processes
// ask together; a kernel always builds, with or without it. Small preludes keep these fast.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cpu_kernel_build.hpp"
#include "gql/compiler/install_layout.hpp"
#include "gql/error.hpp"
#include "jit_test_support.hpp"
#include "precompiled_prelude.hpp"

namespace gql::jit {
namespace {

namespace fs = std::filesystem;
using Prelude = KernelBuild::Prelude;

// A stand-in for generated code: the prelude's includes, then a function that uses them.
std::string kernel_source(const std::string& name, int value) {
  return "// Generated from " + name + "\n#include <numeric>\n\n#include <vector>\n\nextern \"C\" int " + name +
         "() {\n  std::vector<int> v(" + std::to_string(value) + ", 1);\n  return std::accumulate(v.begin(), v.end(), 0);\n}\n";
}

// Calls `function` in the library `path` (a fresh copy, so that dlopen never reuses a handle).
int call(const std::string& path, const std::string& function) {
  static int copies = 0;
  const std::string copy = path + ".copy" + std::to_string(copies++);
  fs::copy_file(path, copy, fs::copy_options::overwrite_existing);
  void* handle = ::dlopen(copy.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) return -1;
  auto* fn = reinterpret_cast<int (*)()>(::dlsym(handle, function.c_str()));
  const int result = fn ? fn() : -2;
  ::dlclose(handle);
  fs::remove(copy);
  return result;
}

struct Fixture {
  test::ScratchDir dir;
  DiskCache cache{dir.str(), uint64_t{1} << 32};
  compiler::RuntimeLayout layout = compiler::runtime_layout();
  HostCompiler host = find_host_compiler("");
  std::vector<std::string> flags = shared_object_flags(host, layout, {});
  CacheKeyBuilder setup = CacheKeyBuilder().add("test", "precompiled prelude");

  KernelBuild build(const std::string& name, int value, const std::string& output_name) {
    return build_kernel_library(cache, setup, host, flags, compiler::linked_libraries(layout, false), kernel_source(name, value),
                                (dir.path() / output_name).string(), failed_source(output_name));
  }
  std::string failed_source(const std::string& output_name) const {
    return (dir.path() / (output_name + ".failed.cpp")).string();
  }
  std::vector<fs::path> precompiled() const {
    std::vector<fs::path> found;
    for (const auto& e : fs::directory_iterator(fs::path(cache.root())))
      if (e.path().extension() == ".gch") found.push_back(e.path());
    return found;
  }
};

TEST(PreludeOf, TakesTheLeadingIncludesWithoutComments) {
  EXPECT_EQ(prelude_of(kernel_source("a", 1)), "#include <numeric>\n#include <vector>\n");
  EXPECT_EQ(prelude_of(kernel_source("a", 1)), prelude_of(kernel_source("b", 2)));
  EXPECT_EQ(prelude_of("int x;\n#include <vector>\n"), "");
  EXPECT_EQ(prelude_of("#include <a.hpp>\nnamespace n {\n#include <b.hpp>\n}\n"), "#include <a.hpp>\n");
}

TEST(PrecompiledPrelude, BuiltOnceThenReusedByLaterKernels) {
  Fixture f;
  const KernelBuild first = f.build("first", 3, "first.so");
  EXPECT_EQ(first.prelude, Prelude::used) << first.prelude_error;
  EXPECT_EQ(first.prelude_origin, CacheOrigin::built);
  EXPECT_GT(first.prelude_seconds, 0);
  const KernelBuild second = f.build("second", 5, "second.so");
  EXPECT_EQ(second.prelude, Prelude::used) << second.prelude_error;
  EXPECT_EQ(second.prelude_origin, CacheOrigin::disk);
  EXPECT_EQ(second.prelude_seconds, 0);
  EXPECT_EQ(f.precompiled().size(), 1u);
  EXPECT_EQ(call((f.dir.path() / "first.so").string(), "first"), 3);
  EXPECT_EQ(call((f.dir.path() / "second.so").string(), "second"), 5);
}

TEST(PrecompiledPrelude, AnotherIncludeSetGetsItsOwn) {
  Fixture f;
  (void)f.build("first", 3, "first.so");
  const std::string other = "#include <string>\nextern \"C\" int other() { return int(std::string(\"four\").size()); }\n";
  const KernelBuild b = build_kernel_library(f.cache, f.setup, f.host, f.flags, compiler::linked_libraries(f.layout, false), other,
                                             (f.dir.path() / "other.so").string(), f.failed_source("other.so"));
  EXPECT_EQ(b.prelude_origin, CacheOrigin::built);
  EXPECT_EQ(f.precompiled().size(), 2u);
  EXPECT_EQ(call((f.dir.path() / "other.so").string(), "other"), 4);
}

TEST(PrecompiledPrelude, CorruptEntryIsRebuilt) {
  Fixture f;
  (void)f.build("first", 3, "first.so");
  ASSERT_EQ(f.precompiled().size(), 1u);
  {
    std::fstream pch(f.precompiled()[0], std::ios::in | std::ios::out | std::ios::binary);
    pch.seekp(1000);
    pch.put('\x5a');
  }
  const KernelBuild again = f.build("second", 7, "second.so");
  EXPECT_EQ(again.prelude, Prelude::used) << again.prelude_error;
  EXPECT_EQ(again.prelude_origin, CacheOrigin::rebuilt);
  EXPECT_EQ(call((f.dir.path() / "second.so").string(), "second"), 7);
}

TEST(PrecompiledPrelude, StaleEntryIsDiscardedAndTheKernelStillBuilds) {
  Fixture f;
  if (!f.host.clang) GTEST_SKIP() << "g++ ignores a stale .gch by itself; clang refuses it";
  (void)f.build("first", 3, "first.so");
  ASSERT_EQ(f.precompiled().size(), 1u);
  // A header the precompiled form was built from changes on disk (here its modification time).
  const fs::path header = fs::path(f.precompiled()[0]).replace_extension();
  fs::last_write_time(header, fs::last_write_time(header) + std::chrono::seconds(5));
  const KernelBuild refused = f.build("second", 9, "second.so");
  EXPECT_EQ(refused.prelude, Prelude::refused);
  EXPECT_NE(refused.prelude_error.find("modified"), std::string::npos) << refused.prelude_error;
  EXPECT_EQ(call((f.dir.path() / "second.so").string(), "second"), 9);
  EXPECT_TRUE(f.precompiled().empty());
  const KernelBuild rebuilt = f.build("third", 11, "third.so");
  EXPECT_EQ(rebuilt.prelude, Prelude::used) << rebuilt.prelude_error;
  EXPECT_EQ(rebuilt.prelude_origin, CacheOrigin::built);
  EXPECT_EQ(call((f.dir.path() / "third.so").string(), "third"), 11);
}

// A source that does not compile is reported with the compiler's messages and kept where the caller
// said (one file per cache key), not beside the output; the precompiled prelude stays.
TEST(PrecompiledPrelude, SourceErrorsAreReportedAndKeepTheEntry) {
  Fixture f;
  (void)f.build("first", 3, "first.so");
  const std::string broken = "#include <numeric>\n#include <vector>\nextern \"C\" int broken() { return undeclared_name; }\n";
  try {
    (void)build_kernel_library(f.cache, f.setup, f.host, f.flags, compiler::linked_libraries(f.layout, false), broken, (f.dir.path() / "broken.so").string(),
                               f.failed_source("broken.so"));
    FAIL() << "the broken source compiled";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::jit);
    EXPECT_NE(std::string(e.what()).find("undeclared_name"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("the source is kept in " + f.failed_source("broken.so")), std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(fs::exists(f.failed_source("broken.so")));
  EXPECT_FALSE(fs::exists(f.dir.path() / "broken.so.cpp"));
  EXPECT_EQ(f.precompiled().size(), 1u);
}

TEST(PrecompiledPrelude, WithoutAKeyTheSourceIsCompiledPlain) {
  Fixture f;
  const KernelBuild b = build_kernel_library(f.cache, std::nullopt, f.host, f.flags, compiler::linked_libraries(f.layout, false), kernel_source("plain", 4),
                                             (f.dir.path() / "plain.so").string(), f.failed_source("plain.so"));
  EXPECT_EQ(b.prelude, Prelude::none);
  EXPECT_TRUE(f.precompiled().empty());
  EXPECT_EQ(call((f.dir.path() / "plain.so").string(), "plain"), 4);
}

TEST(PrecompiledPrelude, ProcessesStartingTogetherBuildItOnce) {
  test::ScratchDir dir;
  constexpr int processes = 3;
  const test::RaceResult race = test::race_processes(processes, [&](int n) {
    DiskCache cache(dir.str(), uint64_t{1} << 32);
    const compiler::RuntimeLayout layout = compiler::runtime_layout();
    const HostCompiler host = find_host_compiler("");
    const std::string name = "k" + std::to_string(n);
    const KernelBuild b =
        build_kernel_library(cache, CacheKeyBuilder().add("test", "together"), host,
                             shared_object_flags(host, layout, {}), compiler::linked_libraries(layout, false), kernel_source(name, n + 1),
                             (dir.path() / (name + ".so")).string(), (dir.path() / (name + ".failed.cpp")).string());
    if (b.prelude != Prelude::used) return 4;
    if (call((dir.path() / (name + ".so")).string(), name) != n + 1) return 5;
    return b.prelude_origin == CacheOrigin::built ? test::did_the_work : test::reused_it;
  });
  EXPECT_TRUE(race.other_codes.empty()) << "a child exited with " << race.other_codes.front();
  EXPECT_EQ(race.did_the_work, 1);
  EXPECT_EQ(race.reused, processes - 1);
}

}  // namespace
}  // namespace gql::jit

// Building generated source with an outside compiler (stand-ins here: /bin/true and /bin/false): a
// source that cannot be written whole is an io error, with nothing left behind (a full disk once left
// a 0-byte source that was compiled); a failed build keeps its source in one file per cache key.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <string>

#include "generated_source_build.hpp"
#include "gql/error.hpp"
#include "jit_test_support.hpp"

namespace gql::jit {
namespace {

namespace fs = std::filesystem;

const std::string source = "extern \"C\" int generated() { return 42; }\n";

// In a child whose files may hold 16 bytes (as on a full disk): exit 0 when the write is an io error
// naming the source and leaves no file.
TEST(GeneratedSourceBuild, ASourceThatCannotBeWrittenIsAnIoError) {
  test::ScratchDir dir;
  const std::string path = (dir.path() / "k.so.cpp").string();
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::signal(SIGXFSZ, SIG_IGN);  // a write past the limit then fails with EFBIG
    const rlimit cap{16, 16};
    if (setrlimit(RLIMIT_FSIZE, &cap) != 0) _exit(10);
    try {
      compile_generated_source(source, path, (dir.path() / "k.failed.cpp").string(), {"/bin/true"},
                               "compiling the generated kernels");
      _exit(11);  // written short and "compiled"
    } catch (const Error& e) {
      const bool said = std::string(e.what()).find("cannot write the generated source") != std::string::npos;
      _exit(e.kind() == ErrorKind::io && said && e.where().file == path && !fs::exists(path) ? 0 : 12);
    }
  }
  int status = -1;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(GeneratedSourceBuild, AFailedBuildKeepsItsSourceOncePerKeyUntilABuildSucceeds) {
  test::ScratchDir dir;
  const std::string failed = (dir.path() / "KEY.cpp").string();
  for (int attempt = 0; attempt < 2; ++attempt) {
    const std::string path = (dir.path() / ("KEY." + std::to_string(attempt) + ".so.cpp")).string();
    try {
      compile_generated_source(source, path, failed, {"/bin/false"}, "compiling the generated kernels");
      FAIL() << "/bin/false succeeded";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::jit);
      EXPECT_NE(std::string(e.what()).find("compiling the generated kernels failed (exit 1); the source is kept in " + failed),
                std::string::npos)
          << e.what();
    }
    EXPECT_FALSE(fs::exists(path));
  }
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir.path())) files += e.is_regular_file();
  EXPECT_EQ(files, 1u);  // KEY.cpp, the last failure's
  compile_generated_source(source, (dir.path() / "KEY.2.so.cpp").string(), failed, {"/bin/true"}, "compiling");
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

}  // namespace
}  // namespace gql::jit

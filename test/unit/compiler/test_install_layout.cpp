// Which gql installation gqlc and the JIT build against: the root a caller names, else $GQL_ROOT, else
// the package a program was configured against (find_package(gql)), else what is beside the tool.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "gql/compiler/install_layout.hpp"
#include "gql/error.hpp"

namespace gql::compiler {
namespace {

namespace fs = std::filesystem;

// A folder that counts as an installation (it holds include/gql/graph.hpp).
std::string fake_installation(const std::string& name) {
  const fs::path prefix = fs::temp_directory_path() / ("gql-layout-" + std::to_string(getpid())) / name;
  fs::create_directories(prefix / "include" / "gql");
  std::ofstream(prefix / "include" / "gql" / "graph.hpp") << "// stands for the header\n";
  return prefix.string();
}

// Sets $GQL_ROOT for one test and puts back what was there.
class GqlRoot {
 public:
  explicit GqlRoot(const std::string& value) {
    if (const char* old = std::getenv("GQL_ROOT")) old_ = old;
    setenv("GQL_ROOT", value.c_str(), 1);
  }
  ~GqlRoot() {
    if (old_) setenv("GQL_ROOT", old_->c_str(), 1);
    else unsetenv("GQL_ROOT");
  }
  GqlRoot(const GqlRoot&) = delete;
  GqlRoot& operator=(const GqlRoot&) = delete;

 private:
  std::optional<std::string> old_;
};

TEST(InstallLayout, GqlRootComesBeforeThePackage) {
  const std::string env = fake_installation("env"), package = fake_installation("package");
  const std::string named = fake_installation("named");
  {
    const GqlRoot root(env);
    EXPECT_EQ(runtime_layout("", package).root, env);
    EXPECT_EQ(runtime_layout(named, package).root, named);
    EXPECT_EQ(runtime_layout("", package).stdlib_dir, (fs::path(env) / "share" / "gql" / "stdlib").string());
  }
  const GqlRoot unset("");  // empty: as if unset
  EXPECT_EQ(runtime_layout("", package).root, package);
}

// This build tree (no installation above the test): generated code includes the runtime's headers and
// the core's (gql/error.hpp, gql/semiring.hpp), from their own folders.
TEST(InstallLayout, TheBuildTreeNamesTheRuntimesAndTheCoresHeaders) {
  const GqlRoot unset("");
  const RuntimeLayout layout = runtime_layout();
  if (!layout.root.empty()) GTEST_SKIP() << "an installation was found at " << layout.root;
  const auto holds = [&](const char* header) {
    for (const std::string& dir : layout.include_dirs)
      if (fs::is_regular_file(fs::path(dir) / header)) return true;
    return false;
  };
  EXPECT_TRUE(holds("gql/graph.hpp"));
  EXPECT_TRUE(holds("gql/error.hpp"));
  EXPECT_TRUE(holds("gql/semiring.hpp"));
}

TEST(InstallLayout, ANamedRootWithoutAnInstallationIsAnError) {
  const GqlRoot root("/nonexistent/gql");
  try {
    (void)runtime_layout("", fake_installation("package"));
    FAIL() << "a $GQL_ROOT without an installation was passed over";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    EXPECT_NE(e.reason().find("no gql installation under '/nonexistent/gql'"), std::string::npos) << e.reason();
  }
}

}  // namespace
}  // namespace gql::compiler

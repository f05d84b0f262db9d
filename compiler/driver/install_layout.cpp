#include "gql/compiler/install_layout.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "gql/error.hpp"
#include "toolchain_paths.hpp"

namespace gql::compiler {
namespace fs = std::filesystem;
namespace {

bool holds_installation(const fs::path& prefix) {
  std::error_code ec;
  return fs::is_regular_file(prefix / "include" / "gql" / "graph.hpp", ec);
}

RuntimeLayout common() {
  RuntimeLayout layout;
  for (const char* lib : toolchain_paths::link_libraries)
    if (*lib) layout.link_libraries.emplace_back(lib);
  for (const char* definition : toolchain_paths::compile_definitions)
    if (*definition) layout.compile_definitions.emplace_back(definition);
  layout.host_compiler = toolchain_paths::host_compiler;
  layout.cuda_compiler = toolchain_paths::cuda_compiler;
  layout.have_cuda = toolchain_paths::have_cuda;
  for (const char* dir : toolchain_paths::cuda_include_dirs)
    if (*dir) layout.cuda_include_dirs.emplace_back(dir);
  layout.have_mpi = toolchain_paths::have_mpi;
  for (const char* dir : toolchain_paths::mpi_include_dirs)
    if (*dir) layout.mpi_include_dirs.emplace_back(dir);
  for (const char* lib : toolchain_paths::mpi_link_libraries)
    if (*lib) layout.mpi_link_libraries.emplace_back(lib);
  return layout;
}

RuntimeLayout installed(const fs::path& prefix) {
  RuntimeLayout layout = common();
  layout.root = prefix.string();
  layout.include_dirs = {(prefix / "include").string()};
  layout.runtime_library = (prefix / toolchain_paths::install_libdir / toolchain_paths::runtime_library_name).string();
  if (layout.have_mpi)
    layout.dist_library = (prefix / toolchain_paths::install_libdir / toolchain_paths::dist_library_name).string();
  layout.stdlib_dir = (prefix / "share" / "gql" / "stdlib").string();
  return layout;
}

fs::path executable_prefix() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  return exe.parent_path().parent_path();
}

}  // namespace

std::vector<std::string> linked_libraries(const RuntimeLayout& layout, bool distributed) {
  std::vector<std::string> libraries;
  if (distributed) libraries.push_back(layout.dist_library);
  libraries.push_back(layout.runtime_library);
  libraries.insert(libraries.end(), layout.link_libraries.begin(), layout.link_libraries.end());
  if (distributed) libraries.insert(libraries.end(), layout.mpi_link_libraries.begin(), layout.mpi_link_libraries.end());
  return libraries;
}

RuntimeLayout runtime_layout(const std::string& root, const std::string& package_root) {
  std::string given = root;
  if (given.empty())
    if (const char* env = std::getenv("GQL_ROOT"); env && *env) given = env;
  if (given.empty()) given = package_root;
  if (!given.empty()) {
    if (!holds_installation(given))
      throw Error(ErrorKind::usage, "no gql installation under '" + given + "' (include/gql/graph.hpp is missing)");
    return installed(given);
  }
  if (const fs::path prefix = executable_prefix(); !prefix.empty() && holds_installation(prefix))
    return installed(prefix);
  std::error_code ec;
  if (fs::is_regular_file(fs::path(toolchain_paths::runtime_include) / "gql" / "graph.hpp", ec)) {
    RuntimeLayout layout = common();
    layout.include_dirs = {toolchain_paths::runtime_include, toolchain_paths::core_include};
    layout.runtime_library = toolchain_paths::runtime_library;
    layout.dist_library = toolchain_paths::dist_library;
    layout.stdlib_dir = toolchain_paths::stdlib_dir;
    return layout;
  }
  return installed(toolchain_paths::install_prefix);
}

}  // namespace gql::compiler

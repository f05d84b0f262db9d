#include "build_id.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cache_key.hpp"
#include "gql/compiler/version.hpp"

namespace gql::jit {
namespace fs = std::filesystem;

std::string library_identity(const std::string& path) {
  struct stat st {};
  ::stat(path.c_str(), &st);
  return path + " " + std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec);
}

std::string build_id(const compiler::RuntimeLayout& layout) {
  static std::mutex mutex;
  static std::map<std::string, std::string> computed;
  std::lock_guard lock(mutex);
  std::string where;
  for (const std::string& dir : layout.include_dirs) where += dir + "\n";
  auto& id = computed[where + layout.runtime_library];
  if (!id.empty()) return id;
  CacheKeyBuilder key;
  key.add("version", compiler::version());
  // Every header generated code may include, named relative to its folder (the same names in the
  // build tree's several folders as in an installation's one).
  std::vector<std::pair<std::string, fs::path>> headers;
  for (const std::string& dir : layout.include_dirs) {
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(fs::path(dir) / "gql", ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
      if (it->is_regular_file(ec)) headers.emplace_back(fs::relative(it->path(), dir, ec).string(), it->path());
  }
  std::sort(headers.begin(), headers.end());  // directory order is not stable
  for (const auto& [name, h] : headers) {
    std::ifstream in(h, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    key.add(name, text.str());
  }
  key.add("runtime", library_identity(layout.runtime_library));
  id = key.finish().hex();
  return id;
}

}  // namespace gql::jit

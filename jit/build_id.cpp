#include "build_id.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <vector>

#include "cache_key.hpp"
#include "gql/compiler/version.hpp"

namespace gql::jit {
namespace fs = std::filesystem;

std::string build_id(const compiler::RuntimeLayout& layout) {
  static std::mutex mutex;
  static std::map<std::string, std::string> computed;
  std::lock_guard lock(mutex);
  auto& id = computed[layout.include_dir + "\n" + layout.runtime_library];
  if (!id.empty()) return id;
  CacheKeyBuilder key;
  key.add("version", compiler::version());
  std::vector<fs::path> headers;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(fs::path(layout.include_dir) / "gql", ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file(ec)) headers.push_back(it->path());
  std::sort(headers.begin(), headers.end());  // directory order is not stable
  for (const fs::path& h : headers) {
    std::ifstream in(h, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    key.add(fs::relative(h, layout.include_dir, ec).string(), text.str());
  }
  struct stat st {};
  ::stat(layout.runtime_library.c_str(), &st);
  key.add("runtime", layout.runtime_library + " " + std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) +
                         "." + std::to_string(st.st_mtim.tv_nsec));
  id = key.finish().hex();
  return id;
}

}  // namespace gql::jit

// The stdlib's specs named, read from the source tree (GQL_SOURCE_DIR) and joined into one source, so
// that one kernel library holds every kernel of them.
#pragma once

#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>

namespace gql::test_support {

inline std::string stdlib_sources(std::initializer_list<const char*> names) {
  std::string text;
  for (const char* name : names) {
    std::ifstream in(std::string(GQL_SOURCE_DIR) + "/stdlib/std/" + name + ".gql");
    std::ostringstream file;
    file << in.rdbuf();
    text += file.str() + "\n";
  }
  return text;
}

}  // namespace gql::test_support

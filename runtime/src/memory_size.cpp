// The parsing of memory sizes ("2G", "512M", bytes) for the memory caps (GQL_HOST_MEMORY_LIMIT,
// GQL_DEVICE_MEMORY_LIMIT).
#include "gql/memory_size.hpp"

#include <cctype>
#include <cstdlib>
#include <limits>
#include <string>

#include "gql/error.hpp"

namespace gql {

size_t parse_memory_size(std::string_view text) {
  auto fail = [&] {
    throw Error(ErrorKind::usage, "bad memory size '" + std::string(text) +
                                      "' (expected bytes or a number with K, M, G or T, e.g. 512M)");
  };
  size_t pos = 0;
  size_t number = 0;
  while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) {
    const size_t digit = static_cast<size_t>(text[pos] - '0');
    if (number > (std::numeric_limits<size_t>::max() - digit) / 10) fail();
    number = number * 10 + digit;
    ++pos;
  }
  if (pos == 0) fail();
  std::string_view suffix = text.substr(pos);
  int shift = 0;
  if (!suffix.empty()) {
    switch (std::toupper(static_cast<unsigned char>(suffix[0]))) {
      case 'K': shift = 10; break;
      case 'M': shift = 20; break;
      case 'G': shift = 30; break;
      case 'T': shift = 40; break;
      case 'B': shift = 0; break;
      default: fail();
    }
    suffix.remove_prefix(1);
    if (shift > 0 && (suffix == "iB" || suffix == "IB" || suffix == "ib")) suffix = {};
    if (shift > 0 && (suffix == "B" || suffix == "b")) suffix = {};
    if (!suffix.empty()) fail();
  }
  if (shift > 0 && number > (std::numeric_limits<size_t>::max() >> shift)) fail();
  return number << shift;
}

std::optional<size_t> memory_limit_from_environment(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return std::nullopt;
  try {
    return parse_memory_size(value);
  } catch (const Error& e) {
    throw Error(ErrorKind::usage, std::string(name) + ": " + e.reason());
  }
}

}  // namespace gql

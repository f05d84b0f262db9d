// The device memory budget and the parsing of memory sizes ("2G", "512M", bytes).
#include <cctype>
#include <cstdlib>
#include <limits>
#include <string>

#include "gql/device.hpp"

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

MemoryBudget& MemoryBudget::global() {
  static MemoryBudget budget([] {
    const char* env = std::getenv("GQL_DEVICE_MEMORY_LIMIT");
    if (env == nullptr || *env == '\0') return std::optional<size_t>{};
    try {
      return std::optional<size_t>(parse_memory_size(env));
    } catch (const Error& e) {
      throw Error(ErrorKind::usage, std::string("GQL_DEVICE_MEMORY_LIMIT: ") + e.reason());
    }
  }());
  return budget;
}

size_t MemoryBudget::available() const {
  size_t free_bytes = 0, total_bytes = 0;
  GQL_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const size_t cap = limit_.load();
  if (cap == no_limit) return free_bytes;
  const size_t used = in_use_.load();
  const size_t left = cap > used ? cap - used : 0;
  return left < free_bytes ? left : free_bytes;
}

void MemoryBudget::reserve(size_t bytes) {
  const size_t cap = limit_.load();
  const size_t before = in_use_.fetch_add(bytes);
  if (cap != no_limit && (before + bytes > cap || before + bytes < before)) {
    in_use_.fetch_sub(bytes);
    throw Error(ErrorKind::oom, "device memory budget exceeded: " + std::to_string(bytes) +
                                    " bytes requested, " + std::to_string(before) + " of " +
                                    std::to_string(cap) + " in use");
  }
}

}  // namespace gql

// libFuzzer target: the binary (.gqlb) reader on arbitrary bytes. Each input is also parsed with its
// two checksums recomputed, so that mutations reach the structural checks behind them.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cstring>
#include <string>

#include "fuzz_read_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  // No size filter: a .gqlb must hold every byte its header declares, so it cannot ask for more memory.
  gql_fuzz::parse_all(bytes, gql::Format::binary);
  constexpr size_t header = 64, payload_sum = 48, header_sum = 56;
  if (size >= header) {
    std::string fixed(bytes);
    const uint64_t payload = XXH3_64bits(fixed.data() + header, fixed.size() - header);
    std::memcpy(fixed.data() + payload_sum, &payload, sizeof payload);
    const uint64_t head = XXH3_64bits(fixed.data(), header_sum);
    std::memcpy(fixed.data() + header_sum, &head, sizeof head);
    gql_fuzz::parse_all(fixed, gql::Format::binary);
  }
  return 0;
}

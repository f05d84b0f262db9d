// libFuzzer target: the binary reader on arbitrary bytes.
#include "fuzz_read_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  // No size filter: a .gqlb must hold every byte its header declares, so it cannot ask for more memory.
  gql_fuzz::parse_all(bytes, gql::Format::binary);
  return 0;
}

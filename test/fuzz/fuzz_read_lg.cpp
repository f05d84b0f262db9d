// libFuzzer target: the LG (Graphs.jl) reader on arbitrary bytes.
#include "fuzz_read_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  gql_fuzz::parse_all(bytes, gql::Format::lg);
  return 0;
}

# cmake -DROOT=<runtime/include> -DOUT=<file.cpp> -P embed_headers.cmake
# Writes the NVRTC-compatible runtime headers (gql/*.hpp beside semiring.hpp's rules and gql/device/*)
# into a C++ file as strings, so that NVRTC needs no files at run time.
file(GLOB headers RELATIVE ${ROOT} ${ROOT}/gql/semiring.hpp ${ROOT}/gql/scalar_ops.hpp ${ROOT}/gql/scalar_limits.hpp
     ${ROOT}/gql/integer_ops.hpp ${ROOT}/gql/swapped_operands.hpp ${ROOT}/gql/device/*.cuh)
list(SORT headers)
set(body "")
set(entries "")
set(index 0)
foreach(h ${headers})
  file(READ ${ROOT}/${h} text)
  string(APPEND body "const char header_${index}[] = R\"gqlembed(${text})gqlembed\";\n")
  string(APPEND entries "    {\"${h}\", header_${index}},\n")
  math(EXPR index "${index} + 1")
endforeach()
file(WRITE ${OUT}.tmp "// Generated from runtime/include by embed_headers.cmake: the headers NVRTC compiles kernels with.
#include \"embedded_headers.hpp\"

namespace gql::jit {
namespace {
${body}}  // namespace

std::span<const EmbeddedHeader> embedded_headers() noexcept {
  static const EmbeddedHeader headers[] = {
${entries}  };
  return headers;
}

}  // namespace gql::jit
")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)

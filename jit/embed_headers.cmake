# cmake -DCORE_ROOT=<core/include> -DROOT=<runtime/include> -DOUT=<file.cpp> -P embed_headers.cmake
# Writes the NVRTC-compatible headers (the core's gql/semiring.hpp and gql/load_balance.hpp; the
# runtime's gql/*.hpp beside semiring.hpp's rules and every .cuh of gql/device/ and its folders) into
# a C++ file as strings, so
# that NVRTC needs no files at run time. Each is named as it is included (gql/semiring.hpp,
# gql/device/spgemm/spgemm_dot.cuh).
set(headers "")
foreach(h gql/semiring.hpp gql/load_balance.hpp)
  list(APPEND headers "${CORE_ROOT}|${h}")
endforeach()
file(GLOB runtime_headers RELATIVE ${ROOT} ${ROOT}/gql/scalar_ops.hpp ${ROOT}/gql/scalar_limits.hpp
     ${ROOT}/gql/integer_ops.hpp ${ROOT}/gql/swapped_operands.hpp)
file(GLOB_RECURSE device_headers RELATIVE ${ROOT} ${ROOT}/gql/device/*.cuh)
list(APPEND runtime_headers ${device_headers})
foreach(h ${runtime_headers})
  list(APPEND headers "${ROOT}|${h}")
endforeach()
# Sorted by name, as before the core's headers had a folder of their own.
set(named "")
foreach(entry ${headers})
  string(REPLACE "|" ";" parts "${entry}")
  list(GET parts 1 name)
  list(APPEND named "${name}|${entry}")
endforeach()
list(SORT named)
set(body "")
set(entries "")
set(index 0)
foreach(item ${named})
  string(REPLACE "|" ";" parts "${item}")
  list(GET parts 0 h)
  list(GET parts 1 root)
  file(READ ${root}/${h} text)
  string(APPEND body "const char header_${index}[] = R\"gqlembed(${text})gqlembed\";\n")
  string(APPEND entries "    {\"${h}\", header_${index}},\n")
  math(EXPR index "${index} + 1")
endforeach()
file(WRITE ${OUT}.tmp "// Generated from core/include and runtime/include by embed_headers.cmake: the headers NVRTC compiles kernels with.
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

// The runtime's device headers, compiled into the library for NVRTC (embed_headers.cmake).
#pragma once

#include <span>

namespace gql::jit {

struct EmbeddedHeader {
  const char* name;  // as included: "gql/device/types.cuh"
  const char* text;
};

std::span<const EmbeddedHeader> embedded_headers() noexcept;

}  // namespace gql::jit

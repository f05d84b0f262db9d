// The fixed-width integer names generated device code uses, for NVRTC, which has no <cstdint>:
// spelled as the LP64 host spells them, so that a type means the same on both sides.
// NVRTC-compatible; a host or nvcc compile takes them from <cstdint>.
#pragma once

#if defined(__CUDACC_RTC__)
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long uint64_t;
#else
#include <cstdint>
#endif

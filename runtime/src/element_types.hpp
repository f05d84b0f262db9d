// The element types the runtime's readers, writers and generators are instantiated for: every C++
// arithmetic type a generated program may name (int64_t and long long are distinct types on Linux).
#pragma once

#include <cstdint>

// A build may name a shorter list (the fuzz build does, to keep sanitizer builds quick).
#ifndef GQL_FOR_EACH_ELEMENT_TYPE
#define GQL_FOR_EACH_ELEMENT_TYPE(X)                                                              \
  X(bool) X(signed char) X(unsigned char) X(short) X(unsigned short) X(int) X(unsigned) X(long) \
  X(unsigned long) X(long long) X(unsigned long long) X(float) X(double)
#endif

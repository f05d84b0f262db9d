// Counters for n columns held as bit planes ("bit-sliced"): word w of plane b holds bit b of the
// counts of columns 64w .. 64w + 63. Adding a whole bitmap (one more for every column whose bit is
// set) then costs a few word operations per 64 columns, whatever the bitmap's number of set bits,
// where adding its columns one at a time costs a scattered read-modify-write each. The counting
// product adds B's rows of many entries this way (see accumulator_count.hpp).
//
// Bitmaps go in three at a time: a full adder makes their 2-bit sum per column, which ripples into
// the planes; the loop over words has no branch, so the compiler vectorizes it. Counts come back 64
// columns at a time by transposing bits (SSE2 where there is, plain 64-bit words otherwise).
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace gql::cpu::detail {

class BitSlicedCounts {
 public:
  static constexpr int max_planes = 8;
  static constexpr int64_t max_count = (int64_t{1} << max_planes) - 1;
  static constexpr int bitmaps_per_add = 3;

  explicit BitSlicedCounts(size_t n_words)
      : n_words_(n_words), planes_(n_words * max_planes, 0), zeros_(n_words, 0) {}

  // Sizes the planes for counts up to `most` (1 to max_count); every count must be zero.
  void begin(int64_t most) noexcept { n_planes_ = static_cast<int>(std::bit_width(static_cast<uint64_t>(most))); }

  // Adds one to the count of every column set in bitmaps[0, count) (count <= bitmaps_per_add, each
  // n_words long) and sets those columns in `present`. No count may pass the `most` of begin().
  void add(const uint64_t* const* bitmaps, int count, uint64_t* present) noexcept {
    const uint64_t* x[bitmaps_per_add] = {zeros_.data(), zeros_.data(), zeros_.data()};
    for (int q = 0; q < count; ++q) x[q] = bitmaps[q];
    switch (n_planes_) {
      case 1: return add_three<1>(x[0], x[1], x[2], present);
      case 2: return add_three<2>(x[0], x[1], x[2], present);
      case 3: return add_three<3>(x[0], x[1], x[2], present);
      case 4: return add_three<4>(x[0], x[1], x[2], present);
      case 5: return add_three<5>(x[0], x[1], x[2], present);
      case 6: return add_three<6>(x[0], x[1], x[2], present);
      case 7: return add_three<7>(x[0], x[1], x[2], present);
      default: return add_three<8>(x[0], x[1], x[2], present);
    }
  }

  // Calls f(std::integral_constant<int, P>{}) for the number of planes P in use, so that loops over
  // the planes unroll.
  template <class F>
  decltype(auto) with_planes(F&& f) const {
    switch (n_planes_) {
      case 1: return f(std::integral_constant<int, 1>{});
      case 2: return f(std::integral_constant<int, 2>{});
      case 3: return f(std::integral_constant<int, 3>{});
      case 4: return f(std::integral_constant<int, 4>{});
      case 5: return f(std::integral_constant<int, 5>{});
      case 6: return f(std::integral_constant<int, 6>{});
      case 7: return f(std::integral_constant<int, 7>{});
      default: return f(std::integral_constant<int, 8>{});
    }
  }

  // Words w of the P planes in use (the counts of columns 64w .. 64w + 63; the planes above P are
  // zero), which become zero.
  template <int P>
  std::array<uint64_t, max_planes> take_word(size_t w) noexcept {
    std::array<uint64_t, max_planes> word{};
    for (int b = 0; b < P; ++b) {
      word[static_cast<size_t>(b)] = plane(b)[w];
      plane(b)[w] = 0;
    }
    return word;
  }

  // The 64 counts of a word taken by take_word, column 64w + l in counts[l]. Byte g of plane b is
  // bit b of the counts of 8 columns: the counts are the transpose of that 8 x 8 bit matrix, which
  // gathers byte g of each plane into one 64-bit word (a byte transpose), then transposes its bits.
  static void counts_of_word(const std::array<uint64_t, max_planes>& word, uint8_t (&counts)[64]) noexcept {
#if defined(__SSE2__)
    // Bytes interleave plane by plane (unpack 8, 16, 32 bits), leaving 64-bit lane h of block k
    // with byte 2k + h of every plane.
    __m128i p[max_planes];
    for (size_t b = 0; b < max_planes; ++b) p[b] = _mm_cvtsi64_si128(static_cast<long long>(word[b]));
    const __m128i t0 = _mm_unpacklo_epi8(p[0], p[1]), t1 = _mm_unpacklo_epi8(p[2], p[3]);
    const __m128i t2 = _mm_unpacklo_epi8(p[4], p[5]), t3 = _mm_unpacklo_epi8(p[6], p[7]);
    const __m128i u0 = _mm_unpacklo_epi16(t0, t1), u1 = _mm_unpackhi_epi16(t0, t1);
    const __m128i u2 = _mm_unpacklo_epi16(t2, t3), u3 = _mm_unpackhi_epi16(t2, t3);
    const __m128i blocks[4] = {_mm_unpacklo_epi32(u0, u2), _mm_unpackhi_epi32(u0, u2), _mm_unpacklo_epi32(u1, u3),
                               _mm_unpackhi_epi32(u1, u3)};
    for (int k = 0; k < 4; ++k) {
      __m128i x = blocks[k];
      x = transpose_step<7>(x, _mm_set1_epi64x(0x00AA00AA00AA00AA));
      x = transpose_step<14>(x, _mm_set1_epi64x(0x0000CCCC0000CCCC));
      x = transpose_step<28>(x, _mm_set1_epi64x(0x00000000F0F0F0F0));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(counts + 16 * k), x);
    }
#else
    counts_of_word_portable(word, counts);
#endif
  }

  // The same without vector instructions.
  static void counts_of_word_portable(const std::array<uint64_t, max_planes>& word, uint8_t (&counts)[64]) noexcept {
    for (int g = 0; g < 8; ++g) {
      uint64_t x = 0;
      for (size_t b = 0; b < max_planes; ++b) x |= ((word[b] >> (8 * g)) & 0xFF) << (8 * b);
      x = transpose_step(x, 7, 0x00AA00AA00AA00AA);
      x = transpose_step(x, 14, 0x0000CCCC0000CCCC);
      x = transpose_step(x, 28, 0x00000000F0F0F0F0);
      for (int l = 0; l < 8; ++l) counts[8 * g + l] = static_cast<uint8_t>(x >> (8 * l));
    }
  }

 private:
  // One step of transposing the 8 x 8 bit matrix in a 64-bit word (byte r = row r, bit c = column c):
  // swaps the bits that `mask` selects with those `shift` above them (Hacker's Delight, 7-3).
  static constexpr uint64_t transpose_step(uint64_t x, int shift, uint64_t mask) noexcept {
    const uint64_t t = (x ^ (x >> shift)) & mask;
    return x ^ t ^ (t << shift);
  }
#if defined(__SSE2__)
  template <int shift>
  static __m128i transpose_step(__m128i x, __m128i mask) noexcept {
    const __m128i t = _mm_and_si128(_mm_xor_si128(x, _mm_srli_epi64(x, shift)), mask);
    return _mm_xor_si128(_mm_xor_si128(x, t), _mm_slli_epi64(t, shift));
  }
#endif

  uint64_t* plane(int b) noexcept { return planes_.data() + static_cast<size_t>(b) * n_words_; }
  const uint64_t* plane(int b) const noexcept { return planes_.data() + static_cast<size_t>(b) * n_words_; }

  template <int P>
  void add_three(const uint64_t* __restrict x0, const uint64_t* __restrict x1, const uint64_t* __restrict x2,
                 uint64_t* __restrict present) noexcept {
    uint64_t* __restrict p[P];
    for (int b = 0; b < P; ++b) p[b] = plane(b);
    for (size_t w = 0; w < n_words_; ++w) {
      const uint64_t a = x0[w], c = x1[w], d = x2[w];
      present[w] |= a | c | d;
      // Full adder: the three bits' sum is low + 2 * high.
      const uint64_t ac = a ^ c;
      const uint64_t low = ac ^ d;
      const uint64_t high = (a & c) | (ac & d);
      // Plane 0 takes low; plane 1 takes high and plane 0's carry (at most one carry leaves it);
      // the planes above take a single carry each.
      const uint64_t p0 = p[0][w];
      p[0][w] = p0 ^ low;
      if constexpr (P > 1) {
        uint64_t carry = p0 & low;
        const uint64_t p1 = p[1][w];
        const uint64_t in = high ^ carry;
        p[1][w] = p1 ^ in;
        carry = (high & carry) | (p1 & in);
        for (int b = 2; b < P; ++b) {
          const uint64_t pb = p[b][w];
          p[b][w] = pb ^ carry;
          carry &= pb;
        }
      }
    }
  }

  size_t n_words_;
  int n_planes_ = 0;
  std::vector<uint64_t> planes_;  // max_planes planes of n_words_ words
  std::vector<uint64_t> zeros_;   // stands in for a missing bitmap
};

}  // namespace gql::cpu::detail

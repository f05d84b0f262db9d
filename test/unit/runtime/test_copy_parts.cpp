// The host half of staged copies (gql/copy_parts.hpp): the link width each bound gets, chunks that cover
// every part once in order with narrowed parts cut between elements, and the packing of narrowed
// elements (checked by widening them back here, as the device does).
#include <gtest/gtest.h>
#include <omp.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "gql/copy_parts.hpp"

namespace {

using gql::CopyPart;
using gql::narrowed_part;
using gql::chunking::Chunks;

constexpr size_t MiB = size_t{1} << 20;

TEST(CopyParts, WidthFromBound) {
  const int x = 0;
  EXPECT_EQ(narrowed_part(nullptr, &x, 1, 4, uint64_t{1} << 24).wire_bytes, 3u);
  EXPECT_EQ(narrowed_part(nullptr, &x, 1, 4, (uint64_t{1} << 24) + 1).wire_bytes, 0u);  // needs 4: as it lies
  EXPECT_EQ(narrowed_part(nullptr, &x, 1, 4, 257).wire_bytes, 2u);
  EXPECT_EQ(narrowed_part(nullptr, &x, 1, 4, 256).wire_bytes, 1u);
  EXPECT_EQ(narrowed_part(nullptr, &x, 1, 4, 1).wire_bytes, 1u);
  EXPECT_EQ(narrowed_part(nullptr, &x, 1, 4, 0).wire_bytes, 1u);
  EXPECT_EQ(narrowed_part(nullptr, &x, 1, 8, uint64_t{1} << 32).wire_bytes, 4u);
  EXPECT_EQ(narrowed_part(nullptr, &x, 1, 8, (uint64_t{1} << 56) + 1).wire_bytes, 0u);
  const CopyPart p = narrowed_part(nullptr, &x, 5, 8, 70000);
  EXPECT_EQ(p.bytes, 40u);
  EXPECT_EQ(p.element_bytes, 8u);
  EXPECT_EQ(p.wire_bytes, 3u);
}

// Every part's bytes covered once, in order, by pieces that lie end to end in their chunks, none past
// the chunk's size, a narrowed part's pieces holding whole elements.
void expect_covering(const std::vector<CopyPart>& parts, bool narrow) {
  const Chunks chunks(parts, narrow, MiB, 32 * MiB);
  std::vector<size_t> next(parts.size(), 0);
  size_t total_wire = 0;
  for (const CopyPart& p : parts) total_wire += gql::chunking::wire_bytes_of(p, narrow);
  size_t seen_wire = 0;
  for (size_t c = 0; c < chunks.count(); ++c) {
    size_t at = 0;
    ASSERT_FALSE(chunks.pieces(c).empty()) << "chunk " << c;
    for (const auto& piece : chunks.pieces(c)) {
      const auto part = static_cast<size_t>(piece.part - parts.data());
      ASSERT_LT(part, parts.size());
      const CopyPart& p = parts[part];
      const bool narrowed = narrow && p.wire_bytes != 0;
      EXPECT_EQ(piece.in_chunk, at) << "chunk " << c;
      EXPECT_EQ(piece.in_part, next[part]) << "part " << part;
      if (narrowed) {
        EXPECT_EQ(piece.in_part % p.element_bytes, 0u);
        EXPECT_EQ(piece.wire % p.wire_bytes, 0u);
        next[part] += piece.wire / p.wire_bytes * p.element_bytes;
      } else {
        next[part] += piece.wire;
      }
      EXPECT_GT(piece.wire, 0u);
      at += piece.wire;
      seen_wire += piece.wire;
    }
    EXPECT_LE(at, chunks.chunk_bytes()) << "chunk " << c;
  }
  for (size_t part = 0; part < parts.size(); ++part) EXPECT_EQ(next[part], parts[part].bytes) << "part " << part;
  EXPECT_EQ(seen_wire, total_wire);
  EXPECT_GE(chunks.chunk_bytes(), MiB);
  EXPECT_LE(chunks.chunk_bytes(), 32 * MiB);
}

TEST(CopyParts, ChunksCoverEveryPartOnce) {
  const int x = 0;
  // A graph of 2^20 vertices and 31.4 M entries: offsets (8 bytes, in 4) then column ids (in 3).
  const std::vector<CopyPart> graph = {narrowed_part(nullptr, &x, (1 << 20) + 1, 8, 31400001),
                                       narrowed_part(nullptr, &x, 31400000, 4, 1 << 20), {nullptr, &x, 0}};
  expect_covering(graph, true);
  expect_covering(graph, false);  // a download takes them as they lie
  EXPECT_EQ(gql::chunking::wire_bytes_of(graph[1], true), size_t{31400000} * 3);
  // Parts whose sizes cut chunks at every offset of an element, tiny parts among them.
  std::mt19937_64 rng(5);
  for (int round = 0; round < 40; ++round) {
    std::vector<CopyPart> parts;
    for (int n = 0; n < 1 + round % 7; ++n) {
      const unsigned element = rng() % 2 ? 4 : 8;
      const size_t count = rng() % 3 == 0 ? rng() % 7 : rng() % (3 * MiB);
      const uint64_t bound = uint64_t{1} << (1 + rng() % (element * 8 - 1));
      parts.push_back(rng() % 4 == 0 ? CopyPart{nullptr, &x, count} : narrowed_part(nullptr, &x, count, element, bound));
    }
    expect_covering(parts, true);
  }
}

// Packs `values` (each below 2^(8 wire)) and widens them back; the bytes past the packed ones untouched.
template <class Word>
void expect_round_trip(const std::vector<Word>& values, unsigned wire) {
  const size_t guard = 16;
  std::vector<unsigned char> packed(values.size() * wire + guard, 0xa5);
  gql::chunking::parallel_pack(packed.data(), reinterpret_cast<const unsigned char*>(values.data()), values.size(),
                               sizeof(Word), wire);
  for (size_t i = 0; i < values.size(); ++i) {
    Word back = 0;
    for (unsigned b = 0; b < wire; ++b) back |= static_cast<Word>(packed[i * wire + b]) << (8 * b);
    ASSERT_EQ(back, values[i]) << "element " << i << " of " << values.size() << ", " << wire << " bytes";
  }
  for (size_t g = 0; g < guard; ++g) ASSERT_EQ(packed[values.size() * wire + g], 0xa5) << "written past the end";
}

template <class Word>
void check_widths() {
  std::mt19937_64 rng(17);
  for (unsigned wire = 1; wire < sizeof(Word); ++wire)
    for (size_t count : {size_t{0}, size_t{1}, size_t{2}, size_t{3}, size_t{5}, size_t{16383}, size_t{16385},
                         size_t{100003}, size_t{262147}}) {
      const Word limit = static_cast<Word>(Word{1} << (8 * wire));
      std::vector<Word> values(count);
      for (size_t i = 0; i < count; ++i) values[i] = i % 13 == 0 ? static_cast<Word>(limit - 1) : static_cast<Word>(rng() % limit);
      expect_round_trip(values, wire);
    }
}

TEST(CopyParts, PackKeepsEveryElementAndStaysInItsBytes) {
  const int threads_before = omp_get_max_threads();
  for (int threads : {1, 3, 8}) {
    omp_set_num_threads(threads);
    check_widths<uint32_t>();
    check_widths<uint64_t>();
  }
  omp_set_num_threads(threads_before);
}

}  // namespace

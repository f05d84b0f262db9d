// The host containers' storage (gql/array.hpp): large blocks freed are handed back to the next array
// of their size, within the cache's bounds, and given back to the system on request.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "gql/array.hpp"

namespace {

constexpr size_t mib = size_t{1} << 20;

TEST(LargeBlocks, AFreedBlockIsHandedToTheNextArrayOfItsSize) {
  gql::release_kept_host_blocks();
  const void* first = nullptr;
  {
    gql::Array<double> a(8 * mib / sizeof(double));
    std::iota(a.begin(), a.end(), 0.0);
    first = a.data();
  }
  EXPECT_EQ(gql::detail::LargeBlocks::process().kept_bytes(), 8 * mib);
  gql::Array<int32_t> other_size(12 * mib / sizeof(int32_t));  // 12 MiB: a block of its own
  EXPECT_NE(static_cast<const void*>(other_size.data()), first);
  gql::Array<int64_t> same_size(8 * mib / sizeof(int64_t));  // 8 MiB again, of another element type
  EXPECT_EQ(static_cast<const void*>(same_size.data()), first);
  EXPECT_EQ(gql::detail::LargeBlocks::process().kept_bytes(), 0u);
}

TEST(LargeBlocks, SmallArraysAreNotKept) {
  gql::release_kept_host_blocks();
  { gql::Array<double> small(1000); }
  { gql::Array<unsigned char> below_a_huge_page(2 * mib - 1); }
  EXPECT_EQ(gql::detail::LargeBlocks::process().kept_bytes(), 0u);
}

// From one huge page on, an array is a large block, rounded up to whole huge pages.
TEST(LargeBlocks, ArraysFromAHugePageOnAreWholeHugePages) {
  gql::release_kept_host_blocks();
  { gql::Array<unsigned char> one_page(2 * mib); }
  EXPECT_EQ(gql::detail::LargeBlocks::process().kept_bytes(), 2 * mib);
  gql::release_kept_host_blocks();
  { gql::Array<int32_t> a_bfs_result(646769); }  // 2.6 MB
  EXPECT_EQ(gql::detail::LargeBlocks::process().kept_bytes(), 4 * mib);
  gql::release_kept_host_blocks();
}

TEST(LargeBlocks, WhatIsKeptStaysWithinItsBounds) {
  gql::release_kept_host_blocks();
  auto& blocks = gql::detail::LargeBlocks::process();
  {
    std::vector<gql::Array<unsigned char>> arrays;
    for (int i = 0; i < 20; ++i) arrays.emplace_back(static_cast<size_t>(4 + 2 * i) * mib);  // never touched
  }
  EXPECT_LE(blocks.kept_bytes(), blocks.capacity());
  size_t kept_sizes = 0;
  for (int i = 19; i >= 0 && kept_sizes + static_cast<size_t>(4 + 2 * i) * mib <= blocks.capacity() && 20 - i <= 16; --i)
    kept_sizes += static_cast<size_t>(4 + 2 * i) * mib;
  EXPECT_EQ(blocks.kept_bytes(), kept_sizes);  // the newest freed, at most 16 of them
  { gql::Array<unsigned char> too_large(blocks.capacity() + 2 * mib); }
  EXPECT_EQ(blocks.kept_bytes(), kept_sizes);  // a block over the capacity is freed at once
  gql::release_kept_host_blocks();
  EXPECT_EQ(blocks.kept_bytes(), 0u);
}

}  // namespace

// The exchanges the distributed ops are built on, and how an error on some ranks reaches them all.
#include <cstring>
#include <string>
#include <vector>

#include "dist_test.hpp"
#include "gql/error.hpp"

namespace gql::dist_test {
namespace {

TEST(World, PartsOfEverySizeJoinInRankOrder) {
  const auto& w = world();
  // Rank r gives r * 3 bytes of value r (rank 0 gives none).
  const std::vector<std::byte> mine(static_cast<size_t>(w.rank()) * 3, static_cast<std::byte>(w.rank()));
  const std::vector<std::byte> all = w.all_parts(mine);
  std::vector<std::byte> expected;
  for (int r = 0; r < w.size(); ++r) expected.insert(expected.end(), static_cast<size_t>(r) * 3, static_cast<std::byte>(r));
  EXPECT_EQ(all, expected);
}

// Each host's ranks numbered 0.. in rank order (which of the host's GPUs each takes): the tests run on
// one host, so the host's ranks are all the ranks.
TEST(World, RanksOfOneHostAreNumberedInRankOrder) {
  const auto& w = world();
  EXPECT_EQ(w.host_size(), w.size());
  EXPECT_EQ(w.host_rank(), w.rank());
  EXPECT_EQ(w.sum(w.host_rank() == 0 ? 1 : 0), 1);  // one host
}

TEST(World, PartsGatheredOnOneRank) {
  const auto& w = world();
  // Rank r gives r * 2 bytes of value r + 1; the last rank gathers, the others keep nothing.
  const std::vector<std::byte> mine(static_cast<size_t>(w.rank()) * 2, static_cast<std::byte>(w.rank() + 1));
  const std::vector<int64_t> sizes = w.part_sizes(static_cast<int64_t>(mine.size()));
  const int root = w.size() - 1;
  std::vector<std::byte> joined(w.rank() == root ? static_cast<size_t>(w.size() * (w.size() - 1)) : 0);
  w.gather_parts(mine, sizes, joined, root);
  if (w.rank() == root) {
    std::vector<std::byte> expected;
    for (int r = 0; r < w.size(); ++r) expected.insert(expected.end(), static_cast<size_t>(r) * 2, static_cast<std::byte>(r + 1));
    EXPECT_EQ(joined, expected);
  }
}

TEST(World, ExchangeSendsEachRankItsPieces) {
  const auto& w = world();
  // Rank r sends rank q (r + q) % 3 bytes of value 16 * r + q, as two pieces (the first may be empty)
  // and an empty one between them, so some ranks send nothing.
  std::vector<std::vector<std::byte>> bytes(static_cast<size_t>(w.size()));
  std::vector<dist::World::Pieces> to_each(static_cast<size_t>(w.size()));
  for (int q = 0; q < w.size(); ++q) {
    auto& mine = bytes[static_cast<size_t>(q)];
    mine.assign(static_cast<size_t>((w.rank() + q) % 3), static_cast<std::byte>(16 * w.rank() + q));
    const std::span<const std::byte> all(mine);
    to_each[static_cast<size_t>(q)] = {all.first(all.size() / 2), {}, all.subspan(all.size() / 2)};
  }
  std::vector<int64_t> from_each;
  const std::vector<std::byte> incoming = w.exchange(to_each, from_each);
  std::vector<std::byte> expected;
  for (int r = 0; r < w.size(); ++r) {
    EXPECT_EQ(from_each[static_cast<size_t>(r)], (r + w.rank()) % 3);
    expected.insert(expected.end(), static_cast<size_t>((r + w.rank()) % 3), static_cast<std::byte>(16 * r + w.rank()));
  }
  EXPECT_EQ(incoming, expected);
  // Element-wise sums.
  std::vector<int64_t> counts = {w.rank(), 1};
  w.sum(counts);
  EXPECT_EQ(counts[0], static_cast<int64_t>(w.size()) * (w.size() - 1) / 2);
  EXPECT_EQ(counts[1], w.size());
}

TEST(World, WordsAreOredAndCountsSummed) {
  const auto& w = world();
  std::vector<uint64_t> words(3, 0);
  words[static_cast<size_t>(w.rank()) % 3] = uint64_t{1} << w.rank();
  w.or_words(words);
  uint64_t all = 0;
  for (int r = 0; r < w.size(); ++r) EXPECT_TRUE(words[static_cast<size_t>(r) % 3] >> r & 1);
  for (uint64_t x : words) all |= x;
  EXPECT_EQ(all, (uint64_t{1} << w.size()) - 1);
  EXPECT_EQ(w.sum(w.rank() + 1), static_cast<int64_t>(w.size()) * (w.size() + 1) / 2);
}

TEST(World, AnErrorOnOneRankIsEveryRanksInTheSameWords) {
  const auto& w = world();
  const int last = w.size() - 1;
  try {
    w.on_every_rank([&] {
      if (w.rank() == last) throw Error(ErrorKind::oom, "no room for the block", {"block.bin", 3});
    });
    ADD_FAILURE() << "every rank should have thrown";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::oom);
    EXPECT_EQ(e.reason(), "rank " + std::to_string(last) + ": block.bin:3: no room for the block");
  }
  // Two failing ranks: the lowest one's error, once.
  try {
    w.on_every_rank([&] { throw std::runtime_error("rank " + std::to_string(w.rank()) + " failed"); });
    ADD_FAILURE() << "every rank should have thrown";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::internal);
    EXPECT_EQ(e.reason(), "rank 0: rank 0 failed");
  }
  EXPECT_NO_THROW(w.on_every_rank([] {}));
}

}  // namespace
}  // namespace gql::dist_test

// The distributed closure against the one-process closure: shortest paths over integers and
// reachability, for k-blocks that do and do not divide n, and more ranks than blocks.
#include <cstdint>
#include <random>

#include "dist_test.hpp"
#include "gql/cpu/closure.hpp"
#include "gql/dist/closure.hpp"
#include "reference_semirings.hpp"

namespace gql::dist_test {
namespace {

using reference_semirings::MinPlus;
using reference_semirings::OrAnd;

// "No path": large, yet two of them add up without overflow (min never makes an entry larger).
constexpr int32_t no_path = 100'000'000;

// A random n x n distance matrix: about a fifth of the pairs joined, weights 1 to 100, none elsewhere.
Matrix<int32_t> distances(int64_t n, uint64_t seed) {
  std::mt19937_64 random(seed);
  Matrix<int32_t> D(n, n, no_path);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      if (i == j) D(i, j) = 0;
      else if (random() % 5 == 0) D(i, j) = static_cast<int32_t>(1 + random() % 100);
  return D;
}

template <class S, class T>
void expect_same_closure(const Matrix<T>& D, int64_t k_block) {
  Matrix<T> got = D.clone(), want = D.clone();
  dist::closure<S>(world(), got, k_block);
  cpu::closure<S>(want);
  const auto g = got.data(), w = want.data();
  EXPECT_TRUE(std::equal(g.begin(), g.end(), w.begin(), w.end())) << "k-block " << k_block;
}

TEST(DistClosure, ShortestPaths) {
  const Matrix<int32_t> D = distances(150, 7);
  for (int64_t k_block : {1, 7, 64, 150, 1000}) expect_same_closure<MinPlus<int32_t>>(D, k_block);
}

TEST(DistClosure, Reachability) {
  const Matrix<int32_t> D = distances(97, 11);
  Matrix<bool> R(97, 97, false);
  for (int64_t i = 0; i < 97; ++i)
    for (int64_t j = 0; j < 97; ++j) R(i, j) = D(i, j) != no_path && i != j;
  for (int64_t k_block : {5, 64}) expect_same_closure<OrAnd>(R, k_block);
}

TEST(DistClosure, EmptyAndNotSquare) {
  Matrix<int32_t> none(0, 0);
  EXPECT_NO_THROW(dist::closure<MinPlus<int32_t>>(world(), none));
  Matrix<int32_t> wide(3, 4);
  EXPECT_THROW(dist::closure<MinPlus<int32_t>>(world(), wide), Error);
}

}  // namespace
}  // namespace gql::dist_test

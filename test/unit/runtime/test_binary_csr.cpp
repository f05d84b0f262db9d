#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "gql/generate.hpp"
#include "gql/io.hpp"
#include "io_test_util.hpp"

namespace {

using gql_test::entries;
using gql_test::expect_io_error;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(BinaryCsr, RoundTripsEveryKind) {
  auto g = gql::kronecker<double>({.scale = 8, .edge_factor = 4, .weighted = true});
  gql_test::TempFile f("g.gqlb");
  gql::write_binary(f.path(), g);
  auto back = gql::read_graph<double>(f.path());
  back.validate();
  EXPECT_EQ(entries(back), entries(g));
  auto pattern = gql::convert<bool>(g);
  gql::write_binary(f.path(), pattern);
  EXPECT_EQ(entries(gql::read_graph<bool>(f.path())), entries(pattern));
  EXPECT_EQ(gql::read_graph<int>(f.path()).values()[0], 1);  // pattern read as numbers: ones
  gql::Csr<float> empty(3, 5);
  gql::write_binary(f.path(), empty);
  EXPECT_EQ(gql::read_graph<float>(f.path()).n_cols(), 5);
}

TEST(BinaryCsr, ConvertsOnlyWhenValuesFit) {
  gql::Csr<double> g(1, 2, {0, 2}, {0, 1}, {3.0, 2.5});
  gql_test::TempFile f("h.gqlb");
  gql::write_binary(f.path(), g);
  expect_io_error([&] { gql::read_graph<int>(f.path()); }, {"h.gqlb: byte", "does not fit i32"});
  EXPECT_EQ(gql::read_graph<float>(f.path()).values()[1], 2.5f);
}

TEST(BinaryCsr, PoliciesApply) {
  gql::Csr<int> g(2, 2, {0, 2, 2}, {0, 1}, {4, 5});
  gql_test::TempFile f("p.gqlb");
  gql::write_binary(f.path(), g);
  const std::map<std::pair<int64_t, int64_t>, double> want{{{0, 1}, 5}, {{1, 0}, 5}};
  EXPECT_EQ(entries(gql::read_graph<int>(f.path(), {.self_loops = gql::SelfLoops::drop, .symmetrize = true})), want);
}

TEST(BinaryCsr, CorruptFilesAreRefused) {
  auto g = gql::grid<int>(4, 4);
  gql_test::TempFile f("c.gqlb");
  gql::write_binary(f.path(), g);
  const std::string good = slurp(f.path());
  const auto parse = [](const std::string& bytes) { gql::parse_graph<int>(bytes, gql::Format::binary, "c.gqlb"); };
  EXPECT_NO_THROW(parse(good));
  expect_io_error([&] { parse(good.substr(0, 10)); }, {"c.gqlb: byte 10", "truncated"});
  expect_io_error([&] { parse(good.substr(0, good.size() - 3)); }, {"truncated"});
  expect_io_error([&] { parse(good + "x"); }, {"trailing bytes"});
  std::string bad_magic = good;
  bad_magic[0] = 'X';
  expect_io_error([&] { parse(bad_magic); }, {"byte 0", "magic"});
  std::string bad_header = good;
  bad_header[30] ^= 1;
  expect_io_error([&] { parse(bad_header); }, {"header checksum"});
  for (size_t at : {size_t{64}, good.size() / 2, good.size() - 1}) {
    std::string flipped = good;
    flipped[at] ^= 0x10;
    expect_io_error([&] { parse(flipped); }, {"payload checksum"});
  }
}

}  // namespace

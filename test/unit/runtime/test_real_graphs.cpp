// The readers on the real graphs of the shared data folder, against the counts in its SOURCES.md and
// against a plain line-by-line reference reader written here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>
#include <sstream>

#include "gql/io.hpp"

namespace {

const std::string graphs = std::string(GQL_SHARED_DATA_DIR) + "/graphs/";

struct Case {
  const char* file;
  int64_t vertices;    // n as the reader must give it
  int64_t data_lines;  // edge lines, as SOURCES.md counts them
  int skip_lines;      // header lines before the edges (besides comments)
  int base;            // 1 for 1-based ids
  bool mirrored;       // symmetric / undirected: each line stands for both directions
};

// The reference: every data line's first two integers, after the header lines; '#', '%', 'c' lines skipped.
std::set<std::pair<int64_t, int64_t>> reference(const Case& c, int64_t& lines) {
  std::set<std::pair<int64_t, int64_t>> pairs;
  FILE* pipe = popen(("zcat -f '" + graphs + c.file + "'").c_str(), "r");
  char buf[4096];
  int skip = c.skip_lines;
  lines = 0;
  while (pipe && fgets(buf, sizeof buf, pipe)) {
    std::string line(buf);
    std::replace(line.begin(), line.end(), ',', ' ');
    if (line[0] == '#' || line[0] == '%' || line[0] == 'c' || line[0] == 'p' || line[0] == '\n') continue;
    if (skip > 0) {
      --skip;
      continue;
    }
    if (line[0] == 'a') line[0] = ' ';
    std::istringstream in(line);
    int64_t u = 0, v = 0;
    in >> u >> v;
    ++lines;
    pairs.insert({u - c.base, v - c.base});
    if (c.mirrored) pairs.insert({v - c.base, u - c.base});
  }
  if (pipe) pclose(pipe);
  return pairs;
}

class RealGraphs : public ::testing::TestWithParam<Case> {};

TEST_P(RealGraphs, MatchCountsAndReference) {
  if (!std::filesystem::exists(graphs)) GTEST_SKIP() << "no shared data at " << graphs;
  const Case& c = GetParam();
  auto g = gql::read_graph<bool>(graphs + c.file);
  g.validate();
  EXPECT_EQ(g.n_rows(), c.vertices);
  int64_t lines = 0;
  const auto want = reference(c, lines);
  EXPECT_EQ(lines, c.data_lines);
  std::set<std::pair<int64_t, int64_t>> got;
  for (int64_t r = 0; r < g.n_rows(); ++r)
    for (auto p = g.row_offsets()[r]; p < g.row_offsets()[r + 1]; ++p) got.insert({r, g.col_indices()[p]});
  EXPECT_EQ(static_cast<int64_t>(got.size()), g.nvals());
  EXPECT_TRUE(got == want) << "structure differs from the reference";
}

INSTANTIATE_TEST_SUITE_P(
    SharedData, RealGraphs,
    ::testing::Values(Case{"soc-slashdot0902-directed.jlg", 82168, 948464, 1, 1, false},
                      Case{"wiki-Vote.txt.gz", 8298, 103689, 0, 0, false},
                      Case{"email-Eu-core.txt.gz", 1005, 25571, 0, 0, false},
                      Case{"p2p-Gnutella31.txt.gz", 62586, 147892, 0, 0, false},
                      Case{"facebook_combined.txt", 4039, 88234, 0, 0, false},
                      Case{"arxiv-cit-hep-th.jlg", 27770, 352807, 1, 1, false},
                      Case{"ca-HepTh.csv", 68746, 51971, 0, 0, false},
                      Case{"ca-GrQc.csv", 26197, 28734, 0, 0, false},
                      Case{"ca-CondMat.csv.gz", 108300, 186936, 0, 0, false},
                      Case{"astro-ph-cc1.jlg", 17903, 197031, 1, 1, true},
                      Case{"as-caida20071105.jlg", 26475, 53381, 1, 1, true},
                      Case{"hollins.dat", 6013, 23875, 1, 0, false},
                      Case{"rome99.gr", 3353, 8870, 0, 1, false},
                      Case{"DE.gr.gz", 49109, 121024, 0, 1, false},
                      Case{"luxembourg_osm.mtx.gz", 114599, 119666, 0, 1, false},
                      Case{"EVA.mtx", 8497, 6726, 0, 1, false},
                      Case{"netscience.mtx", 1589, 2742, 1, 1, true},
                      Case{"polbooks.mtx", 105, 441, 1, 1, true},
                      Case{"dolphins.mtx", 62, 159, 1, 1, true},
                      Case{"karate.mtx", 34, 78, 1, 1, true}),
    [](const ::testing::TestParamInfo<Case>& param_info) {
      std::string name = param_info.param.file;
      name = name.substr(0, name.find('.'));
      std::replace_if(name.begin(), name.end(), [](char ch) { return !std::isalnum(static_cast<unsigned char>(ch)); }, '_');
      return name;
    });

TEST(RealGraphsDetail, DistinctArcsAndWeightsOfDimacs) {
  if (!std::filesystem::exists(graphs)) GTEST_SKIP() << "no shared data at " << graphs;
  EXPECT_EQ(gql::read_graph<int>(graphs + "rome99.gr").nvals(), 8859);
  auto de = gql::read_graph<int>(graphs + "DE.gr.gz");
  EXPECT_EQ(de.nvals(), 119744);
  EXPECT_EQ(de.values()[0], 760);  // "a 1 2 760" is the first arc of vertex 1
  auto weighted = gql::read_graph<double>(graphs + "netscience.mtx");
  EXPECT_EQ(weighted.nvals(), 2 * 2742);
}

}  // namespace

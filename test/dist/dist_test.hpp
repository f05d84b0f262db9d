// What the distributed ops' tests share: the run's World (every rank runs every test, and every test
// makes the same collective calls in the same order on every rank, so a failed check never skips
// one: EXPECT, not ASSERT, after the first exchange) and the graphs of the shared data.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "gql/dist/world.hpp"

namespace gql::dist_test {

const dist::World& world();

inline std::string data_graph(const std::string& file) { return std::string(GQL_SHARED_DATA_DIR) + "/graphs/" + file; }
inline bool have_shared_data() { return std::filesystem::exists(data_graph("SOURCES.md")); }

}  // namespace gql::dist_test

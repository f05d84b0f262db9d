#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "once_table.hpp"

namespace gql::jit {
namespace {

TEST(OnceTable, ThreadsAskingForTheSameKeyMakeItOnce) {
  OnceTable<int, std::string> table;
  std::atomic<int> makes{0};
  std::vector<std::thread> threads;
  std::vector<std::shared_ptr<const std::string>> got(16);
  for (size_t t = 0; t < got.size(); ++t)
    threads.emplace_back([&, t] {
      got[t] = table.get(7, [&] {
        ++makes;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        return std::make_shared<const std::string>("seven");
      });
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(makes.load(), 1);
  for (const auto& v : got) EXPECT_EQ(v.get(), got[0].get());
}

TEST(OnceTable, FailuresReachTheWaitersAndAreRetried) {
  OnceTable<int, int> table;
  EXPECT_THROW(table.get(1, []() -> std::shared_ptr<const int> { throw std::runtime_error("no"); }),
               std::runtime_error);
  bool made = false;
  EXPECT_EQ(*table.get(1, [] { return std::make_shared<const int>(5); }, &made), 5);
  EXPECT_TRUE(made);
  EXPECT_EQ(*table.get(1, [] { return std::make_shared<const int>(6); }, &made), 5);
  EXPECT_FALSE(made);
}

}  // namespace
}  // namespace gql::jit

// Runs every test on every rank of an MPI run (mpiexec -n N gql_dist_tests); the tests compare each
// rank's result with the one-process op. Only rank 0 reports progress; every rank reports failures.
#include <gtest/gtest.h>

#include "dist_test.hpp"

namespace gql::dist_test {
namespace {
dist::World* the_world = nullptr;
}
const dist::World& world() { return *the_world; }
}  // namespace gql::dist_test

int main(int argc, char** argv) {
  gql::dist::World world(&argc, &argv);
  gql::dist_test::the_world = &world;
  ::testing::InitGoogleTest(&argc, argv);
  if (world.rank() != 0) {
    // Failures still print: the default printer is replaced by one that reports only them.
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    struct Failures : ::testing::EmptyTestEventListener {
      int rank;
      explicit Failures(int r) : rank(r) {}
      void OnTestPartResult(const ::testing::TestPartResult& r) override {
        if (r.failed()) std::fprintf(stderr, "rank %d: %s:%d: %s\n", rank, r.file_name(), r.line_number(), r.summary());
      }
    };
    listeners.Append(new Failures(world.rank()));
  }
  return RUN_ALL_TESTS();
}

// The host side of a CUDA kernel's values (gql/device/resident.hpp), which needs no GPU: a borrowed
// argument is read in place and copied before it is written, a write on one side makes it that side's,
// and the result is handed over without a copy when the kernel owns it. (The device side runs in the
// GPU tests.)
#include <gtest/gtest.h>

#if GQL_HAVE_CUDA
#include "gql/device/resident.hpp"

namespace gql::gpu {
namespace {

Csr<double> path3() { return Csr<double>(3, 3, {0, 1, 2, 2}, {1, 2}, {1.0, 2.0}); }

// A stream handle that makes no CUDA call: host-only paths never use it.
const Stream no_stream = Stream::borrow(nullptr);

TEST(Resident, ABorrowedArgumentIsReadInPlaceAndCopiedBeforeItIsWritten) {
  const Csr<double> g = path3();
  auto r = Resident<Csr<double>>::borrow(g);
  EXPECT_TRUE(r.on_host());
  EXPECT_FALSE(r.on_device());
  EXPECT_EQ(&r.host(no_stream), &g);
  EXPECT_EQ(rows(r), 3);
  EXPECT_EQ(nvals(r), 2);
  Csr<double>& mine = r.host_for_write(no_stream);
  EXPECT_NE(&mine, &g);
  mine.values()[0] = 7.0;
  EXPECT_EQ(g.values()[0], 1.0);  // the caller's value is unchanged
  EXPECT_EQ(r.host(no_stream).values()[0], 7.0);
  // A borrowed result is handed over as a copy; an owned one is moved out.
  auto b = Resident<Csr<double>>::borrow(g);
  EXPECT_EQ(b.take_host(no_stream).values()[1], 2.0);
  EXPECT_EQ(g.nvals(), 2);
}

TEST(Resident, AFreshValueIsEmptyOnTheHostAndSetHostReplacesIt) {
  Resident<Vector<int32_t>> v;
  EXPECT_TRUE(v.on_host());
  EXPECT_EQ(nvals(v), 0);
  v.set_host(Vector<int32_t>::dense(4, 9));
  EXPECT_EQ(nvals(v), 4);
  EXPECT_EQ(cols(v), 1);
  Resident<Vector<int32_t>> moved = std::move(v);
  EXPECT_EQ(moved.host(no_stream).values()[3], 9);
  const Vector<int32_t> out = take_host(std::move(moved), no_stream);
  EXPECT_EQ(out.nvals(), 4);
}

TEST(Resident, TuplesAndScalarsAreHandedOverMemberByMember) {
  auto [g, x] = take_host(std::make_tuple(Resident<Csr<double>>(path3()), 5.5), no_stream);
  EXPECT_EQ(g.nvals(), 2);
  EXPECT_EQ(x, 5.5);
}

}  // namespace
}  // namespace gql::gpu
#else
TEST(Resident, NeedsTheCudaToolkit) { GTEST_SKIP() << "built without CUDA"; }
#endif

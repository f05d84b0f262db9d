// gzip input is inflated into buffers that grow with what actually inflates: a trailer that claims
// gigabytes (the size field is the sender's word) costs nothing, and inflating past the memory the
// machine has is an error naming the file; so is a header that declares more vertices than memory
// holds. The reads run in a child whose address space is capped 1 GiB above what it maps, where an
// allocation the trailer or the header asked for would fail: what the process maps already counts
// against such a cap.
#include <gtest/gtest.h>

#include "address_space_cap.hpp"
#include <sys/resource.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include "gql/error.hpp"
#include "gql/io.hpp"
#include "io_test_util.hpp"

namespace {

// A gzip file of `text` whose trailer claims `claimed` bytes.
std::string gzip_claiming(const std::string& text, uint32_t claimed, const gql_test::TempFile& plain,
                          const gql_test::TempFile& out) {
  plain.write(text);
  EXPECT_EQ(std::system(("gzip -c " + plain.path() + " > " + out.path()).c_str()), 0);
  std::string bytes;
  {
    std::ifstream in(out.path(), std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  for (int b = 0; b < 4; ++b) bytes[bytes.size() - 4 + b] = static_cast<char>(claimed >> (8 * b) & 0xff);
  return bytes;
}

// Caps this (child) process's address space at what it maps now plus 1 GiB.
void cap_address_space() { gql::test_support::cap_address_space(rlim_t{1} << 30); }

// Reads `path` under the cap: exit 0 for an io error (the file's fault), 3 for running out of memory.
[[noreturn]] void read_capped(const std::string& path) {
  cap_address_space();
  try {
    (void)gql::read_graph<int>(path);
    std::_Exit(1);
  } catch (const gql::Error& e) {
    std::_Exit(e.kind() == gql::ErrorKind::io && e.where().file == path ? 0 : 2);
  } catch (const std::bad_alloc&) {
    std::_Exit(3);
  }
}

TEST(InputBounds, ATrailerClaimingGigabytesAllocatesNothingOfThem) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // a fresh child: forking after OpenMP ran can hang
  gql_test::TempFile plain("claim.txt"), gz("claim.txt.gz");
  const std::string bytes = gzip_claiming("0 1\n1 2\n", 0xfffffff0u, plain, gz);
  gz.write(bytes);
  EXPECT_EXIT(read_capped(gz.path()), testing::ExitedWithCode(0), "");
  // Cut short too: a truncated stream whose last bytes read as a huge size.
  gql_test::TempFile cut("cut.txt.gz", bytes.substr(0, bytes.size() - 6) + std::string("\xf0\xff\xff\xff", 4));
  EXPECT_EXIT(read_capped(cut.path()), testing::ExitedWithCode(0), "");
}

TEST(InputBounds, AnHonestFileStillReads) {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += std::to_string(i) + " " + std::to_string(i + 1) + "\n";
  gql_test::TempFile plain("honest.txt"), gz("honest.txt.gz");
  plain.write(text);
  ASSERT_EQ(std::system(("gzip -c " + plain.path() + " > " + gz.path()).c_str()), 0);
  EXPECT_EQ(gql::read_graph<int>(gz.path()).nvals(), 20000);
}

// A header of 2^31 - 1 vertices over an empty body: 16 GiB of row offsets are refused with the file
// named, instead of an out-of-memory abort that names nothing.
TEST(InputBounds, AHeaderLargerThanMemoryIsRefusedWithTheFileNamed) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // a fresh child: forking after OpenMP ran can hang
  gql_test::TempFile huge("huge.mtx", "%%MatrixMarket matrix coordinate real general\n2147483647 2147483647 0\n");
  EXPECT_EXIT(
      {
        cap_address_space();
        try {
          (void)gql::read_graph<double>(huge.path());
          std::_Exit(1);
        } catch (const gql::Error& e) {
          std::_Exit(e.kind() == gql::ErrorKind::oom && e.where().file == huge.path() ? 0 : 2);
        } catch (const std::bad_alloc&) {
          std::_Exit(3);
        }
      },
      testing::ExitedWithCode(0), "");
}

// Reads `path` under the cap: exit 0 for an oom error naming the file, 3 for an allocation that failed.
[[noreturn]] void read_capped_expecting_oom(const std::string& path) {
  cap_address_space();
  try {
    (void)gql::read_graph<double>(path);
    std::_Exit(1);
  } catch (const gql::Error& e) {
    std::_Exit(e.kind() == gql::ErrorKind::oom && e.where().file == path ? 0 : 2);
  } catch (const std::bad_alloc&) {
    std::_Exit(3);
  }
}

// 100 M rows: one array of row offsets (800 MB) fits the cap, the two a pass holds at once do not.
// The check once counted one array, so the second allocation failed naming nothing.
TEST(InputBounds, EveryArrayOfRowOffsetsAPassHoldsIsCounted) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // a fresh child: forking after OpenMP ran can hang
  gql_test::TempFile rows("rows.mtx", "%%MatrixMarket matrix coordinate real general\n100000000 1 1\n1 1 1\n");
  EXPECT_EXIT(read_capped_expecting_oom(rows.path()), testing::ExitedWithCode(0), "");
}

// 24 gzip members of 64 MiB of zeros each (1.5 GiB inflated, 1.6 MB on disk): the buffer grows by
// doubling, and the old one is held while the new one fills, so growth stops where both would not fit
// under the cap (which once counted neither the old buffer nor what the process had mapped).
TEST(InputBounds, InflatingPastACappedAddressSpaceIsRefusedWithTheFileNamed) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // a fresh child: forking after OpenMP ran can hang
  gql_test::TempFile member("zeros.txt.gz"), bomb("bomb.txt.gz");
  ASSERT_EQ(std::system(("head -c 64M /dev/zero | gzip -c > " + member.path()).c_str()), 0);
  std::string bytes;
  {
    std::ifstream in(member.path(), std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::string members;
  for (int m = 0; m < 24; ++m) members += bytes;
  bomb.write(members);
  EXPECT_EXIT(read_capped_expecting_oom(bomb.path()), testing::ExitedWithCode(0), "");
}

}  // namespace

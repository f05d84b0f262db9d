// The stamps that tell whether a memoized module's files still hold the text it was compiled from:
// an edit that keeps the size and sets the modification time back, and one made between the read
// and the stamp, are both seen; an untouched file is not.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "file_stamp.hpp"
#include "jit_test_support.hpp"

namespace gql::jit {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

TEST(FileStamp, AnUntouchedFileMatches) {
  test::ScratchDir dir;
  const fs::path f = dir.path() / "a.gql";
  write(f, "const A = 1;\n");
  FileStamp s = stamp_file(f.string(), "const A = 1;\n");
  EXPECT_TRUE(still_matches(s));
  EXPECT_TRUE(still_matches(s));
}

TEST(FileStamp, AnEditKeepingSizeAndModificationTimeIsSeen) {
  test::ScratchDir dir;
  const fs::path f = dir.path() / "a.gql";
  write(f, "const A = 1;\n");
  FileStamp s = stamp_file(f.string(), "const A = 1;\n");
  const auto mtime = fs::last_write_time(f);
  write(f, "const A = 2;\n");
  fs::last_write_time(f, mtime);
  EXPECT_FALSE(still_matches(s));
}

// The text the front end read differs from the file the stamp saw: edited in between.
TEST(FileStamp, AnEditBetweenTheReadAndTheStampIsSeen) {
  test::ScratchDir dir;
  const fs::path f = dir.path() / "a.gql";
  write(f, "const A = 2;\n");
  FileStamp s = stamp_file(f.string(), "const A = 1;\n");
  EXPECT_FALSE(s.settled);
  EXPECT_FALSE(still_matches(s));
}

TEST(FileStamp, AFileThatWentAwayDoesNotMatch) {
  test::ScratchDir dir;
  const fs::path f = dir.path() / "a.gql";
  write(f, "x");
  FileStamp s = stamp_file(f.string(), "x");
  fs::remove(f);
  EXPECT_FALSE(still_matches(s));
}

}  // namespace
}  // namespace gql::jit

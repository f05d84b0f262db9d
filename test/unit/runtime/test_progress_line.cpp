// gql::ProgressLine: shown on a terminal once the work has run for a second, with an inner line's text
// and detail folded into the outer one, erased at the end; nothing at all when stderr is not a
// terminal. stderr is pointed at a pseudo-terminal (or a pipe) for the length of each test.
#include <fcntl.h>
#include <pty.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "gql/progress_line.hpp"

namespace {

// stderr goes to `fd` while the object lives.
class StderrTo {
 public:
  explicit StderrTo(int fd) : saved_(dup(STDERR_FILENO)) { dup2(fd, STDERR_FILENO); }
  ~StderrTo() {
    dup2(saved_, STDERR_FILENO);
    close(saved_);
  }
  StderrTo(const StderrTo&) = delete;
  StderrTo& operator=(const StderrTo&) = delete;

 private:
  int saved_;
};

std::string drain(int fd) {
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  std::string text;
  char buffer[4096];
  for (ssize_t got; (got = read(fd, buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<size_t>(got));
  return text;
}

void work_for_a_while() { std::this_thread::sleep_for(std::chrono::milliseconds(1300)); }

struct ProgressLineOnATerminal : ::testing::Test {
  int master = -1, slave = -1;
  void SetUp() override { ASSERT_EQ(openpty(&master, &slave, nullptr, nullptr, nullptr), 0); }
  void TearDown() override {
    close(master);
    close(slave);
  }
};

TEST_F(ProgressLineOnATerminal, InnerLineAddsItsDetailToTheOuterOne) {
  {
    StderrTo redirect(slave);
    gql::ProgressLine program("apsp");
    gql::ProgressLine op("closure out of core");
    op.detail("super tile row 2 of 7");
    work_for_a_while();
  }
  const std::string shown = drain(master);
  EXPECT_NE(shown.find("running apsp ... 1 s, closure out of core: super tile row 2 of 7"), std::string::npos) << shown;
  EXPECT_EQ(shown.find("running closure out of core"), std::string::npos) << shown;  // one line, not two
  EXPECT_EQ(shown.substr(shown.size() - 4), "\r\033[K") << "the line is erased at the end";
}

TEST_F(ProgressLineOnATerminal, LineOfItsOwnWhenNoneIsShown) {
  {
    StderrTo redirect(slave);
    gql::ProgressLine op("closure out of core");
    op.detail("super tile row 3 of 7");
    work_for_a_while();
  }
  EXPECT_NE(drain(master).find("running closure out of core ... 1 s, super tile row 3 of 7"), std::string::npos);
}

TEST(ProgressLine, NothingWhenStderrIsNotATerminal) {
  int ends[2];
  ASSERT_EQ(pipe(ends), 0);
  {
    StderrTo redirect(ends[1]);
    gql::ProgressLine op("closure out of core");
    op.detail("super tile row 1 of 7");
    work_for_a_while();
  }
  close(ends[1]);
  EXPECT_EQ(drain(ends[0]), "");
  close(ends[0]);
}

}  // namespace

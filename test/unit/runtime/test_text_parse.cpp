// The text readers' scanning and messages. The fast scanner of "ID ID" lines reads at most 18 digits
// of an id, which cannot overflow int64; longer ids go to the general path, which says they are out of
// range. It once multiplied on through every digit (signed overflow, found by the edge-list reader's
// fuzzing once long numbers were no longer skipped); checked at compile time, where an overflow does
// not compile. Messages show at most 40 characters of a token, bytes that do not print escaped.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <string_view>

#include "gql/error.hpp"
#include "gql/io.hpp"
#include "text_parse.hpp"

namespace {

constexpr bool scanned(std::string_view line, int64_t expected_first) {
  int64_t first = -1, second = -1;
  std::string_view rest;
  return gql::detail::scan_two_ids(line, false, first, second, rest) && first == expected_first && second == 1;
}

constexpr bool refused(std::string_view line) {
  int64_t first = 0, second = 0;
  std::string_view rest;
  return !gql::detail::scan_two_ids(line, false, first, second, rest);
}

TEST(TextParse, TheIdScannerLeavesIdsOfMoreThan18DigitsToTheGeneralPath) {
  static_assert(scanned("999999999999999999 1", 999999999999999999));
  static_assert(refused("9999999999999999999 1"));
  static_assert(refused("4444444444444444444444444444444444444444 1"));
  static_assert(refused("1 4444444444444444444444444444444444444444"));
  const std::string text = "0 1\n" + std::string(40, '4') + " 2\n";
  try {
    (void)gql::parse_graph<double>(text, gql::Format::edge_list, "long.txt");
    FAIL() << "a 40-digit id was read";
  } catch (const gql::Error& e) {
    EXPECT_EQ(e.kind(), gql::ErrorKind::io);
    EXPECT_NE(std::string(e.what()).find("long.txt:2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("out of range"), std::string::npos) << e.what();
  }
}

// The message of reading `text` as `format`.
std::string message_of(const std::string& text, gql::Format format) {
  try {
    (void)gql::parse_graph<double>(text, format, "bad");
  } catch (const gql::Error& e) {
    return e.what();
  }
  return "(read)";
}

TEST(TextParse, MessagesShowAtMost40CharactersOfAToken) {
  const std::string huge(1000000, 'a');
  const std::pair<std::string, gql::Format> files[] = {
      {"0 1\n1 " + huge + "\n", gql::Format::edge_list},
      {"%%MatrixMarket matrix coordinate real " + huge + "\n", gql::Format::matrix_market},
      {"%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 " + huge + "\n", gql::Format::matrix_market},
      {"p sp 3 1\na 1 2 " + huge + "\n", gql::Format::dimacs},
      {"p sp 3 1\na 1 " + std::string(1000000, '0') + "7 1\n", gql::Format::dimacs}};
  for (const auto& [text, format] : files) {
    const std::string said = message_of(text, format);
    EXPECT_LT(said.size(), 200u) << said.substr(0, 200);
    EXPECT_NE(said.find("... (100000"), std::string::npos) << said.substr(0, 200);
  }
  const std::string binary = message_of("0 1\n1 \x01\xff\n", gql::Format::edge_list);
  EXPECT_NE(binary.find("'\\x01\\xff'"), std::string::npos) << binary;
}

}  // namespace

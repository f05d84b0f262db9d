// Arithmetic at the edges docs/language.md defines (specs/arithmetic.gql), computed by the generated
// code at -O3: wrapping overflow, division and remainder by 0 and of the lowest value by -1, saturating
// float-to-integer conversions, a constant folded to infinity. The same program built under UBSan
// (every report fatal) must give the same answers without a report.
#include <fstream>

#include "e2e_support.hpp"

namespace gql::e2e {
namespace {

struct Case {
  const char* kernel;
  const char* arguments;  // one run per listed value
  const char* answers;    // one line per run
};

const Case wrapping[] = {
    {"add_i64", "--x 9223372036854775807,-9223372036854775808 --y 1,-1",
     "-9223372036854775808\n9223372036854775807\n"},
    {"sub_i64", "--x -9223372036854775808 --y 1", "9223372036854775807\n"},
    {"mul_i64", "--x 4611686018427387904,3037000500 --y 2,3037000500",
     "-9223372036854775808\n-9223372036709301616\n"},
    {"neg_i64", "--x -9223372036854775808,5", "-9223372036854775808\n-5\n"},
    {"abs_i64", "--x -9223372036854775808,-5", "-9223372036854775808\n5\n"},
    {"doubled_i64", "--x 9223372036854775807", "-2\n"},
    {"add_i8", "--x 127,-128 --y 1,-1", "-128\n127\n"},
    {"mul_i16", "--x 300 --y 300", "24464\n"},
    {"mul_u8", "--x 200 --y 3", "88\n"},
    {"mul_u16", "--x 65535 --y 65535", "1\n"},
    {"increment_is_greater", "--x 9223372036854775807,0", "false\ntrue\n"},
    {"doublings_until_wrap", "--x 1", "31\n"},
    {"wrapping_product", "--x 3037000500", "441805193841096000\n"},
};

const Case division[] = {
    {"quotient_i64", "--x 7,-7,0,-9223372036854775808,7 --y 0,0,0,-1,-2",
     "9223372036854775807\n-9223372036854775808\n0\n-9223372036854775808\n-3\n"},
    {"remainder_i64", "--x 7,-7,0,-9223372036854775808,7 --y 0,0,0,-1,-2", "7\n-7\n0\n0\n1\n"},
    {"quotient_i32", "--x 5,-5,-2147483648 --y 0,0,-1", "2147483647\n-2147483648\n-2147483648\n"},
    {"remainder_i32", "--x 5,-2147483648 --y 0,-1", "5\n0\n"},
    {"quotient_i8", "--x -128,3 --y -1,0", "-128\n127\n"},
    {"quotient_u64", "--x 5,0,18446744073709551615 --y 0,0,2",
     "18446744073709551615\n0\n9223372036854775807\n"},
    {"remainder_u64", "--x 5,7 --y 0,4", "5\n3\n"},
    {"remainder_f64", "--x 7.5,-7.5,-1 --y 2,2,inf", "1.5\n-1.5\n-1\n"},
    {"remainder_f32", "--x 7.5 --y -2", "1.5\n"},
};

const Case conversion[] = {
    {"to_i32", "--x 1e10,-1e10,nan,-3.9,inf,-inf", "2147483647\n-2147483648\n0\n-3\n2147483647\n-2147483648\n"},
    {"to_i64", "--x 1e19,-1e19,nan,-2.5", "9223372036854775807\n-9223372036854775808\n0\n-2\n"},
    {"to_u8", "--x 300,-1.5,nan,255.9", "255\n0\n0\n255\n"},
    {"to_u64", "--x 1e20,-1,nan,18446744073709549568", "18446744073709551615\n0\n0\n18446744073709549568\n"},
    {"stored_as_i32", "--x 1e10,-1e10,nan,7.9", "2147483647\n-2147483648\n0\n7\n"},
    {"folded_infinity", "", "inf\n"},
};

// Four 2-edge paths' weights multiply to 3037000500^2 > 2^63, and (0, 3) sums two of them.
std::string write_heavy_paths(const std::string& dir) {
  const std::string path = dir + "/heavy.mtx";
  std::ofstream(path) << "%%MatrixMarket matrix coordinate integer general\n4 4 4\n"
                         "1 2 3037000500\n1 3 3037000500\n2 4 3037000500\n3 4 3037000500\n";
  return path;
}

void expect_answers(const std::string& program_name, const Case& c) {
  const RunResult r = run(program(program_name) + " " + c.kernel + " " + c.arguments);
  EXPECT_EQ(r.status, 0) << program_name << " " << c.kernel << " " << c.arguments << "\n" << r.output;
  EXPECT_EQ(r.output, c.answers) << program_name << " " << c.kernel << " " << c.arguments;
}

class Arithmetic : public ::testing::TestWithParam<const char*> {};

TEST_P(Arithmetic, IntegerOverflowWraps) {
  for (const Case& c : wrapping) expect_answers(GetParam(), c);
  const std::string heavy = write_heavy_paths(scratch_dir());
  expect_answers(GetParam(), {"wrapping_sum", ("--G " + heavy).c_str(), "290948384\n"});
  expect_answers(GetParam(), {"wrapping_user_agg", ("--G " + heavy).c_str(), "21162740829001248\n"});
}

TEST_P(Arithmetic, IntegerDivisionIsDefinedForEveryOperand) {
  for (const Case& c : division) expect_answers(GetParam(), c);
}

TEST_P(Arithmetic, FloatToIntegerConversionsSaturate) {
  for (const Case& c : conversion) expect_answers(GetParam(), c);
}

INSTANTIATE_TEST_SUITE_P(Programs, Arithmetic, ::testing::Values("specs_arithmetic", "specs_arithmetic_ubsan"),
                         [](const auto& program) { return std::string(program.param); });

}  // namespace
}  // namespace gql::e2e

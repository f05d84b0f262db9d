// Spec strings that stand for a graph file: "kron:SCALE[:EF[:SEED]]", "urand:...", "grid:RxC".
#include <charconv>
#include <vector>

#include "element_types.hpp"
#include "gql/generate.hpp"
#include "gql/io.hpp"

namespace gql {
namespace {

[[noreturn]] void bad_spec(std::string_view spec, const std::string& why) {
  throw Error(ErrorKind::usage, "bad generator spec '" + std::string(spec) + "': " + why);
}

template <class N>
N parse_number(std::string_view spec, std::string_view text, const char* what) {
  N value{};
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size())
    bad_spec(spec, std::string(what) + " must be a non-negative integer, not '" + std::string(text) + "'");
  if constexpr (std::is_signed_v<N>)
    if (value < 0) bad_spec(spec, std::string(what) + " must be a non-negative integer");
  return value;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (size_t at = 0;;) {
    const size_t next = text.find(separator, at);
    parts.push_back(text.substr(at, next == std::string_view::npos ? std::string_view::npos : next - at));
    if (next == std::string_view::npos) return parts;
    at = next + 1;
  }
}

}  // namespace

bool is_generator_spec(std::string_view text) {
  return text.starts_with("kron:") || text.starts_with("urand:") || text.starts_with("grid:");
}

template <class T>
Csr<T> generate_graph(std::string_view spec, const ReadOptions& read) {
  const std::vector<std::string_view> parts = split(spec, ':');
  if (parts[0] == "grid") {
    const std::vector<std::string_view> dims = parts.size() == 2 ? split(parts[1], 'x') : std::vector<std::string_view>{};
    if (dims.size() != 2) bad_spec(spec, "expected grid:ROWSxCOLS");
    return grid<T>(parse_number<int64_t>(spec, dims[0], "ROWS"), parse_number<int64_t>(spec, dims[1], "COLS"), read);
  }
  if (parts[0] != "kron" && parts[0] != "urand") bad_spec(spec, "expected kron:, urand: or grid:");
  if (parts.size() < 2 || parts.size() > 4) bad_spec(spec, "expected " + std::string(parts[0]) + ":SCALE[:EDGEFACTOR[:SEED]]");
  const int scale = parse_number<int>(spec, parts[1], "SCALE");
  const int64_t edge_factor = parts.size() > 2 ? parse_number<int64_t>(spec, parts[2], "EDGEFACTOR") : 16;
  const uint64_t seed = parts.size() > 3 ? parse_number<uint64_t>(spec, parts[3], "SEED") : default_generator_seed;
  if (parts[0] == "kron") return kronecker<T>({scale, edge_factor, seed, false}, read);
  return urand<T>({scale, edge_factor, seed, false}, read);
}

#define GQL_INSTANTIATE(T) template Csr<T> generate_graph<T>(std::string_view, const ReadOptions&);
GQL_FOR_EACH_ELEMENT_TYPE(GQL_INSTANTIATE)
#undef GQL_INSTANTIATE

}  // namespace gql

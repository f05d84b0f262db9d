// Shared pieces of the text readers: tokens, number parsing with range checks, and a parallel
// line-by-line driver that splits a buffer at line boundaries and reports the first bad line.
#pragma once

#include <omp.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "gql/array.hpp"
#include "gql/edge_list.hpp"
#include "gql/error.hpp"
#include "gql/host_memory.hpp"

namespace gql::detail {

// A format error on line `line` of `source` (the lines a reader checks itself, such as headers).
[[noreturn]] inline void fail_line(const std::string& source, int64_t line, const std::string& why) {
  throw Error(ErrorKind::io, why, {source, line});
}

// A token as messages show it: at most 40 characters, bytes that do not print as \xNN, and the token's
// length after "..." when it is longer (a token of 50 MB once made a message of 50 MB).
inline std::string shown(std::string_view token) {
  constexpr size_t most = 40;
  std::string out;
  for (const char ch : token.substr(0, most)) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c < 0x7f) {
      out += ch;
    } else {
      static constexpr char hex[] = "0123456789abcdef";
      out += {'\\', 'x', hex[c >> 4], hex[c & 15]};
    }
  }
  if (token.size() > most) out += "... (" + std::to_string(token.size()) + " bytes)";
  return out;
}

// What went wrong on one line, and where in it.
struct Problem {
  const char* at = nullptr;
  std::string reason;
};

// Splits a line into tokens at spaces and tabs (and commas when asked).
class Tokens {
 public:
  Tokens(std::string_view line, bool commas) : p_(line.data()), end_(line.data() + line.size()), commas_(commas) {}
  bool next(std::string_view& token) {
    while (p_ < end_ && is_separator(*p_)) ++p_;
    if (p_ == end_) return false;
    const char* b = p_;
    while (p_ < end_ && !is_separator(*p_)) ++p_;
    token = std::string_view(b, static_cast<size_t>(p_ - b));
    return true;
  }
  // The line's first tokens into `out` (at most N); returns how many were read.
  template <size_t N>
  int first(std::string_view (&out)[N]) {
    int k = 0;
    for (std::string_view t; k < static_cast<int>(N) && next(t);) out[k++] = t;
    return k;
  }
  bool at_end() {
    while (p_ < end_ && is_separator(*p_)) ++p_;
    return p_ == end_;
  }

 private:
  bool is_separator(char c) const { return c == ' ' || c == '\t' || c == '\r' || (commas_ && c == ','); }
  const char* p_;
  const char* end_;
  bool commas_;
};

inline bool is_blank(std::string_view line) {
  return std::all_of(line.begin(), line.end(), [](char c) { return c == ' ' || c == '\t' || c == '\r'; });
}

// The first non-blank character, or '\0'.
inline char first_char(std::string_view line) {
  for (char c : line)
    if (c != ' ' && c != '\t' && c != '\r') return c;
  return '\0';
}

// Parses a non-negative integer id token; on failure fills `problem`. Ids are the bulk of every text
// file, so plain digits (up to 18, which cannot overflow) take a short loop; the rest from_chars.
inline bool parse_id(std::string_view token, int64_t& out, Problem& problem) {
  if (!token.empty() && token.size() <= 18) {
    int64_t value = 0;
    bool digits = true;
    for (const char ch : token) {
      const unsigned d = static_cast<unsigned char>(ch) - unsigned{'0'};
      if (d >= 10) {
        digits = false;
        break;
      }
      value = value * 10 + d;
    }
    if (digits) {
      out = value;
      return true;
    }
  }
  const auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), out);
  if (ec == std::errc() && ptr == token.data() + token.size()) {
    if (out < 0) {
      problem = {token.data(), "negative index '" + shown(token) + "'"};
      return false;
    }
    return true;
  }
  if (ec == std::errc::result_out_of_range) {
    problem = {token.data(), "index '" + shown(token) + "' is out of range"};
  } else {
    problem = {token.data(), "expected an integer index, found '" + shown(token) + "'"};
  }
  return false;
}

// The common line "ID<sep>ID[<sep>more]" with both ids plain digits, scanned in one pass. Returns false
// for anything else; the caller then takes the general path, which also words the errors. An id is
// read up to 18 digits, which cannot overflow (the scan once multiplied on through any number of them).
constexpr bool scan_two_ids(std::string_view line, bool commas, int64_t& first, int64_t& second,
                            std::string_view& rest) {
  const char* p = line.data();
  const char* const end = p + line.size();
  const auto separator = [commas](char c) { return c == ' ' || c == '\t' || c == '\r' || (commas && c == ','); };
  while (p < end && separator(*p)) ++p;
  int64_t id[2];
  for (int64_t& value : id) {
    const char* const start = p;
    value = 0;
    while (p < end && static_cast<unsigned>(*p - '0') < 10 && p - start < 18) value = value * 10 + (*p++ - '0');
    if (p == start || (p < end && !separator(*p))) return false;  // a 19th digit is not a separator
    while (p < end && separator(*p)) ++p;
  }
  first = id[0];
  second = id[1];
  rest = std::string_view(p, static_cast<size_t>(end - p));
  return true;
}

template <class T>
const char* type_name() {
  if constexpr (std::is_same_v<T, bool>) return "bool";
  else if constexpr (std::is_floating_point_v<T>) return sizeof(T) == 4 ? "f32" : "f64";
  else if constexpr (std::is_signed_v<T>) {
    static const std::string name = "i" + std::to_string(8 * sizeof(T));
    return name.c_str();
  } else {
    static const std::string name = "u" + std::to_string(8 * sizeof(T));
    return name.c_str();
  }
}

// Parses a value token into T. Integers must be exact and in range ("3.0" is 3, "2.5" is refused);
// floats round to nearest; bool only checks that the token is a number (a pattern keeps structure).
template <class T>
bool parse_value(std::string_view token, storage_t<T>& out, Problem& problem) {
  const char* b = token.data();
  const char* e = b + token.size();
  if (b != e && *b == '+') ++b;  // from_chars takes no '+'
  const auto not_a_number = [&] {
    problem = {token.data(), "expected a number, found '" + shown(token) + "'"};
    return false;
  };
  const auto does_not_fit = [&] {
    problem = {token.data(), "value '" + shown(token) + "' does not fit " + type_name<T>()};
    return false;
  };
  if constexpr (std::is_same_v<T, bool>) {
    double d = 0;
    const auto [ptr, ec] = std::from_chars(b, e, d);
    if (ptr != e || (ec != std::errc() && ec != std::errc::result_out_of_range)) return not_a_number();
    out = 1;
    return true;
  } else if constexpr (std::is_floating_point_v<T>) {
    const auto [ptr, ec] = std::from_chars(b, e, out);
    if (ptr != e || (ec != std::errc() && ec != std::errc::result_out_of_range)) return not_a_number();
    // Out of range: overflow does not fit; underflow to zero or a subnormal is rounding, accepted.
    if (ec == std::errc::result_out_of_range) {
      // strtod tells overflow (HUGE_VAL) from underflow (a tiny or zero result).
      const double d = std::strtod(std::string(b, e).c_str(), nullptr);
      if (std::fabs(d) > 1.0) return does_not_fit();
      out = static_cast<T>(d);
    }
    return true;
  } else {
    const auto [ptr, ec] = std::from_chars(b, e, out);
    if (ec == std::errc() && ptr == e) return true;
    if (ec == std::errc::result_out_of_range) return does_not_fit();
    // Not a plain integer: a real that is an exact integer in range is accepted.
    double d = 0;
    const auto [dptr, dec] = std::from_chars(b, e, d);
    if (dptr != e || dec != std::errc()) {
      if (ec == std::errc() && std::is_unsigned_v<T> && *b == '-') return does_not_fit();
      return not_a_number();
    }
    if (!std::isfinite(d) || d != std::trunc(d)) {
      problem = {token.data(), "value '" + shown(token) + "' is not an integer (element type " +
                                   type_name<T>() + ")"};
      return false;
    }
    if (d < static_cast<double>(std::numeric_limits<T>::min()) ||
        d >= std::ldexp(1.0, std::numeric_limits<T>::digits))
      return does_not_fit();
    out = static_cast<T>(d);
    return true;
  }
}

// One column of a chunk's entries (rows, columns, values or line numbers), written in place into the
// parse's array from the slot of the chunk's first line: a line holds at most one entry, so the
// chunks' slots never meet and the entries need no second copy. A push past the chunk's slots (a
// reader that wrote two entries for a line, or into a column it did not ask for) is counted, not
// written, and fails the parse.
template <class X>
class ChunkColumn {
 public:
  ChunkColumn() = default;
  ChunkColumn(X* first, size_t slots) : first_(first), slots_(slots) {}
  void push_back(X x) noexcept {
    if (size_ < slots_) first_[size_] = x;
    ++size_;
  }
  X& back() noexcept { return first_[size_ - 1]; }
  const X* begin() const noexcept { return first_; }
  const X* end() const noexcept { return first_ + size_; }
  size_t size() const noexcept { return size_; }
  bool overflowed() const noexcept { return size_ > slots_; }

 private:
  X* first_ = nullptr;
  size_t slots_ = 0;
  size_t size_ = 0;
};

// The columns a reader writes: each an array with a slot per line of the parsed text.
struct LineSlots {
  bool entries = true;  // rows and columns
  bool values = false;
  bool lines = false;   // the line of each entry, for messages
};

// Per-chunk output of the parallel parse: entries in file order plus what the format wants to track.
template <class T>
struct Chunk {
  ChunkColumn<index_t> rows, cols;
  ChunkColumn<storage_t<T>> values;
  ChunkColumn<int64_t> lines;
  size_t first_slot = 0;     // the slot of the chunk's first line
  int64_t max_id = -1;       // largest 0-based id seen (edge lists)
  int columns = 0;           // tokens per data line (edge lists: all lines must agree)
  int64_t first_data_line = 0;

  bool overflowed() const noexcept {
    return rows.overflowed() || cols.overflowed() || values.overflowed() || lines.overflowed();
  }
};

// The parse's arrays (a slot per line; the columns LineSlots did not ask for stay empty) and its
// chunks in file order; `compact` leaves the entries alone in file order.
template <class T>
struct ParsedLines {
  Array<index_t> rows, cols;
  Array<storage_t<T>> values;
  Array<int64_t> lines;
  std::vector<Chunk<T>> chunks;
};

// Runs per_line(chunk, line, line_number, problem) on every line of `text` (without '\n' or a trailing
// '\r'), in parallel over chunks split at line boundaries; `first_line` is the number of text's first line.
// Returns the entries in place (ParsedLines); the first failing line (in file order) becomes Error(io).
template <class T, class PerLine>
ParsedLines<T> parse_lines(std::string_view text, int64_t first_line, const std::string& source, LineSlots want,
                           PerLine per_line) {
  const int threads = omp_get_max_threads();
  const size_t target = std::max<size_t>(1, std::min<size_t>(size_t(threads) * 8, text.size() / (1 << 16) + 1));
  std::vector<size_t> bounds{0};
  for (size_t k = 1; k < target; ++k) {
    size_t b = std::max(bounds.back(), text.size() * k / target);
    const void* nl = b < text.size() ? std::memchr(text.data() + b, '\n', text.size() - b) : nullptr;
    b = nl ? static_cast<size_t>(static_cast<const char*>(nl) - text.data()) + 1 : text.size();
    if (b > bounds.back() && b < text.size()) bounds.push_back(b);
  }
  bounds.push_back(text.size());
  const size_t n_chunks = bounds.size() - 1;

  // Line numbers first (a fast count), so every chunk knows the number of its first line.
  std::vector<int64_t> start_line(n_chunks + 1, 0);
#pragma omp parallel for schedule(static)
  for (size_t c = 0; c < n_chunks; ++c)
    start_line[c + 1] = std::count(text.data() + bounds[c], text.data() + bounds[c + 1], '\n');
  start_line[0] = first_line;
  for (size_t c = 0; c < n_chunks; ++c) start_line[c + 1] += start_line[c];

  // A slot per line, and one for a last line without '\n'.
  ParsedLines<T> parsed;
  const auto slots = static_cast<size_t>(start_line[n_chunks] - first_line) + 1;
  const size_t slot_bytes = (want.entries ? 2 * sizeof(index_t) : 0) + (want.values ? sizeof(storage_t<T>) : 0) +
                            (want.lines ? sizeof(int64_t) : 0);
  check_host_allocation(bytes_for(slots, slot_bytes), "the entries of " + std::to_string(slots) + " lines", source);
  try {
    if (want.entries) parsed.rows.resize(slots), parsed.cols.resize(slots);
    if (want.values) parsed.values.resize(slots);
    if (want.lines) parsed.lines.resize(slots);
  } catch (const std::bad_alloc&) {
    throw Error(ErrorKind::oom, "out of memory for the " + std::to_string(slots) + " lines of the file", {source});
  }
  parsed.chunks.resize(n_chunks);
  for (size_t c = 0; c < n_chunks; ++c) {
    Chunk<T>& chunk = parsed.chunks[c];
    chunk.first_slot = static_cast<size_t>(start_line[c] - first_line);
    const size_t mine = static_cast<size_t>(start_line[c + 1] - start_line[c]) + (c + 1 == n_chunks);
    const auto column = [&](auto& array) {
      using X = std::remove_reference_t<decltype(array[0])>;
      return array.empty() ? ChunkColumn<X>() : ChunkColumn<X>(array.data() + chunk.first_slot, mine);
    };
    chunk.rows = column(parsed.rows);
    chunk.cols = column(parsed.cols);
    chunk.values = column(parsed.values);
    chunk.lines = column(parsed.lines);
  }

  std::vector<int64_t> bad_line(n_chunks, 0), bad_column(n_chunks, 0);
  std::vector<std::string> bad_reason(n_chunks);
#pragma omp parallel for schedule(dynamic, 1)
  for (size_t c = 0; c < n_chunks; ++c) {
    const char* p = text.data() + bounds[c];
    const char* end = text.data() + bounds[c + 1];
    int64_t line_no = start_line[c];
    Problem problem;
    try {
      while (p < end) {
        const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
        const char* line_end = nl ? nl : end;
        std::string_view line(p, static_cast<size_t>(line_end - p));
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (!per_line(parsed.chunks[c], line, line_no, problem)) {
          bad_line[c] = line_no;
          bad_column[c] = problem.at ? (problem.at - line.data()) + 1 : 0;
          bad_reason[c] = std::move(problem.reason);
          break;
        }
        p = line_end + 1;
        ++line_no;
      }
    } catch (const std::bad_alloc&) {
      bad_line[c] = line_no;
      bad_reason[c] = "out of memory while reading";
    }
  }
  for (size_t c = 0; c < n_chunks; ++c) {
    if (bad_line[c] > 0) throw Error(ErrorKind::io, bad_reason[c], {source, bad_line[c], bad_column[c]});
    if (parsed.chunks[c].overflowed())
      throw Error(ErrorKind::internal, "a reader wrote more than one entry for a line", {source, start_line[c]});
  }
  return parsed;
}

// Leaves each array of `parsed` holding its entries alone, in file order. Lines without an entry
// (comments, blank lines) leave slots free inside a chunk's share; only then are the entries copied
// (by all threads, into new arrays), else the arrays are cut to their entries where they are.
template <class T>
void compact(ParsedLines<T>& parsed) {
  auto& chunks = parsed.chunks;
  const auto entries = [](const Chunk<T>& c) { return std::max({c.rows.size(), c.values.size()}); };
  std::vector<size_t> at(chunks.size() + 1, 0);
  bool in_place = true;
  for (size_t c = 0; c < chunks.size(); ++c) {
    at[c + 1] = at[c] + entries(chunks[c]);
    in_place = in_place && at[c] == chunks[c].first_slot;
  }
  const auto cut = [&](auto& array, auto column) {
    if (array.empty()) return;
    if (!in_place) {
      std::remove_reference_t<decltype(array)> packed(at.back());
#pragma omp parallel for schedule(dynamic, 1)
      for (size_t c = 0; c < chunks.size(); ++c) {
        const auto& from = chunks[c].*column;
        std::copy(from.begin(), from.end(), packed.begin() + static_cast<std::ptrdiff_t>(at[c]));
      }
      array = std::move(packed);
    }
    array.resize(at.back());
  };
  cut(parsed.rows, &Chunk<T>::rows);
  cut(parsed.cols, &Chunk<T>::cols);
  cut(parsed.values, &Chunk<T>::values);
  cut(parsed.lines, &Chunk<T>::lines);
  chunks.clear();
}

// The entries of `parsed`, in file order, moved into `edges`.
template <class T>
void gather(ParsedLines<T>& parsed, EdgeList<T>& edges) {
  compact(parsed);
  edges.rows = std::move(parsed.rows);
  edges.cols = std::move(parsed.cols);
  edges.values = std::move(parsed.values);
  edges.lines = std::move(parsed.lines);
}

// Appends the mirror (j, i) of every off-diagonal entry (i, j), negated when `negate` (skew-symmetric).
template <class T>
void mirror(EdgeList<T>& edges, bool negate) {
  const size_t m = edges.rows.size();
  for (size_t e = 0; e < m; ++e) {
    if (edges.rows[e] == edges.cols[e]) continue;
    edges.rows.push_back(edges.cols[e]);
    edges.cols.push_back(edges.rows[e]);
    if constexpr (stores_values<T>) {
      if constexpr (std::is_signed_v<T> || std::is_floating_point_v<T>)
        edges.values.push_back(negate ? static_cast<T>(-edges.values[e]) : edges.values[e]);
      else
        edges.values.push_back(edges.values[e]);
    }
    if (!edges.lines.empty()) edges.lines.push_back(edges.lines[e]);
  }
}

// Splits off the first line of `text` (without its '\n' and '\r'); advances `text` past it.
inline std::string_view take_line(std::string_view& text) {
  const size_t nl = text.find('\n');
  std::string_view line = text.substr(0, nl);
  text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

}  // namespace gql::detail

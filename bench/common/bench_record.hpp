// One benchmark result as a JSON line: what ran (workload, graph, variant), its times over repeats
// after a warm-up (min/median/max), its rates and checksums, and where and when it ran (machine,
// date, commit). Host code only; shared by every benchmark under bench/ (CPU and GPU), whose records
// bench/run gathers into one results.jsonl.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <utility>
#include <vector>

namespace gql::bench {

struct TimeSummary {
  double min = 0, median = 0, max = 0;
  int repeats = 0;
};

// Min, median (the mean of the middle two for an even count) and max of `seconds`.
inline TimeSummary summarize(std::vector<double> seconds) {
  TimeSummary s;
  s.repeats = static_cast<int>(seconds.size());
  if (seconds.empty()) return s;
  std::sort(seconds.begin(), seconds.end());
  const size_t n = seconds.size();
  s.min = seconds.front();
  s.max = seconds.back();
  s.median = n % 2 == 1 ? seconds[n / 2] : 0.5 * (seconds[n / 2 - 1] + seconds[n / 2]);
  return s;
}

// A JSON string literal for `text` (quotes, backslashes and control characters escaped).
inline std::string json_quote(const std::string& text) {
  std::string out = "\"";
  for (const unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
          out += escaped;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

// A number as JSON: shortest round-trip text; NaN and infinities (not JSON) become null.
inline std::string json_number(double x) {
  if (x != x || x > 1.7976931348623157e308 || x < -1.7976931348623157e308) return "null";
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", x);
  for (int digits = 6; digits < 17; ++digits) {  // the shortest text that reads back as x
    char shorter[32];
    std::snprintf(shorter, sizeof shorter, "%.*g", digits, x);
    if (std::strtod(shorter, nullptr) == x) return shorter;
  }
  return text;
}

// Fields in insertion order, written as one line of JSON.
class Record {
 public:
  Record& text(const std::string& key, const std::string& value) { return raw(key, json_quote(value)); }
  Record& number(const std::string& key, double value) { return raw(key, json_number(value)); }
  Record& integer(const std::string& key, long long value) { return raw(key, std::to_string(value)); }
  Record& boolean(const std::string& key, bool value) { return raw(key, value ? "true" : "false"); }
  Record& times(const TimeSummary& t) {
    return raw("time_s", "{\"min\": " + json_number(t.min) + ", \"median\": " + json_number(t.median) +
                             ", \"max\": " + json_number(t.max) + "}")
        .integer("repeats", t.repeats);
  }
  std::string line() const {
    std::string out = "{";
    for (size_t i = 0; i < fields_.size(); ++i) {
      if (i > 0) out += ", ";
      out += json_quote(fields_[i].first) + ": " + fields_[i].second;
    }
    return out + "}";
  }

 private:
  Record& raw(const std::string& key, std::string json) {
    for (auto& field : fields_)
      if (field.first == key) {
        field.second = std::move(json);
        return *this;
      }
    fields_.emplace_back(key, std::move(json));
    return *this;
  }
  std::vector<std::pair<std::string, std::string>> fields_;
};

// Where and when: the same for every record of a run.
struct RunContext {
  std::string machine;  // the GPU's name and the host's core count
  std::string date;     // UTC, ISO 8601
  std::string commit;   // from GQL_BENCH_COMMIT (run-gpu sets it), else "unknown"
};

inline std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

inline std::string env_or(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : fallback;
}

inline Record& stamp(Record& record, const RunContext& context) {
  return record.text("machine", context.machine).text("date", context.date).text("commit", context.commit);
}

// Appends records to a JSON-lines file (and echoes them to stdout); a missing path only echoes.
class JsonLines {
 public:
  explicit JsonLines(const std::string& path) : file_(path.empty() ? nullptr : std::fopen(path.c_str(), "a")) {}
  ~JsonLines() {
    if (file_ != nullptr) std::fclose(file_);
  }
  JsonLines(const JsonLines&) = delete;
  JsonLines& operator=(const JsonLines&) = delete;
  bool ok() const { return file_ != nullptr; }
  void write(const Record& record) {
    const std::string line = record.line();
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
    if (file_ != nullptr) {
      std::fprintf(file_, "%s\n", line.c_str());
      std::fflush(file_);
    }
  }

 private:
  std::FILE* file_;
};

}  // namespace gql::bench

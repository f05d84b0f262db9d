// Command-line options of the CPU benchmarks: every option is `--name value` (a repeated name
// collects a list). The options every benchmark shares (--json, --warmup, --repeats) are read here;
// an option that a benchmark never asks for is a usage error, so a typo never runs silently.
#pragma once

#include <cstdlib>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gql::bench {

// The items of a comma-separated list, empty items left out ("a,,b," -> a, b).
inline std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!part.empty()) parts.push_back(std::move(part));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return parts;
}

class Args {
 public:
  Args(int argc, char** argv, std::string usage) : usage_(std::move(usage)) {
    for (int i = 1; i < argc; ++i) {
      const std::string name = argv[i];
      if (name.rfind("--", 0) != 0 || i + 1 >= argc) throw std::invalid_argument(usage_);
      values_[name.substr(2)].push_back(argv[++i]);
    }
  }

  std::string text(const std::string& name, const std::string& fallback) {
    const auto all = list(name, {fallback});
    return all.back();
  }
  long long integer(const std::string& name, long long fallback) {
    const std::string value = text(name, std::to_string(fallback));
    char* end = nullptr;
    const long long parsed = std::strtoll(value.c_str(), &end, 10);
    if (end == value.c_str() || *end != '\0') throw std::invalid_argument("--" + name + " " + value + ": not an integer\n" + usage_);
    return parsed;
  }
  // Every value given for `name` in order (a value may hold several, separated by commas).
  std::vector<std::string> list(const std::string& name, const std::vector<std::string>& fallback) {
    asked_.insert(name);
    const auto found = values_.find(name);
    if (found == values_.end()) return fallback;
    std::vector<std::string> out;
    for (const std::string& value : found->second)
      for (std::string& part : split_list(value)) out.push_back(std::move(part));
    return out;
  }
  // Call after every option was asked for: names given but never asked for are errors.
  void check_all_used() const {
    for (const auto& [name, values] : values_)
      if (!asked_.count(name)) throw std::invalid_argument("unknown option --" + name + "\n" + usage_);
  }

 private:
  std::string usage_;
  std::map<std::string, std::vector<std::string>> values_;
  std::set<std::string> asked_;
};

}  // namespace gql::bench

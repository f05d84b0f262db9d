// A progress line on stderr while long work runs, shown only when stderr is a terminal:
// "running WHAT ... N s" once a second after the first second, erased when the work is done. Lines
// nest: while one is shown (a generated program's kernel), an inner one (an op inside it, such as
// a closure streamed out of core) adds its own text and detail to that line instead of starting a
// second one ("running apsp ... 12 s, closure out of core: super tile row 3 of 7").
#pragma once

#include <string>

namespace gql {

class ProgressLine {
 public:
  explicit ProgressLine(std::string what);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // Where the work stands, shown after the time (thread-safe; a no-op when no line is shown).
  void detail(const std::string& text);

 private:
  struct State;
  static State* shown_;     // the line on the terminal, if any
  State* state_ = nullptr;  // the shown line: this one's own, or the outer one's when nested
  bool owner_ = false;
  std::string what_;
};

}  // namespace gql

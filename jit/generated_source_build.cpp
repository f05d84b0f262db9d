#include "generated_source_build.hpp"

#include <filesystem>

#include "gql/compiler/run_command.hpp"
#include "gql/error.hpp"
#include "whole_file.hpp"

namespace gql::jit {
namespace fs = std::filesystem;

void compile_generated_source(const std::string& source, const std::string& source_path,
                              const std::string& failed_source, const std::vector<std::string>& argv,
                              const std::string& what) {
  write_whole_file(source_path, source, "the generated source");
  std::string log;
  const int status = compiler::run_command(argv, log);
  std::error_code ec;
  if (status == 0) {
    fs::remove(source_path, ec);
    fs::remove(failed_source, ec);
    return;
  }
  // Where the cache's folder for failed sources is gone, the source stays where it was written.
  fs::rename(source_path, failed_source, ec);
  const std::string kept = ec ? source_path : failed_source;
  throw Error(ErrorKind::jit, what + " failed (exit " + std::to_string(status) + "); the source is kept in " + kept +
                                  "\ncommand: " + compiler::command_line(argv) + "\n" + log);
}

}  // namespace gql::jit

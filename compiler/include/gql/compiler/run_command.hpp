// Running an external program (the host compiler, nvcc) without a shell.
#pragma once

#include <string>
#include <vector>

namespace gql::compiler {

// Runs argv[0] (searched in PATH) with argv; appends what it printed on stdout and stderr to
// `output` and returns its exit status (128 + signal when killed). Throws gql::Error(jit) when the
// process cannot be started.
int run_command(const std::vector<std::string>& argv, std::string& output);

// argv joined by spaces, for error messages.
std::string command_line(const std::vector<std::string>& argv);

}  // namespace gql::compiler

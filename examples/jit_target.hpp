// The examples' `--target cuda|openmp` option (default openmp), taken out of argv so that the
// remaining arguments are the example's own.
#pragma once

#include <cstring>
#include <string>

#include <gql/gql.hpp>
#include <gql/jit.hpp>

inline gql::Target take_target_option(int& argc, char** argv) {
  gql::Target target = gql::Target::openmp;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const bool separate = std::strcmp(argv[i], "--target") == 0;
    if (!separate && std::strncmp(argv[i], "--target=", 9) != 0) {
      argv[kept++] = argv[i];
      continue;
    }
    if (separate && i + 1 == argc) throw gql::Error(gql::ErrorKind::usage, "--target takes cuda or openmp");
    const std::string name = separate ? argv[++i] : argv[i] + 9;
    if (name == "cuda") target = gql::Target::cuda;
    else if (name != "openmp") throw gql::Error(gql::ErrorKind::usage, "--target takes cuda or openmp, not '" + name + "'");
  }
  argc = kept;
  return target;
}

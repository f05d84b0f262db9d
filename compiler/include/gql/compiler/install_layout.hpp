// Where the runtime's headers, its library and the stdlib are, for gqlc and the JIT: an installed
// tree (PREFIX/include, PREFIX/<libdir>, PREFIX/share/gql/stdlib) or, failing that, this build tree.
#pragma once

#include <string>
#include <vector>

namespace gql::compiler {

struct RuntimeLayout {
  std::string root;                         // the install prefix, empty for the build tree
  // The headers generated code includes (-I each): one folder when installed; in the build tree the
  // runtime's (gql/graph.hpp) and the core's (gql/error.hpp, gql/semiring.hpp).
  std::vector<std::string> include_dirs;
  std::string runtime_library;              // libgql_runtime, linked into generated code (a path, not a link of gqlc)
  std::vector<std::string> link_libraries;  // what that library needs (zlib, BLAS, cudart)
  std::vector<std::string> compile_definitions;  // what its headers need defined (-DGQL_HAVE_BLAS=1)
  std::string stdlib_dir;                   // holds std/semirings.gql
  std::string host_compiler;                // the compiler this build used
  std::string cuda_compiler;                // empty without CUDA
  std::vector<std::string> cuda_include_dirs;  // the CUDA runtime's headers; empty without CUDA
  bool have_cuda = false;
  // Programs for several processes (gqlc --mpi): libgql_dist, MPI's headers and libraries; empty
  // where this build found no MPI.
  std::string dist_library;
  std::vector<std::string> mpi_include_dirs, mpi_link_libraries;
  bool have_mpi = false;
};

// The first of: `root` when given; $GQL_ROOT; `package_root` when given (the installation a program
// built with find_package(gql) was configured against); the prefix above the running executable (an
// installed gqlc finds ../include, ../lib, ../share/gql/stdlib); this build tree; the prefix this
// build installs to. A prefix counts when it holds include/gql/graph.hpp.
// Throws gql::Error(usage) when the one taken of `root`, $GQL_ROOT and `package_root` holds no gql
// installation.
RuntimeLayout runtime_layout(const std::string& root = "", const std::string& package_root = "");

// What generated code links, in order, after its own object: gql::dist where it runs over MPI ranks
// (before the runtime, whose functions it calls), the runtime, what the runtime needs, MPI's
// libraries. gqlc's programs and the JIT's kernel libraries alike.
std::vector<std::string> linked_libraries(const RuntimeLayout& layout, bool distributed);

}  // namespace gql::compiler

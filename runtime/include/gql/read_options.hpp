// How a graph read from a file (or made by a generator) is turned into a CSR: the caller's policies.
#pragma once

#include <cstdint>

namespace gql {

// The file formats gql reads. `automatic` picks one from the file name (see docs/runtime.md).
enum class Format { automatic, matrix_market, edge_list, dimacs, lg, binary };

enum class SelfLoops {
  keep,  // an entry (i, i) stays as stored
  drop,  // every entry (i, i) is removed
};

// How several entries for the same (row, column) combine. Entries are taken in file order.
enum class Duplicates {
  first,  // the first one in the file wins
  sum,    // values are added in file order (integer overflow is an error)
  min,
  max,
  error,  // a second entry for a pair is an error naming both lines
};

struct ReadOptions {
  SelfLoops self_loops = SelfLoops::keep;
  Duplicates duplicates = Duplicates::first;
  // Make the graph undirected: C = A union A^T. A pair stored both ways gets, in both directions, the
  // two values combined by `duplicates` (with `error`: the two values must be equal).
  bool symmetrize = false;
  Format format = Format::automatic;
};

}  // namespace gql

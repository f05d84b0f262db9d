// Traversal direction: push (scatter over the out-edges of the frontier) or pull (gather over the
// in-edges of the vertices still open), switched by Beamer's rule: go pull when the frontier's
// edges exceed those left to explore over alpha, go back to push when the frontier shrinks below
// n over beta. Target-neutral: the OpenMP traversals (gql::cpu) and the GPU's (gql::gpu) choose alike.
#pragma once

#include <cstdint>

namespace gql::common {

enum class Direction { push, pull, automatic };

struct DirectionOptions {
  Direction direction = Direction::automatic;
  double alpha = 15.0;
  double beta = 18.0;
};

// Keeps the current direction across the steps of one traversal (Beamer's rule has hysteresis).
class DirectionChooser {
 public:
  explicit DirectionChooser(DirectionOptions options) : options_(options) {}

  // frontier_edges: out-edges of the frontier; open_edges: in-edges of the vertices still open;
  // frontier_size and n: vertices in the frontier and in all.
  bool pull(int64_t frontier_edges, int64_t open_edges, int64_t frontier_size, int64_t n) {
    switch (options_.direction) {
      case Direction::push: return false;
      case Direction::pull: return true;
      case Direction::automatic: break;
    }
    if (!pulling_) {
      pulling_ = static_cast<double>(frontier_edges) > static_cast<double>(open_edges) / options_.alpha;
    } else {
      pulling_ = static_cast<double>(frontier_size) >= static_cast<double>(n) / options_.beta;
    }
    return pulling_;
  }
  // Whether the next pull() reads its edge counts (deciding automatically while pushing), so a
  // caller may skip counting them otherwise.
  bool weighs_edges() const noexcept { return options_.direction == Direction::automatic && !pulling_; }

 private:
  DirectionOptions options_;
  bool pulling_ = false;
};

// What one vector product did: its direction, and the out-edges of its vector's entries (the edges
// a push reads: the traversal's work measure; -1 where only the transpose was given).
struct VectorStep {
  bool pulled = false;
  int64_t frontier_edges = -1;
};

// A vector product's schedule as generated code gives it.
struct TraversalOptions {
  Direction direction = Direction::automatic;
  double alpha = 15;
  double beta = 18;
  int threads = 0;
  const char* label;
};

}  // namespace gql::common

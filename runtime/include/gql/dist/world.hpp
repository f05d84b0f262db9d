// The processes of one distributed run (MPI ranks) and what the distributed ops exchange among them.
// A value is replicated (every rank holds the whole graph or matrix, an op divides its work by rows
// among the ranks, and each rank ends with the whole result), or split: each rank holds a block of
// its rows only (gql/dist/split_graph.hpp; docs/runtime.md, "Several processes").
//
// Built when MPI is found (the library gql::dist, GQL_HAVE_MPI); every rank must call the same ops in
// the same order, as with any collective MPI call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace gql::dist {

class World {
 public:
  // Starts MPI unless it is running (then this World uses it and leaves it running at its end).
  World(int* argc, char*** argv);
  World(const World&) = delete;
  World& operator=(const World&) = delete;
  ~World();  // ends MPI when this World started it

  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }
  // This rank among the ranks on its host (shared memory), and how many there are: which of the
  // host's GPUs it takes (gql/dist/device_world.hpp).
  int host_rank() const noexcept { return host_rank_; }
  int host_size() const noexcept { return host_size_; }

  // Runs `local` on this rank, then agrees with every other rank whether all succeeded. Where one
  // threw, every rank throws the same gql::Error: the lowest failing rank's, naming that rank. So an
  // error on any rank is reported once, in the same words everywhere, and no rank waits forever in a
  // later collective call.
  void on_every_rank(const std::function<void()>& local) const;

  // The bytes each rank gives, joined in rank order on every rank (any sizes; no 2 GiB limit).
  std::vector<std::byte> all_parts(std::span<const std::byte> mine) const;
  // The same in two steps, for a caller that allocates the joined bytes itself: every rank's size,
  // then every rank's part put in its place of `joined` (whose size is their sum; `mine` may already
  // be in its place there).
  std::vector<int64_t> part_sizes(int64_t mine) const;
  void join_parts(std::span<const std::byte> mine, std::span<const int64_t> sizes, std::span<std::byte> joined) const;
  // The same on rank `root` only: every rank's part sent there and received in its place of
  // `joined` (which the other ranks may leave empty).
  void gather_parts(std::span<const std::byte> mine, std::span<const int64_t> sizes, std::span<std::byte> joined,
                    int root) const;
  // Every rank sends each rank r the pieces to_each[r] (memory sent as it lies, in order) and
  // receives theirs: what every rank sent to this one, joined in rank order, each rank's pieces in
  // order, with their sizes in from_each. Pieces of any size (in messages of at most 1 GiB).
  using Pieces = std::vector<std::span<const std::byte>>;
  std::vector<std::byte> exchange(std::span<const Pieces> to_each, std::vector<int64_t>& from_each) const;
  // Every rank's `words` become their bitwise or, in place.
  void or_words(std::span<uint64_t> words) const;
  // The sum of every rank's `x`; of every rank's `counts`, element by element, in place.
  int64_t sum(int64_t x) const;
  void sum(std::span<int64_t> counts) const;
  // Rank `root`'s bytes copied to every rank's `bytes` (same size everywhere).
  void broadcast(std::span<std::byte> bytes, int root) const;

 private:
  int rank_ = 0;
  int size_ = 1;
  int host_rank_ = 0;
  int host_size_ = 1;
  bool started_mpi_ = false;
};

// A launcher that starts several ranks (mpirun, srun, mpiexec) sets one of these in each process.
bool launched_by_mpi();

}  // namespace gql::dist

#include "gql/dist/world.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <string>

#include "gql/error.hpp"

namespace gql::dist {
namespace {

// One MPI call's payload at most: counts are ints, so larger parts go in pieces.
constexpr size_t piece_bytes = size_t{1} << 30;

void check(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw Error(ErrorKind::io, std::string(call) + " failed: " + std::string(text, static_cast<size_t>(length)));
}

// Every rank's `items` combined by `op`, in place, in pieces of at most piece_bytes.
template <class T>
void allreduce_in_pieces(std::span<T> items, MPI_Datatype type, MPI_Op op) {
  constexpr size_t piece_items = piece_bytes / sizeof(T);
  for (size_t at = 0; at < items.size(); at += piece_items) {
    const size_t count = std::min(piece_items, items.size() - at);
    check(MPI_Allreduce(MPI_IN_PLACE, items.data() + at, static_cast<int>(count), type, op, MPI_COMM_WORLD),
          "MPI_Allreduce");
  }
}

}  // namespace

bool launched_by_mpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS", "SLURM_NTASKS"})
    if (std::getenv(name) != nullptr) return true;
  return false;
}

World::World(int* argc, char*** argv) {
  int running = 0;
  MPI_Initialized(&running);
  if (!running) {
    int provided = 0;
    // The ops call MPI from the thread that called them, between their OpenMP regions.
    check(MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
    started_mpi_ = true;
  }
  // Failures come back as codes, which check() turns into gql::Error, instead of ending the job.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  MPI_Comm host = MPI_COMM_NULL;
  check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &host), "MPI_Comm_split_type");
  MPI_Comm_rank(host, &host_rank_);
  MPI_Comm_size(host, &host_size_);
  MPI_Comm_free(&host);
}

World::~World() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (started_mpi_ && !finalized) MPI_Finalize();
}

void World::on_every_rank(const std::function<void()>& local) const {
  int kind = -1;  // this rank's error kind, -1 when it succeeded
  std::string message;
  try {
    local();
  } catch (const Error& e) {  // its kind, and its reason after its place
    kind = static_cast<int>(e.kind());
    const Location& at = e.where();
    if (!at.file.empty()) message = at.file + (at.line > 0 ? ":" + std::to_string(at.line) : "") + ": ";
    message += e.reason();
  } catch (const std::exception& e) {
    kind = static_cast<int>(ErrorKind::internal);
    message = e.what();
  }
  int first = kind >= 0 ? rank_ : size_;  // the lowest failing rank, size_ when none failed
  check(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
  if (first == size_) return;
  int64_t header[2] = {kind, static_cast<int64_t>(message.size())};
  check(MPI_Bcast(header, 2, MPI_INT64_T, first, MPI_COMM_WORLD), "MPI_Bcast");
  message.resize(static_cast<size_t>(header[1]));
  broadcast(std::as_writable_bytes(std::span<char>(message.data(), message.size())), first);
  throw Error(static_cast<ErrorKind>(header[0]), "rank " + std::to_string(first) + ": " + message);
}

std::vector<std::byte> World::all_parts(std::span<const std::byte> mine) const {
  const std::vector<int64_t> sizes = part_sizes(static_cast<int64_t>(mine.size()));
  int64_t total = 0;
  for (int64_t s : sizes) total += s;
  std::vector<std::byte> joined;
  on_every_rank([&] { joined.resize(static_cast<size_t>(total)); });  // a rank without the memory fails them all
  join_parts(mine, sizes, joined);
  return joined;
}

std::vector<int64_t> World::part_sizes(int64_t mine) const {
  std::vector<int64_t> sizes(static_cast<size_t>(size_));
  check(MPI_Allgather(&mine, 1, MPI_INT64_T, sizes.data(), 1, MPI_INT64_T, MPI_COMM_WORLD), "MPI_Allgather");
  return sizes;
}

void World::join_parts(std::span<const std::byte> mine, std::span<const int64_t> sizes,
                       std::span<std::byte> joined) const {
  size_t at = 0;
  for (int r = 0; r < size_; ++r) {
    const auto part = joined.subspan(at, static_cast<size_t>(sizes[static_cast<size_t>(r)]));
    if (r == rank_ && mine.data() != part.data()) std::copy(mine.begin(), mine.end(), part.begin());
    broadcast(part, r);
    at += part.size();
  }
}

void World::gather_parts(std::span<const std::byte> mine, std::span<const int64_t> sizes, std::span<std::byte> joined,
                         int root) const {
  // Both sides cut a part into the same messages of at most piece_bytes.
  if (rank_ != root) {
    for (size_t at = 0; at < mine.size(); at += piece_bytes)
      check(MPI_Send(mine.data() + at, static_cast<int>(std::min(piece_bytes, mine.size() - at)), MPI_BYTE, root, 0,
                     MPI_COMM_WORLD),
            "MPI_Send");
    return;
  }
  size_t at = 0;
  for (int r = 0; r < size_; ++r) {
    const auto part = joined.subspan(at, static_cast<size_t>(sizes[static_cast<size_t>(r)]));
    at += part.size();
    if (r == rank_) {
      if (mine.data() != part.data()) std::copy(mine.begin(), mine.end(), part.begin());
      continue;
    }
    for (size_t from = 0; from < part.size(); from += piece_bytes)
      check(MPI_Recv(part.data() + from, static_cast<int>(std::min(piece_bytes, part.size() - from)), MPI_BYTE, r, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE),
            "MPI_Recv");
  }
}

std::vector<std::byte> World::exchange(std::span<const Pieces> to_each, std::vector<int64_t>& from_each) const {
  if (to_each.size() != static_cast<size_t>(size_))
    throw Error(ErrorKind::internal, "exchange: " + std::to_string(to_each.size()) + " parts for " +
                                         std::to_string(size_) + " ranks");
  std::vector<int64_t> sizes(static_cast<size_t>(size_), 0);
  for (size_t r = 0; r < sizes.size(); ++r)
    for (const auto& piece : to_each[r]) sizes[r] += static_cast<int64_t>(piece.size());
  from_each.assign(static_cast<size_t>(size_), 0);
  check(MPI_Alltoall(sizes.data(), 1, MPI_INT64_T, from_each.data(), 1, MPI_INT64_T, MPI_COMM_WORLD), "MPI_Alltoall");
  std::vector<size_t> receive_at(static_cast<size_t>(size_) + 1, 0);
  for (size_t r = 0; r < static_cast<size_t>(size_); ++r) receive_at[r + 1] = receive_at[r] + static_cast<size_t>(from_each[r]);
  std::vector<std::byte> incoming;
  on_every_rank([&] { incoming.resize(receive_at.back()); });  // a rank without the memory fails them all
  // Every send posted before any receive waits, so no rank blocks another; a piece goes in messages
  // of at most piece_bytes, and the receiver takes each message at its size (messages from one rank
  // arrive in the order they were sent).
  std::vector<MPI_Request> sends;
  for (int r = 0; r < size_; ++r) {
    const auto ur = static_cast<size_t>(r);
    size_t at = receive_at[ur];
    for (const auto& piece : to_each[ur]) {
      if (r == rank_) {
        std::copy(piece.begin(), piece.end(), incoming.begin() + static_cast<std::ptrdiff_t>(at));
        at += piece.size();
        continue;
      }
      for (size_t from = 0; from < piece.size(); from += piece_bytes) {
        const int count = static_cast<int>(std::min(piece_bytes, piece.size() - from));
        check(MPI_Isend(piece.data() + from, count, MPI_BYTE, r, 0, MPI_COMM_WORLD, &sends.emplace_back()), "MPI_Isend");
      }
    }
  }
  for (int r = 0; r < size_; ++r) {
    if (r == rank_) continue;
    const auto ur = static_cast<size_t>(r);
    for (size_t at = receive_at[ur]; at < receive_at[ur + 1];) {
      MPI_Status status;
      check(MPI_Probe(r, 0, MPI_COMM_WORLD, &status), "MPI_Probe");
      int count = 0;
      check(MPI_Get_count(&status, MPI_BYTE, &count), "MPI_Get_count");
      if (count <= 0 || static_cast<size_t>(count) > receive_at[ur + 1] - at)
        throw Error(ErrorKind::internal, "exchange: a message of " + std::to_string(count) + " bytes from rank " +
                                             std::to_string(r) + " does not fit what it announced");
      check(MPI_Recv(incoming.data() + at, count, MPI_BYTE, r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "MPI_Recv");
      at += static_cast<size_t>(count);
    }
  }
  check(MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  return incoming;
}

void World::or_words(std::span<uint64_t> words) const { allreduce_in_pieces(words, MPI_UINT64_T, MPI_BOR); }

int64_t World::sum(int64_t x) const {
  check(MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
  return x;
}

void World::sum(std::span<int64_t> counts) const { allreduce_in_pieces(counts, MPI_INT64_T, MPI_SUM); }

void World::broadcast(std::span<std::byte> bytes, int root) const {
  for (size_t at = 0; at < bytes.size(); at += piece_bytes) {
    const size_t count = std::min(piece_bytes, bytes.size() - at);
    check(MPI_Bcast(bytes.data() + at, static_cast<int>(count), MPI_BYTE, root, MPI_COMM_WORLD), "MPI_Bcast");
  }
}

}  // namespace gql::dist

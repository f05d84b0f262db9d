// When an op's loop is worth a team of threads. Below about parallel_grain units of work (entries,
// edges, rows) starting the team and meeting at its barrier cost more than the loop itself, and far
// more where cores are shared: libgomp's threads busy-wait at barriers, so a thread whose partner was
// descheduled spins out its time slice (a 199-step k-hop loop on grid:100x100 took 0.08 to 0.16 s with 2
// threads beside a busy process, 0.016 s on one thread). Such loops run on the calling thread
// (`#pragma omp parallel ... if (worth_threads(work))`); large ones keep the whole team.
#pragma once

#include <cstdint>

namespace gql::cpu {

inline constexpr int64_t parallel_grain = int64_t{1} << 16;

inline bool worth_threads(int64_t work) noexcept { return work >= parallel_grain; }

// A thread's own part of a table of parts (its list of found vertices, its buckets): alone on its
// cache line, so one thread's writes to its part (a push_back moves the list's end) never take the
// line from the threads writing theirs.
template <class T>
struct alignas(64) ThreadPart {
  T value;
};

}  // namespace gql::cpu

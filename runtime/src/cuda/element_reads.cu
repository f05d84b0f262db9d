// The search of one entry of a graph or a sparse vector on the device (gql/device/values/element_reads.hpp):
// one thread's binary search in the entry's row, its answer read back in one small read.
#include <cstdint>
#include <cstring>

#include "gql/device/csr_view.cuh"
#include "gql/device/values/element_reads.hpp"
#include "small_launches.cuh"

namespace gql::gpu {
namespace {

// What the host reads back: whether the entry is stored, and its value as a word.
struct Answer {
  unsigned long long value;
  long long found;
};

template <class Word>
__global__ void find_in_row(const offset_t* offsets, long long nvals, const index_t* columns, const Word* values,
                            long long row, index_t column, Answer* answer) {
  const offset_t begin = offsets ? offsets[row] : 0, end = offsets ? offsets[row + 1] : nvals;
  const offset_t at = device::first_not_below(columns, begin, end, column);
  const bool found = at < end && columns[at] == column;
  *answer = Answer{found && values != nullptr ? static_cast<unsigned long long>(values[at]) : 0ULL, found ? 1LL : 0LL};
}

}  // namespace

bool find_entry(const SortedEntries& entries, int64_t row, int64_t column, void* value, const Stream& stream) {
  StreamBuffer<Answer> on_device(1, stream);
  const auto search = [&](auto word) {
    using Word = decltype(word);
    find_in_row<<<1, 1, 0, stream.get()>>>(entries.offsets, entries.nvals, entries.columns,
                                           static_cast<const Word*>(entries.values), row, static_cast<index_t>(column),
                                           on_device.data());
    GQL_CUDA_CHECK_LAUNCH();
    const Answer answer = read_back(on_device.data(), stream);
    if (answer.found == 0) return false;
    const auto stored = static_cast<Word>(answer.value);
    if (entries.value_bytes > 0) std::memcpy(value, &stored, sizeof(Word));
    return true;
  };
  if (entries.value_bytes == 0) return search(uint8_t{});  // a pattern graph: values null
  bool found = false;
  launches::with_word_of(entries.value_bytes, "element read", [&](auto word) { found = search(word); });
  return found;
}

}  // namespace gql::gpu

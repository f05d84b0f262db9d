// Device vectors as n slots, a value and a presence byte per index: the form in which the GPU's
// element-wise ops, masked assignments and vector products compute (the device twin of the host's
// VectorSlots, cpu/vector_assign.hpp, with the same rules). A dense vector is read as slots in
// place; a sparse one is spread into them; results are compacted back into DeviceVector's sparse
// form, or its dense form when every index is present (one small read: the count).
//
// Compiled by nvcc: generated code and the runtime library's vector products.
#pragma once

#include <cub/block/block_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>

#include "gql/builtin_monoid.hpp"
#include "gql/device.hpp"
#include "gql/graph.hpp"

namespace gql::device::values {

// A vector's slots as kernels read them.
template <class T>
struct SlotsView {
  const storage_t<T>* values = nullptr;
  const unsigned char* present = nullptr;  // null: every index is present (a dense vector)
  __device__ bool has(long long i) const { return present == nullptr || present[i] != 0; }
  __device__ T at(long long i) const { return T(values[i]); }
};

// Slots as kernels write them.
template <class T>
struct SlotsOut {
  storage_t<T>* values = nullptr;
  unsigned char* present = nullptr;
};

// Threads per block of the slots' kernels.
inline constexpr int block = 256;

// f(i) for every index of [0, n).
template <class F>
__global__ void for_each_index(long long n, F f) {
  for (long long i = blockIdx.x * static_cast<long long>(block) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * block)
    f(i);
}

// The language's conversion of an element into R's storage.
template <class R, class T>
__device__ storage_t<R> cast_to(T x) {
  return static_cast<storage_t<R>>(convert_element<R>(x));
}

template <class T>
struct Spread {
  const index_t* indices;
  const storage_t<T>* values;
  SlotsOut<T> out;
  __device__ void operator()(long long p) const {
    out.present[indices[p]] = 1;
    out.values[indices[p]] = values[p];
  }
};

template <class T>
struct Fill {
  storage_t<T>* values;
  storage_t<T> value;
  __device__ void operator()(long long i) const { values[i] = value; }
};

// ids[i] = i: a dense vector's indices, as a queue of vertices.
struct Sequence {
  index_t* ids;
  __device__ void operator()(long long i) const { ids[i] = static_cast<index_t>(i); }
};

struct PresenceOf {
  const unsigned char* present;
  int* positions;
  __device__ void operator()(long long i) const { positions[i] = present[i] ? 1 : 0; }
};

template <class T>
struct Gather {
  SlotsView<T> in;
  const int* positions;
  index_t* indices;
  storage_t<T>* values;
  __device__ void operator()(long long i) const {
    if (!in.has(i)) return;
    indices[positions[i]] = static_cast<index_t>(i);
    values[positions[i]] = in.values[i];
  }
};

// ---- element-wise kernels over slots (the rules of cpu/elementwise.hpp and cpu/vector_assign.hpp)

template <class R, class TA, class TB, class F>
struct Union {
  SlotsView<TA> a;
  SlotsView<TB> b;
  F fn;
  SlotsOut<R> out;
  __device__ void operator()(long long i) const {
    const bool pa = a.has(i), pb = b.has(i);
    if (pa && pb) out.values[i] = cast_to<R>(fn(a.at(i), b.at(i)));
    else if (pa) out.values[i] = cast_to<R>(a.at(i));
    else if (pb) out.values[i] = cast_to<R>(b.at(i));
    out.present[i] = pa || pb;
  }
};

template <class R, class TA, class TB, class F>
struct Intersect {
  SlotsView<TA> a;
  SlotsView<TB> b;
  F fn;
  SlotsOut<R> out;
  __device__ void operator()(long long i) const {
    const bool both = a.has(i) && b.has(i);
    if (both) out.values[i] = cast_to<R>(fn(a.at(i), b.at(i)));
    out.present[i] = both;
  }
};

template <class R, class T, class F>
struct Apply {
  SlotsView<T> a;
  F fn;
  SlotsOut<R> out;
  __device__ void operator()(long long i) const {
    const bool p = a.has(i);
    if (p) out.values[i] = cast_to<R>(fn(a.at(i)));
    out.present[i] = p;
  }
};

// Where a mask keeps an index out of an assignment: none under replace, else w's old entry.
template <class T>
__device__ void keep_old(long long i, const SlotsView<T>& old, bool replace, const SlotsOut<T>& out) {
  const bool p = !replace && old.has(i);
  if (p) out.values[i] = old.values[i];
  out.present[i] = p;
}

// w<m, replace> = t over slots: where the mask allows, t's entry (or none); elsewhere keep_old.
template <class T, class U>
struct Assign {
  SlotsView<U> in;
  SlotsView<T> old;
  const unsigned char* allowed;  // null: every index
  bool replace;
  SlotsOut<T> out;
  __device__ void operator()(long long i) const {
    if (allowed != nullptr && !allowed[i]) return keep_old(i, old, replace, out);
    const bool p = in.has(i);
    if (p) out.values[i] = cast_to<T>(in.at(i));
    out.present[i] = p;
  }
};

// w<m, replace> = value over slots.
template <class T>
struct AssignValue {
  storage_t<T> value;
  SlotsView<T> old;
  const unsigned char* allowed;
  bool replace;
  SlotsOut<T> out;
  __device__ void operator()(long long i) const {
    if (!allowed[i]) return keep_old(i, old, replace, out);
    out.values[i] = value;
    out.present[i] = 1;
  }
};

// Each block's combination of values[0..count) under the monoid (grid-stride), into partial[block].
template <Monoid M, class R, class T>
__global__ void reduce_blocks(const storage_t<T>* values, long long count, R* partial) {
  using Mo = BuiltinMonoid<M, R>;
  using BlockReduce = cub::BlockReduce<R, block>;
  __shared__ typename BlockReduce::TempStorage temp;
  R mine = Mo::identity();
  for (long long p = blockIdx.x * static_cast<long long>(block) + threadIdx.x; p < count;
       p += static_cast<long long>(gridDim.x) * block)
    mine = Mo::combine(mine, convert_element<R>(T(values[p])));
  const R total = BlockReduce(temp).Reduce(mine, [](R x, R y) { return Mo::combine(x, y); });
  if (threadIdx.x == 0) partial[blockIdx.x] = total;
}

}  // namespace gql::device::values

namespace gql::gpu {

namespace slots_detail {

inline unsigned grid_for(long long n) {
  constexpr int block = device::values::block;
  return static_cast<unsigned>(std::clamp<long long>((n + block - 1) / block, 1, 8192));
}

// f(i) for every index of [0, n), on `stream`.
template <class F>
void launch_for_each(long long n, const F& f, const Stream& stream) {
  if (n <= 0) return;
  device::values::for_each_index<<<grid_for(n), device::values::block, 0, stream.get()>>>(n, f);
  GQL_CUDA_CHECK_LAUNCH();
}

}  // namespace slots_detail

// n slots on the device, owned: the values (which a dense result takes over) and the presence bytes
// (scratch on `stream`, which must outlive them). Word-padded slots end their values on a whole
// 32-bit word, for kernels that CAS 1- or 2-byte values through the aligned word around them (vxm's
// accumulator).
template <class T>
class DeviceSlots {
 public:
  DeviceSlots(int64_t n, const Stream& stream, bool word_padded = false)
      : n_(n),
        values_(value_count(n, word_padded)),
        present_(static_cast<size_t>(std::max<int64_t>(n, 1)), stream) {}
  int64_t size() const noexcept { return n_; }
  device::values::SlotsView<T> view() const noexcept { return {values_.data(), present_.data()}; }
  device::values::SlotsOut<T> out() noexcept { return {values_.data(), present_.data()}; }
  DeviceBuffer<storage_t<T>>& values() noexcept { return values_; }
  const StreamBuffer<unsigned char>& present() const noexcept { return present_; }

 private:
  static size_t value_count(int64_t n, bool word_padded) {
    const size_t count = static_cast<size_t>(std::max<int64_t>(n, 1));
    if (!word_padded) return count;
    constexpr size_t per_word = sizeof(storage_t<T>) >= 4 ? 1 : 4 / sizeof(storage_t<T>);
    return (count + per_word - 1) / per_word * per_word;
  }
  int64_t n_;
  DeviceBuffer<storage_t<T>> values_;
  StreamBuffer<unsigned char> present_;
};

// A device vector read as slots: in place when dense, spread into owned slots when sparse.
template <class T>
class SlotsOf {
 public:
  SlotsOf(const DeviceVector<T>& v, const Stream& stream) {
    if (v.is_dense()) {
      view_ = {v.values().data(), nullptr};
      return;
    }
    DeviceSlots<T>& s = spread_.emplace(v.size(), stream);
    GQL_CUDA_CHECK(cudaMemsetAsync(s.out().present, 0, static_cast<size_t>(v.size()), stream.get()));
    slots_detail::launch_for_each(v.nvals(), device::values::Spread<T>{v.indices().data(), v.values().data(), s.out()},
                                  stream);
    view_ = s.view();
  }
  device::values::SlotsView<T> view() const noexcept { return view_; }

 private:
  std::optional<DeviceSlots<T>> spread_;
  device::values::SlotsView<T> view_;
};

// A dense device vector of n copies of `value`.
template <class T>
DeviceVector<T> filled_vector(int64_t n, storage_t<T> value, const Stream& stream) {
  DeviceVector<T> v = DeviceVector<T>::dense(n);
  slots_detail::launch_for_each(n, device::values::Fill<T>{v.values().data(), value}, stream);
  return v;
}

// The slots as a DeviceVector: the present indices in order, or dense (their values taken over)
// when every index is present, unless `keep_sparse` (the form of the host's products, whose results
// are sparse whatever their count). Waits for the count of present slots.
template <class T>
DeviceVector<T> compact(DeviceSlots<T>&& slots, const Stream& stream, bool keep_sparse = false) {
  const int64_t n = slots.size();
  if (n == 0) return DeviceVector<T>::sparse(0, 0);
  const cudaStream_t s = stream.get();
  StreamBuffer<int> positions(static_cast<size_t>(n), stream);
  slots_detail::launch_for_each(n, device::values::PresenceOf{slots.present().data(), positions.data()}, stream);
  int* last = static_cast<int*>(small_pinned_scratch());
  copy_async(&last[1], positions.data() + n - 1, sizeof(int), cudaMemcpyDeviceToHost, stream, __FILE__, __LINE__);
  size_t bytes = 0;
  GQL_CUDA_CHECK(
      cub::DeviceScan::ExclusiveSum(nullptr, bytes, positions.data(), positions.data(), static_cast<int>(n), s));
  StreamBuffer<unsigned char> scratch(std::max<size_t>(bytes, 1), stream);
  GQL_CUDA_CHECK(
      cub::DeviceScan::ExclusiveSum(scratch.data(), bytes, positions.data(), positions.data(), static_cast<int>(n), s));
  copy_async(&last[0], positions.data() + n - 1, sizeof(int), cudaMemcpyDeviceToHost, stream, __FILE__, __LINE__);
  stream.synchronize();
  const int64_t count = static_cast<int64_t>(last[0]) + last[1];
  if (count == n && !keep_sparse && slots.values().size() == static_cast<size_t>(n))
    return DeviceVector<T>::dense(n, std::move(slots.values()));
  if (count == n && !keep_sparse) {  // padded slots: their first n values
    DeviceVector<T> out = DeviceVector<T>::dense(n);
    copy_async(out.values().data(), slots.values().data(), out.values().bytes(), cudaMemcpyDeviceToDevice, stream,
               __FILE__, __LINE__);
    stream.synchronize();
    return out;
  }
  DeviceVector<T> out = DeviceVector<T>::sparse(n, count);
  if (count > 0)
    slots_detail::launch_for_each(
        n, device::values::Gather<T>{slots.view(), positions.data(), out.indices().data(), out.values().data()},
        stream);
  stream.synchronize();  // the result is complete on return, as the host's callers expect
  return out;
}

// reduce(values[0..count), M) on the device, read back (the monoid's identity when count is 0).
template <Monoid M, class R, class T>
R reduce_values(const storage_t<T>* values, long long count, const Stream& stream) {
  using Mo = BuiltinMonoid<M, R>;
  if (count == 0) return Mo::identity();
  if constexpr (M == Monoid::any) {  // every entry will do: the first
    auto* first = static_cast<storage_t<T>*>(small_pinned_scratch());
    copy_async(first, values, sizeof(storage_t<T>), cudaMemcpyDeviceToHost, stream, __FILE__, __LINE__);
    stream.synchronize();
    return convert_element<R>(T(*first));
  }
  const long long first_pass = std::min<long long>(slots_detail::grid_for(count), 1024);
  StreamBuffer<R> partial(static_cast<size_t>(first_pass) + 1, stream);
  device::values::reduce_blocks<M, R, T>
      <<<static_cast<unsigned>(first_pass), device::values::block, 0, stream.get()>>>(values, count, partial.data());
  GQL_CUDA_CHECK_LAUNCH();
  device::values::reduce_blocks<M, R, R><<<1, device::values::block, 0, stream.get()>>>(
      reinterpret_cast<const storage_t<R>*>(partial.data()), first_pass, partial.data() + first_pass);
  GQL_CUDA_CHECK_LAUNCH();
  R* result = static_cast<R*>(small_pinned_scratch());
  copy_async(result, partial.data() + first_pass, sizeof(R), cudaMemcpyDeviceToHost, stream, __FILE__, __LINE__);
  stream.synchronize();
  return *result;
}

}  // namespace gql::gpu

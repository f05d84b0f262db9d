// The vector ops of a CUDA kernel on the GPU, over the kernel's values where they are (Residents):
// element-wise union, intersect and apply, assignment of a vector or a scalar through a mask
// (structural or complemented, replace or merge), reduce, and the constructors (element reads and
// stores: gql/device/values/element_ops.hpp). Same results as gql::cpu's ops of the same names
// (cpu/elementwise.hpp, cpu/vector_assign.hpp); a float sum reduces in another order, so it agrees to
// rounding. Every result is left on the device.
//
// Host code. Compiled by nvcc (the element functions are __host__ __device__ lambdas) the ops run on
// the device; compiled by a host compiler (the JIT's NVRTC path, which builds no kernels for the
// spec's element functions) the same calls run gql::cpu's ops on the values' host side.
#pragma once

#include <optional>
#include <type_traits>
#include <utility>

#include "gql/common/mask.hpp"
#include "gql/common/shape_checks.hpp"
#include "gql/device/resident.hpp"
#include "gql/device/values/vector_mask.hpp"
#include "gql/error.hpp"

#if defined(__CUDACC__)
#include "gql/device/values/vector_slots.cuh"

namespace gql::gpu {

// w<mask, replace> = t for t's n slots of U (converted to T): without a mask w becomes t; with one,
// the mask picks per index between t and w's old entries.
template <class T, class U>
void assign_view(Resident<Vector<T>>& w, device::values::SlotsView<U> t, int64_t n, const DeviceVectorMask& mask,
                 bool replace, const Stream& stream) {
  std::optional<SlotsOf<T>> old;
  if (mask.active()) {
    common::check_same_size(w.rows(), n, "masked assignment");
    mask.check_size(n, "masked assignment");
    old.emplace(w.device(stream), stream);
  }
  DeviceSlots<T> out(n, stream);
  slots_detail::launch_for_each(n,
                                device::values::Assign<T, U>{t, old ? old->view() : device::values::SlotsView<T>{},
                                                             mask.allowed(), replace, out.out()},
                                stream);
  w.set_device(compact(std::move(out), stream));
}

// The same for slots made by the op: taken over as w's value when nothing is masked or converted
// (kept sparse when `sparse_result`, as the host's products leave theirs).
template <class T, class U>
void assign_slots(Resident<Vector<T>>& w, DeviceSlots<U>&& t, const DeviceVectorMask& mask, bool replace,
                  const Stream& stream, bool sparse_result = false) {
  if constexpr (std::is_same_v<T, U>) {
    if (!mask.active()) {
      w.set_device(compact(std::move(t), stream, sparse_result));
      return;
    }
  }
  assign_view(w, t.view(), t.size(), mask, replace, stream);
}

// w<mask, replace> = Op(a, b, fn): the element-wise kernel Op (Union, Intersect) over both slots.
template <template <class, class, class, class> class Op, class TW, class Mask, class TA, class TB, class F>
void combine(Resident<Vector<TW>>& w, const Mask& mask_in, bool replace, Resident<Vector<TA>>& a,
             Resident<Vector<TB>>& b, F fn, const Stream& stream, const char* op) {
  common::check_same_size(a.rows(), b.rows(), op);
  const SlotsOf<TA> sa(a.device(stream), stream);
  const SlotsOf<TB> sb(b.device(stream), stream);
  DeviceSlots<TW> t(a.rows(), stream);
  slots_detail::launch_for_each(a.rows(), Op<TW, TA, TB, F>{sa.view(), sb.view(), fn, t.out()}, stream);
  assign_slots(w, std::move(t), as_device_mask(mask_in, stream), replace, stream);
}

// w<mask, replace> = union(a, b, fn)
template <class TW, class Mask, class TA, class TB, class F>
void ewise_union(Resident<Vector<TW>>& w, const Mask& mask_in, bool replace, Resident<Vector<TA>>& a,
                 Resident<Vector<TB>>& b, F fn, const Stream& stream) {
  combine<device::values::Union>(w, mask_in, replace, a, b, fn, stream, "union");
}

// w<mask, replace> = intersect(a, b, fn)
template <class TW, class Mask, class TA, class TB, class F>
void ewise_intersect(Resident<Vector<TW>>& w, const Mask& mask_in, bool replace, Resident<Vector<TA>>& a,
                     Resident<Vector<TB>>& b, F fn, const Stream& stream) {
  combine<device::values::Intersect>(w, mask_in, replace, a, b, fn, stream, "intersect");
}

// w<mask, replace> = apply(a, fn)
template <class TW, class Mask, class TA, class F>
void apply(Resident<Vector<TW>>& w, const Mask& mask_in, bool replace, Resident<Vector<TA>>& a, F fn,
           const Stream& stream) {
  const SlotsOf<TA> sa(a.device(stream), stream);
  DeviceSlots<TW> t(a.rows(), stream);
  slots_detail::launch_for_each(a.rows(), device::values::Apply<TW, TA, F>{sa.view(), fn, t.out()}, stream);
  assign_slots(w, std::move(t), as_device_mask(mask_in, stream), replace, stream);
}

// w<mask, replace> = a: a copy made on the device, or the masked merge.
template <class TW, class Mask, class TA>
void assign(Resident<Vector<TW>>& w, const Mask& mask_in, bool replace, Resident<Vector<TA>>& a, const Stream& stream) {
  const DeviceVectorMask mask = as_device_mask(mask_in, stream);
  if constexpr (std::is_same_v<TW, TA>) {
    if (!mask.active()) {
      DeviceVector<TW> copy = copy_on_device(a.device(stream), stream);
      stream.synchronize();
      w.set_device(std::move(copy));
      return;
    }
  }
  const SlotsOf<TA> sa(a.device(stream), stream);
  assign_view(w, sa.view(), a.rows(), mask, replace, stream);
}

// w<mask, replace> = value: every index the mask allows (every index without one).
template <class TW, class Mask, class S>
void assign_scalar(Resident<Vector<TW>>& w, const Mask& mask_in, bool replace, S value, const Stream& stream) {
  const DeviceVectorMask mask = as_device_mask(mask_in, stream);
  const auto v = static_cast<storage_t<TW>>(convert_element<TW>(value));
  const int64_t n = w.rows();
  if (!mask.active()) {
    w.set_device(filled_vector<TW>(n, v, stream));
    return;
  }
  mask.check_size(n, "assign");
  const SlotsOf<TW> old(w.device(stream), stream);
  DeviceSlots<TW> out(n, stream);
  slots_detail::launch_for_each(n, device::values::AssignValue<TW>{v, old.view(), mask.allowed(), replace, out.out()},
                                stream);
  w.set_device(compact(std::move(out), stream));
}

// reduce(a, M) of a's stored entries: one read of the result.
template <Monoid M, class R, class T>
R reduce(Resident<Vector<T>>& a, const Stream& stream) {
  const DeviceVector<T>& v = a.device(stream);
  return reduce_values<M, R, T>(v.values().data(), v.nvals(), stream);
}

// vector<T>(n) (no entries) and vector<T>(n, fill = value) made on the device.
template <class T>
DeviceVector<T> empty_vector(int64_t n) {
  return DeviceVector<T>::sparse(n, 0);
}
template <class T, class S>
DeviceVector<T> filled_vector_of(int64_t n, S value, const Stream& stream) {
  return filled_vector<T>(n, static_cast<storage_t<T>>(convert_element<T>(value)), stream);
}

}  // namespace gql::gpu

#else
#include "gql/cpu/ops.hpp"

namespace gql::gpu {

template <class TW, class Mask, class TA, class TB, class F>
void ewise_union(Resident<Vector<TW>>& w, const Mask& mask, bool replace, Resident<Vector<TA>>& a,
                 Resident<Vector<TB>>& b, F fn, const Stream& stream) {
  cpu::ewise_union(w.host_for_write(stream), as_host_mask(mask, stream), replace, a.host(stream), b.host(stream), fn);
}
template <class TW, class Mask, class TA, class TB, class F>
void ewise_intersect(Resident<Vector<TW>>& w, const Mask& mask, bool replace, Resident<Vector<TA>>& a,
                     Resident<Vector<TB>>& b, F fn, const Stream& stream) {
  cpu::ewise_intersect(w.host_for_write(stream), as_host_mask(mask, stream), replace, a.host(stream), b.host(stream),
                       fn);
}
template <class TW, class Mask, class TA, class F>
void apply(Resident<Vector<TW>>& w, const Mask& mask, bool replace, Resident<Vector<TA>>& a, F fn,
           const Stream& stream) {
  cpu::apply(w.host_for_write(stream), as_host_mask(mask, stream), replace, a.host(stream), fn);
}
template <class TW, class Mask, class TA>
void assign(Resident<Vector<TW>>& w, const Mask& mask, bool replace, Resident<Vector<TA>>& a, const Stream& stream) {
  cpu::assign(w.host_for_write(stream), as_host_mask(mask, stream), replace, a.host(stream));
}
template <class TW, class Mask, class S>
void assign_scalar(Resident<Vector<TW>>& w, const Mask& mask, bool replace, S value, const Stream& stream) {
  cpu::assign_scalar(w.host_for_write(stream), as_host_mask(mask, stream), replace, value);
}
template <Monoid M, class R, class T>
R reduce(Resident<Vector<T>>& a, const Stream& stream) {
  return cpu::reduce<M, R>(a.host(stream));
}
template <class T>
Vector<T> empty_vector(int64_t n) {
  return Vector<T>(n);
}
template <class T, class S>
Vector<T> filled_vector_of(int64_t n, S value, const Stream&) {
  return Vector<T>::dense(n, static_cast<storage_t<T>>(convert_element<T>(value)));
}

}  // namespace gql::gpu
#endif

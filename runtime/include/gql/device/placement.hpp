// A CUDA kernel's arguments and result where its caller keeps them (a JIT kernel bound with device
// types, gql/jit.hpp). The result: the value a product left on the device
// (KernelContext::keep_device_result), else a copy of the host value made on the call's stream. An
// argument in device memory: a host copy for the kernel's ops (which read host containers).
//
// Host code (g++ or nvcc).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>

#include "gql/device.hpp"
#include "gql/error.hpp"
#include "gql/kernel_context.hpp"

namespace gql {

// The device twin of a result type; scalars stay on the host.
template <class T> struct on_device { using type = T; };
template <class T> struct on_device<Csr<T>> { using type = DeviceCsr<T>; };
template <class T> struct on_device<Matrix<T>> { using type = DeviceMatrix<T>; };
template <class T> struct on_device<Vector<T>> { using type = DeviceVector<T>; };
template <class... T> struct on_device<std::tuple<T...>> { using type = std::tuple<typename on_device<T>::type...>; };
template <class T> using on_device_t = typename on_device<T>::type;

namespace gpu {
namespace detail {

template <class T>
on_device_t<T> copy_to_device(const T& value, const Stream& stream) {
  if constexpr (std::is_same_v<on_device_t<T>, T>) return value;  // a scalar
  else return to_device(value, stream);
}

template <class... T>
std::tuple<on_device_t<T>...> copy_to_device(const std::tuple<T...>& values, const Stream& stream) {
  return std::apply([&](const T&... member) { return std::tuple<on_device_t<T>...>(copy_to_device(member, stream)...); },
                    values);
}

}  // namespace detail

template <class R>
on_device_t<R> result_on_device(R value, KernelContext& ctx) {
  if (std::shared_ptr<on_device_t<R>> kept = ctx.take_device_result<on_device_t<R>>()) return std::move(*kept);
  // Only the op that makes the returned value keeps one, and only of the result's own type.
  if (ctx.holds_device_result())
    throw Error(ErrorKind::internal, "the device result an operation kept is not of the kernel's result type");
  const Stream stream = Stream::for_call(ctx);
  on_device_t<R> out = detail::copy_to_device(value, stream);
  stream.synchronize();  // the copies read `value`, freed on return
  return out;
}

// Argument n of a kernel as its ops read it: the caller's host container, or a host copy (in `copy`)
// of the device container the caller passed (KernelContext::argument_on_device).
template <class Host>
const Host& argument_on_host(const void* argument, int n, KernelContext& ctx, std::optional<Host>& copy) {
  if (!ctx.argument_on_device(n)) return *static_cast<const Host*>(argument);
  const Stream stream = Stream::for_call(ctx);
  return copy.emplace(static_cast<const on_device_t<Host>*>(argument)->to_host(stream));  // waits for the stream
}

// Made in the library for every element type (runtime/src/cuda/placement.cpp), so that the host
// code the JIT compiles only calls them (compiling them there took half a second of g++).
#define GQL_PLACED_ELEMENT_TYPES(X) \
  X(bool) X(int8_t) X(int16_t) X(int32_t) X(int64_t) X(uint8_t) X(uint16_t) X(uint32_t) X(uint64_t) X(float) X(double)
#define GQL_PLACED_CONTAINERS(T, C)                                                                                 \
  extern template on_device_t<C<T>> result_on_device<C<T>>(C<T>, KernelContext&);                                  \
  extern template const C<T>& argument_on_host<C<T>>(const void*, int, KernelContext&, std::optional<C<T>>&);
#define GQL_PLACED(T) GQL_PLACED_CONTAINERS(T, Csr) GQL_PLACED_CONTAINERS(T, Matrix) GQL_PLACED_CONTAINERS(T, Vector)
GQL_PLACED_ELEMENT_TYPES(GQL_PLACED)
#undef GQL_PLACED
#undef GQL_PLACED_CONTAINERS

}  // namespace gpu
}  // namespace gql

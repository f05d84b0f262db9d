// Where a CUDA kernel's graph, matrix or vector is current: on the host, on the device, or both. The
// code generator decides where each op runs (gql::gpu ops on the device, gql::cpu ops on the host)
// and asks each operand for the side that op reads (host() or device()) and tells each output which
// side it was written on (set_host(), set_device(), host_for_write()). A value is copied only when an
// op needs it on a side where it is not current, and at most once until it is written again: the
// dirty flags of Halide's buffers. An argument is borrowed where the caller keeps it (host or device);
// the result is handed back from whichever side holds it. Element stores into a value on the device
// wait on the host until the value is next read, then are written there in one pass
// (gql/device/values/element_stores.hpp).
//
// Host code (g++ or nvcc).
#pragma once

#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>

#include "gql/device.hpp"
#include "gql/device/device_copy.hpp"
#include "gql/device/values/element_stores.hpp"
#include "gql/error.hpp"
#include "gql/graph.hpp"

namespace gql {

// The device twin of a host container; scalars stay on the host.
template <class T> struct on_device { using type = T; };
template <class T> struct on_device<Csr<T>> { using type = DeviceCsr<T>; };
template <class T> struct on_device<Matrix<T>> { using type = DeviceMatrix<T>; };
template <class T> struct on_device<Vector<T>> { using type = DeviceVector<T>; };
template <class... T> struct on_device<std::tuple<T...>> { using type = std::tuple<typename on_device<T>::type...>; };
template <class T> using on_device_t = typename on_device<T>::type;

namespace gpu {

// A copy made on the device, on `stream`.
template <class T>
DeviceCsr<T> copy_on_device(const DeviceCsr<T>& g, const Stream& stream) {
  DeviceCsr<T> out(g.n_rows(), g.n_cols(), g.nvals());
  out.row_offsets().copy_from_device(g.row_offsets(), stream);
  out.col_indices().copy_from_device(g.col_indices(), stream);
  out.values().copy_from_device(g.values(), stream);
  if (g.derived().symmetric()) out.derived().mark_symmetric();
  return out;
}
template <class T>
DeviceMatrix<T> copy_on_device(const DeviceMatrix<T>& m, const Stream& stream) {
  DeviceMatrix<T> out(m.n_rows(), m.n_cols());
  out.data().copy_from_device(m.data(), stream);
  return out;
}
template <class T>
DeviceVector<T> copy_on_device(const DeviceVector<T>& v, const Stream& stream) {
  DeviceVector<T> out = v.is_dense() ? DeviceVector<T>::dense(v.size()) : DeviceVector<T>::sparse(v.size(), v.nvals());
  if (!v.is_dense()) out.indices().copy_from_device(v.indices(), stream);
  out.values().copy_from_device(v.values(), stream);
  return out;
}

template <class Host>
class Resident {
 public:
  using Device = on_device_t<Host>;
  using Stored = storage_t<typename Host::value_type>;

  // A value not yet written (a declared local): empty on the host.
  Resident() : owned_host_(std::in_place), host_(&*owned_host_) {}
  // A value made on the host, or on the device.
  explicit Resident(Host value) : owned_host_(std::move(value)), host_(&*owned_host_) {}
  explicit Resident(Device value) : owned_device_(std::move(value)), device_(&*owned_device_) {}
  // An argument where the caller keeps it; it must outlive the call.
  static Resident borrow(const Host& value) {
    Resident r{Borrowed{}};
    r.host_ = &value;
    return r;
  }
  static Resident borrow(const Device& value) {
    Resident r{Borrowed{}};
    r.device_ = &value;
    return r;
  }

  Resident(Resident&& other) noexcept { *this = std::move(other); }
  Resident& operator=(Resident&& other) noexcept {
    if (this == &other) return *this;
    const bool host_owned = other.host_ != nullptr && other.owned_host_ && other.host_ == &*other.owned_host_;
    const bool device_owned =
        other.device_ != nullptr && other.owned_device_ && other.device_ == &*other.owned_device_;
    owned_host_ = std::move(other.owned_host_);
    owned_device_ = std::move(other.owned_device_);
    pending_ = std::move(other.pending_);
    other.pending_.clear();
    stores_stream_ = other.stores_stream_;
    host_ = host_owned ? &*owned_host_ : other.host_;
    device_ = device_owned ? &*owned_device_ : other.device_;
    other.host_ = nullptr;
    other.device_ = nullptr;
    return *this;
  }
  Resident(const Resident&) = delete;
  Resident& operator=(const Resident&) = delete;

  bool on_host() const noexcept { return host_ != nullptr; }
  bool on_device() const noexcept { return device_ != nullptr; }

  // The value on the host, downloaded on `stream` when only the device holds it.
  const Host& host(const Stream& stream) {
    if (host_ == nullptr) {
      write_pending(stream);
      owned_host_.emplace(device_->to_host(stream));
      host_ = &*owned_host_;
    }
    return *host_;
  }
  // The value on the host for an op that writes it in place (a masked assignment reads what it
  // keeps): current there, its own (a borrowed argument is copied), and no longer on the device.
  Host& host_for_write(const Stream& stream) {
    host(stream);
    if (!owned_host_ || host_ != &*owned_host_) {
      owned_host_.emplace(host_->clone());
      host_ = &*owned_host_;
    }
    drop_device();
    return *owned_host_;
  }
  // The value on the device, uploaded on `stream` when only the host holds it. A host graph's copy
  // belongs to its contents (device_copy), so an argument read by many calls is uploaded once.
  const Device& device(const Stream& stream) {
    write_pending(stream);
    if (device_ == nullptr) {
      if constexpr (std::is_same_v<Device, DeviceCsr<typename Host::value_type>>) {
        device_ = &device_copy(*host_, stream);
      } else {
        owned_device_.emplace(to_device(*host_, stream));  // complete on return: any stream may read it
        device_ = &*owned_device_;
      }
    }
    return *device_;
  }

  // The op wrote the whole value on one side; the other side's copy is stale.
  void set_host(Host value) {
    drop_device();
    owned_host_.emplace(std::move(value));
    host_ = &*owned_host_;
  }
  void set_device(Device value) {
    drop_host();
    drop_device();
    owned_device_.emplace(std::move(value));
    device_ = &*owned_device_;
  }

  // value[position] = stored on the device, where the value is current (position: row * cols + column,
  // or a vector's index): kept with the waiting stores until the value is next read, then written in
  // one pass (of two stores to one position the later wins). The device value becomes this Resident's
  // own (a borrowed one is copied on the device) and the host's copy is stale. The stores are written
  // on `stream` (the call's), also when nvals() reads the value.
  void store_on_device(int64_t position, Stored value, const Stream& stream) {
    if (device_ == nullptr) throw Error(ErrorKind::internal, "store_on_device: the value is not on the device");
    if (!owns_device()) {
      owned_device_.emplace(complete_device_copy(stream));
      device_ = &*owned_device_;
    }
    drop_host();
    pending_.add(position, value);
    stores_stream_ = stream.get();
    if (pending_.size() >= PendingStores<Stored>::limit) write_pending(stream);
  }

  // Shape and entry count, read where the value is (no copy); the count of a value whose stores wait
  // merges them first, as a read.
  int64_t rows() const noexcept { return host_ ? gql::rows(*host_) : device_rows(); }
  int64_t cols() const noexcept { return host_ ? gql::cols(*host_) : device_cols(); }
  int64_t nvals() const {
    if (host_) return gql::nvals(*host_);
    write_pending(Stream::borrow(stores_stream_));
    return device_nvals();
  }

  // The call's result, handed over from the side the caller asks for.
  Host take_host(const Stream& stream) {
    host(stream);
    if (owned_host_ && host_ == &*owned_host_) return std::move(*owned_host_);
    return host_->clone();
  }
  Device take_device(const Stream& stream) {
    device(stream);
    if (owns_device()) return std::move(*owned_device_);
    return complete_device_copy(stream);
  }

 private:
  struct Borrowed {};
  explicit Resident(Borrowed) {}
  void drop_device() noexcept {
    pending_.clear();
    owned_device_.reset();
    device_ = nullptr;
  }
  void drop_host() noexcept {
    owned_host_.reset();
    host_ = nullptr;
  }
  int64_t device_rows() const noexcept {
    if constexpr (std::is_same_v<Device, DeviceVector<typename Host::value_type>>) return device_->size();
    else return device_->n_rows();
  }
  int64_t device_cols() const noexcept {
    if constexpr (std::is_same_v<Device, DeviceVector<typename Host::value_type>>) return 1;
    else return device_->n_cols();
  }
  int64_t device_nvals() const noexcept {
    if constexpr (std::is_same_v<Device, DeviceMatrix<typename Host::value_type>>)
      return device_->n_rows() * device_->n_cols();
    else return device_->nvals();
  }

  bool owns_device() const noexcept { return owned_device_ && device_ == &*owned_device_; }
  // A copy of the current device value, complete on return (any stream may read it).
  Device complete_device_copy(const Stream& stream) const {
    Device copy = copy_on_device(*device_, stream);
    stream.synchronize();
    return copy;
  }
  // Writing the waiting stores is a read: the value stays what the stores made it.
  void write_pending(const Stream& stream) const {
    if (!pending_.empty()) write_stores(pending_, *owned_device_, stream);
  }

  std::optional<Host> owned_host_;
  mutable std::optional<Device> owned_device_;
  // The device value's stores not yet written (owned_device_ holds the value), and the stream they go on.
  mutable PendingStores<Stored> pending_;
  cudaStream_t stores_stream_ = nullptr;
  const Host* host_ = nullptr;      // current on the host (owned_host_ or the caller's), else null
  const Device* device_ = nullptr;  // current on the device (owned_device_, a copy or the caller's), else null
};

// A kernel's result (a Resident, a scalar or a tuple of them) on the host or on the device.
template <class Host>
Host take_host(Resident<Host>&& value, const Stream& stream) {
  return value.take_host(stream);
}
template <class Host>
on_device_t<Host> take_device(Resident<Host>&& value, const Stream& stream) {
  return value.take_device(stream);
}
template <class T>
  requires std::is_arithmetic_v<T>
T take_host(T value, const Stream&) {
  return value;
}
template <class T>
  requires std::is_arithmetic_v<T>
T take_device(T value, const Stream&) {
  return value;
}
template <class... M>
auto take_host(std::tuple<M...>&& values, const Stream& stream) {
  return std::apply([&](M&... member) { return std::make_tuple(take_host(std::move(member), stream)...); }, values);
}
template <class... M>
auto take_device(std::tuple<M...>&& values, const Stream& stream) {
  return std::apply([&](M&... member) { return std::make_tuple(take_device(std::move(member), stream)...); }, values);
}

}  // namespace gpu

// The language's rows/cols/nvals of a resident value.
template <class H> int64_t rows(const gpu::Resident<H>& v) noexcept { return v.rows(); }
template <class H> int64_t cols(const gpu::Resident<H>& v) noexcept { return v.cols(); }
template <class H> int64_t nvals(const gpu::Resident<H>& v) { return v.nvals(); }

}  // namespace gql

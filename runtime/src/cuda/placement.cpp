// A CUDA kernel's arguments and results where its caller keeps them, made once here for every
// element type (gql/device/placement.hpp declares them extern).
#include "gql/device/placement.hpp"

namespace gql::gpu {

#define GQL_PLACED_CONTAINERS(T, C)                                                           \
  template on_device_t<C<T>> result_on_device<C<T>>(C<T>, KernelContext&);                   \
  template const C<T>& argument_on_host<C<T>>(const void*, int, KernelContext&, std::optional<C<T>>&);
#define GQL_PLACED(T) GQL_PLACED_CONTAINERS(T, Csr) GQL_PLACED_CONTAINERS(T, Matrix) GQL_PLACED_CONTAINERS(T, Vector)
GQL_PLACED_ELEMENT_TYPES(GQL_PLACED)
#undef GQL_PLACED
#undef GQL_PLACED_CONTAINERS

}  // namespace gql::gpu

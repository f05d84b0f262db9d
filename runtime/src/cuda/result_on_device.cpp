// The results of CUDA kernels delivered on the device, made once here for every element type
// (gql/device/result_on_device.hpp declares them extern).
#include "gql/device/result_on_device.hpp"

namespace gql::gpu {

#define GQL_RESULT_ON_DEVICE(T)                                                  \
  template DeviceCsr<T> result_on_device<Csr<T>>(Csr<T>, KernelContext&);       \
  template DeviceMatrix<T> result_on_device<Matrix<T>>(Matrix<T>, KernelContext&); \
  template DeviceVector<T> result_on_device<Vector<T>>(Vector<T>, KernelContext&);
GQL_RESULT_ELEMENT_TYPES(GQL_RESULT_ON_DEVICE)
#undef GQL_RESULT_ON_DEVICE

}  // namespace gql::gpu

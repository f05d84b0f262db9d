// lu(A) on the GPU (gql/device/dense/lu.hpp) for both element types it takes, so that host code compiled
// without nvcc (the JIT's) can factor on the GPU.
#include "gql/device/dense/lu.hpp"

namespace gql::gpu {

template LuFactors<float> lu<float>(const Matrix<float>&, const DeviceLuOptions&, Stream);
template LuFactors<double> lu<double>(const Matrix<double>&, const DeviceLuOptions&, Stream);
template DeviceVector<int32_t> lu_in_place<float>(DeviceMatrix<float>&, const DeviceLuOptions&, const Stream&);
template DeviceVector<int32_t> lu_in_place<double>(DeviceMatrix<double>&, const DeviceLuOptions&, const Stream&);

}  // namespace gql::gpu

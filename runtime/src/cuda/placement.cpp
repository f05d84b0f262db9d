// The Residents of every container and element type, made once here (gql/device/placement.hpp
// declares them extern), so that the host code the JIT compiles only calls them.
#include "gql/device/placement.hpp"

namespace gql::gpu {

#define GQL_PLACED(T) template class Resident<Csr<T>>; template class Resident<Matrix<T>>; template class Resident<Vector<T>>;
GQL_PLACED_ELEMENT_TYPES(GQL_PLACED)
#undef GQL_PLACED

}  // namespace gql::gpu

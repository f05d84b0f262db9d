// How a product through a plain mask is computed: by rows (every product of the row, the mask
// filtering them), by the mask's entries (a join each), or by whichever needs less work. The OpenMP
// product (gql/cpu/spgemm_dot.hpp) and the GPU's (gql/device/spgemm/masked_dot.hpp) choose between the same
// methods, and a schedule's `masked dot` / `masked saxpy` forces one on either.
#pragma once

namespace gql::common {

enum class MaskedMethod { automatic, saxpy, dot };

}  // namespace gql::common

// The device graph ops through masks and into other element types (gql/device/values/graph_ops.hpp, the
// masked merge of gql/device/values/graph_assign.hpp) against their OpenMP twins (cpu/ops.hpp), exact:
// apply, union, intersect, copy, transpose, tril, triu and scalar assignment through every mask
// (structural, complemented, value and complemented value, the mask held only on the device) with
// replace and merge, into an output that holds entries (on the host or on the device) and into an
// empty one; conversions (f32 -> f64, i32 -> f32, f32 -> bool, which keeps every entry as the host's
// convert does, bool -> i32) of copies, transposes and bands, masked and not; apply, union and
// intersect into bool, whose false entries are dropped; and the errors of a mask or an output of
// another shape, the host's errors word for word. Graphs: skewed ones with hubs, rectangular, empty
// (0 x 0 and without entries), Kronecker, and the real graphs under GQL_DATA_DIR.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "gpu_check.hpp"
#include "graph_check.hpp"
#include "mask_values.hpp"
#include "skewed_graph.hpp"
#include "gql/device/ops.hpp"  // gql::gpu's graph ops, and gql/cpu/ops.hpp, the reference
#include "gql/generate.hpp"
#include "gql/io.hpp"

namespace graph_ops_masked_test {

using namespace gql;
using gpu_test::same_graph;
using test_support::mask_value;

// A graph of g's structure whose values cycle through mask_value's cases (zeros, -0.0, NaN).
template <class M, class T>
Csr<M> valued_like(const Csr<T>& g) {
  Array<offset_t> offsets(g.row_offsets().begin(), g.row_offsets().end());
  Array<index_t> cols(g.col_indices().begin(), g.col_indices().end());
  Array<storage_t<M>> vals;
  if constexpr (stores_values<M>)
    for (size_t p = 0; p < cols.size(); ++p)
      vals.push_back(static_cast<storage_t<M>>(mask_value<M>(static_cast<int64_t>(p))));
  return Csr<M>(g.n_rows(), g.n_cols(), std::move(offsets), std::move(cols), std::move(vals));
}

// The first rows of g (a rectangular graph when g is square).
template <class T>
Csr<T> first_rows(const Csr<T>& g, int64_t rows) {
  Array<offset_t> offsets(g.row_offsets().begin(), g.row_offsets().begin() + rows + 1);
  const auto nvals = static_cast<std::ptrdiff_t>(offsets.back());
  Array<index_t> cols(g.col_indices().begin(), g.col_indices().begin() + nvals);
  Array<storage_t<T>> vals;
  if constexpr (stores_values<T>) vals.assign(g.values().begin(), g.values().begin() + nvals);
  return Csr<T>(rows, g.n_cols(), std::move(offsets), std::move(cols), std::move(vals));
}

// One of the four masks over a graph M: structural or value, plain or complemented.
struct MaskForm {
  bool values;
  bool complement;
  std::string name() const {
    return std::string(complement ? "!" : "") + (values ? "value(M)" : "M");
  }
};
constexpr MaskForm mask_forms[] = {{false, false}, {false, true}, {true, false}, {true, true}};

template <class M>
common::MatrixMask host_mask(const Csr<M>& m, MaskForm form) {
  return form.values ? cpu::value_mask(m, form.complement) : cpu::mask(m, form.complement);
}
template <class M>
gpu::GraphMaskOf<M> device_mask(gpu::Resident<Csr<M>>& m, MaskForm form) {
  return form.values ? gpu::graph_value_mask(m, form.complement) : gpu::graph_mask(m, form.complement);
}

// Runs an op on the host into a copy of `before` and on the device into a Resident of it (held on the
// device when `before_on_device`), then compares: the device result must be only on the device.
template <class TC, class HostOp, class DeviceOp>
void run_both(const std::string& what, const Csr<TC>& before, bool before_on_device, HostOp host_op,
              DeviceOp device_op) {
  const Stream stream;
  Csr<TC> want = before.clone();
  host_op(want);
  gpu::Resident<Csr<TC>> got = before_on_device ? gpu::Resident<Csr<TC>>(to_device(before, stream))
                                                : gpu::Resident<Csr<TC>>(before.clone());
  device_op(got, stream);
  GPU_CHECK_MSG(got.on_device() && !got.on_host(), what + ": the result is left on the device only");
  GPU_CHECK_MSG(same_graph(got.take_host(stream), want), what);
}

struct Halved {
  template <class A>
  GQL_HD double operator()(A a) const { return double(a) / 2; }
};
struct MinusTwo {  // zero where the value is 2: a bool result drops those entries
  template <class A>
  GQL_HD double operator()(A a) const { return double(a) - 2; }
};
struct Difference {  // zero where both values agree
  template <class A, class B>
  GQL_HD double operator()(A a, B b) const { return double(a) - double(b); }
};

// Every op of the header into C through mask `form`, replace or merge, against the host's.
template <class TC, class T, class M>
void check_masked_ops(const std::string& name, const Csr<T>& A, const Csr<T>& B, const Csr<M>& mask_graph,
                      const Csr<TC>& before, bool before_on_device, MaskForm form, bool replace) {
  const Stream stream;
  gpu::Resident<Csr<M>> m(to_device(mask_graph, stream));  // the mask only on the device
  gpu::Resident<Csr<T>> a = gpu::Resident<Csr<T>>::borrow(A);
  gpu::Resident<Csr<T>> b(to_device(B, stream));
  const common::MatrixMask hm = host_mask(mask_graph, form);
  const std::string what = name + ", C<" + form.name() + (replace ? ", replace>" : ">") +
                           (before.nvals() > 0 ? " into " + std::to_string(before.nvals()) + " entries"
                                               : " into none") +
                           (before_on_device ? " on the device" : "") + ": ";
  const auto both = [&](const std::string& op, auto host_op, auto device_op) {
    run_both(what + op, before, before_on_device, host_op, device_op);
  };
  both("apply", [&](Csr<TC>& c) { cpu::apply(c, hm, replace, A, MinusTwo{}); },
       [&](auto& c, const Stream& s) { gpu::apply(c, device_mask(m, form), replace, a, MinusTwo{}, s); });
  both("union", [&](Csr<TC>& c) { cpu::ewise_union(c, hm, replace, A, B, Difference{}); },
       [&](auto& c, const Stream& s) { gpu::ewise_union(c, device_mask(m, form), replace, a, b, Difference{}, s); });
  both("intersect", [&](Csr<TC>& c) { cpu::ewise_intersect(c, hm, replace, A, B, Difference{}); },
       [&](auto& c, const Stream& s) {
         gpu::ewise_intersect(c, device_mask(m, form), replace, a, b, Difference{}, s);
       });
  both("copy", [&](Csr<TC>& c) { cpu::assign(c, hm, replace, A); },
       [&](auto& c, const Stream& s) { gpu::assign(c, device_mask(m, form), replace, a, s); });
  if (A.n_rows() == A.n_cols())  // through a mask of C's shape
    both("transpose", [&](Csr<TC>& c) { cpu::transpose(c, hm, replace, A); },
         [&](auto& c, const Stream& s) { gpu::transpose(c, device_mask(m, form), replace, a, s); });
  for (const int64_t k : {int64_t{-2}, int64_t{0}, int64_t{1}}) {
    if (gpu_test::small_inputs() && k != 0) continue;  // under compute-sanitizer: one band each
    const std::string band = " k = " + std::to_string(k);
    both("tril" + band, [&](Csr<TC>& c) { cpu::tril(c, hm, replace, A, k); },
         [&](auto& c, const Stream& s) { gpu::tril(c, device_mask(m, form), replace, a, k, s); });
    both("triu" + band, [&](Csr<TC>& c) { cpu::triu(c, hm, replace, A, k); },
         [&](auto& c, const Stream& s) { gpu::triu(c, device_mask(m, form), replace, a, k, s); });
  }
  // A plain mask fills its own entries; a complemented one fills every other position of C.
  if (!form.complement || A.n_rows() * A.n_cols() <= (int64_t{1} << 22))
    both("scalar", [&](Csr<TC>& c) { cpu::assign_scalar(c, hm, replace, 1.5); },
         [&](auto& c, const Stream& s) { gpu::assign_scalar(c, device_mask(m, form), replace, 1.5, s); });
}

// Every mask form x replace x outputs that hold entries (on either side) or none, for C of f32,
// i32 and bool; masks of float values (zeros, -0.0 and NaN among them), int and pattern graphs.
template <class T>
void check_masks(const std::string& name, const Csr<T>& A, const Csr<T>& B, const Csr<bool>& mask_structure,
                 const Csr<float>& held) {
  const Csr<float> float_mask = valued_like<float>(mask_structure);
  const Csr<int32_t> int_mask = valued_like<int32_t>(mask_structure);
  const Csr<float> empty(A.n_rows(), A.n_cols());
  const bool small = gpu_test::small_inputs();  // under compute-sanitizer: one output of each kind
  for (const MaskForm form : mask_forms)
    for (const bool replace : {false, true}) {
      check_masked_ops(name + " f32", A, B, float_mask, held, true, form, replace);
      check_masked_ops(name + " bool (pattern mask)", A, B, mask_structure, convert<bool>(held), false, form, replace);
      if (small) continue;
      check_masked_ops(name + " f32", A, B, float_mask, held, false, form, replace);
      check_masked_ops(name + " f32", A, B, float_mask, empty, false, form, replace);
      check_masked_ops(name + " i32 (int mask)", A, B, int_mask, convert<int32_t>(held), true, form, replace);
    }
}

// Conversions of copies, transposes and bands, without a mask and through one, against the host's.
template <class TC, class TA>
void check_conversion(const std::string& name, const Csr<TA>& A, const Csr<bool>& mask_structure) {
  const Stream stream;
  const std::string what = name + " " + std::to_string(sizeof(storage_t<TA>)) + "-byte -> " +
                           std::to_string(sizeof(storage_t<TC>)) + "-byte" +
                           (std::is_same_v<TC, bool> ? " (bool)" : "");
  gpu::Resident<Csr<TA>> a = gpu::Resident<Csr<TA>>::borrow(A);
  const Csr<TC> none(A.n_rows(), A.n_cols());
  run_both(what + ": copy", none, false, [&](Csr<TC>& c) { cpu::assign(c, cpu::no_mask(), false, A); },
           [&](auto& c, const Stream& s) { gpu::assign(c, cpu::no_mask(), false, a, s); });
  run_both(what + ": transpose", none, false, [&](Csr<TC>& c) { cpu::transpose(c, cpu::no_mask(), false, A); },
           [&](auto& c, const Stream& s) { gpu::transpose(c, cpu::no_mask(), false, a, s); });
  run_both(what + ": tril", none, false, [&](Csr<TC>& c) { cpu::tril(c, cpu::no_mask(), false, A, -1); },
           [&](auto& c, const Stream& s) { gpu::tril(c, cpu::no_mask(), false, a, -1, s); });
  run_both(what + ": triu", none, false, [&](Csr<TC>& c) { cpu::triu(c, cpu::no_mask(), false, A, 1); },
           [&](auto& c, const Stream& s) { gpu::triu(c, cpu::no_mask(), false, a, 1, s); });
  // Through a value mask into an output that holds entries: converted, then merged.
  const Csr<float> mask_graph = valued_like<float>(mask_structure);
  gpu::Resident<Csr<float>> m(to_device(mask_graph, stream));
  const Csr<TC> held = convert<TC>(first_rows(test_support::skewed_graph<float>(A.n_cols(), 29), A.n_rows()));
  for (const bool replace : {false, true}) {
    const std::string masked = what + (replace ? ": C<value(M), replace> = " : ": C<value(M)> = ");
    run_both(masked + "A", held, true,
             [&](Csr<TC>& c) { cpu::assign(c, cpu::value_mask(mask_graph, false), replace, A); },
             [&](auto& c, const Stream& s) { gpu::assign(c, gpu::graph_value_mask(m, false), replace, a, s); });
    run_both(masked + "tril(A)", held, false,
             [&](Csr<TC>& c) { cpu::tril(c, cpu::value_mask(mask_graph, false), replace, A, 0); },
             [&](auto& c, const Stream& s) { gpu::tril(c, gpu::graph_value_mask(m, false), replace, a, 0, s); });
    if (A.n_rows() == A.n_cols())  // through a mask of C's shape
      run_both(masked + "transpose(A)", held, false,
               [&](Csr<TC>& c) { cpu::transpose(c, cpu::value_mask(mask_graph, false), replace, A); },
               [&](auto& c, const Stream& s) { gpu::transpose(c, gpu::graph_value_mask(m, false), replace, a, s); });
  }
}

// apply, union and intersect into bool without a mask: the entries whose value converts to false are
// dropped on the device as on the host.
template <class T>
void check_bool_results(const std::string& name, const Csr<T>& A, const Csr<T>& B) {
  gpu::Resident<Csr<T>> a = gpu::Resident<Csr<T>>::borrow(A);
  gpu::Resident<Csr<T>> b = gpu::Resident<Csr<T>>::borrow(B);
  const Csr<bool> none(A.n_rows(), A.n_cols());
  run_both(name + ": apply into bool", none, false,
           [&](Csr<bool>& c) { cpu::apply(c, cpu::no_mask(), false, A, MinusTwo{}); },
           [&](auto& c, const Stream& s) { gpu::apply(c, cpu::no_mask(), false, a, MinusTwo{}, s); });
  run_both(name + ": union into bool", none, false,
           [&](Csr<bool>& c) { cpu::ewise_union(c, cpu::no_mask(), false, A, B, Difference{}); },
           [&](auto& c, const Stream& s) { gpu::ewise_union(c, cpu::no_mask(), false, a, b, Difference{}, s); });
  run_both(name + ": intersect into bool", none, false,
           [&](Csr<bool>& c) { cpu::ewise_intersect(c, cpu::no_mask(), false, A, B, Difference{}); },
           [&](auto& c, const Stream& s) { gpu::ewise_intersect(c, cpu::no_mask(), false, a, b, Difference{}, s); });
  run_both(name + ": apply into i32", Csr<int32_t>(A.n_rows(), A.n_cols()), false,
           [&](Csr<int32_t>& c) { cpu::apply(c, cpu::no_mask(), false, A, Halved{}); },
           [&](auto& c, const Stream& s) { gpu::apply(c, cpu::no_mask(), false, a, Halved{}, s); });
}

// The message of the error `op` throws ("" when none).
template <class Op>
std::string error_of(Op&& op) {
  try {
    op();
  } catch (const Error& e) {
    return std::string(to_string(e.kind())) + ": " + e.reason();
  }
  return "";
}

// A mask of another shape than the output, and an output of another shape than the result: the
// device throws the host's errors.
void check_shape_errors(const Csr<float>& A) {
  const Stream stream;
  const Csr<float> smaller = first_rows(A, A.n_rows() / 2);
  gpu::Resident<Csr<float>> a = gpu::Resident<Csr<float>>::borrow(A);
  gpu::Resident<Csr<float>> small_mask(to_device(smaller, stream));
  for (const bool complement : {false, true}) {
    const std::string what = complement ? "a complemented mask" : "a mask";
    const auto both = [&](const std::string& op, auto host_op, auto device_op) {
      Csr<float> want = A.clone();
      const std::string host_error = error_of([&] { host_op(want); });
      gpu::Resident<Csr<float>> got(A.clone());
      const std::string device_error = error_of([&] { device_op(got); });
      GPU_CHECK_MSG(!host_error.empty() && device_error == host_error,
                    what + " of another shape, " + op + ": the host says '" + host_error + "', the device '" +
                        device_error + "'");
    };
    both("apply", [&](Csr<float>& c) { cpu::apply(c, cpu::mask(smaller, complement), false, A, Halved{}); },
         [&](auto& c) { gpu::apply(c, gpu::graph_mask(small_mask, complement), false, a, Halved{}, stream); });
    both("copy", [&](Csr<float>& c) { cpu::assign(c, cpu::mask(smaller, complement), true, A); },
         [&](auto& c) { gpu::assign(c, gpu::graph_mask(small_mask, complement), true, a, stream); });
  }
  // A scalar fills the output's shape; a mask of another (here larger) shape is refused.
  gpu::Resident<Csr<float>> large_mask(to_device(A, stream));
  for (const bool complement : {false, true}) {
    Csr<float> want = smaller.clone();
    const std::string host_error =
        error_of([&] { cpu::assign_scalar(want, cpu::mask(A, complement), false, 2); });
    gpu::Resident<Csr<float>> got(smaller.clone());
    const std::string device_error =
        error_of([&] { gpu::assign_scalar(got, gpu::graph_mask(large_mask, complement), false, 2, stream); });
    GPU_CHECK_MSG(!host_error.empty() && device_error == host_error,
                  "a scalar through a mask of another shape: the host says '" + host_error + "', the device '" +
                      device_error + "'");
  }
  // The output smaller than the result, through a mask of the output's shape.
  Csr<float> want = smaller.clone();
  const std::string host_error = error_of([&] { cpu::tril(want, cpu::mask(smaller, false), false, A, 0); });
  gpu::Resident<Csr<float>> got(smaller.clone());
  const std::string device_error =
      error_of([&] { gpu::tril(got, gpu::graph_mask(small_mask, false), false, a, 0, stream); });
  GPU_CHECK_MSG(!host_error.empty() && device_error == host_error,
                "an output of another shape: the host says '" + host_error + "', the device '" + device_error + "'");
}

void check_graph(const std::string& name, const Csr<bool>& G) {
  const int64_t n = G.n_rows();
  const Csr<float> W = test_support::skewed_graph<float>(n, 5);
  const Csr<float> W2 = test_support::skewed_graph<float>(n, 17);
  const Csr<bool> mask_structure = test_support::skewed_graph<bool>(n, 11);
  const Csr<float> held = test_support::skewed_graph<float>(n, 13);
  check_masks(name + " weights", W, W2, mask_structure, held);
  if (!gpu_test::small_inputs()) check_masks(name + " x pattern mask", W, W2, G, held);
  check_bool_results(name + " f32", W, W2);
  check_bool_results(name + " i32", convert<int32_t>(W), convert<int32_t>(W2));
  const Csr<float> with_zeros = valued_like<float>(W);  // zeros, -0.0 and NaN among the values
  check_conversion<double>(name, W, mask_structure);
  check_conversion<float>(name, convert<int32_t>(W), mask_structure);
  check_conversion<bool>(name + " (zeros kept)", with_zeros, mask_structure);
  check_conversion<int32_t>(name, G, mask_structure);
}

}  // namespace graph_ops_masked_test

int main(int argc, char** argv) {
  using namespace graph_ops_masked_test;
  return gql::gpu_test::run_main(argc, argv, "gpu_test_graph_ops_masked", [] {
    ReadOptions undirected;
    undirected.symmetrize = true;
    const bool small = gpu_test::small_inputs();
    const int64_t n = small ? 300 : 3000;
    const Csr<float> skewed = test_support::skewed_graph<float>(n, 3);
    check_shape_errors(skewed);
    check_graph("skewed", convert<bool>(skewed));
    // Rectangular: a third of the rows of square graphs, the mask and the output alike.
    const auto third = [&](const auto& g) { return first_rows(g, n / 3); };
    check_masks("rectangular", third(skewed), third(test_support::skewed_graph<float>(n, 7)),
                third(test_support::skewed_graph<bool>(n, 11)), third(test_support::skewed_graph<float>(n, 13)));
    check_bool_results("rectangular", third(skewed), third(test_support::skewed_graph<float>(n, 7)));
    check_conversion<double>("rectangular", third(skewed), third(test_support::skewed_graph<bool>(n, 11)));
    // Empty: no rows at all, and rows without entries.
    check_masks("0 x 0", Csr<float>(0, 0), Csr<float>(0, 0), Csr<bool>(0, 0), Csr<float>(0, 0));
    check_masks("without entries", Csr<float>(50, 50), Csr<float>(50, 50), Csr<bool>(50, 50),
                test_support::skewed_graph<float>(50, 13));
    check_conversion<double>("without entries", Csr<float>(50, 50), Csr<bool>(50, 50));
    const std::string kron = small ? "kron:8" : "kron:12";
    check_graph(kron, generate_graph<bool>(kron, undirected));
    if (small) return;
    const char* data = std::getenv("GQL_DATA_DIR");
    if (data == nullptr) {
      std::printf("  real graphs skipped: GQL_DATA_DIR is not set\n");
      return;
    }
    check_graph("ca-GrQc", read_graph<bool>(std::string(data) + "/ca-GrQc.csv", undirected));
  });
}

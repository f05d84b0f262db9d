// A symmetric graph's upload by its upper triangle (gql/device.hpp, detail::upload_mirrored) against
// the plain upload of the same graph: offsets, columns and values equal, entry for entry, for pattern
// graphs and values of 1, 2, 4 and 8 bytes; with self-loops, empty rows, rows wholly before or after
// their diagonal, a hub row too large for a staging buffer, graphs of one chunk and of many; on
// generated graphs (Kronecker, uniform, grid) and the real road graph; to_device takes it for a large
// graph marked symmetric. A graph marked symmetric that is not is an internal error, and the uploads
// after it are right.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "gpu_check.hpp"
#include "gql/edge_list.hpp"
#include "gql/generate.hpp"
#include "gql/io.hpp"
#include "star_graph.hpp"

namespace {

using namespace gql;

template <class T>
bool same_arrays(const Csr<T>& a, const Csr<T>& b) {
  if (a.n_rows() != b.n_rows() || a.n_cols() != b.n_cols() || a.nvals() != b.nvals()) return false;
  for (int64_t r = 0; r <= a.n_rows(); ++r)
    if (a.row_offsets()[r] != b.row_offsets()[r]) return false;
  for (int64_t p = 0; p < a.nvals(); ++p) {
    if (a.col_indices()[p] != b.col_indices()[p]) return false;
    if constexpr (stores_values<T>)
      if (a.values()[p] != b.values()[p]) return false;
  }
  return true;
}

detail::HostCsrParts parts_of(const auto& g) {
  using T = typename std::decay_t<decltype(g)>::value_type;
  const size_t value_bytes = stores_values<T> ? sizeof(storage_t<T>) : 0;
  const void* values = nullptr;
  if constexpr (stores_values<T>) values = g.values().data();
  return {g.row_offsets().data(), g.col_indices().data(), values, value_bytes, g.n_rows(), g.nvals()};
}

// The mirrored upload of g, brought back, against g itself (which the plain upload reproduces: the
// device runtime's tests hold that).
template <class T>
void check_mirrored(const std::string& name, const Csr<T>& g) {
  Stream stream;
  DeviceCsr<T> out(g.n_rows(), g.n_cols(), g.nvals());
  void* values = nullptr;
  if constexpr (stores_values<T>) values = out.values().data();
  detail::upload_mirrored(parts_of(g), {out.row_offsets().data(), out.col_indices().data(), values}, stream);
  GPU_CHECK_MSG(same_arrays(out.to_host(stream), g), name + ": the mirrored upload differs from the graph");
}

// A small symmetric graph with every row shape: a self-loop alone, rows wholly before or after their
// diagonal, empty rows, a row holding every column, values that differ per edge.
Csr<int16_t> shapes() {
  EdgeList<int16_t> e;
  e.n_rows = e.n_cols = 9;
  const auto join = [&](int a, int b, int16_t w) {
    e.rows.push_back(a), e.cols.push_back(b), e.values.push_back(w);
    if (a != b) e.rows.push_back(b), e.cols.push_back(a), e.values.push_back(w);
  };
  join(0, 0, 7);                                           // a self-loop alone
  for (int v = 1; v < 9; ++v) join(8, v, static_cast<int16_t>(-v));  // row 8: every column, all before it
  join(2, 2, 3);
  join(2, 5, 11);
  join(3, 6, 12);                                          // rows 4 and 7 hold only 8
  return build_csr(std::move(e), ReadOptions{}, "shapes");
}

void check_not_symmetric() {
  // Directed: row 0 names 1 but row 1 not 0. Marked symmetric by mistake, the upload says so.
  Csr<bool> directed = generate_graph<bool>("kron:10");
  Stream stream;
  DeviceCsr<bool> out(directed.n_rows(), directed.n_cols(), directed.nvals());
  bool internal = false;
  try {
    detail::upload_mirrored(parts_of(directed), {out.row_offsets().data(), out.col_indices().data(), nullptr}, stream);
  } catch (const Error& e) {
    internal = e.kind() == ErrorKind::internal && std::string(e.what()).find("marked symmetric") != std::string::npos;
  }
  GPU_CHECK_MSG(internal, "a directed graph uploaded as symmetric is an internal error");
  ReadOptions symmetric;
  symmetric.symmetrize = true;
  check_mirrored("kron:10 after the error", generate_graph<bool>("kron:10", symmetric));
}

}  // namespace

int main(int argc, char** argv) {
  return gql::gpu_test::run_main(argc, argv, "gpu_test_symmetric_upload", [] {
    ReadOptions symmetric;
    symmetric.symmetrize = true;
    const bool small = gpu_test::small_inputs();
    check_mirrored("empty", Csr<bool>(5, 5));
    check_mirrored("row shapes (int16 values)", shapes());
    check_mirrored("kron:10", generate_graph<bool>("kron:10", symmetric));
    check_mirrored("kron:10 weighted (float)", kronecker<float>({.scale = 10, .weighted = true}, symmetric));
    check_not_symmetric();
    if (small) return;
    check_mirrored("kron:16", generate_graph<bool>("kron:16", symmetric));
    check_mirrored("kron:16 weighted (uint8)", kronecker<uint8_t>({.scale = 16, .weighted = true}, symmetric));
    check_mirrored("kron:16 weighted (double)", kronecker<double>({.scale = 16, .weighted = true}, symmetric));
    check_mirrored("urand:16 weighted (int32)", urand<int32_t>({.scale = 16, .weighted = true}, symmetric));
    check_mirrored("grid:300x300", generate_graph<bool>("grid:300x300"));
    // A hub row of 9 M entries, larger than a staging buffer: its upper part goes on its own.
    Csr<bool> star = gpu_test::star(9'000'000);
    check_mirrored("star of 9 M", star);
    // to_device takes the mirrored upload for a large graph marked symmetric.
    const Csr<bool> kron18 = generate_graph<bool>("kron:18", symmetric);
    GPU_CHECK(kron18.derived().symmetric() && detail::mirrored_upload_pays(kron18.n_rows(), kron18.nvals(), 0));
    Stream stream;
    GPU_CHECK_MSG(same_arrays(to_device(kron18, stream).to_host(stream), kron18), "kron:18 through to_device");
    const char* data = std::getenv("GQL_DATA_DIR");
    if (data == nullptr) {
      std::printf("  real graphs skipped: GQL_DATA_DIR is not set\n");
      return;
    }
    check_mirrored("luxembourg_osm", read_graph<bool>(std::string(data) + "/luxembourg_osm.mtx.gz", symmetric));
  });
}

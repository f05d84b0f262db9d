// The device's components (gql/device/traversal/components.hpp) against cpu::component_labels, exact: labels
// of 1, 2, 4 and 8 bytes, signed and unsigned, sparse (isolated vertices) and dense (every vertex with
// an edge); graphs marked symmetric and symmetric ones that are not marked (checked on the device);
// the refusals (a directed graph, labels missing at a vertex with edges) leave the labels as they
// were. Graphs: Kronecker with hubs and isolated vertices, sparse uniform ones with many components,
// a grid, and ca-GrQc under GQL_DATA_DIR.
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>

#include "gpu_check.hpp"
#include "gql/cpu/components.hpp"
#include "gql/device/traversal/components.hpp"
#include "gql/generate.hpp"
#include "gql/io.hpp"

namespace components_test {

using namespace gql;

// Random labels at exactly the rows with edges: dense when every vertex has one.
template <class L, class TG>
Vector<L> labels_at_rows(const Csr<TG>& G, uint32_t seed) {
  std::mt19937 draw(seed);
  std::uniform_int_distribution<int64_t> value(std::is_signed_v<L> ? -100 : 0, 100);
  Array<index_t> idx;
  Array<L> val;
  for (int64_t i = 0; i < G.n_rows(); ++i)
    if (G.row_degree(i) > 0) {
      idx.push_back(static_cast<index_t>(i));
      val.push_back(static_cast<L>(value(draw)));
    }
  if (static_cast<int64_t>(idx.size()) == G.n_rows()) return Vector<L>::dense(G.n_rows(), std::move(val));
  return Vector<L>::sparse(G.n_rows(), std::move(idx), std::move(val));
}

template <class L>
bool same_vector(const Vector<L>& a, const Vector<L>& b) {
  if (a.size() != b.size() || a.nvals() != b.nvals() || a.is_dense() != b.is_dense()) return false;
  for (int64_t p = 0; p < a.nvals(); ++p) {
    if (!a.is_dense() && a.indices()[static_cast<size_t>(p)] != b.indices()[static_cast<size_t>(p)]) return false;
    if (a.values()[static_cast<size_t>(p)] != b.values()[static_cast<size_t>(p)]) return false;
  }
  return true;
}

// Returns whether the device found components; checks them against the host's when it did, and that
// the labels are unchanged when it did not.
template <class L, class TG>
bool check_labels(const std::string& name, const Csr<TG>& G, Vector<L> start) {
  Vector<L> expected = start.clone();
  const bool host_found = cpu::component_labels(G, expected);
  gpu::Resident<Csr<TG>> g = gpu::Resident<Csr<TG>>::borrow(G);
  gpu::Resident<Vector<L>> labels(start.clone());
  KernelContext ctx;
  gpu::TraversalStats stats;
  const bool device_found = gpu::component_labels(g, labels, &stats, ctx);
  const Stream stream;
  GPU_CHECK_MSG(device_found == host_found, name + ": the device and the host disagree on whether they can answer");
  GPU_CHECK_MSG(same_vector(labels.host(stream), device_found ? expected : start),
                name + ": labels of " + std::to_string(sizeof(L)) + " bytes");
  if (device_found) GPU_CHECK_MSG(stats.edges_examined > 0 || G.nvals() == 0, name + ": no edge linked");
  return device_found;
}

template <class TG>
void check_graph(const std::string& name, const Csr<TG>& G, bool symmetric) {
  GPU_CHECK_MSG(check_labels<int64_t>(name, G, labels_at_rows<int64_t>(G, 1)) == symmetric, name + ": i64");
  check_labels<int32_t>(name, G, labels_at_rows<int32_t>(G, 2));
  check_labels<uint16_t>(name, G, labels_at_rows<uint16_t>(G, 3));
  check_labels<int8_t>(name, G, labels_at_rows<int8_t>(G, 4));
  check_labels<uint64_t>(name, G, labels_at_rows<uint64_t>(G, 5));
  if (!symmetric) return;
  // A vertex with edges left without a label: the loop would not find the components.
  Vector<int64_t> all = labels_at_rows<int64_t>(G, 6);
  if (all.is_dense() || all.nvals() == 0) return;
  Array<index_t> idx(all.indices().begin() + 1, all.indices().end());
  Array<int64_t> val(all.values().begin() + 1, all.values().end());
  GPU_CHECK_MSG(!check_labels<int64_t>(name + " (one label missing)", G,
                                       Vector<int64_t>::sparse(G.n_rows(), std::move(idx), std::move(val))),
                name + ": labels missing at a vertex with edges were taken");
}

// The same structure without the mark: the device checks it.
template <class TG>
Csr<TG> unmarked(const Csr<TG>& g) {
  return Csr<TG>(g.n_rows(), g.n_cols(), Array<offset_t>(g.row_offsets().begin(), g.row_offsets().end()),
                 Array<index_t>(g.col_indices().begin(), g.col_indices().end()),
                 Array<storage_t<TG>>(g.values().begin(), g.values().end()));
}

}  // namespace components_test

int main(int argc, char** argv) {
  using namespace components_test;
  return gql::gpu_test::run_main(argc, argv, "gpu_test_components", [] {
    ReadOptions undirected;
    undirected.symmetrize = true;
    const bool small = gpu_test::small_inputs();
    const std::string kron = small ? "kron:9" : "kron:16", sparse = small ? "urand:10:1" : "urand:16:1";
    const auto k = generate_graph<bool>(kron, undirected);
    check_graph(kron + " symmetrized", k, true);
    check_graph(kron + " symmetrized, not marked", unmarked(k), true);
    check_graph(sparse + " symmetrized", generate_graph<bool>(sparse, undirected), true);
    check_graph("grid:40x30", generate_graph<bool>("grid:40x30"), true);
    check_graph(kron + " directed", generate_graph<bool>(kron), false);
    check_graph("empty", Csr<bool>(5, 5), true);
    if (small) return;
    const char* data = std::getenv("GQL_DATA_DIR");
    if (data == nullptr) {
      std::printf("  real graphs skipped: GQL_DATA_DIR is not set\n");
      return;
    }
    check_graph("ca-GrQc", read_graph<bool>(std::string(data) + "/ca-GrQc.csv", undirected), true);
  });
}

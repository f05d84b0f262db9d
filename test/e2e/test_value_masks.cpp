// Value masks end to end (specs/value_masks.gql compiled by gqlc): each result checked against the
// GraphBLAS definition written out here, with masks whose stored values include zeros, so a value
// mask (true entries only) and a structural one (every entry) give different answers.
#include <fstream>
#include <optional>

#include "e2e_support.hpp"

namespace gql::e2e {
namespace {

const char* kProgram = "specs_value_masks";

using Slots = std::vector<std::optional<int32_t>>;

// n slots, an entry where `has(i)`, valued `value(i)`.
template <class Has, class Value>
Slots slots(int64_t n, Has has, Value value) {
  Slots s(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    if (has(i)) s[static_cast<size_t>(i)] = value(i);
  return s;
}

// The slots as a Matrix Market vector: coordinate (sparse) or array (dense, every slot filled).
std::string write_vector(const Slots& s, const std::string& name, bool dense = false) {
  const std::string path = scratch_dir() + "/" + name + ".mtx";
  std::ofstream out(path);
  if (dense) {
    out << "%%MatrixMarket matrix array integer general\n" << s.size() << " 1\n";
    for (const auto& v : s) out << v.value() << "\n";
    return path;
  }
  int64_t nvals = 0;
  for (const auto& v : s) nvals += v.has_value();
  out << "%%MatrixMarket matrix coordinate integer general\n" << s.size() << " 1 " << nvals << "\n";
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i]) out << i + 1 << " 1 " << *s[i] << "\n";
  return path;
}

Slots read_slots(const std::string& path) {
  const auto v = read_vector<int32_t>(path);
  Slots s(static_cast<size_t>(v.size()));
  for (size_t p = 0; p < v.values().size(); ++p)
    s[v.is_dense() ? p : static_cast<size_t>(v.indices()[p])] = v.values()[p];
  return s;
}

bool selects(const std::optional<int32_t>& mask_entry, bool value, bool complement) {
  return (mask_entry.has_value() && (!value || *mask_entry != 0)) != complement;
}

// w<mask, replace> = t, slot by slot.
Slots masked(const Slots& w, const Slots& t, const Slots& mask, bool value, bool complement, bool replace) {
  Slots out(w.size());
  for (size_t i = 0; i < w.size(); ++i)
    out[i] = selects(mask[i], value, complement) ? t[i] : replace ? std::nullopt : w[i];
  return out;
}

// The masks: sparse, with zeros and negatives among the stored values, and dense (a 0/1 vector).
struct Inputs {
  int64_t n;
  Slots keep_sparse, keep_dense, base, v;
};
Inputs make_inputs(int64_t n) {
  return {n, slots(n, [](int64_t i) { return i % 3 != 2; }, [](int64_t i) { return i % 2 ? 0 : int32_t(i % 5) - 2; }),
          slots(n, [](int64_t) { return true; }, [](int64_t i) { return int32_t(i % 4 == 1 || i % 7 == 0); }),
          slots(n, [](int64_t i) { return i % 4 == 0; }, [](int64_t i) { return 100 + int32_t(i); }),
          slots(n, [](int64_t i) { return i % 2 == 0; }, [](int64_t i) { return int32_t(i) + 1; })};
}

TEST(ValueMasks, ScalarAssignmentsAndCopies) {
  const Inputs in = make_inputs(40);
  const Slots five = slots(in.n, [](int64_t) { return true; }, [](int64_t) { return 5; });
  const std::string base = write_vector(in.base, "base"), v = write_vector(in.v, "v");
  for (bool dense : {false, true}) {
    SCOPED_TRACE(dense ? "dense mask" : "sparse mask");
    const Slots& keep = dense ? in.keep_dense : in.keep_sparse;
    const std::string args = "--keep " + write_vector(keep, "keep", dense) + " --base " + base;
    EXPECT_EQ(read_slots(run_ok(kProgram, "fill", args)), masked(in.base, five, keep, true, false, false));
    EXPECT_EQ(read_slots(run_ok(kProgram, "fill_outside", args)), masked(in.base, five, keep, true, true, true));
    EXPECT_EQ(read_slots(run_ok(kProgram, "fill_structural", args)), masked(in.base, five, keep, false, false, false));
    EXPECT_EQ(read_slots(run_ok(kProgram, "copy_through", args + " --v " + v)),
              masked(in.base, in.v, keep, true, false, true));
  }
}

// t = v * G over gather: each vertex sums the values of its in-neighbours that have one.
Slots gather(const Csr<bool>& G, const Slots& v) {
  Slots t(static_cast<size_t>(G.n_cols()));
  for (int64_t i = 0; i < G.n_rows(); ++i) {
    if (!v[static_cast<size_t>(i)]) continue;
    for (offset_t p = G.row_offsets()[i]; p < G.row_offsets()[i + 1]; ++p) {
      auto& slot = t[static_cast<size_t>(G.col_indices()[p])];
      slot = slot.value_or(0) + *v[static_cast<size_t>(i)];
    }
  }
  return t;
}

// Pushed and pulled (schedule `direction`): one answer, the reference's.
TEST(ValueMasks, VectorProductsInEveryDirection) {
  std::vector<std::string> graphs = {"grid:6x5", "kron:8"};
  if (have_shared_data()) graphs.push_back(data_graph("karate.mtx"));
  for (const std::string& input : graphs) {
    SCOPED_TRACE(input);
    const auto G = read_graph<bool>(input);
    const Inputs in = make_inputs(G.n_rows());
    const Slots t = gather(G, in.v);
    for (bool dense : {false, true}) {
      SCOPED_TRACE(dense ? "dense mask" : "sparse mask");
      const Slots& keep = dense ? in.keep_dense : in.keep_sparse;
      const std::string args = "--G " + input + " --keep " + write_vector(keep, "keep", dense) + " --base " +
                               write_vector(in.base, "base") + " --v " + write_vector(in.v, "v");
      for (const char* kernel : {"spread_push", "spread_pull"})
        EXPECT_EQ(read_slots(run_ok(kProgram, kernel, args)), masked(in.base, t, keep, true, false, false)) << kernel;
      EXPECT_EQ(read_slots(run_ok(kProgram, "spread_outside", args)), masked(in.base, t, keep, true, true, true));
    }
  }
}

// A weighted n x n graph file: entries (i, (i + s) % n) for each step s, valued value(i, s).
template <class Value>
std::string write_graph(const std::string& name, int64_t n, std::vector<int64_t> steps, Value value) {
  const std::string path = scratch_dir() + "/" + name + ".mtx";
  std::ofstream out(path);
  out << "%%MatrixMarket matrix coordinate real general\n" << n << " " << n << " " << n * int64_t(steps.size()) << "\n";
  for (int64_t i = 0; i < n; ++i)
    for (int64_t s : steps) out << i + 1 << " " << (i + s) % n + 1 << " " << value(i, s) << "\n";
  return path;
}

TEST(ValueMasks, GraphElementwiseOps) {
  const int64_t n = 12;
  const std::string g = write_graph("G", n, {1, 3}, [](int64_t i, int64_t s) { return double(i) + 0.5 * double(s); });
  // M shares the step-1 entries with G, half of them zero, and adds step-5 ones, a third zero.
  const std::string m = write_graph("M", n, {1, 5}, [](int64_t i, int64_t s) {
    return s == 1 ? double(i % 2) : (i % 3 == 0 ? 0.0 : -1.5);
  });
  const auto G = to_rows<double>(read_graph<double>(g)), M = to_rows<double>(read_graph<double>(m));
  const auto at = [](const RowMap<double>& r, int64_t i, index_t j) -> std::optional<double> {
    const auto it = r[static_cast<size_t>(i)].find(j);
    return it == r[static_cast<size_t>(i)].end() ? std::nullopt : std::optional<double>(it->second);
  };
  RowMap<double> scaled(n), kept(n);
  for (int64_t i = 0; i < n; ++i)
    for (index_t j = 0; j < n; ++j) {
      const auto mv = at(M, i, j), gv = at(G, i, j);
      const bool in_mask = mv && *mv != 0;
      // C<value(M)> = apply(G, twice), C = G before.
      if (gv) scaled[static_cast<size_t>(i)][j] = in_mask ? 2 * *gv : *gv;
      // C<!value(M), replace> = union(G, M, max), C = G before.
      if (!in_mask && (gv || mv)) kept[static_cast<size_t>(i)][j] = gv && mv ? std::max(*gv, *mv) : gv ? *gv : *mv;
    }
  const std::string args = "--G " + g + " --M " + m;
  expect_same(scaled, to_rows<double>(read_graph<double>(run_ok(kProgram, "scale_where", args))));
  expect_same(kept, to_rows<double>(read_graph<double>(run_ok(kProgram, "keep_outside", args))));
}

}  // namespace
}  // namespace gql::e2e

// Value masks (gql/cpu/value_mask.hpp) against the GraphBLAS definition written out entry by entry:
// a position is selected when the mask has an entry there and (value masks only) that entry, cast
// to bool as C casts, is true; complemented, every other position. Every form (structural or value,
// plain or complemented, merge or replace) over vectors and graphs whose masks hold bool, integer and
// float values with zeros among them (-0.0 and NaN too).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "cpu_test_support.hpp"
#include "mask_values.hpp"
#include "gql/cpu/ops.hpp"
#include "gql/cpu/value_mask.hpp"

namespace {

using gql::Csr;
using gql::Vector;
using gql::test_support::mask_value;
using Key = std::pair<int64_t, int64_t>;

struct Form {
  bool value;
  bool complement;
  bool replace;
};
std::vector<Form> every_form() {
  std::vector<Form> forms;
  for (bool value : {false, true})
    for (bool complement : {false, true})
      for (bool replace : {false, true}) forms.push_back({value, complement, replace});
  return forms;
}
std::string describe(const Form& f) {
  return std::string(f.value ? "value" : "structural") + (f.complement ? ", complemented" : "") +
         (f.replace ? ", replace" : ", merge");
}

// The reference's selection: an entry (or none) of the mask at a position.
template <class M>
bool selected(const std::optional<M>& entry, const Form& f) {
  const bool counts = entry.has_value() && (!f.value || static_cast<bool>(*entry));
  return counts != f.complement;
}

// ---- vectors ------------------------------------------------------------------------------------

constexpr int64_t kSize = 60;

// A mask of type M: sparse (every other index, values cycling through mask_value) or dense.
template <class M>
Vector<M> make_mask_vector(bool dense) {
  gql::Array<gql::storage_t<M>> values;
  gql::Array<gql::index_t> indices;
  for (int64_t i = 0; i < kSize; ++i) {
    if (!dense && i % 2 == 1) continue;
    indices.push_back(static_cast<gql::index_t>(i));
    values.push_back(static_cast<gql::storage_t<M>>(mask_value<M>(static_cast<int64_t>(i / 2 + i))));
  }
  if (dense) return Vector<M>::dense(kSize, std::move(values));
  return Vector<M>::sparse(kSize, std::move(indices), std::move(values));
}

// A sparse int32 vector with the entries i % period == phase, valued base + i.
Vector<int32_t> make_vector(int64_t period, int64_t phase, int32_t base) {
  gql::Array<gql::index_t> indices;
  gql::Array<int32_t> values;
  for (int64_t i = 0; i < kSize; ++i)
    if (i % period == phase) indices.push_back(static_cast<gql::index_t>(i)), values.push_back(base + static_cast<int32_t>(i));
  return Vector<int32_t>::sparse(kSize, std::move(indices), std::move(values));
}

template <class M>
gql::cpu::VectorMask vector_mask(const Vector<M>& m, const Form& f) {
  return f.value ? gql::cpu::value_mask(m, f.complement) : gql::cpu::mask(m, f.complement);
}

// w<mask, replace> = t entry by entry: selected positions take t's entry (or lose w's), others keep
// w's unless replace.
template <class M>
std::vector<std::optional<int32_t>> reference_vector_assign(const std::vector<std::optional<int32_t>>& w,
                                                            const std::vector<std::optional<int32_t>>& t,
                                                            const std::vector<std::optional<M>>& m, const Form& f) {
  std::vector<std::optional<int32_t>> out(w.size());
  for (size_t i = 0; i < w.size(); ++i) out[i] = selected(m[i], f) ? t[i] : f.replace ? std::nullopt : w[i];
  return out;
}

template <class M>
void check_vector_forms(bool dense_mask) {
  SCOPED_TRACE(dense_mask ? "dense mask" : "sparse mask");
  const Vector<M> mask = make_mask_vector<M>(dense_mask);
  const auto m = gql::test::entries(mask);
  const Vector<int32_t> old = make_vector(3, 0, 100), source = make_vector(2, 1, 500);
  std::vector<std::optional<int32_t>> filled(static_cast<size_t>(kSize), int32_t{7});
  for (const Form& f : every_form()) {
    SCOPED_TRACE(describe(f));
    Vector<int32_t> w = old.clone();
    gql::cpu::assign(w, vector_mask(mask, f), f.replace, source);
    EXPECT_EQ(gql::test::entries(w), reference_vector_assign(gql::test::entries(old), gql::test::entries(source), m, f));
    Vector<int32_t> s = old.clone();
    gql::cpu::assign_scalar(s, vector_mask(mask, f), f.replace, 7);
    EXPECT_EQ(gql::test::entries(s), reference_vector_assign(gql::test::entries(old), filled, m, f));
  }
}

TEST(ValueMask, VectorsOfBool) {
  check_vector_forms<bool>(false);
  check_vector_forms<bool>(true);
}
TEST(ValueMask, VectorsOfIntegers) {
  check_vector_forms<int32_t>(false);
  check_vector_forms<int64_t>(true);
  check_vector_forms<uint8_t>(false);
}
TEST(ValueMask, VectorsOfFloats) {
  check_vector_forms<float>(false);
  check_vector_forms<double>(true);
}

// A vector product through a value mask: the same answer pushed and pulled.
TEST(ValueMask, VectorProductPushAndPull) {
  using S = gql::test::PlusTimes<int32_t>;
  const auto G = gql::test::random_csr<int32_t>(kSize, kSize, 0.1, 61);
  const Vector<double> mask = make_mask_vector<double>(false);
  const auto m = gql::test::entries(mask);
  const Vector<int32_t> v = make_vector(2, 0, 1), old = make_vector(4, 1, 300);
  // t = v * G, entry by entry.
  std::vector<std::optional<int32_t>> t(static_cast<size_t>(kSize));
  const auto ve = gql::test::entries(v);
  for (const auto& [ij, g] : gql::test::to_map(G))
    if (ve[static_cast<size_t>(ij.first)]) {
      auto& slot = t[static_cast<size_t>(ij.second)];
      slot = slot.value_or(0) + *ve[static_cast<size_t>(ij.first)] * g;
    }
  for (const Form& f : every_form())
    for (auto direction : {gql::cpu::Direction::push, gql::cpu::Direction::pull}) {
      SCOPED_TRACE(describe(f) + (direction == gql::cpu::Direction::push ? ", push" : ", pull"));
      Vector<int32_t> w = old.clone();
      gql::KernelContext ctx(false);
      gql::cpu::vxm<S>(w, vector_mask(mask, f), f.replace, v, G, gql::cpu::TraversalOptions{direction, 15, 18, 0, "t"},
                       ctx);
      EXPECT_EQ(gql::test::entries(w), reference_vector_assign(gql::test::entries(old), t, m, f));
    }
}

// ---- graphs -------------------------------------------------------------------------------------

constexpr int64_t kRows = 30, kCols = 25;

// A mask graph of type M with values cycling through mask_value (a pattern graph: every entry true).
template <class M>
Csr<M> make_mask_graph(uint32_t seed) {
  const auto structure = gql::test::random_csr<bool>(kRows, kCols, 0.3, seed);
  gql::Array<gql::offset_t> offsets(structure.row_offsets().begin(), structure.row_offsets().end());
  gql::Array<gql::index_t> cols(structure.col_indices().begin(), structure.col_indices().end());
  gql::Array<gql::storage_t<M>> values;
  if constexpr (gql::stores_values<M>)
    for (size_t p = 0; p < cols.size(); ++p) values.push_back(mask_value<M>(static_cast<int64_t>(p)));
  return Csr<M>(kRows, kCols, std::move(offsets), std::move(cols), std::move(values));
}

template <class M>
gql::cpu::MatrixMask graph_mask(const Csr<M>& m, const Form& f) {
  return f.value ? gql::cpu::value_mask(m, f.complement) : gql::cpu::mask(m, f.complement);
}

// C<mask, replace> = Z entry by entry.
template <class M>
std::map<Key, int32_t> reference_graph_assign(const std::map<Key, int32_t>& c, const std::map<Key, int32_t>& z,
                                              const std::map<Key, M>& m, const Form& f) {
  std::map<Key, int32_t> out;
  for (int64_t i = 0; i < kRows; ++i)
    for (int64_t j = 0; j < kCols; ++j) {
      const auto at = m.find({i, j});
      const bool in = selected(at == m.end() ? std::nullopt : std::optional<M>(at->second), f);
      if (!in && f.replace) continue;
      const auto& from = in ? z : c;
      if (const auto it = from.find({i, j}); it != from.end()) out[{i, j}] = it->second;
    }
  return out;
}

template <class M>
void check_graph_forms(uint32_t seed) {
  const Csr<M> mask = make_mask_graph<M>(seed);
  const auto m = gql::test::to_map(mask);
  const auto old = gql::test::random_csr<int32_t>(kRows, kCols, 0.3, seed + 1, 0);
  const auto source = gql::test::random_csr<int32_t>(kRows, kCols, 0.3, seed + 2, 0);
  std::map<Key, int32_t> filled;
  for (int64_t i = 0; i < kRows; ++i)
    for (int64_t j = 0; j < kCols; ++j) filled[{i, j}] = 7;
  for (const Form& f : every_form()) {
    SCOPED_TRACE(describe(f));
    Csr<int32_t> C = old.clone();
    gql::cpu::assign(C, graph_mask(mask, f), f.replace, source);
    ASSERT_NO_THROW(C.validate());
    EXPECT_EQ(gql::test::to_map(C), reference_graph_assign(gql::test::to_map(old), gql::test::to_map(source), m, f));
    Csr<int32_t> S = old.clone();
    gql::cpu::assign_scalar(S, graph_mask(mask, f), f.replace, 7);
    ASSERT_NO_THROW(S.validate());
    EXPECT_EQ(gql::test::to_map(S), reference_graph_assign(gql::test::to_map(old), filled, m, f));
  }
}

TEST(ValueMask, PatternGraphsSelectEveryEntry) { check_graph_forms<bool>(70); }
TEST(ValueMask, GraphsOfIntegers) {
  check_graph_forms<int32_t>(71);
  check_graph_forms<uint64_t>(72);
}
TEST(ValueMask, GraphsOfFloats) {
  check_graph_forms<float>(73);
  check_graph_forms<double>(74);
}

// A product through a value mask: by rows and by the mask's entries, one answer, the reference's.
TEST(ValueMask, ProductUnderEveryMaskedMethod) {
  using S = gql::test::PlusTimes<int32_t>;
  const auto A = gql::test::random_csr<int32_t>(kRows, kRows, 0.15, 75);
  const auto B = gql::test::random_csr<int32_t>(kRows, kCols, 0.15, 76);
  const Csr<float> mask = make_mask_graph<float>(77);
  const auto m = gql::test::to_map(mask);
  const auto old = gql::test::random_csr<int32_t>(kRows, kCols, 0.2, 78, 0);
  const auto full = gql::test::reference_product<S>(A, B, nullptr, false);
  for (const Form& f : every_form())
    for (auto method : {gql::cpu::MaskedMethod::saxpy, gql::cpu::MaskedMethod::dot, gql::cpu::MaskedMethod::automatic}) {
      SCOPED_TRACE(describe(f) + ", method " + std::to_string(static_cast<int>(method)));
      Csr<int32_t> C = old.clone();
      gql::KernelContext ctx(false);
      gql::cpu::mxm<S>(C, graph_mask(mask, f), f.replace, A, B,
                       gql::cpu::ProductOptions{gql::cpu::Accumulator::automatic, 0, "t", method}, ctx);
      ASSERT_NO_THROW(C.validate());
      EXPECT_EQ(gql::test::to_map(C), reference_graph_assign(gql::test::to_map(old), full, m, f));
    }
}

// A value mask whose values are all true is its structure, viewed in place; one with false values
// keeps the structure of its true entries.
TEST(ValueMask, KeepsOnlyWhatItMade) {
  const Csr<int32_t> ones = gql::cpu::apply<int32_t>(make_mask_graph<bool>(79), [](bool) { return 1; });
  const auto all_true = gql::cpu::value_mask(ones, false);
  EXPECT_EQ(all_true.kept, nullptr);
  EXPECT_EQ(all_true.col_indices.data(), ones.col_indices().data());
  const auto some_false = gql::cpu::value_mask(make_mask_graph<int32_t>(79), false);
  ASSERT_NE(some_false.kept, nullptr);
  EXPECT_EQ(some_false.col_indices.data(), some_false.kept->col_indices().data());
}

}  // namespace
